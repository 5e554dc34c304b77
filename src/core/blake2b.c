/*
 * core/blake2b.c — BLAKE2b per RFC 7693 section 3 (G mixing, 12 rounds,
 * SIGMA permutations, parameter block p[0] = 0x01010000 ^ outlen).
 */
#include "core/blake2b.h"

#include <string.h>

static const uint64_t IV[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};

static const uint8_t SIGMA[12][16] = {
    { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
    { 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
    { 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
    { 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
    { 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
    { 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
    { 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
    { 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
    { 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
    { 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
    { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
    { 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
};

#define ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
/* G (RFC 7693 3.1), rotations 32, 24, 16, 63 */
/* laid out by hand: */
/* clang-format off */
#define G(a, b, c, d, x, y)                                                   \
    do {                                                                      \
        v[a] = v[a] + v[b] + (x); v[d] = ROTR64(v[d] ^ v[a], 32);             \
        v[c] = v[c] + v[d];       v[b] = ROTR64(v[b] ^ v[c], 24);             \
        v[a] = v[a] + v[b] + (y); v[d] = ROTR64(v[d] ^ v[a], 16);             \
        v[c] = v[c] + v[d];       v[b] = ROTR64(v[b] ^ v[c], 63);             \
    } while (0)
/* clang-format on */

static uint64_t le64(const uint8_t *p)
{
    uint64_t r = 0;
    for (int i = 7; i >= 0; i--)
        r = r << 8 | p[i];
    return r;
}

/* F (RFC 7693 3.2): compress block m with byte counter t, final flag f. */
static void compress(uint64_t h[8], const uint8_t block[128], uint64_t t, int last)
{
    uint64_t v[16], m[16];
    for (int i = 0; i < 16; i++)
        m[i] = le64(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[i + 8] = IV[i];
    }
    v[12] ^= t; /* low word of the 128-bit counter (high stays 0) */
    if (last)
        v[14] = ~v[14];
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = SIGMA[r];
        G(0, 4, 8, 12, m[s[0]], m[s[1]]);
        G(1, 5, 9, 13, m[s[2]], m[s[3]]);
        G(2, 6, 10, 14, m[s[4]], m[s[5]]);
        G(3, 7, 11, 15, m[s[6]], m[s[7]]);
        G(0, 5, 10, 15, m[s[8]], m[s[9]]);
        G(1, 6, 11, 12, m[s[10]], m[s[11]]);
        G(2, 7, 8, 13, m[s[12]], m[s[13]]);
        G(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++)
        h[i] ^= v[i] ^ v[i + 8];
}

void cz_blake2b_init(cz_blake2b_ctx *c, size_t outlen)
{
    memcpy(c->h, IV, sizeof c->h);
    c->h[0] ^= 0x01010000ull ^ (uint64_t)outlen; /* no key, fanout = depth = 1 */
    c->t = 0;
    c->n = 0;
    c->outlen = outlen;
}

void cz_blake2b_init_key(cz_blake2b_ctx *c, size_t outlen, const void *key, size_t keylen)
{
    cz_blake2b_init(c, outlen);
    c->h[0] ^= (uint64_t)keylen << 8;
    uint8_t block[128] = { 0 };
    memcpy(block, key, keylen);
    cz_blake2b_update(c, block, sizeof block);
}

void cz_blake2b_update(cz_blake2b_ctx *c, const void *data, size_t len)
{
    const uint8_t *p = data;
    while (len) {
        /* a full buffer is compressed only once more input follows: the
         * final block (flag set) must be the last one */
        if (c->n == 128) {
            c->t += 128;
            compress(c->h, c->buf, c->t, 0);
            c->n = 0;
        }
        if (c->n == 0) {
            while (len > 128) { /* whole blocks straight from the input */
                c->t += 128;
                compress(c->h, p, c->t, 0);
                p += 128;
                len -= 128;
            }
        }
        size_t take = 128 - c->n < len ? 128 - c->n : len;
        memcpy(c->buf + c->n, p, take);
        c->n += take;
        p += take;
        len -= take;
    }
}

void cz_blake2b_final(cz_blake2b_ctx *c, uint8_t *out)
{
    memset(c->buf + c->n, 0, 128 - c->n);
    c->t += c->n;
    compress(c->h, c->buf, c->t, 1);
    for (size_t i = 0; i < c->outlen; i++)
        out[i] = (uint8_t)(c->h[i / 8] >> (8 * (i % 8)));
}

void cz_blake2b(uint8_t *out, size_t outlen, const void *data, size_t len)
{
    cz_blake2b_ctx c;
    cz_blake2b_init(&c, outlen);
    cz_blake2b_update(&c, data, len);
    cz_blake2b_final(&c, out);
}
