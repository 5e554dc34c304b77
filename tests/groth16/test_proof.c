/*
 * tests/groth16/test_proof.c — the 192-byte proof: layout A || B || C
 * compressed (FACTS 2, BP src/groth16/mod.rs Proof::write), validation on
 * decode, multi-partition concatenation.
 */
#include "cz_test.h"
#include "g16_fixture.h"

static void random_proofs(cz_proof_t *pf, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        cz_g1_random_affine(&pf[i].a, 1, seed + 3 * i);
        cz_g2_random_affine(&pf[i].b, 1, seed + 3 * i + 1);
        cz_g1_random_affine(&pf[i].c, 1, seed + 3 * i + 2);
    }
}

CZ_TEST(proof_layout_and_round_trip)
{
    cz_proof_t pf, back;
    uint8_t bytes[CZ_PROOF_BYTES], part[96];
    random_proofs(&pf, 1, 5);
    cz_proof_encode(bytes, &pf);
    blst_p1_affine_compress(part, &pf.a);
    CHECK_MEM_EQ(bytes, part, 48);
    blst_p2_affine_compress(part, &pf.b);
    CHECK_MEM_EQ(bytes + 48, part, 96);
    blst_p1_affine_compress(part, &pf.c);
    CHECK_MEM_EQ(bytes + 144, part, 48);
    CHECK_EQ_INT(bytes[0] & 0x80, 0x80); /* compressed flag */
    CHECK_EQ_INT(bytes[48] & 0x80, 0x80);
    CHECK_EQ_INT(bytes[144] & 0x80, 0x80);
    CHECK_OK(cz_proof_decode(NULL, &back, bytes));
    CHECK(blst_p1_affine_is_equal(&back.a, &pf.a));
    CHECK(blst_p2_affine_is_equal(&back.b, &pf.b));
    CHECK(blst_p1_affine_is_equal(&back.c, &pf.c));
}

CZ_TEST(proof_bad_bytes_are_named)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == 0);
    cz_proof_t pf, back;
    uint8_t bytes[CZ_PROOF_BYTES], work[CZ_PROOF_BYTES];
    random_proofs(&pf, 1, 9);
    cz_proof_encode(bytes, &pf);

    memcpy(work, bytes, sizeof work);
    work[0] &= 0x7f; /* A without the compressed flag */
    CHECK_EQ_INT(cz_proof_decode(ctx, &back, work), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "proof.A") != NULL);

    memcpy(work, bytes, sizeof work);
    memset(work + 48, 0, 96);
    work[48] = 0xc0; /* B = compressed infinity */
    CHECK_EQ_INT(cz_proof_decode(ctx, &back, work), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "proof.B: G2 point at infinity") != NULL);

    /* every single-bit flip of C either fails to decode or gives another point */
    int decoded_same = 0;
    for (int bit = 0; bit < 48 * 8; bit++) {
        memcpy(work, bytes, sizeof work);
        work[144 + bit / 8] ^= (uint8_t)(1u << (bit % 8));
        int rc = cz_proof_decode(ctx, &back, work);
        if (rc == CZ_OK)
            decoded_same += blst_p1_affine_is_equal(&back.c, &pf.c);
        else
            CHECK(strstr(cz_ctx_message(ctx), "proof.C") != NULL);
    }
    CHECK_EQ_INT(decoded_same, 0);
    cz_ctx_free(ctx);
}

CZ_TEST(multi_partition_proofs)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 2) == 0);
    enum { P = 10 }; /* a 32GiB PoRep proof: 10 partitions, 1920 bytes (FACTS 2) */
    cz_proof_t pf[P], back[P];
    uint8_t bytes[P * CZ_PROOF_BYTES];
    random_proofs(pf, P, 100);
    cz_proofs_encode(bytes, pf, P);
    for (int i = 0; i < P; i++) {
        uint8_t one[CZ_PROOF_BYTES];
        cz_proof_encode(one, &pf[i]);
        CHECK_MEM_EQ(bytes + i * CZ_PROOF_BYTES, one, CZ_PROOF_BYTES);
    }
    CHECK_OK(cz_proofs_decode(ctx, back, P, bytes, sizeof bytes));
    for (int i = 0; i < P; i++)
        CHECK(blst_p2_affine_is_equal(&back[i].b, &pf[i].b));

    CHECK_EQ_INT(cz_proofs_decode(ctx, back, P, bytes, sizeof bytes - 1), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "1919 bytes, want 10 partitions") != NULL);
    CHECK_EQ_INT(cz_proofs_decode(ctx, back, P - 1, bytes, sizeof bytes), CZ_EFORMAT);

    bytes[7 * CZ_PROOF_BYTES + 60] ^= 0x04; /* inside partition 7's B */
    bytes[8 * CZ_PROOF_BYTES + 10] ^= 0x04;
    CHECK(cz_proofs_decode(ctx, back, P, bytes, sizeof bytes) != CZ_OK);
    CHECK(strstr(cz_ctx_message(ctx), "proof[7].B") != NULL);
    CHECK_OK(cz_proofs_decode(ctx, back, 0, NULL, 0));
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
