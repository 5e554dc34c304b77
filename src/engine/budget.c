/*
 * engine/budget.c — memory budget with FIFO waiters (see engine/budget.h).
 */
#include "engine/budget.h"

#include <unistd.h>

#include "cuzk/error.h"

size_t cz_budget_physical(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : (size_t)8 << 30;
}

size_t cz_budget_auto(size_t margin)
{
    const size_t phys = cz_budget_physical();
    const size_t floor = (size_t)1 << 30;
    return phys > margin + floor ? phys - margin : floor;
}

struct cz_budget_waiter {
    cz_budget_waiter_t *next;
};

void cz_budget_init(cz_budget_t *b, size_t total)
{
    cz_mutex_init(&b->mu);
    pthread_cond_init(&b->cv, NULL);
    b->total = total;
    b->reserved = b->peak = b->taken = 0;
    b->head = b->tail = NULL;
    b->closed = false;
    b->reclaim = NULL;
    b->reclaim_arg = NULL;
}

void cz_budget_destroy(cz_budget_t *b)
{
    pthread_cond_destroy(&b->cv);
    cz_mutex_destroy(&b->mu);
}

/* Take |w| out of the FIFO; b->mu held (the list is (mu)). */
static void unlink_waiter(cz_budget_t *b, cz_budget_waiter_t *w)
{
    CZ_ASSERT(cz_mutex_held(&b->mu));
    cz_budget_waiter_t **pp = &b->head, *prev = NULL;
    while (*pp != w) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    *pp = w->next;
    if (b->tail == w)
        b->tail = prev;
}

void cz_budget_set_reclaim(cz_budget_t *b, cz_budget_reclaim_fn *fn, void *arg)
{
    cz_mutex_lock(&b->mu);
    b->reclaim = fn;
    b->reclaim_arg = arg;
    cz_mutex_unlock(&b->mu);
}

/* Ask the reclaim hook for |bytes| (b->mu held, dropped around the call: the hook releases
 * through cz_budget_release); true if it gave any back. */
static bool reclaim_shortfall(cz_budget_t *b, size_t bytes)
{
    CZ_ASSERT(cz_mutex_held(&b->mu));
    cz_budget_reclaim_fn *fn = b->reclaim;
    void *arg = b->reclaim_arg;
    cz_mutex_unlock(&b->mu);
    const size_t got = fn(arg, bytes);
    cz_mutex_lock(&b->mu);
    return got > 0;
}

int cz_budget_reserve(cz_budget_t *b, size_t bytes, const atomic_bool *abort)
{
    if (bytes > b->total)
        return CZ_ERANGE;
    cz_budget_waiter_t me = { NULL };
    cz_mutex_lock(&b->mu);
    if (b->tail)
        b->tail->next = &me;
    else
        b->head = &me;
    b->tail = &me;
    int rc = CZ_OK;
    for (;;) {
        if (b->closed || (abort && atomic_load(abort))) {
            rc = CZ_ECANCELED;
            break;
        }
        if (b->head == &me && b->reserved + bytes <= b->total)
            break;
        /* no keep is accepted while a waiter is queued (try_reserve), so what the hook
         * frees stays free for this one */
        if (b->head == &me && b->reclaim && reclaim_shortfall(b, b->reserved + bytes - b->total))
            continue;
        cz_cond_wait(&b->cv, &b->mu);
    }
    unlink_waiter(b, &me);
    if (rc == CZ_OK) {
        b->reserved += bytes;
        if (b->reserved > b->peak)
            b->peak = b->reserved;
    }
    pthread_cond_broadcast(&b->cv); /* the next waiter may now be at the head */
    cz_mutex_unlock(&b->mu);
    return rc;
}

bool cz_budget_try_reserve(cz_budget_t *b, size_t bytes)
{
    cz_mutex_lock(&b->mu);
    bool ok = !b->closed && !b->head && bytes <= b->total - b->reserved;
    if (ok) {
        b->reserved += bytes;
        if (b->reserved > b->peak)
            b->peak = b->reserved;
    }
    cz_mutex_unlock(&b->mu);
    return ok;
}

bool cz_budget_take_if_room(cz_budget_t *b, size_t bytes, size_t leave)
{
    cz_mutex_lock(&b->mu);
    const bool ok = !b->closed && bytes <= b->total - b->reserved && leave <= b->total - b->taken &&
                    bytes <= b->total - b->taken - leave;
    if (ok) {
        b->reserved += bytes;
        b->taken += bytes;
        if (b->reserved > b->peak)
            b->peak = b->reserved;
    }
    cz_mutex_unlock(&b->mu);
    return ok;
}

void cz_budget_release(cz_budget_t *b, size_t bytes)
{
    cz_mutex_lock(&b->mu);
    b->reserved = bytes <= b->reserved ? b->reserved - bytes : 0;
    pthread_cond_broadcast(&b->cv);
    cz_mutex_unlock(&b->mu);
}

/* The takes' share first (|taken| never exceeds |reserved|), then the release. */
void cz_budget_give_taken(cz_budget_t *b, size_t bytes)
{
    cz_mutex_lock(&b->mu);
    b->taken = bytes <= b->taken ? b->taken - bytes : 0;
    cz_mutex_unlock(&b->mu);
    cz_budget_release(b, bytes);
}

void cz_budget_wake(cz_budget_t *b)
{
    cz_mutex_lock(&b->mu);
    pthread_cond_broadcast(&b->cv);
    cz_mutex_unlock(&b->mu);
}

void cz_budget_close(cz_budget_t *b)
{
    cz_mutex_lock(&b->mu);
    b->closed = true;
    pthread_cond_broadcast(&b->cv);
    cz_mutex_unlock(&b->mu);
}

size_t cz_budget_reserved(cz_budget_t *b)
{
    cz_mutex_lock(&b->mu);
    size_t r = b->reserved;
    cz_mutex_unlock(&b->mu);
    return r;
}

size_t cz_budget_peak(cz_budget_t *b)
{
    cz_mutex_lock(&b->mu);
    size_t r = b->peak;
    cz_mutex_unlock(&b->mu);
    return r;
}
