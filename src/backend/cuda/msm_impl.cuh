/*
 * backend/cuda/msm_impl.cuh — the group-dependent kernels of the device MSM
 * and batch addition, written once for G1 and G2. A "template by inclusion"
 * (no include guard): msm.cu defines
 *   CZ_EF, CZ_EFN(x), CZ_EP(x)   the group, as for ec_impl.cuh
 *   CZ_KP(x)                     the prefix of what is declared here
 *   CZ_MSM_INLINE_MADD           1: the hot mixed addition is inlined
 *   CZ_MSM_LAZY_MADD             1: ... on lazy coordinates (xyzz_madd_lz)
 * The algorithm and the memory layout are described in msm.cu.
 *
 * Code size: only the mixed addition in the two hot loops (accumulate and
 * batch_partial) is inlined; every other use calls one out-of-line copy of
 * the formula. Inlining all of them made this file take 11 CPU minutes to
 * compile (and spill more), for no gain outside the hot loops. G2 inlines it
 * too: out of line (ptxas -v, sm_90) its callers kept an 808-byte stack
 * frame and the callee spilled 512 bytes a call.
 */

#define F_(x) CZ_EFN(x)
#define XYZZ CZ_EP(xyzz)
#define AFF CZ_EP(aff)
#define JAC CZ_EP(jac)

static __device__ __noinline__ XYZZ CZ_KP(add)(const XYZZ p, const XYZZ q)
{
    return CZ_EP(xyzz_add)(p, q);
}

static __device__ __noinline__ XYZZ CZ_KP(dbl)(const XYZZ p) { return CZ_EP(xyzz_dbl)(p); }

/*
 * The hot loops' addition. With CZ_MSM_LAZY_MADD its coordinates are lazy
 * (in [0, 2p), ec_impl.cuh) and CZ__CANON reduces a sum before its store.
 */
#if CZ_MSM_LAZY_MADD
#define CZ__MADD_FORMULA CZ_EP(xyzz_madd_lz)
#define CZ__CANON(v) CZ_EP(xyzz_canon)(v)
#else
#define CZ__MADD_FORMULA CZ_EP(xyzz_madd)
#define CZ__CANON(v) (v)
#endif
#if CZ_MSM_INLINE_MADD
#define CZ__MADD CZ__MADD_FORMULA
#else
static __device__ __noinline__ XYZZ CZ_KP(madd)(const XYZZ p, const AFF q)
{
    return CZ__MADD_FORMULA(p, q);
}
#define CZ__MADD CZ_KP(madd)
#endif

CZ__DI XYZZ CZ_KP(xload)(const XYZZ *p)
{
    XYZZ r;
    r.X = F_(load)(&p->X);
    r.Y = F_(load)(&p->Y);
    r.ZZ = F_(load)(&p->ZZ);
    r.ZZZ = F_(load)(&p->ZZZ);
    return r;
}

CZ__DI void CZ_KP(xstore)(XYZZ *p, const XYZZ v)
{
    F_(store)(&p->X, v.X);
    F_(store)(&p->Y, v.Y);
    F_(store)(&p->ZZ, v.ZZ);
    F_(store)(&p->ZZZ, v.ZZZ);
}

/* The base of a (key, value) entry: bases[index], negated for a negative digit. */
CZ__DI AFF CZ_KP(signed_base)(const AFF *bases, uint32_t v)
{
    AFF p;
    const AFF *q = bases + (v & CZ__MSM_INDEX_MASK);
    p.X = F_(load)(&q->X);
    p.Y = F_(load)(&q->Y);
    if (v & CZ__MSM_NEG)
        p.Y = F_(neg)(p.Y);
    return p;
}

CZ__DI void CZ_KP(bucket_add)(XYZZ *bucket, const XYZZ v)
{
    CZ_KP(xstore)(bucket, CZ_KP(add)(CZ_KP(xload)(bucket), v));
}

/*
 * Phase A of the bucket accumulation: thread t sums the sorted entries
 * [tK, tK+K). A run (the entries of one bucket) lying wholly inside is
 * stored into its bucket — a store, not an addition: the chunk's buckets
 * start empty and each is written once, so the threads that reach a run's
 * end (divergently) do a few memory writes, not a 14-multiplication add
 * while the rest of the warp waits. A run cut by the range's start goes to head[t],
 * one cut by its end to tail[t] (a run cut by both, to head[t] with
 * CZ__H_CONT), for phase B. |live| = entries that are not zero digits.
 */
static __global__ void __launch_bounds__(128)
CZ_KP(msm_accumulate)(XYZZ *buckets, XYZZ *head, XYZZ *tail, uint8_t *flags,
                      const uint32_t *keys, const uint32_t *vals, const AFF *bases,
                      const uint32_t *zeros, uint32_t total, uint32_t K)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t live = total - *zeros;
    const size_t s = (size_t)t * K;
    if (s >= live)
        return;
    const size_t e = s + K < live ? s + K : live;
    const bool cut_at_start = s > 0 && keys[s - 1] == keys[s];
    bool first = true;
    uint8_t f = 0;
    uint32_t cur = keys[s];
    XYZZ acc = CZ_EP(xyzz_inf)();
    for (size_t i = s; i < e; i++) {
        const uint32_t k = keys[i];
        if (k != cur) {
            const XYZZ sum = CZ__CANON(acc);
            if (first && cut_at_start) {
                CZ_KP(xstore)(head + t, sum);
                f |= CZ__H_ENDS;
            } else {
                CZ_KP(xstore)(buckets + cur, sum);
            }
            first = false;
            acc = CZ_EP(xyzz_inf)();
            cur = k;
        }
        acc = CZ__MADD(acc, CZ_KP(signed_base)(bases, vals[i]));
    }
    const bool cut_at_end = e < live && keys[e] == cur;
    acc = CZ__CANON(acc);
    if (first && cut_at_start) {
        CZ_KP(xstore)(head + t, acc);
        f |= cut_at_end ? CZ__H_CONT : CZ__H_ENDS;
    } else if (cut_at_end) {
        CZ_KP(xstore)(tail + t, acc);
        f |= CZ__T_VALID;
    } else {
        CZ_KP(xstore)(buckets + cur, acc);
    }
    flags[t] = f;
}

/*
 * Phase B, the runs that span slices. First (msm_links) each slice whose
 * head run goes on past its end links to the next slice; then pointer
 * jumping (msm_jump, one pass per doubling, all slices in parallel) turns
 * head[j] into the sum of the heads from j to the run's last slice: a
 * bucket holding a million entries (every scalar equal) costs 20 parallel
 * passes, not a million sequential additions. Last (msm_join), each run cut
 * by a slice's end is completed by the slice where it started: its tail
 * plus the summed heads after it. Exactly one thread writes each bucket per
 * chunk (phase A or the join), so no atomics; buckets no run reached stay
 * empty (the chunk's memset).
 */
static __global__ void __launch_bounds__(128)
CZ_KP(msm_links)(uint32_t *next, uint32_t *active, const uint8_t *flags, const uint32_t *zeros,
                 uint32_t total, uint32_t K, uint32_t threads)
{
    const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= threads)
        return;
    const uint32_t live = total - *zeros;
    const bool cont = (size_t)j * K < live && (flags[j] & CZ__H_CONT);
    next[j] = cont ? j + 1 : CZ__NO_LINK;
    if (cont)
        *active = 1;
}

static __global__ void __launch_bounds__(128)
CZ_KP(msm_jump)(XYZZ *acc_out, uint32_t *next_out, const XYZZ *acc_in, const uint32_t *next_in,
                uint32_t *active, uint32_t threads)
{
    const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= threads)
        return;
    const uint32_t nx = next_in[j];
    if (nx == CZ__NO_LINK) {   /* final (or unused): carried to the other buffer */
        next_out[j] = CZ__NO_LINK;
        CZ_KP(xstore)(acc_out + j, CZ_KP(xload)(acc_in + j));
        return;
    }
    CZ_KP(xstore)(acc_out + j, CZ_KP(add)(CZ_KP(xload)(acc_in + j), CZ_KP(xload)(acc_in + nx)));
    const uint32_t nn = next_in[nx];
    next_out[j] = nn;
    if (nn != CZ__NO_LINK)
        *active = 1;
}

static __global__ void __launch_bounds__(128)
CZ_KP(msm_join)(XYZZ *buckets, const XYZZ *heads, const XYZZ *tail, const uint8_t *flags,
                const uint32_t *keys, const uint32_t *zeros, uint32_t total, uint32_t K)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t live = total - *zeros;
    const size_t s = (size_t)t * K;
    if (s >= live || !(flags[t] & CZ__T_VALID))
        return;
    const XYZZ acc = CZ_KP(add)(CZ_KP(xload)(tail + t), CZ_KP(xload)(heads + t + 1));
    const size_t e = s + K < live ? s + K : live;
    CZ_KP(xstore)(buckets + keys[e - 1], acc);
}

/* totals[i] += chunk[i]: the buckets of one more chunk, one thread per bucket. */
static __global__ void __launch_bounds__(128)
CZ_KP(msm_merge)(XYZZ *totals, const XYZZ *chunk, uint32_t n)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const XYZZ c = CZ_KP(xload)(chunk + i);
    if (F_(is_zero)(c.ZZ))
        return;
    CZ_KP(bucket_add)(totals + i, c);
}

/*
 * Bucket reduction, step 1: thread (w, k) takes the S buckets [kS, kS+S) of
 * window w (bucket b holds the points of digit b+1) and writes
 *   acc[t] = sum_i (i+1) B_{kS+i}   (a running sum from the top)
 *   run[t] = sum_i B_{kS+i}
 * so that the window's sum_b (b+1) B_b = sum_k acc_k + S * sum_k k run_k.
 */
static __global__ void __launch_bounds__(128)
CZ_KP(msm_segments)(XYZZ *acc_out, XYZZ *run_out, const XYZZ *buckets, uint32_t half, uint32_t S,
                    uint32_t nseg, uint32_t nwin)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nseg * nwin)
        return;
    const uint32_t w = t / nseg, k = t % nseg;
    const XYZZ *b = buckets + (size_t)w * half + (size_t)k * S;
    XYZZ run = CZ_EP(xyzz_inf)(), acc = CZ_EP(xyzz_inf)();
    for (int i = (int)S - 1; i >= 0; i--) {
        run = CZ_KP(add)(run, CZ_KP(xload)(b + i));
        acc = CZ_KP(add)(acc, run);
    }
    CZ_KP(xstore)(acc_out + t, acc);
    CZ_KP(xstore)(run_out + t, run);
}

/*
 * Step 2, first pass of the grouped sums (nseg = 2^m): sum_k k run_k =
 * sum_i 2^i U_i with U_i the sum of the run_k whose k has bit i set, so
 * window w has m + 1 plain sums to take, each of nseg/2 elements: groups
 * (w, i < m) sum U_i's elements, group (w, m) sums A = sum_k acc_k (an
 * element: acc_2r + acc_2r+1). Thread (group, q) sums elements [qR, qR+R).
 * This replaced a double-and-add of run_k by kS in every segment thread
 * (log2(kS) doublings against its 2S additions: 2/3 of G2's c = 16 work).
 */
static __global__ void __launch_bounds__(128)
CZ_KP(msm_bit_sums)(XYZZ *out, const XYZZ *acc, const XYZZ *run, uint32_t nseg, uint32_t m,
                    uint32_t R, uint32_t outL, uint32_t nwin)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nwin * (m + 1) * outL)
        return;
    const uint32_t q = t % outL, group = t / outL, i = group % (m + 1), w = group / (m + 1);
    const uint32_t elems = nseg / 2, lo = q * R, hi = lo + R < elems ? lo + R : elems;
    const XYZZ *a = acc + (size_t)w * nseg, *r = run + (size_t)w * nseg;
    XYZZ sum = CZ_EP(xyzz_inf)();
    for (uint32_t e = lo; e < hi; e++) {
        if (i == m) {
            sum = CZ_KP(add)(sum, CZ_KP(xload)(a + 2 * e));
            sum = CZ_KP(add)(sum, CZ_KP(xload)(a + 2 * e + 1));
        } else {   /* the e-th k with bit i set: e with a one inserted at bit i */
            const uint32_t k = (e >> i << (i + 1)) | 1u << i | (e & ((1u << i) - 1));
            sum = CZ_KP(add)(sum, CZ_KP(xload)(r + k));
        }
    }
    CZ_KP(xstore)(out + t, sum);
}

/*
 * Step 3, one thread per window: from the m + 1 sums (U_0 .. U_m-1, A) of
 * window w, A + S * sum_i 2^i U_i (Horner's rule; S = 2^log_s).
 */
static __global__ void CZ_KP(msm_window_sum)(XYZZ *out, const XYZZ *sums, uint32_t m,
                                              uint32_t log_s, uint32_t nwin)
{
    const uint32_t w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= nwin)
        return;
    const XYZZ *u = sums + (size_t)w * (m + 1);
    XYZZ r = CZ_KP(xload)(u + m - 1);
    for (int i = (int)m - 2; i >= 0; i--)
        r = CZ_KP(add)(CZ_KP(dbl)(r), CZ_KP(xload)(u + i));
    for (uint32_t i = 0; i < log_s; i++)
        r = CZ_KP(dbl)(r);
    CZ_KP(xstore)(out + w, CZ_KP(add)(r, CZ_KP(xload)(u + m)));
}

/* One step of a grouped sum: out[g][k] = sum of in[g][kR .. kR+R) (L per group). */
static __global__ void __launch_bounds__(128)
CZ_KP(sum_groups)(XYZZ *out, const XYZZ *in, uint32_t L, uint32_t R, uint32_t outL, uint32_t G)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= outL * G)
        return;
    const uint32_t g = t / outL, k = t % outL;
    const uint32_t lo = k * R, hi = lo + R < L ? lo + R : L;
    XYZZ acc = CZ_EP(xyzz_inf)();
    for (uint32_t i = lo; i < hi; i++)
        acc = CZ_KP(add)(acc, CZ_KP(xload)(in + (size_t)g * L + i));
    CZ_KP(xstore)(out + t, acc);
}

/* XYZZ -> Jacobian without inversion: (X ZZ^2, Y ZZ^3, ZZZ) (x = X/ZZ, y = Y/ZZZ). */
static __global__ void CZ_KP(to_jac)(JAC *out, const XYZZ *in, uint32_t n)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    const XYZZ p = CZ_KP(xload)(in + t);
    const CZ_EF zz2 = F_(sqr)(p.ZZ);
    JAC r;
    r.X = F_(mul)(p.X, zz2);
    r.Y = F_(mul)(p.Y, F_(mul)(zz2, p.ZZ));
    r.Z = p.ZZZ;
    F_(store)(&out[t].X, r.X);
    F_(store)(&out[t].Y, r.Y);
    F_(store)(&out[t].Z, r.Z);
}

/* Batch addition, first step: thread t sums the bases of the set bits of words [tQ, tQ+Q). */
static __global__ void __launch_bounds__(128)
CZ_KP(batch_partial)(XYZZ *out, const AFF *bases, const uint64_t *bitmap, size_t n, uint32_t Q,
                     uint32_t nthreads)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nthreads)
        return;
    const size_t words = (n + 63) / 64;
    const size_t w0 = (size_t)t * Q, w1 = w0 + Q < words ? w0 + Q : words;
    XYZZ acc = CZ_EP(xyzz_inf)();
    for (size_t w = w0; w < w1; w++) {
        uint64_t bits = bitmap[w];
        if (w == words - 1 && (n & 63))
            bits &= ((uint64_t)1 << (n & 63)) - 1;   /* bits past n are not bases */
        while (bits) {
            const unsigned b = __ffsll((long long)bits) - 1;
            bits &= bits - 1;
            const AFF *q = bases + w * 64 + b;
            AFF p = { F_(load)(&q->X), F_(load)(&q->Y) };
            acc = CZ__MADD(acc, p);
        }
    }
    CZ_KP(xstore)(out + t, CZ__CANON(acc));
}

/* ---- host side ------------------------------------------------------------ */

/*
 * Sum G groups of L points each (in[g*L ..]) down to one per group, in
 * steps of CZ__SUM_FANIN, ping-ponging between |a| (holding the input) and
 * |b|; returns the buffer holding the G sums.
 */
static XYZZ *CZ_KP(sum_all)(cz_ctx_t *ctx, int *rc, XYZZ *a, XYZZ *b, uint32_t L, uint32_t G,
                            cudaStream_t st)
{
    while (L > 1 && *rc == CZ_OK) {
        const uint32_t outL = (L + CZ__SUM_FANIN - 1) / CZ__SUM_FANIN;
        CZ_KP(sum_groups)<<<cz__blocks((size_t)outL * G, 128), 128, 0, st>>>(b, a, L, CZ__SUM_FANIN,
                                                                          outL, G);
        *rc = cz__cuda_check(ctx, "msm: sum kernel");
        XYZZ *t = a;
        a = b;
        b = t;
        L = outL;
    }
    return a;
}

/*
 * Sum each spanning run's heads (msm_links + msm_jump passes until no link
 * is left; one 4-byte read-back per pass, and with uniform scalars there is
 * usually no pass at all). *heads: the buffer holding the sums.
 */
static int CZ_KP(join_heads)(cz_ctx_t *ctx, cz_cuda_msm *m, const XYZZ **heads, uint32_t total,
                             uint32_t K, uint32_t threads)
{
    cudaStream_t st = m->stream;
    XYZZ *acc[2] = { (XYZZ *)m->head, (XYZZ *)m->scratch };
    int cur = 0;
    CZ__CU(ctx, cudaMemsetAsync(m->active, 0, sizeof *m->active, st));
    CZ_KP(msm_links)<<<cz__blocks(threads, 128), 128, 0, st>>>(m->next[0], m->active, m->flags,
                                                               m->zeros, total, K, threads);
    int rc = cz__cuda_check(ctx, "msm: links kernel");
    for (int pass = 0; rc == CZ_OK && pass < 40; pass++) {
        uint32_t active = 0;
        CZ__CU(ctx, cudaMemcpyAsync(&active, m->active, sizeof active, cudaMemcpyDeviceToHost, st));
        CZ__CU(ctx, cudaStreamSynchronize(st));
        if (!active)
            break;
        CZ__CU(ctx, cudaMemsetAsync(m->active, 0, sizeof *m->active, st));
        CZ_KP(msm_jump)<<<cz__blocks(threads, 128), 128, 0, st>>>(
            acc[1 - cur], m->next[1 - cur], acc[cur], m->next[cur], m->active, threads);
        rc = cz__cuda_check(ctx, "msm: jump kernel");
        cur = 1 - cur;
    }
    *heads = acc[cur];
    return rc;
}

/*
 * One pass: the entries of windows [w0, w0 + wpp) of chunk [off, off + cn)
 * summed into their buckets (|buckets|: the chunk's set, window 0 first).
 */
static int CZ_KP(msm_pass)(cz_ctx_t *ctx, cz_cuda_msm *m, const AFF *bases,
                           const cz_cuda_msm_terms *tm, const cz__msm_plan *pl, size_t off,
                           uint32_t cn, unsigned w0, XYZZ *buckets)
{
    cudaStream_t st = m->stream;
    const unsigned wn = pl->nwin - w0 < pl->wpp ? pl->nwin - w0 : pl->wpp;
    const uint32_t total = cn * wn, nb = wn * pl->half;
    buckets += (size_t)w0 * pl->half;
    cz__msm_prof_mark(m, CZ__PROF_START);
    int rc = cz__msm_digits(ctx, m, tm, pl, off, cn, w0, wn);
    if (rc != CZ_OK)
        return rc;
    cz__msm_prof_mark(m, CZ__PROF_DIGITS);
    const uint32_t *keys, *vals;
    if ((rc = cz__msm_sort(ctx, m, pl, total, &keys, &vals)) != CZ_OK)
        return rc;
    cz__msm_prof_mark(m, CZ__PROF_SORT);
    const uint32_t K = cz__msm_run_len(total, nb);
    const uint32_t threads = (total + K - 1) / K;
    CZ_KP(msm_accumulate)<<<cz__blocks(threads, 128), 128, 0, st>>>(
        buckets, (XYZZ *)m->head, (XYZZ *)m->tail, m->flags, keys, vals, bases, m->zeros, total, K);
    if ((rc = cz__cuda_check(ctx, "msm: accumulate kernel")) != CZ_OK)
        return rc;
    cz__msm_prof_mark(m, CZ__PROF_ACCUMULATE);
    const XYZZ *heads = NULL;
    if ((rc = CZ_KP(join_heads)(ctx, m, &heads, total, K, threads)) != CZ_OK)
        return rc;
    CZ_KP(msm_join)<<<cz__blocks(threads, 128), 128, 0, st>>>(buckets, heads, (XYZZ *)m->tail,
                                                              m->flags, keys, m->zeros, total, K);
    if ((rc = cz__cuda_check(ctx, "msm: join kernel")) != CZ_OK)
        return rc;
    cz__msm_prof_mark(m, CZ__PROF_JOIN);
    return w0 + wn < pl->nwin ? cz__msm_prof_pass_end(ctx, m, CZ__PROF_JOIN) : CZ_OK;
}

/*
 * The MSM of one group; the window sums (nwin Jacobian points, window 0
 * first) are copied to |win| (host) for msm.cu to combine.
 */
static int CZ_KP(msm_windows)(cz_ctx_t *ctx, cz_cuda_msm *m, const AFF *bases,
                              const cz_cuda_msm_terms *tm, const cz__msm_plan *pl, JAC *win)
{
    const uint32_t nb = pl->nwin * pl->half;
    const size_t bucket_bytes = (size_t)nb * sizeof(XYZZ);
    const bool chunked = tm->n > pl->chunk;
    /* the totals, and with several chunks a second set for the chunk being accumulated */
    int rc = cz__msm_reserve_buckets(ctx, m, bucket_bytes * (chunked ? 2 : 1));
    if (rc != CZ_OK)
        return rc;
    cudaStream_t st = m->stream;
    XYZZ *totals = (XYZZ *)m->buckets, *head = (XYZZ *)m->head, *tail = (XYZZ *)m->tail;
    cz__msm_prof_begin(m, pl);

    for (size_t off = 0; off < tm->n && rc == CZ_OK; off += pl->chunk) {
        const uint32_t cn = (uint32_t)(tm->n - off < pl->chunk ? tm->n - off : pl->chunk);
        XYZZ *buckets = off == 0 ? totals : totals + nb;
        CZ__CU(ctx, cudaMemsetAsync(buckets, 0, bucket_bytes, st));   /* ZZ = 0: infinity */
        for (unsigned w0 = 0; w0 < pl->nwin && rc == CZ_OK; w0 += pl->wpp)
            rc = CZ_KP(msm_pass)(ctx, m, bases, tm, pl, off, cn, w0, buckets);
        if (rc == CZ_OK && off > 0) {
            CZ_KP(msm_merge)<<<cz__blocks(nb, 128), 128, 0, st>>>(totals, buckets, nb);
            rc = cz__cuda_check(ctx, "msm: merge kernel");
        }
        cz__msm_prof_mark(m, CZ__PROF_MERGE);
        if (rc == CZ_OK)
            rc = cz__msm_prof_pass_end(ctx, m, CZ__PROF_MERGE);
    }
    if (rc != CZ_OK)
        return rc;

    const uint32_t S = cz__msm_segment(pl), nseg = pl->half / S;
    const uint32_t m_bits = 31 - __builtin_clz(nseg), log_s = 31 - __builtin_clz(S);
    XYZZ *scratch = (XYZZ *)m->scratch;
    CZ_KP(msm_segments)<<<cz__blocks((size_t)nseg * pl->nwin, 128), 128, 0, st>>>(
        head, tail, totals, pl->half, S, nseg, pl->nwin);
    if ((rc = cz__cuda_check(ctx, "msm: segment kernel")) != CZ_OK)
        return rc;
    const uint32_t groups = pl->nwin * (m_bits + 1);
    const uint32_t outL = (nseg / 2 + CZ__BIT_SUM_FANIN - 1) / CZ__BIT_SUM_FANIN;
    CZ_KP(msm_bit_sums)<<<cz__blocks((size_t)groups * outL, 128), 128, 0, st>>>(
        scratch, head, tail, nseg, m_bits, CZ__BIT_SUM_FANIN, outL, pl->nwin);
    if ((rc = cz__cuda_check(ctx, "msm: bit-sum kernel")) != CZ_OK)
        return rc;
    const XYZZ *sums = CZ_KP(sum_all)(ctx, &rc, scratch, head, outL, groups, st);
    if (rc != CZ_OK)
        return rc;
    CZ_KP(msm_window_sum)<<<1, CZ__MAX_WINDOWS, 0, st>>>(tail, sums, m_bits, log_s, pl->nwin);
    if ((rc = cz__cuda_check(ctx, "msm: window-sum kernel")) != CZ_OK)
        return rc;
    JAC *d_win = (JAC *)m->out;
    CZ_KP(to_jac)<<<1, CZ__MAX_WINDOWS, 0, st>>>(d_win, tail, pl->nwin);
    if ((rc = cz__cuda_check(ctx, "msm: to_jac kernel")) != CZ_OK)
        return rc;
    CZ__CU(ctx, cudaMemcpyAsync(win, d_win, pl->nwin * sizeof(JAC), cudaMemcpyDeviceToHost, st));
    CZ__CU(ctx, cudaStreamSynchronize(st));
    return cz__msm_prof_end(ctx, m);
}

/* The sum of bases[i] over the set bits i < n of |bitmap| (host or device) into *out (host). */
static int CZ_KP(batch_add)(cz_ctx_t *ctx, cz_cuda_msm *m, const AFF *bases,
                            const uint64_t *bitmap, size_t n, bool on_device, JAC *out)
{
    const size_t words = (n + 63) / 64;
    cudaStream_t st = m->stream;
    const uint64_t *d_bitmap = bitmap;
    if (!on_device) {
        if (words * 8 > m->staging_bytes)
            return cz_fail(ctx, CZ_ERANGE, "cuda batch add: %zu bases exceed the staging buffer", n);
        d_bitmap = (const uint64_t *)m->staging;
        CZ__CU(ctx, cudaMemcpyAsync(m->staging, bitmap, words * 8, cudaMemcpyHostToDevice, st));
    }
    /* about 2^18 threads: enough to fill the device, few partial sums */
    const uint32_t Q = (uint32_t)((words + CZ__BATCH_THREADS - 1) / CZ__BATCH_THREADS);
    const uint32_t threads = (uint32_t)((words + Q - 1) / Q);
    XYZZ *head = (XYZZ *)m->head, *tail = (XYZZ *)m->tail;
    CZ_KP(batch_partial)<<<cz__blocks(threads, 128), 128, 0, st>>>(head, bases, d_bitmap, n, Q,
                                                                    threads);
    int rc = cz__cuda_check(ctx, "batch add: partial kernel");
    if (rc != CZ_OK)
        return rc;
    XYZZ *sum = CZ_KP(sum_all)(ctx, &rc, head, tail, threads, 1, st);
    if (rc != CZ_OK)
        return rc;
    JAC *d_out = (JAC *)m->out;
    CZ_KP(to_jac)<<<1, 1, 0, st>>>(d_out, sum, 1);
    if ((rc = cz__cuda_check(ctx, "batch add: to_jac kernel")) != CZ_OK)
        return rc;
    CZ__CU(ctx, cudaMemcpyAsync(out, d_out, sizeof(JAC), cudaMemcpyDeviceToHost, st));
    CZ__CU(ctx, cudaStreamSynchronize(st));
    return CZ_OK;
}

/*
 * The most local memory (stack) a thread of these kernels takes: the
 * out-of-line formulas keep frames of a few KiB (G2). The driver reserves
 * that much for every thread the device can hold, at the first launch that
 * needs it (cz_cuda_reserve_stack makes it happen up front). 0 when a query
 * fails: the reservation then happens at that launch, as without it.
 */
static size_t CZ_KP(stack_bytes)(void)
{
    const void *kernels[] = {
        (const void *)CZ_KP(msm_accumulate), (const void *)CZ_KP(msm_links),
        (const void *)CZ_KP(msm_jump),       (const void *)CZ_KP(msm_join),
        (const void *)CZ_KP(msm_merge),      (const void *)CZ_KP(msm_segments),
        (const void *)CZ_KP(msm_bit_sums),   (const void *)CZ_KP(msm_window_sum),
        (const void *)CZ_KP(sum_groups),     (const void *)CZ_KP(to_jac),
        (const void *)CZ_KP(batch_partial),
    };
    size_t most = 0;
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        cudaFuncAttributes a;
        if (cudaFuncGetAttributes(&a, kernels[i]) != cudaSuccess) {
            (void)cudaGetLastError();
            return 0;
        }
        most = a.localSizeBytes > most ? a.localSizeBytes : most;
    }
    return most;
}

#undef CZ__MADD
#undef CZ__MADD_FORMULA
#undef CZ__CANON
#undef F_
#undef XYZZ
#undef AFF
#undef JAC
