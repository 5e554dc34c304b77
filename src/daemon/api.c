/*
 * daemon/api.c — routing, request validation and JSON responses (see
 * daemon/api.h). Errors and the CZ_E* codes of the server map to statuses
 * and names in one place, daemon/errmap.h.
 */
#include "daemon/api.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hex.h"
#include "daemon/errmap.h"
#include "daemon/jsonio.h"
#include "daemon/log.h"

static const char *const JSON = "application/json";

void cz_api_error(cz_api_resp_t *resp, cz_api_err_t err, const char *fmt, ...)
{
    const cz_api_err_info_t *e = cz_api_err_info(err);
    const int status = e->http;
    const char *code = e->name;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *o = json_pack("{s:s,s:s,s:i}", "error", code, "message", msg, "status", status);
    if (!o) { /* the message quoted invalid UTF-8 from the request: replace it */
        for (char *c = msg; *c; c++)
            if ((unsigned char)*c >= 0x80 || (unsigned char)*c < 0x20)
                *c = '?';
        o = json_pack("{s:s,s:s,s:i}", "error", code, "message", msg, "status", status);
    }
    free(resp->body);
    resp->body = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    resp->status = status;
    resp->content_type = JSON;
    resp->len = resp->body ? strlen(resp->body) : 0;
    if (resp->body) {
        char *g = realloc(resp->body, resp->len + 2);
        if (g) {
            resp->body = g;
            resp->body[resp->len++] = '\n';
            resp->body[resp->len] = '\0';
        }
    }
}

static void reply_json(cz_api_resp_t *resp, int status, json_t *o)
{
    if (!o) {
        cz_api_error(resp, CZ_API_E_INTERNAL, "out of memory");
        return;
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(9));
    json_decref(o);
    if (!text) {
        cz_api_error(resp, CZ_API_E_INTERNAL, "out of memory");
        return;
    }
    size_t n = strlen(text);
    char *g = realloc(text, n + 2);
    if (g) {
        text = g;
        text[n++] = '\n';
        text[n] = '\0';
    }
    resp->status = status;
    resp->content_type = JSON;
    resp->body = text;
    resp->len = n;
}

/* A failed server call: its CZ_E* code through the one table (daemon/errmap.h). */
static void reply_rc(cz_api_resp_t *resp, int rc, cz_ctx_t *ctx, cz_errmap_ctx_t where)
{
    cz_api_error(resp, cz_errmap_of(rc, where), "%s",
                 *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
}

/* Parse the body as a JSON object; false after replying with the error. With |input|
 * (a submit, on a writable body), its "input" string is lifted out first (*input,
 * *input_len; the caller frees *input, also after an error reply). */
static bool body_object(const cz_api_req_t *req, cz_api_resp_t *resp, json_t **out, char **input,
                        size_t *input_len)
{
    *out = NULL;
    if (req->content_type && strncmp(req->content_type, "application/json", 16)) {
        cz_api_error(resp, CZ_API_E_UNSUPPORTED_MEDIA_TYPE,
                     "Content-Type '%.64s': send application/json", req->content_type);
        return false;
    }
    if (!req->body || !req->body_len) {
        cz_api_error(resp, CZ_API_E_INVALID_JSON, "body: empty; a JSON object is required");
        return false;
    }
    if (input && req->body_writable)
        cz_json_lift_input((char *)req->body, req->body_len, input, input_len);
    json_error_t err;
    json_t *o = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &err);
    if (req->body_parsed)
        req->body_parsed(req->body_cls); /* req->body is gone from here on */
    if (!o) {
        cz_api_error(resp, CZ_API_E_INVALID_JSON, "body: line %d column %d: %s", err.line,
                     err.column, err.text);
        return false;
    }
    if (!json_is_object(o)) {
        bool array = json_is_array(o);
        json_decref(o);
        cz_api_error(resp, CZ_API_E_INVALID_JSON, "body: must be a JSON object, not %s",
                     array ? "an array" : "a scalar");
        return false;
    }
    *out = o;
    return true;
}

static bool valid_id(const char *id, size_t n)
{
    if (n != CZ_JOB_ID_LEN)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
            return false;
    return true;
}

/* "3.5" -> seconds, clamped to [0, max]; false on junk. */
static bool parse_wait(const char *s, double max, double *out)
{
    char *end;
    *out = 0;
    if (!s)
        return true;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= 0) || v > 1e9)
        return false;
    *out = v < max ? v : max;
    return true;
}

/*
 * Why job |id| has no proof to give: its outcome (job_failed, job_canceled,
 * job_lost, whatever code the job itself failed with: the message has it),
 * or, for a job that is not there, the request's error for |rc|.
 */
static cz_api_err_t result_error(int rc, bool have, const cz_job_status_t *st)
{
    if (!have || rc == CZ_ENOTFOUND)
        return cz_errmap_of(rc, CZ_ERRMAP_REQUEST);
    if (st->lost)
        return CZ_API_E_JOB_LOST;
    return st->state == CZ_JOB_FAILED     ? CZ_API_E_JOB_FAILED
           : st->state == CZ_JOB_CANCELED ? CZ_API_E_JOB_CANCELED
                                          : cz_errmap_of(rc, CZ_ERRMAP_REQUEST);
}

/* A job's status as the 200 / 202 reply. */
static void reply_status(cz_api_resp_t *resp, int status, const cz_job_status_t *st)
{
    reply_json(resp, status, cz_job_status_json(st));
}

static void proof_reply(cz_server_t *s, cz_ctx_t *ctx, const cz_api_req_t *req, cz_api_resp_t *resp,
                        const char *id)
{
    const char *ws = req->arg ? req->arg(req->arg_cls, "wait") : NULL;
    const char *fmt = req->arg ? req->arg(req->arg_cls, "format") : NULL;
    double wait;
    if (!parse_wait(ws, (double)cz_server_config(s)->max_wait, &wait)) {
        cz_api_error(resp, CZ_API_E_INVALID_REQUEST, "wait: '%.32s' is not a number of seconds",
                     ws);
        return;
    }
    if (fmt && strcmp(fmt, "json") && strcmp(fmt, "binary")) {
        cz_api_error(resp, CZ_API_E_INVALID_REQUEST, "format: '%.32s' is not json or binary", fmt);
        return;
    }
    cz_job_status_t *st = calloc(1, sizeof *st);
    if (!st) {
        cz_api_error(resp, CZ_API_E_OUT_OF_MEMORY, "out of memory");
        return;
    }
    int rc = cz_server_wait(s, ctx, id, wait);
    if (rc == CZ_EBUSY) {
        if (cz_server_job(s, ctx, id, st) == CZ_OK) {
            reply_status(resp, 202, st);
            free(st);
            return;
        }
        rc = cz_ctx_code(ctx);
    }
    cz_job_result_t res = { .proof = NULL };
    bool have = false;
    if (rc == CZ_OK) {
        st->id[0] = '\0';
        rc = cz_server_result(s, ctx, id, &res, st);
        have = st->id[0] != '\0';
    }
    if (rc != CZ_OK) {
        cz_api_error(resp, result_error(rc, have, st), "%s", cz_ctx_message(ctx));
        free(st);
        return;
    }
    free(st);
    if (fmt && !strcmp(fmt, "json")) {
        char *hex = malloc(2 * res.proof_len + 1);
        if (hex)
            cz_hex_encode(hex, res.proof, res.proof_len);
        json_t *pub = cz_public_inputs_json(res.inputs, res.per_partition, res.partitions);
        json_t *o = hex && pub ? json_pack("{s:s,s:I,s:s,s:O}", "id", id, "partitions",
                                           (json_int_t)(res.proof_len / CZ_GROTH16_PROOF_BYTES),
                                           "proof", hex, "public_inputs", pub)
                               : NULL;
        json_decref(pub);
        free(hex);
        cz_job_result_free(&res);
        reply_json(resp, 200, o);
        return;
    }
    resp->status = 200;
    resp->content_type = "application/octet-stream";
    resp->body = (char *)res.proof;
    resp->len = res.proof_len;
    res.proof = NULL;
    cz_job_result_free(&res);
}

static void params_op(cz_server_t *s, cz_ctx_t *ctx, const cz_api_req_t *req, cz_api_resp_t *resp,
                      bool preload)
{
    json_t *o;
    if (!body_object(req, resp, &o, NULL, NULL))
        return;
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) if (strcmp(key, "params"))
    {
        cz_api_error(resp, CZ_API_E_INVALID_REQUEST, "%.64s: unknown field (expected params)", key);
        json_decref(o);
        return;
    }
    const char *name = json_string_value(json_object_get(o, "params"));
    if (!name) {
        cz_api_error(resp, CZ_API_E_INVALID_REQUEST, "params: required, a string");
        json_decref(o);
        return;
    }
    cz_params_item_t *it = calloc(1, sizeof *it);
    int rc = !it       ? cz_fail(ctx, CZ_ENOMEM, "reply")
             : preload ? cz_server_preload(s, ctx, name, it)
                       : cz_server_evict(s, ctx, name);
    if (rc == CZ_OK)
        reply_json(resp, 200,
                   preload ? json_pack("{s:s,s:I,s:f}", "path", it->path, "bytes",
                                       (json_int_t)it->bytes, "load_ms", it->load_ms)
                           : json_pack("{s:s,s:b}", "params", name, "evicted", 1));
    else
        reply_rc(resp, rc, ctx, CZ_ERRMAP_PARAMS);
    free(it);
    json_decref(o);
}

/* POST /v1/proofs: the body as the core's request (daemon/jsonio.h), its input lifted out
 * of the body (or borrowed from the parsed document); the body is freed once parsed. */
static void submit(cz_server_t *s, cz_ctx_t *ctx, const cz_api_req_t *req, cz_api_resp_t *resp)
{
    json_t *o;
    char *input = NULL;
    size_t input_len = 0;
    if (!body_object(req, resp, &o, &input, &input_len)) {
        free(input);
        return;
    }
    cz_submit_json_t sj;
    cz_submit_out_t out = { .existing = false };
    int rc = cz_submit_from_json(ctx, s, o, &sj);
    if (rc == CZ_OK) {
        if (input) { /* the lifted string stands where the body now says "" */
            sj.req.input = input;
            sj.req.input_len = input_len;
        }
        rc = cz_server_submit(s, ctx, &sj.req, &out);
        cz_submit_json_free(&sj);
    }
    json_decref(o);
    free(input);
    if (rc != CZ_OK) {
        reply_rc(resp, rc, ctx, CZ_ERRMAP_REQUEST);
        return;
    }
    cz_job_status_t st = { .state = out.state };
    reply_json(resp, out.existing ? 200 : 201,
               json_pack("{s:s,s:s,s:b}", "id", out.id, "state", cz_job_status_state(&st),
                         "existing", out.existing));
}

/* GET /v1/proofs[?state=S]: {"jobs": [status...]}, newest first. */
static void list(cz_server_t *s, cz_api_resp_t *resp, const char *state)
{
    cz_job_status_t *v = NULL;
    size_t n = 0;
    json_t *jobs = cz_server_list(s, &v, &n) == CZ_OK ? json_array() : NULL;
    for (size_t i = 0; jobs && i < n; i++)
        if (!state || !strcmp(state, cz_job_status_state(&v[i])))
            json_array_append_new(jobs, cz_job_status_json(&v[i]));
    free(v);
    reply_json(resp, 200, jobs ? json_pack("{s:o}", "jobs", jobs) : NULL);
}

static void route(cz_server_t *s, cz_ctx_t *ctx, const cz_api_req_t *req, cz_api_resp_t *resp)
{
    const char *m = req->method ? req->method : "", *p = req->path ? req->path : "";
    bool get = !strcmp(m, "GET") || !strcmp(m, "HEAD"), post = !strcmp(m, "POST");
    bool del = !strcmp(m, "DELETE");
    const char *allowed = NULL;

    if (!strcmp(p, "/metrics")) {
        if (!get) {
            allowed = "GET";
            goto method;
        }
        char *text = cz_server_metrics(s);
        if (!text) {
            cz_api_error(resp, CZ_API_E_INTERNAL, "out of memory");
            return;
        }
        resp->status = 200;
        resp->content_type = "text/plain; version=0.0.4; charset=utf-8";
        resp->body = text;
        resp->len = strlen(text);
        return;
    }
    if (!strcmp(p, "/v1/status")) {
        if (!get) {
            allowed = "GET";
            goto method;
        }
        reply_json(resp, 200, cz_server_status_json(s));
        return;
    }
    if (!strcmp(p, "/v1/params/preload") || !strcmp(p, "/v1/params/evict")) {
        if (!post) {
            allowed = "POST";
            goto method;
        }
        params_op(s, ctx, req, resp, !strcmp(p, "/v1/params/preload"));
        return;
    }
    if (!strcmp(p, "/v1/proofs") || !strcmp(p, "/v1/proofs/")) {
        if (post) {
            submit(s, ctx, req, resp);
            return;
        }
        if (get) {
            const char *state = req->arg ? req->arg(req->arg_cls, "state") : NULL;
            static const char *const states[] = { "queued", "running",  "done",
                                                  "failed", "canceled", "lost" };
            bool ok = !state;
            for (size_t i = 0; i < sizeof states / sizeof states[0] && !ok; i++)
                ok = !strcmp(state, states[i]);
            if (!ok) {
                cz_api_error(
                    resp, CZ_API_E_INVALID_REQUEST,
                    "state: '%.32s' is not queued, running, done, failed, canceled or lost", state);
                return;
            }
            list(s, resp, state);
            return;
        }
        allowed = "GET, POST";
        goto method;
    }
    if (!strncmp(p, "/v1/proofs/", 11)) {
        const char *id = p + 11, *rest = strchr(id, '/');
        size_t idlen = rest ? (size_t)(rest - id) : strlen(id);
        if (!valid_id(id, idlen)) {
            cz_api_error(resp, CZ_API_E_NOT_FOUND, "job id '%.*s': ids are 16 hex digits",
                         (int)(idlen > 32 ? 32 : idlen), id);
            return;
        }
        char jid[CZ_JOB_ID_LEN + 1];
        memcpy(jid, id, CZ_JOB_ID_LEN);
        jid[CZ_JOB_ID_LEN] = '\0';
        if (rest && !strcmp(rest, "/proof")) {
            if (!get) {
                allowed = "GET";
                goto method;
            }
            proof_reply(s, ctx, req, resp, jid);
            return;
        }
        if (rest) {
            cz_api_error(resp, CZ_API_E_NOT_FOUND, "no route %.64s", p);
            return;
        }
        if (!get && !del) {
            allowed = "GET, DELETE";
            goto method;
        }
        cz_job_status_t *st = calloc(1, sizeof *st);
        int rc = !st   ? cz_fail(ctx, CZ_ENOMEM, "status")
                 : get ? cz_server_job(s, ctx, jid, st)
                       : cz_server_cancel(s, ctx, jid, NULL, st);
        if (rc == CZ_OK)
            reply_status(resp, 200, st);
        else
            reply_rc(resp, rc, ctx, CZ_ERRMAP_REQUEST);
        free(st);
        return;
    }
    cz_api_error(resp, CZ_API_E_NOT_FOUND, "no route %.64s (see docs/API.md)", p);
    return;
method:
    cz_api_error(resp, CZ_API_E_METHOD_NOT_ALLOWED, "%.16s %.64s: allowed %s", m, p, allowed);
}

void cz_api_handle(cz_server_t *s, const cz_api_req_t *req, cz_api_resp_t *resp)
{
    memset(resp, 0, sizeof *resp);
    cz_ctx_t *ctx = NULL;
    if (req->body_too_large)
        cz_api_error(resp, CZ_API_E_BODY_TOO_LARGE,
                     "request body is over daemon.max_body (%zu bytes)",
                     cz_server_config(s)->max_body);
    else if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK)
        cz_api_error(resp, CZ_API_E_OUT_OF_MEMORY, "out of memory");
    else
        route(s, ctx, req, resp);
    cz_ctx_free(ctx);
    cz_server_count_http(s, resp->status);
    if (cz_log_enabled(CZ_LOG_DEBUG) || resp->status >= 500) {
        char q[160];
        cz_log(resp->status >= 500 ? CZ_LOG_WARN : CZ_LOG_DEBUG, "http",
               "method=%s path=%s status=%d", req->method ? req->method : "-",
               cz_log_q(q, sizeof q, req->path), resp->status);
    }
}
