/*
 * backend/cuda/batch_inv.cuh — Montgomery's trick across a thread block, for
 * batch-affine G1 additions (affine_bench.cu: `cuzk bench affine`).
 *
 * Each thread of a block of CZ__BI_THREADS multiplies its own denominators
 * into one product; cz__bi_block_scan then gives every thread the products
 * of the block's other threads (before it and after it) and the block's
 * total, so that one inversion of the total serves the whole block:
 *   1/own = 1/total * before * after.
 * Warp shuffles within a warp, shared memory across the block's warps.
 * Every thread of the block must call it (it synchronises the block).
 */
#ifndef CUZK_BACKEND_CUDA_BATCH_INV_CUH
#define CUZK_BACKEND_CUDA_BATCH_INV_CUH

#include "backend/cuda/field.cuh"

#define CZ__BI_THREADS 256u /* threads a block */
#define CZ__BI_WARPS (CZ__BI_THREADS / 32u)

CZ__DI cz_dfp cz__bi_shfl(const cz_dfp v, int delta, bool up)
{
    cz_dfp r;
#pragma unroll
    for (int k = 0; k < 12; k++)
        r.l[k] = up ? __shfl_up_sync(0xffffffffu, v.l[k], delta)
                    : __shfl_down_sync(0xffffffffu, v.l[k], delta);
    return r;
}

/* *before, *after: the product of the block's threads' |own| before and after this one. */
CZ__DI cz_dfp cz__bi_block_scan(const cz_dfp own, cz_dfp *before, cz_dfp *after)
{
    __shared__ cz_dfp wpre[CZ__BI_WARPS], wsuf[CZ__BI_WARPS], total;
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    /* inclusive prefix and suffix products over the warp's lanes */
    cz_dfp ip = own, is = own;
#pragma unroll
    for (int s = 1; s < 32; s <<= 1) {
        const cz_dfp u = cz__bi_shfl(ip, s, true), v = cz__bi_shfl(is, s, false);
        if ((int)lane >= s)
            ip = cz_dfp_mul(ip, u);
        if ((int)lane + s < 32)
            is = cz_dfp_mul(is, v);
    }
    cz_dfp ep = cz__bi_shfl(ip, 1, true), es = cz__bi_shfl(is, 1, false); /* exclusive */
    if (lane == 0)
        ep = cz_dfp_one();
    if (lane == 31)
        es = cz_dfp_one();
    if (lane == 31)
        wpre[warp] = ip; /* the warp's total */
    __syncthreads();
    if (threadIdx.x == 0) { /* the warps' exclusive prefixes and suffixes, in place */
        cz_dfp tot[CZ__BI_WARPS];
        for (unsigned w = 0; w < CZ__BI_WARPS; w++)
            tot[w] = wpre[w];
        cz_dfp run = cz_dfp_one();
        for (unsigned w = 0; w < CZ__BI_WARPS; w++) {
            wpre[w] = run;
            run = cz_dfp_mul(run, tot[w]);
        }
        total = run;
        run = cz_dfp_one();
        for (unsigned w = CZ__BI_WARPS; w-- > 0;) {
            wsuf[w] = run;
            run = cz_dfp_mul(run, tot[w]);
        }
    }
    __syncthreads();
    *before = cz_dfp_mul(ep, wpre[warp]);
    *after = cz_dfp_mul(es, wsuf[warp]);
    return total;
}

/* One inversion a block total, one total a thread (every lane busy: the latency of one). */
static __global__ void cz__bi_invert(cz_dfp *inv, const cz_dfp *total, size_t blocks)
{
    const size_t b = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < blocks)
        cz_dfp_store(&inv[b], cz_dfp_inverse(cz_dfp_load(&total[b])));
}

#endif /* CUZK_BACKEND_CUDA_BATCH_INV_CUH */
