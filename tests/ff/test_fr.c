/*
 * tests/ff/test_fr.c — Fr helpers: constants, repr round trip, range checks,
 * inversion, roots of unity, parsing.
 */
#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "cz_test.h"

CZ_TEST(constants_match_blst)
{
    cz_fr one, zero;
    cz_fr_from_u64(&one, 1);
    cz_fr_from_u64(&zero, 0);
    CHECK(cz_fr_eq(&one, &CZ_FR_ONE));
    CHECK(cz_fr_eq(&zero, &CZ_FR_ZERO));
    CHECK(cz_fr_is_one(&one) && cz_fr_is_zero(&zero) && !cz_fr_is_zero(&one));
}

CZ_TEST(repr_round_trip_and_range)
{
    cz_rng rng;
    cz_rng_seed(&rng, 1);
    for (int i = 0; i < 1000; i++) {
        cz_fr a, b;
        uint8_t repr[32];
        cz_fr_random_rng(&a, &rng);
        cz_fr_to_repr(repr, &a);
        CHECK_OK(cz_fr_from_repr(&b, repr));
        CHECK(cz_fr_eq(&a, &b));
    }
    /* r itself (LE) is out of range; r - 1 is in range (FACTS 1). */
    cz_fr x;
    CHECK_OK(cz_fr_parse(&x, "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000000"));
    uint8_t repr[32];
    cz_fr_to_repr(repr, &x);
    CHECK_EQ_INT(repr[0], 0x00);
    CHECK_EQ_INT(repr[31], 0x73);
    repr[0] = 0x01; /* = r */
    CHECK_EQ_INT(cz_fr_from_repr(&x, repr), CZ_ERANGE);
    cz_fr minus_one, t;
    cz_fr_neg(&minus_one, &CZ_FR_ONE);
    CHECK_OK(cz_fr_parse(&t, "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000000"));
    CHECK(cz_fr_eq(&t, &minus_one));
}

CZ_TEST(parse_decimal_hex_and_errors)
{
    cz_fr a, b;
    CHECK_OK(cz_fr_parse(&a, "1234567890123456789012345678901234567890"));
    CHECK_OK(cz_fr_parse(&b, "0x3a0c92075c0dbf3b8acbc5f96ce3f0ad2"));
    CHECK(cz_fr_eq(&a, &b));
    char hex[67];
    cz_fr_to_hex(hex, &b);
    CHECK_EQ_STR(hex, "0x00000000000000000000000000000003a0c92075c0dbf3b8acbc5f96ce3f0ad2");
    CHECK_EQ_INT(cz_fr_parse(&a, ""), CZ_EFORMAT);
    CHECK_EQ_INT(cz_fr_parse(&a, "12a"), CZ_EFORMAT);
    CHECK_EQ_INT(cz_fr_parse(&a, "0x"), CZ_EFORMAT);
    CHECK_EQ_INT(cz_fr_parse(&a,
                             "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"),
                 CZ_ERANGE);
    CHECK_EQ_INT(cz_fr_parse(&a,
                             "0x1"
                             "0000000000000000000000000000000000000000000000000000000000000000"),
                 CZ_ERANGE);
}

CZ_TEST(inverse_and_batch_inverse)
{
    cz_rng rng;
    cz_rng_seed(&rng, 2);
    enum { N = 257 };
    cz_fr v[N], w[N], scratch[N];
    for (int i = 0; i < N; i++) {
        cz_fr_random_rng(&v[i], &rng);
        if (i % 17 == 0)
            v[i] = CZ_FR_ZERO;
        w[i] = v[i];
    }
    cz_fr_batch_inverse(w, N, scratch);
    for (int i = 0; i < N; i++) {
        if (cz_fr_is_zero(&v[i])) {
            CHECK(cz_fr_is_zero(&w[i]));
            continue;
        }
        cz_fr p, single;
        cz_fr_mul(&p, &v[i], &w[i]);
        CHECK(cz_fr_is_one(&p));
        cz_fr_inverse(&single, &v[i]);
        CHECK(cz_fr_eq(&single, &w[i]));
    }
    cz_fr z;
    cz_fr_inverse(&z, &CZ_FR_ZERO);
    CHECK(cz_fr_is_zero(&z));
}

CZ_TEST(roots_of_unity)
{
    /* blstrs ROOT_OF_UNITY = 7^((r-1)/2^32), big-endian hex */
    cz_fr root, expect;
    CHECK_OK(cz_fr_root_of_unity(&root, 32));
    CHECK_OK(
        cz_fr_parse(&expect, "0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b"));
    CHECK(cz_fr_eq(&root, &expect));
    for (unsigned k = 0; k <= 32; k += 4) {
        cz_fr w, t;
        CHECK_OK(cz_fr_root_of_unity(&w, k));
        t = w;
        for (unsigned i = 0; i < k; i++)
            cz_fr_sqr(&t, &t);
        CHECK(cz_fr_is_one(&t)); /* w^(2^k) = 1 */
        if (k > 0) {
            t = w;
            for (unsigned i = 0; i + 1 < k; i++)
                cz_fr_sqr(&t, &t);
            cz_fr minus_one;
            cz_fr_neg(&minus_one, &CZ_FR_ONE);
            CHECK(cz_fr_eq(&t, &minus_one)); /* primitive: w^(2^(k-1)) = -1 */
        }
    }
    CHECK_EQ_INT(cz_fr_root_of_unity(&root, 33), CZ_ERANGE);
}

CZ_TEST(csprng_gives_distinct_values)
{
    cz_fr a, b;
    CHECK_OK(cz_fr_random(&a));
    CHECK_OK(cz_fr_random(&b));
    CHECK(!cz_fr_eq(&a, &b));
}

CZ_TEST(pow_matches_repeated_mul)
{
    cz_fr x, p, q = CZ_FR_ONE;
    cz_fr_from_u64(&x, 12345);
    cz_fr_pow_u64(&p, &x, 77);
    for (int i = 0; i < 77; i++)
        cz_fr_mul(&q, &q, &x);
    CHECK(cz_fr_eq(&p, &q));
}

CZ_TEST(to_scalars_inplace_matches_one_by_one)
{
    cz_pool_t *pool;
    CHECK_OK(cz_pool_new(&pool, 3));
    const size_t n = 40000; /* more than two grains of 2^14 */
    cz_fr *v = malloc(n * sizeof *v);
    blst_scalar *want = malloc(n * sizeof *want);
    cz_rng rng;
    cz_rng_seed(&rng, 5);
    for (size_t i = 0; i < n; i++) {
        cz_fr_random_rng(&v[i], &rng);
        if (i % 7 == 0)
            v[i] = i % 14 ? CZ_FR_ONE : CZ_FR_ZERO;
        cz_fr_to_scalar(&want[i], &v[i]);
    }
    cz_fr_to_scalars_inplace(pool, v, n);
    CHECK(memcmp(v, want, n * sizeof *want) == 0);
    free(v);
    free(want);
    cz_pool_free(pool);
}

CZ_TEST_MAIN()
