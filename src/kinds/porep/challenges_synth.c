/*
 * kinds/porep/challenges_synth.c — the PoRep challenges of the Synthetic (FIP-0059)
 * and Non-Interactive (FIP-0092) seal proofs, and the dispatch by registered
 * proof. Source: rust-fil-proofs storage-proofs-porep/src/stacked/vanilla/
 * challenges.rs (SynthChallengeGenerator, NiChallenges; bigint_to_challenge
 * as for the interactive ones: a 32-byte LE integer mod (nodes - 1), + 1).
 *
 * Synthetic: N = min(nodes, 2^18) synthetic challenges; challenge t is the
 * 32 bytes at offset 32 t of ChaCha20_gen's keystream. Partition k's
 * challenge i is synthetic challenge (u32 LE at offset 4 (k n + i) of
 * ChaCha20_select's keystream) mod N. Both ChaCha20s are the IETF variant
 * (RustCrypto chacha20::ChaCha20: 32-bit block counter from 0, 96-bit nonce
 * "synth-porep\0"), keyed with BLAKE2b-256 keyed by
 *   gen:    "filecoin.io|PoRep|1|Synthetic|1|Generation" over replica_id || comm_r
 *   select: "filecoin.io|PoRep|1|Synthetic|1|Selection"  over replica_id || seed.
 * (An older RFP drew two challenges per 64-byte block and 16 indexes per
 * block, seeking by block: the same keystream offsets, the same values.)
 *
 * Non-interactive: challenge j = k n + i is sha256("filecoin.io|PoRep|1|
 * NonInteractive|1" || replica_id || comm_r || j u32 LE) mapped as above.
 *
 * Pure functions, thread-safe.
 */
#include "kinds/porep/porep.h"

#include <string.h>

#include "hash/sha254.h"
#include "core/blake2b.h"
#include "kinds/porep/chacha8.h"

#define SYNTH_MAX (1u << 18) /* DEFAULT_SYNTH_CHALLENGE_COUNT */

static const char SYNTH_GEN_KEY[] = "filecoin.io|PoRep|1|Synthetic|1|Generation";
static const char SYNTH_SELECT_KEY[] = "filecoin.io|PoRep|1|Synthetic|1|Selection";
static const char NI_TAG[] = "filecoin.io|PoRep|1|NonInteractive|1";
static const uint8_t SYNTH_NONCE[12] = { 's', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0 };

/* bigint_to_challenge: LE integer mod (nodes - 1), + 1 (never node 0). */
static uint64_t to_challenge(const uint8_t h[32], uint64_t nodes)
{
    const uint64_t m = nodes - 1;
    uint64_t r = 0;
    for (int b = 31; b >= 0; b--)
        r = (r << 8 | h[b]) % m;
    return r + 1;
}

/* The ChaCha20 key: BLAKE2b-256 keyed by |tag| over a || b. */
static void chacha_key(uint8_t key[32], const char *tag, const uint8_t a[32], const uint8_t b[32])
{
    cz_blake2b_ctx c;
    cz_blake2b_init_key(&c, 32, tag, strlen(tag));
    cz_blake2b_update(&c, a, 32);
    cz_blake2b_update(&c, b, 32);
    cz_blake2b_final(&c, key);
}

/* out[0..len) = the IETF ChaCha20 keystream of |key| (SYNTH_NONCE) from
 * byte |offset| (offset + len <= 2^38: the 32-bit block counter). */
static void keystream(uint8_t *out, size_t len, const uint8_t key[32], uint64_t offset)
{
    uint32_t st[16], blk[16];
    cz_chacha_init_djb(st, key, 0, 0);
    for (int w = 0; w < 3; w++)
        st[13 + w] = (uint32_t)SYNTH_NONCE[4 * w] | (uint32_t)SYNTH_NONCE[4 * w + 1] << 8 |
                     (uint32_t)SYNTH_NONCE[4 * w + 2] << 16 |
                     (uint32_t)SYNTH_NONCE[4 * w + 3] << 24;
    while (len) {
        st[12] = (uint32_t)(offset / 64);
        cz_chacha_block(blk, st, 20);
        unsigned at = (unsigned)(offset % 64);
        for (; at < 64 && len; at++, len--, offset++)
            *out++ = (uint8_t)(blk[at / 4] >> (8 * (at % 4)));
    }
}

int cz_porep_challenges_synthetic(uint64_t *out, unsigned count, uint64_t nodes,
                                  const uint8_t replica_id[32], const uint8_t comm_r[32],
                                  const uint8_t seed[32], unsigned k)
{
    if (nodes <= 2 || nodes > (1ull << 32))
        return CZ_EINVAL;
    const uint64_t n_synth = nodes < SYNTH_MAX ? nodes : SYNTH_MAX;
    uint8_t gen[32], sel[32];
    chacha_key(gen, SYNTH_GEN_KEY, replica_id, comm_r);
    chacha_key(sel, SYNTH_SELECT_KEY, replica_id, seed);
    for (unsigned i = 0; i < count; i++) {
        uint8_t idx[4], c[32];
        keystream(idx, 4, sel, 4 * ((uint64_t)k * count + i));
        uint64_t t = ((uint64_t)idx[0] | (uint64_t)idx[1] << 8 | (uint64_t)idx[2] << 16 |
                      (uint64_t)idx[3] << 24) %
                     n_synth;
        keystream(c, 32, gen, 32 * t);
        out[i] = to_challenge(c, nodes);
    }
    return CZ_OK;
}

int cz_porep_challenges_ni(uint64_t *out, unsigned count, uint64_t nodes,
                           const uint8_t replica_id[32], const uint8_t comm_r[32], unsigned k)
{
    if (nodes <= 2 || nodes > (1ull << 32))
        return CZ_EINVAL;
    for (unsigned i = 0; i < count; i++) {
        uint32_t j = (uint32_t)((uint64_t)count * k + i);
        uint8_t jle[4] = { (uint8_t)j, (uint8_t)(j >> 8), (uint8_t)(j >> 16), (uint8_t)(j >> 24) };
        uint8_t h[32];
        cz_sha256_ctx s;
        cz_sha256_init(&s);
        cz_sha256_update(&s, NI_TAG, strlen(NI_TAG));
        cz_sha256_update(&s, replica_id, 32);
        cz_sha256_update(&s, comm_r, 32);
        cz_sha256_update(&s, jle, 4);
        cz_sha256_final(&s, h);
        out[i] = to_challenge(h, nodes);
    }
    return CZ_OK;
}

int cz_porep_proof_challenges(uint64_t *out, unsigned count, uint64_t nodes,
                              const cz_porep_proof_t *proof, const uint8_t replica_id[32],
                              const uint8_t comm_r[32], const uint8_t seed[32], unsigned k)
{
    switch (proof->challenges) {
    case CZ_POREP_SYNTHETIC:
        return cz_porep_challenges_synthetic(out, count, nodes, replica_id, comm_r, seed, k);
    case CZ_POREP_NON_INTERACTIVE:
        return cz_porep_challenges_ni(out, count, nodes, replica_id, comm_r, k);
    case CZ_POREP_INTERACTIVE:
    default: return cz_porep_challenges(out, count, nodes, replica_id, seed, k);
    }
}
