/*
 * backend/cuda/internal.cuh — private to backend/cuda: error helpers and the
 * NTT pieces that h.cu composes (C++ linkage, cz__ prefix).
 */
#ifndef CUZK_BACKEND_CUDA_INTERNAL_CUH
#define CUZK_BACKEND_CUDA_INTERNAL_CUH

#include <cuda_runtime.h>

#include "backend/cuda/cuda.h"
#include "backend/cuda/field.cuh"

/* Record a CUDA error in |ctx| as CZ_EDEVICE ("cuda: <what>: <text>"). */
int cz__cuda_fail(cz_ctx_t *ctx, cudaError_t e, const char *what);

#define CZ__CU(ctx, call)                                                      \
    do {                                                                       \
        cudaError_t cz__e = (call);                                            \
        if (cz__e != cudaSuccess) return cz__cuda_fail((ctx), cz__e, #call);   \
    } while (0)

/* Two-level tables: an exponent or index e < 2^28 splits as hi*2^14 + lo. */
#define CZ__SPLIT 14u
/* The direct twiddle table: w^(j 2^(log_n - D)) for j < 2^D, D = min(log_n, 18) (8 MiB). */
#define CZ__DIRECT_BITS 18u

/*
 * A per-element factor fused into an NTT pass: f(idx) = lo[idx & (2^14-1)] *
 * hi[idx >> 14] with idx = pos, or bitrev(pos) when |rev|; hi == NULL means
 * the constant lo[0]; lo == NULL means no factor.
 */
typedef struct {
    const cz_dfr *lo, *hi;
    int rev;
} cz__ntt_scale;

static const cz__ntt_scale CZ__NO_SCALE = { NULL, NULL, 0 };

static inline cz__ntt_scale cz__scale(const cz_dfr *lo, const cz_dfr *hi, int rev)
{
    cz__ntt_scale s = { lo, hi, rev };
    return s;
}

/* Elements (32 bytes each) of a domain's tables. */
extern "C" size_t cz__cuda_ntt_domain_elems(unsigned log_n);

struct cz_cuda_ntt_domain {
    unsigned log_n;
    cz_dfr *mem;                    /* one allocation holding every table */
    const cz_dfr *om[2];            /* [fwd, inv] omega_1024^i, i < 512 */
    const cz_dfr *wlo[2], *whi[2];  /* [fwd, inv] w^e for e < 2^log_n, two-level */
    const cz_dfr *wdir[2];          /* [fwd, inv] w^e for e a multiple of 2^(log_n - D), direct */
    const cz_dfr *g_lo, *ginv_lo;   /* g^i, g^-i, i < 2^14 */
    const cz_dfr *g_hi;             /* g^(j 2^14) */
    const cz_dfr *g_hi_minv;        /* m^-1 g^(j 2^14) */
    const cz_dfr *ginv_hi_minv;     /* m^-1 g^-(j 2^14) */
    const cz_dfr *ginv_hi_k;        /* K g^-(j 2^14), K = m^-1 (g^m - 1)^-1 */
    const cz_dfr *c_minv, *c_k;     /* the constants m^-1 and K */
};

/*
 * Radix-2^k passes (k <= 10) over data[0 .. 2^log_n) on |stream|:
 * DIF takes natural order to bit-reversed, DIT bit-reversed to natural.
 * |in| multiplies each input as it is first read, |out| each output as it
 * is last written. |inverse| selects the w^-1 tables (no 1/n: use a scale).
 */
int cz__ntt_dif(cz_ctx_t *ctx, const cz_cuda_ntt_domain *d, cz_dfr *data, int inverse,
                cz__ntt_scale in, cz__ntt_scale out, cudaStream_t stream);
int cz__ntt_dit(cz_ctx_t *ctx, const cz_cuda_ntt_domain *d, cz_dfr *data, int inverse,
                cz__ntt_scale in, cz__ntt_scale out, cudaStream_t stream);
/* In-place bit-reversal permutation. */
int cz__ntt_bitrev(cz_ctx_t *ctx, const cz_cuda_ntt_domain *d, cz_dfr *data,
                   cudaStream_t stream);

static inline unsigned cz__blocks(size_t n, unsigned threads)
{
    return (unsigned)((n + threads - 1) / threads);
}

#endif /* CUZK_BACKEND_CUDA_INTERNAL_CUH */
