/*
 * bench/bench_cuda.c — the GPU benchmarks (CUDA builds only):
 *   cuzk bench ntt --backend cuda --log-n N   (cz_bench_ntt_cuda, called by bench_ntt.c)
 *   cuzk bench h [--backend cuda|cpu] --log-n N [--iters K] [--json]
 *   cuzk bench msm --backend cuda --log-n N [--g2] [--mix M] (cz_bench_msm_cuda)
 *   cuzk bench fmul [--iters K]
 *   cuzk bench affine [--log-n N] [--iters K]
 *
 * NTT: the device-resident forward NTT (data already on the device) in the
 * natural->natural order (with its bit-reversal pass, as sppark's NN figure)
 * and natural->bit-reversed (no permutation), and the host round trip
 * (upload from pinned memory, NTT, download). Baseline: the CPU NTT on all
 * cores, same input, same process, for N <= 24; results must match.
 *
 * H: the device pipeline including the upload of a, b, c from pinned memory
 * (cz_cuda_h_compute, synchronous), with its event breakdown. Baseline: the
 * CPU H (backend/cpu/h.c) on all cores for N <= 22 (above that it would take
 * minutes); the two results must be equal bit for bit.
 *
 * MSM: bases resident on the device; scalars on the device (as the H MSM
 * reads them) and from host memory (as the tail MSMs upload them). Baseline:
 * the CPU MSM on all cores, same bases and scalars, for N <= 22 (or
 * --baseline); the results must be equal.
 *
 * PIN: 8 GiB (a 32GiB partition's a and b) of pinned host memory (--gib G, default 8:
 * a and b of a 2^27 partition) by cudaMallocHost (the baseline) and by
 * cz_cuda_pinned_alloc (hugepages faulted on 8 threads, then registered),
 * each while another thread times a 256 MiB cudaMalloc issued 50 ms after
 * the pinning began (does the pinning hold the device's allocations up?).
 * One run of each, baseline first.
 *
 * FMUL: Montgomery products, Fr and Fp, CIOS on the IMAD pipe (the
 * baseline) against 52-bit limbs on the FP64 pipe, the two side by side,
 * and each with one chain a thread: the same chains of products in every
 * launch, so all five results must match.
 *
 * AFFINE: one G1 addition, the MSM's lazy XYZZ mixed addition (the baseline)
 * against batch-affine with one inversion shared by a block (issue 37's
 * lever), on the same 2^N pairs of points in device memory; sampled sums
 * compared with blst's.
 *
 * Times are the best of K runs after one warm-up run.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/h.h"
#include "backend/cuda/cuda.h"
#include "bench/bench.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "core/pool.h"
#include "ec/group.h"
#include "ec/msm.h"
#include "ff/ntt.h"

#define GEN_CHUNK 65536u
#define NTT_BASELINE_MAX 24u
#define H_BASELINE_MAX 22u

typedef struct {
    cz_fr *v;
    uint64_t seed;
} gen_arg;

static void gen_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    gen_arg *g = arg;
    for (size_t c = begin; c < end; c++) {
        cz_rng rng;
        cz_rng_seed(&rng, g->seed * 1000003u + c);
        for (size_t i = c * GEN_CHUNK; i < (c + 1) * GEN_CHUNK; i++)
            cz_fr_random_rng(&g->v[i], &rng);
    }
}

/* Fill v[0 .. 2^log_n) with random elements, in parallel (deterministic). */
static void gen(cz_ctx_t *ctx, cz_fr *v, unsigned log_n, uint64_t seed)
{
    size_t n = (size_t)1 << log_n;
    if (n < GEN_CHUNK) {
        cz_rng rng;
        cz_rng_seed(&rng, seed);
        for (size_t i = 0; i < n; i++)
            cz_fr_random_rng(&v[i], &rng);
        return;
    }
    gen_arg g = { v, seed };
    cz_pool_for(cz_ctx_pool(ctx), n / GEN_CHUNK, 1, gen_chunk, &g);
}

static int fail(cz_ctx_t *ctx, const char *what)
{
    fprintf(stderr, "cuzk bench (cuda): %s: %s\n", what, ctx ? cz_ctx_message(ctx) : "");
    return CZ_EXIT_FAIL;
}

static int probe_or_fail(void)
{
    char why[256];
    if (cz_cuda_probe(why, sizeof why) != CZ_OK) {
        fprintf(stderr, "cuzk bench: CUDA backend unavailable: %s\n", why);
        return CZ_EXIT_FAIL;
    }
    fprintf(stderr, "device: %s\n", why);
    return CZ_EXIT_OK;
}

/* A context on GPU 0 for a benchmark, after the device check; CZ_EXIT_FAIL (said) if any fails. */
static int device0_ctx(cz_ctx_t **ctx)
{
    *ctx = NULL;
    if (probe_or_fail() != CZ_EXIT_OK || cz_ctx_new(ctx, NULL, 0))
        return CZ_EXIT_FAIL;
    if (cz_cuda_set_device(*ctx, 0) != CZ_OK) {
        fail(*ctx, "GPU 0");
        cz_ctx_free(*ctx);
        *ctx = NULL;
        return CZ_EXIT_FAIL;
    }
    return CZ_EXIT_OK;
}

/* ---- NTT ----------------------------------------------------------------- */

static int time_ntt(cz_ctx_t *ctx, const cz_cuda_ntt_domain *d, void *dv, cz_cuda_ntt_order order,
                    int iters, double *best)
{
    *best = -1;
    for (int i = 0; i <= iters; i++) { /* run 0 is the warm-up */
        double t0 = cz_bench_now();
        int rc = cz_cuda_ntt(ctx, d, dv, CZ_CUDA_NTT_FORWARD, order, NULL);
        if (rc == CZ_OK)
            rc = cz_cuda_sync(ctx);
        if (rc != CZ_OK)
            return rc;
        double t = cz_bench_now() - t0;
        if (i > 0 && (*best < 0 || t < *best))
            *best = t;
    }
    return CZ_OK;
}

int cz_bench_ntt_cuda(unsigned log_n, int iters, bool json)
{
    if (probe_or_fail() != CZ_EXIT_OK)
        return CZ_EXIT_FAIL;
    if (log_n < 1 || log_n > 28) {
        fprintf(stderr, "cuzk bench ntt: --log-n must be 1..28 for cuda\n");
        return CZ_EXIT_USAGE;
    }
    if (iters < 5)
        iters = 5;
    const size_t n = (size_t)1 << log_n, bytes = n * sizeof(cz_fr);
    cz_ctx_t *ctx = NULL;
    cz_cuda_ntt_domain *d = NULL;
    cz_fr *host = NULL, *check = NULL;
    void *dv = NULL;
    int ret = CZ_EXIT_FAIL;
    double nn = -1, nr = -1, trip = -1, cpu = -1;
    bool match = true;
    if (cz_ctx_new(&ctx, NULL, 0) != CZ_OK)
        return fail(NULL, "ctx");
    if (cz_cuda_host_alloc(ctx, (void **)&host, bytes) != CZ_OK ||
        cz_cuda_malloc(ctx, &dv, bytes) != CZ_OK ||
        cz_cuda_ntt_domain_new(ctx, &d, log_n) != CZ_OK) {
        fail(ctx, "setup");
        goto out;
    }
    gen(ctx, host, log_n, 42);
    if (cz_cuda_memcpy_htod(ctx, dv, host, bytes) != CZ_OK ||
        time_ntt(ctx, d, dv, CZ_CUDA_ORDER_NN, iters, &nn) != CZ_OK ||
        time_ntt(ctx, d, dv, CZ_CUDA_ORDER_NR, iters, &nr) != CZ_OK) {
        fail(ctx, "device-resident NTT");
        goto out;
    }
    /* Host round trip: pinned upload, NN forward, download (run 0 warms up). */
    for (int i = 0; i <= iters / 2; i++) {
        double t0 = cz_bench_now();
        if (cz_cuda_memcpy_htod(ctx, dv, host, bytes) != CZ_OK ||
            cz_cuda_ntt(ctx, d, dv, CZ_CUDA_NTT_FORWARD, CZ_CUDA_ORDER_NN, NULL) != CZ_OK ||
            cz_cuda_memcpy_dtoh(ctx, host, dv, bytes) != CZ_OK) {
            fail(ctx, "round trip");
            goto out;
        }
        double t = cz_bench_now() - t0;
        gen(ctx, host, log_n, 42); /* restore the input (untimed) */
        if (i > 0 && (trip < 0 || t < trip))
            trip = t;
    }
    /* Baseline and check: the CPU NTT of the same input. */
    if (log_n <= NTT_BASELINE_MAX) {
        cz_ntt_domain *cd = NULL;
        check = malloc(bytes);
        if (!check || cz_ntt_domain_new(ctx, &cd, log_n) != CZ_OK) {
            fail(ctx, "cpu baseline");
            goto out;
        }
        memcpy(check, host, bytes);
        double t0 = cz_bench_now();
        int rc = cz_ntt_forward(ctx, cd, check);
        cpu = cz_bench_now() - t0;
        cz_ntt_domain_free(cd);
        if (rc != CZ_OK || cz_cuda_memcpy_htod(ctx, dv, host, bytes) != CZ_OK ||
            cz_cuda_ntt(ctx, d, dv, CZ_CUDA_NTT_FORWARD, CZ_CUDA_ORDER_NN, NULL) != CZ_OK ||
            cz_cuda_memcpy_dtoh(ctx, host, dv, bytes) != CZ_OK) {
            fail(ctx, "check");
            goto out;
        }
        match = memcmp(host, check, bytes) == 0;
    }
    unsigned threads = cz_pool_width(cz_ctx_pool(ctx));
    if (json)
        printf("{\"bench\":\"ntt\",\"backend\":\"cuda\",\"n\":%zu,\"log_n\":%u,\"iters\":%d,"
               "\"device_nn_ms\":%.3f,\"device_nr_ms\":%.3f,\"round_trip_ms\":%.3f,"
               "\"baseline_cpu_ms\":%.3f,\"baseline_threads\":%u,\"speedup\":%.2f,\"match\":%s}\n",
               n, log_n, iters, nn * 1e3, nr * 1e3, trip * 1e3, cpu * 1e3, threads,
               cpu > 0 ? cpu / nn : 0.0, match ? "true" : "false");
    else {
        printf("NTT 2^%u forward (cuda, best of %d): device-resident NN %.2f ms, NR %.2f ms; "
               "host round trip %.1f ms",
               log_n, iters, nn * 1e3, nr * 1e3, trip * 1e3);
        if (cpu > 0)
            printf("; cpu %u threads %.1f ms, speedup %.1fx, results %s", threads, cpu * 1e3,
                   cpu / nn, match ? "equal" : "DIFFER");
        printf("\n");
    }
    ret = match ? CZ_EXIT_OK : CZ_EXIT_FAIL;
out:
    free(check);
    cz_cuda_ntt_domain_free(d);
    cz_cuda_free(dv);
    cz_cuda_host_free(host);
    cz_ctx_free(ctx);
    return ret;
}

/* ---- H ------------------------------------------------------------------- */

typedef struct {
    size_t log_n, iters;
    const char *backend;
    bool json;
} h_opts_t;

static const char *const CUDA_CPU[] = { "cuda", "cpu", NULL };

static const cz_opt H_OPTS[] = {
    { "log-n", 0, CZ_O_SIZE(h_opts_t, log_n), .min = 1, .max = 28, .def = "20",
      .help = "a 2^N domain" },
    { "backend", 0, CZ_O_ENUM(h_opts_t, backend), .values = CUDA_CPU, .def = "cuda",
      .help = "cuda: includes the upload of a, b, c from pinned memory" },
    { "iters", 0, CZ_O_SIZE(h_opts_t, iters), .min = 1, .max = 1000, .def = "3", .arg = "K",
      .help = "best of K runs" },
    CZ_OPT_JSON(h_opts_t, json, "one JSON line"),
};
static const cz_opts_spec H_SPEC = {
    .cmd = "cuzk bench h",
    .usage = "usage: cuzk bench h --log-n N [--backend cuda|cpu] [--iters K] [--json]\n",
    .about = "  The H computation (iNTT, coset NTT, a*b-c, inverse coset NTT) of a 2^N\n"
             "  domain on random a, b, c; the baseline is the CPU H in this process for\n"
             "  N <= 22 (results must match).\n",
    CZ_OPTS(H_OPTS),
};

static int cpu_h(cz_ctx_t *ctx, unsigned log_n, const cz_fr *a, const cz_fr *b, const cz_fr *c,
                 cz_fr *out, int iters, double *best)
{
    size_t m = (size_t)1 << log_n, bytes = m * sizeof(cz_fr);
    cz_ntt_domain *d = NULL;
    cz_fr *wb = malloc(bytes), *wc = malloc(bytes);
    int rc = wb && wc ? cz_ntt_domain_new(ctx, &d, log_n) : CZ_ENOMEM;
    *best = -1;
    for (int i = 0; i < iters && rc == CZ_OK; i++) {
        memcpy(out, a, bytes);
        memcpy(wb, b, bytes);
        memcpy(wc, c, bytes);
        double t0 = cz_bench_now();
        rc = cz_cpu_compute_h(ctx, d, out, wb, wc, m);
        double t = cz_bench_now() - t0;
        if (*best < 0 || t < *best)
            *best = t;
    }
    cz_ntt_domain_free(d);
    free(wb);
    free(wc);
    return rc;
}

int cz_bench_h(int argc, char **argv)
{
    h_opts_t o;
    int p = cz_opts_parse(&H_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    unsigned log_n = (unsigned)o.log_n;
    int iters = (int)o.iters;
    bool json = o.json, cuda = !strcmp(o.backend, "cuda");
    if (cuda && probe_or_fail() != CZ_EXIT_OK)
        return CZ_EXIT_FAIL;
    const size_t m = (size_t)1 << log_n, bytes = m * sizeof(cz_fr);
    cz_ctx_t *ctx = NULL;
    cz_cuda_h *gh = NULL;
    cz_fr *in[3] = { NULL, NULL, NULL }, *got = NULL, *want = NULL;
    int ret = CZ_EXIT_FAIL;
    double gpu = -1, cpu = -1;
    cz_cuda_h_times best_t;
    memset(&best_t, 0, sizeof best_t);
    bool match = true;
    if (cz_ctx_new(&ctx, NULL, 0) != CZ_OK)
        return fail(NULL, "ctx");
    for (int i = 0; i < 3; i++) {
        int rc = cuda ? cz_cuda_host_alloc(ctx, (void **)&in[i], bytes)
                      : ((in[i] = malloc(bytes)) ? CZ_OK : CZ_ENOMEM);
        if (rc != CZ_OK) {
            fail(ctx, "input allocation");
            goto out;
        }
        gen(ctx, in[i], log_n, 7 + (uint64_t)i);
    }
    if (cuda) {
        if (cz_cuda_h_new(ctx, &gh, 0, log_n) != CZ_OK) {
            fail(ctx, "cz_cuda_h_new");
            goto out;
        }
        for (int i = 0; i <= iters; i++) { /* run 0 is the warm-up */
            if (cz_cuda_h_compute(ctx, gh, in[0], in[1], in[2], m, log_n) != CZ_OK) {
                fail(ctx, "cz_cuda_h_compute");
                goto out;
            }
            cz_cuda_h_times t;
            cz_cuda_h_last_times(gh, &t);
            if (i > 0 && (gpu < 0 || t.total * 1e-3 < gpu)) {
                gpu = t.total * 1e-3;
                best_t = t;
            }
        }
    }
    if (!cuda || log_n <= H_BASELINE_MAX) {
        want = malloc(bytes);
        if (!want ||
            cpu_h(ctx, log_n, in[0], in[1], in[2], want, cuda ? 1 : iters, &cpu) != CZ_OK) {
            fail(ctx, "cpu h");
            goto out;
        }
        if (cuda) {
            got = malloc(bytes);
            if (!got || cz_cuda_h_download(ctx, gh, got, m) != CZ_OK) {
                fail(ctx, "download");
                goto out;
            }
            match = memcmp(got, want, bytes) == 0;
        }
    }
    unsigned threads = cz_pool_width(cz_ctx_pool(ctx));
    if (json) {
        printf("{\"bench\":\"h\",\"backend\":\"%s\",\"n\":%zu,\"log_n\":%u,\"iters\":%d,"
               "\"ms\":%.3f,\"a_uploaded_ms\":%.3f,\"b_uploaded_ms\":%.3f,\"c_uploaded_ms\":%.3f,"
               "\"ab_done_ms\":%.3f,\"device_bytes\":%zu,\"baseline_cpu_ms\":%.3f,"
               "\"baseline_threads\":%u,\"speedup\":%.2f,\"match\":%s}\n",
               cuda ? "cuda" : "cpu", m, log_n, iters, cuda ? gpu * 1e3 : cpu * 1e3,
               best_t.a_uploaded, best_t.b_uploaded, best_t.c_uploaded, best_t.ab_done,
               cuda ? cz_cuda_h_mem_bytes(log_n) : (size_t)0, cpu * 1e3, threads,
               cuda && cpu > 0 ? cpu / gpu : 0.0, match ? "true" : "false");
    } else if (cuda) {
        printf("H 2^%u (cuda, incl. upload of a,b,c from pinned memory, best of %d): %.1f ms "
               "[a up %.1f, b up %.1f, c up %.1f, A*B iNTT done %.1f]; device memory %.2f GiB",
               log_n, iters, gpu * 1e3, best_t.a_uploaded, best_t.b_uploaded, best_t.c_uploaded,
               best_t.ab_done, (double)cz_cuda_h_mem_bytes(log_n) / (1u << 30));
        if (cpu > 0)
            printf("; cpu %u threads %.1f ms, speedup %.1fx, results %s", threads, cpu * 1e3,
                   cpu / gpu, match ? "equal" : "DIFFER");
        printf("\n");
    } else {
        printf("H 2^%u (cpu, %u threads, best of %d): %.1f ms\n", log_n, threads, iters, cpu * 1e3);
    }
    ret = match ? CZ_EXIT_OK : CZ_EXIT_FAIL;
out:
    cz_cuda_h_free(gh);
    for (int i = 0; i < 3; i++) {
        if (cuda)
            cz_cuda_host_free(in[i]);
        else
            free(in[i]);
    }
    free(got);
    free(want);
    cz_ctx_free(ctx);
    return ret;
}

/* ---- MSM ------------------------------------------------------------------ */

typedef struct {
    void *bases;
    blst_scalar *s;
    size_t n;
    int g2;
    int filecoin;
} msm_gen_arg;

#define MSM_GEN_CHUNK ((size_t)1 << 16)

/* Distinct random bases (a random walk per chunk, own seed) and scalars, in parallel. */
static void msm_gen_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    msm_gen_arg *g = arg;
    const cz_group *grp = g->g2 ? &CZ_G2 : &CZ_G1;
    for (size_t c = begin; c < end; c++) {
        size_t lo = c * MSM_GEN_CHUNK, len = g->n - lo < MSM_GEN_CHUNK ? g->n - lo : MSM_GEN_CHUNK;
        cz_group_random_affine(grp, (uint8_t *)g->bases + lo * grp->affine_size, len, 7919 * c + 1);
        cz_rng rng;
        cz_rng_seed(&rng, 104729 * c + 3);
        for (size_t i = lo; i < lo + len; i++) {
            cz_fr f = CZ_FR_ZERO;
            uint64_t pick = cz_rng_next(&rng) % 100;
            if (!g->filecoin || pick >= 95)
                cz_fr_random_rng(&f, &rng);
            else if (pick >= 50)
                f = CZ_FR_ONE;
            cz_fr_to_scalar(&g->s[i], &f);
        }
    }
}

static int time_msm_cuda(cz_ctx_t *ctx, cz_cuda_msm *m, int group, void *out, const void *d_bases,
                         const cz_cuda_msm_terms *t, int iters, double *best)
{
    *best = -1;
    for (int i = 0; i <= iters; i++) { /* run 0 is the warm-up */
        double t0 = cz_bench_now();
        int rc = cz_cuda_msm_run(ctx, m, group, out, d_bases, t);
        if (rc != CZ_OK)
            return rc;
        double dt = cz_bench_now() - t0;
        if (i > 0 && (*best < 0 || dt < *best))
            *best = dt;
    }
    return CZ_OK;
}

int cz_bench_msm_cuda(unsigned log_n, int g2, int filecoin, int iters, bool baseline, bool json)
{
    if (probe_or_fail() != CZ_EXIT_OK)
        return CZ_EXIT_FAIL;
    if (iters < 1)
        iters = 1;
    const cz_group *grp = g2 ? &CZ_G2 : &CZ_G1;
    const int group = g2 ? 2 : 1;
    const size_t n = (size_t)1 << log_n;
    cz_ctx_t *ctx = NULL;
    cz_cuda_msm *m = NULL;
    void *bases = NULL, *d_bases = NULL, *d_scalars = NULL;
    blst_scalar *s = NULL;
    int ret = CZ_EXIT_FAIL;
    double dev = -1, host = -1, cpu = -1, gen_s;
    bool match = true;
    if (cz_ctx_new(&ctx, NULL, 0) != CZ_OK)
        return fail(NULL, "ctx");
    bases = malloc(n * grp->affine_size);
    s = malloc(n * sizeof *s);
    if (!bases || !s) {
        fail(ctx, "host memory");
        goto out;
    }
    double t0 = cz_bench_now();
    msm_gen_arg ga = { bases, s, n, g2, filecoin };
    cz_pool_for(cz_ctx_pool(ctx), (n + MSM_GEN_CHUNK - 1) / MSM_GEN_CHUNK, 1, msm_gen_chunk, &ga);
    gen_s = cz_bench_now() - t0;
    if (cz_cuda_msm_new(ctx, &m, 0, 0) != CZ_OK ||
        cz_cuda_malloc(ctx, &d_bases, n * grp->affine_size) != CZ_OK ||
        cz_cuda_memcpy_htod(ctx, d_bases, bases, n * grp->affine_size) != CZ_OK ||
        cz_cuda_malloc(ctx, &d_scalars, n * sizeof *s) != CZ_OK ||
        cz_cuda_memcpy_htod(ctx, d_scalars, s, n * sizeof *s) != CZ_OK) {
        fail(ctx, "setup");
        goto out;
    }
    blst_p2 got_dev, got_host, want;
    /* the phases timed, as every figure of this benchmark since 2026-11-29 (a host wait a
     * pass: negligible on a host doing nothing else) */
    cz_cuda_msm_set_profile(m, true);
    cz_cuda_msm_terms td = { .n = n, .scalars = d_scalars, .scalars_on_device = true };
    cz_cuda_msm_terms th = { .n = n, .scalars = s };
    cz_cuda_msm_profile prof[2]; /* the last device-scalar run, the last host-scalar run */
    int rc_dev = time_msm_cuda(ctx, m, group, &got_dev, d_bases, &td, iters, &dev);
    cz_cuda_msm_last_profile(m, &prof[0]);
    if (rc_dev != CZ_OK ||
        time_msm_cuda(ctx, m, group, &got_host, d_bases, &th, iters, &host) != CZ_OK) {
        fail(ctx, "cuda msm");
        goto out;
    }
    cz_cuda_msm_last_profile(m, &prof[1]);
    match = g2 ? blst_p2_is_equal(&got_dev, &got_host)
               : blst_p1_is_equal((blst_p1 *)&got_dev, (blst_p1 *)&got_host);
    if (baseline) { /* the CPU MSM on all cores, same input: the ratio and the check */
        t0 = cz_bench_now();
        int rc = g2 ? cz_g2_msm(ctx, &want, bases, s, n)
                    : cz_g1_msm(ctx, (blst_p1 *)&want, bases, s, n);
        cpu = cz_bench_now() - t0;
        if (rc != CZ_OK) {
            fail(ctx, "cpu baseline");
            goto out;
        }
        match = match && (g2 ? blst_p2_is_equal(&got_dev, &want)
                             : blst_p1_is_equal((blst_p1 *)&got_dev, (blst_p1 *)&want));
    }
    unsigned threads = cz_pool_width(cz_ctx_pool(ctx));
    const char *mix = filecoin ? "filecoin" : "random";
    if (json)
        printf("{\"bench\":\"msm\",\"backend\":\"cuda\",\"group\":\"%s\",\"mix\":\"%s\",\"n\":%zu,"
               "\"log_n\":%u,\"iters\":%d,\"resident_ms\":%.3f,\"host_scalars_ms\":%.3f,"
               "\"baseline_cpu_ms\":%.3f,\"baseline_threads\":%u,\"speedup\":%.2f,\"match\":%s}\n",
               grp->name, mix, n, log_n, iters, dev * 1e3, host * 1e3, cpu * 1e3, threads,
               cpu > 0 ? cpu / dev : 0.0, match ? "true" : "false");
    else {
        printf("MSM %s 2^%u %s (cuda, best of %d; input generated in %.1f s): bases and scalars "
               "on the device %.2f ms; scalars from host memory %.2f ms",
               grp->name, log_n, mix, iters, gen_s, dev * 1e3, host * 1e3);
        if (cpu > 0)
            printf("; cpu %u threads %.1f ms, speedup %.1fx", threads, cpu * 1e3, cpu / dev);
        printf("; results %s\n", match ? "equal" : "DIFFER");
        for (int k = 0; k < 2; k++) {
            const cz_cuda_msm_profile *pr = &prof[k];
            printf("  last %s run: c=%u, %u windows, %u pass(es): digits %.2f ms, sort %.2f, "
                   "accumulate %.2f, join %.2f, merge %.2f, reduce %.2f\n",
                   k ? "host-scalar" : "device-scalar", pr->c, pr->nwin, pr->passes, pr->digits_ms,
                   pr->sort_ms, pr->accumulate_ms, pr->join_ms, pr->merge_ms, pr->reduce_ms);
        }
    }
    ret = match ? CZ_EXIT_OK : CZ_EXIT_FAIL;
out:
    cz_cuda_free(d_scalars);
    cz_cuda_free(d_bases);
    cz_cuda_msm_free(m);
    free(bases);
    free(s);
    cz_ctx_free(ctx);
    return ret;
}

/* ---- pinning -------------------------------------------------------------------- */

typedef struct {
    double start;    /* when the pinning began */
    double waited_s; /* the probe cudaMalloc's latency */
    int rc;
} pin_probe;

/* 50 ms into the pinning, one 256 MiB device allocation: how long does it take? */
static void *pin_probe_main(void *arg)
{
    pin_probe *p = arg;
    while (cz_bench_now() - p->start < 0.05)
        ;
    void *d = NULL;
    double t0 = cz_bench_now();
    p->rc = cz_cuda_set_device(NULL, 0);
    if (p->rc == CZ_OK)
        p->rc = cz_cuda_malloc(NULL, &d, (size_t)256 << 20);
    p->waited_s = cz_bench_now() - t0;
    cz_cuda_free(d);
    return NULL;
}

/* One pinning of |bytes| (fast: cz_cuda_pinned_alloc, else cudaMallocHost), probed. */
static int time_pin(cz_ctx_t *ctx, size_t bytes, bool fast, double *pin_s, double *probe_s,
                    bool *registered)
{
    pin_probe probe = { .start = cz_bench_now() };
    pthread_t th;
    bool started = pthread_create(&th, NULL, pin_probe_main, &probe) == 0;
    cz_cuda_pinned pin = { 0 };
    void *mem = NULL;
    int rc = fast ? cz_cuda_pinned_alloc(ctx, &pin, bytes, 0)
                  : cz_cuda_host_alloc(ctx, &mem, bytes);
    *pin_s = cz_bench_now() - probe.start;
    if (started)
        pthread_join(th, NULL);
    *probe_s = started ? probe.waited_s : -1;
    *registered = pin.registered;
    cz_cuda_pinned_free(&pin);
    cz_cuda_host_free(mem);
    return rc != CZ_OK ? rc : probe.rc;
}

typedef struct {
    size_t gib;
} pin_opts_t;

static const cz_opt PIN_OPTS[] = {
    { "gib", 0, CZ_O_SIZE(pin_opts_t, gib), .min = 1, .max = 256, .def = "8", .arg = "G",
      .help = "GiB pinned each way" },
};
static const cz_opts_spec PIN_SPEC = {
    .cmd = "cuzk bench pin",
    .usage = "usage: cuzk bench pin [--gib G]\n",
    .about = "  Pins a 32GiB partition's a and b both ways, registered hugepages against\n"
             "  cudaMallocHost, each with a 256 MiB cudaMalloc timed meanwhile.\n",
    CZ_OPTS(PIN_OPTS),
};

int cz_bench_pin(int argc, char **argv)
{
    pin_opts_t o;
    int p = cz_opts_parse(&PIN_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    size_t gib = o.gib;
    cz_ctx_t *ctx;
    if (device0_ctx(&ctx) != CZ_EXIT_OK)
        return CZ_EXIT_FAIL;
    double base_pin = 0, base_probe = 0, fast_pin = 0, fast_probe = 0;
    bool reg = false, unused;
    int rc = cz_cuda_sync(ctx); /* the driver's own start-up is not the pinning's */
    if (rc == CZ_OK)
        rc = time_pin(ctx, gib << 30, false, &base_pin, &base_probe, &unused);
    if (rc == CZ_OK)
        rc = time_pin(ctx, gib << 30, true, &fast_pin, &fast_probe, &reg);
    if (rc != CZ_OK) {
        int code = fail(ctx, "bench pin");
        cz_ctx_free(ctx);
        return code;
    }
    printf("PIN %zu GiB: cudaMallocHost %.2f s (a 256 MiB cudaMalloc meanwhile took %.3f s); "
           "%s %.2f s (cudaMalloc meanwhile %.3f s); %.1fx\n",
           gib, base_pin, base_probe,
           reg ? "hugepages faulted on 8 threads + cudaHostRegister" : "fallback cudaMallocHost",
           fast_pin, fast_probe, fast_pin > 0 ? base_pin / fast_pin : 0);
    cz_ctx_free(ctx);
    return CZ_EXIT_OK;
}

/* ---- FMUL: the Montgomery products, CIOS vs FP64 limbs ------------------- */

#define FMUL_THREADS (1u << 18)
#define FMUL_CHAINS 4u

typedef struct {
    size_t iters;
} fmul_opts_t;

static const cz_opt FMUL_OPTS[] = {
    { "iters", 0, CZ_O_SIZE(fmul_opts_t, iters), .min = 1, .max = 100, .def = "3", .arg = "K",
      .help = "timed launches per kind (best of K, after one warm-up)" },
};
static const cz_opts_spec FMUL_SPEC = {
    .cmd = "cuzk bench fmul",
    .usage = "usage: cuzk bench fmul [--iters K]\n",
    .about = "  Montgomery products on the device, Fr and Fp: CIOS on the IMAD pipe (the\n"
             "  baseline), 52-bit limbs on the FP64 pipe, and both side by side; 2^18\n"
             "  threads x 4 chains, then each alone at 2^20 threads x 1 chain. The\n"
             "  results of all five must be equal.\n",
    CZ_OPTS(FMUL_OPTS),
};

/* Random elements below m: Fr by rejection (cz_fr_random_rng), Fp below 2^380. */
static void fmul_inputs(int field, void *v, size_t count, uint64_t seed)
{
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    for (size_t i = 0; i < count; i++) {
        if (field == 0) {
            cz_fr_random_rng(&((cz_fr *)v)[i], &rng);
        } else {
            blst_fp *p = &((blst_fp *)v)[i];
            for (int k = 0; k < 6; k++)
                p->l[k] = cz_rng_next(&rng);
            p->l[5] &= (1ull << 60) - 1;
        }
    }
}

/* Best time of one kind; its final values left in |got| (host). */
static int fmul_kind(cz_ctx_t *ctx, int field, int kind, void *dio, const void *dy,
                     const void *start, void *got, size_t bytes, int mul_iters, int iters,
                     float *best)
{
    *best = -1;
    for (int i = 0; i <= iters; i++) {
        float ms;
        int rc = cz_cuda_memcpy_htod(ctx, dio, start, bytes);
        if (rc == CZ_OK)
            rc = cz_cuda_bench_fmul(ctx, field, kind, dio, dy, FMUL_THREADS, mul_iters, &ms);
        if (rc != CZ_OK)
            return rc;
        if (i > 0 && (*best < 0 || ms < *best))
            *best = ms;
    }
    return cz_cuda_memcpy_dtoh(ctx, got, dio, bytes);
}

static int fmul_field(cz_ctx_t *ctx, int field, int iters)
{
    static const char *names[5] = { "CIOS (IMAD)", "FP64 limbs", "both, half each",
                                    "CIOS 1 chain/thread", "FP64 1 chain/thread" };
    const size_t elem = field == 0 ? sizeof(cz_fr) : sizeof(blst_fp);
    const size_t count = (size_t)FMUL_THREADS * FMUL_CHAINS, bytes = count * elem;
    const int mul_iters = field == 0 ? 1024 : 512;
    void *start = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes), *dio = NULL,
         *dy = NULL;
    unsigned char y[sizeof(blst_fp)];
    float ms[5] = { -1, -1, -1, -1, -1 };
    bool equal = true;
    int rc = start && want && got ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "fmul inputs");
    if (rc == CZ_OK) {
        fmul_inputs(field, start, count, 7 + field);
        fmul_inputs(field, y, 1, 99 + field);
        rc = cz_cuda_malloc(ctx, &dio, bytes);
    }
    if (rc == CZ_OK)
        rc = cz_cuda_malloc(ctx, &dy, elem);
    if (rc == CZ_OK)
        rc = cz_cuda_memcpy_htod(ctx, dy, y, elem);
    for (int kind = 0; kind < 5 && rc == CZ_OK; kind++) {
        rc = fmul_kind(ctx, field, kind, dio, dy, start, kind ? got : want, bytes, mul_iters, iters,
                       &ms[kind]);
        if (rc == CZ_OK && kind > 0 && memcmp(want, got, bytes) != 0)
            equal = false;
    }
    if (rc == CZ_OK) {
        const double muls = (double)count * mul_iters;
        printf("FMUL %s (cuda, %u threads x %u chains x %d products, best of %d):",
               field ? "Fp" : "Fr", FMUL_THREADS, FMUL_CHAINS, mul_iters, iters);
        for (int k = 0; k < 5; k++)
            printf("%s %s %.2f ms (%.1f G/s, %.2fx)", k ? ";" : "", names[k], ms[k],
                   muls / (ms[k] * 1e-3) / 1e9, ms[0] / ms[k]);
        printf("; results %s\n", equal ? "equal" : "DIFFER");
    }
    cz_cuda_free(dio);
    cz_cuda_free(dy);
    free(start);
    free(want);
    free(got);
    if (rc == CZ_OK && !equal)
        rc = cz_fail(ctx, CZ_EINVAL, "fmul: the FP64 products differ from CIOS");
    return rc;
}

int cz_bench_fmul(int argc, char **argv)
{
    fmul_opts_t o;
    int p = cz_opts_parse(&FMUL_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    cz_ctx_t *ctx;
    if (device0_ctx(&ctx) != CZ_EXIT_OK)
        return CZ_EXIT_FAIL;
    int rc = CZ_OK;
    for (int field = 0; field < 2 && rc == CZ_OK; field++)
        rc = fmul_field(ctx, field, (int)o.iters);
    int code = rc == CZ_OK ? CZ_EXIT_OK : fail(ctx, "bench fmul");
    cz_ctx_free(ctx);
    return code;
}

/* ---- AFFINE: one G1 addition, XYZZ against batch-affine -------------------- */

#define AFFINE_DISTINCT 65536u /* distinct points, tiled (an even count: pair i's x differ) */
#define AFFINE_CHECKED 4096u   /* pairs compared with blst, spread over the n */

typedef struct {
    size_t log_n, iters;
} affine_opts_t;

static const cz_opt AFFINE_OPTS[] = {
    { "log-n", 0, CZ_O_SIZE(affine_opts_t, log_n), .min = 12, .max = 26, .def = "23", .arg = "N",
      .help = "2^N additions (pairs of points)" },
    { "iters", 0, CZ_O_SIZE(affine_opts_t, iters), .min = 1, .max = 100, .def = "3", .arg = "K",
      .help = "timed runs per kind (best of K, after one warm-up)" },
};
static const cz_opts_spec AFFINE_SPEC = {
    .cmd = "cuzk bench affine",
    .usage = "usage: cuzk bench affine [--log-n N] [--iters K]\n",
    .about = "  One G1 point addition two ways, on the same 2^N pairs of affine points in\n"
             "  device memory: the MSM's lazy XYZZ mixed addition (the baseline) and\n"
             "  batch-affine (prefix products of the x differences, one shared inversion a\n"
             "  block, then each sum in affine coordinates), as one round of a\n"
             "  batch-affine bucket accumulation would run. Sums of sampled pairs are\n"
             "  compared with blst's.\n",
    CZ_OPTS(AFFINE_OPTS),
};

/* AFFINE_DISTINCT consecutive multiples (s + i) G of a random s, in affine coordinates. */
static int affine_points(cz_ctx_t *ctx, blst_p1_affine *out)
{
    blst_p1 *jac = malloc(AFFINE_DISTINCT * sizeof *jac);
    const blst_p1 **ptrs = malloc(AFFINE_DISTINCT * sizeof *ptrs);
    if (!jac || !ptrs) {
        free(jac);
        free(ptrs);
        return cz_fail(ctx, CZ_ENOMEM, "affine bench points");
    }
    cz_rng rng;
    cz_rng_seed(&rng, 37);
    uint8_t s[32];
    for (int k = 0; k < 4; k++) {
        const uint64_t v = cz_rng_next(&rng);
        memcpy(s + 8 * k, &v, 8);
    }
    s[31] &= 0x3f; /* below r */
    blst_p1_mult(&jac[0], blst_p1_generator(), s, 255);
    for (size_t i = 1; i < AFFINE_DISTINCT; i++)
        blst_p1_add_or_double(&jac[i], &jac[i - 1], blst_p1_generator());
    for (size_t i = 0; i < AFFINE_DISTINCT; i++)
        ptrs[i] = &jac[i];
    blst_p1s_to_affine(out, ptrs, AFFINE_DISTINCT);
    free(jac);
    free(ptrs);
    return CZ_OK;
}

/* Does sum i of the device's output (kind 0: XYZZ, 1: affine) equal blst's p + q? */
static bool affine_sum_ok(int kind, const void *got, const blst_p1_affine *p,
                          const blst_p1_affine *q)
{
    blst_p1 s;
    blst_p1_from_affine(&s, p);
    blst_p1_add_or_double_affine(&s, &s, q);
    blst_p1_affine want, have;
    blst_p1_to_affine(&want, &s);
    if (kind == 1) {
        memcpy(&have, got, sizeof have);
    } else { /* X, Y, ZZ, ZZZ: x = X / ZZ, y = Y / ZZZ */
        const blst_fp *c = got;
        blst_fp inv;
        blst_fp_inverse(&inv, &c[2]);
        blst_fp_mul(&have.x, &c[0], &inv);
        blst_fp_inverse(&inv, &c[3]);
        blst_fp_mul(&have.y, &c[1], &inv);
    }
    return memcmp(&want, &have, sizeof want) == 0;
}

/* Best of |iters| runs of |kind| after a warm-up; the sampled sums checked. */
static int affine_kind(cz_ctx_t *ctx, int kind, const void *dpts, const blst_p1_affine *pts,
                       size_t n, void *dout, int iters, float best[4], size_t *bad)
{
    best[0] = -1;
    for (int i = 0; i <= iters; i++) {
        float ms[4] = { 0, 0, 0, 0 };
        int rc = cz_cuda_bench_affine(ctx, kind, dpts, n, dout, ms);
        if (rc != CZ_OK)
            return rc;
        if (i > 0 && (best[0] < 0 || ms[0] < best[0]))
            memcpy(best, ms, sizeof ms);
    }
    const size_t each = kind ? sizeof(blst_p1_affine) : 4 * sizeof(blst_fp);
    unsigned char got[4 * sizeof(blst_fp)];
    *bad = 0;
    for (size_t c = 0; c < AFFINE_CHECKED; c++) {
        const size_t i = c * (n / AFFINE_CHECKED) + c % (n / AFFINE_CHECKED);
        int rc = cz_cuda_memcpy_dtoh(ctx, got, (const unsigned char *)dout + i * each, each);
        if (rc != CZ_OK)
            return rc;
        if (!affine_sum_ok(kind, got, &pts[(2 * i) % AFFINE_DISTINCT],
                           &pts[(2 * i + 1) % AFFINE_DISTINCT]))
            (*bad)++;
    }
    return CZ_OK;
}

int cz_bench_affine(int argc, char **argv)
{
    affine_opts_t o;
    int p = cz_opts_parse(&AFFINE_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    cz_ctx_t *ctx;
    if (device0_ctx(&ctx) != CZ_EXIT_OK)
        return CZ_EXIT_FAIL;
    const size_t n = (size_t)1 << o.log_n, tile = AFFINE_DISTINCT * sizeof(blst_p1_affine);
    blst_p1_affine *pts = malloc(tile);
    void *dpts = NULL, *dout = NULL;
    float ms[2][4];
    size_t bad[2] = { 0, 0 };
    int rc = pts ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "affine bench points");
    if (rc == CZ_OK)
        rc = affine_points(ctx, pts);
    if (rc == CZ_OK)
        rc = cz_cuda_malloc(ctx, &dpts, 2 * n * sizeof(blst_p1_affine));
    if (rc == CZ_OK)
        rc = cz_cuda_malloc(ctx, &dout, n * 4 * sizeof(blst_fp));
    for (size_t off = 0; rc == CZ_OK && off < 2 * n; off += AFFINE_DISTINCT)
        rc = cz_cuda_memcpy_htod(ctx, (blst_p1_affine *)dpts + off, pts,
                                 (2 * n - off < AFFINE_DISTINCT ? 2 * n - off : AFFINE_DISTINCT) *
                                     sizeof(blst_p1_affine));
    for (int kind = 0; kind < 2 && rc == CZ_OK; kind++)
        rc = affine_kind(ctx, kind, dpts, pts, n, dout, (int)o.iters, ms[kind], &bad[kind]);
    if (rc == CZ_OK) {
        printf("AFFINE G1 (cuda, 2^%zu additions, best of %zu): XYZZ mixed %.3f ms (%.3f "
               "ns/addition); batch-affine %.3f ms (%.3f ns/addition: prefix products %.3f, "
               "inversions %.3f, sums %.3f ms), %.2fx; sampled sums against blst: %zu/%u and "
               "%zu/%u wrong\n",
               o.log_n, o.iters, ms[0][0], ms[0][0] * 1e6 / (double)n, ms[1][0],
               ms[1][0] * 1e6 / (double)n, ms[1][1], ms[1][2], ms[1][3], ms[0][0] / ms[1][0],
               bad[0], AFFINE_CHECKED, bad[1], AFFINE_CHECKED);
        if (bad[0] || bad[1])
            rc = cz_fail(ctx, CZ_EINVAL, "affine bench: device sums differ from blst's");
    }
    cz_cuda_free(dpts);
    cz_cuda_free(dout);
    free(pts);
    int code = rc == CZ_OK ? CZ_EXIT_OK : fail(ctx, "bench affine");
    cz_ctx_free(ctx);
    return code;
}
