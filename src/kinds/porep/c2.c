/*
 * kinds/porep/c2.c — PoRep C2 as an engine job, verification from public values
 * and the Filecoin parameter file names (see kinds/porep/c2.h).
 */
#include "kinds/porep/c2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs/emit.h"
#include "hash/sha254.h"
#include "groth16/proof.h"
#include "groth16/prover.h"

/* Public inputs per challenge after the three leading values (FACTS 3):
 * tree_d path, 6 DRG + 8 expander parent paths, challenge, tree_r_last
 * path, tree_c path. */
#define PER_CHALLENGE (1u + CZ_POREP_DRG_DEGREE + CZ_POREP_EXP_DEGREE + 3u)

static bool zero32(const uint8_t b[32])
{
    uint8_t acc = 0;
    for (int i = 0; i < 32; i++)
        acc |= b[i];
    return acc == 0;
}

void cz_c2_public_from_c1(cz_c2_public_t *out, const cz_c1_t *c1)
{
    out->proof = c1->proof;
    memcpy(out->replica_id, c1->replica_id, 32);
    memcpy(out->comm_d, c1->comm_d, 32);
    memcpy(out->comm_r, c1->comm_r, 32);
    memcpy(out->seed, c1->seed, 32);
}

int cz_c2_shape(cz_ctx_t *ctx, const cz_porep_params_t *p, cz_params_shape_t *shape, size_t *rows)
{
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, ctx, CZ_CS_SHAPE);
    if (rc)
        return rc;
    rc = cz_porep_circuit(cs, p, NULL);
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs);
    if (rc == CZ_OK)
        cz_g16_shape_of_cs(cs, shape, rows);
    cz_cs_free(cs);
    return rc;
}

static int check_public(cz_ctx_t *ctx, const cz_c2_public_t *pub)
{
    if (!pub->proof)
        return cz_fail(ctx, CZ_EINVAL, "c2: no registered proof");
    if (zero32(pub->comm_d))
        return cz_fail(ctx, CZ_EINVAL, "c2: comm_d is zero (invalid sealed sector)");
    if (zero32(pub->comm_r))
        return cz_fail(ctx, CZ_EINVAL, "c2: comm_r is zero (invalid sealed sector)");
    /* NI-PoRep has no interactive randomness (challenges_synth.c) */
    if (zero32(pub->seed) && pub->proof->challenges != CZ_POREP_NON_INTERACTIVE)
        return cz_fail(ctx, CZ_EINVAL, "c2: seed is zero (invalid interactive randomness)");
    return CZ_OK;
}

int cz_c2_public_inputs(cz_ctx_t *ctx, cz_fr *out, size_t n_out, const cz_porep_params_t *p,
                        const cz_c2_public_t *pub)
{
    int rc = check_public(ctx, pub);
    if (rc)
        return rc;
    cz_porep_params_t own;
    if (!p) {
        if (cz_porep_proof_params(&own, pub->proof))
            return cz_fail(ctx, CZ_EINVAL, "c2: no production params for %s", pub->proof->name);
        p = &own;
    }
    size_t per = cz_porep_num_inputs(p) - 1;
    if (n_out < per * p->partitions)
        return cz_fail(ctx, CZ_EINVAL, "c2: %zu input slots < %u partitions x %zu", n_out,
                       p->partitions, per);
    for (unsigned k = 0; rc == CZ_OK && k < p->partitions; k++)
        rc = cz_porep_public_inputs_proof(ctx, out + (size_t)k * per, per, p, pub->proof,
                                          pub->replica_id, pub->comm_d, pub->comm_r, pub->seed, k);
    return rc;
}

/* ---- shapes by configuration (kinds/shapes.h) ---------------------------------- */

/* The key: what the partition circuit depends on (cz_porep_params_same_circuit:
 * partitions and sector_bytes excluded). uint64_t fields only: no padding. */
typedef struct {
    uint64_t nodes, layers, challenges, base_arity, sub_arity, top_arity;
} shape_key_t;

typedef struct {
    cz_params_shape_t shape;
    size_t rows;
    cz_porep_plan_t plan;
} shape_value_t;

/* The shape, rows and plan of the params |arg| points to. */
static int compute_shape(const void *arg, cz_ctx_t *ctx, void *value)
{
    const cz_porep_params_t *p = arg;
    shape_value_t *v = value;
    int rc = cz_c2_shape(ctx, p, &v->shape, &v->rows);
    if (rc == CZ_OK && (rc = cz_porep_plan(&v->plan, p)))
        rc = cz_fail(ctx, rc, "c2: planning the partition's challenges");
    return rc;
}

static const cz_shape_cache_spec_t c2_shapes = { "porep-c2", sizeof(shape_key_t),
                                                 sizeof(shape_value_t), 4, compute_shape };

int cz_c2_shapes_new(cz_shape_cache_t **out)
{
    return cz_shape_cache_new(out, &c2_shapes);
}

/* The shape, rows and plan of |p|: from the cache (may be NULL), or computed (and kept). */
static int shape_and_plan(cz_ctx_t *ctx, cz_shape_cache_t *c, const cz_porep_params_t *p,
                          cz_c2_job_t *job)
{
    const shape_key_t key = { p->nodes,      p->layers,    p->challenges,
                              p->base_arity, p->sub_arity, p->top_arity };
    shape_value_t v;
    int rc = cz_shape_cache_get(c, &c2_shapes, ctx, &key, &v, p);
    if (rc == CZ_OK) {
        job->shape = v.shape;
        job->rows = v.rows;
        job->plan = v.plan;
    }
    return rc;
}

int cz_c2_job_init(cz_ctx_t *ctx, cz_c2_job_t *job, const cz_c1_t *c1, const cz_params_t *params,
                   const cz_pvk_t *pvk)
{
    return cz_c2_job_init_cached(ctx, job, c1, params, pvk, NULL);
}

int cz_c2_job_init_cached(cz_ctx_t *ctx, cz_c2_job_t *job, const cz_c1_t *c1,
                          const cz_params_t *params, const cz_pvk_t *pvk, cz_shape_cache_t *cache)
{
    memset(job, 0, sizeof *job);
    cz_c2_public_t pub;
    cz_c2_public_from_c1(&pub, c1);
    job->c1 = c1;
    job->params = c1->params;
    job->n_inputs = cz_porep_num_inputs(&job->params) - 1;
    size_t n = job->n_inputs * c1->npartitions;
    int rc = c1->npartitions == job->params.partitions
                 ? CZ_OK
                 : cz_fail(ctx, CZ_EINVAL, "c2: C1 has %u partitions, %s wants %u", c1->npartitions,
                           c1->proof->name, job->params.partitions);
    if (rc == CZ_OK && !(job->inputs = malloc(n * sizeof *job->inputs)))
        rc = cz_fail(ctx, CZ_ENOMEM, "c2: public inputs");
    if (rc == CZ_OK)
        rc = cz_c2_public_inputs(ctx, job->inputs, n, &job->params, &pub);
    if (rc == CZ_OK)
        rc = shape_and_plan(ctx, cache, &job->params, job);
    if (rc == CZ_OK && params)
        rc = cz_params_check_shape(ctx, params, &job->shape);
    if (rc == CZ_OK && pvk && cz_pvk_num_inputs(pvk) != job->n_inputs)
        rc = cz_fail(ctx, CZ_EMISMATCH, "c2: the verifying key takes %zu inputs, %s has %zu",
                     cz_pvk_num_inputs(pvk), c1->proof->name, job->n_inputs);
    if (rc != CZ_OK) {
        cz_c2_job_clear(job);
        return rc;
    }
    job->spec.partitions = c1->npartitions;
    job->spec.params = params;
    job->spec.pvk = pvk;
    cz_engine_estimate(&job->shape, job->rows, &job->spec.partition_bytes, &job->spec.abc_bytes);
    job->spec.synthesize = cz_c2_synthesize;
    job->spec.arg = job;
    return CZ_OK;
}

void cz_c2_job_clear(cz_c2_job_t *job)
{
    if (!job)
        return;
    free(job->inputs);
    memset(job, 0, sizeof *job);
}

/* What public input |i| of a partition is, for error messages. */
static void input_name(char *buf, size_t cap, size_t i)
{
    static const char *lead[] = { "replica_id", "comm_d", "comm_r" };
    if (i < 3) {
        snprintf(buf, cap, "%s", lead[i]);
        return;
    }
    size_t c = (i - 3) / PER_CHALLENGE, j = (i - 3) % PER_CHALLENGE;
    if (j == 0)
        snprintf(buf, cap, "challenge %zu: tree_d path index", c);
    else if (j <= CZ_POREP_DRG_DEGREE)
        snprintf(buf, cap, "challenge %zu: DRG parent %zu index", c, j - 1);
    else if (j <= CZ_POREP_DRG_DEGREE + CZ_POREP_EXP_DEGREE)
        snprintf(buf, cap, "challenge %zu: expander parent %zu index", c,
                 j - 1 - CZ_POREP_DRG_DEGREE);
    else
        snprintf(buf, cap, "challenge %zu: %s", c,
                 j == PER_CHALLENGE - 3   ? "challenge"
                 : j == PER_CHALLENGE - 2 ? "tree_r_last path index"
                                          : "tree_c path index");
}

int cz_c2_synthesize(void *arg, size_t partition, cz_ctx_t *ctx, cz_cs_witness_t *out)
{
    const cz_c2_job_t *job = arg;
    unsigned k = (unsigned)partition;
    char msg[256];
    memset(out, 0, sizeof *out);
    cz_porep_input_t in;
    int rc = cz_c1_to_circuit(ctx, job->c1, k, &in);
    if (rc)
        return rc;
    if ((rc = cz_porep_input_check(ctx, &in)) != CZ_OK) {
        snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
        cz_porep_input_free(&in);
        return cz_fail(ctx, rc, "c2: the C1 is inconsistent: %s", msg);
    }
    cz_cs_t *cs = NULL;
    rc = cz_cs_new(&cs, ctx, CZ_CS_PROVE);
    if (rc == CZ_OK)
        rc = cz_cs_omit_c(cs); /* c = a*b: the prover forms it (4 GiB less at 32GiB) */
    if (rc == CZ_OK && job->generic)
        cz_cs_emit_generic(cs); /* the baseline of `cuzk bench synth` */
    if (rc == CZ_OK)
        rc = cz_cs_reserve(cs, job->rows - job->shape.num_inputs, job->shape.num_aux,
                           job->shape.num_inputs);
    if (rc == CZ_OK)
        rc = cz_porep_synthesize_planned(ctx, cs, &job->params, &in, &job->plan);
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs);
    if (rc == CZ_OK)
        rc = cz_cs_take_witness(cs, out);
    cz_cs_free(cs);
    cz_porep_input_free(&in);
    if (rc)
        return rc;
    /* The circuit's public inputs must be the chain's. */
    const cz_fr *want = job->inputs + (size_t)k * job->n_inputs;
    if (out->num_inputs != job->n_inputs + 1) {
        rc = cz_fail(ctx, CZ_EINTERNAL, "c2: partition %u has %zu inputs, expected %zu", k,
                     out->num_inputs, job->n_inputs + 1);
    } else {
        for (size_t i = 0; i < job->n_inputs; i++) {
            if (!cz_fr_eq(&out->input[i + 1], &want[i])) {
                input_name(msg, sizeof msg, i);
                rc = cz_fail(ctx, CZ_EVERIFY,
                             "c2: public input %zu (%s) differs from the one "
                             "derived from replica_id, seed and the graph: the C1 does not "
                             "match its public values",
                             i, msg);
                break;
            }
        }
    }
    if (rc)
        cz_cs_witness_free(out);
    return rc;
}

int cz_c2_verify(cz_ctx_t *ctx, const cz_pvk_t *pvk, const uint8_t *proof, size_t len,
                 const cz_c2_public_t *pub)
{
    cz_porep_params_t p;
    if (!pub->proof || cz_porep_proof_params(&p, pub->proof))
        return cz_fail(ctx, CZ_EINVAL, "c2 verify: no parameters known for %s",
                       pub->proof ? pub->proof->name : "(no registered proof)");
    size_t per = cz_porep_num_inputs(&p) - 1, n = p.partitions;
    if (cz_pvk_num_inputs(pvk) != per)
        return cz_fail(ctx, CZ_EINVAL,
                       "c2 verify: the verifying key takes %zu inputs, %s has %zu "
                       "(a vk of another circuit?)",
                       cz_pvk_num_inputs(pvk), pub->proof->name, per);
    if (len != n * CZ_PROOF_BYTES)
        return cz_fail(ctx, CZ_EFORMAT, "c2 verify: %zu bytes, %s wants %zu partitions x 192 = %zu",
                       len, pub->proof->name, n, n * CZ_PROOF_BYTES);
    cz_fr *inputs = malloc(n * per * sizeof *inputs);
    cz_proof_t *proofs = calloc(n, sizeof *proofs);
    int rc = inputs && proofs ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "c2 verify");
    if (rc == CZ_OK)
        rc = cz_c2_public_inputs(ctx, inputs, n * per, &p, pub);
    if (rc == CZ_OK)
        rc = cz_proofs_decode(ctx, proofs, n, proof, len);
    if (rc == CZ_OK)
        rc = cz_verify_batch(ctx, pvk, proofs, n, inputs, per);
    free(inputs);
    free(proofs);
    return rc;
}

int cz_c2_identifier(char *out, size_t cap, const cz_porep_params_t *p)
{
    int n = snprintf(out, cap,
                     "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph"
                     "{expansion_degree: %u base_graph: drgraph::BucketGraph{size: %llu; "
                     "degree: %u; hasher: poseidon_hasher} }, challenges: LayerChallenges "
                     "{ layers: %u, max_count: %u }, tree: merkletree-poseidon_hasher-%u-%u-%u }",
                     CZ_POREP_EXP_DEGREE, (unsigned long long)p->nodes, CZ_POREP_DRG_DEGREE,
                     p->layers, p->challenges, p->base_arity, p->sub_arity, p->top_arity);
    return n > 0 && (size_t)n < cap ? CZ_OK : CZ_EINVAL;
}

int cz_c2_params_name(char *out, size_t cap, const cz_porep_params_t *p, const char *ext)
{
    char id[512];
    uint8_t h[32];
    char hex[65];
    if (cz_c2_identifier(id, sizeof id, p))
        return CZ_EINVAL;
    cz_sha256(h, id, strlen(id));
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", h[i]);
    int n = snprintf(out, cap,
                     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-%u-%u-%u-"
                     "sha256_hasher-%s.%s",
                     p->base_arity, p->sub_arity, p->top_arity, hex, ext);
    return n > 0 && (size_t)n < cap ? CZ_OK : CZ_EINVAL;
}
