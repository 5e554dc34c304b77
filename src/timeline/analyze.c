/*
 * timeline/analyze.c — the timeline figures: per-device held time, gaps and
 * their histogram, overlap violations, the dispatch-level figure, and stage
 * percentiles, computed once from the paired spans in cz_timeline_finish()
 * (O(n log n) in the spans); plus the whole-input wrappers and accessors.
 * Parsing and pairing live in analyze_parse.c.
 */
#include "timeline/analyze_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const KIND_NAME[CZ_SPAN_NKINDS] = { "synthesis", "prep",     "lock_wait",
                                                       "device",    "epilogue", "dispatch" };

const char *cz_span_kind_name(cz_span_kind_t kind)
{
    return (unsigned)kind < CZ_SPAN_NKINDS ? KIND_NAME[kind] : "?";
}

/* ---- the figures ---------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* A span index with its sort key (qsort has no context argument). */
typedef struct {
    int64_t start_us, end_us;
    uint32_t line;
    size_t i;
} sortkey_t;

static int cmp_key(const void *a, const void *b)
{
    const sortkey_t *x = a, *y = b;
    if (x->start_us != y->start_us)
        return x->start_us < y->start_us ? -1 : 1;
    if (x->end_us != y->end_us)
        return x->end_us < y->end_us ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* Spans of |kind| on |device|, sorted by start, into idx; returns the count. */
static size_t gather(const cz_timeline_report_t *r, int kind, int32_t device, sortkey_t *idx)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nspans; i++) {
        const cz_tl_span_t *s = &r->spans[i];
        if (s->kind == (cz_span_kind_t)kind && s->device == device)
            idx[n++] = (sortkey_t){ s->start_us, s->end_us, s->line, i };
    }
    qsort(idx, n, sizeof *idx, cmp_key);
    return n;
}

static int device_regions(cz_timeline_report_t *r, cz_tl_device_t *d, sortkey_t *idx)
{
    size_t n = gather(r, CZ_SPAN_DEVICE, d->device, idx);
    int64_t held = 0, gaps = 0, max_end = 0;
    size_t max_i = 0;
    d->regions = n;
    for (size_t k = 0; k < n; k++) {
        const cz_tl_span_t *s = &r->spans[idx[k].i];
        held += s->end_us - s->start_us;
        if (k > 0 && s->start_us < max_end) {
            if (!cz__tl_grow(&r->overlaps, r->noverlaps, &r->cap_overlaps, sizeof *r->overlaps))
                return CZ_ENOMEM;
            int64_t both = (s->end_us < max_end ? s->end_us : max_end) - s->start_us;
            r->overlaps[r->noverlaps++] = (cz_tl_overlap_t){ .device = d->device,
                                                             .first = max_i,
                                                             .second = idx[k].i,
                                                             .overlap_ms = (double)both / 1000.0 };
            d->overlap_violations++;
        } else if (k > 0) {
            int64_t g = s->start_us - max_end;
            gaps += g;
            d->gaps[g < 50000     ? CZ_TL_GAP_LT_50MS
                    : g <= 500000 ? CZ_TL_GAP_50_500MS
                                  : CZ_TL_GAP_GT_500MS]++;
        }
        if (k == 0 || s->end_us > max_end) {
            max_end = s->end_us;
            max_i = idx[k].i;
        }
    }
    d->held_ms = (double)held / 1000.0;
    d->gap_ms = (double)gaps / 1000.0;
    d->span_ms = n ? (double)(max_end - idx[0].start_us) / 1000.0 : 0.0;
    d->efficiency = held + gaps > 0 ? (double)held / (double)(held + gaps) : 0.0;
    return CZ_OK;
}

static void device_dispatch(cz_timeline_report_t *r, cz_tl_device_t *d, sortkey_t *idx)
{
    size_t n = gather(r, CZ_SPAN_DISPATCH, d->device, idx);
    int64_t busy = 0, gaps = 0, lo = 0, hi = 0;
    d->dispatch_spans = n;
    for (size_t k = 0; k < n; k++) {
        const cz_tl_span_t *s = &r->spans[idx[k].i];
        if (k == 0) {
            lo = s->start_us;
            hi = s->end_us;
        } else if (s->start_us > hi) { /* a hole: close the merged interval */
            busy += hi - lo;
            gaps += s->start_us - hi;
            lo = s->start_us;
            hi = s->end_us;
        } else if (s->end_us > hi) {
            hi = s->end_us;
        }
    }
    if (n)
        busy += hi - lo;
    d->dispatch_busy_ms = (double)busy / 1000.0;
    d->dispatch_gap_ms = (double)gaps / 1000.0;
    d->dispatch_efficiency = !n                ? -1.0
                             : busy + gaps > 0 ? (double)busy / (double)(busy + gaps)
                                               : 0.0;
}

static void stage_figures(cz_timeline_report_t *r, int kind, int64_t *dur)
{
    size_t n = 0;
    int64_t sum = 0;
    for (size_t i = 0; i < r->nspans; i++)
        if (r->spans[i].kind == (cz_span_kind_t)kind) {
            dur[n] = r->spans[i].end_us - r->spans[i].start_us;
            sum += dur[n++];
        }
    cz_tl_stage_t *st = &r->stages[kind];
    st->count = n;
    if (!n)
        return;
    qsort(dur, n, sizeof *dur, cmp_i64);
    /* nearest rank: the ceil(p * n / 100)-th smallest */
#define RANK(p) dur[((size_t)(p)*n + 99) / 100 - 1]
    st->p50_ms = (double)RANK(50) / 1000.0;
    st->p90_ms = (double)RANK(90) / 1000.0;
    st->p99_ms = (double)RANK(99) / 1000.0;
#undef RANK
    st->max_ms = (double)dur[n - 1] / 1000.0;
    st->mean_ms = (double)sum / 1000.0 / (double)n;
}

int cz_timeline_finish(cz_ctx_t *ctx, cz_timeline_report_t *r)
{
    if (r->finished)
        return cz_fail(ctx, CZ_EINVAL, "timeline: finish called twice");
    r->finished = true;

    if (cz__tl_close_open(r) != CZ_OK)
        return cz_fail(ctx, CZ_ENOMEM, "timeline: out of memory");

    for (size_t i = 0; i < r->nspans; i++) {
        if (i == 0 || r->spans[i].start_us < r->first_us)
            r->first_us = r->spans[i].start_us;
        if (i == 0 || r->spans[i].end_us > r->last_us)
            r->last_us = r->spans[i].end_us;
    }

    /* Device ids: every device-side span names one (defaulted to 0). */
    size_t nsp = r->nspans ? r->nspans : 1;
    int32_t *ids = malloc(nsp * sizeof *ids);
    sortkey_t *idx = malloc(nsp * sizeof *idx);
    int64_t *dur = malloc(nsp * sizeof *dur);
    int rc = CZ_OK;
    if (!ids || !idx || !dur) {
        rc = CZ_ENOMEM;
        goto out;
    }
    size_t nid = 0;
    for (size_t i = 0; i < r->nspans; i++)
        if (r->spans[i].kind != CZ_SPAN_SYNTH && r->spans[i].device >= 0)
            ids[nid++] = r->spans[i].device;
    qsort(ids, nid, sizeof *ids, cmp_i32);
    size_t nuniq = 0;
    for (size_t i = 0; i < nid; i++)
        if (i == 0 || ids[i] != ids[i - 1])
            ids[nuniq++] = ids[i];
    r->devs = calloc(nuniq ? nuniq : 1, sizeof *r->devs);
    if (!r->devs) {
        rc = CZ_ENOMEM;
        goto out;
    }
    r->ndevs = nuniq;
    for (size_t i = 0; i < nuniq && rc == CZ_OK; i++) {
        r->devs[i].device = ids[i];
        rc = device_regions(r, &r->devs[i], idx);
        device_dispatch(r, &r->devs[i], idx);
    }
    for (int k = 0; k < CZ_SPAN_NKINDS; k++)
        stage_figures(r, k, dur);
out:
    free(ids);
    free(idx);
    free(dur);
    return rc == CZ_OK ? CZ_OK : cz_fail(ctx, rc, "timeline: out of memory");
}

/* ---- whole inputs ----------------------------------------------------------- */

int cz_timeline_analyze_buf(cz_ctx_t *ctx, const char *buf, size_t len, cz_timeline_report_t **out)
{
    cz_timeline_report_t *r;
    int rc = cz_timeline_new(&r);
    *out = NULL;
    if (rc)
        return cz_fail(ctx, rc, "timeline: out of memory");
    size_t i = 0;
    while (rc == CZ_OK && i < len) {
        const char *nl = memchr(buf + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - buf) : len;
        rc = cz_timeline_feed(ctx, r, buf + i, e - i);
        i = e + 1;
    }
    if (rc == CZ_OK)
        rc = cz_timeline_finish(ctx, r);
    if (rc) {
        cz_timeline_report_free(r);
        return rc;
    }
    *out = r;
    return CZ_OK;
}

int cz_timeline_analyze_stream(cz_ctx_t *ctx, FILE *in, cz_timeline_report_t **out)
{
    cz_timeline_report_t *r;
    int rc = cz_timeline_new(&r);
    *out = NULL;
    if (rc)
        return cz_fail(ctx, rc, "timeline: out of memory");
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while (rc == CZ_OK && (n = getline(&line, &cap, in)) >= 0)
        rc = cz_timeline_feed(ctx, r, line, (size_t)n);
    free(line);
    if (rc == CZ_OK && ferror(in))
        rc = cz_fail(ctx, CZ_EIO, "timeline: read error after line %u", r->line);
    if (rc == CZ_OK)
        rc = cz_timeline_finish(ctx, r);
    if (rc) {
        cz_timeline_report_free(r);
        return rc;
    }
    *out = r;
    return CZ_OK;
}

int cz_timeline_analyze_file(cz_ctx_t *ctx, const char *path, cz_timeline_report_t **out)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return cz_fail(ctx, CZ_EIO, "timeline: cannot open %s: %s", path, strerror(errno));
    int rc = cz_timeline_analyze_stream(ctx, f, out);
    fclose(f);
    if (rc == CZ_EIO)
        return cz_fail(ctx, CZ_EIO, "timeline: cannot read %s", path);
    return rc;
}

/* ---- accessors ----------------------------------------------------------------- */

size_t cz_timeline_ndevices(const cz_timeline_report_t *r)
{
    return r->ndevs;
}

const cz_tl_device_t *cz_timeline_device(const cz_timeline_report_t *r, size_t i)
{
    return i < r->ndevs ? &r->devs[i] : NULL;
}

const cz_tl_device_t *cz_timeline_device_by_id(const cz_timeline_report_t *r, int32_t device)
{
    for (size_t i = 0; i < r->ndevs; i++)
        if (r->devs[i].device == device)
            return &r->devs[i];
    return NULL;
}

const cz_tl_stage_t *cz_timeline_stage(const cz_timeline_report_t *r, cz_span_kind_t kind)
{
    return (unsigned)kind < CZ_SPAN_NKINDS ? &r->stages[kind] : NULL;
}

size_t cz_timeline_noverlaps(const cz_timeline_report_t *r)
{
    return r->noverlaps;
}

const cz_tl_overlap_t *cz_timeline_overlap(const cz_timeline_report_t *r, size_t i)
{
    return i < r->noverlaps ? &r->overlaps[i] : NULL;
}

size_t cz_timeline_nspans(const cz_timeline_report_t *r)
{
    return r->nspans;
}

const cz_tl_span_t *cz_timeline_span(const cz_timeline_report_t *r, size_t i)
{
    return i < r->nspans ? &r->spans[i] : NULL;
}

size_t cz_timeline_nwarnings(const cz_timeline_report_t *r)
{
    return r->nwarn;
}
size_t cz_timeline_nwarning_msgs(const cz_timeline_report_t *r)
{
    return r->nwarn_msgs;
}

const char *cz_timeline_warning(const cz_timeline_report_t *r, size_t i)
{
    return i < r->nwarn_msgs ? r->warn[i] : NULL;
}

size_t cz_timeline_nevents(const cz_timeline_report_t *r)
{
    return r->nevents;
}
size_t cz_timeline_njobs_done(const cz_timeline_report_t *r)
{
    return r->njobs_done;
}

void cz_timeline_bounds(const cz_timeline_report_t *r, int64_t *first_us, int64_t *last_us)
{
    if (first_us)
        *first_us = r->first_us;
    if (last_us)
        *last_us = r->last_us;
}
