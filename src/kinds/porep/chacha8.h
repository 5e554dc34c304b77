/*
 * kinds/porep/chacha8.h — the ChaCha8 stream as rand_chacha's ChaCha8Rng draws it.
 *
 * BucketGraph (RFP storage-proofs-core/src/drgraph.rs) seeds a
 * ChaCha8Rng::from_seed(seed) per node and draws u64s with rng.gen::<u64>().
 * rand_chacha keys the djb ChaCha state with the 32 seed bytes (eight LE
 * words), a 64-bit block counter starting at 0 in words 12-13 and stream id
 * 0 in words 14-15; a u64 is two consecutive keystream words, low word
 * first (rand_core BlockRng::next_u64). 8 rounds = 4 double rounds.
 *
 * The core is also exposed with a round count and the RFC 7539 (IETF)
 * layout so tests can check it against RFC 7539's ChaCha20 vectors and the
 * draft-strombergson-chacha-test-vectors ChaCha8 keystreams.
 *
 * Pure functions; a cz_chacha8_rng is used by one thread at a time.
 */
#ifndef CUZK_KINDS_POREP_CHACHA8_H
#define CUZK_KINDS_POREP_CHACHA8_H

#include <stdint.h>

/* One block: out = words after |rounds| rounds + the input state (16 LE words). */
void cz_chacha_block(uint32_t out[16], const uint32_t in[16], unsigned rounds);

/* Initial djb state: constants, key (LE words), 64-bit counter, 64-bit stream. */
void cz_chacha_init_djb(uint32_t st[16], const uint8_t key[32], uint64_t counter, uint64_t stream);

typedef struct {
    uint32_t state[16]; /* input state; words 12-13 = next block counter */
    uint32_t buf[16];   /* current keystream block */
    unsigned pos;       /* next word of buf (16 = empty) */
} cz_chacha8_rng;

/* ChaCha8Rng::from_seed(seed). */
void cz_chacha8_seed(cz_chacha8_rng *r, const uint8_t seed[32]);
uint32_t cz_chacha8_next_u32(cz_chacha8_rng *r);
/* rng.gen::<u64>(): low word first. */
uint64_t cz_chacha8_next_u64(cz_chacha8_rng *r);

#endif /* CUZK_KINDS_POREP_CHACHA8_H */
