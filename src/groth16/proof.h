/*
 * groth16/proof.h — the 192-byte Groth16 proof and multi-partition proofs.
 *
 * Encoding (BP src/groth16/mod.rs Proof::write / Proof::read; FACTS 2):
 *   A (G1 compressed, 48) || B (G2 compressed, 96) || C (G1 compressed, 48),
 * blst / ZCash compressed form (flags 0x80 compressed, 0x40 infinity,
 * 0x20 sign; G2 x as c1 || c0). A multi-partition proof is the partition
 * proofs concatenated in partition order (32GiB PoRep: 10 x 192 = 1920 B).
 *
 * Decoding checks the encoding, the curve, the prime-order subgroup, and
 * refuses points at infinity (bellperson's Proof::read does the same:
 * into_affine() is the checked conversion, is_zero() is rejected).
 * Errors: CZ_EFORMAT (bad bytes / length / infinity), CZ_ERANGE (subgroup),
 * with messages such as "proof[3].B: G2 point not on curve".
 *
 * A cz_proof_t is a plain value; all functions are pure and thread-safe.
 */
#ifndef CUZK_GROTH16_PROOF_H
#define CUZK_GROTH16_PROOF_H

#include <stddef.h>
#include <stdint.h>

#include <blst.h>

#include "core/ctx.h"

#define CZ_PROOF_BYTES 192

typedef struct cz_proof {
    blst_p1_affine a;
    blst_p2_affine b;
    blst_p1_affine c;
} cz_proof_t;

/* out[0..192) = A || B || C compressed. */
void cz_proof_encode(uint8_t out[CZ_PROOF_BYTES], const cz_proof_t *proof);
/* Decode and validate one proof. *out is unspecified on error. */
int cz_proof_decode(cz_ctx_t *ctx, cz_proof_t *out, const uint8_t in[CZ_PROOF_BYTES]);

/* n proofs into out[0..192 n), in partition order. */
void cz_proofs_encode(uint8_t *out, const cz_proof_t *proofs, size_t n);
/*
 * Decode a multi-partition proof of exactly |n| partitions: len must be
 * 192 n (CZ_EFORMAT otherwise, naming both). Partitions are decoded in
 * parallel on the ctx's pool; the error names the first bad partition.
 */
int cz_proofs_decode(cz_ctx_t *ctx, cz_proof_t *out, size_t n, const uint8_t *in, size_t len);

#endif /* CUZK_GROTH16_PROOF_H */
