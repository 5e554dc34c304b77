/*
 * cli/kind_door.c — the CLI's `--kind K` from a kind table (see
 * cli/kind_door.h): the kind looked up in the table, the CLI's own
 * pipelines for the kinds that have one, `cuzk prove --kind K` through an
 * in-process prover for every other kind, and the kinds' lines of --help.
 */
#include "cli/kind_door.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api/internal.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/prove_job.h"
#include "cli/public_file.h"
#include "kinds/kinds.h"

/* The value of the first --kind / --kind= among the arguments; NULL: none. */
static const char *kind_arg(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--kind") && i + 1 < argc)
            return argv[i + 1];
        if (!strncmp(argv[i], "--kind=", 7))
            return argv[i] + 7;
    }
    return NULL;
}

bool cz_cli_has_kind(int argc, char **argv, const char *kind)
{
    const char *k = kind_arg(argc, argv);
    return k && !strcmp(k, kind);
}

const cz_kinds_t *cz_cli_kinds(void)
{
    return cz_kinds_builtin();
}

/* ---- the CLI's own pipelines ----------------------------------------------------- */

static int verify_porep(int argc, char **argv)
{
    return cz_cli_has_registered_proof(argc, argv) ? cz_cli_verify_porep_sector(argc, argv)
                                                   : cmd_verify_porep_c2(argc, argv);
}

/* Kinds the CLI proves and verifies with options of their own (public
 * values, sector sizes, timing runs); a kind not here takes the generic
 * forms. Setup is the table's: every kind with a test circuit. */
static const struct {
    const char *kind;
    cz_cli_fn *prove, *verify;
} pipelines[] = {
    { "porep-c2", cmd_prove_porep_c2, verify_porep },
    { "winning-post", cmd_prove_post, cmd_verify_post },
    { "window-post", cmd_prove_post, cmd_verify_post },
    { "snap", cmd_prove_snap, cmd_verify_snap },
};

int cz_cli_kind_door(const cz_kinds_t *kinds, const char *command, int argc, char **argv)
{
    const char *k = kind_arg(argc, argv);
    if (!k)
        return CZ_OPTS_RUN;
    const cz_job_kind_t *kind = cz_kinds_find(kinds, k, NULL);
    if (!kind) { /* the library's words, as every door's */
        cz_ctx_t *ctx = NULL;
        if (cz_ctx_new(&ctx, NULL, 1) == CZ_OK)
            cz__kind_unknown(ctx, kinds, k);
        fprintf(stderr, "cuzk %s: %s\n", command, ctx ? cz_ctx_message(ctx) : "out of memory");
        cz_ctx_free(ctx);
        return CZ_EXIT_USAGE;
    }
    if (!strcmp(command, "setup")) {
        if (kind->test_circuit)
            return cz_cli_setup_kind(argc, argv);
        fprintf(stderr,
                "cuzk setup: --kind %s: no setup form for this kind (test params: "
                "cuzk setup --circuit ID)\n",
                k);
        return CZ_EXIT_USAGE;
    }
    for (size_t i = 0; i < sizeof pipelines / sizeof pipelines[0]; i++)
        if (!strcmp(pipelines[i].kind, k))
            return !strcmp(command, "prove") ? pipelines[i].prove(argc, argv)
                                             : pipelines[i].verify(argc, argv);
    if (!strcmp(command, "prove"))
        return cz_cli_prove_kind(kinds, argc, argv);
    /* verify: a Groth16 proof is checked the same for every kind: the plain form */
    char *rest[CZ_OPTS_MAX * 2 + 1];
    int n = 0;
    for (int i = 0; i < argc && n < (int)(sizeof rest / sizeof rest[0]); i++) {
        if (i && !strcmp(argv[i], "--kind") && i + 1 < argc) {
            i++;
            continue;
        }
        if (i && !strncmp(argv[i], "--kind=", 7))
            continue;
        rest[n++] = argv[i];
    }
    return cmd_verify(n, rest);
}

void cz_cli_kinds_list(FILE *f, const char *command, const cz_kinds_t *kinds)
{
    fprintf(f, "\n  --kind K (cuzk %s --kind K --help), the kinds of the library's table:\n",
            command);
    for (size_t i = 0; i < kinds->n; i++)
        fprintf(f, "    %-14s %s\n", kinds->kind[i]->name, kinds->kind[i]->summary);
}

/* ---- `cuzk prove --kind K`: any kind, through a prover --------------------------- */

typedef struct {
    const char *kind, *input, *fields, *params, *params_dir, *proof, *public_path, *backend;
    size_t threads, device, priority;
    bool quiet, json;
} kind_opts_t;

static const cz_opt KIND_OPTS[] = {
    { "kind", 0, CZ_O_STRING(kind_opts_t, kind), .arg = "K", .flags = CZ_OPT_REQUIRED,
      .help = "a kind of the library's table (cuzk prove --help lists them)" },
    { "input", 0, CZ_O_STRING(kind_opts_t, input), .arg = "FILE",
      .help = "the kind's input (docs/API.md: the request's \"input\")" },
    { "fields", 0, CZ_O_STRING(kind_opts_t, fields), .arg = "JSON",
      .help = "the kind's fields, a JSON object ('{\"circuit\":\"toy\"}')" },
    { "params", 0, CZ_O_STRING(kind_opts_t, params), .arg = "P",
      .help = "a params file, or a NAME in --params-dir (default: the kind's own name)" },
    { "params-dir", 0, CZ_O_STRING(kind_opts_t, params_dir), .arg = "DIR", .def = ".",
      .help = "where params names resolve" },
    { "proof", 0, CZ_O_OUTPUT(kind_opts_t, proof), .arg = "OUT", .flags = CZ_OPT_REQUIRED,
      .help = "the proof, 192 bytes per partition, written after it verified" },
    { "public", 0, CZ_O_OUTPUT(kind_opts_t, public_path), .arg = "PUB",
      .help = "the public inputs, one block per partition" },
    { "priority", 0, CZ_O_SIZE(kind_opts_t, priority), .min = 1, .max = 4, .def = "2",
      .help = "the job's priority" },
    CZ_OPT_THREADS(kind_opts_t, threads),
    CZ_OPT_BACKEND(kind_opts_t, backend, "auto"),
    CZ_OPT_DEVICE(kind_opts_t, device),
    CZ_OPT_QUIET(kind_opts_t, quiet),
    CZ_OPT_JSON(kind_opts_t, json, "one JSON object as the result line"),
};

static const cz_opts_spec KIND_SPEC = {
    .cmd = "cuzk prove",
    .usage = "usage: cuzk prove --kind K [--input FILE] [--fields JSON] [--params P]\n"
             "                  [--params-dir DIR] --proof OUT [--public PUB] [--priority 1..4]\n"
             "                  [--threads T] [--backend cpu|cuda|auto] [--device N] [--json]\n",
    .about = "  Proves one job of kind K in this process, as cuzkd would (the same request:\n"
             "  input, fields, params), verifies it with the params' verifying key, then\n"
             "  writes the proof to OUT and the public inputs to PUB. Every kind of the\n"
             "  library's table has this form; porep-c2, the PoSt kinds and snap also have\n"
             "  their own (`cuzk prove --help`).\n"
             "  Exit 0 on success, 1 on failure, 2 on usage errors (a request the kind refuses).\n",
    CZ_OPTS(KIND_OPTS),
    .help_cmd = "cuzk prove --kind K --help",
};

/* Prove, fetch and write; *usage: the backend or the request was refused. */
static int prove_kind(cz_ctx_t *ctx, const cz_kinds_t *kinds, const kind_opts_t *o,
                      cz_progress_t *progress, bool *usage)
{
    cz_cli_prover_opts_t po = { .backend = o->backend,
                                .device = o->device,
                                .threads = o->threads,
                                .params_dir = o->params_dir,
                                .kinds = kinds };
    cz_prover_t *p = NULL;
    uint8_t *input = NULL;
    size_t input_len = 0;
    cz_cli_job_result_t r;
    memset(&r, 0, sizeof r);
    int rc = cz_cli_prover_new(ctx, &po, &p);
    if (rc != CZ_OK) {
        *usage = rc == CZ_EINVAL;
        return rc;
    }
    if (o->input)
        rc = cz_cli_read_file(ctx, o->input, (size_t)1 << 31, &input, &input_len);
    char real[PATH_MAX];
    cz_prover_info_t pi;
    if (rc == CZ_OK) {
        cz_job_request_t req;
        cz_job_request_init(&req, o->kind, input, input_len);
        req.fields = o->fields;
        req.params = cz_cli_params_arg(o->params, real);
        req.priority = (int)o->priority;
        rc = cz_cli_prove_to_files(ctx, p, &req, o->proof, o->public_path, progress, &r, &pi);
        *usage = r.refused && (rc == CZ_EINVAL || rc == CZ_EFORMAT || rc == CZ_ENOTFOUND);
    }
    if (rc == CZ_OK) {
        if (o->json)
            printf("{\"kind\":\"%s\",\"backend\":\"%s\",\"partitions\":%zu,\"bytes\":%zu,"
                   "\"summary\":\"%s\",\"verified\":true}\n",
                   o->kind, pi.backend, r.info.partitions, r.len, r.info.summary);
        else
            printf("proof written to %s (kind %s, %s: %zu partition%s x 192 = %zu bytes, "
                   "verified with the params' vk; backend %s)\n",
                   o->proof, o->kind, r.info.summary, r.info.partitions,
                   r.info.partitions == 1 ? "" : "s", r.len, pi.backend);
    }
    cz_cli_job_result_free(&r);
    free(input);
    cz_prover_free(p);
    return rc;
}

int cz_cli_prove_kind(const cz_kinds_t *kinds, int argc, char **argv)
{
    kind_opts_t o;
    int rc = cz_opts_parse(&KIND_SPEC, &o, argc, argv, NULL);
    if (rc != CZ_OPTS_RUN)
        return rc;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1)) {
        fprintf(stderr, "cuzk prove: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    cz_progress_t progress;
    cz_progress_start(&progress, o.quiet || o.json);
    bool usage = false;
    rc = prove_kind(ctx, kinds, &o, &progress, &usage);
    if (rc != CZ_OK) {
        cz_progress_end(&progress);
        /* the library's message as it is: the same input, the same words through every door */
        fprintf(stderr, "cuzk prove: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    }
    cz_ctx_free(ctx);
    return rc == CZ_OK ? CZ_EXIT_OK : usage ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
}

void cz_cli_kinds_help(FILE *f, const char *command)
{
    if (!strcmp(command, "setup")) {
        char names[256] = "(none)";
        size_t at = 0;
        const cz_kinds_t *t = cz_cli_kinds();
        for (size_t i = 0; i < t->n && at < sizeof names; i++) /* the table's, with a circuit */
            if (t->kind[i]->test_circuit)
                at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", at ? ", " : "",
                                       t->kind[i]->name);
        cz_cli_setup_usage(f, names);
        return;
    }
    cz_cli_c2_usage(f, command);
    fprintf(f,
            "\n  The PoSt and SnapDeals forms: `cuzk %s --kind winning-post --help`,\n"
            "  `cuzk %s --kind snap --help`.\n",
            command, command);
    cz_cli_kinds_list(f, command, cz_cli_kinds());
}
