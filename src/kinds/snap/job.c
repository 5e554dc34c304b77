/*
 * kinds/snap/job.c — SnapDeals update jobs from Curio's fields, synthesis,
 * verification from public values (job.h).
 */
#include "kinds/snap/job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/snap/snap_int.h"
#include "hash/sha254.h"
#include "groth16/proof.h"
#include "groth16/prover.h"
#include "kinds/snap/vanilla.h"

int cz_snap_sector_bytes(uint64_t registered_proof, uint64_t *bytes)
{
    /* proofs-api registry.rs RegisteredUpdateProof::StackedDrg{2KiB, 8MiB,
     * 512MiB, 32GiB, 64GiB}V1 = 0..4 (go-state-types abi the same). */
    static const uint64_t sizes[] = { 2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30 };
    if (registered_proof >= sizeof sizes / sizeof sizes[0])
        return CZ_EINVAL;
    *bytes = sizes[registered_proof];
    return CZ_OK;
}

static int uvarint(const uint8_t *in, size_t len, size_t *pos, uint64_t *v)
{
    *v = 0;
    for (unsigned shift = 0; *pos < len && shift < 63; shift += 7) {
        uint8_t b = in[(*pos)++];
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return CZ_OK;
    }
    return CZ_EFORMAT;
}

#define CZ_COMMCID_MIN_BYTES (1 + 3 + 2 + 1 + 32)

int cz_snap_commitment(cz_ctx_t *ctx, uint8_t out[32], const uint8_t *in, size_t len, bool unsealed,
                       const char *what)
{
    if (in && len == 32) {
        memcpy(out, in, 32);
        return CZ_OK;
    }
    /* go-fil-commcid: CIDv1 <codec> <multihash code> <32> <digest>: 0x01, the codec's
     * varint (3 bytes), the multihash code's (2 or 3), the length byte, the digest; so a
     * shorter input is a wrong length, not a strange CID */
    if (!in || len < CZ_COMMCID_MIN_BYTES || in[0] != 0x01)
        return cz_fail(ctx, CZ_EFORMAT,
                       "snap: %s: %zu bytes; want the 32-byte commitment (or "
                       "its CIDv1, %d bytes or more)",
                       what, len, CZ_COMMCID_MIN_BYTES);
    const uint64_t want_codec = unsealed ? 0xf101 : 0xf102, want_mh = unsealed ? 0x1012 : 0xb401;
    uint64_t version, codec, mh, mlen;
    size_t pos = 0;
    if (uvarint(in, len, &pos, &version) || uvarint(in, len, &pos, &codec) ||
        uvarint(in, len, &pos, &mh) || uvarint(in, len, &pos, &mlen))
        return cz_fail(ctx, CZ_EFORMAT, "snap: %s: %zu bytes, neither 32 raw bytes nor a CID", what,
                       len);
    if (version != 1 || codec != want_codec || mh != want_mh || mlen != 32 || len - pos != 32)
        return cz_fail(ctx, CZ_EFORMAT,
                       "snap: %s: CID v%llu codec 0x%llx multihash 0x%llx "
                       "length %llu, want v1 0x%llx 0x%llx 32",
                       what, (unsigned long long)version, (unsigned long long)codec,
                       (unsigned long long)mh, (unsigned long long)mlen,
                       (unsigned long long)want_codec, (unsigned long long)want_mh);
    memcpy(out, in + pos, 32);
    return CZ_OK;
}

int cz_snap_shape(cz_ctx_t *ctx, const cz_snap_params_t *p, cz_params_shape_t *shape, size_t *rows)
{
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, ctx, CZ_CS_SHAPE);
    if (rc)
        return rc;
    rc = cz_snap_circuit(cs, p, NULL);
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs);
    if (rc == CZ_OK)
        cz_g16_shape_of_cs(cs, shape, rows);
    cz_cs_free(cs);
    return rc;
}

static int fr_of(cz_ctx_t *ctx, cz_fr *out, const uint8_t b[32], const char *what)
{
    if (cz_fr_from_repr(out, b))
        return cz_fail(ctx, CZ_ERANGE, "snap: %s is not a field element", what);
    return CZ_OK;
}

int cz_snap_public_inputs_from(cz_ctx_t *ctx, const cz_snap_public_t *pub, cz_fr *out, size_t n_out)
{
    uint64_t bytes;
    cz_snap_params_t p;
    if (cz_snap_sector_bytes(pub->registered_proof, &bytes) || cz_snap_params_sector(&p, bytes))
        return cz_fail(ctx, CZ_EINVAL,
                       "snap: registered_proof %llu is not an update proof "
                       "(0-4)",
                       (unsigned long long)pub->registered_proof);
    if (n_out < (size_t)p.partitions * 4)
        return cz_fail(ctx, CZ_EINVAL, "snap: %zu input slots, %u partitions need %u", n_out,
                       p.partitions, p.partitions * 4);
    cz_fr ro, rn, dn;
    CZ__UTRY(fr_of(ctx, &ro, pub->comm_r_old, "comm_r_old"));
    CZ__UTRY(fr_of(ctx, &rn, pub->comm_r_new, "comm_r_new"));
    CZ__UTRY(fr_of(ctx, &dn, pub->comm_d_new, "comm_d_new"));
    for (unsigned k = 0; k < p.partitions; k++)
        CZ__UTRY(cz_snap_public_inputs(&p, k, p.h, &ro, &dn, &rn, out + (size_t)k * 4));
    return CZ_OK;
}

void cz_snap_job_clear(cz_snap_job_t *job)
{
    if (!job)
        return;
    if (job->parts)
        for (unsigned k = 0; k < job->params.partitions; k++)
            cz_snap_input_free(&job->parts[k]);
    free(job->parts);
    free(job->inputs);
    memset(job, 0, sizeof *job);
}

static int load_partition(cz_ctx_t *ctx, cz_snap_job_t *job, unsigned k, const uint8_t *buf,
                          size_t len)
{
    cz_snap_input_t *in = &job->parts[k];
    CZ__UTRY(cz_snap_input_alloc(in, &job->params));
    char msg[320];
    int rc = cz_snap_vanilla_decode(ctx, buf, len, in);
    if (rc) {
        snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
        return cz_fail(ctx, rc, "snap: vanilla_proofs[%u]: %s", k, msg);
    }
    cz_fr want_d;
    CZ__UTRY(fr_of(ctx, &want_d, job->pub.comm_d_new, "comm_d_new"));
    if (!cz_fr_eq(&want_d, &in->comm_d_new))
        return cz_fail(ctx, CZ_EUNSAT,
                       "snap: vanilla_proofs[%u]: its TreeDNew root is not "
                       "comm_d_new",
                       k);
    in->k = k;
    in->h = job->params.h;
    CZ__UTRY(fr_of(ctx, &in->comm_r_old, job->pub.comm_r_old, "comm_r_old"));
    CZ__UTRY(fr_of(ctx, &in->comm_r_new, job->pub.comm_r_new, "comm_r_new"));
    if ((rc = cz_snap_input_check(ctx, in)) != CZ_OK) {
        snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
        return cz_fail(ctx, rc, "snap: vanilla_proofs[%u] does not verify: %s", k, msg);
    }
    return CZ_OK;
}

/* The slots of the parallel synthesis (a SHAPE synthesis of one challenge
 * and one apex hash: ~1/86 of the partition's shape). */
static int plan_of(cz_ctx_t *ctx, cz_snap_job_t *job)
{
    int rc = cz_snap_plan(&job->plan, &job->params);
    return rc ? cz_fail(ctx, rc, "snap: planning the partition's synthesis") : CZ_OK;
}

/* ---- TIMING ONLY: a random witness of the real shape ---------------------------- */

static void random_partition(cz_snap_input_t *in, const cz_snap_params_t *p, unsigned k,
                             const cz_snap_public_t *pub, cz_rng *rng)
{
    const size_t dl = cz_snap_d_path_len(p), rl = cz_snap_r_path_len(p);
    const uint64_t per = p->nodes / p->partitions;
    in->k = k;
    in->h = p->h;
    (void)cz_fr_from_repr(&in->comm_r_old, pub->comm_r_old);
    (void)cz_fr_from_repr(&in->comm_d_new, pub->comm_d_new);
    (void)cz_fr_from_repr(&in->comm_r_new, pub->comm_r_new);
    cz_fr_random_rng(&in->comm_c, rng);
    cz_fr_random_rng(&in->root_r_old, rng);
    cz_fr_random_rng(&in->root_r_new, rng);
    for (unsigned a = 0; a < p->apex_leaves; a++)
        cz_fr_random_rng(&in->apex_leaves[a], rng);
    for (unsigned c = 0; c < p->challenges; c++) {
        cz_snap_challenge_t *ch = &in->ch[c];
        ch->challenge = (uint64_t)k * per + cz_rng_next(rng) % per;
        cz_fr_random_rng(&ch->leaf_r_old, rng);
        cz_fr_random_rng(&ch->leaf_d_new, rng);
        cz_fr_random_rng(&ch->leaf_r_new, rng);
        for (size_t i = 0; i < rl; i++) {
            cz_fr_random_rng(&ch->path_r_old[i], rng);
            cz_fr_random_rng(&ch->path_r_new[i], rng);
        }
        for (size_t i = 0; i < dl; i++)
            cz_fr_random_rng(&ch->path_d_new[i], rng);
    }
}

int cz_snap_job_random(cz_ctx_t *ctx, cz_snap_job_t *job, uint64_t sector_bytes, uint64_t seed)
{
    memset(job, 0, sizeof *job);
    uint64_t reg = 0, bytes = 0; /* the RegisteredUpdateProof of this size */
    while (cz_snap_sector_bytes(reg, &bytes) == CZ_OK && bytes != sector_bytes)
        reg++;
    if (bytes != sector_bytes || cz_snap_params_sector(&job->params, sector_bytes))
        return cz_fail(ctx, CZ_EINVAL, "snap: no update circuit for %llu-byte sectors",
                       (unsigned long long)sector_bytes);
    job->pub.registered_proof = reg;
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    cz_fr x;
    cz_fr_random_rng(&x, &rng);
    cz_fr_to_repr(job->pub.comm_r_old, &x);
    cz_fr_random_rng(&x, &rng);
    cz_fr_to_repr(job->pub.comm_d_new, &x);
    cz_fr_random_rng(&x, &rng);
    cz_fr_to_repr(job->pub.comm_r_new, &x);
    const unsigned n = job->params.partitions;
    job->parts = calloc(n, sizeof *job->parts);
    job->inputs = calloc((size_t)n * 4, sizeof *job->inputs);
    int rc = job->parts && job->inputs ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "snap job");
    for (unsigned k = 0; rc == CZ_OK && k < n; k++) {
        rc = cz_snap_input_alloc(&job->parts[k], &job->params);
        if (rc == CZ_OK)
            random_partition(&job->parts[k], &job->params, k, &job->pub, &rng);
        else
            rc = cz_fail(ctx, rc, "snap: partition %u witness", k);
    }
    if (rc == CZ_OK)
        rc = cz_snap_public_inputs_from(ctx, &job->pub, job->inputs, (size_t)n * 4);
    if (rc == CZ_OK)
        rc = cz_snap_shape(ctx, &job->params, &job->shape, &job->rows);
    if (rc == CZ_OK)
        rc = plan_of(ctx, job);
    if (rc) {
        cz_snap_job_clear(job);
        return rc;
    }
    job->spec.partitions = n;
    job->spec.synthesize = cz_snap_synthesize;
    job->spec.arg = job;
    cz_engine_estimate(&job->shape, job->rows, &job->spec.partition_bytes, &job->spec.abc_bytes);
    return CZ_OK;
}

/* ---- shapes by sector size (kinds/shapes.h) ---------------------------------------- */

typedef struct {
    cz_params_shape_t shape;
    size_t rows;
} shape_value_t;

/* The shape and rows of the params |arg| points to. */
static int compute_shape(const void *arg, cz_ctx_t *ctx, void *value)
{
    shape_value_t *v = value;
    return cz_snap_shape(ctx, arg, &v->shape, &v->rows);
}

/* Keyed by sector_bytes (the circuit follows from it); five kept: the five
 * RegisteredUpdateProofs. */
static const cz_shape_cache_spec_t snap_shapes = { "snap", sizeof(uint64_t), sizeof(shape_value_t),
                                                   5, compute_shape };

int cz_snap_shapes_new(cz_shape_cache_t **out)
{
    return cz_shape_cache_new(out, &snap_shapes);
}

static int shape_of(cz_ctx_t *ctx, cz_shape_cache_t *cache, const cz_snap_params_t *p,
                    cz_params_shape_t *shape, size_t *rows)
{
    shape_value_t v;
    int rc = cz_shape_cache_get(cache, &snap_shapes, ctx, &p->sector_bytes, &v, p);
    if (rc == CZ_OK) {
        *shape = v.shape;
        *rows = v.rows;
    }
    return rc;
}

int cz_snap_job_from_curio(cz_ctx_t *ctx, cz_snap_job_t *job, uint64_t registered_proof,
                           const uint8_t *comm_r_old, size_t comm_r_old_len,
                           const uint8_t *comm_r_new, size_t comm_r_new_len,
                           const uint8_t *comm_d_new, size_t comm_d_new_len,
                           const uint8_t *const *vanilla_proofs, const size_t *vanilla_lens,
                           size_t nproofs, const cz_params_t *params, const cz_pvk_t *pvk)
{
    return cz_snap_job_from_curio_cached(ctx, job, registered_proof, comm_r_old, comm_r_old_len,
                                         comm_r_new, comm_r_new_len, comm_d_new, comm_d_new_len,
                                         vanilla_proofs, vanilla_lens, nproofs, params, pvk, NULL);
}

int cz_snap_job_from_curio_cached(cz_ctx_t *ctx, cz_snap_job_t *job, uint64_t registered_proof,
                                  const uint8_t *comm_r_old, size_t comm_r_old_len,
                                  const uint8_t *comm_r_new, size_t comm_r_new_len,
                                  const uint8_t *comm_d_new, size_t comm_d_new_len,
                                  const uint8_t *const *vanilla_proofs, const size_t *vanilla_lens,
                                  size_t nproofs, const cz_params_t *params, const cz_pvk_t *pvk,
                                  cz_shape_cache_t *cache)
{
    memset(job, 0, sizeof *job);
    uint64_t bytes;
    if (cz_snap_sector_bytes(registered_proof, &bytes) ||
        cz_snap_params_sector(&job->params, bytes))
        return cz_fail(ctx, CZ_EINVAL,
                       "snap: registered_proof %llu is not an update proof "
                       "(0 2KiB, 1 8MiB, 2 512MiB, 3 32GiB, 4 64GiB)",
                       (unsigned long long)registered_proof);
    job->pub.registered_proof = registered_proof;
    int rc = cz_snap_commitment(ctx, job->pub.comm_r_old, comm_r_old, comm_r_old_len, false,
                                "comm_r_old");
    if (rc == CZ_OK)
        rc = cz_snap_commitment(ctx, job->pub.comm_r_new, comm_r_new, comm_r_new_len, false,
                                "comm_r_new");
    if (rc == CZ_OK)
        rc = cz_snap_commitment(ctx, job->pub.comm_d_new, comm_d_new, comm_d_new_len, true,
                                "comm_d_new");
    const unsigned n = job->params.partitions;
    if (rc == CZ_OK && nproofs != n)
        rc = cz_fail(ctx, CZ_EINVAL,
                     "snap: %zu vanilla proofs, a %llu-byte sector has %u "
                     "partitions",
                     nproofs, (unsigned long long)bytes, n);
    if (rc == CZ_OK && !vanilla_proofs)
        rc = cz_fail(ctx, CZ_EINVAL, "snap: no vanilla proofs");
    if (rc == CZ_OK) {
        job->parts = calloc(n, sizeof *job->parts);
        job->inputs = calloc((size_t)n * 4, sizeof *job->inputs);
        if (!job->parts || !job->inputs)
            rc = cz_fail(ctx, CZ_ENOMEM, "snap job");
    }
    for (unsigned k = 0; rc == CZ_OK && k < n; k++)
        rc = load_partition(ctx, job, k, vanilla_proofs[k], vanilla_lens[k]);
    if (rc == CZ_OK)
        rc = cz_snap_public_inputs_from(ctx, &job->pub, job->inputs, (size_t)n * 4);
    if (rc == CZ_OK)
        rc = shape_of(ctx, cache, &job->params, &job->shape, &job->rows);
    if (rc == CZ_OK)
        rc = plan_of(ctx, job);
    if (rc == CZ_OK && params && (params->vk.n_ic != job->shape.num_inputs))
        rc = cz_fail(ctx, CZ_EMISMATCH,
                     "snap: the params take %zu inputs, the update "
                     "circuit has %zu",
                     params->vk.n_ic, job->shape.num_inputs);
    if (rc) {
        cz_snap_job_clear(job);
        return rc;
    }
    job->spec.partitions = n;
    job->spec.params = params;
    job->spec.pvk = pvk;
    job->spec.synthesize = cz_snap_synthesize;
    job->spec.arg = job;
    cz_engine_estimate(&job->shape, job->rows, &job->spec.partition_bytes, &job->spec.abc_bytes);
    return CZ_OK;
}

int cz_snap_synthesize(void *arg, size_t partition, cz_ctx_t *ctx, cz_cs_witness_t *out)
{
    const cz_snap_job_t *job = arg;
    memset(out, 0, sizeof *out);
    if (partition >= job->params.partitions)
        return cz_fail(ctx, CZ_EINVAL, "snap: partition %zu of %u", partition,
                       job->params.partitions);
    cz_cs_t *cs = NULL;
    int rc = cz_cs_new(&cs, ctx, CZ_CS_PROVE);
    if (rc == CZ_OK)
        rc = cz_cs_omit_c(cs);
    if (rc == CZ_OK)
        rc = cz_cs_reserve(cs, job->rows - job->shape.num_inputs, job->shape.num_aux,
                           job->shape.num_inputs);
    if (rc == CZ_OK)
        rc = cz_snap_circuit_planned(ctx, cs, &job->params, &job->parts[partition], &job->plan);
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs);
    if (rc == CZ_OK)
        rc = cz_cs_take_witness(cs, out);
    cz_cs_free(cs);
    if (rc)
        return rc;
    const cz_fr *want = job->inputs + partition * 4;
    for (size_t i = 0; i < 4; i++) {
        if (out->num_inputs != 5 || !cz_fr_eq(&out->input[i + 1], &want[i])) {
            cz_cs_witness_free(out);
            return cz_fail(ctx, CZ_EVERIFY,
                           "snap: partition %zu: public input %zu differs "
                           "from the one the public values give",
                           partition, i);
        }
    }
    return CZ_OK;
}

int cz_snap_verify(cz_ctx_t *ctx, const cz_pvk_t *pvk, const uint8_t *proof, size_t len,
                   const cz_snap_public_t *pub)
{
    uint64_t bytes;
    cz_snap_params_t p;
    if (cz_snap_sector_bytes(pub->registered_proof, &bytes) || cz_snap_params_sector(&p, bytes))
        return cz_fail(ctx, CZ_EINVAL,
                       "snap verify: registered_proof %llu is not an update "
                       "proof (0-4)",
                       (unsigned long long)pub->registered_proof);
    const size_t n = p.partitions;
    if (cz_pvk_num_inputs(pvk) != 4)
        return cz_fail(ctx, CZ_EINVAL,
                       "snap verify: the verifying key takes %zu inputs, the "
                       "update circuit 4 (a vk of another circuit?)",
                       cz_pvk_num_inputs(pvk));
    if (len != n * CZ_PROOF_BYTES)
        return cz_fail(ctx, CZ_EFORMAT, "snap verify: %zu bytes, %zu partitions x 192 = %zu", len,
                       n, n * CZ_PROOF_BYTES);
    cz_fr *inputs = malloc(n * 4 * sizeof *inputs);
    cz_proof_t *proofs = calloc(n, sizeof *proofs);
    int rc = inputs && proofs ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "snap verify");
    if (rc == CZ_OK)
        rc = cz_snap_public_inputs_from(ctx, pub, inputs, n * 4);
    if (rc == CZ_OK)
        rc = cz_proofs_decode(ctx, proofs, n, proof, len);
    if (rc == CZ_OK)
        rc = cz_verify_batch(ctx, pvk, proofs, n, inputs, 4);
    free(inputs);
    free(proofs);
    return rc;
}

int cz_snap_params_filename(char *out, size_t cap, const cz_snap_params_t *p, const char *ext)
{
    char id[96];
    uint8_t digest[32];
    snprintf(id, sizeof id, "empty_sector_update::PublicParams{ sector_nodes: %llu }",
             (unsigned long long)p->nodes);
    cz_sha256(digest, id, strlen(id));
    char hex[65];
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    int w = snprintf(out, cap, "v28-empty-sector-update-merkletree-poseidon_hasher-%u-%u-%u-%s.%s",
                     p->base_arity, p->sub_arity, p->top_arity, hex, ext);
    return w > 0 && (size_t)w < cap ? CZ_OK : CZ_EINVAL;
}
