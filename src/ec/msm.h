/*
 * ec/msm.h — multi-scalar multiplication and batch addition on the CPU.
 *
 * Everything here exists for G1 and G2 with the same contract; the group is
 * chosen by the function's prefix (cz_g1_ / cz_g2_). Scalars are canonical
 * 256-bit little-endian integers (blst_scalar, see cz_fr_to_scalar), < r.
 * Bases are affine and contiguous (the layout of a params file's vectors)
 * and must not contain the point at infinity (params readers reject it).
 *
 * Work runs on the ctx's pool; results do not depend on the thread count.
 * Functions are re-entrant: several threads may run MSMs at once, each with
 * its own ctx. Errors: CZ_EINVAL (NULL with n > 0), CZ_ENOMEM.
 *
 * Three ways to multiply, from general to specialised:
 *   cz_gX_msm          Pippenger (signed digits, windows and point ranges
 *                      tiled across threads) over all n pairs;
 *   cz_gX_batch_add    the sum of the bases whose bit is set (the scalars
 *                      equal to 1), by batched affine additions;
 *   cz_gX_msm_split    the Filecoin witness MSM: zeros skipped, ones summed
 *                      by batch addition, Pippenger over the "significant"
 *                      rest with gathered bases (a cz_scalar_split).
 *   cz_gX_msm_auto     classifies and picks split or plain by the mix
 *                      (split when significant <= n/2, as SUPRA does).
 */
#ifndef CUZK_EC_MSM_H
#define CUZK_EC_MSM_H

#include <stddef.h>
#include <stdint.h>

#include <blst.h>

#include "core/ctx.h"

/* ---- scalar split (the prover's "prep") -------------------------------- */

/*
 * The classification of n scalars into zero / one / significant.
 * |ones| is a bitmap (bit i of word i/64) of the scalars equal to 1;
 * |sig_index| lists, in increasing order, the indices of the other non-zero
 * scalars and |sig_scalar| their values. All arrays are owned by the split.
 */
typedef struct cz_scalar_split {
    size_t n;
    uint64_t *ones; /* (n + 63) / 64 words */
    size_t n_ones;
    size_t n_zero;
    uint32_t *sig_index;     /* n_sig entries */
    blst_scalar *sig_scalar; /* n_sig entries */
    size_t n_sig;
    size_t sig_bits; /* bit length of the largest significant scalar */
} cz_scalar_split;

/* Classify |scalars| in one parallel streaming pass. n < 2^32. */
int cz_scalar_split_build(cz_ctx_t *ctx, cz_scalar_split *out, const blst_scalar *scalars,
                          size_t n);
/*
 * The split of the scalars at the set positions of |density| (full->n bits),
 * re-indexed to the compacted space in which a params vector stores only
 * the dense bases: position j becomes rank(j) = number of set density bits
 * below j. out->n = popcount(density). |out| is owned by the caller.
 */
int cz_scalar_split_restrict(cz_ctx_t *ctx, cz_scalar_split *out, const cz_scalar_split *full,
                             const uint64_t *density);
/* Release the arrays; a zeroed or already-freed split is a no-op. */
void cz_scalar_split_free(cz_scalar_split *s);

/* Popcount of the first n bits of |bitmap|. */
size_t cz_bitmap_popcount(const uint64_t *bitmap, size_t n);

/* ---- G1 ------------------------------------------------------------------ */

int cz_g1_msm(cz_ctx_t *ctx, blst_p1 *out, const blst_p1_affine *bases, const blst_scalar *scalars,
              size_t n);
int cz_g1_batch_add(cz_ctx_t *ctx, blst_p1 *out, const blst_p1_affine *bases,
                    const uint64_t *bitmap, size_t n);
/* sum over the split's ones and significant scalars of scalar * bases[i]. */
int cz_g1_msm_split(cz_ctx_t *ctx, blst_p1 *out, const blst_p1_affine *bases,
                    const cz_scalar_split *split);
int cz_g1_msm_auto(cz_ctx_t *ctx, blst_p1 *out, const blst_p1_affine *bases,
                   const blst_scalar *scalars, size_t n);
/*
 * Pippenger over the gathered bases bases[index[i]] with scalars[i],
 * i < count (the "tail MSM"; |index| need not be sorted).
 */
int cz_g1_msm_gather(cz_ctx_t *ctx, blst_p1 *out, const blst_p1_affine *bases,
                     const uint32_t *index, const blst_scalar *scalars, size_t count, size_t nbits);

/* ---- G2 ------------------------------------------------------------------ */

int cz_g2_msm(cz_ctx_t *ctx, blst_p2 *out, const blst_p2_affine *bases, const blst_scalar *scalars,
              size_t n);
int cz_g2_batch_add(cz_ctx_t *ctx, blst_p2 *out, const blst_p2_affine *bases,
                    const uint64_t *bitmap, size_t n);
int cz_g2_msm_split(cz_ctx_t *ctx, blst_p2 *out, const blst_p2_affine *bases,
                    const cz_scalar_split *split);
int cz_g2_msm_auto(cz_ctx_t *ctx, blst_p2 *out, const blst_p2_affine *bases,
                   const blst_scalar *scalars, size_t n);
int cz_g2_msm_gather(cz_ctx_t *ctx, blst_p2 *out, const blst_p2_affine *bases,
                     const uint32_t *index, const blst_scalar *scalars, size_t count, size_t nbits);

#endif /* CUZK_EC_MSM_H */
