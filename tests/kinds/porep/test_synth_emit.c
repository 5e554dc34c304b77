/*
 * tests/kinds/porep/test_synth_emit.c — a whole PoRep partition synthesized with
 * direct emission (cs/emit.h, what the provers use) equals the general
 * path byte for byte: assignment, a, b and the three densities, on one
 * thread (sequential) and on two (challenges in forks). The circuit is a
 * real sealed 2KiB sector's (2.7M rows: SHA-256 labels and tree_d paths,
 * Poseidon columns and tree_c / tree_r_last paths).
 */
#include <string.h>

#include "cs/emit.h"
#include "cz_test.h"
#include "kinds/porep/c1.h"
#include "kinds/porep/seal.h"

static cz_c1_t c1;
static bool have_c1;

static void seal(cz_ctx_t *ctx)
{
    if (have_c1)
        return;
    cz_seal_args_t a;
    memset(&a, 0, sizeof a);
    a.sector_bytes = 2048;
    a.random_seed = 5;
    memset(a.prover_id, 3, 32);
    memset(a.ticket, 4, 32);
    memset(a.seed, 77, 32);
    a.sector_id = 11;
    CHECK_OK(cz_seal_gen_c1(ctx, &a, &c1));
    have_c1 = true;
}

/* Partition 0 in PROVE without c, directly or on the general path. */
static int synthesize(cz_ctx_t *ctx, bool direct, cz_cs_witness_t *w)
{
    cz_porep_input_t in;
    int rc = cz_c1_to_circuit(ctx, &c1, 0, &in);
    if (rc)
        return rc;
    cz_cs_t *cs = NULL;
    if ((rc = cz_cs_new(&cs, ctx, CZ_CS_PROVE)) == CZ_OK && (rc = cz_cs_omit_c(cs)) == CZ_OK) {
        if (!direct)
            cz_cs_emit_generic(cs);
        CHECK(cz_cs_emits(cs) == direct);
        if ((rc = cz_porep_synthesize(ctx, cs, &c1.params, &in)) == CZ_OK &&
            (rc = cz_cs_finish(cs)) == CZ_OK)
            rc = cz_cs_take_witness(cs, w);
    }
    cz_cs_free(cs);
    cz_porep_input_free(&in);
    return rc;
}

static void same_witness(const cz_cs_witness_t *d, const cz_cs_witness_t *g)
{
    CHECK_EQ_U64(d->num_rows, g->num_rows);
    CHECK_EQ_U64(d->num_aux, g->num_aux);
    CHECK_EQ_U64(d->num_inputs, g->num_inputs);
    if (d->num_rows != g->num_rows || d->num_aux != g->num_aux || d->num_inputs != g->num_inputs)
        return;
    CHECK(d->c == NULL && g->c == NULL);
    CHECK(!memcmp(d->a, g->a, d->num_rows * sizeof(cz_fr)));
    CHECK(!memcmp(d->b, g->b, d->num_rows * sizeof(cz_fr)));
    CHECK(!memcmp(d->aux, g->aux, d->num_aux * sizeof(cz_fr)));
    CHECK(!memcmp(d->input, g->input, d->num_inputs * sizeof(cz_fr)));
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_U64(d->density_bits[i], g->density_bits[i]);
        CHECK_EQ_U64(d->popcount[i], g->popcount[i]);
        CHECK(!memcmp(d->density[i], g->density[i], (d->density_bits[i] + 63) / 64 * 8));
    }
}

static void compare_on(unsigned threads)
{
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, threads));
    seal(ctx);
    cz_cs_witness_t d = { 0 }, g = { 0 };
    CHECK_OK(synthesize(ctx, true, &d));
    CHECK_OK(synthesize(ctx, false, &g));
    same_witness(&d, &g);
    /* The 2KiB circuit's known shape (docs/PERFORMANCE.md). */
    CHECK_EQ_U64(d.num_rows, 2687961);
    cz_cs_witness_free(&d);
    cz_cs_witness_free(&g);
    cz_ctx_free(ctx);
}

CZ_TEST(porep_2k_direct_equals_general_sequential)
{
    compare_on(1);
}

CZ_TEST(porep_2k_direct_equals_general_forks)
{
    compare_on(2);
}

CZ_TEST_MAIN()
