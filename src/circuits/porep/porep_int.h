/*
 * circuits/porep/porep_int.h — private to src/circuits/porep: error macros,
 * the derived tree shapes of a configuration, and the pieces of the circuit
 * the sequential and the parallel synthesis share.
 */
#ifndef CUZK_CIRCUITS_POREP_POREP_INT_H
#define CUZK_CIRCUITS_POREP_POREP_INT_H

#include "circuits/porep/stacked.h"
#include "gadgets/boolean.h"
#include "gadgets/num.h"
#include "gadgets/por.h"
#include "gadgets/uint64.h"

/* Return the code of |expr| when it is not CZ_OK. */
/* laid out by hand: */
/* clang-format off */
#define CZ__PTRY(expr)                                                        \
    do {                                                                      \
        int cz__rc_ = (expr);                                                 \
        if (cz__rc_)                                                          \
            return cz__rc_;                                                   \
    } while (0)
/* clang-format on */

/* Jump to |label| with rc set when |expr| fails. */
/* laid out by hand: */
/* clang-format off */
#define CZ__PCHECK(rc, expr, label)                                           \
    do {                                                                      \
        if (((rc) = (expr)) != CZ_OK)                                         \
            goto label;                                                       \
    } while (0)
/* clang-format on */

/* Bits of the label's SHA-256 message: replica id, layer || node, 37
 * parents, 256 bits each (RFP create_label.rs: (1 + 1 + 37) x 32 bytes). */
#define CZ__LABEL_MSG_BITS ((2u + CZ_POREP_TOTAL_PARENTS) * 256u)

/* The tree shapes of a configuration (validated by cz__porep_shapes). */
typedef struct {
    cz_por_shape_t d;  /* tree_d: SHA254 binary */
    cz_por_shape_t rc; /* tree_c and tree_r_last: Poseidon base/sub/top */
} cz__porep_shapes_t;

/* CZ_OK or CZ_EINVAL when |p| is not a valid configuration. */
int cz__porep_shapes(cz__porep_shapes_t *out, const cz_porep_params_t *p);

/* Check the params (shapes into *sh) and that |in| matches them; a NULL
 * |in| only outside the value modes. CZ_OK or CZ_EINVAL. */
int cz__porep_validate(cz_cs_t *cs, const cz_porep_params_t *p, const cz_porep_input_t *in,
                       cz__porep_shapes_t *sh);

/* The values every challenge shares (StackedCircuit::synthesize prelude). */
typedef struct {
    cz_bool_t replica_id_bits[256]; /* reverse_bit_numbering(to_bits_le), padded */
    cz_num_t comm_d, comm_r, comm_r_last, comm_c;
} cz__porep_shared_t;

/* The prelude: replica_id (alloc, inputize, bits), comm_d and comm_r
 * (alloc, inputize), comm_r_last, comm_c, comm_r = Poseidon2(comm_c,
 * comm_r_last). |in| may be NULL in SHAPE/KEYGEN. */
int cz__porep_prelude(cz_cs_t *cs, cz__porep_shared_t *sh, const cz_porep_input_t *in);

/* Scratch of one challenge's synthesis (heap: ~ 90 KB of booleans). */
typedef struct {
    cz_bool_t msg[CZ__LABEL_MSG_BITS];
    cz_bool_t parents[CZ_POREP_DRG_DEGREE + CZ_POREP_EXP_DEGREE][256];
} cz__porep_scratch_t;

/* Proof::synthesize of challenge |i| within namespace "challenge_i"; |ch|
 * may be NULL in SHAPE/KEYGEN. */
int cz__porep_challenge(cz_cs_t *cs, const cz_porep_params_t *p, const cz__porep_shapes_t *sh,
                        const cz__porep_shared_t *shared, unsigned i,
                        const cz_porep_challenge_t *ch, cz__porep_scratch_t *scratch);

/* create_label_circuit (label.c): *out = the label of |node| at |layer|
 * from the 37 expanded parents (each 256 booleans, repr bits per byte MSB
 * first, i.e. reverse_bit_numbering of to_bits_le). */
int cz__porep_label_circuit(cz_cs_t *cs, cz_num_t *out, const cz_bool_t replica_id_bits[256],
                            const cz_bool_t *const parents[CZ_POREP_TOTAL_PARENTS], unsigned layer,
                            const cz_u64_t *node, cz_bool_t *msg);

/* The native label (RFP vanilla create_label): SHA-256 of replica_id repr
 * || layer (u32 BE) || node (u64 BE) || 20 zero bytes || 37 parent reprs,
 * last byte & 0x3f, read as an Fr. */
void cz__porep_label_native(cz_fr *out, const cz_fr *replica_id, unsigned layer, uint64_t node,
                            const cz_fr *const parents[CZ_POREP_TOTAL_PARENTS]);

/* The 37 expanded parents of a label from its 6 DRG (and, for layer > 1,
 * 8 expander) parents, as pointers into |base| (RFP params.rs: layer 1:
 * the 6 repeated 6 times, then p[0]; later layers: the 14 twice, then
 * p[0..9]). */
void cz__porep_expand_parents(const void **out, const void *const *base, unsigned layer);

#endif /* CUZK_CIRCUITS_POREP_POREP_INT_H */
