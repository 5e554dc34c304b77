/*
 * cli/c2_random.c — `cuzk prove --kind porep-c2 --random-params`:
 * TIMING ONLY. A C1's jobs (its exact partition shape) proved with random
 * params of that shape, nothing verified, all through the public API
 * (cuzk.h): one prover (cz_prover_config_t: backend, device, workers,
 * threads, the CUDA device-memory limit and batch, the timeline kept in
 * memory), --jobs timing jobs of the C1 (cz_prover_submit_timing; the jobs
 * of one run share one set of random params, made by the prover's stager
 * when the first starts), and the figures from the wall clock, the jobs'
 * timings and shape (cz_prover_job_shape), the prover's timeline analysis
 * (cz_prover_timeline_summary), stats (cz_prover_stats) and device memory
 * (cz_prover_device_memory), and /proc/self/status. --dry-run is the shape
 * alone (cz_kind_shape: no prover, no device). The real prove is
 * cmd_porep.c's. It is a form of `cuzk prove` (as time_random.c is), so it
 * lives in cli/, and cli/ includes no bench/ header.
 *
 * Times: c1+shape is reading the C1 and the first submit (which parses it
 * and computes its partition shape); a job's "submit to done" counts from
 * the moment the first job enters the engine (cz_job_info_t.started: its
 * random params made and its C1 checked before), so s/proof is the
 * engine's time for the proof, the params' making apart (their own line).
 */
#include "cli/c2_random.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk.h"
#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/prove_job.h"
#include "core/clock.h"
#include "core/ctx.h"

static const char BANNER[] = "*** TIMING ONLY: random params, proof not verified ***";

/* What one run measured. */
typedef struct c2_run {
    const char *name; /* the C1's RegisteredSealProof (static) */
    cz_job_shape_t shape;
    cz_prover_info_t pi;
    cz_prover_stats_t stats;
    cz_device_memory_t dm;
    cz_device_memory_t dm_first; /* dm when the first job was done (several jobs): the regions
                                  * after it are the steady state's */
    cz_timeline_summary_t tl;
    uint64_t ids[64];
    size_t njobs, rss_kib;
    double t_shape, t_params; /* s: c1+shape; the params' making (the first job's) */
    double first_done, last_done;
} c2_run_t;

/* |rc| with the library's message in |ctx| (cz_fail), as every `cuzk prove` prints it. */
static int lib_fail(cz_ctx_t *ctx, int rc, const cz_error_t *err)
{
    return rc ? cz_fail(ctx, rc, "%s", err->message) : CZ_OK;
}

static int make_prover(cz_ctx_t *ctx, const cz_c2_random_opts_t *o, cz_prover_t **p)
{
    const cz_cli_prover_opts_t po = { .backend = o->backend,
                                      .device = o->device,
                                      .threads = o->threads,
                                      .workers = o->workers,
                                      .device_mem_limit = o->device_mem_limit,
                                      .memory_budget = o->memory_budget,
                                      .max_batch = o->batch };
    cz_prover_config_t cfg;
    cz_cli_prover_config(&po, &cfg);
    cfg.timeline = o->timeline_path;
    cfg.timeline_capture = true; /* the device efficiency below */
    cfg.cuda_no_pin_ab = o->no_pin_ab;
    cz_error_t err;
    return lib_fail(ctx, cz_prover_new(p, &cfg, &err), &err);
}

/* The shape line (and the --dry-run answer). */
static void print_shape(const cz_c2_random_opts_t *o, const c2_run_t *r)
{
    const cz_job_shape_t *s = &r->shape;
    if (o->json && o->dry_run)
        printf("{\"registered_proof\":\"%s\",\"partitions\":%zu,\"constraints\":%zu,"
               "\"rows\":%zu,\"domain_size\":%zu,\"inputs\":%zu,\"aux\":%zu,"
               "\"dry_run\":true}\n",
               r->name, s->partitions, s->constraints, s->rows, s->domain_size, s->num_inputs,
               s->num_aux);
    else if (!o->json)
        printf("%s: %zu partitions x %zu constraints / %zu rows (domain %zu, %zu inputs, "
               "%zu aux); c1+shape %.2f s\n",
               r->name, s->partitions, s->constraints, s->rows, s->domain_size, s->num_inputs,
               s->num_aux, r->t_shape);
    fflush(stdout);
}

/*
 * Submit the run's jobs (the first's submit timed as c1+shape), print the
 * shape, wait for the first to start (its random params made) and print
 * them, then wait for every job in order with the progress display.
 */
static int run_jobs(cz_ctx_t *ctx, const cz_c2_random_opts_t *o, cz_prover_t *p, const void *c1,
                    size_t len, double t0, c2_run_t *r)
{
    cz_timing_request_t req;
    cz_timing_request_init(&req, "porep-c2");
    req.input = c1;
    req.input_len = len;
    req.seed = o->seed;
    cz_error_t err;
    int rc = lib_fail(ctx, cz_prover_submit_timing(p, &req, &r->ids[0], &err), &err);
    r->t_shape = cz_mono_s() - t0;
    if (rc == CZ_OK)
        rc = lib_fail(ctx, cz_prover_job_shape(p, r->ids[0], &r->shape, &err), &err);
    if (rc != CZ_OK)
        return rc;
    print_shape(o, r);
    for (size_t k = 1; k < r->njobs && rc == CZ_OK; k++) /* the same params: shared */
        rc = lib_fail(ctx, cz_prover_submit_timing(p, &req, &r->ids[k], &err), &err);
    /* the engine's time starts when the first job enters it (its params made, its C1
     * checked), seen within 10 ms */
    cz_job_info_t ji;
    memset(&ji, 0, sizeof ji);
    while (rc == CZ_OK &&
           (rc = lib_fail(ctx, cz_prover_status(p, r->ids[0], &ji, &err), &err)) == CZ_OK &&
           !ji.started && ji.state < CZ_JOB_DONE)
        if ((rc = cz_prover_wait(p, r->ids[0], 0.01, NULL, &err)) == CZ_EBUSY)
            rc = CZ_OK;
    double origin = cz_mono_s();
    r->t_params = ji.t.params_load / 1e3;
    if (rc == CZ_OK && ji.started && !o->json) {
        (void)cz_prover_job_shape(p, r->ids[0], &r->shape, &err);
        printf("random params: %.2f s (seed %" PRIu64 ", %.2f GiB in memory); engine "
               "budget per partition %.2f GiB\n",
               r->t_params, o->seed, (double)r->shape.params_bytes / (1 << 30),
               (double)r->shape.partition_bytes / (1 << 30));
        fflush(stdout);
    }
    cz_progress_t progress;
    cz_progress_start(&progress, o->quiet || o->json);
    const size_t parts = r->shape.partitions;
    for (size_t k = 0; k < r->njobs && rc == CZ_OK; k++) {
        memset(&ji, 0, sizeof ji);
        while ((rc = cz_prover_wait(p, r->ids[k], 0.25, &ji, &err)) == CZ_EBUSY)
            cz_progress_draw(&progress, k * parts + ji.partitions_done, r->njobs * parts,
                             cz_job_stage_label(ji.state, ji.in_stage));
        rc = lib_fail(ctx, rc, &err);
        r->last_done = cz_mono_s() - origin;
        if (k == 0)
            r->first_done = r->last_done;
        if (k == 0 && r->njobs > 1 && cz_prover_device_memory(p, 0, &r->dm_first) != 0)
            memset(&r->dm_first, 0, sizeof r->dm_first);
        if (rc == CZ_OK && ji.state != CZ_JOB_DONE)
            rc = cz_fail(ctx, ji.error ? ji.error : CZ_EINTERNAL, "job %zu: %s: %s", k + 1,
                         cz_job_state_name(ji.state), ji.message);
    }
    cz_progress_end(&progress);
    return rc;
}

/* The proof of the first job to |path|: NOT a proof (random params). */
static int write_proof(cz_ctx_t *ctx, cz_prover_t *p, uint64_t id, const char *path)
{
    uint8_t *proof = NULL;
    size_t len = 0;
    cz_error_t err;
    int rc = lib_fail(ctx, cz_prover_proof(p, id, &proof, &len, &err), &err);
    if (rc == CZ_OK)
        rc = cz_cli_write_file(ctx, path, proof, len);
    cz_free(proof);
    return rc;
}

/* A region's parts (ms) per partition over |n| partitions. */
typedef struct {
    double n, setup, h, msm_h, prep_wait, tails;
} region_parts;

/* The run's device before anything (the parts of the whole run: from it to the end). */
static const cz_device_memory_t AT_START = { .partitions = 0 };

/* The parts per partition of those proved between |start| and |end| (|end| less |start|);
 * false where none was. */
static bool parts_between(const cz_device_memory_t *start, const cz_device_memory_t *end,
                          region_parts *out)
{
    if (end->partitions <= start->partitions)
        return false;
    const double n = (double)(end->partitions - start->partitions);
    *out = (region_parts){ n,
                           (end->setup_ms - start->setup_ms) / n,
                           (end->h_ms - start->h_ms) / n,
                           (end->msm_h_ms - start->msm_h_ms) / n,
                           (end->prep_wait_ms - start->prep_wait_ms) / n,
                           (end->tails_ms - start->tails_ms) / n };
    return true;
}

static void print_parts(const char *which, const region_parts *rp)
{
    printf("device region per partition%s, its parts: set-up %.1f ms, H %.1f ms, MSM h %.1f ms, "
           "prep wait %.1f ms, tails %.1f ms (l, a, b_g1, b_g2); sum %.1f ms\n",
           which, rp->setup, rp->h, rp->msm_h, rp->prep_wait, rp->tails,
           rp->setup + rp->h + rp->msm_h + rp->prep_wait + rp->tails);
}

/*
 * The device's memory plan and what it copied: params bytes to the device
 * per partition and per proof (|per_proof| partitions), and their time at
 * the links the cards people own have (the test machine's is faster); the
 * regions' parts, over every partition and, with several jobs, over those
 * proved after the first job was done (the cold regions of a set's first
 * use left out: the figures to compare between runs).
 */
static void print_plan(const c2_run_t *r, size_t per_proof)
{
    const cz_device_memory_t *dm = &r->dm;
    if (!dm->plan[0])
        return;
    const double per = dm->partitions ? (double)dm->h2d_bytes / (double)dm->partitions : 0;
    printf("device memory: %s\n", dm->plan);
    printf("params to the device: %.2f GiB per partition, %.2f GiB per proof (%llu partitions "
           "in %llu regions); per partition at 25 GB/s %.3f s, at 50 GB/s %.3f s\n",
           per / (1 << 30), per * (double)per_proof / (1 << 30), (unsigned long long)dm->partitions,
           (unsigned long long)dm->regions, per / 25e9, per / 50e9);
    region_parts rp;
    if (parts_between(&AT_START, dm, &rp))
        print_parts("", &rp);
    char which[96];
    if (r->njobs > 1 && parts_between(&r->dm_first, dm, &rp)) {
        snprintf(which, sizeof which, " after the first job (%.0f partitions)", rp.n);
        print_parts(which, &rp);
    }
}

static void print_json(const cz_c2_random_opts_t *o, const c2_run_t *r, double region_ms)
{
    const cz_job_shape_t *s = &r->shape;
    region_parts all = { 0 }, after = { 0 }; /* per partition (0 on the CPU) */
    (void)parts_between(&AT_START, &r->dm, &all);
    if (r->njobs > 1)
        (void)parts_between(&r->dm_first, &r->dm, &after);
    const double wall = r->first_done;
    printf("{\"timing_only\":true,\"verified\":false,\"registered_proof\":\"%s\","
           "\"partitions\":%zu,\"constraints\":%zu,\"rows\":%zu,\"backend\":\"%s\","
           "\"device\":%d,\"workers_per_device\":%zu,\"threads\":%u,"
           "\"s_per_proof\":%.3f,\"s_per_partition\":%.3f,\"synthesis_ms_mean\":%.1f,"
           "\"synthesis_ms_max\":%.1f,\"synthesis_spans\":%zu,\"device_region_ms\":%.1f,"
           "\"device_efficiency\":%.4f,\"dispatch_efficiency\":%.4f,"
           "\"overlap_violations\":%zu,\"params_random_s\":%.2f,\"c1_shape_s\":%.2f,"
           "\"peak_rss_kib\":%zu,\"jobs\":%zu,\"all_done_s\":%.3f,"
           "\"steady_s_per_proof\":%.3f,\"region_parts_ms\":{\"setup\":%.1f,\"h\":%.1f,"
           "\"msm_h\":%.1f,\"prep_wait\":%.1f,\"tails\":%.1f},"
           "\"steady_region_parts_ms\":{\"partitions\":%.0f,\"setup\":%.1f,\"h\":%.1f,"
           "\"msm_h\":%.1f,\"prep_wait\":%.1f,\"tails\":%.1f}}\n",
           r->name, s->partitions, s->constraints, s->rows, r->pi.backend, (int)o->device,
           o->workers, r->pi.threads, wall, wall / (double)s->partitions, r->tl.synthesis_mean_ms,
           r->tl.synthesis_max_ms, r->tl.synthesis_spans, region_ms, r->tl.device_efficiency,
           r->tl.dispatch_efficiency, r->tl.overlap_violations, r->t_params, r->t_shape, r->rss_kib,
           r->njobs, r->last_done,
           r->njobs > 1 ? (r->last_done - r->first_done) / (double)(r->njobs - 1) : wall, all.setup,
           all.h, all.msm_h, all.prep_wait, all.tails, after.n, after.setup, after.h, after.msm_h,
           after.prep_wait, after.tails);
}

static void print_text(const cz_c2_random_opts_t *o, const c2_run_t *r, double region_ms,
                       size_t proved)
{
    const size_t parts = r->shape.partitions;
    const double wall = r->first_done;
    printf("%s: %.3f s/proof (%zu partitions, submit to done; %.3f s/partition), "
           "backend %s, device %d, %zu workers/device\n",
           r->name, wall, parts, wall / (double)parts, r->pi.backend, (int)o->device, o->workers);
    if (r->njobs > 1)
        printf("%zu jobs submitted at once: the first done at %.3f s, all at %.3f s; "
               "steady %.3f s/proof ((last - first) / %zu)\n",
               r->njobs, r->first_done, r->last_done,
               (r->last_done - r->first_done) / (double)(r->njobs - 1), r->njobs - 1);
    printf("synthesis per partition: mean %.1f ms, max %.1f ms (%zu partitions, "
           "%u threads, 1 synthesis worker)\n",
           r->tl.synthesis_mean_ms, r->tl.synthesis_max_ms, r->tl.synthesis_spans, r->pi.threads);
    printf("device region per partition: %.1f ms (%zu partitions in %zu regions); device "
           "efficiency %.1f%% (dispatch %.1f%%), %zu overlap violations\n",
           region_ms, proved, r->tl.device_regions, 100 * r->tl.device_efficiency,
           100 * r->tl.dispatch_efficiency, r->tl.overlap_violations);
    printf("peak RSS (VmHWM): %zu KiB (%.2f GiB)\n", r->rss_kib, (double)r->rss_kib / 1048576.0);
    if (r->stats.backend_host_bytes)
        printf("pinned params copies: %.2f GiB, counted in the engine's budget of %.2f GiB "
               "(peak reserved %.2f GiB)\n",
               (double)r->stats.backend_host_bytes / (1 << 30),
               (double)r->stats.budget_total / (1 << 30), (double)r->stats.budget_peak / (1 << 30));
    print_plan(r, parts);
    if (o->proof_path)
        printf("wrote %s (%zu bytes): NOT a valid proof (random params)\n", o->proof_path,
               parts * 192);
    printf("%s\n", BANNER);
}

/* The run after the prover is made (or, for --dry-run, without one). */
static int c2_random(cz_ctx_t *ctx, const cz_c2_random_opts_t *o, cz_prover_t *p, c2_run_t *r)
{
    uint8_t *c1 = NULL;
    size_t len = 0;
    cz_error_t err;
    cz_porep_public_t pub;
    double t0 = cz_mono_s();
    int rc = cz_cli_read_file(ctx, o->c1_path, (size_t)1 << 31, &c1, &len);
    if (rc == CZ_OK && o->dry_run) {
        rc = lib_fail(ctx, cz_kind_shape("porep-c2", c1, len, NULL, &r->shape, &err), &err);
        r->t_shape = cz_mono_s() - t0;
    }
    if (rc == CZ_OK) /* the name only (not timed) */
        rc = lib_fail(ctx, cz_porep_public_from_c1(&pub, c1, len, &err), &err);
    if (rc == CZ_OK)
        r->name = pub.registered_proof;
    if (rc == CZ_OK && o->dry_run)
        print_shape(o, r);
    if (rc == CZ_OK && !o->dry_run)
        rc = run_jobs(ctx, o, p, c1, len, t0, r);
    free(c1);
    if (rc != CZ_OK || o->dry_run)
        return rc;
    if (o->proof_path)
        rc = write_proof(ctx, p, r->ids[0], o->proof_path);
    r->rss_kib = cz_cli_peak_rss() / 1024;
    cz_prover_info(p, &r->pi);
    cz_prover_stats(p, &r->stats);
    if (rc == CZ_OK)
        rc = cz_prover_device_memory(p, 0, &r->dm) ? cz_fail(ctx, CZ_ERANGE, "device 0") : CZ_OK;
    /* the timeline: synthesis per partition, device regions, efficiency */
    if (rc == CZ_OK)
        rc = lib_fail(ctx, cz_prover_timeline_summary(p, o->svg_path, &r->tl, &err), &err);
    if (rc == CZ_OK) {
        /* per partition: a batched region proves several */
        const size_t proved = r->njobs * r->shape.partitions;
        const double region_ms = proved ? r->tl.device_held_ms / (double)proved : 0;
        if (o->json)
            print_json(o, r, region_ms);
        else
            print_text(o, r, region_ms, proved);
    }
    return rc;
}

int cz_cli_c2_random(const cz_c2_random_opts_t *o)
{
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1)) {
        fprintf(stderr, "cuzk prove: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    c2_run_t *r = calloc(1, sizeof *r);
    cz_prover_t *p = NULL;
    int rc = r ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "out of memory");
    if (rc == CZ_OK && !o->dry_run && (rc = make_prover(ctx, o, &p)) != CZ_OK) {
        fprintf(stderr, "cuzk prove: %s\n", cz_ctx_message(ctx));
        free(r);
        cz_ctx_free(ctx);
        return rc == CZ_EINVAL ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
    }
    fprintf(o->json ? stderr : stdout, "%s\n", BANNER);
    fflush(stdout);
    if (rc == CZ_OK) {
        r->njobs = o->jobs > 1 ? o->jobs : 1;
        if (r->njobs > sizeof r->ids / sizeof r->ids[0])
            rc = cz_fail(ctx, CZ_EINVAL, "--jobs: at most %zu", sizeof r->ids / sizeof r->ids[0]);
    }
    if (rc == CZ_OK)
        rc = c2_random(ctx, o, p, r);
    if (rc)
        fprintf(stderr, "cuzk prove: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    cz_prover_free(p); /* cancels what a failure left running */
    free(r);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}
