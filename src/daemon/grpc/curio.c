/*
 * daemon/grpc/curio.c — Curio's requests as daemon jobs (see curio.h).
 */
#include "daemon/grpc/curio.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/porep/stacked.h"
#include "porep/c2.h"

/* ---- base64 (RFC 4648 section 4: what Go's encoding/json writes) -------- */

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

int cz__base64_decode(const char *in, size_t in_len, uint8_t *out, size_t *out_len, size_t *bad)
{
    *out_len = 0;
    *bad = 0;
    if (in_len % 4) {
        *bad = in_len;
        return CZ_EFORMAT;
    }
    size_t o = 0;
    for (size_t i = 0; i < in_len; i += 4) {
        int v[4];
        bool last = i + 4 == in_len;
        for (int k = 0; k < 4; k++) {
            unsigned char c = (unsigned char)in[i + k];
            /* '=' only as the last one or two characters */
            if (c == '=' && last && (k == 3 || (k == 2 && in[i + 3] == '='))) {
                v[k] = -2;
                continue;
            }
            v[k] = b64_value(c);
            if (v[k] < 0 || (k == 3 && v[2] == -2)) {
                *bad = i + (size_t)k;
                return CZ_EFORMAT;
            }
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 |
                     (uint32_t)(v[2] < 0 ? 0 : v[2]) << 6 | (uint32_t)(v[3] < 0 ? 0 : v[3]);
        out[o++] = (uint8_t)(w >> 16);
        if (v[2] >= 0)
            out[o++] = (uint8_t)(w >> 8);
        if (v[3] >= 0)
            out[o++] = (uint8_t)w;
    }
    *out_len = o;
    return CZ_OK;
}

/* ---- POREP_SEAL_COMMIT ---------------------------------------------------- */

static int wrapper_uint(cz_ctx_t *ctx, const json_t *w, const char *key, uint64_t *out)
{
    const json_t *v = json_object_get(w, key);
    if (!v)
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof.%s: missing (Curio's C1 wrapper has "
                                       "SectorNum, Phase1Out, SectorSize)", key);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof.%s: must be a non-negative integer", key);
    *out = (uint64_t)json_integer_value(v);
    return CZ_OK;
}

/* The C1 JSON text in the wrapper's Phase1Out (caller frees *c1). */
static int wrapper_c1(cz_ctx_t *ctx, const json_t *w, char **c1, size_t *len)
{
    const json_t *v = json_object_get(w, "Phase1Out");
    if (!v)
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof.Phase1Out: missing (the base64 of the C1 JSON)");
    if (!json_is_string(v))
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof.Phase1Out: must be a string (the base64 of "
                                       "the C1 JSON)");
    const char *text = json_string_value(v);
    size_t n = json_string_length(v), bad;
    if (n == 0)
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof.Phase1Out: empty (the base64 of the C1 JSON)");
    uint8_t *buf = malloc(n / 4 * 3 + 1);
    if (!buf)
        return cz_fail(ctx, CZ_ENOMEM, "vanilla_proof.Phase1Out: %zu bytes", n);
    size_t got;
    if (cz__base64_decode(text, n, buf, &got, &bad) != CZ_OK) {
        free(buf);
        if (bad >= n)
            return cz_fail(ctx, CZ_EINVAL, "vanilla_proof.Phase1Out: not base64: %zu characters "
                                           "is not a multiple of 4", n);
        unsigned char c = (unsigned char)text[bad];
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof.Phase1Out: not base64: %s%c%s (0x%02x) at "
                       "offset %zu", c >= 32 && c < 127 ? "'" : "", c >= 32 && c < 127 ? c : '?',
                       c >= 32 && c < 127 ? "'" : "", c, bad);
    }
    if (memchr(buf, 0, got)) {
        free(buf);
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof.Phase1Out: the decoded C1 holds a NUL byte "
                                       "(it must be the SealCommitPhase1Output JSON text)");
    }
    buf[got] = '\0';
    *c1 = (char *)buf;
    *len = got;
    return CZ_OK;
}

static int map_porep(cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r, json_t *req)
{
    if (r->vanilla_proof.len == 0)
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof: empty (POREP_SEAL_COMMIT takes Curio's C1 "
                       "wrapper JSON {\"SectorNum\",\"Phase1Out\",\"SectorSize\"})");
    json_error_t jerr;
    json_t *w = json_loadb((const char *)r->vanilla_proof.data, r->vanilla_proof.len,
                           JSON_REJECT_DUPLICATES, &jerr);
    if (!w)
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof: not JSON (line %d, column %d: %s)",
                       jerr.line, jerr.column, jerr.text);
    int rc = CZ_OK;
    const char *key;
    json_t *val;
    if (!json_is_object(w))
        rc = cz_fail(ctx, CZ_EINVAL, "vanilla_proof: must be a JSON object (Curio's C1 wrapper)");
    else
        json_object_foreach(w, key, val)
            if (rc == CZ_OK && strcmp(key, "SectorNum") && strcmp(key, "Phase1Out") &&
                strcmp(key, "SectorSize"))
                rc = cz_fail(ctx, CZ_EINVAL, "vanilla_proof.%.64s: unknown field (Curio's C1 "
                             "wrapper has SectorNum, Phase1Out, SectorSize)", key);
    uint64_t num = 0, size = 0;
    if (rc == CZ_OK)
        rc = wrapper_uint(ctx, w, "SectorNum", &num);
    if (rc == CZ_OK)
        rc = wrapper_uint(ctx, w, "SectorSize", &size);
    if (rc == CZ_OK && r->sector_number && num != r->sector_number)
        rc = cz_fail(ctx, CZ_EINVAL, "vanilla_proof.SectorNum: %" PRIu64 ", but sector_number is %"
                     PRIu64, num, r->sector_number);
    if (rc == CZ_OK && r->sector_size && size != r->sector_size)
        rc = cz_fail(ctx, CZ_EINVAL, "vanilla_proof.SectorSize: %" PRIu64 ", but sector_size is %"
                     PRIu64, size, r->sector_size);
    char *c1 = NULL;
    size_t c1_len = 0;
    if (rc == CZ_OK)
        rc = wrapper_c1(ctx, w, &c1, &c1_len);
    json_decref(w);
    if (rc != CZ_OK)
        return rc;
    json_t *input = json_stringn(c1, c1_len);
    free(c1);
    if (!input)   /* jansson refuses text that is not UTF-8 */
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof.Phase1Out: the decoded C1 is not UTF-8 "
                                       "text (it must be the SealCommitPhase1Output JSON)");
    if (json_object_set_new(req, "input", input) ||
        (size && json_object_set_new(req, "sector_size", json_integer((json_int_t)size))))
        return cz_fail(ctx, CZ_ENOMEM, "request");
    return CZ_OK;
}

/* ---- the kind table --------------------------------------------------------- */

typedef struct {
    Cuzk__V1__ProofKind kind;
    const char *name;          /* the ProofKind's name, as GetStatus reports queues */
    const char *job_kind;      /* the daemon job kind; NULL: not supported yet */
    int default_priority;      /* for PRIORITY_UNSPECIFIED (1 LOW .. 4 CRITICAL) */
    int (*map)(cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r, json_t *req);
} grpc_kind_t;

/* priorities: filecoin-project/curio extern/cuzk cuzk-core Priority::default_for */
static const grpc_kind_t kinds[] = {
    { CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT, "POREP_SEAL_COMMIT", "porep-c2", 2, map_porep },
    { CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE, "SNAP_DEALS_UPDATE", NULL, 2, NULL },
    { CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION, "WINDOW_POST_PARTITION", NULL, 3, NULL },
    { CUZK__V1__PROOF_KIND__WINNING_POST, "WINNING_POST", NULL, 4, NULL },
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

size_t cz__grpc_kind_count(void) { return NKINDS; }
const char *cz__grpc_kind_name(size_t i) { return i < NKINDS ? kinds[i].name : NULL; }

const char *cz__grpc_queue_name(const char *job_kind)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (kinds[i].job_kind && !strcmp(kinds[i].job_kind, job_kind))
            return kinds[i].name;
    return job_kind;
}

int cz__grpc_job_request(cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r, json_t **out)
{
    *out = NULL;
    const grpc_kind_t *k = NULL;
    for (size_t i = 0; i < NKINDS && !k; i++)
        if (kinds[i].kind == r->proof_kind)
            k = &kinds[i];
    if (!k)
        return cz_fail(ctx, CZ_EINVAL, "proof_kind: %d is not a ProofKind (POREP_SEAL_COMMIT 1, "
                       "SNAP_DEALS_UPDATE 2, WINDOW_POST_PARTITION 3, WINNING_POST 4)",
                       (int)r->proof_kind);
    if (!k->job_kind)
        return cz_fail(ctx, CZ_EUNAVAIL, "proof_kind: %s is not supported yet by cuzkd (only "
                       "POREP_SEAL_COMMIT is)", k->name);
    int prio = (int)r->priority;
    if (prio < 0 || prio > 4)
        return cz_fail(ctx, CZ_EINVAL, "priority: %d is not a Priority (0 default, LOW 1 .. CRITICAL 4)",
                       prio);
    json_t *req = json_pack("{s:s,s:i}", "kind", k->job_kind, "priority",
                            prio ? prio : k->default_priority);
    if (!req)
        return cz_fail(ctx, CZ_ENOMEM, "request");
    int rc = CZ_OK;
    if (r->request_id && *r->request_id &&
        json_object_set_new(req, "request_id", json_string(r->request_id)))
        rc = cz_fail(ctx, CZ_EINVAL, "request_id: must be UTF-8 text");
    if (rc == CZ_OK)
        rc = k->map(ctx, r, req);
    if (rc != CZ_OK) {
        json_decref(req);
        return rc;
    }
    *out = req;
    return CZ_OK;
}

/* ---- circuit ids ---------------------------------------------------------- */

int cz__grpc_params_name(cz_ctx_t *ctx, const char *id, char *out, size_t cap)
{
    static const struct { const char *suffix; uint64_t bytes; } sizes[] = {
        { "2k", 2048ull }, { "8m", 8ull << 20 }, { "512m", 512ull << 20 },
        { "32g", 32ull << 30 }, { "64g", 64ull << 30 },
    };
    static const char *const unsupported[] = { "wpost-", "winning-", "snap-" };
    if (!id || !*id)
        return cz_fail(ctx, CZ_EINVAL, "circuit_id: empty (e.g. \"porep-32g\" or a params name)");
    for (size_t i = 0; i < sizeof unsupported / sizeof *unsupported; i++)
        if (!strncmp(id, unsupported[i], strlen(unsupported[i])))
            return cz_fail(ctx, CZ_EUNAVAIL, "circuit_id: '%.64s': that proof kind is not supported "
                           "yet by cuzkd", id);
    if (!strncmp(id, "porep-", 6)) {
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            if (!strcmp(id + 6, sizes[i].suffix)) {
                cz_porep_params_t p;
                int rc = cz_porep_params_sector(&p, sizes[i].bytes);
                return rc ? cz_fail(ctx, rc, "circuit_id: %s", id)
                          : cz_c2_params_name(out, cap, &p, "params");
            }
        return cz_fail(ctx, CZ_EINVAL, "circuit_id: '%.64s': porep- takes 2k, 8m, 512m, 32g or 64g", id);
    }
    if (strlen(id) >= cap)
        return cz_fail(ctx, CZ_EINVAL, "circuit_id: too long");
    snprintf(out, cap, "%s", id);
    return CZ_OK;
}
