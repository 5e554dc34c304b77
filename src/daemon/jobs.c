/*
 * daemon/jobs.c — the request side of the server: accept jobs (checked,
 * handed to the prover, journaled), wait for them, hand out results,
 * cancel, params preload/evict (see daemon/server.h).
 *
 * The daemon checks what belongs to it (the kind is named, priority,
 * request_id, input_path; the doors have checked their encodings:
 * daemon/jsonio.c the JSON's); the kind's fields, the input, the
 * partition count and the params name are the prover's to check
 * (cz_prover_submit), so every door refuses a bad request with the same
 * message. The input is borrowed from the door and handed to the prover
 * as is (daemon/server.h, THE INPUT'S COPIES).
 *
 * No lock is held while the prover prepares a job (a 32GiB C1 is parsed
 * and, the first time, its partition shape synthesized: seconds), so
 * submits of different jobs prepare at once. Ordering still holds: a
 * submit claims its request_id (and its job id) under s->mu first, so two
 * submits of one request_id never make two jobs — the second waits for
 * the first's outcome —; the job is journaled (ID.job, fsync) before it is
 * listed and acknowledged; and the finisher journals ID.result only for a
 * listed job, so never before ID.job. The prover may start a job before
 * its ID.job lands: if the write fails the job is withdrawn (canceled and
 * forgotten) and the submit fails, so no client ever saw it.
 */
#include "daemon/server_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/blake2b.h"
#include "core/clock.h"
#include "daemon/jsonio.h"
#include "daemon/log.h"

#define MAX_INPUT_FILE (256u << 20)

/* ---- checks of the daemon's own fields ------------------------------------------------ */

/*
 * A request_id is an opaque key, compared byte for byte: any UTF-8 text
 * (the door has checked that: jansson, protobuf-c's string) of
 * 1..CZ_REQUEST_ID_MAX bytes without NUL. Curio forms its ids with
 * fmt.Sprintf, and some hold blanks and brackets (its WindowPoSt id prints
 * randomness[:8] with %d: "wdpost-1000-0-[12 34 ...]"), so no character
 * set is imposed. Nothing is derived from it: the journal names files by
 * the job id, logs quote it (cz_log_q).
 */
static int check_request_id(cz_ctx_t *ctx, const char *rid, size_t n)
{
    if (n == 0 || n > CZ_REQUEST_ID_MAX)
        return cz_fail(ctx, CZ_EINVAL,
                       "request_id: %zu bytes; it must be 1..%d bytes of UTF-8 "
                       "text",
                       n, CZ_REQUEST_ID_MAX);
    if (memchr(rid, 0, n))
        return cz_fail(ctx, CZ_EINVAL, "request_id: holds a NUL character");
    return CZ_OK;
}

/* What |mode| is, for "not a regular file" messages. */
static const char *file_type(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "special";
}

/*
 * The client-named file |path| into *out (NUL-terminated; caller frees).
 * It is opened O_NONBLOCK and checked to be a regular file before any
 * read: a plain open(2) of a FIFO blocks until a writer comes, which would
 * hang this request thread (and shutdown) for good. Messages name the path
 * and never hold the file's bytes.
 */
static int read_input_file(cz_server_t *s, cz_ctx_t *ctx, const char *path, char **out, size_t *len)
{
    if (!s->cfg.allow_client_paths)
        return cz_fail(ctx, CZ_EINVAL,
                       "input_path: paths are not accepted (daemon.allow_client_paths = false)");
    if (path[0] != '/')
        return cz_fail(ctx, CZ_EINVAL, "input_path: must be an absolute path");
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return cz_fail(ctx, CZ_ENOTFOUND, "input_path: %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st)) {
        int e = errno;
        close(fd);
        return cz_fail(ctx, CZ_EIO, "input_path: %s: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return cz_fail(ctx, CZ_EINVAL, "input_path: %s: %s, not a regular file", path,
                       file_type(st.st_mode));
    }
    /* a regular file: reads never block on O_NONBLOCK, but say what is meant */
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if ((size_t)st.st_size > MAX_INPUT_FILE) {
        close(fd);
        return cz_fail(ctx, CZ_EINVAL, "input_path: %s: %lld bytes is over the %u-byte limit", path,
                       (long long)st.st_size, MAX_INPUT_FILE);
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t n = 0;
    while (buf && n < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + n, (size_t)st.st_size - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (!buf || n != (size_t)st.st_size) {
        free(buf);
        return cz_fail(ctx, buf ? CZ_EIO : CZ_ENOMEM, "input_path: %s: short read", path);
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return CZ_OK;
}

const char *cz_server_kind_names(const cz_server_t *s, char *buf, size_t cap)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < cz_prover_kind_count(s->prover) && at < cap; i++)
        at += (size_t)snprintf(buf + at, cap - at, "%s%s", i ? ", " : "",
                               cz_prover_kind_name(s->prover, i));
    return buf;
}

/* The daemon's own checks of |req|, in the order the HTTP API has always answered them. */
static int check_request(cz_server_t *s, cz_ctx_t *ctx, const cz_submit_req_t *req)
{
    char known[256];
    if (!req->kind)
        return cz_fail(ctx, CZ_EINVAL, "kind: required, a string (known kinds: %s)",
                       cz_server_kind_names(s, known, sizeof known));
    if (req->priority < 0 || req->priority > 4)
        return cz_fail(ctx, CZ_EINVAL,
                       "priority: must be 1..4 or \"low\", \"normal\", \"high\", "
                       "\"critical\"");
    int rc = req->request_id ? check_request_id(ctx, req->request_id, req->request_id_len) : CZ_OK;
    if (rc == CZ_OK && req->input && req->input_path)
        rc = cz_fail(ctx, CZ_EINVAL, "input and input_path: give one, not both");
    return rc;
}

static char *dup_or_null(const char *t)
{
    return t ? strdup(t) : NULL;
}

int cz__djob_request(djob_t *j, const cz_submit_req_t *req)
{
    snprintf(j->kind, sizeof j->kind, "%s", req->kind ? req->kind : "");
    j->priority = req->priority ? req->priority : 2;
    free(j->params);
    free(j->fields);
    free(j->input_path);
    j->params = dup_or_null(req->params);
    j->fields = dup_or_null(req->fields);
    j->input_path = dup_or_null(req->input_path);
    j->has_input = req->input != NULL;
    j->input_len = req->input_len;
    memset(j->input_digest, 0, sizeof j->input_digest);
    if (req->input && req->request_id) /* only a request_id's dedupe compares inputs */
        cz_blake2b(j->input_digest, sizeof j->input_digest, req->input, req->input_len);
    j->has_request = true;
    return (req->params && !j->params) || (req->fields && !j->fields) ||
                   (req->input_path && !j->input_path)
               ? CZ_ENOMEM
               : CZ_OK;
}

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* Whether |a| and |b| were made from the same request (cz__djob_request of each). */
static bool same_request(const djob_t *a, const djob_t *b)
{
    return a->has_request && b->has_request && !strcmp(a->kind, b->kind) &&
           a->priority == b->priority && same_text(a->params, b->params) &&
           same_text(a->fields, b->fields) && same_text(a->input_path, b->input_path) &&
           a->has_input == b->has_input && a->input_len == b->input_len &&
           !memcmp(a->input_digest, b->input_digest, sizeof a->input_digest);
}

/* ---- into the prover ------------------------------------------------------------------- */

/*
 * The prover's completion callback (a library thread, no library lock
 * held): mark the job ended and wake the finisher. After the unlock the
 * record is not touched: whoever waits for |ended| may free it.
 */
static void job_ended(void *user, cz_prover_t *p, uint64_t id, cz_job_state_t state)
{
    (void)p;
    (void)id;
    (void)state;
    djob_t *j = user;
    cz_server_t *s = j->server;
    cz_mutex_lock(&s->mu);
    j->ended = true;
    pthread_cond_broadcast(&s->work);
    pthread_cond_broadcast(&s->changed);
    cz_mutex_unlock(&s->mu);
}

int cz__submit_to_prover(cz_server_t *s, cz_ctx_t *ctx, const cz_submit_req_t *req, djob_t *j)
{
    int rc = check_request(s, ctx, req);
    if (rc != CZ_OK)
        return rc;
    char *file = NULL;
    const void *input = req->input; /* borrowed: handed to the prover as is */
    size_t input_len = req->input_len;
    if (req->input_path &&
        (rc = read_input_file(s, ctx, req->input_path, &file, &input_len)) != CZ_OK)
        return rc;
    if (file)
        input = file;
    cz_job_request_t r;
    cz_job_request_init(&r, req->kind, input, input_len);
    r.fields = req->fields;
    r.params = req->params;
    r.priority = req->priority ? req->priority : 2;
    r.on_done = job_ended;
    r.user = j;
    cz_error_t err;
    uint64_t pid = 0;
    if ((rc = cz_prover_submit(s->prover, &r, &pid, &err)) != CZ_OK) {
        cz_fail(ctx, rc, "%s", err.message); /* the library's words, as every door's */
    } else {
        cz_job_info_t info;
        cz_prover_status(s->prover, pid, &info, NULL);
        snprintf(j->summary, sizeof j->summary, "%s", info.summary);
        cz_mutex_lock(&s->mu);
        j->pid = pid;
        j->partitions = info.partitions;
        cz_mutex_unlock(&s->mu);
    }
    free(file);
    return rc;
}

void cz__withdraw(cz_server_t *s, djob_t *j)
{
    cz_prover_cancel(s->prover, j->pid, NULL);
    cz_mutex_lock(&s->mu);
    while (!j->ended) /* the callback has the record until it sets this */
        cz_cond_wait(&s->changed, &s->mu);
    cz_mutex_unlock(&s->mu);
    cz_prover_forget(s->prover, j->pid, NULL);
}

/* ---- submit -------------------------------------------------------------------------- */

static void new_id(char out[CZ_JOB_ID_LEN + 1])
{
    uint8_t b[8];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
        uint64_t t = (uint64_t)(cz_mono_s() * 1e9) ^ (uint64_t)getpid() << 40;
        memcpy(b, &t, 8);
    }
    for (int i = 0; i < 8; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* The claim of request_id |rid| or of job id |id| (either may be NULL), if any (s->mu held). */
static cz_claim_t *claimed(cz_server_t *s, const char *rid, const char *id)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    for (cz_claim_t *c = s->claims; c; c = c->next)
        if ((rid && c->request_id && !strcmp(c->request_id, rid)) || (id && !strcmp(c->id, id)))
            return c;
    return NULL;
}

/* Drop |c| and wake the submits waiting for its request_id (s->mu held). */
static void unclaim(cz_server_t *s, cz_claim_t *c)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    for (cz_claim_t **pp = &s->claims; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    pthread_cond_broadcast(&s->changed);
}

/* Unlink ended job |j| from the list (s->mu held). */
static void unlink_job(cz_server_t *s, djob_t *j)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    for (djob_t **pp = &s->jobs; *pp; pp = &(*pp)->next)
        if (*pp == j) {
            *pp = j->next;
            return;
        }
}

/* Drop an unlinked ended job and its journal files (s->mu NOT held). */
static void forget_free(cz_server_t *s, djob_t *j)
{
    cz_journal_remove(s->journal, j->id);
    char q[CZ_REQUEST_ID_MAX + 8];
    CZ_LOGI("job superseded by a retry", "id=%s request_id=%s state=%s", j->id,
            cz_log_q(q, sizeof q, j->request_id), cz__state_name(j->state));
    cz__djob_free(j);
}

/*
 * The earlier job of request_id |rid| (s->mu held), or NULL when there is
 * none or a retry supersedes it: a retry of a request that ended without
 * its proof, or of another request under the same id, proves anew (never
 * under a waiter); *superseded is then the job to forget (unlinked here).
 * A retry passes a lost job's tombstone by (it stays). |mine|: the new
 * request's identity (cz__djob_request).
 */
static djob_t *earlier(cz_server_t *s, const char *rid, const djob_t *mine, bool retry,
                       djob_t **superseded)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    djob_t *old = NULL;
    for (djob_t *o = s->jobs; rid && o && !old; o = o->next)
        if (!strcmp(o->request_id, rid) && !(retry && o->state == DJ_LOST))
            old = o;
    if (old && retry && DJ_ENDED(old->state) && old->waiters == 0 &&
        (old->state != DJ_DONE || !same_request(old, mine))) {
        unlink_job(s, old);
        *superseded = old;
        return NULL;
    }
    return old;
}

/* Prepare (in the prover) and journal job |j| of |req|; s->mu NOT held. The journal
 * writes the input after the prover has parsed it (the borrowed bytes, never copied
 * before). */
static int accept(cz_server_t *s, cz_ctx_t *ctx, const cz_submit_req_t *req, djob_t *j)
{
    int rc = cz__submit_to_prover(s, ctx, req, j);
    json_t *request = NULL;
    if (rc == CZ_OK)
        rc = cz_submit_to_json(ctx, req, &request);
    if (rc == CZ_OK) {
        json_t *doc = json_pack("{s:s,s:s,s:I,s:I,s:o}", "id", j->id, "request_id", j->request_id,
                                "created", (json_int_t)j->created, "seq", (json_int_t)j->seq,
                                "request", request);
        rc = doc ? cz_journal_put(s->journal, ctx, j->id, "job", doc)
                 : cz_fail(ctx, CZ_ENOMEM, "journal document");
        json_decref(doc);
    }
    if (rc != CZ_OK && j->pid)
        cz__withdraw(s, j); /* the prover had it already: no client will see it */
    return rc;
}

int cz_server_submit(cz_server_t *s, cz_ctx_t *ctx, const cz_submit_req_t *req,
                     cz_submit_out_t *out)
{
    memset(out, 0, sizeof *out);
    int rc = req->request_id ? check_request_id(ctx, req->request_id, req->request_id_len) : CZ_OK;
    djob_t *j = rc == CZ_OK ? calloc(1, sizeof *j) : NULL;
    if (rc == CZ_OK && (!j || cz__djob_request(j, req) != CZ_OK))
        rc = cz_fail(ctx, CZ_ENOMEM, "job");
    if (rc != CZ_OK) {
        cz__djob_free(j);
        return rc;
    }
    j->server = s;
    if (req->request_id)
        memcpy(j->request_id, req->request_id, req->request_id_len); /* checked: fits */
    const char *rid = req->request_id ? j->request_id : NULL;
    cz_claim_t claim = { .request_id = rid };
    djob_t *superseded = NULL;
    uint64_t seq = 0;
    cz_mutex_lock(&s->mu);
    while (rid && claimed(s, rid, NULL))
        cz_cond_wait(&s->changed, &s->mu); /* the first submit's outcome decides */
    djob_t *old = earlier(s, rid, j, req->retry, &superseded);
    if (old) {
        rc = same_request(old, j)
                 ? CZ_OK
                 : cz_fail(ctx, CZ_EBUSY,
                           "request_id: '%s' was used for a different request (job %s)", rid,
                           old->id);
        if (rc == CZ_OK) {
            snprintf(out->id, sizeof out->id, "%s", old->id);
            out->state = cz__live(s, old, NULL, NULL);
            out->existing = true;
        }
    } else if (s->stopping) {
        rc = cz_fail(ctx, CZ_EUNAVAIL,
                     "the daemon is shutting down; submit again after it restarts");
    } else {
        do
            new_id(claim.id);
        while (cz__find(s, claim.id) || claimed(s, NULL, claim.id));
        claim.next = s->claims;
        s->claims = &claim;
        seq = s->next_seq++;
    }
    cz_mutex_unlock(&s->mu);
    if (superseded)
        forget_free(s, superseded);
    if (old || rc != CZ_OK) {
        cz__djob_free(j);
        return rc;
    }

    snprintf(j->id, sizeof j->id, "%s", claim.id);
    j->seq = seq;
    j->created = time(NULL);
    j->t_accept = cz_mono_s();
    j->state = DJ_LIVE;
    rc = accept(s, ctx, req, j);
    cz_mutex_lock(&s->mu);
    if (rc == CZ_OK) {
        j->next = s->jobs;
        s->jobs = j;
        s->jobs_accepted++;
        pthread_cond_broadcast(&s->work); /* it may have ended in the prover already */
        snprintf(out->id, sizeof out->id, "%s", j->id);
        out->state = CZ_JOB_QUEUED;
    }
    unclaim(s, &claim); /* after the job is listed: a waiting submit finds it */
    cz_mutex_unlock(&s->mu);
    if (rc != CZ_OK) {
        cz__djob_free(j);
        return rc;
    }
    CZ_LOGI("job accepted", "id=%s kind=%s partitions=%zu priority=%d summary=%s", j->id, j->kind,
            j->partitions, j->priority, *j->summary ? j->summary : "-");
    return CZ_OK;
}

/* ---- waiting, results, cancel ---------------------------------------------------------------- */

int cz_server_lookup(cz_server_t *s, cz_ctx_t *ctx, const char *key, char id[CZ_JOB_ID_LEN + 1])
{
    cz_mutex_lock(&s->mu);
    const djob_t *j = cz__find(s, key);
    for (const djob_t *o = s->jobs; !j && o; o = o->next) /* newest first */
        if (*o->request_id && !strcmp(o->request_id, key))
            j = o;
    if (j)
        snprintf(id, CZ_JOB_ID_LEN + 1, "%s", j->id);
    cz_mutex_unlock(&s->mu);
    return j ? CZ_OK
             : cz_fail(ctx, CZ_ENOTFOUND,
                       "job %.64s: not found (neither a job id nor a "
                       "request_id known)",
                       key);
}

int cz_server_await(cz_server_t *s, cz_ctx_t *ctx, const char *id, double timeout_s,
                    const atomic_bool *gone, bool cancel_if_last)
{
    struct timespec ts = cz_deadline_in(timeout_s > 0 ? timeout_s : 0);
    cz_mutex_lock(&s->mu);
    /* |j| stays valid while it has a waiter: expiry and supersede skip it */
    djob_t *j = cz__find(s, id);
    if (!j) {
        cz_mutex_unlock(&s->mu);
        return cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found (unknown, or its result expired)",
                       id);
    }
    j->waiters++;
    int rc;
    for (;;) {
        if (DJ_ENDED(j->state)) {
            rc = CZ_OK;
            break;
        }
        /* shutting down: a job still running has the grace to end (its waiters get the
         * proof); one left for the next start answers now */
        if (j->abandoned || s->abandon) {
            rc = cz_fail(ctx, CZ_EUNAVAIL,
                         "the daemon is shutting down; job %s stays journaled "
                         "and resumes when it restarts",
                         id);
            break;
        }
        if (gone && atomic_load(gone)) {
            rc = cz_fail(ctx, CZ_ECANCELED, "job %s: the waiting client went away", id);
            break;
        }
        int w = timeout_s < 0 ? cz_cond_wait(&s->changed, &s->mu)
                              : cz_cond_timedwait(&s->changed, &s->mu, &ts);
        if (w == ETIMEDOUT) {
            rc = DJ_ENDED(j->state) ? CZ_OK : CZ_EBUSY;
            break;
        }
    }
    j->waiters--;
    uint64_t pid = 0;
    if (rc == CZ_ECANCELED && cancel_if_last && j->waiters == 0 && j->state == DJ_LIVE) {
        pid = j->pid;
        CZ_LOGI("job canceled: its last waiting client went away", "id=%s", id);
    }
    cz_mutex_unlock(&s->mu);
    /* outside s->mu: the job may end, and its callback run, inside the cancel */
    if (pid)
        cz_prover_cancel(s->prover, pid, NULL);
    return rc;
}

void cz_server_wake(cz_server_t *s)
{
    cz_mutex_lock(&s->mu);
    pthread_cond_broadcast(&s->changed);
    cz_mutex_unlock(&s->mu);
}

int cz_server_wait(cz_server_t *s, cz_ctx_t *ctx, const char *id, double timeout_s)
{
    int rc = cz_server_await(s, ctx, id, timeout_s > 0 ? timeout_s : 0, NULL, false);
    if (rc == CZ_EUNAVAIL) { /* long polls answer "still running" when the daemon stops */
        cz_ctx_clear(ctx);
        rc = CZ_EBUSY;
    }
    return rc;
}

int cz_server_result(cz_server_t *s, cz_ctx_t *ctx, const char *id, cz_job_result_t *out,
                     cz_job_status_t *why)
{
    memset(out, 0, sizeof *out);
    cz_mutex_lock(&s->mu);
    djob_t *j = cz__find(s, id);
    int rc = CZ_OK;
    bool mark = false;
    if (j && why)
        cz__job_status(s, j, why);
    if (!j) {
        rc = cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found (unknown, or its result expired)",
                     id);
    } else if (!DJ_ENDED(j->state)) {
        cz_job_status_t st;
        cz__job_status(s, j, &st);
        rc = cz_fail(ctx, CZ_EBUSY, "job %s is %s (%zu/%zu partitions)", id,
                     cz_job_status_stage(&st), st.partitions_done, j->partitions);
    } else if (j->state == DJ_CANCELED) {
        rc = cz_fail(ctx, CZ_ECANCELED, "job %s was canceled: %s", id, j->message);
    } else if (j->state == DJ_FAILED) {
        rc = cz_fail(ctx, j->error ? j->error : CZ_EINTERNAL, "job %s failed: %s", id, j->message);
    } else if (j->state == DJ_LOST) {
        rc = cz_fail(ctx, j->error, "job %s was lost: %s", id, j->message);
    } else if (!(out->proof = malloc(j->proof_len)) ||
               cz_public_inputs_from_json(j->public_inputs, &out->inputs, &out->per_partition,
                                          &out->partitions) != CZ_OK) {
        cz_job_result_free(out);
        rc = cz_fail(ctx, CZ_ENOMEM, "proof");
    } else {
        memcpy(out->proof, j->proof, j->proof_len);
        out->proof_len = j->proof_len;
        mark = !j->fetched;
        if (mark)
            j->fetched = time(NULL);
    }
    cz_mutex_unlock(&s->mu);
    if (mark)
        cz_journal_mark_fetched(s->journal, id);
    return rc;
}

void cz_job_result_free(cz_job_result_t *r)
{
    if (!r)
        return;
    free(r->proof);
    free(r->inputs);
    memset(r, 0, sizeof *r);
}

int cz_server_cancel(cz_server_t *s, cz_ctx_t *ctx, const char *id, cz_job_status_t *before,
                     cz_job_status_t *after)
{
    cz_mutex_lock(&s->mu);
    djob_t *j = cz__find(s, id);
    uint64_t pid = j && j->state == DJ_LIVE ? j->pid : 0;
    if (j && before)
        cz__job_status(s, j, before);
    cz_mutex_unlock(&s->mu);
    if (!j)
        return cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found", id);
    if (pid) {
        /* outside s->mu: the job may end, and its callback run, inside this call */
        cz_prover_cancel(s->prover, pid, NULL);
        CZ_LOGI("job cancel requested", "id=%s", id);
    }
    cz_mutex_lock(&s->mu);
    j = cz__find(s, id);
    if (j && after)
        cz__job_status(s, j, after);
    cz_mutex_unlock(&s->mu);
    return j ? CZ_OK : cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found", id);
}

/* ---- params ----------------------------------------------------------------------------- */

int cz_server_preload(cz_server_t *s, cz_ctx_t *ctx, const char *name, cz_params_item_t *out)
{
    cz_error_t err;
    int rc = cz_prover_params_preload(s->prover, name, out, &err);
    return rc ? cz_fail(ctx, rc, "%s", err.message) : CZ_OK;
}

int cz_server_evict(cz_server_t *s, cz_ctx_t *ctx, const char *name)
{
    cz_error_t err;
    int rc = cz_prover_params_evict(s->prover, name, &err);
    return rc ? cz_fail(ctx, rc, "%s", err.message) : CZ_OK;
}
