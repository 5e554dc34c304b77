/*
 * core/ctx.c — error table and the caller's context (see core/ctx.h).
 */
#include "core/ctx.h"
#include "core/ctx_int.h"
#include "core/fault.h"
#include "core/recycle.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define CZ_CTX_MSG_MAX 512

struct cz_ctx {
    cz_pool_t *pool;
    bool owns_pool;
    cz_recycler_t *recycler; /* borrowed, may be NULL (core/recycle.h) */
    cz_fault_t *fault;       /* borrowed, may be NULL (core/fault.h) */
    int msm_engine;          /* core/ctx_int.h; 0 = AUTO */
    int code;
    char msg[CZ_CTX_MSG_MAX];
};

const char *cz_strerror(int code)
{
    switch (code) {
#define CZ__ERR_DESC(name, value, desc) \
    case value: return desc;
        CZ_ERRNO_MAP(CZ__ERR_DESC)
#undef CZ__ERR_DESC
    }
    return "unknown error";
}

const char *cz_err_name(int code)
{
    switch (code) {
#define CZ__ERR_NAME(name, value, desc) \
    case value: return "CZ_E" #name;
        CZ_ERRNO_MAP(CZ__ERR_NAME)
#undef CZ__ERR_NAME
    }
    return "CZ_E?";
}

int cz_ctx_new(cz_ctx_t **out, cz_pool_t *pool, unsigned nthreads)
{
    *out = NULL;
    cz_ctx_t *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return CZ_ENOMEM;
    if (pool == NULL) {
        int rc = cz_pool_new(&pool, nthreads);
        if (rc) {
            free(ctx);
            return rc;
        }
        ctx->owns_pool = true;
    }
    ctx->pool = pool;
    *out = ctx;
    return CZ_OK;
}

void cz_ctx_free(cz_ctx_t *ctx)
{
    if (!ctx)
        return;
    if (ctx->owns_pool)
        cz_pool_free(ctx->pool);
    free(ctx);
}

cz_pool_t *cz_ctx_pool(cz_ctx_t *ctx)
{
    return ctx ? ctx->pool : NULL;
}
void cz_ctx_set_recycler(cz_ctx_t *ctx, cz_recycler_t *r)
{
    ctx->recycler = r;
}
cz_recycler_t *cz_ctx_recycler(const cz_ctx_t *ctx)
{
    return ctx ? ctx->recycler : NULL;
}
void cz_ctx_set_fault(cz_ctx_t *ctx, cz_fault_t *f)
{
    ctx->fault = f;
}
void cz__ctx_set_msm_engine(cz_ctx_t *ctx, int engine)
{
    ctx->msm_engine = engine;
}
int cz__ctx_msm_engine(const cz_ctx_t *ctx)
{
    return ctx ? ctx->msm_engine : 0;
}
cz_fault_t *cz_ctx_fault(const cz_ctx_t *ctx)
{
    return ctx ? ctx->fault : NULL;
}
const char *cz_ctx_message(const cz_ctx_t *ctx)
{
    return ctx ? ctx->msg : "";
}
int cz_ctx_code(const cz_ctx_t *ctx)
{
    return ctx ? ctx->code : CZ_OK;
}

void cz_ctx_clear(cz_ctx_t *ctx)
{
    if (ctx) {
        ctx->code = CZ_OK;
        ctx->msg[0] = '\0';
    }
}

int cz_fail(cz_ctx_t *ctx, int code, const char *fmt, ...)
{
    if (!ctx)
        return code;
    ctx->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->msg, sizeof ctx->msg, fmt, ap);
    va_end(ap);
    return code;
}
