/*
 * tests/cz_setup_params.h — seeded TEST params and vk of a registry
 * circuit ("toy", "bench:N") written to two paths through the public API
 * (cz_setup_test_params), for the tests that drive cuzk.h alone.
 *
 * Header-only. A failed setup prints the library's message and aborts, as
 * a test fixture may. Reentrant (each call its own pool of 2 threads).
 */
#ifndef CUZK_TESTS_SETUP_PARAMS_H
#define CUZK_TESTS_SETUP_PARAMS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuzk.h"

static void cz_test_setup_params(const char *circuit, uint64_t seed, const char *params_path,
                                 const char *vk_path)
{
    cz_setup_request_t req;
    cz_setup_request_init(&req);
    req.circuit = circuit;
    req.params_path = params_path;
    req.vk_path = vk_path;
    req.seeded = true;
    req.seed = seed;
    req.threads = 2;
    cz_error_t err;
    if (cz_setup_test_params(&req, NULL, &err) != CZ_OK) {
        fprintf(stderr, "cz_setup_test_params(%s): %s\n", circuit, err.message);
        abort();
    }
}

#endif /* CUZK_TESTS_SETUP_PARAMS_H */
