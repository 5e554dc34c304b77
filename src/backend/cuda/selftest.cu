/*
 * backend/cuda/selftest.cu — test-only entry points: run one field or point
 * operation element-wise on the device, so tests/gpu can compare it with blst.
 * Not for production paths (a synchronous round trip per call).
 */
#include <stdlib.h>

#include "backend/cuda/ec.cuh"
#include "backend/cuda/internal.cuh"

/* One kernel per field through a macro-free switch on |op|. */
#define CZ__FIELD_KERNEL(name, T, F)                                           \
    static __global__ void name(int op, T *out, const T *a, const T *b, size_t n) \
    {                                                                          \
        size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;              \
        if (i >= n) return;                                                    \
        T x = a[i], y = b[i], r;                                               \
        switch (op) {                                                          \
        case CZ_CUDA_TEST_ADD: r = F##add(x, y); break;                        \
        case CZ_CUDA_TEST_SUB: r = F##sub(x, y); break;                        \
        case CZ_CUDA_TEST_NEG: r = F##neg(x); break;                           \
        case CZ_CUDA_TEST_DBL: r = F##dbl(x); break;                           \
        case CZ_CUDA_TEST_MUL: r = F##mul(x, y); break;                        \
        case CZ_CUDA_TEST_SQR: r = F##sqr(x); break;                           \
        case CZ_CUDA_TEST_INV: r = F##inverse(x); break;                       \
        default: r = F##zero(); break;                                         \
        }                                                                      \
        out[i] = r;                                                            \
    }

CZ__FIELD_KERNEL(cz__test_fp2, cz_dfp2, cz_dfp2_)

/* Fr and Fp also have pow (exponent: the first two 32-bit words of b). */
#define CZ__POW_FIELD_KERNEL(name, T, F)                                       \
    static __global__ void name(int op, T *out, const T *a, const T *b, size_t n) \
    {                                                                          \
        size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;              \
        if (i >= n) return;                                                    \
        T x = a[i], y = b[i], r;                                               \
        switch (op) {                                                          \
        case CZ_CUDA_TEST_ADD: r = F##add(x, y); break;                        \
        case CZ_CUDA_TEST_SUB: r = F##sub(x, y); break;                        \
        case CZ_CUDA_TEST_NEG: r = F##neg(x); break;                           \
        case CZ_CUDA_TEST_DBL: r = F##dbl(x); break;                           \
        case CZ_CUDA_TEST_MUL: r = F##mul(x, y); break;                        \
        case CZ_CUDA_TEST_SQR: r = F##sqr(x); break;                           \
        case CZ_CUDA_TEST_INV: r = F##inverse(x); break;                       \
        case CZ_CUDA_TEST_POW: r = F##pow(x, y.l, 2); break;                   \
        default: r = F##zero(); break;                                         \
        }                                                                      \
        out[i] = r;                                                            \
    }

CZ__POW_FIELD_KERNEL(cz__test_fr, cz_dfr, cz_dfr_)
CZ__POW_FIELD_KERNEL(cz__test_fp, cz_dfp, cz_dfp_)

/* The lazy operations of Fp and Fp2 on inputs below 2p; the result reduced (canon). */
#define CZ__LAZY_FIELD_KERNEL(name, T, F)                                      \
    static __global__ void name(int op, T *out, const T *a, const T *b, size_t n) \
    {                                                                          \
        size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;              \
        if (i >= n) return;                                                    \
        T x = a[i], y = b[i], r;                                               \
        switch (op) {                                                          \
        case CZ_CUDA_TEST_ADD_LZ: r = F##add_lz(x, y); break;                  \
        case CZ_CUDA_TEST_SUB_LZ: r = F##sub_lz(x, y); break;                  \
        case CZ_CUDA_TEST_DBL_LZ: r = F##dbl_lz(x); break;                     \
        case CZ_CUDA_TEST_MUL_LZ: r = F##mul_lz(x, y); break;                  \
        case CZ_CUDA_TEST_SQR_LZ: r = F##sqr_lz(x); break;                     \
        case CZ_CUDA_TEST_IS_ZERO_LZ: r = F##is_zero_lz(x) ? F##one() : F##zero(); break; \
        default: r = F##zero(); break;                                         \
        }                                                                      \
        out[i] = F##canon(r);                                                  \
    }

CZ__LAZY_FIELD_KERNEL(cz__test_fp_lz, cz_dfp, cz_dfp_)
CZ__LAZY_FIELD_KERNEL(cz__test_fp2_lz, cz_dfp2, cz_dfp2_)

/* The FP64-pipe product: through the 52-bit form and back, then reduced. */
#define CZ__F64_FIELD_KERNEL(name, T, F, F64)                                  \
    static __global__ void name(T *out, const T *a, const T *b, size_t n)      \
    {                                                                          \
        size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;              \
        if (i >= n) return;                                                    \
        out[i] = F##reduce_once(F64##to_mont(F64##mul(F64##from_mont(a[i]), F64##from_mont(b[i])))); \
    }

CZ__F64_FIELD_KERNEL(cz__test_fr64, cz_dfr, cz_dfr_, cz_dfr64_)
CZ__F64_FIELD_KERNEL(cz__test_fp64, cz_dfp, cz_dfp_, cz_dfp64_)

#define CZ__EC_KERNEL(name, G)                                                 \
    static __global__ void name(int op, void *out, const void *a, const void *b, size_t n) \
    {                                                                          \
        size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;              \
        if (i >= n) return;                                                    \
        switch (op) {                                                          \
        case CZ_CUDA_TEST_JAC_ADD:                                             \
            ((G##jac *)out)[i] = G##jac_add(((const G##jac *)a)[i], ((const G##jac *)b)[i]); break; \
        case CZ_CUDA_TEST_JAC_MADD:                                            \
            ((G##jac *)out)[i] = G##jac_madd(((const G##jac *)a)[i], ((const G##aff *)b)[i]); break; \
        case CZ_CUDA_TEST_JAC_DBL:                                             \
            ((G##jac *)out)[i] = G##jac_dbl(((const G##jac *)a)[i]); break;    \
        case CZ_CUDA_TEST_XYZZ_ADD:                                            \
            ((G##xyzz *)out)[i] = G##xyzz_add(((const G##xyzz *)a)[i], ((const G##xyzz *)b)[i]); break; \
        case CZ_CUDA_TEST_XYZZ_MADD:                                           \
            ((G##xyzz *)out)[i] = G##xyzz_madd(((const G##xyzz *)a)[i], ((const G##aff *)b)[i]); break; \
        case CZ_CUDA_TEST_XYZZ_DBL:                                            \
            ((G##xyzz *)out)[i] = G##xyzz_dbl(((const G##xyzz *)a)[i]); break; \
        case CZ_CUDA_TEST_AFF_ADD:                                             \
            ((G##aff *)out)[i] = G##aff_add(((const G##aff *)a)[i], ((const G##aff *)b)[i]); break; \
        case CZ_CUDA_TEST_XYZZ_MADD_LZ:                                        \
            ((G##xyzz *)out)[i] = G##xyzz_canon(G##xyzz_madd_lz(((const G##xyzz *)a)[i], \
                                                                ((const G##aff *)b)[i])); break; \
        }                                                                      \
    }

CZ__EC_KERNEL(cz__test_g1, cz_g1_)
CZ__EC_KERNEL(cz__test_g2, cz_g2_)

/* Upload a and b, run, download out; sizes in bytes per element. */
static int round_trip(cz_ctx_t *ctx, int field_or_group, int is_ec, int op, void *out,
                      const void *a, const void *b, size_t n, size_t sa, size_t sb, size_t so)
{
    if (n == 0)
        return CZ_OK;
    void *da = NULL, *db = NULL, *dout = NULL;
    int rc = cz_cuda_malloc(ctx, &da, n * sa);
    if (rc == CZ_OK) rc = cz_cuda_malloc(ctx, &db, n * (sb ? sb : sa));
    if (rc == CZ_OK) rc = cz_cuda_malloc(ctx, &dout, n * so);
    if (rc == CZ_OK) rc = cz_cuda_memcpy_htod(ctx, da, a, n * sa);
    if (rc == CZ_OK && b && sb) rc = cz_cuda_memcpy_htod(ctx, db, b, n * sb);
    if (rc == CZ_OK) {
        unsigned blocks = cz__blocks(n, 64);
        if (!is_ec && op == CZ_CUDA_TEST_MUL_F64) {
            if (field_or_group == 0)
                cz__test_fr64<<<blocks, 64>>>((cz_dfr *)dout, (const cz_dfr *)da, (const cz_dfr *)db, n);
            else
                cz__test_fp64<<<blocks, 64>>>((cz_dfp *)dout, (const cz_dfp *)da, (const cz_dfp *)db, n);
        } else if (!is_ec && op >= CZ_CUDA_TEST_ADD_LZ) {
            if (field_or_group == 1)
                cz__test_fp_lz<<<blocks, 64>>>(op, (cz_dfp *)dout, (const cz_dfp *)da, (const cz_dfp *)db, n);
            else
                cz__test_fp2_lz<<<blocks, 64>>>(op, (cz_dfp2 *)dout, (const cz_dfp2 *)da, (const cz_dfp2 *)db, n);
        } else if (!is_ec) {
            if (field_or_group == 0)
                cz__test_fr<<<blocks, 64>>>(op, (cz_dfr *)dout, (const cz_dfr *)da, (const cz_dfr *)db, n);
            else if (field_or_group == 1)
                cz__test_fp<<<blocks, 64>>>(op, (cz_dfp *)dout, (const cz_dfp *)da, (const cz_dfp *)db, n);
            else
                cz__test_fp2<<<blocks, 64>>>(op, (cz_dfp2 *)dout, (const cz_dfp2 *)da, (const cz_dfp2 *)db, n);
        } else if (field_or_group == 1) {
            cz__test_g1<<<blocks, 64>>>(op, dout, da, db, n);
        } else {
            cz__test_g2<<<blocks, 64>>>(op, dout, da, db, n);
        }
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaDeviceSynchronize();
        if (e != cudaSuccess)
            rc = cz__cuda_fail(ctx, e, "selftest kernel");
    }
    if (rc == CZ_OK) rc = cz_cuda_memcpy_dtoh(ctx, out, dout, n * so);
    cz_cuda_free(da);
    cz_cuda_free(db);
    cz_cuda_free(dout);
    return rc;
}

extern "C" int cz_cuda_test_field(cz_ctx_t *ctx, int field, int op, void *out, const void *a,
                                  const void *b, size_t n)
{
    static const size_t size[3] = { sizeof(cz_dfr), sizeof(cz_dfp), sizeof(cz_dfp2) };
    if (field < 0 || field > 2 || op < CZ_CUDA_TEST_ADD || op > CZ_CUDA_TEST_MUL_F64 ||
        (field == 2 && (op == CZ_CUDA_TEST_POW || op == CZ_CUDA_TEST_MUL_F64)) ||
        (field == 0 && op >= CZ_CUDA_TEST_ADD_LZ && op != CZ_CUDA_TEST_MUL_F64))
        return cz_fail(ctx, CZ_EINVAL, "cuda selftest: field %d op %d", field, op);
    size_t s = size[field];
    return round_trip(ctx, field, 0, op, out, a, b ? b : a, n, s, s, s);
}

extern "C" int cz_cuda_test_ec(cz_ctx_t *ctx, int group, int op, void *out, const void *a,
                               const void *b, size_t n)
{
    if (group != 1 && group != 2)
        return cz_fail(ctx, CZ_EINVAL, "cuda selftest: group %d", group);
    size_t f = group == 1 ? sizeof(cz_dfp) : sizeof(cz_dfp2);
    size_t jac = 3 * f, xyzz = 4 * f, aff = 2 * f;
    size_t sa, sb, so;
    switch (op) {
    case CZ_CUDA_TEST_JAC_ADD: sa = jac; sb = jac; so = jac; break;
    case CZ_CUDA_TEST_JAC_MADD: sa = jac; sb = aff; so = jac; break;
    case CZ_CUDA_TEST_JAC_DBL: sa = jac; sb = 0; so = jac; break;
    case CZ_CUDA_TEST_XYZZ_ADD: sa = xyzz; sb = xyzz; so = xyzz; break;
    case CZ_CUDA_TEST_XYZZ_MADD:
    case CZ_CUDA_TEST_XYZZ_MADD_LZ: sa = xyzz; sb = aff; so = xyzz; break;
    case CZ_CUDA_TEST_XYZZ_DBL: sa = xyzz; sb = 0; so = xyzz; break;
    case CZ_CUDA_TEST_AFF_ADD: sa = aff; sb = aff; so = aff; break;
    default: return cz_fail(ctx, CZ_EINVAL, "cuda selftest: ec op %d", op);
    }
    return round_trip(ctx, group, 1, op, out, a, b, n, sa, sb, so);
}
