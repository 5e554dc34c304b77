/*
 * cli/time_random.c — a TIMING ONLY job with random params (time_random.h).
 */
#include "cli/time_random.h"

#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/ctx.h"

const cz_opt_rule cz_cli_random_params_rules[CZ_CLI_RANDOM_PARAMS_NRULES] = {
    CZ_RULE(EXCLUSIVE, "random-params", "input"),
    CZ_RULE(EXCLUSIVE, "random-params", "params-dir"),
    CZ_RULE(EXCLUSIVE, "random-params", "proof"),
    CZ_RULE_UNLESS(REQUIRED, "random-params", "input", "params-dir", "proof"),
    CZ_RULE(NEEDS, "random-params", "sector-size"),
    CZ_RULE(NEEDS, "sector-size", "random-params"),
    CZ_RULE(NEEDS, "seed", "random-params"),
};

int cz_cli_time_random(cz_ctx_t *ctx, cz_backend_t **be, const cz_cli_time_random_t *t)
{
    const cz_params_shape_t *s = t->shape;
    printf("*** TIMING ONLY: random params, random witness, proof not verified ***\n");
    printf("%s: %zu partition%s x %zu constraints / %zu rows (domain %zu, %zu inputs, %zu "
           "aux); job %.2f s\n", t->name, t->spec->partitions, t->spec->partitions == 1 ? "" : "s",
           t->rows - s->num_inputs, t->rows, s->domain_size, s->num_inputs, s->num_aux,
           t->t_prepare);
    fflush(stdout);
    cz_params_t *params = NULL;
    cz_engine_t *e = NULL;
    double t0 = cz_mono_s();
    int rc = cz_params_random(ctx, &params, s, t->seed);
    if (rc == CZ_OK) {
        printf("random params: %.2f s (%.2f GiB)\n", cz_mono_s() - t0,
               (double)cz_params_mem_bytes(params) / (1 << 30));
        cz_engine_config_t cfg = { .backends = be, .num_devices = 1, .pool = cz_ctx_pool(ctx),
                                   .workers_per_device = t->workers_per_device,
                                   .no_verify = true,
                                   .memory_margin = cz_engine_margin_for(cz_params_mem_bytes(params)) };
        rc = cz_engine_new(ctx, &e, &cfg);
    }
    uint64_t id = 0;
    cz_job_info_t info;
    memset(&info, 0, sizeof info);
    double t_run = 0;
    if (rc == CZ_OK) {
        t->spec->params = params;
        t->spec->pvk = NULL;   /* no verification: random params (engine.h) */
        t0 = cz_mono_s();
        rc = cz_engine_submit(e, NULL, t->spec, &id);
        while (rc == CZ_OK && (rc = cz_engine_wait(e, id, 0.25, &info)) == CZ_EBUSY)
            rc = CZ_OK;
        t_run = cz_mono_s() - t0;
        if (rc == CZ_OK && info.state != CZ_JOB_DONE)
            rc = cz_fail(ctx, info.error ? info.error : CZ_EINTERNAL, "job %s: %s",
                         cz_job_state_name(info.state), info.message);
    }
    if (rc == CZ_OK)
        printf("%s: %.3f s submit to done, %.3f s/partition (synthesis %.2f s, device %.2f s "
               "summed; %u threads, backend %s, device %d)\n", t->name, t_run,
               t_run / (double)t->spec->partitions, info.t.synthesis / 1e3, info.t.device / 1e3,
               cz_pool_width(cz_ctx_pool(ctx)), (*be)->ops->name, (*be)->device_index);
    cz_engine_free(e);
    t->spec->params = NULL;
    cz_params_free(params);
    return rc;
}
