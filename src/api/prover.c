/*
 * api/prover.c — the prover's life: configuration, the devices, the
 * engine, the params cache and the kinds' state; version, errors, stats
 * (cuzk.h; the jobs are in api/jobs.c and api/stager.c, params in
 * api/params.c and api/pload.c).
 */
#include "api/prover_int.h"
#include "api/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/clock.h"
#include "engine/timeline.h"
#include "groth16/manifest.h"

/* ---- version, memory, errors ------------------------------------------------ */

#define CZ__STR2(x) #x
#define CZ__STR(x) CZ__STR2(x)

const char *cz_version(void)
{
    return CZ__STR(CZ_VERSION_MAJOR) "." CZ__STR(CZ_VERSION_MINOR) "." CZ__STR(CZ_VERSION_PATCH);
}

unsigned cz_version_hex(void)
{
    return CZ_VERSION_HEX;
}

void cz_free(void *ptr)
{
    free(ptr);
}

void cz__err_clear(cz_error_t *err)
{
    if (err) {
        err->code = CZ_OK;
        err->message[0] = '\0';
        memset(err->reserved, 0, sizeof err->reserved); /* cuzk.h: STRUCTS THAT GROW */
    }
}

int cz__err(cz_error_t *err, int code, const char *fmt, ...)
{
    if (err) {
        err->code = code;
        memset(err->reserved, 0, sizeof err->reserved);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

int cz__err_ctx(cz_error_t *err, const cz_ctx_t *ctx, int rc)
{
    if (rc == CZ_OK) {
        cz__err_clear(err);
        return rc;
    }
    const char *m = ctx ? cz_ctx_message(ctx) : "";
    return cz__err(err, rc, "%s", *m ? m : cz_strerror(rc));
}

/* ---- configuration ------------------------------------------------------------ */

void cz_prover_config_init(cz_prover_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->backend = "auto";
    cfg->params_dir = ".";
    cfg->log_level = CZ_LOG_LEVEL_INFO;
}

static char *dup_or(const char *s, const char *dflt)
{
    return strdup(s && *s ? s : dflt);
}

/*
 * The devices: "auto" resolves (and says why), an explicit "cuda" that is
 * not usable fails with the reason, more GPUs than usable fail (ERANGE).
 */
static int make_backends(cz_prover_t *p, cz_ctx_t *ctx)
{
    const char *kind = NULL;
    /* its message names the backend ("cuda backend: no usable device ...") */
    int rc = cz_backend_resolve(ctx, p->backend, &kind, p->backend_detail,
                                sizeof p->backend_detail);
    if (rc != CZ_OK)
        return rc;
    snprintf(p->backend_name, sizeof p->backend_name, "%s", kind);
    size_t have = 0;
    if ((rc = cz_backend_device_count(ctx, kind, &have)) != CZ_OK)
        return rc;
    bool cuda = !strcmp(kind, "cuda");
    size_t first = p->cfg.first_device, count = p->cfg.devices;
    if (count == 0)
        count = cuda ? (have > first ? have - first : 0) : 1;
    if (count > CZ_PROVER_MAX_DEVICES) {
        cz__log(&p->log, CZ_LOG_LEVEL_WARN,
                "more devices than a prover drives; using the first ones",
                "backend=%s have=%zu used=%d", kind, have, CZ_PROVER_MAX_DEVICES);
        count = CZ_PROVER_MAX_DEVICES;
    }
    if (cuda && (count == 0 || first + count > have))
        return cz_fail(ctx, CZ_ERANGE, "devices: GPUs %zu..%zu wanted, this machine has %zu usable",
                       first, first + (count ? count : 1) - 1, have);
    cz__log(&p->log, CZ_LOG_LEVEL_DEBUG, "devices opening", "backend=%s requested=%s devices=%zu",
            kind, p->backend, count);
    cz_cuda_backend_opts_t copts = { .device_mem_limit = p->cfg.cuda_device_mem_limit,
                                     .g2_on_cpu = p->cfg.cuda_g2_on_cpu,
                                     .max_batch = p->cfg.cuda_max_batch,
                                     .no_pin_ab = p->cfg.cuda_no_pin_ab,
                                     .host_gate = cz_engine_gate(&p->gate) };
    for (size_t d = 0; d < count; d++) {
        rc = cz_backend_new_opts(ctx, &p->backends[d], kind, (int)(first + d), &copts);
        if (rc != CZ_OK) {
            char m[400];
            snprintf(m, sizeof m, "%s", cz_ctx_message(ctx));
            return cz_fail(ctx, rc, "device %zu (%s): %s", first + d, kind, m);
        }
        p->ndevices = d + 1;
    }
    return CZ_OK;
}

static bool all_devices_are_gpus(const cz_prover_t *p)
{
    for (size_t d = 0; d < p->ndevices; d++)
        if (strcmp(p->backends[d]->ops->name, "cuda") != 0)
            return false;
    return p->ndevices > 0;
}

static int make_timeline(cz_prover_t *p, cz_ctx_t *ctx)
{
    int capture = p->cfg.timeline_capture;
    if (!p->timeline_path && !capture)
        return CZ_OK;
    if (!p->timeline_path || !strcmp(p->timeline_path, "-")) {
        int rc = cz_tl_new(&p->timeline, p->timeline_path ? stderr : NULL, capture);
        return rc ? cz_fail(ctx, rc, "timeline") : CZ_OK;
    }
    return cz_tl_open(ctx, &p->timeline, p->timeline_path, capture);
}

/* The manifest check of params_check (groth16/manifest.h), owned by the cache. */
static int params_check_new(cz_prover_t *p, cz_ctx_t *ctx)
{
    cz_pcheck_t *check;
    int rc = cz_pcheck_new_builtin(ctx, &check);
    if (rc == CZ_OK)
        cz_pcache_set_check(p->pcache, check);
    return rc;
}

static int start(cz_prover_t *p, cz_ctx_t *ctx)
{
    int rc = make_backends(p, ctx);
    if (rc == CZ_OK)
        rc = make_timeline(p, ctx);
    if (rc == CZ_OK && (rc = cz_pcache_new(&p->pcache, p->cfg.params_cache_bytes, &p->log)))
        cz_fail(ctx, rc, "params cache");
    if (rc == CZ_OK) /* all GPUs: the params go from the file to the devices */
        cz_pcache_set_open_lazily(p->pcache, all_devices_are_gpus(p));
    if (rc == CZ_OK && p->cfg.params_check)
        rc = params_check_new(p, ctx);
    for (size_t k = 0; rc == CZ_OK && k < p->kinds.n; k++)
        if (p->kinds.kind[k]->state_new && (rc = p->kinds.kind[k]->state_new(&p->kind_state[k])))
            cz_fail(ctx, rc, "state of job kind %s", p->kinds.kind[k]->name);
    cz_engine_config_t ec = {
        .backends = p->backends,
        .num_devices = p->ndevices,
        .workers_per_device = p->cfg.workers_per_device,
        .synth_workers = p->cfg.synth_workers,
        .memory_budget = p->cfg.memory_budget,
        .memory_margin = p->cfg.memory_margin,
        .device_queue_depth = p->cfg.device_queue_depth,
        .max_retries = p->cfg.max_retries,
        .pool = p->pool,
        .timeline = p->timeline,
        .no_verify = p->cfg.no_verify,
        .fault = p->fault,
    };
    if (rc == CZ_OK && (rc = cz_engine_new(ctx, &p->engine, &ec)) == CZ_OK)
        cz_engine_gate_connect(&p->gate, p->engine);
    if (rc == CZ_OK) {
        if (pthread_create(&p->stager, NULL, cz__prover_stager, p) == 0)
            p->stager_started = true;
        else
            rc = cz_fail(ctx, CZ_ENOMEM, "cannot start the stager thread");
    }
    return rc;
}

int cz_prover_new(cz_prover_t **out, const cz_prover_config_t *cfg, cz_error_t *err)
{
    return cz__prover_new_with(out, cfg, NULL, NULL, err);
}

const cz_kinds_t *cz__prover_kinds(const cz_prover_t *p)
{
    return &p->kinds;
}

size_t cz_prover_kind_count(const cz_prover_t *p)
{
    return p ? p->kinds.n : 0;
}

const char *cz_prover_kind_name(const cz_prover_t *p, size_t i)
{
    return p && i < p->kinds.n ? p->kinds.kind[i]->name : NULL;
}

const char *cz_prover_kind_summary(const cz_prover_t *p, size_t i)
{
    return p && i < p->kinds.n ? p->kinds.kind[i]->summary : NULL;
}

int cz__prover_new_with(cz_prover_t **out, const cz_prover_config_t *cfg, cz_fault_t *fault,
                        const cz_kinds_t *kinds, cz_error_t *err)
{
    cz__err_clear(err);
    if (!out)
        return cz__err(err, CZ_EINVAL, "cz_prover_new: out is NULL");
    *out = NULL;
    if (cfg && (!CZ__RESERVED_ZERO(cfg) || cfg->reserved_pad))
        return cz__err(err, CZ_EINVAL,
                       "cz_prover_new: cfg.reserved is not zero "
                       "(start from cz_prover_config_init)");
    if (cfg && cfg->cuda_max_batch > CZ_BACKEND_MAX_BATCH)
        return cz__err(err, CZ_EINVAL, "cz_prover_new: cuda_max_batch %u is more than %d",
                       cfg->cuda_max_batch, CZ_BACKEND_MAX_BATCH);
    cz_prover_config_t dflt;
    cz_prover_config_init(&dflt);
    cz_prover_t *p = calloc(1, sizeof *p);
    if (!p)
        return cz__err(err, CZ_ENOMEM, "prover");
    p->cfg = cfg ? *cfg : dflt;
    p->fault = fault;
    p->count_params = !p->cfg.memory_budget && !p->cfg.memory_margin;
    p->kinds = kinds ? *kinds : *cz_kinds_builtin();
    p->backend = dup_or(p->cfg.backend, "auto");
    p->params_dir = dup_or(p->cfg.params_dir, ".");
    p->timeline_path = p->cfg.timeline ? strdup(p->cfg.timeline) : NULL;
    p->cfg.backend = p->backend;
    p->cfg.params_dir = p->params_dir;
    p->cfg.timeline = p->timeline_path;
    if (!p->cfg.max_partitions)
        p->cfg.max_partitions = 1024;
    p->log = (cz_logger_t){ p->cfg.log, p->cfg.log_user, p->cfg.log_level };
    p->next_id = 1;
    cz_mutex_init(&p->mu);
    cz_engine_gate_init(&p->gate);
    pthread_cond_init(&p->changed, NULL);
    pthread_cond_init(&p->work, NULL);
    if (!p->backend || !p->params_dir || (p->cfg.timeline && !p->timeline_path)) {
        cz_prover_free(p);
        return cz__err(err, CZ_ENOMEM, "prover configuration");
    }
    int rc = cz_pool_new(&p->pool, p->cfg.threads);
    if (rc != CZ_OK) {
        cz_prover_free(p);
        return cz__err(err, rc, "thread pool of %u threads", p->cfg.threads);
    }
    cz_ctx_t *ctx = NULL;
    rc = cz_ctx_new(&ctx, p->pool, 0);
    if (rc == CZ_OK)
        rc = start(p, ctx);
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    if (rc != CZ_OK) {
        cz_prover_free(p);
        return rc;
    }
    *out = p;
    return CZ_OK;
}

void cz_prover_free(cz_prover_t *p)
{
    if (!p)
        return;
    cz_mutex_lock(&p->mu);
    p->stopping = true;
    pthread_cond_broadcast(&p->work);
    pthread_cond_broadcast(&p->changed);
    cz_mutex_unlock(&p->mu);
    if (p->stager_started)
        pthread_join(p->stager, NULL); /* no job is STAGING or PARAMS, no load runs, after this */
    /* every job in the engine ends CANCELED through its callback */
    for (;;) {
        uint64_t eid = 0;
        cz_mutex_lock(&p->mu);
        for (pjob_t *j = p->jobs; j && !eid; j = j->next)
            if (j->phase == PJ_ENGINE && !j->cancel) {
                j->cancel = true;
                eid = j->eid;
            }
        cz_mutex_unlock(&p->mu);
        if (!eid)
            break;
        cz_engine_cancel(p->engine, eid);
    }
    cz_engine_gate_connect(&p->gate, NULL); /* the backends' pinned copies: no longer counted */
    cz_engine_free(p->engine);              /* joins the workers: no callback runs after this */
    while (p->jobs) {
        pjob_t *j = p->jobs;
        p->jobs = j->next;
        cz__pjob_free(p, j);
    }
    for (size_t d = 0; d < p->ndevices; d++)
        cz_backend_free(p->backends[d]);
    cz_pcache_free(p->pcache);
    for (size_t k = 0; k < p->kinds.n; k++)
        if (p->kinds.kind[k]->state_free && p->kind_state[k])
            p->kinds.kind[k]->state_free(p->kind_state[k]);
    cz_tl_free(p->timeline);
    cz_pool_free(p->pool);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->changed);
    cz_engine_gate_destroy(&p->gate);
    cz_mutex_destroy(&p->mu);
    free(p->backend);
    free(p->params_dir);
    free(p->timeline_path);
    free(p);
}

void cz_prover_info(cz_prover_t *p, cz_prover_info_t *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->backend, sizeof out->backend, "%s", p->backend_name);
    snprintf(out->backend_detail, sizeof out->backend_detail, "%s", p->backend_detail);
    out->devices = p->ndevices;
    out->threads = cz_pool_width(p->pool);
    cz_engine_stats_t es;
    cz_engine_stats(p->engine, &es);
    out->memory_budget = es.budget_total;
    out->params_dir = p->params_dir;
}

int cz_prover_device_memory(cz_prover_t *p, size_t device, cz_device_memory_t *out)
{
    memset(out, 0, sizeof *out);
    if (device >= p->ndevices)
        return CZ_ERANGE;
    cz_backend_report r;
    cz_backend_report_of(p->backends[device], &r);
    out->h2d_bytes = r.h2d_bytes;
    memcpy(out->plan, r.plan, sizeof out->plan);
    out->regions = r.regions;
    out->partitions = r.partitions;
    out->setup_ms = r.parts.setup * 1e3;
    out->h_ms = r.parts.h * 1e3;
    out->msm_h_ms = r.parts.msm_h * 1e3;
    out->prep_wait_ms = r.parts.prep_wait * 1e3;
    out->tails_ms = r.parts.tails * 1e3;
    return CZ_OK;
}

void cz_prover_stats(cz_prover_t *p, cz_prover_stats_t *out)
{
    memset(out, 0, sizeof *out);
    cz_mutex_lock(&p->mu);
    for (pjob_t *j = p->jobs; j; j = j->next) {
        if (j->phase == PJ_ENDED) {
            out->jobs[j->state]++;
        } else if (j->phase != PJ_ENGINE) {
            out->jobs[CZ_JOB_QUEUED]++;
            out->jobs_staged++;
        } else {
            cz_job_info_t info;
            out->jobs[cz_engine_info(p->engine, j->eid, &info) == CZ_OK ? info.state
                                                                        : CZ_JOB_RUNNING]++;
        }
    }
    out->engine_active_s = p->active_s + (p->in_engine ? cz_mono_s() - p->active_since : 0);
    size_t params_counted = p->params_counted;
    cz_mutex_unlock(&p->mu);
    cz_engine_stats_t es;
    cz_engine_stats(p->engine, &es);
    /* the engine's host takes less the params the stager counted (stager.c count_params) */
    out->backend_host_bytes = es.backend_host_bytes > params_counted
                                  ? es.backend_host_bytes - params_counted
                                  : 0;
    out->partitions_proved = es.partitions_proved;
    out->partitions_queued = es.partitions_queued;
    out->device_queue = es.device_queue;
    out->budget_total = es.budget_total;
    out->budget_reserved = es.budget_reserved;
    out->budget_peak = es.budget_peak;
    out->recycled_bytes = es.recycled_bytes;
    out->recycle_hits = es.recycle_hits;
    out->recycle_takes = es.recycle_takes;
    out->devices = es.num_devices;
    memcpy(out->device_busy_s, es.device_busy_s, sizeof out->device_busy_s);
    memcpy(out->device_failed, es.device_failed, sizeof out->device_failed);
    cz_pcache_stats_t ps;
    cz_pcache_stats(p->pcache, &ps);
    out->params_entries = ps.entries;
    out->params_bytes = ps.bytes;
    out->params_budget = ps.budget;
    out->params_hits = ps.hits;
    out->params_misses = ps.misses;
    out->params_evictions = ps.evictions;
    out->params_load_errors = ps.load_errors;
    for (size_t k = 0; k < p->kinds.n; k++) {
        size_t hits = 0, lookups = 0;
        if (p->kinds.kind[k]->stats && p->kind_state[k])
            p->kinds.kind[k]->stats(p->kind_state[k], &hits, &lookups);
        out->shape_hits += hits;
        out->shape_lookups += lookups;
    }
}
