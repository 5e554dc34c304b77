/*
 * hash/sha254.c — SHA-256 (portable compression, streaming interface,
 * implementation dispatch) and SHA254. See sha254.h; the SHA-NI compression
 * is in sha254_shani.c, tree_d roots in sha254_tree.c.
 */
#include "hash/sha254.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

/*
 * The constants are computed, not pasted (FIPS 180-4 sections 4.2.2, 5.3.3):
 * K[i] = first 32 bits of the fractional part of the cube root of the i-th
 * prime (64 primes), IV[i] = the same for the square root (8 primes). Both
 * are built once per process, with the implementation choice (tables_once).
 */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static uint32_t K256[64];            /* written once under tables_once */
static uint32_t IV256[8];            /* written once under tables_once */
static cz_sha256_blocks_fn *best_fn; /* written once under tables_once */

/* floor(N^(1/k)) for k = 2 or 3 and N < 2^106: a long-double estimate
 * (64-bit mantissa) corrected by exact 128-bit comparisons. */
static uint64_t iroot(unsigned __int128 n, unsigned k)
{
    long double est = k == 2 ? sqrtl((long double)n) : cbrtl((long double)n);
    uint64_t x = (uint64_t)est;
#define CZ__POW(v) (k == 2 ? (unsigned __int128)(v) * (v) : (unsigned __int128)(v) * (v) * (v))
    while (x > 0 && CZ__POW(x) > n)
        x--;
    while (CZ__POW(x + 1) <= n)
        x++;
#undef CZ__POW
    return x;
}

static void init_tables(void)
{
    unsigned count = 0;
    for (uint64_t p = 2; count < 64; p++) {
        bool prime = true;
        for (uint64_t d = 2; d * d <= p; d++)
            if (p % d == 0) {
                prime = false;
                break;
            }
        if (!prime)
            continue;
        /* frac(p^(1/k)) * 2^32 = floor((p * 2^(32k))^(1/k)) mod 2^32 */
        K256[count] = (uint32_t)iroot((unsigned __int128)p << 96, 3);
        if (count < 8)
            IV256[count] = (uint32_t)iroot((unsigned __int128)p << 64, 2);
        count++;
    }
    best_fn = cz_sha256_shani_available() ? cz_sha256_blocks_shani : cz_sha256_blocks_portable;
}

/* Shared with sha254_shani.c, which feeds the same K to the SHA-NI rounds. */
const uint32_t *cz__sha256_k(void);
const uint32_t *cz__sha256_k(void)
{
    pthread_once(&tables_once, init_tables);
    return K256;
}

static inline uint32_t rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static inline uint32_t load_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* FIPS 180-4 section 6.2.2, one 64-byte block at a time. */
void cz_sha256_blocks_portable(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    pthread_once(&tables_once, init_tables);
    for (; n > 0; n--, blocks += 64) {
        uint32_t w[64];
        for (unsigned t = 0; t < 16; t++)
            w[t] = load_be32(blocks + 4 * t);
        for (unsigned t = 16; t < 64; t++) {
            /* sigma0 = ROTR7 ^ ROTR18 ^ SHR3; sigma1 = ROTR17 ^ ROTR19 ^ SHR10 */
            uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (unsigned t = 0; t < 64; t++) {
            /* T1 = h + Sigma1(e) + Ch(e,f,g) + K_t + W_t; T2 = Sigma0(a) + Maj(a,b,c) */
            uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                          K256[t] + w[t];
            uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
    }
}

/* ---- dispatch ------------------------------------------------------------ */

void cz_sha256_blocks(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    pthread_once(&tables_once, init_tables);
    best_fn(state, blocks, n);
}

/* ---- streaming interface -------------------------------------------------- */

void cz_sha256_init(cz_sha256_ctx *s)
{
    pthread_once(&tables_once, init_tables);
    memcpy(s->h, IV256, sizeof IV256);
    s->nbytes = 0;
    s->nbuf = 0;
}

void cz_sha256_update(cz_sha256_ctx *s, const void *data, size_t len)
{
    const uint8_t *p = data;
    s->nbytes += len;
    if (s->nbuf) {
        size_t take = 64 - s->nbuf < len ? 64 - s->nbuf : len;
        memcpy(s->buf + s->nbuf, p, take);
        s->nbuf += take;
        p += take;
        len -= take;
        if (s->nbuf < 64)
            return;
        cz_sha256_blocks(s->h, s->buf, 1);
        s->nbuf = 0;
    }
    if (len >= 64) {
        cz_sha256_blocks(s->h, p, len / 64);
        p += len & ~(size_t)63;
        len &= 63;
    }
    memcpy(s->buf, p, len);
    s->nbuf = len;
}

/* FIPS 180-4 section 5.1.1: append 0x80, zeros to 56 mod 64, then the
 * message length in bits as a 64-bit big-endian integer. */
void cz_sha256_final(cz_sha256_ctx *s, uint8_t out[32])
{
    uint64_t bits = s->nbytes * 8;
    uint8_t pad[128] = { 0x80 };
    size_t padlen = (s->nbuf < 56 ? 56 : 120) - s->nbuf;
    for (unsigned i = 0; i < 8; i++)
        pad[padlen + i] = (uint8_t)(bits >> (56 - 8 * i));
    cz_sha256_update(s, pad, padlen + 8);
    for (unsigned i = 0; i < 8; i++)
        store_be32(out + 4 * i, s->h[i]);
}

void cz_sha256(uint8_t out[32], const void *data, size_t len)
{
    cz_sha256_ctx s;
    cz_sha256_init(&s);
    cz_sha256_update(&s, data, len);
    cz_sha256_final(&s, out);
}

/* ---- SHA254 --------------------------------------------------------------- */

void cz_sha254(uint8_t out[32], const void *data, size_t len)
{
    cz_sha256(out, data, len);
    out[31] &= 0x3f; /* FACTS 5 */
}

void cz_sha254_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32])
{
    /* A 64-byte message is exactly two blocks: the data, then the constant
     * padding block 0x80 || 0^55 || be64(512). */
    uint8_t blk[128] = { 0 };
    uint32_t h[8];
    memcpy(blk, left, 32);
    memcpy(blk + 32, right, 32);
    blk[64] = 0x80;
    blk[126] = 0x02; /* 512 bits = 0x0200 */
    pthread_once(&tables_once, init_tables);
    memcpy(h, IV256, sizeof h);
    cz_sha256_blocks(h, blk, 2);
    for (unsigned i = 0; i < 8; i++)
        store_be32(out + 4 * i, h[i]);
    out[31] &= 0x3f;
}
