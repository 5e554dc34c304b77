/*
 * gadgets/boolean.h — booleans in the circuit, bellpepper-exact.
 *
 * A cz_bool_t is bellpepper's `Boolean` (BPC gadgets/boolean.rs): a constant
 * (no variable), an allocated bit viewed as is, or an allocated bit viewed
 * negated. `value` is the boolean's own value (already negated for NOT);
 * it is meaningful for constants always and for bits only when the cs
 * wants values (cz_cs_needs_values), otherwise it is 0 and ignored.
 *
 * Every operation allocates and enforces in exactly bellpepper's order and
 * folds constants and negations the way bellpepper does, so the R1CS is the
 * same row for row:
 *   - cz_bit_alloc:  alloc "boolean", then (1 - b) * b = 0.
 *   - xor / and / and_not / nor of two allocated bits: alloc the result,
 *     then one constraint (2a * b = a + b - c; a * b = c; a * (1 - b) = c;
 *     (1 - a) * (1 - b) = c).
 *   - cz_bool_xor / cz_bool_and / cz_bool_or fold Constant and Not first
 *     (BPC Boolean::xor/and/or); sha256 `ch` and `maj` fold constants per
 *     bellpepper's match arms and otherwise allocate `ch` (1 constraint) or
 *     `maj` then `b AND c` (2 constraints).
 *
 * Names of constraints follow bellpepper's annotations; they matter only in
 * CZ_CS_CHECK messages. Return values: CZ_OK or the cs's (sticky) error.
 * Thread-safety: as the cz_cs_t they write to (one thread at a time).
 */
#ifndef CUZK_GADGETS_BOOLEAN_H
#define CUZK_GADGETS_BOOLEAN_H

#include <stdbool.h>
#include <stdint.h>

#include "cs/cs.h"

typedef enum {
    CZ_BOOL_CONST = 0, /* Boolean::Constant(value) */
    CZ_BOOL_IS = 1,    /* Boolean::Is(bit): value = bit */
    CZ_BOOL_NOT = 2,   /* Boolean::Not(bit): value = !bit */
} cz_bool_kind_t;

typedef struct {
    cz_var_t var;  /* the allocated bit (unused for constants) */
    uint8_t kind;  /* cz_bool_kind_t */
    uint8_t value; /* 0 or 1: the boolean's value */
} cz_bool_t;

static inline cz_bool_t cz_bool_const(bool v)
{
    return (cz_bool_t){ CZ_VAR_ONE, CZ_BOOL_CONST, (uint8_t)(v ? 1 : 0) };
}
static inline bool cz_bool_is_const(cz_bool_t b)
{
    return b.kind == CZ_BOOL_CONST;
}
/* Boolean::not: flips a constant, swaps Is and Not (no constraint). */
static inline cz_bool_t cz_bool_not(cz_bool_t b)
{
    b.value ^= 1;
    if (b.kind != CZ_BOOL_CONST)
        b.kind = b.kind == CZ_BOOL_IS ? CZ_BOOL_NOT : CZ_BOOL_IS;
    return b;
}
/* Value of the underlying allocated bit (AllocatedBit::get_value). */
static inline bool cz_bool_bit_value(cz_bool_t b)
{
    return b.kind == CZ_BOOL_NOT ? !b.value : b.value;
}

/* lc += coeff * b (Boolean::lc): constants add coeff*ONE or nothing, Not adds
 * coeff*ONE - coeff*bit. cz_bool_lc_sub subtracts the same. */
void cz_bool_lc_add(cz_lc_t *lc, cz_bool_t b, const cz_fr *coeff);
void cz_bool_lc_sub(cz_lc_t *lc, cz_bool_t b, const cz_fr *coeff);

/* ---- AllocatedBit --------------------------------------------------------- */

/* AllocatedBit::alloc: *out = Is(new bit with |value|). */
int cz_bit_alloc(cz_cs_t *cs, cz_bool_t *out, bool value);
/* AllocatedBit::alloc_conditionally: (1 - must_be_false - a) * a = 0.
 * |must_be_false| must be an allocated bit (IS). */
int cz_bit_alloc_cond(cz_cs_t *cs, cz_bool_t *out, bool value, cz_bool_t must_be_false);
/* AllocatedBit::xor/and/and_not/nor on the underlying bits of |a| and |b|
 * (their kinds are ignored); *out is IS. */
int cz_bit_xor(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b);
int cz_bit_and(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b);
int cz_bit_and_not(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b);
int cz_bit_nor(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b);

/* ---- Boolean ---------------------------------------------------------------- */

int cz_bool_xor(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b);
int cz_bool_and(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b);
/* not(and(ns "not and (not a) (not b)", not a, not b)). */
int cz_bool_or(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b);
/* (a and b) xor ((not a) and c), bellpepper's folding (BPC sha256_ch). */
int cz_bool_sha256_ch(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b, cz_bool_t c);
/* (a and b) xor (a and c) xor (b and c), bellpepper's folding (sha256_maj). */
int cz_bool_sha256_maj(cz_cs_t *cs, cz_bool_t *out, cz_bool_t a, cz_bool_t b, cz_bool_t c);

/*
 * Boolean::enforce_equal: one constraint 0 * 0 = (a - b) in the folded form
 * bellpepper writes; two constants enforce nothing and return CZ_OK when
 * equal, CZ_EUNSAT (bellpepper's Unsatisfiable; not sticky) otherwise.
 */
int cz_bool_enforce_equal(cz_cs_t *cs, cz_bool_t a, cz_bool_t b);

/*
 * u64_into_boolean_vec_le: 64 allocated bits of |value|, least significant
 * first, each in namespace "bit i".
 */
int cz_bits_alloc_u64_le(cz_cs_t *cs, cz_bool_t out[64], uint64_t value);

#endif /* CUZK_GADGETS_BOOLEAN_H */
