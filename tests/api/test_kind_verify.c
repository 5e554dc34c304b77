/*
 * tests/api/test_kind_verify.c — cz_kind_public_inputs and cz_kind_verify
 * (cuzk.h), the verify every door calls, with a real WinningPoSt 2KiB
 * proof: test params (seeded setup of the winning-post:2KiB circuit)
 * written under their Filecoin names to a temporary params_dir, a test
 * sector's PoSt input (kinds/post/input.h cz_post_gen), the proof made through a
 * CPU prover by kind name. Then: the kind's public inputs equal the ones
 * the prover verified the job against; the proof verifies from the public
 * values (vk by name from params_dir, and by path); a flipped proof byte
 * and a changed randomness do not; the "circuit" kind has no public values
 * (CZ_EUNAVAIL) and an unknown kind is named (CZ_EINVAL).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cuzk.h"
#include "circuits/registry.h"
#include "cz_test.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "kinds/post/input.h"

static char dir[64], vk_path[512], params_path[512];
static char *input;    /* the PoSt input JSON */
static uint8_t *proof; /* 192 bytes */
static size_t proof_len;
static uint8_t *job_inputs; /* what the prover verified the job against */
static size_t job_per, job_parts;

static void cleanup(void)
{
    unlink(params_path);
    unlink(vk_path);
    rmdir(dir);
    free(input);
    cz_free(proof);
    cz_free(job_inputs);
}

/* Params, input and proof, once per process; aborts on failure (a fixture). */
static void fixture(void)
{
    if (proof)
        return;
    snprintf(dir, sizeof dir, "/tmp/cz_kv_XXXXXX");
    if (!mkdtemp(dir))
        abort();
    atexit(cleanup);
    cz_ctx_t *ctx = NULL;
    cz_circuit_t c;
    cz_setup_toxic_t toxic;
    cz_params_t *params = NULL;
    cz_post_params_t pp;
    char name[256];
    if (cz_ctx_new(&ctx, NULL, 2) || cz_circuit_parse(ctx, "winning-post:2KiB", &c))
        abort();
    cz_setup_toxic_from_seed(&toxic, 7);
    if (cz_setup(ctx, &params, cz_circuit_body, &c, &toxic, NULL))
        abort();
    cz_setup_toxic_scrub(&toxic);
    if (cz_post_params_sector(&pp, CZ_POST_WINNING, 2048) ||
        cz_post_params_name(name, sizeof name, &pp, "params"))
        abort();
    snprintf(params_path, sizeof params_path, "%s/%s", dir, name);
    cz_post_params_name(name, sizeof name, &pp, "vk");
    snprintf(vk_path, sizeof vk_path, "%s/%s", dir, name);
    if (cz_params_write(ctx, params_path, params) || cz_vk_write(ctx, vk_path, &params->vk))
        abort();
    cz_params_free(params);

    cz_post_input_t in;
    json_t *j = NULL;
    if (cz_post_gen(ctx, CZ_POST_WINNING, 2048, 1, 11, &in) || cz_post_input_json(ctx, &in, &j))
        abort();
    input = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    cz_post_input_free(&in);
    cz_ctx_free(ctx);

    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.backend = "cpu";
    cfg.threads = 2;
    cfg.memory_budget = (size_t)2 << 30;
    cfg.params_dir = dir;
    cz_prover_t *p = NULL;
    cz_error_t err;
    cz_job_request_t req;
    cz_job_request_init(&req, "winning-post", input, strlen(input));
    uint64_t id;
    cz_job_info_t info;
    if (cz_prover_new(&p, &cfg, &err) || cz_prover_submit(p, &req, &id, &err) ||
        cz_prover_wait(p, id, -1, &info, &err) ||
        cz_prover_proof(p, id, &proof, &proof_len, &err) ||
        cz_prover_public_inputs(p, id, &job_inputs, &job_per, &job_parts, &err)) {
        fprintf(stderr, "fixture: %s (job: %s)\n", err.message, info.message);
        abort();
    }
    cz_prover_free(p);
}

CZ_TEST(public_inputs_are_the_jobs)
{
    fixture();
    uint8_t *v = NULL;
    cz_kind_public_info_t info;
    cz_error_t err;
    CHECK_EQ_INT(cz_kind_public_inputs("winning-post", input, strlen(input), &v, &info, &err),
                 CZ_OK);
    CHECK_EQ_U64(info.partitions, job_parts);
    CHECK_EQ_U64(info.per_partition, job_per);
    CHECK(info.per_partition > 0);
    if (v && info.partitions == job_parts && info.per_partition == job_per)
        CHECK_MEM_EQ(v, job_inputs, 32 * job_per * job_parts);
    CHECK(strstr(vk_path, info.vk_name) != NULL);
    CHECK(strstr(info.summary, "1 sector") != NULL);
    cz_free(v);
}

CZ_TEST(the_proof_verifies_and_a_flipped_byte_does_not)
{
    fixture();
    cz_kind_public_info_t info;
    cz_error_t err;
    const size_t n = strlen(input);
    CHECK_EQ_INT(cz_kind_verify("winning-post", input, n, NULL, dir, proof, proof_len, &info, &err),
                 CZ_OK);
    CHECK_EQ_U64(info.partitions, 1);
    CHECK_EQ_INT(cz_kind_verify("winning-post", input, n, vk_path, NULL, proof, proof_len, NULL,
                                &err),
                 CZ_OK);
    uint8_t bad[192];
    memcpy(bad, proof, sizeof bad);
    bad[100] ^= 1;
    int rc = cz_kind_verify("winning-post", input, n, NULL, dir, bad, sizeof bad, NULL, &err);
    /* B's x with a bit flipped: off the curve (EFORMAT), on it outside the
     * prime-order subgroup (ERANGE), or a point that fails the pairing
     * (EVERIFY); which one depends on the proof's random r and s */
    CHECK(rc == CZ_EVERIFY || rc == CZ_EFORMAT || rc == CZ_ERANGE);
    CHECK(err.message[0] != 0);
    /* another randomness: a well-formed proof that does not verify */
    json_t *j = json_loads(input, 0, NULL);
    REQUIRE(j);
    char r[65];
    snprintf(r, sizeof r, "%s", json_string_value(json_object_get(j, "randomness")));
    r[0] = r[0] == '1' ? '2' : '1';
    json_object_set_new(j, "randomness", json_string(r));
    char *other = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    CHECK_EQ_INT(cz_kind_verify("winning-post", other, strlen(other), NULL, dir, proof, proof_len,
                                NULL, &err),
                 CZ_EVERIFY);
    free(other);
    /* a short proof is a format error, never valid */
    CHECK_EQ_INT(cz_kind_verify("winning-post", input, n, NULL, dir, proof, 191, NULL, &err),
                 CZ_EFORMAT);
}

CZ_TEST(kinds_without_public_values_and_unknown_kinds)
{
    fixture();
    cz_error_t err;
    uint8_t *v = NULL;
    CHECK_EQ_INT(cz_kind_public_inputs("circuit", "{}", 2, &v, NULL, &err), CZ_EUNAVAIL);
    CHECK(strstr(err.message, "circuit") != NULL);
    CHECK_EQ_INT(cz_kind_verify("nope", input, strlen(input), NULL, dir, proof, proof_len, NULL,
                                &err),
                 CZ_EINVAL);
    CHECK(strstr(err.message, "nope") != NULL);
    /* a window-post input is not a winning-post one */
    CHECK_EQ_INT(cz_kind_verify("window-post", input, strlen(input), NULL, dir, proof, proof_len,
                                NULL, &err),
                 CZ_EINVAL);
}

CZ_TEST_MAIN()
