/*
 * bench/bench_synth.c — `cuzk bench synth`: PoRep C2 partition synthesis,
 * exactly as the engine runs it (cz_c2_synthesize: native C1 check, PROVE
 * without c, challenges in in-place forks on T threads, public inputs
 * compared), with direct emission (cs/emit.h: what the provers use)
 * against the general path (every combination built and evaluated in Fr,
 * cz_cs_emit_generic) in the same process, alternating, on the same C1.
 *
 * A third path is direct emission with warm buffers: the witness arrays
 * of the previous run kept by a recycler (core/recycle.h, what the engine
 * does between partitions) instead of freshly allocated pages.
 *
 * Per run it prints wall time and the process's CPU time over the
 * synthesis (user and system separately: the kernel's zeroing of fresh
 * witness pages is the system part), rows per CPU-second; then the
 * medians and their ratios. The two witnesses must be the same bytes
 * (SHA-256 over a, b, aux, inputs and densities); a difference fails the
 * run. The C1 is a file (--c1) or a sparse sector made in process
 * (--sparse 2KiB..64GiB, like `cuzk porep gen-c1 --sparse`).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench/bench.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "core/pool.h"
#include "core/recycle.h"
#include "cs/emit.h"
#include "hash/sha254.h"
#include "kinds/porep/c2.h"
#include "kinds/porep/seal_sparse.h"

typedef struct {
    const char *c1_path;
    uint64_t sparse_bytes;
    unsigned partition, threads;
    int iters;
    bool baseline, json;
} synth_opts;

typedef struct {
    const char *c1_path;
    uint64_t sparse_bytes;
    size_t partition, threads, iters;
    bool no_baseline, json;
} synth_args;

static const cz_opt SYNTH_OPTS[] = {
    { "c1", 0, CZ_O_STRING(synth_args, c1_path), .arg = "FILE", .help = "the C1 JSON" },
    { "sparse", 0, CZ_O_SECTOR(synth_args, sparse_bytes), .arg = "SIZE",
      .help = "an all-zero sector of SIZE made in process instead (2KiB .. 64GiB)" },
    { "partition", 0, CZ_O_SIZE(synth_args, partition), .max = 64, .arg = "K",
      .help = "the partition synthesized" },
    CZ_OPT_THREADS(synth_args, threads),
    { "iters", 0, CZ_O_SIZE(synth_args, iters), .min = 1, .max = 100, .def = "2",
      .help = "runs of each path" },
    { "no-baseline", 0, CZ_O_FLAG(synth_args, no_baseline), .help = "skip the general path" },
    CZ_OPT_JSON(synth_args, json, "one JSON line"),
};
static const cz_opt_rule SYNTH_RULES[] = { CZ_RULE(ONE_OF, "c1", "sparse") };
static const cz_opts_spec SYNTH_SPEC = {
    .cmd = "cuzk bench synth",
    .usage = "usage: cuzk bench synth (--c1 FILE | --sparse SIZE) [--partition K] [--threads T]\n"
             "                        [--iters N] [--no-baseline] [--json]\n",
    .about = "  Synthesizes partition K of a PoRep C1 as the engine does, N times each: with\n"
             "  direct emission on fresh pages and, alternating, on the general path (the\n"
             "  baseline); then direct on warm buffers (recycled from the previous run, as the\n"
             "  engine does). One witness is alive at a time. Prints wall and CPU time (user,\n"
             "  sys) per run, the medians and the ratios; the two paths' witnesses must be\n"
             "  identical.\n",
    CZ_OPTS(SYNTH_OPTS),
    CZ_RULES(SYNTH_RULES),
};

static int parse(int argc, char **argv, synth_opts *o)
{
    synth_args a;
    int rc = cz_opts_parse(&SYNTH_SPEC, &a, argc, argv, NULL);
    if (rc != CZ_OPTS_RUN)
        return rc;
    *o = (synth_opts){ .c1_path = a.c1_path,
                       .sparse_bytes = a.sparse_bytes,
                       .partition = (unsigned)a.partition,
                       .threads = (unsigned)a.threads,
                       .iters = (int)a.iters,
                       .baseline = !a.no_baseline,
                       .json = a.json };
    return CZ_OPTS_RUN;
}

/* User and system CPU seconds of the whole process so far. */
static void cpu_times(double *user, double *sys)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *user = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec;
    *sys = (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
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
    double wall, user, sys;
} run_t;

/* One synthesis of partition |k|, its buffers from and back to |rec| (NULL:
 * fresh pages, freed); its digest in out. */
static int run_once(cz_ctx_t *ctx, cz_c2_job_t *job, unsigned k, bool direct, cz_recycler_t *rec,
                    run_t *r, uint8_t out[32])
{
    job->generic = !direct;
    cz_ctx_set_recycler(ctx, rec);
    cz_cs_witness_t w;
    double u0, s0, u1, s1;
    cpu_times(&u0, &s0);
    double t0 = cz_bench_now();
    int rc = cz_c2_synthesize(job, k, ctx, &w);
    r->wall = cz_bench_now() - t0;
    cpu_times(&u1, &s1);
    r->user = u1 - u0;
    r->sys = s1 - s0;
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

/* Median of the field at |off| over |n| runs. */
static double median(const run_t *runs, int n, size_t off)
{
    double v[100];
    for (int i = 0; i < n; i++)
        v[i] = *(const double *)((const char *)&runs[i] + off);
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void print_run(const char *path, int i, const run_t *r, size_t rows, bool json)
{
    double cpu = r->user + r->sys;
    if (json)
        printf("{\"bench\":\"synth\",\"path\":\"%s\",\"run\":%d,\"wall_s\":%.3f,\"user_s\":%.3f,"
               "\"sys_s\":%.3f,\"rows_per_cpu_s\":%.0f}\n",
               path, i, r->wall, r->user, r->sys, (double)rows / cpu);
    else
        printf("  %-8s run %d: wall %7.2f s  cpu %7.2f s (user %6.2f, sys %6.2f)  %5.2f M rows "
               "per cpu-s\n",
               path, i, r->wall, cpu, r->user, r->sys, (double)rows / cpu / 1e6);
    fflush(stdout);
}

static int load_c1(cz_ctx_t *ctx, const synth_opts *o, cz_c1_t *c1)
{
    if (o->c1_path)
        return cz_c1_load(ctx, c1, o->c1_path);
    cz_seal_args_t a;
    memset(&a, 0, sizeof a);
    a.sector_bytes = o->sparse_bytes;
    a.random_seed = 1;
    memset(a.prover_id, 2, 32);
    memset(a.ticket, 3, 32);
    memset(a.seed, 4, 32);
    return cz_seal_sparse_gen_c1(ctx, &a, c1, NULL);
}

int cz_bench_synth(int argc, char **argv)
{
    synth_opts o;
    int p = parse(argc, argv, &o);
    if (p != CZ_OPTS_RUN)
        return p;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, o.threads))
        return CZ_EXIT_FAIL;
    cz_c1_t c1;
    cz_c2_job_t job;
    int rc = load_c1(ctx, &o, &c1), loaded = rc == CZ_OK, inited = 0;
    double t0 = cz_bench_now();
    if (rc == CZ_OK && (rc = cz_c2_job_init(ctx, &job, &c1, NULL, NULL)) == CZ_OK)
        inited = 1;
    if (rc == CZ_OK && o.partition >= c1.npartitions)
        rc = cz_fail(ctx, CZ_EINVAL, "partition %u of %u", o.partition, c1.npartitions);
    if (rc) {
        fprintf(stderr, "bench synth: %s\n", cz_ctx_message(ctx));
        goto out;
    }
    const unsigned width = cz_pool_width(cz_ctx_pool(ctx));
    if (!o.json)
        printf("synth: %s partition %u: %zu rows, %zu aux; %u threads; job init (shape + "
               "plan) %.2f s\n",
               c1.proof->name, o.partition, job.rows, job.shape.num_aux, width,
               cz_bench_now() - t0);
    run_t d[100], g[100], wm[100];
    uint8_t hd[32], hg[32], hw[32];
    cz_recycler_t *rec = NULL;
    if (cz_recycler_new(&rec, (size_t)8 << 20, 16, NULL, NULL, NULL))
        rc = cz_fail(ctx, CZ_ENOMEM, "recycler");
    /* One witness alive at a time (a 32GiB one is 12.5 GB): the fresh and
     * general runs with the recycler empty, the warm ones after a first
     * untimed run has filled it. */
    for (int i = 0; i < o.iters && rc == CZ_OK; i++) {
        if ((rc = run_once(ctx, &job, o.partition, true, NULL, &d[i], hd)))
            break;
        print_run("direct", i, &d[i], job.rows, o.json);
        if (o.baseline && (rc = run_once(ctx, &job, o.partition, false, NULL, &g[i], hg)))
            break;
        if (o.baseline)
            print_run("general", i, &g[i], job.rows, o.json);
        if (o.baseline && memcmp(hd, hg, 32)) {
            fprintf(stderr, "bench synth: BUG: the direct and general witnesses differ\n");
            rc = CZ_EINTERNAL;
        }
    }
    if (rc == CZ_OK)
        rc = run_once(ctx, &job, o.partition, true, rec, &wm[0], hw);
    for (int i = 0; i < o.iters && rc == CZ_OK; i++) {
        if ((rc = run_once(ctx, &job, o.partition, true, rec, &wm[i], hw)))
            break;
        print_run("warm", i, &wm[i], job.rows, o.json);
        if (memcmp(hd, hw, 32)) {
            fprintf(stderr, "bench synth: BUG: the warm and fresh witnesses differ\n");
            rc = CZ_EINTERNAL;
        }
    }
    cz_ctx_set_recycler(ctx, NULL);
    cz_recycler_free(rec);
    if (rc) {
        if (rc != CZ_EINTERNAL)
            fprintf(stderr, "bench synth: %s\n", cz_ctx_message(ctx));
        goto out;
    }
    const size_t WALL = offsetof(run_t, wall), USER = offsetof(run_t, user);
    const size_t SYS = offsetof(run_t, sys);
    double dw = median(d, o.iters, WALL), dc = median(d, o.iters, USER) + median(d, o.iters, SYS);
    char hex[65];
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", hd[i]);
    if (o.json) {
        printf("{\"bench\":\"synth\",\"proof\":\"%s\",\"rows\":%zu,\"threads\":%u,"
               "\"direct_wall_s\":%.3f,\"direct_cpu_s\":%.3f,\"witness_sha256\":\"%s\"",
               c1.proof->name, job.rows, width, dw, dc, hex);
    } else {
        printf("direct:  median wall %.2f s, cpu %.2f s (user %.2f, sys %.2f); witness sha256 "
               "%s\n",
               dw, dc, median(d, o.iters, USER), median(d, o.iters, SYS), hex);
    }
    double ww = median(wm, o.iters, WALL),
           wc = median(wm, o.iters, USER) + median(wm, o.iters, SYS);
    if (o.json)
        printf(",\"warm_wall_s\":%.3f,\"warm_cpu_s\":%.3f,\"fresh_over_warm_cpu\":%.3f", ww, wc,
               dc / wc);
    else
        printf("warm:    median wall %.2f s, cpu %.2f s (user %.2f, sys %.2f); fresh/warm: "
               "wall %.2fx, cpu %.2fx\n",
               ww, wc, median(wm, o.iters, USER), median(wm, o.iters, SYS), dw / ww, dc / wc);
    if (o.baseline) {
        double gw = median(g, o.iters, WALL),
               gc = median(g, o.iters, USER) + median(g, o.iters, SYS);
        if (o.json)
            printf(",\"general_wall_s\":%.3f,\"general_cpu_s\":%.3f,\"wall_ratio\":%.3f,"
                   "\"cpu_ratio\":%.3f,\"user_ratio\":%.3f",
                   gw, gc, gw / dw, gc / dc, median(g, o.iters, USER) / median(d, o.iters, USER));
        else
            printf("general: median wall %.2f s, cpu %.2f s (user %.2f, sys %.2f); the same "
                   "witness\nratio general/direct: wall %.2fx, cpu %.2fx, user %.2fx\n",
                   gw, gc, median(g, o.iters, USER), median(g, o.iters, SYS), gw / dw, gc / dc,
                   median(g, o.iters, USER) / median(d, o.iters, USER));
    }
    if (o.json)
        printf("}\n");
out:
    if (inited)
        cz_c2_job_clear(&job);
    if (loaded)
        cz_c1_free(&c1);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}
