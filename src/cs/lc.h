/*
 * cs/lc.h — variables and linear combinations of the constraint system.
 *
 * A variable is an input (public, Input(i)) or an aux (private, Aux(j)), as
 * in bellpepper-core (BPC lc.rs `Index`). Input 0 is the constant ONE, which
 * every cz_cs allocates before the circuit runs (BP groth16/prover: the
 * prover's `alloc_input(ONE)` comes first, FACTS 1).
 *
 * A linear combination (cz_lc_t) is a sparse sum  sum_k coeff_k * var_k.
 * Like BPC's LinearCombination (two `Indexer`s, one for inputs and one for
 * aux, each kept sorted by index), its terms are kept sorted with all inputs
 * before all aux, and adding a variable that is already present adds to its
 * coefficient instead of appending a second term. A coefficient that becomes
 * zero stays as a term (BPC does not remove it either); the prover skips it
 * when evaluating and it does not count for density (BP lc.rs
 * `eval_with_trackers` tests `coeff.is_zero_vartime()`, FACTS 1).
 *
 * Storage: the first CZ_LC_INLINE terms live inside the struct, so a small
 * combination on the stack never touches the heap; longer ones grow a heap
 * buffer by doubling, and cz_lc_clear() keeps that buffer for reuse. A
 * zero-initialised cz_lc_t (`cz_lc_t lc = {0};`) is a valid empty
 * combination. Never copy a cz_lc_t by assignment (the copy would share the
 * heap buffer): use cz_lc_copy(). Release it with cz_lc_free().
 *
 * Errors: building never returns a code. If growing fails the combination is
 * marked (cz_lc_error() returns CZ_ENOMEM), later operations on it do nothing,
 * and cz_cs_enforce() of it fails with CZ_ENOMEM.
 *
 * Thread-safety: a cz_lc_t is used by one thread at a time; the functions
 * reading one (const) may run concurrently.
 */
#ifndef CUZK_CS_LC_H
#define CUZK_CS_LC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ff/fr.h"

/* ---- variables ---------------------------------------------------------- */

/*
 * A variable's id: bit 31 set for aux, clear for inputs; the low 31 bits are
 * the index. Sorting ids therefore puts inputs (ascending) before aux
 * (ascending), the order in which BPC's LinearCombination iterates.
 */
typedef struct {
    uint32_t id;
} cz_var_t;

#define CZ_VAR_AUX_BIT 0x80000000u
#define CZ_VAR_MAX_INDEX 0x7fffffffu
/* Input 0: the constant 1. */
#define CZ_VAR_ONE ((cz_var_t){ 0 })

static inline cz_var_t cz_var_input(uint32_t i)
{
    return (cz_var_t){ i };
}
static inline cz_var_t cz_var_aux(uint32_t j)
{
    return (cz_var_t){ j | CZ_VAR_AUX_BIT };
}
static inline bool cz_var_is_aux(cz_var_t v)
{
    return (v.id & CZ_VAR_AUX_BIT) != 0;
}
static inline bool cz_var_is_input(cz_var_t v)
{
    return (v.id & CZ_VAR_AUX_BIT) == 0;
}
static inline uint32_t cz_var_index(cz_var_t v)
{
    return v.id & CZ_VAR_MAX_INDEX;
}
static inline bool cz_var_eq(cz_var_t a, cz_var_t b)
{
    return a.id == b.id;
}

/* ---- linear combinations ------------------------------------------------ */

#define CZ_LC_INLINE 4

typedef struct cz_lc {
    uint32_t len;    /* number of terms */
    uint32_t cap;    /* heap capacity; 0 while the inline arrays are used */
    uint32_t last;   /* position of the last inserted/updated term */
    int err;         /* CZ_OK or CZ_ENOMEM (sticky) */
    uint32_t *hvars; /* heap arrays (NULL while inline) */
    cz_fr *hcoeffs;
    uint32_t ivars[CZ_LC_INLINE];
    cz_fr icoeffs[CZ_LC_INLINE];
} cz_lc_t;

/* Make |lc| empty, inline storage (same as zero-initialisation). */
void cz_lc_init(cz_lc_t *lc);
/* Release the heap buffer and leave |lc| empty. NULL is a harmless no-op. */
void cz_lc_free(cz_lc_t *lc);
/* Remove every term (and any error), keeping the buffer for reuse. */
void cz_lc_clear(cz_lc_t *lc);
/* CZ_OK, or CZ_ENOMEM when some operation could not grow the buffer. */
static inline int cz_lc_error(const cz_lc_t *lc)
{
    return lc->err;
}

static inline size_t cz_lc_len(const cz_lc_t *lc)
{
    return lc->len;
}
/* Term arrays: ids ascending (inputs first), coefficients alongside. */
static inline const uint32_t *cz_lc_ids(const cz_lc_t *lc)
{
    return lc->hvars ? lc->hvars : lc->ivars;
}
static inline const cz_fr *cz_lc_coeffs(const cz_lc_t *lc)
{
    return lc->hcoeffs ? lc->hcoeffs : lc->icoeffs;
}
static inline cz_var_t cz_lc_var(const cz_lc_t *lc, size_t k)
{
    return (cz_var_t){ cz_lc_ids(lc)[k] };
}

/* lc += var (coefficient 1), lc -= var (coefficient -1). */
void cz_lc_add(cz_lc_t *lc, cz_var_t var);
void cz_lc_sub(cz_lc_t *lc, cz_var_t var);
/* lc += coeff * var, lc -= coeff * var. */
void cz_lc_add_term(cz_lc_t *lc, const cz_fr *coeff, cz_var_t var);
void cz_lc_sub_term(cz_lc_t *lc, const cz_fr *coeff, cz_var_t var);
/* lc += other, lc -= other (term by term, as BPC's `lc + &other`). */
void cz_lc_add_lc(cz_lc_t *lc, const cz_lc_t *other);
void cz_lc_sub_lc(cz_lc_t *lc, const cz_lc_t *other);
/* lc += coeff * other, lc -= coeff * other. */
void cz_lc_add_scaled(cz_lc_t *lc, const cz_fr *coeff, const cz_lc_t *other);
void cz_lc_sub_scaled(cz_lc_t *lc, const cz_fr *coeff, const cz_lc_t *other);
/* dst = src (dst's buffer is reused; dst == src is a no-op). */
void cz_lc_copy(cz_lc_t *dst, const cz_lc_t *src);

/*
 * *out = sum coeff_k * z(var_k) with z(Input(i)) = inputs[i], z(Aux(j)) =
 * aux[j]. Zero coefficients are skipped. The caller guarantees the indices
 * are in range (cz_cs_enforce checks them).
 */
void cz_lc_eval(cz_fr *out, const cz_lc_t *lc, const cz_fr *inputs, const cz_fr *aux);

#endif /* CUZK_CS_LC_H */
