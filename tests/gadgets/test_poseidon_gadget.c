/*
 * tests/gadgets/test_poseidon_gadget.c — neptune's legacy Poseidon circuit:
 * FACTS 5 test vectors in circuit, agreement with the native optimized hash
 * on random preimages, and the constraint counts of FACTS 3 / neptune's
 * circuit.rs tests (arity 2 = 311, arity 8 = 505, arity 11 = 598); direct
 * emission (its density template) equals the general path for every
 * arity, and for preimages with inputs, ONE or a repeated variable.
 */
#include "gadget_check.h"

#include "hash/poseidon.h"
#include "gadgets/poseidon_gadget.h"

typedef struct {
    const cz_poseidon_constants *c;
    cz_fr in[CZ_POSEIDON_MAX_ARITY];
    cz_fr out;
} pos_arg;

static int pos_circuit(cz_cs_t *cs, void *p)
{
    pos_arg *a = p;
    cz_num_t pre[CZ_POSEIDON_MAX_ARITY], out;
    for (unsigned i = 0; i < a->c->arity; i++) {
        int rc = cz_cs_pushf(cs, "data %u", i);
        if (rc || (rc = cz_num_alloc(cs, &pre[i], &a->in[i])) || (rc = cz_cs_pop(cs)))
            return rc;
    }
    int rc = cz_poseidon_gadget(cs, &out, a->c, pre);
    if (rc == CZ_OK && cz_cs_needs_values(cs))
        a->out = out.value;
    return rc;
}

static void check_vector(unsigned arity, const char *expect, size_t constraints)
{
    pos_arg a = { cz_poseidon_constants_get(arity), { { { 0 } } }, { { 0 } } };
    REQUIRE(a.c);
    for (unsigned i = 0; i < arity; i++)
        cz_fr_from_u64(&a.in[i], i);
    gc_counts_t c = gc_satisfied(pos_circuit, &a);
    CHECK_EQ_U64(c.constraints, constraints);
    CHECK_EQ_U64(cz_poseidon_gadget_constraints(a.c), constraints);
    CHECK_EQ_U64(c.aux, arity + constraints); /* the preimage, one aux per constraint */
    char hex[67];
    cz_fr_to_hex(hex, &a.out);
    CHECK_EQ_STR(hex, expect);
}

/* FACTS 5 vectors (preimage 0, 1, .., arity-1) and FACTS 3 counts. */
CZ_TEST(poseidon_gadget_vectors_and_counts)
{
    check_vector(2, "0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff", 311);
    check_vector(8, "0x2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6", 505);
    check_vector(11, "0x0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163", 598);
}

CZ_TEST(poseidon_gadget_random_matches_native)
{
    cz_rng rng;
    cz_rng_seed(&rng, 7);
    const unsigned arities[] = { 2, 4, 8, 11 };
    for (unsigned k = 0; k < 4; k++) {
        for (unsigned rep = 0; rep < 3; rep++) {
            pos_arg a = { cz_poseidon_constants_get(arities[k]), { { { 0 } } }, { { 0 } } };
            REQUIRE(a.c);
            for (unsigned i = 0; i < a.c->arity; i++)
                cz_fr_random_rng(&a.in[i], &rng);
            gc_counts_t c = gc_counts(CZ_CS_CHECK, pos_circuit, &a);
            CHECK_EQ_INT(c.rc, CZ_OK);
            CHECK_EQ_U64(c.constraints, cz_poseidon_gadget_constraints(a.c));
            cz_fr expect;
            cz_poseidon_hash(a.c, &expect, a.in);
            CHECK(cz_fr_eq(&a.out, &expect));
        }
    }
}

/* Preimage slot i: an aux (0), an input (1), ONE (2) or slot 0's variable (3). */
typedef struct {
    const cz_poseidon_constants *c;
    unsigned kind[CZ_POSEIDON_MAX_ARITY];
} mixed_arg;

static int mixed_circuit(cz_cs_t *cs, void *p)
{
    mixed_arg *a = p;
    cz_num_t pre[CZ_POSEIDON_MAX_ARITY], out;
    for (unsigned i = 0; i < a->c->arity; i++) {
        cz_fr v;
        cz_fr_from_u64(&v, 5 + i);
        int rc = CZ_OK;
        switch (a->kind[i]) {
        case 0: rc = cz_num_alloc(cs, &pre[i], &v); break;
        case 1: rc = cz_num_alloc_input(cs, &pre[i], &v); break;
        case 2:
            pre[i].var = CZ_VAR_ONE;
            pre[i].value = CZ_FR_ONE;
            break;
        default: pre[i] = pre[0]; break;
        }
        if (rc)
            return rc;
    }
    return cz_poseidon_gadget(cs, &out, a->c, pre);
}

CZ_TEST(poseidon_gadget_direct_with_inputs_one_and_repeats)
{
    const unsigned arities[] = { 2, 4, 8, 11 };
    for (unsigned k = 0; k < 4; k++) {
        for (unsigned m = 0; m < 4; m++) {
            mixed_arg a = { cz_poseidon_constants_get(arities[k]), { 0 } };
            REQUIRE(a.c);
            for (unsigned i = 1; i < a.c->arity; i++)
                a.kind[i] = i == 1 ? m : (i % 2 ? 1 : 0);
            gc_satisfied(mixed_circuit, &a);
        }
    }
}

CZ_TEST(poseidon_gadget_corrupt)
{
    pos_arg a = { cz_poseidon_constants_get(2), { { { 0 } } }, { { 0 } } };
    REQUIRE(a.c);
    cz_fr_from_u64(&a.in[0], 17);
    cz_fr_from_u64(&a.in[1], 42);
    gc_counts_t c = gc_counts(CZ_CS_CHECK, pos_circuit, &a);
    CHECK_EQ_INT(c.rc, CZ_OK);
    /* Every aux but the preimage feeds a constraint of its own. */
    gc_corrupt_many(pos_circuit, &a, c.aux, c.aux);
    char name[256];
    gc_corrupt(pos_circuit, &a, c.aux - 1, name, sizeof name);
    CHECK(strstr(name, "hash result") != NULL);
}

CZ_TEST_MAIN()
