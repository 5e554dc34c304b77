/*
 * backend/cuda/msm.cu — multi-scalar multiplication and batch addition on
 * the device, for G1 and G2 (the contract is in cuda.h).
 *
 * Pippenger with signed digits. The terms go in chunks: scalars on the
 * host in chunks of at most max_chunk (the staging buffer's size), scalars
 * on the device in one chunk of up to the key capacity. A chunk goes
 * through its windows in passes of as many windows as the key capacity
 * holds (all at once but for a large device chunk: the 2^27 H vector at
 * c = 22 takes 6 passes of 2 windows), so buckets are added into across
 * chunks (the merge below) only for host scalars. Per pass:
 *  1. digits: each scalar (converted from Montgomery form if it is the H
 *     vector) is cut into nwin signed c-bit digits d in [-2^(c-1), 2^(c-1)]
 *     (a digit above 2^(c-1) becomes d - 2^c and carries one into the next
 *     window). One (key, value) pair per window of the pass: key = (w -
 *     the pass's first window)*2^(c-1) + |d|-1, value = base index | sign
 *     bit; a zero digit gets the key past every bucket and is counted.
 *  2. sort: CUB's radix sort over the key bits only: the entries of every
 *     bucket become one run, the zero digits sink to the end.
 *  3. accumulate (msm_impl.cuh): fixed-length slices of the sorted entries,
 *     one per thread (so skewed buckets cannot unbalance the load), summed
 *     in XYZZ with mixed additions; runs cut by slice ends are joined after
 *     (runs spanning many slices by pointer jumping). Each chunk fills
 *     empty buckets by stores; from the second chunk on they are then
 *     added into the totals by a merge kernel (one thread per bucket, no
 *     divergence).
 *  4. reduce: per segment of S buckets a weighted (running) sum acc_k and a
 *     plain sum run_k; the window's sum_k acc_k + S sum_k k run_k is taken
 *     as sum_k acc_k + S sum_i 2^i U_i (U_i: the run_k with bit i of k set),
 *     i.e. log2(segments) + 1 plain grouped sums and one Horner step per
 *     window; then to Jacobian: nwin points back to the host, combined there
 *     by Horner's rule (nwin*c doublings, microseconds).
 * The window size c minimises n*nwin(c) mixed additions plus the bucket work
 * nwin*2^(c-1)*(reduction + one add per chunk), within the key capacity and
 * CZ__MAX_BUCKET_BYTES of buckets.
 *
 * Batch addition: one thread per slice of bitmap words sums its set bits'
 * bases (mixed XYZZ additions), then the grouped sum.
 */
#include <stdlib.h>
#include <string.h>

#include <blst.h>
#include <cub/device/device_radix_sort.cuh>

#include "backend/cuda/ec.cuh"
#include "backend/cuda/internal.cuh"

#define CZ__MSM_NEG 0x80000000u          /* value bit: negative digit */
#define CZ__MSM_INDEX_MASK 0x7fffffffu
#define CZ__H_ENDS 1u                     /* head[t] holds a run that ends in slice t */
#define CZ__H_CONT 2u                     /* head[t] holds a run that goes on past slice t */
#define CZ__T_VALID 4u                    /* tail[t] holds a run started in t and cut by its end */
#define CZ__NO_LINK 0xffffffffu
#define CZ__MAX_C 22u                     /* G1 2^27: 12 windows, not 13 */
#define CZ__MAX_WINDOWS 128u              /* c = 2 over 255 bits */
#define CZ__ENTRIES_PER_POINT 16u         /* key capacity = 16 * max_chunk */
#define CZ__PARTIALS (1u << 20)           /* slices per chunk, at most */
#define CZ__SEGMENT_THREADS 262144u       /* bucket-reduction threads, at most */
#define CZ__SEGMENT_MIN 8u                /* buckets per reduction thread, at least */
#define CZ__SUM_FANIN 32u
#define CZ__BIT_SUM_FANIN 8u              /* first pass of the window sums: short chains */
#define CZ__BATCH_THREADS 262144u
#define CZ__MIN_CHUNK ((size_t)1 << 20)
#define CZ__MAX_CHUNK ((size_t)1 << 24)
#define CZ__MAX_BUCKET_BYTES ((size_t)5 << 30)   /* G1, c = 22: 12 * 2^21 * 192 B = 4.5 GiB */

struct cz_cuda_msm {
    int device;
    size_t max_chunk, cap_entries;
    cudaStream_t stream;
    uint32_t *keys[2], *vals[2];          /* cap_entries each: the sort's double buffers */
    void *staging;                        /* max_chunk scalars, or a batch bitmap */
    size_t staging_bytes;
    uint32_t *index;                      /* max_chunk base indices */
    void *cub_temp;
    size_t cub_bytes;
    void *head, *tail, *scratch;          /* CZ__PARTIALS G2 XYZZ points each */
    uint32_t *next[2];                    /* CZ__PARTIALS links each (pointer jumping) */
    uint32_t *active;                     /* a jump pass left a link */
    uint8_t *flags;                       /* CZ__PARTIALS */
    uint32_t *zeros;                      /* zero digits of the current chunk */
    void *out;                            /* CZ__MAX_WINDOWS G2 Jacobian points */
    void *buckets;
    size_t bucket_bytes;
    size_t bucket_cap;                    /* the most bucket memory a plan may take */
    cudaEvent_t ev[7];                    /* profile marks (CZ__PROF_*), then the end */
    cz_cuda_msm_profile prof;             /* of the last MSM */
    bool timed;                           /* cz_cuda_msm_set_profile: the phases timed */
};

enum { CZ__PROF_START, CZ__PROF_DIGITS, CZ__PROF_SORT, CZ__PROF_ACCUMULATE, CZ__PROF_JOIN,
       CZ__PROF_MERGE, CZ__PROF_END };

typedef struct {
    unsigned c, nwin, half;
    unsigned wpp, key_bits;   /* windows per pass; key bits of a pass (of its sentinel) */
    size_t chunk;
} cz__msm_plan;

static int cz__cuda_check(cz_ctx_t *ctx, const char *what)
{
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? CZ_OK : cz__cuda_fail(ctx, e, what);
}

/* ---- planning ---------------------------------------------------------------- */

static unsigned nwin_of(unsigned nbits, unsigned c)
{
    /* a full top window could carry out of it: one more window takes the carry */
    return (nbits + c - 1) / c + (nbits % c == 0);
}

/*
 * Terms per chunk: host scalars go through the staging buffer and gathered
 * ones through the index buffer (max_chunk each); device scalars read in
 * place need only keys, cap_entries a pass.
 */
static size_t chunk_of(const cz_cuda_msm *m, const cz_cuda_msm_terms *tm)
{
    const bool staged = !tm->scalars_on_device || (tm->index && !tm->index_on_device);
    const size_t most = staged ? m->max_chunk : m->cap_entries;
    return tm->n < most ? tm->n : most;
}

static cz__msm_plan make_plan(const cz_cuda_msm *m, const cz_cuda_msm_terms *tm, unsigned nbits,
                              size_t xyzz_bytes)
{
    cz__msm_plan best = { 0, 0, 0, 0, 0, 0 };
    const size_t n = tm->n, chunk = chunk_of(m, tm);
    const size_t nchunks = (n + chunk - 1) / chunk;
    const unsigned wpp_max = (unsigned)(m->cap_entries / chunk);   /* >= 16 but for device chunks */
    double best_cost = 0;
    for (unsigned c = 2; c <= CZ__MAX_C; c++) {
        const unsigned nwin = nwin_of(nbits, c);
        const size_t bucket_bytes = (size_t)nwin * ((size_t)1 << (c - 1)) * xyzz_bytes;
        /* host scalars are uploaded once a chunk: all its windows in one pass */
        if (nwin > CZ__MAX_WINDOWS || (!tm->scalars_on_device && nwin > wpp_max) ||
            bucket_bytes * (nchunks > 1 ? 2 : 1) > m->bucket_cap)
            continue;
        const double buckets = (double)nwin * (double)(1u << (c - 1));
        /* a full addition ~1.3 mixed ones; reduction = 2 full adds per bucket */
        const double cost = (double)n * nwin + buckets * (2.6 + 1.3 * (double)nchunks);
        if (best.c == 0 || cost < best_cost) {
            best_cost = cost;
            best.c = c;
            best.nwin = nwin;
        }
    }
    if (best.c == 0) {   /* unreachable: c = 16 fits 16 digits a term, its buckets the least cap */
        best.c = 16;
        best.nwin = nwin_of(nbits, best.c);
    }
    best.half = 1u << (best.c - 1);
    best.chunk = chunk;
    const unsigned passes = (best.nwin + wpp_max - 1) / wpp_max;
    best.wpp = (best.nwin + passes - 1) / passes;   /* even passes: 13 windows, 4 a pass: 4+4+4+1 */
    const uint32_t sentinel = best.wpp * best.half;
    best.key_bits = 32 - __builtin_clz(sentinel);
    return best;
}

/*
 * Entries per accumulation slice: at least 16, at most CZ__PARTIALS slices,
 * and at least twice a bucket's mean run (|buckets| per chunk), so that with
 * spread-out scalars a run seldom covers a whole slice: each such run costs
 * pointer-jumping passes over every slice (G2 2^20, c = 16: 32 entries a
 * bucket, slices of 16, the join took 15 of 74 ms).
 */
static uint32_t cz__msm_run_len(uint32_t total, uint32_t buckets)
{
    uint32_t k = (total + CZ__PARTIALS - 1) / CZ__PARTIALS;
    const uint32_t two_runs = (uint32_t)(((uint64_t)total * 2 + buckets - 1) / buckets);
    if (k < two_runs)
        k = two_runs;
    return k < 16 ? 16 : k;
}

/*
 * Buckets per reduction segment: a power of two, at least CZ__SEGMENT_MIN
 * (the window sums cost ~log2(segments)/(4S) of the segment additions),
 * giving at most CZ__SEGMENT_THREADS threads, and at least two segments a
 * window (the window sums need one bit).
 */
static uint32_t cz__msm_segment(const cz__msm_plan *pl)
{
    uint32_t s = 1;
    while (s < pl->half / 2 &&
           (s < CZ__SEGMENT_MIN || (size_t)pl->nwin * pl->half / s > CZ__SEGMENT_THREADS))
        s <<= 1;
    return s;
}

static int cz__msm_reserve_buckets(cz_ctx_t *ctx, cz_cuda_msm *m, size_t bytes)
{
    if (bytes <= m->bucket_bytes)
        return CZ_OK;
    cz_cuda_free(m->buckets);
    m->buckets = NULL;
    m->bucket_bytes = 0;
    int rc = cz_cuda_malloc(ctx, &m->buckets, bytes);
    if (rc == CZ_OK)
        m->bucket_bytes = bytes;
    return rc;
}

/* ---- the profile: device-event times per phase, summed over chunks ---------- */

static void cz__msm_prof_begin(cz_cuda_msm *m, const cz__msm_plan *pl)
{
    memset(&m->prof, 0, sizeof m->prof);
    m->prof.c = pl->c;
    m->prof.nwin = pl->nwin;
}

static void cz__msm_prof_mark(cz_cuda_msm *m, int k)
{
    if (m->timed)
        cudaEventRecord(m->ev[k], m->stream);
}

static float elapsed(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    return cudaEventElapsedTime(&ms, a, b) == cudaSuccess ? ms : 0;
}

/*
 * The end of a pass whose last mark is |last| (CZ__PROF_JOIN, or
 * CZ__PROF_MERGE for a chunk's last pass, the merge included): counted,
 * and where the phases are timed, added up after a host wait for the
 * pass's end. That wait empties the stream between passes (the next
 * pass's kernels are enqueued only after it): a gap of a thread's wake-up
 * each, microseconds on an idle host, more where synthesis keeps every
 * core busy, so only a profile asked for pays it.
 */
static int cz__msm_prof_pass_end(cz_ctx_t *ctx, cz_cuda_msm *m, int last)
{
    m->prof.passes++;
    if (!m->timed)
        return CZ_OK;
    CZ__CU(ctx, cudaEventSynchronize(m->ev[last]));
    float *f[] = { &m->prof.digits_ms, &m->prof.sort_ms, &m->prof.accumulate_ms,
                   &m->prof.join_ms, &m->prof.merge_ms };
    for (int k = 0; k < last; k++)
        *f[k] += elapsed(m->ev[k], m->ev[k + 1]);
    return CZ_OK;
}

/* After the stream's last work: the reduction's time (from the last chunk's end). */
static int cz__msm_prof_end(cz_ctx_t *ctx, cz_cuda_msm *m)
{
    if (!m->timed)
        return CZ_OK;
    CZ__CU(ctx, cudaEventRecord(m->ev[CZ__PROF_END], m->stream));
    CZ__CU(ctx, cudaEventSynchronize(m->ev[CZ__PROF_END]));
    m->prof.reduce_ms = elapsed(m->ev[CZ__PROF_MERGE], m->ev[CZ__PROF_END]);
    return CZ_OK;
}

extern "C" void cz_cuda_msm_last_profile(const cz_cuda_msm *m, cz_cuda_msm_profile *out)
{
    *out = m->prof;
}

extern "C" void cz_cuda_msm_set_profile(cz_cuda_msm *m, bool timed)
{
    m->timed = timed;
}

/* ---- digits and sort (group-independent) ------------------------------------ */

/*
 * The entries of windows [w0, w0 + wn) of n terms (the windows below w0 are
 * cut too, for their carries). |canonical| non-NULL (Montgomery scalars
 * that later passes read again): the converted scalar is written there.
 */
static __global__ void cz__msm_digits_kernel(uint32_t *keys, uint32_t *vals, const cz_dfr *scalars,
                                             const uint32_t *index, uint32_t index_base,
                                             uint32_t base_offset, uint32_t n, unsigned c, unsigned w0, unsigned wn,
                                             int montgomery, cz_dfr *canonical, uint32_t *zeros)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t nz = 0;
    if (i < n) {
        cz_dfr s = cz_dfr_load(scalars + i);
        if (montgomery) {
            cz_dfr one = cz_dfr_zero();
            one.l[0] = 1;
            s = cz_dfr_mul(s, one);               /* x R * 1 / R: canonical */
            if (canonical)
                cz_dfr_store(canonical + i, s);
        }
        uint32_t l[9];
#pragma unroll
        for (int k = 0; k < 8; k++)
            l[k] = s.l[k];
        l[8] = 0;
        const uint32_t point = index ? index[i] - index_base : base_offset + i;
        const uint32_t half = 1u << (c - 1), full = 1u << c, sentinel = wn * half;
        uint32_t carry = 0;
        for (unsigned w = 0; w < w0 + wn; w++) {
            const unsigned bit = w * c, word = bit >> 5, sh = bit & 31;
            uint32_t d = 0;
            if (word < 8) {
                const uint64_t two = (uint64_t)l[word] | (uint64_t)l[word + 1] << 32;
                d = (uint32_t)(two >> sh) & (full - 1);
            }
            d += carry;
            uint32_t v = point;
            carry = d > half;
            if (carry) {
                d = full - d;                       /* |d - 2^c| */
                v |= CZ__MSM_NEG;
            }
            if (w < w0)
                continue;
            const unsigned lw = w - w0;
            keys[(size_t)lw * n + i] = d ? lw * half + d - 1 : sentinel;
            vals[(size_t)lw * n + i] = v;
            nz += d == 0;
        }
    }
    nz = __reduce_add_sync(0xffffffffu, nz);
    if ((threadIdx.x & 31) == 0 && nz)
        atomicAdd(zeros, nz);
}

/*
 * The entries of chunk [off, off + cn), windows [w0, w0 + wn), into keys[0]
 * and vals[0]. A chunk's scalars are uploaded (host) or converted from
 * Montgomery form (device) on its first pass; device scalars the caller
 * lets the MSM overwrite are converted in place then, so later passes read
 * them as they are.
 */
static int cz__msm_digits(cz_ctx_t *ctx, cz_cuda_msm *m, const cz_cuda_msm_terms *tm,
                          const cz__msm_plan *pl, size_t off, uint32_t cn, unsigned w0,
                          unsigned wn)
{
    cudaStream_t st = m->stream;
    const cz_dfr *scalars;
    int montgomery = tm->scalars_montgomery;
    cz_dfr *canonical = NULL;
    if (tm->scalars_on_device) {
        scalars = (const cz_dfr *)tm->scalars + off;
        const bool reread = wn < pl->nwin;
        if (montgomery && reread && tm->scalars_scratch) {
            if (w0 == 0)
                canonical = (cz_dfr *)scalars;
            else
                montgomery = 0;
        }
    } else if (w0 == 0) {
        CZ__CU(ctx, cudaMemcpyAsync(m->staging, (const char *)tm->scalars + off * 32, (size_t)cn * 32,
                                    cudaMemcpyHostToDevice, st));
        scalars = (const cz_dfr *)m->staging;
    } else {
        scalars = (const cz_dfr *)m->staging;   /* uploaded by the chunk's first pass */
    }
    const uint32_t *index = NULL;
    if (tm->index && tm->index_on_device) {
        index = tm->index + off;
    } else if (tm->index) {
        if (w0 == 0)
            CZ__CU(ctx, cudaMemcpyAsync(m->index, tm->index + off, (size_t)cn * 4,
                                        cudaMemcpyHostToDevice, st));
        index = m->index;
    }
    CZ__CU(ctx, cudaMemsetAsync(m->zeros, 0, sizeof *m->zeros, st));
    /* blocks of whole warps: the zero count is reduced per warp */
    cz__msm_digits_kernel<<<cz__blocks(cn, 256), 256, 0, st>>>(
        m->keys[0], m->vals[0], scalars, index, tm->index_base, (uint32_t)off, cn, pl->c, w0, wn, montgomery,
        canonical, m->zeros);
    return cz__cuda_check(ctx, "msm: digits kernel");
}

static int cz__msm_sort(cz_ctx_t *ctx, cz_cuda_msm *m, const cz__msm_plan *pl, uint32_t total,
                        const uint32_t **keys, const uint32_t **vals)
{
    cub::DoubleBuffer<uint32_t> k(m->keys[0], m->keys[1]), v(m->vals[0], m->vals[1]);
    size_t bytes = m->cub_bytes;
    CZ__CU(ctx, cub::DeviceRadixSort::SortPairs(m->cub_temp, bytes, k, v, (int)total, 0,
                                                (int)pl->key_bits, m->stream));
    *keys = k.Current();
    *vals = v.Current();
    return CZ_OK;
}

/* ---- the groups ---------------------------------------------------------------- */

#define CZ_EF cz_dfp
#define CZ_EFN(x) cz_dfp_##x
#define CZ_EP(x) cz_g1_##x
#define CZ_KP(x) cz__g1_##x
#define CZ_MSM_INLINE_MADD 1
/* lazy (one reduction a bucket): G1 2^27 accumulation 714.6 -> 705.6 ms on the H200 */
#define CZ_MSM_LAZY_MADD 1
#include "backend/cuda/msm_impl.cuh"
#undef CZ_EF
#undef CZ_EFN
#undef CZ_EP
#undef CZ_KP
#undef CZ_MSM_INLINE_MADD
#undef CZ_MSM_LAZY_MADD

#define CZ_EF cz_dfp2
#define CZ_EFN(x) cz_dfp2_##x
#define CZ_EP(x) cz_g2_##x
#define CZ_KP(x) cz__g2_##x
#define CZ_MSM_INLINE_MADD 1
/* not lazy: ptxas spilled 1434 bytes (262 reduced) and G2 2^20 accumulated 24.5 -> 27.7 ms */
#define CZ_MSM_LAZY_MADD 0
#include "backend/cuda/msm_impl.cuh"
#undef CZ_EF
#undef CZ_EFN
#undef CZ_EP
#undef CZ_KP
#undef CZ_MSM_INLINE_MADD
#undef CZ_MSM_LAZY_MADD

/* ---- the C API ------------------------------------------------------------------- */

static size_t clamp_chunk(size_t max_chunk)
{
    if (max_chunk == 0 || max_chunk > CZ__MAX_CHUNK)
        return CZ__MAX_CHUNK;
    return max_chunk < CZ__MIN_CHUNK ? CZ__MIN_CHUNK : max_chunk;
}

static size_t cub_temp_bytes(size_t entries)
{
    cub::DoubleBuffer<uint32_t> k(NULL, NULL), v(NULL, NULL);
    size_t bytes = 0;
    if (cub::DeviceRadixSort::SortPairs(NULL, bytes, k, v, (int)entries, 0, 32) != cudaSuccess)
        return 0;
    return bytes;
}

extern "C" size_t cz_cuda_msm_mem_bytes(size_t max_chunk)
{
    const size_t chunk = clamp_chunk(max_chunk), entries = CZ__ENTRIES_PER_POINT * chunk;
    return 4 * entries * sizeof(uint32_t) + chunk * (32 + 4) +   /* + buckets: see cuda.h */
           3 * (size_t)CZ__PARTIALS * sizeof(cz_g2_xyzz) + 9 * (size_t)CZ__PARTIALS +
           CZ__MAX_WINDOWS * sizeof(cz_g2_jac) + cub_temp_bytes(entries);
}

extern "C" size_t cz_cuda_msm_stack_bytes(void)
{
    const size_t g1 = cz__g1_stack_bytes(), g2 = cz__g2_stack_bytes();
    return g1 > g2 ? g1 : g2;
}

extern "C" void cz_cuda_msm_free(cz_cuda_msm *m)
{
    if (!m)
        return;
    cudaSetDevice(m->device);
    for (int i = 0; i < 2; i++) {
        cz_cuda_free(m->keys[i]);
        cz_cuda_free(m->vals[i]);
    }
    void *bufs[] = { m->staging, m->index, m->cub_temp, m->head, m->tail, m->scratch, m->next[0],
                     m->next[1], m->active, m->flags, m->zeros, m->out, m->buckets };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        cz_cuda_free(bufs[i]);
    for (int i = 0; i < 7; i++)
        if (m->ev[i])
            cudaEventDestroy(m->ev[i]);
    if (m->stream)
        cudaStreamDestroy(m->stream);
    free(m);
}

extern "C" int cz_cuda_msm_new(cz_ctx_t *ctx, cz_cuda_msm **out, int device, size_t max_chunk)
{
    *out = NULL;
    cz_cuda_msm *m = (cz_cuda_msm *)calloc(1, sizeof *m);
    if (!m)
        return cz_fail(ctx, CZ_ENOMEM, "cuda msm: workspace");
    m->device = device;
    m->max_chunk = clamp_chunk(max_chunk);
    m->bucket_cap = CZ__MAX_BUCKET_BYTES;
    m->cap_entries = CZ__ENTRIES_PER_POINT * m->max_chunk;
    m->staging_bytes = m->max_chunk * 32;
    int rc = cz_cuda_set_device(ctx, device);
    for (int i = 0; i < 2 && rc == CZ_OK; i++) {
        rc = cz_cuda_malloc(ctx, (void **)&m->keys[i], m->cap_entries * sizeof(uint32_t));
        if (rc == CZ_OK)
            rc = cz_cuda_malloc(ctx, (void **)&m->vals[i], m->cap_entries * sizeof(uint32_t));
    }
    m->cub_bytes = cub_temp_bytes(m->cap_entries);
    if (rc == CZ_OK && m->cub_bytes == 0)
        rc = cz_fail(ctx, CZ_EDEVICE, "cuda msm: cannot size the radix sort's temporary storage");
    struct { void **p; size_t bytes; } allocs[] = {
        { &m->staging, m->staging_bytes },
        { (void **)&m->index, m->max_chunk * sizeof(uint32_t) },
        { &m->cub_temp, m->cub_bytes },
        { &m->head, (size_t)CZ__PARTIALS * sizeof(cz_g2_xyzz) },
        { &m->tail, (size_t)CZ__PARTIALS * sizeof(cz_g2_xyzz) },
        { &m->scratch, (size_t)CZ__PARTIALS * sizeof(cz_g2_xyzz) },
        { (void **)&m->next[0], (size_t)CZ__PARTIALS * sizeof(uint32_t) },
        { (void **)&m->next[1], (size_t)CZ__PARTIALS * sizeof(uint32_t) },
        { (void **)&m->active, sizeof(uint32_t) },
        { (void **)&m->flags, CZ__PARTIALS },
        { (void **)&m->zeros, sizeof(uint32_t) },
        { &m->out, CZ__MAX_WINDOWS * sizeof(cz_g2_jac) },
    };
    for (size_t i = 0; i < sizeof allocs / sizeof allocs[0] && rc == CZ_OK; i++)
        rc = cz_cuda_malloc(ctx, allocs[i].p, allocs[i].bytes);
    cudaError_t e;
    if (rc == CZ_OK && (e = cudaStreamCreateWithFlags(&m->stream, cudaStreamNonBlocking)) != cudaSuccess)
        rc = cz__cuda_fail(ctx, e, "cudaStreamCreate");
    for (int i = 0; i < 7 && rc == CZ_OK; i++)
        if ((e = cudaEventCreate(&m->ev[i])) != cudaSuccess)
            rc = cz__cuda_fail(ctx, e, "cudaEventCreate");
    if (rc != CZ_OK) {
        cz_cuda_msm_free(m);
        return rc;
    }
    *out = m;
    return CZ_OK;
}

extern "C" void cz_cuda_msm_set_bucket_cap(cz_cuda_msm *m, size_t bytes)
{
    /* G2 at c = 16, twice (host scalars in chunks): 2 * 17 * 2^15 * 384 B = 408 MiB */
    const size_t least = (size_t)512 << 20;
    m->bucket_cap = bytes == 0 || bytes > CZ__MAX_BUCKET_BYTES ? CZ__MAX_BUCKET_BYTES
                    : bytes < least                            ? least
                                                               : bytes;
    if (m->bucket_bytes > m->bucket_cap) {   /* held from a larger plan: give it back */
        cudaSetDevice(m->device);
        cz_cuda_free(m->buckets);
        m->buckets = NULL;
        m->bucket_bytes = 0;
    }
}

extern "C" size_t cz_cuda_msm_buckets_held(const cz_cuda_msm *m) { return m->bucket_bytes; }

static int check_terms(cz_ctx_t *ctx, const cz_cuda_msm_terms *tm, int group)
{
    if (group != 1 && group != 2)
        return cz_fail(ctx, CZ_EINVAL, "cuda msm: group %d (1 or 2)", group);
    if (tm->n > 0 && !tm->scalars)
        return cz_fail(ctx, CZ_EINVAL, "cuda msm: NULL scalars");
    if (tm->n > CZ__MSM_INDEX_MASK)
        return cz_fail(ctx, CZ_ERANGE, "cuda msm: %zu terms (at most 2^31 - 1)", tm->n);
    if (tm->nbits > 255)
        return cz_fail(ctx, CZ_ERANGE, "cuda msm: %u-bit scalars (at most 255)", tm->nbits);
    return CZ_OK;
}

/* out = sum_w 2^(c w) win[w], by Horner's rule from the top window. */
static void combine_g1(blst_p1 *out, const cz_g1_jac *win, const cz__msm_plan *pl)
{
    blst_p1 acc;
    memcpy(&acc, &win[pl->nwin - 1], sizeof acc);
    for (int w = (int)pl->nwin - 2; w >= 0; w--) {
        for (unsigned i = 0; i < pl->c; i++)
            blst_p1_double(&acc, &acc);
        blst_p1_add_or_double(&acc, &acc, (const blst_p1 *)&win[w]);
    }
    *out = acc;
}

static void combine_g2(blst_p2 *out, const cz_g2_jac *win, const cz__msm_plan *pl)
{
    blst_p2 acc;
    memcpy(&acc, &win[pl->nwin - 1], sizeof acc);
    for (int w = (int)pl->nwin - 2; w >= 0; w--) {
        for (unsigned i = 0; i < pl->c; i++)
            blst_p2_double(&acc, &acc);
        blst_p2_add_or_double(&acc, &acc, (const blst_p2 *)&win[w]);
    }
    *out = acc;
}

extern "C" int cz_cuda_msm_run(cz_ctx_t *ctx, cz_cuda_msm *m, int group, void *out,
                               const void *d_bases, const cz_cuda_msm_terms *terms)
{
    int rc = check_terms(ctx, terms, group);
    if (rc != CZ_OK)
        return rc;
    if (terms->n == 0) {
        memset(out, 0, group == 1 ? sizeof(blst_p1) : sizeof(blst_p2));   /* Z = 0: infinity */
        return CZ_OK;
    }
    if ((rc = cz_cuda_set_device(ctx, m->device)) != CZ_OK)
        return rc;
    const cz__msm_plan pl = make_plan(m, terms, terms->nbits ? terms->nbits : 255,
                                      group == 1 ? sizeof(cz_g1_xyzz) : sizeof(cz_g2_xyzz));
    if (group == 1) {
        cz_g1_jac win[CZ__MAX_WINDOWS];
        rc = cz__g1_msm_windows(ctx, m, (const cz_g1_aff *)d_bases, terms, &pl, win);
        if (rc == CZ_OK)
            combine_g1((blst_p1 *)out, win, &pl);
    } else {
        cz_g2_jac win[CZ__MAX_WINDOWS];
        rc = cz__g2_msm_windows(ctx, m, (const cz_g2_aff *)d_bases, terms, &pl, win);
        if (rc == CZ_OK)
            combine_g2((blst_p2 *)out, win, &pl);
    }
    return rc;
}

extern "C" int cz_cuda_batch_add(cz_ctx_t *ctx, cz_cuda_msm *m, int group, void *out,
                                 const void *d_bases, const uint64_t *bitmap, size_t n,
                                 bool bitmap_on_device)
{
    if (group != 1 && group != 2)
        return cz_fail(ctx, CZ_EINVAL, "cuda batch add: group %d (1 or 2)", group);
    if (n == 0) {
        memset(out, 0, group == 1 ? sizeof(blst_p1) : sizeof(blst_p2));
        return CZ_OK;
    }
    if (!bitmap || !d_bases)
        return cz_fail(ctx, CZ_EINVAL, "cuda batch add: NULL argument");
    int rc = cz_cuda_set_device(ctx, m->device);
    if (rc != CZ_OK)
        return rc;
    if (group == 1)
        return cz__g1_batch_add(ctx, m, (const cz_g1_aff *)d_bases, bitmap, n, bitmap_on_device,
                                (cz_g1_jac *)out);
    return cz__g2_batch_add(ctx, m, (const cz_g2_aff *)d_bases, bitmap, n, bitmap_on_device,
                            (cz_g2_jac *)out);
}
