/*
 * tests/ec/test_split.c — restricting a split to a density equals splitting
 * the compacted scalars directly (ones bitmap, significant indices and
 * values, counts), for densities that are empty, full, sparse, and with
 * lengths that are not multiples of 64.
 */
#include <stdlib.h>
#include <string.h>

#include "ec/msm.h"
#include "ff/fr.h"
#include "cz_test.h"

static void check_restrict(cz_ctx_t *ctx, size_t n, unsigned density_pct, uint64_t seed)
{
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    blst_scalar *s = malloc((n ? n : 1) * sizeof *s), *compact = malloc((n ? n : 1) * sizeof *s);
    uint64_t *density = calloc((n + 63) / 64 + 1, sizeof *density);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        cz_fr f = CZ_FR_ZERO;
        uint64_t pick = cz_rng_next(&rng) % 100;
        if (pick >= 90)
            cz_fr_random_rng(&f, &rng);
        else if (pick >= 40)
            f = CZ_FR_ONE;
        cz_fr_to_scalar(&s[i], &f);
        if (cz_rng_next(&rng) % 100 < density_pct) {
            density[i / 64] |= 1ull << (i % 64);
            compact[m++] = s[i];
        }
    }
    /* garbage past n must be ignored */
    if (n % 64)
        density[n / 64] |= ~0ull << (n % 64);
    cz_scalar_split full, got, want;
    CHECK_OK(cz_scalar_split_build(ctx, &full, s, n));
    CHECK_OK(cz_scalar_split_restrict(ctx, &got, &full, density));
    CHECK_OK(cz_scalar_split_build(ctx, &want, compact, m));
    CHECK_EQ_U64(got.n, m);
    CHECK_EQ_U64(got.n_ones, want.n_ones);
    CHECK_EQ_U64(got.n_zero, want.n_zero);
    REQUIRE(got.n_sig == want.n_sig);
    for (size_t w = 0; w < (m + 63) / 64; w++)
        CHECK_EQ_U64(got.ones[w], want.ones[w]);
    for (size_t i = 0; i < got.n_sig; i++) {
        CHECK_EQ_U64(got.sig_index[i], want.sig_index[i]);
        CHECK_MEM_EQ(got.sig_scalar[i].b, want.sig_scalar[i].b, 32);
    }
    cz_scalar_split_free(&full);
    cz_scalar_split_free(&got);
    cz_scalar_split_free(&want);
    free(s);
    free(compact);
    free(density);
}

CZ_TEST(restrict_matches_direct_split)
{
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 3));
    size_t sizes[] = { 0, 1, 63, 64, 65, 1000, 150001 };
    unsigned pcts[] = { 0, 25, 99, 100 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t j = 0; j < sizeof pcts / sizeof *pcts; j++)
            check_restrict(ctx, sizes[i], pcts[j], 100 * i + j);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
