/*
 * tests/gadgets/test_multipack.c — bellpepper's multipack (multipack.rs):
 * pack_into_inputs gives exactly the inputs compute_multipacking computes
 * (bellpepper test_multipacking), one input and one constraint per 254 bits;
 * pack_bits packs the first 254 bits into one aux.
 */
#include "gadget_check.h"

#include <stdlib.h>

#include "gadgets/multipack.h"

typedef struct {
    bool *bits;
    size_t n;
    bool into_inputs;
    cz_fr packed;
} mp_arg;

static int mp_circuit(cz_cs_t *cs, void *p)
{
    mp_arg *a = p;
    cz_bool_t *b = malloc((a->n + 1) * sizeof *b);
    int rc = CZ_OK;
    for (size_t i = 0; i < a->n && rc == CZ_OK; i++) {
        if (i % 5 == 3) { /* some constants and negations in the mix */
            b[i] = cz_bool_const(a->bits[i]);
        } else if ((rc = cz_bit_alloc(cs, &b[i], a->bits[i] ^ (i % 7 == 1))) == CZ_OK &&
                   i % 7 == 1) {
            b[i] = cz_bool_not(b[i]);
        }
    }
    if (rc == CZ_OK) {
        if (a->into_inputs) {
            rc = cz_pack_into_inputs(cs, b, a->n);
        } else {
            cz_num_t num;
            rc = cz_pack_bits(cs, &num, b, a->n);
            if (rc == CZ_OK && cz_cs_needs_values(cs))
                a->packed = num.value;
        }
    }
    free(b);
    return rc;
}

CZ_TEST(multipack_inputs_match_compute)
{
    cz_rng rng;
    cz_rng_seed(&rng, 21);
    bool bits[800];
    cz_fr expect[4];
    for (size_t n = 0; n <= 800; n += (n < 20 ? 1 : 37)) {
        for (size_t i = 0; i < n; i++)
            bits[i] = cz_rng_next(&rng) & 1;
        mp_arg a = { bits, n, true, { { 0 } } };
        cz_cs_t *cs = NULL;
        REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_CHECK) == CZ_OK);
        CHECK_OK(mp_circuit(cs, &a));
        size_t k = cz_multipack_count(n);
        CHECK_EQ_U64(cz_cs_num_inputs(cs), 1 + k);
        cz_compute_multipacking(expect, bits, n);
        for (size_t i = 0; i < k; i++)
            CHECK(cz_fr_eq(&cz_cs_inputs(cs)[1 + i], &expect[i]));
        CHECK_OK(cz_cs_finish(cs));
        cz_cs_free(cs);
    }
    bool few[300];
    for (size_t i = 0; i < 300; i++)
        few[i] = cz_rng_next(&rng) & 1;
    mp_arg a = { few, 300, true, { { 0 } } };
    gc_counts_t c = gc_satisfied(mp_circuit, &a);
    CHECK_EQ_U64(c.inputs, 3);
    gc_corrupt_many(mp_circuit, &a, c.aux, 30);
}

CZ_TEST(multipack_pack_bits)
{
    cz_rng rng;
    cz_rng_seed(&rng, 22);
    bool bits[300];
    for (size_t i = 0; i < 300; i++)
        bits[i] = cz_rng_next(&rng) & 1;
    mp_arg a = { bits, 300, false, { { 0 } } };
    gc_counts_t c = gc_satisfied(mp_circuit, &a);
    cz_fr expect[2];
    cz_compute_multipacking(expect, bits, 300);
    CHECK(cz_fr_eq(&a.packed, &expect[0])); /* only the first 254 bits */
    CHECK_EQ_U64(c.inputs, 1);
    char name[128];
    gc_corrupt(mp_circuit, &a, c.aux - 1, name, sizeof name);
    CHECK_EQ_STR(name, "packing constraint");

    /* bytes_to_bits (MSB first) and bytes_to_bits_le. */
    uint8_t byte = 0x96;
    bool be[8], le[8];
    cz_bytes_to_bits(be, &byte, 1);
    cz_bytes_to_bits_le(le, &byte, 1);
    for (unsigned i = 0; i < 8; i++) {
        CHECK_EQ_INT(be[i], (byte >> (7 - i)) & 1);
        CHECK_EQ_INT(le[i], (byte >> i) & 1);
    }
}

CZ_TEST_MAIN()
