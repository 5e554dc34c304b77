/*
 * tests/kinds/circuit/test_kind_circuit.c — the "circuit" kind
 * (src/kinds/circuit/kind_circuit.c) through cuzk.h: "witness": "copy"
 * gives every partition a copy of partition 0's witness (one statement,
 * proved and verified by the prover on seeded bench:1024 params; the public
 * inputs of every partition are partition 0's of the same seed), with
 * three partitions on two synthesis workers so that two of them meet at
 * the job's one synthesis; "synthesize" (the default) keeps one witness a
 * partition; any other value is refused naming the field and both values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk.h"
#include "cz_setup_params.h"
#include "cz_test.h"

static char dir[64], params[128], vk[128];

static void remove_dir(void)
{
    unlink(params);
    unlink(vk);
    rmdir(dir);
}

/* Seeded bench:1024 params in a temporary directory (once) and a prover that takes their path. */
static cz_prover_t *new_prover(void)
{
    cz_error_t err;
    if (!*dir) {
        snprintf(dir, sizeof dir, "/tmp/cz_kcirc_XXXXXX");
        if (!mkdtemp(dir))
            abort();
        atexit(remove_dir);
        snprintf(params, sizeof params, "%s/b.params", dir);
        snprintf(vk, sizeof vk, "%s/b.vk", dir);
        cz_test_setup_params("bench:1024", 7, params, vk);
    }
    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.backend = "cpu";
    cfg.threads = 2;
    cfg.workers_per_device = 2;
    cfg.synth_workers = 2;
    cfg.params_allow_paths = true;
    cz_prover_t *p = NULL;
    if (cz_prover_new(&p, &cfg, &err) != CZ_OK)
        fprintf(stderr, "cz_prover_new: %s\n", err.message);
    return p;
}

/* Prove |fields| (verified by the prover); *inputs (cz_free): its public inputs. */
static int prove(cz_prover_t *p, const char *fields, uint8_t **inputs, size_t *per, size_t *parts)
{
    cz_job_request_t r;
    cz_job_request_init(&r, "circuit", NULL, 0);
    r.fields = fields;
    r.params = params;
    uint64_t id = 0;
    cz_error_t err;
    int rc = cz_prover_submit(p, &r, &id, &err);
    cz_job_info_t info;
    if (rc == CZ_OK)
        rc = cz_prover_wait(p, id, 120, &info, &err);
    if (rc == CZ_OK && info.state != CZ_JOB_DONE) {
        fprintf(stderr, "job %s: %s\n", cz_job_state_name(info.state), info.message);
        rc = CZ_EVERIFY;
    }
    if (rc == CZ_OK)
        rc = cz_prover_public_inputs(p, id, inputs, per, parts, &err);
    if (rc != CZ_OK)
        fprintf(stderr, "%s: %s\n", fields, err.message);
    return rc;
}

CZ_TEST(a_copied_witness_proves_one_statement)
{
    cz_prover_t *p = new_prover();
    REQUIRE(p != NULL);
    uint8_t *copy = NULL, *own = NULL;
    size_t per = 0, parts = 0, per2 = 0, parts2 = 0;
    CHECK_OK(prove(p,
                   "{\"circuit\":\"bench:1024\",\"partitions\":3,\"seed\":4,\"witness\":\"copy\"}",
                   &copy, &per, &parts));
    CHECK_OK(
        prove(p,
              "{\"circuit\":\"bench:1024\",\"partitions\":3,\"seed\":4,\"witness\":\"synthesize\"}",
              &own, &per2, &parts2));
    REQUIRE(copy != NULL && own != NULL);
    CHECK_EQ_U64(parts, 3);
    CHECK_EQ_U64(parts2, 3);
    CHECK_EQ_U64(per, per2);
    REQUIRE(per > 0);
    const size_t bytes = 32 * per;
    /* every copy is partition 0's statement ... */
    CHECK(!memcmp(copy, own, bytes));
    CHECK(!memcmp(copy + bytes, copy, bytes));
    CHECK(!memcmp(copy + 2 * bytes, copy, bytes));
    /* ... where synthesized partitions each have their own */
    CHECK(memcmp(own + bytes, own, bytes) != 0);
    cz_free(copy);
    cz_free(own);
    cz_prover_free(p);
}

CZ_TEST(a_bad_witness_value_is_refused)
{
    cz_job_shape_t s;
    cz_error_t err;
    CHECK_OK(cz_kind_shape("circuit", NULL, 0, "{\"circuit\":\"bench:1024\",\"witness\":\"copy\"}",
                           &s, &err));
    const char *bad[] = { "{\"circuit\":\"bench:1024\",\"witness\":\"clone\"}",
                          "{\"circuit\":\"bench:1024\",\"witness\":1}" };
    for (size_t i = 0; i < 2; i++) {
        CHECK_EQ_INT(cz_kind_shape("circuit", NULL, 0, bad[i], &s, &err), CZ_EINVAL);
        CHECK(strstr(err.message, "witness: must be \"synthesize\"") != NULL);
        CHECK(strstr(err.message, "\"copy\"") != NULL);
    }
    /* and at submit, before any work */
    cz_prover_t *p = new_prover();
    REQUIRE(p != NULL);
    cz_job_request_t r;
    cz_job_request_init(&r, "circuit", NULL, 0);
    r.fields = bad[0];
    r.params = params;
    uint64_t id = 0;
    CHECK_EQ_INT(cz_prover_submit(p, &r, &id, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "witness: must be") != NULL);
    cz_prover_free(p);
}

CZ_TEST_MAIN()
