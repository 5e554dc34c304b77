/*
 * timeline/svg.c — the timeline Gantt chart (see svg.h for the layout).
 *
 * Two passes over the spans: the first assigns each span a lane (over the
 * whole log, so lanes keep their places from one window to the next), the
 * second writes one <rect> per span in the window. Coordinates are printed
 * with one decimal.
 */
#include "timeline/svg.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Geometry, in px. */
#define LEFT 96 /* lane labels */
#define RIGHT 24
#define TOP 58  /* heading and legend */
#define AXIS 30 /* tick labels below the lanes */
#define LANE_H 22
#define LANE_GAP 4

enum { LANE_DEV, LANE_SYNTH, LANE_PACKED };

typedef struct {
    int type;
    int32_t a, b; /* device/worker, synth worker, or packed index */
} lane_t;

/* CSS class, fill and legend label per span kind. */
static const struct {
    const char *cls, *fill, *label;
} KIND_STYLE[CZ_SPAN_NKINDS] = {
    [CZ_SPAN_SYNTH] = { "s", "#8d99a6", "synthesis" },
    [CZ_SPAN_PREP] = { "p", "#7fb3e6", "prep (CPU)" },
    [CZ_SPAN_LOCK_WAIT] = { "w", "#f2c14e", "lock wait" },
    [CZ_SPAN_DEVICE] = { "d", "#2e8b3e", "device region (lock held)" },
    [CZ_SPAN_EPILOGUE] = { "e", "#9c6ade", "epilogue (CPU)" },
    [CZ_SPAN_DISPATCH] = { "g", "#d35400", "GPU_START..GPU_END" },
};

static int cmp_lane(const void *x, const void *y)
{
    const lane_t *a = x, *b = y;
    if (a->type != b->type)
        return a->type - b->type;
    if (a->a != b->a)
        return (a->a > b->a) - (a->a < b->a);
    return (a->b > b->b) - (a->b < b->b);
}

static lane_t span_lane(const cz_tl_span_t *s)
{
    if (s->kind == CZ_SPAN_SYNTH)
        return (lane_t){ LANE_SYNTH, s->synth_worker, 0 };
    return (lane_t){ LANE_DEV, s->device, s->worker };
}

typedef struct {
    size_t i;
    int64_t start_us;
} packed_t;

static int cmp_packed(const void *x, const void *y)
{
    const packed_t *a = x, *b = y;
    if (a->start_us != b->start_us)
        return a->start_us < b->start_us ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/*
 * Lanes: the sorted unique lanes of the spans, then the packed synthesis
 * lanes; lane_of[i] is span i's lane. Returns the lane count or 0 on ENOMEM
 * (with no spans there are no lanes and lane_of is unused).
 */
static size_t assign_lanes(const cz_timeline_report_t *r, lane_t **lanes_out, size_t *lane_of)
{
    size_t n = cz_timeline_nspans(r), nl = 0, npk = 0;
    lane_t *lanes = malloc((2 * n + 1) * sizeof *lanes);
    packed_t *pk = malloc((n + 1) * sizeof *pk);
    int64_t *pk_end = malloc((n + 1) * sizeof *pk_end);
    if (!lanes || !pk || !pk_end) {
        free(lanes);
        free(pk);
        free(pk_end);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        const cz_tl_span_t *s = cz_timeline_span(r, i);
        if (s->kind == CZ_SPAN_SYNTH && s->synth_worker < 0)
            pk[npk++] = (packed_t){ i, s->start_us };
        else
            lanes[nl++] = span_lane(s);
    }
    qsort(lanes, nl, sizeof *lanes, cmp_lane);
    size_t nu = 0;
    for (size_t i = 0; i < nl; i++)
        if (nu == 0 || cmp_lane(&lanes[i], &lanes[nu - 1]) != 0)
            lanes[nu++] = lanes[i];
    for (size_t i = 0; i < n; i++) {
        const cz_tl_span_t *s = cz_timeline_span(r, i);
        if (s->kind == CZ_SPAN_SYNTH && s->synth_worker < 0)
            continue;
        lane_t key = span_lane(s);
        const lane_t *hit = bsearch(&key, lanes, nu, sizeof *lanes, cmp_lane);
        lane_of[i] = (size_t)(hit - lanes);
    }
    /* Interval partitioning: first packed lane free at the span's start. */
    qsort(pk, npk, sizeof *pk, cmp_packed);
    size_t npl = 0;
    for (size_t k = 0; k < npk; k++) {
        const cz_tl_span_t *s = cz_timeline_span(r, pk[k].i);
        size_t l = 0;
        while (l < npl && pk_end[l] > s->start_us)
            l++;
        if (l == npl) {
            lanes[nu + npl] = (lane_t){ LANE_PACKED, (int32_t)npl, 0 };
            npl++;
        }
        pk_end[l] = s->end_us;
        lane_of[pk[k].i] = nu + l;
    }
    free(pk);
    free(pk_end);
    *lanes_out = lanes;
    return nu + npl;
}

/* ---- window and scale ------------------------------------------------------- */

typedef struct {
    int64_t lo_us, hi_us; /* what is drawn: spans intersecting [lo, hi], clipped */
} window_t;

static bool span_in(const window_t *w, const cz_tl_span_t *s)
{
    if (s->end_us == s->start_us) /* an instant: inside, bounds included */
        return s->start_us >= w->lo_us && s->start_us <= w->hi_us;
    return s->end_us > w->lo_us && s->start_us < w->hi_us;
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/*
 * Pixels per second when the caller fixes none: the median drawn span
 * about MEDIAN_PX wide, so that a long run of short jobs is not slivers,
 * with the plot kept within MIN_PLOT..MAX_PLOT px (a browser still renders
 * 16000 px; the window is how to zoom further).
 */
#define MEDIAN_PX 64.0
#define MIN_PLOT 1000.0
#define MAX_PLOT 16000.0

static double auto_scale(const cz_timeline_report_t *r, const window_t *w, double dur_s)
{
    size_t n = cz_timeline_nspans(r), m = 0;
    int64_t *len = malloc((n + 1) * sizeof *len);
    double pps = 40.0;
    if (len) {
        for (size_t i = 0; i < n; i++) {
            const cz_tl_span_t *s = cz_timeline_span(r, i);
            if (span_in(w, s) && s->end_us > s->start_us)
                len[m++] = s->end_us - s->start_us;
        }
        if (m) {
            qsort(len, m, sizeof *len, cmp_i64);
            pps = MEDIAN_PX / ((double)len[m / 2] / 1e6);
        }
        free(len);
    }
    if (dur_s * pps < MIN_PLOT)
        pps = MIN_PLOT / dur_s;
    if (dur_s * pps > MAX_PLOT)
        pps = MAX_PLOT / dur_s;
    return pps;
}

/* Tick step in seconds: the first of 1-2-5 x 10^k at least |min_px| apart. */
static double tick_step(double px_per_s, double min_px)
{
    double step = 1e-3;
    for (int k = 0; step * px_per_s < min_px && k < 60; k++)
        step *= (k % 3 == 1) ? 2.5 : 2.0; /* 1, 2, 5, 10, 20, 50, ... */
    return step;
}

/* The axis is exactly the window when there is one. */
static bool win_axis(const cz_tl_svg_opts_t *opts)
{
    return opts && opts->window;
}

/*
 * "jJOB pPART" ("jJOB" when the log names no partition) on a bar of the main or synthesis row when it fits (about
 * 5.5 px a character at font-size 9); the prep row and the dispatch
 * hairline are too thin for text.
 */
static void put_bar_label(FILE *f, const cz_tl_span_t *s, double x, double w, double y, double h)
{
    if (s->kind == CZ_SPAN_PREP || s->kind == CZ_SPAN_DISPATCH)
        return;
    char label[48];
    int n = s->partition >= 0 ? snprintf(label, sizeof label, "j%llu p%d",
                                         (unsigned long long)s->job, s->partition)
                              : snprintf(label, sizeof label, "j%llu", (unsigned long long)s->job);
    if (n <= 0 || w < 5.5 * n + 6)
        return;
    fprintf(f, "<text class=\"bl\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", x + 3, y + h / 2 + 3, label);
}

static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

int cz_timeline_svg_write(cz_ctx_t *ctx, const cz_timeline_report_t *r,
                          const cz_tl_svg_opts_t *opts, FILE *out, size_t *nbars)
{
    size_t n = cz_timeline_nspans(r);
    size_t *lane_of = malloc((n + 1) * sizeof *lane_of);
    lane_t *lanes = NULL;
    size_t nl = 0;
    if (!lane_of || (n && (nl = assign_lanes(r, &lanes, lane_of)) == 0)) {
        free(lane_of);
        return cz_fail(ctx, CZ_ENOMEM, "timeline svg: out of memory");
    }

    int64_t first_us, last_us;
    cz_timeline_bounds(r, &first_us, &last_us);
    if (opts && opts->window) {
        if (!(opts->from_s < opts->to_s) || opts->from_s < 0) {
            free(lane_of);
            free(lanes);
            return cz_fail(ctx, CZ_EINVAL,
                           "timeline svg: window %.3f..%.3f s is empty or "
                           "reversed (want 0 <= from < to)",
                           opts->from_s, opts->to_s);
        }
        first_us = (int64_t)llround(opts->from_s * 1e6);
        last_us = (int64_t)llround(opts->to_s * 1e6);
    }
    const window_t win = { first_us, last_us };
    double dur_s = (double)(last_us - first_us) / 1e6;
    if (dur_s < 1e-3)
        dur_s = 1e-3;
    double pps = opts && opts->px_per_s > 0 ? opts->px_per_s : auto_scale(r, &win, dur_s);
    double step = tick_step(pps, 70);
    /* the axis: the whole log rounded out to ticks; a window exactly */
    double t0 = win_axis(opts) ? opts->from_s : floor((double)first_us / 1e6 / step) * step;
    double t1 = win_axis(opts) ? opts->to_s
                               : t0 + ceil(((double)last_us / 1e6 - t0) / step - 1e-9) * step;
    if (t1 <= t0)
        t1 = t0 + step;
    double plot_w = (t1 - t0) * pps;
    double width = LEFT + plot_w + RIGHT;
    double lanes_h = (double)nl * (LANE_H + LANE_GAP);
    double height = TOP + (nl ? lanes_h : 20) + AXIS;
#define X(us) (LEFT + ((double)(us) / 1e6 - t0) * pps)
#define LANE_Y(l) (TOP + (double)(l) * (LANE_H + LANE_GAP))

    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n",
            width, height, width, height);
    fputs("<style>", out);
    for (int k = 0; k < CZ_SPAN_NKINDS; k++)
        fprintf(out, ".%s{fill:%s}", KIND_STYLE[k].cls, KIND_STYLE[k].fill);
    fputs(".s,.w,.d,.e{stroke:#fff;stroke-width:.5}.ov{fill:#e53935;fill-opacity:.35}"
          ".grid{stroke:#ddd}.lbl{fill:#333}"
          ".bl{fill:#111;font-size:9px;pointer-events:none}</style>\n",
          out);
    fputs("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n<text x=\"8\" y=\"18\" "
          "font-size=\"14\" font-weight=\"bold\">",
          out);
    put_escaped(out, opts && opts->title ? opts->title : "cuzk timeline");
    fprintf(out, "</text>\n");

    /* Legend. */
    double lx = 8;
    for (int k = 0; k < CZ_SPAN_NKINDS; k++) {
        fprintf(out,
                "<rect class=\"%s\" x=\"%.1f\" y=\"30\" width=\"12\" height=\"10\"/>"
                "<text x=\"%.1f\" y=\"39\">%s</text>\n",
                KIND_STYLE[k].cls, lx, lx + 16, KIND_STYLE[k].label);
        lx += 24 + 6.5 * (double)strlen(KIND_STYLE[k].label);
    }
    fprintf(out,
            "<rect class=\"ov\" x=\"%.1f\" y=\"30\" width=\"12\" height=\"10\"/>"
            "<text x=\"%.1f\" y=\"39\">overlap violation</text>\n",
            lx, lx + 16);

    /* Grid and axis ticks (seconds). */
    int decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3;
    for (double t = ceil(t0 / step - 1e-9) * step; t <= t1 + step * 1e-6; t += step) {
        double x = LEFT + (t - t0) * pps;
        fprintf(out,
                "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.*f</text>\n",
                x, TOP - 4, x, TOP + lanes_h, x, TOP + lanes_h + 14, decimals, t);
    }
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">time (s)</text>\n", LEFT + plot_w,
            TOP + lanes_h + 27);

    /* Lane labels. */
    for (size_t l = 0; l < nl; l++) {
        const lane_t *ln = &lanes[l];
        double y = LANE_Y(l) + LANE_H / 2.0 + 4;
        if (ln->type == LANE_DEV)
            fprintf(out, "<text class=\"lbl\" x=\"8\" y=\"%.1f\">dev%d/w%d</text>\n", y, ln->a,
                    ln->b);
        else
            fprintf(out, "<text class=\"lbl\" x=\"8\" y=\"%.1f\">synth%s%d</text>\n", y,
                    ln->type == LANE_PACKED ? "?" : "", ln->a);
    }
    if (!nl)
        fprintf(out, "<text x=\"%d\" y=\"%d\">no spans in the log</text>\n", LEFT, TOP + 14);

    /* Bars: prep top row, dispatch hairline, the rest in the main row. */
    size_t drawn = 0;
    for (size_t i = 0; i < n; i++) {
        const cz_tl_span_t *s = cz_timeline_span(r, i);
        if (!span_in(&win, s))
            continue;
        drawn++;
        double y = LANE_Y(lane_of[i]), h;
        if (s->kind == CZ_SPAN_SYNTH)
            y += 3, h = LANE_H - 6;
        else if (s->kind == CZ_SPAN_PREP)
            y += 1, h = 6;
        else if (s->kind == CZ_SPAN_DISPATCH)
            y += LANE_H - 3, h = 3;
        else
            y += 8, h = LANE_H - 11;
        /* clipped to the window; the title keeps the span's own times */
        double x = X(s->start_us > first_us ? s->start_us : first_us);
        double w = X(s->end_us < last_us ? s->end_us : last_us) - x;
        fprintf(out,
                "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\">"
                "<title>job %llu partition %d %s %.3f ms (%.3f-%.3f s)</title></rect>\n",
                KIND_STYLE[s->kind].cls, x, y, w < 0.3 ? 0.3 : w, h, (unsigned long long)s->job,
                s->partition, cz_span_kind_name(s->kind), (double)(s->end_us - s->start_us) / 1e3,
                (double)s->start_us / 1e6, (double)s->end_us / 1e6);
        put_bar_label(out, s, x, w, y, h);
    }

    /* Overlap bands across the device's lanes. */
    for (size_t v = 0; v < cz_timeline_noverlaps(r); v++) {
        const cz_tl_overlap_t *o = cz_timeline_overlap(r, v);
        const cz_tl_span_t *a = cz_timeline_span(r, o->first), *b = cz_timeline_span(r, o->second);
        size_t lo = nl, hi = 0;
        for (size_t l = 0; l < nl; l++)
            if (lanes[l].type == LANE_DEV && lanes[l].a == o->device) {
                lo = l < lo ? l : lo;
                hi = l;
            }
        int64_t o_end = b->start_us + (int64_t)llround(o->overlap_ms * 1e3);
        if (lo > hi || o_end <= first_us || b->start_us >= last_us)
            continue; /* no device lane, or outside the window */
        double x = X(b->start_us > first_us ? b->start_us : first_us);
        double w = X(o_end < last_us ? o_end : last_us) - x;
        fprintf(out,
                "<rect class=\"ov\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
                "<title>overlap on device %d: job %llu partition %d (w%d) and job %llu "
                "partition %d (w%d), %.3f ms</title></rect>\n",
                x, LANE_Y(lo), w < 1 ? 1 : w, LANE_Y(hi + 1) - LANE_GAP - LANE_Y(lo), o->device,
                (unsigned long long)a->job, a->partition, a->worker, (unsigned long long)b->job,
                b->partition, b->worker, o->overlap_ms);
    }
    fputs("</svg>\n", out);
#undef X
#undef LANE_Y
    free(lanes);
    free(lane_of);
    if (nbars)
        *nbars = drawn;
    if (ferror(out) || fflush(out) != 0)
        return cz_fail(ctx, CZ_EIO, "timeline svg: write failed");
    return CZ_OK;
}

int cz_timeline_svg_file(cz_ctx_t *ctx, const cz_timeline_report_t *r, const cz_tl_svg_opts_t *opts,
                         const char *path, size_t *nbars)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return cz_fail(ctx, CZ_EIO, "timeline svg: cannot create %s: %s", path, strerror(errno));
    int rc = cz_timeline_svg_write(ctx, r, opts, f, nbars);
    if (fclose(f) != 0 && rc == CZ_OK)
        rc = cz_fail(ctx, CZ_EIO, "timeline svg: cannot write %s: %s", path, strerror(errno));
    else if (rc == CZ_EIO)
        rc = cz_fail(ctx, CZ_EIO, "timeline svg: cannot write %s", path);
    return rc;
}
