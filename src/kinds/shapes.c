/*
 * kinds/shapes.c — the shared partition shape cache (see kinds/shapes.h):
 * a few entries under one mutex, least recently used replaced, one compute
 * per key at a time (later lookups of a key being computed wait on |done|).
 */
#include "kinds/shapes.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutex.h"

typedef struct {
    uint64_t used; /* recency stamp; 0: the entry is empty */
    bool busy;     /* key set, value being computed (outside mu) */
} entry_t;

struct cz_shape_cache {
    const cz_shape_cache_spec_t *spec;
    cz_mutex_t mu;                /* protects everything below */
    pthread_cond_t done;          /* broadcast when a busy entry is filled or dropped */
    entry_t *e;                   /* [spec->kept] */
    unsigned char *keys, *values; /* [kept x key_size], [kept x value_size] */
    uint64_t clock;
    size_t hits, lookups;
};

static unsigned char *key_at(const cz_shape_cache_t *c, unsigned i)
{
    return c->keys + (size_t)i * c->spec->key_size;
}

static unsigned char *value_at(const cz_shape_cache_t *c, unsigned i)
{
    return c->values + (size_t)i * c->spec->value_size;
}

int cz_shape_cache_new(cz_shape_cache_t **out, const cz_shape_cache_spec_t *spec)
{
    *out = NULL;
    if (!spec || !spec->key_size || !spec->value_size || !spec->kept || !spec->compute)
        return CZ_EINVAL;
    cz_shape_cache_t *c = calloc(1, sizeof *c);
    if (!c)
        return CZ_ENOMEM;
    c->spec = spec;
    c->e = calloc(spec->kept, sizeof *c->e);
    c->keys = calloc(spec->kept, spec->key_size);
    c->values = calloc(spec->kept, spec->value_size);
    if (!c->e || !c->keys || !c->values || pthread_cond_init(&c->done, NULL)) {
        free(c->e);
        free(c->keys);
        free(c->values);
        free(c);
        return CZ_ENOMEM;
    }
    cz_mutex_init(&c->mu);
    *out = c;
    return CZ_OK;
}

void cz_shape_cache_free(cz_shape_cache_t *c)
{
    if (!c)
        return;
    cz_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->done);
    free(c->e);
    free(c->keys);
    free(c->values);
    free(c);
}

void cz_shape_cache_stats(cz_shape_cache_t *c, size_t *hits, size_t *lookups)
{
    *hits = *lookups = 0;
    if (!c)
        return;
    cz_mutex_lock(&c->mu);
    *hits = c->hits;
    *lookups = c->lookups;
    cz_mutex_unlock(&c->mu);
}

/* The entry holding |key| (ready or busy), or -1. */
static int find(cz_shape_cache_t *c, const void *key)
{
    CZ_ASSERT(cz_mutex_held(&c->mu));
    for (unsigned i = 0; i < c->spec->kept; i++)
        if (c->e[i].used && !memcmp(key_at(c, i), key, c->spec->key_size))
            return (int)i;
    return -1;
}

/* An empty entry, else the least recently used ready one; -1 when all are busy. */
static int victim(cz_shape_cache_t *c)
{
    CZ_ASSERT(cz_mutex_held(&c->mu));
    int v = -1;
    for (unsigned i = 0; i < c->spec->kept; i++) {
        if (!c->e[i].used)
            return (int)i;
        if (!c->e[i].busy && (v < 0 || c->e[i].used < c->e[v].used))
            v = (int)i;
    }
    return v;
}

int cz_shape_cache_get(cz_shape_cache_t *c, const cz_shape_cache_spec_t *spec, cz_ctx_t *ctx,
                       const void *key, void *value, const void *arg)
{
    if (!c)
        return spec->compute(arg, ctx, value);
    if (c->spec != spec)
        return cz_fail(ctx, CZ_EINVAL, "shape cache: a %s cache looked up as %s", c->spec->name,
                       spec->name);
    cz_mutex_lock(&c->mu);
    c->lookups++;
    int i;
    while ((i = find(c, key)) >= 0 && c->e[i].busy)
        cz_cond_wait(&c->done, &c->mu); /* filled, or dropped: look again */
    if (i >= 0) {
        memcpy(value, value_at(c, (unsigned)i), spec->value_size);
        c->e[i].used = ++c->clock;
        c->hits++;
        cz_mutex_unlock(&c->mu);
        return CZ_OK;
    }
    /* A miss: claim an entry for the key, so that other lookups of it wait. */
    int slot = victim(c);
    if (slot >= 0) {
        memcpy(key_at(c, (unsigned)slot), key, spec->key_size);
        c->e[slot] = (entry_t){ ++c->clock, true };
    }
    cz_mutex_unlock(&c->mu);
    int rc = spec->compute(arg, ctx, value);
    if (slot < 0)
        return rc;
    cz_mutex_lock(&c->mu);
    if (rc == CZ_OK) {
        memcpy(value_at(c, (unsigned)slot), value, spec->value_size);
        c->e[slot] = (entry_t){ ++c->clock, false };
    } else {
        c->e[slot] = (entry_t){ 0, false }; /* errors are not kept */
    }
    pthread_cond_broadcast(&c->done);
    cz_mutex_unlock(&c->mu);
    return rc;
}
