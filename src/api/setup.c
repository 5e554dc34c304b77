/*
 * api/setup.c — TEST params for a kind's circuit or a registry circuit
 * (cuzk.h cz_setup_test_params): the circuit synthesized in KEYGEN mode, groth16/setup
 * (bellperson's generator) with toxic waste from a seed or the OS CSPRNG,
 * the params and vk written atomically. Every door that makes test params
 * (`cuzk setup`, its --kind forms, the test fixtures) comes here.
 */
#include "cuzk.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "api/internal.h"
#include "api/prover_int.h"
#include "circuits/registry.h"
#include "core/clock.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "kinds/kinds.h"

void cz_setup_request_init(cz_setup_request_t *req)
{
    memset(req, 0, sizeof *req);
}

/* "2KiB" for 2048: the sizes the registry's FAMILY:SIZE ids take. */
static void size_name(char *out, size_t cap, uint64_t bytes)
{
    static const char unit[][4] = { "", "KiB", "MiB", "GiB" };
    size_t u = 0;
    while (u < 3 && bytes >= 1024 && bytes % 1024 == 0)
        bytes /= 1024, u++;
    snprintf(out, cap, "%" PRIu64 "%s", bytes, unit[u]);
}

/* DIR/NAME with NAME's ".params" swapped for |ext| ("params" or "vk"). */
static int named(cz_ctx_t *ctx, char *out, size_t cap, const char *dir, const char *name,
                 const char *ext)
{
    size_t n = strlen(name);
    if (n > 7 && !strcmp(name + n - 7, ".params"))
        n -= 7;
    int w = snprintf(out, cap, "%s/%.*s.%s", dir ? dir : ".", (int)n, name, ext);
    return w > 0 && (size_t)w < cap ? CZ_OK : cz_fail(ctx, CZ_EINVAL, "params_dir: path too long");
}

int cz__kind_test_circuit(cz_ctx_t *ctx, const char *kind, uint64_t sector_size, char *id,
                          size_t cap, char *name, size_t name_cap)
{
    const cz_kinds_t *t = cz_kinds_builtin();
    const cz_job_kind_t *k = cz_kinds_find(t, kind, NULL);
    if (!k)
        return cz__kind_unknown(ctx, t, kind);
    if (!k->test_circuit || !k->curio.params_name)
        return cz_fail(ctx, CZ_EINVAL,
                       "kind: %s has no test circuit of a sector size "
                       "(give a circuit id)",
                       k->name);
    char size[32];
    size_name(size, sizeof size, sector_size);
    if (!sector_size || k->curio.params_name(sector_size, name, name_cap))
        return cz_fail(ctx, CZ_EINVAL, "sector_size: %s has no %s circuit", size, k->name);
    snprintf(id, cap, "%s:%s", k->test_circuit, size);
    return CZ_OK;
}

/* The circuit id and output paths of |req| into |info|. */
static int resolve(cz_ctx_t *ctx, const cz_setup_request_t *req, cz_setup_info_t *info)
{
    if (!req->kind == !req->circuit)
        return cz_fail(ctx, CZ_EINVAL, "setup: one of kind and circuit");
    if (!req->params_path != !req->vk_path)
        return cz_fail(ctx, CZ_EINVAL, "setup: params_path and vk_path go together");
    if (req->circuit) {
        snprintf(info->circuit, sizeof info->circuit, "%s", req->circuit);
    } else {
        char name[256];
        int rc = cz__kind_test_circuit(ctx, req->kind, req->sector_size, info->circuit,
                                       sizeof info->circuit, name, sizeof name);
        if (rc)
            return rc;
        if (!req->params_path) {
            rc = named(ctx, info->params_path, sizeof info->params_path, req->params_dir, name,
                       "params");
            return rc ? rc
                      : named(ctx, info->vk_path, sizeof info->vk_path, req->params_dir, name,
                              "vk");
        }
    }
    if (!req->params_path)
        return cz_fail(ctx, CZ_EINVAL,
                       "setup: params_path and vk_path (a circuit id has no "
                       "Filecoin name)");
    if ((size_t)snprintf(info->params_path, sizeof info->params_path, "%s", req->params_path) >=
            sizeof info->params_path ||
        (size_t)snprintf(info->vk_path, sizeof info->vk_path, "%s", req->vk_path) >=
            sizeof info->vk_path)
        return cz_fail(ctx, CZ_EINVAL, "setup: path too long");
    return CZ_OK;
}

static void report(const cz_setup_request_t *req, const char *phase, double fraction)
{
    if (req->progress)
        req->progress(req->progress_user, phase, fraction);
}

/* The setup proper; |ctx|'s pool is the request's threads. */
static int setup(cz_ctx_t *ctx, const cz_setup_request_t *req, cz_setup_info_t *info)
{
    cz_circuit_t circuit;
    int rc = resolve(ctx, req, info);
    if (rc == CZ_OK && (rc = cz_circuit_parse(ctx, info->circuit, &circuit)) != CZ_OK)
        rc = CZ_EINVAL; /* the id is the request's fault; the message names it */
    if (rc != CZ_OK)
        return rc;
    cz_cs_t *cs = NULL;
    cz_params_t *params = NULL;
    cz_params_shape_t shape;
    double t0 = cz_mono_s(), t2 = t0;
    report(req, "synthesis", -1);
    rc = cz_cs_new(&cs, ctx, CZ_CS_KEYGEN);
    if (rc == CZ_OK)
        rc = cz_circuit_synthesize(&circuit, cs);
    if (rc == CZ_OK) {
        cz_setup_shape_of_cs(cs, &shape);
        snprintf(info->circuit, sizeof info->circuit, "%s", circuit.id);
        info->rows = cz_cs_num_rows(cs);
        info->domain_size = shape.domain_size;
        info->num_inputs = shape.num_inputs;
        info->num_aux = shape.num_aux;
        info->a_aux_popcount = shape.a_aux_popcount;
        info->b_input_popcount = shape.b_input_popcount;
        info->b_aux_popcount = shape.b_aux_popcount;
        double t1 = cz_mono_s();
        info->t_synthesis = t1 - t0;
        report(req, "synthesized", 0);
        cz_setup_toxic_t toxic;
        if (req->seeded)
            cz_setup_toxic_from_seed(&toxic, req->seed);
        else
            rc = cz_setup_toxic_random(ctx, &toxic);
        if (rc == CZ_OK)
            rc = cz_setup_from_cs_progress(ctx, &params, cs, &toxic, req->progress,
                                           req->progress_user);
        cz_setup_toxic_scrub(&toxic);
        t2 = cz_mono_s();
        info->t_setup = t2 - t1;
    }
    cz_cs_free(cs);
    if (rc == CZ_OK) {
        report(req, "writing", 1.0);
        rc = cz_params_write(ctx, info->params_path, params);
    }
    if (rc == CZ_OK)
        rc = cz_vk_write(ctx, info->vk_path, &params->vk);
    if (rc == CZ_OK) {
        info->n_h = params->n_h;
        info->n_l = params->n_l;
        info->n_a = params->n_a;
        info->n_b_g1 = params->n_b_g1;
        info->n_b_g2 = params->n_b_g2;
        info->n_ic = params->vk.n_ic;
        info->params_bytes = cz_params_encoded_size(params);
        info->t_write = cz_mono_s() - t2;
    }
    cz_params_free(params);
    return rc;
}

int cz_setup_test_params(const cz_setup_request_t *req, cz_setup_info_t *info, cz_error_t *err)
{
    cz__err_clear(err);
    cz_setup_info_t local;
    if (!info)
        info = &local;
    memset(info, 0, sizeof *info);
    if (!req)
        return cz__err(err, CZ_EINVAL, "cz_setup_test_params: NULL request");
    if (!CZ__RESERVED_ZERO(req))
        return cz__err(err, CZ_EINVAL,
                       "cz_setup_test_params: request.reserved is not zero "
                       "(start from cz_setup_request_init)");
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, req->threads) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "setup: a thread pool of %u threads", req->threads);
    info->threads = cz_pool_width(cz_ctx_pool(ctx));
    int rc = setup(ctx, req, info);
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    return rc;
}
