/*
 * ec/affine_ifma.c — the AVX-512 IFMA batched affine backend for G1
 * (ec/affine.h), chosen at run time on x86-64 CPUs with avx512ifma.
 *
 * Field. An Fp element is 8 limbs of 52 bits in the Montgomery domain of
 * R = 2^416 (a stands for a*R mod p). Eight elements are processed at once,
 * one per 64-bit lane: an |fv| holds limb k of eight elements in its k-th
 * vector. The product is schoolbook with vpmadd52luq/vpmadd52huq: 64 + 64
 * for a*b, 8 for the Montgomery factors, 128 for m*p; per element that is
 * ~4-6 ns on Zen 5 against ~28 ns for blst's mulx code, the whole reason
 * this file exists.
 *
 * Bounds. IFMA reads only the low 52 bits of a limb, so every operand of a
 * product has normalised limbs. Stored coordinates are canonical ([0, p)),
 * so x_A == x_B is a limb compare. Intermediates stay below 4p; a product
 * of two values below 4p is below (16p^2 + R p) / R < 2p since R > 2^35 p.
 * Differences add a multiple of p first (a - b + kp > 0) and renormalise
 * with arithmetic shifts; results go back to [0, p) by conditional
 * subtractions of 2p and p.
 *
 * Points are { x[8], y[8] } limbs (128 bytes) and reach the kernel through
 * references (ec/affine.h) gathered lane by lane (vpgatherqq). The batch
 * inversion keeps one product chain per lane; the eight lane products are
 * inverted together by blst (one blst_fp_inverse, Montgomery's trick).
 *
 * NOT constant time.
 */
#include <string.h>

#include "ec/affine.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_IFMA 1
#endif

#ifndef HAVE_IFMA
const cz__aff_ops *cz__aff_g1_ifma(void)
{
    return NULL;
}
#else

#include <immintrin.h>

#define TGT __attribute__((target("avx512f,avx512ifma,avx512vl,avx512dq,avx512bw")))
#define INL static inline __attribute__((always_inline)) TGT

typedef __m512i vec;
typedef struct { vec l[8]; } fv;              /* limb k of 8 field elements */
typedef struct { uint64_t x[8], y[8]; } pt52;   /* one stored point */

#define M52 0xfffffffffffffull
/* -p^-1 mod 2^52 */
#define N0 0x3fffcfffcfffdull
static const uint64_t P52[8] = { 0xeffffffffaaab, 0xfeb153ffffb9f, 0x6b0f6241eabff,
                                 0x12bf6730d2a0f, 0x764774b84f385, 0x1ba7b6434bacd,
                                 0x1ea397fe69a4b, 0x000000001a011 };
static const uint64_t P2_52[8] = { 0xdffffffff5556, 0xfd62a7ffff73f, 0xd61ec483d57ff,
                                   0x257ece61a541e, 0xec8ee9709e70a, 0x374f6c869759a,
                                   0x3d472ffcd3496, 0x0000000034022 };
/* R mod p: one */
static const uint64_t ONE52[8] = { 0x6480ea8e9b9af, 0x65766c8fe444f, 0x8b540fea96f7d,
                                   0x3b2ee82efd422, 0xa6723e5f0ade5, 0xff6eb6fdd4230,
                                   0xe06ef23c24a25, 0x0000000014c8e };
/* 2^448 mod p as a blst_fp: blst_fp_mul(R^2/v, this) = R'^2/v (see inv_lanes) */
static const blst_fp C448 = { { 0x42b7fde37dba9366, 0x7784894e27525bc3, 0xb2b91b9dc1f5b1e9,
                                0x206f497dfcafb872, 0x594137cc89a9b0bb, 0x0411cd9d20d7e399 } };

/* Two distinct points fill the unused lanes of a last group (results dropped). */
static const pt52 DUMMY[2] = { { { 1 }, { 1 } }, { { 2 }, { 2 } } };

/* ---- 8-lane field arithmetic -------------------------------------------- */

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
        vec m = _mm512_madd52lo_epu64(z, t[i], n0);   /* t_i + m p_0 = 0 mod 2^52 */
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

/* lanes of y negated where |neg| (y canonical and non-zero) */
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

/* ---- scalar helpers: 52-bit limbs <-> blst's 64-bit words ---------------- */

static void limbs_to_words(uint64_t w[6], const uint64_t l[8])
{
    unsigned __int128 acc = 0;
    int bits = 0, k = 0;
    for (int i = 0; i < 8; i++) {
        acc |= (unsigned __int128)l[i] << bits;
        bits += 52;
        if (bits >= 64 && k < 6) {
            w[k++] = (uint64_t)acc;
            acc >>= 64;
            bits -= 64;
        }
    }
    while (k < 6)
        w[k++] = (uint64_t)acc, acc >>= 64;
}

static void words_to_limbs(uint64_t l[8], const uint64_t w[6])
{
    for (int i = 0; i < 8; i++) {
        int bit = 52 * i, k = bit / 64, sh = bit % 64;
        uint64_t v = w[k] >> sh;
        if (sh > 12 && k + 1 < 6)
            v |= w[k + 1] << (64 - sh);
        l[i] = v & M52;
    }
}

/*
 * r = 1 / a lane by lane (a non-zero). With blst's R0 = 2^384: blst sees a
 * stored v as v / R0, its inverse is stored R0^2 / v, and one blst product
 * with 2^448 turns that into R^2 / v, the inverse in our domain.
 */
static TGT void inv_lanes(fv *r, const fv *a)
{
    uint64_t lanes[8][8], out[8][8];
    blst_fp v[8], pre[8], acc, t;
    fv c;
    fv_canon(&c, a);
    for (int i = 0; i < 8; i++)
        _mm512_storeu_si512((void *)lanes[i], c.l[i]);
    for (int j = 0; j < 8; j++) {
        uint64_t l[8];
        for (int i = 0; i < 8; i++)
            l[i] = lanes[i][j];
        limbs_to_words(v[j].l, l);
        pre[j] = v[j];
        if (j)
            blst_fp_mul(&pre[j], &pre[j - 1], &v[j]);
    }
    blst_fp_inverse(&acc, &pre[7]);
    for (int j = 7; j >= 0; j--) {
        if (j) {
            blst_fp_mul(&t, &acc, &pre[j - 1]);
            blst_fp_mul(&acc, &acc, &v[j]);
        } else {
            t = acc;
        }
        blst_fp_mul(&t, &t, &C448);
        uint64_t l[8];
        words_to_limbs(l, t.l);
        for (int i = 0; i < 8; i++)
            out[i][j] = l[i];
    }
    for (int i = 0; i < 8; i++)
        r->l[i] = _mm512_loadu_si512((const void *)out[i]);
}

/* ---- rows of points <-> limb vectors ------------------------------------ */

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

/* the x and y limb vectors of the 8 points at |addr| */
INL void load_points(fv *x, fv *y, const uint64_t addr[8])
{
    for (int j = 0; j < 8; j++) {
        const pt52 *p = (const pt52 *)(uintptr_t)addr[j];
        x->l[j] = _mm512_loadu_si512((const void *)p->x);
        y->l[j] = _mm512_loadu_si512((const void *)p->y);
    }
    transpose8(x->l);
    transpose8(y->l);
}

INL void store_points(const uint64_t addr[8], fv *x, fv *y, __mmask8 mask)
{
    transpose8(x->l);
    transpose8(y->l);
    for (int j = 0; j < 8; j++) {
        __mmask8 m = (__mmask8)(0u - ((mask >> j) & 1u));
        pt52 *p = (pt52 *)(uintptr_t)addr[j];
        _mm512_mask_storeu_epi64((void *)p->x, m, x->l[j]);
        _mm512_mask_storeu_epi64((void *)p->y, m, y->l[j]);
    }
}

/* ---- conversions -------------------------------------------------------- */

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
    for (int i = 1; i < 8; i++)   /* x < 2^381: nothing leaves limb 7 */
        y.l[i] = _mm512_and_si512(_mm512_or_si512(_mm512_slli_epi64(x->l[i], 32),
                                                  _mm512_srli_epi64(x->l[i - 1], 20)), m);
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
    for (int j = 0; j < 8; j++) {   /* mq p_7 < 2^49: nothing reaches limb 8 */
        vec pj = bc(P52[j]);
        t.l[j] = _mm512_madd52lo_epu64(t.l[j], mq, pj);
        if (j < 7)
            t.l[j + 1] = _mm512_madd52hi_epu64(t.l[j + 1], mq, pj);
    }
    fv_norm(&t, 0);   /* the low 32 bits are now zero */
    for (int i = 0; i < 7; i++)
        t.l[i] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(t.l[i], 32),
                                                  _mm512_slli_epi64(t.l[i + 1], 20)), m);
    t.l[7] = _mm512_srli_epi64(t.l[7], 32);
    fv_csub(r, &t, P52);
}

static TGT void ifma_from_blst(void *dst, const void *src, const uint32_t *index, size_t n)
{
    pt52 *d = dst;
    const blst_p1_affine *s = src;
    for (size_t i = 0; i < n; i += 8) {
        size_t cnt = n - i < 8 ? n - i : 8;
        vec xw[8], yw[8];
        for (size_t j = i + 32; j < i + 40 && j < n; j++) {   /* scattered sources */
            const char *p = (const char *)&s[index ? index[j] : j];
            _mm_prefetch(p, _MM_HINT_T0);
            _mm_prefetch(p + 95, _MM_HINT_T0);
        }
        for (size_t j = 0; j < 8; j++) {
            size_t k = i + (j < cnt ? j : 0);
            const blst_p1_affine *p = &s[index ? index[k] : k];
            xw[j] = _mm512_maskz_loadu_epi64(0x3f, (const void *)p->x.l);
            yw[j] = _mm512_maskz_loadu_epi64(0x3f, (const void *)p->y.l);
        }
        transpose8(xw);
        transpose8(yw);
        fv x, y;
        words_to_fv(&x, xw);
        words_to_fv(&y, yw);
        fv_shl32_mod(&x, &x);                                /* a 2^384 -> a R */
        fv_shl32_mod(&y, &y);
        transpose8(x.l);
        transpose8(y.l);
        for (size_t j = 0; j < cnt; j++) {
            _mm512_storeu_si512((void *)d[i + j].x, x.l[j]);
            _mm512_storeu_si512((void *)d[i + j].y, y.l[j]);
        }
    }
}

static TGT void ifma_to_blst(void *dst, const void *src, size_t n)
{
    blst_p1_affine *d = dst;
    const pt52 *s = src;
    for (size_t i = 0; i < n; i += 8) {
        size_t cnt = n - i < 8 ? n - i : 8;
        uint64_t addr[8];
        for (size_t j = 0; j < 8; j++)
            addr[j] = (uint64_t)(uintptr_t)&s[i + (j < cnt ? j : 0)];
        fv x, y;
        vec xw[8], yw[8];
        load_points(&x, &y, addr);
        fv_shr32_mod(&x, &x);                                /* a R -> a 2^384 */
        fv_shr32_mod(&y, &y);
        fv_to_words(xw, &x);
        fv_to_words(yw, &y);
        transpose8(xw);
        transpose8(yw);
        for (size_t j = 0; j < cnt; j++) {
            _mm512_mask_storeu_epi64((void *)d[i + j].x.l, 0x3f, xw[j]);
            _mm512_mask_storeu_epi64((void *)d[i + j].y.l, 0x3f, yw[j]);
        }
    }
}

static void ifma_copy(void *dst, cz__aff_ref ref)
{
    const pt52 *s = (const pt52 *)(ref & ~(uintptr_t)1);
    pt52 *d = dst;
    memcpy(d->x, s->x, sizeof d->x);
    if (!(ref & 1)) {
        memcpy(d->y, s->y, sizeof d->y);
        return;
    }
    int64_t borrow = 0;   /* y = p - y, canonical for y != 0 */
    for (int i = 0; i < 8; i++) {
        int64_t v = (int64_t)P52[i] - (int64_t)s->y[i] + borrow;
        d->y[i] = (uint64_t)v & M52;
        borrow = v >> 52;
    }
}

/* ---- the batched addition kernel ------------------------------------------ */

#define GROUPS 64   /* 8-lane groups per inversion: 512 pairs */

/* per group: the denominators, the prefix products, the operands */
typedef struct {
    fv d, pre, xa, ya, xb, yb;
} group_data;

typedef struct {
    group_data g[GROUPS];
    uint64_t out[GROUPS][8];            /* lane destinations */
    __mmask8 wmask[GROUPS];             /* lanes to write */
    uint32_t exc[8 * GROUPS];           /* pairs with x_A == x_B */
    cz__aff_pair dbl[8 * GROUPS];       /* the doublings among them */
} ifma_scratch;

/*
 * n <= 8 * GROUPS pairs. |dbl|: every pair is A + A (only a is read):
 * l = 3 x^2 / 2 y. Otherwise pairs with x_A == x_B are set aside and either
 * doubled by a second call or reported as the point at infinity.
 */
static TGT void kernel(const cz__aff_pair *pairs, size_t n, uint8_t *inf, ifma_scratch *s,
                       bool dbl)
{
    size_t groups = (n + 7) / 8, nexc = 0;
    fv acc;
    fv_const(&acc, ONE52);
    for (size_t g = 0; g < groups; g++) {
        group_data *gd = &s->g[g];
        uint64_t ra[8], rb[8];
        unsigned na = 0, nb = 0, valid = 0;
        for (size_t j = 0; j < 8; j++) {
            size_t i = 8 * g + j;
            if (i < n) {
                ra[j] = pairs[i].a & ~(uintptr_t)1;
                rb[j] = pairs[i].b & ~(uintptr_t)1;
                s->out[g][j] = (uintptr_t)pairs[i].out;
                na |= (unsigned)(pairs[i].a & 1) << j;
                nb |= (unsigned)(pairs[i].b & 1) << j;
                valid |= 1u << j;
            } else {
                ra[j] = (uintptr_t)&DUMMY[0];
                rb[j] = (uintptr_t)&DUMMY[1];
                s->out[g][j] = (uintptr_t)&DUMMY[0];   /* never written: masked */
            }
        }
        if (g + 2 < groups) {   /* the rows two groups ahead */
            for (size_t i = 8 * (g + 2); i < 8 * (g + 3) && i < n; i++) {
                const uint8_t *pa = (const uint8_t *)(pairs[i].a & ~(uintptr_t)1);
                const uint8_t *pb = (const uint8_t *)(pairs[i].b & ~(uintptr_t)1);
                _mm_prefetch((const char *)pa, _MM_HINT_T0);
                _mm_prefetch((const char *)pa + 64, _MM_HINT_T0);
                _mm_prefetch((const char *)pb, _MM_HINT_T0);
                _mm_prefetch((const char *)pb + 64, _MM_HINT_T0);
            }
        }
        __mmask8 eq = 0;
        load_points(&gd->xa, &gd->ya, ra);
        fv_cneg(&gd->ya, (__mmask8)na);
        if (dbl) {
            gd->xb = gd->xa;
            gd->yb = gd->ya;
            fv_add(&gd->d, &gd->ya, &gd->ya);                /* 2y */
        } else {
            load_points(&gd->xb, &gd->yb, rb);
            fv_cneg(&gd->yb, (__mmask8)nb);
            fv_sub(&gd->d, &gd->xb, &gd->xa, P52);           /* xB - xA + p */
            eq = fv_eq(&gd->xa, &gd->xb) & (__mmask8)valid;
            if (eq) {
                fv one;
                fv_const(&one, ONE52);
                for (int i = 0; i < 8; i++)
                    gd->d.l[i] = _mm512_mask_blend_epi64(eq, gd->d.l[i], one.l[i]);
                for (unsigned j = 0; j < 8; j++)
                    if (eq >> j & 1)
                        s->exc[nexc++] = (uint32_t)(8 * g + j);
            }
        }
        gd->pre = acc;
        fv_mul(&acc, &acc, &gd->d);
        s->wmask[g] = (__mmask8)valid & (__mmask8)~eq;
    }
    fv inv;
    inv_lanes(&inv, &acc);
    for (size_t g = groups; g-- > 0;) {
        group_data *gd = &s->g[g];
        fv id, num, l, x3, y3, t;
        fv_mul(&id, &inv, &gd->pre);                         /* 1/d_g */
        fv_mul(&inv, &inv, &gd->d);
        if (dbl) {
            fv_mul(&num, &gd->xa, &gd->xa);
            fv_add(&t, &num, &num);
            fv_add(&num, &t, &num);                          /* 3x^2 < 6p */
        } else {
            fv_sub(&num, &gd->yb, &gd->ya, P52);             /* yB - yA + p */
        }
        fv_mul(&l, &num, &id);
        fv_mul(&t, &l, &l);
        fv_sub(&x3, &t, &gd->xa, P52);
        fv_sub(&x3, &x3, &gd->xb, P52);                      /* l^2 - xA - xB + 2p < 4p */
        fv_canon(&x3, &x3);
        fv_sub(&t, &gd->xa, &x3, P52);                       /* xA - x3 + p */
        fv_mul(&t, &t, &l);
        fv_sub(&y3, &t, &gd->ya, P52);                       /* l(xA - x3) - yA + p < 3p */
        fv_canon(&y3, &y3);
        store_points(s->out[g], &x3, &y3, s->wmask[g]);
    }
    if (dbl)
        return;
    for (size_t i = 0; i < n; i++)
        inf[i] = 0;
    size_t ndbl = 0;
    for (size_t e = 0; e < nexc; e++) {
        const cz__aff_pair *pr = &pairs[s->exc[e]];
        const pt52 *a = (const pt52 *)(pr->a & ~(uintptr_t)1);
        const pt52 *b = (const pt52 *)(pr->b & ~(uintptr_t)1);
        /* x equal, so y_A = +-y_B: A' == B' when that sign matches the refs' */
        bool same_y = memcmp(a->y, b->y, sizeof a->y) == 0;
        if (same_y == ((pr->a & 1) == (pr->b & 1)))
            s->dbl[ndbl++] = *pr;
        else
            inf[s->exc[e]] = 1;
    }
    if (ndbl)
        kernel(s->dbl, ndbl, NULL, s, true);
}

static void ifma_add_pairs(const cz__aff_pair *pairs, size_t n, uint8_t *inf, void *scratch)
{
    ifma_scratch *s = (ifma_scratch *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    for (size_t at = 0; at < n; at += 8 * GROUPS) {
        size_t m = n - at < 8 * GROUPS ? n - at : 8 * GROUPS;
        kernel(pairs + at, m, inf + at, s, false);
    }
}

static const cz__aff_ops IFMA_G1 = {
    .name = "ifma-g1",
    .group = &CZ_G1,
    .point_size = sizeof(pt52),
    .scratch_size = sizeof(ifma_scratch) + 64,
    .native = false,
    .from_blst = ifma_from_blst,
    .to_blst = ifma_to_blst,
    .copy = ifma_copy,
    .add_pairs = ifma_add_pairs,
};

const cz__aff_ops *cz__aff_g1_ifma(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512bw"))
        return &IFMA_G1;
    return NULL;
}

#endif /* HAVE_IFMA */
