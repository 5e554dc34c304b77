/*
 * tests/groth16/test_setup.c — test-parameter generation (groth16/setup).
 *
 * - toy circuit with known toxic waste: every vector's count matches the
 *   shape (FACTS 1), and points are recomputed directly from the definition
 *   of BP generator.rs, with the Lagrange values from the closed form
 *   L_r(tau) = w^r (tau^m - 1) / (m (tau - w^r)) (independent of the NTT);
 * - bench:1024: shape check against cz_bench_shape, the written file parses
 *   back and re-encodes byte for byte, the .vk likewise;
 * - end to end: proofs of the toy circuit and of bench:1024 made by the
 *   CPU prover with these params verify (BP verifier.rs equation);
 * - the progress callback: phases in order, fractions rising to 1, the
 *   same params as without it;
 * - errors: wrong cs mode, gamma = 0, an unconstrained aux.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "circuits/bench.h"
#include "circuits/toy.h"
#include "cz_test.h"
#include "ec/curve.h"
#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/verify.h"

static cz_ctx_t *new_ctx(unsigned threads)
{
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, threads) != CZ_OK)
        abort();
    return ctx;
}

static int toy_circuit(cz_cs_t *cs, void *arg)
{
    return cz_toy_cube(cs, arg);
}
static int bench_circuit(cz_cs_t *cs, void *arg)
{
    return cz_bench_circuit(cs, arg);
}

static bool g1_is(const blst_p1_affine *p, const cz_fr *k)
{
    blst_scalar s;
    blst_p1 q;
    blst_p1_affine qa;
    cz_fr_to_scalar(&s, k);
    cz_g1_mul(&q, blst_p1_generator(), &s);
    blst_p1_to_affine(&qa, &q);
    return blst_p1_affine_is_equal(p, &qa);
}

static bool g2_is(const blst_p2_affine *p, const cz_fr *k)
{
    blst_scalar s;
    blst_p2 q;
    blst_p2_affine qa;
    cz_fr_to_scalar(&s, k);
    cz_g2_mul(&q, blst_p2_generator(), &s);
    blst_p2_to_affine(&qa, &q);
    return blst_p2_affine_is_equal(p, &qa);
}

/* L_r(tau) over the domain of size m = 2^log_m, closed form. */
static void lagrange(cz_fr *out, const cz_fr *tau, unsigned log_m, unsigned r)
{
    size_t m = (size_t)1 << log_m;
    cz_fr w, wr, num, den, mm;
    cz_fr_root_of_unity(&w, log_m);
    cz_fr_pow_u64(&wr, &w, r);
    cz_fr_pow_u64(&num, tau, m);
    cz_fr_sub(&num, &num, &CZ_FR_ONE);
    cz_fr_mul(&num, &num, &wr);
    cz_fr_sub(&den, tau, &wr);
    cz_fr_from_u64(&mm, m);
    cz_fr_mul(&den, &den, &mm);
    cz_fr_inverse(&den, &den);
    cz_fr_mul(out, &num, &den);
}

/* (beta a + alpha b + c) / d */
static void ext(cz_fr *out, const cz_setup_toxic_t *t, const cz_fr *a, const cz_fr *b,
                const cz_fr *c, const cz_fr *d)
{
    cz_fr x, y, di;
    cz_fr_mul(&x, &t->beta, a);
    cz_fr_mul(&y, &t->alpha, b);
    cz_fr_add(&x, &x, &y);
    cz_fr_add(&x, &x, c);
    cz_fr_inverse(&di, d);
    cz_fr_mul(out, &x, &di);
}

CZ_TEST(setup_toy_points_by_definition)
{
    cz_ctx_t *ctx = new_ctx(2);
    cz_setup_toxic_t t;
    cz_setup_toxic_from_seed(&t, 42);
    cz_params_t *p = NULL;
    cz_params_shape_t shape;
    cz_fr x;
    cz_fr_from_u64(&x, 3);
    CHECK_OK(cz_setup(ctx, &p, toy_circuit, &x, &t, &shape));
    REQUIRE(p);
    CHECK_OK(cz_params_check_shape(ctx, p, &shape));
    /* toy.h: 5 rows -> m = 8; 2 inputs, 3 aux; A: all 5 variables; B: ONE, x. */
    CHECK_EQ_U64(shape.domain_size, 8);
    CHECK_EQ_U64(p->n_h, 7);
    CHECK_EQ_U64(p->vk.n_ic, 2);
    CHECK_EQ_U64(p->n_l, 3);
    CHECK_EQ_U64(p->n_a, 5);
    CHECK_EQ_U64(p->n_b_g1, 2);
    CHECK_EQ_U64(p->n_b_g2, 2);

    /* vk */
    CHECK(g1_is(&p->vk.alpha_g1, &t.alpha));
    CHECK(g1_is(&p->vk.beta_g1, &t.beta));
    CHECK(g2_is(&p->vk.beta_g2, &t.beta));
    CHECK(g2_is(&p->vk.gamma_g2, &t.gamma));
    CHECK(g1_is(&p->vk.delta_g1, &t.delta));
    CHECK(g2_is(&p->vk.delta_g2, &t.delta));

    /* h[i] = tau^i (tau^8 - 1) / delta */
    cz_fr z, di, k;
    cz_fr_pow_u64(&z, &t.tau, 8);
    cz_fr_sub(&z, &z, &CZ_FR_ONE);
    cz_fr_inverse(&di, &t.delta);
    for (unsigned i = 0; i < 7; i++) {
        cz_fr_pow_u64(&k, &t.tau, i);
        cz_fr_mul(&k, &k, &z);
        cz_fr_mul(&k, &k, &di);
        if (!g1_is(&p->h[i], &k))
            CZ__FAIL("h[%u] differs", i);
    }

    /*
     * Rows (toy.h; then x_i * 0 = 0): #0 x*x = x2, #1 x2*x = x3,
     * #2 (x3 + x + 5 ONE)*ONE = y, #3 ONE*0 = 0, #4 y*0 = 0. So
     *   a_ONE = 5 L2 + L3, a_y = L4, a_x = L0 + L2, a_x2 = L1, a_x3 = L2;
     *   b_ONE = L2, b_x = L0 + L1;  c_y = L2, c_x2 = L0, c_x3 = L1.
     */
    cz_fr L[5], five, zero = CZ_FR_ZERO;
    for (unsigned r = 0; r < 5; r++)
        lagrange(&L[r], &t.tau, 3, r);
    cz_fr_from_u64(&five, 5);
    cz_fr a_one, a_x, b_x;
    cz_fr_mul(&a_one, &five, &L[2]);
    cz_fr_add(&a_one, &a_one, &L[3]);
    cz_fr_add(&a_x, &L[0], &L[2]);
    cz_fr_add(&b_x, &L[0], &L[1]);
    /* a: inputs then aux, all non-zero */
    CHECK(g1_is(&p->a[0], &a_one));
    CHECK(g1_is(&p->a[1], &L[4]));
    CHECK(g1_is(&p->a[2], &a_x));
    CHECK(g1_is(&p->a[3], &L[1]));
    CHECK(g1_is(&p->a[4], &L[2]));
    /* b: ONE and x only */
    CHECK(g1_is(&p->b_g1[0], &L[2]));
    CHECK(g1_is(&p->b_g1[1], &b_x));
    CHECK(g2_is(&p->b_g2[0], &L[2]));
    CHECK(g2_is(&p->b_g2[1], &b_x));
    /* ic (gamma), l (delta) */
    ext(&k, &t, &a_one, &L[2], &zero, &t.gamma);
    CHECK(g1_is(&p->vk.ic[0], &k));
    ext(&k, &t, &L[4], &zero, &L[2], &t.gamma);
    CHECK(g1_is(&p->vk.ic[1], &k));
    ext(&k, &t, &a_x, &b_x, &zero, &t.delta);
    CHECK(g1_is(&p->l[0], &k));
    ext(&k, &t, &L[1], &zero, &L[0], &t.delta);
    CHECK(g1_is(&p->l[1], &k));
    ext(&k, &t, &L[2], &zero, &L[1], &t.delta);
    CHECK(g1_is(&p->l[2], &k));

    /* Deterministic: the same toxic waste gives the same bytes. */
    cz_params_t *q = NULL;
    CHECK_OK(cz_setup(ctx, &q, toy_circuit, &x, &t, NULL));
    REQUIRE(q);
    size_t n = cz_params_encoded_size(p);
    CHECK_EQ_U64(cz_params_encoded_size(q), n);
    uint8_t *e1 = malloc(n), *e2 = malloc(n);
    CHECK_OK(cz_params_encode(ctx, e1, n, p));
    CHECK_OK(cz_params_encode(ctx, e2, n, q));
    CHECK_MEM_EQ(e1, e2, n);
    free(e1);
    free(e2);
    cz_params_free(q);
    cz_params_free(p);
    cz_setup_toxic_scrub(&t);
    cz_ctx_free(ctx);
}

/* Prove |w| (taken) with |p| on the CPU backend and verify with p's vk. */
static int prove_verify(cz_ctx_t *ctx, const cz_params_t *p, cz_cs_witness_t *w)
{
    size_t nin = w->num_inputs - 1;
    cz_fr *inputs = malloc((nin + 1) * sizeof *inputs);
    memcpy(inputs, w->input + 1, nin * sizeof *inputs);
    cz_backend_t *be = NULL;
    cz_pvk_t *pvk = NULL;
    cz_proof_t proof;
    int rc = cz_cpu_backend_new(&be, 0);
    if (!rc)
        rc = cz_g16_prove(ctx, be, p, w, NULL, NULL, &proof, NULL);
    if (!rc)
        rc = cz_pvk_new(ctx, &pvk, &p->vk);
    if (!rc)
        rc = cz_verify(ctx, pvk, &proof, inputs, nin);
    if (!rc && nin) {
        cz_fr_add(&inputs[0], &inputs[0], &CZ_FR_ONE); /* a wrong input must fail */
        rc = cz_verify(ctx, pvk, &proof, inputs, nin) == CZ_EVERIFY ? CZ_OK : CZ_EINTERNAL;
    }
    cz_pvk_free(pvk);
    cz_backend_free(be);
    free(inputs);
    return rc;
}

CZ_TEST(setup_toy_proof_verifies)
{
    cz_ctx_t *ctx = new_ctx(2);
    cz_params_t *p = NULL;
    cz_fr x;
    cz_fr_from_u64(&x, 3);
    CHECK_OK(cz_setup(ctx, &p, toy_circuit, &x, NULL, NULL)); /* random toxic waste */
    REQUIRE(p);
    cz_cs_t *cs;
    cz_cs_witness_t w;
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_PROVE) == CZ_OK);
    CHECK_OK(cz_toy_cube(cs, &x));
    CHECK_OK(cz_cs_finish(cs));
    CHECK_OK(cz_cs_take_witness(cs, &w));
    cz_cs_free(cs);
    int rc = prove_verify(ctx, p, &w);
    if (rc)
        CZ__FAIL("toy prove/verify: %d (%s)", rc, cz_ctx_message(ctx));
    cz_params_free(p);
    cz_ctx_free(ctx);
}

CZ_TEST(setup_bench_1024_shape_file_and_proof)
{
    cz_ctx_t *ctx = new_ctx(2);
    cz_bench_params bp;
    REQUIRE(cz_bench_parse(ctx, "bench:1024", &bp) == CZ_OK);
    cz_bench_shape_t bs;
    REQUIRE(cz_bench_shape(ctx, &bp, &bs) == CZ_OK);
    cz_params_shape_t want = {
        .num_inputs = bs.num_inputs,
        .num_aux = bs.num_aux,
        .domain_size = (size_t)1 << bs.log_domain,
        .a_aux_popcount = bs.a_aux_popcount,
        .b_input_popcount = bs.b_input_popcount,
        .b_aux_popcount = bs.b_aux_popcount,
    };
    cz_setup_toxic_t t;
    cz_setup_toxic_from_seed(&t, 7);
    cz_params_t *p = NULL;
    cz_params_shape_t got;
    CHECK_OK(cz_setup(ctx, &p, bench_circuit, &bp, &t, &got));
    cz_setup_toxic_scrub(&t);
    REQUIRE(p);
    CHECK_OK(cz_params_check_shape(ctx, p, &want));
    CHECK_MEM_EQ(&got, &want, sizeof want);
    CHECK_EQ_U64(p->n_h, 1023);

    /* Written file == encoding; parses back (with the shape) and re-encodes identically. */
    char path[64], vkpath[64];
    snprintf(path, sizeof path, "/tmp/cz_test_setup_%d.params", (int)getpid());
    snprintf(vkpath, sizeof vkpath, "/tmp/cz_test_setup_%d.vk", (int)getpid());
    CHECK_OK(cz_params_write(ctx, path, p));
    CHECK_OK(cz_vk_write(ctx, vkpath, &p->vk));
    size_t n = cz_params_encoded_size(p);
    uint8_t *enc = malloc(n), *file = malloc(n + 1), *enc2 = malloc(n);
    CHECK_OK(cz_params_encode(ctx, enc, n, p));
    FILE *f = fopen(path, "rb");
    REQUIRE(f);
    size_t got_bytes = fread(file, 1, n + 1, f);
    fclose(f);
    CHECK_EQ_U64(got_bytes, n);
    CHECK_MEM_EQ(file, enc, n);
    cz_params_t *back = NULL;
    cz_params_opts_t opts = { .flags = CZ_PARAMS_SUBGROUP, .expect = &want };
    CHECK_OK(cz_params_load(ctx, &back, path, &opts));
    REQUIRE(back);
    CHECK_EQ_U64(cz_params_encoded_size(back), n);
    CHECK_OK(cz_params_encode(ctx, enc2, n, back));
    CHECK_MEM_EQ(enc2, enc, n);
    cz_vk_t vk;
    CHECK_OK(cz_vk_load(ctx, &vk, vkpath));
    CHECK_EQ_U64(vk.n_ic, p->vk.n_ic);
    uint8_t *v1 = malloc(cz_vk_encoded_size(vk.n_ic)), *v2 = malloc(cz_vk_encoded_size(vk.n_ic));
    cz_vk_encode(v1, &vk);
    cz_vk_encode(v2, &p->vk);
    CHECK_MEM_EQ(v1, v2, cz_vk_encoded_size(vk.n_ic));
    CHECK_MEM_EQ(v1, enc, cz_vk_encoded_size(vk.n_ic)); /* the params file starts with it */
    cz_vk_clear(&vk);
    free(v1);
    free(v2);
    unlink(path);
    unlink(vkpath);
    free(enc);
    free(enc2);
    free(file);
    cz_params_free(back);

    /* A proof of a bench:1024 witness (seed 5) verifies. */
    cz_cs_witness_t w;
    bp.seed = 5;
    REQUIRE(cz_bench_witness(ctx, &bp, &w) == CZ_OK);
    int rc = prove_verify(ctx, p, &w);
    if (rc)
        CZ__FAIL("bench:1024 prove/verify: %d (%s)", rc, cz_ctx_message(ctx));
    cz_params_free(p);
    cz_ctx_free(ctx);
}

typedef struct {
    size_t calls;
    double last;
    int phase;      /* index in PHASES of the last report */
    bool backwards; /* a fraction or a phase went back */
} progress_log_t;

static const char *const PHASES[] = { "scalars", "G1 points", "G2 points" };

static void log_progress(void *user, const char *phase, double fraction)
{
    progress_log_t *l = user;
    int k = -1;
    for (int i = 0; i < 3; i++)
        if (!strcmp(phase, PHASES[i]))
            k = i;
    if (k < l->phase || fraction < l->last || fraction > 1.0)
        l->backwards = true;
    l->phase = k;
    l->last = fraction;
    l->calls++;
}

/* The progress callback: phases in order, fractions rising 0 -> 1, and the
 * same params as without it (the chunked products change nothing). */
CZ_TEST(setup_progress_reports_and_same_params)
{
    cz_ctx_t *ctx = new_ctx(2);
    cz_bench_params bp;
    REQUIRE(cz_bench_parse(ctx, "bench:2^13", &bp) == CZ_OK);
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_KEYGEN) == CZ_OK);
    REQUIRE(cz_bench_circuit(cs, &bp) == CZ_OK && cz_cs_finish(cs) == CZ_OK);
    cz_setup_toxic_t t;
    cz_setup_toxic_from_seed(&t, 9);
    cz_params_t *plain = NULL, *reported = NULL;
    progress_log_t log = { .phase = 0 };
    CHECK_OK(cz_setup_from_cs(ctx, &plain, cs, &t));
    CHECK_OK(cz_setup_from_cs_progress(ctx, &reported, cs, &t, log_progress, &log));
    cz_setup_toxic_scrub(&t);
    cz_cs_free(cs);
    REQUIRE(plain && reported);
    CHECK(log.calls >= 5);
    CHECK(!log.backwards);
    CHECK_EQ_INT(log.phase, 2);
    CHECK(log.last == 1.0);
    size_t n = cz_params_encoded_size(plain);
    REQUIRE(n == cz_params_encoded_size(reported));
    uint8_t *a = malloc(n), *b = malloc(n);
    REQUIRE(a && b);
    CHECK_OK(cz_params_encode(ctx, a, n, plain));
    CHECK_OK(cz_params_encode(ctx, b, n, reported));
    CHECK_MEM_EQ(a, b, n);
    free(a);
    free(b);
    cz_params_free(plain);
    cz_params_free(reported);
    cz_ctx_free(ctx);
}

static int unconstrained_circuit(cz_cs_t *cs, void *arg)
{
    (void)arg;
    cz_var_t v;
    return cz_cs_alloc(cs, &v, NULL); /* an aux in no constraint */
}

CZ_TEST(setup_errors)
{
    cz_ctx_t *ctx = new_ctx(1);
    cz_params_t *p = (cz_params_t *)1;
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_SHAPE) == CZ_OK);
    CHECK_OK(cz_toy_cube(cs, NULL));
    CHECK_OK(cz_cs_finish(cs));
    CHECK_EQ_INT(cz_setup_from_cs(ctx, &p, cs, NULL), CZ_EINVAL);
    CHECK(p == NULL);
    CHECK(strstr(cz_ctx_message(ctx), "KEYGEN") != NULL);
    cz_cs_free(cs);

    cz_setup_toxic_t t;
    cz_setup_toxic_from_seed(&t, 1);
    t.gamma = CZ_FR_ZERO;
    CHECK_EQ_INT(cz_setup(ctx, &p, toy_circuit, NULL, &t, NULL), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "gamma") != NULL);

    cz_setup_toxic_from_seed(&t, 1);
    CHECK_EQ_INT(cz_setup(ctx, &p, unconstrained_circuit, NULL, &t, NULL), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "aux 0 is unconstrained") != NULL);
    CHECK(p == NULL);
    cz_setup_toxic_scrub(&t);

    /* Random toxic waste differs between runs. */
    cz_setup_toxic_t r1, r2;
    CHECK_OK(cz_setup_toxic_random(ctx, &r1));
    CHECK_OK(cz_setup_toxic_random(ctx, &r2));
    CHECK(!cz_fr_eq(&r1.tau, &r2.tau));
    cz_setup_toxic_scrub(&r1);
    cz_setup_toxic_scrub(&r2);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
