/*
 * tests/kinds/snap/test_snap_prove.c — a 2KiB SnapDeals update end to end
 * through the library: Curio's fields (bincode vanilla proofs of an update
 * encoded here, commitments as 32 raw bytes and as CIDs) -> engine job ->
 * proof -> verification from the public values alone (pairing check);
 * tampered commitments do not verify; a request that does not match its
 * vanilla proofs is refused before proving.
 *
 * The seeded 2KiB params (1.7M constraints, PoRep 2KiB's are 2.7M: minutes
 * of setup on 2 cores) are cached in CZ_C2_PARAMS_DIR under their Filecoin
 * names, as the PoRep C2 tests cache theirs (label slow).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend/backend.h"
#include "circuits/registry.h"
#include "common.h"
#include "cz_test.h"
#include "groth16/setup.h"
#include "kinds/snap/job.h"
#include "kinds/snap/vanilla.h"

#define TOXIC_SEED 7

static cz_ctx_t *ctx;
static cz_params_t *params;
static cz_pvk_t *pvk;

static void load_params(void)
{
    if (params)
        return;
    REQUIRE(cz_ctx_new(&ctx, NULL, 0) == CZ_OK);
    cz_snap_params_t p;
    cz_params_shape_t shape;
    size_t rows;
    char name[256], path[1024], vkpath[1024];
    REQUIRE(cz_snap_params_sector(&p, 2048) == CZ_OK);
    REQUIRE(cz_snap_shape(ctx, &p, &shape, &rows) == CZ_OK);
    CHECK_OK(cz_snap_params_filename(name, sizeof name, &p, "params"));
    CHECK_EQ_STR(name, "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
                       "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.params");
    snprintf(path, sizeof path, "%s/%s", CZ_C2_PARAMS_DIR, name);
    CHECK_OK(cz_snap_params_filename(name, sizeof name, &p, "vk"));
    snprintf(vkpath, sizeof vkpath, "%s/%s", CZ_C2_PARAMS_DIR, name);
    cz_params_opts_t opts = { .expect = &shape };
    if (cz_params_load(ctx, &params, path, &opts) != CZ_OK) {
        printf("generating 2KiB snap test params (seeded, cached in %s)...\n", CZ_C2_PARAMS_DIR);
        fflush(stdout);
        mkdir(CZ_C2_PARAMS_DIR, 0755);
        cz_circuit_t circuit;
        CHECK_OK(cz_circuit_parse(ctx, "snap:2KiB", &circuit));
        cz_setup_toxic_t toxic;
        cz_setup_toxic_from_seed(&toxic, TOXIC_SEED);
        CHECK_OK(cz_setup(ctx, &params, cz_circuit_body, &circuit, &toxic, NULL));
        cz_setup_toxic_scrub(&toxic);
        if (params) {
            CHECK_OK(cz_params_write(ctx, path, params));
            CHECK_OK(cz_vk_write(ctx, vkpath, &params->vk));
        }
    }
    REQUIRE(params != NULL);
    CHECK_OK(cz_pvk_new(ctx, &pvk, &params->vk));
}

typedef struct {
    uint8_t comm_r_old[32], comm_r_new[32], comm_d_new[32];
    uint8_t *proof;
    size_t len;
} request_t;

static void make_request(request_t *r, uint64_t seed)
{
    cz_snap_input_t in;
    cz_snap_sector_t s;
    REQUIRE(tu_make_2kib(&in, &s, seed) == CZ_OK);
    cz_fr_to_repr(r->comm_r_old, &s.comm_r_old);
    cz_fr_to_repr(r->comm_r_new, &s.comm_r_new);
    cz_fr_to_repr(r->comm_d_new, &s.comm_d_new);
    r->len = cz_snap_vanilla_size(&in.params);
    r->proof = malloc(r->len);
    REQUIRE(r->proof && cz_snap_vanilla_encode(&in, r->proof, r->len) == CZ_OK);
    cz_snap_input_free(&in);
    cz_snap_sector_free(&s);
}

/* Curio's fields through a fresh engine: the job's state, the proof. */
static int prove(const request_t *r, const uint8_t *old, size_t old_len, uint8_t **proof,
                 size_t *len)
{
    cz_snap_job_t job;
    const uint8_t *vp[1] = { r->proof };
    int rc = cz_snap_job_from_curio(ctx, &job, 0, old, old_len, r->comm_r_new, 32, r->comm_d_new,
                                    32, vp, &r->len, 1, params, pvk);
    if (rc)
        return rc;
    cz_backend_t *be = NULL;
    cz_engine_t *e = NULL;
    cz_job_info_t info;
    memset(&info, 0, sizeof info);
    CHECK_OK(cz_cpu_backend_new(&be, 0));
    cz_engine_config_t cfg = { .backends = &be,
                               .num_devices = 1,
                               .workers_per_device = 1,
                               .pool = cz_ctx_pool(ctx) };
    CHECK_OK(cz_engine_new(ctx, &e, &cfg));
    uint64_t id = 0;
    if (e && (rc = cz_engine_submit(e, NULL, &job.spec, &id)) == CZ_OK) {
        CHECK_OK(cz_engine_wait(e, id, -1, &info));
        rc = info.state == CZ_JOB_DONE ? cz_engine_proof(e, id, proof, len)
                                       : (info.error ? info.error : CZ_EINTERNAL);
    }
    cz_engine_free(e);
    cz_backend_free(be);
    cz_snap_job_clear(&job);
    return rc;
}

CZ_TEST(snap_2kib_proves_and_verifies)
{
    load_params();
    request_t r;
    make_request(&r, 11);
    /* comm_r_old as Curio's ProveUpdateCuzk sends it (cid.Bytes()): CIDv1,
     * codec 0xf102 (varint 82 e2 03), multihash 0xb401 (81 e8 02), 32 */
    uint8_t raw_cid[8 + 32] = { 0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20 };
    memcpy(raw_cid + 8, r.comm_r_old, 32);

    uint8_t *proof = NULL;
    size_t len = 0;
    CHECK_OK(prove(&r, raw_cid, sizeof raw_cid, &proof, &len));
    CHECK_EQ_U64(len, 192);

    cz_snap_public_t pub = { 0 };
    memcpy(pub.comm_r_old, r.comm_r_old, 32);
    memcpy(pub.comm_r_new, r.comm_r_new, 32);
    memcpy(pub.comm_d_new, r.comm_d_new, 32);
    CHECK_OK(cz_snap_verify(ctx, pvk, proof, len, &pub));

    /* tampered commitments: the pairing check fails */
    uint8_t *fields[3] = { pub.comm_r_old, pub.comm_r_new, pub.comm_d_new };
    for (int i = 0; i < 3; i++) {
        fields[i][0] ^= 1;
        CHECK_EQ_INT(cz_snap_verify(ctx, pvk, proof, len, &pub), CZ_EVERIFY);
        fields[i][0] ^= 1;
    }
    pub.registered_proof = 3; /* a 32GiB proof wants 16 partitions */
    CHECK_EQ_INT(cz_snap_verify(ctx, pvk, proof, len, &pub), CZ_EFORMAT);
    pub.registered_proof = 0;
    CHECK_OK(cz_snap_verify(ctx, pvk, proof, len, &pub));
    free(proof);

    /* a request whose comm_r_new is not its vanilla proofs': refused up front */
    r.comm_r_new[0] ^= 1;
    proof = NULL;
    CHECK_EQ_INT(prove(&r, r.comm_r_old, 32, &proof, &len), CZ_EUNSAT);
    CHECK(strstr(cz_ctx_message(ctx), "vanilla_proofs[0]") != NULL);
    CHECK(proof == NULL);
    free(r.proof);
}

CZ_TEST(curio_fields_refused_early)
{
    if (!ctx)
        REQUIRE(cz_ctx_new(&ctx, NULL, 0) == CZ_OK);
    request_t r;
    make_request(&r, 12);
    cz_snap_job_t job;
    const uint8_t *vp[1] = { r.proof };
    CHECK_EQ_INT(cz_snap_job_from_curio(ctx, &job, 7, r.comm_r_old, 32, r.comm_r_new, 32,
                                        r.comm_d_new, 32, vp, &r.len, 1, NULL, NULL),
                 CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "registered_proof 7") != NULL);
    CHECK_EQ_INT(cz_snap_job_from_curio(ctx, &job, 0, r.comm_r_old, 31, r.comm_r_new, 32,
                                        r.comm_d_new, 32, vp, &r.len, 1, NULL, NULL),
                 CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "comm_r_old") != NULL);
    CHECK_EQ_INT(cz_snap_job_from_curio(ctx, &job, 1, r.comm_r_old, 32, r.comm_r_new, 32,
                                        r.comm_d_new, 32, vp, &r.len, 1, NULL, NULL),
                 CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "4 partitions") != NULL);
    size_t short_len = r.len - 1;
    CHECK_EQ_INT(cz_snap_job_from_curio(ctx, &job, 0, r.comm_r_old, 32, r.comm_r_new, 32,
                                        r.comm_d_new, 32, vp, &short_len, 1, NULL, NULL),
                 CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "vanilla_proofs[0]: snap vanilla proof:") != NULL);
    r.comm_d_new[1] ^= 1;
    CHECK_EQ_INT(cz_snap_job_from_curio(ctx, &job, 0, r.comm_r_old, 32, r.comm_r_new, 32,
                                        r.comm_d_new, 32, vp, &r.len, 1, NULL, NULL),
                 CZ_EUNSAT);
    CHECK(strstr(cz_ctx_message(ctx), "comm_d_new") != NULL);
    r.comm_d_new[1] ^= 1;
    CHECK_OK(cz_snap_job_from_curio(ctx, &job, 0, r.comm_r_old, 32, r.comm_r_new, 32, r.comm_d_new,
                                    32, vp, &r.len, 1, NULL, NULL));
    CHECK_EQ_U64(job.rows, 1705044);
    cz_snap_job_clear(&job);
    free(r.proof);
}

CZ_TEST(shapes_cache_serves_the_same_shape)
{
    if (!ctx)
        REQUIRE(cz_ctx_new(&ctx, NULL, 0) == CZ_OK);
    request_t r;
    make_request(&r, 13);
    cz_shape_cache_t *cache;
    REQUIRE(cz_snap_shapes_new(&cache) == CZ_OK);
    const uint8_t *vp[1] = { r.proof };
    cz_snap_job_t a, b, c;
    CHECK_OK(cz_snap_job_from_curio(ctx, &a, 0, r.comm_r_old, 32, r.comm_r_new, 32, r.comm_d_new,
                                    32, vp, &r.len, 1, NULL, NULL));
    for (int i = 0; i < 2; i++) { /* a miss, then a hit */
        CHECK_OK(cz_snap_job_from_curio_cached(ctx, i ? &c : &b, 0, r.comm_r_old, 32, r.comm_r_new,
                                               32, r.comm_d_new, 32, vp, &r.len, 1, NULL, NULL,
                                               cache));
    }
    CHECK_MEM_EQ(&a.shape, &b.shape, sizeof a.shape);
    CHECK_MEM_EQ(&a.shape, &c.shape, sizeof a.shape);
    CHECK_EQ_U64(c.rows, a.rows);
    CHECK_EQ_U64(c.spec.partition_bytes, a.spec.partition_bytes);
    size_t hits, lookups;
    cz_shape_cache_stats(cache, &hits, &lookups);
    CHECK_EQ_U64(lookups, 2);
    CHECK_EQ_U64(hits, 1);
    cz_snap_job_clear(&a);
    cz_snap_job_clear(&b);
    cz_snap_job_clear(&c);
    cz_shape_cache_free(cache);
    free(r.proof);
}

CZ_TEST_MAIN()
