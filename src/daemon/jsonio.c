/*
 * daemon/jsonio.c — the JSON forms of the core's structs (see
 * daemon/jsonio.h): requests in (HTTP bodies, journaled requests, the
 * kinds' Curio maps) and out (the journal), job statuses, public inputs.
 */
#include "daemon/jsonio.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/hex.h"

/* ---- requests ---------------------------------------------------------------------- */

static const char *const common_fields[] = { "kind",     "params",     "input", "input_path",
                                             "priority", "request_id", NULL };

static bool common(const char *k)
{
    for (const char *const *l = common_fields; *l; l++)
        if (!strcmp(*l, k))
            return true;
    return false;
}

static int parse_priority(cz_ctx_t *ctx, const json_t *v, int *out)
{
    static const char *const names[] = { "low", "normal", "high", "critical" };
    *out = 0;
    if (!v)
        return CZ_OK;
    if (json_is_string(v)) {
        for (int i = 0; i < 4; i++)
            if (!strcmp(json_string_value(v), names[i])) {
                *out = i + 1;
                return CZ_OK;
            }
    } else if (json_is_integer(v) && json_integer_value(v) >= 1 && json_integer_value(v) <= 4) {
        *out = (int)json_integer_value(v);
        return CZ_OK;
    }
    return cz_fail(ctx, CZ_EINVAL,
                   "priority: must be 1..4 or \"low\", \"normal\", \"high\", \"critical\"");
}

int cz_submit_fields_text(const json_t *o, char **out)
{
    *out = NULL;
    json_t *fields = json_object();
    const char *key;
    json_t *val;
    size_t n = 0;
    json_object_foreach((json_t *)o, key,
                        val) if (fields && !common(key) && !json_object_set(fields, key, val)) n++;
    if (fields && n)
        *out = json_dumps(fields, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(fields);
    return !fields || (n && !*out) ? CZ_ENOMEM : CZ_OK;
}

int cz_submit_from_json(cz_ctx_t *ctx, cz_server_t *s, const json_t *o, cz_submit_json_t *out)
{
    memset(out, 0, sizeof *out);
    char known[256];
    if (!json_is_object(o))
        return cz_fail(ctx, CZ_EINVAL, "body: must be a JSON object");
    cz_submit_req_t *r = &out->req;
    if (!(r->kind = json_string_value(json_object_get(o, "kind"))))
        return cz_fail(ctx, CZ_EINVAL, "kind: required, a string (known kinds: %s)",
                       cz_server_kind_names(s, known, sizeof known));
    int rc = parse_priority(ctx, json_object_get(o, "priority"), &r->priority);
    if (rc)
        return rc;
    const json_t *rid = json_object_get(o, "request_id");
    if (rid && !json_is_string(rid))
        return cz_fail(ctx, CZ_EINVAL, "request_id: must be a string");
    if (rid) {
        r->request_id = json_string_value(rid);
        r->request_id_len = json_string_length(rid);
    }
    const json_t *params = json_object_get(o, "params");
    if (params && !json_is_string(params))
        return cz_fail(ctx, CZ_EINVAL, "params: must be a string (a name in params.dir or a path)");
    r->params = json_string_value(params);
    const json_t *input = json_object_get(o, "input"), *ipath = json_object_get(o, "input_path");
    if (input && ipath)
        return cz_fail(ctx, CZ_EINVAL, "input and input_path: give one, not both");
    if (ipath && !json_is_string(ipath))
        return cz_fail(ctx, CZ_EINVAL, "input_path: must be a string");
    r->input_path = json_string_value(ipath);
    if (json_is_string(input)) {
        /* borrowed: the one copy of a C1 the HTTP door makes is jansson's unescaping */
        r->input = json_string_value(input);
        r->input_len = json_string_length(input);
        if (memchr(r->input, 0, r->input_len))
            return cz_fail(ctx, CZ_EINVAL, "input: holds a NUL character");
    } else if (input) {
        if (!(out->input = json_dumps(input, JSON_COMPACT | JSON_ENCODE_ANY)))
            return cz_fail(ctx, CZ_ENOMEM, "input");
        r->input = out->input;
        r->input_len = strlen(out->input);
    }
    if (cz_submit_fields_text(o, &out->fields) != CZ_OK) {
        cz_submit_json_free(out);
        return cz_fail(ctx, CZ_ENOMEM, "fields");
    }
    r->fields = out->fields;
    return CZ_OK;
}

void cz_submit_json_free(cz_submit_json_t *j)
{
    if (!j)
        return;
    free(j->fields);
    free(j->input);
    memset(j, 0, sizeof *j);
}

int cz_submit_to_json(cz_ctx_t *ctx, const cz_submit_req_t *req, json_t **out)
{
    *out = NULL;
    json_t *o = NULL;
    if (req->fields) {
        json_error_t e;
        o = json_loads(req->fields, JSON_REJECT_DUPLICATES, &e);
        if (!json_is_object(o)) {
            json_decref(o);
            return cz_fail(ctx, CZ_EINVAL, "fields: not a JSON object");
        }
    } else if (!(o = json_object())) {
        return cz_fail(ctx, CZ_ENOMEM, "request");
    }
    int bad = json_object_set_new(o, "kind", json_string(req->kind)) ||
              json_object_set_new(o, "priority", json_integer(req->priority ? req->priority : 2));
    if (req->request_id)
        bad |= json_object_set_new(o, "request_id",
                                   json_stringn(req->request_id, req->request_id_len));
    if (req->params)
        bad |= json_object_set_new(o, "params", json_string(req->params));
    if (req->input_path)
        bad |= json_object_set_new(o, "input_path", json_string(req->input_path));
    if (bad) {
        json_decref(o);
        return cz_fail(ctx, CZ_ENOMEM, "request");
    }
    if (req->input) {
        json_t *in = json_stringn(req->input, req->input_len);
        if (!in || json_object_set_new(o, "input", in)) {
            json_decref(o);
            return cz_fail(ctx, CZ_EINVAL,
                           "input: not UTF-8 text (the journal keeps a request's "
                           "input as a JSON string)");
        }
    }
    *out = o;
    return CZ_OK;
}

/* ---- statuses ------------------------------------------------------------------------ */

static json_t *iso_time(time_t t)
{
    struct tm tm;
    char buf[32];
    gmtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return json_string(buf);
}

static json_t *stage_counts(const size_t in_stage[CZ_PART_NSTAGES])
{
    json_t *o = json_object();
    for (int k = 0; o && k < CZ_PART_NSTAGES; k++)
        json_object_set_new(o, cz_part_stage_name((cz_part_stage_t)k),
                            json_integer((json_int_t)in_stage[k]));
    return o;
}

json_t *cz_job_status_json(const cz_job_status_t *st)
{
    const cz_job_timings_t *t = &st->t;
    json_t *o = json_pack("{s:s,s:s,s:s,s:i,s:s,s:s,s:{s:I,s:I},s:{s:f,s:f,s:f,s:f,s:f},s:b}", "id",
                          st->id, "kind", st->kind, "summary", st->summary, "priority",
                          st->priority, "state", cz_job_status_state(st), "stage",
                          cz_job_status_stage(st), "progress", "partitions_done",
                          (json_int_t)st->partitions_done, "partitions_total",
                          (json_int_t)st->partitions_total, "timings", "queue_wait_ms",
                          t->queue_wait, "params_load_ms", t->params_load, "synthesis_ms",
                          t->synthesis, "device_ms", t->device, "total_ms", t->total, "recovered",
                          st->recovered);
    if (!o)
        return NULL;
    if (st->working) {
        /* where the work is within a partition (only while in the proving queues) */
        json_object_set_new(o, "partition_stage",
                            json_string(cz_job_stage_label(st->prover_state, st->in_stage)));
        json_object_set_new(o, "partition_stages", stage_counts(st->in_stage));
    }
    if (*st->request_id)
        json_object_set_new(o, "request_id", json_string(st->request_id));
    if (*st->params)
        json_object_set_new(o, "params", json_string(st->params));
    if (st->created)
        json_object_set_new(o, "created", iso_time(st->created));
    if (st->finished)
        json_object_set_new(o, "finished", iso_time(st->finished));
    if (st->state == CZ_JOB_FAILED || st->state == CZ_JOB_CANCELED) {
        json_object_set_new(o, "error", json_string(cz_err_name(st->error)));
        json_object_set_new(o, "message", json_string(st->message));
    }
    if (st->result_write_pending) {
        const cz_result_write_t *w = &st->result_write;
        json_object_set_new(o, "result_write",
                            json_pack("{s:i,s:s,s:s,s:f}", "attempts", (int)w->attempts, "error",
                                      cz_err_name(w->error), "message", w->message, "retry_in_s",
                                      w->retry_in_s));
    }
    return o;
}

/* ---- public inputs ------------------------------------------------------------------- */

/* "0x" and the 64 hex digits of the big-endian value of the 32-byte LE repr |r|. */
static void repr_hex(char out[67], const uint8_t r[32])
{
    uint8_t be[32];
    for (int i = 0; i < 32; i++)
        be[i] = r[31 - i];
    out[0] = '0';
    out[1] = 'x';
    cz_hex_encode(out + 2, be, 32);
}

json_t *cz_public_inputs_json(const uint8_t *inputs, size_t per, size_t parts)
{
    json_t *pub = json_array();
    for (size_t p = 0; pub && p < parts; p++) {
        json_t *blk = json_array();
        for (size_t i = 0; blk && i < per; i++) {
            char h[67];
            repr_hex(h, inputs + 32 * (p * per + i));
            if (json_array_append_new(blk, json_string(h))) {
                json_decref(blk);
                blk = NULL;
            }
        }
        if (!blk || json_array_append_new(pub, blk)) {
            json_decref(pub);
            return NULL;
        }
    }
    return pub;
}

int cz_public_inputs_from_json(const json_t *pub, uint8_t **inputs, size_t *per, size_t *parts)
{
    *inputs = NULL;
    *per = *parts = 0;
    size_t np = json_array_size(pub), n = np ? json_array_size(json_array_get(pub, 0)) : 0;
    if (!json_is_array(pub))
        return CZ_EFORMAT;
    if (np == 0 || n == 0) { /* a kind without public inputs: empty arrays */
        *parts = np;
        return CZ_OK;
    }
    uint8_t *out = malloc(32 * n * np);
    if (!out)
        return CZ_ENOMEM;
    for (size_t p = 0; p < np; p++) {
        const json_t *blk = json_array_get(pub, p);
        for (size_t i = 0; i < n; i++) {
            const char *h = json_string_value(json_array_get(blk, i));
            uint8_t be[32];
            if (json_array_size(blk) != n || !h || strlen(h) != 66 || h[0] != '0' || h[1] != 'x' ||
                !cz_hex_decode(be, h + 2, 32)) {
                free(out);
                return CZ_EFORMAT;
            }
            for (int b = 0; b < 32; b++)
                out[32 * (p * n + i) + (size_t)b] = be[31 - b];
        }
    }
    *inputs = out;
    *per = n;
    *parts = np;
    return CZ_OK;
}
