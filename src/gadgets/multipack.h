/*
 * gadgets/multipack.h — packing booleans into field elements (bellpepper's
 * multipack) and the native side of it.
 *
 * Source: bellpepper src/gadgets/multipack.rs. Bits are little-endian within
 * a chunk: chunk value = sum_i 2^i bit_i over at most CAPACITY = 254 bits.
 *
 *   cz_pack_bits         the first min(n, 254) bits: one alloc ("input"),
 *                        then  lc * 1 = num  ("packing constraint").
 *   cz_pack_into_inputs  per 254-bit chunk i: alloc_input ("input i"), then
 *                        lc * 1 = input  ("packing constraint i").
 *   cz_compute_multipacking  the input values the verifier passes for the
 *                        same bits (one Fr per chunk).
 *
 * Return values: CZ_OK or the cs's (sticky) error. Thread-safety: as the cs;
 * the native helpers are pure.
 */
#ifndef CUZK_GADGETS_MULTIPACK_H
#define CUZK_GADGETS_MULTIPACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gadgets/num.h"

int cz_pack_bits(cz_cs_t *cs, cz_num_t *out, const cz_bool_t *bits, size_t n);
int cz_pack_into_inputs(cz_cs_t *cs, const cz_bool_t *bits, size_t n);

/* Number of field elements n bits pack into: ceil(n / 254). */
static inline size_t cz_multipack_count(size_t n)
{
    return (n + CZ_FR_CAPACITY - 1) / CZ_FR_CAPACITY;
}
/* out[0 .. cz_multipack_count(n)) = the packed chunks of bits[0..n). */
void cz_compute_multipacking(cz_fr *out, const bool *bits, size_t n);

/* Bytes to bits: most significant bit of each byte first (bytes_to_bits) or
 * least significant first (bytes_to_bits_le). out has 8 * n entries. */
void cz_bytes_to_bits(bool *out, const uint8_t *bytes, size_t n);
void cz_bytes_to_bits_le(bool *out, const uint8_t *bytes, size_t n);

#endif /* CUZK_GADGETS_MULTIPACK_H */
