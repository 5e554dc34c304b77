/*
 * tests/kinds/porep/test_c2.c — PoRep C2 end to end at 2KiB: gen-c1 -> setup
 * (seeded toxic waste) -> prove through the engine (CPU backend, W = 2) ->
 * verify from the public values alone; tampered C1s (a tree_d sibling, a
 * column label, comm_r, the seed) fail at synthesis with a clear message;
 * the Filecoin parameter file names (FACTS 2).
 *
 * The 2KiB setup (2.7M rows, domain 2^22) takes minutes on a 2-core
 * machine, so the params are cached between runs in CZ_C2_PARAMS_DIR (the
 * build tree, shared with tests/cli/cli_porep.sh, which writes the same
 * seeded files under the same Filecoin names); a cached file is only used
 * when it loads with the circuit's exact shape.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "circuits/registry.h"
#include "cz_test.h"
#include "groth16/setup.h"
#include "kinds/porep/c2.h"
#include "kinds/porep/seal.h"

#ifndef CZ_C2_PARAMS_DIR
#define CZ_C2_PARAMS_DIR "."
#endif
#define TOXIC_SEED 7 /* the same seed as cli_porep.sh: one cache serves both */

static cz_ctx_t *ctx;
static char *json; /* the 2KiB C1 */
static cz_c1_t c1;
static cz_params_t *params;
static cz_pvk_t *pvk;

static void setup(void)
{
    if (json)
        return;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 0));
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

    cz_params_shape_t shape;
    size_t rows;
    CHECK_OK(cz_c2_shape(ctx, &c1.params, &shape, &rows));
    char name[256], path[1024], vkpath[1024];
    CHECK_OK(cz_c2_params_name(name, sizeof name, &c1.params, "params"));
    snprintf(path, sizeof path, "%s/%s", CZ_C2_PARAMS_DIR, name);
    CHECK_OK(cz_c2_params_name(name, sizeof name, &c1.params, "vk"));
    snprintf(vkpath, sizeof vkpath, "%s/%s", CZ_C2_PARAMS_DIR, name);
    cz_params_opts_t opts = { .expect = &shape };
    if (cz_params_load(ctx, &params, path, &opts) != CZ_OK) {
        printf("generating 2KiB test params (seeded, cached in %s)...\n", CZ_C2_PARAMS_DIR);
        fflush(stdout);
        mkdir(CZ_C2_PARAMS_DIR, 0755);
        cz_circuit_t circuit;
        CHECK_OK(cz_circuit_parse(ctx, "porep:2KiB", &circuit));
        cz_setup_toxic_t toxic;
        cz_setup_toxic_from_seed(&toxic, TOXIC_SEED);
        CHECK_OK(cz_setup(ctx, &params, cz_circuit_body, &circuit, &toxic, NULL));
        cz_setup_toxic_scrub(&toxic);
        if (params) {
            CHECK_OK(cz_params_write(ctx, path, params));
            CHECK_OK(cz_vk_write(ctx, vkpath, &params->vk));
        }
    }
    if (params)
        CHECK_OK(cz_pvk_new(ctx, &pvk, &params->vk));
}

/* Run |c| through a fresh engine; returns the final info, the proof in *proof. */
static void run_job(const cz_c1_t *c, cz_job_info_t *info, uint8_t **proof, size_t *len)
{
    memset(info, 0, sizeof *info);
    *proof = NULL;
    *len = 0;
    cz_c2_job_t job;
    int rc = cz_c2_job_init(ctx, &job, c, params, pvk);
    if (rc) {
        info->state = CZ_JOB_FAILED;
        info->error = rc;
        snprintf(info->message, sizeof info->message, "%s", cz_ctx_message(ctx));
        return;
    }
    cz_backend_t *be = NULL;
    cz_engine_t *e = NULL;
    CHECK_OK(cz_cpu_backend_new(&be, 0));
    cz_engine_config_t cfg = { .backends = &be,
                               .num_devices = 1,
                               .workers_per_device = 2,
                               .pool = cz_ctx_pool(ctx) };
    CHECK_OK(cz_engine_new(ctx, &e, &cfg));
    uint64_t id = 0;
    if (e && cz_engine_submit(e, NULL, &job.spec, &id) == CZ_OK) {
        CHECK_OK(cz_engine_wait(e, id, -1, info));
        if (info->state == CZ_JOB_DONE)
            CHECK_OK(cz_engine_proof(e, id, proof, len));
    }
    cz_engine_free(e);
    cz_backend_free(be);
    cz_c2_job_clear(&job);
}

/* FACTS 2: the 2KiB and 32GiB parameter hashes of parameters.json. */
CZ_TEST(params_names)
{
    cz_porep_params_t p;
    char name[256];
    CHECK_OK(cz_porep_params_sector(&p, 2048));
    CHECK_OK(cz_c2_params_name(name, sizeof name, &p, "params"));
    CHECK_EQ_STR(name, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-"
                       "sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793"
                       "b06832f.params");
    /* 8MiB: the name in RFP storage-proofs-core parameters.json */
    CHECK_OK(cz_porep_params_sector(&p, 8ull << 20));
    CHECK_OK(cz_c2_params_name(name, sizeof name, &p, "vk"));
    CHECK(strstr(name, "8-0-0-sha256_hasher-ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad"
                       "4b55dcb0652bb.vk") != NULL);
    CHECK_OK(cz_porep_params_sector(&p, 32ull << 30));
    CHECK_OK(cz_c2_params_name(name, sizeof name, &p, "vk"));
    CHECK(strstr(name, "poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca") != NULL);
    CHECK(strstr(name, ".vk") != NULL);
    CHECK_EQ_INT(cz_c2_params_name(name, 40, &p, "vk"), CZ_EINVAL);
}

CZ_TEST(prove_verify_from_public_values)
{
    setup();
    REQUIRE(params && pvk);
    cz_job_info_t info;
    uint8_t *proof;
    size_t len;
    run_job(&c1, &info, &proof, &len);
    if (info.state != CZ_JOB_DONE)
        CZ__FAIL("job %s: %s", cz_job_state_name(info.state), info.message);
    REQUIRE(proof);
    CHECK_EQ_U64(len, 192); /* 2KiB: 1 partition (FACTS 3) */
    printf("2KiB C2 through the engine: synthesis %.0f ms, device %.0f ms, total %.0f ms\n",
           info.t.synthesis, info.t.device, info.t.total);

    /* the chain verifier's view: the public values only, no C1 */
    cz_c2_public_t pub;
    memset(&pub, 0, sizeof pub);
    pub.proof = cz_porep_proof_v1_1(2048);
    memcpy(pub.replica_id, c1.replica_id, 32);
    memcpy(pub.comm_d, c1.comm_d, 32);
    memcpy(pub.comm_r, c1.comm_r, 32);
    memcpy(pub.seed, c1.seed, 32);
    CHECK_OK(cz_c2_verify(ctx, pvk, proof, len, &pub));

    cz_c2_public_t bad = pub;
    bad.seed[0] ^= 1; /* other challenges */
    CHECK_EQ_INT(cz_c2_verify(ctx, pvk, proof, len, &bad), CZ_EVERIFY);
    bad = pub;
    bad.comm_r[5] ^= 1;
    CHECK_EQ_INT(cz_c2_verify(ctx, pvk, proof, len, &bad), CZ_EVERIFY);
    bad = pub;
    memset(bad.comm_d, 0, 32); /* C2 refuses a zero comm_d (FACTS 6) */
    CHECK_EQ_INT(cz_c2_verify(ctx, pvk, proof, len, &bad), CZ_EINVAL);
    CHECK_EQ_INT(cz_c2_verify(ctx, pvk, proof, 191, &pub), CZ_EFORMAT);
    proof[100] ^= 0x04;
    int rc = cz_c2_verify(ctx, pvk, proof, len, &pub);
    CHECK(rc != CZ_OK);
    free(proof);
}

static void t_sibling(cz_c1_t *p)
{
    p->proofs[0].comm_d.siblings[2][0] ^= 1;
}
static void t_label(cz_c1_t *p)
{
    p->proofs[1].drg[3].rows[0][0] ^= 1;
}
static void t_comm_r(cz_c1_t *p)
{
    p->comm_r[3] ^= 1;
}
static void t_seed(cz_c1_t *p)
{
    p->seed[0] ^= 1;
}

static void expect_fail(const char *what, void (*mod)(cz_c1_t *), const char *needle)
{
    cz_c1_t p;
    CHECK_OK(cz_c1_parse(ctx, &p, json, strlen(json)));
    mod(&p);
    cz_job_info_t info;
    uint8_t *proof;
    size_t len;
    run_job(&p, &info, &proof, &len);
    if (info.state != CZ_JOB_FAILED)
        CZ__FAIL("%s: job %s, want failed", what, cz_job_state_name(info.state));
    else if (!strstr(info.message, needle))
        CZ__FAIL("%s: message \"%s\" lacks \"%s\"", what, info.message, needle);
    else
        printf("%s: %s\n", what, info.message);
    free(proof);
    cz_c1_free(&p);
}

CZ_TEST(tampered_c1_fails_at_synthesis)
{
    setup();
    REQUIRE(params && pvk);
    expect_fail("tree_d sibling", t_sibling, "the C1 is inconsistent");
    expect_fail("column label", t_label, "the C1 is inconsistent");
    expect_fail("comm_r", t_comm_r, "the C1 is inconsistent");
    /* a consistent C1 whose challenges do not follow from its seed */
    expect_fail("seed", t_seed, "differs from the one derived");
}

CZ_TEST_MAIN()
