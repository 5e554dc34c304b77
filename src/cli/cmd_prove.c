/*
 * cli/cmd_prove.c — `cuzk prove` (in-process on the backend --backend names,
 * or through cuzkd) and `cuzk verify`.
 *
 * prove: through cuzk.h (cli/prove_job.h): a prover on --backend (made
 * first: an unusable one fails before any work), one job of the "circuit"
 * kind, the params loaded by the prover and checked against the circuit's
 * shape, the proof verified against the params' own vk before anything is
 * written (as Filecoin's C2 does); then the 192-byte proof and the public
 * inputs, and which backend ran. The witness of --seed S is the circuit
 * kind's (the same as through cuzkd with --daemon).
 * verify: exit 0 only for a valid proof; 1 for an invalid one; 2 for usage,
 * unreadable or malformed input.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/kind_door.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/prove_job.h"
#include "cli/public_file.h"
#ifdef CUZK_HAVE_CLIENT
#include "cli/client.h"
#endif

/* ---- prove ------------------------------------------------------------------ */

typedef struct {
    const char *circuit, *params, *proof, *public_path, *request_id, *backend;
    uint64_t seed;
    size_t threads, partitions, priority, device;
    bool local, daemon, quiet;
    cz_opt_client_t cl;
} prove_opts_t;

static const cz_opt PROVE_OPTS[] = {
    { "circuit", 0, CZ_O_STRING(prove_opts_t, circuit), .arg = "ID", .flags = CZ_OPT_REQUIRED,
      .help = "toy[:X] or bench:N (cuzk circuit shape lists the kinds' circuits)" },
    { "params", 0, CZ_O_STRING(prove_opts_t, params), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the params (through cuzkd: a NAME in its params.dir, or an absolute path)" },
    { "proof", 0, CZ_O_OUTPUT(prove_opts_t, proof), .arg = "OUT", .flags = CZ_OPT_REQUIRED,
      .help = "the 192-byte proof, written after it verified" },
    { "public", 0, CZ_O_OUTPUT(prove_opts_t, public_path), .arg = "PUB",
      .help = "the public inputs, one 0x-hex element per line" },
    { "seed", 0, CZ_O_U64(prove_opts_t, seed), .arg = "S", .help = "the witness's seed" },
    CZ_OPT_THREADS(prove_opts_t, threads),
    CZ_OPT_BACKEND(prove_opts_t, backend, "auto"),
    CZ_OPT_DEVICE(prove_opts_t, device),
    CZ_OPT_QUIET(prove_opts_t, quiet),
    { "local", 0, CZ_O_FLAG(prove_opts_t, local),
      .help = "prove in this process even with $CUZK_SOCKET / $CUZK_URL set" },
    { "daemon", 0, CZ_O_FLAG(prove_opts_t, daemon), .help = "prove through cuzkd" },
    { "partitions", 0, CZ_O_SIZE(prove_opts_t, partitions), .min = 1, .def = "1", .arg = "P",
      .help = "partitions of the job (through cuzkd)" },
    { "priority", 0, CZ_O_SIZE(prove_opts_t, priority), .min = 1, .max = 4, .def = "2",
      .help = "the job's priority (through cuzkd)" },
    { "request-id", 0, CZ_O_STRING(prove_opts_t, request_id), .arg = "R",
      .help = "idempotency key (through cuzkd): the same R, the same job" },
    CZ_OPT_CLIENT(prove_opts_t, cl),
};
static const cz_opt_rule PROVE_RULES[] = { CZ_OPT_CLIENT_RULES };

static void prove_more(FILE *f)
{
    cz_cli_kinds_help(f, "prove");
}

static const cz_opts_spec PROVE_SPEC = {
    .cmd = "cuzk prove",
    .usage = "usage: cuzk prove --circuit ID --params FILE --proof OUT [--public PUB]\n"
             "                  [--seed S] [--threads T] [--backend cpu|cuda|auto] [--device N]\n"
             "                  [--json]\n"
             "       cuzk prove --daemon --circuit ID --params NAME --proof OUT [--public PUB]\n"
             "                  [--partitions P] [--seed S] [--priority 1..4] [--request-id R]\n"
             "                  [--socket PATH | --url URL] [--token T] [--json]\n",
    .about = "  Proves circuit ID (toy[:X] or bench:N) in this process, verifies the proof\n"
             "  against the params' verifying key, then writes the 192-byte proof to OUT\n"
             "  and the public inputs (one 0x-hex element per line) to PUB. The result line\n"
             "  (--json: one JSON object) names the backend that ran.\n"
             "  Through cuzkd instead with --daemon, or any of --socket/--url, or $CUZK_SOCKET /\n"
             "  $CUZK_URL set (--local forces the in-process path); NAME is resolved by the\n"
             "  daemon. Progress (partitions, stage, elapsed, ETA) goes to stderr: a bar on a\n"
             "  TTY, plain lines otherwise; --quiet hides it.\n"
             "  Exit 0 on success, 1 on failure, 2 on usage errors; through cuzkd also\n"
             "  3 (daemon unreachable) and 4 (timeout); see docs/API.md.\n",
    CZ_OPTS(PROVE_OPTS),
    CZ_RULES(PROVE_RULES),
    .more = prove_more,
};

/*
 * The in-process form through cuzk.h: one job of the "circuit" kind
 * ({"circuit": ID, "seed": S}, as --daemon submits it) on a prover of the
 * --backend (made first: an unusable one fails before anything else), its
 * params the file --params (checked against the circuit's shape when they
 * load); the engine verifies the proof with the params' vk before it is
 * written. *usage: a bad backend name or circuit id.
 */
static int prove_local(cz_ctx_t *ctx, const prove_opts_t *o, cz_progress_t *progress, bool *usage)
{
    for (const char *c = o->circuit; *c; c++)
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) {
            *usage = true;
            return cz_fail(ctx, CZ_EINVAL, "--circuit: '%s' is not a circuit id", o->circuit);
        }
    cz_cli_prover_opts_t po = { .backend = o->backend, .device = o->device, .threads = o->threads };
    cz_prover_t *p = NULL;
    cz_cli_job_result_t r;
    memset(&r, 0, sizeof r);
    int rc = cz_cli_prover_new(ctx, &po, &p);
    *usage = rc == CZ_EINVAL;
    char fields[512], real[PATH_MAX];
    cz_prover_info_t pi;
    if (rc == CZ_OK) {
        snprintf(fields, sizeof fields, "{\"circuit\": \"%s\", \"seed\": %" PRIu64 "}", o->circuit,
                 o->seed);
        cz_job_request_t req;
        cz_job_request_init(&req, "circuit", NULL, 0);
        req.fields = fields;
        req.params = cz_cli_params_arg(o->params, real);
        cz_progress_draw(progress, 0, 1, "synthesis");
        rc = cz_cli_prove_to_files(ctx, p, &req, o->proof, o->public_path, progress, &r, &pi);
        *usage = r.refused && (rc == CZ_EINVAL || rc == CZ_EFORMAT);
    }
    if (rc == CZ_OK) {
        /* prove: from the first synthesis to the end (the params load excluded) */
        double t_prove = (r.info.t.total - r.info.t.queue_wait) / 1e3;
        if (o->cl.json)
            printf("{\"circuit\":\"%s\",\"backend\":\"%s\",\"device\":%zu,\"threads\":%u,"
                   "\"prove_ms\":%.2f,\"bytes\":%zu,\"verified\":true}\n",
                   o->circuit, pi.backend, o->device, pi.threads, t_prove * 1e3, r.len);
        else
            printf("proof written to %s (%zu bytes, verified; backend %s, device %zu, prove "
                   "%.2f s)\n",
                   o->proof, r.len, pi.backend, o->device, t_prove);
    }
    cz_cli_job_result_free(&r);
    cz_prover_free(p);
    return rc;
}

int cmd_prove(int argc, char **argv)
{
    prove_opts_t o;
    cz_opts_result_t r = { 0 };
    int rc = cz_cli_kind_door(cz_cli_kinds(), "prove", argc, argv);
    if (rc == CZ_OPTS_RUN)
        rc = cz_opts_parse(&PROVE_SPEC, &o, argc, argv, &r);
    if (rc != CZ_OPTS_RUN)
        return rc;
    const char *circuit_id = o.circuit, *params_path = o.params, *proof_path = o.proof;
    const char *public_path = o.public_path;
    bool daemon = o.daemon || o.cl.socket || o.cl.url || getenv("CUZK_SOCKET") ||
                  getenv("CUZK_URL");
    if (daemon && !o.local) {
        if (cz_opts_given(&PROVE_SPEC, &r, "backend") || cz_opts_given(&PROVE_SPEC, &r, "device"))
            return cz_opts_error(&PROVE_SPEC,
                                 "--backend/--device choose the in-process backend; "
                                 "the daemon's is its config (devices.backend); add --local to "
                                 "prove here");
#ifdef CUZK_HAVE_CLIENT
        cz_client_t cl;
        cz_client_set(&cl, &o.cl);
        cl.json = o.cl.json || o.quiet;
        return cz_cli_prove_daemon(&cl, circuit_id, params_path, o.partitions, o.seed, proof_path,
                                   public_path, (int)o.priority, o.request_id);
#else
        fprintf(stderr, "cuzk prove: this build has no daemon client (needs libcurl and jansson); "
                        "use --local\n");
        return CZ_EXIT_USAGE;
#endif
    }
    if (o.partitions != 1)
        return cz_opts_error(&PROVE_SPEC,
                             "--partitions %zu needs the daemon (--daemon); the local "
                             "path proves one partition",
                             o.partitions);
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1)) {
        fprintf(stderr, "cuzk prove: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    cz_progress_t progress;
    cz_progress_start(&progress, o.quiet || o.cl.json);
    bool usage = false;
    rc = prove_local(ctx, &o, &progress, &usage);
    cz_progress_end(&progress);
    if (rc)
        fprintf(stderr, "cuzk prove: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    cz_ctx_free(ctx);
    return rc == CZ_OK ? CZ_EXIT_OK : usage ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
}

/* ---- verify ----------------------------------------------------------------- */

typedef struct {
    const char *vk, *proof, *public_path;
} verify_opts_t;

static const cz_opt VERIFY_OPTS[] = {
    { "vk", 0, CZ_O_STRING(verify_opts_t, vk), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the verifying key (bellperson's format)" },
    { "proof", 0, CZ_O_STRING(verify_opts_t, proof), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the proof: 192 bytes per partition" },
    { "public", 0, CZ_O_STRING(verify_opts_t, public_path), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the public inputs, one block per partition (`cuzk prove --public` writes them)" },
};

static void verify_more(FILE *f)
{
    cz_cli_kinds_help(f, "verify");
}

static const cz_opts_spec VERIFY_SPEC = {
    .cmd = "cuzk verify",
    .usage = "usage: cuzk verify --vk FILE --proof FILE --public FILE\n",
    .about = "  Verifies a (multi-partition) proof: 192 bytes per partition, the public\n"
             "  file holding one block of inputs per partition. Exit 0: valid;\n"
             "  1: invalid; 2: usage error, unreadable or malformed input.\n",
    CZ_OPTS(VERIFY_OPTS),
    .more = verify_more,
};

int cmd_verify(int argc, char **argv)
{
    verify_opts_t o;
    int p = cz_cli_kind_door(cz_cli_kinds(), "verify", argc, argv);
    if (p == CZ_OPTS_RUN)
        p = cz_opts_parse(&VERIFY_SPEC, &o, argc, argv, NULL);
    if (p != CZ_OPTS_RUN)
        return p;
    const char *vk_path = o.vk, *proof_path = o.proof, *public_path = o.public_path;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_USAGE;
    /* through cuzk.h: the vk, the proof and the inputs checked there */
    cz_groth16_vk_t *vk = NULL;
    cz_error_t err = { 0 };
    uint8_t *bytes = NULL, *inputs = NULL;
    size_t len = 0, blocks = 0, per_block = 0;
    int rc = cz_groth16_vk_load(&vk, vk_path, &err);
    if (rc != CZ_OK)
        rc = cz_fail(ctx, rc, "%s", err.message);
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, proof_path, (size_t)1 << 20, &bytes, &len);
    if (rc == CZ_OK)
        rc = cz_public_read(ctx, public_path, &inputs, &blocks, &per_block);
    size_t n = len / CZ_GROTH16_PROOF_BYTES;
    if (rc == CZ_OK && (len == 0 || len % CZ_GROTH16_PROOF_BYTES))
        rc = cz_fail(ctx, CZ_EFORMAT, "%s: %zu bytes is not a whole number of 192-byte proofs",
                     proof_path, len);
    if (rc == CZ_OK && blocks != n && !(per_block == 0 && blocks == 0))
        rc = cz_fail(ctx, CZ_EMISMATCH, "%s has %zu partitions but %s has %zu blocks of inputs",
                     proof_path, n, public_path, blocks);
    if (rc == CZ_OK && per_block != cz_groth16_vk_inputs(vk) && blocks)
        rc = cz_fail(ctx, CZ_EMISMATCH, "%s has %zu inputs per block, the vk %s takes %zu",
                     public_path, per_block, vk_path, cz_groth16_vk_inputs(vk));
    int exit_code = CZ_EXIT_USAGE;
    if (rc == CZ_OK) {
        rc = cz_groth16_verify(vk, bytes, len, inputs, blocks * per_block, &err);
        if (rc != CZ_OK && rc != CZ_EVERIFY)
            cz_fail(ctx, rc, "%s", err.message);
        exit_code = rc == CZ_OK ? CZ_EXIT_OK : rc == CZ_EVERIFY ? CZ_EXIT_FAIL : CZ_EXIT_USAGE;
    }
    if (exit_code == CZ_EXIT_OK)
        printf("valid (%zu partition%s)\n", n, n == 1 ? "" : "s");
    else if (exit_code == CZ_EXIT_FAIL)
        printf("INVALID proof\n");
    else
        fprintf(stderr, "cuzk verify: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    cz_groth16_vk_free(vk);
    free(bytes);
    free(inputs);
    cz_ctx_free(ctx);
    return exit_code;
}
