/*
 * kinds/porep/challenges.c — interactive PoRep challenges (RFP storage-proofs-
 * porep/src/stacked/vanilla/challenges.rs LayerChallenges::derive_porep and
 * bigint_to_challenge): never node 0.
 */
#include "kinds/porep/porep.h"

#include "hash/sha254.h"

int cz_porep_challenges(uint64_t *out, unsigned count, uint64_t nodes, const uint8_t replica_id[32],
                        const uint8_t seed[32], unsigned k)
{
    if (nodes <= 2 || nodes > (1ull << 32))
        return CZ_EINVAL;
    const uint64_t m = nodes - 1;
    for (unsigned i = 0; i < count; i++) {
        uint32_t j = (uint32_t)((uint64_t)count * k + i);
        uint8_t jle[4] = { (uint8_t)j, (uint8_t)(j >> 8), (uint8_t)(j >> 16), (uint8_t)(j >> 24) };
        uint8_t h[32];
        cz_sha256_ctx s;
        cz_sha256_init(&s);
        cz_sha256_update(&s, replica_id, 32);
        cz_sha256_update(&s, seed, 32);
        cz_sha256_update(&s, jle, 4);
        cz_sha256_final(&s, h);
        /* BigUint::from_bytes_le(h) % (nodes - 1), Horner from the top byte */
        uint64_t r = 0;
        for (int b = 31; b >= 0; b--)
            r = (r << 8 | h[b]) % m;
        out[i] = r + 1;
    }
    return CZ_OK;
}
