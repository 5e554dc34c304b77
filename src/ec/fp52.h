/*
 * ec/fp52.h — Fp and Fp2 of BLS12-381, eight elements at a time, on AVX-512
 * IFMA (internal to ec/affine_ifma.c; x86-64 only, every function compiled
 * for avx512f+ifma, so callers must check the CPU first).
 *
 * An Fp element is 8 limbs of 52 bits in the Montgomery domain of
 * R = 2^416 (a stands for a*R mod p). Eight elements are processed at once,
 * one per 64-bit lane: an |fv| holds limb k of eight elements in its k-th
 * vector. The product is schoolbook with vpmadd52luq/vpmadd52huq: 64 + 64
 * for a*b, 8 for the Montgomery factors, 128 for m*p; per element that is
 * ~4-6 ns on Zen 5 against ~28 ns for blst's mulx code.
 *
 * Bounds. IFMA reads only the low 52 bits of a limb, so every operand of a
 * product has normalised limbs. A product of two values below 8p is below
 * (64p^2 + R p) / R < 2p since R > 2^35 p; sums and differences (a - b + kp,
 * k p >= b) stay below 8p; fv_canon brings values below 4p to [0, p).
 * Fp2 = Fp[u]/(u^2 + 1); its products leave both components below 2p.
 */
#ifndef CUZK_EC_FP52_H
#define CUZK_EC_FP52_H

#include <immintrin.h>
#include <stdint.h>

#define TGT __attribute__((target("avx512f,avx512ifma,avx512vl,avx512dq,avx512bw")))
#define INL static inline __attribute__((always_inline)) TGT

typedef __m512i vec;
typedef struct {
    vec l[8];
} fv; /* limb k of 8 Fp elements */
typedef struct {
    fv c[2];
} fv2; /* 8 Fp2 elements c0 + c1 u */

#define M52 0xfffffffffffffull
/* -p^-1 mod 2^52 */
#define N0 0x3fffcfffcfffdull
static const uint64_t P52[8] = {
    0xeffffffffaaab, 0xfeb153ffffb9f, 0x6b0f6241eabff, 0x12bf6730d2a0f,
    0x764774b84f385, 0x1ba7b6434bacd, 0x1ea397fe69a4b, 0x000000001a011
};
static const uint64_t P2_52[8] = { 0xdffffffff5556, 0xfd62a7ffff73f, 0xd61ec483d57ff,
                                   0x257ece61a541e, 0xec8ee9709e70a, 0x374f6c869759a,
                                   0x3d472ffcd3496, 0x0000000034022 };
/* R mod p: one */
static const uint64_t ONE52[8] = { 0x6480ea8e9b9af, 0x65766c8fe444f, 0x8b540fea96f7d,
                                   0x3b2ee82efd422, 0xa6723e5f0ade5, 0xff6eb6fdd4230,
                                   0xe06ef23c24a25, 0x0000000014c8e };

static const uint64_t P4_52[8] = { 0xbfffffffeaaac, 0xfac54ffffee7f, 0xac3d8907aafff,
                                   0x4afd9cc34a83d, 0xd91dd2e13ce14, 0x6e9ed90d2eb35,
                                   0x7a8e5ff9a692c, 0x0000000068044 };
static const uint64_t ZERO52[8] = { 0 };

/* ---- Fp ------------------------------------------------------------------- */

INL vec bc(uint64_t x)
{
    return _mm512_set1_epi64((long long)x);
}

INL void fv_const(fv *r, const uint64_t c[8])
{
    for (int i = 0; i < 8; i++)
        r->l[i] = bc(c[i]);
}

/* carries up, limbs to 52 bits; |sgn|: arithmetic shifts (limbs may be negative) */
INL void fv_norm(fv *r, int sgn)
{
    const vec m = bc(M52);
#pragma GCC unroll 7
    for (int i = 0; i < 7; i++) {
        vec c = sgn ? _mm512_srai_epi64(r->l[i], 52) : _mm512_srli_epi64(r->l[i], 52);
        r->l[i + 1] = _mm512_add_epi64(r->l[i + 1], c);
        r->l[i] = _mm512_and_si512(r->l[i], m);
    }
}

/* r = a * b / R mod p, < 2p; a, b normalised and below 4p */
INL void fv_mul(fv *r, const fv *a, const fv *b)
{
    vec t[16];
    const vec z = _mm512_setzero_si512();
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        t[i] = z;
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
#pragma GCC unroll 8
        for (int j = 0; j < 8; j++) {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], a->l[i], b->l[j]);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a->l[i], b->l[j]);
        }
    }
    const vec n0 = bc(N0);
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        vec m = _mm512_madd52lo_epu64(z, t[i], n0); /* t_i + m p_0 = 0 mod 2^52 */
#pragma GCC unroll 8
        for (int j = 0; j < 8; j++) {
            vec pj = bc(P52[j]);
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], m, pj);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], m, pj);
        }
        t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
    }
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++)
        r->l[i] = t[8 + i];
    fv_norm(r, 0);
}

/* r = a^2 / R mod p, < 2p: the cross products once, doubled (72 + 136 IFMA) */
INL void fv_sqr(fv *r, const fv *a)
{
    vec t[16];
    const vec z = _mm512_setzero_si512();
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        t[i] = z;
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
#pragma GCC unroll 8
        for (int j = i + 1; j < 8; j++) {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], a->l[i], a->l[j]);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a->l[i], a->l[j]);
        }
    }
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        t[i] = _mm512_add_epi64(t[i], t[i]);
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        t[2 * i] = _mm512_madd52lo_epu64(t[2 * i], a->l[i], a->l[i]);
        t[2 * i + 1] = _mm512_madd52hi_epu64(t[2 * i + 1], a->l[i], a->l[i]);
    }
    const vec n0 = bc(N0);
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        vec m = _mm512_madd52lo_epu64(z, t[i], n0);
#pragma GCC unroll 8
        for (int j = 0; j < 8; j++) {
            vec pj = bc(P52[j]);
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], m, pj);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], m, pj);
        }
        t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
    }
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++)
        r->l[i] = t[8 + i];
    fv_norm(r, 0);
}

/* r = a + b */
INL void fv_add(fv *r, const fv *a, const fv *b)
{
    for (int i = 0; i < 8; i++)
        r->l[i] = _mm512_add_epi64(a->l[i], b->l[i]);
    fv_norm(r, 0);
}

/* r = a - b + k (k a multiple of p at least b) */
INL void fv_sub(fv *r, const fv *a, const fv *b, const uint64_t k[8])
{
    for (int i = 0; i < 8; i++)
        r->l[i] = _mm512_add_epi64(_mm512_sub_epi64(a->l[i], b->l[i]), bc(k[i]));
    fv_norm(r, 1);
}

/* r = a >= k ? a - k : a */
INL void fv_csub(fv *r, const fv *a, const uint64_t k[8])
{
    fv t;
    for (int i = 0; i < 8; i++)
        t.l[i] = _mm512_sub_epi64(a->l[i], bc(k[i]));
    fv_norm(&t, 1);
    __mmask8 neg = _mm512_movepi64_mask(t.l[7]);
    for (int i = 0; i < 8; i++)
        r->l[i] = _mm512_mask_blend_epi64(neg, t.l[i], a->l[i]);
}

/* r = [0, p) representative of a < 4p */
INL void fv_canon(fv *r, const fv *a)
{
    fv_csub(r, a, P2_52);
    fv_csub(r, r, P52);
}

/* lanes of y negated where |neg| (y canonical and non-zero: p - y) */
INL void fv_cneg(fv *y, __mmask8 neg)
{
    if (!neg)
        return;
    fv p, t;
    fv_const(&p, P52);
    fv_sub(&t, &p, y, (const uint64_t[8]){ 0 });
    for (int i = 0; i < 8; i++)
        y->l[i] = _mm512_mask_blend_epi64(neg, y->l[i], t.l[i]);
}

INL __mmask8 fv_eq(const fv *a, const fv *b)
{
    __mmask8 eq = 0xff;
    for (int i = 0; i < 8; i++)
        eq &= _mm512_cmpeq_epi64_mask(a->l[i], b->l[i]);
    return eq;
}

/* ---- Fp2 ------------------------------------------------------------------ */

INL void fv2_add(fv2 *r, const fv2 *a, const fv2 *b)
{
    fv_add(&r->c[0], &a->c[0], &b->c[0]);
    fv_add(&r->c[1], &a->c[1], &b->c[1]);
}

INL void fv2_sub(fv2 *r, const fv2 *a, const fv2 *b, const uint64_t k[8])
{
    fv_sub(&r->c[0], &a->c[0], &b->c[0], k);
    fv_sub(&r->c[1], &a->c[1], &b->c[1], k);
}

INL void fv2_canon(fv2 *r, const fv2 *a)
{
    fv_canon(&r->c[0], &a->c[0]);
    fv_canon(&r->c[1], &a->c[1]);
}

/* lanes negated where |neg|, canonical (a zero component stays zero) */
INL void fv2_cneg(fv2 *y, __mmask8 neg)
{
    if (!neg)
        return;
    for (int k = 0; k < 2; k++) {
        fv p, t;
        fv_const(&p, P52);
        fv_sub(&t, &p, &y->c[k], ZERO52);
        fv_csub(&t, &t, P52);
        for (int i = 0; i < 8; i++)
            y->c[k].l[i] = _mm512_mask_blend_epi64(neg, y->c[k].l[i], t.l[i]);
    }
}

INL __mmask8 fv2_eq(const fv2 *a, const fv2 *b)
{
    return fv_eq(&a->c[0], &b->c[0]) & fv_eq(&a->c[1], &b->c[1]);
}

/* (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u: 3M */
INL void fv2_mul(fv2 *r, const fv2 *a, const fv2 *b)
{
    fv t0, t1, t2, sa, sb;
    fv_mul(&t0, &a->c[0], &b->c[0]);
    fv_mul(&t1, &a->c[1], &b->c[1]);
    fv_add(&sa, &a->c[0], &a->c[1]);
    fv_add(&sb, &b->c[0], &b->c[1]);
    fv_mul(&t2, &sa, &sb);
    fv_sub(&r->c[0], &t0, &t1, P2_52); /* < 4p */
    fv_csub(&r->c[0], &r->c[0], P2_52);
    fv_sub(&t2, &t2, &t0, P2_52);
    fv_sub(&r->c[1], &t2, &t1, P2_52); /* < 6p */
    fv_csub(&r->c[1], &r->c[1], P4_52);
    fv_csub(&r->c[1], &r->c[1], P2_52);
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u: 2M */
INL void fv2_sqr(fv2 *r, const fv2 *a)
{
    fv s, d, m;
    fv_add(&s, &a->c[0], &a->c[1]);
    fv_sub(&d, &a->c[0], &a->c[1], P4_52);
    fv_mul(&m, &a->c[0], &a->c[1]);
    fv_mul(&r->c[0], &s, &d);
    fv_add(&r->c[1], &m, &m);
    fv_csub(&r->c[1], &r->c[1], P2_52);
}

/* ---- rows of points <-> limb vectors ---------------------------------------- */

/* 8x8 transpose of 64-bit elements: rows of points <-> limb vectors */
INL void transpose8(vec r[8])
{
    const vec i0 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    const vec i1 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    const vec j0 = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
    const vec j1 = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    vec t[8], s[8];
    for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm512_unpacklo_epi64(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_epi64(r[2 * k], r[2 * k + 1]);
    }
    /* s0: .0 of rows 0-3 | .4 of rows 0-3; s1: .1|.5; s2: .2|.6; s3: .3|.7 (s4-s7: rows 4-7) */
    for (int h = 0; h < 2; h++) {
        s[4 * h + 0] = _mm512_permutex2var_epi64(t[4 * h + 0], i0, t[4 * h + 2]);
        s[4 * h + 1] = _mm512_permutex2var_epi64(t[4 * h + 1], i0, t[4 * h + 3]);
        s[4 * h + 2] = _mm512_permutex2var_epi64(t[4 * h + 0], i1, t[4 * h + 2]);
        s[4 * h + 3] = _mm512_permutex2var_epi64(t[4 * h + 1], i1, t[4 * h + 3]);
    }
    for (int k = 0; k < 4; k++) {
        r[k] = _mm512_permutex2var_epi64(s[k], j0, s[k + 4]);
        r[k + 4] = _mm512_permutex2var_epi64(s[k], j1, s[k + 4]);
    }
}

/* ---- blst's 64-bit words <-> limbs ------------------------------------------ */

/* 6 words per lane (blst's Fp) -> 8 limbs of 52 bits, same value */
INL void words_to_fv(fv *r, const vec w[8])
{
    const vec m = bc(M52);
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        int bit = 52 * i, k = bit / 64, sh = bit % 64;
        vec v = _mm512_srli_epi64(w[k], (unsigned)sh);
        if (sh > 12 && k + 1 < 6)
            v = _mm512_or_si512(v, _mm512_slli_epi64(w[k + 1], (unsigned)(64 - sh)));
        r->l[i] = _mm512_and_si512(v, m);
    }
}

/* 8 normalised limbs -> 6 words per lane (w[6], w[7] zero) */
INL void fv_to_words(vec w[8], const fv *a)
{
#pragma GCC unroll 6
    for (int k = 0; k < 6; k++) {
        vec v = _mm512_setzero_si512();
#pragma GCC unroll 8
        for (int i = 0; i < 8; i++) {
            int sh = 52 * i - 64 * k;
            if (sh <= -52 || sh >= 64)
                continue;
            v = _mm512_or_si512(v, sh >= 0 ? _mm512_slli_epi64(a->l[i], (unsigned)sh)
                                           : _mm512_srli_epi64(a->l[i], (unsigned)-sh));
        }
        w[k] = v;
    }
    w[6] = w[7] = _mm512_setzero_si512();
}

/*
 * r = x 2^32 mod p, canonical, for canonical x: from blst's domain (a 2^384)
 * to ours (a 2^416) without a product. y = x << 32 < 2^413; q = floor(y/p)
 * < 2^33 is estimated from y's top 64 bits in double precision and
 * lowered by one, so 0 <= y - q p < 4p (16 IFMA for q p).
 */
INL void fv_shl32_mod(fv *r, const fv *x)
{
    const vec m = bc(M52), z = _mm512_setzero_si512();
    fv y;
    y.l[0] = _mm512_and_si512(_mm512_slli_epi64(x->l[0], 32), m);
    for (int i = 1; i < 8; i++) /* x < 2^381: nothing leaves limb 7 */
        y.l[i] = _mm512_and_si512(_mm512_or_si512(_mm512_slli_epi64(x->l[i], 32),
                                                  _mm512_srli_epi64(x->l[i - 1], 20)),
                                  m);
    vec top = _mm512_or_si512(_mm512_slli_epi64(y.l[7], 15), _mm512_srli_epi64(y.l[6], 37));
    __m512d q = _mm512_div_pd(_mm512_cvtepu64_pd(top), _mm512_set1_pd(3490221906.0));
    q = _mm512_roundscale_pd(q, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    q = _mm512_max_pd(_mm512_sub_pd(q, _mm512_set1_pd(1.0)), _mm512_setzero_pd());
    vec qi = _mm512_cvttpd_epu64(q);
    /* y - q p; q p_7 < 2^50, so nothing reaches limb 8 */
    for (int j = 0; j < 8; j++) {
        vec pj = bc(P52[j]);
        y.l[j] = _mm512_sub_epi64(y.l[j], _mm512_madd52lo_epu64(z, qi, pj));
        if (j < 7)
            y.l[j + 1] = _mm512_sub_epi64(y.l[j + 1], _mm512_madd52hi_epu64(z, qi, pj));
    }
    fv_norm(&y, 1);
    fv_canon(r, &y);
}

/*
 * r = x 2^-32 mod p, canonical, for x < 2p: (x + m p) / 2^32 with
 * m = -x p^-1 mod 2^32, from our domain back to blst's.
 */
INL void fv_shr32_mod(fv *r, const fv *x)
{
    const vec m = bc(M52), z = _mm512_setzero_si512();
    vec mq = _mm512_and_si512(_mm512_madd52lo_epu64(z, x->l[0], bc(N0)), bc(0xffffffffull));
    fv t;
    for (int j = 0; j < 8; j++)
        t.l[j] = x->l[j];
    for (int j = 0; j < 8; j++) { /* mq p_7 < 2^49: nothing reaches limb 8 */
        vec pj = bc(P52[j]);
        t.l[j] = _mm512_madd52lo_epu64(t.l[j], mq, pj);
        if (j < 7)
            t.l[j + 1] = _mm512_madd52hi_epu64(t.l[j + 1], mq, pj);
    }
    fv_norm(&t, 0); /* the low 32 bits are now zero */
    for (int i = 0; i < 7; i++)
        t.l[i] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(t.l[i], 32),
                                                  _mm512_slli_epi64(t.l[i + 1], 20)),
                                  m);
    t.l[7] = _mm512_srli_epi64(t.l[7], 32);
    fv_csub(r, &t, P52);
}

#endif /* CUZK_EC_FP52_H */
