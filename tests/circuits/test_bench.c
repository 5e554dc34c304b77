/*
 * tests/circuits/test_bench.c — the synthetic PoRep-shaped circuit bench:N.
 *
 * - parsing of "bench:N";
 * - cz_bench_shape agrees with a SHAPE-mode synthesis at sizes with and
 *   without a partial last block;
 * - densities and the witness value mix land near one 32GiB PoRep partition
 *   (FACTS 3: a_aux 99.7%, b_aux 25.4%, b_input popcount 1; witness ~50%
 *   zeros, ~45% ones, ~5% full elements — the task's measured mix);
 * - cz_bench_witness == PROVE synthesis + cz_cs_take_witness byte for byte
 *   (several N, seeds, public-input counts, pool widths), c-free (c NULL,
 *   as with cz_cs_omit_c) and with c (with_c);
 * - CHECK mode is satisfied, and one corrupted aux value makes it fail;
 * - the witness generator's rate at 2^20 rows is printed.
 */
#include <time.h>

#include "circuits/bench.h"
#include "cz_test.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static double now(void)
{
    return clock_s(CLOCK_MONOTONIC);
}
static double cpu(void)
{
    return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static cz_bench_params params(size_t rows, uint64_t seed, size_t npub)
{
    cz_bench_params p;
    cz_bench_params_init(&p, rows);
    p.seed = seed;
    p.num_public = npub;
    return p;
}

/* Synthesize in PROVE mode (c omitted unless p->with_c) and take the witness. */
static int prove_witness(const cz_bench_params *p, cz_cs_witness_t *w)
{
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, NULL, CZ_CS_PROVE);
    if (rc)
        return rc;
    if (!p->with_c)
        rc = cz_cs_omit_c(cs);
    if (!rc && !(rc = cz_bench_circuit(cs, p)) && !(rc = cz_cs_finish(cs)))
        rc = cz_cs_take_witness(cs, w);
    cz_cs_free(cs);
    return rc;
}

static void check_same_witness(const cz_cs_witness_t *x, const cz_cs_witness_t *y)
{
    CHECK_EQ_U64(x->num_inputs, y->num_inputs);
    CHECK_EQ_U64(x->num_aux, y->num_aux);
    CHECK_EQ_U64(x->num_rows, y->num_rows);
    if (x->num_inputs != y->num_inputs || x->num_aux != y->num_aux || x->num_rows != y->num_rows)
        return;
    CHECK_MEM_EQ(x->input, y->input, x->num_inputs * sizeof(cz_fr));
    CHECK_MEM_EQ(x->aux, y->aux, x->num_aux * sizeof(cz_fr));
    CHECK_MEM_EQ(x->a, y->a, x->num_rows * sizeof(cz_fr));
    CHECK_MEM_EQ(x->b, y->b, x->num_rows * sizeof(cz_fr));
    CHECK((x->c == NULL) == (y->c == NULL));
    if (x->c && y->c)
        CHECK_MEM_EQ(x->c, y->c, x->num_rows * sizeof(cz_fr));
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_U64(x->density_bits[i], y->density_bits[i]);
        CHECK_EQ_U64(x->popcount[i], y->popcount[i]);
        if (x->density_bits[i] == y->density_bits[i])
            CHECK_MEM_EQ(x->density[i], y->density[i], (x->density_bits[i] + 63) / 64 * 8);
    }
}

CZ_TEST(bench_parse)
{
    const char *good[] = { "bench:65536", "bench:2^16", "bench:64Ki", "bench:64K" };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        cz_bench_params p;
        CHECK_OK(cz_bench_parse(NULL, good[i], &p));
        CHECK_EQ_U64(p.rows, 65536);
        CHECK_EQ_U64(p.num_public, CZ_BENCH_DEFAULT_PUBLIC);
        CHECK_EQ_U64(p.seed, 0);
    }
    cz_bench_params p;
    CHECK_OK(cz_bench_parse(NULL, "bench:1Mi", &p));
    CHECK_EQ_U64(p.rows, 1u << 20);
    const char *bad[] = { "toy",         "bench",     "bench:",   "bench:x",
                          "bench:12abc", "bench:3^4", "bench:2^", "bench:2^99",
                          "bench:17",    "bench:-5",  "bench:4Gi" };
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = cz_bench_parse(ctx, bad[i], &p);
        if (rc != CZ_EINVAL)
            CZ__FAIL("parse '%s' -> %d, want CZ_EINVAL", bad[i], rc);
        CHECK(strlen(cz_ctx_message(ctx)) > 0);
    }
    /* The smallest size: 2 * 8 + 2 rows, one body step. */
    CHECK_OK(cz_bench_parse(NULL, "bench:18", &p));
    cz_ctx_free(ctx);
}

CZ_TEST(bench_shape_matches_shape_mode)
{
    const size_t rows[] = { 18, 300, 1024, 1331 + 17, 5 * 1331 + 17 + 700, 1u << 16 };
    const size_t npub[] = { 8, 0, 3 };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        for (size_t k = 0; k < 3; k++) {
            cz_bench_params p = params(rows[i], 1, npub[k]);
            cz_bench_shape_t sh;
            if (cz_bench_shape(NULL, &p, &sh) != CZ_OK)
                continue; /* 18 rows with 8 inputs only */
            cz_cs_t *cs;
            REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_SHAPE) == CZ_OK);
            CHECK_OK(cz_bench_circuit(cs, &p));
            CHECK_OK(cz_cs_finish(cs));
            CHECK_EQ_U64(cz_cs_num_rows(cs), rows[i]);
            CHECK_EQ_U64(sh.rows, rows[i]);
            CHECK_EQ_U64(cz_cs_num_constraints(cs), sh.constraints);
            CHECK_EQ_U64(cz_cs_num_inputs(cs), sh.num_inputs);
            CHECK_EQ_U64(cz_cs_num_aux(cs), sh.num_aux);
            CHECK_EQ_U64(sh.num_inputs, npub[k] + 1);
            size_t pop;
            cz_cs_density(cs, CZ_DENSITY_A_AUX, NULL, &pop);
            CHECK_EQ_U64(pop, sh.a_aux_popcount);
            cz_cs_density(cs, CZ_DENSITY_B_AUX, NULL, &pop);
            CHECK_EQ_U64(pop, sh.b_aux_popcount);
            cz_cs_density(cs, CZ_DENSITY_B_INPUT, NULL, &pop);
            CHECK_EQ_U64(pop, sh.b_input_popcount);
            CHECK(((size_t)1 << sh.log_domain) >= rows[i]);
            CHECK(sh.log_domain == 0 || ((size_t)1 << (sh.log_domain - 1)) < rows[i]);
            cz_cs_free(cs);
        }
    }
    /* 2^k rows fill a 2^k domain exactly; the 32GiB row count fits 2^27. */
    cz_bench_params p = params(1u << 16, 0, 8);
    cz_bench_shape_t sh;
    CHECK_OK(cz_bench_shape(NULL, &p, &sh));
    CHECK_EQ_U64(sh.log_domain, 16);
    p = params(130278869, 0, 327); /* FACTS 3: rows, 328 inputs */
    CHECK_OK(cz_bench_shape(NULL, &p, &sh));
    CHECK_EQ_U64(sh.log_domain, 27);
    CHECK_EQ_U64(sh.constraints, 130278541);
    CHECK_EQ_U64(sh.num_inputs, 328);
    printf("  bench:130278869 (327 public): aux %zu, a_aux %.3f%%, b_aux %.3f%%, b_input %zu\n",
           sh.num_aux, 100.0 * (double)sh.a_aux_popcount / (double)sh.num_aux,
           100.0 * (double)sh.b_aux_popcount / (double)sh.num_aux, sh.b_input_popcount);
}

CZ_TEST(bench_fractions_near_porep)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 2) == CZ_OK);
    cz_bench_params p = params(1u << 16, 7, 8);
    cz_cs_witness_t w;
    REQUIRE(cz_bench_witness(ctx, &p, &w) == CZ_OK);
    double na = (double)w.num_aux;
    double fa = 100.0 * (double)w.popcount[CZ_DENSITY_A_AUX] / na;
    double fb = 100.0 * (double)w.popcount[CZ_DENSITY_B_AUX] / na;
    size_t z, o, f;
    cz_bench_value_mix(w.aux, w.num_aux, &z, &o, &f);
    double pz = 100.0 * (double)z / na, po = 100.0 * (double)o / na, pf = 100.0 * (double)f / na;
    printf("  bench:2^16: %zu aux, %zu inputs; a_aux %.2f%% (PoRep 99.7), b_aux %.2f%% (25.4), "
           "b_input %zu (1)\n  witness: zeros %.1f%% (~50), ones %.1f%% (~45), full %.1f%% (~5)\n",
           w.num_aux, w.num_inputs, fa, fb, w.popcount[CZ_DENSITY_B_INPUT], pz, po, pf);
    CHECK(fa > 99.5 && fa < 99.9);
    CHECK(fb > 24.4 && fb < 26.4);
    CHECK_EQ_U64(w.popcount[CZ_DENSITY_B_INPUT], 1);
    CHECK(pz > 47.0 && pz < 53.0);
    CHECK(po > 42.0 && po < 48.0);
    CHECK(pf > 4.0 && pf < 6.0);
    cz_cs_witness_free(&w);
    cz_ctx_free(ctx);
}

CZ_TEST(bench_witness_equals_prove_synthesis)
{
    cz_ctx_t *c1, *c2;
    REQUIRE(cz_ctx_new(&c1, NULL, 1) == CZ_OK);
    REQUIRE(cz_ctx_new(&c2, NULL, 2) == CZ_OK);
    struct {
        size_t rows;
        uint64_t seed;
        size_t npub;
    } cases[] = {
        { 18, 1, 8 },
        { 1024, 2, 8 },
        { 5000, 3, 0 },
        { (1u << 14) + 7, 4, 5 },
        { 1u << 16, 5, 8 },
        { 64 * 1331 + 2 * 8 + 1, 6, 8 },     /* exactly 64 blocks */
        { 70 * 1331 + 1000, 0xfeedface, 8 }, /* 2 groups, partial */
    };
    for (size_t i = 0; i < 2 * sizeof cases / sizeof cases[0]; i++) {
        size_t k = i / 2;
        cz_bench_params p = params(cases[k].rows, cases[k].seed, cases[k].npub);
        p.with_c = i % 2; /* c-free (the provers' form), then with c */
        cz_cs_witness_t ws, w1, w2;
        REQUIRE(prove_witness(&p, &ws) == CZ_OK);
        REQUIRE(cz_bench_witness(c1, &p, &w1) == CZ_OK);
        REQUIRE(cz_bench_witness(c2, &p, &w2) == CZ_OK);
        CHECK(p.with_c ? ws.c != NULL : ws.c == NULL);
        check_same_witness(&ws, &w1);
        check_same_witness(&ws, &w2);
        cz_cs_witness_free(&ws);
        cz_cs_witness_free(&w1);
        cz_cs_witness_free(&w2);
    }
    /* The seed changes the values, not the structure. */
    cz_bench_params p = params(4096, 1, 8), q = params(4096, 2, 8);
    cz_cs_witness_t wp, wq;
    REQUIRE(cz_bench_witness(c2, &p, &wp) == CZ_OK);
    REQUIRE(cz_bench_witness(c2, &q, &wq) == CZ_OK);
    CHECK(memcmp(wp.aux, wq.aux, wp.num_aux * sizeof(cz_fr)) != 0);
    for (int i = 0; i < 3; i++)
        CHECK_MEM_EQ(wp.density[i], wq.density[i], (wp.density_bits[i] + 63) / 64 * 8);
    cz_cs_witness_free(&wp);
    cz_cs_witness_free(&wq);
    cz_ctx_free(c1);
    cz_ctx_free(c2);
}

/* CHECK-mode synthesis of |p|: cz_cs_finish's code, and the failing path. */
static int check_mode(const cz_bench_params *p, cz_ctx_t *ctx, size_t *index)
{
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, ctx, CZ_CS_CHECK);
    if (rc)
        return rc;
    rc = cz_bench_circuit(cs, p);
    if (!rc)
        rc = cz_cs_finish(cs);
    if (!cz_cs_unsatisfied(cs, index, NULL))
        *index = SIZE_MAX;
    cz_cs_free(cs);
    return rc;
}

CZ_TEST(bench_check_mode)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    size_t rows = 3 * 1331 + 17 + 500, idx;
    cz_bench_params p = params(rows, 11, 8);
    CHECK_OK(check_mode(&p, ctx, &idx));
    CHECK_EQ_U64(idx, SIZE_MAX);

    /*
     * One wrong value per run; the first unsatisfied constraint is the one
     * that defines the value (its own step) or, for a b_i, its boolean row.
     * Aux k*1331 + s: a bit, x, a chain bit, a packed number, a y, the end of
     * a square chain, the last aux of the partial block (it is inputized:
     * the input copies the wrong value, its defining row still fails).
     */
    const size_t body = rows - 2 * 8 - 1;
    const size_t bad[] = { 0,           100,         1331 + 254,  2 * 1331 + 600,
                           1331 + 1268, 1331 + 1273, 1331 + 1330, body - 1 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p.test_corrupt_aux = bad[i] + 1;
        int rc = check_mode(&p, ctx, &idx);
        if (rc != CZ_EUNSAT)
            CZ__FAIL("corrupt aux %zu: rc %d, want CZ_EUNSAT", bad[i], rc);
        CHECK_EQ_U64(idx, bad[i]); /* step s's row is row s */
        CHECK(strstr(cz_ctx_message(ctx), "block") != NULL);
    }
    printf("  e.g. %s\n", cz_ctx_message(ctx));
    cz_ctx_free(ctx);
}

CZ_TEST(bench_witness_rate)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 0) == CZ_OK);
    cz_bench_params p = params(1u << 20, 3, 8);
    cz_cs_witness_t w;
    double t0 = now(), c0 = cpu();
    REQUIRE(cz_bench_witness(ctx, &p, &w) == CZ_OK);
    double t1 = now(), c1 = cpu();
    cz_cs_witness_free(&w);
    p.rows = 1u << 18;
    cz_cs_witness_t ws;
    double t2 = now();
    REQUIRE(prove_witness(&p, &ws) == CZ_OK);
    double t3 = now();
    cz_cs_witness_free(&ws);
    unsigned width = cz_pool_width(cz_ctx_pool(ctx));
    printf("  cz_bench_witness 2^20 rows: %.3f s wall on %u threads = %.2f M rows/s; "
           "%.3f s CPU = %.2f M rows per CPU-second\n",
           t1 - t0, width, (1 << 20) / (t1 - t0) / 1e6, c1 - c0, (1 << 20) / (c1 - c0) / 1e6);
    printf("  PROVE synthesis 2^18 rows (1 thread): %.3f s = %.2f M rows/s\n", t3 - t2,
           (1 << 18) / (t3 - t2) / 1e6);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
