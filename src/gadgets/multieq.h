/*
 * gadgets/multieq.h — batched equalities (bellpepper's MultiEq).
 *
 * Source: bellpepper src/gadgets/multieq.rs. Each enforce_equal(num_bits,
 * lhs, rhs) states lhs = rhs for values below 2^num_bits; MultiEq packs them
 * into one constraint  (sum 2^off_k lhs_k) * 1 = (sum 2^off_k rhs_k),
 * offsets growing by num_bits. Before adding, when CAPACITY (254) <=
 * bits_used + num_bits, the pending batch is enforced first (named
 * "multieq <ops>"). cz_multieq_finish() enforces what is pending (bellpepper
 * does it when the MultiEq is dropped, at the end of each SHA-256
 * compression) and releases the combinations.
 *
 * The MultiEq only batches: allocations and other constraints go straight to
 * the cs, so a gadget keeps using |cs| while a MultiEq is open. Constraints
 * are enforced in the current namespace of the cs at flush time.
 *
 * Ownership: a cz_multieq_t lives on the caller's stack; always pair
 * cz_multieq_init with cz_multieq_finish (also on error paths: it releases
 * memory and, after an error, enforces nothing since the cs is sticky).
 * Thread-safety: as its cs.
 */
#ifndef CUZK_GADGETS_MULTIEQ_H
#define CUZK_GADGETS_MULTIEQ_H

#include "cs/cs.h"
#include "gadgets/boolean.h"

/* Direct path (cs/emit.h): one variable's merged coefficient in the batch.
 * A variable used once has the coefficient +-2^e, never 0: only a second
 * use starts the field arithmetic. */
typedef struct {
    uint32_t index; /* aux index + 1; 0: free slot */
    uint16_t exp;   /* the first use: +-2^exp ... */
    uint8_t neg;
    uint8_t merged; /* ... or, from the second use on, coeff */
    cz_fr coeff;
} cz__multieq_slot;

typedef struct {
    cz_cs_t *cs;        /* borrowed */
    size_t ops;         /* batches enforced so far */
    unsigned bits_used; /* bits of the pending batch */
    cz_lc_t lhs, rhs;   /* pending batch (general path) */
    /*
     * Direct path, chosen at init when cz_cs_emits(cs): the pending lhs is
     * kept as its value (PROVE) and, for the density of A, the merged
     * coefficient of every aux it uses that is not A-dense yet (an
     * open-addressing table; a repeated variable may cancel, as in cz_lc_t).
     * rhs is C: neither stored nor tracked, so it is not kept.
     */
    bool direct;
    cz_fr value;
    cz__multieq_slot *slots;
    size_t nslots, nlive; /* table size (a power of two), slots in use */
} cz_multieq_t;

void cz_multieq_init(cz_multieq_t *me, cz_cs_t *cs);
/* Add lhs = rhs (values < 2^num_bits, num_bits < 254). CZ_EINVAL for a
 * num_bits that can never fit; otherwise CZ_OK or the cs's error. */
int cz_multieq_enforce_equal(cz_multieq_t *me, unsigned num_bits, const cz_lc_t *lhs,
                             const cz_lc_t *rhs);
/*
 * The same for lhs = sum over words k and bits i < word_bits of
 * 2^i * words[k][i] (booleans, little-endian words: UInt32::addmany's
 * operands), whose value is |value| (< 2^num_bits), and rhs = the result
 * |bits| (num_bits of them, little-endian). In direct mode nothing is
 * built: the value and the operands' variables go to the batch; otherwise
 * both sides become the cz_lc_t's of cz_multieq_enforce_equal.
 */
int cz_multieq_enforce_words(cz_multieq_t *me, unsigned num_bits, const cz_bool_t *const *words,
                             size_t nwords, unsigned word_bits, uint64_t value,
                             const cz_bool_t *bits);
/* Enforce the pending batch (if any) and release; returns CZ_OK or the
 * cs's error. */
int cz_multieq_finish(cz_multieq_t *me);

#endif /* CUZK_GADGETS_MULTIEQ_H */
