/*
 * cli/cmd_setup.c — `cuzk setup`: TEST Groth16 parameters for a circuit.
 *
 * Synthesizes the circuit in KEYGEN mode, runs groth16/setup (bellperson's
 * generator) with toxic waste from the OS CSPRNG, or derived from --seed
 * for reproducible files, and writes the .params and .vk files atomically.
 * Both output paths are checked before any work; on a TTY stderr shows the
 * phase, percent done and ETA (groth16/setup.h's progress callback).
 * The output is for tests and benchmarks only: see the help text.
 */
#include <stdio.h>
#include <time.h>

#include "circuits/registry.h"
#include "cli/cli.h"
#include "cli/kind_door.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "core/clock.h"
#include "groth16/setup.h"

typedef struct {
    const char *circuit, *params, *vk;
    uint64_t seed;
    size_t threads;
} setup_opts_t;

static const cz_opt SETUP_OPTS[] = {
    { "circuit", 0, CZ_O_STRING(setup_opts_t, circuit), .arg = "ID", .flags = CZ_OPT_REQUIRED,
      .help = "toy[:X] or bench:N (e.g. bench:65536, bench:2^16)" },
    { "params", 0, CZ_O_OUTPUT(setup_opts_t, params), .arg = "OUT", .flags = CZ_OPT_REQUIRED,
      .help = "the parameters (bellperson's format)" },
    { "vk", 0, CZ_O_OUTPUT(setup_opts_t, vk), .arg = "OUT", .flags = CZ_OPT_REQUIRED,
      .help = "their verifying key" },
    { "seed", 0, CZ_O_U64(setup_opts_t, seed), .arg = "S",
      .help = "toxic waste from S, not the OS's random generator (reproducible; forgeable)" },
    CZ_OPT_THREADS(setup_opts_t, threads),
};

static void setup_more(FILE *f) { cz_cli_kinds_help(f, "setup"); }

static const cz_opts_spec SETUP_SPEC = {
    .cmd = "cuzk setup",
    .usage = "usage: cuzk setup --circuit ID --params OUT --vk OUT [--seed S] [--threads T]\n",
    .about =
        "  Generates Groth16 parameters for circuit ID and writes them to --params and\n"
        "  their verifying key to --vk (bellperson file formats).\n"
        "\n"
        "  TEST PARAMETERS FROM RANDOM TOXIC WASTE: NEVER FOR PRODUCTION. This process\n"
        "  sees the trapdoor (tau, alpha, beta, gamma, delta); whoever knows it can\n"
        "  forge proofs. Real Filecoin parameters come from the trusted-setup\n"
        "  ceremony and are downloaded, never generated. With --seed S anyone knowing\n"
        "  S can forge proofs.\n",
    CZ_OPTS(SETUP_OPTS),
    .more = setup_more,
};

/* groth16/setup.h's progress callback: the TTY line (cli/progress.h). */
static void setup_progress(void *user, const char *phase, double fraction)
{
    cz_progress_fraction(user, "setup", phase, fraction);
}

int cmd_setup(int argc, char **argv)
{
    setup_opts_t o;
    cz_opts_result_t r = { 0 };
    int rc = cz_cli_kind_door(cz_cli_kinds(), "setup", argc, argv);
    if (rc == CZ_OPTS_RUN)
        rc = cz_opts_parse(&SETUP_SPEC, &o, argc, argv, &r);
    if (rc != CZ_OPTS_RUN)
        return rc;
    /* the output files were checked by the table: minutes of work end in them */
    return cz_cli_setup(o.circuit, o.params, o.vk,
                        cz_opts_given(&SETUP_SPEC, &r, "seed") ? &o.seed : NULL, o.threads);
}

int cz_cli_setup(const char *circuit_id, const char *params_path, const char *vk_path,
                 const uint64_t *seed, size_t threads)
{
    bool have_seed = seed != NULL;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, (unsigned)threads)) {
        fprintf(stderr, "cuzk setup: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    cz_circuit_t circuit;
    cz_cs_t *cs = NULL;
    cz_params_t *params = NULL;
    cz_setup_toxic_t toxic;
    cz_params_shape_t shape;
    double t0 = cz_mono_s(), t1 = t0, t2 = t0;
    if (cz_circuit_parse(ctx, circuit_id, &circuit) != CZ_OK) {   /* a usage error */
        fprintf(stderr, "cuzk setup: %s\n", cz_ctx_message(ctx));
        cz_ctx_free(ctx);
        return CZ_EXIT_USAGE;
    }
    cz_progress_t progress;
    cz_progress_start(&progress, false);
    cz_progress_fraction(&progress, "setup", "synthesis", -1);
    int rc = CZ_OK;
    if (rc == CZ_OK)
        rc = cz_cs_new(&cs, ctx, CZ_CS_KEYGEN);
    if (rc == CZ_OK)
        rc = cz_circuit_synthesize(&circuit, cs);
    if (rc == CZ_OK) {
        cz_setup_shape_of_cs(cs, &shape);
        cz_progress_end(&progress);
        printf("circuit %s: %zu rows -> domain %zu, %zu inputs, %zu aux, "
               "a_aux %zu, b_input %zu, b_aux %zu\n", circuit.id, cz_cs_num_rows(cs),
               shape.domain_size, shape.num_inputs, shape.num_aux, shape.a_aux_popcount,
               shape.b_input_popcount, shape.b_aux_popcount);
        printf("WARNING: test parameters from %s toxic waste; never use them in production\n",
               have_seed ? "SEEDED (publicly reproducible)" : "random");
        fflush(stdout);
        t1 = cz_mono_s();
        if (have_seed)
            cz_setup_toxic_from_seed(&toxic, *seed);
        else
            rc = cz_setup_toxic_random(ctx, &toxic);
    }
    if (rc == CZ_OK) {
        cz_progress_start(&progress, false);   /* the ETA counts from here */
        rc = cz_setup_from_cs_progress(ctx, &params, cs, &toxic, setup_progress, &progress);
        cz_setup_toxic_scrub(&toxic);
        t2 = cz_mono_s();
    }
    cz_cs_free(cs);
    if (rc == CZ_OK)
        cz_progress_fraction(&progress, "setup", "writing", 1.0);
    if (rc == CZ_OK)
        rc = cz_params_write(ctx, params_path, params);
    if (rc == CZ_OK)
        rc = cz_vk_write(ctx, vk_path, &params->vk);
    cz_progress_end(&progress);
    if (rc == CZ_OK) {
        printf("params %s: h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu, ic %zu (%zu bytes)\n",
               params_path, params->n_h, params->n_l, params->n_a, params->n_b_g1,
               params->n_b_g2, params->vk.n_ic, cz_params_encoded_size(params));
        printf("vk %s\ntime: synthesis %.2f s, setup %.2f s, write %.2f s (%u threads)\n",
               vk_path, t1 - t0, t2 - t1, cz_mono_s() - t2, cz_pool_width(cz_ctx_pool(ctx)));
    } else {
        fprintf(stderr, "cuzk setup: %s\n", cz_ctx_message(ctx));
    }
    cz_params_free(params);
    cz_ctx_free(ctx);
    return rc == CZ_OK ? CZ_EXIT_OK : CZ_EXIT_FAIL;
}
