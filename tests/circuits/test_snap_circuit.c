/*
 * tests/circuits/test_snap_circuit.c — the SnapDeals EmptySectorUpdate
 * partition circuit (circuits/snap).
 *
 * - RFP fingerprint: 2KiB = 1,705,039 constraints (rust-fil-proofs
 *   storage-proofs-update/tests/circuit.rs test_empty_sector_update_
 *   circuit_2kib), 5 inputs with ONE; the 8MiB count cuzk records.
 *   (32GiB = 81,049,499 = RFP's test_empty_sector_update_constraints_32gib:
 *   test_snap_shape_32g, label slow.)
 * - The challenge derivation against RFP's hard-coded vectors
 *   (storage-proofs-update/src/challenges.rs test_challenges_against_
 *   hardcoded: comm_r_new = the first Fr of XorShiftRng(TEST_SEED)): pins the
 *   randomness Poseidon's domain tag (2^40) and the bit slicing.
 * - A 2KiB update encoded here (random CC replica, data and comm_c): the
 *   native check passes, CHECK mode is satisfied, the circuit's inputs equal
 *   cz_snap_public_inputs; a tampered leaf, comm_r_new or h is caught by
 *   the native check and by CHECK.
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/snap/snap.h"
#include "cz_test.h"
#include "kinds/snap/common.h"
#include "kinds/snap/encode.h"

static size_t constraints_of(uint64_t bytes, size_t *inputs)
{
    cz_snap_params_t p;
    cz_cs_t *cs;
    if (cz_snap_params_sector(&p, bytes) || cz_cs_new(&cs, NULL, CZ_CS_SHAPE))
        return 0;
    size_t n = 0;
    if (!cz_snap_circuit(cs, &p, NULL) && !cz_cs_finish(cs)) {
        n = cz_cs_num_constraints(cs);
        *inputs = cz_cs_num_inputs(cs);
    }
    cz_cs_free(cs);
    return n;
}

CZ_TEST(shape_matches_rfp)
{
    size_t inputs = 0;
    CHECK_EQ_U64(constraints_of(2048, &inputs), 1705039);
    CHECK_EQ_U64(inputs, 5);
    CHECK_EQ_U64(constraints_of(8ull << 20, &inputs), 10007503);
    CHECK_EQ_U64(inputs, 5);
    cz_snap_params_t p;
    CHECK(cz_snap_params_sector(&p, 4096) == CZ_EINVAL);
    CHECK_OK(cz_snap_params_sector(&p, 32ull << 30));
    CHECK_EQ_INT(p.partitions, 16);
    CHECK_EQ_INT(p.challenges, 86);
    CHECK_EQ_INT(p.h, 10);
    CHECK_EQ_U64(cz_snap_r_path_len(&p), 9 * 7 + 7);
}

/* rand_xorshift XorShiftRng (xorshift128, u64 = two u32, low first) and
 * blstrs Scalar::random (blstrs src/scalar.rs: 4 u64 little-endian, the top
 * bit masked, rejected until below r). */
typedef struct {
    uint32_t x, y, z, w;
} xorshift_t;

static uint32_t xs_next(xorshift_t *r)
{
    uint32_t t = r->x ^ (r->x << 11);
    r->x = r->y;
    r->y = r->z;
    r->z = r->w;
    r->w = r->w ^ (r->w >> 19) ^ (t ^ (t >> 8));
    return r->w;
}

static void fr_random_rfp(cz_fr *out, xorshift_t *r)
{
    for (;;) {
        uint8_t bytes[32];
        for (int i = 0; i < 4; i++) {
            uint64_t lo = xs_next(r), hi = xs_next(r), v = (hi << 32) | lo;
            memcpy(bytes + 8 * i, &v, 8);
        }
        bytes[31] &= 0x7f;
        if (cz_fr_from_repr(out, bytes) == CZ_OK)
            return;
    }
}

CZ_TEST(challenges_match_rfp_vectors)
{
    /* storage-proofs-core TEST_SEED */
    static const uint8_t seed[16] = { 0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                      0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5 };
    xorshift_t r;
    memcpy(&r, seed, 16);
    cz_fr comm_r_new;
    fr_random_rfp(&comm_r_new, &r);
    static const struct {
        uint64_t bytes;
        unsigned k;
        uint64_t c[5];
    } v[] = {
        { 2048, 0, { 53, 51, 56, 3, 0 } },
        { 8ull << 20, 0, { 36085, 32783, 44060, 10950, 3731 } },
        { 8ull << 20, 1, { 78878, 130797, 112892, 93994, 78379 } },
        { 512ull << 20, 15, { 16388544, 15794686, 16637142, 16319148, 16328348 } },
        { 32ull << 30, 0, { 1019125, 27985696, 15282860, 11586600, 44651330 } },
        { 32ull << 30, 14, { 990420169, 955146989, 968005601, 976863263, 944650706 } },
        { 64ull << 30, 15, { 2045262457, 2036941247, 2136653521, 2091356007, 2147167623 } },
    };
    for (size_t t = 0; t < sizeof v / sizeof v[0]; t++) {
        cz_snap_params_t p;
        uint64_t c[86];
        REQUIRE(cz_snap_params_sector(&p, v[t].bytes) == CZ_OK);
        CHECK_OK(cz_snap_challenges(&p, &comm_r_new, v[t].k, c));
        for (int i = 0; i < 5; i++)
            CHECK_EQ_U64(c[i], v[t].c[i]);
    }
}

/* ---- a 2KiB update made here ---------------------------------------------------- */

/* tu_make_2kib and tu_random_fr32: tests/kinds/snap/common.h */

static int check_mode(const cz_snap_input_t *in, cz_fr *inputs_out)
{
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, NULL, CZ_CS_CHECK);
    if (rc)
        return rc;
    rc = cz_snap_circuit(cs, &in->params, in);
    if (!rc)
        rc = cz_cs_finish(cs);
    if (!rc && inputs_out)
        memcpy(inputs_out, cz_cs_inputs(cs) + 1, 4 * sizeof(cz_fr));
    cz_cs_free(cs);
    return rc;
}

CZ_TEST(snap_2kib_satisfied)
{
    cz_snap_input_t in;
    cz_snap_sector_t s;
    REQUIRE(tu_make_2kib(&in, &s, 5) == CZ_OK);
    CHECK_OK(cz_snap_input_check(NULL, &in));
    cz_fr got[4], want[4];
    CHECK_OK(check_mode(&in, got));
    CHECK_OK(cz_snap_public_inputs(&in.params, 0, in.h, &s.comm_r_old, &s.comm_d_new, &s.comm_r_new,
                                   want));
    CHECK_MEM_EQ(got, want, sizeof got);
    cz_snap_input_free(&in);
    cz_snap_sector_free(&s);
}

CZ_TEST(snap_2kib_tampered)
{
    cz_snap_input_t in;
    cz_snap_sector_t s;
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    REQUIRE(tu_make_2kib(&in, &s, 9) == CZ_OK);

    cz_fr keep = in.ch[3].leaf_r_new, one = CZ_FR_ONE;
    cz_fr_add(&in.ch[3].leaf_r_new, &in.ch[3].leaf_r_new, &one);
    CHECK(cz_snap_input_check(ctx, &in) == CZ_EUNSAT);
    CHECK(strstr(cz_ctx_message(ctx), "challenge 3") != NULL);
    in.ch[3].leaf_r_new = keep;

    /* leaf_d_new changes the encoding: the circuit's tree_r_new root differs */
    keep = in.ch[2].leaf_d_new;
    cz_fr_add(&in.ch[2].leaf_d_new, &in.ch[2].leaf_d_new, &one);
    CHECK(cz_snap_input_check(ctx, &in) == CZ_EUNSAT);
    CHECK(check_mode(&in, NULL) == CZ_EUNSAT);
    in.ch[2].leaf_d_new = keep;

    keep = in.comm_r_new;
    cz_fr_add(&in.comm_r_new, &in.comm_r_new, &one);
    CHECK(cz_snap_input_check(ctx, &in) == CZ_EUNSAT);
    CHECK(check_mode(&in, NULL) == CZ_EUNSAT);
    in.comm_r_new = keep;

    keep = in.comm_d_new;
    cz_fr_add(&in.comm_d_new, &in.comm_d_new, &one);
    CHECK(check_mode(&in, NULL) == CZ_EUNSAT);
    in.comm_d_new = keep;

    /* an apex leaf no challenge passes through still changes the apex root */
    keep = in.apex_leaves[5];
    cz_fr_add(&in.apex_leaves[5], &in.apex_leaves[5], &one);
    CHECK(cz_snap_input_check(ctx, &in) == CZ_EUNSAT);
    in.apex_leaves[5] = keep;

    CHECK_OK(cz_snap_input_check(ctx, &in));
    CHECK_OK(check_mode(&in, NULL));
    cz_snap_input_free(&in);
    cz_snap_sector_free(&s);
    cz_ctx_free(ctx);
}

#ifdef CZ_SNAP_8M
/* 8MiB: 4 partitions, h = 10 of [7..12], 128 apex leaves, 2 partition bits:
 * partition 2's input is satisfied in CHECK mode and its public inputs are
 * the ones the public values give (k_and_h_select = 2 | 8 << 2). */
CZ_TEST(snap_8mib_partition_2_satisfied)
{
    cz_snap_params_t p;
    REQUIRE(cz_snap_params_sector(&p, 8ull << 20) == CZ_OK);
    cz_fr *old = malloc(p.nodes * sizeof *old), *data = malloc(p.nodes * sizeof *data), comm_c;
    REQUIRE(old && data);
    cz_rng rng;
    cz_rng_seed(&rng, 8);
    for (uint64_t i = 0; i < p.nodes; i++) {
        tu_random_fr32(&old[i], &rng);
        tu_random_fr32(&data[i], &rng);
    }
    tu_random_fr32(&comm_c, &rng);
    cz_snap_sector_t s;
    cz_snap_input_t in;
    REQUIRE(cz_snap_sector_encode(NULL, &s, &p, &comm_c, old, data, 0) == CZ_OK);
    REQUIRE(cz_snap_input_alloc(&in, &p) == CZ_OK);
    REQUIRE(cz_snap_sector_partition(&s, 2, &in) == CZ_OK);
    CHECK_OK(cz_snap_input_check(NULL, &in));
    cz_fr got[4], want[4], khs;
    CHECK_OK(check_mode(&in, got));
    CHECK_OK(cz_snap_public_inputs(&p, 2, 10, &s.comm_r_old, &s.comm_d_new, &s.comm_r_new, want));
    CHECK_MEM_EQ(got, want, sizeof got);
    cz_fr_from_u64(&khs, 2 | (8 << 2));
    CHECK(cz_fr_eq(&got[0], &khs));
    cz_snap_input_free(&in);
    cz_snap_sector_free(&s);
    free(old);
    free(data);
}
#endif

CZ_TEST_MAIN()
