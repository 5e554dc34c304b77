/*
 * gadgets/sha256_gadget.c — bellperson's SHA-256 gadget (see sha256_gadget.h).
 *
 * Source: bellpepper src/gadgets/sha256.rs (sha256, sha256_block_no_padding,
 * sha256_compression_function with its `Maybe` deferred additions). The
 * constants are FIPS 180-4's.
 */
#include "gadgets/sha256_gadget.h"

#include <stdlib.h>
#include <string.h>

#include "gadgets/gadget_int.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t IV[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

void cz_sha256_gadget_iv(cz_u32_t iv[8])
{
    for (unsigned i = 0; i < 8; i++)
        cz_u32_const(&iv[i], IV[i]);
}

/* bellpepper's `Maybe`: a concrete word, or operands whose sum is pending. */
typedef struct {
    bool concrete;
    cz_u32_t word;
    cz_u32_t ops[10];
    size_t n;
} maybe_t;

/* Maybe::compute: the concrete word (|extra| ignored, as bellpepper does),
 * or addmany(ops + extra) in namespace |ns|. */
static int maybe_compute(cz_cs_t *cs, cz_multieq_t *me, cz_u32_t *out, maybe_t *m, const char *ns,
                         const cz_u32_t *extra)
{
    if (m->concrete) {
        *out = m->word;
        return CZ_OK;
    }
    if (extra)
        m->ops[m->n++] = *extra;
    CZ__TRY(cz_cs_push(cs, ns));
    CZ__TRY(cz_u32_addmany(cs, me, out, m->ops, m->n));
    return cz_cs_pop(cs);
}

/* x = rotr(w, r0) ^ rotr(w, r1) ^ (shift ? shr(w, r2) : rotr(w, r2)). */
static int sigma(cz_cs_t *cs, cz_u32_t *x, const cz_u32_t *w, unsigned r0, unsigned r1, unsigned r2,
                 bool shift, const char *first, const char *second)
{
    cz_u32_t t;
    cz_u32_rotr(x, w, r0);
    cz_u32_rotr(&t, w, r1);
    CZ__TRY(cz_cs_push(cs, first));
    CZ__TRY(cz_u32_xor(cs, x, x, &t));
    CZ__TRY(cz_cs_pop(cs));
    if (shift)
        cz_u32_shr(&t, w, r2);
    else
        cz_u32_rotr(&t, w, r2);
    CZ__TRY(cz_cs_push(cs, second));
    CZ__TRY(cz_u32_xor(cs, x, x, &t));
    return cz_cs_pop(cs);
}

/* The body of the compression, with the MultiEq owned by the caller. */
typedef struct {
    cz_u32_t w[64];
    maybe_t a, e;
    cz_u32_t b, c, d, f, g, h;
} comp_state;

static int compress_body(cz_cs_t *cs, cz_multieq_t *me, comp_state *s, cz_u32_t out[8],
                         const cz_bool_t input[512], const cz_u32_t cur[8])
{
    for (unsigned i = 0; i < 16; i++)
        cz_u32_from_bits_be(&s->w[i], &input[32 * i]);

    /* Message schedule. */
    for (unsigned i = 16; i < 64; i++) {
        cz_u32_t ops[4];
        CZ__TRY(cz_cs_pushf(cs, "w extension %u", i));
        CZ__TRY(sigma(cs, &ops[1], &s->w[i - 15], 7, 18, 3, true, "first xor for s0",
                      "second xor for s0"));
        CZ__TRY(sigma(cs, &ops[3], &s->w[i - 2], 17, 19, 10, true, "first xor for s1",
                      "second xor for s1"));
        ops[0] = s->w[i - 16];
        ops[2] = s->w[i - 7];
        CZ__TRY(cz_cs_push(cs, "computation of w[i]"));
        CZ__TRY(cz_u32_addmany(cs, me, &s->w[i], ops, 4));
        CZ__TRY(cz_cs_pop(cs));
        CZ__TRY(cz_cs_pop(cs));
    }

    s->a.concrete = true;
    s->a.word = cur[0];
    s->b = cur[1];
    s->c = cur[2];
    s->d = cur[3];
    s->e.concrete = true;
    s->e.word = cur[4];
    s->f = cur[5];
    s->g = cur[6];
    s->h = cur[7];

    for (unsigned i = 0; i < 64; i++) {
        cz_u32_t new_e, new_a, s1, ch, s0, maj, k;
        CZ__TRY(cz_cs_pushf(cs, "compression round %u", i));

        CZ__TRY(maybe_compute(cs, me, &new_e, &s->e, "deferred e computation", NULL));
        CZ__TRY(sigma(cs, &s1, &new_e, 6, 11, 25, false, "first xor for s1", "second xor for s1"));
        CZ__TRY(cz_cs_push(cs, "ch"));
        CZ__TRY(cz_u32_sha256_ch(cs, &ch, &new_e, &s->f, &s->g));
        CZ__TRY(cz_cs_pop(cs));
        cz_u32_const(&k, K[i]);

        CZ__TRY(maybe_compute(cs, me, &new_a, &s->a, "deferred a computation", NULL));
        CZ__TRY(sigma(cs, &s0, &new_a, 2, 13, 22, false, "first xor for s0", "second xor for s0"));
        CZ__TRY(cz_cs_push(cs, "maj"));
        CZ__TRY(cz_u32_sha256_maj(cs, &maj, &new_a, &s->b, &s->c));
        CZ__TRY(cz_cs_pop(cs));

        /* temp1 = [h, S1, ch, k, w]; e = temp1 + d; a = temp1 + [S0, maj] */
        const cz_u32_t temp1[5] = { s->h, s1, ch, k, s->w[i] };
        s->h = s->g;
        s->g = s->f;
        s->f = new_e;
        s->e.concrete = false;
        memcpy(s->e.ops, temp1, sizeof temp1);
        s->e.ops[5] = s->d;
        s->e.n = 6;
        s->d = s->c;
        s->c = s->b;
        s->b = new_a;
        s->a.concrete = false;
        memcpy(s->a.ops, temp1, sizeof temp1);
        s->a.ops[5] = s0;
        s->a.ops[6] = maj;
        s->a.n = 7;
        CZ__TRY(cz_cs_pop(cs));
    }

    /* h0..h7 in bellpepper's order; h0 and h4 finish the deferred sums. */
    cz_u32_t r[8], ops[2];
    CZ__TRY(maybe_compute(cs, me, &r[0], &s->a, "deferred h0 computation", &cur[0]));
    const cz_u32_t *mid[3] = { &s->b, &s->c, &s->d };
    for (unsigned j = 1; j <= 3; j++) {
        ops[0] = cur[j];
        ops[1] = *mid[j - 1];
        CZ__TRY(cz_cs_pushf(cs, "new h%u", j));
        CZ__TRY(cz_u32_addmany(cs, me, &r[j], ops, 2));
        CZ__TRY(cz_cs_pop(cs));
    }
    CZ__TRY(maybe_compute(cs, me, &r[4], &s->e, "deferred h4 computation", &cur[4]));
    const cz_u32_t *tail[3] = { &s->f, &s->g, &s->h };
    for (unsigned j = 5; j <= 7; j++) {
        ops[0] = cur[j];
        ops[1] = *tail[j - 5];
        CZ__TRY(cz_cs_pushf(cs, "new h%u", j));
        CZ__TRY(cz_u32_addmany(cs, me, &r[j], ops, 2));
        CZ__TRY(cz_cs_pop(cs));
    }
    memcpy(out, r, sizeof r);
    return CZ_OK;
}

int cz_sha256_gadget_compress(cz_cs_t *cs, cz_u32_t out[8], const cz_bool_t input[512],
                              const cz_u32_t state[8])
{
    comp_state *s = malloc(sizeof *s);
    if (!s)
        return CZ_ENOMEM;
    cz_u32_t cur[8];
    memcpy(cur, state, sizeof cur);
    cz_multieq_t me;
    cz_multieq_init(&me, cs);
    int rc = compress_body(cs, &me, s, out, input, cur);
    /* The MultiEq's drop: flush what is pending (also frees on error). */
    int rc2 = cz_multieq_finish(&me);
    free(s);
    return rc ? rc : rc2;
}

int cz_sha256_gadget_block(cz_cs_t *cs, cz_bool_t out[256], const cz_bool_t input[512])
{
    cz_u32_t st[8];
    cz_sha256_gadget_iv(st);
    CZ__TRY(cz_sha256_gadget_compress(cs, st, input, st));
    for (unsigned i = 0; i < 8; i++)
        cz_u32_to_bits_be(&out[32 * i], &st[i]);
    return CZ_OK;
}

int cz_sha256_gadget(cz_cs_t *cs, cz_bool_t out[256], const cz_bool_t *input, size_t nbits)
{
    if (nbits % 8)
        return CZ_EINVAL;
    /* input || 1 || 0...0 || 64-bit length, a multiple of 512 bits. */
    size_t total = (nbits + 1 + 64 + 511) / 512 * 512;
    cz_bool_t *p = malloc(total * sizeof *p);
    if (!p)
        return CZ_ENOMEM;
    if (nbits)
        memcpy(p, input, nbits * sizeof *p);
    p[nbits] = cz_bool_const(true);
    for (size_t i = nbits + 1; i < total - 64; i++)
        p[i] = cz_bool_const(false);
    for (unsigned i = 0; i < 64; i++)
        p[total - 64 + i] = cz_bool_const(((uint64_t)nbits >> (63 - i)) & 1);

    cz_u32_t st[8];
    cz_sha256_gadget_iv(st);
    int rc = CZ_OK;
    for (size_t blk = 0; blk < total / 512 && rc == CZ_OK; blk++) {
        if ((rc = cz_cs_pushf(cs, "block %zu", blk)))
            break;
        if ((rc = cz_sha256_gadget_compress(cs, st, &p[512 * blk], st)))
            break;
        rc = cz_cs_pop(cs);
    }
    free(p);
    if (rc)
        return rc;
    for (unsigned i = 0; i < 8; i++)
        cz_u32_to_bits_be(&out[32 * i], &st[i]);
    return CZ_OK;
}
