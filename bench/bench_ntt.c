/*
 * bench/bench_ntt.c — `cuzk bench ntt`: the forward NTT on T threads
 * against the same NTT on the calling thread alone, same process, same input.
 *
 * Each side is timed as the best of K runs, the runs of the two sides
 * alternating so that both see the same spells of load from other processes
 * (this machine is shared); every run starts from a fresh copy of the input
 * (the copy is not timed). Process CPU time is reported next to wall time:
 * cpu_ms well below threads x ms means the threads did not get the cores.
 * The domain (twiddles) is built
 * once, outside the timings. The two sides must produce the same bytes (the
 * NTT is deterministic across thread counts); a difference is reported as a
 * bug and fails the run.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "core/pool.h"
#include "ff/fr.h"
#include "ff/ntt.h"

#define INPUT_CHUNK 65536u /* points per input-generation chunk (one seed each) */

typedef struct {
    unsigned log_n;
    unsigned threads; /* 0 = all cores */
    int iters;
    bool json;
    bool cuda;
} ntt_opts;

typedef struct {
    size_t log_n, threads, iters;
    const char *backend;
    bool json;
} ntt_args;

static const char *const CPU_CUDA[] = { "cpu", "cuda", NULL };

static const cz_opt NTT_OPTS[] = {
    { "log-n", 0, CZ_O_SIZE(ntt_args, log_n), .max = 28, .def = "20", .help = "2^N points" },
    CZ_OPT_THREADS(ntt_args, threads),
    { "iters", 0, CZ_O_SIZE(ntt_args, iters), .min = 1, .max = 1000, .def = "3", .arg = "K",
      .help = "best of K runs each" },
    { "backend", 0, CZ_O_ENUM(ntt_args, backend), .values = CPU_CUDA, .def = "cpu",
      .help = "cuda: the GPU NTT benchmark instead (CUDA builds only)" },
    CZ_OPT_JSON(ntt_args, json, "one JSON line"),
};
static const cz_opts_spec NTT_SPEC = {
    .cmd = "cuzk bench ntt",
    .usage = "usage: cuzk bench ntt --log-n N [--threads T] [--iters K] [--backend cpu|cuda]\n"
             "                      [--json]\n",
    .about = "  Times the forward NTT of 2^N random points on T threads against 1 thread,\n"
             "  best of K runs each, and prints both times and the speedup.\n",
    CZ_OPTS(NTT_OPTS),
};

static int parse(int argc, char **argv, ntt_opts *o)
{
    ntt_args a;
    int rc = cz_opts_parse(&NTT_SPEC, &a, argc, argv, NULL);
    if (rc != CZ_OPTS_RUN)
        return rc;
    *o = (ntt_opts){ .log_n = (unsigned)a.log_n,
                     .threads = (unsigned)a.threads,
                     .iters = (int)a.iters,
                     .json = a.json,
                     .cuda = !strcmp(a.backend, "cuda") };
    return CZ_OPTS_RUN;
}

/* Input: chunk c of INPUT_CHUNK points comes from seed c, so the data does
 * not depend on how many threads generate it. */
static void fill_chunk(void *p, size_t begin, size_t end, unsigned slot)
{
    cz_fr *v = p;
    cz_rng rng;
    cz_rng_seed(&rng, 1 + begin / INPUT_CHUNK);
    for (size_t i = begin; i < end; i++)
        cz_fr_random_rng(&v[i], &rng);
}

/* Best run of one side so far: wall and process CPU seconds (wall < 0: none). */
typedef struct {
    double wall, cpu;
} timing;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One forward NTT of a fresh copy of |input| into |work|; keeps the best. */
static int time_once(cz_ctx_t *ctx, const cz_ntt_domain *d, const cz_fr *input, cz_fr *work,
                     size_t n, timing *best)
{
    memcpy(work, input, n * sizeof *work);
    double c0 = cpu_now(), t0 = cz_bench_now();
    int rc = cz_ntt_forward(ctx, d, work);
    double t = cz_bench_now() - t0, c = cpu_now() - c0;
    if (rc == CZ_OK && (best->wall < 0 || t < best->wall))
        *best = (timing){ t, c };
    return rc;
}

/* FNV-1a over the bytes of v: enough to tell two results apart. */
static uint64_t digest(const cz_fr *v, size_t n)
{
    const unsigned char *b = (const unsigned char *)v;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n * sizeof *v; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void report(const ntt_opts *o, unsigned threads, timing base, timing best)
{
    size_t n = (size_t)1 << o->log_n;
    double ns = best.wall * 1e9 / (double)n, base_ns = base.wall * 1e9 / (double)n;
    if (o->json)
        printf("{\"bench\":\"ntt\",\"backend\":\"cpu\",\"n\":%zu,\"log_n\":%u,\"threads\":%u,"
               "\"iters\":%d,\"ms\":%.3f,\"baseline_ms\":%.3f,\"ns_per_point\":%.1f,"
               "\"baseline_ns_per_point\":%.1f,\"speedup\":%.3f,\"cpu_ms\":%.3f,"
               "\"baseline_cpu_ms\":%.3f,\"peak_rss_bytes\":%zu}\n",
               n, o->log_n, threads, o->iters, best.wall * 1e3, base.wall * 1e3, ns, base_ns,
               base.wall / best.wall, best.cpu * 1e3, base.cpu * 1e3, cz_bench_peak_rss());
    else
        printf("NTT 2^%u forward (cpu, best of %d): %u threads %.1f ms (%.1f ns/point, "
               "cpu %.1f ms), 1 thread %.1f ms (%.1f ns/point, cpu %.1f ms), speedup %.2fx\n",
               o->log_n, o->iters, threads, best.wall * 1e3, ns, best.cpu * 1e3, base.wall * 1e3,
               base_ns, base.cpu * 1e3, base.wall / best.wall);
}

static int run_cuda(const ntt_opts *o)
{
#ifdef CUZK_HAVE_CUDA
    return cz_bench_ntt_cuda(o->log_n, o->iters, o->json);
#else
    (void)o;
    fprintf(stderr, "cuzk was built without the CUDA backend\n");
    return CZ_EXIT_FAIL;
#endif
}

int cz_bench_ntt(int argc, char **argv)
{
    ntt_opts o;
    int p = parse(argc, argv, &o);
    if (p != CZ_OPTS_RUN)
        return p;
    if (o.cuda)
        return run_cuda(&o);

    /* Pools of width T (0 = all cores) and 1 (the calling thread alone). */
    cz_ctx_t *ctx = NULL, *base = NULL;
    if (cz_ctx_new(&ctx, NULL, o.threads) != CZ_OK || cz_ctx_new(&base, NULL, 1) != CZ_OK) {
        fprintf(stderr, "cuzk bench ntt: cannot start the thread pool\n");
        cz_ctx_free(ctx);
        return CZ_EXIT_FAIL;
    }
    unsigned threads = cz_pool_width(cz_ctx_pool(ctx));
    size_t n = (size_t)1 << o.log_n;
    cz_ntt_domain *d = NULL;
    cz_fr *input = malloc(n * sizeof *input), *work = malloc(n * sizeof *work);
    int rc = input && work ? cz_ntt_domain_new(ctx, &d, o.log_n) : CZ_ENOMEM;
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk bench ntt: cannot allocate 2^%u points: %s\n", o.log_n,
                rc != CZ_ENOMEM ? cz_ctx_message(ctx) : cz_strerror(rc));
    } else {
        cz_pool_for(cz_ctx_pool(ctx), n, INPUT_CHUNK, fill_chunk, input);
        timing t_base = { -1, 0 }, t_par = { -1, 0 };
        uint64_t want = 0, got = 0;
        for (int i = 0; i < o.iters && rc == CZ_OK; i++) {
            rc = time_once(base, d, input, work, n, &t_base);
            want = digest(work, n);
            if (rc == CZ_OK)
                rc = time_once(ctx, d, input, work, n, &t_par);
            got = digest(work, n);
        }
        if (rc != CZ_OK) {
            fprintf(stderr, "cuzk bench ntt: forward NTT failed: %s%s\n", cz_ctx_message(base),
                    cz_ctx_message(ctx));
        } else if (got != want) {
            fprintf(stderr, "cuzk bench ntt: %u-thread result differs from 1 thread (bug)\n",
                    threads);
            rc = CZ_EINTERNAL;
        } else {
            report(&o, threads, t_base, t_par);
        }
    }
    cz_ntt_domain_free(d);
    free(input);
    free(work);
    cz_ctx_free(ctx);
    cz_ctx_free(base);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}
