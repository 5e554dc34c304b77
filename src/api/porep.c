/*
 * api/porep.c — PoRep C2 helpers of the public API: the public values of a
 * C1, the Filecoin params file names, and verification from public values
 * (cuzk.h; the work is kinds/porep/c2.h's).
 */
#include "cuzk.h"

#include <stdio.h>
#include <string.h>

#include "api/prover_int.h"
#include "groth16/params.h"
#include "groth16/verify.h"
#include "kinds/porep/c1.h"
#include "kinds/porep/c2.h"

int cz_porep_public_from_c1(cz_porep_public_t *out, const void *c1_json, size_t len,
                            cz_error_t *err)
{
    cz__err_clear(err);
    if (!out || !c1_json)
        return cz__err(err, CZ_EINVAL, "cz_porep_public_from_c1: NULL argument");
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "context");
    cz_c1_t c1;
    memset(&c1, 0, sizeof c1);
    int rc = cz_c1_parse(ctx, &c1, (const char *)c1_json, len);
    if (rc == CZ_OK) {
        cz_c2_public_t pub;
        cz_c2_public_from_c1(&pub, &c1);
        memset(out, 0, sizeof *out);
        out->sector_size = pub.proof->sector_bytes;
        memcpy(out->replica_id, pub.replica_id, 32);
        memcpy(out->comm_d, pub.comm_d, 32);
        memcpy(out->comm_r, pub.comm_r, 32);
        memcpy(out->seed, pub.seed, 32);
        out->registered_proof = pub.proof->name; /* the registry's static name */
        cz_c1_free(&c1);
    }
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    return rc;
}

int cz_porep_params_file_name(char *out, size_t cap, uint64_t sector_size, const char *ext,
                              cz_error_t *err)
{
    cz__err_clear(err);
    cz_porep_params_t pp;
    if (!out || !ext || (strcmp(ext, "params") && strcmp(ext, "vk")))
        return cz__err(err, CZ_EINVAL, "params file name: ext must be \"params\" or \"vk\"");
    if (cz_porep_params_sector(&pp, sector_size) != CZ_OK)
        return cz__err(err, CZ_EINVAL,
                       "params file name: %llu bytes is not a PoRep sector size "
                       "(2KiB, 8MiB, 512MiB, 32GiB, 64GiB)",
                       (unsigned long long)sector_size);
    if (cz_c2_params_name(out, cap, &pp, ext) != CZ_OK)
        return cz__err(err, CZ_EINVAL, "params file name: %zu bytes are too few", cap);
    return CZ_OK;
}

/* The vk path: |vk_path|, else DIR/<the Filecoin vk name of |proof|'s circuit>. */
static int vk_path_of(cz_ctx_t *ctx, char *out, size_t cap, const char *vk_path,
                      const char *params_dir, const cz_porep_proof_t *proof)
{
    if (vk_path) {
        snprintf(out, cap, "%s", vk_path);
        return CZ_OK;
    }
    if (!params_dir)
        return cz_fail(ctx, CZ_EINVAL, "verify: neither a vk path nor a params_dir");
    char name[256];
    cz_porep_params_t pp;
    if (cz_porep_proof_params(&pp, proof) != CZ_OK ||
        cz_c2_params_name(name, sizeof name, &pp, "vk") != CZ_OK)
        return cz_fail(ctx, CZ_EINVAL, "verify: no Filecoin vk name for %s", proof->name);
    int n = snprintf(out, cap, "%s/%s", params_dir, name);
    return n > 0 && (size_t)n < cap ? CZ_OK
                                    : cz_fail(ctx, CZ_EINVAL, "verify: params_dir too long");
}

int cz_porep_c2_verify(const char *vk_path, const char *params_dir, const cz_porep_public_t *pub,
                       const uint8_t *proof, size_t len, cz_error_t *err)
{
    cz__err_clear(err);
    if (!pub || (!proof && len))
        return cz__err(err, CZ_EINVAL, "cz_porep_c2_verify: NULL argument");
    if (!CZ__RESERVED_ZERO(pub))
        return cz__err(err, CZ_EINVAL,
                       "cz_porep_c2_verify: pub.reserved is not zero "
                       "(zero the struct, or fill it with cz_porep_public_from_c1)");
    cz_c2_public_t cp = { .proof = pub->registered_proof
                                       ? cz_porep_proof_by_name(pub->registered_proof)
                                       : cz_porep_proof_v1_1(pub->sector_size) };
    if (pub->registered_proof && !cp.proof)
        return cz__err(err, CZ_EINVAL, "verify: '%.64s' is not a RegisteredSealProof",
                       pub->registered_proof);
    if (!cp.proof)
        return cz__err(err, CZ_EINVAL,
                       "verify: %llu bytes is not a PoRep sector size (2KiB, "
                       "8MiB, 512MiB, 32GiB, 64GiB)",
                       (unsigned long long)pub->sector_size);
    if (cp.proof->sector_bytes != pub->sector_size)
        return cz__err(err, CZ_EINVAL, "verify: %s is a %llu-byte sector, not %llu bytes",
                       cp.proof->name, (unsigned long long)cp.proof->sector_bytes,
                       (unsigned long long)pub->sector_size);
    memcpy(cp.replica_id, pub->replica_id, 32);
    memcpy(cp.comm_d, pub->comm_d, 32);
    memcpy(cp.comm_r, pub->comm_r, 32);
    memcpy(cp.seed, pub->seed, 32);
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "context");
    char path[4096];
    cz_vk_t vk = { 0 };
    cz_pvk_t *pvk = NULL;
    int rc = vk_path_of(ctx, path, sizeof path, vk_path, params_dir, cp.proof);
    if (rc == CZ_OK)
        rc = cz_vk_load(ctx, &vk, path);
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &pvk, &vk);
    if (rc == CZ_OK)
        rc = cz_c2_verify(ctx, pvk, proof, len, &cp);
    if (rc == CZ_EVERIFY && !*cz_ctx_message(ctx))
        cz_fail(ctx, rc, "the proof does not verify from these public values");
    cz__err_ctx(err, ctx, rc);
    cz_pvk_free(pvk);
    cz_vk_clear(&vk);
    cz_ctx_free(ctx);
    return rc;
}
