/*
 * core/pool.h — parallel sections on the library's thread pool (internal).
 *
 * cz_pool_for() splits the index range [0, n) into chunks of |grain| and runs
 * |fn| over them on the pool's workers and on the calling thread, returning
 * when every chunk has run. Sections may be started concurrently from many
 * threads (two engine workers each running an MSM) and may nest (a chunk may
 * start its own section): the caller always works on its own section, so a
 * nested section completes even when every worker is busy.
 *
 * Ordering: chunks are claimed in increasing index order; nothing else is
 * promised about which thread runs which chunk or in what interleaving.
 *
 * |slot| passed to |fn| is a small integer in [0, cz_pool_width(pool)) that is
 * unique among the threads taking part in this one section — use it to index
 * per-thread scratch (accumulators, buffers) without locks.
 */
#ifndef CUZK_CORE_POOL_H
#define CUZK_CORE_POOL_H

#include <stddef.h>
#include "core/ctx.h"

typedef void cz_pool_fn(void *arg, size_t begin, size_t end, unsigned slot);

/* Run |fn| over [0, n) in chunks of |grain| (>= 1). n == 0 returns at once. */
void cz_pool_for(cz_pool_t *pool, size_t n, size_t grain, cz_pool_fn *fn, void *arg);

/*
 * memcpy of |bytes| in 4 MiB pieces on the pool: one thread copies at a
 * fraction of the memory bandwidth, all of them at most of it (staging a
 * partition's vectors, copying a witness). The regions must not overlap.
 */
void cz_pool_memcpy(cz_pool_t *pool, void *dst, const void *src, size_t bytes);

/* Grain that gives each participant about |chunks_per_thread| chunks. */
size_t cz_pool_grain(const cz_pool_t *pool, size_t n, size_t chunks_per_thread);

#endif /* CUZK_CORE_POOL_H */
