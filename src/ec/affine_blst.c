/*
 * ec/affine_blst.c — the scalar batched affine backends (ec/affine.h) over
 * blst's exported field arithmetic: G1 over blst_fp, G2 over blst_fp2.
 *
 * Points are stored as blst affine points (canonical Montgomery values, so
 * coordinates compare with memcmp), references point straight into the
 * caller's bases. Per addition: 5M+1S and three subtractions, plus one
 * inversion per BATCH pairs (Montgomery's trick, see ec/affine.h); the
 * pairs with x_A == x_B are doubled (3 x^2 / 2y) or cancel, decided by y.
 *
 * NOT constant time.
 */
#include <string.h>

#include "ec/affine.h"

#define BATCH 256 /* pairs per inversion: blst_fp_inverse is ~75 products */

/* laid out by hand: */
/* clang-format off */
#define AFFINE_BLST(px, A, F, fx, GROUP)                                                \
    static inline const A *px##_at(cz__aff_ref r)                                       \
    {                                                                                   \
        return (const A *)(r & ~(uintptr_t)1);                                          \
    }                                                                                   \
                                                                                        \
    static void px##_copy(void *dst, cz__aff_ref r)                                     \
    {                                                                                   \
        A *d = dst;                                                                     \
        const A *s = px##_at(r);                                                        \
        d->x = s->x;                                                                    \
        blst_##fx##_cneg(&d->y, &s->y, r & 1);                                          \
    }                                                                                   \
                                                                                        \
    static void px##_from_blst(void *dst, const void *src, const uint32_t *index,       \
                               size_t n)                                                \
    {                                                                                   \
        const A *s = src;                                                               \
        A *d = dst;                                                                     \
        for (size_t i = 0; i < n; i++)                                                  \
            d[i] = s[index ? index[i] : i];                                             \
    }                                                                                   \
                                                                                        \
    static void px##_to_blst(void *dst, const void *src, size_t n)                      \
    {                                                                                   \
        memmove(dst, src, n * sizeof(A));                                               \
    }                                                                                   \
                                                                                        \
    typedef struct {                                                                    \
        F d;        /* denominator: x_B - x_A, or 2 y_A when doubling */                \
        F num;      /* numerator: y_B - y_A, or 3 x_A^2 */                              \
        F prefix;   /* d_0 ... d_(k-1) */                                               \
        uint32_t pair;                                                                  \
    } px##_entry;                                                                       \
                                                                                        \
    static void px##_add_pairs(const cz__aff_pair *pairs, size_t n, uint8_t *inf,       \
                               void *scratch)                                           \
    {                                                                                   \
        px##_entry *e = scratch;                                                        \
        for (size_t s = 0; s < n; s += BATCH) {                                         \
            size_t end = n - s < BATCH ? n : s + BATCH, k = 0;                          \
            F acc;                                                                      \
            for (size_t i = s; i < end; i++) {                                          \
                const A *a = px##_at(pairs[i].a), *b = px##_at(pairs[i].b);             \
                F ya, yb;                                                               \
                blst_##fx##_cneg(&ya, &a->y, pairs[i].a & 1);                           \
                blst_##fx##_cneg(&yb, &b->y, pairs[i].b & 1);                           \
                inf[i] = 0;                                                             \
                if (memcmp(&a->x, &b->x, sizeof(F)) == 0) {                             \
                    if (memcmp(&ya, &yb, sizeof(F)) != 0) {   /* A == -B */             \
                        inf[i] = 1;                                                     \
                        continue;                                                       \
                    }                                                                   \
                    blst_##fx##_add(&e[k].d, &ya, &ya);          /* 2y */               \
                    blst_##fx##_sqr(&e[k].num, &a->x);                                  \
                    blst_##fx##_mul_by_3(&e[k].num, &e[k].num);  /* 3x^2 */             \
                } else {                                                                \
                    blst_##fx##_sub(&e[k].d, &b->x, &a->x);                             \
                    blst_##fx##_sub(&e[k].num, &yb, &ya);                               \
                }                                                                       \
                if (k == 0) {                                                           \
                    acc = e[0].d;                                                       \
                } else {                                                                \
                    e[k].prefix = acc;                                                  \
                    blst_##fx##_mul(&acc, &acc, &e[k].d);                               \
                }                                                                       \
                e[k++].pair = (uint32_t)i;                                              \
            }                                                                           \
            if (k == 0)                                                                 \
                continue;                                                               \
            blst_##fx##_inverse(&acc, &acc);   /* 1 / (d_0 ... d_(k-1)) */              \
            for (size_t j = k; j-- > 0;) {                                              \
                F inv, l, t, x3, ya;                                                    \
                if (j) {                                                                \
                    blst_##fx##_mul(&inv, &acc, &e[j].prefix);   /* 1/d_j */            \
                    blst_##fx##_mul(&acc, &acc, &e[j].d);                               \
                } else {                                                                \
                    inv = acc;                                                          \
                }                                                                       \
                const cz__aff_pair *pr = &pairs[e[j].pair];                             \
                const A *a = px##_at(pr->a), *b = px##_at(pr->b);                       \
                blst_##fx##_cneg(&ya, &a->y, pr->a & 1);                                \
                blst_##fx##_mul(&l, &e[j].num, &inv);          /* l */                  \
                blst_##fx##_sqr(&x3, &l);                                               \
                blst_##fx##_sub(&x3, &x3, &a->x);                                       \
                blst_##fx##_sub(&x3, &x3, &b->x);              /* x3 = l^2-xA-xB */     \
                blst_##fx##_sub(&t, &a->x, &x3);                                        \
                blst_##fx##_mul(&t, &t, &l);                                            \
                A *o = pr->out;                 /* may be A: read A first */            \
                blst_##fx##_sub(&o->y, &t, &ya);               /* y3 = l(xA-x3)-yA */   \
                o->x = x3;                                                              \
            }                                                                           \
        }                                                                               \
    }                                                                                   \
                                                                                        \
    const cz__aff_ops cz__aff_##px##_blst = {                                           \
        .name = "blst-" #px,                                                            \
        .group = &GROUP,                                                                \
        .point_size = sizeof(A),                                                        \
        .scratch_size = BATCH * sizeof(px##_entry),                                     \
        .native = true,                                                                 \
        .from_blst = px##_from_blst,                                                    \
        .to_blst = px##_to_blst,                                                        \
        .copy = px##_copy,                                                              \
        .add_pairs = px##_add_pairs,                                                    \
    };
/* clang-format on */

AFFINE_BLST(g1, blst_p1_affine, blst_fp, fp, CZ_G1)
AFFINE_BLST(g2, blst_p2_affine, blst_fp2, fp2, CZ_G2)
