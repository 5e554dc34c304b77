/*
 * tests/gadgets/test_insertion.c — RFP insertion.rs: pick, insert (sizes 2,
 * 4, 8 hand-written, 16 general) and select for every index, with RFP's
 * constraint counts (insert_2 = 2, insert_4 = 8, insert_8 = 22, general
 * size * (size - 1), select size - 1), and corrupted witnesses.
 */
#include "gadget_check.h"

#include "gadgets/insertion.h"

typedef struct {
    unsigned log_size, index;
    bool select;
    cz_fr elems[16], x;
    cz_fr out[16];
} ins_arg;

static int ins_circuit(cz_cs_t *cs, void *p)
{
    ins_arg *a = p;
    unsigned size = 1u << a->log_size;
    cz_num_t e[16], x, out[16];
    cz_bool_t bits[4];
    int rc = CZ_OK;
    unsigned ne = a->select ? size : size - 1;
    for (unsigned i = 0; i < ne && rc == CZ_OK; i++)
        rc = cz_num_alloc(cs, &e[i], &a->elems[i]);
    if (rc == CZ_OK && !a->select)
        rc = cz_num_alloc(cs, &x, &a->x);
    for (unsigned i = 0; i < a->log_size && rc == CZ_OK; i++)
        rc = cz_bit_alloc(cs, &bits[i], (a->index >> i) & 1);
    if (rc)
        return rc;
    if (a->select)
        rc = cz_select(cs, out, e, bits, a->log_size);
    else
        rc = cz_insert(cs, out, &x, bits, a->log_size, e);
    if (rc == CZ_OK && cz_cs_needs_values(cs))
        for (unsigned i = 0; i < (a->select ? 1 : size); i++)
            a->out[i] = out[i].value;
    return rc;
}

CZ_TEST(insertion_all_indices)
{
    const size_t expect[5] = { 0, 2, 8, 22, 240 };
    for (unsigned log = 1; log <= 4; log++) {
        unsigned size = 1u << log;
        for (unsigned idx = 0; idx < size; idx++) {
            ins_arg a = { log, idx, false, { { { 0 } } }, { { 0 } }, { { { 0 } } } };
            for (unsigned i = 0; i < 16; i++)
                cz_fr_from_u64(&a.elems[i], 100 + i);
            cz_fr_from_u64(&a.x, 7);
            gc_counts_t c = gc_counts(CZ_CS_CHECK, ins_circuit, &a);
            CHECK_EQ_INT(c.rc, CZ_OK);
            for (unsigned pos = 0; pos < size; pos++) {
                const cz_fr *want = pos < idx    ? &a.elems[pos]
                                    : pos == idx ? &a.x
                                                 : &a.elems[pos - 1];
                CHECK(cz_fr_eq(&a.out[pos], want));
            }
            c = gc_satisfied(ins_circuit, &a);
            CHECK_EQ_U64(c.constraints - log, expect[log]);
            if (idx == size - 1 || idx == 1)
                gc_corrupt_many(ins_circuit, &a, c.aux, 48);
        }
    }
}

CZ_TEST(insertion_select)
{
    for (unsigned log = 1; log <= 4; log++) {
        unsigned size = 1u << log;
        for (unsigned idx = 0; idx < size; idx++) {
            ins_arg a = { log, idx, true, { { { 0 } } }, { { 0 } }, { { { 0 } } } };
            for (unsigned i = 0; i < 16; i++)
                cz_fr_from_u64(&a.elems[i], 1000 + 3 * i);
            gc_counts_t c = gc_satisfied(ins_circuit, &a);
            CHECK(cz_fr_eq(&a.out[0], &a.elems[idx]));
            CHECK_EQ_U64(c.constraints - log, size - 1);
        }
    }
    ins_arg a = { 2, 2, true, { { { 0 } } }, { { 0 } }, { { { 0 } } } };
    for (unsigned i = 0; i < 4; i++)
        cz_fr_from_u64(&a.elems[i], 9 + i);
    char name[128];
    gc_corrupt(ins_circuit, &a, 6 + 0, name, sizeof name); /* first pick result */
    CHECK_EQ_STR(name, "pick 0, 0/pick");
}

CZ_TEST_MAIN()
