/*
 * hash/sha254.h — SHA-256, Filecoin's SHA254, and tree_d (comm_d) roots.
 *
 * SHA-256 is FIPS 180-4. The compression function has two implementations:
 * portable C, and the x86 SHA extensions (SHA-NI), picked at run time from
 * CPUID; both give identical results (tests compare them).
 *
 * SHA254 (FACTS 5) is SHA-256 with the two top bits of the last byte
 * cleared (digest[31] &= 0x3f), so the digest read as a little-endian
 * integer is a valid Fr element. A tree_d interior node is
 * SHA254(left32 || right32); comm_d is the root of the binary tree whose
 * leaves are the sector's consecutive 32-byte chunks.
 *
 * Thread-safety: every function is thread-safe; a cz_sha256_ctx is used by
 * one thread at a time. Nothing allocates except cz_sha254_comm_d().
 */
#ifndef CUZK_HASH_SHA254_H
#define CUZK_HASH_SHA254_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"

/* ---- SHA-256 ------------------------------------------------------------ */

typedef struct {
    uint32_t h[8];   /* chaining state */
    uint64_t nbytes; /* message length so far */
    uint8_t buf[64]; /* partial block */
    size_t nbuf;     /* bytes in buf, < 64 */
} cz_sha256_ctx;

void cz_sha256_init(cz_sha256_ctx *s);
void cz_sha256_update(cz_sha256_ctx *s, const void *data, size_t len);
/* Write the digest; |s| must be re-initialised before reuse. */
void cz_sha256_final(cz_sha256_ctx *s, uint8_t out[32]);
/* One-shot digest of data[0..len). */
void cz_sha256(uint8_t out[32], const void *data, size_t len);

/* Compress |n| consecutive 64-byte blocks into |state|. */
typedef void cz_sha256_blocks_fn(uint32_t state[8], const uint8_t *blocks, size_t n);
/* Fastest implementation available on this CPU (resolved once). */
void cz_sha256_blocks(uint32_t state[8], const uint8_t *blocks, size_t n);
/* Portable C implementation (always available). */
void cz_sha256_blocks_portable(uint32_t state[8], const uint8_t *blocks, size_t n);
/* Whether this build and CPU support SHA-NI (x86 SHA + SSE4.1 + SSSE3). */
bool cz_sha256_shani_available(void);
/* SHA-NI implementation; call only when cz_sha256_shani_available() is
 * true (elsewhere, and in non-x86 builds, it falls back to portable C). */
void cz_sha256_blocks_shani(uint32_t state[8], const uint8_t *blocks, size_t n);

/* ---- SHA254 and tree_d --------------------------------------------------- */

/* SHA254(data[0..len)) = SHA-256 with out[31] &= 0x3f (FACTS 5). */
void cz_sha254(uint8_t out[32], const void *data, size_t len);
/* tree_d interior node: SHA254(left || right). out may alias left or right. */
void cz_sha254_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32]);

/*
 * comm_d = root of the SHA254 binary tree over data[0..len), leaves being
 * its 32-byte chunks. |len| must be a power of two >= 64 (CZ_EINVAL
 * otherwise). Work is spread over ctx's pool (ctx may be NULL: runs on the
 * calling thread); allocates about len/64 + 64 KiB per pool thread
 * (CZ_ENOMEM). |data| is only read.
 */
int cz_sha254_comm_d(cz_ctx_t *ctx, uint8_t out[32], const uint8_t *data, size_t len);

/*
 * comm_d of |sector_size| zero bytes without materialising anything: the
 * all-zero subtrees of a level are equal, so each level costs one hash
 * (z_0 = 0^32, z_{k+1} = node(z_k, z_k)). |sector_size| must be a power of
 * two >= 64 (CZ_EINVAL otherwise).
 */
int cz_sha254_comm_d_zero(uint8_t out[32], uint64_t sector_size);

#endif /* CUZK_HASH_SHA254_H */
