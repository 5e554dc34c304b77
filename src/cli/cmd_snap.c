/*
 * cli/cmd_snap.c — SnapDeals (EmptySectorUpdate) from the command line:
 *
 *   cuzk snap gen-vanilla --sector-size S --random SEED -o FILE
 *       seal a CC test sector (kinds/porep/seal.h), encode random deal data into
 *       it (kinds/snap/encode.h) and write the request file (kinds/snap/request.h):
 *       the commitments and one bincode PartitionProof per partition, as
 *       proofs-api's generate_partition_proofs returns them.
 *   cuzk setup  --kind snap --sector-size S --params-dir D [--seed N]
 *   cuzk prove  --kind snap --input FILE --params-dir D --proof OUT
 *   cuzk verify --kind snap --params-dir D --proof OUT --input FILE
 *
 * prove runs every partition through the engine (--backend, default auto), which
 * verifies the job; the proof is verified again from the public values
 * alone before it is written. verify reads only the request's public values
 * (registered_proof and the three commitments). Needs jansson.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"

#include "cli/prove_job.h"
#include "cli/time_random.h"
#include "core/clock.h"
#include "core/hex.h"
#include "kinds/porep/seal.h"
#include "kinds/snap/encode.h"
#include "kinds/snap/job.h"
#include "kinds/snap/request.h"
#include "kinds/snap/vanilla.h"

static int fail_exit(cz_ctx_t *ctx, const char *cmd, int rc)
{
    fprintf(stderr, "cuzk %s: %s\n", cmd,
            *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    return rc == CZ_EVERIFY                      ? CZ_EXIT_FAIL
           : rc == CZ_EINVAL || rc == CZ_EFORMAT ? CZ_EXIT_USAGE
                                                 : CZ_EXIT_FAIL;
}

/* RegisteredUpdateProof of a sector size (job.h: 0-4). */
static int registered_of(uint64_t bytes, uint64_t *rp)
{
    for (uint64_t i = 0; i < 5; i++) {
        uint64_t b;
        if (!cz_snap_sector_bytes(i, &b) && b == bytes) {
            *rp = i;
            return CZ_OK;
        }
    }
    return CZ_EINVAL;
}

/* ---- gen-vanilla ---------------------------------------------------------------------- */

static int gen_vanilla(cz_ctx_t *ctx, uint64_t bytes, uint64_t seed, const char *out)
{
    cz_snap_params_t p;
    uint64_t rp;
    if (cz_snap_params_sector(&p, bytes) || registered_of(bytes, &rp) || p.sub_arity)
        return cz_fail(ctx, CZ_EINVAL, "gen-vanilla: dense test sectors are 2KiB, 8MiB or 512MiB");
    cz_fr *old = malloc(p.nodes * sizeof *old), *data = malloc(p.nodes * sizeof *data), comm_c;
    cz_snap_sector_t s;
    memset(&s, 0, sizeof s);
    cz_snap_request_t req;
    memset(&req, 0, sizeof req);
    cz_snap_input_t in;
    memset(&in, 0, sizeof in);
    cz_c1_t c1;
    memset(&c1, 0, sizeof c1);
    int rc = old && data ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "gen-vanilla");
    if (rc == CZ_OK) {
        /* the CC sector: sealed for real; its replica is the old tree_r_last */
        cz_seal_args_t a;
        memset(&a, 0, sizeof a);
        a.sector_bytes = bytes;
        a.random_seed = seed;
        a.replica_out = old;
        a.comm_c_out = &comm_c;
        a.sector_id = seed;
        memset(a.ticket, 0x11, 32);
        memset(a.seed, 0x22, 32);
        rc = cz_seal_gen_c1(ctx, &a, &c1);
    }
    if (rc == CZ_OK) {
        /* the deal data: Fr32-valid pseudo-random nodes from the seed */
        cz_rng rng;
        cz_rng_seed(&rng, seed ^ 0x736e6170u);
        for (uint64_t v = 0; v < p.nodes; v++) {
            uint8_t b[32];
            for (int i = 0; i < 4; i++) {
                uint64_t x = cz_rng_next(&rng);
                memcpy(b + 8 * i, &x, 8);
            }
            b[31] &= 0x3f;
            cz_fr_from_repr(&data[v], b);
        }
        rc = cz_snap_sector_encode(ctx, &s, &p, &comm_c, old, data, 0);
    }
    if (rc == CZ_OK) {
        req.registered_proof = rp;
        cz_fr_to_repr(req.comm_r_old, &s.comm_r_old);
        cz_fr_to_repr(req.comm_r_new, &s.comm_r_new);
        cz_fr_to_repr(req.comm_d_new, &s.comm_d_new);
        if (memcmp(req.comm_r_old, c1.comm_r, 32))
            rc = cz_fail(ctx, CZ_EINTERNAL,
                         "gen-vanilla: comm_r_old differs from the sealed comm_r");
    }
    if (rc == CZ_OK) {
        req.nproofs = p.partitions;
        req.proofs = calloc(p.partitions, sizeof *req.proofs);
        req.lens = calloc(p.partitions, sizeof *req.lens);
        if (!req.proofs || !req.lens)
            rc = cz_fail(ctx, CZ_ENOMEM, "gen-vanilla");
    }
    if (rc == CZ_OK)
        rc = cz_snap_input_alloc(&in, &p);
    for (unsigned k = 0; rc == CZ_OK && k < p.partitions; k++) {
        req.lens[k] = cz_snap_vanilla_size(&p);
        req.proofs[k] = malloc(req.lens[k]);
        rc = req.proofs[k] ? cz_snap_sector_partition(&s, k, &in) : CZ_ENOMEM;
        if (rc == CZ_OK)
            rc = cz_snap_input_check(ctx, &in);
        if (rc == CZ_OK)
            rc = cz_snap_vanilla_encode(&in, req.proofs[k], req.lens[k]);
    }
    if (rc == CZ_OK)
        rc = cz_snap_request_write(ctx, &req, out);
    if (rc == CZ_OK) {
        char hex[65];
        printf("snap request %s: registered_proof %" PRIu64 ", %u partition%s x %zu bytes\n", out,
               rp, p.partitions, p.partitions == 1 ? "" : "s", req.lens[0]);
        cz_hex_encode(hex, req.comm_r_old, 32);
        printf("comm_r_old %s\n", hex);
        cz_hex_encode(hex, req.comm_r_new, 32);
        printf("comm_r_new %s\n", hex);
        cz_hex_encode(hex, req.comm_d_new, 32);
        printf("comm_d_new %s\n", hex);
    }
    cz_snap_input_free(&in);
    cz_snap_request_free(&req);
    cz_snap_sector_free(&s);
    cz_c1_free(&c1);
    free(old);
    free(data);
    return rc;
}

typedef struct {
    const char *kind, *dir, *input, *proof, *out, *backend;
    uint64_t sector_bytes, seed;
    size_t threads, device;
    bool random; /* --random-params */
} snap_opts_t;

static const char *const SNAP_KIND[] = { "snap", NULL };
/* laid out by hand: */
/* clang-format off */
#define SNAP_KIND_OPT(what)                                                                  \
    { "kind", 0, CZ_O_ENUM(snap_opts_t, kind), .values = SNAP_KIND, .flags = CZ_OPT_REQUIRED, \
      .help = what }
/* clang-format on */

static const cz_opt GEN_OPTS[] = {
    { "sector-size", 0, CZ_O_SECTOR(snap_opts_t, sector_bytes), .arg = "SIZE",
      .flags = CZ_OPT_REQUIRED, .help = "2KiB, 8MiB or 512MiB (a CC sector sealed here)" },
    { "random", 0, CZ_O_U64(snap_opts_t, seed), .arg = "SEED", .flags = CZ_OPT_REQUIRED,
      .help = "the sector and the deal data from SEED" },
    { "out", 'o', CZ_O_OUTPUT(snap_opts_t, out), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the SnapDeals request (kinds/snap/request.h)" },
};
static const cz_opts_spec GEN_SPEC = {
    .cmd = "cuzk snap gen-vanilla",
    .usage = "usage: cuzk snap gen-vanilla --sector-size 2KiB|8MiB|512MiB --random SEED -o FILE\n",
    .about = "  Seals a CC test sector, encodes pseudo-random deal data (from SEED) into it\n"
             "  and writes the SnapDeals request: registered_proof, comm_r_old, comm_r_new,\n"
             "  comm_d_new and one bincode PartitionProof (base64) per partition.\n"
             "  Prove it with `cuzk prove --kind snap --input FILE --params-dir D --proof OUT`.\n",
    CZ_OPTS(GEN_OPTS),
};

static int snap_gen_vanilla(int argc, char **argv)
{
    snap_opts_t o;
    int p = cz_opts_parse(&GEN_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_FAIL;
    int rc = gen_vanilla(ctx, o.sector_bytes, o.seed, o.out);
    int code = rc ? fail_exit(ctx, "snap gen-vanilla", rc) : CZ_EXIT_OK;
    cz_ctx_free(ctx);
    return code;
}

int cmd_snap(int argc, char **argv)
{
    static const cz_cli_command sub[] = {
        { "gen-vanilla", snap_gen_vanilla, "a SnapDeals update of a test sector (--help)" },
    };
    return cz_cli_dispatch("cuzk snap", sub, sizeof sub / sizeof sub[0],
                           "usage: cuzk snap gen-vanilla ...   (cuzk snap gen-vanilla --help)",
                           argc, argv);
}

/* ---- setup / prove / verify --kind snap ------------------------------------------------- */


static const cz_opt PROVE_OPTS[] = {
    SNAP_KIND_OPT("a SnapDeals update"),
    { "input", 0, CZ_O_STRING(snap_opts_t, input), .arg = "FILE",
      .help = "the request (cuzk snap gen-vanilla; Curio's fields)" },
    { "params-dir", 0, CZ_O_STRING(snap_opts_t, dir), .arg = "D",
      .help = "the Filecoin-named params in D" },
    { "proof", 0, CZ_O_OUTPUT(snap_opts_t, proof), .arg = "OUT",
      .help = "the partition proofs concatenated (192 bytes each), written after they verified" },
    CZ_OPT_BACKEND(snap_opts_t, backend, "auto"),
    CZ_OPT_DEVICE(snap_opts_t, device),
    CZ_OPT_THREADS(snap_opts_t, threads),
    CZ_CLI_RANDOM_PARAMS_OPTS(snap_opts_t),
};
static const cz_opts_spec PROVE_SPEC = {
    .cmd = "cuzk prove",
    .usage = "usage: cuzk prove --kind snap --input FILE --params-dir D --proof OUT\n"
             "                  [--backend cpu|cuda|auto] [--device N] [--threads T]\n"
             "       cuzk prove --kind snap --sector-size S --random-params [--seed N]\n"
             "                  [--backend B] [--device N] [--threads T]\n",
    .about = "  Proves a SnapDeals update (every partition) from a request file, verifies it\n"
             "  from the public values and writes the partition proofs concatenated.\n"
             "  --random-params: TIMING ONLY. Every partition of the update circuit's exact\n"
             "  shape with random params and a random witness; nothing is verified or written.\n",
    CZ_OPTS(PROVE_OPTS),
    CZ_RULES(cz_cli_random_params_rules),
    .help_cmd = "cuzk prove --kind snap --help",
};

/* --random-params: TIMING ONLY (cuzk.h cz_prover_submit_timing, cli/time_random.h). */
static int prove_random(cz_ctx_t *ctx, const snap_opts_t *o)
{
    cz_cli_prover_opts_t po = { .backend = o->backend, .device = o->device, .threads = o->threads };
    cz_timing_request_t req;
    cz_timing_request_init(&req, "snap");
    req.sector_size = o->sector_bytes;
    req.seed = o->seed;
    bool usage = false;
    return cz_cli_time_random(ctx, &po, &req, &usage);
}

/* The largest snap request read (its bincode partition proofs). */
#define MAX_INPUT_BYTES ((size_t)1 << 31)

/*
 * Through cuzk.h: a prover proves one snap job (the request's partition
 * proofs checked at submit, the engine's check with the params' vk), then
 * cz_kind_verify checks it from the public values alone with the
 * Filecoin-named vk in --params-dir.
 */
static int prove_run(cz_ctx_t *ctx, const snap_opts_t *o)
{
    cz_cli_prover_opts_t po = { .backend = o->backend,
                                .device = o->device,
                                .workers = 1,
                                .threads = o->threads,
                                .params_dir = o->dir };
    cz_cli_job_result_t r;
    cz_kind_public_info_t pub;
    cz_prover_info_t pi;
    bool usage;
    double t0 = cz_mono_s();
    int rc = cz_cli_prove_checked(ctx, &po, "snap", o->input, MAX_INPUT_BYTES, o->proof, &r, &pub,
                                  &pi, &usage);
    if (rc == CZ_OK)
        printf("proof written to %s (snap, %s x 192 = %zu bytes, verified from public "
               "values); engine %.2f s (synthesis %.2f s, device %.2f s), total %.2f s\n",
               o->proof, pub.summary, r.len, r.t_run, r.info.t.synthesis / 1e3,
               r.info.t.device / 1e3, cz_mono_s() - t0);
    cz_cli_job_result_free(&r);
    return rc;
}

int cmd_prove_snap(int argc, char **argv)
{
    snap_opts_t o;
    int p = cz_opts_parse(&PROVE_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1))
        return CZ_EXIT_FAIL;
    int rc = o.random ? prove_random(ctx, &o) : prove_run(ctx, &o);
    int code = rc ? fail_exit(ctx, "prove", rc) : CZ_EXIT_OK;
    cz_ctx_free(ctx);
    return code;
}

static const cz_opt VERIFY_OPTS[] = {
    SNAP_KIND_OPT("a SnapDeals update proof"),
    { "params-dir", 0, CZ_O_STRING(snap_opts_t, dir), .arg = "D", .flags = CZ_OPT_REQUIRED,
      .help = "the Filecoin-named vk in D" },
    { "proof", 0, CZ_O_STRING(snap_opts_t, proof), .arg = "P", .flags = CZ_OPT_REQUIRED,
      .help = "the proof" },
    { "input", 0, CZ_O_STRING(snap_opts_t, input), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the request: only its public values are read" },
};
static const cz_opts_spec VERIFY_SPEC = {
    .cmd = "cuzk verify",
    .usage = "usage: cuzk verify --kind snap --params-dir D --proof P --input FILE\n",
    .about = "  Verifies a SnapDeals update proof from the request's public values alone\n"
             "  (registered_proof, comm_r_old, comm_r_new, comm_d_new). Exit 0 valid, 1\n"
             "  invalid, 2 bad input.\n",
    CZ_OPTS(VERIFY_OPTS),
    .help_cmd = "cuzk verify --kind snap --help",
};

/* Through cuzk.h: cz_kind_verify reads the request's public values and
 * checks the proof with the Filecoin-named vk in D. */
int cmd_verify_snap(int argc, char **argv)
{
    snap_opts_t o;
    int go = cz_opts_parse(&VERIFY_SPEC, &o, argc, argv, NULL);
    if (go != CZ_OPTS_RUN)
        return go;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_FAIL;
    uint8_t *input = NULL, *proof = NULL;
    size_t input_len = 0, len = 0;
    cz_error_t err = { 0 };
    int rc = cz_cli_read_file(ctx, o.input, MAX_INPUT_BYTES, &input, &input_len);
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, o.proof, (size_t)1 << 20, &proof, &len);
    double t = cz_mono_s();
    if (rc == CZ_OK)
        rc = cz_kind_verify("snap", input, input_len, NULL, o.dir, proof, len, NULL, &err);
    else
        snprintf(err.message, sizeof err.message, "%s", cz_ctx_message(ctx));
    int code = rc == CZ_OK ? CZ_EXIT_OK : rc == CZ_EVERIFY ? CZ_EXIT_FAIL : CZ_EXIT_USAGE;
    if (code == CZ_EXIT_OK)
        printf("valid (snap, %zu partition%s, %.3f s)\n", len / 192, len == 192 ? "" : "s",
               cz_mono_s() - t);
    else if (code == CZ_EXIT_FAIL)
        printf("INVALID proof\n");
    else
        fprintf(stderr, "cuzk verify: %s\n", *err.message ? err.message : cz_strerror(rc));
    free(proof);
    free(input);
    cz_ctx_free(ctx);
    return code;
}
