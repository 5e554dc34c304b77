/*
 * gadgets/insertion.h — conditional selection and Merkle-path insertion,
 * rust-fil-proofs-exact.
 *
 * Source: rust-fil-proofs storage-proofs-core/src/gadgets/insertion.rs.
 *
 *   cz_pick     c = cond ? a : b: alloc "pick result", then
 *               (b - a) * cond = (b - c)  ("pick"); FACTS 4.
 *   cz_insert   out = elements with |element| inserted at the position the
 *               little-endian |bits| encode (out has 2^nbits entries,
 *               elements 2^nbits - 1). Sizes 2, 4 and 8 use RFP's
 *               hand-written insert_2 / insert_4 / insert_8 (insert_8
 *               first computes nor(b0, b1) and and(b0, b1), then 20 picks:
 *               22 constraints); other sizes use the general select-based
 *               algorithm (size * (size - 1) picks). insert_8 requires its
 *               bits to be allocated and not negated (IS), as RFP asserts.
 *   cz_select   from[n] with n = 2^nbits picked by |bits|: n - 1 picks.
 *
 * Return values: CZ_OK, CZ_EINVAL (bad sizes or bit kinds), or the cs's
 * (sticky) error. Outputs must not alias inputs. Thread-safety: as the cs.
 */
#ifndef CUZK_GADGETS_INSERTION_H
#define CUZK_GADGETS_INSERTION_H

#include "gadgets/num.h"

/* The largest insertion size of the general algorithm. */
#define CZ_INSERT_MAX 64u
/* The largest selection (SnapDeals selects among 128 apex leaves). */
#define CZ_SELECT_MAX 128u

int cz_pick(cz_cs_t *cs, cz_num_t *out, cz_bool_t cond, const cz_num_t *a, const cz_num_t *b);
int cz_insert(cz_cs_t *cs, cz_num_t *out, const cz_num_t *element, const cz_bool_t *bits,
              size_t nbits, const cz_num_t *elements);
int cz_select(cz_cs_t *cs, cz_num_t *out, const cz_num_t *from, const cz_bool_t *bits,
              size_t nbits);

#endif /* CUZK_GADGETS_INSERTION_H */
