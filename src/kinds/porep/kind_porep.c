/*
 * kinds/porep/kind_porep.c — the "porep-c2" job kind (kinds/kinds.h): the
 * request's input is a C1 JSON (SealCommitPhase1Output), inline ("input")
 * or a file ("input_path"); the job is one StackedDRG partition circuit per
 * partition, synthesized from the C1 by kinds/porep/c2.h (native C1 check,
 * PROVE synthesis, public inputs checked against the ones derived from
 * replica_id and seed), so the engine's verification with the vk is the
 * chain verifier's check.
 *
 *   kind          "porep-c2"
 *   input         the C1 JSON (required, inline or input_path)
 *   sector_size   optional: the sector size in bytes the client means; a C1
 *                 of another size is refused (400) before any work
 *   miner_id, sector_number   optional, together: the sector the client
 *                 means (Curio's fields 21, 20); a C1 whose replica_id is
 *                 not that sector's (prover_id = LEB128 of miner_id, with
 *                 the C1's ticket, comm_d and porep_id) is refused (400)
 *   registered_proof  optional: the abi.RegisteredSealProof id (Curio's
 *                 field 4); one that is not the C1's is refused (400)
 *   params        default: the Filecoin file name of the C1's sector size
 *                 (v28-stacked-proof-of-replication-...params, FACTS 2), so a
 *                 params.dir holding real Filecoin parameters works as is
 *
 * prepare parses the C1 (CZ_EFORMAT naming the JSON path: 400) and takes
 * the partition's shape and plan from the kind's state, a cache by sector
 * size (the first job of a size runs a SHAPE synthesis of the blank
 * partition in the request: ~6 s at 32GiB, 0.3 s at 2KiB; later ones none).
 * Deterministic, as the journal's replay requires. The job owns its C1.
 * validate runs the whole native C1 check (cz_c1_verify) when the job is
 * about to start, before its params are asked for.
 *
 * Curio (ProofKind POREP_SEAL_COMMIT = 1, default priority 2, SRS family
 * "porep-"): vanilla_proof (field 10) is Curio's C1 wrapper (lib/ffi/
 * cuzk_funcs.go wrapC1Output), the JSON
 *     {"SectorNum": n, "Phase1Out": "<base64 of the C1 JSON>", "SectorSize": n}
 * (Go's encoding/json writes []byte as standard, padded base64). It maps to
 *     {"kind":"porep-c2", "sector_size": n, "registered_proof": (4),
 *      "miner_id": (21), "sector_number": n} and the input <the C1 JSON>
 * The wrapper must agree with sector_number / sector_size when those are
 * set; the C1 itself is checked by prepare (sector size, JSON paths, the
 * sector) and the native check before the params load. The C1 is not put
 * in the request object: the map decodes Phase1Out straight from the
 * protobuf's bytes into the buffer it hands back (cz_curio_input_t), the
 * job's input, which the C1 parser reads; jansson parses the wrapper
 * without that string (load_wrapper). One copy of the C1 after the
 * protobuf's (daemon/server.h THE INPUT'S COPIES).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hex.h"
#include "kinds/curio.h"
#include "kinds/job.h"
#include "kinds/kinds.h"
#include "kinds/porep/c2.h"
#include "kinds/porep/porep.h"
#include "kinds/post/post.h"

typedef struct {
    cz_c1_t c1;
    cz_c2_job_t job; /* borrows c1; its inputs are the chain's */
} porep_job;

/* A non-negative integer field |key| of |req| into *out; *have whether it is there. */
static int uint_field(cz_ctx_t *ctx, const json_t *req, const char *key, uint64_t *out, bool *have)
{
    const json_t *v = json_object_get(req, key);
    *have = v != NULL;
    *out = 0;
    if (v && (!json_is_integer(v) || json_integer_value(v) < 0))
        return cz_fail(ctx, CZ_EINVAL, "%s: must be a non-negative integer", key);
    *out = v ? (uint64_t)json_integer_value(v) : 0;
    return CZ_OK;
}

/*
 * The sector the request names (miner_id, sector_number, registered_proof;
 * each optional) against the C1's: a proof made for the C1's sector under
 * the request's name would fail on chain, so a mismatch is refused before
 * any work, naming both. The C1 holds no miner or sector number; its
 * replica_id is their digest (rust-fil-proofs generate_replica_id), so the
 * request's are checked by deriving it again.
 */
static int check_sector(cz_ctx_t *ctx, const json_t *req, const cz_c1_t *c1)
{
    uint64_t miner, sector, reg;
    bool have_m, have_s, have_r;
    int rc = uint_field(ctx, req, "miner_id", &miner, &have_m);
    if (rc == CZ_OK)
        rc = uint_field(ctx, req, "sector_number", &sector, &have_s);
    if (rc == CZ_OK)
        rc = uint_field(ctx, req, "registered_proof", &reg, &have_r);
    if (rc != CZ_OK)
        return rc;
    if (have_r && reg != c1->proof->id) {
        const cz_porep_proof_t *named = cz_porep_proof_by_id(reg);
        return cz_fail(ctx, CZ_EINVAL, "registered_proof: %llu (%s), but the C1 is %s (%u)",
                       (unsigned long long)reg, named ? named->name : "not a RegisteredSealProof",
                       c1->proof->name, c1->proof->id);
    }
    if (have_m != have_s)
        return cz_fail(ctx, CZ_EINVAL, "%s: given without %s (the C1 is checked against both)",
                       have_m ? "miner_id" : "sector_number",
                       have_m ? "sector_number" : "miner_id");
    if (!have_m)
        return CZ_OK;
    uint8_t prover[32], porep_id[32], replica[32];
    cz_post_prover_id(prover, miner);
    cz_porep_id(porep_id, c1->proof);
    cz_porep_replica_id(replica, prover, sector, c1->ticket, c1->comm_d, porep_id);
    if (memcmp(replica, c1->replica_id, 32)) {
        char have[65], want[65];
        cz_hex_encode(have, c1->replica_id, 32);
        cz_hex_encode(want, replica, 32);
        return cz_fail(ctx, CZ_EINVAL,
                       "miner_id %llu, sector_number %llu: the C1 is not of this "
                       "sector: its replica_id is %s, this sector's (with the C1's ticket, comm_d "
                       "and %s) is %s",
                       (unsigned long long)miner, (unsigned long long)sector, have, c1->proof->name,
                       want);
    }
    return CZ_OK;
}

static int porep_prepare(void *state, cz_ctx_t *ctx, const json_t *req, const char *input,
                         size_t input_len, cz_kind_job_t *out)
{
    memset(out, 0, sizeof *out);
    const json_t *want = json_object_get(req, "sector_size");
    if (want && (!json_is_integer(want) || json_integer_value(want) <= 0))
        return cz_fail(ctx, CZ_EINVAL, "sector_size: must be a positive integer (bytes)");
    if (!input)
        return cz_fail(ctx, CZ_EINVAL, "input: required (the C1 JSON, inline or input_path)");
    porep_job *j = calloc(1, sizeof *j);
    if (!j)
        return cz_fail(ctx, CZ_ENOMEM, "job");
    int rc = cz_c1_parse(ctx, &j->c1, input, input_len);
    bool size_wrong = rc == CZ_OK && want &&
                      (uint64_t)json_integer_value(want) != j->c1.proof->sector_bytes;
    if (size_wrong)
        rc = cz_fail(ctx, CZ_EINVAL,
                     "sector_size: the request says %lld bytes, the C1 is for %s "
                     "(%llu bytes)",
                     (long long)json_integer_value(want), j->c1.proof->name,
                     (unsigned long long)j->c1.proof->sector_bytes);
    bool sector_wrong = false;
    if (rc == CZ_OK && !size_wrong)
        sector_wrong = (rc = check_sector(ctx, req, &j->c1)) != CZ_OK;
    if (rc == CZ_OK)
        rc = cz_c2_job_init_cached(ctx, &j->job, &j->c1, NULL, NULL, state);
    if (rc == CZ_OK)
        rc = cz_c2_params_name(out->default_params, sizeof out->default_params, &j->c1.params,
                               "params");
    if (rc != CZ_OK) {
        if (rc != CZ_EFORMAT && rc != CZ_ENOMEM && !size_wrong && !sector_wrong) {
            /* a C1 with zero or non-field public values is the client's fault */
            char msg[256];
            snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
            rc = cz_fail(ctx, CZ_EINVAL, "input: %s", msg);
        }
        cz_c2_job_clear(&j->job);
        cz_c1_free(&j->c1);
        free(j);
        return rc;
    }
    out->partitions = j->job.spec.partitions;
    out->shape = j->job.shape;
    out->rows = j->job.rows;
    snprintf(out->summary, sizeof out->summary, "%s x%u", j->c1.proof->name, j->c1.npartitions);
    out->synthesize = cz_c2_synthesize;
    out->arg = &j->job; /* first member's address is not j: release finds j below */
    return CZ_OK;
}

/* The native C1 verification (kinds/porep/c1.h), before the params are loaded. */
static int porep_validate(const cz_kind_job_t *kj, cz_ctx_t *ctx)
{
    const porep_job *j = (const porep_job *)((const char *)kj->arg - offsetof(porep_job, job));
    int rc = cz_c1_verify(ctx, &j->c1);
    if (rc != CZ_OK) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
        return cz_fail(ctx, rc,
                       "input: the C1 does not verify (checked before loading the "
                       "params): %s",
                       msg);
    }
    return CZ_OK;
}

static void porep_release(cz_kind_job_t *kj)
{
    if (!kj->arg)
        return;
    porep_job *j = (porep_job *)((char *)kj->arg - offsetof(porep_job, job));
    cz_c2_job_clear(&j->job);
    cz_c1_free(&j->c1);
    free(j);
    kj->arg = NULL;
}

/* The state: the kind's shape cache, partition shapes and plans by
 * configuration (kinds/shapes.h; kinds/porep/c2.h cz_c2_shapes_new). */
static int porep_state_new(void **out)
{
    cz_shape_cache_t *c;
    int rc = cz_c2_shapes_new(&c);
    *out = c;
    return rc;
}

static void porep_state_free(void *state)
{
    cz_shape_cache_free(state);
}

static void porep_stats(void *state, size_t *hits, size_t *lookups)
{
    cz_shape_cache_stats(state, hits, lookups);
}

/* ---- Curio: POREP_SEAL_COMMIT ---------------------------------------------- */

static int wrapper_uint(cz_ctx_t *ctx, const json_t *w, const char *key, uint64_t *out)
{
    const json_t *v = json_object_get(w, key);
    if (!v)
        return cz_fail(ctx, CZ_EINVAL,
                       "vanilla_proof.%s: missing (Curio's C1 wrapper has "
                       "SectorNum, Phase1Out, SectorSize)",
                       key);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof.%s: must be a non-negative integer", key);
    *out = (uint64_t)json_integer_value(v);
    return CZ_OK;
}

/* ---- the wrapper's text, scanned for Phase1Out ---- */

static size_t skip_ws(const char *t, size_t n, size_t i)
{
    while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

/* The index of the quote closing the JSON string whose opening quote is
 * t[i], or n; *odd: whether it holds an escape, a control character or a
 * byte over 0x7f (what jansson would decode or check). */
static size_t string_end(const char *t, size_t n, size_t i, bool *odd)
{
    *odd = false;
    for (i++; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '\\') {
            *odd = true;
            i++;
        } else if (c == '"') {
            return i;
        } else if (c < 0x20 || c > 0x7f) {
            *odd = true;
        }
    }
    return n;
}

/* The index of the ',' or '}' that ends the member whose value starts at t[i], or n. */
static size_t value_end(const char *t, size_t n, size_t i)
{
    int depth = 0;
    bool odd;
    for (; i < n; i++) {
        char c = t[i];
        if (c == '"')
            i = string_end(t, n, i, &odd);
        else if (c == '{' || c == '[')
            depth++;
        else if ((c == '}' || c == ']') && depth-- == 0)
            return i;
        else if (c == ',' && depth == 0)
            return i;
    }
    return n;
}

/*
 * Where the wrapper's Phase1Out string (the base64 of the C1: tens of MB)
 * lies in the wrapper's text |t|: [*at, *at + *len), between its quotes.
 * Found only in an object whose members this scan steps over, once, with
 * nothing but printable ASCII in the string and no escape (Go's base64 is
 * so); anything else (a string jansson would decode or refuse) is
 * left to jansson (false), whose parse then reads or refuses it as always.
 * The scan only locates: jansson still parses the rest of the wrapper.
 */
static bool find_phase1out(const char *t, size_t n, size_t *at, size_t *len)
{
    bool found = false, odd;
    size_t i = skip_ws(t, n, 0);
    if (i >= n || t[i] != '{')
        return false;
    for (i = skip_ws(t, n, i + 1); i < n && t[i] != '}';) {
        if (t[i] != '"')
            return false;
        size_t ke = string_end(t, n, i, &odd);
        bool ours = !odd && ke - i - 1 == 9 && !memcmp(t + i + 1, "Phase1Out", 9);
        i = skip_ws(t, n, ke + 1);
        if (i >= n || t[i] != ':')
            return false;
        i = skip_ws(t, n, i + 1);
        if (ours && i < n && t[i] == '"') {
            size_t ve = string_end(t, n, i, &odd);
            if (found || odd || ve >= n) /* twice: jansson refuses the duplicate */
                return false;
            *at = i + 1;
            *len = ve - i - 1;
            found = true;
            i = skip_ws(t, n, ve + 1);
        } else {
            i = value_end(t, n, i);
        }
        if (i < n && t[i] == ',')
            i = skip_ws(t, n, i + 1);
        else if (i >= n || t[i] != '}')
            return false;
    }
    return found && i < n;
}

/*
 * The C1 from Phase1Out's base64 text |b64| (|n| characters), decoded into
 * a buffer of its own: the one the C1 parser reads (*out, caller frees).
 */
static int decode_c1(cz_ctx_t *ctx, const char *b64, size_t n, cz_curio_input_t *out)
{
    size_t bad, got;
    if (n == 0)
        return cz_fail(ctx, CZ_EINVAL,
                       "vanilla_proof.Phase1Out: empty (the base64 of the C1 JSON)");
    uint8_t *buf = malloc(n / 4 * 3 + 1);
    if (!buf)
        return cz_fail(ctx, CZ_ENOMEM, "vanilla_proof.Phase1Out: %zu bytes", n);
    if (cz__base64_decode(b64, n, buf, &got, &bad) != CZ_OK) {
        free(buf);
        if (bad >= n)
            return cz_fail(ctx, CZ_EINVAL,
                           "vanilla_proof.Phase1Out: not base64: %zu characters "
                           "is not a multiple of 4",
                           n);
        unsigned char c = (unsigned char)b64[bad];
        return cz_fail(ctx, CZ_EINVAL,
                       "vanilla_proof.Phase1Out: not base64: %s%c%s (0x%02x) at "
                       "offset %zu",
                       c >= 32 && c < 127 ? "'" : "", c >= 32 && c < 127 ? c : '?',
                       c >= 32 && c < 127 ? "'" : "", c, bad);
    }
    int rc = CZ_OK;
    if (memchr(buf, 0, got))
        rc = cz_fail(ctx, CZ_EINVAL,
                     "vanilla_proof.Phase1Out: the decoded C1 holds a NUL byte "
                     "(it must be the SealCommitPhase1Output JSON text)");
    else if (!cz__utf8_valid(buf, got)) /* the journal keeps the input as a JSON string */
        rc = cz_fail(ctx, CZ_EINVAL,
                     "vanilla_proof.Phase1Out: the decoded C1 is not UTF-8 "
                     "text (it must be the SealCommitPhase1Output JSON)");
    if (rc != CZ_OK) {
        free(buf);
        return rc;
    }
    buf[got] = '\0';
    out->data = (char *)buf;
    out->len = got;
    return CZ_OK;
}

/*
 * The wrapper as a JSON object. Its Phase1Out, when the scan finds it, is
 * not handed to jansson (which would copy it twice: its lexer, its
 * string): jansson parses the wrapper with that string emptied (a copy of
 * the few other bytes), and *b64 / *b64_len point into |t| at the base64
 * itself. Otherwise *b64 is NULL and the object holds Phase1Out as sent.
 */
static int load_wrapper(cz_ctx_t *ctx, const char *t, size_t n, json_t **out, const char **b64,
                        size_t *b64_len)
{
    json_error_t jerr;
    size_t at = 0, len = 0;
    *b64 = NULL;
    *b64_len = 0;
    *out = NULL;
    if (find_phase1out(t, n, &at, &len)) {
        char *rest = malloc(n - len + 1);
        if (!rest)
            return cz_fail(ctx, CZ_ENOMEM, "vanilla_proof");
        memcpy(rest, t, at);
        memcpy(rest + at, t + at + len, n - at - len);
        *out = json_loadb(rest, n - len, JSON_REJECT_DUPLICATES, &jerr);
        free(rest);
        if (*out) {
            *b64 = t + at;
            *b64_len = len;
            return CZ_OK;
        } /* the error's line and column are the whole text's: parse that */
    }
    *out = json_loadb(t, n, JSON_REJECT_DUPLICATES, &jerr);
    if (!*out)
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof: not JSON (line %d, column %d: %s)",
                       jerr.line, jerr.column, jerr.text);
    return CZ_OK;
}

static int porep_map(cz_ctx_t *ctx, const cz_curio_request_t *r, json_t *req,
                     cz_curio_input_t *input)
{
    if (r->vanilla_proof.len == 0)
        return cz_fail(ctx, CZ_EINVAL,
                       "vanilla_proof: empty (POREP_SEAL_COMMIT takes Curio's C1 "
                       "wrapper JSON {\"SectorNum\",\"Phase1Out\",\"SectorSize\"})");
    json_t *w;
    const char *b64;
    size_t b64_len;
    int rc = load_wrapper(ctx, (const char *)r->vanilla_proof.data, r->vanilla_proof.len, &w, &b64,
                          &b64_len);
    if (rc != CZ_OK)
        return rc;
    const char *key;
    json_t *val;
    if (!json_is_object(w))
        rc = cz_fail(ctx, CZ_EINVAL, "vanilla_proof: must be a JSON object (Curio's C1 wrapper)");
    else
        json_object_foreach(w, key, val) if (rc == CZ_OK && strcmp(key, "SectorNum") &&
                                             strcmp(key, "Phase1Out") && strcmp(key, "SectorSize"))
            rc = cz_fail(ctx, CZ_EINVAL,
                         "vanilla_proof.%.64s: unknown field (Curio's C1 "
                         "wrapper has SectorNum, Phase1Out, SectorSize)",
                         key);
    uint64_t num = 0, size = 0;
    if (rc == CZ_OK)
        rc = wrapper_uint(ctx, w, "SectorNum", &num);
    if (rc == CZ_OK)
        rc = wrapper_uint(ctx, w, "SectorSize", &size);
    if (rc == CZ_OK && r->sector_number && num != r->sector_number)
        rc = cz_fail(ctx, CZ_EINVAL,
                     "vanilla_proof.SectorNum: %" PRIu64 ", but sector_number is %" PRIu64, num,
                     r->sector_number);
    if (rc == CZ_OK && r->sector_size && size != r->sector_size)
        rc = cz_fail(ctx, CZ_EINVAL,
                     "vanilla_proof.SectorSize: %" PRIu64 ", but sector_size is %" PRIu64, size,
                     r->sector_size);
    const json_t *p1 = json_object_get(w, "Phase1Out");
    if (rc == CZ_OK && !p1)
        rc = cz_fail(ctx, CZ_EINVAL,
                     "vanilla_proof.Phase1Out: missing (the base64 of the C1 JSON)");
    else if (rc == CZ_OK && !json_is_string(p1))
        rc = cz_fail(ctx, CZ_EINVAL,
                     "vanilla_proof.Phase1Out: must be a string (the base64 of "
                     "the C1 JSON)");
    if (rc == CZ_OK) /* the scan's span of the text, or jansson's string */
        rc = b64 ? decode_c1(ctx, b64, b64_len, input)
                 : decode_c1(ctx, json_string_value(p1), json_string_length(p1), input);
    json_decref(w);
    if (rc != CZ_OK)
        return rc;
    /* the sector Curio names, checked against the C1 by the kind; proto3 cannot tell 0
     * from unset: registered_proof 0 (2KiB V1) is not proved anyway, and no miner is f00 */
    if ((size && json_object_set_new(req, "sector_size", json_integer((json_int_t)size))) ||
        (r->registered_proof &&
         json_object_set_new(req, "registered_proof",
                             json_integer((json_int_t)r->registered_proof))) ||
        (r->miner_id &&
         (json_object_set_new(req, "miner_id", json_integer((json_int_t)r->miner_id)) ||
          json_object_set_new(req, "sector_number", json_integer((json_int_t)num))))) {
        free(input->data);
        *input = (cz_curio_input_t){ NULL, 0 };
        return cz_fail(ctx, CZ_ENOMEM, "request");
    }
    return CZ_OK;
}

static int porep_params_name(uint64_t bytes, char *out, size_t cap)
{
    cz_porep_params_t p;
    int rc = cz_porep_params_sector(&p, bytes);
    return rc ? rc : cz_c2_params_name(out, cap, &p, "params");
}

/* The public_inputs hook: the C1's public values (replica_id, comm_d,
 * comm_r, seed, its registered proof), as cz_c2_verify derives them. */
static int porep_public_inputs(cz_ctx_t *ctx, const char *input, size_t input_len,
                               cz_kind_public_t *out)
{
    memset(out, 0, sizeof *out);
    if (!input)
        return cz_fail(ctx, CZ_EINVAL, "input: required (the C1 JSON)");
    cz_c1_t c1;
    memset(&c1, 0, sizeof c1);
    int rc = cz_c1_parse(ctx, &c1, input, input_len);
    if (rc != CZ_OK)
        return rc;
    cz_c2_public_t pub;
    cz_porep_params_t p;
    cz_c2_public_from_c1(&pub, &c1);
    cz_c1_free(&c1);
    if (cz_porep_proof_params(&p, pub.proof))
        return cz_fail(ctx, CZ_EINVAL, "input: no parameters known for %s", pub.proof->name);
    if (cz_c2_params_name(out->vk_name, sizeof out->vk_name, &p, "vk"))
        return cz_fail(ctx, CZ_EINVAL, "no vk name for %s", pub.proof->name);
    out->partitions = p.partitions;
    out->per_partition = cz_porep_num_inputs(&p) - 1;
    size_t n = out->partitions * out->per_partition;
    out->inputs = malloc(n * sizeof *out->inputs);
    rc = out->inputs ? cz_c2_public_inputs(ctx, out->inputs, n, &p, &pub)
                     : cz_fail(ctx, CZ_ENOMEM, "public inputs");
    if (rc != CZ_OK) {
        free(out->inputs);
        out->inputs = NULL;
        return rc;
    }
    snprintf(out->summary, sizeof out->summary, "%s, %zu partition%s", pub.proof->name,
             out->partitions, out->partitions == 1 ? "" : "s");
    return CZ_OK;
}

static const char *const porep_fields[] = { "sector_size", "miner_id", "sector_number",
                                            "registered_proof", NULL };

const cz_job_kind_t cz_kind_porep_c2 = {
    .name = "porep-c2",
    .summary = "PoRep SealCommit phase 2: input = the C1 JSON (SealCommitPhase1Output)",
    .fields = porep_fields,
    .prepare = porep_prepare,
    .validate = porep_validate,
    .release = porep_release,
    .state_new = porep_state_new,
    .state_free = porep_state_free,
    .stats = porep_stats,
    .public_inputs = porep_public_inputs,
    .curio = { .proof_kind = 1,
               .proof_kind_name = "POREP_SEAL_COMMIT",
               .default_priority = 2,
               .map = porep_map,
               .srs_family = "porep-",
               .params_name = porep_params_name },
    .test_circuit = "porep",
};
