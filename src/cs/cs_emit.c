/*
 * cs/cs_emit.c — small combinations and direct emission (see cs/emit.h).
 *
 * The direct path does, per combination, what lc_pass in cs.c does per
 * cz_lc_t: range-check every variable, set the density bit of each
 * variable whose merged coefficient is not zero (A: aux only; B: inputs,
 * ONE included, and aux; C: none), and in PROVE store <A,z> and <B,z>.
 * A small integer coefficient k is zero in Fr exactly when it is 0 as an
 * integer (|k| < r), so the density tests agree with cz_lc_t's.
 */
#include "cs/cs_int.h"
#include "cs/emit.h"

#include <stdlib.h>

void cz__cs_emit_init(cz_cs_t *cs)
{
    cz_fr *mid = &cs->small[CZ__SMALL];
    *mid = CZ_FR_ZERO;
    for (int v = 1; v <= CZ__SMALL; v++) {
        cz_fr_add(&mid[v], &mid[v - 1], &CZ_FR_ONE);
        cz_fr_neg(&mid[-v], &mid[v]);
    }
}

bool cz_cs_emits(const cz_cs_t *cs)
{
    return !cs->emit_generic && !cs->corrupt_aux1 &&
           (cs->mode == CZ_CS_SHAPE || (cs->mode == CZ_CS_PROVE && cs->omit_c));
}

void cz_cs_emit_generic(cz_cs_t *cs)
{
    cs->emit_generic = true;
}

/* The integer |v| as a field element. */
static void fr_of_int(const cz_cs_t *cs, cz_fr *out, int32_t v)
{
    if (v >= -CZ__SMALL && v <= CZ__SMALL) {
        *out = cs->small[CZ__SMALL + v];
        return;
    }
    cz_fr_from_u64(out, v < 0 ? (uint64_t)(-(int64_t)v) : (uint64_t)v);
    if (v < 0)
        cz_fr_neg(out, out);
}

static inline void bit_set(uint64_t *w, size_t j) { w[j >> 6] |= 1ull << (j & 63); }

/* Range-check |lc|'s variables and set the density bits of its non-zero
 * terms (in_bits / aux_bits NULL: not tracked). |which| names it. */
static int slc_pass(cz_cs_t *cs, const cz_slc_t *lc, uint64_t *in_bits, uint64_t *aux_bits,
                    char which)
{
    const size_t n_in = cs->input.len, n_aux = cs->aux.len;
    for (unsigned t = 0; t < lc->n; t++) {
        uint32_t id = lc->id[t];
        bool is_aux = (id & CZ_VAR_AUX_BIT) != 0;
        size_t idx = id & CZ_VAR_MAX_INDEX;
        if (idx >= (is_aux ? n_aux : n_in))
            return cz__cs_fail(cs, CZ_EINVAL, "constraint %zu: %c uses %s %zu, not allocated",
                               cs->n_constraints, which, is_aux ? "aux" : "input", idx);
        uint64_t *bits = is_aux ? aux_bits : in_bits;
        if (lc->k[t] != 0 && bits)
            bit_set(bits, idx);
    }
    if (lc->one != 0 && in_bits)
        bit_set(in_bits, 0);
    return CZ_OK;
}

/* The same combination as a cz_lc_t (zero-coefficient terms kept, as the
 * general gadgets built them: they are range-checked and count for nothing). */
static void slc_to_lc(const cz_cs_t *cs, cz_lc_t *out, const cz_slc_t *in)
{
    cz_fr c;
    if (in->one) {
        fr_of_int(cs, &c, in->one);
        cz_lc_add_term(out, &c, CZ_VAR_ONE);
    }
    for (unsigned t = 0; t < in->n; t++) {
        fr_of_int(cs, &c, in->k[t]);
        cz_lc_add_term(out, &c, (cz_var_t){ in->id[t] });
    }
}

static int enforce_general(cz_cs_t *cs, const cz_slc_t *a, const cz_slc_t *b,
                           const cz_slc_t *c, const char *name)
{
    cz_lc_t la = { 0 }, lb = { 0 }, lc = { 0 };
    slc_to_lc(cs, &la, a);
    slc_to_lc(cs, &lb, b);
    slc_to_lc(cs, &lc, c);
    int rc = cz_cs_enforce(cs, &la, &lb, &lc, name);
    cz_lc_free(&la);
    cz_lc_free(&lb);
    cz_lc_free(&lc);
    return rc;
}

int cz_cs_enforce_small(cz_cs_t *cs, const cz_slc_t *a, const cz_slc_t *b, const cz_slc_t *c,
                        const char *name)
{
    if (cs->err)
        return cs->err;
    if (a->overflow || b->overflow || c->overflow)
        return cz__cs_fail(cs, CZ_EINTERNAL, "constraint %zu: more than %d variables in a "
                           "small combination", cs->n_constraints, CZ_SLC_MAX);
    if (!cz_cs_emits(cs))
        return enforce_general(cs, a, b, c, name);
    if (cs->finished)
        return cz__cs_fail(cs, CZ_EINVAL, "enforce after finish");
    int rc;
    if ((rc = slc_pass(cs, a, NULL, cs->dens[CZ_DENSITY_A_AUX].w, 'A')) ||
        (rc = slc_pass(cs, b, cs->dens[CZ_DENSITY_B_INPUT].w, cs->dens[CZ_DENSITY_B_AUX].w,
                       'B')) ||
        (rc = slc_pass(cs, c, NULL, NULL, 'C')))
        return rc;
    const size_t row = cs->n_constraints;
    if (cs->mode == CZ_CS_PROVE) {
        if ((rc = cz__cs_abc_reserve(cs, row + 1)))
            return rc;
        fr_of_int(cs, &cs->a[row], a->value);
        fr_of_int(cs, &cs->b[row], b->value);
    }
    cs->n_constraints = row + 1;
    return CZ_OK;
}

int cz_cs_alloc_bit(cz_cs_t *cs, cz_var_t *var, bool value)
{
    return cz_cs_alloc(cs, var, value ? &CZ_FR_ONE : &CZ_FR_ZERO);
}

int cz_cs_emit_row(cz_cs_t *cs, const cz_fr *a, const cz_fr *b)
{
    if (cs->err)
        return cs->err;
    if (cs->finished)
        return cz__cs_fail(cs, CZ_EINVAL, "enforce after finish");
    if (!cz_cs_emits(cs))
        return cz__cs_fail(cs, CZ_EINTERNAL, "direct row on a cs that does not emit");
    const size_t row = cs->n_constraints;
    if (cs->mode == CZ_CS_PROVE) {
        int rc = cz__cs_abc_reserve(cs, row + 1);
        if (rc)
            return rc;
        cs->a[row] = *a;
        cs->b[row] = *b;
    }
    cs->n_constraints = row + 1;
    return CZ_OK;
}

void cz_cs_emit_mark(cz_cs_t *cs, cz_density_t which, uint32_t index)
{
    bit_set(cs->dens[which].w, index);
}

bool cz_cs_emit_marked(const cz_cs_t *cs, cz_density_t which, uint32_t index)
{
    return (cs->dens[which].w[index >> 6] >> (index & 63)) & 1;
}

int cz_cs_emit_fail(cz_cs_t *cs, int code, const char *what)
{
    return cz__cs_fail(cs, code, "%s", what);
}

const cz_fr *cz_cs_pow2(cz_cs_t *cs, unsigned e)
{
    if (!cs->pow2_ready) {
        cs->pow2[0] = CZ_FR_ONE;
        for (unsigned i = 1; i < 256; i++)
            cz_fr_add(&cs->pow2[i], &cs->pow2[i - 1], &cs->pow2[i - 1]);
        cs->pow2_ready = true;
    }
    return &cs->pow2[e & 255];
}
