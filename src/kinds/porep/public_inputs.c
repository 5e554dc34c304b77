/*
 * kinds/porep/public_inputs.c — a partition's public inputs from public values
 * only (RFP storage-proofs-porep/src/stacked/circuit/proof.rs
 * StackedCompound::generate_public_inputs; storage-proofs-core
 * compound_proof / por.rs: a private-root PoR contributes its leaf index
 * bits multipacked, i.e. one Fr equal to the index for any Filecoin size).
 *
 * Order: replica_id, comm_d, comm_r, then per challenge c: c (tree_d path),
 * the 6 DRG parents of c, the 8 expander parents of c (tree_c paths), c
 * (the challenge as u64), c (tree_r_last path), c (tree_c path of c).
 */
#include "kinds/porep/porep.h"

#include <stdlib.h>

#include "kinds/porep/graph.h"

int cz_porep_public_inputs_at(cz_ctx_t *ctx, cz_fr *out, size_t n_out, const cz_porep_params_t *p,
                              const uint8_t porep_id[32], const uint8_t replica_id[32],
                              const uint8_t comm_d[32], const uint8_t comm_r[32],
                              const uint64_t *challenges)
{
    size_t need = cz_porep_num_inputs(p) - 1;
    if (n_out < need)
        return cz_fail(ctx, CZ_EINVAL, "public inputs: %zu slots < %zu", n_out, need);
    cz_porep_graph_t g;
    if (cz_porep_graph_init(&g, p->nodes, porep_id))
        return cz_fail(ctx, CZ_EINVAL, "public inputs: bad node count %llu",
                       (unsigned long long)p->nodes);
    size_t o = 0;
    if (cz_fr_from_repr(&out[o++], replica_id))
        return cz_fail(ctx, CZ_ERANGE, "public inputs: replica_id is not a field element");
    if (cz_fr_from_repr(&out[o++], comm_d))
        return cz_fail(ctx, CZ_ERANGE, "public inputs: comm_d is not a field element");
    if (cz_fr_from_repr(&out[o++], comm_r))
        return cz_fail(ctx, CZ_ERANGE, "public inputs: comm_r is not a field element");
    for (unsigned i = 0; i < p->challenges; i++) {
        const uint64_t c = challenges[i];
        if (c == 0 || c >= p->nodes)
            return cz_fail(ctx, CZ_EINVAL, "public inputs: challenge %u is node %llu of %llu", i,
                           (unsigned long long)c, (unsigned long long)p->nodes);
        uint32_t par[CZ_SDR_DEGREE];
        cz_porep_parents(&g, (uint32_t)c, par);
        cz_fr_from_u64(&out[o++], c); /* tree_d path */
        for (unsigned j = 0; j < CZ_SDR_DEGREE; j++)
            cz_fr_from_u64(&out[o++], par[j]); /* tree_c paths of parents */
        cz_fr_from_u64(&out[o++], c);          /* challenge (u64) */
        cz_fr_from_u64(&out[o++], c);          /* tree_r_last path */
        cz_fr_from_u64(&out[o++], c);          /* tree_c path */
    }
    return CZ_OK;
}

int cz_porep_public_inputs_proof(cz_ctx_t *ctx, cz_fr *out, size_t n_out,
                                 const cz_porep_params_t *p, const cz_porep_proof_t *proof,
                                 const uint8_t replica_id[32], const uint8_t comm_d[32],
                                 const uint8_t comm_r[32], const uint8_t seed[32], unsigned k)
{
    if (k >= p->partitions)
        return cz_fail(ctx, CZ_EINVAL, "public inputs: partition %u >= %u", k, p->partitions);
    uint64_t *ch = malloc(p->challenges * sizeof *ch);
    if (!ch)
        return cz_fail(ctx, CZ_ENOMEM, "public inputs: challenges");
    uint8_t porep_id[32];
    cz_porep_id(porep_id, proof);
    int rc = cz_porep_proof_challenges(ch, p->challenges, p->nodes, proof, replica_id, comm_r, seed,
                                       k);
    if (rc)
        rc = cz_fail(ctx, rc, "public inputs: bad node count %llu", (unsigned long long)p->nodes);
    else
        rc = cz_porep_public_inputs_at(ctx, out, n_out, p, porep_id, replica_id, comm_d, comm_r,
                                       ch);
    free(ch);
    return rc;
}

int cz_porep_public_inputs_from(cz_ctx_t *ctx, cz_fr *out, size_t n_out, const cz_porep_params_t *p,
                                const uint8_t porep_id[32], const uint8_t replica_id[32],
                                const uint8_t comm_d[32], const uint8_t comm_r[32],
                                const uint8_t seed[32], unsigned k)
{
    if (k >= p->partitions)
        return cz_fail(ctx, CZ_EINVAL, "public inputs: partition %u >= %u", k, p->partitions);
    uint64_t *ch = malloc(p->challenges * sizeof *ch);
    if (!ch)
        return cz_fail(ctx, CZ_ENOMEM, "public inputs: challenges");
    int rc = cz_porep_challenges(ch, p->challenges, p->nodes, replica_id, seed, k);
    if (rc)
        rc = cz_fail(ctx, rc, "public inputs: bad node count %llu", (unsigned long long)p->nodes);
    else
        rc = cz_porep_public_inputs_at(ctx, out, n_out, p, porep_id, replica_id, comm_d, comm_r,
                                       ch);
    free(ch);
    return rc;
}
