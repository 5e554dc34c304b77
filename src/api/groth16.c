/*
 * api/groth16.c — raw Groth16 verifying keys, proofs and field elements
 * through cuzk.h (the "tools" block: cz_groth16_*, cz_fr_repr_*), for the
 * doors that work below the kind table: `cuzk verify --vk` and `cuzk export
 * snarkjs`. A thin layer over groth16/params.h (the vk), groth16/proof.h
 * (the 192-byte encoding), groth16/verify.h (the batch check) and ff/fr.h.
 * Reentrant: each call makes its own context and uses the calling thread.
 */
#include "cuzk.h"

#include <stdlib.h>
#include <string.h>

#include "api/prover_int.h"
#include "ff/fr.h"
#include "groth16/params.h"
#include "groth16/proof.h"
#include "groth16/verify.h"

struct cz_groth16_vk {
    cz_vk_t vk;
    cz_pvk_t *pvk; /* prepared once: every verify under this vk uses it */
};

/* A context for one call; CZ_ENOMEM in |err| when none. */
static int ctx_open(cz_ctx_t **ctx, cz_error_t *err)
{
    cz__err_clear(err);
    if (cz_ctx_new(ctx, NULL, 1) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "context");
    return CZ_OK;
}

/* |rc| with the ctx's message into |err|, the ctx freed. */
static int ctx_close(cz_ctx_t *ctx, cz_error_t *err, int rc)
{
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    return rc;
}

/* *out from a vk filled in |v| (taken over: cleared on error). */
static int vk_finish(cz_ctx_t *ctx, cz_groth16_vk_t **out, cz_vk_t *v)
{
    cz_groth16_vk_t *g = calloc(1, sizeof *g);
    if (!g) {
        cz_vk_clear(v);
        return cz_fail(ctx, CZ_ENOMEM, "vk");
    }
    g->vk = *v;
    int rc = cz_pvk_new(ctx, &g->pvk, &g->vk);
    if (rc) {
        cz_groth16_vk_free(g);
        return rc;
    }
    *out = g;
    return CZ_OK;
}

int cz_groth16_vk_load(cz_groth16_vk_t **out, const char *path, cz_error_t *err)
{
    if (out)
        *out = NULL;
    if (!out || !path)
        return cz__err(err, CZ_EINVAL, "cz_groth16_vk_load: NULL argument");
    cz_ctx_t *ctx;
    int rc = ctx_open(&ctx, err);
    if (rc)
        return rc;
    cz_vk_t v = { 0 };
    if ((rc = cz_vk_load(ctx, &v, path)) == CZ_ERANGE)
        rc = CZ_EFORMAT; /* a point off its subgroup */
    if (rc == CZ_OK)
        rc = vk_finish(ctx, out, &v);
    return ctx_close(ctx, err, rc);
}

int cz_groth16_vk_parse(cz_groth16_vk_t **out, const uint8_t *bytes, size_t len, cz_error_t *err)
{
    if (out)
        *out = NULL;
    if (!out || (!bytes && len))
        return cz__err(err, CZ_EINVAL, "cz_groth16_vk_parse: NULL argument");
    cz_ctx_t *ctx;
    int rc = ctx_open(&ctx, err);
    if (rc)
        return rc;
    cz_vk_t v = { 0 };
    rc = bytes ? cz_vk_parse(ctx, &v, bytes, len, NULL)
               : cz_fail(ctx, CZ_EFORMAT, "vk: 0 bytes, a vk takes at least %zu",
                         cz_vk_encoded_size(1));
    if (rc == CZ_ERANGE)
        rc = CZ_EFORMAT; /* a point off its subgroup */
    if (rc == CZ_OK)
        rc = vk_finish(ctx, out, &v);
    return ctx_close(ctx, err, rc);
}

void cz_groth16_vk_free(cz_groth16_vk_t *vk)
{
    if (!vk)
        return;
    cz_pvk_free(vk->pvk);
    cz_vk_clear(&vk->vk);
    free(vk);
}

size_t cz_groth16_vk_inputs(const cz_groth16_vk_t *vk)
{
    return vk ? cz_pvk_num_inputs(vk->pvk) : 0;
}

int cz_groth16_vk_point(const cz_groth16_vk_t *vk, cz_groth16_vk_point_id_t which, size_t index,
                        uint8_t *out, size_t cap, cz_error_t *err)
{
    cz__err_clear(err);
    if (!vk || !out)
        return cz__err(err, CZ_EINVAL, "cz_groth16_vk_point: NULL argument");
    const blst_p1_affine *g1 = NULL;
    const blst_p2_affine *g2 = NULL;
    const cz_vk_t *v = &vk->vk;
    switch (which) {
    case CZ_VK_ALPHA_G1: g1 = &v->alpha_g1; break;
    case CZ_VK_BETA_G1: g1 = &v->beta_g1; break;
    case CZ_VK_DELTA_G1: g1 = &v->delta_g1; break;
    case CZ_VK_BETA_G2: g2 = &v->beta_g2; break;
    case CZ_VK_GAMMA_G2: g2 = &v->gamma_g2; break;
    case CZ_VK_DELTA_G2: g2 = &v->delta_g2; break;
    case CZ_VK_IC:
        if (index >= v->n_ic)
            return cz__err(err, CZ_EINVAL, "vk point: IC index %zu out of range (the vk has %zu)",
                           index, v->n_ic);
        g1 = &v->ic[index];
        break;
    default: return cz__err(err, CZ_EINVAL, "vk point: unknown point %d", (int)which);
    }
    if (which != CZ_VK_IC && index)
        return cz__err(err, CZ_EINVAL, "vk point: index %zu given for a point that is not IC",
                       index);
    size_t need = g1 ? CZ_G1_UNCOMPRESSED_BYTES : CZ_G2_UNCOMPRESSED_BYTES;
    if (cap < need)
        return cz__err(err, CZ_EINVAL, "vk point: %zu bytes of room, the point takes %zu", cap,
                       need);
    if (g1)
        blst_p1_affine_serialize(out, g1);
    else
        blst_p2_affine_serialize(out, g2);
    return (int)need;
}

int cz_groth16_proof_points(uint8_t out[CZ_GROTH16_PROOF_UNCOMPRESSED_BYTES],
                            const uint8_t proof[CZ_GROTH16_PROOF_BYTES], cz_error_t *err)
{
    if (!out || !proof)
        return cz__err(err, CZ_EINVAL, "cz_groth16_proof_points: NULL argument");
    cz_ctx_t *ctx;
    int rc = ctx_open(&ctx, err);
    if (rc)
        return rc;
    cz_proof_t p;
    if ((rc = cz_proof_decode(ctx, &p, proof)) == CZ_ERANGE)
        rc = CZ_EFORMAT; /* off the subgroup: a bad point, as off the curve */
    if (rc == CZ_OK) {
        blst_p1_affine_serialize(out, &p.a);
        blst_p2_affine_serialize(out + CZ_G1_UNCOMPRESSED_BYTES, &p.b);
        blst_p1_affine_serialize(out + CZ_G1_UNCOMPRESSED_BYTES + CZ_G2_UNCOMPRESSED_BYTES, &p.c);
    }
    return ctx_close(ctx, err, rc);
}

int cz_groth16_verify(const cz_groth16_vk_t *vk, const uint8_t *proof, size_t len,
                      const uint8_t *inputs, size_t n_inputs, cz_error_t *err)
{
    if (!vk || (!proof && len) || (!inputs && n_inputs))
        return cz__err(err, CZ_EINVAL, "cz_groth16_verify: NULL argument");
    cz_ctx_t *ctx;
    int rc = ctx_open(&ctx, err);
    if (rc)
        return rc;
    const size_t n = len / CZ_PROOF_BYTES, per = cz_pvk_num_inputs(vk->pvk);
    cz_proof_t *proofs = NULL;
    cz_fr *fr = NULL;
    if (len == 0 || len % CZ_PROOF_BYTES)
        rc = cz_fail(ctx, CZ_EFORMAT, "proof: %zu bytes is not a whole number of 192-byte proofs",
                     len);
    else if (n_inputs != n * per)
        rc = cz_fail(ctx, CZ_EMISMATCH,
                     "public inputs: %zu given, %zu proof%s x %zu inputs (the vk's) = %zu wanted",
                     n_inputs, n, n == 1 ? "" : "s", per, n * per);
    else if (!(proofs = calloc(n, sizeof *proofs)) || !(fr = calloc(n_inputs + 1, sizeof *fr)))
        rc = cz_fail(ctx, CZ_ENOMEM, "verify");
    for (size_t i = 0; rc == CZ_OK && i < n_inputs; i++)
        if (cz_fr_from_repr(&fr[i], inputs + 32 * i) != CZ_OK)
            rc = cz_fail(ctx, CZ_EINVAL,
                         "public input %zu (proof %zu, input %zu) is not a field element "
                         "(not below the modulus)",
                         i, i / per, i % per);
    if (rc == CZ_OK && (rc = cz_proofs_decode(ctx, proofs, n, proof, len)) == CZ_ERANGE)
        rc = CZ_EFORMAT; /* off the subgroup: a bad point, as off the curve */
    if (rc == CZ_OK)
        rc = cz_verify_batch(ctx, vk->pvk, proofs, n, fr, per);
    free(proofs);
    free(fr);
    return ctx_close(ctx, err, rc);
}

int cz_fr_repr_parse(uint8_t out[32], const char *text, cz_error_t *err)
{
    cz__err_clear(err);
    if (!out || !text)
        return cz__err(err, CZ_EINVAL, "cz_fr_repr_parse: NULL argument");
    cz_fr a;
    int rc = cz_fr_parse(&a, text);
    if (rc == CZ_ERANGE)
        return cz__err(err, rc, "'%.80s' is not below the field's modulus", text);
    if (rc)
        return cz__err(err, rc, "'%.80s' is not a decimal or 0x-hex number", text);
    cz_fr_to_repr(out, &a);
    return CZ_OK;
}

int cz_fr_repr_format(char *out, size_t cap, const uint8_t repr[32], bool decimal, cz_error_t *err)
{
    cz__err_clear(err);
    if (!out || !repr)
        return cz__err(err, CZ_EINVAL, "cz_fr_repr_format: NULL argument");
    cz_fr a;
    if (cz_fr_from_repr(&a, repr) != CZ_OK)
        return cz__err(err, CZ_EINVAL, "not a field element (not below the modulus)");
    char text[80];
    if (!decimal) {
        cz_fr_to_hex(text, &a);
    } else { /* repeated division by 10 of the little-endian repr */
        uint8_t v[32];
        memcpy(v, repr, 32);
        char rev[80];
        size_t n = 0;
        bool zero;
        do {
            unsigned rem = 0;
            zero = true;
            for (size_t i = 32; i-- > 0;) {
                unsigned cur = (rem << 8) | v[i];
                v[i] = (uint8_t)(cur / 10);
                rem = cur % 10;
                zero &= v[i] == 0;
            }
            rev[n++] = (char)('0' + rem);
        } while (!zero);
        for (size_t i = 0; i < n; i++)
            text[i] = rev[n - 1 - i];
        text[n] = '\0';
    }
    size_t len = strlen(text);
    if (cap <= len)
        return cz__err(err, CZ_EINVAL, "%zu bytes of room, the text takes %zu", cap, len + 1);
    memcpy(out, text, len + 1);
    return CZ_OK;
}
