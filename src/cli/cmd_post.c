/*
 * cli/cmd_post.c — WinningPoSt / WindowPoSt from the command line:
 *
 *   cuzk post gen-vanilla --kind winning|window --sector-size S [--sectors N]
 *                         --random SEED -o FILE
 *   cuzk setup  --kind winning-post|window-post --sector-size S --params-dir D [--seed S]
 *   cuzk prove  --kind winning-post|window-post --input FILE --params-dir D --proof OUT
 *               [--backend cpu|cuda|auto] [--device N] [--threads T]
 *   cuzk verify --kind winning-post|window-post --params-dir D --proof OUT --input FILE
 *
 * FILE is kinds/post/input.h's JSON: what Curio sends (registered proof,
 * randomness, miner id, partition index, bincode vanilla proofs) plus the
 * public sectors. prove checks every vanilla proof against the public
 * values before it queues anything, proves through the engine, verifies
 * the proof from the public values and writes 192 bytes. verify reads only
 * the public values (randomness, prover, sector ids, comm_rs). Parameter
 * files go by their Filecoin names (kinds/post/post.h). Exit codes: 0 ok / valid,
 * 1 failed / INVALID, 2 bad input or usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/ctx.h"

/* --kind of prove/verify/setup: winning-post or window-post. */
bool cz_cli_post_kind(int argc, char **argv)
{
    return cz_cli_has_kind(argc, argv, "winning-post") ||
           cz_cli_has_kind(argc, argv, "window-post");
}

#include "cli/prove_job.h"
#include "cli/time_random.h"
#include "core/clock.h"
#include "kinds/post/input.h"

static int fail(cz_ctx_t *ctx, const char *cmd, int rc)
{
    fprintf(stderr, "cuzk %s: %s\n", cmd,
            *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    return rc;
}


/* ---- gen-vanilla ------------------------------------------------------------------ */

static const char *const GEN_KINDS[] = { "winning", "window", "winning-post", "window-post", NULL };
static const char *const POST_KINDS[] = { "winning-post", "window-post", NULL };

typedef struct {
    const char *kind, *out, *input, *dir, *proof, *backend;
    uint64_t sector_bytes, seed;
    size_t sectors, threads, device;
    bool random;
} post_opts_t;

/* laid out by hand: */
/* clang-format off */
#define POST_KIND(what)                                                                     \
    { "kind", 0, CZ_O_ENUM(post_opts_t, kind), .values = POST_KINDS, .flags = CZ_OPT_REQUIRED, \
      .help = what }
/* clang-format on */

static const cz_opt GEN_OPTS[] = {
    { "kind", 0, CZ_O_ENUM(post_opts_t, kind), .values = GEN_KINDS, .flags = CZ_OPT_REQUIRED,
      .help = "WinningPoSt or WindowPoSt" },
    { "sector-size", 0, CZ_O_SECTOR(post_opts_t, sector_bytes), .arg = "S",
      .flags = CZ_OPT_REQUIRED, .help = "2KiB, 8MiB or 512MiB (sealed here)" },
    { "sectors", 0, CZ_O_SIZE(post_opts_t, sectors), .min = 1, .max = 1u << 16, .def = "1",
      .help = "test sectors to seal" },
    { "random", 0, CZ_O_U64(post_opts_t, seed), .arg = "SEED", .flags = CZ_OPT_REQUIRED,
      .help = "the randomness, miner and sector data from SEED" },
    { "out", 'o', CZ_O_OUTPUT(post_opts_t, out), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the PoSt input (kinds/post/input.h's JSON)" },
};
static const cz_opts_spec GEN_SPEC = {
    .cmd = "cuzk post gen-vanilla",
    .usage = "usage: cuzk post gen-vanilla --kind winning|window --sector-size S [--sectors N]\n"
             "                             --random SEED -o FILE\n",
    .about = "  Seals N test sectors and writes the PoSt input FILE: randomness and miner\n"
             "  from SEED, the public sectors, and each sector's bincode vanilla proof as\n"
             "  rust-filecoin-proofs-api writes it.\n",
    CZ_OPTS(GEN_OPTS),
};

static int gen_vanilla(int argc, char **argv)
{
    post_opts_t o;
    int p = cz_opts_parse(&GEN_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    cz_post_kind_t k;
    cz_post_kind_parse(o.kind, &k); /* one of GEN_KINDS */
    uint64_t bytes = o.sector_bytes;
    size_t n = o.sectors;
    uint64_t s = o.seed;
    const char *out = o.out;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_FAIL;
    cz_post_input_t in;
    int rc = cz_post_gen(ctx, k, bytes, (unsigned)n, s, &in);
    if (rc == CZ_OK)
        rc = cz_post_input_save(ctx, &in, out);
    if (rc == CZ_OK)
        printf("%s: %s, %zu sector%s, miner %llu\n", out, in.proof->name, in.nsectors,
               in.nsectors == 1 ? "" : "s", (unsigned long long)in.miner_id);
    else
        fail(ctx, "post gen-vanilla", rc);
    cz_post_input_free(&in);
    cz_ctx_free(ctx);
    return rc == CZ_OK ? CZ_EXIT_OK : rc == CZ_EINVAL ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
}

int cmd_post(int argc, char **argv)
{
    static const cz_cli_command sub[] = {
        { "gen-vanilla", gen_vanilla, "seal test sectors, write their PoSt vanilla proofs" },
    };
    return cz_cli_dispatch("cuzk post", sub, sizeof sub / sizeof sub[0],
                           "usage: cuzk post gen-vanilla ...   (cuzk post gen-vanilla --help)",
                           argc, argv);
}

/* ---- prove ------------------------------------------------------------------------ */

static const cz_opt PROVE_OPTS[] = {
    POST_KIND("the fallback PoSt proof"),
    { "input", 0, CZ_O_STRING(post_opts_t, input), .arg = "FILE",
      .help = "the PoSt input (cuzk post gen-vanilla; Curio's fields)" },
    { "params-dir", 0, CZ_O_STRING(post_opts_t, dir), .arg = "D",
      .help = "the Filecoin-named params in D" },
    { "proof", 0, CZ_O_OUTPUT(post_opts_t, proof), .arg = "OUT",
      .help = "the 192-byte proof, written after it verified" },
    CZ_OPT_BACKEND(post_opts_t, backend, "auto"),
    CZ_OPT_DEVICE(post_opts_t, device),
    CZ_OPT_THREADS(post_opts_t, threads),
    CZ_CLI_RANDOM_PARAMS_OPTS(post_opts_t),
};
static const cz_opts_spec PROVE_SPEC = {
    .cmd = "cuzk prove",
    .usage = "usage: cuzk prove --kind winning-post|window-post --input FILE --params-dir D\n"
             "                  --proof OUT [--backend cpu|cuda|auto] [--device N] [--threads T]\n"
             "       cuzk prove --kind winning-post|window-post --sector-size S --random-params\n"
             "                  [--seed N] [--backend B] [--device N] [--threads T]\n",
    .about =
        "  Checks every vanilla proof against the public values before anything is\n"
        "  queued, proves through the engine, verifies the proof from the public values\n"
        "  and writes its 192 bytes.\n"
        "  --random-params: TIMING ONLY. Params of the partition circuit's exact shape made of\n"
        "  random points and a witness of random field elements (the real R1CS and scalar\n"
        "  distribution; the proof cannot verify and is not written). Prints the shape,\n"
        "  the params' generation time, synthesis, the device region and submit-to-done.\n",
    CZ_OPTS(PROVE_OPTS),
    CZ_RULES(cz_cli_random_params_rules),
    .help_cmd = "cuzk prove --kind winning-post --help",
};

typedef post_opts_t prove_opts_t;

/* --random-params: TIMING ONLY (cuzk.h cz_prover_submit_timing, cli/time_random.h). */
static int prove_random(cz_ctx_t *ctx, const prove_opts_t *o, bool *usage)
{
    cz_cli_prover_opts_t po = { .backend = o->backend, .device = o->device, .threads = o->threads };
    cz_timing_request_t req;
    cz_timing_request_init(&req, o->kind);
    req.sector_size = o->sector_bytes;
    req.seed = o->seed;
    return cz_cli_time_random(ctx, &po, &req, usage);
}

/* The largest PoSt input read (a window partition's vanilla proofs). */
#define MAX_INPUT_BYTES ((size_t)4 << 30)

/*
 * Through cuzk.h: a prover proves one job of the kind (every vanilla proof
 * checked against the public values at submit, the engine's check with the
 * params' vk), then cz_kind_verify checks it from the public values alone
 * with the Filecoin-named vk in --params-dir. *usage: a bad --backend.
 */
static int prove_run(cz_ctx_t *ctx, const prove_opts_t *o, bool *usage)
{
    cz_cli_prover_opts_t po = { .backend = o->backend,
                                .device = o->device,
                                .threads = o->threads,
                                .params_dir = o->dir };
    cz_cli_job_result_t r;
    cz_kind_public_info_t pub;
    cz_prover_info_t pi;
    double t0 = cz_mono_s();
    int rc = cz_cli_prove_checked(ctx, &po, o->kind, o->input, MAX_INPUT_BYTES, o->proof, &r, &pub,
                                  &pi, usage);
    if (rc == CZ_OK)
        printf("proof written to %s (%s, 192 bytes, verified from public values; "
               "synthesis %.2f s, device %.2f s, total %.2f s, backend %s)\n",
               o->proof, pub.summary, r.info.t.synthesis / 1e3, r.info.t.device / 1e3,
               cz_mono_s() - t0, pi.backend);
    cz_cli_job_result_free(&r);
    return rc;
}

int cmd_prove_post(int argc, char **argv)
{
    post_opts_t o;
    int p = cz_opts_parse(&PROVE_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1))
        return CZ_EXIT_FAIL;
    bool usage = false;
    int rc = o.random ? prove_random(ctx, &o, &usage) : prove_run(ctx, &o, &usage);
    if (rc)
        fail(ctx, "prove", rc);
    cz_ctx_free(ctx);
    return rc == CZ_OK ? CZ_EXIT_OK : usage ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
}

/* ---- verify ----------------------------------------------------------------------- */

static const cz_opt VERIFY_OPTS[] = {
    POST_KIND("the fallback PoSt proof"),
    { "params-dir", 0, CZ_O_STRING(post_opts_t, dir), .arg = "D", .flags = CZ_OPT_REQUIRED,
      .help = "the Filecoin-named vk in D" },
    { "proof", 0, CZ_O_STRING(post_opts_t, proof), .arg = "P", .flags = CZ_OPT_REQUIRED,
      .help = "the proof" },
    { "input", 0, CZ_O_STRING(post_opts_t, input), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the PoSt input: only its public values are read" },
};
static const cz_opts_spec VERIFY_SPEC = {
    .cmd = "cuzk verify",
    .usage =
        "usage: cuzk verify --kind winning-post|window-post --params-dir D --proof P --input FILE\n",
    .about = "  From the public values of FILE alone (randomness, miner, sector ids, comm_rs):\n"
             "  exit 0 valid, 1 INVALID, 2 bad input.\n",
    CZ_OPTS(VERIFY_OPTS),
    .help_cmd = "cuzk verify --kind winning-post --help",
};

/* Through cuzk.h: cz_kind_verify reads the public values of the input and
 * checks the proof with the Filecoin-named vk in D. */
int cmd_verify_post(int argc, char **argv)
{
    post_opts_t o;
    int p = cz_opts_parse(&VERIFY_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_FAIL;
    uint8_t *input = NULL, *proof = NULL;
    size_t input_len = 0, len = 0;
    cz_kind_public_info_t info;
    cz_error_t err = { 0 };
    int rc = cz_cli_read_file(ctx, o.input, MAX_INPUT_BYTES, &input, &input_len);
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, o.proof, 4096, &proof, &len);
    if (rc == CZ_OK)
        rc = cz_kind_verify(o.kind, input, input_len, NULL, o.dir, proof, len, &info, &err);
    else
        snprintf(err.message, sizeof err.message, "%s", cz_ctx_message(ctx));
    int exit_code = rc == CZ_OK ? CZ_EXIT_OK : rc == CZ_EVERIFY ? CZ_EXIT_FAIL : CZ_EXIT_USAGE;
    if (exit_code == CZ_EXIT_OK)
        printf("valid (%s)\n", info.summary);
    else if (exit_code == CZ_EXIT_FAIL)
        printf("INVALID proof\n");
    else
        fprintf(stderr, "cuzk verify: %s\n", *err.message ? err.message : cz_strerror(rc));
    free(proof);
    free(input);
    cz_ctx_free(ctx);
    return exit_code;
}
