/*
 * tests/daemon/test_grpc_curio.c — Curio's requests as daemon jobs
 * (daemon/grpc/curio.h): base64 against the RFC 4648 vectors and its
 * malformed forms, the C1 wrapper's mapping and every refusal naming its
 * field; WINNING_POST / WINDOW_POST_PARTITION of real 2KiB vanilla proofs
 * mapped to the PoSt input the kind then prepares, SNAP_DEALS_UPDATE with
 * raw and CID commitments, and their refusals (malformed fields, wrong
 * lengths, unknown registered proofs); the kind table, circuit ids.
 */
#include <stdlib.h>
#include <string.h>

#include "core/hex.h"
#include "cz_test.h"
#include "daemon/grpc/curio.h"
#include "kinds/curio.h"
#include "kinds/job.h"
#include "kinds/kinds.h"
#include "kinds/post/input.h"

static int decode(const char *in, char *out, size_t *bad)
{
    size_t n = 0;
    int rc = cz__base64_decode(in, strlen(in), (uint8_t *)out, &n, bad);
    out[rc == CZ_OK ? n : 0] = '\0';
    return rc;
}

CZ_TEST(base64_rfc4648_vectors)
{
    static const char *const vec[][2] = { { "", "" },
                                          { "Zg==", "f" },
                                          { "Zm8=", "fo" },
                                          { "Zm9v", "foo" },
                                          { "Zm9vYg==", "foob" },
                                          { "Zm9vYmE=", "fooba" },
                                          { "Zm9vYmFy", "foobar" },
                                          { "+/+/", "\xfb\xff\xbf" } };
    for (size_t i = 0; i < sizeof vec / sizeof *vec; i++) {
        char out[16];
        size_t bad;
        CHECK_OK(decode(vec[i][0], out, &bad));
        CHECK_EQ_STR(out, vec[i][1]);
    }
}

CZ_TEST(base64_malformed)
{
    static const struct {
        const char *in;
        size_t bad;
    } vec[] = {
        { "Zg", 2 },         /* not a multiple of 4 (Go always pads) */
        { "Zg=a", 2 },       /* a pad with data after it */
        { "Z===", 1 },       /* three pads */
        { "Zm9v====", 4 },   /* a padding-only quantum */
        { "Zm=v", 2 },       /* padding inside the last quantum */
        { "ab#d", 2 },       /* outside the alphabet */
        { "Zg==Zg==", 2 },   /* padding before the end */
        { "Zm9v\nYmFy", 9 }, /* a line break: 9 characters */
    };
    for (size_t i = 0; i < sizeof vec / sizeof *vec; i++) {
        char out[16];
        size_t bad = 99;
        CHECK_EQ_INT(decode(vec[i].in, out, &bad), CZ_EFORMAT);
        CHECK_EQ_U64(bad, vec[i].bad);
    }
}

/* A Curio-shaped POREP_SEAL_COMMIT request around |wrapper|. */
static Cuzk__V1__SubmitProofRequest porep(const char *wrapper)
{
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.request_id = "porep-1000-7";
    r.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    r.sector_size = 2048;
    r.sector_number = 7;
    r.miner_id = 1000;
    r.vanilla_proof.data = (uint8_t *)wrapper;
    r.vanilla_proof.len = strlen(wrapper);
    return r;
}

/* Map |r|; on error the message must contain |needle|. */
static int map(const Cuzk__V1__SubmitProofRequest *r, json_t **out, const char *needle)
{
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, 1))
        return CZ_ENOMEM;
    int rc = cz__grpc_job_request(ctx, cz_kinds_builtin(), r, out, NULL);
    if (rc != CZ_OK && needle && !strstr(cz_ctx_message(ctx), needle)) {
        fprintf(stderr, "  message '%s' does not say '%s'\n", cz_ctx_message(ctx), needle);
        rc = CZ_EINTERNAL;
    }
    cz_ctx_free(ctx);
    return rc;
}

CZ_TEST(porep_wrapper_maps_to_a_porep_c2_job)
{
    /* base64 of {"a":1} */
    Cuzk__V1__SubmitProofRequest r = porep(
        "{\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048}");
    json_t *req = NULL;
    CHECK_OK(map(&r, &req, NULL));
    REQUIRE(req != NULL);
    CHECK_EQ_STR(json_string_value(json_object_get(req, "kind")), "porep-c2");
    CHECK_EQ_STR(json_string_value(json_object_get(req, "input")), "{\"a\":1}");
    CHECK_EQ_STR(json_string_value(json_object_get(req, "request_id")), "porep-1000-7");
    CHECK_EQ_INT((int)json_integer_value(json_object_get(req, "sector_size")), 2048);
    CHECK_EQ_INT((int)json_integer_value(json_object_get(req, "priority")), 2); /* default NORMAL */
    json_decref(req);
    r.priority = CUZK__V1__PRIORITY__CRITICAL;
    r.request_id = "";
    CHECK_OK(map(&r, &req, NULL));
    CHECK_EQ_INT((int)json_integer_value(json_object_get(req, "priority")), 4);
    CHECK(json_object_get(req, "request_id") == NULL); /* no id: no dedupe */
    json_decref(req);
}

/* The PoRep map finds Phase1Out in the wrapper's text and lets jansson parse the rest
 * (kinds/porep/kind_porep.c load_wrapper); what that scan does not take is jansson's. */
CZ_TEST(porep_wrapper_scan_leaves_the_odd_to_jansson)
{
    static const char *const good[] = {
        /* escapes in Phase1Out: jansson decodes them */
        "{\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ\\u003d\\u003d\",\"SectorSize\":2048}",
        /* blanks, another order, nested values to step over */
        " {\n \"SectorSize\" : 2048 ,\"SectorNum\":7,\n\"Phase1Out\" :\t\"eyJhIjoxfQ==\"\n} ",
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        Cuzk__V1__SubmitProofRequest r = porep(good[i]);
        json_t *req = NULL;
        CHECK_OK(map(&r, &req, NULL));
        CHECK_EQ_STR(json_string_value(json_object_get(req, "input")), "{\"a\":1}");
        json_decref(req);
    }
    /* an error after Phase1Out: the whole text's line and column, as jansson gives them */
    static const char trailing[] =
        "{\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048,}";
    json_error_t e;
    CHECK(json_loads(trailing, 0, &e) == NULL);
    char want[256];
    snprintf(want, sizeof want, "vanilla_proof: not JSON (line %d, column %d: %s)", e.line,
             e.column, e.text);
    Cuzk__V1__SubmitProofRequest r = porep(trailing);
    json_t *req = NULL;
    CHECK_EQ_INT(map(&r, &req, want), CZ_EINVAL);
    static const struct {
        const char *wrapper, *needle;
    } bad[] = {
        { "{\"SectorNum\":7,\"Phase1Out\":\"eyJh\x01IjoxfQ==\",\"SectorSize\":2048}",
          "vanilla_proof: not JSON" }, /* a control character: jansson's refusal */
        { "{\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"Phase1Out\":\"eyJhIjoxfQ==\","
          "\"SectorSize\":2048}",
          "duplicate object key" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048} x", "not JSON" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        r = porep(bad[i].wrapper);
        CHECK_EQ_INT(map(&r, &req, bad[i].needle), CZ_EINVAL);
    }
}

CZ_TEST(porep_refusals_name_the_field)
{
    static const struct {
        const char *wrapper;
        const char *needle;
    } vec[] = {
        { "", "vanilla_proof: empty" },
        { "{\"SectorNum\":", "vanilla_proof: not JSON" },
        { "[1]", "vanilla_proof: must be a JSON object" },
        { "{\"SectorNum\":7,\"SectorSize\":2048}", "vanilla_proof.Phase1Out: missing" },
        { "{\"SectorNum\":7,\"Phase1Out\":5,\"SectorSize\":2048}",
          "vanilla_proof.Phase1Out: must be a string" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"\",\"SectorSize\":2048}",
          "vanilla_proof.Phase1Out: empty" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"ab#d\",\"SectorSize\":2048}",
          "'#' (0x23) at offset 2" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"AA==\",\"SectorSize\":2048}", "NUL byte" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"/w==\",\"SectorSize\":2048}", "not UTF-8" },
        { "{\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048}",
          "vanilla_proof.SectorNum: missing" },
        { "{\"SectorNum\":-1,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048}",
          "vanilla_proof.SectorNum: must be" },
        { "{\"SectorNum\":8,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048}",
          "SectorNum: 8, but sector_number is 7" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":4096}",
          "SectorSize: 4096, but sector_size is 2048" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048,\"X\":1}",
          "vanilla_proof.X: unknown field" },
        { "{\"SectorNum\":7,\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048}",
          "not JSON" },
    };
    for (size_t i = 0; i < sizeof vec / sizeof *vec; i++) {
        Cuzk__V1__SubmitProofRequest r = porep(vec[i].wrapper);
        json_t *req = (json_t *)1;
        CHECK_EQ_INT(map(&r, &req, vec[i].needle), CZ_EINVAL);
        CHECK(req == NULL);
    }
    Cuzk__V1__SubmitProofRequest r = porep(
        "{\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048}");
    json_t *req = NULL;
    r.priority = 9;
    CHECK_EQ_INT(map(&r, &req, "priority: 9"), CZ_EINVAL);
    r.priority = 0;
    r.proof_kind = 77;
    CHECK_EQ_INT(map(&r, &req, "proof_kind: 77 is not a ProofKind"), CZ_EINVAL);
}

/* ---- PoSt ----------------------------------------------------------------------- */

/* A Curio-shaped PoSt request of |in| (gen-vanilla's data; borrows it). */
static Cuzk__V1__SubmitProofRequest post_request(const cz_post_input_t *in, ProtobufCBinaryData *vp)
{
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.request_id = "post-1000-0";
    r.proof_kind = in->proof->kind == CZ_POST_WINNING ? CUZK__V1__PROOF_KIND__WINNING_POST
                                                      : CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
    r.registered_proof = in->proof->abi;
    r.miner_id = in->miner_id;
    r.randomness.data = (uint8_t *)in->randomness;
    r.randomness.len = 32;
    r.partition_index = in->partition;
    for (size_t i = 0; i < in->nvanilla; i++) {
        vp[i].data = in->vanilla[i];
        vp[i].len = in->vanilla_len[i];
    }
    r.n_vanilla_proofs = in->nvanilla;
    r.vanilla_proofs = vp;
    return r;
}

/* The request's input as text (caller frees). */
static char *input_text(const json_t *req)
{
    return json_dumps(json_object_get(req, "input"), JSON_COMPACT);
}

CZ_TEST(post_maps_to_the_post_input_the_kind_prepares)
{
    static const struct {
        cz_post_kind_t kind;
        unsigned sectors;
        const char *job;
        int prio;
    } vec[] = {
        { CZ_POST_WINNING, 1, "winning-post", 4 }, /* Curio's defaults: CRITICAL, HIGH */
        { CZ_POST_WINDOW, 2, "window-post", 3 },
    };
    for (size_t t = 0; t < 2; t++) {
        cz_post_input_t in, back;
        REQUIRE(cz_post_gen(NULL, vec[t].kind, 2048, vec[t].sectors, 11 + t, &in) == CZ_OK);
        ProtobufCBinaryData vp[2];
        Cuzk__V1__SubmitProofRequest r = post_request(&in, vp);
        json_t *req = NULL;
        CHECK_OK(map(&r, &req, NULL));
        REQUIRE(req != NULL);
        CHECK_EQ_STR(json_string_value(json_object_get(req, "kind")), vec[t].job);
        CHECK_EQ_INT((int)json_integer_value(json_object_get(req, "priority")), vec[t].prio);
        CHECK(json_object_get(req, "sector_size") == NULL); /* not a post field */
        /* the input is the PoSt input file: the sectors come from the vanilla proofs */
        char *text = input_text(req);
        REQUIRE(text != NULL);
        CHECK_OK(cz_post_input_parse(NULL, &back, text, strlen(text)));
        CHECK(back.proof == in.proof);
        CHECK_EQ_U64(back.miner_id, 1000);
        CHECK_MEM_EQ(back.prover_id, in.prover_id, 32);
        CHECK_MEM_EQ(back.randomness, in.randomness, 32);
        REQUIRE(back.nsectors == in.nsectors && back.nvanilla == in.nvanilla);
        for (size_t i = 0; i < in.nsectors; i++) {
            CHECK_EQ_U64(back.sectors[i].id, in.sectors[i].id);
            CHECK_MEM_EQ(back.sectors[i].comm_r, in.sectors[i].comm_r, 32);
            REQUIRE(back.vanilla_len[i] == in.vanilla_len[i]);
            CHECK_MEM_EQ(back.vanilla[i], in.vanilla[i], in.vanilla_len[i]);
        }
        /* and the kind takes it (the daemon's prepare at submit) */
        const cz_job_kind_t *k = cz_kinds_find(cz_kinds_builtin(), vec[t].job, NULL);
        REQUIRE(k != NULL);
        cz_kind_job_t kj;
        CHECK_OK(k->prepare(NULL, NULL, req, text, strlen(text), &kj));
        CHECK_EQ_U64(kj.partitions, 1);
        k->release(&kj);
        free(text);
        cz_post_input_free(&back);
        json_decref(req);
        cz_post_input_free(&in);
    }
}

CZ_TEST(post_refusals_name_the_field)
{
    cz_post_input_t win, win2;
    REQUIRE(cz_post_gen(NULL, CZ_POST_WINNING, 2048, 1, 21, &win) == CZ_OK);
    REQUIRE(cz_post_gen(NULL, CZ_POST_WINNING, 2048, 1, 22, &win2) == CZ_OK);
    size_t vlen = win.vanilla_len[0];
    uint8_t *longer = malloc(vlen + 1);
    REQUIRE(longer != NULL);
    memcpy(longer, win.vanilla[0], vlen);
    longer[vlen] = 0;
    enum {
        VANILLA_SET,
        REG_UNKNOWN,
        REG_WINDOW,
        SIZE,
        PART,
        RAND_SHORT,
        RAND_NONE,
        NO_VANILLA,
        TWO_VANILLA,
        TRUNCATED,
        TRAILING,
        EMPTY_ONE,
        REG_WINNING_FOR_WINDOW,
        N
    };
    static const struct {
        const char *needle;
        int rc;
    } want[N] = {
        [VANILLA_SET] = { "vanilla_proof: 3 bytes, but WINNING_POST takes vanilla_proofs",
                          CZ_EINVAL },
        [REG_UNKNOWN] = { "registered_proof: 15 is not a RegisteredPoStProof", CZ_EINVAL },
        [REG_WINDOW] = { "registered_proof: 10 (StackedDrgWindow2KiBV1_2) is a WindowPoSt proof",
                         CZ_EINVAL },
        [SIZE] = { "sector_size: 4096, but registered_proof 0", CZ_EINVAL },
        [PART] = { "partition_index: 1, but WinningPoSt has one partition", CZ_EINVAL },
        [RAND_SHORT] = { "randomness: 31 bytes, want 32", CZ_EINVAL },
        [RAND_NONE] = { "randomness: 0 bytes, want 32", CZ_EINVAL },
        [NO_VANILLA] = { "vanilla_proofs: none", CZ_EINVAL },
        [TWO_VANILLA] = { "vanilla_proofs: 2, a StackedDrgWinning2KiBV1 partition proves 1 sector",
                          CZ_EINVAL },
        [TRUNCATED] = { "vanilla_proofs[0] (100 bytes): vanilla proof: ", CZ_EFORMAT },
        [TRAILING] = { "trailing bytes", CZ_EFORMAT },
        [EMPTY_ONE] = { "vanilla_proofs[0]: empty", CZ_EFORMAT },
        [REG_WINNING_FOR_WINDOW] = { "registered_proof: 0 (StackedDrgWinning2KiBV1) is a WinningPoSt "
                                     "proof; WINDOW_POST_PARTITION takes",
                                     CZ_EINVAL },
    };
    for (int c = 0; c < N; c++) {
        ProtobufCBinaryData vp[2];
        Cuzk__V1__SubmitProofRequest r = post_request(&win, vp);
        switch (c) {
        case VANILLA_SET:
            r.vanilla_proof.data = (uint8_t *)"abc";
            r.vanilla_proof.len = 3;
            break;
        case REG_UNKNOWN: r.registered_proof = 15; break;
        case REG_WINDOW: r.registered_proof = 10; break;
        case SIZE: r.sector_size = 4096; break;
        case PART: r.partition_index = 1; break;
        case RAND_SHORT: r.randomness.len = 31; break;
        case RAND_NONE:
            r.randomness.data = NULL;
            r.randomness.len = 0;
            break;
        case NO_VANILLA:
            r.n_vanilla_proofs = 0;
            r.vanilla_proofs = NULL;
            break;
        case TWO_VANILLA:
            vp[1].data = win2.vanilla[0];
            vp[1].len = win2.vanilla_len[0];
            r.n_vanilla_proofs = 2;
            break;
        case TRUNCATED: vp[0].len = 100; break;
        case TRAILING:
            vp[0].data = longer;
            vp[0].len = vlen + 1;
            break;
        case EMPTY_ONE: vp[0].len = 0; break;
        case REG_WINNING_FOR_WINDOW:
            r.proof_kind = CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
            break;
        }
        json_t *req = (json_t *)1;
        int rc = map(&r, &req, want[c].needle);
        if (rc != want[c].rc)
            fprintf(stderr, "  case %d\n", c);
        CHECK_EQ_INT(rc, want[c].rc);
        CHECK(req == NULL);
    }
    /* a window partition holds 2 sectors at 2KiB */
    cz_post_input_t win3;
    REQUIRE(cz_post_gen(NULL, CZ_POST_WINDOW, 2048, 2, 23, &win3) == CZ_OK);
    ProtobufCBinaryData vp[3];
    Cuzk__V1__SubmitProofRequest r = post_request(&win3, vp);
    vp[2] = vp[0];
    r.n_vanilla_proofs = 3;
    json_t *req = NULL;
    CHECK_EQ_INT(map(&r, &req,
                     "vanilla_proofs: 3, a StackedDrgWindow2KiBV1_2 partition proves "
                     "at most 2 sectors"),
                 CZ_EINVAL);
    cz_post_input_free(&win3);
    free(longer);
    cz_post_input_free(&win2);
    cz_post_input_free(&win);
}

/* ---- SnapDeals ------------------------------------------------------------------- */

static uint8_t old_r[32], new_r[32], new_d[32];

/* A Curio-shaped SNAP_DEALS_UPDATE (2KiB: one partition) of |vp|[0]. */
static Cuzk__V1__SubmitProofRequest snap_request(ProtobufCBinaryData *vp)
{
    for (int i = 0; i < 32; i++) {
        old_r[i] = (uint8_t)(i + 1);
        new_r[i] = (uint8_t)(2 * i + 1);
        new_d[i] = (uint8_t)(3 * i + 1);
    }
    old_r[31] = new_r[31] = new_d[31] = 0x0f;
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.request_id = "ps-snap-1000-5-77";
    r.proof_kind = CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE;
    r.registered_proof = 0; /* StackedDrg2KiBV1; sector_size 0 as on the PSProve path */
    r.priority = CUZK__V1__PRIORITY__NORMAL;
    r.sector_number = 5;
    r.miner_id = 1000;
    vp[0].data = (uint8_t *)"abc";
    vp[0].len = 3;
    r.n_vanilla_proofs = 1;
    r.vanilla_proofs = vp;
    r.comm_r_old = (ProtobufCBinaryData){ .data = old_r, .len = 32 };
    r.comm_r_new = (ProtobufCBinaryData){ .data = new_r, .len = 32 };
    r.comm_d_new = (ProtobufCBinaryData){ .data = new_d, .len = 32 };
    return r;
}

/* The CIDv1 bytes of |digest| (go-fil-commcid): sealed = codec 0xf102
 * (fil-commitment-sealed), multihash 0xb401 (poseidon-bls12_381-a2-fc1);
 * unsealed = 0xf101, 0x1012 (sha2-256-trunc254-padded). */
static size_t cid_of(uint8_t out[40], const uint8_t digest[32], bool unsealed)
{
    static const uint8_t sealed_pre[8] = { 0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20 };
    static const uint8_t unsealed_pre[7] = { 0x01, 0x81, 0xe2, 0x03, 0x92, 0x20, 0x20 };
    size_t n = unsealed ? sizeof unsealed_pre : sizeof sealed_pre;
    memcpy(out, unsealed ? unsealed_pre : sealed_pre, n);
    memcpy(out + n, digest, 32);
    return n + 32;
}

static void check_hex(const json_t *in, const char *key, const uint8_t want[32])
{
    char hex[65];
    cz_hex_encode(hex, want, 32);
    CHECK_EQ_STR(json_string_value(json_object_get(in, key)), hex);
}

CZ_TEST(snap_maps_to_the_snap_request)
{
    ProtobufCBinaryData vp[1];
    Cuzk__V1__SubmitProofRequest r = snap_request(vp);
    for (int cid = 0; cid < 2; cid++) {
        uint8_t c_old[40], c_new[40], c_d[40];
        if (cid) { /* CIDv1 bytes, which a client other than Curio may send */
            r.comm_r_old = (ProtobufCBinaryData){ .data = c_old,
                                                  .len = cid_of(c_old, old_r, false) };
            r.comm_r_new = (ProtobufCBinaryData){ .data = c_new,
                                                  .len = cid_of(c_new, new_r, false) };
            r.comm_d_new = (ProtobufCBinaryData){ .data = c_d, .len = cid_of(c_d, new_d, true) };
            r.sector_size = 2048;
        }
        json_t *req = NULL;
        CHECK_OK(map(&r, &req, NULL));
        REQUIRE(req != NULL);
        CHECK_EQ_STR(json_string_value(json_object_get(req, "kind")), "snap");
        CHECK_EQ_STR(json_string_value(json_object_get(req, "request_id")), "ps-snap-1000-5-77");
        CHECK_EQ_INT((int)json_integer_value(json_object_get(req, "priority")), 2);
        const json_t *in = json_object_get(req, "input");
        REQUIRE(json_is_object(in));
        CHECK_EQ_INT((int)json_integer_value(json_object_get(in, "registered_proof")), 0);
        check_hex(in, "comm_r_old", old_r);
        check_hex(in, "comm_r_new", new_r);
        check_hex(in, "comm_d_new", new_d);
        const json_t *v = json_object_get(in, "vanilla_proofs");
        CHECK_EQ_INT((int)json_array_size(v), 1);
        CHECK_EQ_STR(json_string_value(json_array_get(v, 0)), "YWJj"); /* base64("abc") */
        json_decref(req);
    }
}

CZ_TEST(snap_refusals_name_the_field)
{
    enum {
        VANILLA_SET,
        REG,
        SIZE,
        NONE,
        TWO,
        EMPTY_ONE,
        OLD_MISSING,
        NEW_SHORT,
        D_SEALED_CID,
        OLD_BAD_CID,
        N
    };
    static const char *const want[N] = {
        [VANILLA_SET] = "vanilla_proof: 3 bytes, but SNAP_DEALS_UPDATE takes vanilla_proofs",
        [REG] = "registered_proof: 5 is not a RegisteredUpdateProof",
        [SIZE] = "sector_size: 34359738368, but registered_proof 0 is for 2048-byte sectors",
        [NONE] = "vanilla_proofs: 0, but registered_proof 0 (2048-byte sectors) has 1 partition",
        [TWO] = "vanilla_proofs: 2, but registered_proof 0",
        [EMPTY_ONE] = "vanilla_proofs[0]: empty",
        [OLD_MISSING] = "comm_r_old: missing",
        /* 31 bytes: a wrong length, not a strange CID */
        [NEW_SHORT] = "comm_r_new: 31 bytes; want the 32-byte commitment (or its CIDv1, 39 bytes "
                      "or more)",
        [D_SEALED_CID] = "comm_d_new: CID v1 codec 0xf102",
        [OLD_BAD_CID] = "comm_r_old: CID v1 codec 0xf101",
    };
    for (int c = 0; c < N; c++) {
        ProtobufCBinaryData vp[2];
        Cuzk__V1__SubmitProofRequest r = snap_request(vp);
        uint8_t cid[40];
        switch (c) {
        case VANILLA_SET:
            r.vanilla_proof.data = (uint8_t *)"abc";
            r.vanilla_proof.len = 3;
            break;
        case REG: r.registered_proof = 5; break;
        case SIZE: r.sector_size = 32ull << 30; break;
        case NONE:
            r.n_vanilla_proofs = 0;
            r.vanilla_proofs = NULL;
            break;
        case TWO:
            vp[1] = vp[0];
            r.n_vanilla_proofs = 2;
            break;
        case EMPTY_ONE: vp[0].len = 0; break;
        case OLD_MISSING:
            r.comm_r_old.len = 0;
            r.comm_r_old.data = NULL;
            break;
        case NEW_SHORT: r.comm_r_new.len = 31; break;
        case D_SEALED_CID:
            r.comm_d_new = (ProtobufCBinaryData){ cid_of(cid, new_d, false), cid };
            break;
        case OLD_BAD_CID:
            r.comm_r_old = (ProtobufCBinaryData){ cid_of(cid, old_r, true), cid };
            break;
        }
        json_t *req = (json_t *)1;
        int rc = map(&r, &req, want[c]);
        if (rc != CZ_EINVAL && rc != CZ_EFORMAT) {
            fprintf(stderr, "  case %d: rc %d\n", c, rc);
            CHECK(0);
        }
        CHECK(req == NULL);
    }
}

CZ_TEST(kind_table)
{
    CHECK_EQ_STR(cz__grpc_queue_name(cz_kinds_builtin(), "porep-c2"), "POREP_SEAL_COMMIT");
    CHECK_EQ_STR(cz__grpc_queue_name(cz_kinds_builtin(), "snap"), "SNAP_DEALS_UPDATE");
    CHECK_EQ_STR(cz__grpc_queue_name(cz_kinds_builtin(), "window-post"), "WINDOW_POST_PARTITION");
    CHECK_EQ_STR(cz__grpc_queue_name(cz_kinds_builtin(), "winning-post"), "WINNING_POST");
    CHECK_EQ_STR(cz__grpc_queue_name(cz_kinds_builtin(), "circuit"), "circuit");
    CHECK_EQ_INT((int)cz__grpc_kind_count(cz_kinds_builtin()), 4);
    /* the kinds' ProofKind numbers are the proto's */
    static const struct {
        const char *kind;
        int pk;
    } pks[] = {
        { "porep-c2", CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT },
        { "snap", CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE },
        { "window-post", CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION },
        { "winning-post", CUZK__V1__PROOF_KIND__WINNING_POST },
    };
    for (size_t i = 0; i < sizeof pks / sizeof *pks; i++) {
        CHECK_EQ_INT(cz_kinds_find(cz_kinds_builtin(), pks[i].kind, NULL)->curio.proof_kind,
                     pks[i].pk);
        CHECK_EQ_STR(cz__grpc_kind_name(cz_kinds_builtin(), i),
                     cz__grpc_queue_name(cz_kinds_builtin(), pks[i].kind));
    }
    /* every ProofKind maps to a job kind the daemon has */
    for (size_t i = 0; i < cz__grpc_kind_count(cz_kinds_builtin()); i++) {
        Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        r.proof_kind = (Cuzk__V1__ProofKind)(i + 1);
        json_t *req = NULL;
        CHECK(map(&r, &req, NULL) != CZ_EUNAVAIL); /* refused for its fields, not its kind */
        CHECK(req == NULL);
    }
}

CZ_TEST(circuit_ids)
{
    cz_ctx_t *ctx = NULL;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    /* the 32GiB names: curio extern/cuzk cuzk-core srs_manager.rs
     * circuit_id_to_param_filename (= parameters.json); 2KiB: the names the
     * daemon_post / daemon_snap / c2 tests' params carry */
    static const char *const vec[][2] = {
        { "porep-2k",
          "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
          "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params" },
        { "porep-32g",
          "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
          "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params" },
        { "wpost-32g", "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
                       "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params" },
        { "winning-32g",
          "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
          "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params" },
        { "snap-32g", "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
                      "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params" },
        { "snap-2k", "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
                     "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.params" },
        { "winning-2k", "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
                        "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.params" },
        { "wpost-2k", "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
                      "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.params" },
        { "my-params", "my-params" },
    };
    char name[256];
    for (size_t i = 0; i < sizeof vec / sizeof *vec; i++) {
        CHECK_OK(cz__grpc_params_name(ctx, cz_kinds_builtin(), vec[i][0], name, sizeof name));
        CHECK_EQ_STR(name, vec[i][1]);
    }
    CHECK_EQ_INT(cz__grpc_params_name(ctx, cz_kinds_builtin(), "porep-3k", name, sizeof name),
                 CZ_EINVAL);
    CHECK_EQ_INT(cz__grpc_params_name(ctx, cz_kinds_builtin(), "wpost-32G", name, sizeof name),
                 CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "wpost- takes 2k, 8m, 512m, 32g or 64g") != NULL);
    CHECK_EQ_INT(cz__grpc_params_name(ctx, cz_kinds_builtin(), "snap-", name, sizeof name),
                 CZ_EINVAL);
    CHECK_EQ_INT(cz__grpc_params_name(ctx, cz_kinds_builtin(), "", name, sizeof name), CZ_EINVAL);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
