/*
 * gadgets/num.c — AllocatedNum and RFP's one-constraint helpers (see num.h).
 *
 * Sources: bellpepper-core src/gadgets/num.rs (alloc, inputize, to_bits_le,
 * to_bits_le_strict, add, mul, square, assert_nonzero,
 * conditionally_reverse), src/gadgets/boolean.rs
 * (field_into_allocated_bits_le), rust-fil-proofs
 * storage-proofs-core/src/gadgets/constraint.rs (equal, add, sub).
 */
#include "gadgets/num.h"

#include "gadgets/gadget_int.h"

/* Value of |v| when values are wanted, else zero (never read then). */
static const cz_fr *val_or_zero(const cz_cs_t *cs, const cz_fr *v)
{
    return cz_cs_needs_values(cs) && v ? v : &CZ_FR_ZERO;
}

int cz_num_alloc(cz_cs_t *cs, cz_num_t *out, const cz_fr *value)
{
    /* A NULL value in a value mode is bellpepper's AssignmentMissing. */
    const cz_fr *v = val_or_zero(cs, value);
    cz_var_t var;
    CZ__TRY(cz_cs_alloc(cs, &var, cz_cs_needs_values(cs) ? value : v));
    out->var = var;
    out->value = *v;
    return CZ_OK;
}

int cz_num_alloc_input(cz_cs_t *cs, cz_num_t *out, const cz_fr *value)
{
    const cz_fr *v = val_or_zero(cs, value);
    cz_var_t var;
    CZ__TRY(cz_cs_alloc_input(cs, &var, cz_cs_needs_values(cs) ? value : v));
    out->var = var;
    out->value = *v;
    return CZ_OK;
}

int cz_num_inputize(cz_cs_t *cs, const cz_num_t *n)
{
    /* BPC inputize: alloc_input, then input * 1 = var (FACTS 4). */
    cz_var_t in;
    CZ__TRY(cz_cs_alloc_input(cs, &in, &n->value));
    cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
    cz_lc_add(&a, in);
    cz_lc_add(&b, CZ_VAR_ONE);
    cz_lc_add(&c, n->var);
    return cz__enforce_free(cs, &a, &b, &c, "enforce input is correct");
}

/* Bit |i| of the canonical value of |v|. */
static bool fr_bit(const uint8_t repr[32], unsigned i)
{
    return (repr[i >> 3] >> (i & 7)) & 1;
}

int cz_bits_alloc_fr_le(cz_cs_t *cs, cz_bool_t out[255], const cz_fr *value)
{
    uint8_t repr[32] = { 0 };
    if (cz_cs_needs_values(cs) && value)
        cz_fr_to_repr(repr, value);
    for (unsigned i = 0; i < CZ_FR_NUM_BITS; i++) {
        CZ__TRY(cz_cs_pushf(cs, "bit %u", i));
        CZ__TRY(cz_bit_alloc(cs, &out[i], fr_bit(repr, i)));
        CZ__TRY(cz_cs_pop(cs));
    }
    return CZ_OK;
}

/* 0 * 0 = sum 2^i bits[i] - n, bits little-endian (the unpacking constraint). */
static int enforce_unpacking(cz_cs_t *cs, const cz_bool_t *bits, const cz_num_t *n)
{
    cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
    cz_fr coeff = CZ_FR_ONE;
    for (unsigned i = 0; i < CZ_FR_NUM_BITS; i++) {
        cz_lc_add_term(&c, &coeff, bits[i].var);
        cz_fr_add(&coeff, &coeff, &coeff);
    }
    cz_lc_sub(&c, n->var);
    return cz__enforce_free(cs, &a, &b, &c, "unpacking constraint");
}

int cz_num_to_bits_le(cz_cs_t *cs, cz_bool_t out[255], const cz_num_t *n)
{
    CZ__TRY(cz_bits_alloc_fr_le(cs, out, &n->value));
    return enforce_unpacking(cs, out, n);
}

/* kary_and inside to_bits_le_strict: fold AND left to right ("and i"). */
static int kary_and(cz_cs_t *cs, cz_bool_t *out, const cz_bool_t *v, size_t n)
{
    cz_bool_t cur = v[0];
    for (size_t i = 1; i < n; i++) {
        CZ__TRY(cz_cs_pushf(cs, "and %zu", i));
        CZ__TRY(cz_bit_and(cs, &cur, cur, v[i]));
        CZ__TRY(cz_cs_pop(cs));
    }
    *out = cur;
    return CZ_OK;
}

int cz_num_to_bits_le_strict(cz_cs_t *cs, cz_bool_t out[255], const cz_num_t *n)
{
    uint8_t a[32] = { 0 }, rm1[32];
    cz_fr minus_one;
    cz_fr_neg(&minus_one, &CZ_FR_ONE);
    cz_fr_to_repr(rm1, &minus_one); /* r - 1: bit 255 is 0 */
    if (cz_cs_needs_values(cs))
        cz_fr_to_repr(a, &n->value);

    /* Runs of ones of r - 1 from the top (BPC to_bits_le_strict); the
     * longest run of r - 1 is 32 ones, plus the previous run's AND. */
    cz_bool_t run[CZ_FR_NUM_BITS + 1], last_run = { 0 };
    size_t run_len = 0;
    bool have_last = false;
    unsigned i = 0;
    for (int pos = (int)CZ_FR_NUM_BITS - 1; pos >= 0; pos--, i++) {
        bool abit = fr_bit(a, (unsigned)pos);
        cz_bool_t *bit = &out[pos];
        if (fr_bit(rm1, (unsigned)pos)) {
            CZ__TRY(cz_cs_pushf(cs, "bit %u", i));
            CZ__TRY(cz_bit_alloc(cs, bit, abit));
            CZ__TRY(cz_cs_pop(cs));
            run[run_len++] = *bit;
            continue;
        }
        if (run_len) {
            if (have_last)
                run[run_len++] = last_run;
            CZ__TRY(cz_cs_pushf(cs, "run ending at %u", i));
            CZ__TRY(kary_and(cs, &last_run, run, run_len));
            CZ__TRY(cz_cs_pop(cs));
            have_last = true;
            run_len = 0;
        }
        CZ__TRY(cz_cs_pushf(cs, "bit %u", i));
        CZ__TRY(cz_bit_alloc_cond(cs, bit, abit, last_run));
        CZ__TRY(cz_cs_pop(cs));
    }
    return enforce_unpacking(cs, out, n);
}

/* Allocate *out with value |v| (computed by the caller, zero when unused). */
static int alloc_value(cz_cs_t *cs, cz_num_t *out, const cz_fr *v)
{
    cz_var_t var;
    CZ__TRY(cz_cs_alloc(cs, &var, v));
    out->var = var;
    out->value = *v;
    return CZ_OK;
}

int cz_num_add(cz_cs_t *cs, cz_num_t *out, const cz_num_t *a, const cz_num_t *b)
{
    cz_fr v;
    cz_fr_add(&v, &a->value, &b->value);
    cz_num_t r;
    CZ__TRY(alloc_value(cs, &r, &v));
    cz_lc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    cz_lc_add(&la, a->var);
    cz_lc_add(&la, b->var);
    cz_lc_add(&lb, CZ_VAR_ONE);
    cz_lc_add(&lc, r.var);
    *out = r;
    return cz__enforce_free(cs, &la, &lb, &lc, "addition constraint");
}

int cz_num_sub(cz_cs_t *cs, cz_num_t *out, const cz_num_t *a, const cz_num_t *b)
{
    cz_fr v;
    cz_fr_sub(&v, &a->value, &b->value);
    cz_num_t r;
    CZ__TRY(alloc_value(cs, &r, &v));
    /* RFP constraint::difference: (difference + b) * 1 = a */
    cz_lc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    cz_lc_add(&la, r.var);
    cz_lc_add(&la, b->var);
    cz_lc_add(&lb, CZ_VAR_ONE);
    cz_lc_add(&lc, a->var);
    *out = r;
    return cz__enforce_free(cs, &la, &lb, &lc, "subtraction constraint");
}

static int mul_common(cz_cs_t *cs, cz_num_t *out, const cz_num_t *a, const cz_num_t *b,
                      const char *name)
{
    cz_fr v;
    cz_fr_mul(&v, &a->value, &b->value);
    cz_num_t r;
    CZ__TRY(alloc_value(cs, &r, &v));
    cz_lc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    cz_lc_add(&la, a->var);
    cz_lc_add(&lb, b->var);
    cz_lc_add(&lc, r.var);
    *out = r;
    return cz__enforce_free(cs, &la, &lb, &lc, name);
}

int cz_num_mul(cz_cs_t *cs, cz_num_t *out, const cz_num_t *a, const cz_num_t *b)
{
    return mul_common(cs, out, a, b, "multiplication constraint");
}

int cz_num_square(cz_cs_t *cs, cz_num_t *out, const cz_num_t *a)
{
    return mul_common(cs, out, a, a, "squaring constraint");
}

int cz_num_assert_nonzero(cz_cs_t *cs, const cz_num_t *a)
{
    cz_fr inv = CZ_FR_ZERO;
    if (cz_cs_needs_values(cs)) {
        if (cz_fr_is_zero(&a->value))
            return CZ_EINVAL;
        cz_fr_inverse(&inv, &a->value);
    }
    cz_var_t vinv;
    CZ__TRY(cz_cs_alloc(cs, &vinv, &inv));
    cz_lc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    cz_lc_add(&la, a->var);
    cz_lc_add(&lb, vinv);
    cz_lc_add(&lc, CZ_VAR_ONE);
    return cz__enforce_free(cs, &la, &lb, &lc, "nonzero assertion constraint");
}

int cz_num_conditionally_reverse(cz_cs_t *cs, cz_num_t *c, cz_num_t *d, const cz_num_t *a,
                                 const cz_num_t *b, cz_bool_t cond)
{
    const cz_num_t *x = a, *y = b;
    cz_num_t rc_, rd;
    cz_lc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    int rc;

    /* c = cond ? b : a; (a - b) * cond = a - c */
    CZ__TRY(cz_cs_push(cs, "conditional reversal result 1"));
    CZ__TRY(alloc_value(cs, &rc_, cond.value ? &b->value : &a->value));
    CZ__TRY(cz_cs_pop(cs));
    cz_lc_add(&la, x->var);
    cz_lc_sub(&la, y->var);
    cz_bool_lc_add(&lb, cond, &CZ_FR_ONE);
    cz_lc_add(&lc, x->var);
    cz_lc_sub(&lc, rc_.var);
    if ((rc = cz__enforce_free(cs, &la, &lb, &lc, "first conditional reversal")))
        return rc;

    /* d = cond ? a : b; (b - a) * cond = b - d */
    CZ__TRY(cz_cs_push(cs, "conditional reversal result 2"));
    CZ__TRY(alloc_value(cs, &rd, cond.value ? &a->value : &b->value));
    CZ__TRY(cz_cs_pop(cs));
    cz_lc_add(&la, y->var);
    cz_lc_sub(&la, x->var);
    cz_bool_lc_add(&lb, cond, &CZ_FR_ONE);
    cz_lc_add(&lc, y->var);
    cz_lc_sub(&lc, rd.var);
    if ((rc = cz__enforce_free(cs, &la, &lb, &lc, "second conditional reversal")))
        return rc;
    *c = rc_;
    *d = rd;
    return CZ_OK;
}

int cz_num_equal(cz_cs_t *cs, const cz_num_t *a, const cz_num_t *b, const char *name)
{
    cz_lc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    cz_lc_add(&la, a->var);
    cz_lc_add(&lb, CZ_VAR_ONE);
    cz_lc_add(&lc, b->var);
    return cz__enforce_free(cs, &la, &lb, &lc, name);
}
