/*
 * kinds/porep/chacha8.c — ChaCha core (any even round count) and the ChaCha8Rng
 * word stream (see chacha8.h for the layout and its sources).
 */
#include "kinds/porep/chacha8.h"

#include <string.h>

#define ROTL32(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
/* quarter round (RFC 7539 2.1) */
/* laid out by hand: */
/* clang-format off */
#define QR(a, b, c, d)                                                        \
    do {                                                                      \
        a += b; d ^= a; d = ROTL32(d, 16);                                    \
        c += d; b ^= c; b = ROTL32(b, 12);                                    \
        a += b; d ^= a; d = ROTL32(d, 8);                                     \
        c += d; b ^= c; b = ROTL32(b, 7);                                     \
    } while (0)
/* clang-format on */

void cz_chacha_block(uint32_t out[16], const uint32_t in[16], unsigned rounds)
{
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (unsigned r = 0; r < rounds; r += 2) {
        /* column round */
        QR(x[0], x[4], x[8], x[12]);
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        /* diagonal round */
        QR(x[0], x[5], x[10], x[15]);
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void cz_chacha_init_djb(uint32_t st[16], const uint8_t key[32], uint64_t counter, uint64_t stream)
{
    /* "expand 32-byte k" */
    st[0] = 0x61707865u;
    st[1] = 0x3320646eu;
    st[2] = 0x79622d32u;
    st[3] = 0x6b206574u;
    for (int i = 0; i < 8; i++)
        st[4 + i] = le32(key + 4 * i);
    st[12] = (uint32_t)counter;
    st[13] = (uint32_t)(counter >> 32);
    st[14] = (uint32_t)stream;
    st[15] = (uint32_t)(stream >> 32);
}

void cz_chacha8_seed(cz_chacha8_rng *r, const uint8_t seed[32])
{
    cz_chacha_init_djb(r->state, seed, 0, 0);
    r->pos = 16;
}

uint32_t cz_chacha8_next_u32(cz_chacha8_rng *r)
{
    if (r->pos >= 16) {
        cz_chacha_block(r->buf, r->state, 8);
        /* 64-bit counter increment */
        if (++r->state[12] == 0)
            r->state[13]++;
        r->pos = 0;
    }
    return r->buf[r->pos++];
}

uint64_t cz_chacha8_next_u64(cz_chacha8_rng *r)
{
    uint64_t lo = cz_chacha8_next_u32(r);
    uint64_t hi = cz_chacha8_next_u32(r);
    return lo | hi << 32;
}
