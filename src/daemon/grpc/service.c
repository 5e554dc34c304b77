/*
 * daemon/grpc/service.c — the eight cuzk.v1.ProvingEngine methods over the
 * job layer (see service.h). Status and metrics come from the same
 * functions as the HTTP API's /v1/status and /metrics, so both doors report
 * the same jobs.
 */
#include "daemon/grpc/service.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/errmap.h"
#include "daemon/grpc/curio.h"
#include "daemon/log.h"

/* A JSON string's value, or |dflt| when it is not a string. */
static const char *jstr(const json_t *v, const char *dflt)
{
    const char *s = json_string_value(v);
    return s ? s : dflt;
}

/* ---- replies ---------------------------------------------------------------- */

static void reply_status(cz_grpc_reply_t *r, grpc_status_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->detail, sizeof r->detail, fmt, ap);
    va_end(ap);
    r->status = code;
}

static void reply_msg(cz_grpc_reply_t *r, const ProtobufCMessage *m)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    if (!(r->out = malloc(n ? n : 1))) {
        reply_status(r, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory for a %zu-byte reply", n);
        return;
    }
    r->out_len = protobuf_c_message_pack(m, r->out);
    r->status = GRPC_STATUS_OK;
}

/* The job layer's error as a gRPC status, for methods without an error field: the code
 * from the daemon's one error table (daemon/errmap.h), as the HTTP door's. */
static void reply_error(cz_grpc_reply_t *r, int rc, cz_ctx_t *ctx, cz_errmap_ctx_t where)
{
    reply_status(r, (grpc_status_code)cz_errmap_grpc(rc, where), "%s",
                 *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
}

/* Unpack the request as cuzk.v1.|name| or answer INVALID_ARGUMENT (and return). */
#define UNPACK(type, name, fn, var, r, in, len)                                                \
    type *var = fn(NULL, len, in);                                                             \
    if (!var) {                                                                                \
        reply_status(r, GRPC_STATUS_INVALID_ARGUMENT, "request: %zu bytes that do not parse "   \
                     "as a cuzk.v1." name, len);                                               \
        return;                                                                                \
    }

static cz_ctx_t *new_ctx(cz_grpc_reply_t *r)
{
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK)
        reply_status(r, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    return ctx;
}

/* ---- jobs --------------------------------------------------------------------- */

/* What an AwaitProofResponse holds besides the message struct. */
typedef struct {
    char id[CZ_JOB_ID_LEN + 1];
    char message[512];
    uint8_t *proof;
} result_store_t;

static uint64_t ms_of(const json_t *timings, const char *key)
{
    double v = json_number_value(json_object_get(timings, key));
    return v > 0 ? (uint64_t)(v + 0.5) : 0;
}

/* Fill |res| with the state of job |id| (ended or not). */
static void fill_result(cz_server_t *s, cz_ctx_t *ctx, const char *id,
                        Cuzk__V1__AwaitProofResponse *res, result_store_t *st)
{
    snprintf(st->id, sizeof st->id, "%s", id);
    res->job_id = st->id;
    json_t *job = NULL;
    if (cz_server_job(s, ctx, id, &job) != CZ_OK) {
        res->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        snprintf(st->message, sizeof st->message, "%s", cz_ctx_message(ctx));
        res->error_message = st->message;
        return;
    }
    const char *state = json_string_value(json_object_get(job, "state"));
    const json_t *t = json_object_get(job, "timings");
    res->queue_wait_ms = ms_of(t, "queue_wait_ms");
    res->srs_load_ms = ms_of(t, "params_load_ms");
    res->synthesis_ms = ms_of(t, "synthesis_ms");
    res->gpu_compute_ms = ms_of(t, "device_ms");
    res->total_ms = ms_of(t, "total_ms");
    if (state && !strcmp(state, "done")) {
        size_t len = 0;
        json_t *pub = NULL;
        if (cz_server_result(s, ctx, id, &st->proof, &len, &pub) == CZ_OK) {
            res->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
            res->proof.data = st->proof;
            res->proof.len = len;
        } else {   /* it expired in between: the client retries and proves again */
            res->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
            snprintf(st->message, sizeof st->message, "%s", cz_ctx_message(ctx));
        }
        json_decref(pub);
    } else if (state && (!strcmp(state, "failed") || !strcmp(state, "canceled") ||
                         !strcmp(state, "lost"))) {
        res->status = strcmp(state, "canceled") ? CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED
                                                : CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED;
        snprintf(st->message, sizeof st->message, "job %s %s: %s", id, state,
                 jstr(json_object_get(job, "message"), ""));
    } else {
        res->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
        snprintf(st->message, sizeof st->message, "job %s is still %s", id, state ? state : "?");
    }
    if (*st->message)
        res->error_message = st->message;
    json_decref(job);
}

/* Map and submit |r|; *id the job. CZ_E* with the message naming the field. */
static int submit(cz_server_t *s, cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r,
                  char id[CZ_JOB_ID_LEN + 1], bool *existing)
{
    json_t *req = NULL, *resp = NULL;
    int rc = cz__grpc_job_request(ctx, cz_server_kinds(s), r, &req);
    if (rc == CZ_OK)
        rc = cz_server_submit_retry(s, ctx, req, &resp, existing);
    if (rc == CZ_OK)
        snprintf(id, CZ_JOB_ID_LEN + 1, "%s", jstr(json_object_get(resp, "id"), ""));
    json_decref(req);
    json_decref(resp);
    return rc;
}

static void do_prove(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                     cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__ProveRequest, "ProveRequest",
           cuzk__v1__prove_request__unpack, pr, r, in, len);
    cz_ctx_t *ctx = new_ctx(r);
    Cuzk__V1__AwaitProofResponse res = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    Cuzk__V1__ProveResponse out = CUZK__V1__PROVE_RESPONSE__INIT;
    result_store_t st = { .proof = NULL };
    char id[CZ_JOB_ID_LEN + 1] = "";
    bool existing = false;
    out.result = &res;
    int rc = !ctx ? CZ_ENOMEM
           : !pr->submit ? cz_fail(ctx, CZ_EINVAL, "submit: missing (the SubmitProofRequest)")
                         : submit(env->server, ctx, pr->submit, id, &existing);
    if (ctx && rc == CZ_EUNAVAIL && cz_server_stopping(env->server)) {
        reply_status(r, GRPC_STATUS_UNAVAILABLE, "%s", cz_ctx_message(ctx));
    } else if (ctx && rc != CZ_OK) {
        /* refused before any work: FAILED naming the field, the daemon keeps serving */
        res.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        snprintf(st.message, sizeof st.message, "%s", cz_ctx_message(ctx));
        res.error_message = st.message;
        reply_msg(r, &out.base);
    } else if (ctx) {
        char q[CZ_REQUEST_ID_MAX + 8];
        CZ_LOGI("grpc Prove", "job=%s request_id=%s existing=%d bytes=%zu", id,
                cz_log_q(q, sizeof q, pr->submit->request_id), existing,
                pr->submit->vanilla_proof.len);
        rc = cz_server_await(env->server, ctx, id, -1, env->gone, true);
        if (rc == CZ_EUNAVAIL)
            reply_status(r, GRPC_STATUS_UNAVAILABLE, "%s", cz_ctx_message(ctx));
        else if (rc == CZ_ECANCELED)
            reply_status(r, GRPC_STATUS_CANCELLED, "%s", cz_ctx_message(ctx));
        else {
            cz_ctx_clear(ctx);
            fill_result(env->server, ctx, id, &res, &st);
            reply_msg(r, &out.base);
        }
    }
    free(st.proof);
    cz_ctx_free(ctx);
    cuzk__v1__prove_request__free_unpacked(pr, NULL);
}

static void do_submit(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                      cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__SubmitProofRequest, "SubmitProofRequest",
           cuzk__v1__submit_proof_request__unpack, sr, r, in, len);
    cz_ctx_t *ctx = new_ctx(r);
    char id[CZ_JOB_ID_LEN + 1] = "";
    bool existing = false;
    int rc = ctx ? submit(env->server, ctx, sr, id, &existing) : CZ_ENOMEM;
    if (ctx && rc != CZ_OK) {
        reply_error(r, rc, ctx, CZ_ERRMAP_REQUEST);
    } else if (ctx) {
        /* queue_position: the jobs accepted and not started, this one included */
        json_t *list = cz_server_list(env->server, "queued");
        Cuzk__V1__SubmitProofResponse out = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        out.job_id = id;
        out.queue_position = (uint32_t)json_array_size(json_object_get(list, "jobs"));
        json_decref(list);
        reply_msg(r, &out.base);
    }
    cz_ctx_free(ctx);
    cuzk__v1__submit_proof_request__free_unpacked(sr, NULL);
}

static void do_await(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                     cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__AwaitProofRequest, "AwaitProofRequest",
           cuzk__v1__await_proof_request__unpack, ar, r, in, len);
    cz_ctx_t *ctx = new_ctx(r);
    double timeout = ar->timeout_ms ? (double)ar->timeout_ms / 1e3 : -1;
    char id[CZ_JOB_ID_LEN + 1];
    int rc = ctx ? cz_server_lookup(env->server, ctx, ar->job_id, id) : CZ_ENOMEM;
    if (rc == CZ_OK)
        rc = cz_server_await(env->server, ctx, id, timeout, env->gone, false);
    if (ctx && (rc == CZ_OK || rc == CZ_EBUSY)) {
        Cuzk__V1__AwaitProofResponse out = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        result_store_t st = { .proof = NULL };
        cz_ctx_clear(ctx);
        fill_result(env->server, ctx, id, &out, &st);
        reply_msg(r, &out.base);
        free(st.proof);
    } else if (ctx) {
        reply_error(r, rc, ctx, CZ_ERRMAP_REQUEST);   /* EUNAVAIL, ECANCELED: their rows */
    }
    cz_ctx_free(ctx);
    cuzk__v1__await_proof_request__free_unpacked(ar, NULL);
}

static void do_cancel(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                      cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__CancelProofRequest, "CancelProofRequest",
           cuzk__v1__cancel_proof_request__unpack, cr, r, in, len);
    cz_ctx_t *ctx = new_ctx(r);
    json_t *before = NULL, *after = NULL;
    char id[CZ_JOB_ID_LEN + 1];
    int rc = ctx ? cz_server_lookup(env->server, ctx, cr->job_id, id) : CZ_ENOMEM;
    if (rc == CZ_OK)
        rc = cz_server_job(env->server, ctx, id, &before);
    if (rc == CZ_OK)
        rc = cz_server_cancel(env->server, ctx, id, &after);
    if (ctx && rc != CZ_OK) {
        reply_error(r, rc, ctx, CZ_ERRMAP_REQUEST);
    } else if (ctx) {
        const char *state = json_string_value(json_object_get(before, "state"));
        Cuzk__V1__CancelProofResponse out = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
        out.was_running = state && (!strcmp(state, "queued") || !strcmp(state, "running"));
        reply_msg(r, &out.base);
    }
    json_decref(before);
    json_decref(after);
    cz_ctx_free(ctx);
    cuzk__v1__cancel_proof_request__free_unpacked(cr, NULL);
}

/* ---- status, metrics ---------------------------------------------------- */

#define MAX_QUEUES 16

typedef struct {
    Cuzk__V1__QueueStatus q[MAX_QUEUES], *qp[MAX_QUEUES];
    size_t nq;
} queues_t;

static Cuzk__V1__QueueStatus *queue_of(queues_t *qs, const char *name)
{
    for (size_t i = 0; i < qs->nq; i++)
        if (!strcmp(qs->q[i].proof_kind, name))
            return &qs->q[i];
    if (qs->nq == MAX_QUEUES)
        return NULL;
    Cuzk__V1__QueueStatus *q = &qs->q[qs->nq];
    cuzk__v1__queue_status__init(q);
    q->proof_kind = (char *)name;   /* static or owned by the job list, outlives the reply */
    qs->qp[qs->nq++] = q;
    return q;
}

static void do_status(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                      cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__GetStatusRequest, "GetStatusRequest",
           cuzk__v1__get_status_request__unpack, gr, r, in, len);
    cuzk__v1__get_status_request__free_unpacked(gr, NULL);
    json_t *st = cz_server_status(env->server), *list = cz_server_list(env->server, NULL);
    if (!st || !list) {
        json_decref(st);
        json_decref(list);
        reply_status(r, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        return;
    }
    Cuzk__V1__GetStatusResponse out = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    /* devices */
    const json_t *devs = json_object_get(st, "devices");
    size_t nd = json_array_size(devs);
    Cuzk__V1__GPUStatus *g = calloc(nd ? nd : 1, sizeof *g);
    Cuzk__V1__GPUStatus **gp = calloc(nd ? nd : 1, sizeof *gp);
    char (*names)[32] = calloc(nd ? nd : 1, sizeof *names);
    for (size_t i = 0; g && gp && names && i < nd; i++) {
        const json_t *d = json_array_get(devs, i);
        cuzk__v1__gpustatus__init(&g[i]);
        g[i].ordinal = (uint32_t)json_integer_value(json_object_get(d, "index"));
        snprintf(names[i], sizeof names[i], "%s:%u",
                 jstr(json_object_get(d, "backend"), "?"), g[i].ordinal);
        g[i].name = names[i];
        gp[i] = &g[i];
        out.n_gpus++;
    }
    out.gpus = gp;
    /* loaded parameters: in memory = HOT, still loading = COLD */
    const json_t *pc = json_object_get(st, "params_cache");
    const json_t *ents = json_object_get(pc, "entries");
    size_t ne = json_array_size(ents);
    Cuzk__V1__SRSStatus *srs = calloc(ne ? ne : 1, sizeof *srs);
    Cuzk__V1__SRSStatus **sp = calloc(ne ? ne : 1, sizeof *sp);
    for (size_t i = 0; srs && sp && i < ne; i++) {
        const json_t *e = json_array_get(ents, i);
        const char *path = jstr(json_object_get(e, "path"), "");
        const char *base = strrchr(path, '/');
        cuzk__v1__srsstatus__init(&srs[i]);
        srs[i].circuit_id = (char *)(base ? base + 1 : path);
        srs[i].tier = json_is_true(json_object_get(e, "loading")) ? CUZK__V1__SRSSTATUS__TIER__COLD
                                                                   : CUZK__V1__SRSSTATUS__TIER__HOT;
        srs[i].size_bytes = (uint64_t)json_integer_value(json_object_get(e, "bytes"));
        srs[i].ref_count = (uint32_t)json_integer_value(json_object_get(e, "users"));
        sp[i] = &srs[i];
        out.n_loaded_srs++;
    }
    out.loaded_srs = sp;
    /* queues: every ProofKind, then whatever else the jobs are (HTTP-submitted kinds) */
    queues_t qs = { .nq = 0 };
    const cz_kinds_t *kinds = cz_server_kinds(env->server);
    for (size_t i = 0; i < cz__grpc_kind_count(kinds); i++)
        queue_of(&qs, cz__grpc_kind_name(kinds, i));
    size_t ij;
    json_t *job;
    json_array_foreach(json_object_get(list, "jobs"), ij, job) {
        const char *state = jstr(json_object_get(job, "state"), "");
        const char *kind = jstr(json_object_get(job, "kind"), "?");
        Cuzk__V1__QueueStatus *q = queue_of(&qs, cz__grpc_queue_name(kinds, kind));
        if (q && !strcmp(state, "queued"))
            q->pending++;
        else if (q && !strcmp(state, "running"))
            q->in_progress++;
    }
    out.queues = qs.qp;
    out.n_queues = qs.nq;
    const json_t *jobs = json_object_get(st, "jobs"), *mem = json_object_get(st, "memory");
    out.total_proofs_completed = (uint64_t)json_integer_value(json_object_get(jobs, "done"));
    out.total_proofs_failed = (uint64_t)json_integer_value(json_object_get(jobs, "failed"));
    out.uptime_seconds = (uint64_t)json_number_value(json_object_get(st, "uptime_s"));
    /* cuzk keeps no separate pinned pool: the engine's host memory budget stands for it */
    out.pinned_memory_bytes = (uint64_t)json_integer_value(json_object_get(mem, "reserved"));
    out.pinned_memory_limit_bytes = (uint64_t)json_integer_value(json_object_get(mem, "budget"));
    if (g && gp && names && srs && sp)
        reply_msg(r, &out.base);
    else
        reply_status(r, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    free(g);
    free(gp);
    free(names);
    free(srs);
    free(sp);
    json_decref(list);
    json_decref(st);
}

static void do_metrics(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                       cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__GetMetricsRequest, "GetMetricsRequest",
           cuzk__v1__get_metrics_request__unpack, mr, r, in, len);
    cuzk__v1__get_metrics_request__free_unpacked(mr, NULL);
    char *text = cz_server_metrics(env->server);
    if (!text) {
        reply_status(r, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        return;
    }
    Cuzk__V1__GetMetricsResponse out = CUZK__V1__GET_METRICS_RESPONSE__INIT;
    out.prometheus_text = text;
    reply_msg(r, &out.base);
    free(text);
}

/* ---- parameters ------------------------------------------------------------ */

/* Bytes of the loaded params whose file is |name| or |name|.params; false when none is. */
static bool loaded_bytes(cz_server_t *s, const char *name, uint64_t *bytes)
{
    json_t *st = cz_server_status(s);
    size_t i, n = strlen(name);
    json_t *e;
    bool found = false;
    json_array_foreach(json_object_get(json_object_get(st, "params_cache"), "entries"), i, e) {
        const char *path = jstr(json_object_get(e, "path"), "");
        const char *base = name[0] == '/' ? path : strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        if (!found && !strncmp(base, name, n) && (!base[n] || !strcmp(base + n, ".params"))) {
            *bytes = (uint64_t)json_integer_value(json_object_get(e, "bytes"));
            found = true;
        }
    }
    json_decref(st);
    return found;
}

static void do_preload(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                       cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__PreloadSrsRequest, "PreloadSrsRequest",
           cuzk__v1__preload_srs_request__unpack, pr, r, in, len);
    cz_ctx_t *ctx = new_ctx(r);
    char name[256];
    json_t *res = NULL;
    uint64_t bytes = 0;
    int rc = ctx ? cz__grpc_params_name(ctx, cz_server_kinds(env->server), pr->circuit_id, name, sizeof name) : CZ_ENOMEM;
    bool loaded = rc == CZ_OK && loaded_bytes(env->server, name, &bytes);
    if (rc == CZ_OK)
        rc = cz_server_preload(env->server, ctx, name, &res);
    if (ctx && rc != CZ_OK) {
        reply_error(r, rc, ctx, CZ_ERRMAP_PARAMS);
    } else if (ctx) {
        Cuzk__V1__PreloadSrsResponse out = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
        double ms = json_number_value(json_object_get(res, "load_ms"));
        out.already_loaded = loaded;
        out.load_time_ms = (uint64_t)(ms + 0.5);
        reply_msg(r, &out.base);
    }
    json_decref(res);
    cz_ctx_free(ctx);
    cuzk__v1__preload_srs_request__free_unpacked(pr, NULL);
}

static void do_evict(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                     cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__EvictSrsRequest, "EvictSrsRequest",
           cuzk__v1__evict_srs_request__unpack, er, r, in, len);
    cz_ctx_t *ctx = new_ctx(r);
    char name[256];
    json_t *res = NULL;
    uint64_t bytes = 0;
    int rc = ctx ? cz__grpc_params_name(ctx, cz_server_kinds(env->server), er->circuit_id, name, sizeof name) : CZ_ENOMEM;
    bool loaded = rc == CZ_OK && loaded_bytes(env->server, name, &bytes);
    if (rc == CZ_OK && loaded)
        rc = cz_server_evict(env->server, ctx, name, &res);
    if (ctx && rc != CZ_OK) {
        reply_error(r, rc, ctx, CZ_ERRMAP_PARAMS);   /* in use: FAILED_PRECONDITION */
    } else if (ctx) {
        Cuzk__V1__EvictSrsResponse out = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
        out.was_loaded = loaded;
        out.freed_bytes = loaded ? bytes : 0;
        reply_msg(r, &out.base);
    }
    json_decref(res);
    cz_ctx_free(ctx);
    cuzk__v1__evict_srs_request__free_unpacked(er, NULL);
}

/* ---- the method table ----------------------------------------------------- */

static const struct {
    const char *path;
    cz_grpc_handler_fn *fn;
} methods[] = {
    { "/cuzk.v1.ProvingEngine/Prove", do_prove },
    { "/cuzk.v1.ProvingEngine/SubmitProof", do_submit },
    { "/cuzk.v1.ProvingEngine/AwaitProof", do_await },
    { "/cuzk.v1.ProvingEngine/CancelProof", do_cancel },
    { "/cuzk.v1.ProvingEngine/GetStatus", do_status },
    { "/cuzk.v1.ProvingEngine/GetMetrics", do_metrics },
    { "/cuzk.v1.ProvingEngine/PreloadSRS", do_preload },
    { "/cuzk.v1.ProvingEngine/EvictSRS", do_evict },
};

cz_grpc_handler_fn *cz__grpc_method(const char *path, size_t len)
{
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
        if (strlen(methods[i].path) == len && !memcmp(methods[i].path, path, len))
            return methods[i].fn;
    return NULL;
}
