/*
 * kinds/porep/to_circuit.c — fill the circuit's per-partition input
 * (circuits/porep/stacked.h cz_porep_input_t) from a parsed C1, as RFP's
 * StackedCompound::circuit does from the vanilla proofs (circuit/proof.rs:
 * comm_r_last = comm_r_last_proof root, comm_c = c_x inclusion root;
 * circuit/params.rs From<VanillaProof>: data_leaf = comm_d_proofs leaf,
 * challenge = labeling_proofs[0].node).
 */
#include "kinds/porep/c1.h"

#include <string.h>

static int fr_of(cz_ctx_t *ctx, cz_fr *out, const uint8_t repr[32], unsigned k, unsigned i,
                 const char *what)
{
    if (cz_fr_from_repr(out, repr))
        return cz_fail(ctx, CZ_ERANGE,
                       "c1: partition %u challenge %u: %s is not a field "
                       "element",
                       k, i, what);
    return CZ_OK;
}

/* Siblings of a Merkle proof into cz_fr[], after checking that the
 * per-level indices spell |leaf| (stacked.h PATHS). */
static int path_of(cz_ctx_t *ctx, cz_fr *out, const cz_c1_merkle_t *m, uint64_t leaf, unsigned k,
                   unsigned i, const char *what)
{
    uint64_t x = leaf;
    size_t o = 0;
    for (unsigned l = 0; l < m->nlevels; l++) {
        if (m->index[l] != x % m->arity[l])
            return cz_fail(ctx, CZ_EVERIFY,
                           "c1: partition %u challenge %u: %s path index %u "
                           "at level %u does not match leaf %llu",
                           k, i, what, m->index[l], l, (unsigned long long)leaf);
        x /= m->arity[l];
        for (unsigned s = 0; s + 1 < m->arity[l]; s++, o++) {
            int rc = fr_of(ctx, &out[o], m->siblings[o], k, i, what);
            if (rc)
                return rc;
        }
    }
    return CZ_OK;
}

static int column_of(cz_ctx_t *ctx, cz_porep_column_t *dst, const cz_c1_column_t *src,
                     unsigned layers, unsigned k, unsigned i)
{
    dst->index = src->index;
    for (unsigned l = 0; l < layers; l++) {
        int rc = fr_of(ctx, &dst->rows[l], src->rows[l], k, i, "column row");
        if (rc)
            return rc;
    }
    return path_of(ctx, dst->c_path, &src->proof, src->index, k, i, "tree_c");
}

int cz_c1_to_circuit(cz_ctx_t *ctx, const cz_c1_t *c, unsigned k, cz_porep_input_t *in)
{
    if (!c || !c->proofs || k >= c->npartitions)
        return cz_fail(ctx, CZ_EINVAL, "c1: no partition %u", k);
    int rc = cz_porep_input_alloc(in, &c->params);
    if (rc)
        return cz_fail(ctx, rc, "c1: cannot allocate the circuit input");
    in->partition = k;
    const unsigned L = c->params.layers;
    const cz_c1_proof_t *p0 = &c->proofs[k * c->nchallenges];
    if ((rc = fr_of(ctx, &in->replica_id, c->replica_id, k, 0, "replica_id")) ||
        (rc = fr_of(ctx, &in->comm_d, c->comm_d, k, 0, "comm_d")) ||
        (rc = fr_of(ctx, &in->comm_r, c->comm_r, k, 0, "comm_r")) ||
        (rc = fr_of(ctx, &in->comm_r_last, p0->comm_r_last.root, k, 0, "comm_r_last")) ||
        (rc = fr_of(ctx, &in->comm_c, p0->c_x.proof.root, k, 0, "comm_c")))
        goto fail;
    for (unsigned i = 0; i < c->nchallenges; i++) {
        const cz_c1_proof_t *p = &c->proofs[k * c->nchallenges + i];
        cz_porep_challenge_t *ch = &in->ch[i];
        /* one comm_c / comm_r_last per partition (proof.rs: "inconsistent") */
        if (memcmp(p->comm_r_last.root, p0->comm_r_last.root, 32) ||
            memcmp(p->c_x.proof.root, p0->c_x.proof.root, 32)) {
            rc = cz_fail(ctx, CZ_EVERIFY,
                         "c1: partition %u challenge %u: inconsistent "
                         "comm_c or comm_r_last",
                         k, i);
            goto fail;
        }
        ch->challenge = p->labeling[0].node;
        if ((rc = fr_of(ctx, &ch->data_leaf, p->comm_d.leaf, k, i, "data leaf")) ||
            (rc = path_of(ctx, ch->d_path, &p->comm_d, ch->challenge, k, i, "tree_d")) ||
            (rc = path_of(ctx, ch->c_path, &p->c_x.proof, ch->challenge, k, i, "c_x")) ||
            (rc = path_of(ctx, ch->r_path, &p->comm_r_last, ch->challenge, k, i, "tree_r_last")) ||
            (rc = fr_of(ctx, &ch->replica_leaf, p->comm_r_last.leaf, k, i, "replica leaf")))
            goto fail;
        for (unsigned j = 0; j < CZ_POREP_DRG_DEGREE; j++)
            if ((rc = column_of(ctx, &ch->drg[j], &p->drg[j], L, k, i)))
                goto fail;
        for (unsigned j = 0; j < CZ_POREP_EXP_DEGREE; j++)
            if ((rc = column_of(ctx, &ch->exp[j], &p->exp[j], L, k, i)))
                goto fail;
        for (unsigned l = 0; l < L; l++)
            if ((rc = fr_of(ctx, &ch->labels[l], p->c_x.rows[l], k, i, "label")))
                goto fail;
    }
    return CZ_OK;
fail:
    cz_porep_input_free(in);
    return rc;
}
