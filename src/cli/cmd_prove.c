/*
 * cli/cmd_prove.c — `cuzk prove` (in-process on the backend --backend names,
 * or through cuzkd) and `cuzk verify`.
 *
 * prove: make the backend first (an unusable one fails before any work),
 * synthesize the circuit, load the params (checked against the circuit's
 * shape), prove, verify the proof against the params' own vk before writing
 * anything (as Filecoin's C2 does), write the 192-byte proof and the public
 * inputs, and say which backend ran.
 * verify: exit 0 only for a valid proof; 1 for an invalid one; 2 for usage,
 * unreadable or malformed input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "circuits/registry.h"
#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/public_file.h"
#include "core/clock.h"
#ifdef CUZK_HAVE_CLIENT
#include "cli/client.h"
#endif
#include "groth16/prover.h"
#include "groth16/verify.h"

/* ---- prove ------------------------------------------------------------------ */

static void prove_usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk prove --circuit ID --params FILE --proof OUT [--public PUB]\n"
            "                  [--seed S] [--threads T] [--backend cpu|cuda|auto] [--device N]\n"
            "                  [--json]\n"
            "  Proves circuit ID (toy[:X] or bench:N) in this process, verifies the proof\n"
            "  against the params' verifying key, then writes the 192-byte proof to OUT\n"
            "  and the public inputs (one 0x-hex element per line) to PUB.\n"
            "  --backend: cpu, cuda (fails with the reason when no usable GPU or no CUDA\n"
            "  in this build) or auto (default: cuda when usable, else cpu); --device N\n"
            "  picks the GPU (default 0). The result line (--json: one JSON object) names\n"
            "  the backend that ran. Exit 0 on success, 1 on failure, 2 on usage errors.\n"
            "\n"
            "  Through cuzkd instead (--daemon, or any of --socket/--url, or $CUZK_SOCKET /\n"
            "  $CUZK_URL set; --local forces the in-process path):\n"
            "    cuzk prove --daemon --circuit ID --params NAME --proof OUT [--public PUB]\n"
            "               [--partitions P] [--seed S] [--priority 1..4] [--request-id R]\n"
            "               [--socket PATH | --url URL] [--token T] [--json]\n"
            "  NAME is resolved by the daemon (its params.dir, or an absolute path).\n"
            "  Progress (partitions, stage, elapsed, ETA) goes to stderr: a bar on a TTY,\n"
            "  plain lines otherwise; --quiet hides it. Daemon exit codes add\n"
            "  3 (daemon unreachable) and 4 (timeout); see docs/API.md.\n");
    cz_cli_usage_tail(f, "prove");
}

int cmd_prove(int argc, char **argv)
{
    if (cz_cli_has_kind(argc, argv, "porep-c2"))
        return cmd_prove_porep_c2(argc, argv);
    if (cz_cli_post_kind(argc, argv))
        return cmd_prove_post(argc, argv);
    if (cz_cli_has_kind(argc, argv, "snap"))
        return cmd_prove_snap(argc, argv);
    static const struct option longopts[] = {
        { "circuit", required_argument, 0, 'c' }, { "params", required_argument, 0, 'p' },
        { "proof", required_argument, 0, 'o' },   { "public", required_argument, 0, 'u' },
        { "seed", required_argument, 0, 's' },    { "threads", required_argument, 0, 't' },
        { "help", no_argument, 0, 'h' },          { "local", no_argument, 0, 'L' },
        { "daemon", no_argument, 0, 'D' },        { "partitions", required_argument, 0, 'n' },
        { "priority", required_argument, 0, 'P' }, { "request-id", required_argument, 0, 'r' },
        { "quiet", no_argument, 0, 'q' },
        { "socket", required_argument, 0, 0x101 }, { "url", required_argument, 0, 0x102 },
        { "token", required_argument, 0, 0x103 }, { "token-file", required_argument, 0, 0x104 },
        { "json", no_argument, 0, 0x105 },        { "backend", required_argument, 0, 'b' },
        { "device", required_argument, 0, 'd' },  { 0, 0, 0, 0 },
    };
    const char *circuit_id = NULL, *params_path = NULL, *proof_path = NULL, *public_path = NULL;
    const char *request_id = NULL, *dsocket = NULL, *durl = NULL, *dtoken = NULL, *dtoken_file = NULL;
    const char *backend = NULL;
    size_t seed = 0, threads = 0, partitions = 1, priority = 2, device = 0;
    bool have_device = false;
    int local = 0, daemon = getenv("CUZK_SOCKET") || getenv("CUZK_URL"), quiet = 0, json = 0;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'L': local = 1; break;
        case 'D': daemon = 1; break;
        case 'n': if (!cz_cli_parse_size(optarg, &partitions) || !partitions) goto usage; break;
        case 'P': if (!cz_cli_parse_size(optarg, &priority) || !priority || priority > 4) goto usage; break;
        case 'r': request_id = optarg; break;
        case 'q': quiet = 1; break;
        case 0x101: dsocket = optarg; daemon = 1; break;
        case 0x102: durl = optarg; daemon = 1; break;
        case 0x103: dtoken = optarg; break;
        case 0x104: dtoken_file = optarg; break;
        case 0x105: json = 1; break;
        case 'c': circuit_id = optarg; break;
        case 'p': params_path = optarg; break;
        case 'o': proof_path = optarg; break;
        case 'u': public_path = optarg; break;
        case 's': if (!cz_cli_parse_size(optarg, &seed)) goto usage; break;
        case 't': if (!cz_cli_parse_size(optarg, &threads)) goto usage; break;
        case 'b': backend = optarg; break;
        case 'd': if (!cz_cli_parse_size(optarg, &device) || device > 1024) goto usage;
                  have_device = true; break;
        case 'h': prove_usage(stdout); return CZ_EXIT_OK;
        default: goto usage;
        }
    }
    if (optind != argc || !circuit_id || !params_path || !proof_path)
        goto usage;
    /* the proof is the end of the run: its files are checked at the start */
    if (!cz_cli_check_output("cuzk prove", "--proof", proof_path) ||
        !cz_cli_check_output("cuzk prove", "--public", public_path))
        return CZ_EXIT_USAGE;
    if (daemon && !local) {
        if (backend || have_device) {
            fprintf(stderr, "cuzk prove: --backend/--device choose the in-process backend; the "
                            "daemon's is its config (devices.backend); add --local to prove here\n");
            return CZ_EXIT_USAGE;
        }
#ifdef CUZK_HAVE_CLIENT
        cz_client_t cl = { .socket = dsocket, .url = durl, .token = dtoken,
                           .token_file = dtoken_file, .json = json || quiet };
        return cz_cli_prove_daemon(&cl, circuit_id, params_path, partitions, seed, proof_path,
                                   public_path, (int)priority, request_id);
#else
        (void)dsocket, (void)durl, (void)dtoken, (void)dtoken_file, (void)request_id;
        fprintf(stderr, "cuzk prove: this build has no daemon client (needs libcurl and jansson); "
                        "use --local\n");
        return CZ_EXIT_USAGE;
#endif
    }
    if (partitions != 1) {
        fprintf(stderr, "cuzk prove: --partitions %zu needs the daemon (--daemon); the local "
                        "path proves one partition\n", partitions);
        return CZ_EXIT_USAGE;
    }
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, (unsigned)threads)) {
        fprintf(stderr, "cuzk prove: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    /* a bad circuit id is a usage error, found before anything else */
    cz_circuit_t circuit;
    if (cz_circuit_parse(ctx, circuit_id, &circuit) != CZ_OK) {
        fprintf(stderr, "cuzk prove: %s\n", cz_ctx_message(ctx));
        cz_ctx_free(ctx);
        return CZ_EXIT_USAGE;
    }
    /* the backend next: an unusable one fails before synthesis and params */
    cz_backend_t *be = NULL;
    int rc = cz_backend_new(ctx, &be, backend ? backend : "auto", (int)device);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk prove: %s\n", *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
        cz_ctx_free(ctx);
        return rc == CZ_EINVAL ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
    }
    cz_progress_t progress;
    cz_progress_start(&progress, quiet || json);
    cz_progress_draw(&progress, 0, 1, "synthesis");

    cz_cs_witness_t w = { 0 };
    cz_params_t *params = NULL;
    cz_pvk_t *pvk = NULL;
    cz_fr *inputs = NULL;
    cz_proof_t proof;
    double t_prove = 0;
    rc = cz_circuit_witness(ctx, &circuit, seed, &w);
    size_t n_inputs = w.num_inputs ? w.num_inputs - 1 : 0;
    if (rc == CZ_OK && (inputs = malloc((n_inputs ? n_inputs : 1) * sizeof *inputs)))
        memcpy(inputs, w.input + 1, n_inputs * sizeof *inputs);
    else if (rc == CZ_OK)
        rc = cz_fail(ctx, CZ_ENOMEM, "public inputs");
    if (rc == CZ_OK) {
        cz_params_shape_t shape;
        cz_progress_draw(&progress, 0, 1, "loading_params");
        cz_g16_shape_of(&w, &shape);
        cz_params_opts_t opts = { .expect = &shape };
        rc = cz_params_load(ctx, &params, params_path, &opts);
    }
    if (rc == CZ_OK) {
        cz_progress_draw(&progress, 0, 1, "proving");
        double t0 = cz_mono_s();
        rc = cz_g16_prove(ctx, be, params, &w, NULL, NULL, &proof, NULL);
        t_prove = cz_mono_s() - t0;
    }
    if (rc == CZ_OK)
        cz_progress_draw(&progress, 1, 1, "verifying");
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &pvk, &params->vk);
    if (rc == CZ_OK && (rc = cz_verify(ctx, pvk, &proof, inputs, n_inputs)) != CZ_OK)
        cz_fail(ctx, rc, "the proof does not verify against the params' vk (bug or corrupt params)");
    if (rc == CZ_OK) {
        uint8_t bytes[CZ_PROOF_BYTES];
        cz_proof_encode(bytes, &proof);
        rc = cz_cli_write_file(ctx, proof_path, bytes, sizeof bytes);
    }
    if (rc == CZ_OK && public_path)
        rc = cz_public_write(ctx, public_path, inputs, 1, n_inputs);
    if (rc == CZ_OK)
        cz_progress_draw(&progress, 1, 1, "done");
    cz_progress_end(&progress);
    if (rc)
        fprintf(stderr, "cuzk prove: %s\n", *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    else if (json)
        printf("{\"circuit\":\"%s\",\"backend\":\"%s\",\"device\":%d,\"threads\":%u,"
               "\"prove_ms\":%.2f,\"bytes\":%d,\"verified\":true}\n",
               circuit_id, be->ops->name, be->device_index, cz_pool_width(cz_ctx_pool(ctx)),
               t_prove * 1e3, CZ_PROOF_BYTES);
    else
        printf("proof written to %s (%d bytes, verified; backend %s, device %d, prove %.2f s)\n",
               proof_path, CZ_PROOF_BYTES, be->ops->name, be->device_index, t_prove);
    cz_cs_witness_free(&w);
    cz_pvk_free(pvk);
    cz_backend_free(be);
    cz_params_free(params);
    free(inputs);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
usage:
    prove_usage(stderr);
    return CZ_EXIT_USAGE;
}

/* ---- verify ----------------------------------------------------------------- */

static void verify_usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk verify --vk FILE --proof FILE --public FILE\n"
            "  Verifies a (multi-partition) proof: 192 bytes per partition, the public\n"
            "  file holding one block of inputs per partition. Exit 0: valid;\n"
            "  1: invalid; 2: usage error, unreadable or malformed input.\n");
    cz_cli_usage_tail(f, "verify");
}

int cmd_verify(int argc, char **argv)
{
    if (cz_cli_has_kind(argc, argv, "porep-c2") && cz_cli_has_registered_proof(argc, argv))
        return cz_cli_verify_porep_sector(argc, argv);
    if (cz_cli_has_kind(argc, argv, "porep-c2"))
        return cmd_verify_porep_c2(argc, argv);
    if (cz_cli_post_kind(argc, argv))
        return cmd_verify_post(argc, argv);
    if (cz_cli_has_kind(argc, argv, "snap"))
        return cmd_verify_snap(argc, argv);
    static const struct option longopts[] = {
        { "vk", required_argument, 0, 'v' }, { "proof", required_argument, 0, 'p' },
        { "public", required_argument, 0, 'u' }, { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    const char *vk_path = NULL, *proof_path = NULL, *public_path = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'v': vk_path = optarg; break;
        case 'p': proof_path = optarg; break;
        case 'u': public_path = optarg; break;
        case 'h': verify_usage(stdout); return CZ_EXIT_OK;
        default: verify_usage(stderr); return CZ_EXIT_USAGE;
        }
    }
    const char *missing = !vk_path ? "--vk FILE" : !proof_path ? "--proof FILE"
                        : !public_path ? "--public FILE (the public inputs; `cuzk prove --public` "
                                         "writes them)" : NULL;
    if (optind != argc || missing) {
        if (optind != argc)
            fprintf(stderr, "cuzk verify: unexpected argument '%s'\n", argv[optind]);
        else
            fprintf(stderr, "cuzk verify: missing %s\n", missing);
        verify_usage(stderr);
        return CZ_EXIT_USAGE;
    }
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_USAGE;
    cz_vk_t vk = { 0 };
    cz_pvk_t *pvk = NULL;
    uint8_t *bytes = NULL;
    size_t len = 0, blocks = 0, per_block = 0;
    cz_fr *inputs = NULL;
    cz_proof_t *proofs = NULL;
    int exit_code = CZ_EXIT_USAGE;
    int rc = cz_vk_load(ctx, &vk, vk_path);
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, proof_path, (size_t)1 << 20, &bytes, &len);
    if (rc == CZ_OK)
        rc = cz_public_read(ctx, public_path, &inputs, &blocks, &per_block);
    size_t n = len / CZ_PROOF_BYTES;
    if (rc == CZ_OK && (len == 0 || len % CZ_PROOF_BYTES))
        rc = cz_fail(ctx, CZ_EFORMAT, "%s: %zu bytes is not a whole number of 192-byte proofs",
                     proof_path, len);
    if (rc == CZ_OK && blocks != n && !(per_block == 0 && blocks == 0))
        rc = cz_fail(ctx, CZ_EMISMATCH, "%s has %zu partitions but %s has %zu blocks of inputs",
                     proof_path, n, public_path, blocks);
    if (rc == CZ_OK && !(proofs = calloc(n, sizeof *proofs)))
        rc = cz_fail(ctx, CZ_ENOMEM, "proofs");
    if (rc == CZ_OK)
        rc = cz_proofs_decode(ctx, proofs, n, bytes, len);
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &pvk, &vk);
    if (rc == CZ_OK) {
        rc = cz_verify_batch(ctx, pvk, proofs, n, inputs, per_block);
        exit_code = rc == CZ_OK ? CZ_EXIT_OK : rc == CZ_EVERIFY ? CZ_EXIT_FAIL : CZ_EXIT_USAGE;
    }
    if (exit_code == CZ_EXIT_OK)
        printf("valid (%zu partition%s)\n", n, n == 1 ? "" : "s");
    else if (exit_code == CZ_EXIT_FAIL)
        printf("INVALID proof\n");
    else
        fprintf(stderr, "cuzk verify: %s\n", *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    cz_pvk_free(pvk);
    cz_vk_clear(&vk);
    free(bytes);
    free(inputs);
    free(proofs);
    cz_ctx_free(ctx);
    return exit_code;
}
