/*
 * backend/cuda/backend_int.h — the CUDA backend's state and the functions
 * its files share (private to them; the backend's contract is backend.h,
 * its constructor cuda.h's cz_cuda_backend_new, its design the comment at
 * the top of cuda_backend.c). The files, one concern each:
 *   cuda_backend.c      the ops table, create, free, report
 *   backend_params.c    device memory held, resident sets, uploads, pinned copies
 *   backend_plan.c      the device-memory plan applied, re-planned on ENOMEM
 *   backend_stream.c    streamed vectors through the plan's windows
 *   backend_stage.c     a/b slots, a/b pinned in place, the splits' tails slots
 *   backend_region.c    one region of a batch: the steps in order, its figures
 *   backend_h.c         the H and the H MSM
 *   backend_tails.c     the L, A, B1, B2 MSMs
 *   backend_prepare.c   prepare/settle: the first region's set-up ahead of it
 *
 * Locks (cuda_backend_t): cmu guards the contexts (H, MSM, copier, own
 * windows, bounce pair), the resident sets and the plan; the region holds
 * it throughout (but while it waits for the preparer on ccv) and the
 * preparer while it plans (never under a running region: region_running)
 * and claims or publishes a vector. smu guards the
 * slots, the preparer's flags and the report's figures. Lock order: the
 * engine's device lock, cmu, smu; cmu is never taken with smu held. Each
 * function below says which it needs (CZ_ASSERT(cz_mutex_held(&cb->cmu))
 * where cmu must be held). Memory: everything here belongs to the backend
 * object; a work item's arrays are the engine's (backend.h). Errors: CZ_*
 * codes with the ctx's message; a NULL ctx drops the message (threads of
 * the backend's own).
 */
#ifndef CUZK_BACKEND_CUDA_BACKEND_INT_H
#define CUZK_BACKEND_CUDA_BACKEND_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "backend/cuda/cuda.h"
#include "backend/devplan.h"
#include "backend/windows.h"
#include "core/mutex.h"
#include "ff/ntt.h"

#define CZ__RESIDENT_SETS 4
#define CZ__STAGE_SLOTS 2 /* = the default workers per device: none of them waits */
#define CZ__GIB ((size_t)1 << 30)
#define CZ__HEADROOM (2 * CZ__GIB) /* left free for CUDA itself and other users */
/*
 * Left free in the device's free memory at every plan: what the runtime
 * still takes after the backend's start (modules loaded at first launch,
 * cub's and the driver's small allocations, 2 MiB allocation granules).
 * Its big lazy taker, the kernels' local memory, is reserved at the start
 * (cz_cuda_reserve_stack), so it is already out of the free memory read.
 * A plan that still finds too little re-plans smaller (cz__cb_plan_region).
 */
#define CZ__RUNTIME_SLACK ((size_t)512 << 20)

/* the params vectors (backend.h's order) */
enum {
    V_H = CZ_BASES_H,
    V_L = CZ_BASES_L,
    V_A = CZ_BASES_A,
    V_B1 = CZ_BASES_B1,
    V_B2 = CZ_BASES_B2,
    V_COUNT = CZ_BASES_COUNT
};

#define CZ__POINT_MAX sizeof(blst_p2_affine)

/*
 * One params vector: where it is on the device and its fingerprint, a COPY
 * of its first and last points (the params may be freed and others made at
 * their address: they are never read after the region that uploaded them).
 * A work item's vector, described (cz__cb_describe), is the same record with no
 * device copy: what a resident one must match.
 */
typedef struct {
    size_t n; /* points */
    size_t point_bytes;
    void *dev;          /* NULL: not resident (streamed, or the CPU path) */
    cz_cuda_pinned pin; /* a streamed vector's points in pinned host memory (or zeroed) */
    bool loading;       /* (cmu) the preparer is uploading or pinning it, cmu released:
                              * wait on ccv */
    void *claimed;      /* (cmu) loading: the device memory the preparer fills for it (held,
                         * counted in cz__cb_resident_bytes; |dev| once published) */
    uint8_t first[CZ__POINT_MAX], last[CZ__POINT_MAX];
} rvec;

typedef struct {
    const void *id; /* params_id; NULL: free slot */
    rvec v[V_COUNT];
    uint64_t last_use;
} rset;

/* One split's copy in a tails slot: its bitmap, indices and scalars on the device. */
typedef struct {
    const uint64_t *ones;
    const uint32_t *sig_index;
    const blst_scalar *sig_scalar;
} dev_split;

enum { T_L, T_A, T_B, T_COUNT }; /* the splits: l, a, b (B1 and B2 share b) */

/*
 * Device memory holding one partition's a and b, staged before the region
 * (a at dev, b at dev + 2^log_m), or in a tails slot its three splits (where
 * |split| says). dev and cap change only with cmu AND smu
 * held, while the slot is idle; busy and resizing under smu. The bounce
 * pair is used by the slot's holder only (busy).
 */
typedef struct {
    cz_fr *dev;               /* NULL: none yet */
    size_t cap;               /* 32-byte elements (a and b together in an a/b slot) */
    bool busy;                /* a partition's data is in it (or going in) */
    bool resizing;            /* cz__cb_size_slots is replacing dev: take_slot skips it */
    void *bounce[2];          /* a/b slots: pinned, CZ__BOUNCE_BYTES each (cz__cb_ensure_pair) */
    dev_split split[T_COUNT]; /* tails slots: where the holder's splits lie in dev */
} stage_slot;

/* A partition's splits this region put in the H result's spent buffer (split k there where
 * split[k].ones is set). */
typedef struct {
    const cz_prove_work_t *w;
    dev_split split[T_COUNT];
} region_splits;

typedef struct cuda_backend {
    cz_backend_t base;
    pthread_mutex_t smu; /* protects slots[] (stage runs outside the device lock) */
    pthread_cond_t scv;  /* a slot became free */
    stage_slot slots[CZ__STAGE_SLOTS];
    stage_slot tslots[CZ__STAGE_SLOTS]; /* the splits' copies (stage_tails) */
    size_t tails_want;                  /* (smu) elements the largest missed splits needed */
    /* prepare(): one preparer at a time (smu) */
    pthread_t preparer;
    bool preparing, preparer_joinable; /* (smu); settle() waits on scv for !preparing */
    cz_prove_work_t prepare_bases;     /* the preparer's argument, written before it starts */
    /* (smu) the params set last seen wholly resident, with contexts for prepared_log: a
     * hint that lets prepare() return at once without cmu (a region may hold it) */
    const void *prepared_id;
    rvec prepared_h; /* its h vector's fingerprint */
    unsigned prepared_log;
    cz_mutex_t cmu;     /* h, h_log, msm, bounce, sets: the region and the preparer */
    pthread_cond_t ccv; /* (cmu) the preparer published a vector or finished */
    rset *preload_set;  /* (cmu) the set the preparer uploads, NULL: none; its
                                      * vectors k >= preload_next are still to come */
    int preload_next;
    bool region_running; /* (cmu) a region holds cmu, or waits on ccv with it released: a
                          * preparer starting waits for its end (else it could plan and free
                          * the contexts under that region while it waits for a vector) */
    cz_cuda_backend_opts_t opts;
    size_t limit;          /* device bytes this backend may hold */
    cz_devplan plan;       /* (cmu) the last region's or preparer's plan */
    cz_devplan_in plan_in; /* (cmu) what it was made from */
    char plan_line[320];   /* (smu) plan, printed (cuda_report) */
    unsigned long long regions, partitions, h2d_total, replans; /* (smu) for cuda_report */
    cz_region_parts parts;                                      /* (smu) for cuda_report */
    unsigned long long splits_moved;  /* (smu) cz__cb_splits_to_spent_result's, for cuda_report */
    unsigned long long pinned;        /* (smu) partitions cz__cb_pin page-locked, for cuda_report */
    unsigned long long windows_ahead; /* (smu) cz_window_stats.ahead summed, for cuda_report */
    /* the splits this region put on the device (device lock and cmu held; empty outside) */
    region_splits rsplits[CZ_BACKEND_MAX_BATCH];
    size_t n_rsplits;
    cz_cuda_h *h;
    unsigned h_log;
    cz_cuda_msm *msm;
    size_t msm_chunk;       /* the workspace's chunk (CZ__MSM_CHUNKS) */
    cz_cuda_copier *copier; /* streamed windows' copies */
    cz_window_ahead ahead;  /* (cmu) the next streamed vector's window 0, copied ahead (a
                             * region's only: cz__cb_settle_ahead before its buffers change hands) */
    void *own_win[2];       /* STREAM_HOST_H: the windows' own buffers */
    cz_cuda_h *turn_h;      /* plan.h_in_turn: the H context, its device buffers given back
                             * between turns (its pinned host memory kept) */
    unsigned turn_h_log;
    size_t own_win_bytes;
    cz_ntt_domain *cpu_dom; /* STREAM_HOST_H: the CPU's H domain */
    size_t h2d_bytes;       /* params bytes to the device in the running region */
    unsigned region_ahead;  /* first windows found copied ahead in the running region */
    rset sets[CZ__RESIDENT_SETS];
    void *bounce[2];               /* pinned, CZ__BOUNCE_BYTES each; used under cmu */
    void *pbounce[2];              /* the preparer's own pair: it uploads with cmu released */
    double upload_s;               /* params upload time of the region running (device lock) */
    uint64_t clock;                /* region counter, for LRU */
    _Atomic unsigned batch_advice; /* batch_max's answer, from the last plan (advise_batch) */
} cuda_backend_t;

#define CZ__BOUNCE_BYTES ((size_t)128 << 20)

/*
 * The bounce fill: a memcpy on threads of its own (the count is the fill
 * argument). Not on the ctx's pool: on the cold path the pool is busy with
 * the next partition's synthesis and this partition's prep, and a pool
 * section then runs on the calling thread alone.
 *
 * The region fills with CZ__FILL_REGION threads. The preparer, whose upload
 * of a 32GiB set bounds the first region, fills with CZ__FILL_PRELOAD: with
 * 8 threads, against the next partition's synthesis on all 16 cores of the
 * H200 host, 44 GiB took ~4.6 s of a cold C2 (9.6 GB/s; 19.6 GB/s alone),
 * and that synthesis has time to spare then (its region waits for the
 * first one).
 */
#define CZ__FILL_REGION 8u
#define CZ__FILL_PRELOAD 16u
#define CZ__FILL_MAX 16u

/*
 * What a bounce fill copies from: a host array, or vector k of a work
 * item's bases (read from its host copy or its params' source, which then
 * writes the points straight into the bounce buffer: no host copy of the
 * vector is made). unit: the bytes a thread's slice may not split (a cache
 * line for arrays, a point for a source).
 */
typedef struct {
    unsigned threads; /* 1..CZ__FILL_MAX */
    const char *host; /* NULL: w's vector k */
    const cz_prove_work_t *w;
    int k;
    size_t unit;
    size_t first; /* w's vector k: the point at offset 0 */
    bool decoded; /* w's vector k: affine points, never the file's encoding */
} fill_from;

/* ---- backend_params.c: device memory held, resident sets, uploads, pinned copies ---- */

/* Device bytes of the resident vectors of every set, and of those the preparer is filling. */
size_t cz__cb_resident_bytes(const cuda_backend_t *cb);
/* Does vector |k| go to the device? All do but b_g2 with g2_on_cpu (the epilogue's then). */
bool cz__cb_on_device(const cuda_backend_t *cb, int k);
/* May |s| not be dropped (the preparer works on it)? cmu held. */
bool cz__cb_set_busy(const cuda_backend_t *cb, const rset *s);
/* Is vector |k| of |s| still to come from the preparer? cmu held. */
bool cz__cb_preload_pending(const cuda_backend_t *cb, const rset *s, int k);
/* Free |s|'s device and pinned copies; the slot becomes free. cmu held, |s| not loading. */
void cz__cb_drop_set(const cuda_backend_t *cb, rset *s);
/* Room for |bytes| more, under the limit and in the device's free memory? */
bool cz__cb_room_for(cz_ctx_t *ctx, const cuda_backend_t *cb, size_t bytes);
/* Is the vector fingerprinted in |r| the one described in |want|? */
bool cz__cb_same_vector(const rvec *r, const rvec *want);
/* Vector |k| (or every vector) of |w| described: length and fingerprint. May read a
 * params file: before cmu. */
void cz__cb_describe_one(rvec *v, const cz_prove_work_t *w, int k);
void cz__cb_describe(rvec v[V_COUNT], const cz_prove_work_t *w);
/* Device bytes of a whole described set (the vectors its regions put on the device). */
size_t cz__cb_set_bytes(const cuda_backend_t *cb, const rvec want[V_COUNT]);
/* The set of |w|'s params (NULL: none; a stale one under the same id dropped), or a new
 * one (the least recently used idle set replaced). cmu held. */
rset *cz__cb_find_set(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec want[V_COUNT]);
rset *cz__cb_new_set(cuda_backend_t *cb, const cz_prove_work_t *w);
/* A fill_from's bytes [off, off + len) into |dst| on its threads (cz_cuda_fill_fn). */
int cz__cb_fill_threads(void *arg, void *dst, size_t off, size_t len);
/* Two pinned bounce buffers in |pair| if it has none (left NULL when pinning fails). */
void cz__cb_ensure_pair(void *pair[2]);
/* |bytes| of pageable host memory to the device, through |pair| when large. */
int cz__cb_upload_pageable(cz_ctx_t *ctx, void *pair[2], unsigned fill, void *dev, const void *host,
                           size_t bytes);
/* Vector |k| of |w| to |dev|: from its host copy, else its source (a file's decoded on the
 * device). */
int cz__cb_upload_bases(cz_ctx_t *ctx, void *pair[2], unsigned fill, void *dev,
                        const cz_prove_work_t *w, int k);
/* |r| made |want| with room allocated for it (NULL: it does not fit; *rc: a failure). cmu
 * held. */
void *cz__cb_claim_vector(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, rvec *r, const rvec *want,
                          int *rc);
/* Vector |k| resident, uploaded now if it fits (NULL: not resident, the CPU's). cmu held;
 * waits for the preparer on ccv. */
const void *cz__cb_ensure_vector(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set,
                                 const cz_prove_work_t *w, int k, const rvec *want, int *rc);
/* A streamed vector's pinned host copy, counted in the host gate first (left zeroed where
 * it does not fit or fails). No lock needed: |pin| is the caller's until published. */
void cz__cb_pin_points(const cuda_backend_t *cb, cz_cuda_pinned *pin, const cz_prove_work_t *w,
                       int k, unsigned fill);
/* Does |r| hold |want|'s points (pinned copy or device)? |r| becomes |want| with none. cmu
 * held. */
bool cz__cb_holds_points(const rvec *r, const rvec *want);
void cz__cb_forget_points(const cuda_backend_t *cb, rvec *r, const rvec *want);
/* Vector |k|'s pinned copy, made now if the preparer has not (NULL: none). cmu held. */
const void *cz__cb_pinned_vector(cuda_backend_t *cb, rset *set, const cz_prove_work_t *w, int k,
                                 const rvec *want);

/* ---- backend_plan.c: the device-memory plan ---------------------------------------- */

/* Plan |w|'s set from the free memory now and apply it (re-planned once on ENOMEM). cmu
 * held. */
int cz__cb_plan_region(cz_ctx_t *ctx, cuda_backend_t *cb, rset *keep, const cz_prove_work_t *w,
                       const rvec want[V_COUNT]);
/* The plan's MSM workspace, bucket cap and own windows: made where missing; their bytes;
 * given back (the H in turn takes their place). cmu held. */
int cz__cb_msm_room(cz_ctx_t *ctx, cuda_backend_t *cb);
size_t cz__cb_msm_room_bytes(const cuda_backend_t *cb);
void cz__cb_give_back_msm_room(cuda_backend_t *cb);
/* Does the plan keep vector |k| resident (or try to)? Stream it? cmu held. */
bool cz__cb_plan_keeps(const cuda_backend_t *cb, int k);
bool cz__cb_plan_streams(const cuda_backend_t *cb, int k);

/* ---- backend_stream.c: streamed vectors ------------------------------------------- */

/* The window copied ahead landed and dropped (before its buffer changes hands). cmu held. */
void cz__cb_settle_ahead(cuda_backend_t *cb);
/* Vector |k| as the next one to stream, if its pinned copy is ready now (.pinned NULL:
 * not). cmu held. */
cz_window_vector cz__cb_next_vector(const cuda_backend_t *cb, const rset *set, int k,
                                    const rvec *want, size_t head, size_t align);
/* Vector |k| of |w| through the plan's windows to |consume|; |next|'s window 0 copied
 * ahead during its last. cmu held. */
int cz__cb_stream_vector(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *w, int k,
                         const rvec *want, size_t head, size_t align, cz_window_consume *consume,
                         void *arg, const cz_window_vector *next);

/* ---- backend_stage.c: staging outside the device lock ------------------------------ */

/* Device bytes of the slots (smu or cmu held). */
size_t cz__cb_slot_bytes(const cuda_backend_t *cb);
/* Every idle slot of |pool| given room for |need| elements where the device has it (cmu
 * held; takes smu). */
void cz__cb_size_slots(cz_ctx_t *ctx, cuda_backend_t *cb, stage_slot *pool, size_t need);
/* The idle slots' device memory freed, for params (cmu held); true if any was. */
bool cz__cb_drop_idle_slots(cuda_backend_t *cb);
/* Bytes of one split's device copy; the split put at *at (device), which moves past it. */
size_t cz__cb_split_bytes(const cz_scalar_split *sp);
int cz__cb_put_split(cz_ctx_t *ctx, char **at, const cz_scalar_split *sp, dev_split *d);
/* ops->stage, unstage, pin, unpin, stage_tails, unstage_tails (backend.h). */
int cz__cb_stage(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *w);
void cz__cb_unstage(cz_backend_t *be, cz_prove_work_t *w);
void cz__cb_pin(cz_backend_t *be, cz_prove_work_t *w);
void cz__cb_unpin(cz_backend_t *be, cz_prove_work_t *w);
void cz__cb_stage_tails(cz_backend_t *be, cz_prove_work_t *w);
void cz__cb_unstage_tails(cz_backend_t *be, cz_prove_work_t *w);

/* ---- backend_region.c: one region ------------------------------------------------- */

/* The region of ws[0 .. n) (one params set); each partition's outcome in res[i]; returns
 * the region's own error. Takes cmu (the device lock held by the caller). */
int cz__cb_region_of(cuda_backend_t *cb, cz_ctx_t *ctx, cz_prove_work_t *const *ws, size_t n,
                     cz_batch_result *res);
/* Partition |res| leaves the batch with |rc| and the ctx's message (cleared). */
void cz__cb_leave_batch(cz_ctx_t *ctx, cz_batch_result *res, int rc);
/* The partitions of ws[0 .. n) still in the batch into live[]; their count. */
size_t cz__cb_live_of(cz_prove_work_t *const *ws, size_t n, const cz_batch_result *res,
                      cz_prove_work_t **live);

/* ---- backend_h.c: the H and the H MSM ---------------------------------------------- */

/* |w|'s H coefficients and its H MSM; the region's |last| H MSM copies the first streamed
 * tail's window 0 ahead. cmu held. */
int cz__cb_h_part(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *w,
                  const rvec want[V_COUNT], bool last);

/* ---- backend_tails.c: L, A, B1, B2 ------------------------------------------------- */

/* The tails' resident vectors the preparer is not loading, uploaded before the prep wait.
 * cmu held. */
int cz__cb_tails_ahead(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, const cz_prove_work_t *w,
                       const rvec want[V_COUNT]);
/* The first streamed tail after tail |ti| (-1: after the H MSMs), as cz__cb_next_vector
 * gives it. cmu held. */
cz_window_vector cz__cb_next_streamed_tail(const cuda_backend_t *cb, const rset *set,
                                           cz_prove_work_t *w, const rvec want[V_COUNT], int ti);
/* The splits no tails slot holds, into the H's spent result (streamed tails only). */
int cz__cb_splits_to_spent_result(cz_ctx_t *ctx, cuda_backend_t *cb, cz_prove_work_t *const *ws,
                                  size_t n);
/* The tails of the batch's partitions still in it (res). cmu held. */
int cz__cb_tails_part(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *const *ws,
                      size_t n, const rvec want[V_COUNT], cz_batch_result *res);

/* ---- backend_prepare.c: prepare and settle ----------------------------------------- */

/* Is |w|'s set resident, every vector of it? cmu held. */
bool cz__cb_set_resident(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec want[V_COUNT]);
/* Record (smu) what a region or the preparer found wholly resident (|w| NULL: nothing). */
void cz__cb_note_prepared(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec *h,
                          unsigned h_log);
/* ops->prepare and ops->settle (backend.h). */
void cz__cb_prepare(cz_backend_t *be, const cz_prove_work_t *bases);
void cz__cb_settle(cz_backend_t *be);

#endif /* CUZK_BACKEND_CUDA_BACKEND_INT_H */
