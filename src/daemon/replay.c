/*
 * daemon/replay.c — the journal at start-up (daemon/server.h, DESIGN):
 * finished jobs are served again from their ID.result; unfinished ones
 * are handed to the prover again, by priority and then their original
 * submit order (so the prover starts them in the order it would have),
 * and proved from their first partition; a corrupt ID.job answers as a
 * tombstone (state lost). Runs in cz_server_new before the finisher and
 * the doors start: no other thread looks at the job list yet, but the
 * prover's callbacks may (a re-queued job can end at once), so the list
 * is still changed under s->mu.
 */
#include "daemon/server_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/hex.h"
#include "daemon/jsonio.h"
#include "daemon/log.h"

/* An unfinished job and its journaled request (a reference), to hand to the prover. */
typedef struct {
    djob_t *j;
    json_t *request;
} again_t;

typedef struct {
    cz_server_t *s;
    again_t *again; /* unfinished jobs, to hand to the prover after the scan */
    size_t n, cap;
    bool oom;
    cz_ctx_t *check; /* for the requests' checks, one for the whole scan */
} replay_t;

/* List |j| (s->mu taken here). */
static void list_job(cz_server_t *s, djob_t *j)
{
    cz_mutex_lock(&s->mu);
    j->next = s->jobs;
    s->jobs = j;
    if (j->seq >= s->next_seq)
        s->next_seq = j->seq + 1;
    cz_mutex_unlock(&s->mu);
}

/*
 * Why the proof of a "done" |result| cannot be served, or NULL when it can
 * (then j->proof, proof_len and partitions are set). A journaled proof is
 * checked before it is served again: its hex, a whole number of 192-byte
 * partition proofs, every point on its curve and in the prime-order
 * subgroup (cz_groth16_proof_points), and the result's digest of the proof and
 * public inputs (finish.c; absent in results written before it existed).
 * The digest finds any changed bit, a point check alone not all: flipping
 * a compressed point's sign flag gives another valid point.
 */
static const char *check_proof(djob_t *j, const json_t *result, char *why, size_t cap)
{
    const char *hex = json_string_value(json_object_get(result, "proof"));
    const json_t *pub = json_object_get(result, "public_inputs");
    size_t hlen = hex ? strlen(hex) : 0, n = hlen / 2;
    if (!hex || hlen % 2 || n == 0 || n % CZ_GROTH16_PROOF_BYTES)
        return snprintf(why, cap,
                        "its proof is not hex of whole 192-byte partition proofs "
                        "(%zu characters)",
                        hlen),
               why;
    if (!json_is_array(pub))
        return snprintf(why, cap, "its public_inputs are missing"), why;
    uint8_t *proof = malloc(n);
    if (!proof || !cz_hex_decode(proof, hex, n)) {
        free(proof);
        return snprintf(why, cap, proof ? "its proof is not hex" : "out of memory"), why;
    }
    const char *want = json_string_value(json_object_get(result, "digest"));
    char got[2 * CZ_RESULT_DIGEST_BYTES + 1] = "";
    const char *bad = NULL;
    if (want && cz__result_digest(proof, n, pub, got) != CZ_OK)
        bad = "out of memory";
    else if (want && strcmp(want, got))
        bad = "its digest does not match its proof and public inputs";
    if (bad)
        snprintf(why, cap, "%s", bad);
    uint8_t points[CZ_GROTH16_PROOF_UNCOMPRESSED_BYTES];
    cz_error_t err;
    for (size_t k = 0; !bad && k < n / CZ_GROTH16_PROOF_BYTES; k++)
        if (cz_groth16_proof_points(points, proof + k * CZ_GROTH16_PROOF_BYTES, &err) != CZ_OK) {
            snprintf(why, cap, "proof[%zu]: %.200s", k, err.message);
            bad = why;
        }
    if (bad) {
        free(proof);
        return why;
    }
    j->proof = proof;
    j->proof_len = n;
    j->partitions = n / CZ_GROTH16_PROOF_BYTES;
    j->partitions_done = j->partitions;
    j->public_inputs = json_incref((json_t *)pub);
    return NULL;
}

/* The journaled outcome |result| into |j|; false (*why says it) when it is "done" and
 * its proof does not check. */
static bool load_result(djob_t *j, const json_t *result, time_t fetched, char *why, size_t cap)
{
    const char *st = json_string_value(json_object_get(result, "state"));
    j->state = st && !strcmp(st, "done")       ? DJ_DONE
               : st && !strcmp(st, "canceled") ? DJ_CANCELED
                                               : DJ_FAILED;
    j->finished = (time_t)json_integer_value(json_object_get(result, "finished"));
    j->fetched = fetched;
    const char *err = json_string_value(json_object_get(result, "error"));
    const char *msg = json_string_value(json_object_get(result, "message"));
    j->error = CZ_OK;
    for (int c = 1; err && c < CZ_E_COUNT; c++)
        if (!strcmp(cz_err_name(-c), err))
            j->error = -c;
    snprintf(j->message, sizeof j->message, "%s", msg ? msg : "");
    json_t *t = json_object_get(result, "timings");
    /* by name: the fields the journal has, the rest (reserved) zero */
    j->t = (cz_job_timings_t){
        .queue_wait = json_number_value(json_object_get(t, "queue_wait_ms")),
        .params_load = json_number_value(json_object_get(t, "params_load_ms")),
        .synthesis = json_number_value(json_object_get(t, "synthesis_ms")),
        .device = json_number_value(json_object_get(t, "device_ms")),
        .total = json_number_value(json_object_get(t, "total_ms")),
    };
    return j->state != DJ_DONE || !check_proof(j, result, why, cap);
}

/* Add unfinished job |j| of |request| to the jobs handed to the prover after the scan;
 * false: no memory. */
static bool again_add(replay_t *r, djob_t *j, json_t *request)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        again_t *g = realloc(r->again, cap * sizeof *g);
        if (!g)
            return false;
        r->again = g;
        r->cap = cap;
    }
    r->again[r->n++] = (again_t){ j, json_incref(request) };
    return true;
}

static void replay_lost(void *arg, const char *id, const char *reason);

/* Job |id| whose ID.job was torn: its intact |result| is served (no request, no
 * request_id); a "done" one whose proof does not check leaves a tombstone. */
static void replay_torn(replay_t *r, djob_t *j, const json_t *result, time_t fetched)
{
    char why[256], reason[512];
    snprintf(j->kind, sizeof j->kind, "?");
    if (!load_result(j, result, fetched, why, sizeof why)) {
        snprintf(reason, sizeof reason,
                 "journal entry %s.job is corrupt (set aside as %s.job.corrupt)"
                 " and its result does not check: %s; submit the request again",
                 j->id, j->id, why);
        cz_journal_set_aside(r->s->journal, j->id, "result");
        replay_lost(r, j->id, reason);
        cz__djob_free(j);
        return;
    }
    list_job(r->s, j);
}

static void replay_one(void *arg, const char *id, json_t *job, json_t *result, time_t fetched)
{
    replay_t *r = arg;
    cz_mutex_lock(&r->s->mu);
    bool seen = cz__find(r->s, id) != NULL; /* a set-aside entry listed again in this scan */
    cz_mutex_unlock(&r->s->mu);
    djob_t *j = seen ? NULL : calloc(1, sizeof *j);
    if (!j) {
        r->oom |= !seen;
        return;
    }
    j->server = r->s;
    snprintf(j->id, sizeof j->id, "%s", id);
    j->recovered = true;
    j->t_accept = cz_mono_s();
    if (!job) {
        replay_torn(r, j, result, fetched);
        return;
    }
    json_t *req = json_object_get(job, "request");
    const char *rid = json_string_value(json_object_get(job, "request_id"));
    snprintf(j->request_id, sizeof j->request_id, "%s", rid ? rid : "");
    /* what tells the request apart, for a later submit of its request_id; a request
     * that no longer parses is refused by requeue below (a finished one: no dedupe) */
    cz_submit_json_t sj;
    cz_ctx_clear(r->check);
    if (cz_submit_from_json(r->check, r->s, req, &sj) == CZ_OK) {
        r->oom |= cz__djob_request(j, &sj.req) != CZ_OK;
        cz_submit_json_free(&sj);
    }
    j->created = (time_t)json_integer_value(json_object_get(job, "created"));
    j->seq = (uint64_t)json_integer_value(json_object_get(job, "seq"));
    const char *kname = json_string_value(json_object_get(req, "kind"));
    snprintf(j->kind, sizeof j->kind, "%s", kname ? kname : "?");
    const json_t *pr = json_object_get(req, "partitions");
    j->partitions = json_is_integer(pr) ? (size_t)json_integer_value(pr) : 1;
    char why[256];
    if (result && load_result(j, result, fetched, why, sizeof why)) {
        list_job(r->s, j);
        return;
    }
    if (result) { /* a proof that does not check is never served: prove it again */
        char q[300];
        CZ_LOGE("journaled proof does not check; set aside, the job is proved again",
                "id=%s why=%s", id, cz_log_q(q, sizeof q, why));
        cz_journal_set_aside(r->s->journal, id, "result");
        j->error = CZ_OK;
        j->message[0] = '\0';
        j->finished = j->fetched = 0;
    }
    if (!again_add(r, j, req)) {
        r->oom = true;
        cz__djob_free(j);
        return;
    }
    j->state = DJ_LIVE;
    if (!j->priority) /* the priority the prover will order it by (the re-submit checks it) */
        j->priority = 2;
    list_job(r->s, j);
}

/* A job whose journal entry was corrupt: a tombstone answering its id with state lost. */
static void replay_lost(void *arg, const char *id, const char *reason)
{
    replay_t *r = arg;
    cz_mutex_lock(&r->s->mu);
    bool seen = cz__find(r->s, id) != NULL; /* already in this scan */
    cz_mutex_unlock(&r->s->mu);
    djob_t *j = seen ? NULL : calloc(1, sizeof *j);
    if (!j) {
        r->oom |= !seen;
        return;
    }
    j->server = r->s;
    snprintf(j->id, sizeof j->id, "%s", id);
    j->state = DJ_LOST;
    j->error = CZ_EFORMAT;
    j->recovered = true;
    j->t_accept = cz_mono_s();
    snprintf(j->message, sizeof j->message, "%s", reason);
    list_job(r->s, j);
    CZ_LOGW("job lost: its journal entry is corrupt", "id=%s", id);
}

/* Higher priority first, then the original submit order. */
static int by_start_order(const void *a, const void *b)
{
    const djob_t *x = ((const again_t *)a)->j, *y = ((const again_t *)b)->j;
    if (x->priority != y->priority)
        return x->priority > y->priority ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Hand listed unfinished job |j| of journaled |request| to the prover again; if it is
 * refused now (its params vanished meanwhile), its failure is journaled with the reason. */
static void requeue(cz_server_t *s, djob_t *j, const json_t *request)
{
    cz_ctx_t *ctx = NULL;
    cz_submit_json_t sj = { .fields = NULL };
    int rc = cz_ctx_new(&ctx, NULL, 1);
    if (rc == CZ_OK)
        rc = cz_submit_from_json(ctx, s, request, &sj);
    if (rc == CZ_OK)
        rc = cz__submit_to_prover(s, ctx, &sj.req, j);
    cz_submit_json_free(&sj);
    if (rc == CZ_OK) {
        CZ_LOGI("job re-queued from the journal", "id=%s", j->id);
    } else {
        char msg[256];
        snprintf(msg, sizeof msg, "after restart: %s",
                 ctx && *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
        cz_mutex_lock(&s->mu);
        j->state = DJ_FINISHING;
        cz_mutex_unlock(&s->mu);
        cz__job_end(s, j, DJ_FAILED, rc, msg, NULL, 0, NULL, NULL);
    }
    cz_ctx_free(ctx);
}

int cz__replay(cz_server_t *s, cz_ctx_t *ctx)
{
    replay_t r = { .s = s };
    if (cz_ctx_new(&r.check, NULL, 1) != CZ_OK)
        return cz_fail(ctx, CZ_ENOMEM, "journal replay");
    int rc = cz_journal_scan(s->journal, ctx, replay_one, replay_lost, &r);
    cz_ctx_free(r.check);
    if (rc == CZ_OK && r.oom)
        rc = cz_fail(ctx, CZ_ENOMEM, "journal replay");
    if (rc == CZ_OK) {
        if (r.n) /* qsort's base must not be NULL, even for 0 elements */
            qsort(r.again, r.n, sizeof *r.again, by_start_order);
        for (size_t i = 0; i < r.n; i++)
            requeue(s, r.again[i].j, r.again[i].request);
        cz_mutex_lock(&s->mu);
        s->jobs_recovered += r.n;
        cz_mutex_unlock(&s->mu);
    }
    for (size_t i = 0; i < r.n; i++)
        json_decref(r.again[i].request);
    free(r.again);
    return rc;
}
