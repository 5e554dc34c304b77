/*
 * kinds/shapes.h — the partition shape cache every kind shares: what a
 * SHAPE synthesis of a blank partition gives (the params shape, the rows,
 * a kind's synthesis plan), kept by configuration, so that a process that
 * proves many sectors of one size (the daemon) synthesizes each shape
 * once. A 32GiB PoRep partition is 130M rows (~6 s on one core), a 32GiB
 * SnapDeals one ~7 s; both are the same for every sector of the size.
 *
 * A kind describes its entries once, in a static cz_shape_cache_spec_t:
 * the size of its key (the configuration: the sector size, or every
 * number the circuit depends on), the size of its value (what the job
 * needs: cz_params_shape_t, rows, a plan), how many entries to keep, and
 * the compute function that fills a value. Keys are compared byte for
 * byte (memcmp), so a key is a struct without padding (uint64_t fields)
 * or zeroed before it is filled. Values are copied in and out: a caller
 * never holds a pointer into the cache.
 *
 *   kinds/porep/c2.c    key: nodes, layers, challenges, arities (the
 *                       partition circuit; partitions and sector_bytes do
 *                       not enter it); value: shape, rows, plan; 4 kept.
 *   kinds/snap/job.c    key: sector_bytes; value: shape, rows; 5 kept
 *                       (the five RegisteredUpdateProofs).
 *
 * Guarantees:
 *   - A hit returns the value a compute of that key returned: compute is
 *     a pure function of the key (the shape does not depend on the
 *     request), so a cached job is byte-identical to an uncached one and
 *     a journal replay proves the same thing.
 *   - One compute per key at a time: a lookup that finds its key being
 *     computed by another caller waits for it and takes its value (a
 *     hit), instead of running the same SHAPE synthesis a second time.
 *   - An error is never cached: the failing caller gets it (with its own
 *     ctx's message), the entry is dropped, and a waiter or a later
 *     lookup of that key computes again.
 *   - When all entries are taken, a miss replaces the least recently used
 *     one that is not being computed; if every entry is being computed
 *     (more distinct keys in flight than kept), the value is computed and
 *     returned without being kept.
 *
 * Thread-safety: every function may be called from any thread on one
 * cache (one mutex; the compute runs outside it). compute must not look
 * up the key it is computing in the same cache (it would wait on itself).
 * Ownership: the cache owns its entries; the spec is borrowed (static).
 */
#ifndef CUZK_KINDS_SHAPES_H
#define CUZK_KINDS_SHAPES_H

#include <stddef.h>

#include "core/ctx.h"

/*
 * What a kind's cache holds. compute fills |value| (value_size bytes) for
 * the key the caller looked up; |arg| is the caller's, read only (the
 * configuration the key was made from). Returns CZ_OK or an error raised
 * through |ctx|. It runs on the looking-up thread, outside the cache's
 * mutex, and may be called concurrently for different keys.
 */
typedef struct cz_shape_cache_spec {
    const char *name;            /* for messages: "porep-c2" */
    size_t key_size, value_size; /* bytes, > 0 */
    unsigned kept;               /* entries kept, > 0 */
    int (*compute)(const void *arg, cz_ctx_t *ctx, void *value);
} cz_shape_cache_spec_t;

typedef struct cz_shape_cache cz_shape_cache_t;

/* A cache of |spec|'s entries (borrowed: it must outlive the cache).
 * CZ_OK, CZ_EINVAL (a zero size or count), CZ_ENOMEM; *out NULL on error. */
int cz_shape_cache_new(cz_shape_cache_t **out, const cz_shape_cache_spec_t *spec);

/* NULL is a harmless no-op. No lookup may be running. */
void cz_shape_cache_free(cz_shape_cache_t *cache);

/*
 * The value of |key| (spec->key_size bytes) into |value| (spec->value_size
 * bytes): from |cache|, or computed by spec->compute(arg, ctx, value) and
 * kept. |cache| may be NULL: computed, nothing kept, nothing counted.
 * Returns CZ_OK; compute's error (never cached; |value| is then
 * unspecified); CZ_EINVAL when |cache| was made for another spec (a
 * kind's cache handed to another kind).
 */
int cz_shape_cache_get(cz_shape_cache_t *cache, const cz_shape_cache_spec_t *spec, cz_ctx_t *ctx,
                       const void *key, void *value, const void *arg);

/*
 * Lookups served without computing (hits) and lookups in all since the
 * cache was made; a waiter that takes another caller's value is a hit.
 * NULL cache: both 0.
 */
void cz_shape_cache_stats(cz_shape_cache_t *cache, size_t *hits, size_t *lookups);

#endif /* CUZK_KINDS_SHAPES_H */
