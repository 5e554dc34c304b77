/*
 * tests/cz_toy_params.h — the toy circuit's params, for the tests that
 * prove with it through a prover or a server: a seeded setup, so one seed
 * always gives the same params.
 *
 * Header-only (each test links the library and includes this once). The
 * caller owns the params (cz_params_free); a failed setup aborts, as a
 * test fixture may. Not thread-safe against itself: call it from the
 * test's main thread, before the threads under test start.
 */
#ifndef CUZK_TESTS_TOY_PARAMS_H
#define CUZK_TESTS_TOY_PARAMS_H

#include <stdint.h>
#include <stdlib.h>

#include "circuits/registry.h"
#include "groth16/params.h"
#include "groth16/setup.h"

static cz_params_t *cz_test_toy_params(uint64_t seed)
{
    cz_ctx_t *ctx = NULL;
    cz_circuit_t c;
    cz_setup_toxic_t toxic;
    cz_params_t *params = NULL;
    if (cz_ctx_new(&ctx, NULL, 2) != CZ_OK || cz_circuit_parse(ctx, "toy", &c) != CZ_OK)
        abort();
    cz_setup_toxic_from_seed(&toxic, seed);
    if (cz_setup(ctx, &params, cz_circuit_body, &c, &toxic, NULL) != CZ_OK)
        abort();
    cz_setup_toxic_scrub(&toxic);
    cz_ctx_free(ctx);
    return params;
}

/* The toy params of |seed| written to |path|. */
static void cz_test_write_toy_params(const char *path, uint64_t seed)
{
    cz_ctx_t *ctx = NULL;
    cz_params_t *params = cz_test_toy_params(seed);
    if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK || cz_params_write(ctx, path, params) != CZ_OK)
        abort();
    cz_params_free(params);
    cz_ctx_free(ctx);
}

#endif /* CUZK_TESTS_TOY_PARAMS_H */
