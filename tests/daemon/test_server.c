/*
 * tests/daemon/test_server.c — cuzkd's job layer (daemon/server.h) in
 * process, over the prover on the CPU backend with the "circuit" kind and
 * toy params: the concurrency the black-box tests cannot see under a
 * sanitizer. Also run under TSan (label tsan).
 *   - submits of different jobs prepare at once: three submits, each
 *     prepare held 1 s by the PREPARE fault site (test.fault), are all
 *     accepted in well under the 3 s a serialized submit would take;
 *   - four concurrent submits of one request_id make one job (one
 *     created, three existing, one id);
 *   - waiters are woken by the job's end (no poll); results; cancel of an
 *     ended and of a running job;
 *   - shutdown and a new server on the same journal serve the same proof.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "circuits/registry.h"
#include "core/clock.h"
#include "daemon/jsonio.h"
#include "daemon/log.h"
#include "daemon/server.h"
#include "groth16/setup.h"
#include "cz_test.h"
#include "daemon_test.h"
#include "cz_toy_params.h"

static char dir[64];

static void rm_tree(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* dir/params/toy.params (seeded setup of the toy circuit), once. */
static void make_dirs(void)
{
    if (*dir)
        return;
    cz_log_set_level(CZ_LOG_ERROR);
    snprintf(dir, sizeof dir, "/tmp/cz_server_XXXXXX");
    if (!mkdtemp(dir))
        abort();
    atexit(rm_tree);
    char path[160];
    snprintf(path, sizeof path, "%s/params", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/params/toy.params", dir);
    cz_test_write_toy_params(path, 9);
}

/* A server over journal dir/|journal| and dir/params; |fault| a test.fault spec or "". */
static cz_server_t *new_server(cz_dconfig_t *cfg, const char *journal, const char *fault)
{
    make_dirs();
    return cz_test_server_new(cfg, dir, journal, fault, NULL);
}

static void free_server(cz_server_t *s, cz_dconfig_t *cfg)
{
    cz_server_shutdown(s, 5);
    cz_server_free(s);
    cz_dconfig_clear(cfg);
}

/* Submit request object |req| (daemon/jsonio.h's form) as a door does; *id and *existing
 * (both may be NULL) out. */
static int submit_json(cz_server_t *s, cz_ctx_t *ctx, const json_t *req, bool retry, char *id,
                       bool *existing)
{
    cz_submit_json_t sj;
    cz_submit_out_t out = { .existing = false };
    int rc = cz_submit_from_json(ctx, s, req, &sj);
    if (rc == CZ_OK) {
        sj.req.retry = retry;
        rc = cz_server_submit(s, ctx, &sj.req, &out);
        cz_submit_json_free(&sj);
    }
    if (rc == CZ_OK && id)
        snprintf(id, 32, "%s", out.id);
    if (rc == CZ_OK && existing)
        *existing = out.existing;
    return rc;
}

/* The number of jobs the server lists. */
static size_t listed(cz_server_t *s)
{
    cz_job_status_t *v = NULL;
    size_t n = 0;
    if (cz_server_list(s, &v, &n) != CZ_OK)
        return (size_t)-1;
    free(v);
    return n;
}

typedef struct {
    cz_server_t *s;
    const char *body;
    int rc;
    bool existing;
    char id[32];
} submit_t;

static void *submitter(void *arg)
{
    submit_t *t = arg;
    cz_ctx_t *ctx = NULL;
    cz_ctx_new(&ctx, NULL, 1);
    json_t *req = json_loads(t->body, 0, NULL);
    t->rc = submit_json(t->s, ctx, req, false, t->id, &t->existing);
    if (t->rc != CZ_OK)
        fprintf(stderr, "submit: %s\n", cz_ctx_message(ctx));
    json_decref(req);
    cz_ctx_free(ctx);
    return NULL;
}

/* Run |n| submits of |bodies| at once; returns the seconds they took together. */
static double submit_all(cz_server_t *s, submit_t *t, const char *const *bodies, int n)
{
    pthread_t th[8];
    double t0 = cz_mono_s();
    for (int i = 0; i < n; i++) {
        t[i] = (submit_t){ .s = s, .body = bodies[i] };
        if (pthread_create(&th[i], NULL, submitter, &t[i]))
            abort();
    }
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    return cz_mono_s() - t0;
}

static const char *state_of(cz_server_t *s, const char *id, char *buf, size_t cap)
{
    cz_ctx_t *ctx = NULL;
    cz_ctx_new(&ctx, NULL, 1);
    cz_job_status_t *st = calloc(1, sizeof *st);
    snprintf(buf, cap, "?");
    if (st && cz_server_job(s, ctx, id, st) == CZ_OK)
        snprintf(buf, cap, "%s", cz_job_status_state(st));
    free(st);
    cz_ctx_free(ctx);
    return buf;
}

#define PREPARE_MS 1000

CZ_TEST(submits_of_different_jobs_prepare_at_once)
{
    cz_dconfig_t cfg;
    char spec[64];
    snprintf(spec, sizeof spec, "prepare:1+~%d", PREPARE_MS);
    cz_server_t *s = new_server(&cfg, "j-prepare", spec);
    REQUIRE(s);
    const char *bodies[] = {
        "{\"kind\":\"circuit\",\"circuit\":\"toy\",\"params\":\"toy\",\"seed\":1}",
        "{\"kind\":\"circuit\",\"circuit\":\"toy\",\"params\":\"toy\",\"seed\":2}",
        "{\"kind\":\"circuit\",\"circuit\":\"toy\",\"params\":\"toy\",\"seed\":3}",
    };
    submit_t t[3];
    double took = submit_all(s, t, bodies, 3);
    for (int i = 0; i < 3; i++)
        CHECK_OK(t[i].rc);
    /* serialized: >= 3 s; at once: 1 s plus the journal writes */
    if (!(took < 2.5 * PREPARE_MS / 1e3))
        CZ__FAIL("three submits with a %d ms prepare took %.2f s: prepares are serialized",
                 PREPARE_MS, took);
    cz_ctx_t *ctx = NULL;
    cz_ctx_new(&ctx, NULL, 1);
    for (int i = 0; i < 3; i++) {
        CHECK_OK(cz_server_await(s, ctx, t[i].id, 120, NULL, false));
        char st[32];
        CHECK(!strcmp(state_of(s, t[i].id, st, sizeof st), "done"));
    }
    cz_ctx_free(ctx);
    free_server(s, &cfg);
}

CZ_TEST(one_request_id_is_one_job_however_submits_race)
{
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg, "j-race", "prepare:1+~200"); /* a wide race window */
    REQUIRE(s);
    const char *b = "{\"kind\":\"circuit\",\"circuit\":\"toy\",\"params\":\"toy\",\"seed\":7,"
                    "\"request_id\":\"race\"}";
    const char *bodies[] = { b, b, b, b };
    submit_t t[4];
    submit_all(s, t, bodies, 4);
    int created = 0;
    for (int i = 0; i < 4; i++) {
        CHECK_OK(t[i].rc);
        created += !t[i].existing;
        CHECK(!strcmp(t[i].id, t[0].id));
    }
    CHECK_EQ_INT(created, 1);
    CHECK_EQ_U64(listed(s), 1);
    free_server(s, &cfg);
}

/* Submit circuit job |seed| under |rid|; *existing and the job id out. */
static int submit_rid(cz_server_t *s, cz_ctx_t *ctx, const char *rid, int seed, bool *existing,
                      char id[32])
{
    json_t *req = json_pack("{s:s,s:s,s:s,s:i,s:s}", "kind", "circuit", "circuit", "toy", "params",
                            "toy", "seed", seed, "request_id", rid);
    cz_ctx_clear(ctx);
    int rc = submit_json(s, ctx, req, true, id, existing);
    json_decref(req);
    return rc;
}

/* The request ids exactly as Curio's request builders form them (filecoin-project/curio
 * lib/ffi/cuzk_funcs.go, tasks/proofshare/task_prove.go: fmt.Sprintf; WindowPoSt prints
 * randomness[:8], a []byte, with %d), and the longest id the daemon takes. */
CZ_TEST(request_ids_as_curio_forms_them_are_opaque_keys)
{
    static char longest[CZ_REQUEST_ID_MAX + 1], too_long[CZ_REQUEST_ID_MAX + 2];
    memset(longest, 'x', CZ_REQUEST_ID_MAX);
    memset(too_long, 'y', CZ_REQUEST_ID_MAX + 1);
    const char *ids[] = {
        "porep-1000-7",                        /* porep-%d-%d (miner, sector) */
        "snap-1000-8",                         /* snap-%d-%d */
        "wdpost-1000-0-[12 34 255 0 1 2 3 4]", /* wdpost-%d-%d-%d (miner, partition, r[:8]) */
        "winpost-1000-0c22ff0001020304",       /* winpost-%d-%x */
        "ps-porep-1000-7-42",                  /* ps-porep-%d-%d-%d (proofshare) */
        "ps-snap-1000-8-43",
        "sector \"7\" \u00e9t\u00e9 / ..\\x", /* blanks, quotes, slashes, non-ASCII */
        longest,
    };
    enum { N = sizeof ids / sizeof *ids };
    char job[N][32];
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg, "j-rid", "");
    REQUIRE(s);
    cz_ctx_t *ctx = NULL;
    cz_ctx_new(&ctx, NULL, 1);
    bool existing = true;
    char again[32];
    for (int i = 0; i < N; i++) {
        CHECK_OK(submit_rid(s, ctx, ids[i], 20 + i, &existing, job[i]));
        CHECK(!existing);
        CHECK_OK(submit_rid(s, ctx, ids[i], 20 + i, &existing, again));
        CHECK(existing && !strcmp(again, job[i]));
    }
    for (int i = 0; i < N; i++) { /* a request_id names its job where a job id does */
        CHECK_OK(cz_server_lookup(s, ctx, ids[i], again));
        CHECK(!strcmp(again, job[i]));
        CHECK_OK(cz_server_lookup(s, ctx, job[i], again));
        CHECK(!strcmp(again, job[i]));
    }
    CHECK_EQ_INT(cz_server_lookup(s, ctx, "wdpost-1000-1-[1 2 3 4 5 6 7 8]", again), CZ_ENOTFOUND);
    CHECK_EQ_INT(submit_rid(s, ctx, too_long, 1, &existing, again), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "request_id: 1025 bytes") != NULL);
    CHECK_EQ_INT(submit_rid(s, ctx, "", 1, &existing, again), CZ_EINVAL);
    for (int i = 0; i < N; i++)
        CHECK_OK(cz_server_await(s, ctx, job[i], 120, NULL, false));
    free_server(s, &cfg);

    /* a restart serves every id from the journal: the same jobs, done */
    s = new_server(&cfg, "j-rid", "");
    REQUIRE(s);
    for (int i = 0; i < N; i++) {
        CHECK_OK(submit_rid(s, ctx, ids[i], 20 + i, &existing, again));
        CHECK(existing && !strcmp(again, job[i]));
        char st[32];
        CHECK(!strcmp(state_of(s, again, st, sizeof st), "done"));
    }
    cz_ctx_free(ctx);
    free_server(s, &cfg);
}

/* The whole of file dir/|journal|/|name| (caller frees), or NULL. */
static char *slurp(const char *journal, const char *name, size_t *len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s/%s", dir, journal, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    *len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    return buf;
}

static void spill(const char *journal, const char *name, const char *text, size_t len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s/%s", dir, journal, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len)
        abort();
    fclose(f);
}

static bool exists(const char *journal, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s/%s", dir, journal, name);
    return access(path, F_OK) == 0;
}

/* A done 2-partition toy job on journal |journal|; its id and proof out (caller frees). */
static void done_job(const char *journal, int seed, char id[32], uint8_t **proof, size_t *len)
{
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg, journal, "");
    REQUIRE(s);
    cz_ctx_t *ctx = NULL;
    cz_ctx_new(&ctx, NULL, 1);
    bool existing;
    char rid[32];
    snprintf(rid, sizeof rid, "sector %d", seed);
    json_t *req = json_pack("{s:s,s:s,s:s,s:i,s:i,s:s}", "kind", "circuit", "circuit", "toy",
                            "params", "toy", "seed", seed, "partitions", 2, "request_id", rid);
    REQUIRE(submit_json(s, ctx, req, false, id, &existing) == CZ_OK);
    CHECK_OK(cz_server_await(s, ctx, id, 120, NULL, false));
    cz_job_result_t res;
    CHECK_OK(cz_server_result(s, ctx, id, &res, NULL));
    *proof = res.proof;
    *len = res.proof_len;
    res.proof = NULL;
    cz_job_result_free(&res);
    json_decref(req);
    cz_ctx_free(ctx);
    free_server(s, &cfg);
}

/* The state of job |id| on journal |journal| after a restart, and its proof if done. */
static void after_restart(const char *journal, const char *id, char *state, size_t cap,
                          uint8_t **proof, size_t *len)
{
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg, journal, "");
    REQUIRE(s);
    cz_ctx_t *ctx = NULL;
    cz_ctx_new(&ctx, NULL, 1);
    CHECK_OK(cz_server_await(s, ctx, id, 120, NULL, false));
    state_of(s, id, state, cap);
    *proof = NULL;
    *len = 0;
    cz_job_result_t res = { .proof = NULL };
    if (!strcmp(state, "done"))
        CHECK_OK(cz_server_result(s, ctx, id, &res, NULL));
    *proof = res.proof;
    *len = res.proof_len;
    res.proof = NULL;
    cz_job_result_free(&res);
    cz_ctx_free(ctx);
    free_server(s, &cfg);
}

/* A journaled proof is checked before it is served again: one flipped sign flag (the
 * point stays on its curve and in its subgroup: only the digest finds it) or a point
 * off the curve, and the job is proved again; its result is set aside. */
CZ_TEST(a_corrupt_journaled_proof_is_proved_again_not_served)
{
    static const struct {
        const char *what;
        size_t at;
        int flip;
        bool no_digest;
    } cases[] = {
        { "A's sign flag", 0, 0x2, false }, /* first hex digit: flags 0x80 0x40 0x20 */
        { "B's x, a low bit", 48 * 2 + 30, 0x1, false },
        /* a result written before results had digests: the point checks find it */
        { "B's x, a low bit, no digest", 48 * 2 + 30, 0x1, true },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char journal[32], id[32], name[64], state[32];
        snprintf(journal, sizeof journal, "j-check-%zu", k);
        uint8_t *proof = NULL, *again = NULL;
        size_t len = 0, len2 = 0, n = 0;
        done_job(journal, 40 + (int)k, id, &proof, &len);
        snprintf(name, sizeof name, "%s.result", id);
        char *text = slurp(journal, name, &n);
        REQUIRE(text);
        char *hex = strstr(text, "\"proof\":\"");
        REQUIRE(hex);
        char *d = hex + 9 + cases[k].at;
        int v = *d <= '9' ? *d - '0' : *d - 'a' + 10;
        *d = "0123456789abcdef"[v ^ cases[k].flip];
        char *dg = strstr(text, ",\"digest\":\"");
        if (cases[k].no_digest && dg) {
            size_t cut = strlen(",\"digest\":\"") + 2 * 32 + 1;
            memmove(dg, dg + cut, strlen(dg + cut) + 1);
            n -= cut;
        }
        spill(journal, name, text, n);
        free(text);
        after_restart(journal, id, state, sizeof state, &again, &len2);
        if (strcmp(state, "done"))
            CZ__FAIL("%s flipped: the job is %s after the restart", cases[k].what, state);
        CHECK_EQ_U64(len2, len);
        snprintf(name, sizeof name, "%s.result.corrupt", id);
        CHECK(exists(journal, name)); /* set aside, the job proved again */
        snprintf(name, sizeof name, "%s.result", id);
        text = slurp(journal, name, &n);
        CHECK(text && strstr(text, "\"digest\":\""));
        free(text);
        free(proof);
        free(again);
    }
}

/* A torn ID.job keeps its intact ID.result: the proof is served; with a bad result too
 * the id answers lost. */
CZ_TEST(a_torn_job_entry_keeps_its_result)
{
    char id[32], name[64], state[32];
    uint8_t *proof = NULL, *again = NULL;
    size_t len = 0, len2 = 0, n = 0;
    done_job("j-torn", 50, id, &proof, &len);
    snprintf(name, sizeof name, "%s.job", id);
    char *text = slurp("j-torn", name, &n);
    REQUIRE(text && n > 20);
    spill("j-torn", name, text, n / 2); /* torn mid-document */
    free(text);
    for (int start = 0; start < 2; start++) { /* the first start sets it aside; both serve */
        after_restart("j-torn", id, state, sizeof state, &again, &len2);
        CHECK(!strcmp(state, "done"));
        CHECK(len2 == len && again && !memcmp(again, proof, len));
        free(again);
        snprintf(name, sizeof name, "%s.job.corrupt", id);
        CHECK(exists("j-torn", name));
        snprintf(name, sizeof name, "%s.result", id);
        CHECK(exists("j-torn", name));
    }
    /* and a result that does not check: nothing to serve, nothing to prove from */
    snprintf(name, sizeof name, "%s.result", id);
    text = slurp("j-torn", name, &n);
    REQUIRE(text);
    char *hex = strstr(text, "\"proof\":\"");
    REQUIRE(hex);
    hex[9] = hex[9] == '8' ? 'a' : '8';
    spill("j-torn", name, text, n);
    free(text);
    after_restart("j-torn", id, state, sizeof state, &again, &len2);
    CHECK(!strcmp(state, "lost"));
    free(proof);
}

/* An ID.job as daemons wrote them before the typed core (the request verbatim: a priority
 * name, an inline JSON-valued input) is re-queued and proved, and the same request sent
 * again under its request_id finds it; the new form journals the priority as its number
 * and the input as a string. */
CZ_TEST(an_old_form_journal_entry_replays_and_dedupes)
{
    static const char body[] = "{\"kind\":\"circuit\",\"circuit\":\"toy\",\"params\":\"toy\","
                               "\"partitions\":2,\"priority\":\"high\",\"input\":{\"seed\":9},"
                               "\"request_id\":\"old form\"}";
    static const char id[] = "00000000000000aa";
    char doc[512], name[64], again[32];
    make_dirs();
    snprintf(doc, sizeof doc, "%s/j-old", dir);
    mkdir(doc, 0700);
    int n = snprintf(doc, sizeof doc,
                     "{\"id\":\"%s\",\"request_id\":\"old form\",\"created\":1,"
                     "\"seq\":0,\"request\":%s}",
                     id, body);
    snprintf(name, sizeof name, "%s.job", id);
    spill("j-old", name, doc, (size_t)n);
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg, "j-old", "");
    REQUIRE(s);
    cz_ctx_t *ctx = NULL;
    cz_ctx_new(&ctx, NULL, 1);
    CHECK_OK(cz_server_await(s, ctx, id, 120, NULL, false));
    static cz_job_status_t st;
    CHECK_OK(cz_server_job(s, ctx, id, &st));
    CHECK(st.state == CZ_JOB_DONE && st.priority == 3 && st.recovered);
    CHECK_EQ_STR(st.params, "toy");
    json_t *req = json_loads(body, 0, NULL);
    bool existing = false;
    CHECK_OK(submit_json(s, ctx, req, false, again, &existing));
    CHECK(existing && !strcmp(again, id));
    json_object_set_new(req, "priority", json_integer(3)); /* "high" is 3: the same request */
    CHECK_OK(submit_json(s, ctx, req, false, again, &existing));
    CHECK(existing && !strcmp(again, id));
    json_object_set_new(req, "input", json_string("{\"seed\":8}")); /* another input: 409 */
    CHECK_EQ_INT(submit_json(s, ctx, req, false, again, &existing), CZ_EBUSY);
    json_decref(req);
    cz_ctx_free(ctx);
    free_server(s, &cfg);
}

typedef struct {
    cz_server_t *s;
    const char *id;
    int rc;
} waiter_t;

static void *waiter(void *arg)
{
    waiter_t *w = arg;
    cz_ctx_t *ctx = NULL;
    cz_ctx_new(&ctx, NULL, 1);
    w->rc = cz_server_await(w->s, ctx, w->id, -1, NULL, false);
    cz_ctx_free(ctx);
    return NULL;
}

CZ_TEST(waiters_results_cancel_and_a_restart)
{
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg, "j-restart", "");
    REQUIRE(s);
    const char *bodies[] = {
        "{\"kind\":\"circuit\",\"circuit\":\"toy\",\"params\":\"toy\",\"partitions\":3,\"seed\":4}",
    };
    submit_t t[1];
    submit_all(s, t, bodies, 1);
    REQUIRE(t[0].rc == CZ_OK);
    waiter_t w[3];
    pthread_t th[3];
    for (int i = 0; i < 3; i++) {
        w[i] = (waiter_t){ .s = s, .id = t[0].id };
        REQUIRE(pthread_create(&th[i], NULL, waiter, &w[i]) == 0);
    }
    for (int i = 0; i < 3; i++) {
        pthread_join(th[i], NULL);
        CHECK_OK(w[i].rc);
    }
    cz_ctx_t *ctx = NULL;
    cz_ctx_new(&ctx, NULL, 1);
    cz_job_result_t res, again;
    CHECK_OK(cz_server_result(s, ctx, t[0].id, &res, NULL));
    CHECK_EQ_U64(res.proof_len, 3 * 192);
    CHECK_EQ_U64(res.partitions, 3);
    /* cancel an ended job: CZ_OK, still done */
    static cz_job_status_t st;
    CHECK_OK(cz_server_cancel(s, ctx, t[0].id, NULL, &st));
    CHECK(st.state == CZ_JOB_DONE && !strcmp(cz_job_status_state(&st), "done"));
    CHECK_EQ_INT(cz_server_job(s, ctx, "0000000000000000", &st), CZ_ENOTFOUND);
    free_server(s, &cfg);

    s = new_server(&cfg, "j-restart", "");
    REQUIRE(s);
    char buf[32];
    CHECK(!strcmp(state_of(s, t[0].id, buf, sizeof buf), "done"));
    CHECK_OK(cz_server_result(s, ctx, t[0].id, &again, NULL));
    CHECK(again.proof_len == res.proof_len && !memcmp(res.proof, again.proof, res.proof_len));
    CHECK(again.partitions == res.partitions && again.per_partition == res.per_partition &&
          (!res.inputs ||
           !memcmp(res.inputs, again.inputs, 32 * res.partitions * res.per_partition)));
    cz_job_result_free(&res);
    cz_job_result_free(&again);
    cz_ctx_free(ctx);
    free_server(s, &cfg);
}

/* A started job of |partitions| with 0.3 s device steps, and a waiter on it; returns once
 * the job is running (in the proving queues: shutdown does not abandon it). */
static void running_job_with_waiter(cz_server_t *s, int partitions, int seed, submit_t *t,
                                    waiter_t *w, pthread_t *th)
{
    char body[160];
    snprintf(body, sizeof body,
             "{\"kind\":\"circuit\",\"circuit\":\"toy\",\"params\":\"toy\","
             "\"partitions\":%d,\"seed\":%d}",
             partitions, seed);
    const char *bodies[] = { body };
    submit_all(s, t, bodies, 1);
    REQUIRE(t->rc == CZ_OK);
    char st[32];
    for (int i = 0; i < 600 && strcmp(state_of(s, t->id, st, sizeof st), "running"); i++)
        usleep(10000);
    REQUIRE(!strcmp(st, "running"));
    *w = (waiter_t){ .s = s, .id = t->id };
    REQUIRE(pthread_create(th, NULL, waiter, w) == 0);
}

/* SIGTERM's shutdown: a waiter whose job ends within the grace gets its outcome (a
 * WinningPoSt would otherwise miss its block); past the grace it is told the daemon stops. */
CZ_TEST(a_waiter_gets_its_proof_when_the_job_ends_within_the_shutdown_grace)
{
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg, "j-grace", "device_step:1+~300");
    REQUIRE(s);
    submit_t t;
    waiter_t w;
    pthread_t th;
    running_job_with_waiter(s, 2, 60, &t, &w, &th);
    cz_server_shutdown(s, 60);
    pthread_join(th, NULL);
    CHECK_OK(w.rc);
    char st[32];
    CHECK(!strcmp(state_of(s, t.id, st, sizeof st), "done"));
    free_server(s, &cfg);

    s = new_server(&cfg, "j-grace-0", "device_step:1+~300");
    REQUIRE(s);
    running_job_with_waiter(s, 8, 61, &t, &w, &th);
    double t0 = cz_mono_s();
    cz_server_shutdown(s, 0);
    pthread_join(th, NULL);
    CHECK_EQ_INT(w.rc, CZ_EUNAVAIL);
    CHECK(cz_mono_s() - t0 < 5.0); /* not after the job's 8 partitions x several 0.3 s steps */
    free_server(s, &cfg);
}

CZ_TEST(cancel_of_a_running_job)
{
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg, "j-cancel",
                                "device_step:1+~300"); /* each device step 0.3 s */
    REQUIRE(s);
    const char *bodies[] = {
        "{\"kind\":\"circuit\",\"circuit\":\"toy\",\"params\":\"toy\",\"partitions\":4,\"seed\":5}",
    };
    submit_t t[1];
    submit_all(s, t, bodies, 1);
    REQUIRE(t[0].rc == CZ_OK);
    cz_ctx_t *ctx = NULL;
    cz_ctx_new(&ctx, NULL, 1);
    CHECK_EQ_INT(cz_server_await(s, ctx, t[0].id, 0.2, NULL, false), CZ_EBUSY);
    static cz_job_status_t before, why;
    CHECK_OK(cz_server_cancel(s, ctx, t[0].id, &before, NULL));
    CHECK(!cz_job_status_ended(&before));
    CHECK_OK(cz_server_await(s, ctx, t[0].id, 60, NULL, false));
    char buf[32];
    CHECK(!strcmp(state_of(s, t[0].id, buf, sizeof buf), "canceled"));
    cz_job_result_t res;
    CHECK_EQ_INT(cz_server_result(s, ctx, t[0].id, &res, &why), CZ_ECANCELED);
    CHECK(why.state == CZ_JOB_CANCELED && res.proof == NULL);
    cz_ctx_free(ctx);
    free_server(s, &cfg);
}

CZ_TEST_MAIN()
