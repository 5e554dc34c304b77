/*
 * gadgets/multipack.c — bellpepper's multipack (see multipack.h).
 *
 * Source: bellpepper src/gadgets/multipack.rs (pack_bits, pack_into_inputs,
 * compute_multipacking, bytes_to_bits, bytes_to_bits_le) and num.rs
 * (Num::add_bool_with_coeff, which builds the packed combination).
 */
#include "gadgets/multipack.h"

#include "gadgets/gadget_int.h"

/* lc = sum_i 2^i bits[i], *value likewise (Num::add_bool_with_coeff). */
static void pack_lc(cz_lc_t *lc, cz_fr *value, const cz_bool_t *bits, size_t n)
{
    cz_fr coeff = CZ_FR_ONE;
    *value = CZ_FR_ZERO;
    for (size_t i = 0; i < n; i++) {
        cz_bool_lc_add(lc, bits[i], &coeff);
        if (bits[i].value)
            cz_fr_add(value, value, &coeff);
        cz_fr_add(&coeff, &coeff, &coeff);
    }
}

int cz_pack_bits(cz_cs_t *cs, cz_num_t *out, const cz_bool_t *bits, size_t n)
{
    if (n > CZ_FR_CAPACITY)
        n = CZ_FR_CAPACITY;
    cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
    cz_fr value;
    pack_lc(&a, &value, bits, n);
    cz_num_t num;
    int rc;
    CZ__CHECK(rc, cz_cs_push(cs, "input"), fail);
    CZ__CHECK(rc, cz_num_alloc(cs, &num, &value), fail);
    CZ__CHECK(rc, cz_cs_pop(cs), fail);
    cz_lc_add(&b, CZ_VAR_ONE);
    cz_lc_add(&c, num.var);
    if ((rc = cz__enforce_free(cs, &a, &b, &c, "packing constraint")) == CZ_OK)
        *out = num;
    return rc;
fail:
    cz__lc_free3(&a, &b, &c);
    return rc;
}

int cz_pack_into_inputs(cz_cs_t *cs, const cz_bool_t *bits, size_t n)
{
    for (size_t i = 0, off = 0; off < n; i++, off += CZ_FR_CAPACITY) {
        size_t len = n - off < CZ_FR_CAPACITY ? n - off : CZ_FR_CAPACITY;
        cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
        cz_fr value;
        cz_var_t in;
        pack_lc(&a, &value, bits + off, len);
        int rc = cz_cs_alloc_input(cs, &in, &value);
        if (rc) {
            cz__lc_free3(&a, &b, &c);
            return rc;
        }
        cz_lc_add(&b, CZ_VAR_ONE);
        cz_lc_add(&c, in);
        CZ__TRY(cz_cs_enforcef(cs, &a, &b, &c, "packing constraint %zu", i));
        cz__lc_free3(&a, &b, &c);
    }
    return CZ_OK;
}

void cz_compute_multipacking(cz_fr *out, const bool *bits, size_t n)
{
    for (size_t i = 0, off = 0; off < n; i++, off += CZ_FR_CAPACITY) {
        size_t len = n - off < CZ_FR_CAPACITY ? n - off : CZ_FR_CAPACITY;
        cz_fr cur = CZ_FR_ZERO, coeff = CZ_FR_ONE;
        for (size_t k = 0; k < len; k++) {
            if (bits[off + k])
                cz_fr_add(&cur, &cur, &coeff);
            cz_fr_add(&coeff, &coeff, &coeff);
        }
        out[i] = cur;
    }
}

void cz_bytes_to_bits(bool *out, const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (unsigned k = 0; k < 8; k++)
            out[8 * i + k] = (bytes[i] >> (7 - k)) & 1;
}

void cz_bytes_to_bits_le(bool *out, const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (unsigned k = 0; k < 8; k++)
            out[8 * i + k] = (bytes[i] >> k) & 1;
}
