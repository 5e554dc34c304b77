/*
 * tests/groth16/test_verify.c — Groth16 verification against proofs forged
 * with a known trapdoor (g16_fixture.h): valid proofs verify; a wrong input,
 * flipped proof bits, swapped A/C fail; a wrong input count is CZ_EINVAL;
 * batch verification (BP verify_proofs_batch) accepts 5 valid proofs and
 * rejects a batch with one bad proof. The equation is FACTS 1 / BP verifier.rs.
 */
#include "cz_test.h"
#include "g16_fixture.h"
#include "groth16/verify.h"

#define NIN 2 /* public inputs, ONE excluded: |ic| = 3 */

static cz_ctx_t *new_ctx(unsigned threads)
{
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, threads) != 0)
        abort();
    return ctx;
}

static void inputs_for(cz_fr x[NIN], uint64_t j)
{
    cz_fr_from_u64(&x[0], 1000 + j);
    cz_fr_from_u64(&x[1], 0xdeadbeefull * (j + 1));
}

CZ_TEST(valid_proof_verifies_and_tampering_fails)
{
    cz_ctx_t *ctx = new_ctx(2);
    g16_toy t;
    cz_vk_t vk;
    cz_pvk_t *pvk = NULL;
    g16_toy_new(&t, &vk, NIN + 1, 1);
    CHECK_OK(cz_pvk_new(ctx, &pvk, &vk));
    REQUIRE(pvk);
    CHECK_EQ_U64(cz_pvk_num_inputs(pvk), NIN);

    cz_fr x[NIN];
    cz_proof_t pf;
    inputs_for(x, 0);
    g16_toy_prove(&t, &pf, x);
    CHECK_OK(cz_verify(ctx, pvk, &pf, x, NIN));

    /* wrong public input */
    cz_fr y[NIN] = { x[0], x[1] };
    cz_fr_add(&y[1], &y[1], &CZ_FR_ONE);
    CHECK_EQ_INT(cz_verify(ctx, pvk, &pf, y, NIN), CZ_EVERIFY);
    CHECK(strstr(cz_ctx_message(ctx), "pairing check failed") != NULL);

    /* A and C swapped */
    cz_proof_t sw = pf;
    sw.a = pf.c;
    sw.c = pf.a;
    CHECK_EQ_INT(cz_verify(ctx, pvk, &sw, x, NIN), CZ_EVERIFY);

    /* wrong number of inputs: an error, not "false" */
    CHECK_EQ_INT(cz_verify(ctx, pvk, &pf, x, NIN - 1), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "1 public inputs, the key takes 2") != NULL);
    cz_fr more[NIN + 1] = { x[0], x[1], x[1] };
    CHECK_EQ_INT(cz_verify(ctx, pvk, &pf, more, NIN + 1), CZ_EINVAL);

    /* through the 192 bytes: round trip verifies; bit flips never verify */
    uint8_t bytes[CZ_PROOF_BYTES], work[CZ_PROOF_BYTES];
    cz_proof_t back;
    cz_proof_encode(bytes, &pf);
    CHECK_OK(cz_proof_decode(ctx, &back, bytes));
    CHECK_OK(cz_verify(ctx, pvk, &back, x, NIN));
    int accepted = 0, tried = 0;
    for (int bit = 0; bit < CZ_PROOF_BYTES * 8; bit += 5) { /* every 5th bit: 308 flips */
        memcpy(work, bytes, sizeof work);
        work[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        tried++;
        if (cz_proof_decode(ctx, &back, work) != CZ_OK)
            continue;
        int rc = cz_verify(ctx, pvk, &back, x, NIN);
        CHECK(rc == CZ_EVERIFY);
        accepted += rc == CZ_OK;
    }
    CHECK_EQ_INT(accepted, 0);
    CHECK(tried > 300);

    /* a proof made for other inputs does not verify for these */
    cz_proof_t other;
    g16_toy_prove(&t, &other, y);
    CHECK_OK(cz_verify(ctx, pvk, &other, y, NIN));
    CHECK_EQ_INT(cz_verify(ctx, pvk, &other, x, NIN), CZ_EVERIFY);

    cz_pvk_free(pvk);
    cz_vk_clear(&vk);
    g16_toy_free(&t);
    cz_ctx_free(ctx);
}

CZ_TEST(verify_matches_the_textbook_equation)
{
    /* e(A,B) == e(alpha,beta) e(ic0 + sum x_i ic_{i+1}, gamma) e(C,delta), pairing by pairing */
    g16_toy t;
    cz_vk_t vk;
    g16_toy_new(&t, &vk, NIN + 1, 2);
    cz_fr x[NIN];
    cz_proof_t pf;
    inputs_for(x, 3);
    g16_toy_prove(&t, &pf, x);
    blst_p1 acc, term;
    blst_p1_from_affine(&acc, &vk.ic[0]);
    for (int i = 0; i < NIN; i++) {
        blst_scalar s;
        blst_p1_from_affine(&term, &vk.ic[i + 1]);
        blst_scalar_from_fr(&s, &x[i]);
        blst_p1_mult(&term, &term, s.b, 255);
        blst_p1_add_or_double(&acc, &acc, &term);
    }
    blst_p1_affine acc_a;
    blst_p1_to_affine(&acc_a, &acc);
    blst_fp12 l, r1, r2, r3, rhs, lhs;
    blst_miller_loop(&l, &pf.b, &pf.a);
    blst_final_exp(&lhs, &l);
    blst_miller_loop(&l, &vk.beta_g2, &vk.alpha_g1);
    blst_final_exp(&r1, &l);
    blst_miller_loop(&l, &vk.gamma_g2, &acc_a);
    blst_final_exp(&r2, &l);
    blst_miller_loop(&l, &vk.delta_g2, &pf.c);
    blst_final_exp(&r3, &l);
    blst_fp12_mul(&rhs, &r1, &r2);
    blst_fp12_mul(&rhs, &rhs, &r3);
    CHECK(blst_fp12_is_equal(&lhs, &rhs));
    cz_vk_clear(&vk);
    g16_toy_free(&t);
}

CZ_TEST(verify_without_public_inputs)
{
    cz_ctx_t *ctx = new_ctx(1);
    g16_toy t;
    cz_vk_t vk;
    cz_pvk_t *pvk = NULL;
    g16_toy_new(&t, &vk, 1, 3); /* ONE only */
    CHECK_OK(cz_pvk_new(ctx, &pvk, &vk));
    cz_proof_t pf[2];
    g16_toy_prove(&t, &pf[0], NULL);
    g16_toy_prove(&t, &pf[1], NULL);
    CHECK_OK(cz_verify(ctx, pvk, &pf[0], NULL, 0));
    CHECK_OK(cz_verify_batch(ctx, pvk, pf, 2, NULL, 0));
    cz_pvk_free(pvk);
    cz_vk_t none = vk;
    none.n_ic = 0;
    CHECK_EQ_INT(cz_pvk_new(ctx, &pvk, &none), CZ_EINVAL);
    CHECK(pvk == NULL);
    cz_vk_clear(&vk);
    g16_toy_free(&t);
    cz_ctx_free(ctx);
}

static void batch_case(unsigned threads)
{
    cz_ctx_t *ctx = new_ctx(threads);
    enum { N = 5 };
    g16_toy t;
    cz_vk_t vk;
    cz_pvk_t *pvk = NULL;
    g16_toy_new(&t, &vk, NIN + 1, 4);
    CHECK_OK(cz_pvk_new(ctx, &pvk, &vk));
    cz_fr x[N * NIN];
    cz_proof_t pf[N];
    for (int j = 0; j < N; j++) {
        inputs_for(&x[j * NIN], (uint64_t)j);
        g16_toy_prove(&t, &pf[j], &x[j * NIN]);
        CHECK_OK(cz_verify(ctx, pvk, &pf[j], &x[j * NIN], NIN));
    }
    CHECK_OK(cz_verify_batch(ctx, pvk, pf, N, x, NIN));
    CHECK_OK(cz_verify_batch(ctx, pvk, pf, 1, x, NIN));
    CHECK_OK(cz_verify_batch(ctx, pvk, pf, 0, NULL, NIN));

    /* one proof with a wrong input */
    cz_fr keep = x[3 * NIN + 1];
    cz_fr_add(&x[3 * NIN + 1], &x[3 * NIN + 1], &CZ_FR_ONE);
    CHECK_EQ_INT(cz_verify_batch(ctx, pvk, pf, N, x, NIN), CZ_EVERIFY);
    CHECK(strstr(cz_ctx_message(ctx), "pairing check of 5 proofs failed") != NULL);
    x[3 * NIN + 1] = keep;
    CHECK_OK(cz_verify_batch(ctx, pvk, pf, N, x, NIN));

    /* one proof with A and C swapped; one with proofs reordered against inputs */
    cz_proof_t bad[N];
    memcpy(bad, pf, sizeof bad);
    bad[4].a = pf[4].c;
    bad[4].c = pf[4].a;
    CHECK_EQ_INT(cz_verify_batch(ctx, pvk, bad, N, x, NIN), CZ_EVERIFY);
    memcpy(bad, pf, sizeof bad);
    bad[0] = pf[1];
    bad[1] = pf[0];
    CHECK_EQ_INT(cz_verify_batch(ctx, pvk, bad, N, x, NIN), CZ_EVERIFY);
    /* two bad proofs whose errors could cancel in an unweighted sum */
    memcpy(bad, pf, sizeof bad);
    bad[2].c = pf[3].c;
    bad[3].c = pf[2].c;
    CHECK_EQ_INT(cz_verify_batch(ctx, pvk, bad, N, x, NIN), CZ_EVERIFY);

    CHECK_EQ_INT(cz_verify_batch(ctx, pvk, pf, N, x, NIN + 1), CZ_EINVAL);
    CHECK_EQ_INT(cz_verify_batch(ctx, pvk, pf, N, NULL, NIN), CZ_EINVAL);

    cz_pvk_free(pvk);
    cz_vk_clear(&vk);
    g16_toy_free(&t);
    cz_ctx_free(ctx);
}

CZ_TEST(batch_verify_one_thread)
{
    batch_case(1);
}
CZ_TEST(batch_verify_two_threads)
{
    batch_case(2);
}

CZ_TEST(params_file_vk_verifies)
{
    /* the vk travels through a params image and still verifies proofs */
    cz_ctx_t *ctx = new_ctx(2);
    g16_toy t;
    cz_vk_t vk;
    g16_toy_new(&t, &vk, NIN + 1, 5);
    const size_t counts[CZ_PV_COUNT] = { 3, 2, 3, 1, 1 };
    cz_params_t *p = g16_params_new(NIN + 1, counts, 5), *q = NULL;
    cz_vk_clear(&p->vk);
    CHECK_OK(cz_vk_copy(ctx, &p->vk, &vk));
    size_t len;
    uint8_t *bytes = g16_params_bytes(p, &len);
    REQUIRE(bytes);
    CHECK_OK(cz_params_parse(ctx, &q, bytes, len, NULL));
    REQUIRE(q);
    cz_pvk_t *pvk = NULL;
    CHECK_OK(cz_pvk_new(ctx, &pvk, &q->vk));
    cz_fr x[NIN];
    cz_proof_t pf;
    inputs_for(x, 9);
    g16_toy_prove(&t, &pf, x);
    CHECK_OK(cz_verify(ctx, pvk, &pf, x, NIN));
    cz_pvk_free(pvk);
    free(bytes);
    cz_params_free(q);
    cz_params_free(p);
    cz_vk_clear(&vk);
    g16_toy_free(&t);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
