/*
 * tests/backend/test_windows.c — a vector streamed in windows and the next
 * vector's first window copied ahead (backend/windows.h), without a GPU.
 *
 * The copier is a fake that behaves as the device's: a put only enqueues
 * (nothing lands until a wait for its slot, which lands every copy enqueued
 * up to the slot's last, in order), so a window consumed before its wait
 * holds stale bytes and the check sees it. Points are 8-byte words naming
 * their vector and index. Checked: every point is consumed once, in order,
 * with the right bytes; no copy is in flight into a buffer while it is
 * consumed; nothing is in flight when a run returns except the copy it
 * records as ahead; the next run starts on that copy and does not copy
 * window 0 again; a run of another vector, settle and errors land it first;
 * a vector that asks for a lead (lead_div) starts on a short window 0 unless
 * that window was copied ahead (whole) or is filled; a failed copy, wait,
 * fill or consume ends the run there, from a copy ahead too.
 */
#include <stdint.h>
#include <string.h>

#include "backend/windows.h"
#include "cz_test.h"

enum { QMAX = 64, BUF_POINTS = 10 };

typedef struct {
    void *dst;
    const void *src;
    size_t bytes;
    int slot;
} copy_op;

typedef struct {
    copy_op q[QMAX]; /* enqueued, not landed */
    int nq;
    unsigned puts, waits;
    unsigned fail_put;  /* the put with this number (1-based) fails; 0: none */
    unsigned fail_wait; /* the wait with this number fails, landing nothing; 0: none */
} fake_copier;

static int fake_put(cz_ctx_t *ctx, void *obj, int slot, void *dst, const void *src, size_t bytes)
{
    fake_copier *f = obj;
    if (++f->puts == f->fail_put || f->nq == QMAX)
        return cz_fail(ctx, CZ_EDEVICE, "fake copier: put %u fails", f->puts);
    f->q[f->nq++] = (copy_op){ dst, src, bytes, slot };
    return CZ_OK;
}

static int fake_wait(cz_ctx_t *ctx, void *obj, int slot)
{
    fake_copier *f = obj;
    if (++f->waits == f->fail_wait)
        return cz_fail(ctx, CZ_EDEVICE, "fake copier: wait %u fails", f->waits);
    int last = -1;
    for (int i = 0; i < f->nq; i++)
        if (f->q[i].slot == slot)
            last = i;
    for (int i = 0; i <= last; i++)
        memcpy(f->q[i].dst, f->q[i].src, f->q[i].bytes);
    memmove(f->q, f->q + last + 1, (size_t)(f->nq - last - 1) * sizeof f->q[0]);
    f->nq -= last + 1;
    return CZ_OK;
}

/* A vector's points: word i of vector |id| is id << 32 | i. */
static uint64_t *points(uint64_t id, size_t n)
{
    uint64_t *p = malloc((n ? n : 1) * sizeof *p);
    for (size_t i = 0; i < n; i++)
        p[i] = id << 32 | i;
    return p;
}

/* What consume saw, and what it found wrong. */
typedef struct {
    fake_copier *f;
    uint64_t id;         /* the vector being consumed */
    size_t next_first;   /* the next window's first point */
    unsigned windows;    /* consumed */
    unsigned stale;      /* windows whose bytes were not the vector's */
    unsigned hazards;    /* windows with a copy in flight into their buffer */
    unsigned fail_at;    /* the consume with this number (1-based) fails; 0: none */
    size_t first_n;      /* window 0's points */
    int ahead_in_flight; /* at the last consume: copies in flight into the other buffer */
} seen;

static int consume(void *arg, const void *dev, size_t first, size_t n)
{
    seen *s = arg;
    const uint64_t *p = dev;
    if (s->windows++ == 0)
        s->first_n = n;
    if (first != s->next_first)
        s->stale++;
    for (size_t i = 0; i < n; i++)
        if (p[i] != (s->id << 32 | (first + i))) {
            s->stale++;
            break;
        }
    s->ahead_in_flight = 0;
    for (int i = 0; i < s->f->nq; i++) {
        const char *d = s->f->q[i].dst;
        if (d < (const char *)dev + n * 8 && d + s->f->q[i].bytes > (const char *)dev)
            s->hazards++;
        else
            s->ahead_in_flight++;
    }
    s->next_first = first + n;
    return s->windows == s->fail_at ? CZ_EDEVICE : CZ_OK;
}

/* A fill (no pinned copy): the window's points, at once. */
typedef struct {
    const uint64_t *src;
    unsigned fills;
    unsigned fail_at; /* the fill with this number (1-based) fails; 0: none */
} fill_src;

static int fill(void *arg, void *dev, size_t first, size_t n)
{
    fill_src *fs = arg;
    if (++fs->fills == fs->fail_at)
        return CZ_EIO; /* a params file's read, say */
    memcpy(dev, fs->src + first, n * 8);
    return CZ_OK;
}

enum { RIG_VECTORS = 4 };

/* The fake copier, its two buffers, and the vectors a case streams (freed by rig_done). */
typedef struct {
    fake_copier f;
    uint64_t buf[2][BUF_POINTS];
    cz_windows ws;
    cz_ctx_t *ctx;
    uint64_t *pts[RIG_VECTORS];
    int npts;
} rig;

static void rig_init(rig *r)
{
    memset(r, 0, sizeof *r);
    r->ws = (cz_windows){ { &r->f, fake_put, fake_wait },
                          { r->buf[0], r->buf[1] },
                          sizeof r->buf[0] };
    (void)cz_ctx_new(&r->ctx, NULL, 1);
}

static void rig_done(rig *r)
{
    for (int i = 0; i < r->npts; i++)
        free(r->pts[i]);
    cz_ctx_free(r->ctx);
}

/* Vector |id|'s n points in (fake) pinned memory, owned by the rig. */
static const uint64_t *rig_points(rig *r, uint64_t id, size_t n)
{
    return r->pts[r->npts++] = points(id, n);
}

static cz_window_vector vec(const uint64_t *pinned, size_t n, size_t head, size_t align)
{
    return (cz_window_vector){ .pinned = pinned,
                               .point_bytes = 8,
                               .n = n,
                               .head = head,
                               .align = align };
}

/* Stream |v| (id |id|) with |ahead| and |next|; the consume record in |s|. */
static int run(rig *r, uint64_t id, const cz_window_vector *v, cz_window_ahead *ahead,
               const cz_window_vector *next, seen *s, cz_window_stats *st)
{
    *s = (seen){ .f = &r->f, .id = id };
    return cz_windows_run(r->ctx, &r->ws, v, consume, s, ahead, next, st);
}

/* A case of two vectors: vector 1 (|na| points) streamed with vector 2 (|nb| points, |head|)
 * next, its window 0 left in c->ahead. rig_done(&c->r) when done. */
typedef struct {
    rig r;
    cz_window_vector va, vb;
    cz_window_ahead ahead;
    seen s;
} two_vectors;

static void stream_with_next(two_vectors *c, size_t na, size_t nb, size_t head)
{
    rig_init(&c->r);
    c->va = vec(rig_points(&c->r, 1, na), na, 0, 1);
    c->vb = vec(rig_points(&c->r, 2, nb), nb, head, 1);
    c->ahead = (cz_window_ahead){ 0 };
    CHECK_OK(run(&c->r, 1, &c->va, &c->ahead, &c->vb, &c->s, NULL));
}

CZ_TEST(every_point_is_consumed_once_in_order_with_its_bytes)
{
    /* (n, head, align): one window, several, a short last one, a head, an aligned stride */
    const size_t cases[][3] = { { 1, 0, 1 },  { 10, 0, 1 }, { 11, 0, 1 }, { 37, 0, 1 },
                                { 37, 3, 1 }, { 37, 2, 4 }, { 8, 8, 1 },  { 100, 9, 1 } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        rig r;
        rig_init(&r);
        const size_t n = cases[c][0], head = cases[c][1], align = cases[c][2];
        const cz_window_vector v = vec(rig_points(&r, 7, n), n, head, align);
        const size_t stride = cz_windows_stride(&r.ws, 8, head, align);
        seen s;
        cz_window_stats st = { 0 };
        CHECK_OK(run(&r, 7, &v, NULL, NULL, &s, &st));
        const size_t want = n <= head + stride ? 1 : 1 + (n - head - stride + stride - 1) / stride;
        CHECK_EQ_INT(s.windows, want);
        CHECK_EQ_INT(st.windows, want);
        CHECK_EQ_U64(s.next_first, n);
        CHECK_EQ_U64(st.bytes, n * 8);
        CHECK_EQ_INT(s.stale, 0);
        CHECK_EQ_INT(s.hazards, 0);
        CHECK_EQ_INT(r.f.nq, 0); /* every copy landed */
        CHECK_EQ_INT(r.f.puts, want);
        rig_done(&r);
    }
}

CZ_TEST(without_a_pinned_copy_each_window_is_filled_and_nothing_is_copied_ahead)
{
    rig r;
    rig_init(&r);
    fill_src fs = { .src = rig_points(&r, 3, 25) };
    cz_window_vector v = vec(NULL, 25, 0, 1);
    v.fill = fill;
    v.fill_arg = &fs;
    const cz_window_vector next = vec(NULL, 25, 0, 1); /* not pinned either */
    cz_window_ahead ahead = { 0 };
    seen s;
    CHECK_OK(run(&r, 3, &v, &ahead, &next, &s, NULL));
    CHECK_EQ_INT(s.windows, 3);
    CHECK_EQ_INT(fs.fills, 3);
    CHECK_EQ_INT(s.stale, 0);
    CHECK_EQ_INT(r.f.puts, 0);
    CHECK(ahead.src == NULL);
    rig_done(&r);
}

CZ_TEST(the_next_vectors_first_window_is_copied_during_the_last_and_not_again)
{
    two_vectors c;
    stream_with_next(&c, 25, 17, 3);
    CHECK_EQ_INT(c.s.windows, 3);
    CHECK_EQ_INT(c.s.stale, 0);
    CHECK_EQ_INT(c.s.hazards, 0);
    CHECK_EQ_INT(c.s.ahead_in_flight, 1); /* b's window 0, beside a's last, in the other buffer */
    REQUIRE(c.ahead.src == c.vb.pinned);
    CHECK_EQ_U64(c.ahead.bytes, BUF_POINTS * 8); /* head 3 + the stride 7 */
    CHECK_EQ_INT(c.ahead.slot, 1);               /* a's last window (2) was in slot 0 */
    CHECK_EQ_INT(c.r.f.nq, 1);
    const unsigned puts = c.r.f.puts;
    cz_window_stats sb = { 0 };
    CHECK_OK(run(&c.r, 2, &c.vb, &c.ahead, NULL, &c.s, &sb));
    CHECK_EQ_INT(c.s.windows, 2); /* 10 + 7 */
    CHECK_EQ_INT(c.s.stale, 0);
    CHECK_EQ_INT(c.s.hazards, 0);
    CHECK_EQ_INT(c.r.f.puts - puts, 1); /* window 1 only */
    CHECK_EQ_INT(sb.ahead, 1);
    CHECK_EQ_U64(sb.bytes, 17 * 8);
    CHECK(c.ahead.src == NULL);
    CHECK_EQ_INT(c.r.f.nq, 0);
    rig_done(&c.r);
}

CZ_TEST(an_aligned_stride_is_the_same_for_the_copy_ahead_and_its_run)
{
    rig r;
    rig_init(&r);
    const cz_window_vector va = vec(rig_points(&r, 1, 25), 25, 0, 1);
    const cz_window_vector vb = vec(rig_points(&r, 2, 17), 17, 3, 2); /* stride 6, not 7 */
    cz_window_ahead ahead = { 0 };
    seen s;
    CHECK_OK(run(&r, 1, &va, &ahead, &vb, &s, NULL));
    REQUIRE(ahead.src == vb.pinned);
    CHECK_EQ_U64(ahead.bytes, (3 + 6) * 8);
    cz_window_stats sb = { 0 };
    CHECK_OK(run(&r, 2, &vb, &ahead, NULL, &s, &sb));
    CHECK_EQ_INT(s.windows, 3); /* 9 + 6 + 2 */
    CHECK_EQ_INT(s.stale, 0);
    CHECK_EQ_INT(sb.ahead, 1);
    rig_done(&r);
}

CZ_TEST(single_window_vectors_chain_their_copies_ahead_through_both_buffers)
{
    rig r;
    rig_init(&r);
    cz_window_vector v[RIG_VECTORS];
    for (int i = 0; i < RIG_VECTORS; i++)
        v[i] = vec(rig_points(&r, (uint64_t)i + 10, (size_t)(4 + i)), (size_t)(4 + i), 0, 1);
    cz_window_ahead ahead = { 0 };
    unsigned found = 0;
    for (int i = 0; i < RIG_VECTORS; i++) {
        seen s;
        cz_window_stats st = { 0 };
        CHECK_OK(run(&r, (uint64_t)i + 10, &v[i], &ahead, i + 1 < RIG_VECTORS ? &v[i + 1] : NULL,
                     &s, &st));
        CHECK_EQ_INT(s.windows, 1);
        CHECK_EQ_INT(s.stale, 0);
        CHECK_EQ_INT(s.hazards, 0);
        found += st.ahead;
    }
    CHECK_EQ_INT(found, RIG_VECTORS - 1);
    CHECK_EQ_INT(r.f.puts, RIG_VECTORS); /* one copy a vector */
    CHECK(ahead.src == NULL);
    rig_done(&r);
}

/* lead_div: window 0 a fraction of a stride (aligned, at least |align|), the rest whole. */
CZ_TEST(a_lead_window_is_short_and_the_next_ones_whole)
{
    /* (n, head, align, lead_div, window 0, windows) */
    const size_t cases[][6] = { { 37, 0, 1, 4, 2, 5 },  /* 2 + 10 + 10 + 10 + 5 */
                                { 20, 3, 2, 4, 5, 4 },  /* stride 6, a lead of 1 -> align 2 */
                                { 2, 0, 1, 4, 2, 1 },   /* it all fits the lead */
                                { 37, 0, 1, 1, 10, 4 }, /* 1: no lead */
                                { 37, 0, 1, 0, 10, 4 } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        rig r;
        rig_init(&r);
        const size_t n = cases[c][0];
        cz_window_vector v = vec(rig_points(&r, 5, n), n, cases[c][1], cases[c][2]);
        v.lead_div = (unsigned)cases[c][3];
        seen s;
        cz_window_stats st = { 0 };
        CHECK_OK(run(&r, 5, &v, NULL, NULL, &s, &st));
        CHECK_EQ_U64(s.first_n, cases[c][4]);
        CHECK_EQ_INT(s.windows, cases[c][5]);
        CHECK_EQ_U64(s.next_first, n);
        CHECK_EQ_U64(st.bytes, n * 8);
        CHECK_EQ_INT(s.stale + s.hazards, 0);
        CHECK_EQ_INT(r.f.nq, 0);
        rig_done(&r);
    }
}

/* A vector copied ahead starts on its whole window 0 (what the copy ahead copied); one filled
 * window by window (no pinned copy) has no lead either: a fill is not overlapped. */
CZ_TEST(a_lead_is_not_taken_when_window_0_was_copied_ahead_or_is_filled)
{
    two_vectors c;
    stream_with_next(&c, 25, 17, 3);
    c.vb.lead_div = 4; /* (a copy ahead copies window 0 whole either way) */
    REQUIRE(c.ahead.src == c.vb.pinned);
    CHECK_EQ_U64(c.ahead.bytes, BUF_POINTS * 8); /* whole: head 3 + the stride 7 */
    cz_window_stats sb = { 0 };
    CHECK_OK(run(&c.r, 2, &c.vb, &c.ahead, NULL, &c.s, &sb));
    CHECK_EQ_INT(sb.ahead, 1);
    CHECK_EQ_U64(c.s.first_n, BUF_POINTS);
    CHECK_EQ_INT(c.s.windows, 2);
    CHECK_EQ_INT(c.s.stale + c.s.hazards, 0);

    fill_src fs = { .src = rig_points(&c.r, 3, 25) };
    cz_window_vector vf = vec(NULL, 25, 0, 1);
    vf.fill = fill;
    vf.fill_arg = &fs;
    vf.lead_div = 4;
    CHECK_OK(run(&c.r, 3, &vf, &c.ahead, NULL, &c.s, NULL));
    CHECK_EQ_U64(c.s.first_n, BUF_POINTS);
    CHECK_EQ_INT(fs.fills, 3);
    CHECK_EQ_INT(c.s.stale, 0);
    rig_done(&c.r);
}

CZ_TEST(another_vector_lands_the_copy_ahead_first_and_copies_its_own)
{
    two_vectors c;
    stream_with_next(&c, 12, 12, 0);
    REQUIRE(c.ahead.src == c.vb.pinned);
    const cz_window_vector vc = vec(rig_points(&c.r, 3, 30), 30, 0, 1);
    cz_window_stats st = { 0 };
    const unsigned puts = c.r.f.puts;
    CHECK_OK(run(&c.r, 3, &vc, &c.ahead, NULL, &c.s, &st)); /* b was canceled: c comes instead */
    CHECK_EQ_INT(c.s.windows, 3);
    CHECK_EQ_INT(c.s.stale + c.s.hazards, 0);
    CHECK_EQ_INT(st.ahead, 0);
    CHECK_EQ_INT(c.r.f.puts - puts, 3);
    CHECK(c.ahead.src == NULL);
    CHECK_EQ_INT(c.r.f.nq, 0);
    rig_done(&c.r);
}

CZ_TEST(settle_lands_the_copy_ahead_and_forgets_it)
{
    two_vectors c;
    stream_with_next(&c, 12, 12, 0);
    CHECK_EQ_INT(c.r.f.nq, 1);
    CHECK_OK(cz_windows_settle(c.r.ctx, &c.r.ws, &c.ahead));
    CHECK_EQ_INT(c.r.f.nq, 0);
    CHECK(c.ahead.src == NULL);
    CHECK_OK(cz_windows_settle(c.r.ctx, &c.r.ws, &c.ahead)); /* nothing ahead: nothing to do */
    CHECK_OK(cz_windows_settle(c.r.ctx, &c.r.ws, NULL));
    rig_done(&c.r);
}

CZ_TEST(a_failed_consume_or_copy_leaves_nothing_in_flight_and_nothing_ahead)
{
    /* a consume failing at window 0, 1, 2 (the last); a copy failing: window 0, 1, 2, ahead */
    for (unsigned k = 0; k < 7; k++) {
        rig r;
        rig_init(&r);
        if (k >= 3)
            r.f.fail_put = k - 2;
        const cz_window_vector va = vec(rig_points(&r, 1, 25), 25, 0, 1);
        const cz_window_vector vb = vec(rig_points(&r, 2, 25), 25, 0, 1);
        cz_window_ahead ahead = { 0 };
        seen s = { .f = &r.f, .id = 1, .fail_at = k < 3 ? k + 1 : 0 };
        CHECK_EQ_INT(cz_windows_run(r.ctx, &r.ws, &va, consume, &s, &ahead, &vb, NULL), CZ_EDEVICE);
        CHECK_EQ_INT(s.stale + s.hazards + r.f.nq, 0); /* nothing read early, nothing in flight */
        CHECK(ahead.src == NULL);
        rig_done(&r);
    }
}

CZ_TEST(a_head_larger_than_a_window_is_refused_naming_the_sizes)
{
    two_vectors c;
    stream_with_next(&c, 12, 40, BUF_POINTS);
    CHECK(c.ahead.src == NULL); /* b's window 0 fits no buffer: nothing copied ahead */
    CHECK_EQ_INT(run(&c.r, 2, &c.vb, &c.ahead, NULL, &c.s, NULL), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(c.r.ctx), "80 bytes") != NULL);
    CHECK_EQ_INT(c.s.windows, 0);
    CHECK_EQ_INT(c.r.f.nq, 0);
    rig_done(&c.r);
}

/* A vector described with no alignment or zero-sized points (never by the backend): refused,
 * no division by zero on the way (the lead's size divides by the alignment). */
CZ_TEST(a_vector_with_no_alignment_or_no_point_size_is_refused)
{
    rig r;
    rig_init(&r);
    cz_window_vector v = vec(rig_points(&r, 1, 20), 20, 0, 0);
    v.lead_div = 4;
    seen s;
    CHECK_EQ_INT(run(&r, 1, &v, NULL, NULL, &s, NULL), CZ_EINVAL);
    v = vec(r.pts[0], 20, 0, 1);
    v.point_bytes = 0;
    CHECK_EQ_INT(run(&r, 1, &v, NULL, NULL, &s, NULL), CZ_EINVAL);
    CHECK_EQ_INT(s.windows, 0);
    CHECK_EQ_INT(r.f.nq, 0);
    rig_done(&r);
}

/* A copy whose wait fails (the device's error) or a fill that fails (the source's) ends the
 * run with that error at that window: the windows before it were consumed whole, that one
 * never; nothing is recorded ahead. */
CZ_TEST(a_failed_wait_or_fill_ends_the_run_before_its_window_is_consumed)
{
    for (unsigned k = 1; k <= 3; k++) { /* 25 points: windows of 10, 10, 5 */
        rig r;
        rig_init(&r);
        r.f.fail_wait = k;
        const cz_window_vector va = vec(rig_points(&r, 1, 25), 25, 0, 1);
        const cz_window_vector vb = vec(rig_points(&r, 2, 25), 25, 0, 1);
        cz_window_ahead ahead = { 0 };
        seen s;
        CHECK_EQ_INT(run(&r, 1, &va, &ahead, &vb, &s, NULL), CZ_EDEVICE);
        CHECK(strstr(cz_ctx_message(r.ctx), "wait") != NULL);
        CHECK_EQ_INT(s.windows, k - 1);
        CHECK_EQ_INT(s.stale + s.hazards, 0);
        CHECK(ahead.src == NULL);
        rig_done(&r);

        rig_init(&r);
        fill_src fs = { .src = rig_points(&r, 1, 25), .fail_at = k };
        cz_window_vector vf = vec(NULL, 25, 0, 1);
        vf.fill = fill;
        vf.fill_arg = &fs;
        ahead = (cz_window_ahead){ 0 };
        CHECK_EQ_INT(run(&r, 1, &vf, &ahead, NULL, &s, NULL), CZ_EIO);
        CHECK_EQ_INT(s.windows, k - 1);
        CHECK_EQ_INT(s.stale + r.f.nq, 0);
        CHECK(ahead.src == NULL);
        rig_done(&r);
    }
}

/* A run that starts on the window copied ahead for it and fails (its first consume, or its
 * next window's copy) forgets that copy and leaves nothing in flight. */
CZ_TEST(a_run_started_on_a_copy_ahead_that_fails_leaves_nothing_ahead_or_in_flight)
{
    for (int fail_put = 0; fail_put < 2; fail_put++) {
        two_vectors c;
        stream_with_next(&c, 12, 25, 0);
        REQUIRE(c.ahead.src != NULL);
        if (fail_put)
            c.r.f.fail_put = c.r.f.puts + 1; /* b's window 1 */
        seen s = { .f = &c.r.f, .id = 2, .fail_at = fail_put ? 0 : 1 };
        CHECK_EQ_INT(cz_windows_run(c.r.ctx, &c.r.ws, &c.vb, consume, &s, &c.ahead, NULL, NULL),
                     CZ_EDEVICE);
        CHECK_EQ_INT(s.windows, fail_put ? 0 : 1);
        CHECK_EQ_INT(s.stale + s.hazards + c.r.f.nq, 0);
        CHECK(c.ahead.src == NULL);
        rig_done(&c.r);
    }
}

CZ_TEST_MAIN()
