/*
 * cli/c2_random.h — `cuzk prove --kind porep-c2 --random-params`: TIMING ONLY.
 *
 * A C1's exact partition shape proved with random params of that shape, no
 * proof anyone may use (cli/c2_random.c says how). The PoSt and SnapDeals
 * forms of --random-params are cli/time_random.h's.
 *
 * Ownership: the options' strings are borrowed for the call. Thread-safety:
 * one call at a time (it prints to stdout). Errors: the exit code
 * (cli/cli.h's CZ_EXIT_*), the message on stderr.
 */
#ifndef CUZK_CLI_C2_RANDOM_H
#define CUZK_CLI_C2_RANDOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* `cuzk prove --kind porep-c2 --random-params` (c2_random.c):
 * TIMING ONLY, random params of the C1's partition shape. Returns the exit code. */
typedef struct cz_c2_random_opts {
    const char *c1_path, *proof_path, *backend, *timeline_path, *svg_path;
    size_t workers, threads, device;
    uint64_t seed;
    bool quiet, json, dry_run;
    size_t jobs;             /* engine jobs of the C1 submitted at once (0 or 1: one) */
    size_t device_mem_limit; /* CUDA: the device-memory plan's budget (0: the free memory) */
    unsigned batch;          /* CUDA: partitions a region takes where bases stream (0: the
                                * backend's default; 1: none) */
    size_t memory_budget;    /* the engine's host budget (0: physical memory less its margin) */
    bool no_pin_ab;          /* cz_prover_config_t.cuda_no_pin_ab */
} cz_c2_random_opts_t;
int cz_cli_c2_random(const cz_c2_random_opts_t *o);

#endif /* CUZK_CLI_C2_RANDOM_H */
