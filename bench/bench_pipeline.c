/*
 * bench/bench_pipeline.c — `cuzk bench pipeline`: the whole proving
 * pipeline in process, once per workers-per-device count, on the same jobs.
 *
 * The baseline is the first count in the list (normally W = 1), run in the
 * same process on the same inputs; the claim is the ratio. Device
 * efficiency and overlap violations come from the run's own timeline,
 * analysed in process (timeline/analyze.h).
 *
 * Two drivers. The jobs go through the public API, as any program would
 * prove them: a prover per run (cz_prover_new with the run's workers per
 * device), J submits of the "circuit" kind ({"circuit", "partitions",
 * "seed": job + 1}, the same witnesses as before), cz_prover_wait for each.
 * With real params (seeded test params made here, or --params FILE) every
 * proof is verified by the prover (a job that fails verification fails the
 * bench); the params are written to (or named from) a params dir and
 * preloaded before the clock starts, so the figures exclude their load.
 * With --random-params (TIMING ONLY) the jobs are timing jobs
 * (cz_prover_submit_timing): the prover makes random points of the
 * circuit's shape (seed 1; seconds where a real setup of bench:130278869,
 * a 32GiB PoRep partition, takes hours) when the first starts, the other
 * jobs share them, nothing is verified, and the clock starts once the
 * first job is in the engine (its params made), as it started after the
 * bench made them. JSON "driver":"prover".
 *
 * The engine directly (engine/engine.h, JSON "driver":"engine") for what
 * the API does not offer, on purpose, because it is timing machinery and
 * not proving:
 *   --witness-cache: one witness synthesized before the timed runs (seed
 *     1), each partition's synthesis callback returning a deep copy of it
 *     (copied in parallel on the pool; the copy, honest CPU work, stays on
 *     the timeline's synthesis stage), so a circuit whose synthesis
 *     outlasts the device region (bench:130278869 on a 16-core host) no
 *     longer hides the dual-worker interlock. A job kind is a request's
 *     meaning, not a callback a client supplies. JSON "synthesis":"cache"
 *     (else "circuit"). With real params the proofs of the copies verify;
 *     with --random-params they are not verified (no pvk, engine.h).
 *   builds without jansson, which have no prover (src/api needs it).
 * --synth-workers N sets the synthesis workers either way.
 *
 * The prover's memory margin is its own (it counts the params it holds);
 * for the engine driver the params live outside the engine's memory
 * budget, so its automatic budget leaves their bytes out on top of the
 * engine's default margin.
 *
 * Devices: --devices cpu[:N] (N emulated CPU devices sharing the threads,
 * for the engine's multi-device paths) or cuda[:N|:all] (the first N usable
 * GPUs; cuda = cuda:all), at most MAX_DEVICES; the JSON "devices" field
 * names what ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "circuits/registry.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "core/pool.h"
#include "timeline/analyze.h"
#include "engine/engine.h"
#include "timeline/svg.h"
#include "groth16/setup.h"

#define MAX_W 8
#define MAX_DEVICES 16

typedef struct {
    const char *circuit, *params_path, *timeline_path, *svg_path;
    bool random_params;   /* timing only: random points, jobs not verified */
    bool witness_cache;   /* one synthesis, copied per partition */
    size_t synth_workers; /* 0: the engine's default */
    const char *kind;     /* "cpu" or "cuda" */
    size_t devices;       /* 0: all of the kind (cuda, cuda:all); resolved in main */
    size_t jobs, partitions, threads;
    unsigned w[MAX_W];
    size_t nw;
    size_t device_mem_limit; /* CUDA: the plan's budget per device (0: the free memory) */
    size_t batch;            /* CUDA: partitions a region takes where bases stream (0: 2) */
    bool json;
} pipe_opts;

/* --devices: cpu, cpu:N, cuda, cuda:N, cuda:all -> kind + count (0 = all). */
static bool parse_devices(void *field, const char *s, char *why, size_t cap)
{
    pipe_opts *o = (pipe_opts *)((char *)field - offsetof(pipe_opts, kind));
    const char *colon = strchr(s, ':');
    size_t kl = colon ? (size_t)(colon - s) : strlen(s);
    snprintf(why, cap, "is not cpu, cpu:N, cuda, cuda:N or cuda:all (N = 1..%d)", MAX_DEVICES);
    if (kl == 3 && !strncmp(s, "cpu", 3))
        o->kind = "cpu";
    else if (kl == 4 && !strncmp(s, "cuda", 4))
        o->kind = "cuda";
    else
        return false;
    if (!colon) {
        o->devices = o->kind[1] == 'p' ? 1 : 0;
        return true;
    }
    if (!strcmp(colon + 1, "all") && o->kind[1] == 'u') {
        o->devices = 0;
        return true;
    }
    return cz_cli_parse_size(colon + 1, &o->devices) && o->devices >= 1 &&
           o->devices <= MAX_DEVICES;
}

/* --workers-per-device: a list of counts 1..64, e.g. 1,2 (at most MAX_W). */
static bool parse_w_list(void *field, const char *s, char *why, size_t cap)
{
    pipe_opts *o = (pipe_opts *)((char *)field - offsetof(pipe_opts, w));
    snprintf(why, cap, "is not a list of counts 1..64 such as 1,2 (at most %d)", MAX_W);
    o->nw = 0;
    while (*s && o->nw < MAX_W) {
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || v == 0 || v > 64)
            return false;
        o->w[o->nw++] = (unsigned)v;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    return o->nw > 0 && !*s;
}

static const cz_opt PIPE_OPTS[] = {
    { "circuit", 0, CZ_O_STRING(pipe_opts, circuit), .arg = "bench:N", .def = "bench:16384",
      .help = "the circuit of every partition" },
    { "jobs", 0, CZ_O_SIZE(pipe_opts, jobs), .min = 1, .def = "3", .arg = "J", .help = "jobs" },
    { "partitions", 0, CZ_O_SIZE(pipe_opts, partitions), .min = 1, .def = "4", .arg = "P",
      .help = "partitions per job" },
    { "workers-per-device", 0, CZ_O_CUSTOM(pipe_opts, w), .hook = parse_w_list, .def = "1,2",
      .arg = "W,W..", .help = "one run per count; the first is the ratio's baseline" },
    { "devices", 0, CZ_O_CUSTOM(pipe_opts, kind), .hook = parse_devices, .def = "cpu",
      .arg = "cpu|cpu:N|cuda|cuda:N|cuda:all",
      .help = "cpu:N: N emulated CPU devices sharing the threads; cuda: every usable GPU" },
    { "params", 0, CZ_O_STRING(pipe_opts, params_path), .arg = "FILE",
      .help = "params of the circuit (default: seeded test params made here)" },
    { "random-params", 0, CZ_O_FLAG(pipe_opts, random_params),
      .help = "TIMING ONLY: random points of the circuit's shape; jobs not verified" },
    CZ_OPT_THREADS(pipe_opts, threads),
    { "timeline", 0, CZ_O_OUTPUT(pipe_opts, timeline_path), .arg = "LOG",
      .help = "keep the last run's timeline log" },
    { "svg", 0, CZ_O_OUTPUT(pipe_opts, svg_path), .arg = "OUT.svg",
      .help = "keep its Gantt chart" },
    { "witness-cache", 0, CZ_O_FLAG(pipe_opts, witness_cache),
      .help = "one witness (seed 1), deep-copied per partition (timed as synthesis)" },
    { "synth-workers", 0, CZ_O_SIZE(pipe_opts, synth_workers), .min = 1, .max = 256, .arg = "N",
      .help = "the engine's synthesis workers (default: the engine's)" },
    { "device-mem-limit", 0, CZ_O_BYTES(pipe_opts, device_mem_limit), .def = "0",
      .help = "CUDA: device memory each device's plan may use (0: what is free)" },
    { "batch", 0, CZ_O_SIZE(pipe_opts, batch), .min = 0, .max = 4, .def = "0", .arg = "K",
      .help = "CUDA: partitions one region takes where bases stream (0: 2; 1: none)" },
    CZ_OPT_JSON(pipe_opts, json, "one JSON line per run"),
};
static const cz_opt_rule PIPE_RULES[] = { CZ_RULE(EXCLUSIVE, "params", "random-params") };
static const cz_opts_spec PIPE_SPEC = {
    .cmd = "cuzk bench pipeline",
    .usage = "usage: cuzk bench pipeline --circuit bench:N [--jobs J] [--partitions P]\n"
             "         [--workers-per-device 1,2] [--devices cpu|cpu:N|cuda|cuda:N|cuda:all]\n"
             "         [--params FILE | --random-params] [--threads T] [--timeline LOG]\n"
             "         [--svg OUT.svg] [--witness-cache] [--synth-workers N]\n"
             "         [--device-mem-limit BYTES] [--batch K] [--json]\n",
    .about = "  Runs J jobs of P partitions once per workers-per-device count (through the\n"
             "  prover, the public API; --witness-cache through the engine directly: JSON\n"
             "  \"driver\") and reports s/job,\n"
             "  s/partition, partitions/min, device efficiency (the least efficient\n"
             "  device, then each device), the mean device region per partition,\n"
             "  overlap violations and peak RSS; the first count is the\n"
             "  baseline of the ratio.\n"
             "  Without --params, test parameters are generated in process (seeded) and\n"
             "  every job is verified.\n"
             "  --random-params: TIMING ONLY. Random points of the circuit's shape (seconds,\n"
             "  even at bench:130278869, a 32GiB PoRep partition, where a setup takes\n"
             "  hours); the proofs cannot verify, so the jobs are not verified\n"
             "  (JSON \"verified\":false).\n"
             "  --witness-cache: synthesize ONE witness (seed 1) before the timed runs and\n"
             "  give every partition a deep copy of it (the copy is timed as synthesis), so\n"
             "  the figures measure the device pipeline, not synthesis (JSON\n"
             "  \"synthesis\":\"cache\"; else \"circuit\"). Proofs from the copies verify.\n",
    CZ_OPTS(PIPE_OPTS),
    CZ_RULES(PIPE_RULES),
};

/* What every run shares: the params (as the driver takes them), the witness cache,
 * the temporary directory for params files and timelines. */
typedef struct {
    bool api;               /* the prover drives (else the engine) */
    char tmp[64];           /* "" until made */
    char params_file[4096]; /* api: the params file the prover loads */
    const cz_circuit_t *circuit;
    cz_params_t *params;          /* engine: in memory */
    cz_pvk_t *pvk;                /* engine: NULL = not verified (random params) */
    size_t part_bytes, abc_bytes; /* engine: the budget estimate per partition */
    size_t params_bytes, margin;  /* margin: the engine's automatic budget's (engine default +
                                   * params) */
    double params_s;              /* making (or reading) the params */
    const cz_cs_witness_t *cache; /* engine, --witness-cache */
} pipe_env;

/* ---- the engine driver -------------------------------------------------------------- */

typedef struct {
    const cz_circuit_t *circuit;
    uint64_t job_seed;
    const cz_cs_witness_t *cache; /* --witness-cache: copied instead of synthesized */
} pipe_job;

/* *out = a deep copy of |w| (every array cz_cs_witness_free frees), copied on the pool. */
static int witness_copy(cz_ctx_t *ctx, const cz_cs_witness_t *w, cz_cs_witness_t *out)
{
    *out = *w;
    out->input = out->aux = out->a = out->b = out->c = NULL;
    for (int i = 0; i < 3; i++)
        out->density[i] = NULL;
    typedef struct {
        void **dst;
        const void *src;
        size_t bytes;
    } arr_t;
    arr_t arr[8] = {
        { (void **)&out->input, w->input, w->num_inputs * sizeof(cz_fr) },
        { (void **)&out->aux, w->aux, w->num_aux * sizeof(cz_fr) },
        { (void **)&out->a, w->a, w->num_rows * sizeof(cz_fr) },
        { (void **)&out->b, w->b, w->num_rows * sizeof(cz_fr) },
        { (void **)&out->c, w->c, w->num_rows * sizeof(cz_fr) },
    };
    for (int i = 0; i < 3; i++)
        arr[5 + i] = (arr_t){ (void **)&out->density[i], w->density[i],
                              (w->density_bits[i] + 63) / 64 * sizeof(uint64_t) };
    for (int i = 0; i < 8; i++) {
        if (!arr[i].src || !arr[i].bytes)
            continue;
        if (!(*arr[i].dst = malloc(arr[i].bytes))) {
            cz_cs_witness_free(out);
            return cz_fail(ctx, CZ_ENOMEM, "witness cache copy (%zu bytes)", arr[i].bytes);
        }
        cz_pool_memcpy(cz_ctx_pool(ctx), *arr[i].dst, arr[i].src, arr[i].bytes);
    }
    return CZ_OK;
}

static int synth(void *arg, size_t partition, cz_ctx_t *ctx, cz_cs_witness_t *out)
{
    const pipe_job *j = arg;
    if (j->cache)
        return witness_copy(ctx, j->cache, out);
    return cz_circuit_witness(ctx, j->circuit, j->job_seed * 1000 + partition + 1, out);
}

/* Reset the kernel's peak-RSS mark so each run reports its own (Linux). */
static void reset_peak_rss(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

typedef struct {
    unsigned w;
    double wall_s, s_per_job, s_per_partition, partitions_per_min;
    double efficiency, dispatch_efficiency; /* of the least efficient device */
    double device_eff[MAX_DEVICES];         /* per device of the timeline, in its order */
    int32_t device_id[MAX_DEVICES];
    size_t ndev;
    double region_ms; /* mean device region (lock held) per partition */
    size_t overlaps, peak_rss;
    int ok;
} run_result;

/* The jobs through the engine at W workers per device, timeline to |tl_path|;
 * *wall: submit of the first to the end of the last. */
static int drive_engine(cz_ctx_t *ctx, const pipe_opts *o, const pipe_env *env, unsigned w,
                        const char *tl_path, double *wall)
{
    cz_backend_t *be[MAX_DEVICES] = { 0 };
    cz_timeline_t *tl = NULL;
    cz_engine_t *e = NULL;
    int rc = CZ_OK;
    for (size_t d = 0; rc == CZ_OK && d < o->devices; d++)
        rc = cz_backend_new_opts(ctx, &be[d], o->kind, (int)d,
                                 &(cz_cuda_backend_opts_t){ .device_mem_limit = o->device_mem_limit,
                                                            .max_batch = (unsigned)o->batch });
    if (rc == CZ_OK)
        rc = cz_tl_open(ctx, &tl, tl_path, 0);
    cz_engine_config_t cfg = { .backends = be,
                               .num_devices = o->devices,
                               .workers_per_device = w,
                               .synth_workers = (unsigned)o->synth_workers,
                               .memory_margin = env->margin,
                               .pool = cz_ctx_pool(ctx),
                               .timeline = tl };
    if (rc == CZ_OK)
        rc = cz_engine_new(ctx, &e, &cfg);
    pipe_job *jobs = calloc(o->jobs, sizeof *jobs);
    uint64_t *ids = calloc(o->jobs, sizeof *ids);
    if (rc == CZ_OK && (!jobs || !ids))
        rc = cz_fail(ctx, CZ_ENOMEM, "jobs");
    reset_peak_rss();
    double t0 = cz_bench_now();
    for (size_t i = 0; rc == CZ_OK && i < o->jobs; i++) {
        jobs[i] = (pipe_job){ env->circuit, i + 1, env->cache };
        cz_job_spec_t spec = { .partitions = o->partitions,
                               .params = env->params,
                               .pvk = env->pvk,
                               .partition_bytes = env->part_bytes,
                               .abc_bytes = env->abc_bytes,
                               .synthesize = synth,
                               .arg = &jobs[i] };
        rc = cz_engine_submit(e, ctx, &spec, &ids[i]);
        if (rc)
            cz_fail(ctx, rc, "submit failed");
    }
    for (size_t i = 0; rc == CZ_OK && i < o->jobs; i++) {
        cz_job_info_t info;
        rc = cz_engine_wait(e, ids[i], -1, &info);
        if (rc == CZ_OK && info.state != CZ_JOB_DONE)
            rc = cz_fail(ctx, CZ_EVERIFY, "job %zu %s: %s", i, cz_job_state_name(info.state),
                         info.message);
    }
    *wall = cz_bench_now() - t0;
    cz_engine_free(e);
    for (size_t d = 0; d < o->devices; d++)
        cz_backend_free(be[d]);
    cz_tl_free(tl); /* flushes the timeline file */
    free(jobs);
    free(ids);
    return rc;
}

/* ---- the prover driver (the public API) --------------------------------------------- */

#ifdef CUZK_HAVE_JANSSON
/*
 * --random-params: the clock starts when the first job enters the engine
 * (cz_job_info_t.started, seen within 10 ms): its random params, which the
 * prover makes when it starts and the other jobs share, are made before,
 * as they were before the clock when the bench made them. *params_s and
 * *params_bytes: their making and size. CZ_OK or the job's error in |err|.
 */
static int wait_started(cz_prover_t *p, uint64_t id, double *t0, double *params_s,
                        size_t *params_bytes, cz_error_t *err)
{
    cz_job_info_t info;
    memset(&info, 0, sizeof info);
    int rc;
    while ((rc = cz_prover_status(p, id, &info, err)) == CZ_OK && !info.started &&
           info.state < CZ_JOB_DONE)
        if ((rc = cz_prover_wait(p, id, 0.01, NULL, err)) != CZ_EBUSY && rc != CZ_OK)
            return rc;
    *t0 = cz_bench_now();
    *params_s = info.t.params_load / 1e3;
    cz_job_shape_t shape;
    if (rc == CZ_OK && (rc = cz_prover_job_shape(p, id, &shape, err)) == CZ_OK)
        *params_bytes = shape.params_bytes;
    return rc;
}

/*
 * The jobs through a prover at W workers per device, timeline to |tl_path|;
 * the params are preloaded before the clock starts, or, with
 * --random-params, made by the prover for the first timing job and shared
 * by the others (the clock starts once they are: wait_started). The memory
 * margin is the prover's (it counts the params it holds).
 */
static int drive_prover(cz_ctx_t *ctx, const pipe_opts *o, pipe_env *env, unsigned w,
                        const char *tl_path, double *wall)
{
    cz_prover_config_t pc;
    cz_prover_config_init(&pc);
    pc.backend = o->kind;
    pc.devices = (unsigned)o->devices;
    pc.workers_per_device = w;
    pc.synth_workers = (unsigned)o->synth_workers;
    pc.threads = (unsigned)o->threads;
    pc.params_allow_paths = true; /* the file is named by its absolute path */
    pc.max_partitions = o->partitions > 1024 ? (unsigned)o->partitions : 0;
    pc.timeline = tl_path;
    pc.cuda_device_mem_limit = o->device_mem_limit;
    pc.cuda_max_batch = (unsigned)o->batch;
    cz_prover_t *p = NULL;
    cz_error_t err;
    int rc = cz_prover_new(&p, &pc, &err);
    if (rc == CZ_OK && !o->random_params)
        rc = cz_prover_params_preload(p, env->params_file, NULL, &err);
    uint64_t *ids = calloc(o->jobs, sizeof *ids);
    if (rc == CZ_OK && !ids) {
        rc = CZ_ENOMEM;
        snprintf(err.message, sizeof err.message, "jobs");
    }
    reset_peak_rss();
    double t0 = cz_bench_now();
    for (size_t i = 0; rc == CZ_OK && i < o->jobs; i++) {
        char fields[256];
        snprintf(fields, sizeof fields, "{\"circuit\":\"%s\",\"partitions\":%zu,\"seed\":%zu}",
                 o->circuit, o->partitions, i + 1);
        if (o->random_params) { /* TIMING ONLY: random points, seed 1, shared */
            cz_timing_request_t treq;
            cz_timing_request_init(&treq, "circuit");
            treq.fields = fields;
            treq.seed = 1;
            rc = cz_prover_submit_timing(p, &treq, &ids[i], &err);
        } else {
            cz_job_request_t req;
            cz_job_request_init(&req, "circuit", NULL, 0);
            req.fields = fields;
            req.params = env->params_file;
            rc = cz_prover_submit(p, &req, &ids[i], &err);
        }
    }
    if (rc == CZ_OK && o->random_params)
        rc = wait_started(p, ids[0], &t0, &env->params_s, &env->params_bytes, &err);
    for (size_t i = 0; rc == CZ_OK && i < o->jobs; i++) {
        cz_job_info_t info;
        rc = cz_prover_wait(p, ids[i], -1, &info, &err);
        if (rc == CZ_OK && info.state != CZ_JOB_DONE) {
            rc = CZ_EVERIFY;
            snprintf(err.message, sizeof err.message, "job %zu %s: %s", i,
                     cz_job_state_name(info.state), info.message);
        }
    }
    *wall = cz_bench_now() - t0;
    cz_prover_free(p); /* flushes the timeline file */
    free(ids);
    return rc ? cz_fail(ctx, rc, "%s", err.message) : CZ_OK;
}
#endif

/* ---- one run ---------------------------------------------------------------------- */

/* The figures of the run's timeline |path| into |res|; the Gantt chart when asked. */
static int analyze(cz_ctx_t *ctx, const pipe_opts *o, const char *path, bool last, run_result *res)
{
    cz_timeline_report_t *rep = NULL;
    int rc = cz_timeline_analyze_file(ctx, path, &rep);
    if (rc == CZ_OK) {
        /* the figure of the least efficient device, and each device's */
        res->efficiency = 1.0;
        res->dispatch_efficiency = 1.0;
        res->ndev = 0;
        double held_ms = 0;
        size_t regions = 0;
        for (size_t d = 0; d < cz_timeline_ndevices(rep); d++) {
            const cz_tl_device_t *dv = cz_timeline_device(rep, d);
            if (res->ndev < MAX_DEVICES) {
                res->device_id[res->ndev] = dv->device;
                res->device_eff[res->ndev++] = dv->efficiency;
            }
            held_ms += dv->held_ms;
            regions += dv->regions;
            if (dv->efficiency < res->efficiency)
                res->efficiency = dv->efficiency;
            if (dv->dispatch_efficiency >= 0 && dv->dispatch_efficiency < res->dispatch_efficiency)
                res->dispatch_efficiency = dv->dispatch_efficiency;
        }
        res->region_ms = regions ? held_ms / (double)regions : 0;
        res->overlaps = cz_timeline_noverlaps(rep);
        if (last && o->svg_path)
            rc = cz_timeline_svg_file(ctx, rep, NULL, o->svg_path, NULL);
    }
    cz_timeline_report_free(rep);
    return rc;
}

/* One run at W workers per device; the last one keeps its timeline in --timeline. */
static int run_once(cz_ctx_t *ctx, const pipe_opts *o, pipe_env *env, unsigned w, bool last,
                    run_result *res)
{
    char tl_path[128];
    bool keep = last && o->timeline_path;
    snprintf(tl_path, sizeof tl_path, "%s/run-w%u.timeline", env->tmp, w);
    const char *path = keep ? o->timeline_path : tl_path;
    double wall = 0;
    int rc;
#ifdef CUZK_HAVE_JANSSON
    rc = env->api ? drive_prover(ctx, o, env, w, path, &wall)
                  : drive_engine(ctx, o, env, w, path, &wall);
#else
    rc = drive_engine(ctx, o, env, w, path, &wall);
#endif
    res->ok = rc == CZ_OK;
    res->w = w;
    res->wall_s = wall;
    res->s_per_job = wall / (double)o->jobs;
    res->s_per_partition = wall / (double)(o->jobs * o->partitions);
    res->partitions_per_min = 60.0 * (double)(o->jobs * o->partitions) / wall;
    res->peak_rss = cz_cli_peak_rss();
    if (rc == CZ_OK)
        rc = analyze(ctx, o, path, last, res);
    if (!keep)
        unlink(tl_path);
    return rc;
}

/*
 * The devices the run will use: cuda (all) or cuda:N checked against the
 * usable GPUs (CZ_EUNAVAIL with the reason when there are none), all capped
 * at MAX_DEVICES.
 */
static int resolve_devices(cz_ctx_t *ctx, pipe_opts *o)
{
    size_t have = 0;
    int rc = cz_backend_device_count(ctx, o->kind, &have);
    if (rc != CZ_OK || !strcmp(o->kind, "cpu"))
        return rc; /* cpu:N: emulated devices, any N up to MAX_DEVICES */
    if (o->devices > have)
        return cz_fail(ctx, CZ_ERANGE,
                       "--devices cuda:%zu: this machine has %zu usable CUDA "
                       "device%s",
                       o->devices, have, have == 1 ? "" : "s");
    if (o->devices == 0) {
        o->devices = have;
        if (have > MAX_DEVICES) {
            fprintf(stderr, "cuzk bench pipeline: %zu CUDA devices; using the first %d\n", have,
                    MAX_DEVICES);
            o->devices = MAX_DEVICES;
        }
    }
    return CZ_OK;
}

/* The params to run with (*seconds: how long making them took): the file, random
 * points (timing only) or a seeded test setup; the prover takes them from a file (the
 * test setup is written to the temporary directory), the engine from memory. */
static int make_params(cz_ctx_t *ctx, const pipe_opts *o, const cz_params_shape_t *shape,
                       pipe_env *env, double *seconds)
{
    double t0 = cz_bench_now();
    int rc = CZ_OK;
    struct stat st;
    if (o->params_path && env->api) {
        if (!realpath(o->params_path, env->params_file) || stat(env->params_file, &st))
            return cz_fail(ctx, CZ_ENOTFOUND, "--params %s: not found", o->params_path);
        env->params_bytes = (size_t)st.st_size; /* about its size in memory */
    } else if (o->params_path) {
        cz_params_opts_t popts = { .expect = shape };
        rc = cz_params_load(ctx, &env->params, o->params_path, &popts);
    } else if (o->random_params && env->api) {
        /* the prover makes them for the first job of each run (drive_prover) */
    } else if (o->random_params) {
        if (!o->json)
            printf("random parameters for %s (TIMING ONLY: proofs will not verify)...\n",
                   o->circuit);
        rc = cz_params_random(ctx, &env->params, shape, 1);
    } else {
        cz_setup_toxic_t toxic;
        cz_setup_toxic_from_seed(&toxic, 1);
        if (!o->json)
            printf("generating test parameters for %s (seeded; tests only)...\n", o->circuit);
        rc = cz_setup(ctx, &env->params, cz_circuit_body, (void *)env->circuit, &toxic, NULL);
        cz_setup_toxic_scrub(&toxic);
        if (rc == CZ_OK && env->api) {
            snprintf(env->params_file, sizeof env->params_file, "%s/bench.params", env->tmp);
            rc = cz_params_write(ctx, env->params_file, env->params);
        }
    }
    if (rc == CZ_OK && env->params)
        env->params_bytes = cz_params_mem_bytes(env->params);
    if (rc == CZ_OK && env->api) { /* the prover loads its own copy */
        cz_params_free(env->params);
        env->params = NULL;
    }
    *seconds = cz_bench_now() - t0;
    return rc;
}

/* The random params' line (their making and size; with the prover, the first run's). */
static void print_random(const pipe_env *env, size_t m, size_t na)
{
    char buf[32];
    printf("random params: %.1f s, %s (domain %zu, %zu aux)\n", env->params_s,
           cz_bench_fmt_bytes(buf, sizeof buf, env->params_bytes), m, na);
}

static void print_result(const pipe_opts *o, const pipe_env *env, const run_result *r,
                         const run_result *base, bool verified, unsigned threads)
{
    double gain = base->s_per_job / r->s_per_job;
    if (o->json) {
        printf("{\"bench\":\"pipeline\",\"circuit\":\"%s\",\"devices\":\"%s:%zu\","
               "\"jobs\":%zu,\"partitions\":%zu,\"workers_per_device\":%u,\"s_per_job\":%.3f,"
               "\"s_per_partition\":%.3f,\"partitions_per_min\":%.1f,\"device_efficiency\":%.4f,"
               "\"dispatch_efficiency\":%.4f,\"device_efficiencies\":[",
               o->circuit, o->kind, o->devices, o->jobs, o->partitions, r->w, r->s_per_job,
               r->s_per_partition, r->partitions_per_min, r->efficiency, r->dispatch_efficiency);
        for (size_t d = 0; d < r->ndev; d++)
            printf("%s%.4f", d ? "," : "", r->device_eff[d]);
        printf("],\"device_region_ms\":%.2f,\"overlap_violations\":%zu,\"peak_rss_bytes\":%zu,"
               "\"gain_vs_first\":%.3f,\"params\":\"%s\",\"verified\":%s,\"threads\":%u,"
               "\"synthesis\":\"%s\",\"driver\":\"%s\",\"synth_workers\":",
               r->region_ms, r->overlaps, r->peak_rss, gain,
               o->params_path     ? "file"
               : o->random_params ? "random"
                                  : "test",
               verified ? "true" : "false", threads, o->witness_cache ? "cache" : "circuit",
               env->api ? "prover" : "engine");
        if (o->synth_workers)
            printf("%zu}\n", o->synth_workers);
        else
            printf("null}\n");
        return;
    }
    printf("W=%u: %.3f s/job, %.3f s/partition, %.1f partitions/min, device efficiency %.1f%% "
           "(dispatch-level %.1f%%), device region %.1f ms/partition, %zu overlap violations, "
           "peak RSS %.1f MiB, %.2fx vs W=%u; %s\n",
           r->w, r->s_per_job, r->s_per_partition, r->partitions_per_min, 100 * r->efficiency,
           100 * r->dispatch_efficiency, r->region_ms, r->overlaps, (double)r->peak_rss / 1048576.0,
           gain, base->w,
           verified ? "all proofs verified" : "timing only: random params, proofs not verified");
    if (r->ndev > 1) {
        printf("  device efficiency per device:");
        for (size_t d = 0; d < r->ndev; d++)
            printf("%s device %d %.1f%%", d ? "," : "", (int)r->device_id[d],
                   100 * r->device_eff[d]);
        printf("\n");
    }
}

/* A private directory for the params file and the timelines (removed by tmp_remove). */
static int tmp_make(cz_ctx_t *ctx, pipe_env *env)
{
    const char *base = getenv("TMPDIR");
    snprintf(env->tmp, sizeof env->tmp, "%s/cuzk-bench.XXXXXX",
             base && *base && strlen(base) < 40 ? base : "/tmp");
    if (!mkdtemp(env->tmp)) {
        env->tmp[0] = '\0';
        return cz_fail(ctx, CZ_EIO, "cannot make a temporary directory under %s",
                       base && *base ? base : "/tmp");
    }
    return CZ_OK;
}

static void tmp_remove(pipe_env *env)
{
    if (!*env->tmp)
        return;
    char path[128];
    snprintf(path, sizeof path, "%s/bench.params", env->tmp);
    unlink(path);
    rmdir(env->tmp);
}

int cz_bench_pipeline(int argc, char **argv)
{
    pipe_opts o;
    int p = cz_opts_parse(&PIPE_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, (unsigned)o.threads))
        return CZ_EXIT_FAIL;
    cz_circuit_t circuit;
    pipe_env env = { .circuit = &circuit };
#ifdef CUZK_HAVE_JANSSON
    env.api = !o.witness_cache; /* what the API offers (header) */
#endif
    size_t rows = 0, ni = 0, na = 0, pc[3] = { 0 };
    int rc = resolve_devices(ctx, &o);
    if (rc == CZ_OK)
        rc = tmp_make(ctx, &env);
    if (rc == CZ_OK)
        rc = cz_circuit_parse(ctx, o.circuit, &circuit);
    if (rc == CZ_OK)
        rc = cz_circuit_shape(ctx, &circuit, &rows, &ni, &na, pc);
    size_t m = 1;
    while (m < rows)
        m <<= 1;
    /* what cz_g16_partition_new checks each witness against (cz_g16_shape_of) */
    cz_params_shape_t shape = { .num_inputs = ni,
                                .num_aux = na,
                                .domain_size = m,
                                .a_aux_popcount = pc[CZ_DENSITY_A_AUX],
                                .b_input_popcount = pc[CZ_DENSITY_B_INPUT],
                                .b_aux_popcount = pc[CZ_DENSITY_B_AUX] };
    if (rc == CZ_OK)
        rc = make_params(ctx, &o, &shape, &env, &env.params_s);
    if (rc == CZ_OK && env.params && !o.random_params)
        rc = cz_pvk_new(ctx, &env.pvk, &env.params->vk);
    cz_engine_estimate(&shape, rows, &env.part_bytes, &env.abc_bytes);
    env.margin = cz_engine_margin_for(env.params_bytes);

    cz_cs_witness_t cache = { 0 };
    double cache_s = 0;
    if (rc == CZ_OK && o.witness_cache) {
        double t0 = cz_bench_now();
        rc = cz_circuit_witness(ctx, &circuit, 1, &cache);
        cache_s = cz_bench_now() - t0;
        env.cache = &cache;
    }

    run_result res[MAX_W];
    if (rc == CZ_OK && !o.json) {
        if (o.random_params && !env.api)
            print_random(&env, m, na);
        printf("devices %s:%zu, %zu jobs x %zu partitions of %s, through the %s\n", o.kind,
               o.devices, o.jobs, o.partitions, o.circuit,
               env.api ? "prover (public API)" : "engine");
        if (o.witness_cache)
            printf("synthesis: witness cache (one synthesis, copied per partition; measures the "
                   "device pipeline, not synthesis); synthesized in %.2f s\n",
                   cache_s);
        else
            printf("synthesis: circuit (every partition synthesized)\n");
        if (o.synth_workers)
            printf("synth workers: %zu\n", o.synth_workers);
    }
    bool verified = (env.api && !o.random_params) || env.pvk;
    for (size_t i = 0; rc == CZ_OK && i < o.nw; i++) {
        rc = run_once(ctx, &o, &env, o.w[i], i + 1 == o.nw, &res[i]);
        if (rc)
            break;
        if (i == 0 && o.random_params && env.api && !o.json) /* made in the first run */
            print_random(&env, m, na);
        print_result(&o, &env, &res[i], &res[0], verified, cz_pool_width(cz_ctx_pool(ctx)));
        if (res[i].overlaps)
            rc = CZ_EINTERNAL;
    }
    if (rc)
        fprintf(stderr, "cuzk bench pipeline: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    cz_cs_witness_free(&cache);
    cz_pvk_free(env.pvk);
    cz_params_free(env.params);
    tmp_remove(&env);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}
