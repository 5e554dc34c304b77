/*
 * backend/cuda/f64.cuh — exact integer arithmetic on the FP64 pipe: the
 * pieces fmont_impl.cuh builds its Montgomery product from.
 *
 * A "u52" is an integer below 2^52; as a double it is exact. The split of
 * a product of two u52s into its two 52-bit halves, and the bias each half's
 * bit pattern carries, are explained in fmont_impl.cuh. Device-only, pure.
 */
#ifndef CUZK_BACKEND_CUDA_F64_CUH
#define CUZK_BACKEND_CUDA_F64_CUH

#include "backend/cuda/ptx.cuh"

#define CZ__F64_M52 0x000fffffffffffffull
#define CZ__F64_BL 0x4330000000000000ull     /* bits of 2^52: the exponent field of 2^52 + L */
#define CZ__F64_BH 0x4670000000000000ull     /* bits of 2^104: that of 2^104 + H*2^52 */

CZ__DI double cz__f64_two52(void) { return __longlong_as_double((long long)CZ__F64_BL); }

/* v < 2^52 as a double: 2^52 + v has v as its mantissa; subtract 2^52. */
CZ__DI double cz__f64_from_u52(uint64_t v)
{
    return __dsub_rn(__longlong_as_double((long long)(v | CZ__F64_BL)), cz__f64_two52());
}

/* An integral double in [0, 2^52) back to an integer. */
CZ__DI uint64_t cz__f64_to_u52(double x)
{
    return (uint64_t)__double_as_longlong(__dadd_rn(x, cz__f64_two52())) & CZ__F64_M52;
}

/*
 * a*b = H*2^52 + L (a, b u52s): *hi = BH + H, *lo = BL + L as bit patterns.
 * Rounding toward zero makes h's addend 2^104 truncate a*b to its multiple
 * of 2^52; the second fma's result lies in [2^52, 2^53), where it is exact.
 */
CZ__DI void cz__f64_split(double a, double b, uint64_t *hi, uint64_t *lo)
{
    const double c1 = __longlong_as_double((long long)CZ__F64_BH);          /* 2^104 */
    const double c2 = __longlong_as_double((long long)(CZ__F64_BH + 1));    /* 2^104 + 2^52 */
    const double h = __fma_rz(a, b, c1);
    const double l = __fma_rz(a, b, __dsub_rn(c2, h));
    *hi = (uint64_t)__double_as_longlong(h);
    *lo = (uint64_t)__double_as_longlong(l);
}

/* Products (i, j) of two n-limb numbers with i + j = k. */
CZ__DI int cz__f64_pairs(int k, int n)
{
    return k < 0 || k > 2 * n - 2 ? 0 : (k < n ? k + 1 : 2 * n - 1 - k);
}

/*
 * The biases column k of a Montgomery product receives: the L halves of
 * the pairs i + j = k and the H halves of i + j = k - 1, once for a*b and
 * once for the reduction rows m_i * mod_j (modulo 2^64, as the columns).
 */
CZ__DI uint64_t cz__f64_col_bias(int k, int n)
{
    return 2 * ((uint64_t)cz__f64_pairs(k, n) * CZ__F64_BL + (uint64_t)cz__f64_pairs(k - 1, n) * CZ__F64_BH);
}

#endif /* CUZK_BACKEND_CUDA_F64_CUH */
