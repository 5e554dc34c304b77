/*
 * cs/cs.c — the constraint system's modes: allocation, enforce, finish and
 * the results (see cs/cs.h for the contract).
 *
 * Per enforce, each mode does one pass over each of A, B and C:
 *   every mode   range-check the variables; set the density bits of the
 *                non-zero terms (A: aux only; B: inputs and aux), as
 *                bellperson's ProvingAssignment::enforce does with
 *                eval_with_trackers (BP groth16/prover/mod.rs, lc.rs);
 *   PROVE        also accumulate <LC,z> and append it to a, b, c (after
 *                cz_cs_omit_c: to a and b only; C is range-checked);
 *   CHECK        also accumulate and compare a*b with c;
 *   KEYGEN       also append the non-zero terms as one CSR row per matrix.
 */
#include "cs/cs_int.h"

#include "core/fault.h"
#include "core/pool.h"
#include "core/recycle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- growth helpers ------------------------------------------------------ */

/*
 * Ask for transparent huge pages on a large array: first-touch page faults
 * dominated PROVE synthesis with 4 KiB pages (75% of lc_pass in perf on a
 * VM); with 2 MiB pages there are 512x fewer. Advisory: failure is ignored.
 */
static void advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (bytes < ((size_t)4 << 20))
        return;
    uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
    uintptr_t hi = ((uintptr_t)p + bytes) & ~(uintptr_t)4095;
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p, (void)bytes;
#endif
}

/* Grow *p (elements of |elem| bytes, *cap allocated) to hold |need|. */
static int grow(cz_ctx_t *ctx, void **p, size_t *cap, size_t need, size_t elem, bool zero)
{
    if (need <= *cap)
        return CZ_OK;
    size_t ncap = *cap ? *cap * 2 : 64;
    if (ncap < need)
        ncap = need;
    if (ncap > SIZE_MAX / elem)
        return CZ_ENOMEM;
    void *q = cz__fault_realloc(ctx, *p, ncap * elem);
    if (!q)
        return CZ_ENOMEM;
    advise_huge(q, ncap * elem);
    if (zero)
        memset((char *)q + *cap * elem, 0, (ncap - *cap) * elem);
    *p = q;
    *cap = ncap;
    return CZ_OK;
}

/*
 * The first allocation of an array: a block of [bytes, max_bytes] the
 * ctx's recycler kept from an earlier partition (its pages are already
 * faulted in: no kernel zeroing, core/recycle.h), else NULL and the caller
 * allocates. The recycler keeps only large blocks, so small arrays never
 * find one.
 */
static void *take_recycled(cz_cs_t *cs, size_t bytes, size_t max_bytes)
{
    return cz_recycler_take_range(cz_ctx_recycler(cs->ctx), bytes, max_bytes);
}

/* Room for elements [0, need) (v holds those from base on). */
static int frvec_reserve(cz_cs_t *cs, cz__frvec *v, size_t need)
{
    size_t own = need > v->base ? need - v->base : 0;
    if (own <= v->cap)
        return CZ_OK;
    const size_t bytes = own * sizeof(cz_fr);
    if (!v->v && !v->fixed && (v->v = take_recycled(cs, bytes, bytes + bytes / 4))) {
        v->cap = own;
        return CZ_OK;
    }
    if (v->fixed)
        return cz__cs_fail(cs, CZ_EINTERNAL,
                           "in-place fork: more variables than its slot "
                           "of %zu",
                           v->cap);
    if (grow(cs->ctx, (void **)&v->v, &v->cap, own, sizeof(cz_fr), false))
        return cz__cs_fail(cs, CZ_ENOMEM, "assignment of %zu elements", need);
    return CZ_OK;
}

static int bitmap_reserve(cz_cs_t *cs, cz__bitmap *bm, size_t nbits)
{
    if (nbits <= bm->cap * 64)
        return CZ_OK;
    if (grow(cs->ctx, (void **)&bm->w, &bm->cap, (nbits + 63) / 64, sizeof(uint64_t), true))
        return cz__cs_fail(cs, CZ_ENOMEM, "density bitmap of %zu bits", nbits);
    return CZ_OK;
}

int cz__cs_abc_reserve(cz_cs_t *cs, size_t rows)
{
    if (rows <= cs->abc_cap)
        return CZ_OK;
    if (cs->inplace_parent)
        return cz__cs_fail(cs, CZ_EINTERNAL, "in-place fork: more rows than its slot of %zu",
                           cs->abc_cap);
    size_t cap = cs->abc_cap ? cs->abc_cap * 2 : 1024;
    if (cap < rows)
        cap = rows;
    if (cap > SIZE_MAX / sizeof(cz_fr))
        return cz__cs_fail(cs, CZ_ENOMEM, "a/b/c of %zu rows", rows);
    cz_fr **v[3] = { &cs->a, &cs->b, &cs->c };
    /* a, b (c) end up FFT-domain sized (the next power of two): a kept
     * block up to that size fits now; a new block is allocated at that
     * size at once, so the prover never grows it. Growing it later was a
     * realloc of a huge-page array, which the kernel does by splitting and
     * moving every page: 3-8 s per array at 2^27 on the H200 host, 58 s on
     * the 2-core VM (docs/PERFORMANCE.md, "cold start"). */
    size_t domain = 1;
    while (domain < cap)
        domain <<= 1;
    for (int i = 0; i < (cs->omit_c ? 2 : 3); i++) {
        cz_fr *q = *v[i] ? NULL
                         : take_recycled(cs, cap * sizeof(cz_fr), domain * sizeof(cz_fr) + 65536);
        if (q) {
            *v[i] = q;
            continue;
        }
        q = cz__fault_realloc(cs->ctx, *v[i], domain * sizeof(cz_fr));
        if (!q)
            return cz__cs_fail(cs, CZ_ENOMEM, "a/b/c of %zu rows", domain);
        advise_huge(q, domain * sizeof(cz_fr));
        *v[i] = q;
    }
    cs->abc_cap = cap;
    return CZ_OK;
}

static int csr_reserve(cz_cs_t *cs, cz__csr_builder *b, size_t rows, size_t nnz)
{
    if (grow(cs->ctx, (void **)&b->m.row_ptr, &b->row_cap, rows + 1, sizeof(uint64_t), false))
        return cz__cs_fail(cs, CZ_ENOMEM, "matrix of %zu rows", rows);
    size_t cap = b->nnz_cap;
    if (grow(cs->ctx, (void **)&b->m.cols, &cap, nnz, sizeof(uint32_t), false) ||
        grow(cs->ctx, (void **)&b->m.vals, &b->nnz_cap, nnz, sizeof(cz_fr), false))
        return cz__cs_fail(cs, CZ_ENOMEM, "matrix of %zu entries", nnz);
    /* cols may have grown further than vals: both hold at least nnz_cap. */
    return CZ_OK;
}

/* ---- life cycle ------------------------------------------------------------ */

static bool mode_has_values(cz_cs_mode_t m)
{
    return m == CZ_CS_PROVE || m == CZ_CS_CHECK;
}

int cz_cs_new(cz_cs_t **out, cz_ctx_t *ctx, cz_cs_mode_t mode)
{
    *out = NULL;
    if (mode != CZ_CS_PROVE && mode != CZ_CS_KEYGEN && mode != CZ_CS_SHAPE && mode != CZ_CS_CHECK)
        return cz_fail(ctx, CZ_EINVAL, "cs: unknown mode %d", (int)mode);
    cz_cs_t *cs = calloc(1, sizeof *cs);
    if (!cs)
        return cz_fail(ctx, CZ_ENOMEM, "cs: out of memory");
    cs->ctx = ctx;
    cs->mode = mode;
    cz__cs_emit_init(cs);
    if (mode == CZ_CS_KEYGEN) {
        for (int i = 0; i < 3; i++) {
            if (csr_reserve(cs, &cs->mat[i], 0, 0))
                break;
            cs->mat[i].m.row_ptr[0] = 0;
        }
    }
    /* ONE is input 0, allocated before the circuit (BP groth16/prover). */
    cz_var_t one;
    int rc = cs->err ? cs->err : cz_cs_alloc_input(cs, &one, &CZ_FR_ONE);
    if (rc) {
        cz_cs_free(cs);
        return rc;
    }
    *out = cs;
    return CZ_OK;
}

void cz_cs_free(cz_cs_t *cs)
{
    if (!cs)
        return;
    if (!cs->inplace_parent) { /* an in-place fork's arrays are its parent's */
        free(cs->input.v);
        free(cs->aux.v);
        free(cs->a);
        free(cs->b);
        free(cs->c);
    }
    for (int i = 0; i < 3; i++) {
        free(cs->dens[i].w);
        free(cs->mat[i].m.row_ptr);
        free(cs->mat[i].m.cols);
        free(cs->mat[i].m.vals);
    }
    cz__cs_names_free(cs);
    free(cs);
}

int cz_cs_reserve(cz_cs_t *cs, size_t constraints, size_t aux, size_t inputs)
{
    if (cs->err)
        return cs->err;
    if (cs->n_constraints || cs->finished)
        return cz__cs_fail(cs, CZ_EINVAL, "reserve after the first constraint");
    if (constraints > SIZE_MAX / 4 || inputs > SIZE_MAX / 4)
        return cz__cs_fail(cs, CZ_ENOMEM, "reserve of %zu rows", constraints);
    size_t rows = constraints + inputs;
    int rc;
    if (cs->mode == CZ_CS_KEYGEN) {
        for (int i = 0; i < 3; i++)
            if ((rc = csr_reserve(cs, &cs->mat[i], rows, 0)))
                return rc;
    }
    /* Counts are totals; what is allocated already (ONE) is part of them. */
    return cz__cs_grow(cs, rows, aux > cs->aux.len ? aux - cs->aux.len : 0,
                       inputs > cs->input.len ? inputs - cs->input.len : 0);
}

int cz_cs_room(cz_cs_t *cs, size_t rows, size_t aux, size_t inputs)
{
    if (cs->err)
        return cs->err;
    if (cs->finished || cs->forked)
        return cz__cs_fail(cs, CZ_EINVAL, "room on a finished or forked cs");
    return cz__cs_grow(cs, rows, aux, inputs);
}

int cz__cs_grow(cz_cs_t *cs, size_t rows, size_t aux, size_t inputs)
{
    if (rows > SIZE_MAX / 4 || aux > SIZE_MAX / 4 || inputs > SIZE_MAX / 4)
        return cz__cs_fail(cs, CZ_ENOMEM, "room for %zu rows", rows);
    const size_t n_in = cs->input.len + inputs, n_aux = cs->aux.len + aux;
    int rc = CZ_OK;
    if (mode_has_values(cs->mode) &&
        ((rc = frvec_reserve(cs, &cs->input, n_in)) || (rc = frvec_reserve(cs, &cs->aux, n_aux))))
        return rc;
    if (cs->mode == CZ_CS_PROVE && (rc = cz__cs_abc_reserve(cs, cs->n_constraints + rows)))
        return rc;
    if ((rc = bitmap_reserve(cs, &cs->dens[CZ_DENSITY_A_AUX], n_aux)) ||
        (rc = bitmap_reserve(cs, &cs->dens[CZ_DENSITY_B_AUX], n_aux)) ||
        (rc = bitmap_reserve(cs, &cs->dens[CZ_DENSITY_B_INPUT], n_in)))
        return rc;
    return CZ_OK;
}

int cz_cs_omit_c(cz_cs_t *cs)
{
    if (cs->err)
        return cs->err;
    if (cs->mode != CZ_CS_PROVE)
        return CZ_OK; /* CHECK, KEYGEN and SHAPE keep C */
    if (cs->n_constraints || cs->finished)
        return cz__cs_fail(cs, CZ_EINVAL, "omit_c after the first constraint");
    cs->omit_c = true;
    free(cs->c); /* reserved before: not needed */
    cs->c = NULL;
    return CZ_OK;
}

bool cz_cs_omits_c(const cz_cs_t *cs)
{
    return cs->omit_c;
}

cz_cs_mode_t cz_cs_mode(const cz_cs_t *cs)
{
    return cs->mode;
}
bool cz_cs_needs_values(const cz_cs_t *cs)
{
    return mode_has_values(cs->mode);
}

/* ---- allocation ------------------------------------------------------------ */

static int cs_alloc(cz_cs_t *cs, cz_var_t *var, bool input, const cz_fr *value, cz_cs_value_fn *fn,
                    void *arg)
{
    if (cs->err)
        return cs->err;
    if (cs->finished)
        return cz__cs_fail(cs, CZ_EINVAL, "alloc after finish");
    cz__frvec *vec = input ? &cs->input : &cs->aux;
    size_t n = vec->len;
    if (n > CZ_VAR_MAX_INDEX)
        return cz__cs_fail(cs, CZ_ERANGE, "more than 2^31 %s variables", input ? "input" : "aux");
    int rc;
    if (mode_has_values(cs->mode)) {
        cz_fr v;
        if (fn) {
            rc = fn(&v, arg);
            if (rc)
                return cz__cs_fail(cs, rc, "value of %s %zu: %s", input ? "input" : "aux", n,
                                   cz_strerror(rc));
        } else if (value) {
            v = *value;
        } else {
            return cz__cs_fail(cs, CZ_EINVAL, "assignment missing for %s %zu",
                               input ? "input" : "aux", n);
        }
        if ((rc = frvec_reserve(cs, vec, n + 1)))
            return rc;
        if (!input && cs->corrupt_aux1 == n + 1)
            cz_fr_add(&v, &v, &CZ_FR_ONE);
        vec->v[n - vec->base] = v;
    }
    if (input) {
        if ((rc = bitmap_reserve(cs, &cs->dens[CZ_DENSITY_B_INPUT], n + 1)))
            return rc;
        cs->dens[CZ_DENSITY_B_INPUT].nbits = n + 1;
    } else {
        if ((rc = bitmap_reserve(cs, &cs->dens[CZ_DENSITY_A_AUX], n + 1)) ||
            (rc = bitmap_reserve(cs, &cs->dens[CZ_DENSITY_B_AUX], n + 1)))
            return rc;
        cs->dens[CZ_DENSITY_A_AUX].nbits = n + 1;
        cs->dens[CZ_DENSITY_B_AUX].nbits = n + 1;
    }
    vec->len = n + 1;
    *var = input ? cz_var_input((uint32_t)n) : cz_var_aux((uint32_t)n);
    return CZ_OK;
}

void cz_cs_corrupt_aux(cz_cs_t *cs, size_t index)
{
    cs->corrupt_aux1 = index + 1;
}

int cz_cs_alloc(cz_cs_t *cs, cz_var_t *var, const cz_fr *value)
{
    return cs_alloc(cs, var, false, value, NULL, NULL);
}

int cz_cs_alloc_fn(cz_cs_t *cs, cz_var_t *var, cz_cs_value_fn *fn, void *arg)
{
    return cs_alloc(cs, var, false, NULL, fn, arg);
}

int cz_cs_alloc_input(cz_cs_t *cs, cz_var_t *var, const cz_fr *value)
{
    return cs_alloc(cs, var, true, value, NULL, NULL);
}

int cz_cs_alloc_input_fn(cz_cs_t *cs, cz_var_t *var, cz_cs_value_fn *fn, void *arg)
{
    return cs_alloc(cs, var, true, NULL, fn, arg);
}

int cz_cs_value(const cz_cs_t *cs, cz_var_t var, cz_fr *out)
{
    if (!mode_has_values(cs->mode) || cs->taken)
        return CZ_EUNAVAIL;
    const cz__frvec *vec = cz_var_is_aux(var) ? &cs->aux : &cs->input;
    if (cz_var_index(var) >= vec->len)
        return CZ_EINVAL;
    *out = *cz__frvec_at(vec, cz_var_index(var));
    return CZ_OK;
}

/* ---- enforce --------------------------------------------------------------- */

/* Same test as bellpepper's `coeff.is_zero_vartime()`. */
static inline bool coeff_is_zero(const cz_fr *c)
{
    return (c->l[0] | c->l[1] | c->l[2] | c->l[3]) == 0;
}
static inline void bit_set(uint64_t *w, size_t j)
{
    w[j >> 6] |= 1ull << (j & 63);
}

/*
 * One pass over |lc|: range-check every variable, set the density bits of
 * non-zero terms (in_bits / aux_bits may be NULL: not tracked) and, when
 * |acc| is not NULL, accumulate <lc, z>. |which| names the LC in messages.
 */
static int lc_pass(cz_cs_t *cs, const cz_lc_t *lc, uint64_t *in_bits, uint64_t *aux_bits,
                   cz_fr *acc, char which)
{
    if (lc->err)
        return cz__cs_fail(cs, lc->err, "constraint %zu: %c combination: %s", cs->n_constraints,
                           which, cz_strerror(lc->err));
    const uint32_t *ids = cz_lc_ids(lc);
    const cz_fr *coeffs = cz_lc_coeffs(lc);
    size_t n_in = cs->input.len, n_aux = cs->aux.len;
    if (acc)
        *acc = CZ_FR_ZERO;
    for (uint32_t k = 0; k < lc->len; k++) {
        uint32_t id = ids[k];
        bool is_aux = (id & CZ_VAR_AUX_BIT) != 0;
        size_t idx = id & CZ_VAR_MAX_INDEX;
        if (idx >= (is_aux ? n_aux : n_in))
            return cz__cs_fail(cs, CZ_EINVAL, "constraint %zu: %c uses %s %zu, not allocated",
                               cs->n_constraints, which, is_aux ? "aux" : "input", idx);
        const cz_fr *coeff = &coeffs[k];
        if (coeff_is_zero(coeff))
            continue;
        uint64_t *bits = is_aux ? aux_bits : in_bits;
        if (bits)
            bit_set(bits, idx);
        if (acc) {
            const cz_fr *z = cz__frvec_at(is_aux ? &cs->aux : &cs->input, idx);
            if (cz_fr_is_one(coeff)) {
                cz_fr_add(acc, acc, z);
            } else {
                cz_fr t;
                cz_fr_mul(&t, z, coeff);
                cz_fr_add(acc, acc, &t);
            }
        }
    }
    return CZ_OK;
}

/* KEYGEN: append |lc|'s non-zero terms as the next row of |b| (ids as columns). */
static int csr_push_row(cz_cs_t *cs, cz__csr_builder *b, const cz_lc_t *lc)
{
    cz_csr_t *m = &b->m;
    int rc = csr_reserve(cs, b, m->rows + 1, m->nnz + lc->len);
    if (rc)
        return rc;
    const uint32_t *ids = cz_lc_ids(lc);
    const cz_fr *coeffs = cz_lc_coeffs(lc);
    size_t nnz = m->nnz;
    for (uint32_t k = 0; k < lc->len; k++) {
        if (coeff_is_zero(&coeffs[k]))
            continue;
        m->cols[nnz] = ids[k];
        m->vals[nnz] = coeffs[k];
        nnz++;
    }
    m->nnz = nnz;
    m->rows++;
    m->row_ptr[m->rows] = nnz;
    return CZ_OK;
}

/* Everything but the naming; *unsat is set when CHECK finds a*b != c. */
static int cs_enforce(cz_cs_t *cs, const cz_lc_t *a, const cz_lc_t *b, const cz_lc_t *c,
                      bool *unsat)
{
    *unsat = false;
    if (cs->err)
        return cs->err;
    if (cs->finished)
        return cz__cs_fail(cs, CZ_EINVAL, "enforce after finish");
    uint64_t *a_aux = cs->dens[CZ_DENSITY_A_AUX].w;
    uint64_t *b_in = cs->dens[CZ_DENSITY_B_INPUT].w;
    uint64_t *b_aux = cs->dens[CZ_DENSITY_B_AUX].w;
    size_t row = cs->n_constraints;
    int rc;
    switch (cs->mode) {
    case CZ_CS_PROVE:
        if ((rc = cz__cs_abc_reserve(cs, row + 1)))
            return rc;
        /* Inputs are dense in A (the x_i * 0 = 0 rows): no input tracker. */
        if ((rc = lc_pass(cs, a, NULL, a_aux, &cs->a[row], 'A')) ||
            (rc = lc_pass(cs, b, b_in, b_aux, &cs->b[row], 'B')) ||
            (rc = lc_pass(cs, c, NULL, NULL, cs->c ? &cs->c[row] : NULL, 'C')))
            return rc;
        break;
    case CZ_CS_CHECK: {
        cz_fr va, vb, vc;
        if ((rc = lc_pass(cs, a, NULL, a_aux, &va, 'A')) ||
            (rc = lc_pass(cs, b, b_in, b_aux, &vb, 'B')) ||
            (rc = lc_pass(cs, c, NULL, NULL, &vc, 'C')))
            return rc;
        cz_fr_mul(&va, &va, &vb);
        *unsat = !cs->unsat && !cz_fr_eq(&va, &vc);
        break;
    }
    case CZ_CS_KEYGEN:
        if ((rc = lc_pass(cs, a, NULL, a_aux, NULL, 'A')) ||
            (rc = lc_pass(cs, b, b_in, b_aux, NULL, 'B')) ||
            (rc = lc_pass(cs, c, NULL, NULL, NULL, 'C')) ||
            (rc = csr_push_row(cs, &cs->mat[CZ_MATRIX_A], a)) ||
            (rc = csr_push_row(cs, &cs->mat[CZ_MATRIX_B], b)) ||
            (rc = csr_push_row(cs, &cs->mat[CZ_MATRIX_C], c)))
            return rc;
        break;
    case CZ_CS_SHAPE:
        if ((rc = lc_pass(cs, a, NULL, a_aux, NULL, 'A')) ||
            (rc = lc_pass(cs, b, b_in, b_aux, NULL, 'B')) ||
            (rc = lc_pass(cs, c, NULL, NULL, NULL, 'C')))
            return rc;
        break;
    }
    cs->n_constraints = row + 1;
    return CZ_OK;
}

int cz_cs_enforce(cz_cs_t *cs, const cz_lc_t *a, const cz_lc_t *b, const cz_lc_t *c,
                  const char *name)
{
    bool unsat;
    int rc = cs_enforce(cs, a, b, c, &unsat);
    if (rc == CZ_OK && unsat)
        rc = cz__cs_record_unsat(cs, cs->n_constraints - 1, name);
    return rc;
}

int cz_cs_enforcef(cz_cs_t *cs, const cz_lc_t *a, const cz_lc_t *b, const cz_lc_t *c,
                   const char *fmt, ...)
{
    bool unsat;
    int rc = cs_enforce(cs, a, b, c, &unsat);
    if (rc == CZ_OK && unsat) {
        char name[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(name, sizeof name, fmt, ap);
        va_end(ap);
        rc = cz__cs_record_unsat(cs, cs->n_constraints - 1, name);
    }
    return rc;
}

/* ---- finish ---------------------------------------------------------------- */

static size_t bitmap_popcount(const cz__bitmap *bm)
{
    size_t pop = 0, words = (bm->nbits + 63) / 64;
    for (size_t i = 0; i < words; i++)
        pop += (size_t)__builtin_popcountll(bm->w[i]);
    return pop;
}

/* KEYGEN: ids -> columns of z = (inputs..., aux...). Order within rows is kept. */
static int csr_renumber(cz_cs_t *cs)
{
    size_t n_in = cs->input.len;
    if (n_in + cs->aux.len > (size_t)UINT32_MAX + 1)
        return cz__cs_fail(cs, CZ_ERANGE, "%zu variables do not fit 32-bit columns",
                           n_in + cs->aux.len);
    for (int i = 0; i < 3; i++) {
        cz_csr_t *m = &cs->mat[i].m;
        for (size_t k = 0; k < m->nnz; k++) {
            uint32_t id = m->cols[k];
            if (id & CZ_VAR_AUX_BIT)
                m->cols[k] = (uint32_t)(n_in + (id & CZ_VAR_MAX_INDEX));
        }
    }
    return CZ_OK;
}

static int cs_finish(cz_cs_t *cs)
{
    if (cs->err)
        return cs->err;
    if (cs->depth)
        return cz__cs_fail(cs, CZ_EINVAL, "finish with %u namespace(s) not popped", cs->depth);
    size_t n_in = cs->input.len, rows = cs->n_constraints + n_in;
    int rc = CZ_OK;
    /* One row x_i * 0 = 0 per input, after the circuit (BP prover, generator). */
    if (cs->mode == CZ_CS_PROVE) {
        if ((rc = cz__cs_abc_reserve(cs, rows)))
            return rc;
        for (size_t i = 0; i < n_in; i++) {
            size_t r = cs->n_constraints + i;
            cs->a[r] = *cz__frvec_at(&cs->input, i);
            cs->b[r] = CZ_FR_ZERO;
            if (cs->c)
                cs->c[r] = CZ_FR_ZERO;
        }
    } else if (cs->mode == CZ_CS_KEYGEN) {
        cz_lc_t x = { 0 }, zero = { 0 };
        for (size_t i = 0; i < n_in && rc == CZ_OK; i++) {
            cz_lc_clear(&x);
            cz_lc_add(&x, cz_var_input((uint32_t)i));
            if ((rc = csr_push_row(cs, &cs->mat[CZ_MATRIX_A], &x)) ||
                (rc = csr_push_row(cs, &cs->mat[CZ_MATRIX_B], &zero)) ||
                (rc = csr_push_row(cs, &cs->mat[CZ_MATRIX_C], &zero)))
                break;
        }
        cz_lc_free(&x);
        if (rc || (rc = csr_renumber(cs)))
            return rc;
    }
    cs->n_rows = rows;
    for (int i = 0; i < 3; i++)
        cs->dens[i].pop = bitmap_popcount(&cs->dens[i]);
    if (cs->unsat)
        return cz_fail(cs->ctx, CZ_EUNSAT, "unsatisfied constraint '%s' (#%zu)", cs->unsat_path,
                       cs->unsat_index);
    return CZ_OK;
}

int cz_cs_finish(cz_cs_t *cs)
{
    if (cs->finished)
        return cs->finish_rc;
    cs->finish_rc = cs_finish(cs);
    cs->finished = true;
    return cs->finish_rc;
}

/* ---- results --------------------------------------------------------------- */

size_t cz_cs_num_inputs(const cz_cs_t *cs)
{
    return cs->input.len;
}
size_t cz_cs_num_aux(const cz_cs_t *cs)
{
    return cs->aux.len;
}
size_t cz_cs_num_constraints(const cz_cs_t *cs)
{
    return cs->n_constraints;
}
size_t cz_cs_num_rows(const cz_cs_t *cs)
{
    return cs->finished ? cs->n_rows : cs->n_constraints;
}

const uint64_t *cz_cs_density(const cz_cs_t *cs, cz_density_t which, size_t *nbits,
                              size_t *popcount)
{
    if ((unsigned)which > CZ_DENSITY_B_AUX)
        return NULL;
    const cz__bitmap *bm = &cs->dens[which];
    if (nbits)
        *nbits = bm->nbits;
    if (popcount)
        *popcount = cs->finished ? bm->pop : bitmap_popcount(bm);
    return bm->w;
}

/* A fork's values are partly its parent's: no one array to return. */
const cz_fr *cz_cs_inputs(const cz_cs_t *cs)
{
    return mode_has_values(cs->mode) && !cs->input.base ? cs->input.v : NULL;
}

const cz_fr *cz_cs_aux(const cz_cs_t *cs)
{
    return mode_has_values(cs->mode) && !cs->aux.base ? cs->aux.v : NULL;
}

const cz_fr *cz_cs_eval(const cz_cs_t *cs, cz_matrix_t which)
{
    switch (which) {
    case CZ_MATRIX_A: return cs->a;
    case CZ_MATRIX_B: return cs->b;
    case CZ_MATRIX_C: return cs->c;
    }
    return NULL;
}

const cz_csr_t *cz_cs_matrix(const cz_cs_t *cs, cz_matrix_t which)
{
    if (cs->mode != CZ_CS_KEYGEN || !cs->finished || cs->finish_rc || (unsigned)which > 2)
        return NULL;
    return &cs->mat[which].m;
}

bool cz_cs_unsatisfied(const cz_cs_t *cs, size_t *index, const char **path)
{
    if (!cs->unsat)
        return false;
    if (index)
        *index = cs->unsat_index;
    if (path)
        *path = cs->unsat_path;
    return true;
}

int cz_cs_take_witness(cz_cs_t *cs, cz_cs_witness_t *out)
{
    memset(out, 0, sizeof *out);
    if (cs->mode != CZ_CS_PROVE || !cs->finished || cs->finish_rc || cs->taken || cs->forked)
        return cz_fail(cs->ctx, CZ_EINVAL, "cs: take_witness needs a finished PROVE cs");
    out->num_inputs = cs->input.len;
    out->num_aux = cs->aux.len;
    out->num_rows = cs->n_rows;
    out->input = cs->input.v;
    out->aux = cs->aux.v;
    out->a = cs->a;
    out->b = cs->b;
    out->c = cs->c;
    for (int i = 0; i < 3; i++) {
        out->density[i] = cs->dens[i].w;
        out->density_bits[i] = cs->dens[i].nbits;
        out->popcount[i] = cs->dens[i].pop;
        cs->dens[i].w = NULL;
        cs->dens[i].cap = 0;
    }
    cs->input.v = cs->aux.v = NULL;
    cs->input.cap = cs->aux.cap = 0;
    cs->a = cs->b = cs->c = NULL;
    cs->abc_cap = 0;
    cs->taken = true;
    return CZ_OK;
}

void cz_cs_witness_free(cz_cs_witness_t *w)
{
    cz_cs_witness_free_into(w, NULL);
}

void cz_cs_witness_free_into(cz_cs_witness_t *w, cz_recycler_t *r)
{
    if (!w)
        return;
    free(w->input);
    cz_recycler_give(r, w->aux);
    cz_recycler_give(r, w->a);
    cz_recycler_give(r, w->b);
    cz_recycler_give(r, w->c);
    for (int i = 0; i < 3; i++)
        free(w->density[i]);
    memset(w, 0, sizeof *w);
}

int cz_cs_witness_copy(cz_ctx_t *ctx, const cz_cs_witness_t *w, cz_cs_witness_t *out)
{
    *out = *w; /* the counts, bit lengths and popcounts; every array replaced below */
    out->input = out->aux = out->a = out->b = out->c = NULL;
    for (int i = 0; i < 3; i++)
        out->density[i] = NULL;
    struct {
        void **dst;
        const void *src;
        size_t bytes;
    } arr[8] = {
        { (void **)&out->input, w->input, w->num_inputs * sizeof(cz_fr) },
        { (void **)&out->aux, w->aux, w->num_aux * sizeof(cz_fr) },
        { (void **)&out->a, w->a, w->num_rows * sizeof(cz_fr) },
        { (void **)&out->b, w->b, w->num_rows * sizeof(cz_fr) },
        { (void **)&out->c, w->c, w->num_rows * sizeof(cz_fr) },
    };
    for (int i = 0; i < 3; i++) {
        arr[5 + i].dst = (void **)&out->density[i];
        arr[5 + i].src = w->density[i];
        arr[5 + i].bytes = (w->density_bits[i] + 63) / 64 * sizeof(uint64_t);
    }
    for (int i = 0; i < 8; i++) {
        if (!arr[i].src || !arr[i].bytes)
            continue; /* absent (c omitted) or empty: stays NULL */
        if (!(*arr[i].dst = malloc(arr[i].bytes))) {
            cz_cs_witness_free(out);
            return cz_fail(ctx, CZ_ENOMEM, "witness copy (%zu bytes)", arr[i].bytes);
        }
        cz_pool_memcpy(cz_ctx_pool(ctx), *arr[i].dst, arr[i].src, arr[i].bytes);
    }
    return CZ_OK;
}
