/*
 * gadgets/uint64.c — rust-fil-proofs' UInt64 (see uint64.h).
 *
 * Source: rust-fil-proofs storage-proofs-core/src/gadgets/uint64.rs.
 */
#include "gadgets/uint64.h"

#include <string.h>

#include "gadgets/gadget_int.h"
#include "gadgets/multipack.h"

void cz_u64_const(cz_u64_t *out, uint64_t value)
{
    for (unsigned i = 0; i < 64; i++)
        out->bits[i] = cz_bool_const((value >> i) & 1);
    out->value = value;
}

int cz_u64_alloc(cz_cs_t *cs, cz_u64_t *out, uint64_t value)
{
    for (unsigned i = 0; i < 64; i++) {
        CZ__TRY(cz_cs_pushf(cs, "allocated bit %u", i));
        CZ__TRY(cz_bit_alloc(cs, &out->bits[i], (value >> i) & 1));
        CZ__TRY(cz_cs_pop(cs));
    }
    out->value = value;
    return CZ_OK;
}

static uint64_t bits_value(const cz_bool_t *bits)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 64; i++)
        v |= (uint64_t)(bits[i].value & 1) << i;
    return v;
}

void cz_u64_from_bits_le(cz_u64_t *out, const cz_bool_t bits[64])
{
    memmove(out->bits, bits, sizeof out->bits);
    out->value = bits_value(out->bits);
}

void cz_u64_from_bits_be(cz_u64_t *out, const cz_bool_t bits[64])
{
    cz_bool_t tmp[64];
    for (unsigned i = 0; i < 64; i++)
        tmp[i] = bits[63 - i];
    memcpy(out->bits, tmp, sizeof tmp);
    out->value = bits_value(out->bits);
}

void cz_u64_to_bits_le(cz_bool_t bits[64], const cz_u64_t *w)
{
    memmove(bits, w->bits, sizeof w->bits);
}

void cz_u64_to_bits_be(cz_bool_t bits[64], const cz_u64_t *w)
{
    cz_bool_t tmp[64];
    for (unsigned i = 0; i < 64; i++)
        tmp[i] = w->bits[63 - i];
    memcpy(bits, tmp, sizeof tmp);
}

int cz_u64_pack_into_input(cz_cs_t *cs, const cz_u64_t *w)
{
    return cz_pack_into_inputs(cs, w->bits, 64);
}
