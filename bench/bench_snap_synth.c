/*
 * bench/bench_snap_synth.c — `cuzk bench snap-synth`: one SnapDeals update
 * partition synthesized exactly as the engine runs it (cz_snap_synthesize:
 * PROVE without c, arrays reserved from the shape, public inputs compared)
 * on 1 thread (the sequential code: the baseline) and on T threads (apex
 * rows and challenges in in-place forks, circuits/snap/parallel.c), in
 * one process, alternating, on the witness of `cuzk prove --kind snap
 * --random-params` (cz_snap_job_random: the real R1CS, random values).
 *
 * Both paths take their arrays warm from a recycler (core/recycle.h), as
 * the engine does between partitions, after one untimed run of each; so
 * the figures are synthesis, not the kernel zeroing fresh pages. Per run:
 * wall time and the process's CPU time (user + sys); then the medians,
 * the speed-up (wall, 1 thread / T threads) and the CPU cost ratio. The
 * two witnesses must be the same bytes (SHA-256 over a, b, aux, inputs,
 * densities); a difference fails the run.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench/bench.h"
#include "circuits/porep/stacked.h"
#include "cli/cli.h"
#include "core/pool.h"
#include "core/recycle.h"
#include "hash/sha254.h"
#include "kinds/snap/job.h"

typedef struct {
    uint64_t bytes;
    const char *size;
    unsigned partition, threads;
    int iters;
    bool json;
} snap_synth_opts;

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk bench snap-synth --sector-size 2KiB|8MiB|512MiB|32GiB|64GiB\n"
               "                             [--partition K] [--threads T] [--iters N] [--json]\n"
               "  Synthesizes partition K (default 0) of a SnapDeals update with a random\n"
               "  witness (the --random-params job) as the engine does, N times (default 3)\n"
               "  on 1 thread (sequential) and, alternating, on T threads (default: all\n"
               "  cores; apex rows and challenges in in-place forks), warm buffers for both.\n"
               "  Prints wall and CPU time per run, the medians and the ratios; the two\n"
               "  witnesses must be identical.\n");
}

static int parse(int argc, char **argv, snap_synth_opts *o)
{
    static const struct option longopts[] = {
        { "sector-size", required_argument, 0, 's' },
        { "partition", required_argument, 0, 'p' },
        { "threads", required_argument, 0, 't' },
        { "iters", required_argument, 0, 'i' },
        { "json", no_argument, 0, 'j' },
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    *o = (snap_synth_opts){ .iters = 3 };
    int c;
    size_t v;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 's':
            if (cz_porep_parse_size(optarg, &o->bytes))
                return -1;
            o->size = optarg;
            break;
        case 'p':
            if (!cz_cli_parse_size(optarg, &v) || v > 64)
                return -1;
            o->partition = (unsigned)v;
            break;
        case 't':
            if (!cz_cli_parse_size(optarg, &v) || v < 1 || v > 4096)
                return -1;
            o->threads = (unsigned)v;
            break;
        case 'i':
            if (!cz_cli_parse_size(optarg, &v) || v < 1 || v > 100)
                return -1;
            o->iters = (int)v;
            break;
        case 'j': o->json = true; break;
        case 'h': usage(stdout); return 1;
        default: return -1;
        }
    }
    return optind == argc && o->bytes ? 0 : -1;
}

/* User + system CPU seconds of the whole process so far. */
static double cpu_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* SHA-256 over everything a proof reads from the witness. */
static void digest(uint8_t out[32], const cz_cs_witness_t *w)
{
    cz_sha256_ctx s;
    cz_sha256_init(&s);
    size_t counts[3] = { w->num_rows, w->num_aux, w->num_inputs };
    cz_sha256_update(&s, counts, sizeof counts);
    cz_sha256_update(&s, w->a, w->num_rows * sizeof(cz_fr));
    cz_sha256_update(&s, w->b, w->num_rows * sizeof(cz_fr));
    cz_sha256_update(&s, w->aux, w->num_aux * sizeof(cz_fr));
    cz_sha256_update(&s, w->input, w->num_inputs * sizeof(cz_fr));
    for (int i = 0; i < 3; i++)
        cz_sha256_update(&s, w->density[i], (w->density_bits[i] + 63) / 64 * 8);
    cz_sha256_final(&s, out);
}

typedef struct {
    double wall, cpu;
} run_t;

/* One synthesis of partition |k| on |ctx|'s pool, buffers from and back to
 * |rec|; its digest in out. */
static int run_once(cz_ctx_t *ctx, cz_snap_job_t *job, unsigned k, cz_recycler_t *rec, run_t *r,
                    uint8_t out[32])
{
    cz_ctx_set_recycler(ctx, rec);
    cz_cs_witness_t w;
    double c0 = cpu_now(), t0 = cz_bench_now();
    int rc = cz_snap_synthesize(job, k, ctx, &w);
    r->wall = cz_bench_now() - t0;
    r->cpu = cpu_now() - c0;
    cz_ctx_set_recycler(ctx, NULL);
    if (rc)
        return rc;
    digest(out, &w);
    cz_cs_witness_free_into(&w, rec);
    return CZ_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(const run_t *runs, int n, bool wall)
{
    double v[100];
    for (int i = 0; i < n; i++)
        v[i] = wall ? runs[i].wall : runs[i].cpu;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void print_run(unsigned threads, int i, const run_t *r, size_t rows, bool json)
{
    if (json)
        printf("{\"bench\":\"snap-synth\",\"threads\":%u,\"run\":%d,\"wall_s\":%.3f,"
               "\"cpu_s\":%.3f}\n",
               threads, i, r->wall, r->cpu);
    else
        printf("  T=%-3u run %d: wall %7.3f s  cpu %7.3f s  %6.2f M rows/s\n", threads, i, r->wall,
               r->cpu, (double)rows / r->wall / 1e6);
    fflush(stdout);
}

static int bench(cz_ctx_t *one, cz_ctx_t *many, cz_snap_job_t *job, const snap_synth_opts *o)
{
    const unsigned width = cz_pool_width(cz_ctx_pool(many)), k = o->partition;
    run_t s[100], p[100], untimed;
    uint8_t hs[32], hp[32];
    cz_recycler_t *rec = NULL;
    if (cz_recycler_new(&rec, (size_t)8 << 20, 16, NULL, NULL, NULL))
        return cz_fail(one, CZ_ENOMEM, "recycler");
    /* One untimed run of each fills the recycler; then alternate. */
    int rc = run_once(one, job, k, rec, &untimed, hs);
    if (rc == CZ_OK && (rc = run_once(many, job, k, rec, &untimed, hp)) != CZ_OK)
        cz_fail(one, rc, "%s", cz_ctx_message(many));
    for (int i = 0; i < o->iters && rc == CZ_OK; i++) {
        if ((rc = run_once(one, job, k, rec, &s[i], hs)))
            break;
        print_run(1, i, &s[i], job->rows, o->json);
        if ((rc = run_once(many, job, k, rec, &p[i], hp))) {
            cz_fail(one, rc, "%s", cz_ctx_message(many));
            break;
        }
        print_run(width, i, &p[i], job->rows, o->json);
        if (memcmp(hs, hp, 32))
            rc = cz_fail(one, CZ_EINTERNAL, "BUG: the 1-thread and %u-thread witnesses differ",
                         width);
    }
    cz_recycler_free(rec);
    if (rc)
        return rc;
    char hex[65];
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", hs[i]);
    const double sw = median(s, o->iters, true), sc = median(s, o->iters, false);
    const double pw = median(p, o->iters, true), pc = median(p, o->iters, false);
    if (o->json)
        printf("{\"bench\":\"snap-synth\",\"sector_size\":\"%s\",\"partition\":%u,\"rows\":%zu,"
               "\"threads\":%u,\"seq_wall_s\":%.3f,\"seq_cpu_s\":%.3f,\"par_wall_s\":%.3f,"
               "\"par_cpu_s\":%.3f,\"speedup\":%.3f,\"cpu_ratio\":%.3f,"
               "\"witness_sha256\":\"%s\"}\n",
               o->size, k, job->rows, width, sw, sc, pw, pc, sw / pw, pc / sc, hex);
    else
        printf("1 thread:   median wall %.3f s, cpu %.3f s\n"
               "%u threads: median wall %.3f s, cpu %.3f s\n"
               "speed-up (wall 1 / T): %.2fx; cpu T / 1: %.2fx; the same witness, sha256 %s\n",
               sw, sc, width, pw, pc, sw / pw, pc / sc, hex);
    return CZ_OK;
}

int cz_bench_snap_synth(int argc, char **argv)
{
    snap_synth_opts o;
    int p = parse(argc, argv, &o);
    if (p) {
        usage(p > 0 ? stdout : stderr);
        return p > 0 ? CZ_EXIT_OK : CZ_EXIT_USAGE;
    }
    cz_ctx_t *one = NULL, *many = NULL;
    if (cz_ctx_new(&one, NULL, 1) || cz_ctx_new(&many, NULL, o.threads)) {
        cz_ctx_free(one);
        return CZ_EXIT_FAIL;
    }
    cz_snap_job_t job;
    double t0 = cz_bench_now();
    int rc = cz_snap_job_random(one, &job, o.bytes, 1);
    if (rc == CZ_OK && o.partition >= job.params.partitions) {
        rc = cz_fail(one, CZ_EINVAL, "partition %u of %u", o.partition, job.params.partitions);
        cz_snap_job_clear(&job);
    }
    if (rc == CZ_OK) {
        if (!o.json)
            printf("snap-synth: %s partition %u: %zu rows, %zu aux, %u challenges; 1 vs %u "
                   "threads; job (random witness, shape, plan) %.2f s\n",
                   o.size, o.partition, job.rows, job.shape.num_aux, job.params.challenges,
                   cz_pool_width(cz_ctx_pool(many)), cz_bench_now() - t0);
        rc = bench(one, many, &job, &o);
        cz_snap_job_clear(&job);
    }
    if (rc)
        fprintf(stderr, "bench snap-synth: %s\n", cz_ctx_message(one));
    cz_ctx_free(many);
    cz_ctx_free(one);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}
