/*
 * groth16/prover.c — the backend-neutral Groth16 prover (see prover.h).
 *
 * Assembly follows bellperson (BP groth16/prover, FACTS 1):
 *   A  = alpha1 + A' + r delta1
 *   B  = beta2 + B2' + s delta2
 *   B1 = beta1 + B1' + s delta1
 *   C  = s A + r B1 - r s delta1 + H + L
 * where A' = sum inputs a_i + sum_{aux in A} aux a_j and B1', B2' likewise
 * over b_g1 / b_g2, H = sum h_i (coefficients of (ab - c)/Z), L = sum aux l_j.
 * C expands to s A' + r B1' + r s delta1 + s alpha1 + r beta1 + H + L, the
 * same group element as bellperson's formula, so the bytes match.
 */
#include "core/clock.h"
#include "groth16/prover.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/fault.h"
#include "core/pool.h"

struct cz_g16_partition {
    const cz_params_t *params;
    cz_cs_witness_t w;
    cz_fr r, s; /* secrets, scrubbed in free */
    cz_latch_t prep_done;
    cz_prove_work_t work;
    blst_scalar *input_scalars, *b_input_scalars;
    cz_scalar_split l_split, a_split, b_split;
    cz_backend_t *staged_on; /* the backend holding a/b's staged copies, if any */
    cz_backend_t *pinned_on; /* the backend that page-locked a/b in place (pin), if any */
    cz_backend_t *prep_on;   /* the backend prep offers the splits to (set_backend);
                                      * it holds their copies while work.tails_staged */
    cz_recycler_t *recycler; /* a/b/c/aux go here when freed (the ctx's; may be NULL) */
    bool prepped;            /* prep succeeded: aux is read no more (cz_g16_give_aux) */
    cz_g16_timings_t t;
};

static unsigned log2_ceil(size_t n)
{
    unsigned k = 0;
    while (((size_t)1 << k) < n)
        k++;
    return k;
}

void cz_g16_shape_of_cs(const cz_cs_t *cs, cz_params_shape_t *shape, size_t *rows)
{
    *rows = cz_cs_num_rows(cs);
    *shape = (cz_params_shape_t){
        .num_inputs = cz_cs_num_inputs(cs),
        .num_aux = cz_cs_num_aux(cs),
        .domain_size = (size_t)1 << log2_ceil(*rows),
    };
    cz_cs_density(cs, CZ_DENSITY_A_AUX, NULL, &shape->a_aux_popcount);
    cz_cs_density(cs, CZ_DENSITY_B_INPUT, NULL, &shape->b_input_popcount);
    cz_cs_density(cs, CZ_DENSITY_B_AUX, NULL, &shape->b_aux_popcount);
}

void cz_g16_shape_of(const cz_cs_witness_t *w, cz_params_shape_t *shape)
{
    *shape = (cz_params_shape_t){
        .num_inputs = w->num_inputs,
        .num_aux = w->num_aux,
        .domain_size = (size_t)1 << log2_ceil(w->num_rows),
        .a_aux_popcount = w->popcount[CZ_DENSITY_A_AUX],
        .b_input_popcount = w->popcount[CZ_DENSITY_B_INPUT],
        .b_aux_popcount = w->popcount[CZ_DENSITY_B_AUX],
    };
}

/*
 * Grow a/b/c to the domain size when they are smaller (glibc remaps large
 * blocks: no copy, but see below). The tail [rows, m) is left for the backend to pad (the GPU never reads it).
 * A c-free witness (c NULL: c = a*b, cs/cs.h) stays c-free: the backend
 * forms the C term from a and b.
 */
static int grow_to_domain(cz_ctx_t *ctx, cz_fr **v, size_t m, const char *name)
{
    /* The cs allocates a/b/c at the domain size (cs.c cz__cs_abc_reserve):
     * a realloc of a huge-page block, even one that changes nothing, may
     * move it page by page. */
    if (*v && malloc_usable_size(*v) >= m * sizeof **v)
        return CZ_OK;
    cz_fr *grown = cz__fault_realloc(ctx, *v, m * sizeof **v);
    if (!grown)
        return cz_fail(ctx, CZ_ENOMEM, "prover: %s grown to %zu elements", name, m);
    *v = grown;
    return CZ_OK;
}

/* The backend's view of the params (backend.h): vectors by index, in the same order. */
_Static_assert(CZ_BASES_H == (int)CZ_PV_H && CZ_BASES_L == (int)CZ_PV_L &&
                   CZ_BASES_A == (int)CZ_PV_A && CZ_BASES_B1 == (int)CZ_PV_B_G1 &&
                   CZ_BASES_B2 == (int)CZ_PV_B_G2,
               "backend.h's CZ_BASES_* follow CZ_PV_*");

static int source_read(cz_ctx_t *ctx, const void *obj, int k, size_t first, size_t n, void *out)
{
    return cz_params_read(ctx, obj, (enum cz_params_vec)k, first, n, out);
}

static int source_host(cz_ctx_t *ctx, const void *obj, int k, const void **out)
{
    return cz_params_host(ctx, obj, (enum cz_params_vec)k, out);
}

static int source_read_encoded(cz_ctx_t *ctx, const void *obj, int k, size_t first, size_t n,
                               void *out)
{
    return cz_params_read_encoded(ctx, obj, (enum cz_params_vec)k, first, n, out);
}

/* The params fields of a work item: the vectors in host memory so far, and their source. */
static void set_bases(cz_prove_work_t *w, const cz_params_t *params)
{
    w->h_bases = cz_params_vector(params, CZ_PV_H);
    w->l_bases = cz_params_vector(params, CZ_PV_L);
    w->a_bases = cz_params_vector(params, CZ_PV_A);
    w->b1_bases = cz_params_vector(params, CZ_PV_B_G1);
    w->b2_bases = cz_params_vector(params, CZ_PV_B_G2);
    w->n_l_bases = params->n_l;
    w->n_a_bases = params->n_a;
    w->n_b_bases = params->n_b_g1;
    w->params_id = params;
    w->source = (cz_bases_source_t){ params, source_read, source_host,
                                     cz_params_has_encoded(params) ? source_read_encoded : NULL };
}

int cz_g16_partition_new(cz_ctx_t *ctx, cz_g16_partition_t **out, const cz_params_t *params,
                         cz_cs_witness_t *witness, const cz_fr *r, const cz_fr *s)
{
    *out = NULL;
    cz_g16_partition_t *p = calloc(1, sizeof *p);
    if (!p) {
        cz_cs_witness_free(witness);
        return cz_fail(ctx, CZ_ENOMEM, "prover: partition");
    }
    p->w = *witness;
    memset(witness, 0, sizeof *witness);
    p->params = params;
    p->recycler = cz_ctx_recycler(ctx);
    cz_latch_init(&p->prep_done);

    cz_params_shape_t shape;
    cz_g16_shape_of(&p->w, &shape);
    int rc = cz_params_check_shape(ctx, params, &shape);
    if (rc == CZ_OK && p->w.num_rows == 0)
        rc = cz_fail(ctx, CZ_EINVAL, "prover: empty witness");
    if (rc == CZ_OK)
        rc = r ? (p->r = *r, CZ_OK) : cz_fr_random(&p->r);
    if (rc == CZ_OK)
        rc = s ? (p->s = *s, CZ_OK) : cz_fr_random(&p->s);
    if (rc == CZ_EIO)
        cz_fail(ctx, rc, "prover: the OS random generator failed");
    size_t m = shape.domain_size;
    if (rc == CZ_OK)
        rc = grow_to_domain(ctx, &p->w.a, m, "a");
    if (rc == CZ_OK)
        rc = grow_to_domain(ctx, &p->w.b, m, "b");
    if (rc == CZ_OK && p->w.c)
        rc = grow_to_domain(ctx, &p->w.c, m, "c");
    if (rc) {
        cz_g16_partition_free(p);
        return rc;
    }
    set_bases(&p->work, params);
    p->work.a = p->w.a;
    p->work.b = p->w.b;
    p->work.c = p->w.c;
    p->work.rows = p->w.num_rows;
    p->work.log_m = log2_ceil(p->w.num_rows);
    p->work.prep_done = &p->prep_done;
    p->work.num_inputs = p->w.num_inputs;
    p->work.l_split = &p->l_split;
    p->work.a_split = &p->a_split;
    p->work.b_split = &p->b_split;
    *out = p;
    return CZ_OK;
}

/* a and b pageable again (before they are freed or go to the recycler) */
static void unpin(cz_g16_partition_t *p)
{
    if (p->pinned_on && p->work.pinned)
        p->pinned_on->ops->unpin(p->pinned_on, &p->work);
    p->pinned_on = NULL;
}

/*
 * Give the staging memory back: a/b's slot if the partition never finished
 * its device region, the splits' copies always (prep is over by now); a
 * and b pinned in place pageable again (unpin).
 */
static void unstage(cz_g16_partition_t *p)
{
    unpin(p);
    if (p->staged_on && p->work.staged && p->staged_on->ops->unstage)
        p->staged_on->ops->unstage(p->staged_on, &p->work);
    p->staged_on = NULL;
    if (p->work.tails_staged) /* set only by prep_on's stage_tails */
        p->prep_on->ops->unstage_tails(p->prep_on, &p->work);
}

void cz_g16_give_abc(cz_g16_partition_t *p)
{
    unpin(p);
    cz_recycler_give(p->recycler, p->w.a);
    cz_recycler_give(p->recycler, p->w.b);
    cz_recycler_give(p->recycler, p->w.c);
    p->w.a = p->w.b = p->w.c = NULL;
}

void cz_g16_release_abc(cz_g16_partition_t *p)
{
    unstage(p);
    cz_g16_give_abc(p);
    p->work.a = p->work.b = p->work.c = NULL;
}

void cz_g16_partition_free(cz_g16_partition_t *p)
{
    if (!p)
        return;
    unstage(p);
    explicit_bzero(&p->r, sizeof p->r);
    explicit_bzero(&p->s, sizeof p->s);
    cz_cs_witness_free_into(&p->w, p->recycler);
    free(p->input_scalars);
    free(p->b_input_scalars);
    cz_scalar_split_free(&p->l_split);
    cz_scalar_split_free(&p->a_split);
    cz_scalar_split_free(&p->b_split);
    cz_latch_destroy(&p->prep_done);
    free(p);
}

size_t cz_g16_aux_bytes(const cz_g16_partition_t *p)
{
    return p->w.aux && p->prepped ? p->w.num_aux * sizeof(cz_fr) : 0;
}

void cz_g16_give_aux(cz_g16_partition_t *p)
{
    if (!cz_g16_aux_bytes(p))
        return;
    cz_recycler_give(p->recycler, p->w.aux);
    p->w.aux = NULL;
}

size_t cz_g16_partition_abc_bytes(const cz_g16_partition_t *p)
{
    size_t vectors = p->w.a ? (p->w.c ? 3 : 2) : 0;
    return vectors * ((size_t)1 << p->work.log_m) * sizeof(cz_fr);
}

const cz_g16_timings_t *cz_g16_partition_timings(const cz_g16_partition_t *p)
{
    return &p->t;
}

/* ---- prep -------------------------------------------------------------------- */

static int prep_inputs(cz_ctx_t *ctx, cz_g16_partition_t *p)
{
    size_t ni = p->w.num_inputs, nb = p->w.popcount[CZ_DENSITY_B_INPUT];
    p->input_scalars = cz__fault_malloc(ctx, ni * sizeof *p->input_scalars);
    p->b_input_scalars = cz__fault_malloc(ctx, (nb ? nb : 1) * sizeof *p->b_input_scalars);
    if (!p->input_scalars || !p->b_input_scalars)
        return cz_fail(ctx, CZ_ENOMEM, "prover: %zu input scalars", ni);
    const uint64_t *bd = p->w.density[CZ_DENSITY_B_INPUT];
    for (size_t i = 0, k = 0; i < ni; i++) {
        cz_fr_to_scalar(&p->input_scalars[i], &p->w.input[i]);
        if (bd && (bd[i / 64] >> (i % 64) & 1))
            p->b_input_scalars[k++] = p->input_scalars[i];
    }
    p->work.input_scalars = p->input_scalars;
    p->work.num_b_inputs = nb;
    p->work.b_input_scalars = p->b_input_scalars;
    return CZ_OK;
}

int cz_g16_prep(cz_ctx_t *ctx, cz_g16_partition_t *p)
{
    double t0 = cz_mono_s();
    int rc = prep_inputs(ctx, p);
    if (rc == CZ_OK) {
        /* aux becomes canonical scalars in place: the witness is not needed after */
        cz_fr_to_scalars_inplace(cz_ctx_pool(ctx), p->w.aux, p->w.num_aux);
        rc = cz_scalar_split_build(ctx, &p->l_split, (const blst_scalar *)p->w.aux, p->w.num_aux);
    }
    if (rc == CZ_OK)
        rc = cz_scalar_split_restrict(ctx, &p->a_split, &p->l_split,
                                      p->w.density[CZ_DENSITY_A_AUX]);
    if (rc == CZ_OK)
        rc = cz_scalar_split_restrict(ctx, &p->b_split, &p->l_split,
                                      p->w.density[CZ_DENSITY_B_AUX]);
    cz_backend_t *be = p->prep_on;
    if (rc == CZ_OK && be && be->ops->stage_tails) {
        be->ops->stage_tails(be, &p->work);
        p->t.tails_staged = p->work.tails_staged != NULL;
    }
    p->prepped = rc == CZ_OK;
    p->t.prep = cz_mono_s() - t0;
    cz_latch_post(&p->prep_done, rc); /* also on failure: the device region must not hang */
    return rc;
}

/* ---- stage and device ----------------------------------------------------------- */

int cz_g16_stage(cz_ctx_t *ctx, cz_backend_t *be, cz_g16_partition_t *p)
{
    if (!be->ops->stage || !p->w.a)
        return CZ_OK;
    double t0 = cz_mono_s();
    int rc = be->ops->stage(be, ctx, &p->work);
    p->t.stage = cz_mono_s() - t0;
    if (rc == CZ_OK && !p->work.staged)
        cz_g16_pin(be, p); /* no room to stage them: the region uploads them, pinned */
    if (rc != CZ_OK || !p->work.staged)
        return rc;
    p->staged_on = be;
    /* the device reads the staged copies: ours can go now */
    cz_recycler_give(p->recycler, p->w.a);
    cz_recycler_give(p->recycler, p->w.b);
    p->w.a = p->w.b = NULL;
    return CZ_OK;
}

void cz_g16_pin(cz_backend_t *be, cz_g16_partition_t *p)
{
    if (!be->ops->pin || !p->w.a || p->work.staged || p->work.pinned)
        return;
    double t0 = cz_mono_s();
    be->ops->pin(be, &p->work);
    if (p->work.pinned)
        p->pinned_on = be;
    p->t.stage += cz_mono_s() - t0;
}

void cz_g16_prepare(cz_backend_t *be, const cz_params_t *params)
{
    if (!params || !params->n_h)
        return;
    cz_prove_work_t bases = { 0 };
    set_bases(&bases, params);
    bases.log_m = log2_ceil(params->n_h + 1);
    cz_backend_prepare(be, &bases);
}

void cz_g16_set_backend(cz_g16_partition_t *p, cz_backend_t *be)
{
    p->prep_on = be;
}

void cz_g16_set_cancel(cz_g16_partition_t *p, const atomic_bool *cancel)
{
    p->work.cancel = cancel;
}

void cz_g16_set_abc_done(cz_g16_partition_t *p, void (*done)(void *), void *arg)
{
    p->work.abc_done = done;
    p->work.abc_done_arg = arg;
}

/* The region's stage times of |p|'s work into its timings; |device|: its share of the region. */
static void note_device_times(cz_g16_partition_t *p, double device)
{
    p->t.device = device;
    p->t.ntt = p->work.t_ntt;
    p->t.msm_h = p->work.t_msm_h;
    p->t.prep_wait = p->work.t_prep_wait;
    p->t.msm_l = p->work.t_msm_l;
    p->t.msm_a = p->work.t_msm_a;
    p->t.msm_b1 = p->work.t_msm_b1;
    p->t.msm_b2 = p->work.t_msm_b2;
    p->t.upload = p->work.t_upload;
    p->t.setup = p->work.t_setup;
    p->t.stream_wait = p->work.t_stream_wait;
    p->t.stream_wait_h = p->work.t_stream_wait_h;
}

int cz_g16_device(cz_ctx_t *ctx, cz_backend_t *be, cz_g16_partition_t *p)
{
    double t0 = cz_mono_s();
    int rc = be->ops->device(be, ctx, &p->work);
    note_device_times(p, cz_mono_s() - t0);
    return rc;
}

unsigned cz_g16_batch_max(cz_backend_t *be, const cz_g16_partition_t *p)
{
    return cz_backend_batch_max(be, &p->work);
}

int cz_g16_device_batch(cz_ctx_t *ctx, cz_backend_t *be, cz_g16_partition_t *const *ps, size_t n,
                        cz_batch_result *res)
{
    cz_prove_work_t *w[CZ_BACKEND_MAX_BATCH];
    if (n < 1 || n > CZ_BACKEND_MAX_BATCH)
        return cz_fail(ctx, CZ_EINVAL, "a device region of %zu partitions (1 .. %d)", n,
                       CZ_BACKEND_MAX_BATCH);
    for (size_t i = 0; i < n; i++)
        w[i] = &ps[i]->work;
    double t0 = cz_mono_s();
    int rc = cz_backend_device_batch(be, ctx, w, n, res);
    const double share = (cz_mono_s() - t0) / (double)n;
    for (size_t i = 0; i < n; i++)
        note_device_times(ps[i], share);
    return rc;
}

/* ---- epilogue ------------------------------------------------------------- */

static void p1_mul(blst_p1 *out, const blst_p1 *p, const cz_fr *k)
{
    blst_scalar s;
    cz_fr_to_scalar(&s, k);
    blst_p1_mult(out, p, s.b, 255);
    explicit_bzero(&s, sizeof s);
}

static void assemble(const cz_g16_partition_t *p, cz_proof_t *out)
{
    const cz_vk_t *vk = &p->params->vk;
    const cz_prove_work_t *w = &p->work;
    blst_p1 alpha1, beta1, delta1, a, b1, c, t;
    blst_p2 beta2, delta2, b;
    blst_p1_from_affine(&alpha1, &vk->alpha_g1);
    blst_p1_from_affine(&beta1, &vk->beta_g1);
    blst_p1_from_affine(&delta1, &vk->delta_g1);
    blst_p2_from_affine(&beta2, &vk->beta_g2);
    blst_p2_from_affine(&delta2, &vk->delta_g2);

    /* A = alpha1 + A' + r delta1 */
    p1_mul(&t, &delta1, &p->r);
    blst_p1_add_or_double(&a, &alpha1, &w->a_acc);
    blst_p1_add_or_double(&a, &a, &t);

    /* B = beta2 + B2' + s delta2 */
    blst_scalar s_sc;
    cz_fr_to_scalar(&s_sc, &p->s);
    blst_p2_mult(&b, &delta2, s_sc.b, 255);
    explicit_bzero(&s_sc, sizeof s_sc);
    blst_p2_add_or_double(&b, &b, &beta2);
    blst_p2_add_or_double(&b, &b, &w->b2_acc);

    /* B1 = beta1 + B1' + s delta1 */
    p1_mul(&t, &delta1, &p->s);
    blst_p1_add_or_double(&b1, &beta1, &w->b1_acc);
    blst_p1_add_or_double(&b1, &b1, &t);

    /* C = s A + r B1 - r s delta1 + H + L */
    cz_fr rs;
    cz_fr_mul(&rs, &p->r, &p->s);
    p1_mul(&c, &a, &p->s);
    p1_mul(&t, &b1, &p->r);
    blst_p1_add_or_double(&c, &c, &t);
    p1_mul(&t, &delta1, &rs);
    explicit_bzero(&rs, sizeof rs);
    blst_p1_cneg(&t, 1);
    blst_p1_add_or_double(&c, &c, &t);
    blst_p1_add_or_double(&c, &c, &w->h);
    blst_p1_add_or_double(&c, &c, &w->l);

    blst_p1_to_affine(&out->a, &a);
    blst_p2_to_affine(&out->b, &b);
    blst_p1_to_affine(&out->c, &c);
}

int cz_g16_epilogue(cz_ctx_t *ctx, cz_g16_partition_t *p, cz_proof_t *out)
{
    double t0 = cz_mono_s();
    cz_g16_release_abc(p); /* normally released right after the device region */
    int rc = CZ_OK;
    if (!p->work.b2_done) {
        double t1 = cz_mono_s();
        rc = cz_backend_host_bases(ctx, &p->work, 1u << CZ_BASES_B2);
        if (rc == CZ_OK)
            rc = cz_backend_g2_tail(ctx, &p->work.b2_acc, p->work.b2_bases, p->b_input_scalars,
                                    p->work.num_b_inputs, &p->b_split);
        p->t.msm_b2 = cz_mono_s() - t1;
    }
    if (rc == CZ_OK) {
        double t1 = cz_mono_s();
        assemble(p, out);
        p->t.assembly = cz_mono_s() - t1;
    }
    /* The witness's arrays (aux too, unless cz_g16_give_aux gave it after
     * prep) are left for cz_g16_partition_free, which the engine calls after
     * giving the partition's memory back to its budget, so that a recycler
     * may keep them against the same budget. */
    cz_scalar_split_free(&p->l_split);
    cz_scalar_split_free(&p->a_split);
    cz_scalar_split_free(&p->b_split);
    p->t.epilogue = cz_mono_s() - t0;
    return rc;
}

int cz_g16_prove(cz_ctx_t *ctx, cz_backend_t *be, const cz_params_t *params,
                 cz_cs_witness_t *witness, const cz_fr *r, const cz_fr *s, cz_proof_t *out,
                 cz_g16_timings_t *timings)
{
    cz_g16_partition_t *p;
    int rc = cz_g16_partition_new(ctx, &p, params, witness, r, s);
    if (rc)
        return rc;
    cz_g16_set_backend(p, be);
    rc = cz_g16_prep(ctx, p);
    if (rc == CZ_OK)
        rc = cz_g16_stage(ctx, be, p);
    if (rc == CZ_OK)
        rc = cz_g16_device(ctx, be, p);
    if (rc == CZ_OK)
        rc = cz_g16_epilogue(ctx, p, out);
    if (timings)
        *timings = p->t;
    cz_g16_partition_free(p);
    return rc;
}
