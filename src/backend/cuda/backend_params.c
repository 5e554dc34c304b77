/*
 * backend/cuda/backend_params.c — the params vectors of the CUDA backend
 * (backend_int.h): the device memory it holds, the resident sets (found by
 * params_id and a fingerprint, least recently used evicted first), the
 * vectors' uploads (through pinned bounce buffers filled on threads of
 * their own; a params file's points decoded on the device) and the pinned
 * host copies of the vectors a plan streams.
 */
#include <pthread.h>
#include <string.h>

#include "backend/cuda/backend_int.h"
#include "core/clock.h"

/* ---- device memory accounting --------------------------------------------------- */

/* Device bytes of the resident vectors of every set, and of those the preparer is filling. */
size_t cz__cb_resident_bytes(const cuda_backend_t *cb)
{
    size_t sum = 0;
    for (int s = 0; s < CZ__RESIDENT_SETS; s++)
        for (int v = 0; v < V_COUNT; v++)
            if (cb->sets[s].v[v].dev || cb->sets[s].v[v].claimed)
                sum += cb->sets[s].v[v].n * cb->sets[s].v[v].point_bytes;
    return sum;
}

/* Does vector |k| go to the device? All do but b_g2 with g2_on_cpu (the epilogue's then). */
bool cz__cb_on_device(const cuda_backend_t *cb, int k)
{
    return k != V_B2 || !cb->opts.g2_on_cpu;
}

static size_t fixed_bytes(const cuda_backend_t *cb)
{
    /* buckets: up to the plan's cap (5 GiB at most, cuda.h), allocated on need */
    const size_t buckets = cb->plan.bucket_cap ? cb->plan.bucket_cap : 5 * CZ__GIB;
    return (cb->h ? cz_cuda_h_mem_bytes_buffers(cb->h_log, cz_cuda_h_buffers(cb->h)) : 0) +
           cz_cuda_h_held_bytes(cb->turn_h) + (cb->msm ? cz_cuda_msm_mem_bytes(cb->msm_chunk) : 0) +
           cz__cb_slot_bytes(cb) + buckets + (cb->own_win[0] ? 2 * cb->own_win_bytes : 0);
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
bool cz__cb_set_busy(const cuda_backend_t *cb, const rset *s)
{
    return s == cb->preload_set || set_loading(s);
}

/* Is vector |k| of |s| still to come from the preparer (loading, or not reached yet)? */
bool cz__cb_preload_pending(const cuda_backend_t *cb, const rset *s, int k)
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

void cz__cb_drop_set(const cuda_backend_t *cb, rset *s)
{
    CZ_ASSERT(!set_loading(s));
    for (int v = 0; v < V_COUNT; v++) {
        cz_cuda_free(s->v[v].dev);
        unpin(cb, &s->v[v].pin);
    }
    memset(s, 0, sizeof *s);
}

/* Is there room for |bytes| more, under the limit and in the device's free memory? */
bool cz__cb_room_for(cz_ctx_t *ctx, const cuda_backend_t *cb, size_t bytes)
{
    size_t free_b = 0, total_b = 0;
    if (cz_cuda_mem_info(ctx, &free_b, &total_b) != CZ_OK)
        return false;
    return fixed_bytes(cb) + cz__cb_resident_bytes(cb) + bytes <= cb->limit &&
           bytes + CZ__RUNTIME_SLACK <= free_b;
}

/* Make room by evicting the least recently used other sets; true when it fits. */
static bool make_room(cz_ctx_t *ctx, cuda_backend_t *cb, const rset *keep, size_t bytes)
{
    while (!cz__cb_room_for(ctx, cb, bytes)) {
        rset *lru = NULL;
        for (int s = 0; s < CZ__RESIDENT_SETS; s++)
            if (cb->sets[s].id && &cb->sets[s] != keep && !cz__cb_set_busy(cb, &cb->sets[s]) &&
                (!lru || cb->sets[s].last_use < lru->last_use))
                lru = &cb->sets[s];
        if (!lru)
            return cz__cb_drop_idle_slots(cb) && cz__cb_room_for(ctx, cb, bytes); /* params first */
        cz__cb_drop_set(cb, lru);
    }
    return true;
}

/* ---- resident params ---------------------------------------------------------- */

/* Is the vector fingerprinted in |r| the one described in |want|? */
bool cz__cb_same_vector(const rvec *r, const rvec *want)
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
void cz__cb_describe_one(rvec *v, const cz_prove_work_t *w, int k)
{
    memset(v, 0, sizeof *v);
    (void)cz_backend_bases(w, k, &v->n, &v->point_bytes);
    if (v->n && (cz_backend_read_bases(NULL, w, k, 0, 1, v->first) != CZ_OK ||
                 cz_backend_read_bases(NULL, w, k, v->n - 1, 1, v->last) != CZ_OK))
        memset(v->first, 0xff, sizeof v->first); /* >= p: no point's */
}

/* Every vector of |w|: once per region or preparation, before cmu (a file's are read). */
void cz__cb_describe(rvec v[V_COUNT], const cz_prove_work_t *w)
{
    for (int k = 0; k < V_COUNT; k++)
        cz__cb_describe_one(&v[k], w, k);
}

/* Device bytes of a whole params set, described (the vectors its regions put on the device). */
size_t cz__cb_set_bytes(const cuda_backend_t *cb, const rvec want[V_COUNT])
{
    size_t sum = 0;
    for (int k = 0; k < V_COUNT; k++)
        if (cz__cb_on_device(cb, k))
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
rset *cz__cb_find_set(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec want[V_COUNT])
{
    for (int s = 0; s < CZ__RESIDENT_SETS; s++) {
        rset *r = &cb->sets[s];
        if (r->id != w->params_id)
            continue;
        if (r == cb->preload_set) /* the preparer's params, alive: the same object */
            return r;
        if (cz__cb_same_vector(&r->v[V_H], &want[V_H]))
            return r;
        if (!cz__cb_set_busy(cb, r))
            cz__cb_drop_set(cb, r);
    }
    return NULL;
}

rset *cz__cb_new_set(cuda_backend_t *cb, const cz_prove_work_t *w)
{
    rset *slot = NULL;
    for (int s = 0; s < CZ__RESIDENT_SETS && !slot; s++)
        if (!cb->sets[s].id)
            slot = &cb->sets[s];
    if (!slot) { /* all used: replace the least recently used (one preparer: one set loading) */
        for (int s = 0; s < CZ__RESIDENT_SETS; s++)
            if (!cz__cb_set_busy(cb, &cb->sets[s]) &&
                (!slot || cb->sets[s].last_use < slot->last_use))
                slot = &cb->sets[s];
        cz__cb_drop_set(cb, slot);
    }
    slot->id = w->params_id;
    return slot;
}

/* ---- uploads of params vectors ------------------------------------------------ */

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
int cz__cb_fill_threads(void *arg, void *dst, size_t off, size_t len)
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
void cz__cb_ensure_pair(void *pair[2])
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
int cz__cb_upload_pageable(cz_ctx_t *ctx, void *pair[2], unsigned fill, void *dev, const void *host,
                           size_t bytes)
{
    if (bytes >= 4 * CZ__BOUNCE_BYTES)
        cz__cb_ensure_pair(pair);
    if (bytes < 4 * CZ__BOUNCE_BYTES || !pair[0])
        return cz_cuda_memcpy_htod(ctx, dev, host, bytes);
    fill_from from = { fill, host, NULL, 0, 64, 0, false };
    return cz_cuda_upload_bounced(ctx, dev, bytes, pair, CZ__BOUNCE_BYTES, cz__cb_fill_threads,
                                  &from);
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
int cz__cb_upload_bases(cz_ctx_t *ctx, void *pair[2], unsigned fill, void *dev,
                        const cz_prove_work_t *w, int k)
{
    size_t n, pb;
    const void *host = cz_backend_bases(w, k, &n, &pb);
    if (!host && n) {
        cz__cb_ensure_pair(pair);
        if (!pair[0] && w->source.host) {
            int rc = w->source.host(ctx, w->source.obj, k, &host);
            if (rc != CZ_OK)
                return rc;
        }
    }
    if (host || !n)
        return cz__cb_upload_pageable(ctx, pair, fill, dev, host, n * pb);
    /* the encoded sizes (96, 192 bytes) are the affine points' */
    fill_from from = { fill, NULL, w, k, pb, 0, false };
    int rc = cz_cuda_upload_bounced(ctx, dev, n * pb, pair, CZ__BOUNCE_BYTES / pb * pb,
                                    cz__cb_fill_threads, &from);
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
void *cz__cb_claim_vector(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, rvec *r, const rvec *want,
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
const void *cz__cb_ensure_vector(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set,
                                 const cz_prove_work_t *w, int k, const rvec *want, int *rc)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    rvec *r = &set->v[k];
    const double t0 = cz_mono_s();
    while (cz__cb_preload_pending(cb, set, k))
        cz_cond_wait(&cb->ccv, &cb->cmu);
    if (r->dev && cz__cb_same_vector(r, want)) {
        cb->upload_s += cz_mono_s() - t0;
        return r->dev;
    }
    void *dev = cz__cb_claim_vector(ctx, cb, set, r, want, rc);
    if (!dev)
        return NULL;
    *rc = cz__cb_upload_bases(ctx, cb->bounce, CZ__FILL_REGION, dev, w, k);
    cb->upload_s += cz_mono_s() - t0;
    cb->h2d_bytes += want->n * want->point_bytes;
    if (*rc != CZ_OK) {
        cz_cuda_free(dev);
        return NULL;
    }
    r->dev = dev;
    return dev;
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
void cz__cb_pin_points(const cuda_backend_t *cb, cz_cuda_pinned *pin, const cz_prove_work_t *w,
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
    if (cz__cb_fill_threads(&from, pin->mem, 0, n * pb) != CZ_OK)
        unpin(cb, pin);
}

/* Does |r| hold |want|'s points somewhere (pinned host copy or device)? */
bool cz__cb_holds_points(const rvec *r, const rvec *want)
{
    return cz__cb_same_vector(r, want) && (r->pin.mem || r->dev);
}

/* |r| becomes |want| with no copy anywhere (its old ones freed), cmu held. */
void cz__cb_forget_points(const cuda_backend_t *cb, rvec *r, const rvec *want)
{
    cz_cuda_free(r->dev);
    unpin(cb, &r->pin);
    *r = *want;
}

/* Vector |k| of |set|, streamed by the plan: its pinned copy, made here if the preparer has
 * not (cmu held; waits for a preparer still on it). */
const void *cz__cb_pinned_vector(cuda_backend_t *cb, rset *set, const cz_prove_work_t *w, int k,
                                 const rvec *want)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    rvec *r = &set->v[k];
    const double t0 = cz_mono_s();
    while (cz__cb_preload_pending(cb, set, k))
        cz_cond_wait(&cb->ccv, &cb->cmu);
    if (!cz__cb_holds_points(r, want)) {
        cz__cb_forget_points(cb, r, want);
        cz__cb_pin_points(cb, &r->pin, w, k, CZ__FILL_REGION);
    }
    cb->upload_s += cz_mono_s() - t0;
    return r->pin.mem;
}
