/*
 * circuits/porep/stacked.c — one partition of the StackedDRG circuit,
 * sequentially (see stacked.h; the parallel driver is parallel.c).
 *
 * Sources (rust-fil-proofs):
 *   storage-proofs-porep/src/stacked/circuit/proof.rs  StackedCircuit::
 *       synthesize: the prelude (replica_id, comm_d, comm_r inputized;
 *       comm_r_last, comm_c private; comm_r = hash2(comm_c, comm_r_last)),
 *       then Proof::synthesize per challenge in namespace "challenge_i".
 *   storage-proofs-porep/src/stacked/circuit/params.rs  Proof::synthesize:
 *       data leaf, comm_d inclusion, 6 DRG + 8 expander columns (alloc,
 *       column hash, tree_c inclusion), challenge UInt64 (pack_into_input),
 *       labels per layer, encoding, tree_r_last inclusion, the challenged
 *       column's hash and its tree_c inclusion; enforce_inclusion =
 *       PoRCircuit::synthesize(leaf var, path, root var, private = true).
 *   storage-proofs-porep/src/stacked/circuit/column.rs / column_proof.rs:
 *       rows allocated "column_num_row_i" inside "column".
 *   storage-proofs-porep/src/stacked/circuit/hash.rs: hash_single_column =
 *       Poseidon of arity = rows (neptune legacy circuit).
 *   storage-proofs-core/src/gadgets/encode.rs: encode = constraint::add.
 */
#include "circuits/porep/porep_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "gadgets/poseidon_gadget.h"

/* ---- the prelude ------------------------------------------------------------------ */

static int alloc_num(cz_cs_t *cs, cz_num_t *out, const char *ns, const cz_fr *v)
{
    CZ__PTRY(cz_cs_push(cs, ns));
    CZ__PTRY(cz_num_alloc(cs, out, v));
    return cz_cs_pop(cs);
}

static int inputize(cz_cs_t *cs, const cz_num_t *n, const char *ns)
{
    CZ__PTRY(cz_cs_push(cs, ns));
    CZ__PTRY(cz_num_inputize(cs, n));
    return cz_cs_pop(cs);
}

int cz__porep_prelude(cz_cs_t *cs, cz__porep_shared_t *sh, const cz_porep_input_t *in)
{
    cz_bool_t le[255];
    cz_num_t rid;
    CZ__PTRY(alloc_num(cs, &rid, "replica_id", in ? &in->replica_id : NULL));
    CZ__PTRY(inputize(cs, &rid, "replica_id_input"));
    CZ__PTRY(cz_cs_push(cs, "replica_id_bits"));
    CZ__PTRY(cz_num_to_bits_le(cs, le, &rid));
    CZ__PTRY(cz_cs_pop(cs));
    /* reverse_bit_numbering pads 255 -> 256 with a constant false, then
     * reverses each byte's bits. */
    for (unsigned k = 0; k < 256; k++) {
        unsigned src = (k & ~7u) + 7 - (k & 7);
        sh->replica_id_bits[k] = src < 255 ? le[src] : cz_bool_const(false);
    }

    CZ__PTRY(alloc_num(cs, &sh->comm_d, "comm_d", in ? &in->comm_d : NULL));
    CZ__PTRY(inputize(cs, &sh->comm_d, "comm_d_input"));
    CZ__PTRY(alloc_num(cs, &sh->comm_r, "comm_r", in ? &in->comm_r : NULL));
    CZ__PTRY(inputize(cs, &sh->comm_r, "comm_r_input"));
    CZ__PTRY(alloc_num(cs, &sh->comm_r_last, "comm_r_last", in ? &in->comm_r_last : NULL));
    CZ__PTRY(alloc_num(cs, &sh->comm_c, "comm_c", in ? &in->comm_c : NULL));

    /* comm_r = H(comm_c || comm_r_last): Poseidon arity 2 (hash2_circuit),
     * then constraint::equal(comm_r, hash). */
    cz_num_t pre[2] = { sh->comm_c, sh->comm_r_last }, h;
    CZ__PTRY(cz_cs_push(cs, "H_comm_c_comm_r_last"));
    CZ__PTRY(cz_poseidon_gadget(cs, &h, cz_poseidon_constants_get(2), pre));
    CZ__PTRY(cz_cs_pop(cs));
    return cz_num_equal(cs, &sh->comm_r, &h, "enforce comm_r = H(comm_c || comm_r_last)");
}

/* ---- one challenge ------------------------------------------------------------------ */

/* enforce_inclusion: PoRCircuit with leaf and root already allocated and a
 * private root; the index bits become one packed public input. */
static int inclusion(cz_cs_t *cs, const char *ns, const cz_por_shape_t *shape, uint64_t index,
                     const cz_fr *siblings, const cz_num_t *leaf, const cz_num_t *root)
{
    cz_por_path_t path = { index, siblings };
    cz_por_num_t l = { leaf, CZ_FR_ZERO }, r = { root, CZ_FR_ZERO };
    CZ__PTRY(cz_cs_push(cs, ns));
    CZ__PTRY(cz_por_circuit(cs, shape, siblings ? &path : NULL, &l, &r, true));
    return cz_cs_pop(cs);
}

/* ColumnProof::alloc, AllocatedColumn::hash, enforce_inclusion for parent
 * |k| of kind |kind| ("drg" / "exp"); rows[] receives the allocated rows. */
static int parent_column(cz_cs_t *cs, const cz_porep_params_t *p, const cz__porep_shapes_t *sh,
                         const cz__porep_shared_t *shared, const char *kind, unsigned k,
                         const cz_porep_column_t *col, cz_num_t *rows)
{
    CZ__PTRY(cz_cs_pushf(cs, "%s_parent_%u_num", kind, k));
    CZ__PTRY(cz_cs_push(cs, "column"));
    for (unsigned r = 0; r < p->layers; r++) {
        CZ__PTRY(cz_cs_pushf(cs, "column_num_row_%u", r));
        CZ__PTRY(cz_num_alloc(cs, &rows[r], col ? &col->rows[r] : NULL));
        CZ__PTRY(cz_cs_pop(cs));
    }
    CZ__PTRY(cz_cs_pop(cs));
    CZ__PTRY(cz_cs_pop(cs));

    cz_num_t hash;
    CZ__PTRY(cz_cs_pushf(cs, "%s_parent_%u_constraint", kind, k));
    CZ__PTRY(cz_poseidon_gadget(cs, &hash, cz_poseidon_constants_get(p->layers), rows));
    CZ__PTRY(cz_cs_pop(cs));

    char ns[48];
    snprintf(ns, sizeof ns, "%s_parent_%u_inclusion", kind, k);
    return inclusion(cs, ns, &sh->rc, col ? col->index : 0, col ? col->c_path : NULL, &hash,
                     &shared->comm_c);
}

/* to_bits_le of a parent's row, then reverse_bit_numbering (pad to 256). */
static int parent_bits(cz_cs_t *cs, cz_bool_t out[256], const cz_num_t *row, const char *kind,
                       unsigned idx)
{
    cz_bool_t le[255];
    CZ__PTRY(cz_cs_pushf(cs, "%s_parent_%u_bits", kind, idx));
    CZ__PTRY(cz_num_to_bits_le(cs, le, row));
    CZ__PTRY(cz_cs_pop(cs));
    for (unsigned k = 0; k < 256; k++) {
        unsigned src = (k & ~7u) + 7 - (k & 7);
        out[k] = src < 255 ? le[src] : cz_bool_const(false);
    }
    return CZ_OK;
}

static int challenge_body(cz_cs_t *cs, const cz_porep_params_t *p, const cz__porep_shapes_t *sh,
                          const cz__porep_shared_t *shared, const cz_porep_challenge_t *ch,
                          cz__porep_scratch_t *scr)
{
    const unsigned L = p->layers;
    cz_num_t data_leaf, labels[CZ_POREP_MAX_LAYERS];
    cz_num_t drg[CZ_POREP_DRG_DEGREE][CZ_POREP_MAX_LAYERS];
    cz_num_t exp[CZ_POREP_EXP_DEGREE][CZ_POREP_MAX_LAYERS];

    /* -- the initial data layer: data leaf and its tree_d inclusion. */
    CZ__PTRY(alloc_num(cs, &data_leaf, "data_leaf", ch ? &ch->data_leaf : NULL));
    CZ__PTRY(inclusion(cs, "comm_d_inclusion", &sh->d, ch ? ch->challenge : 0,
                       ch ? ch->d_path : NULL, &data_leaf, &shared->comm_d));

    /* -- the replica column openings. */
    for (unsigned k = 0; k < CZ_POREP_DRG_DEGREE; k++)
        CZ__PTRY(parent_column(cs, p, sh, shared, "drg", k, ch ? &ch->drg[k] : NULL, drg[k]));
    for (unsigned k = 0; k < CZ_POREP_EXP_DEGREE; k++)
        CZ__PTRY(parent_column(cs, p, sh, shared, "exp", k, ch ? &ch->exp[k] : NULL, exp[k]));

    /* -- the challenge: UInt64::alloc, pack_into_input. */
    cz_u64_t node;
    CZ__PTRY(cz_cs_push(cs, "challenge"));
    CZ__PTRY(cz_u64_alloc(cs, &node, ch ? ch->challenge : 0));
    CZ__PTRY(cz_cs_pop(cs));
    CZ__PTRY(cz_cs_push(cs, "challenge input"));
    CZ__PTRY(cz_u64_pack_into_input(cs, &node));
    CZ__PTRY(cz_cs_pop(cs));

    /* -- the labels, layer by layer: fresh bits of every parent's row. */
    for (unsigned layer = 1; layer <= L; layer++) {
        unsigned np = 0;
        const void *base[CZ_POREP_DRG_DEGREE + CZ_POREP_EXP_DEGREE];
        const void *expanded[CZ_POREP_TOTAL_PARENTS];
        CZ__PTRY(cz_cs_pushf(cs, "labeling_%u", layer));
        for (unsigned k = 0; k < CZ_POREP_DRG_DEGREE; k++, np++) {
            CZ__PTRY(parent_bits(cs, scr->parents[np], &drg[k][layer - 1], "drg", np));
            base[np] = scr->parents[np];
        }
        if (layer > 1) {
            /* expander parents come from the previous layer (get_value(layer - 1)) */
            for (unsigned k = 0; k < CZ_POREP_EXP_DEGREE; k++, np++) {
                CZ__PTRY(parent_bits(cs, scr->parents[np], &exp[k][layer - 2], "exp", np));
                base[np] = scr->parents[np];
            }
        }
        cz__porep_expand_parents(expanded, base, layer);
        CZ__PTRY(cz_cs_push(cs, "create_label"));
        CZ__PTRY(cz__porep_label_circuit(cs, &labels[layer - 1], shared->replica_id_bits,
                                         (const cz_bool_t *const *)expanded, layer, &node,
                                         scr->msg));
        CZ__PTRY(cz_cs_pop(cs));
        CZ__PTRY(cz_cs_pop(cs));
    }

    /* -- encoding: key (last label) + data leaf, in tree_r_last. */
    cz_num_t replica;
    CZ__PTRY(cz_cs_push(cs, "encode_node"));
    CZ__PTRY(cz_cs_push(cs, "encode_add"));
    CZ__PTRY(cz_num_add(cs, &replica, &labels[L - 1], &data_leaf));
    CZ__PTRY(cz_cs_pop(cs));
    CZ__PTRY(cz_cs_pop(cs));
    CZ__PTRY(inclusion(cs, "comm_r_last_data_inclusion", &sh->rc, ch ? ch->challenge : 0,
                       ch ? ch->r_path : NULL, &replica, &shared->comm_r_last));

    /* -- the challenged column's hash, in tree_c. */
    cz_num_t col_hash;
    CZ__PTRY(cz_cs_push(cs, "c_x_column_hash"));
    CZ__PTRY(cz_poseidon_gadget(cs, &col_hash, cz_poseidon_constants_get(L), labels));
    CZ__PTRY(cz_cs_pop(cs));
    return inclusion(cs, "c_x_inclusion", &sh->rc, ch ? ch->challenge : 0, ch ? ch->c_path : NULL,
                     &col_hash, &shared->comm_c);
}

int cz__porep_challenge(cz_cs_t *cs, const cz_porep_params_t *p, const cz__porep_shapes_t *sh,
                        const cz__porep_shared_t *shared, unsigned i,
                        const cz_porep_challenge_t *ch, cz__porep_scratch_t *scratch)
{
    CZ__PTRY(cz_cs_pushf(cs, "challenge_%u", i));
    CZ__PTRY(challenge_body(cs, p, sh, shared, ch, scratch));
    return cz_cs_pop(cs);
}

/* ---- the partition ------------------------------------------------------------------ */

bool cz_porep_params_same_circuit(const cz_porep_params_t *a, const cz_porep_params_t *b)
{
    return a->nodes == b->nodes && a->layers == b->layers && a->challenges == b->challenges &&
           a->base_arity == b->base_arity && a->sub_arity == b->sub_arity &&
           a->top_arity == b->top_arity;
}

int cz__porep_validate(cz_cs_t *cs, const cz_porep_params_t *p, const cz_porep_input_t *in,
                       cz__porep_shapes_t *sh)
{
    if (!cs || cz__porep_shapes(sh, p))
        return CZ_EINVAL;
    if (in) {
        if (!in->ch || in->nchallenges != p->challenges ||
            !cz_porep_params_same_circuit(&in->params, p))
            return CZ_EINVAL;
        for (unsigned i = 0; i < in->nchallenges; i++)
            if (in->ch[i].challenge >= p->nodes)
                return CZ_EINVAL;
    } else if (cz_cs_needs_values(cs)) {
        return CZ_EINVAL;
    }
    return CZ_OK;
}

int cz_porep_circuit(cz_cs_t *cs, const cz_porep_params_t *p, const cz_porep_input_t *in)
{
    cz__porep_shapes_t sh;
    CZ__PTRY(cz__porep_validate(cs, p, in, &sh));
    cz__porep_scratch_t *scr = malloc(sizeof *scr);
    if (!scr)
        return CZ_ENOMEM;
    cz__porep_shared_t shared;
    int rc = cz__porep_prelude(cs, &shared, in);
    for (unsigned i = 0; rc == CZ_OK && i < p->challenges; i++)
        rc = cz__porep_challenge(cs, p, &sh, &shared, i, in ? &in->ch[i] : NULL, scr);
    free(scr);
    return rc;
}
