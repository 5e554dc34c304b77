/*
 * daemon/server_int.h — private to daemon/server*.c and daemon/metrics.c:
 * the job record and the server struct.
 *
 * The proving is the library's (cuzk.h): a djob is a prover job plus what
 * only the daemon keeps — the request as journaled, its request_id, the
 * result while it is served, and the journal's bookkeeping. The prover's
 * completion callback marks a job ended and wakes the finisher thread,
 * which journals the result before the job is reported ended.
 *
 * Locking: s->mu protects the job list and every field of every djob marked
 * (mu) below, and the counters. Fields marked (const) are set before the
 * job is published and never change. s->mu is never held across a call
 * into the prover that may wait (submit prepares, params load) or across
 * the journal's fsync.
 */
#ifndef CUZK_DAEMON_SERVER_INT_H
#define CUZK_DAEMON_SERVER_INT_H

#include <limits.h>
#include <pthread.h>
#include <time.h>

#include "cuzk.h"
#include "core/mutex.h"
#include "daemon/journal.h"
#include "daemon/server.h"

typedef enum {
    DJ_QUEUED,      /* accepted, in the prover, not yet running */
    DJ_RUNNING,     /* in the prover, running */
    DJ_FINISHING,   /* ended in the prover, result being journaled */
    DJ_DONE, DJ_FAILED, DJ_CANCELED,
} dj_state_t;

#define DJ_ENDED(st) ((st) >= DJ_DONE)

typedef struct djob {
    struct djob *next;                    /* (mu) newest first */
    char id[CZ_JOB_ID_LEN + 1];           /* (const) */
    char request_id[129];                 /* (const) "" = none */
    json_t *request;                      /* (const) as journaled */
    char kind[32];                        /* (const) */
    char summary[128];                    /* (mu) the kind's summary, from the prover */
    int priority;                         /* (const) */
    uint64_t seq;                         /* (const) submit order */
    bool recovered;                       /* (const) replayed from the journal */
    uint64_t pid;                         /* (mu) the prover's job id; 0 = not in the prover */
    bool ended;                           /* (mu) the prover's callback came: finish it */
    bool claim;                           /* (mu) being submitted: holds its request_id only */
    bool abandoned;                       /* (mu) shutdown: left unfinished in the journal */
    dj_state_t state;                     /* (mu) */
    size_t partitions, partitions_done;   /* (mu) */
    uint8_t *proof;                       /* (mu) when DONE */
    size_t proof_len;
    json_t *public_inputs;                /* (mu) when DONE */
    int error;                            /* (mu) CZ_E* when FAILED / CANCELED */
    char message[256];                    /* (mu) */
    time_t created, finished, fetched;    /* (mu) wall clock; 0 = not yet */
    cz_job_timings_t t;                   /* (mu) ms, once ended */
} djob_t;

struct cz_server {
    cz_dconfig_t cfg;                     /* copy (strings borrowed from the caller's) */
    cz_journal_t *journal;
    cz_prover_t *prover;

    cz_mutex_t mu;                        /* held-checked in debug builds (core/mutex.h) */
    pthread_cond_t changed;               /* a job changed state (broadcast) */
    pthread_cond_t work;                  /* the finisher has something to do */
    djob_t *jobs;                         /* (mu) */
    uint64_t next_seq;                    /* (mu) */
    bool stopping, stop_threads;          /* (mu) */
    pthread_t finisher;
    bool threads_started;

    double t_start;                       /* monotonic seconds */
    uint64_t jobs_accepted, jobs_recovered;   /* (mu) */
    uint64_t errors[CZ_E_COUNT];          /* (mu) failed jobs by -CZ_E code */
    uint64_t http[6];                     /* (mu) responses by status class 1xx..5xx */
    uint64_t http_4xx[8];                 /* (mu) 400 401 404 405 409 413 415 422 */
};

double cz__now_s(void);
/*
 * Bring |j|'s state, progress, summary and timings (*t) up to date from
 * the prover; returns the stage name of its status object (s->mu held).
 */
const char *cz__job_refresh(cz_server_t *s, djob_t *j, cz_job_timings_t *t);
/* Status object of |j| (s->mu held). */
json_t *cz__job_json(cz_server_t *s, const djob_t *j);
/* The accepted job |id| (s->mu held), else NULL. */
djob_t *cz__find(cz_server_t *s, const char *id);
const char *cz__state_name(dj_state_t st);
/*
 * Hand |j| (its request validated by the caller or the journal) to the
 * prover: the kind prepares it there. s->mu NOT held. CZ_EINVAL /
 * CZ_EFORMAT (the request), CZ_ENOTFOUND (params or input file), ...
 */
int cz__submit_to_prover(cz_server_t *s, cz_ctx_t *ctx, const json_t *req, djob_t *j);

#endif /* CUZK_DAEMON_SERVER_INT_H */
