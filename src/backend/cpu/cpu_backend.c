/*
 * backend/cpu/cpu_backend.c — the CPU backend: its "device" is the ctx's
 * thread pool. The device region computes H with the CPU NTT, the H MSM,
 * then (after prep) the L, A and B1 MSMs; B2 (G2) is left to the epilogue,
 * outside the device lock, as the anchor does (FACTS 7).
 *
 * Memory: a work item without c (c = a*b, the provers' witnesses) makes H
 * hold a third domain vector, for a*b, while it runs (cz_cpu_compute_h):
 * one per device (the device lock serializes regions), outside the
 * partitions' budget like the NTT tables; freed before the H MSM.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "backend/backend.h"
#include "backend/cpu/h.h"
#include "core/clock.h"
#include "core/pool.h"

#define MAX_LOG_DOMAIN 28

/*
 * NTT domains (twiddle tables: 2^(k-1) elements) are built once per size and
 * kept: at 2^27 a table is 2 GiB and takes seconds to build.
 */
typedef struct {
    cz_backend_t base;
    pthread_mutex_t mu;                         /* protects domains[] */
    cz_ntt_domain *domains[MAX_LOG_DOMAIN + 1]; /* (mu); immutable once set */
    cz_fault_t fault;                           /* base.fault: this device's own faults */
    _Atomic unsigned batch;                     /* batch_max's advice (tests); 0, 1: none */
} cpu_backend_t;

void cz_cpu_backend_set_batch(cz_backend_t *be, unsigned k)
{
    atomic_store(&((cpu_backend_t *)be)->batch, k);
}

void cz_cpu_backend_inject_failure(cz_backend_t *be, unsigned after)
{
    cz_fault_arm(be->fault, CZ_FAULT_DEVICE, after, true);
}

static int get_domain(cpu_backend_t *cb, cz_ctx_t *ctx, unsigned log_m, const cz_ntt_domain **out)
{
    if (log_m > MAX_LOG_DOMAIN)
        return cz_fail(ctx, CZ_ERANGE, "cpu backend: domain 2^%u exceeds 2^%d", log_m,
                       MAX_LOG_DOMAIN);
    int rc = CZ_OK;
    pthread_mutex_lock(&cb->mu);
    if (!cb->domains[log_m])
        rc = cz_ntt_domain_new(ctx, &cb->domains[log_m], log_m);
    *out = cb->domains[log_m];
    pthread_mutex_unlock(&cb->mu);
    return rc;
}


static int cpu_device(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *w)
{
    cpu_backend_t *cb = (cpu_backend_t *)be;
    int rc = cz_backend_enter(ctx, be);
    if (rc)
        return rc;
    /* the CPU MSMs read the bases in host memory (B2's is the epilogue's) */
    const unsigned g1_bases = CZ_BASES_ALL & ~(1u << CZ_BASES_B2);
    if ((rc = cz_backend_host_bases(ctx, w, g1_bases)))
        return rc;
    size_t m = (size_t)1 << w->log_m;
    const cz_ntt_domain *dom = NULL;
    if ((rc = cz_backend_step(ctx, w, "H")))
        return rc;
    double t0 = cz_mono_s();
    rc = get_domain(cb, ctx, w->log_m, &dom);
    if (rc == CZ_OK)
        rc = cz_cpu_compute_h(ctx, dom, w->a, w->b, w->c, w->rows);
    w->t_ntt = cz_mono_s() - t0;
    if (rc)
        return rc;

    /* The H MSM takes the first m - 1 coefficients as canonical scalars. */
    if ((rc = cz_backend_step(ctx, w, "MSM h")))
        return rc;
    t0 = cz_mono_s();
    cz_fr_to_scalars_inplace(cz_ctx_pool(ctx), w->a, m - 1);
    rc = cz_g1_msm(ctx, &w->h, w->h_bases, (const blst_scalar *)w->a, m - 1);
    w->t_msm_h = cz_mono_s() - t0;
    if (rc)
        return rc;
    cz_backend_abc_done(w); /* the tails read the splits only */

    t0 = cz_mono_s();
    rc = cz_latch_wait(w->prep_done);
    w->t_prep_wait = cz_mono_s() - t0;
    if (rc)
        return cz_fail(ctx, rc, "device region: prep failed: %s", cz_strerror(rc));

    if ((rc = cz_backend_step(ctx, w, "L")))
        return rc;
    t0 = cz_mono_s();
    rc = cz_g1_msm_split(ctx, &w->l, w->l_bases, w->l_split);
    w->t_msm_l = cz_mono_s() - t0;
    if (rc == CZ_OK && (rc = cz_backend_step(ctx, w, "A")) == CZ_OK) {
        t0 = cz_mono_s();
        rc = cz_backend_g1_tail(ctx, &w->a_acc, w->a_bases, w->input_scalars, w->num_inputs,
                                w->a_split);
        w->t_msm_a = cz_mono_s() - t0;
    }
    if (rc == CZ_OK && (rc = cz_backend_step(ctx, w, "B1")) == CZ_OK) {
        t0 = cz_mono_s();
        rc = cz_backend_g1_tail(ctx, &w->b1_acc, w->b1_bases, w->b_input_scalars, w->num_b_inputs,
                                w->b_split);
        w->t_msm_b1 = cz_mono_s() - t0;
    }
    w->b2_done = false;
    return rc;
}

static unsigned cpu_batch_max(cz_backend_t *be, const cz_prove_work_t *w)
{
    (void)w;
    return atomic_load(&((cpu_backend_t *)be)->batch);
}

static void cpu_free(cz_backend_t *be)
{
    cpu_backend_t *cb = (cpu_backend_t *)be;
    for (unsigned k = 0; k <= MAX_LOG_DOMAIN; k++)
        cz_ntt_domain_free(cb->domains[k]);
    pthread_mutex_destroy(&cb->mu);
    free(cb);
}

static const cz_backend_ops_t cpu_ops = {
    .name = "cpu",
    .device = cpu_device,
    .free = cpu_free,
    .batch_max = cpu_batch_max,
};

int cz_cpu_backend_new(cz_backend_t **out, int device_index)
{
    cpu_backend_t *cb = calloc(1, sizeof *cb);
    *out = NULL;
    if (!cb)
        return CZ_ENOMEM;
    pthread_mutex_init(&cb->mu, NULL);
    cz_fault_init(&cb->fault);
    cb->base.fault = &cb->fault;
    cb->base.ops = &cpu_ops;
    cb->base.device_index = device_index;
    *out = &cb->base;
    return CZ_OK;
}
