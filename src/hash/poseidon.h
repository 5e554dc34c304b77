/*
 * hash/poseidon.h — native Poseidon hashing, bit-compatible with neptune v11.
 *
 * A hash of |arity| field elements x_1..x_A (FACTS 5): the state is
 * (2^A - 1, x_1, .., x_A), it goes through RF/2 full rounds, RP partial
 * rounds and RF/2 full rounds, and the result is state[1].
 *
 * cz_poseidon_hash() runs neptune's optimized "static" algorithm (compressed
 * round constants, pre-sparse and sparse matrices; NEP src/poseidon.rs
 * hash_optimized_static) — the sequence of intermediate values the in-circuit
 * witness follows. cz_poseidon_hash_reference() is the textbook algorithm
 * (NEP src/poseidon_alt.rs hash_correct): slower, used to cross-check.
 *
 * All functions are pure given their constants; they may run concurrently
 * on the same constants. Inputs and outputs may not overlap unless stated.
 */
#ifndef CUZK_HASH_POSEIDON_H
#define CUZK_HASH_POSEIDON_H

#include <stddef.h>

#include "core/ctx.h"
#include "ff/fr.h"
#include "hash/poseidon_constants.h"

/* *out = Poseidon(preimage[0..arity)) with c->arity inputs. *out may alias
 * preimage[0]. */
void cz_poseidon_hash(const cz_poseidon_constants *c, cz_fr *out, const cz_fr *preimage);

/* Same value by the plain algorithm (full rounds with the dense MDS). */
void cz_poseidon_hash_reference(const cz_poseidon_constants *c, cz_fr *out, const cz_fr *preimage);

/*
 * The optimized permutation on a full state of c->width elements, in place
 * (state[0] is the domain tag for a hash). Exposed for witness generation.
 */
void cz_poseidon_permute(const cz_poseidon_constants *c, cz_fr *state);

/*
 * out[i] = Poseidon(in[i * arity .. (i+1) * arity)) for i < count, spread
 * over ctx's pool (ctx may be NULL: runs on the calling thread). |out| must
 * not overlap |in|. Returns CZ_OK, or CZ_EINVAL for NULL arrays with
 * count > 0. The ctx is used by one thread at a time (see core/ctx.h).
 */
int cz_poseidon_hash_many(cz_ctx_t *ctx, const cz_poseidon_constants *c, cz_fr *out,
                          const cz_fr *in, size_t count);

#endif /* CUZK_HASH_POSEIDON_H */
