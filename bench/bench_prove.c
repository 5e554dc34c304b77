/*
 * bench/bench_prove.c — `cuzk bench prove`: one proof on the backend
 * --backend names (cpu, cuda, auto; backend.h) with the time of every stage (synthesis, NTT/H, the MSMs h, l, a, b_g1,
 * b_g2, assembly), best of K runs by total time. The stages are shares of
 * one run, so the figures are ratios of the same process and input.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "circuits/registry.h"
#include "cli/cli.h"
#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/verify.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk bench prove --circuit bench:N [--params FILE] [--threads T]\n"
            "                        [--iters K] [--backend cpu|cuda|auto] [--device N] [--json]\n"
            "  Proves on the backend (default cpu; auto = cuda when usable, else cpu;\n"
            "  --device N picks the GPU) and prints the time of each stage: synthesis,\n"
            "  NTT/H, MSM h, l, a, b_g1, b_g2, assembly, total (best of K by total).\n"
            "  Without --params, test parameters are generated in process (seeded).\n");
}

int cz_bench_prove(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "circuit", required_argument, 0, 'c' }, { "params", required_argument, 0, 'p' },
        { "threads", required_argument, 0, 't' }, { "iters", required_argument, 0, 'i' },
        { "json", no_argument, 0, 'j' },          { "help", no_argument, 0, 'h' },
        { "backend", required_argument, 0, 'b' }, { "device", required_argument, 0, 'd' },
        { 0, 0, 0, 0 },
    };
    const char *circuit_id = "bench:65536", *params_path = NULL, *backend = "cpu";
    size_t threads = 0, iters = 1, device = 0;
    int json = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'c': circuit_id = optarg; break;
        case 'p': params_path = optarg; break;
        case 't': if (!cz_cli_parse_size(optarg, &threads)) goto usage; break;
        case 'i': if (!cz_cli_parse_size(optarg, &iters) || !iters) goto usage; break;
        case 'j': json = 1; break;
        case 'b': backend = optarg; break;
        case 'd': if (!cz_cli_parse_size(optarg, &device) || device > 1024) goto usage; break;
        case 'h': usage(stdout); return CZ_EXIT_OK;
        default: goto usage;
        }
    }
    if (optind != argc)
        goto usage;

    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, (unsigned)threads))
        return CZ_EXIT_FAIL;
    cz_circuit_t circuit;
    cz_params_t *params = NULL;
    cz_backend_t *be = NULL;
    cz_pvk_t *pvk = NULL;
    int rc = cz_backend_new(ctx, &be, backend, (int)device);   /* first: fail before setup */
    if (rc == CZ_OK)
        rc = cz_circuit_parse(ctx, circuit_id, &circuit);
    if (rc == CZ_OK && params_path) {
        rc = cz_params_load(ctx, &params, params_path, NULL);
    } else if (rc == CZ_OK) {
        cz_setup_toxic_t toxic;
        cz_setup_toxic_from_seed(&toxic, 1);
        rc = cz_setup(ctx, &params, cz_circuit_body, &circuit, &toxic, NULL);
        cz_setup_toxic_scrub(&toxic);
    }
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &pvk, &params->vk);
    cz_g16_timings_t best = { 0 };
    double best_total = -1, best_synth = 0;
    for (size_t it = 0; rc == CZ_OK && it < iters; it++) {
        cz_cs_witness_t w;
        double t0 = cz_bench_now();
        rc = cz_circuit_witness(ctx, &circuit, it + 1, &w);
        double synth = cz_bench_now() - t0;
        if (rc)
            break;
        size_t n = w.num_inputs - 1;
        cz_fr *inputs = malloc((n + 1) * sizeof *inputs);
        memcpy(inputs, w.input + 1, n * sizeof *inputs);
        cz_proof_t proof;
        cz_g16_timings_t t;
        double t1 = cz_bench_now();
        rc = cz_g16_prove(ctx, be, params, &w, NULL, NULL, &proof, &t);
        double total = synth + (cz_bench_now() - t1);
        if (rc == CZ_OK && (rc = cz_verify(ctx, pvk, &proof, inputs, n)) != CZ_OK)
            cz_fail(ctx, rc, "the proof does not verify");
        free(inputs);
        if (rc == CZ_OK && (best_total < 0 || total < best_total)) {
            best_total = total;
            best = t;
            best_synth = synth;
        }
    }
    if (rc == CZ_OK) {
        const double ms = 1e3;
        unsigned width = cz_pool_width(cz_ctx_pool(ctx));
        if (json)
            printf("{\"bench\":\"prove\",\"circuit\":\"%s\",\"backend\":\"%s\",\"device\":%d,"
                   "\"threads\":%u,\"synthesis_ms\":%.2f,"
                   "\"prep_ms\":%.2f,\"ntt_h_ms\":%.2f,\"msm_h_ms\":%.2f,\"msm_l_ms\":%.2f,"
                   "\"msm_a_ms\":%.2f,\"msm_b_g1_ms\":%.2f,\"msm_b_g2_ms\":%.2f,"
                   "\"assembly_ms\":%.2f,\"total_ms\":%.2f,\"verified\":true}\n",
                   circuit_id, be->ops->name, be->device_index, width, best_synth * ms,
                   best.prep * ms, best.ntt * ms, best.msm_h * ms, best.msm_l * ms,
                   best.msm_a * ms, best.msm_b1 * ms, best.msm_b2 * ms, best.assembly * ms,
                   best_total * ms);
        else
            printf("%s on %u threads (%s backend, device %d), best of %zu:\n"
                   "  synthesis %9.1f ms\n  prep      %9.1f ms\n  NTT/H     %9.1f ms\n"
                   "  MSM h     %9.1f ms\n  MSM l     %9.1f ms\n  MSM a     %9.1f ms\n"
                   "  MSM b_g1  %9.1f ms\n  MSM b_g2  %9.1f ms\n  assembly  %9.1f ms\n"
                   "  total     %9.1f ms (proof verified)\n",
                   circuit_id, width, be->ops->name, be->device_index, iters, best_synth * ms, best.prep * ms, best.ntt * ms,
                   best.msm_h * ms, best.msm_l * ms, best.msm_a * ms, best.msm_b1 * ms,
                   best.msm_b2 * ms, best.assembly * ms, best_total * ms);
    } else {
        fprintf(stderr, "cuzk bench prove: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    }
    cz_pvk_free(pvk);
    cz_backend_free(be);
    cz_params_free(params);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
usage:
    usage(stderr);
    return CZ_EXIT_USAGE;
}
