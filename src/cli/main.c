/*
 * cli/main.c — `cuzk`: entry point and top-level command table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static int cmd_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("cuzk %s\n", CUZK_VERSION);
    return CZ_EXIT_OK;
}

static const cz_cli_command commands[] = {
    { "bench", cmd_bench,
      "benchmarks: " CZ_BENCH_NAMES " (ratios against an in-process baseline)" },
    { "hash", cmd_hash, "native hashes: poseidon, sha256, sha254, commd-zero" },
    { "timeline", cmd_timeline,
      "timeline analyze LOG: device efficiency, gaps, overlaps, SVG Gantt" },
    { "prove", cmd_prove, "prove a circuit in this process (--local) or through cuzkd; verifies" },
    { "verify", cmd_verify, "verify a proof: exit 0 valid, 1 invalid, 2 bad input" },
    { "setup", cmd_setup, "TEST params from random toxic waste (never for production)" },
    { "circuit", cmd_circuit,
      "circuit shape: constraints, inputs, aux, densities (porep-c2, any id)" },
    { "porep", cmd_porep, "porep gen-c1 (seal a test sector, write its C1) | check-c1 FILE" },
    { "params", cmd_params,
      "params check DIR: blake2b digests against Filecoin's parameters.json" },
    { "post", cmd_post, "post gen-vanilla (seal test sectors, write PoSt vanilla proofs)" },
    { "snap", cmd_snap, "snap gen-vanilla: a SnapDeals update of a test sector (request file)" },
    { "export", cmd_export, "export snarkjs: vk, proof and public inputs as snarkjs JSON" },
#ifdef CUZK_HAVE_CLIENT
    { "submit", cmd_submit, "submit a job to cuzkd; prints its id" },
    { "status", cmd_status, "status of a cuzkd job: state, stage, partitions, timings" },
    { "wait", cmd_wait, "follow a cuzkd job to its end (progress bar on a TTY)" },
    { "proof", cmd_proof, "fetch a finished job's proof and public inputs from cuzkd" },
    { "cancel", cmd_cancel, "cancel a cuzkd job" },
    { "list", cmd_list, "list cuzkd's jobs" },
    { "daemon-status", cmd_daemon_status, "cuzkd: devices, queues, memory, params cache" },
#endif
    { "version", cmd_version, "print the version (also cuzk --version)" },
};

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")))
        return cmd_version(argc - 1, argv + 1);
    return cz_cli_dispatch("cuzk", commands, sizeof commands / sizeof commands[0],
                           "usage: cuzk COMMAND [ARGS...]   (cuzk COMMAND --help for details)",
                           argc, argv);
}
