/*
 * kinds/porep/seal_sparse.c — synthetic sparse sealing (see seal_sparse.h for the
 * contract). The steps follow seal.c (RFP stacked/vanilla/proof.rs
 * replicate_phase1/2, prove_layers) restricted to the nodes a C1 opens:
 *
 *   1. tree_d = the zero tree (sparse, no leaf), comm_d, replica_id, graph;
 *   2. the challenges of every partition and their 14 parents;
 *   3. the column set S = challenges + parents (distinct, ascending) and
 *      the waves: depth(c) = 1 + max depth of its challenged DRG parents;
 *   4. chosen labels for S \ challenges (pool, by column);
 *   5. honest labels, layer by layer, wave by wave (pool inside a wave);
 *   6. tree_c over the column hashes of S, tree_r_last over their replicas,
 *      comm_r = Poseidon2(comm_c, comm_r_last);
 *   7. the C1 proofs (pool, by proof).
 */
#include "kinds/porep/seal_sparse.h"

#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "hash/poseidon.h"
#include "hash/sha254.h"
#include "kinds/porep/graph.h"
#include "kinds/porep/label.h"

typedef struct {
    const cz_porep_params_t *pp;
    const cz_porep_graph_t *g;
    uint8_t replica_id[32];
    uint64_t label_seed;
    unsigned L;
    /* the challenges of every partition, partition-major, and their parents */
    size_t nch;
    uint32_t *ch;  /* [nch] */
    uint32_t *par; /* [nch][14] */
    /* the materialized columns: distinct nodes, ascending */
    size_t ns;
    uint32_t *node;  /* [ns] */
    uint8_t *honest; /* [ns]: 1 for a challenged node */
    uint8_t *rows;   /* [ns][L][32]: labels of layers 1..L (reprs) */
    /* the distinct challenged nodes in wave order */
    size_t nu;
    uint32_t *upos;     /* [nu]: positions in node[] */
    uint32_t *uparpos;  /* [nu][14]: positions of their parents in node[] */
    size_t *wave_start; /* [nwaves + 1] */
    unsigned nwaves;
    cz_fr *leaves; /* [ns] */
    cz_sdr_tree_t td, tc, tr;
} sparse_t;

static void sparse_free(sparse_t *s)
{
    free(s->ch);
    free(s->par);
    free(s->node);
    free(s->honest);
    free(s->rows);
    free(s->upos);
    free(s->uparpos);
    free(s->wave_start);
    free(s->leaves);
    cz_sdr_tree_free(&s->td);
    cz_sdr_tree_free(&s->tc);
    cz_sdr_tree_free(&s->tr);
}

static void run_for(cz_ctx_t *ctx, size_t n, size_t grain, cz_pool_fn *fn, void *arg)
{
    cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
    if (pool)
        cz_pool_for(pool, n, grain, fn, arg);
    else if (n)
        fn(arg, 0, n, 0);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Position of |v| in the ascending s->node[] (it is there by construction). */
static uint32_t pos_of(const sparse_t *s, uint32_t v)
{
    size_t lo = 0, hi = s->ns;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->node[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint32_t)lo;
}

static uint8_t *row(const sparse_t *s, size_t pos, unsigned layer)
{
    return s->rows + (pos * s->L + (layer - 1)) * 32;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* ---- 2. challenges and parents (pool, by challenge) ----------------------------- */

static void parents_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    sparse_t *s = arg;
    for (size_t t = begin; t < end; t++)
        cz_porep_parents(s->g, s->ch[t], s->par + t * CZ_SDR_DEGREE);
}

/* ---- 3. column set and waves --------------------------------------------------- */

static int column_set(sparse_t *s)
{
    const size_t nall = s->nch * (1 + CZ_SDR_DEGREE);
    s->node = malloc(nall * sizeof *s->node);
    if (!s->node)
        return CZ_ENOMEM;
    memcpy(s->node, s->ch, s->nch * sizeof *s->node);
    memcpy(s->node + s->nch, s->par, s->nch * CZ_SDR_DEGREE * sizeof *s->node);
    qsort(s->node, nall, sizeof *s->node, cmp_u32);
    size_t n = 0;
    for (size_t i = 0; i < nall; i++)
        if (!n || s->node[i] != s->node[n - 1])
            s->node[n++] = s->node[i];
    s->ns = n;
    s->honest = calloc(n, 1);
    s->rows = malloc(n * s->L * 32);
    unsigned *depth = calloc(n, sizeof *depth);
    if (!s->honest || !s->rows || !depth) {
        free(depth);
        return CZ_ENOMEM;
    }
    for (size_t t = 0; t < s->nch; t++)
        s->honest[pos_of(s, s->ch[t])] = 1;
    s->nu = 0;
    for (size_t i = 0; i < n; i++)
        s->nu += s->honest[i];
    s->upos = malloc(s->nu * sizeof *s->upos);
    s->uparpos = malloc(s->nu * CZ_SDR_DEGREE * sizeof *s->uparpos);
    uint32_t *asc = malloc(s->nu * sizeof *asc), *ascpar = NULL;
    if (asc)
        ascpar = malloc(s->nu * CZ_SDR_DEGREE * sizeof *ascpar);
    if (!s->upos || !s->uparpos || !asc || !ascpar) {
        free(depth);
        free(asc);
        free(ascpar);
        return CZ_ENOMEM;
    }
    /* ascending node order: DRG parents are smaller than the node, so a
     * challenged DRG parent's depth is known when its child is reached */
    unsigned maxd = 0;
    size_t u = 0;
    for (size_t i = 0; i < n; i++) {
        if (!s->honest[i])
            continue;
        uint32_t par[CZ_SDR_DEGREE];
        cz_porep_parents(s->g, s->node[i], par);
        unsigned d = 0;
        for (unsigned j = 0; j < CZ_SDR_DEGREE; j++) {
            uint32_t p = pos_of(s, par[j]);
            ascpar[u * CZ_SDR_DEGREE + j] = p;
            if (j < CZ_SDR_DRG_DEGREE && s->honest[p] && p != i && depth[p] + 1 > d)
                d = depth[p] + 1;
        }
        depth[i] = d;
        maxd = d > maxd ? d : maxd;
        asc[u++] = (uint32_t)i;
    }
    /* counting sort by depth into wave order */
    s->nwaves = s->nu ? maxd + 1 : 0;
    s->wave_start = calloc(s->nwaves + 2, sizeof *s->wave_start);
    if (!s->wave_start) {
        free(depth);
        free(asc);
        free(ascpar);
        return CZ_ENOMEM;
    }
    for (size_t k = 0; k < s->nu; k++)
        s->wave_start[depth[asc[k]] + 1]++;
    for (unsigned w = 0; w < s->nwaves; w++)
        s->wave_start[w + 1] += s->wave_start[w];
    size_t *fill = calloc(s->nwaves + 1, sizeof *fill);
    if (!fill) {
        free(depth);
        free(asc);
        free(ascpar);
        return CZ_ENOMEM;
    }
    for (size_t k = 0; k < s->nu; k++) {
        unsigned d = depth[asc[k]];
        size_t at = s->wave_start[d] + fill[d]++;
        s->upos[at] = asc[k];
        memcpy(s->uparpos + at * CZ_SDR_DEGREE, ascpar + k * CZ_SDR_DEGREE,
               CZ_SDR_DEGREE * sizeof *ascpar);
    }
    free(fill);
    free(depth);
    free(asc);
    free(ascpar);
    return CZ_OK;
}

/* ---- 4. chosen labels (pool, by column) ---------------------------------------- */

static void chosen_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    sparse_t *s = arg;
    uint8_t msg[32 + 8 + 4 + 8];
    memcpy(msg, s->replica_id, 32);
    put_le(msg + 32, s->label_seed, 8);
    for (size_t i = begin; i < end; i++) {
        if (s->honest[i])
            continue;
        for (unsigned l = 1; l <= s->L; l++) {
            put_le(msg + 40, l, 4);
            put_le(msg + 44, s->node[i], 8);
            cz_sha254(row(s, i, l), msg, sizeof msg);
        }
    }
}

/* ---- 5. honest labels (pool, within one wave of one layer) --------------------- */

typedef struct {
    sparse_t *s;
    unsigned layer;
    size_t first; /* wave_start of the wave */
} wave_job_t;

static void honest_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    const wave_job_t *j = arg;
    const sparse_t *s = j->s;
    const unsigned layer = j->layer;
    /* cz_sdr_label_parents reads cur[parents[k]] (DRG) and prev[parents[k]]
     * (expander): gather the 14 parent labels at local indices 0..13 */
    static const uint32_t local[CZ_SDR_DEGREE] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 };
    uint8_t cur[CZ_SDR_DEGREE * 32], prev[CZ_SDR_DEGREE * 32];
    uint8_t parents37[CZ_SDR_TOTAL_PARENTS * 32];
    memset(prev, 0, sizeof prev);
    for (size_t k = j->first + begin; k < j->first + end; k++) {
        const uint32_t *pp = s->uparpos + k * CZ_SDR_DEGREE;
        for (unsigned q = 0; q < CZ_SDR_DRG_DEGREE; q++)
            memcpy(cur + 32 * q, row(s, pp[q], layer), 32);
        for (unsigned q = CZ_SDR_DRG_DEGREE; layer > 1 && q < CZ_SDR_DEGREE; q++)
            memcpy(prev + 32 * q, row(s, pp[q], layer - 1), 32);
        cz_sdr_label_parents(parents37, layer, local, cur, prev);
        cz_sdr_label(row(s, s->upos[k], layer), s->replica_id, layer, s->node[s->upos[k]],
                     parents37);
    }
}

/* ---- 7. the C1 proofs (pool, by proof) ----------------------------------------- */

typedef struct {
    const sparse_t *s;
    cz_c1_t *c1;
    int kind;
    unsigned nbase;
    int *rc; /* [nch] */
} fill_job_t;

static int fill_column(cz_c1_column_t *col, const fill_job_t *j, uint32_t v)
{
    const sparse_t *s = j->s;
    const uint32_t p = pos_of(s, v);
    col->index = v;
    col->nrows = s->L;
    col->rows = malloc(s->L * sizeof *col->rows);
    if (!col->rows)
        return CZ_ENOMEM;
    memcpy(col->rows, row(s, p, 1), (size_t)s->L * 32);
    return cz_seal_fill_merkle(&col->proof, &s->tc, v, j->kind, j->nbase);
}

/* The labeling proof of node |c| at |layer|: the parents' labels read from
 * the columns, cycled to 37 (seal.c fill_label, params.rs from_parts). */
static int fill_label(cz_c1_label_t *lp, const sparse_t *s, unsigned layer, uint32_t c,
                      const uint32_t par[14])
{
    static const uint32_t local[CZ_SDR_DEGREE] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 };
    uint8_t cur[CZ_SDR_DEGREE * 32], prev[CZ_SDR_DEGREE * 32];
    memset(prev, 0, sizeof prev);
    for (unsigned q = 0; q < CZ_SDR_DEGREE; q++) {
        const uint32_t p = pos_of(s, par[q]);
        memcpy(cur + 32 * q, row(s, p, layer), 32);
        if (layer > 1)
            memcpy(prev + 32 * q, row(s, p, layer - 1), 32);
    }
    lp->nparents = CZ_SDR_TOTAL_PARENTS;
    lp->parents = malloc(CZ_SDR_TOTAL_PARENTS * sizeof *lp->parents);
    if (!lp->parents)
        return CZ_ENOMEM;
    cz_sdr_label_parents(&lp->parents[0][0], layer, local, cur, prev);
    lp->layer_index = layer;
    lp->node = c;
    return CZ_OK;
}

static int fill_proof(const fill_job_t *j, size_t t)
{
    const sparse_t *s = j->s;
    cz_c1_proof_t *p = &j->c1->proofs[t];
    const uint32_t c = s->ch[t];
    const uint32_t *par = s->par + t * CZ_SDR_DEGREE;
    int rc = cz_seal_fill_merkle(&p->comm_d, &s->td, c, CZ_C1_SINGLE, s->td.nlevels);
    if (!rc)
        rc = cz_seal_fill_merkle(&p->comm_r_last, &s->tr, c, j->kind, j->nbase);
    if (!rc)
        rc = fill_column(&p->c_x, j, c);
    for (unsigned q = 0; q < CZ_SDR_DRG_DEGREE && !rc; q++)
        rc = fill_column(&p->drg[q], j, par[q]);
    for (unsigned q = 0; q < CZ_SDR_EXP_DEGREE && !rc; q++)
        rc = fill_column(&p->exp[q], j, par[CZ_SDR_DRG_DEGREE + q]);
    if (rc)
        return rc;
    p->labeling = calloc(s->L, sizeof *p->labeling);
    if (!p->labeling)
        return CZ_ENOMEM;
    p->nlabels = s->L;
    for (unsigned l = 1; l <= s->L && !rc; l++)
        rc = fill_label(&p->labeling[l - 1], s, l, c, par);
    if (!rc)
        rc = fill_label(&p->encoding, s, s->L, c, par);
    return rc;
}

static void fill_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    const fill_job_t *j = arg;
    for (size_t t = begin; t < end; t++)
        j->rc[t] = fill_proof(j, t);
}

/* ---- the whole ----------------------------------------------------------------- */

/* SHA254(replica_id || seed LE8 || "leaf" || which) as an Fr (< 2^254). */
static void default_leaf(cz_fr *out, const sparse_t *s, char which)
{
    uint8_t msg[32 + 8 + 5], h[32];
    memcpy(msg, s->replica_id, 32);
    put_le(msg + 32, s->label_seed, 8);
    memcpy(msg + 40, "leaf", 4);
    msg[44] = (uint8_t)which;
    cz_sha254(h, msg, sizeof msg);
    cz_fr_from_repr(out, h);
}

/* Step 6: tree_c, tree_r_last and comm_r from the labels of S. */
static int build_trees(cz_ctx_t *ctx, sparse_t *s, uint8_t comm_r[32])
{
    const cz_porep_params_t *pp = s->pp;
    const size_t ns = s->ns;
    const unsigned L = s->L;
    uint64_t *idx = malloc(ns * sizeof *idx);
    cz_fr *cols = malloc(ns * L * sizeof *cols);
    s->leaves = malloc(ns * sizeof *s->leaves);
    const cz_poseidon_constants *ccol = cz_poseidon_constants_get(L);
    int rc = CZ_ENOMEM;
    if (!idx || !cols || !s->leaves)
        goto done;
    if (!ccol) {
        rc = cz_fail(ctx, CZ_EINVAL, "sparse seal: no column hash for %u layers", L);
        goto done;
    }
    for (size_t i = 0; i < ns; i++) {
        idx[i] = s->node[i];
        for (unsigned l = 1; l <= L; l++)
            cz_fr_from_repr(&cols[i * L + l - 1], row(s, i, l));
    }
    /* the leaves of unmaterialized nodes: one pseudo-random Fr per tree
     * (not zero, so the C2 witness has the zero/one statistics of a real
     * sector's random-looking siblings) */
    cz_fr fill_c, fill_r;
    default_leaf(&fill_c, s, 'c');
    default_leaf(&fill_r, s, 'r');
    /* tree_c: column hashes */
    if ((rc = cz_poseidon_hash_many(ctx, ccol, s->leaves, cols, ns)) ||
        (rc = cz_sdr_tree_shape(&s->tc, CZ_POR_POSEIDON, pp->nodes, pp->base_arity, pp->sub_arity,
                                pp->top_arity)) ||
        (rc = cz_sdr_tree_build_sparse(ctx, &s->tc, idx, s->leaves, ns, &fill_c)))
        goto done;
    /* tree_r_last: replica = key (last-layer label) + data (zero) */
    for (size_t i = 0; i < ns; i++)
        cz_fr_from_repr(&s->leaves[i], row(s, i, L));
    if ((rc = cz_sdr_tree_shape(&s->tr, CZ_POR_POSEIDON, pp->nodes, pp->base_arity, pp->sub_arity,
                                pp->top_arity)) ||
        (rc = cz_sdr_tree_build_sparse(ctx, &s->tr, idx, s->leaves, ns, &fill_r)))
        goto done;
    uint8_t comm_c[32], comm_r_last[32];
    cz_sdr_tree_root(&s->tc, comm_c);
    cz_sdr_tree_root(&s->tr, comm_r_last);
    cz_fr pair[2], r;
    cz_fr_from_repr(&pair[0], comm_c);
    cz_fr_from_repr(&pair[1], comm_r_last);
    cz_poseidon_hash(cz_poseidon_constants_get(2), &r, pair);
    cz_fr_to_repr(comm_r, &r);
done:
    free(idx);
    free(cols);
    return rc;
}

int cz_seal_sparse_gen_c1(cz_ctx_t *ctx, const cz_seal_args_t *a, cz_c1_t *out,
                          cz_seal_sparse_stats_t *stats)
{
    memset(out, 0, sizeof *out);
    if (stats)
        memset(stats, 0, sizeof *stats);
    cz_porep_params_t pp;
    const cz_porep_proof_t *pf = !a         ? NULL
                                 : a->proof ? a->proof
                                            : cz_porep_proof_v1_1(a->sector_bytes);
    if (pf && (!pf->v1_1 || pf->sector_bytes != a->sector_bytes))
        return cz_fail(ctx, CZ_EINVAL, "sparse seal: %s is not a V1_1-graph proof of %llu bytes",
                       pf->name, (unsigned long long)a->sector_bytes);
    if (pf && pf->challenges != CZ_POREP_INTERACTIVE)
        return cz_fail(ctx, CZ_EINVAL,
                       "sparse seal: %s challenges depend on comm_r, which the "
                       "sparse sealer computes after choosing what to materialize (interactive "
                       "proofs only; dense sealing takes any)",
                       pf->name);
    if (!pf || cz_porep_proof_params(&pp, pf))
        return cz_fail(ctx, CZ_EINVAL, "sparse seal: unsupported sector size %llu bytes",
                       a ? (unsigned long long)a->sector_bytes : 0ull);
    if (a->data)
        return cz_fail(ctx, CZ_EINVAL,
                       "sparse seal: the data of a sparse sector is all "
                       "zero (data must be NULL)");
    sparse_t s;
    memset(&s, 0, sizeof s);
    s.pp = &pp;
    s.L = pp.layers;
    s.label_seed = a->random_seed;
    int rc;

    /* 1. tree_d of zero data, comm_d, replica_id, graph */
    uint8_t porep_id[32], comm_d[32], comm_r[32];
    static const uint8_t zero[32];
    static const uint64_t no_leaf[1];
    cz_porep_id(porep_id, pf);
    if ((rc = cz_sdr_tree_shape(&s.td, CZ_POR_SHA254, pp.nodes, 2, 0, 0)) ||
        (rc = cz_sdr_tree_build_sparse(ctx, &s.td, no_leaf, zero, 0, zero)))
        goto fail;
    cz_sdr_tree_root(&s.td, comm_d);
    cz_porep_replica_id(s.replica_id, a->prover_id, a->sector_id, a->ticket, comm_d, porep_id);
    cz_porep_graph_t g;
    if ((rc = cz_porep_graph_init(&g, pp.nodes, porep_id)))
        goto fail;
    s.g = &g;

    /* 2. challenges and parents */
    s.nch = (size_t)pp.partitions * pp.challenges;
    s.ch = malloc(s.nch * sizeof *s.ch);
    s.par = malloc(s.nch * CZ_SDR_DEGREE * sizeof *s.par);
    uint64_t *ch64 = malloc(pp.challenges * sizeof *ch64);
    if (!s.ch || !s.par || !ch64) {
        free(ch64);
        goto oom;
    }
    for (unsigned k = 0; k < pp.partitions && !rc; k++) {
        rc = cz_porep_challenges(ch64, pp.challenges, pp.nodes, s.replica_id, a->seed, k);
        for (unsigned i = 0; i < pp.challenges && !rc; i++)
            s.ch[(size_t)k * pp.challenges + i] = (uint32_t)ch64[i];
    }
    free(ch64);
    if (rc)
        goto fail;
    run_for(ctx, s.nch, 8, parents_chunk, &s);

    /* 3-5. columns and labels */
    if ((rc = column_set(&s)))
        goto fail;
    run_for(ctx, s.ns, 64, chosen_chunk, &s);
    for (unsigned l = 1; l <= s.L; l++) {
        for (unsigned w = 0; w < s.nwaves; w++) {
            wave_job_t j = { &s, l, s.wave_start[w] };
            run_for(ctx, s.wave_start[w + 1] - s.wave_start[w], 4, honest_chunk, &j);
        }
    }

    /* 6. trees and comm_r */
    if ((rc = build_trees(ctx, &s, comm_r)))
        goto fail;

    /* 7. the C1 */
    out->proof = pf;
    out->params = pp;
    memcpy(out->comm_r, comm_r, 32);
    memcpy(out->comm_d, comm_d, 32);
    memcpy(out->replica_id, s.replica_id, 32);
    memcpy(out->seed, a->seed, 32);
    memcpy(out->ticket, a->ticket, 32);
    if ((rc = cz_c1_alloc_proofs(out, pp.partitions, pp.challenges)))
        goto fail;
    fill_job_t fj = { &s, out,
                      pp.top_arity   ? CZ_C1_TOP
                      : pp.sub_arity ? CZ_C1_SUB
                                     : CZ_C1_SINGLE,
                      s.tc.nlevels - (pp.sub_arity ? 1 : 0) - (pp.top_arity ? 1 : 0), NULL };
    fj.rc = calloc(s.nch, sizeof *fj.rc);
    if (!fj.rc)
        goto oom;
    run_for(ctx, s.nch, 1, fill_chunk, &fj);
    for (size_t t = 0; t < s.nch && !rc; t++)
        rc = fj.rc[t];
    free(fj.rc);
    if (rc)
        goto fail;
    if (stats) {
        stats->challenges = s.nu;
        stats->columns = s.ns;
        stats->honest_labels = s.nu * s.L;
        stats->chosen_labels = (s.ns - s.nu) * s.L;
        stats->waves = s.nwaves;
    }
    sparse_free(&s);
    return CZ_OK;
oom:
    rc = CZ_ENOMEM;
fail:
    sparse_free(&s);
    cz_c1_free(out);
    if (cz_ctx_code(ctx) == rc && rc != CZ_ENOMEM)
        return rc;
    return cz_fail(ctx, rc, "sparse seal: %s sector failed (%s)", pf->name, cz_strerror(rc));
}
