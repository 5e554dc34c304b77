/*
 * cli/cmd_porep.c — `cuzk porep gen-c1 ...` (seal a small test sector and
 * write its C1 JSON; with --sparse a synthetic all-zero sector of any size,
 * porep/seal_sparse.h) and `cuzk porep check-c1 FILE` (parse and verify a
 * C1 natively). Needs jansson (CUZK_HAVE_JANSSON).
 *
 * Also the `--kind porep-c2` forms of prove, setup and verify (cmd_prove.c
 * and cmd_setup.c hand them over with cz_cli_has_kind): C2 through the
 * engine on the backend --backend names (backend.h), test params for porep:SIZE under the
 * Filecoin file names, and verification from public values (porep/c2.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/hex.h"
#include "cli/cli.h"
#include "circuits/porep/stacked.h"
#include "cuzk/ctx.h"

#ifdef CUZK_HAVE_JANSSON
#include <errno.h>
#include <getopt.h>

#include "backend/backend.h"
#include "cli/progress.h"
#include "cli/public_file.h"
#include "engine/analyze.h"
#include "engine/engine.h"
#include "engine/svg.h"
#include "porep/c1.h"
#include "porep/c2.h"
#include "porep/seal.h"
#include "porep/seal_sparse.h"
#include "gadgets/sha254.h"

static void hexout(const uint8_t *b)
{
    for (int i = 0; i < 32; i++)
        printf("%02x", b[i]);
}

/* A 32-byte value: 64 hex digits, or any other text hashed with SHA-256. */
static void bytes32(uint8_t out[32], const char *s)
{
    if (strlen(s) == 64 && strspn(s, "0123456789abcdefABCDEF") == 64) {
        for (int i = 0; i < 32; i++) {
            unsigned v;
            sscanf(s + 2 * i, "%2x", &v);
            out[i] = (uint8_t)v;
        }
    } else {
        cz_sha256(out, s, strlen(s));
    }
}

static int usage(void)
{
    fprintf(stderr,
            "usage: cuzk porep gen-c1 --sector-size 2KiB|8MiB|512MiB (--data FILE | --random SEED)\n"
            "                         [--ticket T] [--seed S] [--prover-id P] [--sector-id N]\n"
            "                         -o c1.json\n"
            "       cuzk porep gen-c1 --sector-size 2KiB..64GiB --sparse [--random SEED] ...\n"
            "         (all-zero data, sparse trees: only the opened columns are materialized;\n"
            "          SEED picks the unopened parents' labels)\n"
            "       cuzk porep check-c1 c1.json\n"
            "T, S, P: 64 hex digits, or any text (its SHA-256 is used).\n");
    return CZ_EXIT_USAGE;
}

static int gen_c1(int argc, char **argv)
{
    cz_seal_args_t a;
    memset(&a, 0, sizeof a);
    const char *out = NULL, *data_path = NULL;
    int have_random = 0, sparse = 0;
    bytes32(a.ticket, "ticket");
    bytes32(a.seed, "seed");
    bytes32(a.prover_id, "prover");
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--sparse")) {
            sparse = 1;
            continue;
        } else if (!strcmp(argv[i], "--sector-size") && v) {
            if (cz_porep_parse_size(v, &a.sector_bytes))
                return usage();
        } else if (!strcmp(argv[i], "--data") && v) {
            data_path = v;
        } else if (!strcmp(argv[i], "--random") && v) {
            a.random_seed = strtoull(v, NULL, 0);
            have_random = 1;
        } else if (!strcmp(argv[i], "--ticket") && v) {
            bytes32(a.ticket, v);
        } else if (!strcmp(argv[i], "--seed") && v) {
            bytes32(a.seed, v);
        } else if (!strcmp(argv[i], "--prover-id") && v) {
            bytes32(a.prover_id, v);
        } else if (!strcmp(argv[i], "--sector-id") && v) {
            a.sector_id = strtoull(v, NULL, 0);
        } else if (!strcmp(argv[i], "-o") && v) {
            out = v;
        } else {
            return usage();
        }
        i++;
    }
    if (!out || !a.sector_bytes ||
        (sparse ? data_path != NULL : !data_path == !have_random))
        return usage();
    uint8_t *data = NULL;
    if (data_path) {
        FILE *f = fopen(data_path, "rb");
        data = malloc(a.sector_bytes);
        if (!f || !data || fread(data, 1, a.sector_bytes, f) != a.sector_bytes) {
            fprintf(stderr, "porep gen-c1: cannot read %llu bytes from %s\n",
                    (unsigned long long)a.sector_bytes, data_path);
            if (f)
                fclose(f);
            free(data);
            return CZ_EXIT_FAIL;
        }
        fclose(f);
        a.data = data;
    }
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0)) {
        free(data);
        return CZ_EXIT_FAIL;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cz_c1_t c1;
    int rc = sparse ? cz_seal_sparse_gen_c1(ctx, &a, &c1, NULL) : cz_seal_gen_c1(ctx, &a, &c1);
    if (!rc)
        rc = cz_c1_save(ctx, &c1, out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc) {
        fprintf(stderr, "porep gen-c1: %s\n", cz_ctx_message(ctx));
    } else {
        printf("registered_proof %s\ncomm_d ", c1.proof->name);
        hexout(c1.comm_d);
        printf("\ncomm_r ");
        hexout(c1.comm_r);
        printf("\nreplica_id ");
        hexout(c1.replica_id);
        printf("\nwrote %s in %.2f s\n", out,
               (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
        cz_c1_free(&c1);
    }
    cz_ctx_free(ctx);
    free(data);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}

static int check_c1(int argc, char **argv)
{
    if (argc != 2)
        return usage();
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_FAIL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cz_c1_t c1;
    int rc = cz_c1_load(ctx, &c1, argv[1]);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc) {
        fprintf(stderr, "porep check-c1: %s\n", cz_ctx_message(ctx));
        cz_ctx_free(ctx);
        return rc == CZ_EFORMAT || rc == CZ_EIO ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
    }
    printf("parsed %s (%u partitions x %u challenges) in %.3f s\n", c1.proof->name,
           c1.npartitions, c1.nchallenges,
           (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    rc = cz_c1_verify(ctx, &c1);
    if (rc)
        fprintf(stderr, "porep check-c1: INVALID: %s\n", cz_ctx_message(ctx));
    else
        printf("valid\n");
    cz_c1_free(&c1);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}

int cmd_porep(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    if (!strcmp(argv[1], "gen-c1"))
        return gen_c1(argc - 1, argv + 1);
    if (!strcmp(argv[1], "check-c1"))
        return check_c1(argc - 1, argv + 1);
    return usage();
}

/* ---- PoRep C2: prove / setup / verify --kind porep-c2 ------------------------ */

/* 64 hex digits -> 32 bytes in order (the C1 JSON's byte order, as gen-c1 prints). */
static bool hex32(uint8_t out[32], const char *s)
{
    return s && strlen(s) == 64 && cz_hex_decode(out, s, 32);
}

/*
 * The engine of one C2 run on the backend *be (the engine borrows it): its
 * automatic memory budget is the engine's default margin plus the params,
 * which it does not count.
 */
static int c2_engine_new(cz_ctx_t *ctx, cz_engine_t **e, cz_backend_t **be, unsigned workers,
                         const cz_params_t *params, cz_timeline_t *tl, bool no_verify)
{
    cz_engine_config_t cfg = { .backends = be, .num_devices = 1, .workers_per_device = workers,
                               .pool = cz_ctx_pool(ctx), .timeline = tl, .no_verify = no_verify,
                               .memory_margin = ((size_t)5 << 30) + cz_params_mem_bytes(params) };
    return cz_engine_new(ctx, e, &cfg);
}

static double c2_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* DIR/<Filecoin name>.EXT for the production params of |bytes|. */
static bool c2_named(char *out, size_t cap, const char *dir, uint64_t bytes, const char *ext)
{
    cz_porep_params_t p;
    char name[256];
    if (cz_porep_params_sector(&p, bytes) || cz_c2_params_name(name, sizeof name, &p, ext))
        return false;
    int n = snprintf(out, cap, "%s/%s", dir, name);
    return n > 0 && (size_t)n < cap;
}

bool cz_cli_has_kind(int argc, char **argv, const char *kind)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--kind") && i + 1 < argc && !strcmp(argv[i + 1], kind))
            return true;
        if (!strncmp(argv[i], "--kind=", 7) && !strcmp(argv[i] + 7, kind))
            return true;
    }
    return false;
}

static const char C2_PROVE_USAGE[] =
    "usage: cuzk prove --kind porep-c2 --c1 FILE (--params P | --params-dir D) --proof OUT\n"
    "                  [--vk V] [--public PUB] [--workers W] [--threads T] [--quiet]\n"
    "                  [--backend cpu|cuda|auto] [--device N]\n"
    "       cuzk prove --kind porep-c2 --c1 FILE --random-params [--dry-run] [--proof OUT]\n"
    "                  [--workers-per-device W] [--threads T] [--backend B] [--device N]\n"
    "                  [--timeline LOG] [--svg OUT.svg] [--seed N] [--json] [--quiet]\n"
    "  SealCommit phase 2 in this process: every partition of the C1 is synthesized\n"
    "  (after a native check of the C1), proved through the engine (W workers,\n"
    "  default 2) on the backend: cpu, cuda (GPU N, default 0; fails with the reason\n"
    "  when unusable) or auto (default: cuda when usable, else cpu); the timing line\n"
    "  names it. The job is verified with the params' vk (or V), then the\n"
    "  concatenated proof (192 bytes per partition) is verified again from the\n"
    "  public values alone before it is written. --params-dir D takes the\n"
    "  Filecoin file name (v28-stacked-proof-of-replication-...params) in D.\n"
    "  --random-params: TIMING ONLY. Params of the partition circuit's exact shape\n"
    "  made of random points (cz_params_random, seed N, default 1; seconds even at\n"
    "  32GiB), every partition synthesized and proved through the engine, NOT\n"
    "  verified (the proof cannot verify); no file unless --proof (then not a valid\n"
    "  proof). Prints s/proof (submit to done), synthesis per partition (mean, and\n"
    "  the threads), the device region per partition, the device efficiency (the\n"
    "  timeline's analysis, as bench pipeline), peak RSS (VmHWM); --json one line.\n"
    "  --dry-run: print the C1's partition shape and stop. --workers-per-device is\n"
    "  --workers. --timeline/--svg keep the engine's log / Gantt chart.\n"
    "  Through cuzkd: cuzk submit --kind porep-c2 --input-path C1 --params NAME.\n"
    "  Exit 0 on success, 1 on failure, 2 on usage errors.\n";

typedef struct {
    const char *c1_path, *proof_path, *backend, *timeline_path, *svg_path;
    size_t workers, threads, device;
    uint64_t seed;
    bool quiet, json, dry_run;
} c2_random_opts_t;

/*
 * --random-params: TIMING ONLY. The C1's job (its exact partition shape,
 * cz_c2_job_init) with random params and no pvk, so the engine proves every
 * partition and skips verification; the figures come from the wall clock,
 * the engine's timeline and /proc/self/status.
 */
static int c2_prove_random(const c2_random_opts_t *o)
{
    static const char BANNER[] = "*** TIMING ONLY: random params, proof not verified ***";
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, (unsigned)o->threads)) {
        fprintf(stderr, "cuzk prove: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    cz_backend_t *be = NULL;
    int rc = CZ_OK;
    if (!o->dry_run && (rc = cz_backend_new(ctx, &be, o->backend, (int)o->device)) != CZ_OK) {
        fprintf(stderr, "cuzk prove: %s\n", *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
        cz_ctx_free(ctx);
        return rc == CZ_EINVAL ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
    }
    if (!o->json)
        printf("%s\n", BANNER);
    else
        fprintf(stderr, "%s\n", BANNER);
    fflush(stdout);
    cz_c1_t c1;
    memset(&c1, 0, sizeof c1);
    cz_c2_job_t job;
    memset(&job, 0, sizeof job);
    cz_params_t *params = NULL;
    cz_timeline_t *tl = NULL;
    cz_engine_t *e = NULL;
    cz_timeline_report_t *rep = NULL;
    char *log = NULL;
    uint8_t *proof = NULL;
    size_t len = 0;
    double t0 = c2_now(), t_shape = 0, t_params = 0, wall = 0;
    rc = cz_c1_load(ctx, &c1, o->c1_path);
    if (rc == CZ_OK)
        rc = cz_c2_job_init(ctx, &job, &c1, NULL, NULL);
    t_shape = c2_now() - t0;
    if (rc == CZ_OK && !o->json)
        printf("%s: %u partitions x %zu constraints / %zu rows (domain %zu, %zu inputs, "
               "%zu aux); c1+shape %.2f s\n",
               c1.proof->name, c1.npartitions, job.rows - job.shape.num_inputs, job.rows,
               job.shape.domain_size, job.shape.num_inputs, job.shape.num_aux, t_shape);
    if (rc == CZ_OK && o->dry_run) {
        if (o->json)
            printf("{\"registered_proof\":\"%s\",\"partitions\":%u,\"constraints\":%zu,"
                   "\"rows\":%zu,\"domain_size\":%zu,\"inputs\":%zu,\"aux\":%zu,"
                   "\"dry_run\":true}\n",
                   c1.proof->name, c1.npartitions, job.rows - job.shape.num_inputs, job.rows,
                   job.shape.domain_size, job.shape.num_inputs, job.shape.num_aux);
        goto out;
    }
    if (rc == CZ_OK) {
        double t = c2_now();
        rc = cz_params_random(ctx, &params, &job.shape, o->seed);
        if (rc == CZ_OK)
            rc = cz_params_check_shape(ctx, params, &job.shape);
        t_params = c2_now() - t;
        if (rc == CZ_OK && !o->json)
            printf("random params: %.2f s (seed %" PRIu64 ", %.2f GiB in memory); engine "
                   "budget per partition %.2f GiB\n", t_params, o->seed,
                   (double)cz_params_mem_bytes(params) / (1 << 30),
                   (double)job.spec.partition_bytes / (1 << 30));
    }
    if (rc == CZ_OK)
        rc = o->timeline_path ? cz_tl_open(ctx, &tl, o->timeline_path, 1) : cz_tl_new(&tl, NULL, 1);
    if (rc == CZ_OK)
        rc = c2_engine_new(ctx, &e, &be, (unsigned)o->workers, params, tl, true);
    uint64_t id = 0;
    cz_job_info_t info;
    memset(&info, 0, sizeof info);
    if (rc == CZ_OK) {
        cz_progress_t progress;
        cz_progress_start(&progress, o->quiet || o->json);
        job.spec.params = params;
        job.spec.pvk = NULL;   /* no verification (engine.h) */
        double t = c2_now();
        rc = cz_engine_submit(e, NULL, &job.spec, &id);
        while (rc == CZ_OK && (rc = cz_engine_wait(e, id, 0.25, &info)) == CZ_EBUSY) {
            rc = CZ_OK;
            cz_progress_draw(&progress, info.partitions_done, info.partitions, "proving");
        }
        wall = c2_now() - t;
        cz_progress_end(&progress);
        if (rc == CZ_OK && info.state != CZ_JOB_DONE)
            rc = cz_fail(ctx, info.error ? info.error : CZ_EINTERNAL, "job %s: %s",
                         cz_job_state_name(info.state), info.message);
    }
    if (rc == CZ_OK && o->proof_path) {
        rc = cz_engine_proof(e, id, &proof, &len);
        if (rc == CZ_OK)
            rc = cz_cli_write_file(ctx, o->proof_path, proof, len);
    }
    size_t rss_kib = cz_cli_peak_rss() / 1024;
    cz_engine_free(e);
    e = NULL;
    /* the timeline: synthesis per partition, device regions, efficiency */
    double eff = 1.0, disp_eff = 1.0, held_ms = 0, synth_ms = 0, synth_max_ms = 0;
    size_t regions = 0, overlaps = 0, nsynth = 0, ndev = 0;
    if (rc == CZ_OK) {
        log = cz_tl_captured(tl, &len);
        rc = log ? cz_timeline_analyze_buf(ctx, log, len, &rep) : cz_fail(ctx, CZ_ENOMEM, "timeline");
    }
    if (rc == CZ_OK) {
        ndev = cz_timeline_ndevices(rep);
        for (size_t d = 0; d < ndev; d++) {
            const cz_tl_device_t *dv = cz_timeline_device(rep, d);
            held_ms += dv->held_ms;
            regions += dv->regions;
            if (dv->efficiency < eff)
                eff = dv->efficiency;
            if (dv->dispatch_efficiency >= 0 && dv->dispatch_efficiency < disp_eff)
                disp_eff = dv->dispatch_efficiency;
        }
        if (!ndev)
            eff = disp_eff = 0;
        overlaps = cz_timeline_noverlaps(rep);
        const cz_tl_stage_t *st = cz_timeline_stage(rep, CZ_SPAN_SYNTH);
        if (st) {
            nsynth = st->count;
            synth_ms = st->mean_ms;
            synth_max_ms = st->max_ms;
        }
        if (o->svg_path)
            rc = cz_timeline_svg_file(ctx, rep, NULL, o->svg_path, NULL);
    }
    if (rc == CZ_OK) {
        unsigned threads = cz_pool_width(cz_ctx_pool(ctx));
        double region_ms = regions ? held_ms / (double)regions : 0;
        if (o->json) {
            printf("{\"timing_only\":true,\"verified\":false,\"registered_proof\":\"%s\","
                   "\"partitions\":%u,\"constraints\":%zu,\"rows\":%zu,\"backend\":\"%s\","
                   "\"device\":%d,\"workers_per_device\":%zu,\"threads\":%u,"
                   "\"s_per_proof\":%.3f,\"s_per_partition\":%.3f,\"synthesis_ms_mean\":%.1f,"
                   "\"synthesis_ms_max\":%.1f,\"synthesis_spans\":%zu,\"device_region_ms\":%.1f,"
                   "\"device_efficiency\":%.4f,\"dispatch_efficiency\":%.4f,"
                   "\"overlap_violations\":%zu,\"params_random_s\":%.2f,\"c1_shape_s\":%.2f,"
                   "\"peak_rss_kib\":%zu}\n",
                   c1.proof->name, c1.npartitions, job.rows - job.shape.num_inputs, job.rows,
                   be->ops->name, be->device_index, o->workers, threads, wall,
                   wall / c1.npartitions, synth_ms, synth_max_ms, nsynth, region_ms, eff, disp_eff,
                   overlaps, t_params, t_shape, rss_kib);
        } else {
            printf("%s: %.3f s/proof (%u partitions, submit to done; %.3f s/partition), "
                   "backend %s, device %d, %zu workers/device\n",
                   c1.proof->name, wall, c1.npartitions, wall / c1.npartitions, be->ops->name,
                   be->device_index, o->workers);
            printf("synthesis per partition: mean %.1f ms, max %.1f ms (%zu partitions, "
                   "%u threads, 1 synthesis worker)\n", synth_ms, synth_max_ms, nsynth, threads);
            printf("device region per partition: %.1f ms (%zu regions); device efficiency "
                   "%.1f%% (dispatch %.1f%%), %zu overlap violations\n",
                   region_ms, regions, 100 * eff, 100 * disp_eff, overlaps);
            printf("peak RSS (VmHWM): %zu KiB (%.2f GiB)\n", rss_kib, (double)rss_kib / 1048576.0);
            if (o->proof_path)
                printf("wrote %s (%zu bytes): NOT a valid proof (random params)\n",
                       o->proof_path, (size_t)c1.npartitions * 192);
            printf("%s\n", BANNER);
        }
    }
out:
    if (rc)
        fprintf(stderr, "cuzk prove: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    cz_timeline_report_free(rep);
    free(log);
    cz_engine_free(e);
    cz_tl_free(tl);
    cz_backend_free(be);
    free(proof);
    cz_params_free(params);
    cz_c2_job_clear(&job);
    cz_c1_free(&c1);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}

int cmd_prove_porep_c2(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "kind", required_argument, 0, 'k' },   { "c1", required_argument, 0, 'c' },
        { "params", required_argument, 0, 'p' }, { "params-dir", required_argument, 0, 'd' },
        { "proof", required_argument, 0, 'o' },  { "vk", required_argument, 0, 'v' },
        { "public", required_argument, 0, 'u' }, { "workers", required_argument, 0, 'w' },
        { "threads", required_argument, 0, 't' }, { "quiet", no_argument, 0, 'q' },
        { "backend", required_argument, 0, 'b' }, { "device", required_argument, 0, 'D' },
        { "random-params", no_argument, 0, 'R' }, { "dry-run", no_argument, 0, 'n' },
        { "workers-per-device", required_argument, 0, 'w' },
        { "timeline", required_argument, 0, 'l' }, { "svg", required_argument, 0, 's' },
        { "seed", required_argument, 0, 'S' },   { "json", no_argument, 0, 'J' },
        { "help", no_argument, 0, 'h' },         { 0, 0, 0, 0 },
    };
    const char *c1_path = NULL, *params_path = NULL, *dir = NULL, *proof_path = NULL;
    const char *vk_path = NULL, *public_path = NULL, *backend = "auto";
    const char *timeline_path = NULL, *svg_path = NULL;
    size_t workers = 2, threads = 0, device = 0;
    uint64_t seed = 1;
    bool quiet = false, random_params = false, dry_run = false, json = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'k': if (strcmp(optarg, "porep-c2")) goto usage; break;
        case 'c': c1_path = optarg; break;
        case 'p': params_path = optarg; break;
        case 'd': dir = optarg; break;
        case 'o': proof_path = optarg; break;
        case 'v': vk_path = optarg; break;
        case 'u': public_path = optarg; break;
        case 'w': if (!cz_cli_parse_size(optarg, &workers) || !workers || workers > 16) goto usage; break;
        case 't': if (!cz_cli_parse_size(optarg, &threads)) goto usage; break;
        case 'q': quiet = true; break;
        case 'b': backend = optarg; break;
        case 'D': if (!cz_cli_parse_size(optarg, &device) || device > 1024) goto usage; break;
        case 'R': random_params = true; break;
        case 'n': dry_run = true; break;
        case 'l': timeline_path = optarg; break;
        case 's': svg_path = optarg; break;
        case 'S': seed = strtoull(optarg, NULL, 0); break;
        case 'J': json = true; break;
        case 'h': fputs(C2_PROVE_USAGE, stdout); return CZ_EXIT_OK;
        default: goto usage;
        }
    }
    if (random_params) {
        /* timing only: no params, vk or public file; --proof optional */
        if (optind != argc || !c1_path || params_path || dir || vk_path || public_path)
            goto usage;
        c2_random_opts_t ro = { c1_path, proof_path, backend, timeline_path, svg_path,
                                workers, threads, device, seed, quiet, json, dry_run };
        return c2_prove_random(&ro);
    }
    if (optind != argc || !c1_path || !proof_path || !params_path == !dir || dry_run || json ||
        timeline_path || svg_path)
        goto usage;

    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, (unsigned)threads)) {
        fprintf(stderr, "cuzk prove: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    /* the backend first: an unusable one fails before the C1 and the params */
    cz_backend_t *be = NULL;
    int rc = cz_backend_new(ctx, &be, backend, (int)device);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk prove: %s\n", *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
        cz_ctx_free(ctx);
        return rc == CZ_EINVAL ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
    }
    cz_c1_t c1;
    memset(&c1, 0, sizeof c1);
    cz_c2_job_t job;
    memset(&job, 0, sizeof job);
    cz_params_t *params = NULL;
    cz_vk_t vk = { 0 };
    cz_pvk_t *pvk = NULL;
    cz_engine_t *e = NULL;
    uint8_t *proof = NULL;
    size_t len = 0;
    char named[1024];
    cz_progress_t progress;
    cz_progress_start(&progress, quiet);
    cz_progress_draw(&progress, 0, 1, "loading_c1");
    double t0 = c2_now(), t_c1 = 0, t_params = 0, t_engine = 0, t_verify = 0;
    rc = cz_c1_load(ctx, &c1, c1_path);
    if (rc == CZ_OK)
        rc = cz_c2_job_init(ctx, &job, &c1, NULL, NULL);
    t_c1 = c2_now() - t0;
    if (rc == CZ_OK && dir) {
        if (c2_named(named, sizeof named, dir, c1.params.sector_bytes, "params"))
            params_path = named;
        else
            rc = cz_fail(ctx, CZ_EINVAL, "no Filecoin params name for %s", c1.proof->name);
    }
    if (rc == CZ_OK) {
        cz_progress_draw(&progress, 0, c1.npartitions, "loading_params");
        cz_params_opts_t opts = { .expect = &job.shape };
        double t = c2_now();
        rc = cz_params_load(ctx, &params, params_path, &opts);
        t_params = c2_now() - t;
    }
    if (rc == CZ_OK && vk_path)
        rc = cz_vk_load(ctx, &vk, vk_path);
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &pvk, vk_path ? &vk : &params->vk);
    if (rc == CZ_OK && cz_pvk_num_inputs(pvk) != job.n_inputs)
        rc = cz_fail(ctx, CZ_EMISMATCH, "%s takes %zu public inputs, %s has %zu",
                     vk_path ? vk_path : params_path, cz_pvk_num_inputs(pvk), c1.proof->name,
                     job.n_inputs);
    if (rc == CZ_OK)
        rc = c2_engine_new(ctx, &e, &be, (unsigned)workers, params, NULL, false);
    uint64_t id = 0;
    cz_job_info_t info;
    memset(&info, 0, sizeof info);
    if (rc == CZ_OK) {
        job.spec.params = params;
        job.spec.pvk = pvk;
        double t = c2_now();
        rc = cz_engine_submit(e, NULL, &job.spec, &id);
        while (rc == CZ_OK && (rc = cz_engine_wait(e, id, 0.25, &info)) == CZ_EBUSY) {
            rc = CZ_OK;
            cz_progress_draw(&progress, info.partitions_done, info.partitions,
                             info.state == CZ_JOB_VERIFYING ? "verifying" : "proving");
        }
        t_engine = c2_now() - t;
        if (rc == CZ_OK && info.state != CZ_JOB_DONE)
            rc = cz_fail(ctx, info.error ? info.error : CZ_EINTERNAL, "job %s: %s",
                         cz_job_state_name(info.state), info.message);
    }
    if (rc == CZ_OK)
        rc = cz_engine_proof(e, id, &proof, &len);
    if (rc == CZ_OK) {
        /* as a chain verifier would: from replica_id, comm_d, comm_r, seed alone */
        cz_c2_public_t pub;
        cz_c2_public_from_c1(&pub, &c1);
        cz_progress_draw(&progress, c1.npartitions, c1.npartitions, "verifying");
        double t = c2_now();
        rc = cz_c2_verify(ctx, pvk, proof, len, &pub);
        t_verify = c2_now() - t;
        if (rc)
            cz_fail(ctx, rc, "the proof does not verify from the public values (%s)",
                    cz_strerror(rc));
    }
    if (rc == CZ_OK)
        rc = cz_cli_write_file(ctx, proof_path, proof, len);
    if (rc == CZ_OK && public_path)
        rc = cz_public_write(ctx, public_path, job.inputs, c1.npartitions, job.n_inputs);
    if (rc == CZ_OK)
        cz_progress_draw(&progress, c1.npartitions, c1.npartitions, "done");
    cz_progress_end(&progress);
    if (rc) {
        fprintf(stderr, "cuzk prove: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    } else {
        printf("proof written to %s (%s: %u partition%s x 192 = %zu bytes, verified from "
               "public values)\n", proof_path, c1.proof->name, c1.npartitions,
               c1.npartitions == 1 ? "" : "s", len);
        printf("time: c1+shape %.2f s, params %.2f s, engine %.2f s (synthesis %.2f s, "
               "device %.2f s), verify %.3f s, total %.2f s (%u threads, %zu workers, "
               "backend %s, device %d)\n",
               t_c1, t_params, t_engine, info.t.synthesis / 1e3, info.t.device / 1e3, t_verify,
               c2_now() - t0, cz_pool_width(cz_ctx_pool(ctx)), workers, be->ops->name,
               be->device_index);
    }
    cz_engine_free(e);
    cz_backend_free(be);
    free(proof);
    cz_pvk_free(pvk);
    cz_vk_clear(&vk);
    cz_params_free(params);
    cz_c2_job_clear(&job);
    cz_c1_free(&c1);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
usage:
    fputs(C2_PROVE_USAGE, stderr);
    return CZ_EXIT_USAGE;
}

static const char C2_SETUP_USAGE[] =
    "usage: cuzk setup --kind porep-c2 --sector-size SIZE (--params P --vk V | --params-dir D)\n"
    "                  [--seed S] [--threads T]\n"
    "  TEST parameters (random toxic waste; NEVER for production) for one partition\n"
    "  of the StackedDRG circuit of SIZE (2KiB, 8MiB, 512MiB, 32GiB, 64GiB), in\n"
    "  bellperson's format. --params-dir D writes D/<Filecoin name>.params and .vk\n"
    "  (v28-stacked-proof-of-replication-merkletree-poseidon_hasher-...), the names\n"
    "  real parameters have, so `prove --params-dir` finds either.\n";

int cmd_setup_porep_c2(int argc, char **argv)
{
    const char *size = NULL, *params = NULL, *vk = NULL, *dir = NULL, *seed = NULL, *threads = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(C2_SETUP_USAGE, stdout);
            return CZ_EXIT_OK;
        }
        if (!v)
            goto usage;
        if (!strcmp(argv[i], "--kind") && !strcmp(v, "porep-c2"))
            ;
        else if (!strcmp(argv[i], "--sector-size"))
            size = v;
        else if (!strcmp(argv[i], "--params"))
            params = v;
        else if (!strcmp(argv[i], "--vk"))
            vk = v;
        else if (!strcmp(argv[i], "--params-dir"))
            dir = v;
        else if (!strcmp(argv[i], "--seed"))
            seed = v;
        else if (!strcmp(argv[i], "--threads"))
            threads = v;
        else
            goto usage;
        i++;
    }
    uint64_t bytes;
    char circuit[64], pbuf[1024], vbuf[1024];
    if (!size || cz_porep_parse_size(size, &bytes) || (!params != !vk) || (!params == !dir))
        goto usage;
    if (dir && (!c2_named(pbuf, sizeof pbuf, dir, bytes, "params") ||
                !c2_named(vbuf, sizeof vbuf, dir, bytes, "vk")))
        goto usage;
    snprintf(circuit, sizeof circuit, "porep:%s", size);
    char *av[12] = { "setup", "--circuit", circuit, "--params", dir ? pbuf : (char *)params,
                     "--vk", dir ? vbuf : (char *)vk };
    int ac = 7;
    if (seed) {
        av[ac++] = "--seed";
        av[ac++] = (char *)seed;
    }
    if (threads) {
        av[ac++] = "--threads";
        av[ac++] = (char *)threads;
    }
    return cmd_setup(ac, av);
usage:
    fputs(C2_SETUP_USAGE, stderr);
    return CZ_EXIT_USAGE;
}

static const char C2_VERIFY_USAGE[] =
    "usage: cuzk verify --kind porep-c2 (--vk V | --params-dir D) --proof P\n"
    "                   (--sector-size S --replica-id HEX --comm-d HEX --comm-r HEX --seed HEX\n"
    "                    | --c1 FILE)\n"
    "  Verifies a PoRep C2 proof as a chain verifier does, from the public values\n"
    "  alone: challenges, their DRG and expander parents and every partition's\n"
    "  public inputs are derived from replica_id, comm_d, comm_r, seed and the\n"
    "  sector size (registered proof StackedDrg<S>V1_1). HEX: 64 hex digits, the\n"
    "  bytes in the C1 JSON's order (as `cuzk porep gen-c1` prints them); --c1 takes\n"
    "  the values from a C1 file instead. Exit 0 valid, 1 invalid, 2 bad input.\n";

int cmd_verify_porep_c2(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "kind", required_argument, 0, 'k' },       { "vk", required_argument, 0, 'v' },
        { "params-dir", required_argument, 0, 'd' }, { "proof", required_argument, 0, 'p' },
        { "sector-size", required_argument, 0, 'S' }, { "replica-id", required_argument, 0, 'r' },
        { "comm-d", required_argument, 0, 'D' },     { "comm-r", required_argument, 0, 'R' },
        { "seed", required_argument, 0, 's' },       { "c1", required_argument, 0, 'c' },
        { "help", no_argument, 0, 'h' },             { 0, 0, 0, 0 },
    };
    const char *vk_path = NULL, *dir = NULL, *proof_path = NULL, *c1_path = NULL, *size = NULL;
    const char *hex[4] = { NULL };   /* replica_id, comm_d, comm_r, seed */
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'k': if (strcmp(optarg, "porep-c2")) goto usage; break;
        case 'v': vk_path = optarg; break;
        case 'd': dir = optarg; break;
        case 'p': proof_path = optarg; break;
        case 'S': size = optarg; break;
        case 'r': hex[0] = optarg; break;
        case 'D': hex[1] = optarg; break;
        case 'R': hex[2] = optarg; break;
        case 's': hex[3] = optarg; break;
        case 'c': c1_path = optarg; break;
        case 'h': fputs(C2_VERIFY_USAGE, stdout); return CZ_EXIT_OK;
        default: goto usage;
        }
    }
    bool values = size || hex[0] || hex[1] || hex[2] || hex[3];
    if (optind != argc || !proof_path || !vk_path == !dir || values == (c1_path != NULL))
        goto usage;
    cz_c2_public_t pub;
    memset(&pub, 0, sizeof pub);
    if (values) {
        uint64_t bytes;
        if (!size || cz_porep_parse_size(size, &bytes) || !(pub.proof = cz_porep_proof_v1_1(bytes))) {
            fprintf(stderr, "cuzk verify: --sector-size wants 2KiB, 8MiB, 512MiB, 32GiB or 64GiB\n");
            goto usage;
        }
        uint8_t *dst[4] = { pub.replica_id, pub.comm_d, pub.comm_r, pub.seed };
        static const char *names[4] = { "--replica-id", "--comm-d", "--comm-r", "--seed" };
        for (int i = 0; i < 4; i++) {
            if (!hex32(dst[i], hex[i])) {
                fprintf(stderr, "cuzk verify: %s wants 64 hex digits\n", names[i]);
                goto usage;
            }
        }
    }
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_USAGE;
    cz_c1_t c1;
    memset(&c1, 0, sizeof c1);
    cz_vk_t vk = { 0 };
    cz_pvk_t *pvk = NULL;
    uint8_t *proof = NULL;
    size_t len = 0;
    char named[1024];
    int rc = CZ_OK;
    if (c1_path && (rc = cz_c1_load(ctx, &c1, c1_path)) == CZ_OK)
        cz_c2_public_from_c1(&pub, &c1);
    if (rc == CZ_OK && dir) {
        if (c2_named(named, sizeof named, dir, pub.proof->sector_bytes, "vk"))
            vk_path = named;
        else
            rc = cz_fail(ctx, CZ_EINVAL, "no Filecoin vk name for %s", pub.proof->name);
    }
    if (rc == CZ_OK)
        rc = cz_vk_load(ctx, &vk, vk_path);
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, proof_path, (size_t)1 << 20, &proof, &len);
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &pvk, &vk);
    double t = c2_now();
    if (rc == CZ_OK)
        rc = cz_c2_verify(ctx, pvk, proof, len, &pub);
    int exit_code = rc == CZ_OK ? CZ_EXIT_OK : rc == CZ_EVERIFY ? CZ_EXIT_FAIL : CZ_EXIT_USAGE;
    if (exit_code == CZ_EXIT_OK)
        printf("valid (%s, %zu partition%s, %.3f s)\n", pub.proof->name, len / 192,
               len == 192 ? "" : "s", c2_now() - t);
    else if (exit_code == CZ_EXIT_FAIL)
        printf("INVALID proof\n");
    else
        fprintf(stderr, "cuzk verify: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    free(proof);
    cz_pvk_free(pvk);
    cz_vk_clear(&vk);
    cz_c1_free(&c1);
    cz_ctx_free(ctx);
    return exit_code;
usage:
    fputs(C2_VERIFY_USAGE, stderr);
    return CZ_EXIT_USAGE;
}
#else
int cmd_porep(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "cuzk porep: built without jansson (apt-get install libjansson-dev)\n");
    return CZ_EXIT_FAIL;
}

bool cz_cli_has_kind(int argc, char **argv, const char *kind)
{
    for (int i = 1; i < argc; i++)
        if ((!strcmp(argv[i], "--kind") && i + 1 < argc && !strcmp(argv[i + 1], kind)) ||
            (!strncmp(argv[i], "--kind=", 7) && !strcmp(argv[i] + 7, kind)))
            return true;
    return false;
}

static int no_c2(void)
{
    fprintf(stderr, "cuzk: --kind porep-c2 needs jansson (apt-get install libjansson-dev)\n");
    return CZ_EXIT_FAIL;
}
int cmd_prove_porep_c2(int argc, char **argv) { (void)argc, (void)argv; return no_c2(); }
int cmd_setup_porep_c2(int argc, char **argv) { (void)argc, (void)argv; return no_c2(); }
int cmd_verify_porep_c2(int argc, char **argv) { (void)argc, (void)argv; return no_c2(); }
#endif
