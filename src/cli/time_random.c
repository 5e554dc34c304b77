/*
 * cli/time_random.c — a TIMING ONLY job with random params (time_random.h).
 */
#include "cli/time_random.h"

#include <stdio.h>
#include <string.h>

#include "core/clock.h"

const cz_opt_rule cz_cli_random_params_rules[CZ_CLI_RANDOM_PARAMS_NRULES] = {
    CZ_RULE(EXCLUSIVE, "random-params", "input"),
    CZ_RULE(EXCLUSIVE, "random-params", "params-dir"),
    CZ_RULE(EXCLUSIVE, "random-params", "proof"),
    CZ_RULE_UNLESS(REQUIRED, "random-params", "input", "params-dir", "proof"),
    CZ_RULE(NEEDS, "random-params", "sector-size"),
    CZ_RULE(NEEDS, "sector-size", "random-params"),
    CZ_RULE(NEEDS, "seed", "random-params"),
};

int cz_cli_time_random(cz_ctx_t *ctx, const cz_cli_prover_opts_t *po,
                       const cz_timing_request_t *req, bool *usage)
{
    printf("*** TIMING ONLY: random params, random witness, proof not verified ***\n");
    fflush(stdout);
    cz_prover_t *p = NULL;
    cz_cli_job_result_t r;
    memset(&r, 0, sizeof r);
    cz_job_shape_t s;
    cz_error_t err;
    uint64_t id = 0;
    double t0 = cz_mono_s();
    int rc = cz_cli_prover_new(ctx, po, &p);
    *usage = rc == CZ_EINVAL;
    if (rc == CZ_OK && (rc = cz_prover_submit_timing(p, req, &id, &err)) != CZ_OK) {
        *usage = rc == CZ_EINVAL;
        cz_fail(ctx, rc, "%s", err.message);
    }
    double t_submit = cz_mono_s();
    if (rc == CZ_OK && (rc = cz_prover_job_shape(p, id, &s, &err)) != CZ_OK)
        cz_fail(ctx, rc, "%s", err.message);
    if (rc == CZ_OK && (rc = cz_prover_status(p, id, &r.info, &err)) != CZ_OK)
        cz_fail(ctx, rc, "%s", err.message);
    if (rc == CZ_OK) {
        printf("%s: %zu partition%s x %zu constraints / %zu rows (domain %zu, %zu inputs, %zu "
               "aux); job %.2f s\n",
               r.info.summary, s.partitions, s.partitions == 1 ? "" : "s", s.constraints, s.rows,
               s.domain_size, s.num_inputs, s.num_aux, t_submit - t0);
        fflush(stdout);
        rc = cz_cli_prover_wait(ctx, p, id, t_submit, false, NULL, &r);
    }
    if (rc == CZ_OK && (rc = cz_prover_job_shape(p, id, &s, &err)) != CZ_OK)
        cz_fail(ctx, rc, "%s", err.message);
    if (rc == CZ_OK) {
        cz_prover_info_t pi;
        cz_prover_info(p, &pi);
        /* submit to done: the params' making excluded, as before a real run */
        double t_run = r.t_run - r.info.t.params_load / 1e3;
        printf("random params: %.2f s (%.2f GiB)\n", r.info.t.params_load / 1e3,
               (double)s.params_bytes / (1 << 30));
        printf("%s: %.3f s submit to done, %.3f s/partition (synthesis %.2f s, device %.2f s "
               "summed; %u threads, backend %s, device %zu)\n",
               r.info.summary, t_run, t_run / (double)s.partitions, r.info.t.synthesis / 1e3,
               r.info.t.device / 1e3, pi.threads, pi.backend, po->device);
    }
    cz_cli_job_result_free(&r);
    cz_prover_free(p);
    return rc;
}
