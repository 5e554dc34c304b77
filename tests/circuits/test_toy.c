/*
 * tests/circuits/test_toy.c — x^3 + x + 5 = y, counted and evaluated by hand.
 *
 * With x = 3: x2 = 9, x3 = 27, y = 35. Rows (FACTS 1: circuit constraints,
 * then x_i * 0 = 0 for each input, ONE first):
 *   #0 a = x = 3            b = x = 3   c = x2 = 9
 *   #1 a = x2 = 9           b = x = 3   c = x3 = 27
 *   #2 a = x3 + x + 5 = 35  b = 1       c = y = 35
 *   #3 a = ONE = 1          b = 0       c = 0
 *   #4 a = y = 35           b = 0       c = 0
 */
#include "circuits/toy.h"
#include "cz_test.h"

static cz_fr fr(uint64_t v)
{
    cz_fr r;
    cz_fr_from_u64(&r, v);
    return r;
}

CZ_TEST(toy_counts_values_densities)
{
    cz_fr x = fr(3), y, want_y = fr(35);
    cz_toy_cube_output(&y, &x);
    CHECK(cz_fr_eq(&y, &want_y));

    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_PROVE) == CZ_OK);
    CHECK_OK(cz_cs_reserve(cs, CZ_TOY_CUBE_CONSTRAINTS, CZ_TOY_CUBE_AUX, CZ_TOY_CUBE_INPUTS));
    CHECK_OK(cz_toy_cube(cs, &x));
    CHECK_OK(cz_cs_finish(cs));
    CHECK_EQ_U64(cz_cs_num_constraints(cs), 3);
    CHECK_EQ_U64(cz_cs_num_inputs(cs), 2);
    CHECK_EQ_U64(cz_cs_num_aux(cs), 3);
    CHECK_EQ_U64(cz_cs_num_rows(cs), 5);

    const uint64_t want[5][3] = {
        { 3, 3, 9 }, { 9, 3, 27 }, { 35, 1, 35 }, { 1, 0, 0 }, { 35, 0, 0 },
    };
    for (int m = 0; m < 3; m++) {
        const cz_fr *ev = cz_cs_eval(cs, (cz_matrix_t)m);
        for (int r = 0; r < 5; r++) {
            cz_fr w = fr(want[r][m]);
            if (!cz_fr_eq(&ev[r], &w))
                CHECK(!"row value");
        }
    }
    const cz_fr *in = cz_cs_inputs(cs);
    CHECK(cz_fr_is_one(&in[0]));
    CHECK(cz_fr_eq(&in[1], &want_y));

    size_t nb, pop;
    const uint64_t *d = cz_cs_density(cs, CZ_DENSITY_A_AUX, &nb, &pop);
    CHECK_EQ_U64(d[0], 0x7); /* x, x2, x3 */
    CHECK_EQ_U64(pop, 3);
    d = cz_cs_density(cs, CZ_DENSITY_B_AUX, &nb, &pop);
    CHECK_EQ_U64(d[0], 0x1); /* x */
    d = cz_cs_density(cs, CZ_DENSITY_B_INPUT, &nb, &pop);
    CHECK_EQ_U64(d[0], 0x1); /* ONE */
    CHECK_EQ_U64(nb, 2);
    cz_cs_free(cs);
}

CZ_TEST(toy_shape_and_keygen_without_witness)
{
    for (int mode = CZ_CS_KEYGEN; mode <= CZ_CS_SHAPE; mode++) {
        cz_cs_t *cs;
        REQUIRE(cz_cs_new(&cs, NULL, (cz_cs_mode_t)mode) == CZ_OK);
        CHECK_OK(cz_toy_cube(cs, NULL));
        CHECK_OK(cz_cs_finish(cs));
        CHECK_EQ_U64(cz_cs_num_rows(cs), 5);
        CHECK_EQ_U64(cz_cs_num_aux(cs), 3);
        if (mode == CZ_CS_KEYGEN) {
            /* A row #2 = x3 + x + 5*ONE: columns ONE(0), x(2), x3(4) */
            const cz_csr_t *A = cz_cs_matrix(cs, CZ_MATRIX_A);
            REQUIRE(A);
            CHECK_EQ_U64(A->nnz, 1 + 1 + 3 + 1 + 1);
            CHECK_EQ_U64(A->row_ptr[2], 2);
            CHECK_EQ_U64(A->row_ptr[3], 5);
            CHECK_EQ_U64(A->cols[2], 0);
            CHECK_EQ_U64(A->cols[3], 2);
            CHECK_EQ_U64(A->cols[4], 4);
            cz_fr five = fr(5);
            CHECK(cz_fr_eq(&A->vals[2], &five));
        }
        cz_cs_free(cs);
    }
}

CZ_TEST(toy_check_names_the_wrong_constraint)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_cs_t *cs;
    cz_fr x = fr(3);
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_CHECK) == CZ_OK);
    CHECK_OK(cz_toy_cube(cs, &x));
    CHECK_OK(cz_cs_finish(cs));
    cz_cs_free(cs);

    /* a missing witness in CHECK mode is an error, not a silent zero */
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_CHECK) == CZ_OK);
    CHECK_EQ_INT(cz_toy_cube(cs, NULL), CZ_EINVAL);
    cz_cs_free(cs);

    /* a wrong public output: hand-build the circuit with y + 1 */
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_CHECK) == CZ_OK);
    cz_var_t vx, vy;
    cz_fr bad = fr(36), five = fr(5);
    cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
    CHECK_OK(cz_cs_push(cs, "cube"));
    CHECK_OK(cz_cs_alloc(cs, &vx, &x));
    CHECK_OK(cz_cs_alloc_input(cs, &vy, &bad));
    cz_lc_add(&a, vx);
    cz_lc_add(&b, vx);
    cz_lc_add(&c, vx);
    cz_lc_add(&c, vx);
    cz_lc_add(&c, vx); /* 3*3 = 9 = 3x: holds */
    CHECK_OK(cz_cs_enforce(cs, &a, &b, &c, "square"));
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_lc_add_term(&a, &five, CZ_VAR_ONE);
    cz_lc_add(&b, CZ_VAR_ONE);
    cz_lc_add(&c, vy);
    CHECK_OK(cz_cs_enforce(cs, &a, &b, &c, "y"));
    CHECK_OK(cz_cs_pop(cs));
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_EUNSAT);
    CHECK_EQ_STR(cz_ctx_message(ctx), "unsatisfied constraint 'cube/y' (#1)");
    cz_lc_free(&a), cz_lc_free(&b), cz_lc_free(&c);
    cz_cs_free(cs);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
