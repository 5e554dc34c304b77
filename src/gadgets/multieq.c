/*
 * gadgets/multieq.c — bellpepper's MultiEq (see multieq.h).
 *
 * Source: bellpepper src/gadgets/multieq.rs (accumulate, enforce_equal,
 * Drop). CAPACITY is Fr::CAPACITY = 254 (FACTS 4).
 */
#include "gadgets/multieq.h"

#include "gadgets/num.h"

void cz_multieq_init(cz_multieq_t *me, cz_cs_t *cs)
{
    me->cs = cs;
    me->ops = 0;
    me->bits_used = 0;
    cz_lc_init(&me->lhs);
    cz_lc_init(&me->rhs);
}

/* lhs * ONE = rhs, "multieq <ops>"; start an empty batch. */
static int accumulate(cz_multieq_t *me)
{
    cz_lc_t one = { 0 };
    cz_lc_add(&one, CZ_VAR_ONE);
    int rc = cz_cs_enforcef(me->cs, &me->lhs, &one, &me->rhs, "multieq %zu", me->ops);
    cz_lc_free(&one);
    cz_lc_clear(&me->lhs);
    cz_lc_clear(&me->rhs);
    me->bits_used = 0;
    me->ops++;
    return rc;
}

int cz_multieq_enforce_equal(cz_multieq_t *me, unsigned num_bits, const cz_lc_t *lhs,
                             const cz_lc_t *rhs)
{
    if (num_bits >= CZ_FR_CAPACITY)
        return CZ_EINVAL;
    int rc;
    if (CZ_FR_CAPACITY <= me->bits_used + num_bits && (rc = accumulate(me)))
        return rc;
    cz_fr coeff, two;
    cz_fr_from_u64(&two, 2);
    cz_fr_pow_u64(&coeff, &two, me->bits_used);
    cz_lc_add_scaled(&me->lhs, &coeff, lhs);
    cz_lc_add_scaled(&me->rhs, &coeff, rhs);
    me->bits_used += num_bits;
    return CZ_OK;
}

int cz_multieq_finish(cz_multieq_t *me)
{
    int rc = CZ_OK;
    if (me->bits_used > 0)
        rc = accumulate(me);
    cz_lc_free(&me->lhs);
    cz_lc_free(&me->rhs);
    return rc;
}
