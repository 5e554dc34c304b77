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

static inline void bit_set(uint64_t *w, size_t j)
{
    w[j >> 6] |= 1ull << (j & 63);
}

/* The error of a variable out of range in |lc| (named |which|). */
static int slc_range_error(cz_cs_t *cs, const cz_slc_t *lc, char which)
{
    for (unsigned t = 0; t < lc->n; t++) {
        uint32_t id = lc->id[t];
        bool is_aux = (id & CZ_VAR_AUX_BIT) != 0;
        size_t idx = id & CZ_VAR_MAX_INDEX;
        if (idx >= (is_aux ? cs->aux.len : cs->input.len))
            return cz__cs_fail(cs, CZ_EINVAL, "constraint %zu: %c uses %s %zu, not allocated",
                               cs->n_constraints, which, is_aux ? "aux" : "input", idx);
    }
    return CZ_OK;
}

/* True when every variable of |lc| is allocated. Ids are compared whole:
 * an aux id (bit 31 set) against the aux count with that bit set, an
 * input id against the input count. */
static inline bool slc_in_range(const cz_slc_t *lc, uint32_t in_end, uint32_t aux_end)
{
    bool ok = true;
    for (unsigned t = 0; t < lc->n; t++) {
        uint32_t id = lc->id[t];
        ok &= id & CZ_VAR_AUX_BIT ? id < aux_end : id < in_end;
    }
    return ok;
}

/* Set the density bits of |lc|'s non-zero terms (in_bits / aux_bits NULL:
 * not tracked); the variables are in range. */
static inline void slc_mark(const cz_slc_t *lc, uint64_t *in_bits, uint64_t *aux_bits)
{
    for (unsigned t = 0; t < lc->n; t++) {
        uint32_t id = lc->id[t];
        uint64_t *bits = id & CZ_VAR_AUX_BIT ? aux_bits : in_bits;
        if (lc->k[t] != 0 && bits)
            bit_set(bits, id & CZ_VAR_MAX_INDEX);
    }
    if (lc->one != 0 && in_bits)
        bit_set(in_bits, 0);
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

static int enforce_general(cz_cs_t *cs, const cz_slc_t *a, const cz_slc_t *b, const cz_slc_t *c,
                           const char *name)
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
        return cz__cs_fail(cs, CZ_EINTERNAL,
                           "constraint %zu: more than %d variables in a "
                           "small combination",
                           cs->n_constraints, CZ_SLC_MAX);
    if (!cz_cs_emits(cs))
        return enforce_general(cs, a, b, c, name);
    if (cs->finished)
        return cz__cs_fail(cs, CZ_EINVAL, "enforce after finish");
    /* Ids < 2^31 and counts <= 2^31: the ends fit 32 bits. */
    const uint32_t in_end = (uint32_t)cs->input.len;
    const uint32_t aux_end = CZ_VAR_AUX_BIT | (uint32_t)cs->aux.len;
    if (!slc_in_range(a, in_end, aux_end) || !slc_in_range(b, in_end, aux_end) ||
        !slc_in_range(c, in_end, aux_end)) {
        int rc = slc_range_error(cs, a, 'A');
        return rc ? rc : (rc = slc_range_error(cs, b, 'B')) ? rc : slc_range_error(cs, c, 'C');
    }
    const size_t row = cs->n_constraints;
    if (cs->mode == CZ_CS_PROVE) {
        int rc = row < cs->abc_cap ? CZ_OK : cz__cs_abc_reserve(cs, row + 1);
        if (rc)
            return rc;
        fr_of_int(cs, &cs->a[row], a->value);
        fr_of_int(cs, &cs->b[row], b->value);
    }
    slc_mark(a, NULL, cs->dens[CZ_DENSITY_A_AUX].w);
    slc_mark(b, cs->dens[CZ_DENSITY_B_INPUT].w, cs->dens[CZ_DENSITY_B_AUX].w);
    cs->n_constraints = row + 1;
    return CZ_OK;
}

/* The arrays hold |rows| more rows and |aux| more aux (values, both aux
 * bitmaps, a/b) without growing. */
static bool has_room(const cz_cs_t *cs, size_t rows, size_t aux)
{
    const size_t n = cs->aux.len + aux;
    return n <= cs->dens[CZ_DENSITY_A_AUX].cap * 64 && n <= cs->dens[CZ_DENSITY_B_AUX].cap * 64 &&
           (cs->mode != CZ_CS_PROVE ||
            (n - cs->aux.base <= cs->aux.cap && cs->n_constraints + rows <= cs->abc_cap));
}

int cz_cs_alloc_bit(cz_cs_t *cs, cz_var_t *var, bool value)
{
    /* The common case inline: emitting and room. Everything else (growth,
     * errors, other modes, the corruption hook) is cz_cs_alloc's. */
    cz__frvec *v = &cs->aux;
    const size_t n = v->len;
    if (cs->err || cs->finished || !cz_cs_emits(cs) || n >= CZ_VAR_MAX_INDEX || !has_room(cs, 0, 1))
        return cz_cs_alloc(cs, var, value ? &CZ_FR_ONE : &CZ_FR_ZERO);
    if (cs->mode == CZ_CS_PROVE)
        v->v[n - v->base] = value ? CZ_FR_ONE : CZ_FR_ZERO;
    cs->dens[CZ_DENSITY_A_AUX].nbits = cs->dens[CZ_DENSITY_B_AUX].nbits = n + 1;
    v->len = n + 1;
    *var = cz_var_aux((uint32_t)n);
    return CZ_OK;
}

_Static_assert(CZ__SMALL == 8, "cz_emit_win_t.small is indexed from -8");

bool cz_cs_emit_open(cz_cs_t *cs, cz_emit_win_t *w, size_t rows, size_t aux)
{
    if (cs->err || cs->finished || !cz_cs_emits(cs))
        return false;
    const size_t n_aux = cs->aux.len, row0 = cs->n_constraints;
    if (n_aux + aux > CZ_VAR_MAX_INDEX)
        return false;
    /* An in-place fork's slot is exact and never grows: near its end the
     * worst case of a window may not fit where the real use does. */
    if (!has_room(cs, rows, aux) && (cs->inplace_parent || cz__cs_grow(cs, rows, aux, 0)))
        return false;
    w->a = cs->mode == CZ_CS_PROVE ? cs->a + row0 : NULL;
    w->b = cs->mode == CZ_CS_PROVE ? cs->b + row0 : NULL;
    w->val = cs->mode == CZ_CS_PROVE ? cs->aux.v + (n_aux - cs->aux.base) : NULL;
    w->a_aux = cs->dens[CZ_DENSITY_A_AUX].w;
    w->b_aux = cs->dens[CZ_DENSITY_B_AUX].w;
    w->b_in = cs->dens[CZ_DENSITY_B_INPUT].w;
    w->small = cs->small;
    w->in_end = (uint32_t)cs->input.len;
    w->aux0 = (uint32_t)n_aux;
    w->rows = w->aux = 0;
    w->max_rows = rows;
    w->max_aux = aux;
    return true;
}

int cz_cs_emit_close(cz_cs_t *cs, const cz_emit_win_t *w)
{
    if (w->rows > w->max_rows || w->aux > w->max_aux)
        return cz__cs_fail(cs, CZ_EINTERNAL, "direct window overrun (%zu rows of %zu)", w->rows,
                           w->max_rows);
    cs->n_constraints += w->rows;
    cs->aux.len += w->aux;
    cs->dens[CZ_DENSITY_A_AUX].nbits = cs->dens[CZ_DENSITY_B_AUX].nbits = cs->aux.len;
    return CZ_OK;
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
