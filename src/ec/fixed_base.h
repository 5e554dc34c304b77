/*
 * ec/fixed_base.h — many scalar multiples k_i * P of ONE point P (G1 or G2).
 *
 * Parameter generation (groth16/setup) needs hundreds of thousands of
 * products of the same generator with different scalars. A general
 * multiplication costs ~255 doublings + ~50 additions; with a table of
 * P's multiples it costs ceil(255/w) mixed additions and no doubling:
 *
 *   table[i][d-1] = d * 2^(w i) * P      i < W = ceil(255/w), 1 <= d < 2^w
 *   k * P = sum_i table[i][digit_i(k)]   digit_i = bits [w i, w i + w) of k
 *
 * The table is built once (W * (2^w - 1) additions, then converted to
 * affine with one inversion per window) and shared read-only by the
 * threads of the pool; products are computed in chunks per thread and
 * converted to affine a chunk at a time (one inversion per chunk).
 *
 * NOT CONSTANT TIME: the table index is the scalar's digit, so the memory
 * access pattern reveals it. This is for generating TEST parameters, whose
 * "toxic waste" is known to the test anyway; never use it where a scalar
 * must stay secret from a co-located attacker.
 *
 * Scalars are blst_scalar (canonical little-endian, < r; cz_fr_to_scalar).
 * A zero scalar gives the point at infinity (all-zero affine bytes).
 *
 * Ownership and threads: a cz_fixed_base_t owns its table; it is immutable
 * after cz_fixed_base_new and may be used by any number of threads at once.
 * Errors: CZ_EINVAL (NULL, window out of range), CZ_ENOMEM.
 */
#ifndef CUZK_EC_FIXED_BASE_H
#define CUZK_EC_FIXED_BASE_H

#include <stddef.h>

#include <blst.h>

#include "core/ctx.h"
#include "ec/group.h"

#define CZ_FIXED_BASE_MAX_WINDOW 16u

typedef struct cz_fixed_base cz_fixed_base_t;

/*
 * Window that minimises table building plus |n| products:
 * ceil(255/w) * (n + 2^w) additions, w in [2, 14] (a table of at most
 * 19 x 16383 affine points: ~30 MB in G1, ~60 MB in G2).
 */
unsigned cz_fixed_base_window(size_t n);

/*
 * Build the table of |base| (projective, in group |g|: &CZ_G1 or &CZ_G2)
 * with window |window| bits (1..CZ_FIXED_BASE_MAX_WINDOW; 0 picks
 * cz_fixed_base_window(n_hint)). Parallel on the ctx's pool. *out is NULL
 * on error.
 */
int cz_fixed_base_new(cz_ctx_t *ctx, cz_fixed_base_t **out, const cz_group *g, const void *base,
                      unsigned window, size_t n_hint);
/* NULL is a harmless no-op. */
void cz_fixed_base_free(cz_fixed_base_t *fb);
unsigned cz_fixed_base_window_of(const cz_fixed_base_t *fb);

/*
 * out[i] = k[i] * base for i < n, affine (blst_p1_affine / blst_p2_affine
 * by the table's group). Parallel on the ctx's pool; the result does not
 * depend on its width. Allocates (pool width x 256) projective points of
 * scratch for the call.
 */
int cz_fixed_base_mul(cz_ctx_t *ctx, const cz_fixed_base_t *fb, void *out, const blst_scalar *k,
                      size_t n);

/* One-shot helpers: table with the automatic window, products, table freed. */
int cz_g1_fixed_base_mul_many(cz_ctx_t *ctx, blst_p1_affine *out, const blst_p1 *base,
                              const blst_scalar *k, size_t n);
int cz_g2_fixed_base_mul_many(cz_ctx_t *ctx, blst_p2_affine *out, const blst_p2 *base,
                              const blst_scalar *k, size_t n);

#endif /* CUZK_EC_FIXED_BASE_H */
