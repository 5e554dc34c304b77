/*
 * groth16/setup.c — test parameters from toxic waste, bellperson's generator
 * (BP src/groth16/generator.rs; see setup.h for the construction and the
 * warning: TEST PARAMETERS ONLY).
 *
 * Order of work (every secret array is scrubbed as soon as it is consumed):
 *   1. powers tau^i, i < m (parallel), h scalars tau^i Z(tau)/delta (parallel);
 *   2. inverse NTT of the powers -> Lagrange values L_r(tau);
 *   3. a_j, b_j, c_j by one pass over each CSR matrix (serial scatter);
 *   4. the scalars of ic, l, a, b (densities from the zero tests);
 *   5. fixed-base products into the params' vectors (parallel), the vk.
 */
#include "groth16/setup.h"

#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "ec/curve.h"
#include "ec/fixed_base.h"
#include "ec/group.h"
#include "ff/ntt.h"

#define SETUP_MAX_LOG 28u /* ff/ntt.h's largest domain */

/* ---- toxic waste ----------------------------------------------------------- */

int cz_setup_toxic_random(cz_ctx_t *ctx, cz_setup_toxic_t *t)
{
    cz_fr *f[5] = { &t->tau, &t->alpha, &t->beta, &t->gamma, &t->delta };
    for (int i = 0; i < 5; i++) {
        if (cz_fr_random(f[i]) != CZ_OK) {
            cz_setup_toxic_scrub(t);
            return cz_fail(ctx, CZ_EIO, "setup: OS random generator failed");
        }
    }
    return CZ_OK;
}

void cz_setup_toxic_from_seed(cz_setup_toxic_t *t, uint64_t seed)
{
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    cz_fr_random_rng(&t->tau, &rng);
    cz_fr_random_rng(&t->alpha, &rng);
    cz_fr_random_rng(&t->beta, &rng);
    cz_fr_random_rng(&t->gamma, &rng);
    cz_fr_random_rng(&t->delta, &rng);
    explicit_bzero(&rng, sizeof rng);
}

void cz_setup_toxic_scrub(cz_setup_toxic_t *t)
{
    if (t)
        explicit_bzero(t, sizeof *t);
}

void cz_setup_shape_of_cs(const cz_cs_t *cs, cz_params_shape_t *out)
{
    memset(out, 0, sizeof *out);
    out->num_inputs = cz_cs_num_inputs(cs);
    out->num_aux = cz_cs_num_aux(cs);
    size_t rows = cz_cs_num_rows(cs), m = 1;
    while (m < rows)
        m <<= 1;
    out->domain_size = m;
    cz_cs_density(cs, CZ_DENSITY_A_AUX, NULL, &out->a_aux_popcount);
    cz_cs_density(cs, CZ_DENSITY_B_INPUT, NULL, &out->b_input_popcount);
    cz_cs_density(cs, CZ_DENSITY_B_AUX, NULL, &out->b_aux_popcount);
}

/* ---- secret buffers ---------------------------------------------------------- */

static void *secret_alloc(size_t n, size_t size)
{
    return calloc(n ? n : 1, size);
}

static void secret_free(void *p, size_t bytes)
{
    if (p) {
        explicit_bzero(p, bytes);
        free(p);
    }
}

/* ---- step 1: powers of tau and the h scalars --------------------------------- */

typedef struct {
    cz_fr *pw;             /* m powers */
    const cz_fr *tau, *zd; /* zd = Z(tau) / delta */
    blst_scalar *hs;       /* m - 1 scalars */
} pow_job;

static void powers_fn(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    pow_job *j = arg;
    cz_fr t;
    cz_fr_pow_u64(&t, j->tau, begin);
    for (size_t i = begin; i < end; i++) {
        j->pw[i] = t;
        cz_fr_mul(&t, &t, j->tau);
    }
    explicit_bzero(&t, sizeof t);
}

static void hscalars_fn(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    pow_job *j = arg;
    cz_fr t;
    for (size_t i = begin; i < end; i++) {
        cz_fr_mul(&t, &j->pw[i], j->zd); /* tau^i Z(tau) / delta */
        cz_fr_to_scalar(&j->hs[i], &t);
    }
    explicit_bzero(&t, sizeof t);
}

/* ---- step 3: QAP polynomials at tau ------------------------------------------ */

/* out[col] += val * L_row(tau) for every entry of |m| (columns: inputs, then aux). */
static void eval_matrix(cz_fr *out, const cz_csr_t *m, const cz_fr *lag)
{
    cz_fr t;
    for (size_t r = 0; r < m->rows; r++) {
        for (uint64_t e = m->row_ptr[r]; e < m->row_ptr[r + 1]; e++) {
            cz_fr_mul(&t, &m->vals[e], &lag[r]);
            cz_fr_add(&out[m->cols[e]], &out[m->cols[e]], &t);
        }
    }
    explicit_bzero(&t, sizeof t);
}

/* ---- the generator ------------------------------------------------------------ */

typedef struct {
    cz_fr *pw;           /* powers, then Lagrange values (m) */
    cz_fr *at, *bt, *ct; /* per variable (nv) */
    blst_scalar *hs, *ics, *ls, *as, *bs;
    size_t m, nv, ni, na, n_a, n_b;
} work_t;

static void work_free(work_t *w)
{
    secret_free(w->pw, w->m * sizeof(cz_fr));
    secret_free(w->at, w->nv * sizeof(cz_fr));
    secret_free(w->bt, w->nv * sizeof(cz_fr));
    secret_free(w->ct, w->nv * sizeof(cz_fr));
    secret_free(w->hs, w->m * sizeof(blst_scalar));
    secret_free(w->ics, w->ni * sizeof(blst_scalar));
    secret_free(w->ls, w->na * sizeof(blst_scalar));
    secret_free(w->as, w->nv * sizeof(blst_scalar));
    secret_free(w->bs, w->nv * sizeof(blst_scalar));
    memset(w, 0, sizeof *w);
}

static int vec_alloc(void **p, size_t n, size_t size)
{
    *p = NULL;
    if (n == 0)
        return CZ_OK;
    return posix_memalign(p, 64, n * size) ? CZ_ENOMEM : CZ_OK;
}

/* Steps 1-4: every scalar, from the toxic waste |t|. */
static int compute_scalars(cz_ctx_t *ctx, work_t *w, const cz_cs_t *cs, const cz_setup_toxic_t *t,
                           unsigned log_m)
{
    cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
    cz_fr gi, di, zd;
    int rc = CZ_OK;
    if (cz_fr_is_zero(&t->gamma) || cz_fr_is_zero(&t->delta))
        return cz_fail(ctx, CZ_EINVAL, "setup: gamma and delta must be non-zero");
    cz_fr_inverse(&gi, &t->gamma);
    cz_fr_inverse(&di, &t->delta);

    /* 1. tau^i; Z(tau) = tau^m - 1 (BP domain.rs z); h scalars. */
    w->pw = secret_alloc(w->m, sizeof(cz_fr));
    w->hs = secret_alloc(w->m, sizeof(blst_scalar));
    w->at = secret_alloc(w->nv, sizeof(cz_fr));
    w->bt = secret_alloc(w->nv, sizeof(cz_fr));
    w->ct = secret_alloc(w->nv, sizeof(cz_fr));
    w->ics = secret_alloc(w->ni, sizeof(blst_scalar));
    w->ls = secret_alloc(w->na, sizeof(blst_scalar));
    w->as = secret_alloc(w->nv, sizeof(blst_scalar));
    w->bs = secret_alloc(w->nv, sizeof(blst_scalar));
    if (!w->pw || !w->hs || !w->at || !w->bt || !w->ct || !w->ics || !w->ls || !w->as || !w->bs) {
        rc = cz_fail(ctx, CZ_ENOMEM, "setup: scratch for m = %zu, %zu variables", w->m, w->nv);
        goto out;
    }
    cz_fr_pow_u64(&zd, &t->tau, w->m);
    cz_fr_sub(&zd, &zd, &CZ_FR_ONE);
    cz_fr_mul(&zd, &zd, &di);
    pow_job pj = { .pw = w->pw, .tau = &t->tau, .zd = &zd, .hs = w->hs };
    cz_pool_for(pool, w->m, cz_pool_grain(pool, w->m, 4), powers_fn, &pj);
    cz_pool_for(pool, w->m - 1, cz_pool_grain(pool, w->m, 4), hscalars_fn, &pj);

    /* 2. Lagrange coefficients: inverse FFT of the powers (BP generator.rs). */
    cz_ntt_domain *dom = NULL;
    if ((rc = cz_ntt_domain_new(ctx, &dom, log_m)))
        goto out;
    rc = cz_ntt_inverse(ctx, dom, w->pw);
    cz_ntt_domain_free(dom);
    if (rc)
        goto out;

    /* 3. a_j(tau), b_j(tau), c_j(tau). */
    eval_matrix(w->at, cz_cs_matrix(cs, CZ_MATRIX_A), w->pw);
    eval_matrix(w->bt, cz_cs_matrix(cs, CZ_MATRIX_B), w->pw);
    eval_matrix(w->ct, cz_cs_matrix(cs, CZ_MATRIX_C), w->pw);
    secret_free(w->pw, w->m * sizeof(cz_fr));
    w->pw = NULL;

    /* 4. ic / l = (beta a + alpha b + c) / (gamma | delta); a, b where non-zero. */
    cz_fr e, u;
    for (size_t j = 0; j < w->nv; j++) {
        if (!cz_fr_is_zero(&w->at[j]))
            cz_fr_to_scalar(&w->as[w->n_a++], &w->at[j]);
        if (!cz_fr_is_zero(&w->bt[j]))
            cz_fr_to_scalar(&w->bs[w->n_b++], &w->bt[j]);
        cz_fr_mul(&e, &t->beta, &w->at[j]);
        cz_fr_mul(&u, &t->alpha, &w->bt[j]);
        cz_fr_add(&e, &e, &u);
        cz_fr_add(&e, &e, &w->ct[j]);
        if (j < w->ni) {
            cz_fr_mul(&e, &e, &gi);
            cz_fr_to_scalar(&w->ics[j], &e);
        } else {
            cz_fr_mul(&e, &e, &di);
            if (cz_fr_is_zero(&e)) {
                /* BP generator.rs: SynthesisError::UnconstrainedVariable */
                rc = cz_fail(ctx, CZ_EINVAL,
                             "setup: aux %zu is unconstrained (its l point "
                             "would be at infinity)",
                             j - w->ni);
                break;
            }
            cz_fr_to_scalar(&w->ls[j - w->ni], &e);
        }
    }
    explicit_bzero(&e, sizeof e);
    explicit_bzero(&u, sizeof u);
out:
    explicit_bzero(&gi, sizeof gi);
    explicit_bzero(&di, sizeof di);
    explicit_bzero(&zd, sizeof zd);
    return rc;
}

/* ---- progress ------------------------------------------------------------------ */

/*
 * The fixed-base products are nearly all of a setup's time: one G2 product
 * costs about three G1 products (Fp2 arithmetic), and steps 1-4 together
 * about SCALARS_SHARE of the whole. The products go in chunks of at least
 * PROGRESS_MIN_CHUNK points (pool dispatch stays negligible), about
 * PROGRESS_STEPS reports in all.
 */
#define SCALARS_SHARE 0.05
#define G2_COST 3
#define PROGRESS_STEPS 200
#define PROGRESS_MIN_CHUNK ((size_t)1 << 12)

typedef struct {
    cz_setup_progress_fn *fn;
    void *user;
    size_t units, done; /* G1-product equivalents: all, and finished */
} progress_t;

static void progress_report(const progress_t *pr, const char *phase)
{
    if (pr->fn)
        pr->fn(pr->user, phase,
               SCALARS_SHARE +
                   (1 - SCALARS_SHARE) * (double)pr->done / (double)(pr->units ? pr->units : 1));
}

/* out[i] = k[i] * base for i < n, in chunks, reporting after each one. */
static int fixed_base_mul_reported(cz_ctx_t *ctx, const cz_fixed_base_t *fb, void *out,
                                   size_t point_bytes, const blst_scalar *k, size_t n,
                                   unsigned cost, progress_t *pr, const char *phase)
{
    size_t chunk = pr->units / PROGRESS_STEPS / cost;
    if (!pr->fn || chunk < PROGRESS_MIN_CHUNK)
        chunk = pr->fn ? PROGRESS_MIN_CHUNK : n;
    for (size_t i = 0; i < n; i += chunk) {
        size_t m = n - i < chunk ? n - i : chunk;
        int rc = cz_fixed_base_mul(ctx, fb, (uint8_t *)out + i * point_bytes, k + i, m);
        if (rc)
            return rc;
        pr->done += m * cost;
        progress_report(pr, phase);
    }
    return CZ_OK;
}

/* Step 5: the points. */
static int compute_points(cz_ctx_t *ctx, cz_params_t *p, const work_t *w, const cz_setup_toxic_t *t,
                          progress_t *pr)
{
    int rc;
    if (vec_alloc((void **)&p->h, w->m - 1, sizeof *p->h) ||
        vec_alloc((void **)&p->l, w->na, sizeof *p->l) ||
        vec_alloc((void **)&p->a, w->n_a, sizeof *p->a) ||
        vec_alloc((void **)&p->b_g1, w->n_b, sizeof *p->b_g1) ||
        vec_alloc((void **)&p->b_g2, w->n_b, sizeof *p->b_g2) ||
        vec_alloc((void **)&p->vk.ic, w->ni, sizeof *p->vk.ic))
        return cz_fail(ctx, CZ_ENOMEM, "setup: params for m = %zu, %zu variables", w->m, w->nv);
    p->n_h = w->m - 1;
    p->n_l = w->na;
    p->n_a = w->n_a;
    p->n_b_g1 = p->n_b_g2 = w->n_b;
    p->vk.n_ic = w->ni;

    cz_fixed_base_t *fb = NULL;
    size_t n_g1 = p->n_h + w->ni + w->na + w->n_a + w->n_b;
    if ((rc = cz_fixed_base_new(ctx, &fb, &CZ_G1, blst_p1_generator(), 0, n_g1)))
        return rc;
    pr->units = n_g1 + G2_COST * w->n_b;
    const size_t g1 = sizeof(blst_p1_affine), g2 = sizeof(blst_p2_affine);
    if (!(rc = fixed_base_mul_reported(ctx, fb, p->h, g1, w->hs, p->n_h, 1, pr, "G1 points")) &&
        !(rc = fixed_base_mul_reported(ctx, fb, p->vk.ic, g1, w->ics, w->ni, 1, pr, "G1 points")) &&
        !(rc = fixed_base_mul_reported(ctx, fb, p->l, g1, w->ls, w->na, 1, pr, "G1 points")) &&
        !(rc = fixed_base_mul_reported(ctx, fb, p->a, g1, w->as, w->n_a, 1, pr, "G1 points")))
        rc = fixed_base_mul_reported(ctx, fb, p->b_g1, g1, w->bs, w->n_b, 1, pr, "G1 points");
    cz_fixed_base_free(fb);
    if (rc)
        return rc;
    if ((rc = cz_fixed_base_new(ctx, &fb, &CZ_G2, blst_p2_generator(), 0, w->n_b)))
        return rc;
    rc = fixed_base_mul_reported(ctx, fb, p->b_g2, g2, w->bs, w->n_b, G2_COST, pr, "G2 points");
    cz_fixed_base_free(fb);
    if (rc)
        return rc;

    /* vk = alpha G1, beta G1, beta G2, gamma G2, delta G1, delta G2 (BP generator.rs). */
    blst_scalar k;
    blst_p1 p1;
    blst_p2 p2;
    cz_fr_to_scalar(&k, &t->alpha);
    cz_g1_mul(&p1, blst_p1_generator(), &k);
    blst_p1_to_affine(&p->vk.alpha_g1, &p1);
    cz_fr_to_scalar(&k, &t->beta);
    cz_g1_mul(&p1, blst_p1_generator(), &k);
    blst_p1_to_affine(&p->vk.beta_g1, &p1);
    cz_g2_mul(&p2, blst_p2_generator(), &k);
    blst_p2_to_affine(&p->vk.beta_g2, &p2);
    cz_fr_to_scalar(&k, &t->gamma);
    cz_g2_mul(&p2, blst_p2_generator(), &k);
    blst_p2_to_affine(&p->vk.gamma_g2, &p2);
    cz_fr_to_scalar(&k, &t->delta);
    cz_g1_mul(&p1, blst_p1_generator(), &k);
    blst_p1_to_affine(&p->vk.delta_g1, &p1);
    cz_g2_mul(&p2, blst_p2_generator(), &k);
    blst_p2_to_affine(&p->vk.delta_g2, &p2);
    explicit_bzero(&k, sizeof k);
    return CZ_OK;
}

int cz_setup_from_cs(cz_ctx_t *ctx, cz_params_t **out, const cz_cs_t *cs,
                     const cz_setup_toxic_t *toxic)
{
    return cz_setup_from_cs_progress(ctx, out, cs, toxic, NULL, NULL);
}

int cz_setup_from_cs_progress(cz_ctx_t *ctx, cz_params_t **out, const cz_cs_t *cs,
                              const cz_setup_toxic_t *toxic, cz_setup_progress_fn *fn, void *user)
{
    if (!out)
        return cz_fail(ctx, CZ_EINVAL, "setup: NULL output");
    *out = NULL;
    if (!cs || cz_cs_mode(cs) != CZ_CS_KEYGEN || !cz_cs_matrix(cs, CZ_MATRIX_A))
        return cz_fail(ctx, CZ_EINVAL,
                       "setup: needs a successfully finished KEYGEN constraint system");
    cz_params_shape_t shape;
    cz_setup_shape_of_cs(cs, &shape);
    size_t rows = cz_cs_num_rows(cs);
    unsigned log_m = 0;
    while (((size_t)1 << log_m) < rows)
        log_m++;
    if (log_m > SETUP_MAX_LOG)
        return cz_fail(ctx, CZ_ERANGE, "setup: %zu rows need a 2^%u domain (max 2^%u)", rows, log_m,
                       SETUP_MAX_LOG);

    cz_setup_toxic_t t;
    int rc;
    if (toxic)
        t = *toxic;
    else if ((rc = cz_setup_toxic_random(ctx, &t)))
        return rc;

    work_t w = { .m = (size_t)1 << log_m, .ni = shape.num_inputs, .na = shape.num_aux };
    w.nv = w.ni + w.na;
    cz_params_t *p = NULL;
    progress_t pr = { .fn = fn, .user = user };
    if (fn)
        fn(user, "scalars", 0.0);
    rc = compute_scalars(ctx, &w, cs, &t, log_m);
    if (rc)
        goto out;
    /* The vectors must follow the cs's densities (FACTS 1; SUPRA asserts it). */
    size_t want_a = shape.num_inputs + shape.a_aux_popcount;
    size_t want_b = shape.b_input_popcount + shape.b_aux_popcount;
    if (w.n_a != want_a || w.n_b != want_b) {
        rc = cz_fail(ctx, CZ_ERANGE,
                     "setup: %zu A / %zu B evaluations are non-zero but the "
                     "densities say %zu / %zu: choose other toxic waste",
                     w.n_a, w.n_b, want_a, want_b);
        goto out;
    }
    if (!(p = calloc(1, sizeof *p))) {
        rc = cz_fail(ctx, CZ_ENOMEM, "setup: out of memory");
        goto out;
    }
    progress_report(&pr, "G1 points");
    rc = compute_points(ctx, p, &w, &t, &pr);
out:
    work_free(&w);
    explicit_bzero(&t, sizeof t);
    if (rc) {
        cz_params_free(p);
        return rc;
    }
    *out = p;
    return CZ_OK;
}

int cz_setup(cz_ctx_t *ctx, cz_params_t **out, cz_setup_circuit_fn *circuit, void *arg,
             const cz_setup_toxic_t *toxic, cz_params_shape_t *shape)
{
    if (!out || !circuit)
        return cz_fail(ctx, CZ_EINVAL, "setup: NULL argument");
    *out = NULL;
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, ctx, CZ_CS_KEYGEN);
    if (rc)
        return rc;
    if (!(rc = circuit(cs, arg)) && !(rc = cz_cs_finish(cs))) {
        if (shape)
            cz_setup_shape_of_cs(cs, shape);
        rc = cz_setup_from_cs(ctx, out, cs, toxic);
    }
    cz_cs_free(cs);
    return rc;
}
