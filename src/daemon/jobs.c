/*
 * daemon/jobs.c — the request side of the server: validate and accept
 * jobs, report them, hand out results, cancel, params preload/evict
 * (see daemon/server.h).
 */
#include "daemon/server_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/log.h"

#define MAX_INPUT_FILE (256u << 20)

static pthread_mutex_t submit_mu = PTHREAD_MUTEX_INITIALIZER;   /* serialises submits */

const char *cz__state_name(dj_state_t st)
{
    switch (st) {
    case DJ_STAGED: case DJ_LOADING: return "queued";
    case DJ_ENGINE: case DJ_FINISHING: return "running";
    case DJ_DONE: return "done";
    case DJ_FAILED: return "failed";
    case DJ_CANCELED: return "canceled";
    case DJ_LOST: return "lost";
    case DJ__COUNT: break;
    }
    return "?";
}

static const char *stage_name(const djob_t *j)
{
    switch (j->state) {
    case DJ_STAGED: return "waiting";
    case DJ_LOADING: return "loading_params";
    case DJ_ENGINE:
        return j->engine_state == CZ_JOB_VERIFYING ? "verifying"
             : j->engine_state == CZ_JOB_QUEUED ? "queued" : "proving";
    case DJ_FINISHING: return "writing_result";
    default: return cz__state_name(j->state);
    }
}

/*
 * Within the engine, where the work is: "verify" while the job's proof is
 * verified, else the furthest stage any unfinished partition has reached
 * (a one-partition job: its partition's stage). NULL outside the engine.
 */
static const char *partition_stage(const djob_t *j)
{
    if (j->state != DJ_ENGINE)
        return NULL;
    return cz_job_stage_label(j->engine_state, j->in_stage);
}

static json_t *stage_counts(const djob_t *j)
{
    json_t *o = json_object();
    for (int k = 0; o && k < CZ_PART_NSTAGES; k++)
        json_object_set_new(o, cz_part_stage_name((cz_part_stage_t)k),
                            json_integer((json_int_t)j->in_stage[k]));
    return o;
}

static json_t *iso_time(time_t t)
{
    struct tm tm;
    char buf[32];
    gmtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return json_string(buf);
}

json_t *cz__job_json(cz_server_t *s, const djob_t *j)
{
    cz_job_timings_t t = j->t;
    if (!DJ_ENDED(j->state))
        t.total = (cz__now_s() - j->t_accept) * 1e3;
    json_t *o = json_pack("{s:s,s:s,s:s,s:i,s:s,s:s,s:{s:I,s:I},s:{s:f,s:f,s:f,s:f,s:f},s:b}",
                          "id", j->id, "kind", j->kind ? j->kind->name : "?",
                          "summary", j->prepared || DJ_ENDED(j->state) ? j->kj.summary : "",
                          "priority", j->priority, "state", cz__state_name(j->state),
                          "stage", stage_name(j), "progress",
                          "partitions_done", (json_int_t)j->partitions_done,
                          "partitions_total", (json_int_t)j->partitions, "timings",
                          "queue_wait_ms", t.queue_wait, "params_load_ms", t.params_load,
                          "synthesis_ms", t.synthesis, "device_ms", t.device, "total_ms", t.total,
                          "recovered", j->recovered);
    if (!o)
        return NULL;
    const char *pstage = partition_stage(j);
    if (pstage) {
        json_object_set_new(o, "partition_stage", json_string(pstage));
        json_object_set_new(o, "partition_stages", stage_counts(j));
    }
    if (*j->request_id)
        json_object_set_new(o, "request_id", json_string(j->request_id));
    const char *params = json_string_value(json_object_get(j->request, "params"));
    if (params)
        json_object_set_new(o, "params", json_string(params));
    if (j->created)
        json_object_set_new(o, "created", iso_time(j->created));
    if (j->finished)
        json_object_set_new(o, "finished", iso_time(j->finished));
    if (j->state == DJ_FAILED || j->state == DJ_CANCELED || j->state == DJ_LOST) {
        json_object_set_new(o, "error", json_string(cz_err_name(j->error)));
        json_object_set_new(o, "message", json_string(j->message));
    }
    json_t *pending = cz__pending_json(j);
    if (pending)
        json_object_set_new(o, "result_write", pending);
    return o;
}

djob_t *cz__find(cz_server_t *s, const char *id)
{
    for (djob_t *j = s->jobs; j; j = j->next)
        if (!strcmp(j->id, id))
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

int cz__params_path(cz_server_t *s, cz_ctx_t *ctx, const char *name, char out[PATH_MAX])
{
    struct stat st;
    if (name[0] == '/') {
        if (!s->cfg.allow_client_paths)
            return cz_fail(ctx, CZ_EINVAL, "params: paths are not accepted (daemon.allow_client_paths "
                                           "= false); give a name from params.dir");
        if (strlen(name) >= PATH_MAX)
            return cz_fail(ctx, CZ_EINVAL, "params: path too long");
        if (stat(name, &st) || !S_ISREG(st.st_mode))
            return cz_fail(ctx, CZ_ENOTFOUND, "params: %s: %s", name,
                           errno && !S_ISREG(st.st_mode) ? strerror(errno) : "not a regular file");
        snprintf(out, PATH_MAX, "%s", name);
        return CZ_OK;
    }
    if (!name_ok(name))
        return cz_fail(ctx, CZ_EINVAL, "params: '%.64s' is not a name (letters, digits, '.', '_', '-') "
                                       "or an absolute path", name);
    for (int with_ext = 0; with_ext < 2; with_ext++) {
        int n = snprintf(out, PATH_MAX, "%s/%s%s", s->cfg.params_dir, name,
                         with_ext ? ".params" : "");
        if (n > 0 && n < PATH_MAX && stat(out, &st) == 0 && S_ISREG(st.st_mode))
            return CZ_OK;
    }
    return cz_fail(ctx, CZ_ENOTFOUND, "params: '%s' not found in params.dir %s", name,
                   s->cfg.params_dir);
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

/* Validate |req| and prepare |j| (kind, params path, partitions, inputs). */
int cz__prepare(cz_server_t *s, cz_ctx_t *ctx, const json_t *req, djob_t *j);
int cz__prepare(cz_server_t *s, cz_ctx_t *ctx, const json_t *req, djob_t *j)
{
    if (!json_is_object(req))
        return cz_fail(ctx, CZ_EINVAL, "body: must be a JSON object");
    const char *kname = json_string_value(json_object_get(req, "kind"));
    char known[128];
    if (!kname)
        return cz_fail(ctx, CZ_EINVAL, "kind: required, a string (known kinds: %s)",
                       cz_kind_names(known, sizeof known));
    size_t kind_index = 0;
    const cz_job_kind_t *kind = cz_kind_find(kname, &kind_index);
    if (!kind)
        return cz_fail(ctx, CZ_EINVAL, "kind: '%.64s' is not a known kind (known: %s)", kname,
                       cz_kind_names(known, sizeof known));
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)req, key, val)
        if (!listed(common_fields, key) && !listed(kind->fields, key))
            return cz_fail(ctx, CZ_EINVAL, "%.64s: unknown field for kind %s", key, kind->name);
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
    char *text = NULL;
    size_t tlen = 0;
    if (ipath)
        rc = read_input_file(s, ctx, json_string_value(ipath), &text, &tlen);
    else if (json_is_string(input) && memchr(json_string_value(input), 0, json_string_length(input)))
        rc = cz_fail(ctx, CZ_EINVAL, "input: holds a NUL character");
    else if (json_is_string(input))
        rc = (text = strdup(json_string_value(input))) ? (tlen = json_string_length(input), CZ_OK)
                                                       : cz_fail(ctx, CZ_ENOMEM, "input");
    else if (input)
        rc = (text = json_dumps(input, JSON_COMPACT | JSON_ENCODE_ANY)) ? (tlen = strlen(text), CZ_OK)
                                                                        : cz_fail(ctx, CZ_ENOMEM, "input");
    if (rc)
        return rc;
    j->kind = kind;
    rc = kind->prepare(s->kind_state[kind_index], ctx, req, text, tlen, &j->kj);
    free(text);
    if (rc)
        return rc;
    j->prepared = true;
    j->partitions = j->kj.partitions;
    const char *pname = params ? json_string_value(params) : j->kj.default_params;
    if (j->partitions > (size_t)s->cfg.max_partitions)
        rc = cz_fail(ctx, CZ_EINVAL, "partitions: %zu is over daemon.max_partitions %ld",
                     j->partitions, s->cfg.max_partitions);
    else if (!*pname)
        rc = cz_fail(ctx, CZ_EINVAL, "params: required for kind %s", kind->name);
    else
        rc = cz__params_path(s, ctx, pname, j->params_path);
    j->n_inputs = j->kj.shape.num_inputs ? j->kj.shape.num_inputs - 1 : 0;
    if (rc == CZ_OK &&
        !(j->inputs = calloc(j->partitions * (j->n_inputs ? j->n_inputs : 1), sizeof(cz_fr))))
        rc = cz_fail(ctx, CZ_ENOMEM, "public inputs");
    if (rc) {
        kind->release(&j->kj);
        j->prepared = false;
    }
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

/* Unlink ended job |j| from the list (s->mu held); the caller frees it with forget_free. */
static void unlink_job(cz_server_t *s, djob_t *j)
{
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
    CZ_LOGI("job superseded by a retry", "id=%s request_id=%s state=%s", j->id, j->request_id,
            cz__state_name(j->state));
    json_decref(j->request);
    json_decref(j->public_inputs);
    free(j->proof);
    free(j);
}

static int submit(cz_server_t *s, cz_ctx_t *ctx, const json_t *req, bool retry, json_t **resp,
                  bool *existing)
{
    *resp = NULL;
    *existing = false;
    pthread_mutex_lock(&submit_mu);
    pthread_mutex_lock(&s->mu);
    bool stopping = s->stopping;
    const char *rid = json_is_object(req) ? json_string_value(json_object_get(req, "request_id")) : NULL;
    djob_t *old = NULL, *superseded = NULL;
    for (djob_t *o = s->jobs; rid && o && !old; o = o->next)
        if (!strcmp(o->request_id, rid) && !(retry && o->state == DJ_LOST))
            old = o;   /* a retry passes a lost job's tombstone by (it stays) and proves anew */
    /* a retry of a request that ended without its proof, or of another
     * request under the same id, proves anew (but never under a waiter) */
    if (old && retry && DJ_ENDED(old->state) && old->waiters == 0 &&
        (old->state != DJ_DONE || !json_equal(old->request, (json_t *)req))) {
        unlink_job(s, old);
        superseded = old;
        old = NULL;
    }
    if (old) {
        int rc = json_equal(old->request, (json_t *)req)
                     ? CZ_OK
                     : cz_fail(ctx, CZ_EBUSY, "request_id: '%s' was used for a different request (job %s)",
                               rid, old->id);
        if (rc == CZ_OK) {
            *resp = json_pack("{s:s,s:s,s:b}", "id", old->id, "state", cz__state_name(old->state),
                              "existing", 1);
            *existing = true;
        }
        pthread_mutex_unlock(&s->mu);
        pthread_mutex_unlock(&submit_mu);
        return rc;
    }
    pthread_mutex_unlock(&s->mu);
    if (superseded)
        forget_free(s, superseded);
    if (stopping) {
        pthread_mutex_unlock(&submit_mu);
        return cz_fail(ctx, CZ_EUNAVAIL, "the daemon is shutting down; submit again after it restarts");
    }
    djob_t *j = calloc(1, sizeof *j);
    if (!j) {
        pthread_mutex_unlock(&submit_mu);
        return cz_fail(ctx, CZ_ENOMEM, "job");
    }
    int rc = cz__prepare(s, ctx, req, j);
    if (rc == CZ_OK) {
        pthread_mutex_lock(&s->mu);
        do
            new_id(j->id);
        while (cz__find(s, j->id));
        j->seq = s->next_seq++;
        pthread_mutex_unlock(&s->mu);
        snprintf(j->request_id, sizeof j->request_id, "%s", rid ? rid : "");
        j->request = json_deep_copy(req);
        j->created = time(NULL);
        j->t_accept = cz__now_s();
        json_t *doc = json_pack("{s:s,s:s,s:I,s:I,s:O}", "id", j->id, "request_id", j->request_id,
                                "created", (json_int_t)j->created, "seq", (json_int_t)j->seq,
                                "request", j->request);
        rc = doc && j->request ? cz_journal_put(s->journal, ctx, j->id, "job", doc)
                               : cz_fail(ctx, CZ_ENOMEM, "journal document");
        json_decref(doc);
    }
    if (rc != CZ_OK) {
        if (j->prepared)
            j->kind->release(&j->kj);
        free(j->inputs);
        json_decref(j->request);
        free(j);
        pthread_mutex_unlock(&submit_mu);
        return rc;
    }
    pthread_mutex_lock(&s->mu);
    j->state = DJ_STAGED;
    j->next = s->jobs;
    s->jobs = j;
    s->jobs_accepted++;
    pthread_cond_broadcast(&s->work);
    *resp = json_pack("{s:s,s:s,s:b}", "id", j->id, "state", "queued", "existing", 0);
    pthread_mutex_unlock(&s->mu);
    pthread_mutex_unlock(&submit_mu);
    CZ_LOGI("job accepted", "id=%s kind=%s partitions=%zu priority=%d params=%s", j->id,
            j->kind->name, j->partitions, j->priority, j->params_path);
    return CZ_OK;
}

int cz_server_submit(cz_server_t *s, cz_ctx_t *ctx, const json_t *req, json_t **resp,
                     bool *existing)
{
    return submit(s, ctx, req, false, resp, existing);
}

int cz_server_submit_retry(cz_server_t *s, cz_ctx_t *ctx, const json_t *req, json_t **resp,
                           bool *existing)
{
    return submit(s, ctx, req, true, resp, existing);
}

int cz_server_job(cz_server_t *s, cz_ctx_t *ctx, const char *id, json_t **out)
{
    pthread_mutex_lock(&s->mu);
    djob_t *j = cz__find(s, id);
    *out = j ? cz__job_json(s, j) : NULL;
    pthread_mutex_unlock(&s->mu);
    if (!j)
        return cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found (unknown, or its result expired)", id);
    return *out ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "status");
}

/* Request the cancellation of |j| (s->mu held). */
static void cancel_locked(cz_server_t *s, djob_t *j)
{
    j->cancel = true;
    if (j->state == DJ_ENGINE)
        cz_engine_cancel(s->engine, j->eid);
    pthread_cond_broadcast(&s->work);
}

int cz_server_await(cz_server_t *s, cz_ctx_t *ctx, const char *id, double timeout_s,
                    const atomic_bool *gone, bool cancel_if_last)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    double end = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + (timeout_s > 0 ? timeout_s : 0);
    ts.tv_sec = (time_t)end;
    ts.tv_nsec = (long)((end - (double)ts.tv_sec) * 1e9);
    pthread_mutex_lock(&s->mu);
    /* |j| stays valid while it has a waiter: expiry and supersede skip it */
    djob_t *j = cz__find(s, id);
    if (!j) {
        pthread_mutex_unlock(&s->mu);
        return cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found (unknown, or its result expired)", id);
    }
    j->waiters++;
    int rc;
    for (;;) {
        if (DJ_ENDED(j->state)) {
            rc = CZ_OK;
            break;
        }
        if (s->stopping) {
            rc = cz_fail(ctx, CZ_EUNAVAIL, "the daemon is shutting down; job %s stays journaled "
                                           "and resumes when it restarts", id);
            break;
        }
        if (gone && atomic_load(gone)) {
            rc = cz_fail(ctx, CZ_ECANCELED, "job %s: the waiting client went away", id);
            break;
        }
        int w = timeout_s < 0 ? pthread_cond_wait(&s->changed, &s->mu)
                              : pthread_cond_timedwait(&s->changed, &s->mu, &ts);
        if (w == ETIMEDOUT) {
            rc = DJ_ENDED(j->state) ? CZ_OK : CZ_EBUSY;
            break;
        }
    }
    j->waiters--;
    if (rc == CZ_ECANCELED && cancel_if_last && j->waiters == 0 && !DJ_ENDED(j->state)) {
        cancel_locked(s, j);
        CZ_LOGI("job canceled: its last waiting client went away", "id=%s", id);
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

void cz_server_wake(cz_server_t *s)
{
    pthread_mutex_lock(&s->mu);
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->mu);
}

int cz_server_wait(cz_server_t *s, cz_ctx_t *ctx, const char *id, double timeout_s)
{
    int rc = cz_server_await(s, ctx, id, timeout_s > 0 ? timeout_s : 0, NULL, false);
    if (rc == CZ_EUNAVAIL) {   /* long polls answer "still running" when the daemon stops */
        cz_ctx_clear(ctx);
        rc = CZ_EBUSY;
    }
    return rc;
}

int cz_server_result(cz_server_t *s, cz_ctx_t *ctx, const char *id, uint8_t **proof,
                     size_t *len, json_t **public_inputs)
{
    *proof = NULL;
    *len = 0;
    *public_inputs = NULL;
    pthread_mutex_lock(&s->mu);
    djob_t *j = cz__find(s, id);
    int rc = CZ_OK;
    bool mark = false;
    if (!j)
        rc = cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found (unknown, or its result expired)", id);
    else if (!DJ_ENDED(j->state))
        rc = cz_fail(ctx, CZ_EBUSY, "job %s is %s (%zu/%zu partitions)", id, stage_name(j),
                     j->partitions_done, j->partitions);
    else if (j->state == DJ_CANCELED)
        rc = cz_fail(ctx, CZ_ECANCELED, "job %s was canceled: %s", id, j->message);
    else if (j->state == DJ_FAILED)
        rc = cz_fail(ctx, j->error ? j->error : CZ_EINTERNAL, "job %s failed: %s", id, j->message);
    else if (j->state == DJ_LOST)
        rc = cz_fail(ctx, j->error, "job %s was lost: %s", id, j->message);
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
    pthread_mutex_unlock(&s->mu);
    if (mark)
        cz_journal_mark_fetched(s->journal, id);
    return rc;
}

int cz_server_cancel(cz_server_t *s, cz_ctx_t *ctx, const char *id, json_t **out)
{
    *out = NULL;
    pthread_mutex_lock(&s->mu);
    djob_t *j = cz__find(s, id);
    if (j && !DJ_ENDED(j->state)) {
        cancel_locked(s, j);
        CZ_LOGI("job cancel requested", "id=%s", id);
    }
    *out = j ? cz__job_json(s, j) : NULL;
    pthread_mutex_unlock(&s->mu);
    if (!j)
        return cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found", id);
    return CZ_OK;
}

json_t *cz_server_list(cz_server_t *s, const char *state)
{
    json_t *arr = json_array();
    pthread_mutex_lock(&s->mu);
    for (djob_t *j = s->jobs; arr && j; j = j->next)
        if (!state || !strcmp(state, cz__state_name(j->state)))
            json_array_append_new(arr, cz__job_json(s, j));
    pthread_mutex_unlock(&s->mu);
    return arr ? json_pack("{s:o}", "jobs", arr) : NULL;
}

int cz_server_preload(cz_server_t *s, cz_ctx_t *ctx, const char *name, json_t **out)
{
    char path[PATH_MAX];
    *out = NULL;
    int rc = cz__params_path(s, ctx, name, path);
    if (rc)
        return rc;
    cz_pentry_t *pe = NULL;
    double ms = 0;
    rc = cz_pcache_acquire(s->pcache, ctx, path, &pe, &ms);
    if (rc)
        return rc;
    size_t bytes = cz_pentry_bytes(pe);
    snprintf(path, sizeof path, "%s", cz_pentry_path(pe));
    cz_pcache_release(s->pcache, pe);
    *out = json_pack("{s:s,s:I,s:f}", "path", path, "bytes", (json_int_t)bytes, "load_ms", ms);
    return *out ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "reply");
}

int cz_server_evict(cz_server_t *s, cz_ctx_t *ctx, const char *name, json_t **out)
{
    char path[PATH_MAX];
    *out = NULL;
    int rc = cz__params_path(s, ctx, name, path);
    if (rc == CZ_OK)
        rc = cz_pcache_evict(s->pcache, ctx, path);
    if (rc == CZ_OK)
        *out = json_pack("{s:s,s:b}", "path", path, "evicted", 1);
    return rc;
}
