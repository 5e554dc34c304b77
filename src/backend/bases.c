/*
 * backend/bases.c — a work item's params vectors, from host memory or from
 * the params' source (backend.h cz_bases_source_t).
 */
#include "backend/backend.h"

#include <string.h>

/* The work item's pointer to vector k (k < CZ_BASES_COUNT). */
static const void **bases_slot(cz_prove_work_t *w, int k)
{
    switch (k) {
    case CZ_BASES_H: return (const void **)&w->h_bases;
    case CZ_BASES_L: return (const void **)&w->l_bases;
    case CZ_BASES_A: return (const void **)&w->a_bases;
    case CZ_BASES_B1: return (const void **)&w->b1_bases;
    default: return (const void **)&w->b2_bases;
    }
}

const void *cz_backend_bases(const cz_prove_work_t *w, int k, size_t *n, size_t *point_bytes)
{
    const size_t counts[CZ_BASES_COUNT] = { w->log_m ? ((size_t)1 << w->log_m) - 1 : 0,
                                            w->n_l_bases, w->n_a_bases, w->n_b_bases,
                                            w->n_b_bases };
    if (n)
        *n = counts[k];
    if (point_bytes)
        *point_bytes = k == CZ_BASES_B2 ? sizeof(blst_p2_affine) : sizeof(blst_p1_affine);
    return *bases_slot((cz_prove_work_t *)w, k);
}

int cz_backend_host_bases(cz_ctx_t *ctx, cz_prove_work_t *w, unsigned mask)
{
    for (int k = 0; k < CZ_BASES_COUNT; k++) {
        const void **slot = bases_slot(w, k);
        if (!(mask & 1u << k) || *slot || !w->source.host)
            continue;
        int rc = w->source.host(ctx, w->source.obj, k, slot);
        if (rc != CZ_OK)
            return rc;
    }
    return CZ_OK;
}

int cz_backend_read_bases(cz_ctx_t *ctx, const cz_prove_work_t *w, int k, size_t first, size_t n,
                          void *out)
{
    size_t count, pb;
    const char *host = cz_backend_bases(w, k, &count, &pb);
    if (first > count || n > count - first)
        return cz_fail(ctx, CZ_ERANGE, "bases %d: [%zu, %zu) past %zu points", k, first, first + n,
                       count);
    if (n == 0)
        return CZ_OK;
    if (host) {
        memcpy(out, host + first * pb, n * pb);
        return CZ_OK;
    }
    if (!w->source.read)
        return cz_fail(ctx, CZ_EINTERNAL, "bases %d: neither in host memory nor a source", k);
    return w->source.read(ctx, w->source.obj, k, first, n, out);
}
