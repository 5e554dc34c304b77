/*
 * bench/bench_pipeline.c — `cuzk bench pipeline`: the whole proving
 * pipeline in process, once per workers-per-device count, on the same jobs,
 * through the public API (cuzk.h) alone, as any program would prove them.
 *
 * The baseline is the first count in the list (normally W = 1), run in the
 * same process on the same inputs; the claim is the ratio.
 *
 * One driver, the prover: per run a prover (cz_prover_new with the run's
 * workers per device and timeline_capture), J submits of the "circuit"
 * kind ({"circuit", "partitions", "seed": job + 1}), cz_prover_wait for
 * each. With real params (seeded test params made here by
 * cz_setup_test_params, or --params FILE) every proof is verified by the
 * prover (a job that fails verification fails the bench); the params are
 * preloaded before the clock starts, so the figures exclude their load.
 * With --random-params (TIMING ONLY) the jobs are timing jobs
 * (cz_prover_submit_timing): the prover makes random points of the
 * circuit's shape (seed 1; seconds where a real setup of bench:130278869,
 * a 32GiB PoRep partition, takes hours) when the first starts, the other
 * jobs share them, nothing is verified, and the clock starts once the
 * first job is in the engine (its params made). The shape printed with
 * them is the first job's (cz_prover_job_shape).
 *
 * --witness-cache adds "witness": "copy" to the jobs' fields: the circuit
 * kind synthesizes ONE witness per job (partition 0's), by the first
 * partition to reach synthesis, inside the timed run, and gives every
 * partition a deep copy of it (the copy, honest CPU work, stays on the
 * timeline's synthesis stage), so a circuit whose synthesis outlasts the
 * device region (bench:130278869 on a 16-core host) no longer hides the
 * dual-worker interlock. JSON "synthesis":"cache" (else "circuit"). The
 * copies' proofs verify with real params.
 * --synth-workers N sets the prover's synthesis workers.
 *
 * The figures come from each run's own timeline, captured by its prover
 * and analysed there: cz_prover_timeline_summary (the least efficient
 * device, dispatch efficiency, the mean device region, overlap
 * violations, the SVG of the last run) and cz_prover_timeline_devices
 * (each device's efficiency, at most MAX_DEVICES of them reported).
 * --timeline LOG also writes the last run's log as it runs. The prover's
 * memory margin is its own (it counts the params it holds); the threads
 * and devices reported are the prover's (cz_prover_info).
 *
 * Devices: --devices cpu[:N] (N emulated CPU devices sharing the threads,
 * for the engine's multi-device paths) or cuda[:N|:all] (the first N
 * usable GPUs; cuda = cuda:all); the prover checks the count (an unusable
 * backend or more GPUs than the machine has fail before any params are
 * made: the first run's prover is made first). The JSON "devices" field
 * names what ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "cuzk.h"

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
      .help = "one witness per job, synthesized in the run, deep-copied per partition" },
    { "synth-workers", 0, CZ_O_SIZE(pipe_opts, synth_workers), .min = 1, .max = 256, .arg = "N",
      .help = "the prover's synthesis workers (default: the prover's)" },
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
             "  prover, the public API) and reports s/job,\n"
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
             "  --witness-cache: each job synthesizes ONE witness (its partition 0's), once,\n"
             "  by the first partition to reach synthesis, INSIDE the timed run, and every\n"
             "  partition proves a deep copy of it (the copy is timed as synthesis), so the\n"
             "  figures measure the device pipeline, not synthesis (the circuit kind's\n"
             "  \"witness\":\"copy\"; JSON \"synthesis\":\"cache\", else \"circuit\").\n"
             "  Proofs from the copies verify.\n",
    CZ_OPTS(PIPE_OPTS),
    CZ_RULES(PIPE_RULES),
};

/* What every run shares: the params file, the temporary directory, what the runs learn. */
typedef struct {
    char tmp[64];           /* "" until made */
    char params_file[4096]; /* the params file the prover loads ("" with --random-params) */
    double params_s;        /* --random-params: making them (the first run's) */
    size_t params_bytes;    /* their size */
    size_t domain, aux;     /* the circuit's shape (the first job's) */
} pipe_env;

typedef struct {
    unsigned w;
    double wall_s, s_per_job, s_per_partition, partitions_per_min;
    double efficiency, dispatch_efficiency; /* of the least efficient device */
    double device_eff[MAX_DEVICES];         /* per device of the timeline, in its order */
    int32_t device_id[MAX_DEVICES];
    size_t ndev;
    double region_ms; /* mean device region (lock held) per partition */
    size_t overlaps, peak_rss;
    size_t devices;   /* the prover's (cz_prover_info) */
    unsigned threads; /* its pool's width */
} run_result;

/* Reset the kernel's peak-RSS mark so each run reports its own (Linux). */
static void reset_peak_rss(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

/* A prover for a run at W workers per device; the last run writes --timeline. */
static int new_prover(const pipe_opts *o, unsigned w, bool last, cz_prover_t **p, cz_error_t *err)
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
    pc.timeline = last ? o->timeline_path : NULL;
    pc.timeline_capture = true; /* the run's figures (cz_prover_timeline_summary) */
    pc.cuda_device_mem_limit = o->device_mem_limit;
    pc.cuda_max_batch = (unsigned)o->batch;
    return cz_prover_new(p, &pc, err);
}

/*
 * --random-params: the clock starts when the first job enters the engine
 * (cz_job_info_t.started, seen within 10 ms): its random params, which the
 * prover makes when it starts and the other jobs share, are made before,
 * as they were before the clock when the bench made them. |env| receives
 * their making, size and shape. CZ_OK or the job's error in |err|.
 */
static int wait_started(cz_prover_t *p, uint64_t id, double *t0, pipe_env *env, cz_error_t *err)
{
    cz_job_info_t info;
    memset(&info, 0, sizeof info);
    int rc;
    while ((rc = cz_prover_status(p, id, &info, err)) == CZ_OK && !info.started &&
           info.state < CZ_JOB_DONE)
        if ((rc = cz_prover_wait(p, id, 0.01, NULL, err)) != CZ_EBUSY && rc != CZ_OK)
            return rc;
    *t0 = cz_bench_now();
    env->params_s = info.t.params_load / 1e3;
    cz_job_shape_t shape;
    if (rc == CZ_OK && (rc = cz_prover_job_shape(p, id, &shape, err)) == CZ_OK) {
        env->params_bytes = shape.params_bytes;
        env->domain = shape.domain_size;
        env->aux = shape.num_aux;
    }
    return rc;
}

/* The run's figures from its prover's captured timeline (the SVG of the last run). */
static int timeline_figures(cz_prover_t *p, const char *svg, run_result *res, cz_error_t *err)
{
    cz_timeline_summary_t sum;
    int rc = cz_prover_timeline_summary(p, svg, &sum, err);
    if (rc != CZ_OK)
        return rc;
    res->efficiency = sum.device_efficiency;
    res->dispatch_efficiency = sum.dispatch_efficiency;
    res->region_ms = sum.device_regions ? sum.device_held_ms / (double)sum.device_regions : 0;
    res->overlaps = sum.overlap_violations;
    cz_timeline_device_t dv[MAX_DEVICES];
    size_t n = 0;
    rc = cz_prover_timeline_devices(p, dv, MAX_DEVICES, &n, err);
    res->ndev = n < MAX_DEVICES ? n : MAX_DEVICES;
    for (size_t d = 0; rc == CZ_OK && d < res->ndev; d++) {
        res->device_id[d] = dv[d].device;
        res->device_eff[d] = dv[d].efficiency;
    }
    return rc;
}

/*
 * The jobs through prover |p| (made for this run; freed here), at W workers
 * per device: the params preloaded before the clock starts, or, with
 * --random-params, made by the prover for the first timing job and shared
 * by the others (the clock starts once they are: wait_started). The
 * figures into |res|.
 */
static int drive(const pipe_opts *o, pipe_env *env, cz_prover_t *p, bool last, run_result *res,
                 cz_error_t *err)
{
    cz_prover_info_t info;
    cz_prover_info(p, &info);
    res->devices = info.devices;
    res->threads = info.threads;
    int rc = CZ_OK;
    if (!o->random_params)
        rc = cz_prover_params_preload(p, env->params_file, NULL, err);
    uint64_t *ids = calloc(o->jobs, sizeof *ids);
    if (rc == CZ_OK && !ids) {
        rc = CZ_ENOMEM;
        snprintf(err->message, sizeof err->message, "jobs");
    }
    reset_peak_rss();
    double t0 = cz_bench_now();
    for (size_t i = 0; rc == CZ_OK && i < o->jobs; i++) {
        char fields[256];
        snprintf(fields, sizeof fields, "{\"circuit\":\"%s\",\"partitions\":%zu,\"seed\":%zu%s}",
                 o->circuit, o->partitions, i + 1, o->witness_cache ? ",\"witness\":\"copy\"" : "");
        if (o->random_params) { /* TIMING ONLY: random points, seed 1, shared */
            cz_timing_request_t treq;
            cz_timing_request_init(&treq, "circuit");
            treq.fields = fields;
            treq.seed = 1;
            rc = cz_prover_submit_timing(p, &treq, &ids[i], err);
        } else {
            cz_job_request_t req;
            cz_job_request_init(&req, "circuit", NULL, 0);
            req.fields = fields;
            req.params = env->params_file;
            rc = cz_prover_submit(p, &req, &ids[i], err);
        }
    }
    if (rc == CZ_OK && o->random_params)
        rc = wait_started(p, ids[0], &t0, env, err);
    for (size_t i = 0; rc == CZ_OK && i < o->jobs; i++) {
        cz_job_info_t ji;
        rc = cz_prover_wait(p, ids[i], -1, &ji, err);
        if (rc == CZ_OK && ji.state != CZ_JOB_DONE) {
            rc = ji.error ? ji.error : CZ_EVERIFY;
            snprintf(err->message, sizeof err->message, "job %zu %s: %s", i,
                     cz_job_state_name(ji.state), ji.message);
        }
    }
    double wall = cz_bench_now() - t0;
    res->wall_s = wall;
    res->s_per_job = wall / (double)o->jobs;
    res->s_per_partition = wall / (double)(o->jobs * o->partitions);
    res->partitions_per_min = 60.0 * (double)(o->jobs * o->partitions) / wall;
    res->peak_rss = cz_cli_peak_rss();
    if (rc == CZ_OK)
        rc = timeline_figures(p, last ? o->svg_path : NULL, res, err);
    cz_prover_free(p); /* flushes --timeline */
    free(ids);
    return rc;
}

/* A private directory for the params and vk files (removed by tmp_remove). */
static int tmp_make(pipe_env *env, cz_error_t *err)
{
    const char *base = getenv("TMPDIR");
    snprintf(env->tmp, sizeof env->tmp, "%s/cuzk-bench.XXXXXX",
             base && *base && strlen(base) < 40 ? base : "/tmp");
    if (!mkdtemp(env->tmp)) {
        env->tmp[0] = '\0';
        snprintf(err->message, sizeof err->message, "cannot make a temporary directory under %s",
                 base && *base ? base : "/tmp");
        return CZ_EIO;
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
    snprintf(path, sizeof path, "%s/bench.vk", env->tmp);
    unlink(path);
    rmdir(env->tmp);
}

/* The params the prover loads: the file, or seeded test params made in the temporary
 * directory; none with --random-params (the prover makes them in the first run). */
static int make_params(const pipe_opts *o, pipe_env *env, cz_error_t *err)
{
    struct stat st;
    if (o->params_path) {
        if (!realpath(o->params_path, env->params_file) || stat(env->params_file, &st)) {
            snprintf(err->message, sizeof err->message, "--params %s: not found", o->params_path);
            return CZ_ENOTFOUND;
        }
        return CZ_OK;
    }
    if (o->random_params)
        return CZ_OK;
    char vk[128];
    snprintf(env->params_file, sizeof env->params_file, "%s/bench.params", env->tmp);
    snprintf(vk, sizeof vk, "%s/bench.vk", env->tmp);
    if (!o->json)
        printf("generating test parameters for %s (seeded; tests only)...\n", o->circuit);
    cz_setup_request_t req;
    cz_setup_request_init(&req);
    req.circuit = o->circuit;
    req.params_path = env->params_file;
    req.vk_path = vk;
    req.seeded = true;
    req.seed = 1;
    req.threads = (unsigned)o->threads;
    return cz_setup_test_params(&req, NULL, err);
}

/* The random params' line (their making and size, the first run's; the first job's shape). */
static void print_random(const pipe_env *env)
{
    char buf[32];
    printf("random params: %.1f s, %s (domain %zu, %zu aux)\n", env->params_s,
           cz_bench_fmt_bytes(buf, sizeof buf, env->params_bytes), env->domain, env->aux);
}

static void print_result(const pipe_opts *o, const run_result *r, const run_result *base)
{
    bool verified = !o->random_params;
    double gain = base->s_per_job / r->s_per_job;
    if (o->json) {
        printf("{\"bench\":\"pipeline\",\"circuit\":\"%s\",\"devices\":\"%s:%zu\","
               "\"jobs\":%zu,\"partitions\":%zu,\"workers_per_device\":%u,\"s_per_job\":%.3f,"
               "\"s_per_partition\":%.3f,\"partitions_per_min\":%.1f,\"device_efficiency\":%.4f,"
               "\"dispatch_efficiency\":%.4f,\"device_efficiencies\":[",
               o->circuit, o->kind, r->devices, o->jobs, o->partitions, r->w, r->s_per_job,
               r->s_per_partition, r->partitions_per_min, r->efficiency, r->dispatch_efficiency);
        for (size_t d = 0; d < r->ndev; d++)
            printf("%s%.4f", d ? "," : "", r->device_eff[d]);
        printf("],\"device_region_ms\":%.2f,\"overlap_violations\":%zu,\"peak_rss_bytes\":%zu,"
               "\"gain_vs_first\":%.3f,\"params\":\"%s\",\"verified\":%s,\"threads\":%u,"
               "\"synthesis\":\"%s\",\"driver\":\"prover\",\"synth_workers\":",
               r->region_ms, r->overlaps, r->peak_rss, gain,
               o->params_path     ? "file"
               : o->random_params ? "random"
                                  : "test",
               verified ? "true" : "false", r->threads, o->witness_cache ? "cache" : "circuit");
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

/* The header before the first run (the first prover's devices). */
static void print_header(const pipe_opts *o, cz_prover_t *p)
{
    cz_prover_info_t info;
    cz_prover_info(p, &info);
    printf("devices %s:%zu, %zu jobs x %zu partitions of %s, through the prover (public API)\n",
           o->kind, info.devices, o->jobs, o->partitions, o->circuit);
    if (o->witness_cache)
        printf("synthesis: witness cache (one synthesis per job, by its first partition, in the "
               "timed run; copied per partition: measures the device pipeline, not synthesis)\n");
    else
        printf("synthesis: circuit (every partition synthesized)\n");
    if (o->synth_workers)
        printf("synth workers: %zu\n", o->synth_workers);
}

static int run(const pipe_opts *o, cz_error_t *err)
{
    for (const char *c = o->circuit; *c; c++)
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) {
            snprintf(err->message, sizeof err->message, "--circuit: '%s' is not a circuit id",
                     o->circuit);
            return CZ_EINVAL;
        }
    pipe_env env;
    memset(&env, 0, sizeof env);
    /* the first run's prover first: an unusable backend fails before any params are made */
    cz_prover_t *p = NULL;
    int rc = new_prover(o, o->w[0], o->nw == 1, &p, err);
    if (rc == CZ_OK)
        rc = tmp_make(&env, err);
    if (rc == CZ_OK)
        rc = make_params(o, &env, err);
    if (rc == CZ_OK && !o->json)
        print_header(o, p);
    run_result res[MAX_W];
    memset(res, 0, sizeof res);
    for (size_t i = 0; rc == CZ_OK && i < o->nw; i++) {
        bool last = i + 1 == o->nw;
        if (!p)
            rc = new_prover(o, o->w[i], last, &p, err);
        res[i].w = o->w[i];
        if (rc == CZ_OK)
            rc = drive(o, &env, p, last, &res[i], err);
        p = NULL; /* drive freed it */
        if (rc != CZ_OK)
            break;
        if (i == 0 && o->random_params && !o->json) /* made in the first run */
            print_random(&env);
        print_result(o, &res[i], &res[0]);
        fflush(stdout);
        if (res[i].overlaps) {
            rc = CZ_EINTERNAL;
            snprintf(err->message, sizeof err->message,
                     "%zu overlap violations at W=%u: two regions held one device at once (a bug)",
                     res[i].overlaps, res[i].w);
        }
    }
    cz_prover_free(p);
    tmp_remove(&env);
    return rc;
}

int cz_bench_pipeline(int argc, char **argv)
{
    pipe_opts o;
    int rc = cz_opts_parse(&PIPE_SPEC, &o, argc, argv, NULL);
    if (rc != CZ_OPTS_RUN)
        return rc;
    cz_error_t err;
    memset(&err, 0, sizeof err);
    rc = run(&o, &err);
    if (rc != CZ_OK)
        fprintf(stderr, "cuzk bench pipeline: %s\n", *err.message ? err.message : cz_strerror(rc));
    return rc == CZ_OK ? CZ_EXIT_OK : CZ_EXIT_FAIL;
}
