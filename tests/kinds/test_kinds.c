/*
 * tests/kinds/test_kinds.c — a kind added to the table reaches every door
 * with nothing else changed (kinds/kinds.h THE HOOK).
 *
 * "toy-proof" (kind_toy.c) is registered at run time on a copy of the
 * built-in table (cz_kinds_register; its refusals are checked first), and
 * that table is handed to each door:
 *   - the library: a prover made with it lists the kind
 *     (cz_prover_kind_*) and proves a job submitted by its name; the
 *     built-in table refuses the name;
 *   - cuzkd's HTTP API (daemon/api.h cz_api_handle, the handler behind the
 *     socket): POST /v1/proofs {"kind": "toy-proof"}, the proof by GET;
 *     /v1/status lists the kind and /metrics has its series;
 *   - cuzkd's gRPC door (daemon/grpc/curio.h, when built): ProofKind 100
 *     maps to the kind, is one of GetStatus's queues and of the
 *     "not a ProofKind" list, its SRS family names its params, and the
 *     mapped request proves through the server;
 *   - the CLI (cli/kind_door.h): prove --help lists it, `cuzk prove --kind
 *     toy-proof` proves it, `cuzk verify --kind toy-proof` checks the
 *     files, and the tool's own table refuses it.
 * Every proof is checked with the pairing check against the public inputs
 * the toy circuit gives for the seed (not the prover's own copy of them).
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/internal.h"
#include "circuits/registry.h"
#include "cli/cli.h"
#include "cli/kind_door.h"
#include "cz_test.h"
#include "cz_toy_params.h"
#include "groth16/proof.h"
#include "groth16/verify.h"
#include "kinds/kind_toy.h"
#include "kinds/kinds.h"
#ifdef CZ_TEST_HTTP
#include "daemon/api.h"
#include "daemon/config.h"
#include "daemon/errmap.h"
#include "daemon/jsonio.h"
#include "daemon/log.h"
#include "daemon/server.h"
#endif
#ifdef CZ_TEST_GRPC
#include "daemon/grpc/curio.h"
#include "daemon/grpc/service.h"
#endif

#define TOY_SEED 9 /* of the params' setup */

static char dir[64];
static cz_params_t *toy_params;

static void rm_tree(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* dir/toy.params and dir/toy.vk, once; the params stay in memory for the checks. */
static void fixture(void)
{
    if (*dir)
        return;
    snprintf(dir, sizeof dir, "/tmp/cz_kinds_XXXXXX");
    if (!mkdtemp(dir))
        abort();
    atexit(rm_tree);
    char path[160];
    snprintf(path, sizeof path, "%s/toy.params", dir);
    cz_test_write_toy_params(path, TOY_SEED);
    toy_params = cz_test_toy_params(TOY_SEED);
    cz_ctx_t *ctx = NULL;
    snprintf(path, sizeof path, "%s/toy.vk", dir);
    if (cz_ctx_new(&ctx, NULL, 1) || cz_vk_write(ctx, path, &toy_params->vk))
        abort();
    cz_ctx_free(ctx);
}

/* The built-in kinds and the toy one. */
static cz_kinds_t toy_table(void)
{
    cz_kinds_t t = *cz_kinds_builtin();
    if (cz_kinds_register(&t, NULL, &cz_test_kind_toy) != CZ_OK)
        abort();
    return t;
}

/* The pairing check of one 192-byte proof against the inputs of the toy circuit with
 * x = |seed| (kind_toy.c). */
static int toy_proof_verifies(const uint8_t *bytes, size_t len, uint64_t seed)
{
    fixture();
    cz_ctx_t *ctx = NULL;
    cz_circuit_t c;
    cz_cs_witness_t w = { 0 };
    cz_proof_t proof;
    cz_pvk_t *pvk = NULL;
    int rc = cz_ctx_new(&ctx, NULL, 1);
    if (rc == CZ_OK && len != CZ_PROOF_BYTES)
        rc = CZ_EFORMAT;
    char id[32];
    snprintf(id, sizeof id, "toy:%llu", (unsigned long long)seed);
    if (rc == CZ_OK)
        rc = cz_circuit_parse(ctx, id, &c);
    if (rc == CZ_OK)
        rc = cz_circuit_witness(ctx, &c, 1, &w);
    if (rc == CZ_OK)
        rc = cz_proofs_decode(ctx, &proof, 1, bytes, len);
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &pvk, &toy_params->vk);
    if (rc == CZ_OK)
        rc = cz_verify(ctx, pvk, &proof, w.input + 1, w.num_inputs - 1);
    if (rc != CZ_OK)
        fprintf(stderr, "  toy proof: %s\n", ctx ? cz_ctx_message(ctx) : "no ctx");
    cz_pvk_free(pvk);
    cz_cs_witness_free(&w);
    cz_ctx_free(ctx);
    return rc;
}

CZ_TEST(register_checks_the_kind)
{
    cz_kinds_t t = *cz_kinds_builtin();
    CHECK_EQ_U64(t.n, cz_kind_count());
    cz_job_kind_t k = cz_test_kind_toy;
    k.name = "snap";
    CHECK_EQ_INT(cz_kinds_register(&t, NULL, &k), CZ_EINVAL); /* a name taken */
    k = cz_test_kind_toy;
    k.curio.proof_kind = 1;
    CHECK_EQ_INT(cz_kinds_register(&t, NULL, &k), CZ_EINVAL); /* POREP_SEAL_COMMIT's */
    k = cz_test_kind_toy;
    k.curio.srs_family = "porep-";
    CHECK_EQ_INT(cz_kinds_register(&t, NULL, &k), CZ_EINVAL); /* porep-c2's family */
    k = cz_test_kind_toy;
    k.prepare = NULL;
    CHECK_EQ_INT(cz_kinds_register(&t, NULL, &k), CZ_EINVAL);
    CHECK_EQ_U64(t.n, cz_kind_count()); /* nothing added */
    CHECK_OK(cz_kinds_register(&t, NULL, &cz_test_kind_toy));
    CHECK(cz_kinds_find(&t, "toy-proof", NULL) == &cz_test_kind_toy);
    CHECK(cz_kinds_by_proof_kind(&t, 100) == &cz_test_kind_toy);
    CHECK(cz_kinds_find(cz_kinds_builtin(), "toy-proof", NULL) == NULL); /* the copy only */
    while (t.n < CZ_MAX_KINDS)
        t.kind[t.n++] = &cz_kind_circuit;
    k = cz_test_kind_toy;
    k.name = "another";
    k.curio = (cz_kind_curio_t){ 0 };
    CHECK_EQ_INT(cz_kinds_register(&t, NULL, &k), CZ_ERANGE);
}

/* ---- the library ---------------------------------------------------------------- */

static cz_prover_t *new_prover(const cz_kinds_t *t)
{
    fixture();
    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.backend = "cpu";
    cfg.threads = 2;
    cfg.params_dir = dir;
    cfg.memory_budget = (size_t)1 << 30;
    cz_prover_t *p = NULL;
    cz_error_t err;
    if (cz__prover_new_with(&p, &cfg, NULL, t, &err) != CZ_OK)
        fprintf(stderr, "  prover: %s\n", err.message);
    return p;
}

CZ_TEST(library_door)
{
    cz_kinds_t t = toy_table();
    cz_prover_t *p = new_prover(&t);
    REQUIRE(p != NULL);
    CHECK_EQ_U64(cz_prover_kind_count(p), cz_kind_count() + 1);
    CHECK_EQ_STR(cz_prover_kind_name(p, cz_kind_count()), "toy-proof");
    CHECK(strstr(cz_prover_kind_summary(p, cz_kind_count()), "toy kind") != NULL);
    cz_job_request_t req;
    cz_job_request_init(&req, "toy-proof", "42", 2);
    uint64_t id = 0;
    cz_error_t err;
    CHECK_OK(cz_prover_submit(p, &req, &id, &err));
    cz_job_info_t info;
    CHECK_OK(cz_prover_wait(p, id, 300, &info, &err));
    CHECK_EQ_INT(info.state, CZ_JOB_DONE);
    CHECK_EQ_STR(info.summary, "toy seed 42");
    uint8_t *proof = NULL;
    size_t len = 0;
    CHECK_OK(cz_prover_proof(p, id, &proof, &len, &err));
    CHECK_OK(toy_proof_verifies(proof, len, 42));
    CHECK(toy_proof_verifies(proof, len, 43) == CZ_EVERIFY); /* the check can fail */
    cz_free(proof);
    cz_job_request_init(&req, "toy-proof", "x", 1); /* the kind's own refusal */
    CHECK_EQ_INT(cz_prover_submit(p, &req, &id, &err), CZ_EINVAL);
    CHECK_EQ_STR(err.message, "input: a decimal seed");
    cz_prover_free(p);
    /* a prover of the built-in table does not know it, and says which it knows */
    p = new_prover(NULL);
    REQUIRE(p != NULL);
    cz_job_request_init(&req, "toy-proof", NULL, 0);
    CHECK_EQ_INT(cz_prover_submit(p, &req, &id, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "'toy-proof' is not a known kind (known: circuit, porep-c2") != NULL);
    cz_prover_free(p);
}

/* ---- cuzkd: HTTP and gRPC ----------------------------------------------------------- */

#ifdef CZ_TEST_HTTP
static cz_server_t *new_server(cz_dconfig_t *cfg, const cz_kinds_t *t)
{
    fixture();
    cz_log_set_level(CZ_LOG_ERROR);
    char jd[160];
    snprintf(jd, sizeof jd, "%s/journal", dir);
    cz_ctx_t *ctx = NULL;
    cz_server_t *s = NULL;
    if (cz_ctx_new(&ctx, NULL, 1) || cz_dconfig_defaults(cfg) ||
        cz_dconfig_set(ctx, cfg, "journal.dir", jd) ||
        cz_dconfig_set(ctx, cfg, "params.dir", dir) ||
        cz_dconfig_set(ctx, cfg, "devices.backend", "cpu") ||
        cz_dconfig_set(ctx, cfg, "synthesis.threads", "2") ||
        cz_dconfig_set(ctx, cfg, "timeline.enabled", "false") ||
        cz_dconfig_set(ctx, cfg, "memory.total_budget", "1GiB") || cz_dconfig_validate(ctx, cfg))
        fprintf(stderr, "  config: %s\n", cz_ctx_message(ctx));
    cfg->kinds = t;
    if (cz_server_new(ctx, cfg, &s))
        fprintf(stderr, "  server: %s\n", cz_ctx_message(ctx));
    cz_ctx_free(ctx);
    return s;
}

static void free_server(cz_server_t *s, cz_dconfig_t *cfg)
{
    cz_server_shutdown(s, 5);
    cz_server_free(s);
    cz_dconfig_clear(cfg);
}

static const char *query(void *cls, const char *key)
{
    (void)cls;
    return !strcmp(key, "wait") ? "300" : !strcmp(key, "format") ? "json" : NULL;
}

/* |method| |path| with |body| through the HTTP API's handler; the response body as JSON. */
static json_t *http(cz_server_t *s, const char *method, const char *path, const char *body,
                    int *status)
{
    cz_api_req_t req = { .method = method,
                         .path = path,
                         .arg = query,
                         .content_type = body ? "application/json" : NULL,
                         .body = body,
                         .body_len = body ? strlen(body) : 0 };
    cz_api_resp_t resp = { 0 };
    cz_api_handle(s, &req, &resp);
    *status = resp.status;
    json_t *o = resp.body ? json_loadb(resp.body, resp.len, 0, NULL) : NULL;
    free(resp.body);
    return o;
}

/* The proof of job |id| by GET .../proof?format=json, checked for |seed|. */
static void http_proof_verifies(cz_server_t *s, const char *id, uint64_t seed)
{
    char path[96];
    int status;
    snprintf(path, sizeof path, "/v1/proofs/%s/proof", id);
    json_t *o = http(s, "GET", path, NULL, &status);
    CHECK_EQ_INT(status, 200);
    const char *hex = json_string_value(json_object_get(o, "proof"));
    REQUIRE(hex && strlen(hex) == 2 * CZ_PROOF_BYTES);
    uint8_t proof[CZ_PROOF_BYTES];
    for (size_t i = 0; i < CZ_PROOF_BYTES; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        proof[i] = (uint8_t)v;
    }
    CHECK_OK(toy_proof_verifies(proof, sizeof proof, seed));
    json_decref(o);
}

CZ_TEST(http_door)
{
    cz_kinds_t t = toy_table();
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg, &t);
    REQUIRE(s != NULL);
    int status;
    json_t *o = http(s, "POST", "/v1/proofs", "{\"kind\": \"toy-proof\", \"input\": \"7\"}",
                     &status);
    CHECK_EQ_INT(status, 201);
    const char *id = json_string_value(json_object_get(o, "id"));
    REQUIRE(id != NULL);
    http_proof_verifies(s, id, 7);
    json_decref(o);
    /* the kind's own refusal is the client's 400 */
    o = http(s, "POST", "/v1/proofs", "{\"kind\": \"toy-proof\", \"input\": \"seven\"}", &status);
    CHECK_EQ_INT(status, 400);
    CHECK(strstr(json_string_value(json_object_get(o, "message")), "input: a decimal seed"));
    json_decref(o);
    /* /v1/status lists it; /metrics has its series */
    o = http(s, "GET", "/v1/status", NULL, &status);
    CHECK_EQ_INT(status, 200);
    char *text = json_dumps(o, JSON_COMPACT);
    CHECK(text && strstr(text, "\"toy-proof\""));
    free(text);
    json_decref(o);
    char *metrics = cz_server_metrics(s);
    CHECK(metrics && strstr(metrics, "cuzk_jobs_ended_total{kind=\"toy-proof\",state=\"done\"} 1"));
    free(metrics);
    free_server(s, &cfg);
}
#endif

#ifdef CZ_TEST_GRPC
CZ_TEST(grpc_door)
{
    cz_kinds_t t = toy_table();
    /* the ProofKind list, GetStatus's queues, the SRS ids */
    CHECK_EQ_INT((int)cz__grpc_kind_count(&t), 5);
    CHECK_EQ_STR(cz__grpc_kind_name(&t, 4), "TOY_PROOF");
    CHECK_EQ_STR(cz__grpc_queue_name(&t, "toy-proof"), "TOY_PROOF");
    cz_ctx_t *ctx = NULL;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    char name[256];
    CHECK_OK(cz__grpc_params_name(ctx, &t, "toy-32g", name, sizeof name));
    CHECK_EQ_STR(name, "toy");
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    json_t *req = NULL;
    r.proof_kind = (Cuzk__V1__ProofKind)101;
    CHECK_EQ_INT(cz__grpc_job_request(ctx, &t, &r, &req, NULL), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "WINNING_POST 4, TOY_PROOF 100)") != NULL);
    CHECK_EQ_INT(cz__grpc_job_request(ctx, cz_kinds_builtin(), &r, &req, NULL), CZ_EINVAL);
    /* Curio's request -> the kind's, proved through the server */
    r.proof_kind = (Cuzk__V1__ProofKind)100;
    r.request_id = "toy-1";
    r.sector_number = 11;
    CHECK_OK(cz__grpc_job_request(ctx, &t, &r, &req, NULL));
    CHECK_EQ_STR(json_string_value(json_object_get(req, "kind")), "toy-proof");
    CHECK_EQ_STR(json_string_value(json_object_get(req, "input")), "11");
    CHECK_EQ_INT((int)json_integer_value(json_object_get(req, "priority")), 2);
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg, &t);
    REQUIRE(s != NULL);
    cz_submit_json_t sj;
    cz_submit_out_t out = { .existing = false };
    CHECK_OK(cz_submit_from_json(ctx, s, req, &sj));
    sj.req.retry = true;
    CHECK_OK(cz_server_submit(s, ctx, &sj.req, &out));
    cz_submit_json_free(&sj);
    http_proof_verifies(s, out.id, 11);
    /* Prove's framing, as Curio's daemon's: no submit or a ProofKind not in the table is a
     * gRPC status (INVALID_ARGUMENT); a proof it cannot make is OK + FAILED
     * (same_error_every_door) */
    static const char method[] = "/cuzk.v1.ProvingEngine/Prove";
    cz_grpc_handler_fn *prove = cz__grpc_method(method, sizeof method - 1);
    REQUIRE(prove != NULL);
    r.proof_kind = (Cuzk__V1__ProofKind)101;
    for (int with_submit = 0; with_submit < 2; with_submit++) {
        Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
        pr.submit = with_submit ? &r : NULL;
        size_t n = cuzk__v1__prove_request__get_packed_size(&pr);
        uint8_t *packed = malloc(n ? n : 1);
        REQUIRE(packed != NULL);
        cuzk__v1__prove_request__pack(&pr, packed);
        atomic_bool gone = false;
        cz_grpc_call_env_t env = { .server = s, .gone = &gone };
        cz_grpc_reply_t reply;
        memset(&reply, 0, sizeof reply);
        prove(&env, packed, n, &reply);
        CHECK_EQ_INT((int)reply.status, (int)GRPC_STATUS_INVALID_ARGUMENT);
        CHECK(strstr(reply.detail, with_submit ? "proof_kind: 101 is not a ProofKind"
                                               : "submit: missing") == reply.detail);
        CHECK(reply.out == NULL);
        free(reply.out);
        free(packed);
    }
    json_decref(req);
    free_server(s, &cfg);
    cz_ctx_free(ctx);
}
#endif

/* ---- the CLI ---------------------------------------------------------------------- */

/* cz_cli_kind_door(|t|, |command|, the NULL-terminated words after it). */
static int cli(const cz_kinds_t *t, const char *command, ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    va_start(ap, command);
    argv[argc++] = (char *)command;
    for (char *w; argc < 31 && (w = va_arg(ap, char *));)
        argv[argc++] = w;
    va_end(ap);
    argv[argc] = NULL;
    return cz_cli_kind_door(t, command, argc, argv);
}

CZ_TEST(cli_door)
{
    fixture();
    cz_kinds_t t = toy_table();
    /* --help lists it */
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    REQUIRE(f != NULL);
    cz_cli_kinds_list(f, "prove", &t);
    fclose(f);
    CHECK(strstr(buf, "toy-proof") && strstr(buf, "a test's toy kind"));
    free(buf);
    /* prove: the in-process form; verify: the plain form */
    char in[160], proof[160], pub[160], vk[160];
    snprintf(in, sizeof in, "%s/seed", dir);
    snprintf(proof, sizeof proof, "%s/toy.proof", dir);
    snprintf(pub, sizeof pub, "%s/toy.pub", dir);
    snprintf(vk, sizeof vk, "%s/toy.vk", dir);
    FILE *s = fopen(in, "w");
    REQUIRE(s && fputs("5", s) >= 0 && fclose(s) == 0);
    CHECK_EQ_INT(cli(&t, "prove", "--kind", "toy-proof", "--input", in, "--params-dir", dir,
                     "--proof", proof, "--public", pub, "--backend", "cpu", "--threads", "2",
                     "--quiet", (char *)NULL),
                 CZ_EXIT_OK);
    uint8_t bytes[2 * CZ_PROOF_BYTES];
    s = fopen(proof, "rb");
    REQUIRE(s != NULL);
    size_t len = fread(bytes, 1, sizeof bytes, s);
    fclose(s);
    CHECK_OK(toy_proof_verifies(bytes, len, 5));
    CHECK_EQ_INT(cli(&t, "verify", "--kind", "toy-proof", "--vk", vk, "--proof", proof, "--public",
                     pub, (char *)NULL),
                 CZ_EXIT_OK);
    /* a request the kind refuses is a usage error; the tool's own table refuses the kind */
    CHECK_EQ_INT(cli(&t, "prove", "--kind", "toy-proof", "--fields", "{\"seed\": 1}",
                     "--params-dir", dir, "--proof", proof, "--quiet", (char *)NULL),
                 CZ_EXIT_USAGE);
    CHECK_EQ_INT(cli(cz_kinds_builtin(), "prove", "--kind", "toy-proof", "--proof", proof,
                     (char *)NULL),
                 CZ_EXIT_USAGE);
    CHECK_EQ_INT(cli(&t, "setup", "--kind", "toy-proof", (char *)NULL), CZ_EXIT_USAGE);
}

/* ---- the same bad input, the same error through every door ----------------------- */

/*
 * Issue 38's "identical errors": one bad request, put to each door, is
 * refused with the library's code and its message word for word. The
 * library's (code, message) is the reference; the CLI prints "cuzk prove:
 * MESSAGE" and exits 2 (a refused request); HTTP answers the error-table
 * row of the code (400 invalid_request) with "message" MESSAGE; gRPC's
 * SubmitProof answers the row's status (INVALID_ARGUMENT) with MESSAGE as
 * its detail, and Prove, as Curio's own daemon answers a proof that
 * cannot be made (docs/CURIO.md), status OK with result FAILED and
 * MESSAGE as its error_message.
 */
typedef struct {
    int code;
    char message[CZ_ERROR_MESSAGE_MAX];
} door_err_t;

/* One bad request as each door takes it. */
typedef struct {
    const char *kind, *input, *fields; /* library, CLI (--input FILE, --fields) */
    const char *http;                  /* the POST /v1/proofs body */
    int grpc;                          /* gRPC: 1 when Curio's request can say it */
    const char *vanilla;               /* gRPC: vanilla_proof (the toy's input) */
    uint64_t registered_proof;         /* gRPC: the toy's partitions */
} bad_request_t;

static door_err_t lib_refusal(const cz_kinds_t *t, const bad_request_t *b)
{
    door_err_t e = { 0 };
    cz_prover_t *p = new_prover(t);
    if (!p)
        return e;
    cz_job_request_t req;
    cz_job_request_init(&req, b->kind, b->input, b->input ? strlen(b->input) : 0);
    req.fields = b->fields;
    uint64_t id = 0;
    cz_error_t err;
    e.code = cz_prover_submit(p, &req, &id, &err);
    snprintf(e.message, sizeof e.message, "%s", err.message);
    cz_prover_free(p);
    return e;
}

/* `cuzk prove --kind K --input FILE [--fields F]`: the exit code, stderr's last line. */
static int cli_refusal(const cz_kinds_t *t, const bad_request_t *b, char *line, size_t cap)
{
    char in[160], proof[160], errf[160];
    snprintf(in, sizeof in, "%s/bad.input", dir);
    snprintf(proof, sizeof proof, "%s/bad.proof", dir);
    snprintf(errf, sizeof errf, "%s/stderr.txt", dir);
    FILE *f = fopen(in, "w");
    if (!f || fputs(b->input, f) < 0 || fclose(f) != 0)
        return -1;
    fflush(stderr);
    int saved = dup(2);
    FILE *cap_f = fopen(errf, "w");
    if (saved < 0 || !cap_f)
        return -1;
    dup2(fileno(cap_f), 2);
    int rc = b->fields ? cli(t, "prove", "--kind", b->kind, "--input", in, "--fields", b->fields,
                             "--params-dir", dir, "--proof", proof, "--backend", "cpu", "--quiet",
                             (char *)NULL)
                       : cli(t, "prove", "--kind", b->kind, "--input", in, "--params-dir", dir,
                             "--proof", proof, "--backend", "cpu", "--quiet", (char *)NULL);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(cap_f);
    line[0] = '\0';
    if ((f = fopen(errf, "r"))) {
        char buf[1024];
        while (fgets(buf, sizeof buf, f))
            snprintf(line, cap, "%.*s", (int)strcspn(buf, "\n"), buf);
        fclose(f);
    }
    return rc;
}

static void cli_says(const cz_kinds_t *t, const bad_request_t *b, const door_err_t *want)
{
    char line[1024], expect[1100];
    CHECK_EQ_INT(cli_refusal(t, b, line, sizeof line), CZ_EXIT_USAGE);
    snprintf(expect, sizeof expect, "cuzk prove: %s", want->message);
    CHECK_EQ_STR(line, expect);
}

#ifdef CZ_TEST_GRPC
/* |b| through gRPC's SubmitProof and Prove (the toy's ProofKind 100). */
static void grpc_says(cz_server_t *s, const bad_request_t *b, const door_err_t *want)
{
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.proof_kind = (Cuzk__V1__ProofKind)100;
    r.request_id = "toy-bad";
    r.vanilla_proof.data = (uint8_t *)b->vanilla;
    r.vanilla_proof.len = strlen(b->vanilla);
    r.registered_proof = b->registered_proof;
    Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
    pr.submit = &r;
    static const char *const methods[] = { "/cuzk.v1.ProvingEngine/SubmitProof",
                                           "/cuzk.v1.ProvingEngine/Prove" };
    for (int m = 0; m < 2; m++) {
        const ProtobufCMessage *msg = m ? &pr.base : &r.base;
        size_t n = protobuf_c_message_get_packed_size(msg);
        uint8_t *packed = malloc(n ? n : 1);
        REQUIRE(packed != NULL);
        protobuf_c_message_pack(msg, packed);
        cz_grpc_handler_fn *fn = cz__grpc_method(methods[m], strlen(methods[m]));
        REQUIRE(fn != NULL);
        atomic_bool gone = false;
        cz_grpc_call_env_t env = { .server = s, .gone = &gone };
        cz_grpc_reply_t reply;
        memset(&reply, 0, sizeof reply);
        fn(&env, packed, n, &reply);
        if (m == 0) {
            CHECK_EQ_INT((int)reply.status, cz_errmap_grpc(want->code, CZ_ERRMAP_REQUEST));
            CHECK_EQ_STR(reply.detail, want->message);
        } else {
            CHECK_EQ_INT((int)reply.status, (int)GRPC_STATUS_OK);
            Cuzk__V1__ProveResponse *res = cuzk__v1__prove_response__unpack(NULL, reply.out_len,
                                                                            reply.out);
            REQUIRE(res != NULL && res->result != NULL);
            CHECK_EQ_INT((int)res->result->status,
                         (int)CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED);
            CHECK_EQ_STR(res->result->error_message, want->message);
            cuzk__v1__prove_response__free_unpacked(res, NULL);
        }
        free(reply.out);
        free(packed);
    }
}
#endif

CZ_TEST(same_error_every_door)
{
    cz_kinds_t t = toy_table();
    static const bad_request_t bad[] = {
        /* the kind refuses the input */
        { "toy-proof", "seven", NULL, "{\"kind\": \"toy-proof\", \"input\": \"seven\"}", 1, "seven",
          0 },
        /* an unknown kind (gRPC: a ProofKind not in the table, its own message) */
        { "toy-pruf", "1", NULL, "{\"kind\": \"toy-pruf\", \"input\": \"1\"}", 0, NULL, 0 },
        /* a malformed value of the kind's field (gRPC: the field the toy maps it from) */
        { "toy-proof", "3", "{\"partitions\": 9}",
          "{\"kind\": \"toy-proof\", \"input\": \"3\", \"partitions\": 9}", 1, "3", 9 },
        /* a field the kind does not take (Curio's request cannot say it) */
        { "toy-proof", "3", "{\"partition\": 2}",
          "{\"kind\": \"toy-proof\", \"input\": \"3\", \"partition\": 2}", 0, NULL, 0 },
    };
    enum { NBAD = sizeof bad / sizeof bad[0] };
    door_err_t lib[NBAD];
    for (size_t i = 0; i < NBAD; i++) {
        lib[i] = lib_refusal(&t, &bad[i]);
        CHECK_EQ_INT(lib[i].code, CZ_EINVAL);
        cli_says(&t, &bad[i], &lib[i]);
    }
    CHECK_EQ_STR(lib[0].message, "input: a decimal seed");
    CHECK(strstr(lib[1].message, "kind: 'toy-pruf' is not a known kind (known: ") ==
          lib[1].message);
    CHECK_EQ_STR(lib[2].message, "partitions: must be an integer from 1 to 4");
    CHECK_EQ_STR(lib[3].message, "partition: unknown field for kind toy-proof");
#ifdef CZ_TEST_HTTP
    const cz_api_err_info_t *row = cz_api_err_info(cz_errmap_of(CZ_EINVAL, CZ_ERRMAP_REQUEST));
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg, &t);
    REQUIRE(s != NULL);
    for (size_t i = 0; i < NBAD; i++) {
        int status;
        json_t *o = http(s, "POST", "/v1/proofs", bad[i].http, &status);
        CHECK_EQ_INT(status, row->http);
        CHECK_EQ_STR(json_string_value(json_object_get(o, "error")), row->name);
        CHECK_EQ_STR(json_string_value(json_object_get(o, "message")), lib[i].message);
        json_decref(o);
#ifdef CZ_TEST_GRPC
        if (bad[i].grpc)
            grpc_says(s, &bad[i], &lib[i]);
#endif
    }
    free_server(s, &cfg);
#endif
}

CZ_TEST_MAIN()
