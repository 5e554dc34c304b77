/*
 * ff/fr.c — Fr helpers over blst (see ff/fr.h).
 */
#include "ff/fr.h"

#include "core/hex.h"
#include "core/pool.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

/* r, little-endian 64-bit limbs (FACTS 1). */
static const uint64_t FR_MODULUS[4] = {
    0xffffffff00000001ull,
    0x53bda402fffe5bfeull,
    0x3339d80809a1d805ull,
    0x73eda753299d7d48ull,
};

/* R mod r (Montgomery one) and 0, as blst stores them. */
const cz_fr CZ_FR_ZERO = { { 0, 0, 0, 0 } };
const cz_fr CZ_FR_ONE = { { 0x00000001fffffffeull, 0x5884b7fa00034802ull, 0x998c4fefecbc4ff5ull,
                            0x1824b159acc5056full } };

bool cz_fr_is_zero(const cz_fr *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0;
}

bool cz_fr_eq(const cz_fr *a, const cz_fr *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

bool cz_fr_is_one(const cz_fr *a)
{
    return cz_fr_eq(a, &CZ_FR_ONE);
}

void cz_fr_from_u64(cz_fr *r, uint64_t v)
{
    const uint64_t limbs[4] = { v, 0, 0, 0 };
    blst_fr_from_uint64(r, limbs);
}

/* a < r for little-endian limbs */
static bool below_modulus(const uint64_t a[4])
{
    for (int i = 3; i >= 0; i--) {
        if (a[i] != FR_MODULUS[i])
            return a[i] < FR_MODULUS[i];
    }
    return false;
}

static void limbs_from_le(uint64_t out[4], const uint8_t in[32])
{
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int j = 7; j >= 0; j--)
            w = (w << 8) | in[8 * i + j];
        out[i] = w;
    }
}

int cz_fr_from_repr(cz_fr *r, const uint8_t repr[32])
{
    uint64_t limbs[4];
    limbs_from_le(limbs, repr);
    if (!below_modulus(limbs))
        return CZ_ERANGE;
    blst_fr_from_uint64(r, limbs);
    return CZ_OK;
}

void cz_fr_to_repr(uint8_t repr[32], const cz_fr *a)
{
    uint64_t limbs[4];
    blst_uint64_from_fr(limbs, a);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            repr[8 * i + j] = (uint8_t)(limbs[i] >> (8 * j));
}

void cz_fr_pow_u64(cz_fr *r, const cz_fr *a, uint64_t e)
{
    cz_fr base = *a, acc = CZ_FR_ONE;
    while (e) {
        if (e & 1)
            cz_fr_mul(&acc, &acc, &base);
        cz_fr_sqr(&base, &base);
        e >>= 1;
    }
    *r = acc;
}

void cz_fr_inverse(cz_fr *r, const cz_fr *a)
{
    if (cz_fr_is_zero(a)) {
        *r = CZ_FR_ZERO;
        return;
    }
    blst_fr_eucl_inverse(r, a);
}

void cz_fr_batch_inverse(cz_fr *v, size_t n, cz_fr *scratch)
{
    /* scratch[i] = product of the non-zero v[0..i] */
    cz_fr acc = CZ_FR_ONE;
    for (size_t i = 0; i < n; i++) {
        if (!cz_fr_is_zero(&v[i]))
            cz_fr_mul(&acc, &acc, &v[i]);
        scratch[i] = acc;
    }
    cz_fr inv;
    cz_fr_inverse(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (cz_fr_is_zero(&v[i]))
            continue;
        cz_fr vi_inv;
        if (i > 0)
            cz_fr_mul(&vi_inv, &inv, &scratch[i - 1]);
        else
            vi_inv = inv;
        cz_fr_mul(&inv, &inv, &v[i]); /* inverse of the prefix before i */
        v[i] = vi_inv;
    }
}

int cz_fr_root_of_unity(cz_fr *r, unsigned log_n)
{
    if (log_n > CZ_FR_TWO_ADICITY)
        return CZ_ERANGE;
    /* ROOT = g^t with t = (r - 1) / 2^32 (odd part of r - 1). */
    const uint64_t t[4] = {
        (FR_MODULUS[0] >> 32) | (FR_MODULUS[1] << 32),
        (FR_MODULUS[1] >> 32) | (FR_MODULUS[2] << 32),
        (FR_MODULUS[2] >> 32) | (FR_MODULUS[3] << 32),
        FR_MODULUS[3] >> 32,
    };
    cz_fr g, acc = CZ_FR_ONE;
    cz_fr_from_u64(&g, CZ_FR_GENERATOR);
    for (int limb = 3; limb >= 0; limb--) {
        for (int bit = 63; bit >= 0; bit--) {
            cz_fr_sqr(&acc, &acc);
            if ((t[limb] >> bit) & 1)
                cz_fr_mul(&acc, &acc, &g);
        }
    }
    for (unsigned i = log_n; i < CZ_FR_TWO_ADICITY; i++)
        cz_fr_sqr(&acc, &acc);
    *r = acc;
    return CZ_OK;
}

/* Uniform from 32 random bytes: keep 255 bits, reject values >= r. */
static bool fr_from_random_bytes(cz_fr *r, uint8_t buf[32])
{
    buf[31] &= 0x7f;
    return cz_fr_from_repr(r, buf) == CZ_OK;
}

int cz_fr_random(cz_fr *r)
{
    uint8_t buf[32];
    do {
        size_t got = 0;
        while (got < sizeof buf) {
            ssize_t k = getrandom(buf + got, sizeof buf - got, 0);
            if (k < 0) {
                if (errno == EINTR)
                    continue;
                return CZ_EIO;
            }
            got += (size_t)k;
        }
    } while (!fr_from_random_bytes(r, buf));
    memset(buf, 0, sizeof buf); /* may have been a secret (r, s) */
    return CZ_OK;
}

void cz_rng_seed(cz_rng *rng, uint64_t seed)
{
    /* splitmix64 expands the seed into xoshiro's state */
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        rng->s[i] = z ^ (z >> 31);
    }
}

static inline uint64_t rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t cz_rng_next(cz_rng *rng)
{
    /* xoshiro256** (Blackman & Vigna, 2018) */
    uint64_t *s = rng->s;
    uint64_t result = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

void cz_fr_random_rng(cz_fr *r, cz_rng *rng)
{
    uint8_t buf[32];
    do {
        for (int i = 0; i < 4; i++) {
            uint64_t w = cz_rng_next(rng);
            for (int j = 0; j < 8; j++)
                buf[8 * i + j] = (uint8_t)(w >> (8 * j));
        }
    } while (!fr_from_random_bytes(r, buf));
}

void cz_fr_to_hex(char buf[67], const cz_fr *a)
{
    static const char digits[] = "0123456789abcdef";
    uint8_t repr[32];
    cz_fr_to_repr(repr, a);
    buf[0] = '0';
    buf[1] = 'x';
    for (int i = 0; i < 32; i++) {
        uint8_t byte = repr[31 - i];
        buf[2 + 2 * i] = digits[byte >> 4];
        buf[3 + 2 * i] = digits[byte & 15];
    }
    buf[66] = '\0';
}


/* acc = acc * base + digit over 256-bit LE limbs; false on overflow. */
static bool muladd_256(uint64_t acc[4], unsigned base, unsigned digit)
{
    unsigned __int128 carry = digit;
    for (int i = 0; i < 4; i++) {
        unsigned __int128 t = (unsigned __int128)acc[i] * base + carry;
        acc[i] = (uint64_t)t;
        carry = t >> 64;
    }
    return carry == 0;
}

int cz_fr_parse(cz_fr *r, const char *text)
{
    uint64_t acc[4] = { 0, 0, 0, 0 };
    unsigned base = 10;
    const char *p = text;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    if (*p == '\0')
        return CZ_EFORMAT;
    for (; *p; p++) {
        int d = base == 16 ? cz_hex_digit(*p) : (*p >= '0' && *p <= '9' ? *p - '0' : -1);
        if (d < 0)
            return CZ_EFORMAT;
        if (!muladd_256(acc, base, (unsigned)d))
            return CZ_ERANGE;
    }
    if (!below_modulus(acc))
        return CZ_ERANGE;
    blst_fr_from_uint64(r, acc);
    return CZ_OK;
}

static void to_scalars_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    cz_fr *v = arg;
    for (size_t i = begin; i < end; i++) {
        cz_fr x = v[i];
        blst_scalar_from_fr((blst_scalar *)&v[i], &x); /* same 32 bytes, canonical LE */
    }
}

void cz_fr_to_scalars_inplace(cz_pool_t *pool, cz_fr *v, size_t n)
{
    cz_pool_for(pool, n, 1 << 14, to_scalars_chunk, v);
}
