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
#include "cuzk/ctx.h"
#include "engine/analyze.h"
#include "engine/svg.h"

static const char TIMELINE_USAGE[] =
    "usage: cuzk timeline analyze LOG [--json] [--svg OUT.svg [--from S] [--to S]]\n"
    "       cuzk timeline svg LOG -o OUT.svg [--from S] [--to S] [--px-per-s P] [--title T]\n"
    "  LOG          a log with TIMELINE,<offset_ms>,<event>,<job_id>,<detail> lines ('-': stdin)\n"
    "  --json       machine-readable report\n"
    "  --svg F, -o F  a Gantt chart: one lane per device worker and synthesis worker, each\n"
    "               bar titled (hover) and, when wide enough, labelled with job and partition\n"
    "  --from S, --to S  only the spans in this window (seconds on the log's clock), clipped\n"
    "               to it: zoom into a long run\n"
    "  --px-per-s P horizontal scale (default: the median bar about 64 px, plot <= 16000 px)\n"
    "exit: 0 ok, 1 device regions overlap (analyze), 2 usage error or unreadable log\n";

/* The chart's options from --from/--to/--px-per-s/--title at argv[*i]; false
 * when argv[*i] is none of them, *bad when its value is missing or junk. */
static bool svg_option(int argc, char **argv, int *i, cz_tl_svg_opts_t *o, bool *bad)
{
    const char *a = argv[*i];
    bool from = !strcmp(a, "--from"), to = !strcmp(a, "--to"), pps = !strcmp(a, "--px-per-s");
    bool title = !strcmp(a, "--title");
    if (!from && !to && !pps && !title)
        return false;
    if (*i + 1 >= argc) {
        *bad = true;
        return true;
    }
    const char *v = argv[++*i];
    if (title) {
        o->title = v;
        return true;
    }
    char *end;
    double x = strtod(v, &end);
    if (*end || end == v || x < 0 || (pps && x <= 0)) {
        *bad = true;
        return true;
    }
    if (pps)
        o->px_per_s = x;
    else if (from)
        o->from_s = x, o->window = true;
    else
        o->to_s = x, o->window = true;
    return true;
}

/* A window needs both ends, in order; the message says what is wrong. */
static const char *window_problem(const cz_tl_svg_opts_t *o, bool have_from, bool have_to)
{
    if (!o->window)
        return NULL;
    if (!have_from || !have_to)
        return "a window needs both --from S and --to S";
    if (!(o->from_s < o->to_s))
        return "--from must be before --to";
    return NULL;
}

static int usage_error(const char *why)
{
    if (why)
        fprintf(stderr, "cuzk timeline: %s\n", why);
    fputs(TIMELINE_USAGE, stderr);
    return CZ_EXIT_USAGE;
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
    fprintf(f, "{\n  \"events\": %zu,\n  \"spans\": %zu,\n  \"jobs_done\": %zu,\n"
               "  \"first_ms\": %.3f,\n  \"last_ms\": %.3f,\n  \"devices\": [",
            cz_timeline_nevents(r), cz_timeline_nspans(r), cz_timeline_njobs_done(r),
            (double)t0 / 1e3, (double)t1 / 1e3);
    for (size_t i = 0; i < cz_timeline_ndevices(r); i++) {
        const cz_tl_device_t *d = cz_timeline_device(r, i);
        fprintf(f, "%s\n    {\"device\": %d, \"regions\": %zu, \"held_ms\": %.3f, "
                   "\"gap_ms\": %.3f, \"span_ms\": %.3f, \"gaps_lt_50ms\": %zu, "
                   "\"gaps_50_500ms\": %zu, \"gaps_gt_500ms\": %zu, \"efficiency\": ",
                i ? "," : "", d->device, d->regions, d->held_ms, d->gap_ms, d->span_ms,
                d->gaps[CZ_TL_GAP_LT_50MS], d->gaps[CZ_TL_GAP_50_500MS],
                d->gaps[CZ_TL_GAP_GT_500MS]);
        json_ratio(f, d->efficiency, d->regions > 0);
        fprintf(f, ", \"dispatch_spans\": %zu, \"dispatch_busy_ms\": %.3f, "
                   "\"dispatch_gap_ms\": %.3f, \"dispatch_efficiency\": ",
                d->dispatch_spans, d->dispatch_busy_ms, d->dispatch_gap_ms);
        json_ratio(f, d->dispatch_efficiency, d->dispatch_spans > 0);
        fprintf(f, ", \"overlap_violations\": %zu}", d->overlap_violations);
    }
    fputs("\n  ],\n  \"stages\": {", f);
    for (int k = 0; k < CZ_SPAN_NKINDS; k++) {
        const cz_tl_stage_t *s = cz_timeline_stage(r, (cz_span_kind_t)k);
        fprintf(f, "%s\n    \"%s\": {\"count\": %zu, \"p50_ms\": %.3f, \"p90_ms\": %.3f, "
                   "\"p99_ms\": %.3f, \"max_ms\": %.3f, \"mean_ms\": %.3f}",
                k ? "," : "", cz_span_kind_name((cz_span_kind_t)k), s->count, s->p50_ms,
                s->p90_ms, s->p99_ms, s->max_ms, s->mean_ms);
    }
    fprintf(f, "\n  },\n  \"overlap_violations\": %zu,\n  \"overlaps\": [",
            cz_timeline_noverlaps(r));
    for (size_t v = 0; v < cz_timeline_noverlaps(r); v++) {
        const cz_tl_overlap_t *o = cz_timeline_overlap(r, v);
        const cz_tl_span_t *a = cz_timeline_span(r, o->first), *b = cz_timeline_span(r, o->second);
        fprintf(f, "%s\n    {\"device\": %d, \"overlap_ms\": %.3f, "
                   "\"first\": {\"job\": %llu, \"partition\": %d, \"worker\": %d, "
                   "\"start_ms\": %.3f, \"end_ms\": %.3f}, "
                   "\"second\": {\"job\": %llu, \"partition\": %d, \"worker\": %d, "
                   "\"start_ms\": %.3f, \"end_ms\": %.3f}}",
                v ? "," : "", o->device, o->overlap_ms, (unsigned long long)a->job,
                a->partition, a->worker, (double)a->start_us / 1e3, (double)a->end_us / 1e3,
                (unsigned long long)b->job, b->partition, b->worker,
                (double)b->start_us / 1e3, (double)b->end_us / 1e3);
    }
    fprintf(f, "\n  ],\n  \"warnings\": %zu,\n  \"warning_messages\": [",
            cz_timeline_nwarnings(r));
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
    fprintf(f, "timeline: %zu events, %zu spans, %zu jobs done, %zu warnings; "
               "%.3f s .. %.3f s\n",
            cz_timeline_nevents(r), cz_timeline_nspans(r), cz_timeline_njobs_done(r),
            cz_timeline_nwarnings(r), (double)t0 / 1e6, (double)t1 / 1e6);
    for (size_t i = 0; i < cz_timeline_ndevices(r); i++) {
        const cz_tl_device_t *d = cz_timeline_device(r, i);
        fprintf(f, "\ndevice %d\n  regions %zu, held %.3f ms, gaps %.3f ms over a span of %.3f ms\n"
                   "  gaps: <50 ms %zu, 50-500 ms %zu, >500 ms %zu\n",
                d->device, d->regions, d->held_ms, d->gap_ms, d->span_ms,
                d->gaps[CZ_TL_GAP_LT_50MS], d->gaps[CZ_TL_GAP_50_500MS],
                d->gaps[CZ_TL_GAP_GT_500MS]);
        if (d->regions)
            fprintf(f, "  device efficiency (lock held): %.2f %%\n", 100 * d->efficiency);
        else
            fprintf(f, "  device efficiency (lock held): n/a (no LOCK_ACQ..LOCK_REL)\n");
        if (d->dispatch_spans)
            fprintf(f, "  dispatch level (GPU_START..GPU_END, %zu spans): busy %.3f ms, "
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
            fprintf(f, "  device %d: job %llu partition %d w%d [%.3f-%.3f ms] and "
                       "job %llu partition %d w%d [%.3f-%.3f ms]: %.3f ms\n",
                    o->device, (unsigned long long)a->job, a->partition, a->worker,
                    (double)a->start_us / 1e3, (double)a->end_us / 1e3,
                    (unsigned long long)b->job, b->partition, b->worker,
                    (double)b->start_us / 1e3, (double)b->end_us / 1e3, o->overlap_ms);
        }
    }
    fprintf(f, "\nstage latency (ms)   %7s %10s %10s %10s %10s %10s\n", "count", "p50", "p90",
            "p99", "max", "mean");
    for (int k = 0; k < CZ_SPAN_NKINDS; k++) {
        const cz_tl_stage_t *s = cz_timeline_stage(r, (cz_span_kind_t)k);
        fprintf(f, "  %-18s %7zu %10.3f %10.3f %10.3f %10.3f %10.3f\n",
                cz_span_kind_name((cz_span_kind_t)k), s->count, s->p50_ms, s->p90_ms,
                s->p99_ms, s->max_ms, s->mean_ms);
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
    const char *log = NULL, *svg = NULL;
    bool json = false, bad = false, have_from = false, have_to = false;
    cz_tl_svg_opts_t opts = { 0 };
    for (int i = 1; i < argc; i++) {
        have_from |= !strcmp(argv[i], "--from");
        have_to |= !strcmp(argv[i], "--to");
        if (svg_option(argc, argv, &i, &opts, &bad)) {
            if (bad)
                return usage_error("--from/--to/--px-per-s want a number of seconds (>= 0)");
        } else if (!strcmp(argv[i], "--json"))
            json = true;
        else if (!strcmp(argv[i], "--svg")) {
            if (++i == argc)
                return usage_error("--svg needs a file name");
            svg = argv[i];
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(TIMELINE_USAGE, stdout);
            return CZ_EXIT_OK;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return usage_error("unknown option");
        else if (log)
            return usage_error("one LOG only");
        else
            log = argv[i];
    }
    if (!log)
        return usage_error("missing LOG");
    const char *why = window_problem(&opts, have_from, have_to);
    if (why)
        return usage_error(why);
    if ((opts.window || opts.px_per_s > 0 || opts.title) && !svg)
        return usage_error("--from/--to/--px-per-s/--title shape the --svg chart: add --svg F");
    if (!cz_cli_check_output("cuzk timeline", "--svg", svg))
        return CZ_EXIT_USAGE;

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
    const char *log = NULL, *out = NULL;
    bool bad = false, have_from = false, have_to = false;
    cz_tl_svg_opts_t opts = { 0 };
    for (int i = 1; i < argc; i++) {
        have_from |= !strcmp(argv[i], "--from");
        have_to |= !strcmp(argv[i], "--to");
        if (svg_option(argc, argv, &i, &opts, &bad)) {
            if (bad)
                return usage_error("--from/--to/--px-per-s want a number of seconds (>= 0)");
        } else if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--out")) {
            if (++i == argc)
                return usage_error("-o needs a file name");
            out = argv[i];
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(TIMELINE_USAGE, stdout);
            return CZ_EXIT_OK;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error("unknown option");
        } else if (log) {
            return usage_error("one LOG only");
        } else {
            log = argv[i];
        }
    }
    if (!log || !out)
        return usage_error(!log ? "missing LOG" : "missing -o OUT.svg");
    const char *why = window_problem(&opts, have_from, have_to);
    if (why)
        return usage_error(why);
    if (!cz_cli_check_output("cuzk timeline", "-o", out))
        return CZ_EXIT_USAGE;
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
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (argc < 2)
            return usage_error(NULL);
        fputs(TIMELINE_USAGE, stdout);
        return CZ_EXIT_OK;
    }
    if (!strcmp(argv[1], "analyze"))
        return timeline_analyze(argc - 1, argv + 1);
    if (!strcmp(argv[1], "svg"))
        return timeline_svg(argc - 1, argv + 1);
    return usage_error("unknown subcommand (want: analyze, svg)");
}
