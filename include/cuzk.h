/*
 * cuzk.h — the public API of libcuzk, the Filecoin Groth16 proving engine.
 *
 * This header (with the cuzk/ headers it includes) is the whole API: a
 * program includes <cuzk.h>, links `pkg-config --libs cuzk`, and calls
 * nothing else. Everything under src/ is private; the shared library
 * exports the CZ_EXTERN functions below and no other symbol.
 *
 *   cz_prover_config_t cfg;
 *   cz_prover_config_init(&cfg);              // defaults: auto backend, all CPUs
 *   cfg.params_dir = "/var/tmp/filecoin-proof-parameters";
 *   cz_prover_t *p;
 *   cz_error_t err;
 *   if (cz_prover_new(&p, &cfg, &err)) { puts(err.message); return 1; }
 *   cz_job_request_t req;
 *   cz_job_request_init(&req, "porep-c2", c1_json, c1_len);
 *   uint64_t id;
 *   int rc = cz_prover_submit(p, &req, &id, &err);          // validated, queued
 *   if (!rc) rc = cz_prover_wait(p, id, -1, NULL, &err);    // CZ_OK: done
 *   if (!rc) rc = cz_prover_proof(p, id, &proof, &len, &err); // free with cz_free
 *   cz_prover_free(p);
 *
 * CONVENTIONS (every function below follows them):
 *  - Fallible functions return 0 (CZ_OK) or a negative CZ_E* code
 *    (cuzk/error.h). When |err| is not NULL it receives the code and a
 *    message saying why ("params: 'x' not found in params_dir /p"); on
 *    success err->code is CZ_OK and err->message "". |err| may be NULL.
 *  - Pointers the library returns through an out-parameter and calls
 *    "caller frees" are freed with cz_free. Strings and buffers passed in
 *    are copied before the call returns unless a function says otherwise.
 *  - Handles are opaque; their sizes are not part of the ABI. Public
 *    structs are, and keep them fixed: see STRUCTS THAT GROW below.
 *  - Thread-safety is stated per function. Callbacks run on library
 *    threads with no library lock held.
 *  - Nothing here exits the process, installs signal handlers or writes to
 *    stdout/stderr unless asked to (cz_prover_config_t.timeline, .log).
 *
 * STRUCTS THAT GROW. Every public struct ends in `uint64_t reserved[N]`,
 * and its size never changes within a major version: a field added later
 * is carved out of the front of |reserved| (N shrinks by as many words as
 * the field takes), so a program built against an older header and one
 * built against a newer one pass structs of the same size.
 *  - Structs the library writes (cz_error_t, cz_prover_info_t,
 *    cz_job_info_t with cz_job_timings_t, cz_job_shape_t, cz_timeline_summary_t,
 *    cz_timeline_device_t,
 *    cz_setup_info_t, cz_prover_stats_t, cz_device_memory_t, cz_params_item_t,
 *    cz_porep_public_t, cz_params_manifest_entry_t, cz_circuit_shape_t): the
 *    library zeroes |reserved| on every write. A newer program on an older
 *    library reads 0 in the fields that library did not have, so 0 always
 *    means "not reported" for a field added later; an older program on a
 *    newer library never looks at the words the new fields took.
 *  - Structs the caller fills (cz_prover_config_t, cz_job_request_t, cz_timing_request_t,
 *    cz_setup_request_t,
 *    cz_porep_public_t passed to cz_porep_c2_verify): start from their
 *    _init function (or zero them) and set fields by name. |reserved| must
 *    be zero: a call given a non-zero word fails with CZ_EINVAL, so that
 *    when the word becomes a field, 0 (its default) is what every older
 *    program passed.
 * Why a reserved tail, not a size field the caller sets: nothing to forget
 * at the many call sites that pass a cz_error_t; arrays of structs
 * (cz_prover_params_list) keep one stride for every program; and a size
 * that cannot change lets tests/api/abi.snapshot (docs/API.md "ABI
 * policy") catch an accidental break as a changed sizeof. The price: the
 * room is finite (N words per struct), after which the major version moves.
 */
#ifndef CUZK_H
#define CUZK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/export.h"
#include "cuzk/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version --------------------------------------------------------------
 * Semantic versioning: the major version is the shared library's SONAME
 * (libcuzk.so.MAJOR); within one major version the ABI only grows. The
 * build reads these three lines (CMakeLists.txt): they are the one place
 * the version is written.
 */
#define CZ_VERSION_MAJOR 0
#define CZ_VERSION_MINOR 2
#define CZ_VERSION_PATCH 0
#define CZ_VERSION_HEX ((CZ_VERSION_MAJOR << 16) | (CZ_VERSION_MINOR << 8) | CZ_VERSION_PATCH)

/* "MAJOR.MINOR.PATCH" of the library loaded at run time. Never NULL; thread-safe. */
CZ_EXTERN const char *cz_version(void);
/* CZ_VERSION_HEX of the library loaded at run time (compare with the header's). */
CZ_EXTERN unsigned cz_version_hex(void);

/* ---- errors and memory ---------------------------------------------------- */

#define CZ_ERROR_MESSAGE_MAX 512

/* What went wrong in one call: the code it returned and why. */
typedef struct cz_error {
    int code;                           /* CZ_OK or a CZ_E* code */
    char message[CZ_ERROR_MESSAGE_MAX]; /* NUL-terminated; "" when code is CZ_OK */
    uint64_t reserved[4];               /* zeroed by the library (STRUCTS THAT GROW) */
} cz_error_t;

/* Free memory the library handed out ("caller frees"). NULL is a harmless no-op. */
CZ_EXTERN void cz_free(void *ptr);

/* ---- the prover ------------------------------------------------------------ */

/*
 * A prover owns the devices (backends), the engine (queues, memory budget,
 * workers), the params cache, the job kinds and their state (the porep-c2
 * kind keeps partition shapes by sector size), and every job submitted to
 * it until forgotten. One per process is the normal case; two provers
 * share nothing.
 */
typedef struct cz_prover cz_prover_t;

/* Levels of cz_prover_config_t.log. */
enum { CZ_LOG_LEVEL_DEBUG, CZ_LOG_LEVEL_INFO, CZ_LOG_LEVEL_WARN, CZ_LOG_LEVEL_ERROR };

/*
 * A log line from the library: |event| a short fixed text ("params evicted
 * (LRU)"), |detail| "key=value ..." pairs. Called from any library thread;
 * must not call back into the prover.
 */
typedef void cz_log_cb(void *user, int level, const char *event, const char *detail);

typedef struct cz_prover_config {
    const char *backend;         /* "auto" (cuda when usable, else cpu), "cpu" or "cuda" */
    unsigned devices;            /* devices to drive: 0 = every usable GPU (cuda) or 1 (cpu);
                                    * cpu:N gives N emulated CPU devices sharing the threads */
    unsigned first_device;       /* index of the first device used (cuda: GPU number) */
    unsigned workers_per_device; /* 0: 2 (the dual-worker interlock) */
    unsigned synth_workers;      /* 0: 1 */
    unsigned threads;            /* width of the thread pool; 0: every online CPU */
    unsigned
        device_queue_depth; /* synthesized partitions waiting for a device; 0: devices x workers */
    unsigned max_retries;   /* re-syntheses after a device error; 0: 1 */
    size_t memory_budget;   /* bytes for partitions in flight; 0: physical memory minus margin */
    size_t memory_margin;   /* left out of the automatic budget; 0: an eighth of physical
                                    * memory (at least 5 GiB) plus the params the prover
                                    * holds in host memory (counted into the budget as jobs
                                    * start: no door sizes a margin) */
    size_t cuda_device_mem_limit; /* bytes per GPU; 0: all but 2 GiB */
    bool cuda_g2_on_cpu;          /* GPUs leave the B2 (G2) MSM to the CPU */
    const char *params_dir;       /* where params names resolve; NULL: "." */
    size_t params_cache_bytes;    /* loaded params kept (LRU, never one in use); 0: no limit */
    bool params_allow_paths;      /* accept absolute params paths besides names */
    unsigned max_partitions;      /* a job with more is refused at submit; 0: 1024 */
    bool no_verify;               /* do not verify finished jobs (NOT for production) */
    const char *timeline; /* engine timeline: NULL off, "-" stderr, else a file (truncated) */
    cz_log_cb *log;       /* NULL: the library logs nothing */
    void *log_user;
    int log_level;           /* least level passed to |log| */
    bool params_check;       /* before a params file under a name Filecoin publishes
                                    * (parameters.json, v28) is first used, check its
                                    * blake2b digest: a file that differs fails the job
                                    * (CZ_EMISMATCH, naming it); once per size+mtime */
    unsigned cuda_max_batch; /* partitions one GPU region proves where the params stream
                                    * through a card too small for them (each streamed window
                                    * then serves all of them); 0: 2, 1: one a region */
    uint32_t reserved_pad;   /* must be zero */
    bool timeline_capture;   /* also keep the engine timeline in memory, for
                                    * cz_prover_timeline_summary (grows ~100 bytes an
                                    * event: for timing runs and benchmarks, not a
                                    * long-lived daemon); independent of |timeline| */
    bool cuda_no_pin_ab;     /* GPUs: a partition's a and b that no device staging
                                    * slot takes stay pageable, and its region copies them
                                    * through bounce buffers (false, the default: page-locked
                                    * where they are before the region, copied by DMA alone) */
    uint64_t reserved[14];   /* must be zero: cz_prover_config_init (STRUCTS THAT GROW) */
} cz_prover_config_t;

/* Fill |cfg| with the defaults above (|reserved| zero). */
CZ_EXTERN void cz_prover_config_init(cz_prover_config_t *cfg);

/*
 * Create a prover: the thread pool, the backends (an explicit "cuda" that
 * is not usable fails here with the reason, as does asking for more GPUs
 * than the machine has), the params cache, the kinds' state and the
 * engine, with its threads. |cfg| is copied (NULL: the defaults).
 * Errors: CZ_EINVAL (a bad field, named; a non-zero |reserved|), CZ_EUNAVAIL (the backend),
 * CZ_ERANGE (devices), CZ_EDEVICE, CZ_ENOMEM. *out is NULL on error.
 */
CZ_EXTERN int cz_prover_new(cz_prover_t **out, const cz_prover_config_t *cfg, cz_error_t *err);

/*
 * Cancel every job not yet ended, let running partitions reach a stage
 * boundary, join the threads and free everything, jobs included. Callbacks
 * of jobs that end meanwhile may still run (before this returns). NULL is
 * a harmless no-op. Call once, when no other call on |p| is in progress.
 */
CZ_EXTERN void cz_prover_free(cz_prover_t *p);

typedef struct cz_prover_info {
    char backend[16];         /* "cpu" or "cuda": what "auto" resolved to */
    char backend_detail[256]; /* why (for "auto"), as cuzkd logs it */
    size_t devices;
    unsigned threads;       /* pool width */
    size_t memory_budget;   /* bytes, as resolved */
    const char *params_dir; /* borrowed from the prover */
    uint64_t reserved[8];   /* zeroed by the library (STRUCTS THAT GROW) */
} cz_prover_info_t;

/* What the prover runs on. Thread-safe. */
CZ_EXTERN void cz_prover_info(cz_prover_t *p, cz_prover_info_t *out);

/* ---- job kinds ------------------------------------------------------------- */

/*
 * A job kind turns bytes in into proving work. The library's kinds (one
 * table; a prover may have more, cz_prover_kind_* below) include:
 *   "porep-c2"  input: the C1 JSON (SealCommitPhase1Output). Its default
 *               params: the Filecoin file name of the C1's sector size in
 *               params_dir (v28-stacked-proof-of-replication-...params).
 *               Proof: partitions x 192 bytes, as seal_commit_phase2.
 *   "circuit"   a registry circuit, for tests and benches; fields
 *               {"circuit": "bench:N" | "toy[:X]", "partitions": P, "seed": S,
 *               "witness": "synthesize" | "copy" (one witness per job, partition
 *               0's, copied for every partition: for benches)}; params required.
 * Count and names, for listings and messages. Thread-safe.
 */
CZ_EXTERN size_t cz_kind_count(void);
/* The name of kind |i| (< cz_kind_count()), else NULL. */
CZ_EXTERN const char *cz_kind_name(size_t i);
/* One line saying what kind |i| proves, else NULL. */
CZ_EXTERN const char *cz_kind_summary(size_t i);
/*
 * The kinds prover |p| takes (cz_kind_* above, unless the program that
 * made it gave it more: cuzkd's tests register a toy kind), in its
 * table's order: count, name and summary of kind |i| (NULL out of range
 * or for a NULL |p|). Thread-safe; the strings live as long as |p|.
 */
CZ_EXTERN size_t cz_prover_kind_count(const cz_prover_t *p);
CZ_EXTERN const char *cz_prover_kind_name(const cz_prover_t *p, size_t i);
CZ_EXTERN const char *cz_prover_kind_summary(const cz_prover_t *p, size_t i);

/* ---- jobs ------------------------------------------------------------------ */

typedef enum cz_job_state {
    CZ_JOB_QUEUED,    /* accepted, waiting for its params or a synthesis worker */
    CZ_JOB_RUNNING,   /* partitions being synthesized and proved */
    CZ_JOB_VERIFYING, /* every partition proved; the whole proof being verified */
    CZ_JOB_DONE,      /* proof ready (verified unless no_verify) */
    CZ_JOB_FAILED,    /* error and message say why */
    CZ_JOB_CANCELED,
} cz_job_state_t;

/* "queued", "running", "verifying", "done", "failed", "canceled"; never NULL. */
CZ_EXTERN const char *cz_job_state_name(cz_job_state_t s);

/*
 * Called once when job |id| ends (DONE, FAILED or CANCELED), from a library
 * thread with no library lock held, after the outcome is visible to
 * cz_prover_status / cz_prover_proof (so cz_prover_wait may return before it
 * runs). It may call any cz_prover_* function on |p| except cz_prover_free;
 * it should return quickly (it runs on an engine worker). When submit fails
 * it is never called.
 */
typedef void cz_job_done_cb(void *user, cz_prover_t *p, uint64_t id, cz_job_state_t state);

typedef struct cz_job_request {
    const char *kind;  /* "porep-c2", "circuit" (cz_kind_name) */
    const void *input; /* the kind's input bytes (the C1 JSON); may be NULL */
    size_t input_len;
    const char *fields;      /* the kind's fields as a JSON object text, NULL: none */
    const char *params;      /* a name in params_dir (".params" optional) or, with
                                    * params_allow_paths, an absolute path; NULL: the kind's default */
    int priority;            /* 1 low .. 4 critical; higher first; 0: 2 (normal) */
    cz_job_done_cb *on_done; /* may be NULL */
    void *user;              /* passed to on_done */
    uint64_t reserved[8];    /* must be zero: cz_job_request_init (STRUCTS THAT GROW) */
} cz_job_request_t;

/* Zero |req| (|reserved| included) and set kind, input, input_len (priority
 * normal, no callback). */
CZ_EXTERN void cz_job_request_init(cz_job_request_t *req, const char *kind, const void *input,
                                   size_t input_len);

/*
 * Validate and queue a job; *id (> 0) names it. Before it returns, the
 * request is checked as far as it can be without proving: the kind, its
 * fields (an unknown one is named), the input (porep-c2: the C1 parsed
 * strictly, errors naming the JSON path; zero or non-field public values
 * refused), the partition count, and the params file (resolved, present).
 * The params are loaded (once, shared through the cache) and checked
 * against the circuit's shape afterwards, asynchronously: a mismatch fails
 * the job with a message naming both (a file's counts are checked before
 * its load starts, so a wrong file is refused without being read). A load
 * runs beside the other jobs: one whose params are cached is not held
 * behind it, and a job waiting for one can be canceled at once. A failed
 * load fails every job waiting for it. The first porep-c2 job of a sector
 * size computes that size's partition shape in this call (~6 s at 32GiB,
 * 0.3 s at 2KiB); later ones take it from the kind's cache.
 * The input is copied; |req| may be freed when this returns.
 * Errors: CZ_EINVAL / CZ_EFORMAT (the request's fault, message names the
 * field; a non-zero |reserved| too), CZ_ENOTFOUND (params), CZ_EUNAVAIL
 * (the prover is being freed), CZ_ENOMEM. Thread-safe; concurrent submits prepare in parallel.
 */
CZ_EXTERN int cz_prover_submit(cz_prover_t *p, const cz_job_request_t *req, uint64_t *id,
                               cz_error_t *err);

/* ---- timing runs: random params (TIMING ONLY) ------------------------------ */

/*
 * A TIMING ONLY job: a kind's circuit proved with params of its exact
 * shape made of random points (seconds, where a setup of a production size
 * takes hours) and, with no input, a witness of pseudo-random field
 * elements (the real R1CS and scalar distribution; the witness does not
 * satisfy it). It measures what a real job costs (synthesis, the device
 * region, the epilogue) on machines that have no params. NOTHING IS
 * VERIFIED: its proof (cz_prover_proof) is not a valid proof, whatever
 * no_verify says, and must never leave a benchmark.
 */
typedef struct cz_timing_request {
    const char *kind;  /* cz_kind_name */
    const void *input; /* the kind's input (porep-c2: the C1 JSON); may be NULL */
    size_t input_len;
    const char *fields;   /* as cz_job_request_t.fields ("circuit": its id) */
    uint64_t sector_size; /* bytes; with no input, non-zero: the kind's random
                                    * witness of its circuit of that size
                                    * (winning-post, window-post, snap) */
    uint64_t seed;        /* of the random params (and random witness) */
    int priority;         /* as cz_job_request_t.priority */
    uint64_t reserved[8]; /* must be zero: cz_timing_request_init (STRUCTS THAT GROW) */
} cz_timing_request_t;

/* Zero |req| (|reserved| included) and set kind (seed 0, priority normal). */
CZ_EXTERN void cz_timing_request_init(cz_timing_request_t *req, const char *kind);

/*
 * Queue a timing job; *id names it as cz_prover_submit's ids do (status,
 * wait, proof, public inputs, cancel, forget, cz_prover_job_shape). The job
 * is checked and prepared as cz_prover_submit's (input, fields, partition
 * count), or, with no input and a sector_size, built from the kind's random
 * witness. Its params are made from |seed| when it starts, by the prover's
 * stager (cz_job_timings_t.params_load is their time;
 * cz_job_shape_t.params_bytes their size), counted in the memory margin,
 * never cached, and freed when it ends. Timing jobs alive at once whose
 * circuits have one shape and whose requests one seed share one set of
 * params (random points from the shape and the seed: the same points): the
 * first job to start makes them, a later one takes them (its params_load
 * near 0), and they are freed when the last of those jobs ends; so N jobs
 * of one C1 submitted together cost one set. The input is copied.
 * Errors: as cz_prover_submit's; CZ_EINVAL also for no input and no
 * sector_size where the kind needs one, a kind without a random witness
 * (porep-c2, circuit), a sector size it has no circuit of, or fields with a
 * random witness. Thread-safe.
 */
CZ_EXTERN int cz_prover_submit_timing(cz_prover_t *p, const cz_timing_request_t *req, uint64_t *id,
                                      cz_error_t *err);

/* What a job proves: one partition's circuit, for a timing run's report. */
typedef struct cz_job_shape {
    size_t partitions;
    size_t constraints;       /* of one partition: rows less the public inputs' */
    size_t rows;              /* R1CS rows of one partition */
    size_t domain_size;       /* the FFT domain */
    size_t num_inputs;        /* public inputs, ONE included */
    size_t num_aux;           /* private variables */
    size_t params_bytes;      /* host bytes of the job's params once it has them; 0 before */
    uint64_t partition_bytes; /* host memory one partition in flight takes from the
                                * memory budget (its witness and a/b/c vectors) */
    uint64_t reserved[7];     /* zeroed by the library (STRUCTS THAT GROW) */
} cz_job_shape_t;

/* The shape of job |id| (any state). CZ_ENOTFOUND for an unknown id. Thread-safe. */
CZ_EXTERN int cz_prover_job_shape(cz_prover_t *p, uint64_t id, cz_job_shape_t *out,
                                  cz_error_t *err);

/*
 * The shape a job of |kind| on |input| (and |fields|, NULL: none) would
 * have, without a prover and without proving: a dry run's figures. The
 * input is prepared as cz_prover_submit prepares it (porep-c2: the C1
 * parsed strictly and its partition shape computed, ~6 s at 32GiB; not
 * its expensive checks). params_bytes is 0. Errors as cz_prover_submit's
 * request errors (CZ_EINVAL, CZ_EFORMAT naming the field), CZ_ENOMEM.
 * Reentrant; uses the calling thread only.
 */
CZ_EXTERN int cz_kind_shape(const char *kind, const void *input, size_t input_len,
                            const char *fields, cz_job_shape_t *out, cz_error_t *err);

/*
 * The engine timeline a prover with timeline_capture kept, analysed: for a
 * timing run's report of how well the devices were fed. Times in ms.
 */
typedef struct cz_timeline_summary {
    size_t devices;             /* devices that ran a region */
    size_t device_regions;      /* device-lock regions, all devices */
    double device_held_ms;      /* their summed length */
    double device_efficiency;   /* the least over devices of held / (held + gaps
                                  * between regions), 0..1; 0 with no region */
    double dispatch_efficiency; /* the least over devices of GPU dispatch busy / (busy
                                  * + holes), 0..1; 1 where no device reports any */
    size_t overlap_violations;  /* two regions holding one device at once (a bug) */
    size_t synthesis_spans;     /* partitions synthesized */
    double synthesis_mean_ms, synthesis_max_ms;
    uint64_t reserved[8]; /* zeroed by the library (STRUCTS THAT GROW) */
} cz_timeline_summary_t;

/*
 * Analyse the timeline captured so far (call it once the jobs of interest
 * have ended) into |out|; with |svg_path| (may be NULL) also draw it as an
 * SVG there (created or truncated). CZ_EINVAL when the prover was made
 * without timeline_capture; CZ_EFORMAT (a malformed line: a bug), CZ_EIO
 * (the SVG, naming the path), CZ_ENOMEM. Thread-safe (the timeline is
 * copied before the analysis).
 */
CZ_EXTERN int cz_prover_timeline_summary(cz_prover_t *p, const char *svg_path,
                                         cz_timeline_summary_t *out, cz_error_t *err);

/* One device's figures in the captured timeline (times in ms). */
typedef struct cz_timeline_device {
    int32_t device;             /* the engine's device index, 0..devices-1 (cuda: GPU
                                  * first_device + device) */
    uint32_t reserved_pad;      /* zeroed by the library */
    size_t regions;             /* device-lock regions it ran */
    double held_ms;             /* their summed length */
    double efficiency;          /* held / (held + gaps between its regions), 0..1;
                                  * 0 with no region */
    double dispatch_efficiency; /* dispatch busy / (busy + holes), 0..1; 1 where the
                                  * device reports no dispatch span */
    uint64_t reserved[4];       /* zeroed by the library (STRUCTS THAT GROW) */
} cz_timeline_device_t;

/*
 * Each device's figures in the timeline captured so far (the devices
 * cz_prover_timeline_summary takes the least of), sorted by device: *n
 * receives the number of devices the timeline names (in any device-side
 * span: one that only waited has 0 regions), of which the first
 * min(*n, cap) are written to out[0..] (the rest of out[0..cap) zeroed); so
 * cap 0 (|out| may then be NULL) asks only how many. CZ_EINVAL (a NULL |p|
 * or |n|, a NULL |out| with cap > 0, a prover made without
 * timeline_capture; *n is 0), CZ_EFORMAT (a malformed line: a bug),
 * CZ_ENOMEM. Thread-safe (the timeline is copied before the analysis).
 */
CZ_EXTERN int cz_prover_timeline_devices(cz_prover_t *p, cz_timeline_device_t *out, size_t cap,
                                         size_t *n, cz_error_t *err);

/*
 * Where a partition is between submission and resolution:
 *   QUEUED       not yet taken by a synthesis worker, waiting for memory
 *                budget, or back in line for a retry;
 *   SYNTHESIS    its witness is being synthesized;
 *   DEVICE_WAIT  synthesized: in the device queue, being staged, or waiting
 *                for the device lock;
 *   DEVICE       holding the device lock (the device region);
 *   EPILOGUE     the CPU epilogue after the device region.
 */
typedef enum cz_part_stage {
    CZ_PART_QUEUED,
    CZ_PART_SYNTHESIS,
    CZ_PART_DEVICE_WAIT,
    CZ_PART_DEVICE,
    CZ_PART_EPILOGUE,
    CZ_PART_NSTAGES
} cz_part_stage_t;

/* "queued", "synthesis", "waiting_device", "device", "epilogue"; "unknown" out of range. */
CZ_EXTERN const char *cz_part_stage_name(cz_part_stage_t s);

/*
 * Where a started job's work is, for a progress display: "verify" in
 * CZ_JOB_VERIFYING, else the cz_part_stage_name of the furthest stage any
 * of its unfinished partitions (|in_stage|, cz_job_info_t) has reached.
 * Never NULL; thread-safe.
 */
CZ_EXTERN const char *cz_job_stage_label(cz_job_state_t state,
                                         const size_t in_stage[CZ_PART_NSTAGES]);

/* Milliseconds. */
typedef struct cz_job_timings {
    double queue_wait;        /* submit to the first synthesis, params load included */
    double params_load;       /* loading (or waiting for) the params */
    double synthesis, device; /* sums over partitions */
    double total;             /* submit to the end (or to now) */
    uint64_t reserved[4];     /* zeroed by the library (STRUCTS THAT GROW) */
} cz_job_timings_t;

typedef struct cz_job_info {
    uint64_t id;
    cz_job_state_t state;
    size_t partitions, partitions_done;
    int error;         /* CZ_OK unless FAILED / CANCELED */
    char message[256]; /* why it failed */
    cz_job_timings_t t;
    /* The partitions not yet resolved, by stage (a snapshot: a partition
     * moving between stages at that instant may count as QUEUED). */
    size_t in_stage[CZ_PART_NSTAGES];
    bool loading_params;  /* QUEUED: its params are being loaded now */
    char summary[128];    /* what the kind says it proves ("StackedDrg32GiBV1_1 x10") */
    bool started;         /* its params are loaded and its partitions are in the
                                    * proving queues (in_stage counts them); false while
                                    * it waits for, or loads, its params */
    uint64_t reserved[8]; /* zeroed by the library (STRUCTS THAT GROW) */
} cz_job_info_t;

/* A snapshot of job |id|. CZ_ENOTFOUND for an unknown (or forgotten) id. Thread-safe. */
CZ_EXTERN int cz_prover_status(cz_prover_t *p, uint64_t id, cz_job_info_t *out, cz_error_t *err);

/*
 * Wait until job |id| ends or |timeout_s| seconds pass (< 0: forever).
 * CZ_OK when it ended (in any state: read |out|, may be NULL), CZ_EBUSY on
 * timeout, CZ_ENOTFOUND. Thread-safe; any number of waiters.
 */
CZ_EXTERN int cz_prover_wait(cz_prover_t *p, uint64_t id, double timeout_s, cz_job_info_t *out,
                             cz_error_t *err);

/*
 * A copy of the proof of DONE job |id| (caller frees): 192 bytes per
 * partition in partition order (bellperson's Proof encoding; for porep-c2
 * exactly what seal_commit_phase2 returns). CZ_EBUSY while it runs; the
 * job's own error (with its message) if it failed; CZ_ECANCELED;
 * CZ_ENOTFOUND. Thread-safe.
 */
CZ_EXTERN int cz_prover_proof(cz_prover_t *p, uint64_t id, uint8_t **proof, size_t *len,
                              cz_error_t *err);

/*
 * The public inputs the proof of DONE job |id| was verified against
 * (caller frees): partitions x *per_partition field elements, each 32
 * bytes little-endian (the Fr repr), partition-major. Errors as
 * cz_prover_proof. Thread-safe.
 */
CZ_EXTERN int cz_prover_public_inputs(cz_prover_t *p, uint64_t id, uint8_t **inputs,
                                      size_t *per_partition, size_t *partitions, cz_error_t *err);

/*
 * Ask job |id| to stop: queued partitions are dropped at once, running ones
 * at their next stage boundary; the job ends CANCELED (its callback runs).
 * CZ_OK also when it had already ended; CZ_ENOTFOUND. Thread-safe.
 */
CZ_EXTERN int cz_prover_cancel(cz_prover_t *p, uint64_t id, cz_error_t *err);

/* Drop ended job |id| and its proof. CZ_EBUSY while it runs; CZ_ENOTFOUND. Thread-safe. */
CZ_EXTERN int cz_prover_forget(cz_prover_t *p, uint64_t id, cz_error_t *err);

typedef struct cz_prover_stats {
    size_t jobs[CZ_JOB_CANCELED + 1]; /* known jobs by state */
    size_t partitions_proved;
    size_t jobs_staged;       /* QUEUED jobs not yet in the engine (params first) */
    size_t partitions_queued; /* in the engine, not yet synthesizing */
    size_t device_queue;      /* synthesized, waiting for a device */
    double engine_active_s;   /* time with at least one job in the engine */
    size_t budget_total, budget_reserved, budget_peak;  /* bytes */
    size_t recycled_bytes, recycle_hits, recycle_takes; /* warm witness buffers */
    size_t params_entries, params_bytes, params_budget;
    uint64_t params_hits, params_misses, params_evictions, params_load_errors;
    size_t shape_hits, shape_lookups; /* porep-c2 partition shapes served from the cache */
    size_t devices;
    double device_busy_s[16]; /* device lock held, first 16 devices */
    bool device_failed[16];
    uint64_t backend_host_bytes; /* host memory the backends hold now beside the params
                                  * (the CUDA backend's pinned params copies), counted in
                                  * the memory budget */
    uint64_t reserved[15];       /* zeroed by the library (STRUCTS THAT GROW) */
} cz_prover_stats_t;

/* Counters for monitoring. Thread-safe. */
CZ_EXTERN void cz_prover_stats(cz_prover_t *p, cz_prover_stats_t *out);

/*
 * What device |device| (0-based, < cz_prover_stats_t.devices) holds: its
 * device-memory plan of the last partition, one line ("" before the first,
 * and for the CPU backend), the params bytes copied to it so far
 * (streamed windows and resident uploads), and the device regions run and
 * the partitions they proved (more partitions than regions where a region
 * proves a batch: cz_prover_config_t.cuda_max_batch). The CPU backend
 * reports none of these (all 0; cz_prover_timeline_summary counts regions
 * on every backend). CZ_ERANGE for a device that does not exist.
 * Thread-safe.
 */
typedef struct cz_device_memory {
    uint64_t h2d_bytes;
    char plan[320];
    uint64_t regions, partitions;
    /* Where those regions' time went, ms summed over them (divide by |partitions|
     * for a partition's share): set-up (plan, contexts, buffers), the H (NTT,
     * coefficients), the H MSM, the wait for CPU prep with the device held, the
     * tails' MSMs (l, a, b_g1, b_g2). */
    double setup_ms, h_ms, msm_h_ms, prep_wait_ms, tails_ms;
    uint64_t reserved[1]; /* zeroed by the library (STRUCTS THAT GROW) */
} cz_device_memory_t;

CZ_EXTERN int cz_prover_device_memory(cz_prover_t *p, size_t device, cz_device_memory_t *out);

/* ---- params ------------------------------------------------------------------ */

typedef struct cz_params_item {
    char path[4096]; /* the file's real path (the cache key) */
    size_t bytes;    /* held in memory */
    unsigned users;  /* jobs holding it now (never evicted while > 0) */
    bool loading;
    double load_ms;
    uint64_t hits;
    uint64_t reserved[4]; /* zeroed by the library (STRUCTS THAT GROW) */
} cz_params_item_t;

/* params_dir as configured (borrowed from |p|). */
CZ_EXTERN const char *cz_prover_params_dir(const cz_prover_t *p);

/*
 * Load params |name| (a name in params_dir, ".params" optional, or an
 * absolute path when allowed) into the cache now, and onto every GPU, so
 * the first job does not wait for it. When every device of the prover is a
 * GPU the cache opens the file without reading its points into host memory
 * and the GPUs read them from it (decoding them themselves); returns once
 * they have them. |item| (may be NULL) describes the entry. A name already
 * loaded is a hit (no read; stats params_hits). Errors: CZ_EINVAL (not a name),
 * CZ_ENOTFOUND, CZ_EIO / CZ_EFORMAT (the file, named). Thread-safe.
 */
CZ_EXTERN int cz_prover_params_preload(cz_prover_t *p, const char *name, cz_params_item_t *item,
                                       cz_error_t *err);
/* Drop params |name| from the cache: CZ_ENOTFOUND when not loaded, CZ_EBUSY in use. */
CZ_EXTERN int cz_prover_params_evict(cz_prover_t *p, const char *name, cz_error_t *err);
/* Copy up to |cap| cached entries (most recent first); returns how many there are. */
CZ_EXTERN size_t cz_prover_params_list(cz_prover_t *p, cz_params_item_t *items, size_t cap);

/* ---- every kind: public inputs and verification ---------------------------- */

/* What the public values of a kind's input give. */
typedef struct cz_kind_public_info {
    size_t partitions;    /* proofs of 192 bytes the kind's proof holds */
    size_t per_partition; /* public inputs of each (ONE excluded) */
    char vk_name[256];    /* the Filecoin vk file name of the circuit */
    char summary[128];    /* "StackedDrgWindow2KiBV1_2, 2 sectors" */
    uint64_t reserved[8]; /* zeroed by the library (STRUCTS THAT GROW) */
} cz_kind_public_info_t;

/*
 * The public inputs a chain verifier computes for a proof of |kind| from
 * the public values in |input|: the same bytes cz_prover_submit takes
 * (porep-c2: the C1 JSON; winning-post / window-post: the PoSt input JSON;
 * snap: the snap request JSON); only the public values are read (vanilla
 * proofs are not checked). *inputs (caller frees): partitions x
 * per_partition field elements, 32 bytes little-endian each (the Fr repr),
 * partition-major, as cz_prover_public_inputs gives a DONE job's. |info|
 * may be NULL. CZ_EINVAL (unknown kind, bad public values), CZ_EFORMAT
 * (the input, naming the key), CZ_EUNAVAIL (a kind with no public values
 * to verify from: "circuit"), CZ_ENOMEM. Reentrant.
 */
CZ_EXTERN int cz_kind_public_inputs(const char *kind, const void *input, size_t input_len,
                                    uint8_t **inputs, cz_kind_public_info_t *info, cz_error_t *err);

/*
 * Verify a proof of |kind| (partitions x 192 bytes) from the public values
 * in |input| alone (cz_kind_public_inputs), as a chain verifier does.
 * |vk_path| is the verifying key file; NULL takes info->vk_name in
 * |params_dir|. |info| (may be NULL) is filled once the input is read,
 * whatever the verdict. CZ_OK valid, CZ_EVERIFY invalid; CZ_EFORMAT
 * (length, a bad point, the input), CZ_EINVAL (public values, a vk of
 * another circuit), CZ_EUNAVAIL, CZ_EIO / CZ_ENOTFOUND (the vk): never
 * "valid" unless it is. Reentrant; uses the calling thread only.
 */
CZ_EXTERN int cz_kind_verify(const char *kind, const void *input, size_t input_len,
                             const char *vk_path, const char *params_dir, const uint8_t *proof,
                             size_t len, cz_kind_public_info_t *info, cz_error_t *err);

/* ---- test params (NEVER FOR PRODUCTION) ------------------------------------ */

/*
 * Progress of cz_setup_test_params, on the calling thread: "synthesis" (fraction -1)
 * when the circuit's synthesis starts; "synthesized" (0) once its shape is
 * known (cz_setup_info_t's circuit and shape fields are set by then: the
 * place to print them before the long part); the setup's own phases
 * ("scalars", "G1 points", "G2 points") with the fraction done, 0..1;
 * "writing" (1) before the files are written. It must not call cz_setup_test_params.
 */
typedef void cz_setup_progress_cb(void *user, const char *phase, double fraction);

/*
 * TEST parameters: the toxic waste (tau, alpha, beta, gamma, delta) is
 * seen by this process; whoever knows it can forge proofs. Real Filecoin
 * parameters come from the trusted-setup ceremony and are downloaded.
 * One of |kind| (with |sector_size|: the kind's circuit of that size,
 * written under the Filecoin names in |params_dir| unless paths are given)
 * and |circuit| (a registry id, "bench:N" or "toy[:X]", with both paths).
 */
typedef struct cz_setup_request {
    const char *kind;        /* porep-c2, winning-post, window-post, snap; or NULL */
    uint64_t sector_size;    /* bytes, with |kind| */
    const char *circuit;     /* a registry circuit id instead of |kind|; or NULL */
    const char *params_path; /* NULL (with |kind|): DIR/<Filecoin name>.params */
    const char *vk_path;     /* given with params_path; NULL: DIR/<Filecoin name>.vk */
    const char *params_dir;  /* DIR (must exist); NULL: "." */
    bool seeded;             /* toxic waste from |seed| (reproducible, so forgeable by
                                    * anyone who knows it); false: the OS's CSPRNG */
    uint64_t seed;
    unsigned threads;               /* width of the thread pool; 0: every online CPU */
    cz_setup_progress_cb *progress; /* may be NULL */
    void *progress_user;
    uint64_t reserved[8]; /* must be zero: cz_setup_request_init (STRUCTS THAT GROW) */
} cz_setup_request_t;

/* What cz_setup_test_params made. */
typedef struct cz_setup_info {
    char circuit[64];                              /* the registry id ("porep:2KiB") */
    char params_path[1024], vk_path[1024];         /* the files written */
    size_t rows, domain_size, num_inputs, num_aux; /* the circuit's shape */
    size_t a_aux_popcount, b_input_popcount, b_aux_popcount;
    size_t n_h, n_l, n_a, n_b_g1, n_b_g2, n_ic; /* the params' vector lengths */
    size_t params_bytes;                        /* the params file's size */
    double t_synthesis, t_setup, t_write;       /* seconds */
    unsigned threads;                           /* the pool's width */
    uint64_t reserved[8];                       /* zeroed by the library (STRUCTS THAT GROW) */
} cz_setup_info_t;

/* Zero |req| (|reserved| included): no kind, no circuit, the OS's toxic waste. */
CZ_EXTERN void cz_setup_request_init(cz_setup_request_t *req);

/*
 * Make TEST params and their verifying key (bellperson's formats), both
 * files written atomically; |info| (may be NULL) says what was made, as far
 * as it got. Blocks: seconds at 2KiB, tens of minutes for a 32GiB PoRep
 * partition. Errors: CZ_EINVAL (the request: neither or both of kind and
 * circuit, an unknown kind or one without a test circuit, a sector size it
 * has none of, a bad circuit id, paths not given together; the message
 * names it), CZ_EIO (a file), CZ_ENOMEM. Reentrant (each call its own pool).
 */
CZ_EXTERN int cz_setup_test_params(const cz_setup_request_t *req, cz_setup_info_t *info,
                                   cz_error_t *err);

/* ---- PoRep C2: public values, file names, verification --------------------- */

/* What a chain verifier holds for a sealed sector. */
typedef struct cz_porep_public {
    uint64_t sector_size;   /* bytes: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB */
    uint8_t replica_id[32]; /* Fr reprs, in the C1 JSON's byte order */
    uint8_t comm_d[32], comm_r[32];
    uint8_t seed[32];             /* interactive randomness (not used by the
                                    * NonInteractivePoRep proofs: their challenges
                                    * follow from replica_id and comm_r) */
    const char *registered_proof; /* RegisteredSealProof name ("StackedDrg2KiBV1_1_Feat_
                                    * SyntheticPoRep", ...: it picks the challenges, the
                                    * partition count and the graph); NULL: the sector
                                    * size's V1_1. A static string when
                                    * cz_porep_public_from_c1 fills it */
    uint64_t reserved[4];         /* zero: the library zeroes it when it fills the
                                    * struct, and cz_porep_c2_verify refuses a
                                    * non-zero word (STRUCTS THAT GROW) */
} cz_porep_public_t;

/*
 * The public values of a C1 JSON (parsed strictly: CZ_EFORMAT naming the
 * JSON path). Reentrant.
 */
CZ_EXTERN int cz_porep_public_from_c1(cz_porep_public_t *out, const void *c1_json, size_t len,
                                      cz_error_t *err);

/*
 * The Filecoin file name of the production params of |sector_size|, |ext|
 * "params" or "vk" ("v28-stacked-proof-of-replication-merkletree-poseidon_
 * hasher-8-0-0-sha256_hasher-032d3138...2f.params" at 2KiB). 200 bytes
 * always suffice. CZ_EINVAL (size, ext, cap). Reentrant.
 */
CZ_EXTERN int cz_porep_params_file_name(char *out, size_t cap, uint64_t sector_size,
                                        const char *ext, cz_error_t *err);

/*
 * Verify a C2 proof (partitions x 192 bytes; NonInteractivePoRep: 13 or 126
 * partitions, not the SnarkPack aggregate) from the public values alone,
 * as a chain verifier does: the challenges, their parents and every
 * partition's public inputs are derived from replica_id, comm_d, comm_r,
 * seed and the sector size. |vk_path| is the verifying key file; NULL
 * takes the Filecoin vk name of the registered proof's circuit (the sector
 * size's V1_1 when registered_proof is NULL) in |params_dir|.
 * CZ_OK valid, CZ_EVERIFY invalid; CZ_EFORMAT (length, a bad point),
 * CZ_EINVAL (public values, a non-zero |reserved|, vk of another
 * circuit), CZ_EIO: never "valid"
 * unless it is. Reentrant; uses the calling thread only.
 */
CZ_EXTERN int cz_porep_c2_verify(const char *vk_path, const char *params_dir,
                                 const cz_porep_public_t *pub, const uint8_t *proof, size_t len,
                                 cz_error_t *err);

/* ---- tools: Groth16 proofs and vks, field elements, params, circuits --------
 * What the cuzk tool's commands (verify --vk, export, params check,
 * circuit shape, hash) need, so that no door reaches into the library's
 * layers.
 * Every function here is reentrant and uses the calling thread only.
 */

/*
 * A Groth16 verifying key (bellperson's .vk format: alpha_g1, beta_g1,
 * beta_g2, gamma_g2, delta_g1, delta_g2, then a u32 count of IC points
 * and the points, all uncompressed), every point checked on its curve and
 * in its subgroup when loaded. Read-only once made: one vk may be used
 * from any number of threads at once.
 */
typedef struct cz_groth16_vk cz_groth16_vk_t;

/*
 * Read the vk file at |path| (*out: free with cz_groth16_vk_free; NULL on
 * error). CZ_ENOTFOUND (no such file), CZ_EIO (unreadable), both naming
 * it; CZ_EFORMAT
 * (truncated, a bad point, trailing bytes: the message says which),
 * CZ_EINVAL (NULL argument).
 */
CZ_EXTERN int cz_groth16_vk_load(cz_groth16_vk_t **out, const char *path, cz_error_t *err);
/* The same from |len| bytes in memory (copied). */
CZ_EXTERN int cz_groth16_vk_parse(cz_groth16_vk_t **out, const uint8_t *bytes, size_t len,
                                  cz_error_t *err);
/* NULL is a harmless no-op. */
CZ_EXTERN void cz_groth16_vk_free(cz_groth16_vk_t *vk);
/* Public inputs a proof under |vk| takes (ONE excluded: IC points - 1). */
CZ_EXTERN size_t cz_groth16_vk_inputs(const cz_groth16_vk_t *vk);

/* The points of a vk, for cz_groth16_vk_point. */
typedef enum cz_groth16_vk_point_id {
    CZ_VK_ALPHA_G1,
    CZ_VK_BETA_G1,
    CZ_VK_BETA_G2,
    CZ_VK_GAMMA_G2,
    CZ_VK_DELTA_G1,
    CZ_VK_DELTA_G2,
    CZ_VK_IC, /* with an index 0..cz_groth16_vk_inputs() */
} cz_groth16_vk_point_id_t;

/* Bytes of an uncompressed point: x || y, each coordinate big-endian;
 * a G2 coordinate c1 || c0 (the ZCash / bellperson encoding). */
#define CZ_G1_UNCOMPRESSED_BYTES 96
#define CZ_G2_UNCOMPRESSED_BYTES 192
/* Bytes of one Groth16 proof (A, B, C compressed) and of it uncompressed. */
#define CZ_GROTH16_PROOF_BYTES 192
#define CZ_GROTH16_PROOF_UNCOMPRESSED_BYTES 384

/*
 * Point |which| of |vk| (|index|: the IC point's, else 0), uncompressed
 * into |out| (96 bytes for G1, 192 for G2; |cap| at least that). Returns
 * the bytes written, or a negative CZ_EINVAL (unknown point, index out of
 * range, |cap| too small: the message says which).
 */
CZ_EXTERN int cz_groth16_vk_point(const cz_groth16_vk_t *vk, cz_groth16_vk_point_id_t which,
                                  size_t index, uint8_t *out, size_t cap, cz_error_t *err);

/*
 * Decompress one proof (192 bytes: A, B, C) into |out|: A (96 bytes),
 * B (192), C (96), uncompressed as above. Every point checked on its curve
 * and in its subgroup: CZ_EFORMAT names the one that is not.
 */
CZ_EXTERN int cz_groth16_proof_points(uint8_t out[CZ_GROTH16_PROOF_UNCOMPRESSED_BYTES],
                                      const uint8_t proof[CZ_GROTH16_PROOF_BYTES], cz_error_t *err);

/*
 * Verify |len| / 192 proofs (len a non-zero multiple of 192; a
 * multi-partition proof) under |vk|, proof k against public inputs
 * |inputs| + k x cz_groth16_vk_inputs(vk) x 32 (|n_inputs| field elements
 * in all, 32-byte little-endian reprs, ONE excluded). CZ_OK when every
 * proof is valid, CZ_EVERIFY when one is not; CZ_EFORMAT (|len|, a bad
 * point), CZ_EMISMATCH (|n_inputs| is not partitions x the vk's inputs:
 * the message gives both), CZ_EINVAL (a repr that is not a field element,
 * named by its index; NULL argument). Never "valid" unless it is.
 */
CZ_EXTERN int cz_groth16_verify(const cz_groth16_vk_t *vk, const uint8_t *proof, size_t len,
                                const uint8_t *inputs, size_t n_inputs, cz_error_t *err);

/*
 * A field element of BLS12-381's scalar field (Fr) from text: a 0x-prefixed
 * hex or a decimal integer, below the modulus, into its 32-byte
 * little-endian repr. CZ_EFORMAT (not a number), CZ_ERANGE (not below
 * the modulus); the message quotes the text. |text| is not trimmed.
 */
CZ_EXTERN int cz_fr_repr_parse(uint8_t out[32], const char *text, cz_error_t *err);
/*
 * The element of repr |repr| as "0x" and 64 lowercase hex digits
 * (big-endian), or in decimal when |decimal|, into |out| (80 bytes always
 * suffice). CZ_EINVAL when |repr| is not an element or |cap| is too small.
 */
CZ_EXTERN int cz_fr_repr_format(char *out, size_t cap, const uint8_t repr[32], bool decimal,
                                cz_error_t *err);

/*
 * Parse a sector size ("2KiB", "8MiB", "512MiB", "32GiB", "64GiB", or the
 * bytes) into *bytes. CZ_EINVAL for text that is none of the five.
 */
CZ_EXTERN int cz_sector_size_parse(const char *text, uint64_t *bytes, cz_error_t *err);

/*
 * A Filecoin parameter manifest (rust-fil-proofs parameters.json: for
 * each .params and .vk file name its digest and sector size). Read-only
 * once loaded; any number of threads may read one.
 */
typedef struct cz_params_manifest cz_params_manifest_t;

/* One file of a manifest: borrowed strings, valid while the manifest is. */
typedef struct cz_params_manifest_entry {
    const char *name;     /* "v28-stacked-proof-of-replication-...vk" */
    const char *cid;      /* its IPFS cid */
    const char *digest;   /* 32 lowercase hex digits (cz_params_file_digest) */
    uint64_t sector_size; /* bytes */
    uint64_t reserved[4]; /* zeroed by the library (STRUCTS THAT GROW) */
} cz_params_manifest_entry_t;

/*
 * The manifest in the parameters.json file at |path|, or with |path| NULL
 * the v28 one built into the library (*out: free with
 * cz_params_manifest_free). CZ_EIO (the file), CZ_EFORMAT (naming the
 * entry), CZ_EUNAVAIL (a build without jansson), CZ_ENOMEM.
 */
CZ_EXTERN int cz_params_manifest_load(cz_params_manifest_t **out, const char *path,
                                      cz_error_t *err);
/* NULL is a harmless no-op. */
CZ_EXTERN void cz_params_manifest_free(cz_params_manifest_t *m);
/* Its files, sorted by name. */
CZ_EXTERN size_t cz_params_manifest_count(const cz_params_manifest_t *m);
/* File |i| (< count) into *out; CZ_ERANGE otherwise (*out zeroed). */
CZ_EXTERN int cz_params_manifest_entry(const cz_params_manifest_t *m, size_t i,
                                       cz_params_manifest_entry_t *out);
/* The index of file name |name| (no directory), or -1 when not listed. */
CZ_EXTERN long cz_params_manifest_find(const cz_params_manifest_t *m, const char *name);
/*
 * hex = the manifest digest of the file at |path|: the first 16 bytes of
 * its BLAKE2b-512, 32 lowercase hex digits (rust-fil-proofs' paramfetch).
 * Reads the whole file (minutes for a 32GiB .params). CZ_EIO.
 */
CZ_EXTERN int cz_params_file_digest(const char *path, char hex[33], cz_error_t *err);

/* What cz_circuit_describe found: one partition's shape. */
typedef struct cz_circuit_shape {
    char circuit[64];       /* the registry id described ("porep:2KiB") */
    size_t constraints;     /* the circuit's own (bellpepper's count) */
    size_t rows;            /* constraints + one per input: the length of a, b, c */
    size_t inputs, aux;     /* variables; inputs with ONE */
    size_t a_aux_density;   /* popcounts of the density bitmaps */
    size_t b_input_density; /* (the points an MSM of the prover touches) */
    size_t b_aux_density;
    double seconds;       /* the synthesis took */
    uint64_t reserved[8]; /* zeroed by the library (STRUCTS THAT GROW) */
} cz_circuit_shape_t;

/*
 * Synthesize one partition of a circuit in SHAPE mode (no field arithmetic
 * on values) and describe it: |kind| with |sector_size| (the kind's
 * circuit of that size, as cz_setup_test_params names it), or |circuit| a
 * registry id (toy[:X], bench:N, porep:SIZE, winning-post:SIZE,
 * window-post:SIZE, snap:SIZE, or porep-graph:NODES:LAYERS:CHALLENGES:
 * BASE-SUB-TOP for a PoRep of a custom graph). |threads|: the pool's width
 * (0: every online CPU). CZ_EINVAL (neither or both of kind and circuit, an
 * unknown kind or id, a size it has none of: the message names it),
 * CZ_ENOMEM. Blocks: seconds for a 32GiB PoRep partition.
 */
CZ_EXTERN int cz_circuit_describe(const char *kind, uint64_t sector_size, const char *circuit,
                                  unsigned threads, cz_circuit_shape_t *out, cz_error_t *err);

/*
 * Neptune's Poseidon over BLS12-381's Fr (the MerkleTree tag, as
 * Filecoin's trees hash): |arity| (2, 4, 8 or 11) elements at |inputs|,
 * 32-byte reprs, into the repr *out. CZ_EINVAL (another arity; an input
 * that is not a field element, named; NULL argument).
 */
CZ_EXTERN int cz_hash_poseidon(uint8_t out[32], const uint8_t *inputs, size_t arity,
                               cz_error_t *err);
/* SHA-256 of data[0..len) into out. */
CZ_EXTERN void cz_hash_sha256(uint8_t out[32], const void *data, size_t len);
/* SHA254: SHA-256 with out[31] &= 0x3f (a field element's repr), as tree_d hashes. */
CZ_EXTERN void cz_hash_sha254(uint8_t out[32], const void *data, size_t len);
/*
 * comm_d of |sector_size| zero bytes (the root of tree_d over them: a
 * committed-capacity sector's). CZ_EINVAL unless a power of two >= 64.
 */
CZ_EXTERN int cz_comm_d_zero(uint8_t out[32], uint64_t sector_size, cz_error_t *err);

/* ---- end of tools ----------------------------------------------------------- */

#ifdef __cplusplus
}
#endif
#endif /* CUZK_H */
