/*
 * daemon/server.c — lifecycle, the finisher thread and journal replay over
 * the prover (see daemon/server.h; the request side is in daemon/jobs.c).
 *
 * The prover (cuzk.h) does the proving: params, the kinds, the engine. The
 * daemon adds durability: a job is journaled before it is acknowledged,
 * and its result before it is reported ended. The prover's completion
 * callback only marks a job ended and wakes the finisher, which fetches
 * the proof, journals it (fsync) and publishes it: no thread polls the
 * engine, and no engine worker waits on the disk.
 */
#include "core/hex.h"
#include "daemon/server_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "daemon/log.h"
#include "ff/fr.h"
#include "groth16/proof.h"

double cz__now_s(void) { return cz_mono_s(); }

bool cz_server_stopping(cz_server_t *s)
{
    cz_mutex_lock(&s->mu);
    bool st = s->stopping;
    cz_mutex_unlock(&s->mu);
    return st;
}

const cz_dconfig_t *cz_server_config(const cz_server_t *s) { return &s->cfg; }

/* ---- ending a job --------------------------------------------------------- */

static json_t *timings_json(const cz_job_timings_t *t)
{
    return json_pack("{s:f,s:f,s:f,s:f,s:f}", "queue_wait_ms", t->queue_wait, "params_load_ms",
                     t->params_load, "synthesis_ms", t->synthesis, "device_ms", t->device,
                     "total_ms", t->total);
}

/* Every partition's public inputs as 0x-hex strings, one array per partition. */
static json_t *public_json(const uint8_t *in, size_t per, size_t parts)
{
    json_t *pub = json_array();
    for (size_t p = 0; pub && p < parts; p++) {
        json_t *blk = json_array();
        for (size_t i = 0; blk && i < per; i++) {
            cz_fr fr;
            char h[67];
            if (cz_fr_from_repr(&fr, in + 32 * (p * per + i)) != CZ_OK) {
                json_decref(blk);
                json_decref(pub);
                return NULL;
            }
            cz_fr_to_hex(h, &fr);
            json_array_append_new(blk, json_string(h));
        }
        json_array_append_new(pub, blk);
    }
    return pub;
}

/*
 * Journal the outcome, then publish it (s->mu NOT held; j->state is
 * FINISHING, owned by the caller). |proof| and |pub| are taken.
 */
static void job_end(cz_server_t *s, djob_t *j, dj_state_t st, int error, const char *msg,
                    uint8_t *proof, size_t proof_len, json_t *pub, const cz_job_timings_t *t)
{
    char *hex = NULL;
    if (st == DJ_DONE && (hex = malloc(2 * proof_len + 1)))
        cz_hex_encode(hex, proof, proof_len);
    time_t finished = time(NULL);
    json_t *doc = json_pack("{s:s,s:s,s:I,s:o}", "id", j->id, "state", cz__state_name(st),
                            "finished", (json_int_t)finished, "timings", timings_json(t));
    if (doc && st == DJ_DONE)
        json_object_set_new(doc, "proof", json_string(hex ? hex : "")),
            json_object_set(doc, "public_inputs", pub);
    if (doc && st != DJ_DONE) {
        json_object_set_new(doc, "error", json_string(cz_err_name(error)));
        json_object_set_new(doc, "message", json_string(msg ? msg : ""));
    }
    cz_ctx_t *ctx = NULL;
    int rc = cz_ctx_new(&ctx, NULL, 1);
    if (rc == CZ_OK)
        rc = doc && (st != DJ_DONE || (hex && pub)) ? cz_journal_put(s->journal, ctx, j->id, "result", doc)
                                                    : CZ_ENOMEM;
    char jmsg[256] = "";
    if (rc != CZ_OK) {
        snprintf(jmsg, sizeof jmsg, "result not journaled: %s",
                 ctx && *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
        CZ_LOGE("journal write failed", "id=%s error=%s", j->id, cz_err_name(rc));
    }
    cz_ctx_free(ctx);
    json_decref(doc);
    free(hex);

    cz_mutex_lock(&s->mu);
    if (rc != CZ_OK && st == DJ_DONE) {
        /* never report done what is not durable: the client may retry */
        st = DJ_FAILED;
        error = rc;
        msg = jmsg;
        free(proof);
        proof = NULL;
        json_decref(pub);
        pub = NULL;
    }
    j->state = st;
    j->error = error;
    snprintf(j->message, sizeof j->message, "%s", msg ? msg : "");
    j->proof = proof;
    j->proof_len = proof ? proof_len : 0;
    j->public_inputs = pub;
    j->finished = finished;
    j->t = *t;
    if (st == DJ_DONE)
        j->partitions_done = j->partitions;
    if (st == DJ_FAILED && error < 0 && -error < CZ_E_COUNT)
        s->errors[-error]++;
    pthread_cond_broadcast(&s->changed);
    cz_mutex_unlock(&s->mu);
    char q[300];
    if (st == DJ_DONE)
        CZ_LOGI("job done", "id=%s partitions=%zu total_ms=%.0f", j->id, j->partitions, t->total);
    else
        CZ_LOGW(st == DJ_FAILED ? "job failed" : "job canceled", "id=%s error=%s message=%s", j->id,
                cz_err_name(error), cz_log_q(q, sizeof q, j->message));
}

/* A job that failed before the prover had it (replay): its timings are the wait. */
static void job_fail_early(cz_server_t *s, djob_t *j, int error, const char *msg)
{
    cz_job_timings_t t = { 0 };
    job_end(s, j, DJ_FAILED, error, msg, NULL, 0, NULL, &t);
}

/* The outcome of prover job j->pid, journaled and published; the prover forgets it. */
static void finish_from_prover(cz_server_t *s, djob_t *j)
{
    cz_job_info_t info;
    cz_error_t err = { CZ_OK, "" };
    uint8_t *proof = NULL, *inputs = NULL;
    size_t len = 0, per = 0, parts = 0;
    json_t *pub = NULL;
    dj_state_t st = DJ_FAILED;
    int error = CZ_EINTERNAL;
    const char *msg = "the prover lost the job";
    if (cz_prover_status(s->prover, j->pid, &info, &err) == CZ_OK) {
        st = info.state == CZ_JOB_DONE ? DJ_DONE : info.state == CZ_JOB_CANCELED ? DJ_CANCELED
                                                                                 : DJ_FAILED;
        error = info.error;
        msg = info.message;
    }
    if (st == DJ_DONE && (cz_prover_proof(s->prover, j->pid, &proof, &len, &err) != CZ_OK ||
                          cz_prover_public_inputs(s->prover, j->pid, &inputs, &per, &parts, &err) != CZ_OK ||
                          !(pub = public_json(inputs, per, parts)))) {
        st = DJ_FAILED;
        error = err.code ? err.code : CZ_ENOMEM;
        msg = *err.message ? err.message : "public inputs";
        cz_free(proof);
        proof = NULL;
    }
    char m[256];
    snprintf(m, sizeof m, "%s", st == DJ_CANCELED && !*msg ? "canceled" : msg);
    cz_job_timings_t t = info.t;
    cz_free(inputs);
    /* the proof is the daemon's now: a copy in malloc's heap, as job_end expects */
    uint8_t *mine = NULL;
    if (proof && (mine = malloc(len)))
        memcpy(mine, proof, len);
    else if (proof)
        st = DJ_FAILED, error = CZ_ENOMEM, snprintf(m, sizeof m, "proof copy");
    cz_free(proof);
    cz_prover_forget(s->prover, j->pid, NULL);
    job_end(s, j, st, st == DJ_DONE ? CZ_OK : error, m, mine, len, pub, &t);
}

/* The prover's completion callback (a library thread, no library lock held). */
void cz__job_ended(void *user, cz_prover_t *p, uint64_t id, cz_job_state_t state);
void cz__job_ended(void *user, cz_prover_t *p, uint64_t id, cz_job_state_t state)
{
    (void)p;
    (void)state;
    cz_server_t *s = user;
    cz_mutex_lock(&s->mu);
    for (djob_t *j = s->jobs; j; j = j->next)
        if (j->pid == id) {
            j->ended = true;
            pthread_cond_broadcast(&s->work);
            break;
        }
    cz_mutex_unlock(&s->mu);
}

/* ---- the finisher -------------------------------------------------------------- */

/*
 * Drop ended jobs whose results expired. Called with s->mu held; the jobs
 * leave the list under the lock, and their journal files (unlinks and a
 * directory fsync) are removed after it is dropped, so no request waits on
 * the disk. Returns with s->mu held again.
 */
static void expire(cz_server_t *s)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    time_t now = time(NULL);
    djob_t *gone_list = NULL;
    for (djob_t **pp = &s->jobs; *pp;) {
        djob_t *j = *pp;
        bool gone = DJ_ENDED(j->state) &&
                    ((j->fetched && now - j->fetched >= s->cfg.keep_fetched) ||
                     (j->finished && now - j->finished >= s->cfg.result_ttl));
        if (!gone) {
            pp = &j->next;
            continue;
        }
        *pp = j->next;
        j->next = gone_list;
        gone_list = j;
    }
    if (!gone_list)
        return;
    cz_mutex_unlock(&s->mu);
    while (gone_list) {
        djob_t *j = gone_list;
        gone_list = j->next;
        cz_journal_remove(s->journal, j->id);
        CZ_LOGI("result expired", "id=%s fetched=%d", j->id, j->fetched != 0);
        json_decref(j->request);
        json_decref(j->public_inputs);
        free(j->proof);
        free(j);
    }
    cz_mutex_lock(&s->mu);
}

static void *finisher_main(void *arg)
{
    cz_server_t *s = arg;
    double last_expire = 0;
    cz_mutex_lock(&s->mu);
    while (!s->stop_threads) {
        djob_t *ended = NULL;
        for (djob_t *j = s->jobs; j && !ended; j = j->next)
            if (j->ended && !j->claim && !j->abandoned && !DJ_ENDED(j->state) &&
                j->state != DJ_FINISHING)
                ended = j;
        if (ended) {
            ended->state = DJ_FINISHING;
            cz_mutex_unlock(&s->mu);
            finish_from_prover(s, ended);
            cz_mutex_lock(&s->mu);
            continue;   /* look again at once: more may have ended */
        }
        double now = cz__now_s();
        if (now - last_expire > 1.0) {
            expire(s);
            last_expire = now;
            continue;
        }
        /* woken by a callback; else once a second for the expiry */
        struct timespec ts = cz_deadline_in(1.0);
        cz_cond_timedwait(&s->work, &s->mu, &ts);
    }
    cz_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- journal replay -------------------------------------------------------- */

static void replay_one(void *arg, const char *id, json_t *job, json_t *result, time_t fetched)
{
    cz_server_t *s = arg;
    djob_t *j = calloc(1, sizeof *j);
    if (!j)
        return;
    snprintf(j->id, sizeof j->id, "%s", id);
    json_t *req = json_object_get(job, "request");
    const char *rid = json_string_value(json_object_get(job, "request_id"));
    snprintf(j->request_id, sizeof j->request_id, "%s", rid ? rid : "");
    j->request = json_incref(req);
    j->created = (time_t)json_integer_value(json_object_get(job, "created"));
    j->seq = (uint64_t)json_integer_value(json_object_get(job, "seq"));
    j->recovered = true;
    if (j->seq >= s->next_seq)
        s->next_seq = j->seq + 1;
    const char *kname = json_string_value(json_object_get(req, "kind"));
    snprintf(j->kind, sizeof j->kind, "%s", kname ? kname : "?");
    const json_t *pr = json_object_get(req, "partitions");
    j->partitions = json_is_integer(pr) ? (size_t)json_integer_value(pr) : 1;
    if (result) {
        const char *st = json_string_value(json_object_get(result, "state"));
        j->state = st && !strcmp(st, "done") ? DJ_DONE : st && !strcmp(st, "canceled") ? DJ_CANCELED
                                                                                          : DJ_FAILED;
        j->finished = (time_t)json_integer_value(json_object_get(result, "finished"));
        j->fetched = fetched;
        const char *err = json_string_value(json_object_get(result, "error"));
        const char *msg = json_string_value(json_object_get(result, "message"));
        j->error = CZ_OK;
        for (int c = 1; err && c < CZ_E_COUNT; c++)
            if (!strcmp(cz_err_name(-c), err))
                j->error = -c;
        snprintf(j->message, sizeof j->message, "%s", msg ? msg : "");
        json_t *t = json_object_get(result, "timings");
        j->t = (cz_job_timings_t){ json_number_value(json_object_get(t, "queue_wait_ms")),
                                   json_number_value(json_object_get(t, "params_load_ms")),
                                   json_number_value(json_object_get(t, "synthesis_ms")),
                                   json_number_value(json_object_get(t, "device_ms")),
                                   json_number_value(json_object_get(t, "total_ms")) };
        if (j->state == DJ_DONE) {
            const char *hex = json_string_value(json_object_get(result, "proof"));
            size_t n = hex ? strlen(hex) / 2 : 0;
            j->proof = n ? malloc(n) : NULL;
            j->public_inputs = json_incref(json_object_get(result, "public_inputs"));
            if (!j->proof || !cz_hex_decode(j->proof, hex, n) || n % CZ_PROOF_BYTES) {
                free(j->proof);
                j->proof = NULL;
                j->state = DJ_FAILED;
                j->error = CZ_EFORMAT;
                snprintf(j->message, sizeof j->message, "journaled result of %s is corrupt", id);
            } else {
                j->proof_len = n;
                j->partitions = n / CZ_PROOF_BYTES;
                j->partitions_done = j->partitions;
            }
        }
        j->next = s->jobs;
        s->jobs = j;
        return;
    }
    cz_ctx_t *ctx = NULL;
    int rc = cz_ctx_new(&ctx, NULL, 1);
    j->state = DJ_QUEUED;
    j->claim = true;   /* not served until re-submitted (or failed) */
    j->next = s->jobs;
    s->jobs = j;
    s->jobs_recovered++;
    if (rc == CZ_OK)
        rc = cz__submit_to_prover(s, ctx, req, j);
    j->claim = false;
    if (rc == CZ_OK) {
        CZ_LOGI("job re-queued from the journal", "id=%s", id);
    } else {
        char msg[256];
        snprintf(msg, sizeof msg, "after restart: %s",
                 ctx && *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
        j->state = DJ_FINISHING;
        job_fail_early(s, j, rc, msg);
    }
    cz_ctx_free(ctx);
}

/* ---- lifecycle ------------------------------------------------------------ */

/* The prover's configuration from cuzkd's (devices.*, memory.*, params.*, timeline.*). */
static int prover_config(cz_ctx_t *ctx, const cz_dconfig_t *cfg, cz_prover_config_t *pc)
{
    const char *want;
    size_t count;
    int rc = cz_dconfig_devices(ctx, cfg, &want, &count);
    if (rc != CZ_OK)
        return rc;
    cz_prover_config_init(pc);
    pc->backend = want;
    pc->devices = (unsigned)count;
    pc->workers_per_device = (unsigned)cfg->workers_per_device;
    pc->synth_workers = (unsigned)cfg->synth_workers;
    pc->threads = (unsigned)cfg->threads;
    pc->device_queue_depth = (unsigned)cfg->device_queue_depth;
    pc->max_retries = (unsigned)cfg->max_retries;
    pc->memory_margin = cfg->safety_margin;
    if (strcmp(cfg->total_budget, "auto"))
        cz_parse_bytes(cfg->total_budget, &pc->memory_budget);
    pc->cuda_device_mem_limit = cfg->cuda_device_mem_limit;
    pc->cuda_g2_on_cpu = cfg->cuda_g2_on_cpu;
    pc->params_dir = cfg->params_dir;
    /* 0 kept nothing unused in cuzkd: one byte does the same in the library's cache */
    pc->params_cache_bytes = cfg->cache_budget ? cfg->cache_budget : 1;
    pc->params_allow_paths = cfg->allow_client_paths;
    pc->max_partitions = (unsigned)cfg->max_partitions;
    pc->timeline = cfg->timeline_enabled ? (*cfg->timeline_file ? cfg->timeline_file : "-") : NULL;
    pc->log = cz_log_from_library;
    pc->log_level = CZ_LOG_LEVEL_DEBUG;   /* cz_log gates by cuzkd's level */
    return CZ_OK;
}

int cz_server_new(cz_ctx_t *ctx, const cz_dconfig_t *cfg, cz_server_t **out)
{
    *out = NULL;
    cz_server_t *s = calloc(1, sizeof *s);
    if (!s)
        return cz_fail(ctx, CZ_ENOMEM, "server");
    s->cfg = *cfg;
    s->t_start = cz__now_s();
    s->next_seq = 1;
    cz_mutex_init(&s->mu);
    pthread_cond_init(&s->changed, NULL);
    pthread_cond_init(&s->work, NULL);
    cz_prover_config_t pc;
    cz_error_t err;
    int rc = prover_config(ctx, cfg, &pc);
    if (rc == CZ_OK && (rc = cz_prover_new(&s->prover, &pc, &err)) != CZ_OK) {
        /* name the key that chose what failed */
        if (rc == CZ_ERANGE)
            cz_fail(ctx, rc, "devices.devices = \"%s\": %s", cfg->devices, err.message);
        else if (strstr(err.message, "backend"))
            cz_fail(ctx, rc, "devices.backend = \"%s\": %s", cfg->backend, err.message);
        else
            cz_fail(ctx, rc, "%s", err.message);
    }
    if (rc == CZ_OK) {
        cz_prover_info_t pi;
        cz_prover_info(s->prover, &pi);
        char q[600];
        CZ_LOGI("backend chosen", "backend=%s requested=%s devices=%zu detail=%s", pi.backend,
                pc.backend, pi.devices,
                cz_log_q(q, sizeof q, *pi.backend_detail ? pi.backend_detail : "requested"));
    }
    if (rc == CZ_OK)
        rc = cz_journal_open(ctx, cfg->journal_dir, &s->journal);
    if (rc == CZ_OK)
        rc = cz_journal_scan(s->journal, ctx, replay_one, s);
    if (rc == CZ_OK) {
        if (pthread_create(&s->finisher, NULL, finisher_main, s) == 0)
            s->threads_started = true;
        else
            rc = cz_fail(ctx, CZ_ENOMEM, "cannot start the finisher thread");
    }
    if (rc != CZ_OK) {
        cz_server_free(s);
        return rc;
    }
    for (size_t i = 0; i < cfg->npreload; i++) {
        json_t *r = NULL;
        if (cz_server_preload(s, ctx, cfg->preload[i], &r) != CZ_OK)
            CZ_LOGW("preload failed", "params=%s error=\"%s\"", cfg->preload[i], cz_ctx_message(ctx));
        json_decref(r);
    }
    *out = s;
    return CZ_OK;
}

/*
 * Jobs not yet running are left for the next start: canceled in the
 * prover (nothing journaled for them), they stay unfinished in the
 * journal. Running ones get |grace_s| to finish and be journaled.
 */
void cz_server_shutdown(cz_server_t *s, double grace_s)
{
    cz_mutex_lock(&s->mu);
    if (s->stopping && s->stop_threads) {
        cz_mutex_unlock(&s->mu);
        return;
    }
    s->stopping = true;
    pthread_cond_broadcast(&s->changed);   /* long polls return now */
    for (;;) {
        uint64_t pid = 0;
        for (djob_t *j = s->jobs; j && !pid; j = j->next) {
            cz_job_info_t info;
            if (!DJ_ENDED(j->state) && j->state != DJ_FINISHING && !j->abandoned && j->pid &&
                cz_prover_status(s->prover, j->pid, &info, NULL) == CZ_OK &&
                info.state == CZ_JOB_QUEUED) {
                j->abandoned = true;
                pid = j->pid;
            }
        }
        if (!pid)
            break;
        cz_mutex_unlock(&s->mu);
        cz_prover_cancel(s->prover, pid, NULL);
        cz_mutex_lock(&s->mu);
    }
    double deadline = cz__now_s() + grace_s;
    for (;;) {
        size_t running = 0;
        for (djob_t *j = s->jobs; j; j = j->next)
            running += !DJ_ENDED(j->state) && !j->abandoned;
        if (!running || cz__now_s() >= deadline) {
            if (running)
                CZ_LOGW("shutdown: jobs left journaled for the next start", "running=%zu", running);
            break;
        }
        struct timespec ts = cz_deadline_in(0.1);
        cz_cond_timedwait(&s->changed, &s->mu, &ts);
    }
    /* wait for a result being written, then stop journaling results */
    for (djob_t *j = s->jobs; j; j = j->next)
        j->abandoned |= !DJ_ENDED(j->state) && j->state != DJ_FINISHING;
    bool finishing = true;
    while (finishing) {
        finishing = false;
        for (djob_t *j = s->jobs; j; j = j->next)
            finishing |= j->state == DJ_FINISHING;
        if (finishing)
            cz_cond_wait(&s->changed, &s->mu);
    }
    s->stop_threads = true;
    pthread_cond_broadcast(&s->work);
    cz_mutex_unlock(&s->mu);
    if (s->threads_started) {
        pthread_join(s->finisher, NULL);
        s->threads_started = false;
    }
}

void cz_server_free(cz_server_t *s)
{
    if (!s)
        return;
    if (s->threads_started)
        cz_server_shutdown(s, 0);
    /* running partitions stop at a stage boundary; their jobs stay unfinished in the journal */
    cz_prover_free(s->prover);
    for (djob_t *j = s->jobs, *n; j; j = n) {
        n = j->next;
        free(j->proof);
        json_decref(j->public_inputs);
        json_decref(j->request);
        free(j);
    }
    cz_journal_close(s->journal);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->changed);
    cz_mutex_destroy(&s->mu);
    free(s);
}
