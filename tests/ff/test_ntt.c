/*
 * tests/ff/test_ntt.c — the CPU NTT: bellperson's conventions (FACTS 1)
 * against an O(n^2) DFT at small sizes, spot checks and round trips at the
 * multi-pass sizes, bit-identical results across thread counts, a domain
 * shared by threads, and the error paths.
 */
#include <pthread.h>
#include <stdlib.h>

#include "ff/ntt.h"
#include "cz_test.h"

static cz_fr *random_vec(size_t n, uint64_t seed)
{
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    cz_fr *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++)
        cz_fr_random_rng(&v[i], &rng);
    return v;
}

static cz_fr *copy_vec(const cz_fr *v, size_t n)
{
    cz_fr *c = malloc((n ? n : 1) * sizeof *c);
    memcpy(c, v, n * sizeof *c);
    return c;
}

static bool vec_eq(const cz_fr *a, const cz_fr *b, size_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

/* sum_i in[i] * shift^i * w^(ik): the k-th point of a (coset) DFT. */
static void dft_point(cz_fr *out, const cz_fr *in, size_t n, const cz_fr *w, const cz_fr *shift,
                      size_t k)
{
    cz_fr wk, f = CZ_FR_ONE, acc = CZ_FR_ZERO, t;
    cz_fr_pow_u64(&wk, w, k);
    for (size_t i = 0; i < n; i++) {
        cz_fr_mul(&t, &in[i], &f);
        cz_fr_add(&acc, &acc, &t);
        cz_fr_mul(&f, &f, &wk);
        if (shift)
            cz_fr_mul(&f, &f, shift);
    }
    *out = acc;
}

/* The textbook definitions of ntt.h, O(n^2). */
static void naive(cz_fr *out, const cz_fr *in, unsigned log_n, bool inverse, bool coset)
{
    size_t n = (size_t)1 << log_n;
    cz_fr w, g, n_fr, n_inv;
    cz_fr_root_of_unity(&w, log_n);
    cz_fr_from_u64(&g, CZ_FR_GENERATOR);
    cz_fr_from_u64(&n_fr, n);
    cz_fr_inverse(&n_inv, &n_fr);
    if (!inverse) {
        for (size_t k = 0; k < n; k++)
            dft_point(&out[k], in, n, &w, coset ? &g : NULL, k);
        return;
    }
    cz_fr w_inv, g_inv, f = n_inv;
    cz_fr_inverse(&w_inv, &w);
    cz_fr_inverse(&g_inv, &g);
    for (size_t i = 0; i < n; i++) {
        dft_point(&out[i], in, n, &w_inv, NULL, i);
        cz_fr_mul(&out[i], &out[i], &f); /* f = n^-1 (g^-i for coset) */
        if (coset)
            cz_fr_mul(&f, &f, &g_inv);
    }
}

typedef int ntt_fn(cz_ctx_t *, const cz_ntt_domain *, cz_fr *);

CZ_TEST(matches_naive_dft_up_to_2_7)
{
    static ntt_fn *const fns[4] = { cz_ntt_forward, cz_ntt_inverse, cz_ntt_coset_forward,
                                    cz_ntt_coset_inverse };
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    for (unsigned log_n = 0; log_n <= 7; log_n++) {
        size_t n = (size_t)1 << log_n;
        cz_ntt_domain *d;
        REQUIRE(cz_ntt_domain_new(ctx, &d, log_n) == CZ_OK);
        CHECK_EQ_INT(cz_ntt_domain_log_n(d), log_n);
        for (int op = 0; op < 4; op++) {
            cz_fr *x = random_vec(n, 100 * log_n + op), *want = malloc(n * sizeof *want);
            naive(want, x, log_n, op == 1 || op == 3, op >= 2);
            CHECK_OK(fns[op](ctx, d, x));
            if (!vec_eq(x, want, n))
                CZ__FAIL("log_n %u op %d differs from the naive DFT", log_n, op);
            free(x);
            free(want);
        }
        cz_ntt_domain_free(d);
    }
    cz_ctx_free(ctx);
}

CZ_TEST(impulse_and_constant)
{
    /* delta -> all ones; all ones -> n * delta (size 2^5). */
    enum { LOG = 5, N = 1 << LOG };
    cz_ntt_domain *d;
    REQUIRE(cz_ntt_domain_new(NULL, &d, LOG) == CZ_OK);
    cz_fr v[N], n_fr;
    for (int i = 0; i < N; i++)
        v[i] = i == 0 ? CZ_FR_ONE : CZ_FR_ZERO;
    CHECK_OK(cz_ntt_forward(NULL, d, v));
    for (int i = 0; i < N; i++)
        CHECK(cz_fr_is_one(&v[i]));
    CHECK_OK(cz_ntt_forward(NULL, d, v));
    cz_fr_from_u64(&n_fr, N);
    CHECK(cz_fr_eq(&v[0], &n_fr));
    for (int i = 1; i < N; i++)
        CHECK(cz_fr_is_zero(&v[i]));
    cz_ntt_domain_free(d);
}

/* Forward at a multi-pass size, checked at a few points against the sum. */
static void spot_check(cz_ctx_t *ctx, unsigned log_n, bool coset)
{
    size_t n = (size_t)1 << log_n;
    cz_ntt_domain *d;
    REQUIRE(cz_ntt_domain_new(ctx, &d, log_n) == CZ_OK);
    cz_fr *x = random_vec(n, log_n), *y = copy_vec(x, n), w, g, want;
    cz_fr_root_of_unity(&w, log_n);
    cz_fr_from_u64(&g, CZ_FR_GENERATOR);
    CHECK_OK((coset ? cz_ntt_coset_forward : cz_ntt_forward)(ctx, d, y));
    const size_t ks[] = { 0, 1, 2, n / 2 - 1, n / 2, n / 2 + 1, n - 1, (n * 5) / 7 };
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
        dft_point(&want, x, n, &w, coset ? &g : NULL, ks[i]);
        if (!cz_fr_eq(&y[ks[i]], &want))
            CZ__FAIL("2^%u %s: point %zu wrong", log_n, coset ? "coset" : "plain", ks[i]);
    }
    free(x);
    free(y);
    cz_ntt_domain_free(d);
}

CZ_TEST(spot_checks_at_multi_pass_sizes)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 0) == CZ_OK);
    spot_check(ctx, 12, false); /* the contiguous last pass alone */
    spot_check(ctx, 13, false); /* a 1-stage column pass + the last pass */
    spot_check(ctx, 17, true);  /* a 5-stage column pass + the last pass */
    cz_ctx_free(ctx);
}

static void round_trip(cz_ctx_t *ctx, unsigned log_n, bool coset)
{
    size_t n = (size_t)1 << log_n;
    cz_ntt_domain *d;
    REQUIRE(cz_ntt_domain_new(ctx, &d, log_n) == CZ_OK);
    cz_fr *x = random_vec(n, 7 + log_n), *y = copy_vec(x, n);
    CHECK_OK((coset ? cz_ntt_coset_forward : cz_ntt_forward)(ctx, d, y));
    CHECK(n == 1 || !vec_eq(x, y, n)); /* size 1 is the identity */
    CHECK_OK((coset ? cz_ntt_coset_inverse : cz_ntt_inverse)(ctx, d, y));
    if (!vec_eq(x, y, n))
        CZ__FAIL("2^%u %s round trip differs", log_n, coset ? "coset" : "plain");
    free(x);
    free(y);
    cz_ntt_domain_free(d);
}

CZ_TEST(round_trips)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 0) == CZ_OK);
    for (unsigned log_n = 0; log_n <= 14; log_n++)
        round_trip(ctx, log_n, log_n & 1);
    round_trip(ctx, 20, false); /* the acceptance size */
    round_trip(ctx, 16, true);
    cz_ctx_free(ctx);
}

CZ_TEST(spot_check_two_later_passes)
{
    /* 2^21 = column passes of 5 and 4 stages + the 12-stage last pass. */
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 0) == CZ_OK);
    spot_check(ctx, 21, false);
    cz_ctx_free(ctx);
}

CZ_TEST(identical_across_thread_counts)
{
    /* NULL ctx and width 1 = the calling thread alone; then widths 2 and 4. */
    const unsigned log_n = 15;
    const size_t n = (size_t)1 << log_n;
    cz_ctx_t *ctx1, *ctx2, *ctx4;
    REQUIRE(cz_ctx_new(&ctx1, NULL, 1) == CZ_OK);
    REQUIRE(cz_ctx_new(&ctx2, NULL, 2) == CZ_OK);
    REQUIRE(cz_ctx_new(&ctx4, NULL, 4) == CZ_OK);
    CHECK_EQ_INT(cz_pool_width(cz_ctx_pool(ctx1)), 1);
    CHECK_EQ_INT(cz_pool_width(cz_ctx_pool(ctx4)), 4);
    cz_ntt_domain *d1, *d4;
    REQUIRE(cz_ntt_domain_new(NULL, &d1, log_n) == CZ_OK);
    REQUIRE(cz_ntt_domain_new(ctx4, &d4, log_n) == CZ_OK);
    static ntt_fn *const fns[4] = { cz_ntt_forward, cz_ntt_inverse, cz_ntt_coset_forward,
                                    cz_ntt_coset_inverse };
    for (int op = 0; op < 4; op++) {
        cz_fr *a = random_vec(n, 42 + op), *b = copy_vec(a, n), *c = copy_vec(a, n);
        cz_fr *e = copy_vec(a, n);
        CHECK_OK(fns[op](NULL, d1, a));
        CHECK_OK(fns[op](ctx1, d4, e));
        CHECK_OK(fns[op](ctx2, d4, b));
        CHECK_OK(fns[op](ctx4, d4, c));
        if (!vec_eq(a, e, n) || !vec_eq(a, b, n) || !vec_eq(a, c, n))
            CZ__FAIL("op %d depends on the thread count", op);
        free(e);
        free(a);
        free(b);
        free(c);
    }
    cz_ntt_domain_free(d1);
    cz_ntt_domain_free(d4);
    cz_ctx_free(ctx1);
    cz_ctx_free(ctx2);
    cz_ctx_free(ctx4);
}

typedef struct {
    const cz_ntt_domain *d;
    cz_fr *v;
    int rc;
} shared_job;

static void *run_shared(void *p)
{
    shared_job *j = p;
    cz_ctx_t *ctx;
    j->rc = cz_ctx_new(&ctx, NULL, 1);
    if (j->rc == CZ_OK)
        j->rc = cz_ntt_forward(ctx, j->d, j->v);
    cz_ctx_free(ctx);
    return NULL;
}

CZ_TEST(domain_shared_between_threads)
{
    const unsigned log_n = 14;
    const size_t n = (size_t)1 << log_n;
    cz_ntt_domain *d;
    REQUIRE(cz_ntt_domain_new(NULL, &d, log_n) == CZ_OK);
    cz_fr *want = random_vec(n, 9);
    shared_job jobs[2] = { { d, copy_vec(want, n), -1 }, { d, copy_vec(want, n), -1 } };
    CHECK_OK(cz_ntt_forward(NULL, d, want));
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        REQUIRE(pthread_create(&th[i], NULL, run_shared, &jobs[i]) == 0);
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        CHECK_OK(jobs[i].rc);
        CHECK(vec_eq(jobs[i].v, want, n));
        free(jobs[i].v);
    }
    free(want);
    cz_ntt_domain_free(d);
}

CZ_TEST(errors)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_ntt_domain *d = (cz_ntt_domain *)&d; /* must be reset to NULL */
    CHECK_EQ_INT(cz_ntt_domain_new(ctx, &d, 29), CZ_ERANGE);
    CHECK(d == NULL);
    CHECK(strstr(cz_ctx_message(ctx), "log_n 29") != NULL);
    CHECK_EQ_INT(cz_ntt_domain_new(ctx, &d, 32), CZ_ERANGE);
    CHECK_EQ_INT(cz_ntt_domain_new(ctx, &d, ~0u), CZ_ERANGE);
    CHECK_EQ_INT(cz_ntt_domain_new(NULL, &d, 40), CZ_ERANGE);
    CHECK_EQ_INT(cz_ntt_domain_new(ctx, NULL, 4), CZ_EINVAL);

    REQUIRE(cz_ntt_domain_new(ctx, &d, 3) == CZ_OK);
    cz_fr v[8], orig[8];
    for (int i = 0; i < 8; i++)
        cz_fr_from_u64(&orig[i], (uint64_t)i + 1);
    memcpy(v, orig, sizeof v);
    CHECK_EQ_INT(cz_ntt_forward(ctx, NULL, v), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "domain is NULL") != NULL);
    CHECK_EQ_INT(cz_ntt_inverse(ctx, d, NULL), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "vector is NULL") != NULL);
    CHECK_EQ_INT(cz_ntt_coset_forward(ctx, d, NULL), CZ_EINVAL);
    CHECK_EQ_INT(cz_ntt_coset_inverse(NULL, NULL, v), CZ_EINVAL);
    CHECK(vec_eq(v, orig, 8));
    CHECK_EQ_INT(cz_ntt_domain_log_n(NULL), 0);
    cz_ntt_domain_free(NULL);
    cz_ntt_domain_free(d);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
