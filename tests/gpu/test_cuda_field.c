/*
 * tests/gpu/test_cuda_field.c — device Fr, Fp, Fp2 arithmetic and G1/G2
 * point formulas (Jacobian, XYZZ, affine) against blst on the host, on
 * random values and the edges 0, 1, modulus-1 (Montgomery -1) and the raw
 * representation modulus-1 (Fr also raw values with zero low words, for its
 * specialised reduction); params points decoded on the device
 * (cz_cuda_decode_points) against the CPU decode, the refused ones
 * included. Labelled gpu; skips without a device.
 */
#include <stdlib.h>
#include <string.h>

#include "ec/curve.h"
#include "gpu_test.h"

#define NRAND 200

static cz_ctx_t *ctx(void)
{
    static cz_ctx_t *c;
    if (!c && cz_ctx_new(&c, NULL, 1) != CZ_OK)
        abort();
    return c;
}

/* ---- Fr ------------------------------------------------------------------ */

/* Edge values then random ones; a and b hold every edge pair, then random pairs. */
static size_t fr_inputs(blst_fr **pa, blst_fr **pb)
{
    blst_fr e[8];
    e[0] = CZ_FR_ZERO;
    e[1] = CZ_FR_ONE;
    cz_fr_neg(&e[2], &CZ_FR_ONE); /* r - 1 */
    uint64_t raw[4] = { 0xffffffff00000000ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull,
                        0x73eda753299d7d48ull };
    memcpy(&e[3], raw, sizeof raw); /* limbs = r - 1 */
    cz_fr_from_u64(&e[4], 2);
    memset(&e[5], 0, sizeof e[5]);
    e[5].l[0] = 1; /* limbs = 1 (R^-1) */
    /* Low words zero: with limbs = 1 as the other factor, the reduction's
     * running low word is 0 row after row, its quotient digit m = 0 (the
     * Fr-specialised step takes that branch: mont_impl.cuh CZ_MR1). */
    memset(&e[6], 0, sizeof e[6]);
    e[6].l[3] = 1ull << 32; /* limbs = 2^224 */
    uint64_t hi[4] = { 0, 0, 0x0123456789abcdefull, 0x3edcba9876543210ull };
    memcpy(&e[7], hi, sizeof hi); /* four zero low words */
    size_t ne = 8, n = ne * ne + NRAND;
    blst_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    cz_rng rng;
    cz_rng_seed(&rng, 1);
    size_t k = 0;
    for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++, k++)
            a[k] = e[i], b[k] = e[j];
    for (; k < n; k++) {
        cz_fr_random_rng(&a[k], &rng);
        cz_fr_random_rng(&b[k], &rng);
    }
    *pa = a;
    *pb = b;
    return n;
}

CZ_TEST(fr_ops)
{
    if (!gpu_or_skip())
        return;
    blst_fr *a, *b;
    size_t n = fr_inputs(&a, &b);
    blst_fr *out = malloc(n * sizeof *out), want;
    for (int op = CZ_CUDA_TEST_ADD; op <= CZ_CUDA_TEST_POW; op++) {
        CHECK_OK(cz_cuda_test_field(ctx(), 0, op, out, a, b, n));
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            switch (op) {
            case CZ_CUDA_TEST_ADD: blst_fr_add(&want, &a[i], &b[i]); break;
            case CZ_CUDA_TEST_SUB: blst_fr_sub(&want, &a[i], &b[i]); break;
            case CZ_CUDA_TEST_NEG: blst_fr_cneg(&want, &a[i], 1); break;
            case CZ_CUDA_TEST_DBL: blst_fr_add(&want, &a[i], &a[i]); break;
            case CZ_CUDA_TEST_MUL: blst_fr_mul(&want, &a[i], &b[i]); break;
            case CZ_CUDA_TEST_SQR: blst_fr_sqr(&want, &a[i]); break;
            case CZ_CUDA_TEST_INV: blst_fr_inverse(&want, &a[i]); break;
            case CZ_CUDA_TEST_POW: cz_fr_pow_u64(&want, &a[i], b[i].l[0]); break;
            }
            if (memcmp(&want, &out[i], sizeof want) != 0 && bad++ < 3)
                fprintf(stderr, "fr op %d input %zu differs\n", op, i);
        }
        CHECK_EQ_INT(bad, 0);
    }
    free(a);
    free(b);
    free(out);
}

/* ---- Fp ------------------------------------------------------------------ */

static const uint64_t P_MINUS_1[6] = { 0xb9feffffffffaaaaull, 0x1eabfffeb153ffffull,
                                       0x6730d2a0f6b0f624ull, 0x64774b84f38512bfull,
                                       0x4b1ba7b6434bacd7ull, 0x1a0111ea397fe69aull };

/* Random values below 2^380 or (one in two) in [2^380, p): full top limbs too. */
static void fp_random(blst_fp *r, cz_rng *rng)
{
    for (int i = 0; i < 6; i++)
        r->l[i] = cz_rng_next(rng);
    r->l[5] &= (1ull << 60) - 1; /* < 2^380 < p */
    if (cz_rng_next(rng) & 1)
        r->l[5] = P_MINUS_1[5] - 1; /* >= 2^380, < p */
}

static size_t fp_inputs(blst_fp **pa, blst_fp **pb)
{
    blst_fp e[6];
    uint64_t one[6] = { 1, 0, 0, 0, 0, 0 }, two[6] = { 2, 0, 0, 0, 0, 0 };
    memset(&e[0], 0, sizeof e[0]);
    blst_fp_from_uint64(&e[1], one);
    blst_fp_cneg(&e[2], &e[1], 1);              /* p - 1 */
    memcpy(&e[3], P_MINUS_1, sizeof P_MINUS_1); /* limbs = p - 1 */
    blst_fp_from_uint64(&e[4], two);
    memcpy(&e[5], one, sizeof one);
    size_t ne = 6, n = ne * ne + NRAND;
    blst_fp *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    cz_rng rng;
    cz_rng_seed(&rng, 2);
    size_t k = 0;
    for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++, k++)
            a[k] = e[i], b[k] = e[j];
    for (; k < n; k++) {
        fp_random(&a[k], &rng);
        fp_random(&b[k], &rng);
    }
    *pa = a;
    *pb = b;
    return n;
}

static void fp_pow(blst_fp *r, const blst_fp *a, uint64_t e)
{
    uint64_t one[6] = { 1, 0, 0, 0, 0, 0 };
    blst_fp acc;
    blst_fp_from_uint64(&acc, one);
    for (int bit = 63; bit >= 0; bit--) {
        blst_fp_sqr(&acc, &acc);
        if ((e >> bit) & 1)
            blst_fp_mul(&acc, &acc, a);
    }
    *r = acc;
}

CZ_TEST(fp_ops)
{
    if (!gpu_or_skip())
        return;
    blst_fp *a, *b;
    size_t n = fp_inputs(&a, &b);
    blst_fp *out = malloc(n * sizeof *out), want;
    for (int op = CZ_CUDA_TEST_ADD; op <= CZ_CUDA_TEST_POW; op++) {
        CHECK_OK(cz_cuda_test_field(ctx(), 1, op, out, a, b, n));
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            switch (op) {
            case CZ_CUDA_TEST_ADD: blst_fp_add(&want, &a[i], &b[i]); break;
            case CZ_CUDA_TEST_SUB: blst_fp_sub(&want, &a[i], &b[i]); break;
            case CZ_CUDA_TEST_NEG: blst_fp_cneg(&want, &a[i], 1); break;
            case CZ_CUDA_TEST_DBL: blst_fp_add(&want, &a[i], &a[i]); break;
            case CZ_CUDA_TEST_MUL: blst_fp_mul(&want, &a[i], &b[i]); break;
            case CZ_CUDA_TEST_SQR: blst_fp_sqr(&want, &a[i]); break;
            case CZ_CUDA_TEST_INV: blst_fp_inverse(&want, &a[i]); break;
            case CZ_CUDA_TEST_POW: fp_pow(&want, &a[i], b[i].l[0]); break;
            }
            if (memcmp(&want, &out[i], sizeof want) != 0 && bad++ < 3)
                fprintf(stderr, "fp op %d input %zu differs\n", op, i);
        }
        CHECK_EQ_INT(bad, 0);
    }
    free(a);
    free(b);
    free(out);
}

CZ_TEST(fp2_ops)
{
    if (!gpu_or_skip())
        return;
    blst_fp *a1, *b1;
    size_t n1 = fp_inputs(&a1, &b1), n = n1 - 1;
    blst_fp2 *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *out = malloc(n * sizeof *out);
    for (size_t i = 0; i < n; i++) { /* pair neighbours: edges meet edges and randoms */
        a[i].fp[0] = a1[i], a[i].fp[1] = a1[i + 1];
        b[i].fp[0] = b1[i + 1], b[i].fp[1] = b1[i];
    }
    blst_fp2 want;
    for (int op = CZ_CUDA_TEST_ADD; op <= CZ_CUDA_TEST_INV; op++) {
        CHECK_OK(cz_cuda_test_field(ctx(), 2, op, out, a, b, n));
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            switch (op) {
            case CZ_CUDA_TEST_ADD: blst_fp2_add(&want, &a[i], &b[i]); break;
            case CZ_CUDA_TEST_SUB: blst_fp2_sub(&want, &a[i], &b[i]); break;
            case CZ_CUDA_TEST_NEG: blst_fp2_cneg(&want, &a[i], 1); break;
            case CZ_CUDA_TEST_DBL: blst_fp2_add(&want, &a[i], &a[i]); break;
            case CZ_CUDA_TEST_MUL: blst_fp2_mul(&want, &a[i], &b[i]); break;
            case CZ_CUDA_TEST_SQR: blst_fp2_sqr(&want, &a[i]); break;
            case CZ_CUDA_TEST_INV: blst_fp2_inverse(&want, &a[i]); break;
            }
            if (memcmp(&want, &out[i], sizeof want) != 0 && bad++ < 3)
                fprintf(stderr, "fp2 op %d input %zu differs\n", op, i);
        }
        CHECK_EQ_INT(bad, 0);
    }
    free(a1);
    free(b1);
    free(a);
    free(b);
    free(out);
}

/* ---- the lazy operations of Fp and Fp2: inputs in [p, 2p) too ----------- */

/*
 * Each Fp element of x[0 .. count) plus p, as 384-bit integers: the other
 * representative of the same value below 2p (2p < 2^384), the form the
 * lazy operations must accept.
 */
static void add_limbs(uint64_t *x, const uint64_t *m, int n)
{
    uint64_t carry = 0;
    for (int i = 0; i < n; i++) {
        const uint64_t s = x[i] + m[i], t = s + carry;
        carry = (s < m[i]) | (t < s);
        x[i] = t;
    }
}

static void fp_lift(blst_fp *x, size_t count)
{
    uint64_t p[6];
    memcpy(p, P_MINUS_1, sizeof p);
    p[0] += 1; /* p - 1 has no borrow out of limb 0 */
    for (size_t k = 0; k < count; k++)
        add_limbs(x[k].l, p, 6);
}

static void fp_want_lz(int op, blst_fp *want, const blst_fp *a, const blst_fp *b)
{
    static const uint64_t one[6] = { 1, 0, 0, 0, 0, 0 };
    static const blst_fp zero;
    switch (op) {
    case CZ_CUDA_TEST_ADD_LZ: blst_fp_add(want, a, b); break;
    case CZ_CUDA_TEST_SUB_LZ: blst_fp_sub(want, a, b); break;
    case CZ_CUDA_TEST_DBL_LZ: blst_fp_add(want, a, a); break;
    case CZ_CUDA_TEST_MUL_LZ: blst_fp_mul(want, a, b); break;
    case CZ_CUDA_TEST_SQR_LZ: blst_fp_sqr(want, a); break;
    case CZ_CUDA_TEST_IS_ZERO_LZ:
        if (memcmp(a, &zero, sizeof zero) == 0)
            blst_fp_from_uint64(want, one);
        else
            *want = zero;
        break;
    }
}

CZ_TEST(fp_lazy_ops_take_either_representative_below_2p)
{
    if (!gpu_or_skip())
        return;
    blst_fp *a, *b;
    size_t n = fp_inputs(&a, &b);
    blst_fp *la = malloc(n * sizeof *la), *lb = malloc(n * sizeof *lb),
            *out = malloc(n * sizeof *out);
    for (int lift = 0; lift < 4; lift++) { /* a, b, both or neither in [p, 2p) */
        memcpy(la, a, n * sizeof *a);
        memcpy(lb, b, n * sizeof *b);
        if (lift & 1)
            fp_lift(la, n);
        if (lift & 2)
            fp_lift(lb, n);
        for (int op = CZ_CUDA_TEST_ADD_LZ; op <= CZ_CUDA_TEST_IS_ZERO_LZ; op++) {
            CHECK_OK(cz_cuda_test_field(ctx(), 1, op, out, la, lb, n));
            int bad = 0;
            for (size_t i = 0; i < n; i++) {
                blst_fp want;
                fp_want_lz(op, &want, &a[i], &b[i]);
                if (memcmp(&want, &out[i], sizeof want) != 0 && bad++ < 3)
                    fprintf(stderr, "fp lazy op %d lift %d input %zu differs\n", op, lift, i);
            }
            CHECK_EQ_INT(bad, 0);
        }
    }
    free(a);
    free(b);
    free(la);
    free(lb);
    free(out);
}

CZ_TEST(fp2_lazy_ops_take_either_representative_below_2p)
{
    if (!gpu_or_skip())
        return;
    blst_fp *a1, *b1;
    size_t n1 = fp_inputs(&a1, &b1), n = n1 - 1;
    blst_fp2 *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *out = malloc(n * sizeof *out);
    blst_fp2 *la = malloc(n * sizeof *la), *lb = malloc(n * sizeof *lb);
    for (size_t i = 0; i < n; i++) {
        a[i].fp[0] = a1[i], a[i].fp[1] = a1[i + 1];
        b[i].fp[0] = b1[i + 1], b[i].fp[1] = b1[i];
    }
    for (int lift = 0; lift < 16; lift++) { /* bit k: coefficient k of (a.c0, a.c1, b.c0, b.c1) */
        memcpy(la, a, n * sizeof *a);
        memcpy(lb, b, n * sizeof *b);
        for (size_t i = 0; i < n; i++) {
            if (lift & 1)
                fp_lift(&la[i].fp[0], 1);
            if (lift & 2)
                fp_lift(&la[i].fp[1], 1);
            if (lift & 4)
                fp_lift(&lb[i].fp[0], 1);
            if (lift & 8)
                fp_lift(&lb[i].fp[1], 1);
        }
        for (int op = CZ_CUDA_TEST_ADD_LZ; op <= CZ_CUDA_TEST_IS_ZERO_LZ; op++) {
            CHECK_OK(cz_cuda_test_field(ctx(), 2, op, out, la, lb, n));
            int bad = 0;
            for (size_t i = 0; i < n; i++) {
                blst_fp2 want;
                switch (op) {
                case CZ_CUDA_TEST_ADD_LZ: blst_fp2_add(&want, &a[i], &b[i]); break;
                case CZ_CUDA_TEST_SUB_LZ: blst_fp2_sub(&want, &a[i], &b[i]); break;
                case CZ_CUDA_TEST_DBL_LZ: blst_fp2_add(&want, &a[i], &a[i]); break;
                case CZ_CUDA_TEST_MUL_LZ: blst_fp2_mul(&want, &a[i], &b[i]); break;
                case CZ_CUDA_TEST_SQR_LZ: blst_fp2_sqr(&want, &a[i]); break;
                case CZ_CUDA_TEST_IS_ZERO_LZ: /* one (c0 = 1) when both coefficients are 0 */
                    memset(&want, 0, sizeof want);
                    if (memcmp(&a[i], &want, sizeof want) == 0)
                        fp_want_lz(op, &want.fp[0], &want.fp[0], NULL);
                    break;
                }
                if (memcmp(&want, &out[i], sizeof want) != 0 && bad++ < 3)
                    fprintf(stderr, "fp2 lazy op %d lift %d input %zu differs\n", op, lift, i);
            }
            CHECK_EQ_INT(bad, 0);
        }
    }
    free(a1);
    free(b1);
    free(a);
    free(b);
    free(la);
    free(lb);
    free(out);
}

/* ---- the FP64-pipe Montgomery product (fmont_impl.cuh) ------------------ */

/*
 * It gives a*b/R' (R' = 2^260 for Fr, 2^416 for Fp) where blst's gives
 * a*b/R (2^256, 2^384): the same as blst's product of blst's product and
 * C = R^2/R', whose limbs are 2^252 (Fr) and 2^352 (Fp). Inputs below 2m:
 * each operand as given and lifted by m.
 */
static void fr_lift(void *x, size_t count)
{
    static const uint64_t r[4] = { 0xffffffff00000001ull, 0x53bda402fffe5bfeull,
                                   0x3339d80809a1d805ull, 0x73eda753299d7d48ull };
    for (size_t k = 0; k < count; k++)
        add_limbs(((blst_fr *)x)[k].l, r, 4);
}

static void fp_lift_any(void *x, size_t count)
{
    fp_lift(x, count);
}

static void fr_want_f64(void *want, const void *a, const void *b)
{
    blst_fr c;
    memset(&c, 0, sizeof c);
    c.l[3] = 1ull << 60;
    blst_fr_mul(want, a, b);
    blst_fr_mul(want, want, &c);
}

static void fp_want_f64(void *want, const void *a, const void *b)
{
    blst_fp c;
    memset(&c, 0, sizeof c);
    c.l[5] = 1ull << 32;
    blst_fp_mul(want, a, b);
    blst_fp_mul(want, want, &c);
}

/* The device's MUL_F64 of field on a[i], b[i] (size bytes each) in all four lift patterns. */
static void check_f64_mul(int field, const void *a, const void *b, size_t n, size_t size,
                          void (*lift)(void *, size_t),
                          void (*want_of)(void *, const void *, const void *))
{
    unsigned char *la = malloc(n * size), *lb = malloc(n * size), *out = malloc(n * size), want[48];
    for (int k = 0; k < 4; k++) {
        memcpy(la, a, n * size);
        memcpy(lb, b, n * size);
        if (k & 1)
            lift(la, n);
        if (k & 2)
            lift(lb, n);
        CHECK_OK(cz_cuda_test_field(ctx(), field, CZ_CUDA_TEST_MUL_F64, out, la, lb, n));
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            want_of(want, (const unsigned char *)a + i * size, (const unsigned char *)b + i * size);
            if (memcmp(want, out + i * size, size) != 0 && bad++ < 3)
                fprintf(stderr, "field %d f64 mul lift %d input %zu differs\n", field, k, i);
        }
        CHECK_EQ_INT(bad, 0);
    }
    free(la);
    free(lb);
    free(out);
}

CZ_TEST(fr_fp_f64_products_match_blst_on_either_representative)
{
    if (!gpu_or_skip())
        return;
    blst_fr *a, *b;
    size_t n = fr_inputs(&a, &b);
    check_f64_mul(0, a, b, n, sizeof *a, fr_lift, fr_want_f64);
    free(a);
    free(b);
    blst_fp *pa, *pb;
    n = fp_inputs(&pa, &pb);
    check_f64_mul(1, pa, pb, n, sizeof *pa, fp_lift_any, fp_want_f64);
    free(pa);
    free(pb);
}

/* ---- G1 and G2, written once over blst's p1/p2 names ------------------- */

#define NPTS 48

/*
 * Inputs: random multiples of the generator, plus the special cases
 * Q = P (doubling), Q = -P (infinity), P = infinity, Q = infinity.
 */
/* a table of macros, laid out by hand: */
/* clang-format off */
#define EC_TESTS(G, P, PA, FP)                                                 \
static void G##_scalar(byte s[32], cz_rng *rng)                                \
{                                                                              \
    for (int i = 0; i < 32; i++) s[i] = (byte)cz_rng_next(rng);                \
    s[31] &= 0x3f;                                                             \
}                                                                              \
static void G##_inputs(P *p, P *q)                                             \
{                                                                              \
    cz_rng rng;                                                                \
    cz_rng_seed(&rng, 7);                                                      \
    byte s[32];                                                                \
    for (int i = 0; i < NPTS; i++) {                                           \
        G##_scalar(s, &rng); P##_mult(&p[i], P##_generator(), s, 254);         \
        G##_scalar(s, &rng); P##_mult(&q[i], P##_generator(), s, 254);         \
    }                                                                          \
    q[0] = p[0];                                   /* doubling */              \
    q[1] = p[1]; P##_cneg(&q[1], 1);               /* P + -P */                \
    memset(&p[2], 0, sizeof p[2]);                 /* inf + Q */               \
    memset(&q[3], 0, sizeof q[3]);                 /* P + inf */               \
    P##_double(&q[4], &p[4]);                      /* P + 2P, distinct Z */    \
}                                                                              \
/* Jacobian (X*ZZ*ZZZ^2, Y*ZZ^3*ZZZ^2, ZZ*ZZZ) has x = X/ZZ, y = Y/ZZZ. */     \
static void G##_from_xyzz(P *r, const FP *x)                                   \
{                                                                              \
    FP t, zzz2;                                                                \
    FP##_sqr(&zzz2, &x[3]);                                                    \
    FP##_mul(&r->x, &x[0], &x[2]);                                             \
    FP##_mul(&r->x, &r->x, &zzz2);                                             \
    FP##_mul(&r->z, &x[2], &x[3]);                                             \
    FP##_sqr(&t, &x[2]);                                                       \
    FP##_mul(&t, &t, &x[2]);                                                   \
    FP##_mul(&t, &t, &zzz2);                                                   \
    FP##_mul(&r->y, &x[1], &t);                                                \
}                                                                              \
static void G##_to_xyzz(FP *x, const P *p)                                     \
{                                                                              \
    x[0] = p->x;                                                               \
    x[1] = p->y;                                                               \
    FP##_sqr(&x[2], &p->z);                                                    \
    FP##_mul(&x[3], &x[2], &p->z);                                             \
}                                                                              \
static void G##_check(int group)                                               \
{                                                                              \
    P *p = calloc(NPTS, sizeof *p), *q = calloc(NPTS, sizeof *q);              \
    P *out = calloc(NPTS, sizeof *out), want;                                  \
    PA *pa = calloc(NPTS, sizeof *pa), *qa = calloc(NPTS, sizeof *qa), *oa = calloc(NPTS, sizeof *oa); \
    FP (*px)[4] = calloc(NPTS, sizeof *px), (*qx)[4] = calloc(NPTS, sizeof *qx), (*ox)[4] = calloc(NPTS, sizeof *ox); \
    G##_inputs(p, q);                                                          \
    for (int i = 0; i < NPTS; i++) {                                           \
        P##_to_affine(&pa[i], &p[i]);                                          \
        P##_to_affine(&qa[i], &q[i]);                                          \
        G##_to_xyzz(px[i], &p[i]);                                             \
        G##_to_xyzz(qx[i], &q[i]);                                             \
    }                                                                          \
    int bad;                                                                   \
    CHECK_OK(cz_cuda_test_ec(ctx(), group, CZ_CUDA_TEST_JAC_ADD, out, p, q, NPTS)); \
    bad = 0;                                                                   \
    for (int i = 0; i < NPTS; i++) {                                           \
        P##_add_or_double(&want, &p[i], &q[i]);                                \
        if (!P##_is_equal(&want, &out[i]) && bad++ < 3) fprintf(stderr, "g%d jac_add %d\n", group, i); \
    }                                                                          \
    CHECK_EQ_INT(bad, 0);                                                      \
    CHECK_OK(cz_cuda_test_ec(ctx(), group, CZ_CUDA_TEST_JAC_MADD, out, p, qa, NPTS)); \
    bad = 0;                                                                   \
    for (int i = 0; i < NPTS; i++) {                                           \
        P##_add_or_double_affine(&want, &p[i], &qa[i]);                        \
        if (!P##_is_equal(&want, &out[i]) && bad++ < 3) fprintf(stderr, "g%d jac_madd %d\n", group, i); \
    }                                                                          \
    CHECK_EQ_INT(bad, 0);                                                      \
    CHECK_OK(cz_cuda_test_ec(ctx(), group, CZ_CUDA_TEST_JAC_DBL, out, p, NULL, NPTS)); \
    bad = 0;                                                                   \
    for (int i = 0; i < NPTS; i++) {                                           \
        P##_double(&want, &p[i]);                                              \
        if (!P##_is_equal(&want, &out[i]) && bad++ < 3) fprintf(stderr, "g%d jac_dbl %d\n", group, i); \
    }                                                                          \
    CHECK_EQ_INT(bad, 0);                                                      \
    P tmp;                                                                     \
    CHECK_OK(cz_cuda_test_ec(ctx(), group, CZ_CUDA_TEST_XYZZ_ADD, ox, px, qx, NPTS)); \
    bad = 0;                                                                   \
    for (int i = 0; i < NPTS; i++) {                                           \
        P##_add_or_double(&want, &p[i], &q[i]);                                \
        G##_from_xyzz(&tmp, ox[i]);                                            \
        if (!P##_is_equal(&want, &tmp) && bad++ < 3) fprintf(stderr, "g%d xyzz_add %d\n", group, i); \
    }                                                                          \
    CHECK_EQ_INT(bad, 0);                                                      \
    CHECK_OK(cz_cuda_test_ec(ctx(), group, CZ_CUDA_TEST_XYZZ_MADD, ox, px, qa, NPTS)); \
    bad = 0;                                                                   \
    for (int i = 0; i < NPTS; i++) {                                           \
        P##_add_or_double(&want, &p[i], &q[i]);                                \
        G##_from_xyzz(&tmp, ox[i]);                                            \
        if (!P##_is_equal(&want, &tmp) && bad++ < 3) fprintf(stderr, "g%d xyzz_madd %d\n", group, i); \
    }                                                                          \
    CHECK_EQ_INT(bad, 0);                                                      \
    /* the lazy mixed addition: each coordinate of p in either form below 2p */ \
    FP (*lx)[4] = calloc(NPTS, sizeof *lx);                                    \
    for (int lift = 0; lift < 16; lift++) {                                    \
        memcpy(lx, px, NPTS * sizeof *px);                                     \
        for (int i = 0; i < NPTS; i++)                                         \
            for (int k = 0; k < 4; k++)                                        \
                if (lift >> k & 1)                                             \
                    fp_lift((blst_fp *)&lx[i][k], sizeof(FP) / sizeof(blst_fp)); \
        CHECK_OK(cz_cuda_test_ec(ctx(), group, CZ_CUDA_TEST_XYZZ_MADD_LZ, ox, lx, qa, NPTS)); \
        bad = 0;                                                               \
        for (int i = 0; i < NPTS; i++) {                                       \
            P##_add_or_double(&want, &p[i], &q[i]);                            \
            G##_from_xyzz(&tmp, ox[i]);                                        \
            if (!P##_is_equal(&want, &tmp) && bad++ < 3)                       \
                fprintf(stderr, "g%d xyzz_madd_lz lift %d point %d\n", group, lift, i); \
        }                                                                      \
        CHECK_EQ_INT(bad, 0);                                                  \
    }                                                                          \
    free(lx);                                                                  \
    CHECK_OK(cz_cuda_test_ec(ctx(), group, CZ_CUDA_TEST_XYZZ_DBL, ox, px, NULL, NPTS)); \
    bad = 0;                                                                   \
    for (int i = 0; i < NPTS; i++) {                                           \
        P##_double(&want, &p[i]);                                              \
        G##_from_xyzz(&tmp, ox[i]);                                            \
        if (!P##_is_equal(&want, &tmp) && bad++ < 3) fprintf(stderr, "g%d xyzz_dbl %d\n", group, i); \
    }                                                                          \
    CHECK_EQ_INT(bad, 0);                                                      \
    CHECK_OK(cz_cuda_test_ec(ctx(), group, CZ_CUDA_TEST_AFF_ADD, oa, pa, qa, NPTS)); \
    bad = 0;                                                                   \
    for (int i = 0; i < NPTS; i++) {                                           \
        PA wa;                                                                 \
        P##_add_or_double(&want, &p[i], &q[i]);                                \
        P##_to_affine(&wa, &want);                                             \
        if (!PA##_is_equal(&wa, &oa[i]) && bad++ < 3) fprintf(stderr, "g%d aff_add %d\n", group, i); \
    }                                                                          \
    CHECK_EQ_INT(bad, 0);                                                      \
    free(p); free(q); free(out); free(pa); free(qa); free(oa); free(px); free(qx); free(ox); \
}

/* clang-format on */
EC_TESTS(g1, blst_p1, blst_p1_affine, blst_fp)
EC_TESTS(g2, blst_p2, blst_p2_affine, blst_fp2)

CZ_TEST(g1_points)
{
    if (gpu_or_skip())
        g1_check(1);
}
CZ_TEST(g2_points)
{
    if (gpu_or_skip())
        g2_check(2);
}

/* ---- params points decoded on the device ------------------------------------- */

#define NDEC 300

/* Corrupt encoded point |pt| (|len| bytes) by |how|: flags, a coordinate >= p, off the curve. */
static void corrupt(uint8_t *pt, size_t len, int how)
{
    static const uint8_t P_BE[48] = { 0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b,
                                      0xa7, 0xb6, 0x43, 0x4b, 0xac, 0xd7, 0x64, 0x77, 0x4b, 0x84,
                                      0xf3, 0x85, 0x12, 0xbf, 0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0,
                                      0xf6, 0x24, 0x1e, 0xab, 0xff, 0xfe, 0xb1, 0x53, 0xff, 0xff,
                                      0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab };
    switch (how) {
    case 0: pt[0] |= 0x80; break; /* the compressed flag */
    case 1:
        memset(pt, 0, len);
        pt[0] = 0x40;
        break;                                      /* the infinity encoding */
    case 2: pt[0] |= 0x20; break;                   /* a sort flag */
    case 3: memcpy(pt + len - 48, P_BE, 48); break; /* last coordinate = p */
    default: pt[len - 1] ^= 1; break;               /* off the curve */
    }
}

static int cpu_decode(int g2, const uint8_t *in, void *out)
{
    if (in[0] & 0x80)
        return CZ_EFORMAT; /* as groth16/params.c: never the compressed form */
    int rc = g2 ? cz_g2_decode(NULL, out, in, CZ_G2_UNCOMPRESSED, CZ_DECODE_NO_INFINITY, "")
                : cz_g1_decode(NULL, out, in, CZ_G1_UNCOMPRESSED, CZ_DECODE_NO_INFINITY, "");
    return rc;
}

/*
 * NDEC encoded points (|bad| >= 0: point |bad| corrupted by |how|) decoded
 * on the device: the bytes of the CPU decode, and the first refused index
 * is the first the CPU refuses.
 */
static void check_decode(int g2, long bad, int how)
{
    const size_t enc = g2 ? CZ_G2_UNCOMPRESSED : CZ_G1_UNCOMPRESSED;
    const size_t aff = g2 ? sizeof(blst_p2_affine) : sizeof(blst_p1_affine);
    REQUIRE(enc == aff);
    uint8_t *in = malloc(NDEC * enc), *want = calloc(NDEC, aff), *got = malloc(NDEC * aff);
    cz_rng rng;
    cz_rng_seed(&rng, 99 + (uint64_t)bad);
    for (size_t i = 0; i < NDEC; i++) {
        byte sc[32];
        for (int j = 0; j < 32; j++)
            sc[j] = (byte)cz_rng_next(&rng);
        if (g2) {
            blst_p2 q;
            blst_p2_affine a;
            blst_p2_mult(&q, blst_p2_generator(), sc, 255);
            blst_p2_to_affine(&a, &q);
            blst_p2_affine_serialize(in + i * enc, &a);
        } else {
            blst_p1 q;
            blst_p1_affine a;
            blst_p1_mult(&q, blst_p1_generator(), sc, 255);
            blst_p1_to_affine(&a, &q);
            blst_p1_affine_serialize(in + i * enc, &a);
        }
    }
    if (bad >= 0)
        corrupt(in + (size_t)bad * enc, enc, how);
    size_t cpu_bad = SIZE_MAX;
    for (size_t i = 0; i < NDEC && cpu_bad == SIZE_MAX; i++)
        if (cpu_decode(g2, in + i * enc, want + i * aff) != CZ_OK)
            cpu_bad = i;
    CHECK(cpu_bad == (bad >= 0 ? (size_t)bad : SIZE_MAX)); /* the corruption is one */
    void *dev = NULL;
    REQUIRE(cz_cuda_malloc(ctx(), &dev, NDEC * enc) == CZ_OK);
    CHECK_OK(cz_cuda_memcpy_htod(ctx(), dev, in, NDEC * enc));
    size_t first_bad = 0;
    CHECK_OK(cz_cuda_decode_points(ctx(), dev, NDEC, g2, &first_bad));
    CHECK_OK(cz_cuda_memcpy_dtoh(ctx(), got, dev, NDEC * aff));
    if (first_bad != cpu_bad)
        CZ__FAIL("g%d, point %ld corrupted by %d: device refused %zu, the cpu %zu", g2 + 1, bad,
                 how, first_bad, cpu_bad);
    const size_t good = cpu_bad == SIZE_MAX ? NDEC : cpu_bad;
    CHECK_MEM_EQ(want, got, good * aff);
    cz_cuda_free(dev);
    free(in);
    free(want);
    free(got);
}

CZ_TEST(params_points_decode_on_the_device_as_on_the_cpu)
{
    if (!gpu_or_skip())
        return;
    for (int g2 = 0; g2 < 2; g2++) {
        check_decode(g2, -1, 0);
        for (int how = 0; how < 5; how++)
            check_decode(g2, how * 60 + 7, how);
    }
}

CZ_TEST_MAIN()
