/*
 * kinds/porep/feistel.c — the 3-round Feistel permutation of the expander graph
 * (RFP storage-proofs-core/src/crypto/feistel.rs: precompute, permute,
 * invert_permute, encode, decode, feistel; FEISTEL_ROUNDS = 3, Index = u64,
 * so the round function takes the 16-byte branch: right BE8 || key BE8,
 * blake2b-512, first 8 digest bytes big-endian, masked by right_mask).
 */
#include "kinds/porep/graph.h"

#include "core/blake2b.h"

#define FEISTEL_ROUNDS 3

void cz_feistel_precompute(uint64_t num_elements, uint64_t *left_mask, uint64_t *right_mask,
                           unsigned *half_bits)
{
    uint64_t next_pow4 = 4;
    unsigned log4 = 1;
    while (next_pow4 < num_elements) {
        next_pow4 *= 4;
        log4++;
    }
    *left_mask = ((1ull << log4) - 1) << log4;
    *right_mask = (1ull << log4) - 1;
    *half_bits = log4;
}

/* F(R_i, K_i) */
static uint64_t round_fn(uint64_t right, uint64_t key, uint64_t right_mask)
{
    uint8_t data[16], hash[64];
    for (int i = 0; i < 8; i++) {
        data[i] = (uint8_t)(right >> (56 - 8 * i));
        data[8 + i] = (uint8_t)(key >> (56 - 8 * i));
    }
    cz_blake2b(hash, sizeof hash, data, sizeof data);
    uint64_t r = 0;
    for (int i = 0; i < 8; i++)
        r = r << 8 | hash[i];
    return r & right_mask;
}

uint64_t cz_feistel_encode(uint64_t index, const uint64_t keys[4], uint64_t left_mask,
                           uint64_t right_mask, unsigned half_bits)
{
    uint64_t left = (index & left_mask) >> half_bits;
    uint64_t right = index & right_mask;
    for (int i = 0; i < FEISTEL_ROUNDS; i++) {
        /* (L, R) <- (R, L ^ F(R, K_i)) */
        uint64_t l = right;
        uint64_t r = left ^ round_fn(right, keys[i], right_mask);
        left = l;
        right = r;
    }
    return left << half_bits | right;
}

uint64_t cz_feistel_decode(uint64_t index, const uint64_t keys[4], uint64_t left_mask,
                           uint64_t right_mask, unsigned half_bits)
{
    uint64_t left = (index & left_mask) >> half_bits;
    uint64_t right = index & right_mask;
    for (int i = FEISTEL_ROUNDS - 1; i >= 0; i--) {
        /* (L, R) <- (R ^ F(L, K_i), L) */
        uint64_t l = right ^ round_fn(left, keys[i], right_mask);
        uint64_t r = left;
        left = l;
        right = r;
    }
    return left << half_bits | right;
}

uint64_t cz_feistel_permute(uint64_t num_elements, uint64_t index, const uint64_t keys[4],
                            uint64_t left_mask, uint64_t right_mask, unsigned half_bits)
{
    uint64_t u = cz_feistel_encode(index, keys, left_mask, right_mask, half_bits);
    while (u >= num_elements) /* cycle-walk back into range */
        u = cz_feistel_encode(u, keys, left_mask, right_mask, half_bits);
    return u;
}

uint64_t cz_feistel_invert(uint64_t num_elements, uint64_t index, const uint64_t keys[4],
                           uint64_t left_mask, uint64_t right_mask, unsigned half_bits)
{
    uint64_t u = cz_feistel_decode(index, keys, left_mask, right_mask, half_bits);
    while (u >= num_elements)
        u = cz_feistel_decode(u, keys, left_mask, right_mask, half_bits);
    return u;
}
