/*
 * circuits/porep/label.c — a layer's label in the circuit and natively, and
 * the expansion of a node's 6 + 8 parents into the 37 the label hashes.
 *
 * Sources: rust-fil-proofs storage-proofs-porep/src/stacked/circuit/
 * create_label.rs (create_label_circuit: message layout, sha256, reverse
 * bit numbering, pack_bits of the first 254 bits), circuit/params.rs
 * (Proof::synthesize: the parent duplication per layer), vanilla
 * create_label (the native counterpart), storage-proofs-core util.rs
 * (reverse_bit_numbering pads to whole bytes first); FACTS 4.
 */
#include "circuits/porep/porep_int.h"

#include <string.h>

#include "gadgets/multipack.h"
#include "hash/sha254.h"
#include "gadgets/sha256_gadget.h"
#include "gadgets/uint32.h"

void cz__porep_expand_parents(const void **out, const void *const *base, unsigned layer)
{
    /* params.rs: layer 1 has the 6 DRG parents only: 6 copies, then p[0]
     * (37); later layers the 14 (6 DRG, 8 expander): 2 copies, then p[0..9]. */
    const unsigned n = layer > 1 ? CZ_POREP_DRG_DEGREE + CZ_POREP_EXP_DEGREE : CZ_POREP_DRG_DEGREE;
    for (unsigned k = 0; k < CZ_POREP_TOTAL_PARENTS; k++)
        out[k] = base[k % n];
}

int cz__porep_label_circuit(cz_cs_t *cs, cz_num_t *out, const cz_bool_t replica_id_bits[256],
                            const cz_bool_t *const parents[CZ_POREP_TOTAL_PARENTS], unsigned layer,
                            const cz_u64_t *node, cz_bool_t *msg)
{
    /* create_label.rs: replica_id (already 256 bits: 255 + the pad byte
     * bit), layer_index.into_bits_be() (32 constants), node.to_bits_be()
     * (64), zero pad to 512, then each parent's 256 bits. */
    cz_u32_t layer_w;
    size_t n = 0;
    memcpy(msg, replica_id_bits, 256 * sizeof *msg);
    n = 256;
    cz_u32_const(&layer_w, layer);
    cz_u32_to_bits_be(&msg[n], &layer_w);
    n += 32;
    cz_u64_to_bits_be(&msg[n], node);
    n += 64;
    while (n < 512)
        msg[n++] = cz_bool_const(false);
    for (unsigned k = 0; k < CZ_POREP_TOTAL_PARENTS; k++, n += 256)
        memcpy(&msg[n], parents[k], 256 * sizeof *msg);

    cz_bool_t digest[256], le[256];
    CZ__PTRY(cz_cs_push(cs, "hash"));
    CZ__PTRY(cz_sha256_gadget(cs, digest, msg, CZ__LABEL_MSG_BITS));
    CZ__PTRY(cz_cs_pop(cs));
    /* reverse_bit_numbering of the digest: each byte's bits reversed. */
    for (unsigned k = 0; k < 256; k++)
        le[k] = digest[(k & ~7u) + 7 - (k & 7)];
    CZ__PTRY(cz_cs_push(cs, "result_num"));
    CZ__PTRY(cz_pack_bits(cs, out, le, CZ_FR_CAPACITY));
    return cz_cs_pop(cs);
}

void cz__porep_label_native(cz_fr *out, const cz_fr *replica_id, unsigned layer, uint64_t node,
                            const cz_fr *const parents[CZ_POREP_TOTAL_PARENTS])
{
    uint8_t buf[64], d[32];
    cz_sha256_ctx s;
    memset(buf, 0, sizeof buf);
    cz_fr_to_repr(buf, replica_id);
    for (unsigned i = 0; i < 4; i++)
        buf[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (unsigned i = 0; i < 8; i++)
        buf[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    cz_sha256_init(&s);
    cz_sha256_update(&s, buf, sizeof buf);
    for (unsigned k = 0; k < CZ_POREP_TOTAL_PARENTS; k++) {
        cz_fr_to_repr(d, parents[k]);
        cz_sha256_update(&s, d, 32);
    }
    cz_sha256_final(&s, d);
    d[31] &= 0x3f;
    cz_fr_from_repr(out, d); /* < 2^254 < r: always valid */
}
