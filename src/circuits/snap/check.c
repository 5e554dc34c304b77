/*
 * circuits/snap/check.c — the native check of a partition input, as the
 * vanilla verifier does it (RFP storage-proofs-update/src/vanilla.rs
 * EmptySectorUpdate::verify, ChallengeProof::verify_merkle_proofs), so a bad
 * input is named before any proving work.
 */
#include "circuits/snap/snap_int.h"

#include <string.h>

/* The node reached at height |stop| (levels of the shape) from |leaf| along
 * |siblings|, the positions being the challenge's digits. */
static int walk(const cz_por_shape_t *s, uint64_t challenge, const cz_fr *leaf,
                const cz_fr *siblings, unsigned stop, cz_fr *out)
{
    cz_fr cur = *leaf, nodes[8];
    uint64_t idx = challenge;
    size_t off = 0;
    for (unsigned l = 0; l < stop; l++) {
        const unsigned a = cz_por_level_arity(s, l);
        const unsigned pos = (unsigned)(idx % a);
        idx /= a;
        for (unsigned j = 0, k = 0; j < a; j++)
            nodes[j] = j == pos ? cur : siblings[off + k++];
        off += a - 1;
        CZ__UTRY(cz_por_hash_native(&cur, s->hasher, nodes, a));
    }
    *out = cur;
    return CZ_OK;
}

static int comm_r_of(cz_fr *out, const cz_fr *comm_c, const cz_fr *root)
{
    cz_fr pre[2] = { *comm_c, *root };
    return cz_por_hash_native(out, CZ_POR_POSEIDON, pre, 2);
}

static int check_challenge(cz_ctx_t *ctx, const cz_snap_input_t *in, const cz__snap_shapes_t *sh,
                           unsigned i, uint64_t expect, const cz_fr *phi, const cz_fr *apex_root)
{
    const cz_snap_params_t *p = &in->params;
    const cz_snap_challenge_t *ch = &in->ch[i];
    cz_fr v;
    if (ch->challenge != expect)
        return cz_fail(ctx, CZ_EUNSAT,
                       "snap: challenge %u is node %llu, Challenges(comm_r_new, "
                       "k=%u) gives %llu",
                       i, (unsigned long long)ch->challenge, in->k, (unsigned long long)expect);
    CZ__UTRY(
        walk(&sh->r, ch->challenge, &ch->leaf_r_old, ch->path_r_old, cz_por_levels(&sh->r), &v));
    if (!cz_fr_eq(&v, &in->root_r_old))
        return cz_fail(ctx, CZ_EUNSAT,
                       "snap: challenge %u: the tree_r_old path does not "
                       "reach root_r_old",
                       i);
    CZ__UTRY(
        walk(&sh->r, ch->challenge, &ch->leaf_r_new, ch->path_r_new, cz_por_levels(&sh->r), &v));
    if (!cz_fr_eq(&v, &in->root_r_new))
        return cz_fail(ctx, CZ_EUNSAT,
                       "snap: challenge %u: the tree_r_new path does not "
                       "reach root_r_new",
                       i);
    CZ__UTRY(
        walk(&sh->d, ch->challenge, &ch->leaf_d_new, ch->path_d_new, cz_por_levels(&sh->d), &v));
    if (!cz_fr_eq(&v, &in->comm_d_new))
        return cz_fail(ctx, CZ_EUNSAT,
                       "snap: challenge %u: the tree_d_new path does not "
                       "reach comm_d_new",
                       i);
    /* the circuit selects the apex leaf by the challenge's bits above the
     * path to it: the node there must be that apex leaf */
    const unsigned below = p->challenge_bit_len - p->partition_bit_len - p->apex_bit_len;
    CZ__UTRY(walk(&sh->d, ch->challenge, &ch->leaf_d_new, ch->path_d_new, below, &v));
    if (!cz_fr_eq(&v, &in->apex_leaves[(ch->challenge >> below) & (p->apex_leaves - 1)]))
        return cz_fail(ctx, CZ_EUNSAT,
                       "snap: challenge %u: its tree_d_new path does not pass "
                       "through apex leaf %llu",
                       i, (unsigned long long)((ch->challenge >> below) & (p->apex_leaves - 1)));
    const unsigned apex_height = p->challenge_bit_len - p->partition_bit_len;
    CZ__UTRY(walk(&sh->d, ch->challenge, &ch->leaf_d_new, ch->path_d_new, apex_height, &v));
    if (!cz_fr_eq(&v, apex_root))
        return cz_fail(ctx, CZ_EUNSAT,
                       "snap: challenge %u: its tree_d_new path does not pass "
                       "through the root of the apex leaves",
                       i);
    for (unsigned l = apex_height; l < p->challenge_bit_len; l++)
        if (!cz_fr_eq(&ch->path_d_new[l], &in->ch[0].path_d_new[l]))
            return cz_fail(ctx, CZ_EUNSAT,
                           "snap: challenge %u: its partition path differs "
                           "from challenge 0's at level %u",
                           i, l);
    cz_fr rho, enc;
    CZ__UTRY(cz_snap_rho(&rho, p, phi, ch->challenge, in->h));
    cz_fr_mul(&enc, &ch->leaf_d_new, &rho);
    cz_fr_add(&enc, &enc, &ch->leaf_r_old);
    if (!cz_fr_eq(&enc, &ch->leaf_r_new))
        return cz_fail(ctx, CZ_EUNSAT,
                       "snap: challenge %u (node %llu): leaf_r_new != "
                       "leaf_r_old + leaf_d_new * rho",
                       i, (unsigned long long)ch->challenge);
    return CZ_OK;
}

int cz_snap_input_check(cz_ctx_t *ctx, const cz_snap_input_t *in)
{
    const cz_snap_params_t *p = &in->params;
    cz__snap_shapes_t sh;
    unsigned idx;
    if (cz__snap_shapes(&sh, p) || p->challenges > CZ_SNAP_MAX_CHALLENGES ||
        p->apex_leaves > CZ_SNAP_MAX_APEX)
        return cz_fail(ctx, CZ_EINVAL, "snap: bad parameters");
    if (in->k >= p->partitions)
        return cz_fail(ctx, CZ_EUNSAT, "snap: partition k=%u, the sector has %u", in->k,
                       p->partitions);
    if (cz_snap_h_index(p, in->h, &idx))
        return cz_fail(ctx, CZ_EUNSAT, "snap: h=%u is not allowed for this sector size", in->h);
    cz_fr v;
    CZ__UTRY(comm_r_of(&v, &in->comm_c, &in->root_r_old));
    if (!cz_fr_eq(&v, &in->comm_r_old))
        return cz_fail(ctx, CZ_EUNSAT, "snap: comm_r_old != H(comm_c, root_r_old)");
    CZ__UTRY(comm_r_of(&v, &in->comm_c, &in->root_r_new));
    if (!cz_fr_eq(&v, &in->comm_r_new))
        return cz_fail(ctx, CZ_EUNSAT, "snap: comm_r_new != H(comm_c, root_r_new)");

    /* The apex tree's root. */
    cz_fr row[CZ_SNAP_MAX_APEX];
    memcpy(row, in->apex_leaves, sizeof(cz_fr) * p->apex_leaves);
    for (unsigned w = p->apex_leaves; w > 1; w /= 2)
        for (unsigned i = 0; i < w / 2; i++)
            CZ__UTRY(cz_por_hash_native(&row[i], CZ_POR_SHA254, &row[2 * i], 2));

    uint64_t cs[CZ_SNAP_MAX_CHALLENGES];
    cz_fr phi;
    CZ__UTRY(cz_snap_challenges(p, &in->comm_r_new, in->k, cs));
    CZ__UTRY(cz_snap_phi(&phi, &in->comm_d_new, &in->comm_r_old));
    for (unsigned i = 0; i < p->challenges; i++)
        CZ__UTRY(check_challenge(ctx, in, &sh, i, cs[i], &phi, &row[0]));
    return CZ_OK;
}
