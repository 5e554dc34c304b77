/*
 * circuits/toy.c — x^3 + x + 5 = y (see circuits/toy.h).
 */
#include "circuits/toy.h"

void cz_toy_cube_output(cz_fr *y, const cz_fr *x)
{
    cz_fr t, five;
    cz_fr_sqr(&t, x);
    cz_fr_mul(&t, &t, x);
    cz_fr_add(&t, &t, x);
    cz_fr_from_u64(&five, 5);
    cz_fr_add(y, &t, &five);
}

int cz_toy_cube(cz_cs_t *cs, const cz_fr *x)
{
    /* Values exist only when the mode wants them and the caller gave x. */
    const bool vals = cz_cs_needs_values(cs) && x != NULL;
    cz_fr x2, x3, y, five;
    if (vals) {
        cz_fr_sqr(&x2, x);
        cz_fr_mul(&x3, &x2, x);
        cz_toy_cube_output(&y, x);
    }
    cz_fr_from_u64(&five, 5);

    cz_var_t vx, vx2, vx3, vy;
    cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
    int rc;
    if ((rc = cz_cs_push(cs, "cube")))
        goto out;

    if ((rc = cz_cs_alloc(cs, &vx, vals ? x : NULL)) ||
        (rc = cz_cs_alloc(cs, &vx2, vals ? &x2 : NULL)))
        goto out;
    cz_lc_add(&a, vx);
    cz_lc_add(&b, vx);
    cz_lc_add(&c, vx2);
    if ((rc = cz_cs_enforce(cs, &a, &b, &c, "x_squared")))
        goto out;

    if ((rc = cz_cs_alloc(cs, &vx3, vals ? &x3 : NULL)))
        goto out;
    cz_lc_clear(&a);
    cz_lc_clear(&c);
    cz_lc_add(&a, vx2); /* b is still x */
    cz_lc_add(&c, vx3);
    if ((rc = cz_cs_enforce(cs, &a, &b, &c, "x_cubed")))
        goto out;

    if ((rc = cz_cs_alloc_input(cs, &vy, vals ? &y : NULL)))
        goto out;
    cz_lc_clear(&a);
    cz_lc_clear(&b);
    cz_lc_clear(&c);
    cz_lc_add(&a, vx3);
    cz_lc_add(&a, vx);
    cz_lc_add_term(&a, &five, CZ_VAR_ONE);
    cz_lc_add(&b, CZ_VAR_ONE);
    cz_lc_add(&c, vy);
    if ((rc = cz_cs_enforce(cs, &a, &b, &c, "y")))
        goto out;
    rc = cz_cs_pop(cs);
out:
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
    return rc;
}
