/*
 * backend/cuda/decode.cu — params points decoded on the device
 * (cz_cuda_decode_points in cuda.h).
 *
 * A params file holds its points uncompressed: each coordinate 48 bytes,
 * big-endian, the first byte's top three bits the ZCash flags (compressed,
 * infinity, sort); G2 coordinates as c1 then c0 (FACTS 2; the layout
 * blst_pX_affine_serialize writes). Those sizes (96 and 192 bytes) are the
 * sizes of blst's affine points, so a vector is uploaded as the file has it
 * and decoded in place: each thread reads its point whole before it writes.
 *
 * The checks are those of the CPU decode (groth16/params.c: cz_gX_decode
 * of an uncompressed point, infinity refused): flag bits all zero (the
 * compressed form, the infinity encoding and a sort bit are all refused),
 * both coordinates below p, the point on the curve y^2 = x^3 + 4 (G1) or
 * y^2 = x^3 + 4(1 + i) (G2). No subgroup check (neither does the load).
 */
#include "backend/cuda/internal.cuh"

/* R^2 mod p, R = 2^384 (computed from p, field.cuh): x * R^2 * R^-1 = x R. */
static __constant__ uint32_t CZ_DFP_RR[12] = {
    0x1c341746u, 0xf4df1f34u, 0x09d104f1u, 0x0a76e6a6u, 0x4c95b6d5u, 0x8de5476cu,
    0x939d83c0u, 0x67eb88a9u, 0xb519952du, 0x9a793e85u, 0x92cae3aau, 0x11988fe5u };

/* 48 big-endian bytes (4-byte aligned) as 12 little-endian limbs; *flags gets the top 3 bits. */
CZ__DI cz_dfp be_coordinate(const uint32_t *w, uint32_t *flags)
{
    cz_dfp r;
#pragma unroll
    for (int i = 0; i < 12; i++)
        r.l[11 - i] = __byte_perm(w[i], 0, 0x0123);
    *flags |= r.l[11] >> 29;
    return r;
}

/* a < p, as integers. */
CZ__DI bool below_p(const cz_dfp a)
{
    (void)cz__sub_cc(a.l[0], CZ_DFP_MOD[0]);
#pragma unroll
    for (int i = 1; i < 12; i++)
        (void)cz__subc_cc(a.l[i], CZ_DFP_MOD[i]);
    return cz__subc(0, 0) != 0;   /* a borrow out: a < p */
}

CZ__DI cz_dfp to_montgomery(const cz_dfp a)
{
    cz_dfp rr;
#pragma unroll
    for (int i = 0; i < 12; i++)
        rr.l[i] = CZ_DFP_RR[i];
    return cz_dfp_mul(a, rr);
}

/* 4 in Montgomery form. */
CZ__DI cz_dfp four(void)
{
    cz_dfp f = cz_dfp_zero();
    f.l[0] = 4;
    return to_montgomery(f);
}

/* Record point |i| as refused: the lowest index wins. */
CZ__DI void refuse(unsigned long long *first_bad, size_t i)
{
    atomicMin(first_bad, (unsigned long long)i);
}

static __global__ void decode_g1(uint32_t *pts, size_t n, unsigned long long *first_bad)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t *w = pts + i * 24, flags = 0, y_top = 0;   /* y's top bits: >= p anyway */
    cz_dfp x = be_coordinate(w, &flags), y = be_coordinate(w + 12, &y_top);
    if (flags != 0 || !below_p(x) || !below_p(y)) {
        refuse(first_bad, i);
        return;
    }
    x = to_montgomery(x);
    y = to_montgomery(y);
    const cz_dfp rhs = cz_dfp_add(cz_dfp_mul(cz_dfp_sqr(x), x), four());
    if (!cz_dfp_eq(cz_dfp_sqr(y), rhs)) {
        refuse(first_bad, i);
        return;
    }
    cz_dfp_store((cz_dfp *)w, x);
    cz_dfp_store((cz_dfp *)(w + 12), y);
}

static __global__ void decode_g2(uint32_t *pts, size_t n, unsigned long long *first_bad)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t *w = pts + i * 48, flags = 0, top = 0;   /* the flags are x.c1's top bits */
    cz_dfp2 x, y;
    x.c1 = be_coordinate(w, &flags);
    x.c0 = be_coordinate(w + 12, &top);
    y.c1 = be_coordinate(w + 24, &top);
    y.c0 = be_coordinate(w + 36, &top);
    if (flags != 0 || !below_p(x.c0) || !below_p(x.c1) || !below_p(y.c0) || !below_p(y.c1)) {
        refuse(first_bad, i);
        return;
    }
    x.c0 = to_montgomery(x.c0);
    x.c1 = to_montgomery(x.c1);
    y.c0 = to_montgomery(y.c0);
    y.c1 = to_montgomery(y.c1);
    const cz_dfp b = four();
    const cz_dfp2 b2 = { b, b };   /* 4(1 + i) */
    const cz_dfp2 rhs = cz_dfp2_add(cz_dfp2_mul(cz_dfp2_sqr(x), x), b2);
    if (!cz_dfp2_eq(cz_dfp2_sqr(y), rhs)) {
        refuse(first_bad, i);
        return;
    }
    cz_dfp2_store((cz_dfp2 *)w, x);
    cz_dfp2_store((cz_dfp2 *)(w + 24), y);
}

/*
 * On a non-blocking stream of its own: the preparer decodes while another
 * worker's region runs, and the legacy stream would wait for that region.
 */
extern "C" int cz_cuda_decode_points(cz_ctx_t *ctx, void *pts, size_t n, int g2,
                                     size_t *first_bad)
{
    *first_bad = SIZE_MAX;
    if (n == 0)
        return CZ_OK;
    if ((uintptr_t)pts % 16)
        return cz_fail(ctx, CZ_EINVAL, "cuda decode: points not 16-byte aligned");
    cudaStream_t st = NULL;
    CZ__CU(ctx, cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    unsigned long long *bad = NULL, host = ~0ull;
    cudaError_t e = cudaMallocAsync((void **)&bad, sizeof *bad, st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(bad, &host, sizeof host, cudaMemcpyHostToDevice, st);
    const unsigned threads = 256;
    if (e == cudaSuccess) {
        if (g2)
            decode_g2<<<cz__blocks(n, threads), threads, 0, st>>>((uint32_t *)pts, n, bad);
        else
            decode_g1<<<cz__blocks(n, threads), threads, 0, st>>>((uint32_t *)pts, n, bad);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&host, bad, sizeof host, cudaMemcpyDeviceToHost, st);
    if (bad)
        cudaFreeAsync(bad, st);
    const cudaError_t sync = cudaStreamSynchronize(st);
    cudaStreamDestroy(st);
    if (e == cudaSuccess)
        e = sync;
    if (e != cudaSuccess)
        return cz__cuda_fail(ctx, e, "cuda decode");
    if (host != ~0ull)
        *first_bad = (size_t)host;
    return CZ_OK;
}
