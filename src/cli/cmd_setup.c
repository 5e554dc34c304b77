/*
 * cli/cmd_setup.c — `cuzk setup`: TEST Groth16 parameters for a circuit.
 *
 * Through cuzk.h cz_setup_test_params (the library synthesizes the circuit
 * in KEYGEN mode, runs bellperson's generator with toxic waste from the OS
 * CSPRNG, or derived from --seed for reproducible files, and writes the
 * .params and .vk files atomically): `--circuit ID` for a registry circuit,
 * `--kind K --sector-size S` for every kind of the table with a test
 * circuit (porep-c2, the PoSt kinds, snap), under the Filecoin names.
 * Both output paths are checked before any work; on a TTY stderr shows the
 * phase, percent done and ETA (groth16/setup.h's progress callback).
 * The output is for tests and benchmarks only: see the help text.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/kind_door.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cuzk.h"

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

static void setup_more(FILE *f)
{
    cz_cli_kinds_help(f, "setup");
}

static const cz_opts_spec SETUP_SPEC = {
    .cmd = "cuzk setup",
    .usage = "usage: cuzk setup --circuit ID --params OUT --vk OUT [--seed S] [--threads T]\n",
    .about = "  Generates Groth16 parameters for circuit ID and writes them to --params and\n"
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

/* ---- the work: cuzk.h cz_setup_test_params -------------------------------------- */

typedef struct {
    cz_progress_t progress;
    const cz_setup_info_t *info;
    bool seeded;
} setup_run_t;

/* The library's progress: the TTY line (cli/progress.h); the circuit's shape and the
 * warning once it is synthesized, before the long part. */
static void setup_progress(void *user, const char *phase, double fraction)
{
    setup_run_t *r = user;
    if (strcmp(phase, "synthesized")) {
        cz_progress_fraction(&r->progress, "setup", phase, fraction);
        return;
    }
    const cz_setup_info_t *i = r->info;
    cz_progress_end(&r->progress);
    printf("circuit %s: %zu rows -> domain %zu, %zu inputs, %zu aux, "
           "a_aux %zu, b_input %zu, b_aux %zu\n",
           i->circuit, i->rows, i->domain_size, i->num_inputs, i->num_aux, i->a_aux_popcount,
           i->b_input_popcount, i->b_aux_popcount);
    printf("WARNING: test parameters from %s toxic waste; never use them in production\n",
           r->seeded ? "SEEDED (publicly reproducible)" : "random");
    fflush(stdout);
    cz_progress_start(&r->progress, false); /* the ETA counts from here */
}

/* Run |base| (its kind or circuit set) with the options every form has, its progress
 * set here, and say what was made. The exit code. */
static int run_setup(const cz_setup_request_t *base, const char *params, const char *vk,
                     bool seeded, uint64_t seed, size_t threads)
{
    cz_setup_info_t info;
    setup_run_t r = { .info = &info, .seeded = seeded };
    cz_setup_request_t req = *base;
    req.params_path = params;
    req.vk_path = vk;
    req.seeded = seeded;
    req.seed = seed;
    req.threads = (unsigned)threads;
    req.progress = setup_progress;
    req.progress_user = &r;
    cz_progress_start(&r.progress, false);
    cz_error_t err;
    int rc = cz_setup_test_params(&req, &info, &err);
    cz_progress_end(&r.progress);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk setup: %s\n", err.message);
        return rc == CZ_EINVAL ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
    }
    printf("params %s: h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu, ic %zu (%zu bytes)\n",
           info.params_path, info.n_h, info.n_l, info.n_a, info.n_b_g1, info.n_b_g2, info.n_ic,
           info.params_bytes);
    printf("vk %s\ntime: synthesis %.2f s, setup %.2f s, write %.2f s (%u threads)\n", info.vk_path,
           info.t_synthesis, info.t_setup, info.t_write, info.threads);
    return CZ_EXIT_OK;
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
    cz_setup_request_t req;
    cz_setup_request_init(&req);
    req.circuit = o.circuit;
    return run_setup(&req, o.params, o.vk, cz_opts_given(&SETUP_SPEC, &r, "seed"), o.seed,
                     o.threads);
}

/* ---- `cuzk setup --kind K`: every kind of the table with a test circuit ----------- */

typedef struct {
    const char *kind, *params, *vk, *dir;
    uint64_t sector_bytes, seed;
    size_t threads;
} kind_setup_opts_t;

static const cz_opt KIND_SETUP_OPTS[] = {
    { "kind", 0, CZ_O_STRING(kind_setup_opts_t, kind), .arg = "K", .flags = CZ_OPT_REQUIRED,
      .help = "a kind with a test circuit (cuzk setup --help lists them)" },
    { "sector-size", 0, CZ_O_SECTOR(kind_setup_opts_t, sector_bytes), .arg = "SIZE",
      .flags = CZ_OPT_REQUIRED, .help = "2KiB, 8MiB, 512MiB, 32GiB or 64GiB" },
    { "params", 0, CZ_O_OUTPUT(kind_setup_opts_t, params), .arg = "P", .help = "the params file" },
    { "vk", 0, CZ_O_OUTPUT(kind_setup_opts_t, vk), .arg = "V", .help = "the verifying key file" },
    { "params-dir", 0, CZ_O_OUTDIR(kind_setup_opts_t, dir), .arg = "D",
      .help = "D/<Filecoin name>.params and .vk instead (D is created)" },
    { "seed", 0, CZ_O_U64(kind_setup_opts_t, seed), .arg = "S",
      .help = "toxic waste from S (reproducible; forgeable)" },
    CZ_OPT_THREADS(kind_setup_opts_t, threads),
};
static const cz_opt_rule KIND_SETUP_RULES[] = {
    CZ_RULE(TOGETHER, "params", "vk"),
    CZ_RULE(ONE_OF, "params", "params-dir"),
};
static const cz_opts_spec KIND_SETUP_SPEC = {
    .cmd = "cuzk setup",
    .usage = "usage: cuzk setup --kind K --sector-size SIZE (--params-dir D | --params P --vk V)\n"
             "                  [--seed S] [--threads T]\n",
    .about = "  TEST parameters (random toxic waste; NEVER for production) for one partition\n"
             "  of kind K's circuit of SIZE, in bellperson's format. --params-dir D writes\n"
             "  D/<Filecoin name>.params and .vk (v28-stacked-proof-of-replication-...,\n"
             "  v28-proof-of-spacetime-fallback-..., v28-empty-sector-update-...), the names\n"
             "  real parameters have, so `prove --params-dir` finds either.\n",
    CZ_OPTS(KIND_SETUP_OPTS),
    CZ_RULES(KIND_SETUP_RULES),
    .help_cmd = "cuzk setup --kind K --help",
};

int cz_cli_setup_kind(int argc, char **argv)
{
    kind_setup_opts_t o;
    cz_opts_result_t r = { 0 };
    int p = cz_opts_parse(&KIND_SETUP_SPEC, &o, argc, argv, &r);
    if (p != CZ_OPTS_RUN)
        return p;
    cz_setup_request_t req;
    cz_setup_request_init(&req);
    req.kind = o.kind;
    req.sector_size = o.sector_bytes;
    req.params_dir = o.dir;
    return run_setup(&req, o.params, o.vk, cz_opts_given(&KIND_SETUP_SPEC, &r, "seed"), o.seed,
                     o.threads);
}

void cz_cli_setup_usage(FILE *f, const char *kinds)
{
    cz_opts_usage(&KIND_SETUP_SPEC, f);
    fprintf(f,
            "  K: %s\n  e.g. cuzk setup --kind porep-c2 --sector-size 2KiB --params-dir params "
            "--seed 7\n",
            kinds);
}
