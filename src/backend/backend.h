/*
 * backend/backend.h — what a proving backend implements: the device region.
 *
 * The Groth16 prover (groth16/prover.h) runs one partition in three parts,
 * as the engine's dual-worker interlock needs them (ARCHITECTURE.md):
 *
 *   prep      CPU, backend-neutral (groth16): scalar conversion and the
 *             zero / one / significant split; posts |prep_done|.
 *   device    THIS interface, called with the device lock held: the H
 *             polynomial from a, b, c, the H MSM, then — after waiting on
 *             |prep_done| — batch additions and tail MSMs for L, A, B1 and,
 *             if the backend takes it, B2 (G2).
 *   epilogue  CPU, backend-neutral: the G2 MSM when the backend left it,
 *             proof assembly, freeing buffers.
 *
 * A backend sees plain arrays (no groth16 types): the work item below.
 * |params_id| identifies the params the bases belong to, so a backend may
 * keep them resident on its device between partitions.
 *
 * Cancellation: a region checks, at each step boundary (before H, the H
 * MSM, L, A, B1 and B2), with cz_backend_step: once the job's |cancel| flag
 * is set the region returns CZ_ECANCELED there, so a canceled job (or a
 * shutdown) gives the device back within one MSM's time. CZ_ECANCELED is
 * not a device failure. The same boundary is the fault site DEVICE_STEP of
 * the ctx's fault object (core/fault.h), and entering a region the site
 * DEVICE.
 *
 * Threading: one backend object serves one device and is shared by that
 * device's workers; device() is only ever called by the worker holding the
 * device's lock, so calls never overlap — but prep of another partition
 * may run concurrently on other threads.
 */
#ifndef CUZK_BACKEND_H
#define CUZK_BACKEND_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include <blst.h>

#include "core/fault.h"
#include "core/latch.h"
#include "core/ctx.h"
#include "ec/msm.h"
#include "ff/fr.h"

/* The params vectors a work item names, in file order (groth16/params.h CZ_PV_*). */
enum { CZ_BASES_H, CZ_BASES_L, CZ_BASES_A, CZ_BASES_B1, CZ_BASES_B2, CZ_BASES_COUNT };
#define CZ_BASES_ALL ((1u << CZ_BASES_COUNT) - 1)

/*
 * Where the bases come from. Params may keep a vector out of host memory
 * (groth16/params.h, vectors on demand): its *_bases pointer is then NULL
 * and the backend goes through the source. read copies points
 * [first, first + n) of vector k (CZ_BASES_*) into host memory (any thread,
 * many at once: a device upload's bounce fill); host makes the whole vector
 * resident in host memory, once, and returns it (valid while the params
 * live): for a CPU MSM. No source (read NULL): every pointer is set.
 */
typedef struct cz_bases_source {
    const void *obj;
    int (*read)(cz_ctx_t *ctx, const void *obj, int k, size_t first, size_t n, void *out);
    int (*host)(cz_ctx_t *ctx, const void *obj, int k, const void **out);
    /* NULL, or the points as a params file has them (uncompressed, big-endian: 96 or
     * 192 bytes, unchecked), for a backend that decodes them itself (CUDA) */
    int (*read_encoded)(cz_ctx_t *ctx, const void *obj, int k, size_t first, size_t n, void *out);
} cz_bases_source_t;

typedef struct cz_prove_work {
    /* ---- H: inputs (consumed in place) -------------------------------- */
    cz_fr *a, *b, *c; /* rows evaluations each, capacity 2^log_m;
                                       * c == NULL: c[i] = a[i]*b[i] for i < rows
                                       * (zero beyond), the backend forms it */
    size_t rows;
    unsigned log_m;
    const blst_p1_affine *h_bases; /* 2^log_m - 1 */

    /* ---- tails: filled by prep before |prep_done| is posted ---------- */
    cz_latch_t *prep_done;
    const blst_p1_affine *l_bases, *a_bases, *b1_bases;
    const blst_p2_affine *b2_bases;
    size_t num_inputs;                /* inputs incl. ONE: a_bases[0..num_inputs) */
    const blst_scalar *input_scalars; /* num_inputs */
    size_t num_b_inputs;              /* inputs dense in B: b*_bases[0..num_b_inputs) */
    const blst_scalar *b_input_scalars;
    const cz_scalar_split *l_split; /* over aux, indexes l_bases */
    const cz_scalar_split *a_split; /* over A-dense aux, indexes a_bases + num_inputs */
    const cz_scalar_split *b_split; /* over B-dense aux, indexes b*_bases + num_b_inputs */
    const void *params_id;
    size_t n_l_bases, n_a_bases, n_b_bases; /* the params vectors' lengths (b: b1 and b2),
                                               * known before prep: a backend may upload
                                               * the tails' bases while prep runs */
    cz_bases_source_t source;               /* for the *_bases pointers that are NULL (above) */

    /* ---- cancellation: the job's flag, borrowed; NULL: never canceled -- */
    const atomic_bool *cancel;

    /* ---- a, b and c read no more (optional; NULL: nothing is told) ----
     * The region calls abc_done(abc_done_arg) once, through
     * cz_backend_abc_done, as soon as it reads a, b and c no more (its H
     * and H MSM done), so that their host memory can go while its tails'
     * MSMs run. On the region's thread, the device lock held: it must
     * return at once (hand the work to another thread) and not call the
     * backend; a, b and c may be freed from then on. */
    void (*abc_done)(void *arg);
    void *abc_done_arg;

    /* ---- results of the device region ------------------------------- */
    blst_p1 h, l, a_acc, b1_acc;
    blst_p2 b2_acc;
    bool b2_done; /* false: the epilogue computes b2_acc on the CPU */

    /* ---- staging (optional, see cz_backend_ops_t.stage, .pin, .stage_tails) */
    void *staged;       /* backend's handle while a/b point into its memory */
    bool pinned;        /* a/b page-locked where they are (pin), until unpin */
    void *tails_staged; /* backend's handle while it holds copies of the splits */

    /* ---- stage times in seconds, for reports ----------------------- */
    double t_stage, t_ntt, t_msm_h, t_prep_wait, t_msm_l, t_msm_a, t_msm_b1, t_msm_b2;
    double t_upload;      /* params bases uploaded (a set's first region; the
                                       * MSM times exclude it) */
    double t_setup;       /* the region's set-up: device contexts, their buffers
                                       * and tables (the first region of a size) */
    double t_stream_wait; /* the MSMs waited this long for streamed windows */
    size_t h2d_bytes;     /* params bytes copied to the device in the region
                                       * (uploads of resident vectors and streamed windows) */
    /* of t_stream_wait, the H MSM's wait (the rest is the tails') */
    double t_stream_wait_h;
} cz_prove_work_t;

typedef struct cz_backend cz_backend_t;

/*
 * Where device regions' time went, seconds summed over regions (and over a
 * batch's partitions): the region's set-up (plan, contexts, buffers), each
 * partition's H (NTT and coefficients) and H MSM, the wait for its CPU prep
 * with the lock held, and the tails' MSMs (l, a, b_g1, b_g2).
 */
typedef struct cz_region_parts {
    double setup, h, msm_h, prep_wait, tails;
} cz_region_parts;

/* For logs, status and the benchmarks (cz_backend_report_of). */
typedef struct cz_backend_report {
    char plan[320];                /* the last region's (or preparation's) device-memory plan, one
                              * line (backend/devplan.h); "" before the first */
    unsigned long long regions;    /* device regions run */
    unsigned long long partitions; /* partitions those regions proved (more than regions
                                     * where regions were batched) */
    unsigned long long h2d_bytes;  /* params bytes copied to the device, all regions */
    unsigned long long replans;    /* plans made again because an allocation found the
                                     * device memory taken after the plan was made */
    cz_region_parts parts;         /* where those regions' time went, all regions */
    unsigned long long splits_in_region; /* splits put on the device by a region, not by prep
                                          * (none with
                                          * cz_cuda_backend_opts_t.no_splits_in_region) */
    unsigned long long pinned;           /* partitions whose a and b were page-locked in place
                                          * (ops->pin) */
    unsigned long long windows_ahead;    /* streamed vectors whose first window was copied
                                          * during the previous vector's last (windows.h) */
} cz_backend_report;

/* The most partitions one device region takes (cz_backend_ops_t.batch_max is capped here). */
#define CZ_BACKEND_MAX_BATCH 4

/* One partition's outcome in a batched region: its code and, where not 0, why. */
typedef struct cz_batch_result {
    int rc;
    char why[256];
} cz_batch_result;

typedef struct cz_backend_ops {
    const char *name;
    /* The device region for one partition (device lock held). */
    int (*device)(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *work);
    void (*free)(cz_backend_t *be);
    /*
     * Optional (NULL: nothing to do), called WITHOUT the device lock before
     * device(): copy a and b (rows elements each) into memory the device
     * reads fastest (CUDA: device memory, uploaded while another region
     * runs; work->a/b become NULL) or point work->a/b at such copies,
     * setting work->staged. The caller then frees its own a/b at once. The
     * backend takes its memory back during or after device(); unstage()
     * does it for a partition that never reached device(). May block while
     * the backend's staging slots are all in use (backpressure).
     */
    int (*stage)(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *work);
    void (*unstage)(cz_backend_t *be, cz_prove_work_t *work);
    /*
     * Optional (NULL: nothing to do), called by prep WITHOUT the device
     * lock, on prep's thread, once the three splits are built and before
     * prep_done is posted: copy them where the device reads them fastest
     * (CUDA: device memory, while another region runs), setting
     * work->tails_staged. Best effort and non-blocking: with no room free
     * it leaves them (the region reads the host splits) and nothing is
     * reported. unstage_tails() (required with stage_tails) takes the
     * memory back; the caller calls it once prep is over and no region of
     * the partition runs.
     */
    void (*stage_tails)(cz_backend_t *be, cz_prove_work_t *work);
    void (*unstage_tails)(cz_backend_t *be, cz_prove_work_t *work);
    /*
     * Optional (NULL: nothing to do), called WITHOUT the device lock, for a
     * partition that stage() left with a and b in host memory (its region
     * uploads them): page-lock them where they are (CUDA, unless
     * opts.no_pin_ab: cudaHostRegister),
     * so that the region's copies are DMA alone, with no CPU copy that
     * other work on the host can slow, and set work->pinned. Never blocks
     * on the device; best effort: a failure leaves them pageable and is
     * not reported. The caller keeps its a and b and calls unpin() before
     * it frees them (any thread; the region may still run its tails then,
     * but reads a and b no more: abc_done).
     */
    void (*pin)(cz_backend_t *be, cz_prove_work_t *work);
    void (*unpin)(cz_backend_t *be, cz_prove_work_t *work);
    /*
     * Optional (NULL: nothing to do), non-blocking, best effort, any thread:
     * partitions proved with these params are coming (the engine calls it
     * when a job is submitted). Only |bases|' params fields are read: log_m,
     * the five base vectors and their lengths, params_id and the source. The backend may
     * make its state for them now, in the background (CUDA: the H and MSM
     * contexts, the upload buffers, the staging slots, and the params
     * vectors made resident), so that the first region does not wait for
     * it. It may read the base vectors until settle() returns. Nothing is
     * reported: a region that finds the state missing makes it and reports
     * the failure then.
     */
    void (*prepare)(cz_backend_t *be, const cz_prove_work_t *bases);
    /* With prepare: returns once nothing a prepare() was given is read any
     * more (the engine calls it before a job may end: its params may be
     * freed then). Any thread. */
    void (*settle)(cz_backend_t *be);
    /* Optional (NULL: nothing to report): what the backend did so far (below). Any thread. */
    void (*report)(cz_backend_t *be, struct cz_backend_report *out);
    /*
     * Optional (NULL: a region is one partition). batch_max: how many
     * partitions of |w|'s params (params_id, log_m and the vectors'
     * lengths are read) one region should take, >= 1: more than one where
     * the bases stream through the device, so that each window's copy
     * serves every partition of the batch. Advice from the last region's
     * plan: any thread, no lock, never blocks.
     * device_batch (optional with batch_max; NULL: the partitions one after
     * another in one hold of the lock): the device region of n partitions
     * of the same params (device lock held), each proved as device() would
     * prove it alone (the same results, bit for bit), sharing the params'
     * passes. Each partition's outcome is in res[i]: 0, CZ_ECANCELED
     * (canceled at a step boundary: the others go on), a prep failure of
     * its own, or the region's error. Returns CZ_EDEVICE when the device
     * failed (res[i] says so for every partition not proved before it),
     * else 0.
     */
    unsigned (*batch_max)(cz_backend_t *be, const cz_prove_work_t *w);
    int (*device_batch)(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *const *w, size_t n,
                        struct cz_batch_result *res);
} cz_backend_ops_t;

struct cz_backend {
    const cz_backend_ops_t *ops;
    int device_index;
    cz_fault_t *fault; /* this device's own fault object (core/fault.h); may be NULL */
};

/*
 * Make the bases named in |mask| (1 << CZ_BASES_*) host memory: every NULL
 * pointer among them is made resident through w->source and set. CZ_OK, or
 * the source's error (CZ_ENOMEM). For the CPU MSMs.
 */
int cz_backend_host_bases(cz_ctx_t *ctx, cz_prove_work_t *w, unsigned mask);
/* Points [first, first + n) of vector k: from its host pointer, else from w->source. */
int cz_backend_read_bases(cz_ctx_t *ctx, const cz_prove_work_t *w, int k, size_t first, size_t n,
                          void *out);
/* Vector k's host pointer (NULL: only the source has it), its length and its point size. */
const void *cz_backend_bases(const cz_prove_work_t *w, int k, size_t *n, size_t *point_bytes);

/*
 * The step boundary |next| ("H", "MSM h", "L", "A", "B1", "B2") of a device
 * region: CZ_ECANCELED ("canceled before the <next> step") once w->cancel
 * is set; else the ctx's DEVICE_STEP fault site (core/fault.h); else CZ_OK.
 * Backends call it before each step and return what it returns.
 */
int cz_backend_step(cz_ctx_t *ctx, const cz_prove_work_t *w, const char *next);
/* Tell w->abc_done, once (it is cleared): the region reads a, b and c no more. */
void cz_backend_abc_done(cz_prove_work_t *w);
/* Entering a device region: the ctx's DEVICE fault site, else the backend's own. */
int cz_backend_enter(cz_ctx_t *ctx, cz_backend_t *be);

/* The CPU backend: the "device" is the ctx's thread pool. Never fails to create except ENOMEM. */
int cz_cpu_backend_new(cz_backend_t **out, int device_index);
/*
 * Fault injection for this one device (tests; core/fault.h's DEVICE site,
 * on a fault object the backend owns): device regions number |after| and
 * later fail with CZ_EDEVICE "injected fault: device #n" before touching
 * the partition. after = 0 disables.
 */
void cz_cpu_backend_inject_failure(cz_backend_t *be, unsigned after);

/*
 * The CUDA backend for CUDA device |device_index| (backend/cuda/): H, the H
 * MSM, batch additions and the tail MSMs (G1 and, unless opts->g2_on_cpu,
 * G2) on the device, with each params file's bases kept resident while they
 * fit opts->device_mem_limit, and the others streamed through the device
 * (the plan of backend/devplan.h, made per region from the free memory).
 * CZ_EUNAVAIL (with the reason in ctx) in a
 * build without CUDA or where no usable device exists. opts may be NULL.
 */
/*
 * Host memory a backend allocates for itself, beyond what a partition
 * brings (the CUDA backend's pinned params copies): counted by whoever
 * counts host memory (api/prover.c: the engine's budget). take counts
 * |bytes| if there is room now and never waits (false: the backend does
 * without); give returns bytes taken. A zeroed gate counts nothing. Both
 * are called from backend threads, the device lock held or not:
 * thread-safe, and quick.
 */
typedef struct cz_host_gate {
    void *obj;
    bool (*take)(void *obj, size_t bytes);
    void (*give)(void *obj, size_t bytes);
} cz_host_gate_t;

typedef struct cz_cuda_backend_opts {
    size_t device_mem_limit;  /* bytes of device memory this backend may use; 0: all but 2 GiB */
    bool g2_on_cpu;           /* leave the B2 (G2) tail to the epilogue on the CPU */
    int min_plan;             /* tests, benchmarks: the device-memory plan's level is at least
                                * this cz_devplan_level (1: every vector streams; 2: the H on
                                * the CPU too; 3: all on the CPU); 0: as memory allows */
    int h_buffers;            /* tests: 2 makes a streaming plan's H context two buffers
                                * (c through the host) even where three fit; 0: as planned */
    bool h_on_cpu;            /* benchmarks, tests: a plan with windows of its own makes the H
                                * on the CPU (false, the default: on the device in turn with
                                * the MSMs where its context fits alone, devplan.h) */
    bool h_via_host;          /* tests: the H in turn's coefficients go through host memory
                                * even where the MSMs' room fits beside them on the device */
    cz_host_gate_t host_gate; /* where its pinned params copies are counted (zeroed: nowhere) */
    unsigned max_batch;       /* partitions a region takes where bases stream (batch_max):
                                * 0: 2; 1: one (no batches); at most CZ_BACKEND_MAX_BATCH */
    bool no_splits_in_region; /* benchmarks, tests: the splits a streaming region's tails need
                                * and no tails slot holds are read from host memory by each
                                * window's MSMs (false, the default: the region puts them in
                                * the H result's spent buffer before its tails) */
    bool no_pin_ab;           /* ops->pin leaves a and b the region uploads pageable: they go
                                * through bounce buffers (false, the default: page-locked in
                                * place; cz_prover_config_t.cuda_no_pin_ab) */
} cz_cuda_backend_opts_t;

int cz_cuda_backend_new(cz_ctx_t *ctx, cz_backend_t **out, int device_index,
                        const cz_cuda_backend_opts_t *opts);


/*
 * Backends by name, for the CLI, the daemon and the benches (backend.c):
 * "cpu" (always) or "cuda" (CZ_EUNAVAIL with the reason when not usable).
 * cz_backend_device_count says how many devices of a kind exist (cpu: 1).
 *
 * Kinds: "cpu"; "cuda"; "auto" = "cuda" where it is usable, else "cpu";
 * NULL means "auto". Errors (reason in ctx, which may be NULL):
 *   CZ_EINVAL   unknown kind (the message names it and the known kinds),
 *               or device_index < 0;
 *   CZ_EUNAVAIL "cuda" in a build without CUDA ("cuda backend: this build
 *               has no CUDA support (...)") or where cz_cuda_probe finds no
 *               usable device ("cuda backend: " + the probe's reason);
 *   CZ_ERANGE   a CUDA device_index >= the number of usable devices;
 *   whatever the backend's constructor returns (CZ_ENOMEM, CZ_EDEVICE).
 * "auto" never fails for want of CUDA; when CUDA is usable but creating its
 * backend fails, that error is returned (no silent fallback). Which backend
 * was made: (*out)->ops->name ("cpu" or "cuda"). *out is NULL on error.
 * For "cpu", device_index only labels the backend (the engine's cpu:N
 * emulated devices); every CPU backend shares the ctx's thread pool.
 * Thread-safe (no shared state besides the CUDA driver's).
 *
 * cz_backend_device_count: cpu 1; cuda the number of usable devices, or
 * CZ_EUNAVAIL as above with *count = 0; auto that of the kind it resolves to.
 */
int cz_backend_new(cz_ctx_t *ctx, cz_backend_t **out, const char *kind, int device_index);
int cz_backend_device_count(cz_ctx_t *ctx, const char *kind, size_t *count);
/* cz_backend_new with options for a CUDA backend (NULL: defaults; ignored for cpu). */
int cz_backend_new_opts(cz_ctx_t *ctx, cz_backend_t **out, const char *kind, int device_index,
                        const cz_cuda_backend_opts_t *cuda_opts);
/*
 * The kind |kind| stands for here: *resolved = "cpu" or "cuda" (static
 * strings). |why| (may be NULL) gets one line for logs: the CUDA probe's
 * description of the device(s) when cuda is chosen, or why cuda was not
 * (auto -> cpu). Errors as cz_backend_new (EINVAL, EUNAVAIL); *resolved is
 * NULL on error.
 */
int cz_backend_resolve(cz_ctx_t *ctx, const char *kind, const char **resolved, char *why,
                       size_t why_len);

/* ops->prepare / ops->settle where the backend has them (see above). */
static inline void cz_backend_prepare(cz_backend_t *be, const cz_prove_work_t *bases)
{
    if (be && be->ops->prepare)
        be->ops->prepare(be, bases);
}

static inline void cz_backend_settle(cz_backend_t *be)
{
    if (be && be->ops->settle)
        be->ops->settle(be);
}

/* ops->batch_max capped to [1, CZ_BACKEND_MAX_BATCH]; 1 for a backend without batches. */
static inline unsigned cz_backend_batch_max(cz_backend_t *be, const cz_prove_work_t *w)
{
    if (!be || !be->ops->batch_max)
        return 1;
    const unsigned k = be->ops->batch_max(be, w);
    return k < 1 ? 1 : k > CZ_BACKEND_MAX_BATCH ? CZ_BACKEND_MAX_BATCH : k;
}

/*
 * The region of n (1 .. CZ_BACKEND_MAX_BATCH) partitions, device lock held:
 * ops->device_batch where the backend has it and n > 1, else device() for
 * each in turn (a device failure ends the rest: CZ_EDEVICE in each).
 * Results and return as ops->device_batch's; res[i].why is filled from the
 * ctx's message where res[i].rc is not 0.
 */
int cz_backend_device_batch(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *const *w, size_t n,
                            cz_batch_result *res);

/*
 * Tests: make the CPU backend advise batches of |k| partitions (run one
 * after another, in one hold of the lock), so that
 * the engine's batching runs without a GPU. k = 1 (the default): none.
 */
void cz_cpu_backend_set_batch(cz_backend_t *be, unsigned k);

/* ops->report, or zeros (a backend without one: the CPU's). */
static inline void cz_backend_report_of(cz_backend_t *be, cz_backend_report *out)
{
    *out = (cz_backend_report){ .regions = 0 };
    if (be && be->ops->report)
        be->ops->report(be, out);
}

/* NULL is a harmless no-op. */
static inline void cz_backend_free(cz_backend_t *be)
{
    if (be)
        be->ops->free(be);
}

/*
 * Helpers every backend's CPU fallbacks share: the tail of one group over
 * (inputs, split) = MSM over the first n_inputs bases + the split MSM over
 * the rest.
 */
int cz_backend_g1_tail(cz_ctx_t *ctx, blst_p1 *out, const blst_p1_affine *bases,
                       const blst_scalar *inputs, size_t n_inputs, const cz_scalar_split *split);
int cz_backend_g2_tail(cz_ctx_t *ctx, blst_p2 *out, const blst_p2_affine *bases,
                       const blst_scalar *inputs, size_t n_inputs, const cz_scalar_split *split);

#endif /* CUZK_BACKEND_H */
