/*
 * bench/bench_prove.c — `cuzk bench prove`: one proof on the backend
 * --backend names (cpu, cuda, auto; backend.h) with the time of every stage
 * (synthesis, prep, NTT/H, the MSMs h, l, a, b_g1, b_g2, the wait for prep,
 * assembly) and of the device region as a whole (the time the engine would
 * hold the device lock), best of K runs by total time. The stages are shares
 * of one run, so the figures are ratios of the same process and input.
 *
 * Params: a file (--params), a seeded test setup (the default), or, for
 * timing at real scale (bench:130278869 is a 32GiB PoRep partition, whose
 * setup takes hours), random points of the circuit's shape (--random-params,
 * cz_params_random): the proof is then not verified, since it cannot be.
 * --dry-run prints the shape and the memory it needs and proves nothing.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "circuits/registry.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "engine/engine.h"
#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/verify.h"

typedef struct {
    const char *circuit, *params, *backend;
    size_t threads, iters, device, device_mem_limit;
    bool json, random_params, dry_run, h_on_cpu, no_splits_in_region, no_pin_ab;
} bprove_opts_t;

static const cz_opt BPROVE_OPTS[] = {
    { "circuit", 0, CZ_O_STRING(bprove_opts_t, circuit), .arg = "bench:N", .def = "bench:65536",
      .help = "the circuit" },
    { "params", 0, CZ_O_STRING(bprove_opts_t, params), .arg = "FILE",
      .help = "its params (default: a seeded test setup made here; the proof is verified)" },
    CZ_OPT_THREADS(bprove_opts_t, threads),
    { "iters", 0, CZ_O_SIZE(bprove_opts_t, iters), .min = 1, .def = "1", .arg = "K",
      .help = "best of K by total time" },
    CZ_OPT_BACKEND(bprove_opts_t, backend, "cpu"),
    CZ_OPT_DEVICE(bprove_opts_t, device),
    { "random-params", 0, CZ_O_FLAG(bprove_opts_t, random_params),
      .help = "TIMING ONLY: random points of the circuit's shape; the proof is not checked" },
    { "dry-run", 0, CZ_O_FLAG(bprove_opts_t, dry_run),
      .help = "print the shape and the memory it needs; make no params, prove nothing" },
    { "device-mem-limit", 0, CZ_O_BYTES(bprove_opts_t, device_mem_limit), .def = "0",
      .help = "CUDA: device memory the plan may use (0: what is free; e.g. 14GiB)" },
    { "h-on-cpu", 0, CZ_O_FLAG(bprove_opts_t, h_on_cpu),
      .help = "CUDA: where every vector streams, the H on the CPU (the default: on the GPU "
              "between the MSMs where it fits)" },
    { "no-splits-in-region", 0, CZ_O_FLAG(bprove_opts_t, no_splits_in_region),
      .help = "CUDA, where the tails stream: each window's MSMs copy the partition's splits "
              "from host memory (the default: the region puts them on the device, in the H "
              "result's spent buffer, before the tails)" },
    { "no-pin-ab", 0, CZ_O_FLAG(bprove_opts_t, no_pin_ab),
      .help = "CUDA: a and b that no staging slot takes stay pageable, copied through bounce "
              "buffers (the default: page-locked in place before the region, copied by DMA)" },
    CZ_OPT_JSON(bprove_opts_t, json, "one JSON line"),
};
static const cz_opt_rule BPROVE_RULES[] = { CZ_RULE(EXCLUSIVE, "params", "random-params") };
static const cz_opts_spec BPROVE_SPEC = {
    .cmd = "cuzk bench prove",
    .usage = "usage: cuzk bench prove --circuit bench:N [--params FILE | --random-params]\n"
             "                        [--threads T] [--iters K] [--backend cpu|cuda|auto]\n"
             "                        [--device N] [--device-mem-limit BYTES] [--h-on-cpu]\n"
             "                        [--no-splits-in-region] [--no-pin-ab] [--dry-run]\n"
             "                        [--json]\n",
    .about = "  Proves on the backend and prints the time of each stage: synthesis, prep,\n"
             "  NTT/H, MSM h, prep wait, MSM l, a, b_g1, b_g2, assembly, the device region\n"
             "  (the stages the backend runs; the time the engine holds the device lock) and\n"
             "  the total (best of K by total). Here prep runs before the device region, so\n"
             "  prep wait is ~0 (in the engine they overlap).\n"
             "  --random-params: TIMING ONLY. Random points of the circuit's shape (seconds,\n"
             "  even at bench:130278869, a 32GiB PoRep partition, where a setup takes\n"
             "  hours); the proof does not verify and is not checked (JSON \"verified\":false).\n"
             "  --device-mem-limit: the CUDA device-memory plan gets at most BYTES (as a\n"
             "  smaller card would); each iteration prints the plan and the params bytes it\n"
             "  copied to the device, with their time at 25 and 50 GB/s.\n",
    CZ_OPTS(BPROVE_OPTS),
    CZ_RULES(BPROVE_RULES),
};

/* The params shape of |c| (FACTS 1): the one cz_g16_partition_new checks a
 * witness of |c| against (domain = 2^ceil(log2 rows), cz_g16_shape_of). */
static int circuit_params_shape(cz_ctx_t *ctx, const cz_circuit_t *c, cz_params_shape_t *shape,
                                size_t *rows)
{
    size_t ni, na, pc[3];
    int rc = cz_circuit_shape(ctx, c, rows, &ni, &na, pc);
    if (rc)
        return rc;
    size_t m = 1;
    while (m < *rows)
        m <<= 1;
    *shape = (cz_params_shape_t){
        .num_inputs = ni,
        .num_aux = na,
        .domain_size = m,
        .a_aux_popcount = pc[CZ_DENSITY_A_AUX],
        .b_input_popcount = pc[CZ_DENSITY_B_INPUT],
        .b_aux_popcount = pc[CZ_DENSITY_B_AUX],
    };
    return CZ_OK;
}

static unsigned log2_of(size_t m)
{
    unsigned k = 0;
    while (((size_t)1 << k) < m)
        k++;
    return k;
}

/* The shape, the params' point counts and bytes in memory (params.h), and the
 * engine's budget estimate for one partition of it. */
static void print_shape(const char *id, const cz_params_shape_t *s, size_t rows, int json)
{
    const size_t g1 = sizeof(blst_p1_affine), g2 = sizeof(blst_p2_affine);
    size_t n_h = s->domain_size - 1, n_l = s->num_aux, n_a = s->num_inputs + s->a_aux_popcount;
    size_t n_b = s->b_input_popcount + s->b_aux_popcount;
    size_t params_bytes = (n_h + n_l + n_a + n_b) * g1 + n_b * g2;
    size_t part_bytes, abc_bytes;
    cz_engine_estimate(s, rows, &part_bytes, &abc_bytes);
    char pb[32], tb[32], ab[32];
    if (json)
        printf("{\"bench\":\"prove-shape\",\"circuit\":\"%s\",\"rows\":%zu,\"domain_size\":%zu,"
               "\"num_inputs\":%zu,\"num_aux\":%zu,\"a_aux_popcount\":%zu,"
               "\"b_input_popcount\":%zu,\"b_aux_popcount\":%zu,\"params_bytes\":%zu,"
               "\"partition_bytes\":%zu,\"abc_bytes\":%zu}\n",
               id, rows, s->domain_size, s->num_inputs, s->num_aux, s->a_aux_popcount,
               s->b_input_popcount, s->b_aux_popcount, params_bytes, part_bytes, abc_bytes);
    else
        printf("%s: %zu rows (domain 2^%u), %zu inputs (ONE included), %zu aux;\n"
               "  popcounts a_aux %zu, b_input %zu, b_aux %zu\n"
               "  params: h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu points = %s in memory\n"
               "  partition (engine estimate): %s, of which a/b %s\n",
               id, rows, log2_of(s->domain_size), s->num_inputs, s->num_aux, s->a_aux_popcount,
               s->b_input_popcount, s->b_aux_popcount, n_h, n_l, n_a, n_b, n_b,
               cz_bench_fmt_bytes(pb, sizeof pb, params_bytes),
               cz_bench_fmt_bytes(tb, sizeof tb, part_bytes),
               cz_bench_fmt_bytes(ab, sizeof ab, abc_bytes));
}

/* The params to prove with: |path| if set, else random points of |random|
 * if set (timing only), else a seeded test setup of |circuit|. */
static int make_params(cz_ctx_t *ctx, cz_params_t **params, const cz_circuit_t *circuit,
                       const char *path, const cz_params_shape_t *random)
{
    if (path)
        return cz_params_load(ctx, params, path, NULL);
    if (random)
        return cz_params_random(ctx, params, random, 1);
    cz_setup_toxic_t toxic;
    cz_setup_toxic_from_seed(&toxic, 1);
    int rc = cz_setup(ctx, params, cz_circuit_body, (void *)circuit, &toxic, NULL);
    cz_setup_toxic_scrub(&toxic);
    return rc;
}

/* K proofs of |circuit| (witness seeds 1..K), each verified when |pvk|; the
 * timings of the fastest by total time (synthesis included). */
static int prove_best(cz_ctx_t *ctx, cz_backend_t *be, const cz_params_t *params,
                      const cz_pvk_t *pvk, const cz_circuit_t *circuit, size_t iters,
                      cz_g16_timings_t *best, double *best_synth, double *best_total)
{
    int rc = CZ_OK;
    *best_total = -1;
    cz_g16_prepare(be, params); /* as the engine does at a job's submission */
    unsigned long long h2d_before = 0;
    for (size_t it = 0; rc == CZ_OK && it < iters; it++) {
        cz_cs_witness_t w;
        double t0 = cz_bench_now();
        rc = cz_circuit_witness(ctx, circuit, it + 1, &w);
        double synth = cz_bench_now() - t0;
        if (rc)
            break;
        size_t n = w.num_inputs - 1;
        cz_fr *inputs = malloc((n + 1) * sizeof *inputs);
        if (!inputs) {
            cz_cs_witness_free(&w);
            return cz_fail(ctx, CZ_ENOMEM, "inputs");
        }
        memcpy(inputs, w.input + 1, n * sizeof *inputs);
        cz_proof_t proof;
        cz_g16_timings_t t;
        double t1 = cz_bench_now();
        rc = cz_g16_prove(ctx, be, params, &w, NULL, NULL, &proof, &t);
        double total = synth + (cz_bench_now() - t1);
        if (rc == CZ_OK && iters > 1) { /* each region's parts (the first: params uploaded) */
            double parts = t.setup + t.upload + t.ntt + t.msm_h + t.prep_wait + t.msm_l + t.msm_a +
                           t.msm_b1 + t.msm_b2;
            fprintf(stderr,
                    "iteration %zu%s: device %.1f ms = set-up %.1f + params upload "
                    "%.1f + NTT/H %.1f + MSM h %.1f + prep wait %.1f + l %.1f + a %.1f + b_g1 "
                    "%.1f + b_g2 %.1f + not in a stage %.1f (ms)\n",
                    it + 1, it == 0 ? " (cold)" : "", t.device * 1e3, t.setup * 1e3, t.upload * 1e3,
                    t.ntt * 1e3, t.msm_h * 1e3, t.prep_wait * 1e3, t.msm_l * 1e3, t.msm_a * 1e3,
                    t.msm_b1 * 1e3, t.msm_b2 * 1e3, (t.device - parts) * 1e3);
            if (t.stream_wait > 0)
                fprintf(stderr,
                        "iteration %zu: the MSMs waited %.1f ms for streamed windows (MSM h %.1f, "
                        "the tails %.1f)\n",
                        it + 1, t.stream_wait * 1e3, t.stream_wait_h * 1e3,
                        (t.stream_wait - t.stream_wait_h) * 1e3);
        }
        if (rc == CZ_OK) { /* the backend's device-memory plan and its copies (CUDA) */
            cz_backend_report r;
            cz_backend_report_of(be, &r);
            if (r.plan[0])
                fprintf(stderr,
                        "iteration %zu: %s; params to the device %.2f GiB (%.1f ms "
                        "at 25 GB/s, %.1f at 50)\n",
                        it + 1, r.plan, (double)(r.h2d_bytes - h2d_before) / (1 << 30),
                        (double)(r.h2d_bytes - h2d_before) / 25e6,
                        (double)(r.h2d_bytes - h2d_before) / 50e6);
            if (r.pinned)
                fprintf(stderr,
                        "iteration %zu: %llu partitions' a and b pinned in place so far (this "
                        "one's staging %.1f ms, before the region)\n",
                        it + 1, r.pinned, t.stage * 1e3);
            if (r.splits_in_region)
                fprintf(stderr,
                        "iteration %zu: %llu splits put on the device by the regions so far\n",
                        it + 1, r.splits_in_region);
            if (r.windows_ahead)
                fprintf(stderr,
                        "iteration %zu: %llu streamed vectors' first windows copied ahead so far\n",
                        it + 1, r.windows_ahead);
            h2d_before = r.h2d_bytes;
        }
        if (rc == CZ_OK && pvk && (rc = cz_verify(ctx, pvk, &proof, inputs, n)) != CZ_OK)
            cz_fail(ctx, rc, "the proof does not verify");
        free(inputs);
        if (rc == CZ_OK && (*best_total < 0 || total < *best_total)) {
            *best_total = total;
            *best = t;
            *best_synth = synth;
        }
    }
    return rc;
}

int cz_bench_prove(int argc, char **argv)
{
    bprove_opts_t o;
    int p = cz_opts_parse(&BPROVE_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    const char *circuit_id = o.circuit, *params_path = o.params, *backend = o.backend;
    size_t threads = o.threads, iters = o.iters, device = o.device;
    bool json = o.json, random_params = o.random_params, dry_run = o.dry_run;

    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, (unsigned)threads))
        return CZ_EXIT_FAIL;
    cz_circuit_t circuit;
    cz_params_t *params = NULL;
    cz_backend_t *be = NULL;
    cz_pvk_t *pvk = NULL;
    cz_params_shape_t shape;
    size_t rows = 0;
    int rc = CZ_OK;
    if (!dry_run) /* first: fail before setup */
        rc = cz_backend_new_opts(ctx, &be, backend, (int)device,
                                 &(cz_cuda_backend_opts_t){
                                     .device_mem_limit = o.device_mem_limit,
                                     .h_on_cpu = o.h_on_cpu,
                                     .no_splits_in_region = o.no_splits_in_region,
                                     .no_pin_ab = o.no_pin_ab });
    if (rc == CZ_OK)
        rc = cz_circuit_parse(ctx, circuit_id, &circuit);
    if (rc == CZ_OK && (dry_run || random_params)) {
        rc = circuit_params_shape(ctx, &circuit, &shape, &rows);
        if (rc == CZ_OK && (dry_run || !json))
            print_shape(circuit_id, &shape, rows, json);
    }
    double params_s = cz_bench_now();
    if (rc == CZ_OK && !dry_run)
        rc = make_params(ctx, &params, &circuit, params_path, random_params ? &shape : NULL);
    params_s = cz_bench_now() - params_s;
    if (rc == CZ_OK && random_params && !dry_run && !json)
        printf("random params (timing only, proofs do not verify) in %.1f s\n", params_s);
    if (rc == CZ_OK && params && !random_params)
        rc = cz_pvk_new(ctx, &pvk, &params->vk);
    cz_g16_timings_t best = { 0 };
    double best_total = -1, best_synth = 0;
    if (rc == CZ_OK && params)
        rc = prove_best(ctx, be, params, pvk, &circuit, iters, &best, &best_synth, &best_total);
    if (rc == CZ_OK && params) {
        const double ms = 1e3;
        unsigned width = cz_pool_width(cz_ctx_pool(ctx));
        const char *kind = params_path ? "file" : random_params ? "random" : "test";
        if (json)
            printf(
                "{\"bench\":\"prove\",\"circuit\":\"%s\",\"backend\":\"%s\",\"device\":%d,"
                "\"threads\":%u,\"params\":\"%s\",\"synthesis_ms\":%.2f,"
                "\"prep_ms\":%.2f,\"stage_ms\":%.2f,\"ntt_h_ms\":%.2f,\"msm_h_ms\":%.2f,\"prep_wait_ms\":%.2f,"
                "\"msm_l_ms\":%.2f,\"msm_a_ms\":%.2f,\"msm_b_g1_ms\":%.2f,\"msm_b_g2_ms\":%.2f,"
                "\"assembly_ms\":%.2f,\"device_ms\":%.2f,\"total_ms\":%.2f,\"verified\":%s}\n",
                circuit_id, be->ops->name, be->device_index, width, kind, best_synth * ms,
                best.prep * ms, best.stage * ms, best.ntt * ms, best.msm_h * ms,
                best.prep_wait * ms, best.msm_l * ms, best.msm_a * ms, best.msm_b1 * ms,
                best.msm_b2 * ms, best.assembly * ms, best.device * ms, best_total * ms,
                pvk ? "true" : "false");
        else
            printf("%s on %u threads (%s backend, device %d), best of %zu:\n"
                   "  synthesis %9.1f ms\n  prep      %9.1f ms\n"
                   "  stage     %9.1f ms (a, b into the backend's upload memory; no lock)\n"
                   "  NTT/H     %9.1f ms\n"
                   "  MSM h     %9.1f ms\n  prep wait %9.1f ms\n  MSM l     %9.1f ms\n"
                   "  MSM a     %9.1f ms\n  MSM b_g1  %9.1f ms\n  MSM b_g2  %9.1f ms\n"
                   "  assembly  %9.1f ms\n"
                   "  device    %9.1f ms (device region: the device lock's hold time)\n"
                   "  total     %9.1f ms (%s)\n",
                   circuit_id, width, be->ops->name, be->device_index, iters, best_synth * ms,
                   best.prep * ms, best.stage * ms, best.ntt * ms, best.msm_h * ms,
                   best.prep_wait * ms, best.msm_l * ms, best.msm_a * ms, best.msm_b1 * ms,
                   best.msm_b2 * ms, best.assembly * ms, best.device * ms, best_total * ms,
                   pvk ? "proof verified" : "timing only: random params, proof not verified");
    }
    if (rc)
        fprintf(stderr, "cuzk bench prove: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    cz_pvk_free(pvk);
    cz_backend_free(be);
    cz_params_free(params);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}
