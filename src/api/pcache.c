/*
 * api/pcache.c — the params cache (see api/pcache.h).
 *
 * Entries sit in a doubly linked list in recency order (head = most recent).
 * pc->mu protects the list, every entry's users/loading/hits fields and the
 * counters; params and pvk of a ready entry are immutable and read without
 * the lock by whoever holds a reference.
 */
#include "core/clock.h"
#include "api/pcache.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


struct cz_pentry {
    struct cz_pentry *prev, *next;
    char path[PATH_MAX];
    cz_params_t *params;
    cz_pvk_t *pvk;
    size_t bytes;
    unsigned users; /* references held (a loading entry counts its loader) */
    bool loading;
    double load_ms;
    uint64_t hits;
};

struct cz_pcache {
    pthread_mutex_t mu;
    pthread_cond_t loaded; /* broadcast when any load ends */
    cz_pentry_t *head, *tail;
    size_t budget, bytes, entries;
    uint64_t hits, misses, evictions, load_errors;
    cz_pcheck_t *check; /* manifest check before a load (owned; may be NULL) */
    bool open_lazily;   /* cz_params_open instead of cz_params_load */
    cz_logger_t log;
};

int cz_pcache_new(cz_pcache_t **out, size_t budget, const cz_logger_t *log)
{
    cz_pcache_t *pc = calloc(1, sizeof *pc);
    if (!pc)
        return CZ_ENOMEM;
    pthread_mutex_init(&pc->mu, NULL);
    pthread_cond_init(&pc->loaded, NULL);
    pc->budget = budget ? budget : SIZE_MAX;
    if (log)
        pc->log = *log;
    *out = pc;
    return CZ_OK;
}

static void entry_free(cz_pentry_t *e)
{
    cz_pvk_free(e->pvk);
    cz_params_free(e->params);
    free(e);
}

/* Unlink |e| (pc->mu held). */
static void unlink_entry(cz_pcache_t *pc, cz_pentry_t *e)
{
    if (e->prev)
        e->prev->next = e->next;
    else
        pc->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        pc->tail = e->prev;
    e->prev = e->next = NULL;
}

static void push_front(cz_pcache_t *pc, cz_pentry_t *e)
{
    e->prev = NULL;
    e->next = pc->head;
    if (pc->head)
        pc->head->prev = e;
    pc->head = e;
    if (!pc->tail)
        pc->tail = e;
}

void cz_pcache_free(cz_pcache_t *pc)
{
    if (!pc)
        return;
    for (cz_pentry_t *e = pc->head, *n; e; e = n) {
        n = e->next;
        entry_free(e);
    }
    cz_pcheck_free(pc->check);
    pthread_cond_destroy(&pc->loaded);
    pthread_mutex_destroy(&pc->mu);
    free(pc);
}

void cz_pcache_set_check(cz_pcache_t *pc, cz_pcheck_t *check)
{
    cz_pcheck_free(pc->check);
    pc->check = check;
}

void cz_pcache_set_open_lazily(cz_pcache_t *pc, bool lazily)
{
    pc->open_lazily = lazily;
}

/* What |p| holds in host memory now (opened params grow as readers make vectors resident). */
static size_t params_bytes(const cz_params_t *p)
{
    return sizeof *p + p->vk.n_ic * sizeof(blst_p1_affine) + cz_params_mem_bytes(p);
}

/* Re-read an entry's size (pc->mu held). */
static void refresh_bytes(cz_pcache_t *pc, cz_pentry_t *e)
{
    pc->bytes -= e->bytes;
    e->bytes = params_bytes(e->params);
    pc->bytes += e->bytes;
}

/* Evict unused entries from the tail until the total fits (pc->mu held). */
static void fit_budget(cz_pcache_t *pc)
{
    cz_pentry_t *e = pc->tail;
    while (e && pc->bytes > pc->budget) {
        cz_pentry_t *prev = e->prev;
        if (!e->users && !e->loading) {
            unlink_entry(pc, e);
            pc->bytes -= e->bytes;
            pc->entries--;
            pc->evictions++;
            cz__log(&pc->log, CZ_LOG_LEVEL_INFO, "params evicted (LRU)", "path=%s bytes=%zu",
                    e->path, e->bytes);
            entry_free(e);
        }
        e = prev;
    }
    if (pc->bytes > pc->budget)
        cz__log(&pc->log, CZ_LOG_LEVEL_WARN, "params cache over budget: every entry is in use",
                "bytes=%zu budget=%zu", pc->bytes, pc->budget);
}

static cz_pentry_t *find(cz_pcache_t *pc, const char *path)
{
    for (cz_pentry_t *e = pc->head; e; e = e->next)
        if (!strcmp(e->path, path))
            return e;
    return NULL;
}

/* A reference to the loaded entry |e|, now the most recent (pc->mu held). */
static void take_hit(cz_pcache_t *pc, cz_pentry_t *e)
{
    e->users++;
    e->hits++;
    pc->hits++;
    unlink_entry(pc, e);
    push_front(pc, e);
}

bool cz_pcache_acquire_loaded(cz_pcache_t *pc, const char *path, cz_pentry_t **out)
{
    char real[PATH_MAX];
    *out = NULL;
    if (!realpath(path, real))
        return false;
    pthread_mutex_lock(&pc->mu);
    cz_pentry_t *e = find(pc, real);
    if (e && !e->loading) {
        take_hit(pc, e);
        *out = e;
    }
    pthread_mutex_unlock(&pc->mu);
    return *out != NULL;
}

int cz_pcache_acquire(cz_pcache_t *pc, cz_ctx_t *ctx, const char *path, cz_pentry_t **out,
                      double *load_ms)
{
    char real[PATH_MAX];
    *out = NULL;
    if (load_ms)
        *load_ms = 0;
    if (!realpath(path, real))
        return cz_fail(ctx, errno == ENOENT ? CZ_ENOTFOUND : CZ_EIO, "params %s: %s", path,
                       strerror(errno));
    double t0 = cz_mono_ms();
    pthread_mutex_lock(&pc->mu);
    cz_pentry_t *e;
    while ((e = find(pc, real)) && e->loading)
        pthread_cond_wait(&pc->loaded, &pc->mu);
    if (e) {
        take_hit(pc, e);
        pthread_mutex_unlock(&pc->mu);
        if (load_ms)
            *load_ms = cz_mono_ms() - t0;
        *out = e;
        return CZ_OK;
    }
    e = calloc(1, sizeof *e);
    if (!e) {
        pthread_mutex_unlock(&pc->mu);
        return cz_fail(ctx, CZ_ENOMEM, "params cache entry");
    }
    snprintf(e->path, sizeof e->path, "%s", real);
    e->loading = true;
    e->users = 1;
    push_front(pc, e);
    pc->entries++;
    pc->misses++;
    pthread_mutex_unlock(&pc->mu);

    cz__log(&pc->log, CZ_LOG_LEVEL_INFO, "params loading", "path=%s", real);
    int rc = cz_pcheck_before_use(pc->check, ctx, real);
    if (rc == CZ_OK)
        rc = pc->open_lazily ? cz_params_open(ctx, &e->params, real, NULL)
                             : cz_params_load(ctx, &e->params, real, NULL);
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &e->pvk, &e->params->vk);
    double ms = cz_mono_ms() - t0;

    pthread_mutex_lock(&pc->mu);
    e->loading = false;
    e->load_ms = ms;
    if (rc != CZ_OK) {
        pc->load_errors++;
        unlink_entry(pc, e);
        pc->entries--;
        pthread_cond_broadcast(&pc->loaded);
        pthread_mutex_unlock(&pc->mu);
        cz__log(&pc->log, CZ_LOG_LEVEL_WARN, "params load failed", "path=%s error=%s", real,
                cz_err_name(rc));
        entry_free(e);
        return rc;
    }
    e->bytes = params_bytes(e->params);
    pc->bytes += e->bytes;
    fit_budget(pc);
    pthread_cond_broadcast(&pc->loaded);
    pthread_mutex_unlock(&pc->mu);
    cz__log(&pc->log, CZ_LOG_LEVEL_INFO, "params loaded", "path=%s bytes=%zu ms=%.1f", real,
            e->bytes, ms);
    if (load_ms)
        *load_ms = ms;
    *out = e;
    return CZ_OK;
}

void cz_pcache_retain(cz_pcache_t *pc, cz_pentry_t *e)
{
    pthread_mutex_lock(&pc->mu);
    e->users++;
    pthread_mutex_unlock(&pc->mu);
}

void cz_pcache_release(cz_pcache_t *pc, cz_pentry_t *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&pc->mu);
    e->users--;
    refresh_bytes(pc, e);
    if (!e->users)
        fit_budget(pc);
    pthread_mutex_unlock(&pc->mu);
}

const cz_params_t *cz_pentry_params(const cz_pentry_t *e)
{
    return e->params;
}
const cz_pvk_t *cz_pentry_pvk(const cz_pentry_t *e)
{
    return e->pvk;
}
size_t cz_pentry_bytes(const cz_pentry_t *e)
{
    return e->bytes;
}
const char *cz_pentry_path(const cz_pentry_t *e)
{
    return e->path;
}

int cz_pcache_evict(cz_pcache_t *pc, cz_ctx_t *ctx, const char *path)
{
    char real[PATH_MAX];
    if (!realpath(path, real))
        snprintf(real, sizeof real, "%s", path);
    pthread_mutex_lock(&pc->mu);
    cz_pentry_t *e = find(pc, real);
    if (!e) {
        pthread_mutex_unlock(&pc->mu);
        return cz_fail(ctx, CZ_ENOTFOUND, "params %s is not loaded", path);
    }
    if (e->users || e->loading) {
        unsigned users = e->users;
        pthread_mutex_unlock(&pc->mu);
        return cz_fail(ctx, CZ_EBUSY, "params %s is in use by %u job(s)", path, users);
    }
    unlink_entry(pc, e);
    pc->bytes -= e->bytes;
    pc->entries--;
    pc->evictions++;
    pthread_mutex_unlock(&pc->mu);
    cz__log(&pc->log, CZ_LOG_LEVEL_INFO, "params evicted (request)", "path=%s bytes=%zu", real,
            e->bytes);
    entry_free(e);
    return CZ_OK;
}

size_t cz_pcache_list(cz_pcache_t *pc, cz_pcache_item_t *items, size_t cap)
{
    pthread_mutex_lock(&pc->mu);
    size_t n = 0;
    for (cz_pentry_t *e = pc->head; e; e = e->next, n++)
        if (n < cap) {
            cz_pcache_item_t *it = &items[n];
            memset(it, 0, sizeof *it); /* reserved included (cuzk.h: STRUCTS THAT GROW) */
            snprintf(it->path, sizeof it->path, "%s", e->path);
            it->bytes = e->bytes;
            it->users = e->users - (e->loading ? 1 : 0);
            it->loading = e->loading;
            it->load_ms = e->load_ms;
            it->hits = e->hits;
        }
    pthread_mutex_unlock(&pc->mu);
    return n;
}

void cz_pcache_stats(cz_pcache_t *pc, cz_pcache_stats_t *out)
{
    pthread_mutex_lock(&pc->mu);
    *out = (cz_pcache_stats_t){ pc->entries, pc->bytes,     pc->budget,     pc->hits,
                                pc->misses,  pc->evictions, pc->load_errors };
    pthread_mutex_unlock(&pc->mu);
}
