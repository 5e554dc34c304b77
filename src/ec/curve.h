/*
 * ec/curve.h — G1 and G2 helpers over blst: encodings with validation.
 *
 * Encodings are bellperson's (FACTS 2): uncompressed G1 96 bytes / G2 192
 * bytes, compressed 48 / 96, big-endian, ZCash flag bits (0x80 compressed,
 * 0x40 infinity, 0x20 sign; G2 x written c1 || c0) — blst's serialization.
 *
 * Decoders check the encoding and that the point is on the curve; the
 * subgroup check is separate because it costs a scalar multiplication and
 * params loading does it only when asked. All functions are thread-safe.
 * Errors: CZ_EFORMAT (bad encoding / not on curve), CZ_ERANGE (not in the
 * subgroup), with a message naming |what| when ctx is given.
 */
#ifndef CUZK_EC_CURVE_H
#define CUZK_EC_CURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <blst.h>

#include "core/ctx.h"

#define CZ_G1_UNCOMPRESSED 96
#define CZ_G1_COMPRESSED 48
#define CZ_G2_UNCOMPRESSED 192
#define CZ_G2_COMPRESSED 96

/* Decode; flags: CZ_DECODE_SUBGROUP checks the subgroup, CZ_DECODE_NO_INFINITY rejects it. */
enum { CZ_DECODE_SUBGROUP = 1, CZ_DECODE_NO_INFINITY = 2 };

int cz_g1_decode(cz_ctx_t *ctx, blst_p1_affine *out, const uint8_t *in, size_t len, unsigned flags,
                 const char *what);
int cz_g2_decode(cz_ctx_t *ctx, blst_p2_affine *out, const uint8_t *in, size_t len, unsigned flags,
                 const char *what);
/* len selects the form: 96/48 for G1, 192/96 for G2. */
void cz_g1_encode(uint8_t *out, size_t len, const blst_p1_affine *p);
void cz_g2_encode(uint8_t *out, size_t len, const blst_p2_affine *p);

/* Affine conversion of many points at once (one inversion per batch), parallel. */
int cz_g1_batch_to_affine(cz_ctx_t *ctx, blst_p1_affine *out, const blst_p1 *in, size_t n);
int cz_g2_batch_to_affine(cz_ctx_t *ctx, blst_p2_affine *out, const blst_p2 *in, size_t n);

/* k * P for a canonical scalar (all 255 bits). */
void cz_g1_mul(blst_p1 *out, const blst_p1 *p, const blst_scalar *k);
void cz_g2_mul(blst_p2 *out, const blst_p2 *p, const blst_scalar *k);

/* Random points (k * generator, k from |seed|) for tests and benchmarks. */
void cz_g1_random_affine(blst_p1_affine *out, size_t n, uint64_t seed);
void cz_g2_random_affine(blst_p2_affine *out, size_t n, uint64_t seed);

#endif /* CUZK_EC_CURVE_H */
