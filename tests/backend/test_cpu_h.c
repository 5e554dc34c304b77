/*
 * tests/backend/test_cpu_h.c — the CPU H computation (backend/cpu/h.c)
 * against O(m^2) arithmetic: for a satisfied system (a*b = c on the domain)
 * H(X) * (X^m - 1) = A(X) B(X) - C(X) exactly, with H of degree < m-1; for
 * an unsatisfied one, h equals bellperson's definition (FACTS 1) evaluated
 * naively point by point on the coset.
 */
#include <stdlib.h>

#include "backend/cpu/h.h"
#include "cz_test.h"

static cz_fr *random_vec(size_t n, uint64_t seed)
{
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    cz_fr *v = calloc(n, sizeof *v);
    for (size_t i = 0; i < n; i++)
        cz_fr_random_rng(&v[i], &rng);
    return v;
}

/* out[i] = m^-1 sum_k in[k] w^-ik: the coefficients of the polynomial with
 * values in[k] at w^k. */
static void naive_interpolate(cz_fr *out, const cz_fr *in, size_t m, unsigned log_m)
{
    cz_fr w, winv, minv, t;
    cz_fr_root_of_unity(&w, log_m);
    cz_fr_inverse(&winv, &w);
    cz_fr_from_u64(&t, m);
    cz_fr_inverse(&minv, &t);
    for (size_t i = 0; i < m; i++) {
        cz_fr wi, f = CZ_FR_ONE, acc = CZ_FR_ZERO;
        cz_fr_pow_u64(&wi, &winv, i);
        for (size_t k = 0; k < m; k++) {
            cz_fr_mul(&t, &in[k], &f);
            cz_fr_add(&acc, &acc, &t);
            cz_fr_mul(&f, &f, &wi);
        }
        cz_fr_mul(&out[i], &acc, &minv);
    }
}

static void horner(cz_fr *out, const cz_fr *coef, size_t len, const cz_fr *x)
{
    cz_fr acc = CZ_FR_ZERO;
    for (size_t i = len; i-- > 0;) {
        cz_fr_mul(&acc, &acc, x);
        cz_fr_add(&acc, &acc, &coef[i]);
    }
    *out = acc;
}

static void check_satisfied(unsigned log_m, size_t n, uint64_t seed)
{
    const size_t m = (size_t)1 << log_m;
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 2) == CZ_OK);
    cz_ntt_domain *d;
    REQUIRE(cz_ntt_domain_new(ctx, &d, log_m) == CZ_OK);
    cz_fr *a = random_vec(m, seed), *b = random_vec(m, seed + 1), *c = calloc(m, sizeof *c);
    cz_fr *pa = calloc(m, sizeof *pa), *pb = calloc(m, sizeof *pb), *pc = calloc(m, sizeof *pc);
    for (size_t i = 0; i < n; i++)
        cz_fr_mul(&c[i], &a[i], &b[i]);
    for (size_t i = n; i < m; i++)
        a[i] = b[i] = c[i] = CZ_FR_ZERO;
    naive_interpolate(pa, a, m, log_m);
    naive_interpolate(pb, b, m, log_m);
    naive_interpolate(pc, c, m, log_m);

    CHECK_OK(cz_cpu_compute_h(ctx, d, a, b, c, n));
    const cz_fr *h = a;
    CHECK(cz_fr_is_zero(&h[m - 1]));
    /* P = A*B - C has degree <= 2m-2; P[i] must equal H[i-m] - H[i]. */
    int bad = 0;
    for (size_t i = 0; i + 1 < 2 * m; i++) {
        cz_fr p = CZ_FR_ZERO, t;
        for (size_t j = (i < m ? 0 : i - m + 1); j <= i && j < m; j++) {
            cz_fr_mul(&t, &pa[j], &pb[i - j]);
            cz_fr_add(&p, &p, &t);
        }
        if (i < m)
            cz_fr_sub(&p, &p, &pc[i]);
        cz_fr want = CZ_FR_ZERO;
        if (i >= m)
            want = h[i - m];
        if (i < m)
            cz_fr_sub(&want, &want, &h[i]);
        bad += !cz_fr_eq(&p, &want);
    }
    CHECK_EQ_INT(bad, 0);
    free(a);
    free(b);
    free(c);
    free(pa);
    free(pb);
    free(pc);
    cz_ntt_domain_free(d);
    cz_ctx_free(ctx);
}

CZ_TEST(satisfied_small)
{
    check_satisfied(3, 8, 11);
    check_satisfied(3, 5, 12);
}
CZ_TEST(satisfied_padded)
{
    check_satisfied(6, 50, 13);
    check_satisfied(7, 128, 14);
}

/* h[i] = m^-1 g^-i sum_k E[k] w^-ik, E[k] = (A*B - C)(g w^k) / (g^m - 1). */
CZ_TEST(unsatisfied_matches_definition)
{
    const unsigned log_m = 6;
    const size_t m = (size_t)1 << log_m, n = m - 7;
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 2) == CZ_OK);
    cz_ntt_domain *d;
    REQUIRE(cz_ntt_domain_new(ctx, &d, log_m) == CZ_OK);
    cz_fr *a = random_vec(m, 21), *b = random_vec(m, 22), *c = random_vec(m, 23);
    for (size_t i = n; i < m; i++)
        a[i] = b[i] = c[i] = CZ_FR_ZERO;
    cz_fr *pa = calloc(m, sizeof *pa), *pb = calloc(m, sizeof *pb), *pc = calloc(m, sizeof *pc);
    cz_fr *e = calloc(m, sizeof *e), *want = calloc(m, sizeof *want);
    naive_interpolate(pa, a, m, log_m);
    naive_interpolate(pb, b, m, log_m);
    naive_interpolate(pc, c, m, log_m);

    cz_fr w, g, ginv, x, zinv, one = CZ_FR_ONE, t, u;
    cz_fr_root_of_unity(&w, log_m);
    cz_fr_from_u64(&g, CZ_FR_GENERATOR);
    cz_fr_inverse(&ginv, &g);
    cz_fr_pow_u64(&zinv, &g, m);
    cz_fr_sub(&zinv, &zinv, &one);
    cz_fr_inverse(&zinv, &zinv);
    for (size_t k = 0; k < m; k++) {
        cz_fr_pow_u64(&x, &w, k);
        cz_fr_mul(&x, &x, &g); /* the coset point g w^k */
        horner(&t, pa, m, &x);
        horner(&u, pb, m, &x);
        cz_fr_mul(&t, &t, &u);
        horner(&u, pc, m, &x);
        cz_fr_sub(&t, &t, &u);
        cz_fr_mul(&e[k], &t, &zinv);
    }
    naive_interpolate(want, e, m, log_m); /* coefficients at g w^k ... */
    cz_fr f = CZ_FR_ONE;
    for (size_t i = 0; i < m; i++) { /* ... of H(gX): undo the shift */
        cz_fr_mul(&want[i], &want[i], &f);
        cz_fr_mul(&f, &f, &ginv);
    }

    CHECK_OK(cz_cpu_compute_h(ctx, d, a, b, c, n));
    CHECK_MEM_EQ(a, want, m * sizeof *a);
    free(a);
    free(b);
    free(c);
    free(pa);
    free(pb);
    free(pc);
    free(e);
    free(want);
    cz_ntt_domain_free(d);
    cz_ctx_free(ctx);
}

CZ_TEST(rejects_oversized_input)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_ntt_domain *d;
    REQUIRE(cz_ntt_domain_new(ctx, &d, 2) == CZ_OK);
    cz_fr v[3][8];
    CHECK_EQ_INT(cz_cpu_compute_h(ctx, d, v[0], v[1], v[2], 5), CZ_EMISMATCH);
    cz_ntt_domain_free(d);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
