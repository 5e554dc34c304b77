/*
 * daemon/jobs.c — the request side of the server: validate requests and
 * hand them to the prover (cuzk.h), report jobs, hand out results, cancel,
 * params preload/evict (see daemon/server.h).
 *
 * The daemon checks what belongs to HTTP and the journal (the common
 * fields, request_id, input_path); the kind's fields, the input, the
 * partition count and the params name are the prover's to check, so every
 * door refuses a bad request with the same message. No lock is held while
 * the prover prepares a job (seconds for a 32GiB C1): submits run in
 * parallel, and a request_id is claimed before, so two submits of one
 * request_id cannot both start a job.
 */
#include "daemon/server_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/hex.h"
#include "daemon/log.h"
#include "ff/fr.h"

#define MAX_INPUT_FILE (256u << 20)

const char *cz__state_name(dj_state_t st)
{
    switch (st) {
    case DJ_QUEUED: return "queued";
    case DJ_RUNNING: case DJ_FINISHING: return "running";
    case DJ_DONE: return "done";
    case DJ_FAILED: return "failed";
    case DJ_CANCELED: return "canceled";
    }
    return "?";
}

static json_t *iso_time(time_t t)
{
    struct tm tm;
    char buf[32];
    gmtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return json_string(buf);
}

/*
 * The live view of |j| (s->mu held; the prover's lock nests inside): its
 * state, progress and timings, and the stage name of the status object.
 */
const char *cz__job_refresh(cz_server_t *s, djob_t *j, cz_job_timings_t *t)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    *t = j->t;
    if (j->state == DJ_FINISHING)
        return "writing_result";
    if (DJ_ENDED(j->state))
        return cz__state_name(j->state);
    cz_job_info_t info;
    if (!j->pid || cz_prover_status(s->prover, j->pid, &info, NULL) != CZ_OK)
        return "waiting";
    j->state = info.state == CZ_JOB_QUEUED ? DJ_QUEUED : DJ_RUNNING;
    j->partitions_done = info.partitions_done;
    snprintf(j->summary, sizeof j->summary, "%s", info.summary);
    *t = info.t;
    return info.loading_params ? "loading_params"
         : info.state == CZ_JOB_QUEUED ? "queued"
         : info.state == CZ_JOB_VERIFYING ? "verifying" : "proving";
}

json_t *cz__job_json(cz_server_t *s, const djob_t *cj)
{
    djob_t *j = (djob_t *)cj;   /* refresh caches the prover's view in the record (s->mu held) */
    cz_job_timings_t t;
    const char *stage = cz__job_refresh(s, j, &t);
    json_t *o = json_pack("{s:s,s:s,s:s,s:i,s:s,s:s,s:{s:I,s:I},s:{s:f,s:f,s:f,s:f,s:f},s:b}",
                          "id", j->id, "kind", j->kind, "summary", j->summary,
                          "priority", j->priority, "state", cz__state_name(j->state),
                          "stage", stage, "progress",
                          "partitions_done", (json_int_t)j->partitions_done,
                          "partitions_total", (json_int_t)j->partitions, "timings",
                          "queue_wait_ms", t.queue_wait, "params_load_ms", t.params_load,
                          "synthesis_ms", t.synthesis, "device_ms", t.device, "total_ms", t.total,
                          "recovered", j->recovered);
    if (!o)
        return NULL;
    if (*j->request_id)
        json_object_set_new(o, "request_id", json_string(j->request_id));
    const char *params = json_string_value(json_object_get(j->request, "params"));
    if (params)
        json_object_set_new(o, "params", json_string(params));
    if (j->created)
        json_object_set_new(o, "created", iso_time(j->created));
    if (j->finished)
        json_object_set_new(o, "finished", iso_time(j->finished));
    if (j->state == DJ_FAILED || j->state == DJ_CANCELED) {
        json_object_set_new(o, "error", json_string(cz_err_name(j->error)));
        json_object_set_new(o, "message", json_string(j->message));
    }
    return o;
}

djob_t *cz__find(cz_server_t *s, const char *id)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    for (djob_t *j = s->jobs; j; j = j->next)
        if (!j->claim && !strcmp(j->id, id))
            return j;
    return NULL;
}

static bool name_ok(const char *n)
{
    if (!*n || *n == '.' || strlen(n) > 200)
        return false;
    for (; *n; n++)
        if (!((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') || (*n >= '0' && *n <= '9') ||
              *n == '.' || *n == '_' || *n == '-'))
            return false;
    return true;
}

static int read_input_file(cz_server_t *s, cz_ctx_t *ctx, const char *path, char **out, size_t *len)
{
    if (!s->cfg.allow_client_paths)
        return cz_fail(ctx, CZ_EINVAL, "input_path: paths are not accepted (daemon.allow_client_paths = false)");
    if (path[0] != '/')
        return cz_fail(ctx, CZ_EINVAL, "input_path: must be an absolute path");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return cz_fail(ctx, CZ_ENOTFOUND, "input_path: %s: %s", path,
                       fd >= 0 ? "not a regular file" : strerror(e));
    }
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

static const char *const common_fields[] = { "kind", "params", "input", "input_path", "priority",
                                             "request_id", NULL };

static bool listed(const char *const *l, const char *k)
{
    for (; l && *l; l++)
        if (!strcmp(*l, k))
            return true;
    return false;
}

static int parse_priority(cz_ctx_t *ctx, const json_t *v, int *out)
{
    static const char *const names[] = { "low", "normal", "high", "critical" };
    *out = 2;
    if (!v)
        return CZ_OK;
    if (json_is_string(v)) {
        for (int i = 0; i < 4; i++)
            if (!strcmp(json_string_value(v), names[i])) {
                *out = i + 1;
                return CZ_OK;
            }
    } else if (json_is_integer(v) && json_integer_value(v) >= 1 && json_integer_value(v) <= 4) {
        *out = (int)json_integer_value(v);
        return CZ_OK;
    }
    return cz_fail(ctx, CZ_EINVAL, "priority: must be 1..4 or \"low\", \"normal\", \"high\", \"critical\"");
}

/* The prover's completion callback: mark the job and wake the finisher (server.c). */
void cz__job_ended(void *user, cz_prover_t *p, uint64_t id, cz_job_state_t state);

int cz__submit_to_prover(cz_server_t *s, cz_ctx_t *ctx, const json_t *req, djob_t *j)
{
    if (!json_is_object(req))
        return cz_fail(ctx, CZ_EINVAL, "body: must be a JSON object");
    const char *kname = json_string_value(json_object_get(req, "kind"));
    if (!kname)
        return cz_fail(ctx, CZ_EINVAL, "kind: required, a string (known kinds: %s)",
                       cz_kind_name(0));
    snprintf(j->kind, sizeof j->kind, "%s", kname);
    int rc = parse_priority(ctx, json_object_get(req, "priority"), &j->priority);
    if (rc)
        return rc;
    const json_t *rid = json_object_get(req, "request_id");
    if (rid && (!json_is_string(rid) || !name_ok(json_string_value(rid)) ||
                json_string_length(rid) > 128))
        return cz_fail(ctx, CZ_EINVAL, "request_id: must be 1..128 of letters, digits, '.', '_', '-'");
    const json_t *params = json_object_get(req, "params");
    if (params && !json_is_string(params))
        return cz_fail(ctx, CZ_EINVAL, "params: must be a string (a name in params.dir or a path)");
    const json_t *input = json_object_get(req, "input");
    const json_t *ipath = json_object_get(req, "input_path");
    if (input && ipath)
        return cz_fail(ctx, CZ_EINVAL, "input and input_path: give one, not both");
    if (ipath && !json_is_string(ipath))
        return cz_fail(ctx, CZ_EINVAL, "input_path: must be a string");
    /* the kind's own fields go to the prover, which names an unknown one */
    json_t *fields = json_object();
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)req, key, val)
        if (fields && !listed(common_fields, key))
            json_object_set(fields, key, val);
    char *ftext = fields ? json_dumps(fields, JSON_COMPACT) : NULL;
    json_decref(fields);
    if (!ftext)
        return cz_fail(ctx, CZ_ENOMEM, "fields");
    char *text = NULL;
    size_t tlen = 0;
    if (ipath)
        rc = read_input_file(s, ctx, json_string_value(ipath), &text, &tlen);
    else if (json_is_string(input))
        rc = (text = strdup(json_string_value(input))) ? (tlen = json_string_length(input), CZ_OK)
                                                       : cz_fail(ctx, CZ_ENOMEM, "input");
    else if (input)
        rc = (text = json_dumps(input, JSON_COMPACT | JSON_ENCODE_ANY)) ? (tlen = strlen(text), CZ_OK)
                                                                        : cz_fail(ctx, CZ_ENOMEM, "input");
    if (rc == CZ_OK) {
        cz_job_request_t r;
        cz_job_request_init(&r, kname, text, tlen);
        r.fields = ftext;
        r.params = params ? json_string_value(params) : NULL;
        r.priority = j->priority;
        r.on_done = cz__job_ended;
        r.user = s;   /* not j: the callback finds the job by its prover id, if still there */
        cz_error_t err;
        uint64_t pid = 0;
        if ((rc = cz_prover_submit(s->prover, &r, &pid, &err)) != CZ_OK) {
            cz_fail(ctx, rc, "%s", err.message);
        } else {
            /* A job can end before its pid is recorded here, its callback then finding
             * no job: the prover shows it ended before it calls back, so the status
             * read after the pid is set (under s->mu, as the callback's lookup) sees it. */
            cz_job_info_t info;
            cz_mutex_lock(&s->mu);
            j->pid = pid;
            if (cz_prover_status(s->prover, pid, &info, NULL) == CZ_OK) {
                j->partitions = info.partitions;
                snprintf(j->summary, sizeof j->summary, "%s", info.summary);
                j->ended |= info.state >= CZ_JOB_DONE;
            }
            cz_mutex_unlock(&s->mu);
        }
    }
    free(text);
    free(ftext);
    return rc;
}

static void new_id(char out[CZ_JOB_ID_LEN + 1])
{
    uint8_t b[8];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
        uint64_t t = (uint64_t)(cz__now_s() * 1e9) ^ (uint64_t)getpid() << 40;
        memcpy(b, &t, 8);
    }
    for (int i = 0; i < 8; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static void free_djob(djob_t *j)
{
    json_decref(j->request);
    json_decref(j->public_inputs);
    free(j->proof);
    free(j);
}

int cz_server_submit(cz_server_t *s, cz_ctx_t *ctx, const json_t *req, json_t **resp,
                     bool *existing)
{
    *resp = NULL;
    *existing = false;
    const char *rid = json_is_object(req) ? json_string_value(json_object_get(req, "request_id")) : NULL;
    djob_t *j = calloc(1, sizeof *j);
    if (!j)
        return cz_fail(ctx, CZ_ENOMEM, "job");
    j->request = json_deep_copy(req);
    snprintf(j->request_id, sizeof j->request_id, "%s", rid ? rid : "");
    j->state = DJ_QUEUED;
    j->claim = true;   /* listed for its request_id only until it is accepted */
    /* claim the request_id (and the id) under the lock, prepare without it */
    cz_mutex_lock(&s->mu);
    djob_t *old = NULL;
    for (;;) {
        old = NULL;
        for (djob_t *o = s->jobs; rid && o && !old; o = o->next)
            if (!strcmp(o->request_id, rid))
                old = o;
        if (!old || !old->claim)
            break;
        /* the same request_id being submitted right now: its outcome decides */
        cz_cond_wait(&s->changed, &s->mu);
    }
    int rc = CZ_OK;
    if (old) {
        rc = json_equal(old->request, (json_t *)req)
               ? CZ_OK
               : cz_fail(ctx, CZ_EBUSY, "request_id: '%s' was used for a different request (job %s)",
                         rid, old->id);
        if (rc == CZ_OK) {
            *resp = json_pack("{s:s,s:s,s:b}", "id", old->id, "state", cz__state_name(old->state),
                              "existing", 1);
            *existing = true;
        }
    } else if (s->stopping) {
        rc = cz_fail(ctx, CZ_EUNAVAIL, "the daemon is shutting down; submit again after it restarts");
    } else if (!j->request) {
        rc = cz_fail(ctx, CZ_ENOMEM, "request");
    } else {
        do
            new_id(j->id);
        while (cz__find(s, j->id));   /* (a claimed one could collide: 2^-64, accepted) */
        j->seq = s->next_seq++;
        j->next = s->jobs;
        s->jobs = j;
    }
    cz_mutex_unlock(&s->mu);
    if (old || rc != CZ_OK) {
        free_djob(j);
        return rc;
    }
    j->created = time(NULL);
    rc = cz__submit_to_prover(s, ctx, req, j);
    if (rc == CZ_OK) {
        json_t *doc = json_pack("{s:s,s:s,s:I,s:I,s:O}", "id", j->id, "request_id", j->request_id,
                                "created", (json_int_t)j->created, "seq", (json_int_t)j->seq,
                                "request", j->request);
        rc = doc ? cz_journal_put(s->journal, ctx, j->id, "job", doc)
                 : cz_fail(ctx, CZ_ENOMEM, "journal document");
        json_decref(doc);
    }
    cz_mutex_lock(&s->mu);
    if (rc != CZ_OK) {
        /* never accepted: out of the list; a started prover job is canceled and dropped */
        for (djob_t **pp = &s->jobs; *pp; pp = &(*pp)->next)
            if (*pp == j) {
                *pp = j->next;
                break;
            }
        uint64_t pid = j->pid;
        pthread_cond_broadcast(&s->changed);   /* a submit of the same request_id may wait */
        cz_mutex_unlock(&s->mu);
        if (pid) {
            cz_prover_cancel(s->prover, pid, NULL);
            cz_prover_wait(s->prover, pid, -1, NULL, NULL);
            cz_prover_forget(s->prover, pid, NULL);
        }
        free_djob(j);
        return rc;
    }
    j->claim = false;
    s->jobs_accepted++;
    pthread_cond_broadcast(&s->work);      /* it may have ended already */
    pthread_cond_broadcast(&s->changed);   /* a submit of the same request_id may wait */
    *resp = json_pack("{s:s,s:s,s:b}", "id", j->id, "state", "queued", "existing", 0);
    cz_mutex_unlock(&s->mu);
    CZ_LOGI("job accepted", "id=%s kind=%s partitions=%zu priority=%d", j->id, j->kind,
            j->partitions, j->priority);
    return CZ_OK;
}

int cz_server_job(cz_server_t *s, cz_ctx_t *ctx, const char *id, json_t **out)
{
    cz_mutex_lock(&s->mu);
    djob_t *j = cz__find(s, id);
    *out = j ? cz__job_json(s, j) : NULL;
    cz_mutex_unlock(&s->mu);
    if (!j)
        return cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found (unknown, or its result expired)", id);
    return *out ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "status");
}

int cz_server_wait(cz_server_t *s, cz_ctx_t *ctx, const char *id, double timeout_s)
{
    struct timespec ts = cz_deadline_in(timeout_s > 0 ? timeout_s : 0);
    cz_mutex_lock(&s->mu);
    int rc = CZ_OK;
    for (;;) {
        djob_t *j = cz__find(s, id);
        if (!j) {
            rc = cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found", id);
            break;
        }
        if (DJ_ENDED(j->state))
            break;
        if (s->stopping || cz_cond_timedwait(&s->changed, &s->mu, &ts) == ETIMEDOUT) {
            /* the job may have ended and expired while we slept: look it up again */
            djob_t *k = cz__find(s, id);
            rc = !k ? cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found", id)
                    : DJ_ENDED(k->state) ? CZ_OK : CZ_EBUSY;
            break;
        }
    }
    cz_mutex_unlock(&s->mu);
    return rc;
}

int cz_server_result(cz_server_t *s, cz_ctx_t *ctx, const char *id, uint8_t **proof,
                     size_t *len, json_t **public_inputs)
{
    *proof = NULL;
    *len = 0;
    *public_inputs = NULL;
    cz_mutex_lock(&s->mu);
    djob_t *j = cz__find(s, id);
    int rc = CZ_OK;
    bool mark = false;
    if (!j)
        rc = cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found (unknown, or its result expired)", id);
    else if (!DJ_ENDED(j->state)) {
        cz_job_timings_t t;
        const char *stage = cz__job_refresh(s, j, &t);
        rc = cz_fail(ctx, CZ_EBUSY, "job %s is %s (%zu/%zu partitions)", id, stage,
                     j->partitions_done, j->partitions);
    }
    else if (j->state == DJ_CANCELED)
        rc = cz_fail(ctx, CZ_ECANCELED, "job %s was canceled: %s", id, j->message);
    else if (j->state == DJ_FAILED)
        rc = cz_fail(ctx, j->error ? j->error : CZ_EINTERNAL, "job %s failed: %s", id, j->message);
    else if (!(*proof = malloc(j->proof_len)))
        rc = cz_fail(ctx, CZ_ENOMEM, "proof");
    else {
        memcpy(*proof, j->proof, j->proof_len);
        *len = j->proof_len;
        *public_inputs = json_incref(j->public_inputs);
        mark = !j->fetched;
        if (mark)
            j->fetched = time(NULL);
    }
    cz_mutex_unlock(&s->mu);
    if (mark)
        cz_journal_mark_fetched(s->journal, id);
    return rc;
}

int cz_server_cancel(cz_server_t *s, cz_ctx_t *ctx, const char *id, json_t **out)
{
    *out = NULL;
    cz_mutex_lock(&s->mu);
    djob_t *j = cz__find(s, id);
    uint64_t pid = j && !j->claim && !DJ_ENDED(j->state) ? j->pid : 0;
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
    *out = j ? cz__job_json(s, j) : NULL;
    cz_mutex_unlock(&s->mu);
    return *out ? CZ_OK : cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found", id);
}

json_t *cz_server_list(cz_server_t *s, const char *state)
{
    json_t *arr = json_array();
    cz_mutex_lock(&s->mu);
    for (djob_t *j = s->jobs; arr && j; j = j->next) {
        if (j->claim)
            continue;
        json_t *o = cz__job_json(s, j);   /* refreshes j->state */
        if (!state || !strcmp(state, cz__state_name(j->state)))
            json_array_append_new(arr, o);
        else
            json_decref(o);
    }
    cz_mutex_unlock(&s->mu);
    return arr ? json_pack("{s:o}", "jobs", arr) : NULL;
}

int cz_server_preload(cz_server_t *s, cz_ctx_t *ctx, const char *name, json_t **out)
{
    *out = NULL;
    cz_params_item_t it;
    cz_error_t err;
    int rc = cz_prover_params_preload(s->prover, name, &it, &err);
    if (rc)
        return cz_fail(ctx, rc, "%s", err.message);
    *out = json_pack("{s:s,s:I,s:f}", "path", it.path, "bytes", (json_int_t)it.bytes, "load_ms",
                     it.load_ms);
    return *out ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "reply");
}

int cz_server_evict(cz_server_t *s, cz_ctx_t *ctx, const char *name, json_t **out)
{
    *out = NULL;
    cz_error_t err;
    int rc = cz_prover_params_evict(s->prover, name, &err);
    if (rc)
        return cz_fail(ctx, rc, "%s", err.message);
    *out = json_pack("{s:s,s:b}", "params", name, "evicted", 1);
    return *out ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "reply");
}
