/*
 * tests/kinds/snap/test_snap_parallel.c — the parallel PROVE synthesis of an
 * update partition (cz_snap_circuit_planned: apex rows and challenges in
 * in-place forks) gives the sequential synthesis's witness byte for byte:
 * counts, a, b (and c when kept), aux, inputs and the three densities.
 *
 * With a satisfying witness (2KiB, made here) and with the random witness
 * of `cuzk prove --kind snap --random-params` (8MiB partition 2, label
 * slow: 10M rows), where every row's a, b, c are <A,z>, <B,z>, <C,z> of a
 * random z: a moved or changed variable, row or coefficient changes them.
 * The sequential witnesses are pinned by SHA-256 (the digests of the
 * sequential code before the parallel path existed, commit dc75a08), so
 * both paths are also held to the R1CS cuzk had. SHAPE and KEYGEN through
 * the parallel entry point keep the shape they had (pinned digests of the
 * densities and of the CSR matrices). A wrong plan fails, it never yields
 * a witness.
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/snap/snap.h"
#include "cz_test.h"
#include "hash/sha254.h"
#include "kinds/snap/common.h"
#include "kinds/snap/job.h"

static void hex_of(char out[65], const uint8_t d[32])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* SHA-256 over the counts and everything a proof reads from the witness. */
static void witness_digest(char out[65], const cz_cs_witness_t *w)
{
    cz_sha256_ctx s;
    cz_sha256_init(&s);
    size_t counts[3] = { w->num_rows, w->num_aux, w->num_inputs };
    cz_sha256_update(&s, counts, sizeof counts);
    cz_sha256_update(&s, w->a, w->num_rows * sizeof(cz_fr));
    cz_sha256_update(&s, w->b, w->num_rows * sizeof(cz_fr));
    if (w->c)
        cz_sha256_update(&s, w->c, w->num_rows * sizeof(cz_fr));
    cz_sha256_update(&s, w->aux, w->num_aux * sizeof(cz_fr));
    cz_sha256_update(&s, w->input, w->num_inputs * sizeof(cz_fr));
    for (int i = 0; i < 3; i++)
        cz_sha256_update(&s, w->density[i], (w->density_bits[i] + 63) / 64 * 8);
    uint8_t d[32];
    cz_sha256_final(&s, d);
    hex_of(out, d);
}

static void same_witness(const cz_cs_witness_t *x, const cz_cs_witness_t *y)
{
    CHECK_EQ_U64(x->num_rows, y->num_rows);
    CHECK_EQ_U64(x->num_aux, y->num_aux);
    CHECK_EQ_U64(x->num_inputs, y->num_inputs);
    if (x->num_rows != y->num_rows || x->num_aux != y->num_aux || x->num_inputs != y->num_inputs)
        return;
    CHECK(!memcmp(x->a, y->a, x->num_rows * sizeof(cz_fr)));
    CHECK(!memcmp(x->b, y->b, x->num_rows * sizeof(cz_fr)));
    CHECK((x->c == NULL) == (y->c == NULL));
    if (x->c && y->c)
        CHECK(!memcmp(x->c, y->c, x->num_rows * sizeof(cz_fr)));
    CHECK(!memcmp(x->aux, y->aux, x->num_aux * sizeof(cz_fr)));
    CHECK(!memcmp(x->input, y->input, x->num_inputs * sizeof(cz_fr)));
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_U64(x->density_bits[i], y->density_bits[i]);
        CHECK_EQ_U64(x->popcount[i], y->popcount[i]);
        CHECK(!memcmp(x->density[i], y->density[i], (x->density_bits[i] + 63) / 64 * 8));
    }
}

typedef struct {
    bool parallel; /* cz_snap_circuit_planned, else cz_snap_circuit */
    bool omit_c;
    bool reserve; /* the arrays reserved from the shape (as the job does) */
    const cz_snap_plan_t *plan;
} how_t;

/* One PROVE synthesis of |in| into *w; |ctx| carries the pool. */
static int prove(cz_ctx_t *ctx, const cz_snap_input_t *in, const how_t *how, cz_cs_witness_t *w)
{
    memset(w, 0, sizeof *w);
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, ctx, CZ_CS_PROVE);
    if (rc)
        return rc;
    if (how->omit_c)
        rc = cz_cs_omit_c(cs);
    if (rc == CZ_OK && how->reserve) {
        cz_params_shape_t shape;
        size_t rows;
        rc = cz_snap_shape(ctx, &in->params, &shape, &rows);
        if (rc == CZ_OK)
            rc = cz_cs_reserve(cs, rows - shape.num_inputs, shape.num_aux, shape.num_inputs);
    }
    if (rc == CZ_OK)
        rc = how->parallel ? cz_snap_circuit_planned(ctx, cs, &in->params, in, how->plan)
                           : cz_snap_circuit(cs, &in->params, in);
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs);
    if (rc == CZ_OK)
        rc = cz_cs_take_witness(cs, w);
    cz_cs_free(cs);
    return rc;
}

/* The sequential 2KiB witness of tu_make_2kib(5), with c (commit dc75a08). */
#define DIGEST_2K_C "c362b1c50bdb221efc9c20428017e33298e9cf2287bded1040b6ca56b74c4dbc"

CZ_TEST(snap_2kib_parallel_equals_sequential)
{
    cz_snap_input_t in;
    cz_snap_sector_t s;
    REQUIRE(tu_make_2kib(&in, &s, 5) == CZ_OK);
    cz_snap_plan_t plan;
    CHECK_OK(cz_snap_plan(&plan, &in.params));
    CHECK(plan.challenge.rows > 0 && plan.apex_hash.rows > 0 && plan.challenge.inputs == 0);

    cz_cs_witness_t seq, seq_noc, par;
    char hex[65];
    CHECK_OK(prove(NULL, &in, &(how_t){ false, false, false, NULL }, &seq));
    CHECK_OK(prove(NULL, &in, &(how_t){ false, true, false, NULL }, &seq_noc));
    witness_digest(hex, &seq);
    CHECK_EQ_STR(hex, DIGEST_2K_C);
    CHECK_EQ_U64(seq.num_rows, 1705044);

    /* Pool widths 2 (every variant: with c / without, grown from empty /
     * reserved, planned here / given), 3 and 8 (uneven runs of parts per
     * fork, more forks than cores). */
    static const struct {
        unsigned width;
        int variant; /* bit 0: omit c and give the plan; bit 1: reserve */
    } runs[] = { { 2, 0 }, { 2, 1 }, { 2, 2 }, { 2, 3 }, { 3, 3 }, { 8, 0 } };
    for (size_t t = 0; t < sizeof runs / sizeof runs[0]; t++) {
        cz_ctx_t *ctx;
        REQUIRE(cz_ctx_new(&ctx, NULL, runs[t].width) == CZ_OK);
        const int v = runs[t].variant;
        how_t how = { true, v & 1, v & 2, (v & 1) ? &plan : NULL };
        CHECK_OK(prove(ctx, &in, &how, &par));
        same_witness(how.omit_c ? &seq_noc : &seq, &par);
        cz_cs_witness_free(&par);
        cz_ctx_free(ctx);
    }
    cz_cs_witness_free(&seq);
    cz_cs_witness_free(&seq_noc);
    cz_snap_input_free(&in);
    cz_snap_sector_free(&s);
}

/* A plan of other counts makes the parallel synthesis fail, naming the
 * part; it never hands out a witness. */
CZ_TEST(snap_2kib_wrong_plan_fails)
{
    cz_snap_input_t in;
    cz_snap_sector_t s;
    cz_ctx_t *ctx;
    REQUIRE(tu_make_2kib(&in, &s, 5) == CZ_OK);
    REQUIRE(cz_ctx_new(&ctx, NULL, 2) == CZ_OK);
    cz_snap_plan_t good, bad;
    CHECK_OK(cz_snap_plan(&good, &in.params));
    cz_cs_witness_t w;
    const how_t how = { true, true, false, &bad };

    bad = good;
    bad.challenge.rows--; /* a challenge outgrows its slot */
    CHECK(prove(ctx, &in, &how, &w) != CZ_OK);
    CHECK(strstr(cz_ctx_message(ctx), "challenge") != NULL);
    CHECK(w.a == NULL);

    bad = good;
    bad.challenge.aux++; /* a challenge leaves its slot short */
    CHECK(prove(ctx, &in, &how, &w) != CZ_OK);
    CHECK(w.a == NULL);

    bad = good;
    bad.apex_hash.aux--;
    CHECK(prove(ctx, &in, &how, &w) != CZ_OK);
    CHECK(strstr(cz_ctx_message(ctx), "apex hash") != NULL);
    CHECK(w.a == NULL);

    CHECK_OK(prove(ctx, &in, &(how_t){ true, true, false, &good }, &w));
    cz_cs_witness_free(&w);
    cz_ctx_free(ctx);
    cz_snap_input_free(&in);
    cz_snap_sector_free(&s);
}

/* SHAPE: counts and densities. KEYGEN: the three CSR matrices (their
 * rows, nnz, row pointers, columns, values). */
static void mode_digest(char out[65], cz_cs_t *cs)
{
    cz_sha256_ctx s;
    cz_sha256_init(&s);
    if (cz_cs_mode(cs) == CZ_CS_SHAPE) {
        size_t counts[3] = { cz_cs_num_rows(cs), cz_cs_num_aux(cs), cz_cs_num_inputs(cs) };
        cz_sha256_update(&s, counts, sizeof counts);
        for (int i = 0; i < 3; i++) {
            size_t nb = 0, pop = 0;
            const uint64_t *w = cz_cs_density(cs, (cz_density_t)i, &nb, &pop);
            cz_sha256_update(&s, &nb, sizeof nb);
            cz_sha256_update(&s, &pop, sizeof pop);
            if (w)
                cz_sha256_update(&s, w, (nb + 63) / 64 * 8);
        }
    } else {
        for (int i = 0; i < 3; i++) {
            const cz_csr_t *m = cz_cs_matrix(cs, (cz_matrix_t)i);
            if (!m)
                continue;
            cz_sha256_update(&s, &m->rows, sizeof m->rows);
            cz_sha256_update(&s, &m->nnz, sizeof m->nnz);
            cz_sha256_update(&s, m->row_ptr, (m->rows + 1) * sizeof *m->row_ptr);
            cz_sha256_update(&s, m->cols, m->nnz * sizeof *m->cols);
            cz_sha256_update(&s, m->vals, m->nnz * sizeof *m->vals);
        }
    }
    uint8_t d[32];
    cz_sha256_final(&s, d);
    hex_of(out, d);
}

static void blank_digest(char out[65], cz_ctx_t *ctx, cz_cs_mode_t mode, uint64_t bytes)
{
    cz_snap_params_t p;
    cz_cs_t *cs;
    out[0] = 0;
    REQUIRE(cz_snap_params_sector(&p, bytes) == CZ_OK);
    REQUIRE(cz_cs_new(&cs, NULL, mode) == CZ_OK);
    CHECK_OK(cz_snap_circuit_planned(ctx, cs, &p, NULL, NULL));
    CHECK_OK(cz_cs_finish(cs));
    mode_digest(out, cs);
    cz_cs_free(cs);
}

/* SHAPE and KEYGEN through the parallel entry point on a pool: the
 * sequential code's shape (digests of commit dc75a08). */
CZ_TEST(snap_shape_and_keygen_unchanged)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 2) == CZ_OK);
    char hex[65];
    blank_digest(hex, ctx, CZ_CS_SHAPE, 2048);
    CHECK_EQ_STR(hex, "36a315a77fa78ace9c210b63edc9f62143ae6de2cbf6f503419fe7e66414bab5");
    blank_digest(hex, ctx, CZ_CS_KEYGEN, 2048);
    CHECK_EQ_STR(hex, "761f76bc5c2e9557b24325116a796aad66a86e23c82a201b45dd7655973b9d57");
    cz_ctx_free(ctx);
}

/* CHECK through the parallel entry point (the sequential code): satisfied,
 * and a tampered leaf still caught. */
CZ_TEST(snap_2kib_check_mode_on_a_pool)
{
    cz_snap_input_t in;
    cz_snap_sector_t s;
    cz_ctx_t *ctx;
    REQUIRE(tu_make_2kib(&in, &s, 9) == CZ_OK);
    REQUIRE(cz_ctx_new(&ctx, NULL, 2) == CZ_OK);
    for (int tamper = 0; tamper < 2; tamper++) {
        cz_fr one = CZ_FR_ONE;
        if (tamper)
            cz_fr_add(&in.ch[4].leaf_d_new, &in.ch[4].leaf_d_new, &one);
        cz_cs_t *cs;
        REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_CHECK) == CZ_OK);
        int rc = cz_snap_circuit_planned(ctx, cs, &in.params, &in, NULL);
        if (rc == CZ_OK)
            rc = cz_cs_finish(cs);
        CHECK_EQ_INT(rc, tamper ? CZ_EUNSAT : CZ_OK);
        cz_cs_free(cs);
    }
    cz_ctx_free(ctx);
    cz_snap_input_free(&in);
    cz_snap_sector_free(&s);
}

#ifdef CZ_SNAP_PARALLEL_8M
/* The sequential witness of partition 2 of cz_snap_job_random(8MiB, seed
 * 1), without c (commit dc75a08). */
#define DIGEST_8M_P2 "04da079420d8e2ed98544bf1b827c900120adb7709ee4aa04d6672dd65b20556"

/* 8MiB (128 apex leaves, 10 challenges, 10M rows): the engine's callback
 * (cz_snap_synthesize: reserved arrays, the job's plan) on 2 and 3
 * threads against the sequential synthesis; then the 8MiB SHAPE through
 * the parallel entry point (digest of commit dc75a08). */
CZ_TEST(snap_8mib_parallel_equals_sequential)
{
    cz_ctx_t *one, *ctx2;
    REQUIRE(cz_ctx_new(&one, NULL, 1) == CZ_OK);
    cz_snap_job_t job;
    REQUIRE(cz_snap_job_random(one, &job, 8ull << 20, 1) == CZ_OK);
    cz_cs_witness_t seq, par;
    char hex[65];
    CHECK_OK(prove(NULL, &job.parts[2], &(how_t){ false, true, true, NULL }, &seq));
    witness_digest(hex, &seq);
    CHECK_EQ_STR(hex, DIGEST_8M_P2);
    CHECK_EQ_U64(seq.num_rows, 10007508);
    /* one thread: the engine's callback runs the sequential code */
    CHECK_OK(cz_snap_synthesize(&job, 2, one, &par));
    same_witness(&seq, &par);
    cz_cs_witness_free(&par);
    for (unsigned t = 2; t <= 3; t++) {
        cz_ctx_t *ctx;
        REQUIRE(cz_ctx_new(&ctx, NULL, t) == CZ_OK);
        CHECK_OK(cz_snap_synthesize(&job, 2, ctx, &par));
        same_witness(&seq, &par);
        witness_digest(hex, &par);
        CHECK_EQ_STR(hex, DIGEST_8M_P2);
        cz_cs_witness_free(&par);
        cz_ctx_free(ctx);
    }
    cz_cs_witness_free(&seq);
    cz_snap_job_clear(&job);
    /* and the 8MiB SHAPE through the parallel entry point */
    REQUIRE(cz_ctx_new(&ctx2, NULL, 2) == CZ_OK);
    blank_digest(hex, ctx2, CZ_CS_SHAPE, 8ull << 20);
    CHECK_EQ_STR(hex, "0ae0eb6d241c405014890768af710e09e7a8451f010268da8b331b54a2a04c8c");
    cz_ctx_free(ctx2);
    cz_ctx_free(one);
}
#endif

CZ_TEST_MAIN()
