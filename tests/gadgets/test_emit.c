/*
 * tests/gadgets/test_emit.c — direct emission (cs/emit.h) against the
 * general path on the cases where merging decides density: a variable used
 * twice in one combination (xor(a, a), ch with b and c the same bit, maj
 * with repeats), Is/Not/constant mixes, input variables used as bits, and
 * MultiEq batches whose terms cancel (x + NOT x), repeat (x + x), overflow
 * the first hash table (7 sums of 10 fresh words in one batch) or come as
 * general combinations; whole words (uint32_emit.c) of every kind, with
 * shared variables, inputs and ONE, and a word at the very end of an
 * exact in-place slot. Every case is checked by gc_satisfied (CHECK,
 * SHAPE/KEYGEN counts, and direct == general byte for byte); the
 * cancellation cases also check the density itself.
 */
#include "gadget_check.h"

#include "gadgets/uint32.h"

/* A bit (IS) whose variable is an aux with a single constraint use so far:
 * the xor of two fresh bits (its variable is in no A yet). */
static int fresh_xor_bit(cz_cs_t *cs, cz_bool_t *out, bool v)
{
    cz_bool_t p, q;
    int rc;
    if ((rc = cz_bit_alloc(cs, &p, v)) || (rc = cz_bit_alloc(cs, &q, false)))
        return rc;
    return cz_bit_xor(cs, out, p, q);
}

/* ---- boolean operations on repeated and mixed operands ---------------------- */

typedef struct {
    uint32_t seed;
} bool_arg;

typedef int bin_fn(cz_cs_t *, cz_bool_t *, cz_bool_t, cz_bool_t);
typedef int tri_fn(cz_cs_t *, cz_bool_t *, cz_bool_t, cz_bool_t, cz_bool_t);

/* A boolean of kind |k| (0 const false, 1 const true, 2 IS, 3 NOT) over |x|. */
static cz_bool_t kind_of(unsigned k, cz_bool_t x)
{
    switch (k) {
    case 0: return cz_bool_const(false);
    case 1: return cz_bool_const(true);
    case 2: return x;
    default: return cz_bool_not(x);
    }
}

/* Fresh x and y (not in any A or B yet) for each operation, so a merged
 * coefficient of 0 shows in the density. */
static int fresh_pair(cz_cs_t *cs, cz_bool_t *x, cz_bool_t *y, uint32_t v)
{
    int rc = fresh_xor_bit(cs, x, v & 1);
    return rc ? rc : fresh_xor_bit(cs, y, (v >> 1) & 1);
}

static int repeats_circuit(cz_cs_t *cs, void *p)
{
    const bool_arg *a = p;
    bin_fn *bins[] = { cz_bit_xor,  cz_bit_and,  cz_bit_and_not, cz_bit_nor,
                       cz_bool_xor, cz_bool_and, cz_bool_or };
    tri_fn *tris[] = { cz_bool_sha256_ch, cz_bool_sha256_maj };
    int rc = CZ_OK;
    cz_bool_t x, y, r;
    uint32_t v = a->seed;
    /* Binary operations on (x, x), (x, not x), (not x, not x), (x, y). */
    for (unsigned f = 0; f < sizeof bins / sizeof *bins && rc == CZ_OK; f++) {
        for (unsigned ka = 2; ka < 4 && rc == CZ_OK; ka++) {
            for (unsigned kb = 2; kb < 4 && rc == CZ_OK; kb++, v += 3) {
                if (f < 4 && (ka == 3 || kb == 3))
                    continue; /* AllocatedBit ops take bits, not kinds */
                if ((rc = fresh_pair(cs, &x, &y, v)) ||
                    (rc = bins[f](cs, &r, kind_of(ka, x), kind_of(kb, x))))
                    break;
                if ((rc = fresh_pair(cs, &x, &y, v)) == CZ_OK)
                    rc = bins[f](cs, &r, kind_of(ka, x), kind_of(kb, y));
            }
        }
    }
    /* ch and maj over every kind of a, b, c, c being x or y. */
    for (unsigned f = 0; f < 2 && rc == CZ_OK; f++) {
        for (unsigned m = 0; m < 128 && rc == CZ_OK; m++, v += 5) {
            cz_bool_t ops[3];
            if ((rc = fresh_pair(cs, &x, &y, v)))
                break;
            for (unsigned i = 0; i < 3; i++)
                ops[i] = kind_of((m >> (2 * i)) & 3, i == 2 && (m & 64) ? y : x);
            rc = tris[f](cs, &r, ops[0], ops[1], ops[2]);
        }
    }
    if (rc == CZ_OK && (rc = fresh_pair(cs, &x, &y, v)) == CZ_OK)
        rc = cz_bit_alloc_cond(cs, &r, false, x);
    return rc;
}

CZ_TEST(emit_boolean_repeats)
{
    for (uint32_t s = 0; s < 4; s++) {
        bool_arg a = { s };
        gc_satisfied(repeats_circuit, &a);
    }
}

/* Bits whose variables are inputs: B tracks them, A does not. */
static int input_bits_circuit(cz_cs_t *cs, void *p)
{
    (void)p;
    cz_var_t in;
    cz_bool_t x, r, y;
    int rc = cz_cs_alloc_input(cs, &in, &CZ_FR_ONE);
    if (rc)
        return rc;
    x = (cz_bool_t){ in, CZ_BOOL_IS, 1 };
    if ((rc = cz_bit_alloc(cs, &y, false)))
        return rc;
    if ((rc = cz_bit_and(cs, &r, x, y)) || (rc = cz_bit_and(cs, &r, y, x)) ||
        (rc = cz_bit_xor(cs, &r, x, y)) || (rc = cz_bit_nor(cs, &r, y, x)) ||
        (rc = cz_bool_sha256_ch(cs, &r, x, y, cz_bool_not(x))))
        return rc;
    return cz_bool_enforce_equal(cs, x, cz_bool_const(true));
}

CZ_TEST(emit_input_bits)
{
    gc_satisfied(input_bits_circuit, NULL);
}

/* ---- MultiEq batches ---------------------------------------------------------- */

typedef struct {
    unsigned mode; /* 0: x + NOT x; 1: x + x; 2: 7 x 10 fresh words; 3: general LCs */
    uint32_t v;
    size_t first_x; /* out: aux index of x's bit 0 (modes 0, 1) */
} me_arg;

/* A word of 32 fresh xor bits (consecutive triples of aux: p, q, x). */
static int fresh_word(cz_cs_t *cs, cz_u32_t *w, uint32_t v)
{
    for (unsigned i = 0; i < 32; i++) {
        int rc = fresh_xor_bit(cs, &w->bits[i], (v >> i) & 1);
        if (rc)
            return rc;
    }
    w->value = v;
    return CZ_OK;
}

static cz_u32_t word_not(const cz_u32_t *w)
{
    cz_u32_t r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = cz_bool_not(w->bits[i]);
    r.value = ~w->value;
    return r;
}

static int multieq_circuit(cz_cs_t *cs, void *p)
{
    me_arg *a = p;
    cz_multieq_t me;
    cz_u32_t x, ops[10], r;
    int rc = fresh_word(cs, &x, a->v);
    a->first_x = cz_var_index(x.bits[0].var);
    cz_multieq_init(&me, cs);
    if (rc == CZ_OK && a->mode == 0) {
        ops[0] = x;
        ops[1] = word_not(&x); /* coefficients 2^i - 2^i: cancel */
        rc = cz_u32_addmany(cs, &me, &r, ops, 2);
    } else if (rc == CZ_OK && a->mode == 1) {
        ops[0] = ops[1] = x;   /* 2 * 2^i */
        ops[2] = word_not(&x); /* ... - 2^i: still 2^i */
        rc = cz_u32_addmany(cs, &me, &r, ops, 3);
    } else if (rc == CZ_OK && a->mode == 2) {
        /* 7 sums of 10 fresh words (36 bits each: 7 x 36 = 252 < 254): one
         * batch holding 2240 distinct variables, then a flush. */
        for (unsigned s = 0; s < 8 && rc == CZ_OK; s++) {
            for (unsigned k = 0; k < 10 && rc == CZ_OK; k++)
                rc = fresh_word(cs, &ops[k], a->v * (s + 1) + k);
            if (rc == CZ_OK)
                rc = cz_u32_addmany(cs, &me, &r, ops, 10);
        }
    } else if (rc == CZ_OK && a->mode == 3) {
        /* General combinations in the same batch as a word sum: x0 - x0
         * (cancels), 3 * x1 + ONE, an input. */
        cz_lc_t l = { 0 }, rr = { 0 };
        cz_var_t in;
        cz_fr three;
        cz_fr_from_u64(&three, 3);
        rc = cz_cs_alloc_input(cs, &in, &CZ_FR_ONE);
        cz_lc_add(&l, x.bits[0].var);
        cz_lc_sub(&l, x.bits[0].var);
        cz_lc_add_term(&l, &three, x.bits[1].var);
        cz_lc_add(&l, CZ_VAR_ONE);
        cz_lc_add(&l, in);
        cz_fr val = CZ_FR_ONE;
        cz_fr_add(&val, &val, &CZ_FR_ONE); /* ONE + in */
        if ((a->v >> 1) & 1)
            cz_fr_add(&val, &val, &three);
        cz_var_t res;
        if (rc == CZ_OK)
            rc = cz_cs_alloc(cs, &res, &val);
        cz_lc_add(&rr, res);
        if (rc == CZ_OK)
            rc = cz_multieq_enforce_equal(&me, 8, &l, &rr);
        cz_lc_free(&l);
        cz_lc_free(&rr);
        ops[0] = x;
        ops[1] = word_not(&x);
        if (rc == CZ_OK)
            rc = cz_u32_addmany(cs, &me, &r, ops, 2);
    }
    int rc2 = cz_multieq_finish(&me);
    return rc ? rc : rc2;
}

/* Is aux |j| set in the A density of |fn| synthesized in |mode|? */
static bool a_dense(cz_cs_mode_t mode, bool direct, gc_fn *fn, void *arg, size_t j)
{
    cz_cs_t *cs = gc_run(mode, direct, fn, arg);
    if (!cs)
        return false;
    const uint64_t *w = cz_cs_density(cs, CZ_DENSITY_A_AUX, NULL, NULL);
    bool set = (w[j / 64] >> (j % 64)) & 1;
    cz_cs_free(cs);
    return set;
}

CZ_TEST(emit_multieq_cancel)
{
    for (uint32_t v = 0; v < 3; v++) {
        me_arg a = { 0, v * 0x9e3779b9u, 0 };
        gc_satisfied(multieq_circuit, &a);
        /* x's bits appear only in the sum, with 2^i - 2^i: not dense. */
        for (int d = 0; d < 2; d++) {
            CHECK(!a_dense(CZ_CS_PROVE, d, multieq_circuit, &a, a.first_x));
            CHECK(!a_dense(CZ_CS_SHAPE, d, multieq_circuit, &a, a.first_x));
        }
        a.mode = 1;
        gc_satisfied(multieq_circuit, &a);
        for (int d = 0; d < 2; d++)
            CHECK(a_dense(CZ_CS_PROVE, d, multieq_circuit, &a, a.first_x));
    }
}

CZ_TEST(emit_multieq_large_batch)
{
    me_arg a = { 2, 0x12345678u, 0 };
    gc_satisfied(multieq_circuit, &a);
}

CZ_TEST(emit_multieq_general_lc)
{
    for (uint32_t v = 0; v < 4; v++) {
        me_arg a = { 3, v, 0 };
        gc_satisfied(multieq_circuit, &a);
        for (int d = 0; d < 2; d++)
            CHECK(!a_dense(CZ_CS_PROVE, d, multieq_circuit, &a, a.first_x));
    }
}

/* ---- words (uint32_emit.c) ------------------------------------------------------ */

/* Bit i of a word of kind pattern |m|: 0 const false, 1 const true, 2 Is,
 * 3 Not of pool variable |var_of(i)|; the pool holds fresh xor outputs,
 * inputs and ONE (as a bit variable), so words can share variables. */
typedef struct {
    uint64_t seed;
    unsigned share; /* 0: distinct variables; 1: b and c share some; 2: a == b; 3: ONE / inputs */
    bool no_sum;    /* no addmany: ONE's B density comes from these ops alone */
} word_arg;

static int word_circuit(cz_cs_t *cs, void *p)
{
    const word_arg *a = p;
    cz_rng rng;
    cz_rng_seed(&rng, a->seed);
    cz_bool_t pool[48];
    int rc = CZ_OK;
    for (unsigned k = 0; k < 48 && rc == CZ_OK; k++)
        rc = fresh_xor_bit(cs, &pool[k], cz_rng_next(&rng) & 1);
    if (rc == CZ_OK && a->share == 3) {
        cz_var_t in;
        rc = cz_cs_alloc_input(cs, &in, &CZ_FR_ONE);
        pool[0] = (cz_bool_t){ in, CZ_BOOL_IS, 1 };
        pool[1] = (cz_bool_t){ CZ_VAR_ONE, CZ_BOOL_IS, 1 };
    }
    cz_u32_t w[3], r;
    for (unsigned round = 0; round < 6 && rc == CZ_OK; round++) {
        for (unsigned k = 0; k < 3; k++) {
            uint32_t v = 0;
            for (unsigned i = 0; i < 32; i++) {
                uint64_t x = cz_rng_next(&rng);
                unsigned kind = round < 2 ? 2 + (x & 1) : x & 3; /* first rounds: no constants */
                unsigned var = (unsigned)((x >> 8) % 16) + 16 * k;
                if (a->share == 1 && k == 2 && (x >> 20) % 3 == 0)
                    var = (unsigned)((x >> 8) % 16) + 16; /* c takes b's pool */
                if (a->share == 2 && k == 1)
                    var = (unsigned)((x >> 8) % 16); /* b takes a's pool */
                if (a->share == 3 && (x >> 24) % 4 == 0)
                    var = (x >> 26) & 1; /* an input, or ONE */
                cz_bool_t b = kind == 0   ? cz_bool_const(false)
                              : kind == 1 ? cz_bool_const(true)
                              : kind == 2 ? pool[var]
                                          : cz_bool_not(pool[var]);
                w[k].bits[i] = b;
                v |= (uint32_t)(b.value & 1) << i;
            }
            w[k].value = v;
        }
        if ((rc = cz_u32_xor(cs, &r, &w[0], &w[1])) || (rc = cz_u32_xor(cs, &r, &w[2], &w[2])) ||
            (rc = cz_u32_sha256_ch(cs, &r, &w[0], &w[1], &w[2])) ||
            (rc = cz_u32_sha256_maj(cs, &r, &w[0], &w[1], &w[2])) ||
            (rc = cz_u32_sha256_maj(cs, &w[0], &w[0], &w[0], &w[1]))) /* aliasing */
            break;
        if (a->no_sum)
            continue;
        cz_multieq_t me;
        cz_multieq_init(&me, cs);
        rc = cz_u32_addmany(cs, &me, &r, w, 3);
        int rc2 = cz_multieq_finish(&me);
        if (!rc)
            rc = rc2;
    }
    return rc;
}

CZ_TEST(emit_words_every_kind_and_sharing)
{
    for (unsigned share = 0; share < 4; share++) {
        for (uint64_t seed = 1; seed <= 3; seed++) {
            for (int no_sum = 0; no_sum < 2; no_sum++) {
                word_arg a = { seed * 7 + share, share, no_sum };
                gc_satisfied(word_circuit, &a);
            }
        }
    }
}

/* ch(a, x, x) over fresh words: A = x - x, so x is not dense in A; and
 * ch / maj over Not words, which alone put ONE into B (no MultiEq here). */
typedef struct {
    unsigned mode;
    size_t x0; /* out: aux index of x's bit 0 */
} chx_arg;

static int chx_circuit(cz_cs_t *cs, void *p)
{
    chx_arg *a = p;
    cz_u32_t w[3], r;
    int rc = CZ_OK;
    for (unsigned k = 0; k < 3 && rc == CZ_OK; k++) {
        for (unsigned i = 0; i < 32 && rc == CZ_OK; i++)
            rc = fresh_xor_bit(cs, &w[k].bits[i], (i * 7 + k) % 3 == 0);
        w[k].value = 0;
        for (unsigned i = 0; i < 32; i++)
            w[k].value |= (uint32_t)w[k].bits[i].value << i;
    }
    a->x0 = cz_var_index(w[1].bits[0].var);
    if (rc)
        return rc;
    if (a->mode == 0)
        return cz_u32_sha256_ch(cs, &r, &w[0], &w[1], &w[1]);
    /* Words negated by the mode's bits: 1 all, 2 b and c (nor), 3 c
     * (and_not), 4 b (and_not with the operands swapped). */
    static const unsigned neg[5] = { 0, 7, 6, 4, 2 };
    for (unsigned k = 0; k < 3; k++) {
        if (!((neg[a->mode] >> k) & 1))
            continue;
        for (unsigned i = 0; i < 32; i++)
            w[k].bits[i] = cz_bool_not(w[k].bits[i]);
        w[k].value = ~w[k].value;
    }
    return a->mode == 1 ? cz_u32_sha256_ch(cs, &r, &w[0], &w[1], &w[2])
                        : cz_u32_sha256_maj(cs, &r, &w[0], &w[1], &w[2]);
}

CZ_TEST(emit_words_cancel_and_one)
{
    for (unsigned mode = 0; mode < 5; mode++) {
        chx_arg a = { mode, 0 };
        gc_satisfied(chx_circuit, &a);
        if (mode == 0) {
            for (int d = 0; d < 2; d++)
                CHECK(!a_dense(CZ_CS_PROVE, d, chx_circuit, &a, a.x0));
        }
    }
}

/* A word op as the last thing of an exact in-place slot: the window's worst
 * case (32 bits) does not fit when a bit folds, and the per-bit path runs. */
static int slot_part(cz_cs_t *cs, const cz_u32_t *x)
{
    cz_u32_t y = *x, r;
    y.bits[5] = cz_bool_const(true); /* folds: 31 allocations, not 32 */
    y.value |= 1u << 5;
    return cz_u32_xor(cs, &r, x, &y);
}

CZ_TEST(emit_window_at_the_end_of_an_in_place_slot)
{
    cz_u32_t x;
    cz_cs_t *seq, *par, *shape;
    REQUIRE(cz_cs_new(&seq, NULL, CZ_CS_PROVE) == CZ_OK && cz_cs_omit_c(seq) == CZ_OK);
    REQUIRE(cz_cs_new(&par, NULL, CZ_CS_PROVE) == CZ_OK && cz_cs_omit_c(par) == CZ_OK);
    REQUIRE(cz_u32_alloc(seq, &x, 0x12345678u) == CZ_OK);
    REQUIRE(cz_u32_alloc(par, &x, 0x12345678u) == CZ_OK);
    /* The part's counts, from SHAPE. */
    REQUIRE(cz_cs_new(&shape, NULL, CZ_CS_SHAPE) == CZ_OK);
    cz_u32_t xs;
    REQUIRE(cz_u32_alloc(shape, &xs, 0) == CZ_OK);
    size_t r0 = cz_cs_num_constraints(shape), a0 = cz_cs_num_aux(shape);
    REQUIRE(slot_part(shape, &xs) == CZ_OK);
    cz_cs_slot_t at = { 0, 0, 0, 0, cz_cs_num_aux(shape) - a0, cz_cs_num_constraints(shape) - r0 };
    CHECK_EQ_U64(at.n_aux, 31);
    cz_cs_free(shape);
    REQUIRE(slot_part(seq, &x) == CZ_OK);
    REQUIRE(cz_cs_room(par, at.n_rows, at.n_aux, 0) == CZ_OK);
    cz_cs_t *f;
    REQUIRE(cz_cs_fork_at(&f, par, &at, NULL) == CZ_OK);
    CHECK_OK(slot_part(f, &x));
    CHECK_OK(cz_cs_extend(par, f));
    cz_cs_free(f);
    CHECK_OK(cz_cs_finish(seq));
    CHECK_OK(cz_cs_finish(par));
    CHECK_EQ_U64(cz_cs_num_rows(seq), cz_cs_num_rows(par));
    CHECK_MEM_EQ(cz_cs_aux(seq), cz_cs_aux(par), cz_cs_num_aux(seq) * sizeof(cz_fr));
    CHECK_MEM_EQ(cz_cs_eval(seq, CZ_MATRIX_A), cz_cs_eval(par, CZ_MATRIX_A),
                 cz_cs_num_rows(seq) * sizeof(cz_fr));
    cz_cs_free(seq);
    cz_cs_free(par);
}

/* ---- the switch itself -------------------------------------------------------- */

CZ_TEST(emit_modes)
{
    cz_cs_t *cs;
    const struct {
        cz_cs_mode_t mode;
        bool omit, emits;
    } cases[] = {
        { CZ_CS_PROVE, true, true },    { CZ_CS_PROVE, false, false }, { CZ_CS_SHAPE, false, true },
        { CZ_CS_KEYGEN, false, false }, { CZ_CS_CHECK, true, false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        CHECK_OK(cz_cs_new(&cs, NULL, cases[i].mode));
        if (cases[i].omit)
            CHECK_OK(cz_cs_omit_c(cs));
        CHECK(cz_cs_emits(cs) == cases[i].emits);
        cz_cs_t *fork;
        CHECK_OK(cz_cs_fork(&fork, cs, NULL));
        CHECK(cz_cs_emits(fork) == cases[i].emits);
        cz_cs_free(fork);
        cz_cs_emit_generic(cs);
        CHECK(!cz_cs_emits(cs));
        CHECK_OK(cz_cs_fork(&fork, cs, NULL));
        CHECK(!cz_cs_emits(fork));
        cz_cs_free(fork);
        cz_cs_free(cs);
    }
    /* The corruption hook turns it off: the stored value is not the gadget's. */
    CHECK_OK(cz_cs_new(&cs, NULL, CZ_CS_PROVE));
    CHECK_OK(cz_cs_omit_c(cs));
    cz_cs_corrupt_aux(cs, 3);
    CHECK(!cz_cs_emits(cs));
    cz_cs_free(cs);
}

/* A small combination that overflows is an error, on both paths. */
CZ_TEST(emit_overflow)
{
    for (int d = 0; d < 2; d++) {
        cz_cs_t *cs;
        CHECK_OK(cz_cs_new(&cs, NULL, CZ_CS_PROVE));
        CHECK_OK(cz_cs_omit_c(cs));
        if (!d)
            cz_cs_emit_generic(cs);
        cz_slc_t a = { 0 }, b = { 0 }, c = { 0 };
        for (unsigned i = 0; i <= CZ_SLC_MAX; i++) {
            cz_var_t v;
            CHECK_OK(cz_cs_alloc_bit(cs, &v, true));
            cz_slc_add(&a, v, 1, 1);
        }
        CHECK_EQ_INT(cz_cs_enforce_small(cs, &a, &b, &c, "big"), CZ_EINTERNAL);
        CHECK_EQ_INT(cz_cs_finish(cs), CZ_EINTERNAL);
        cz_cs_free(cs);
    }
}

CZ_TEST_MAIN()
