/*
 * gadgets/multieq.c — bellpepper's MultiEq (see multieq.h).
 *
 * Source: bellpepper src/gadgets/multieq.rs (accumulate, enforce_equal,
 * Drop). CAPACITY is Fr::CAPACITY = 254 (FACTS 4).
 *
 * Two ways to keep the pending batch, chosen once at init:
 *   general  lhs and rhs as cz_lc_t's, scaled by 2^bits_used and merged
 *            term by term, enforced as lhs * ONE = rhs;
 *   direct   (cz_cs_emits: PROVE without c, SHAPE) the row is emitted by
 *            its values: a = <lhs, z> accumulated as a field element, b = 1
 *            (ONE, so b_input bit 0), and the A density from each aux's
 *            merged coefficient, kept in a small hash table for the aux not
 *            already A-dense (a bit set earlier stays set, whatever this
 *            row adds). A variable used twice in one batch (SHA-256 sums
 *            S1 and ch into both e and a) may cancel only in the table's
 *            field arithmetic, exactly as cz_lc_t's merge would.
 */
#include "gadgets/multieq.h"

#include <stdlib.h>
#include <string.h>

#include "cs/emit.h"
#include "gadgets/num.h"

/* Table size to start with (grown at 3/4 full): a batch holds at most 7
 * addmany of 10 words of 32 bits. */
#define SLOTS_MIN 1024u

void cz_multieq_init(cz_multieq_t *me, cz_cs_t *cs)
{
    memset(me, 0, sizeof *me);
    me->cs = cs;
    me->direct = cz_cs_emits(cs);
    cz_lc_init(&me->lhs);
    cz_lc_init(&me->rhs);
}

/* ---- direct path ------------------------------------------------------------ */

/* The live slots' positions are kept after the table, to clear them fast. */
static uint32_t *live_list(const cz_multieq_t *me)
{
    return (uint32_t *)(me->slots + me->nslots);
}

static size_t slot_hash(uint32_t index1, size_t nslots)
{
    return (size_t)(((uint64_t)index1 * 0x9e3779b97f4a7c15ull) >> 32) & (nslots - 1);
}

/* The slot of aux |index1| - 1; *fresh tells whether it was just made
 * live (its coefficient is then the caller's to set). The table has room. */
static cz__multieq_slot *slot_find(cz_multieq_t *me, uint32_t index1, bool *fresh)
{
    size_t mask = me->nslots - 1, h = slot_hash(index1, me->nslots);
    while (me->slots[h].index && me->slots[h].index != index1)
        h = (h + 1) & mask;
    cz__multieq_slot *s = &me->slots[h];
    *fresh = !s->index;
    if (*fresh) {
        s->index = index1;
        live_list(me)[me->nlive++] = (uint32_t)h;
    }
    return s;
}

/* Double the table (or make the first one), keeping its live slots. */
static int table_grow(cz_multieq_t *me)
{
    size_t n = me->nslots ? me->nslots * 2 : SLOTS_MIN;
    cz__multieq_slot *old = me->slots;
    const uint32_t *old_live = old ? live_list(me) : NULL;
    size_t old_n = me->nlive;
    cz__multieq_slot *t = calloc(1, n * sizeof *t + n * sizeof(uint32_t));
    if (!t)
        return CZ_ENOMEM;
    cz_multieq_t grown = *me;
    grown.slots = t;
    grown.nslots = n;
    grown.nlive = 0;
    bool fresh;
    for (size_t j = 0; j < old_n; j++) {
        cz__multieq_slot *s = slot_find(&grown, old[old_live[j]].index, &fresh);
        *s = old[old_live[j]];
    }
    free(old);
    me->slots = t;
    me->nslots = n;
    me->nlive = grown.nlive;
    return CZ_OK;
}

/* The coefficient of a slot's first use. */
static void first_coeff(const cz_multieq_t *me, const cz__multieq_slot *s, cz_fr *out)
{
    *out = *cz_cs_pow2(me->cs, s->exp);
    if (s->neg)
        cz_fr_neg(out, out);
}

/* A's coefficient of aux |index| += (neg ? -c : c), where |c| is 2^exp
 * when |exp| < 256 (a word's bit) or given (a general combination's term:
 * exp = UINT16_MAX). |dense| is the A density bitmap: an aux already set
 * there stays set whatever this row adds. */
static int slot_add(cz_multieq_t *me, const uint64_t *dense, uint32_t index, unsigned exp,
                    const cz_fr *c, bool neg)
{
    if ((dense[index >> 6] >> (index & 63)) & 1)
        return CZ_OK;
    if ((me->nlive + 1) * 4 > me->nslots * 3 && table_grow(me))
        return cz_cs_emit_fail(me->cs, CZ_ENOMEM, "multieq: coefficient table");
    bool fresh;
    cz__multieq_slot *s = slot_find(me, index + 1, &fresh);
    if (fresh && exp < 256) {
        s->exp = (uint16_t)exp;
        s->neg = neg;
        s->merged = 0;
        return CZ_OK;
    }
    if (fresh)
        s->coeff = CZ_FR_ZERO;
    else if (!s->merged)
        first_coeff(me, s, &s->coeff);
    s->merged = 1;
    if (neg)
        cz_fr_sub(&s->coeff, &s->coeff, c);
    else
        cz_fr_add(&s->coeff, &s->coeff, c);
    return CZ_OK;
}

/* Emit the pending batch: a = value, b = ONE, density of A from the table. */
static int flush_direct(cz_multieq_t *me)
{
    int rc = cz_cs_emit_row(me->cs, &me->value, &CZ_FR_ONE);
    if (rc == CZ_OK)
        cz_cs_emit_mark(me->cs, CZ_DENSITY_B_INPUT, 0);
    const uint32_t *live = me->slots ? live_list(me) : NULL;
    for (size_t j = 0; j < me->nlive; j++) {
        cz__multieq_slot *s = &me->slots[live[j]];
        if (rc == CZ_OK && (!s->merged || !cz_fr_is_zero(&s->coeff)))
            cz_cs_emit_mark(me->cs, CZ_DENSITY_A_AUX, s->index - 1);
        s->index = 0;
    }
    me->nlive = 0;
    me->value = CZ_FR_ZERO;
    return rc;
}

/* The range check cz_cs_enforce does for every variable of an LC. */
static bool vars_allocated(const cz_multieq_t *me, const cz_lc_t *lc)
{
    size_t n_in = cz_cs_num_inputs(me->cs), n_aux = cz_cs_num_aux(me->cs);
    for (size_t t = 0; t < cz_lc_len(lc); t++) {
        cz_var_t v = cz_lc_var(lc, t);
        if (cz_var_index(v) >= (cz_var_is_aux(v) ? n_aux : n_in))
            return false;
    }
    return true;
}

/* Direct enforce_equal of a general lhs: its terms scaled by |scale|. */
static int add_lc_direct(cz_multieq_t *me, const cz_lc_t *lhs, const cz_lc_t *rhs,
                         const cz_fr *scale)
{
    if (cz_lc_error(lhs) || cz_lc_error(rhs))
        return cz_cs_emit_fail(me->cs, CZ_ENOMEM, "multieq: combination out of memory");
    if (!vars_allocated(me, lhs) || !vars_allocated(me, rhs))
        return cz_cs_emit_fail(me->cs, CZ_EINVAL, "multieq: a variable is not allocated");
    const bool vals = cz_cs_needs_values(me->cs);
    const cz_fr *coeffs = cz_lc_coeffs(lhs);
    const uint64_t *dense = cz_cs_density(me->cs, CZ_DENSITY_A_AUX, NULL, NULL);
    for (size_t t = 0; t < cz_lc_len(lhs); t++) {
        cz_var_t v = cz_lc_var(lhs, t);
        cz_fr c, z;
        cz_fr_mul(&c, &coeffs[t], scale);
        int rc = cz_var_is_aux(v) ? slot_add(me, dense, cz_var_index(v), UINT16_MAX, &c, false)
                                  : CZ_OK;
        if (rc)
            return rc;
        if (vals && cz_cs_value(me->cs, v, &z) == CZ_OK) {
            cz_fr_mul(&z, &z, &c);
            cz_fr_add(&me->value, &me->value, &z);
        }
    }
    return CZ_OK;
}

/* ---- both paths ------------------------------------------------------------------ */

/* lhs * ONE = rhs, "multieq <ops>"; start an empty batch. */
static int accumulate(cz_multieq_t *me)
{
    int rc;
    if (me->direct) {
        rc = flush_direct(me);
    } else {
        cz_lc_t one = { 0 };
        cz_lc_add(&one, CZ_VAR_ONE);
        rc = cz_cs_enforcef(me->cs, &me->lhs, &one, &me->rhs, "multieq %zu", me->ops);
        cz_lc_free(&one);
        cz_lc_clear(&me->lhs);
        cz_lc_clear(&me->rhs);
    }
    me->bits_used = 0;
    me->ops++;
    return rc;
}

/* Flush when an equality of |num_bits| would not fit; *off: where it goes. */
static int reserve_bits(cz_multieq_t *me, unsigned num_bits, unsigned *off)
{
    if (num_bits >= CZ_FR_CAPACITY)
        return CZ_EINVAL;
    int rc;
    if (CZ_FR_CAPACITY <= me->bits_used + num_bits && (rc = accumulate(me)))
        return rc;
    *off = me->bits_used;
    me->bits_used += num_bits;
    return CZ_OK;
}

int cz_multieq_enforce_equal(cz_multieq_t *me, unsigned num_bits, const cz_lc_t *lhs,
                             const cz_lc_t *rhs)
{
    unsigned off;
    int rc = reserve_bits(me, num_bits, &off);
    if (rc)
        return rc;
    const cz_fr *coeff = cz_cs_pow2(me->cs, off);
    if (me->direct)
        return add_lc_direct(me, lhs, rhs, coeff);
    cz_lc_add_scaled(&me->lhs, coeff, lhs);
    cz_lc_add_scaled(&me->rhs, coeff, rhs);
    return CZ_OK;
}

/* The general path of enforce_words: both sides as cz_lc_t's. */
static int words_general(cz_multieq_t *me, unsigned num_bits, const cz_bool_t *const *words,
                         size_t nwords, unsigned word_bits, const cz_bool_t *bits)
{
    cz_lc_t lc = { 0 }, result = { 0 };
    cz_fr coeff;
    for (size_t k = 0; k < nwords; k++) {
        coeff = CZ_FR_ONE;
        for (unsigned i = 0; i < word_bits; i++) {
            cz_bool_lc_add(&lc, words[k][i], &coeff);
            cz_fr_add(&coeff, &coeff, &coeff);
        }
    }
    coeff = CZ_FR_ONE;
    for (unsigned i = 0; i < num_bits; i++) {
        cz_bool_lc_add(&result, bits[i], &coeff);
        cz_fr_add(&coeff, &coeff, &coeff);
    }
    int rc = cz_multieq_enforce_equal(me, num_bits, &lc, &result);
    cz_lc_free(&lc);
    cz_lc_free(&result);
    return rc;
}

int cz_multieq_enforce_words(cz_multieq_t *me, unsigned num_bits, const cz_bool_t *const *words,
                             size_t nwords, unsigned word_bits, uint64_t value,
                             const cz_bool_t *bits)
{
    if (!me->direct)
        return words_general(me, num_bits, words, nwords, word_bits, bits);
    unsigned off;
    int rc = reserve_bits(me, num_bits, &off);
    if (rc)
        return rc;
    /* Constant bits add to ONE (an input: A tracks none); Not(x) adds
     * 2^e * ONE - 2^e * x. */
    const uint64_t *dense = cz_cs_density(me->cs, CZ_DENSITY_A_AUX, NULL, NULL);
    const cz_fr *pow2 = cz_cs_pow2(me->cs, 0);
    for (size_t k = 0; k < nwords; k++) {
        for (unsigned i = 0; i < word_bits; i++) {
            cz_bool_t b = words[k][i];
            if (b.kind == CZ_BOOL_CONST || !cz_var_is_aux(b.var))
                continue;
            if ((rc = slot_add(me, dense, cz_var_index(b.var), off + i, &pow2[off + i],
                               b.kind == CZ_BOOL_NOT)))
                return rc;
        }
    }
    if (cz_cs_needs_values(me->cs)) {
        cz_fr v;
        cz_fr_from_u64(&v, value);
        cz_fr_mul(&v, &v, cz_cs_pow2(me->cs, off));
        cz_fr_add(&me->value, &me->value, &v);
    }
    return CZ_OK;
}

int cz_multieq_finish(cz_multieq_t *me)
{
    int rc = CZ_OK;
    if (me->bits_used > 0)
        rc = accumulate(me);
    cz_lc_free(&me->lhs);
    cz_lc_free(&me->rhs);
    free(me->slots);
    me->slots = NULL;
    me->nslots = me->nlive = 0;
    return rc;
}
