/*
 * cli/time_random.h — `cuzk prove --kind K --random-params`: TIMING ONLY.
 *
 * One job of a circuit's exact shape proved with random params of that
 * shape and whatever witness the kind's timing job holds, through cuzk.h
 * (cz_prover_submit_timing: the library makes the params, counts them in
 * its memory margin and verifies nothing). No proof is written: it cannot
 * be a proof. Used by the kinds whose CLI has no C1-style input to time
 * (PoSt, SnapDeals: their random witness of --sector-size); the PoRep C2
 * has its own (cli/c2_random.c, over a C1 file).
 *
 * It prints the shape, the params' generation time, then submit-to-done,
 * the per-partition figure and the engine's synthesis/device totals, with
 * the backend and the thread count, on stdout.
 *
 * Thread-safety: one call per process. Errors: the library's, with its
 * message in ctx; *usage for a bad --backend or a refused request.
 */
#ifndef CUZK_CLI_TIME_RANDOM_H
#define CUZK_CLI_TIME_RANDOM_H

#include <stdbool.h>

#include "cli/options.h"
#include "cli/prove_job.h"

/*
 * The options and rules of a `cuzk prove --kind K` that has a --random-params
 * form besides its real one (PoSt, SnapDeals): --sector-size, --random-params
 * and --seed in the command's options struct |type| (fields sector_bytes,
 * random, seed), and the rules tying them to the real form's --input,
 * --params-dir and --proof (cli/options.h).
 */
/* laid out by hand: */
/* clang-format off */
#define CZ_CLI_RANDOM_PARAMS_OPTS(type)                                                       \
    { "sector-size", 0, CZ_O_SECTOR(type, sector_bytes), .arg = "S",                          \
      .help = "the circuit's sector size (--random-params)" },                                \
    { "random-params", 0, CZ_O_FLAG(type, random),                                            \
      .help = "TIMING ONLY: random params and witness, nothing verified or written" },       \
    { "seed", 0, CZ_O_U64(type, seed), .def = "1", .help = "the random params' seed" }
/* clang-format on */

#define CZ_CLI_RANDOM_PARAMS_NRULES 7
extern const cz_opt_rule cz_cli_random_params_rules[CZ_CLI_RANDOM_PARAMS_NRULES];

/* Run |req| (its seed: the random params') on a prover of |po|. */
int cz_cli_time_random(cz_ctx_t *ctx, const cz_cli_prover_opts_t *po,
                       const cz_timing_request_t *req, bool *usage);

#endif /* CUZK_CLI_TIME_RANDOM_H */
