/*
 * tests/ec/test_msm.c — MSM, batch addition and the scalar split against
 * naive double-and-add sums (and against blst's own single-threaded
 * Pippenger at sizes where naive sums are slow), for G1 and G2, many sizes
 * (0, 1, 2, odd, ...) and mixes (zero, one, significant, mixed, small,
 * duplicate bases).
 */
#include <stdlib.h>
#include <string.h>

#include "ec/curve.h"
#include "ec/group.h"
#include "ec/msm.h"
#include "ff/fr.h"
#include "cz_test.h"

enum mix { MIX_ZERO, MIX_ONE, MIX_RANDOM, MIX_FILECOIN, MIX_SMALL, MIX_MAX };
static const char *mix_name[] = { "zero", "one", "random", "filecoin", "small", "max" };

static void make_scalars(blst_scalar *s, size_t n, enum mix mix, uint64_t seed)
{
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        cz_fr f = CZ_FR_ZERO;
        uint64_t pick = cz_rng_next(&rng) % 100;
        switch (mix) {
        case MIX_ZERO: break;
        case MIX_ONE: f = CZ_FR_ONE; break;
        case MIX_RANDOM: cz_fr_random_rng(&f, &rng); break;
        case MIX_FILECOIN: /* 50% zero, 45% one, 5% random (issue 2) */
            if (pick >= 95)
                cz_fr_random_rng(&f, &rng);
            else if (pick >= 50)
                f = CZ_FR_ONE;
            break;
        case MIX_SMALL: cz_fr_from_u64(&f, cz_rng_next(&rng) % 100000); break;
        case MIX_MAX: cz_fr_neg(&f, &CZ_FR_ONE); break; /* r - 1 */
        }
        cz_fr_to_scalar(&s[i], &f);
    }
}

/* sum_i s_i * B_i by one scalar multiplication per point */
static void naive_msm(const cz_group *g, void *out, const void *bases, const blst_scalar *s,
                      size_t n)
{
    uint8_t p[sizeof(blst_p2)], t[sizeof(blst_p2)];
    memset(out, 0, g->proj_size);
    for (size_t i = 0; i < n; i++) {
        g->from_affine(p, cz_aff(g, bases, i));
        g->mult(t, p, s[i].b, 255);
        g->add(out, out, t);
    }
}

static int points_equal(const cz_group *g, const void *a, const void *b)
{
    return g == &CZ_G1 ? blst_p1_is_equal(a, b) : blst_p2_is_equal(a, b);
}

static cz_ctx_t *new_ctx(unsigned threads)
{
    cz_ctx_t *ctx = NULL;
    cz_ctx_new(&ctx, NULL, threads);
    return ctx;
}

static void check_msm_case(cz_ctx_t *ctx, const cz_group *g, size_t n, enum mix mix, int dup)
{
    void *bases = malloc((n ? n : 1) * g->affine_size);
    blst_scalar *s = malloc((n ? n : 1) * sizeof *s);
    cz_group_random_affine(g, bases, n, 1000 + n);
    if (dup) /* every base twice in a row: batch addition must double */
        for (size_t i = 1; i < n; i += 2)
            memcpy((uint8_t *)bases + i * g->affine_size, cz_aff(g, bases, i - 1), g->affine_size);
    make_scalars(s, n, mix, 7 * n + mix);

    blst_p2 want, got;
    naive_msm(g, &want, bases, s, n);
    int (*msm)(cz_ctx_t *, void *, const void *, const blst_scalar *, size_t);
    int (*msm_auto)(cz_ctx_t *, void *, const void *, const blst_scalar *, size_t);
    if (g == &CZ_G1) {
        msm = (void *)cz_g1_msm;
        msm_auto = (void *)cz_g1_msm_auto;
    } else {
        msm = (void *)cz_g2_msm;
        msm_auto = (void *)cz_g2_msm_auto;
    }
    CHECK_OK(msm(ctx, &got, bases, s, n));
    if (!points_equal(g, &want, &got))
        CZ__FAIL("%s msm n=%zu mix=%s dup=%d differs from naive", g->name, n, mix_name[mix], dup);
    CHECK_OK(msm_auto(ctx, &got, bases, s, n));
    if (!points_equal(g, &want, &got))
        CZ__FAIL("%s msm_auto n=%zu mix=%s dup=%d differs from naive", g->name, n, mix_name[mix],
                 dup);
    free(bases);
    free(s);
}

CZ_TEST(g1_msm_matches_naive_sizes_and_mixes)
{
    cz_ctx_t *ctx = new_ctx(3);
    size_t sizes[] = { 0, 1, 2, 3, 5, 64, 77, 130, 301 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int mix = 0; mix <= MIX_MAX; mix++)
            check_msm_case(ctx, &CZ_G1, sizes[i], (enum mix)mix, 0);
    check_msm_case(ctx, &CZ_G1, 200, MIX_FILECOIN, 1);
    check_msm_case(ctx, &CZ_G1, 201, MIX_ONE, 1);
    check_msm_case(ctx, &CZ_G1, 200, MIX_RANDOM, 1);
    cz_ctx_free(ctx);
}

CZ_TEST(g2_msm_matches_naive)
{
    cz_ctx_t *ctx = new_ctx(2);
    size_t sizes[] = { 0, 1, 2, 9, 67 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int mix = 0; mix <= MIX_MAX; mix++)
            check_msm_case(ctx, &CZ_G2, sizes[i], (enum mix)mix, 0);
    check_msm_case(ctx, &CZ_G2, 64, MIX_FILECOIN, 1);
    cz_ctx_free(ctx);
}

/* At 2^13 points naive sums are slow; blst's single-threaded Pippenger is the reference. */
CZ_TEST(g1_msm_large_matches_blst_pippenger)
{
    const size_t n = 8191;
    cz_ctx_t *ctx = new_ctx(3);
    blst_p1_affine *bases = malloc(n * sizeof *bases);
    blst_scalar *s = malloc(n * sizeof *s);
    cz_g1_random_affine(bases, n, 5);
    for (int mix = MIX_RANDOM; mix <= MIX_SMALL; mix++) {
        make_scalars(s, n, (enum mix)mix, 99);
        void *scratch = malloc(blst_p1s_mult_pippenger_scratch_sizeof(n));
        const blst_p1_affine *pts[2] = { bases, NULL };
        const uint8_t *sc[2] = { s[0].b, NULL };
        blst_p1 want, got;
        blst_p1s_mult_pippenger(&want, pts, n, sc, 255, scratch);
        free(scratch);
        CHECK_OK(cz_g1_msm(ctx, &got, bases, s, n));
        CHECK(blst_p1_is_equal(&want, &got));
        CHECK_OK(cz_g1_msm_auto(ctx, &got, bases, s, n));
        CHECK(blst_p1_is_equal(&want, &got));
    }
    free(bases);
    free(s);
    cz_ctx_free(ctx);
}

CZ_TEST(result_independent_of_thread_count)
{
    const size_t n = 3000;
    blst_p1_affine *bases = malloc(n * sizeof *bases);
    blst_scalar *s = malloc(n * sizeof *s);
    cz_g1_random_affine(bases, n, 11);
    make_scalars(s, n, MIX_RANDOM, 12);
    blst_p1 r[4];
    unsigned threads[] = { 1, 2, 5, 8 };
    for (int i = 0; i < 4; i++) {
        cz_ctx_t *ctx = new_ctx(threads[i]);
        CHECK_OK(cz_g1_msm(ctx, &r[i], bases, s, n));
        cz_ctx_free(ctx);
    }
    for (int i = 1; i < 4; i++)
        CHECK(blst_p1_is_equal(&r[0], &r[i]));
    free(bases);
    free(s);
}

CZ_TEST(batch_add_matches_naive_and_ignores_bits_past_n)
{
    cz_ctx_t *ctx = new_ctx(3);
    size_t sizes[] = { 0, 1, 63, 64, 65, 1000, 70000 };
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k], words = (n + 63) / 64 + 1;
        blst_p1_affine *bases = malloc((n ? n : 1) * sizeof *bases);
        uint64_t *bitmap = malloc(words * sizeof *bitmap);
        cz_g1_random_affine(bases, n, 20 + n);
        cz_rng rng;
        cz_rng_seed(&rng, n);
        for (size_t w = 0; w < words; w++)
            bitmap[w] = cz_rng_next(&rng); /* garbage past n too */
        blst_p1 want, got, p;
        memset(&want, 0, sizeof want);
        for (size_t i = 0; i < n; i++) {
            if (bitmap[i / 64] >> (i % 64) & 1) {
                blst_p1_from_affine(&p, &bases[i]);
                blst_p1_add_or_double(&want, &want, &p);
            }
        }
        CHECK_OK(cz_g1_batch_add(ctx, &got, bases, bitmap, n));
        if (!blst_p1_is_equal(&want, &got))
            CZ__FAIL("batch_add n=%zu differs", n);
        free(bases);
        free(bitmap);
    }
    cz_ctx_free(ctx);
}

CZ_TEST(g2_batch_add_with_duplicates)
{
    cz_ctx_t *ctx = new_ctx(2);
    const size_t n = 300;
    blst_p2_affine *bases = malloc(n * sizeof *bases);
    cz_g2_random_affine(bases, n, 3);
    for (size_t i = 1; i < n; i += 2)
        bases[i] = bases[i - 1];
    uint64_t bitmap[5] = { ~0ull, ~0ull, ~0ull, ~0ull, ~0ull };
    blst_p2 want, got, p;
    memset(&want, 0, sizeof want);
    for (size_t i = 0; i < n; i++) {
        blst_p2_from_affine(&p, &bases[i]);
        blst_p2_add_or_double(&want, &want, &p);
    }
    CHECK_OK(cz_g2_batch_add(ctx, &got, bases, bitmap, n));
    CHECK(blst_p2_is_equal(&want, &got));
    free(bases);
    cz_ctx_free(ctx);
}

CZ_TEST(split_classifies_and_orders)
{
    cz_ctx_t *ctx = new_ctx(3);
    const size_t n = 200000; /* several split chunks */
    blst_scalar *s = malloc(n * sizeof *s);
    make_scalars(s, n, MIX_FILECOIN, 4);
    /* one small significant scalar (2) and a large one at the end */
    cz_fr two;
    cz_fr_from_u64(&two, 2);
    cz_fr_to_scalar(&s[10], &two);
    cz_scalar_split sp;
    CHECK_OK(cz_scalar_split_build(ctx, &sp, s, n));
    size_t zeros = 0, ones = 0, sig = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t w[4];
        memcpy(w, s[i].b, 32);
        int is_one = w[0] == 1 && !(w[1] | w[2] | w[3]);
        int is_zero = !(w[0] | w[1] | w[2] | w[3]);
        CHECK_EQ_INT((sp.ones[i / 64] >> (i % 64)) & 1, is_one);
        if (is_zero)
            zeros++;
        else if (is_one)
            ones++;
        else {
            if (sig < sp.n_sig) {
                CHECK_EQ_U64(sp.sig_index[sig], i);
                CHECK_MEM_EQ(sp.sig_scalar[sig].b, s[i].b, 32);
            }
            sig++;
        }
    }
    CHECK_EQ_U64(sp.n_zero, zeros);
    CHECK_EQ_U64(sp.n_ones, ones);
    CHECK_EQ_U64(sp.n_sig, sig);
    CHECK_EQ_U64(cz_bitmap_popcount(sp.ones, n), ones);
    CHECK(sp.sig_bits >= 250 && sp.sig_bits <= 255);
    cz_scalar_split_free(&sp);
    cz_scalar_split_free(&sp); /* harmless twice */

    /* empty input */
    CHECK_OK(cz_scalar_split_build(ctx, &sp, NULL, 0));
    CHECK_EQ_U64(sp.n_sig + sp.n_ones + sp.n_zero, 0);
    cz_scalar_split_free(&sp);
    free(s);
    cz_ctx_free(ctx);
}

CZ_TEST(split_msm_matches_naive)
{
    cz_ctx_t *ctx = new_ctx(3);
    const size_t n = 777;
    blst_p1_affine *bases = malloc(n * sizeof *bases);
    blst_scalar *s = malloc(n * sizeof *s);
    cz_g1_random_affine(bases, n, 8);
    for (int mix = 0; mix <= MIX_MAX; mix++) {
        make_scalars(s, n, (enum mix)mix, 50 + mix);
        cz_scalar_split sp;
        CHECK_OK(cz_scalar_split_build(ctx, &sp, s, n));
        blst_p1 want, got;
        naive_msm(&CZ_G1, &want, bases, s, n);
        CHECK_OK(cz_g1_msm_split(ctx, &got, bases, &sp));
        if (!blst_p1_is_equal(&want, &got))
            CZ__FAIL("split msm mix=%s differs", mix_name[mix]);
        cz_scalar_split_free(&sp);
    }
    free(bases);
    free(s);
    cz_ctx_free(ctx);
}

CZ_TEST(gather_with_unsorted_indices_and_few_bits)
{
    cz_ctx_t *ctx = new_ctx(2);
    const size_t n = 100;
    blst_p1_affine *bases = malloc(n * sizeof *bases);
    cz_g1_random_affine(bases, n, 9);
    uint32_t idx[40];
    blst_scalar s[40];
    blst_p1 want, got, p, t;
    memset(&want, 0, sizeof want);
    for (int i = 0; i < 40; i++) {
        idx[i] = (uint32_t)((i * 37 + 11) % n);
        cz_fr f;
        cz_fr_from_u64(&f, (uint64_t)(i + 2) * 1000003u);
        cz_fr_to_scalar(&s[i], &f);
        blst_p1_from_affine(&p, &bases[idx[i]]);
        blst_p1_mult(&t, &p, s[i].b, 255);
        blst_p1_add_or_double(&want, &want, &t);
    }
    CHECK_OK(cz_g1_msm_gather(ctx, &got, bases, idx, s, 40, 0)); /* find the bit length */
    CHECK(blst_p1_is_equal(&want, &got));
    CHECK_OK(cz_g1_msm_gather(ctx, &got, bases, idx, s, 40, 255));
    CHECK(blst_p1_is_equal(&want, &got));
    free(bases);
    cz_ctx_free(ctx);
}

CZ_TEST(null_arguments_are_errors)
{
    cz_ctx_t *ctx = new_ctx(1);
    blst_p1 out;
    blst_scalar s;
    CHECK_EQ_INT(cz_g1_msm(ctx, &out, NULL, &s, 4), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "G1 MSM") != NULL);
    CHECK_EQ_INT(cz_g1_batch_add(ctx, NULL, NULL, NULL, 0), CZ_EINVAL);
    CHECK_OK(cz_g1_msm(ctx, &out, NULL, NULL, 0));
    CHECK(blst_p1_is_inf(&out));
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
