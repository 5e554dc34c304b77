/*
 * circuits/bench.h — `bench:N`, a synthetic circuit shaped like one Filecoin
 * PoRep partition, for benchmarks and end-to-end tests of setup and prover.
 *
 * Target (FACTS 3, one 32GiB partition): a_aux density 99.7%, b_aux 25.4%,
 * b_input popcount 1 (only ONE appears in B), witness ~50% zeros, ~45% ones,
 * ~5% full field elements, about one aux per constraint.
 *
 * SIZE. N counts constraint ROWS as the prover sees them: circuit
 * constraints plus the one `x_i * 0 = 0` row per input that cz_cs_finish
 * appends (FACTS 1). So bench:2^k fills a 2^k FFT domain exactly, and
 * bench:130278869 has the row count of a real 32GiB partition. With
 * I = num_public public inputs (ONE not counted):
 *     inputs = I + 1,  constraints = N - I - 1,
 *     aux = body = N - 2I - 1   (one aux per body step),
 * which requires N >= 2I + 2.
 *
 * STRUCTURE. The body is a sequence of blocks of CZ_BENCH_BLOCK = 1331
 * steps; every step allocates exactly one aux and adds exactly one
 * constraint, so step s of block k is aux k*1331 + s and row k*1331 + s.
 * The last block may be cut short at any step. A block (bellpepper-style
 * gadgets, BPC boolean.rs / num.rs / multipack):
 *
 *   steps    0..253   b_i, a random bit; boolean constraint (ONE - b)*b = 0
 *   step     254      x = sum 2^i b_i (254 bits): (sum 2^i b_i) * ONE = x
 *   steps  255..1266  chain t_1..t_1012, t_0 = b_0, operand u = b_(109k mod 254):
 *                     k % 7 == 0: AND  t_(k-1) * u = t_k
 *                     else:       XOR  (2 t_(k-1)) * u = t_(k-1) + u - t_k
 *                     k % 37 == 0: the operands swap sides (t_(k-1) in B)
 *   steps 1267..1270  num_p = pack of t_(1+253p) .. t_(253+253p): lc * ONE = num_p
 *   steps 1271..1274  y_(p+1) = (y_p + num_p) * num_p, y_0 = x
 *   steps 1275..1330  4 square chains of 14: z_1 = (y_4 + q*ONE)^2, z_(i+1) = z_i^2
 *
 * Per full block: 1327 aux in A (the 4 chain ends are not), 338 in B
 * (25.39%), 65 full field elements (4.9%). After the body come I
 * "inputize" constraints x_i * ONE = aux[body - 1 - (i-1) % body] (BPC
 * num.rs inputize), i = 1..I: the inputs copy the last values of the body.
 * The constraint structure depends only on N and I, never on the seed:
 * params made for bench:N serve every seed.
 *
 * VALUES. Block k draws its 254 bits from its own xoshiro stream seeded by
 * a hash of (seed, k); everything else follows from them. Blocks are
 * independent, so cz_bench_witness generates them in parallel and produces
 * the same bytes (assignments, a/b/c, densities, popcounts) as
 * cz_bench_circuit synthesized in CZ_CS_PROVE mode followed by
 * cz_cs_take_witness — tests/circuits/test_bench.c checks this. Like the
 * provers' PROVE synthesis (cz_cs_omit_c) it leaves c out unless asked.
 *
 * Thread-safety: all functions are reentrant; the pool of |ctx| is shared.
 */
#ifndef CUZK_CIRCUITS_BENCH_H
#define CUZK_CIRCUITS_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cs/cs.h"
#include "core/ctx.h"

#define CZ_BENCH_BLOCK 1331u       /* steps (aux, constraints) per block */
#define CZ_BENCH_DEFAULT_PUBLIC 8u /* public inputs when "bench:N" says nothing */

typedef struct cz_bench_params {
    size_t rows;       /* N: constraint rows incl. one per input (see above) */
    uint64_t seed;     /* witness values only; the structure ignores it */
    size_t num_public; /* I: public inputs, ONE not counted */
    /*
     * Tests only: 0 = none; k > 0 allocates aux k-1 with its value + 2
     * (every other value unchanged), so exactly one witness value is wrong
     * and the first unsatisfied constraint is the one at row k-1 (every
     * step's own row defines its value; +2 keeps a bit non-boolean).
     * Used by cz_bench_circuit only.
     */
    size_t test_corrupt_aux;
    /*
     * cz_bench_witness only: also write c (tests compare it with a PROVE
     * synthesis that keeps c). false, the default: c = NULL, as the provers
     * take it (c = a*b, cs/cs.h), and a third less memory.
     */
    bool with_c;
} cz_bench_params;

/* Exact counts of bench:N (all in O(CZ_BENCH_BLOCK) time). */
typedef struct cz_bench_shape {
    size_t rows, constraints, num_inputs, num_aux;
    size_t full_blocks, last_steps; /* body = full_blocks * 1331 + last_steps */
    size_t a_aux_popcount, b_input_popcount, b_aux_popcount;
    unsigned log_domain; /* smallest k with 2^k >= rows */
} cz_bench_shape_t;

/* Defaults: rows = |rows|, seed 0, CZ_BENCH_DEFAULT_PUBLIC inputs, no corruption, no c. */
void cz_bench_params_init(cz_bench_params *p, size_t rows);

/*
 * Parse "bench:N" with N decimal, "2^K" or with a K/M/G suffix (optionally
 * "Ki"/"Mi"/"Gi": powers of 1024), e.g. bench:65536, bench:2^16, bench:64Ki.
 * Fills *out with cz_bench_params_init(N). CZ_EINVAL (with a message in
 * |ctx|, which may be NULL) for another prefix, junk, overflow, or an N too
 * small for the default number of public inputs.
 */
int cz_bench_parse(cz_ctx_t *ctx, const char *id, cz_bench_params *out);

/* The exact shape. CZ_EINVAL when rows < 2 * num_public + 2 or rows >= 2^31. */
int cz_bench_shape(cz_ctx_t *ctx, const cz_bench_params *p, cz_bench_shape_t *out);

/*
 * Synthesize bench:N into |cs| (any mode; fresh from cz_cs_new). Reserves
 * the arrays from the shape, runs the body and the inputize constraints; does
 * NOT call cz_cs_finish. Single-threaded. Returns the cs's (sticky) error
 * or CZ_EINVAL for bad params.
 */
int cz_bench_circuit(cz_cs_t *cs, const cz_bench_params *p);

/*
 * The witness of bench:N without a constraint system: fills *out exactly as
 * cz_cs_take_witness would after cz_bench_circuit in PROVE mode and
 * cz_cs_finish (free with cz_cs_witness_free): with cz_cs_omit_c (c NULL)
 * unless p->with_c. Blocks run in parallel on
 * the ctx's pool; the result does not depend on the pool's width.
 * test_corrupt_aux is ignored. *out is zeroed on error (CZ_EINVAL, CZ_ENOMEM).
 */
int cz_bench_witness(cz_ctx_t *ctx, const cz_bench_params *p, cz_cs_witness_t *out);

/* Value mix of aux[0..n): counts of zeros, ones, and other elements. */
void cz_bench_value_mix(const cz_fr *aux, size_t n, size_t *zeros, size_t *ones, size_t *other);

#endif /* CUZK_CIRCUITS_BENCH_H */
