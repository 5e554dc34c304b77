/*
 * engine/engine.h — the proving engine: jobs of partitions through
 * synthesis, a memory budget and per-device workers with the dual-worker
 * interlock (ARCHITECTURE.md).
 *
 * DESIGN (ordering and guarantees, in the manner of redis' bio.c):
 *  - A job is one proof request of P partitions; a partition is the unit of
 *    work. Partitions are handed to synthesis by priority (higher first),
 *    then job age (older first), then partition index (lower first).
 *  - Before synthesis a partition reserves spec.partition_bytes from the
 *    budget (waiting, in arrival order, while it does not fit); it returns
 *    spec.abc_bytes as soon as its device region reads a, b and c no more
 *    (the backend's abc_done, after the H MSM: its worker's prep thread
 *    gives them back while the tails run), else right after the region,
 *    and the rest after its epilogue. The reserved total never exceeds the
 *    budget.
 *  - Synthesized partitions wait in a bounded queue for a device worker
 *    (synthesis blocks when it is full: backpressure, no unbounded growth).
 *  - Each device has ONE mutex shared by its W workers. A worker hands the
 *    partition's prep to its prep thread, takes the mutex, runs the device
 *    region (which waits for prep before the stages that need it), releases
 *    the mutex, then runs the epilogue. Nothing CPU-only runs under the
 *    mutex. A partition stays on the device that picked it.
 *  - The job's assembler keeps partition proofs in partition order; when the
 *    last one arrives the job is verified (unless disabled) and completes.
 *  - A partition failure fails its job (the other partitions are dropped)
 *    and the engine keeps serving. A device error (CZ_EDEVICE) marks that
 *    device failed and re-synthesizes the partition for another device, up
 *    to max_retries times. Cancel drops queued partitions at once and
 *    running ones at their next stage boundary: before staging, right
 *    after the device lock is taken (the region is not entered), between
 *    the device region's steps (H, MSM h, L, A, B1, B2: within one MSM's
 *    time, backend.h) and before the epilogue. A canceled region releases
 *    the lock at once and does not mark the device failed.
 *  - Every stage is recorded on the timeline (engine/timeline.h).
 *
 * Thread-safety: every function may be called from any thread, except
 * cz_engine_free (once, when no other call is in progress).
 */
#ifndef CUZK_ENGINE_ENGINE_H
#define CUZK_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "backend/backend.h"
#include "core/fault.h"
#include "core/mutex.h"
#include "cs/cs.h"
#include "engine/timeline.h"
#include "groth16/params.h"
#include "groth16/verify.h"

typedef struct cz_engine cz_engine_t;

typedef struct cz_engine_config {
    cz_backend_t **backends; /* one per device, borrowed */
    size_t num_devices;
    unsigned workers_per_device; /* 0: 2 */
    unsigned synth_workers;      /* 0: 1 */
    size_t memory_budget;        /* bytes; 0: physical memory minus margin */
    size_t memory_margin;        /* for the automatic budget; 0: cz_engine_margin_for(0) */
    unsigned device_queue_depth; /* 0: devices x workers */
    unsigned max_retries;        /* re-synthesis after a device error; default 0 = 1 */
    unsigned max_batch;          /* partitions one device region may take, where the
                                    * backend advises more than one (streamed bases:
                                    * backend.h batch_max); 0: the backend's advice,
                                    * 1: one partition a region */
    cz_pool_t *pool;             /* borrowed; NULL: the engine makes one (all CPUs) */
    cz_timeline_t *timeline;     /* borrowed; NULL: no timeline */
    bool no_verify;              /* skip verification of finished jobs */
    size_t recycle_min_bytes;    /* witness arrays kept warm for the next partition
                                    * (core/recycle.h) from this size; 0: 8 MiB */
    cz_fault_t *fault;           /* borrowed; NULL: none. Set on every ctx the engine
                                    * makes, so synthesis, prep, device and epilogue
                                    * reach its sites (core/fault.h) */
} cz_engine_config_t;

/*
 * Synthesize partition |partition| of a job into |out| (PROVE-mode witness).
 * Runs on a synthesis worker with its own |ctx| (errors: cz_fail on it).
 */
typedef int cz_job_synth_fn(void *arg, size_t partition, cz_ctx_t *ctx, cz_cs_witness_t *out);

/*
 * Called once when job |id| ends (DONE, FAILED, CANCELED), after its state
 * is visible to cz_engine_info / cz_engine_proof, from the engine thread
 * that ended it (or the thread of cz_engine_cancel) with no engine lock
 * held. It may call any cz_engine_* function but cz_engine_free. A job
 * still queued when the engine is freed is never called back.
 */
typedef void cz_engine_done_fn(void *arg, uint64_t id, cz_job_state_t state);

typedef struct cz_job_spec {
    size_t partitions;
    int priority;              /* higher first */
    const cz_params_t *params; /* borrowed, must outlive the job */
    const cz_pvk_t *pvk;       /* borrowed; NULL: the job is not verified */
    size_t partition_bytes;    /* budget reservation per partition */
    size_t abc_bytes;          /* part of it freed once the device region reads a, b, c
                                  * no more (after its H MSM), at the latest after it */
    cz_job_synth_fn *synthesize;
    void *arg;                  /* passed to synthesize; must outlive the job */
    const cz_fr *r, *s;         /* tests only: fixed randomness; NULL: CSPRNG */
    cz_engine_done_fn *on_done; /* may be NULL: wait or poll instead */
    void *done_arg;             /* passed to on_done */
} cz_job_spec_t;

/* cz_job_state_t, cz_job_timings_t (params_load left 0 by the engine), cz_job_info_t
 * and cz_job_state_name are the public ones (cuzk.h): the engine never
 * reports QUEUED for a job waiting for params, the prover does. */
/* cz_part_stage_t (where a partition is), cz_part_stage_name and cz_job_stage_label
 * are public too (cuzk.h). */


typedef struct cz_engine_stats {
    size_t jobs[CZ_JOB_CANCELED + 1]; /* by state */
    size_t partitions_queued;         /* not yet synthesizing */
    size_t device_queue;              /* synthesized, waiting for a device */
    size_t partitions_proved;
    size_t budget_total, budget_reserved, budget_peak;
    /* Witness buffers kept warm between partitions (core/recycle.h): held
     * now (counted in budget_reserved), and the large allocations served
     * from them out of all asked for. */
    size_t recycled_bytes, recycle_hits, recycle_takes;
    size_t backend_host_bytes; /* cz_engine_host_take's (backends and the prover's
                                          * params), held now */
    size_t num_devices;
    double device_busy_s[16]; /* lock held time, first 16 devices */
    bool device_failed[16];
} cz_engine_stats_t;

/*
 * The memory margin: what the automatic budget (physical memory minus the
 * margin) leaves to everything that is not a partition in flight or a
 * pinned params copy. An eighth of physical memory, at least
 * CZ_ENGINE_BASE_MARGIN, for the process, the OS, the page cache and
 * whatever else the host runs (Curio, sealing), plus |params_bytes|: a
 * caller that holds params in host memory (loaded, or random for timing)
 * holds them outside the budget, so they come out of it too. Why an eighth:
 * the budget's reservations run ahead of what partitions touch, and a
 * 32GiB C2 on a small card (pinned params counted in the budget) peaked at
 * 99-106 GiB RSS on a 128 GiB host with 5 GiB left out; at 22 GiB free a
 * 110 GiB budget held it to 95.2 GiB at the same steady rate
 * (docs/PERFORMANCE.md, 2026-12-07). Every door that sizes an engine or a
 * prover from its params asks this; the engine's default (memory_margin 0)
 * is cz_engine_margin_for(0). Thread-safe (reads the physical memory size).
 */
#define CZ_ENGINE_BASE_MARGIN ((size_t)5 << 30)
size_t cz_engine_margin_for(size_t params_bytes);

int cz_engine_new(cz_ctx_t *ctx, cz_engine_t **out, const cz_engine_config_t *cfg);
/* Cancel every job (queued partitions at once, running ones at their next stage
 * boundary, as cz_engine_cancel: error CZ_ECANCELED, "canceled: the engine shut down"),
 * join every thread. A job whose last partitions in flight resolve meanwhile ends
 * CANCELED (or FAILED) with its on_done; one verifying ends as its verification says.
 * NULL: no-op. */
void cz_engine_free(cz_engine_t *e);

/*
 * Queue a job. *id is its id (> 0). CZ_EINVAL for a bad spec, CZ_ECANCELED
 * while the engine shuts down, CZ_ENOMEM: the message (on |ctx|, may be
 * NULL) says which. When it fails, spec->on_done is never called.
 */
int cz_engine_submit(cz_engine_t *e, cz_ctx_t *ctx, const cz_job_spec_t *spec, uint64_t *id);
/* Snapshot of a job. CZ_ENOTFOUND for an unknown (or forgotten) id. */
int cz_engine_info(cz_engine_t *e, uint64_t id, cz_job_info_t *out);
/* Wait until the job ends or |timeout_s| passes (< 0: forever): CZ_OK, or CZ_EBUSY on timeout. */
int cz_engine_wait(cz_engine_t *e, uint64_t id, double timeout_s, cz_job_info_t *out);
/* A copy of the finished job's proof (192 bytes per partition, in order); caller frees. */
int cz_engine_proof(cz_engine_t *e, uint64_t id, uint8_t **proof, size_t *len);
/*
 * A copy of the public inputs the finished job's proof was verified
 * against (caller frees): partitions x *per_partition field elements, ONE
 * excluded, partition-major, exactly what each partition's synthesis put
 * in its witness (the engine keeps them to verify the job; this is the one
 * place a caller gets them, so no caller wraps synthesize to copy them).
 * *per_partition may be 0 (then *inputs is a 1-element allocation).
 * CZ_EBUSY unless DONE, CZ_ENOTFOUND, CZ_ENOMEM.
 */
int cz_engine_public_inputs(cz_engine_t *e, uint64_t id, cz_fr **inputs, size_t *per_partition);
/*
 * Cancel: no partition of the job starts after this; queued ones resolve at
 * once, running ones at their next stage boundary. May wait for a device's
 * preparer (backend settle) before it ends the job. CZ_OK also when the job
 * had already ended (its state then stays what it was).
 */
int cz_engine_cancel(cz_engine_t *e, uint64_t id);
/* Drop an ended job's record. CZ_EBUSY while it runs. */
int cz_engine_forget(cz_engine_t *e, uint64_t id);
void cz_engine_stats(cz_engine_t *e, cz_engine_stats_t *out);
/*
 * Host memory held beside the partitions' (the CUDA backend's pinned
 * params copies, tens of GiB on a small card; the prover's params in host
 * memory, api/stager.c), counted in the budget so that partitions are not
 * admitted into memory it took: take
 * reserves |bytes| if they fit now, ahead of waiting partitions, never
 * waiting (false: no room; the backend does without); give returns bytes
 * taken. A backend's takes through the gate below also leave the largest
 * partition a job brought room (held until their set is dropped, they must
 * not keep every partition out for good). Counted in
 * stats.budget_reserved and backend_host_bytes.
 * Thread-safe.
 */
bool cz_engine_host_take(cz_engine_t *e, size_t bytes);
void cz_engine_host_give(cz_engine_t *e, size_t bytes);

/*
 * A backend's host gate (backend.h cz_host_gate_t) into an engine's
 * budget, for backends made before their engine: cz_engine_gate(g) goes
 * into the backend's options; connect the engine once it exists and
 * connect NULL before freeing it (takes then fail, gives are dropped:
 * a backend thread never reaches a freed engine). The gate outlives the
 * backends given it. Thread-safe.
 */
typedef struct cz_engine_gate {
    cz_mutex_t mu;
    cz_engine_t *engine; /* (mu) */
} cz_engine_gate_t;

void cz_engine_gate_init(cz_engine_gate_t *g);
void cz_engine_gate_destroy(cz_engine_gate_t *g);
cz_host_gate_t cz_engine_gate(cz_engine_gate_t *g);
void cz_engine_gate_connect(cz_engine_gate_t *g, cz_engine_t *e);

/*
 * Budget estimate for one partition of |shape| (witness, a/b, splits) for
 * the c-free witnesses the provers synthesize (cz_cs_omit_c); a witness
 * that carries c holds one domain vector more than *abc_bytes says.
 */
void cz_engine_estimate(const cz_params_shape_t *shape, size_t rows, size_t *partition_bytes,
                        size_t *abc_bytes);

#endif /* CUZK_ENGINE_ENGINE_H */
