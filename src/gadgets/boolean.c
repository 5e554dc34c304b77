/*
 * gadgets/boolean.c — bellpepper's AllocatedBit and Boolean (see boolean.h).
 *
 * Source of every layout below: bellpepper-core src/gadgets/boolean.rs
 * (BPC 0.2, re-exported by bellperson 0.27). The order "alloc result, then
 * enforce" and the operand order inside each constraint are bellpepper's.
 */
#include "gadgets/boolean.h"

#include "cs/emit.h"
#include "gadgets/gadget_int.h"

void cz_bool_lc_add(cz_lc_t *lc, cz_bool_t b, const cz_fr *coeff)
{
    switch (b.kind) {
    case CZ_BOOL_CONST:
        if (b.value)
            cz_lc_add_term(lc, coeff, CZ_VAR_ONE);
        break;
    case CZ_BOOL_IS: cz_lc_add_term(lc, coeff, b.var); break;
    default: /* NOT: coeff * ONE - coeff * bit */
        cz_lc_add_term(lc, coeff, CZ_VAR_ONE);
        cz_lc_sub_term(lc, coeff, b.var);
        break;
    }
}

void cz_bool_lc_sub(cz_lc_t *lc, cz_bool_t b, const cz_fr *coeff)
{
    switch (b.kind) {
    case CZ_BOOL_CONST:
        if (b.value)
            cz_lc_sub_term(lc, coeff, CZ_VAR_ONE);
        break;
    case CZ_BOOL_IS: cz_lc_sub_term(lc, coeff, b.var); break;
    default:
        cz_lc_sub_term(lc, coeff, CZ_VAR_ONE);
        cz_lc_add_term(lc, coeff, b.var);
        break;
    }
}

/* ---- AllocatedBit ------------------------------------------------------------ */

/*
 * Every constraint below is written on small combinations (cs/emit.h): in
 * PROVE-without-c and SHAPE they are emitted by their values and density,
 * elsewhere they become the cz_lc_t's bellpepper's code builds.
 */

/* lc += k * b (Boolean::lc with coefficient k): constants add k*ONE or
 * nothing, Not adds k*ONE - k*bit. */
static void slc_bool(cz_slc_t *lc, cz_bool_t b, int32_t k)
{
    switch (b.kind) {
    case CZ_BOOL_CONST:
        if (b.value)
            cz_slc_add_one(lc, k);
        break;
    case CZ_BOOL_IS: cz_slc_add(lc, b.var, k, b.value); break;
    default: /* NOT */
        cz_slc_add_one(lc, k);
        cz_slc_add(lc, b.var, -k, !b.value);
        break;
    }
}

/* lc += k * (the allocated bit under |b|, whatever b's kind). */
static void slc_bit(cz_slc_t *lc, cz_bool_t b, int32_t k)
{
    cz_slc_add(lc, b.var, k, cz_bool_bit_value(b));
}

/* Allocate a bit holding |v| (the value is read only in value modes). */
static int alloc_bit(cz_cs_t *cs, cz_bool_t *out, bool v)
{
    cz_var_t var;
    CZ__TRY(cz_cs_alloc_bit(cs, &var, v));
    *out = (cz_bool_t){ var, CZ_BOOL_IS, (uint8_t)(v ? 1 : 0) };
    return CZ_OK;
}

int cz_bit_alloc(cz_cs_t *cs, cz_bool_t *out, bool value)
{
    /* BPC AllocatedBit::alloc: (1 - a) * a = 0 */
    CZ__TRY(alloc_bit(cs, out, value));
    cz_slc_t a = { 0 }, b = { 0 }, c = { 0 };
    cz_slc_add_one(&a, 1);
    slc_bit(&a, *out, -1);
    slc_bit(&b, *out, 1);
    return cz_cs_enforce_small(cs, &a, &b, &c, "boolean constraint");
}

int cz_bit_alloc_cond(cz_cs_t *cs, cz_bool_t *out, bool value, cz_bool_t must_be_false)
{
    /* BPC AllocatedBit::alloc_conditionally: (1 - must_be_false - a) * a = 0 */
    CZ__TRY(alloc_bit(cs, out, value));
    cz_slc_t a = { 0 }, b = { 0 }, c = { 0 };
    cz_slc_add_one(&a, 1);
    slc_bit(&a, must_be_false, -1);
    slc_bit(&a, *out, -1);
    slc_bit(&b, *out, 1);
    return cz_cs_enforce_small(cs, &a, &b, &c, "boolean constraint");
}

int cz_bit_xor(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b)
{
    bool av = cz_bool_bit_value(a), bv = cz_bool_bit_value(b);
    CZ__TRY(alloc_bit(cs, out, av ^ bv));
    /* (a + a) * b = a + b - c */
    cz_slc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    slc_bit(&la, a, 1);
    slc_bit(&la, a, 1);
    slc_bit(&lb, b, 1);
    slc_bit(&lc, a, 1);
    slc_bit(&lc, b, 1);
    slc_bit(&lc, *out, -1);
    return cz_cs_enforce_small(cs, &la, &lb, &lc, "xor constraint");
}

int cz_bit_and(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b)
{
    bool av = cz_bool_bit_value(a), bv = cz_bool_bit_value(b);
    CZ__TRY(alloc_bit(cs, out, av & bv));
    /* a * b = c */
    cz_slc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    slc_bit(&la, a, 1);
    slc_bit(&lb, b, 1);
    slc_bit(&lc, *out, 1);
    return cz_cs_enforce_small(cs, &la, &lb, &lc, "and constraint");
}

int cz_bit_and_not(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b)
{
    bool av = cz_bool_bit_value(a), bv = cz_bool_bit_value(b);
    CZ__TRY(alloc_bit(cs, out, av & (!bv)));
    /* a * (1 - b) = c */
    cz_slc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    slc_bit(&la, a, 1);
    cz_slc_add_one(&lb, 1);
    slc_bit(&lb, b, -1);
    slc_bit(&lc, *out, 1);
    return cz_cs_enforce_small(cs, &la, &lb, &lc, "and not constraint");
}

int cz_bit_nor(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b)
{
    bool av = cz_bool_bit_value(a), bv = cz_bool_bit_value(b);
    CZ__TRY(alloc_bit(cs, out, (!av) & (!bv)));
    /* (1 - a) * (1 - b) = c */
    cz_slc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    cz_slc_add_one(&la, 1);
    slc_bit(&la, a, -1);
    cz_slc_add_one(&lb, 1);
    slc_bit(&lb, b, -1);
    slc_bit(&lc, *out, 1);
    return cz_cs_enforce_small(cs, &la, &lb, &lc, "nor constraint");
}

/* ---- Boolean ------------------------------------------------------------------ */

int cz_bool_xor(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b)
{
    /* Match arms in BPC Boolean::xor order. */
    if (a.kind == CZ_BOOL_CONST && !a.value) {
        *out = b;
        return CZ_OK;
    }
    if (b.kind == CZ_BOOL_CONST && !b.value) {
        *out = a;
        return CZ_OK;
    }
    if (a.kind == CZ_BOOL_CONST) { /* true */
        *out = cz_bool_not(b);
        return CZ_OK;
    }
    if (b.kind == CZ_BOOL_CONST) {
        *out = cz_bool_not(a);
        return CZ_OK;
    }
    if (a.kind != b.kind) {
        /* a XOR (NOT b) = NOT (a XOR b), the Is operand first. */
        cz_bool_t is = a.kind == CZ_BOOL_IS ? a : b;
        cz_bool_t not = a.kind == CZ_BOOL_IS ? b : a;
        CZ__TRY(cz_bit_xor(cs, out, is, not ));
        *out = cz_bool_not(*out);
        return CZ_OK;
    }
    /* Is/Is or Not/Not: the xor of the underlying bits. */
    return cz_bit_xor(cs, out, a, b);
}

int cz_bool_and(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b)
{
    /* Match arms in BPC Boolean::and order. */
    if ((a.kind == CZ_BOOL_CONST && !a.value) || (b.kind == CZ_BOOL_CONST && !b.value)) {
        *out = cz_bool_const(false);
        return CZ_OK;
    }
    if (a.kind == CZ_BOOL_CONST) {
        *out = b;
        return CZ_OK;
    }
    if (b.kind == CZ_BOOL_CONST) {
        *out = a;
        return CZ_OK;
    }
    if (a.kind == CZ_BOOL_IS && b.kind == CZ_BOOL_NOT)
        return cz_bit_and_not(cs, out, a, b);
    if (a.kind == CZ_BOOL_NOT && b.kind == CZ_BOOL_IS)
        return cz_bit_and_not(cs, out, b, a);
    if (a.kind == CZ_BOOL_NOT)
        return cz_bit_nor(cs, out, a, b);
    return cz_bit_and(cs, out, a, b);
}

int cz_bool_or(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b)
{
    CZ__TRY(cz_cs_push(cs, "not and (not a) (not b)"));
    CZ__TRY(cz_bool_and(cs, out, cz_bool_not(a), cz_bool_not(b)));
    *out = cz_bool_not(*out);
    return cz_cs_pop(cs);
}

int cz_bool_sha256_ch(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b, cz_bool_t c)
{
    bool av = a.value, bv = b.value, cv = c.value;
    bool ch = (av & bv) ^ ((!av) & cv);
    bool ka = a.kind == CZ_BOOL_CONST, kb = b.kind == CZ_BOOL_CONST, kc = c.kind == CZ_BOOL_CONST;

    /* Match arms in BPC Boolean::sha256_ch order. */
    if (ka && kb && kc) {
        *out = cz_bool_const(ch);
        return CZ_OK;
    }
    if (ka && !av) { /* a false: c */
        *out = c;
        return CZ_OK;
    }
    if (kb && !bv) /* b false: (not a) and c */
        return cz_bool_and(cs, out, cz_bool_not(a), c);
    if (kc && !cv) /* c false: a and b */
        return cz_bool_and(cs, out, a, b);
    if (kc) { /* c true: not (a and (not b)) */
        CZ__TRY(cz_bool_and(cs, out, a, cz_bool_not(b)));
        *out = cz_bool_not(*out);
        return CZ_OK;
    }
    if (kb) { /* b true: not ((not a) and (not c)) */
        CZ__TRY(cz_bool_and(cs, out, cz_bool_not(a), cz_bool_not(c)));
        *out = cz_bool_not(*out);
        return CZ_OK;
    }
    /* a true, or no constant: allocate ch; a (b - c) = ch - c. */
    CZ__TRY(alloc_bit(cs, out, ch));
    cz_slc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    slc_bool(&la, b, 1);
    slc_bool(&la, c, -1);
    slc_bool(&lb, a, 1);
    slc_bit(&lc, *out, 1);
    slc_bool(&lc, c, -1);
    return cz_cs_enforce_small(cs, &la, &lb, &lc, "ch computation");
}

int cz_bool_sha256_maj(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b, cz_bool_t c)
{
    bool av = a.value, bv = b.value, cv = c.value;
    bool maj = (av & bv) ^ (av & cv) ^ (bv & cv);
    bool ka = a.kind == CZ_BOOL_CONST, kb = b.kind == CZ_BOOL_CONST, kc = c.kind == CZ_BOOL_CONST;

    /* Match arms in BPC Boolean::sha256_maj order. */
    if (ka && kb && kc) {
        *out = cz_bool_const(maj);
        return CZ_OK;
    }
    if (ka && !av)
        return cz_bool_and(cs, out, b, c);
    if (kb && !bv)
        return cz_bool_and(cs, out, a, c);
    if (kc && !cv)
        return cz_bool_and(cs, out, a, b);
    if (kc || kb || ka) {
        /* One operand true: not ((not x) and (not y)) of the other two. */
        cz_bool_t x = kc ? a : kb ? a : b;
        cz_bool_t y = kc ? b : c;
        CZ__TRY(cz_bool_and(cs, out, cz_bool_not(x), cz_bool_not(y)));
        *out = cz_bool_not(*out);
        return CZ_OK;
    }
    /* No constant: allocate maj first, then bc = b and c (ns "b and c"),
     * then (2bc - b - c) * a = bc - maj. */
    CZ__TRY(alloc_bit(cs, out, maj));
    cz_bool_t bc;
    CZ__TRY(cz_cs_push(cs, "b and c"));
    CZ__TRY(cz_bool_and(cs, &bc, b, c));
    CZ__TRY(cz_cs_pop(cs));
    cz_slc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    slc_bool(&la, bc, 1);
    slc_bool(&la, bc, 1);
    slc_bool(&la, b, -1);
    slc_bool(&la, c, -1);
    slc_bool(&lb, a, 1);
    slc_bool(&lc, bc, 1);
    slc_bit(&lc, *out, -1);
    return cz_cs_enforce_small(cs, &la, &lb, &lc, "maj computation");
}

int cz_bool_enforce_equal(cz_cs_t *cs, cz_bool_t a, cz_bool_t b)
{
    cz_slc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    if (a.kind == CZ_BOOL_CONST && b.kind == CZ_BOOL_CONST)
        return a.value == b.value ? CZ_OK : CZ_EUNSAT;
    /* (Constant(true), x) | (x, Constant(true)): 0 * 0 = 1 - x */
    if ((a.kind == CZ_BOOL_CONST && a.value) || (b.kind == CZ_BOOL_CONST && b.value)) {
        cz_bool_t x = a.kind == CZ_BOOL_CONST ? b : a;
        cz_slc_add_one(&lc, 1);
        slc_bool(&lc, x, -1);
        return cz_cs_enforce_small(cs, &la, &lb, &lc, "enforce equal to one");
    }
    /* (Constant(false), x) | (x, Constant(false)): 0 * 0 = x */
    if (a.kind == CZ_BOOL_CONST || b.kind == CZ_BOOL_CONST) {
        cz_bool_t x = a.kind == CZ_BOOL_CONST ? b : a;
        slc_bool(&lc, x, 1);
        return cz_cs_enforce_small(cs, &la, &lb, &lc, "enforce equal to zero");
    }
    slc_bool(&lc, a, 1);
    slc_bool(&lc, b, -1);
    return cz_cs_enforce_small(cs, &la, &lb, &lc, "enforce equal");
}

int cz_bits_alloc_u64_le(cz_cs_t *cs, cz_bool_t out[64], uint64_t value)
{
    for (unsigned i = 0; i < 64; i++) {
        CZ__TRY(cz_cs_pushf(cs, "bit %u", i));
        CZ__TRY(cz_bit_alloc(cs, &out[i], (value >> i) & 1));
        CZ__TRY(cz_cs_pop(cs));
    }
    return CZ_OK;
}
