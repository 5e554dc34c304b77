/*
 * engine/analyze.c — TIMELINE log parsing, span pairing and the figures
 * (see analyze.h for the log format, the pairing rules and the formulas).
 *
 * Parsing is one pass: each accepted line either opens a span (kept in a
 * small hash table of open starts keyed by kind/job/partition/device/worker)
 * or closes one (appended to the span array). cz_timeline_finish() reports
 * what is still open, then computes the per-device figures from the closed
 * spans: O(n log n) in the number of spans.
 */
#include "engine/analyze.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- events ----------------------------------------------------------- */

enum { ROLE_NONE, ROLE_START, ROLE_END, ROLE_ACQ, ROLE_DONE };

static const struct {
    const char *name;
    int kind;   /* cz_span_kind_t, -1 for count-only events */
    int role;
} EVENTS[] = {
    { "SYNTH_START", CZ_SPAN_SYNTH, ROLE_START },
    { "SYNTH_END", CZ_SPAN_SYNTH, ROLE_END },
    { "GPU_QUEUE", -1, ROLE_NONE },
    { "GPU_PICKUP", -1, ROLE_NONE },
    { "GPU_START", CZ_SPAN_DISPATCH, ROLE_START },
    { "GPU_END", CZ_SPAN_DISPATCH, ROLE_END },
    { "PREP_START", CZ_SPAN_PREP, ROLE_START },
    { "PREP_END", CZ_SPAN_PREP, ROLE_END },
    { "LOCK_WAIT", CZ_SPAN_LOCK_WAIT, ROLE_START },
    { "LOCK_ACQ", CZ_SPAN_DEVICE, ROLE_ACQ },   /* ends LOCK_WAIT, starts DEVICE */
    { "LOCK_REL", CZ_SPAN_DEVICE, ROLE_END },
    { "EPI_START", CZ_SPAN_EPILOGUE, ROLE_START },
    { "EPI_END", CZ_SPAN_EPILOGUE, ROLE_END },
    { "JOB_DONE", -1, ROLE_DONE },
};
#define NEVENTS (sizeof EVENTS / sizeof EVENTS[0])

/* Start / end event names per kind, for warnings. */
static const char *const START_NAME[CZ_SPAN_NKINDS] = {
    "SYNTH_START", "PREP_START", "LOCK_WAIT", "LOCK_ACQ", "EPI_START", "GPU_START"
};
static const char *const END_NAME[CZ_SPAN_NKINDS] = {
    "SYNTH_END", "PREP_END", "LOCK_ACQ", "LOCK_REL", "EPI_END", "GPU_END"
};
static const char *const KIND_NAME[CZ_SPAN_NKINDS] = {
    "synthesis", "prep", "lock_wait", "device", "epilogue", "dispatch"
};

const char *cz_span_kind_name(cz_span_kind_t kind)
{
    return (unsigned)kind < CZ_SPAN_NKINDS ? KIND_NAME[kind] : "?";
}

/* ---- the report -------------------------------------------------------- */

/* An open start, waiting for its end. used == false marks an empty slot. */
typedef struct {
    bool used;
    int8_t kind;
    uint64_t job;
    int32_t partition, device, worker, synth_worker;
    int64_t start_us;
    uint32_t line;
} open_t;

struct cz_timeline_report {
    bool finished;
    uint32_t line;                      /* lines fed so far */
    size_t nevents, njobs_done;

    cz_tl_span_t *spans;
    size_t nspans, cap_spans;

    open_t *open;                       /* linear-probing table, cap a power of 2 */
    size_t nopen, cap_open;

    cz_tl_device_t *devs;
    size_t ndevs;
    cz_tl_overlap_t *overlaps;
    size_t noverlaps, cap_overlaps;
    cz_tl_stage_t stages[CZ_SPAN_NKINDS];
    int64_t first_us, last_us;

    char *warn[CZ_TL_MAX_WARNINGS];
    size_t nwarn_msgs, nwarn;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void warn(cz_timeline_report_t *r, const char *fmt, ...)
{
    r->nwarn++;
    if (r->nwarn_msgs == CZ_TL_MAX_WARNINGS)
        return;
    char *m = malloc(192);
    if (!m)
        return;                         /* still counted */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, 192, fmt, ap);
    va_end(ap);
    r->warn[r->nwarn_msgs++] = m;
}

int cz_timeline_new(cz_timeline_report_t **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? CZ_OK : CZ_ENOMEM;
}

void cz_timeline_report_free(cz_timeline_report_t *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nwarn_msgs; i++)
        free(r->warn[i]);
    free(r->spans);
    free(r->open);
    free(r->devs);
    free(r->overlaps);
    free(r);
}

/* Grow *p (n used, *cap slots of |size| bytes) to hold one more. */
static bool grow(void *pp, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return true;
    size_t nc = *cap ? *cap * 2 : 64;
    void *np = realloc(*(void **)pp, nc * size);
    if (!np)
        return false;
    *(void **)pp = np;
    *cap = nc;
    return true;
}

/* ---- the open-start table ---------------------------------------------- */

static size_t key_hash(int kind, uint64_t job, int32_t part, int32_t dev, int32_t worker)
{
    uint64_t h = job * 0x9e3779b97f4a7c15ull;
    h ^= ((uint64_t)(uint32_t)part << 32 | (uint32_t)dev) * 0xc2b2ae3d27d4eb4full;
    h ^= ((uint64_t)(uint32_t)worker << 8 | (unsigned)kind) * 0x165667b19e3779f9ull;
    h ^= h >> 29;
    return (size_t)h;
}

static bool key_eq(const open_t *o, int kind, uint64_t job, int32_t part, int32_t dev,
                   int32_t worker)
{
    return o->kind == kind && o->job == job && o->partition == part && o->device == dev &&
           o->worker == worker;
}

/* Slot holding the key, or the empty slot where it would go. Table never full. */
static size_t open_find(const cz_timeline_report_t *r, int kind, uint64_t job, int32_t part,
                        int32_t dev, int32_t worker)
{
    size_t mask = r->cap_open - 1, i = key_hash(kind, job, part, dev, worker) & mask;
    while (r->open[i].used && !key_eq(&r->open[i], kind, job, part, dev, worker))
        i = (i + 1) & mask;
    return i;
}

static bool open_reserve(cz_timeline_report_t *r)
{
    if (r->cap_open && (r->nopen + 1) * 4 <= r->cap_open * 3)
        return true;
    size_t nc = r->cap_open ? r->cap_open * 2 : 64;
    open_t *old = r->open, *nt = calloc(nc, sizeof *nt);
    if (!nt)
        return false;
    size_t oc = r->cap_open;
    r->open = nt;
    r->cap_open = nc;
    for (size_t i = 0; i < oc; i++)
        if (old[i].used) {
            const open_t *o = &old[i];
            r->open[open_find(r, o->kind, o->job, o->partition, o->device, o->worker)] = *o;
        }
    free(old);
    return true;
}

/* Remove slot |i|, shifting later members of its probe run back. */
static void open_remove(cz_timeline_report_t *r, size_t i)
{
    size_t mask = r->cap_open - 1, j = i;
    r->open[i].used = false;
    r->nopen--;
    for (;;) {
        j = (j + 1) & mask;
        if (!r->open[j].used)
            return;
        const open_t *o = &r->open[j];
        size_t home = key_hash(o->kind, o->job, o->partition, o->device, o->worker) & mask;
        /* Move j into the hole i unless its home lies cyclically in (i, j]. */
        bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            r->open[i] = r->open[j];
            r->open[j].used = false;
            i = j;
        }
    }
}

/* ---- parsing ------------------------------------------------------------- */

/* "1234.567" -> 1234567 us: digits, optional fraction (rounded to 1 us). */
static bool parse_offset(const char *s, size_t n, int64_t *out)
{
    size_t i = 0;
    int64_t ms = 0, us = 0;
    if (n == 0 || s[0] < '0' || s[0] > '9')
        return false;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        if (ms > 1000000000000ll)       /* ~31 years: not an engine offset */
            return false;
        ms = ms * 10 + (s[i] - '0');
    }
    if (i < n && s[i] == '.') {
        int digits = 0;
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
            if (digits < 3)
                us = us * 10 + (s[i] - '0');
            else if (digits == 3 && s[i] >= '5')
                us++;                   /* round half up on the first dropped digit */
        }
        for (; digits < 3; digits++)
            us *= 10;
    }
    if (i != n)
        return false;
    *out = ms * 1000 + us;
    return true;
}

static bool parse_u64(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0 || n > 20)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

static bool parse_i32(const char *s, size_t n, int32_t *out)
{
    uint64_t v;
    if (!parse_u64(s, n, &v) || v > INT32_MAX)
        return false;
    *out = (int32_t)v;
    return true;
}

typedef struct {
    int64_t t_us;
    uint64_t job;
    int32_t partition, device, worker, synth_worker;
} event_t;

/* Read the keys we know from "k=v,k=v"; others and bad values are ignored. */
static void parse_detail(const char *s, size_t n, event_t *ev)
{
    static const struct { const char *key; size_t off; } KEYS[] = {
        { "device", offsetof(event_t, device) },
        { "worker", offsetof(event_t, worker) },
        { "partition", offsetof(event_t, partition) },
        { "synth_worker", offsetof(event_t, synth_worker) },
    };
    size_t i = 0;
    while (i < n) {
        size_t end = i;
        while (end < n && s[end] != ',')
            end++;
        const char *eq = memchr(s + i, '=', end - i);
        if (eq) {
            size_t klen = (size_t)(eq - (s + i));
            for (size_t k = 0; k < sizeof KEYS / sizeof KEYS[0]; k++)
                if (strlen(KEYS[k].key) == klen && !memcmp(KEYS[k].key, s + i, klen))
                    parse_i32(eq + 1, (size_t)(s + end - eq - 1),
                              (int32_t *)((char *)ev + KEYS[k].off));
        }
        i = end + 1;
    }
}

static int open_span(cz_timeline_report_t *r, int kind, const event_t *ev)
{
    if (!open_reserve(r))
        return CZ_ENOMEM;
    size_t i = open_find(r, kind, ev->job, ev->partition, ev->device, ev->worker);
    open_t *o = &r->open[i];
    if (o->used)
        warn(r, "line %u: %s job %llu partition %d device %d worker %d restarted "
                "before %s (start of line %u dropped)",
             r->line, START_NAME[kind], (unsigned long long)ev->job, ev->partition,
             ev->device, ev->worker, END_NAME[kind], o->line);
    else
        r->nopen++;
    *o = (open_t){ .used = true, .kind = (int8_t)kind, .job = ev->job,
                   .partition = ev->partition, .device = ev->device, .worker = ev->worker,
                   .synth_worker = ev->synth_worker, .start_us = ev->t_us, .line = r->line };
    return CZ_OK;
}

/* Close the open span of |kind| matching |ev|; |quiet| skips the missing-start warning. */
static int close_span(cz_timeline_report_t *r, int kind, const event_t *ev, bool quiet)
{
    size_t i = r->cap_open ? open_find(r, kind, ev->job, ev->partition, ev->device, ev->worker)
                           : 0;
    if (!r->cap_open || !r->open[i].used) {
        if (!quiet)
            warn(r, "line %u: %s job %llu partition %d device %d worker %d without %s",
                 r->line, END_NAME[kind], (unsigned long long)ev->job, ev->partition,
                 ev->device, ev->worker, START_NAME[kind]);
        return CZ_OK;
    }
    open_t o = r->open[i];
    open_remove(r, i);
    if (ev->t_us < o.start_us) {
        warn(r, "line %u: %s job %llu partition %d ends before its %s (line %u); dropped",
             r->line, END_NAME[kind], (unsigned long long)ev->job, ev->partition,
             START_NAME[kind], o.line);
        return CZ_OK;
    }
    if (!grow(&r->spans, r->nspans, &r->cap_spans, sizeof *r->spans))
        return CZ_ENOMEM;
    r->spans[r->nspans++] = (cz_tl_span_t){
        .kind = (cz_span_kind_t)kind, .job = o.job, .partition = o.partition,
        .device = o.device, .worker = o.worker,
        .synth_worker = o.synth_worker >= 0 ? o.synth_worker : ev->synth_worker,
        .start_us = o.start_us, .end_us = ev->t_us, .line = o.line };
    return CZ_OK;
}

int cz_timeline_feed(cz_ctx_t *ctx, cz_timeline_report_t *r, const char *s, size_t n)
{
    static const char TAG[] = "TIMELINE,";
    if (r->finished)
        return cz_fail(ctx, CZ_EINVAL, "timeline: feed after finish");
    r->line++;
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == '\r' || s[n - 1] == '\n' || s[n - 1] == ' '))
        n--;
    if (n < sizeof TAG - 1 || memcmp(s, TAG, sizeof TAG - 1) != 0)
        return CZ_OK;
    s += sizeof TAG - 1;
    n -= sizeof TAG - 1;

    /* Fields: offset, event, job, then the detail (which has commas). */
    const char *f[3];
    size_t fl[3], pos = 0;
    for (int k = 0; k < 3; k++) {
        size_t e = pos;
        while (e < n && s[e] != ',')
            e++;
        if (e == n && k < 2) {
            warn(r, "line %u: TIMELINE line with too few fields", r->line);
            return CZ_OK;
        }
        f[k] = s + pos;
        fl[k] = e - pos;
        pos = e < n ? e + 1 : n;
    }
    event_t ev = { .partition = -1, .device = -1, .worker = -1, .synth_worker = -1 };
    if (!parse_offset(f[0], fl[0], &ev.t_us)) {
        warn(r, "line %u: bad offset '%.*s'", r->line, (int)(fl[0] > 32 ? 32 : fl[0]), f[0]);
        return CZ_OK;
    }
    size_t e = 0;
    while (e < NEVENTS && !(strlen(EVENTS[e].name) == fl[1] && !memcmp(EVENTS[e].name, f[1], fl[1])))
        e++;
    if (e == NEVENTS) {
        warn(r, "line %u: unknown event '%.*s'", r->line, (int)(fl[1] > 32 ? 32 : fl[1]), f[1]);
        return CZ_OK;
    }
    if (!parse_u64(f[2], fl[2], &ev.job)) {
        warn(r, "line %u: bad job id '%.*s'", r->line, (int)(fl[2] > 32 ? 32 : fl[2]), f[2]);
        return CZ_OK;
    }
    parse_detail(s + pos, n - pos, &ev);
    r->nevents++;

    int kind = EVENTS[e].kind, rc = CZ_OK;
    if (kind >= 0 && kind != CZ_SPAN_SYNTH) {
        if (ev.device < 0)
            ev.device = 0;              /* the anchor logs one GPU, no device= */
        if (ev.worker < 0)
            ev.worker = 0;
    }
    switch (EVENTS[e].role) {
    case ROLE_START:
        rc = open_span(r, kind, &ev);
        break;
    case ROLE_END:
        rc = close_span(r, kind, &ev, false);
        break;
    case ROLE_ACQ:
        rc = close_span(r, CZ_SPAN_LOCK_WAIT, &ev, true);
        if (rc == CZ_OK)
            rc = open_span(r, CZ_SPAN_DEVICE, &ev);
        break;
    case ROLE_DONE:
        r->njobs_done++;
        break;
    default:
        break;
    }
    return rc == CZ_OK ? CZ_OK : cz_fail(ctx, rc, "timeline: out of memory at line %u", r->line);
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

static int cmp_open_line(const void *a, const void *b)
{
    const open_t *x = a, *y = b;
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
            if (!grow(&r->overlaps, r->noverlaps, &r->cap_overlaps, sizeof *r->overlaps))
                return CZ_ENOMEM;
            int64_t both = (s->end_us < max_end ? s->end_us : max_end) - s->start_us;
            r->overlaps[r->noverlaps++] = (cz_tl_overlap_t){
                .device = d->device, .first = max_i, .second = idx[k].i,
                .overlap_ms = (double)both / 1000.0 };
            d->overlap_violations++;
        } else if (k > 0) {
            int64_t g = s->start_us - max_end;
            gaps += g;
            d->gaps[g < 50000 ? CZ_TL_GAP_LT_50MS
                    : g <= 500000 ? CZ_TL_GAP_50_500MS : CZ_TL_GAP_GT_500MS]++;
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
        } else if (s->start_us > hi) {  /* a hole: close the merged interval */
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
    d->dispatch_efficiency = !n ? -1.0 : busy + gaps > 0 ? (double)busy / (double)(busy + gaps)
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
#define RANK(p) dur[((size_t)(p) * n + 99) / 100 - 1]
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

    /* Starts never ended, in log order. */
    if (r->nopen) {
        open_t *left = malloc(r->nopen * sizeof *left);
        if (!left)
            return cz_fail(ctx, CZ_ENOMEM, "timeline: out of memory");
        size_t n = 0;
        for (size_t i = 0; i < r->cap_open; i++)
            if (r->open[i].used)
                left[n++] = r->open[i];
        qsort(left, n, sizeof *left, cmp_open_line);
        for (size_t i = 0; i < n; i++)
            warn(r, "line %u: %s job %llu partition %d device %d worker %d never ended (no %s)",
                 left[i].line, START_NAME[left[i].kind], (unsigned long long)left[i].job,
                 left[i].partition, left[i].device, left[i].worker, END_NAME[left[i].kind]);
        free(left);
    }
    free(r->open);
    r->open = NULL;
    r->nopen = r->cap_open = 0;

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

int cz_timeline_analyze_buf(cz_ctx_t *ctx, const char *buf, size_t len,
                            cz_timeline_report_t **out)
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

size_t cz_timeline_ndevices(const cz_timeline_report_t *r) { return r->ndevs; }

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

size_t cz_timeline_noverlaps(const cz_timeline_report_t *r) { return r->noverlaps; }

const cz_tl_overlap_t *cz_timeline_overlap(const cz_timeline_report_t *r, size_t i)
{
    return i < r->noverlaps ? &r->overlaps[i] : NULL;
}

size_t cz_timeline_nspans(const cz_timeline_report_t *r) { return r->nspans; }

const cz_tl_span_t *cz_timeline_span(const cz_timeline_report_t *r, size_t i)
{
    return i < r->nspans ? &r->spans[i] : NULL;
}

size_t cz_timeline_nwarnings(const cz_timeline_report_t *r) { return r->nwarn; }
size_t cz_timeline_nwarning_msgs(const cz_timeline_report_t *r) { return r->nwarn_msgs; }

const char *cz_timeline_warning(const cz_timeline_report_t *r, size_t i)
{
    return i < r->nwarn_msgs ? r->warn[i] : NULL;
}

size_t cz_timeline_nevents(const cz_timeline_report_t *r) { return r->nevents; }
size_t cz_timeline_njobs_done(const cz_timeline_report_t *r) { return r->njobs_done; }

void cz_timeline_bounds(const cz_timeline_report_t *r, int64_t *first_us, int64_t *last_us)
{
    if (first_us)
        *first_us = r->first_us;
    if (last_us)
        *last_us = r->last_us;
}
