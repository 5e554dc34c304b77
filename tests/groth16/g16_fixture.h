/*
 * tests/groth16/g16_fixture.h — Groth16 test data forged with a known trapdoor.
 *
 * There is no prover or circuit here: we choose the toxic waste alpha, beta,
 * gamma, delta and the discrete logs u_k of the ic points ourselves, so
 *   ic_k = u_k·G1, alpha_g1 = alpha·G1, beta_g2 = beta·G2, ...
 * and a proof for inputs x (x_0 = ONE) is, for any a, b,
 *   A = a·G1, B = b·G2, C = (a·b - alpha·beta - gamma·Σ x_k·u_k) / delta · G1,
 * which satisfies e(A,B) = e(alpha,beta)·e(Σ x_k·ic_k, gamma)·e(C, delta)
 * (the verification equation of FACTS 1 / BP verifier.rs), because both
 * sides are e(G1,G2)^(a·b). The trapdoor is scrubbed by g16_toy_free.
 *
 * Params files for format tests pair that vk with random points.
 */
#ifndef CUZK_TESTS_G16_FIXTURE_H
#define CUZK_TESTS_G16_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "ec/curve.h"
#include "ff/fr.h"
#include "groth16/params.h"
#include "groth16/proof.h"

typedef struct {
    cz_fr alpha, beta, gamma, delta;
    cz_fr *u; /* dlog of ic[k] */
    size_t n_ic;
    cz_rng rng; /* for a, b of each proof */
} g16_toy;

static void g16_g1_of(blst_p1_affine *out, const cz_fr *k)
{
    blst_scalar s;
    blst_p1 p;
    blst_scalar_from_fr(&s, k);
    cz_g1_mul(&p, blst_p1_generator(), &s);
    blst_p1_to_affine(out, &p);
    explicit_bzero(&s, sizeof s);
}

static void g16_g2_of(blst_p2_affine *out, const cz_fr *k)
{
    blst_scalar s;
    blst_p2 p;
    blst_scalar_from_fr(&s, k);
    cz_g2_mul(&p, blst_p2_generator(), &s);
    blst_p2_to_affine(out, &p);
    explicit_bzero(&s, sizeof s);
}

/* A vk with n_ic ic points (n_ic - 1 public inputs) and its trapdoor. */
static void g16_toy_new(g16_toy *t, cz_vk_t *vk, size_t n_ic, uint64_t seed)
{
    cz_rng_seed(&t->rng, seed);
    cz_fr_random_rng(&t->alpha, &t->rng);
    cz_fr_random_rng(&t->beta, &t->rng);
    cz_fr_random_rng(&t->gamma, &t->rng);
    cz_fr_random_rng(&t->delta, &t->rng);
    t->n_ic = n_ic;
    t->u = calloc(n_ic, sizeof *t->u);
    memset(vk, 0, sizeof *vk);
    vk->n_ic = n_ic;
    vk->ic = calloc(n_ic, sizeof *vk->ic);
    g16_g1_of(&vk->alpha_g1, &t->alpha);
    g16_g1_of(&vk->beta_g1, &t->beta);
    g16_g2_of(&vk->beta_g2, &t->beta);
    g16_g2_of(&vk->gamma_g2, &t->gamma);
    g16_g1_of(&vk->delta_g1, &t->delta);
    g16_g2_of(&vk->delta_g2, &t->delta);
    for (size_t k = 0; k < n_ic; k++) {
        cz_fr_random_rng(&t->u[k], &t->rng);
        g16_g1_of(&vk->ic[k], &t->u[k]);
    }
}

/* A valid proof for public inputs x[0..n_ic-1) (ONE excluded). */
static void g16_toy_prove(g16_toy *t, cz_proof_t *pf, const cz_fr *x)
{
    cz_fr a, b, c, acc = t->u[0], tmp, dinv;
    cz_fr_random_rng(&a, &t->rng);
    cz_fr_random_rng(&b, &t->rng);
    for (size_t k = 1; k < t->n_ic; k++) {
        cz_fr_mul(&tmp, &x[k - 1], &t->u[k]);
        cz_fr_add(&acc, &acc, &tmp);
    }
    cz_fr_mul(&c, &a, &b); /* a·b */
    cz_fr_mul(&tmp, &t->alpha, &t->beta);
    cz_fr_sub(&c, &c, &tmp); /* - alpha·beta */
    cz_fr_mul(&tmp, &t->gamma, &acc);
    cz_fr_sub(&c, &c, &tmp); /* - gamma·Σ x_k u_k */
    cz_fr_inverse(&dinv, &t->delta);
    cz_fr_mul(&c, &c, &dinv); /* / delta */
    g16_g1_of(&pf->a, &a);
    g16_g2_of(&pf->b, &b);
    g16_g1_of(&pf->c, &c);
    explicit_bzero(&a, sizeof a);
    explicit_bzero(&b, sizeof b);
    explicit_bzero(&c, sizeof c);
    explicit_bzero(&acc, sizeof acc);
    explicit_bzero(&tmp, sizeof tmp);
    explicit_bzero(&dinv, sizeof dinv);
}

/* Scrub the toxic waste. */
static void g16_toy_free(g16_toy *t)
{
    if (t->u) {
        explicit_bzero(t->u, t->n_ic * sizeof *t->u);
        free(t->u);
    }
    explicit_bzero(t, sizeof *t);
}

/* A params object: the toy vk + random points, counts n[CZ_PV_COUNT]. */
static cz_params_t *g16_params_new(size_t n_ic, const size_t n[CZ_PV_COUNT], uint64_t seed)
{
    g16_toy t;
    cz_params_t *p = calloc(1, sizeof *p);
    g16_toy_new(&t, &p->vk, n_ic, seed);
    g16_toy_free(&t);
    p->n_h = n[CZ_PV_H];
    p->n_l = n[CZ_PV_L];
    p->n_a = n[CZ_PV_A];
    p->n_b_g1 = n[CZ_PV_B_G1];
    p->n_b_g2 = n[CZ_PV_B_G2];
    p->h = malloc(p->n_h * sizeof *p->h + 1);
    p->l = malloc(p->n_l * sizeof *p->l + 1);
    p->a = malloc(p->n_a * sizeof *p->a + 1);
    p->b_g1 = malloc(p->n_b_g1 * sizeof *p->b_g1 + 1);
    p->b_g2 = malloc(p->n_b_g2 * sizeof *p->b_g2 + 1);
    cz_g1_random_affine(p->h, p->n_h, seed + 1);
    cz_g1_random_affine(p->l, p->n_l, seed + 2);
    cz_g1_random_affine(p->a, p->n_a, seed + 3);
    cz_g1_random_affine(p->b_g1, p->n_b_g1, seed + 4);
    cz_g2_random_affine(p->b_g2, p->n_b_g2, seed + 5);
    return p;
}

/* Encode |p| into a fresh exact-size buffer (so ASan sees any over-read). */
static uint8_t *g16_params_bytes(const cz_params_t *p, size_t *len)
{
    *len = cz_params_encoded_size(p);
    uint8_t *buf = malloc(*len);
    if (cz_params_encode(NULL, buf, *len, p) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

#endif /* CUZK_TESTS_G16_FIXTURE_H */
