/*
 * ec/affine_ifma.c — the AVX-512 IFMA batched affine backends for G1 and
 * G2 (ec/affine.h), chosen at run time on x86-64 CPUs with avx512ifma.
 *
 * The field arithmetic is ec/fp52.h (eight Fp or Fp2 elements per vector
 * group, 52-bit limbs, Montgomery domain 2^416); the kernel is the template
 * ec/affine_ifma_kernel.h, instantiated here for both groups. Points are
 * stored canonical ([0, p) per coordinate), so x_A == x_B is a limb
 * compare, as one 64-byte row per Fp coordinate: { x, y } (G1, 128 bytes)
 * or { x0, x1, y0, y1 } (G2, 256 bytes); they are loaded eight at a time
 * and transposed into limb vectors. Conversions from and to blst's domain
 * (2^384) multiply by 2^32 and 2^-32 without a full product. The eight
 * lanes of a batch's product chain are inverted together by blst (one
 * blst_fp_inverse, Montgomery's trick across the lanes).
 *
 * NOT constant time.
 */
#include <stdbool.h>
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
const cz__aff_ops *cz__aff_g2_ifma(void)
{
    return NULL;
}
#else

#include "ec/fp52.h"

/* 2^448 mod p as a blst_fp: blst_fp_mul(R0^2/v, this) = R^2/v (see inv_lanes) */
static const blst_fp C448 = { { 0x42b7fde37dba9366, 0x7784894e27525bc3, 0xb2b91b9dc1f5b1e9,
                                0x206f497dfcafb872, 0x594137cc89a9b0bb, 0x0411cd9d20d7e399 } };

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
 * r = 1 / a lane by lane (a non-zero, < 4p). With blst's R0 = 2^384: blst
 * sees a stored v as v / R0, its inverse is stored R0^2 / v, and one blst
 * product with 2^448 turns that into R^2 / v, the inverse in our domain.
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

/* 1 / (c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2), lane by lane */
static TGT void inv_lanes2(fv2 *r, const fv2 *a)
{
    fv n0, n1, n, ninv, t;
    fv_mul(&n0, &a->c[0], &a->c[0]);
    fv_mul(&n1, &a->c[1], &a->c[1]);
    fv_add(&n, &n0, &n1);
    inv_lanes(&ninv, &n);
    fv_mul(&t, &a->c[1], &ninv);
    fv_mul(&r->c[0], &a->c[0], &ninv);
    fv zero;
    fv_const(&zero, ZERO52);
    fv_sub(&r->c[1], &zero, &t, P2_52); /* -c1 / n + 2p, in (0, 2p] */
}

INL void fv_one(fv *r)
{
    fv_const(r, ONE52);
}

INL void fv2_one(fv2 *r)
{
    fv_const(&r->c[0], ONE52);
    fv_const(&r->c[1], ZERO52);
}

/* canonical p - y of one stored Fp coordinate (y = 0 stays 0) */
static void limbs_neg(uint64_t d[8], const uint64_t s[8])
{
    uint64_t t[8], nz = 0;
    int64_t borrow = 0;
    for (int i = 0; i < 8; i++) {
        int64_t v = (int64_t)P52[i] - (int64_t)s[i] + borrow;
        t[i] = (uint64_t)v & M52;
        borrow = v >> 52;
        nz |= s[i];
    }
    for (int i = 0; i < 8; i++)
        d[i] = nz ? t[i] : 0;
}

/* ==== G1 ===================================================================== */

typedef struct {
    uint64_t x[8], y[8];
} pt52; /* one stored G1 point */

/* Two distinct points fill the unused lanes of a last group (results dropped). */
static const pt52 DUMMY1[2] = { { { 1 }, { 1 } }, { { 2 }, { 2 } } };

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

static TGT void g1_from_blst(void *dst, const void *src, const uint32_t *index, size_t n)
{
    pt52 *d = dst;
    const blst_p1_affine *s = src;
    for (size_t i = 0; i < n; i += 8) {
        size_t cnt = n - i < 8 ? n - i : 8;
        vec xw[8], yw[8];
        for (size_t j = i + 32; j < i + 40 && j < n; j++) { /* scattered sources */
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
        fv_shl32_mod(&x, &x); /* a 2^384 -> a R */
        fv_shl32_mod(&y, &y);
        transpose8(x.l);
        transpose8(y.l);
        for (size_t j = 0; j < cnt; j++) {
            _mm512_storeu_si512((void *)d[i + j].x, x.l[j]);
            _mm512_storeu_si512((void *)d[i + j].y, y.l[j]);
        }
    }
}

static TGT void g1_to_blst(void *dst, const void *src, size_t n)
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
        fv_shr32_mod(&x, &x); /* a R -> a 2^384 */
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

static void g1_copy(void *dst, cz__aff_ref ref)
{
    const pt52 *s = (const pt52 *)(ref & ~(uintptr_t)1);
    pt52 *d = dst;
    memcpy(d->x, s->x, sizeof d->x);
    if (ref & 1)
        limbs_neg(d->y, s->y);
    else
        memcpy(d->y, s->y, sizeof d->y);
}

#define K_FE fv
#define K_PT pt52
#define K_NAME(x) g1_##x
#define K_GROUPS 64
#define K_MUL fv_mul
#define K_SQR fv_sqr
#define K_ADD fv_add
#define K_SUB fv_sub
#define K_CANON fv_canon
#define K_CNEG fv_cneg
#define K_EQ fv_eq
#define K_ONE fv_one
#define K_INV inv_lanes
#define K_LOAD load_points
#define K_STORE store_points
#define K_DUMMY DUMMY1
#include "ec/affine_ifma_kernel.h"
#undef K_FE
#undef K_PT
#undef K_NAME
#undef K_GROUPS
#undef K_MUL
#undef K_SQR
#undef K_ADD
#undef K_SUB
#undef K_CANON
#undef K_CNEG
#undef K_EQ
#undef K_ONE
#undef K_INV
#undef K_LOAD
#undef K_STORE
#undef K_DUMMY

/* ==== G2 ===================================================================== */

typedef struct {
    uint64_t x[2][8], y[2][8];
} pt52x2; /* one stored G2 point */

static const pt52x2 DUMMY2[2] = { { { { 1 } }, { { 1 } } }, { { { 2 } }, { { 2 } } } };

INL void load_points2(fv2 *x, fv2 *y, const uint64_t addr[8])
{
    for (int k = 0; k < 2; k++) {
        for (int j = 0; j < 8; j++) {
            const pt52x2 *p = (const pt52x2 *)(uintptr_t)addr[j];
            x->c[k].l[j] = _mm512_loadu_si512((const void *)p->x[k]);
            y->c[k].l[j] = _mm512_loadu_si512((const void *)p->y[k]);
        }
        transpose8(x->c[k].l);
        transpose8(y->c[k].l);
    }
}

INL void store_points2(const uint64_t addr[8], fv2 *x, fv2 *y, __mmask8 mask)
{
    for (int k = 0; k < 2; k++) {
        transpose8(x->c[k].l);
        transpose8(y->c[k].l);
        for (int j = 0; j < 8; j++) {
            __mmask8 m = (__mmask8)(0u - ((mask >> j) & 1u));
            pt52x2 *p = (pt52x2 *)(uintptr_t)addr[j];
            _mm512_mask_storeu_epi64((void *)p->x[k], m, x->c[k].l[j]);
            _mm512_mask_storeu_epi64((void *)p->y[k], m, y->c[k].l[j]);
        }
    }
}

/* the 4 Fp coordinates of a blst_p2_affine, in order x0, x1, y0, y1 */
static inline const uint64_t *p2_coord(const blst_p2_affine *p, int c)
{
    return c < 2 ? p->x.fp[c].l : p->y.fp[c - 2].l;
}

static TGT void g2_from_blst(void *dst, const void *src, const uint32_t *index, size_t n)
{
    pt52x2 *d = dst;
    const blst_p2_affine *s = src;
    for (size_t i = 0; i < n; i += 8) {
        size_t cnt = n - i < 8 ? n - i : 8;
        for (size_t j = i + 16; j < i + 24 && j < n; j++) { /* scattered sources */
            const char *p = (const char *)&s[index ? index[j] : j];
            for (size_t off = 0; off < sizeof(blst_p2_affine); off += 64)
                _mm_prefetch(p + off, _MM_HINT_T0);
        }
        for (int c = 0; c < 4; c++) {
            vec w[8];
            for (size_t j = 0; j < 8; j++) {
                size_t k = i + (j < cnt ? j : 0);
                w[j] = _mm512_maskz_loadu_epi64(0x3f,
                                                (const void *)p2_coord(&s[index ? index[k] : k],
                                                                       c));
            }
            transpose8(w);
            fv a;
            words_to_fv(&a, w);
            fv_shl32_mod(&a, &a);
            transpose8(a.l);
            for (size_t j = 0; j < cnt; j++)
                _mm512_storeu_si512((void *)(c < 2 ? d[i + j].x[c] : d[i + j].y[c - 2]), a.l[j]);
        }
    }
}

static TGT void g2_to_blst(void *dst, const void *src, size_t n)
{
    blst_p2_affine *d = dst;
    const pt52x2 *s = src;
    for (size_t i = 0; i < n; i += 8) {
        size_t cnt = n - i < 8 ? n - i : 8;
        for (int c = 0; c < 4; c++) {
            fv a;
            vec w[8];
            for (size_t j = 0; j < 8; j++) {
                const pt52x2 *p = &s[i + (j < cnt ? j : 0)];
                a.l[j] = _mm512_loadu_si512((const void *)(c < 2 ? p->x[c] : p->y[c - 2]));
            }
            transpose8(a.l);
            fv_shr32_mod(&a, &a);
            fv_to_words(w, &a);
            transpose8(w);
            for (size_t j = 0; j < cnt; j++)
                _mm512_mask_storeu_epi64((void *)p2_coord(&d[i + j], c), 0x3f, w[j]);
        }
    }
}

static void g2_copy(void *dst, cz__aff_ref ref)
{
    const pt52x2 *s = (const pt52x2 *)(ref & ~(uintptr_t)1);
    pt52x2 *d = dst;
    memcpy(d->x, s->x, sizeof d->x);
    for (int k = 0; k < 2; k++) {
        if (ref & 1)
            limbs_neg(d->y[k], s->y[k]);
        else
            memcpy(d->y[k], s->y[k], sizeof d->y[k]);
    }
}

#define K_FE fv2
#define K_PT pt52x2
#define K_NAME(x) g2_##x
#define K_GROUPS 32
#define K_MUL fv2_mul
#define K_SQR fv2_sqr
#define K_ADD fv2_add
#define K_SUB fv2_sub
#define K_CANON fv2_canon
#define K_CNEG fv2_cneg
#define K_EQ fv2_eq
#define K_ONE fv2_one
#define K_INV inv_lanes2
#define K_LOAD load_points2
#define K_STORE store_points2
#define K_DUMMY DUMMY2
#include "ec/affine_ifma_kernel.h"

/* ==== the backends ============================================================ */

static const cz__aff_ops IFMA_G1 = {
    .name = "ifma-g1",
    .group = &CZ_G1,
    .point_size = sizeof(pt52),
    .scratch_size = sizeof(g1_scratch) + 64,
    .native = false,
    .from_blst = g1_from_blst,
    .to_blst = g1_to_blst,
    .copy = g1_copy,
    .add_pairs = g1_add_pairs,
};

static const cz__aff_ops IFMA_G2 = {
    .name = "ifma-g2",
    .group = &CZ_G2,
    .point_size = sizeof(pt52x2),
    .scratch_size = sizeof(g2_scratch) + 64,
    .native = false,
    .from_blst = g2_from_blst,
    .to_blst = g2_to_blst,
    .copy = g2_copy,
    .add_pairs = g2_add_pairs,
};

static bool cpu_has_ifma(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512bw");
}

const cz__aff_ops *cz__aff_g1_ifma(void)
{
    return cpu_has_ifma() ? &IFMA_G1 : NULL;
}

const cz__aff_ops *cz__aff_g2_ifma(void)
{
    return cpu_has_ifma() ? &IFMA_G2 : NULL;
}

#endif /* HAVE_IFMA */
