/*
 * tests/kinds/snap/common.h — a 2KiB SnapDeals update made in the test: a random
 * CC replica, data and comm_c, encoded (kinds/snap/encode.h); partition 0.
 */
#ifndef CUZK_TESTS_KINDS_SNAP_COMMON_H
#define CUZK_TESTS_KINDS_SNAP_COMMON_H

#include <string.h>

#include "kinds/snap/encode.h"

static void tu_random_fr32(cz_fr *out, cz_rng *rng)
{
    uint8_t b[32];
    for (int i = 0; i < 4; i++) {
        uint64_t x = cz_rng_next(rng);
        memcpy(b + 8 * i, &x, 8);
    }
    b[31] &= 0x3f;
    cz_fr_from_repr(out, b);
}

static int tu_make_2kib(cz_snap_input_t *in, cz_snap_sector_t *s, uint64_t seed)
{
    cz_snap_params_t p;
    cz_snap_params_sector(&p, 2048);
    cz_fr old[64], data[64], comm_c;
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    for (int i = 0; i < 64; i++) {
        tu_random_fr32(&old[i], &rng);
        tu_random_fr32(&data[i], &rng);
    }
    tu_random_fr32(&comm_c, &rng);
    int rc = cz_snap_sector_encode(NULL, s, &p, &comm_c, old, data, 0);
    if (!rc)
        rc = cz_snap_input_alloc(in, &p);
    if (!rc)
        rc = cz_snap_sector_partition(s, 0, in);
    return rc;
}

#endif
