/*
 * cs/cs_int.h — private to src/cs: the cz_cs_t layout and helpers shared by
 * cs.c (modes, allocation, enforce, results) and cs_names.c (namespaces and
 * CHECK-mode naming).
 */
#ifndef CUZK_CS_CS_INT_H
#define CUZK_CS_CS_INT_H

#include "cs/cs.h"

/* Small values kept as field elements per cs (cs_emit.c): -8..8. */
#define CZ__SMALL 8

/* A growable bitmap of |nbits| bits in |cap| words (words past nbits are 0). */
typedef struct {
    uint64_t *w;
    size_t cap; /* words allocated */
    size_t nbits;
    size_t pop; /* set by cz_cs_finish */
} cz__bitmap;

/*
 * A growable array of Fr: elements [0, len). A fork borrows its parent's
 * elements [0, base) read-only from |shared| (cs_fork.c) and stores only
 * its own, [base, len), in v (v[i - base]); elsewhere base = 0.
 */
typedef struct {
    cz_fr *v;
    size_t len, cap;     /* cap: elements v holds */
    const cz_fr *shared; /* [0, base), borrowed */
    size_t base;
    bool fixed; /* v is borrowed (an in-place fork's slot): never grows */
} cz__frvec;

/* Element i < len (i >= base: stored in v). */
static inline const cz_fr *cz__frvec_at(const cz__frvec *f, size_t i)
{
    return i < f->base ? &f->shared[i] : &f->v[i - f->base];
}

/* A CSR matrix being built (KEYGEN); row_ptr[0] = 0 always. */
typedef struct {
    cz_csr_t m;
    size_t row_cap; /* row_ptr entries allocated */
    size_t nnz_cap;
} cz__csr_builder;

struct cz_cs {
    cz_ctx_t *ctx; /* borrowed, may be NULL */
    cz_cs_mode_t mode;
    int err; /* sticky first error (CZ_OK while none) */
    bool finished;
    int finish_rc; /* what cz_cs_finish returned */
    bool taken;    /* cz_cs_take_witness moved the arrays out */

    size_t n_constraints; /* circuit constraints (no input rows) */
    size_t n_rows;        /* after finish: n_constraints + inputs */

    /* Assignments (PROVE, CHECK). In the other modes only .len counts. */
    cz__frvec input;
    cz__frvec aux;

    /* Evaluations (PROVE): a, b, c of every row; abc_cap rows allocated.
     * With omit_c (cz_cs_omit_c) c stays NULL and C is only range-checked. */
    cz_fr *a, *b, *c;
    size_t abc_cap;
    bool omit_c;

    cz__bitmap dens[3]; /* indexed by cz_density_t */

    cz__csr_builder mat[3]; /* KEYGEN, indexed by cz_matrix_t */

    /* Namespaces: depth in every mode; the path string only in CHECK. */
    unsigned depth;
    char *path; /* "a/b/c", NUL-terminated (CHECK) */
    size_t path_len, path_cap;
    size_t *ns_off; /* path_len before each push (CHECK) */
    size_t ns_cap;

    /* CHECK: the first unsatisfied constraint. */
    bool unsat;
    size_t unsat_index;
    char *unsat_path;

    /* Test fault: aux index + 1 whose stored value gets + 1 (0: none). */
    size_t corrupt_aux1;

    /* A fork (cs_fork.c): the parent's input and aux counts when forked. */
    bool forked;
    size_t fork_inputs, fork_aux;
    /* An in-place fork (cz_cs_fork_at): its values and rows are written
     * into |inplace_parent|'s arrays at their final places (input, aux,
     * a, b, c are borrowed, not owned), its ids are the final ones. */
    const cz_cs_t *inplace_parent;
    cz_cs_slot_t at;
    size_t fork_rows; /* the parent's rows when forked */

    /* Direct emission (cs/emit.h, cs_emit.c). */
    bool emit_generic;              /* cz_cs_emit_generic: never emit directly */
    cz_fr small[2 * CZ__SMALL + 1]; /* small[CZ__SMALL + v] = v, |v| <= CZ__SMALL */
    bool pow2_ready;
    cz_fr pow2[256]; /* 2^e, built on first use */
};

/* Record |code| as the sticky error (first one wins) with a message. */
int cz__cs_fail(cz_cs_t *cs, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * CHECK: remember constraint |index| as the first unsatisfied one, named
 * |name| within the current namespace path (NULL name: "(unnamed)").
 */
int cz__cs_record_unsat(cz_cs_t *cs, size_t index, const char *name);

/* Room for |rows| rows of a/b (and c unless omitted); CZ_ENOMEM (sticky). */
int cz__cs_abc_reserve(cz_cs_t *cs, size_t rows);

/* Room for |rows| more rows, |aux| more aux, |inputs| more inputs (values,
 * a/b/c, bitmaps), growing as allocation does; CZ_ENOMEM / CZ_EINTERNAL (an
 * in-place fork's slot) sticky. */
int cz__cs_grow(cz_cs_t *cs, size_t rows, size_t aux, size_t inputs);

/* Fill cs->small (cz_cs_new). */
void cz__cs_emit_init(cz_cs_t *cs);

/* Release the namespace and unsat strings. */
void cz__cs_names_free(cz_cs_t *cs);

#endif /* CUZK_CS_CS_INT_H */
