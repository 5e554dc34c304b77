/*
 * ec/affine.h — batched affine point additions and the Pippenger tile and
 * sums built on them (internal to ec/).
 *
 * One primitive carries the CPU MSM: many independent additions
 * R_i = A_i + B_i of affine points with one field inversion per batch
 * (Montgomery's trick). Per addition that is 5M+1S plus 3/batch of an
 * inversion, against 8M+2S for the mixed XYZZ addition of blst's tile:
 *
 *     d_i = x_B - x_A,  p_i = d_0 ... d_i            (1M, forward)
 *     u = 1 / p_last                                 (one inversion)
 *     1/d_i = u * p_(i-1),  u = u * d_i              (2M, backward)
 *     l = (y_B - y_A) / d_i                          (1M)
 *     x_R = l^2 - x_A - x_B                          (1S)
 *     y_R = l * (x_A - x_R) - y_A                    (1M)
 *
 * Exceptional sums are exact: A == B is doubled (l = 3 x_A^2 / 2 y_A), A == -B
 * gives the point at infinity, reported per pair (no pair may take the point
 * at infinity as an input: callers keep "empty" out of band).
 *
 * A backend (cz__aff_ops) stores points in its own format: blst's affine
 * points for the scalar backends over blst's exported field arithmetic
 * (G1 and G2), or 52-bit limbs in a Montgomery domain of 2^416 for the
 * AVX-512 IFMA backends (G1 and G2, x86-64 CPUs with avx512ifma, chosen at
 * run time). Points reach the kernels through |cz__aff_ref|s: an address with
 * bit 0 set when the point is to be negated.
 *
 * Everything here is NOT constant time: it branches on point values and on
 * the scalars' digits, as blst's Pippenger and the zero/one split already
 * did. The witness is the prover's own data; r and s never reach an MSM.
 */
#ifndef CUZK_EC_AFFINE_H
#define CUZK_EC_AFFINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <blst.h>

#include "core/ctx.h"
#include "ec/group.h"

typedef uintptr_t cz__aff_ref; /* point address | 1 when negated */

typedef struct cz__aff_pair {
    void *out; /* the sum goes here; may be A's own address */
    cz__aff_ref a, b;
} cz__aff_pair;

typedef struct cz__aff_ops {
    const char *name;
    const cz_group *group;
    size_t point_size;   /* bytes of one stored point (a multiple of 64 for ifma) */
    size_t scratch_size; /* bytes |add_pairs| needs (any n) */
    bool native;         /* points are stored as blst affine points */
    /* dst[i] = src[index ? index[i] : i] converted from blst affine, i < n */
    void (*from_blst)(void *dst, const void *src, const uint32_t *index, size_t n);
    /* dst[i] = src[i] as blst affine points, i < n */
    void (*to_blst)(void *dst, const void *src, size_t n);
    /* dst = the point |ref| refers to (negated when its bit 0 is set) */
    void (*copy)(void *dst, cz__aff_ref ref);
    /*
     * For i < n: *pairs[i].out = A_i + B_i; inf[i] = 1 when the sum is the
     * point at infinity (out then unchanged), else 0. An out must not be an
     * input of another pair of the same call. |scratch|: scratch_size bytes.
     */
    void (*add_pairs)(const cz__aff_pair *pairs, size_t n, uint8_t *inf, void *scratch);
} cz__aff_ops;

/* The scalar backends over blst's field arithmetic (always available). */
extern const cz__aff_ops cz__aff_g1_blst;
extern const cz__aff_ops cz__aff_g2_blst;
/* The AVX-512 IFMA backends, or NULL when the CPU (or build) lacks it. */
const cz__aff_ops *cz__aff_g1_ifma(void);
const cz__aff_ops *cz__aff_g2_ifma(void);
/*
 * Which bucket accumulation the MSMs of ec/msm.c use (implemented there).
 * AUTO: the cost model's choice. The others force one for the MSMs made
 * through |ctx| (a test and benchmark setting carried by the ctx,
 * core/ctx_int.h; it changes speed, never results). IFMA falls back to
 * BLST where unavailable.
 */
typedef enum {
    CZ__MSM_AUTO,
    CZ__MSM_XYZZ, /* blst's tile function (XYZZ buckets) */
    CZ__MSM_BLST, /* batched affine over blst's field arithmetic */
    CZ__MSM_IFMA, /* batched affine, AVX-512 IFMA */
} cz__msm_engine;
void cz__msm_force_engine(cz_ctx_t *ctx, cz__msm_engine engine);

/* ---- Pippenger tile and sums (ec/bucket.c) ----------------------------- */

/*
 * One tile: out (projective) = sum_i digit_i * P_i over n points, the
 * signed (Booth) digit of scalars[i] for the window of |window| bits at
 * |bit0| (digits in [-2^(window-1), 2^(window-1)]; the top window must not
 * carry, which holds when bit0 + window > nbits). |bases| are blst affine
 * points (converted chunk by chunk) or, with |converted|, the backend's.
 * |scratch|: cz__aff_tile_scratch_size(ops, window) bytes, any contents.
 */
size_t cz__aff_tile_scratch_size(const cz__aff_ops *ops, size_t window);
void cz__aff_tile(const cz__aff_ops *ops, void *out, const void *bases, bool converted,
                  const blst_scalar *scalars, size_t n, size_t bit0, size_t window, void *scratch);

/*
 * out (projective) = the sum of bases[index[i]] (blst affine), i < n,
 * by rounds of pairwise batched additions. |scratch|:
 * cz__aff_sum_scratch_size(ops) bytes.
 */
#define CZ__AFF_SUM_CHUNK 8192
size_t cz__aff_sum_scratch_size(const cz__aff_ops *ops);
void cz__aff_sum(const cz__aff_ops *ops, void *out, const void *bases, const uint32_t *index,
                 size_t n, void *scratch);

#endif /* CUZK_EC_AFFINE_H */
