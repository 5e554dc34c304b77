/*
 * tests/daemon/test_grpc_curio.c — Curio's requests as daemon jobs
 * (daemon/grpc/curio.h): base64 against the RFC 4648 vectors and its
 * malformed forms, the C1 wrapper's mapping and every refusal naming its
 * field, the kind table, circuit ids.
 */
#include <stdlib.h>
#include <string.h>

#include "cz_test.h"
#include "daemon/grpc/curio.h"

static int decode(const char *in, char *out, size_t *bad)
{
    size_t n = 0;
    int rc = cz__base64_decode(in, strlen(in), (uint8_t *)out, &n, bad);
    out[rc == CZ_OK ? n : 0] = '\0';
    return rc;
}

CZ_TEST(base64_rfc4648_vectors)
{
    static const char *const vec[][2] = { { "", "" },         { "Zg==", "f" },      { "Zm8=", "fo" },
                                          { "Zm9v", "foo" },  { "Zm9vYg==", "foob" },
                                          { "Zm9vYmE=", "fooba" }, { "Zm9vYmFy", "foobar" },
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
    static const struct { const char *in; size_t bad; } vec[] = {
        { "Zg", 2 },       /* not a multiple of 4 (Go always pads) */
        { "Zg=a", 2 },     /* a pad with data after it */
        { "Z===", 1 },     /* three pads */
        { "Zm9v====", 4 }, /* a padding-only quantum */
        { "Zm=v", 2 },     /* padding inside the last quantum */
        { "ab#d", 2 },     /* outside the alphabet */
        { "Zg==Zg==", 2 }, /* padding before the end */
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
    int rc = cz__grpc_job_request(ctx, r, out);
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
    Cuzk__V1__SubmitProofRequest r = porep("{\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048}");
    json_t *req = NULL;
    CHECK_OK(map(&r, &req, NULL));
    REQUIRE(req != NULL);
    CHECK_EQ_STR(json_string_value(json_object_get(req, "kind")), "porep-c2");
    CHECK_EQ_STR(json_string_value(json_object_get(req, "input")), "{\"a\":1}");
    CHECK_EQ_STR(json_string_value(json_object_get(req, "request_id")), "porep-1000-7");
    CHECK_EQ_INT((int)json_integer_value(json_object_get(req, "sector_size")), 2048);
    CHECK_EQ_INT((int)json_integer_value(json_object_get(req, "priority")), 2);   /* default NORMAL */
    json_decref(req);
    r.priority = CUZK__V1__PRIORITY__CRITICAL;
    r.request_id = "";
    CHECK_OK(map(&r, &req, NULL));
    CHECK_EQ_INT((int)json_integer_value(json_object_get(req, "priority")), 4);
    CHECK(json_object_get(req, "request_id") == NULL);   /* no id: no dedupe */
    json_decref(req);
}

CZ_TEST(porep_refusals_name_the_field)
{
    static const struct { const char *wrapper; const char *needle; } vec[] = {
        { "", "vanilla_proof: empty" },
        { "{\"SectorNum\":", "vanilla_proof: not JSON" },
        { "[1]", "vanilla_proof: must be a JSON object" },
        { "{\"SectorNum\":7,\"SectorSize\":2048}", "vanilla_proof.Phase1Out: missing" },
        { "{\"SectorNum\":7,\"Phase1Out\":5,\"SectorSize\":2048}", "vanilla_proof.Phase1Out: must be a string" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"\",\"SectorSize\":2048}", "vanilla_proof.Phase1Out: empty" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"ab#d\",\"SectorSize\":2048}", "'#' (0x23) at offset 2" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"AA==\",\"SectorSize\":2048}", "NUL byte" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"/w==\",\"SectorSize\":2048}", "not UTF-8" },
        { "{\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048}", "vanilla_proof.SectorNum: missing" },
        { "{\"SectorNum\":-1,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048}", "vanilla_proof.SectorNum: must be" },
        { "{\"SectorNum\":8,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048}", "SectorNum: 8, but sector_number is 7" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":4096}", "SectorSize: 4096, but sector_size is 2048" },
        { "{\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048,\"X\":1}", "vanilla_proof.X: unknown field" },
        { "{\"SectorNum\":7,\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048}", "not JSON" },
    };
    for (size_t i = 0; i < sizeof vec / sizeof *vec; i++) {
        Cuzk__V1__SubmitProofRequest r = porep(vec[i].wrapper);
        json_t *req = (json_t *)1;
        CHECK_EQ_INT(map(&r, &req, vec[i].needle), CZ_EINVAL);
        CHECK(req == NULL);
    }
    Cuzk__V1__SubmitProofRequest r = porep("{\"SectorNum\":7,\"Phase1Out\":\"eyJhIjoxfQ==\",\"SectorSize\":2048}");
    json_t *req = NULL;
    r.priority = 9;
    CHECK_EQ_INT(map(&r, &req, "priority: 9"), CZ_EINVAL);
    r.priority = 0;
    r.proof_kind = 77;
    CHECK_EQ_INT(map(&r, &req, "proof_kind: 77 is not a ProofKind"), CZ_EINVAL);
}

CZ_TEST(kinds_not_supported_yet)
{
    static const Cuzk__V1__ProofKind later[] = { CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE,
                                                 CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION,
                                                 CUZK__V1__PROOF_KIND__WINNING_POST };
    for (size_t i = 0; i < 3; i++) {
        Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        r.proof_kind = later[i];
        json_t *req = NULL;
        CHECK_EQ_INT(map(&r, &req, "is not supported yet"), CZ_EUNAVAIL);
    }
    CHECK_EQ_STR(cz__grpc_queue_name("porep-c2"), "POREP_SEAL_COMMIT");
    CHECK_EQ_STR(cz__grpc_queue_name("circuit"), "circuit");
    CHECK_EQ_INT((int)cz__grpc_kind_count(), 4);
}

CZ_TEST(circuit_ids)
{
    cz_ctx_t *ctx = NULL;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    char name[256];
    CHECK_OK(cz__grpc_params_name(ctx, "porep-2k", name, sizeof name));
    CHECK_EQ_STR(name, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                       "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params");
    CHECK_OK(cz__grpc_params_name(ctx, "my-params", name, sizeof name));
    CHECK_EQ_STR(name, "my-params");
    CHECK_EQ_INT(cz__grpc_params_name(ctx, "wpost-32g", name, sizeof name), CZ_EUNAVAIL);
    CHECK_EQ_INT(cz__grpc_params_name(ctx, "porep-3k", name, sizeof name), CZ_EINVAL);
    CHECK_EQ_INT(cz__grpc_params_name(ctx, "", name, sizeof name), CZ_EINVAL);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
