/*
 * circuits/porep/check.c — native consistency check of a partition input
 * (cz_porep_input_check, see stacked.h): the same relations the circuit
 * enforces, evaluated without a constraint system, so a bad C1 input is
 * reported by name before any synthesis.
 *
 * Sources: rust-fil-proofs storage-proofs-porep/src/stacked/circuit/
 * params.rs (what each challenge proves), vanilla/proof.rs (the same
 * checks in the vanilla verifier), storage-proofs-core merkle proofs.
 */
#include "circuits/porep/porep_int.h"

#include "hash/poseidon.h"
#include "hash/poseidon_constants.h"

/* Walk a path from |leaf| (leaf index |index|) and compare with |root|. */
static bool path_ok(const cz_por_shape_t *s, uint64_t index, const cz_fr *leaf,
                    const cz_fr *siblings, const cz_fr *root)
{
    cz_fr cur = *leaf, nodes[16];
    size_t sib = 0;
    for (unsigned l = 0; l < cz_por_levels(s); l++) {
        unsigned a = cz_por_level_arity(s, l), pos = (unsigned)(index % a);
        for (unsigned j = 0, k = 0; j < a; j++)
            nodes[j] = j == pos ? cur : siblings[sib + k++];
        if (cz_por_hash_native(&cur, s->hasher, nodes, a))
            return false;
        sib += a - 1;
        index /= a;
    }
    return cz_fr_eq(&cur, root);
}

static bool column_ok(const cz__porep_shapes_t *sh, const cz_porep_params_t *p,
                      const cz_porep_column_t *col, const cz_fr *comm_c)
{
    cz_fr h;
    cz_poseidon_hash(cz_poseidon_constants_get(p->layers), &h, col->rows);
    return col->index < p->nodes && path_ok(&sh->rc, col->index, &h, col->c_path, comm_c);
}

int cz_porep_input_check(cz_ctx_t *ctx, const cz_porep_input_t *in)
{
    cz__porep_shapes_t sh;
    if (!in || !in->ch || cz__porep_shapes(&sh, &in->params) ||
        in->nchallenges != in->params.challenges)
        return cz_fail(ctx, CZ_EINVAL, "porep input: not allocated for valid params");
    const cz_porep_params_t *p = &in->params;
    const unsigned L = p->layers;
    cz_fr pre[2] = { in->comm_c, in->comm_r_last }, h;
    cz_poseidon_hash(cz_poseidon_constants_get(2), &h, pre);
    if (!cz_fr_eq(&h, &in->comm_r))
        return cz_fail(ctx, CZ_EUNSAT, "porep input: comm_r != H(comm_c, comm_r_last)");
    for (unsigned i = 0; i < in->nchallenges; i++) {
        const cz_porep_challenge_t *ch = &in->ch[i];
        const uint64_t c = ch->challenge;
        if (c >= p->nodes)
            return cz_fail(ctx, CZ_EUNSAT, "porep input: challenge %u: node %llu >= %llu", i,
                           (unsigned long long)c, (unsigned long long)p->nodes);
        if (!path_ok(&sh.d, c, &ch->data_leaf, ch->d_path, &in->comm_d))
            return cz_fail(ctx, CZ_EUNSAT, "porep input: challenge %u: tree_d path", i);
        for (unsigned k = 0; k < CZ_POREP_DRG_DEGREE; k++)
            if (!column_ok(&sh, p, &ch->drg[k], &in->comm_c))
                return cz_fail(ctx, CZ_EUNSAT, "porep input: challenge %u: drg parent %u", i, k);
        for (unsigned k = 0; k < CZ_POREP_EXP_DEGREE; k++)
            if (!column_ok(&sh, p, &ch->exp[k], &in->comm_c))
                return cz_fail(ctx, CZ_EUNSAT, "porep input: challenge %u: exp parent %u", i, k);
        for (unsigned layer = 1; layer <= L; layer++) {
            const void *base[CZ_POREP_DRG_DEGREE + CZ_POREP_EXP_DEGREE];
            const void *expanded[CZ_POREP_TOTAL_PARENTS];
            for (unsigned k = 0; k < CZ_POREP_DRG_DEGREE; k++)
                base[k] = &ch->drg[k].rows[layer - 1];
            for (unsigned k = 0; layer > 1 && k < CZ_POREP_EXP_DEGREE; k++)
                base[CZ_POREP_DRG_DEGREE + k] = &ch->exp[k].rows[layer - 2];
            cz__porep_expand_parents(expanded, base, layer);
            cz__porep_label_native(&h, &in->replica_id, layer, c, (const cz_fr *const *)expanded);
            if (!cz_fr_eq(&h, &ch->labels[layer - 1]))
                return cz_fail(ctx, CZ_EUNSAT, "porep input: challenge %u: label of layer %u", i,
                               layer);
        }
        cz_fr_add(&h, &ch->labels[L - 1], &ch->data_leaf);
        if (!cz_fr_eq(&h, &ch->replica_leaf))
            return cz_fail(ctx, CZ_EUNSAT, "porep input: challenge %u: encoding", i);
        if (!path_ok(&sh.rc, c, &ch->replica_leaf, ch->r_path, &in->comm_r_last))
            return cz_fail(ctx, CZ_EUNSAT, "porep input: challenge %u: tree_r_last path", i);
        cz_poseidon_hash(cz_poseidon_constants_get(L), &h, ch->labels);
        if (!path_ok(&sh.rc, c, &h, ch->c_path, &in->comm_c))
            return cz_fail(ctx, CZ_EUNSAT, "porep input: challenge %u: tree_c path", i);
    }
    return CZ_OK;
}
