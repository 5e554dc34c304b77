/*
 * tests/hash/test_poseidon.c — native Poseidon against neptune v11.
 *
 * Known answers are FACTS 5 (neptune's MerkleTree hashes of the preimage
 * [0, 1, .., arity-1]); the other cases check internal consistency: the
 * optimized static algorithm equals the plain one, batch equals single.
 */
#include "cz_test.h"

#include "hash/poseidon.h"

static void preimage_iota(cz_fr *x, unsigned arity)
{
    for (unsigned i = 0; i < arity; i++)
        cz_fr_from_u64(&x[i], i);
}

static void check_vector(unsigned arity, const char *expect)
{
    const cz_poseidon_constants *c = cz_poseidon_constants_get(arity);
    REQUIRE(c != NULL);
    cz_fr x[CZ_POSEIDON_MAX_ARITY], h;
    char hex[67];
    preimage_iota(x, arity);
    cz_poseidon_hash(c, &h, x);
    cz_fr_to_hex(hex, &h);
    CHECK_EQ_STR(hex, expect);
    cz_poseidon_hash_reference(c, &h, x);
    cz_fr_to_hex(hex, &h);
    CHECK_EQ_STR(hex, expect);
}

/* FACTS 5, Poseidon test vectors. */
CZ_TEST(vector_arity2)
{
    check_vector(2, "0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff");
}

CZ_TEST(vector_arity8)
{
    check_vector(8, "0x2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6");
}

CZ_TEST(vector_arity11)
{
    check_vector(11, "0x0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163");
}

/* Shapes: RP per FACTS 5, (RF+RP)*t plain keys and RF*t+RP compressed ones
 * (NEP poseidon.rs asserts the latter), tag 2^arity - 1. */
CZ_TEST(constants_shape)
{
    static const unsigned arities[] = { 2, 4, 8, 11 }, rps[] = { 55, 56, 57, 57 };
    for (unsigned k = 0; k < 4; k++) {
        const cz_poseidon_constants *c = cz_poseidon_constants_get(arities[k]);
        REQUIRE(c != NULL);
        CHECK_EQ_INT(c->width, arities[k] + 1);
        CHECK_EQ_INT(c->full_rounds, 8);
        CHECK_EQ_INT(c->partial_rounds, rps[k]);
        cz_fr tag;
        cz_fr_from_u64(&tag, (1u << arities[k]) - 1);
        CHECK(cz_fr_eq(&tag, &c->domain_tag));
        CHECK(cz_poseidon_constants_get(arities[k]) == c); /* cached */
    }
    CHECK(cz_poseidon_constants_get(3) == NULL);
    cz_poseidon_constants *c = NULL;
    CHECK_EQ_INT(cz_poseidon_constants_new(&c, 1), CZ_EINVAL);
    CHECK_EQ_INT(cz_poseidon_constants_new(&c, 15), CZ_EINVAL);
    CHECK(c == NULL);
}

/* The MDS matrix is the Cauchy matrix 1/(i + t + j) and mds_inv its inverse. */
CZ_TEST(mds_definition)
{
    const cz_poseidon_constants *c = cz_poseidon_constants_get(4);
    REQUIRE(c != NULL);
    const unsigned t = c->width;
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            cz_fr d, p, acc = CZ_FR_ZERO;
            cz_fr_from_u64(&d, i + t + j);
            cz_fr_mul(&p, &d, &c->mds[i * t + j]);
            CHECK(cz_fr_is_one(&p));
            for (unsigned k = 0; k < t; k++) {
                cz_fr_mul(&p, &c->mds[i * t + k], &c->mds_inv[k * t + j]);
                cz_fr_add(&acc, &acc, &p);
            }
            CHECK(i == j ? cz_fr_is_one(&acc) : cz_fr_is_zero(&acc));
        }
}

/* Fresh objects equal the cached ones; reference == optimized on random input. */
CZ_TEST(random_reference_equals_optimized)
{
    static const unsigned arities[] = { 2, 4, 8, 11 };
    cz_rng rng;
    cz_rng_seed(&rng, 0x5eed);
    for (unsigned k = 0; k < 4; k++) {
        cz_poseidon_constants *c = NULL;
        CHECK_OK(cz_poseidon_constants_new(&c, arities[k]));
        REQUIRE(c != NULL);
        const cz_poseidon_constants *g = cz_poseidon_constants_get(arities[k]);
        size_t ncomp = (size_t)c->full_rounds * c->width + c->partial_rounds;
        CHECK_MEM_EQ(c->compressed_round_constants, g->compressed_round_constants,
                     ncomp * sizeof(cz_fr));
        for (int it = 0; it < 8; it++) {
            cz_fr x[CZ_POSEIDON_MAX_ARITY], a, b;
            for (unsigned i = 0; i < c->arity; i++)
                cz_fr_random_rng(&x[i], &rng);
            cz_poseidon_hash(c, &a, x);
            cz_poseidon_hash_reference(c, &b, x);
            CHECK(cz_fr_eq(&a, &b));
        }
        cz_poseidon_constants_free(c);
    }
    cz_poseidon_constants_free(NULL);
}

/* Batch on a pool equals one-by-one hashing, including an odd count. */
CZ_TEST(batch_equals_single)
{
    const cz_poseidon_constants *c = cz_poseidon_constants_get(8);
    REQUIRE(c != NULL);
    const size_t n = 1001;
    cz_fr *in = malloc(sizeof(cz_fr) * n * 8), *out = malloc(sizeof(cz_fr) * n);
    REQUIRE(in && out);
    cz_rng rng;
    cz_rng_seed(&rng, 42);
    for (size_t i = 0; i < n * 8; i++)
        cz_fr_random_rng(&in[i], &rng);
    cz_ctx_t *ctx = NULL;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 2));
    CHECK_OK(cz_poseidon_hash_many(ctx, c, out, in, n));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        cz_fr h;
        cz_poseidon_hash(c, &h, &in[i * 8]);
        bad += !cz_fr_eq(&h, &out[i]);
    }
    CHECK_EQ_U64(bad, 0);
    CHECK_OK(cz_poseidon_hash_many(NULL, c, out, in, 3)); /* no ctx: inline */
    CHECK_OK(cz_poseidon_hash_many(ctx, c, out, in, 0));
    CHECK_EQ_INT(cz_poseidon_hash_many(ctx, c, NULL, in, 1), CZ_EINVAL);
    cz_ctx_free(ctx);
    free(in);
    free(out);
}

CZ_TEST_MAIN()
