/*
 * cli/cmd_porep.c — `cuzk porep gen-c1 ...` (seal a small test sector and
 * write its C1 JSON; with --sparse a synthetic all-zero sector of any size,
 * porep/seal_sparse.h) and `cuzk porep check-c1 FILE` (parse and verify a
 * C1 natively). Needs jansson (CUZK_HAVE_JANSSON).
 *
 * Also the `--kind porep-c2` forms of prove, setup and verify (cmd_prove.c
 * and cmd_setup.c hand them over with cz_cli_has_kind): prove and verify
 * are thin callers of the public API (cuzk.h: a prover on the backend
 * --backend names, the porep-c2 kind, verification from public values),
 * exactly what a program linking libcuzk does; setup writes test params
 * for porep:SIZE under the Filecoin file names. --random-params (TIMING
 * ONLY) is a benchmark: bench/bench_c2_random.c.
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

#include <sys/stat.h>

#include "bench/bench.h"
#include "cli/progress.h"
#include "cli/public_file.h"
#include "core/clock.h"
#include "cuzk.h"
#include "porep/c1.h"
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

static int porep_usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk porep gen-c1 --sector-size 2KiB|8MiB|512MiB (--data FILE | --random SEED)\n"
            "                         [--ticket T] [--seed S] [--prover-id P] [--sector-id N]\n"
            "                         [--registered-proof StackedDrg2KiBV1_1[_Feat_SyntheticPoRep]]\n"
            "                         -o c1.json\n"
            "       cuzk porep gen-c1 --sector-size 2KiB..64GiB --sparse [--random SEED] ...\n"
            "         (all-zero data, sparse trees: only the opened columns are materialized;\n"
            "          SEED picks the unopened parents' labels)\n"
            "       cuzk porep check-c1 c1.json\n"
            "       cuzk porep public-inputs --registered-proof T SECTOR (--help)\n"
            "T, S, P: 64 hex digits, or any text (its SHA-256 is used).\n");
    return f == stdout ? CZ_EXIT_OK : CZ_EXIT_USAGE;
}

static int usage(void) { return porep_usage(stderr); }

/* --help / -h anywhere among the arguments */
static bool wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return true;
    return false;
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
        } else if (!strcmp(argv[i], "--registered-proof") && v) {
            if (!(a.proof = cz_porep_proof_by_name(v)))
                return usage();
        } else if (!strcmp(argv[i], "-o") && v) {
            out = v;
        } else {
            return usage();
        }
        i++;
    }
    if (a.proof && !a.sector_bytes)
        a.sector_bytes = a.proof->sector_bytes;
    if (!out || !a.sector_bytes ||
        (sparse ? data_path != NULL : !data_path == !have_random))
        return usage();
    if (!cz_cli_check_output("porep gen-c1", "-o", out))   /* before sealing */
        return CZ_EXIT_USAGE;
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
    double t0 = cz_mono_s();
    cz_c1_t c1;
    int rc = sparse ? cz_seal_sparse_gen_c1(ctx, &a, &c1, NULL) : cz_seal_gen_c1(ctx, &a, &c1);
    if (!rc)
        rc = cz_c1_save(ctx, &c1, out);
    double t1 = cz_mono_s();
    if (rc) {
        fprintf(stderr, "porep gen-c1: %s\n", cz_ctx_message(ctx));
    } else {
        printf("registered_proof %s\ncomm_d ", c1.proof->name);
        hexout(c1.comm_d);
        printf("\ncomm_r ");
        hexout(c1.comm_r);
        printf("\nreplica_id ");
        hexout(c1.replica_id);
        printf("\nwrote %s in %.2f s\n", out, t1 - t0);
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
    double t0 = cz_mono_s();
    cz_c1_t c1;
    int rc = cz_c1_load(ctx, &c1, argv[1]);
    double t1 = cz_mono_s();
    if (rc) {
        fprintf(stderr, "porep check-c1: %s\n", cz_ctx_message(ctx));
        cz_ctx_free(ctx);
        return rc == CZ_EFORMAT || rc == CZ_EIO ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
    }
    printf("parsed %s (%u partitions x %u challenges) in %.3f s\n", c1.proof->name,
           c1.npartitions, c1.nchallenges, t1 - t0);
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
    if (wants_help(argc, argv))   /* porep, porep gen-c1, porep check-c1 --help */
        return porep_usage(stdout);
    if (argc < 2)
        return usage();
    if (!strcmp(argv[1], "gen-c1"))
        return gen_c1(argc - 1, argv + 1);
    if (!strcmp(argv[1], "check-c1"))
        return check_c1(argc - 1, argv + 1);
    if (!strcmp(argv[1], "public-inputs"))
        return cz_cli_porep_public_inputs(argc - 1, argv + 1);
    return usage();
}


/* ---- PoRep C2: prove / setup / verify --kind porep-c2 ------------------------ */

/* 64 hex digits -> 32 bytes in order (the C1 JSON's byte order, as gen-c1 prints). */
static bool hex32(uint8_t out[32], const char *s)
{
    return s && strlen(s) == 64 && cz_hex_decode(out, s, 32);
}

/* DIR/<Filecoin name>.EXT for the production params of |bytes|. */
static bool c2_named(char *out, size_t cap, const char *dir, uint64_t bytes, const char *ext)
{
    char name[256];
    if (cz_porep_params_file_name(name, sizeof name, bytes, ext, NULL) != CZ_OK)
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
    "                  [--jobs N]\n"
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
    "  --jobs N: N such jobs submitted at once into one engine, the params in memory\n"
    "  (the daemon's steady state): also prints the first job's submit-to-done and\n"
    "  the steady s/proof, (last done - first done) / (N - 1).\n"
    "  --dry-run: print the C1's partition shape and stop. --workers-per-device is\n"
    "  --workers. --timeline/--svg keep the engine's log / Gantt chart.\n"
    "  Through cuzkd: cuzk submit --kind porep-c2 --input-path C1 --params NAME.\n"
    "  Exit 0 on success, 1 on failure, 2 on usage errors.\n";


typedef struct {
    const char *c1_path, *params_path, *dir, *proof_path, *vk_path, *public_path, *backend;
    size_t workers, threads, device;
    bool quiet;
} c2_prove_opts_t;

/* The public inputs (32-byte reprs) in the CLI's public-file format. */
static int write_public(cz_ctx_t *ctx, const char *path, const uint8_t *in, size_t per,
                        size_t parts)
{
    cz_fr *fr = calloc(parts * (per ? per : 1), sizeof *fr);
    int rc = fr ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "public inputs");
    for (size_t i = 0; rc == CZ_OK && i < parts * per; i++)
        if (cz_fr_from_repr(&fr[i], in + 32 * i) != CZ_OK)
            rc = cz_fail(ctx, CZ_EINTERNAL, "public input %zu is not a field element", i);
    if (rc == CZ_OK)
        rc = cz_public_write(ctx, path, fr, parts, per);
    free(fr);
    return rc;
}

/*
 * The verifying key of the final check: --vk, else the vk beside the params
 * (Filecoin's NAME.params / NAME.vk), else the Filecoin name in --params-dir.
 * NULL *vk with a NULL *dir: none to be found (the engine's verification
 * with the params' own vk stands).
 */
static void final_vk(const c2_prove_opts_t *o, char *buf, size_t cap, const char **vk,
                     const char **dir)
{
    *vk = o->vk_path;
    *dir = o->dir;
    size_t n = o->params_path ? strlen(o->params_path) : 0;
    if (*vk || *dir || n < 7 || strcmp(o->params_path + n - 7, ".params") || n + 1 > cap)
        return;
    struct stat st;
    snprintf(buf, cap, "%.*s.vk", (int)(n - 7), o->params_path);
    if (stat(buf, &st) == 0)
        *vk = buf;
}

/* Prove through the public API: a prover, one porep-c2 job, then the check from public values. */
static int c2_prove(cz_ctx_t *ctx, const c2_prove_opts_t *o, cz_progress_t *progress,
                    bool *bad_backend)
{
    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.backend = o->backend;
    cfg.first_device = (unsigned)o->device;
    cfg.devices = 1;
    cfg.workers_per_device = (unsigned)o->workers;
    cfg.threads = (unsigned)o->threads;
    cfg.params_dir = o->dir ? o->dir : ".";
    cfg.params_allow_paths = true;
    /* the params live outside the engine's budget: leave their bytes out of it too */
    struct stat st;
    cfg.memory_margin = ((size_t)5 << 30) +
                        (o->params_path && stat(o->params_path, &st) == 0 ? (size_t)st.st_size : 0);
    char real[4096];
    if (o->params_path && !realpath(o->params_path, real))
        return cz_fail(ctx, CZ_ENOTFOUND, "params: %s: %s", o->params_path, strerror(errno));
    cz_prover_t *p = NULL;
    cz_error_t err;
    /* the backend first: an unusable one fails before the C1 and the params are read */
    int rc = cz_prover_new(&p, &cfg, &err);
    uint8_t *c1 = NULL, *proof = NULL, *inputs = NULL;
    size_t c1_len = 0, len = 0, per = 0, parts = 0;
    double t0 = cz_mono_s(), t_submit = 0, t_engine = 0, t_verify = 0;
    if (rc != CZ_OK) {
        *bad_backend = rc == CZ_EINVAL;
        cz_fail(ctx, rc, "%s", err.message);
    } else {
        rc = cz_cli_read_file(ctx, o->c1_path, (size_t)1 << 31, &c1, &c1_len);
    }
    uint64_t id = 0;
    cz_job_info_t info;
    memset(&info, 0, sizeof info);
    if (rc == CZ_OK) {
        cz_progress_draw(progress, 0, 1, "loading_c1");
        cz_job_request_t req;
        cz_job_request_init(&req, "porep-c2", c1, c1_len);
        req.params = o->params_path ? real : NULL;   /* NULL: the Filecoin name in params_dir */
        if ((rc = cz_prover_submit(p, &req, &id, &err)) != CZ_OK)
            cz_fail(ctx, rc, "%s", err.message);
        t_submit = cz_mono_s() - t0;
    }
    while (rc == CZ_OK && (rc = cz_prover_wait(p, id, 0.25, &info, &err)) == CZ_EBUSY) {
        rc = CZ_OK;
        cz_progress_draw(progress, info.partitions_done, info.partitions,
                         info.state == CZ_JOB_QUEUED ? "loading_params"
                         : info.state == CZ_JOB_VERIFYING ? "verifying" : "proving");
    }
    t_engine = cz_mono_s() - t0 - t_submit;
    if (rc == CZ_OK && (rc = cz_prover_proof(p, id, &proof, &len, &err)) != CZ_OK)
        cz_fail(ctx, rc, "%s", err.message);
    if (rc == CZ_OK && o->public_path &&
        (rc = cz_prover_public_inputs(p, id, &inputs, &per, &parts, &err)) != CZ_OK)
        cz_fail(ctx, rc, "%s", err.message);
    const char *vk = NULL, *dir = NULL;
    char vbuf[4096];
    final_vk(o, vbuf, sizeof vbuf, &vk, &dir);
    if (rc == CZ_OK && (vk || dir)) {
        /* as a chain verifier would: from replica_id, comm_d, comm_r, seed alone */
        cz_porep_public_t pub;
        cz_progress_draw(progress, info.partitions, info.partitions, "verifying");
        double t = cz_mono_s();
        rc = cz_porep_public_from_c1(&pub, c1, c1_len, &err);
        if (rc == CZ_OK)
            rc = cz_porep_c2_verify(vk, dir, &pub, proof, len, &err);
        t_verify = cz_mono_s() - t;
        if (rc)
            cz_fail(ctx, rc, "the proof does not verify from the public values: %s", err.message);
    }
    if (rc == CZ_OK)
        rc = cz_cli_write_file(ctx, o->proof_path, proof, len);
    if (rc == CZ_OK && o->public_path)
        rc = write_public(ctx, o->public_path, inputs, per, parts);
    if (rc == CZ_OK) {
        cz_prover_info_t pi;
        cz_prover_info(p, &pi);
        cz_progress_draw(progress, info.partitions, info.partitions, "done");
        cz_progress_end(progress);
        printf("proof written to %s (%zu partition%s x 192 = %zu bytes, verified %s)\n",
               o->proof_path, info.partitions, info.partitions == 1 ? "" : "s", len,
               vk || dir ? "from public values" : "by the engine with the params' vk");
        printf("time: c1+shape %.2f s, params %.2f s, engine %.2f s (synthesis %.2f s, "
               "device %.2f s), verify %.3f s, total %.2f s (%u threads, %zu workers, "
               "backend %s, device %zu)\n",
               t_submit, info.t.params_load / 1e3, t_engine, info.t.synthesis / 1e3,
               info.t.device / 1e3, t_verify, cz_mono_s() - t0, pi.threads, o->workers,
               pi.backend, o->device);
    }
    cz_free(proof);
    cz_free(inputs);
    free(c1);
    cz_prover_free(p);
    return rc;
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
        { "jobs", required_argument, 0, 'j' },
        { "help", no_argument, 0, 'h' },         { 0, 0, 0, 0 },
    };
    c2_prove_opts_t o = { .backend = "auto", .workers = 2 };
    const char *timeline_path = NULL, *svg_path = NULL;
    uint64_t seed = 1;
    size_t jobs = 1;
    bool random_params = false, dry_run = false, json = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'k': if (strcmp(optarg, "porep-c2")) goto usage; break;
        case 'c': o.c1_path = optarg; break;
        case 'p': o.params_path = optarg; break;
        case 'd': o.dir = optarg; break;
        case 'o': o.proof_path = optarg; break;
        case 'v': o.vk_path = optarg; break;
        case 'u': o.public_path = optarg; break;
        case 'w': if (!cz_cli_parse_size(optarg, &o.workers) || !o.workers || o.workers > 16) goto usage; break;
        case 't': if (!cz_cli_parse_size(optarg, &o.threads)) goto usage; break;
        case 'q': o.quiet = true; break;
        case 'b': o.backend = optarg; break;
        case 'D': if (!cz_cli_parse_size(optarg, &o.device) || o.device > 1024) goto usage; break;
        case 'R': random_params = true; break;
        case 'n': dry_run = true; break;
        case 'l': timeline_path = optarg; break;
        case 's': svg_path = optarg; break;
        case 'S': seed = strtoull(optarg, NULL, 0); break;
        case 'J': json = true; break;
        case 'j': if (!cz_cli_parse_size(optarg, &jobs) || !jobs || jobs > 64) goto usage; break;
        case 'h': fputs(C2_PROVE_USAGE, stdout); return CZ_EXIT_OK;
        default: goto usage;
        }
    }
    if (!cz_cli_check_output("cuzk prove", "--proof", o.proof_path) ||
        !cz_cli_check_output("cuzk prove", "--public", o.public_path) ||
        !cz_cli_check_output("cuzk prove", "--timeline", timeline_path) ||
        !cz_cli_check_output("cuzk prove", "--svg", svg_path))
        return CZ_EXIT_USAGE;
    if (random_params) {
        /* timing only: no params, vk or public file; --proof optional */
        if (optind != argc || !o.c1_path || o.params_path || o.dir || o.vk_path || o.public_path)
            goto usage;
        cz_c2_random_opts_t ro = { o.c1_path, o.proof_path, o.backend, timeline_path, svg_path,
                                   o.workers, o.threads, o.device, seed, o.quiet, json, dry_run,
                                   jobs };
        return cz_bench_c2_random(&ro);
    }
    if (optind != argc || !o.c1_path || !o.proof_path || !o.params_path == !o.dir || dry_run ||
        json || timeline_path || svg_path || jobs != 1)
        goto usage;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1)) {
        fprintf(stderr, "cuzk prove: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    cz_progress_t progress;
    cz_progress_start(&progress, o.quiet);
    bool bad_backend = false;
    int rc = c2_prove(ctx, &o, &progress, &bad_backend);
    if (rc) {
        cz_progress_end(&progress);
        fprintf(stderr, "cuzk prove: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    }
    cz_ctx_free(ctx);
    /* an unknown backend name is a usage error, as for the other provers */
    return rc == CZ_OK ? CZ_EXIT_OK : bad_backend ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
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
    if (!size) {
        fprintf(stderr, "cuzk setup: --kind porep-c2 needs --sector-size\n");
        goto usage;
    }
    if (cz_porep_parse_size(size, &bytes) || !cz_porep_proof_v1_1(bytes)) {
        fprintf(stderr, "cuzk setup: --sector-size %s: not a PoRep sector size (want 2KiB, "
                        "8MiB, 512MiB, 32GiB or 64GiB)\n", size);
        goto usage;
    }
    if (!params != !vk || !params == !dir) {
        fprintf(stderr, "cuzk setup: give --params and --vk, or --params-dir\n");
        goto usage;
    }
    /* the README's `--params-dir params` into a new directory: create it now,
     * before minutes of setup */
    if (dir && !cz_cli_make_output_dir("cuzk setup", "--params-dir", dir))
        return CZ_EXIT_USAGE;
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

void cz_cli_c2_usage(FILE *f, const char *command)
{
    fputs(!strcmp(command, "prove") ? C2_PROVE_USAGE
          : !strcmp(command, "setup") ? C2_SETUP_USAGE : C2_VERIFY_USAGE, f);
}

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
    cz_porep_public_t pub;
    memset(&pub, 0, sizeof pub);
    if (values) {
        char probe[256];
        if (!size || cz_porep_parse_size(size, &pub.sector_size) ||
            cz_porep_params_file_name(probe, sizeof probe, pub.sector_size, "vk", NULL)) {
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
    if (cz_ctx_new(&ctx, NULL, 1))
        return CZ_EXIT_USAGE;
    uint8_t *proof = NULL, *c1 = NULL;
    size_t len = 0, c1_len = 0;
    cz_error_t err = { CZ_OK, "" };
    int rc = CZ_OK;
    if (c1_path && (rc = cz_cli_read_file(ctx, c1_path, (size_t)1 << 31, &c1, &c1_len)) == CZ_OK)
        rc = cz_porep_public_from_c1(&pub, c1, c1_len, &err);
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, proof_path, (size_t)1 << 20, &proof, &len);
    double t = cz_mono_s();
    if (rc == CZ_OK)
        rc = cz_porep_c2_verify(vk_path, dir, &pub, proof, len, &err);
    const char *why = *err.message ? err.message : *cz_ctx_message(ctx) ? cz_ctx_message(ctx)
                                                                        : cz_strerror(rc);
    int exit_code = rc == CZ_OK ? CZ_EXIT_OK : rc == CZ_EVERIFY ? CZ_EXIT_FAIL : CZ_EXIT_USAGE;
    if (exit_code == CZ_EXIT_OK)
        printf("valid (%zu partition%s, %.3f s)\n", len / 192, len == 192 ? "" : "s",
               cz_mono_s() - t);
    else if (exit_code == CZ_EXIT_FAIL)
        printf("INVALID proof\n");
    else
        fprintf(stderr, "cuzk verify: %s\n", why);
    free(proof);
    free(c1);
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
void cz_cli_c2_usage(FILE *f, const char *command)
{
    fprintf(f, "usage: cuzk %s --kind porep-c2 ...: not in this build (needs jansson)\n", command);
}
int cmd_prove_porep_c2(int argc, char **argv) { (void)argc, (void)argv; return no_c2(); }
int cmd_setup_porep_c2(int argc, char **argv) { (void)argc, (void)argv; return no_c2(); }
int cmd_verify_porep_c2(int argc, char **argv) { (void)argc, (void)argv; return no_c2(); }
#endif
