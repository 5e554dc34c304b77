/*
 * daemon/server.c — lifecycle, the stager and monitor threads, journal
 * replay (see daemon/server.h; the request side is in daemon/jobs.c).
 */
#include "core/hex.h"
#include "daemon/server_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/log.h"
#include "groth16/proof.h"

double cz__now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool cz_server_stopping(cz_server_t *s)
{
    pthread_mutex_lock(&s->mu);
    bool st = s->stopping;
    pthread_mutex_unlock(&s->mu);
    return st;
}

const cz_dconfig_t *cz_server_config(const cz_server_t *s) { return &s->cfg; }

/* ---- the synthesize wrapper: keeps each partition's public inputs ------ */

static int dj_synth(void *arg, size_t partition, cz_ctx_t *ctx, cz_cs_witness_t *out)
{
    djob_t *j = arg;
    int rc = j->kj.synthesize(j->kj.arg, partition, ctx, out);
    if (rc != CZ_OK)
        return rc;
    if (out->num_inputs != j->n_inputs + 1)
        return cz_fail(ctx, CZ_EINTERNAL, "partition %zu has %zu inputs, the shape says %zu",
                       partition, out->num_inputs, j->n_inputs + 1);
    memcpy(&j->inputs[partition * j->n_inputs], out->input + 1, j->n_inputs * sizeof(cz_fr));
    return CZ_OK;
}

/* ---- stager ---------------------------------------------------------------- */

static djob_t *next_staged(cz_server_t *s)
{
    djob_t *best = NULL;
    for (djob_t *j = s->jobs; j; j = j->next)
        if (j->state == DJ_STAGED &&
            (!best || j->priority > best->priority ||
             (j->priority == best->priority && j->seq < best->seq)))
            best = j;
    return best;
}

static void *stager_main(void *arg)
{
    cz_server_t *s = arg;
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, s->pool, 0))
        return NULL;
    pthread_mutex_lock(&s->mu);
    while (!s->stop_threads) {
        djob_t *j = s->stopping ? NULL : next_staged(s);
        if (!j) {
            pthread_cond_wait(&s->work, &s->mu);
            continue;
        }
        if (j->cancel) {
            j->state = DJ_FINISHING;
            pthread_mutex_unlock(&s->mu);
            cz__job_end(s, j, DJ_CANCELED, CZ_ECANCELED, "canceled before it started", NULL, 0);
            pthread_mutex_lock(&s->mu);
            continue;
        }
        j->state = DJ_LOADING;
        j->t_staged = cz__now_s();
        pthread_cond_broadcast(&s->changed);
        pthread_mutex_unlock(&s->mu);

        cz_ctx_clear(ctx);
        cz_pentry_t *pe = NULL;
        double load_ms = 0;
        /* the input first: a bad one must not cost a params load (kinds.h, validate) */
        int rc = j->kind->validate ? j->kind->validate(&j->kj, ctx) : CZ_OK;
        if (rc == CZ_OK)
            rc = cz_pcache_acquire(s->pcache, ctx, j->params_path, &pe, &load_ms);
        if (rc == CZ_OK && (rc = cz_params_check_shape(ctx, cz_pentry_params(pe), &j->kj.shape))) {
            char m[256];
            snprintf(m, sizeof m, "%s", cz_ctx_message(ctx));
            cz_fail(ctx, rc, "params %s do not fit %s: %s", j->params_path, j->kj.summary, m);
        }
        uint64_t eid = 0;
        pthread_mutex_lock(&s->mu);
        j->params_load_ms = load_ms;
        j->pentry = pe;
        bool cancel = j->cancel;
        pthread_mutex_unlock(&s->mu);
        if (rc == CZ_OK && !cancel) {
            size_t pb = 0, abc = 0;
            cz_engine_estimate(&j->kj.shape, j->kj.rows, &pb, &abc);
            cz_job_spec_t spec = { .partitions = j->partitions, .priority = j->priority,
                                   .params = cz_pentry_params(pe), .pvk = cz_pentry_pvk(pe),
                                   .partition_bytes = pb, .abc_bytes = abc,
                                   .synthesize = dj_synth, .arg = j };
            rc = cz_engine_submit(s->engine, ctx, &spec, &eid);
            if (rc != CZ_OK && !*cz_ctx_message(ctx))
                cz_fail(ctx, rc, "the engine refused the job (%s)", cz_strerror(rc));
        }
        pthread_mutex_lock(&s->mu);
        if (rc == CZ_OK && !cancel) {
            j->eid = eid;
            j->state = DJ_ENGINE;
            j->engine_state = CZ_JOB_QUEUED;
            j->t_engine = cz__now_s();
            pthread_cond_broadcast(&s->changed);
            pthread_cond_broadcast(&s->work);
            CZ_LOGI("job started", "id=%s engine_job=%llu params_load_ms=%.1f", j->id,
                    (unsigned long long)eid, load_ms);
            continue;
        }
        j->state = DJ_FINISHING;
        pthread_mutex_unlock(&s->mu);
        char msg[256];
        snprintf(msg, sizeof msg, "%s", cancel ? "canceled before it started" : cz_ctx_message(ctx));
        cz__job_end(s, j, cancel ? DJ_CANCELED : DJ_FAILED, cancel ? CZ_ECANCELED : rc, msg, NULL, 0);
        pthread_mutex_lock(&s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    cz_ctx_free(ctx);
    return NULL;
}

/* ---- monitor ------------------------------------------------------------- */

static void finish_from_engine(cz_server_t *s, djob_t *j, const cz_job_info_t *info)
{
    uint8_t *proof = NULL;
    size_t len = 0;
    int err = info->error;
    const char *msg = info->message;
    dj_state_t st = info->state == CZ_JOB_DONE ? DJ_DONE
                  : info->state == CZ_JOB_CANCELED ? DJ_CANCELED : DJ_FAILED;
    if (st == DJ_DONE && cz_engine_proof(s->engine, info->id, &proof, &len) != CZ_OK) {
        st = DJ_FAILED;
        err = CZ_EINTERNAL;
        msg = "the engine lost the proof";
    }
    if (st == DJ_DONE && len != j->partitions * CZ_PROOF_BYTES) {
        free(proof);
        proof = NULL;
        st = DJ_FAILED;
        err = CZ_EINTERNAL;
        msg = "proof length does not match the partitions";
    }
    if (st == DJ_CANCELED && !*msg)
        msg = "canceled";
    if (st != DJ_DONE && err == CZ_OK)
        err = st == DJ_CANCELED ? CZ_ECANCELED : CZ_EINTERNAL;
    cz_engine_forget(s->engine, info->id);
    cz__job_end(s, j, st, err, msg, proof, len);
}

/*
 * Drop ended jobs whose results expired. Called with s->mu held; the jobs
 * leave the list under the lock, and their journal files (unlinks and a
 * directory fsync) are removed after it is dropped, so no request waits on
 * the disk. Returns with s->mu held again.
 */
static void expire(cz_server_t *s)
{
    time_t now = time(NULL);
    djob_t *gone_list = NULL;
    for (djob_t **pp = &s->jobs; *pp;) {
        djob_t *j = *pp;
        bool gone = DJ_ENDED(j->state) && j->waiters == 0 &&
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
    pthread_mutex_unlock(&s->mu);
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
    pthread_mutex_lock(&s->mu);
}

static void *monitor_main(void *arg)
{
    cz_server_t *s = arg;
    double last = cz__now_s(), last_expire = 0;
    pthread_mutex_lock(&s->mu);
    while (!s->stop_threads) {
        double now = cz__now_s();
        bool active = false;
        djob_t *ended = NULL;
        cz_job_info_t info;
        for (djob_t *j = s->jobs; j; j = j->next) {
            if (j->state != DJ_ENGINE)
                continue;
            active = true;
            if (cz_engine_info(s->engine, j->eid, &info) != CZ_OK)
                continue;
            if (j->cancel && info.state < CZ_JOB_DONE)
                cz_engine_cancel(s->engine, j->eid);
            j->engine_state = info.state;
            j->partitions_done = info.partitions_done;
            memcpy(j->in_stage, info.in_stage, sizeof j->in_stage);
            double params = j->params_load_ms;
            j->t = info.t;
            j->t.queue_wait += (j->t_staged - j->t_accept) * 1e3;
            j->t.params_load = params;
            if (info.state >= CZ_JOB_DONE && !ended && !s->abandon) {
                ended = j;
                j->state = DJ_FINISHING;
            }
        }
        if (active)
            s->engine_active_s += now - last;
        last = now;
        if (ended) {
            cz_job_info_t fin;
            pthread_mutex_unlock(&s->mu);
            if (cz_engine_info(s->engine, ended->eid, &fin) == CZ_OK)
                finish_from_engine(s, ended, &fin);
            pthread_mutex_lock(&s->mu);
            continue;   /* look again at once: more may have ended */
        }
        cz__retry_results(s);   /* results a full disk refused (daemon/finish.c) */
        if (now - last_expire > 1.0) {
            expire(s);
            last_expire = now;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 25 * 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&s->work, &s->mu, &ts);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- journal replay -------------------------------------------------------- */

int cz__prepare(cz_server_t *s, cz_ctx_t *ctx, const json_t *req, djob_t *j);

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
    j->t_accept = cz__now_s();
    if (j->seq >= s->next_seq)
        s->next_seq = j->seq + 1;
    const char *kname = json_string_value(json_object_get(req, "kind"));
    j->kind = cz_kind_find(kname, NULL);
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
        for (int c = 1; err && c < 16; c++)
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
    int rc = cz_ctx_new(&ctx, s->pool, 0);
    if (rc == CZ_OK)
        rc = cz__prepare(s, ctx, req, j);
    j->next = s->jobs;
    s->jobs = j;
    s->jobs_recovered++;
    if (rc == CZ_OK) {
        j->state = DJ_STAGED;
        CZ_LOGI("job re-queued from the journal", "id=%s", id);
    } else {
        char msg[256];
        snprintf(msg, sizeof msg, "after restart: %s",
                 ctx && *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
        j->state = DJ_FINISHING;
        cz__job_end(s, j, DJ_FAILED, rc, msg, NULL, 0);
    }
    cz_ctx_free(ctx);
}

/* A job whose journal entry was corrupt: a tombstone answering its id with state lost. */
static void replay_lost(void *arg, const char *id, const char *reason)
{
    cz_server_t *s = arg;
    if (cz__find(s, id))
        return;   /* seen already in this scan */
    djob_t *j = calloc(1, sizeof *j);
    if (!j)
        return;
    snprintf(j->id, sizeof j->id, "%s", id);
    j->state = DJ_LOST;
    j->error = CZ_EFORMAT;
    j->recovered = true;
    j->t_accept = cz__now_s();
    snprintf(j->message, sizeof j->message, "%s", reason);
    j->next = s->jobs;
    s->jobs = j;
    CZ_LOGW("job lost: its journal entry is corrupt", "id=%s", id);
}

/* ---- lifecycle ------------------------------------------------------------ */

/*
 * The devices of devices.backend / devices.devices (backend.h): "auto"
 * logs what it chose and why; an explicit "cuda" that is not usable, or
 * more GPUs than the machine has, fails start-up with the reason.
 */
static int make_backends(cz_server_t *s, cz_ctx_t *ctx, const cz_dconfig_t *cfg)
{
    const char *want, *kind;
    size_t count, have = 0;
    char why[512], q[600];
    int rc = cz_dconfig_devices(ctx, cfg, &want, &count);
    if (rc == CZ_OK && (rc = cz_backend_resolve(ctx, want, &kind, why, sizeof why)) != CZ_OK) {
        snprintf(q, sizeof q, "%s", cz_ctx_message(ctx));
        return cz_fail(ctx, rc, "devices.backend = \"%s\": %s", want, q);
    }
    if (rc == CZ_OK)
        rc = cz_backend_device_count(ctx, kind, &have);
    if (rc != CZ_OK)
        return rc;
    bool cuda = !strcmp(kind, "cuda");
    if (count == 0) {
        count = cuda ? have : 1;
        if (count > CZ_MAX_DEVICES) {
            CZ_LOGW("more devices than cuzkd drives; using the first ones", "backend=%s have=%zu used=%d",
                    kind, have, CZ_MAX_DEVICES);
            count = CZ_MAX_DEVICES;
        }
    } else if (cuda && count > have) {
        return cz_fail(ctx, CZ_ERANGE, "devices.devices = \"%s\": %zu CUDA devices wanted, this "
                       "machine has %zu usable", cfg->devices, count, have);
    }
    CZ_LOGI("backend chosen", "backend=%s requested=%s devices=%zu detail=%s", kind, want, count,
            cz_log_q(q, sizeof q, *why ? why : "requested"));
    cz_cuda_backend_opts_t copts = { .device_mem_limit = cfg->cuda_device_mem_limit,
                                     .g2_on_cpu = cfg->cuda_g2_on_cpu };
    s->ndevices = count;
    for (size_t d = 0; rc == CZ_OK && d < count; d++)
        if ((rc = cz_backend_new_opts(ctx, &s->backends[d], kind, (int)d, &copts)) != CZ_OK) {
            snprintf(q, sizeof q, "%s", cz_ctx_message(ctx));
            cz_fail(ctx, rc, "device %zu (%s): %s", d, kind, q);
        }
    return rc;
}

/* The manifest check of params.check (groth16/manifest.h), owned by the cache. */
static int params_check_new(cz_server_t *s, cz_ctx_t *ctx)
{
    cz_pcheck_t *check;
    int rc = cz_pcheck_new_builtin(ctx, &check);
    if (rc == CZ_OK)
        cz_pcache_set_check(s->pcache, check);
    return rc;
}

/* A params.dir that is not there is not an error (it may be mounted later) but every job
 * naming params would fail: say so at start, not at the first job. */
static void warn_params_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st))
        CZ_LOGW("params.dir does not exist: jobs naming params will fail until it does",
                "dir=%s error=\"%s\"", dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        CZ_LOGW("params.dir is not a directory: jobs naming params will fail", "dir=%s", dir);
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
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->changed, NULL);
    pthread_cond_init(&s->work, NULL);
    cz_fault_init(&s->fault);
    int rc = cz_pool_new(&s->pool, (unsigned)cfg->threads);
    if (rc != CZ_OK)
        cz_fail(ctx, rc, "thread pool");
    if (rc == CZ_OK && *cfg->fault) {
        rc = cz_fault_parse(&s->fault, ctx, cfg->fault);
        if (rc == CZ_OK)
            CZ_LOGW("test.fault is set: faults will be injected (tests only)", "spec=%s", cfg->fault);
    }
    if (rc == CZ_OK)
        rc = cz_journal_open(ctx, cfg->journal_dir, &s->journal);
    if (rc == CZ_OK)
        cz_journal_set_fault(s->journal, &s->fault);
    if (rc == CZ_OK)
        warn_params_dir(cfg->params_dir);
    /* the library's cache logs through cuzkd's log; 0 kept nothing unused, as 1 byte does */
    cz_logger_t log = { cz_log_from_library, NULL, CZ_LOG_LEVEL_DEBUG };
    if (rc == CZ_OK && (rc = cz_pcache_new(&s->pcache, cfg->cache_budget ? cfg->cache_budget : 1, &log)))
        cz_fail(ctx, rc, "params cache");
    if (rc == CZ_OK && cfg->params_check)
        rc = params_check_new(s, ctx);
    for (size_t k = 0; rc == CZ_OK && k < cz_kind_count(); k++)
        if (cz_kind_at(k)->state_new && (rc = cz_kind_at(k)->state_new(&s->kind_state[k])))
            cz_fail(ctx, rc, "state of job kind %s", cz_kind_at(k)->name);
    if (rc == CZ_OK)
        rc = make_backends(s, ctx, cfg);
    /* the timeline goes to its own file only: the log (stderr) stays one format */
    if (rc == CZ_OK && cfg->timeline_enabled && *cfg->timeline_file)
        rc = cz_tl_open(ctx, &s->timeline, cfg->timeline_file, 0);
    size_t budget = 0;
    if (rc == CZ_OK && strcmp(cfg->total_budget, "auto"))
        cz_parse_bytes(cfg->total_budget, &budget);
    cz_engine_config_t ec = { .backends = s->backends, .num_devices = s->ndevices,
                              .workers_per_device = (unsigned)cfg->workers_per_device,
                              .synth_workers = (unsigned)cfg->synth_workers,
                              .memory_budget = budget, .memory_margin = cfg->safety_margin,
                              .device_queue_depth = (unsigned)cfg->device_queue_depth,
                              .max_retries = (unsigned)cfg->max_retries, .pool = s->pool,
                              .timeline = s->timeline, .fault = &s->fault };
    if (rc == CZ_OK)
        rc = cz_engine_new(ctx, &s->engine, &ec);
    if (rc == CZ_OK)
        rc = cz_journal_scan(s->journal, ctx, replay_one, replay_lost, s);
    if (rc == CZ_OK && pthread_create(&s->stager, NULL, stager_main, s) == 0) {
        if (pthread_create(&s->monitor, NULL, monitor_main, s) == 0) {
            s->threads_started = true;
        } else {
            pthread_mutex_lock(&s->mu);
            s->stop_threads = true;
            pthread_cond_broadcast(&s->work);
            pthread_mutex_unlock(&s->mu);
            pthread_join(s->stager, NULL);
            rc = cz_fail(ctx, CZ_ENOMEM, "cannot start the monitor thread");
        }
    } else if (rc == CZ_OK) {
        rc = cz_fail(ctx, CZ_ENOMEM, "cannot start the stager thread");
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

void cz_server_shutdown(cz_server_t *s, double grace_s)
{
    pthread_mutex_lock(&s->mu);
    if (s->stopping && s->stop_threads) {
        pthread_mutex_unlock(&s->mu);
        return;
    }
    s->stopping = true;
    pthread_cond_broadcast(&s->work);
    pthread_cond_broadcast(&s->changed);   /* long polls return now */
    double deadline = cz__now_s() + grace_s;
    for (;;) {
        size_t running = 0;
        for (djob_t *j = s->jobs; j; j = j->next)
            running += j->state == DJ_LOADING || j->state == DJ_ENGINE ||
                       (j->state == DJ_FINISHING && !j->pending);   /* a refused write is not
                                                                      * waited for: daemon/finish.c */
        if (!running || cz__now_s() >= deadline) {
            if (running)
                CZ_LOGW("shutdown: jobs left journaled for the next start", "running=%zu", running);
            break;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 100 * 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&s->changed, &s->mu, &ts);
    }
    /* wait for a result being written, then stop journaling results */
    bool finishing = true;
    while (finishing) {
        finishing = false;
        for (djob_t *j = s->jobs; j; j = j->next)
            finishing |= (j->state == DJ_FINISHING && !j->pending) || j->state == DJ_LOADING;
        if (finishing)
            pthread_cond_wait(&s->changed, &s->mu);
    }
    s->abandon = true;
    s->stop_threads = true;
    pthread_cond_broadcast(&s->work);
    pthread_mutex_unlock(&s->mu);
    if (s->threads_started) {
        pthread_join(s->stager, NULL);
        pthread_join(s->monitor, NULL);
        s->threads_started = false;
    }
}

void cz_server_free(cz_server_t *s)
{
    if (!s)
        return;
    if (s->threads_started)
        cz_server_shutdown(s, 0);
    /* the engine lets running partitions finish; their jobs stay unfinished in the journal */
    cz_engine_free(s->engine);
    for (djob_t *j = s->jobs, *n; j; j = n) {
        n = j->next;
        cz__pending_free(j);
        if (j->pentry)
            cz_pcache_release(s->pcache, j->pentry);
        if (j->prepared && j->kind)
            j->kind->release(&j->kj);
        free(j->inputs);
        free(j->proof);
        json_decref(j->public_inputs);
        json_decref(j->request);
        free(j);
    }
    for (size_t d = 0; d < s->ndevices; d++)
        cz_backend_free(s->backends[d]);
    cz_pcache_free(s->pcache);
    for (size_t k = 0; k < cz_kind_count(); k++)
        if (cz_kind_at(k)->state_free)
            cz_kind_at(k)->state_free(s->kind_state[k]);
    cz_tl_free(s->timeline);
    cz_journal_close(s->journal);
    cz_pool_free(s->pool);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->changed);
    pthread_mutex_destroy(&s->mu);
    free(s);
}
