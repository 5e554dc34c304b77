/*
 * bench/bench_mixed.c — `cuzk bench mixed`: a proof of another kind (a
 * WindowPoSt partition by default) submitted while a PoRep C2 backlog
 * proves on the same device (issue "every GPU", item 5: kinds served by
 * one device without whole-set re-uploads between them).
 *
 * TIMING ONLY, through the public API alone (cuzk.h: a prover and
 * cz_prover_submit_timing; random params, nothing verified). Two phases
 * in one prover, so the baseline is of the same run:
 *   alone  the other kind's job by itself: submit to done;
 *   mixed  N porep-c2 jobs of the C1, then, --after S seconds later, the
 *          other kind's job: its submit to done (the figure asked for) and
 *          the PoRep jobs' s/proof.
 * A job's submit to done leaves out the making of its random params
 * (cz_job_timings_t.params_load), which a real job's cached params do not
 * cost. The params bytes copied to the device during each job come from
 * cz_prover_device_memory; the peak RSS from /proc.
 */
#include "bench/bench.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/prove_job.h"
#include "cuzk.h"

typedef struct {
    const char *c1_path, *kind, *backend;
    uint64_t sector_size, seed;
    size_t porep_jobs, workers, device, device_mem_limit, batch, memory_budget, priority;
    double after;
    bool no_alone;
} mixed_opts;

static const char *const OTHER_KINDS[] = { "window-post", "winning-post", "snap", NULL };

static const cz_opt MIXED_OPTS[] = {
    { "c1", 0, CZ_O_STRING(mixed_opts, c1_path), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the PoRep C1 JSON of the backlog's jobs" },
    { "porep-jobs", 0, CZ_O_SIZE(mixed_opts, porep_jobs), .min = 1, .max = 16, .def = "3",
      .arg = "N", .help = "porep-c2 jobs of the C1 submitted at once" },
    { "kind", 0, CZ_O_ENUM(mixed_opts, kind), .values = OTHER_KINDS, .def = "window-post",
      .help = "the kind submitted during the backlog (its random witness)" },
    CZ_OPT_SECTOR_SIZE(mixed_opts, sector_size, "that kind's sector size (default 32GiB)"),
    { "after", 0, CZ_O_DOUBLE(mixed_opts, after), .max = 3600, .def = "10", .arg = "S",
      .help = "seconds between the backlog's submission and the other job's" },
    { "priority", 0, CZ_O_SIZE(mixed_opts, priority), .min = 1, .max = 4, .def = "4",
      .help = "the other job's priority (1 low .. 4 critical; the backlog's is 2)" },
    { "no-alone", 0, CZ_O_FLAG(mixed_opts, no_alone),
      .help = "skip the phase that proves the other job alone first" },
    CZ_OPT_BACKEND(mixed_opts, backend, "auto"),
    CZ_OPT_DEVICE(mixed_opts, device),
    { "workers-per-device", 0, CZ_O_SIZE(mixed_opts, workers), .min = 1, .max = 16, .def = "2",
      .arg = "W", .help = "engine workers sharing the device" },
    { "device-mem-limit", 0, CZ_O_BYTES(mixed_opts, device_mem_limit), .def = "0",
      .help = "CUDA: device memory the plan may use (0: what is free)" },
    { "batch", 0, CZ_O_SIZE(mixed_opts, batch), .min = 0, .max = 4, .def = "0",
      .help = "CUDA: partitions one region takes where bases stream (0: 2; 1: none)" },
    { "memory-budget", 0, CZ_O_BYTES(mixed_opts, memory_budget), .def = "0",
      .help = "host memory for partitions in flight (0: physical memory less the margin)" },
    { "seed", 0, CZ_O_U64(mixed_opts, seed), .def = "1", .arg = "N",
      .help = "the random params' seed" },
};
static const cz_opts_spec MIXED_SPEC = {
    .cmd = "cuzk bench mixed",
    .usage = "usage: cuzk bench mixed --c1 FILE [--porep-jobs N] [--kind K] [--sector-size S]\n"
             "                        [--after S] [--priority P] [--no-alone] [--backend B]\n"
             "                        [--device N] [--workers-per-device W]\n"
             "                        [--device-mem-limit BYTES] [--batch K]\n"
             "                        [--memory-budget BYTES] [--seed N]\n",
    .about = "  TIMING ONLY (random params, nothing verified). Proves a job of kind K (a\n"
             "  WindowPoSt partition by default) alone, then again submitted S seconds into a\n"
             "  backlog of N porep-c2 jobs on the same device, and prints its submit-to-done\n"
             "  in both (its random params' making left out), the backlog's s/proof, the\n"
             "  params bytes copied to the device during each, and the peak RSS.\n",
    CZ_OPTS(MIXED_OPTS),
};

/* The params bytes copied to device 0 so far (0 for the CPU backend). */
static uint64_t h2d_now(cz_prover_t *p)
{
    cz_device_memory_t dm;
    return cz_prover_device_memory(p, 0, &dm) == CZ_OK ? dm.h2d_bytes : 0;
}

/* Submit a timing job; its submission time in *t0. */
static int submit(cz_prover_t *p, const cz_timing_request_t *req, uint64_t *id, double *t0)
{
    cz_error_t err;
    *t0 = cz_bench_now();
    int rc = cz_prover_submit_timing(p, req, id, &err);
    if (rc != CZ_OK)
        fprintf(stderr, "cuzk bench mixed: %s: %s\n", req->kind, err.message);
    return rc;
}

/* Wait for job |id|; *done_s: submit to done less its params' making. */
static int wait_job(cz_prover_t *p, uint64_t id, double t0, double *done_s, cz_job_info_t *info)
{
    cz_error_t err;
    int rc = cz_prover_wait(p, id, -1, info, &err);
    if (rc == CZ_OK && info->state != CZ_JOB_DONE) {
        fprintf(stderr, "cuzk bench mixed: job %" PRIu64 " ended %s: %s\n", id,
                cz_job_state_name(info->state), info->message);
        return CZ_EINTERNAL;
    }
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk bench mixed: job %" PRIu64 ": %s\n", id, err.message);
        return rc;
    }
    *done_s = cz_bench_now() - t0 - info->t.params_load / 1e3;
    return CZ_OK;
}

static void sleep_s(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* The other kind's job alone: its submit to done in *alone_s. */
static int phase_alone(cz_prover_t *p, const cz_timing_request_t *other, double *alone_s)
{
    uint64_t id, h0 = h2d_now(p);
    double t0;
    cz_job_info_t info;
    int rc = submit(p, other, &id, &t0);
    if (rc == CZ_OK)
        rc = wait_job(p, id, t0, alone_s, &info);
    if (rc == CZ_OK)
        printf("alone: %s submit to done %.2f s (%zu partition%s; random params %.2f s left "
               "out); params to the device %.2f GiB\n",
               other->kind, *alone_s, info.partitions, info.partitions == 1 ? "" : "s",
               info.t.params_load / 1e3, (double)(h2d_now(p) - h0) / (1 << 30));
    fflush(stdout);
    return rc;
}

/* The backlog, the other job |after| seconds into it, then the backlog's end. */
static int phase_mixed(cz_prover_t *p, const mixed_opts *o, const cz_timing_request_t *porep,
                       const cz_timing_request_t *other, double alone_s)
{
    uint64_t ids[16], oid;
    double t_sub[16], t_done[16], ot0, other_s = 0, first_s = 0, porep_s;
    const uint64_t h0 = h2d_now(p);
    size_t n = 0;
    int rc = CZ_OK;
    for (; n < o->porep_jobs && rc == CZ_OK; n++)
        rc = submit(p, porep, &ids[n], &t_sub[n]);
    if (rc != CZ_OK)
        return rc;
    sleep_s(o->after);
    cz_job_info_t info;
    uint64_t hb = h2d_now(p);
    if ((rc = submit(p, other, &oid, &ot0)) == CZ_OK)
        rc = wait_job(p, oid, ot0, &other_s, &info);
    if (rc == CZ_OK) {
        printf("mixed: %s submitted %.1f s into %zu porep-c2 jobs, priority %zu: submit to done "
               "%.2f s",
               other->kind, o->after, n, o->priority, other_s);
        if (alone_s > 0)
            printf(" (%.2fx alone)", other_s / alone_s);
        printf("; params to the device meanwhile %.2f GiB\n",
               (double)(h2d_now(p) - hb) / (1 << 30));
    }
    for (size_t k = 0; k < n && rc == CZ_OK; k++) {
        if ((rc = wait_job(p, ids[k], t_sub[k], &porep_s, &info)) == CZ_OK)
            t_done[k] = cz_bench_now();
        if (k == 0)
            first_s = porep_s;
    }
    if (rc == CZ_OK) {
        printf("mixed: porep-c2 first submit to done %.2f s", first_s);
        if (n > 1)
            printf(", steady %.2f s/proof ((last - first done) / %zu)",
                   (t_done[n - 1] - t_done[0]) / (double)(n - 1), n - 1);
        printf("; params to the device %.2f GiB in all\n", (double)(h2d_now(p) - h0) / (1 << 30));
    }
    return rc;
}

static int run(const mixed_opts *o, const uint8_t *c1, size_t c1_len)
{
    const cz_cli_prover_opts_t po = { .backend = o->backend,
                                      .device = o->device,
                                      .workers = o->workers,
                                      .device_mem_limit = o->device_mem_limit,
                                      .memory_budget = o->memory_budget,
                                      .max_batch = (unsigned)o->batch };
    cz_prover_config_t cfg;
    cz_cli_prover_config(&po, &cfg);
    cz_prover_t *p = NULL;
    cz_error_t err;
    int rc = cz_prover_new(&p, &cfg, &err);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk bench mixed: %s\n", err.message);
        return rc;
    }
    cz_prover_info_t pi;
    cz_prover_info(p, &pi);
    printf("*** TIMING ONLY: random params, nothing verified ***\n");
    printf("backend %s, %zu device%s, memory budget %.2f GiB\n", pi.backend, pi.devices,
           pi.devices == 1 ? "" : "s", (double)pi.memory_budget / (1 << 30));
    cz_timing_request_t porep, other;
    cz_timing_request_init(&porep, "porep-c2");
    porep.input = c1;
    porep.input_len = c1_len;
    porep.seed = o->seed;
    cz_timing_request_init(&other, o->kind);
    other.sector_size = o->sector_size ? o->sector_size : (uint64_t)32 << 30;
    other.seed = o->seed;
    other.priority = (int)o->priority;
    double alone_s = 0;
    if (!o->no_alone)
        rc = phase_alone(p, &other, &alone_s);
    if (rc == CZ_OK)
        rc = phase_mixed(p, o, &porep, &other, alone_s);
    cz_device_memory_t dm;
    if (cz_prover_device_memory(p, 0, &dm) == CZ_OK && dm.plan[0])
        printf("device memory (last partition): %s\n", dm.plan);
    cz_prover_stats_t st;
    cz_prover_stats(p, &st);
    printf("peak RSS %.2f GiB; budget peak %.2f of %.2f GiB\n",
           (double)cz_bench_peak_rss() / (1 << 30), (double)st.budget_peak / (1 << 30),
           (double)st.budget_total / (1 << 30));
    cz_prover_free(p);
    return rc;
}

int cz_bench_mixed(int argc, char **argv)
{
    mixed_opts o;
    int rc = cz_opts_parse(&MIXED_SPEC, &o, argc, argv, NULL);
    if (rc != CZ_OPTS_RUN)
        return rc;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1)) {
        fprintf(stderr, "cuzk bench mixed: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    uint8_t *c1 = NULL;
    size_t c1_len = 0;
    rc = cz_cli_read_file(ctx, o.c1_path, (size_t)1 << 30, &c1, &c1_len);
    if (rc != CZ_OK)
        fprintf(stderr, "cuzk bench mixed: %s\n", cz_ctx_message(ctx));
    else
        rc = run(&o, c1, c1_len);
    free(c1);
    cz_ctx_free(ctx);
    return rc == CZ_OK ? CZ_EXIT_OK : CZ_EXIT_FAIL;
}
