/*
 * bench/bench_poseidon.c — `cuzk bench poseidon`: batch Poseidon hashing
 * (cz_poseidon_hash_many) on T threads against the same batch hashed on the
 * calling thread alone, same process, same input.
 *
 * Each side is the best of K runs. Both sides must produce identical
 * outputs; a difference is reported as a bug and fails the run.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "hash/poseidon.h"

typedef struct {
    unsigned arity;
    unsigned threads; /* 0 = all cores */
    size_t count;
    int iters;
    bool json;
} poseidon_opts;

typedef struct {
    size_t arity, threads, count, iters;
    bool json;
} poseidon_args;

/* --arity: one neptune has constants for (2, 4, 8, 11). */
static bool parse_arity(void *field, const char *text, char *why, size_t cap)
{
    size_t v;
    if (!cz_cli_parse_size(text, &v) || !cz_poseidon_constants_get((unsigned)v))
        return snprintf(why, cap, "is not an arity with constants (2, 4, 8, 11)"), false;
    *(size_t *)field = v;
    return true;
}

static const cz_opt POSEIDON_OPTS[] = {
    { "arity", 0, CZ_O_CUSTOM(poseidon_args, arity), .hook = parse_arity, .def = "8",
      .arg = "2|4|8|11", .help = "the preimages' arity" },
    CZ_OPT_THREADS(poseidon_args, threads),
    { "count", 0, CZ_O_SIZE(poseidon_args, count), .min = 1, .max = (size_t)1 << 26, .def = "65536",
      .help = "random preimages" },
    { "iters", 0, CZ_O_SIZE(poseidon_args, iters), .min = 1, .max = 1000, .def = "3", .arg = "K",
      .help = "best of K runs each" },
    CZ_OPT_JSON(poseidon_args, json, "one JSON line"),
};
static const cz_opts_spec POSEIDON_SPEC = {
    .cmd = "cuzk bench poseidon",
    .usage = "usage: cuzk bench poseidon [--arity 2|4|8|11] [--threads T] [--count N]\n"
             "                           [--iters K] [--json]\n",
    .about = "  Hashes N random preimages of the arity on T threads and on 1 thread, best of\n"
             "  K runs each, and prints hashes/s for both and the speedup.\n",
    CZ_OPTS(POSEIDON_OPTS),
};

static int parse(int argc, char **argv, poseidon_opts *o)
{
    poseidon_args a;
    int rc = cz_opts_parse(&POSEIDON_SPEC, &a, argc, argv, NULL);
    if (rc != CZ_OPTS_RUN)
        return rc;
    *o = (poseidon_opts){ .arity = (unsigned)a.arity,
                          .threads = (unsigned)a.threads,
                          .count = a.count,
                          .iters = (int)a.iters,
                          .json = a.json };
    return CZ_OPTS_RUN;
}

/* Best time of |iters| batch runs; < 0 on error. */
static double time_best(cz_ctx_t *ctx, const cz_poseidon_constants *c, cz_fr *out, const cz_fr *in,
                        size_t n, int iters)
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
    if (p != CZ_OPTS_RUN)
        return p;
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

    double base = time_best(NULL, c, out1, in, o.count, o.iters); /* calling thread */
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
