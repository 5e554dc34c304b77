/*
 * cli/cmd_timeline.c — `cuzk timeline analyze`: a TIMELINE log in, device
 * efficiency, gaps, overlap check and stage percentiles out; `cuzk
 * timeline svg`: the Gantt chart alone, of the whole log or a time window.
 *
 *   cuzk timeline analyze LOG [--json] [--svg OUT.svg [--from S] [--to S]]
 *   cuzk timeline svg LOG -o OUT.svg [--from S] [--to S] [--px-per-s P] [--title T]
 *
 * LOG may be a daemon's whole stderr ("-" reads stdin): only lines starting
 * with "TIMELINE," count. The report is text by default, JSON with --json
 * (one object: "devices", "stages", "overlaps", "warnings"); --svg also
 * writes the Gantt chart. Exit 0, 1 when any two device regions of one
 * device overlap, 2 on usage errors or an unreadable log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/ctx.h"
#include "timeline/analyze.h"
#include "timeline/svg.h"

typedef struct {
    const char *svg, *out;
    bool json;
    cz_tl_svg_opts_t chart; /* --from/--to (window), --px-per-s, --title */
} tl_opts_t;

/* laid out by hand: */
/* clang-format off */
#define CHART_OPTS                                                                           \
    { "from", 0, CZ_O_DOUBLE(tl_opts_t, chart.from_s), .arg = "S",                         \
      .help = "only the spans from S seconds (the log's clock), clipped to the window" },    \
    { "to", 0, CZ_O_DOUBLE(tl_opts_t, chart.to_s), .arg = "S", .help = "... up to S" },   \
    { "px-per-s", 0, CZ_O_DOUBLE(tl_opts_t, chart.px_per_s), .arg = "P", .flags = CZ_OPT_NONZERO, \
      .help = "horizontal scale (default: the median bar about 64 px, plot <= 16000 px)" },  \
    { "title", 0, CZ_O_STRING(tl_opts_t, chart.title), .arg = "T",                         \
      .help = "the chart's heading (default: LOG's name)" }
/* clang-format on */

static const cz_opt ANALYZE_OPTS[] = {
    CZ_OPT_JSON(tl_opts_t, json, "one JSON object: devices, stages, overlaps, warnings"),
    { "svg", 0, CZ_O_OUTPUT(tl_opts_t, svg), .arg = "OUT.svg",
      .help = "also the Gantt chart: one lane per device and synthesis worker" },
    CHART_OPTS,
};
static const cz_opt_rule ANALYZE_RULES[] = {
    CZ_RULE(TOGETHER, "from", "to"),
    CZ_RULE(NEEDS, "from", "svg"),
    CZ_RULE(NEEDS, "px-per-s", "svg"),
    CZ_RULE(NEEDS, "title", "svg"),
};
/* laid out by hand: */
/* clang-format off */
#define TIMELINE_ABOUT                                                                       \
    "  LOG: a log with TIMELINE,<offset_ms>,<event>,<job_id>,<detail> lines ('-': stdin),\n" \
    "  a daemon's whole stderr will do. Each bar of the chart is titled (hover) and,\n"      \
    "  when wide enough, labelled with job and partition.\n"                                \
    "  Exit: 0 ok, 1 device regions overlap (analyze), 2 usage error or unreadable log.\n"
/* clang-format on */
static const cz_opts_spec ANALYZE_SPEC = {
    .cmd = "cuzk timeline analyze",
    .usage = "usage: cuzk timeline analyze LOG [--json] [--svg OUT.svg [--from S] [--to S]]\n",
    .about =
        "  Device efficiency, gaps, the overlap check and stage percentiles of LOG.\n" TIMELINE_ABOUT,
    CZ_OPTS(ANALYZE_OPTS),
    CZ_RULES(ANALYZE_RULES),
    .args = "LOG",
    .min_args = 1,
    .max_args = 1,
};

static const cz_opt SVG_OPTS[] = {
    { "out", 'o', CZ_O_OUTPUT(tl_opts_t, out), .arg = "OUT.svg", .flags = CZ_OPT_REQUIRED,
      .help = "the Gantt chart" },
    CHART_OPTS,
};
static const cz_opt_rule SVG_RULES[] = { CZ_RULE(TOGETHER, "from", "to") };
static const cz_opts_spec SVG_SPEC = {
    .cmd = "cuzk timeline svg",
    .usage =
        "usage: cuzk timeline svg LOG -o OUT.svg [--from S] [--to S] [--px-per-s P] [--title T]\n",
    .about = "  The Gantt chart alone, of the whole log or a time window.\n" TIMELINE_ABOUT,
    CZ_OPTS(SVG_OPTS),
    CZ_RULES(SVG_RULES),
    .args = "LOG",
    .min_args = 1,
    .max_args = 1,
};

/* The window, when given, in order (the table has both ends or neither). */
static int window_check(const cz_opts_spec *spec, const cz_opts_result_t *r, tl_opts_t *o)
{
    o->chart.window = cz_opts_given(spec, r, "from");
    if (o->chart.window && !(o->chart.from_s < o->chart.to_s))
        return cz_opts_error(spec, "--from must be before --to");
    return CZ_OPTS_RUN;
}

/* JSON string body (quotes added by the caller). */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* A ratio, or null where there is nothing to divide. */
static void json_ratio(FILE *f, double v, bool have)
{
    if (have)
        fprintf(f, "%.6f", v);
    else
        fputs("null", f);
}

static void print_json(FILE *f, const cz_timeline_report_t *r)
{
    int64_t t0, t1;
    cz_timeline_bounds(r, &t0, &t1);
    fprintf(f,
            "{\n  \"events\": %zu,\n  \"spans\": %zu,\n  \"jobs_done\": %zu,\n"
            "  \"first_ms\": %.3f,\n  \"last_ms\": %.3f,\n  \"devices\": [",
            cz_timeline_nevents(r), cz_timeline_nspans(r), cz_timeline_njobs_done(r),
            (double)t0 / 1e3, (double)t1 / 1e3);
    for (size_t i = 0; i < cz_timeline_ndevices(r); i++) {
        const cz_tl_device_t *d = cz_timeline_device(r, i);
        fprintf(f,
                "%s\n    {\"device\": %d, \"regions\": %zu, \"held_ms\": %.3f, "
                "\"gap_ms\": %.3f, \"span_ms\": %.3f, \"gaps_lt_50ms\": %zu, "
                "\"gaps_50_500ms\": %zu, \"gaps_gt_500ms\": %zu, \"efficiency\": ",
                i ? "," : "", d->device, d->regions, d->held_ms, d->gap_ms, d->span_ms,
                d->gaps[CZ_TL_GAP_LT_50MS], d->gaps[CZ_TL_GAP_50_500MS],
                d->gaps[CZ_TL_GAP_GT_500MS]);
        json_ratio(f, d->efficiency, d->regions > 0);
        fprintf(f,
                ", \"dispatch_spans\": %zu, \"dispatch_busy_ms\": %.3f, "
                "\"dispatch_gap_ms\": %.3f, \"dispatch_efficiency\": ",
                d->dispatch_spans, d->dispatch_busy_ms, d->dispatch_gap_ms);
        json_ratio(f, d->dispatch_efficiency, d->dispatch_spans > 0);
        fprintf(f, ", \"overlap_violations\": %zu}", d->overlap_violations);
    }
    fputs("\n  ],\n  \"stages\": {", f);
    for (int k = 0; k < CZ_SPAN_NKINDS; k++) {
        const cz_tl_stage_t *s = cz_timeline_stage(r, (cz_span_kind_t)k);
        fprintf(f,
                "%s\n    \"%s\": {\"count\": %zu, \"p50_ms\": %.3f, \"p90_ms\": %.3f, "
                "\"p99_ms\": %.3f, \"max_ms\": %.3f, \"mean_ms\": %.3f}",
                k ? "," : "", cz_span_kind_name((cz_span_kind_t)k), s->count, s->p50_ms, s->p90_ms,
                s->p99_ms, s->max_ms, s->mean_ms);
    }
    fprintf(f, "\n  },\n  \"overlap_violations\": %zu,\n  \"overlaps\": [",
            cz_timeline_noverlaps(r));
    for (size_t v = 0; v < cz_timeline_noverlaps(r); v++) {
        const cz_tl_overlap_t *o = cz_timeline_overlap(r, v);
        const cz_tl_span_t *a = cz_timeline_span(r, o->first), *b = cz_timeline_span(r, o->second);
        fprintf(f,
                "%s\n    {\"device\": %d, \"overlap_ms\": %.3f, "
                "\"first\": {\"job\": %llu, \"partition\": %d, \"worker\": %d, "
                "\"start_ms\": %.3f, \"end_ms\": %.3f}, "
                "\"second\": {\"job\": %llu, \"partition\": %d, \"worker\": %d, "
                "\"start_ms\": %.3f, \"end_ms\": %.3f}}",
                v ? "," : "", o->device, o->overlap_ms, (unsigned long long)a->job, a->partition,
                a->worker, (double)a->start_us / 1e3, (double)a->end_us / 1e3,
                (unsigned long long)b->job, b->partition, b->worker, (double)b->start_us / 1e3,
                (double)b->end_us / 1e3);
    }
    fprintf(f, "\n  ],\n  \"warnings\": %zu,\n  \"warning_messages\": [", cz_timeline_nwarnings(r));
    for (size_t w = 0; w < cz_timeline_nwarning_msgs(r); w++) {
        fputs(w ? ",\n    " : "\n    ", f);
        json_str(f, cz_timeline_warning(r, w));
    }
    fputs("\n  ]\n}\n", f);
}

static void print_text(FILE *f, const cz_timeline_report_t *r)
{
    int64_t t0, t1;
    cz_timeline_bounds(r, &t0, &t1);
    fprintf(f,
            "timeline: %zu events, %zu spans, %zu jobs done, %zu warnings; "
            "%.3f s .. %.3f s\n",
            cz_timeline_nevents(r), cz_timeline_nspans(r), cz_timeline_njobs_done(r),
            cz_timeline_nwarnings(r), (double)t0 / 1e6, (double)t1 / 1e6);
    for (size_t i = 0; i < cz_timeline_ndevices(r); i++) {
        const cz_tl_device_t *d = cz_timeline_device(r, i);
        fprintf(f,
                "\ndevice %d\n  regions %zu, held %.3f ms, gaps %.3f ms over a span of %.3f ms\n"
                "  gaps: <50 ms %zu, 50-500 ms %zu, >500 ms %zu\n",
                d->device, d->regions, d->held_ms, d->gap_ms, d->span_ms,
                d->gaps[CZ_TL_GAP_LT_50MS], d->gaps[CZ_TL_GAP_50_500MS],
                d->gaps[CZ_TL_GAP_GT_500MS]);
        if (d->regions)
            fprintf(f, "  device efficiency (lock held): %.2f %%\n", 100 * d->efficiency);
        else
            fprintf(f, "  device efficiency (lock held): n/a (no LOCK_ACQ..LOCK_REL)\n");
        if (d->dispatch_spans)
            fprintf(f,
                    "  dispatch level (GPU_START..GPU_END, %zu spans): busy %.3f ms, "
                    "gaps %.3f ms, %.2f %%\n",
                    d->dispatch_spans, d->dispatch_busy_ms, d->dispatch_gap_ms,
                    100 * d->dispatch_efficiency);
        fprintf(f, "  overlap violations: %zu\n", d->overlap_violations);
    }
    if (cz_timeline_noverlaps(r)) {
        fputs("\nOVERLAPS (two device regions of one device held at once):\n", f);
        for (size_t v = 0; v < cz_timeline_noverlaps(r); v++) {
            const cz_tl_overlap_t *o = cz_timeline_overlap(r, v);
            const cz_tl_span_t *a = cz_timeline_span(r, o->first);
            const cz_tl_span_t *b = cz_timeline_span(r, o->second);
            fprintf(f,
                    "  device %d: job %llu partition %d w%d [%.3f-%.3f ms] and "
                    "job %llu partition %d w%d [%.3f-%.3f ms]: %.3f ms\n",
                    o->device, (unsigned long long)a->job, a->partition, a->worker,
                    (double)a->start_us / 1e3, (double)a->end_us / 1e3, (unsigned long long)b->job,
                    b->partition, b->worker, (double)b->start_us / 1e3, (double)b->end_us / 1e3,
                    o->overlap_ms);
        }
    }
    fprintf(f, "\nstage latency (ms)   %7s %10s %10s %10s %10s %10s\n", "count", "p50", "p90",
            "p99", "max", "mean");
    for (int k = 0; k < CZ_SPAN_NKINDS; k++) {
        const cz_tl_stage_t *s = cz_timeline_stage(r, (cz_span_kind_t)k);
        fprintf(f, "  %-18s %7zu %10.3f %10.3f %10.3f %10.3f %10.3f\n",
                cz_span_kind_name((cz_span_kind_t)k), s->count, s->p50_ms, s->p90_ms, s->p99_ms,
                s->max_ms, s->mean_ms);
    }
    if (cz_timeline_nwarnings(r)) {
        fprintf(f, "\nwarnings (%zu):\n", cz_timeline_nwarnings(r));
        for (size_t w = 0; w < cz_timeline_nwarning_msgs(r); w++)
            fprintf(f, "  %s\n", cz_timeline_warning(r, w));
        if (cz_timeline_nwarnings(r) > cz_timeline_nwarning_msgs(r))
            fprintf(f, "  ... and %zu more\n",
                    cz_timeline_nwarnings(r) - cz_timeline_nwarning_msgs(r));
    }
}

/* Read and analyze |log| ("-": stdin); NULL with the message printed. */
static cz_timeline_report_t *load_report(cz_ctx_t *ctx, const char *log, int *exit_code)
{
    cz_timeline_report_t *r;
    int rc = !strcmp(log, "-") ? cz_timeline_analyze_stream(ctx, stdin, &r)
                               : cz_timeline_analyze_file(ctx, log, &r);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk %s\n", cz_ctx_message(ctx));
        *exit_code = rc == CZ_EIO ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
        return NULL;
    }
    return r;
}

static int timeline_analyze(int argc, char **argv)
{
    tl_opts_t o;
    cz_opts_result_t res = { 0 };
    int go = cz_opts_parse(&ANALYZE_SPEC, &o, argc, argv, &res);
    if (go == CZ_OPTS_RUN)
        go = window_check(&ANALYZE_SPEC, &res, &o);
    if (go != CZ_OPTS_RUN)
        return go;
    const char *log = res.args[0], *svg = o.svg;
    bool json = o.json;
    cz_tl_svg_opts_t opts = o.chart;

    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK) {
        fprintf(stderr, "cuzk timeline: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    int exit_code = CZ_EXIT_OK;
    cz_timeline_report_t *r = load_report(ctx, log, &exit_code);
    if (!r) {
        cz_ctx_free(ctx);
        return exit_code;
    }
    if (json)
        print_json(stdout, r);
    else
        print_text(stdout, r);

    exit_code = cz_timeline_noverlaps(r) ? CZ_EXIT_FAIL : CZ_EXIT_OK;
    if (svg) {
        if (!opts.title)
            opts.title = strcmp(log, "-") ? log : "(stdin)";
        size_t bars;
        if (cz_timeline_svg_file(ctx, r, &opts, svg, &bars) != CZ_OK) {
            fprintf(stderr, "cuzk %s\n", cz_ctx_message(ctx));
            exit_code = CZ_EXIT_FAIL;
        } else if (!json) {
            printf("\nsvg: %s (%zu bars)\n", svg, bars);
        }
    }
    cz_timeline_report_free(r);
    cz_ctx_free(ctx);
    return exit_code;
}

static int timeline_svg(int argc, char **argv)
{
    tl_opts_t o;
    cz_opts_result_t res = { 0 };
    int go = cz_opts_parse(&SVG_SPEC, &o, argc, argv, &res);
    if (go == CZ_OPTS_RUN)
        go = window_check(&SVG_SPEC, &res, &o);
    if (go != CZ_OPTS_RUN)
        return go;
    const char *log = res.args[0], *out = o.out;
    cz_tl_svg_opts_t opts = o.chart;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK) {
        fprintf(stderr, "cuzk timeline: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    int exit_code = CZ_EXIT_OK;
    cz_timeline_report_t *r = load_report(ctx, log, &exit_code);
    if (r) {
        if (!opts.title)
            opts.title = strcmp(log, "-") ? log : "(stdin)";
        size_t bars = 0;
        if (cz_timeline_svg_file(ctx, r, &opts, out, &bars) != CZ_OK) {
            fprintf(stderr, "cuzk %s\n", cz_ctx_message(ctx));
            exit_code = CZ_EXIT_FAIL;
        } else if (opts.window) {
            printf("svg: %s (%zu bars in %.3f-%.3f s)\n", out, bars, opts.from_s, opts.to_s);
        } else {
            printf("svg: %s (%zu bars)\n", out, bars);
        }
        cz_timeline_report_free(r);
    }
    cz_ctx_free(ctx);
    return exit_code;
}

int cmd_timeline(int argc, char **argv)
{
    static const cz_cli_command sub[] = {
        { "analyze", timeline_analyze, "device efficiency, gaps, overlaps, stage percentiles" },
        { "svg", timeline_svg, "the Gantt chart alone, of the whole log or a window" },
    };
    return cz_cli_dispatch("cuzk timeline", sub, sizeof sub / sizeof sub[0],
                           "usage: cuzk timeline analyze|svg LOG ...   "
                           "(cuzk timeline analyze --help, cuzk timeline svg --help)",
                           argc, argv);
}
