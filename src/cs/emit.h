/*
 * cs/emit.h — constraints emitted by their evaluations (internal to cs/ and
 * gadgets/): the fast path of the boolean-heavy gadgets.
 *
 * Nearly every row of a PoRep C2 partition (130M) comes from SHA-256 over
 * booleans: xor (2a * b = a + b - c), and, ch, maj, the boolean constraint
 * of each allocated bit, and the MultiEq sums of UInt32::addmany. Building
 * three cz_lc_t's per row and evaluating them in Fr cost ~400 ns a row
 * (the whole partition ~53 s on one core). Their combinations are a few
 * variables with small integer coefficients, and the gadget already knows
 * every value, so the row can be written directly.
 *
 * Small combinations (cz_slc_t): at most CZ_SLC_MAX variables plus ONE,
 * small integer coefficients, merged as cz_lc_t merges them (a repeated
 * variable adds to its coefficient, a coefficient that cancels to 0 stays
 * and counts for nothing), and, alongside, the combination's value as a
 * small integer, accumulated from the values the gadget passes in.
 * cz_cs_enforce_small() adds A * B = C:
 *   - when cz_cs_emits(cs) (PROVE with c omitted, or SHAPE): directly.
 *     Density bits from the merged non-zero coefficients exactly as
 *     cz_cs_enforce sets them; in PROVE, a and b are the small values as
 *     field elements. C is not read (it is neither stored nor tracked);
 *   - otherwise (KEYGEN, CHECK, PROVE keeping c, or after
 *     cz_cs_emit_generic): converted to cz_lc_t's and given to
 *     cz_cs_enforce, so matrices, CHECK verdicts and c are those of the
 *     same combinations.
 * Both paths give the same rows, densities and assignment byte for byte:
 * every gadget test compares them (gc_same_direct in
 * tests/gadgets/gadget_check.h), tests/gadgets/test_emit.c tries the
 * cases where merging decides density, tests/kinds/porep/test_synth_emit.c a
 * whole 2KiB partition, and `cuzk bench synth` a 32GiB one by digest.
 *
 * The values must be those of the variables' assignments: a gadget passes
 * the values it allocated them with. The one way they could differ, the
 * test hook cz_cs_corrupt_aux, turns direct emission off for that cs.
 *
 * Rows with other combinations (MultiEq's sums of 2^i-weighted bits,
 * Poseidon's field-valued rows) use the lower-level cz_cs_emit_row /
 * cz_cs_emit_mark, only when cz_cs_emits(cs); the caller sets the density
 * bits itself. Many rows at once go through a window (below).
 *
 * Errors: sticky, as every cs call. A combination with more than
 * CZ_SLC_MAX variables is a gadget bug: enforce fails with CZ_EINTERNAL.
 * Thread-safety: as the cs (one thread at a time).
 */
#ifndef CUZK_CS_EMIT_H
#define CUZK_CS_EMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "cs/cs.h"

#define CZ_SLC_MAX 4

typedef struct {
    uint32_t id[CZ_SLC_MAX]; /* variable ids, never ONE (input 0) */
    int32_t k[CZ_SLC_MAX];   /* their merged coefficients */
    int32_t one;             /* coefficient of ONE */
    int32_t value;           /* <lc, z>: sum of coefficient x value */
    uint8_t n;               /* variables in id[] */
    uint8_t overflow;        /* a variable past CZ_SLC_MAX was added */
} cz_slc_t;

/* lc += k * var, where |value| is the variable's value (0 or 1 for bits;
 * ignored outside the value modes). ONE may be passed: it goes to lc->one. */
static inline void cz_slc_add(cz_slc_t *lc, cz_var_t var, int32_t k, int32_t value)
{
    if (var.id == CZ_VAR_ONE.id) {
        lc->one += k;
        lc->value += k;
        return;
    }
    lc->value += k * value;
    for (unsigned i = 0; i < lc->n; i++) {
        if (lc->id[i] == var.id) {
            lc->k[i] += k;
            return;
        }
    }
    if (lc->n == CZ_SLC_MAX) {
        lc->overflow = 1;
        return;
    }
    lc->id[lc->n] = var.id;
    lc->k[lc->n] = k;
    lc->n++;
}

/* lc += k * ONE. */
static inline void cz_slc_add_one(cz_slc_t *lc, int32_t k)
{
    cz_slc_add(lc, CZ_VAR_ONE, k, 1);
}

/*
 * True when this cs emits rows directly: PROVE with c omitted or SHAPE, and
 * neither cz_cs_emit_generic nor cz_cs_corrupt_aux was called on it (or on
 * the cs it was forked from, for the former).
 */
bool cz_cs_emits(const cz_cs_t *cs);

/*
 * Tests: make this cs (and forks made from it afterwards) take the general
 * path for every constraint, so the direct path can be compared with it.
 */
void cz_cs_emit_generic(cz_cs_t *cs);

/* Enforce A * B = C (see the top of this file). Returns CZ_OK or the sticky
 * error (CZ_EINVAL for a variable not allocated, CZ_EINTERNAL for an
 * overflowed combination, CZ_ENOMEM). */
int cz_cs_enforce_small(cz_cs_t *cs, const cz_slc_t *a, const cz_slc_t *b, const cz_slc_t *c,
                        const char *name);

/* Allocate an aux bit holding |value| (cz_cs_alloc with the constant 0 or 1). */
int cz_cs_alloc_bit(cz_cs_t *cs, cz_var_t *var, bool value);

/*
 * Only when cz_cs_emits(cs): append a row whose A and B evaluate to *a and
 * *b (PROVE stores them; SHAPE only counts the row; either may be NULL in
 * SHAPE). Density is the caller's: cz_cs_emit_mark sets bit |index| of
 * bitmap |which| (an allocated variable's index; cz_cs_density reads the
 * bitmaps). Returns CZ_OK or the sticky error.
 */
int cz_cs_emit_row(cz_cs_t *cs, const cz_fr *a, const cz_fr *b);
void cz_cs_emit_mark(cz_cs_t *cs, cz_density_t which, uint32_t index);

/*
 * Windows: a gadget that emits many rows at once (a 32-bit word's xor,
 * ch, maj, an addmany's result bits) writes them straight into the cs's
 * arrays. cz_cs_emit_open makes room for up to |rows| rows and |aux| bit
 * allocations and fills *w with where they go, or returns false (the cs
 * does not emit, has an error, or an in-place fork's slot has not that
 * much room left): the gadget then takes its per-bit path, which is
 * always right. cz_cs_emit_close commits what was used (CZ_OK, or
 * CZ_EINTERNAL for an overrun). No other call on the cs may come between
 * the two. The writer keeps the rules of cz_cs_enforce_small:
 * density bits of the merged non-zero coefficients (A: aux; B: inputs,
 * ONE, aux), a and b the small values (w->a / w->b are NULL in SHAPE), and
 * only variables already allocated (cz_emit_valid).
 */
typedef struct {
    cz_fr *a, *b; /* rows from the window's first (PROVE; NULL in SHAPE) */
    cz_fr *val;   /* values of the window's aux (PROVE; NULL in SHAPE) */
    uint64_t *a_aux, *b_aux, *b_in;
    const cz_fr *small; /* small[8 + v] = v for |v| <= 8 */
    uint32_t in_end;    /* inputs allocated */
    uint32_t aux0;      /* index of the window's first aux */
    size_t rows, aux;   /* used so far */
    size_t max_rows, max_aux;
} cz_emit_win_t;

bool cz_cs_emit_open(cz_cs_t *cs, cz_emit_win_t *w, size_t rows, size_t aux);
int cz_cs_emit_close(cz_cs_t *cs, const cz_emit_win_t *w);

/* True when |var| is allocated (inputs, aux before the window and the
 * window's own so far). */
static inline bool cz_emit_valid(const cz_emit_win_t *w, cz_var_t var)
{
    uint32_t idx = cz_var_index(var);
    return cz_var_is_aux(var) ? idx < w->aux0 + w->aux : idx < w->in_end;
}

static inline void cz_emit_bit(uint64_t *bits, uint32_t idx)
{
    bits[idx >> 6] |= 1ull << (idx & 63);
}

/* Density of |var| with a non-zero coefficient in A / in B. */
static inline void cz_emit_dense_a(cz_emit_win_t *w, cz_var_t var)
{
    if (cz_var_is_aux(var))
        cz_emit_bit(w->a_aux, cz_var_index(var));
}
static inline void cz_emit_dense_b(cz_emit_win_t *w, cz_var_t var)
{
    cz_emit_bit(cz_var_is_aux(var) ? w->b_aux : w->b_in, cz_var_index(var));
}

/* A new aux bit of value |v|. */
static inline cz_var_t cz_emit_alloc(cz_emit_win_t *w, bool v)
{
    if (w->val)
        w->val[w->aux] = w->small[8 + (v ? 1 : 0)];
    return cz_var_aux(w->aux0 + (uint32_t)w->aux++);
}

/* A row with the small values a, b (density is the caller's). */
static inline void cz_emit_row(cz_emit_win_t *w, int a, int b)
{
    if (w->a) {
        w->a[w->rows] = w->small[8 + a];
        w->b[w->rows] = w->small[8 + b];
    }
    w->rows++;
}

/* Record a direct path's failure as the cs's sticky error ("cs: |what|");
 * returns the sticky code (the first error wins). */
int cz_cs_emit_fail(cz_cs_t *cs, int code, const char *what);

/* 2^e as a field element, 0 <= e < 256 (a table the cs builds once). */
const cz_fr *cz_cs_pow2(cz_cs_t *cs, unsigned e);

#endif /* CUZK_CS_EMIT_H */
