/*
 * bench/bench.c — `cuzk bench` dispatch and shared helpers.
 */
#include "core/clock.h"
#include "bench/bench.h"

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "cli/cli.h"

double cz_bench_now(void)
{
    return cz_mono_s();
}

size_t cz_bench_peak_rss(void)
{
    return cz_cli_peak_rss();
}

static const cz_cli_command benches[] = {
    { "pipeline", cz_bench_pipeline, "the engine end to end, per workers-per-device count" },
    { "mixed", cz_bench_mixed, "a WindowPoSt (or other kind) job during a PoRep backlog" },
    { "prove", cz_bench_prove, "one proof (--backend cpu|cuda|auto), time per stage" },
    { "msm", cz_bench_msm, "G1/G2 MSM vs single-threaded blst Pippenger" },
    { "ntt", cz_bench_ntt, "forward NTT over Fr: T threads vs 1 thread" },
    { "poseidon", cz_bench_poseidon, "batch Poseidon hashing: T threads vs 1 thread" },
    { "synth", cz_bench_synth, "PoRep C2 partition synthesis: direct vs general path" },
    { "snap-synth", cz_bench_snap_synth, "SnapDeals partition synthesis: T threads vs 1 thread" },
#ifdef CUZK_HAVE_CUDA
    { "h", cz_bench_h, "H (NTTs of a, b, c) on the GPU incl. uploads vs the CPU H" },
    { "pin", cz_bench_pin, "pinning 8 GiB of host memory: registered hugepages vs cudaMallocHost" },
    { "fmul", cz_bench_fmul, "Montgomery products on the GPU: CIOS (IMAD) vs FP64 limbs vs both" },
    { "affine", cz_bench_affine,
      "one G1 addition on the GPU: XYZZ vs batch-affine (shared inversion)" },
#endif


};

int cmd_bench(int argc, char **argv)
{
    return cz_cli_dispatch("cuzk bench", benches, sizeof benches / sizeof benches[0],
                           "usage: cuzk bench WHAT [OPTIONS]", argc, argv);
}

const char *cz_bench_fmt_bytes(char *buf, size_t len, size_t bytes)
{
    const double mib = 1024.0 * 1024.0;
    if (bytes >= ((size_t)1 << 30))
        snprintf(buf, len, "%.2f GiB", (double)bytes / (1024.0 * mib));
    else
        snprintf(buf, len, "%.1f MiB", (double)bytes / mib);
    return buf;
}
