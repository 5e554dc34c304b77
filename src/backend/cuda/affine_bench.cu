/*
 * backend/cuda/affine_bench.cu — bench-only entry point for `cuzk bench
 * affine`: the cost of one G1 point addition two ways, on the same n pairs
 * of affine points (pts[2i], pts[2i+1]) read from device memory:
 *
 *   kind 0  XYZZ: the MSM's lazy mixed addition (ec_impl.cuh,
 *           xyzz_madd_lz, 8M + 2S), one XYZZ sum written per pair;
 *   kind 1  batch-affine: the denominators x2 - x1 multiplied into prefix
 *           products (Montgomery's trick), one inversion per block of
 *           CZ__AB_THREADS x CZ__AB_PER threads x pairs, shared back through
 *           the block by prefix and suffix products of the threads' totals
 *           (warp shuffles), then each sum from its own inverse (aff_add_inv,
 *           2M + 1S): ~5M + 1S a pair plus the block's share.
 *
 * One round of a batch-affine bucket accumulation is kind 1 (plus the
 * pairing of a bucket's entries); issue 37 asks whether it beats XYZZ on
 * this GPU. The inversions are done one per thread of a separate launch,
 * every lane busy (one thread inverting inside its block would hold the
 * block's other threads idle for the inversion's latency). Not for
 * production paths: the pairs must have distinct x (a zero denominator
 * zeroes its block's inverses; it is detected and reported as CZ_EINVAL).
 */
#include "backend/cuda/batch_inv.cuh"
#include "backend/cuda/ec.cuh"
#include "backend/cuda/internal.cuh"

#define CZ__AB_THREADS CZ__BI_THREADS /* threads a block */
#define CZ__AB_PER 16u                   /* pairs a thread */

CZ__DI cz_g1_aff load_aff(const cz_g1_aff *pts, size_t j)
{
    cz_g1_aff p;
    p.X = cz_dfp_load(&pts[j].X);
    p.Y = cz_dfp_load(&pts[j].Y);
    return p;
}

/* Kernel 0: XYZZ sums of the pairs, pair i = k * T + t for thread t of T. */
static __global__ void __launch_bounds__(CZ__AB_THREADS)
cz__ab_xyzz(cz_g1_xyzz *out, const cz_g1_aff *pts, size_t n)
{
    const size_t T = (size_t)gridDim.x * blockDim.x, t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (size_t i = t; i < n; i += T) {
        const cz_g1_aff p = load_aff(pts, 2 * i), q = load_aff(pts, 2 * i + 1);
        const cz_g1_xyzz s = cz_g1_xyzz_canon(cz_g1_xyzz_madd_lz(cz_g1_xyzz_from_aff(p), q));
        cz_dfp_store(&out[i].X, s.X);
        cz_dfp_store(&out[i].Y, s.Y);
        cz_dfp_store(&out[i].ZZ, s.ZZ);
        cz_dfp_store(&out[i].ZZZ, s.ZZZ);
    }
}

CZ__DI cz_dfp denominator(const cz_g1_aff *pts, size_t i)
{
    return cz_dfp_sub(cz_dfp_load(&pts[2 * i + 1].X), cz_dfp_load(&pts[2 * i].X));
}

/*
 * Kernel 1: thread t's denominators (pairs k * T + t, k < CZ__AB_PER) into
 * running products pre[], its total into the block's prefix and suffix
 * scans: pexcl[t] = the totals of the block's threads before t, sexcl[t]
 * those after, btot[block] all of them. Zero denominators set *bad.
 */
static __global__ void __launch_bounds__(CZ__AB_THREADS)
cz__ab_prefix(cz_dfp *pre, cz_dfp *pexcl, cz_dfp *sexcl, cz_dfp *btot, uint32_t *bad,
              const cz_g1_aff *pts, size_t n)
{
    const size_t T = (size_t)gridDim.x * blockDim.x, t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    cz_dfp acc = cz_dfp_one();
    for (unsigned k = 0; k < CZ__AB_PER; k++) {
        const size_t i = k * T + t;
        if (i >= n)
            break;
        const cz_dfp d = denominator(pts, i);
        if (cz_dfp_is_zero(d))
            atomicOr(bad, 1u);
        acc = k ? cz_dfp_mul(acc, d) : d;
        cz_dfp_store(&pre[i], acc);
    }
    cz_dfp before, after;
    const cz_dfp total = cz__bi_block_scan(acc, &before, &after);
    if (threadIdx.x == 0)
        btot[blockIdx.x] = total;
    cz_dfp_store(&pexcl[t], before);
    cz_dfp_store(&sexcl[t], after);
}

/*
 * Kernel 3 (after cz__bi_invert, batch_inv.cuh): thread t's inverse total
 * (the block's inverse times the other threads' totals), then back through
 * its pairs: 1/d_k = (1/P_k) P_(k-1), 1/P_(k-1) = (1/P_k) d_k, and each sum
 * in affine coordinates.
 */
static __global__ void __launch_bounds__(CZ__AB_THREADS)
cz__ab_sums(cz_g1_aff *out, const cz_dfp *pre, const cz_dfp *pexcl, const cz_dfp *sexcl,
            const cz_dfp *binv, const cz_g1_aff *pts, size_t n)
{
    const size_t T = (size_t)gridDim.x * blockDim.x, t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    cz_dfp inv = cz_dfp_mul(cz_dfp_mul(cz_dfp_load(&binv[blockIdx.x]), cz_dfp_load(&pexcl[t])),
                            cz_dfp_load(&sexcl[t]));
    const size_t mine = t < n ? (n - t + T - 1) / T : 0; /* pairs t, t + T, ... below n */
    for (size_t k = mine < CZ__AB_PER ? mine : CZ__AB_PER; k-- > 0;) {
        const size_t i = k * T + t;
        const cz_g1_aff p = load_aff(pts, 2 * i), q = load_aff(pts, 2 * i + 1);
        cz_dfp inv_d = inv;
        if (k) {
            inv_d = cz_dfp_mul(inv, cz_dfp_load(&pre[i - T]));
            inv = cz_dfp_mul(inv, cz_dfp_sub(q.X, p.X));
        }
        const cz_g1_aff s = cz_g1_aff_add_inv(p, q, inv_d);
        cz_dfp_store(&out[i].X, s.X);
        cz_dfp_store(&out[i].Y, s.Y);
    }
}

extern "C" int cz_cuda_bench_affine(cz_ctx_t *ctx, int kind, const void *pts, size_t n, void *out,
                                    float ms[4])
{
    if ((kind != 0 && kind != 1) || n == 0 || n > ((size_t)1 << 28))
        return cz_fail(ctx, CZ_EINVAL, "cuda affine bench: kind %d, %zu pairs", kind, n);
    const cz_g1_aff *p = (const cz_g1_aff *)pts;
    const size_t per_block = (size_t)CZ__AB_THREADS * CZ__AB_PER;
    const size_t blocks = (n + per_block - 1) / per_block, T = blocks * CZ__AB_THREADS;
    cz_dfp *pre = NULL, *pexcl = NULL, *sexcl = NULL, *btot = NULL, *binv = NULL;
    uint32_t *bad = NULL;
    cudaEvent_t ev[4] = { NULL, NULL, NULL, NULL };
    cudaError_t e = cudaSuccess;
    for (int k = 0; k < 4 && e == cudaSuccess; k++)
        e = cudaEventCreate(&ev[k]);
    if (kind == 1) {
        if (e == cudaSuccess) e = cudaMalloc((void **)&pre, n * sizeof(cz_dfp));
        if (e == cudaSuccess) e = cudaMalloc((void **)&pexcl, T * sizeof(cz_dfp));
        if (e == cudaSuccess) e = cudaMalloc((void **)&sexcl, T * sizeof(cz_dfp));
        if (e == cudaSuccess) e = cudaMalloc((void **)&btot, blocks * sizeof(cz_dfp));
        if (e == cudaSuccess) e = cudaMalloc((void **)&binv, blocks * sizeof(cz_dfp));
        if (e == cudaSuccess) e = cudaMalloc((void **)&bad, sizeof *bad);
        if (e == cudaSuccess) e = cudaMemset(bad, 0, sizeof *bad);
    }
    if (e == cudaSuccess) e = cudaEventRecord(ev[0], 0);
    if (e == cudaSuccess && kind == 0) {
        cz__ab_xyzz<<<(unsigned)blocks, CZ__AB_THREADS>>>((cz_g1_xyzz *)out, p, n);
        for (int k = 1; k < 4 && e == cudaSuccess; k++)
            e = cudaEventRecord(ev[k], 0);
    } else if (e == cudaSuccess) {
        cz__ab_prefix<<<(unsigned)blocks, CZ__AB_THREADS>>>(pre, pexcl, sexcl, btot, bad, p, n);
        e = cudaEventRecord(ev[1], 0);
        cz__bi_invert<<<cz__blocks(blocks, 128), 128>>>(binv, btot, blocks);
        if (e == cudaSuccess) e = cudaEventRecord(ev[2], 0);
        cz__ab_sums<<<(unsigned)blocks, CZ__AB_THREADS>>>((cz_g1_aff *)out, pre, pexcl, sexcl,
                                                           binv, p, n);
        if (e == cudaSuccess) e = cudaEventRecord(ev[3], 0);
    }
    if (e == cudaSuccess) e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaEventSynchronize(ev[3]);
    for (int k = 0; k < 3 && e == cudaSuccess; k++)
        e = cudaEventElapsedTime(&ms[k + 1], ev[k], ev[k + 1]);
    if (e == cudaSuccess) e = cudaEventElapsedTime(&ms[0], ev[0], ev[3]);
    uint32_t zero_denominator = 0;
    if (e == cudaSuccess && bad)
        e = cudaMemcpy(&zero_denominator, bad, sizeof zero_denominator, cudaMemcpyDeviceToHost);
    for (int k = 0; k < 4; k++)
        if (ev[k])
            cudaEventDestroy(ev[k]);
    cudaFree(pre);
    cudaFree(pexcl);
    cudaFree(sexcl);
    cudaFree(btot);
    cudaFree(binv);
    cudaFree(bad);
    if (e != cudaSuccess)
        return cz__cuda_fail(ctx, e, "affine bench kernels");
    return zero_denominator ? cz_fail(ctx, CZ_EINVAL, "affine bench: a pair with equal x") : CZ_OK;
}
