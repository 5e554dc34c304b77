/*
 * api/timeline.c — cuzk.h cz_prover_timeline_summary and
 * cz_prover_timeline_devices: the engine timeline a prover made with
 * timeline_capture keeps in memory, analysed by the timeline analyzer
 * (timeline/analyze.h) and, when asked, drawn (timeline/svg.h): the summary
 * over all devices, or each device's figures. For timing runs and
 * benchmarks: how well the devices were fed, without a caller reaching the
 * engine. Both take their report from captured_report (one copy, one
 * analysis per call).
 *
 * Thread-safety: the captured text is copied (engine/timeline.h
 * cz_tl_captured) and the copy analysed with no prover lock held, so the
 * engine keeps recording meanwhile.
 */
#include "api/prover_int.h"

#include <stdlib.h>
#include <string.h>

#include "engine/timeline.h"
#include "timeline/analyze.h"
#include "timeline/svg.h"

/* |rep|'s devices and synthesis spans into |out| (the least efficiency over devices). */
static void summarize(const cz_timeline_report_t *rep, cz_timeline_summary_t *out)
{
    double eff = 1.0, disp = 1.0;
    size_t ndev = cz_timeline_ndevices(rep);
    for (size_t d = 0; d < ndev; d++) {
        const cz_tl_device_t *dv = cz_timeline_device(rep, d);
        out->device_held_ms += dv->held_ms;
        out->device_regions += dv->regions;
        if (dv->efficiency < eff)
            eff = dv->efficiency;
        if (dv->dispatch_efficiency >= 0 && dv->dispatch_efficiency < disp)
            disp = dv->dispatch_efficiency;
    }
    out->devices = ndev;
    out->device_efficiency = ndev ? eff : 0;
    out->dispatch_efficiency = ndev ? disp : 0;
    out->overlap_violations = cz_timeline_noverlaps(rep);
    const cz_tl_stage_t *st = cz_timeline_stage(rep, CZ_SPAN_SYNTH);
    if (st) {
        out->synthesis_spans = st->count;
        out->synthesis_mean_ms = st->mean_ms;
        out->synthesis_max_ms = st->max_ms;
    }
}

/*
 * The captured timeline of |p| analysed: *rep (cz_timeline_report_free) on a
 * fresh *ctx (cz_ctx_free), its errors to come. CZ_OK, or the error in |err|
 * (|fn| names the caller where the prover was made without capture) with
 * *rep and *ctx NULL.
 */
static int captured_report(cz_prover_t *p, const char *fn, cz_ctx_t **ctx,
                           cz_timeline_report_t **rep, cz_error_t *err)
{
    *ctx = NULL;
    *rep = NULL;
    if (!p->cfg.timeline_capture || !p->timeline)
        return cz__err(err, CZ_EINVAL, "%s: the prover was made without timeline_capture", fn);
    if (cz_ctx_new(ctx, NULL, 1) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "context");
    size_t len = 0;
    cz_tl_flush(p->timeline);
    char *log = cz_tl_captured(p->timeline, &len);
    int rc = log ? cz_timeline_analyze_buf(*ctx, log, len, rep)
                 : cz_fail(*ctx, CZ_ENOMEM, "timeline: the captured text");
    free(log);
    if (rc != CZ_OK) {
        cz__err_ctx(err, *ctx, rc);
        cz_timeline_report_free(*rep);
        cz_ctx_free(*ctx);
        *rep = NULL;
        *ctx = NULL;
    }
    return rc;
}

int cz_prover_timeline_summary(cz_prover_t *p, const char *svg_path, cz_timeline_summary_t *out,
                               cz_error_t *err)
{
    cz__err_clear(err);
    if (!p || !out)
        return cz__err(err, CZ_EINVAL, "cz_prover_timeline_summary: NULL %s",
                       !p ? "prover" : "out");
    memset(out, 0, sizeof *out);
    cz_ctx_t *ctx;
    cz_timeline_report_t *rep;
    int rc = captured_report(p, "cz_prover_timeline_summary", &ctx, &rep, err);
    if (rc != CZ_OK)
        return rc;
    summarize(rep, out);
    if (svg_path)
        rc = cz_timeline_svg_file(ctx, rep, NULL, svg_path, NULL);
    cz__err_ctx(err, ctx, rc);
    cz_timeline_report_free(rep);
    cz_ctx_free(ctx);
    return rc;
}

int cz_prover_timeline_devices(cz_prover_t *p, cz_timeline_device_t *out, size_t cap, size_t *n,
                               cz_error_t *err)
{
    cz__err_clear(err);
    if (n)
        *n = 0;
    if (!p || !n || (cap && !out))
        return cz__err(err, CZ_EINVAL, "cz_prover_timeline_devices: NULL %s",
                       !p   ? "prover"
                       : !n ? "n"
                            : "out");
    if (cap)
        memset(out, 0, cap * sizeof *out);
    cz_ctx_t *ctx;
    cz_timeline_report_t *rep;
    int rc = captured_report(p, "cz_prover_timeline_devices", &ctx, &rep, err);
    if (rc != CZ_OK)
        return rc;
    *n = cz_timeline_ndevices(rep);
    for (size_t d = 0; d < *n && d < cap; d++) {
        const cz_tl_device_t *dv = cz_timeline_device(rep, d);
        out[d].device = dv->device;
        out[d].regions = dv->regions;
        out[d].held_ms = dv->held_ms;
        out[d].efficiency = dv->efficiency;
        out[d].dispatch_efficiency = dv->dispatch_efficiency >= 0 ? dv->dispatch_efficiency : 1;
    }
    cz_timeline_report_free(rep);
    cz_ctx_free(ctx);
    return CZ_OK;
}
