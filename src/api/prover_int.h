/*
 * api/prover_int.h — private to src/api: the prover and its job records
 * (cuzk.h is the contract).
 *
 * A job goes STAGED (accepted, waiting for the stager) -> STAGING (the
 * stager checks its input and its params file's shape and, when its params
 * are loaded, its shape against them) -> ENGINE (submitted to the engine)
 * -> ENDED (the engine's completion callback, or the stager on a params
 * error or a cancel before it started, recorded the outcome). A job whose
 * params are not loaded goes from STAGING to PARAMS: it waits for a params
 * load (j->pload, api/pload.c) that runs on its own thread, and no thread
 * works on it; when the load ends (or the job is canceled) it is ready for
 * the stager again, which takes ready jobs by priority, then age. So a job
 * whose params are cached passes every job whose params are loading, and a
 * cancel is seen by a stager that never waits for a load. Only ENDED jobs
 * may be forgotten.
 *
 * Locking: p->mu protects the job list, the loads list, every pjob and
 * pload field marked (mu), the counters and the stopping flags. Fields
 * marked (const) are set before the job (load) is published and never
 * change. Lock order: p->mu before the engine's and the cache's locks (the
 * prover calls into them holding p->mu; neither calls back with its own
 * lock held: the engine's completion callback runs unlocked). A job's public inputs are the
 * engine's (cz_engine_public_inputs), copied once by the completion
 * callback: the prover does not wrap the kind's synthesize.
 */
#ifndef CUZK_API_PROVER_INT_H
#define CUZK_API_PROVER_INT_H

#include <limits.h>
#include <pthread.h>

#include "cuzk.h"
#include "api/log.h"
#include "core/mutex.h"
#include "api/pcache.h"
#include "core/fault.h"
#include "core/ctx.h"
#include "engine/engine.h"
#include "kinds/job.h"
#include "kinds/kinds.h"

#define CZ_PROVER_MAX_DEVICES 16

typedef enum { PJ_STAGED, PJ_STAGING, PJ_PARAMS, PJ_ENGINE, PJ_ENDED } pj_phase_t;

typedef struct pload pload_t;

/*
 * Random params of a timing job, shared by the timing jobs alive at once
 * whose shape and seed are the same (the points follow from those two
 * alone). Made by the stager; the last job to drop them frees them
 * (cz__rparams_drop). |params|, |bytes|, |shape|, |seed| (const); |refs| (mu).
 */
typedef struct cz_rparams {
    cz_params_t *params;
    size_t bytes;
    cz_params_shape_t shape;
    uint64_t seed;
    unsigned refs;
} cz_rparams_t;

typedef struct pjob {
    struct pjob *next;           /* (mu) newest first */
    struct cz_prover *prover;    /* (const) */
    uint64_t id;                 /* (const) */
    const cz_job_kind_t *kind;   /* (const) */
    cz_kind_job_t kj;            /* (const) valid while prepared */
    bool prepared;               /* (mu) kj holds resources */
    char params_path[PATH_MAX];  /* (const) */
    int priority;                /* (const) 1..4 */
    char summary[128];           /* (const) the kind's, kept after kj is released */
    size_t partitions, n_inputs; /* (const) n_inputs: per partition, from the shape */
    cz_fr *inputs;               /* (mu) partitions x n_inputs, once DONE */
    cz_job_done_cb *on_done;     /* (const) */
    void *user;                  /* (const) */
    pj_phase_t phase;            /* (mu) */
    bool cancel;                 /* (mu) cancel requested */
    uint64_t eid;                /* (mu) engine id once submitted, else 0 */
    pload_t *pload;              /* (mu) the load it waits for (PARAMS), else NULL */
    double t_params_wait;        /* (mu) cz_mono_s when it joined pload */
    cz_pentry_t *pentry;         /* (mu) the params reference while in the engine */
    cz_job_state_t state;        /* (mu) the outcome once ENDED */
    int error;                   /* (mu) */
    char message[256];           /* (mu) */
    uint8_t *proof;              /* (mu) when DONE */
    size_t proof_len;            /* (mu) */
    size_t partitions_done;      /* (mu) at the end */
    double t_accept, t_staged;   /* (mu) cz_mono_s */
    double params_load_ms;       /* (mu) */
    cz_job_timings_t t;          /* (mu) final timings once ENDED */
    cz_params_shape_t shape;     /* (const) one partition's (the kind's) */
    size_t rows;                 /* (const) */
    size_t params_bytes;         /* (mu) host bytes of its params once it has them */
    bool timing;                 /* (const) cz_prover_submit_timing: random params */
    uint64_t timing_seed;        /* (const) */
    cz_rparams_t *rparams;       /* (mu) a timing job's random params, from its start
                                       * to its end, shared by the timing jobs of one
                                       * shape and seed (stager.c) */
} pjob_t;

struct cz_prover {
    cz_prover_config_t cfg; /* copy; the strings point into the copies below */
    char *backend, *params_dir, *timeline_path;
    cz_logger_t log;
    cz_fault_t *fault; /* borrowed (api/internal.h); NULL: none */
    cz_pool_t *pool;
    cz_backend_t *backends[CZ_PROVER_MAX_DEVICES];
    size_t ndevices;
    char backend_name[16], backend_detail[256];
    cz_timeline_t *timeline;
    cz_engine_t *engine;
    cz_pcache_t *pcache;
    cz_kinds_t kinds;               /* (const) the kind table (kinds.h), a copy */
    void *kind_state[CZ_MAX_KINDS]; /* each kind's state (kinds.h state_new), by table index */

    cz_engine_gate_t gate; /* the backends' pinned copies into the engine's budget */
    /* The memory margin (cuzk.h memory_margin 0): the params cache's host
     * bytes counted into the engine's automatic budget (stager.c
     * count_params). count_params (const); params_counted: the stager's only. */
    bool count_params;
    size_t params_counted; /* written by the stager under mu (read by cz_prover_stats) */
    size_t timing_bytes;   /* (mu) the random params of timing jobs, counted too */

    cz_mutex_t mu;                 /* held-checked in debug builds (core/mutex.h) */
    pthread_cond_t changed;        /* a job changed phase (broadcast) */
    pthread_cond_t work;           /* the stager has something to do */
    pjob_t *jobs;                  /* (mu) */
    pload_t *loads;                /* (mu) params loads running or not yet joined */
    uint64_t next_id;              /* (mu) */
    bool stopping;                 /* (mu) no new submits; the stager exits */
    size_t in_engine;              /* (mu) jobs in phase ENGINE */
    double active_since, active_s; /* (mu) time with in_engine > 0: since, total before */
    pthread_t stager;
    bool stager_started;
};

/* err <- (code, message) and return code; err may be NULL. */
int cz__err(cz_error_t *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* err <- the ctx's code and message (or cz_strerror(rc) when it has none); returns rc. */
int cz__err_ctx(cz_error_t *err, const cz_ctx_t *ctx, int rc);
void cz__err_clear(cz_error_t *err);

/*
 * The test circuit of kind |kind| (the built-in table) at |sector_size|:
 * its registry id ("porep:2KiB") into id[cap] and the kind's Filecoin
 * params name into name[name_cap]. CZ_EINVAL (unknown kind, as
 * cz_prover_submit words it; a kind without one; a size it has none of).
 * api/setup.c; cz_setup_test_params and cz_circuit_describe name circuits
 * with it.
 */
int cz__kind_test_circuit(cz_ctx_t *ctx, const char *kind, uint64_t sector_size, char *id,
                          size_t cap, char *name, size_t name_cap);

/*
 * True when the |n| words of a caller-filled struct's |reserved| tail are
 * all zero (cuzk.h, STRUCTS THAT GROW): a word that is not may be a field
 * of a newer header this library does not know, so the call refuses it
 * rather than ignore what the caller asked for.
 */
static inline bool cz__reserved_zero(const uint64_t *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (words[i])
            return false;
    return true;
}
#define CZ__RESERVED_ZERO(s) \
    cz__reserved_zero((s)->reserved, sizeof(s)->reserved / sizeof *(s)->reserved)

/* stager.c: the stager thread, started by cz_prover_new. */
void *cz__prover_stager(void *arg);
/*
 * stager.c: drop |j|'s reference to its random params (p->mu held); returns
 * the params to free (outside the lock) when it was the last, else NULL.
 */
cz_params_t *cz__rparams_drop(cz_prover_t *p, pjob_t *j);
/* jobs.c: free what an ended or never-started job holds (p->mu NOT held). */
void cz__pjob_free(cz_prover_t *p, pjob_t *j);

/*
 * pload.c: params loads beside the stager (the contract is at the top of
 * pload.c). All three are called with p->mu held.
 *
 * cz__pload_join: attach |j| (STAGING) to the load of its params, starting
 * one (a thread) when none for the path is running; j->pload is set. A
 * load that has ended is not joined (a failed one is not reused: the file
 * may have been fixed). CZ_ENOMEM (in ctx) when no load could be started.
 */
struct pload {
    pload_t *next;       /* (mu) */
    cz_prover_t *prover; /* (const) */
    char path[PATH_MAX]; /* (const) the resolved path the jobs named */
    pthread_t thread;    /* (const) the loader, joined by cz__pload_reap */
    unsigned waiters;    /* (mu) jobs whose j->pload is this load */
    bool done;           /* (mu) the load has ended */
    int rc;              /* (mu) once done: CZ_OK or the load's error */
    char message[256];   /* (mu) once done and failed: the load's message */
    cz_pentry_t *entry;  /* (mu) once done: the loader's reference, or NULL */
};
int cz__pload_join(cz_prover_t *p, cz_ctx_t *ctx, pjob_t *j);
/* Detach |j| from its load (a no-op without one); the load goes on. */
void cz__pload_leave(cz_prover_t *p, pjob_t *j);
/*
 * Join and free the loads that have ended and that no job waits for (every
 * load, waiting for those still running, with |all|: at shutdown, once no
 * job waits). Drops p->mu around the joins: the caller re-checks its state.
 */
void cz__pload_reap(cz_prover_t *p, bool all);

/* params.c: resolve a params name or path; CZ_EINVAL / CZ_ENOTFOUND naming it. */
int cz__params_resolve(const cz_prover_t *p, cz_ctx_t *ctx, const char *name, char out[PATH_MAX]);

#endif /* CUZK_API_PROVER_INT_H */
