/*
 * gadgets/uint32_emit.c — UInt32's xor, sha256 ch / maj and addmany's
 * result bits written a word at a time into a direct-emission window
 * (cs/emit.h), for PROVE without c and SHAPE: SHA-256 is ~99% of a PoRep
 * partition's rows and these four are most of SHA-256.
 *
 * Each function does, bit by bit, exactly what the per-bit gadgets of
 * boolean.c do (the same allocations, rows, values and density bits in
 * the same order; see the comment above each), without the per-bit calls,
 * namespaces (they only count depth outside CHECK) and small combinations.
 * Where a merged coefficient could cancel (ch / maj with b and c the same
 * variable), for constant bits of ch / maj (bellpepper folds them in many
 * ways), for bits over ONE and for variables not allocated, the word is
 * left to the per-bit path: these return false before writing anything,
 * and the caller runs it. tests/gadgets/test_emit.c compares every case
 * with the general path.
 */
#include "gadgets/uint32_emit.h"

#include "cs/emit.h"

/* Every non-constant bit of the words is an allocated variable other than
 * ONE, and (|distinct_bc|) b's and c's variables differ bit by bit. */
static bool words_plain(const cz_emit_win_t *w, const cz_u32_t *const *ws, unsigned n,
                        bool no_const, bool distinct_bc)
{
    for (unsigned i = 0; i < 32; i++) {
        for (unsigned k = 0; k < n; k++) {
            cz_bool_t b = ws[k]->bits[i];
            if (b.kind == CZ_BOOL_CONST) {
                if (no_const)
                    return false;
                continue;
            }
            if (cz_var_eq(b.var, CZ_VAR_ONE) || !cz_emit_valid(w, b.var))
                return false;
        }
        if (distinct_bc && cz_var_eq(ws[1]->bits[i].var, ws[2]->bits[i].var))
            return false;
    }
    return true;
}

/* The allocated bit under |b|'s value (AllocatedBit::get_value). */
static inline int bit_of(cz_bool_t b)
{
    return cz_bool_bit_value(b) ? 1 : 0;
}

/*
 * Boolean::xor (boolean.c cz_bool_xor): constants fold; otherwise
 * AllocatedBit::xor of the underlying bits p, q (the Is operand first when
 * the kinds differ, and the result then negated): alloc c = p ^ q, then
 * (p + p) * q = p + q - c: a = 2p, b = q; A has p (coefficient 2), B has q.
 */
static cz_bool_t xor_bit(cz_emit_win_t *w, cz_bool_t a, cz_bool_t b)
{
    if (a.kind == CZ_BOOL_CONST && !a.value)
        return b;
    if (b.kind == CZ_BOOL_CONST && !b.value)
        return a;
    if (a.kind == CZ_BOOL_CONST)
        return cz_bool_not(b);
    if (b.kind == CZ_BOOL_CONST)
        return cz_bool_not(a);
    const bool flip = a.kind != b.kind;
    const cz_bool_t p = flip && a.kind != CZ_BOOL_IS ? b : a;
    const cz_bool_t q = flip && a.kind != CZ_BOOL_IS ? a : b;
    const int pv = bit_of(p), qv = bit_of(q);
    cz_bool_t c = { cz_emit_alloc(w, pv ^ qv), CZ_BOOL_IS, (uint8_t)(pv ^ qv) };
    cz_emit_row(w, 2 * pv, qv);
    cz_emit_dense_a(w, p.var);
    cz_emit_dense_b(w, q.var);
    return flip ? cz_bool_not(c) : c;
}

bool cz__u32_xor_emit(cz_cs_t *cs, cz_u32_t *out, const cz_u32_t *a, const cz_u32_t *b)
{
    cz_emit_win_t w;
    const cz_u32_t *ws[2] = { a, b };
    if (!cz_cs_emit_open(cs, &w, 32, 32))
        return false;
    if (!words_plain(&w, ws, 2, false, false)) {
        cz_cs_emit_close(cs, &w); /* nothing used */
        return false;
    }
    cz_u32_t r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = xor_bit(&w, a->bits[i], b->bits[i]);
    r.value = a->value ^ b->value;
    *out = r;
    return cz_cs_emit_close(cs, &w) == CZ_OK;
}

/* B += (Boolean::lc of |x|): its variable, and ONE when |x| is a Not. */
static inline void dense_b_bool(cz_emit_win_t *w, cz_bool_t x)
{
    cz_emit_dense_b(w, x.var);
    if (x.kind == CZ_BOOL_NOT)
        cz_emit_dense_b(w, CZ_VAR_ONE);
}

/*
 * sha256_ch of three non-constant booleans (boolean.c: the "no constant"
 * arm): alloc ch = (a & b) ^ (!a & c), then (b - c) * a = ch - c over
 * Boolean::lc: a = b - c, b = a (the booleans' values); A has b's and c's
 * variables (distinct: coefficients +-1), B has a's (and ONE for a Not).
 */
static cz_bool_t ch_bit(cz_emit_win_t *w, cz_bool_t a, cz_bool_t b, cz_bool_t c)
{
    const int av = a.value, bv = b.value, cv = c.value;
    const int ch = (av & bv) ^ ((!av) & cv);
    cz_bool_t r = { cz_emit_alloc(w, ch), CZ_BOOL_IS, (uint8_t)ch };
    cz_emit_row(w, bv - cv, av);
    cz_emit_dense_a(w, b.var);
    cz_emit_dense_a(w, c.var);
    dense_b_bool(w, a);
    return r;
}

/*
 * Boolean::and of two non-constant booleans with different variables
 * (boolean.c cz_bool_and): Is & Not -> and_not(is, not); Not & Not ->
 * nor; Is & Is -> and. The result is an allocated bit of value x & y.
 */
static cz_bool_t and_bit(cz_emit_win_t *w, cz_bool_t x, cz_bool_t y)
{
    if (x.kind == CZ_BOOL_NOT && y.kind == CZ_BOOL_IS) {
        cz_bool_t t = x;
        x = y;
        y = t;
    }
    const int xb = bit_of(x), yb = bit_of(y);
    const int v = x.value & y.value;
    cz_bool_t r = { cz_emit_alloc(w, v), CZ_BOOL_IS, (uint8_t)v };
    if (x.kind == CZ_BOOL_IS && y.kind == CZ_BOOL_IS) {
        cz_emit_row(w, xb, yb); /* x * y = r */
    } else if (x.kind == CZ_BOOL_IS) {
        cz_emit_row(w, xb, 1 - yb); /* x * (1 - y) = r */
        cz_emit_dense_b(w, CZ_VAR_ONE);
    } else {
        cz_emit_row(w, 1 - xb, 1 - yb); /* (1 - x) * (1 - y) = r */
        cz_emit_dense_b(w, CZ_VAR_ONE);
    }
    cz_emit_dense_a(w, x.var);
    cz_emit_dense_b(w, y.var);
    return r;
}

/*
 * sha256_maj of three non-constant booleans (boolean.c: the "no
 * constant" arm): alloc maj, then bc = b AND c, then
 * (2bc - b - c) * a = bc - maj over Boolean::lc: a = 2bc - b - c, b = a;
 * A has bc (2) and b's and c's variables (distinct: +-1), B has a's.
 */
static cz_bool_t maj_bit(cz_emit_win_t *w, cz_bool_t a, cz_bool_t b, cz_bool_t c)
{
    const int av = a.value, bv = b.value, cv = c.value;
    const int maj = (av & bv) ^ (av & cv) ^ (bv & cv);
    cz_bool_t r = { cz_emit_alloc(w, maj), CZ_BOOL_IS, (uint8_t)maj };
    cz_bool_t bc = and_bit(w, b, c);
    cz_emit_row(w, 2 * bc.value - bv - cv, av);
    cz_emit_dense_a(w, bc.var);
    cz_emit_dense_a(w, b.var);
    cz_emit_dense_a(w, c.var);
    dense_b_bool(w, a);
    return r;
}

bool cz__u32_triop_emit(cz_cs_t *cs, cz_u32_t *out, const cz_u32_t *a, const cz_u32_t *b,
                        const cz_u32_t *c, bool maj, uint32_t value)
{
    cz_emit_win_t w;
    const cz_u32_t *ws[3] = { a, b, c };
    if (!cz_cs_emit_open(cs, &w, maj ? 64 : 32, maj ? 64 : 32))
        return false;
    if (!words_plain(&w, ws, 3, true, true)) {
        cz_cs_emit_close(cs, &w);
        return false;
    }
    cz_u32_t r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = maj ? maj_bit(&w, a->bits[i], b->bits[i], c->bits[i])
                        : ch_bit(&w, a->bits[i], b->bits[i], c->bits[i]);
    r.value = value;
    *out = r;
    return cz_cs_emit_close(cs, &w) == CZ_OK;
}

bool cz__bits_alloc_emit(cz_cs_t *cs, cz_bool_t *out, unsigned n, uint64_t value)
{
    /* AllocatedBit::alloc per bit: alloc b, then (1 - b) * b = 0:
     * a = 1 - b, b = b; A and B have b. */
    cz_emit_win_t w;
    if (n > 64 || !cz_cs_emit_open(cs, &w, n, n))
        return false;
    for (unsigned i = 0; i < n; i++) {
        const int v = (int)((value >> i) & 1);
        cz_var_t x = cz_emit_alloc(&w, v);
        cz_emit_row(&w, 1 - v, v);
        cz_emit_dense_a(&w, x);
        cz_emit_dense_b(&w, x);
        out[i] = (cz_bool_t){ x, CZ_BOOL_IS, (uint8_t)v };
    }
    return cz_cs_emit_close(cs, &w) == CZ_OK;
}
