/*
 * gadgets/num.h — allocated field elements in the circuit, bellpepper-exact.
 *
 * A cz_num_t is bellpepper's AllocatedNum (BPC gadgets/num.rs): a variable
 * and, when the cs wants values, its value (zero otherwise). The helpers of
 * rust-fil-proofs' gadgets/constraint.rs (equal, add, sub, difference) live
 * here too, as they are one-constraint operations on AllocatedNums.
 *
 * Layouts (allocation, then constraints, in this order):
 *   alloc / alloc_input  one variable, no constraint.
 *   inputize             alloc_input x, then x * 1 = num.
 *   to_bits_le           255 bits LE (each alloc + (1-b)*b = 0), then
 *                        0 * 0 = sum 2^i b_i - num (FACTS 4).
 *   to_bits_le_strict    the bits of r-1 from the top: bits under a run of
 *                        ones are plain bits, bits under a zero are
 *                        allocated conditionally on the k-ary AND of the
 *                        runs so far; then the same unpacking constraint.
 *   add / sub            alloc, then (a + b) * 1 = res / (res + b) * 1 = a.
 *   mul / square         alloc, then a * b = res.
 *   equal                a * 1 = b (RFP constraint::equal).
 *
 * Return values: CZ_OK or the cs's (sticky) error. Outputs are written only
 * on success. Thread-safety: as the cz_cs_t (one thread at a time).
 */
#ifndef CUZK_GADGETS_NUM_H
#define CUZK_GADGETS_NUM_H

#include "cs/cs.h"
#include "gadgets/boolean.h"

typedef struct {
    cz_var_t var;
    cz_fr value; /* meaningful only when cz_cs_needs_values(cs) */
} cz_num_t;

/* Number of bits of Fr (NUM_BITS) and of a packed chunk (CAPACITY). */
#define CZ_FR_NUM_BITS 255u
#define CZ_FR_CAPACITY 254u

/* AllocatedNum::alloc / alloc_input. |value| may be NULL in SHAPE/KEYGEN. */
int cz_num_alloc(cz_cs_t *cs, cz_num_t *out, const cz_fr *value);
int cz_num_alloc_input(cz_cs_t *cs, cz_num_t *out, const cz_fr *value);
/* AllocatedNum::inputize: a new input equal to |n|. */
int cz_num_inputize(cz_cs_t *cs, const cz_num_t *n);

/* AllocatedNum::to_bits_le: out[0..255) little-endian (all IS). */
int cz_num_to_bits_le(cz_cs_t *cs, cz_bool_t out[255], const cz_num_t *n);
/* AllocatedNum::to_bits_le_strict: out[0..255) little-endian, < r. */
int cz_num_to_bits_le_strict(cz_cs_t *cs, cz_bool_t out[255], const cz_num_t *n);
/* field_into_allocated_bits_le: the 255 bits of |value|, no unpacking
 * constraint (each bit in namespace "bit i"). */
int cz_bits_alloc_fr_le(cz_cs_t *cs, cz_bool_t out[255], const cz_fr *value);

/* AllocatedNum::add ("sum num", "addition constraint"); RFP constraint::add
 * has the same layout. */
int cz_num_add(cz_cs_t *cs, cz_num_t *out, const cz_num_t *a, const cz_num_t *b);
/* RFP constraint::sub: res = a - b, then (res + b) * 1 = a. */
int cz_num_sub(cz_cs_t *cs, cz_num_t *out, const cz_num_t *a, const cz_num_t *b);
int cz_num_mul(cz_cs_t *cs, cz_num_t *out, const cz_num_t *a, const cz_num_t *b);
int cz_num_square(cz_cs_t *cs, cz_num_t *out, const cz_num_t *a);
/* AllocatedNum::assert_nonzero: alloc inv, a * inv = 1. A zero value in a
 * value mode fails with CZ_EINVAL (bellpepper's DivisionByZero). */
int cz_num_assert_nonzero(cz_cs_t *cs, const cz_num_t *a);
/* AllocatedNum::conditionally_reverse: (b, a) if cond else (a, b). */
int cz_num_conditionally_reverse(cz_cs_t *cs, cz_num_t *c, cz_num_t *d, const cz_num_t *a,
                                 const cz_num_t *b, cz_bool_t cond);

/* RFP constraint::equal: a * 1 = b, named |name|. */
int cz_num_equal(cz_cs_t *cs, const cz_num_t *a, const cz_num_t *b, const char *name);

#endif /* CUZK_GADGETS_NUM_H */
