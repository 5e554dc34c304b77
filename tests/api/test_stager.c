/*
 * tests/api/test_stager.c — the prover's stager and its params loads
 * (api/jobs.c, api/pload.c) on the CPU backend with the "circuit" kind:
 *   - a critical job whose params are cached is proved while a low job's
 *     params load is held (the stager no longer loads inline);
 *   - canceling a job that waits for a held load ends it CANCELED at once,
 *     its callback run, the load still held; the load then ends in the
 *     background and its params stay cached;
 *   - two jobs needing one params file start one load between them;
 *   - a failing load fails every job waiting for it, with its message;
 *   - a params file whose count words do not fit the job is refused from
 *     them (a file cut short after them gets the shape error, not a
 *     truncation error) and no load starts;
 *   - freeing the prover as a load ends does not hang.
 * A load is held at the PARAMS_LOAD fault site by a callback that waits
 * until the test lets it go: deterministic, no timing luck. Also run under
 * TSan.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/internal.h"
#include "api/prover_int.h"
#include "circuits/registry.h"
#include "core/clock.h"
#include "cuzk.h"
#include "cz_test.h"
#include "cz_toy_params.h"
#include "groth16/params.h"
#include "groth16/setup.h"

/* ---- a params_dir: toy.params and slow.params (two files of the toy circuit) ---- */

static char dir[64];
static uint8_t *toy_bytes; /* toy.params as written */
static size_t toy_len;
static size_t toy_n_ic;

static void path_in_dir(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s.params", dir, name);
}

static void remove_params_dir(void)
{
    static const char *const names[] = { "toy", "slow", "badic", "badh" };
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        path_in_dir(path, sizeof path, names[i]);
        unlink(path);
    }
    rmdir(dir);
    free(toy_bytes);
}

static void write_bytes(const char *name, const uint8_t *b, size_t n)
{
    char path[128];
    path_in_dir(path, sizeof path, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, n, f) != n || fclose(f) != 0)
        abort();
}

static void make_params_dir(void)
{
    if (toy_bytes)
        return;
    snprintf(dir, sizeof dir, "/tmp/cz_stager_XXXXXX");
    if (!mkdtemp(dir))
        abort();
    atexit(remove_params_dir);
    cz_ctx_t *ctx;
    cz_ctx_new(&ctx, NULL, 2);
    cz_params_t *params = cz_test_toy_params(7);
    toy_len = cz_params_encoded_size(params);
    toy_n_ic = params->vk.n_ic;
    if (!(toy_bytes = malloc(toy_len)) || cz_params_encode(ctx, toy_bytes, toy_len, params))
        abort();
    write_bytes("toy", toy_bytes, toy_len);
    write_bytes("slow", toy_bytes, toy_len);
    cz_params_free(params);
    cz_ctx_free(ctx);
}

/* ---- the hold: a callback at the PARAMS_LOAD site ----------------------------------- */

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool held;            /* loads wait at the site while set */
    int fail_with;        /* what a released load returns there (0: it goes on) */
    int inside;           /* loads at the site now */
    cz_fault_site_t site; /* the site held: PARAMS_LOAD unless a test says */
} hold_t;

/* Waits while h->held (20 s at most: a broken test ends instead of hanging). */
static int hold_cb(void *arg, cz_fault_site_t site, uint64_t n)
{
    (void)n;
    hold_t *h = arg;
    if (site != h->site)
        return CZ_OK;
    struct timespec until = cz_deadline_in(20);
    pthread_mutex_lock(&h->mu);
    h->inside++;
    pthread_cond_broadcast(&h->cv);
    while (h->held && pthread_cond_timedwait(&h->cv, &h->mu, &until) == 0)
        ;
    h->inside--;
    int rc = h->fail_with;
    pthread_mutex_unlock(&h->mu);
    return rc;
}

static void hold_init(hold_t *h, cz_fault_t *f)
{
    memset(h, 0, sizeof *h);
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    h->held = true;
    h->site = CZ_FAULT_PARAMS_LOAD;
    cz_fault_init(f);
    f->cb = hold_cb;
    f->cb_arg = h;
}

static void hold_release(hold_t *h, int fail_with)
{
    pthread_mutex_lock(&h->mu);
    h->held = false;
    h->fail_with = fail_with;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

/* Wait (10 s at most) until a load is held at the site. */
static bool hold_reached(hold_t *h)
{
    struct timespec until = cz_deadline_in(10);
    pthread_mutex_lock(&h->mu);
    while (h->inside == 0 && pthread_cond_timedwait(&h->cv, &h->mu, &until) == 0)
        ;
    bool in = h->inside > 0;
    pthread_mutex_unlock(&h->mu);
    return in;
}

static void hold_free(hold_t *h)
{
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->mu);
}

/* ---- the prover and its jobs ---------------------------------------------------------- */

static cz_prover_t *new_prover(cz_fault_t *f)
{
    make_params_dir();
    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.backend = "cpu";
    cfg.threads = 2;
    cfg.workers_per_device = 1;
    cfg.memory_budget = (size_t)1 << 30;
    cfg.params_dir = dir;
    cfg.log_level = CZ_LOG_LEVEL_ERROR;
    cz_prover_t *p = NULL;
    cz_error_t err;
    if (cz__prover_new_with(&p, &cfg, f, NULL, &err) != CZ_OK)
        fprintf(stderr, "cz_prover_new: %s\n", err.message);
    return p;
}

typedef struct {
    pthread_mutex_t mu;
    int calls;
    cz_job_state_t state;
} done_rec;

static void on_done(void *user, cz_prover_t *p, uint64_t id, cz_job_state_t state)
{
    (void)p;
    (void)id;
    done_rec *d = user;
    pthread_mutex_lock(&d->mu);
    d->calls++;
    d->state = state;
    pthread_mutex_unlock(&d->mu);
}

static uint64_t submit(cz_prover_t *p, const char *params, int priority, done_rec *d)
{
    cz_job_request_t r;
    cz_job_request_init(&r, "circuit", NULL, 0);
    r.fields = "{\"circuit\":\"toy\"}";
    r.params = params;
    r.priority = priority;
    r.on_done = d ? on_done : NULL;
    r.user = d;
    uint64_t id = 0;
    cz_error_t err;
    if (cz_prover_submit(p, &r, &id, &err) != CZ_OK)
        fprintf(stderr, "submit: %s\n", err.message);
    return id;
}

/* Wait (10 s at most) until job |id| waits for its params load. */
static bool waits_for_params(cz_prover_t *p, uint64_t id)
{
    double until = cz_mono_s() + 10;
    cz_job_info_t info;
    while (cz_prover_status(p, id, &info, NULL) == CZ_OK && !info.loading_params &&
           cz_mono_s() < until)
        usleep(1000);
    return info.loading_params;
}

static size_t params_misses(cz_prover_t *p)
{
    cz_prover_stats_t st;
    cz_prover_stats(p, &st);
    return st.params_misses;
}

/* ---- cases ------------------------------------------------------------------------------ */

CZ_TEST(a_cached_critical_job_passes_a_held_load)
{
    hold_t h;
    cz_fault_t f;
    hold_init(&h, &f);
    cz_prover_t *p = new_prover(&f);
    REQUIRE(p);
    CHECK_OK(cz_prover_params_preload(p, "toy", NULL, NULL)); /* cached: no load site */
    uint64_t low = submit(p, "slow", 1, NULL);
    REQUIRE(low);
    REQUIRE(hold_reached(&h));
    uint64_t critical = submit(p, "toy", 4, NULL);
    REQUIRE(critical);
    cz_job_info_t info;
    CHECK_OK(cz_prover_wait(p, critical, 30, &info, NULL)); /* under the old stager: never */
    CHECK_EQ_INT(info.state, CZ_JOB_DONE);
    CHECK_OK(cz_prover_status(p, low, &info, NULL));
    CHECK_EQ_INT(info.state, CZ_JOB_QUEUED);
    CHECK(info.loading_params);
    hold_release(&h, 0);
    CHECK_OK(cz_prover_wait(p, low, 30, &info, NULL));
    CHECK_EQ_INT(info.state, CZ_JOB_DONE);
    cz_prover_free(p);
    hold_free(&h);
}

CZ_TEST(cancel_does_not_wait_for_a_held_load)
{
    hold_t h;
    cz_fault_t f;
    hold_init(&h, &f);
    cz_prover_t *p = new_prover(&f);
    REQUIRE(p);
    done_rec d = { .mu = PTHREAD_MUTEX_INITIALIZER };
    uint64_t id = submit(p, "slow", 2, &d);
    REQUIRE(id);
    REQUIRE(hold_reached(&h));
    REQUIRE(waits_for_params(p, id));
    double t0 = cz_mono_s();
    CHECK_OK(cz_prover_cancel(p, id, NULL));
    cz_job_info_t info;
    CHECK_OK(cz_prover_wait(p, id, 1.0, &info, NULL));
    CHECK(cz_mono_s() - t0 < 1.0);
    CHECK_EQ_INT(info.state, CZ_JOB_CANCELED);
    CHECK_EQ_INT(info.error, CZ_ECANCELED);
    /* the callback runs just after the outcome is visible: within the same second */
    int calls = 0;
    while ((pthread_mutex_lock(&d.mu), calls = d.calls, pthread_mutex_unlock(&d.mu), !calls) &&
           cz_mono_s() - t0 < 1.0)
        usleep(1000);
    CHECK_EQ_INT(calls, 1);
    pthread_mutex_lock(&d.mu);
    CHECK_EQ_INT(d.state, CZ_JOB_CANCELED);
    pthread_mutex_unlock(&d.mu);
    pthread_mutex_lock(&h.mu);
    CHECK_EQ_INT(h.inside, 1); /* the load is still held */
    pthread_mutex_unlock(&h.mu);
    /* let it go: it ends in the background and its params stay cached */
    hold_release(&h, 0);
    cz_params_item_t items[4];
    double until = cz_mono_s() + 10;
    size_t n = 0;
    while ((n = cz_prover_params_list(p, items, 4)) != 1 || items[0].loading || items[0].users)
        if (cz_mono_s() > until)
            break;
        else
            usleep(1000);
    CHECK_EQ_U64(n, 1);
    CHECK(strstr(items[0].path, "slow.params") != NULL);
    CHECK(!items[0].loading);
    cz_prover_free(p);
    hold_free(&h);
}

CZ_TEST(two_jobs_on_one_params_file_start_one_load)
{
    hold_t h;
    cz_fault_t f;
    hold_init(&h, &f);
    cz_prover_t *p = new_prover(&f);
    REQUIRE(p);
    uint64_t a = submit(p, "slow", 2, NULL), b = submit(p, "slow.params", 3, NULL);
    REQUIRE(a && b);
    REQUIRE(hold_reached(&h));
    CHECK(waits_for_params(p, a));
    CHECK(waits_for_params(p, b));
    CHECK_EQ_U64(cz_fault_reached(&f, CZ_FAULT_PARAMS_LOAD), 1);
    hold_release(&h, 0);
    cz_job_info_t info;
    CHECK_OK(cz_prover_wait(p, a, 30, &info, NULL));
    CHECK_EQ_INT(info.state, CZ_JOB_DONE);
    CHECK_OK(cz_prover_wait(p, b, 30, &info, NULL));
    CHECK_EQ_INT(info.state, CZ_JOB_DONE);
    CHECK_EQ_U64(cz_fault_reached(&f, CZ_FAULT_PARAMS_LOAD), 1);
    CHECK_EQ_U64(params_misses(p), 1);
    cz_prover_free(p);
    hold_free(&h);
}

CZ_TEST(a_failed_load_fails_every_job_waiting_for_it)
{
    hold_t h;
    cz_fault_t f;
    hold_init(&h, &f);
    cz_prover_t *p = new_prover(&f);
    REQUIRE(p);
    uint64_t ids[3] = { submit(p, "slow", 1, NULL), submit(p, "slow", 4, NULL),
                        submit(p, "slow", 2, NULL) };
    REQUIRE(ids[0] && ids[1] && ids[2]);
    REQUIRE(hold_reached(&h));
    for (int i = 0; i < 3; i++)
        CHECK(waits_for_params(p, ids[i]));
    hold_release(&h, CZ_EIO);
    for (int i = 0; i < 3; i++) {
        cz_job_info_t info;
        CHECK_OK(cz_prover_wait(p, ids[i], 30, &info, NULL));
        CHECK_EQ_INT(info.state, CZ_JOB_FAILED);
        CHECK_EQ_INT(info.error, CZ_EIO);
        if (!strstr(info.message, "injected fault: params_load #1"))
            CZ__FAIL("job %d: message '%s' is not the load's", i, info.message);
    }
    CHECK_EQ_U64(cz_fault_reached(&f, CZ_FAULT_PARAMS_LOAD), 1);
    /* a later job starts a new load (the file may have been fixed) */
    hold_release(&h, 0);
    uint64_t again = submit(p, "slow", 2, NULL);
    REQUIRE(again);
    cz_job_info_t info;
    CHECK_OK(cz_prover_wait(p, again, 30, &info, NULL));
    CHECK_EQ_INT(info.state, CZ_JOB_DONE);
    CHECK_EQ_U64(cz_fault_reached(&f, CZ_FAULT_PARAMS_LOAD), 2);
    cz_prover_free(p);
    hold_free(&h);
}

/*
 * Freeing the prover just as its stager reaps an ended load (it drops the
 * lock to join the loader): the stop must not be missed. Before the fix the
 * stager went back to sleep after the reap and cz_prover_free hung in its
 * join (a race: 300 rounds hung it in every run we made; a round is ~2 ms).
 */
CZ_TEST(free_right_after_a_failed_load_does_not_hang)
{
    for (int round = 0; round < 300; round++) {
        cz_fault_t f;
        cz_fault_init(&f);
        cz_fault_arm(&f, CZ_FAULT_PARAMS_LOAD, 1, true);
        cz_prover_t *p = new_prover(&f);
        REQUIRE(p);
        uint64_t id = submit(p, "slow", 2, NULL);
        REQUIRE(id);
        cz_job_info_t info;
        CHECK_OK(cz_prover_wait(p, id, 30, &info, NULL));
        CHECK_EQ_INT(info.state, CZ_JOB_FAILED);
        cz_prover_free(p);
    }
}

/* toy.params with the count word at |off| raised by one, cut |keep| bytes after that word. */
static void write_bad(const char *name, size_t off, size_t keep)
{
    REQUIRE(off + 4 + keep < toy_len);
    uint8_t *b = malloc(toy_len);
    REQUIRE(b);
    memcpy(b, toy_bytes, toy_len);
    uint32_t n = ((uint32_t)b[off] << 24 | (uint32_t)b[off + 1] << 16 | (uint32_t)b[off + 2] << 8 |
                  b[off + 3]) +
                 1;
    for (int i = 0; i < 4; i++)
        b[off + i] = (uint8_t)(n >> (24 - 8 * i));
    write_bytes(name, b, off + 4 + keep);
    free(b);
}

/* A job on params |name| fails with a shape error that names |field|, and no load starts. */
static void refused_by_shape(cz_prover_t *p, cz_fault_t *f, const char *name, const char *field)
{
    uint64_t id = submit(p, name, 2, NULL);
    REQUIRE(id);
    cz_job_info_t info;
    CHECK_OK(cz_prover_wait(p, id, 30, &info, NULL));
    CHECK_EQ_INT(info.state, CZ_JOB_FAILED);
    CHECK_EQ_INT(info.error, CZ_EMISMATCH); /* before the fix: CZ_EFORMAT, "truncated" */
    char file[96];
    snprintf(file, sizeof file, "%s.params", name);
    if (!strstr(info.message, file) || !strstr(info.message, field) ||
        !strstr(info.message, "do not fit") || strstr(info.message, "truncated"))
        CZ__FAIL("'%s' does not name %s and %s", info.message, file, field);
    CHECK_EQ_U64(cz_fault_reached(f, CZ_FAULT_PARAMS_LOAD), 0);
    CHECK_EQ_U64(params_misses(p), 0);
}

CZ_TEST(a_params_file_of_another_shape_is_refused_from_its_counts)
{
    make_params_dir();
    const size_t ic_off = 3 * 96 + 3 * 192; /* after the vk's fixed points */
    const size_t h_off = ic_off + 4 + toy_n_ic * 96;
    write_bad("badic", ic_off, 96); /* cut inside the ic points */
    write_bad("badh", h_off, 0);    /* cut right after h's count */
    cz_fault_t f;
    cz_fault_init(&f);
    cz_prover_t *p = new_prover(&f);
    REQUIRE(p);
    char want[64];
    snprintf(want, sizeof want, "ic count %zu at offset %zu, the job needs %zu", toy_n_ic + 1,
             ic_off, toy_n_ic);
    refused_by_shape(p, &f, "badic", want);
    refused_by_shape(p, &f, "badh", "h count");
    cz_prover_free(p);
}

/* ---- timing jobs: random params shared by shape and seed ----------------------------- */

static uint64_t submit_timing(cz_prover_t *p, uint64_t seed)
{
    cz_timing_request_t r;
    cz_timing_request_init(&r, "circuit");
    r.fields = "{\"circuit\":\"toy\"}";
    r.seed = seed;
    uint64_t id = 0;
    cz_error_t err;
    if (cz_prover_submit_timing(p, &r, &id, &err) != CZ_OK)
        fprintf(stderr, "submit_timing: %s\n", err.message);
    return id;
}

/* Wait (10 s at most) until job |id| is in the engine. */
static bool started(cz_prover_t *p, uint64_t id)
{
    double until = cz_mono_s() + 10;
    cz_job_info_t info;
    while (cz_prover_status(p, id, &info, NULL) == CZ_OK && !info.started && cz_mono_s() < until)
        usleep(1000);
    return info.started;
}

static pjob_t *job_of(cz_prover_t *p, uint64_t id)
{
    for (pjob_t *j = p->jobs; j; j = j->next)
        if (j->id == id)
            return j;
    return NULL;
}

/* Two timing jobs of one shape and seed alive at once hold one set of random params (made
 * once, counted once), a third of another seed its own; the last to end frees them. The
 * device region is held, so all three are alive while the test looks. */
CZ_TEST(timing_jobs_of_one_shape_and_seed_share_their_params)
{
    hold_t h;
    cz_fault_t f;
    hold_init(&h, &f);
    h.site = CZ_FAULT_DEVICE;
    cz_prover_t *p = new_prover(&f);
    REQUIRE(p != NULL);
    uint64_t a = submit_timing(p, 5), b = submit_timing(p, 5), c = submit_timing(p, 6);
    REQUIRE(a && b && c);
    REQUIRE(started(p, a) && started(p, b) && started(p, c));
    REQUIRE(hold_reached(&h));
    cz_mutex_lock(&p->mu);
    pjob_t *ja = job_of(p, a), *jb = job_of(p, b), *jc = job_of(p, c);
    REQUIRE(ja && jb && jc && ja->rparams && jc->rparams);
    CHECK(ja->rparams == jb->rparams);
    CHECK_EQ_U64(ja->rparams->refs, 2);
    CHECK(jc->rparams != ja->rparams);
    CHECK_EQ_U64(jc->rparams->refs, 1);
    CHECK_EQ_U64(p->timing_bytes, ja->rparams->bytes + jc->rparams->bytes);
    cz_mutex_unlock(&p->mu);
    hold_release(&h, 0);
    cz_job_info_t info;
    const uint64_t ids[3] = { a, b, c };
    for (size_t k = 0; k < 3; k++) {
        CHECK_OK(cz_prover_wait(p, ids[k], 60, &info, NULL));
        CHECK_EQ_INT(info.state, CZ_JOB_DONE);
    }
    cz_mutex_lock(&p->mu);
    CHECK_EQ_U64(p->timing_bytes, 0);
    cz_mutex_unlock(&p->mu);
    cz_prover_free(p);
    hold_free(&h);
}

CZ_TEST_MAIN()
