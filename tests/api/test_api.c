/*
 * tests/api/test_api.c — the public API (cuzk.h) on the CPU backend
 * with the "circuit" kind: version and error table; submit refusals that
 * name what is wrong; a job proved end to end (callback once, status,
 * proof and public inputs, checked independently against the circuit's
 * witness with the pairing); params that do not fit fail the job with a
 * message; cancel; forget; the params cache by name; freeing a prover
 * with jobs queued; concurrent submits prepare at once (a fault callback
 * at the PREPARE site holds each until all are inside); the reserved
 * tails of the structs that grow (zeroed on output, refused non-zero on
 * input). The params (toy circuit, seeded setup) are written to a
 * temporary params_dir, as a user's would be. Also run under TSan.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk.h"
#include "api/internal.h"
#include "circuits/registry.h"
#include "groth16/proof.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "cz_test.h"
#include "cz_toy_params.h"

static char dir[64];
static cz_params_t *params;

static void remove_params_dir(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/toy.params", dir);
    unlink(path);
    rmdir(dir);
    cz_params_free(params);
}

/* A params_dir holding toy.params (seeded setup of the toy circuit), once per process. */
static void make_params_dir(void)
{
    if (params)
        return;
    snprintf(dir, sizeof dir, "/tmp/cz_api_XXXXXX");
    if (!mkdtemp(dir))
        abort();
    atexit(remove_params_dir);
    cz_ctx_t *ctx;
    cz_ctx_new(&ctx, NULL, 2);
    params = cz_test_toy_params(5);
    char path[128];
    snprintf(path, sizeof path, "%s/toy.params", dir);
    if (cz_params_write(ctx, path, params) != CZ_OK)
        abort();
    cz_ctx_free(ctx);
}

static cz_prover_t *new_prover(void)
{
    make_params_dir();
    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.backend = "cpu";
    cfg.threads = 2;
    cfg.workers_per_device = 2;
    cfg.memory_budget = (size_t)2 << 30;
    cfg.params_dir = dir;
    cz_prover_t *p = NULL;
    cz_error_t err;
    if (cz_prover_new(&p, &cfg, &err) != CZ_OK)
        fprintf(stderr, "cz_prover_new: %s\n", err.message);
    return p;
}

/* ---- callbacks ------------------------------------------------------------------ */

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int calls;
    uint64_t id;
    cz_job_state_t state;
    int status_rc; /* cz_prover_status from inside the callback */
    cz_job_state_t status_state;
} done_rec;

static void on_done(void *user, cz_prover_t *p, uint64_t id, cz_job_state_t state)
{
    done_rec *d = user;
    cz_job_info_t info;
    int rc = cz_prover_status(p, id, &info, NULL); /* the outcome is visible already */
    pthread_mutex_lock(&d->mu);
    d->calls++;
    d->id = id;
    d->state = state;
    d->status_rc = rc;
    d->status_state = info.state;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->mu);
}

static void rec_init(done_rec *d)
{
    memset(d, 0, sizeof *d);
    pthread_mutex_init(&d->mu, NULL);
    pthread_cond_init(&d->cv, NULL);
}

static void rec_wait(done_rec *d, int calls)
{
    pthread_mutex_lock(&d->mu);
    while (d->calls < calls)
        pthread_cond_wait(&d->cv, &d->mu);
    pthread_mutex_unlock(&d->mu);
}

static void rec_free(done_rec *d)
{
    pthread_cond_destroy(&d->cv);
    pthread_mutex_destroy(&d->mu);
}

/* ---- cases ------------------------------------------------------------------------ */

CZ_TEST(version_and_errors)
{
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", CZ_VERSION_MAJOR, CZ_VERSION_MINOR, CZ_VERSION_PATCH);
    CHECK(!strcmp(cz_version(), want));
    CHECK_EQ_INT(cz_version_hex(), CZ_VERSION_HEX);
    for (int c = 0; c < CZ_E_COUNT; c++)
        CHECK(strcmp(cz_err_name(-c), "CZ_E?") != 0);
    CHECK(!strcmp(cz_err_name(-CZ_E_COUNT), "CZ_E?"));
    CHECK(!strcmp(cz_err_name(CZ_EINVAL), "CZ_EINVAL"));
    CHECK(cz_kind_count() >= 2);
    bool porep = false;
    for (size_t i = 0; i < cz_kind_count(); i++)
        porep |= !strcmp(cz_kind_name(i), "porep-c2") && cz_kind_summary(i);
    CHECK(porep);
    CHECK(cz_kind_name(cz_kind_count()) == NULL);
}

static void refused(cz_prover_t *p, const cz_job_request_t *req, int code, const char *says)
{
    cz_error_t err;
    uint64_t id = 99;
    int rc = cz_prover_submit(p, req, &id, &err);
    CHECK_EQ_INT(rc, code);
    CHECK_EQ_INT(err.code, code);
    CHECK_EQ_U64(id, 0);
    if (!strstr(err.message, says))
        CZ__FAIL("message '%s' does not say '%s'", err.message, says);
}

CZ_TEST(submit_refusals_say_why)
{
    cz_prover_t *p = new_prover();
    REQUIRE(p);
    cz_job_request_t r;
    cz_job_request_init(&r, "nope", NULL, 0);
    refused(p, &r, CZ_EINVAL, "porep-c2"); /* lists the known kinds */
    cz_job_request_init(&r, "circuit", NULL, 0);
    r.params = "toy";
    refused(p, &r, CZ_EINVAL, "circuit: required");
    r.fields = "{\"circuit\":\"toy\",\"colour\":1}";
    refused(p, &r, CZ_EINVAL, "colour: unknown field for kind circuit");
    r.fields = "[1]";
    refused(p, &r, CZ_EINVAL, "fields: not a JSON object");
    r.fields = "{\"circuit\":\"toy\"}";
    r.priority = 9;
    refused(p, &r, CZ_EINVAL, "priority");
    r.priority = 0;
    r.params = "missing";
    refused(p, &r, CZ_ENOTFOUND, dir);
    r.params = "/etc/passwd";
    refused(p, &r, CZ_EINVAL, "paths are not accepted");
    r.params = "../toy";
    refused(p, &r, CZ_EINVAL, "not a name");
    r.params = NULL;
    refused(p, &r, CZ_EINVAL, "params: required");
    cz_job_request_init(&r, "porep-c2", NULL, 0);
    refused(p, &r, CZ_EINVAL, "input: required");
    cz_job_request_init(&r, "porep-c2", "{\"registered_proof\":", 20);
    refused(p, &r, CZ_EFORMAT, "");
    cz_prover_free(p);
}

CZ_TEST(a_job_end_to_end)
{
    cz_prover_t *p = new_prover();
    REQUIRE(p);
    done_rec d;
    rec_init(&d);
    cz_job_request_t r;
    cz_job_request_init(&r, "circuit", NULL, 0);
    r.fields = "{\"circuit\":\"toy\",\"partitions\":3,\"seed\":4}";
    r.params = "toy";
    r.on_done = on_done;
    r.user = &d;
    uint64_t id = 0;
    cz_error_t err;
    REQUIRE(cz_prover_submit(p, &r, &id, &err) == CZ_OK);
    CHECK(id > 0);
    cz_job_info_t info;
    CHECK_OK(cz_prover_wait(p, id, 120, &info, &err));
    CHECK_EQ_INT(info.state, CZ_JOB_DONE);
    CHECK_EQ_U64(info.partitions, 3);
    CHECK_EQ_U64(info.partitions_done, 3);
    CHECK(info.t.total >= info.t.synthesis);
    rec_wait(&d, 1);
    usleep(50 * 1000);
    CHECK_EQ_INT(d.calls, 1);
    CHECK_EQ_U64(d.id, id);
    CHECK_EQ_INT(d.state, CZ_JOB_DONE);
    CHECK_OK(d.status_rc);
    CHECK_EQ_INT(d.status_state, CZ_JOB_DONE);

    uint8_t *proof = NULL, *inputs = NULL;
    size_t len = 0, per = 0, parts = 0;
    CHECK_OK(cz_prover_proof(p, id, &proof, &len, &err));
    CHECK_EQ_U64(len, 3 * CZ_PROOF_BYTES);
    CHECK_OK(cz_prover_public_inputs(p, id, &inputs, &per, &parts, &err));
    CHECK_EQ_U64(parts, 3);
    /* independently: the witness the circuit kind makes (seed*1000 + p + 1) and the pairing */
    cz_ctx_t *ctx;
    cz_ctx_new(&ctx, NULL, 2);
    cz_circuit_t c;
    cz_circuit_parse(ctx, "toy", &c);
    cz_proof_t pr[3];
    CHECK_OK(cz_proofs_decode(ctx, pr, 3, proof, len));
    cz_fr *fr = calloc(3 * (per ? per : 1), sizeof *fr);
    for (size_t k = 0; k < 3; k++) {
        cz_cs_witness_t w;
        REQUIRE(cz_circuit_witness(ctx, &c, 4 * 1000 + k + 1, &w) == CZ_OK);
        CHECK_EQ_U64(w.num_inputs - 1, per);
        for (size_t i = 0; i < per; i++) {
            uint8_t repr[32];
            cz_fr_to_repr(repr, &w.input[1 + i]);
            CHECK(!memcmp(repr, inputs + 32 * (k * per + i), 32));
            fr[k * per + i] = w.input[1 + i];
        }
        cz_cs_witness_free(&w);
    }
    cz_pvk_t *pvk = NULL;
    CHECK_OK(cz_pvk_new(ctx, &pvk, &params->vk));
    CHECK_OK(cz_verify_batch(ctx, pvk, pr, 3, fr, per));
    pr[1].a = pr[0].a; /* the check can fail */
    CHECK(cz_verify_batch(ctx, pvk, pr, 3, fr, per) != CZ_OK);
    cz_pvk_free(pvk);
    free(fr);
    cz_ctx_free(ctx);
    cz_free(proof);
    cz_free(inputs);

    CHECK_EQ_INT(cz_prover_forget(p, id, &err), CZ_OK);
    CHECK_EQ_INT(cz_prover_status(p, id, &info, &err), CZ_ENOTFOUND);
    CHECK(strstr(err.message, "not found") != NULL);
    CHECK_EQ_INT(cz_prover_forget(p, id, NULL), CZ_ENOTFOUND);
    rec_free(&d);
    cz_prover_free(p);
}

CZ_TEST(params_that_do_not_fit_fail_the_job)
{
    cz_prover_t *p = new_prover();
    REQUIRE(p);
    cz_job_request_t r;
    cz_job_request_init(&r, "circuit", NULL, 0);
    r.fields = "{\"circuit\":\"bench:1024\"}";
    r.params = "toy";
    uint64_t id = 0;
    cz_error_t err;
    REQUIRE(cz_prover_submit(p, &r, &id, &err) == CZ_OK);
    cz_job_info_t info;
    CHECK_OK(cz_prover_wait(p, id, 60, &info, NULL));
    CHECK_EQ_INT(info.state, CZ_JOB_FAILED);
    CHECK(strstr(info.message, "do not fit") != NULL);
    uint8_t *proof = NULL;
    size_t len;
    CHECK(cz_prover_proof(p, id, &proof, &len, &err) != CZ_OK);
    CHECK(strstr(err.message, "failed") != NULL);
    CHECK(proof == NULL);
    cz_prover_free(p);
}

CZ_TEST(cancel_ends_the_job_canceled)
{
    cz_prover_t *p = new_prover();
    REQUIRE(p);
    done_rec d;
    rec_init(&d);
    cz_job_request_t r;
    cz_job_request_init(&r, "circuit", NULL, 0);
    r.fields = "{\"circuit\":\"toy\",\"partitions\":200}";
    r.params = "toy";
    r.on_done = on_done;
    r.user = &d;
    uint64_t id = 0;
    REQUIRE(cz_prover_submit(p, &r, &id, NULL) == CZ_OK);
    CHECK_OK(cz_prover_cancel(p, id, NULL));
    cz_job_info_t info;
    CHECK_OK(cz_prover_wait(p, id, 60, &info, NULL));
    CHECK_EQ_INT(info.state, CZ_JOB_CANCELED);
    CHECK(info.partitions_done < 200);
    rec_wait(&d, 1);
    CHECK_EQ_INT(d.state, CZ_JOB_CANCELED);
    uint8_t *proof = NULL;
    size_t len;
    CHECK_EQ_INT(cz_prover_proof(p, id, &proof, &len, NULL), CZ_ECANCELED);
    CHECK_OK(cz_prover_cancel(p, id, NULL)); /* already ended: still OK */
    CHECK_EQ_INT(cz_prover_cancel(p, id + 100, NULL), CZ_ENOTFOUND);
    rec_free(&d);
    cz_prover_free(p);
}

CZ_TEST(params_by_name)
{
    cz_prover_t *p = new_prover();
    REQUIRE(p);
    CHECK(!strcmp(cz_prover_params_dir(p), dir));
    cz_params_item_t it;
    cz_error_t err;
    CHECK_OK(cz_prover_params_preload(p, "toy", &it, &err));
    CHECK(strstr(it.path, "toy.params") != NULL);
    CHECK(it.bytes > 0);
    CHECK_OK(cz_prover_params_preload(p, "toy.params", &it, &err)); /* a hit */
    CHECK(it.load_ms < 1000); /* no load: the wait for the cache lock at most */
    cz_params_item_t list[4];
    CHECK_EQ_U64(cz_prover_params_list(p, list, 4), 1);
    CHECK_EQ_U64(list[0].users, 0);
    cz_prover_stats_t st;
    cz_prover_stats(p, &st);
    CHECK_EQ_U64(st.params_entries, 1);
    CHECK_EQ_U64(st.params_hits, 1);
    CHECK_OK(cz_prover_params_evict(p, "toy", &err));
    CHECK_EQ_INT(cz_prover_params_evict(p, "toy", &err), CZ_ENOTFOUND);
    CHECK_EQ_INT(cz_prover_params_preload(p, "absent", &it, &err), CZ_ENOTFOUND);
    CHECK(strstr(err.message, "absent") != NULL);
    cz_prover_info_t pi;
    cz_prover_info(p, &pi);
    CHECK(!strcmp(pi.backend, "cpu"));
    CHECK_EQ_U64(pi.devices, 1);
    CHECK_EQ_U64(pi.memory_budget, (size_t)2 << 30);
    cz_device_memory_t mem; /* the CPU backend plans no device memory */
    CHECK_OK(cz_prover_device_memory(p, 0, &mem));
    CHECK_EQ_STR(mem.plan, "");
    CHECK_EQ_U64(mem.h2d_bytes, 0);
    CHECK_EQ_INT(cz_prover_device_memory(p, 1, &mem), CZ_ERANGE);
    cz_prover_free(p);
}

/* ---- structs that grow (cuzk.h) ------------------------------------------------- */

static bool words_zero(const uint64_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (w[i])
            return false;
    return true;
}
#define RESERVED_ZERO(s) words_zero((s).reserved, sizeof(s).reserved / sizeof *(s).reserved)

/* Every struct the library writes comes back with its reserved tail zero,
 * whatever the caller's memory held: a field carved from it later reads 0
 * ("not reported") in a program run against this library. */
CZ_TEST(output_structs_zero_their_reserved_tail)
{
    cz_prover_t *p = new_prover();
    REQUIRE(p);
    cz_error_t err;
    cz_params_item_t it, list[2];
    cz_prover_stats_t st;
    cz_prover_info_t pi;
    cz_device_memory_t mem;
    cz_job_info_t info;
    memset(&err, 0xa5, sizeof err);
    memset(&it, 0xa5, sizeof it);
    memset(list, 0xa5, sizeof list);
    memset(&st, 0xa5, sizeof st);
    memset(&pi, 0xa5, sizeof pi);
    memset(&mem, 0xa5, sizeof mem);
    memset(&info, 0xa5, sizeof info);
    CHECK_OK(cz_prover_params_preload(p, "toy", &it, &err));
    CHECK(RESERVED_ZERO(err));
    CHECK(RESERVED_ZERO(it));
    CHECK_EQ_U64(cz_prover_params_list(p, list, 2), 1);
    CHECK(RESERVED_ZERO(list[0]));
    cz_prover_stats(p, &st);
    CHECK(RESERVED_ZERO(st));
    cz_prover_info(p, &pi);
    CHECK(RESERVED_ZERO(pi));
    CHECK_OK(cz_prover_device_memory(p, 0, &mem));
    CHECK(RESERVED_ZERO(mem));
    cz_job_request_t r;
    cz_job_request_init(&r, "circuit", NULL, 0);
    r.fields = "{\"circuit\":\"toy\"}";
    r.params = "toy";
    uint64_t id = 0;
    memset(&err, 0xa5, sizeof err);
    CHECK_OK(cz_prover_submit(p, &r, &id, &err));
    CHECK_OK(cz_prover_wait(p, id, -1, &info, NULL));
    CHECK(RESERVED_ZERO(info));
    CHECK(RESERVED_ZERO(info.t));
    memset(&err, 0xa5, sizeof err);
    CHECK_EQ_INT(cz_prover_status(p, id + 100, &info, &err), CZ_ENOTFOUND);
    CHECK(RESERVED_ZERO(err)); /* an error message is written, the tail zeroed */
    cz_prover_free(p);
}

/* A caller-filled struct with a non-zero reserved word is refused (it may
 * carry a field of a newer header), and the message says what to do. */
CZ_TEST(input_structs_refuse_a_reserved_word)
{
    make_params_dir();
    cz_error_t err;
    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    CHECK(RESERVED_ZERO(cfg));
    cfg.backend = "cpu";
    cfg.params_dir = dir;
    cfg.reserved[3] = 1;
    cz_prover_t *p = (cz_prover_t *)&cfg; /* not NULL: new must set it */
    CHECK_EQ_INT(cz_prover_new(&p, &cfg, &err), CZ_EINVAL);
    CHECK(p == NULL);
    CHECK(strstr(err.message, "cz_prover_config_init") != NULL);
    cfg.reserved[3] = 0;
    cfg.reserved_pad = 1;
    CHECK_EQ_INT(cz_prover_new(&p, &cfg, &err), CZ_EINVAL);
    cfg.reserved_pad = 0;
    cfg.cuda_max_batch = 5; /* more than a region takes (CZ_BACKEND_MAX_BATCH) */
    CHECK_EQ_INT(cz_prover_new(&p, &cfg, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "cuda_max_batch 5") != NULL);

    p = new_prover();
    REQUIRE(p);
    cz_job_request_t r;
    cz_job_request_init(&r, "circuit", NULL, 0);
    CHECK(RESERVED_ZERO(r));
    r.fields = "{\"circuit\":\"toy\"}";
    r.params = "toy";
    r.reserved[7] = 1;
    refused(p, &r, CZ_EINVAL, "cz_job_request_init");
    cz_prover_free(p);

    cz_porep_public_t pub;
    memset(&pub, 0, sizeof pub);
    pub.sector_size = 2048;
    pub.reserved[0] = 1;
    uint8_t proof[192] = { 0 };
    CHECK_EQ_INT(cz_porep_c2_verify(NULL, dir, &pub, proof, sizeof proof, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "reserved") != NULL);
}

/* Jobs still queued or running when the prover is freed: no leak, no hang (ASan/TSan). */
CZ_TEST(free_with_jobs_in_flight)
{
    cz_prover_t *p = new_prover();
    REQUIRE(p);
    cz_job_request_t r;
    cz_job_request_init(&r, "circuit", NULL, 0);
    r.fields = "{\"circuit\":\"toy\",\"partitions\":20}";
    r.params = "toy";
    for (int i = 0; i < 4; i++) {
        uint64_t id;
        CHECK_OK(cz_prover_submit(p, &r, &id, NULL));
    }
    cz_prover_free(p);
    cz_prover_free(NULL);
}

CZ_TEST(bad_config_is_refused)
{
    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.backend = "abacus";
    cz_prover_t *p = (cz_prover_t *)1;
    cz_error_t err;
    CHECK_EQ_INT(cz_prover_new(&p, &cfg, &err), CZ_EINVAL);
    CHECK(p == NULL);
    CHECK(strstr(err.message, "abacus") != NULL);
}

/* ---- submits prepare concurrently (no lock across a kind's prepare) ------------------ */

#define PREPARERS 3

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int inside; /* submits inside a prepare now */
    int most;   /* the most at once */
    bool timed_out;
} gate_t;

/*
 * The PREPARE fault site's callback: a prepare waits there until every
 * submit is inside one. Prepares serialized by a lock would never meet:
 * the first waits out its 10 s and the test fails.
 */
static int gate_cb(void *arg, cz_fault_site_t site, uint64_t n)
{
    (void)n;
    gate_t *g = arg;
    if (site != CZ_FAULT_PREPARE)
        return CZ_OK;
    pthread_mutex_lock(&g->mu);
    g->inside++;
    if (g->inside > g->most)
        g->most = g->inside;
    pthread_cond_broadcast(&g->cv);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    while (g->most < PREPARERS && !g->timed_out)
        if (pthread_cond_timedwait(&g->cv, &g->mu, &until))
            g->timed_out = true;
    g->inside--;
    pthread_mutex_unlock(&g->mu);
    return CZ_OK;
}

typedef struct {
    cz_prover_t *p;
    int seed;
    int rc;
    uint64_t id;
} submitter_t;

static void *submitter(void *arg)
{
    submitter_t *s = arg;
    char fields[96];
    snprintf(fields, sizeof fields, "{\"circuit\":\"toy\",\"seed\":%d}", s->seed);
    cz_job_request_t r;
    cz_job_request_init(&r, "circuit", NULL, 0);
    r.fields = fields;
    r.params = "toy";
    s->rc = cz_prover_submit(s->p, &r, &s->id, NULL);
    return NULL;
}

CZ_TEST(submits_prepare_concurrently)
{
    make_params_dir();
    gate_t g;
    memset(&g, 0, sizeof g);
    pthread_mutex_init(&g.mu, NULL);
    pthread_cond_init(&g.cv, NULL);
    cz_fault_t f;
    cz_fault_init(&f);
    f.cb = gate_cb;
    f.cb_arg = &g;
    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.backend = "cpu";
    cfg.threads = 2;
    cfg.memory_budget = (size_t)2 << 30;
    cfg.params_dir = dir;
    cz_prover_t *p = NULL;
    cz_error_t err;
    REQUIRE(cz__prover_new_with(&p, &cfg, &f, NULL, &err) == CZ_OK);
    pthread_t th[PREPARERS];
    submitter_t sub[PREPARERS];
    for (int i = 0; i < PREPARERS; i++) {
        sub[i] = (submitter_t){ .p = p, .seed = 10 + i };
        REQUIRE(pthread_create(&th[i], NULL, submitter, &sub[i]) == 0);
    }
    for (int i = 0; i < PREPARERS; i++)
        pthread_join(th[i], NULL);
    CHECK(!g.timed_out);
    CHECK_EQ_INT(g.most, PREPARERS);
    CHECK_EQ_U64(cz_fault_reached(&f, CZ_FAULT_PREPARE), PREPARERS);
    for (int i = 0; i < PREPARERS; i++) {
        CHECK_OK(sub[i].rc);
        cz_job_info_t info;
        CHECK_OK(cz_prover_wait(p, sub[i].id, 120, &info, &err));
        CHECK_EQ_INT(info.state, CZ_JOB_DONE);
        CHECK(info.started);
    }
    cz_prover_free(p);
    pthread_cond_destroy(&g.cv);
    pthread_mutex_destroy(&g.mu);
}

CZ_TEST_MAIN()
