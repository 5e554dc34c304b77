/*
 * daemon/grpc/service.c — the eight cuzk.v1.ProvingEngine methods over the
 * job layer (see service.h): protobuf messages to and from the core's C
 * structs (daemon/server.h), job states by cz_job_state_t. Status and
 * metrics come from the same counts as the HTTP API's /v1/status and
 * /metrics, so both doors report the same jobs. The one JSON left is the
 * kinds' Curio maps' output (kinds/kinds.h), taken as the core's request
 * with its input borrowed (submit below).
 */
#include "daemon/grpc/service.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/errmap.h"
#include "daemon/grpc/curio.h"
#include "daemon/grpc/unpack.h"
#include "daemon/jsonio.h"
#include "daemon/log.h"

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
/* laid out by hand: */
/* clang-format off */
#define UNPACK(type, name, fn, var, r, in, len)                                                \
    type *var = fn(NULL, len, in);                                                             \
    if (!var) {                                                                                \
        reply_status(r, GRPC_STATUS_INVALID_ARGUMENT, "request: %zu bytes that do not parse "   \
                     "as a cuzk.v1." name, len);                                               \
        return;                                                                                \
    }
/* clang-format on */

/* Prove's and SubmitProof's messages, their vanilla_proof borrowed from the message
 * (daemon/grpc/unpack.h: not copied by protobuf-c), in UNPACK's shape. */
static Cuzk__V1__ProveRequest *prove_unpack(ProtobufCAllocator *a, size_t len, const uint8_t *in)
{
    (void)a;
    return cz__grpc_unpack_prove(in, len);
}

static Cuzk__V1__SubmitProofRequest *submit_unpack(ProtobufCAllocator *a, size_t len,
                                                   const uint8_t *in)
{
    (void)a;
    return cz__grpc_unpack_submit(in, len);
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
    cz_job_status_t st;
} result_store_t;

static uint64_t ms_of(double v)
{
    return v > 0 ? (uint64_t)(v + 0.5) : 0;
}

/* Fill |res| with the state of job |id| (ended or not). */
static void fill_result(cz_server_t *s, cz_ctx_t *ctx, const char *id,
                        Cuzk__V1__AwaitProofResponse *res, result_store_t *store)
{
    snprintf(store->id, sizeof store->id, "%s", id);
    res->job_id = store->id;
    cz_job_status_t *st = &store->st;
    if (cz_server_job(s, ctx, id, st) != CZ_OK) {
        res->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        snprintf(store->message, sizeof store->message, "%s", cz_ctx_message(ctx));
        res->error_message = store->message;
        return;
    }
    res->queue_wait_ms = ms_of(st->t.queue_wait);
    res->srs_load_ms = ms_of(st->t.params_load);
    res->synthesis_ms = ms_of(st->t.synthesis);
    res->gpu_compute_ms = ms_of(st->t.device);
    res->total_ms = ms_of(st->t.total);
    if (st->state == CZ_JOB_DONE) {
        cz_job_result_t out;
        if (cz_server_result(s, ctx, id, &out, NULL) == CZ_OK) {
            res->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
            store->proof = out.proof; /* kept for the reply; the rest goes */
            res->proof.data = out.proof;
            res->proof.len = out.proof_len;
            out.proof = NULL;
            cz_job_result_free(&out);
        } else { /* it expired in between: the client retries and proves again */
            res->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
            snprintf(store->message, sizeof store->message, "%s", cz_ctx_message(ctx));
        }
    } else if (cz_job_status_ended(st)) { /* failed, canceled, lost */
        res->status = st->state == CZ_JOB_CANCELED
                          ? CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED
                          : CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        snprintf(store->message, sizeof store->message, "job %s %s: %s", id,
                 cz_job_status_state(st), st->message);
    } else {
        res->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
        snprintf(store->message, sizeof store->message, "job %s is still %s", id,
                 cz_job_status_state(st));
    }
    if (*store->message)
        res->error_message = store->message;
}

/*
 * Map and submit |r|; *id the job. CZ_E* with the message naming the field.
 * The kind's Curio map gives its request object and, for a large input,
 * the bytes it decoded (kinds/kinds.h: porep-c2's C1); the core takes them
 * as a cz_submit_req_t that borrows those bytes or the object's input
 * string (daemon/jsonio.h), so the bytes the map wrote are the ones the
 * kind parses.
 */
static int submit(cz_server_t *s, cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r,
                  char id[CZ_JOB_ID_LEN + 1], bool *existing)
{
    json_t *req = NULL;
    cz_curio_input_t input = { NULL, 0 };
    cz_submit_json_t sj;
    cz_submit_out_t out = { .existing = false };
    int rc = cz__grpc_job_request(ctx, cz_server_kinds(s), r, &req, &input);
    if (rc == CZ_OK && (rc = cz_submit_from_json(ctx, s, req, &sj)) == CZ_OK) {
        sj.req.retry = true; /* Curio retries one request_id until it has a proof */
        if (input.data) {    /* the map's decoded bytes (a C1): the parser reads these */
            sj.req.input = input.data;
            sj.req.input_len = input.len;
        }
        rc = cz_server_submit(s, ctx, &sj.req, &out);
        cz_submit_json_free(&sj);
    }
    free(input.data);
    json_decref(req);
    if (rc == CZ_OK) {
        snprintf(id, CZ_JOB_ID_LEN + 1, "%s", out.id);
        *existing = out.existing;
    }
    return rc;
}

static void do_prove(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                     cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__ProveRequest, "ProveRequest", prove_unpack, pr, r, in, len);
    cz_ctx_t *ctx = new_ctx(r);
    Cuzk__V1__AwaitProofResponse res = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    Cuzk__V1__ProveResponse out = CUZK__V1__PROVE_RESPONSE__INIT;
    result_store_t *st = calloc(1, sizeof *st);
    char id[CZ_JOB_ID_LEN + 1] = "";
    bool existing = false;
    out.result = &res;
    if (!st) {
        reply_status(r, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        cz_ctx_free(ctx);
        cz__grpc_prove_free(pr);
        return;
    }
    int rc = !ctx          ? CZ_ENOMEM
             : !pr->submit ? cz_fail(ctx, CZ_EINVAL, "submit: missing (the SubmitProofRequest)")
                           : submit(env->server, ctx, pr->submit, id, &existing);
    /* Curio's own daemon answers these two with a status (INVALID_ARGUMENT, extern/cuzk
     * cuzk-server service.rs prove, proto_to_request), and a proof it cannot make with OK,
     * result FAILED and the error: so does this one (docs/CURIO.md) */
    bool as_status = ctx && rc != CZ_OK &&
                     (!pr->submit || !cz_kinds_by_proof_kind(cz_server_kinds(env->server),
                                                             (int)pr->submit->proof_kind));
    if (ctx && rc == CZ_EUNAVAIL && cz_server_stopping(env->server)) {
        reply_status(r, GRPC_STATUS_UNAVAILABLE, "%s", cz_ctx_message(ctx));
    } else if (as_status) {
        reply_error(r, rc, ctx, CZ_ERRMAP_REQUEST);
    } else if (ctx && rc != CZ_OK) {
        /* refused before any work: FAILED naming the field, the daemon keeps serving */
        res.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        snprintf(st->message, sizeof st->message, "%s", cz_ctx_message(ctx));
        res.error_message = st->message;
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
            fill_result(env->server, ctx, id, &res, st);
            reply_msg(r, &out.base);
        }
    }
    free(st->proof);
    free(st);
    cz_ctx_free(ctx);
    cz__grpc_prove_free(pr);
}

static void do_submit(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                      cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__SubmitProofRequest, "SubmitProofRequest", submit_unpack, sr, r, in, len);
    cz_ctx_t *ctx = new_ctx(r);
    char id[CZ_JOB_ID_LEN + 1] = "";
    bool existing = false;
    int rc = ctx ? submit(env->server, ctx, sr, id, &existing) : CZ_ENOMEM;
    if (ctx && rc != CZ_OK) {
        reply_error(r, rc, ctx, CZ_ERRMAP_REQUEST);
    } else if (ctx) {
        /* queue_position: the jobs accepted and not started, this one included */
        cz_server_counts_t counts;
        cz_server_counts(env->server, &counts);
        Cuzk__V1__SubmitProofResponse out = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        out.job_id = id;
        out.queue_position = (uint32_t)counts.jobs[CZ_JOB_QUEUED];
        reply_msg(r, &out.base);
    }
    cz_ctx_free(ctx);
    cz__grpc_submit_free(sr);
}

static void do_await(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                     cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__AwaitProofRequest, "AwaitProofRequest", cuzk__v1__await_proof_request__unpack,
           ar, r, in, len);
    cz_ctx_t *ctx = new_ctx(r);
    double timeout = ar->timeout_ms ? (double)ar->timeout_ms / 1e3 : -1;
    char id[CZ_JOB_ID_LEN + 1];
    int rc = ctx ? cz_server_lookup(env->server, ctx, ar->job_id, id) : CZ_ENOMEM;
    if (rc == CZ_OK)
        rc = cz_server_await(env->server, ctx, id, timeout, env->gone, false);
    if (ctx && (rc == CZ_OK || rc == CZ_EBUSY)) {
        Cuzk__V1__AwaitProofResponse out = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        result_store_t *st = calloc(1, sizeof *st);
        cz_ctx_clear(ctx);
        if (st) {
            fill_result(env->server, ctx, id, &out, st);
            reply_msg(r, &out.base);
            free(st->proof);
            free(st);
        } else {
            reply_status(r, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        }
    } else if (ctx) {
        reply_error(r, rc, ctx, CZ_ERRMAP_REQUEST); /* EUNAVAIL, ECANCELED: their rows */
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
    cz_job_status_t *before = calloc(1, sizeof *before);
    char id[CZ_JOB_ID_LEN + 1];
    int rc = !ctx      ? CZ_ENOMEM
             : !before ? cz_fail(ctx, CZ_ENOMEM, "status")
                       : cz_server_lookup(env->server, ctx, cr->job_id, id);
    if (rc == CZ_OK)
        rc = cz_server_cancel(env->server, ctx, id, before, NULL);
    if (ctx && rc != CZ_OK) {
        reply_error(r, rc, ctx, CZ_ERRMAP_REQUEST);
    } else if (ctx) {
        Cuzk__V1__CancelProofResponse out = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
        out.was_running = !cz_job_status_ended(before);
        reply_msg(r, &out.base);
    }
    free(before);
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
    q->proof_kind = (char *)name; /* static or owned by the job list, outlives the reply */
    qs->qp[qs->nq++] = q;
    return q;
}

#define MAX_SRS 32 /* the params entries GetStatus lists, as /v1/status */

static void do_status(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                      cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__GetStatusRequest, "GetStatusRequest", cuzk__v1__get_status_request__unpack, gr,
           r, in, len);
    cuzk__v1__get_status_request__free_unpacked(gr, NULL);
    cz_server_counts_t c;
    cz_server_counts(env->server, &c);
    cz_job_status_t *jobs = NULL;
    size_t nj = 0;
    cz_params_item_t *items = calloc(MAX_SRS, sizeof *items);
    size_t ne = items ? cz_server_params(env->server, items, MAX_SRS) : 0;
    size_t nd = c.devices;
    Cuzk__V1__GPUStatus *g = calloc(nd ? nd : 1, sizeof *g);
    Cuzk__V1__GPUStatus **gp = calloc(nd ? nd : 1, sizeof *gp);
    char(*names)[32] = calloc(nd ? nd : 1, sizeof *names);
    Cuzk__V1__SRSStatus *srs = calloc(ne ? ne : 1, sizeof *srs);
    Cuzk__V1__SRSStatus **sp = calloc(ne ? ne : 1, sizeof *sp);
    if (!items || !g || !gp || !names || !srs || !sp ||
        cz_server_list(env->server, &jobs, &nj) != CZ_OK) {
        reply_status(r, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        goto done;
    }
    Cuzk__V1__GetStatusResponse out = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    for (size_t i = 0; i < nd; i++) { /* devices */
        cuzk__v1__gpustatus__init(&g[i]);
        g[i].ordinal = (uint32_t)i;
        snprintf(names[i], sizeof names[i], "%s:%u", c.backend, g[i].ordinal);
        g[i].name = names[i];
        gp[i] = &g[i];
    }
    out.gpus = gp;
    out.n_gpus = nd;
    for (size_t i = 0; i < ne; i++) { /* loaded parameters: in memory = HOT, loading = COLD */
        const char *base = strrchr(items[i].path, '/');
        cuzk__v1__srsstatus__init(&srs[i]);
        srs[i].circuit_id = base ? (char *)base + 1 : items[i].path;
        srs[i].tier = items[i].loading ? CUZK__V1__SRSSTATUS__TIER__COLD
                                       : CUZK__V1__SRSSTATUS__TIER__HOT;
        srs[i].size_bytes = items[i].bytes;
        srs[i].ref_count = items[i].users;
        sp[i] = &srs[i];
    }
    out.loaded_srs = sp;
    out.n_loaded_srs = ne;
    /* queues: every ProofKind, then whatever else the jobs are (HTTP-submitted kinds) */
    queues_t qs = { .nq = 0 };
    const cz_kinds_t *kinds = cz_server_kinds(env->server);
    for (size_t i = 0; i < cz__grpc_kind_count(kinds); i++)
        queue_of(&qs, cz__grpc_kind_name(kinds, i));
    for (size_t i = 0; i < nj; i++) {
        Cuzk__V1__QueueStatus *q = queue_of(&qs, cz__grpc_queue_name(kinds, jobs[i].kind));
        if (q && jobs[i].state == CZ_JOB_QUEUED)
            q->pending++;
        else if (q && jobs[i].state == CZ_JOB_RUNNING)
            q->in_progress++;
    }
    out.queues = qs.qp;
    out.n_queues = qs.nq;
    out.total_proofs_completed = c.jobs[CZ_JOB_DONE];
    out.total_proofs_failed = c.jobs[CZ_JOB_FAILED];
    out.uptime_seconds = (uint64_t)c.uptime_s;
    /* cuzk keeps no separate pinned pool: the engine's host memory budget stands for it */
    out.pinned_memory_bytes = c.memory_reserved;
    out.pinned_memory_limit_bytes = c.memory_budget;
    reply_msg(r, &out.base);
done:
    free(g);
    free(gp);
    free(names);
    free(srs);
    free(sp);
    free(items);
    free(jobs); /* after the reply is packed: queue names point into it */
}

static void do_metrics(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                       cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__GetMetricsRequest, "GetMetricsRequest", cuzk__v1__get_metrics_request__unpack,
           mr, r, in, len);
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
    cz_params_item_t *items = calloc(MAX_SRS, sizeof *items);
    size_t n = items ? cz_server_params(s, items, MAX_SRS) : 0, nl = strlen(name);
    bool found = false;
    for (size_t i = 0; i < n && !found; i++) {
        const char *path = items[i].path, *slash = strrchr(path, '/');
        const char *base = name[0] == '/' ? path : slash ? slash + 1 : path;
        if (!strncmp(base, name, nl) && (!base[nl] || !strcmp(base + nl, ".params"))) {
            *bytes = items[i].bytes;
            found = true;
        }
    }
    free(items);
    return found;
}

static void do_preload(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                       cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__PreloadSrsRequest, "PreloadSrsRequest", cuzk__v1__preload_srs_request__unpack,
           pr, r, in, len);
    cz_ctx_t *ctx = new_ctx(r);
    char name[256];
    cz_params_item_t *it = calloc(1, sizeof *it);
    uint64_t bytes = 0;
    int rc = !ctx  ? CZ_ENOMEM
             : !it ? cz_fail(ctx, CZ_ENOMEM, "reply")
                   : cz__grpc_params_name(ctx, cz_server_kinds(env->server), pr->circuit_id, name,
                                          sizeof name);
    bool loaded = rc == CZ_OK && loaded_bytes(env->server, name, &bytes);
    if (rc == CZ_OK)
        rc = cz_server_preload(env->server, ctx, name, it);
    if (ctx && rc != CZ_OK) {
        reply_error(r, rc, ctx, CZ_ERRMAP_PARAMS);
    } else if (ctx) {
        Cuzk__V1__PreloadSrsResponse out = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
        out.already_loaded = loaded;
        out.load_time_ms = ms_of(it->load_ms);
        reply_msg(r, &out.base);
    }
    free(it);
    cz_ctx_free(ctx);
    cuzk__v1__preload_srs_request__free_unpacked(pr, NULL);
}

static void do_evict(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                     cz_grpc_reply_t *r)
{
    UNPACK(Cuzk__V1__EvictSrsRequest, "EvictSrsRequest", cuzk__v1__evict_srs_request__unpack, er, r,
           in, len);
    cz_ctx_t *ctx = new_ctx(r);
    char name[256];
    uint64_t bytes = 0;
    int rc = ctx ? cz__grpc_params_name(ctx, cz_server_kinds(env->server), er->circuit_id, name,
                                        sizeof name)
                 : CZ_ENOMEM;
    bool loaded = rc == CZ_OK && loaded_bytes(env->server, name, &bytes);
    if (rc == CZ_OK && loaded)
        rc = cz_server_evict(env->server, ctx, name);
    if (ctx && rc != CZ_OK) {
        reply_error(r, rc, ctx, CZ_ERRMAP_PARAMS); /* in use: FAILED_PRECONDITION */
    } else if (ctx) {
        Cuzk__V1__EvictSrsResponse out = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
        out.was_loaded = loaded;
        out.freed_bytes = loaded ? bytes : 0;
        reply_msg(r, &out.base);
    }
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
