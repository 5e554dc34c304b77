/*
 * gadgets/insertion.c — RFP's pick / insert / select (see insertion.h).
 *
 * Source: rust-fil-proofs storage-proofs-core/src/gadgets/insertion.rs; the
 * witness names (p0_xx0 ...) are the namespaces RFP's `witness!` macro uses.
 */
#include "gadgets/insertion.h"

#include "gadgets/gadget_int.h"

int cz_pick(cz_cs_t *cs, cz_num_t *out, cz_bool_t cond, const cz_num_t *a, const cz_num_t *b)
{
    cz_var_t var;
    const cz_fr *v = cond.value ? &a->value : &b->value;
    CZ__TRY(cz_cs_push(cs, "pick result"));
    CZ__TRY(cz_cs_alloc(cs, &var, v));
    CZ__TRY(cz_cs_pop(cs));
    /* (b - a) * condition = (b - c) */
    cz_lc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    cz_lc_add(&la, b->var);
    cz_lc_sub(&la, a->var);
    cz_bool_lc_add(&lb, cond, &CZ_FR_ONE);
    cz_lc_add(&lc, b->var);
    cz_lc_sub(&lc, var);
    CZ__TRY(cz__enforce_free(cs, &la, &lb, &lc, "pick"));
    out->var = var;
    out->value = *v;
    return CZ_OK;
}

/* pick in namespace |name|. */
static int pick_ns(cz_cs_t *cs, cz_num_t *out, const char *name, cz_bool_t cond, const cz_num_t *a,
                   const cz_num_t *b)
{
    CZ__TRY(cz_cs_push(cs, name));
    CZ__TRY(cz_pick(cs, out, cond, a, b));
    return cz_cs_pop(cs);
}

static int insert_2(cz_cs_t *cs, cz_num_t *out, const cz_num_t *x, const cz_bool_t *bits,
                    const cz_num_t *e)
{
    CZ__TRY(pick_ns(cs, &out[0], "binary insert 0", bits[0], &e[0], x));
    return pick_ns(cs, &out[1], "binary insert 1", bits[0], x, &e[0]);
}

static int insert_4(cz_cs_t *cs, cz_num_t *out, const cz_num_t *a, const cz_bool_t *bits,
                    const cz_num_t *e)
{
    /* A into [b, c, d] at position b0 + 2 b1 (RFP insert_4's table). */
    const cz_bool_t b0 = bits[0], b1 = bits[1];
    const cz_num_t *b = &e[0], *c = &e[1], *d = &e[2];
    cz_num_t t;
    CZ__TRY(pick_ns(cs, &t, "p0_x0", b0, b, a));
    CZ__TRY(pick_ns(cs, &out[0], "p0", b1, b, &t));
    CZ__TRY(pick_ns(cs, &t, "p1_x0", b0, a, b));
    CZ__TRY(pick_ns(cs, &out[1], "p1", b1, c, &t));
    CZ__TRY(pick_ns(cs, &t, "p2_x1", b0, d, a));
    CZ__TRY(pick_ns(cs, &out[2], "p2", b1, &t, c));
    CZ__TRY(pick_ns(cs, &t, "p3_x1", b0, a, d));
    return pick_ns(cs, &out[3], "p3", b1, &t, d);
}

static int insert_8(cz_cs_t *cs, cz_num_t *out, const cz_num_t *a, const cz_bool_t *bits,
                    const cz_num_t *e)
{
    const cz_bool_t b0 = bits[0], b1 = bits[1], b2 = bits[2];
    if (b0.kind != CZ_BOOL_IS || b1.kind != CZ_BOOL_IS)
        return CZ_EINVAL; /* RFP: "bits must be allocated and unnegated" */
    const cz_num_t *b = &e[0], *c = &e[1], *d = &e[2], *f = &e[4], *g = &e[5], *h = &e[6];
    const cz_num_t *ee = &e[3];
    cz_bool_t nor01, and01;
    CZ__TRY(cz_cs_push(cs, "b0 nor b1"));
    CZ__TRY(cz_bit_nor(cs, &nor01, b0, b1));
    CZ__TRY(cz_cs_pop(cs));
    CZ__TRY(cz_cs_push(cs, "b0 and b1"));
    CZ__TRY(cz_bit_and(cs, &and01, b0, b1));
    CZ__TRY(cz_cs_pop(cs));

    cz_num_t t, u;
    CZ__TRY(pick_ns(cs, &t, "p0_xx0", nor01, a, b));
    CZ__TRY(pick_ns(cs, &out[0], "p0", b2, b, &t));

    CZ__TRY(pick_ns(cs, &t, "p1_x00", b0, a, b));
    CZ__TRY(pick_ns(cs, &u, "p1_xx0", b1, c, &t));
    CZ__TRY(pick_ns(cs, &out[1], "p1", b2, c, &u));

    CZ__TRY(pick_ns(cs, &t, "p2_x10", b0, d, a));
    CZ__TRY(pick_ns(cs, &u, "p2_xx0", b1, &t, c));
    CZ__TRY(pick_ns(cs, &out[2], "p2", b2, d, &u));

    CZ__TRY(pick_ns(cs, &t, "p3_xx0", and01, a, d));
    CZ__TRY(pick_ns(cs, &out[3], "p3", b2, ee, &t));

    CZ__TRY(pick_ns(cs, &t, "p4_xx1", nor01, a, f));
    CZ__TRY(pick_ns(cs, &out[4], "p4", b2, &t, ee));

    CZ__TRY(pick_ns(cs, &t, "p5_x01", b0, a, f));
    CZ__TRY(pick_ns(cs, &u, "p5_xx1", b1, g, &t));
    CZ__TRY(pick_ns(cs, &out[5], "p5", b2, &u, f));

    CZ__TRY(pick_ns(cs, &t, "p6_x11", b0, h, a));
    CZ__TRY(pick_ns(cs, &u, "p6_xx1", b1, &t, g));
    CZ__TRY(pick_ns(cs, &out[6], "p6", b2, &u, g));

    CZ__TRY(pick_ns(cs, &t, "p7_xx1", and01, a, h));
    return pick_ns(cs, &out[7], "p7", b2, &t, h);
}

int cz_select(cz_cs_t *cs, cz_num_t *out, const cz_num_t *from, const cz_bool_t *bits, size_t nbits)
{
    size_t n = (size_t)1 << nbits;
    if (nbits == 0 || n > CZ_SELECT_MAX)
        return CZ_EINVAL;
    cz_num_t state[CZ_SELECT_MAX], next[CZ_SELECT_MAX / 2];
    for (size_t j = 0; j < n; j++)
        state[j] = from[j];
    /* Most significant bit first: the upper half when the bit is set. */
    size_t half = n / 2;
    for (size_t i = 0; i < nbits; i++, half /= 2) {
        cz_bool_t bit = bits[nbits - 1 - i];
        for (size_t j = 0; j < half; j++) {
            CZ__TRY(cz_cs_pushf(cs, "pick %zu, %zu", i, j));
            CZ__TRY(cz_pick(cs, &next[j], bit, &state[half + j], &state[j]));
            CZ__TRY(cz_cs_pop(cs));
        }
        for (size_t j = 0; j < half; j++)
            state[j] = next[j];
    }
    *out = state[0];
    return CZ_OK;
}

int cz_insert(cz_cs_t *cs, cz_num_t *out, const cz_num_t *element, const cz_bool_t *bits,
              size_t nbits, const cz_num_t *elements)
{
    size_t size = (size_t)1 << nbits;
    if (nbits == 0 || size > CZ_INSERT_MAX)
        return CZ_EINVAL;
    if (size == 2)
        return insert_2(cs, out, element, bits, elements);
    if (size == 4)
        return insert_4(cs, out, element, bits, elements);
    if (size == 8)
        return insert_8(cs, out, element, bits, elements);

    /* General case: position pos takes, for index k, the pos-th entry of
     * "elements with x inserted at k": elements[pos-1] when k < pos, x when
     * k == pos, elements[pos] when k > pos. */
    cz_num_t choices[CZ_INSERT_MAX];
    for (size_t pos = 0; pos < size; pos++) {
        for (size_t k = 0; k < size; k++)
            choices[k] = k < pos ? elements[pos - 1] : k == pos ? *element : elements[pos];
        CZ__TRY(cz_cs_pushf(cs, "choice at %zu", pos));
        CZ__TRY(cz_select(cs, &out[pos], choices, bits, nbits));
        CZ__TRY(cz_cs_pop(cs));
    }
    return CZ_OK;
}
