/*
 * backend/cuda/cuda_backend.c — the CUDA backend (backend.h): the whole
 * device region of a partition on one GPU.
 *
 * The region, with the device lock held:
 *   1. H: a, b (and c, or c = a∘b on the device) uploaded and transformed
 *      (cz_cuda_h); the coefficients stay on the device;
 *   2. the H MSM, its scalars read in place from the H result;
 *   3. the wait for prep (it normally finished long before: W=2 overlaps it);
 *   4. L, A, B1 (G1) and B2 (G2): inputs by a small MSM, the ones by batch
 *      addition over the bitmap, the significant rest by an MSM over
 *      gathered bases (the split's bitmap, indices and scalars read where
 *      prep staged them on the device, else uploaded from the host).
 * Everything runs on the device except sums of a few points (blst).
 *
 * Resident bases: a params set's vectors (h, l, a, b_g1, b_g2) are uploaded
 * on its first region and kept, up to CZ__RESIDENT_SETS sets, least recently
 * used evicted first, while they fit device_mem_limit and the device's free
 * memory. Where the whole set does not fit, each region's plan
 * (backend/devplan.h, made from the memory free at that moment: make_plan,
 * apply_plan) keeps some vectors resident and streams the others through
 * the device in windows (windows.h) from pinned host copies made once per
 * set; where not even the H context fits the H is made on the CPU, and
 * where nothing fits the MSMs run on the CPU from the host bases (slower,
 * but the partition is proved). A set is
 * recognised by params_id plus a fingerprint (the vectors' lengths and
 * first and last points), so a params object freed and other params loaded
 * at the same address are told apart; params that differ from the freed
 * ones only inside a vector are not (a params file must not change under
 * a running prover: tests/gpu shows the case). The host bases are read
 * from the work item's source when its pointers are NULL (backend.h):
 * params kept out of host memory stay out of it.
 *
 * Staging (outside the device lock): a and b are uploaded into one of
 * CZ__STAGE_SLOTS device buffers while another partition's region runs, so
 * the region's H starts on data already on the device; its first step
 * copies them into the H context and gives the slot back. The slots are
 * sized under cmu (by the preparer, and at a region's end) only where the
 * device has room beside the resident params, which come first (make_room
 * drops idle slots before it gives up on a vector). Without a slot a
 * partition goes unstaged: its region uploads a and b itself, through
 * bounce buffers. (Pinned host slots came before: 16 GiB of host memory at
 * 2^27, seconds of pinning at a cold start, and the region still uploaded.)
 * The three scalar splits go the same way into CZ__STAGE_SLOTS tails slots,
 * uploaded by prep's thread once it built them (stage_tails), so the tails
 * no longer upload their bitmaps, indices and scalars inside the region
 * (~0.5 GB, 108 ms, in the 32GiB-shaped bench partition; far less in real
 * PoRep partitions, whose splits have fewer significant scalars). A tails slot is taken without waiting (prep
 * must not wait on a region that waits for it) and held until the
 * partition is released; a miss leaves the splits on the host and records
 * their size, and the next region's end sizes the idle tails slots to it.
 *
 * One device context (H buffers, MSM workspace, resident sets) serves all
 * of the device's workers: the engine calls device() under the device's
 * lock, so calls never overlap (ARCHITECTURE.md); the memory is per device,
 * not per worker. prepare() (at a job's submission) makes the H and MSM
 * contexts and the bounce buffers on a thread of its own (done in the first
 * region they cost it seconds at 32GiB), and the staging slots when the
 * whole set fits beside them. Then it uploads the
 * params set, one vector at a time, h first, each copy with cmu released
 * and the vector marked loading: the first region starts meanwhile (its H
 * needs no params) and waits for a vector only where it needs it. The
 * contexts and the resident sets are guarded by cmu, which the region
 * holds throughout (but for those waits) and the preparer while it makes
 * the contexts and claims or publishes a vector (lock order: the engine's
 * device lock, cmu, smu; cmu is never taken with smu held). A set with a
 * vector loading is never evicted.
 *
 * Errors: a CUDA failure is CZ_EDEVICE with CUDA's message; after a sticky
 * fault every later region fails the same way and the engine marks the
 * device failed. A fired DEVICE fault site (core/fault.h: the ctx's or
 * the backend's own fault object) makes the region hit a real kernel fault.
 * Cancellation and DEVICE_STEP faults: cz_backend_step before each step.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "backend/cpu/h.h"
#include "backend/cuda/cuda.h"
#include "backend/windows.h"
#include "backend/devplan.h"
#include "core/clock.h"
#include "core/mutex.h"
#include "core/pool.h"

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
 * A plan that still finds too little re-plans smaller (cuda_prove).
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
 * A work item's vector, described (describe), is the same record with no
 * device copy: what a resident one must match.
 */
typedef struct {
    size_t n; /* points */
    size_t point_bytes;
    void *dev;          /* NULL: not resident (streamed, or the CPU path) */
    cz_cuda_pinned pin; /* a streamed vector's points in pinned host memory (or zeroed) */
    bool loading;       /* (cmu) the preparer is uploading or pinning it, cmu released:
                              * wait on ccv */
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
    bool resizing;            /* size_slots is replacing dev: take_slot skips it */
    void *bounce[2];          /* a/b slots: pinned, CZ__BOUNCE_BYTES each (ensure_pair) */
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
    cz_cuda_backend_opts_t opts;
    size_t limit;          /* device bytes this backend may hold */
    cz_devplan plan;       /* (cmu) the last region's or preparer's plan */
    cz_devplan_in plan_in; /* (cmu) what it was made from */
    char plan_line[320];   /* (smu) plan, printed (cuda_report) */
    unsigned long long regions, partitions, h2d_total, replans; /* (smu) for cuda_report */
    cz_region_parts parts;                                      /* (smu) for cuda_report */
    unsigned long long splits_moved;  /* (smu) splits_to_spent_result's, for cuda_report */
    unsigned long long pinned;        /* (smu) partitions cuda_pin page-locked, for cuda_report */
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
                             * region's only: settle_ahead before its buffers change hands) */
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


/* ---- device memory accounting --------------------------------------------------- */

static size_t resident_bytes(const cuda_backend_t *cb)
{
    size_t sum = 0;
    for (int s = 0; s < CZ__RESIDENT_SETS; s++)
        for (int v = 0; v < V_COUNT; v++)
            if (cb->sets[s].v[v].dev)
                sum += cb->sets[s].v[v].n * cb->sets[s].v[v].point_bytes;
    return sum;
}

static size_t slot_bytes(const cuda_backend_t *cb);
static bool drop_idle_slots(cuda_backend_t *cb);

/* Does vector |k| go to the device? All do but b_g2 with g2_on_cpu (the epilogue's then). */
static bool on_device(const cuda_backend_t *cb, int k)
{
    return k != V_B2 || !cb->opts.g2_on_cpu;
}

/* The MSM workspaces a plan may choose, largest first (devplan.h's msm_bytes). */
static const size_t CZ__MSM_CHUNKS[CZ_DEVPLAN_MSM_SIZES] = { (size_t)1 << 24, (size_t)1 << 22,
                                                             (size_t)1 << 20 };
#define CZ__BUCKET_LEAST ((size_t)512 << 20) /* cz_cuda_msm_set_bucket_cap's least */
#define CZ__OWN_WINDOW ((size_t)512 << 20)   /* STREAM_HOST_H: each window buffer */

static size_t fixed_bytes(const cuda_backend_t *cb)
{
    /* buckets: up to the plan's cap (5 GiB at most, cuda.h), allocated on need */
    const size_t buckets = cb->plan.bucket_cap ? cb->plan.bucket_cap : 5 * CZ__GIB;
    return (cb->h ? cz_cuda_h_mem_bytes_buffers(cb->h_log, cz_cuda_h_buffers(cb->h)) : 0) +
           cz_cuda_h_held_bytes(cb->turn_h) + (cb->msm ? cz_cuda_msm_mem_bytes(cb->msm_chunk) : 0) +
           slot_bytes(cb) + buckets + (cb->own_win[0] ? 2 * cb->own_win_bytes : 0);
}

/* Is the preparer uploading into |s| (cmu released meanwhile)? Such a set is never dropped. */
static bool set_loading(const rset *s)
{
    for (int v = 0; v < V_COUNT; v++)
        if (s->v[v].loading)
            return true;
    return false;
}

/* May |s| be dropped? Not while the preparer works on it (cmu held). */
static bool set_busy(const cuda_backend_t *cb, const rset *s)
{
    return s == cb->preload_set || set_loading(s);
}

/* Is vector |k| of |s| still to come from the preparer (loading, or not reached yet)? */
static bool preload_pending(const cuda_backend_t *cb, const rset *s, int k)
{
    return s->v[k].loading || (s == cb->preload_set && k >= cb->preload_next);
}

/*
 * A pinned host copy's end: its bytes go back to the host gate they were
 * counted in (opts.host_gate, the engine's budget), then the memory.
 */
static void unpin(const cuda_backend_t *cb, cz_cuda_pinned *pin)
{
    if (pin->mem && cb->opts.host_gate.give)
        cb->opts.host_gate.give(cb->opts.host_gate.obj, pin->bytes);
    cz_cuda_pinned_free(pin);
}

static void drop_set(const cuda_backend_t *cb, rset *s)
{
    CZ_ASSERT(!set_loading(s));
    for (int v = 0; v < V_COUNT; v++) {
        cz_cuda_free(s->v[v].dev);
        unpin(cb, &s->v[v].pin);
    }
    memset(s, 0, sizeof *s);
}

/* Is there room for |bytes| more, under the limit and in the device's free memory? */
static bool room_for(cz_ctx_t *ctx, const cuda_backend_t *cb, size_t bytes)
{
    size_t free_b = 0, total_b = 0;
    if (cz_cuda_mem_info(ctx, &free_b, &total_b) != CZ_OK)
        return false;
    return fixed_bytes(cb) + resident_bytes(cb) + bytes <= cb->limit &&
           bytes + CZ__RUNTIME_SLACK <= free_b;
}

/* Make room by evicting the least recently used other sets; true when it fits. */
static bool make_room(cz_ctx_t *ctx, cuda_backend_t *cb, const rset *keep, size_t bytes)
{
    while (!room_for(ctx, cb, bytes)) {
        rset *lru = NULL;
        for (int s = 0; s < CZ__RESIDENT_SETS; s++)
            if (cb->sets[s].id && &cb->sets[s] != keep && !set_busy(cb, &cb->sets[s]) &&
                (!lru || cb->sets[s].last_use < lru->last_use))
                lru = &cb->sets[s];
        if (!lru)
            return drop_idle_slots(cb) && room_for(ctx, cb, bytes); /* params first */
        drop_set(cb, lru);
    }
    return true;
}

/* ---- resident params ---------------------------------------------------------- */

/* Is the vector fingerprinted in |r| the one described in |want|? */
static bool same_vector(const rvec *r, const rvec *want)
{
    if (r->n != want->n || r->point_bytes != want->point_bytes)
        return false;
    return r->n == 0 || (memcmp(r->first, want->first, r->point_bytes) == 0 &&
                         memcmp(r->last, want->last, r->point_bytes) == 0);
}

/*
 * Vector |k| of |w|: its length (from the params, known before prep) and
 * its first and last points, read from host memory or the params' source
 * (a failed read leaves a fingerprint no point has: the upload then reports
 * the source's error).
 */
static void describe_one(rvec *v, const cz_prove_work_t *w, int k)
{
    memset(v, 0, sizeof *v);
    (void)cz_backend_bases(w, k, &v->n, &v->point_bytes);
    if (v->n && (cz_backend_read_bases(NULL, w, k, 0, 1, v->first) != CZ_OK ||
                 cz_backend_read_bases(NULL, w, k, v->n - 1, 1, v->last) != CZ_OK))
        memset(v->first, 0xff, sizeof v->first); /* >= p: no point's */
}

/* Every vector of |w|: once per region or preparation, before cmu (a file's are read). */
static void describe(rvec v[V_COUNT], const cz_prove_work_t *w)
{
    for (int k = 0; k < V_COUNT; k++)
        describe_one(&v[k], w, k);
}

/* Device bytes of a whole params set, described (the vectors its regions put on the device). */
static size_t set_bytes(const cuda_backend_t *cb, const rvec want[V_COUNT])
{
    size_t sum = 0;
    for (int k = 0; k < V_COUNT; k++)
        if (on_device(cb, k))
            sum += want[k].n * want[k].point_bytes;
    return sum;
}

/*
 * The set for this params_id whose h vector matches; NULL if none. A set
 * under the same id whose h differs belongs to params freed since (another
 * object now lives at that address): it is dropped. The set the preparer
 * works on is returned on its id alone: the preparer's params are alive
 * (the engine settles the backend before their job ends), so a live job
 * with the same id has the same params, whose h vector may not be claimed yet.
 */
static rset *find_set(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec want[V_COUNT])
{
    for (int s = 0; s < CZ__RESIDENT_SETS; s++) {
        rset *r = &cb->sets[s];
        if (r->id != w->params_id)
            continue;
        if (r == cb->preload_set) /* the preparer's params, alive: the same object */
            return r;
        if (same_vector(&r->v[V_H], &want[V_H]))
            return r;
        if (!set_busy(cb, r))
            drop_set(cb, r);
    }
    return NULL;
}

static rset *new_set(cuda_backend_t *cb, const cz_prove_work_t *w)
{
    rset *slot = NULL;
    for (int s = 0; s < CZ__RESIDENT_SETS && !slot; s++)
        if (!cb->sets[s].id)
            slot = &cb->sets[s];
    if (!slot) { /* all used: replace the least recently used (one preparer: one set loading) */
        for (int s = 0; s < CZ__RESIDENT_SETS; s++)
            if (!set_busy(cb, &cb->sets[s]) && (!slot || cb->sets[s].last_use < slot->last_use))
                slot = &cb->sets[s];
        drop_set(cb, slot);
    }
    slot->id = w->params_id;
    return slot;
}

/* ---- uploads of params vectors ------------------------------------------------ */

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

typedef struct {
    const fill_from *from;
    char *dst;
    size_t off, bytes;
    int rc;
} fill_slice;

static void *fill_one(void *arg)
{
    fill_slice *f = arg;
    const fill_from *from = f->from;
    const cz_bases_source_t *src = from->w ? &from->w->source : NULL;
    const size_t first = from->first + f->off / from->unit;
    if (from->host)
        memcpy(f->dst, from->host + f->off, f->bytes);
    else if (f->bytes && src->read_encoded && !from->decoded) /* the device decodes */
        f->rc = src->read_encoded(NULL, src->obj, from->k, first, f->bytes / from->unit, f->dst);
    else if (f->bytes)
        f->rc = cz_backend_read_bases(NULL, from->w, from->k, first, f->bytes / from->unit, f->dst);
    return NULL;
}

/* The cz_cuda_fill_fn of the uploads: bytes [off, off + len) on |arg|'s fill_from threads. */
static int fill_threads(void *arg, void *dst, size_t off, size_t len)
{
    const fill_from *from = arg;
    const unsigned want = from->threads;
    const unsigned n = want < 1 ? 1 : want > CZ__FILL_MAX ? CZ__FILL_MAX : want;
    fill_slice sl[CZ__FILL_MAX];
    pthread_t th[CZ__FILL_MAX];
    bool started[CZ__FILL_MAX];
    const size_t per = (len / n + from->unit - 1) / from->unit * from->unit;
    for (unsigned t = 0; t < n; t++) {
        size_t b = per * (size_t)t < len ? per * (size_t)t : len;
        size_t e = b + per < len ? b + per : len;
        sl[t] = (fill_slice){ from, (char *)dst + b, off + b, e - b, CZ_OK };
        started[t] = t > 0 && sl[t].bytes && pthread_create(&th[t], NULL, fill_one, &sl[t]) == 0;
        if (t > 0 && !started[t])
            fill_one(&sl[t]); /* no thread: copy it here */
    }
    fill_one(&sl[0]);
    int rc = CZ_OK;
    for (unsigned t = 0; t < n; t++) {
        if (t > 0 && started[t])
            pthread_join(th[t], NULL);
        if (rc == CZ_OK)
            rc = sl[t].rc;
    }
    return rc;
}

/*
 * Uploads from pageable memory (params vectors, read from a file or
 * generated; a and b). A driver copy from pageable memory ran at ~5.6 GB/s
 * on the H200 host: a 32GiB set (44 GiB) took ~8 s of its first region.
 * Through two pinned bounce buffers filled by 8 threads it ran at 19.6 GB/s
 * (44 GiB in 2.25 s, `bench prove` cold iteration), faster than registering
 * the vector's own pages for the copy (3.28 s, same run;
 * docs/PERFORMANCE.md). Small copies, and a failed bounce allocation, take
 * the plain copy.
 *
 * A pair of bounce buffers, if it can be had: cb->bounce (the region's, cmu
 * held), cb->pbounce (the preparer's, its thread only) or a slot's (its
 * holder's). Left NULL when the pinning fails.
 */
static void ensure_pair(void *pair[2])
{
    if (pair[0])
        return;
    if (cz_cuda_host_alloc(NULL, &pair[0], CZ__BOUNCE_BYTES) != CZ_OK ||
        cz_cuda_host_alloc(NULL, &pair[1], CZ__BOUNCE_BYTES) != CZ_OK) {
        cz_cuda_host_free(pair[0]);
        pair[0] = NULL;
    }
}

/* |bytes| of pageable host memory to the device, through |pair| (filled by |fill| threads)
 * when it is large. */
static int upload_pageable(cz_ctx_t *ctx, void *pair[2], unsigned fill, void *dev, const void *host,
                           size_t bytes)
{
    if (bytes >= 4 * CZ__BOUNCE_BYTES)
        ensure_pair(pair);
    if (bytes < 4 * CZ__BOUNCE_BYTES || !pair[0])
        return cz_cuda_memcpy_htod(ctx, dev, host, bytes);
    fill_from from = { fill, host, NULL, 0, 64, 0, false };
    return cz_cuda_upload_bounced(ctx, dev, bytes, pair, CZ__BOUNCE_BYTES, fill_threads, &from);
}

/*
 * A vector uploaded as its params file has it, decoded on the device in
 * place. A point the device refuses is decoded again on the CPU from the
 * source, for the same message a load gives ("params F: l[3] at offset
 * N: G1 point not on curve").
 */
static int decode_uploaded(cz_ctx_t *ctx, void *dev, const cz_prove_work_t *w, int k, size_t n)
{
    size_t bad;
    int rc = cz_cuda_decode_points(ctx, dev, n, k == V_B2, &bad);
    if (rc != CZ_OK || bad == SIZE_MAX)
        return rc;
    uint8_t point[CZ__POINT_MAX];
    rc = cz_backend_read_bases(ctx, w, k, bad, 1, point);
    return rc != CZ_OK ? rc
                       : cz_fail(ctx, CZ_EINTERNAL,
                                 "cuda decode: params vector %d point %zu refused on the device, "
                                 "accepted on the CPU",
                                 k, bad);
}

/*
 * Vector |k| of |w|'s params to the device: from its host copy as above,
 * else from the params' source through |pair|, which the source fills
 * itself: a params set kept out of host memory (groth16/params.h) stays
 * out of it. A params file hands over its points as it has them (pread
 * into the bounce buffers: no CPU decode) and the device decodes them.
 * Without a bounce pair the vector is made resident in host memory first
 * (the slow way, that one vector).
 */
static int upload_bases(cz_ctx_t *ctx, void *pair[2], unsigned fill, void *dev,
                        const cz_prove_work_t *w, int k)
{
    size_t n, pb;
    const void *host = cz_backend_bases(w, k, &n, &pb);
    if (!host && n) {
        ensure_pair(pair);
        if (!pair[0] && w->source.host) {
            int rc = w->source.host(ctx, w->source.obj, k, &host);
            if (rc != CZ_OK)
                return rc;
        }
    }
    if (host || !n)
        return upload_pageable(ctx, pair, fill, dev, host, n * pb);
    /* the encoded sizes (96, 192 bytes) are the affine points' */
    fill_from from = { fill, NULL, w, k, pb, 0, false };
    int rc = cz_cuda_upload_bounced(ctx, dev, n * pb, pair, CZ__BOUNCE_BYTES / pb * pb,
                                    fill_threads, &from);
    if (rc != CZ_OK && rc != CZ_EDEVICE) /* the fill's: its threads had no ctx */
        return cz_fail(ctx, rc, "cuda: params vector %d from its source: %s", k, cz_strerror(rc));
    return rc == CZ_OK && w->source.read_encoded ? decode_uploaded(ctx, dev, w, k, n) : rc;
}

/*
 * Point |r| at |want| with no device copy yet (the old one, of another
 * shape, is freed) and allocate room for it: the device pointer, or NULL
 * when it does not fit (also when the device had less free than planned)
 * or the allocation failed (*rc says so). cmu held.
 */
static void *claim_vector(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, rvec *r, const rvec *want,
                          int *rc)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu) && !r->loading);
    cz_cuda_free(r->dev);
    unpin(cb, &r->pin); /* resident from now: no host copy needed */
    *r = *want;         /* its length and fingerprint */
    r->dev = NULL;
    const size_t bytes = want->n * want->point_bytes;
    void *dev = NULL;
    if (want->n == 0 || !make_room(ctx, cb, set, bytes))
        return NULL;
    if ((*rc = cz_cuda_malloc(ctx, &dev, bytes)) == CZ_ENOMEM)
        *rc = CZ_OK; /* taken by someone else since the plan: not resident (the CPU's) */
    return dev;
}

/*
 * Make vector |k| of |set| resident if it is not and it fits (the region,
 * cmu held). A vector the preparer is uploading is waited for (cmu is
 * released meanwhile; the wait counts as this region's upload time). A
 * vector of another shape under the same id (a reloaded params file)
 * replaces it. Returns the device pointer or NULL (not resident: use the CPU).
 */
static const void *ensure_vector(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set,
                                 const cz_prove_work_t *w, int k, const rvec *want, int *rc)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    rvec *r = &set->v[k];
    const double t0 = cz_mono_s();
    while (preload_pending(cb, set, k))
        cz_cond_wait(&cb->ccv, &cb->cmu);
    if (r->dev && same_vector(r, want)) {
        cb->upload_s += cz_mono_s() - t0;
        return r->dev;
    }
    void *dev = claim_vector(ctx, cb, set, r, want, rc);
    if (!dev)
        return NULL;
    *rc = upload_bases(ctx, cb->bounce, CZ__FILL_REGION, dev, w, k);
    cb->upload_s += cz_mono_s() - t0;
    cb->h2d_bytes += want->n * want->point_bytes;
    if (*rc != CZ_OK) {
        cz_cuda_free(dev);
        return NULL;
    }
    r->dev = dev;
    return dev;
}

/* ---- the device-memory plan (backend/devplan.h) -------------------------------- */

/* Device bytes this backend holds now (cmu held). */
static size_t held_bytes(const cuda_backend_t *cb)
{
    /* the in-turn H's context: what it keeps between turns (its domain's tables) is
     * the backend's, not free memory another plan may count on */
    return (cb->h ? cz_cuda_h_mem_bytes_buffers(cb->h_log, cz_cuda_h_buffers(cb->h)) : 0) +
           cz_cuda_h_held_bytes(cb->turn_h) +
           (cb->msm ? cz_cuda_msm_mem_bytes(cb->msm_chunk) + cz_cuda_msm_buckets_held(cb->msm)
                    : 0) +
           slot_bytes(cb) + (cb->own_win[0] ? 2 * cb->own_win_bytes : 0) + resident_bytes(cb);
}

/*
 * Batches pay where bases stream (each window's copy then serves every
 * partition of the batch): the advice follows the last plan, made in a
 * region or by the preparer. opts.max_batch: 1 never, N at most N, 0: 2.
 */
static void advise_batch(cuda_backend_t *cb)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    const unsigned tails = CZ_BASES_ALL & ~(1u << CZ_BASES_H);
    const unsigned k = cb->opts.max_batch ? cb->opts.max_batch : 2;
    atomic_store(&cb->batch_advice, (cb->plan.streamed & tails) ? k : 1);
}

/*
 * The plan for |w|'s set (described in |want|) from the device's free
 * memory now plus what this backend holds (it gives back what the plan
 * does not keep), under the limit, CZ__RUNTIME_SLACK left free for CUDA.
 */
static int make_plan(cz_ctx_t *ctx, cuda_backend_t *cb, const cz_prove_work_t *w,
                     const rvec want[V_COUNT])
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    size_t free_b = 0, total_b = 0;
    int rc = cz_cuda_set_device(ctx, cb->base.device_index);
    if (rc == CZ_OK)
        rc = cz_cuda_mem_info(ctx, &free_b, &total_b);
    if (rc != CZ_OK)
        return rc;
    cz_devplan_in *in = &cb->plan_in;
    memset(in, 0, sizeof *in);
    size_t can = held_bytes(cb) + (free_b > CZ__RUNTIME_SLACK ? free_b - CZ__RUNTIME_SLACK : 0);
    in->budget = can < cb->limit ? can : cb->limit;
    size_t largest = 0;
    for (int k = 0; k < V_COUNT; k++) {
        in->vec_bytes[k] = on_device(cb, k) ? want[k].n * want[k].point_bytes : 0;
        largest = in->vec_bytes[k] > largest ? in->vec_bytes[k] : largest;
    }
    in->h_bytes = cb->opts.h_buffers == 2 ? 0 : cz_cuda_h_mem_bytes_buffers(w->log_m, 3);
    in->h_buffer_bytes = sizeof(cz_fr) << w->log_m;
    in->h2_bytes = cz_cuda_h_mem_bytes_buffers(w->log_m, 2);
    in->h2_window_bytes = in->h_buffer_bytes / 2; /* the halves of its idle buffer */
    for (int i = 0; i < CZ_DEVPLAN_MSM_SIZES; i++)
        in->msm_bytes[i] = cz_cuda_msm_mem_bytes(CZ__MSM_CHUNKS[i]);
    in->bucket_full = 5 * CZ__GIB;
    in->bucket_least = CZ__BUCKET_LEAST;
    in->slot_bytes = ((size_t)2 << w->log_m) * sizeof(cz_fr);
    in->max_slots = CZ__STAGE_SLOTS;
    /* a window holds the inputs' bases (the head of window 0) and a bitmap word of aux
     * points at least, of either group */
    in->min_window_bytes = (w->num_inputs + 64) * sizeof(blst_p2_affine); /* B's inputs
                                                                              * are some of them */
    /* own windows: a quarter of the largest vector (several windows even for small
     * circuits), 512 MiB at most, a window's least at least */
    in->own_stream_bytes = largest / 4 < CZ__OWN_WINDOW ? largest / 4 : CZ__OWN_WINDOW;
    if (in->own_stream_bytes < in->min_window_bytes)
        in->own_stream_bytes = in->min_window_bytes;
    in->min_level = (cz_devplan_level)cb->opts.min_plan;
    in->no_h_in_turn = cb->opts.h_on_cpu;
    cz_devplan_make(in, &cb->plan);
    advise_batch(cb);
    pthread_mutex_lock(&cb->smu);
    cz_devplan_format(&cb->plan, in, cb->plan_line, sizeof cb->plan_line);
    pthread_mutex_unlock(&cb->smu);
    return CZ_OK;
}

/* Give back what a plan below RESIDENT does not keep: other sets, |keep|'s streamed vectors'
 * device copies, idle slots beyond the plan's. */
static void release_for_plan(cuda_backend_t *cb, rset *keep)
{
    const cz_devplan *p = &cb->plan;
    for (int s = 0; s < CZ__RESIDENT_SETS; s++)
        if (&cb->sets[s] != keep && cb->sets[s].id && !set_busy(cb, &cb->sets[s]))
            drop_set(cb, &cb->sets[s]);
    for (int k = 0; keep && k < V_COUNT; k++) {
        rvec *r = &keep->v[k];
        if (!(p->resident >> k & 1) && r->dev && !r->loading) {
            cz_cuda_free(r->dev);
            r->dev = NULL;
        }
    }
    if (p->slots < CZ__STAGE_SLOTS)
        (void)drop_idle_slots(cb);
}

static void settle_ahead(cuda_backend_t *cb);

static void free_own_windows(cuda_backend_t *cb)
{
    settle_ahead(cb);
    cz_cuda_free(cb->own_win[0]);
    cz_cuda_free(cb->own_win[1]);
    cb->own_win[0] = cb->own_win[1] = NULL;
}

/* The plan's MSM workspace, its bucket cap and its own window buffers, made where missing
 * (cmu held). */
static int msm_room(cz_ctx_t *ctx, cuda_backend_t *cb)
{
    const cz_devplan *p = &cb->plan;
    const size_t chunk = p->msm_size >= 0 ? CZ__MSM_CHUNKS[p->msm_size] : 0;
    int rc;
    if (chunk && !cb->msm) {
        if ((rc = cz_cuda_msm_new(ctx, &cb->msm, cb->base.device_index, chunk)) != CZ_OK)
            return rc;
        cb->msm_chunk = chunk;
    }
    if (cb->msm)
        cz_cuda_msm_set_bucket_cap(cb->msm, p->bucket_cap);
    const size_t own = p->own_stream_buffers ? p->stream_bytes : 0;
    if (own && !cb->own_win[0]) {
        if ((rc = cz_cuda_malloc(ctx, &cb->own_win[0], own)) != CZ_OK ||
            (rc = cz_cuda_malloc(ctx, &cb->own_win[1], own)) != CZ_OK) {
            free_own_windows(cb);
            return rc;
        }
        cb->own_win_bytes = own;
    }
    return CZ_OK;
}

/* msm_room's bytes as the plan sizes them (the workspace's from the plan's own input). */
static size_t msm_room_bytes(const cuda_backend_t *cb)
{
    const cz_devplan *p = &cb->plan;
    return (p->msm_size >= 0 ? cb->plan_in.msm_bytes[p->msm_size] : 0) + p->bucket_cap +
           (p->own_stream_buffers ? 2 * p->stream_bytes : 0);
}

/* What msm_room makes, given back (the H in turn's context takes its place). */
static void give_back_msm_room(cuda_backend_t *cb)
{
    cz_cuda_msm_free(cb->msm);
    cb->msm = NULL;
    free_own_windows(cb);
}

/* The contexts the plan names, and nothing it does not (cmu held). */
static int apply_plan(cz_ctx_t *ctx, cuda_backend_t *cb, rset *keep, unsigned log_m)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    const cz_devplan *p = &cb->plan;
    int rc = cz_cuda_set_device(ctx, cb->base.device_index);
    if (rc == CZ_OK) /* tests: memory taken (or an allocation failed) after the plan was made */
        rc = cz__fault_sim(cz_ctx_fault(ctx), ctx, CZ_FAULT_DEVICE_ALLOC);
    if (rc == CZ_OK)
        rc = cz__fault_sim(cb->base.fault, ctx, CZ_FAULT_DEVICE_ALLOC);
    if (rc != CZ_OK)
        return rc;
    if (p->level != CZ_DEVPLAN_RESIDENT)
        release_for_plan(cb, keep);
    if (!p->h_on_device) {
        cz_cuda_h_free(cb->h);
        cb->h = NULL;
        cb->h_log = 0;
    }
    if (!p->h_in_turn) {
        cz_cuda_h_free(cb->turn_h);
        cb->turn_h = NULL;
    }
    const size_t chunk = p->msm_size >= 0 ? CZ__MSM_CHUNKS[p->msm_size] : 0;
    if (cb->msm && cb->msm_chunk != chunk) {
        cz_cuda_msm_free(cb->msm);
        cb->msm = NULL;
    }
    const size_t own = p->own_stream_buffers ? p->stream_bytes : 0;
    if (cb->own_win[0] && cb->own_win_bytes != own)
        free_own_windows(cb);
    if (p->h_on_device &&
        (!cb->h || cb->h_log < log_m || cz_cuda_h_buffers(cb->h) != p->h_buffers)) {
        cz_cuda_h_free(cb->h);
        cb->h = NULL;
        if ((rc = cz_cuda_h_new_buffers(ctx, &cb->h, cb->base.device_index, log_m, p->h_buffers)) !=
            CZ_OK)
            return rc;
        cb->h_log = log_m;
    }
    if (p->streamed && !cb->copier &&
        (rc = cz_cuda_copier_new(ctx, &cb->copier, cb->base.device_index)) != CZ_OK)
        return rc;
    return msm_room(ctx, cb);
}

/* Everything idle given back (cmu held): after an allocation failed, before a smaller plan. */
static void release_all(cuda_backend_t *cb)
{
    for (int s = 0; s < CZ__RESIDENT_SETS; s++)
        if (cb->sets[s].id && !set_busy(cb, &cb->sets[s]))
            drop_set(cb, &cb->sets[s]);
    (void)drop_idle_slots(cb);
    cz_cuda_h_free(cb->h);
    cb->h = NULL;
    cb->h_log = 0;
    give_back_msm_room(cb);
    cz_cuda_h_free(cb->turn_h);
    cb->turn_h = NULL;
}

/*
 * Plan and apply, for |w|'s set (cmu held). Device memory taken by someone
 * else between the plan and an allocation (another process, a sealing
 * pipeline on the same card) fails that allocation: everything idle is
 * given back and a plan made again from what is free then, once.
 */
static int plan_region(cz_ctx_t *ctx, cuda_backend_t *cb, rset *keep, const cz_prove_work_t *w,
                       const rvec want[V_COUNT])
{
    int rc = CZ_OK;
    for (int attempt = 0; attempt < 2; attempt++) {
        if ((rc = make_plan(ctx, cb, w, want)) != CZ_OK)
            return rc;
        rc = apply_plan(ctx, cb, keep, w->log_m);
        if (rc != CZ_ENOMEM)
            return rc;
        release_all(cb);
        if (attempt == 0) {
            pthread_mutex_lock(&cb->smu);
            cb->replans++;
            pthread_mutex_unlock(&cb->smu);
            cz_ctx_clear(ctx); /* the failed allocation's message is not the region's */
        }
    }
    return rc;
}

/*
 * A streamed vector's pinned host copy: the points decoded (blst's
 * affine layout), from the params' host copy or their source, on |fill|
 * threads. Made once per set; the region's copies then run at the link's
 * pinned rate with no CPU work. Its bytes are counted in opts.host_gate
 * (the engine's budget) first: where they do not fit, or an allocation
 * fails, it is left zeroed and the windows go through the bounce buffers
 * (slower, never wrong).
 */
static void pin_points(const cuda_backend_t *cb, cz_cuda_pinned *pin, const cz_prove_work_t *w,
                       int k, unsigned fill)
{
    size_t n, pb;
    const void *host = cz_backend_bases(w, k, &n, &pb);
    const cz_host_gate_t *g = &cb->opts.host_gate;
    /* counted before it is made (the most cz_cuda_pinned_alloc takes), the excess given back */
    const size_t most = (n * pb + CZ_CUDA_PIN_ALIGN - 1) & ~(CZ_CUDA_PIN_ALIGN - 1);
    if (!n || (g->take && !g->take(g->obj, most))) /* no room in the host memory budget */
        return;
    if (cz_cuda_pinned_alloc(NULL, pin, n * pb, 8) != CZ_OK) {
        if (g->give)
            g->give(g->obj, most);
        return;
    }
    CZ_ASSERT(pin->bytes <= most);
    if (g->give && most > pin->bytes)
        g->give(g->obj, most - pin->bytes);
    fill_from from = { fill, host, w, k, host ? 64 : pb, 0, true };
    if (fill_threads(&from, pin->mem, 0, n * pb) != CZ_OK)
        unpin(cb, pin);
}

/* Does |r| hold |want|'s points somewhere (pinned host copy or device)? */
static bool holds_points(const rvec *r, const rvec *want)
{
    return same_vector(r, want) && (r->pin.mem || r->dev);
}

/* |r| becomes |want| with no copy anywhere (its old ones freed), cmu held. */
static void forget_points(const cuda_backend_t *cb, rvec *r, const rvec *want)
{
    cz_cuda_free(r->dev);
    unpin(cb, &r->pin);
    *r = *want;
}

/* Vector |k| of |set|, streamed by the plan: its pinned copy, made here if the preparer has
 * not (cmu held; waits for a preparer still on it). */
static const void *pinned_vector(cuda_backend_t *cb, rset *set, const cz_prove_work_t *w, int k,
                                 const rvec *want)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    rvec *r = &set->v[k];
    const double t0 = cz_mono_s();
    while (preload_pending(cb, set, k))
        cz_cond_wait(&cb->ccv, &cb->cmu);
    if (!holds_points(r, want)) {
        forget_points(cb, r, want);
        pin_points(cb, &r->pin, w, k, CZ__FILL_REGION);
    }
    cb->upload_s += cz_mono_s() - t0;
    return r->pin.mem;
}

/* The fill of a window without a pinned copy: through the region's bounce pair. */
typedef struct {
    cuda_backend_t *cb;
    cz_ctx_t *ctx;
    const cz_prove_work_t *w;
    int k;
} window_src;

static int fill_window(void *arg, void *dev, size_t first, size_t n)
{
    const window_src *src = arg;
    size_t total, pb;
    const void *host = cz_backend_bases(src->w, src->k, &total, &pb);
    (void)total;
    if (host)
        return upload_pageable(src->ctx, src->cb->bounce, CZ__FILL_REGION, dev,
                               (const char *)host + first * pb, n * pb);
    ensure_pair(src->cb->bounce);
    fill_from from = { CZ__FILL_REGION, NULL, src->w, src->k, pb, first, true };
    if (!src->cb->bounce[0])
        return cz_fail(src->ctx, CZ_ENOMEM, "cuda: no pinned bounce buffers for a window");
    int rc = cz_cuda_upload_bounced(src->ctx, dev, n * pb, src->cb->bounce,
                                    CZ__BOUNCE_BYTES / pb * pb, fill_threads, &from);
    if (rc != CZ_OK && rc != CZ_EDEVICE)
        return cz_fail(src->ctx, rc, "cuda: params vector %d from its source: %s", src->k,
                       cz_strerror(rc));
    return rc;
}

static int copier_put(cz_ctx_t *ctx, void *obj, int slot, void *dst, const void *src, size_t bytes)
{
    return cz_cuda_copier_put(ctx, obj, slot, dst, src, bytes);
}

static int copier_wait(cz_ctx_t *ctx, void *obj, int slot)
{
    return cz_cuda_copier_wait(ctx, obj, slot);
}

/* The two window buffers of the plan: the H's idle ones, or the plan's own. */
static cz_windows plan_windows(const cuda_backend_t *cb)
{
    cz_windows ws = { { cb->copier, copier_put, copier_wait }, { NULL, NULL }, 0 };
    if (cb->own_win[0]) {
        ws.buf[0] = cb->own_win[0];
        ws.buf[1] = cb->own_win[1];
        ws.buf_bytes = cb->own_win_bytes;
    } else if (cb->h) {
        ws.buf[0] = cz_cuda_h_scratch(cb->h, 0);
        ws.buf[1] = cz_cuda_h_scratch(cb->h, 1);
        ws.buf_bytes = cz_cuda_h_buffer_bytes(cb->h);
    }
    return ws;
}

/* The window copied ahead, landed and dropped: its buffer is about to change hands (the
 * region's end, the H's next turn, the own windows freed). A failed wait is the next
 * region's to see: the copier's stream holds the error. */
static void settle_ahead(cuda_backend_t *cb)
{
    if (cb->ahead.src) {
        const cz_windows ws = plan_windows(cb);
        (void)cz_windows_settle(NULL, &ws, &cb->ahead);
    }
}

/* The vector streamed after this one, for its window 0 to be copied ahead: |k|'s pinned copy
 * if it is ready now (the preparer done with it; never waited for), else none (.pinned NULL). */
static cz_window_vector next_vector(const cuda_backend_t *cb, const rset *set, int k,
                                    const rvec *want, size_t head, size_t align)
{
    const rvec *r = &set->v[k];
    const bool ready = !preload_pending(cb, set, k) && same_vector(r, want) && r->pin.mem;
    return (cz_window_vector){ .pinned = ready ? r->pin.mem : NULL,
                               .point_bytes = want->point_bytes,
                               .n = want->n,
                               .head = head,
                               .align = align };
}

/*
 * The H MSM's first window, a quarter of a stride (windows.h, lead_div): the MSM consumes
 * its bases at ~12 GB/s, a quarter of the link's 55, so it starts after a quarter of a
 * window's copy (4 GiB windows: ~20 ms, not 77) and the next, whole window has landed
 * before the quarter is consumed. No vector is copied ahead into the H's buffers: they hold
 * the H until its MSM starts.
 */
#define CZ__H_LEAD_DIV 4u

/* Vector |k| of |w| streamed through the plan's windows to |consume|; |next| (NULL: none) the
 * vector streamed after it, whose window 0 is copied during this one's last window. */
static int stream_vector(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *w, int k,
                         const rvec *want, size_t head, size_t align, cz_window_consume *consume,
                         void *arg, const cz_window_vector *next)
{
    window_src src = { cb, ctx, w, k };
    const cz_window_vector v = { .pinned = pinned_vector(cb, set, w, k, want),
                                 .fill = fill_window,
                                 .fill_arg = &src,
                                 .point_bytes = want->point_bytes,
                                 .n = want->n,
                                 .head = head,
                                 .align = align,
                                 .lead_div = k == V_H ? CZ__H_LEAD_DIV : 0 };
    const cz_windows ws = plan_windows(cb);
    cz_window_stats st = { 0 };
    int rc = cz_windows_run(ctx, &ws, &v, consume, arg, &cb->ahead, next, &st);
    cb->h2d_bytes += st.bytes;
    cb->region_ahead += st.ahead;
    w->t_stream_wait += st.wait_s;
    return rc;
}

/* ---- staging: a and b onto the device, outside the device lock -------------------- */

/*
 * Device memory of the slots (smu or cmu held: their memory changes only
 * with both held).
 */
static size_t slot_bytes(const cuda_backend_t *cb)
{
    size_t sum = 0;
    for (int i = 0; i < CZ__STAGE_SLOTS; i++)
        sum += (cb->slots[i].cap + cb->tslots[i].cap) * sizeof(cz_fr);
    return sum;
}

/*
 * Give every idle slot of |pool| (CZ__STAGE_SLOTS: cb->slots or cb->tslots)
 * room for |need| elements where the device has it after the resident sets
 * (cmu held; smu taken briefly: lock order cmu, smu). A slot being resized
 * is invisible to take_slot.
 */
static void size_slots(cz_ctx_t *ctx, cuda_backend_t *cb, stage_slot *pool, size_t need)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    for (int i = 0; i < CZ__STAGE_SLOTS; i++) {
        stage_slot *s = &pool[i];
        pthread_mutex_lock(&cb->smu);
        const bool resize = !s->busy && s->cap < need;
        s->resizing = resize;
        pthread_mutex_unlock(&cb->smu);
        if (!resize)
            continue;
        void *dev = NULL;
        cz_cuda_free(s->dev);
        pthread_mutex_lock(&cb->smu);
        s->dev = NULL;
        s->cap = 0;
        pthread_mutex_unlock(&cb->smu);
        const bool ok = room_for(ctx, cb, need * sizeof(cz_fr)) &&
                        cz_cuda_malloc(NULL, &dev, need * sizeof(cz_fr)) == CZ_OK;
        pthread_mutex_lock(&cb->smu);
        if (ok) { /* else no slot until there is room (asked again at each region's end) */
            s->dev = dev;
            s->cap = need;
        }
        s->resizing = false;
        pthread_cond_broadcast(&cb->scv);
        pthread_mutex_unlock(&cb->smu);
    }
}

/* Free the idle slots' device memory (cmu held): room for params, which come first. */
static bool drop_idle_slots(cuda_backend_t *cb)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    bool dropped = false;
    for (int i = 0; i < 2 * CZ__STAGE_SLOTS; i++) { /* the a/b slots, then the tails slots */
        stage_slot *s = &(i < CZ__STAGE_SLOTS ? cb->slots : cb->tslots)[i % CZ__STAGE_SLOTS];
        pthread_mutex_lock(&cb->smu);
        void *dev = !s->busy && !s->resizing ? s->dev : NULL;
        if (dev) {
            s->dev = NULL;
            s->cap = 0;
            dropped = true;
        }
        pthread_mutex_unlock(&cb->smu);
        cz_cuda_free(dev);
    }
    return dropped;
}

/*
 * A free slot of |pool| of at least |need| elements, waiting while every
 * such slot is busy (backpressure) if |wait|; NULL when no slot is that
 * large (the region sizes them, where the device has room), or none is
 * free and |!wait|: the caller goes on unstaged.
 */
static stage_slot *take_slot(cuda_backend_t *cb, stage_slot *pool, size_t need, bool wait)
{
    pthread_mutex_lock(&cb->smu);
    stage_slot *s = NULL;
    for (;;) {
        bool any_large = false;
        for (int i = 0; i < CZ__STAGE_SLOTS; i++) {
            stage_slot *t = &pool[i];
            if (t->resizing || t->cap < need)
                continue;
            any_large = true;
            if (!t->busy && (!s || t->cap < s->cap))
                s = t;
        }
        if (s || !any_large || !wait)
            break;
        pthread_cond_wait(&cb->scv, &cb->smu);
    }
    if (s)
        s->busy = true;
    pthread_mutex_unlock(&cb->smu);
    return s;
}

static void give_slot(cuda_backend_t *cb, stage_slot *s)
{
    pthread_mutex_lock(&cb->smu);
    s->busy = false;
    pthread_cond_broadcast(&cb->scv);
    pthread_mutex_unlock(&cb->smu);
}

static void cuda_unstage(cz_backend_t *be, cz_prove_work_t *w)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    if (!w->staged)
        return;
    give_slot(cb, w->staged);
    w->staged = NULL;
}

/*
 * a and b go to the device here, before the device lock, while another
 * partition's region runs (the copy engine is idle then; the region's H
 * then starts on data already there: ~170 ms of each 32GiB region). From
 * pageable memory through the slot's bounce buffers, CZ__FILL_REGION
 * threads filling them (~0.4 s for a and b at 2^27 on the H200 host). The
 * caller frees its host a and b once staged: w->a and w->b are NULL then.
 * An upload that fails leaves the partition unstaged, its host arrays
 * intact: the region hits the same device error and reports it.
 */
static int cuda_stage(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *w)
{
    (void)ctx;
    cuda_backend_t *cb = (cuda_backend_t *)be;
    if (w->staged || !w->a || !w->b || w->c) /* c given: leave it all to the region */
        return CZ_OK;
    const size_t m = (size_t)1 << w->log_m, bytes = w->rows * sizeof(cz_fr);
    if (w->rows > m)
        return CZ_OK; /* the region reports it */
    stage_slot *s = take_slot(cb, cb->slots, 2 * m, true);
    if (!s)
        return CZ_OK;
    int rc = cz_cuda_set_device(NULL, cb->base.device_index);
    if (rc == CZ_OK)
        rc = upload_pageable(NULL, s->bounce, CZ__FILL_REGION, s->dev, w->a, bytes);
    if (rc == CZ_OK)
        rc = upload_pageable(NULL, s->bounce, CZ__FILL_REGION, s->dev + m, w->b, bytes);
    if (rc != CZ_OK) {
        give_slot(cb, s);
        return CZ_OK;
    }
    w->a = w->b = NULL;
    w->staged = s;
    return CZ_OK;
}

/*
 * ops->pin: a and b that the region will upload from host memory (no
 * staging slot took them: a card too small for one) page-locked where they
 * are, so that the region copies them by DMA alone. Through the bounce
 * buffers the copy is a CPU memcpy first, which the next partitions'
 * synthesis on the same cores slowed: the H of a 14 GiB-free region took
 * 1018.7 ms in the engine against 707.1 alone (docs/PERFORMANCE.md,
 * 2026-12-06); pinned, the engine's H took 627.2 ms against 1036.6 and a
 * 32GiB C2 at 14 GiB free 22.78 s/proof against 25.06 (H100, 2026-12-07).
 * Registering 4 GiB takes ~0.23 s of the worker's thread, outside the
 * device lock; the other worker's region kept the device 100% busy. The
 * rows the region reads are registered; c too when given. Not with
 * opts.no_pin_ab.
 */
static void cuda_pin(cz_backend_t *be, cz_prove_work_t *w)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    if (cb->opts.no_pin_ab || w->pinned || w->staged || !w->a || !w->b ||
        w->rows > ((size_t)1 << w->log_m))
        return;
    /* the worker's thread may not have made this device current yet (no slot staged) */
    if (cz_cuda_set_device(NULL, cb->base.device_index) != CZ_OK)
        return;
    cz_fr *v[3] = { w->a, w->b, w->c };
    /* their whole capacity (2^log_m, grow_to_domain), not the rows: the H on the CPU leaves
     * 2^log_m - 1 coefficients in a for the H MSM's copies, and the H in turn may download a
     * whole domain into a; a copy that runs past the end of a registered range fails
     * ("invalid argument"; the GPU tests h_on_the_cpu_and_own_windows and
     * h_in_turn_with_the_msms) */
    const size_t bytes = ((size_t)1 << w->log_m) * sizeof(cz_fr);
    int k = 0;
    while (k < 3 && v[k] && cz_cuda_host_register(NULL, v[k], bytes) == CZ_OK)
        k++;
    if (k < 3 && v[k]) { /* one failed: all pageable, as without pinning */
        while (k-- > 0)
            cz_cuda_host_unregister(v[k]);
        return;
    }
    w->pinned = true;
    pthread_mutex_lock(&cb->smu);
    cb->pinned++;
    pthread_mutex_unlock(&cb->smu);
}

static void cuda_unpin(cz_backend_t *be, cz_prove_work_t *w)
{
    (void)be;
    if (!w->pinned)
        return;
    cz_cuda_host_unregister(w->a);
    cz_cuda_host_unregister(w->b);
    cz_cuda_host_unregister(w->c);
    w->pinned = false;
}

/* Bytes of one split's copy: bitmap, indices, scalars, each 256-byte aligned. */
static size_t up256(size_t x)
{
    return (x + 255) & ~(size_t)255;
}

static size_t split_bytes(const cz_scalar_split *sp)
{
    return up256((sp->n + 63) / 64 * 8) + up256(sp->n_sig * 4) + up256(sp->n_sig * 32);
}

/* |bytes| of |src| to *at (device), which moves past them; *dst: where they went. */
static int put(cz_ctx_t *ctx, char **at, const void *src, size_t bytes, const void **dst)
{
    *dst = *at;
    int rc = bytes ? cz_cuda_memcpy_htod(ctx, *at, src, bytes) : CZ_OK;
    *at += up256(bytes);
    return rc;
}

/* Split |sp| to *at (device; split_bytes(sp) of room), which moves past it; *d: its copy. */
static int put_split(cz_ctx_t *ctx, char **at, const cz_scalar_split *sp, dev_split *d)
{
    int rc = put(ctx, at, sp->ones, (sp->n + 63) / 64 * 8, (const void **)&d->ones);
    if (rc == CZ_OK)
        rc = put(ctx, at, sp->sig_index, sp->n_sig * 4, (const void **)&d->sig_index);
    if (rc == CZ_OK)
        rc = put(ctx, at, sp->sig_scalar, sp->n_sig * 32, (const void **)&d->sig_scalar);
    return rc;
}

/*
 * The splits to a free tails slot, by prep's thread (backend.h): pageable
 * copies, ~10 GB/s, while another partition's region runs. A miss (no free
 * slot that large) records the size for the next region's end to provide;
 * a failed copy leaves the splits on the host (the region meets the same
 * device error and reports it).
 */
static void cuda_stage_tails(cz_backend_t *be, cz_prove_work_t *w)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    const cz_scalar_split *sp[T_COUNT] = { w->l_split, w->a_split, w->b_split };
    size_t bytes = 0;
    for (int k = 0; k < T_COUNT; k++)
        bytes += split_bytes(sp[k]);
    const size_t need = (bytes + sizeof(cz_fr) - 1) / sizeof(cz_fr);
    stage_slot *s = take_slot(cb, cb->tslots, need, false);
    if (!s) {
        pthread_mutex_lock(&cb->smu);
        if (cb->tails_want < need)
            cb->tails_want = need;
        pthread_mutex_unlock(&cb->smu);
        return;
    }
    char *at = (char *)s->dev;
    int rc = cz_cuda_set_device(NULL, be->device_index);
    for (int k = 0; k < T_COUNT && rc == CZ_OK; k++)
        rc = put_split(NULL, &at, sp[k], &s->split[k]);
    if (rc != CZ_OK) {
        give_slot(cb, s);
        return;
    }
    w->tails_staged = s;
}

static void cuda_unstage_tails(cz_backend_t *be, cz_prove_work_t *w)
{
    if (!w->tails_staged)
        return;
    give_slot((cuda_backend_t *)be, w->tails_staged);
    w->tails_staged = NULL;
}

/* ---- the region's parts --------------------------------------------------------- */

/*
 * inputs + ones + significant of one vector of |group| (1: G1, 2: G2):
 * a small MSM over the inputs' bases, a batch addition over the ones and an
 * MSM over the significant scalars' gathered bases, the split read from
 * its device copy |ds| when prep staged it (else from the host). |dev|
 * NULL: the vector is not resident, all of it on the CPU from |host|.
 */
static int device_tail(cz_ctx_t *ctx, cuda_backend_t *cb, int group, void *out, const void *dev,
                       const void *host, const blst_scalar *inputs, size_t n_inputs,
                       const cz_scalar_split *sp, const dev_split *ds)
{
    if (!dev)
        return group == 1 ? cz_backend_g1_tail(ctx, out, host, inputs, n_inputs, sp)
                          : cz_backend_g2_tail(ctx, out, host, inputs, n_inputs, sp);
    const size_t pb = group == 1 ? sizeof(blst_p1_affine) : sizeof(blst_p2_affine);
    const void *aux = (const char *)dev + n_inputs * pb;
    blst_p2 in, ones, sig; /* room for either group */
    cz_cuda_msm_terms ti = { .n = n_inputs, .scalars = inputs };
    cz_cuda_msm_terms ts = { .n = sp->n_sig,
                             .scalars = ds ? (const void *)ds->sig_scalar : sp->sig_scalar,
                             .scalars_on_device = ds != NULL,
                             .index = ds ? ds->sig_index : sp->sig_index,
                             .index_on_device = ds != NULL,
                             .nbits = (unsigned)sp->sig_bits };
    int rc = cz_cuda_msm_run(ctx, cb->msm, group, &in, dev, &ti);
    if (rc == CZ_OK)
        rc = cz_cuda_batch_add(ctx, cb->msm, group, &ones, aux, ds ? ds->ones : sp->ones, sp->n,
                               ds != NULL);
    if (rc == CZ_OK)
        rc = cz_cuda_msm_run(ctx, cb->msm, group, &sig, aux, &ts);
    if (rc != CZ_OK)
        return rc;
    if (group == 1) {
        blst_p1_add_or_double(out, (const blst_p1 *)&in, (const blst_p1 *)&ones);
        blst_p1_add_or_double(out, out, (const blst_p1 *)&sig);
    } else {
        blst_p2_add_or_double(out, &in, &ones);
        blst_p2_add_or_double(out, out, &sig);
    }
    return CZ_OK;
}

/*
 * The H coefficients on the device. a and b staged in a device slot are
 * read there (a device copy, milliseconds); a and b pinned where they are
 * (cuda_pin: no slot) are copied by DMA on the H's copy stream; a and b left
 * pageable (pinning failed or is off) go first through the region's bounce
 * buffers, at ~3.5x the driver's pageable rate (4 GiB each at 2^27).
 */
static int h_coefficients(cz_ctx_t *ctx, cuda_backend_t *cb, cz_prove_work_t *w)
{
    if (w->staged) { /* a and b on the device already: the slot is free once they are read */
        const stage_slot *s = w->staged;
        const cz_fr *a = s->dev, *b = s->dev + ((size_t)1 << w->log_m);
        int rc = cz_cuda_h_compute(ctx, cb->h, a, b, NULL, w->rows, w->log_m);
        cuda_unstage(&cb->base, w);
        return rc;
    }
    if (w->c || w->pinned) /* DMA (pinned) or the driver's copies, on the H's copy stream */
        return cz_cuda_h_compute(ctx, cb->h, w->a, w->b, w->c, w->rows, w->log_m);
    if (w->rows > ((size_t)1 << w->log_m) || w->log_m > cb->h_log)
        return cz_fail(ctx, CZ_EMISMATCH, "cuda h: %zu rows > domain 2^%u", w->rows, w->log_m);
    const size_t bytes = w->rows * sizeof(cz_fr);
    int rc = upload_pageable(ctx, cb->bounce, CZ__FILL_REGION, cz_cuda_h_input(cb->h, 0), w->a,
                             bytes);
    if (rc == CZ_OK)
        rc = upload_pageable(ctx, cb->bounce, CZ__FILL_REGION, cz_cuda_h_input(cb->h, 1), w->b,
                             bytes);
    return rc == CZ_OK ? cz_cuda_h_compute_loaded(ctx, cb->h, w->rows, w->log_m, false) : rc;
}

/* Does the plan keep vector |k| resident (or try to: the RESIDENT level)? Stream it? */
static bool plan_keeps(const cuda_backend_t *cb, int k)
{
    return cb->plan.level == CZ_DEVPLAN_RESIDENT || (cb->plan.resident >> k & 1);
}

static bool plan_streams(const cuda_backend_t *cb, int k)
{
    return cb->plan.streamed >> k & 1;
}

/* acc (a blst_p1 or blst_p2 of |group|) += x */
static void add_to(int group, void *acc, const void *x)
{
    if (group == 1)
        blst_p1_add_or_double(acc, acc, x);
    else
        blst_p2_add_or_double(acc, acc, x);
}

/*
 * The H on the CPU (plans without room for the H context): from host a
 * and b (a partition staged before the plan changed has them on the
 * device: they come back), into a host vector of 2^log_m coefficients,
 * *coef: w->a, or one of the region's own (*owned, freed by the caller).
 */
static int h_on_cpu(cz_ctx_t *ctx, cuda_backend_t *cb, cz_prove_work_t *w, cz_fr **coef,
                    cz_fr **owned)
{
    const size_t m = (size_t)1 << w->log_m;
    cz_fr *a = w->a, *b = w->b;
    *owned = NULL;
    if (w->staged) {
        const stage_slot *slot = w->staged;
        cz_fr *ab = malloc(2 * m * sizeof(cz_fr));
        if (!ab)
            return cz_fail(ctx, CZ_ENOMEM, "cuda h on the cpu: a and b (%zu bytes)",
                           2 * m * sizeof(cz_fr));
        int rc = cz_cuda_memcpy_dtoh(ctx, ab, slot->dev, w->rows * sizeof(cz_fr));
        if (rc == CZ_OK)
            rc = cz_cuda_memcpy_dtoh(ctx, ab + m, slot->dev + m, w->rows * sizeof(cz_fr));
        cuda_unstage(&cb->base, w);
        if (rc != CZ_OK) {
            free(ab);
            return rc;
        }
        a = *owned = ab;
        b = ab + m;
    }
    if (!cb->cpu_dom || cz_ntt_domain_log_n(cb->cpu_dom) != w->log_m) {
        cz_ntt_domain_free(cb->cpu_dom);
        cb->cpu_dom = NULL;
        int rc = cz_ntt_domain_new(ctx, &cb->cpu_dom, w->log_m);
        if (rc != CZ_OK)
            return rc;
    }
    *coef = a;
    return cz_cpu_compute_h(ctx, cb->cpu_dom, a, b, w->c, w->rows);
}

/*
 * The H on the device in turn with the MSMs (plan.h_in_turn: room for the
 * two-buffer H context or for the MSM workspace and the windows, not
 * both): the workspace and the windows are given back, the context made,
 * the H computed from a and b in host memory (through the bounce buffers);
 * then the context gives back all but its result and the workspace and
 * the windows are made again beside it, where the plan's budget has room
 * for both (the H MSM then reads the coefficients where they are: *coef
 * NULL, *kept; cb->turn_h's result until h_part gives it back); else the
 * coefficients come into a, where the CPU's H would leave them (*coef =
 * w->a), and the whole context is given back first. *made: the
 * coefficients are made (a failure after that is the MSMs' room's; before
 * it, a still holds its own values). cmu held.
 */
static int h_in_turn(cz_ctx_t *ctx, cuda_backend_t *cb, cz_prove_work_t *w, cz_fr **coef,
                     bool *made, bool *kept)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    const size_t m = (size_t)1 << w->log_m;
    give_back_msm_room(cb);
    int rc = CZ_OK;
    if (cb->turn_h && cb->turn_h_log >= w->log_m) {
        rc = cz_cuda_h_take_back(ctx, cb->turn_h);
    } else {
        cz_cuda_h_free(cb->turn_h);
        cb->turn_h = NULL;
        rc = cz_cuda_h_new_buffers(ctx, &cb->turn_h, cb->base.device_index, w->log_m, 2);
        cb->turn_h_log = rc == CZ_OK ? w->log_m : 0;
    }
    cz_cuda_h *h = cb->turn_h;
    if (rc == CZ_OK && (w->c || w->pinned)) {
        rc = cz_cuda_h_compute(ctx, h, w->a, w->b, w->c, w->rows, w->log_m);
    } else if (rc == CZ_OK) {
        const size_t bytes = w->rows * sizeof(cz_fr);
        rc = upload_pageable(ctx, cb->bounce, CZ__FILL_REGION, cz_cuda_h_input(h, 0), w->a, bytes);
        if (rc == CZ_OK)
            rc = upload_pageable(ctx, cb->bounce, CZ__FILL_REGION, cz_cuda_h_input(h, 1), w->b,
                                 bytes);
        if (rc == CZ_OK)
            rc = cz_cuda_h_compute_loaded(ctx, h, w->rows, w->log_m, false);
    }
    *made = rc == CZ_OK;
    *kept = false;
    if (rc == CZ_OK)
        cz_cuda_h_give_back_idle(h); /* the result (and the tables) stay */
    if (rc == CZ_OK && !cb->opts.h_via_host &&
        cz_cuda_h_held_bytes(h) + msm_room_bytes(cb) <= cb->plan_in.budget) {
        rc = msm_room(ctx, cb);
        *kept = rc == CZ_OK;
        *coef = NULL;
        if (rc != CZ_ENOMEM) {
            if (rc != CZ_OK)
                cz_cuda_h_give_back(h);
            return rc;
        }
        /* the device refused the room beside the result after all: the host way */
        cz_ctx_clear(ctx);
        rc = CZ_OK;
        give_back_msm_room(cb);
    }
    if (rc == CZ_OK)
        rc = cz_cuda_h_download(ctx, h, w->a, m);
    if (h)
        cz_cuda_h_give_back(h);
    *coef = w->a;
    const int room = msm_room(ctx, cb); /* made again, also after a failure */
    return rc != CZ_OK ? rc : room;
}

/* One window of the H MSM: the window's terms of |t| (the whole vector's) into |acc|. */
typedef struct {
    cuda_backend_t *cb;
    cz_ctx_t *ctx;
    const cz_cuda_msm_terms *t;
    blst_p1 acc;
} h_windows;

static int h_window(void *arg, const void *dev, size_t first, size_t n)
{
    h_windows *hw = arg;
    cz_cuda_msm_terms t = *hw->t;
    t.n = first + n <= t.n ? n : t.n > first ? t.n - first : 0;
    t.scalars = (const char *)t.scalars + first * sizeof(cz_fr);
    blst_p1 part;
    int rc = cz_cuda_msm_run(hw->ctx, hw->cb->msm, 1, &part, dev, &t);
    if (rc == CZ_OK)
        blst_p1_add_or_double(&hw->acc, &hw->acc, &part);
    return rc;
}

/*
 * The H MSM over the coefficients: on the device (|coef| NULL: |on_dev|'s
 * result, cb->h's or the H in turn's) or in host memory (|coef|: the CPU's
 * H, Montgomery form, which the CPU path converts in place). The bases
 * resident, streamed, or (not resident, not streamed) the CPU's.
 */
static int h_msm(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *w,
                 const rvec want[V_COUNT], cz_fr *coef, cz_cuda_h *on_dev,
                 const cz_window_vector *next)
{
    const size_t m = (size_t)1 << w->log_m;
    int rc = CZ_OK;
    const void *dev = plan_keeps(cb, V_H) ? ensure_vector(ctx, cb, set, w, V_H, &want[V_H], &rc)
                                          : NULL;
    if (rc != CZ_OK)
        return rc;
    /* the coefficients are not read after the MSM: it may convert them in place */
    cz_cuda_msm_terms t = { .n = m - 1,
                            .scalars = coef ? (const void *)coef : cz_cuda_h_result(on_dev),
                            .scalars_on_device = !coef,
                            .scalars_montgomery = true,
                            .scalars_scratch = !coef };
    const double t0 = cz_mono_s(); /* the upload is t_upload's */
    if (dev) {
        rc = cz_cuda_msm_run(ctx, cb->msm, 1, &w->h, dev, &t);
    } else if (plan_streams(cb, V_H)) {
        h_windows hw = { .cb = cb, .ctx = ctx, .t = &t }; /* acc: Z = 0, infinity */
        rc = stream_vector(ctx, cb, set, w, V_H, &want[V_H], 0, 1, h_window, &hw, next);
        w->h = hw.acc;
    } else {
        /* the CPU's MSM over host coefficients (into a, no longer needed; staged partitions
         * gave theirs back: a buffer of its own) */
        cz_fr *host = coef ? coef : w->a ? w->a : malloc((m - 1) * sizeof(cz_fr));
        if (!host)
            return cz_fail(ctx, CZ_ENOMEM, "cuda h: %zu coefficients for the CPU MSM", m - 1);
        if (!coef)
            rc = cz_cuda_h_download(ctx, on_dev, host, m - 1);
        if (rc == CZ_OK)
            cz_fr_to_scalars_inplace(cz_ctx_pool(ctx), host, m - 1);
        if (rc == CZ_OK)
            rc = cz_backend_host_bases(ctx, w, 1u << V_H);
        if (rc == CZ_OK)
            rc = cz_g1_msm(ctx, &w->h, w->h_bases, (const blst_scalar *)host, m - 1);
        if (host != w->a && host != coef)
            free(host);
    }
    w->t_msm_h = cz_mono_s() - t0;
    return rc;
}

static cz_window_vector next_streamed_tail(const cuda_backend_t *cb, const rset *set,
                                           cz_prove_work_t *w, const rvec want[V_COUNT], int ti);

/* The H coefficients (on the device, or the CPU where the plan has no H context) and the
 * H MSM; the region's |last| H MSM copies the first streamed tail's window 0 ahead. */
static int h_part(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *w,
                  const rvec want[V_COUNT], bool last)
{
    int rc = cz_backend_step(ctx, w, "H");
    if (rc != CZ_OK)
        return rc;
    double t0 = cz_mono_s();
    cz_fr *coef = NULL, *owned = NULL;
    bool made = false, kept = false;
    if (cb->plan.h_on_device)
        rc = h_coefficients(ctx, cb, w);
    else if (cb->plan.h_in_turn && !w->staged) /* (staged before the plan changed: the CPU) */
        rc = h_in_turn(ctx, cb, w, &coef, &made, &kept);
    else
        rc = h_on_cpu(ctx, cb, w, &coef, &owned);
    if (rc == CZ_ENOMEM && cb->plan.h_in_turn && !w->staged && !made) {
        /* the context's turn found the memory taken (a untouched): this partition's H on
         * the CPU, once the MSMs' room is back */
        cz_ctx_clear(ctx);
        if ((rc = msm_room(ctx, cb)) == CZ_OK)
            rc = h_on_cpu(ctx, cb, w, &coef, &owned);
    }
    w->t_ntt = cz_mono_s() - t0;
    if (rc == CZ_OK)
        rc = cz_backend_step(ctx, w, "MSM h");
    const double waited = w->t_stream_wait;
    const cz_window_vector next = last ? next_streamed_tail(cb, set, w, want, -1)
                                       : (cz_window_vector){ 0 };
    if (rc == CZ_OK)
        rc = h_msm(ctx, cb, set, w, want, coef, kept ? cb->turn_h : cb->h, &next);
    w->t_stream_wait_h += w->t_stream_wait - waited;
    if (kept) /* the in-turn result: the next turn makes the buffers again */
        cz_cuda_h_give_back(cb->turn_h);
    free(owned);
    return rc;
}

/*
 * Before the wait for prep: the tails' vectors that are neither resident
 * nor being loaded by the preparer are uploaded now, while prep runs on the
 * CPU (a set's first region with no preparer: 32 GiB at 32GiB, seconds).
 * Those the preparer is loading are waited for one at a time in
 * tails_part, each just before its MSM: L runs while a, b_g1 and b_g2 still
 * arrive.
 */
static int tails_ahead(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, const cz_prove_work_t *w,
                       const rvec want[V_COUNT])
{
    int rc = CZ_OK;
    for (int k = V_L; k < V_COUNT && rc == CZ_OK; k++)
        if (on_device(cb, k) && plan_keeps(cb, k) && !preload_pending(cb, set, k))
            (void)ensure_vector(ctx, cb, set, w, k, &want[k], &rc);
    return rc;
}

/* One tail: its vector, the step's name, its group and where its inputs and result are. */
typedef struct {
    int k;
    const char *step;
    int group;
    void *out;
    const blst_scalar *inputs;
    size_t n_inputs;
    const cz_scalar_split *split;
    int t_split; /* its copy in a tails slot: T_L, T_A or T_B */
    double *t;
} tail_spec;

/* The first of the n sorted entries of |v| that is >= x. */
static size_t lower_bound_u32(const uint32_t *v, size_t n, size_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/*
 * One window of a streamed tail: points [first, first + n) of the vector,
 * the inputs' bases first (window 0 holds them all: its head) then aux
 * points. The window's share of the three sums: the inputs' MSM, the
 * batch addition over its bits of the ones bitmap (windows start at aux
 * multiples of 64: whole bitmap words) and the MSM over the significant
 * terms whose index falls in it (a contiguous run: the indices are sorted;
 * index_base rebases them to the window).
 */
typedef struct {
    cuda_backend_t *cb;
    cz_ctx_t *ctx;
    const tail_spec *t;
    const dev_split *ds; /* the split's device copy, or NULL: the host's */
    size_t pb;
    blst_p2 acc; /* room for either group */
} tail_windows;

static int tail_window(void *arg, const void *dev, size_t first, size_t n)
{
    tail_windows *tw = arg;
    const tail_spec *t = tw->t;
    const cz_scalar_split *sp = t->split;
    const dev_split *ds = tw->ds;
    cz_cuda_msm *msm = tw->cb->msm;
    const size_t ni = first == 0 ? (t->n_inputs < n ? t->n_inputs : n) : 0;
    const size_t alo = first + ni - t->n_inputs; /* the window's first aux point */
    size_t an = n - ni;
    an = alo >= sp->n ? 0 : alo + an > sp->n ? sp->n - alo : an;
    const void *aux = (const char *)dev + ni * tw->pb;
    blst_p2 part;
    int rc = CZ_OK;
    if (ni) {
        cz_cuda_msm_terms ti = { .n = ni, .scalars = t->inputs };
        if ((rc = cz_cuda_msm_run(tw->ctx, msm, t->group, &part, dev, &ti)) == CZ_OK)
            add_to(t->group, &tw->acc, &part);
    }
    if (rc == CZ_OK && an) {
        const uint64_t *ones = (ds ? ds->ones : sp->ones) + alo / 64;
        if ((rc = cz_cuda_batch_add(tw->ctx, msm, t->group, &part, aux, ones, an, ds != NULL)) ==
            CZ_OK)
            add_to(t->group, &tw->acc, &part);
    }
    const size_t s0 = lower_bound_u32(sp->sig_index, sp->n_sig, alo);
    const size_t s1 = lower_bound_u32(sp->sig_index, sp->n_sig, alo + an);
    if (rc == CZ_OK && s1 > s0) {
        cz_cuda_msm_terms ts = {
            .n = s1 - s0,
            .scalars = (ds ? ds->sig_scalar : sp->sig_scalar) + s0,
            .scalars_on_device = ds != NULL,
            .index = (ds ? ds->sig_index : sp->sig_index) + s0,
            .index_base = (uint32_t)alo,
            .index_on_device = ds != NULL,
            .nbits = (unsigned)sp->sig_bits,
        };
        if ((rc = cz_cuda_msm_run(tw->ctx, msm, t->group, &part, aux, &ts)) == CZ_OK)
            add_to(t->group, &tw->acc, &part);
    }
    return rc;
}

/* The four tails of |w|: L, A, B1, B2, in the order a region runs them. Their windows start
 * at aux multiples of 64: whole words of the ones bitmap. */
enum { N_TAILS = 4, TAIL_ALIGN = 64 };

static void tail_specs(cz_prove_work_t *w, tail_spec out[N_TAILS])
{
    out[0] = (tail_spec){ V_L, "L", 1, &w->l, NULL, 0, w->l_split, T_L, &w->t_msm_l };
    out[1] = (tail_spec){ V_A,           "A",        1,   &w->a_acc,  w->input_scalars,
                          w->num_inputs, w->a_split, T_A, &w->t_msm_a };
    out[2] = (tail_spec){
        V_B1,       "B1", 1,           &w->b1_acc, w->b_input_scalars, w->num_b_inputs,
        w->b_split, T_B,  &w->t_msm_b1
    };
    out[3] = (tail_spec){
        V_B2,       "B2", 2,           &w->b2_acc, w->b_input_scalars, w->num_b_inputs,
        w->b_split, T_B,  &w->t_msm_b2
    };
}

/* The split copy of |w|'s tail |t| on the device, in its tails slot or put there by this
 * region (splits_to_spent_result), or NULL (prep is done: its writes are visible). */
static const dev_split *staged_split(const cuda_backend_t *cb, const cz_prove_work_t *w,
                                     const tail_spec *t)
{
    const stage_slot *ts = w->tails_staged;
    if (ts)
        return &ts->split[t->t_split];
    for (size_t i = 0; i < cb->n_rsplits; i++) /* splits_to_spent_result's */
        if (cb->rsplits[i].w == w && cb->rsplits[i].split[t->t_split].ones)
            return &cb->rsplits[i].split[t->t_split];
    return NULL;
}

/* A tail whose vector is not streamed: resident (or uploaded now), else the CPU's. */
static int resident_tail(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *w,
                         const rvec want[V_COUNT], const tail_spec *t)
{
    int rc = CZ_OK;
    const void *dev = plan_keeps(cb, t->k) ? ensure_vector(ctx, cb, set, w, t->k, &want[t->k], &rc)
                                           : NULL;
    const void *host = NULL; /* not resident: the CPU's, from host memory */
    if (rc == CZ_OK && !dev && (rc = cz_backend_host_bases(ctx, w, 1u << t->k)) == CZ_OK)
        host = cz_backend_bases(w, t->k, NULL, NULL);
    if (rc != CZ_OK)
        return rc;
    const double t0 = cz_mono_s(); /* the upload, or the wait for it, is t_upload's */
    rc = device_tail(ctx, cb, t->group, t->out, dev, host, t->inputs, t->n_inputs, t->split,
                     dev ? staged_split(cb, w, t) : NULL);
    *t->t = cz_mono_s() - t0;
    return rc;
}

/* One window of a streamed tail, for every partition of a batch in turn. */
typedef struct {
    tail_windows *tw;
    size_t n;
} batch_windows;

static int batch_window(void *arg, const void *dev, size_t first, size_t n)
{
    const batch_windows *b = arg;
    int rc = CZ_OK;
    for (size_t i = 0; i < b->n && rc == CZ_OK; i++)
        rc = tail_window(&b->tw[i], dev, first, n);
    return rc;
}

/*
 * Tail |ti| of the n partitions ws[] (the same params), one pass over a
 * streamed vector: each window, while on the device, serves every
 * partition's share, so the vector crosses the link once for all n. The
 * step's time is shared out equally.
 */
static int stream_tail_batch(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set,
                             cz_prove_work_t *const *ws, size_t n, const rvec want[V_COUNT], int ti)
{
    tail_spec specs[CZ_BACKEND_MAX_BATCH][N_TAILS];
    tail_windows tw[CZ_BACKEND_MAX_BATCH];
    for (size_t i = 0; i < n; i++) {
        tail_specs(ws[i], specs[i]);
        const tail_spec *t = &specs[i][ti];
        tw[i] = (tail_windows){ .cb = cb,
                                .ctx = ctx,
                                .t = t,
                                .ds = staged_split(cb, ws[i], t),
                                .pb = want[t->k].point_bytes }; /* acc: Z = 0, infinity */
    }
    const tail_spec *t0s = &specs[0][ti];
    batch_windows bw = { tw, n };
    const cz_window_vector next = next_streamed_tail(cb, set, ws[0], want, ti);
    const double t0 = cz_mono_s();
    int rc = stream_vector(ctx, cb, set, ws[0], t0s->k, &want[t0s->k], t0s->n_inputs, TAIL_ALIGN,
                           batch_window, &bw, &next);
    const double share = (cz_mono_s() - t0) / (double)n;
    for (size_t i = 0; i < n; i++) {
        const tail_spec *t = &specs[i][ti];
        if (rc == CZ_OK)
            memcpy(t->out, &tw[i].acc, t->group == 1 ? sizeof(blst_p1) : sizeof(blst_p2));
        *t->t = share;
    }
    return rc;
}

/* The first tail after tail |ti| (-1: after the H MSMs) whose vector streams, as next_vector
 * gives it; .pinned NULL where none does (the region's last streamed vector). */
static cz_window_vector next_streamed_tail(const cuda_backend_t *cb, const rset *set,
                                           cz_prove_work_t *w, const rvec want[V_COUNT], int ti)
{
    tail_spec t[N_TAILS];
    tail_specs(w, t);
    for (int j = ti + 1; j < N_TAILS; j++)
        if (on_device(cb, t[j].k) && plan_streams(cb, t[j].k))
            return next_vector(cb, set, t[j].k, &want[t[j].k], t[j].n_inputs, TAIL_ALIGN);
    return (cz_window_vector){ 0 };
}

/* Partition i leaves the batch with |rc| and the ctx's message (canceled, or its prep failed). */
static void leave_batch(cz_ctx_t *ctx, cz_batch_result *res, int rc)
{
    res->rc = rc;
    snprintf(res->why, sizeof res->why, "%s", cz_ctx_message(ctx));
    cz_ctx_clear(ctx);
}

/* The partitions of ws[0 .. n) still in the batch (res[i].rc == 0) into live[]; their count. */
static size_t live_of(cz_prove_work_t *const *ws, size_t n, const cz_batch_result *res,
                      cz_prove_work_t **live)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (res[i].rc == CZ_OK)
            live[k++] = ws[i];
    return k;
}

/* Does some tail of the plan stream its bases? */
static bool tails_stream(const cuda_backend_t *cb)
{
    for (int k = V_L; k < V_COUNT; k++)
        if (on_device(cb, k) && plan_streams(cb, k))
            return true;
    return false;
}

/*
 * Before the tails of a plan that streams them (unless opts.no_splits_in_region),
 * the splits no tails slot holds go to the device, into the buffer of the
 * H's result (spent once every H MSM of the region has read it), as many as
 * fit, split by split. The windows' MSMs then read them there and copy no
 * split from host memory while the next window's copy is in flight: such a
 * pageable copy waits behind the window's on the copy engine, and the tails
 * ran copy + compute. Measured on an H100 at 14 GiB free, one partition: the
 * tails 1224.4 -> 941.8 ms (docs/PERFORMANCE.md, 2026-12-07). Each copy
 * waits for its DMA.
 */
static int splits_to_spent_result(cz_ctx_t *ctx, cuda_backend_t *cb, cz_prove_work_t *const *ws,
                                  size_t n)
{
    cb->n_rsplits = 0;
    size_t room = 0;
    char *at = !cb->opts.no_splits_in_region && cb->plan.h_on_device && tails_stream(cb)
                   ? cz_cuda_h_spent_result(cb->h, &room)
                   : NULL;
    const char *end = at ? at + room : NULL;
    unsigned moved = 0;
    int rc = CZ_OK;
    for (size_t i = 0; at && i < n && rc == CZ_OK; i++) {
        if (ws[i]->tails_staged)
            continue;
        region_splits *r = &cb->rsplits[cb->n_rsplits++];
        *r = (region_splits){ .w = ws[i] };
        const cz_scalar_split *sp[T_COUNT] = { ws[i]->l_split, ws[i]->a_split, ws[i]->b_split };
        for (int k = 0; k < T_COUNT && rc == CZ_OK; k++)
            if (split_bytes(sp[k]) <= (size_t)(end - at) &&
                (rc = put_split(ctx, &at, sp[k], &r->split[k])) == CZ_OK)
                moved++;
    }
    pthread_mutex_lock(&cb->smu);
    cb->splits_moved += moved;
    pthread_mutex_unlock(&cb->smu);
    return rc;
}

/*
 * The tails of the batch's partitions still in it. A partition canceled at
 * a tail's step boundary leaves the batch (res); the others go on. A
 * streamed vector makes one pass for all of them; a resident one serves
 * each in turn. Returns the region's error (every partition's), else 0.
 */
static int tails_part(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *const *ws,
                      size_t n, const rvec want[V_COUNT], cz_batch_result *res)
{
    int rc = CZ_OK;
    for (int ti = 0; ti < N_TAILS && rc == CZ_OK; ti++) {
        tail_spec t[N_TAILS];
        tail_specs(ws[0], t);
        if (!on_device(cb, t[ti].k))
            continue; /* b_g2 with g2_on_cpu: the epilogue's */
        for (size_t i = 0; i < n; i++)
            if (res[i].rc == CZ_OK && (rc = cz_backend_step(ctx, ws[i], t[ti].step)) != CZ_OK) {
                if (rc != CZ_ECANCELED)
                    return rc;
                leave_batch(ctx, &res[i], rc);
                rc = CZ_OK;
            }
        cz_prove_work_t *live[CZ_BACKEND_MAX_BATCH];
        const size_t nl = live_of(ws, n, res, live);
        if (nl && plan_streams(cb, t[ti].k)) {
            rc = stream_tail_batch(ctx, cb, set, live, nl, want, ti);
            continue;
        }
        for (size_t i = 0; i < nl && rc == CZ_OK; i++) {
            tail_specs(live[i], t);
            rc = resident_tail(ctx, cb, set, live[i], want, &t[ti]);
        }
    }
    for (size_t i = 0; i < n; i++)
        ws[i]->b2_done = rc == CZ_OK && res[i].rc == CZ_OK && on_device(cb, V_B2);
    return rc;
}

/* ---- prepare: the first region's set-up, ahead of it ------------------------------ */

/* Is |w|'s params set (described in |want|) resident, every vector of it (cmu held)? */
static bool set_resident(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec want[V_COUNT])
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    const rset *set = find_set(cb, w, want);
    if (!set)
        return false;
    for (int k = 0; k < V_COUNT; k++)
        if (want[k].n && on_device(cb, k) && (!set->v[k].dev || !same_vector(&set->v[k], &want[k])))
            return false;
    return true;
}

/* The preparer is past vector |k|: regions waiting for it go on (cmu held). */
static void preload_advance(cuda_backend_t *cb, int k)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    cb->preload_next = k + 1;
    pthread_cond_broadcast(&cb->ccv);
}

/*
 * The preparer's upload of vector |k| of cb->preload_set (|w|'s): claimed
 * under cmu (room made, device memory allocated, r->loading set), copied
 * with cmu RELEASED through the preparer's own bounce pair, so that the
 * first region runs meanwhile (its H needs no params) and waits for a
 * vector only when it needs it (preload_pending); published under cmu. A
 * vector that does not fit or fails to upload is left to the region (which
 * uploads it or takes the CPU path).
 */
static void preload_vector(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec want[V_COUNT],
                           int k)
{
    cz_mutex_lock(&cb->cmu);
    rset *set = cb->preload_set;
    set->last_use = ++cb->clock;
    rvec *r = &set->v[k];
    int rc = CZ_OK;
    void *dev = NULL;
    if (!(r->dev && same_vector(r, &want[k])) &&
        (dev = claim_vector(NULL, cb, set, r, &want[k], &rc)) != NULL)
        r->loading = true;
    cz_mutex_unlock(&cb->cmu);
    if (dev)
        rc = upload_bases(NULL, cb->pbounce, CZ__FILL_PRELOAD, dev, w, k);
    cz_mutex_lock(&cb->cmu);
    if (dev) {
        r->loading = false;
        if (rc == CZ_OK)
            r->dev = dev;
        else
            cz_cuda_free(dev);
    }
    if (dev && rc == CZ_OK) {
        pthread_mutex_lock(&cb->smu);
        cb->h2d_total += want[k].n * want[k].point_bytes;
        pthread_mutex_unlock(&cb->smu);
    }
    preload_advance(cb, k);
    cz_mutex_unlock(&cb->cmu);
}

/*
 * The preparer's pinned host copy of vector |k| of cb->preload_set, for a
 * vector the plan streams: claimed under cmu (r->loading), filled with cmu
 * released on CZ__FILL_PRELOAD threads, published under cmu.
 */
static void preload_pin(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec want[V_COUNT],
                        int k)
{
    cz_mutex_lock(&cb->cmu);
    rvec *r = &cb->preload_set->v[k];
    const bool need = !holds_points(r, &want[k]) && !r->loading;
    if (need) {
        forget_points(cb, r, &want[k]);
        r->loading = true;
    }
    cz_mutex_unlock(&cb->cmu);
    cz_cuda_pinned pin = { 0 };
    if (need)
        pin_points(cb, &pin, w, k, CZ__FILL_PRELOAD);
    cz_mutex_lock(&cb->cmu);
    if (need) {
        r->pin = pin;
        r->loading = false;
    }
    preload_advance(cb, k);
    cz_mutex_unlock(&cb->cmu);
}

/* Vector |k| by the preparer, as the plan has it: uploaded, pinned, or left (the CPU's). */
static void preload_one(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec want[V_COUNT],
                        int k)
{
    cz_mutex_lock(&cb->cmu);
    const bool keep = on_device(cb, k) && plan_keeps(cb, k);
    const bool stream = on_device(cb, k) && plan_streams(cb, k);
    if (!keep && !stream)
        preload_advance(cb, k);
    cz_mutex_unlock(&cb->cmu);
    if (keep)
        preload_vector(cb, w, want, k);
    else if (stream)
        preload_pin(cb, w, want, k);
}

/*
 * Record (smu) what a region or the preparer found resident: |w|'s set, its
 * h vector described in |h|; |w| NULL: nothing known.
 */
static void note_prepared(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec *h,
                          unsigned h_log)
{
    pthread_mutex_lock(&cb->smu);
    cb->prepared_id = w ? w->params_id : NULL;
    if (w)
        cb->prepared_h = *h;
    cb->prepared_log = w ? h_log : 0;
    pthread_mutex_unlock(&cb->smu);
}

/*
 * The preparer: contexts and the region's bounce buffers first (the region
 * needs them and they are quick), and the staging slots if the whole set
 * fits beside them; then the params set is uploaded vector by vector, h
 * first (the first region's first MSM), with cmu released during each copy;
 * then the slots, if they were left for after the set, in the room left.
 */
static void *prepare_main(void *arg)
{
    cuda_backend_t *cb = arg;
    const cz_prove_work_t *w = &cb->prepare_bases;
    rvec want[V_COUNT]; /* read once, before the lock (a params file's: from the file) */
    describe(want, w);
    cz_mutex_lock(&cb->cmu);
    rset *set = find_set(cb, w, want);
    cb->preload_set = set ? set : new_set(cb, w);
    cb->preload_next = 0;
    int rc = plan_region(NULL, cb, cb->preload_set, w, want);
    const bool slots = rc == CZ_OK && (cb->plan.level == CZ_DEVPLAN_RESIDENT || cb->plan.slots);
    if (rc == CZ_OK) {
        ensure_pair(cb->bounce);
        /* the slots now, for the first partitions, if the whole set fits beside them; else
         * after the set, in what is left: the params come first */
        const size_t need = (size_t)2 << w->log_m;
        if (slots &&
            room_for(NULL, cb, set_bytes(cb, want) + CZ__STAGE_SLOTS * need * sizeof(cz_fr)))
            size_slots(NULL, cb, cb->slots, need);
    } else {
        cb->preload_set = NULL;
        pthread_cond_broadcast(&cb->ccv);
    }
    cz_mutex_unlock(&cb->cmu);
    if (rc == CZ_OK) {
        for (int k = 0; k < V_COUNT; k++)
            preload_one(cb, w, want, k);
        cz_mutex_lock(&cb->cmu);
        if (slots) /* no-op when sized above */
            size_slots(NULL, cb, cb->slots, (size_t)2 << w->log_m);
        cb->preload_set = NULL;
        pthread_cond_broadcast(&cb->ccv);
        bool resident = set_resident(cb, w, want);
        unsigned h_log = cb->h_log;
        cz_mutex_unlock(&cb->cmu);
        note_prepared(cb, resident ? w : NULL, &want[V_H], h_log);
    }
    pthread_mutex_lock(&cb->smu);
    cb->preparing = false;
    pthread_cond_broadcast(&cb->scv);
    pthread_mutex_unlock(&cb->smu);
    return NULL;
}

static void cuda_prepare(cz_backend_t *be, const cz_prove_work_t *bases)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    rvec h;
    describe_one(&h, bases, V_H); /* before smu: it may read the params file */
    pthread_mutex_lock(&cb->smu);
    /* one preparer at a time; none when the set was resident last time we looked (a
     * daemon's later jobs): never cmu here, a region may hold it for a second */
    bool known = cb->prepared_id == bases->params_id && same_vector(&cb->prepared_h, &h) &&
                 cb->prepared_log >= bases->log_m;
    if (!cb->preparing && !known) {
        if (cb->preparer_joinable)
            pthread_join(cb->preparer, NULL); /* finished: it cleared preparing */
        cb->prepare_bases = *bases;
        cb->preparing = pthread_create(&cb->preparer, NULL, prepare_main, cb) == 0;
        cb->preparer_joinable = cb->preparing;
    }
    pthread_mutex_unlock(&cb->smu);
}

static void cuda_settle(cz_backend_t *be)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    pthread_mutex_lock(&cb->smu);
    while (cb->preparing)
        pthread_cond_wait(&cb->scv, &cb->smu);
    pthread_mutex_unlock(&cb->smu);
}

static int device_region(cuda_backend_t *cb, cz_ctx_t *ctx, cz_prove_work_t *const *ws, size_t n,
                         const rvec want[V_COUNT], cz_batch_result *res);

/* The region of ws[0 .. n), whose set-up took |setup| s, into |sum|. */
static void add_parts(cz_region_parts *sum, cz_prove_work_t *const *ws, size_t n, double setup)
{
    sum->setup += setup;
    for (size_t i = 0; i < n; i++) {
        const cz_prove_work_t *w = ws[i];
        sum->h += w->t_ntt;
        sum->msm_h += w->t_msm_h;
        sum->prep_wait += w->t_prep_wait;
        sum->tails += w->t_msm_l + w->t_msm_a + w->t_msm_b1 + (w->b2_done ? w->t_msm_b2 : 0);
    }
}

/*
 * The region of n partitions of one params set (n = 1: cuda_device). Each
 * partition's outcome in res[i]; returns the region's own error, which is
 * every partition's that had none (res says so too).
 */
static int region_of(cuda_backend_t *cb, cz_ctx_t *ctx, cz_prove_work_t *const *ws, size_t n,
                     cz_batch_result *res)
{
    cz_prove_work_t *w = ws[0];
    rvec want[V_COUNT]; /* the params' vectors, read once, before the lock */
    describe(want, w);
    for (size_t i = 0; i < n; i++)
        res[i] = (cz_batch_result){ .rc = CZ_OK };
    double t0 = cz_mono_s();
    cz_mutex_lock(&cb->cmu); /* a preparer making the contexts: its set-up is this region's */
    double t_wait = cz_mono_s() - t0;
    cb->upload_s = 0;
    cb->h2d_bytes = 0;
    cb->region_ahead = 0;
    CZ_ASSERT(!cb->ahead.src);
    int rc = device_region(cb, ctx, ws, n, want, res);
    settle_ahead(cb); /* a window copied ahead that no vector took (a partition left the batch) */
    const double setup = w->t_setup + t_wait;
    for (size_t i = 0; i < n; i++) { /* the region's shared costs, shared out */
        ws[i]->t_setup = setup / (double)n;
        ws[i]->t_upload = cb->upload_s / (double)n;
        ws[i]->h2d_bytes = cb->h2d_bytes / n;
    }
    pthread_mutex_lock(&cb->smu);
    cb->regions++;
    cb->partitions += n;
    cb->h2d_total += cb->h2d_bytes;
    cb->windows_ahead += cb->region_ahead;
    add_parts(&cb->parts, ws, n, setup);
    pthread_mutex_unlock(&cb->smu);
    bool resident = rc == CZ_OK && set_resident(cb, w, want);
    /* slots for the next partitions, where the plan and the device have room for them */
    if (rc == CZ_OK && (cb->plan.level == CZ_DEVPLAN_RESIDENT || cb->plan.slots > 0)) {
        size_slots(NULL, cb, cb->slots, (size_t)2 << w->log_m);
        pthread_mutex_lock(&cb->smu);
        const size_t tails = cb->tails_want;
        pthread_mutex_unlock(&cb->smu);
        if (tails)
            size_slots(NULL, cb, cb->tslots, tails);
    }
    unsigned h_log = cb->h ? cb->h_log : 0;
    cz_mutex_unlock(&cb->cmu);
    note_prepared(cb, resident ? w : NULL, &want[V_H], h_log);
    for (size_t i = 0; i < n; i++) {
        cuda_unstage(&cb->base, ws[i]); /* a region that failed before its H: the slot */
        if (rc != CZ_OK && res[i].rc == CZ_OK) {
            res[i].rc = rc;
            snprintf(res[i].why, sizeof res[i].why, "%s", cz_ctx_message(ctx));
        }
    }
    return rc;
}

static int cuda_device(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *w)
{
    cz_batch_result res;
    int rc = region_of((cuda_backend_t *)be, ctx, &w, 1, &res);
    if (rc == CZ_OK && res.rc != CZ_OK) /* canceled, or its prep failed: the message kept */
        rc = cz_fail(ctx, res.rc, "%s", res.why);
    return rc;
}

static int cuda_device_batch(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *const *ws, size_t n,
                             cz_batch_result *res)
{
    return region_of((cuda_backend_t *)be, ctx, ws, n, res) == CZ_EDEVICE ? CZ_EDEVICE : CZ_OK;
}

static unsigned cuda_batch_max(cz_backend_t *be, const cz_prove_work_t *w)
{
    (void)w;
    return atomic_load(&((cuda_backend_t *)be)->batch_advice);
}

/*
 * H of each partition in turn (the H context serves one at a time; its
 * MSM's bases streamed or resident), then, once every prep is done, the
 * tails: a streamed vector crosses the link once for the whole batch.
 */
static int device_region(cuda_backend_t *cb, cz_ctx_t *ctx, cz_prove_work_t *const *ws, size_t n,
                         const rvec want[V_COUNT], cz_batch_result *res)
{
    cz_prove_work_t *w = ws[0];
    cb->clock++;
    rset *set = find_set(cb, w, want);
    if (!set)
        set = new_set(cb, w);
    set->last_use = cb->clock;
    double t0 = cz_mono_s();
    int rc = plan_region(ctx, cb, set, w, want);
    w->t_setup = cz_mono_s() - t0;
    if (rc != CZ_OK)
        return rc;
    if (cz_backend_enter(ctx, &cb->base) != CZ_OK)
        return cz_cuda_inject_fault(ctx); /* a real sticky fault, as the device would give */

    for (size_t i = 0; i < n; i++) {
        if ((rc = h_part(ctx, cb, set, ws[i], want, i + 1 == n)) == CZ_ECANCELED) {
            leave_batch(ctx, &res[i], rc);
            continue;
        }
        if (rc != CZ_OK)
            return rc;
        cz_backend_abc_done(ws[i]); /* the tails read the splits only */
    }
    cz_prove_work_t *live[CZ_BACKEND_MAX_BATCH];
    if (!live_of(ws, n, res, live))
        return CZ_OK; /* every partition canceled */
    if ((rc = tails_ahead(ctx, cb, set, w, want)) != CZ_OK)
        return rc;
    for (size_t i = 0; i < n; i++) {
        if (res[i].rc != CZ_OK)
            continue;
        t0 = cz_mono_s();
        rc = cz_latch_wait(ws[i]->prep_done);
        ws[i]->t_prep_wait = cz_mono_s() - t0;
        if (rc != CZ_OK && res[i].rc == CZ_OK) {
            cz_fail(ctx, rc, "device region: prep failed: %s", cz_strerror(rc));
            leave_batch(ctx, &res[i], rc);
        }
    }
    const size_t nl = live_of(ws, n, res, live);
    cz_batch_result lres[CZ_BACKEND_MAX_BATCH];
    for (size_t i = 0; i < nl; i++)
        lres[i] = (cz_batch_result){ .rc = CZ_OK };
    t0 = cz_mono_s();
    rc = splits_to_spent_result(ctx, cb, live, nl);
    const double put_s = cz_mono_s() - t0;
    if (rc == CZ_OK && nl)
        rc = tails_part(ctx, cb, set, live, nl, want, lres);
    cb->n_rsplits = 0;              /* the buffer is the next H's */
    for (size_t i = 0; i < nl; i++) /* the splits' copies are the tails' cost: L's step's */
        live[i]->t_msm_l += put_s / (double)nl;
    for (size_t i = 0, j = 0; i < n; i++)
        if (res[i].rc == CZ_OK)
            res[i] = lres[j++];
    return rc;
}

static void cuda_free_backend(cz_backend_t *be)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    if (cb->preparer_joinable)
        pthread_join(cb->preparer, NULL);
    cz_cuda_set_device(NULL, be->device_index); /* a NULL ctx drops the message */
    for (int s = 0; s < CZ__RESIDENT_SETS; s++)
        drop_set(cb, &cb->sets[s]);
    for (int s = 0; s < CZ__STAGE_SLOTS; s++) {
        cz_cuda_free(cb->slots[s].dev);
        cz_cuda_free(cb->tslots[s].dev);
        cz_cuda_host_free(cb->slots[s].bounce[0]);
        cz_cuda_host_free(cb->slots[s].bounce[1]);
    }
    for (int i = 0; i < 2; i++) {
        cz_cuda_host_free(cb->bounce[i]);
        cz_cuda_host_free(cb->pbounce[i]);
    }
    pthread_cond_destroy(&cb->ccv);
    pthread_cond_destroy(&cb->scv);
    pthread_mutex_destroy(&cb->smu);
    cz_mutex_destroy(&cb->cmu);
    cz_cuda_h_free(cb->h);
    cz_cuda_h_free(cb->turn_h);
    cz_cuda_msm_free(cb->msm);
    cz_cuda_copier_free(cb->copier);
    cz_cuda_free(cb->own_win[0]);
    cz_cuda_free(cb->own_win[1]);
    cz_ntt_domain_free(cb->cpu_dom);
    free(cb);
}

static void cuda_report(cz_backend_t *be, cz_backend_report *out)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    pthread_mutex_lock(&cb->smu);
    snprintf(out->plan, sizeof out->plan, "%s", cb->plan_line);
    out->regions = cb->regions;
    out->partitions = cb->partitions;
    out->h2d_bytes = cb->h2d_total;
    out->replans = cb->replans;
    out->parts = cb->parts;
    out->splits_in_region = cb->splits_moved;
    out->pinned = cb->pinned;
    out->windows_ahead = cb->windows_ahead;
    pthread_mutex_unlock(&cb->smu);
}

static const cz_backend_ops_t cuda_ops = {
    .name = "cuda",
    .device = cuda_device,
    .free = cuda_free_backend,
    .stage = cuda_stage,
    .unstage = cuda_unstage,
    .stage_tails = cuda_stage_tails,
    .unstage_tails = cuda_unstage_tails,
    .pin = cuda_pin,
    .unpin = cuda_unpin,
    .prepare = cuda_prepare,
    .settle = cuda_settle,
    .report = cuda_report,
    .batch_max = cuda_batch_max,
    .device_batch = cuda_device_batch,
};

int cz_cuda_backend_new(cz_ctx_t *ctx, cz_backend_t **out, int device_index,
                        const cz_cuda_backend_opts_t *opts)
{
    *out = NULL;
    char why[256];
    if (cz_cuda_probe(why, sizeof why) != CZ_OK)
        return cz_fail(ctx, CZ_EUNAVAIL, "cuda backend: %s", why);
    if (device_index < 0 || device_index >= cz_cuda_device_count())
        return cz_fail(ctx, CZ_EUNAVAIL, "cuda backend: no device %d (%d usable)", device_index,
                       cz_cuda_device_count());
    int rc = cz_cuda_set_device(ctx, device_index);
    /* the kernels' local memory out of the free memory before any plan reads it; where
     * even that does not fit now, the first launch reserves it later, as without this */
    if (rc == CZ_OK && cz_cuda_reserve_stack(ctx, cz_cuda_msm_stack_bytes()) != CZ_OK)
        cz_ctx_clear(ctx);
    size_t free_b = 0, total_b = 0;
    if (rc == CZ_OK)
        rc = cz_cuda_mem_info(ctx, &free_b, &total_b);
    if (rc != CZ_OK)
        return rc;
    cuda_backend_t *cb = calloc(1, sizeof *cb);
    if (!cb)
        return cz_fail(ctx, CZ_ENOMEM, "cuda backend");
    cb->base.ops = &cuda_ops;
    cb->base.device_index = device_index;
    pthread_mutex_init(&cb->smu, NULL);
    pthread_cond_init(&cb->scv, NULL);
    cz_mutex_init(&cb->cmu);
    pthread_cond_init(&cb->ccv, NULL);
    if (opts)
        cb->opts = *opts;
    atomic_init(&cb->batch_advice, 1);
    cb->limit = cb->opts.device_mem_limit ? cb->opts.device_mem_limit
                                          : (total_b > CZ__HEADROOM ? total_b - CZ__HEADROOM : 0);
    *out = &cb->base;
    return CZ_OK;
}
