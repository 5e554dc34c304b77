/*
 * core/fault.h — fault injection in one place, in the manner of sqlite's
 * sqlite3FaultSim: every site that can fail for reasons a test cannot
 * easily provoke (an allocation, a durable write, a device call, a step of
 * the device region) asks its fault object first, and the test decides.
 *
 * A fault object is explicit state, owned by its creator (a test, the
 * daemon) and passed down — to the ctxs it should govern
 * (cz_ctx_set_fault), to an engine (cz_engine_config_t.fault), to a
 * journal, to a backend. There is no process-wide hook: code that was not
 * handed a fault object never fails on purpose.
 *
 * Each site has a counter of how often it was reached. A site fires:
 *   - when the object's callback (if set) returns a code for it (the
 *     callback may also block or sleep: tests use it to hold a device step
 *     while they act), else
 *   - on the n-th time it is reached when armed with cz_fault_arm(n, ...),
 *     and, with |persist|, every time after (cz_fault_arm_times: the k
 *     reaches n .. n+k-1).
 * A fired site returns its code (cz__fault_code) with a message "injected
 * fault: <site> #n" in the ctx; the caller then takes its normal error path.
 * A site armed with a delay instead sleeps that long when it fires and
 * passes: a stand-in for a step that takes time (a long MSM), so tests can
 * show what happens meanwhile (cancel, shutdown) without a large job.
 *
 * The spec "site:n[+|xK][~MS]" (e.g. "write:3", "device:1+", "write:2x3"
 * (reaches 2, 3, 4), "device_step:1+~1500"; several comma-separated) arms
 * from text, for configuration (the daemon's test.fault key).
 *
 * Thread-safety: every function may be called from any thread; counters and
 * arming are atomic. The callback runs on the thread that reached the site.
 */
#ifndef CUZK_CORE_FAULT_H
#define CUZK_CORE_FAULT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"

typedef enum {
    CZ_FAULT_ALLOC,        /* a large allocation (cz__fault_malloc): CZ_ENOMEM */
    CZ_FAULT_WRITE,        /* a durable file write (journal put): CZ_EIO */
    CZ_FAULT_DEVICE,       /* a device region is entered: CZ_EDEVICE */
    CZ_FAULT_DEVICE_STEP,  /* a step boundary inside the device region: CZ_EDEVICE */
    CZ_FAULT_PREPARE,      /* a job kind's prepare, in the prover's submit: CZ_ENOMEM
                             * (delayed: a stand-in for a 32GiB C1's seconds of prepare) */
    CZ_FAULT_PARAMS_LOAD,  /* a prover's params load, before the file is read: CZ_EIO
                             * (delayed or held by a callback: a stand-in for minutes of
                             * 32GiB load) */
    CZ_FAULT_DEVICE_ALLOC, /* a GPU region's device-memory plan applied, before its
                              * allocations: CZ_ENOMEM, as a cudaMalloc that found the
                              * memory taken (a callback may take it for real) */
    CZ_FAULT__COUNT
} cz_fault_site_t;

/* Return 0 to let the site pass, or a negative CZ_E* code to fail it. n counts from 1. */
typedef int cz_fault_cb(void *arg, cz_fault_site_t site, uint64_t n);

typedef struct cz_fault {
    cz_fault_cb *cb; /* set before sharing; may be NULL */
    void *cb_arg;
    _Atomic uint64_t reached[CZ_FAULT__COUNT];   /* times each site was reached */
    _Atomic uint64_t fail_at[CZ_FAULT__COUNT];   /* 0: not armed */
    _Atomic uint64_t fire_last[CZ_FAULT__COUNT]; /* the last reach that fires */
    _Atomic uint32_t delay_ms[CZ_FAULT__COUNT];  /* > 0: fire = sleep, then pass */
} cz_fault_t;

/* Zero counters, nothing armed, no callback. */
void cz_fault_init(cz_fault_t *f);
/* Fire |site| on its n-th reach (counted from now on: the counter is reset), and
 * every later one with |persist|. n = 0 disarms. */
void cz_fault_arm(cz_fault_t *f, cz_fault_site_t site, uint64_t n, bool persist);
/* Fire on reaches n .. n+times-1 (times 0: every one from n); a firing sleeps
 * |ms| milliseconds and passes instead when ms > 0. */
void cz_fault_arm_times(cz_fault_t *f, cz_fault_site_t site, uint64_t n, uint64_t times,
                        uint32_t ms);
/* How often |site| was reached. NULL f: 0. */
uint64_t cz_fault_reached(const cz_fault_t *f, cz_fault_site_t site);
/* "alloc", "write", "device", "device_step", "prepare", "params_load", "device_alloc". */
const char *cz_fault_site_name(cz_fault_site_t site);
/* The code a fired site returns (CZ_ENOMEM for alloc and prepare, CZ_EIO for write and
 * params_load, CZ_EDEVICE else). */
int cz__fault_code(cz_fault_site_t site);
/* Arm from "site:n[+|xK][~MS],..." (see above). CZ_EINVAL naming the bad part, in ctx. */
int cz_fault_parse(cz_fault_t *f, cz_ctx_t *ctx, const char *spec);

/*
 * The site check: count the reach and decide. CZ_OK, or the site's code
 * with "injected fault: ..." in ctx (ctx may be NULL). f NULL: always CZ_OK,
 * at the cost of one branch.
 */
int cz__fault_sim(cz_fault_t *f, cz_ctx_t *ctx, cz_fault_site_t site);

/* The ctx's fault object (borrowed; NULL: none). Set before the ctx is used. */
void cz_ctx_set_fault(cz_ctx_t *ctx, cz_fault_t *f);
cz_fault_t *cz_ctx_fault(const cz_ctx_t *ctx);

/*
 * The allocation wrapper for large buffers: malloc(n), or NULL with the
 * ALLOC site fired (as if malloc had failed) when the ctx's fault object
 * says so. Callers report CZ_ENOMEM as for any failed malloc. Free with free().
 */
void *cz__fault_malloc(cz_ctx_t *ctx, size_t n);
void *cz__fault_calloc(cz_ctx_t *ctx, size_t count, size_t size);
/* realloc(p, n), or NULL (p untouched) when the ALLOC site fires. */
void *cz__fault_realloc(cz_ctx_t *ctx, void *p, size_t n);
/* posix_memalign(out, align, n) as an int: 0, or CZ_ENOMEM when it or the ALLOC site fails. */
int cz__fault_memalign(cz_ctx_t *ctx, void **out, size_t align, size_t n);

#endif /* CUZK_CORE_FAULT_H */
