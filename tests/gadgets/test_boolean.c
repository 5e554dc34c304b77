/*
 * tests/gadgets/test_boolean.c — bellpepper's Boolean (BPC gadgets/boolean.rs)
 * over every combination of Constant / Is / Not operands: values, the
 * folding (how many constraints each combination costs), satisfaction, and
 * corrupted results failing by name.
 */
#include "gadget_check.h"

#include "gadgets/boolean.h"

/* Operand form k in 0..5: const 0, const 1, Is 0, Is 1, Not (bit 1) = 0,
 * Not (bit 0) = 1. */
static int make(cz_cs_t *cs, cz_bool_t *b, unsigned k)
{
    if (k < 2) {
        *b = cz_bool_const(k);
        return CZ_OK;
    }
    bool bit = k == 3 || k == 4;
    int rc = cz_bit_alloc(cs, b, bit);
    if (rc == CZ_OK && k >= 4)
        *b = cz_bool_not(*b);
    return rc;
}
static bool value_of(unsigned k)
{
    return k == 1 || k == 3 || k == 5;
}
static bool is_const(unsigned k)
{
    return k < 2;
}

enum { OP_XOR, OP_AND, OP_OR, OP_CH, OP_MAJ, OP_EQ };

typedef struct {
    int op;
    unsigned k[3];
    bool out;
} bool_arg;

static int bool_circuit(cz_cs_t *cs, void *p)
{
    bool_arg *a = p;
    cz_bool_t x[3], r = cz_bool_const(false);
    int rc = CZ_OK;
    unsigned n = a->op == OP_CH || a->op == OP_MAJ ? 3 : 2;
    for (unsigned i = 0; i < n && rc == CZ_OK; i++) {
        rc = cz_cs_pushf(cs, "x%u", i);
        if (rc == CZ_OK && (rc = make(cs, &x[i], a->k[i])) == CZ_OK)
            rc = cz_cs_pop(cs);
    }
    if (rc)
        return rc;
    switch (a->op) {
    case OP_XOR: rc = cz_bool_xor(cs, &r, x[0], x[1]); break;
    case OP_AND: rc = cz_bool_and(cs, &r, x[0], x[1]); break;
    case OP_OR: rc = cz_bool_or(cs, &r, x[0], x[1]); break;
    case OP_CH: rc = cz_bool_sha256_ch(cs, &r, x[0], x[1], x[2]); break;
    case OP_MAJ: rc = cz_bool_sha256_maj(cs, &r, x[0], x[1], x[2]); break;
    default: rc = cz_bool_enforce_equal(cs, x[0], x[1]); break;
    }
    if (cz_cs_needs_values(cs))
        a->out = r.value;
    return rc;
}

static bool expect(int op, bool a, bool b, bool c)
{
    switch (op) {
    case OP_XOR: return a ^ b;
    case OP_AND: return a & b;
    case OP_OR: return a | b;
    case OP_CH: return (a & b) ^ (!a & c);
    default: return (a & b) ^ (a & c) ^ (b & c);
    }
}

/* Constraints beyond the operands' own boolean constraints. */
static size_t own_constraints(const bool_arg *a, size_t total)
{
    unsigned n = a->op == OP_CH || a->op == OP_MAJ ? 3 : 2;
    size_t bits = 0;
    for (unsigned i = 0; i < n; i++)
        bits += !is_const(a->k[i]);
    return total - bits;
}

CZ_TEST(boolean_binary_ops_all_forms)
{
    for (int op = OP_XOR; op <= OP_OR; op++) {
        for (unsigned i = 0; i < 6; i++) {
            for (unsigned j = 0; j < 6; j++) {
                bool_arg a = { op, { i, j, 0 }, false };
                gc_counts_t c = gc_satisfied(bool_circuit, &a);
                CHECK_EQ_INT(a.out, expect(op, value_of(i), value_of(j), 0));
                /* A constant operand folds; two bits cost one constraint. */
                size_t own = own_constraints(&a, c.constraints);
                CHECK_EQ_U64(own, is_const(i) || is_const(j) ? 0 : 1);
                if (own)
                    gc_corrupt(bool_circuit, &a, c.aux - 1, NULL, 0);
            }
        }
    }
}

/* bellpepper's ch/maj folding: all constants 0; one or two constants cost at
 * most one AND; no constant costs 1 (ch) / 2 (maj), except ch with a true. */
CZ_TEST(boolean_ch_maj_all_forms)
{
    for (int op = OP_CH; op <= OP_MAJ; op++) {
        for (unsigned i = 0; i < 6; i++)
            for (unsigned j = 0; j < 6; j++)
                for (unsigned k = 0; k < 6; k++) {
                    bool_arg a = { op, { i, j, k }, false };
                    gc_counts_t c = gc_satisfied(bool_circuit, &a);
                    CHECK_EQ_INT(a.out, expect(op, value_of(i), value_of(j), value_of(k)));
                    size_t own = own_constraints(&a, c.constraints);
                    unsigned nconst = is_const(i) + is_const(j) + is_const(k);
                    size_t want;
                    if (nconst == 3)
                        want = 0;
                    else if (op == OP_CH && i == 0)
                        want = 0; /* a false: c */
                    else if (op == OP_CH && i == 1 && nconst == 1)
                        want = 1; /* a true: general */
                    else if (nconst >= 1)
                        want = nconst == 2 ? 0 : 1; /* one AND, or folded */
                    else
                        want = op == OP_CH ? 1 : 2;
                    /* Two constants: the remaining AND folds or costs one. */
                    if (nconst == 2)
                        CHECK(own <= 1);
                    else
                        CHECK_EQ_U64(own, want);
                    if (own)
                        gc_corrupt(bool_circuit, &a, c.aux - 1, NULL, 0);
                }
    }
}

CZ_TEST(boolean_enforce_equal)
{
    for (unsigned i = 0; i < 6; i++)
        for (unsigned j = 0; j < 6; j++) {
            bool_arg a = { OP_EQ, { i, j, 0 }, false };
            gc_counts_t c = gc_counts(CZ_CS_CHECK, bool_circuit, &a);
            bool same = value_of(i) == value_of(j);
            CHECK_EQ_INT(c.rc, same ? CZ_OK : CZ_EUNSAT);
            CHECK_EQ_U64(own_constraints(&a, c.constraints), is_const(i) && is_const(j) ? 0 : 1);
        }
}

typedef struct {
    uint64_t v;
    bool cond;
} u64bits_arg;

static int bits_circuit(cz_cs_t *cs, void *p)
{
    u64bits_arg *a = p;
    cz_bool_t bits[64];
    int rc = cz_bits_alloc_u64_le(cs, bits, a->v);
    if (rc == CZ_OK && a->cond) /* alloc_conditionally on bit 0 */
        rc = cz_bit_alloc_cond(cs, &bits[1], false, bits[0]);
    for (unsigned i = 0; rc == CZ_OK && cz_cs_needs_values(cs) && i < 64; i++)
        CHECK_EQ_INT(bits[i].value, (a->v >> i) & 1);
    return rc;
}

CZ_TEST(boolean_alloc_bits)
{
    u64bits_arg a = { 0x8000f00d1234abcdull, true };
    gc_counts_t c = gc_satisfied(bits_circuit, &a);
    CHECK_EQ_U64(c.constraints, 65);
    CHECK_EQ_U64(c.aux, 65);
    char name[128];
    /* bit 2 is 1: stored as 2 it is no longer boolean. (A 0 stored as 1
     * would still be a bit: nothing but a later use could catch it.) */
    gc_corrupt(bits_circuit, &a, 2, name, sizeof name);
    CHECK_EQ_STR(name, "bit 2/boolean constraint");
    /* must_be_false true (bit 0 of an odd value) forces the new bit to 0:
     * corrupting it to 1 fails. */
    gc_corrupt(bits_circuit, &a, 64, name, sizeof name);
    CHECK_EQ_STR(name, "boolean constraint");
}

CZ_TEST_MAIN()
