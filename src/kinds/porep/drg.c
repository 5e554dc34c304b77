/*
 * kinds/porep/drg.c — BucketGraph DRG parents (RFP storage-proofs-core/src/
 * drgraph.rs, BucketGraph::parents, legacy and V1_1_0 orders) and the graph
 * seeds (crypto/mod.rs derive_porep_domain_seed, drgraph.rs derive_drg_seed,
 * stacked/vanilla/graph.rs derive_feistel_keys).
 */
#include "kinds/porep/graph.h"

#include <string.h>

#include "hash/sha254.h"
#include "kinds/porep/chacha8.h"

void cz_porep_domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32])
{
    cz_sha256_ctx s;
    cz_sha256_init(&s);
    cz_sha256_update(&s, tag, strlen(tag));
    cz_sha256_update(&s, porep_id, 32);
    cz_sha256_final(&s, out);
}

int cz_porep_id_is_legacy(const uint8_t porep_id[32])
{
    uint64_t id = 0;
    for (int i = 7; i >= 0; i--)
        id = id << 8 | porep_id[i];
    return id <= 4; /* MAX_LEGACY_POREP_REGISTERED_PROOF_ID (storage-proofs-core lib.rs) */
}

int cz_porep_graph_init(cz_porep_graph_t *g, uint64_t nodes, const uint8_t porep_id[32])
{
    uint8_t seed[32];
    memset(g, 0, sizeof *g);
    if (nodes <= 2 || nodes > (1ull << 32))
        return CZ_EINVAL;
    g->nodes = nodes;
    g->legacy = cz_porep_id_is_legacy(porep_id);
    /* DRSAMPLE_DST = "Filecoin_DRSample" (crypto/mod.rs); first 28 bytes */
    cz_porep_domain_seed(seed, "Filecoin_DRSample", porep_id);
    memcpy(g->drg_seed, seed, 28);
    /* FEISTEL_DST = "Filecoin_Feistel"; keys = four LE u64 (graph.rs) */
    cz_porep_domain_seed(seed, "Filecoin_Feistel", porep_id);
    for (int k = 0; k < 4; k++) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--)
            v = v << 8 | seed[8 * k + i];
        g->feistel_keys[k] = v;
    }
    cz_feistel_precompute(nodes * CZ_SDR_EXP_DEGREE, &g->f_left_mask, &g->f_right_mask,
                          &g->f_half_bits);
    return CZ_OK;
}

/* ceil(log2(x)) for x >= 2. RFP computes (x as f64).log2().ceil(); for the
 * metagraph sizes allowed (x <= 2^54, asserted in BucketGraph::new) the f64
 * logarithm of a non-power of two is never within rounding of an integer,
 * so the integer form gives the same bucket count. */
static uint64_t ceil_log2(uint64_t x)
{
    return 64 - (uint64_t)__builtin_clzll(x - 1);
}

void cz_porep_drg_parents(const cz_porep_graph_t *g, uint32_t node, uint32_t out[6])
{
    const uint64_t m_prime = CZ_SDR_DRG_DEGREE - 1;
    if (node < 2) {
        /* nodes 0 and 1: every parent is node 0 */
        for (unsigned i = 0; i < CZ_SDR_DRG_DEGREE; i++)
            out[i] = 0;
        return;
    }
    uint8_t seed[32];
    memcpy(seed, g->drg_seed, 28);
    seed[28] = (uint8_t)node; /* node.to_le_bytes() */
    seed[29] = (uint8_t)(node >> 8);
    seed[30] = (uint8_t)(node >> 16);
    seed[31] = (uint8_t)(node >> 24);
    cz_chacha8_rng rng;
    cz_chacha8_seed(&rng, seed);

    uint64_t metagraph_node = (uint64_t)node * m_prime;
    uint64_t n_buckets = ceil_log2(metagraph_node);
    /* V1_1_0: the immediate predecessor is parents[0], the sampled ones
     * fill parents[1..6); legacy: sampled in [0..5), predecessor at [5]
     * (drgraph.rs: predecessor_index = m_prime if is_legacy else 0) */
    const unsigned first = g->legacy ? 0 : 1;
    for (unsigned i = first; i < first + m_prime; i++) {
        uint64_t bucket_index = cz_chacha8_next_u64(&rng) % n_buckets + 1;
        uint64_t largest = 1ull << bucket_index;
        if (largest > metagraph_node)
            largest = metagraph_node;
        uint64_t smallest = largest >> 1;
        if (smallest < 2)
            smallest = 2;
        uint64_t n_distances = largest - smallest + 1; /* inclusive */
        uint64_t distance = smallest + cz_chacha8_next_u64(&rng) % n_distances;
        uint64_t metagraph_parent = metagraph_node - distance;
        uint32_t mapped = (uint32_t)(metagraph_parent / m_prime);
        out[i] = mapped == node ? node - 1 : mapped;
    }
    out[g->legacy ? m_prime : 0] = node - 1;
}
