/*
 * kinds/porep/seal.c — dense test sealing and C1 generation (see seal.h).
 * Sources: RFP storage-proofs-porep/src/stacked/vanilla/proof.rs
 * (replicate_phase1: labels; replicate_phase2: tree_c over column hashes,
 * replica = label of the last layer + data (encode.rs: Fr addition),
 * tree_r_last, comm_r = H(comm_c, comm_r_last); prove_layers: the proof of
 * each challenge), column.rs / hash.rs (column hash = Poseidon of the
 * layers' labels), params.rs Proof::from_parts (labeling proofs: the parent
 * labels cycled to 37; encoding proof = last layer's labeling proof).
 */
#include "kinds/porep/seal.h"

#include <stdlib.h>
#include <string.h>

#include "hash/poseidon.h"
#include "kinds/porep/graph.h"
#include "kinds/porep/label.h"

int cz_seal_fill_merkle(cz_c1_merkle_t *m, const cz_sdr_tree_t *t, uint64_t i, int kind,
                        unsigned nbase)
{
    int rc = cz_c1_merkle_alloc(m, kind, nbase, t->arity, t->nlevels);
    if (rc)
        return rc;
    uint64_t x = i;
    for (unsigned l = 0; l < t->nlevels; l++) {
        m->index[l] = (unsigned)(x % t->arity[l]);
        x /= t->arity[l];
    }
    cz_sdr_tree_path(t, i, m->siblings);
    cz_sdr_tree_root(t, m->root);
    cz_sdr_tree_node(t, 0, i, m->leaf);
    return CZ_OK;
}

static int fill_column(cz_c1_column_t *col, const uint8_t *labels, uint64_t nodes, unsigned layers,
                       const cz_sdr_tree_t *tc, uint32_t node, int kind, unsigned nbase)
{
    col->index = node;
    col->nrows = layers;
    col->rows = malloc(layers * sizeof *col->rows);
    if (!col->rows)
        return CZ_ENOMEM;
    for (unsigned l = 0; l < layers; l++)
        memcpy(col->rows[l], labels + ((size_t)l * nodes + node) * 32, 32);
    return cz_seal_fill_merkle(&col->proof, tc, node, kind, nbase);
}

static int fill_label(cz_c1_label_t *lp, const uint8_t *labels, uint64_t nodes, unsigned layer,
                      uint32_t node, const uint32_t parents[14])
{
    lp->nparents = CZ_SDR_TOTAL_PARENTS;
    lp->parents = malloc(CZ_SDR_TOTAL_PARENTS * sizeof *lp->parents);
    if (!lp->parents)
        return CZ_ENOMEM;
    const uint8_t *cur = labels + (size_t)(layer - 1) * nodes * 32;
    cz_sdr_label_parents(&lp->parents[0][0], layer, parents, cur,
                         layer > 1 ? cur - nodes * 32 : NULL);
    lp->layer_index = layer;
    lp->node = node;
    return CZ_OK;
}

void cz_sealed_free(cz_sealed_t *s)
{
    if (!s)
        return;
    free(s->data);
    free(s->labels);
    free(s->cache);
    free(s->leaves);
    cz_sdr_tree_free(&s->td);
    cz_sdr_tree_free(&s->tc);
    cz_sdr_tree_free(&s->tr);
    memset(s, 0, sizeof *s);
}

int cz_seal_replicate(cz_ctx_t *ctx, const cz_seal_args_t *a, cz_sealed_t *out)
{
    memset(out, 0, sizeof *out);
    cz_porep_params_t pp;
    const cz_porep_proof_t *pf = a->proof ? a->proof : cz_porep_proof_v1_1(a->sector_bytes);
    if (pf && (!pf->v1_1 || pf->sector_bytes != a->sector_bytes))
        return cz_fail(ctx, CZ_EINVAL, "gen-c1: %s is not a V1_1-graph proof of %llu bytes",
                       pf->name, (unsigned long long)a->sector_bytes);
    if (!pf || cz_porep_proof_params(&pp, pf) || pp.sub_arity)
        return cz_fail(ctx, CZ_EINVAL,
                       "gen-c1: dense sealing supports 2KiB, 8MiB and 512MiB "
                       "(got %llu bytes; use the sparse mode for 32GiB)",
                       (unsigned long long)a->sector_bytes);
    const uint64_t N = pp.nodes;
    const unsigned L = pp.layers;
    cz_sealed_t s;
    memset(&s, 0, sizeof s);
    s.proof = pf;
    s.params = pp;
    int rc = CZ_ENOMEM;
    s.data = malloc(N * 32);
    s.labels = malloc((size_t)L * N * 32);
    s.leaves = malloc(N * sizeof(cz_fr));
    if (!s.data || !s.labels || !s.leaves)
        goto oom;
    /* 1. data: Fr32-valid (each node < 2^254: top two bits clear) */
    if (a->data) {
        for (uint64_t v = 0; v < N; v++)
            if (a->data[32 * v + 31] & 0xc0) {
                cz_sealed_free(&s);
                return cz_fail(ctx, CZ_EINVAL,
                               "gen-c1: data node %llu is not Fr32-valid "
                               "(byte 31 = 0x%02x; the top two bits must be 0)",
                               (unsigned long long)v, a->data[32 * v + 31]);
            }
        memcpy(s.data, a->data, N * 32);
    } else {
        cz_rng rng;
        cz_rng_seed(&rng, a->random_seed);
        for (uint64_t w = 0; w < N * 4; w++) {
            uint64_t x = cz_rng_next(&rng);
            memcpy(s.data + 8 * w, &x, 8);
        }
        for (uint64_t v = 0; v < N; v++)
            s.data[32 * v + 31] &= 0x3f;
    }

    /* 2. tree_d, comm_d, replica_id, graph */
    uint8_t porep_id[32];
    uint8_t *comm_d = s.comm_d, *replica_id = s.replica_id;
    cz_porep_id(porep_id, pf);
    if ((rc = cz_sdr_tree_shape(&s.td, CZ_POR_SHA254, N, 2, 0, 0)) ||
        (rc = cz_sdr_tree_build(ctx, &s.td, s.data)))
        goto fail;
    cz_sdr_tree_root(&s.td, comm_d);
    cz_porep_replica_id(replica_id, a->prover_id, a->sector_id, a->ticket, comm_d, porep_id);
    cz_porep_graph_t g;
    if ((rc = cz_porep_graph_init(&g, N, porep_id)) ||
        (rc = cz_porep_parent_cache(ctx, &g, &s.cache)))
        goto fail;

    /* 3. labels */
    if ((rc = cz_sdr_label_all(ctx, &g, s.cache, replica_id, L, s.labels)))
        goto fail;

    /* 4. tree_c over the column hashes */
    const cz_poseidon_constants *ccol = cz_poseidon_constants_get(L);
    cz_fr *cols = malloc((size_t)L * N * sizeof *cols);
    if (!cols || !ccol) {
        free(cols);
        goto oom;
    }
    for (uint64_t v = 0; v < N; v++)
        for (unsigned l = 0; l < L; l++)
            cz_fr_from_repr(&cols[v * L + l], s.labels + ((size_t)l * N + v) * 32);
    rc = cz_poseidon_hash_many(ctx, ccol, s.leaves, cols, (size_t)N);
    free(cols);
    if (rc ||
        (rc = cz_sdr_tree_shape(&s.tc, CZ_POR_POSEIDON, N, pp.base_arity, pp.sub_arity,
                                pp.top_arity)) ||
        (rc = cz_sdr_tree_build(ctx, &s.tc, s.leaves)))
        goto fail;

    /* 5. replica = last label + data (Fr), tree_r_last */
    for (uint64_t v = 0; v < N; v++) {
        cz_fr key, d;
        cz_fr_from_repr(&key, s.labels + ((size_t)(L - 1) * N + v) * 32);
        cz_fr_from_repr(&d, s.data + 32 * v);
        cz_fr_add(&s.leaves[v], &key, &d);
    }
    if (a->replica_out)
        memcpy(a->replica_out, s.leaves, N * sizeof(cz_fr));
    if ((rc = cz_sdr_tree_shape(&s.tr, CZ_POR_POSEIDON, N, pp.base_arity, pp.sub_arity,
                                pp.top_arity)) ||
        (rc = cz_sdr_tree_build(ctx, &s.tr, s.leaves)))
        goto fail;

    /* 6. comm_r = Poseidon2(comm_c, comm_r_last) */
    uint8_t *comm_c = s.comm_c, *comm_r_last = s.comm_r_last, *comm_r = s.comm_r;
    cz_sdr_tree_root(&s.tc, comm_c);
    cz_sdr_tree_root(&s.tr, comm_r_last);
    cz_fr pair[2], r;
    cz_fr_from_repr(&pair[0], comm_c);
    cz_fr_from_repr(&pair[1], comm_r_last);
    if (a->comm_c_out)
        *a->comm_c_out = pair[0];
    cz_poseidon_hash(cz_poseidon_constants_get(2), &r, pair);
    cz_fr_to_repr(comm_r, &r);

    *out = s;
    return CZ_OK;
oom:
    rc = CZ_ENOMEM;
fail:
    cz_sealed_free(&s);
    if (cz_ctx_code(ctx) == rc && rc != CZ_ENOMEM)
        return rc;
    return cz_fail(ctx, rc, "gen-c1: sealing failed (%s)", cz_strerror(rc));
}

int cz_seal_gen_c1(cz_ctx_t *ctx, const cz_seal_args_t *a, cz_c1_t *out)
{
    memset(out, 0, sizeof *out);
    cz_sealed_t s;
    int rc = cz_seal_replicate(ctx, a, &s);
    if (rc)
        return rc;
    const cz_porep_params_t pp = s.params;
    const uint64_t N = pp.nodes;
    const unsigned L = pp.layers;
    const uint8_t *comm_r = s.comm_r, *comm_d = s.comm_d, *replica_id = s.replica_id;
    const cz_porep_proof_t *pf = s.proof;
    /* 7. the C1 */
    out->proof = pf;
    out->params = pp;
    memcpy(out->comm_r, comm_r, 32);
    memcpy(out->comm_d, comm_d, 32);
    memcpy(out->replica_id, replica_id, 32);
    memcpy(out->seed, a->seed, 32);
    memcpy(out->ticket, a->ticket, 32);
    if ((rc = cz_c1_alloc_proofs(out, pp.partitions, pp.challenges)))
        goto fail;
    const int kind = pp.top_arity ? CZ_C1_TOP : pp.sub_arity ? CZ_C1_SUB : CZ_C1_SINGLE;
    const unsigned nbase = s.tc.nlevels - (pp.sub_arity ? 1 : 0) - (pp.top_arity ? 1 : 0);
    uint64_t *ch = malloc(pp.challenges * sizeof *ch);
    if (!ch)
        goto oom;
    for (unsigned k = 0; k < pp.partitions && !rc; k++) {
        cz_porep_proof_challenges(ch, pp.challenges, N, pf, replica_id, comm_r, a->seed, k);
        for (unsigned i = 0; i < pp.challenges && !rc; i++) {
            cz_c1_proof_t *p = &out->proofs[k * pp.challenges + i];
            uint32_t c = (uint32_t)ch[i];
            const uint32_t *par = s.cache + (size_t)c * CZ_SDR_DEGREE;
            rc = cz_seal_fill_merkle(&p->comm_d, &s.td, c, CZ_C1_SINGLE, s.td.nlevels);
            if (!rc)
                rc = cz_seal_fill_merkle(&p->comm_r_last, &s.tr, c, kind, nbase);
            if (!rc)
                rc = fill_column(&p->c_x, s.labels, N, L, &s.tc, c, kind, nbase);
            for (unsigned j = 0; j < CZ_SDR_DRG_DEGREE && !rc; j++)
                rc = fill_column(&p->drg[j], s.labels, N, L, &s.tc, par[j], kind, nbase);
            for (unsigned j = 0; j < CZ_SDR_EXP_DEGREE && !rc; j++)
                rc = fill_column(&p->exp[j], s.labels, N, L, &s.tc, par[6 + j], kind, nbase);
            p->labeling = rc ? NULL : calloc(L, sizeof *p->labeling);
            if (!rc && !p->labeling)
                rc = CZ_ENOMEM;
            if (!rc)
                p->nlabels = L;
            for (unsigned l = 1; l <= L && !rc; l++)
                rc = fill_label(&p->labeling[l - 1], s.labels, N, l, c, par);
            if (!rc)
                rc = fill_label(&p->encoding, s.labels, N, L, c, par);
        }
    }
    free(ch);
    if (rc)
        goto fail;
    cz_sealed_free(&s);
    return CZ_OK;
oom:
    rc = CZ_ENOMEM;
fail:
    cz_sealed_free(&s);
    cz_c1_free(out);
    if (cz_ctx_code(ctx) == rc && rc != CZ_ENOMEM)
        return rc;
    return cz_fail(ctx, rc, "gen-c1: sealing failed (%s)", cz_strerror(rc));
}
