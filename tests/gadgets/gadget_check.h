/*
 * tests/gadgets/gadget_check.h — shared checks for the circuit gadget tests.
 *
 * A gadget test wraps the circuit in a gc_fn(cs, arg) and calls:
 *   gc_counts()     runs it in one mode and returns the counts;
 *   gc_satisfied()  runs it in CHECK mode (must be satisfied), then in SHAPE
 *                   and KEYGEN modes: the counts must not depend on the mode
 *                   (a circuit whose layout follows its values is a bug);
 *   gc_same_direct() runs it in PROVE without c and in SHAPE, once with
 *                   direct emission (cs/emit.h) and once on the general
 *                   path: assignment, a, b and densities must be the same
 *                   bytes (gc_satisfied calls it);
 *   gc_corrupt()    re-runs it in CHECK mode with aux j corrupted
 *                   (cz_cs_corrupt_aux) and expects CZ_EUNSAT with a named
 *                   constraint.
 */
#ifndef CUZK_TESTS_GADGET_CHECK_H
#define CUZK_TESTS_GADGET_CHECK_H

#include "cz_test.h"

#include "cs/cs.h"
#include "cs/emit.h"

typedef int gc_fn(cz_cs_t *cs, void *arg);

typedef struct {
    size_t constraints, aux, inputs;
    int rc;
} gc_counts_t;

static gc_counts_t gc_counts(cz_cs_mode_t mode, gc_fn *fn, void *arg)
{
    gc_counts_t r = { 0, 0, 0, CZ_EINTERNAL };
    cz_cs_t *cs = NULL;
    if (cz_cs_new(&cs, NULL, mode))
        return r;
    int rc = fn(cs, arg);
    r.constraints = cz_cs_num_constraints(cs);
    r.aux = cz_cs_num_aux(cs);
    r.inputs = cz_cs_num_inputs(cs);
    int frc = cz_cs_finish(cs);
    r.rc = rc ? rc : frc;
    if (r.rc == CZ_EUNSAT) {
        size_t idx;
        const char *path;
        if (cz_cs_unsatisfied(cs, &idx, &path))
            fprintf(stderr, "  unsatisfied: %s (#%zu)\n", path, idx);
    }
    cz_cs_free(cs);
    return r;
}

/* |fn| in |mode| (c omitted in PROVE), direct or on the general path; the
 * finished cs, or NULL (a failed check) when synthesis fails. */
static cz_cs_t *gc_run(cz_cs_mode_t mode, bool direct, gc_fn *fn, void *arg)
{
    cz_cs_t *cs = NULL;
    if (cz_cs_new(&cs, NULL, mode)) {
        CHECK(!"cz_cs_new");
        return NULL;
    }
    CHECK_EQ_INT(cz_cs_omit_c(cs), CZ_OK);
    if (!direct)
        cz_cs_emit_generic(cs);
    CHECK(cz_cs_emits(cs) == direct);
    int rc = fn(cs, arg);
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs);
    CHECK_EQ_INT(rc, CZ_OK);
    if (rc) {
        cz_cs_free(cs);
        return NULL;
    }
    return cs;
}

static bool gc_same_bytes(const void *a, const void *b, size_t n, const char *what)
{
    if (n && ((a == NULL) != (b == NULL) || memcmp(a, b, n))) {
        const uint8_t *x = a, *y = b;
        size_t at = 0;
        while (x && y && at < n && x[at] == y[at])
            at++;
        CZ__FAIL("direct and general synthesis differ: %s (first byte %zu of %zu)", what, at, n);
        cz__failed_checks++;
        return false;
    }
    return true;
}

/* Direct emission gives the general path's rows, assignment and densities. */
static void gc_same_direct(gc_fn *fn, void *arg)
{
    static const char *const dname[3] = { "a_aux density", "b_input density", "b_aux density" };
    for (int m = 0; m < 2; m++) {
        cz_cs_mode_t mode = m ? CZ_CS_SHAPE : CZ_CS_PROVE;
        cz_cs_t *d = gc_run(mode, true, fn, arg), *g = gc_run(mode, false, fn, arg);
        if (d && g) {
            CHECK_EQ_U64(cz_cs_num_rows(d), cz_cs_num_rows(g));
            CHECK_EQ_U64(cz_cs_num_aux(d), cz_cs_num_aux(g));
            CHECK_EQ_U64(cz_cs_num_inputs(d), cz_cs_num_inputs(g));
        }
        if (d && g && cz_cs_num_rows(d) == cz_cs_num_rows(g) &&
            cz_cs_num_aux(d) == cz_cs_num_aux(g) && cz_cs_num_inputs(d) == cz_cs_num_inputs(g)) {
            size_t rows = cz_cs_num_rows(d), fr = sizeof(cz_fr);
            for (int i = 0; i < 3; i++) {
                size_t nb, pd, pg;
                const uint64_t *bd = cz_cs_density(d, (cz_density_t)i, &nb, &pd);
                const uint64_t *bg = cz_cs_density(g, (cz_density_t)i, NULL, &pg);
                CHECK_EQ_U64(pd, pg);
                gc_same_bytes(bd, bg, (nb + 63) / 64 * 8, dname[i]);
            }
            if (mode == CZ_CS_PROVE) {
                gc_same_bytes(cz_cs_eval(d, CZ_MATRIX_A), cz_cs_eval(g, CZ_MATRIX_A), rows * fr,
                              "a");
                gc_same_bytes(cz_cs_eval(d, CZ_MATRIX_B), cz_cs_eval(g, CZ_MATRIX_B), rows * fr,
                              "b");
                gc_same_bytes(cz_cs_aux(d), cz_cs_aux(g), cz_cs_num_aux(d) * fr, "aux");
                gc_same_bytes(cz_cs_inputs(d), cz_cs_inputs(g), cz_cs_num_inputs(d) * fr, "inputs");
            }
        }
        cz_cs_free(d);
        cz_cs_free(g);
    }
}

/* CHECK satisfied; SHAPE and KEYGEN give the same counts; direct emission
 * gives the general path's witness. Returns CHECK's counts. */
static gc_counts_t gc_satisfied(gc_fn *fn, void *arg)
{
    gc_counts_t c = gc_counts(CZ_CS_CHECK, fn, arg);
    CHECK_EQ_INT(c.rc, CZ_OK);
    gc_counts_t s = gc_counts(CZ_CS_SHAPE, fn, arg);
    CHECK_EQ_INT(s.rc, CZ_OK);
    CHECK_EQ_U64(s.constraints, c.constraints);
    CHECK_EQ_U64(s.aux, c.aux);
    CHECK_EQ_U64(s.inputs, c.inputs);
    gc_counts_t k = gc_counts(CZ_CS_KEYGEN, fn, arg);
    CHECK_EQ_INT(k.rc, CZ_OK);
    CHECK_EQ_U64(k.constraints, c.constraints);
    CHECK_EQ_U64(k.aux, c.aux);
    gc_same_direct(fn, arg);
    return c;
}

/* CHECK with aux |j| corrupted must fail with a named constraint; the name
 * is returned in buf (for tests that want a particular constraint). */
static void gc_corrupt(gc_fn *fn, void *arg, size_t j, char *buf, size_t len)
{
    cz_cs_t *cs = NULL;
    if (buf && len)
        buf[0] = 0;
    if (cz_cs_new(&cs, NULL, CZ_CS_CHECK)) {
        CHECK(!"cz_cs_new");
        return;
    }
    cz_cs_corrupt_aux(cs, j);
    int rc = fn(cs, arg);
    int frc = cz_cs_finish(cs);
    CHECK_EQ_INT(rc, CZ_OK);
    CHECK_EQ_INT(frc, CZ_EUNSAT);
    size_t idx;
    const char *path = NULL;
    if (!cz_cs_unsatisfied(cs, &idx, &path)) {
        CZ__FAIL("aux %zu corrupted but every constraint held", j);
    } else {
        CHECK(path && path[0]);
        if (buf && len)
            snprintf(buf, len, "%s", path);
    }
    cz_cs_free(cs);
}

/* Corrupt every aux in [0, n) when n is small, else |samples| spread ones. */
static void gc_corrupt_many(gc_fn *fn, void *arg, size_t n, size_t samples)
{
    if (n <= samples) {
        for (size_t j = 0; j < n; j++)
            gc_corrupt(fn, arg, j, NULL, 0);
        return;
    }
    for (size_t k = 0; k < samples; k++)
        gc_corrupt(fn, arg, (k * 7919 + 13) % n, NULL, 0);
}

#endif /* CUZK_TESTS_GADGET_CHECK_H */
