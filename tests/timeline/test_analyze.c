/*
 * tests/timeline/test_analyze.c — the timeline analyzer and its SVG chart on
 * hand-written logs whose figures are known: held time, gaps and their
 * histogram, efficiency (compared exactly), a planted overlap, the
 * dispatch-level figure, percentiles, unpaired events and garbage lines.
 */
#include <pthread.h>
#include <stdarg.h>
#include <unistd.h>

#include "cz_test.h"
#include "core/ctx.h"
#include "timeline/analyze.h"
#include "timeline/svg.h"
#include "engine/timeline.h"

static cz_timeline_report_t *analyze(const char *log)
{
    cz_timeline_report_t *r = NULL;
    int rc = cz_timeline_analyze_buf(NULL, log, strlen(log), &r);
    if (rc != CZ_OK)
        fprintf(stderr, "analyze_buf -> %d\n", rc);
    return r;
}

static size_t count_str(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* A growing log buffer for generated cases. */
typedef struct {
    char *p;
    size_t len, cap;
} sbuf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->p = realloc(b->p, b->cap);
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Device 0: five regions, gaps 10, 100, 600 and 0 (touching) ms.
 * Device 1: three regions, gaps 50 and 50: held 300, gaps 100. */
static const char LOG_GAPS[] = "TIMELINE,1000.250,LOCK_ACQ,1,device=0,worker=0,partition=0\n"
                               "TIMELINE,1100.250,LOCK_REL,1,device=0,worker=0,partition=0\n"
                               "TIMELINE,1110.250,LOCK_ACQ,1,device=0,worker=1,partition=1\n"
                               "TIMELINE,1210.250,LOCK_REL,1,device=0,worker=1,partition=1\n"
                               "TIMELINE,1310.250,LOCK_ACQ,2,device=0,worker=0,partition=0\n"
                               "TIMELINE,1410.250,LOCK_REL,2,device=0,worker=0,partition=0\n"
                               "TIMELINE,2010.250,LOCK_ACQ,2,device=0,worker=1,partition=1\n"
                               "TIMELINE,2110.250,LOCK_REL,2,device=0,worker=1,partition=1\n"
                               "TIMELINE,2110.250,LOCK_ACQ,3,device=0,worker=0,partition=0\n"
                               "TIMELINE,2210.250,LOCK_REL,3,device=0,worker=0,partition=0\n"
                               "TIMELINE,0,LOCK_ACQ,4,device=1,worker=0,partition=0\n"
                               "TIMELINE,100,LOCK_REL,4,device=1,worker=0,partition=0\n"
                               "TIMELINE,150,LOCK_ACQ,4,device=1,worker=1,partition=1\n"
                               "TIMELINE,250,LOCK_REL,4,device=1,worker=1,partition=1\n"
                               "TIMELINE,300,LOCK_ACQ,4,device=1,worker=0,partition=2\n"
                               "TIMELINE,400,LOCK_REL,4,device=1,worker=0,partition=2\n";

CZ_TEST(known_gaps_and_efficiency)
{
    cz_timeline_report_t *r = analyze(LOG_GAPS);
    REQUIRE(r);
    CHECK_EQ_INT(cz_timeline_nwarnings(r), 0);
    CHECK_EQ_INT(cz_timeline_ndevices(r), 2);
    CHECK_EQ_INT(cz_timeline_noverlaps(r), 0);

    const cz_tl_device_t *d0 = cz_timeline_device_by_id(r, 0);
    REQUIRE(d0);
    CHECK_EQ_INT(d0->regions, 5);
    CHECK(d0->held_ms == 500.0);
    CHECK(d0->gap_ms == 710.0);
    CHECK(d0->span_ms == 1210.0);
    CHECK_EQ_INT(d0->gaps[CZ_TL_GAP_LT_50MS], 2);  /* 10 and 0 */
    CHECK_EQ_INT(d0->gaps[CZ_TL_GAP_50_500MS], 1); /* 100 */
    CHECK_EQ_INT(d0->gaps[CZ_TL_GAP_GT_500MS], 1); /* 600 */
    CHECK(d0->efficiency == 500.0 / 1210.0);
    CHECK_EQ_INT(d0->overlap_violations, 0);
    CHECK(d0->dispatch_efficiency == -1.0); /* no GPU_START/END */
    CHECK_EQ_INT(d0->dispatch_spans, 0);

    const cz_tl_device_t *d1 = cz_timeline_device(r, 1);
    REQUIRE(d1);
    CHECK_EQ_INT(d1->device, 1);
    CHECK(d1->held_ms == 300.0);
    CHECK(d1->gap_ms == 100.0);
    CHECK(d1->efficiency == 0.75);
    CHECK_EQ_INT(d1->gaps[CZ_TL_GAP_50_500MS], 2); /* 50 ms is 50-500 */
    CHECK(cz_timeline_device(r, 2) == NULL);
    CHECK(cz_timeline_device_by_id(r, 7) == NULL);

    int64_t first, last;
    cz_timeline_bounds(r, &first, &last);
    CHECK_EQ_INT(first, 0);
    CHECK_EQ_INT(last, 2210250);
    CHECK_EQ_INT(cz_timeline_nspans(r), 8);
    cz_timeline_report_free(r);
}

CZ_TEST(histogram_boundaries)
{
    /* gaps 49.999, 50.000, 500.000, 500.001 ms */
    cz_timeline_report_t *r = analyze("TIMELINE,0,LOCK_ACQ,1,device=3\n"
                                      "TIMELINE,10,LOCK_REL,1,device=3\n"
                                      "TIMELINE,59.999,LOCK_ACQ,2,device=3\n"
                                      "TIMELINE,60,LOCK_REL,2,device=3\n"
                                      "TIMELINE,110,LOCK_ACQ,3,device=3\n"
                                      "TIMELINE,120,LOCK_REL,3,device=3\n"
                                      "TIMELINE,620,LOCK_ACQ,4,device=3\n"
                                      "TIMELINE,630,LOCK_REL,4,device=3\n"
                                      "TIMELINE,1130.001,LOCK_ACQ,5,device=3\n"
                                      "TIMELINE,1140,LOCK_REL,5,device=3\n");
    REQUIRE(r);
    const cz_tl_device_t *d = cz_timeline_device_by_id(r, 3);
    REQUIRE(d);
    CHECK_EQ_INT(d->gaps[CZ_TL_GAP_LT_50MS], 1);
    CHECK_EQ_INT(d->gaps[CZ_TL_GAP_50_500MS], 2);
    CHECK_EQ_INT(d->gaps[CZ_TL_GAP_GT_500MS], 1);
    CHECK(d->gap_ms == 1100.0);
    CHECK(d->held_ms == 40.0);
    cz_timeline_report_free(r);
}

CZ_TEST(planted_overlap)
{
    cz_timeline_report_t *r = analyze(
        /* device 0: clean, touching regions */
        "TIMELINE,0,LOCK_ACQ,1,device=0,worker=0,partition=0\n"
        "TIMELINE,100,LOCK_REL,1,device=0,worker=0,partition=0\n"
        "TIMELINE,100,LOCK_ACQ,1,device=0,worker=1,partition=1\n"
        "TIMELINE,200,LOCK_REL,1,device=0,worker=1,partition=1\n"
        /* device 1: job 8 takes the lock 50 ms before job 7 lets go */
        "TIMELINE,1000,LOCK_ACQ,7,device=1,worker=0,partition=3\n"
        "TIMELINE,1050,LOCK_ACQ,8,device=1,worker=1,partition=0\n"
        "TIMELINE,1100,LOCK_REL,7,device=1,worker=0,partition=3\n"
        "TIMELINE,1150,LOCK_REL,8,device=1,worker=1,partition=0\n"
        "TIMELINE,1150,LOCK_ACQ,9,device=1,worker=0,partition=0\n"
        "TIMELINE,1200,LOCK_REL,9,device=1,worker=0,partition=0\n"
        /* device 2: two regions inside a long one */
        "TIMELINE,0,LOCK_ACQ,1,device=2,worker=0,partition=0\n"
        "TIMELINE,100,LOCK_ACQ,2,device=2,worker=1,partition=0\n"
        "TIMELINE,200,LOCK_REL,2,device=2,worker=1,partition=0\n"
        "TIMELINE,300,LOCK_ACQ,3,device=2,worker=1,partition=0\n"
        "TIMELINE,400,LOCK_REL,3,device=2,worker=1,partition=0\n"
        "TIMELINE,1000,LOCK_REL,1,device=2,worker=0,partition=0\n");
    REQUIRE(r);
    CHECK_EQ_INT(cz_timeline_nwarnings(r), 0);
    CHECK_EQ_INT(cz_timeline_noverlaps(r), 3);
    CHECK_EQ_INT(cz_timeline_device_by_id(r, 0)->overlap_violations, 0);
    CHECK(cz_timeline_device_by_id(r, 0)->efficiency == 1.0);
    const cz_tl_device_t *d1 = cz_timeline_device_by_id(r, 1);
    CHECK_EQ_INT(d1->overlap_violations, 1);
    CHECK_EQ_INT(d1->gaps[CZ_TL_GAP_LT_50MS], 1); /* 9 touches 8's release */
    CHECK_EQ_INT(cz_timeline_device_by_id(r, 2)->overlap_violations, 2);

    const cz_tl_overlap_t *o = cz_timeline_overlap(r, 0);
    REQUIRE(o);
    CHECK_EQ_INT(o->device, 1);
    CHECK(o->overlap_ms == 50.0);
    const cz_tl_span_t *a = cz_timeline_span(r, o->first), *b = cz_timeline_span(r, o->second);
    CHECK_EQ_U64(a->job, 7);
    CHECK_EQ_INT(a->partition, 3);
    CHECK_EQ_U64(b->job, 8);
    CHECK_EQ_INT(b->worker, 1);
    for (size_t i = 1; i < 3; i++) {
        o = cz_timeline_overlap(r, i);
        CHECK_EQ_INT(o->device, 2);
        CHECK(o->overlap_ms == 100.0);
        CHECK_EQ_U64(cz_timeline_span(r, o->first)->job, 1);
    }
    CHECK(cz_timeline_overlap(r, 3) == NULL);
    cz_timeline_report_free(r);
}

CZ_TEST(dispatch_level_figure)
{
    /* The anchor's lines: no device=, spans overlap across workers.
     * Union: 990-1215 and 1300-2115 -> busy 1040, gap 85. */
    cz_timeline_report_t *r = analyze("TIMELINE,990,GPU_START,1,worker=0,partition=0\n"
                                      "TIMELINE,1005,GPU_START,1,worker=1,partition=1\n"
                                      "TIMELINE,1105,GPU_END,1,worker=0,partition=0,gpu_ms=115\n"
                                      "TIMELINE,1215,GPU_END,1,worker=1,partition=1,gpu_ms=210\n"
                                      "TIMELINE,1300,GPU_START,2,worker=0,partition=0\n"
                                      "TIMELINE,1400,GPU_START,2,worker=1,partition=1\n"
                                      "TIMELINE,1415,GPU_END,2,worker=0,partition=0\n"
                                      "TIMELINE,2115,GPU_END,2,worker=1,partition=1\n"
                                      "TIMELINE,1000,LOCK_ACQ,1,worker=0,partition=0\n"
                                      "TIMELINE,1100,LOCK_REL,1,worker=0,partition=0\n");
    REQUIRE(r);
    CHECK_EQ_INT(cz_timeline_nwarnings(r), 0);
    CHECK_EQ_INT(cz_timeline_ndevices(r), 1);
    const cz_tl_device_t *d = cz_timeline_device_by_id(r, 0); /* missing device= is 0 */
    REQUIRE(d);
    CHECK_EQ_INT(d->dispatch_spans, 4);
    CHECK(d->dispatch_busy_ms == 1040.0);
    CHECK(d->dispatch_gap_ms == 85.0);
    CHECK(d->dispatch_efficiency == 1040.0 / 1125.0);
    CHECK_EQ_INT(d->regions, 1);
    CHECK(d->efficiency == 1.0);
    const cz_tl_stage_t *s = cz_timeline_stage(r, CZ_SPAN_DISPATCH);
    CHECK_EQ_INT(s->count, 4);
    CHECK(s->max_ms == 715.0);
    cz_timeline_report_free(r);
}

CZ_TEST(stage_percentiles)
{
    /* 100 synthesis spans of 1..100 ms in scrambled order; 3 lock waits. */
    sbuf b = { 0 };
    for (int i = 0; i < 100; i++) {
        int ms = (i * 37) % 100 + 1;
        sb_printf(&b, "TIMELINE,%d,SYNTH_START,%d,partition=0,synth_worker=%d\n", i * 1000, i,
                  i % 4);
        sb_printf(&b, "TIMELINE,%d,SYNTH_END,%d,partition=0,synth_ms=%d\n", i * 1000 + ms, i, ms);
    }
    sb_printf(&b, "TIMELINE,0,LOCK_WAIT,1,device=0\nTIMELINE,30,LOCK_ACQ,1,device=0\n"
                  "TIMELINE,30,LOCK_REL,1,device=0\n"
                  "TIMELINE,100,LOCK_WAIT,2,device=0\nTIMELINE,110,LOCK_ACQ,2,device=0\n"
                  "TIMELINE,115,LOCK_REL,2,device=0\n"
                  "TIMELINE,200,LOCK_WAIT,3,device=0\nTIMELINE,220,LOCK_ACQ,3,device=0\n"
                  "TIMELINE,221.5,LOCK_REL,3,device=0\n");
    cz_timeline_report_t *r = analyze(b.p);
    free(b.p);
    REQUIRE(r);
    CHECK_EQ_INT(cz_timeline_nwarnings(r), 0);
    const cz_tl_stage_t *s = cz_timeline_stage(r, CZ_SPAN_SYNTH);
    CHECK_EQ_INT(s->count, 100);
    CHECK(s->p50_ms == 50.0);
    CHECK(s->p90_ms == 90.0);
    CHECK(s->p99_ms == 99.0);
    CHECK(s->max_ms == 100.0);
    CHECK(s->mean_ms == 50.5);
    s = cz_timeline_stage(r, CZ_SPAN_LOCK_WAIT);
    CHECK_EQ_INT(s->count, 3);
    CHECK(s->p50_ms == 20.0);
    CHECK(s->p90_ms == 30.0);
    CHECK(s->p99_ms == 30.0);
    CHECK(s->max_ms == 30.0);
    s = cz_timeline_stage(r, CZ_SPAN_DEVICE);
    CHECK_EQ_INT(s->count, 3);
    CHECK(s->p50_ms == 1.5);
    CHECK(s->max_ms == 5.0);
    s = cz_timeline_stage(r, CZ_SPAN_EPILOGUE);
    CHECK_EQ_INT(s->count, 0);
    CHECK(s->max_ms == 0.0);
    CHECK(cz_timeline_stage(r, CZ_SPAN_NKINDS) == NULL);
    CHECK_EQ_STR(cz_span_kind_name(CZ_SPAN_LOCK_WAIT), "lock_wait");
    /* Synthesis spans carry the lane; the device never appears for them. */
    CHECK_EQ_INT(cz_timeline_ndevices(r), 1);
    CHECK_EQ_INT(cz_timeline_span(r, 5)->synth_worker, 1);
    CHECK_EQ_INT(cz_timeline_span(r, 5)->device, -1);
    cz_timeline_report_free(r);
}

CZ_TEST(unpaired_events_are_warnings)
{
    cz_timeline_report_t *r = analyze(
        "TIMELINE,10,LOCK_REL,1,device=0,worker=0,partition=0\n"   /* no ACQ */
        "TIMELINE,20,PREP_START,1,device=0,worker=0,partition=0\n" /* never ends */
        "TIMELINE,30,EPI_END,1,device=0,worker=1,partition=0\n"    /* no START */
        "TIMELINE,40,SYNTH_START,2,partition=0,synth_worker=0\n"
        "TIMELINE,45,SYNTH_START,2,partition=0,synth_worker=0\n" /* restarted */
        "TIMELINE,55,SYNTH_END,2,partition=0\n"
        "TIMELINE,60,EPI_START,3,device=0\n"
        "TIMELINE,50,EPI_END,3,device=0\n"  /* before start */
        "TIMELINE,70,LOCK_ACQ,4,device=0\n" /* no WAIT: fine */
        "TIMELINE,80,LOCK_REL,4,device=0\n"
        "TIMELINE,90,LOCK_WAIT,5,device=0\n" /* never acquired */
        "TIMELINE,95,JOB_DONE,4,\n");
    REQUIRE(r);
    CHECK_EQ_INT(cz_timeline_nwarnings(r), 6);
    CHECK_EQ_INT(cz_timeline_nwarning_msgs(r), 6);
    CHECK(strstr(cz_timeline_warning(r, 0), "line 1: LOCK_REL job 1") != NULL);
    CHECK(strstr(cz_timeline_warning(r, 0), "without LOCK_ACQ") != NULL);
    CHECK(strstr(cz_timeline_warning(r, 1), "without EPI_START") != NULL);
    CHECK(strstr(cz_timeline_warning(r, 2), "restarted") != NULL);
    CHECK(strstr(cz_timeline_warning(r, 3), "ends before") != NULL);
    CHECK(strstr(cz_timeline_warning(r, 4), "line 2: PREP_START") != NULL);
    CHECK(strstr(cz_timeline_warning(r, 4), "never ended") != NULL);
    CHECK(strstr(cz_timeline_warning(r, 5), "line 11: LOCK_WAIT") != NULL);
    CHECK(cz_timeline_warning(r, 6) == NULL);
    /* Spans: the restarted synthesis (45-55) and the device region. */
    CHECK_EQ_INT(cz_timeline_nspans(r), 2);
    const cz_tl_span_t *s = cz_timeline_span(r, 0);
    CHECK_EQ_INT(s->kind, CZ_SPAN_SYNTH);
    CHECK_EQ_INT(s->start_us, 45000);
    CHECK_EQ_INT(s->synth_worker, 0);
    CHECK_EQ_INT(cz_timeline_span(r, 1)->kind, CZ_SPAN_DEVICE);
    CHECK_EQ_INT(cz_timeline_njobs_done(r), 1);
    CHECK_EQ_INT(cz_timeline_nevents(r), 12);
    cz_timeline_report_free(r);
}

CZ_TEST(garbage_lines_ignored)
{
    static const char LOG[] =
        "cuzk daemon 0.1.0 listening on /run/cuzk.sock\n"
        "\n"
        "xTIMELINE,1,LOCK_ACQ,1,device=0\n"  /* not a TIMELINE line */
        "TIMELINE,abc,LOCK_ACQ,1,device=0\n" /* bad offset */
        "TIMELINE,1.0,BOGUS,1,device=0\n"    /* unknown event */
        "TIMELINE,1.0,LOCK_ACQ,x,device=0\n" /* bad job */
        "TIMELINE,5\n"                       /* too few fields */
        "TIMELINE,-3,LOCK_ACQ,1,device=0\n"  /* negative offset */
        "  TIMELINE,100,LOCK_ACQ,9,foo=bar,device=0,zzz,=3,worker=1,partition=abc\r\n"
        "TIMELINE,150.5,LOCK_REL,9,worker=1,device=0,ms=50.5\r\n"
        "INFO some other message, with commas=1\n"
        "TIMELINE,200,LOCK_ACQ,9,device=0,worker=1"; /* no final newline */
    cz_timeline_report_t *r = analyze(LOG);
    REQUIRE(r);
    CHECK_EQ_INT(cz_timeline_nwarnings(r), 6); /* 5 malformed + the open LOCK_ACQ */
    CHECK_EQ_INT(cz_timeline_nevents(r), 3);
    CHECK_EQ_INT(cz_timeline_nspans(r), 1);
    const cz_tl_span_t *s = cz_timeline_span(r, 0);
    REQUIRE(s);
    CHECK_EQ_INT(s->partition, -1); /* partition=abc is ignored */
    CHECK_EQ_INT(s->worker, 1);
    CHECK_EQ_INT(s->start_us, 100000);
    CHECK_EQ_INT(s->end_us, 150500);
    CHECK_EQ_INT(s->line, 9);
    CHECK(strstr(cz_timeline_warning(r, 0), "bad offset") != NULL);
    CHECK(strstr(cz_timeline_warning(r, 1), "unknown event 'BOGUS'") != NULL);
    CHECK(strstr(cz_timeline_warning(r, 2), "bad job id") != NULL);
    cz_timeline_report_free(r);
}

CZ_TEST(offset_microseconds)
{
    cz_timeline_report_t *r = analyze(
        "TIMELINE,1.2345,EPI_START,1,\n" /* 1234.5 us rounds to 1235 */
        "TIMELINE,7,EPI_END,1,\n"
        "TIMELINE,0.0004,PREP_START,2,\n"
        "TIMELINE,123456.789123,PREP_END,2,\n");
    REQUIRE(r);
    CHECK_EQ_INT(cz_timeline_nwarnings(r), 0);
    CHECK_EQ_INT(cz_timeline_span(r, 0)->start_us, 1235);
    CHECK_EQ_INT(cz_timeline_span(r, 0)->end_us, 7000);
    CHECK_EQ_INT(cz_timeline_span(r, 1)->start_us, 0);
    CHECK_EQ_INT(cz_timeline_span(r, 1)->end_us, 123456789);
    cz_timeline_report_free(r);
}

CZ_TEST(many_open_spans)
{
    /* 3000 prep spans all open at once, closed in a scrambled order: the
     * open-start table grows and deletes without losing a key. */
    enum { N = 3000 };
    sbuf b = { 0 };
    for (int i = 0; i < N; i++)
        sb_printf(&b, "TIMELINE,%d,PREP_START,%d,device=%d,worker=%d,partition=%d\n", i, i / 10,
                  i % 3, i % 2, i % 10);
    for (int k = 0; k < N; k++) {
        int i = (k * 1237) % N; /* 1237 is prime to 3000 */
        sb_printf(&b, "TIMELINE,%d,PREP_END,%d,device=%d,worker=%d,partition=%d\n", 10000 + i,
                  i / 10, i % 3, i % 2, i % 10);
    }
    cz_timeline_report_t *r = analyze(b.p);
    free(b.p);
    REQUIRE(r);
    CHECK_EQ_INT(cz_timeline_nwarnings(r), 0);
    REQUIRE(cz_timeline_nspans(r) == N);
    size_t bad = 0;
    for (size_t k = 0; k < N; k++) {
        const cz_tl_span_t *s = cz_timeline_span(r, k);
        bad += s->end_us - s->start_us != 10000000;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(cz_timeline_ndevices(r), 3);
    CHECK(cz_timeline_stage(r, CZ_SPAN_PREP)->p99_ms == 10000.0);
    cz_timeline_report_free(r);
}

CZ_TEST(incremental_and_errors)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_timeline_report_t *r;
    REQUIRE(cz_timeline_new(&r) == CZ_OK);
    const char *l1 = "TIMELINE,1,LOCK_ACQ,1,device=0\n", *l2 = "TIMELINE,3,LOCK_REL,1,device=0";
    CHECK_OK(cz_timeline_feed(ctx, r, l1, strlen(l1)));
    CHECK_OK(cz_timeline_feed(ctx, r, l2, strlen(l2)));
    CHECK_OK(cz_timeline_finish(ctx, r));
    CHECK_EQ_INT(cz_timeline_feed(ctx, r, l1, strlen(l1)), CZ_EINVAL);
    CHECK_EQ_INT(cz_timeline_finish(ctx, r), CZ_EINVAL);
    CHECK(cz_timeline_device(r, 0)->held_ms == 2.0);
    cz_timeline_report_free(r);
    cz_timeline_report_free(NULL);

    cz_timeline_report_t *bad = (cz_timeline_report_t *)1;
    CHECK_EQ_INT(cz_timeline_analyze_file(ctx, "/nonexistent/cuzk.log", &bad), CZ_EIO);
    CHECK(bad == NULL);
    CHECK(strstr(cz_ctx_message(ctx), "/nonexistent/cuzk.log") != NULL);

    /* The same log through a file. */
    char path[] = "/tmp/cuzk_tl_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(LOG_GAPS, f);
    fclose(f);
    CHECK_OK(cz_timeline_analyze_file(ctx, path, &r));
    unlink(path);
    REQUIRE(r);
    CHECK(cz_timeline_device_by_id(r, 0)->efficiency == 500.0 / 1210.0);
    cz_timeline_report_free(r);

    /* An empty log is a valid, empty report. */
    REQUIRE(cz_timeline_analyze_buf(ctx, "", 0, &r) == CZ_OK);
    CHECK_EQ_INT(cz_timeline_ndevices(r), 0);
    CHECK_EQ_INT(cz_timeline_nspans(r), 0);
    cz_timeline_report_free(r);
    cz_ctx_free(ctx);
}

/* Two devices x two workers with prep / wait / region / epilogue, two synth
 * workers, two synthesis spans without a lane (they overlap: two packed
 * lanes), anchor dispatch spans and one planted overlap on device 1. */
static char *svg_log(void)
{
    sbuf b = { 0 };
    for (int dev = 0; dev < 2; dev++)
        for (int w = 0; w < 2; w++) {
            int t = 1000 + 300 * w + 10 * dev, job = 10 * dev + w;
            const char *k = "device=%d,worker=%d,partition=0";
            char d[64];
            snprintf(d, sizeof d, k, dev, w);
            sb_printf(&b, "TIMELINE,%d,GPU_START,%d,%s\n", t - 20, job, d);
            sb_printf(&b, "TIMELINE,%d,PREP_START,%d,%s\n", t - 20, job, d);
            sb_printf(&b, "TIMELINE,%d,LOCK_WAIT,%d,%s\n", t - 10, job, d);
            sb_printf(&b, "TIMELINE,%d,LOCK_ACQ,%d,%s\n", t, job, d);
            sb_printf(&b, "TIMELINE,%d,PREP_END,%d,%s\n", t + 100, job, d);
            /* device 1's second worker releases late: overlap with nothing
             * after it, so plant it at the front instead */
            sb_printf(&b, "TIMELINE,%d,LOCK_REL,%d,%s\n", t + (dev == 1 && w == 0 ? 350 : 250), job,
                      d);
            sb_printf(&b, "TIMELINE,%d,EPI_START,%d,%s\n", t + 260, job, d);
            sb_printf(&b, "TIMELINE,%d,EPI_END,%d,%s\n", t + 400, job, d);
            sb_printf(&b, "TIMELINE,%d,GPU_END,%d,%s\n", t + 260, job, d);
        }
    for (int s = 0; s < 2; s++) {
        sb_printf(&b, "TIMELINE,%d,SYNTH_START,%d,partition=0,synth_worker=%d\n", 10 + s, s, s);
        sb_printf(&b, "TIMELINE,%d,SYNTH_END,%d,partition=0\n", 900 + s, s);
        sb_printf(&b, "TIMELINE,%d,SYNTH_START,%d,partition=1\n", 20 + s, s);
        sb_printf(&b, "TIMELINE,%d,SYNTH_END,%d,partition=1\n", 950, s);
    }
    return b.p;
}

CZ_TEST(svg_gantt)
{
    char *log = svg_log();
    cz_timeline_report_t *r = analyze(log);
    free(log);
    REQUIRE(r);
    CHECK_EQ_INT(cz_timeline_nwarnings(r), 0);
    CHECK_EQ_INT(cz_timeline_nspans(r), 4 * 5 + 4);
    CHECK_EQ_INT(cz_timeline_noverlaps(r), 1);
    CHECK_EQ_INT(cz_timeline_device_by_id(r, 1)->overlap_violations, 1);

    char *text = NULL;
    size_t len = 0, bars = 0;
    FILE *mem = open_memstream(&text, &len);
    REQUIRE(mem);
    cz_tl_svg_opts_t opts = { .title = "t<1>&\"", .px_per_s = 0 };
    CHECK_OK(cz_timeline_svg_write(NULL, r, &opts, mem, &bars));
    fclose(mem);
    REQUIRE(text);
    CHECK_EQ_INT(bars, cz_timeline_nspans(r));
    CHECK(strncmp(text, "<svg", 4) == 0);
    CHECK(len > 7 && strcmp(text + len - 7, "</svg>\n") == 0);
    const char *lanes[] = { "dev0/w0", "dev0/w1", "dev1/w0", "dev1/w1",
                            "synth0",  "synth1",  "synth?0", "synth?1" };
    for (size_t i = 0; i < sizeof lanes / sizeof lanes[0]; i++) {
        char want[32];
        snprintf(want, sizeof want, ">%s</text>", lanes[i]);
        CHECK(strstr(text, want) != NULL);
    }
    CHECK(strstr(text, ">synth?2<") == NULL);
    CHECK(strstr(text, "t&lt;1&gt;&amp;&quot;") != NULL);
    /* One <title> per bar and per overlap band; <rect>s also for the
     * background and the seven legend swatches. */
    CHECK_EQ_INT(count_str(text, "<title>"), bars + 1);
    CHECK_EQ_INT(count_str(text, "<rect"), bars + 1 + 1 + 7);
    CHECK_EQ_INT(count_str(text, "<rect class=\"d\""), 4 + 1);
    CHECK_EQ_INT(count_str(text, "<rect class=\"ov\""), 1 + 1);
    CHECK(strstr(text, "time (s)") != NULL);
    CHECK(strstr(text, "job 10 partition 0 device 350.000 ms") != NULL);
    free(text);

    /* To a file; an unwritable path is CZ_EIO. */
    char path[] = "/tmp/cuzk_tl_svg_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    CHECK_OK(cz_timeline_svg_file(NULL, r, NULL, path, NULL));
    FILE *f = fopen(path, "r");
    REQUIRE(f);
    char head[5] = { 0 };
    CHECK(fread(head, 1, 4, f) == 4);
    CHECK_EQ_STR(head, "<svg");
    fclose(f);
    unlink(path);
    CHECK_EQ_INT(cz_timeline_svg_file(NULL, r, NULL, "/nonexistent/x.svg", NULL), CZ_EIO);
    cz_timeline_report_free(r);
}

/* A window: only the spans that intersect it are drawn (each title's own
 * times prove it), wide ones carry a visible job/partition label, the axis
 * is the window; an empty or reversed window is refused. */
CZ_TEST(svg_window_and_labels)
{
    char *log = svg_log();
    cz_timeline_report_t *r = analyze(log);
    free(log);
    REQUIRE(r);
    const double lo = 0.95, hi = 1.2;
    size_t want = 0;
    for (size_t i = 0; i < cz_timeline_nspans(r); i++) {
        const cz_tl_span_t *s = cz_timeline_span(r, i);
        want += s->end_us > 950000 && s->start_us < 1200000;
    }
    REQUIRE(want > 0 && want < cz_timeline_nspans(r));

    char *text = NULL;
    size_t len = 0, bars = 0;
    FILE *mem = open_memstream(&text, &len);
    REQUIRE(mem);
    cz_tl_svg_opts_t opts = { .window = true, .from_s = lo, .to_s = hi };
    CHECK_OK(cz_timeline_svg_write(NULL, r, &opts, mem, &bars));
    fclose(mem);
    REQUIRE(text);
    CHECK_EQ_INT(bars, want);
    size_t titles = 0;
    for (const char *p = text; (p = strstr(p, "<title>job ")) != NULL; p++) {
        unsigned long long job;
        int part;
        double a, b;
        const char *times = strstr(p, "ms (");
        REQUIRE(times && sscanf(p, "<title>job %llu partition %d", &job, &part) == 2);
        REQUIRE(sscanf(times, "ms (%lf-%lf s)", &a, &b) == 2);
        CHECK(b > lo && a < hi); /* intersects the window */
        titles++;
    }
    CHECK_EQ_INT(titles, want);
    /* synthesis of partition 0 ends at 0.900 s: outside */
    CHECK(strstr(text, "partition 0 synthesis") == NULL);
    /* device 1 worker 0's region (job 10, 1.010-1.360 s) is clipped to the
     * window and wide enough for its label */
    CHECK(strstr(text, "job 10 partition 0 device 350.000 ms (1.010-1.360 s)") != NULL);
    CHECK(strstr(text, ">j10 p0</text>") != NULL);
    CHECK(strstr(text, ">0.95</text>") != NULL || strstr(text, ">1.00</text>") != NULL);
    free(text);

    text = NULL;
    mem = open_memstream(&text, &len);
    REQUIRE(mem);
    cz_tl_svg_opts_t reversed = { .window = true, .from_s = 2, .to_s = 1 };
    CHECK_EQ_INT(cz_timeline_svg_write(NULL, r, &reversed, mem, &bars), CZ_EINVAL);
    fclose(mem);
    free(text);
    cz_timeline_report_free(r);
}

CZ_TEST(svg_empty_and_large)
{
    cz_timeline_report_t *r = analyze("no timeline here\n");
    REQUIRE(r);
    char *text = NULL;
    size_t len = 0, bars = 7;
    FILE *mem = open_memstream(&text, &len);
    CHECK_OK(cz_timeline_svg_write(NULL, r, NULL, mem, &bars));
    fclose(mem);
    CHECK_EQ_INT(bars, 0);
    CHECK(strstr(text, "no spans") != NULL);
    free(text);
    cz_timeline_report_free(r);

    /* 5000 device regions over ~1000 s: the file stays modest. */
    sbuf b = { 0 };
    for (int i = 0; i < 5000; i++)
        sb_printf(&b,
                  "TIMELINE,%d,LOCK_ACQ,%d,device=0,worker=%d\n"
                  "TIMELINE,%d,LOCK_REL,%d,device=0,worker=%d\n",
                  i * 200, i, i % 2, i * 200 + 150, i, i % 2);
    r = analyze(b.p);
    free(b.p);
    REQUIRE(r);
    CHECK(cz_timeline_device(r, 0)->efficiency == 750000.0 / 999950.0);
    CHECK_EQ_INT(cz_timeline_device(r, 0)->gaps[CZ_TL_GAP_50_500MS], 4999);
    text = NULL;
    mem = open_memstream(&text, &len);
    CHECK_OK(cz_timeline_svg_write(NULL, r, NULL, mem, &bars));
    fclose(mem);
    CHECK_EQ_INT(bars, 5000);
    CHECK(len < 5000 * 200);
    free(text);
    /* the same long run through a 10 s window: 50 regions, each wide
     * enough to carry its label */
    text = NULL;
    mem = open_memstream(&text, &len);
    cz_tl_svg_opts_t win = { .window = true, .from_s = 100, .to_s = 110 };
    CHECK_OK(cz_timeline_svg_write(NULL, r, &win, mem, &bars));
    fclose(mem);
    CHECK_EQ_INT(bars, 50);
    CHECK_EQ_INT(count_str(text, "<text class=\"bl\""), 50);
    CHECK(strstr(text, ">j500</text>") != NULL); /* no partition= in this log */
    free(text);
    cz_timeline_report_free(r);
}

/* The engine's own emitter, two workers sharing one real device lock: its
 * lines parse, pair, and the interlock shows no overlap. */
typedef struct {
    cz_timeline_t *tl;
    pthread_mutex_t *lock;
    unsigned worker;
} lock_worker_arg;

static void *lock_worker(void *p)
{
    const lock_worker_arg *a = p;
    for (unsigned i = 0; i < 50; i++) {
        uint64_t job = a->worker * 100 + i;
        const char *d = "device=%u,worker=%u,partition=%u";
        cz_tl_emit(a->tl, CZ_TL_PREP_START, job, d, 0u, a->worker, i);
        cz_tl_emit(a->tl, CZ_TL_LOCK_WAIT, job, d, 0u, a->worker, i);
        pthread_mutex_lock(a->lock);
        cz_tl_emit(a->tl, CZ_TL_LOCK_ACQ, job, "device=0,worker=%u,partition=%u,wait_ms=1.0",
                   a->worker, i);
        cz_tl_emit(a->tl, CZ_TL_PREP_END, job, d, 0u, a->worker, i);
        usleep(100);
        cz_tl_emit(a->tl, CZ_TL_LOCK_REL, job, d, 0u, a->worker, i);
        pthread_mutex_unlock(a->lock);
        cz_tl_emit(a->tl, CZ_TL_EPI_START, job, d, 0u, a->worker, i);
        cz_tl_emit(a->tl, CZ_TL_EPI_END, job, d, 0u, a->worker, i);
    }
    cz_tl_emit(a->tl, CZ_TL_JOB_DONE, a->worker, NULL);
    return NULL;
}

CZ_TEST(engine_emitter_roundtrip)
{
    cz_timeline_t *tl;
    REQUIRE(cz_tl_new(&tl, NULL, 1) == CZ_OK);
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    lock_worker_arg args[2] = { { tl, &lock, 0 }, { tl, &lock, 1 } };
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        REQUIRE(pthread_create(&th[i], NULL, lock_worker, &args[i]) == 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    size_t len = 0;
    char *log = cz_tl_captured(tl, &len);
    cz_tl_free(tl);
    REQUIRE(log);
    cz_timeline_report_t *r = NULL;
    CHECK_OK(cz_timeline_analyze_buf(NULL, log, len, &r));
    free(log);
    REQUIRE(r);
    CHECK_EQ_INT(cz_timeline_nwarnings(r), 0);
    CHECK_EQ_INT(cz_timeline_njobs_done(r), 2);
    CHECK_EQ_INT(cz_timeline_nspans(r), 2 * 50 * 4);
    const cz_tl_device_t *d = cz_timeline_device_by_id(r, 0);
    REQUIRE(d);
    CHECK_EQ_INT(d->regions, 100);
    CHECK_EQ_INT(d->overlap_violations, 0);
    CHECK(d->efficiency > 0.0 && d->efficiency <= 1.0);
    CHECK(cz_timeline_stage(r, CZ_SPAN_DEVICE)->p50_ms >= 0.1);
    cz_timeline_report_free(r);
}

CZ_TEST_MAIN()
