/*
 * backend/cuda/msm_affine.cuh — G1's bucket accumulation in batch-affine
 * rounds (issue 37), included by msm.cu after the G1 kernels: their pass
 * (msm_impl.cuh, CZ_MSM_AFFINE) calls cz__g1_affine_pass, declared ahead,
 * where the MSM's affine switch is on (cz_cuda_msm_set_affine).
 *
 * The XYZZ accumulation (msm_impl.cuh) adds a bucket's entries one after
 * the other, ~10 products each. Here a bucket's points are summed as a
 * tree, one level a round, every addition of a round affine with its
 * inversion shared (Montgomery's trick): ~6 products an addition plus the
 * round's share of one inversion per 4096 additions.
 *
 * A pass's sorted entries (keys = bucket, vals = base index | sign) first
 * give each bucket b its run: start[b], cnt[b]; the most entries any bucket
 * of a window holds sets that window's rounds, R = ceil(log2(most)) (one
 * 4-byte-a-window read-back a pass). Then per window, round r = 0 .. R-1
 * takes list r (round 0: the entries themselves, bases gathered by index)
 * where bucket b holds L_r = ceil(cnt[b] / 2^r) points from pos_r[b], and
 * writes list r + 1: output j of bucket b is the sum of its points 2j and
 * 2j + 1, or point 2j alone when it is the last of an odd count.
 * pos_(r+1) is an exclusive scan of ceil(cnt / 2^(r+1)) (CUB). An output
 * finds its bucket by a binary search in pos_(r+1) for a thread's first
 * output and a walk after it (a thread's 16 outputs are consecutive). After
 * round R every bucket holds one point, stored into the bucket set as XYZZ
 * (the chunk's buckets start empty, so a store, as the XYZZ path does).
 *
 * A round is three launches: prefix (each thread's 16 denominators into
 * running products, kept in its outputs' X until the sums; the block's
 * scan, batch_inv.cuh), one inversion per block of 4096 (cz__bi_invert,
 * binary Euclid: its latency is the round's fixed cost), sums (back through
 * the products, each sum from its own inverse). Pairs with equal x are
 * exact: a doubling takes 2y as its denominator, P + (-P) and a point at
 * infinity take 1 (random params repeat a tile of bases, so both occur).
 *
 * Memory: none of its own. The sort's second buffers (keys and values,
 * idle once the pass's entries are sorted) hold the lists and tables; a
 * pass whose lists do not fit there takes the XYZZ path (cz__aff_layout).
 * The lists are bounded on the host: list r + 1 holds at most
 * (U_r + min(U_r, buckets)) / 2 points for U_r in list r, U_0 = the chunk.
 */

#include "backend/cuda/batch_inv.cuh"
#include "backend/cuda/msm_rounds.cuh"

#define CZ__AFF_PER 16u                               /* outputs a thread */
#define CZ__AFF_BLOCK (CZ__BI_THREADS * CZ__AFF_PER)  /* outputs an inversion */

/* Where a pass's lists and tables lie in the sort's idle buffers. */
typedef struct {
    cz_g1_aff *list[2];         /* rounds 1, 3, .. write list[0]; rounds 2, 4, .. list[1] */
    uint32_t *src;              /* an output's first input | CZ__AFF_PAIR */
    uint32_t *start, *cnt;      /* a pass bucket's run in the sorted entries */
    uint32_t *pos[2], *next;    /* a window's list positions (ping-pong), next counts */
    uint32_t *most;             /* a window's largest run */
    cz_dfp *before, *after;     /* a thread's block scan */
    cz_dfp *total, *inv;        /* a block's product, its inverse */
    void *scan_temp;
    size_t scan_bytes;
} cz__aff_ws;

static size_t cz__aff_align(size_t b) { return (b + 255) & ~(size_t)255; }

/*
 * Lay out the workspace of a pass of |wn| windows over a chunk of |cn| terms
 * in the two idle sort buffers (|bytes| each). false: it does not fit.
 */
static bool cz__aff_layout(cz__aff_ws *ws, void *buf_a, void *buf_b, size_t bytes,
                           const cz__msm_plan *pl, uint32_t cn, unsigned wn)
{
    const size_t half = pl->half, nb = (size_t)wn * half;
    const size_t u1 = cz__aff_next_bound(cn, half), u2 = cz__aff_next_bound(u1, half);
    const size_t blocks = (u1 + CZ__AFF_BLOCK - 1) / CZ__AFF_BLOCK;
    const size_t threads = blocks * CZ__BI_THREADS;
    size_t scan_bytes = 0;
    if (cub::DeviceScan::ExclusiveSum(NULL, scan_bytes, (const uint32_t *)NULL, (uint32_t *)NULL,
                                      (int)half) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    if (u1 * sizeof(cz_g1_aff) > bytes)
        return false;
    ws->list[0] = (cz_g1_aff *)buf_a;
    char *p = (char *)buf_b, *end = p + bytes;
#define CZ__TAKE(dst, type, count)                                             \
    do {                                                                       \
        (dst) = (type *)p;                                                     \
        p += cz__aff_align((size_t)(count) * sizeof(type));                    \
    } while (0)
    CZ__TAKE(ws->list[1], cz_g1_aff, u2);
    CZ__TAKE(ws->src, uint32_t, u1);
    CZ__TAKE(ws->start, uint32_t, nb);
    CZ__TAKE(ws->cnt, uint32_t, nb);
    CZ__TAKE(ws->pos[0], uint32_t, half);
    CZ__TAKE(ws->pos[1], uint32_t, half);
    CZ__TAKE(ws->next, uint32_t, half);
    CZ__TAKE(ws->most, uint32_t, wn);
    CZ__TAKE(ws->before, cz_dfp, threads);
    CZ__TAKE(ws->after, cz_dfp, threads);
    CZ__TAKE(ws->total, cz_dfp, blocks);
    CZ__TAKE(ws->inv, cz_dfp, blocks);
    CZ__TAKE(ws->scan_temp, char, scan_bytes);
#undef CZ__TAKE
    ws->scan_bytes = scan_bytes;
    return p <= end;
}

/* ---- the kernels ------------------------------------------------------------ */

/* The run of each bucket in the sorted entries: start[b], and its end (into cnt[b]). */
static __global__ void cz__aff_runs(uint32_t *start, uint32_t *end, const uint32_t *keys,
                                    const uint32_t *zeros, uint32_t total)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t live = total - *zeros;
    if (i >= live)
        return;
    const uint32_t b = keys[i];
    if (i == 0 || keys[i - 1] != b)
        start[b] = i;
    if (i + 1 == live || keys[i + 1] != b)
        end[b] = i + 1;
}

/* cnt[b] = end - start (0 for an empty bucket: both memset), and each window's largest. */
static __global__ void cz__aff_counts(uint32_t *cnt, const uint32_t *start, uint32_t *most,
                                      uint32_t half, uint32_t nb)
{
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t c = 0;
    if (b < nb) {
        c = cnt[b] - start[b];
        cnt[b] = c;
    }
    if (half >= 32) { /* a warp within one window: one atomic a warp */
        c = __reduce_max_sync(0xffffffffu, c);
        if ((threadIdx.x & 31u) == 0 && b < nb && c)
            atomicMax(&most[b / half], c);
    } else if (b < nb && c) {
        atomicMax(&most[b / half], c);
    }
}

/* next[b] = ceil(cnt[b] / 2^shift): the points of bucket b in the list after the round. */
static __global__ void cz__aff_shrink(uint32_t *next, const uint32_t *cnt, uint32_t half,
                                      unsigned shift)
{
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < half)
        next[b] = cz__aff_points(cnt[b], shift);
}

CZ__DI cz_g1_aff cz__aff_point(const cz__aff_round *a, uint32_t s)
{
    if (a->r == 0)
        return cz__g1_signed_base(a->bases, a->vals[s]);
    cz_g1_aff p;
    p.X = cz_dfp_load(&a->in[s].X);
    p.Y = cz_dfp_load(&a->in[s].Y);
    return p;
}

/*
 * The denominator of p + q's lambda: xq - xp, or 2 yp for a doubling; 1
 * where the sum needs no inverse (infinity, p = -q). Never 0.
 */
CZ__DI cz_dfp cz__aff_den(const cz_g1_aff p, const cz_g1_aff q)
{
    if (cz_g1_aff_is_inf(p) || cz_g1_aff_is_inf(q))
        return cz_dfp_one();
    if (!cz_dfp_eq(p.X, q.X))
        return cz_dfp_sub(q.X, p.X);
    if (cz_dfp_eq(p.Y, q.Y) && !cz_dfp_is_zero(p.Y))
        return cz_dfp_dbl(p.Y);
    return cz_dfp_one();
}

/* p + q given inv = 1 / cz__aff_den(p, q); complete. */
CZ__DI cz_g1_aff cz__aff_sum(const cz_g1_aff p, const cz_g1_aff q, const cz_dfp inv)
{
    if (cz_g1_aff_is_inf(p))
        return q;
    if (cz_g1_aff_is_inf(q))
        return p;
    if (cz_dfp_eq(p.X, q.X) && (!cz_dfp_eq(p.Y, q.Y) || cz_dfp_is_zero(p.Y))) {
        cz_g1_aff inf = { cz_dfp_zero(), cz_dfp_zero() };
        return inf;
    }
    return cz_g1_aff_add_inv(p, q, inv);
}

/*
 * Kernel 1 of a round: thread t takes outputs [16t, 16t + 16), finds each
 * one's inputs (src[q]) and multiplies the denominators into a running
 * product, kept in out[q].X until kernel 3; the block's scan of the
 * threads' products.
 */
static __global__ void __launch_bounds__(CZ__BI_THREADS)
cz__aff_prefix(cz__aff_round a, cz_dfp *before, cz_dfp *after, cz_dfp *total)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, q0 = t * CZ__AFF_PER;
    const uint32_t outputs = cz__aff_outputs(&a);
    cz_dfp acc = cz_dfp_one();
    if (q0 < outputs) {
        cz__aff_cursor c = cz__aff_start(&a, q0);
        const uint32_t qe = q0 + CZ__AFF_PER < outputs ? q0 + CZ__AFF_PER : outputs;
        for (uint32_t q = q0; q < qe; q++) {
            const uint32_t v = cz__aff_source(&a, &c, q), s = v & ~CZ__AFF_PAIR;
            a.src[q] = v;
            if (v & CZ__AFF_PAIR)
                acc = cz_dfp_mul(acc, cz__aff_den(cz__aff_point(&a, s), cz__aff_point(&a, s + 1)));
            cz_dfp_store(&a.out[q].X, acc);
        }
    }
    cz_dfp pre, suf;
    const cz_dfp tot = cz__bi_block_scan(acc, &pre, &suf);
    if (threadIdx.x == 0)
        cz_dfp_store(&total[blockIdx.x], tot);
    cz_dfp_store(&before[t], pre);
    cz_dfp_store(&after[t], suf);
}

/*
 * Kernel 3 of a round: thread t's inverse product (its block's inverse
 * times the other threads' products), then back through its outputs:
 * 1/d_q = (1/P_q) P_(q-1), 1/P_(q-1) = (1/P_q) d_q, each sum from its own.
 */
static __global__ void __launch_bounds__(CZ__BI_THREADS)
cz__aff_sums(cz__aff_round a, const cz_dfp *before, const cz_dfp *after, const cz_dfp *inv_total)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, q0 = t * CZ__AFF_PER;
    const uint32_t outputs = cz__aff_outputs(&a);
    if (q0 >= outputs)
        return;
    cz_dfp inv = cz_dfp_mul(cz_dfp_mul(cz_dfp_load(&inv_total[blockIdx.x]), cz_dfp_load(&before[t])),
                            cz_dfp_load(&after[t]));
    const uint32_t qe = q0 + CZ__AFF_PER < outputs ? q0 + CZ__AFF_PER : outputs;
    for (uint32_t q = qe; q-- > q0;) {
        const uint32_t v = a.src[q], s = v & ~CZ__AFF_PAIR;
        const cz_g1_aff p = cz__aff_point(&a, s);
        cz_g1_aff sum = p;
        if (v & CZ__AFF_PAIR) {
            const cz_g1_aff o = cz__aff_point(&a, s + 1);
            cz_dfp inv_d = inv;
            if (q > q0) {
                inv_d = cz_dfp_mul(inv, cz_dfp_load(&a.out[q - 1].X));
                inv = cz_dfp_mul(inv, cz__aff_den(p, o));
            }
            sum = cz__aff_sum(p, o, inv_d);
        }
        cz_dfp_store(&a.out[q].X, sum.X);
        cz_dfp_store(&a.out[q].Y, sum.Y);
    }
}

/* After the last round: each bucket's one point into the bucket set, as XYZZ. */
static __global__ void cz__aff_store(cz_g1_xyzz *buckets, cz__aff_round a)
{
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= a.half || a.cnt[b] == 0)
        return;
    cz__g1_xstore(buckets + b, cz_g1_xyzz_from_aff(cz__aff_point(&a, a.pos[b])));
}

/* ---- host side ------------------------------------------------------------- */

/* The rounds of window |w| (its buckets: [w half, (w + 1) half) of the pass). */
static int cz__aff_window(cz_ctx_t *ctx, cz_cuda_msm *m, const cz__aff_ws *ws,
                          const cz_g1_aff *bases, const uint32_t *vals, const cz__msm_plan *pl,
                          uint32_t cn, unsigned w, unsigned rounds, cz_g1_xyzz *buckets)
{
    cudaStream_t st = m->stream;
    const uint32_t half = pl->half;
    const size_t wb = (size_t)w * half;
    cz__aff_round a;
    memset(&a, 0, sizeof a);
    a.vals = vals;
    a.bases = bases;
    a.cnt = ws->cnt + wb;
    a.pos = ws->start + wb;
    a.half = half;
    a.src = ws->src;
    a.next = ws->next;
    size_t u = cn;
    int rc = CZ_OK;
    for (unsigned r = 0; r < rounds && rc == CZ_OK; r++) {
        a.r = r;
        a.in = r ? ws->list[(r - 1) & 1] : NULL;
        a.out = ws->list[r & 1];
        a.pos_next = ws->pos[r & 1];
        u = cz__aff_next_bound(u, half);
        cz__aff_shrink<<<cz__blocks(half, 256), 256, 0, st>>>(ws->next, a.cnt, half, r + 1);
        size_t sb = ws->scan_bytes;
        CZ__CU(ctx, cub::DeviceScan::ExclusiveSum(ws->scan_temp, sb, ws->next, ws->pos[r & 1],
                                                  (int)half, st));
        const unsigned blocks = (unsigned)((u + CZ__AFF_BLOCK - 1) / CZ__AFF_BLOCK);
        cz__aff_prefix<<<blocks, CZ__BI_THREADS, 0, st>>>(a, ws->before, ws->after, ws->total);
        cz__bi_invert<<<cz__blocks(blocks, 64), 64, 0, st>>>(ws->inv, ws->total, blocks);
        cz__aff_sums<<<blocks, CZ__BI_THREADS, 0, st>>>(a, ws->before, ws->after, ws->inv);
        rc = cz__cuda_check(ctx, "msm: batch-affine round");
        a.pos = ws->pos[r & 1];
    }
    if (rc != CZ_OK)
        return rc;
    /* list |rounds| (the entries, with no round) holds one point a bucket, at a.pos[b] */
    a.r = rounds;
    a.in = rounds ? ws->list[(rounds - 1) & 1] : NULL;
    cz__aff_store<<<cz__blocks(half, 128), 128, 0, st>>>(buckets + wb, a);
    return cz__cuda_check(ctx, "msm: batch-affine store");
}

/*
 * The batch-affine accumulation of one pass: the sorted entries (keys,
 * vals; total of them, the zero digits last) into |buckets| (the pass's
 * windows, empty on entry). *done false: the workspace does not fit in the
 * sort's idle buffers and nothing was done (the caller takes the XYZZ path).
 */
static int cz__g1_affine_pass(cz_ctx_t *ctx, cz_cuda_msm *m, const cz_g1_aff *bases,
                              const cz__msm_plan *pl, const uint32_t *keys, const uint32_t *vals,
                              uint32_t total, uint32_t cn, unsigned wn, cz_g1_xyzz *buckets,
                              bool *done)
{
    *done = false;
    cz__aff_ws ws;
    void *idle_a = keys == m->keys[0] ? m->keys[1] : m->keys[0];
    void *idle_b = vals == m->vals[0] ? m->vals[1] : m->vals[0];
    if (!cz__aff_layout(&ws, idle_a, idle_b, m->cap_entries * sizeof(uint32_t), pl, cn, wn))
        return CZ_OK;
    cudaStream_t st = m->stream;
    const uint32_t half = pl->half, nb = wn * half;
    CZ__CU(ctx, cudaMemsetAsync(ws.start, 0, (size_t)nb * sizeof(uint32_t), st));
    CZ__CU(ctx, cudaMemsetAsync(ws.cnt, 0, (size_t)nb * sizeof(uint32_t), st));
    CZ__CU(ctx, cudaMemsetAsync(ws.most, 0, wn * sizeof(uint32_t), st));
    cz__aff_runs<<<cz__blocks(total, 256), 256, 0, st>>>(ws.start, ws.cnt, keys, m->zeros, total);
    cz__aff_counts<<<cz__blocks(nb, 256), 256, 0, st>>>(ws.cnt, ws.start, ws.most, half, nb);
    int rc = cz__cuda_check(ctx, "msm: batch-affine runs");
    if (rc != CZ_OK)
        return rc;
    uint32_t most[CZ__MAX_WINDOWS];
    CZ__CU(ctx, cudaMemcpyAsync(most, ws.most, wn * sizeof(uint32_t), cudaMemcpyDeviceToHost, st));
    CZ__CU(ctx, cudaStreamSynchronize(st));
    for (unsigned w = 0; w < wn && rc == CZ_OK; w++)
        if (most[w])
            rc = cz__aff_window(ctx, m, &ws, bases, vals, pl, cn, w, cz__aff_rounds(most[w]),
                                buckets);
    *done = rc == CZ_OK;
    return rc;
}

/* The most local memory a thread of these kernels takes (cz_cuda_msm_stack_bytes). */
static size_t cz__aff_stack_bytes(void)
{
    const void *kernels[] = { (const void *)cz__aff_prefix, (const void *)cz__aff_sums,
                              (const void *)cz__bi_invert, (const void *)cz__aff_store };
    return cz__most_stack(kernels, sizeof kernels / sizeof kernels[0]);
}
