/*
 * tests/kinds/porep/mem_c2_partition.c — memory of one PoRep C2 partition, for
 * docs/PERFORMANCE.md ("Memory per partition"); a measuring tool, not a
 * ctest (a 32GiB partition needs 12-17 GB).
 *
 *   mem_c2_partition C1.json [--partition K] [--threads T] [--h]
 *
 * Synthesizes partition K (default 0) exactly as the engine does
 * (cz_c2_synthesize: native check, PROVE synthesis, public inputs), prints
 * the shape, the bytes of a/b/c and aux the witness holds, whether it
 * carries c, the time and the peak RSS so far. With --h it then grows a/b
 * (and c) to the domain as the prover does and runs the CPU backend's H
 * (cz_cpu_compute_h), printing the peak RSS again. Run it under
 * `/usr/bin/time -v` for "Maximum resident set size".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "backend/cpu/h.h"
#include "core/pool.h"
#include "kinds/porep/c1.h"
#include "kinds/porep/c2.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double peak_gib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / (1024.0 * 1024.0); /* KiB -> GiB */
}

static int grow(cz_fr **v, size_t m)
{
    cz_fr *g = realloc(*v, m * sizeof **v);
    if (!g)
        return CZ_ENOMEM;
    *v = g;
    return CZ_OK;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    unsigned k = 0, threads = 0;
    int run_h = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--partition") && i + 1 < argc)
            k = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--h"))
            run_h = 1;
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else
            path = NULL, i = argc;
    }
    if (!path) {
        fprintf(stderr, "usage: mem_c2_partition C1.json [--partition K] [--threads T] [--h]\n");
        return 2;
    }
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, threads))
        return 1;
    cz_c1_t c1;
    cz_c2_job_t job;
    cz_cs_witness_t w = { 0 };
    double t0 = now();
    int rc = cz_c1_load(ctx, &c1, path), loaded = rc == CZ_OK;
    if (rc == CZ_OK && (rc = cz_c2_job_init(ctx, &job, &c1, NULL, NULL)) == CZ_OK) {
        double t1 = now();
        printf("C1 + shape: %.1f s, peak RSS %.2f GiB\n", t1 - t0, peak_gib());
        rc = cz_c2_synthesize(&job, k, ctx, &w);
        double t2 = now();
        if (rc == CZ_OK) {
            const double gib = 1024.0 * 1024.0 * 1024.0, fr = sizeof(cz_fr);
            size_t vecs = w.c ? 3 : 2;
            printf("partition %u: rows %zu, inputs %zu, aux %zu; witness c %s\n", k, w.num_rows,
                   w.num_inputs, w.num_aux, w.c ? "stored" : "NULL (c = a*b)");
            printf("synthesis: %.1f s on %u threads; a/b%s %.2f GiB, aux %.2f GiB; "
                   "peak RSS %.2f GiB\n",
                   t2 - t1, cz_pool_width(cz_ctx_pool(ctx)), w.c ? "/c" : "",
                   (double)(vecs * w.num_rows) * fr / gib, (double)w.num_aux * fr / gib,
                   peak_gib());
        }
        if (rc == CZ_OK && run_h) {
            unsigned log_m = 0;
            while (((size_t)1 << log_m) < w.num_rows)
                log_m++;
            size_t m = (size_t)1 << log_m;
            cz_ntt_domain *d = NULL;
            rc = grow(&w.a, m);
            if (rc == CZ_OK)
                rc = grow(&w.b, m);
            if (rc == CZ_OK && w.c)
                rc = grow(&w.c, m);
            if (rc == CZ_OK)
                rc = cz_ntt_domain_new(ctx, &d, log_m);
            double t3 = now();
            if (rc == CZ_OK)
                rc = cz_cpu_compute_h(ctx, d, w.a, w.b, w.c, w.num_rows);
            if (rc == CZ_OK)
                printf("CPU H at 2^%u: %.1f s; peak RSS %.2f GiB\n", log_m, now() - t3, peak_gib());
            cz_ntt_domain_free(d);
        }
        cz_cs_witness_free(&w);
        cz_c2_job_clear(&job);
    }
    if (loaded)
        cz_c1_free(&c1);
    if (rc)
        fprintf(stderr, "mem_c2_partition: %s\n", cz_ctx_message(ctx));
    cz_ctx_free(ctx);
    return rc ? 1 : 0;
}
