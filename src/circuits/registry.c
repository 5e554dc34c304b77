/*
 * circuits/registry.c — circuits by name (see circuits/registry.h).
 */
#include "circuits/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/toy.h"

int cz_circuit_parse(cz_ctx_t *ctx, const char *id, cz_circuit_t *out)
{
    memset(out, 0, sizeof *out);
    if (!id || strlen(id) >= sizeof out->id)
        return cz_fail(ctx, CZ_EINVAL, "circuit id too long or missing");
    snprintf(out->id, sizeof out->id, "%s", id);
    if (!strcmp(id, "toy") || !strncmp(id, "toy:", 4)) {
        out->kind = CZ_CIRCUIT_TOY;
        out->toy_x = 3;
        if (id[3] == ':') {
            char *end;
            out->toy_x = strtoull(id + 4, &end, 10);
            if (!id[4] || *end)
                return cz_fail(ctx, CZ_EINVAL, "circuit '%s': toy:X wants a decimal X", id);
        }
        return CZ_OK;
    }
    if (!strncmp(id, "bench:", 6)) {
        out->kind = CZ_CIRCUIT_BENCH;
        return cz_bench_parse(ctx, id, &out->bench);
    }
    if (!strncmp(id, "porep-graph:", 12)) { /* porep-graph:NODES:LAYERS:CHALLENGES:B-S-T */
        unsigned long long nodes;
        unsigned layers, challenges, base, sub, top;
        char tail;
        out->kind = CZ_CIRCUIT_POREP;
        if (sscanf(id + 12, "%llu:%u:%u:%u-%u-%u%c", &nodes, &layers, &challenges, &base, &sub,
                   &top, &tail) != 6)
            return cz_fail(ctx, CZ_EINVAL,
                           "circuit '%s': porep-graph wants NODES:LAYERS:CHALLENGES:BASE-SUB-TOP "
                           "(e.g. porep-graph:64:2:2:8-0-0)",
                           id);
        if (cz_porep_params_make(&out->porep, nodes, layers, challenges, base, sub, top))
            return cz_fail(ctx, CZ_EINVAL,
                           "circuit '%s': invalid graph (nodes must fill the tree; layers 2, 4, "
                           "8 or 11; arities 2, 4, 8; top needs sub)",
                           id);
        return CZ_OK;
    }
    if (!strncmp(id, "porep:", 6)) {
        uint64_t bytes;
        out->kind = CZ_CIRCUIT_POREP;
        if (cz_porep_parse_size(id + 6, &bytes) || cz_porep_params_sector(&out->porep, bytes))
            return cz_fail(ctx, CZ_EINVAL,
                           "circuit '%s': porep:SIZE wants 2KiB, 8MiB, 512MiB, 32GiB or 64GiB", id);
        return CZ_OK;
    }
    if (!strncmp(id, "snap:", 5)) {
        uint64_t bytes;
        out->kind = CZ_CIRCUIT_SNAP;
        if (cz_porep_parse_size(id + 5, &bytes) || cz_snap_params_sector(&out->update, bytes))
            return cz_fail(ctx, CZ_EINVAL,
                           "circuit '%s': snap:SIZE wants 2KiB, 8MiB, 512MiB, 32GiB or 64GiB", id);
        return CZ_OK;
    }
    const char *colon = strchr(id, ':');
    cz_post_kind_t pk;
    if (colon && colon - id < 16) {
        char kind[16];
        snprintf(kind, sizeof kind, "%.*s", (int)(colon - id), id);
        uint64_t bytes;
        if (cz_post_kind_parse(kind, &pk) == CZ_OK && strchr(kind, '-')) {
            out->kind = CZ_CIRCUIT_POST;
            if (cz_porep_parse_size(colon + 1, &bytes) ||
                cz_post_params_sector(&out->post, pk, bytes))
                return cz_fail(ctx, CZ_EINVAL,
                               "circuit '%s': %s:SIZE wants 2KiB, 8MiB, "
                               "512MiB, 32GiB or 64GiB",
                               id, kind);
            return CZ_OK;
        }
    }
    return cz_fail(ctx, CZ_EINVAL,
                   "unknown circuit '%s' (want toy[:X], bench:N, porep:SIZE, "
                   "porep-graph:N:L:C:B-S-T, winning-post:SIZE, window-post:SIZE or "
                   "snap:SIZE)",
                   id);
}

int cz_circuit_body(cz_cs_t *cs, void *circuit)
{
    const cz_circuit_t *c = circuit;
    if (c->kind == CZ_CIRCUIT_TOY) {
        cz_fr x;
        cz_fr_from_u64(&x, c->toy_x);
        return cz_toy_cube(cs, &x);
    }
    if (c->kind == CZ_CIRCUIT_POREP)
        return cz_porep_circuit(cs, &c->porep, NULL);
    if (c->kind == CZ_CIRCUIT_POST)
        return cz_post_circuit(cs, &c->post, NULL);
    if (c->kind == CZ_CIRCUIT_SNAP)
        return cz_snap_circuit(cs, &c->update, NULL);
    return cz_bench_circuit(cs, &c->bench);
}

int cz_circuit_synthesize(const cz_circuit_t *c, cz_cs_t *cs)
{
    int rc = cz_circuit_body(cs, (void *)c);
    return rc ? rc : cz_cs_finish(cs);
}

int cz_circuit_witness(cz_ctx_t *ctx, const cz_circuit_t *c, uint64_t seed, cz_cs_witness_t *out)
{
    memset(out, 0, sizeof *out);
    if (c->kind == CZ_CIRCUIT_BENCH) {
        cz_bench_params p = c->bench;
        if (seed)
            p.seed = seed;
        return cz_bench_witness(ctx, &p, out);
    }
    if (c->kind == CZ_CIRCUIT_POREP || c->kind == CZ_CIRCUIT_SNAP)
        return cz_fail(ctx, CZ_EUNAVAIL, "circuit '%s': the witness comes from vanilla proofs",
                       c->id);
    if (c->kind == CZ_CIRCUIT_POST)
        return cz_fail(ctx, CZ_EUNAVAIL, "circuit '%s': the witness comes from vanilla proofs",
                       c->id);
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, ctx, CZ_CS_PROVE);
    if (rc)
        return rc;
    rc = cz_cs_omit_c(cs);
    if (rc == CZ_OK)
        rc = cz_circuit_synthesize(c, cs);
    if (rc == CZ_OK)
        rc = cz_cs_take_witness(cs, out);
    cz_cs_free(cs);
    return rc;
}

int cz_circuit_shape(cz_ctx_t *ctx, const cz_circuit_t *c, size_t *rows, size_t *num_inputs,
                     size_t *num_aux, size_t popcount[3])
{
    if (c->kind == CZ_CIRCUIT_BENCH) {
        cz_bench_shape_t s;
        int rc = cz_bench_shape(ctx, &c->bench, &s);
        if (rc)
            return rc;
        *rows = s.rows;
        *num_inputs = s.num_inputs;
        *num_aux = s.num_aux;
        popcount[CZ_DENSITY_A_AUX] = s.a_aux_popcount;
        popcount[CZ_DENSITY_B_INPUT] = s.b_input_popcount;
        popcount[CZ_DENSITY_B_AUX] = s.b_aux_popcount;
        return CZ_OK;
    }
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, ctx, CZ_CS_SHAPE);
    if (rc)
        return rc;
    rc = cz_circuit_synthesize(c, cs);
    if (rc == CZ_OK) {
        *rows = cz_cs_num_rows(cs);
        *num_inputs = cz_cs_num_inputs(cs);
        *num_aux = cz_cs_num_aux(cs);
        for (int k = 0; k < 3; k++)
            cz_cs_density(cs, (cz_density_t)k, NULL, &popcount[k]);
    }
    cz_cs_free(cs);
    return rc;
}
