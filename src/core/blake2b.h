/*
 * core/blake2b.h — BLAKE2b (RFC 7693). Users: the Feistel round function
 * of the expander graph (RFP storage-proofs-core/src/crypto/feistel.rs
 * hashes 16 bytes with blake2b_simd::blake2b, 64-byte output, porep/
 * feistel.c); the keyed BLAKE2b-256 of the synthetic challenges (porep/
 * challenges_synth.c); and, streamed (cz_blake2b_init/update/final), the
 * digest of a params file too big to hold (groth16/manifest.h).
 *
 * Pure functions; thread-safe (a cz_blake2b_ctx belongs to one caller).
 */
#ifndef CUZK_CORE_BLAKE2B_H
#define CUZK_CORE_BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

/* out[0..outlen) = BLAKE2b-(8*outlen)(data[0..len)), 1 <= outlen <= 64. */
void cz_blake2b(uint8_t *out, size_t outlen, const void *data, size_t len);

typedef struct {
    uint64_t h[8];
    uint64_t t;       /* bytes compressed so far */
    uint8_t buf[128]; /* pending bytes, the last block is kept until final */
    size_t n, outlen;
} cz_blake2b_ctx;

/* Unkeyed BLAKE2b-(8*outlen), 1 <= outlen <= 64. */
void cz_blake2b_init(cz_blake2b_ctx *c, size_t outlen);
/* Keyed (RFC 7693 3.3: key length in the parameter block, the key padded
 * to one 128-byte block first), 1 <= keylen <= 64: blake2b_simd
 * Params::key, as RFP's synthetic challenges use it. */
void cz_blake2b_init_key(cz_blake2b_ctx *c, size_t outlen, const void *key, size_t keylen);
void cz_blake2b_update(cz_blake2b_ctx *c, const void *data, size_t len);
/* Writes outlen bytes; |c| must be initialized again before reuse. */
void cz_blake2b_final(cz_blake2b_ctx *c, uint8_t *out);

#endif /* CUZK_POREP_BLAKE2B_H */
