/*
 * cli/time_random.h — `cuzk prove --kind K --random-params`: TIMING ONLY.
 *
 * One job of a circuit's exact shape proved with random params of that
 * shape (cz_params_random: seconds, where a setup of a production size
 * takes hours) and whatever witness the kind's timing job holds. Nothing is
 * verified and no proof is written: it cannot be a proof. Used by the
 * kinds whose CLI has no C1-style input to time (PoSt, SnapDeals); the
 * PoRep C2 has its own (bench/bench_c2_random.c, over a C1 file).
 *
 * It prints the shape, the params' generation time, then submit-to-done,
 * the per-partition figure and the engine's synthesis/device totals, with
 * the backend and the thread count, on stdout.
 *
 * Ownership: the job spec and backend are borrowed (the engine borrows
 * *be for the run); the params are made and freed here. Thread-safety:
 * one call per ctx. Errors: the engine's, with the ctx message.
 */
#ifndef CUZK_CLI_TIME_RANDOM_H
#define CUZK_CLI_TIME_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "cli/options.h"
#include "engine/engine.h"
#include "groth16/params.h"

/*
 * The options and rules of a `cuzk prove --kind K` that has a --random-params
 * form besides its real one (PoSt, SnapDeals): --sector-size, --random-params
 * and --seed in the command's options struct |type| (fields sector_bytes,
 * random, seed), and the rules tying them to the real form's --input,
 * --params-dir and --proof (cli/options.h).
 */
#define CZ_CLI_RANDOM_PARAMS_OPTS(type)                                                       \
    { "sector-size", 0, CZ_O_SECTOR(type, sector_bytes), .arg = "S",                          \
      .help = "the circuit's sector size (--random-params)" },                                \
    { "random-params", 0, CZ_O_FLAG(type, random),                                            \
      .help = "TIMING ONLY: random params and witness, nothing verified or written" },       \
    { "seed", 0, CZ_O_U64(type, seed), .def = "1", .help = "the random params' seed" }

#define CZ_CLI_RANDOM_PARAMS_NRULES 7
extern const cz_opt_rule cz_cli_random_params_rules[CZ_CLI_RANDOM_PARAMS_NRULES];

typedef struct {
    const char *name;                  /* the circuit, as printed (e.g. a registered proof) */
    const cz_params_shape_t *shape;    /* of one partition */
    size_t rows;
    cz_job_spec_t *spec;               /* the timing job; its params are set here */
    uint64_t seed;                     /* of the random params */
    unsigned workers_per_device;       /* 0: the engine's default */
    double t_prepare;                  /* seconds spent making the job, as printed */
} cz_cli_time_random_t;

int cz_cli_time_random(cz_ctx_t *ctx, cz_backend_t **be, const cz_cli_time_random_t *t);

#endif /* CUZK_CLI_TIME_RANDOM_H */
