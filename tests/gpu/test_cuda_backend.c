/*
 * tests/gpu/test_cuda_backend.c — the CUDA backend end to end: for fixed r,
 * s it produces exactly the CPU backend's proof bytes, the proofs verify,
 * resident params are reused across partitions and replaced when another
 * params set comes, the G2-on-CPU option gives the same bytes, a device
 * memory limit too small for the bases falls back to the CPU MSMs with the
 * same bytes, params kept out of host memory go to the device from their
 * source (and stay out of host memory) with the same bytes, and an
 * injected kernel fault is a CZ_EDEVICE error.
 * Labelled gpu; skips without a device.
 */
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "circuits/registry.h"
#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "core/clock.h"
#include "core/fault.h"
#include "gpu_test.h"
#include "groth16/params_mirror.h"

typedef struct {
    cz_ctx_t *ctx;
    cz_circuit_t circuit;
    cz_params_t *params;
    cz_pvk_t *pvk;
} fixture;

/*
 * Arrays of 64 KiB and more get pages of their own (mmap), so that a and b
 * never share a page: cudaHostRegister refuses a page registered twice, and
 * ops->pin then leaves both pageable (correct, only slower). glibc's
 * threshold otherwise grows with the first frees, and two test-sized
 * arrays may share a page; a real partition's (GiBs) never do.
 */
#define OWN_PAGES_FROM (64 << 10)
static void __attribute__((constructor)) arrays_on_own_pages(void)
{
    mallopt(M_MMAP_THRESHOLD, OWN_PAGES_FROM);
}

static int fixture_new(fixture *f, const char *circuit, uint64_t toxic_seed)
{
    memset(f, 0, sizeof *f);
    int rc = cz_ctx_new(&f->ctx, NULL, 0);
    if (rc == CZ_OK)
        rc = cz_circuit_parse(f->ctx, circuit, &f->circuit);
    cz_setup_toxic_t toxic;
    cz_setup_toxic_from_seed(&toxic, toxic_seed);
    if (rc == CZ_OK)
        rc = cz_setup(f->ctx, &f->params, cz_circuit_body, &f->circuit, &toxic, NULL);
    cz_setup_toxic_scrub(&toxic);
    if (rc == CZ_OK)
        rc = cz_pvk_new(f->ctx, &f->pvk, &f->params->vk);
    if (rc)
        fprintf(stderr, "fixture: %s\n", cz_ctx_message(f->ctx));
    return rc;
}

static void fixture_free(fixture *f)
{
    cz_pvk_free(f->pvk);
    cz_params_free(f->params);
    cz_ctx_free(f->ctx);
}

/* Prove witness |seed| on |be| with fixed r, s; verify; serialize; |t| (may be NULL): timings. */
static int prove_timed(fixture *f, cz_backend_t *be, uint64_t seed, uint8_t out[CZ_PROOF_BYTES],
                       cz_g16_timings_t *t)
{
    cz_cs_witness_t w;
    int rc = cz_circuit_witness(f->ctx, &f->circuit, seed, &w);
    if (rc)
        return rc;
    size_t n_in = w.num_inputs - 1;
    cz_fr *in = malloc((n_in + 1) * sizeof *in);
    memcpy(in, w.input + 1, n_in * sizeof *in);
    cz_fr r, s;
    cz_fr_from_u64(&r, 1000 + seed);
    cz_fr_from_u64(&s, 2000 + seed);
    cz_proof_t proof;
    rc = cz_g16_prove(f->ctx, be, f->params, &w, &r, &s, &proof, t);
    if (rc == CZ_OK)
        rc = cz_verify(f->ctx, f->pvk, &proof, in, n_in);
    if (rc == CZ_OK)
        cz_proof_encode(out, &proof);
    else
        fprintf(stderr, "prove (%s): %s\n", be->ops->name, cz_ctx_message(f->ctx));
    free(in);
    return rc;
}

static int prove_bytes(fixture *f, cz_backend_t *be, uint64_t seed, uint8_t out[CZ_PROOF_BYTES])
{
    return prove_timed(f, be, seed, out, NULL);
}

/* As same_bytes_as_cpu, with the CUDA backend's report after the proofs in *report. */
static void same_bytes_as_cpu_report(const char *circuit, const cz_cuda_backend_opts_t *opts,
                                     int seeds, cz_backend_report *report)
{
    fixture f;
    REQUIRE(fixture_new(&f, circuit, 3) == CZ_OK);
    cz_backend_t *cpu = NULL, *gpu = NULL;
    CHECK_OK(cz_cpu_backend_new(&cpu, 0));
    CHECK_OK(cz_cuda_backend_new(f.ctx, &gpu, 0, opts));
    for (int seed = 0; seed < seeds && gpu; seed++) {
        uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
        CHECK_OK(prove_bytes(&f, cpu, (uint64_t)seed, want));
        CHECK_OK(prove_bytes(&f, gpu, (uint64_t)seed, got));
        if (memcmp(want, got, sizeof want))
            CZ__FAIL("%s seed %d: cuda proof bytes differ from the cpu's", circuit, seed);
    }
    if (gpu && report)
        cz_backend_report_of(gpu, report);
    cz_backend_free(gpu);
    cz_backend_free(cpu);
    fixture_free(&f);
}

static void same_bytes_as_cpu(const char *circuit, const cz_cuda_backend_opts_t *opts, int seeds)
{
    same_bytes_as_cpu_report(circuit, opts, seeds, NULL);
}

CZ_TEST(toy_same_bytes_as_cpu)
{
    if (!gpu_or_skip())
        return;
    same_bytes_as_cpu("toy:5", NULL, 2);
}

/* PoRep-like densities and value mix; three partitions reuse the resident bases. */
CZ_TEST(bench_circuit_same_bytes_as_cpu)
{
    if (!gpu_or_skip())
        return;
    same_bytes_as_cpu("bench:20000", NULL, 3);
}

/*
 * The splits staged by prep (ops->stage_tails): the first region misses
 * (no tails slot yet) and sizes the slots at its end; from the second
 * partition on the tails read the splits' device copies, for the same bytes.
 */
CZ_TEST(tails_read_from_the_splits_staged_by_prep)
{
    if (!gpu_or_skip())
        return;
    fixture f;
    REQUIRE(fixture_new(&f, "bench:20000", 3) == CZ_OK);
    cz_backend_t *cpu = NULL, *gpu = NULL;
    CHECK_OK(cz_cpu_backend_new(&cpu, 0));
    CHECK_OK(cz_cuda_backend_new(f.ctx, &gpu, 0, NULL));
    for (uint64_t seed = 0; seed < 3 && gpu; seed++) {
        cz_g16_timings_t t[2];
        uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES]; /* both verified */
        CHECK_OK(prove_timed(&f, cpu, 60 + seed, want, &t[0]));
        CHECK_OK(prove_timed(&f, gpu, 60 + seed, got, &t[1]));
        CHECK(memcmp(want, got, sizeof want) == 0);
        CHECK(!t[0].tails_staged);              /* the CPU backend stages nothing */
        CHECK(t[1].tails_staged == (seed > 0)); /* the first region sized the slots */
    }
    cz_backend_free(gpu);
    cz_backend_free(cpu);
    fixture_free(&f);
}

CZ_TEST(g2_on_cpu_same_bytes)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_backend_opts_t o = { .g2_on_cpu = true };
    same_bytes_as_cpu("bench:5000", &o, 1);
}

/* 1 byte of device memory allowed: nothing resident, every MSM on the CPU, same bytes. */
CZ_TEST(no_room_falls_back_to_cpu_msms)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_backend_opts_t o = { .device_mem_limit = 1 };
    same_bytes_as_cpu("bench:3000", &o, 1);
}

/*
 * Forced small plans (backend/devplan.h): every vector streamed through the
 * H's idle buffers in several windows (bench:20000: 2^15-element buffers,
 * 10922 G1 or 5461 G2 points a window), the tails read from the splits'
 * device copies from the second partition on; the H on the CPU and the
 * vectors streamed through buffers of their own; everything on the CPU.
 * The same bytes as the CPU backend each time.
 */
CZ_TEST(every_vector_streamed_same_bytes)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_backend_opts_t o = { .min_plan = 1 };
    same_bytes_as_cpu("bench:20000", &o, 3);
    cz_cuda_backend_opts_t g2cpu = { .min_plan = 1, .g2_on_cpu = true };
    same_bytes_as_cpu("toy:5", &g2cpu, 2);
}

/* The H context in two buffers (c = a∘b through pinned host memory), every vector streamed
 * through the halves of its idle buffer (2^14-element halves: 5461 G1 points a window). */
CZ_TEST(h_in_two_buffers_same_bytes)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_backend_opts_t o = { .min_plan = 1, .h_buffers = 2 };
    same_bytes_as_cpu("bench:20000", &o, 3);
    same_bytes_as_cpu("bench:4096", &o, 2); /* a domain whose buffers are below a window */
}

CZ_TEST(h_on_the_cpu_and_own_windows_same_bytes)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_backend_opts_t o = { .min_plan = 2, .h_on_cpu = true };
    same_bytes_as_cpu("bench:20000", &o, 2);
    same_bytes_as_cpu("bench:4096", &o, 2);
}

/* Windows of the plan's own and the H on the device in turn with the MSMs (a 12 GB card's
 * plan at 2^27): the MSM workspace and the windows given back for each partition's
 * two-buffer H context and made again after it, beside its result (the H MSM reads the
 * coefficients there) or with them through host memory. A backend's first region too:
 * the domain's tables were read before their DMA landed (a wrong proof on bench:4096). */
CZ_TEST(h_in_turn_with_the_msms_same_bytes)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_backend_opts_t o = { .min_plan = 2 };
    same_bytes_as_cpu("bench:20000", &o, 3);
    same_bytes_as_cpu("bench:4096", &o, 2);
    same_bytes_as_cpu("toy:5", &o, 2);
    cz_cuda_backend_opts_t via_host = { .min_plan = 2, .h_via_host = true };
    same_bytes_as_cpu("bench:20000", &via_host, 2);
    same_bytes_as_cpu("bench:4096", &via_host, 2);
}

CZ_TEST(cpu_plan_same_bytes)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_backend_opts_t o = { .min_plan = 3 };
    same_bytes_as_cpu("bench:3000", &o, 1);
}

/* The preparer pins the streamed vectors while the first region runs: it waits for each. */
CZ_TEST(streamed_vectors_pinned_by_the_preparer)
{
    if (!gpu_or_skip())
        return;
    fixture f;
    REQUIRE(fixture_new(&f, "bench:20000", 7) == CZ_OK);
    cz_backend_t *cpu = NULL, *gpu = NULL;
    CHECK_OK(cz_cpu_backend_new(&cpu, 0));
    cz_cuda_backend_opts_t o = { .min_plan = 1 };
    CHECK_OK(cz_cuda_backend_new(f.ctx, &gpu, 0, &o));
    double on_gpu = 0; /* seconds in the two proofs on the GPU */
    for (int i = 0; i < 2 && gpu; i++) {
        uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
        CHECK_OK(prove_bytes(&f, cpu, (uint64_t)i, want));
        cz_g16_prepare(gpu, f.params);
        const double t0 = cz_mono_s();
        CHECK_OK(prove_bytes(&f, gpu, (uint64_t)i, got));
        on_gpu += cz_mono_s() - t0;
        cz_backend_settle(gpu);
        CHECK(memcmp(want, got, sizeof want) == 0);
    }
    cz_backend_report r;
    cz_backend_report_of(gpu, &r);
    /* the regions' parts: each ran, and they fit in the proofs' time */
    const cz_region_parts *rp = &r.parts;
    CHECK(rp->h > 0 && rp->msm_h > 0 && rp->tails > 0 && rp->setup >= 0 && rp->prep_wait >= 0);
    CHECK(rp->setup + rp->h + rp->msm_h + rp->prep_wait + rp->tails <= on_gpu);
    CHECK(strstr(r.plan, "plan stream:") != NULL);
    CHECK(strstr(r.plan, "resident []") != NULL);
    CHECK_EQ_U64(r.regions, 2);
    CHECK(r.h2d_bytes >= 2 * cz_params_mem_bytes(f.params) / 2); /* every vector, twice */
    cz_backend_free(gpu);
    cz_backend_free(cpu);
    fixture_free(&f);
}

/* A host gate with a cap, counting what the backend holds (backend.h cz_host_gate_t). */
typedef struct {
    pthread_mutex_t mu; /* the preparer and the regions call in from their threads */
    size_t cap, held;
    unsigned takes, refused;
} test_gate;

static bool test_gate_take(void *obj, size_t bytes)
{
    test_gate *g = obj;
    pthread_mutex_lock(&g->mu);
    g->takes++;
    bool ok = bytes <= g->cap - g->held;
    if (ok)
        g->held += bytes;
    else
        g->refused++;
    pthread_mutex_unlock(&g->mu);
    return ok;
}

static void test_gate_give(void *obj, size_t bytes)
{
    test_gate *g = obj;
    pthread_mutex_lock(&g->mu);
    g->held -= bytes;
    pthread_mutex_unlock(&g->mu);
}

/*
 * Pinned params copies are counted in the host gate (the engine's budget in
 * a prover): with room, every streamed vector's copy is counted while held
 * and all given back when the backend goes; with none, no copy is made and
 * the windows go through the bounce buffers, for the same proof bytes.
 */
CZ_TEST(pinned_copies_are_counted_in_the_host_gate)
{
    if (!gpu_or_skip())
        return;
    const size_t caps[2] = { SIZE_MAX / 2, 0 };
    for (int c = 0; c < 2; c++) {
        fixture f;
        REQUIRE(fixture_new(&f, "bench:20000", 7) == CZ_OK);
        cz_backend_t *cpu = NULL, *gpu = NULL;
        CHECK_OK(cz_cpu_backend_new(&cpu, 0));
        test_gate g = { PTHREAD_MUTEX_INITIALIZER, caps[c], 0, 0, 0 };
        cz_cuda_backend_opts_t o = { .min_plan = 1,
                                     .host_gate = { &g, test_gate_take, test_gate_give } };
        CHECK_OK(cz_cuda_backend_new(f.ctx, &gpu, 0, &o));
        for (int i = 0; i < 2 && gpu; i++) {
            uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
            CHECK_OK(prove_bytes(&f, cpu, (uint64_t)i, want));
            cz_g16_prepare(gpu, f.params);
            CHECK_OK(prove_bytes(&f, gpu, (uint64_t)i, got));
            cz_backend_settle(gpu);
            CHECK(memcmp(want, got, sizeof want) == 0);
        }
        CHECK(g.takes > 0);
        if (c == 0) {
            CHECK_EQ_INT(g.refused, 0);
            CHECK(g.held >= cz_params_mem_bytes(f.params) * 9 / 10); /* every vector pinned */
        } else {
            CHECK_EQ_INT(g.refused, g.takes);
            CHECK_EQ_U64(g.held, 0);
        }
        cz_backend_free(gpu);
        CHECK_EQ_U64(g.held, 0); /* all given back */
        cz_backend_free(cpu);
        fixture_free(&f);
    }
}

/*
 * |proofs| proofs through one CUDA backend, alternating between two params
 * sets of |circuit|, each with the CPU backend's bytes. |prepare|: each
 * proof starts the moment its set's preparation (cz_g16_prepare) starts.
 */
static void alternate_sets(const char *circuit, int proofs, bool prepare)
{
    fixture f1, f2;
    REQUIRE(fixture_new(&f1, circuit, 5) == CZ_OK);
    REQUIRE(fixture_new(&f2, circuit, 6) == CZ_OK);
    cz_backend_t *cpu = NULL, *gpu = NULL;
    CHECK_OK(cz_cpu_backend_new(&cpu, 0));
    CHECK_OK(cz_cuda_backend_new(f1.ctx, &gpu, 0, NULL));
    for (int i = 0; i < proofs && gpu; i++) {
        fixture *f = i % 2 ? &f2 : &f1;
        uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
        CHECK_OK(prove_bytes(f, cpu, (uint64_t)i, want));
        if (prepare)
            cz_g16_prepare(gpu, f->params);
        CHECK_OK(prove_bytes(f, gpu, (uint64_t)i, got));
        cz_backend_settle(gpu); /* the preparer may still read f's params */
        if (memcmp(want, got, sizeof want))
            CZ__FAIL("%s proof %d: cuda bytes differ from the cpu's", circuit, i);
    }
    cz_backend_free(gpu);
    cz_backend_free(cpu);
    fixture_free(&f2);
    fixture_free(&f1);
}

/* Two params sets through one backend: each partition uses its own bases. */
CZ_TEST(two_params_sets_alternate)
{
    if (gpu_or_skip())
        alternate_sets("bench:4000", 4, false);
}

/*
 * The preparer uploads a params set with its lock released while a region
 * runs (the region waits for a vector only where it needs it): a proof
 * started the moment its set's preparation starts, alternating between two
 * sets so that each preparation also evicts or reloads, has the CPU's bytes.
 */
CZ_TEST(a_region_racing_its_params_preparation_has_the_cpu_bytes)
{
    if (gpu_or_skip())
        alternate_sets("bench:60000", 6, true);
}

/*
 * Params kept out of host memory (groth16/params.h: a source) through the
 * CUDA backend with |opts|: the proof has the CPU's bytes and verifies, and
 * the vectors in host memory afterwards are exactly |resident| (1 << CZ_PV_*):
 * none when the device takes them all from the source.
 */
static void mirrored(const cz_cuda_backend_opts_t *opts, unsigned resident)
{
    fixture f;
    REQUIRE(fixture_new(&f, "bench:60000", 8) == CZ_OK);
    cz_params_t *real = f.params, *mirror = params_mirror_new(f.ctx, real);
    REQUIRE(mirror != NULL);
    cz_backend_t *cpu = NULL, *gpu = NULL;
    CHECK_OK(cz_cpu_backend_new(&cpu, 0));
    CHECK_OK(cz_cuda_backend_new(f.ctx, &gpu, 0, opts));
    for (int seed = 0; seed < 2 && gpu; seed++) {
        uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
        f.params = real;
        CHECK_OK(prove_bytes(&f, cpu, (uint64_t)seed, want));
        f.params = mirror; /* prove_bytes verifies with the real vk */
        if (seed == 0)
            cz_g16_prepare(gpu, mirror); /* the preparer's upload, then the region's reuse */
        CHECK_OK(prove_bytes(&f, gpu, (uint64_t)seed, got));
        cz_backend_settle(gpu);
        if (memcmp(want, got, sizeof want))
            CZ__FAIL("mirrored params, seed %d: cuda bytes differ from the cpu's", seed);
        CHECK_EQ_INT((int)params_mirror_resident(mirror), (int)resident);
    }
    f.params = real;
    cz_backend_free(gpu);
    cz_backend_free(cpu);
    cz_params_free(mirror);
    fixture_free(&f);
}

CZ_TEST(params_kept_out_of_host_memory_go_to_the_device_from_their_source)
{
    if (!gpu_or_skip())
        return;
    mirrored(NULL, 0);
    cz_cuda_backend_opts_t g2cpu = { .g2_on_cpu = true };
    mirrored(&g2cpu, 1u << CZ_PV_B_G2); /* the epilogue's CPU MSM reads b_g2 in host memory */
    cz_cuda_backend_opts_t none = { .device_mem_limit = 1 };
    mirrored(&none, (1u << CZ_PV_COUNT) - 1); /* nothing fits: every MSM on the CPU */
}

/*
 * Params opened from a file (cz_params_open: the vectors stay in it) go to
 * the device as the file has them and are decoded there: the CPU's bytes,
 * verified, nothing in host memory. A point corrupted in the file fails
 * the region that uploads it with the load's message (vector, index,
 * offset), and the backend then proves with good params.
 */
CZ_TEST(params_opened_from_a_file_are_decoded_on_the_device)
{
    if (!gpu_or_skip())
        return;
    fixture f;
    REQUIRE(fixture_new(&f, "bench:60000", 12) == CZ_OK);
    char path[] = "/tmp/cz_cuda_open_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    CHECK_OK(cz_params_write(f.ctx, path, f.params));
    cz_params_t *real = f.params, *opened = NULL;
    REQUIRE(cz_params_open(f.ctx, &opened, path, NULL) == CZ_OK);
    cz_backend_t *cpu = NULL, *gpu = NULL;
    CHECK_OK(cz_cpu_backend_new(&cpu, 0));
    CHECK_OK(cz_cuda_backend_new(f.ctx, &gpu, 0, NULL));
    uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
    CHECK_OK(prove_bytes(&f, cpu, 4, want));
    f.params = opened;
    CHECK_OK(prove_bytes(&f, gpu, 4, got));
    CHECK_MEM_EQ(want, got, sizeof want);
    for (int v = 0; v < CZ_PV_COUNT; v++)
        CHECK(cz_params_vector(opened, (enum cz_params_vec)v) == NULL);
    cz_params_free(opened);

    /* l[1234] off the curve, in a file of the same shape: the upload of l fails */
    cz_params_vec_info_t l = cz_params_vec_info(real, CZ_PV_L);
    FILE *fp = fopen(path, "r+b");
    REQUIRE(fp != NULL);
    const long at = (long)(l.file_offset + 4 + 1234 * 96 + 95);
    fseek(fp, at, SEEK_SET);
    const int byte = fgetc(fp);
    fseek(fp, at, SEEK_SET);
    fputc(byte ^ 1, fp);
    fclose(fp);
    /* a backend of its own: the first one would take the new params, maybe at the freed
     * one's address with the same first and last points, for the set it holds */
    cz_backend_free(gpu);
    gpu = NULL;
    CHECK_OK(cz_cuda_backend_new(f.ctx, &gpu, 0, NULL));
    REQUIRE(cz_params_open(f.ctx, &opened, path, NULL) == CZ_OK);
    f.params = opened;
    CHECK_EQ_INT(prove_bytes(&f, gpu, 5, got), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(f.ctx), "l[1234] at offset") != NULL);
    CHECK(strstr(cz_ctx_message(f.ctx), "not on curve") != NULL);
    f.params = real;
    CHECK_OK(prove_bytes(&f, cpu, 6, want));
    CHECK_OK(prove_bytes(&f, gpu, 6, got));
    CHECK_MEM_EQ(want, got, sizeof want);
    cz_params_free(opened);
    unlink(path);
    cz_backend_free(gpu);
    cz_backend_free(cpu);
    fixture_free(&f);
}

/* Prove |circuit|'s witness |seed| with fixed r, s, unverified (random params). */
static int prove_unverified(cz_ctx_t *ctx, cz_backend_t *be, const cz_params_t *params,
                            const cz_circuit_t *c, uint64_t seed, uint8_t out[CZ_PROOF_BYTES])
{
    cz_cs_witness_t w;
    int rc = cz_circuit_witness(ctx, c, seed, &w);
    cz_fr r, s;
    cz_fr_from_u64(&r, 31 + seed);
    cz_fr_from_u64(&s, 57 + seed);
    cz_proof_t proof;
    if (rc == CZ_OK)
        rc = cz_g16_prove(ctx, be, params, &w, &r, &s, &proof, NULL);
    if (rc == CZ_OK)
        cz_proof_encode(out, &proof);
    else
        fprintf(stderr, "prove (%s): %s\n", be->ops->name, cz_ctx_message(ctx));
    return rc;
}

/*
 * Random params (their pools are the source) of vectors longer than one
 * bounce buffer: uploaded chunk by chunk from the source, each chunk split
 * over the fill threads at point boundaries, and the tiling wraps inside
 * chunks. The proof has the bytes of the CPU backend's from the same params
 * made resident, and the CUDA side made nothing resident.
 */
CZ_TEST(random_params_upload_from_their_pools_in_many_chunks)
{
    if (!gpu_or_skip())
        return;
    cz_ctx_t *ctx = NULL;
    REQUIRE(cz_ctx_new(&ctx, NULL, 0) == CZ_OK);
    cz_circuit_t c;
    REQUIRE(cz_circuit_parse(ctx, "bench:1500000", &c) == CZ_OK);
    cz_cs_witness_t w;
    REQUIRE(cz_circuit_witness(ctx, &c, 0, &w) == CZ_OK);
    cz_params_shape_t shape;
    cz_g16_shape_of(&w, &shape);
    cz_cs_witness_free(&w);
    cz_params_t *on_device = NULL, *on_host = NULL;
    REQUIRE(cz_params_random(ctx, &on_device, &shape, 11) == CZ_OK);
    REQUIRE(cz_params_random(ctx, &on_host, &shape, 11) == CZ_OK);
    CHECK_OK(cz_params_host_all(ctx, on_host));
    CHECK(on_device->n_h * sizeof(blst_p1_affine) > ((size_t)128 << 20)); /* > 1 chunk */
    cz_backend_t *cpu = NULL, *gpu = NULL;
    CHECK_OK(cz_cpu_backend_new(&cpu, 0));
    CHECK_OK(cz_cuda_backend_new(ctx, &gpu, 0, NULL));
    uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
    CHECK_OK(prove_unverified(ctx, cpu, on_host, &c, 3, want));
    CHECK_OK(prove_unverified(ctx, gpu, on_device, &c, 3, got));
    CHECK_MEM_EQ(want, got, sizeof want);
    for (int v = 0; v < CZ_PV_COUNT; v++)
        CHECK(cz_params_vector(on_device, (enum cz_params_vec)v) == NULL);
    cz_backend_free(gpu);
    cz_backend_free(cpu);
    cz_params_free(on_host);
    cz_params_free(on_device);
    cz_ctx_free(ctx);
}

/* Sets the cancel flag when the region reaches step boundary |at| (1-based). */
typedef struct {
    atomic_bool *flag;
    uint64_t at;
} cancel_at_t;

static int cancel_at_step(void *arg, cz_fault_site_t site, uint64_t n)
{
    cancel_at_t *c = arg;
    if (site == CZ_FAULT_DEVICE_STEP && n == c->at)
        atomic_store(c->flag, true);
    return CZ_OK;
}

/*
 * A region canceled at each of its step boundaries (H, MSM h, L, A, B1, B2)
 * stops at the next one with CZ_ECANCELED (the last completes), and the
 * device stays usable: the next proof has the CPU's bytes.
 */
CZ_TEST(cancel_between_steps_stops_the_region_and_the_device_stays_usable)
{
    if (!gpu_or_skip())
        return;
    fixture f;
    REQUIRE(fixture_new(&f, "bench:4096", 5) == CZ_OK);
    cz_backend_t *cpu = NULL, *gpu = NULL;
    CHECK_OK(cz_cpu_backend_new(&cpu, 0));
    CHECK_OK(cz_cuda_backend_new(f.ctx, &gpu, 0, NULL));
    for (uint64_t at = 1; at <= 6 && gpu; at++) {
        atomic_bool flag;
        atomic_init(&flag, false);
        cancel_at_t c = { &flag, at };
        cz_fault_t fault;
        cz_fault_init(&fault);
        fault.cb = cancel_at_step;
        fault.cb_arg = &c;
        cz_cs_witness_t w;
        REQUIRE(cz_circuit_witness(f.ctx, &f.circuit, at, &w) == CZ_OK);
        cz_g16_partition_t *p = NULL;
        REQUIRE(cz_g16_partition_new(f.ctx, &p, f.params, &w, NULL, NULL) == CZ_OK);
        cz_g16_set_cancel(p, &flag);
        CHECK_OK(cz_g16_prep(f.ctx, p));
        CHECK_OK(cz_g16_stage(f.ctx, gpu, p));
        cz_ctx_set_fault(f.ctx, &fault);
        int rc = cz_g16_device(f.ctx, gpu, p);
        cz_ctx_set_fault(f.ctx, NULL);
        cz_g16_partition_free(p);
        if (at < 6) {
            CHECK_EQ_INT(rc, CZ_ECANCELED);
            CHECK(strstr(cz_ctx_message(f.ctx), "canceled before") != NULL);
            CHECK_EQ_U64(cz_fault_reached(&fault, CZ_FAULT_DEVICE_STEP), at);
        } else {
            CHECK_EQ_INT(rc, CZ_OK); /* set at the last boundary: B2 runs */
        }
        uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
        CHECK_OK(prove_bytes(&f, cpu, 100 + at, want));
        CHECK_OK(prove_bytes(&f, gpu, 100 + at, got));
        CHECK(memcmp(want, got, sizeof want) == 0);
    }
    cz_backend_free(gpu);
    cz_backend_free(cpu);
    fixture_free(&f);
}

/* ---- batches: k partitions in one region, each streamed window serving all ---------- */

/*
 * n partitions (witness seeds base .. base + n) proved in one batched
 * region of |gpu|, after a single region made its plan; partition
 * |cancel_i| (n: none) is canceled before the region. Each other proof
 * verifies and has the CPU backend's bytes; the canceled one is CANCELED
 * and the region's advice is checked against |want_batch|.
 */
static void batch_same_bytes(const char *what, const char *circuit,
                             const cz_cuda_backend_opts_t *opts, size_t n, size_t cancel_i,
                             unsigned want_batch)
{
    fixture f;
    REQUIRE(fixture_new(&f, circuit, 7) == CZ_OK);
    cz_backend_t *cpu = NULL, *gpu = NULL;
    CHECK_OK(cz_cpu_backend_new(&cpu, 0));
    CHECK_OK(cz_cuda_backend_new(f.ctx, &gpu, 0, opts));
    uint8_t want[CZ_BACKEND_MAX_BATCH][CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
    if (gpu && prove_bytes(&f, gpu, 40, got) != CZ_OK) /* a first region: the plan */
        CZ__FAIL("%s, %s: the first (single) region", circuit, what);
    cz_g16_partition_t *ps[CZ_BACKEND_MAX_BATCH] = { NULL };
    atomic_bool canceled[CZ_BACKEND_MAX_BATCH];
    cz_fr in[CZ_BACKEND_MAX_BATCH][16];
    size_t n_in = 0;
    for (size_t i = 0; i < n && gpu; i++) {
        CHECK_OK(prove_bytes(&f, cpu, 50 + i, want[i]));
        cz_cs_witness_t w;
        REQUIRE(cz_circuit_witness(f.ctx, &f.circuit, 50 + i, &w) == CZ_OK);
        n_in = w.num_inputs - 1;
        REQUIRE(n_in <= 16);
        memcpy(in[i], w.input + 1, n_in * sizeof(cz_fr));
        cz_fr r, s;
        cz_fr_from_u64(&r, 1000 + 50 + i);
        cz_fr_from_u64(&s, 2000 + 50 + i);
        REQUIRE(cz_g16_partition_new(f.ctx, &ps[i], f.params, &w, &r, &s) == CZ_OK);
        atomic_init(&canceled[i], i == cancel_i);
        cz_g16_set_cancel(ps[i], &canceled[i]);
        cz_g16_set_backend(ps[i], gpu);
        CHECK_OK(cz_g16_prep(f.ctx, ps[i]));
    }
    if (gpu) {
        CHECK_EQ_INT((int)cz_g16_batch_max(gpu, ps[0]), (int)want_batch);
        CHECK_OK(cz_g16_stage(f.ctx, gpu, ps[0])); /* the first staged, as the engine does */
        cz_backend_report before, after;
        cz_backend_report_of(gpu, &before);
        for (size_t i = 1; i < n; i++) /* the others pinned in place, as the engine does */
            cz_g16_pin(gpu, ps[i]);
        cz_backend_report_of(gpu, &after);
        const unsigned long long pinned = after.pinned - before.pinned;
        if (opts && opts->no_pin_ab
                ? pinned != 0
                : cz_g16_partition_abc_bytes(ps[1]) >= 3 * OWN_PAGES_FROM && pinned != n - 1)
            CZ__FAIL("%s, %s: %llu of the %zu others pinned", circuit, what, pinned, n - 1);
        cz_batch_result res[CZ_BACKEND_MAX_BATCH];
        CHECK_OK(cz_g16_device_batch(f.ctx, gpu, ps, n, res));
        for (size_t i = 0; i < n; i++) {
            if (i == cancel_i) {
                CHECK_EQ_INT(res[i].rc, CZ_ECANCELED);
                CHECK(strstr(res[i].why, "canceled before") != NULL);
                continue;
            }
            if (res[i].rc != CZ_OK)
                CZ__FAIL("%s, %s: batch partition %zu: %s", circuit, what, i, res[i].why);
            cz_proof_t proof;
            CHECK_OK(cz_g16_epilogue(f.ctx, ps[i], &proof));
            CHECK_OK(cz_verify(f.ctx, f.pvk, &proof, in[i], n_in));
            cz_proof_encode(got, &proof);
            if (memcmp(want[i], got, sizeof got))
                CZ__FAIL("%s, %s: batch partition %zu of %zu: bytes differ from the cpu's", circuit,
                         what, i, n);
        }
    }
    for (size_t i = 0; i < n; i++)
        cz_g16_partition_free(ps[i]);
    /* the device goes on: a single region after the batch has the CPU's bytes */
    if (gpu) {
        CHECK_OK(prove_bytes(&f, cpu, 60, want[0]));
        CHECK_OK(prove_bytes(&f, gpu, 60, got));
        CHECK(memcmp(want[0], got, sizeof got) == 0);
    }
    cz_backend_free(gpu);
    cz_backend_free(cpu);
    fixture_free(&f);
}

/*
 * Every vector streamed (the small-card plan): batches of 2 and 3 (and 4,
 * the cap) share each window, for the CPU's bytes partition by partition;
 * with the H in two buffers, the H in turn with the MSMs and the H on the
 * CPU (the windows' own buffers) too; the partitions after the first (not
 * staged) pinned in place (ops->pin, the default) or left pageable
 * (opts.no_pin_ab), the splits put on the device by the region (the
 * default) or read from host memory (opts.no_splits_in_region). One
 * partition canceled before the region leaves the batch and the others are
 * proved. The full card advises no batch (1).
 */
CZ_TEST(batched_partitions_share_streamed_windows_same_bytes)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_backend_opts_t o = { .min_plan = 1 };
    batch_same_bytes("streamed", "bench:20000", &o, 2, 2, 2);
    cz_cuda_backend_opts_t o3 = { .min_plan = 1, .max_batch = 3 };
    batch_same_bytes("streamed, 3", "bench:20000", &o3, 3, 3, 3);
    cz_cuda_backend_opts_t o4 = { .min_plan = 1, .max_batch = 4, .h_buffers = 2 };
    batch_same_bytes("H in two buffers, 4", "bench:4096", &o4, 4, 1, 4);
    cz_cuda_backend_opts_t in_turn = { .min_plan = 2 };
    batch_same_bytes("H in turn", "bench:4096", &in_turn, 2, 2, 2);
    cz_cuda_backend_opts_t host_h = { .min_plan = 2, .h_on_cpu = true };
    batch_same_bytes("H on the CPU", "bench:4096", &host_h, 2, 2, 2);
    cz_cuda_backend_opts_t pageable = { .min_plan = 1, .no_pin_ab = true };
    batch_same_bytes("streamed, a and b pageable", "bench:20000", &pageable, 2, 2, 2);
    cz_cuda_backend_opts_t pageable2 = { .min_plan = 1,
                                         .no_pin_ab = true,
                                         .no_splits_in_region = true,
                                         .h_buffers = 2,
                                         .max_batch = 3 };
    batch_same_bytes("streamed, a and b pageable, splits from the host, H in two buffers",
                     "bench:20000", &pageable2, 3, 3, 3);
    cz_cuda_backend_opts_t pageable_turn = { .min_plan = 2, .no_pin_ab = true };
    batch_same_bytes("H in turn, a and b pageable", "bench:4096", &pageable_turn, 2, 2, 2);
    cz_cuda_backend_opts_t g2cpu = { .min_plan = 1, .g2_on_cpu = true };
    batch_same_bytes("G2 on the CPU", "toy:5", &g2cpu, 2, 0, 2);
    batch_same_bytes("resident", "bench:4096", NULL, 2, 2,
                     1); /* resident: no batch advised, still right */
}

/*
 * Where the tails stream and no tails slot holds the splits (the first
 * region: none is sized yet), the region puts them in the H result's spent
 * buffer before the tails (the default; 1 MiB at bench:20000's 2^15: L's
 * split fits); the second region reads them from a tails slot where the
 * first one's end sized one, else takes the same path. Both give the CPU's
 * bytes, with the H in three buffers and in two; so does the path that
 * reads them from host memory (opts.no_splits_in_region).
 */
static void splits_in_region_same_bytes(int h_buffers)
{
    cz_cuda_backend_opts_t o = { .min_plan = 1, .h_buffers = h_buffers };
    cz_backend_report r = { .splits_in_region = 0 };
    same_bytes_as_cpu_report("bench:20000", &o, 2, &r);
    if (r.splits_in_region < 1) /* the first region did not take the new path */
        CZ__FAIL("%d H buffers: no split went to the device in a region", h_buffers);
}

CZ_TEST(splits_in_the_spent_h_buffer_same_bytes)
{
    if (!gpu_or_skip())
        return;
    splits_in_region_same_bytes(0);
    splits_in_region_same_bytes(2);
    cz_cuda_backend_opts_t o = { .min_plan = 1, .no_splits_in_region = true };
    cz_backend_report r = { .splits_in_region = 0 };
    same_bytes_as_cpu_report("bench:20000", &o, 2, &r);
    if (r.splits_in_region != 0)
        CZ__FAIL("no_splits_in_region: %llu splits went to the device in a region",
                 r.splits_in_region);
}

/* ---- device memory taken after the plan was made ------------------------------ */

/* What the fault callback took from the device, given back by the test. */
typedef struct {
    void *taken[64];
    int n;
} taken_memory;

/* Every byte of device memory this process can get, in blocks of 16 GiB down to 1 MiB. */
static void take_device_memory(taken_memory *t)
{
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK)
        return;
    for (size_t block = (size_t)16 << 30; block >= ((size_t)1 << 20) && t->n < 64;) {
        void *p = NULL;
        if (cz_cuda_malloc(ctx, &p, block) == CZ_OK)
            t->taken[t->n++] = p;
        else
            block /= 2;
    }
    cz_ctx_free(ctx);
}

/* DEVICE_ALLOC's first reach (a region's plan about to be applied): another
 * process takes the card's memory; the site itself passes, so the plan's own
 * cudaMalloc calls are what fail, for real. */
static int take_memory_when_applied(void *arg, cz_fault_site_t site, uint64_t n)
{
    if (site == CZ_FAULT_DEVICE_ALLOC && n == 1)
        take_device_memory(arg);
    return 0;
}

/*
 * The memory a plan was made for is gone when the plan is applied (a
 * sealing process took it): the allocation fails, the backend gives back
 * what it holds, plans again from what is free and proves with that smaller
 * plan (less than the CZ__RUNTIME_SLACK the planner keeps free is left), the
 * same bytes as the CPU backend. With the memory back, the next region
 * plans as before (all resident) and proves on the device.
 */
CZ_TEST(memory_taken_after_the_plan_replans_smaller_same_bytes)
{
    if (!gpu_or_skip())
        return;
    fixture f;
    REQUIRE(fixture_new(&f, "bench:20000", 11) == CZ_OK);
    taken_memory taken = { .n = 0 };
    cz_fault_t fault;
    cz_fault_init(&fault);
    fault.cb = take_memory_when_applied;
    fault.cb_arg = &taken;
    cz_backend_t *cpu = NULL, *gpu = NULL;
    CHECK_OK(cz_cpu_backend_new(&cpu, 0));
    CHECK_OK(cz_cuda_backend_new(f.ctx, &gpu, 0, NULL));
    uint8_t want[CZ_PROOF_BYTES], got[CZ_PROOF_BYTES];
    CHECK_OK(prove_bytes(&f, cpu, 1, want));
    cz_ctx_set_fault(f.ctx, &fault);
    CHECK_OK(prove_bytes(&f, gpu, 1, got));
    cz_ctx_set_fault(f.ctx, NULL);
    CHECK(taken.n > 0);
    CHECK(memcmp(want, got, sizeof want) == 0);
    cz_backend_report r;
    cz_backend_report_of(gpu, &r);
    CHECK_EQ_INT((int)r.replans, 1);
    fprintf(stderr, "plan with the memory taken: %s\n", r.plan);
    CHECK(strstr(r.plan, "plan resident") == NULL);
    for (int i = 0; i < taken.n; i++)
        cz_cuda_free(taken.taken[i]);
    CHECK_OK(prove_bytes(&f, cpu, 2, want));
    CHECK_OK(prove_bytes(&f, gpu, 2, got));
    CHECK(memcmp(want, got, sizeof want) == 0);
    cz_backend_report_of(gpu, &r);
    CHECK_EQ_INT((int)r.replans, 1);
    CHECK(strstr(r.plan, "plan resident") != NULL);
    cz_backend_free(gpu);
    cz_backend_free(cpu);
    fixture_free(&f);
}

/* Runs last: the fault leaves the device's context unusable for this process. */
CZ_TEST(zz_injected_fault_is_a_device_error)
{
    if (!gpu_or_skip())
        return;
    fixture f;
    REQUIRE(fixture_new(&f, "toy:2", 9) == CZ_OK);
    cz_fault_t fault; /* the second region of this ctx faults for real */
    cz_fault_init(&fault);
    cz_fault_arm(&fault, CZ_FAULT_DEVICE, 2, false);
    cz_ctx_set_fault(f.ctx, &fault);
    cz_backend_t *gpu = NULL;
    CHECK_OK(cz_cuda_backend_new(f.ctx, &gpu, 0, NULL));
    uint8_t got[CZ_PROOF_BYTES];
    CHECK_OK(prove_bytes(&f, gpu, 1, got));
    int rc = prove_bytes(&f, gpu, 2, got);
    CHECK_EQ_INT(rc, CZ_EDEVICE);
    CHECK(strstr(cz_ctx_message(f.ctx), "injected fault") != NULL);
    cz_backend_free(gpu);
    cz_ctx_set_fault(f.ctx, NULL);
    fixture_free(&f);
}

CZ_TEST_MAIN()
