/*
 * gadgets/uint32.c — bellpepper's UInt32 (see uint32.h).
 *
 * Source: bellpepper src/gadgets/uint32.rs (constant, alloc, from_bits,
 * from_bits_be, rotr, shr, triop, xor, addmany).
 */
#include "gadgets/uint32.h"

#include <string.h>

#include "gadgets/gadget_int.h"
#include "gadgets/uint32_emit.h"

/* Value of 32 LE booleans. */
static uint32_t bits_value(const cz_bool_t *bits)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 32; i++)
        v |= (uint32_t)(bits[i].value & 1) << i;
    return v;
}

void cz_u32_const(cz_u32_t *out, uint32_t value)
{
    for (unsigned i = 0; i < 32; i++)
        out->bits[i] = cz_bool_const((value >> i) & 1);
    out->value = value;
}

int cz_u32_alloc(cz_cs_t *cs, cz_u32_t *out, uint32_t value)
{
    for (unsigned i = 0; i < 32; i++) {
        CZ__TRY(cz_cs_pushf(cs, "allocated bit %u", i));
        CZ__TRY(cz_bit_alloc(cs, &out->bits[i], (value >> i) & 1));
        CZ__TRY(cz_cs_pop(cs));
    }
    out->value = value;
    return CZ_OK;
}

void cz_u32_from_bits_le(cz_u32_t *out, const cz_bool_t bits[32])
{
    cz_bool_t tmp[32];
    memcpy(tmp, bits, sizeof tmp);
    memcpy(out->bits, tmp, sizeof tmp);
    out->value = bits_value(out->bits);
}

void cz_u32_from_bits_be(cz_u32_t *out, const cz_bool_t bits[32])
{
    cz_bool_t tmp[32];
    for (unsigned i = 0; i < 32; i++)
        tmp[i] = bits[31 - i];
    memcpy(out->bits, tmp, sizeof tmp);
    out->value = bits_value(out->bits);
}

void cz_u32_to_bits_le(cz_bool_t bits[32], const cz_u32_t *w)
{
    memmove(bits, w->bits, sizeof w->bits);
}

void cz_u32_to_bits_be(cz_bool_t bits[32], const cz_u32_t *w)
{
    cz_bool_t tmp[32];
    for (unsigned i = 0; i < 32; i++)
        tmp[i] = w->bits[31 - i];
    memcpy(bits, tmp, sizeof tmp);
}

void cz_u32_rotr(cz_u32_t *out, const cz_u32_t *w, unsigned by)
{
    cz_u32_t r;
    by %= 32;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = w->bits[(i + by) % 32];
    r.value = by ? (w->value >> by) | (w->value << (32 - by)) : w->value;
    *out = r;
}

void cz_u32_shr(cz_u32_t *out, const cz_u32_t *w, unsigned by)
{
    cz_u32_t r;
    by %= 32;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = i + by < 32 ? w->bits[i + by] : cz_bool_const(false);
    r.value = w->value >> by;
    *out = r;
}

int cz_u32_xor(cz_cs_t *cs, cz_u32_t *out, const cz_u32_t *a, const cz_u32_t *b)
{
    if (cz__u32_xor_emit(cs, out, a, b))
        return CZ_OK;
    cz_u32_t r;
    for (unsigned i = 0; i < 32; i++) {
        CZ__TRY(cz_cs_pushf(cs, "xor of bit %u", i));
        CZ__TRY(cz_bool_xor(cs, &r.bits[i], a->bits[i], b->bits[i]));
        CZ__TRY(cz_cs_pop(cs));
    }
    r.value = a->value ^ b->value;
    *out = r;
    return CZ_OK;
}

typedef int tri_fn(cz_cs_t *, cz_bool_t *, cz_bool_t, cz_bool_t, cz_bool_t);

/* UInt32::triop: |fn| bit by bit in namespace "<name> i". */
static int triop(cz_cs_t *cs, cz_u32_t *out, const cz_u32_t *a, const cz_u32_t *b,
                 const cz_u32_t *c, tri_fn *fn, const char *name, uint32_t value)
{
    cz_u32_t r;
    for (unsigned i = 0; i < 32; i++) {
        CZ__TRY(cz_cs_pushf(cs, "%s %u", name, i));
        CZ__TRY(fn(cs, &r.bits[i], a->bits[i], b->bits[i], c->bits[i]));
        CZ__TRY(cz_cs_pop(cs));
    }
    r.value = value;
    *out = r;
    return CZ_OK;
}

int cz_u32_sha256_ch(cz_cs_t *cs, cz_u32_t *out, const cz_u32_t *a, const cz_u32_t *b,
                     const cz_u32_t *c)
{
    uint32_t v = (a->value & b->value) ^ (~a->value & c->value);
    if (cz__u32_triop_emit(cs, out, a, b, c, false, v))
        return CZ_OK;
    return triop(cs, out, a, b, c, cz_bool_sha256_ch, "ch", v);
}

int cz_u32_sha256_maj(cz_cs_t *cs, cz_u32_t *out, const cz_u32_t *a, const cz_u32_t *b,
                      const cz_u32_t *c)
{
    uint32_t v = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
    if (cz__u32_triop_emit(cs, out, a, b, c, true, v))
        return CZ_OK;
    return triop(cs, out, a, b, c, cz_bool_sha256_maj, "maj", v);
}

int cz_u32_addmany(cz_cs_t *cs, cz_multieq_t *me, cz_u32_t *out, const cz_u32_t *ops, size_t n)
{
    if (n < 2 || n > 10)
        return CZ_EINVAL;
    uint64_t max_value = (uint64_t)n * UINT32_MAX, sum = 0;
    bool all_constants = true;
    const cz_bool_t *words[10];
    for (size_t k = 0; k < n; k++) {
        sum += ops[k].value;
        words[k] = ops[k].bits;
        for (unsigned i = 0; i < 32; i++)
            all_constants &= ops[k].bits[i].kind == CZ_BOOL_CONST;
    }
    if (all_constants) {
        cz_u32_const(out, (uint32_t)sum);
        return CZ_OK;
    }

    /* Result bits up to the bit length of max_value (33..36 bits), then
     * sum(operands) = sum(result bits) in the MultiEq. */
    cz_bool_t bits[64];
    const unsigned nbits = 64 - (unsigned)__builtin_clzll(max_value);
    if (!cz__bits_alloc_emit(cs, bits, nbits, sum)) {
        for (unsigned i = 0; i < nbits; i++) {
            CZ__TRY(cz_cs_pushf(cs, "result bit %u", i));
            CZ__TRY(cz_bit_alloc(cs, &bits[i], (sum >> i) & 1));
            CZ__TRY(cz_cs_pop(cs));
        }
    }
    CZ__TRY(cz_multieq_enforce_words(me, nbits, words, n, 32, sum, bits));
    memcpy(out->bits, bits, sizeof out->bits);
    out->value = (uint32_t)sum;
    return CZ_OK;
}
