/*
 * core/ctx_int.h — ctx settings that a lower layer reads and only tests and
 * benches set (internal). They live on the ctx, not in a global or a
 * thread-local, so a setting reaches exactly the calls made through that
 * ctx, on whatever thread.
 *
 *   msm_engine  the bucket-accumulation engine ec/msm.c uses (a
 *               cz__msm_engine, ec/affine.h; 0 = AUTO, the cost model's
 *               choice). Changes speed, never results.
 *
 * Not thread-safe with respect to calls using the ctx (set it before).
 */
#ifndef CUZK_CORE_CTX_INT_H
#define CUZK_CORE_CTX_INT_H

#include "core/ctx.h"

void cz__ctx_set_msm_engine(cz_ctx_t *ctx, int engine);
/* 0 for a NULL ctx. */
int cz__ctx_msm_engine(const cz_ctx_t *ctx);

#endif /* CUZK_CORE_CTX_INT_H */
