/*
 * timeline/svg.h — a Gantt chart of an analyzed timeline, as plain SVG text.
 *
 * Lanes, top to bottom:
 *   "devD/wW"  one per device worker seen in the log. Each has three rows:
 *              a thin top row for CPU prep (it runs beside the lock wait and
 *              the device region), a main row for lock wait, device region
 *              and epilogue, and a hairline at the bottom for the anchor's
 *              GPU_START..GPU_END dispatch span when the log has one;
 *   "synthK"   one per synthesis worker (synth_worker=K). Synthesis spans
 *              without synth_worker are packed greedily into extra lanes
 *              labelled "synth?N".
 * Every span is one <rect> with a <title> tooltip (job, partition, kind,
 * duration, start-end in s) and, where the bar is wide enough, a visible
 * "jJOB pPART" label on it; colours come from one <style> block so a file
 * with thousands of bars stays small (~130 bytes a bar).
 * A time window (from_s..to_s, seconds on the log's clock) draws only the
 * spans that intersect it, clipped to it, on an axis of the window alone:
 * the way to read a long run whose short jobs would otherwise be slivers.
 * Without a fixed scale the chart is sized so that the median span is about
 * 64 px wide, within a plot 1000-16000 px wide. Each overlap
 * violation is a translucent red band over its device's lanes, also with a
 * tooltip. The time axis is in seconds since engine start, ticks on a
 * 1-2-5 series; a legend names the colours.
 *
 * Thread-safety: reads the report only; any number may run at once.
 */
#ifndef CUZK_TIMELINE_SVG_H
#define CUZK_TIMELINE_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/ctx.h"
#include "timeline/analyze.h"

typedef struct {
    const char *title; /* heading (XML-escaped here); NULL: "cuzk timeline" */
    double px_per_s;   /* horizontal scale; 0: automatic (see above) */
    bool window;       /* draw only from_s .. to_s (from_s < to_s; else CZ_EINVAL) */
    double from_s, to_s;
} cz_tl_svg_opts_t;

/*
 * Write the chart of finished report |r| to |out|. |opts| may be NULL.
 * *nbars (if not NULL) receives the number of span bars drawn (one per
 * span; overlap bands, legend swatches and the background are not bars).
 * Returns CZ_OK, CZ_EINVAL (an empty or reversed window), CZ_ENOMEM, or
 * CZ_EIO when writing failed.
 */
int cz_timeline_svg_write(cz_ctx_t *ctx, const cz_timeline_report_t *r,
                          const cz_tl_svg_opts_t *opts, FILE *out, size_t *nbars);

/* Same, into the file at |path| (created or truncated). CZ_EIO names the path. */
int cz_timeline_svg_file(cz_ctx_t *ctx, const cz_timeline_report_t *r, const cz_tl_svg_opts_t *opts,
                         const char *path, size_t *nbars);

#endif /* CUZK_TIMELINE_SVG_H */
