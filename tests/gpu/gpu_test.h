/*
 * tests/gpu/gpu_test.h — shared by the GPU tests: skip (exit 77) with the
 * probe's reason when no usable CUDA device exists.
 */
#ifndef CUZK_TESTS_GPU_TEST_H
#define CUZK_TESTS_GPU_TEST_H

#include <stdio.h>

#include "backend/cuda/cuda.h"
#include "cz_test.h"

/* Returns 1 when a device is usable; otherwise marks the program skipped. */
static int gpu_or_skip(void)
{
    char why[256], msg[300];
    if (cz_cuda_probe(why, sizeof why) == CZ_OK) {
        static int said;
        if (!said++)
            printf("device: %s\n", why);
        return 1;
    }
    snprintf(msg, sizeof msg, "no CUDA device: %s", why);
    cz_skip(msg);
    return 0;
}

#endif /* CUZK_TESTS_GPU_TEST_H */
