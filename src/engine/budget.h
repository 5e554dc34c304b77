/*
 * engine/budget.h — the engine's memory budget.
 *
 * Every partition reserves its estimated bytes before synthesis and gives
 * them back in parts as its buffers are freed (a/b/c right after the device
 * region, the rest after the epilogue). The reserved total never exceeds the
 * budget: a reservation that does not fit waits until enough is released.
 * A reservation larger than the whole budget can never fit and fails at once
 * (CZ_ERANGE) instead of waiting forever.
 *
 * Ordering: waiters are served first come, first served (a FIFO of waiters),
 * so a large reservation is not starved by a stream of small ones.
 *
 * Thread-safety: every function may be called from any thread; each takes
 * |mu| itself (a cz_mutex_t: the static helpers that need it held assert
 * so in debug and sanitizer builds).
 */
#ifndef CUZK_ENGINE_BUDGET_H
#define CUZK_ENGINE_BUDGET_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/mutex.h"

typedef struct cz_budget_waiter cz_budget_waiter_t;

/*
 * Memory reserved in the budget that its holder can give back on demand
 * (the recycler's kept blocks): asked for at least |bytes|, it gives back
 * what it can through cz_budget_release and returns how much (0: none).
 * Called without the budget's lock, by a waiter.
 */
typedef size_t cz_budget_reclaim_fn(void *arg, size_t bytes);

typedef struct {
    cz_mutex_t mu;                   /* protects the (mu) fields below */
    pthread_cond_t cv;               /* reserved dropped, a waiter left, or closed */
    size_t total;                    /* immutable */
    size_t reserved;                 /* (mu) */
    size_t peak;                     /* (mu) highest |reserved| seen */
    cz_budget_waiter_t *head, *tail; /* (mu) waiters in arrival order */
    bool closed;                     /* (mu) shutdown: waiters give up */
    size_t taken;                    /* (mu) of |reserved|: cz_budget_take_if_room's */
    cz_budget_reclaim_fn *reclaim;   /* set before any reservation (NULL: none) */
    void *reclaim_arg;
} cz_budget_t;

/* The host's physical memory in bytes (8 GiB where the OS does not say). */
size_t cz_budget_physical(void);
/* Physical memory minus |margin| (at least 1 GiB is left to work with). */
size_t cz_budget_auto(size_t margin);

void cz_budget_init(cz_budget_t *b, size_t total);
void cz_budget_destroy(cz_budget_t *b);
/* The reclaim hook (before the budget is used): a waiter at the head of the
 * queue that does not fit asks it for the shortfall before it waits. */
void cz_budget_set_reclaim(cz_budget_t *b, cz_budget_reclaim_fn *fn, void *arg);

/*
 * Reserve |bytes|, waiting for room in arrival order (at the head of the
 * queue, reclaimable memory is asked back first: a kept block never keeps
 * a partition waiting). Returns 0, CZ_ERANGE
 * when bytes > total, or CZ_ECANCELED when the budget was closed or
 * |*abort| became true while waiting (checked on every wake-up; use
 * cz_budget_wake to prompt a re-check).
 */
int cz_budget_reserve(cz_budget_t *b, size_t bytes, const atomic_bool *abort);
void cz_budget_release(cz_budget_t *b, size_t bytes);
/* Reserve |bytes| only if that needs no waiting: room now and nobody
 * queued ahead (a waiter is never overtaken). */
bool cz_budget_try_reserve(cz_budget_t *b, size_t bytes);
/*
 * Reserve |bytes| if they fit now, ahead of any waiter; never waits. For
 * memory that is not a partition's (the prover's params in host memory,
 * the CUDA backend's pinned params copies: without one a window is copied
 * through bounce buffers instead). |leave|: the takes together, these
 * bytes included, must leave that much of the budget to partitions (the
 * largest partition: a take of memory that is only worth having must not
 * starve the partitions for good, as it is held until its set is dropped,
 * which takes a region, which takes a partition). Give back with
 * cz_budget_give_taken.
 */
bool cz_budget_take_if_room(cz_budget_t *b, size_t bytes, size_t leave);
void cz_budget_give_taken(cz_budget_t *b, size_t bytes);
/* Wake every waiter (after setting an abort flag). */
void cz_budget_wake(cz_budget_t *b);
/* Make every current and future wait return CZ_ECANCELED. */
void cz_budget_close(cz_budget_t *b);

size_t cz_budget_reserved(cz_budget_t *b);
size_t cz_budget_peak(cz_budget_t *b);

#endif /* CUZK_ENGINE_BUDGET_H */
