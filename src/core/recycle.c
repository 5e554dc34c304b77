/*
 * core/recycle.c — kept large blocks (see core/recycle.h).
 *
 * A handful of blocks (a partition's a, b and aux, a few partitions'
 * worth): a small array under one mutex; take() scans it for the best fit.
 */
#include "core/recycle.h"

#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    void *p;
    size_t bytes; /* malloc_usable_size(p) */
} block_t;

struct cz_recycler {
    pthread_mutex_t mu; /* protects everything below */
    size_t min_bytes;
    unsigned max_blocks;
    cz_recycler_hold_fn *hold;
    cz_recycler_unhold_fn *unhold;
    void *arg;
    block_t *blocks; /* [max_blocks], the first |n| in use */
    unsigned n;
    cz_recycler_stats_t st; /* kept_* maintained with the array */
};

int cz_recycler_new(cz_recycler_t **out, size_t min_bytes, unsigned max_blocks,
                    cz_recycler_hold_fn *hold, cz_recycler_unhold_fn *unhold, void *arg)
{
    *out = NULL;
    cz_recycler_t *r = calloc(1, sizeof *r);
    if (!r || !(r->blocks = calloc(max_blocks ? max_blocks : 1, sizeof *r->blocks))) {
        free(r);
        return CZ_ENOMEM;
    }
    pthread_mutex_init(&r->mu, NULL);
    r->min_bytes = min_bytes;
    r->max_blocks = max_blocks;
    r->hold = hold;
    r->unhold = unhold;
    r->arg = arg;
    *out = r;
    return CZ_OK;
}

void cz_recycler_free(cz_recycler_t *r)
{
    if (!r)
        return;
    cz_recycler_trim(r);
    pthread_mutex_destroy(&r->mu);
    free(r->blocks);
    free(r);
}

/* Remove block |i| (r->mu held); its accounting is the caller's. */
static block_t remove_at(cz_recycler_t *r, unsigned i)
{
    block_t b = r->blocks[i];
    r->blocks[i] = r->blocks[--r->n];
    r->st.kept_blocks--;
    r->st.kept_bytes -= b.bytes;
    return b;
}

void *cz_recycler_take(cz_recycler_t *r, size_t bytes)
{
    return cz_recycler_take_range(r, bytes, bytes + bytes / 4);
}

void *cz_recycler_take_range(cz_recycler_t *r, size_t bytes, size_t max_bytes)
{
    if (!r)
        return NULL;
    pthread_mutex_lock(&r->mu);
    r->st.takes++;
    unsigned best = r->n;
    for (unsigned i = 0; i < r->n; i++) {
        size_t have = r->blocks[i].bytes;
        if (have >= bytes && have <= max_bytes && (best == r->n || have < r->blocks[best].bytes))
            best = i;
    }
    block_t b = { NULL, 0 };
    if (best < r->n) {
        b = remove_at(r, best);
        r->st.hits++;
    }
    pthread_mutex_unlock(&r->mu);
    if (b.p && r->unhold)
        r->unhold(r->arg, b.bytes);
    return b.p;
}

void cz_recycler_give(cz_recycler_t *r, void *p)
{
    if (!p)
        return;
    size_t bytes = malloc_usable_size(p);
    if (!r || bytes < r->min_bytes || (r->hold && !r->hold(r->arg, bytes))) {
        free(p);
        return;
    }
    /* Held: keep it if there is a slot, else give the hold back. */
    pthread_mutex_lock(&r->mu);
    bool kept = r->n < r->max_blocks;
    if (kept) {
        r->blocks[r->n++] = (block_t){ p, bytes };
        r->st.kept_blocks++;
        r->st.kept_bytes += bytes;
    }
    pthread_mutex_unlock(&r->mu);
    if (!kept) {
        free(p);
        if (r->unhold)
            r->unhold(r->arg, bytes);
    }
}

size_t cz_recycler_shed(cz_recycler_t *r, size_t bytes)
{
    size_t freed = 0;
    while (r && freed < bytes) {
        pthread_mutex_lock(&r->mu);
        block_t b = r->n ? remove_at(r, r->n - 1) : (block_t){ NULL, 0 };
        pthread_mutex_unlock(&r->mu);
        if (!b.p)
            break;
        free(b.p);
        freed += b.bytes;
        if (r->unhold)
            r->unhold(r->arg, b.bytes);
    }
    return freed;
}

void cz_recycler_trim(cz_recycler_t *r)
{
    (void)cz_recycler_shed(r, SIZE_MAX);
}

void cz_recycler_stats(cz_recycler_t *r, cz_recycler_stats_t *out)
{
    if (!r) {
        *out = (cz_recycler_stats_t){ 0 };
        return;
    }
    pthread_mutex_lock(&r->mu);
    *out = r->st;
    pthread_mutex_unlock(&r->mu);
}
