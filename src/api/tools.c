/*
 * api/tools.c — the rest of cuzk.h's "tools" block: sector sizes
 * (cz_sector_size_parse), the Filecoin parameter manifest and file digests
 * (cz_params_manifest_*, cz_params_file_digest: groth16/manifest.h) and a
 * circuit's shape (cz_circuit_describe: circuits/registry.h in SHAPE mode)
 * and the native hashes (cz_hash_*, cz_comm_d_zero: hash/), for `cuzk
 * params check`, `cuzk circuit shape` and `cuzk hash`. Reentrant: each call
 * makes its own context and uses the calling thread (and, for
 * cz_circuit_describe, a pool of its own).
 */
#include "cuzk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/prover_int.h"
#include "circuits/porep/stacked.h"
#include "circuits/registry.h"
#include "core/clock.h"
#include "ff/fr.h"
#include "groth16/manifest.h"
#include "hash/poseidon.h"
#include "hash/sha254.h"

int cz_sector_size_parse(const char *text, uint64_t *bytes, cz_error_t *err)
{
    cz__err_clear(err);
    if (!text || !bytes)
        return cz__err(err, CZ_EINVAL, "cz_sector_size_parse: NULL argument");
    cz_porep_params_t p;
    uint64_t b = 0;
    if (cz_porep_parse_size(text, &b) || cz_porep_params_sector(&p, b))
        return cz__err(err, CZ_EINVAL,
                       "'%.64s' is not a sector size (2KiB, 8MiB, 512MiB, 32GiB or 64GiB)", text);
    *bytes = b;
    return CZ_OK;
}

/* ---- the parameter manifest ------------------------------------------------ */

struct cz_params_manifest {
    cz_manifest_t m;
};

int cz_params_manifest_load(cz_params_manifest_t **out, const char *path, cz_error_t *err)
{
    cz__err_clear(err);
    if (!out)
        return cz__err(err, CZ_EINVAL, "cz_params_manifest_load: NULL argument");
    *out = NULL;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "context");
    cz_params_manifest_t *m = calloc(1, sizeof *m);
    int rc = !m     ? cz_fail(ctx, CZ_ENOMEM, "manifest")
             : path ? cz_manifest_load(ctx, &m->m, path)
                    : cz_manifest_builtin(ctx, &m->m);
    if (rc == CZ_OK)
        *out = m;
    else
        cz_params_manifest_free(m);
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    return rc;
}

void cz_params_manifest_free(cz_params_manifest_t *m)
{
    if (!m)
        return;
    cz_manifest_clear(&m->m);
    free(m);
}

size_t cz_params_manifest_count(const cz_params_manifest_t *m)
{
    return m ? m->m.count : 0;
}

int cz_params_manifest_entry(const cz_params_manifest_t *m, size_t i,
                             cz_params_manifest_entry_t *out)
{
    if (!out)
        return CZ_EINVAL;
    memset(out, 0, sizeof *out);
    if (!m || i >= m->m.count)
        return CZ_ERANGE;
    const cz_manifest_entry_t *e = &m->m.entries[i];
    out->name = e->name;
    out->cid = e->cid;
    out->digest = e->digest;
    out->sector_size = e->sector_size;
    return CZ_OK;
}

long cz_params_manifest_find(const cz_params_manifest_t *m, const char *name)
{
    const cz_manifest_entry_t *e = m && name ? cz_manifest_find(&m->m, name) : NULL;
    return e ? (long)(e - m->m.entries) : -1;
}

int cz_params_file_digest(const char *path, char hex[33], cz_error_t *err)
{
    cz__err_clear(err);
    if (!path || !hex)
        return cz__err(err, CZ_EINVAL, "cz_params_file_digest: NULL argument");
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "context");
    int rc = cz_params_digest(ctx, path, hex);
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    return rc;
}

/* ---- a circuit's shape ----------------------------------------------------- */

int cz_circuit_describe(const char *kind, uint64_t sector_size, const char *circuit,
                        unsigned threads, cz_circuit_shape_t *out, cz_error_t *err)
{
    cz__err_clear(err);
    if (!out)
        return cz__err(err, CZ_EINVAL, "cz_circuit_describe: NULL argument");
    memset(out, 0, sizeof *out);
    if (!kind == !circuit)
        return cz__err(err, CZ_EINVAL, "circuit describe: one of kind and circuit");
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, threads) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "context");
    char id[64], name[256];
    int rc = CZ_OK;
    if (kind)
        rc = cz__kind_test_circuit(ctx, kind, sector_size, id, sizeof id, name, sizeof name);
    else if (strlen(circuit) >= sizeof id)
        rc = cz_fail(ctx, CZ_EINVAL, "circuit '%.64s...': id too long", circuit);
    else
        snprintf(id, sizeof id, "%s", circuit);
    cz_circuit_t c;
    if (rc == CZ_OK)
        rc = cz_circuit_parse(ctx, id, &c);
    if (rc == CZ_OK) {
        size_t pop[3] = { 0 };
        double t0 = cz_mono_s();
        rc = cz_circuit_shape(ctx, &c, &out->rows, &out->inputs, &out->aux, pop);
        out->seconds = cz_mono_s() - t0;
        snprintf(out->circuit, sizeof out->circuit, "%s", c.id);
        out->constraints = out->rows - out->inputs;
        out->a_aux_density = pop[CZ_DENSITY_A_AUX];
        out->b_input_density = pop[CZ_DENSITY_B_INPUT];
        out->b_aux_density = pop[CZ_DENSITY_B_AUX];
    }
    if (rc) {
        char circuit_id[64];
        snprintf(circuit_id, sizeof circuit_id, "%s", out->circuit);
        memset(out, 0, sizeof *out);
        snprintf(out->circuit, sizeof out->circuit, "%s", circuit_id);
    }
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    return rc;
}

/* ---- hashes ---------------------------------------------------------------- */

int cz_hash_poseidon(uint8_t out[32], const uint8_t *inputs, size_t arity, cz_error_t *err)
{
    cz__err_clear(err);
    if (!out || (!inputs && arity))
        return cz__err(err, CZ_EINVAL, "cz_hash_poseidon: NULL argument");
    const cz_poseidon_constants *c = arity <= CZ_POSEIDON_MAX_ARITY
                                         ? cz_poseidon_constants_get((unsigned)arity)
                                         : NULL;
    if (!c || c->arity != arity)
        return cz__err(err, CZ_EINVAL, "poseidon: arity %zu is not 2, 4, 8 or 11", arity);
    cz_fr x[CZ_POSEIDON_MAX_ARITY], h;
    for (size_t i = 0; i < arity; i++)
        if (cz_fr_from_repr(&x[i], inputs + 32 * i) != CZ_OK)
            return cz__err(err, CZ_EINVAL, "poseidon: input %zu is not a field element", i);
    cz_poseidon_hash(c, &h, x);
    cz_fr_to_repr(out, &h);
    return CZ_OK;
}

void cz_hash_sha256(uint8_t out[32], const void *data, size_t len)
{
    cz_sha256(out, data, len);
}

void cz_hash_sha254(uint8_t out[32], const void *data, size_t len)
{
    cz_sha254(out, data, len);
}

int cz_comm_d_zero(uint8_t out[32], uint64_t sector_size, cz_error_t *err)
{
    cz__err_clear(err);
    if (!out)
        return cz__err(err, CZ_EINVAL, "cz_comm_d_zero: NULL argument");
    if (cz_sha254_comm_d_zero(out, sector_size) != CZ_OK)
        return cz__err(err, CZ_EINVAL, "comm_d: sector size %llu is not a power of two >= 64",
                       (unsigned long long)sector_size);
    return CZ_OK;
}
