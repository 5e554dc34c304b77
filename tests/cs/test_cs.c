/*
 * tests/cs/test_cs.c — the constraint system: linear combinations, the four
 * modes, densities, the input rows, keygen matrices, checking and errors.
 *
 * Facts (FACTS.md 1; BP groth16/prover/mod.rs, BP lc.rs, BPC lc.rs):
 *  - ONE is input 0, allocated before the circuit;
 *  - after the circuit, one row x_i * 0 = 0 per input: rows = constraints + inputs;
 *  - LCs keep inputs then aux sorted, merging duplicates by adding coefficients;
 *  - a_aux / b_input / b_aux bits are set for terms with a non-zero merged
 *    coefficient (eval_with_trackers skips `coeff.is_zero_vartime()`); inputs
 *    are not tracked for A.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cs/cs.h"
#include "cz_test.h"

static cz_fr fr(uint64_t v)
{
    cz_fr r;
    cz_fr_from_u64(&r, v);
    return r;
}

static cz_fr fr_neg(uint64_t v)
{
    cz_fr r = fr(v);
    cz_fr_neg(&r, &r);
    return r;
}

/* ---- linear combinations ---------------------------------------------------- */

CZ_TEST(lc_sorted_and_merged)
{
    cz_lc_t lc = { 0 };
    cz_fr three = fr(3);
    cz_lc_add(&lc, cz_var_aux(3));
    cz_lc_add_term(&lc, &three, cz_var_input(2));
    cz_lc_add(&lc, cz_var_aux(1));
    cz_lc_add(&lc, cz_var_aux(3)); /* duplicate: coefficient 2 */
    cz_lc_add(&lc, CZ_VAR_ONE);
    cz_lc_sub_term(&lc, &three, cz_var_input(2)); /* merges to a zero coefficient */
    REQUIRE(cz_lc_len(&lc) == 4);
    /* inputs first, ascending, then aux ascending (BPC's two Indexers) */
    CHECK(cz_var_eq(cz_lc_var(&lc, 0), CZ_VAR_ONE));
    CHECK(cz_var_eq(cz_lc_var(&lc, 1), cz_var_input(2)));
    CHECK(cz_var_eq(cz_lc_var(&lc, 2), cz_var_aux(1)));
    CHECK(cz_var_eq(cz_lc_var(&lc, 3), cz_var_aux(3)));
    const cz_fr *c = cz_lc_coeffs(&lc);
    cz_fr two = fr(2);
    CHECK(cz_fr_is_one(&c[0]));
    CHECK(cz_fr_is_zero(&c[1])); /* the term stays, with coefficient 0 */
    CHECK(cz_fr_is_one(&c[2]));
    CHECK(cz_fr_eq(&c[3], &two));
    CHECK_EQ_INT(cz_lc_error(&lc), CZ_OK);

    /* evaluation: z = inputs (1, 10, 20), aux (0, 5, 0, 7) */
    cz_fr in[3] = { fr(1), fr(10), fr(20) }, aux[4] = { fr(0), fr(5), fr(0), fr(7) };
    cz_fr v, want = fr(1 + 5 + 14);
    cz_lc_eval(&v, &lc, in, aux);
    CHECK(cz_fr_eq(&v, &want));
    cz_lc_free(&lc);
}

CZ_TEST(lc_grows_past_inline_in_any_order)
{
    cz_lc_t lc = { 0 };
    cz_rng rng;
    cz_rng_seed(&rng, 7);
    uint64_t count[200] = { 0 };
    for (int i = 0; i < 1000; i++) {
        uint32_t j = (uint32_t)(cz_rng_next(&rng) % 200);
        count[j]++;
        cz_lc_add(&lc, (j & 1) ? cz_var_aux(j) : cz_var_input(j));
    }
    size_t distinct = 0;
    for (int j = 0; j < 200; j++)
        distinct += count[j] != 0;
    CHECK_EQ_U64(cz_lc_len(&lc), distinct);
    const uint32_t *ids = cz_lc_ids(&lc);
    for (size_t k = 1; k < cz_lc_len(&lc); k++)
        CHECK(ids[k - 1] < ids[k]);
    for (size_t k = 0; k < cz_lc_len(&lc); k++) {
        cz_fr want = fr(count[cz_var_index(cz_lc_var(&lc, k))]);
        CHECK(cz_fr_eq(&cz_lc_coeffs(&lc)[k], &want));
    }
    /* clear keeps the buffer; copy reproduces */
    cz_lc_t cp = { 0 };
    cz_lc_copy(&cp, &lc);
    CHECK_EQ_U64(cz_lc_len(&cp), cz_lc_len(&lc));
    CHECK_MEM_EQ(cz_lc_ids(&cp), cz_lc_ids(&lc), cz_lc_len(&lc) * 4);
    cz_lc_clear(&lc);
    CHECK_EQ_U64(cz_lc_len(&lc), 0);
    cz_lc_free(&lc);
    cz_lc_free(&cp);
}

CZ_TEST(lc_combinations)
{
    cz_lc_t x = { 0 }, y = { 0 };
    cz_fr two = fr(2), five = fr(5);
    cz_lc_add(&x, cz_var_aux(0));
    cz_lc_add_term(&x, &two, cz_var_aux(2));
    cz_lc_add(&y, cz_var_aux(2));
    cz_lc_add(&y, cz_var_input(1));

    cz_lc_add_scaled(&x, &five, &y); /* x = a0 + 7 a2 + 5 i1 */
    REQUIRE(cz_lc_len(&x) == 3);
    cz_fr seven = fr(7);
    CHECK(cz_var_eq(cz_lc_var(&x, 0), cz_var_input(1)));
    CHECK(cz_fr_eq(&cz_lc_coeffs(&x)[0], &five));
    CHECK(cz_fr_eq(&cz_lc_coeffs(&x)[2], &seven));

    cz_lc_sub_lc(&x, &y); /* x = a0 + 6 a2 + 4 i1 */
    cz_fr six = fr(6), four = fr(4);
    CHECK(cz_fr_eq(&cz_lc_coeffs(&x)[0], &four));
    CHECK(cz_fr_eq(&cz_lc_coeffs(&x)[2], &six));

    cz_lc_add_lc(&x, &x); /* aliasing: doubles */
    cz_fr eight = fr(8), twelve = fr(12);
    CHECK(cz_fr_eq(&cz_lc_coeffs(&x)[0], &eight));
    CHECK(cz_fr_eq(&cz_lc_coeffs(&x)[2], &twelve));

    cz_lc_sub_term(&x, &two, cz_var_aux(0)); /* 2 a0 - 2 a0: zero, stays */
    CHECK_EQ_U64(cz_lc_len(&x), 3);
    CHECK(cz_fr_is_zero(&cz_lc_coeffs(&x)[1]));

    cz_lc_t z = { 0 };
    cz_lc_add_lc(&z, &y); /* into an empty LC: a copy */
    CHECK_EQ_U64(cz_lc_len(&z), 2);
    cz_fr m1 = fr_neg(1);
    cz_lc_sub_scaled(&z, &m1, &y); /* z = 2y */
    CHECK(cz_fr_eq(&cz_lc_coeffs(&z)[0], &two));
    cz_lc_free(&x);
    cz_lc_free(&y);
    cz_lc_free(&z);
}

/* ---- a hand-built circuit with known densities ---------------------------------- */

/*
 * inputs: ONE, p (input 1), q (input 2); aux: u0..u4
 *   #0  (u0 + u1 - u1) * (p + u2) = u3         A: u0 (u1 merged to 0)  B: p, u2
 *   #1  (2 u3 + q) * (ONE) = u4 + u0           A: u3 (q input: untracked) B: ONE
 *   #2  (u4) * (0 * u1) = 0                    A: u4  B: nothing (zero coeff)
 * a_aux = {0, 3, 4}; b_aux = {2}; b_input = {0, 1}.
 */
static int hand_circuit(cz_cs_t *cs, void *unused)
{
    cz_fr v[5] = { fr(3), fr(4), fr(5), fr(0), fr(0) }, p = fr(6), q = fr(9);
    cz_var_t vp, vq, u[5];
    cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
    cz_fr two = fr(2), zero = fr(0);
    int rc = cz_cs_alloc_input(cs, &vp, &p);
    rc = rc ? rc : cz_cs_alloc_input(cs, &vq, &q);
    for (int i = 0; i < 5 && !rc; i++)
        rc = cz_cs_alloc(cs, &u[i], &v[i]);
    if (rc)
        return rc;
    cz_lc_add(&a, u[0]);
    cz_lc_add(&a, u[1]);
    cz_lc_sub(&a, u[1]);
    cz_lc_add(&b, vp);
    cz_lc_add(&b, u[2]);
    cz_lc_add(&c, u[3]);
    cz_cs_enforce(cs, &a, &b, &c, "first");
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_lc_add_term(&a, &two, u[3]);
    cz_lc_add(&a, vq);
    cz_lc_add(&b, CZ_VAR_ONE);
    cz_lc_add(&c, u[4]);
    cz_lc_add(&c, u[0]);
    cz_cs_enforce(cs, &a, &b, &c, "second");
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_lc_add(&a, u[4]);
    cz_lc_add_term(&b, &zero, u[1]);
    rc = cz_cs_enforce(cs, &a, &b, &c, "third");
    cz_lc_free(&a), cz_lc_free(&b), cz_lc_free(&c);
    return rc;
}

CZ_TEST(densities_and_input_rows)
{
    for (int mode = 0; mode < 4; mode++) {
        cz_cs_t *cs;
        REQUIRE(cz_cs_new(&cs, NULL, (cz_cs_mode_t)mode) == CZ_OK);
        CHECK_OK(hand_circuit(cs, NULL));
        int rc = cz_cs_finish(cs);
        if (mode == CZ_CS_CHECK)
            CHECK_EQ_INT(rc, CZ_EUNSAT); /* values are not a satisfying witness */
        else
            CHECK_EQ_INT(rc, CZ_OK);
        CHECK_EQ_U64(cz_cs_num_inputs(cs), 3);
        CHECK_EQ_U64(cz_cs_num_aux(cs), 5);
        CHECK_EQ_U64(cz_cs_num_constraints(cs), 3);
        CHECK_EQ_U64(cz_cs_num_rows(cs), 6);
        size_t nb, pop;
        const uint64_t *w = cz_cs_density(cs, CZ_DENSITY_A_AUX, &nb, &pop);
        CHECK_EQ_U64(nb, 5);
        CHECK_EQ_U64(pop, 3);
        CHECK_EQ_U64(w[0], 0x19); /* bits 0, 3, 4 */
        w = cz_cs_density(cs, CZ_DENSITY_B_AUX, &nb, &pop);
        CHECK_EQ_U64(pop, 1);
        CHECK_EQ_U64(w[0], 0x4); /* bit 2 */
        w = cz_cs_density(cs, CZ_DENSITY_B_INPUT, &nb, &pop);
        CHECK_EQ_U64(nb, 3);
        CHECK_EQ_U64(pop, 2);
        CHECK_EQ_U64(w[0], 0x3); /* ONE and p */
        if (mode == CZ_CS_PROVE) {
            const cz_fr *a = cz_cs_eval(cs, CZ_MATRIX_A), *b = cz_cs_eval(cs, CZ_MATRIX_B),
                        *c = cz_cs_eval(cs, CZ_MATRIX_C), *in = cz_cs_inputs(cs);
            cz_fr want[3][3] = {
                { fr(3), fr(6 + 5), fr(0) }, /* a, b, c of #0 */
                { fr(9), fr(1), fr(3) },     /* 2*0 + 9, 1, 0 + 3 */
                { fr(0), fr(0), fr(0) },
            };
            for (int r = 0; r < 3; r++) {
                CHECK(cz_fr_eq(&a[r], &want[r][0]));
                CHECK(cz_fr_eq(&b[r], &want[r][1]));
                CHECK(cz_fr_eq(&c[r], &want[r][2]));
            }
            /* the x_i * 0 = 0 rows come last, one per input, in input order */
            for (int i = 0; i < 3; i++) {
                CHECK(cz_fr_eq(&a[3 + i], &in[i]));
                CHECK(cz_fr_is_zero(&b[3 + i]));
                CHECK(cz_fr_is_zero(&c[3 + i]));
            }
        }
        if (mode == CZ_CS_CHECK) {
            size_t idx;
            const char *path;
            REQUIRE(cz_cs_unsatisfied(cs, &idx, &path));
            CHECK_EQ_U64(idx, 0);
            CHECK_EQ_STR(path, "first");
        }
        cz_cs_free(cs);
    }
}

/* ---- a random circuit run in every mode -------------------------------------------- */

struct rand_circ {
    uint64_t seed;
    size_t constraints;
    size_t unsat_at; /* SIZE_MAX: satisfied */
};

static void random_lc(cz_lc_t *lc, cz_rng *rng, size_t n_in, size_t n_aux)
{
    cz_lc_clear(lc);
    int terms = 1 + (int)(cz_rng_next(rng) % 5);
    for (int t = 0; t < terms; t++) {
        uint64_t r = cz_rng_next(rng);
        cz_var_t v = (r & 3) == 0 ? cz_var_input((uint32_t)((r >> 8) % n_in))
                                  : cz_var_aux((uint32_t)((r >> 8) % n_aux));
        switch ((r >> 40) % 4) {
        case 0: cz_lc_add(lc, v); break;
        case 1: cz_lc_sub(lc, v); break;
        case 2: {
            cz_fr k;
            cz_fr_random_rng(&k, rng);
            cz_lc_add_term(lc, &k, v);
            break;
        }
        default:
            cz_lc_add(lc, v);
            cz_lc_sub(lc, v);
            break; /* a merged zero */
        }
    }
}

/*
 * Per constraint: maybe an input or aux, then random A and B over the
 * variables so far, w = a*b as a new aux and C = w (+ t - t). Identical
 * structure in every mode; values only where the mode wants them.
 */
static int rand_circuit(cz_cs_t *cs, void *arg)
{
    struct rand_circ *rc_ = arg;
    cz_rng rng, vrng;
    cz_rng_seed(&rng, rc_->seed);       /* structure */
    cz_rng_seed(&vrng, rc_->seed ^ 99); /* values (drawn in every mode alike) */
    cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
    cz_var_t v;
    cz_fr val;
    int rc = CZ_OK;
    const bool vals = cz_cs_needs_values(cs);
    cz_fr_random_rng(&val, &vrng);
    rc = cz_cs_alloc(cs, &v, &val);
    for (size_t i = 0; i < rc_->constraints && !rc; i++) {
        uint64_t r = cz_rng_next(&rng);
        cz_fr_random_rng(&val, &vrng);
        if (r % 7 == 0)
            rc = cz_cs_alloc_input(cs, &v, &val);
        else if (r % 3 == 0)
            rc = cz_cs_alloc(cs, &v, &val);
        if (rc)
            break;
        random_lc(&a, &rng, cz_cs_num_inputs(cs), cz_cs_num_aux(cs));
        random_lc(&b, &rng, cz_cs_num_inputs(cs), cz_cs_num_aux(cs));
        cz_fr w = CZ_FR_ZERO;
        if (vals) {
            cz_fr va, vb;
            cz_lc_eval(&va, &a, cz_cs_inputs(cs), cz_cs_aux(cs));
            cz_lc_eval(&vb, &b, cz_cs_inputs(cs), cz_cs_aux(cs));
            cz_fr_mul(&w, &va, &vb);
            if (i == rc_->unsat_at)
                cz_fr_add(&w, &w, &CZ_FR_ONE);
        }
        if ((rc = cz_cs_alloc(cs, &v, &w)))
            break;
        cz_lc_clear(&c);
        cz_lc_add(&c, v);
        if (r & 16) {
            cz_var_t t = cz_var_aux((uint32_t)((r >> 20) % cz_cs_num_aux(cs)));
            cz_lc_add(&c, t);
            cz_lc_sub(&c, t);
        }
        if ((rc = cz_cs_pushf(cs, "step %zu", i)))
            break;
        rc = cz_cs_enforcef(cs, &a, &b, &c, "w = a*b (%zu)", i);
        if (!rc)
            rc = cz_cs_pop(cs);
    }
    cz_lc_free(&a), cz_lc_free(&b), cz_lc_free(&c);
    return rc;
}

static cz_cs_t *run_mode(cz_cs_mode_t mode, struct rand_circ *rc, int expect)
{
    cz_cs_t *cs = NULL;
    if (cz_cs_new(&cs, NULL, mode))
        return NULL;
    int r = rand_circuit(cs, rc);
    if (r == CZ_OK)
        r = cz_cs_finish(cs);
    if (r != expect) {
        fprintf(stderr, "mode %d: %d != %d\n", (int)mode, r, expect);
        cz_cs_free(cs);
        return NULL;
    }
    return cs;
}

CZ_TEST(modes_agree_and_csr_reproduces_abc)
{
    struct rand_circ rc = { 1234, 2000, SIZE_MAX };
    cz_cs_t *prove = run_mode(CZ_CS_PROVE, &rc, CZ_OK);
    cz_cs_t *shape = run_mode(CZ_CS_SHAPE, &rc, CZ_OK);
    cz_cs_t *keygen = run_mode(CZ_CS_KEYGEN, &rc, CZ_OK);
    cz_cs_t *check = run_mode(CZ_CS_CHECK, &rc, CZ_OK);
    REQUIRE(prove && shape && keygen && check);
    cz_cs_t *all[3] = { shape, keygen, check };
    size_t ni = cz_cs_num_inputs(prove), na = cz_cs_num_aux(prove);
    size_t rows = cz_cs_num_rows(prove);
    CHECK_EQ_U64(rows, rc.constraints + ni);
    CHECK(ni > 100 && na > 2000);
    for (int m = 0; m < 3; m++) {
        CHECK_EQ_U64(cz_cs_num_inputs(all[m]), ni);
        CHECK_EQ_U64(cz_cs_num_aux(all[m]), na);
        CHECK_EQ_U64(cz_cs_num_constraints(all[m]), rc.constraints);
        CHECK_EQ_U64(cz_cs_num_rows(all[m]), rows);
        for (int d = 0; d < 3; d++) {
            size_t nb0, nb1, p0, p1;
            const uint64_t *w0 = cz_cs_density(prove, (cz_density_t)d, &nb0, &p0);
            const uint64_t *w1 = cz_cs_density(all[m], (cz_density_t)d, &nb1, &p1);
            CHECK_EQ_U64(nb0, nb1);
            CHECK_EQ_U64(p0, p1);
            CHECK_MEM_EQ(w0, w1, (nb0 + 63) / 64 * 8);
        }
    }
    size_t pa;
    cz_cs_density(prove, CZ_DENSITY_A_AUX, NULL, &pa);
    CHECK(pa > 0 && pa < na); /* non-trivial densities */

    /* z = (inputs..., aux...); CSR * z must equal a, b, c (rows included). */
    const cz_fr *in = cz_cs_inputs(prove), *aux = cz_cs_aux(prove);
    for (int mi = 0; mi < 3; mi++) {
        const cz_csr_t *m = cz_cs_matrix(keygen, (cz_matrix_t)mi);
        const cz_fr *ev = cz_cs_eval(prove, (cz_matrix_t)mi);
        REQUIRE(m && ev);
        CHECK_EQ_U64(m->rows, rows);
        CHECK_EQ_U64(m->row_ptr[0], 0);
        CHECK_EQ_U64(m->row_ptr[rows], m->nnz);
        size_t bad = 0;
        for (size_t r = 0; r < rows; r++) {
            cz_fr acc = CZ_FR_ZERO, t;
            for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
                uint32_t col = m->cols[k];
                if (k > m->row_ptr[r] && m->cols[k - 1] >= col)
                    bad++;
                if (col >= ni + na) {
                    bad++;
                    continue;
                }
                const cz_fr *z = col < ni ? &in[col] : &aux[col - ni];
                cz_fr_mul(&t, z, &m->vals[k]);
                cz_fr_add(&acc, &acc, &t);
            }
            if (!cz_fr_eq(&acc, &ev[r]))
                bad++;
        }
        CHECK_EQ_U64(bad, 0);
    }
    /* the input rows of A: one entry (i, 1) each */
    const cz_csr_t *A = cz_cs_matrix(keygen, CZ_MATRIX_A);
    for (size_t i = 0; i < ni; i++) {
        uint64_t k = A->row_ptr[rc.constraints + i];
        CHECK_EQ_U64(A->row_ptr[rc.constraints + i + 1] - k, 1);
        CHECK_EQ_U64(A->cols[k], i);
        CHECK(cz_fr_is_one(&A->vals[k]));
    }
    /* a satisfied witness: a*b = c on every row */
    const cz_fr *a = cz_cs_eval(prove, CZ_MATRIX_A), *b = cz_cs_eval(prove, CZ_MATRIX_B),
                *c = cz_cs_eval(prove, CZ_MATRIX_C);
    size_t unsat = 0;
    for (size_t r = 0; r < rows; r++) {
        cz_fr t;
        cz_fr_mul(&t, &a[r], &b[r]);
        unsat += !cz_fr_eq(&t, &c[r]);
    }
    CHECK_EQ_U64(unsat, 0);
    CHECK(cz_cs_matrix(prove, CZ_MATRIX_A) == NULL);
    CHECK(cz_cs_eval(shape, CZ_MATRIX_A) == NULL);
    CHECK(cz_cs_inputs(shape) == NULL);
    cz_cs_free(prove);
    cz_cs_free(shape);
    cz_cs_free(keygen);
    cz_cs_free(check);
}

CZ_TEST(check_names_first_unsatisfied)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    struct rand_circ rc = { 77, 300, 123 };
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_CHECK) == CZ_OK);
    CHECK_OK(cz_cs_push(cs, "outer"));
    CHECK_OK(rand_circuit(cs, &rc));
    CHECK_OK(cz_cs_pop(cs));
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_EUNSAT);
    CHECK_EQ_STR(cz_ctx_message(ctx),
                 "unsatisfied constraint 'outer/step 123/w = a*b (123)' (#123)");
    size_t idx;
    const char *path;
    REQUIRE(cz_cs_unsatisfied(cs, &idx, &path));
    CHECK_EQ_U64(idx, 123);
    CHECK_EQ_U64(cz_cs_num_constraints(cs), 300); /* synthesis went on */
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_EUNSAT);    /* finish is idempotent */
    cz_cs_free(cs);

    /* the same circuit proves fine: PROVE does not check */
    cz_cs_t *p = run_mode(CZ_CS_PROVE, &rc, CZ_OK);
    CHECK(p != NULL);
    cz_cs_free(p);
    cz_ctx_free(ctx);
}

/* ---- reservation, callbacks and errors ---------------------------------------------- */

static int count_calls(cz_fr *out, void *arg)
{
    (*(int *)arg)++;
    *out = fr(42);
    return CZ_OK;
}

static int fail_value(cz_fr *out, void *arg)
{
    return CZ_ERANGE;
}

CZ_TEST(value_callbacks_only_where_values_are_wanted)
{
    for (int mode = 0; mode < 4; mode++) {
        cz_cs_t *cs;
        int calls = 0;
        cz_var_t v, w;
        REQUIRE(cz_cs_new(&cs, NULL, (cz_cs_mode_t)mode) == CZ_OK);
        CHECK_OK(cz_cs_alloc_fn(cs, &v, count_calls, &calls));
        CHECK_OK(cz_cs_alloc_input_fn(cs, &w, count_calls, &calls));
        CHECK(cz_var_eq(v, cz_var_aux(0)));
        CHECK(cz_var_eq(w, cz_var_input(1)));
        bool wants = mode == CZ_CS_PROVE || mode == CZ_CS_CHECK;
        CHECK_EQ_INT(calls, wants ? 2 : 0);
        CHECK_EQ_INT(cz_cs_needs_values(cs), wants);
        cz_fr got, want = fr(42);
        if (wants) {
            CHECK_OK(cz_cs_value(cs, w, &got));
            CHECK(cz_fr_eq(&got, &want));
            CHECK_OK(cz_cs_value(cs, CZ_VAR_ONE, &got));
            CHECK(cz_fr_is_one(&got));
            CHECK_EQ_INT(cz_cs_value(cs, cz_var_aux(1), &got), CZ_EINVAL);
            /* a missing value is an error where values are wanted */
            CHECK_EQ_INT(cz_cs_alloc(cs, &v, NULL), CZ_EINVAL);
        } else {
            CHECK_EQ_INT(cz_cs_value(cs, w, &got), CZ_EUNAVAIL);
            CHECK_OK(cz_cs_alloc(cs, &v, NULL));
        }
        cz_cs_free(cs);
    }
}

CZ_TEST(errors_are_sticky)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_cs_t *cs;
    cz_var_t v;
    cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };

    /* a variable that was never allocated */
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_SHAPE) == CZ_OK);
    cz_lc_add(&a, cz_var_aux(5));
    CHECK_EQ_INT(cz_cs_enforce(cs, &a, &b, &c, "bad"), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "aux 5") != NULL);
    CHECK_EQ_INT(cz_cs_alloc(cs, &v, NULL), CZ_EINVAL); /* sticky */
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_EINVAL);
    cz_cs_free(cs);

    /* a value callback's error */
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_PROVE) == CZ_OK);
    CHECK_EQ_INT(cz_cs_alloc_fn(cs, &v, fail_value, NULL), CZ_ERANGE);
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_ERANGE);
    cz_cs_free(cs);

    /* namespaces must balance */
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_PROVE) == CZ_OK);
    CHECK_EQ_INT(cz_cs_pop(cs), CZ_EINVAL);
    cz_cs_free(cs);
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_CHECK) == CZ_OK);
    CHECK_OK(cz_cs_push(cs, "open"));
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_EINVAL);
    cz_cs_free(cs);

    /* nothing after finish; take_witness only for a finished PROVE */
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_PROVE) == CZ_OK);
    cz_cs_witness_t w;
    CHECK_EQ_INT(cz_cs_take_witness(cs, &w), CZ_EINVAL);
    CHECK_OK(cz_cs_finish(cs));
    CHECK_EQ_INT(cz_cs_enforce(cs, &b, &b, &c, NULL), CZ_EINVAL);
    cz_cs_free(cs);

    CHECK_EQ_INT(cz_cs_new(&cs, ctx, (cz_cs_mode_t)9), CZ_EINVAL);
    CHECK(cs == NULL);
    cz_lc_free(&a);
    cz_ctx_free(ctx);
}

CZ_TEST(reserve_then_take_witness)
{
    struct rand_circ rc = { 5, 500, SIZE_MAX };
    /* shape first, then prove into arrays reserved from the shape */
    cz_cs_t *shape = run_mode(CZ_CS_SHAPE, &rc, CZ_OK);
    REQUIRE(shape);
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_PROVE) == CZ_OK);
    CHECK_OK(cz_cs_reserve(cs, cz_cs_num_constraints(shape), cz_cs_num_aux(shape),
                           cz_cs_num_inputs(shape)));
    const cz_fr *a0 = cz_cs_eval(cs, CZ_MATRIX_A), *aux0 = cz_cs_aux(cs);
    CHECK_OK(rand_circuit(cs, &rc));
    CHECK_OK(cz_cs_finish(cs));
    /* nothing was reallocated */
    CHECK(cz_cs_eval(cs, CZ_MATRIX_A) == a0);
    CHECK(cz_cs_aux(cs) == aux0);
    CHECK_EQ_INT(cz_cs_reserve(cs, 1, 1, 1), CZ_EINVAL);

    cz_cs_witness_t w;
    CHECK_OK(cz_cs_take_witness(cs, &w));
    CHECK(w.a == a0);
    CHECK_EQ_U64(w.num_rows, cz_cs_num_rows(shape));
    CHECK_EQ_U64(w.num_aux, cz_cs_num_aux(shape));
    size_t pop;
    cz_cs_density(shape, CZ_DENSITY_B_AUX, NULL, &pop);
    CHECK_EQ_U64(w.popcount[CZ_DENSITY_B_AUX], pop);
    CHECK(cz_cs_eval(cs, CZ_MATRIX_A) == NULL);
    cz_cs_witness_free(&w);
    CHECK_EQ_INT(cz_cs_take_witness(cs, &w), CZ_EINVAL); /* only once */
    cz_cs_witness_free(&w);
    cz_cs_free(cs);
    cz_cs_free(shape);
}

/* cz_cs_witness_copy: equal field by field, every array its own (ASan: both free cleanly). */
CZ_TEST(witness_copy_is_deep)
{
    struct rand_circ rc = { 5, 300, SIZE_MAX };
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_PROVE) == CZ_OK);
    CHECK_OK(rand_circuit(cs, &rc));
    CHECK_OK(cz_cs_finish(cs));
    cz_cs_witness_t w, c;
    REQUIRE(cz_cs_take_witness(cs, &w) == CZ_OK);
    cz_cs_free(cs);
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 2) == CZ_OK);
    CHECK_OK(cz_cs_witness_copy(ctx, &w, &c));
    CHECK_EQ_U64(c.num_inputs, w.num_inputs);
    CHECK_EQ_U64(c.num_aux, w.num_aux);
    CHECK_EQ_U64(c.num_rows, w.num_rows);
    const struct {
        const void *src, *dst;
        size_t bytes;
    } arr[] = {
        { w.input, c.input, w.num_inputs * sizeof(cz_fr) },
        { w.aux, c.aux, w.num_aux * sizeof(cz_fr) },
        { w.a, c.a, w.num_rows * sizeof(cz_fr) },
        { w.b, c.b, w.num_rows * sizeof(cz_fr) },
        { w.c, c.c, w.num_rows * sizeof(cz_fr) },
        { w.density[0], c.density[0], (w.density_bits[0] + 63) / 64 * 8 },
        { w.density[1], c.density[1], (w.density_bits[1] + 63) / 64 * 8 },
        { w.density[2], c.density[2], (w.density_bits[2] + 63) / 64 * 8 },
    };
    for (size_t i = 0; i < sizeof arr / sizeof arr[0]; i++) {
        REQUIRE(arr[i].src != NULL && arr[i].dst != NULL && arr[i].bytes > 0);
        CHECK(arr[i].src != arr[i].dst);
        CHECK(!memcmp(arr[i].src, arr[i].dst, arr[i].bytes));
    }
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_U64(c.density_bits[i], w.density_bits[i]);
        CHECK_EQ_U64(c.popcount[i], w.popcount[i]);
    }
    cz_cs_witness_free(&w); /* the copy outlives its original (ASan: no use after free) */
    CHECK(c.input != NULL && c.aux != NULL);
    /* an absent array (c omitted) stays absent */
    free(c.c);
    c.c = NULL;
    cz_cs_witness_t d;
    CHECK_OK(cz_cs_witness_copy(NULL, &c, &d));
    CHECK(d.c == NULL && d.a != NULL && d.a != c.a);
    CHECK(!memcmp(d.a, c.a, c.num_rows * sizeof(cz_fr)));
    cz_cs_witness_free(&c);
    cz_cs_witness_free(&d);
    cz_ctx_free(ctx);
}

/* ---- a million constraints: shape rate (and prove rate for comparison) ----------- */

/* n boolean-style rows: (ONE - x) * x = [x + 2 prev on odd rows]. */
static int bits_circuit(cz_cs_t *cs, size_t n)
{
    cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
    cz_var_t x, prev;
    cz_fr two = fr(2), zero = fr(0), one = fr(1);
    int rc = cz_cs_alloc(cs, &prev, &zero);
    for (size_t i = 0; i < n && !rc; i++) {
        rc = cz_cs_alloc(cs, &x, (i & 2) ? &one : &zero);
        cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
        cz_lc_add(&a, CZ_VAR_ONE);
        cz_lc_sub(&a, x);
        cz_lc_add(&b, x);
        if (i & 1) {
            cz_lc_add(&c, x);
            cz_lc_add_term(&c, &two, prev);
        }
        cz_cs_push(cs, "bit");
        cz_cs_enforce(cs, &a, &b, &c, "boolean");
        cz_cs_pop(cs);
        prev = x;
    }
    cz_lc_free(&a), cz_lc_free(&b), cz_lc_free(&c);
    return rc ? rc : cz_cs_finish(cs);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

CZ_TEST(shape_million_constraints)
{
    const size_t n = 1000000;
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_SHAPE) == CZ_OK);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_OK(bits_circuit(cs, n));
    double s = seconds_since(&t0);
    printf("  shape: %zu constraints in %.3f s (%.1f M constraints/s)\n", n, s,
           (double)n / s / 1e6);
    CHECK_EQ_U64(cz_cs_num_constraints(cs), n);
    CHECK_EQ_U64(cz_cs_num_rows(cs), n + 1);
    CHECK_EQ_U64(cz_cs_num_aux(cs), n + 1);
    size_t pa, pb, pi;
    cz_cs_density(cs, CZ_DENSITY_A_AUX, NULL, &pa);
    cz_cs_density(cs, CZ_DENSITY_B_AUX, NULL, &pb);
    cz_cs_density(cs, CZ_DENSITY_B_INPUT, NULL, &pi);
    CHECK_EQ_U64(pa, n); /* every x; not the first aux (only in C) */
    CHECK_EQ_U64(pb, n);
    CHECK_EQ_U64(pi, 0);

    /* PROVE over arrays reserved from the shape (half the size: memory) */
    const size_t np = n / 2;
    cz_cs_t *p;
    REQUIRE(cz_cs_new(&p, NULL, CZ_CS_PROVE) == CZ_OK);
    CHECK_OK(cz_cs_reserve(p, np, np + 1, 1));
    const cz_fr *a0 = cz_cs_eval(p, CZ_MATRIX_A);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_OK(bits_circuit(p, np));
    s = seconds_since(&t0);
    printf("  prove: %zu constraints in %.3f s (%.1f M constraints/s)\n", np, s,
           (double)np / s / 1e6);
    CHECK(cz_cs_eval(p, CZ_MATRIX_A) == a0);
    CHECK_EQ_U64(cz_cs_num_rows(p), np + 1);
    cz_cs_free(p);
    cz_cs_free(cs);
}

CZ_TEST_MAIN()
