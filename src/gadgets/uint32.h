/*
 * gadgets/uint32.h — 32-bit words in the circuit (bellpepper's UInt32).
 *
 * A cz_u32_t is 32 cz_bool_t, least significant bit first, and the word's
 * value (meaningful when every bit's value is; constants always). Source:
 * bellpepper src/gadgets/uint32.rs.
 *
 *   constant / from_bits / rotr / shr   no constraints (bits are copied;
 *                                       shr fills with Constant(false)).
 *   alloc        32 bits, "allocated bit i" (1 constraint each).
 *   xor          Boolean::xor per bit, "xor of bit i".
 *   sha256_ch / sha256_maj   Boolean::sha256_ch/maj per bit ("ch i", "maj i").
 *   addmany      2..10 operands: if every operand bit is a constant the sum
 *                is a constant (no constraint); otherwise allocate
 *                bitlen(n * (2^32 - 1)) result bits ("result bit i") and
 *                hand  sum(operands) = sum(result bits)  to the MultiEq
 *                (FACTS 4); the carry bits past 32 are dropped.
 *
 * Return values: CZ_OK, CZ_EINVAL (operand count outside 2..10), or the
 * cs's (sticky) error. Outputs may alias inputs. Thread-safety: as the cs.
 */
#ifndef CUZK_GADGETS_UINT32_H
#define CUZK_GADGETS_UINT32_H

#include <stdint.h>

#include "gadgets/boolean.h"
#include "gadgets/multieq.h"

typedef struct {
    cz_bool_t bits[32]; /* least significant first */
    uint32_t value;
} cz_u32_t;

void cz_u32_const(cz_u32_t *out, uint32_t value);
int cz_u32_alloc(cz_cs_t *cs, cz_u32_t *out, uint32_t value);

/* From / to 32 booleans: LE (bit 0 first) or BE (bit 31 first). */
void cz_u32_from_bits_le(cz_u32_t *out, const cz_bool_t bits[32]);
void cz_u32_from_bits_be(cz_u32_t *out, const cz_bool_t bits[32]);
void cz_u32_to_bits_le(cz_bool_t bits[32], const cz_u32_t *w);
void cz_u32_to_bits_be(cz_bool_t bits[32], const cz_u32_t *w);

void cz_u32_rotr(cz_u32_t *out, const cz_u32_t *w, unsigned by);
void cz_u32_shr(cz_u32_t *out, const cz_u32_t *w, unsigned by);

int cz_u32_xor(cz_cs_t *cs, cz_u32_t *out, const cz_u32_t *a, const cz_u32_t *b);
int cz_u32_sha256_ch(cz_cs_t *cs, cz_u32_t *out, const cz_u32_t *a, const cz_u32_t *b,
                     const cz_u32_t *c);
int cz_u32_sha256_maj(cz_cs_t *cs, cz_u32_t *out, const cz_u32_t *a, const cz_u32_t *b,
                      const cz_u32_t *c);

/* Sum of ops[0..n) mod 2^32 (2 <= n <= 10), equalities batched in |me|
 * (whose cs must be |cs|). */
int cz_u32_addmany(cz_cs_t *cs, cz_multieq_t *me, cz_u32_t *out, const cz_u32_t *ops, size_t n);

#endif /* CUZK_GADGETS_UINT32_H */
