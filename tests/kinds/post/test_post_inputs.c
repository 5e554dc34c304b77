/*
 * tests/kinds/post/test_post_inputs.c — PoSt inputs (src/kinds/post):
 * - registered proofs by abi number and name; prover_id = LEB128 (f01000 ->
 *   e8 07, FACTS realdata 2b); the params file names of parameters.json
 *   (rust-fil-proofs: 2KiB winning 3ea05428..., window 0170db1f..., 32GiB
 *   winning 559e581f..., window 0377ded6..., 64GiB 8-8-2 b6209862/2627e400).
 * - bincode: gen-vanilla's proofs parse and re-serialize byte for byte;
 *   every truncation, a wrong variant, path length, hash count, index or
 *   trailing byte is CZ_EFORMAT naming the field and the byte offset.
 * - public inputs == the circuit's inputs (CHECK mode on the witness built
 *   from the vanilla proofs), winning (66 unrolled circuit sectors) and
 *   window (2 sectors, and 1 sector padded to 2); the witness builder
 *   rejects a wrong randomness, sector id, comm_r, partition or an
 *   ApiVersion whose challenges the proofs do not open (CZ_EVERIFY); the job refuses an
 *   unknown registered proof and short randomness before any work.
 */
#include <stdio.h>

#include "circuits/post/fallback.h"
#include "cs/cs.h"
#include "cz_test.h"
#include "kinds/post/job.h"
#include "kinds/post/post.h"
#include "kinds/post/input.h"

CZ_TEST(registered_proofs_and_prover_id)
{
    const cz_post_proof_t *p = cz_post_proof_by_abi(3);
    REQUIRE(p);
    CHECK_EQ_STR(p->name, "StackedDrgWinning32GiBV1");
    CHECK(p->kind == CZ_POST_WINNING);
    p = cz_post_proof_by_abi(13);
    REQUIRE(p);
    CHECK_EQ_STR(p->name, "StackedDrgWindow32GiBV1_2");
    CHECK_EQ_U64(p->api_minor, 2);
    CHECK(cz_post_proof_by_name("StackedDrgWindow32GiBV1_1") == p); /* the abi spelling */
    CHECK(cz_post_proof_by_abi(15) == NULL);
    CHECK(cz_post_proof_by_name("StackedDrgWindow32GiBV2") == NULL);
    CHECK(cz_post_proof_current(CZ_POST_WINDOW, 2048) == cz_post_proof_by_abi(10));
    uint8_t id[32], want[32] = { 0xe8, 0x07 };
    cz_post_prover_id(id, 1000);
    CHECK_MEM_EQ(id, want, 32);
    cz_post_prover_id(id, 0);
    memset(want, 0, 32);
    CHECK_MEM_EQ(id, want, 32);
}

CZ_TEST(params_file_names)
{
    static const struct {
        cz_post_kind_t kind;
        uint64_t bytes;
        const char *hash;
    } cases[] = {
        { CZ_POST_WINNING, 2048,
          "8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e" },
        { CZ_POST_WINDOW, 2048,
          "8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0" },
        { CZ_POST_WINNING, 32ull << 30,
          "8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e" },
        { CZ_POST_WINDOW, 32ull << 30,
          "8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cz_post_params_t p;
        char name[256], want[256];
        REQUIRE(cz_post_params_sector(&p, cases[i].kind, cases[i].bytes) == CZ_OK);
        CHECK_OK(cz_post_params_name(name, sizeof name, &p, "vk"));
        snprintf(want, sizeof want,
                 "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-%s.vk", cases[i].hash);
        CHECK_EQ_STR(name, want);
    }
}

/* cz_post_shape (one sector's shape x the sector count) == the full
 * synthesis, and the 32GiB window partition's numbers. */
CZ_TEST(shape_scales_from_one_sector)
{
    static const unsigned cfgs[][5] = {
        /* nodes, sectors, challenges, base, sub/top */
        { 64, 2, 10, 8, 0 },
        { 512, 5, 2, 8, 1 },
        { 256, 66, 1, 8, 2 },
    };
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        cz_post_params_t p;
        unsigned sub = cfgs[i][4] ? 4 : 0, top = cfgs[i][4] == 1 ? 2 : 0;
        REQUIRE(cz_post_params_make(&p, CZ_POST_WINDOW, cfgs[i][0], cfgs[i][1], cfgs[i][2],
                                    cfgs[i][3], sub, top) == CZ_OK);
        cz_params_shape_t a;
        size_t ra;
        REQUIRE(cz_post_shape(NULL, &p, &a, &ra) == CZ_OK);
        cz_cs_t *cs;
        REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_SHAPE) == CZ_OK);
        CHECK_OK(cz_post_circuit(cs, &p, NULL));
        CHECK_OK(cz_cs_finish(cs));
        size_t pop[3];
        for (int k = 0; k < 3; k++)
            cz_cs_density(cs, (cz_density_t)k, NULL, &pop[k]);
        CHECK_EQ_U64(ra, cz_cs_num_rows(cs));
        CHECK_EQ_U64(a.num_inputs, cz_cs_num_inputs(cs));
        CHECK_EQ_U64(a.num_aux, cz_cs_num_aux(cs));
        CHECK_EQ_U64(a.a_aux_popcount, pop[CZ_DENSITY_A_AUX]);
        CHECK_EQ_U64(a.b_input_popcount, pop[CZ_DENSITY_B_INPUT]);
        CHECK_EQ_U64(a.b_aux_popcount, pop[CZ_DENSITY_B_AUX]);
        cz_cs_free(cs);
    }
    /* `cuzk circuit shape --kind window-post --sector-size 32GiB` (full synthesis) */
    cz_post_params_t p;
    cz_params_shape_t s;
    size_t rows;
    REQUIRE(cz_post_params_sector(&p, CZ_POST_WINDOW, 32ull << 30) == CZ_OK);
    REQUIRE(cz_post_shape(NULL, &p, &s, &rows) == CZ_OK);
    CHECK_EQ_U64(rows, 125305057);
    CHECK_EQ_U64(s.num_inputs, 25840);
    CHECK_EQ_U64(s.num_aux, 126902376);
    CHECK_EQ_U64(s.a_aux_popcount, 96179805);
    CHECK_EQ_U64(s.b_input_popcount, 1);
    CHECK_EQ_U64(s.b_aux_popcount, 91925766);
    CHECK_EQ_U64(s.domain_size, 1u << 27);
}

/* A parse that must fail with CZ_EFORMAT and a message naming |what|. */
static void expect_format(const cz_post_params_t *p, const uint8_t *b, size_t n, const char *what)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_post_vanilla_t v;
    int rc = cz_post_vanilla_parse(ctx, p, b, n, &v);
    CHECK_EQ_INT(rc, CZ_EFORMAT);
    if (!strstr(cz_ctx_message(ctx), what) || !strstr(cz_ctx_message(ctx), "byte"))
        CZ__FAIL("message '%s' does not name '%s' and a byte offset", cz_ctx_message(ctx), what);
    cz_ctx_free(ctx);
}

static void put_u64(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        b[i] = (uint8_t)v;
}

CZ_TEST(bincode_round_trip_and_rejections)
{
    cz_post_input_t in;
    REQUIRE(cz_post_gen(NULL, CZ_POST_WINDOW, 2048, 2, 3, &in) == CZ_OK);
    cz_post_params_t p;
    REQUIRE(cz_post_params_sector(&p, CZ_POST_WINDOW, 2048) == CZ_OK);
    const uint8_t *b = in.vanilla[0];
    const size_t n = in.vanilla_len[0];
    CHECK_EQ_U64(n, 56 + 10 * (4 + 64 + 8 + 2 * (8 + 7 * 32 + 8)) + 64);
    cz_post_vanilla_t v;
    REQUIRE(cz_post_vanilla_parse(NULL, &p, b, n, &v) == CZ_OK);
    CHECK_EQ_U64(v.sector_id, 1);
    CHECK_EQ_U64(v.nproofs, 10);
    CHECK_MEM_EQ(v.comm_r, in.sectors[0].comm_r, 32);
    uint8_t *out;
    size_t len;
    REQUIRE(cz_post_vanilla_write(&p, &v, &out, &len) == CZ_OK);
    CHECK_EQ_U64(len, n);
    CHECK_MEM_EQ(out, b, n);
    free(out);
    cz_post_vanilla_free(&v);

    /* every truncation */
    for (size_t k = 0; k < n; k += 7)
        expect_format(&p, b, k, k < 8 ? "sector_id" : "");
    uint8_t *m = malloc(n + 1);
    REQUIRE(m);
    memcpy(m, b, n);
    m[n] = 0;
    expect_format(&p, m, n + 1, "trailing");
    memcpy(m, b, n);
    put_u64(m + 40, 2); /* vanilla_proof.sectors */
    expect_format(&p, m, n, "sectors length at byte 40");
    memcpy(m, b, n);
    put_u64(m + 48, 1u << 30); /* inclusion_proofs: never allocated */
    expect_format(&p, m, n, "inclusion_proofs length at byte 48");
    memcpy(m, b, n);
    m[56] = 2; /* variant Top for an 8-0-0 tree */
    expect_format(&p, m, n, "inclusion proof 0 variant at byte 56");
    memcpy(m, b, n);
    put_u64(m + 56 + 4 + 64, 3); /* base path length */
    expect_format(&p, m, n, "inclusion proof 0 base path length at byte 124");
    memcpy(m, b, n);
    put_u64(m + 56 + 4 + 64 + 8, 8); /* hashes of element 0 */
    expect_format(&p, m, n, "element 0 hashes at byte 132");
    memcpy(m, b, n);
    put_u64(m + 56 + 4 + 64 + 8 + 8 + 7 * 32, 8); /* index 8 >= arity 8 */
    expect_format(&p, m, n, "element 0 index at byte 364");
    free(m);
    cz_post_input_free(&in);
}

/* CHECK-mode synthesis of the witness; its inputs must equal the public ones. */
static void inputs_match(const cz_post_input_t *in, const cz_post_params_t *p)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 2) == CZ_OK);
    cz_post_public_t pub;
    cz_post_input_public(in, &pub);
    cz_post_vanilla_t *v = calloc(in->nvanilla, sizeof *v);
    REQUIRE(v);
    for (size_t i = 0; i < in->nvanilla; i++)
        CHECK_OK(cz_post_vanilla_parse(ctx, p, in->vanilla[i], in->vanilla_len[i], &v[i]));
    cz_post_witness_t w;
    int rc = cz_post_witness_from(ctx, &pub, p, v, in->nvanilla, &w);
    if (rc)
        CZ__FAIL("witness: %s", cz_ctx_message(ctx));
    REQUIRE(rc == CZ_OK);
    CHECK_OK(cz_post_witness_check(ctx, &w));
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_CHECK) == CZ_OK);
    CHECK_OK(cz_post_synthesize(ctx, cs, p, &w));
    CHECK_OK(cz_cs_finish(cs));
    const size_t n = cz_post_num_inputs(p) - 1;
    CHECK_EQ_U64(cz_cs_num_inputs(cs), n + 1);
    cz_fr *want = calloc(n, sizeof *want);
    REQUIRE(want);
    CHECK_OK(cz_post_public_inputs(ctx, &pub, want, n));
    CHECK_MEM_EQ(cz_cs_inputs(cs) + 1, want, n * sizeof(cz_fr));

    /* the witness builder checks the vanilla proofs against the public values */
    cz_post_witness_t bad;
    cz_post_public_t q = pub;
    q.randomness[0] ^= 1;
    CHECK(cz_post_witness_from(ctx, &q, p, v, in->nvanilla, &bad) == CZ_EVERIFY);
    CHECK(strstr(cz_ctx_message(ctx), "the randomness challenges leaf") != NULL);
    cz_post_sector_pub_t *secs = calloc(pub.nsectors, sizeof *secs);
    REQUIRE(secs);
    memcpy(secs, pub.sectors, pub.nsectors * sizeof *secs);
    q = pub;
    q.sectors = secs;
    secs[0].id += 5;
    CHECK(cz_post_witness_from(ctx, &q, p, v, in->nvanilla, &bad) == CZ_EVERIFY);
    secs[0].id -= 5;
    secs[0].comm_r[0] ^= 1;
    CHECK(cz_post_witness_from(ctx, &q, p, v, in->nvanilla, &bad) == CZ_EVERIFY);
    free(secs);
    if (in->proof->kind == CZ_POST_WINDOW) {
        /* ApiVersion 1.0.0 indexes challenges (k x sectors + i) x 10 + n: the
         * leaves of sector 1 differ from 1.2.0's (index n); sector 0 of
         * partition 0 has the same ones. */
        q = pub;
        q.proof = cz_post_proof_by_abi(in->proof->abi - 5);
        CHECK_EQ_U64(q.proof->api_minor, 0);
        rc = cz_post_witness_from(ctx, &q, p, v, in->nvanilla, &bad);
        CHECK_EQ_INT(rc, in->nvanilla > 1 ? CZ_EVERIFY : CZ_OK);
        cz_post_witness_free(&bad);
        q.partition = 1; /* partition 1: every index moves */
        CHECK(cz_post_witness_from(ctx, &q, p, v, in->nvanilla, &bad) == CZ_EVERIFY);
    }
    free(want);
    cz_cs_free(cs);
    cz_post_witness_free(&w);
    for (size_t i = 0; i < in->nvanilla; i++)
        cz_post_vanilla_free(&v[i]);
    free(v);
    cz_ctx_free(ctx);
}

CZ_TEST(public_inputs_match_circuit)
{
    static const struct {
        cz_post_kind_t kind;
        unsigned sectors;
    } cases[] = { { CZ_POST_WINNING, 1 }, { CZ_POST_WINDOW, 2 }, { CZ_POST_WINDOW, 1 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cz_post_input_t in;
        cz_post_params_t p;
        REQUIRE(cz_post_gen(NULL, cases[i].kind, 2048, cases[i].sectors, 9 + i, &in) == CZ_OK);
        REQUIRE(cz_post_params_sector(&p, cases[i].kind, 2048) == CZ_OK);
        inputs_match(&in, &p);
        cz_post_input_free(&in);
    }
}

CZ_TEST(job_refuses_bad_requests_early)
{
    cz_post_input_t in;
    REQUIRE(cz_post_gen(NULL, CZ_POST_WINNING, 2048, 1, 4, &in) == CZ_OK);
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_post_request_t req;
    cz_post_job_t job;
    cz_post_input_request(&in, &req);
    req.registered_proof = 99;
    CHECK(cz_post_job_init(ctx, &job, &req, NULL, NULL) == CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "99") != NULL);
    cz_post_input_request(&in, &req);
    req.randomness_len = 31;
    CHECK(cz_post_job_init(ctx, &job, &req, NULL, NULL) == CZ_EINVAL);
    cz_post_input_request(&in, &req);
    req.registered_proof = 5; /* a window proof for winning vanilla proofs */
    CHECK(cz_post_job_init(ctx, &job, &req, NULL, NULL) == CZ_EFORMAT);
    cz_post_input_request(&in, &req);
    req.miner_id = 1001; /* another prover: the inputs differ, not the leaves */
    CHECK_OK(cz_post_job_init(ctx, &job, &req, NULL, NULL));
    CHECK_EQ_U64(job.n_inputs, 132);
    CHECK_EQ_U64(job.spec.partitions, 1);
    cz_post_job_clear(&job);
    cz_post_input_request(&in, &req);
    CHECK_OK(cz_post_job_init(ctx, &job, &req, NULL, NULL));
    cz_post_job_clear(&job);
    cz_ctx_free(ctx);
    cz_post_input_free(&in);
}

CZ_TEST_MAIN()
