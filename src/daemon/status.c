/*
 * daemon/status.c — what a job looks like to the doors: its state and
 * stage (the recorded state of an ended job, else the prover's live
 * snapshot) as the typed cz_job_status_t of daemon/server.h, and the list
 * (docs/API.md, "status"; daemon/jsonio.c writes its JSON).
 */
#include "daemon/server_int.h"

#include <stdio.h>
#include <stdlib.h>
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
    return j->state == DJ_LIVE && j->pid &&
           cz_prover_status(s->prover, j->pid, info, NULL) == CZ_OK;
}

/* Whether the prover has ended |j| (its result is not journaled yet: the job is not). */
static bool prover_ended(const cz_job_info_t *info)
{
    return info->state >= CZ_JOB_DONE;
}

cz_job_state_t cz__live(cz_server_t *s, const djob_t *j, cz_job_info_t *info, bool *have)
{
    cz_job_info_t mine = { 0 };
    info = info ? info : &mine;
    bool h = snapshot(s, j, info);
    if (have)
        *have = h;
    switch (j->state) {
    case DJ_LIVE: /* in the proving queues, or ended there with its result not yet journaled */
        return h && (info->started || prover_ended(info)) ? CZ_JOB_RUNNING : CZ_JOB_QUEUED;
    case DJ_FINISHING: return CZ_JOB_RUNNING;
    case DJ_DONE: return CZ_JOB_DONE;
    case DJ_CANCELED: return CZ_JOB_CANCELED;
    case DJ_FAILED:
    case DJ_LOST:
    case DJ__COUNT: break;
    }
    return CZ_JOB_FAILED;
}

/* The stage of |j| given its snapshot (docs/API.md). */
static cz_job_stage_t stage_of(const djob_t *j, const cz_job_info_t *info, bool have)
{
    if (j->state == DJ_FINISHING || (j->state == DJ_LIVE && have && prover_ended(info)))
        return CZ_STAGE_WRITING_RESULT;
    if (j->state != DJ_LIVE)
        return CZ_STAGE_ENDED;
    if (!have || !info->started)
        return have && info->loading_params ? CZ_STAGE_LOADING_PARAMS : CZ_STAGE_WAITING;
    return info->state == CZ_JOB_VERIFYING ? CZ_STAGE_VERIFYING
           : info->state == CZ_JOB_QUEUED  ? CZ_STAGE_QUEUED
                                           : CZ_STAGE_PROVING;
}

const char *cz_job_status_state(const cz_job_status_t *st)
{
    if (st->lost)
        return "lost";
    return st->state == CZ_JOB_VERIFYING ? "running" : cz_job_state_name(st->state);
}

const char *cz_job_status_stage(const cz_job_status_t *st)
{
    static const char *const names[] = { "waiting", "loading_params", "queued",
                                         "proving", "verifying",      "writing_result" };
    return st->stage < CZ_STAGE_ENDED ? names[st->stage] : cz_job_status_state(st);
}

bool cz_job_status_ended(const cz_job_status_t *st)
{
    return st->state >= CZ_JOB_DONE;
}

void cz__job_status(cz_server_t *s, const djob_t *j, cz_job_status_t *out)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    cz_job_info_t info;
    bool have = false;
    memset(out, 0, sizeof *out);
    out->state = cz__live(s, j, &info, &have);
    out->lost = j->state == DJ_LOST;
    out->stage = stage_of(j, &info, have);
    out->working = have && info.started && !prover_ended(&info); /* in the proving queues */
    out->t = j->t;
    out->partitions_done = j->partitions_done;
    if (have) {
        out->t = info.t;
        out->partitions_done = info.partitions_done;
        out->prover_state = info.state;
        memcpy(out->in_stage, info.in_stage, sizeof out->in_stage);
    }
    if (!DJ_ENDED(j->state))
        out->t.total = (cz_mono_s() - j->t_accept) * 1e3; /* accepted by this process -> now */
    snprintf(out->id, sizeof out->id, "%s", j->id);
    snprintf(out->kind, sizeof out->kind, "%s", *j->kind ? j->kind : "?");
    snprintf(out->summary, sizeof out->summary, "%s", j->summary);
    out->priority = j->priority;
    out->partitions_total = j->partitions;
    out->recovered = j->recovered;
    snprintf(out->request_id, sizeof out->request_id, "%s", j->request_id);
    snprintf(out->params, sizeof out->params, "%s", j->params ? j->params : "");
    out->created = j->created;
    out->finished = j->finished;
    if (j->state == DJ_FAILED || j->state == DJ_CANCELED || j->state == DJ_LOST) {
        out->error = j->error;
        snprintf(out->message, sizeof out->message, "%s", j->message);
    }
    out->result_write_pending = cz__pending_status(j, &out->result_write);
}

djob_t *cz__find(cz_server_t *s, const char *id)
{
    CZ_ASSERT(cz_mutex_held(&s->mu));
    for (djob_t *j = s->jobs; j; j = j->next)
        if (!strcmp(j->id, id))
            return j;
    return NULL;
}

int cz_server_job(cz_server_t *s, cz_ctx_t *ctx, const char *id, cz_job_status_t *out)
{
    cz_mutex_lock(&s->mu);
    djob_t *j = cz__find(s, id);
    if (j)
        cz__job_status(s, j, out);
    cz_mutex_unlock(&s->mu);
    return j ? CZ_OK
             : cz_fail(ctx, CZ_ENOTFOUND, "job %.32s: not found (unknown, or its result expired)",
                       id);
}

int cz_server_list(cz_server_t *s, cz_job_status_t **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    cz_mutex_lock(&s->mu);
    size_t count = 0;
    for (djob_t *j = s->jobs; j; j = j->next)
        count++;
    cz_job_status_t *v = count ? malloc(count * sizeof *v) : NULL;
    for (djob_t *j = s->jobs; v && j; j = j->next)
        cz__job_status(s, j, &v[(*n)++]);
    cz_mutex_unlock(&s->mu);
    if (count && !v)
        return CZ_ENOMEM;
    *out = v;
    return CZ_OK;
}
