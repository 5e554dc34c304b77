/*
 * hash/poseidon.c — native Poseidon (see poseidon.h).
 *
 * Cost per hash with t = arity + 1 (multiplications): the S-box x^5 is
 * 2S + 1M; a dense product t^2 M; a sparse product 2t - 1 M. The optimized
 * path does RF*t S-boxes + RP S-boxes, (RF - 1) dense products + RP sparse
 * ones; for arity 8 that is about 2,000 M against 5,200 M for the plain path.
 */
#include "hash/poseidon.h"

#include "core/pool.h"

/* x = x^5 (alpha = 5, FACTS 5): 2S + 1M. */
static inline void sbox(cz_fr *x)
{
    cz_fr x2, x4;
    cz_fr_sqr(&x2, x);
    cz_fr_sqr(&x4, &x2);
    cz_fr_mul(x, x, &x4);
}

/* s = s . m (row vector times t x t matrix, NEP product_mds_with_matrix). */
static inline void product_dense(cz_fr *s, const cz_fr *m, unsigned t)
{
    cz_fr r[CZ_POSEIDON_MAX_WIDTH], p;
    for (unsigned j = 0; j < t; j++) {
        cz_fr_mul(&r[j], &s[0], &m[j]);
        for (unsigned i = 1; i < t; i++) {
            cz_fr_mul(&p, &s[i], &m[i * t + j]);
            cz_fr_add(&r[j], &r[j], &p);
        }
    }
    for (unsigned j = 0; j < t; j++)
        s[j] = r[j];
}

/* s = s . M'' with M'' = [[w_hat[0], v_rest], [w_hat[1..], I]]
 * (NEP product_mds_with_sparse_matrix):
 *   s'[0] = sum_i w_hat[i] s[i];  s'[j] = s[j] + v_rest[j-1] s[0]. */
static inline void product_sparse(cz_fr *s, const cz_fr *w_hat, const cz_fr *v_rest, unsigned t)
{
    cz_fr s0 = s[0], acc, p;
    cz_fr_mul(&acc, &w_hat[0], &s0);
    for (unsigned i = 1; i < t; i++) {
        cz_fr_mul(&p, &w_hat[i], &s[i]);
        cz_fr_add(&acc, &acc, &p);
        cz_fr_mul(&p, &v_rest[i - 1], &s0);
        cz_fr_add(&s[i], &s[i], &p);
    }
    s[0] = acc;
}

void cz_poseidon_permute(const cz_poseidon_constants *c, cz_fr *s)
{
    const unsigned t = c->width, half = c->half_full_rounds, rp = c->partial_rounds;
    const cz_fr *k = c->compressed_round_constants;

    for (unsigned j = 0; j < t; j++) /* round 0's keys, before any S-box */
        cz_fr_add(&s[j], &s[j], &k[j]);
    k += t;

    /* First-half full rounds: S-box, post-key, then M (pre-sparse at the last). */
    for (unsigned r = 0; r < half; r++) {
        for (unsigned j = 0; j < t; j++) {
            sbox(&s[j]);
            cz_fr_add(&s[j], &s[j], &k[j]);
        }
        k += t;
        product_dense(s, r + 1 == half ? c->pre_sparse : c->mds, t);
    }

    /* Partial rounds: one S-box, one key, the round's sparse matrix. */
    for (unsigned r = 0; r < rp; r++) {
        sbox(&s[0]);
        cz_fr_add(&s[0], &s[0], &k[r]);
        product_sparse(s, &c->sparse_w_hat[r * t], &c->sparse_v_rest[r * (t - 1)], t);
    }
    k += rp;

    /* Second-half full rounds; the last one adds no key. */
    for (unsigned r = 0; r < half; r++) {
        bool last = r + 1 == half;
        for (unsigned j = 0; j < t; j++) {
            sbox(&s[j]);
            if (!last)
                cz_fr_add(&s[j], &s[j], &k[j]);
        }
        if (!last)
            k += t;
        product_dense(s, c->mds, t);
    }
}

void cz_poseidon_hash(const cz_poseidon_constants *c, cz_fr *out, const cz_fr *preimage)
{
    cz_fr s[CZ_POSEIDON_MAX_WIDTH];
    s[0] = c->domain_tag;
    for (unsigned j = 0; j < c->arity; j++)
        s[j + 1] = preimage[j];
    cz_poseidon_permute(c, s);
    *out = s[1];
}

void cz_poseidon_hash_reference(const cz_poseidon_constants *c, cz_fr *out, const cz_fr *preimage)
{
    const unsigned t = c->width, half = c->half_full_rounds;
    const unsigned rounds = c->full_rounds + c->partial_rounds;
    cz_fr s[CZ_POSEIDON_MAX_WIDTH];
    s[0] = c->domain_tag;
    for (unsigned j = 0; j < c->arity; j++)
        s[j + 1] = preimage[j];

    /* Every round: add its t keys, S-boxes (all, or element 0 in a partial
     * round), multiply by M (NEP poseidon_alt.rs full_round/partial_round). */
    for (unsigned r = 0; r < rounds; r++) {
        const cz_fr *k = &c->round_constants[(size_t)r * t];
        bool full = r < half || r >= half + c->partial_rounds;
        for (unsigned j = 0; j < t; j++)
            cz_fr_add(&s[j], &s[j], &k[j]);
        for (unsigned j = 0; j < (full ? t : 1); j++)
            sbox(&s[j]);
        product_dense(s, c->mds, t);
    }
    *out = s[1];
}

typedef struct {
    const cz_poseidon_constants *c;
    cz_fr *out;
    const cz_fr *in;
} many_job;

static void many_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    const many_job *j = arg;
    const unsigned a = j->c->arity;
    for (size_t i = begin; i < end; i++)
        cz_poseidon_hash(j->c, &j->out[i], &j->in[i * a]);
}

int cz_poseidon_hash_many(cz_ctx_t *ctx, const cz_poseidon_constants *c, cz_fr *out,
                          const cz_fr *in, size_t count)
{
    if (count == 0)
        return CZ_OK;
    if (!c || !out || !in)
        return cz_fail(ctx, CZ_EINVAL, "poseidon: NULL constants or arrays for %zu hashes", count);
    cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
    many_job job = { c, out, in };
    /* ~20-60 us per hash: chunks of 64+ keep claiming overhead negligible
     * while leaving several chunks per thread to balance load. */
    size_t grain = cz_pool_grain(pool, count, 8);
    if (grain < 64)
        grain = 64;
    cz_pool_for(pool, count, grain, many_chunk, &job);
    return CZ_OK;
}
