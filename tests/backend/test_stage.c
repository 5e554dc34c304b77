/*
 * tests/backend/test_stage.c — backend staging (backend.h ops->stage /
 * unstage, groth16 cz_g16_stage) without a GPU: a test backend wraps the CPU
 * backend and stages a and b into buffers of its own, as the CUDA backend
 * does with pinned memory. Checked: the same proof bytes as the plain CPU
 * backend; the device region sees the staged copies; every staged buffer
 * is given back (in the region, or by unstage when a partition is freed
 * before it); through the engine with two workers; a staging failure fails
 * the job with its message and the engine keeps serving. The splits too
 * (ops->stage_tails, by prep): offered once built, before the region, which
 * finds copies equal to them; every copy given back by the release.
 * Pinning (ops->pin / unpin): where stage has no room, a and b are pinned
 * where they are, the region sees them pinned, and unpin comes before they
 * are freed (it reads them: ASan's CI run catches an unpin after the free),
 * single partitions and through the engine.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "circuits/registry.h"
#include "core/pool.h"
#include "engine/engine.h"
#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "cz_test.h"

typedef struct {
    cz_backend_t base;
    cz_backend_t *cpu;
    atomic_int staged, released, regions, regions_on_copies;
    atomic_int tails_staged, tails_released, regions_on_tail_copies;
    atomic_bool fail_stage, no_tail_room;
    atomic_bool no_slot; /* stage copies nothing: a and b stay the partition's (then pinned) */
    atomic_int pinned, unpinned, regions_on_pinned;
} stage_backend_t;

/* The test backend's copies of the three splits (its "device memory"). */
typedef struct {
    cz_scalar_split s[3];
} tail_copies;

static bool copy_split(cz_scalar_split *dst, const cz_scalar_split *src)
{
    *dst = *src;
    const size_t words = (src->n + 63) / 64;
    dst->ones = malloc(words * 8 + 1);
    dst->sig_index = malloc(src->n_sig * 4 + 1);
    dst->sig_scalar = malloc(src->n_sig * 32 + 1);
    if (!dst->ones || !dst->sig_index || !dst->sig_scalar)
        return false;
    memcpy(dst->ones, src->ones, words * 8);
    memcpy(dst->sig_index, src->sig_index, src->n_sig * 4);
    memcpy(dst->sig_scalar, src->sig_scalar, src->n_sig * 32);
    return true;
}

static bool same_split(const cz_scalar_split *a, const cz_scalar_split *b)
{
    return a->n == b->n && a->n_sig == b->n_sig && a->n_ones == b->n_ones &&
           memcmp(a->ones, b->ones, (a->n + 63) / 64 * 8) == 0 &&
           memcmp(a->sig_index, b->sig_index, a->n_sig * 4) == 0 &&
           memcmp(a->sig_scalar, b->sig_scalar, a->n_sig * 32) == 0;
}

static void sb_stage_tails(cz_backend_t *be, cz_prove_work_t *w)
{
    stage_backend_t *sb = (stage_backend_t *)be;
    if (atomic_load(&sb->no_tail_room))
        return; /* a miss: the region reads the host splits */
    tail_copies *t = calloc(1, sizeof *t);
    const cz_scalar_split *src[3] = { w->l_split, w->a_split, w->b_split };
    bool ok = t != NULL;
    for (int k = 0; k < 3 && ok; k++)
        ok = copy_split(&t->s[k], src[k]);
    if (!ok) {
        for (int k = 0; t && k < 3; k++)
            cz_scalar_split_free(&t->s[k]);
        free(t);
        return;
    }
    w->tails_staged = t;
    atomic_fetch_add(&sb->tails_staged, 1);
}

static void sb_unstage_tails(cz_backend_t *be, cz_prove_work_t *w)
{
    stage_backend_t *sb = (stage_backend_t *)be;
    tail_copies *t = w->tails_staged;
    if (!t)
        return;
    for (int k = 0; k < 3; k++)
        cz_scalar_split_free(&t->s[k]);
    free(t);
    w->tails_staged = NULL;
    atomic_fetch_add(&sb->tails_released, 1);
}

static void give_back(stage_backend_t *sb, cz_prove_work_t *w)
{
    if (!w->staged)
        return;
    free(w->staged);
    w->staged = NULL;
    atomic_fetch_add(&sb->released, 1);
}

static int sb_stage(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *w)
{
    stage_backend_t *sb = (stage_backend_t *)be;
    if (atomic_load(&sb->fail_stage))
        return cz_fail(ctx, CZ_ENOMEM, "stage test: injected staging failure");
    if (atomic_load(&sb->no_slot))
        return CZ_OK;
    const size_t m = (size_t)1 << w->log_m;
    cz_fr *mem = malloc(2 * m * sizeof *mem);
    if (!mem)
        return cz_fail(ctx, CZ_ENOMEM, "stage test: buffer");
    /* the region must not depend on what lies past the rows: poison it */
    memset(mem, 0x5a, 2 * m * sizeof *mem);
    cz_pool_memcpy(cz_ctx_pool(ctx), mem, w->a, w->rows * sizeof *mem);
    cz_pool_memcpy(cz_ctx_pool(ctx), mem + m, w->b, w->rows * sizeof *mem);
    w->a = mem;
    w->b = mem + m;
    w->staged = mem;
    atomic_fetch_add(&sb->staged, 1);
    return CZ_OK;
}

static void sb_unstage(cz_backend_t *be, cz_prove_work_t *w)
{
    give_back((stage_backend_t *)be, w);
}

static void sb_pin(cz_backend_t *be, cz_prove_work_t *w)
{
    stage_backend_t *sb = (stage_backend_t *)be;
    if (w->staged) /* the prover pins only what stage left in host memory */
        abort();
    w->pinned = true;
    atomic_fetch_add(&sb->pinned, 1);
}

/* Reads every row of a and b, as cudaHostUnregister touches their pages: after a free,
 * a use-after-free (ASan). */
static void sb_unpin(cz_backend_t *be, cz_prove_work_t *w)
{
    stage_backend_t *sb = (stage_backend_t *)be;
    volatile uint8_t sum = 0;
    const uint8_t *a = (const uint8_t *)w->a, *b = (const uint8_t *)w->b;
    for (size_t i = 0; i < w->rows * sizeof(cz_fr); i++)
        sum ^= a[i] ^ b[i];
    (void)sum;
    w->pinned = false;
    atomic_fetch_add(&sb->unpinned, 1);
}

static int sb_device(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *w)
{
    stage_backend_t *sb = (stage_backend_t *)be;
    atomic_fetch_add(&sb->regions, 1);
    if (w->staged && w->a == (cz_fr *)w->staged)
        atomic_fetch_add(&sb->regions_on_copies, 1);
    if (w->pinned)
        atomic_fetch_add(&sb->regions_on_pinned, 1);
    /* as the CUDA backend: the split copies are read after the wait for prep (its permit
     * is put back for the wrapped CPU backend's own wait) */
    cz_latch_post(w->prep_done, cz_latch_wait(w->prep_done));
    const tail_copies *t = w->tails_staged;
    if (t && same_split(&t->s[0], w->l_split) && same_split(&t->s[1], w->a_split) &&
        same_split(&t->s[2], w->b_split))
        atomic_fetch_add(&sb->regions_on_tail_copies, 1);
    /* the poisoned tail past the rows is padded by the backend (cpu h.c, the GPU upload) */
    int rc = sb->cpu->ops->device(sb->cpu, ctx, w);
    give_back(sb, w); /* as the CUDA backend: the slot goes back when the region ends */
    return rc;
}

static void sb_free(cz_backend_t *be)
{
    stage_backend_t *sb = (stage_backend_t *)be;
    cz_backend_free(sb->cpu);
    free(sb);
}

static const cz_backend_ops_t sb_ops = {
    .name = "stage-test",
    .device = sb_device,
    .free = sb_free,
    .stage = sb_stage,
    .unstage = sb_unstage,
    .stage_tails = sb_stage_tails,
    .unstage_tails = sb_unstage_tails,
    .pin = sb_pin,
    .unpin = sb_unpin,
};

static stage_backend_t *sb_new(void)
{
    stage_backend_t *sb = calloc(1, sizeof *sb);
    sb->base.ops = &sb_ops;
    if (cz_cpu_backend_new(&sb->cpu, 0) != CZ_OK)
        abort();
    return sb;
}

/* ---- fixture: bench:2000 params (seeded setup), once per process ---------------- */

static cz_ctx_t *ctx;
static cz_circuit_t circuit;
static cz_params_t *params;
static cz_pvk_t *pvk;

static void setup_once(void)
{
    if (params)
        return;
    cz_ctx_new(&ctx, NULL, 2);
    cz_circuit_parse(NULL, "bench:2000", &circuit);
    cz_setup_toxic_t toxic;
    cz_setup_toxic_from_seed(&toxic, 11);
    if (cz_setup(ctx, &params, cz_circuit_body, &circuit, &toxic, NULL) != CZ_OK ||
        cz_pvk_new(ctx, &pvk, &params->vk) != CZ_OK)
        abort();
    cz_setup_toxic_scrub(&toxic);
}

static void teardown(void) __attribute__((destructor));
static void teardown(void)
{
    cz_pvk_free(pvk);
    cz_params_free(params);
    cz_ctx_free(ctx);
}

static int prove(cz_backend_t *be, uint64_t seed, uint8_t out[CZ_PROOF_BYTES])
{
    cz_cs_witness_t w;
    int rc = cz_circuit_witness(ctx, &circuit, seed, &w);
    cz_fr r, s;
    cz_fr_from_u64(&r, 3 + seed);
    cz_fr_from_u64(&s, 5 + seed);
    cz_proof_t proof;
    if (rc == CZ_OK)
        rc = cz_g16_prove(ctx, be, params, &w, &r, &s, &proof, NULL);
    if (rc == CZ_OK)
        cz_proof_encode(out, &proof);
    return rc;
}

CZ_TEST(staged_proof_has_the_cpu_bytes)
{
    setup_once();
    stage_backend_t *sb = sb_new();
    for (uint64_t seed = 1; seed <= 2; seed++) {
        uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
        CHECK_OK(prove(sb->cpu, seed, want));
        CHECK_OK(prove(&sb->base, seed, got));
        CHECK(memcmp(want, got, sizeof want) == 0);
    }
    CHECK_EQ_INT(atomic_load(&sb->staged), 2);
    CHECK_EQ_INT(atomic_load(&sb->regions_on_copies), 2);
    CHECK_EQ_INT(atomic_load(&sb->released), 2);
    CHECK_EQ_INT(atomic_load(&sb->tails_staged), 2);
    CHECK_EQ_INT(atomic_load(&sb->regions_on_tail_copies), 2);
    CHECK_EQ_INT(atomic_load(&sb->tails_released), 2);

    atomic_store(&sb->no_tail_room, true); /* a miss: the same bytes from the host splits */
    uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
    CHECK_OK(prove(sb->cpu, 3, want));
    CHECK_OK(prove(&sb->base, 3, got));
    CHECK(memcmp(want, got, sizeof want) == 0);
    CHECK_EQ_INT(atomic_load(&sb->tails_staged), 2);
    cz_backend_free(&sb->base);
}

/* Staged, then freed without a device region (a canceled job): unstage gives it back. */
CZ_TEST(partition_freed_after_staging_is_unstaged)
{
    setup_once();
    stage_backend_t *sb = sb_new();
    cz_cs_witness_t w;
    REQUIRE(cz_circuit_witness(ctx, &circuit, 9, &w) == CZ_OK);
    cz_g16_partition_t *p = NULL;
    REQUIRE(cz_g16_partition_new(ctx, &p, params, &w, NULL, NULL) == CZ_OK);
    cz_g16_set_backend(p, &sb->base);
    CHECK_OK(cz_g16_prep(ctx, p));
    CHECK_OK(cz_g16_stage(ctx, &sb->base, p));
    CHECK_EQ_INT(atomic_load(&sb->staged), 1);
    CHECK_EQ_INT(atomic_load(&sb->tails_staged), 1);
    cz_g16_partition_free(p);
    CHECK_EQ_INT(atomic_load(&sb->released), 1);
    CHECK_EQ_INT(atomic_load(&sb->tails_released), 1);
    cz_backend_free(&sb->base);
}

/* No room to stage: a and b pinned where they are, for the region; unpinned before freed. */
CZ_TEST(unstaged_partition_pinned_in_place_and_unpinned_before_freed)
{
    setup_once();
    stage_backend_t *sb = sb_new();
    atomic_store(&sb->no_slot, true);
    for (uint64_t seed = 1; seed <= 2; seed++) {
        uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
        CHECK_OK(prove(sb->cpu, seed, want));
        CHECK_OK(prove(&sb->base, seed, got));
        CHECK(memcmp(want, got, sizeof want) == 0);
    }
    CHECK_EQ_INT(atomic_load(&sb->staged), 0);
    CHECK_EQ_INT(atomic_load(&sb->pinned), 2);
    CHECK_EQ_INT(atomic_load(&sb->regions_on_pinned), 2);
    CHECK_EQ_INT(atomic_load(&sb->unpinned), 2);

    /* pinned, then freed without a region (a canceled job): unpinned first */
    cz_cs_witness_t w;
    REQUIRE(cz_circuit_witness(ctx, &circuit, 9, &w) == CZ_OK);
    cz_g16_partition_t *p = NULL;
    REQUIRE(cz_g16_partition_new(ctx, &p, params, &w, NULL, NULL) == CZ_OK);
    CHECK_OK(cz_g16_stage(ctx, &sb->base, p));
    cz_g16_pin(&sb->base, p); /* already pinned: nothing more */
    CHECK_EQ_INT(atomic_load(&sb->pinned), 3);
    cz_g16_partition_free(p);
    CHECK_EQ_INT(atomic_load(&sb->unpinned), 3);

    /* staged partitions are never pinned */
    atomic_store(&sb->no_slot, false);
    uint8_t got[CZ_PROOF_BYTES];
    CHECK_OK(prove(&sb->base, 4, got));
    CHECK_EQ_INT(atomic_load(&sb->pinned), 3);
    cz_backend_free(&sb->base);
}

static int synth(void *arg, size_t partition, cz_ctx_t *c, cz_cs_witness_t *out)
{
    (void)arg;
    return cz_circuit_witness(c, &circuit, 100 + partition, out);
}

static cz_job_info_t run_job(cz_engine_t *e, size_t partitions)
{
    size_t rows, ni, na, pc[3], part_bytes, abc_bytes;
    cz_circuit_shape(ctx, &circuit, &rows, &ni, &na, pc);
    cz_params_shape_t shape = { ni, na, params->n_h + 1, pc[0], pc[1], pc[2] };
    cz_engine_estimate(&shape, rows, &part_bytes, &abc_bytes);
    cz_job_spec_t spec = { .partitions = partitions,
                           .params = params,
                           .pvk = pvk,
                           .partition_bytes = part_bytes,
                           .abc_bytes = abc_bytes,
                           .synthesize = synth };
    uint64_t id = 0;
    cz_job_info_t info;
    memset(&info, 0, sizeof info);
    if (cz_engine_submit(e, NULL, &spec, &id) == CZ_OK)
        cz_engine_wait(e, id, -1, &info);
    return info;
}

CZ_TEST(engine_stages_every_partition_and_survives_a_staging_failure)
{
    setup_once();
    stage_backend_t *sb = sb_new();
    cz_backend_t *devs[1] = { &sb->base };
    cz_engine_config_t cfg = { .backends = devs,
                               .num_devices = 1,
                               .workers_per_device = 2,
                               .synth_workers = 1,
                               .memory_budget = (size_t)2 << 30,
                               .pool = cz_ctx_pool(ctx) };
    cz_engine_t *e = NULL;
    REQUIRE(cz_engine_new(ctx, &e, &cfg) == CZ_OK);

    cz_job_info_t ok = run_job(e, 5); /* verified by the engine (pvk given) */
    CHECK_EQ_INT(ok.state, CZ_JOB_DONE);
    CHECK_EQ_INT(atomic_load(&sb->staged), 5);
    CHECK_EQ_INT(atomic_load(&sb->regions_on_copies), 5);
    CHECK_EQ_INT(atomic_load(&sb->tails_staged), 5);
    CHECK_EQ_INT(atomic_load(&sb->regions_on_tail_copies), 5);

    atomic_store(&sb->fail_stage, true);
    cz_job_info_t bad = run_job(e, 2);
    CHECK_EQ_INT(bad.state, CZ_JOB_FAILED);
    CHECK(strstr(bad.message, "injected staging failure") != NULL);

    atomic_store(&sb->fail_stage, false);
    cz_job_info_t again = run_job(e, 2);
    CHECK_EQ_INT(again.state, CZ_JOB_DONE);

    /* no room to stage: every partition pinned, its a and b unpinned before they go (the
     * early release on the prep thread, while the region may still run) */
    atomic_store(&sb->no_slot, true);
    cz_job_info_t pinned = run_job(e, 4);
    CHECK_EQ_INT(pinned.state, CZ_JOB_DONE);
    CHECK_EQ_INT(atomic_load(&sb->pinned), 4);
    CHECK_EQ_INT(atomic_load(&sb->regions_on_pinned), 4);
    cz_engine_free(e);
    CHECK_EQ_INT(atomic_load(&sb->unpinned), 4);
    CHECK_EQ_INT(atomic_load(&sb->released), atomic_load(&sb->staged));
    CHECK_EQ_INT(atomic_load(&sb->tails_released), atomic_load(&sb->tails_staged));
    cz_backend_free(&sb->base);
}

CZ_TEST_MAIN()
