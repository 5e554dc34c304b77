/*
 * backend/cuda/mont_impl.cuh — Montgomery arithmetic over CZ_MN 32-bit limbs.
 *
 * A "template by inclusion" (no include guard, on purpose): field.cuh
 * includes it once per field after defining
 *   CZ_MN      number of 32-bit limbs (8 for Fr, 12 for Fp)
 *   CZ_MT      the element type to declare
 *   CZ_MF(x)   the function-name prefix (cz_dfr_##x)
 *   CZ_MMOD    a __constant__ uint32_t[CZ_MN]: the modulus, little-endian
 *   CZ_MINV    -modulus^-1 mod 2^32
 *   CZ_MONE    a __constant__ uint32_t[CZ_MN]: R mod modulus (Montgomery 1)
 * and undefines them afterwards.
 *
 * Elements are kept fully reduced (< modulus) in Montgomery form with
 * R = 2^(32*CZ_MN): the same bytes as blst_fr (4x64, R = 2^256) and blst_fp
 * (6x64, R = 2^384) on a little-endian machine, so host and device share data.
 *
 * Multiplication is CIOS (Koc, Acar, Kaliski, "Analyzing and comparing
 * Montgomery multiplication algorithms", 1996) on an accumulator of CZ_MN+1
 * limbs. Both moduli leave spare top bits (r < 2^255, p < 2^381), so with
 * b < modulus the accumulator stays below 2*mod*2^32 + 2*mod < 2^(32*CZ_MN+32)
 * and no carry ever leaves limb CZ_MN: every chain ends without an extra word.
 * Cost: CZ_MN*(4*CZ_MN+1) IMAD (264 for Fr) plus the final subtraction.
 */

typedef struct { uint32_t l[CZ_MN]; } CZ_MT;

CZ__DI CZ_MT CZ_MF(zero)(void)
{
    CZ_MT r;
#pragma unroll
    for (int i = 0; i < CZ_MN; i++) r.l[i] = 0;
    return r;
}

CZ__DI CZ_MT CZ_MF(one)(void)
{
    CZ_MT r;
#pragma unroll
    for (int i = 0; i < CZ_MN; i++) r.l[i] = CZ_MONE[i];
    return r;
}

CZ__DI bool CZ_MF(is_zero)(const CZ_MT a)
{
    uint32_t t = 0;
#pragma unroll
    for (int i = 0; i < CZ_MN; i++) t |= a.l[i];
    return t == 0;
}

CZ__DI bool CZ_MF(eq)(const CZ_MT a, const CZ_MT b)
{
    uint32_t t = 0;
#pragma unroll
    for (int i = 0; i < CZ_MN; i++) t |= a.l[i] ^ b.l[i];
    return t == 0;
}

/* 16-byte loads and stores; |p| must be 16-byte aligned (cudaMalloc is). */
CZ__DI CZ_MT CZ_MF(load)(const CZ_MT *p)
{
    CZ_MT r;
    const uint4 *q = (const uint4 *)p;
#pragma unroll
    for (int i = 0; i < CZ_MN / 4; i++) {
        uint4 v = q[i];
        r.l[4 * i] = v.x; r.l[4 * i + 1] = v.y; r.l[4 * i + 2] = v.z; r.l[4 * i + 3] = v.w;
    }
    return r;
}

CZ__DI void CZ_MF(store)(CZ_MT *p, const CZ_MT a)
{
    uint4 *q = (uint4 *)p;
#pragma unroll
    for (int i = 0; i < CZ_MN / 4; i++)
        q[i] = make_uint4(a.l[4 * i], a.l[4 * i + 1], a.l[4 * i + 2], a.l[4 * i + 3]);
}

/* a - mod if a >= mod, else a; for a < 2*mod. */
CZ__DI CZ_MT CZ_MF(reduce_once)(const CZ_MT a)
{
    CZ_MT t;
    t.l[0] = cz__sub_cc(a.l[0], CZ_MMOD[0]);
#pragma unroll
    for (int i = 1; i < CZ_MN; i++) t.l[i] = cz__subc_cc(a.l[i], CZ_MMOD[i]);
    uint32_t borrow = cz__subc(0, 0);          /* 0xffffffff when a < mod */
    CZ_MT r;
#pragma unroll
    for (int i = 0; i < CZ_MN; i++) r.l[i] = borrow ? a.l[i] : t.l[i];
    return r;
}

CZ__DI CZ_MT CZ_MF(add)(const CZ_MT a, const CZ_MT b)
{
    CZ_MT s;                                   /* a + b < 2*mod < 2^(32*CZ_MN) */
    s.l[0] = cz__add_cc(a.l[0], b.l[0]);
#pragma unroll
    for (int i = 1; i < CZ_MN - 1; i++) s.l[i] = cz__addc_cc(a.l[i], b.l[i]);
    s.l[CZ_MN - 1] = cz__addc(a.l[CZ_MN - 1], b.l[CZ_MN - 1]);
    return CZ_MF(reduce_once)(s);
}

CZ__DI CZ_MT CZ_MF(dbl)(const CZ_MT a) { return CZ_MF(add)(a, a); }

CZ__DI CZ_MT CZ_MF(sub)(const CZ_MT a, const CZ_MT b)
{
    CZ_MT d;
    d.l[0] = cz__sub_cc(a.l[0], b.l[0]);
#pragma unroll
    for (int i = 1; i < CZ_MN; i++) d.l[i] = cz__subc_cc(a.l[i], b.l[i]);
    uint32_t mask = cz__subc(0, 0);            /* all ones when a < b: add mod back */
    d.l[0] = cz__add_cc(d.l[0], CZ_MMOD[0] & mask);
#pragma unroll
    for (int i = 1; i < CZ_MN - 1; i++) d.l[i] = cz__addc_cc(d.l[i], CZ_MMOD[i] & mask);
    d.l[CZ_MN - 1] = cz__addc(d.l[CZ_MN - 1], CZ_MMOD[CZ_MN - 1] & mask);
    return d;
}

CZ__DI CZ_MT CZ_MF(neg)(const CZ_MT a)
{
    uint32_t nz = CZ_MF(is_zero)(a) ? 0u : 0xffffffffu;
    CZ_MT d;
    d.l[0] = cz__sub_cc(CZ_MMOD[0] & nz, a.l[0]);
#pragma unroll
    for (int i = 1; i < CZ_MN - 1; i++) d.l[i] = cz__subc_cc(CZ_MMOD[i] & nz, a.l[i]);
    d.l[CZ_MN - 1] = cz__subc(CZ_MMOD[CZ_MN - 1] & nz, a.l[CZ_MN - 1]);
    return d;
}

/* One CIOS reduction step: acc += m*mod with m = acc[0]*inv, then acc >>= 32. */
#define CZ__MONT_REDUCE_STEP(acc)                                              \
    do {                                                                       \
        uint32_t m_ = (acc)[0] * CZ_MINV;                                      \
        (acc)[0] = cz__madlo_cc(m_, CZ_MMOD[0], (acc)[0]);                     \
        _Pragma("unroll")                                                      \
        for (int j_ = 1; j_ < CZ_MN; j_++)                                     \
            (acc)[j_] = cz__madclo_cc(m_, CZ_MMOD[j_], (acc)[j_]);             \
        (acc)[CZ_MN] = cz__addc((acc)[CZ_MN], 0);                              \
        (acc)[1] = cz__madhi_cc(m_, CZ_MMOD[0], (acc)[1]);                     \
        _Pragma("unroll")                                                      \
        for (int j_ = 1; j_ < CZ_MN - 1; j_++)                                 \
            (acc)[j_ + 1] = cz__madchi_cc(m_, CZ_MMOD[j_], (acc)[j_ + 1]);     \
        (acc)[CZ_MN] = cz__madchi(m_, CZ_MMOD[CZ_MN - 1], (acc)[CZ_MN]);       \
        _Pragma("unroll")                                                      \
        for (int j_ = 0; j_ < CZ_MN; j_++) (acc)[j_] = (acc)[j_ + 1];          \
        (acc)[CZ_MN] = 0;                                                      \
    } while (0)

/* a*b*R^-1 mod m. Needs b < mod; a may be any CZ_MN-limb value. */
CZ__DI CZ_MT CZ_MF(mul)(const CZ_MT a, const CZ_MT b)
{
    uint32_t acc[CZ_MN + 1];
    /* round 0: acc = a0*b */
#pragma unroll
    for (int j = 0; j < CZ_MN; j++) acc[j] = a.l[0] * b.l[j];
    acc[1] = cz__madhi_cc(a.l[0], b.l[0], acc[1]);
#pragma unroll
    for (int j = 1; j < CZ_MN - 1; j++) acc[j + 1] = cz__madchi_cc(a.l[0], b.l[j], acc[j + 1]);
    acc[CZ_MN] = cz__madchi(a.l[0], b.l[CZ_MN - 1], 0);
    CZ__MONT_REDUCE_STEP(acc);
#pragma unroll
    for (int i = 1; i < CZ_MN; i++) {
        const uint32_t ai = a.l[i];
        acc[0] = cz__madlo_cc(ai, b.l[0], acc[0]);
#pragma unroll
        for (int j = 1; j < CZ_MN; j++) acc[j] = cz__madclo_cc(ai, b.l[j], acc[j]);
        acc[CZ_MN] = cz__addc(acc[CZ_MN], 0);
        acc[1] = cz__madhi_cc(ai, b.l[0], acc[1]);
#pragma unroll
        for (int j = 1; j < CZ_MN - 1; j++) acc[j + 1] = cz__madchi_cc(ai, b.l[j], acc[j + 1]);
        acc[CZ_MN] = cz__madchi(ai, b.l[CZ_MN - 1], acc[CZ_MN]);
        CZ__MONT_REDUCE_STEP(acc);
    }
    CZ_MT r;
#pragma unroll
    for (int j = 0; j < CZ_MN; j++) r.l[j] = acc[j];
    return CZ_MF(reduce_once)(r);
}
#undef CZ__MONT_REDUCE_STEP

CZ__DI CZ_MT CZ_MF(sqr)(const CZ_MT a) { return CZ_MF(mul)(a, a); }

/* a^e, e given as |nwords| little-endian 32-bit words (square and multiply). */
static __device__ __noinline__ CZ_MT CZ_MF(pow)(const CZ_MT a, const uint32_t *e, int nwords)
{
    CZ_MT r = CZ_MF(one)();
    for (int i = nwords - 1; i >= 0; i--) {
        uint32_t w = e[i];
        for (int bit = 31; bit >= 0; bit--) {
            r = CZ_MF(sqr)(r);
            if ((w >> bit) & 1u)
                r = CZ_MF(mul)(r, a);
        }
    }
    return r;
}

/* a^-1 = a^(mod-2) (Fermat); the inverse of 0 is 0. Not constant time. */
static __device__ __noinline__ CZ_MT CZ_MF(inverse)(const CZ_MT a)
{
    uint32_t e[CZ_MN];
    e[0] = cz__sub_cc(CZ_MMOD[0], 2);
#pragma unroll
    for (int i = 1; i < CZ_MN; i++) e[i] = cz__subc_cc(CZ_MMOD[i], 0);
    return CZ_MF(pow)(a, e, CZ_MN);
}
