/*
 * tests/daemon/fuzz_grpc.c — fuzz target of cuzkd's gRPC decode path:
 * protobuf-c's unpacking of every cuzk.v1 request message and Curio's
 * request mapping (daemon/grpc/curio.c: the C1 wrapper JSON, base64, the
 * PoSt vanilla proofs' bincode, snap commitments and CIDs, field checks,
 * circuit ids), without sockets or a server.
 *
 * An input is one selector byte (which request message, mod 8) followed by
 * the message bytes. Checked: no crash or leak (sanitizers); a message
 * that unpacks packs to get_packed_size bytes, and when those unpack, to
 * the same size again; a mapped SubmitProofRequest is a JSON object with a
 * known "kind" and its input (the C1 text for porep-c2, an object for the
 * others), and a refused one has a message naming what was wrong; the
 * daemon's own unpack of Prove's and SubmitProof's messages (daemon/grpc/
 * unpack.h: vanilla_proof borrowed) refuses what protobuf-c refuses, its
 * vanilla_proof lies inside the message, and a SubmitProofRequest packs to
 * protobuf-c's bytes.
 *
 * Built as a libFuzzer target with -DCUZK_FUZZ=ON and clang:
 *   build-fuzz/tests/fuzz_grpc -max_total_time=120 tests/daemon/corpus_grpc
 * and always as fuzz_grpc_replay (ctest replays the seed corpus).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/grpc/curio.h"
#include "daemon/grpc/unpack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_grpc: invariant broken: %s\n", what);
        abort();
    }
}

/* Pack |m| again and unpack that: the same packed size both times. */
static void repack(const ProtobufCMessage *m)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(n ? n : 1);
    check(buf != NULL, "malloc");
    check(protobuf_c_message_pack(m, buf) == n, "pack writes get_packed_size bytes");
    /* protobuf-c keeps what it did not understand as unknown fields and packs
     * them back verbatim, including some it would refuse at the top level
     * (a field number 0 inside a submessage): such a repack may not unpack */
    ProtobufCMessage *again = protobuf_c_message_unpack(m->descriptor, NULL, n, buf);
    if (again) {
        check(protobuf_c_message_get_packed_size(again) == n, "repacked size is stable");
        protobuf_c_message_free_unpacked(again, NULL);
    }
    free(buf);
}

static void map_submit(const Cuzk__V1__SubmitProofRequest *r)
{
    cz_ctx_t *ctx = NULL;
    check(cz_ctx_new(&ctx, NULL, 1) == CZ_OK, "ctx");
    json_t *req = NULL;
    int rc = cz__grpc_job_request(ctx, cz_kinds_builtin(), r, &req, NULL);
    if (rc == CZ_OK) {
        check(json_is_object(req), "a mapped request is an object");
        check(json_is_string(json_object_get(req, "kind")), "it names its kind");
        /* porep-c2: the C1 text; winning-post / window-post / snap: their input object */
        const json_t *input = json_object_get(req, "input");
        const char *kind = json_string_value(json_object_get(req, "kind"));
        check(!strcmp(kind, "porep-c2") ? json_is_string(input) : json_is_object(input),
              "it carries its kind's input");
    } else {
        check(req == NULL, "no request on error");
        check(*cz_ctx_message(ctx) != '\0', "a refusal says why");
    }
    json_decref(req);
    cz_ctx_free(ctx);
}

static void map_circuit_id(const char *id)
{
    cz_ctx_t *ctx = NULL;
    check(cz_ctx_new(&ctx, NULL, 1) == CZ_OK, "ctx");
    char name[256];
    if (cz__grpc_params_name(ctx, cz_kinds_builtin(), id, name, sizeof name) != CZ_OK)
        check(*cz_ctx_message(ctx) != '\0', "a refused circuit_id says why");
    cz_ctx_free(ctx);
}

/* The daemon's unpack of |in| (a ProveRequest when |prove|) against protobuf-c's |m|. */
static void same_unpack(bool prove, const uint8_t *in, size_t n, const ProtobufCMessage *m)
{
    Cuzk__V1__ProveRequest *p = prove ? cz__grpc_unpack_prove(in, n) : NULL;
    Cuzk__V1__SubmitProofRequest *s = prove ? NULL : cz__grpc_unpack_submit(in, n);
    const ProtobufCMessage *ours = prove ? (p ? &p->base : NULL) : (s ? &s->base : NULL);
    check(ours == NULL || m != NULL, "the daemon's unpack refuses what protobuf-c refuses");
    if (ours && m) {
        const Cuzk__V1__SubmitProofRequest *sr = prove ? p->submit : s;
        check(!prove ||
                  (p->submit != NULL) == (((const Cuzk__V1__ProveRequest *)m)->submit != NULL),
              "a submit in both or in neither");
        check(!sr || !sr->vanilla_proof.len ||
                  (sr->vanilla_proof.data >= in &&
                   sr->vanilla_proof.data + sr->vanilla_proof.len <= in + n),
              "vanilla_proof is borrowed from the message");
        /* Prove: several submit records merge as protobuf says (unpack.h), which protobuf-c
         * does not quite (a proto3 field a later record leaves unset is reset): no bytes */
        if (prove) {
            cz__grpc_prove_free(p);
            return;
        }
        size_t a = protobuf_c_message_get_packed_size(ours),
               b = protobuf_c_message_get_packed_size(m);
        check(a == b, "the daemon's unpack packs to protobuf-c's size");
        uint8_t *x = malloc(a ? a : 1), *y = malloc(b ? b : 1);
        check(x && y, "malloc");
        protobuf_c_message_pack(ours, x);
        protobuf_c_message_pack(m, y);
        check(!memcmp(x, y, a), "the daemon's unpack packs to protobuf-c's bytes");
        free(x);
        free(y);
    }
    cz__grpc_prove_free(p);
    cz__grpc_submit_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const ProtobufCMessageDescriptor *const types[8] = {
        &cuzk__v1__prove_request__descriptor,       &cuzk__v1__submit_proof_request__descriptor,
        &cuzk__v1__await_proof_request__descriptor, &cuzk__v1__cancel_proof_request__descriptor,
        &cuzk__v1__get_status_request__descriptor,  &cuzk__v1__get_metrics_request__descriptor,
        &cuzk__v1__preload_srs_request__descriptor, &cuzk__v1__evict_srs_request__descriptor,
    };
    if (size < 1)
        return 0;
    const ProtobufCMessageDescriptor *d = types[data[0] % 8];
    ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, size - 1, data + 1);
    if (d == &cuzk__v1__prove_request__descriptor ||
        d == &cuzk__v1__submit_proof_request__descriptor)
        same_unpack(d == &cuzk__v1__prove_request__descriptor, data + 1, size - 1, m);
    if (!m)
        return 0;
    repack(m);
    if (d == &cuzk__v1__prove_request__descriptor && ((Cuzk__V1__ProveRequest *)m)->submit)
        map_submit(((Cuzk__V1__ProveRequest *)m)->submit);
    else if (d == &cuzk__v1__submit_proof_request__descriptor)
        map_submit((Cuzk__V1__SubmitProofRequest *)m);
    else if (d == &cuzk__v1__preload_srs_request__descriptor)
        map_circuit_id(((Cuzk__V1__PreloadSrsRequest *)m)->circuit_id);
    else if (d == &cuzk__v1__evict_srs_request__descriptor)
        map_circuit_id(((Cuzk__V1__EvictSrsRequest *)m)->circuit_id);
    protobuf_c_message_free_unpacked(m, NULL);
    return 0;
}
