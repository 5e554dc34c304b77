/*
 * gadgets/poseidon_gadget.c — neptune's legacy Poseidon circuit (see
 * poseidon_gadget.h).
 *
 * Source: neptune src/circuit.rs (PoseidonCircuit::hash, full_round,
 * partial_round, product_mds*, quintic_s_box, quintic_s_box_pre_add,
 * constant_quintic_s_box_pre_add_tag, square_sum, mul_sum, Elt). The
 * constants and their layout are those of hash/poseidon_constants.h.
 *
 * Direct emission (cs/emit.h: PROVE without c, SHAPE). The rows' values are
 * the state's values, which the gadget computes anyway, so no combination
 * is built; what the combinations would decide is the density, and that
 * depends only on the constants and on which variables the preimage holds:
 * it is the same for every call with distinct preimage variables (other
 * than ONE). So, once per constants set, the gadget runs on the general
 * path into a scratch cs and the densities it leaves are kept as a
 * template: which preimage slots are dense in A and B, which of its own
 * aux (by offset) are, whether ONE is in B. A direct call emits the rows by
 * value and applies the template; a call with a repeated preimage variable
 * or ONE in it takes the general path. tests/gadgets/test_poseidon_gadget.c
 * compares the two (gc_satisfied) for every arity, and with repeats.
 */
#include "gadgets/poseidon_gadget.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cs/emit.h"
#include "gadgets/gadget_int.h"

/* neptune's Elt: an allocated number, or a linear combination (Num). */
typedef struct {
    bool allocated;
    cz_var_t var; /* allocated */
    cz_lc_t lc;   /* Num */
    cz_fr value;
} elt_t;

typedef struct {
    cz_cs_t *cs;
    const cz_poseidon_constants *c;
    bool vals;   /* compute witness values */
    bool direct; /* emit rows by value, build no combination */
    unsigned t;
    size_t off;     /* constants_offset into compressed_round_constants */
    unsigned round; /* current_round (advanced by each product) */
    elt_t *e, *tmp; /* the state, and scratch for products */
} pcirc_t;

static void elt_set_allocated(elt_t *e, cz_var_t var, const cz_fr *value)
{
    e->allocated = true;
    e->var = var;
    cz_lc_clear(&e->lc);
    e->value = *value;
}

/* Num::zero(). */
static void elt_set_zero(elt_t *e)
{
    e->allocated = false;
    cz_lc_clear(&e->lc);
    e->value = CZ_FR_ZERO;
}

/* acc += s * x (Elt::scale then Elt::add; acc is a Num). */
static void elt_add_scaled(pcirc_t *p, elt_t *acc, const elt_t *x, const cz_fr *s)
{
    if (!p->direct && x->allocated) /* direct emission keeps values only */
        cz_lc_add_term(&acc->lc, s, x->var);
    else if (!p->direct)
        cz_lc_add_scaled(&acc->lc, s, &x->lc);
    if (p->vals) {
        cz_fr t;
        cz_fr_mul(&t, &x->value, s);
        cz_fr_add(&acc->value, &acc->value, &t);
    }
}

/* Elt::ensure_allocated(enforce = true) in namespace |ns|. */
static int ensure_allocated(pcirc_t *p, elt_t *x, const char *ns, cz_var_t *var)
{
    if (x->allocated) {
        *var = x->var;
        return CZ_OK;
    }
    cz_cs_t *cs = p->cs;
    CZ__TRY(cz_cs_push(cs, ns));
    CZ__TRY(cz_cs_push(cs, "allocate for Elt::Num"));
    CZ__TRY(cz_cs_alloc(cs, var, &x->value));
    CZ__TRY(cz_cs_pop(cs));
    if (p->direct) {
        CZ__TRY(cz_cs_emit_row(cs, &x->value, &CZ_FR_ONE));
        CZ__TRY(cz_cs_pop(cs));
        elt_set_allocated(x, *var, &x->value);
        return CZ_OK;
    }
    cz_lc_t b = { 0 }, c = { 0 };
    cz_lc_add(&b, CZ_VAR_ONE);
    cz_lc_add(&c, *var);
    int rc = cz_cs_enforce(cs, &x->lc, &b, &c, "enforce num allocation preserves lc");
    cz_lc_free(&b);
    cz_lc_free(&c);
    CZ__TRY(rc);
    CZ__TRY(cz_cs_pop(cs));
    elt_set_allocated(x, *var, &x->value);
    return CZ_OK;
}

/* Allocate |v| in namespace |ns| (AllocatedNum::alloc inside a gadget). */
static int alloc_ns(cz_cs_t *cs, cz_var_t *var, const char *ns, const cz_fr *v)
{
    CZ__TRY(cz_cs_push(cs, ns));
    CZ__TRY(cz_cs_alloc(cs, var, v));
    return cz_cs_pop(cs);
}

/* l4 = l^4 through l^2 = l * l and l^4 = l2 * l2 (AllocatedNum::square). */
static int square(pcirc_t *p, cz_var_t *out, cz_fr *vout, cz_var_t l, const cz_fr *vl,
                  const char *ns)
{
    cz_cs_t *cs = p->cs;
    cz_fr v = CZ_FR_ZERO;
    if (p->vals)
        cz_fr_sqr(&v, vl);
    CZ__TRY(cz_cs_push(cs, ns));
    CZ__TRY(alloc_ns(cs, out, "squared num", &v));
    if (p->direct) {
        CZ__TRY(cz_cs_emit_row(cs, vl, vl));
    } else {
        cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
        cz_lc_add(&a, l);
        cz_lc_add(&b, l);
        cz_lc_add(&c, *out);
        CZ__TRY(cz__enforce_free(cs, &a, &b, &c, "squaring constraint"));
    }
    *vout = v;
    return cz_cs_pop(cs);
}

/*
 * mul_sum(a = l4, b = l, pre, post): res = (l + pre) * l4 + post, then
 * (l [+ pre]) * l4 = res [- post]. |pre| / |post| may be NULL.
 */
static int mul_sum(pcirc_t *p, cz_var_t *out, cz_fr *vout, cz_var_t l4, const cz_fr *vl4,
                   cz_var_t l, const cz_fr *vl, const cz_fr *pre, const cz_fr *post, const char *ns)
{
    cz_cs_t *cs = p->cs;
    cz_fr v = CZ_FR_ZERO;
    if (p->vals) {
        v = *vl;
        if (pre)
            cz_fr_add(&v, &v, pre);
        cz_fr_mul(&v, &v, vl4);
        if (post)
            cz_fr_add(&v, &v, post);
    }
    CZ__TRY(cz_cs_push(cs, ns));
    CZ__TRY(alloc_ns(cs, out, "mul_sum", &v));
    if (p->direct) {
        cz_fr av = *vl;
        if (pre)
            cz_fr_add(&av, &av, pre);
        CZ__TRY(cz_cs_emit_row(cs, &av, vl4));
        *vout = v;
        return cz_cs_pop(cs);
    }
    cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
    cz_lc_add(&a, l);
    if (pre)
        cz_lc_add_term(&a, pre, CZ_VAR_ONE);
    cz_lc_add(&b, l4);
    cz_lc_add(&c, *out);
    if (post)
        cz_lc_sub_term(&c, post, CZ_VAR_ONE); /* + (-post) * ONE */
    const char *name = post ? (pre ? "mul sum constraint pre-post-add"
                                   : "mul sum constraint post-add")
                            : (pre ? "mul sum constraint pre-add" : "mul sum constraint");
    CZ__TRY(cz__enforce_free(cs, &a, &b, &c, name));
    *vout = v;
    return cz_cs_pop(cs);
}

/* quintic_s_box: allocate the input, l^2, l^4, l4 * l + post. */
static int sbox(pcirc_t *p, elt_t *x, const cz_fr *post)
{
    cz_var_t l, l2, l4, l5;
    cz_fr v2 = CZ_FR_ZERO, v4 = CZ_FR_ZERO, v5 = CZ_FR_ZERO;
    CZ__TRY(ensure_allocated(p, x, "S-box input", &l));
    const cz_fr vl = x->value;
    CZ__TRY(square(p, &l2, &v2, l, &vl, "l^2"));
    CZ__TRY(square(p, &l4, &v4, l2, &v2, "l^4"));
    CZ__TRY(mul_sum(p, &l5, &v5, l4, &v4, l, &vl, NULL, post, "(l4 * l) + rk)"));
    elt_set_allocated(x, l5, &v5);
    return CZ_OK;
}

/* quintic_s_box_pre_add (first round, allocated inputs): square_sum
 * (l + pre)^2, l^4, l4 * (l + pre) + post. */
static int sbox_pre_add(pcirc_t *p, elt_t *x, const cz_fr *pre, const cz_fr *post)
{
    cz_cs_t *cs = p->cs;
    cz_var_t l, l2, l4, l5;
    cz_fr v2 = CZ_FR_ZERO, v4 = CZ_FR_ZERO, v5 = CZ_FR_ZERO;
    CZ__TRY(ensure_allocated(p, x, "S-box input", &l));
    const cz_fr vl = x->value;
    if (p->vals) {
        cz_fr_add(&v2, &vl, pre);
        cz_fr_sqr(&v2, &v2);
    }
    CZ__TRY(cz_cs_push(cs, "(l+rk)^2"));
    CZ__TRY(alloc_ns(cs, &l2, "squared sum", &v2));
    if (p->direct) {
        cz_fr s1;
        cz_fr_add(&s1, &vl, pre);
        CZ__TRY(cz_cs_emit_row(cs, &s1, &s1));
    } else {
        cz_lc_t a = { 0 }, b = { 0 }, c = { 0 };
        cz_lc_add(&a, l);
        cz_lc_add_term(&a, pre, CZ_VAR_ONE);
        cz_lc_copy(&b, &a);
        cz_lc_add(&c, l2);
        CZ__TRY(cz__enforce_free(cs, &a, &b, &c, "squared sum constraint"));
    }
    CZ__TRY(cz_cs_pop(cs));
    CZ__TRY(square(p, &l4, &v4, l2, &v2, "l^4"));
    CZ__TRY(mul_sum(p, &l5, &v5, l4, &v4, l, &vl, pre, post, "l4 * (l + rk)"));
    elt_set_allocated(x, l5, &v5);
    return CZ_OK;
}

/* Swap the state with the scratch the product was written to. */
static void swap_state(pcirc_t *p)
{
    elt_t *t = p->e;
    p->e = p->tmp;
    p->tmp = t;
}

/* s = s . m (product_mds_with_matrix): column j of m for output j. */
static void product_dense(pcirc_t *p, const cz_fr *m)
{
    const unsigned t = p->t;
    for (unsigned j = 0; j < t; j++) {
        elt_set_zero(&p->tmp[j]);
        for (unsigned i = 0; i < t; i++)
            elt_add_scaled(p, &p->tmp[j], &p->e[i], &m[i * t + j]);
    }
    swap_state(p);
}

/* product_mds_with_sparse_matrix: s'0 = <s, w_hat>; s'j = s_j + v_{j-1} s_0. */
static int product_sparse(pcirc_t *p, unsigned k)
{
    const unsigned t = p->t;
    const cz_fr *w_hat = &p->c->sparse_w_hat[(size_t)k * t];
    const cz_fr *v_rest = &p->c->sparse_v_rest[(size_t)k * (t - 1)];
    elt_set_zero(&p->tmp[0]);
    for (unsigned i = 0; i < t; i++)
        elt_add_scaled(p, &p->tmp[0], &p->e[i], &w_hat[i]);
    for (unsigned j = 1; j < t; j++) {
        if (p->e[j].allocated)
            return CZ_EINTERNAL; /* neptune: "only two numbers may be added" */
        elt_t *r = &p->tmp[j];
        r->allocated = false;
        if (!p->direct)
            cz_lc_copy(&r->lc, &p->e[j].lc);
        r->value = p->e[j].value;
        elt_add_scaled(p, r, &p->e[0], &v_rest[j - 1]);
    }
    swap_state(p);
    return CZ_OK;
}

/* product_mds: pre-sparse after round RF/2 - 1, sparse in partial rounds,
 * M otherwise; advances current_round. */
static int product_mds(pcirc_t *p)
{
    const cz_poseidon_constants *c = p->c;
    unsigned half = c->half_full_rounds, sparse_offset = half - 1;
    int rc = CZ_OK;
    if (p->round == sparse_offset)
        product_dense(p, c->pre_sparse);
    else if (p->round > sparse_offset && p->round < half + c->partial_rounds)
        rc = product_sparse(p, p->round - sparse_offset - 1);
    else
        product_dense(p, c->mds);
    p->round++;
    return rc;
}

static int full_round(pcirc_t *p, bool first, bool last)
{
    const unsigned t = p->t;
    const cz_fr *crc = p->c->compressed_round_constants;
    const cz_fr *pre = NULL, *post = NULL;
    if (first) {
        pre = &crc[p->off];
        p->off += t;
    }
    if (first || !last) {
        post = &crc[p->off];
        p->off += t;
    }
    for (unsigned i = 0; i < t; i++) {
        if (first && i == 0) {
            /* constant_quintic_s_box_pre_add_tag: the tag's S-box natively,
             * as a constant Num (value * ONE). */
            cz_fr v, v2;
            cz_fr_add(&v, &p->e[0].value, &pre[0]);
            cz_fr_sqr(&v2, &v);
            cz_fr_sqr(&v2, &v2);
            cz_fr_mul(&v, &v, &v2);
            cz_fr_add(&v, &v, &post[0]);
            elt_set_zero(&p->e[0]);
            if (!p->direct)
                cz_lc_add_term(&p->e[0].lc, &v, CZ_VAR_ONE);
            p->e[0].value = v;
            continue;
        }
        CZ__TRY(cz_cs_pushf(p->cs, "quintic s-box %u", i));
        if (first)
            CZ__TRY(sbox_pre_add(p, &p->e[i], &pre[i], &post[i]));
        else
            CZ__TRY(sbox(p, &p->e[i], post ? &post[i] : NULL));
        CZ__TRY(cz_cs_pop(p->cs));
    }
    return product_mds(p);
}

static int partial_round(pcirc_t *p)
{
    const cz_fr *key = &p->c->compressed_round_constants[p->off++];
    CZ__TRY(cz_cs_push(p->cs, "solitary quintic s-box"));
    CZ__TRY(sbox(p, &p->e[0], key));
    CZ__TRY(cz_cs_pop(p->cs));
    return product_mds(p);
}

static int hash(pcirc_t *p, cz_num_t *out)
{
    cz_cs_t *cs = p->cs;
    const cz_poseidon_constants *c = p->c;
    CZ__TRY(cz_cs_push(cs, "first round"));
    CZ__TRY(full_round(p, true, false));
    CZ__TRY(cz_cs_pop(cs));
    for (unsigned i = 1; i < c->half_full_rounds; i++) {
        CZ__TRY(cz_cs_pushf(cs, "initial full round %u", i));
        CZ__TRY(full_round(p, false, false));
        CZ__TRY(cz_cs_pop(cs));
    }
    for (unsigned i = 0; i < c->partial_rounds; i++) {
        CZ__TRY(cz_cs_pushf(cs, "partial round %u", i));
        CZ__TRY(partial_round(p));
        CZ__TRY(cz_cs_pop(cs));
    }
    for (unsigned i = 0; i + 1 < c->half_full_rounds; i++) {
        CZ__TRY(cz_cs_pushf(cs, "final full round %u", i));
        CZ__TRY(full_round(p, false, false));
        CZ__TRY(cz_cs_pop(cs));
    }
    CZ__TRY(cz_cs_push(cs, "terminal full round"));
    CZ__TRY(full_round(p, false, true));
    CZ__TRY(cz_cs_pop(cs));
    cz_var_t v;
    CZ__TRY(ensure_allocated(p, &p->e[1], "hash result", &v));
    out->var = v;
    out->value = p->e[1].value;
    return CZ_OK;
}

/* The general path, or (direct) the rows by value only. */
static int run_gadget(cz_cs_t *cs, cz_num_t *out, const cz_poseidon_constants *c,
                      const cz_num_t *preimage, bool direct)
{
    elt_t a[CZ_POSEIDON_MAX_WIDTH], b[CZ_POSEIDON_MAX_WIDTH];
    const unsigned t = c->width;
    for (unsigned i = 0; i < t; i++) {
        cz_lc_init(&a[i].lc);
        cz_lc_init(&b[i].lc);
        elt_set_zero(&b[i]);
    }
    pcirc_t p = { cs, c, cz_cs_needs_values(cs), direct, t, 0, 0, a, b };
    /* [tag (a constant Num), preimage (allocated)...] */
    elt_set_zero(&a[0]);
    if (!direct)
        cz_lc_add_term(&a[0].lc, &c->domain_tag, CZ_VAR_ONE);
    a[0].value = c->domain_tag;
    for (unsigned i = 0; i < c->arity; i++)
        elt_set_allocated(&a[i + 1], preimage[i].var, &preimage[i].value);

    int rc = hash(&p, out);
    for (unsigned i = 0; i < t; i++) {
        if (!rc && (cz_lc_error(&a[i].lc) || cz_lc_error(&b[i].lc)))
            rc = CZ_ENOMEM;
        cz_lc_free(&a[i].lc);
        cz_lc_free(&b[i].lc);
    }
    return rc;
}

/* ---- the density template of direct emission --------------------------------------- */

typedef struct {
    size_t rows, own;                  /* constraints and aux one call adds */
    bool pre_a[CZ_POSEIDON_MAX_WIDTH]; /* preimage slot j is dense in A */
    bool pre_b[CZ_POSEIDON_MAX_WIDTH]; /* ... in B */
    bool one_b;                        /* ONE is dense in B */
    uint32_t *own_a, *own_b;           /* offsets of its own aux dense in A / B */
    size_t n_a, n_b;
} dens_template_t;

/* The set bits of |w| in [from, to), as offsets from |from|. */
static uint32_t *bits_from(const uint64_t *w, size_t from, size_t to, size_t *n)
{
    uint32_t *out = malloc((to - from + 1) * sizeof *out);
    *n = 0;
    for (size_t j = from; out && j < to; j++)
        if ((w[j >> 6] >> (j & 63)) & 1)
            out[(*n)++] = (uint32_t)(j - from);
    return out;
}

/* Run the general gadget on |arity| fresh aux in a scratch SHAPE cs and
 * keep the densities it leaves. NULL when out of memory. */
static dens_template_t *template_build(const cz_poseidon_constants *c)
{
    dens_template_t *t = calloc(1, sizeof *t);
    cz_cs_t *cs = NULL;
    if (!t || cz_cs_new(&cs, NULL, CZ_CS_SHAPE))
        goto fail;
    cz_cs_emit_generic(cs);
    cz_num_t pre[CZ_POSEIDON_MAX_WIDTH], out;
    for (unsigned j = 0; j < c->arity; j++)
        if (cz_num_alloc(cs, &pre[j], NULL))
            goto fail;
    if (run_gadget(cs, &out, c, pre, false) || cz_cs_finish(cs))
        goto fail;
    const size_t n_aux = cz_cs_num_aux(cs);
    const uint64_t *da = cz_cs_density(cs, CZ_DENSITY_A_AUX, NULL, NULL);
    const uint64_t *db = cz_cs_density(cs, CZ_DENSITY_B_AUX, NULL, NULL);
    const uint64_t *di = cz_cs_density(cs, CZ_DENSITY_B_INPUT, NULL, NULL);
    t->rows = cz_cs_num_constraints(cs);
    t->own = n_aux - c->arity;
    for (unsigned j = 0; j < c->arity; j++) {
        t->pre_a[j] = (da[j >> 6] >> (j & 63)) & 1;
        t->pre_b[j] = (db[j >> 6] >> (j & 63)) & 1;
    }
    t->one_b = di[0] & 1;
    t->own_a = bits_from(da, c->arity, n_aux, &t->n_a);
    t->own_b = bits_from(db, c->arity, n_aux, &t->n_b);
    if (!t->own_a || !t->own_b)
        goto fail;
    cz_cs_free(cs);
    return t;
fail:
    cz_cs_free(cs);
    if (t) {
        free(t->own_a);
        free(t->own_b);
        free(t);
    }
    return NULL;
}

/* One template per shared constants set (cz_poseidon_constants_get), built
 * on first use and then only read: immutable, like the constants. */
#define N_ARITIES 4
static const unsigned ARITIES[N_ARITIES] = { 2, 4, 8, 11 };
static dens_template_t *templates[N_ARITIES];
static pthread_once_t template_once[N_ARITIES] = { PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                                   PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT };
/* laid out by hand: */
/* clang-format off */
#define TEMPLATE_INIT(k)                                                                \
    static void template_init_##k(void)                                                 \
    {                                                                                   \
        templates[k] = template_build(cz_poseidon_constants_get(ARITIES[k]));           \
    }
/* clang-format on */
TEMPLATE_INIT(0)
TEMPLATE_INIT(1)
TEMPLATE_INIT(2)
TEMPLATE_INIT(3)
static void (*const template_init[N_ARITIES])(void) = { template_init_0, template_init_1,
                                                        template_init_2, template_init_3 };

/* The template for |c|, or NULL (constants not the shared ones, or no memory). */
static const dens_template_t *template_for(const cz_poseidon_constants *c)
{
    for (unsigned k = 0; k < N_ARITIES; k++) {
        if (ARITIES[k] == c->arity) {
            if (c != cz_poseidon_constants_get(c->arity))
                return NULL;
            pthread_once(&template_once[k], template_init[k]);
            return templates[k];
        }
    }
    return NULL;
}

/* Distinct preimage variables, none of them ONE: the template applies. */
static bool preimage_plain(const cz_num_t *pre, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (cz_var_eq(pre[i].var, CZ_VAR_ONE))
            return false;
        for (unsigned j = 0; j < i; j++)
            if (cz_var_eq(pre[i].var, pre[j].var))
                return false;
    }
    return true;
}

/* Mark |v| dense in B (aux or input). */
static void mark_b(cz_cs_t *cs, cz_var_t v)
{
    cz_cs_emit_mark(cs, cz_var_is_aux(v) ? CZ_DENSITY_B_AUX : CZ_DENSITY_B_INPUT, cz_var_index(v));
}

static int apply_template(cz_cs_t *cs, const dens_template_t *t, const cz_num_t *pre,
                          unsigned arity, size_t rows0, size_t aux0)
{
    if (cz_cs_num_constraints(cs) - rows0 != t->rows || cz_cs_num_aux(cs) - aux0 != t->own)
        return cz_cs_emit_fail(cs, CZ_EINTERNAL, "poseidon: direct rows differ from the template");
    for (unsigned j = 0; j < arity; j++) {
        if (t->pre_a[j] && cz_var_is_aux(pre[j].var))
            cz_cs_emit_mark(cs, CZ_DENSITY_A_AUX, cz_var_index(pre[j].var));
        if (t->pre_b[j])
            mark_b(cs, pre[j].var);
    }
    if (t->one_b)
        cz_cs_emit_mark(cs, CZ_DENSITY_B_INPUT, 0);
    for (size_t k = 0; k < t->n_a; k++)
        cz_cs_emit_mark(cs, CZ_DENSITY_A_AUX, (uint32_t)(aux0 + t->own_a[k]));
    for (size_t k = 0; k < t->n_b; k++)
        cz_cs_emit_mark(cs, CZ_DENSITY_B_AUX, (uint32_t)(aux0 + t->own_b[k]));
    return CZ_OK;
}

int cz_poseidon_gadget(cz_cs_t *cs, cz_num_t *out, const cz_poseidon_constants *c,
                       const cz_num_t *preimage)
{
    if (!c || !preimage || c->width > CZ_POSEIDON_MAX_WIDTH)
        return CZ_EINVAL;
    const dens_template_t *t = NULL;
    if (cz_cs_emits(cs) && preimage_plain(preimage, c->arity))
        t = template_for(c);
    if (!t)
        return run_gadget(cs, out, c, preimage, false);
    const size_t rows0 = cz_cs_num_constraints(cs), aux0 = cz_cs_num_aux(cs);
    CZ__TRY(run_gadget(cs, out, c, preimage, true));
    return apply_template(cs, t, preimage, c->arity, rows0, aux0);
}

size_t cz_poseidon_gadget_constraints(const cz_poseidon_constants *c)
{
    return 3 * (size_t)c->arity + 4 * 7 * (size_t)c->width + 4 * (size_t)c->partial_rounds + 1;
}
