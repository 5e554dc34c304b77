/*
 * cli/cmd_porep.c — `cuzk porep gen-c1 ...` (seal a small test sector and
 * write its C1 JSON; with --sparse a synthetic all-zero sector of any size,
 * kinds/porep/seal_sparse.h) and `cuzk porep check-c1 FILE` (parse and verify a
 * C1 natively).
 *
 * Also the `--kind porep-c2` forms of prove, setup and verify (cmd_prove.c
 * and cmd_setup.c hand them over with cz_cli_has_kind): prove and verify
 * are thin callers of the public API (cuzk.h: a prover on the backend
 * --backend names, the porep-c2 kind, verification from public values),
 * exactly what a program linking libcuzk does; setup writes test params
 * for porep:SIZE under the Filecoin file names. --random-params (TIMING
 * ONLY) is cli/c2_random.c's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/hex.h"
#include "cli/cli.h"
#include "cli/options.h"

#include <errno.h>

#include <sys/stat.h>

#include "cli/c2_random.h"
#include "cli/progress.h"
#include "cli/public_file.h"
#include "core/clock.h"
#include "cli/prove_job.h"
#include "cuzk.h"
#include "kinds/porep/c1.h"
#include "kinds/porep/seal.h"
#include "kinds/porep/seal_sparse.h"

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
        cz_hash_sha256(out, s, strlen(s));
    }
}

/* gen-c1's options; the 32-byte values as given (bytes32 makes them bytes). */
typedef struct {
    uint64_t sector_bytes, random, sector_id;
    const char *data, *ticket, *seed, *prover_id, *out;
    const cz_porep_proof_t *proof;
    bool sparse;
} gen_opts_t;

static const cz_opt GEN_OPTS[] = {
    CZ_OPT_SECTOR_SIZE(gen_opts_t, sector_bytes,
                       "dense: 2KiB, 8MiB or 512MiB; --sparse: any of 2KiB..64GiB"),
    { "data", 0, CZ_O_STRING(gen_opts_t, data), .arg = "FILE",
      .help = "the sector's bytes (exactly the sector size)" },
    { "random", 0, CZ_O_U64(gen_opts_t, random), .arg = "SEED",
      .help = "pseudo-random data from SEED (--sparse: the unopened parents' labels)" },
    { "ticket", 0, CZ_O_STRING(gen_opts_t, ticket), .arg = "T", .def = "ticket",
      .help = "the ticket" },
    { "seed", 0, CZ_O_STRING(gen_opts_t, seed), .arg = "S", .def = "seed",
      .help = "the interactive seed" },
    { "prover-id", 0, CZ_O_STRING(gen_opts_t, prover_id), .arg = "P", .def = "prover",
      .help = "the prover id" },
    { "sector-id", 0, CZ_O_U64(gen_opts_t, sector_id), .help = "the sector number" },
    CZ_OPT_REGISTERED_PROOF(gen_opts_t, proof,
                            "sets the size, porep_id and challenges (default: the size's V1_1)"),
    { "sparse", 0, CZ_O_FLAG(gen_opts_t, sparse),
      .help = "all-zero data, sparse trees: only the opened columns are materialized" },
    { "out", 'o', CZ_O_OUTPUT(gen_opts_t, out), .arg = "c1.json", .flags = CZ_OPT_REQUIRED,
      .help = "the C1 JSON" },
};
static const cz_opt_rule GEN_RULES[] = {
    CZ_RULE(ANY_OF, "sector-size", "registered-proof"),
    CZ_RULE(EXCLUSIVE, "sparse", "data"),
    CZ_RULE_UNLESS(ONE_OF, "sparse", "data", "random"),
};
static const cz_opts_spec GEN_SPEC = {
    .cmd = "cuzk porep gen-c1",
    .usage =
        "usage: cuzk porep gen-c1 --sector-size 2KiB|8MiB|512MiB (--data FILE | --random SEED)\n"
        "                         [--ticket T] [--seed S] [--prover-id P] [--sector-id N]\n"
        "                         [--registered-proof NAME] -o c1.json\n"
        "       cuzk porep gen-c1 --sector-size 2KiB..64GiB --sparse [--random SEED] ...\n",
    .about = "  Seals a test sector and writes its C1 (SealCommit phase 1 output) JSON.\n"
             "  NAME: StackedDrg<size>V1_1, ...V1_1_Feat_SyntheticPoRep,\n"
             "  ...V1_2_Feat_NonInteractivePoRep. T, S, P: 64 hex digits, or any text (its\n"
             "  SHA-256 is used).\n",
    CZ_OPTS(GEN_OPTS),
    CZ_RULES(GEN_RULES),
};

static int gen_c1(int argc, char **argv)
{
    gen_opts_t o;
    int p = cz_opts_parse(&GEN_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    cz_seal_args_t a;
    memset(&a, 0, sizeof a);
    a.sector_bytes = o.sector_bytes;
    a.random_seed = o.random;
    a.sector_id = o.sector_id;
    a.proof = o.proof;
    bytes32(a.ticket, o.ticket);
    bytes32(a.seed, o.seed);
    bytes32(a.prover_id, o.prover_id);
    const char *out = o.out, *data_path = o.data;
    if (a.proof && !a.sector_bytes)
        a.sector_bytes = a.proof->sector_bytes;
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
    int rc = o.sparse ? cz_seal_sparse_gen_c1(ctx, &a, &c1, NULL) : cz_seal_gen_c1(ctx, &a, &c1);
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

static const cz_opts_spec CHECK_SPEC = {
    .cmd = "cuzk porep check-c1",
    .usage = "usage: cuzk porep check-c1 c1.json\n",
    .about = "  Parses a C1 JSON and verifies it natively (every challenge's Merkle paths,\n"
             "  labels and commitments). Exit 0 valid, 1 invalid, 2 unreadable.\n",
    .args = "c1.json",
    .min_args = 1,
    .max_args = 1,
};

static int check_c1(int argc, char **argv)
{
    char none;
    cz_opts_result_t r = { 0 };
    int p = cz_opts_parse(&CHECK_SPEC, &none, argc, argv, &r);
    if (p != CZ_OPTS_RUN)
        return p;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_FAIL;
    double t0 = cz_mono_s();
    cz_c1_t c1;
    int rc = cz_c1_load(ctx, &c1, r.args[0]);
    double t1 = cz_mono_s();
    if (rc) {
        fprintf(stderr, "porep check-c1: %s\n", cz_ctx_message(ctx));
        cz_ctx_free(ctx);
        return rc == CZ_EFORMAT || rc == CZ_EIO ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
    }
    printf("parsed %s (%u partitions x %u challenges) in %.3f s\n", c1.proof->name, c1.npartitions,
           c1.nchallenges, t1 - t0);
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
    static const cz_cli_command sub[] = {
        { "gen-c1", gen_c1, "seal a test sector, write its C1 JSON (--help)" },
        { "check-c1", check_c1, "parse and verify a C1 JSON natively" },
        { "public-inputs", cz_cli_porep_public_inputs,
          "a sealed sector's PoRep public inputs from the chain's values (--help)" },
    };
    return cz_cli_dispatch("cuzk porep", sub, sizeof sub / sizeof sub[0],
                           "usage: cuzk porep gen-c1 | check-c1 FILE | public-inputs ...   "
                           "(cuzk porep SUBCOMMAND --help)",
                           argc, argv);
}

/* ---- PoRep C2: prove / verify --kind porep-c2 (setup: cmd_setup.c) ------------ */

typedef struct {
    const char *kind, *c1_path, *params_path, *dir, *proof_path, *vk_path, *public_path, *backend;
    const char *timeline_path, *svg_path;
    size_t workers, threads, device, jobs, device_mem_limit, batch, memory_budget;
    uint64_t seed;
    bool quiet, random_params, dry_run, json, no_pin_ab;
} c2_prove_opts_t;

static const char *const C2_KIND[] = { "porep-c2", NULL };

static const cz_opt C2_PROVE_OPTS[] = {
    { "kind", 0, CZ_O_ENUM(c2_prove_opts_t, kind), .values = C2_KIND, .flags = CZ_OPT_REQUIRED,
      .help = "SealCommit phase 2" },
    { "c1", 0, CZ_O_STRING(c2_prove_opts_t, c1_path), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the C1 JSON (cuzk porep gen-c1, or Curio's)" },
    { "params", 0, CZ_O_STRING(c2_prove_opts_t, params_path), .arg = "P",
      .help = "the params file (its vk beside it, NAME.vk, checks the proof)" },
    { "params-dir", 0, CZ_O_STRING(c2_prove_opts_t, dir), .arg = "D",
      .help = "the Filecoin-named params (v28-stacked-proof-of-replication-...) in D" },
    { "proof", 'o', CZ_O_OUTPUT(c2_prove_opts_t, proof_path), .arg = "OUT",
      .help = "the proof, 192 bytes per partition (--random-params: NOT a valid proof)" },
    { "vk", 0, CZ_O_STRING(c2_prove_opts_t, vk_path), .arg = "V",
      .help = "the verifying key of the final check from the public values" },
    { "public", 0, CZ_O_OUTPUT(c2_prove_opts_t, public_path), .arg = "PUB",
      .help = "the public inputs, one block per partition" },
    { "workers", 0, CZ_O_SIZE(c2_prove_opts_t, workers), .min = 1, .max = 16, .def = "2",
      .arg = "W", .help = "engine workers sharing the device" },
    { "workers-per-device", 0, CZ_O_SIZE(c2_prove_opts_t, workers), .min = 1, .max = 16,
      .flags = CZ_OPT_ALIAS },
    CZ_OPT_THREADS(c2_prove_opts_t, threads),
    CZ_OPT_QUIET(c2_prove_opts_t, quiet),
    CZ_OPT_BACKEND(c2_prove_opts_t, backend, "auto"),
    CZ_OPT_DEVICE(c2_prove_opts_t, device),
    { "random-params", 0, CZ_O_FLAG(c2_prove_opts_t, random_params),
      .help = "TIMING ONLY: random params of the partition's shape, nothing verified" },
    { "dry-run", 0, CZ_O_FLAG(c2_prove_opts_t, dry_run),
      .help = "print the C1's partition shape and stop" },
    { "timeline", 0, CZ_O_OUTPUT(c2_prove_opts_t, timeline_path), .arg = "LOG",
      .help = "keep the engine's timeline log" },
    { "svg", 0, CZ_O_OUTPUT(c2_prove_opts_t, svg_path), .arg = "OUT.svg",
      .help = "keep its Gantt chart" },
    { "seed", 0, CZ_O_U64(c2_prove_opts_t, seed), .def = "1", .arg = "N",
      .help = "the random params' seed" },
    { "json", 0, CZ_O_FLAG(c2_prove_opts_t, json), .help = "one JSON line of the figures" },
    { "jobs", 0, CZ_O_SIZE(c2_prove_opts_t, jobs), .min = 1, .max = 64, .def = "1",
      .help = "jobs of the C1 submitted at once into one engine" },
    { "device-mem-limit", 0, CZ_O_BYTES(c2_prove_opts_t, device_mem_limit), .def = "0",
      .help = "CUDA: device memory the plan may use (0: what is free; e.g. 22GiB)" },
    { "batch", 0, CZ_O_SIZE(c2_prove_opts_t, batch), .min = 0, .max = 4, .def = "0",
      .help = "CUDA: partitions one region takes where bases stream (0: 2; 1: none)" },
    { "memory-budget", 0, CZ_O_BYTES(c2_prove_opts_t, memory_budget), .def = "0",
      .help =
          "host memory for partitions in flight and pinned params (0: physical less an eighth)" },
    { "no-pin-ab", 0, CZ_O_FLAG(c2_prove_opts_t, no_pin_ab),
      .help = "CUDA, measurements: a and b no staging slot takes stay pageable" },
};
static const cz_opt_rule C2_PROVE_RULES[] = {
    CZ_RULE(EXCLUSIVE, "random-params", "params", "params-dir"),
    CZ_RULE(EXCLUSIVE, "random-params", "vk"),
    CZ_RULE(EXCLUSIVE, "random-params", "public"),
    CZ_RULE_UNLESS(ONE_OF, "random-params", "params", "params-dir"),
    CZ_RULE_UNLESS(REQUIRED, "random-params", "proof"),
    CZ_RULE(NEEDS, "dry-run", "random-params"),
    CZ_RULE(NEEDS, "json", "random-params"),
    CZ_RULE(NEEDS, "timeline", "random-params"),
    CZ_RULE(NEEDS, "svg", "random-params"),
    CZ_RULE(NEEDS, "jobs", "random-params"),
    CZ_RULE(NEEDS, "seed", "random-params"),
    CZ_RULE(NEEDS, "device-mem-limit", "random-params"),
    CZ_RULE(NEEDS, "batch", "random-params"),
    CZ_RULE(NEEDS, "memory-budget", "random-params"),
    CZ_RULE(NEEDS, "no-pin-ab", "random-params"),
};
static const cz_opts_spec C2_PROVE_SPEC = {
    .cmd = "cuzk prove",
    .usage =
        "usage: cuzk prove --kind porep-c2 --c1 FILE (--params P | --params-dir D) --proof OUT\n"
        "                  [--vk V] [--public PUB] [--workers W] [--threads T] [--quiet]\n"
        "                  [--backend cpu|cuda|auto] [--device N]\n"
        "       cuzk prove --kind porep-c2 --c1 FILE --random-params [--dry-run] [--proof OUT]\n"
        "                  [--workers-per-device W] [--threads T] [--backend B] [--device N]\n"
        "                  [--timeline LOG] [--svg OUT.svg] [--seed N] [--json] [--quiet]\n"
        "                  [--jobs N] [--device-mem-limit BYTES] [--batch K]\n"
        "                  [--memory-budget BYTES] [--no-pin-ab]\n",
    .about = "  SealCommit phase 2 in this process: every partition of the C1 is synthesized\n"
             "  (after a native check of the C1), proved through the engine (W workers) on\n"
             "  the backend: cpu, cuda (GPU N; fails with the reason when unusable) or auto\n"
             "  (cuda when usable, else cpu); the timing line names it. The job is verified\n"
             "  with the params' vk (or V), then the concatenated proof (192 bytes per\n"
             "  partition) is verified again from the public values alone before it is\n"
             "  written.\n"
             "  --random-params: TIMING ONLY. Params of the partition circuit's exact shape\n"
             "  made of random points (cz_params_random, seed N; seconds even at 32GiB),\n"
             "  every partition synthesized and proved through the engine, NOT verified (the\n"
             "  proof cannot verify); no file unless --proof (then not a valid proof). Prints\n"
             "  s/proof (submit to done), synthesis per partition (mean, and the threads),\n"
             "  the device region per partition, the device efficiency (the timeline's\n"
             "  analysis, as bench pipeline), peak RSS (VmHWM); --json one line. --jobs N: N\n"
             "  such jobs at once into one engine, the params in memory (the daemon's steady\n"
             "  state): also prints the first job's submit-to-done and the steady s/proof,\n"
             "  (last done - first done) / (N - 1), and the CUDA region's parts over the\n"
             "  partitions proved after the first job was done. --device-mem-limit: the\n"
             "  CUDA backend's device-memory plan gets at most BYTES (as a smaller card\n"
             "  would); the plan is printed, with the params bytes copied to the device per\n"
             "  partition and per proof and their time at PCIe 4.0 x16 (25 GB/s) and 5.0 x16\n"
             "  (50 GB/s).\n"
             "  --batch K: where the plan streams bases, one device region proves up to K\n"
             "  partitions, each window serving all of them (0: the backend's 2; 1: none).\n"
             "  --memory-budget BYTES: the engine's host memory for partitions in flight and\n"
             "  the pinned params copies (0: physical memory less an eighth of it, at least\n"
             "  5 GiB); peak RSS follows it.\n"
             "  --no-pin-ab: a and b that no device staging slot takes stay pageable and the\n"
             "  region copies them through bounce buffers (default: page-locked where they\n"
             "  are before the region, copied by DMA).\n"
             "  Through cuzkd: `cuzk submit --kind porep-c2 --input-path C1 --params NAME`.\n"
             "  Exit 0 on success, 1 on failure, 2 on usage errors.\n",
    CZ_OPTS(C2_PROVE_OPTS),
    CZ_RULES(C2_PROVE_RULES),
    .help_cmd = "cuzk prove --kind porep-c2 --help",
};

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
    cz_cli_prover_opts_t po = { .backend = o->backend,
                                .device = o->device,
                                .threads = o->threads,
                                .workers = o->workers,
                                .params_dir = o->dir ? o->dir : "." };
    char real[4096];
    if (o->params_path && !realpath(o->params_path, real))
        return cz_fail(ctx, CZ_ENOTFOUND, "params: %s: %s", o->params_path, strerror(errno));
    cz_prover_t *p = NULL;
    cz_error_t err;
    uint8_t *c1 = NULL;
    size_t c1_len = 0;
    cz_cli_job_result_t r;
    memset(&r, 0, sizeof r);
    double t0 = cz_mono_s(), t_verify = 0;
    /* the backend first: an unusable one fails before the C1 and the params are read */
    int rc = cz_cli_prover_new(ctx, &po, &p);
    *bad_backend = rc == CZ_EINVAL;
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, o->c1_path, (size_t)1 << 31, &c1, &c1_len);
    if (rc == CZ_OK) {
        cz_progress_draw(progress, 0, 1, "loading_c1");
        cz_job_request_t req;
        cz_job_request_init(&req, "porep-c2", c1, c1_len);
        req.params = o->params_path ? real : NULL; /* NULL: the Filecoin name in params_dir */
        rc = cz_cli_prover_run(ctx, p, &req, o->public_path != NULL, progress, &r);
    }
    const char *vk = NULL, *dir = NULL;
    char vbuf[4096];
    final_vk(o, vbuf, sizeof vbuf, &vk, &dir);
    if (rc == CZ_OK && (vk || dir)) {
        /* as a chain verifier would: from replica_id, comm_d, comm_r, seed alone */
        cz_progress_draw(progress, r.info.partitions, r.info.partitions, "verifying");
        double t = cz_mono_s();
        rc = cz_kind_verify("porep-c2", c1, c1_len, vk, dir, r.proof, r.len, NULL, &err);
        t_verify = cz_mono_s() - t;
        if (rc)
            cz_fail(ctx, rc, "the proof does not verify from the public values: %s", err.message);
    }
    if (rc == CZ_OK)
        rc = cz_cli_write_outputs(ctx, &r, o->proof_path, o->public_path);
    if (rc == CZ_OK) {
        cz_prover_info_t pi;
        cz_prover_info(p, &pi);
        cz_progress_draw(progress, r.info.partitions, r.info.partitions, "done");
        cz_progress_end(progress);
        printf("proof written to %s (%zu partition%s x 192 = %zu bytes, verified %s)\n",
               o->proof_path, r.info.partitions, r.info.partitions == 1 ? "" : "s", r.len,
               vk || dir ? "from public values" : "by the engine with the params' vk");
        printf("time: c1+shape %.2f s, params %.2f s, engine %.2f s (synthesis %.2f s, "
               "device %.2f s), verify %.3f s, total %.2f s (%u threads, %zu workers, "
               "backend %s, device %zu)\n",
               r.t_submit, r.info.t.params_load / 1e3, r.t_run - r.t_submit,
               r.info.t.synthesis / 1e3, r.info.t.device / 1e3, t_verify, cz_mono_s() - t0,
               pi.threads, o->workers, pi.backend, o->device);
    }
    cz_cli_job_result_free(&r);
    free(c1);
    cz_prover_free(p);
    return rc;
}

int cmd_prove_porep_c2(int argc, char **argv)
{
    c2_prove_opts_t o;
    int p = cz_opts_parse(&C2_PROVE_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    if (o.random_params) {
        /* timing only: no params, vk or public file; --proof optional */
        cz_c2_random_opts_t ro = { o.c1_path,
                                   o.proof_path,
                                   o.backend,
                                   o.timeline_path,
                                   o.svg_path,
                                   o.workers,
                                   o.threads,
                                   o.device,
                                   o.seed,
                                   o.quiet,
                                   o.json,
                                   o.dry_run,
                                   o.jobs,
                                   o.device_mem_limit,
                                   (unsigned)o.batch,
                                   o.memory_budget,
                                   o.no_pin_ab };
        return cz_cli_c2_random(&ro);
    }
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
}


typedef struct {
    const char *kind, *vk_path, *dir, *proof_path, *c1_path;
    uint64_t sector_size;
    uint8_t replica_id[32], comm_d[32], comm_r[32], seed[32];
} c2_verify_opts_t;

static const cz_opt C2_VERIFY_OPTS[] = {
    { "kind", 0, CZ_O_ENUM(c2_verify_opts_t, kind), .values = C2_KIND, .flags = CZ_OPT_REQUIRED,
      .help = "a PoRep C2 proof" },
    { "vk", 0, CZ_O_STRING(c2_verify_opts_t, vk_path), .arg = "V", .help = "the verifying key" },
    { "params-dir", 0, CZ_O_STRING(c2_verify_opts_t, dir), .arg = "D",
      .help = "the Filecoin-named vk in D instead" },
    { "proof", 0, CZ_O_STRING(c2_verify_opts_t, proof_path), .arg = "P", .flags = CZ_OPT_REQUIRED,
      .help = "the proof, 192 bytes per partition" },
    CZ_OPT_SECTOR_SIZE(c2_verify_opts_t, sector_size, "the sector size (StackedDrg<S>V1_1)"),
    CZ_OPT_HEX32(c2_verify_opts_t, replica_id, "replica-id", "the replica id"),
    CZ_OPT_HEX32(c2_verify_opts_t, comm_d, "comm-d", "the unsealed sector's commitment"),
    CZ_OPT_HEX32(c2_verify_opts_t, comm_r, "comm-r", "the sealed sector's commitment"),
    CZ_OPT_HEX32(c2_verify_opts_t, seed, "seed", "the interactive seed"),
    { "c1", 0, CZ_O_STRING(c2_verify_opts_t, c1_path), .arg = "FILE",
      .help = "the public values from this C1 instead" },
};
static const cz_opt_rule C2_VERIFY_RULES[] = {
    CZ_RULE(ONE_OF, "vk", "params-dir"),
    CZ_RULE(EXCLUSIVE, "c1", "sector-size"),
    CZ_RULE(EXCLUSIVE, "c1", "replica-id"),
    CZ_RULE(EXCLUSIVE, "c1", "comm-d"),
    CZ_RULE(EXCLUSIVE, "c1", "comm-r"),
    CZ_RULE(EXCLUSIVE, "c1", "seed"),
    CZ_RULE_UNLESS(REQUIRED, "c1", "sector-size", "replica-id", "comm-d", "comm-r"),
    CZ_RULE_UNLESS(REQUIRED, "c1", "seed"),
};
static const cz_opts_spec C2_VERIFY_SPEC = {
    .cmd = "cuzk verify",
    .usage =
        "usage: cuzk verify --kind porep-c2 (--vk V | --params-dir D) --proof P\n"
        "                   (--sector-size S --replica-id HEX --comm-d HEX --comm-r HEX --seed HEX\n"
        "                    | --c1 FILE)\n"
        "       `cuzk verify --kind porep-c2 --registered-proof T ...` (its own --help)\n",
    .about = "  Verifies a PoRep C2 proof as a chain verifier does, from the public values\n"
             "  alone: challenges, their DRG and expander parents and every partition's\n"
             "  public inputs are derived from replica_id, comm_d, comm_r, seed and the\n"
             "  sector size (registered proof StackedDrg<S>V1_1). HEX: 64 hex digits, the\n"
             "  bytes in the C1 JSON's order (as `cuzk porep gen-c1` prints them); --c1 takes\n"
             "  the values from a C1 file instead. Exit 0 valid, 1 invalid, 2 bad input.\n",
    CZ_OPTS(C2_VERIFY_OPTS),
    CZ_RULES(C2_VERIFY_RULES),
    .help_cmd = "cuzk verify --kind porep-c2 --help",
};

void cz_cli_c2_usage(FILE *f, const char *command)
{
    cz_opts_usage(!strcmp(command, "prove") ? &C2_PROVE_SPEC : &C2_VERIFY_SPEC, f);
}

int cmd_verify_porep_c2(int argc, char **argv)
{
    c2_verify_opts_t o;
    int p = cz_opts_parse(&C2_VERIFY_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    const char *vk_path = o.vk_path, *dir = o.dir, *proof_path = o.proof_path;
    const char *c1_path = o.c1_path;
    cz_porep_public_t pub;
    memset(&pub, 0, sizeof pub);
    if (!c1_path) {
        pub.sector_size = o.sector_size;
        memcpy(pub.replica_id, o.replica_id, 32);
        memcpy(pub.comm_d, o.comm_d, 32);
        memcpy(pub.comm_r, o.comm_r, 32);
        memcpy(pub.seed, o.seed, 32);
    }
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1))
        return CZ_EXIT_USAGE;
    uint8_t *proof = NULL, *c1 = NULL;
    size_t len = 0, c1_len = 0;
    cz_error_t err = { .code = CZ_OK }; /* the rest zero: message "", reserved */
    int rc = CZ_OK;
    if (c1_path)
        rc = cz_cli_read_file(ctx, c1_path, (size_t)1 << 31, &c1, &c1_len);
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, proof_path, (size_t)1 << 20, &proof, &len);
    double t = cz_mono_s();
    /* --c1: the kind's own verify (its public values, its registered
     * proof's vk name in --params-dir); else the public values given */
    if (rc == CZ_OK && c1_path)
        rc = cz_kind_verify("porep-c2", c1, c1_len, vk_path, dir, proof, len, NULL, &err);
    else if (rc == CZ_OK)
        rc = cz_porep_c2_verify(vk_path, dir, &pub, proof, len, &err);
    const char *why = *err.message           ? err.message
                      : *cz_ctx_message(ctx) ? cz_ctx_message(ctx)
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
}
