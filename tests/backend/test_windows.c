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
 * window 0 again; a run of another vector, settle and errors land it first.
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
    unsigned fail_put; /* the put with this number (1-based) fails; 0: none */
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
    (void)ctx;
    fake_copier *f = obj;
    f->waits++;
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
    int ahead_in_flight; /* at the last consume: copies in flight into the other buffer */
} seen;

static int consume(void *arg, const void *dev, size_t first, size_t n)
{
    seen *s = arg;
    const uint64_t *p = dev;
    s->windows++;
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
} fill_src;

static int fill(void *arg, void *dev, size_t first, size_t n)
{
    fill_src *fs = arg;
    fs->fills++;
    memcpy(dev, fs->src + first, n * 8);
    return CZ_OK;
}

typedef struct {
    fake_copier f;
    uint64_t buf[2][BUF_POINTS];
    cz_windows ws;
    cz_ctx_t *ctx;
} rig;

static void rig_init(rig *r)
{
    memset(r, 0, sizeof *r);
    r->ws = (cz_windows){ { &r->f, fake_put, fake_wait },
                          { r->buf[0], r->buf[1] },
                          sizeof r->buf[0] };
    (void)cz_ctx_new(&r->ctx, NULL, 1);
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

CZ_TEST(every_point_is_consumed_once_in_order_with_its_bytes)
{
    /* (n, head, align): one window, several, a short last one, a head, an aligned stride */
    const size_t cases[][3] = { { 1, 0, 1 },  { 10, 0, 1 }, { 11, 0, 1 }, { 37, 0, 1 },
                                { 37, 3, 1 }, { 37, 2, 4 }, { 8, 8, 1 },  { 100, 9, 1 } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        rig r;
        rig_init(&r);
        const size_t n = cases[c][0], head = cases[c][1], align = cases[c][2];
        uint64_t *p = points(7, n);
        const cz_window_vector v = vec(p, n, head, align);
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
        free(p);
        cz_ctx_free(r.ctx);
    }
}

CZ_TEST(without_a_pinned_copy_each_window_is_filled_and_nothing_is_copied_ahead)
{
    rig r;
    rig_init(&r);
    uint64_t *p = points(3, 25), *q = points(4, 25);
    fill_src fs = { p, 0 };
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
    free(p);
    free(q);
    cz_ctx_free(r.ctx);
}

CZ_TEST(the_next_vectors_first_window_is_copied_during_the_last_and_not_again)
{
    rig r;
    rig_init(&r);
    uint64_t *a = points(1, 25), *b = points(2, 17);
    const cz_window_vector va = vec(a, 25, 0, 1), vb = vec(b, 17, 3, 2);
    cz_window_ahead ahead = { 0 };
    seen s;
    cz_window_stats st = { 0 };
    CHECK_OK(run(&r, 1, &va, &ahead, &vb, &s, &st));
    CHECK_EQ_INT(s.windows, 3);
    CHECK_EQ_INT(s.stale, 0);
    CHECK_EQ_INT(s.hazards, 0);
    CHECK_EQ_INT(s.ahead_in_flight, 1); /* b's window 0, beside a's last, in the other buffer */
    REQUIRE(ahead.src == b);
    CHECK_EQ_U64(ahead.bytes, (3 + 6) * 8); /* head 3 + the stride (10 - 3 = 7, aligned to 2) */
    CHECK_EQ_INT(ahead.slot, 1);            /* a's last window (2) was in slot 0 */
    CHECK_EQ_INT(r.f.nq, 1);
    CHECK_EQ_INT(st.ahead, 0);
    const unsigned puts = r.f.puts;
    cz_window_stats sb = { 0 };
    CHECK_OK(run(&r, 2, &vb, &ahead, NULL, &s, &sb));
    CHECK_EQ_INT(s.windows, 3); /* 9 + 6 + 2 */
    CHECK_EQ_INT(s.stale, 0);
    CHECK_EQ_INT(s.hazards, 0);
    CHECK_EQ_INT(r.f.puts - puts, 2); /* windows 1 and 2 only */
    CHECK_EQ_INT(sb.ahead, 1);
    CHECK_EQ_U64(sb.bytes, 17 * 8);
    CHECK(ahead.src == NULL);
    CHECK_EQ_INT(r.f.nq, 0);
    free(a);
    free(b);
    cz_ctx_free(r.ctx);
}

CZ_TEST(single_window_vectors_chain_their_copies_ahead_through_both_buffers)
{
    rig r;
    rig_init(&r);
    uint64_t *p[4];
    cz_window_vector v[4];
    for (int i = 0; i < 4; i++) {
        p[i] = points((uint64_t)i + 10, (size_t)(4 + i));
        v[i] = vec(p[i], (size_t)(4 + i), 0, 1);
    }
    cz_window_ahead ahead = { 0 };
    unsigned found = 0;
    for (int i = 0; i < 4; i++) {
        seen s;
        cz_window_stats st = { 0 };
        CHECK_OK(run(&r, (uint64_t)i + 10, &v[i], &ahead, i < 3 ? &v[i + 1] : NULL, &s, &st));
        CHECK_EQ_INT(s.windows, 1);
        CHECK_EQ_INT(s.stale, 0);
        CHECK_EQ_INT(s.hazards, 0);
        found += st.ahead;
    }
    CHECK_EQ_INT(found, 3);
    CHECK_EQ_INT(r.f.puts, 4); /* one copy a vector */
    CHECK(ahead.src == NULL);
    for (int i = 0; i < 4; i++)
        free(p[i]);
    cz_ctx_free(r.ctx);
}

CZ_TEST(another_vector_lands_the_copy_ahead_first_and_copies_its_own)
{
    rig r;
    rig_init(&r);
    uint64_t *a = points(1, 12), *b = points(2, 12), *c = points(3, 30);
    const cz_window_vector va = vec(a, 12, 0, 1), vb = vec(b, 12, 0, 1), vc = vec(c, 30, 0, 1);
    cz_window_ahead ahead = { 0 };
    seen s;
    CHECK_OK(run(&r, 1, &va, &ahead, &vb, &s, NULL));
    REQUIRE(ahead.src == b);
    cz_window_stats st = { 0 };
    const unsigned puts = r.f.puts;
    CHECK_OK(run(&r, 3, &vc, &ahead, NULL, &s, &st)); /* b was canceled: c comes instead */
    CHECK_EQ_INT(s.windows, 3);
    CHECK_EQ_INT(s.stale, 0);
    CHECK_EQ_INT(s.hazards, 0);
    CHECK_EQ_INT(st.ahead, 0);
    CHECK_EQ_INT(r.f.puts - puts, 3);
    CHECK(ahead.src == NULL);
    CHECK_EQ_INT(r.f.nq, 0);
    free(a);
    free(b);
    free(c);
    cz_ctx_free(r.ctx);
}

CZ_TEST(settle_lands_the_copy_ahead_and_forgets_it)
{
    rig r;
    rig_init(&r);
    uint64_t *a = points(1, 12), *b = points(2, 12);
    const cz_window_vector va = vec(a, 12, 0, 1), vb = vec(b, 12, 0, 1);
    cz_window_ahead ahead = { 0 };
    seen s;
    CHECK_OK(run(&r, 1, &va, &ahead, &vb, &s, NULL));
    CHECK_EQ_INT(r.f.nq, 1);
    CHECK_OK(cz_windows_settle(r.ctx, &r.ws, &ahead));
    CHECK_EQ_INT(r.f.nq, 0);
    CHECK(ahead.src == NULL);
    CHECK_OK(cz_windows_settle(r.ctx, &r.ws, &ahead)); /* nothing ahead: nothing to do */
    CHECK_OK(cz_windows_settle(r.ctx, &r.ws, NULL));
    free(a);
    free(b);
    cz_ctx_free(r.ctx);
}

CZ_TEST(a_failed_consume_or_copy_leaves_nothing_in_flight_and_nothing_ahead)
{
    for (unsigned fail_at = 1; fail_at <= 3; fail_at++) { /* a middle window, the last */
        rig r;
        rig_init(&r);
        uint64_t *a = points(1, 25), *b = points(2, 25);
        const cz_window_vector va = vec(a, 25, 0, 1), vb = vec(b, 25, 0, 1);
        cz_window_ahead ahead = { 0 };
        seen s = { .f = &r.f, .id = 1, .fail_at = fail_at };
        CHECK_EQ_INT(cz_windows_run(r.ctx, &r.ws, &va, consume, &s, &ahead, &vb, NULL), CZ_EDEVICE);
        CHECK_EQ_INT(r.f.nq, 0);
        CHECK(ahead.src == NULL);
        free(a);
        free(b);
        cz_ctx_free(r.ctx);
    }
    for (unsigned fail_put = 1; fail_put <= 4; fail_put++) { /* window 0, 1, 2, the copy ahead */
        rig r;
        rig_init(&r);
        r.f.fail_put = fail_put;
        uint64_t *a = points(1, 25), *b = points(2, 25);
        const cz_window_vector va = vec(a, 25, 0, 1), vb = vec(b, 25, 0, 1);
        cz_window_ahead ahead = { 0 };
        seen s;
        CHECK_EQ_INT(run(&r, 1, &va, &ahead, &vb, &s, NULL), CZ_EDEVICE);
        CHECK_EQ_INT(s.stale, 0);
        CHECK_EQ_INT(s.hazards, 0);
        CHECK_EQ_INT(r.f.nq, 0);
        CHECK(ahead.src == NULL);
        free(a);
        free(b);
        cz_ctx_free(r.ctx);
    }
}

CZ_TEST(a_head_larger_than_a_window_is_refused_naming_the_sizes)
{
    rig r;
    rig_init(&r);
    uint64_t *a = points(1, 12), *b = points(2, 40);
    const cz_window_vector va = vec(a, 12, 0, 1), vb = vec(b, 40, BUF_POINTS, 1);
    cz_window_ahead ahead = { 0 };
    seen s;
    CHECK_OK(run(&r, 1, &va, &ahead, &vb, &s, NULL));
    CHECK(ahead.src == NULL); /* b's window 0 fits no buffer: nothing copied ahead */
    CHECK_EQ_INT(run(&r, 2, &vb, &ahead, NULL, &s, NULL), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(r.ctx), "80 bytes") != NULL);
    CHECK_EQ_INT(s.windows, 0);
    CHECK_EQ_INT(r.f.nq, 0);
    free(a);
    free(b);
    cz_ctx_free(r.ctx);
}

CZ_TEST_MAIN()
