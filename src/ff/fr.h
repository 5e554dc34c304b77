/*
 * ff/fr.h — the scalar field Fr of BLS12-381 over blst.
 *
 * r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
 * (FACTS 1), two-adicity S = 32, multiplicative generator g = 7 (blstrs).
 *
 * cz_fr is blst_fr: four 64-bit limbs in Montgomery form. This is also the
 * device representation (backend/cuda shares the bytes unchanged).
 * The "repr" is bellperson's canonical encoding: the integer value, 32 bytes
 * little-endian, < r.
 *
 * All functions are pure and thread-safe; none allocates unless it says so.
 */
#ifndef CUZK_FF_FR_H
#define CUZK_FF_FR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <blst.h>

#include "core/ctx.h"

typedef blst_fr cz_fr;

#define CZ_FR_TWO_ADICITY 32u
#define CZ_FR_GENERATOR 7u

/* The Montgomery-form constants 0 and 1. */
extern const cz_fr CZ_FR_ZERO;
extern const cz_fr CZ_FR_ONE;

static inline void cz_fr_add(cz_fr *r, const cz_fr *a, const cz_fr *b)
{
    blst_fr_add(r, a, b);
}
static inline void cz_fr_sub(cz_fr *r, const cz_fr *a, const cz_fr *b)
{
    blst_fr_sub(r, a, b);
}
static inline void cz_fr_mul(cz_fr *r, const cz_fr *a, const cz_fr *b)
{
    blst_fr_mul(r, a, b);
}
static inline void cz_fr_sqr(cz_fr *r, const cz_fr *a)
{
    blst_fr_sqr(r, a);
}
static inline void cz_fr_neg(cz_fr *r, const cz_fr *a)
{
    blst_fr_cneg(r, a, 1);
}

bool cz_fr_is_zero(const cz_fr *a);
bool cz_fr_is_one(const cz_fr *a);
bool cz_fr_eq(const cz_fr *a, const cz_fr *b);

void cz_fr_from_u64(cz_fr *r, uint64_t v);
/* Canonical LE bytes -> Fr. CZ_ERANGE (and *r untouched) when the value >= r. */
int cz_fr_from_repr(cz_fr *r, const uint8_t repr[32]);
void cz_fr_to_repr(uint8_t repr[32], const cz_fr *a);
/* Fr -> blst_scalar (canonical LE bytes), the form MSMs consume. */
static inline void cz_fr_to_scalar(blst_scalar *s, const cz_fr *a)
{
    blst_scalar_from_fr(s, a);
}
/*
 * v[0..n) from Montgomery form to canonical scalars IN PLACE (the same 32
 * bytes become a blst_scalar), on |pool|: what the MSMs take.
 */
void cz_fr_to_scalars_inplace(cz_pool_t *pool, cz_fr *v, size_t n);

/* r = a^e for a 64-bit exponent. */
void cz_fr_pow_u64(cz_fr *r, const cz_fr *a, uint64_t e);
/* r = a^-1; the inverse of 0 is 0. Not constant time (public values only). */
void cz_fr_inverse(cz_fr *r, const cz_fr *a);

/*
 * v[i] = v[i]^-1 for all i, with one field inversion (Montgomery's trick).
 * Zeros stay zero. |scratch| holds n elements (caller-owned).
 */
void cz_fr_batch_inverse(cz_fr *v, size_t n, cz_fr *scratch);

/*
 * Primitive 2^log_n-th root of unity: ROOT^(2^(32-log_n)) where ROOT =
 * g^((r-1)/2^32). CZ_ERANGE for log_n > 32.
 */
int cz_fr_root_of_unity(cz_fr *r, unsigned log_n);

/* Uniform element from the OS CSPRNG (getrandom). CZ_EIO if it fails. */
int cz_fr_random(cz_fr *r);

/*
 * Deterministic generator for test and benchmark data (xoshiro256**); never
 * for secrets. Seeded by one 64-bit value; one per thread.
 */
typedef struct {
    uint64_t s[4];
} cz_rng;
void cz_rng_seed(cz_rng *rng, uint64_t seed);
uint64_t cz_rng_next(cz_rng *rng);
/* Uniform Fr from |rng| (rejection sampling of 255-bit values). */
void cz_fr_random_rng(cz_fr *r, cz_rng *rng);

/* "0x..." big-endian hex of the canonical value, into buf[67]. */
void cz_fr_to_hex(char buf[67], const cz_fr *a);
/* Parse decimal or 0x-hex big-endian; CZ_EFORMAT / CZ_ERANGE on bad input. */
int cz_fr_parse(cz_fr *r, const char *text);

#endif /* CUZK_FF_FR_H */
