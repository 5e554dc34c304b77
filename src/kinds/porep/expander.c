/*
 * kinds/porep/expander.c — expander parents and the full 14-parent list (RFP
 * storage-proofs-porep/src/stacked/vanilla/graph.rs: correspondent,
 * generate_expanded_parents, Graph::parents) and the in-memory parent cache
 * (cache.rs layout), computed on the pool.
 */
#include "kinds/porep/graph.h"

#include <stdlib.h>

#include "core/pool.h"

void cz_porep_exp_parents(const cz_porep_graph_t *g, uint32_t node, uint32_t out[8])
{
    uint64_t n = g->nodes * CZ_SDR_EXP_DEGREE;
    for (unsigned i = 0; i < CZ_SDR_EXP_DEGREE; i++) {
        uint64_t a = (uint64_t)node * CZ_SDR_EXP_DEGREE + i;
        uint64_t t = cz_feistel_permute(n, a, g->feistel_keys, g->f_left_mask, g->f_right_mask,
                                        g->f_half_bits);
        /* the row of the matrix search space = the parent node; V1_0_0
         * computed it as `transformed as u32 / 8` (graph.rs correspondent) */
        out[i] = g->legacy ? (uint32_t)t / CZ_SDR_EXP_DEGREE : (uint32_t)(t / CZ_SDR_EXP_DEGREE);
    }
}

void cz_porep_parents(const cz_porep_graph_t *g, uint32_t node, uint32_t out[14])
{
    cz_porep_drg_parents(g, node, out);
    cz_porep_exp_parents(g, node, out + CZ_SDR_DRG_DEGREE);
}

struct cache_job {
    const cz_porep_graph_t *g;
    uint32_t *out;
};

static void cache_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    struct cache_job *j = arg;
    for (size_t v = begin; v < end; v++)
        cz_porep_parents(j->g, (uint32_t)v, j->out + v * CZ_SDR_DEGREE);
}

int cz_porep_parent_cache(cz_ctx_t *ctx, const cz_porep_graph_t *g, uint32_t **out)
{
    *out = NULL;
    if (!g || g->nodes == 0)
        return cz_fail(ctx, CZ_EINVAL, "parent cache: empty graph");
    uint32_t *p = malloc((size_t)g->nodes * CZ_SDR_DEGREE * sizeof *p);
    if (!p)
        return cz_fail(ctx, CZ_ENOMEM, "parent cache: %llu nodes", (unsigned long long)g->nodes);
    struct cache_job j = { g, p };
    cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
    if (pool)
        cz_pool_for(pool, (size_t)g->nodes, 1024, cache_chunk, &j);
    else
        cache_chunk(&j, 0, (size_t)g->nodes, 0);
    *out = p;
    return CZ_OK;
}
