/*
 * groth16/verify.h — Groth16 verification, single and batched (BLS12-381).
 *
 * The check (BP src/groth16/verifier.rs verify_proof; FACTS 1):
 *   e(A, B) = e(alpha, beta) · e(ic[0] + Σ x_i·ic[i+1], gamma) · e(C, delta),
 * computed as one product of Miller loops against -gamma and -delta and one
 * final exponentiation, compared with the precomputed e(alpha, beta).
 * The public inputs x_i exclude ONE: a vk with |ic| = k takes k - 1 inputs.
 *
 * Batch (BP verify_proofs_batch, "Appendix B.2 in Zcash spec"): proofs j of
 * the same vk get independent random 128-bit coefficients r_j (from the OS
 * CSPRNG) and one pairing product is checked:
 *   Π e(r_j·A_j, B_j) · e(-(Σ r_j)·alpha, beta) · e(Σ_j r_j·acc_j, -gamma)
 *     · e(Σ r_j·C_j, -delta) = 1,
 * where acc_j = ic[0] + Σ x_{j,i}·ic[i+1]. bellperson raises e(alpha,beta)
 * to -Σr in GT; here the exponent moves into G1 (bilinearity), which decides
 * the same. A false batch means at least one proof is invalid (an invalid
 * proof passes with probability about 2^-128).
 *
 * Returns CZ_OK when the proof(s) verify, CZ_EVERIFY when they do not,
 * CZ_EINVAL for a wrong number of public inputs or NULL arguments (never
 * "does not verify"), CZ_ENOMEM / CZ_EIO (randomness) otherwise.
 *
 * A prepared key is immutable after cz_pvk_new: any number of threads may
 * verify against it at once. Proofs must come from cz_proof_decode (or a
 * prover): the verifier trusts their points to be in the subgroup.
 */
#ifndef CUZK_GROTH16_VERIFY_H
#define CUZK_GROTH16_VERIFY_H

#include <stddef.h>

#include "core/ctx.h"
#include "ff/fr.h"
#include "groth16/params.h"
#include "groth16/proof.h"

typedef struct cz_pvk cz_pvk_t;

/*
 * Precompute (BP prepare_verifying_key): e(alpha_g1, beta_g2) in GT, the
 * Miller-loop lines of -gamma_g2, -delta_g2 and beta_g2; copies ic.
 * CZ_EINVAL if the vk has no ic (it needs at least ic[0], for ONE).
 */
int cz_pvk_new(cz_ctx_t *ctx, cz_pvk_t **out, const cz_vk_t *vk);
/* NULL is a harmless no-op. */
void cz_pvk_free(cz_pvk_t *pvk);
/* Number of public inputs the key takes (|ic| - 1, ONE excluded). */
size_t cz_pvk_num_inputs(const cz_pvk_t *pvk);

/* Verify one proof against |n_inputs| public inputs (ONE excluded). */
int cz_verify(cz_ctx_t *ctx, const cz_pvk_t *pvk, const cz_proof_t *proof, const cz_fr *inputs,
              size_t n_inputs);

/*
 * Verify |n_proofs| proofs at once; inputs holds n_proofs rows of n_inputs
 * public inputs (row j for proof j; ONE excluded). Zero proofs verify.
 * For a multi-partition proof, pass its partitions with their inputs.
 */
int cz_verify_batch(cz_ctx_t *ctx, const cz_pvk_t *pvk, const cz_proof_t *proofs, size_t n_proofs,
                    const cz_fr *inputs, size_t n_inputs);

#endif /* CUZK_GROTH16_VERIFY_H */
