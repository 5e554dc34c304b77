/*
 * timeline/analyze_parse.c — TIMELINE lines to paired spans (see analyze.h).
 *
 * One pass: each accepted line either opens a span (kept in a small
 * linear-probing hash table of open starts keyed by kind / job / partition /
 * device / worker) or closes one (appended to the report's span array).
 */
#include "timeline/analyze_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- events ----------------------------------------------------------- */

enum { ROLE_NONE, ROLE_START, ROLE_END, ROLE_ACQ, ROLE_DONE };

static const struct {
    const char *name;
    int kind; /* cz_span_kind_t, -1 for count-only events */
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
    { "LOCK_ACQ", CZ_SPAN_DEVICE, ROLE_ACQ }, /* ends LOCK_WAIT, starts DEVICE */
    { "LOCK_REL", CZ_SPAN_DEVICE, ROLE_END },
    { "EPI_START", CZ_SPAN_EPILOGUE, ROLE_START },
    { "EPI_END", CZ_SPAN_EPILOGUE, ROLE_END },
    { "JOB_DONE", -1, ROLE_DONE },
};
#define NEVENTS (sizeof EVENTS / sizeof EVENTS[0])

/* Start / end event names per kind, for warnings. */
static const char *const START_NAME[CZ_SPAN_NKINDS] = { "SYNTH_START", "PREP_START", "LOCK_WAIT",
                                                        "LOCK_ACQ",    "EPI_START",  "GPU_START" };
static const char *const END_NAME[CZ_SPAN_NKINDS] = { "SYNTH_END", "PREP_END", "LOCK_ACQ",
                                                      "LOCK_REL",  "EPI_END",  "GPU_END" };

/* ---- the report -------------------------------------------------------- */

void cz__tl_warn(cz_timeline_report_t *r, const char *fmt, ...)
{
    r->nwarn++;
    if (r->nwarn_msgs == CZ_TL_MAX_WARNINGS)
        return;
    char *m = malloc(192);
    if (!m)
        return; /* still counted */
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
bool cz__tl_grow(void *pp, size_t n, size_t *cap, size_t size)
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
        if (ms > 1000000000000ll) /* ~31 years: not an engine offset */
            return false;
        ms = ms * 10 + (s[i] - '0');
    }
    if (i < n && s[i] == '.') {
        int digits = 0;
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
            if (digits < 3)
                us = us * 10 + (s[i] - '0');
            else if (digits == 3 && s[i] >= '5')
                us++; /* round half up on the first dropped digit */
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
    static const struct {
        const char *key;
        size_t off;
    } KEYS[] = {
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
        cz__tl_warn(r,
                    "line %u: %s job %llu partition %d device %d worker %d restarted "
                    "before %s (start of line %u dropped)",
                    r->line, START_NAME[kind], (unsigned long long)ev->job, ev->partition,
                    ev->device, ev->worker, END_NAME[kind], o->line);
    else
        r->nopen++;
    *o = (open_t){ .used = true,
                   .kind = (int8_t)kind,
                   .job = ev->job,
                   .partition = ev->partition,
                   .device = ev->device,
                   .worker = ev->worker,
                   .synth_worker = ev->synth_worker,
                   .start_us = ev->t_us,
                   .line = r->line };
    return CZ_OK;
}

/* Close the open span of |kind| matching |ev|; |quiet| skips the missing-start warning. */
static int close_span(cz_timeline_report_t *r, int kind, const event_t *ev, bool quiet)
{
    size_t i = r->cap_open ? open_find(r, kind, ev->job, ev->partition, ev->device, ev->worker) : 0;
    if (!r->cap_open || !r->open[i].used) {
        if (!quiet)
            cz__tl_warn(r, "line %u: %s job %llu partition %d device %d worker %d without %s",
                        r->line, END_NAME[kind], (unsigned long long)ev->job, ev->partition,
                        ev->device, ev->worker, START_NAME[kind]);
        return CZ_OK;
    }
    open_t o = r->open[i];
    open_remove(r, i);
    if (ev->t_us < o.start_us) {
        cz__tl_warn(r,
                    "line %u: %s job %llu partition %d ends before its %s (line %u); "
                    "dropped",
                    r->line, END_NAME[kind], (unsigned long long)ev->job, ev->partition,
                    START_NAME[kind], o.line);
        return CZ_OK;
    }
    if (!cz__tl_grow(&r->spans, r->nspans, &r->cap_spans, sizeof *r->spans))
        return CZ_ENOMEM;
    r->spans[r->nspans++] = (cz_tl_span_t){ .kind = (cz_span_kind_t)kind,
                                            .job = o.job,
                                            .partition = o.partition,
                                            .device = o.device,
                                            .worker = o.worker,
                                            .synth_worker = o.synth_worker >= 0 ? o.synth_worker
                                                                                : ev->synth_worker,
                                            .start_us = o.start_us,
                                            .end_us = ev->t_us,
                                            .line = o.line };
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
            cz__tl_warn(r, "line %u: TIMELINE line with too few fields", r->line);
            return CZ_OK;
        }
        f[k] = s + pos;
        fl[k] = e - pos;
        pos = e < n ? e + 1 : n;
    }
    event_t ev = { .partition = -1, .device = -1, .worker = -1, .synth_worker = -1 };
    if (!parse_offset(f[0], fl[0], &ev.t_us)) {
        cz__tl_warn(r, "line %u: bad offset '%.*s'", r->line, (int)(fl[0] > 32 ? 32 : fl[0]), f[0]);
        return CZ_OK;
    }
    size_t e = 0;
    while (e < NEVENTS &&
           !(strlen(EVENTS[e].name) == fl[1] && !memcmp(EVENTS[e].name, f[1], fl[1])))
        e++;
    if (e == NEVENTS) {
        cz__tl_warn(r, "line %u: unknown event '%.*s'", r->line, (int)(fl[1] > 32 ? 32 : fl[1]),
                    f[1]);
        return CZ_OK;
    }
    if (!parse_u64(f[2], fl[2], &ev.job)) {
        cz__tl_warn(r, "line %u: bad job id '%.*s'", r->line, (int)(fl[2] > 32 ? 32 : fl[2]), f[2]);
        return CZ_OK;
    }
    parse_detail(s + pos, n - pos, &ev);
    r->nevents++;

    int kind = EVENTS[e].kind, rc = CZ_OK;
    if (kind >= 0 && kind != CZ_SPAN_SYNTH) {
        if (ev.device < 0)
            ev.device = 0; /* the anchor logs one GPU, no device= */
        if (ev.worker < 0)
            ev.worker = 0;
    }
    switch (EVENTS[e].role) {
    case ROLE_START: rc = open_span(r, kind, &ev); break;
    case ROLE_END: rc = close_span(r, kind, &ev, false); break;
    case ROLE_ACQ:
        rc = close_span(r, CZ_SPAN_LOCK_WAIT, &ev, true);
        if (rc == CZ_OK)
            rc = open_span(r, CZ_SPAN_DEVICE, &ev);
        break;
    case ROLE_DONE: r->njobs_done++; break;
    default: break;
    }
    return rc == CZ_OK ? CZ_OK : cz_fail(ctx, rc, "timeline: out of memory at line %u", r->line);
}

static int cmp_open_line(const void *a, const void *b)
{
    const open_t *x = a, *y = b;
    return (x->line > y->line) - (x->line < y->line);
}

int cz__tl_close_open(cz_timeline_report_t *r)
{
    /* Starts never ended, in log order. */
    if (r->nopen) {
        open_t *left = malloc(r->nopen * sizeof *left);
        if (!left)
            return CZ_ENOMEM;
        size_t n = 0;
        for (size_t i = 0; i < r->cap_open; i++)
            if (r->open[i].used)
                left[n++] = r->open[i];
        qsort(left, n, sizeof *left, cmp_open_line);
        for (size_t i = 0; i < n; i++) {
            const open_t *o = &left[i];
            cz__tl_warn(r,
                        "line %u: %s job %llu partition %d device %d worker %d never "
                        "ended (no %s)",
                        o->line, START_NAME[o->kind], (unsigned long long)o->job, o->partition,
                        o->device, o->worker, END_NAME[o->kind]);
        }
        free(left);
    }
    free(r->open);
    r->open = NULL;
    r->nopen = r->cap_open = 0;
    return CZ_OK;
}
