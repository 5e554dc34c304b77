/*
 * daemon/metrics.c — GET /v1/status (JSON) and GET /metrics (Prometheus
 * text exposition format 0.0.4) from one snapshot of the server.
 *
 * Metric names (all prefixed cuzk_):
 *   jobs{state}                      gauge   jobs the daemon holds, by state
 *   jobs_accepted_total              counter submits accepted by this process
 *   jobs_recovered_total             counter jobs re-queued from the journal
 *   partitions_proved_total          counter
 *   device_busy_seconds_total{device}  counter  device lock held
 *   device_efficiency{device}        gauge   busy / time with work in the engine
 *   device_failed{device}            gauge   1 after a device error
 *   queue_depth{queue}               gauge   staged | engine | device
 *   memory_budget_bytes, memory_reserved_bytes, memory_reserved_peak_bytes
 *   params_cache_bytes, params_cache_budget_bytes, params_cache_entries
 *   params_cache_{hits,misses,evictions,load_errors}_total
 *   jobs_active{kind,priority,state} gauge   queued | running jobs by kind and priority
 *   jobs_ended_total{kind,state}     counter jobs ended here: done | failed | canceled
 *   job_errors_total{error}          counter failed jobs by error kind
 *   http_responses_total{code}       counter responses by status class (2xx ...)
 *   uptime_seconds                   gauge
 */
#include "daemon/server_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "daemon/jsonio.h"

/* The job states a client sees, in the order of cuzk_jobs{state}. */
static const char *const STATES[] = { "queued", "running", "done", "failed", "canceled", "lost" };
#define NSTATES (sizeof STATES / sizeof *STATES)

/* cuzk_jobs_active's states (queued, running) and cuzk_jobs_ended_total's outcomes. */
static const char *const ACTIVE[] = { "queued", "running" };
static const char *const ENDED[] = { "done", "failed", "canceled" };
#define NPRIO 4 /* priorities 1..4 */

typedef struct {
    size_t by_state[NSTATES];
    size_t active[CZ_METRIC_KINDS + 1][NPRIO][2];
    uint64_t ended[CZ_METRIC_KINDS + 1][3];
    uint64_t accepted, recovered, errors[CZ_E_COUNT], http[6];
    double uptime_s;
    bool stopping;
    unsigned workers, synth_workers;
    cz_prover_info_t pi;
    cz_prover_stats_t ps;
} snap_t;

/* The STATES slot of a live state (cz__live) and whether the job is lost. */
static size_t state_slot(cz_job_state_t st, bool lost)
{
    switch (st) {
    case CZ_JOB_QUEUED: return 0;
    case CZ_JOB_RUNNING:
    case CZ_JOB_VERIFYING: return 1;
    case CZ_JOB_DONE: return 2;
    case CZ_JOB_CANCELED: return 4;
    case CZ_JOB_FAILED: break;
    }
    return lost ? 5 : 3;
}

static void snapshot(cz_server_t *s, snap_t *o)
{
    memset(o, 0, sizeof *o);
    cz_mutex_lock(&s->mu);
    for (djob_t *j = s->jobs; j; j = j->next) {
        cz_job_state_t st = cz__live(s, j, NULL, NULL);
        o->by_state[state_slot(st, j->state == DJ_LOST)]++;
        int pr = j->priority >= 1 && j->priority <= NPRIO ? j->priority - 1 : NPRIO - 1;
        if (st == CZ_JOB_QUEUED || st == CZ_JOB_RUNNING)
            o->active[cz__kind_slot(s, j->kind)][pr][st == CZ_JOB_RUNNING]++;
    }
    memcpy(o->ended, s->ended, sizeof o->ended);
    o->accepted = s->jobs_accepted;
    o->recovered = s->jobs_recovered;
    memcpy(o->errors, s->errors, sizeof o->errors);
    memcpy(o->http, s->http, sizeof o->http);
    o->stopping = s->stopping;
    cz_mutex_unlock(&s->mu);
    o->uptime_s = cz_mono_s() - s->t_start;
    o->workers = (unsigned)s->cfg.workers_per_device;
    o->synth_workers = (unsigned)s->cfg.synth_workers;
    cz_prover_info(s->prover, &o->pi);
    cz_prover_stats(s->prover, &o->ps);
}

size_t cz__kind_slot(const cz_server_t *s, const char *kind)
{
    size_t nk = cz_prover_kind_count(s->prover);
    size_t n = nk < CZ_METRIC_KINDS ? nk : CZ_METRIC_KINDS;
    for (size_t i = 0; kind && i < n; i++)
        if (!strcmp(kind, cz_prover_kind_name(s->prover, i)))
            return i;
    return CZ_METRIC_KINDS;
}

/* Device |d|'s busy time over the time the engine had work (0..1). */
static double efficiency(const snap_t *sn, size_t d)
{
    return sn->ps.engine_active_s > 0 ? sn->ps.device_busy_s[d] / sn->ps.engine_active_s : 0.0;
}

static size_t ndevices(const snap_t *sn)
{
    return sn->pi.devices < 16 ? sn->pi.devices : 16;
}

void cz_server_count_http(cz_server_t *s, int status)
{
    cz_mutex_lock(&s->mu);
    if (status >= 100 && status < 600)
        s->http[status / 100]++;
    cz_mutex_unlock(&s->mu);
}

#define MAX_LISTED 32

void cz_server_counts(cz_server_t *s, cz_server_counts_t *out)
{
    snap_t sn;
    snapshot(s, &sn);
    memset(out, 0, sizeof *out);
    out->uptime_s = sn.uptime_s;
    out->stopping = sn.stopping;
    out->jobs[CZ_JOB_QUEUED] = sn.by_state[0];
    out->jobs[CZ_JOB_RUNNING] = sn.by_state[1];
    out->jobs[CZ_JOB_DONE] = sn.by_state[2];
    out->jobs[CZ_JOB_FAILED] = sn.by_state[3];
    out->jobs[CZ_JOB_CANCELED] = sn.by_state[4];
    out->jobs_lost = sn.by_state[5];
    out->devices = ndevices(&sn);
    snprintf(out->backend, sizeof out->backend, "%s", sn.pi.backend);
    out->memory_budget = sn.ps.budget_total;
    out->memory_reserved = sn.ps.budget_reserved;
}

size_t cz_server_params(cz_server_t *s, cz_params_item_t *items, size_t cap)
{
    size_t n = cz_prover_params_list(s->prover, items, cap);
    return n < cap ? n : cap;
}

json_t *cz_server_status_json(cz_server_t *s)
{
    snap_t sn;
    snapshot(s, &sn);
    const cz_prover_stats_t *ps = &sn.ps;
    json_t *devs = json_array();
    for (size_t d = 0; devs && d < ndevices(&sn); d++) {
        cz_device_memory_t mem;
        (void)cz_prover_device_memory(s->prover, d, &mem); /* zeroed if out of range */
        /* where its regions' time went, ms summed (0 on the CPU backend) */
        json_t *parts = json_pack("{s:f,s:f,s:f,s:f,s:f}", "setup", mem.setup_ms, "h", mem.h_ms,
                                  "msm_h", mem.msm_h_ms, "prep_wait", mem.prep_wait_ms, "tails",
                                  mem.tails_ms);
        json_array_append_new(devs,
                              json_pack("{s:I,s:s,s:I,s:f,s:f,s:b,s:s,s:I,s:I,s:o}", "index",
                                        (json_int_t)d, "backend", sn.pi.backend, "workers",
                                        (json_int_t)sn.workers, "busy_s", ps->device_busy_s[d],
                                        "efficiency", efficiency(&sn, d), "failed",
                                        ps->device_failed[d], "memory_plan", mem.plan, "h2d_bytes",
                                        (json_int_t)mem.h2d_bytes, "partitions",
                                        (json_int_t)mem.partitions, "region_parts_ms", parts));
    }
    json_t *entries = json_array();
    cz_params_item_t *items = malloc(MAX_LISTED * sizeof *items);
    size_t n = items ? cz_server_params(s, items, MAX_LISTED) : 0;
    for (size_t i = 0; entries && i < n && i < MAX_LISTED; i++)
        json_array_append_new(entries, json_pack("{s:s,s:I,s:I,s:b,s:f,s:I}", "path", items[i].path,
                                                 "bytes", (json_int_t)items[i].bytes, "users",
                                                 (json_int_t)items[i].users, "loading",
                                                 items[i].loading, "load_ms", items[i].load_ms,
                                                 "hits", (json_int_t)items[i].hits));
    free(items);
    json_t *kinds = json_array();
    for (size_t i = 0; kinds && i < cz_prover_kind_count(s->prover); i++)
        json_array_append_new(kinds, json_string(cz_prover_kind_name(s->prover, i)));
    return json_pack("{s:s,s:f,s:b,s:o,s:{s:I,s:I,s:I},s:{s:I,s:I,s:I},"
                     "s:{s:I,s:I,s:I,s:I,s:I,s:I},s:{s:I,s:I,s:I,s:I},s:{s:I,s:I,s:I,s:o},s:o,s:I}",
                     "version", cz_version(), "uptime_s", sn.uptime_s, "stopping", sn.stopping,
                     "devices", devs, "workers", "per_device", (json_int_t)sn.workers, "synthesis",
                     (json_int_t)sn.synth_workers, "threads", (json_int_t)sn.pi.threads, "queue",
                     "staged", (json_int_t)ps->jobs_staged, "engine_partitions",
                     (json_int_t)ps->partitions_queued, "device", (json_int_t)ps->device_queue,
                     "jobs", "queued", (json_int_t)sn.by_state[0], "running",
                     (json_int_t)sn.by_state[1], "done", (json_int_t)sn.by_state[2], "failed",
                     (json_int_t)sn.by_state[3], "canceled", (json_int_t)sn.by_state[4], "lost",
                     (json_int_t)sn.by_state[5], "memory", "budget", (json_int_t)ps->budget_total,
                     "reserved", (json_int_t)ps->budget_reserved, "peak",
                     (json_int_t)ps->budget_peak, "recycled", (json_int_t)ps->recycled_bytes,
                     "params_cache", "budget", (json_int_t)ps->params_budget, "bytes",
                     (json_int_t)ps->params_bytes, "loaded", (json_int_t)ps->params_entries,
                     "entries", entries, "kinds", kinds, "partitions_proved",
                     (json_int_t)ps->partitions_proved);
}

typedef struct {
    char *buf;
    size_t len, cap;
    bool oom;
} sbuf;

static void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (int tries = 0; tries < 2 && !b->oom; tries++) {
        va_start(ap, fmt);
        int n = vsnprintf(b->buf ? b->buf + b->len : NULL, b->buf ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = true;
            return;
        }
        if (b->buf && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap + (size_t)n + 1) * 2;
        char *g = realloc(b->buf, cap);
        if (!g) {
            b->oom = true;
            return;
        }
        b->buf = g;
        b->cap = cap;
    }
}

static void head(sbuf *b, const char *name, const char *type, const char *help)
{
    put(b, "# HELP cuzk_%s %s\n# TYPE cuzk_%s %s\n", name, help, name, type);
}

char *cz_server_metrics(cz_server_t *s)
{
    snap_t sn;
    snapshot(s, &sn);
    const cz_prover_stats_t *ps = &sn.ps;
    sbuf b = { 0 };
    head(&b, "jobs", "gauge", "Jobs held by the daemon, by state.");
    for (size_t i = 0; i < NSTATES; i++)
        put(&b, "cuzk_jobs{state=\"%s\"} %zu\n", STATES[i], sn.by_state[i]);
    head(&b, "jobs_accepted_total", "counter", "Submits accepted by this process.");
    put(&b, "cuzk_jobs_accepted_total %llu\n", (unsigned long long)sn.accepted);
    head(&b, "jobs_recovered_total", "counter",
         "Unfinished jobs re-queued from the journal at start.");
    put(&b, "cuzk_jobs_recovered_total %llu\n", (unsigned long long)sn.recovered);
    head(&b, "partitions_proved_total", "counter", "Partitions proved by the engine.");
    put(&b, "cuzk_partitions_proved_total %zu\n", ps->partitions_proved);
    head(&b, "device_busy_seconds_total", "counter", "Time the device lock was held.");
    for (size_t d = 0; d < ndevices(&sn); d++)
        put(&b, "cuzk_device_busy_seconds_total{device=\"%zu\"} %.6f\n", d, ps->device_busy_s[d]);
    head(&b, "device_efficiency", "gauge",
         "Device busy time over the time the engine had work (0..1).");
    for (size_t d = 0; d < ndevices(&sn); d++)
        put(&b, "cuzk_device_efficiency{device=\"%zu\"} %.6f\n", d, efficiency(&sn, d));
    head(&b, "device_failed", "gauge", "1 when the device was marked failed.");
    for (size_t d = 0; d < ndevices(&sn); d++)
        put(&b, "cuzk_device_failed{device=\"%zu\"} %d\n", d, ps->device_failed[d] ? 1 : 0);
    head(&b, "queue_depth", "gauge",
         "Waiting work: staged jobs, engine partitions, synthesized partitions.");
    put(&b, "cuzk_queue_depth{queue=\"staged\"} %zu\n", ps->jobs_staged);
    put(&b, "cuzk_queue_depth{queue=\"engine\"} %zu\n", ps->partitions_queued);
    put(&b, "cuzk_queue_depth{queue=\"device\"} %zu\n", ps->device_queue);
    head(&b, "memory_budget_bytes", "gauge", "Engine memory budget.");
    put(&b, "cuzk_memory_budget_bytes %zu\n", ps->budget_total);
    head(&b, "memory_reserved_bytes", "gauge", "Engine memory reserved now.");
    put(&b, "cuzk_memory_reserved_bytes %zu\n", ps->budget_reserved);
    head(&b, "memory_reserved_peak_bytes", "gauge", "Peak engine memory reservation.");
    put(&b, "cuzk_memory_reserved_peak_bytes %zu\n", ps->budget_peak);
    head(&b, "memory_recycled_bytes", "gauge",
         "Witness buffers kept warm for the next partition (part of the reservation).");
    put(&b, "cuzk_memory_recycled_bytes %zu\n", ps->recycled_bytes);
    head(&b, "memory_recycle_hits_total", "counter",
         "Witness arrays served from kept buffers (no page faults).");
    put(&b, "cuzk_memory_recycle_hits_total %zu\n", ps->recycle_hits);
    head(&b, "memory_recycle_requests_total", "counter", "Witness arrays asked for.");
    put(&b, "cuzk_memory_recycle_requests_total %zu\n", ps->recycle_takes);
    head(&b, "params_cache_bytes", "gauge", "Bytes of loaded params.");
    put(&b, "cuzk_params_cache_bytes %zu\n", ps->params_bytes);
    head(&b, "params_cache_budget_bytes", "gauge", "Params cache budget.");
    put(&b, "cuzk_params_cache_budget_bytes %zu\n", ps->params_budget);
    head(&b, "params_cache_entries", "gauge", "Params files loaded.");
    put(&b, "cuzk_params_cache_entries %zu\n", ps->params_entries);
    head(&b, "params_cache_hits_total", "counter", "Params acquisitions served from memory.");
    put(&b, "cuzk_params_cache_hits_total %llu\n", (unsigned long long)ps->params_hits);
    head(&b, "params_cache_misses_total", "counter", "Params loads.");
    put(&b, "cuzk_params_cache_misses_total %llu\n", (unsigned long long)ps->params_misses);
    head(&b, "params_cache_evictions_total", "counter", "Params evicted (LRU or request).");
    put(&b, "cuzk_params_cache_evictions_total %llu\n", (unsigned long long)ps->params_evictions);
    head(&b, "params_cache_load_errors_total", "counter", "Params loads that failed.");
    put(&b, "cuzk_params_cache_load_errors_total %llu\n",
        (unsigned long long)ps->params_load_errors);
    /* every known kind's series, zeros included (a dashboard's rate() needs
     * the series before the first job); "other" only once it counts one */
    size_t nk = cz_prover_kind_count(s->prover);
    nk = nk < CZ_METRIC_KINDS ? nk : CZ_METRIC_KINDS;
    head(&b, "jobs_active", "gauge",
         "Jobs queued or running, by kind and priority (1 low .. 4 critical).");
    for (size_t i = 0; i <= CZ_METRIC_KINDS; i++) {
        if (i >= nk && i < CZ_METRIC_KINDS)
            continue;
        size_t any = 0;
        for (int p = 0; p < NPRIO; p++)
            any += sn.active[i][p][0] + sn.active[i][p][1];
        if (i == CZ_METRIC_KINDS && !any)
            break;
        for (int p = 0; p < NPRIO; p++)
            for (size_t k = 0; k < 2; k++)
                put(&b, "cuzk_jobs_active{kind=\"%s\",priority=\"%d\",state=\"%s\"} %zu\n",
                    i < nk ? cz_prover_kind_name(s->prover, i) : "other", p + 1, ACTIVE[k],
                    sn.active[i][p][k]);
    }
    head(&b, "jobs_ended_total", "counter", "Jobs ended in this process, by kind and outcome.");
    for (size_t i = 0; i <= CZ_METRIC_KINDS; i++) {
        if (i >= nk && i < CZ_METRIC_KINDS)
            continue;
        if (i == CZ_METRIC_KINDS && !(sn.ended[i][0] + sn.ended[i][1] + sn.ended[i][2]))
            break;
        for (size_t k = 0; k < 3; k++)
            put(&b, "cuzk_jobs_ended_total{kind=\"%s\",state=\"%s\"} %llu\n",
                i < nk ? cz_prover_kind_name(s->prover, i) : "other", ENDED[k],
                (unsigned long long)sn.ended[i][k]);
    }
    head(&b, "job_errors_total", "counter", "Failed jobs by error kind.");
    for (int c = 1; c < CZ_E_COUNT; c++)
        put(&b, "cuzk_job_errors_total{error=\"%s\"} %llu\n", cz_err_name(-c),
            (unsigned long long)sn.errors[c]);
    head(&b, "http_responses_total", "counter", "HTTP responses by status class.");
    for (int c = 1; c < 6; c++)
        put(&b, "cuzk_http_responses_total{code=\"%dxx\"} %llu\n", c,
            (unsigned long long)sn.http[c]);
    head(&b, "uptime_seconds", "gauge", "Seconds since the daemon started.");
    put(&b, "cuzk_uptime_seconds %.3f\n", sn.uptime_s);
    if (b.oom) {
        free(b.buf);
        return NULL;
    }
    return b.buf;
}
