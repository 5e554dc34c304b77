/*
 * cli/c2_random.c — `cuzk prove --kind porep-c2 --random-params`:
 * TIMING ONLY. A C1's job (its exact partition shape, cz_c2_job_init) with
 * random params of that shape (cz_params_random: seconds even at 32GiB,
 * where a setup takes hours) and no pvk, so the engine proves every
 * partition and skips verification; the figures come from the wall clock,
 * the engine's timeline (analysed in process, as bench pipeline) and
 * /proc/self/status. It drives the engine directly, as the benchmarks
 * (bench/) do: random params are not something the public API offers, and
 * a proof from them is not a proof. The real prove is cmd_porep.c's, over
 * cuzk.h. It is a form of `cuzk prove` (as time_random.c is), so it lives
 * in cli/, and cli/ includes no bench/ header.
 */
#include "cli/c2_random.h"

#ifdef CUZK_HAVE_JANSSON
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "core/clock.h"
#include "timeline/analyze.h"
#include "engine/engine.h"
#include "timeline/svg.h"
#include "kinds/porep/c1.h"
#include "kinds/porep/c2.h"

/*
 * The engine of one C2 run on the backend *be (the engine borrows it): its
 * automatic memory budget is the engine's default margin plus the params,
 * which it does not count.
 */
static int c2_engine_new(cz_ctx_t *ctx, cz_engine_t **e, cz_backend_t **be, unsigned workers,
                         const cz_params_t *params, cz_timeline_t *tl, bool no_verify,
                         size_t memory_budget)
{
    cz_engine_config_t cfg = { .backends = be,
                               .num_devices = 1,
                               .workers_per_device = workers,
                               .pool = cz_ctx_pool(ctx),
                               .timeline = tl,
                               .no_verify = no_verify,
                               .memory_budget = memory_budget,
                               .memory_margin = cz_engine_margin_for(cz_params_mem_bytes(params)) };
    return cz_engine_new(ctx, e, &cfg);
}


/*
 * |n| jobs of |spec| submitted at once (the spec's synthesis is read-only:
 * the jobs share it), each waited for in order: *first_done / *last_done
 * are the clock when the first and the last were done, *id and *info the
 * first's.
 */
static int run_jobs(cz_ctx_t *ctx, cz_engine_t *e, const cz_job_spec_t *spec, size_t n, bool quiet,
                    uint64_t *id, cz_job_info_t *info, double *first_done, double *last_done)
{
    uint64_t ids[64] = { 0 }; /* ids[0] is read even when the first submit fails */
    int rc = CZ_OK;
    size_t submitted = 0;
    for (; submitted < n && rc == CZ_OK; submitted++)
        rc = cz_engine_submit(e, NULL, spec, &ids[submitted]);
    if (rc != CZ_OK)
        submitted--;
    *id = ids[0];
    cz_progress_t progress;
    cz_progress_start(&progress, quiet);
    for (size_t k = 0; k < submitted && rc == CZ_OK; k++) {
        cz_job_info_t ji;
        memset(&ji, 0, sizeof ji);
        while ((rc = cz_engine_wait(e, ids[k], 0.25, &ji)) == CZ_EBUSY) {
            rc = CZ_OK;
            cz_progress_draw(&progress, k * spec->partitions + ji.partitions_done,
                             n * spec->partitions, cz_job_stage_label(ji.state, ji.in_stage));
        }
        *last_done = cz_mono_s();
        if (k == 0) {
            *first_done = *last_done;
            *info = ji;
        }
        if (rc == CZ_OK && ji.state != CZ_JOB_DONE)
            rc = cz_fail(ctx, ji.error ? ji.error : CZ_EINTERNAL, "job %zu: %s: %s", k + 1,
                         cz_job_state_name(ji.state), ji.message);
    }
    cz_progress_end(&progress);
    for (size_t k = 0; rc != CZ_OK && k < submitted; k++) /* leave nothing running */
        (void)cz_engine_cancel(e, ids[k]);
    return rc;
}

/*
 * The backend's device-memory plan and what it copied: params bytes to the
 * device per partition and per proof (|per_proof| partitions), and their
 * time at the links the cards people own have (the test machine's is
 * faster).
 */
static void print_plan(cz_backend_t *be, size_t per_proof)
{
    cz_backend_report r;
    cz_backend_report_of(be, &r);
    if (!r.plan[0])
        return;
    const double per = r.partitions ? (double)r.h2d_bytes / (double)r.partitions : 0;
    printf("device memory: %s\n", r.plan);
    printf("params to the device: %.2f GiB per partition, %.2f GiB per proof (%llu partitions "
           "in %llu regions); per partition at 25 GB/s %.3f s, at 50 GB/s %.3f s\n",
           per / (1 << 30), per * (double)per_proof / (1 << 30), r.partitions, r.regions,
           per / 25e9, per / 50e9);
}

int cz_cli_c2_random(const cz_c2_random_opts_t *o)
{
    static const char BANNER[] = "*** TIMING ONLY: random params, proof not verified ***";
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, (unsigned)o->threads)) {
        fprintf(stderr, "cuzk prove: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    cz_backend_t *be = NULL;
    int rc = CZ_OK;
    cz_engine_gate_t gate; /* the backend's pinned params copies, in the engine's budget */
    cz_engine_gate_init(&gate);
    const cz_cuda_backend_opts_t cuda = { .device_mem_limit = o->device_mem_limit,
                                          .host_gate = cz_engine_gate(&gate),
                                          .max_batch = o->batch };
    if (!o->dry_run &&
        (rc = cz_backend_new_opts(ctx, &be, o->backend, (int)o->device, &cuda)) != CZ_OK) {
        fprintf(stderr, "cuzk prove: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
        cz_engine_gate_destroy(&gate);
        cz_ctx_free(ctx);
        return rc == CZ_EINVAL ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
    }
    if (!o->json)
        printf("%s\n", BANNER);
    else
        fprintf(stderr, "%s\n", BANNER);
    fflush(stdout);
    cz_c1_t c1;
    memset(&c1, 0, sizeof c1);
    cz_c2_job_t job;
    memset(&job, 0, sizeof job);
    cz_params_t *params = NULL;
    cz_timeline_t *tl = NULL;
    cz_engine_t *e = NULL;
    cz_timeline_report_t *rep = NULL;
    char *log = NULL;
    uint8_t *proof = NULL;
    size_t len = 0;
    double t0 = cz_mono_s(), t_shape = 0, t_params = 0, wall = 0;
    rc = cz_c1_load(ctx, &c1, o->c1_path);
    if (rc == CZ_OK)
        rc = cz_c2_job_init(ctx, &job, &c1, NULL, NULL);
    t_shape = cz_mono_s() - t0;
    if (rc == CZ_OK && !o->json)
        printf("%s: %u partitions x %zu constraints / %zu rows (domain %zu, %zu inputs, "
               "%zu aux); c1+shape %.2f s\n",
               c1.proof->name, c1.npartitions, job.rows - job.shape.num_inputs, job.rows,
               job.shape.domain_size, job.shape.num_inputs, job.shape.num_aux, t_shape);
    if (rc == CZ_OK && o->dry_run) {
        if (o->json)
            printf("{\"registered_proof\":\"%s\",\"partitions\":%u,\"constraints\":%zu,"
                   "\"rows\":%zu,\"domain_size\":%zu,\"inputs\":%zu,\"aux\":%zu,"
                   "\"dry_run\":true}\n",
                   c1.proof->name, c1.npartitions, job.rows - job.shape.num_inputs, job.rows,
                   job.shape.domain_size, job.shape.num_inputs, job.shape.num_aux);
        goto out;
    }
    if (rc == CZ_OK) {
        double t = cz_mono_s();
        rc = cz_params_random(ctx, &params, &job.shape, o->seed);
        if (rc == CZ_OK)
            rc = cz_params_check_shape(ctx, params, &job.shape);
        t_params = cz_mono_s() - t;
        if (rc == CZ_OK && !o->json)
            printf("random params: %.2f s (seed %" PRIu64 ", %.2f GiB in memory); engine "
                   "budget per partition %.2f GiB\n",
                   t_params, o->seed, (double)cz_params_mem_bytes(params) / (1 << 30),
                   (double)job.spec.partition_bytes / (1 << 30));
    }
    if (rc == CZ_OK)
        rc = o->timeline_path ? cz_tl_open(ctx, &tl, o->timeline_path, 1) : cz_tl_new(&tl, NULL, 1);
    if (rc == CZ_OK)
        rc = c2_engine_new(ctx, &e, &be, (unsigned)o->workers, params, tl, true, o->memory_budget);
    if (rc == CZ_OK)
        cz_engine_gate_connect(&gate, e);
    uint64_t id = 0;
    cz_job_info_t info;
    memset(&info, 0, sizeof info);
    const size_t njobs = o->jobs > 1 ? o->jobs : 1;
    double first_done = 0, last_done = 0;
    if (rc == CZ_OK) {
        job.spec.params = params;
        job.spec.pvk = NULL; /* no verification (engine.h) */
        double t = cz_mono_s();
        rc = run_jobs(ctx, e, &job.spec, njobs, o->quiet || o->json, &id, &info, &first_done,
                      &last_done);
        first_done -= t;
        last_done -= t;
        wall = first_done;
    }
    if (rc == CZ_OK && o->proof_path) {
        rc = cz_engine_proof(e, id, &proof, &len);
        if (rc == CZ_OK)
            rc = cz_cli_write_file(ctx, o->proof_path, proof, len);
    }
    size_t rss_kib = cz_cli_peak_rss() / 1024;
    cz_engine_stats_t es;
    memset(&es, 0, sizeof es);
    if (e)
        cz_engine_stats(e, &es);
    cz_engine_gate_connect(&gate, NULL);
    cz_engine_free(e);
    e = NULL;
    /* the timeline: synthesis per partition, device regions, efficiency */
    double eff = 1.0, disp_eff = 1.0, held_ms = 0, synth_ms = 0, synth_max_ms = 0;
    size_t regions = 0, overlaps = 0, nsynth = 0;
    if (rc == CZ_OK) {
        log = cz_tl_captured(tl, &len);
        rc = log ? cz_timeline_analyze_buf(ctx, log, len, &rep)
                 : cz_fail(ctx, CZ_ENOMEM, "timeline");
    }
    if (rc == CZ_OK) {
        size_t ndev = cz_timeline_ndevices(rep);
        for (size_t d = 0; d < ndev; d++) {
            const cz_tl_device_t *dv = cz_timeline_device(rep, d);
            held_ms += dv->held_ms;
            regions += dv->regions;
            if (dv->efficiency < eff)
                eff = dv->efficiency;
            if (dv->dispatch_efficiency >= 0 && dv->dispatch_efficiency < disp_eff)
                disp_eff = dv->dispatch_efficiency;
        }
        if (!ndev)
            eff = disp_eff = 0;
        overlaps = cz_timeline_noverlaps(rep);
        const cz_tl_stage_t *st = cz_timeline_stage(rep, CZ_SPAN_SYNTH);
        if (st) {
            nsynth = st->count;
            synth_ms = st->mean_ms;
            synth_max_ms = st->max_ms;
        }
        if (o->svg_path)
            rc = cz_timeline_svg_file(ctx, rep, NULL, o->svg_path, NULL);
    }
    if (rc == CZ_OK) {
        unsigned threads = cz_pool_width(cz_ctx_pool(ctx));
        /* per partition: a batched region (backend.h) proves several */
        const size_t proved = njobs * c1.npartitions;
        double region_ms = proved ? held_ms / (double)proved : 0;
        if (o->json) {
            printf("{\"timing_only\":true,\"verified\":false,\"registered_proof\":\"%s\","
                   "\"partitions\":%u,\"constraints\":%zu,\"rows\":%zu,\"backend\":\"%s\","
                   "\"device\":%d,\"workers_per_device\":%zu,\"threads\":%u,"
                   "\"s_per_proof\":%.3f,\"s_per_partition\":%.3f,\"synthesis_ms_mean\":%.1f,"
                   "\"synthesis_ms_max\":%.1f,\"synthesis_spans\":%zu,\"device_region_ms\":%.1f,"
                   "\"device_efficiency\":%.4f,\"dispatch_efficiency\":%.4f,"
                   "\"overlap_violations\":%zu,\"params_random_s\":%.2f,\"c1_shape_s\":%.2f,"
                   "\"peak_rss_kib\":%zu,\"jobs\":%zu,\"all_done_s\":%.3f,"
                   "\"steady_s_per_proof\":%.3f}\n",
                   c1.proof->name, c1.npartitions, job.rows - job.shape.num_inputs, job.rows,
                   be->ops->name, be->device_index, o->workers, threads, wall,
                   wall / c1.npartitions, synth_ms, synth_max_ms, nsynth, region_ms, eff, disp_eff,
                   overlaps, t_params, t_shape, rss_kib, njobs, last_done,
                   njobs > 1 ? (last_done - first_done) / (double)(njobs - 1) : wall);
        } else {
            printf("%s: %.3f s/proof (%u partitions, submit to done; %.3f s/partition), "
                   "backend %s, device %d, %zu workers/device\n",
                   c1.proof->name, wall, c1.npartitions, wall / c1.npartitions, be->ops->name,
                   be->device_index, o->workers);
            if (njobs > 1)
                printf("%zu jobs submitted at once: the first done at %.3f s, all at %.3f s; "
                       "steady %.3f s/proof ((last - first) / %zu)\n",
                       njobs, first_done, last_done, (last_done - first_done) / (double)(njobs - 1),
                       njobs - 1);
            printf("synthesis per partition: mean %.1f ms, max %.1f ms (%zu partitions, "
                   "%u threads, 1 synthesis worker)\n",
                   synth_ms, synth_max_ms, nsynth, threads);
            printf("device region per partition: %.1f ms (%zu partitions in %zu regions); device "
                   "efficiency %.1f%% (dispatch %.1f%%), %zu overlap violations\n",
                   region_ms, proved, regions, 100 * eff, 100 * disp_eff, overlaps);
            printf("peak RSS (VmHWM): %zu KiB (%.2f GiB)\n", rss_kib, (double)rss_kib / 1048576.0);
            if (es.backend_host_bytes)
                printf("pinned params copies: %.2f GiB, counted in the engine's budget of %.2f GiB "
                       "(peak reserved %.2f GiB)\n",
                       (double)es.backend_host_bytes / (1 << 30),
                       (double)es.budget_total / (1 << 30), (double)es.budget_peak / (1 << 30));
            print_plan(be, c1.npartitions);
            if (o->proof_path)
                printf("wrote %s (%zu bytes): NOT a valid proof (random params)\n", o->proof_path,
                       (size_t)c1.npartitions * 192);
            printf("%s\n", BANNER);
        }
    }
out:
    if (rc)
        fprintf(stderr, "cuzk prove: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    cz_timeline_report_free(rep);
    free(log);
    cz_engine_gate_connect(&gate, NULL);
    cz_engine_free(e);
    cz_tl_free(tl);
    cz_backend_free(be);
    cz_engine_gate_destroy(&gate);
    free(proof);
    cz_params_free(params);
    cz_c2_job_clear(&job);
    cz_c1_free(&c1);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}
#endif /* CUZK_HAVE_JANSSON */
