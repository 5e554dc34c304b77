/*
 * circuits/toy.h — the classic toy circuit  x^3 + x + 5 = y  (y public).
 *
 * The first user of the cs API and a hand-checkable fixture for the layers
 * above it (setup, prover, verifier). Layout, in allocation/constraint order:
 *
 *   aux 0  x          aux 1  x2 = x*x     aux 2  x3 = x2*x     input 1  y
 *   #0 "x_squared":  x  * x   = x2
 *   #1 "x_cubed":    x2 * x   = x3
 *   #2 "y":          (x3 + x + 5*ONE) * ONE = y
 *
 * So 3 constraints, 2 inputs (ONE, y), 3 aux, 5 rows after the input rows.
 * Densities: a_aux = {x, x2, x3}; b_aux = {x}; b_input = {ONE}.
 *
 * Pure functions; thread-safe given distinct cs objects.
 */
#ifndef CUZK_CIRCUITS_TOY_H
#define CUZK_CIRCUITS_TOY_H

#include "cs/cs.h"
#include "ff/fr.h"

#define CZ_TOY_CUBE_CONSTRAINTS 3u
#define CZ_TOY_CUBE_INPUTS 2u /* ONE and y */
#define CZ_TOY_CUBE_AUX 3u

/* *y = x^3 + x + 5. */
void cz_toy_cube_output(cz_fr *y, const cz_fr *x);

/*
 * Synthesize the circuit into |cs| under the namespace "cube". |x| is the
 * witness; it may be NULL when !cz_cs_needs_values(cs) (and is then never
 * read). y is computed from x. Returns the cs's error code (CZ_EINVAL when
 * values are needed and x is NULL).
 */
int cz_toy_cube(cz_cs_t *cs, const cz_fr *x);

#endif /* CUZK_CIRCUITS_TOY_H */
