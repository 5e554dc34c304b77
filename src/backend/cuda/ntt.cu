/*
 * backend/cuda/ntt.cu — Fr NTT on the device.
 *
 * A size-2^L transform runs as P = ceil(L/10) passes of k <= 10 radix-2
 * stages each (L = 27: 9+9+9). One pass treats the array as 2^(L-k)
 * independent groups of 2^k elements spaced 2^lsl apart; a block loads 1024
 * elements (1..512 groups) into shared memory, runs the k stages there and
 * writes them back in place. Each of its 256 threads does two butterflies
 * per stage (two independent multiplications in flight).
 *
 * Tuning knobs (compile time), as measured on the H200 at 2^27 (NR order):
 * CZ_NTT_BPT 1 -> 2 butterflies per thread: 53.1 -> 46.9 ms; CZ_NTT_MAXK 9
 * (512-element blocks): 48.5 ms; CZ_NTT_MINB 3 (40 registers, spills):
 * 49.5 ms. See docs/PERFORMANCE.md.
 *
 * The twiddles of stage s+j of a size-2^L DIF split into a part common to
 * every group (a root of order 2^(k-j): the small table om) and a part that
 * depends only on the group's low index lo; the latter factors out of the
 * whole pass, becoming one multiplication of the element that ends at local
 * position m by w^(lo * 2^s * bitrev_k(m)) (DIF, after the pass) or
 * w^(lo * 2^(L-s-k) * bitrev_k(m)) (DIT, before it). So each pass costs the
 * butterflies of a size-2^k transform plus two multiplications per element
 * (building the twiddle from a two-level table, applying it), and only
 * P-1 passes carry such twiddles. A pass whose exponents are all multiples
 * of 2^(L-18) (the middle one of three) reads them from a direct table of
 * 2^18 (8 MiB, L2-resident) instead: one multiplication per element. This
 * is the "four-step" factorisation (Bailey, "FFTs in external or
 * hierarchical memory", 1990) applied per pass.
 *
 * DIF (Gentleman-Sande) takes natural order to bit-reversed, DIT
 * (Cooley-Tukey) bit-reversed to natural, so NR/RN transforms need no
 * permutation; a coset shift or 1/n is fused into the first read or the
 * last write (cz__ntt_scale).
 */
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/internal.cuh"

#ifndef CZ_NTT_MAXK
#define CZ_NTT_MAXK 10
#endif
#define CZ__MAXK ((unsigned)CZ_NTT_MAXK) /* stages per pass */
#define CZ__BLOCK_E (1u << CZ__MAXK)  /* elements per block */
#ifndef CZ_NTT_MINB
#define CZ_NTT_MINB 1                 /* __launch_bounds__ minimum blocks per SM */
#endif
#ifndef CZ_NTT_BPT
#define CZ_NTT_BPT 2                  /* butterflies per thread and stage: 1 or 2 */
#endif

typedef struct {
    cz_dfr *data;
    const cz_dfr *om;                 /* omega_1024^i, i < 512 */
    const cz_dfr *wlo, *whi;          /* w^e two-level */
    const cz_dfr *wdir;               /* w^e, e a multiple of 2^dshift: direct */
    unsigned dshift;
    int direct;                       /* this pass's twiddle exponents are all in wdir */
    cz__ntt_scale in, out;
    unsigned L, s, k;
    unsigned lsl;                     /* log2 of the stride between a group's elements */
    unsigned lE;                      /* log2 of elements per block */
    unsigned lbpt;                    /* log2 of butterflies per thread (<= log2 CZ_NTT_BPT) */
    int twiddle, first, last;
} cz__pass;

/* Shared memory as two planes of 16-byte halves: conflict-free 16-byte access. */
typedef uint4 cz__smem[2][CZ__BLOCK_E];

CZ__DI cz_dfr sm_get(cz__smem sm, uint32_t i)
{
    uint4 a = sm[0][i], b = sm[1][i];
    cz_dfr r = { { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w } };
    return r;
}

CZ__DI void sm_put(cz__smem sm, uint32_t i, const cz_dfr v)
{
    sm[0][i] = make_uint4(v.l[0], v.l[1], v.l[2], v.l[3]);
    sm[1][i] = make_uint4(v.l[4], v.l[5], v.l[6], v.l[7]);
}

CZ__DI uint32_t bitrev(uint32_t x, unsigned bits) { return __brev(x) >> (32 - bits); }

/* lo[e & mask] * hi[e >> 14] */
CZ__DI cz_dfr two_level(const cz_dfr *lo, const cz_dfr *hi, uint32_t e)
{
    cz_dfr a = cz_dfr_load(lo + (e & ((1u << CZ__SPLIT) - 1)));
    return cz_dfr_mul(a, cz_dfr_load(hi + (e >> CZ__SPLIT)));
}

/* The between-pass twiddle w^e: one load from the direct table where it covers e. */
CZ__DI cz_dfr pass_twiddle(const cz__pass &a, uint32_t e)
{
    return a.direct ? cz_dfr_load(a.wdir + (e >> a.dshift)) : two_level(a.wlo, a.whi, e);
}

CZ__DI cz_dfr scale_factor(const cz__ntt_scale sc, uint32_t pos, unsigned L)
{
    if (!sc.hi)
        return cz_dfr_load(sc.lo);
    return two_level(sc.lo, sc.hi, sc.rev ? bitrev(pos, L) : pos);
}

/*
 * Element e of this block (0 <= e < 2^lE) in address order: the group's low
 * index varies fastest, then m, then the rest, so consecutive threads touch
 * consecutive addresses wherever the stride allows.
 */
CZ__DI uint32_t element_pos(const cz__pass &a, uint32_t e, uint32_t *sidx, uint32_t *m_out,
                            uint32_t *lo_out)
{
    const unsigned lg = a.lE - a.k;                    /* log2 groups per block */
    const unsigned lglo = lg < a.lsl ? lg : a.lsl;
    uint32_t lo_part = e & ((1u << lglo) - 1);
    uint32_t m = (e >> lglo) & ((1u << a.k) - 1);
    uint32_t hi_part = e >> (lglo + a.k);
    uint32_t g = (hi_part << lglo) | lo_part;
    uint32_t gid = ((uint32_t)blockIdx.x << lg) | g;
    uint32_t hi = gid >> a.lsl, lo = gid & ((1u << a.lsl) - 1);
    *sidx = (g << a.k) | m;
    *m_out = m;
    *lo_out = lo;
    return (hi << (a.lsl + a.k)) | (m << a.lsl) | lo;
}

static __global__ void __launch_bounds__(CZ__BLOCK_E / (2 * CZ_NTT_BPT), CZ_NTT_MINB) cz__dif_kernel(const cz__pass a)
{
    __shared__ cz__smem sm;
    const uint32_t T = 1u << (a.lE - 1 - a.lbpt);
#pragma unroll
    for (int h = 0; h < 2 * CZ_NTT_BPT; h++) {
        if (h >= (2 << a.lbpt))
            break;
        uint32_t si, m, lo;
        uint32_t pos = element_pos(a, threadIdx.x + h * T, &si, &m, &lo);
        cz_dfr v = cz_dfr_load(a.data + pos);
        if (a.first && a.in.lo)
            v = cz_dfr_mul(v, scale_factor(a.in, pos, a.L));
        sm_put(sm, si, v);
    }
    __syncthreads();
    for (uint32_t j = 0; j < a.k; j++) {
        const uint32_t hb = a.k - 1 - j, half = 1u << hb;
#pragma unroll
        for (int u = 0; u < CZ_NTT_BPT; u++) {
            if (u >= (1 << a.lbpt))
                break;
            const uint32_t t = threadIdx.x + u * T;
            const uint32_t b = t & ((1u << (a.k - 1)) - 1);
            const uint32_t base = (t >> (a.k - 1)) << a.k;
            const uint32_t q = b & (half - 1);
            const uint32_t m0 = base | ((b >> hb) << (hb + 1)) | q, m1 = m0 | half;
            cz_dfr x = sm_get(sm, m0), y = sm_get(sm, m1);
            cz_dfr d = cz_dfr_sub(x, y);
            if (hb != 0)   /* the last stage's twiddles are all 1 */
                d = cz_dfr_mul(d, cz_dfr_load(a.om + (q << (j + CZ__MAXK - a.k))));
            sm_put(sm, m0, cz_dfr_add(x, y));
            sm_put(sm, m1, d);
        }
        __syncthreads();
    }
#pragma unroll
    for (int h = 0; h < 2 * CZ_NTT_BPT; h++) {
        if (h >= (2 << a.lbpt))
            break;
        uint32_t si, m, lo;
        uint32_t pos = element_pos(a, threadIdx.x + h * T, &si, &m, &lo);
        cz_dfr v = sm_get(sm, si);
        if (a.twiddle)
            v = cz_dfr_mul(v, pass_twiddle(a, (lo * bitrev(m, a.k)) << a.s));
        if (a.last && a.out.lo)
            v = cz_dfr_mul(v, scale_factor(a.out, pos, a.L));
        cz_dfr_store(a.data + pos, v);
    }
}

static __global__ void __launch_bounds__(CZ__BLOCK_E / (2 * CZ_NTT_BPT), CZ_NTT_MINB) cz__dit_kernel(const cz__pass a)
{
    __shared__ cz__smem sm;
    const uint32_t T = 1u << (a.lE - 1 - a.lbpt);
#pragma unroll
    for (int h = 0; h < 2 * CZ_NTT_BPT; h++) {
        if (h >= (2 << a.lbpt))
            break;
        uint32_t si, m, lo;
        uint32_t pos = element_pos(a, threadIdx.x + h * T, &si, &m, &lo);
        cz_dfr v = cz_dfr_load(a.data + pos);
        if (a.first && a.in.lo)
            v = cz_dfr_mul(v, scale_factor(a.in, pos, a.L));
        if (a.twiddle)
            v = cz_dfr_mul(v, pass_twiddle(a, (lo * bitrev(m, a.k)) << (a.L - a.s - a.k)));
        sm_put(sm, si, v);
    }
    __syncthreads();
    for (uint32_t j = 0; j < a.k; j++) {
        const uint32_t half = 1u << j;
#pragma unroll
        for (int u = 0; u < CZ_NTT_BPT; u++) {
            if (u >= (1 << a.lbpt))
                break;
            const uint32_t t = threadIdx.x + u * T;
            const uint32_t b = t & ((1u << (a.k - 1)) - 1);
            const uint32_t base = (t >> (a.k - 1)) << a.k;
            const uint32_t q = b & (half - 1);
            const uint32_t m0 = base | ((b >> j) << (j + 1)) | q, m1 = m0 | half;
            cz_dfr x = sm_get(sm, m0), y = sm_get(sm, m1);
            if (j != 0)    /* the first stage's twiddles are all 1 */
                y = cz_dfr_mul(y, cz_dfr_load(a.om + (q << (CZ__MAXK - 1 - j))));
            sm_put(sm, m0, cz_dfr_add(x, y));
            sm_put(sm, m1, cz_dfr_sub(x, y));
        }
        __syncthreads();
    }
#pragma unroll
    for (int h = 0; h < 2 * CZ_NTT_BPT; h++) {
        if (h >= (2 << a.lbpt))
            break;
        uint32_t si, m, lo;
        uint32_t pos = element_pos(a, threadIdx.x + h * T, &si, &m, &lo);
        cz_dfr v = sm_get(sm, si);
        if (a.last && a.out.lo)
            v = cz_dfr_mul(v, scale_factor(a.out, pos, a.L));
        cz_dfr_store(a.data + pos, v);
    }
}

static __global__ void cz__bitrev_kernel(cz_dfr *data, unsigned L)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >> L)
        return;
    uint32_t j = bitrev(i, L);
    if (i < j) {
        cz_dfr x = cz_dfr_load(data + i), y = cz_dfr_load(data + j);
        cz_dfr_store(data + i, y);
        cz_dfr_store(data + j, x);
    }
}

static unsigned direct_bits(unsigned log_n)
{
    return log_n < CZ__DIRECT_BITS ? log_n : CZ__DIRECT_BITS;
}

static int run_passes(cz_ctx_t *ctx, const cz_cuda_ntt_domain *d, cz_dfr *data, int inverse,
                      cz__ntt_scale in, cz__ntt_scale out, cudaStream_t stream, int dit)
{
    const unsigned L = d->log_n;
    const unsigned npass = (L + CZ__MAXK - 1) / CZ__MAXK;
    const unsigned lE = L < CZ__MAXK ? L : CZ__MAXK;
    cz__pass a;
    memset(&a, 0, sizeof a);
    a.data = data;
    a.om = d->om[inverse ? 1 : 0];
    a.wlo = d->wlo[inverse ? 1 : 0];
    a.whi = d->whi[inverse ? 1 : 0];
    a.wdir = d->wdir[inverse ? 1 : 0];
    a.dshift = L - direct_bits(L);
    a.in = in;
    a.out = out;
    a.L = L;
    a.lE = lE;
    a.lbpt = (CZ_NTT_BPT > 1 && lE >= 2) ? 1 : 0;
    unsigned s = 0;
    for (unsigned p = 0; p < npass; p++) {
        a.k = L / npass + (p < L % npass ? 1 : 0);
        a.s = s;
        a.lsl = dit ? s : L - s - a.k;
        a.first = p == 0;
        a.last = p + 1 == npass;
        a.twiddle = dit ? s > 0 : s + a.k < L;
        /* exponents are multiples of 2^(s) (DIF) or 2^(L-s-k) (DIT) below 2^L */
        a.direct = (dit ? L - s - a.k : s) >= a.dshift;
        dim3 grid(1u << (L - lE)), block(1u << (lE - 1 - a.lbpt));
        if (dit)
            cz__dit_kernel<<<grid, block, 0, stream>>>(a);
        else
            cz__dif_kernel<<<grid, block, 0, stream>>>(a);
        s += a.k;
    }
    CZ__CU(ctx, cudaGetLastError());
    return CZ_OK;
}

int cz__ntt_dif(cz_ctx_t *ctx, const cz_cuda_ntt_domain *d, cz_dfr *data, int inverse,
                cz__ntt_scale in, cz__ntt_scale out, cudaStream_t stream)
{
    return run_passes(ctx, d, data, inverse, in, out, stream, 0);
}

int cz__ntt_dit(cz_ctx_t *ctx, const cz_cuda_ntt_domain *d, cz_dfr *data, int inverse,
                cz__ntt_scale in, cz__ntt_scale out, cudaStream_t stream)
{
    return run_passes(ctx, d, data, inverse, in, out, stream, 1);
}

int cz__ntt_bitrev(cz_ctx_t *ctx, const cz_cuda_ntt_domain *d, cz_dfr *data, cudaStream_t stream)
{
    size_t n = (size_t)1 << d->log_n;
    cz__bitrev_kernel<<<cz__blocks(n, 256), 256, 0, stream>>>(data, d->log_n);
    CZ__CU(ctx, cudaGetLastError());
    return CZ_OK;
}

/* ---- the domain (tables built on the host with blst, then uploaded) ---- */

/* out[i] = c * x^i for i < count. */
static void powers(cz_fr *out, size_t count, const cz_fr *x, const cz_fr *c)
{
    cz_fr acc = *c;
    for (size_t i = 0; i < count; i++) {
        out[i] = acc;
        cz_fr_mul(&acc, &acc, x);
    }
}

/* x^(2^k), by k squarings */
static cz_fr pow_2k(const cz_fr *x, unsigned k)
{
    cz_fr y = *x;
    for (unsigned i = 0; i < k; i++)
        cz_fr_sqr(&y, &y);
    return y;
}

extern "C" size_t cz__cuda_ntt_domain_elems(unsigned log_n)
{
    size_t nlo = (size_t)1 << (log_n < CZ__SPLIT ? log_n : CZ__SPLIT);
    size_t nhi = (size_t)1 << (log_n > CZ__SPLIT ? log_n - CZ__SPLIT : 0);
    return 1024 + 4 * nlo + 6 * nhi + 2 * ((size_t)1 << direct_bits(log_n)) + 2;
}

extern "C" int cz_cuda_ntt_domain_new(cz_ctx_t *ctx, cz_cuda_ntt_domain **out, unsigned log_n)
{
    *out = NULL;
    if (log_n < 1 || log_n > 28)
        return cz_fail(ctx, CZ_ERANGE, "cuda ntt: log_n %u outside 1..28", log_n);
    const size_t nlo = (size_t)1 << (log_n < CZ__SPLIT ? log_n : CZ__SPLIT);
    const size_t nhi = (size_t)1 << (log_n > CZ__SPLIT ? log_n - CZ__SPLIT : 0);
    const size_t ndir = (size_t)1 << direct_bits(log_n);
    const size_t total = cz__cuda_ntt_domain_elems(log_n);
    cz_fr *h = (cz_fr *)malloc(total * sizeof(cz_fr));
    cz_cuda_ntt_domain *d = (cz_cuda_ntt_domain *)calloc(1, sizeof *d);
    if (!h || !d) {
        free(h);
        free(d);
        return cz_fail(ctx, CZ_ENOMEM, "cuda ntt: domain tables");
    }
    d->log_n = log_n;

    cz_fr one = CZ_FR_ONE, w, winv, om, ominv, g, ginv, minv, k, t;
    cz_fr_root_of_unity(&w, log_n);
    cz_fr_inverse(&winv, &w);
    cz_fr_root_of_unity(&om, CZ__MAXK);
    cz_fr_inverse(&ominv, &om);
    cz_fr_from_u64(&g, CZ_FR_GENERATOR);
    cz_fr_inverse(&ginv, &g);
    cz_fr_from_u64(&t, (uint64_t)1 << log_n);
    cz_fr_inverse(&minv, &t);
    cz_fr_pow_u64(&t, &g, (uint64_t)1 << log_n);      /* Z(g) = g^m - 1 */
    cz_fr_sub(&t, &t, &one);
    cz_fr_inverse(&k, &t);
    cz_fr_mul(&k, &k, &minv);                          /* K = m^-1 (g^m-1)^-1 */

    /* Layout; offsets in elements. */
    size_t off = 0, o_om0 = off; off += 512;
    size_t o_om1 = off; off += 512;
    size_t o_wlo0 = off; off += nlo;
    size_t o_wlo1 = off; off += nlo;
    size_t o_glo = off; off += nlo;
    size_t o_ginvlo = off; off += nlo;
    size_t o_whi0 = off; off += nhi;
    size_t o_whi1 = off; off += nhi;
    size_t o_ghi = off; off += nhi;
    size_t o_ghim = off; off += nhi;
    size_t o_ginvhim = off; off += nhi;
    size_t o_ginvhik = off; off += nhi;
    size_t o_wdir0 = off; off += ndir;
    size_t o_wdir1 = off; off += ndir;
    size_t o_cminv = off; off += 1;
    size_t o_ck = off; off += 1;

    powers(h + o_om0, 512, &om, &one);
    powers(h + o_om1, 512, &ominv, &one);
    powers(h + o_wlo0, nlo, &w, &one);
    powers(h + o_wlo1, nlo, &winv, &one);
    powers(h + o_glo, nlo, &g, &one);
    powers(h + o_ginvlo, nlo, &ginv, &one);
    cz_fr ws = pow_2k(&w, CZ__SPLIT), wis = pow_2k(&winv, CZ__SPLIT);
    cz_fr gs = pow_2k(&g, CZ__SPLIT), gis = pow_2k(&ginv, CZ__SPLIT);
    powers(h + o_whi0, nhi, &ws, &one);
    powers(h + o_whi1, nhi, &wis, &one);
    powers(h + o_ghi, nhi, &gs, &one);
    powers(h + o_ghim, nhi, &gs, &minv);
    powers(h + o_ginvhim, nhi, &gis, &minv);
    powers(h + o_ginvhik, nhi, &gis, &k);
    const unsigned dshift = log_n - direct_bits(log_n);
    cz_fr wd = pow_2k(&w, dshift), wid = pow_2k(&winv, dshift);   /* w^(2^(log_n - D)) */
    powers(h + o_wdir0, ndir, &wd, &one);
    powers(h + o_wdir1, ndir, &wid, &one);
    h[o_cminv] = minv;
    h[o_ck] = k;

    void *mem = NULL;
    int rc = cz_cuda_malloc(ctx, &mem, total * sizeof(cz_fr));
    /* A cudaMemcpy from pageable memory returns before its DMA lands, and the
     * transforms run on non-blocking streams that do not wait for the legacy
     * stream: cz_cuda_memcpy_htod waits for the DMA. (Without the wait the H
     * in turn read half-written tables in its first region: a wrong proof.) */
    if (rc == CZ_OK)
        rc = cz_cuda_memcpy_htod(ctx, mem, h, total * sizeof(cz_fr));
    free(h);
    if (rc != CZ_OK) {
        cz_cuda_free(mem);
        free(d);
        return rc;
    }
    cz_dfr *m = (cz_dfr *)mem;
    d->mem = m;
    d->om[0] = m + o_om0;
    d->om[1] = m + o_om1;
    d->wlo[0] = m + o_wlo0;
    d->wlo[1] = m + o_wlo1;
    d->whi[0] = m + o_whi0;
    d->whi[1] = m + o_whi1;
    d->wdir[0] = m + o_wdir0;
    d->wdir[1] = m + o_wdir1;
    d->g_lo = m + o_glo;
    d->ginv_lo = m + o_ginvlo;
    d->g_hi = m + o_ghi;
    d->g_hi_minv = m + o_ghim;
    d->ginv_hi_minv = m + o_ginvhim;
    d->ginv_hi_k = m + o_ginvhik;
    d->c_minv = m + o_cminv;
    d->c_k = m + o_ck;
    *out = d;
    return CZ_OK;
}

extern "C" void cz_cuda_ntt_domain_free(cz_cuda_ntt_domain *d)
{
    if (!d)
        return;
    cz_cuda_free(d->mem);
    free(d);
}

extern "C" unsigned cz_cuda_ntt_domain_log_n(const cz_cuda_ntt_domain *d) { return d->log_n; }

extern "C" int cz_cuda_ntt(cz_ctx_t *ctx, const cz_cuda_ntt_domain *d, void *data,
                           cz_cuda_ntt_kind kind, cz_cuda_ntt_order order, void *stream)
{
    if (!d || !data || (unsigned)kind > 3 || (unsigned)order > 3)
        return cz_fail(ctx, CZ_EINVAL, "cuda ntt: bad argument");
    cudaStream_t s = (cudaStream_t)stream;
    const int natural_in = order == CZ_CUDA_ORDER_NN || order == CZ_CUDA_ORDER_NR;
    const int natural_out = order == CZ_CUDA_ORDER_NN || order == CZ_CUDA_ORDER_RN;
    const int inverse = kind == CZ_CUDA_NTT_INVERSE || kind == CZ_CUDA_NTT_COSET_INVERSE;
    /* DIF (natural in) leaves coefficient bitrev(pos) at pos; DIT the reverse. */
    cz__ntt_scale in = CZ__NO_SCALE, out = CZ__NO_SCALE;
    if (kind == CZ_CUDA_NTT_COSET_FORWARD)
        in = cz__scale(d->g_lo, d->g_hi, !natural_in);
    else if (kind == CZ_CUDA_NTT_INVERSE)
        out = cz__scale(d->c_minv, NULL, 0);
    else if (kind == CZ_CUDA_NTT_COSET_INVERSE)
        out = cz__scale(d->ginv_lo, d->ginv_hi_minv, natural_in);
    cz_dfr *v = (cz_dfr *)data;
    int rc = natural_in ? cz__ntt_dif(ctx, d, v, inverse, in, out, s)
                        : cz__ntt_dit(ctx, d, v, inverse, in, out, s);
    /* DIF produced bit-reversed, DIT natural; permute if the caller wants the other. */
    if (rc == CZ_OK && natural_in == natural_out)
        rc = cz__ntt_bitrev(ctx, d, v, s);
    return rc;
}
