/*
 * bench/bench_msm.c — `cuzk bench msm`: cuzk's MSM against one
 * single-threaded blst Pippenger call, same process, same input.
 *
 * The cuzk side is cz_gX_msm_auto (classification included in its time), so
 * the `filecoin` mix measures the split path end to end; --parts times its
 * three parts (split, batch addition of the ones, tail MSM) one by one.
 * --engine forces the tile engine (ec/affine.h) to compare them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cli/cli.h"
#include "ec/affine.h"
#include "ec/group.h"
#include "ec/msm.h"
#include "ff/fr.h"

typedef struct {
    unsigned log_n;
    int g2;
    int filecoin;
    unsigned threads;   /* 0 = all cores */
    int iters;
    int json;
    int cuda;           /* --backend cuda: the device MSM (bench_cuda.c) */
    int baseline;       /* --baseline: force the CPU baseline of the cuda bench */
    int engine;         /* --engine: cz__msm_engine (0 = auto) */
    int parts;          /* --parts: time split, ones, tail separately */
} msm_opts;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk bench msm --log-n N [--mix random|filecoin] [--g2] [--threads T]\n"
            "                      [--iters K] [--json] [--backend cpu|cuda [--baseline]]\n"
            "                      [--engine auto|xyzz|blst|ifma] [--parts]\n"
            "  Times cuzk's multi-threaded MSM (best of K, default 3) against one\n"
            "  single-threaded blst Pippenger call on the same bases and scalars.\n"
            "  filecoin mix: 50%% zeros, 45%% ones, 5%% random 255-bit scalars.\n"
            "  --backend cuda: the GPU MSM with bases resident on the device, against\n"
            "  the CPU MSM on all cores (for N <= 22, or with --baseline).\n"
            "  --engine: the CPU tile engine (xyzz: blst's tile; blst: batched affine on\n"
            "  blst's field arithmetic; ifma: batched affine, AVX-512 IFMA, G1).\n"
            "  --parts: also time the split MSM's parts (split, ones, tail) one by one.\n");
}

static int parse(int argc, char **argv, msm_opts *o)
{
    static const struct option longopts[] = {
        { "log-n", required_argument, 0, 'n' }, { "mix", required_argument, 0, 'm' },
        { "g2", no_argument, 0, '2' },          { "threads", required_argument, 0, 't' },
        { "iters", required_argument, 0, 'i' }, { "json", no_argument, 0, 'j' },
        { "backend", required_argument, 0, 'b' }, { "baseline", no_argument, 0, 'B' },
        { "engine", required_argument, 0, 'e' },  { "parts", no_argument, 0, 'p' },
        { "help", no_argument, 0, 'h' },        { 0, 0, 0, 0 },
    };
    *o = (msm_opts){ .log_n = 16, .iters = 3 };
    int c;
    size_t v;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (!cz_cli_parse_size(optarg, &v) || v > 28) return -1;
            o->log_n = (unsigned)v;
            break;
        case 'm':
            if (!strcmp(optarg, "filecoin")) o->filecoin = 1;
            else if (strcmp(optarg, "random")) return -1;
            break;
        case '2': o->g2 = 1; break;
        case 't':
            if (!cz_cli_parse_size(optarg, &v) || v > 4096) return -1;
            o->threads = (unsigned)v;
            break;
        case 'i':
            if (!cz_cli_parse_size(optarg, &v) || v < 1 || v > 1000) return -1;
            o->iters = (int)v;
            break;
        case 'j': o->json = 1; break;
        case 'b':
            if (!strcmp(optarg, "cuda")) o->cuda = 1;
            else if (strcmp(optarg, "cpu")) return -1;
            break;
        case 'B': o->baseline = 1; break;
        case 'e':
            if (!strcmp(optarg, "auto")) o->engine = CZ__MSM_AUTO;
            else if (!strcmp(optarg, "xyzz")) o->engine = CZ__MSM_XYZZ;
            else if (!strcmp(optarg, "blst")) o->engine = CZ__MSM_BLST;
            else if (!strcmp(optarg, "ifma")) o->engine = CZ__MSM_IFMA;
            else return -1;
            break;
        case 'p': o->parts = 1; break;
        case 'h': usage(stdout); return 1;
        default: return -1;
        }
    }
    return optind == argc ? 0 : -1;
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
static void time_parts(cz_ctx_t *ctx, const cz_group *g, const void *bases,
                       const blst_scalar *s, size_t n, int iters, double t[3], size_t counts[2])
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
            cz_g2_msm_gather(ctx, &out, bases, sp.sig_index, sp.sig_scalar, sp.n_sig,
                             sp.sig_bits);
        double t3 = cz_bench_now(), d[3] = { t1 - t0, t2 - t1, t3 - t2 };
        for (int k = 0; k < 3; k++)
            if (t[k] < 0 || d[k] < t[k])
                t[k] = d[k];
        counts[0] = sp.n_ones;
        counts[1] = sp.n_sig;
        cz_scalar_split_free(&sp);
    }
}

static double time_blst(const cz_group *g, void *out, const void *bases,
                        const blst_scalar *s, size_t n)
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
    if (p)
        return p > 0 ? CZ_EXIT_OK : (usage(stderr), CZ_EXIT_USAGE);
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
    int same = o.g2 ? blst_p2_is_equal(&want, &got) : blst_p1_is_equal((blst_p1 *)&want, (blst_p1 *)&got);
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
                   g->name, o.log_n, mix, threads, best * 1e3, best * 1e9 / (double)n,
                   base_s * 1e3, base_s * 1e9 / (double)n, base_s / best);
        if (o.parts) {
            double t[3];
            size_t counts[2] = { 0, 0 };
            time_parts(ctx, g, bases, s, n, o.iters, t, counts);
            printf("%s MSM 2^%u (%s) parts, best of %d: split %.1f ms, ones %.1f ms (%zu), "
                   "tail %.1f ms (%zu)\n", g->name, o.log_n, mix, o.iters, t[0] * 1e3,
                   t[1] * 1e3, counts[0], t[2] * 1e3, counts[1]);
        }
    }
    free(bases);
    free(s);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}
