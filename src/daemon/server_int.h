/*
 * daemon/server_int.h — private to daemon/server*.c, jobs.c, finish.c,
 * replay.c and metrics.c: the job record and the server struct.
 *
 * The proving is the library's (cuzk.h, a cz_prover_t): params, kinds,
 * engine. A djob is a prover job plus what only the daemon keeps — what
 * tells its request from another (kind, params, priority, the kind's
 * fields, the input's length and digest: not the input itself), its
 * request_id, the result while it is served, the journal's bookkeeping and
 * the waiters of the doors. The prover's
 * completion callback marks a job ended and wakes the finisher thread,
 * which journals the result before the job is reported ended: nothing
 * polls the prover.
 *
 * Locking: s->mu protects the job list, every djob field marked (mu), the
 * claims and the counters; s->mu is asserted held (core/mutex.h) where a
 * function says "s->mu held". Fields marked (const) are set before the job
 * is listed and never change. Lock order: s->mu before the prover's locks
 * (status snapshots are taken under s->mu). s->mu is never held across a
 * call into the prover that may run a completion callback (submit,
 * cancel: the callback takes s->mu) or wait (a prepare, a params load),
 * nor across a journal write (fsync).
 */
#ifndef CUZK_DAEMON_SERVER_INT_H
#define CUZK_DAEMON_SERVER_INT_H

#include <jansson.h>
#include <pthread.h>
#include <time.h>

#include "cuzk.h"
#include "core/fault.h"
#include "core/mutex.h"
#include "daemon/journal.h"
#include "daemon/server.h"

typedef enum {
    DJ_LIVE,      /* in the prover (queued or running: cz__live says which) */
    DJ_FINISHING, /* ended in the prover, result being journaled */
    DJ_DONE,
    DJ_FAILED,
    DJ_CANCELED,
    DJ_LOST, /* tombstone: its journal entry was corrupt (message = why); never expires */
    DJ__COUNT
} dj_state_t;

#define DJ_ENDED(st) ((st) >= DJ_DONE)

/* Kinds told apart by the per-kind metrics; slot CZ_METRIC_KINDS gathers a
 * kind beyond them (or none). cz__kind_slot (metrics.c): |kind|'s slot, its
 * index in the prover's kind table (cz_prover_kind_name order). */
#define CZ_METRIC_KINDS 16
size_t cz__kind_slot(const cz_server_t *s, const char *kind);

/*
 * A submit between its checks and its publication (jobs.c): the job id it
 * chose, and its request_id (NULL: none). A second submit of that
 * request_id waits for the first's outcome (s->changed). The node lives
 * on the submitting thread's stack.
 */
typedef struct cz_claim {
    struct cz_claim *next;
    const char *request_id;
    char id[CZ_JOB_ID_LEN + 1];
} cz_claim_t;

typedef struct djob {
    struct djob *next;                      /* (mu) newest first */
    struct cz_server *server;               /* (const) */
    char id[CZ_JOB_ID_LEN + 1];             /* (const) */
    char request_id[CZ_REQUEST_ID_MAX + 1]; /* (const) "" = none; any UTF-8 (jobs.c) */
    bool has_request;                       /* (const) false: lost, or its ID.job was torn */
    char kind[32];                          /* (const) the request's kind ("" lost) */
    char *params;                           /* (const) as requested; NULL: the kind's default */
    char *fields;                           /* (const) the kind's fields, canonical; NULL: none */
    char *input_path;                       /* (const) the client file named; NULL: none */
    bool has_input;                         /* (const) inline input bytes were given */
    size_t input_len;                       /* (const) their length */
    uint8_t input_digest[32];               /* (const) their BLAKE2b-256, with a request_id */
    char summary[128];                      /* (const) the kind's, from the prover */
    int priority;                           /* (const) 1..4 */
    uint64_t seq;                           /* (const) submit order */
    bool recovered;                         /* (const) replayed from the journal */
    uint64_t pid;                           /* (mu) the prover's job id; 0: not in the prover */
    bool ended;                             /* (mu) the prover's completion callback came */
    bool abandoned;                         /* (mu) shutdown: left unfinished in the journal */
    dj_state_t state;                       /* (mu) */
    unsigned waiters;                       /* (mu) calls in cz_server_await on it */
    size_t partitions, partitions_done;     /* (mu) */
    uint8_t *proof;                         /* (mu) when DONE */
    size_t proof_len;
    json_t *public_inputs;             /* (mu) when DONE */
    int error;                         /* (mu) CZ_E* when FAILED / CANCELED / LOST */
    char message[256];                 /* (mu) */
    time_t created, finished, fetched; /* (mu) wall clock; 0 = not yet */
    double t_accept;                   /* (const) cz_mono_s */
    cz_job_timings_t t;                /* (mu) ms, once ended */
    struct dj_pending *pending;        /* (mu) an outcome whose ID.result write failed,
                                           * kept for the retry (daemon/finish.c); NULL: none */
} djob_t;

#define CZ__PLAN_DEVICES 16 /* devices whose plan changes are logged */

struct cz_server {
    cz_dconfig_t cfg; /* copy (strings borrowed from the caller's) */
    cz_journal_t *journal;
    cz_prover_t *prover;
    cz_fault_t fault; /* test.fault: given to the journal and the prover */

    cz_mutex_t mu;
    pthread_cond_t changed;               /* a job changed state, a claim ended (broadcast) */
    pthread_cond_t work;                  /* the finisher has something to do */
    djob_t *jobs;                         /* (mu) */
    uint64_t next_seq;                    /* (mu) */
    cz_claim_t *claims;                   /* (mu) submits being prepared */
    bool stopping, stop_threads, abandon; /* (mu) */
    pthread_t finisher;
    bool threads_started;

    double t_start;                         /* cz_mono_s */
    uint64_t jobs_accepted, jobs_recovered; /* (mu) */
    uint64_t errors[CZ_E_COUNT];            /* (mu) failed jobs by -CZ_E code */
    /* (mu) jobs that ended in this process, by kind (cz__kind_slot) and
     * outcome (done, failed, canceled): cuzk_jobs_ended_total */
    uint64_t ended[CZ_METRIC_KINDS + 1][3];
    uint64_t http[6];     /* (mu) responses by status class 1xx..5xx */
    uint64_t http_4xx[8]; /* (mu) 400 401 404 405 409 413 415 422 */
    /* (mu) each device's memory plan as last logged (daemon/finish.c) */
    char plan_logged[CZ__PLAN_DEVICES][sizeof(((cz_device_memory_t *)0)->plan)];
};

/*
 * The live state of |j| (s->mu held): QUEUED or RUNNING for a job in the
 * prover (RUNNING once it is in the proving queues, as a status reader
 * expects), else its recorded state (FAILED for a lost job: j->state says
 * DJ_LOST); *info (may be NULL) the prover's snapshot, *have whether there
 * is one.
 */
cz_job_state_t cz__live(cz_server_t *s, const djob_t *j, cz_job_info_t *info, bool *have);
/* The status of |j| into *out (s->mu held). */
void cz__job_status(cz_server_t *s, const djob_t *j, cz_job_status_t *out);
/* The listed job |id| (s->mu held), or NULL. */
djob_t *cz__find(cz_server_t *s, const char *id);
/* The journal's name of an ended state ("done", "failed", "canceled", "lost"). */
const char *cz__state_name(dj_state_t st);
void cz__djob_free(djob_t *j);

/*
 * jobs.c: hand |j| to the prover for request |req| (the daemon's fields
 * checked here, the kind's by the prover; |req|'s input is handed on as
 * is, never copied): sets j->pid, kind, priority, partitions, summary and
 * what tells the request apart (params, fields, input length and digest).
 * s->mu NOT held. CZ_EINVAL / CZ_EFORMAT (the request, named),
 * CZ_ENOTFOUND (params or input file), ...
 */
int cz__submit_to_prover(cz_server_t *s, cz_ctx_t *ctx, const cz_submit_req_t *req, djob_t *j);
/* jobs.c: set what tells |j|'s request from another (kind, priority, params, fields,
 * input_path, the input's length and, with a request_id, its BLAKE2b-256); the input is
 * only hashed. CZ_ENOMEM. */
int cz__djob_request(djob_t *j, const cz_submit_req_t *req);
/* jobs.c: take back a job the prover has but the daemon never published:
 * cancel it, wait for its callback, forget it (s->mu NOT held). */
void cz__withdraw(cz_server_t *s, djob_t *j);

/*
 * finish.c. cz__job_end: journal the outcome, then publish it (s->mu NOT
 * held; j->state is FINISHING, owned by the caller; |proof| and |pub| are
 * taken; |t| NULL: no timings but the total); a failed write keeps the
 * outcome and retries. cz__retry_results: the retries that are due (s->mu
 * held; dropped while writing); *next (may be NULL) the monotonic time of
 * the next one, unchanged when none. cz__pending_status: whether an
 * outcome waits for its retry, and *out what the status says of it
 * (s->mu held). cz__pending_free: drop a
 * kept outcome at shutdown.
 */
void cz__job_end(cz_server_t *s, djob_t *j, dj_state_t st, int error, const char *msg,
                 uint8_t *proof, size_t proof_len, json_t *pub, const cz_job_timings_t *t);
void cz__retry_results(cz_server_t *s, double *next);
/*
 * finish.c: the digest an ID.result carries, "digest": BLAKE2b-256 of the
 * proof bytes and then the compact, key-sorted JSON text of the public
 * inputs, as lowercase hex. The replay recomputes it: any change to a
 * journaled proof or its inputs is found before the proof is served.
 * CZ_ENOMEM.
 */
#define CZ_RESULT_DIGEST_BYTES 32
int cz__result_digest(const uint8_t *proof, size_t len, const json_t *pub,
                      char out[2 * CZ_RESULT_DIGEST_BYTES + 1]);
bool cz__pending_status(const djob_t *j, cz_result_write_t *out);
void cz__pending_free(djob_t *j);

/* replay.c: the journal at start-up: finished jobs served again, unfinished
 * ones handed to the prover again, corrupt ones as tombstones. */
int cz__replay(cz_server_t *s, cz_ctx_t *ctx);

#endif /* CUZK_DAEMON_SERVER_INT_H */
