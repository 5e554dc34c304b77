/*
 * daemon/server_int.h — private to daemon/server*.c and daemon/metrics.c:
 * the job record and the server struct.
 *
 * Locking: s->mu protects the job list and every field of every djob marked
 * (mu) below, the staging order and the counters. Fields marked (const) are
 * set before the job is published and never change. The synthesize wrapper
 * writes a job's inputs[] slots from engine threads without the lock: each
 * partition owns its slot, and the monitor reads them only after the
 * engine reports the job ended.
 */
#ifndef CUZK_DAEMON_SERVER_INT_H
#define CUZK_DAEMON_SERVER_INT_H

#include <limits.h>
#include <pthread.h>
#include <time.h>

#include "daemon/journal.h"
#include "kinds/kinds.h"
#include "api/pcache.h"
#include "daemon/server.h"
#include "engine/engine.h"

typedef enum {
    DJ_STAGED,      /* accepted, waiting for the stager */
    DJ_LOADING,     /* the stager is loading its params */
    DJ_ENGINE,      /* in the engine */
    DJ_FINISHING,   /* ended in the engine, result being journaled */
    DJ_DONE, DJ_FAILED, DJ_CANCELED,
    DJ_LOST,        /* tombstone: its journal entry was corrupt (message = why); never expires */
    DJ__COUNT
} dj_state_t;

#define DJ_ENDED(st) ((st) >= DJ_DONE)

/*
 * A request_id claimed by a submit while it prepares its job without the
 * lock (jobs.c): a second submit of that request_id waits for the first's
 * outcome (s->changed). The node lives on the submitting thread's stack.
 */
typedef struct cz_claim {
    struct cz_claim *next;
    const char *request_id;
} cz_claim_t;

typedef struct djob {
    struct djob *next;                    /* (mu) newest first */
    char id[CZ_JOB_ID_LEN + 1];           /* (const) */
    char request_id[129];                 /* (const) "" = none */
    json_t *request;                      /* (const) as journaled */
    const cz_job_kind_t *kind;            /* (const) */
    cz_kind_job_t kj;                     /* (const) valid while prepared */
    bool prepared;                        /* (mu) kj holds resources */
    char params_path[PATH_MAX];           /* (const) */
    int priority;                         /* (const) */
    uint64_t seq;                         /* (const) submit order */
    bool recovered;                       /* (const) replayed from the journal */
    dj_state_t state;                     /* (mu) */
    cz_job_state_t engine_state;          /* (mu) last engine snapshot */
    size_t in_stage[CZ_PART_NSTAGES];     /* (mu) its partitions by stage (engine.h) */
    uint64_t eid;                         /* (mu) engine id, 0 = not in the engine */
    cz_pentry_t *pentry;                  /* (mu) params reference while in the engine */
    bool cancel;                          /* (mu) cancel requested */
    unsigned waiters;                     /* (mu) calls in cz_server_await on it */
    size_t partitions, partitions_done;   /* (mu) */
    size_t n_inputs;                      /* (const) public inputs per partition */
    cz_fr *inputs;                        /* partitions x n_inputs, see Locking */
    uint8_t *proof;                       /* (mu) when DONE */
    size_t proof_len;
    json_t *public_inputs;                /* (mu) when DONE */
    int error;                            /* (mu) CZ_E* when FAILED / CANCELED */
    char message[256];                    /* (mu) */
    time_t created, finished, fetched;    /* (mu) wall clock; 0 = not yet */
    double t_accept, t_staged, t_engine;  /* (mu) monotonic seconds */
    double params_load_ms;                /* (mu) */
    cz_job_timings_t t;                   /* (mu) ms */
    struct dj_pending *pending;           /* (mu) an outcome whose ID.result write failed,
                                           * kept for the retry (daemon/finish.c); NULL: none */
} djob_t;

#define CZ_MAX_DEVICES 16

struct cz_server {
    cz_dconfig_t cfg;                     /* copy (strings borrowed from the caller's) */
    cz_journal_t *journal;
    cz_pcache_t *pcache;
    void *kind_state[CZ_MAX_KINDS];       /* each kind's state (kinds.h state_new) */
    cz_engine_t *engine;
    cz_backend_t *backends[CZ_MAX_DEVICES];
    size_t ndevices;
    cz_pool_t *pool;
    cz_timeline_t *timeline;
    FILE *timeline_file;
    cz_fault_t fault;                     /* test.fault: given to the journal and the engine */

    pthread_mutex_t mu;
    pthread_cond_t changed;               /* a job changed state (broadcast) */
    pthread_cond_t work;                  /* the stager / monitor have something to do */
    djob_t *jobs;                         /* (mu) */
    uint64_t next_seq;                    /* (mu) */
    struct cz_claim *claims;              /* (mu) request_ids of submits being prepared */
    bool stopping, stop_threads, abandon; /* (mu) */
    pthread_t stager, monitor;
    bool threads_started;

    double t_start;                       /* monotonic seconds */
    double engine_active_s;               /* (mu) time with at least one job in the engine */
    uint64_t jobs_accepted, jobs_recovered;   /* (mu) */
    uint64_t errors[16];                  /* (mu) failed jobs by -CZ_E code */
    uint64_t http[6];                     /* (mu) responses by status class 1xx..5xx */
    uint64_t http_4xx[8];                 /* (mu) 400 401 404 405 409 413 415 422 */
};

double cz__now_s(void);
/* Status object of |j| (s->mu held). */
json_t *cz__job_json(cz_server_t *s, const djob_t *j);
djob_t *cz__find(cz_server_t *s, const char *id);
const char *cz__state_name(dj_state_t st);
/*
 * daemon/finish.c. cz__job_end: journal the outcome, then publish it (s->mu
 * NOT held; j->state is FINISHING or a pre-engine state owned by the
 * caller; |proof| is taken); a failed write keeps the outcome and retries.
 * cz__retry_results: the retries that are due (s->mu held; dropped while
 * writing). cz__pending_json: the status's "result_write" object or NULL
 * (s->mu held). cz__pending_free: drop a kept outcome at shutdown.
 */
void cz__job_end(cz_server_t *s, djob_t *j, dj_state_t st, int error, const char *msg,
                 uint8_t *proof, size_t proof_len);
void cz__retry_results(cz_server_t *s);
json_t *cz__pending_json(const djob_t *j);
void cz__pending_free(djob_t *j);
/* Resolve a params name or path; CZ_EINVAL / CZ_ENOTFOUND naming it. */
int cz__params_path(cz_server_t *s, cz_ctx_t *ctx, const char *name, char out[PATH_MAX]);

#endif /* CUZK_DAEMON_SERVER_INT_H */
