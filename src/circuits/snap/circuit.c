/*
 * circuits/snap/circuit.c — EmptySectorUpdateCircuit::synthesize, one
 * partition, in RFP's allocation and constraint order (snap.h).
 *
 * Sources (rust-fil-proofs storage-proofs-update/src): circuit.rs
 * (synthesize), gadgets.rs (allocated_num_to_allocated_bits, apex_por,
 * gen_challenge_bits, get_challenge_high_bits, label_r_new);
 * storage-proofs-core/src/gadgets/{por.rs por_no_challenge_input,
 * insertion.rs select}; neptune circuit.rs poseidon_hash; bellperson
 * multipack::pack_bits, boolean::field_into_allocated_bits_le.
 */
#include "circuits/snap/snap_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gadgets/insertion.h"
#include "gadgets/multipack.h"
#include "gadgets/poseidon_gadget.h"

#define MAX_BITS CZ__SNAP_MAX_BITS
#define MAX_APEX CZ_SNAP_MAX_APEX

int cz__snap_shapes(cz__snap_shapes_t *out, const cz_snap_params_t *p)
{
    const unsigned below = p->challenge_bit_len - p->partition_bit_len - p->apex_bit_len;
    CZ__UTRY(cz_por_shape(&out->r, CZ_POR_POSEIDON, p->base_arity, p->sub_arity, p->top_arity,
                          p->nodes));
    CZ__UTRY(cz_por_shape(&out->d, CZ_POR_SHA254, 2, 0, 0, p->nodes));
    CZ__UTRY(cz_por_shape(&out->d_apex, CZ_POR_SHA254, 2, 0, 0, 1ull << below));
    return cz_por_shape(&out->d_partition, CZ_POR_SHA254, 2, 0, 0, 1ull << p->partition_bit_len);
}

static int alloc_num(cz_cs_t *cs, cz_num_t *out, const char *ns, const cz_fr *v)
{
    CZ__UTRY(cz_cs_push(cs, ns));
    CZ__UTRY(cz_num_alloc(cs, out, v));
    return cz_cs_pop(cs);
}

static int alloc_input(cz_cs_t *cs, cz_num_t *out, const char *ns, const char *input_ns,
                       const cz_fr *v)
{
    CZ__UTRY(alloc_num(cs, out, ns, v));
    CZ__UTRY(cz_cs_push(cs, input_ns));
    CZ__UTRY(cz_num_inputize(cs, out));
    return cz_cs_pop(cs);
}

/* (sum_i 2^i bits[i]) * ONE = num: the decomposition both
 * allocated_num_to_allocated_bits and the k_and_h_select split enforce. */
static int enforce_decomp(cz_cs_t *cs, const cz_bool_t *bits, size_t n, const cz_num_t *num,
                          const char *name)
{
    cz_lc_t a, b, c;
    cz_lc_init(&a);
    cz_lc_init(&b);
    cz_lc_init(&c);
    cz_fr pow2 = CZ_FR_ONE;
    for (size_t i = 0; i < n; i++) {
        cz_lc_add_term(&a, &pow2, bits[i].var);
        cz_fr_add(&pow2, &pow2, &pow2);
    }
    cz_lc_add(&b, CZ_VAR_ONE);
    cz_lc_add(&c, num->var);
    int rc = cz_cs_enforce(cs, &a, &b, &c, name);
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
    return rc;
}

/* Poseidon with the randomness constants (neptune poseidon_hash). */
static int hash_rand(cz_cs_t *cs, cz_num_t *out, const char *ns, const cz_num_t *a,
                     const cz_num_t *b)
{
    const cz_poseidon_constants *c = cz_snap_randomness_constants();
    if (!c)
        return CZ_ENOMEM;
    cz_num_t pre[2] = { *a, *b };
    CZ__UTRY(cz_cs_push(cs, ns));
    CZ__UTRY(cz_poseidon_gadget(cs, out, c, pre));
    return cz_cs_pop(cs);
}

/* Allocate |n| siblings named by |ns| (values from |v| in value modes). */
static int alloc_siblings(cz_cs_t *cs, cz_num_t *out, size_t n, const char *ns, const cz_fr *v)
{
    CZ__UTRY(cz_cs_push(cs, ns));
    for (size_t i = 0; i < n; i++) {
        CZ__UTRY(cz_cs_pushf(cs, "sibling_%zu", i));
        CZ__UTRY(cz_num_alloc(cs, &out[i], v ? &v[i] : NULL));
        CZ__UTRY(cz_cs_pop(cs));
    }
    return cz_cs_pop(cs);
}

/* ---- the prelude ---------------------------------------------------------------------- */

typedef cz__snap_shared_t shared_t;

static int k_and_h_select(cz_cs_t *cs, const cz_snap_params_t *p, shared_t *s,
                          const cz_snap_input_t *in)
{
    const bool vals = cz_cs_needs_values(cs);
    cz_fr khs = CZ_FR_ZERO;
    if (vals)
        CZ__UTRY(cz_snap_k_and_h_select(p, in->k, in->h, &khs));
    cz_num_t num;
    CZ__UTRY(alloc_input(cs, &num, "k_and_h_select", "k_and_h_select (public input)", &khs));

    const unsigned n = p->partition_bit_len + CZ_SNAP_NUM_HS;
    cz_bool_t bits[MAX_BITS];
    uint8_t repr[32];
    cz_fr_to_repr(repr, &khs);
    for (unsigned i = 0; i < n; i++) {
        CZ__UTRY(cz_cs_pushf(cs, "k_and_h_select_bit_%u", i));
        CZ__UTRY(cz_bit_alloc(cs, &bits[i], vals && ((repr[i >> 3] >> (i & 7)) & 1)));
        CZ__UTRY(cz_cs_pop(cs));
    }
    CZ__UTRY(enforce_decomp(cs, bits, n, &num, "k_and_h_select binary decomp"));
    memcpy(s->partition_bits, bits, sizeof(cz_bool_t) * p->partition_bit_len);
    memcpy(s->h_select_bits, bits + p->partition_bit_len, sizeof(cz_bool_t) * CZ_SNAP_NUM_HS);

    CZ__UTRY(cz_cs_push(cs, "pack partition bits"));
    CZ__UTRY(cz_pack_bits(cs, &s->partition, s->partition_bits, p->partition_bit_len));
    return cz_cs_pop(cs);
}

/* comm_r = H2(comm_c, root) with the Merkle arity-2 Poseidon, then
 * calc * ONE = comm_r. */
static int comm_r_check(cz_cs_t *cs, const shared_t *s, const cz_num_t *root,
                        const cz_num_t *comm_r, const char *ns, const char *name)
{
    cz_num_t pre[2] = { s->comm_c, *root }, calc;
    CZ__UTRY(cz_cs_push(cs, ns));
    CZ__UTRY(cz_poseidon_gadget(cs, &calc, cz_poseidon_constants_get(2), pre));
    CZ__UTRY(cz_cs_pop(cs));
    return cz_num_equal(cs, &calc, comm_r, name);
}

int cz__snap_apex_hash(cz_cs_t *cs, unsigned r, unsigned i, cz_num_t *out, const cz_num_t pair[2])
{
    CZ__UTRY(cz_cs_pushf(cs, "apex_tree generation hash (tree_row=%u, siblings=%u)", r, i));
    CZ__UTRY(cz_por_hash_circuit(cs, out, CZ_POR_SHA254, pair, 2));
    return cz_cs_pop(cs);
}

/* One apex row in order: the sequential cz__snap_apex_row_fn. */
static int apex_row_seq(void *arg, cz_cs_t *cs, unsigned r, const cz_num_t *below, cz_num_t *out,
                        unsigned n)
{
    (void)arg;
    for (unsigned i = 0; i < n; i++)
        CZ__UTRY(cz__snap_apex_hash(cs, r, i, &out[i], &below[2 * i]));
    return CZ_OK;
}

/* apex_por: the apex tree over the leaves (row by row through |row_fn|),
 * then its root through the partition path to comm_d_new. */
static int apex_por(cz_cs_t *cs, const cz_snap_params_t *p, const cz__snap_shapes_t *sh,
                    const shared_t *s, const cz_num_t *partition_path, cz__snap_apex_row_fn *row_fn,
                    void *arg)
{
    /* Two rows, so that a row's hashes never overwrite what another reads. */
    cz_num_t rows[2][MAX_APEX];
    cz_num_t *below = rows[0], *above = rows[1];
    memcpy(below, s->apex, sizeof(cz_num_t) * p->apex_leaves);
    CZ__UTRY(cz_cs_push(cs, "apex_gadget"));
    for (unsigned r = 0, width = p->apex_leaves; r < p->apex_bit_len; r++, width /= 2) {
        CZ__UTRY(row_fn(arg, cs, r, below, above, width / 2));
        cz_num_t *t = below;
        below = above;
        above = t;
    }
    CZ__UTRY(cz_cs_push(cs, "partition-tree por"));
    CZ__UTRY(cz_por_no_challenge_input(cs, &sh->d_partition, s->partition_bits, &below[0],
                                       partition_path, &s->comm_d_new));
    CZ__UTRY(cz_cs_pop(cs));
    return cz_cs_pop(cs);
}

/* gen_challenge_bits: gen[c * MAX_BITS ..] receives challenge c's random
 * bits (challenge_bit_len - partition_bit_len of them). */
static int gen_challenge_bits(cz_cs_t *cs, const cz_snap_params_t *p, const shared_t *s,
                              cz_bool_t *gen)
{
    const bool vals = cz_cs_needs_values(cs);
    const unsigned bits = p->challenge_bit_len - p->partition_bit_len;
    const unsigned per_digest = CZ_FR_CAPACITY / bits;
    const unsigned digests = (p->challenges + per_digest - 1) / per_digest;
    cz_fr dpp;
    cz_fr_from_u64(&dpp, digests);
    CZ__UTRY(cz_cs_push(cs, "gen_challenge_bits"));
    for (unsigned j = 0, n = 0; j < digests; j++) {
        cz_fr jf, idx_v = CZ_FR_ZERO;
        cz_fr_from_u64(&jf, j);
        if (vals) {
            cz_fr_mul(&idx_v, &s->partition.value, &dpp);
            cz_fr_add(&idx_v, &idx_v, &jf);
        }
        cz_num_t idx, digest;
        CZ__UTRY(cz_cs_pushf(cs, "digest_index_%u", j));
        CZ__UTRY(cz_num_alloc(cs, &idx, &idx_v));
        CZ__UTRY(cz_cs_pop(cs));
        cz_lc_t a, b, c;
        cz_lc_init(&a);
        cz_lc_init(&b);
        cz_lc_init(&c);
        cz_lc_add_term(&a, &dpp, s->partition.var);
        cz_lc_add_term(&a, &jf, CZ_VAR_ONE);
        cz_lc_add(&b, CZ_VAR_ONE);
        cz_lc_add(&c, idx.var);
        int rc = cz_cs_enforcef(cs, &a, &b, &c, "digest_index_%u == k * digests_per_partition + %u",
                                j, j);
        cz_lc_free(&a);
        cz_lc_free(&b);
        cz_lc_free(&c);
        CZ__UTRY(rc);

        char ns[32];
        snprintf(ns, sizeof ns, "digest_%u", j);
        CZ__UTRY(hash_rand(cs, &digest, ns, &s->comm_r_new, &idx));
        cz_bool_t dbits[CZ_FR_NUM_BITS];
        CZ__UTRY(cz_cs_pushf(cs, "digest_%u_bits", j));
        CZ__UTRY(cz_bits_alloc_fr_le(cs, dbits, vals ? &digest.value : &CZ_FR_ZERO));
        CZ__UTRY(enforce_decomp(cs, dbits, CZ_FR_NUM_BITS, &digest, "binary decomp"));
        CZ__UTRY(cz_cs_pop(cs));
        for (unsigned i = 0; i < per_digest && n < p->challenges; i++, n++)
            memcpy(&gen[(size_t)n * MAX_BITS], &dbits[i * bits], sizeof(cz_bool_t) * bits);
    }
    return cz_cs_pop(cs);
}

int cz__snap_prelude(cz_cs_t *cs, const cz_snap_params_t *p, const cz__snap_shapes_t *sh,
                     shared_t *s, const cz_snap_input_t *in, cz_bool_t *gen,
                     cz__snap_apex_row_fn *row_fn, void *arg)
{
    CZ__UTRY(k_and_h_select(cs, p, s, in));
    CZ__UTRY(alloc_input(cs, &s->comm_r_old, "comm_r_old", "comm_r_old_input",
                         in ? &in->comm_r_old : NULL));
    CZ__UTRY(alloc_input(cs, &s->comm_d_new, "comm_d_new", "comm_d_new_input",
                         in ? &in->comm_d_new : NULL));
    CZ__UTRY(alloc_input(cs, &s->comm_r_new, "comm_r_new", "comm_r_new_input",
                         in ? &in->comm_r_new : NULL));
    CZ__UTRY(hash_rand(cs, &s->phi, "phi", &s->comm_d_new, &s->comm_r_old));

    CZ__UTRY(alloc_num(cs, &s->comm_c, "comm_c", in ? &in->comm_c : NULL));
    CZ__UTRY(alloc_num(cs, &s->root_r_old, "root_r_old", in ? &in->root_r_old : NULL));
    CZ__UTRY(alloc_num(cs, &s->root_r_new, "root_r_new", in ? &in->root_r_new : NULL));
    for (unsigned i = 0; i < p->apex_leaves; i++) {
        CZ__UTRY(cz_cs_pushf(cs, "apex_leaf_%u", i));
        CZ__UTRY(cz_num_alloc(cs, &s->apex[i], in ? &in->apex_leaves[i] : NULL));
        CZ__UTRY(cz_cs_pop(cs));
    }
    /* The partition path: the top partition_bit_len levels of challenge 0's
     * TreeD path (the same for every challenge of the partition). */
    cz_num_t ppath[MAX_BITS];
    const size_t top = p->challenge_bit_len - p->partition_bit_len;
    for (unsigned i = 0; i < p->partition_bit_len; i++) {
        CZ__UTRY(cz_cs_pushf(cs, "partition_path_sibling_%u", i));
        CZ__UTRY(cz_num_alloc(cs, &ppath[i], in ? &in->ch[0].path_d_new[top + i] : NULL));
        CZ__UTRY(cz_cs_pop(cs));
    }
    CZ__UTRY(comm_r_check(cs, s, &s->root_r_old, &s->comm_r_old, "comm_r_old_calc",
                          "enforce comm_r_old_calc == comm_r_old"));
    CZ__UTRY(comm_r_check(cs, s, &s->root_r_new, &s->comm_r_new, "comm_r_new_calc",
                          "enforce comm_r_new_calc == comm_r_new"));
    CZ__UTRY(apex_por(cs, p, sh, s, ppath, row_fn ? row_fn : apex_row_seq, arg));
    return gen_challenge_bits(cs, p, s, gen);
}

/* ---- one challenge ------------------------------------------------------------------------ */

/* get_challenge_high_bits: sum over i of pack(top hs[i] bits) * h_select_i. */
static int challenge_high(cz_cs_t *cs, const cz_snap_params_t *p, const shared_t *s,
                          const cz_bool_t *c_bits, cz_num_t *out)
{
    const bool vals = cz_cs_needs_values(cs);
    const unsigned len = p->challenge_bit_len;
    cz_num_t zs[CZ_SNAP_NUM_HS];
    cz_fr sum = CZ_FR_ZERO;
    for (unsigned k = 0; k < CZ_SNAP_NUM_HS; k++) {
        const unsigned h = p->hs[k];
        cz_num_t high;
        CZ__UTRY(cz_cs_pushf(cs, "c_high (h=%u, k=%u)", h, k));
        CZ__UTRY(cz_pack_bits(cs, &high, &c_bits[len - h], h));
        CZ__UTRY(cz_cs_pop(cs));
        const cz_bool_t sel = s->h_select_bits[k];
        cz_fr z = (vals && cz_bool_bit_value(sel)) ? high.value : CZ_FR_ZERO;
        CZ__UTRY(cz_cs_pushf(cs, "c_high_or_zero (h=%u, k=%u)", h, k));
        CZ__UTRY(cz_num_alloc(cs, &zs[k], &z));
        CZ__UTRY(cz_cs_pop(cs));
        cz_lc_t a, b, c;
        cz_lc_init(&a);
        cz_lc_init(&b);
        cz_lc_init(&c);
        cz_lc_add(&a, high.var);
        cz_lc_add(&b, sel.var);
        cz_lc_add(&c, zs[k].var);
        int rc = cz_cs_enforcef(cs, &a, &b, &c,
                                "c_high_or_zero == c_high * h_select_bit (h=%u, k=%u)", h, k);
        cz_lc_free(&a);
        cz_lc_free(&b);
        cz_lc_free(&c);
        CZ__UTRY(rc);
        cz_fr_add(&sum, &sum, &z);
    }
    CZ__UTRY(alloc_num(cs, out, "c_high_selected", &sum));
    cz_lc_t a, b, c;
    cz_lc_init(&a);
    cz_lc_init(&b);
    cz_lc_init(&c);
    for (unsigned k = 0; k < CZ_SNAP_NUM_HS; k++)
        cz_lc_add(&a, zs[k].var);
    cz_lc_add(&b, CZ_VAR_ONE);
    cz_lc_add(&c, out->var);
    int rc = cz_cs_enforce(cs, &a, &b, &c, "c_high_selected == dot(c_highs, h_select_bits)");
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
    return rc;
}

int cz__snap_challenge(cz_cs_t *cs, const cz_snap_params_t *p, const cz__snap_shapes_t *sh,
                       const shared_t *s, unsigned ci, const cz_bool_t *gen,
                       const cz_snap_challenge_t *ch, cz_num_t *sib)
{
    const unsigned len = p->challenge_bit_len, rand_bits = len - p->partition_bit_len;
    cz_bool_t c_bits[MAX_BITS];
    memcpy(c_bits, gen, sizeof(cz_bool_t) * rand_bits);
    memcpy(c_bits + rand_bits, s->partition_bits, sizeof(cz_bool_t) * p->partition_bit_len);

    cz_num_t high, rho, leaf_r_old, leaf_d_new, d_rho, leaf_r_new;
    CZ__UTRY(cz_cs_pushf(cs, "get_challenge_high_bits (c_index=%u)", ci));
    CZ__UTRY(challenge_high(cs, p, s, c_bits, &high));
    CZ__UTRY(cz_cs_pop(cs));
    char ns[64];
    snprintf(ns, sizeof ns, "rho (c_index=%u)", ci);
    CZ__UTRY(hash_rand(cs, &rho, ns, &s->phi, &high));

    snprintf(ns, sizeof ns, "leaf_r_old (c_index=%u)", ci);
    CZ__UTRY(alloc_num(cs, &leaf_r_old, ns, ch ? &ch->leaf_r_old : NULL));
    snprintf(ns, sizeof ns, "leaf_d_new (c_index=%u)", ci);
    CZ__UTRY(alloc_num(cs, &leaf_d_new, ns, ch ? &ch->leaf_d_new : NULL));
    /* label_r_new: d * rho (AllocatedNum::mul), then old + d_rho with
     * (old + d_rho) * ONE = new: AllocatedNum::add's layout. */
    CZ__UTRY(cz_cs_pushf(cs, "leaf_r_new (c_index=%u)", ci));
    CZ__UTRY(cz_cs_push(cs, "label_d_new * rho"));
    CZ__UTRY(cz_num_mul(cs, &d_rho, &leaf_d_new, &rho));
    CZ__UTRY(cz_cs_pop(cs));
    CZ__UTRY(cz_num_add(cs, &leaf_r_new, &leaf_r_old, &d_rho));
    CZ__UTRY(cz_cs_pop(cs));

    const size_t rl = cz_por_path_len(&sh->r);
    snprintf(ns, sizeof ns, "path_r_old (c_index=%u)", ci);
    CZ__UTRY(alloc_siblings(cs, sib, rl, ns, ch ? ch->path_r_old : NULL));
    CZ__UTRY(cz_cs_pushf(cs, "por tree_r_old (c_index=%u)", ci));
    CZ__UTRY(cz_por_no_challenge_input(cs, &sh->r, c_bits, &leaf_r_old, sib, &s->root_r_old));
    CZ__UTRY(cz_cs_pop(cs));

    snprintf(ns, sizeof ns, "path_r_new (c_index=%u)", ci);
    CZ__UTRY(alloc_siblings(cs, sib, rl, ns, ch ? ch->path_r_new : NULL));
    CZ__UTRY(cz_cs_pushf(cs, "por tree_r_new (c_index=%u)", ci));
    CZ__UTRY(cz_por_no_challenge_input(cs, &sh->r, c_bits, &leaf_r_new, sib, &s->root_r_new));
    CZ__UTRY(cz_cs_pop(cs));

    /* The apex leaf the challenge's TreeD path passes through. */
    const unsigned below = len - p->partition_bit_len - p->apex_bit_len;
    cz_num_t apex_leaf;
    CZ__UTRY(cz_cs_pushf(cs, "select_apex_leaf (c_index=%u)", ci));
    CZ__UTRY(cz_select(cs, &apex_leaf, s->apex, &c_bits[below], p->apex_bit_len));
    CZ__UTRY(cz_cs_pop(cs));

    snprintf(ns, sizeof ns, "path_to_apex_leaf (c_index=%u)", ci);
    CZ__UTRY(alloc_siblings(cs, sib, below, ns, ch ? ch->path_d_new : NULL));
    CZ__UTRY(cz_cs_pushf(cs, "por to_apex_leaf (c_index=%u)", ci));
    CZ__UTRY(cz_por_no_challenge_input(cs, &sh->d_apex, c_bits, &leaf_d_new, sib, &apex_leaf));
    return cz_cs_pop(cs);
}

/* ---- the partition ------------------------------------------------------------------------- */

static bool same_params(const cz_snap_params_t *a, const cz_snap_params_t *b)
{
    return a->nodes == b->nodes && a->challenges == b->challenges &&
           a->partitions == b->partitions && a->apex_leaves == b->apex_leaves &&
           a->base_arity == b->base_arity && a->sub_arity == b->sub_arity &&
           a->top_arity == b->top_arity;
}

size_t cz__snap_sib_len(const cz_snap_params_t *p, const cz__snap_shapes_t *sh)
{
    const size_t rl = cz_por_path_len(&sh->r);
    return rl > p->challenge_bit_len ? rl : p->challenge_bit_len;
}

int cz__snap_validate(const cz_cs_t *cs, const cz_snap_params_t *p, const cz_snap_input_t *in,
                      cz__snap_shapes_t *sh)
{
    if (!cs || !p || p->challenge_bit_len >= MAX_BITS || p->apex_leaves > MAX_APEX ||
        cz__snap_shapes(sh, p))
        return CZ_EINVAL;
    if (in ? !same_params(&in->params, p) : cz_cs_needs_values(cs))
        return CZ_EINVAL;
    if (in) {
        unsigned idx;
        if (in->k >= p->partitions || cz_snap_h_index(p, in->h, &idx))
            return CZ_EINVAL;
    }
    return CZ_OK;
}

int cz_snap_circuit(cz_cs_t *cs, const cz_snap_params_t *p, const cz_snap_input_t *in)
{
    cz__snap_shapes_t sh;
    CZ__UTRY(cz__snap_validate(cs, p, in, &sh));
    shared_t *s = malloc(sizeof *s);
    cz_bool_t *gen = malloc(sizeof(cz_bool_t) * MAX_BITS * p->challenges);
    cz_num_t *sib = malloc(sizeof(cz_num_t) * cz__snap_sib_len(p, &sh));
    int rc = (s && gen && sib) ? CZ_OK : CZ_ENOMEM;
    if (rc == CZ_OK)
        rc = cz__snap_prelude(cs, p, &sh, s, in, gen, NULL, NULL);
    for (unsigned i = 0; rc == CZ_OK && i < p->challenges; i++)
        rc = cz__snap_challenge(cs, p, &sh, s, i, &gen[(size_t)i * MAX_BITS],
                                in ? &in->ch[i] : NULL, sib);
    free(s);
    free(gen);
    free(sib);
    return rc;
}
