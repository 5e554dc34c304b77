/*
 * hash/poseidon_constants.c — generation of neptune's Poseidon constants
 * (see poseidon_constants.h). Runs once per arity, so clarity beats speed:
 * matrices are small (t <= 15) and handled with schoolbook algorithms.
 */
#include "hash/poseidon_constants.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAXW CZ_POSEIDON_MAX_WIDTH

/* ---- Grain LFSR (NEP src/round_constants.rs, Poseidon paper appendix) ---- */

/* 80-bit window of the bit sequence b_i, kept in a ring: bit k of the
 * window is ring[(head + k) % 80]. */
typedef struct {
    uint8_t ring[80];
    unsigned head;
} grain_t;

static unsigned grain_bit(const grain_t *g, unsigned k)
{
    return g->ring[(g->head + k) % 80];
}

/* b_{i+80} = b_{i+62} ^ b_{i+51} ^ b_{i+38} ^ b_{i+23} ^ b_{i+13} ^ b_i
 * (FACTS 5: taps 62, 51, 38, 23, 13, 0); the window slides by one. */
static unsigned grain_step(grain_t *g)
{
    unsigned nb = grain_bit(g, 62) ^ grain_bit(g, 51) ^ grain_bit(g, 38) ^ grain_bit(g, 23) ^
                  grain_bit(g, 13) ^ grain_bit(g, 0);
    g->ring[g->head] = (uint8_t)nb; /* overwrites b_i, the oldest */
    g->head = (g->head + 1) % 80;
    return nb;
}

/* Append the |n| low bits of |v|, most significant first. */
static void grain_seed_bits(grain_t *g, unsigned *pos, unsigned n, uint64_t v)
{
    for (unsigned i = n; i-- > 0;)
        g->ring[(*pos)++] = (uint8_t)((v >> i) & 1);
}

/* Seed = field (2 bits) || sbox (4) || field size (12) || t (12) || RF (10)
 * || RP (10) || thirty 1s, then 160 discarded steps (FACTS 5). */
static void grain_init(grain_t *g, unsigned t, unsigned rf, unsigned rp)
{
    unsigned pos = 0;
    g->head = 0;
    grain_seed_bits(g, &pos, 2, 1);    /* field: prime field */
    grain_seed_bits(g, &pos, 4, 1);    /* sbox: x^alpha */
    grain_seed_bits(g, &pos, 12, 255); /* field size in bits */
    grain_seed_bits(g, &pos, 12, t);
    grain_seed_bits(g, &pos, 10, rf);
    grain_seed_bits(g, &pos, 10, rp);
    grain_seed_bits(g, &pos, 30, 0x3fffffffu);
    for (unsigned i = 0; i < 160; i++)
        grain_step(g);
}

/* Self-shrinking output: take bits in pairs; when the first is 1, output the
 * second, else drop both (NEP `impl Iterator for Grain`). */
static unsigned grain_next(grain_t *g)
{
    while (!grain_step(g))
        grain_step(g);
    return grain_step(g);
}

/* Next round constant: 255 output bits read MSB first as an integer; values
 * >= r are rejected and the next 255 bits are tried (FACTS 5). */
static void grain_field_element(grain_t *g, cz_fr *out)
{
    for (;;) {
        uint8_t be[32] = { 0 }, le[32];
        for (unsigned k = 0; k < 255; k++) {
            unsigned bitpos = k + 1; /* bit 255 (MSB of be[0]) is 0 */
            be[bitpos / 8] |= (uint8_t)(grain_next(g) << (7 - bitpos % 8));
        }
        for (unsigned i = 0; i < 32; i++)
            le[i] = be[31 - i];
        if (cz_fr_from_repr(out, le) == CZ_OK)
            return;
    }
}

/* ---- small dense matrices, row-major t x t ------------------------------ */

/* r = a . b (r must not alias a or b). */
static void mat_mul(cz_fr *r, const cz_fr *a, const cz_fr *b, unsigned t)
{
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            cz_fr acc = CZ_FR_ZERO, p;
            for (unsigned k = 0; k < t; k++) {
                cz_fr_mul(&p, &a[i * t + k], &b[k * t + j]);
                cz_fr_add(&acc, &acc, &p);
            }
            r[i * t + j] = acc;
        }
}

/* r = m . v with v a column vector (NEP left_apply_matrix); r != v. */
static void mat_apply_col(cz_fr *r, const cz_fr *m, const cz_fr *v, unsigned t)
{
    for (unsigned i = 0; i < t; i++) {
        cz_fr acc = CZ_FR_ZERO, p;
        for (unsigned k = 0; k < t; k++) {
            cz_fr_mul(&p, &m[i * t + k], &v[k]);
            cz_fr_add(&acc, &acc, &p);
        }
        r[i] = acc;
    }
}

/* r = a^-1 by Gauss-Jordan elimination; CZ_EINTERNAL if a is singular (an
 * MDS matrix and its minors never are). r must not alias a. */
static int mat_invert(cz_fr *r, const cz_fr *a, unsigned t)
{
    cz_fr w[MAXW * MAXW];
    memcpy(w, a, sizeof(cz_fr) * t * t);
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++)
            r[i * t + j] = i == j ? CZ_FR_ONE : CZ_FR_ZERO;

    for (unsigned c = 0; c < t; c++) {
        unsigned p = c;
        while (p < t && cz_fr_is_zero(&w[p * t + c]))
            p++;
        if (p == t)
            return CZ_EINTERNAL;
        if (p != c)
            for (unsigned j = 0; j < t; j++) {
                cz_fr x = w[c * t + j];
                w[c * t + j] = w[p * t + j];
                w[p * t + j] = x;
                x = r[c * t + j];
                r[c * t + j] = r[p * t + j];
                r[p * t + j] = x;
            }
        cz_fr inv;
        cz_fr_inverse(&inv, &w[c * t + c]);
        for (unsigned j = 0; j < t; j++) { /* row c /= pivot */
            cz_fr_mul(&w[c * t + j], &w[c * t + j], &inv);
            cz_fr_mul(&r[c * t + j], &r[c * t + j], &inv);
        }
        for (unsigned i = 0; i < t; i++) { /* row i -= f * row c */
            if (i == c || cz_fr_is_zero(&w[i * t + c]))
                continue;
            cz_fr f = w[i * t + c], p2;
            for (unsigned j = 0; j < t; j++) {
                cz_fr_mul(&p2, &f, &w[c * t + j]);
                cz_fr_sub(&w[i * t + j], &w[i * t + j], &p2);
                cz_fr_mul(&p2, &f, &r[c * t + j]);
                cz_fr_sub(&r[i * t + j], &r[i * t + j], &p2);
            }
        }
    }
    return CZ_OK;
}

/* ---- MDS and its sparse factorisation (NEP src/mds.rs) ------------------ */

/* Cauchy matrix with x_i = i, y_j = t + j: M[i][j] = 1/(x_i + y_j)
 * (NEP generate_mds; FACTS 5). Symmetric by construction. */
static void make_mds(cz_fr *m, unsigned t)
{
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            cz_fr x;
            cz_fr_from_u64(&x, (uint64_t)(i + t + j));
            cz_fr_inverse(&m[i * t + j], &x);
        }
}

/*
 * Factor m = M' . M'' (NEP derive_mds_matrices: make_prime, make_double_prime):
 *   M'  = row 0 is e_0; rows i >= 1 are (0, m[i][1..]);
 *   M'' = row 0 is m[0][..]; rows i >= 1 are (w_hat[i-1], e_i) where
 *         w_hat = m_hat^-1 . w, m_hat the minor of m at (0,0) and
 *         w = (m[1][0], .., m[t-1][0]).
 * Row 0 of M' . M'' is m[0]; for i >= 1 column 0 is (m_hat . w_hat)[i-1] =
 * m[i][0] and column j >= 1 is m[i][j], so the product is exact.
 * M'' is returned in NEP's compact form: w_hat_full (its first column, t
 * values, w_hat_full[0] = m[0][0]) and v_rest (m[0][1..]).
 */
static int factor_prime(cz_fr *prime, cz_fr *w_hat_full, cz_fr *v_rest, const cz_fr *m, unsigned t)
{
    const unsigned h = t - 1;
    cz_fr hat[MAXW * MAXW], hat_inv[MAXW * MAXW], w[MAXW];
    for (unsigned i = 0; i < h; i++) {
        for (unsigned j = 0; j < h; j++)
            hat[i * h + j] = m[(i + 1) * t + (j + 1)];
        w[i] = m[(i + 1) * t];
    }
    int rc = mat_invert(hat_inv, hat, h);
    if (rc != CZ_OK)
        return rc;
    mat_apply_col(w_hat_full + 1, hat_inv, w, h);
    w_hat_full[0] = m[0];
    for (unsigned j = 1; j < t; j++)
        v_rest[j - 1] = m[j];

    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++)
            prime[i * t + j] = (i == 0) ? (j == 0 ? CZ_FR_ONE : CZ_FR_ZERO)
                                        : (j == 0 ? CZ_FR_ZERO : m[i * t + j]);
    return CZ_OK;
}

/*
 * NEP factor_to_sparse_matrices: starting from cur = M, RP times factor
 * cur = M' . M'', keep M'' and continue with cur = M . M'. The M'' found
 * first belongs to the LAST partial round (the list is reversed); the final
 * cur is the pre-sparse matrix, applied after the last first-half full round.
 */
static int factor_sparse(cz_poseidon_constants *c)
{
    const unsigned t = c->width, rp = c->partial_rounds;
    cz_fr cur[MAXW * MAXW], prime[MAXW * MAXW];
    memcpy(cur, c->mds, sizeof(cz_fr) * t * t);
    for (unsigned k = 0; k < rp; k++) {
        unsigned slot = rp - 1 - k;
        int rc = factor_prime(prime, &c->sparse_w_hat[slot * t], &c->sparse_v_rest[slot * (t - 1)],
                              cur, t);
        if (rc != CZ_OK)
            return rc;
        mat_mul(cur, c->mds, prime, t);
    }
    memcpy(c->pre_sparse, cur, sizeof(cz_fr) * t * t);
    return CZ_OK;
}

/* ---- compressed round constants (NEP src/preprocessing.rs) -------------- */

/*
 * A key k added right after a product with M equals M^-1 . k added right
 * before it (M symmetric, so row/column application agree). Full-round keys
 * are thus moved before the previous round's product, to just after its
 * S-boxes. Partial-round keys are pushed back through all the partial
 * rounds: only element 0 meets an S-box there, so at each step element 0 of
 * M^-1 . acc stays as that round's single post-S-box key and the other
 * elements travel on, accumulating into the key added after the S-boxes of
 * the last first-half full round.
 */
static void compress_constants(cz_poseidon_constants *c)
{
    const unsigned t = c->width, half = c->half_full_rounds, rp = c->partial_rounds;
    const cz_fr *rk = c->round_constants;
    cz_fr *out = c->compressed_round_constants;
    cz_fr acc[MAXW], inv[MAXW];
    size_t n = 0;

    for (unsigned j = 0; j < t; j++) /* round 0: unchanged */
        out[n++] = rk[j];
    for (unsigned r = 1; r < half; r++) { /* rounds 1..half-1 */
        mat_apply_col(&out[n], c->mds_inv, &rk[r * t], t);
        n += t;
    }

    cz_fr *partial_keys = &out[n + t]; /* filled back to front */
    memcpy(acc, &rk[(half + rp) * t], sizeof(cz_fr) * t);
    for (unsigned i = 0; i < rp; i++) {
        const cz_fr *prev = &rk[(half + rp - 1 - i) * t];
        mat_apply_col(inv, c->mds_inv, acc, t);
        partial_keys[rp - 1 - i] = inv[0];
        inv[0] = CZ_FR_ZERO;
        for (unsigned j = 0; j < t; j++)
            cz_fr_add(&acc[j], &prev[j], &inv[j]);
    }
    mat_apply_col(&out[n], c->mds_inv, acc, t); /* after round half-1 */
    n += t + rp;

    for (unsigned r = 1; r < half; r++) { /* second-half full rounds */
        mat_apply_col(&out[n], c->mds_inv, &rk[(half + rp + r) * t], t);
        n += t;
    }
}

/* ---- object lifetime ---------------------------------------------------- */

unsigned cz_poseidon_partial_rounds(unsigned width)
{
    /* FACTS 5; NEP src/round_numbers.rs test_round_numbers_against_known_values. */
    if (width == 3)
        return 55;
    if (width >= 4 && width <= 7)
        return 56;
    if (width >= 8 && width <= 15)
        return 57;
    return 0;
}

void cz_poseidon_constants_free(cz_poseidon_constants *c)
{
    if (!c)
        return;
    free(c->round_constants);
    free(c->mds);
    free(c->mds_inv);
    free(c->compressed_round_constants);
    free(c->pre_sparse);
    free(c->sparse_w_hat);
    free(c->sparse_v_rest);
    free(c);
}

int cz_poseidon_constants_new(cz_poseidon_constants **out, unsigned arity)
{
    *out = NULL;
    if (arity < CZ_POSEIDON_MIN_ARITY || arity > CZ_POSEIDON_MAX_ARITY)
        return CZ_EINVAL;
    cz_poseidon_constants *c = calloc(1, sizeof *c);
    if (!c)
        return CZ_ENOMEM;
    const unsigned t = arity + 1;
    c->arity = arity;
    c->width = t;
    c->full_rounds = CZ_POSEIDON_FULL_ROUNDS;
    c->half_full_rounds = CZ_POSEIDON_FULL_ROUNDS / 2;
    c->partial_rounds = cz_poseidon_partial_rounds(t);
    cz_fr_from_u64(&c->domain_tag, (1ull << arity) - 1); /* NEP Arity::tag */

    const size_t nrc = (size_t)(c->full_rounds + c->partial_rounds) * t;
    c->round_constants = malloc(sizeof(cz_fr) * nrc);
    c->mds = malloc(sizeof(cz_fr) * t * t);
    c->mds_inv = malloc(sizeof(cz_fr) * t * t);
    c->compressed_round_constants = malloc(sizeof(cz_fr) *
                                           ((size_t)c->full_rounds * t + c->partial_rounds));
    c->pre_sparse = malloc(sizeof(cz_fr) * t * t);
    c->sparse_w_hat = malloc(sizeof(cz_fr) * c->partial_rounds * t);
    c->sparse_v_rest = malloc(sizeof(cz_fr) * c->partial_rounds * (t - 1));
    if (!c->round_constants || !c->mds || !c->mds_inv || !c->compressed_round_constants ||
        !c->pre_sparse || !c->sparse_w_hat || !c->sparse_v_rest) {
        cz_poseidon_constants_free(c);
        return CZ_ENOMEM;
    }

    grain_t g;
    grain_init(&g, t, c->full_rounds, c->partial_rounds);
    for (size_t i = 0; i < nrc; i++)
        grain_field_element(&g, &c->round_constants[i]);

    make_mds(c->mds, t);
    int rc = mat_invert(c->mds_inv, c->mds, t);
    if (rc == CZ_OK)
        rc = factor_sparse(c);
    if (rc != CZ_OK) {
        cz_poseidon_constants_free(c);
        return rc;
    }
    compress_constants(c);
    *out = c;
    return CZ_OK;
}

/* ---- process-wide cache: the only global state, written once ------------ */

/* laid out by hand: */
/* clang-format off */
#define CZ__POSEIDON_CACHE(A)                                                  \
    static pthread_once_t cache_once_##A = PTHREAD_ONCE_INIT;                  \
    static cz_poseidon_constants *cache_##A;                                   \
    static void cache_init_##A(void)                                           \
    {                                                                          \
        if (cz_poseidon_constants_new(&cache_##A, A) != CZ_OK)                 \
            cache_##A = NULL;                                                  \
    }
/* clang-format on */
CZ__POSEIDON_CACHE(2)
CZ__POSEIDON_CACHE(4)
CZ__POSEIDON_CACHE(8)
CZ__POSEIDON_CACHE(11)
#undef CZ__POSEIDON_CACHE

const cz_poseidon_constants *cz_poseidon_constants_get(unsigned arity)
{
    switch (arity) {
    case 2: pthread_once(&cache_once_2, cache_init_2); return cache_2;
    case 4: pthread_once(&cache_once_4, cache_init_4); return cache_4;
    case 8: pthread_once(&cache_once_8, cache_init_8); return cache_8;
    case 11: pthread_once(&cache_once_11, cache_init_11); return cache_11;
    default: return NULL;
    }
}
