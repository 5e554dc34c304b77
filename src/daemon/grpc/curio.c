/*
 * daemon/grpc/curio.c — Curio's requests as daemon jobs (see curio.h): the
 * door only; every ProofKind's mapping is its kind's (kinds/kinds.h).
 */
#include "daemon/grpc/curio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the kinds Curio knows, by ProofKind number ------------------------------ */

/* The |i|-th kind of |t| with a ProofKind, by ascending ProofKind; NULL past the last. */
static const cz_job_kind_t *curio_kind(const cz_kinds_t *t, size_t i)
{
    int last = 0;
    const cz_job_kind_t *k = NULL;
    for (size_t r = 0; r <= i; r++, last = k->curio.proof_kind) {
        k = NULL;
        for (size_t j = 0; j < t->n; j++) {
            int pk = t->kind[j]->curio.proof_kind;
            if (pk > last && (!k || pk < k->curio.proof_kind))
                k = t->kind[j];
        }
        if (!k)
            return NULL;
    }
    return k;
}

size_t cz__grpc_kind_count(const cz_kinds_t *t)
{
    size_t n = 0;
    while (curio_kind(t, n))
        n++;
    return n;
}

const char *cz__grpc_kind_name(const cz_kinds_t *t, size_t i)
{
    const cz_job_kind_t *k = curio_kind(t, i);
    return k ? k->curio.proof_kind_name : NULL;
}

const char *cz__grpc_queue_name(const cz_kinds_t *t, const char *job_kind)
{
    const cz_job_kind_t *k = cz_kinds_find(t, job_kind, NULL);
    return k && k->curio.proof_kind ? k->curio.proof_kind_name : job_kind;
}

/* "POREP_SEAL_COMMIT 1, SNAP_DEALS_UPDATE 2, ..." into |buf|. */
static const char *proof_kinds(const cz_kinds_t *t, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    const cz_job_kind_t *k;
    for (size_t i = 0; (k = curio_kind(t, i)) && used < cap; i++) {
        int n = snprintf(buf + used, cap - used, "%s%s %d", i ? ", " : "", k->curio.proof_kind_name,
                         k->curio.proof_kind);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

/* ---- SubmitProofRequest -> the kind's request ------------------------------------ */

static cz_bytes_view_t view(ProtobufCBinaryData b)
{
    return (cz_bytes_view_t){ b.data, b.len };
}

/* |r| as the kinds see it (kinds/kinds.h), borrowing |r|; free *views. */
static int curio_request(cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r,
                         cz_curio_request_t *out, cz_bytes_view_t **views)
{
    size_t n = r->n_vanilla_proofs;
    if (!(*views = calloc(n ? n : 1, sizeof **views)))
        return cz_fail(ctx, CZ_ENOMEM, "vanilla_proofs: %zu", n);
    for (size_t i = 0; i < n; i++)
        (*views)[i] = view(r->vanilla_proofs[i]);
    *out = (cz_curio_request_t){
        .proof_kind = (int)r->proof_kind,
        .sector_size = r->sector_size,
        .registered_proof = r->registered_proof,
        .vanilla_proof = view(r->vanilla_proof),
        .vanilla_proofs = *views,
        .n_vanilla_proofs = n,
        .sector_number = r->sector_number,
        .miner_id = r->miner_id,
        .randomness = view(r->randomness),
        .partition_index = r->partition_index,
        .comm_r_old = view(r->comm_r_old),
        .comm_r_new = view(r->comm_r_new),
        .comm_d_new = view(r->comm_d_new),
    };
    return CZ_OK;
}

int cz__grpc_job_request(cz_ctx_t *ctx, const cz_kinds_t *kinds,
                         const Cuzk__V1__SubmitProofRequest *r, json_t **out,
                         cz_curio_input_t *input)
{
    *out = NULL;
    cz_curio_input_t in = { NULL, 0 };
    const cz_job_kind_t *k = cz_kinds_by_proof_kind(kinds, (int)r->proof_kind);
    char known[256];
    if (!k)
        return cz_fail(ctx, CZ_EINVAL, "proof_kind: %d is not a ProofKind (%s)", (int)r->proof_kind,
                       proof_kinds(kinds, known, sizeof known));
    int prio = (int)r->priority;
    if (prio < 0 || prio > 4)
        return cz_fail(ctx, CZ_EINVAL,
                       "priority: %d is not a Priority (0 default, LOW 1 .. CRITICAL 4)", prio);
    json_t *req = json_pack("{s:s,s:i}", "kind", k->name, "priority",
                            prio ? prio : k->curio.default_priority);
    if (!req)
        return cz_fail(ctx, CZ_ENOMEM, "request");
    int rc = CZ_OK;
    if (r->request_id && *r->request_id &&
        json_object_set_new(req, "request_id", json_string(r->request_id)))
        rc = cz_fail(ctx, CZ_EINVAL, "request_id: must be UTF-8 text");
    cz_curio_request_t cr;
    cz_bytes_view_t *views = NULL;
    if (rc == CZ_OK)
        rc = curio_request(ctx, r, &cr, &views);
    if (rc == CZ_OK)
        rc = k->curio.map(ctx, &cr, req, &in);
    free(views);
    if (rc == CZ_OK && in.data && json_object_get(req, "input"))
        rc = cz_fail(ctx, CZ_EINTERNAL, "kind %s: its Curio map gave the input twice", k->name);
    if (rc == CZ_OK && in.data && !input) { /* the request object alone: the input in it */
        json_t *s = json_stringn(in.data, in.len);
        if (!s || json_object_set_new(req, "input", s))
            rc = cz_fail(ctx, CZ_EINVAL, "input: not UTF-8 text");
        free(in.data);
        in.data = NULL;
    }
    if (rc != CZ_OK) {
        free(in.data);
        json_decref(req);
        return rc;
    }
    if (input)
        *input = in;
    *out = req;
    return CZ_OK;
}

/* ---- circuit ids ---------------------------------------------------------- */

int cz__grpc_params_name(cz_ctx_t *ctx, const cz_kinds_t *kinds, const char *id, char *out,
                         size_t cap)
{
    /* Curio's ids: curio extern/cuzk cuzk-core srs_manager.rs CircuitId
     * ("porep-32g", "porep-64g", "wpost-32g", "winning-32g", "snap-32g",
     * "snap-64g"), here for every production size */
    static const struct {
        const char *suffix;
        uint64_t bytes;
    } sizes[] = {
        { "2k", 2048ull },      { "8m", 8ull << 20 },   { "512m", 512ull << 20 },
        { "32g", 32ull << 30 }, { "64g", 64ull << 30 },
    };
    if (!id || !*id)
        return cz_fail(ctx, CZ_EINVAL,
                       "circuit_id: empty (e.g. \"porep-32g\", \"wpost-32g\" or a "
                       "params name)");
    for (size_t f = 0; f < kinds->n; f++) {
        const cz_kind_curio_t *c = &kinds->kind[f]->curio;
        size_t n = c->srs_family ? strlen(c->srs_family) : 0;
        if (!n || strncmp(id, c->srs_family, n))
            continue;
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            if (!strcmp(id + n, sizes[i].suffix)) {
                int rc = c->params_name(sizes[i].bytes, out, cap);
                return rc ? cz_fail(ctx, rc, "circuit_id: %s: no params name", id) : CZ_OK;
            }
        return cz_fail(ctx, CZ_EINVAL, "circuit_id: '%.64s': %s takes 2k, 8m, 512m, 32g or 64g", id,
                       c->srs_family);
    }
    if (strlen(id) >= cap)
        return cz_fail(ctx, CZ_EINVAL, "circuit_id: too long");
    snprintf(out, cap, "%s", id);
    return CZ_OK;
}
