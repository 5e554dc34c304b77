/*
 * tests/kinds/porep/test_c1.c — gen-c1 of a 2KiB sector, the JSON round trip,
 * native verification, tampering, malformed JSON with path-naming errors,
 * the public inputs from public values vs the circuit input's, and the
 * NI-PoRep C1 (13 partitions, challenges from replica_id and comm_r).
 */
#include <stdlib.h>
#include <string.h>

#include "cz_test.h"
#include "hash/sha254.h"
#include "kinds/porep/c1.h"
#include "kinds/porep/seal.h"

static cz_ctx_t *ctx;
static char *json; /* the 2KiB C1 */
static cz_c1_t c1;

static void setup(void)
{
    if (json)
        return;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 2));
    cz_seal_args_t a;
    memset(&a, 0, sizeof a);
    a.sector_bytes = 2048;
    a.random_seed = 42;
    memset(a.prover_id, 9, 32);
    memset(a.ticket, 1, 32);
    memset(a.seed, 99, 32);
    a.sector_id = 7;
    CHECK_OK(cz_seal_gen_c1(ctx, &a, &c1));
    CHECK_OK(cz_c1_to_json(ctx, &c1, &json));
}

/* FACTS 5: comm_d of the all-zero 2KiB sector. */
CZ_TEST(zero_sector_comm_d)
{
    setup();
    uint8_t *zero = calloc(1, 2048);
    cz_seal_args_t a;
    memset(&a, 0, sizeof a);
    a.sector_bytes = 2048;
    a.data = zero;
    cz_c1_t z;
    CHECK_OK(cz_seal_gen_c1(ctx, &a, &z));
    uint8_t want[32];
    static const char *hex = "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833";
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        want[i] = (uint8_t)v;
    }
    CHECK_MEM_EQ(z.comm_d, want, 32);
    CHECK_OK(cz_c1_verify(ctx, &z));
    cz_c1_free(&z);
    /* non-Fr32 data is refused */
    zero[32 * 5 + 31] = 0x80;
    CHECK_EQ_INT(cz_seal_gen_c1(ctx, &a, &z), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "node 5") != NULL);
    free(zero);
}

CZ_TEST(gen_parse_verify)
{
    setup();
    CHECK_OK(cz_c1_verify(ctx, &c1));
    cz_c1_t p;
    CHECK_OK(cz_c1_parse(ctx, &p, json, strlen(json)));
    CHECK_MEM_EQ(p.comm_r, c1.comm_r, 32);
    CHECK_MEM_EQ(p.replica_id, c1.replica_id, 32);
    CHECK_EQ_INT(p.npartitions, 1);
    CHECK_EQ_INT(p.nchallenges, 2);
    CHECK_OK(cz_c1_verify(ctx, &p));
    /* writing the parsed C1 gives the same bytes */
    char *again;
    CHECK_OK(cz_c1_to_json(ctx, &p, &again));
    CHECK_EQ_STR(again, json);
    free(again);
    /* the circuit input: public inputs from public values agree */
    cz_porep_input_t in;
    CHECK_OK(cz_c1_to_circuit(ctx, &p, 0, &in));
    CHECK_OK(cz_porep_input_check(ctx, &in));
    size_t n = cz_porep_num_inputs(&p.params) - 1;
    CHECK_EQ_U64(n, 39);
    cz_fr a[64], b[64];
    CHECK_OK(cz_porep_public_inputs(&in, a, n));
    uint8_t porep_id[32];
    cz_porep_id(porep_id, p.proof);
    CHECK_OK(cz_porep_public_inputs_from(ctx, b, n, &p.params, porep_id, p.replica_id, p.comm_d,
                                         p.comm_r, p.seed, 0));
    for (size_t i = 0; i < n; i++)
        if (!cz_fr_eq(&a[i], &b[i]))
            CZ__FAIL("public input %zu differs", i);
    cz_porep_input_free(&in);
    cz_c1_free(&p);
}

static void expect_tamper(const char *what, void (*mod)(cz_c1_t *), const char *needle)
{
    cz_c1_t p;
    CHECK_OK(cz_c1_parse(ctx, &p, json, strlen(json)));
    mod(&p);
    int rc = cz_c1_verify(ctx, &p);
    if (rc != CZ_EVERIFY)
        CZ__FAIL("%s: verify -> %d, want CZ_EVERIFY", what, rc);
    else if (needle && !strstr(cz_ctx_message(ctx), needle))
        CZ__FAIL("%s: message \"%s\" lacks \"%s\"", what, cz_ctx_message(ctx), needle);
    cz_c1_free(&p);
}

static void t_sibling(cz_c1_t *p)
{
    p->proofs[0].comm_d.siblings[2][0] ^= 1;
}
static void t_csib(cz_c1_t *p)
{
    p->proofs[1].drg[3].proof.siblings[0][4] ^= 1;
}
static void t_label(cz_c1_t *p)
{
    p->proofs[0].c_x.rows[1][0] ^= 1;
}
static void t_comm_r(cz_c1_t *p)
{
    p->comm_r[3] ^= 1;
}
static void t_lparent(cz_c1_t *p)
{
    p->proofs[0].labeling[0].parents[36][1] ^= 1;
}
static void t_index(cz_c1_t *p)
{
    p->proofs[0].drg[2].index ^= 1;
}
static void t_seed(cz_c1_t *p)
{
    p->seed[0] ^= 1;
}

CZ_TEST(tampered_c1_detected)
{
    setup();
    expect_tamper("tree_d sibling", t_sibling, NULL);
    expect_tamper("tree_c sibling", t_csib, NULL);
    expect_tamper("label", t_label, NULL);
    expect_tamper("comm_r", t_comm_r, NULL);
    expect_tamper("labeling parent", t_lparent, "labeling proof");
    expect_tamper("parent index", t_index, "parent");
    expect_tamper("seed", t_seed, "derived challenge");
}

/* Swap the proofs of partitions |a| and |b| (2 challenges each). */
static void swap_partitions(cz_c1_t *p, unsigned a, unsigned b)
{
    for (unsigned i = 0; i < p->nchallenges; i++) {
        cz_c1_proof_t t = p->proofs[a * p->nchallenges + i];
        p->proofs[a * p->nchallenges + i] = p->proofs[b * p->nchallenges + i];
        p->proofs[b * p->nchallenges + i] = t;
    }
}

/* NI-PoRep at 2KiB (RFP constants.rs: 13 partitions x 2 challenges): the C1
 * round-trips, its challenges follow from replica_id and comm_r (a changed
 * seed changes nothing; swapped partitions or a changed comm_r fail), and
 * the JSON is refused under the V1_1 name (1 partition). */
CZ_TEST(non_interactive_c1)
{
    setup();
    cz_seal_args_t a;
    memset(&a, 0, sizeof a);
    a.sector_bytes = 2048;
    a.random_seed = 42;
    memset(a.prover_id, 9, 32);
    memset(a.ticket, 1, 32);
    memset(a.seed, 99, 32);
    a.sector_id = 7;
    a.proof = cz_porep_proof_by_name("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep");
    REQUIRE(a.proof);
    cz_c1_t ni;
    CHECK_OK(cz_seal_gen_c1(ctx, &a, &ni));
    CHECK_EQ_INT(ni.npartitions, 13);
    CHECK_EQ_INT(ni.nchallenges, 2);
    CHECK_MEM_EQ(ni.comm_d, c1.comm_d, 32);          /* same data, another porep_id: */
    CHECK(memcmp(ni.replica_id, c1.replica_id, 32)); /* replica_id 15.. vs 5.. */
    CHECK_OK(cz_c1_verify(ctx, &ni));
    char *text;
    CHECK_OK(cz_c1_to_json(ctx, &ni, &text));
    cz_c1_t p;
    CHECK_OK(cz_c1_parse(ctx, &p, text, strlen(text)));
    CHECK(p.proof == a.proof);
    CHECK_EQ_INT(p.npartitions, 13);
    p.seed[0] ^= 1; /* NI ignores the seed */
    CHECK_OK(cz_c1_verify(ctx, &p));
    swap_partitions(&p, 3, 9);
    CHECK_EQ_INT(cz_c1_verify(ctx, &p), CZ_EVERIFY);
    CHECK(strstr(cz_ctx_message(ctx), "partition 3") != NULL);
    swap_partitions(&p, 3, 9);
    p.comm_r[3] ^= 1;
    CHECK_EQ_INT(cz_c1_verify(ctx, &p), CZ_EVERIFY);
    cz_c1_free(&p);
    /* the same vanilla proofs named StackedDrg2KiBV1_1: 13 partitions for 1 */
    const char *k = "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep";
    char *at = strstr(text, k);
    REQUIRE(at);
    size_t kl = strlen(k), vl = strlen("StackedDrg2KiBV1_1");
    memcpy(at, "StackedDrg2KiBV1_1", vl);
    memmove(at + vl, at + kl, strlen(at + kl) + 1);
    CHECK_EQ_INT(cz_c1_parse(ctx, &p, text, strlen(text)), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "partitions") != NULL);
    free(text);
    cz_c1_free(&ni);
}

static void expect_format(const char *text, const char *needle)
{
    cz_c1_t p;
    int rc = cz_c1_parse(ctx, &p, text, strlen(text));
    if (rc != CZ_EFORMAT)
        CZ__FAIL("parse -> %d, want CZ_EFORMAT (needle %s)", rc, needle);
    else if (!strstr(cz_ctx_message(ctx), needle))
        CZ__FAIL("message \"%s\" lacks \"%s\"", cz_ctx_message(ctx), needle);
}

/* Replace the first occurrence of |from| after |anchor| by |to|. */
static char *edit(const char *anchor, const char *from, const char *to)
{
    const char *a = strstr(json, anchor);
    const char *f = a ? strstr(a, from) : NULL;
    if (!f)
        return NULL;
    size_t n = strlen(json), fl = strlen(from), tl = strlen(to);
    char *s = malloc(n - fl + tl + 1);
    memcpy(s, json, (size_t)(f - json));
    memcpy(s + (f - json), to, tl);
    strcpy(s + (f - json) + tl, f + fl);
    return s;
}

CZ_TEST(malformed_json_named_paths)
{
    setup();
    /* truncated */
    char *t = strndup(json, strlen(json) / 2);
    expect_format(t, "JSON syntax error");
    free(t);
    expect_format("[]", "(root): expected object");
    expect_format("{\"registered_proof\": 5}", "registered_proof: expected string");
    expect_format("{\"registered_proof\": \"StackedDrg2KiBV1\"}", "v1.0 graph");
    /* a wrong-length hash deep inside */
    char *s = edit("\"comm_d_proofs\"", "\"hashes\":[[", "\"hashes\":[[1,");
    REQUIRE(s);
    expect_format(
        s,
        "vanilla_proofs.StackedDrg2KiBV1[0][0].comm_d_proofs.data.Single.path.path[0].hashes[0]: expected 32 bytes, got 33");
    free(s);
    /* two hashes where the binary tree has one */
    s = edit("\"comm_d_proofs\"", "\"hashes\":[",
             "\"hashes\":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],");
    REQUIRE(s);
    expect_format(s, "comm_d_proofs.data.Single.path.path[0].hashes: expected 1 hashes, got 2");
    free(s);
    /* wrong variant */
    s = edit("\"comm_r_last_proof\"", "\"Single\"", "\"Top\"");
    REQUIRE(s);
    expect_format(s,
                  "comm_r_last_proof.data: expected exactly one variant \"Single\", got \"Top\"");
    free(s);
    /* wrong type / out-of-range byte / index */
    s = edit("\"c_x\"", "\"index\":", "\"index\":\"x\",\"i\":");
    REQUIRE(s);
    expect_format(s, "replica_column_proofs.c_x.column.index: expected integer, got string");
    free(s);
    s = edit("\"comm_r\"", "[", "[256,");
    REQUIRE(s);
    expect_format(s, "comm_r: expected 32 bytes, got 33");
    free(s);
    char small[512] = "{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"comm_r\":[256";
    for (int i = 0; i < 31; i++)
        strcat(small, ",0");
    strcat(small, "]}");
    expect_format(small, "comm_r[0]: expected a byte");
    s = edit("\"labeling_proofs\"", "\"layer_index\":1", "\"layer_index\":0");
    REQUIRE(s);
    expect_format(s, "labeling_proofs[0]: layer_index 0");
    free(s);
    s = edit("\"exp_parents\"", "[{", "[{},{");
    REQUIRE(s);
    expect_format(s, "exp_parents: expected 8 column proofs, got 9");
    free(s);
    s = edit("\"seed\"", "\"seed\"", "\"sead\"");
    REQUIRE(s);
    expect_format(s, "seed: missing");
    free(s);
}

CZ_TEST(cleanup)
{
    cz_c1_free(&c1);
    free(json);
    json = NULL;
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
