/*
 * gadgets/gadget_int.h — private to src/gadgets: small helpers shared by the
 * circuit gadgets (boolean, num, uint32, sha256, poseidon, por ...).
 *
 * Nothing here allocates; every helper is pure or works on the caller's
 * combinations. Not part of any public interface.
 */
#ifndef CUZK_GADGETS_GADGET_INT_H
#define CUZK_GADGETS_GADGET_INT_H

#include "cs/cs.h"

/* Return the code of |expr| when it is not CZ_OK. */
/* laid out by hand: */
/* clang-format off */
#define CZ__TRY(expr)                                                         \
    do {                                                                      \
        int cz__rc_ = (expr);                                                 \
        if (cz__rc_)                                                          \
            return cz__rc_;                                                   \
    } while (0)
/* clang-format on */

/* Jump to |label| with rc set when |expr| fails (for cleanup paths). */
/* laid out by hand: */
/* clang-format off */
#define CZ__CHECK(rc, expr, label)                                            \
    do {                                                                      \
        if (((rc) = (expr)) != CZ_OK)                                         \
            goto label;                                                       \
    } while (0)
/* clang-format on */

/* The field element 0 or 1. */
static inline const cz_fr *cz__fr_bit(bool b)
{
    return b ? &CZ_FR_ONE : &CZ_FR_ZERO;
}

/* Release three combinations (a harmless no-op for inline-only ones). */
static inline void cz__lc_free3(cz_lc_t *a, cz_lc_t *b, cz_lc_t *c)
{
    cz_lc_free(a);
    cz_lc_free(b);
    cz_lc_free(c);
}

/* Enforce a * b = c and release the three combinations. */
static inline int cz__enforce_free(cz_cs_t *cs, cz_lc_t *a, cz_lc_t *b, cz_lc_t *c,
                                   const char *name)
{
    int rc = cz_cs_enforce(cs, a, b, c, name);
    cz__lc_free3(a, b, c);
    return rc;
}

#endif /* CUZK_GADGETS_GADGET_INT_H */
