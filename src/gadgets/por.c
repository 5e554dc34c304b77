/*
 * gadgets/por.c — rust-fil-proofs' PoR gadget and native trees (see por.h).
 *
 * Sources: rust-fil-proofs storage-proofs-core/src/gadgets/por.rs
 * (PoRCircuit::synthesize, SubPath::synthesize, por_no_challenge_input,
 * AuthPath ordering), gadgets/constraint.rs (equal), gadgets/variables.rs
 * (Root::allocated), filecoin-hashers src/sha256.rs (hash_multi_leaf_circuit,
 * hash_circuit) and src/poseidon.rs (hash_multi_leaf_circuit = neptune's
 * legacy poseidon_hash).
 */
#include "gadgets/por.h"

#include <stdlib.h>
#include <string.h>

#include "gadgets/gadget_int.h"
#include "gadgets/insertion.h"
#include "gadgets/multipack.h"
#include "hash/poseidon.h"
#include "gadgets/poseidon_gadget.h"
#include "hash/sha254.h"
#include "gadgets/sha256_gadget.h"

static bool pow2(unsigned a)
{
    return a >= 2 && (a & (a - 1)) == 0;
}
static unsigned log2u(unsigned a)
{
    return (unsigned)__builtin_ctz(a);
}

static bool arity_ok(cz_por_hasher_t h, unsigned a)
{
    if (!pow2(a))
        return false;
    return h == CZ_POR_SHA254 || a <= 8;
}

int cz_por_shape(cz_por_shape_t *out, cz_por_hasher_t hasher, unsigned base_arity,
                 unsigned sub_arity, unsigned top_arity, uint64_t leaves)
{
    if ((hasher != CZ_POR_SHA254 && hasher != CZ_POR_POSEIDON) || !arity_ok(hasher, base_arity) ||
        (sub_arity && !arity_ok(hasher, sub_arity)) ||
        (top_arity && !arity_ok(hasher, top_arity)) || (top_arity && !sub_arity))
        return CZ_EINVAL;
    uint64_t div = (uint64_t)(sub_arity ? sub_arity : 1) * (top_arity ? top_arity : 1);
    if (leaves == 0 || leaves % div)
        return CZ_EINVAL;
    uint64_t base_leaves = leaves / div;
    unsigned levels = 0;
    while (base_leaves > 1) {
        if (base_leaves % base_arity)
            return CZ_EINVAL;
        base_leaves /= base_arity;
        levels++;
    }
    *out = (cz_por_shape_t){ hasher, base_arity, sub_arity, top_arity, levels };
    return CZ_OK;
}

unsigned cz_por_levels(const cz_por_shape_t *s)
{
    return s->base_levels + (s->sub_arity ? 1 : 0) + (s->top_arity ? 1 : 0);
}

unsigned cz_por_level_arity(const cz_por_shape_t *s, unsigned level)
{
    if (level < s->base_levels)
        return s->base_arity;
    return level == s->base_levels && s->sub_arity ? s->sub_arity : s->top_arity;
}

uint64_t cz_por_leaves(const cz_por_shape_t *s)
{
    uint64_t n = 1;
    for (unsigned l = 0; l < cz_por_levels(s); l++)
        n *= cz_por_level_arity(s, l);
    return n;
}

size_t cz_por_path_len(const cz_por_shape_t *s)
{
    size_t n = 0;
    for (unsigned l = 0; l < cz_por_levels(s); l++)
        n += cz_por_level_arity(s, l) - 1;
    return n;
}

/* ---- node hash in circuit ------------------------------------------------------ */

/* Sha256Function::hash_multi_leaf_circuit. */
static int sha_node(cz_cs_t *cs, cz_num_t *out, const cz_num_t *children, unsigned arity)
{
    size_t nbits = (size_t)arity * 256;
    cz_bool_t *bits = malloc(nbits * sizeof *bits), le[255], be[256];
    if (!bits)
        return CZ_ENOMEM;
    int rc = CZ_OK;
    for (unsigned i = 0; i < arity; i++) {
        cz_bool_t padded[256];
        CZ__CHECK(rc, cz_cs_pushf(cs, "%u_num_into_bits", i), out);
        CZ__CHECK(rc, cz_num_to_bits_le(cs, padded, &children[i]), out);
        CZ__CHECK(rc, cz_cs_pop(cs), out);
        padded[255] = cz_bool_const(false);
        /* LE bits, each byte's bits reversed: the repr bytes MSB first. */
        for (unsigned k = 0; k < 256; k++)
            bits[(size_t)i * 256 + k] = padded[(k & ~7u) + 7 - (k & 7)];
    }
    /* hash_circuit: sha256 ("hash"), digest bytes' bits reversed, the first
     * 254 packed ("pack_le"). */
    CZ__CHECK(rc, cz_cs_push(cs, "hash"), out);
    CZ__CHECK(rc, cz_sha256_gadget(cs, be, bits, nbits), out);
    CZ__CHECK(rc, cz_cs_pop(cs), out);
    for (unsigned k = 0; k < CZ_FR_CAPACITY; k++)
        le[k] = be[(k & ~7u) + 7 - (k & 7)];
    CZ__CHECK(rc, cz_cs_push(cs, "pack_le"), out);
    CZ__CHECK(rc, cz_pack_bits(cs, out, le, CZ_FR_CAPACITY), out);
    rc = cz_cs_pop(cs);
out:
    free(bits);
    return rc;
}

int cz_por_hash_circuit(cz_cs_t *cs, cz_num_t *out, cz_por_hasher_t hasher,
                        const cz_num_t *children, unsigned arity)
{
    if (hasher == CZ_POR_SHA254)
        return arity >= 2 ? sha_node(cs, out, children, arity) : CZ_EINVAL;
    const cz_poseidon_constants *c = cz_poseidon_constants_get(arity);
    if (!c)
        return CZ_EINVAL;
    return cz_poseidon_gadget(cs, out, c, children);
}

/* ---- the gadget -------------------------------------------------------------------- */

/* One path level: index bits, siblings, insert, hash (SubPath body). */
static int level(cz_cs_t *cs, const cz_por_shape_t *s, unsigned arity, unsigned index,
                 const cz_fr *sib, cz_num_t *cur, cz_bool_t *bits_out)
{
    unsigned nb = log2u(arity);
    cz_num_t sibs[CZ_INSERT_MAX], ins[CZ_INSERT_MAX];
    for (unsigned j = 0; j < nb; j++) {
        CZ__TRY(cz_cs_pushf(cs, "index bit %u", j));
        CZ__TRY(cz_bit_alloc(cs, &bits_out[j], (index >> j) & 1));
        CZ__TRY(cz_cs_pop(cs));
    }
    for (unsigned j = 0; j + 1 < arity; j++) {
        CZ__TRY(cz_cs_pushf(cs, "path element %u", j));
        CZ__TRY(cz_num_alloc(cs, &sibs[j], sib ? &sib[j] : NULL));
        CZ__TRY(cz_cs_pop(cs));
    }
    CZ__TRY(cz_insert(cs, ins, cur, bits_out, nb, sibs));
    CZ__TRY(cz_cs_push(cs, "computation of commitment hash"));
    CZ__TRY(cz_por_hash_circuit(cs, cur, s->hasher, ins, arity));
    return cz_cs_pop(cs);
}

int cz_por_circuit(cz_cs_t *cs, const cz_por_shape_t *s, const cz_por_path_t *path,
                   const cz_por_num_t *leaf, const cz_por_num_t *root, bool private_root)
{
    const bool vals = cz_cs_needs_values(cs);
    if (!s || !leaf || !root || (vals && !path) || cz_por_levels(s) > 64)
        return CZ_EINVAL;
    uint64_t challenge = vals ? path->challenge : 0;
    if (vals && challenge >= cz_por_leaves(s))
        return CZ_EINVAL;
    cz_num_t cur;
    if (leaf->var) {
        cur = *leaf->var;
    } else {
        CZ__TRY(cz_cs_push(cs, "value"));
        CZ__TRY(cz_num_alloc(cs, &cur, &leaf->value));
        CZ__TRY(cz_cs_pop(cs));
    }

    /* base, sub, top: one namespace each, "merkle tree hash i" per level. */
    cz_bool_t bits[64];
    unsigned nbits = 0, shift = 0;
    size_t sib_off = 0;
    const char *part_name[3] = { "base", "sub", "top" };
    const unsigned part_levels[3] = { s->base_levels, s->sub_arity ? 1u : 0u,
                                      s->top_arity ? 1u : 0u };
    const unsigned part_arity[3] = { s->base_arity, s->sub_arity, s->top_arity };
    for (unsigned part = 0; part < 3; part++) {
        CZ__TRY(cz_cs_push(cs, part_name[part]));
        unsigned a = part_arity[part];
        for (unsigned i = 0; i < part_levels[part]; i++) {
            unsigned index = (unsigned)((challenge >> shift) & (a - 1));
            CZ__TRY(cz_cs_pushf(cs, "merkle tree hash %u", i));
            CZ__TRY(
                level(cs, s, a, index, vals ? &path->siblings[sib_off] : NULL, &cur, &bits[nbits]));
            CZ__TRY(cz_cs_pop(cs));
            shift += log2u(a);
            nbits += log2u(a);
            sib_off += a - 1;
        }
        CZ__TRY(cz_cs_pop(cs));
    }

    CZ__TRY(cz_cs_push(cs, "path"));
    CZ__TRY(cz_pack_into_inputs(cs, bits, nbits));
    CZ__TRY(cz_cs_pop(cs));
    cz_num_t rt;
    if (root->var) {
        rt = *root->var;
    } else {
        CZ__TRY(cz_cs_push(cs, "root_value"));
        CZ__TRY(cz_num_alloc(cs, &rt, &root->value));
        CZ__TRY(cz_cs_pop(cs));
    }
    CZ__TRY(cz_num_equal(cs, &cur, &rt, "enforce root is correct"));
    if (!private_root) {
        CZ__TRY(cz_cs_push(cs, "root"));
        CZ__TRY(cz_num_inputize(cs, &rt));
        CZ__TRY(cz_cs_pop(cs));
    }
    return CZ_OK;
}

int cz_por_no_challenge_input(cz_cs_t *cs, const cz_por_shape_t *s, const cz_bool_t *challenge_bits,
                              const cz_num_t *leaf, const cz_num_t *siblings, const cz_num_t *root)
{
    if (!s || !challenge_bits || !leaf || !siblings || !root)
        return CZ_EINVAL;
    cz_num_t cur = *leaf, ins[CZ_INSERT_MAX];
    size_t bit = 0, sib = 0;
    for (unsigned h = 0; h < cz_por_levels(s); h++) {
        unsigned a = cz_por_level_arity(s, h), nb = log2u(a);
        CZ__TRY(cz_cs_pushf(cs, "merkle proof insert (height=%u)", h));
        CZ__TRY(cz_insert(cs, ins, &cur, &challenge_bits[bit], nb, &siblings[sib]));
        CZ__TRY(cz_cs_pop(cs));
        CZ__TRY(cz_cs_pushf(cs, "merkle proof hash (height=%u)", h));
        CZ__TRY(cz_por_hash_circuit(cs, &cur, s->hasher, ins, a));
        CZ__TRY(cz_cs_pop(cs));
        bit += nb;
        sib += a - 1;
    }
    return cz_num_equal(cs, &cur, root, "calculated root == provided root");
}

/* ---- native trees --------------------------------------------------------------- */

int cz_por_hash_native(cz_fr *out, cz_por_hasher_t hasher, const cz_fr *children, unsigned arity)
{
    if (hasher == CZ_POR_POSEIDON) {
        const cz_poseidon_constants *c = cz_poseidon_constants_get(arity);
        if (!c)
            return CZ_EINVAL;
        cz_poseidon_hash(c, out, children);
        return CZ_OK;
    }
    /* Sha256Function::multi_node: sha256 of the reprs, trimmed to 254 bits. */
    cz_sha256_ctx h;
    uint8_t repr[32], d[32];
    cz_sha256_init(&h);
    for (unsigned i = 0; i < arity; i++) {
        cz_fr_to_repr(repr, &children[i]);
        cz_sha256_update(&h, repr, 32);
    }
    cz_sha256_final(&h, d);
    d[31] &= 0x3f;
    return cz_fr_from_repr(out, d);
}

int cz_por_tree_build(cz_por_tree_t *t, const cz_por_shape_t *s, const cz_fr *leaves)
{
    memset(t, 0, sizeof *t);
    uint64_t n = cz_por_leaves(s), total = 0;
    for (unsigned l = 0; l <= cz_por_levels(s); l++) {
        total += n;
        if (l < cz_por_levels(s))
            n /= cz_por_level_arity(s, l);
    }
    if (total > ((uint64_t)1 << 32))
        return CZ_EINVAL;
    t->nodes = malloc(total * sizeof *t->nodes);
    if (!t->nodes)
        return CZ_ENOMEM;
    t->shape = *s;
    t->nnodes = total;
    n = cz_por_leaves(s);
    memcpy(t->nodes, leaves, n * sizeof *leaves);
    cz_fr *prev = t->nodes;
    for (unsigned l = 0; l < cz_por_levels(s); l++) {
        unsigned a = cz_por_level_arity(s, l);
        cz_fr *next = prev + n;
        for (uint64_t i = 0; i < n / a; i++) {
            int rc = cz_por_hash_native(&next[i], s->hasher, &prev[i * a], a);
            if (rc) {
                cz_por_tree_free(t);
                return rc;
            }
        }
        prev = next;
        n /= a;
    }
    return CZ_OK;
}

void cz_por_tree_free(cz_por_tree_t *t)
{
    if (!t)
        return;
    free(t->nodes);
    memset(t, 0, sizeof *t);
}

const cz_fr *cz_por_tree_root(const cz_por_tree_t *t)
{
    return &t->nodes[t->nnodes - 1];
}

const cz_fr *cz_por_tree_leaf(const cz_por_tree_t *t, uint64_t i)
{
    return &t->nodes[i];
}

int cz_por_tree_path(const cz_por_tree_t *t, uint64_t challenge, cz_fr *siblings)
{
    const cz_por_shape_t *s = &t->shape;
    uint64_t n = cz_por_leaves(s), idx = challenge;
    if (challenge >= n)
        return CZ_EINVAL;
    const cz_fr *lvl = t->nodes;
    size_t k = 0;
    for (unsigned l = 0; l < cz_por_levels(s); l++) {
        unsigned a = cz_por_level_arity(s, l);
        uint64_t group = idx / a;
        for (unsigned j = 0; j < a; j++)
            if (group * a + j != idx)
                siblings[k++] = lvl[group * a + j];
        lvl += n;
        n /= a;
        idx = group;
    }
    return CZ_OK;
}
