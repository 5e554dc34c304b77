/*
 * daemon/server.c — lifecycle over the prover, its completion callback,
 * and the finisher thread (see daemon/server.h; the request side is in
 * daemon/jobs.c, the journal replay in daemon/replay.c, a job's end in
 * daemon/finish.c).
 *
 * The prover (cuzk.h) does the proving: params, kinds, engine. The daemon
 * adds durability: a job is journaled before it is acknowledged, and its
 * result before it is reported ended. The prover's completion callback
 * only marks the job ended and wakes the finisher, which fetches the
 * proof, journals it (fsync) and publishes it: nothing polls the prover,
 * and no engine worker waits on the disk. The finisher's only timers are
 * the retries of a refused result write and the expiry of old results
 * (once a second).
 */
#include "daemon/server_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/internal.h"
#include "core/bytes.h"
#include "core/clock.h"
#include "core/hex.h"
#include "daemon/jsonio.h"
#include "daemon/log.h"
#include "ff/fr.h"

bool cz_server_stopping(cz_server_t *s)
{
    cz_mutex_lock(&s->mu);
    bool st = s->stopping;
    cz_mutex_unlock(&s->mu);
    return st;
}

const cz_dconfig_t *cz_server_config(const cz_server_t *s)
{
    return &s->cfg;
}

void cz__djob_free(djob_t *j)
{
    if (!j)
        return;
    cz__pending_free(j);
    free(j->params);
    free(j->fields);
    free(j->input_path);
    json_decref(j->public_inputs);
    free(j->proof);
    free(j);
}

/* ---- a job's end in the prover ------------------------------------------------ */

/* Every partition's public inputs (Fr reprs, each checked canonical) as 0x-hex strings, one
 * array per partition (daemon/jsonio.h: the journal's and the HTTP API's form). */
static json_t *public_json(const uint8_t *in, size_t per, size_t parts)
{
    for (size_t i = 0; i < per * parts; i++) {
        cz_fr fr;
        if (cz_fr_from_repr(&fr, in + 32 * i) != CZ_OK)
            return NULL;
    }
    return cz_public_inputs_json(in, per, parts);
}

/* The outcome of prover job j->pid, journaled and published; the prover forgets it.
 * s->mu NOT held; j->state is FINISHING (the caller's). */
static void finish_from_prover(cz_server_t *s, djob_t *j)
{
    cz_job_info_t info;
    memset(&info, 0, sizeof info);
    cz_error_t err = { .code = CZ_OK }; /* the rest zero: message "", reserved */
    uint8_t *proof = NULL, *inputs = NULL;
    size_t len = 0, per = 0, parts = 0;
    json_t *pub = NULL;
    dj_state_t st = DJ_FAILED;
    int error = CZ_EINTERNAL;
    char msg[256] = "the prover lost the job";
    if (cz_prover_status(s->prover, j->pid, &info, &err) == CZ_OK) {
        st = info.state == CZ_JOB_DONE       ? DJ_DONE
             : info.state == CZ_JOB_CANCELED ? DJ_CANCELED
                                             : DJ_FAILED;
        error = info.error;
        snprintf(msg, sizeof msg, "%s",
                 *info.message || st != DJ_CANCELED ? info.message : "canceled");
    }
    if (st == DJ_DONE &&
        (cz_prover_proof(s->prover, j->pid, &proof, &len, &err) != CZ_OK ||
         cz_prover_public_inputs(s->prover, j->pid, &inputs, &per, &parts, &err) != CZ_OK ||
         !(pub = public_json(inputs, per, parts)))) {
        st = DJ_FAILED;
        error = err.code ? err.code : CZ_ENOMEM;
        /* the prover's message (up to CZ_ERROR_MESSAGE_MAX) cut to the job's */
        snprintf(msg, sizeof msg, "%.*s", (int)sizeof msg - 1,
                 *err.message ? err.message : "public inputs");
        cz_free(proof);
        proof = NULL;
    }
    cz_free(inputs);
    if (st != DJ_DONE && error == CZ_OK)
        error = st == DJ_CANCELED ? CZ_ECANCELED : CZ_EINTERNAL;
    cz_prover_forget(s->prover, j->pid, NULL);
    cz_mutex_lock(&s->mu);
    j->partitions_done = info.partitions_done;
    j->t = info.t; /* what the status shows while the result is written */
    cz_mutex_unlock(&s->mu);
    /* |proof| is the daemon's now: cz_free is free() (cuzkd links libcuzk statically) */
    cz__job_end(s, j, st, st == DJ_DONE ? CZ_OK : error, msg, proof, len, pub, &info.t);
}

/* ---- the finisher ----------------------------------------------------------------- */

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
        bool gone = DJ_ENDED(j->state) && j->state != DJ_LOST && j->waiters == 0 &&
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
        cz__djob_free(j);
    }
    cz_mutex_lock(&s->mu);
}

/* A listed job the prover has ended and nobody finishes yet (s->mu held). */
static djob_t *next_ended(cz_server_t *s)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    for (djob_t *j = s->jobs; j; j = j->next)
        if (j->state == DJ_LIVE && j->ended && j->pid && !j->abandoned)
            return j;
    return NULL;
}

#define EXPIRE_EVERY_S 1.0

static void *finisher_main(void *arg)
{
    cz_server_t *s = arg;
    double next_expire = 0;
    cz_mutex_lock(&s->mu);
    while (!s->stop_threads) {
        djob_t *ended = next_ended(s);
        if (ended) {
            ended->state = DJ_FINISHING;
            cz_mutex_unlock(&s->mu);
            finish_from_prover(s, ended);
            cz_mutex_lock(&s->mu);
            continue; /* look again at once: more may have ended */
        }
        double now = cz_mono_s();
        if (now >= next_expire) {
            expire(s);
            next_expire = now + EXPIRE_EVERY_S;
            continue;
        }
        double wake = next_expire;
        cz__retry_results(s, &wake); /* results a full disk refused (daemon/finish.c) */
        /* woken by a completion callback, else at the next retry or expiry */
        struct timespec ts = cz_deadline_in(wake - cz_mono_s());
        cz_cond_timedwait(&s->work, &s->mu, &ts);
    }
    cz_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- lifecycle ------------------------------------------------------------------ */

/* The prover's configuration from cuzkd's (devices.*, memory.*, synthesis.*, params.*,
 * timeline.*). Strings are borrowed from |cfg|. */
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
    pc->cuda_max_batch = (unsigned)cfg->cuda_max_batch;
    pc->params_dir = cfg->params_dir;
    /* 0 kept nothing unused in cuzkd: one byte does the same in the library's cache */
    pc->params_cache_bytes = cfg->cache_budget ? cfg->cache_budget : 1;
    pc->params_allow_paths = cfg->allow_client_paths;
    pc->params_check = cfg->params_check;
    pc->max_partitions = (unsigned)cfg->max_partitions;
    /* the timeline goes to its own file only: the log (stderr) stays one format */
    pc->timeline = cfg->timeline_enabled && *cfg->timeline_file ? cfg->timeline_file : NULL;
    pc->log = cz_log_from_library;
    pc->log_level = CZ_LOG_LEVEL_DEBUG; /* cz_log gates by cuzkd's level */
    return CZ_OK;
}

/*
 * The prover, its failure named by the key that chose what failed: an
 * explicit backend that is not usable (CZ_EUNAVAIL) by devices.backend,
 * more GPUs than the machine has (CZ_ERANGE) by devices.devices.
 */
static int make_prover(cz_server_t *s, cz_ctx_t *ctx, const cz_dconfig_t *cfg)
{
    cz_prover_config_t pc;
    cz_error_t err;
    int rc = prover_config(ctx, cfg, &pc);
    if (rc == CZ_OK && (rc = cz__prover_new_with(&s->prover, &pc, &s->fault, cfg->kinds, &err))) {
        if (rc == CZ_ERANGE)
            cz_fail(ctx, rc, "devices.devices = \"%s\": %s", cfg->devices, err.message);
        else if (rc == CZ_EUNAVAIL)
            cz_fail(ctx, rc, "devices.backend = \"%s\": %s", pc.backend, err.message);
        else
            cz_fail(ctx, rc, "%s", err.message);
    }
    if (rc != CZ_OK)
        return rc;
    cz_prover_info_t pi;
    cz_prover_info(s->prover, &pi);
    char q[600];
    CZ_LOGI("backend chosen", "backend=%s requested=%s devices=%zu detail=%s", pi.backend,
            pc.backend, pi.devices,
            cz_log_q(q, sizeof q, *pi.backend_detail ? pi.backend_detail : "requested"));
    return CZ_OK;
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

const struct cz_kinds *cz_server_kinds(const cz_server_t *s)
{
    return cz__prover_kinds(s->prover);
}

int cz_server_new(cz_ctx_t *ctx, const cz_dconfig_t *cfg, cz_server_t **out)
{
    *out = NULL;
    cz_server_t *s = calloc(1, sizeof *s);
    if (!s)
        return cz_fail(ctx, CZ_ENOMEM, "server");
    s->cfg = *cfg;
    s->t_start = cz_mono_s();
    s->next_seq = 1;
    cz_mutex_init(&s->mu);
    pthread_cond_init(&s->changed, NULL);
    pthread_cond_init(&s->work, NULL);
    cz_fault_init(&s->fault);
    int rc = CZ_OK;
    if (*cfg->fault) {
        rc = cz_fault_parse(&s->fault, ctx, cfg->fault);
        if (rc == CZ_OK)
            CZ_LOGW("test.fault is set: faults will be injected (tests only)", "spec=%s",
                    cfg->fault);
    }
    if (rc == CZ_OK)
        rc = cz_journal_open(ctx, cfg->journal_dir, &s->journal);
    if (rc == CZ_OK)
        cz_journal_set_fault(s->journal, &s->fault);
    if (rc == CZ_OK)
        warn_params_dir(cfg->params_dir);
    if (rc == CZ_OK)
        rc = make_prover(s, ctx, cfg);
    if (rc == CZ_OK)
        rc = cz__replay(s, ctx);
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
    cz_params_item_t *it = cfg->npreload ? malloc(sizeof *it) : NULL;
    for (size_t i = 0; it && i < cfg->npreload; i++)
        if (cz_server_preload(s, ctx, cfg->preload[i], it) != CZ_OK)
            CZ_LOGW("preload failed", "params=%s error=\"%s\"", cfg->preload[i],
                    cz_ctx_message(ctx));
    free(it);
    *out = s;
    return CZ_OK;
}

/*
 * Leave the jobs the prover has not started for the next start: canceled
 * in the prover and abandoned here (nothing is journaled for them), they
 * stay unfinished in the journal. s->mu held; dropped around the cancels
 * (a cancel may run the completion callback, which takes s->mu).
 */
static void abandon_unstarted(cz_server_t *s)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    for (;;) {
        uint64_t pid = 0;
        for (djob_t *j = s->jobs; j && !pid; j = j->next) {
            cz_job_info_t info;
            if (j->state == DJ_LIVE && !j->abandoned && !j->ended && j->pid &&
                cz_prover_status(s->prover, j->pid, &info, NULL) == CZ_OK && !info.started) {
                j->abandoned = true;
                pid = j->pid;
            }
        }
        if (!pid)
            return;
        cz_mutex_unlock(&s->mu);
        cz_prover_cancel(s->prover, pid, NULL);
        cz_mutex_lock(&s->mu);
    }
}

/* Jobs shutdown still waits for (s->mu held): running ones not abandoned, and results
 * being written (a refused write is not waited for: daemon/finish.c). */
static size_t still_running(cz_server_t *s)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    size_t n = 0;
    for (djob_t *j = s->jobs; j; j = j->next)
        n += (j->state == DJ_LIVE && !j->abandoned) || (j->state == DJ_FINISHING && !j->pending);
    return n;
}

void cz_server_shutdown(cz_server_t *s, double grace_s)
{
    cz_mutex_lock(&s->mu);
    if (s->stopping && s->stop_threads) {
        cz_mutex_unlock(&s->mu);
        return;
    }
    s->stopping = true;
    abandon_unstarted(s);
    pthread_cond_broadcast(&s->changed); /* waiters of the abandoned jobs answer now */
    double deadline = cz_mono_s() + grace_s;
    for (;;) {
        size_t running = still_running(s);
        if (!running || cz_mono_s() >= deadline) {
            if (running)
                CZ_LOGW("shutdown: jobs left journaled for the next start", "running=%zu", running);
            break;
        }
        struct timespec ts = cz_deadline_in(0.1);
        cz_cond_timedwait(&s->changed, &s->mu, &ts);
    }
    /* what is still in the prover stays unfinished in the journal; a result being
     * written is waited for, then no result is journaled any more */
    for (djob_t *j = s->jobs; j; j = j->next)
        j->abandoned |= j->state == DJ_LIVE;
    pthread_cond_broadcast(&s->changed); /* their waiters answer now */
    for (;;) {
        bool writing = false;
        for (djob_t *j = s->jobs; j; j = j->next)
            writing |= j->state == DJ_FINISHING && !j->pending;
        if (!writing)
            break;
        cz_cond_wait(&s->changed, &s->mu);
    }
    s->abandon = true;
    s->stop_threads = true;
    pthread_cond_broadcast(&s->work);
    pthread_cond_broadcast(&s->changed); /* a parked result never lands: its waiters answer */
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
    /* running partitions stop at a stage boundary; their jobs stay unfinished in the
     * journal. The completion callbacks of those jobs run in here (they only mark
     * the records, which are freed after) */
    cz_prover_free(s->prover);
    for (djob_t *j = s->jobs, *n; j; j = n) {
        n = j->next;
        cz__djob_free(j);
    }
    cz_journal_close(s->journal);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->changed);
    cz_mutex_destroy(&s->mu);
    free(s);
}
