/*
 * daemon/finish.c — the end of a job: its outcome is journaled as
 * ID.result, then published (see daemon/server.h, DESIGN).
 *
 * One durable state per job. The outcome is published only once ID.result
 * is on disk, so no client ever sees a state the journal does not hold.
 * When the write fails (a full or failing disk: CZ_EIO, or memory), the
 * outcome is NOT turned into "failed" — a failure that is not journaled
 * either would come back as a re-queued job after a restart and then
 * "done", contradicting it. Writing a failure record instead cannot work
 * either: it needs the same disk. So the outcome (proof included) is kept
 * in memory and the write retried, 0.5 s after the first failure, doubling
 * to at most 30 s, until it lands; meanwhile the job reads "running" with
 * stage "writing_result" and a "result_write" object (attempts, last error).
 * A daemon stopped before the write lands leaves the job journaled without
 * a result, so the next start proves it again — the one state any client
 * ever saw for it was "running".
 *
 * Locking: the pending outcome belongs to the job under s->mu; a write
 * attempt detaches it (j->pending NULL while state is FINISHING means "a
 * write is in flight", which shutdown waits for) and works without the lock.
 */
#include "core/hex.h"
#include "daemon/server_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/blake2b.h"
#include "core/clock.h"
#include "daemon/log.h"

#define RETRY_FIRST_S 0.5
#define RETRY_MAX_S 30.0

struct dj_pending {
    dj_state_t st;
    int error;
    char msg[256];
    uint8_t *proof; /* owned until published */
    size_t proof_len;
    json_t *pub; /* owned until published */
    time_t finished;
    cz_job_timings_t t;
    unsigned attempts;
    double next_try; /* monotonic seconds */
    int last_rc;
    char last_error[256];
};

static json_t *timings_json(const cz_job_timings_t *t)
{
    return json_pack("{s:f,s:f,s:f,s:f,s:f}", "queue_wait_ms", t->queue_wait, "params_load_ms",
                     t->params_load, "synthesis_ms", t->synthesis, "device_ms", t->device,
                     "total_ms", t->total);
}

int cz__result_digest(const uint8_t *proof, size_t len, const json_t *pub,
                      char out[2 * CZ_RESULT_DIGEST_BYTES + 1])
{
    char *text = json_dumps(pub, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    if (!text)
        return CZ_ENOMEM;
    uint8_t d[CZ_RESULT_DIGEST_BYTES];
    cz_blake2b_ctx c;
    cz_blake2b_init(&c, sizeof d);
    cz_blake2b_update(&c, proof, len);
    cz_blake2b_update(&c, text, strlen(text));
    cz_blake2b_final(&c, d);
    free(text);
    cz_hex_encode(out, d, sizeof d);
    return CZ_OK;
}

/* The ID.result document; NULL when memory is short. */
static json_t *result_doc(const djob_t *j, const struct dj_pending *p)
{
    json_t *doc = json_pack("{s:s,s:s,s:I,s:o}", "id", j->id, "state", cz__state_name(p->st),
                            "finished", (json_int_t)p->finished, "timings", timings_json(&p->t));
    if (!doc)
        return NULL;
    int bad = 0;
    if (p->st == DJ_DONE) {
        char *hex = malloc(2 * p->proof_len + 1), digest[2 * CZ_RESULT_DIGEST_BYTES + 1];
        if (hex)
            cz_hex_encode(hex, p->proof, p->proof_len);
        bad |= !hex || !p->pub || json_object_set_new(doc, "proof", json_string(hex)) ||
               json_object_set(doc, "public_inputs", p->pub) ||
               cz__result_digest(p->proof, p->proof_len, p->pub, digest) ||
               json_object_set_new(doc, "digest", json_string(digest));
        free(hex);
    } else {
        bad |= json_object_set_new(doc, "error", json_string(cz_err_name(p->error))) ||
               json_object_set_new(doc, "message", json_string(p->msg));
    }
    if (bad) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

/*
 * Log each device's memory plan where it differs from the one last logged
 * (s->mu NOT held). The plan follows the device memory free at each region
 * (another process on the card, a params set of another kind), so the log
 * says when a card went from resident to streaming: why a proof got slower.
 */
static void log_device_plans(cz_server_t *s)
{
    for (size_t d = 0; d < CZ__PLAN_DEVICES; d++) {
        cz_device_memory_t mem;
        if (cz_prover_device_memory(s->prover, d, &mem) != CZ_OK)
            break; /* past the last device */
        cz_mutex_lock(&s->mu);
        bool changed = strcmp(s->plan_logged[d], mem.plan) != 0;
        if (changed)
            snprintf(s->plan_logged[d], sizeof s->plan_logged[d], "%s", mem.plan);
        cz_mutex_unlock(&s->mu);
        char q[sizeof mem.plan + 16];
        if (changed && mem.plan[0])
            CZ_LOGI("device memory plan", "device=%zu plan=%s", d, cz_log_q(q, sizeof q, mem.plan));
    }
}

/* Publish the journaled outcome (s->mu NOT held); takes p. */
static void publish(cz_server_t *s, djob_t *j, struct dj_pending *p)
{
    cz_mutex_lock(&s->mu);
    j->state = p->st;
    j->error = p->error;
    snprintf(j->message, sizeof j->message, "%s", p->msg);
    j->proof = p->proof;
    j->proof_len = p->proof ? p->proof_len : 0;
    j->public_inputs = p->pub;
    j->finished = p->finished;
    j->t = p->t;
    if (p->st == DJ_DONE)
        j->partitions_done = j->partitions;
    if (p->st == DJ_FAILED && p->error < 0 && -p->error < CZ_E_COUNT)
        s->errors[-p->error]++;
    if (p->st >= DJ_DONE && p->st <= DJ_CANCELED)
        s->ended[cz__kind_slot(s, j->kind)][p->st - DJ_DONE]++;
    pthread_cond_broadcast(&s->changed);
    cz_mutex_unlock(&s->mu);
    char q[300];
    if (p->st == DJ_DONE)
        CZ_LOGI("job done", "id=%s partitions=%zu total_ms=%.0f", j->id, j->partitions, p->t.total);
    else
        CZ_LOGW(p->st == DJ_FAILED ? "job failed" : "job canceled", "id=%s error=%s message=%s",
                j->id, cz_err_name(p->error), cz_log_q(q, sizeof q, p->msg));
    free(p);
    log_device_plans(s);
}

/* One write attempt (s->mu NOT held, p detached from j): publish, or park p for a retry. */
static void commit(cz_server_t *s, djob_t *j, struct dj_pending *p)
{
    cz_ctx_t *ctx = NULL;
    json_t *doc = result_doc(j, p);
    int rc = doc ? cz_ctx_new(&ctx, NULL, 1) : CZ_ENOMEM;
    if (rc == CZ_OK)
        rc = cz_journal_put(s->journal, ctx, j->id, "result", doc);
    json_decref(doc);
    if (rc == CZ_OK) {
        cz_ctx_free(ctx);
        if (p->attempts)
            CZ_LOGI("result journaled after retries", "id=%s attempts=%u", j->id, p->attempts + 1);
        publish(s, j, p);
        return;
    }
    snprintf(p->last_error, sizeof p->last_error, "%s",
             ctx && *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    cz_ctx_free(ctx);
    p->last_rc = rc;
    double wait = RETRY_FIRST_S;
    for (unsigned i = 0; i < p->attempts && wait < RETRY_MAX_S; i++)
        wait *= 2;
    if (wait > RETRY_MAX_S)
        wait = RETRY_MAX_S;
    p->attempts++;
    p->next_try = cz_mono_s() + wait;
    if (p->attempts == 1 || p->attempts % 10 == 0) {
        char q[300];
        CZ_LOGE("result not journaled; the outcome is kept and the write retried",
                "id=%s attempts=%u error=%s message=%s retry_in_s=%.1f", j->id, p->attempts,
                cz_err_name(rc), cz_log_q(q, sizeof q, p->last_error), wait);
    }
    cz_mutex_lock(&s->mu);
    j->pending = p;
    pthread_cond_broadcast(&s->changed);
    pthread_cond_broadcast(&s->work);
    cz_mutex_unlock(&s->mu);
}

void cz__job_end(cz_server_t *s, djob_t *j, dj_state_t st, int error, const char *msg,
                 uint8_t *proof, size_t proof_len, json_t *pub, const cz_job_timings_t *t)
{
    struct dj_pending *p = calloc(1, sizeof *p);
    cz_job_timings_t tm = { 0 };
    if (t)
        tm = *t;
    tm.total = (cz_mono_s() - j->t_accept) * 1e3; /* accepted by this process -> now */
    if (!p || (st == DJ_DONE && !pub)) {
        /* no memory to keep the outcome: the job stays journaled unfinished and
         * is proved again at the next start; report that, as a failure that says so */
        CZ_LOGE("no memory to keep a job's outcome", "id=%s", j->id);
        free(p);
        free(proof);
        json_decref(pub);
        cz_mutex_lock(&s->mu);
        j->state = DJ_FAILED;
        j->error = CZ_ENOMEM;
        j->t = tm;
        snprintf(j->message, sizeof j->message,
                 "out of memory keeping the outcome; the job "
                 "stays journaled and is proved again when cuzkd restarts");
        pthread_cond_broadcast(&s->changed);
        cz_mutex_unlock(&s->mu);
        return;
    }
    p->st = st;
    p->error = error;
    snprintf(p->msg, sizeof p->msg, "%s", msg ? msg : "");
    p->proof = proof;
    p->proof_len = proof_len;
    p->pub = pub;
    p->finished = time(NULL);
    p->t = tm;
    commit(s, j, p);
}

void cz__retry_results(cz_server_t *s, double *next)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    for (;;) {
        double now = cz_mono_s();
        djob_t *due = NULL;
        for (djob_t *j = s->jobs; j && !due; j = j->next) {
            if (j->pending && j->pending->next_try <= now)
                due = j;
            else if (j->pending && next && j->pending->next_try < *next)
                *next = j->pending->next_try;
        }
        if (!due || s->abandon)
            return;
        struct dj_pending *p = due->pending;
        due->pending = NULL; /* a write in flight: shutdown waits for it */
        cz_mutex_unlock(&s->mu);
        commit(s, due, p);
        cz_mutex_lock(&s->mu);
    }
}

bool cz__pending_status(const djob_t *j, cz_result_write_t *out)
{
    const struct dj_pending *p = j->pending;
    memset(out, 0, sizeof *out);
    if (!p)
        return false;
    double in = p->next_try - cz_mono_s();
    out->attempts = p->attempts;
    out->error = p->last_rc;
    snprintf(out->message, sizeof out->message, "%s", p->last_error);
    out->retry_in_s = in > 0 ? in : 0.0;
    return true;
}

void cz__pending_free(djob_t *j)
{
    struct dj_pending *p = j->pending;
    if (!p)
        return;
    CZ_LOGW("result never journaled; the job stays for the next start", "id=%s attempts=%u", j->id,
            p->attempts);
    free(p->proof);
    json_decref(p->pub);
    free(p);
    j->pending = NULL;
}
