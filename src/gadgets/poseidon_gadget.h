/*
 * gadgets/poseidon_gadget.h — Poseidon in the circuit, neptune's legacy
 * layout (the one Filecoin's parameters were generated with).
 *
 * Source: neptune src/circuit.rs, `poseidon_hash` (NOT circuit2). The state
 * elements are either allocated numbers or linear combinations (neptune's
 * Elt::Allocated / Elt::Num); the MDS, pre-sparse and sparse products only
 * build combinations, and a combination is allocated (alloc + `lc * 1 = v`)
 * when an S-box needs it. Per FACTS 4:
 *   first round   element 0 (the domain tag) is a constant: its S-box is
 *                 computed natively, no constraint; elements 1..arity take
 *                 (x + pre)^2, ^4 and (x + pre) * x4 + post: 3 constraints;
 *   later rounds  every S-box: allocate its input, l^2, l^4, l4 * l (+ key):
 *                 4 constraints (full rounds: all t elements; partial: 1);
 *   result        element 1 allocated: 1 constraint.
 *   Total = 3 * arity + 4 * 7 * t + 4 * RP + 1 (t = arity + 1): 311 for
 *   arity 2, 505 for arity 8, 598 for arity 11.
 * The witness follows neptune's optimized "static" algorithm (compressed
 * round constants, pre-sparse matrix after the last first-half full round,
 * sparse matrices in the partial rounds), so the output equals
 * cz_poseidon_hash() of the same preimage.
 *
 * Return values: CZ_OK, CZ_EINVAL (NULL constants), CZ_ENOMEM, or the cs's
 * (sticky) error. The constants are only read (any number of threads may
 * share them); the cs is used by one thread at a time.
 */
#ifndef CUZK_GADGETS_POSEIDON_GADGET_H
#define CUZK_GADGETS_POSEIDON_GADGET_H

#include "gadgets/num.h"
#include "hash/poseidon_constants.h"

/* *out = Poseidon(preimage[0 .. c->arity)) in circuit. */
int cz_poseidon_gadget(cz_cs_t *cs, cz_num_t *out, const cz_poseidon_constants *c,
                       const cz_num_t *preimage);

/* The number of constraints the gadget adds for |c|. */
size_t cz_poseidon_gadget_constraints(const cz_poseidon_constants *c);

#endif /* CUZK_GADGETS_POSEIDON_GADGET_H */
