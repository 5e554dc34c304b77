/*
 * bench/bench_poseidon.c — `cuzk bench poseidon`: batch Poseidon hashing
 * (cz_poseidon_hash_many) on T threads against the same batch hashed on the
 * calling thread alone, same process, same input.
 *
 * Each side is the best of K runs. Both sides must produce identical
 * outputs; a difference is reported as a bug and fails the run.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cli/cli.h"
#include "gadgets/poseidon.h"

typedef struct {
    unsigned arity;
    unsigned threads;   /* 0 = all cores */
    size_t count;
    int iters;
    bool json;
} poseidon_opts;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk bench poseidon [--arity 2|4|8|11] [--threads T] [--count N]\n"
            "                           [--iters K] [--json]\n"
            "  Hashes N random preimages (default 65536) of the given arity (default 8)\n"
            "  on T threads (default: all cores) and on 1 thread, best of K runs each\n"
            "  (default 3), and prints hashes/s for both and the speedup.\n");
}

/* 0 ok, 1 --help was printed, -1 usage error. */
static int parse(int argc, char **argv, poseidon_opts *o)
{
    static const struct option longopts[] = {
        { "arity", required_argument, 0, 'a' }, { "threads", required_argument, 0, 't' },
        { "count", required_argument, 0, 'n' }, { "iters", required_argument, 0, 'i' },
        { "json", no_argument, 0, 'j' },        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    *o = (poseidon_opts){ .arity = 8, .count = 65536, .iters = 3 };
    int c;
    size_t v;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'a':
            if (!cz_cli_parse_size(optarg, &v) || !cz_poseidon_constants_get((unsigned)v))
                return -1;
            o->arity = (unsigned)v;
            break;
        case 't':
            if (!cz_cli_parse_size(optarg, &v) || v < 1 || v > 4096) return -1;
            o->threads = (unsigned)v;
            break;
        case 'n':
            if (!cz_cli_parse_size(optarg, &v) || v < 1 || v > ((size_t)1 << 26)) return -1;
            o->count = v;
            break;
        case 'i':
            if (!cz_cli_parse_size(optarg, &v) || v < 1 || v > 1000) return -1;
            o->iters = (int)v;
            break;
        case 'j': o->json = true; break;
        case 'h': usage(stdout); return 1;
        default: return -1;
        }
    }
    return optind == argc ? 0 : -1;
}

/* Best time of |iters| batch runs; < 0 on error. */
static double time_best(cz_ctx_t *ctx, const cz_poseidon_constants *c, cz_fr *out,
                        const cz_fr *in, size_t n, int iters)
{
    double best = -1;
    for (int i = 0; i < iters; i++) {
        double t0 = cz_bench_now();
        if (cz_poseidon_hash_many(ctx, c, out, in, n) != CZ_OK)
            return -1;
        double t = cz_bench_now() - t0;
        if (best < 0 || t < best)
            best = t;
    }
    return best;
}

int cz_bench_poseidon(int argc, char **argv)
{
    poseidon_opts o;
    int p = parse(argc, argv, &o);
    if (p != 0) {
        if (p < 0)
            usage(stderr);
        return p > 0 ? CZ_EXIT_OK : CZ_EXIT_USAGE;
    }
    const cz_poseidon_constants *c = cz_poseidon_constants_get(o.arity);
    cz_fr *in = malloc(sizeof(cz_fr) * o.count * o.arity);
    cz_fr *out1 = malloc(sizeof(cz_fr) * o.count), *outt = malloc(sizeof(cz_fr) * o.count);
    cz_ctx_t *ctx = NULL;
    int rc = CZ_EXIT_FAIL;
    if (!c || !in || !out1 || !outt) {
        fprintf(stderr, "cuzk bench poseidon: out of memory\n");
        goto done;
    }
    /* A pool of width T (the caller included); 0 = all cores; 1 = no pool. */
    if (o.threads != 1 && cz_ctx_new(&ctx, NULL, o.threads) != CZ_OK) {
        fprintf(stderr, "cuzk bench poseidon: cannot create the thread pool\n");
        goto done;
    }
    unsigned threads = ctx ? cz_pool_width(cz_ctx_pool(ctx)) : 1;

    cz_rng rng;
    cz_rng_seed(&rng, 0x905e1d0full);
    for (size_t i = 0; i < o.count * o.arity; i++)
        cz_fr_random_rng(&in[i], &rng);

    double base = time_best(NULL, c, out1, in, o.count, o.iters);   /* calling thread */
    double best = time_best(ctx, c, outt, in, o.count, o.iters);
    if (base < 0 || best < 0) {
        fprintf(stderr, "cuzk bench poseidon: hashing failed\n");
        goto done;
    }
    if (memcmp(out1, outt, sizeof(cz_fr) * o.count) != 0) {
        fprintf(stderr, "cuzk bench poseidon: BUG: %u-thread output differs from 1 thread\n",
                threads);
        goto done;
    }
    double hps = (double)o.count / best, base_hps = (double)o.count / base;
    if (o.json)
        printf("{\"bench\":\"poseidon\",\"arity\":%u,\"count\":%zu,\"threads\":%u,"
               "\"iters\":%d,\"ms\":%.3f,\"baseline_ms\":%.3f,\"hashes_per_s\":%.0f,"
               "\"baseline_hashes_per_s\":%.0f,\"us_per_hash_1t\":%.2f,\"speedup\":%.3f,"
               "\"peak_rss_bytes\":%zu}\n",
               o.arity, o.count, threads, o.iters, best * 1e3, base * 1e3, hps, base_hps,
               base * 1e6 / (double)o.count, base / best, cz_bench_peak_rss());
    else
        printf("Poseidon arity %u, %zu hashes (best of %d): %u threads %.1f ms "
               "(%.0f hashes/s), 1 thread %.1f ms (%.0f hashes/s, %.2f us/hash), "
               "speedup %.2fx\n",
               o.arity, o.count, o.iters, threads, best * 1e3, hps, base * 1e3, base_hps,
               base * 1e6 / (double)o.count, base / best);
    rc = CZ_EXIT_OK;
done:
    cz_ctx_free(ctx);
    free(in);
    free(out1);
    free(outt);
    return rc;
}
