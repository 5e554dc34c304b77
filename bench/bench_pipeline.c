/*
 * bench/bench_pipeline.c — `cuzk bench pipeline`: the whole engine in
 * process, once per workers-per-device count, on the same jobs.
 *
 * The baseline is the first count in the list (normally W = 1), run in the
 * same process on the same inputs; the claim is the ratio. Device
 * efficiency and overlap violations come from the run's own timeline,
 * analysed in process (engine/analyze.h); every proof is verified by the
 * engine (a job whose proof fails verification fails the bench).
 *
 * Devices: --devices cpu[:N] (N emulated CPU devices sharing the pool, for
 * the engine's multi-device paths) or cuda[:N|:all] (the first N usable
 * GPUs; cuda = cuda:all), at most MAX_DEVICES; the backends come from the
 * factory (backend.h) and the JSON "devices" field names what ran.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "circuits/registry.h"
#include "cli/cli.h"
#include "engine/analyze.h"
#include "engine/engine.h"
#include "engine/svg.h"
#include "groth16/setup.h"

#define MAX_W 8
#define MAX_DEVICES 16

typedef struct {
    const char *circuit, *params_path, *timeline_path, *svg_path;
    const char *kind;          /* "cpu" or "cuda" */
    size_t devices;            /* 0: all of the kind (cuda, cuda:all); resolved in main */
    size_t jobs, partitions, threads;
    unsigned w[MAX_W];
    size_t nw;
    int json;
} pipe_opts;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk bench pipeline --circuit bench:N [--jobs J] [--partitions P]\n"
            "         [--workers-per-device 1,2] [--devices cpu|cpu:N|cuda|cuda:N|cuda:all]\n"
            "         [--params FILE] [--threads T] [--timeline LOG] [--svg OUT.svg] [--json]\n"
            "  Runs J jobs of P partitions through the engine once per workers-per-device\n"
            "  count and reports s/job, partitions/min, device efficiency, overlap\n"
            "  violations and peak RSS; the first count is the baseline of the ratio.\n"
            "  Without --params, test parameters are generated in process (seeded).\n"
            "  --devices: cpu (default; cpu:N = N emulated CPU devices sharing the\n"
            "  threads) or cuda (every usable GPU; cuda:N = the first N), at most %d.\n"
            "  --timeline/--svg keep the log / Gantt chart of the last run.\n",
            MAX_DEVICES);
}

/* cpu, cpu:N, cuda, cuda:N, cuda:all -> kind + count (0 = all); false on junk. */
static bool parse_devices(const char *s, pipe_opts *o)
{
    const char *colon = strchr(s, ':');
    size_t kl = colon ? (size_t)(colon - s) : strlen(s);
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

static bool parse_w_list(const char *s, pipe_opts *o)
{
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

static int parse(int argc, char **argv, pipe_opts *o)
{
    static const struct option longopts[] = {
        { "circuit", required_argument, 0, 'c' }, { "jobs", required_argument, 0, 'j' },
        { "partitions", required_argument, 0, 'p' }, { "workers-per-device", required_argument, 0, 'w' },
        { "devices", required_argument, 0, 'd' },  { "params", required_argument, 0, 'P' },
        { "threads", required_argument, 0, 't' },  { "timeline", required_argument, 0, 'l' },
        { "svg", required_argument, 0, 's' },      { "json", no_argument, 0, 'J' },
        { "help", no_argument, 0, 'h' },           { 0, 0, 0, 0 },
    };
    *o = (pipe_opts){ .circuit = "bench:16384", .kind = "cpu", .jobs = 3, .partitions = 4,
                      .devices = 1, .w = { 1, 2 }, .nw = 2 };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'c': o->circuit = optarg; break;
        case 'j': if (!cz_cli_parse_size(optarg, &o->jobs) || !o->jobs) return -1; break;
        case 'p': if (!cz_cli_parse_size(optarg, &o->partitions) || !o->partitions) return -1; break;
        case 'w': if (!parse_w_list(optarg, o)) return -1; break;
        case 'd':
            if (!parse_devices(optarg, o)) {
                fprintf(stderr, "cuzk bench pipeline: --devices %s: want cpu, cpu:N, cuda, cuda:N "
                                "or cuda:all (N = 1..%d)\n", optarg, MAX_DEVICES);
                return -1;
            }
            break;
        case 'P': o->params_path = optarg; break;
        case 't': if (!cz_cli_parse_size(optarg, &o->threads)) return -1; break;
        case 'l': o->timeline_path = optarg; break;
        case 's': o->svg_path = optarg; break;
        case 'J': o->json = 1; break;
        case 'h': usage(stdout); return 1;
        default: return -1;
        }
    }
    return optind == argc ? 0 : -1;
}

typedef struct {
    const cz_circuit_t *circuit;
    uint64_t job_seed;
} pipe_job;

static int synth(void *arg, size_t partition, cz_ctx_t *ctx, cz_cs_witness_t *out)
{
    const pipe_job *j = arg;
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

static size_t peak_rss(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %zu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb ? kb * 1024 : cz_bench_peak_rss();
}

typedef struct {
    unsigned w;
    double wall_s, s_per_job, partitions_per_min, efficiency, dispatch_efficiency;
    size_t overlaps, peak_rss;
    int ok;
} run_result;

static int run_once(cz_ctx_t *ctx, const pipe_opts *o, const cz_circuit_t *circuit,
                    const cz_params_t *params, const cz_pvk_t *pvk, size_t part_bytes,
                    size_t abc_bytes, unsigned w, bool last, run_result *res)
{
    cz_backend_t *be[MAX_DEVICES] = { 0 };
    cz_timeline_t *tl = NULL;
    cz_engine_t *e = NULL;
    int rc = CZ_OK;
    for (size_t d = 0; rc == CZ_OK && d < o->devices; d++)
        rc = cz_backend_new(ctx, &be[d], o->kind, (int)d);
    if (rc == CZ_OK)
        rc = last && o->timeline_path ? cz_tl_open(ctx, &tl, o->timeline_path, 1)
                                      : cz_tl_new(&tl, NULL, 1);
    cz_engine_config_t cfg = { .backends = be, .num_devices = o->devices,
                               .workers_per_device = w, .pool = cz_ctx_pool(ctx), .timeline = tl };
    if (rc == CZ_OK)
        rc = cz_engine_new(ctx, &e, &cfg);
    pipe_job *jobs = calloc(o->jobs, sizeof *jobs);
    uint64_t *ids = calloc(o->jobs, sizeof *ids);
    if (rc == CZ_OK && (!jobs || !ids))
        rc = cz_fail(ctx, CZ_ENOMEM, "jobs");
    reset_peak_rss();
    double t0 = cz_bench_now();
    for (size_t i = 0; rc == CZ_OK && i < o->jobs; i++) {
        jobs[i] = (pipe_job){ circuit, i + 1 };
        cz_job_spec_t spec = { .partitions = o->partitions, .params = params, .pvk = pvk,
                               .partition_bytes = part_bytes, .abc_bytes = abc_bytes,
                               .synthesize = synth, .arg = &jobs[i] };
        rc = cz_engine_submit(e, &spec, &ids[i]);
        if (rc)
            cz_fail(ctx, rc, "submit failed");
    }
    res->ok = 1;
    for (size_t i = 0; rc == CZ_OK && i < o->jobs; i++) {
        cz_job_info_t info;
        rc = cz_engine_wait(e, ids[i], -1, &info);
        if (rc == CZ_OK && info.state != CZ_JOB_DONE) {
            rc = cz_fail(ctx, CZ_EVERIFY, "job %zu %s: %s", i, cz_job_state_name(info.state),
                         info.message);
            res->ok = 0;
        }
    }
    double wall = cz_bench_now() - t0;
    res->w = w;
    res->wall_s = wall;
    res->s_per_job = wall / (double)o->jobs;
    res->partitions_per_min = 60.0 * (double)(o->jobs * o->partitions) / wall;
    res->peak_rss = peak_rss();
    cz_engine_free(e);
    for (size_t d = 0; d < o->devices; d++)
        cz_backend_free(be[d]);
    free(jobs);
    free(ids);
    if (rc == CZ_OK) {
        size_t len;
        char *log = cz_tl_captured(tl, &len);
        cz_timeline_report_t *rep = NULL;
        rc = log ? cz_timeline_analyze_buf(ctx, log, len, &rep) : cz_fail(ctx, CZ_ENOMEM, "timeline");
        if (rc == CZ_OK) {
            /* the figure of the least efficient device */
            res->efficiency = 1.0;
            res->dispatch_efficiency = 1.0;
            for (size_t d = 0; d < cz_timeline_ndevices(rep); d++) {
                const cz_tl_device_t *dv = cz_timeline_device(rep, d);
                if (dv->efficiency < res->efficiency)
                    res->efficiency = dv->efficiency;
                if (dv->dispatch_efficiency >= 0 && dv->dispatch_efficiency < res->dispatch_efficiency)
                    res->dispatch_efficiency = dv->dispatch_efficiency;
            }
            res->overlaps = cz_timeline_noverlaps(rep);
            if (last && o->svg_path)
                rc = cz_timeline_svg_file(ctx, rep, NULL, o->svg_path, NULL);
        }
        cz_timeline_report_free(rep);
        free(log);
    }
    cz_tl_free(tl);
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
        return rc;   /* cpu:N: emulated devices, any N up to MAX_DEVICES */
    if (o->devices > have)
        return cz_fail(ctx, CZ_ERANGE, "--devices cuda:%zu: this machine has %zu usable CUDA "
                       "device%s", o->devices, have, have == 1 ? "" : "s");
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

int cz_bench_pipeline(int argc, char **argv)
{
    pipe_opts o;
    int p = parse(argc, argv, &o);
    if (p)
        return p > 0 ? CZ_EXIT_OK : (usage(stderr), CZ_EXIT_USAGE);
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, (unsigned)o.threads))
        return CZ_EXIT_FAIL;
    cz_circuit_t circuit;
    cz_params_t *params = NULL;
    cz_pvk_t *pvk = NULL;
    size_t rows, ni, na, pc[3];
    int rc = resolve_devices(ctx, &o);
    if (rc == CZ_OK)
        rc = cz_circuit_parse(ctx, o.circuit, &circuit);
    if (rc == CZ_OK)
        rc = cz_circuit_shape(ctx, &circuit, &rows, &ni, &na, pc);
    size_t m = 1;
    while (m < rows)
        m <<= 1;
    cz_params_shape_t shape = { ni, na, m, pc[0], pc[1], pc[2] };
    if (rc == CZ_OK && o.params_path) {
        cz_params_opts_t popts = { .expect = &shape };
        rc = cz_params_load(ctx, &params, o.params_path, &popts);
    } else if (rc == CZ_OK) {
        cz_setup_toxic_t toxic;
        cz_setup_toxic_from_seed(&toxic, 1);
        if (!o.json)
            printf("generating test parameters for %s (seeded; tests only)...\n", o.circuit);
        rc = cz_setup(ctx, &params, cz_circuit_body, &circuit, &toxic, NULL);
        cz_setup_toxic_scrub(&toxic);
    }
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &pvk, &params->vk);
    size_t part_bytes = 0, abc_bytes = 0;
    cz_engine_estimate(&shape, rows, &part_bytes, &abc_bytes);

    run_result res[MAX_W];
    if (rc == CZ_OK && !o.json)
        printf("devices %s:%zu, %zu jobs x %zu partitions of %s\n", o.kind, o.devices, o.jobs,
               o.partitions, o.circuit);
    for (size_t i = 0; rc == CZ_OK && i < o.nw; i++) {
        rc = run_once(ctx, &o, &circuit, params, pvk, part_bytes, abc_bytes, o.w[i],
                      i + 1 == o.nw, &res[i]);
        if (rc)
            break;
        double gain = res[0].s_per_job / res[i].s_per_job;
        if (o.json)
            printf("{\"bench\":\"pipeline\",\"circuit\":\"%s\",\"devices\":\"%s:%zu\","
                   "\"jobs\":%zu,\"partitions\":%zu,\"workers_per_device\":%u,\"s_per_job\":%.3f,"
                   "\"partitions_per_min\":%.1f,\"device_efficiency\":%.4f,"
                   "\"dispatch_efficiency\":%.4f,\"overlap_violations\":%zu,\"peak_rss_bytes\":%zu,"
                   "\"gain_vs_first\":%.3f,\"verified\":true,\"threads\":%u}\n",
                   o.circuit, o.kind, o.devices, o.jobs, o.partitions, res[i].w, res[i].s_per_job,
                   res[i].partitions_per_min, res[i].efficiency, res[i].dispatch_efficiency,
                   res[i].overlaps, res[i].peak_rss, gain, cz_pool_width(cz_ctx_pool(ctx)));
        else
            printf("W=%u: %.3f s/job, %.1f partitions/min, device efficiency %.1f%% "
                   "(dispatch-level %.1f%%), %zu overlap violations, peak RSS %.1f MiB, "
                   "%.2fx vs W=%u; all proofs verified\n",
                   res[i].w, res[i].s_per_job, res[i].partitions_per_min, 100 * res[i].efficiency,
                   100 * res[i].dispatch_efficiency, res[i].overlaps,
                   (double)res[i].peak_rss / 1048576.0, gain, res[0].w);
        if (res[i].overlaps)
            rc = CZ_EINTERNAL;
    }
    if (rc)
        fprintf(stderr, "cuzk bench pipeline: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    cz_pvk_free(pvk);
    cz_params_free(params);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}
