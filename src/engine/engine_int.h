/*
 * engine/engine_int.h — the engine's private state, shared by engine.c
 * (jobs, API) and workers.c (threads). Private to src/engine.
 *
 * Locking: |e->mu| protects every job field marked (mu), the job list, the
 * device queue and the shutdown flag; it is a cz_mutex_t, and a function
 * said to run with it held (or NOT held) asserts so (core/mutex.h: on in
 * debug and sanitizer builds). A device's |lock| (a cz_mutex_t too)
 * protects nothing but the device itself: it is held only around the device
 * region, never taken with e->mu held (asserted). Each worker's |pmu|
 * (workers.c), the budget's and the timeline's mutexes are leaves: nothing
 * else is taken while one is held.
 */
#ifndef CUZK_ENGINE_INT_H
#define CUZK_ENGINE_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "core/mutex.h"
#include "core/recycle.h"
#include "engine/budget.h"
#include "engine/engine.h"
#include "groth16/prover.h"

typedef struct job {
    uint64_t id;
    cz_job_spec_t spec;
    atomic_bool canceled;                   /* set by cancel or by a failed partition */
    cz_job_state_t state;                   /* (mu) */
    size_t next_part;                       /* (mu) next partition index for synthesis */
    size_t *retry;                          /* (mu) partitions to re-synthesize */
    size_t n_retry;                         /* (mu) */
    unsigned *attempts;                     /* (mu) per partition: synthesis attempts so far */
    size_t in_flight;                       /* (mu) partitions between synthesis and resolution */
    size_t synthesizing;                    /* (mu) of them taken by a synthesis worker, not yet
                                     * queued for a device or dropped */
    size_t proved;                          /* (mu) */
    size_t resolved;                        /* (mu) proved + dropped + failed */
    int error;                              /* (mu) first error */
    char message[256];                      /* (mu) */
    cz_proof_t *proofs;                     /* partition order; slot written once by its worker */
    cz_fr *inputs;                          /* partitions x n_inputs public inputs (ONE excluded) */
    size_t n_inputs;                        /* (mu) set by the first synthesized partition */
    double t_submit, t_first_synth, t_done; /* ms on the timeline clock (mu) */
    double synth_ms, device_ms;             /* (mu) sums over partitions */
    /* Partitions in each stage past QUEUED (cz_part_stage_t): atomic, so a
     * worker moves its partition without e->mu (also under a device lock). */
    atomic_size_t in_stage[CZ_PART_NSTAGES];
    struct job *next; /* (mu) the engine's job list */
} job_t;

/* A partition between synthesis and resolution. */
typedef struct part {
    job_t *job;
    size_t index;
    cz_g16_partition_t *g16;
    size_t reserved;         /* budget bytes still held */
    bool abc_released;       /* its a, b, c went back during its region (abc_done, by its
                              * worker's prep thread); cleared at each synthesis */
    struct worker *releaser; /* the worker whose region holds it (abc_done's target) */
    unsigned attempt;        /* 0 for the first synthesis */
    bool synthesizing;       /* counted in job->synthesizing (set and cleared with e->mu
                              * held, by the synthesis thread that owns it) */
    cz_part_stage_t stage;   /* owner thread only; counted in job->in_stage unless QUEUED */
    struct part *next;       /* (mu) device queue link */
} part_t;

typedef struct device {
    cz_backend_t *backend;
    cz_mutex_t lock; /* THE device lock: held only around the device region */
    atomic_bool failed;
    atomic_bool in_region;     /* a worker holds the lock for a region now */
    _Atomic(uint64_t) busy_us; /* total time the lock was held */
} device_t;

typedef struct worker worker_t;

struct cz_engine {
    cz_engine_config_t cfg;
    cz_pool_t *pool;
    bool owns_pool;
    cz_timeline_t *tl;
    cz_budget_t budget;
    atomic_size_t backend_host_bytes; /* cz_engine_host_take's, held now */
    atomic_size_t largest_partition;  /* the most partition_bytes of a job submitted (within
                                       * the budget): what a backend's takes leave free */
    /* Witness buffers of finished partitions, kept (against the budget)
     * for the next synthesis; trimmed after IDLE_TRIM_S without work. */
    cz_recycler_t *recycler;

    cz_mutex_t mu;          /* asserted held where a function says so */
    pthread_cond_t work_cv; /* partitions to synthesize, or shutdown */
    pthread_cond_t devq_cv; /* device queue changed (items or room) */
    pthread_cond_t done_cv; /* a job changed state */
    job_t *jobs;            /* (mu) every known job, newest first */
    uint64_t next_id;       /* (mu) */
    part_t *devq_head;      /* (mu) synthesized partitions, by priority then FIFO */
    size_t devq_len;        /* (mu) */
    size_t proved;          /* (mu) partitions proved, all jobs */
    size_t live_devices;    /* (mu) devices not marked failed */
    bool shutdown;          /* (mu) */
    size_t synth_running;   /* (mu) synthesis threads not yet exited */

    device_t *devices;
    size_t num_devices;
    pthread_t *synth_threads;
    size_t n_synth;
    worker_t *workers;
    size_t n_workers;
};

/* engine.c: called by workers, with e->mu NOT held (asserted): they take it. */
void cz__engine_resolve(cz_engine_t *e, part_t *p, int rc, const char *msg);
void cz__engine_requeue(cz_engine_t *e, part_t *p);
/* Milliseconds on the timeline's clock; takes no lock (any thread, e->mu held or not). */
double cz__engine_now_ms(cz_engine_t *e);

/* workers.c */
int cz__workers_start(cz_engine_t *e, cz_ctx_t *ctx);
void cz__workers_join(cz_engine_t *e);

#endif /* CUZK_ENGINE_INT_H */
