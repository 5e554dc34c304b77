/*
 * daemon/grpc/curio.c — Curio's requests as daemon jobs (see curio.h).
 */
#include "daemon/grpc/curio.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/porep/stacked.h"
#include "circuits/update/update.h"
#include "porep/c2.h"
#include "post/input.h"
#include "update/job.h"
#include "update/request.h"

/* Return the error of |expr|, if any. */
#define TRY(expr)                                                                              \
    do {                                                                                       \
        int rc_ = (expr);                                                                      \
        if (rc_ != CZ_OK)                                                                      \
            return rc_;                                                                        \
    } while (0)

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
    /* the sector Curio names, checked against the C1 by the kind; proto3 cannot tell 0
     * from unset: registered_proof 0 (2KiB V1) is not proved anyway, and no miner is f00 */
    if (json_object_set_new(req, "input", input) ||
        (size && json_object_set_new(req, "sector_size", json_integer((json_int_t)size))) ||
        (r->registered_proof &&
         json_object_set_new(req, "registered_proof", json_integer((json_int_t)r->registered_proof))) ||
        (r->miner_id &&
         (json_object_set_new(req, "miner_id", json_integer((json_int_t)r->miner_id)) ||
          json_object_set_new(req, "sector_number", json_integer((json_int_t)num)))))
        return cz_fail(ctx, CZ_ENOMEM, "request");
    return CZ_OK;
}

/* ---- WINNING_POST, WINDOW_POST_PARTITION, SNAP_DEALS_UPDATE ----------------- */

/* These kinds carry their vanilla proofs in vanilla_proofs (field 11); a
 * client that puts one in vanilla_proof (field 10, PoRep's) gets it named. */
static int no_single_vanilla(cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r, const char *kind,
                             const char *each)
{
    if (r->vanilla_proof.len)
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof: %zu bytes, but %s takes vanilla_proofs "
                       "(field 11: %s each), not vanilla_proof (field 10)", r->vanilla_proof.len,
                       kind, each);
    return CZ_OK;
}

/* vanilla_proofs as pointer / length arrays (borrowing |r|; free both). */
static int vanilla_arrays(cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r, uint8_t ***ptrs,
                          size_t **lens)
{
    size_t n = r->n_vanilla_proofs;
    *ptrs = calloc(n ? n : 1, sizeof **ptrs);
    *lens = calloc(n ? n : 1, sizeof **lens);
    if (!*ptrs || !*lens) {
        free(*ptrs);
        free(*lens);
        return cz_fail(ctx, CZ_ENOMEM, "vanilla_proofs: %zu", n);
    }
    for (size_t i = 0; i < n; i++) {
        (*ptrs)[i] = r->vanilla_proofs[i].data;   /* only read */
        (*lens)[i] = r->vanilla_proofs[i].len;
    }
    return CZ_OK;
}

/*
 * WINNING_POST / WINDOW_POST_PARTITION -> {"kind": "winning-post" |
 * "window-post", "input": <the PoSt input JSON, post/input.h>}. Fields
 * (facts: curio extern/cuzk cuzk-core prover.rs prove_winning_post /
 * prove_window_post, which hand them to proofs-api
 * generate_winning_post_with_vanilla / generate_single_window_post_with_vanilla):
 * registered_proof (4) abi.RegisteredPoStProof, miner_id (21) -> prover_id,
 * randomness (22) 32 bytes, partition_index (23, window), vanilla_proofs
 * (11) one bincode FallbackPoStSectorProof per sector, whose sector_id and
 * comm_r are the public sectors. sector_size (3) is checked when set;
 * sector_number (20) is not used (the sector ids are in the proofs).
 */
static int map_post(cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r, json_t *req,
                    cz_post_kind_t kind)
{
    const bool win = kind == CZ_POST_WINNING;
    const char *pk = win ? "WINNING_POST" : "WINDOW_POST_PARTITION";
    const char *takes = win ? "0-4 (StackedDrgWinning*V1)"
                            : "5-9 (StackedDrgWindow*V1) or 10-14 (StackedDrgWindow*V1_1)";
    TRY(no_single_vanilla(ctx, r, pk, "one bincode FallbackPoStSectorProof"));
    const cz_post_proof_t *proof = cz_post_proof_by_abi(r->registered_proof);
    if (!proof)
        return cz_fail(ctx, CZ_EINVAL, "registered_proof: %" PRIu64 " is not a "
                       "RegisteredPoStProof (%s takes %s)", r->registered_proof, pk, takes);
    if (proof->kind != kind)
        return cz_fail(ctx, CZ_EINVAL, "registered_proof: %" PRIu64 " (%s) is a %s proof; %s "
                       "takes %s", r->registered_proof, proof->name, win ? "WindowPoSt" :
                       "WinningPoSt", pk, takes);
    if (r->sector_size && r->sector_size != proof->sector_bytes)
        return cz_fail(ctx, CZ_EINVAL, "sector_size: %" PRIu64 ", but registered_proof %" PRIu64
                       " (%s) is for %" PRIu64 "-byte sectors", r->sector_size,
                       r->registered_proof, proof->name, proof->sector_bytes);
    if (win && r->partition_index)
        return cz_fail(ctx, CZ_EINVAL, "partition_index: %u, but WinningPoSt has one partition "
                       "(0)", r->partition_index);
    uint8_t **v;
    size_t *lens;
    TRY(vanilla_arrays(ctx, r, &v, &lens));
    cz_post_request_t pr = {
        .registered_proof = r->registered_proof,
        .randomness = r->randomness.data,
        .randomness_len = r->randomness.len,
        .miner_id = r->miner_id,
        .partition_index = r->partition_index,
        .nvanilla = r->n_vanilla_proofs,
        .vanilla = (const uint8_t *const *)v,
        .vanilla_len = lens,
    };
    cz_post_input_t in;
    json_t *input = NULL;
    int rc = cz_post_input_from_request(ctx, &pr, &in);
    free(v);
    free(lens);
    if (rc == CZ_OK) {
        rc = cz_post_input_json(ctx, &in, &input);
        cz_post_input_free(&in);
    }
    if (rc == CZ_OK && json_object_set_new(req, "input", input))
        rc = cz_fail(ctx, CZ_ENOMEM, "request");
    return rc;
}

static int map_winning(cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r, json_t *req)
{
    return map_post(ctx, r, req, CZ_POST_WINNING);
}

static int map_window(cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r, json_t *req)
{
    return map_post(ctx, r, req, CZ_POST_WINDOW);
}

/* A commitment: 32 raw bytes, as Curio sends it on both its paths (ProveUpdateCuzk
 * extracts the digests with commcid.CIDTo*CommitmentV1; PSProve has them raw), or a
 * CIDv1's bytes, which other clients may send (update/job.h cz_update_commitment). */
static int commitment(cz_ctx_t *ctx, uint8_t out[32], const ProtobufCBinaryData *b, bool unsealed,
                      const char *field)
{
    if (b->len == 0)
        return cz_fail(ctx, CZ_EINVAL, "%s: missing (32 raw bytes, or the bytes of the %s CID)",
                       field, unsealed ? "unsealed (CommD)" : "sealed (CommR)");
    return cz_update_commitment(ctx, out, b->data, b->len, unsealed, field);
}

/*
 * SNAP_DEALS_UPDATE -> {"kind": "snap", "input": <the snap request JSON,
 * update/request.h>}. Fields (facts: curio lib/ffi/cuzk_funcs.go
 * ProveUpdateCuzk and the PSProve path computeSnap; extern/cuzk cuzk-core
 * prover.rs prove_snap_deals -> proofs-api
 * generate_empty_sector_update_proof_with_vanilla): registered_proof (4)
 * abi.RegisteredUpdateProof 0-4, vanilla_proofs (11) one bincode
 * PartitionProof per partition, comm_r_old / comm_r_new / comm_d_new
 * (30-32) raw 32 bytes (what Curio sends) or CIDv1 bytes. sector_size (3) is 0 on the PSProve
 * path: the size comes from registered_proof, and a set one must agree.
 * sector_number / miner_id (20, 21) are not part of the proof.
 */
static int map_snap(cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r, json_t *req)
{
    TRY(no_single_vanilla(ctx, r, "SNAP_DEALS_UPDATE", "one bincode PartitionProof"));
    uint64_t bytes;
    cz_update_params_t p;
    if (cz_update_sector_bytes(r->registered_proof, &bytes) || cz_update_params_sector(&p, bytes))
        return cz_fail(ctx, CZ_EINVAL, "registered_proof: %" PRIu64 " is not a "
                       "RegisteredUpdateProof (0-4: StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1)",
                       r->registered_proof);
    if (r->sector_size && r->sector_size != bytes)
        return cz_fail(ctx, CZ_EINVAL, "sector_size: %" PRIu64 ", but registered_proof %" PRIu64
                       " is for %" PRIu64 "-byte sectors", r->sector_size, r->registered_proof,
                       bytes);
    if (r->n_vanilla_proofs != p.partitions)
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proofs: %zu, but registered_proof %" PRIu64
                       " (%" PRIu64 "-byte sectors) has %u partition%s: one bincode "
                       "PartitionProof each", r->n_vanilla_proofs, r->registered_proof, bytes,
                       p.partitions, p.partitions > 1 ? "s" : "");
    for (size_t i = 0; i < r->n_vanilla_proofs; i++)
        if (r->vanilla_proofs[i].len == 0)
            return cz_fail(ctx, CZ_EINVAL, "vanilla_proofs[%zu]: empty (a bincode PartitionProof)",
                           i);
    cz_update_request_t u = { .registered_proof = r->registered_proof };
    TRY(commitment(ctx, u.comm_r_old, &r->comm_r_old, false, "comm_r_old"));
    TRY(commitment(ctx, u.comm_r_new, &r->comm_r_new, false, "comm_r_new"));
    TRY(commitment(ctx, u.comm_d_new, &r->comm_d_new, true, "comm_d_new"));
    TRY(vanilla_arrays(ctx, r, &u.proofs, &u.lens));
    u.nproofs = r->n_vanilla_proofs;
    json_t *input = NULL;
    int rc = cz_update_request_json(ctx, &u, &input);
    free(u.proofs);   /* borrowed pointers: not cz_update_request_free */
    free(u.lens);
    if (rc == CZ_OK && json_object_set_new(req, "input", input))
        rc = cz_fail(ctx, CZ_ENOMEM, "request");
    return rc;
}

/* ---- the kind table --------------------------------------------------------- */

typedef struct {
    Cuzk__V1__ProofKind kind;
    const char *name;          /* the ProofKind's name, as GetStatus reports queues */
    const char *job_kind;      /* the daemon job kind */
    int default_priority;      /* for PRIORITY_UNSPECIFIED (1 LOW .. 4 CRITICAL) */
    int (*map)(cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r, json_t *req);
} grpc_kind_t;

/* priorities: filecoin-project/curio extern/cuzk cuzk-core Priority::default_for */
static const grpc_kind_t kinds[] = {
    { CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT, "POREP_SEAL_COMMIT", "porep-c2", 2, map_porep },
    { CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE, "SNAP_DEALS_UPDATE", "snap", 2, map_snap },
    { CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION, "WINDOW_POST_PARTITION", "window-post", 3,
      map_window },
    { CUZK__V1__PROOF_KIND__WINNING_POST, "WINNING_POST", "winning-post", 4, map_winning },
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

size_t cz__grpc_kind_count(void) { return NKINDS; }
const char *cz__grpc_kind_name(size_t i) { return i < NKINDS ? kinds[i].name : NULL; }

const char *cz__grpc_queue_name(const char *job_kind)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (!strcmp(kinds[i].job_kind, job_kind))
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

/* The params file of each circuit family for a sector size. */
static int porep_name(uint64_t bytes, char *out, size_t cap)
{
    cz_porep_params_t p;
    int rc = cz_porep_params_sector(&p, bytes);
    return rc ? rc : cz_c2_params_name(out, cap, &p, "params");
}

static int post_name(cz_post_kind_t kind, uint64_t bytes, char *out, size_t cap)
{
    cz_post_params_t p;
    int rc = cz_post_params_sector(&p, kind, bytes);
    return rc ? rc : cz_post_params_name(out, cap, &p, "params");
}

static int winning_name(uint64_t bytes, char *out, size_t cap)
{
    return post_name(CZ_POST_WINNING, bytes, out, cap);
}

static int window_name(uint64_t bytes, char *out, size_t cap)
{
    return post_name(CZ_POST_WINDOW, bytes, out, cap);
}

static int snap_name(uint64_t bytes, char *out, size_t cap)
{
    cz_update_params_t p;
    int rc = cz_update_params_sector(&p, bytes);
    return rc ? rc : cz_update_params_filename(out, cap, &p, "params");
}

int cz__grpc_params_name(cz_ctx_t *ctx, const char *id, char *out, size_t cap)
{
    /* Curio's ids: curio extern/cuzk cuzk-core srs_manager.rs CircuitId
     * ("porep-32g", "porep-64g", "wpost-32g", "winning-32g", "snap-32g",
     * "snap-64g"), here for every production size */
    static const struct { const char *suffix; uint64_t bytes; } sizes[] = {
        { "2k", 2048ull }, { "8m", 8ull << 20 }, { "512m", 512ull << 20 },
        { "32g", 32ull << 30 }, { "64g", 64ull << 30 },
    };
    static const struct {
        const char *prefix;
        int (*name)(uint64_t bytes, char *out, size_t cap);
    } families[] = {
        { "porep-", porep_name }, { "winning-", winning_name }, { "wpost-", window_name },
        { "snap-", snap_name },
    };
    if (!id || !*id)
        return cz_fail(ctx, CZ_EINVAL, "circuit_id: empty (e.g. \"porep-32g\", \"wpost-32g\" or a "
                       "params name)");
    for (size_t f = 0; f < sizeof families / sizeof *families; f++) {
        size_t n = strlen(families[f].prefix);
        if (strncmp(id, families[f].prefix, n))
            continue;
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            if (!strcmp(id + n, sizes[i].suffix)) {
                int rc = families[f].name(sizes[i].bytes, out, cap);
                return rc ? cz_fail(ctx, rc, "circuit_id: %s: no params name", id) : CZ_OK;
            }
        return cz_fail(ctx, CZ_EINVAL, "circuit_id: '%.64s': %s takes 2k, 8m, 512m, 32g or 64g",
                       id, families[f].prefix);
    }
    if (strlen(id) >= cap)
        return cz_fail(ctx, CZ_EINVAL, "circuit_id: too long");
    snprintf(out, cap, "%s", id);
    return CZ_OK;
}
