/*
 * tests/cs/test_cs_omit_c.c — c-free PROVE synthesis (cz_cs_omit_c):
 *  - a, b, assignments and densities are the bytes of a full PROVE
 *    synthesis; c is NULL (eval, witness) and a*b equals the full c on
 *    every row of a satisfying circuit, the input rows included;
 *  - a c reserved before the call is released, nothing else reallocated;
 *  - too late (after a constraint) is CZ_EINVAL and sticky;
 *  - CHECK, KEYGEN, SHAPE ignore it: CHECK still names an unsatisfied
 *    constraint, KEYGEN still records C;
 *  - forks inherit it and extend to the sequential bytes; a fork made
 *    before the parent omitted c is refused;
 *  - a C combination with an unallocated variable still fails.
 */
#include "cs/cs.h"
#include "cz_test.h"

enum { N_IN = 3, N_CONSTRAINTS = 300 };

/*
 * A satisfying random circuit: per constraint, A and B are random
 * combinations of earlier variables, w is a new aux and C = w + k z (z an
 * earlier variable), with w's value chosen so that <A,z><B,z> = <C,z>.
 * Constraint |unsat_at| (SIZE_MAX: none) gets w + 1 instead. Constraints
 * [from, to) only, variables allocated by this range only: a part run in a
 * fork continues the same stream (the rng is advanced by the caller).
 */
typedef struct {
    cz_rng rng;
    size_t unsat_at;
} circ_t;

static int var_value(cz_cs_t *cs, cz_var_t v, cz_fr *out)
{
    return cz_cs_needs_values(cs) ? cz_cs_value(cs, v, out) : (*out = CZ_FR_ZERO, CZ_OK);
}

static cz_var_t pick(cz_rng *rng, cz_cs_t *cs)
{
    uint64_t r = cz_rng_next(rng);
    size_t ni = cz_cs_num_inputs(cs), na = cz_cs_num_aux(cs);
    if (na == 0 || (r & 3) == 0)
        return cz_var_input((uint32_t)((r >> 8) % ni));
    return cz_var_aux((uint32_t)((r >> 8) % na));
}

/* lc = random combination; *val = its value. */
static int random_lc(cz_cs_t *cs, cz_rng *rng, cz_lc_t *lc, cz_fr *val)
{
    cz_lc_clear(lc);
    *val = CZ_FR_ZERO;
    int terms = 1 + (int)(cz_rng_next(rng) % 4);
    for (int t = 0; t < terms; t++) {
        cz_var_t v = pick(rng, cs);
        cz_fr k, z, x;
        cz_fr_from_u64(&k, cz_rng_next(rng) % 6); /* zero coefficients too */
        cz_lc_add_term(lc, &k, v);
        int rc = var_value(cs, v, &z);
        if (rc)
            return rc;
        cz_fr_mul(&x, &k, &z);
        cz_fr_add(val, val, &x);
    }
    return CZ_OK;
}

static int run_part(cz_cs_t *cs, circ_t *c, size_t from, size_t to)
{
    cz_lc_t a = { 0 }, b = { 0 }, cc = { 0 };
    int rc = CZ_OK;
    for (size_t i = from; i < to && rc == CZ_OK; i++) {
        cz_fr va, vb, vk, vz, w, t;
        if ((rc = random_lc(cs, &c->rng, &a, &va)) || (rc = random_lc(cs, &c->rng, &b, &vb)))
            break;
        cz_var_t z = pick(&c->rng, cs), wv;
        cz_fr_from_u64(&vk, 1 + cz_rng_next(&c->rng) % 9);
        if ((rc = var_value(cs, z, &vz)))
            break;
        cz_fr_mul(&w, &va, &vb); /* w = a*b - k z */
        cz_fr_mul(&t, &vk, &vz);
        cz_fr_sub(&w, &w, &t);
        if (i == c->unsat_at)
            cz_fr_add(&w, &w, &CZ_FR_ONE);
        if ((rc = cz_cs_alloc(cs, &wv, &w)))
            break;
        cz_lc_clear(&cc);
        cz_lc_add(&cc, wv);
        cz_lc_add_term(&cc, &vk, z);
        rc = cz_cs_enforcef(cs, &a, &b, &cc, "row%zu", i);
    }
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&cc);
    return rc;
}

/* Inputs (values 2, 3, ...), then constraints [0, N_CONSTRAINTS). */
static int run_circuit(cz_cs_t *cs, uint64_t seed, size_t unsat_at)
{
    circ_t c = { .unsat_at = unsat_at };
    cz_rng_seed(&c.rng, seed);
    for (uint64_t i = 1; i < N_IN; i++) {
        cz_var_t x;
        cz_fr v;
        cz_fr_from_u64(&v, i + 1);
        int rc = cz_cs_alloc_input(cs, &x, &v);
        if (rc)
            return rc;
    }
    cz_var_t first;
    cz_fr seven;
    cz_fr_from_u64(&seven, 7);
    int rc = cz_cs_alloc(cs, &first, &seven);
    return rc ? rc : run_part(cs, &c, 0, N_CONSTRAINTS);
}

/* A cs in |mode| (c omitted or not) with the circuit synthesized, not finished. */
static cz_cs_t *synth(cz_cs_mode_t mode, bool omit, uint64_t seed, size_t unsat_at)
{
    cz_cs_t *cs;
    if (cz_cs_new(&cs, NULL, mode) != CZ_OK)
        abort();
    if ((omit && cz_cs_omit_c(cs) != CZ_OK) || run_circuit(cs, seed, unsat_at) != CZ_OK)
        abort(); /* cz_cs_t * helpers cannot REQUIRE */
    return cs;
}

static void check_same_ab(const cz_cs_witness_t *x, const cz_cs_witness_t *y)
{
    REQUIRE(x->num_rows == y->num_rows && x->num_aux == y->num_aux &&
            x->num_inputs == y->num_inputs);
    CHECK_MEM_EQ(x->a, y->a, x->num_rows * sizeof(cz_fr));
    CHECK_MEM_EQ(x->b, y->b, x->num_rows * sizeof(cz_fr));
    CHECK_MEM_EQ(x->input, y->input, x->num_inputs * sizeof(cz_fr));
    CHECK_MEM_EQ(x->aux, y->aux, x->num_aux * sizeof(cz_fr));
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_U64(x->popcount[i], y->popcount[i]);
        CHECK_MEM_EQ(x->density[i], y->density[i], (x->density_bits[i] + 63) / 64 * 8);
    }
}

CZ_TEST(omit_c_same_a_b_and_c_is_a_times_b)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        cz_cs_t *full = synth(CZ_CS_PROVE, false, seed, SIZE_MAX);
        cz_cs_t *free_c = synth(CZ_CS_PROVE, true, seed, SIZE_MAX);
        CHECK(!cz_cs_omits_c(full));
        CHECK(cz_cs_omits_c(free_c));
        CHECK_OK(cz_cs_finish(full));
        CHECK_OK(cz_cs_finish(free_c));
        CHECK(cz_cs_eval(free_c, CZ_MATRIX_C) == NULL);
        CHECK(cz_cs_eval(free_c, CZ_MATRIX_A) != NULL);
        cz_cs_witness_t wf, w0;
        CHECK_OK(cz_cs_take_witness(full, &wf));
        CHECK_OK(cz_cs_take_witness(free_c, &w0));
        CHECK(wf.c != NULL);
        CHECK(w0.c == NULL);
        check_same_ab(&wf, &w0);
        CHECK_EQ_U64(w0.num_rows, N_CONSTRAINTS + N_IN);
        /* The fact the prover relies on: c = a*b on every row. */
        size_t bad = 0;
        for (size_t r = 0; r < wf.num_rows; r++) {
            cz_fr ab;
            cz_fr_mul(&ab, &w0.a[r], &w0.b[r]);
            bad += !cz_fr_eq(&ab, &wf.c[r]);
        }
        CHECK_EQ_U64(bad, 0);
        /* the input rows x_i * 0 = 0 */
        for (size_t i = 0; i < N_IN; i++) {
            CHECK_MEM_EQ(&w0.a[N_CONSTRAINTS + i], &w0.input[i], sizeof(cz_fr));
            CHECK(cz_fr_is_zero(&w0.b[N_CONSTRAINTS + i]));
        }
        cz_cs_witness_free(&wf);
        cz_cs_witness_free(&w0);
        cz_cs_witness_free(&w0); /* harmless twice */
        cz_cs_free(full);
        cz_cs_free(free_c);
    }
}

CZ_TEST(omit_c_after_reserve_releases_c)
{
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_PROVE) == CZ_OK);
    CHECK_OK(cz_cs_reserve(cs, N_CONSTRAINTS, N_CONSTRAINTS + 1, N_IN));
    CHECK(cz_cs_eval(cs, CZ_MATRIX_C) != NULL);
    const cz_fr *a0 = cz_cs_eval(cs, CZ_MATRIX_A), *b0 = cz_cs_eval(cs, CZ_MATRIX_B);
    CHECK_OK(cz_cs_omit_c(cs));
    CHECK_OK(cz_cs_omit_c(cs)); /* again: still before a constraint */
    CHECK(cz_cs_eval(cs, CZ_MATRIX_C) == NULL);
    CHECK_OK(run_circuit(cs, 9, SIZE_MAX));
    CHECK_OK(cz_cs_finish(cs));
    CHECK(cz_cs_eval(cs, CZ_MATRIX_A) == a0); /* nothing reallocated */
    CHECK(cz_cs_eval(cs, CZ_MATRIX_B) == b0);
    CHECK(cz_cs_eval(cs, CZ_MATRIX_C) == NULL);
    cz_cs_t *ref = synth(CZ_CS_PROVE, true, 9, SIZE_MAX);
    CHECK_OK(cz_cs_finish(ref));
    cz_cs_witness_t w, wr;
    CHECK_OK(cz_cs_take_witness(cs, &w));
    CHECK_OK(cz_cs_take_witness(ref, &wr));
    check_same_ab(&w, &wr);
    cz_cs_witness_free(&w);
    cz_cs_witness_free(&wr);
    cz_cs_free(cs);
    cz_cs_free(ref);
}

CZ_TEST(omit_c_too_late_is_sticky_einval)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_PROVE) == CZ_OK);
    cz_var_t x;
    cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
    CHECK_OK(cz_cs_alloc(cs, &x, &CZ_FR_ONE));
    cz_lc_add(&a, x);
    cz_lc_add(&b, x);
    cz_lc_add(&c, x);
    CHECK_OK(cz_cs_enforce(cs, &a, &b, &c, "x*x=x"));
    CHECK_EQ_INT(cz_cs_omit_c(cs), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "omit_c") != NULL);
    CHECK(!cz_cs_omits_c(cs));
    CHECK_EQ_INT(cz_cs_enforce(cs, &a, &b, &c, "again"), CZ_EINVAL); /* sticky */
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_EINVAL);
    cz_cs_free(cs);
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
    cz_ctx_free(ctx);
}

CZ_TEST(omit_c_is_a_no_op_in_check_keygen_shape)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    /* CHECK: a satisfied circuit passes; an unsatisfied one is named. */
    cz_cs_t *ok = synth(CZ_CS_CHECK, true, 3, SIZE_MAX);
    CHECK(!cz_cs_omits_c(ok));
    CHECK_OK(cz_cs_finish(ok));
    cz_cs_free(ok);
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_CHECK) == CZ_OK);
    CHECK_OK(cz_cs_omit_c(cs));
    CHECK_OK(run_circuit(cs, 3, 123));
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_EUNSAT);
    size_t idx;
    const char *path;
    REQUIRE(cz_cs_unsatisfied(cs, &idx, &path));
    CHECK_EQ_U64(idx, 123);
    CHECK_EQ_STR(path, "row123");
    CHECK(strstr(cz_ctx_message(ctx), "row123") != NULL);
    cz_cs_free(cs);
    /* KEYGEN: C is still recorded; SHAPE counts the same. */
    cz_cs_t *k0 = synth(CZ_CS_KEYGEN, false, 5, SIZE_MAX),
            *k1 = synth(CZ_CS_KEYGEN, true, 5, SIZE_MAX);
    CHECK_OK(cz_cs_finish(k0));
    CHECK_OK(cz_cs_finish(k1));
    const cz_csr_t *m0 = cz_cs_matrix(k0, CZ_MATRIX_C), *m1 = cz_cs_matrix(k1, CZ_MATRIX_C);
    REQUIRE(m0 && m1);
    CHECK_EQ_U64(m1->rows, N_CONSTRAINTS + N_IN);
    CHECK_EQ_U64(m1->nnz, m0->nnz);
    CHECK(m1->nnz >= N_CONSTRAINTS);
    CHECK_MEM_EQ(m1->cols, m0->cols, m0->nnz * sizeof *m0->cols);
    CHECK_MEM_EQ(m1->vals, m0->vals, m0->nnz * sizeof *m0->vals);
    cz_cs_t *s1 = synth(CZ_CS_SHAPE, true, 5, SIZE_MAX);
    CHECK_OK(cz_cs_finish(s1));
    CHECK_EQ_U64(cz_cs_num_rows(s1), N_CONSTRAINTS + N_IN);
    cz_cs_free(k0);
    cz_cs_free(k1);
    cz_cs_free(s1);
    cz_ctx_free(ctx);
}

/*
 * *out = constraints [0, 100) in the parent, [100, 200) and [200, 300) in
 * two forks. With |omit_after_fork|: check that a fork made before the
 * parent omits c is refused, and *out = NULL.
 */
static void synth_forked(cz_cs_t **out, bool omit, uint64_t seed, bool omit_after_fork)
{
    cz_cs_t *cs;
    *out = NULL;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_PROVE) == CZ_OK);
    if (omit && !omit_after_fork)
        REQUIRE(cz_cs_omit_c(cs) == CZ_OK);
    circ_t c = { .unsat_at = SIZE_MAX };
    cz_rng_seed(&c.rng, seed);
    for (uint64_t i = 1; i < N_IN; i++) {
        cz_var_t x;
        cz_fr v;
        cz_fr_from_u64(&v, i + 1);
        REQUIRE(cz_cs_alloc_input(cs, &x, &v) == CZ_OK);
    }
    cz_var_t first;
    cz_fr seven;
    cz_fr_from_u64(&seven, 7);
    REQUIRE(cz_cs_alloc(cs, &first, &seven) == CZ_OK);
    if (omit_after_fork) {
        /* a fork taken before the parent omits c cannot be extended into it */
        cz_cs_t *early;
        REQUIRE(cz_cs_fork(&early, cs, NULL) == CZ_OK);
        REQUIRE(cz_cs_omit_c(cs) == CZ_OK);
        CHECK(!cz_cs_omits_c(early));
        CHECK_EQ_INT(cz_cs_extend(cs, early), CZ_EINVAL);
        cz_cs_free(early);
        cz_cs_free(cs);
        return;
    }
    REQUIRE(run_part(cs, &c, 0, 100) == CZ_OK);
    /* Each fork continues the same random stream, as the sequential run does:
     * a fork allocates only its own aux, so picks see the same counts. */
    for (size_t part = 1; part < 3; part++) {
        cz_cs_t *f;
        REQUIRE(cz_cs_fork(&f, cs, NULL) == CZ_OK);
        CHECK(cz_cs_omits_c(f) == omit);
        REQUIRE(run_part(f, &c, part * 100, part * 100 + 100) == CZ_OK);
        CHECK(cz_cs_eval(f, CZ_MATRIX_C) == NULL || !omit);
        REQUIRE(cz_cs_extend(cs, f) == CZ_OK);
        cz_cs_free(f);
    }
    *out = cs;
}

CZ_TEST(omit_c_forks_inherit_and_extend_sequentially)
{
    for (int omit = 0; omit < 2; omit++) {
        cz_cs_t *seq = synth(CZ_CS_PROVE, omit, 21, SIZE_MAX);
        cz_cs_t *par;
        synth_forked(&par, omit, 21, false);
        REQUIRE(par);
        CHECK_OK(cz_cs_finish(seq));
        CHECK_OK(cz_cs_finish(par));
        cz_cs_witness_t ws, wp;
        CHECK_OK(cz_cs_take_witness(seq, &ws));
        CHECK_OK(cz_cs_take_witness(par, &wp));
        check_same_ab(&ws, &wp);
        CHECK((wp.c == NULL) == (bool)omit);
        if (!omit)
            CHECK_MEM_EQ(ws.c, wp.c, ws.num_rows * sizeof(cz_fr));
        cz_cs_witness_free(&ws);
        cz_cs_witness_free(&wp);
        cz_cs_free(seq);
        cz_cs_free(par);
    }
    cz_cs_t *none;
    synth_forked(&none, true, 21, true);
    CHECK(none == NULL);
}

CZ_TEST(omit_c_still_range_checks_c)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_PROVE) == CZ_OK);
    CHECK_OK(cz_cs_omit_c(cs));
    cz_var_t x;
    cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
    CHECK_OK(cz_cs_alloc(cs, &x, &CZ_FR_ONE));
    cz_lc_add(&a, x);
    cz_lc_add(&b, x);
    cz_lc_add(&c, cz_var_aux(5)); /* never allocated */
    CHECK_EQ_INT(cz_cs_enforce(cs, &a, &b, &c, "bad"), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "C uses aux 5") != NULL);
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_EINVAL);
    cz_cs_free(cs);
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
