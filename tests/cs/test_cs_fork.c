/*
 * tests/cs/test_cs_fork.c — forks read their parent's values in place
 * (cs/cs_fork.c): a fork sees the parent's values through cz_cs_value (and
 * has no one assignment array: cz_cs_aux is NULL), forks of one parent
 * extended in order give the sequential bytes in PROVE (with and without
 * c) and CHECK, a fork of a fork (which copies) extends back through its
 * parent to the same bytes, and a fork cannot give a witness; in-place
 * forks (cz_cs_fork_at) write into the parent's slots and give the same
 * bytes, and refuse to overflow, underfill or be extended out of order.
 */
#include "cs/cs.h"
#include "cz_test.h"

enum { PRE = 4, PART = 60 };

/*
 * One constraint of a part: w = a*b, A and B random combinations of the
 * prelude's variables and the part's own earlier aux (from |base| on), so
 * a part's bytes do not depend on where it runs (as a PoRep challenge).
 */
static int step(cz_cs_t *cs, cz_rng *rng, size_t base, bool unsat)
{
    cz_lc_t lc[3] = { { 0 }, { 0 }, { 0 } };
    cz_fr val[2];
    int rc = CZ_OK;
    size_t own = cz_cs_num_aux(cs) - base;
    for (int k = 0; k < 2 && rc == CZ_OK; k++) {
        val[k] = CZ_FR_ZERO;
        for (int t = 0; t < 3 && rc == CZ_OK; t++) {
            uint64_t r = cz_rng_next(rng);
            cz_var_t v = (r & 3) == 0           ? cz_var_input((uint32_t)((r >> 8) % PRE))
                         : (r & 3) == 1 || !own ? cz_var_aux((uint32_t)((r >> 8) % PRE))
                                                : cz_var_aux((uint32_t)(base + (r >> 8) % own));
            cz_fr coef, z = CZ_FR_ZERO;
            cz_fr_from_u64(&coef, 1 + (r >> 40) % 5);
            cz_lc_add_term(&lc[k], &coef, v);
            if (cz_cs_needs_values(cs))
                rc = cz_cs_value(cs, v, &z);
            cz_fr_mul(&z, &z, &coef);
            cz_fr_add(&val[k], &val[k], &z);
        }
    }
    cz_fr w;
    cz_var_t wv;
    cz_fr_mul(&w, &val[0], &val[1]);
    if (unsat)
        cz_fr_add(&w, &w, &CZ_FR_ONE);
    if (rc == CZ_OK)
        rc = cz_cs_alloc(cs, &wv, &w);
    if (rc == CZ_OK) {
        cz_lc_add(&lc[2], wv);
        rc = cz_cs_enforce(cs, &lc[0], &lc[1], &lc[2], "w");
    }
    for (int k = 0; k < 3; k++)
        cz_lc_free(&lc[k]);
    return rc;
}

/* Part |k| (rows k*PART ..) into |cs|; row |unsat_at| gets a wrong w. */
static void part(cz_cs_t *cs, unsigned k, size_t unsat_at)
{
    cz_rng rng;
    cz_rng_seed(&rng, 1000 + k);
    size_t base = cz_cs_num_aux(cs);
    cz_var_t in;
    cz_fr x;
    cz_fr_from_u64(&x, 7 + k);
    REQUIRE(cz_cs_alloc_input(cs, &in, &x) == CZ_OK); /* one input per part */
    for (size_t i = 0; i < PART; i++)
        REQUIRE(step(cs, &rng, base, k * PART + i == unsat_at) == CZ_OK);
}

/* Part 1 + k's slot past the parent's ends (PROVE in-place forks). */
static cz_cs_slot_t slot_of(unsigned k)
{
    return (cz_cs_slot_t){ k * 1, k * PART, k * PART, 1, PART, PART };
}

static void prelude(cz_cs_t *cs)
{
    for (uint64_t i = 1; i < PRE; i++) { /* input 0 is ONE */
        cz_var_t v;
        cz_fr x;
        cz_fr_from_u64(&x, 3 + i);
        REQUIRE(cz_cs_alloc_input(cs, &v, &x) == CZ_OK);
    }
    for (uint64_t i = 0; i < PRE; i++) {
        cz_var_t v;
        cz_fr x;
        cz_fr_from_u64(&x, 100 + i);
        REQUIRE(cz_cs_alloc(cs, &v, &x) == CZ_OK);
    }
}

/*
 * *out = prelude, part 0, then parts 1 and 2: in |cs| (|how| 0), in two
 * forks of one wave extended in order (1), part 1 in a fork and part 2 in
 * a fork of that fork (2), or in two in-place forks (3, PROVE). Not
 * finished.
 */
static void build(cz_cs_t **out, cz_cs_mode_t mode, bool omit_c, int how, size_t unsat_at)
{
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, NULL, mode) == CZ_OK);
    if (omit_c)
        REQUIRE(cz_cs_omit_c(cs) == CZ_OK);
    prelude(cs);
    part(cs, 0, unsat_at);
    if (how == 0) {
        part(cs, 1, unsat_at);
        part(cs, 2, unsat_at);
    } else if (how == 1) {
        cz_cs_t *f[2];
        for (int k = 0; k < 2; k++) { /* a wave: both synthesized, then extended */
            REQUIRE(cz_cs_fork(&f[k], cs, NULL) == CZ_OK);
            if (cz_cs_needs_values(cs)) {
                CHECK(cz_cs_aux(f[k]) == NULL); /* the parent's values, in place */
                cz_fr v, want;
                CHECK_OK(cz_cs_value(f[k], cz_var_aux(2), &v));
                cz_fr_from_u64(&want, 102);
                CHECK(cz_fr_eq(&v, &want));
            }
            part(f[k], 1 + (unsigned)k, unsat_at);
        }
        for (int k = 0; k < 2; k++) {
            CHECK_OK(cz_cs_extend(cs, f[k]));
            cz_cs_free(f[k]);
        }
    } else if (how == 3) {
        cz_cs_t *f[2];
        REQUIRE(cz_cs_room(cs, 2 * PART, 2 * PART, 2) == CZ_OK);
        for (int k = 1; k >= 0; k--) { /* the later slot first: order is free */
            cz_cs_slot_t at = slot_of((unsigned)k);
            REQUIRE(cz_cs_fork_at(&f[k], cs, &at, NULL) == CZ_OK);
            part(f[k], 1 + (unsigned)k, unsat_at);
        }
        for (int k = 0; k < 2; k++) {
            CHECK_OK(cz_cs_extend(cs, f[k]));
            cz_cs_free(f[k]);
        }
    } else {
        cz_cs_t *f, *g;
        REQUIRE(cz_cs_fork(&f, cs, NULL) == CZ_OK);
        part(f, 1, unsat_at);
        REQUIRE(cz_cs_fork(&g, f, NULL) == CZ_OK); /* copies f's values */
        if (cz_cs_needs_values(cs))
            CHECK(cz_cs_aux(g) != NULL);
        part(g, 2, unsat_at);
        CHECK_OK(cz_cs_extend(f, g));
        cz_cs_free(g);
        CHECK_OK(cz_cs_extend(cs, f));
        cz_cs_free(f);
    }
    *out = cs;
}

static void same_witness(cz_cs_t *x, cz_cs_t *y)
{
    cz_cs_witness_t a, b;
    REQUIRE(cz_cs_finish(x) == CZ_OK && cz_cs_finish(y) == CZ_OK);
    REQUIRE(cz_cs_take_witness(x, &a) == CZ_OK && cz_cs_take_witness(y, &b) == CZ_OK);
    REQUIRE(a.num_rows == b.num_rows && a.num_aux == b.num_aux);
    CHECK_MEM_EQ(a.aux, b.aux, a.num_aux * sizeof(cz_fr));
    CHECK_MEM_EQ(a.input, b.input, a.num_inputs * sizeof(cz_fr));
    CHECK_MEM_EQ(a.a, b.a, a.num_rows * sizeof(cz_fr));
    CHECK_MEM_EQ(a.b, b.b, a.num_rows * sizeof(cz_fr));
    CHECK((a.c == NULL) == (b.c == NULL));
    if (a.c && b.c)
        CHECK_MEM_EQ(a.c, b.c, a.num_rows * sizeof(cz_fr));
    for (int i = 0; i < 3; i++)
        CHECK_MEM_EQ(a.density[i], b.density[i], (a.density_bits[i] + 63) / 64 * 8);
    cz_cs_witness_free(&a);
    cz_cs_witness_free(&b);
}

CZ_TEST(forks_read_parent_values_in_place_and_extend_sequentially)
{
    for (int omit = 0; omit < 2; omit++) {
        for (int how = 1; how <= 3; how++) {
            cz_cs_t *seq, *par;
            build(&seq, CZ_CS_PROVE, omit, 0, SIZE_MAX);
            build(&par, CZ_CS_PROVE, omit, how, SIZE_MAX);
            same_witness(seq, par);
            cz_cs_free(seq);
            cz_cs_free(par);
        }
    }
}

CZ_TEST(forks_in_check_mode_name_the_first_unsatisfied)
{
    for (int how = 0; how <= 2; how++) {
        cz_cs_t *cs;
        build(&cs, CZ_CS_CHECK, false, how, 120);
        CHECK_EQ_INT(cz_cs_finish(cs), CZ_EUNSAT);
        size_t idx;
        CHECK(cz_cs_unsatisfied(cs, &idx, NULL));
        CHECK_EQ_U64(idx, 120);
        cz_cs_free(cs);
    }
}

/* A parent with the prelude and part 0, room for parts 1 and 2. */
static void inplace_parent(cz_cs_t **out)
{
    cz_cs_t *cs;
    *out = NULL;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_PROVE) == CZ_OK);
    *out = cs;
    prelude(cs);
    part(cs, 0, SIZE_MAX);
    REQUIRE(cz_cs_room(cs, 2 * PART, 2 * PART, 2) == CZ_OK);
}

CZ_TEST(inplace_forks_refuse_misuse)
{
    /* No room past the reserved arrays; not PROVE; a fork as parent. */
    cz_cs_t *cs, *f, *g;
    inplace_parent(&cs);
    REQUIRE(cs != NULL);
    cz_cs_slot_t big = { 0, 0, 0, 1, 100 * PART, PART };
    CHECK_EQ_INT(cz_cs_fork_at(&f, cs, &big, NULL), CZ_EINVAL);
    CHECK(f == NULL);
    cz_cs_slot_t at = slot_of(0);
    REQUIRE(cz_cs_fork_at(&f, cs, &at, NULL) == CZ_OK);
    CHECK_EQ_INT(cz_cs_fork_at(&g, f, &at, NULL), CZ_EINVAL);
    CHECK_EQ_INT(cz_cs_fork(&g, f, NULL), CZ_EINVAL);
    cz_cs_free(f);
    cz_cs_t *shape;
    REQUIRE(cz_cs_new(&shape, NULL, CZ_CS_SHAPE) == CZ_OK);
    CHECK_EQ_INT(cz_cs_fork_at(&f, shape, &at, NULL), CZ_EINVAL);
    cz_cs_free(shape);
    cz_cs_free(cs);

    /* Extended out of order: slot 1 before slot 0. */
    inplace_parent(&cs);
    REQUIRE(cs != NULL);
    cz_cs_slot_t at1 = slot_of(1);
    REQUIRE(cz_cs_fork_at(&f, cs, &at1, NULL) == CZ_OK);
    part(f, 2, SIZE_MAX);
    CHECK_EQ_INT(cz_cs_extend(cs, f), CZ_EINVAL);
    cz_cs_free(f);
    cz_cs_free(cs);

    /* Underfilled: a slot of PART rows given PART - 1. */
    inplace_parent(&cs);
    REQUIRE(cs != NULL);
    REQUIRE(cz_cs_fork_at(&f, cs, &at, NULL) == CZ_OK);
    cz_var_t in;
    REQUIRE(cz_cs_alloc_input(f, &in, &CZ_FR_ONE) == CZ_OK);
    CHECK_EQ_INT(cz_cs_extend(cs, f), CZ_EINVAL);
    cz_cs_free(f);
    cz_cs_free(cs);

    /* Overfilled: one part into a slot of half a part. */
    inplace_parent(&cs);
    REQUIRE(cs != NULL);
    cz_cs_slot_t half = { 0, 0, 0, 1, PART / 2, PART / 2 };
    REQUIRE(cz_cs_fork_at(&f, cs, &half, NULL) == CZ_OK);
    cz_rng rng;
    cz_rng_seed(&rng, 5);
    REQUIRE(cz_cs_alloc_input(f, &in, &CZ_FR_ONE) == CZ_OK);
    int rc = CZ_OK;
    for (size_t i = 0; i < PART && rc == CZ_OK; i++)
        rc = step(f, &rng, cz_cs_num_aux(f), false);
    CHECK_EQ_INT(rc, CZ_EINTERNAL);
    CHECK_EQ_INT(cz_cs_extend(cs, f), CZ_EINTERNAL);
    cz_cs_free(f);
    cz_cs_free(cs);
}

CZ_TEST(a_fork_gives_no_witness)
{
    cz_cs_t *cs, *f;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_PROVE) == CZ_OK);
    prelude(cs);
    REQUIRE(cz_cs_fork(&f, cs, NULL) == CZ_OK);
    CHECK(cz_cs_inputs(f) == NULL);
    CHECK_OK(cz_cs_finish(f)); /* misuse, but must not read freed memory */
    cz_cs_witness_t w;
    CHECK_EQ_INT(cz_cs_take_witness(f, &w), CZ_EINVAL);
    cz_cs_free(f);
    cz_cs_free(cs);
}

CZ_TEST_MAIN()
