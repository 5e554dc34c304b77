/*
 * tests/api/test_timing_setup.c — the TIMING ONLY and TEST ONLY parts of
 * cuzk.h: cz_prover_submit_timing / cz_prover_job_shape (api/jobs.c,
 * api/stager.c: random params made by the stager, never verified) and
 * cz_setup_test_params (api/setup.c), the captured timeline's summary and
 * per-device figures (api/timeline.c). Seconds, on the toy and bench:1024
 * circuits; the kinds' random witnesses run in tests/cli/cli_random_kinds.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk.h"
#include "cz_test.h"

static cz_prover_t *new_prover(void)
{
    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.backend = "cpu";
    cfg.threads = 2;
    cz_prover_t *p = NULL;
    cz_error_t err;
    if (cz_prover_new(&p, &cfg, &err) != CZ_OK)
        fprintf(stderr, "cz_prover_new: %s\n", err.message);
    return p;
}

CZ_TEST(a_timing_job_runs_on_random_params)
{
    cz_prover_t *p = new_prover();
    REQUIRE(p != NULL);
    cz_timing_request_t req;
    cz_timing_request_init(&req, "circuit");
    req.fields = "{\"circuit\": \"bench:1024\", \"partitions\": 2}";
    req.seed = 3;
    uint64_t id = 0;
    cz_error_t err;
    CHECK_OK(cz_prover_submit_timing(p, &req, &id, &err));
    cz_job_shape_t s;
    CHECK_OK(cz_prover_job_shape(p, id, &s, &err));
    CHECK_EQ_U64(s.partitions, 2);
    CHECK_EQ_U64(s.rows, 1024);
    CHECK_EQ_U64(s.domain_size, 1024);
    CHECK_EQ_U64(s.constraints + s.num_inputs, s.rows);
    cz_job_info_t info;
    CHECK_OK(cz_prover_wait(p, id, 120, &info, &err));
    CHECK_EQ_INT(info.state, CZ_JOB_DONE); /* done, although its proof cannot verify */
    CHECK(info.t.params_load > 0);         /* the params were made, not loaded */
    CHECK_OK(cz_prover_job_shape(p, id, &s, &err));
    CHECK(s.params_bytes > 0);
    uint8_t *proof = NULL;
    size_t len = 0;
    CHECK_OK(cz_prover_proof(p, id, &proof, &len, &err));
    CHECK_EQ_U64(len, 2 * 192);
    cz_free(proof);
    CHECK_EQ_INT(cz_prover_job_shape(p, id + 100, &s, &err), CZ_ENOTFOUND);
    cz_prover_free(p);
}

CZ_TEST(a_shape_without_a_prover_and_the_timeline_summary)
{
    cz_job_shape_t s;
    cz_error_t err;
    const char *fields = "{\"circuit\": \"bench:1024\", \"partitions\": 2}";
    CHECK_OK(cz_kind_shape("circuit", NULL, 0, fields, &s, &err));
    CHECK_EQ_U64(s.partitions, 2);
    CHECK_EQ_U64(s.rows, 1024);
    CHECK_EQ_U64(s.params_bytes, 0);
    CHECK(s.partition_bytes > 0);
    CHECK_EQ_INT(cz_kind_shape("nope", NULL, 0, NULL, &s, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "kind: 'nope' is not a known kind") != NULL);
    CHECK_EQ_INT(cz_kind_shape("circuit", NULL, 0, "{\"x\": 1}", &s, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "x: unknown field") != NULL);

    /* a prover without timeline_capture has no timeline to summarize */
    cz_prover_t *p = new_prover();
    REQUIRE(p != NULL);
    cz_timeline_summary_t ts;
    CHECK_EQ_INT(cz_prover_timeline_summary(p, NULL, &ts, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "timeline_capture") != NULL);
    cz_device_memory_t dm;
    CHECK_EQ_INT(cz_prover_device_memory(p, 1, &dm), CZ_ERANGE);
    cz_prover_free(p);

    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.backend = "cpu";
    cfg.threads = 2;
    cfg.timeline_capture = true;
    REQUIRE(cz_prover_new(&p, &cfg, &err) == CZ_OK);
    cz_timing_request_t req;
    cz_timing_request_init(&req, "circuit");
    req.fields = fields;
    uint64_t id = 0;
    CHECK_OK(cz_prover_submit_timing(p, &req, &id, &err));
    CHECK_OK(cz_prover_job_shape(p, id, &s, &err));
    CHECK(s.partition_bytes > 0);
    cz_job_info_t info;
    CHECK_OK(cz_prover_wait(p, id, 120, &info, &err));
    CHECK_EQ_INT(info.state, CZ_JOB_DONE);
    char svg[] = "/tmp/cz_tl_svg_XXXXXX";
    int fd = mkstemp(svg);
    REQUIRE(fd >= 0);
    close(fd);
    CHECK_OK(cz_prover_timeline_summary(p, svg, &ts, &err));
    CHECK_EQ_U64(ts.devices, 1);
    CHECK_EQ_U64(ts.device_regions, 2);
    CHECK_EQ_U64(ts.synthesis_spans, 2);
    CHECK(ts.device_held_ms > 0);
    CHECK(ts.device_efficiency > 0 && ts.device_efficiency <= 1);
    CHECK_EQ_U64(ts.overlap_violations, 0);
    FILE *f = fopen(svg, "r");
    char head[256] = { 0 };
    CHECK(f && fread(head, 1, sizeof head - 1, f) > 0 && strstr(head, "<svg") != NULL);
    if (f)
        fclose(f);
    unlink(svg);
    CHECK_EQ_INT(cz_prover_timeline_summary(p, "/nonexistent/dir/x.svg", &ts, &err), CZ_EIO);
    cz_prover_free(p);
}

/* cz_prover_timeline_devices: every device of cpu:2 with its figures; cap bounds what is
 * written, not what is counted; without timeline_capture, CZ_EINVAL. */
CZ_TEST(the_timeline_per_device)
{
    cz_prover_t *p = new_prover();
    REQUIRE(p != NULL);
    cz_timeline_device_t dv[4];
    size_t n = 7;
    cz_error_t err;
    CHECK_EQ_INT(cz_prover_timeline_devices(p, dv, 4, &n, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "timeline_capture") != NULL);
    CHECK_EQ_U64(n, 0);
    cz_prover_free(p);

    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.backend = "cpu";
    cfg.devices = 2;
    cfg.workers_per_device = 1;
    cfg.synth_workers = 2;
    cfg.threads = 2;
    cfg.timeline_capture = true;
    REQUIRE(cz_prover_new(&p, &cfg, &err) == CZ_OK);
    cz_prover_info_t pi;
    cz_prover_info(p, &pi);
    CHECK_EQ_U64(pi.devices, 2);
    cz_timing_request_t req;
    cz_timing_request_init(&req, "circuit");
    req.fields = "{\"circuit\": \"bench:1024\", \"partitions\": 8}";
    uint64_t id = 0;
    CHECK_OK(cz_prover_submit_timing(p, &req, &id, &err));
    cz_job_info_t info;
    CHECK_OK(cz_prover_wait(p, id, 120, &info, &err));
    CHECK_EQ_INT(info.state, CZ_JOB_DONE);
    CHECK_OK(cz_prover_timeline_devices(p, NULL, 0, &n, &err)); /* how many */
    CHECK_EQ_U64(n, 2);
    memset(dv, 0xff, sizeof dv);
    CHECK_OK(cz_prover_timeline_devices(p, dv, 4, &n, &err));
    CHECK_EQ_U64(n, 2);
    size_t regions = 0;
    for (size_t d = 0; d < 2; d++) {
        CHECK_EQ_INT(dv[d].device, (int)d);
        CHECK(dv[d].regions > 0);
        CHECK(dv[d].held_ms > 0);
        CHECK(dv[d].efficiency > 0 && dv[d].efficiency <= 1);
        CHECK(dv[d].dispatch_efficiency > 0 && dv[d].dispatch_efficiency <= 1);
        CHECK_EQ_U64(dv[d].reserved_pad, 0);
        CHECK_EQ_U64(dv[d].reserved[0] | dv[d].reserved[3], 0);
        regions += dv[d].regions;
    }
    CHECK_EQ_U64(regions, 8);
    CHECK_EQ_INT(dv[2].device, 0); /* past *n: zeroed */
    /* the summary takes the least of them */
    cz_timeline_summary_t ts;
    CHECK_OK(cz_prover_timeline_summary(p, NULL, &ts, &err));
    CHECK_EQ_U64(ts.devices, 2);
    CHECK(ts.device_efficiency <= dv[0].efficiency && ts.device_efficiency <= dv[1].efficiency);
    CHECK(ts.device_efficiency == dv[0].efficiency || ts.device_efficiency == dv[1].efficiency);
    /* cap 1: one written, both counted */
    memset(dv, 0, sizeof dv);
    CHECK_OK(cz_prover_timeline_devices(p, dv, 1, &n, &err));
    CHECK_EQ_U64(n, 2);
    CHECK_EQ_INT(dv[0].device, 0);
    CHECK(dv[0].regions > 0);
    CHECK_EQ_U64(dv[1].regions, 0); /* beyond cap: untouched */
    CHECK_EQ_INT(cz_prover_timeline_devices(p, NULL, 1, &n, &err), CZ_EINVAL);
    CHECK_EQ_INT(cz_prover_timeline_devices(p, dv, 1, NULL, &err), CZ_EINVAL);
    cz_prover_free(p);
}

CZ_TEST(timing_refusals_say_why)
{
    cz_prover_t *p = new_prover();
    REQUIRE(p != NULL);
    cz_timing_request_t req;
    uint64_t id = 0;
    cz_error_t err;
    cz_timing_request_init(&req, "porep-c2"); /* no random witness: needs its C1 */
    req.sector_size = 2048;
    CHECK_EQ_INT(cz_prover_submit_timing(p, &req, &id, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "kind porep-c2 has no random witness") != NULL);
    cz_timing_request_init(&req, "winning-post"); /* no circuit of that size */
    req.sector_size = 4096;
    CHECK_EQ_INT(cz_prover_submit_timing(p, &req, &id, &err), CZ_EINVAL);
    cz_timing_request_init(&req, "winning-post");
    req.sector_size = 2048;
    req.fields = "{}";
    CHECK_EQ_INT(cz_prover_submit_timing(p, &req, &id, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "fields: not taken") != NULL);
    cz_timing_request_init(&req, "nope");
    CHECK_EQ_INT(cz_prover_submit_timing(p, &req, &id, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "kind: 'nope' is not a known kind") != NULL);
    cz_timing_request_init(&req, "circuit");
    req.reserved[0] = 1;
    CHECK_EQ_INT(cz_prover_submit_timing(p, &req, &id, &err), CZ_EINVAL);
    cz_prover_free(p);
}

CZ_TEST(test_params_of_a_circuit_and_refusals)
{
    char dir[] = "/tmp/cz_setup_XXXXXX", pp[64], vp[64];
    REQUIRE(mkdtemp(dir) != NULL);
    snprintf(pp, sizeof pp, "%s/b.params", dir);
    snprintf(vp, sizeof vp, "%s/b.vk", dir);
    cz_setup_request_t req;
    cz_setup_request_init(&req);
    req.circuit = "bench:1024";
    req.params_path = pp;
    req.vk_path = vp;
    req.seeded = true;
    req.seed = 3;
    req.threads = 2;
    cz_setup_info_t info;
    cz_error_t err;
    CHECK_OK(cz_setup_test_params(&req, &info, &err));
    CHECK_EQ_STR(info.circuit, "bench:1024");
    CHECK_EQ_U64(info.domain_size, 1024);
    CHECK_EQ_U64(info.n_h, 1023);
    CHECK(info.params_bytes > 0 && access(pp, R_OK) == 0 && access(vp, R_OK) == 0);
    /* refusals: the request's fault, named */
    cz_setup_request_init(&req);
    CHECK_EQ_INT(cz_setup_test_params(&req, &info, &err), CZ_EINVAL); /* neither */
    req.kind = "porep-c2";
    req.circuit = "bench:1024";
    CHECK_EQ_INT(cz_setup_test_params(&req, &info, &err), CZ_EINVAL); /* both */
    cz_setup_request_init(&req);
    req.kind = "circuit";
    req.sector_size = 2048;
    CHECK_EQ_INT(cz_setup_test_params(&req, &info, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "no test circuit") != NULL);
    cz_setup_request_init(&req);
    req.kind = "snap";
    req.sector_size = 3072;
    req.params_dir = dir;
    CHECK_EQ_INT(cz_setup_test_params(&req, &info, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "sector_size: 3KiB has no snap circuit") != NULL);
    cz_setup_request_init(&req);
    req.circuit = "nosuch:1";
    req.params_path = pp;
    req.vk_path = vp;
    CHECK_EQ_INT(cz_setup_test_params(&req, &info, &err), CZ_EINVAL);
    unlink(pp);
    unlink(vp);
    rmdir(dir);
}

CZ_TEST_MAIN()
