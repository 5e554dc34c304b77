/*
 * backend/cuda/fmul_bench.cu — bench-only entry point: the throughput of the
 * two Montgomery products (CIOS on the IMAD pipe, mont_impl.cuh; 52-bit
 * limbs on the FP64 pipe, fmont_impl.cuh) alone and side by side, for
 * `cuzk bench fmul`. Not for production paths.
 */
#include "backend/cuda/field.cuh"
#include "backend/cuda/internal.cuh"

/* R' mod m (R' = 2^260, 2^416), raw: CIOS(y, K) = y R'/R, the operand for
 * which the FP64 product equals the CIOS product x y/R (computed from the
 * integers). */
static __constant__ cz_dfr CZ__K_FR = { { 0xffffffddu, 0x00000022u, 0x00396c23u, 0x8d129397u,
                                          0xaedf7745u, 0xff1776e6u, 0x4f77df20u, 0x26821fa1u } };
static __constant__ cz_dfp CZ__K_FP = { { 0xa8e9b9afu, 0x44f6480eu, 0x766c8fe4u, 0xa96f7d65u,
                                          0x28b540feu, 0xe82efd42u, 0xade53b2eu, 0x6723e5f0u,
                                          0xfdd4230au, 0x25ff6eb6u, 0xef23c24au, 0x14c8ee06u } };

/*
 * Each thread: C chains x_k <- x_k * y, |iters| times, reading and writing
 * io[C * t + k], so C = 4 with n threads and C = 1 with 4n threads cover the
 * same elements. _cios<C> all on CIOS, _f64<C> all on the FP64 product,
 * _both (C = 4) chains 0-1 on CIOS and 2-3 on FP64 in one loop. One kernel
 * each, so that each gets its own register allocation. Every kernel computes
 * the same values (x y^iters / R^iters), left reduced in io.
 */
#define CZ__FMUL_LOAD(T, C)                                                    \
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;            \
    const T y = *yp;                                                           \
    T x[C];                                                                    \
    _Pragma("unroll")                                                          \
    for (int k = 0; k < (C); k++) x[k] = io[(C) * t + k]

#define CZ__FMUL_STORE(F, C)                                                   \
    _Pragma("unroll")                                                          \
    for (int k = 0; k < (C); k++) io[(C) * t + k] = F##reduce_once(x[k])

#define CZ__FMUL_KERNELS(tag, C, T, F, T64, F64, CIOS, K)                       \
    static __global__ void cz__fmul_##tag##_cios##C(T *io, const T *yp, int iters) \
    {                                                                          \
        CZ__FMUL_LOAD(T, C);                                                   \
        _Pragma("unroll 1")                                                    \
        for (int it = 0; it < iters; it++)                                     \
            _Pragma("unroll")                                                  \
            for (int k = 0; k < (C); k++) x[k] = CIOS(x[k], y);                \
        CZ__FMUL_STORE(F, C);                                                  \
    }                                                                          \
    static __global__ void cz__fmul_##tag##_f64##C(T *io, const T *yp, int iters) \
    {                                                                          \
        CZ__FMUL_LOAD(T, C);                                                   \
        const T64 y64 = F64##from_mont(F##mul(y, K));                          \
        T64 z[C];                                                              \
        _Pragma("unroll")                                                      \
        for (int k = 0; k < (C); k++) z[k] = F64##from_mont(x[k]);             \
        _Pragma("unroll 1")                                                    \
        for (int it = 0; it < iters; it++)                                     \
            _Pragma("unroll")                                                  \
            for (int k = 0; k < (C); k++) z[k] = F64##mul(z[k], y64);          \
        _Pragma("unroll")                                                      \
        for (int k = 0; k < (C); k++) x[k] = F64##to_mont(z[k]);               \
        CZ__FMUL_STORE(F, C);                                                  \
    }

#define CZ__FMUL_BOTH(tag, T, F, T64, F64, CIOS, K)                             \
    static __global__ void cz__fmul_##tag##_both(T *io, const T *yp, int iters) \
    {                                                                          \
        CZ__FMUL_LOAD(T, 4);                                                   \
        const T64 y64 = F64##from_mont(F##mul(y, K));                          \
        T64 z2 = F64##from_mont(x[2]), z3 = F64##from_mont(x[3]);              \
        _Pragma("unroll 1")                                                    \
        for (int it = 0; it < iters; it++) {                                   \
            x[0] = CIOS(x[0], y);                                              \
            z2 = F64##mul(z2, y64);                                            \
            x[1] = CIOS(x[1], y);                                              \
            z3 = F64##mul(z3, y64);                                            \
        }                                                                      \
        x[2] = F64##to_mont(z2);                                               \
        x[3] = F64##to_mont(z3);                                               \
        CZ__FMUL_STORE(F, 4);                                                  \
    }

#define CZ__FR_ARGS cz_dfr, cz_dfr_, cz_dfr64, cz_dfr64_, cz_dfr_mul, CZ__K_FR
#define CZ__FP_ARGS cz_dfp, cz_dfp_, cz_dfp64, cz_dfp64_, cz_dfp_mul_lz, CZ__K_FP
#define CZ__EXPAND(m, ...) m(__VA_ARGS__)
CZ__EXPAND(CZ__FMUL_KERNELS, fr, 4, CZ__FR_ARGS)
CZ__EXPAND(CZ__FMUL_KERNELS, fr, 1, CZ__FR_ARGS)
CZ__EXPAND(CZ__FMUL_BOTH, fr, CZ__FR_ARGS)
CZ__EXPAND(CZ__FMUL_KERNELS, fp, 4, CZ__FP_ARGS)
CZ__EXPAND(CZ__FMUL_KERNELS, fp, 1, CZ__FP_ARGS)
CZ__EXPAND(CZ__FMUL_BOTH, fp, CZ__FP_ARGS)
#undef CZ__EXPAND
#undef CZ__FR_ARGS
#undef CZ__FP_ARGS
#undef CZ__FMUL_KERNELS
#undef CZ__FMUL_BOTH
#undef CZ__FMUL_LOAD
#undef CZ__FMUL_STORE

extern "C" int cz_cuda_bench_fmul(cz_ctx_t *ctx, int field, int kind, void *io, const void *y,
                                  size_t threads, int iters, float *ms)
{
    if ((field != 0 && field != 1) || kind < 0 || kind > 4 || threads == 0 || threads % 256 || iters < 1)
        return cz_fail(ctx, CZ_EINVAL, "cuda fmul bench: field %d kind %d threads %zu iters %d",
                       field, kind, threads, iters);
    cudaEvent_t e0 = NULL, e1 = NULL;
    cudaError_t e = cudaEventCreate(&e0);
    if (e == cudaSuccess) e = cudaEventCreate(&e1);
    if (e == cudaSuccess) e = cudaEventRecord(e0, 0);
    if (e == cudaSuccess) {
        const unsigned blocks = (unsigned)(threads / 256);
        if (field == 0) {
            cz_dfr *d = (cz_dfr *)io;
            const cz_dfr *dy = (const cz_dfr *)y;
            if (kind == 0) cz__fmul_fr_cios4<<<blocks, 256>>>(d, dy, iters);
            if (kind == 1) cz__fmul_fr_f644<<<blocks, 256>>>(d, dy, iters);
            if (kind == 2) cz__fmul_fr_both<<<blocks, 256>>>(d, dy, iters);
            if (kind == 3) cz__fmul_fr_cios1<<<4 * blocks, 256>>>(d, dy, iters);
            if (kind == 4) cz__fmul_fr_f641<<<4 * blocks, 256>>>(d, dy, iters);
        } else {
            cz_dfp *d = (cz_dfp *)io;
            const cz_dfp *dy = (const cz_dfp *)y;
            if (kind == 0) cz__fmul_fp_cios4<<<blocks, 256>>>(d, dy, iters);
            if (kind == 1) cz__fmul_fp_f644<<<blocks, 256>>>(d, dy, iters);
            if (kind == 2) cz__fmul_fp_both<<<blocks, 256>>>(d, dy, iters);
            if (kind == 3) cz__fmul_fp_cios1<<<4 * blocks, 256>>>(d, dy, iters);
            if (kind == 4) cz__fmul_fp_f641<<<4 * blocks, 256>>>(d, dy, iters);
        }
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaEventRecord(e1, 0);
    if (e == cudaSuccess) e = cudaEventSynchronize(e1);
    if (e == cudaSuccess) e = cudaEventElapsedTime(ms, e0, e1);
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    return e == cudaSuccess ? CZ_OK : cz__cuda_fail(ctx, e, "fmul bench kernel");
}
