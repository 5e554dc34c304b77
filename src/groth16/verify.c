/*
 * groth16/verify.c — Groth16 verification (see groth16/verify.h).
 *
 * blst has no multi-pair Miller loop in its public header, so products of
 * pairings are built as products of single Miller loops (blst_miller_loop,
 * or blst_miller_loop_lines for the key's fixed G2 points) followed by one
 * final exponentiation. A pair with a point at infinity contributes 1 and is
 * skipped (blst's loop does not special-case it).
 */
#include "groth16/verify.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "core/pool.h"
#include "ec/msm.h"

struct cz_pvk {
    blst_fp12 alpha_beta; /* e(alpha_g1, beta_g2), final-exponentiated */
    blst_p1_affine alpha_g1;
    blst_fp6 beta_lines[68];      /* lines of beta_g2 (batch check) */
    blst_fp6 neg_gamma_lines[68]; /* lines of -gamma_g2 */
    blst_fp6 neg_delta_lines[68]; /* lines of -delta_g2 */
    size_t n_ic;
    blst_p1_affine ic[]; /* n_ic points */
};

static void neg_lines(blst_fp6 lines[68], const blst_p2_affine *q)
{
    blst_p2 t;
    blst_p2_affine neg;
    blst_p2_from_affine(&t, q);
    blst_p2_cneg(&t, 1);
    blst_p2_to_affine(&neg, &t);
    blst_precompute_lines(lines, &neg);
}

int cz_pvk_new(cz_ctx_t *ctx, cz_pvk_t **out, const cz_vk_t *vk)
{
    if (!out || !vk || (vk->n_ic && !vk->ic))
        return cz_fail(ctx, CZ_EINVAL, "pvk: NULL argument");
    *out = NULL;
    if (vk->n_ic == 0)
        return cz_fail(ctx, CZ_EINVAL, "pvk: vk has no ic points (needs ic[0] for ONE)");
    cz_pvk_t *p = malloc(sizeof *p + vk->n_ic * sizeof(blst_p1_affine));
    if (!p)
        return cz_fail(ctx, CZ_ENOMEM, "pvk: %zu ic points", vk->n_ic);
    blst_fp12 ml;
    blst_miller_loop(&ml, &vk->beta_g2, &vk->alpha_g1);
    blst_final_exp(&p->alpha_beta, &ml);
    p->alpha_g1 = vk->alpha_g1;
    blst_precompute_lines(p->beta_lines, &vk->beta_g2);
    neg_lines(p->neg_gamma_lines, &vk->gamma_g2);
    neg_lines(p->neg_delta_lines, &vk->delta_g2);
    p->n_ic = vk->n_ic;
    memcpy(p->ic, vk->ic, vk->n_ic * sizeof(blst_p1_affine));
    *out = p;
    return CZ_OK;
}

void cz_pvk_free(cz_pvk_t *pvk)
{
    free(pvk);
}

size_t cz_pvk_num_inputs(const cz_pvk_t *pvk)
{
    return pvk->n_ic - 1;
}

/* f *= ML(Q, P), skipping a pair with a point at infinity. */
static void ml_mul(blst_fp12 *f, const blst_p2_affine *q, const blst_p1_affine *p)
{
    if (blst_p1_affine_is_inf(p) || blst_p2_affine_is_inf(q))
        return;
    blst_fp12 t;
    blst_miller_loop(&t, q, p);
    blst_fp12_mul(f, f, &t);
}

static void ml_mul_lines(blst_fp12 *f, const blst_fp6 lines[68], const blst_p1_affine *p)
{
    if (blst_p1_affine_is_inf(p))
        return;
    blst_fp12 t;
    blst_miller_loop_lines(&t, lines, p);
    blst_fp12_mul(f, f, &t);
}

/* out = ic[0]·k0 + Σ scalars[i]·ic[i+1]; k0 NULL means 1. */
static int combine_ic(cz_ctx_t *ctx, blst_p1_affine *out, const cz_pvk_t *pvk,
                      const blst_scalar *k0, const blst_scalar *scalars)
{
    blst_p1 acc, head;
    int rc = cz_g1_msm(ctx, &acc, pvk->ic + 1, scalars, pvk->n_ic - 1);
    if (rc)
        return rc;
    blst_p1_from_affine(&head, &pvk->ic[0]);
    if (k0)
        blst_p1_mult(&head, &head, k0->b, 255);
    blst_p1_add_or_double(&acc, &acc, &head);
    blst_p1_to_affine(out, &acc);
    return CZ_OK;
}

/* |inputs_needed|: inputs must be non-NULL when n_inputs > 0. */
static int check_inputs(cz_ctx_t *ctx, const char *who, const cz_pvk_t *pvk, const cz_fr *inputs,
                        size_t n_inputs, bool inputs_needed)
{
    if (!pvk)
        return cz_fail(ctx, CZ_EINVAL, "%s: NULL key", who);
    if (n_inputs + 1 != pvk->n_ic)
        return cz_fail(ctx, CZ_EINVAL, "%s: %zu public inputs, the key takes %zu (ONE excluded)",
                       who, n_inputs, pvk->n_ic - 1);
    if (inputs_needed && n_inputs && !inputs)
        return cz_fail(ctx, CZ_EINVAL, "%s: NULL inputs", who);
    return CZ_OK;
}

int cz_verify(cz_ctx_t *ctx, const cz_pvk_t *pvk, const cz_proof_t *proof, const cz_fr *inputs,
              size_t n_inputs)
{
    int rc = check_inputs(ctx, "verify", pvk, inputs, n_inputs, true);
    if (rc)
        return rc;
    if (!proof)
        return cz_fail(ctx, CZ_EINVAL, "verify: NULL proof");
    blst_scalar *sc = malloc((n_inputs ? n_inputs : 1) * sizeof *sc);
    if (!sc)
        return cz_fail(ctx, CZ_ENOMEM, "verify: %zu input scalars", n_inputs);
    for (size_t i = 0; i < n_inputs; i++)
        blst_scalar_from_fr(&sc[i], &inputs[i]);
    blst_p1_affine acc;
    rc = combine_ic(ctx, &acc, pvk, NULL, sc);
    free(sc);
    if (rc)
        return rc;

    /* A·B + acc·(-gamma) + C·(-delta) = alpha·beta (BP verifier.rs), one final exp. */
    blst_fp12 f = *blst_fp12_one(), gt;
    ml_mul(&f, &proof->b, &proof->a);
    ml_mul_lines(&f, pvk->neg_gamma_lines, &acc);
    ml_mul_lines(&f, pvk->neg_delta_lines, &proof->c);
    blst_final_exp(&gt, &f);
    if (!blst_fp12_is_equal(&gt, &pvk->alpha_beta))
        return cz_fail(ctx, CZ_EVERIFY, "verify: pairing check failed");
    return CZ_OK;
}

/* ---- batch -------------------------------------------------------------------- */

/* Uniform non-zero 128-bit coefficients (BP verify_proofs_batch: rng.gen::<u128>()). */
static int random_coeffs(cz_ctx_t *ctx, blst_scalar *r, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        memset(&r[j], 0, sizeof r[j]);
        do {
            ssize_t got = getrandom(r[j].b, 16, 0);
            if (got != 16) {
                if (got < 0 && errno == EINTR)
                    continue;
                return cz_fail(ctx, CZ_EIO, "verify batch: getrandom: %s",
                               got < 0 ? strerror(errno) : "short read");
            }
        } while (memcmp(r[j].b, (uint8_t[16]){ 0 }, 16) == 0);
    }
    return CZ_OK;
}

typedef struct {
    const cz_proof_t *proofs;
    const blst_scalar *r;
    const cz_fr *inputs;
    size_t n_proofs, n_inputs;
    blst_scalar *pi;     /* n_inputs combined input scalars */
    blst_fp12 *slot_acc; /* one Miller-loop product per pool slot */
} batch_job;

/* pi[i] = Σ_j r_j · x_{j,i} */
static void pi_chunk(void *arg, size_t b, size_t e, unsigned slot)
{
    const batch_job *job = arg;
    for (size_t i = b; i < e; i++) {
        cz_fr acc = CZ_FR_ZERO, rj, t;
        for (size_t j = 0; j < job->n_proofs; j++) {
            blst_fr_from_scalar(&rj, &job->r[j]);
            cz_fr_mul(&t, &rj, &job->inputs[j * job->n_inputs + i]);
            cz_fr_add(&acc, &acc, &t);
        }
        blst_scalar_from_fr(&job->pi[i], &acc);
    }
}

/* slot_acc[slot] *= Π ML(B_j, r_j·A_j) */
static void ab_chunk(void *arg, size_t b, size_t e, unsigned slot)
{
    const batch_job *job = arg;
    for (size_t j = b; j < e; j++) {
        blst_p1 t;
        blst_p1_affine ra;
        blst_p1_from_affine(&t, &job->proofs[j].a);
        blst_p1_mult(&t, &t, job->r[j].b, 128);
        blst_p1_to_affine(&ra, &t);
        ml_mul(&job->slot_acc[slot], &job->proofs[j].b, &ra);
    }
}

int cz_verify_batch(cz_ctx_t *ctx, const cz_pvk_t *pvk, const cz_proof_t *proofs, size_t n_proofs,
                    const cz_fr *inputs, size_t n_inputs)
{
    int rc = check_inputs(ctx, "verify batch", pvk, inputs, n_inputs, n_proofs > 0);
    if (rc)
        return rc;
    if (n_proofs == 0)
        return CZ_OK;
    if (!proofs)
        return cz_fail(ctx, CZ_EINVAL, "verify batch: NULL proofs");

    cz_pool_t *pool = cz_ctx_pool(ctx);
    unsigned width = cz_pool_width(pool);
    blst_scalar *r = malloc(n_proofs * sizeof *r);
    blst_scalar *pi = malloc((n_inputs ? n_inputs : 1) * sizeof *pi);
    blst_p1_affine *cs = malloc(n_proofs * sizeof *cs);
    blst_fp12 *slot_acc = malloc(width * sizeof *slot_acc);
    if (!r || !pi || !cs || !slot_acc) {
        rc = cz_fail(ctx, CZ_ENOMEM, "verify batch: scratch for %zu proofs", n_proofs);
        goto out;
    }
    if ((rc = random_coeffs(ctx, r, n_proofs)))
        goto out;

    batch_job job = { proofs, r, inputs, n_proofs, n_inputs, pi, slot_acc };
    for (unsigned s = 0; s < width; s++)
        slot_acc[s] = *blst_fp12_one();
    cz_pool_for(pool, n_inputs, 16, pi_chunk, &job);
    cz_pool_for(pool, n_proofs, 1, ab_chunk, &job);

    /* sum_r = Σ r_j (in Fr), then -(sum_r)·alpha */
    cz_fr sum = CZ_FR_ZERO, t;
    for (size_t j = 0; j < n_proofs; j++) {
        blst_fr_from_scalar(&t, &r[j]);
        cz_fr_add(&sum, &sum, &t);
    }
    blst_scalar sum_s;
    blst_scalar_from_fr(&sum_s, &sum);
    blst_p1 p;
    blst_p1_affine neg_alpha, acc_pi, acc_c;
    blst_p1_from_affine(&p, &pvk->alpha_g1);
    blst_p1_mult(&p, &p, sum_s.b, 255);
    blst_p1_cneg(&p, 1);
    blst_p1_to_affine(&neg_alpha, &p);

    /* acc_pi = sum_r·ic[0] + Σ pi_i·ic[i+1]; acc_c = Σ r_j·C_j */
    if ((rc = combine_ic(ctx, &acc_pi, pvk, &sum_s, pi)))
        goto out;
    for (size_t j = 0; j < n_proofs; j++)
        cs[j] = proofs[j].c;
    if ((rc = cz_g1_msm(ctx, &p, cs, r, n_proofs)))
        goto out;
    blst_p1_to_affine(&acc_c, &p);

    blst_fp12 f = slot_acc[0], gt;
    for (unsigned s = 1; s < width; s++)
        blst_fp12_mul(&f, &f, &slot_acc[s]);
    ml_mul_lines(&f, pvk->beta_lines, &neg_alpha);
    ml_mul_lines(&f, pvk->neg_gamma_lines, &acc_pi);
    ml_mul_lines(&f, pvk->neg_delta_lines, &acc_c);
    blst_final_exp(&gt, &f);
    rc = blst_fp12_is_one(&gt)
             ? CZ_OK
             : cz_fail(ctx, CZ_EVERIFY, "verify batch: pairing check of %zu proofs failed",
                       n_proofs);
out:
    free(r);
    free(pi);
    free(cs);
    free(slot_acc);
    return rc;
}
