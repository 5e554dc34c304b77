/*
 * kinds/post/job.c — a PoSt partition as an engine job and verification from
 * public values (see kinds/post/job.h).
 */
#include "kinds/post/job.h"

#include <stdlib.h>
#include <string.h>

#include "circuits/post/post_int.h"
#include "groth16/proof.h"
#include "groth16/prover.h"

/* The shape of |p| synthesized in full (SHAPE mode). */
static int shape_synthesized(cz_ctx_t *ctx, const cz_post_params_t *p, cz_params_shape_t *shape,
                             size_t *rows)
{
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, ctx, CZ_CS_SHAPE);
    if (rc)
        return rc;
    rc = cz_post_synthesize(ctx, cs, p, NULL);
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs);
    if (rc == CZ_OK)
        cz_g16_shape_of_cs(cs, shape, rows); /* the caller recomputes the domain */
    cz_cs_free(cs);
    return rc;
}

int cz_post_shape(cz_ctx_t *ctx, const cz_post_params_t *p, cz_params_shape_t *shape, size_t *rows)
{
    /* The circuit sectors are identical and share only ONE, so the
     * partition is one sector's shape (ONE counted once) times the sector
     * count: a 32GiB window partition's shape in 2349x less time. */
    cz_post_params_t one = *p;
    one.sectors = 1;
    cz_params_shape_t s1;
    size_t r1;
    CZ__QTRY(shape_synthesized(ctx, &one, &s1, &r1));
    const size_t n = p->sectors;
    memset(shape, 0, sizeof *shape);
    shape->num_inputs = 1 + n * (s1.num_inputs - 1);
    shape->num_aux = n * s1.num_aux;
    shape->a_aux_popcount = n * s1.a_aux_popcount;
    shape->b_aux_popcount = n * s1.b_aux_popcount;
    /* ONE is in B (every input row x_i * 0 = 0 leaves it out); a sector's
     * own inputs are never in B */
    shape->b_input_popcount = s1.b_input_popcount;
    *rows = 1 + n * (r1 - 1);
    size_t m = 1;
    while (m < *rows)
        m <<= 1;
    shape->domain_size = m;
    return CZ_OK;
}

void cz_post_job_public(const cz_post_job_t *job, cz_post_public_t *pub)
{
    memset(pub, 0, sizeof *pub);
    pub->proof = job->proof;
    memcpy(pub->randomness, job->randomness, 32);
    memcpy(pub->prover_id, job->prover_id, 32);
    pub->partition = job->partition;
    pub->nsectors = job->nsectors;
    pub->sectors = job->sectors;
}

/* Parse every vanilla proof (into *out, [n]) and take the public sectors
 * from them. */
static int parse_all(cz_ctx_t *ctx, cz_post_job_t *job, const cz_post_request_t *req,
                     cz_post_vanilla_t *out)
{
    char msg[256];
    for (size_t i = 0; i < req->nvanilla; i++) {
        int rc = cz_post_vanilla_parse(ctx, &job->params, req->vanilla[i], req->vanilla_len[i],
                                       &out[i]);
        if (rc) {
            snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
            return cz_fail(ctx, rc, "post: vanilla proof %zu of %zu: %s", i, req->nvanilla, msg);
        }
        job->sectors[i].id = out[i].sector_id;
        memcpy(job->sectors[i].comm_r, out[i].comm_r, 32);
    }
    return CZ_OK;
}

static int init(cz_ctx_t *ctx, cz_post_job_t *job, const cz_post_request_t *req,
                const cz_params_t *params, const cz_pvk_t *pvk)
{
    job->proof = cz_post_proof_by_abi(req->registered_proof);
    if (!job->proof)
        return cz_fail(ctx, CZ_EINVAL, "post: unknown registered PoSt proof %llu (want 0-14)",
                       (unsigned long long)req->registered_proof);
    if (!req->randomness || req->randomness_len != 32)
        return cz_fail(ctx, CZ_EINVAL, "post: randomness is %zu bytes, want 32",
                       req->randomness ? req->randomness_len : 0);
    if (req->nvanilla == 0)
        return cz_fail(ctx, CZ_EINVAL, "post: no vanilla proofs");
    CZ__QTRY(cz_post_params_sector(&job->params, job->proof->kind, job->proof->sector_bytes)
                 ? cz_fail(ctx, CZ_EINVAL, "post: no circuit for %s", job->proof->name)
                 : CZ_OK);
    if (req->nvanilla > job->params.sectors)
        return cz_fail(ctx, CZ_EINVAL,
                       "post: %zu vanilla proofs, a %s partition holds %u "
                       "sectors",
                       req->nvanilla, job->proof->name,
                       job->proof->kind == CZ_POST_WINNING ? 1 : job->params.sectors);
    memcpy(job->randomness, req->randomness, 32);
    cz_post_prover_id(job->prover_id, req->miner_id);
    job->partition = req->partition_index;
    job->nsectors = req->nvanilla;
    job->n_inputs = cz_post_num_inputs(&job->params) - 1;
    job->sectors = calloc(req->nvanilla, sizeof *job->sectors);
    job->inputs = malloc(job->n_inputs * sizeof *job->inputs);
    cz_post_vanilla_t *v = calloc(req->nvanilla, sizeof *v);
    int rc = job->sectors && job->inputs && v ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "post: job");
    if (rc == CZ_OK)
        rc = parse_all(ctx, job, req, v);
    cz_post_public_t pub;
    cz_post_job_public(job, &pub);
    if (rc == CZ_OK)
        rc = cz_post_public_inputs(ctx, &pub, job->inputs, job->n_inputs);
    if (rc == CZ_OK)
        rc = cz_post_witness_from(ctx, &pub, &job->params, v, req->nvanilla, &job->witness);
    if (rc == CZ_OK && (rc = cz_post_witness_check(ctx, &job->witness)) != CZ_OK) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
        rc = cz_fail(ctx, CZ_EVERIFY, "post: the vanilla proofs are inconsistent: %s", msg);
    }
    for (size_t i = 0; v && i < req->nvanilla; i++)
        cz_post_vanilla_free(&v[i]);
    free(v);
    if (rc == CZ_OK)
        rc = cz_post_shape(ctx, &job->params, &job->shape, &job->rows);
    if (rc == CZ_OK && params)
        rc = cz_params_check_shape(ctx, params, &job->shape);
    if (rc == CZ_OK && pvk && cz_pvk_num_inputs(pvk) != job->n_inputs)
        rc = cz_fail(ctx, CZ_EMISMATCH, "post: the verifying key takes %zu inputs, %s has %zu",
                     cz_pvk_num_inputs(pvk), job->proof->name, job->n_inputs);
    return rc;
}

int cz_post_job_init(cz_ctx_t *ctx, cz_post_job_t *job, const cz_post_request_t *req,
                     const cz_params_t *params, const cz_pvk_t *pvk)
{
    memset(job, 0, sizeof *job);
    int rc = init(ctx, job, req, params, pvk);
    if (rc) {
        cz_post_job_clear(job);
        return rc;
    }
    job->spec.partitions = 1;
    job->spec.params = params;
    job->spec.pvk = pvk;
    cz_engine_estimate(&job->shape, job->rows, &job->spec.partition_bytes, &job->spec.abc_bytes);
    job->spec.synthesize = cz_post_synthesize_job;
    job->spec.arg = job;
    return CZ_OK;
}

int cz_post_job_random(cz_ctx_t *ctx, cz_post_job_t *job, cz_post_kind_t kind,
                       uint64_t sector_bytes, uint64_t seed)
{
    memset(job, 0, sizeof *job);
    job->proof = cz_post_proof_current(kind, sector_bytes);
    if (!job->proof || cz_post_params_sector(&job->params, kind, sector_bytes))
        return cz_fail(ctx, CZ_EINVAL, "post: no %s circuit for %llu-byte sectors",
                       cz_post_kind_name(kind), (unsigned long long)sector_bytes);
    int rc = cz_post_witness_alloc(&job->witness, &job->params);
    if (rc)
        return cz_fail(ctx, rc, "post: witness");
    const cz_post_params_t *p = &job->params;
    const size_t L = cz_post_path_len(p);
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    for (unsigned i = 0; i < p->sectors; i++) {
        cz_post_sector_t *sec = &job->witness.sector[i];
        cz_fr_random_rng(&sec->comm_r, &rng);
        cz_fr_random_rng(&sec->comm_c, &rng);
        cz_fr_random_rng(&sec->comm_r_last, &rng);
        for (unsigned c = 0; c < p->challenges; c++) {
            sec->leaf_index[c] = cz_rng_next(&rng) % p->nodes;
            cz_fr_random_rng(&sec->leaf[c], &rng);
            for (size_t k = 0; k < L; k++)
                cz_fr_random_rng(&sec->siblings[c * L + k], &rng);
        }
    }
    if ((rc = cz_post_shape(ctx, p, &job->shape, &job->rows))) {
        cz_post_job_clear(job);
        return rc;
    }
    job->n_inputs = cz_post_num_inputs(p) - 1;
    job->spec.partitions = 1;
    cz_engine_estimate(&job->shape, job->rows, &job->spec.partition_bytes, &job->spec.abc_bytes);
    job->spec.synthesize = cz_post_synthesize_job;
    job->spec.arg = job;
    return CZ_OK;
}

void cz_post_job_clear(cz_post_job_t *job)
{
    if (!job)
        return;
    free(job->sectors);
    free(job->inputs);
    cz_post_witness_free(&job->witness);
    memset(job, 0, sizeof *job);
}

int cz_post_synthesize_job(void *arg, size_t partition, cz_ctx_t *ctx, cz_cs_witness_t *out)
{
    const cz_post_job_t *job = arg;
    memset(out, 0, sizeof *out);
    if (partition != 0)
        return cz_fail(ctx, CZ_EINVAL, "post: one partition per job (asked for %zu)", partition);
    cz_cs_t *cs = NULL;
    int rc = cz_cs_new(&cs, ctx, CZ_CS_PROVE);
    if (rc == CZ_OK)
        rc = cz_cs_omit_c(cs); /* c = a*b: the prover forms it */
    if (rc == CZ_OK)
        rc = cz_cs_reserve(cs, job->rows - job->shape.num_inputs, job->shape.num_aux,
                           job->shape.num_inputs);
    if (rc == CZ_OK)
        rc = cz_post_synthesize(ctx, cs, &job->params, &job->witness);
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs);
    if (rc == CZ_OK)
        rc = cz_cs_take_witness(cs, out);
    cz_cs_free(cs);
    if (rc)
        return rc;
    /* The circuit's public inputs must be the chain's (a timing job has none). */
    if (!job->inputs) {
        rc = CZ_OK;
    } else if (out->num_inputs != job->n_inputs + 1) {
        rc = cz_fail(ctx, CZ_EINTERNAL, "post: %zu inputs, expected %zu", out->num_inputs,
                     job->n_inputs + 1);
    } else {
        for (size_t i = 0; i < job->n_inputs; i++) {
            if (!cz_fr_eq(&out->input[i + 1], &job->inputs[i])) {
                const size_t per = 1 + job->params.challenges;
                rc = cz_fail(ctx, CZ_EVERIFY,
                             "post: public input %zu (circuit sector %zu, %s) "
                             "differs from the one derived from the public values",
                             i, i / per, i % per ? "a leaf challenge" : "comm_r");
                break;
            }
        }
    }
    if (rc)
        cz_cs_witness_free(out);
    return rc;
}

int cz_post_verify(cz_ctx_t *ctx, const cz_pvk_t *pvk, const uint8_t *proof, size_t len,
                   const cz_post_public_t *pub)
{
    cz_post_params_t p;
    CZ__QTRY(cz_post_params_of(ctx, pub, &p));
    const size_t n = cz_post_num_inputs(&p) - 1;
    if (cz_pvk_num_inputs(pvk) != n)
        return cz_fail(ctx, CZ_EINVAL,
                       "post verify: the verifying key takes %zu inputs, %s has "
                       "%zu (a vk of another circuit?)",
                       cz_pvk_num_inputs(pvk), pub->proof->name, n);
    if (len != CZ_PROOF_BYTES)
        return cz_fail(ctx, CZ_EFORMAT, "post verify: %zu bytes, want one 192-byte proof", len);
    cz_fr *inputs = malloc(n * sizeof *inputs);
    if (!inputs)
        return cz_fail(ctx, CZ_ENOMEM, "post verify");
    cz_proof_t pr;
    int rc = cz_post_public_inputs(ctx, pub, inputs, n);
    if (rc == CZ_OK)
        rc = cz_proofs_decode(ctx, &pr, 1, proof, len);
    if (rc == CZ_OK)
        rc = cz_verify_batch(ctx, pvk, &pr, 1, inputs, n);
    free(inputs);
    return rc;
}
