/*
 * gadgets/sha256_gadget.h — SHA-256 in the circuit (bellperson's gadget).
 *
 * Source: bellpepper src/gadgets/sha256.rs. Bits are big-endian per 32-bit
 * word and per message byte, as FIPS 180-4 writes them: input bit 0 is the
 * most significant bit of the first byte; the digest comes out as 256
 * booleans, most significant bit of digest byte 0 first.
 *
 * Each compression wraps its additions in a MultiEq (FACTS 4): the message
 * schedule (48 x addmany of 4), per round the deferred e and a additions,
 * then h0..h7 (h0 and h4 finish the deferred sums), flushed when 254 bits
 * would be exceeded and once at the end of the compression. Constants fold:
 * a compression of constant bits with a constant state costs nothing.
 *
 * cz_sha256_gadget pads like SHA-256 (a constant 1 bit, constant zeros, the
 * 64-bit bit length as constants) and runs one compression per 512-bit block
 * in namespace "block i". Reference counts (bellpepper tests): one block of
 * 512 allocated bits compressed = 25,840 constraints; sha256 of 512 allocated
 * bits (two blocks) = 44,874.
 *
 * Return values: CZ_OK, CZ_EINVAL (a length that is not a multiple of 8),
 * CZ_ENOMEM, or the cs's (sticky) error. Thread-safety: as the cs.
 */
#ifndef CUZK_GADGETS_SHA256_GADGET_H
#define CUZK_GADGETS_SHA256_GADGET_H

#include <stddef.h>

#include "gadgets/uint32.h"

/* The IV as 8 constant words. */
void cz_sha256_gadget_iv(cz_u32_t iv[8]);

/* sha256_compression_function: out = compress(state, input[0..512)).
 * |out| may alias |state|. */
int cz_sha256_gadget_compress(cz_cs_t *cs, cz_u32_t out[8], const cz_bool_t input[512],
                              const cz_u32_t state[8]);

/* sha256_block_no_padding: compress one block from the IV; out[256] BE. */
int cz_sha256_gadget_block(cz_cs_t *cs, cz_bool_t out[256], const cz_bool_t input[512]);

/* sha256(input[0..nbits)), nbits % 8 == 0; out[256] BE. */
int cz_sha256_gadget(cz_cs_t *cs, cz_bool_t out[256], const cz_bool_t *input, size_t nbits);

#endif /* CUZK_GADGETS_SHA256_GADGET_H */
