/*
 * porep/blake2b.h — BLAKE2b (RFC 7693), unkeyed, for the Feistel round
 * function of the expander graph (RFP storage-proofs-core/src/crypto/
 * feistel.rs hashes 16 bytes with blake2b_simd::blake2b, 64-byte output).
 *
 * Pure functions; thread-safe.
 */
#ifndef CUZK_POREP_BLAKE2B_H
#define CUZK_POREP_BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

/* out[0..outlen) = BLAKE2b-(8*outlen)(data[0..len)), 1 <= outlen <= 64. */
void cz_blake2b(uint8_t *out, size_t outlen, const void *data, size_t len);

#endif /* CUZK_POREP_BLAKE2B_H */
