/*
 * bench/bench_msm.c — `cuzk bench msm`: cuzk's MSM against one
 * single-threaded blst Pippenger call, same process, same input.
 *
 * The cuzk side is cz_gX_msm_auto (classification included in its time), so
 * the `filecoin` mix measures the split path end to end; --parts times its
 * three parts (split, batch addition of the ones, tail MSM) one by one.
 * --engine forces the tile engine (ec/affine.h) to compare them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "ec/affine.h"
#include "ec/group.h"
#include "ec/msm.h"
#include "ff/fr.h"

typedef struct {
    unsigned log_n;
    int g2;
    int filecoin;
    unsigned threads; /* 0 = all cores */
    int iters;
    int json;
    int cuda;     /* --backend cuda: the device MSM (bench_cuda.c) */
    int baseline; /* --baseline: force the CPU baseline of the cuda bench */
    int engine;   /* --engine: cz__msm_engine (0 = auto) */
    int parts;    /* --parts: time split, ones, tail separately */
} msm_opts;

typedef struct {
    size_t log_n, threads, iters;
    const char *mix, *backend, *engine;
    bool g2, json, baseline, parts;
} msm_args;

static const char *const MIXES[] = { "random", "filecoin", NULL };
static const char *const CPU_CUDA[] = { "cpu", "cuda", NULL };
static const char *const ENGINES[] = { "auto", "xyzz", "blst", "ifma", NULL };

static const cz_opt MSM_OPTS[] = {
    { "log-n", 0, CZ_O_SIZE(msm_args, log_n), .max = 28, .def = "16", .help = "2^N points" },
    { "mix", 0, CZ_O_ENUM(msm_args, mix), .values = MIXES, .def = "random",
      .help = "filecoin: 50% zeros, 45% ones, 5% random 255-bit scalars" },
    { "g2", 0, CZ_O_FLAG(msm_args, g2), .help = "G2 instead of G1" },
    CZ_OPT_THREADS(msm_args, threads),
    { "iters", 0, CZ_O_SIZE(msm_args, iters), .min = 1, .max = 1000, .def = "3", .arg = "K",
      .help = "best of K" },
    CZ_OPT_JSON(msm_args, json, "one JSON line"),
    { "backend", 0, CZ_O_ENUM(msm_args, backend), .values = CPU_CUDA, .def = "cpu",
      .help = "cuda: the GPU MSM, bases resident, against the CPU MSM on all cores" },
    { "baseline", 0, CZ_O_FLAG(msm_args, baseline),
      .help = "cuda: the CPU baseline also above N = 22" },
    { "engine", 0, CZ_O_ENUM(msm_args, engine), .values = ENGINES, .def = "auto",
      .help = "the CPU tile engine: xyzz (blst's tile), blst (batched affine), ifma (AVX-512)" },
    { "parts", 0, CZ_O_FLAG(msm_args, parts),
      .help = "also time the split MSM's parts (split, ones, tail) one by one" },
};
static const cz_opts_spec MSM_SPEC = {
    .cmd = "cuzk bench msm",
    .usage = "usage: cuzk bench msm --log-n N [--mix random|filecoin] [--g2] [--threads T]\n"
             "                      [--iters K] [--json] [--backend cpu|cuda [--baseline]]\n"
             "                      [--engine auto|xyzz|blst|ifma] [--parts]\n",
    .about = "  Times cuzk's multi-threaded MSM (best of K) against one single-threaded blst\n"
             "  Pippenger call on the same bases and scalars.\n",
    CZ_OPTS(MSM_OPTS),
};

static int parse(int argc, char **argv, msm_opts *o)
{
    msm_args a;
    int rc = cz_opts_parse(&MSM_SPEC, &a, argc, argv, NULL);
    if (rc != CZ_OPTS_RUN)
        return rc;
    const char *e = a.engine;
    *o = (msm_opts){ .log_n = (unsigned)a.log_n,
                     .g2 = a.g2,
                     .filecoin = !strcmp(a.mix, "filecoin"),
                     .threads = (unsigned)a.threads,
                     .iters = (int)a.iters,
                     .json = a.json,
                     .cuda = !strcmp(a.backend, "cuda"),
                     .baseline = a.baseline,
                     .engine = !strcmp(e, "xyzz")   ? CZ__MSM_XYZZ
                               : !strcmp(e, "blst") ? CZ__MSM_BLST
                               : !strcmp(e, "ifma") ? CZ__MSM_IFMA
                                                    : CZ__MSM_AUTO,
                     .parts = a.parts };
    return CZ_OPTS_RUN;
}

static void make_scalars(blst_scalar *s, size_t n, int filecoin)
{
    cz_rng rng;
    cz_rng_seed(&rng, 42);
    for (size_t i = 0; i < n; i++) {
        cz_fr f = CZ_FR_ZERO;
        uint64_t pick = cz_rng_next(&rng) % 100;
        if (!filecoin || pick >= 95)
            cz_fr_random_rng(&f, &rng);
        else if (pick >= 50)
            f = CZ_FR_ONE;
        cz_fr_to_scalar(&s[i], &f);
    }
}

/* best-of-K times of the split MSM's parts: classification, ones, tail */
static void time_parts(cz_ctx_t *ctx, const cz_group *g, const void *bases, const blst_scalar *s,
                       size_t n, int iters, double t[3], size_t counts[2])
{
    blst_p2 out;
    t[0] = t[1] = t[2] = -1;
    for (int i = 0; i < iters; i++) {
        cz_scalar_split sp;
        double t0 = cz_bench_now();
        if (cz_scalar_split_build(ctx, &sp, s, n) != CZ_OK)
            return;
        double t1 = cz_bench_now();
        if (g == &CZ_G1)
            cz_g1_batch_add(ctx, (blst_p1 *)&out, bases, sp.ones, sp.n);
        else
            cz_g2_batch_add(ctx, &out, bases, sp.ones, sp.n);
        double t2 = cz_bench_now();
        if (g == &CZ_G1)
            cz_g1_msm_gather(ctx, (blst_p1 *)&out, bases, sp.sig_index, sp.sig_scalar, sp.n_sig,
                             sp.sig_bits);
        else
            cz_g2_msm_gather(ctx, &out, bases, sp.sig_index, sp.sig_scalar, sp.n_sig, sp.sig_bits);
        double t3 = cz_bench_now(), d[3] = { t1 - t0, t2 - t1, t3 - t2 };
        for (int k = 0; k < 3; k++)
            if (t[k] < 0 || d[k] < t[k])
                t[k] = d[k];
        counts[0] = sp.n_ones;
        counts[1] = sp.n_sig;
        cz_scalar_split_free(&sp);
    }
}

static double time_blst(const cz_group *g, void *out, const void *bases, const blst_scalar *s,
                        size_t n)
{
    size_t scratch_size = g == &CZ_G1 ? blst_p1s_mult_pippenger_scratch_sizeof(n)
                                      : blst_p2s_mult_pippenger_scratch_sizeof(n);
    void *scratch = malloc(scratch_size);
    const void *pts[2] = { bases, NULL };
    const uint8_t *sc[2] = { s[0].b, NULL };
    double t0 = cz_bench_now();
    if (g == &CZ_G1)
        blst_p1s_mult_pippenger(out, (const blst_p1_affine *const *)pts, n, sc, 255, scratch);
    else
        blst_p2s_mult_pippenger(out, (const blst_p2_affine *const *)pts, n, sc, 255, scratch);
    double t = cz_bench_now() - t0;
    free(scratch);
    return t;
}

int cz_bench_msm(int argc, char **argv)
{
    msm_opts o;
    int p = parse(argc, argv, &o);
    if (p != CZ_OPTS_RUN)
        return p;
    if (o.cuda) {
#ifdef CUZK_HAVE_CUDA
        return cz_bench_msm_cuda(o.log_n, o.g2, o.filecoin, o.iters, o.baseline || o.log_n <= 22,
                                 o.json);
#else
        fprintf(stderr, "cuzk bench msm: this build has no CUDA backend\n");
        return CZ_EXIT_FAIL;
#endif
    }
    const cz_group *g = o.g2 ? &CZ_G2 : &CZ_G1;
    size_t n = (size_t)1 << o.log_n;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, o.threads) != CZ_OK) {
        fprintf(stderr, "cuzk bench msm: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    void *bases = malloc(n * g->affine_size);
    blst_scalar *s = malloc(n * sizeof *s);
    if (!bases || !s) {
        fprintf(stderr, "cuzk bench msm: cannot allocate 2^%u points\n", o.log_n);
        return CZ_EXIT_FAIL;
    }
    cz_group_random_affine(g, bases, n, 1);
    make_scalars(s, n, o.filecoin);

    blst_p2 want, got;
    cz__msm_force_engine(ctx, (cz__msm_engine)o.engine);
    double base_s = time_blst(g, &want, bases, s, n), best = -1;
    int rc = CZ_OK;
    for (int i = 0; i < o.iters && rc == CZ_OK; i++) {
        double t0 = cz_bench_now();
        rc = o.g2 ? cz_g2_msm_auto(ctx, (blst_p2 *)&got, bases, s, n)
                  : cz_g1_msm_auto(ctx, (blst_p1 *)&got, bases, s, n);
        double t = cz_bench_now() - t0;
        if (best < 0 || t < best)
            best = t;
    }
    int same = o.g2 ? blst_p2_is_equal(&want, &got)
                    : blst_p1_is_equal((blst_p1 *)&want, (blst_p1 *)&got);
    if (rc != CZ_OK || !same) {
        fprintf(stderr, "cuzk bench msm: %s\n",
                rc ? cz_ctx_message(ctx) : "result differs from blst (bug)");
        rc = rc ? rc : CZ_EINTERNAL;
    } else {
        unsigned threads = cz_pool_width(cz_ctx_pool(ctx));
        const char *mix = o.filecoin ? "filecoin" : "random";
        if (o.json)
            printf("{\"bench\":\"msm\",\"group\":\"%s\",\"mix\":\"%s\",\"n\":%zu,\"log_n\":%u,"
                   "\"threads\":%u,\"ms\":%.3f,\"baseline_ms\":%.3f,\"ns_per_point\":%.1f,"
                   "\"baseline_ns_per_point\":%.1f,\"speedup\":%.2f,\"peak_rss_bytes\":%zu}\n",
                   g->name, mix, n, o.log_n, threads, best * 1e3, base_s * 1e3,
                   best * 1e9 / (double)n, base_s * 1e9 / (double)n, base_s / best,
                   cz_bench_peak_rss());
        else
            printf("%s MSM 2^%u (%s): cuzk %u threads %.1f ms (%.1f ns/point), "
                   "blst 1 thread %.1f ms (%.1f ns/point), speedup %.2fx\n",
                   g->name, o.log_n, mix, threads, best * 1e3, best * 1e9 / (double)n, base_s * 1e3,
                   base_s * 1e9 / (double)n, base_s / best);
        if (o.parts) {
            double t[3];
            size_t counts[2] = { 0, 0 };
            time_parts(ctx, g, bases, s, n, o.iters, t, counts);
            printf("%s MSM 2^%u (%s) parts, best of %d: split %.1f ms, ones %.1f ms (%zu), "
                   "tail %.1f ms (%zu)\n",
                   g->name, o.log_n, mix, o.iters, t[0] * 1e3, t[1] * 1e3, counts[0], t[2] * 1e3,
                   counts[1]);
        }
    }
    free(bases);
    free(s);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}
