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
 *   CZ_MR3     a __constant__ uint32_t[CZ_MN]: R^3 mod modulus (the inverse's
 *              correction)
 *   CZ_MMOD2   (optional) a __constant__ uint32_t[CZ_MN]: 2 * modulus, for
 *              a modulus below R/4: declares the lazy operations below
 *   CZ_MR1     (optional) defined when the modulus's limbs 0 and 1 are 1
 *              and 2^32 - 1 (Fr): the reduction step without multiplies
 *              for the quotient digit and those two limbs (CZ__EO_REDC)
 * and undefines them afterwards.
 *
 * Elements are kept fully reduced (< modulus) in Montgomery form with
 * R = 2^(32*CZ_MN): the same bytes as blst_fr (4x64, R = 2^256) and blst_fp
 * (6x64, R = 2^384) on a little-endian machine, so host and device share data.
 *
 * Multiplication is CIOS (Koc, Acar, Kaliski, "Analyzing and comparing
 * Montgomery multiplication algorithms", 1996), 4*CZ_MN^2 + CZ_MN 32-bit
 * multiplies (264 for Fr), with the accumulator split by limb parity (see
 * cz_*_mul below). Both moduli leave spare top bits (r < 2^255, p < 2^381),
 * so the accumulator stays below 2*mod*2^32 + 2*mod < 2^(32*CZ_MN+32) and
 * no chain needs an extra carry word. A one-level Karatsuba product was
 * measured slower at both sizes (G1 MSM +7.6%, NTT +15%: more additions and
 * live registers than the IMADs it saves; docs/PERFORMANCE.md, 2026-12-04).
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

/* T /= 2^32 after a reduction step: E' = O + E[1] (its carry left pending
 * for the next step), O' = E[2..]. */
#define CZ__EO_SHIFT(e, o)                                                     \
    do {                                                                       \
        const uint32_t e1_ = (e)[1];                                           \
        _Pragma("unroll")                                                      \
        for (int j_ = 0; j_ < CZ_MN - 2; j_++) {                               \
            const uint32_t t_ = (e)[j_ + 2];                                   \
            (e)[j_] = (o)[j_];                                                 \
            (o)[j_] = t_;                                                      \
        }                                                                      \
        (e)[CZ_MN - 2] = (o)[CZ_MN - 2];                                       \
        (e)[CZ_MN - 1] = (o)[CZ_MN - 1];                                       \
        (o)[CZ_MN - 2] = 0;                                                    \
        (o)[CZ_MN - 1] = 0;                                                    \
        (e)[0] = cz__add_cc((e)[0], e1_);                                      \
    } while (0)

/*
 * CIOS with the accumulator T = E + 2^32 O split by limb parity: the
 * products a_j*m for even j land on aligned register pairs of E and those
 * for odd j on pairs of O, so each row is two carry chains of lo/hi pairs
 * with no separate hi pass; ptxas then fuses most lo/hi pairs into one
 * IMAD.WIDE.U32.X (the layout sppark's ff/mont_t.cuh uses). Measured on the
 * H200: the 2^27 NTT went from 71 ms (row-wise lo chain + hi chain) to
 * 53 ms with this layout. Dividing by 2^32 swaps the
 * roles: E' = O + E[1], O' = E[2..]; the carry of E'[0] is taken in by the
 * first instruction of the next row's O chain. The spare top bits keep O
 * below 2^(32*CZ_MN), so the O chains end without a carry out.
 */
#define CZ__EO_REDC_GENERIC(e, o, P, FIRST_O)                                     \
    do {                                                                       \
        const uint32_t m_ = (e)[0] * CZ_MINV;                                  \
        (o)[0] = FIRST_O(m_, (P)[1], (o)[0]);                              \
        (o)[1] = cz__madchi_cc(m_, (P)[1], (o)[1]);                        \
        _Pragma("unroll")                                                      \
        for (int j_ = 3; j_ < CZ_MN - 1; j_ += 2) {                            \
            (o)[j_ - 1] = cz__madclo_cc(m_, (P)[j_], (o)[j_ - 1]);         \
            (o)[j_] = cz__madchi_cc(m_, (P)[j_], (o)[j_]);                 \
        }                                                                      \
        (o)[CZ_MN - 2] = cz__madclo_cc(m_, (P)[CZ_MN - 1], (o)[CZ_MN - 2]); \
        (o)[CZ_MN - 1] = cz__madchi(m_, (P)[CZ_MN - 1], (o)[CZ_MN - 1]);   \
        (e)[0] = cz__madlo_cc(m_, (P)[0], (e)[0]);                         \
        (e)[1] = cz__madchi_cc(m_, (P)[0], (e)[1]);                        \
        _Pragma("unroll")                                                      \
        for (int j_ = 2; j_ < CZ_MN; j_ += 2) {                                \
            (e)[j_] = cz__madclo_cc(m_, (P)[j_], (e)[j_]);                 \
            (e)[j_ + 1] = cz__madchi_cc(m_, (P)[j_], (e)[j_ + 1]);         \
        }                                                                      \
        (o)[CZ_MN - 1] = cz__addc((o)[CZ_MN - 1], 0);                          \
        CZ__EO_SHIFT(e, o);                                                    \
    } while (0)

#ifdef CZ_MR1
/*
 * -1, where ptxas cannot see it: the quotient digit below is t0 * this. Written
 * as a negation (0 - t0), ptxas folded the negation into each of the row's
 * products with the modulus's limbs, and a product of a negated operand is
 * not fused into one IMAD.WIDE.U32(.X): every such lo/hi pair stayed two
 * IMADs (the 2^27 NTT's DIF kernel: 1248 IMAD + 1248 IMAD.HI, sm_90). As a
 * product by an opaque constant it costs one IMAD a row and those pairs
 * fuse (1248 IMAD.WIDE); the kernel went from 8144 to 6888 instructions.
 */
static __constant__ uint32_t CZ_MF(minus_one)[1] = { 0xffffffffu };

/*
 * The same step for a modulus whose limbs 0 and 1 are 1 and 2^32 - 1 (Fr:
 * r = 1 mod 2^32, so -r^-1 = -1 mod 2^32 and r's second limb is 2^32 - 1).
 * The quotient digit is m = -t0 (t0 = E[0]): a negation (made a product by
 * an opaque -1, above, so the row's products fuse).
 * Its products with those two limbs need no multiply either:
 *   m * 1           lo m, hi 0; t0 + m = 0 with a carry exactly when t0 != 0
 *   m * (2^32 - 1)  = m 2^32 - m: lo -m = t0, hi m - 1 = ~t0 (0 when t0 = 0)
 * so the O chain starts with two additions and the E chain with one: two
 * of the CZ_MN limb products go. The sums are the
 * generic step's, word for word. Measured on the H100 (2026-12-06): Fr
 * CIOS products 1.11x (`cuzk bench fmul`), the 2^27 NTT 44.48 -> 43.66 ms.
 */
#define CZ__EO_REDC(e, o, P, FIRST_O)                                             \
    do {                                                                       \
        const uint32_t t0_ = (e)[0];                                           \
        const uint32_t m_ = t0_ * CZ_MF(minus_one)[0]; /* -t0, opaque: above */ \
        const uint32_t h1_ = t0_ ? ~t0_ : 0u;                                  \
        (o)[0] = FIRST_O##_ADD((o)[0], t0_);                                   \
        (o)[1] = cz__addc_cc((o)[1], h1_);                                     \
        _Pragma("unroll")                                                      \
        for (int j_ = 3; j_ < CZ_MN - 1; j_ += 2) {                            \
            (o)[j_ - 1] = cz__madclo_cc(m_, (P)[j_], (o)[j_ - 1]);         \
            (o)[j_] = cz__madchi_cc(m_, (P)[j_], (o)[j_]);                 \
        }                                                                      \
        (o)[CZ_MN - 2] = cz__madclo_cc(m_, (P)[CZ_MN - 1], (o)[CZ_MN - 2]); \
        (o)[CZ_MN - 1] = cz__madchi(m_, (P)[CZ_MN - 1], (o)[CZ_MN - 1]);   \
        (e)[1] = cz__add_cc((e)[1], t0_ != 0u);                                \
        _Pragma("unroll")                                                      \
        for (int j_ = 2; j_ < CZ_MN; j_ += 2) {                                \
            (e)[j_] = cz__madclo_cc(m_, (P)[j_], (e)[j_]);                 \
            (e)[j_ + 1] = cz__madchi_cc(m_, (P)[j_], (e)[j_ + 1]);         \
        }                                                                      \
        (o)[CZ_MN - 1] = cz__addc((o)[CZ_MN - 1], 0);                          \
        CZ__EO_SHIFT(e, o);                                                    \
    } while (0)
#define cz__madlo_cc_ADD cz__add_cc
#define cz__madclo_cc_ADD cz__addc_cc
#else
#define CZ__EO_REDC(e, o, P, FIRST_O) CZ__EO_REDC_GENERIC(e, o, P, FIRST_O)
#endif

/*
 * FIRST_O above is cz__madlo_cc where the caller consumes E'[0]'s pending
 * carry itself before the next step (mul's product rows do), cz__madclo_cc
 * where the next step follows at once and must take it in (redc_wide).
 */

/*
 * a*b*R^-1 mod m + (0 or mod): below 2 mod, before mul's last conditional
 * subtraction. Needs a < mod and b < mod, or (with CZ_MMOD2, mod < R/4)
 * a < 2 mod and b < 2 mod: the product is then (ab + q mod)/R < (4 mod^2 +
 * R mod)/R < 2 mod, and every row's accumulator stays below 6 mod 2^32 <
 * 2^(32*CZ_MN+32), so the chains below keep their carry bounds.
 */
CZ__DI CZ_MT CZ_MF(mul_lz)(const CZ_MT a, const CZ_MT b)
{
    uint32_t e[CZ_MN], o[CZ_MN], p[CZ_MN];
#pragma unroll
    for (int j = 0; j < CZ_MN; j++) p[j] = CZ_MMOD[j];
    const uint32_t b0 = b.l[0];
#pragma unroll
    for (int j = 0; j < CZ_MN; j += 2) {
        e[j] = a.l[j] * b0;
        e[j + 1] = __umulhi(a.l[j], b0);
        o[j] = a.l[j + 1] * b0;
        o[j + 1] = __umulhi(a.l[j + 1], b0);
    }
    CZ__EO_REDC(e, o, p, cz__madlo_cc);
#pragma unroll
    for (int i = 1; i < CZ_MN; i++) {
        const uint32_t bi = b.l[i];
        o[0] = cz__madclo_cc(bi, a.l[1], o[0]);     /* takes the pending carry */
        o[1] = cz__madchi_cc(bi, a.l[1], o[1]);
#pragma unroll
        for (int j = 3; j < CZ_MN - 1; j += 2) {
            o[j - 1] = cz__madclo_cc(bi, a.l[j], o[j - 1]);
            o[j] = cz__madchi_cc(bi, a.l[j], o[j]);
        }
        o[CZ_MN - 2] = cz__madclo_cc(bi, a.l[CZ_MN - 1], o[CZ_MN - 2]);
        o[CZ_MN - 1] = cz__madchi(bi, a.l[CZ_MN - 1], o[CZ_MN - 1]);
        e[0] = cz__madlo_cc(bi, a.l[0], e[0]);
        e[1] = cz__madchi_cc(bi, a.l[0], e[1]);
#pragma unroll
        for (int j = 2; j < CZ_MN; j += 2) {
            e[j] = cz__madclo_cc(bi, a.l[j], e[j]);
            e[j + 1] = cz__madchi_cc(bi, a.l[j], e[j + 1]);
        }
        o[CZ_MN - 1] = cz__addc(o[CZ_MN - 1], 0);
        CZ__EO_REDC(e, o, p, cz__madlo_cc);
    }
    /* T = E + 2^32 O, with E[0]'s carry still pending */
    CZ_MT r;
    r.l[0] = e[0];
#pragma unroll
    for (int j = 1; j < CZ_MN - 1; j++) r.l[j] = cz__addc_cc(e[j], o[j - 1]);
    r.l[CZ_MN - 1] = cz__addc(e[CZ_MN - 1], o[CZ_MN - 2]);
    return r;
}

/* a*b*R^-1 mod m, fully reduced. Needs a < mod and b < mod. */
CZ__DI CZ_MT CZ_MF(mul)(const CZ_MT a, const CZ_MT b)
{
    return CZ_MF(reduce_once)(CZ_MF(mul_lz)(a, b));
}

/*
 * ---- squaring: a double-width product and its reduction -------------------
 *
 * Squaring as a double-width product, then one Montgomery reduction: the
 * cross products a_i a_j (i < j) are made once and doubled, so the product
 * takes CZ_MN(CZ_MN-1)/2 + CZ_MN limb products, not CZ_MN^2. Measured on the
 * H200: the G1 MSM's accumulation (8M + 2S per addition) 3.6% faster.
 *
 * The products are added as lo/hi pairs into two accumulators, X for the
 * pairs that start at an even word and Y for those at an odd one, so every
 * pair lands on an aligned register pair (ptxas fuses it into one
 * IMAD.WIDE.U32, as in mul) and each row is one carry chain per accumulator.
 * A row's chain ends with its carry added into the word after its last
 * pair. That word is never covered by an earlier chain of its accumulator
 * (the chains' last words do not decrease from row to row) and takes at most
 * two such carries before a later chain covers it, so the carry add cannot
 * overflow; and a partial sum of the product never exceeds the product, so
 * no chain carries out of the top word.
 */

/* acc += ai * a_j * 2^(32(i+j)) for j = j0, j0+2, ... < CZ_MN (pairs of one start parity). */
CZ__DI void CZ_MF(add_row)(uint32_t *acc, uint32_t ai, const uint32_t *a, int i, int j0)
{
    if (j0 >= CZ_MN)
        return;
    acc[i + j0] = cz__madlo_cc(ai, a[j0], acc[i + j0]);
    acc[i + j0 + 1] = cz__madchi_cc(ai, a[j0], acc[i + j0 + 1]);
#pragma unroll
    for (int j = j0 + 2; j < CZ_MN; j += 2) {
        acc[i + j] = cz__madclo_cc(ai, a[j], acc[i + j]);
        acc[i + j + 1] = cz__madchi_cc(ai, a[j], acc[i + j + 1]);
    }
    const int after = i + j0 + 2 * ((CZ_MN - 1 - j0) / 2) + 2;
    if (after < 2 * CZ_MN)
        acc[after] = cz__addc(acc[after], 0);
}

/* t = x + y, 2*CZ_MN words; the sum fits (it is a partial product). */
CZ__DI void CZ_MF(wide_sum)(uint32_t *t, const uint32_t *x, const uint32_t *y)
{
    t[0] = cz__add_cc(x[0], y[0]);
#pragma unroll
    for (int k = 1; k < 2 * CZ_MN - 1; k++) t[k] = cz__addc_cc(x[k], y[k]);
    t[2 * CZ_MN - 1] = cz__addc(x[2 * CZ_MN - 1], y[2 * CZ_MN - 1]);
}

/* t = a^2 as 2*CZ_MN words: the cross products once, doubled, plus the squares. */
CZ__DI void CZ_MF(wide_sqr)(uint32_t *t, const CZ_MT a)
{
    uint32_t x[2 * CZ_MN], y[2 * CZ_MN];
#pragma unroll
    for (int k = 0; k < 2 * CZ_MN; k++) x[k] = y[k] = 0;
#pragma unroll
    for (int i = 0; i < CZ_MN - 1; i++) {
        CZ_MF(add_row)(y, a.l[i], a.l, i, i + 1);            /* pairs at 2i+1, 2i+3, ... */
        CZ_MF(add_row)(x, a.l[i], a.l, i, i + 2);            /* pairs at 2i+2, 2i+4, ... */
    }
    CZ_MF(wide_sum)(t, x, y);
    /* the cross sum is below a^2 / 2, so doubling it keeps 2*CZ_MN words */
#pragma unroll
    for (int k = 2 * CZ_MN - 1; k > 0; k--) t[k] = __funnelshift_l(t[k - 1], t[k], 1);
    t[0] <<= 1;
    t[0] = cz__madlo_cc(a.l[0], a.l[0], t[0]);
    t[1] = cz__madchi_cc(a.l[0], a.l[0], t[1]);
#pragma unroll
    for (int i = 1; i < CZ_MN - 1; i++) {
        t[2 * i] = cz__madclo_cc(a.l[i], a.l[i], t[2 * i]);
        t[2 * i + 1] = cz__madchi_cc(a.l[i], a.l[i], t[2 * i + 1]);
    }
    t[2 * CZ_MN - 2] = cz__madclo_cc(a.l[CZ_MN - 1], a.l[CZ_MN - 1], t[2 * CZ_MN - 2]);
    t[2 * CZ_MN - 1] = cz__madchi(a.l[CZ_MN - 1], a.l[CZ_MN - 1], t[2 * CZ_MN - 1]);
}

/*
 * t * R^-1 mod m + (0 or mod), for t < mod * R (t as 2*CZ_MN words). The
 * CZ_MN reduction steps see only the low half L (the multiples they add are
 * chosen from the low words), so REDC(t) = (L + q mod)/R + H with
 * (L + q mod)/R <= mod and H < mod: below 2 mod, one conditional
 * subtraction from fully reduced. (For t = a^2 with a < 2 mod < R/2, H =
 * a^2/R < mod still holds.)
 */
CZ__DI CZ_MT CZ_MF(redc_wide_lz)(const uint32_t *t)
{
    uint32_t e[CZ_MN], o[CZ_MN], p[CZ_MN];
#pragma unroll
    for (int j = 0; j < CZ_MN; j++) {
        p[j] = CZ_MMOD[j];
        e[j] = t[j];
        o[j] = 0;
    }
    CZ__EO_REDC(e, o, p, cz__madlo_cc);
#pragma unroll
    for (int i = 1; i < CZ_MN; i++)
        CZ__EO_REDC(e, o, p, cz__madclo_cc);
    CZ_MT r;
    r.l[0] = e[0];
#pragma unroll
    for (int j = 1; j < CZ_MN - 1; j++) r.l[j] = cz__addc_cc(e[j], o[j - 1]);
    r.l[CZ_MN - 1] = cz__addc(e[CZ_MN - 1], o[CZ_MN - 2]);
    r.l[0] = cz__add_cc(r.l[0], t[CZ_MN]);
#pragma unroll
    for (int j = 1; j < CZ_MN - 1; j++) r.l[j] = cz__addc_cc(r.l[j], t[CZ_MN + j]);
    r.l[CZ_MN - 1] = cz__addc(r.l[CZ_MN - 1], t[2 * CZ_MN - 1]);
    return r;
}
#undef CZ__EO_REDC
#undef CZ__EO_REDC_GENERIC
#undef CZ__EO_SHIFT
#ifdef CZ_MR1
#undef cz__madlo_cc_ADD
#undef cz__madclo_cc_ADD
#endif

CZ__DI CZ_MT CZ_MF(redc_wide)(const uint32_t *t)
{
    return CZ_MF(reduce_once)(CZ_MF(redc_wide_lz)(t));
}

/* a^2 R^-1, below 2 mod (the input bounds of mul_lz). */
CZ__DI CZ_MT CZ_MF(sqr_lz)(const CZ_MT a)
{
    uint32_t t[2 * CZ_MN];
    CZ_MF(wide_sqr)(t, a);
    return CZ_MF(redc_wide_lz)(t);
}

/* a^2 R^-1: 234 fused limb products against mul's 300 for CZ_MN = 12 (66 + 12 + 156). */
CZ__DI CZ_MT CZ_MF(sqr)(const CZ_MT a)
{
    return CZ_MF(reduce_once)(CZ_MF(sqr_lz)(a));
}

#ifdef CZ_MMOD2
/*
 * ---- lazy reduction: values in [0, 2 mod) ---------------------------------
 *
 * For a modulus below R/4 (Fp: p < 2^381, R = 2^384) products of values
 * below 2 mod stay below 2 mod (mul_lz), so a chain of operations may skip
 * each product's last conditional subtraction, about 25 instructions on
 * the critical path between two dependent products, and reduce once at
 * its end (canon). Sums and differences are kept in [0, 2 mod) against
 * 2 mod. Zero has two forms there: 0 and mod.
 */

/* a - 2 mod if a >= 2 mod, else a; for a < 4 mod < R. */
CZ__DI CZ_MT CZ_MF(reduce_once2)(const CZ_MT a)
{
    CZ_MT t;
    t.l[0] = cz__sub_cc(a.l[0], CZ_MMOD2[0]);
#pragma unroll
    for (int i = 1; i < CZ_MN; i++) t.l[i] = cz__subc_cc(a.l[i], CZ_MMOD2[i]);
    uint32_t borrow = cz__subc(0, 0);
    CZ_MT r;
#pragma unroll
    for (int i = 0; i < CZ_MN; i++) r.l[i] = borrow ? a.l[i] : t.l[i];
    return r;
}

/* The fully reduced form of a < 2 mod. */
CZ__DI CZ_MT CZ_MF(canon)(const CZ_MT a) { return CZ_MF(reduce_once)(a); }

CZ__DI bool CZ_MF(is_zero_lz)(const CZ_MT a)
{
    uint32_t z = 0, m = 0;
#pragma unroll
    for (int i = 0; i < CZ_MN; i++) {
        z |= a.l[i];
        m |= a.l[i] ^ CZ_MMOD[i];
    }
    return z == 0 || m == 0;
}

CZ__DI CZ_MT CZ_MF(add_lz)(const CZ_MT a, const CZ_MT b)
{
    CZ_MT s;                                   /* a + b < 4 mod < R */
    s.l[0] = cz__add_cc(a.l[0], b.l[0]);
#pragma unroll
    for (int i = 1; i < CZ_MN - 1; i++) s.l[i] = cz__addc_cc(a.l[i], b.l[i]);
    s.l[CZ_MN - 1] = cz__addc(a.l[CZ_MN - 1], b.l[CZ_MN - 1]);
    return CZ_MF(reduce_once2)(s);
}

CZ__DI CZ_MT CZ_MF(dbl_lz)(const CZ_MT a) { return CZ_MF(add_lz)(a, a); }

CZ__DI CZ_MT CZ_MF(sub_lz)(const CZ_MT a, const CZ_MT b)
{
    CZ_MT d;
    d.l[0] = cz__sub_cc(a.l[0], b.l[0]);
#pragma unroll
    for (int i = 1; i < CZ_MN; i++) d.l[i] = cz__subc_cc(a.l[i], b.l[i]);
    uint32_t mask = cz__subc(0, 0);            /* all ones when a < b: add 2 mod back */
    d.l[0] = cz__add_cc(d.l[0], CZ_MMOD2[0] & mask);
#pragma unroll
    for (int i = 1; i < CZ_MN - 1; i++) d.l[i] = cz__addc_cc(d.l[i], CZ_MMOD2[i] & mask);
    d.l[CZ_MN - 1] = cz__addc(d.l[CZ_MN - 1], CZ_MMOD2[CZ_MN - 1] & mask);
    return d;
}

/*
 * (a b - c d) R^-1 mod m, below 2 mod, for a, b, c, d < 2 mod: one
 * reduction for the two products (REDC(ab) - REDC(cd) = REDC(ab - cd);
 * Matter Labs' ZPrize MSM). The G1 mixed addition's Y3 = R(Q - X3) - Y1 PPP
 * takes it: G1 MSM 2^24 114.0 -> 111.1 ms on the H100 (docs/PERFORMANCE.md,
 * 2026-12-06).
 * With d' = 2 mod - d (sub_lz of 0), t = a b + c d' = ab - cd (mod m) and
 * 0 <= t < 8 mod^2; 8 mod < R, so t's high half H = t / R < mod and
 * redc_wide_lz's result (L + q mod)/R + H stays below 2 mod. The two
 * products go into the same parity accumulators row by row (row i of ab,
 * then row i of cd'): every chain of an accumulator still ends no earlier
 * than the one before, so a chain's carry word is one no chain covered yet
 * (at most four carries land there first), as in wide_sqr.
 */
CZ__DI CZ_MT CZ_MF(mul2_sub_lz)(const CZ_MT a, const CZ_MT b, const CZ_MT c, const CZ_MT d)
{
    const CZ_MT dn = CZ_MF(sub_lz)(CZ_MF(zero)(), d);
    uint32_t x[2 * CZ_MN], y[2 * CZ_MN], t[2 * CZ_MN];
#pragma unroll
    for (int k = 0; k < 2 * CZ_MN; k++) x[k] = y[k] = 0;
#pragma unroll
    for (int i = 0; i < CZ_MN; i++) {
        uint32_t *even = (i & 1) ? y : x, *odd = (i & 1) ? x : y;
        CZ_MF(add_row)(even, a.l[i], b.l, i, 0);
        CZ_MF(add_row)(odd, a.l[i], b.l, i, 1);
        CZ_MF(add_row)(even, c.l[i], dn.l, i, 0);
        CZ_MF(add_row)(odd, c.l[i], dn.l, i, 1);
    }
    CZ_MF(wide_sum)(t, x, y);
    return CZ_MF(redc_wide_lz)(t);
}
#endif /* CZ_MMOD2 */

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

/*
 * a^-1; the inverse of 0 is 0. Not constant time (public data only).
 * Binary extended Euclid (bin_inv.cuh) on the Montgomery representative
 * A = a R yields A^-1 = a^-1 R^-1; one Montgomery product by R^3 mod m
 * (CZ_MR3) makes that a^-1 R. One inversion's latency: 0.426 ms against
 * Fermat's 0.506 (~570 dependent products), as the launch of a batch-affine
 * round in `cuzk bench affine` (H100, 2026-12-07).
 */
static __device__ __noinline__ CZ_MT CZ_MF(inverse)(const CZ_MT a)
{
    uint32_t m[CZ_MN];
    CZ_MT r, r3;
#pragma unroll
    for (int i = 0; i < CZ_MN; i++) {
        m[i] = CZ_MMOD[i];
        r3.l[i] = CZ_MR3[i];
    }
    cz__bin_inverse(r.l, a.l, m, CZ_MN);
    return CZ_MF(mul)(r, r3);
}
