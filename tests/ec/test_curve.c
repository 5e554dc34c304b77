/*
 * tests/ec/test_curve.c — encodings round trip, corrupt encodings and
 * infinity rejected, subgroup check, batch affine conversion.
 */
#include <string.h>

#include "ec/curve.h"
#include "cz_test.h"

CZ_TEST(g1_encodings_round_trip)
{
    blst_p1_affine pts[8], back;
    cz_g1_random_affine(pts, 8, 1);
    for (int i = 0; i < 8; i++) {
        uint8_t u[96], c[48];
        cz_g1_encode(u, sizeof u, &pts[i]);
        cz_g1_encode(c, sizeof c, &pts[i]);
        CHECK_OK(cz_g1_decode(NULL, &back, u, sizeof u, CZ_DECODE_SUBGROUP | CZ_DECODE_NO_INFINITY,
                              "p"));
        CHECK(blst_p1_affine_is_equal(&back, &pts[i]));
        CHECK_OK(cz_g1_decode(NULL, &back, c, sizeof c, CZ_DECODE_SUBGROUP, "p"));
        CHECK(blst_p1_affine_is_equal(&back, &pts[i]));
        CHECK_EQ_INT(c[0] & 0x80, 0x80); /* compressed flag (FACTS 2) */
        CHECK_EQ_INT(u[0] & 0x80, 0);
    }
}

CZ_TEST(g2_encodings_round_trip)
{
    blst_p2_affine pts[4], back;
    cz_g2_random_affine(pts, 4, 2);
    for (int i = 0; i < 4; i++) {
        uint8_t u[192], c[96];
        cz_g2_encode(u, sizeof u, &pts[i]);
        cz_g2_encode(c, sizeof c, &pts[i]);
        CHECK_OK(cz_g2_decode(NULL, &back, u, sizeof u, CZ_DECODE_SUBGROUP, "q"));
        CHECK(blst_p2_affine_is_equal(&back, &pts[i]));
        CHECK_OK(cz_g2_decode(NULL, &back, c, sizeof c, CZ_DECODE_SUBGROUP, "q"));
        CHECK(blst_p2_affine_is_equal(&back, &pts[i]));
    }
}

CZ_TEST(corrupt_and_infinity_rejected_with_message)
{
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 1));
    blst_p1_affine p, back;
    cz_g1_random_affine(&p, 1, 3);
    uint8_t u[96];
    cz_g1_encode(u, sizeof u, &p);
    u[95] ^= 1; /* y off the curve */
    CHECK_EQ_INT(cz_g1_decode(ctx, &back, u, sizeof u, 0, "params.h[7]"), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "params.h[7]") != NULL);
    CHECK_EQ_INT(cz_g1_decode(ctx, &back, u, 50, 0, "x"), CZ_EINVAL);

    uint8_t inf[96] = { 0x40 }; /* uncompressed infinity */
    CHECK_OK(cz_g1_decode(ctx, &back, inf, sizeof inf, 0, "inf"));
    CHECK_EQ_INT(cz_g1_decode(ctx, &back, inf, sizeof inf, CZ_DECODE_NO_INFINITY, "inf"),
                 CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "infinity") != NULL);
    cz_ctx_free(ctx);
}

/* Bug: a 96-byte slot carrying the compressed flag decoded its first half only. */
CZ_TEST(compression_flag_must_match_length)
{
    blst_p1_affine p, back;
    blst_p2_affine q, back2;
    cz_g1_random_affine(&p, 1, 5);
    cz_g2_random_affine(&q, 1, 6);
    uint8_t u[96] = { 0 }, c[48];
    cz_g1_encode(c, sizeof c, &p);
    memcpy(u, c, sizeof c); /* compressed point in an uncompressed slot */
    CHECK_EQ_INT(cz_g1_decode(NULL, &back, u, sizeof u, 0, "x"), CZ_EFORMAT);
    cz_g1_encode(u, sizeof u, &p);
    memcpy(c, u, sizeof c); /* uncompressed prefix in a compressed slot */
    CHECK_EQ_INT(cz_g1_decode(NULL, &back, c, sizeof c, 0, "x"), CZ_EFORMAT);
    uint8_t u2[192] = { 0 }, c2[96];
    cz_g2_encode(c2, sizeof c2, &q);
    memcpy(u2, c2, sizeof c2);
    CHECK_EQ_INT(cz_g2_decode(NULL, &back2, u2, sizeof u2, 0, "y"), CZ_EFORMAT);
}

CZ_TEST(batch_to_affine_matches_single)
{
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 3));
    enum { N = 5000 };
    static blst_p1_affine aff[N], back[N];
    static blst_p1 proj[N];
    cz_g1_random_affine(aff, N, 4);
    for (int i = 0; i < N; i++) {
        blst_p1_from_affine(&proj[i], &aff[i]);
        blst_p1_double(&proj[i], &proj[i]); /* Z != 1 */
    }
    CHECK_OK(cz_g1_batch_to_affine(ctx, back, proj, N));
    for (int i = 0; i < N; i++) {
        blst_p1_affine one;
        blst_p1_to_affine(&one, &proj[i]);
        if (!blst_p1_affine_is_equal(&one, &back[i])) {
            CZ__FAIL("point %d differs", i);
            break;
        }
    }
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
