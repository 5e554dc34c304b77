/*
 * backend/cuda/backend_tails.c — the region's tails, L, A, B1 and B2: each
 * the inputs' MSM, a batch addition over the ones and an MSM over the
 * significant scalars, against resident bases (or the CPU's), or window by
 * window over a streamed vector, one pass serving every partition of a
 * batch; the splits no tails slot holds put in the H's spent result first.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "backend/cuda/backend_int.h"
#include "core/clock.h"

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

/* acc (a blst_p1 or blst_p2 of |group|) += x */
static void add_to(int group, void *acc, const void *x)
{
    if (group == 1)
        blst_p1_add_or_double(acc, acc, x);
    else
        blst_p2_add_or_double(acc, acc, x);
}

/*
 * Before the wait for prep: the tails' vectors that are neither resident
 * nor being loaded by the preparer are uploaded now, while prep runs on the
 * CPU (a set's first region with no preparer: 32 GiB at 32GiB, seconds).
 * Those the preparer is loading are waited for one at a time in
 * cz__cb_tails_part, each just before its MSM: L runs while a, b_g1 and b_g2 still
 * arrive.
 */
int cz__cb_tails_ahead(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, const cz_prove_work_t *w,
                       const rvec want[V_COUNT])
{
    int rc = CZ_OK;
    for (int k = V_L; k < V_COUNT && rc == CZ_OK; k++)
        if (cz__cb_on_device(cb, k) && cz__cb_plan_keeps(cb, k) &&
            !cz__cb_preload_pending(cb, set, k))
            (void)cz__cb_ensure_vector(ctx, cb, set, w, k, &want[k], &rc);
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
 * region (cz__cb_splits_to_spent_result), or NULL (prep is done: its writes are visible). */
static const dev_split *staged_split(const cuda_backend_t *cb, const cz_prove_work_t *w,
                                     const tail_spec *t)
{
    const stage_slot *ts = w->tails_staged;
    if (ts)
        return &ts->split[t->t_split];
    for (size_t i = 0; i < cb->n_rsplits; i++) /* cz__cb_splits_to_spent_result's */
        if (cb->rsplits[i].w == w && cb->rsplits[i].split[t->t_split].ones)
            return &cb->rsplits[i].split[t->t_split];
    return NULL;
}

/* A tail whose vector is not streamed: resident (or uploaded now), else the CPU's. */
static int resident_tail(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *w,
                         const rvec want[V_COUNT], const tail_spec *t)
{
    int rc = CZ_OK;
    const void *dev = cz__cb_plan_keeps(cb, t->k)
                          ? cz__cb_ensure_vector(ctx, cb, set, w, t->k, &want[t->k], &rc)
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
    const cz_window_vector next = cz__cb_next_streamed_tail(cb, set, ws[0], want, ti);
    const double t0 = cz_mono_s();
    int rc = cz__cb_stream_vector(ctx, cb, set, ws[0], t0s->k, &want[t0s->k], t0s->n_inputs,
                                  TAIL_ALIGN, batch_window, &bw, &next);
    const double share = (cz_mono_s() - t0) / (double)n;
    for (size_t i = 0; i < n; i++) {
        const tail_spec *t = &specs[i][ti];
        if (rc == CZ_OK)
            memcpy(t->out, &tw[i].acc, t->group == 1 ? sizeof(blst_p1) : sizeof(blst_p2));
        *t->t = share;
    }
    return rc;
}

/* The first tail after tail |ti| (-1: after the H MSMs) whose vector streams, as cz__cb_next_vector
 * gives it; .pinned NULL where none does (the region's last streamed vector). */
cz_window_vector cz__cb_next_streamed_tail(const cuda_backend_t *cb, const rset *set,
                                           cz_prove_work_t *w, const rvec want[V_COUNT], int ti)
{
    tail_spec t[N_TAILS];
    tail_specs(w, t);
    for (int j = ti + 1; j < N_TAILS; j++)
        if (cz__cb_on_device(cb, t[j].k) && cz__cb_plan_streams(cb, t[j].k))
            return cz__cb_next_vector(cb, set, t[j].k, &want[t[j].k], t[j].n_inputs, TAIL_ALIGN);
    return (cz_window_vector){ 0 };
}

/* Does some tail of the plan stream its bases? */
static bool tails_stream(const cuda_backend_t *cb)
{
    for (int k = V_L; k < V_COUNT; k++)
        if (cz__cb_on_device(cb, k) && cz__cb_plan_streams(cb, k))
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
int cz__cb_splits_to_spent_result(cz_ctx_t *ctx, cuda_backend_t *cb, cz_prove_work_t *const *ws,
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
            if (cz__cb_split_bytes(sp[k]) <= (size_t)(end - at) &&
                (rc = cz__cb_put_split(ctx, &at, sp[k], &r->split[k])) == CZ_OK)
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
int cz__cb_tails_part(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *const *ws,
                      size_t n, const rvec want[V_COUNT], cz_batch_result *res)
{
    int rc = CZ_OK;
    for (int ti = 0; ti < N_TAILS && rc == CZ_OK; ti++) {
        tail_spec t[N_TAILS];
        tail_specs(ws[0], t);
        if (!cz__cb_on_device(cb, t[ti].k))
            continue; /* b_g2 with g2_on_cpu: the epilogue's */
        for (size_t i = 0; i < n; i++)
            if (res[i].rc == CZ_OK && (rc = cz_backend_step(ctx, ws[i], t[ti].step)) != CZ_OK) {
                if (rc != CZ_ECANCELED)
                    return rc;
                cz__cb_leave_batch(ctx, &res[i], rc);
                rc = CZ_OK;
            }
        cz_prove_work_t *live[CZ_BACKEND_MAX_BATCH];
        const size_t nl = cz__cb_live_of(ws, n, res, live);
        if (nl && cz__cb_plan_streams(cb, t[ti].k)) {
            rc = stream_tail_batch(ctx, cb, set, live, nl, want, ti);
            continue;
        }
        for (size_t i = 0; i < nl && rc == CZ_OK; i++) {
            tail_specs(live[i], t);
            rc = resident_tail(ctx, cb, set, live[i], want, &t[ti]);
        }
    }
    for (size_t i = 0; i < n; i++)
        ws[i]->b2_done = rc == CZ_OK && res[i].rc == CZ_OK && cz__cb_on_device(cb, V_B2);
    return rc;
}
