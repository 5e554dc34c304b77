/*
 * tests/groth16/test_params_random.c — the timing-only random params
 * (cz_params_random): the exact shape the prover checks, valid points,
 * deterministic per seed, different across seeds; and their vectors on
 * demand (params.h): out of host memory until cz_params_host asks, ranges
 * read from the pools equal to the host copy, made once for many threads.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/params.h"
#include "cz_test.h"

static const cz_params_shape_t SHAPE = {
    .num_inputs = 3,
    .num_aux = 5000,
    .domain_size = 8192,
    .a_aux_popcount = 4990,
    .b_input_popcount = 1,
    .b_aux_popcount = 1270,
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
    REQUIRE(cz_params_host_all(ctx, p) == CZ_OK);
    /* points on the curve, in the subgroup, not at infinity (spot checks) */
    const blst_p1_affine *g1[] = { &p->h[0],       &p->h[8190],     &p->l[4999], &p->a[0],
                                   &p->b_g1[1270], &p->vk.alpha_g1, &p->vk.ic[2] };
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
    REQUIRE(cz_params_host_all(ctx, a) == CZ_OK && cz_params_host_all(ctx, b) == CZ_OK &&
            cz_params_host_all(ctx, c) == CZ_OK);
    CHECK(memcmp(a->l, b->l, a->n_l * sizeof *a->l) == 0);
    CHECK(memcmp(a->b_g2, b->b_g2, a->n_b_g2 * sizeof *a->b_g2) == 0);
    CHECK(memcmp(a->l, c->l, a->n_l * sizeof *a->l) != 0);
    cz_params_free(a);
    cz_params_free(b);
    cz_params_free(c);
    cz_ctx_free(ctx);
}

/* A shape whose vectors are longer than the pool: the tiling wraps. */
static const cz_params_shape_t LONG = {
    .num_inputs = 2,
    .num_aux = 1500000,
    .domain_size = (size_t)1 << 21,
    .a_aux_popcount = 10,
    .b_input_popcount = 1,
    .b_aux_popcount = 1200000,
};

CZ_TEST(random_params_keep_their_vectors_out_of_host_memory_until_asked)
{
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 2));
    cz_params_t *p = NULL;
    REQUIRE(cz_params_random(ctx, &p, &LONG, 3) == CZ_OK);
    const size_t pool_bytes = cz_params_mem_bytes(p);
    for (int v = 0; v < CZ_PV_COUNT; v++)
        CHECK(cz_params_vector(p, (enum cz_params_vec)v) == NULL);
    /* 2^20 points per group at most: the vectors (2^21 - 1, 1.5M, 1.2M) are not there */
    CHECK(pool_bytes <= ((size_t)1 << 20) * (sizeof(blst_p1_affine) + sizeof(blst_p2_affine)));

    /* a range read across the pool's end, before and after the host copy exists */
    const size_t first = ((size_t)1 << 20) - 3, n = 7;
    blst_p1_affine from_pool[7], from_host[7];
    CHECK_OK(cz_params_read(ctx, p, CZ_PV_H, first, n, from_pool));
    CHECK(cz_params_vector(p, CZ_PV_H) == NULL); /* reading made nothing resident */
    const void *h = NULL;
    CHECK_OK(cz_params_host(ctx, p, CZ_PV_H, &h));
    REQUIRE(h != NULL && h == cz_params_vector(p, CZ_PV_H));
    CHECK(cz_params_mem_bytes(p) == pool_bytes + p->n_h * sizeof(blst_p1_affine));
    CHECK(memcmp(from_pool, (const blst_p1_affine *)h + first, sizeof from_pool) == 0);
    CHECK_OK(cz_params_read(ctx, p, CZ_PV_H, first, n, from_host));
    CHECK(memcmp(from_pool, from_host, sizeof from_pool) == 0);
    /* the tiling: point i is point i mod 2^20, and the pool's points are distinct */
    const blst_p1_affine *hv = h;
    CHECK(memcmp(&hv[((size_t)1 << 20) + 5], &hv[5], sizeof *hv) == 0);
    CHECK(memcmp(&hv[6], &hv[5], sizeof *hv) != 0);

    /* G2 read from the pool equals its host copy; past the end is refused */
    blst_p2_affine g2[2];
    CHECK_OK(cz_params_read(ctx, p, CZ_PV_B_G2, p->n_b_g2 - 2, 2, g2));
    const void *b2 = NULL;
    CHECK_OK(cz_params_host(ctx, p, CZ_PV_B_G2, &b2));
    CHECK(memcmp(g2, (const blst_p2_affine *)b2 + p->n_b_g2 - 2, sizeof g2) == 0);
    CHECK(blst_p2_affine_in_g2(&g2[1]));
    CHECK_EQ_INT(cz_params_read(ctx, p, CZ_PV_B_G2, p->n_b_g2 - 1, 2, g2), CZ_ERANGE);
    CHECK_EQ_INT(cz_params_read(ctx, p, CZ_PV_L, SIZE_MAX, 2, g2), CZ_ERANGE);
    cz_params_free(p);
    cz_ctx_free(ctx);
}

typedef struct {
    cz_ctx_t *ctx;
    const cz_params_t *p;
    const void *got;
    int rc;
} host_race;

static void *ask_for_l(void *arg)
{
    host_race *r = arg;
    r->rc = cz_params_host(r->ctx, r->p, CZ_PV_L, &r->got);
    return NULL;
}

CZ_TEST(many_threads_asking_for_a_vector_get_one_host_copy)
{
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 2));
    cz_params_t *p = NULL;
    REQUIRE(cz_params_random(ctx, &p, &SHAPE, 5) == CZ_OK);
    enum { N = 4 };
    pthread_t th[N];
    host_race r[N];
    for (int i = 0; i < N; i++) {
        r[i] = (host_race){ NULL, p, NULL, -1 };
        REQUIRE(cz_ctx_new(&r[i].ctx, cz_ctx_pool(ctx), 0) == CZ_OK); /* one ctx per thread */
        REQUIRE(pthread_create(&th[i], NULL, ask_for_l, &r[i]) == 0);
    }
    for (int i = 0; i < N; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < N; i++) {
        CHECK_OK(r[i].rc);
        CHECK(r[i].got != NULL && r[i].got == cz_params_vector(p, CZ_PV_L));
        cz_ctx_free(r[i].ctx);
    }
    cz_params_free(p);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
