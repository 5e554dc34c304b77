/*
 * core/recycle.h — large buffers kept warm from one partition to the next
 * (internal).
 *
 * A fresh multi-gigabyte allocation is paid in page faults: the kernel
 * zeroes every page on first touch. A 32GiB PoRep partition's witness is
 * 12.5 GB (a, b, aux), and zeroing it cost 3.5-11 s of system time per
 * partition on the 2-core VM, as much as synthesizing it. The engine
 * proves partitions of one shape back to back, so the buffers a finished
 * partition frees are the right size for the next one: a recycler keeps
 * them (as they are: malloc'd blocks, so free and realloc stay valid on
 * them) and hands them out again.
 *
 *   take(r, bytes)  the smallest kept block of at least |bytes| usable
 *                   bytes and at most 5/4 of that (a block far too large is
 *                   left for a request it fits), or NULL: the caller
 *                   allocates as usual. Its contents are a previous
 *                   owner's: the caller writes before it reads. A caller
 *                   that will grow the array anyway (a and b go to the FFT
 *                   domain) names its own upper bound with take_range.
 *   give(r, p)      keep |p| (its malloc_usable_size) or free it: blocks
 *                   below |min_bytes|, past |max_blocks|, or refused by the
 *                   |hold| hook are freed. NULL r: free(p). NULL p: no-op.
 *   trim(r)         free every kept block (an idle engine gives its memory
 *                   back).
 *   shed(r, bytes)  free kept blocks until at least |bytes| are freed or
 *                   none is left (a partition waiting for the memory they
 *                   hold in the engine's budget); returns the bytes freed.
 *
 * Accounting: kept memory is resident. |hold|(arg, bytes) is asked before
 * a block is kept (the engine reserves it in its memory budget, without
 * waiting: a refusal frees the block) and |unhold|(arg, bytes) is told
 * when a kept block leaves (taken: its taker's own reservation covers it;
 * or freed). Both may be NULL (no accounting).
 *
 * Thread-safety: every function may be called from any thread.
 */
#ifndef CUZK_CORE_RECYCLE_H
#define CUZK_CORE_RECYCLE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/ctx.h"

typedef struct cz_recycler cz_recycler_t;

typedef bool cz_recycler_hold_fn(void *arg, size_t bytes);
typedef void cz_recycler_unhold_fn(void *arg, size_t bytes);

typedef struct {
    size_t takes, hits; /* take() calls, of which served from kept blocks */
    size_t kept_bytes, kept_blocks;
} cz_recycler_stats_t;

/* A recycler keeping at most |max_blocks| blocks of at least |min_bytes|.
 * CZ_OK or CZ_ENOMEM (*out NULL). */
int cz_recycler_new(cz_recycler_t **out, size_t min_bytes, unsigned max_blocks,
                    cz_recycler_hold_fn *hold, cz_recycler_unhold_fn *unhold, void *arg);
/* Trim and release. NULL is a harmless no-op. */
void cz_recycler_free(cz_recycler_t *r);

void *cz_recycler_take(cz_recycler_t *r, size_t bytes);
/* The smallest kept block of usable size in [bytes, max_bytes] (take is
 * take_range(bytes, bytes + bytes / 4)); NULL if none. */
void *cz_recycler_take_range(cz_recycler_t *r, size_t bytes, size_t max_bytes);
void cz_recycler_give(cz_recycler_t *r, void *p);
void cz_recycler_trim(cz_recycler_t *r);
size_t cz_recycler_shed(cz_recycler_t *r, size_t bytes);
/* Counters so far and what is kept now (all zero for NULL). */
void cz_recycler_stats(cz_recycler_t *r, cz_recycler_stats_t *out);

/*
 * The recycler large allocations made through |ctx| take from and give to
 * (the cs's reserved arrays, the prover's a/b/aux); NULL when none was set.
 * Setting is not thread-safe with respect to users of the ctx.
 */
void cz_ctx_set_recycler(cz_ctx_t *ctx, cz_recycler_t *r);
cz_recycler_t *cz_ctx_recycler(const cz_ctx_t *ctx);

#endif /* CUZK_CORE_RECYCLE_H */
