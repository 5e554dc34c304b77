/*
 * backend/tail.c — the "inputs + split" MSM every backend's CPU path uses
 * (see backend/backend.h): inputs always go through a plain MSM (they are
 * few and arbitrary, SUPRA), the aux part through the split MSM over the
 * bases that follow the inputs' bases.
 */
#include "backend/backend.h"

/* laid out by hand: */
/* clang-format off */
#define TAIL_IMPL(gx, P, A)                                                                \
    int cz_backend_##gx##_tail(cz_ctx_t *ctx, P *out, const A *bases,                    \
                               const blst_scalar *inputs, size_t n_inputs,                \
                               const cz_scalar_split *split)                              \
    {                                                                                     \
        P in, aux;                                                                        \
        int rc = cz_##gx##_msm(ctx, &in, bases, inputs, n_inputs);                        \
        if (rc == CZ_OK)                                                                  \
            rc = cz_##gx##_msm_split(ctx, &aux, bases + n_inputs, split);                 \
        if (rc == CZ_OK)                                                                  \
            ADD_##gx(out, &in, &aux);                              \
        return rc;                                                                        \
    }
/* clang-format on */

/* blst names the groups p1/p2 */
#define ADD_g1 blst_p1_add_or_double
#define ADD_g2 blst_p2_add_or_double

TAIL_IMPL(g1, blst_p1, blst_p1_affine)
TAIL_IMPL(g2, blst_p2, blst_p2_affine)
