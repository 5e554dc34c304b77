/*
 * bench/bench.h — benchmarks behind `cuzk bench ...`.
 *
 * Every benchmark measures a ratio against a baseline run in the same
 * process on the same input (these machines are noisy; absolute times are
 * reported but the ratio is the claim). Results go to stdout as text, or as
 * one JSON object per line with --json.
 *
 * Layering: the benchmarks are commands of the `cuzk` tool over cli/'s
 * options table and helpers (cli/cli.h, cli/options.h); cli/ includes no
 * bench/ header (cmd_bench and CZ_BENCH_NAMES are declared in cli/cli.h).
 */
#ifndef CUZK_BENCH_H
#define CUZK_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int cz_bench_msm(int argc, char **argv);
int cz_bench_ntt(int argc, char **argv);
int cz_bench_pipeline(int argc, char **argv);
int cz_bench_prove(int argc, char **argv);
/* `cuzk bench mixed`: another kind's job during a PoRep backlog, through cuzk.h
 * (bench_mixed.c). */
int cz_bench_mixed(int argc, char **argv);
int cz_bench_poseidon(int argc, char **argv);
/* PoRep C2 partition synthesis, direct vs general path (bench_synth.c). */
int cz_bench_synth(int argc, char **argv);
/* SnapDeals update partition synthesis, T threads vs 1 (bench_snap_synth.c). */
int cz_bench_snap_synth(int argc, char **argv);
/* `cuzk bench pin [--gib G]` (bench_cuda.c, CUDA builds only). */
int cz_bench_pin(int argc, char **argv);
/* `cuzk bench fmul [--iters K]`: CIOS vs FP64-limb Montgomery products on the
 * device (bench_cuda.c, CUDA builds only). */
int cz_bench_fmul(int argc, char **argv);
/* `cuzk bench affine [--log-n N] [--iters K]`: one G1 addition, XYZZ vs batch-affine
 * (bench_cuda.c, CUDA builds only). */
int cz_bench_affine(int argc, char **argv);
/* The GPU NTT benchmark behind `cuzk bench ntt --backend cuda` (bench_cuda.c,
 * CUDA builds only). Returns the exit code. */
int cz_bench_ntt_cuda(unsigned log_n, int iters, bool json);
/* `cuzk bench msm --backend cuda`: the device MSM, bases resident, against the
 * CPU MSM on all cores when |baseline| (bench_cuda.c, CUDA builds only). */
int cz_bench_msm_cuda(unsigned log_n, int g2, int filecoin, int iters, bool baseline, bool json);
/* `cuzk bench h`: the H pipeline on the GPU incl. uploads, CPU H as baseline
 * (bench_cuda.c, CUDA builds only). */
int cz_bench_h(int argc, char **argv);

/* Monotonic clock in seconds. */
double cz_bench_now(void);
/* |bytes| as "12.34 GiB" or "56.7 MiB" into buf[0..len); returns buf. */
const char *cz_bench_fmt_bytes(char *buf, size_t len, size_t bytes);
/* Peak resident set size of this process in bytes (0 if unknown). */
size_t cz_bench_peak_rss(void);

#endif /* CUZK_BENCH_H */
