/*
 * daemon/status.c — what a job looks like to the doors: its state and
 * stage (the recorded state of an ended job, else the prover's live
 * snapshot), the status object of GET /v1/proofs/{id}, and the list
 * (docs/API.md, "status").
 */
#include "daemon/server_int.h"

#include <string.h>

#include "core/clock.h"

const char *cz__state_name(dj_state_t st)
{
    switch (st) {
    case DJ_LIVE: return "queued";
    case DJ_FINISHING: return "running";
    case DJ_DONE: return "done";
    case DJ_FAILED: return "failed";
    case DJ_CANCELED: return "canceled";
    case DJ_LOST: return "lost";
    case DJ__COUNT: break;
    }
    return "?";
}

/* The prover's snapshot of live job |j| (s->mu held; the prover's lock nests inside). */
static bool snapshot(cz_server_t *s, const djob_t *j, cz_job_info_t *info)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    memset(info, 0, sizeof *info);
    return j->state == DJ_LIVE && j->pid && cz_prover_status(s->prover, j->pid, info, NULL) == CZ_OK;
}

/* Whether the prover has ended |j| (its result is not journaled yet: the job is not). */
static bool prover_ended(const cz_job_info_t *info)
{
    return info->state >= CZ_JOB_DONE;
}

const char *cz__live(cz_server_t *s, const djob_t *j, cz_job_info_t *info, bool *have)
{
    cz_job_info_t mine = { 0 };
    info = info ? info : &mine;
    bool h = snapshot(s, j, info);
    if (have)
        *have = h;
    if (j->state != DJ_LIVE)
        return cz__state_name(j->state);
    /* in the proving queues, or ended there with its result not yet journaled */
    return h && (info->started || prover_ended(info)) ? "running" : "queued";
}

/* The status's "stage" of |j| given its snapshot (docs/API.md). */
static const char *stage_name(const djob_t *j, const cz_job_info_t *info, bool have)
{
    if (j->state == DJ_FINISHING || (j->state == DJ_LIVE && have && prover_ended(info)))
        return "writing_result";
    if (j->state != DJ_LIVE)
        return cz__state_name(j->state);
    if (!have || !info->started)
        return have && info->loading_params ? "loading_params" : "waiting";
    return info->state == CZ_JOB_VERIFYING ? "verifying"
         : info->state == CZ_JOB_QUEUED ? "queued" : "proving";
}

static json_t *stage_counts(const cz_job_info_t *info)
{
    json_t *o = json_object();
    for (int k = 0; o && k < CZ_PART_NSTAGES; k++)
        json_object_set_new(o, cz_part_stage_name((cz_part_stage_t)k),
                            json_integer((json_int_t)info->in_stage[k]));
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
    CZ_ASSERT(cz_mutex_held(&s->mu));
    cz_job_info_t info;
    bool have = false;
    const char *state = cz__live(s, j, &info, &have);
    bool working = have && info.started && !prover_ended(&info);   /* in the proving queues */
    cz_job_timings_t t = j->t;
    size_t done = j->partitions_done;
    if (have) {
        t = info.t;
        done = info.partitions_done;
    }
    if (!DJ_ENDED(j->state))
        t.total = (cz_mono_s() - j->t_accept) * 1e3;   /* accepted by this process -> now */
    json_t *o = json_pack("{s:s,s:s,s:s,s:i,s:s,s:s,s:{s:I,s:I},s:{s:f,s:f,s:f,s:f,s:f},s:b}",
                          "id", j->id, "kind", *j->kind ? j->kind : "?", "summary", j->summary,
                          "priority", j->priority, "state", state,
                          "stage", stage_name(j, &info, have), "progress",
                          "partitions_done", (json_int_t)done,
                          "partitions_total", (json_int_t)j->partitions, "timings",
                          "queue_wait_ms", t.queue_wait, "params_load_ms", t.params_load,
                          "synthesis_ms", t.synthesis, "device_ms", t.device, "total_ms", t.total,
                          "recovered", j->recovered);
    if (!o)
        return NULL;
    if (working) {
        /* where the work is within a partition (only while in the proving queues) */
        json_object_set_new(o, "partition_stage",
                            json_string(cz_job_stage_label(info.state, info.in_stage)));
        json_object_set_new(o, "partition_stages", stage_counts(&info));
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
    CZ_ASSERT(cz_mutex_held(&s->mu));
    for (djob_t *j = s->jobs; j; j = j->next)
        if (!strcmp(j->id, id))
            return j;
    return NULL;
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

json_t *cz_server_list(cz_server_t *s, const char *state)
{
    json_t *arr = json_array();
    cz_mutex_lock(&s->mu);
    for (djob_t *j = s->jobs; arr && j; j = j->next)
        if (!state || !strcmp(state, cz__live(s, j, NULL, NULL)))
            json_array_append_new(arr, cz__job_json(s, j));
    cz_mutex_unlock(&s->mu);
    return arr ? json_pack("{s:o}", "jobs", arr) : NULL;
}
