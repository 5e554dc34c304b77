/*
 * gadgets/uint64.h — 64-bit words in the circuit (rust-fil-proofs' UInt64).
 *
 * Source: rust-fil-proofs storage-proofs-core/src/gadgets/uint64.rs. 64
 * booleans, least significant first, and the value. Only constants,
 * allocation ("allocated bit i", 64 boolean constraints), bit conversions
 * and pack_into_input (multipack: one input, one constraint) exist, as in
 * RFP, where it carries the PoRep challenge.
 *
 * Return values: CZ_OK or the cs's (sticky) error. Thread-safety: as the cs.
 */
#ifndef CUZK_GADGETS_UINT64_H
#define CUZK_GADGETS_UINT64_H

#include <stdint.h>

#include "gadgets/boolean.h"

typedef struct {
    cz_bool_t bits[64]; /* least significant first */
    uint64_t value;
} cz_u64_t;

void cz_u64_const(cz_u64_t *out, uint64_t value);
int cz_u64_alloc(cz_cs_t *cs, cz_u64_t *out, uint64_t value);
void cz_u64_from_bits_le(cz_u64_t *out, const cz_bool_t bits[64]);
void cz_u64_from_bits_be(cz_u64_t *out, const cz_bool_t bits[64]);
void cz_u64_to_bits_le(cz_bool_t bits[64], const cz_u64_t *w);
void cz_u64_to_bits_be(cz_bool_t bits[64], const cz_u64_t *w);
/* UInt64::pack_into_input: multipack::pack_into_inputs of the 64 LE bits. */
int cz_u64_pack_into_input(cz_cs_t *cs, const cz_u64_t *w);

#endif /* CUZK_GADGETS_UINT64_H */
