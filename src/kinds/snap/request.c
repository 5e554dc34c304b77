/*
 * kinds/snap/request.c — the SnapDeals request file (request.h).
 */
#include "kinds/snap/request.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hex.h"
#include "core/json_error.h"

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static char *b64_encode(const uint8_t *in, size_t n)
{
    char *out = malloc(4 * ((n + 2) / 3) + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        *o++ = B64[v >> 18];
        *o++ = B64[(v >> 12) & 63];
        *o++ = i + 1 < n ? B64[(v >> 6) & 63] : '=';
        *o++ = i + 2 < n ? B64[v & 63] : '=';
    }
    *o = 0;
    return out;
}

static int b64_value(char c)
{
    const char *p = c ? strchr(B64, c) : NULL;
    return p ? (int)(p - B64) : -1;
}

/* Standard base64 with padding (Go's encoding/json for []byte). */
static int b64_decode(const char *s, uint8_t **out, size_t *n)
{
    size_t len = strlen(s);
    if (len % 4)
        return CZ_EFORMAT;
    uint8_t *b = malloc(len / 4 * 3 + 1);
    if (!b)
        return CZ_ENOMEM;
    size_t w = 0;
    for (size_t i = 0; i < len; i += 4) {
        int v[4];
        for (int j = 0; j < 4; j++) {
            v[j] = s[i + j] == '=' && i + 4 == len && j >= 2 ? 0 : b64_value(s[i + j]);
            if (v[j] < 0 || (j == 2 && s[i + 2] == '=' && s[i + 3] != '=')) {
                free(b);
                return CZ_EFORMAT;
            }
        }
        uint32_t x = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 |
                     (uint32_t)v[3];
        b[w++] = (uint8_t)(x >> 16);
        if (s[i + 2] != '=')
            b[w++] = (uint8_t)(x >> 8);
        if (s[i + 3] != '=')
            b[w++] = (uint8_t)x;
    }
    *out = b;
    *n = w;
    return CZ_OK;
}

void cz_snap_request_free(cz_snap_request_t *r)
{
    if (!r)
        return;
    for (size_t i = 0; r->proofs && i < r->nproofs; i++)
        free(r->proofs[i]);
    free(r->proofs);
    free(r->lens);
    memset(r, 0, sizeof *r);
}

static int hex_field(cz_ctx_t *ctx, json_t *root, const char *name, uint8_t out[32])
{
    const char *s = json_string_value(json_object_get(root, name));
    if (!s || strlen(s) != 64 || !cz_hex_decode(out, s, 32))
        return cz_fail(ctx, CZ_EFORMAT, "snap request: \"%s\" wants 64 hex digits", name);
    return CZ_OK;
}

int cz_snap_request_parse(cz_ctx_t *ctx, cz_snap_request_t *out, const char *json, size_t len)
{
    memset(out, 0, sizeof *out);
    json_error_t err;
    char what[160];
    json_t *root = json_loadb(json, len, 0, &err);
    if (!root)
        return cz_fail(ctx, CZ_EFORMAT, "snap request: JSON line %d, column %d: %s", err.line,
                       err.column, cz_json_error_what(&err, what, sizeof what));
    int rc = CZ_OK;
    json_t *rp = json_object_get(root, "registered_proof"), *vp;
    if (!json_is_integer(rp) || json_integer_value(rp) < 0)
        rc = cz_fail(ctx, CZ_EFORMAT, "snap request: \"registered_proof\" wants an integer 0-4");
    if (rc == CZ_OK) {
        out->registered_proof = (uint64_t)json_integer_value(rp);
        rc = hex_field(ctx, root, "comm_r_old", out->comm_r_old);
    }
    if (rc == CZ_OK)
        rc = hex_field(ctx, root, "comm_r_new", out->comm_r_new);
    if (rc == CZ_OK)
        rc = hex_field(ctx, root, "comm_d_new", out->comm_d_new);
    vp = json_object_get(root, "vanilla_proofs");
    if (rc == CZ_OK && (!json_is_array(vp) || !json_array_size(vp)))
        rc = cz_fail(ctx, CZ_EFORMAT,
                     "snap request: \"vanilla_proofs\" wants a non-empty "
                     "array of base64 strings");
    if (rc == CZ_OK) {
        out->nproofs = json_array_size(vp);
        out->proofs = calloc(out->nproofs, sizeof *out->proofs);
        out->lens = calloc(out->nproofs, sizeof *out->lens);
        if (!out->proofs || !out->lens)
            rc = cz_fail(ctx, CZ_ENOMEM, "snap request");
    }
    for (size_t i = 0; rc == CZ_OK && i < out->nproofs; i++) {
        const char *s = json_string_value(json_array_get(vp, i));
        if (!s || b64_decode(s, &out->proofs[i], &out->lens[i]))
            rc = cz_fail(ctx, CZ_EFORMAT, "snap request: vanilla_proofs[%zu] is not base64", i);
    }
    json_decref(root);
    if (rc)
        cz_snap_request_free(out);
    return rc;
}

int cz_snap_request_load(cz_ctx_t *ctx, cz_snap_request_t *out, const char *path)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return cz_fail(ctx, CZ_EIO, "snap request: cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    int rc = buf && fread(buf, 1, (size_t)n, f) == (size_t)n
                 ? CZ_OK
                 : cz_fail(ctx, CZ_EIO, "snap request: cannot read %s", path);
    fclose(f);
    if (rc == CZ_OK)
        rc = cz_snap_request_parse(ctx, out, buf, (size_t)n);
    free(buf);
    return rc;
}

int cz_snap_request_json(cz_ctx_t *ctx, const cz_snap_request_t *r, json_t **out)
{
    char hex[65];
    *out = NULL;
    json_t *root = json_object(), *arr = json_array();
    int bad = !root || !arr;
    if (!bad) {
        bad |= json_object_set_new(root, "registered_proof",
                                   json_integer((json_int_t)r->registered_proof));
        cz_hex_encode(hex, r->comm_r_old, 32);
        bad |= json_object_set_new(root, "comm_r_old", json_string(hex));
        cz_hex_encode(hex, r->comm_r_new, 32);
        bad |= json_object_set_new(root, "comm_r_new", json_string(hex));
        cz_hex_encode(hex, r->comm_d_new, 32);
        bad |= json_object_set_new(root, "comm_d_new", json_string(hex));
    }
    for (size_t i = 0; !bad && i < r->nproofs; i++) {
        char *s = b64_encode(r->proofs[i], r->lens[i]);
        bad |= !s || json_array_append_new(arr, json_string(s));
        free(s);
    }
    if (!bad) {
        bad |= json_object_set_new(root, "vanilla_proofs", arr);
        arr = NULL;
    }
    json_decref(arr);
    if (bad) {
        json_decref(root);
        return cz_fail(ctx, CZ_ENOMEM, "snap request: out of memory");
    }
    *out = root;
    return CZ_OK;
}

int cz_snap_request_write(cz_ctx_t *ctx, const cz_snap_request_t *r, const char *path)
{
    json_t *root;
    int rc = cz_snap_request_json(ctx, r, &root);
    if (rc)
        return rc;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (json_dump_file(root, tmp, JSON_INDENT(1)) || rename(tmp, path))
        rc = cz_fail(ctx, CZ_EIO, "snap request: cannot write %s", path);
    json_decref(root);
    return rc;
}
