/*
 * engine/timeline.c — buffered TIMELINE lines (see engine/timeline.h).
 */
#include "core/clock.h"
#include "core/mutex.h"
#include "engine/timeline.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct cz_timeline {
    double t0_ms; /* cz_mono_ms at creation: the timeline's origin */
    FILE *sink;
    int owns_sink;
    cz_mutex_t mu; /* protects cap, cap_len, cap_size and writes to sink */
    char *cap;
    size_t cap_len, cap_size;
    int capture;
};

static const char *const event_names[] = {
#define CZ__TL_NAME(name) #name,
    CZ_TL_EVENTS(CZ__TL_NAME)
#undef CZ__TL_NAME
};

const char *cz_tl_event_name(cz_tl_event_t ev)
{
    return ev < CZ_TL_EVENT_COUNT ? event_names[ev] : "UNKNOWN";
}

int cz_tl_new(cz_timeline_t **out, FILE *sink, int capture)
{
    cz_timeline_t *tl = calloc(1, sizeof *tl);
    *out = tl;
    if (!tl)
        return CZ_ENOMEM;
    tl->t0_ms = cz_mono_ms();
    cz_mutex_init(&tl->mu);
    tl->sink = sink;
    tl->capture = capture;
    return CZ_OK;
}

int cz_tl_open(cz_ctx_t *ctx, cz_timeline_t **out, const char *path, int capture)
{
    *out = NULL;
    FILE *f = fopen(path, "w");
    if (!f)
        return cz_fail(ctx, CZ_EIO, "timeline: cannot open %s: %s", path, strerror(errno));
    setvbuf(f, NULL, _IOFBF, 1 << 16);
    int rc = cz_tl_new(out, f, capture);
    if (rc) {
        fclose(f);
        return cz_fail(ctx, rc, "timeline: out of memory");
    }
    (*out)->owns_sink = 1;
    return CZ_OK;
}

void cz_tl_free(cz_timeline_t *tl)
{
    if (!tl)
        return;
    cz_tl_flush(tl);
    if (tl->owns_sink)
        fclose(tl->sink);
    cz_mutex_destroy(&tl->mu);
    free(tl->cap);
    free(tl);
}

double cz_tl_now_ms(const cz_timeline_t *tl)
{
    return cz_mono_ms() - tl->t0_ms;
}

/* Append |line| to the capture buffer (a failed growth drops the line); tl->mu held. */
static void append_capture(cz_timeline_t *tl, const char *line, size_t len)
{
    CZ_ASSERT(cz_mutex_held(&tl->mu));
    if (tl->cap_len + len + 1 > tl->cap_size) {
        size_t size = tl->cap_size ? tl->cap_size * 2 : 1 << 16;
        while (size < tl->cap_len + len + 1)
            size *= 2;
        char *grown = realloc(tl->cap, size);
        if (!grown)
            return; /* capture is best effort; the sink still gets the line */
        tl->cap = grown;
        tl->cap_size = size;
    }
    memcpy(tl->cap + tl->cap_len, line, len);
    tl->cap_len += len;
    tl->cap[tl->cap_len] = '\0';
}

static void vemit(cz_timeline_t *tl, double t_ms, cz_tl_event_t ev, uint64_t job_id,
                  const char *fmt, va_list ap)
{
    char line[512];
    int n = snprintf(line, sizeof line, "TIMELINE,%.3f,%s,%llu,", t_ms, cz_tl_event_name(ev),
                     (unsigned long long)job_id);
    if (n < 0 || (size_t)n >= sizeof line - 2)
        return;
    if (fmt) {
        size_t room = sizeof line - (size_t)n - 1;
        int k = vsnprintf(line + n, room, fmt, ap);
        if (k > 0)
            n += (size_t)k < room ? k : (int)room - 1;
    }
    line[n++] = '\n';
    line[n] = '\0';
    cz_mutex_lock(&tl->mu);
    if (tl->sink)
        fwrite(line, 1, (size_t)n, tl->sink);
    if (tl->capture)
        append_capture(tl, line, (size_t)n);
    cz_mutex_unlock(&tl->mu);
}

void cz_tl_emit(cz_timeline_t *tl, cz_tl_event_t ev, uint64_t job_id, const char *fmt, ...)
{
    if (!tl)
        return;
    va_list ap;
    va_start(ap, fmt);
    vemit(tl, cz_tl_now_ms(tl), ev, job_id, fmt, ap);
    va_end(ap);
}

void cz_tl_emit_at(cz_timeline_t *tl, double t_ms, cz_tl_event_t ev, uint64_t job_id,
                   const char *fmt, ...)
{
    if (!tl)
        return;
    va_list ap;
    va_start(ap, fmt);
    vemit(tl, t_ms, ev, job_id, fmt, ap);
    va_end(ap);
}

char *cz_tl_captured(cz_timeline_t *tl, size_t *len)
{
    if (!tl || !tl->capture)
        return NULL;
    cz_mutex_lock(&tl->mu);
    char *copy = malloc(tl->cap_len + 1);
    if (copy) {
        if (tl->cap_len)
            memcpy(copy, tl->cap, tl->cap_len);
        copy[tl->cap_len] = '\0';
        if (len)
            *len = tl->cap_len;
    }
    cz_mutex_unlock(&tl->mu);
    return copy;
}

void cz_tl_flush(cz_timeline_t *tl)
{
    if (!tl)
        return;
    cz_mutex_lock(&tl->mu);
    if (tl->sink)
        fflush(tl->sink);
    cz_mutex_unlock(&tl->mu);
}
