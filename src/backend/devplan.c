/*
 * backend/devplan.c — the device-memory plan (devplan.h).
 */
#include "backend/devplan.h"

#include <stdio.h>
#include <string.h>

/*
 * Residency order. A streamed vector costs its copy where its MSMs do not
 * hide it. The tails (L, A, B1, B2) of a PoRep partition are sparse: most
 * of their scalars are zero or one (a batch addition, bandwidth-bound), so
 * their windows' MSMs are short and the copy shows; H's MSM is dense over
 * 2^27 terms and hides its copy. So the tails stay resident first and H
 * streams first. Among the tails, G1 before G2: a G2 point is twice the
 * bytes and its MSM three times the work per point (it hides more).
 */
const int cz_devplan_residency[CZ_BASES_COUNT] = { CZ_BASES_L, CZ_BASES_A, CZ_BASES_B1, CZ_BASES_B2,
                                                   CZ_BASES_H };

static size_t all_vectors(const cz_devplan_in *in)
{
    size_t sum = 0;
    for (int k = 0; k < CZ_BASES_COUNT; k++)
        sum += in->vec_bytes[k];
    return sum;
}

static unsigned on_device_mask(const cz_devplan_in *in)
{
    unsigned m = 0;
    for (int k = 0; k < CZ_BASES_COUNT; k++)
        if (in->vec_bytes[k])
            m |= 1u << k;
    return m;
}

/* Staging slots that fit in what |p| leaves of the budget. */
static void add_slots(const cz_devplan_in *in, cz_devplan *p)
{
    while (p->slots < in->max_slots && in->slot_bytes && p->total + in->slot_bytes <= in->budget) {
        p->slots++;
        p->total += in->slot_bytes;
    }
}

/* Everything resident, the full workspace and buckets: fits or not. */
static bool plan_resident(const cz_devplan_in *in, cz_devplan *p)
{
    const size_t need = in->h_bytes + in->msm_bytes[0] + in->bucket_full + all_vectors(in);
    if (in->h_bytes == 0 || need > in->budget) /* no three-buffer H offered: not this level */
        return false;
    *p = (cz_devplan){ .level = CZ_DEVPLAN_RESIDENT,
                       .resident = on_device_mask(in),
                       .h_on_device = true,
                       .h_buffers = 3,
                       .msm_size = 0,
                       .bucket_cap = in->bucket_full,
                       .total = need };
    add_slots(in, p);
    return true;
}

/*
 * Bucket room for MSM workspace |msm| beside |fixed| bytes: up to twice the
 * least (a window size closer to the best one), never above the full
 * plan's; 0 when even the least does not fit.
 */
static size_t bucket_room(const cz_devplan_in *in, size_t fixed, int msm)
{
    const size_t base = fixed + in->msm_bytes[msm];
    if (in->msm_bytes[msm] == 0 || base + in->bucket_least > in->budget)
        return 0;
    size_t cap = in->bucket_least * 2 < in->bucket_full ? in->bucket_least * 2 : in->bucket_full;
    return base + cap <= in->budget ? cap : in->bucket_least;
}

static size_t resident_bytes(const cz_devplan_in *in, unsigned mask)
{
    size_t sum = 0;
    for (int k = 0; k < CZ_BASES_COUNT; k++)
        if (mask >> k & 1)
            sum += in->vec_bytes[k];
    return sum;
}

/* Vectors made resident in cz_devplan_residency's order while they fit; the rest stream. */
static void choose_resident(const cz_devplan_in *in, cz_devplan *p)
{
    for (int i = 0; i < CZ_BASES_COUNT; i++) {
        const int k = cz_devplan_residency[i];
        const size_t b = in->vec_bytes[k];
        if (!b)
            continue;
        if (in->min_level == CZ_DEVPLAN_RESIDENT && p->total + b <= in->budget) {
            p->resident |= 1u << k;
            p->total += b;
        } else {
            p->streamed |= 1u << k;
        }
    }
}

/*
 * A streaming plan at |level| with |fixed| bytes besides the MSM: of the
 * workspaces that fit, the one that leaves the most bytes resident (a
 * resident vector saves its copy every region; a larger workspace saves
 * far less), the larger one on a tie. False when none fits.
 */
static bool plan_streaming(const cz_devplan_in *in, cz_devplan *p, cz_devplan_level level,
                           size_t fixed, size_t window)
{
    bool found = false;
    for (int i = 0; i < CZ_DEVPLAN_MSM_SIZES; i++) {
        const size_t cap = bucket_room(in, fixed, i);
        if (!cap)
            continue;
        cz_devplan c = { .level = level,
                         .h_on_device = level == CZ_DEVPLAN_STREAM,
                         .msm_size = i,
                         .bucket_cap = cap,
                         .stream_bytes = window,
                         .own_stream_buffers = level == CZ_DEVPLAN_STREAM_HOST_H,
                         .total = fixed + in->msm_bytes[i] + cap };
        choose_resident(in, &c);
        if (!found || resident_bytes(in, c.resident) > resident_bytes(in, p->resident)) {
            *p = c;
            found = true;
        }
    }
    return found;
}

/*
 * What the plan leaves of the budget (after the slots: a slot saves a
 * region its a and b uploads, more than larger buckets save) goes to the
 * buckets, up to the full plan's: a larger window size, fewer windows of
 * the scalar. The H MSM over a 4 GiB window of 44.7M points on a 24 GB
 * card: c = 19 (14 windows, 0.69 GiB) with the 1 GiB cap, c = 20 (13
 * windows, 1.27 GiB) with the 2 GiB it left unused; msm.cu's cost model
 * picks within whatever cap it is given.
 */
static void grow_buckets(const cz_devplan_in *in, cz_devplan *p)
{
    if (p->total >= in->budget || p->bucket_cap >= in->bucket_full)
        return;
    const size_t spare = in->budget - p->total, room = in->bucket_full - p->bucket_cap;
    const size_t more = spare < room ? spare : room;
    p->bucket_cap += more;
    p->total += more;
}

/*
 * H on the device with |nbuf| domain buffers (h_bytes: 3, h2_bytes: 2),
 * streaming through its idle buffers (two of the plan's own where they
 * are too small for a window).
 */
static bool plan_stream_with(const cz_devplan_in *in, cz_devplan *p, unsigned nbuf)
{
    const size_t h_bytes = nbuf == 3 ? in->h_bytes : in->h2_bytes;
    const size_t h_window = nbuf == 3 ? in->h_buffer_bytes : in->h2_window_bytes;
    if (h_bytes == 0)
        return false;
    const bool own = h_window < in->min_window_bytes;
    const size_t window = own ? in->own_stream_bytes : h_window;
    if (window == 0 || window < in->min_window_bytes)
        return false;
    /* own buffers are held only where something streams: without them first, where every
     * vector may then be resident */
    size_t buffers = 0;
    if (!(own && plan_streaming(in, p, CZ_DEVPLAN_STREAM, h_bytes, window) && !p->streamed)) {
        buffers = own ? 2 * window : 0;
        if (!plan_streaming(in, p, CZ_DEVPLAN_STREAM, h_bytes + buffers, window))
            return false;
    }
    p->h_buffers = nbuf;
    p->own_stream_buffers = own;
    if (!p->streamed) { /* nothing streams: no windows (their buffers are not made) */
        p->total -= buffers;
        p->stream_bytes = 0;
        p->own_stream_buffers = false;
    }
    add_slots(in, p);
    grow_buckets(in, p);
    return true;
}

/* The H's three buffers where they fit (no round trip of c through the host), else two. */
static bool plan_stream(const cz_devplan_in *in, cz_devplan *p)
{
    return plan_stream_with(in, p, 3) || plan_stream_with(in, p, 2);
}

/*
 * Streaming through two buffers of the plan's own (no slots: a and b go to
 * the H from host memory). The H on the device in turn where its
 * two-buffer context alone fits: then nothing is resident (a resident
 * vector would stay beside the H context), and the plan holds the larger of
 * the two turns. Else the H on the CPU.
 */
static bool plan_stream_host_h(const cz_devplan_in *in, cz_devplan *p)
{
    if (!in->own_stream_bytes || in->own_stream_bytes < in->min_window_bytes ||
        !plan_streaming(in, p, CZ_DEVPLAN_STREAM_HOST_H, 2 * in->own_stream_bytes,
                        in->own_stream_bytes))
        return false;
    if (in->no_h_in_turn || in->h2_bytes == 0 || in->h2_bytes > in->budget)
        return true;
    p->h_in_turn = true;
    p->h_buffers = 2;
    p->total -= resident_bytes(in, p->resident);
    p->streamed |= p->resident;
    p->resident = 0;
    if (in->h2_bytes > p->total)
        p->total = in->h2_bytes;
    return true;
}

void cz_devplan_make(const cz_devplan_in *in, cz_devplan *out)
{
    const cz_devplan_level least = in->min_level;
    if ((least <= CZ_DEVPLAN_RESIDENT && plan_resident(in, out)) ||
        (least <= CZ_DEVPLAN_STREAM && plan_stream(in, out)) ||
        (least <= CZ_DEVPLAN_STREAM_HOST_H && plan_stream_host_h(in, out)))
        return;
    *out = (cz_devplan){ .level = CZ_DEVPLAN_CPU, .msm_size = -1 };
}

static const char *level_name(cz_devplan_level l)
{
    switch (l) {
    case CZ_DEVPLAN_RESIDENT: return "resident";
    case CZ_DEVPLAN_STREAM: return "stream";
    case CZ_DEVPLAN_STREAM_HOST_H: return "stream, own windows";
    default: return "cpu";
    }
}

static double gib(size_t b)
{
    return (double)b / (double)((size_t)1 << 30);
}

int cz_devplan_format(const cz_devplan *p, const cz_devplan_in *in, char *buf, size_t len)
{
    static const char *names[CZ_BASES_COUNT] = { "h", "l", "a", "b_g1", "b_g2" };
    char res[64] = "", str[64] = "";
    for (int k = 0; k < CZ_BASES_COUNT; k++) {
        char *to = (p->resident >> k & 1) ? res : (p->streamed >> k & 1) ? str : NULL;
        if (to)
            snprintf(to + strlen(to), 64 - strlen(to), "%s%s", *to ? "," : "", names[k]);
    }
    char windows[64] = "";
    if (p->streamed)
        snprintf(windows, sizeof windows, " through two %.2f GiB windows (%s)",
                 gib(p->stream_bytes), p->own_stream_buffers ? "own buffers" : "the H's buffers");
    return snprintf(buf, len,
                    "plan %s: budget %.1f GiB, holds %.1f GiB; H %s%s; msm workspace %.1f GiB, "
                    "buckets <= %.2f GiB; resident [%s]; streamed [%s]%s; %u staging slot(s)",
                    level_name(p->level), gib(in->budget), gib(p->total),
                    p->h_on_device ? "on the device"
                    : p->h_in_turn ? "on the device in turn with the MSMs"
                                   : "on the CPU",
                    p->h_buffers == 2 ? " (two buffers, c through the host)" : "",
                    p->msm_size >= 0 ? gib(in->msm_bytes[p->msm_size]) : 0.0, gib(p->bucket_cap),
                    res, str, windows, p->slots);
}
