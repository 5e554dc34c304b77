/*
 * tests/backend/test_cpu_h_cfree.c — cz_cpu_compute_h with c == NULL
 * (c = a*b formed by the backend, backend/backend.h) returns the bytes of
 * the call given that c, for full and padded domains, n = 0, one and two
 * pool threads, and sizes where the pool splits the passes (2^16). The
 * c-given path itself is checked against O(m^2) arithmetic in test_cpu_h.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/h.h"
#include "cz_test.h"

static void random_fill(cz_fr *v, size_t n, uint64_t seed)
{
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++)
        cz_fr_random_rng(&v[i], &rng);
}

/* h(a, b, a*b) and h(a, b, NULL) on |threads| threads; [n, m) left as junk. */
static void check_same(unsigned log_m, size_t n, unsigned threads, uint64_t seed)
{
    const size_t m = (size_t)1 << log_m;
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, threads) == CZ_OK);
    cz_ntt_domain *d;
    REQUIRE(cz_ntt_domain_new(ctx, &d, log_m) == CZ_OK);
    cz_fr *a = malloc(m * sizeof *a), *b = malloc(m * sizeof *b), *c = malloc(m * sizeof *c);
    cz_fr *a2 = malloc(m * sizeof *a2), *b2 = malloc(m * sizeof *b2);
    REQUIRE(a && b && c && a2 && b2);
    random_fill(a, m, seed); /* the tail is junk: the call must pad it */
    random_fill(b, m, seed + 1);
    random_fill(c, m, seed + 2);
    for (size_t i = 0; i < n; i++) {
        if (i % 3 == 0)
            a[i] = CZ_FR_ZERO; /* zeros and ones, like a witness */
        if (i % 5 == 0)
            b[i] = CZ_FR_ONE;
        cz_fr_mul(&c[i], &a[i], &b[i]);
    }
    memcpy(a2, a, m * sizeof *a);
    memcpy(b2, b, m * sizeof *b);
    CHECK_OK(cz_cpu_compute_h(ctx, d, a, b, c, n));
    CHECK_OK(cz_cpu_compute_h(ctx, d, a2, b2, NULL, n));
    if (memcmp(a, a2, m * sizeof *a) != 0)
        CZ__FAIL("2^%u, n = %zu, %u threads: h(c = NULL) != h(c = a*b)", log_m, n, threads);
    if (n == 0) {
        size_t nz = 0;
        for (size_t i = 0; i < m; i++)
            nz += !cz_fr_is_zero(&a2[i]);
        CHECK_EQ_U64(nz, 0); /* nothing to prove: h = 0 */
    }
    free(a);
    free(b);
    free(c);
    free(a2);
    free(b2);
    cz_ntt_domain_free(d);
    cz_ctx_free(ctx);
}

CZ_TEST(c_null_equals_c_given_small)
{
    check_same(3, 8, 1, 1);
    check_same(3, 5, 2, 2);
    check_same(3, 0, 2, 3);
    check_same(6, 50, 2, 4);
    check_same(7, 128, 1, 5);
}

CZ_TEST(c_null_equals_c_given_2_16)
{
    check_same(16, (1u << 16) - 333, 2, 6);
    check_same(16, 1u << 16, 2, 7);
    check_same(12, 3000, 1, 8);
}

CZ_TEST(c_null_rejects_oversized_input)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_ntt_domain *d;
    REQUIRE(cz_ntt_domain_new(ctx, &d, 3) == CZ_OK);
    cz_fr a[8], b[8];
    CHECK_EQ_INT(cz_cpu_compute_h(ctx, d, a, b, NULL, 9), CZ_EMISMATCH);
    cz_ntt_domain_free(d);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
