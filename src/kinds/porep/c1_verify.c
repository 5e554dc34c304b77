/*
 * kinds/porep/c1_verify.c — native verification of a whole C1, the checks of
 * RFP stacked/vanilla/params.rs Proof::verify and the circuit's relations:
 * the challenges re-derived from replica_id and seed (challenges.rs), the
 * columns opened at the graph's parents (ReplicaColumnProof::verify), the
 * labeling proofs' layer/node and parent labels agreeing with the columns
 * (from_parts), then the circuit input check (paths, comm_r, labels,
 * encoding; circuits/porep cz_porep_input_check).
 */
#include "kinds/porep/c1.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/porep/graph.h"
#include "kinds/porep/label.h"

int cz_c1_verify(cz_ctx_t *ctx, const cz_c1_t *c)
{
    if (!c || !c->proofs)
        return cz_fail(ctx, CZ_EINVAL, "c1 verify: empty C1");
    const cz_porep_params_t *pp = &c->params;
    uint8_t porep_id[32];
    cz_porep_id(porep_id, c->proof);
    cz_porep_graph_t g;
    if (cz_porep_graph_init(&g, pp->nodes, porep_id))
        return cz_fail(ctx, CZ_EINVAL, "c1 verify: bad graph size");
    uint64_t *ch = malloc(pp->challenges * sizeof *ch);
    /* the 14 parents' labels at local indices 0..13 (a 32GiB sector's
     * node-indexed layer would be 32 GiB): cur holds this layer's labels
     * for the DRG parents, prev the previous layer's for the expander ones */
    static const uint32_t local[CZ_SDR_DEGREE] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 };
    uint8_t cur[CZ_SDR_DEGREE * 32], prev[CZ_SDR_DEGREE * 32];
    int rc = CZ_OK;
    if (!ch) {
        rc = cz_fail(ctx, CZ_ENOMEM, "c1 verify: out of memory");
        goto done;
    }
    for (unsigned k = 0; k < c->npartitions && !rc; k++) {
        cz_porep_proof_challenges(ch, pp->challenges, pp->nodes, c->proof, c->replica_id, c->comm_r,
                                  c->seed, k);
        for (unsigned i = 0; i < pp->challenges && !rc; i++) {
            const cz_c1_proof_t *p = &c->proofs[k * c->nchallenges + i];
            uint32_t par[CZ_SDR_DEGREE];
            cz_porep_parents(&g, (uint32_t)ch[i], par);
            if (p->c_x.index != ch[i]) {
                rc = cz_fail(ctx, CZ_EVERIFY,
                             "c1 verify: partition %u challenge %u: column "
                             "index %u is not the derived challenge %llu",
                             k, i, p->c_x.index, (unsigned long long)ch[i]);
                break;
            }
            for (unsigned j = 0; j < CZ_SDR_DEGREE && !rc; j++) {
                const cz_c1_column_t *col = j < 6 ? &p->drg[j] : &p->exp[j - 6];
                if (col->index != par[j])
                    rc = cz_fail(ctx, CZ_EVERIFY,
                                 "c1 verify: partition %u challenge %u: "
                                 "%s parent %u opens node %u, the graph says %u",
                                 k, i, j < 6 ? "DRG" : "expander", j < 6 ? j : j - 6, col->index,
                                 par[j]);
            }
            /* the labeling proofs' parents must be the columns' labels (the
             * parent labels, placed at the parent indices, cycled to 37) */
            for (unsigned l = 1; l <= pp->layers && !rc; l++) {
                const cz_c1_label_t *lp = &p->labeling[l - 1];
                if (lp->layer_index != l || lp->node != ch[i]) {
                    rc = cz_fail(ctx, CZ_EVERIFY,
                                 "c1 verify: partition %u challenge %u: "
                                 "labeling proof %u is for layer %u node %llu",
                                 k, i, l - 1, lp->layer_index, (unsigned long long)lp->node);
                    break;
                }
                for (unsigned j = 0; j < CZ_SDR_DEGREE; j++) {
                    const cz_c1_column_t *col = j < 6 ? &p->drg[j] : &p->exp[j - 6];
                    memcpy(cur + 32 * j, col->rows[l - 1], 32);
                    if (l > 1)
                        memcpy(prev + 32 * j, col->rows[l - 2], 32);
                }
                uint8_t want[CZ_SDR_TOTAL_PARENTS * 32];
                cz_sdr_label_parents(want, l, local, cur, prev);
                if (memcmp(want, lp->parents, sizeof want))
                    rc = cz_fail(ctx, CZ_EVERIFY,
                                 "c1 verify: partition %u challenge %u: "
                                 "labeling proof of layer %u has parents that are not the "
                                 "opened columns' labels",
                                 k, i, l);
            }
        }
        if (rc)
            break;
        cz_porep_input_t in;
        if ((rc = cz_c1_to_circuit(ctx, c, k, &in)))
            break;
        rc = cz_porep_input_check(ctx, &in);
        cz_porep_input_free(&in);
        if (rc) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
            rc = cz_fail(ctx, CZ_EVERIFY, "c1 verify: partition %u: %s", k, msg);
        }
    }
done:
    free(ch);
    return rc;
}
