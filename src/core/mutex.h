/*
 * core/mutex.h — a mutex that knows its owner, and CZ_ASSERT, so that a
 * function documented "called with mu held" says so in code:
 *
 *     static pjob_t *next_staged(cz_prover_t *p)
 *     {
 *         CZ_ASSERT(cz_mutex_held(&p->mu));
 *
 * (sqlite's assert(sqlite3_mutex_held(db->mutex))). The owner is recorded
 * only where assertions are compiled in: debug builds (no NDEBUG) and
 * builds with CUZK_ASSERTS (the sanitizer builds turn it on); elsewhere a
 * cz_mutex_t is a pthread mutex and nothing more.
 *
 * A failed CZ_ASSERT prints the file, line and condition and aborts: it is
 * a bug in cuzk, never a user error (those return CZ_E* codes).
 * Thread-safety: as pthread mutexes; cz_mutex_held may be called by any
 * thread and is exact for the calling thread.
 */
#ifndef CUZK_CORE_MUTEX_H
#define CUZK_CORE_MUTEX_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#if !defined(NDEBUG) || defined(CUZK_ASSERTS)
#define CZ_ASSERTS_ON 1
#else
#define CZ_ASSERTS_ON 0
#endif

/* Print "file:line: assertion failed: cond" and abort. */
_Noreturn void cz__assert_fail(const char *file, int line, const char *cond);

#if CZ_ASSERTS_ON
#define CZ_ASSERT(cond) ((cond) ? (void)0 : cz__assert_fail(__FILE__, __LINE__, #cond))
#else
#define CZ_ASSERT(cond) ((void)0)
#endif

typedef struct cz_mutex {
    pthread_mutex_t m;
#if CZ_ASSERTS_ON
    _Atomic uintptr_t owner; /* (uintptr_t)pthread_self() of the holder, 0 when free */
#endif
} cz_mutex_t;

static inline void cz_mutex_init(cz_mutex_t *mu)
{
    pthread_mutex_init(&mu->m, NULL);
#if CZ_ASSERTS_ON
    atomic_init(&mu->owner, 0);
#endif
}

static inline void cz_mutex_destroy(cz_mutex_t *mu)
{
    pthread_mutex_destroy(&mu->m);
}

static inline void cz_mutex_lock(cz_mutex_t *mu)
{
    pthread_mutex_lock(&mu->m);
#if CZ_ASSERTS_ON
    atomic_store_explicit(&mu->owner, (uintptr_t)pthread_self(), memory_order_relaxed);
#endif
}

static inline void cz_mutex_unlock(cz_mutex_t *mu)
{
#if CZ_ASSERTS_ON
    atomic_store_explicit(&mu->owner, 0, memory_order_relaxed);
#endif
    pthread_mutex_unlock(&mu->m);
}

/* True when the calling thread holds |mu| (always true where assertions are off). */
static inline bool cz_mutex_held(cz_mutex_t *mu)
{
#if CZ_ASSERTS_ON
    return atomic_load_explicit(&mu->owner, memory_order_relaxed) == (uintptr_t)pthread_self();
#else
    (void)mu;
    return true;
#endif
}

/*
 * pthread_cond_wait / _timedwait on a cz_mutex_t: the owner is cleared for
 * the wait (another thread takes the mutex meanwhile) and set again after.
 */
static inline int cz_cond_wait(pthread_cond_t *cv, cz_mutex_t *mu)
{
#if CZ_ASSERTS_ON
    atomic_store_explicit(&mu->owner, 0, memory_order_relaxed);
#endif
    int rc = pthread_cond_wait(cv, &mu->m);
#if CZ_ASSERTS_ON
    atomic_store_explicit(&mu->owner, (uintptr_t)pthread_self(), memory_order_relaxed);
#endif
    return rc;
}

static inline int cz_cond_timedwait(pthread_cond_t *cv, cz_mutex_t *mu, const struct timespec *ts)
{
#if CZ_ASSERTS_ON
    atomic_store_explicit(&mu->owner, 0, memory_order_relaxed);
#endif
    int rc = pthread_cond_timedwait(cv, &mu->m, ts);
#if CZ_ASSERTS_ON
    atomic_store_explicit(&mu->owner, (uintptr_t)pthread_self(), memory_order_relaxed);
#endif
    return rc;
}

#endif /* CUZK_CORE_MUTEX_H */
