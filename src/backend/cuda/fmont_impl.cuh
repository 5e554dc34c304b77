/*
 * backend/cuda/fmont_impl.cuh — Montgomery multiplication on the FP64 pipe.
 *
 * Why: every CIOS product (mont_impl.cuh) runs on the IMAD pipe, which the
 * MSM and the NTT keep ~80% busy, while the FP64 pipe (64 DFMA a clock an SM
 * on sm_90, as many as IMADs) sits idle. Here an element is CZ_FN limbs of
 * 52 bits, each an exact integer held in a double, and R' = 2^(52*CZ_FN).
 * Measured on the H200 (`cuzk bench fmul`, docs/PERFORMANCE.md 2026-12-04):
 * 1.16-1.18x CIOS's throughput for Fr, 0.78-0.92x for Fp, and no gain from
 * mixing the two; so no production kernel uses it yet.
 *
 * A template by inclusion (no include guard, on purpose): field.cuh
 * includes it once per field after mont_impl.cuh, defining
 *   CZ_FN      number of 52-bit limbs (5 for Fr, 8 for Fp)
 *   CZ_FT      the element type to declare
 *   CZ_FF(x)   the function-name prefix (cz_dfr64_##x)
 *   CZ_FMOD    a __constant__ double[CZ_FN]: the modulus' 52-bit limbs
 *   CZ_FNP     -modulus^-1 mod 2^52
 *   CZ_MT, CZ_MN, CZ_MF   the 32-bit-limb field it converts from and to
 * and undefines them afterwards.
 *
 * The product of two limbs, a*b < 2^104, is split exactly into H*2^52 + L
 * by two fused multiply-adds rounding toward zero (Emmart, Zheng, Weems,
 * "Faster modular exponentiation using double precision floating point
 * arithmetic on the GPU", ARITH 2018):
 *   h = fma_rz(a, b, 2^104)           = 2^104 + H*2^52  (ulp 2^52 there)
 *   l = fma_rz(a, b, 2^104 + 2^52 - h) = 2^52 + L       (exact)
 * whose bit patterns are H and L plus a constant exponent field (BH, BL,
 * multiples of 2^52). Columns add those patterns as 64-bit integers on the
 * ALU pipe; each column starts at minus the sum of the biases it will
 * receive, so it holds its true value once its last term has arrived, and
 * its low 52 bits are right at any time (the biases have none there).
 *
 * mul: CZ_FN rows, each a_i*b into the columns, then the reduction row
 * (m = c_i * NP mod 2^52 on the IMAD pipe, m*modulus into the columns, the
 * carry of c_i into c_{i+1}), then the upper half normalized to 52-bit limbs. For inputs
 * below 2*mod the result is below 2*mod: (4 mod^2 + R' mod) / R' < 2 mod
 * since 4 mod < R' for both fields (lazy, like the _lz operations).
 *
 * from_mont / to_mont move the same integer between the 32-bit and 52-bit
 * limb forms; to_mont needs a value below 2^(32*CZ_MN), which any result
 * below 2*mod is. Note the Montgomery factors differ: mul gives a*b/R', so
 * a value meant for it carries R' (or one factor carries R'/R, see the
 * callers).
 */

typedef struct { double l[CZ_FN]; } CZ_FT;

CZ__DI CZ_FT CZ_FF(from_mont)(const CZ_MT a)
{
    CZ_FT r;
#pragma unroll
    for (int k = 0; k < CZ_FN; k++) {
        const int q = 52 * k / 32, s = 52 * k % 32;
        uint64_t v = (uint64_t)a.l[q] >> s;
        if (q + 1 < CZ_MN) v |= (uint64_t)a.l[q + 1] << (32 - s);
        if (q + 2 < CZ_MN && s > 12) v |= (uint64_t)a.l[q + 2] << (64 - s);
        r.l[k] = cz__f64_from_u52(v & CZ__F64_M52);
    }
    return r;
}

CZ__DI CZ_MT CZ_FF(to_mont)(const CZ_FT a)
{
    uint64_t u[CZ_FN];
#pragma unroll
    for (int k = 0; k < CZ_FN; k++) u[k] = cz__f64_to_u52(a.l[k]);
    CZ_MT r;
#pragma unroll
    for (int w = 0; w < CZ_MN; w++) {
        const int k = 32 * w / 52, s = 32 * w % 52;
        uint64_t v = u[k] >> s;
        if (k + 1 < CZ_FN) v |= u[k + 1] << (52 - s);
        r.l[w] = (uint32_t)v;
    }
    return r;
}

/*
 * a*b/R' mod m + (0 or m), for a, b below 2m; see the header. Row i adds
 * a_i*b into the columns, then m_i*mod, then retires column i (complete:
 * every later term lands above it), so only CZ_FN + 1 columns are live.
 */
CZ__DI CZ_FT CZ_FF(mul)(const CZ_FT a, const CZ_FT b)
{
    uint64_t c[2 * CZ_FN];
#pragma unroll
    for (int k = 0; k < 2 * CZ_FN; k++) c[k] = 0 - cz__f64_col_bias(k, CZ_FN);
#pragma unroll
    for (int i = 0; i < CZ_FN; i++) {
#pragma unroll
        for (int j = 0; j < CZ_FN; j++) {
            uint64_t h, l;
            cz__f64_split(a.l[i], b.l[j], &h, &l);
            c[i + j] += l;
            c[i + j + 1] += h;
        }
        const uint64_t m = ((c[i] & CZ__F64_M52) * CZ_FNP) & CZ__F64_M52;
        const double md = cz__f64_from_u52(m);
#pragma unroll
        for (int j = 0; j < CZ_FN; j++) {
            uint64_t h, l;
            cz__f64_split(md, CZ_FMOD[j], &h, &l);
            c[i + j] += l;
            c[i + j + 1] += h;
        }
        c[i + 1] += c[i] >> 52;                /* c[i] is complete, 0 mod 2^52 */
    }
    CZ_FT r;
#pragma unroll
    for (int k = 0; k < CZ_FN; k++) {
        if (k + 1 < CZ_FN) c[CZ_FN + k + 1] += c[CZ_FN + k] >> 52;
        r.l[k] = cz__f64_from_u52(c[CZ_FN + k] & CZ__F64_M52);
    }
    return r;
}
