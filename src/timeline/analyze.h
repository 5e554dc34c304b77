/*
 * timeline/analyze.h — the timeline analyzer: TIMELINE log lines in, device
 * efficiency, gap histogram, overlap check and stage percentiles out.
 *
 * The engine writes one line per stage boundary (see ARCHITECTURE.md,
 * "Timeline and efficiency"):
 *
 *     TIMELINE,<offset_ms>,<event>,<job_id>,<detail>
 *
 * offset_ms is the time since engine start in ms, with up to a microsecond
 * fraction ("1234.567"); job_id an unsigned decimal; detail comma-separated
 * key=value pairs of which device, worker, partition and synth_worker are
 * read (unsigned decimals) and every other key is ignored. Lines that do not
 * start with "TIMELINE," (after optional blanks) are ignored silently, so a
 * daemon's whole stderr can be fed in; a TIMELINE line that is malformed or
 * names an unknown event becomes a warning.
 *
 * Pairing. Start and end events are matched on (span kind, job_id,
 * partition, device, worker):
 *
 *     SYNTH_START -> SYNTH_END   synthesis (lane: synth_worker=K)
 *     PREP_START  -> PREP_END    CPU prep
 *     LOCK_WAIT   -> LOCK_ACQ    waiting for the device lock
 *     LOCK_ACQ    -> LOCK_REL    the device region (lock held)
 *     EPI_START   -> EPI_END     CPU epilogue
 *     GPU_START   -> GPU_END     the anchor's dispatch-level span
 *
 * For every kind but synthesis a missing device= or worker= reads as 0 (the
 * anchor logs one GPU and omits device=); a missing key otherwise reads as
 * -1. An end without a start, a start restarted before its end and a start
 * never ended are warnings, never errors; LOCK_ACQ without a LOCK_WAIT is
 * not a warning (the wait is optional). GPU_QUEUE, GPU_PICKUP and JOB_DONE
 * are counted only.
 *
 * Per device (over its device regions sorted by start):
 *   held      = sum of region lengths;
 *   gaps      = idle time between consecutive regions (a region that starts
 *               before an earlier one ended is an overlap violation, not a
 *               gap; regions that touch are neither);
 *   histogram = gaps < 50 ms, 50 ms <= gap <= 500 ms, gap > 500 ms;
 *   efficiency = held / (held + gaps), i.e. over the busy span from the
 *               first acquire to the last release when nothing overlaps;
 *   dispatch  = the same figure for the union of GPU_START..GPU_END spans
 *               (the anchor's view, which counts lock waits as busy).
 * Stage percentiles use the nearest-rank method: pN is the smallest
 * duration d such that at least N % of the spans are <= d.
 *
 * Times are kept as integer microseconds, so sums are exact.
 *
 * Ownership: a report owns all it points to; pointers returned by the
 * accessors live until cz_timeline_report_free().
 * Thread-safety: building a report (new/feed/finish) is single-threaded; a
 * finished report is immutable and may be read from any number of threads.
 */
#ifndef CUZK_TIMELINE_ANALYZE_H
#define CUZK_TIMELINE_ANALYZE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/ctx.h"

typedef enum {
    CZ_SPAN_SYNTH,     /* SYNTH_START -> SYNTH_END */
    CZ_SPAN_PREP,      /* PREP_START  -> PREP_END */
    CZ_SPAN_LOCK_WAIT, /* LOCK_WAIT   -> LOCK_ACQ */
    CZ_SPAN_DEVICE,    /* LOCK_ACQ    -> LOCK_REL */
    CZ_SPAN_EPILOGUE,  /* EPI_START   -> EPI_END */
    CZ_SPAN_DISPATCH,  /* GPU_START   -> GPU_END */
    CZ_SPAN_NKINDS
} cz_span_kind_t;

/* One paired span. Integer fields are -1 where the log did not say. */
typedef struct {
    cz_span_kind_t kind;
    uint64_t job;
    int32_t partition, device, worker, synth_worker;
    int64_t start_us, end_us; /* offsets from engine start */
    uint32_t line;            /* line of the start event (1-based) */
} cz_tl_span_t;

/* Gap histogram buckets. */
enum { CZ_TL_GAP_LT_50MS, CZ_TL_GAP_50_500MS, CZ_TL_GAP_GT_500MS, CZ_TL_GAP_NBUCKETS };

typedef struct {
    int32_t device;
    size_t regions; /* LOCK_ACQ..LOCK_REL spans */
    double held_ms; /* sum of region lengths */
    double gap_ms;  /* sum of gaps between regions */
    double span_ms; /* first acquire .. last release */
    size_t gaps[CZ_TL_GAP_NBUCKETS];
    double efficiency;          /* held / (held + gaps); 0 without regions */
    size_t dispatch_spans;      /* GPU_START..GPU_END spans */
    double dispatch_busy_ms;    /* length of their union */
    double dispatch_gap_ms;     /* holes in the union */
    double dispatch_efficiency; /* busy / (busy + gaps); -1 without spans */
    size_t overlap_violations;
} cz_tl_device_t;

typedef struct {
    size_t count; /* 0: the other fields are 0 */
    double p50_ms, p90_ms, p99_ms, max_ms, mean_ms;
} cz_tl_stage_t;

/* Region |second| started before region |first| (an earlier one) ended. */
typedef struct {
    int32_t device;
    size_t first, second; /* span indices (cz_timeline_span) */
    double overlap_ms;    /* how long both were held */
} cz_tl_overlap_t;

typedef struct cz_timeline_report cz_timeline_report_t;

/* At most this many warning messages are kept (all are counted). */
#define CZ_TL_MAX_WARNINGS 64

/* ---- building -------------------------------------------------------- */

/* Parse a whole file / stream / buffer into a finished report (*out; NULL
 * on error). Errors: CZ_EIO (cannot open/read, message names the path),
 * CZ_ENOMEM. Malformed lines are warnings, not errors. */
int cz_timeline_analyze_file(cz_ctx_t *ctx, const char *path, cz_timeline_report_t **out);
int cz_timeline_analyze_stream(cz_ctx_t *ctx, FILE *in, cz_timeline_report_t **out);
int cz_timeline_analyze_buf(cz_ctx_t *ctx, const char *buf, size_t len, cz_timeline_report_t **out);

/* Incremental use (e.g. an in-process bench): new, feed lines, finish once.
 * feed takes one line without its newline (a trailing '\r' is dropped); it
 * returns CZ_ENOMEM, CZ_EINVAL after finish, else CZ_OK. finish pairs up
 * what is left open (warnings) and computes the figures; the accessors
 * below may only be used on a finished report. */
int cz_timeline_new(cz_timeline_report_t **out);
int cz_timeline_feed(cz_ctx_t *ctx, cz_timeline_report_t *r, const char *line, size_t len);
int cz_timeline_finish(cz_ctx_t *ctx, cz_timeline_report_t *r);
/* NULL is a harmless no-op. */
void cz_timeline_report_free(cz_timeline_report_t *r);

/* ---- reading a finished report ---------------------------------------- */

/* Devices seen in any device-side span, sorted by id. NULL out of range. */
size_t cz_timeline_ndevices(const cz_timeline_report_t *r);
const cz_tl_device_t *cz_timeline_device(const cz_timeline_report_t *r, size_t i);
/* The entry for device id |device|; NULL if the log never named it. */
const cz_tl_device_t *cz_timeline_device_by_id(const cz_timeline_report_t *r, int32_t device);

/* Latency figures of one span kind, over all devices. Never NULL for a
 * valid kind. */
const cz_tl_stage_t *cz_timeline_stage(const cz_timeline_report_t *r, cz_span_kind_t kind);
/* "synthesis", "prep", "lock_wait", "device", "epilogue", "dispatch". */
const char *cz_span_kind_name(cz_span_kind_t kind);

/* Every overlap violation, all devices (sum of overlap_violations). */
size_t cz_timeline_noverlaps(const cz_timeline_report_t *r);
const cz_tl_overlap_t *cz_timeline_overlap(const cz_timeline_report_t *r, size_t i);

/* Paired spans in the order their end events appeared. */
size_t cz_timeline_nspans(const cz_timeline_report_t *r);
const cz_tl_span_t *cz_timeline_span(const cz_timeline_report_t *r, size_t i);

/* Warnings: the total count, and the first CZ_TL_MAX_WARNINGS messages
 * ("line 12: LOCK_REL job 7 ... without LOCK_ACQ"). */
size_t cz_timeline_nwarnings(const cz_timeline_report_t *r);
size_t cz_timeline_nwarning_msgs(const cz_timeline_report_t *r);
const char *cz_timeline_warning(const cz_timeline_report_t *r, size_t i);

/* TIMELINE lines accepted, JOB_DONE events seen, and the earliest start /
 * latest end over all spans (both 0 without spans). */
size_t cz_timeline_nevents(const cz_timeline_report_t *r);
size_t cz_timeline_njobs_done(const cz_timeline_report_t *r);
void cz_timeline_bounds(const cz_timeline_report_t *r, int64_t *first_us, int64_t *last_us);

#endif /* CUZK_TIMELINE_ANALYZE_H */
