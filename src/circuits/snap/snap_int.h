/*
 * circuits/snap/snap_int.h — private to src/circuits/snap: error
 * macro, the derived tree shapes, and the pieces of the circuit the
 * sequential (circuit.c) and the parallel (parallel.c) synthesis share.
 */
#ifndef CUZK_CIRCUITS_SNAP_SNAP_INT_H
#define CUZK_CIRCUITS_SNAP_SNAP_INT_H

#include "circuits/snap/snap.h"
#include "gadgets/boolean.h"
#include "gadgets/num.h"
#include "gadgets/por.h"

/* Return the code of |expr| when it is not CZ_OK. */
/* laid out by hand: */
/* clang-format off */
#define CZ__UTRY(expr)                                                        \
    do {                                                                      \
        int cz__rc_ = (expr);                                                 \
        if (cz__rc_)                                                          \
            return cz__rc_;                                                   \
    } while (0)
/* clang-format on */

/* The most challenge bits (64GiB: 31, one spare) a partition takes; also
 * the stride of one challenge's bits in the prelude's |gen| array. */
#define CZ__SNAP_MAX_BITS 32u

/* The TreeR and TreeD (whole, below the apex, partition) shapes of |p|. */
typedef struct {
    cz_por_shape_t r, d, d_apex, d_partition;
} cz__snap_shapes_t;

int cz__snap_shapes(cz__snap_shapes_t *out, const cz_snap_params_t *p);

/* Check the params (shapes into *sh) and that |in| matches them; a NULL
 * |in| only outside the value modes. CZ_OK or CZ_EINVAL. */
int cz__snap_validate(const cz_cs_t *cs, const cz_snap_params_t *p, const cz_snap_input_t *in,
                      cz__snap_shapes_t *sh);

/* The prelude's variables every challenge reads (and only reads). */
typedef struct {
    cz_bool_t partition_bits[CZ__SNAP_MAX_BITS];
    cz_bool_t h_select_bits[CZ_SNAP_NUM_HS];
    cz_num_t partition, comm_r_old, comm_d_new, comm_r_new, phi;
    cz_num_t comm_c, root_r_old, root_r_new;
    cz_num_t apex[CZ_SNAP_MAX_APEX];
} cz__snap_shared_t;

/* Apex hash |i| of tree row |r|: *out = SHA254(pair[0], pair[1]) within its
 * RFP namespace. The hashes of one row are independent of each other. */
int cz__snap_apex_hash(cz_cs_t *cs, unsigned r, unsigned i, cz_num_t *out, const cz_num_t pair[2]);

/* Synthesizes row |r| of the apex tree into |cs|: out[i] = apex hash i of
 * (below[2i], below[2i + 1]) for i < n, with the R1CS of n calls of
 * cz__snap_apex_hash in order. */
typedef int cz__snap_apex_row_fn(void *arg, cz_cs_t *cs, unsigned r, const cz_num_t *below,
                                 cz_num_t *out, unsigned n);

/* The prelude (snap.h SYNTHESIS ORDER up to gen_challenge_bits) into
 * |s|; challenge c's random bits go to gen[c * CZ__SNAP_MAX_BITS ..].
 * The apex rows are synthesized by |row_fn| (NULL: in order, here). |in|
 * may be NULL in SHAPE/KEYGEN. */
int cz__snap_prelude(cz_cs_t *cs, const cz_snap_params_t *p, const cz__snap_shapes_t *sh,
                     cz__snap_shared_t *s, const cz_snap_input_t *in, cz_bool_t *gen,
                     cz__snap_apex_row_fn *row_fn, void *arg);

/* Siblings a challenge's scratch |sib| must hold. */
size_t cz__snap_sib_len(const cz_snap_params_t *p, const cz__snap_shapes_t *sh);

/* Challenge |ci| (its bits at |gen|, its values |ch|, NULL in SHAPE/KEYGEN);
 * |sib| is scratch of cz__snap_sib_len entries. Uses the prelude's
 * variables in |s| and allocates only its own. */
int cz__snap_challenge(cz_cs_t *cs, const cz_snap_params_t *p, const cz__snap_shapes_t *sh,
                       const cz__snap_shared_t *s, unsigned ci, const cz_bool_t *gen,
                       const cz_snap_challenge_t *ch, cz_num_t *sib);

#endif /* CUZK_CIRCUITS_SNAP_SNAP_INT_H */
