/*
 * tests/gadgets/test_num.c — AllocatedNum (BPC gadgets/num.rs) and RFP's
 * constraint.rs helpers: values, FACTS 4 layouts (inputize = 1 input + 1
 * constraint, to_bits_le = 255 bits + 1 constraint), satisfaction and
 * corrupted witnesses failing by name.
 */
#include "gadget_check.h"

#include "gadgets/num.h"

typedef struct {
    cz_fr x, y;
    bool strict;
    cz_bool_t bits[255];
    cz_num_t sum, diff, prod, sq, c, d;
} num_arg;

static int bits_circuit(cz_cs_t *cs, void *p)
{
    num_arg *a = p;
    cz_num_t x;
    int rc = cz_num_alloc(cs, &x, &a->x);
    if (rc)
        return rc;
    return a->strict ? cz_num_to_bits_le_strict(cs, a->bits, &x)
                     : cz_num_to_bits_le(cs, a->bits, &x);
}

static void check_bits(num_arg *a)
{
    uint8_t repr[32];
    cz_fr_to_repr(repr, &a->x);
    for (unsigned i = 0; i < 255; i++)
        if (a->bits[i].value != ((repr[i / 8] >> (i % 8)) & 1)) {
            CZ__FAIL("bit %u", i);
            return;
        }
}

CZ_TEST(num_to_bits_le)
{
    cz_rng rng;
    cz_rng_seed(&rng, 3);
    for (int k = 0; k < 4; k++) {
        num_arg a = { 0 };
        if (k == 0)
            cz_fr_neg(&a.x, &CZ_FR_ONE); /* r - 1, the largest value */
        else
            cz_fr_random_rng(&a.x, &rng);
        gc_counts_t c = gc_counts(CZ_CS_CHECK, bits_circuit, &a);
        CHECK_EQ_INT(c.rc, CZ_OK);
        check_bits(&a);
        c = gc_satisfied(bits_circuit, &a);
        CHECK_EQ_U64(c.constraints, 256); /* FACTS 4 */
        CHECK_EQ_U64(c.aux, 256);
    }
    num_arg a = { 0 };
    cz_fr_from_u64(&a.x, 0xffff);
    char name[128];
    gc_corrupt(bits_circuit, &a, 1, name, sizeof name); /* bit 0 = 1 -> 2 */
    CHECK_EQ_STR(name, "bit 0/boolean constraint");
    gc_corrupt(bits_circuit, &a, 200, name, sizeof name); /* bit 199 = 0 -> 1 */
    CHECK_EQ_STR(name, "unpacking constraint");
}

CZ_TEST(num_to_bits_le_strict)
{
    cz_rng rng;
    cz_rng_seed(&rng, 4);
    for (int k = 0; k < 4; k++) {
        num_arg a = { 0 };
        a.strict = true;
        if (k == 0)
            cz_fr_neg(&a.x, &CZ_FR_ONE);
        else if (k == 1)
            a.x = CZ_FR_ZERO;
        else
            cz_fr_random_rng(&a.x, &rng);
        gc_counts_t c = gc_counts(CZ_CS_CHECK, bits_circuit, &a);
        CHECK_EQ_INT(c.rc, CZ_OK);
        check_bits(&a);
        gc_counts_t s = gc_satisfied(bits_circuit, &a);
        /* 255 bits, the k-ary ANDs of the runs of r - 1, the unpacking. */
        CHECK(s.constraints > 256 && s.constraints == s.aux);
    }
    num_arg a = { 0 };
    a.strict = true;
    cz_fr_from_u64(&a.x, 5);
    gc_counts_t c = gc_counts(CZ_CS_CHECK, bits_circuit, &a);
    gc_corrupt_many(bits_circuit, &a, c.aux, 40);
}

static int arith_circuit(cz_cs_t *cs, void *p)
{
    num_arg *a = p;
    cz_num_t x, y;
    cz_bool_t cond;
    int rc;
    if ((rc = cz_num_alloc(cs, &x, &a->x)) || (rc = cz_num_alloc(cs, &y, &a->y)) ||
        (rc = cz_num_add(cs, &a->sum, &x, &y)) || (rc = cz_num_sub(cs, &a->diff, &x, &y)) ||
        (rc = cz_num_mul(cs, &a->prod, &x, &y)) || (rc = cz_num_square(cs, &a->sq, &x)) ||
        (rc = cz_num_assert_nonzero(cs, &y)) || (rc = cz_bit_alloc(cs, &cond, a->strict)) ||
        (rc = cz_num_conditionally_reverse(cs, &a->c, &a->d, &x, &y, cond)) ||
        (rc = cz_num_inputize(cs, &a->sum)))
        return rc;
    cz_num_t again;
    if ((rc = cz_num_alloc(cs, &again, &a->x)))
        return rc;
    return cz_num_equal(cs, &x, &again, "x == x");
}

CZ_TEST(num_arithmetic)
{
    cz_rng rng;
    cz_rng_seed(&rng, 5);
    for (int swap = 0; swap < 2; swap++) {
        num_arg a = { 0 };
        cz_fr_random_rng(&a.x, &rng);
        cz_fr_random_rng(&a.y, &rng);
        a.strict = swap; /* the reversal condition */
        gc_counts_t c = gc_counts(CZ_CS_CHECK, arith_circuit, &a);
        CHECK_EQ_INT(c.rc, CZ_OK);
        cz_fr t;
        cz_fr_add(&t, &a.x, &a.y);
        CHECK(cz_fr_eq(&a.sum.value, &t));
        cz_fr_sub(&t, &a.x, &a.y);
        CHECK(cz_fr_eq(&a.diff.value, &t));
        cz_fr_mul(&t, &a.x, &a.y);
        CHECK(cz_fr_eq(&a.prod.value, &t));
        cz_fr_sqr(&t, &a.x);
        CHECK(cz_fr_eq(&a.sq.value, &t));
        CHECK(cz_fr_eq(&a.c.value, swap ? &a.y : &a.x));
        CHECK(cz_fr_eq(&a.d.value, swap ? &a.x : &a.y));
        c = gc_satisfied(arith_circuit, &a);
        /* add, sub, mul, square, nonzero, bit, 2 reversal, inputize, equal */
        CHECK_EQ_U64(c.constraints, 10);
        CHECK_EQ_U64(c.inputs, 2);
        gc_corrupt_many(arith_circuit, &a, c.aux, c.aux);
    }
    /* assert_nonzero of zero: bellpepper's DivisionByZero. */
    num_arg z = { 0 };
    CHECK_EQ_INT(gc_counts(CZ_CS_CHECK, arith_circuit, &z).rc, CZ_EINVAL);
}

CZ_TEST_MAIN()
