/*
 * hash/poseidon_constants.h — neptune v11's Poseidon constants, generated.
 *
 * Poseidon over Fr as neptune (filecoin-project/neptune v11, "NEP") instantiates
 * it for Filecoin (FACTS 5): width t = arity + 1, alpha = 5, RF = 8 full rounds,
 * RP = 55 (t = 3), 56 (t = 4..7), 57 (t = 8..15) partial rounds, the Grain-LFSR
 * round constants, the Cauchy MDS matrix M[i][j] = 1/(i + t + j), and the
 * domain tag 2^arity - 1 of the MerkleTree hash type.
 *
 * Nothing here is a pasted table: every value is computed at creation from
 * the definitions above, in the same way as NEP:
 *   - round constants: NEP src/round_constants.rs (Grain LFSR, self-shrinking);
 *   - MDS matrices and the sparse factorisation: NEP src/mds.rs;
 *   - compressed round constants: NEP src/preprocessing.rs;
 *   - how they are consumed: NEP src/poseidon.rs (hash_optimized_static).
 *
 * Matrix convention: all matrices are row-major t x t (m[i * t + j] is row i,
 * column j) and every matrix is applied to the state as a ROW vector,
 * s' = s . M (s'[j] = sum_i s[i] * M[i][j]), as NEP's product_mds_with_matrix
 * does. M and M^-1 are symmetric; pre_sparse and the sparse matrices are not.
 *
 * Ownership and thread-safety: a cz_poseidon_constants is immutable once
 * created; any number of threads may hash with it concurrently. Objects from
 * cz_poseidon_constants_new() belong to the caller (free with _free()); those
 * from cz_poseidon_constants_get() are process-lifetime and must not be freed.
 */
#ifndef CUZK_HASH_POSEIDON_CONSTANTS_H
#define CUZK_HASH_POSEIDON_CONSTANTS_H

#include <stddef.h>

#include "ff/fr.h"

/* Supported arities (FACTS 5 gives RP for t = 3..15). */
#define CZ_POSEIDON_MIN_ARITY 2u
#define CZ_POSEIDON_MAX_ARITY 14u
#define CZ_POSEIDON_MAX_WIDTH (CZ_POSEIDON_MAX_ARITY + 1u)
#define CZ_POSEIDON_FULL_ROUNDS 8u
#define CZ_POSEIDON_ALPHA 5u

typedef struct cz_poseidon_constants {
    unsigned arity;
    unsigned width;            /* t = arity + 1 */
    unsigned full_rounds;      /* RF = 8 */
    unsigned half_full_rounds; /* RF / 2 */
    unsigned partial_rounds;   /* RP */
    cz_fr domain_tag;          /* 2^arity - 1 (MerkleTree hash type) */

    /* Plain algorithm. */
    cz_fr *round_constants; /* (RF + RP) * t, round r at [r * t] */
    cz_fr *mds;             /* M, t x t */
    cz_fr *mds_inv;         /* M^-1, t x t */

    /*
     * Optimized "static" algorithm (NEP hash_optimized_static):
     * compressed_round_constants has RF * t + RP entries: t added before
     * round 0, then per round the post-S-box keys (t per full round but the
     * last, 1 per partial round). After the S-boxes of round RF/2 - 1 the
     * state is multiplied by pre_sparse; after partial round k (0-based) by
     * the sparse matrix k, given by its first column sparse_w_hat[k * t ..]
     * (t values) and the rest of its first row sparse_v_rest[k * (t-1) ..];
     * its other entries are the identity. Every other round uses M.
     */
    cz_fr *compressed_round_constants;
    cz_fr *pre_sparse;    /* t x t */
    cz_fr *sparse_w_hat;  /* RP * t */
    cz_fr *sparse_v_rest; /* RP * (t - 1) */
} cz_poseidon_constants;

/* RP for width t (FACTS 5); 0 when t is outside 3..15. */
unsigned cz_poseidon_partial_rounds(unsigned width);

/*
 * Generate the constants for |arity| (2..14) into a new object (*out).
 * Costs a few milliseconds (Grain LFSR, RP matrix inversions).
 * Returns CZ_OK, CZ_EINVAL for an unsupported arity, CZ_ENOMEM; *out is NULL
 * on error. Thread-safe.
 */
int cz_poseidon_constants_new(cz_poseidon_constants **out, unsigned arity);

/* Free an object from _new(). NULL is a harmless no-op. */
void cz_poseidon_constants_free(cz_poseidon_constants *c);

/*
 * Shared, lazily generated constants for the arities Filecoin uses (2, 4, 8,
 * 11), each built once per process (pthread_once) and never freed. Returns
 * NULL for any other arity or if generation ran out of memory. Thread-safe.
 */
const cz_poseidon_constants *cz_poseidon_constants_get(unsigned arity);

#endif /* CUZK_HASH_POSEIDON_CONSTANTS_H */
