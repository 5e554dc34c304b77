/*
 * core/pool.c — a fixed set of worker threads serving parallel sections.
 *
 * DESIGN. Each cz_pool_for() call is a "section" living on the caller's stack.
 * Sections with unclaimed chunks sit in a FIFO list; idle workers join the
 * oldest one. Chunks are claimed with one atomic fetch-add, so no lock is
 * taken per chunk. A section leaves the list as soon as its last chunk is
 * claimed; the caller then waits until every chunk has finished AND every
 * thread that joined has left (refs == 0), after which no thread can touch
 * the section and its stack frame may go away.
 *
 * Locking: |mu| protects |head|/|tail|, |stop|, and each section's |refs| and
 * |queued|. Chunk claiming (|next|) and completion counting (|done|) are
 * atomics outside the lock.
 */
#include "core/pool.h"
#include "core/thread_name.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct section {
    cz_pool_fn *fn;
    void *arg;
    size_t n, grain;
    atomic_size_t next;   /* first unclaimed index */
    atomic_size_t done;   /* indices finished */
    atomic_uint slots;    /* slots handed out */
    unsigned refs;        /* workers inside (protected by mu) */
    bool queued;          /* in the pool's list (protected by mu) */
    struct section *link; /* next in the list (protected by mu) */
} section_t;

struct cz_pool {
    pthread_mutex_t mu;
    pthread_cond_t work_cv; /* a section was queued, or stop */
    pthread_cond_t done_cv; /* a section may have completed */
    section_t *head, *tail; /* sections with unclaimed chunks (mu) */
    bool stop;              /* (mu) */
    unsigned nthreads;
    pthread_t *threads;
};

static void unlink_section(cz_pool_t *pool, section_t *s)
{
    /* Called with pool->mu held. */
    if (!s->queued)
        return;
    section_t **pp = &pool->head, *prev = NULL;
    while (*pp != s) {
        prev = *pp;
        pp = &(*pp)->link;
    }
    *pp = s->link;
    if (pool->tail == s)
        pool->tail = prev;
    s->queued = false;
}

/* Run chunks of |s| until none is left; returns after the last claim failed. */
static void work_on(section_t *s)
{
    unsigned slot = atomic_fetch_add(&s->slots, 1);
    for (;;) {
        size_t begin = atomic_fetch_add(&s->next, s->grain);
        if (begin >= s->n)
            break;
        size_t end = begin + s->grain < s->n ? begin + s->grain : s->n;
        s->fn(s->arg, begin, end, slot);
        atomic_fetch_add(&s->done, end - begin);
    }
}

static void *worker_main(void *p)
{
    cz_pool_t *pool = p;
    cz_thread_name("cz-pool");
    pthread_mutex_lock(&pool->mu);
    for (;;) {
        while (!pool->stop && pool->head == NULL)
            pthread_cond_wait(&pool->work_cv, &pool->mu);
        if (pool->stop)
            break;
        section_t *s = pool->head;
        s->refs++;
        pthread_mutex_unlock(&pool->mu);

        work_on(s);

        pthread_mutex_lock(&pool->mu);
        unlink_section(pool, s); /* all chunks are claimed now */
        if (--s->refs == 0)
            pthread_cond_broadcast(&pool->done_cv);
    }
    pthread_mutex_unlock(&pool->mu);
    return NULL;
}

void cz_pool_for(cz_pool_t *pool, size_t n, size_t grain, cz_pool_fn *fn, void *arg)
{
    if (n == 0)
        return;
    if (grain == 0)
        grain = 1;
    if (pool == NULL || pool->nthreads == 0 || n <= grain) {
        fn(arg, 0, n, 0);
        return;
    }
    section_t s = { .fn = fn, .arg = arg, .n = n, .grain = grain };
    atomic_init(&s.next, 0);
    atomic_init(&s.done, 0);
    atomic_init(&s.slots, 0);

    pthread_mutex_lock(&pool->mu);
    s.queued = true;
    if (pool->tail)
        pool->tail->link = &s;
    else
        pool->head = &s;
    pool->tail = &s;
    pthread_cond_broadcast(&pool->work_cv);
    pthread_mutex_unlock(&pool->mu);

    work_on(&s);

    pthread_mutex_lock(&pool->mu);
    unlink_section(pool, &s);
    while (s.refs != 0 || atomic_load(&s.done) != n)
        pthread_cond_wait(&pool->done_cv, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
}

size_t cz_pool_grain(const cz_pool_t *pool, size_t n, size_t chunks_per_thread)
{
    size_t parts = (size_t)cz_pool_width(pool) * (chunks_per_thread ? chunks_per_thread : 1);
    size_t g = (n + parts - 1) / parts;
    return g ? g : 1;
}

unsigned cz_pool_width(const cz_pool_t *pool)
{
    return pool ? pool->nthreads + 1 : 1;
}

int cz_pool_new(cz_pool_t **out, unsigned nthreads)
{
    *out = NULL;
    if (nthreads == 0) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = ncpu > 1 ? (unsigned)ncpu : 1;
    }
    nthreads--; /* the calling thread of each section is the last one */
    cz_pool_t *pool = calloc(1, sizeof *pool);
    if (!pool)
        return CZ_ENOMEM;
    pthread_mutex_init(&pool->mu, NULL);
    pthread_cond_init(&pool->work_cv, NULL);
    pthread_cond_init(&pool->done_cv, NULL);
    pool->threads = calloc(nthreads ? nthreads : 1, sizeof *pool->threads);
    if (!pool->threads) {
        cz_pool_free(pool);
        return CZ_ENOMEM;
    }
    for (unsigned i = 0; i < nthreads; i++) {
        if (pthread_create(&pool->threads[i], NULL, worker_main, pool) != 0) {
            cz_pool_free(pool);
            return CZ_ENOMEM;
        }
        pool->nthreads = i + 1;
    }
    *out = pool;
    return CZ_OK;
}

void cz_pool_free(cz_pool_t *pool)
{
    if (!pool)
        return;
    pthread_mutex_lock(&pool->mu);
    pool->stop = true;
    pthread_cond_broadcast(&pool->work_cv);
    pthread_mutex_unlock(&pool->mu);
    for (unsigned i = 0; i < pool->nthreads; i++)
        pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->work_cv);
    pthread_cond_destroy(&pool->done_cv);
    pthread_mutex_destroy(&pool->mu);
    free(pool->threads);
    free(pool);
}

/* ---- parallel memcpy ---------------------------------------------------------- */

#define MEMCPY_PIECE ((size_t)4 << 20)

typedef struct {
    char *dst;
    const char *src;
    size_t bytes;
} memcpy_arg;

static void memcpy_pieces(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    const memcpy_arg *c = arg;
    for (size_t k = begin; k < end; k++) {
        size_t off = k * MEMCPY_PIECE;
        size_t len = c->bytes - off < MEMCPY_PIECE ? c->bytes - off : MEMCPY_PIECE;
        memcpy(c->dst + off, c->src + off, len);
    }
}

void cz_pool_memcpy(cz_pool_t *pool, void *dst, const void *src, size_t bytes)
{
    memcpy_arg c = { dst, src, bytes };
    cz_pool_for(pool, (bytes + MEMCPY_PIECE - 1) / MEMCPY_PIECE, 1, memcpy_pieces, &c);
}
