/*
 * kinds/post/input.c — the PoSt input file (JSON, see kinds/post/input.h).
 */
#include "kinds/post/input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "circuits/post/post_int.h"
#include "core/hex.h"
#include "core/json_error.h"

void cz_post_input_free(cz_post_input_t *in)
{
    if (!in)
        return;
    for (size_t i = 0; in->vanilla && i < in->nvanilla; i++)
        free(in->vanilla[i]);
    free(in->vanilla);
    free(in->vanilla_len);
    free(in->sectors);
    memset(in, 0, sizeof *in);
}

void cz_post_input_request(const cz_post_input_t *in, cz_post_request_t *req)
{
    memset(req, 0, sizeof *req);
    req->registered_proof = in->proof ? in->proof->abi : UINT64_MAX;
    req->randomness = in->randomness;
    req->randomness_len = 32;
    req->miner_id = in->miner_id;
    req->partition_index = in->partition;
    req->nvanilla = in->nvanilla;
    req->vanilla = (const uint8_t *const *)in->vanilla;
    req->vanilla_len = in->vanilla_len;
}

void cz_post_input_public(const cz_post_input_t *in, cz_post_public_t *pub)
{
    memset(pub, 0, sizeof *pub);
    pub->proof = in->proof;
    memcpy(pub->randomness, in->randomness, 32);
    memcpy(pub->prover_id, in->prover_id, 32);
    pub->partition = in->partition;
    pub->nsectors = in->nsectors;
    pub->sectors = in->sectors;
}

/* ---- reading ------------------------------------------------------------------ */

static int get_hex32(cz_ctx_t *ctx, const json_t *obj, const char *key, uint8_t out[32],
                     const char *where)
{
    const char *s = json_string_value(json_object_get(obj, key));
    if (!s || strlen(s) != 64 || !cz_hex_decode(out, s, 32))
        return cz_fail(ctx, CZ_EFORMAT, "post input: %s\"%s\" wants 64 hex digits", where, key);
    return CZ_OK;
}

static int get_u64(cz_ctx_t *ctx, const json_t *obj, const char *key, uint64_t *out,
                   const char *where)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return cz_fail(ctx, CZ_EFORMAT, "post input: %s\"%s\" wants an unsigned integer", where,
                       key);
    *out = (uint64_t)json_integer_value(v);
    return CZ_OK;
}

static int parse(cz_ctx_t *ctx, cz_post_input_t *in, const json_t *root)
{
    const char *name = json_string_value(json_object_get(root, "registered_proof"));
    if (!(in->proof = cz_post_proof_by_name(name)))
        return cz_fail(ctx, CZ_EFORMAT, "post input: \"registered_proof\" %s", /* not echoed */
                       name ? "is not a RegisteredPoStProof name (StackedDrgWindow32GiBV1_2, ...)"
                            : "is missing");
    uint64_t part = 0;
    uint8_t want[32];
    CZ__QTRY(get_u64(ctx, root, "miner_id", &in->miner_id, ""));
    CZ__QTRY(get_u64(ctx, root, "partition_index", &part, ""));
    CZ__QTRY(get_hex32(ctx, root, "randomness", in->randomness, ""));
    CZ__QTRY(get_hex32(ctx, root, "prover_id", in->prover_id, ""));
    cz_post_prover_id(want, in->miner_id);
    if (memcmp(want, in->prover_id, 32))
        return cz_fail(ctx, CZ_EFORMAT,
                       "post input: \"prover_id\" is not the LEB128 of "
                       "\"miner_id\" %llu",
                       (unsigned long long)in->miner_id);
    in->partition = (unsigned)part;
    const json_t *secs = json_object_get(root, "sectors");
    const json_t *vans = json_object_get(root, "vanilla_proofs");
    if (!json_is_array(secs) || !json_array_size(secs))
        return cz_fail(ctx, CZ_EFORMAT, "post input: \"sectors\" wants a non-empty array");
    if (!json_is_array(vans))
        return cz_fail(ctx, CZ_EFORMAT, "post input: \"vanilla_proofs\" wants an array");
    in->nsectors = json_array_size(secs);
    in->nvanilla = json_array_size(vans);
    in->sectors = calloc(in->nsectors, sizeof *in->sectors);
    in->vanilla = calloc(in->nvanilla ? in->nvanilla : 1, sizeof *in->vanilla);
    in->vanilla_len = calloc(in->nvanilla ? in->nvanilla : 1, sizeof *in->vanilla_len);
    if (!in->sectors || !in->vanilla || !in->vanilla_len)
        return cz_fail(ctx, CZ_ENOMEM, "post input");
    char where[48];
    for (size_t i = 0; i < in->nsectors; i++) {
        const json_t *s = json_array_get(secs, i);
        snprintf(where, sizeof where, "sectors[%zu].", i);
        CZ__QTRY(get_u64(ctx, s, "sector_id", &in->sectors[i].id, where));
        CZ__QTRY(get_hex32(ctx, s, "comm_r", in->sectors[i].comm_r, where));
    }
    for (size_t i = 0; i < in->nvanilla; i++) {
        const char *h = json_string_value(json_array_get(vans, i));
        size_t n = h ? strlen(h) : 1;
        if (!h || n % 2)
            return cz_fail(ctx, CZ_EFORMAT, "post input: vanilla_proofs[%zu] wants hex", i);
        if (!(in->vanilla[i] = malloc(n / 2 ? n / 2 : 1)))
            return cz_fail(ctx, CZ_ENOMEM, "post input");
        if (!cz_hex_decode(in->vanilla[i], h, n / 2))
            return cz_fail(ctx, CZ_EFORMAT, "post input: vanilla_proofs[%zu] wants hex", i);
        in->vanilla_len[i] = n / 2;
    }
    return CZ_OK;
}

static int parse_root(cz_ctx_t *ctx, cz_post_input_t *in, json_t *root, const char *what,
                      const json_error_t *err)
{
    char why[160];
    if (!root)
        return cz_fail(ctx, CZ_EFORMAT, "post input: %s line %d, column %d: %s", what, err->line,
                       err->column, cz_json_error_what(err, why, sizeof why));
    int rc = json_is_object(root) ? parse(ctx, in, root)
                                  : cz_fail(ctx, CZ_EFORMAT, "post input: not a JSON object");
    json_decref(root);
    if (rc)
        cz_post_input_free(in);
    return rc;
}

int cz_post_input_parse(cz_ctx_t *ctx, cz_post_input_t *in, const char *text, size_t len)
{
    memset(in, 0, sizeof *in);
    json_error_t err;
    return parse_root(ctx, in, json_loadb(text, len, JSON_REJECT_DUPLICATES, &err), "JSON", &err);
}

int cz_post_input_load(cz_ctx_t *ctx, cz_post_input_t *in, const char *path)
{
    memset(in, 0, sizeof *in);
    FILE *f = fopen(path, "rb");
    if (!f)
        return cz_fail(ctx, CZ_EIO, "post input: cannot open %s", path);
    json_error_t err;
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
    fclose(f);
    return parse_root(ctx, in, root, path, &err);
}

/* ---- writing ------------------------------------------------------------------ */

static json_t *hex_json(const uint8_t *b, size_t n)
{
    char *s = malloc(2 * n + 1);
    if (!s)
        return NULL;
    cz_hex_encode(s, b, n);
    json_t *j = json_string(s);
    free(s);
    return j;
}

int cz_post_input_json(cz_ctx_t *ctx, const cz_post_input_t *in, json_t **out)
{
    *out = NULL;
    if (!in->proof)
        return cz_fail(ctx, CZ_EINVAL, "post input: no registered proof");
    json_t *root = json_object(), *secs = json_array(), *vans = json_array();
    int bad = !root || !secs || !vans;
    if (!bad) {
        bad |= json_object_set_new(root, "registered_proof", json_string(in->proof->name));
        bad |= json_object_set_new(root, "registered_proof_abi",
                                   json_integer((json_int_t)in->proof->abi));
        bad |= json_object_set_new(root, "miner_id", json_integer((json_int_t)in->miner_id));
        bad |= json_object_set_new(root, "prover_id", hex_json(in->prover_id, 32));
        bad |= json_object_set_new(root, "randomness", hex_json(in->randomness, 32));
        bad |= json_object_set_new(root, "partition_index", json_integer(in->partition));
    }
    for (size_t i = 0; !bad && i < in->nsectors; i++) {
        json_t *s = json_object();
        bad |= !s ||
               json_object_set_new(s, "sector_id", json_integer((json_int_t)in->sectors[i].id)) ||
               json_object_set_new(s, "comm_r", hex_json(in->sectors[i].comm_r, 32)) ||
               json_array_append_new(secs, s);
    }
    for (size_t i = 0; !bad && i < in->nvanilla; i++)
        bad |= json_array_append_new(vans, hex_json(in->vanilla[i], in->vanilla_len[i]));
    if (!bad) {
        bad |= json_object_set_new(root, "sectors", secs);
        secs = NULL;
        bad |= json_object_set_new(root, "vanilla_proofs", vans);
        vans = NULL;
    }
    json_decref(secs);
    json_decref(vans);
    if (bad) {
        json_decref(root);
        return cz_fail(ctx, CZ_ENOMEM, "post input: building the JSON");
    }
    *out = root;
    return CZ_OK;
}

int cz_post_input_save(cz_ctx_t *ctx, const cz_post_input_t *in, const char *path)
{
    json_t *root;
    CZ__QTRY(cz_post_input_json(ctx, in, &root));
    int rc = CZ_OK;
    if (json_dump_file(root, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER))
        rc = cz_fail(ctx, CZ_EIO, "post input: cannot write %s", path);
    json_decref(root);
    return rc;
}

/* ---- from Curio's fields --------------------------------------------------------- */

/* Copy and parse vanilla proof |i| of |req|: its sector id and comm_r. */
static int take_vanilla(cz_ctx_t *ctx, const cz_post_params_t *p, const cz_post_request_t *req,
                        size_t i, cz_post_input_t *in)
{
    const uint8_t *b = req->vanilla[i];
    size_t n = req->vanilla_len[i];
    if (!b || n == 0)
        return cz_fail(ctx, CZ_EFORMAT,
                       "vanilla_proofs[%zu]: empty (a bincode "
                       "FallbackPoStSectorProof)",
                       i);
    cz_post_vanilla_t v;
    int rc = cz_post_vanilla_parse(ctx, p, b, n, &v);
    if (rc) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
        return cz_fail(ctx, rc == CZ_ENOMEM ? rc : CZ_EFORMAT,
                       "vanilla_proofs[%zu] (%zu "
                       "bytes): %s",
                       i, n, msg);
    }
    in->sectors[i].id = v.sector_id;
    memcpy(in->sectors[i].comm_r, v.comm_r, 32);
    cz_post_vanilla_free(&v);
    if (!(in->vanilla[i] = malloc(n)))
        return cz_fail(ctx, CZ_ENOMEM, "vanilla_proofs[%zu]: %zu bytes", i, n);
    memcpy(in->vanilla[i], b, n);
    in->vanilla_len[i] = n;
    return CZ_OK;
}

static int from_request(cz_ctx_t *ctx, const cz_post_request_t *req, cz_post_input_t *in)
{
    if (!(in->proof = cz_post_proof_by_abi(req->registered_proof)))
        return cz_fail(ctx, CZ_EINVAL,
                       "registered_proof: %llu is not a RegisteredPoStProof "
                       "(0-4 StackedDrgWinning*, 5-14 StackedDrgWindow*)",
                       (unsigned long long)req->registered_proof);
    if (!req->randomness || req->randomness_len != 32)
        return cz_fail(ctx, CZ_EINVAL, "randomness: %zu bytes, want 32 (the PoSt challenge seed)",
                       req->randomness ? req->randomness_len : 0);
    cz_post_params_t p;
    if (cz_post_params_sector(&p, in->proof->kind, in->proof->sector_bytes))
        return cz_fail(ctx, CZ_EINVAL, "registered_proof: no circuit for %s", in->proof->name);
    /* winning: one challenged sector (RFP api/winning_post.rs, sector_count 1);
     * window: up to the partition's sectors (RFP api/window_post.rs) */
    const size_t most = in->proof->kind == CZ_POST_WINNING ? 1 : p.sectors;
    if (req->nvanilla == 0 || !req->vanilla || !req->vanilla_len)
        return cz_fail(ctx, CZ_EINVAL,
                       "vanilla_proofs: none (one bincode FallbackPoStSectorProof "
                       "per %s sector)",
                       in->proof->kind == CZ_POST_WINNING ? "challenged" : "partition");
    if (req->nvanilla > most)
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proofs: %zu, a %s partition proves %s%zu sector%s",
                       req->nvanilla, in->proof->name, most > 1 ? "at most " : "", most,
                       most > 1 ? "s" : "");
    in->miner_id = req->miner_id;
    cz_post_prover_id(in->prover_id, req->miner_id);
    memcpy(in->randomness, req->randomness, 32);
    in->partition = req->partition_index;
    in->nsectors = in->nvanilla = req->nvanilla;
    in->sectors = calloc(req->nvanilla, sizeof *in->sectors);
    in->vanilla = calloc(req->nvanilla, sizeof *in->vanilla);
    in->vanilla_len = calloc(req->nvanilla, sizeof *in->vanilla_len);
    if (!in->sectors || !in->vanilla || !in->vanilla_len)
        return cz_fail(ctx, CZ_ENOMEM, "post input: %zu vanilla proofs", req->nvanilla);
    for (size_t i = 0; i < req->nvanilla; i++)
        CZ__QTRY(take_vanilla(ctx, &p, req, i, in));
    return CZ_OK;
}

int cz_post_input_from_request(cz_ctx_t *ctx, const cz_post_request_t *req, cz_post_input_t *out)
{
    memset(out, 0, sizeof *out);
    int rc = from_request(ctx, req, out);
    if (rc)
        cz_post_input_free(out);
    return rc;
}
