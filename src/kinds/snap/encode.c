/*
 * kinds/snap/encode.c — the update encoding and its vanilla proofs (encode.h).
 */
#include "kinds/snap/encode.h"

#include <stdlib.h>
#include <string.h>

#include "circuits/snap/snap_int.h"
#include "hash/poseidon.h"

void cz_snap_sector_free(cz_snap_sector_t *s)
{
    if (!s)
        return;
    cz_por_tree_free(&s->tree_r_old);
    cz_por_tree_free(&s->tree_d_new);
    cz_por_tree_free(&s->tree_r_new);
    memset(s, 0, sizeof *s);
}

int cz_snap_sector_encode(cz_ctx_t *ctx, cz_snap_sector_t *out, const cz_snap_params_t *p,
                          const cz_fr *comm_c, const cz_fr *replica_old, const cz_fr *data_new,
                          unsigned h)
{
    memset(out, 0, sizeof *out);
    unsigned idx;
    if (!h)
        h = p->h;
    if (p->sub_arity || cz_snap_h_index(p, h, &idx))
        return cz_fail(ctx, CZ_EINVAL,
                       "snap encode: dense test sectors are 2KiB, 8MiB or "
                       "512MiB, and h must be one of the size's hs");
    cz_por_shape_t rs, ds;
    if (cz_por_shape(&rs, CZ_POR_POSEIDON, p->base_arity, 0, 0, p->nodes) ||
        cz_por_shape(&ds, CZ_POR_SHA254, 2, 0, 0, p->nodes))
        return cz_fail(ctx, CZ_EINVAL, "snap encode: bad tree shape");
    out->params = *p;
    out->h = h;
    out->comm_c = *comm_c;
    cz_fr *enc = malloc(sizeof(cz_fr) * p->nodes);
    int rc = enc ? CZ_OK : CZ_ENOMEM;
    if (rc == CZ_OK)
        rc = cz_por_tree_build(&out->tree_r_old, &rs, replica_old);
    if (rc == CZ_OK)
        rc = cz_por_tree_build(&out->tree_d_new, &ds, data_new);
    cz_fr pre[2];
    if (rc == CZ_OK) {
        out->comm_d_new = *cz_por_tree_root(&out->tree_d_new);
        pre[0] = *comm_c;
        pre[1] = *cz_por_tree_root(&out->tree_r_old);
        cz_poseidon_hash(cz_poseidon_constants_get(2), &out->comm_r_old, pre);
    }
    cz_fr phi, rho;
    if (rc == CZ_OK)
        rc = cz_snap_phi(&phi, &out->comm_d_new, &out->comm_r_old);
    /* rho depends on the node only through its top h bits: one hash per run. */
    uint64_t run = UINT64_MAX;
    for (uint64_t i = 0; rc == CZ_OK && i < p->nodes; i++) {
        const uint64_t high = i >> (p->challenge_bit_len - h);
        if (high != run) {
            rc = cz_snap_rho(&rho, p, &phi, i, h);
            run = high;
        }
        cz_fr_mul(&enc[i], &data_new[i], &rho);
        cz_fr_add(&enc[i], &enc[i], &replica_old[i]);
    }
    if (rc == CZ_OK)
        rc = cz_por_tree_build(&out->tree_r_new, &rs, enc);
    if (rc == CZ_OK) {
        pre[1] = *cz_por_tree_root(&out->tree_r_new);
        cz_poseidon_hash(cz_poseidon_constants_get(2), &out->comm_r_new, pre);
    }
    free(enc);
    if (rc) {
        cz_snap_sector_free(out);
        return rc == CZ_ENOMEM ? cz_fail(ctx, rc, "snap encode: out of memory") : rc;
    }
    return CZ_OK;
}

/* The TreeD node at |height| (0 = leaves) and index |i|: levels are stored
 * leaves first in one array (gadgets/por.h). */
static const cz_fr *d_node(const cz_por_tree_t *t, unsigned height, uint64_t i)
{
    uint64_t off = 0, width = cz_por_leaves(&t->shape);
    for (unsigned l = 0; l < height; l++) {
        off += width;
        width /= 2;
    }
    return &t->nodes[off + i];
}

int cz_snap_sector_partition(const cz_snap_sector_t *s, unsigned k, cz_snap_input_t *in)
{
    const cz_snap_params_t *p = &s->params;
    if (k >= p->partitions)
        return CZ_EINVAL;
    in->k = k;
    in->h = s->h;
    in->comm_r_old = s->comm_r_old;
    in->comm_d_new = s->comm_d_new;
    in->comm_r_new = s->comm_r_new;
    in->comm_c = s->comm_c;
    in->root_r_old = *cz_por_tree_root(&s->tree_r_old);
    in->root_r_new = *cz_por_tree_root(&s->tree_r_new);
    const unsigned apex_height = p->challenge_bit_len - p->partition_bit_len - p->apex_bit_len;
    for (unsigned i = 0; i < p->apex_leaves; i++)
        in->apex_leaves[i] = *d_node(&s->tree_d_new, apex_height, (uint64_t)k * p->apex_leaves + i);
    uint64_t cs[CZ_SNAP_MAX_CHALLENGES];
    CZ__UTRY(cz_snap_challenges(p, &s->comm_r_new, k, cs));
    for (unsigned i = 0; i < p->challenges; i++) {
        cz_snap_challenge_t *ch = &in->ch[i];
        ch->challenge = cs[i];
        ch->leaf_r_old = *cz_por_tree_leaf(&s->tree_r_old, cs[i]);
        ch->leaf_d_new = *cz_por_tree_leaf(&s->tree_d_new, cs[i]);
        ch->leaf_r_new = *cz_por_tree_leaf(&s->tree_r_new, cs[i]);
        CZ__UTRY(cz_por_tree_path(&s->tree_r_old, cs[i], ch->path_r_old));
        CZ__UTRY(cz_por_tree_path(&s->tree_d_new, cs[i], ch->path_d_new));
        CZ__UTRY(cz_por_tree_path(&s->tree_r_new, cs[i], ch->path_r_new));
    }
    return CZ_OK;
}
