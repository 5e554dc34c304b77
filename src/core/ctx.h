/*
 * core/ctx.h — the caller's handle: a thread pool and an error message.
 *
 * A cz_ctx_t is what every heavy cuzk call takes first. It carries:
 *   - the thread pool the call may use for parallel work (shared, not owned
 *     unless the ctx created it), and
 *   - the message of the last error raised through it.
 *
 * Thread-safety: a ctx is used by one thread at a time (its error buffer is
 * per ctx). Several ctxs may share one pool; the pool itself is thread-safe.
 * Give each engine worker its own ctx over the library's shared pool.
 *
 * Private to libcuzk (it once sat in include/cuzk/ but was never
 * installed): no function of cuzk.h takes a cz_ctx_t, the public API
 * reports errors through cz_error_t, and libcuzk.so exports none of these.
 */
#ifndef CUZK_CORE_CTX_H
#define CUZK_CORE_CTX_H

#include <stddef.h>
#include "cuzk/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_pool cz_pool_t;
typedef struct cz_ctx cz_ctx_t;

/*
 * Create a thread pool whose parallel sections run |nthreads|-way, the
 * calling thread included (it starts nthreads - 1 workers); 0 = one per
 * online CPU, 1 = no workers (everything runs on the caller).
 * Returns CZ_OK or CZ_ENOMEM; *out is NULL on error.
 */
int cz_pool_new(cz_pool_t **out, unsigned nthreads);
/* Stop and join the workers. NULL is a harmless no-op. No section may be running. */
void cz_pool_free(cz_pool_t *pool);
/* Degree of parallelism of the pool (workers + the calling thread); 1 for NULL. */
unsigned cz_pool_width(const cz_pool_t *pool);

/*
 * Create a context. |pool| is borrowed (must outlive the ctx); NULL makes the
 * ctx create and own a pool of width |nthreads| (0 = all CPUs).
 */
int cz_ctx_new(cz_ctx_t **out, cz_pool_t *pool, unsigned nthreads);
/* NULL is a harmless no-op. */
void cz_ctx_free(cz_ctx_t *ctx);
cz_pool_t *cz_ctx_pool(cz_ctx_t *ctx);

/* Message of the last error raised through |ctx| ("" when none). */
const char *cz_ctx_message(const cz_ctx_t *ctx);
/* Code of the last error raised through |ctx| (CZ_OK when none). */
int cz_ctx_code(const cz_ctx_t *ctx);
void cz_ctx_clear(cz_ctx_t *ctx);

/*
 * Record an error and return |code|, so callers write
 *     return cz_fail(ctx, CZ_EFORMAT, "params: h count %zu != %zu", a, b);
 * A NULL ctx only returns the code.
 */
int cz_fail(cz_ctx_t *ctx, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif /* CUZK_CORE_CTX_H */
