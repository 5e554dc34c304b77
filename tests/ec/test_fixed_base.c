/*
 * tests/ec/test_fixed_base.c — k_i * P by the window table against blst's
 * own scalar multiplication (blst_p1_mult / blst_p2_mult), in G1 and G2,
 * for the generator and another point, several windows, scalars at the
 * edges (0, 1, 2^w - 1, 2^w, r - 1, digits of all ones) and random ones,
 * on pools of width 1 and 2.
 */
#include <string.h>
#include <time.h>

#include "ec/curve.h"
#include "ec/fixed_base.h"
#include "ff/fr.h"
#include "cz_test.h"

/* r - 1, little-endian (FACTS 1: r = 0x73eda753...00000001). */
static const uint8_t R_MINUS_1[32] = {
    0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
    0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73,
};

/* n scalars: the edge cases first, then random ones from |seed|. */
static blst_scalar *scalars(size_t n, uint64_t seed)
{
    blst_scalar *k = calloc(n, sizeof *k);
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        cz_fr f;
        switch (i) {
        case 0: break; /* 0 -> infinity */
        case 1: k[i].b[0] = 1; break;
        case 2: k[i].b[0] = 0xff; break; /* 2^8 - 1 */
        case 3: k[i].b[1] = 1; break;    /* 2^8 */
        case 4: memcpy(k[i].b, R_MINUS_1, 32); break;
        case 5:
            memset(k[i].b, 0xff, 31);
            k[i].b[31] = 0x3f;
            break;                        /* 2^254 - 1 */
        case 6: k[i].b[31] = 0x40; break; /* 2^254: top window only */
        default: cz_fr_random_rng(&f, &rng); cz_fr_to_scalar(&k[i], &f);
        }
    }
    return k;
}

static void check_g1(cz_ctx_t *ctx, const blst_p1 *base, unsigned window, size_t n)
{
    blst_scalar *k = scalars(n, 100 + window);
    blst_p1_affine *out = calloc(n, sizeof *out);
    cz_fixed_base_t *fb;
    REQUIRE(cz_fixed_base_new(ctx, &fb, &CZ_G1, base, window, n) == CZ_OK);
    CHECK_OK(cz_fixed_base_mul(ctx, fb, out, k, n));
    for (size_t i = 0; i < n; i++) {
        blst_p1 want;
        blst_p1_affine wa;
        blst_p1_mult(&want, base, k[i].b, 255);
        blst_p1_to_affine(&wa, &want);
        if (!blst_p1_affine_is_equal(&out[i], &wa))
            CZ__FAIL("G1 window %u: product %zu differs", cz_fixed_base_window_of(fb), i);
    }
    CHECK(blst_p1_affine_is_inf(&out[0]));
    cz_fixed_base_free(fb);
    free(out);
    free(k);
}

static void check_g2(cz_ctx_t *ctx, const blst_p2 *base, unsigned window, size_t n)
{
    blst_scalar *k = scalars(n, 200 + window);
    blst_p2_affine *out = calloc(n, sizeof *out);
    cz_fixed_base_t *fb;
    REQUIRE(cz_fixed_base_new(ctx, &fb, &CZ_G2, base, window, n) == CZ_OK);
    CHECK_OK(cz_fixed_base_mul(ctx, fb, out, k, n));
    for (size_t i = 0; i < n; i++) {
        blst_p2 want;
        blst_p2_affine wa;
        blst_p2_mult(&want, base, k[i].b, 255);
        blst_p2_to_affine(&wa, &want);
        if (!blst_p2_affine_is_equal(&out[i], &wa))
            CZ__FAIL("G2 window %u: product %zu differs", cz_fixed_base_window_of(fb), i);
    }
    CHECK(blst_p2_affine_is_inf(&out[0]));
    cz_fixed_base_free(fb);
    free(out);
    free(k);
}

CZ_TEST(fixed_base_g1_matches_blst)
{
    cz_ctx_t *c1, *c2;
    REQUIRE(cz_ctx_new(&c1, NULL, 1) == CZ_OK);
    REQUIRE(cz_ctx_new(&c2, NULL, 2) == CZ_OK);
    blst_p1_affine qa;
    blst_p1 q;
    cz_g1_random_affine(&qa, 1, 7);
    blst_p1_from_affine(&q, &qa);
    const unsigned windows[] = { 1, 5, 8, 13, 0 };
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++) {
        check_g1(c1, blst_p1_generator(), windows[i], 300); /* > one chunk of 256 */
        check_g1(c2, &q, windows[i], 300);
    }
    cz_ctx_free(c1);
    cz_ctx_free(c2);
}

CZ_TEST(fixed_base_g2_matches_blst)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 2) == CZ_OK);
    blst_p2_affine qa;
    blst_p2 q;
    cz_g2_random_affine(&qa, 1, 9);
    blst_p2_from_affine(&q, &qa);
    check_g2(ctx, blst_p2_generator(), 8, 40);
    check_g2(ctx, &q, 11, 40);
    check_g2(NULL, blst_p2_generator(), 0, 20);
    cz_ctx_free(ctx);
}

CZ_TEST(fixed_base_one_shot_and_errors)
{
    blst_scalar *k = scalars(10, 5);
    blst_p1_affine a[10];
    blst_p2_affine b[10];
    CHECK_OK(cz_g1_fixed_base_mul_many(NULL, a, blst_p1_generator(), k, 10));
    CHECK_OK(cz_g2_fixed_base_mul_many(NULL, b, blst_p2_generator(), k, 10));
    for (int i = 0; i < 10; i++) {
        blst_p1 p;
        blst_p1_affine pa;
        blst_p2 q;
        blst_p2_affine qa;
        blst_p1_mult(&p, blst_p1_generator(), k[i].b, 255);
        blst_p1_to_affine(&pa, &p);
        blst_p2_mult(&q, blst_p2_generator(), k[i].b, 255);
        blst_p2_to_affine(&qa, &q);
        CHECK(blst_p1_affine_is_equal(&a[i], &pa));
        CHECK(blst_p2_affine_is_equal(&b[i], &qa));
    }
    CHECK_OK(cz_g1_fixed_base_mul_many(NULL, a, blst_p1_generator(), k, 0));
    cz_fixed_base_t *fb;
    CHECK_EQ_INT(cz_fixed_base_new(NULL, &fb, &CZ_G1, blst_p1_generator(), 17, 0), CZ_EINVAL);
    CHECK(fb == NULL);
    CHECK_EQ_INT(cz_fixed_base_new(NULL, &fb, &CZ_G1, NULL, 8, 0), CZ_EINVAL);
    cz_fixed_base_free(NULL);
    /* The automatic window grows with the count. */
    CHECK(cz_fixed_base_window(10) <= cz_fixed_base_window(100000));
    CHECK(cz_fixed_base_window(1u << 24) <= 14);
    free(k);
}

CZ_TEST(fixed_base_rate)
{
    size_t n = 4096;
    blst_scalar *k = scalars(n, 77);
    blst_p1_affine *out = malloc(n * sizeof *out);
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    struct timespec t0, t1, t2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_OK(cz_g1_fixed_base_mul_many(ctx, out, blst_p1_generator(), k, n));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    for (size_t i = 0; i < 256; i++) {
        blst_p1 p;
        blst_p1_mult(&p, blst_p1_generator(), k[i].b, 255);
    }
    clock_gettime(CLOCK_MONOTONIC, &t2);
    double fixed = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    double plain = (double)(t2.tv_sec - t1.tv_sec) + 1e-9 * (double)(t2.tv_nsec - t1.tv_nsec);
    printf("  G1, 1 thread: fixed base %.1f us/product (window %u, table included), "
           "blst_p1_mult %.1f us\n",
           1e6 * fixed / (double)n, cz_fixed_base_window(n), 1e6 * plain / 256);
    cz_ctx_free(ctx);
    free(out);
    free(k);
}

CZ_TEST_MAIN()
