/*
 * tests/daemon/test_input_copies.c — a submit's input bytes between a door
 * and the kind's parser (daemon/server.h, THE INPUT'S COPIES), observed:
 *   - a "copycat" kind, registered on a copy of the built-in table, records
 *     the input pointer cz_prover_submit hands its prepare (then refuses the
 *     job: nothing is proved, no params are needed);
 *   - every allocation of at least the input's size is counted: the
 *     daemon's own code through the linker (-Wl,--wrap=malloc, see
 *     CMakeLists.txt), jansson's through json_set_alloc_funcs.
 * What holds:
 *   core   cz_server_submit hands the caller's very buffer to the parser:
 *          no copy, no allocation of its size;
 *   HTTP   from the body (the transport's copy) one copy, the decode of the
 *          "input" string (daemon/lift.c), which is the buffer the parser
 *          gets; jansson never holds the input; the decoded bytes are the
 *          string's (escapes, UTF-8);
 *   gRPC   after the kind's Curio map, no copy: the parser gets the string
 *          the map wrote (the door's two are gRPC's slices and protobuf-c);
 *          PoRep (porep-c2's map, on a "porepcat" kind that prepares as the
 *          copycat): from protobuf-c's bytes of Curio's wrapper one copy,
 *          Phase1Out's base64 decoded into the buffer the parser gets;
 *          jansson never holds the C1 or its base64; and protobuf-c never
 *          copies vanilla_proof (daemon/grpc/unpack.h: it points into the
 *          message, for SubmitProof and Prove, merged submits included), so
 *          past gRPC's slices the decode is the C1's one copy.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cz_test.h"
#include "daemon_test.h"
#include "daemon/api.h"
#include "daemon/log.h"
#include "daemon/server.h"
#include "kinds/kinds.h"
#ifdef CZ_TEST_GRPC
#include "daemon/grpc/service.h"
#include "daemon/grpc/unpack.h"
#include "proving.pb-c.h"
#endif

#define BIG (1u << 20) /* the input's size: far above anything else a submit allocates */

/* ---- counting allocations of the input's size ------------------------------------- */

static size_t g_big;      /* allocations >= BIG by the daemon's code */
static void *g_big_last;  /* the last of them */
static size_t g_json_big; /* allocations >= BIG by jansson */

void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_malloc(size_t n)
{
    void *p = __real_malloc(n);
    if (n >= BIG) {
        g_big++;
        g_big_last = p;
    }
    return p;
}

static void *json_alloc(size_t n)
{
    g_json_big += n >= BIG;
    return __real_malloc(n); /* counted here, not as the daemon's */
}

__attribute__((constructor)) static void count_jansson(void)
{
    json_set_alloc_funcs(json_alloc, free);
}

static void count_reset(void)
{
    g_big = g_json_big = 0;
    g_big_last = NULL;
}

/* ---- the copycat kind -------------------------------------------------------------- */

static const char *g_seen; /* the input pointer the last prepare got (gone after the
                               * submit: compared, never read) */
static size_t g_seen_len;
static uint64_t g_seen_hash; /* FNV-1a of its bytes */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ull;
    return h;
}
#define FNV0 0xcbf29ce484222325ull
static const char *g_mapped; /* the "input" string the last Curio map wrote */

static int copycat_prepare(void *state, cz_ctx_t *ctx, const json_t *req, const char *input,
                           size_t input_len, cz_kind_job_t *out)
{
    (void)state, (void)req, (void)out;
    g_seen = input;
    g_seen_len = input_len;
    g_seen_hash = fnv(FNV0, input, input_len);
    return cz_fail(ctx, CZ_EINVAL, "copycat: input seen");
}

static void copycat_release(cz_kind_job_t *job)
{
    (void)job;
}

static int copycat_map(cz_ctx_t *ctx, const cz_curio_request_t *r, json_t *req,
                       cz_curio_input_t *input)
{
    (void)input;
    json_t *in = json_stringn((const char *)r->vanilla_proof.data, r->vanilla_proof.len);
    if (!in || json_object_set_new(req, "input", in))
        return cz_fail(ctx, CZ_EINVAL, "vanilla_proof: not UTF-8");
    g_mapped = json_string_value(json_object_get(req, "input"));
    return CZ_OK;
}

static const char *const copycat_fields[] = { NULL };

static const cz_job_kind_t copycat = {
    .name = "copycat",
    .summary = "a test kind: records the input pointer its prepare gets",
    .fields = copycat_fields,
    .prepare = copycat_prepare,
    .release = copycat_release,
    .curio = { .proof_kind = 101,
               .proof_kind_name = "COPYCAT",
               .default_priority = 2,
               .map = copycat_map },
};

/* ---- a server with the copycat ------------------------------------------------------- */

/* porep-c2's Curio map on the copycat's prepare: ProofKind 102 (set up at run time,
 * the map being another file's const) */
static cz_job_kind_t porepcat;

static char dir[64];
static cz_kinds_t g_kinds;

static cz_server_t *new_server(cz_dconfig_t *cfg)
{
    cz_log_set_level(CZ_LOG_ERROR);
    snprintf(dir, sizeof dir, "/tmp/cz_copies_XXXXXX");
    if (!mkdtemp(dir))
        abort();
    char pd[160];
    snprintf(pd, sizeof pd, "%s/params", dir);
    mkdir(pd, 0700);
    cz_ctx_t *ctx = NULL;
    g_kinds = *cz_kinds_builtin();
    porepcat = copycat;
    porepcat.name = "porepcat";
    porepcat.fields = cz_kind_porep_c2.fields;
    porepcat.curio.proof_kind = 102;
    porepcat.curio.proof_kind_name = "POREPCAT";
    porepcat.curio.map = cz_kind_porep_c2.curio.map;
    if (cz_ctx_new(&ctx, NULL, 1) || cz_kinds_register(&g_kinds, ctx, &copycat) ||
        cz_kinds_register(&g_kinds, ctx, &porepcat))
        fprintf(stderr, "kinds: %s\n", ctx ? cz_ctx_message(ctx) : "out of memory");
    cz_ctx_free(ctx);
    return cz_test_server_new(cfg, dir, "journal", "", &g_kinds);
}

static void free_server(cz_server_t *s, cz_dconfig_t *cfg)
{
    cz_server_shutdown(s, 1);
    cz_server_free(s);
    cz_dconfig_clear(cfg);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* POST /v1/proofs with |body| (the transport's buffer, rewritable when |writable|). */
static void post(cz_server_t *s, char *body, size_t len, bool writable, cz_api_resp_t *resp)
{
    cz_api_req_t req = { .method = "POST",
                         .path = "/v1/proofs",
                         .content_type = "application/json",
                         .body = body,
                         .body_len = len,
                         .body_writable = writable };
    cz_api_handle(s, &req, resp);
}

/* BIG bytes of JSON-safe text with a mark at both ends. */
static char *big_text(void)
{
    char *t = malloc(BIG + 1);
    if (!t)
        abort();
    for (size_t i = 0; i < BIG; i++)
        t[i] = (char)('a' + i % 26);
    memcpy(t, "<<", 2);
    memcpy(t + BIG - 2, ">>", 2);
    t[BIG] = '\0';
    return t;
}

CZ_TEST(the_core_hands_the_callers_buffer_to_the_parser)
{
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg);
    REQUIRE(s);
    char *text = big_text();
    cz_ctx_t *ctx = NULL;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_submit_req_t req = { .kind = "copycat",
                            .input = text,
                            .input_len = BIG,
                            .request_id = "copies-1",
                            .request_id_len = 8 };
    cz_submit_out_t out = { .existing = false };
    count_reset();
    CHECK_EQ_INT(cz_server_submit(s, ctx, &req, &out), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "copycat: input seen") != NULL);
    CHECK(g_seen == text); /* the very pointer */
    CHECK_EQ_U64(g_seen_len, BIG);
    CHECK_EQ_U64(g_big, 0);
    CHECK_EQ_U64(g_json_big, 0);
    free(text);
    cz_ctx_free(ctx);
    free_server(s, &cfg);
}

CZ_TEST(http_one_copy_from_the_body_to_the_parser)
{
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg);
    REQUIRE(s);
    char *text = big_text();
    /* escapes and UTF-8 in the string: \n, \u00e9 (é), a surrogate pair (U+1F600), raw é */
    static const char esc[] = "\\n\\u00e9\\ud83d\\ude00\xc3\xa9\\\"",
                      dec[] = "\n\xc3\xa9\xf0\x9f\x98\x80\xc3\xa9\"";
    size_t cap = BIG + 128;
    char *body = malloc(cap);
    REQUIRE(body);
    int n = snprintf(body, cap, "{\"kind\": \"copycat\",\n \"input\": \"%s%s\", \"priority\": 3}",
                     esc, text);
    for (int writable = 1; writable >= 0; writable--) {
        char *copy = malloc((size_t)n + 1); /* the transport's buffer: the first copy */
        REQUIRE(copy);
        memcpy(copy, body, (size_t)n + 1);
        cz_api_resp_t resp;
        count_reset();
        post(s, copy, (size_t)n, writable != 0, &resp);
        CHECK_EQ_INT(resp.status, 400);
        CHECK(resp.body && strstr(resp.body, "copycat: input seen") != NULL);
        CHECK_EQ_U64(g_seen_len, sizeof dec - 1 + BIG);
        CHECK(g_seen_hash == fnv(fnv(FNV0, dec, sizeof dec - 1), text, BIG));
        if (writable) { /* lifted: the one allocation of its size is what the parser got */
            CHECK_EQ_U64(g_big, 1);
            CHECK(g_seen == g_big_last);
            CHECK_EQ_U64(g_json_big, 0);
        } else { /* through jansson: its lexer's buffer and its string */
            CHECK_EQ_U64(g_big, 0);
            CHECK(g_json_big >= 2);
        }
        free(resp.body);
        free(copy);
    }
    free(body);
    free(text);
    free_server(s, &cfg);
}

CZ_TEST(http_lift_leaves_what_it_does_not_take_to_jansson)
{
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg);
    REQUIRE(s);
    static const struct {
        const char *body;
        int status;
        const char *says;
    } cases[] = {
        { "{\"kind\":\"copycat\",\"input\":\"a\\u0000b\"}", 400, "\\\\u0000 is not allowed" },
        { "{\"kind\":\"copycat\",\"input\":\"\\ud800\"}", 400, "invalid Unicode" },
        { "{\"kind\":\"copycat\",\"input\":\"x\",\"input\":\"y\"}", 400, "duplicate object key" },
        { "{\"kind\":\"copycat\",\"input\":\"x\" \"y\"}", 400, "line 1 column" },
        { "{\"kind\":\"copycat\",\"input\":\"\xc0\xaf\"}", 400, "unable to decode byte 0xc0" },
        { "{\"kind\":\"copycat\",\"input_path\":\"/x\",\"input\":\"z\"}", 400,
          "give one, not both" },
        { "{\"a\":{\"input\":\"q\"},\"kind\":\"copycat\",\"input\":\"ok\"}", 400, "unknown field" },
        { "{\"kind\":\"copycat\",\"input\":\"caf\\u00e9 \\t\"}", 400, "copycat: input seen" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *copy = strdup(cases[i].body);
        REQUIRE(copy);
        cz_api_resp_t resp;
        g_seen = NULL;
        post(s, copy, strlen(copy), true, &resp);
        CHECK_EQ_INT(resp.status, cases[i].status);
        if (!resp.body || !strstr(resp.body, cases[i].says)) {
            fprintf(stderr, "  case %zu: %s\n", i, resp.body ? resp.body : "(none)");
            CHECK(false);
        }
        free(resp.body);
        free(copy);
    }
    CHECK(g_seen && g_seen_len == 7 && g_seen_hash == fnv(FNV0, "caf\xc3\xa9 \t", 7));
    free_server(s, &cfg);
}

#ifdef CZ_TEST_GRPC
CZ_TEST(grpc_no_copy_after_the_kinds_map)
{
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg);
    REQUIRE(s);
    char *text = big_text();
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.proof_kind = (Cuzk__V1__ProofKind)101;
    r.request_id = "copies-grpc";
    r.vanilla_proof.data = (uint8_t *)text;
    r.vanilla_proof.len = BIG;
    size_t len = cuzk__v1__submit_proof_request__get_packed_size(&r);
    uint8_t *msg = malloc(len);
    REQUIRE(msg);
    cuzk__v1__submit_proof_request__pack(&r, msg);
    static const char path[] = "/cuzk.v1.ProvingEngine/SubmitProof";
    cz_grpc_handler_fn *fn = cz__grpc_method(path, sizeof path - 1);
    REQUIRE(fn);
    atomic_bool gone = false;
    cz_grpc_call_env_t env = { .server = s, .gone = &gone };
    cz_grpc_reply_t reply = { .status = GRPC_STATUS_OK };
    count_reset();
    fn(&env, msg, len, &reply);
    CHECK_EQ_INT((int)reply.status, (int)GRPC_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(reply.detail, "copycat: input seen") != NULL);
    CHECK(g_seen == g_mapped); /* the map's string is what the parser got */
    CHECK_EQ_U64(g_seen_len, BIG);
    CHECK_EQ_U64(g_big, 0); /* the door made no copy of its own (protobuf-c's is a library's) */
    CHECK_EQ_U64(g_json_big, 1); /* the map's json_stringn */
    free(reply.out);
    free(msg);
    free(text);
    free_server(s, &cfg);
}

/* Standard base64 of |in| (|n| bytes) into a new string. */
static char *base64(const char *in, size_t n)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *o = malloc((n + 2) / 3 * 4 + 1), *p = o;
    if (!o)
        abort();
    for (size_t i = 0; i < n; i += 3) {
        uint32_t w = (uint32_t)(unsigned char)in[i] << 16;
        if (i + 1 < n)
            w |= (uint32_t)(unsigned char)in[i + 1] << 8;
        if (i + 2 < n)
            w |= (unsigned char)in[i + 2];
        *p++ = a[w >> 18 & 63];
        *p++ = a[w >> 12 & 63];
        *p++ = i + 1 < n ? a[w >> 6 & 63] : '=';
        *p++ = i + 2 < n ? a[w & 63] : '=';
    }
    *p = '\0';
    return o;
}

CZ_TEST(grpc_porep_one_copy_from_the_protobuf_to_the_parser)
{
    cz_dconfig_t cfg;
    cz_server_t *s = new_server(&cfg);
    REQUIRE(s);
    char *text = big_text(), *b64 = base64(text, BIG);
    size_t cap = strlen(b64) + 128;
    char *wrapper = malloc(cap);
    REQUIRE(wrapper);
    /* Curio's C1 wrapper, as Go's encoding/json writes it */
    int wn = snprintf(wrapper, cap, "{\"SectorNum\":7,\"Phase1Out\":\"%s\",\"SectorSize\":2048}",
                      b64);
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.proof_kind = (Cuzk__V1__ProofKind)102;
    r.request_id = "copies-porep";
    r.sector_size = 2048;
    r.sector_number = 7;
    r.miner_id = 1000;
    r.vanilla_proof.data = (uint8_t *)wrapper;
    r.vanilla_proof.len = (size_t)wn;
    static const char *const paths[] = { "/cuzk.v1.ProvingEngine/SubmitProof",
                                         "/cuzk.v1.ProvingEngine/Prove" };
    for (size_t m = 0; m < 2; m++) {
        Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
        pr.submit = &r;
        const ProtobufCMessage *pm = m ? &pr.base : &r.base;
        size_t len = protobuf_c_message_get_packed_size(pm);
        uint8_t *msg = malloc(len);
        REQUIRE(msg);
        protobuf_c_message_pack(pm, msg);
        cz_grpc_handler_fn *fn = cz__grpc_method(paths[m], strlen(paths[m]));
        REQUIRE(fn);
        atomic_bool gone = false;
        cz_grpc_call_env_t env = { .server = s, .gone = &gone };
        cz_grpc_reply_t reply = { .status = GRPC_STATUS_OK };
        g_seen = NULL;
        count_reset();
        fn(&env, msg, len, &reply); /* protobuf-c's copy of the wrapper is a library's */
        if (m == 0) {
            CHECK_EQ_INT((int)reply.status, (int)GRPC_STATUS_INVALID_ARGUMENT);
            CHECK(strstr(reply.detail, "copycat: input seen") != NULL);
        } else { /* a refused Prove: OK, FAILED and the message (docs/CURIO.md) */
            CHECK_EQ_INT((int)reply.status, (int)GRPC_STATUS_OK);
            Cuzk__V1__ProveResponse *res = cuzk__v1__prove_response__unpack(NULL, reply.out_len,
                                                                            reply.out);
            REQUIRE(res && res->result);
            CHECK_EQ_INT((int)res->result->status,
                         (int)CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED);
            CHECK_EQ_STR(res->result->error_message, "copycat: input seen");
            cuzk__v1__prove_response__free_unpacked(res, NULL);
        }
        CHECK_EQ_U64(g_seen_len, BIG);
        CHECK(g_seen_hash == fnv(FNV0, text, BIG)); /* the C1, decoded */
        CHECK_EQ_U64(g_big, 1);                     /* one copy: Phase1Out decoded ... */
        CHECK(g_seen == g_big_last);                /* ... into the buffer the parser got */
        CHECK_EQ_U64(g_json_big, 0);                /* jansson held neither the C1 nor its base64 */
        free(reply.out);
        free(msg);
    }
    free(wrapper);
    free(b64);
    free(text);
    free_server(s, &cfg);
}

/* |m| packed into a new buffer (*n bytes). */
static uint8_t *packed(const ProtobufCMessage *m, size_t *n)
{
    *n = protobuf_c_message_get_packed_size(m);
    uint8_t *b = malloc(*n ? *n : 1);
    if (!b)
        abort();
    protobuf_c_message_pack(m, b);
    return b;
}

CZ_TEST(grpc_unpack_borrows_vanilla_proof)
{
    char *text = big_text();
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    r.request_id = "unpack-1";
    r.sector_number = 7;
    r.vanilla_proof.data = (uint8_t *)text;
    r.vanilla_proof.len = BIG;
    size_t n;
    uint8_t *msg = packed(&r.base, &n);
    Cuzk__V1__SubmitProofRequest *s = cz__grpc_unpack_submit(msg, n);
    REQUIRE(s);
    CHECK(s->vanilla_proof.data > msg && s->vanilla_proof.data + BIG <= msg + n); /* borrowed */
    CHECK_EQ_U64(s->vanilla_proof.len, BIG);
    CHECK(!memcmp(s->vanilla_proof.data, text, BIG));
    CHECK_EQ_STR(s->request_id, "unpack-1");
    CHECK_EQ_U64(s->sector_number, 7);
    cz__grpc_submit_free(s);
    CHECK(cz__grpc_unpack_submit(msg, n - 1) == NULL); /* cut short: refused, as protobuf-c */
    /* Prove: two submit records, merged as protobuf merges them (the later's fields win) */
    Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
    pr.submit = &r;
    size_t n1, n2;
    uint8_t *a = packed(&pr.base, &n1);
    Cuzk__V1__SubmitProofRequest r2 = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r2.sector_number = 9;
    r2.vanilla_proof.data = (uint8_t *)"late";
    r2.vanilla_proof.len = 4;
    pr.submit = &r2;
    uint8_t *b = packed(&pr.base, &n2), *both = malloc(n1 + n2);
    REQUIRE(both);
    memcpy(both, a, n1);
    memcpy(both + n1, b, n2);
    Cuzk__V1__ProveRequest *p = cz__grpc_unpack_prove(both, n1 + n2);
    REQUIRE(p && p->submit);
    /* protobuf's merge: the two submits' records as one message, the later's fields win and
     * the earlier's stay (protobuf-c's own merge would drop proof_kind: r2 leaves it 0) */
    CHECK_EQ_STR(p->submit->request_id, "unpack-1");
    CHECK_EQ_INT((int)p->submit->proof_kind, (int)CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT);
    CHECK_EQ_U64(p->submit->sector_number, 9);
    CHECK(p->submit->vanilla_proof.data > both + n1 &&
          p->submit->vanilla_proof.data + 4 <= both + n1 + n2);
    CHECK_EQ_U64(p->submit->vanilla_proof.len, 4);
    CHECK(!memcmp(p->submit->vanilla_proof.data, "late", 4));
    cz__grpc_prove_free(p);
    free(both);
    free(a);
    free(b);
    free(msg);
    free(text);
}
#endif

CZ_TEST_MAIN()
