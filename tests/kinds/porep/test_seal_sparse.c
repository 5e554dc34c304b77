/*
 * tests/kinds/porep/test_seal_sparse.c — synthetic sparse sealing
 * (kinds/porep/seal_sparse.h): sparse C1s of 2KiB and 8MiB verify natively
 * (cz_c1_verify, cz_porep_input_check per partition, the public inputs from
 * public values; the 2KiB one also in CHECK-mode synthesis of the circuit),
 * survive the JSON round trip, are deterministic, keep one label per
 * (layer, node) when a challenge is a DRG parent of another, and tampering
 * is detected; the pooled sparse tree builder agrees with the dense one. Built with CZ_SPARSE_32G (test_porep_seal_sparse_32g,
 * label slow): a 32GiB sparse C1 generated, written, parsed and verified,
 * with its times and size printed.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cz_test.h"
#include "hash/sha254.h"
#include "kinds/porep/c1.h"
#include "kinds/porep/seal_sparse.h"
#include "kinds/porep/trees.h"

static cz_ctx_t *ctx;

static void args_for(cz_seal_args_t *a, uint64_t bytes, uint64_t sector_id)
{
    memset(a, 0, sizeof *a);
    a->sector_bytes = bytes;
    a->random_seed = 5;
    memset(a->prover_id, 9, 32);
    memset(a->ticket, 1, 32);
    memset(a->seed, 99, 32);
    a->sector_id = sector_id;
}

static void hex32(uint8_t out[32], const char *hex)
{
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Every partition: the circuit input checks natively and its public inputs
 * equal those a chain verifier derives from the public values. */
static void check_partitions(const cz_c1_t *c)
{
    uint8_t porep_id[32];
    cz_porep_id(porep_id, c->proof);
    const size_t n = cz_porep_num_inputs(&c->params) - 1;
    cz_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    REQUIRE(a && b);
    for (unsigned k = 0; k < c->npartitions; k++) {
        cz_porep_input_t in;
        CHECK_OK(cz_c1_to_circuit(ctx, c, k, &in));
        CHECK_OK(cz_porep_input_check(ctx, &in));
        CHECK_OK(cz_porep_public_inputs(&in, a, n));
        CHECK_OK(cz_porep_public_inputs_from(ctx, b, n, &c->params, porep_id, c->replica_id,
                                             c->comm_d, c->comm_r, c->seed, k));
        for (size_t i = 0; i < n; i++)
            if (!cz_fr_eq(&a[i], &b[i])) {
                CZ__FAIL("partition %u: public input %zu differs", k, i);
                break;
            }
        cz_porep_input_free(&in);
    }
    free(a);
    free(b);
}

#ifndef CZ_SPARSE_32G

static void setup(void)
{
    if (!ctx)
        CHECK_OK(cz_ctx_new(&ctx, NULL, 2));
}

/* FACTS 5: comm_d of the all-zero 2KiB and 8MiB sectors. */
CZ_TEST(sparse_small_sizes_verify)
{
    setup();
    static const struct {
        uint64_t bytes;
        const char *comm_d;
    } cases[] = {
        { 2048, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833" },
        { 8u << 20, "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c" },
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        cz_seal_args_t a;
        args_for(&a, cases[t].bytes, 7);
        cz_c1_t c;
        cz_seal_sparse_stats_t st;
        CHECK_OK(cz_seal_sparse_gen_c1(ctx, &a, &c, &st));
        uint8_t want[32];
        hex32(want, cases[t].comm_d);
        CHECK_MEM_EQ(c.comm_d, want, 32);
        CHECK_OK(cz_c1_verify(ctx, &c));
        check_partitions(&c);
        /* 2 challenges x 15 columns at most; 2 layers */
        CHECK(st.challenges >= 1 && st.challenges <= 2);
        CHECK(st.columns > st.challenges && st.columns <= 30);
        CHECK_EQ_U64(st.honest_labels, st.challenges * 2);
        CHECK_EQ_U64(st.chosen_labels, (st.columns - st.challenges) * 2);
        /* the JSON round trip verifies and writes the same bytes */
        char *json, *again;
        CHECK_OK(cz_c1_to_json(ctx, &c, &json));
        cz_c1_t p;
        CHECK_OK(cz_c1_parse(ctx, &p, json, strlen(json)));
        CHECK_OK(cz_c1_verify(ctx, &p));
        CHECK_OK(cz_c1_to_json(ctx, &p, &again));
        CHECK_EQ_STR(again, json);
        free(again);
        free(json);
        cz_c1_free(&p);
        cz_c1_free(&c);
    }
}

/* The 2KiB sparse C1's partition satisfies the R1CS itself (CHECK-mode
 * synthesis, the challenges on the pool): the circuit accepts chosen
 * parent labels as long as the challenged labels are honest. */
CZ_TEST(sparse_2kib_satisfies_circuit)
{
    setup();
    cz_seal_args_t a;
    args_for(&a, 2048, 21);
    cz_c1_t c;
    REQUIRE(cz_seal_sparse_gen_c1(ctx, &a, &c, NULL) == CZ_OK);
    cz_porep_input_t in;
    REQUIRE(cz_c1_to_circuit(ctx, &c, 0, &in) == CZ_OK);
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, ctx, CZ_CS_CHECK) == CZ_OK);
    int rc = cz_porep_synthesize(ctx, cs, &c.params, &in);
    if (!rc)
        rc = cz_cs_finish(cs);
    CHECK_OK(rc);
    if (rc)
        fprintf(stderr, "%s\n", cz_ctx_message(ctx));
    cz_cs_free(cs);
    cz_porep_input_free(&in);
    cz_c1_free(&c);
}

/* Same args, same C1; another label seed changes comm_r but neither comm_d
 * nor replica_id (they do not depend on the labels). */
CZ_TEST(sparse_deterministic)
{
    setup();
    cz_seal_args_t a;
    args_for(&a, 2048, 3);
    cz_c1_t x, y, z;
    CHECK_OK(cz_seal_sparse_gen_c1(ctx, &a, &x, NULL));
    CHECK_OK(cz_seal_sparse_gen_c1(ctx, &a, &y, NULL));
    a.random_seed = 6;
    CHECK_OK(cz_seal_sparse_gen_c1(ctx, &a, &z, NULL));
    char *jx, *jy;
    CHECK_OK(cz_c1_to_json(ctx, &x, &jx));
    CHECK_OK(cz_c1_to_json(ctx, &y, &jy));
    CHECK_EQ_STR(jx, jy);
    CHECK_MEM_EQ(x.comm_d, z.comm_d, 32);
    CHECK_MEM_EQ(x.replica_id, z.replica_id, 32);
    CHECK(memcmp(x.comm_r, z.comm_r, 32) != 0);
    CHECK_OK(cz_c1_verify(ctx, &z));
    free(jx);
    free(jy);
    cz_c1_free(&x);
    cz_c1_free(&y);
    cz_c1_free(&z);
}

/* A challenge that is a DRG parent of the other challenge: its honest label
 * must be the one the other's column and labeling proof open (one value
 * per (layer, node)), computed in an earlier wave. Sector ids are tried
 * until the 64-node graph gives such a pair (a few percent of them do). */
CZ_TEST(sparse_challenge_that_is_a_parent)
{
    setup();
    int found = 0;
    for (uint64_t id = 0; id < 2000 && !found; id++) {
        cz_seal_args_t a;
        args_for(&a, 2048, id);
        cz_c1_t c;
        cz_seal_sparse_stats_t st;
        REQUIRE(cz_seal_sparse_gen_c1(ctx, &a, &c, &st) == CZ_OK);
        if (st.waves > 1) {
            found = 1;
            CHECK_OK(cz_c1_verify(ctx, &c));
            const cz_c1_proof_t *p0 = &c.proofs[0], *p1 = &c.proofs[1];
            const cz_c1_proof_t *lo = p0->c_x.index < p1->c_x.index ? p0 : p1;
            const cz_c1_proof_t *hi = lo == p0 ? p1 : p0;
            int seen = 0;
            for (unsigned j = 0; j < 6; j++)
                if (hi->drg[j].index == lo->c_x.index) {
                    seen = 1;
                    CHECK_MEM_EQ(hi->drg[j].rows, lo->c_x.rows, 2 * 32);
                }
            CHECK(seen);
        }
        cz_c1_free(&c);
    }
    CHECK(found);
}

static void expect_tamper(const cz_c1_t *good, const char *what, void (*mod)(cz_c1_t *))
{
    char *json;
    CHECK_OK(cz_c1_to_json(ctx, good, &json));
    cz_c1_t p;
    CHECK_OK(cz_c1_parse(ctx, &p, json, strlen(json)));
    free(json);
    mod(&p);
    int rc = cz_c1_verify(ctx, &p);
    if (rc != CZ_EVERIFY)
        CZ__FAIL("%s: verify -> %d, want CZ_EVERIFY", what, rc);
    cz_c1_free(&p);
}

static void t_chosen_row(cz_c1_t *p)
{
    p->proofs[0].exp[2].rows[0][0] ^= 1;
}
static void t_honest(cz_c1_t *p)
{
    p->proofs[1].c_x.rows[1][5] ^= 1;
}
static void t_zero_sib(cz_c1_t *p)
{
    p->proofs[0].comm_d.siblings[10][0] ^= 1;
}
static void t_r_sib(cz_c1_t *p)
{
    p->proofs[1].comm_r_last.siblings[12][3] ^= 1;
}
static void t_c_sib(cz_c1_t *p)
{
    p->proofs[0].drg[1].proof.siblings[16][7] ^= 1;
}
static void t_replica(cz_c1_t *p)
{
    p->proofs[0].comm_r_last.leaf[2] ^= 1;
}
static void t_comm_r(cz_c1_t *p)
{
    p->comm_r[0] ^= 1;
}
static void t_encoding(cz_c1_t *p)
{
    p->proofs[1].labeling[1].parents[20][0] ^= 1;
}

/* 8MiB sparse C1 (6 levels of octree: the default-subtree siblings are
 * exercised far from the leaves). */
CZ_TEST(sparse_tampered_detected)
{
    setup();
    cz_seal_args_t a;
    args_for(&a, 8u << 20, 11);
    cz_c1_t c;
    REQUIRE(cz_seal_sparse_gen_c1(ctx, &a, &c, NULL) == CZ_OK);
    CHECK_OK(cz_c1_verify(ctx, &c));
    expect_tamper(&c, "chosen (parent) label", t_chosen_row);
    expect_tamper(&c, "honest label", t_honest);
    expect_tamper(&c, "tree_d zero sibling", t_zero_sib);
    expect_tamper(&c, "tree_r_last sibling", t_r_sib);
    expect_tamper(&c, "tree_c sibling", t_c_sib);
    expect_tamper(&c, "replica leaf", t_replica);
    expect_tamper(&c, "comm_r", t_comm_r);
    expect_tamper(&c, "labeling parent", t_encoding);
    cz_c1_free(&c);
}

/* The sparse builder (hashed level by level on the pool) gives the dense
 * tree's root and paths for the same leaves: Poseidon 8-8-2 over 1024
 * leaves and SHA254 over 4096, a few present leaves, zero elsewhere. */
CZ_TEST(sparse_tree_matches_dense)
{
    setup();
    static const struct {
        cz_por_hasher_t h;
        uint64_t leaves;
        unsigned base, sub, top;
    } shapes[] = { { CZ_POR_POSEIDON, 1024, 8, 8, 2 }, { CZ_POR_SHA254, 4096, 2, 0, 0 } };
    static const uint64_t present[] = { 0, 1, 7, 8, 63, 64, 500, 1000, 1022, 1023 };
    const size_t np = sizeof present / sizeof present[0];
    for (size_t s = 0; s < 2; s++) {
        cz_sdr_tree_t d, sp;
        REQUIRE(cz_sdr_tree_shape(&d, shapes[s].h, shapes[s].leaves, shapes[s].base, shapes[s].sub,
                                  shapes[s].top) == CZ_OK);
        REQUIRE(cz_sdr_tree_shape(&sp, shapes[s].h, shapes[s].leaves, shapes[s].base, shapes[s].sub,
                                  shapes[s].top) == CZ_OK);
        uint8_t *leaves = calloc(shapes[s].leaves, 32), vals[10][32];
        REQUIRE(leaves);
        cz_rng rng;
        cz_rng_seed(&rng, 17 + s);
        for (size_t k = 0; k < np; k++) {
            cz_fr f;
            cz_fr_random_rng(&f, &rng);
            if (shapes[s].h == CZ_POR_SHA254)
                cz_fr_to_repr(vals[k], &f); /* a 32-byte value < r */
            else
                memcpy(vals[k], &f, 32); /* node form: cz_fr */
            memcpy(leaves + 32 * present[k], vals[k], 32);
        }
        static const uint8_t zero[32];
        CHECK_OK(cz_sdr_tree_build(ctx, &d, leaves));
        CHECK_OK(cz_sdr_tree_build_sparse(ctx, &sp, present, vals, np, zero));
        uint8_t r1[32], r2[32];
        cz_sdr_tree_root(&d, r1);
        cz_sdr_tree_root(&sp, r2);
        CHECK_MEM_EQ(r1, r2, 32);
        const size_t plen = cz_sdr_tree_path_len(&d);
        uint8_t(*p1)[32] = malloc(plen * 32), (*p2)[32] = malloc(plen * 32);
        REQUIRE(p1 && p2);
        static const uint64_t probe[] = { 0, 7, 9, 500, 777, 1023 };
        for (size_t k = 0; k < sizeof probe / sizeof probe[0]; k++) {
            cz_sdr_tree_path(&d, probe[k], p1);
            cz_sdr_tree_path(&sp, probe[k], p2);
            CHECK_MEM_EQ(p1, p2, plen * 32);
            cz_sdr_tree_node(&d, 0, probe[k], r1);
            cz_sdr_tree_node(&sp, 0, probe[k], r2);
            CHECK_MEM_EQ(r1, r2, 32);
        }
        free(p1);
        free(p2);
        free(leaves);
        cz_sdr_tree_free(&d);
        cz_sdr_tree_free(&sp);
    }
}

CZ_TEST(sparse_bad_args)
{
    setup();
    cz_seal_args_t a;
    args_for(&a, 4096, 1);
    cz_c1_t c;
    CHECK_EQ_INT(cz_seal_sparse_gen_c1(ctx, &a, &c, NULL), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "sector size") != NULL);
    uint8_t data[2048] = { 0 };
    args_for(&a, 2048, 1);
    a.data = data;
    CHECK_EQ_INT(cz_seal_sparse_gen_c1(ctx, &a, &c, NULL), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "all zero") != NULL);
    CHECK(c.proofs == NULL);
}

#else /* CZ_SPARSE_32G */

/* FACTS 3 (32GiB: 10 partitions x 18 challenges, 11 layers, 8-8-0) and
 * FACTS 5 (comm_d of 32GiB of zeros); FACTS 6 (a real C1 is about 50 MB). */
CZ_TEST(sparse_32gib_generate_write_verify)
{
    CHECK_OK(cz_ctx_new(&ctx, NULL, 0));
    cz_seal_args_t a;
    args_for(&a, 32ull << 30, 1234);
    cz_c1_t c;
    cz_seal_sparse_stats_t st;
    double t0 = now();
    REQUIRE(cz_seal_sparse_gen_c1(ctx, &a, &c, &st) == CZ_OK);
    double t1 = now();
    uint8_t want[32];
    hex32(want, "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e");
    CHECK_MEM_EQ(c.comm_d, want, 32);
    CHECK_EQ_INT(c.npartitions, 10);
    CHECK_EQ_INT(c.nchallenges, 18);
    CHECK_EQ_INT(c.proofs[0].c_x.nrows, 11);
    CHECK_EQ_INT(c.proofs[0].comm_r_last.kind, CZ_C1_SUB);
    char *json;
    CHECK_OK(cz_c1_to_json(ctx, &c, &json));
    double t2 = now();
    size_t len = strlen(json);
    cz_c1_t p;
    REQUIRE(cz_c1_parse(ctx, &p, json, len) == CZ_OK);
    double t3 = now();
    CHECK_OK(cz_c1_verify(ctx, &p));
    double t4 = now();
    check_partitions(&p);
    CHECK_MEM_EQ(p.comm_r, c.comm_r, 32);
    printf("32GiB sparse: %zu challenges, %zu columns, %zu honest + %zu chosen labels, "
           "%u waves\n",
           st.challenges, st.columns, st.honest_labels, st.chosen_labels, st.waves);
    printf("32GiB sparse: generate %.2f s, JSON %.2f s (%.1f MB), parse %.2f s, "
           "verify %.2f s\n",
           t1 - t0, t2 - t1, len / 1e6, t3 - t2, t4 - t3);
    CHECK(len > 20000000 && len < 120000000);
    free(json);
    cz_c1_free(&p);
    cz_c1_free(&c);
    cz_ctx_free(ctx);
}

#endif /* CZ_SPARSE_32G */

CZ_TEST_MAIN()
