/*
 * groth16/setup.h — Groth16 TEST parameters from random toxic waste.
 *
 *   !!! FOR TESTS AND BENCHMARKS ONLY. Whoever knows the toxic waste (tau,
 *   !!! alpha, beta, gamma, delta) can forge proofs; a single party running
 *   !!! this has seen it. Real Filecoin parameters come from the trusted
 *   !!! setup ceremony and are downloaded, never generated.
 *
 * The construction is bellperson's generator (BP src/groth16/generator.rs,
 * FACTS 1), for a circuit synthesized in CZ_CS_KEYGEN mode:
 *   m = 2^k >= rows (constraints + one x_i * 0 = 0 row per input);
 *   powers tau^i (i < m); h[i] = tau^i * Z(tau) / delta * G1 for i < m - 1,
 *   Z(tau) = tau^m - 1;
 *   Lagrange coefficients L_r(tau) = inverse FFT of the powers (BP runs
 *   `powers_of_tau.ifft`, ff/ntt.h's cz_ntt_inverse convention);
 *   per variable j: a_j = sum_r A[r][j] L_r(tau), b_j, c_j likewise;
 *   ic[i] = (beta a_i + alpha b_i + c_i) / gamma * G1   (inputs),
 *   l[j]  = (beta a_j + alpha b_j + c_j) / delta * G1   (aux; zero is an
 *           error: an unconstrained variable, as in BP);
 *   a = a_j * G1, b_g1 = b_j * G1, b_g2 = b_j * G2 over inputs then aux,
 *       skipping the j with a_j = 0 (resp. b_j = 0): points at infinity are
 *       filtered out, so |a| = inputs + popcount(a_aux),
 *       |b_g1| = |b_g2| = popcount(b_input) + popcount(b_aux);
 *   vk = alpha G1, beta G1, beta G2, gamma G2, delta G1, delta G2, ic.
 * G1 and G2 are the standard generators (bellperson draws random ones;
 * any generator gives valid parameters, the vk carries the choice).
 *
 * The scalar products use ec/fixed_base (a window table, parallel on the
 * ctx's pool; NOT constant time — acceptable only because these are test
 * parameters). The toxic waste and every array derived from it (powers,
 * Lagrange values, evaluations, scalars) are scrubbed before return.
 *
 * Memory, for rows -> m and V = inputs + aux variables: about
 * 32 (m + 4 V) bytes of Fr/scalars plus the params themselves.
 *
 * Thread-safety: the functions are reentrant; |ctx| is used by one thread.
 */
#ifndef CUZK_GROTH16_SETUP_H
#define CUZK_GROTH16_SETUP_H

#include <stdint.h>

#include "cs/cs.h"
#include "core/ctx.h"
#include "ff/fr.h"
#include "groth16/params.h"

/* The trapdoor ("toxic waste"). Scrub with cz_setup_toxic_scrub. */
typedef struct cz_setup_toxic {
    cz_fr tau, alpha, beta, gamma, delta;
} cz_setup_toxic_t;

/* Fresh toxic waste from the OS CSPRNG (cz_fr_random). CZ_EIO if it fails. */
int cz_setup_toxic_random(cz_ctx_t *ctx, cz_setup_toxic_t *t);
/*
 * TESTS ONLY: toxic waste derived from |seed| (xoshiro, cz_fr_random_rng),
 * so a test can recompute any point, and `cuzk setup --seed` can make
 * reproducible files. Anyone knowing the seed can forge proofs.
 */
void cz_setup_toxic_from_seed(cz_setup_toxic_t *t, uint64_t seed);
/* Overwrite with zeros (not optimised away). */
void cz_setup_toxic_scrub(cz_setup_toxic_t *t);

/* The params shape of a finished cs of any mode (FACTS 1): m = 2^ceil(log2 rows). */
void cz_setup_shape_of_cs(const cz_cs_t *cs, cz_params_shape_t *out);

/*
 * Parameters for the circuit recorded in |cs| (CZ_CS_KEYGEN, finished
 * successfully). |toxic| NULL: fresh random toxic waste (scrubbed). A
 * non-NULL |toxic| exists ONLY FOR TESTS (deterministic parameters whose
 * points a test can recompute); the caller scrubs it. *out is a new
 * cz_params_t (free with cz_params_free; write with cz_params_write /
 * cz_vk_write), NULL on error.
 * Errors: CZ_EINVAL (cs not a finished KEYGEN cs; gamma or delta zero; an
 * unconstrained aux variable), CZ_ERANGE (more than 2^28 rows; or a
 * variable of the A/B density evaluating to zero at tau, which would make
 * the vectors disagree with the density: pick other toxic waste),
 * CZ_ENOMEM, CZ_EIO (CSPRNG).
 */
int cz_setup_from_cs(cz_ctx_t *ctx, cz_params_t **out, const cz_cs_t *cs,
                     const cz_setup_toxic_t *toxic);

/*
 * Progress of a long setup (minutes for a PoRep partition circuit): called
 * on the calling thread between pieces of work, with the phase ("scalars",
 * "G1 points", "G2 points") and the fraction of the whole setup done so far,
 * 0..1, weighted by the work's cost (the fixed-base products dominate).
 * It must not call back into this setup. NULL |fn|: no reports.
 */
typedef void cz_setup_progress_fn(void *user, const char *phase, double fraction);

/* cz_setup_from_cs, reporting its progress to |fn|(|user|, ...). */
int cz_setup_from_cs_progress(cz_ctx_t *ctx, cz_params_t **out, const cz_cs_t *cs,
                              const cz_setup_toxic_t *toxic, cz_setup_progress_fn *fn, void *user);

/* A circuit: synthesize into |cs| (which the caller finishes). */
typedef int cz_setup_circuit_fn(cz_cs_t *cs, void *arg);

/*
 * Synthesize |circuit| in KEYGEN mode, finish, and cz_setup_from_cs. If
 * |shape| is not NULL it receives the circuit's params shape.
 */
int cz_setup(cz_ctx_t *ctx, cz_params_t **out, cz_setup_circuit_fn *circuit, void *arg,
             const cz_setup_toxic_t *toxic, cz_params_shape_t *shape);

#endif /* CUZK_GROTH16_SETUP_H */
