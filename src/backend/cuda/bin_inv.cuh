/*
 * backend/cuda/bin_inv.cuh — the inverse modulo an odd m by the binary
 * extended Euclidean algorithm (Menezes, van Oorschot, Vanstone, Handbook
 * of Applied Cryptography, 14.61, as "u = x1 a, v = x2 a (mod m)"), on n
 * 32-bit limbs (n <= CZ__BIN_MAX). Host and device code alike, so that
 * tests/gpu/test_bin_inverse.cu checks it against blst on the CPU, without
 * a GPU; mont_impl.cuh turns it into the Montgomery inverse.
 *
 * Shifts, additions and subtractions of limbs, no products: ~2 log2(m)
 * halving steps and ~log2(m) subtractions, one thread's latency a fraction
 * of Fermat's ~570 dependent Montgomery products. Not constant time (public
 * data only). Needs m < 2^(32n - 1) (x + m must not carry out: BLS12-381's
 * p < 2^381, r < 2^255).
 */
#ifndef CUZK_BACKEND_CUDA_BIN_INV_CUH
#define CUZK_BACKEND_CUDA_BIN_INV_CUH

#include <stdint.h>

#define CZ__BIN_HD static __host__ __device__ __forceinline__
#define CZ__BIN_MAX 12

CZ__BIN_HD bool cz__bin_is_one(const uint32_t *u, int n)
{
    uint32_t rest = u[0] ^ 1u;
    for (int i = 1; i < n; i++)
        rest |= u[i];
    return rest == 0;
}

CZ__BIN_HD void cz__bin_shr1(uint32_t *u, int n)
{
    for (int i = 0; i < n - 1; i++)
        u[i] = (u[i] >> 1) | (u[i + 1] << 31);
    u[n - 1] >>= 1;
}

/* d = a + b (no carry out, by the bound on m). */
CZ__BIN_HD void cz__bin_add(uint32_t *d, const uint32_t *a, const uint32_t *b, int n)
{
    uint64_t carry = 0;
    for (int i = 0; i < n; i++) {
        const uint64_t s = (uint64_t)a[i] + b[i] + carry;
        d[i] = (uint32_t)s;
        carry = s >> 32;
    }
}

/* d = a - b; true when it borrowed (a < b). */
CZ__BIN_HD bool cz__bin_sub(uint32_t *d, const uint32_t *a, const uint32_t *b, int n)
{
    uint64_t borrow = 0;
    for (int i = 0; i < n; i++) {
        const uint64_t s = (uint64_t)a[i] - b[i] - borrow;
        d[i] = (uint32_t)s;
        borrow = (s >> 32) & 1u;
    }
    return borrow != 0;
}

/* x = x / 2 mod m for x < m: x + m when x is odd, halved. */
CZ__BIN_HD void cz__bin_halve(uint32_t *x, const uint32_t *m, int n)
{
    if (x[0] & 1u)
        cz__bin_add(x, x, m, n);
    cz__bin_shr1(x, n);
}

/* x = x - y mod m, both below m. */
CZ__BIN_HD void cz__bin_sub_mod(uint32_t *x, const uint32_t *y, const uint32_t *m, int n)
{
    if (cz__bin_sub(x, x, y, n))
        cz__bin_add(x, x, m, n);
}

/* r = a^-1 mod m for 0 < a < m, m an odd prime (gcd(a, m) = 1); a = 0 gives 0. */
CZ__BIN_HD void cz__bin_inverse(uint32_t *r, const uint32_t *a, const uint32_t *m, int n)
{
    uint32_t u[CZ__BIN_MAX], v[CZ__BIN_MAX], x1[CZ__BIN_MAX], x2[CZ__BIN_MAX], d[CZ__BIN_MAX];
    uint32_t any = 0;
    for (int i = 0; i < n; i++) {
        u[i] = a[i];
        v[i] = m[i];
        x1[i] = i == 0;
        x2[i] = 0;
        any |= a[i];
    }
    if (!any) {
        for (int i = 0; i < n; i++)
            r[i] = 0;
        return;
    }
    /* gcd(u, v) = 1 throughout, so u == v only at u = v = 1 */
    while (!cz__bin_is_one(u, n) && !cz__bin_is_one(v, n)) {
        while (!(u[0] & 1u)) {
            cz__bin_shr1(u, n);
            cz__bin_halve(x1, m, n);
        }
        while (!(v[0] & 1u)) {
            cz__bin_shr1(v, n);
            cz__bin_halve(x2, m, n);
        }
        if (!cz__bin_sub(d, u, v, n)) {
            for (int i = 0; i < n; i++)
                u[i] = d[i];
            cz__bin_sub_mod(x1, x2, m, n);
        } else {
            cz__bin_sub(v, v, u, n);
            cz__bin_sub_mod(x2, x1, m, n);
        }
    }
    const bool by_u = cz__bin_is_one(u, n);
    for (int i = 0; i < n; i++)
        r[i] = by_u ? x1[i] : x2[i];
}

#endif /* CUZK_BACKEND_CUDA_BIN_INV_CUH */
