/*
 * tests/circuits/test_porep_shape_32g.c — the full fingerprint of one 32GiB
 * PoRep partition in SHAPE mode (label slow: ~40 s on one core, less on a
 * pool). FACTS 3 (CURIO cuzk-project.md, measured on rust-fil-proofs):
 * 130,278,541 constraints, 130,278,869 rows, 328 inputs, 130,169,893 aux,
 * a_aux popcount ~129.75M, b_aux ~33.1M, b_input 1. The exact popcounts
 * below are cuzk's (129,753,292 and 33,112,281), consistent with those.
 */
#include <time.h>

#include "circuits/porep/stacked.h"
#include "cz_test.h"

CZ_TEST(shape_32gib_partition)
{
    cz_porep_params_t p;
    REQUIRE(cz_porep_params_sector(&p, 32ull << 30) == CZ_OK);
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 0) == CZ_OK);
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_SHAPE) == CZ_OK);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_OK(cz_porep_synthesize(ctx, cs, &p, NULL));
    CHECK_OK(cz_cs_finish(cs));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    size_t pa, pbi, pba;
    cz_cs_density(cs, CZ_DENSITY_A_AUX, NULL, &pa);
    cz_cs_density(cs, CZ_DENSITY_B_INPUT, NULL, &pbi);
    cz_cs_density(cs, CZ_DENSITY_B_AUX, NULL, &pba);
    CHECK_EQ_U64(cz_cs_num_constraints(cs), 130278541);
    CHECK_EQ_U64(cz_cs_num_rows(cs), 130278869);
    CHECK_EQ_U64(cz_cs_num_inputs(cs), 328);
    CHECK_EQ_U64(cz_cs_num_aux(cs), 130169893);
    CHECK_EQ_U64(pa, 129753292);
    CHECK_EQ_U64(pba, 33112281);
    CHECK_EQ_U64(pbi, 1);
    printf("32GiB partition shape: %.2f s on %u threads\n",
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
           cz_pool_width(cz_ctx_pool(ctx)));
    cz_cs_free(cs);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
