/*
 * tests/gadgets/test_uint32.c — bellpepper's UInt32 and MultiEq (uint32.rs,
 * multieq.rs) and RFP's UInt64: values against native arithmetic, constant
 * folding (addmany of constants costs nothing), the MultiEq batching
 * (one constraint per 254 bits), and corrupted witnesses.
 */
#include "gadget_check.h"

#include "gadgets/uint32.h"
#include "gadgets/uint64.h"

typedef struct {
    uint32_t v[10];
    unsigned n;
    uint32_t const_mask; /* operand i constant when bit i set */
    uint32_t sum, x, rot, sh;
} u32_arg;

static int u32_circuit(cz_cs_t *cs, void *p)
{
    u32_arg *a = p;
    cz_u32_t ops[10], r, t;
    int rc = CZ_OK;
    for (unsigned i = 0; i < a->n && rc == CZ_OK; i++) {
        if (a->const_mask >> i & 1) {
            cz_u32_const(&ops[i], a->v[i]);
            continue;
        }
        if ((rc = cz_cs_pushf(cs, "op %u", i)) || (rc = cz_u32_alloc(cs, &ops[i], a->v[i])))
            return rc;
        rc = cz_cs_pop(cs);
    }
    cz_multieq_t me;
    cz_multieq_init(&me, cs);
    if (rc == CZ_OK)
        rc = cz_u32_addmany(cs, &me, &r, ops, a->n);
    int rc2 = cz_multieq_finish(&me);
    if (rc || rc2)
        return rc ? rc : rc2;
    if ((rc = cz_u32_xor(cs, &t, &ops[0], &ops[1])))
        return rc;
    cz_u32_t rot, sh;
    cz_u32_rotr(&rot, &ops[0], 7);
    cz_u32_shr(&sh, &ops[0], 3);
    if (cz_cs_needs_values(cs)) {
        /* The words' values and their bits agree. */
        cz_u32_t chk;
        cz_bool_t be[32];
        cz_u32_to_bits_be(be, &r);
        cz_u32_from_bits_be(&chk, be);
        CHECK_EQ_U64(chk.value, r.value);
        a->sum = r.value;
        a->x = t.value;
        cz_u32_from_bits_le(&chk, rot.bits);
        a->rot = chk.value;
        cz_u32_from_bits_le(&chk, sh.bits);
        a->sh = chk.value;
    }
    return CZ_OK;
}

CZ_TEST(uint32_ops_values)
{
    cz_rng rng;
    cz_rng_seed(&rng, 11);
    for (unsigned n = 2; n <= 10; n++) {
        for (uint32_t mask = 0; mask < 4; mask++) {
            u32_arg a = { { 0 }, n, mask, 0, 0, 0, 0 };
            uint32_t sum = 0;
            for (unsigned i = 0; i < n; i++)
                sum += a.v[i] = (uint32_t)cz_rng_next(&rng);
            gc_counts_t c = gc_satisfied(u32_circuit, &a);
            CHECK_EQ_U64(a.sum, sum);
            CHECK_EQ_U64(a.x, a.v[0] ^ a.v[1]);
            CHECK_EQ_U64(a.rot, (a.v[0] >> 7) | (a.v[0] << 25));
            CHECK_EQ_U64(a.sh, a.v[0] >> 3);
            /* addmany: bitlen(n (2^32 - 1)) result bits + 1 MultiEq row. */
            unsigned rbits = 64 - (unsigned)__builtin_clzll((uint64_t)n * UINT32_MAX);
            size_t alloc_ops = 0;
            for (unsigned i = 0; i < n; i++)
                alloc_ops += !(mask >> i & 1);
            size_t xor_cost = (mask & 3) ? 0 : 32; /* xor with a constant folds */
            CHECK_EQ_U64(c.constraints, alloc_ops ? 32 * alloc_ops + rbits + 1 + xor_cost : 0);
        }
    }
    /* All constants: a constant, no constraint at all. */
    u32_arg a = { { 0xffffffffu, 5, 7 }, 3, 7, 0, 0, 0, 0 };
    gc_counts_t c = gc_satisfied(u32_circuit, &a);
    CHECK_EQ_U64(c.constraints, 0);
    CHECK_EQ_U64(a.sum, 0xffffffffu + 5 + 7);
}

CZ_TEST(uint32_corrupt)
{
    u32_arg a = { { 0x12345678, 0x9abcdef0, 0xdeadbeef }, 3, 0, 0, 0, 0, 0 };
    gc_counts_t c = gc_counts(CZ_CS_CHECK, u32_circuit, &a);
    CHECK_EQ_INT(c.rc, CZ_OK);
    gc_corrupt_many(u32_circuit, &a, c.aux, c.aux);
}

/* MultiEq: 7 equalities of 34 bits: 254 <= 7 * 34 + 34 flushes once after
 * 7, so 8 additions make two rows (bellpepper's capacity rule). */
typedef struct {
    unsigned adds;
} me_arg;

static int me_circuit(cz_cs_t *cs, void *p)
{
    me_arg *a = p;
    cz_multieq_t me;
    cz_multieq_init(&me, cs);
    int rc = CZ_OK;
    for (unsigned k = 0; k < a->adds && rc == CZ_OK; k++) {
        cz_u32_t ops[3], r;
        for (unsigned i = 0; i < 3 && rc == CZ_OK; i++)
            rc = cz_u32_alloc(cs, &ops[i], 0x9e3779b9u * (k + i + 1));
        if (rc == CZ_OK)
            rc = cz_u32_addmany(cs, &me, &r, ops, 3);
    }
    int rc2 = cz_multieq_finish(&me);
    return rc ? rc : rc2;
}

CZ_TEST(multieq_batching)
{
    for (unsigned adds = 1; adds <= 16; adds++) {
        me_arg a = { adds };
        gc_counts_t c = gc_satisfied(me_circuit, &a);
        size_t rows = (adds + 6) / 7; /* 7 x 34 = 238 < 254 <= 8 x 34 */
        CHECK_EQ_U64(c.constraints, adds * (96 + 34) + rows);
    }
    me_arg a = { 9 };
    gc_counts_t c = gc_counts(CZ_CS_CHECK, me_circuit, &a);
    char name[128];
    gc_corrupt(me_circuit, &a, c.aux - 1, name, sizeof name);
    CHECK_EQ_STR(name, "multieq 1");
    gc_corrupt(me_circuit, &a, 130 * 2 + 100, name, sizeof name);
    CHECK_EQ_STR(name, "multieq 0");
}

typedef struct {
    uint64_t v;
    uint64_t out;
} u64_arg;

static int u64_circuit(cz_cs_t *cs, void *p)
{
    u64_arg *a = p;
    cz_u64_t w, c, x;
    cz_bool_t be[64];
    int rc = cz_u64_alloc(cs, &w, a->v);
    if (rc || (rc = cz_u64_pack_into_input(cs, &w)))
        return rc;
    cz_u64_to_bits_be(be, &w);
    cz_u64_from_bits_be(&x, be);
    cz_u64_const(&c, a->v);
    cz_u64_from_bits_le(&c, c.bits);
    if (cz_cs_needs_values(cs))
        a->out = x.value == c.value ? x.value : ~x.value;
    return CZ_OK;
}

CZ_TEST(uint64_alloc_pack)
{
    u64_arg a = { 0xfedcba9876543210ull, 0 };
    gc_counts_t c = gc_satisfied(u64_circuit, &a);
    CHECK_EQ_U64(c.constraints, 65);
    CHECK_EQ_U64(c.inputs, 2);
    CHECK_EQ_U64(a.out, a.v);
    char name[128];
    gc_corrupt(u64_circuit, &a, 4, name, sizeof name); /* bit 4 = 1 */
    CHECK_EQ_STR(name, "allocated bit 4/boolean constraint");
    gc_corrupt(u64_circuit, &a, 0, name, sizeof name); /* bit 0 = 0 -> 1 */
    CHECK_EQ_STR(name, "packing constraint 0");
}

CZ_TEST_MAIN()
