/*
 * backend/cuda/field.cuh — BLS12-381 fields on the device: Fr, Fp, Fp2.
 *
 *   cz_dfr   Fr, 8 x 32-bit limbs, Montgomery R = 2^256: the bytes of blst_fr
 *   cz_dfp   Fp, 12 x 32-bit limbs, Montgomery R = 2^384: the bytes of blst_fp
 *   cz_dfp2  Fp2 = Fp[i]/(i^2+1), c0 + c1*i: the bytes of blst_fp2
 *
 * Each field gets zero, one, is_zero, eq, load, store, add, dbl, sub, neg,
 * mul, sqr, pow, inverse (mont_impl.cuh). Values in and out are fully
 * reduced. Fp and Fp2 also get the lazy operations (_lz: values in [0, 2p),
 * canon to reduce; mont_impl.cuh). cz_dfr64 and cz_dfp64 are the same
 * fields as 52-bit limbs in doubles, with a Montgomery product on the FP64
 * pipe (fmont_impl.cuh). Moduli: FACTS 1 (r); p from the BLS12-381 definition (as in
 * blst's src/consts.c). The 32-bit limbs and -m^-1 mod 2^32 were computed
 * from those integers (R mod m likewise; R mod r equals CZ_FR_ONE in fr.c).
 */
#ifndef CUZK_BACKEND_CUDA_FIELD_CUH
#define CUZK_BACKEND_CUDA_FIELD_CUH

#include "backend/cuda/f64.cuh"
#include "backend/cuda/bin_inv.cuh"
#include "backend/cuda/ptx.cuh"

/* r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001 */
#define CZ__DFR_MOD_LIMBS \
    0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u, \
    0x09a1d805u, 0x3339d808u, 0x299d7d48u, 0x73eda753u
static __constant__ uint32_t CZ_DFR_MOD[8] = { CZ__DFR_MOD_LIMBS };
/* R^3 mod r (R = 2^256): the binary inverse's correction (mont_impl.cuh);
 * the limbs as a list too, for tests/gpu/test_bin_inverse.cu */
#define CZ__DFR_R3_LIMBS \
    0x439b73afu, 0xc62c1807u, 0x8cf06990u, 0x1b3e0d18u, \
    0xc7b5f418u, 0x73d13c71u, 0xc8db33e9u, 0x6e2a5bb9u
static __constant__ uint32_t CZ_DFR_R3[8] = { CZ__DFR_R3_LIMBS };
static __constant__ uint32_t CZ_DFR_ONE[8] = {
    0xfffffffeu, 0x00000001u, 0x00034802u, 0x5884b7fau,
    0xecbc4ff5u, 0x998c4fefu, 0xacc5056fu, 0x1824b159u };

/* p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f624
 *       1eabfffeb153ffffb9feffffffffaaab */
#define CZ__DFP_MOD_LIMBS \
    0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u, \
    0xf38512bfu, 0x64774b84u, 0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau
static __constant__ uint32_t CZ_DFP_MOD[12] = { CZ__DFP_MOD_LIMBS };
static __constant__ uint32_t CZ_DFP_ONE[12] = {
    0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu, 0x53c758bau, 0x5f489857u,
    0x70525745u, 0x77ce5853u, 0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u };
/* R^3 mod p (R = 2^384): the binary inverse's correction (mont_impl.cuh) */
#define CZ__DFP_R3_LIMBS \
    0xd94ca1e0u, 0xed48ac6bu, 0x03a7adf8u, 0x315f831eu, 0x615e29ddu, 0x9a53352au, \
    0x921e1761u, 0x34c04e5eu, 0x65724728u, 0x2512d435u, 0x91755d4du, 0x0aa63460u
static __constant__ uint32_t CZ_DFP_R3[12] = { CZ__DFP_R3_LIMBS };
/* 2p, for the lazy operations (p < 2^381 = R/8) */
static __constant__ uint32_t CZ_DFP_MOD2[12] = {
    0xffff5556u, 0x73fdffffu, 0x62a7ffffu, 0x3d57fffdu, 0xed61ec48u, 0xce61a541u,
    0xe70a257eu, 0xc8ee9709u, 0x869759aeu, 0x96374f6cu, 0x72ffcd34u, 0x340223d4u };

/* The moduli's 52-bit limbs and -m^-1 mod 2^52, for fmont_impl.cuh (computed
 * from the integers above). */
static __constant__ double CZ_DFR64_MOD[5] = {
    4503595332403201.0, 52776117727231.0, 2711223964777892.0, 2203984808738944.0,
    127464551688605.0 };
#define CZ_DFR64_NP 0xffffeffffffffull
static __constant__ double CZ_DFP64_MOD[8] = {
    4222124650637995.0, 4480601151241119.0, 1883421074697215.0, 329812468902415.0,
    2080788367864709.0, 486514101631693.0, 539007656565323.0, 106513.0 };
#define CZ_DFP64_NP 0x3fffcfffcfffdull

#define CZ_MN 8
#define CZ_MT cz_dfr
#define CZ_MF(x) cz_dfr_##x
#define CZ_MMOD CZ_DFR_MOD
#define CZ_MINV 0xffffffffu
#define CZ_MONE CZ_DFR_ONE
#define CZ_MR3 CZ_DFR_R3
#define CZ_MR1 1                 /* r's limbs 0, 1: 1, 2^32 - 1 (mont_impl.cuh) */
#include "backend/cuda/mont_impl.cuh"
#undef CZ_MR1
#define CZ_FN 5
#define CZ_FT cz_dfr64
#define CZ_FF(x) cz_dfr64_##x
#define CZ_FMOD CZ_DFR64_MOD
#define CZ_FNP CZ_DFR64_NP
#include "backend/cuda/fmont_impl.cuh"
#undef CZ_FN
#undef CZ_FT
#undef CZ_FF
#undef CZ_FMOD
#undef CZ_FNP
#undef CZ_MN
#undef CZ_MT
#undef CZ_MF
#undef CZ_MMOD
#undef CZ_MINV
#undef CZ_MONE
#undef CZ_MR3

#define CZ_MN 12
#define CZ_MT cz_dfp
#define CZ_MF(x) cz_dfp_##x
#define CZ_MMOD CZ_DFP_MOD
#define CZ_MINV 0xfffcfffdu
#define CZ_MONE CZ_DFP_ONE
#define CZ_MR3 CZ_DFP_R3
#define CZ_MMOD2 CZ_DFP_MOD2
#include "backend/cuda/mont_impl.cuh"
#define CZ_FN 8
#define CZ_FT cz_dfp64
#define CZ_FF(x) cz_dfp64_##x
#define CZ_FMOD CZ_DFP64_MOD
#define CZ_FNP CZ_DFP64_NP
#include "backend/cuda/fmont_impl.cuh"
#undef CZ_FN
#undef CZ_FT
#undef CZ_FF
#undef CZ_FMOD
#undef CZ_FNP
#undef CZ_MN
#undef CZ_MT
#undef CZ_MF
#undef CZ_MMOD
#undef CZ_MINV
#undef CZ_MONE
#undef CZ_MR3
#undef CZ_MMOD2

/* ---- Fp2 = Fp[i]/(i^2 + 1) ------------------------------------------------ */

typedef struct { cz_dfp c0, c1; } cz_dfp2;

CZ__DI cz_dfp2 cz_dfp2_zero(void) { cz_dfp2 r = { cz_dfp_zero(), cz_dfp_zero() }; return r; }
CZ__DI cz_dfp2 cz_dfp2_one(void) { cz_dfp2 r = { cz_dfp_one(), cz_dfp_zero() }; return r; }
CZ__DI bool cz_dfp2_is_zero(const cz_dfp2 a) { return cz_dfp_is_zero(a.c0) && cz_dfp_is_zero(a.c1); }
CZ__DI bool cz_dfp2_eq(const cz_dfp2 a, const cz_dfp2 b) { return cz_dfp_eq(a.c0, b.c0) && cz_dfp_eq(a.c1, b.c1); }
CZ__DI cz_dfp2 cz_dfp2_load(const cz_dfp2 *p) { cz_dfp2 r = { cz_dfp_load(&p->c0), cz_dfp_load(&p->c1) }; return r; }
CZ__DI void cz_dfp2_store(cz_dfp2 *p, const cz_dfp2 a) { cz_dfp_store(&p->c0, a.c0); cz_dfp_store(&p->c1, a.c1); }

CZ__DI cz_dfp2 cz_dfp2_add(const cz_dfp2 a, const cz_dfp2 b)
{ cz_dfp2 r = { cz_dfp_add(a.c0, b.c0), cz_dfp_add(a.c1, b.c1) }; return r; }
CZ__DI cz_dfp2 cz_dfp2_dbl(const cz_dfp2 a) { return cz_dfp2_add(a, a); }
CZ__DI cz_dfp2 cz_dfp2_sub(const cz_dfp2 a, const cz_dfp2 b)
{ cz_dfp2 r = { cz_dfp_sub(a.c0, b.c0), cz_dfp_sub(a.c1, b.c1) }; return r; }
CZ__DI cz_dfp2 cz_dfp2_neg(const cz_dfp2 a) { cz_dfp2 r = { cz_dfp_neg(a.c0), cz_dfp_neg(a.c1) }; return r; }

/*
 * Karatsuba, 3M: c0 = a0b0 - a1b1, c1 = (a0+a1)(b0+b1) - a0b0 - a1b1; squaring
 * 2M: c0 = (a0+a1)(a0-a1), c1 = 2*a0*a1. Written once over the Fp operations
 * given: reduced (cz_dfp2_mul, _sqr) and lazy (_mul_lz, _sqr_lz: coefficients
 * in [0, 2p), see mont_impl.cuh). (Deferring the reductions, 3 double-width
 * products + 2 reductions, was tried: 121 registers and a G2 MSM 14% slower
 * on the H200; docs/PERFORMANCE.md.)
 */
#define CZ__FP2_MUL_SQR(SFX, MUL, ADD, SUB, DBL)                                 \
    CZ__DI cz_dfp2 cz_dfp2_mul##SFX(const cz_dfp2 a, const cz_dfp2 b)         \
    {                                                                          \
        cz_dfp t0 = MUL(a.c0, b.c0);                                           \
        cz_dfp t1 = MUL(a.c1, b.c1);                                           \
        cz_dfp t2 = MUL(ADD(a.c0, a.c1), ADD(b.c0, b.c1));                     \
        cz_dfp2 r = { SUB(t0, t1), SUB(SUB(t2, t0), t1) };                     \
        return r;                                                              \
    }                                                                          \
    CZ__DI cz_dfp2 cz_dfp2_sqr##SFX(const cz_dfp2 a)                          \
    {                                                                          \
        cz_dfp t = MUL(a.c0, a.c1);                                            \
        cz_dfp2 r = { MUL(ADD(a.c0, a.c1), SUB(a.c0, a.c1)), DBL(t) };         \
        return r;                                                              \
    }

CZ__FP2_MUL_SQR(, cz_dfp_mul, cz_dfp_add, cz_dfp_sub, cz_dfp_dbl)

/* Lazy Fp2 (coefficients in [0, 2p), see mont_impl.cuh). */
CZ__DI cz_dfp2 cz_dfp2_canon(const cz_dfp2 a) { cz_dfp2 r = { cz_dfp_canon(a.c0), cz_dfp_canon(a.c1) }; return r; }
CZ__DI bool cz_dfp2_is_zero_lz(const cz_dfp2 a) { return cz_dfp_is_zero_lz(a.c0) && cz_dfp_is_zero_lz(a.c1); }
CZ__DI cz_dfp2 cz_dfp2_add_lz(const cz_dfp2 a, const cz_dfp2 b)
{ cz_dfp2 r = { cz_dfp_add_lz(a.c0, b.c0), cz_dfp_add_lz(a.c1, b.c1) }; return r; }
CZ__DI cz_dfp2 cz_dfp2_dbl_lz(const cz_dfp2 a) { return cz_dfp2_add_lz(a, a); }
CZ__DI cz_dfp2 cz_dfp2_sub_lz(const cz_dfp2 a, const cz_dfp2 b)
{ cz_dfp2 r = { cz_dfp_sub_lz(a.c0, b.c0), cz_dfp_sub_lz(a.c1, b.c1) }; return r; }

CZ__FP2_MUL_SQR(_lz, cz_dfp_mul_lz, cz_dfp_add_lz, cz_dfp_sub_lz, cz_dfp_dbl_lz)
#undef CZ__FP2_MUL_SQR

/* (a0 - a1 i) / (a0^2 + a1^2); the inverse of 0 is 0. */
static __device__ __noinline__ cz_dfp2 cz_dfp2_inverse(const cz_dfp2 a)
{
    cz_dfp n = cz_dfp_inverse(cz_dfp_add(cz_dfp_sqr(a.c0), cz_dfp_sqr(a.c1)));
    cz_dfp2 r = { cz_dfp_mul(a.c0, n), cz_dfp_neg(cz_dfp_mul(a.c1, n)) };
    return r;
}

#endif /* CUZK_BACKEND_CUDA_FIELD_CUH */
