/*
 * tests/groth16/test_params_random.c — the timing-only random params
 * (cz_params_random): the exact shape the prover checks, valid points,
 * deterministic per seed, different across seeds.
 */
#include <stdlib.h>
#include <string.h>

#include "groth16/params.h"
#include "cz_test.h"

static const cz_params_shape_t SHAPE = {
    .num_inputs = 3, .num_aux = 5000, .domain_size = 8192,
    .a_aux_popcount = 4990, .b_input_popcount = 1, .b_aux_popcount = 1270,
};

CZ_TEST(random_params_have_the_shape_and_valid_points)
{
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 2));
    cz_params_t *p = NULL;
    REQUIRE(cz_params_random(ctx, &p, &SHAPE, 7) == CZ_OK);
    CHECK_OK(cz_params_check_shape(ctx, p, &SHAPE));
    CHECK_EQ_U64(p->n_h, 8191);
    CHECK_EQ_U64(p->n_l, 5000);
    CHECK_EQ_U64(p->n_a, 4993);
    CHECK_EQ_U64(p->n_b_g1, 1271);
    CHECK_EQ_U64(p->n_b_g2, 1271);
    CHECK_EQ_U64(p->vk.n_ic, 3);
    /* points on the curve, in the subgroup, not at infinity (spot checks) */
    const blst_p1_affine *g1[] = { &p->h[0], &p->h[8190], &p->l[4999], &p->a[0], &p->b_g1[1270],
                                   &p->vk.alpha_g1, &p->vk.ic[2] };
    for (size_t i = 0; i < sizeof g1 / sizeof *g1; i++)
        CHECK(blst_p1_affine_in_g1(g1[i]) && !blst_p1_affine_is_inf(g1[i]));
    CHECK(blst_p2_affine_in_g2(&p->b_g2[1270]) && blst_p2_affine_in_g2(&p->vk.delta_g2));
    /* a wrong shape is refused as for real params */
    cz_params_shape_t other = SHAPE;
    other.num_aux++;
    CHECK(cz_params_check_shape(ctx, p, &other) != CZ_OK);
    cz_params_free(p);
    cz_ctx_free(ctx);
}

CZ_TEST(random_params_are_deterministic_per_seed)
{
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 2));
    cz_params_t *a = NULL, *b = NULL, *c = NULL;
    REQUIRE(cz_params_random(ctx, &a, &SHAPE, 1) == CZ_OK);
    REQUIRE(cz_params_random(ctx, &b, &SHAPE, 1) == CZ_OK);
    REQUIRE(cz_params_random(ctx, &c, &SHAPE, 2) == CZ_OK);
    CHECK(memcmp(a->l, b->l, a->n_l * sizeof *a->l) == 0);
    CHECK(memcmp(a->b_g2, b->b_g2, a->n_b_g2 * sizeof *a->b_g2) == 0);
    CHECK(memcmp(a->l, c->l, a->n_l * sizeof *a->l) != 0);
    cz_params_free(a);
    cz_params_free(b);
    cz_params_free(c);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
