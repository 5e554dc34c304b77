/*
 * api/verify.c — every kind's public inputs and verification from public
 * values (cuzk.h cz_kind_public_inputs, cz_kind_verify): the kind's
 * public_inputs hook (kinds/kinds.h) gives each partition's inputs and the
 * circuit's vk name; the Groth16 check (groth16/verify.h) is the same for
 * every kind. Reentrant: a context of its own, the calling thread only.
 */
#include "cuzk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/internal.h"
#include "api/prover_int.h"
#include "groth16/params.h"
#include "groth16/proof.h"
#include "groth16/verify.h"
#include "kinds/kinds.h"

/* The hook of kind |name| of the built-in table, run on |ctx|. */
static int kind_public(cz_ctx_t *ctx, const char *name, const void *input, size_t input_len,
                       cz_kind_public_t *out)
{
    memset(out, 0, sizeof *out);
    const cz_kinds_t *t = cz_kinds_builtin();
    const cz_job_kind_t *k = name ? cz_kinds_find(t, name, NULL) : NULL;
    if (!k) /* cz_prover_submit's words: the same name, the same error through every door */
        return cz__kind_unknown(ctx, t, name ? name : "(null)");
    if (!k->public_inputs)
        return cz_fail(ctx, CZ_EUNAVAIL, "kind %s has no public values to verify from", k->name);
    return k->public_inputs(ctx, (const char *)input, input_len, out);
}

static void info_of(cz_kind_public_info_t *info, const cz_kind_public_t *pub)
{
    if (!info)
        return;
    memset(info, 0, sizeof *info);
    info->partitions = pub->partitions;
    info->per_partition = pub->per_partition;
    snprintf(info->vk_name, sizeof info->vk_name, "%s", pub->vk_name);
    snprintf(info->summary, sizeof info->summary, "%s", pub->summary);
}

int cz_kind_public_inputs(const char *kind, const void *input, size_t input_len, uint8_t **inputs,
                          cz_kind_public_info_t *info, cz_error_t *err)
{
    cz__err_clear(err);
    if (!inputs)
        return cz__err(err, CZ_EINVAL, "cz_kind_public_inputs: NULL argument");
    *inputs = NULL;
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "context");
    cz_kind_public_t pub;
    int rc = kind_public(ctx, kind, input, input_len, &pub);
    size_t n = pub.partitions * pub.per_partition;
    if (rc == CZ_OK && !(*inputs = malloc(n ? 32 * n : 1)))
        rc = cz_fail(ctx, CZ_ENOMEM, "public inputs");
    for (size_t i = 0; rc == CZ_OK && i < n; i++)
        cz_fr_to_repr(*inputs + 32 * i, &pub.inputs[i]);
    if (rc == CZ_OK)
        info_of(info, &pub);
    free(pub.inputs);
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    return rc;
}

/* The vk path: |vk_path|, else DIR/|name|. */
static int vk_path_of(cz_ctx_t *ctx, char *out, size_t cap, const char *vk_path,
                      const char *params_dir, const char *name)
{
    if (!vk_path && !params_dir)
        return cz_fail(ctx, CZ_EINVAL, "verify: neither a vk path nor a params_dir");
    int n = vk_path ? snprintf(out, cap, "%s", vk_path)
                    : snprintf(out, cap, "%s/%s", params_dir, name);
    return n > 0 && (size_t)n < cap ? CZ_OK : cz_fail(ctx, CZ_EINVAL, "verify: path too long");
}

/* |proof| against |pub| with the vk at |path|. */
static int check(cz_ctx_t *ctx, const char *path, const cz_kind_public_t *pub, const uint8_t *proof,
                 size_t len)
{
    const size_t n = pub->partitions, per = pub->per_partition;
    cz_vk_t vk = { 0 };
    cz_pvk_t *pvk = NULL;
    cz_proof_t *proofs = NULL;
    int rc = cz_vk_load(ctx, &vk, path);
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &pvk, &vk);
    if (rc == CZ_OK && cz_pvk_num_inputs(pvk) != per)
        rc = cz_fail(ctx, CZ_EINVAL,
                     "verify: the verifying key takes %zu inputs, %s has %zu "
                     "(a vk of another circuit?)",
                     cz_pvk_num_inputs(pvk), pub->summary, per);
    if (rc == CZ_OK && len != n * CZ_PROOF_BYTES)
        rc = cz_fail(ctx, CZ_EFORMAT, "verify: %zu bytes, %s wants %zu x 192 = %zu", len,
                     pub->summary, n, n * CZ_PROOF_BYTES);
    if (rc == CZ_OK && !(proofs = calloc(n ? n : 1, sizeof *proofs)))
        rc = cz_fail(ctx, CZ_ENOMEM, "verify");
    if (rc == CZ_OK)
        rc = cz_proofs_decode(ctx, proofs, n, proof, len);
    if (rc == CZ_OK)
        rc = cz_verify_batch(ctx, pvk, proofs, n, pub->inputs, per);
    free(proofs);
    cz_pvk_free(pvk);
    cz_vk_clear(&vk);
    return rc;
}

int cz_kind_verify(const char *kind, const void *input, size_t input_len, const char *vk_path,
                   const char *params_dir, const uint8_t *proof, size_t len,
                   cz_kind_public_info_t *info, cz_error_t *err)
{
    cz__err_clear(err);
    if (info)
        memset(info, 0, sizeof *info);
    if (!proof && len)
        return cz__err(err, CZ_EINVAL, "cz_kind_verify: NULL argument");
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "context");
    char path[4096];
    cz_kind_public_t pub;
    int rc = kind_public(ctx, kind, input, input_len, &pub);
    if (rc == CZ_OK)
        info_of(info, &pub);
    if (rc == CZ_OK)
        rc = vk_path_of(ctx, path, sizeof path, vk_path, params_dir, pub.vk_name);
    if (rc == CZ_OK)
        rc = check(ctx, path, &pub, proof, len);
    if (rc == CZ_EVERIFY && !*cz_ctx_message(ctx))
        cz_fail(ctx, rc, "the proof does not verify from these public values");
    free(pub.inputs);
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    return rc;
}
