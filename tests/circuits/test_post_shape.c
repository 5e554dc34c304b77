/*
 * tests/circuits/test_post_shape.c — the FallbackPoSt partition circuit.
 *
 * - RFP fingerprints (rust-fil-proofs storage-proofs-post/src/fallback/
 *   circuit.rs tests, TestConstraintSystem counts): 8-0-0 over 64 leaves,
 *   3 sectors x 5 challenges: 19 inputs, 16,869 constraints; 8-4-0 (256
 *   leaves) 22,674; 8-4-2 (512 leaves) 27,384; 2 sectors: 13 / 11,246.
 * - Every production size: inputs (ONE included) and constraints. 32GiB /
 *   64GiB window: 125,279,217 / 129,887,900 constraints (the counts
 *   filecoin-proofs constants.rs gives beside WINDOW_POST_SECTOR_COUNT),
 *   from one sector's shape times the sector count (sectors share nothing;
 *   the full synthesis is `cuzk circuit shape`, ~20 s, in docs).
 * - The real v27 32GiB vks (CUZK_REALDATA, shared/realdata): IC lengths
 *   133 (winning) and 25,840 (window) = cz_post_num_inputs; skipped with a
 *   message when the directory is absent.
 * - CHECK on a native witness (random trees): satisfied; a wrong comm_r, a
 *   wrong leaf or sibling, a corrupted aux fail (CHECK and the native
 *   check); parallel == sequential in SHAPE, PROVE (values, a/b/c) and
 *   KEYGEN (matrices).
 */
#include <stdio.h>

#include "circuits/post/fallback.h"
#include "cz_test.h"
#include "gadgets/por.h"
#include "hash/poseidon.h"
#include "hash/poseidon_constants.h"

typedef struct {
    size_t constraints, rows, inputs, aux, pop[3];
} shape_t;

static int shape_of(const cz_post_params_t *p, cz_ctx_t *ctx, shape_t *s)
{
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, NULL, CZ_CS_SHAPE);
    if (rc)
        return rc;
    rc = ctx ? cz_post_synthesize(ctx, cs, p, NULL) : cz_post_circuit(cs, p, NULL);
    if (!rc)
        rc = cz_cs_finish(cs);
    s->constraints = cz_cs_num_constraints(cs);
    s->rows = cz_cs_num_rows(cs);
    s->inputs = cz_cs_num_inputs(cs);
    s->aux = cz_cs_num_aux(cs);
    for (int k = 0; k < 3; k++)
        cz_cs_density(cs, (cz_density_t)k, NULL, &s->pop[k]);
    cz_cs_free(cs);
    return rc;
}

CZ_TEST(rfp_fingerprints)
{
    static const struct {
        unsigned leaves, sectors, base, sub, top;
        size_t inputs, constraints;
    } cases[] = {
        { 64, 3, 8, 0, 0, 19, 16869 },
        { 256, 3, 8, 4, 0, 19, 22674 },
        { 512, 3, 8, 4, 2, 19, 27384 },
        { 64, 2, 8, 0, 0, 13, 11246 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cz_post_params_t p;
        shape_t s;
        REQUIRE(cz_post_params_make(&p, CZ_POST_WINDOW, cases[i].leaves, cases[i].sectors, 5,
                                    cases[i].base, cases[i].sub, cases[i].top) == CZ_OK);
        REQUIRE(shape_of(&p, NULL, &s) == CZ_OK);
        CHECK_EQ_U64(s.inputs, cases[i].inputs);
        CHECK_EQ_U64(cz_post_num_inputs(&p), cases[i].inputs);
        CHECK_EQ_U64(s.constraints, cases[i].constraints);
        CHECK_EQ_U64(s.rows, s.constraints + s.inputs);
    }
}

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* Constraints of every production partition (docs/POST.md). */
static const struct {
    uint64_t bytes;
    size_t winning, window, window_inputs;
} SIZES[] = {
    { 2 * KIB, 90750, 21866, 23 },          { 8 * MIB, 230670, 64266, 23 },
    { 512 * MIB, 300630, 85466, 23 },       { 32 * GIB, 370590, 125279217, 25840 },
    { 64 * GIB, 391314, 129887900, 25301 },
};

CZ_TEST(production_sizes)
{
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++) {
        cz_post_params_t w, d, one;
        shape_t s;
        REQUIRE(cz_post_params_sector(&w, CZ_POST_WINNING, SIZES[i].bytes) == CZ_OK);
        REQUIRE(cz_post_params_sector(&d, CZ_POST_WINDOW, SIZES[i].bytes) == CZ_OK);
        CHECK_EQ_U64(w.sectors, 66);
        CHECK_EQ_U64(w.challenges, 1);
        CHECK_EQ_U64(d.challenges, 10);
        REQUIRE(shape_of(&w, NULL, &s) == CZ_OK);
        CHECK_EQ_U64(s.inputs, 133);
        CHECK_EQ_U64(s.constraints, SIZES[i].winning);
        CHECK_EQ_U64(cz_post_num_inputs(&d), SIZES[i].window_inputs);
        /* The window partition: one sector's shape x the sector count. */
        REQUIRE(cz_post_params_make(&one, CZ_POST_WINDOW, d.nodes, 1, d.challenges, d.base_arity,
                                    d.sub_arity, d.top_arity) == CZ_OK);
        REQUIRE(shape_of(&one, NULL, &s) == CZ_OK);
        CHECK_EQ_U64(s.constraints * d.sectors, SIZES[i].window);
        CHECK_EQ_U64(1 + (s.inputs - 1) * d.sectors, SIZES[i].window_inputs);
        if (d.sectors <= 2) {
            REQUIRE(shape_of(&d, NULL, &s) == CZ_OK);
            CHECK_EQ_U64(s.constraints, SIZES[i].window);
            CHECK_EQ_U64(s.inputs, SIZES[i].window_inputs);
        }
    }
    cz_post_params_t p;
    CHECK(cz_post_params_sector(&p, CZ_POST_WINNING, 4 * KIB) == CZ_EINVAL);
    CHECK(cz_post_params_make(&p, CZ_POST_WINDOW, 48, 1, 1, 8, 0, 0) == CZ_EINVAL);
    CHECK(cz_post_params_make(&p, CZ_POST_WINDOW, 64, 0, 1, 8, 0, 0) == CZ_EINVAL);
}

/* The IC length of a bellperson .vk file: 6 uncompressed points (864 B),
 * then u32 BE |ic| (FACTS 2). */
static long vk_ic_len(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    unsigned char b[4];
    long n = fseek(f, 864, SEEK_SET) == 0 && fread(b, 1, 4, f) == 4
                 ? (long)((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3])
                 : -1;
    fclose(f);
    return n;
}

CZ_TEST(real_v27_vks)
{
    const char *dir = getenv("CUZK_REALDATA");
    char wpath[4096], dpath[4096];
    snprintf(wpath, sizeof wpath, "%s/fil-blst/converted/winning32.vk", dir ? dir : "");
    snprintf(dpath, sizeof dpath, "%s/fil-blst/converted/window32.vk", dir ? dir : "");
    long w = dir ? vk_ic_len(wpath) : -1, d = dir ? vk_ic_len(dpath) : -1;
    if (w < 0 || d < 0) {
        printf("real_v27_vks: no %s (set CUZK_REALDATA to shared/realdata): skipped\n", wpath);
        return;
    }
    cz_post_params_t p;
    REQUIRE(cz_post_params_sector(&p, CZ_POST_WINNING, 32 * GIB) == CZ_OK);
    CHECK_EQ_U64((size_t)w, cz_post_num_inputs(&p));
    CHECK_EQ_U64(w, 133);
    REQUIRE(cz_post_params_sector(&p, CZ_POST_WINDOW, 32 * GIB) == CZ_OK);
    CHECK_EQ_U64((size_t)d, cz_post_num_inputs(&p));
    CHECK_EQ_U64(d, 25840);
}

/* ---- a native witness ------------------------------------------------------------ */

static int build_witness(cz_post_witness_t *w, const cz_post_params_t *p, uint64_t seed)
{
    cz_por_shape_t s;
    int rc = cz_por_shape(&s, CZ_POR_POSEIDON, p->base_arity, p->sub_arity, p->top_arity, p->nodes);
    if (rc || (rc = cz_post_witness_alloc(w, p)))
        return rc;
    const size_t L = cz_post_path_len(p);
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    cz_fr *leaves = calloc(p->nodes, sizeof *leaves);
    if (!leaves)
        return CZ_ENOMEM;
    for (unsigned i = 0; i < p->sectors && !rc; i++) {
        cz_por_tree_t t;
        for (uint64_t k = 0; k < p->nodes; k++)
            cz_fr_random_rng(&leaves[k], &rng);
        if ((rc = cz_por_tree_build(&t, &s, leaves)))
            break;
        cz_post_sector_t *sec = &w->sector[i];
        sec->comm_r_last = *cz_por_tree_root(&t);
        cz_fr_random_rng(&sec->comm_c, &rng);
        cz_fr pre[2] = { sec->comm_c, sec->comm_r_last };
        cz_poseidon_hash(cz_poseidon_constants_get(2), &sec->comm_r, pre);
        for (unsigned c = 0; c < p->challenges && !rc; c++) {
            sec->leaf_index[c] = (i * 7 + c * 13 + seed) % p->nodes;
            sec->leaf[c] = leaves[sec->leaf_index[c]];
            rc = cz_por_tree_path(&t, sec->leaf_index[c], sec->siblings + (size_t)c * L);
        }
        cz_por_tree_free(&t);
    }
    free(leaves);
    if (rc)
        cz_post_witness_free(w);
    return rc;
}

static int check_run(const cz_post_params_t *p, const cz_post_witness_t *w, cz_ctx_t *ctx,
                     long corrupt_aux)
{
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, NULL, CZ_CS_CHECK);
    if (rc)
        return rc;
    if (corrupt_aux >= 0)
        cz_cs_corrupt_aux(cs, (size_t)corrupt_aux);
    rc = ctx ? cz_post_synthesize(ctx, cs, p, w) : cz_post_circuit(cs, p, w);
    if (!rc)
        rc = cz_cs_finish(cs);
    cz_cs_free(cs);
    return rc;
}

CZ_TEST(check_mode_native_witness)
{
    static const unsigned shapes[][4] = { { 64, 8, 0, 0 }, { 256, 8, 4, 0 }, { 512, 8, 4, 2 } };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        cz_post_params_t p;
        cz_post_witness_t w;
        REQUIRE(cz_post_params_make(&p, CZ_POST_WINDOW, shapes[i][0], 3, 2, shapes[i][1],
                                    shapes[i][2], shapes[i][3]) == CZ_OK);
        REQUIRE(build_witness(&w, &p, 5 + i) == CZ_OK);
        CHECK_OK(cz_post_witness_check(NULL, &w));
        CHECK_OK(check_run(&p, &w, NULL, -1));
        CHECK(check_run(&p, &w, NULL, 700) == CZ_EUNSAT);
        /* A wrong comm_r (the public input): the hash equality fails. */
        cz_fr keep = w.sector[2].comm_r;
        cz_fr_add(&w.sector[2].comm_r, &keep, &CZ_FR_ONE);
        CHECK(cz_post_witness_check(NULL, &w) == CZ_EUNSAT);
        CHECK(check_run(&p, &w, NULL, -1) == CZ_EUNSAT);
        w.sector[2].comm_r = keep;
        /* A wrong leaf, then a wrong sibling. */
        cz_fr_add(&w.sector[1].leaf[1], &w.sector[1].leaf[1], &CZ_FR_ONE);
        CHECK(cz_post_witness_check(NULL, &w) == CZ_EUNSAT);
        CHECK(check_run(&p, &w, NULL, -1) == CZ_EUNSAT);
        cz_fr_sub(&w.sector[1].leaf[1], &w.sector[1].leaf[1], &CZ_FR_ONE);
        cz_fr_add(&w.sector[0].siblings[3], &w.sector[0].siblings[3], &CZ_FR_ONE);
        CHECK(cz_post_witness_check(NULL, &w) == CZ_EUNSAT);
        CHECK(check_run(&p, &w, NULL, -1) == CZ_EUNSAT);
        cz_post_witness_free(&w);
    }
}

static void compare_modes(const cz_post_params_t *p, const cz_post_witness_t *w, cz_cs_mode_t mode,
                          cz_ctx_t *ctx)
{
    cz_cs_t *a, *b;
    REQUIRE(cz_cs_new(&a, NULL, mode) == CZ_OK);
    REQUIRE(cz_cs_new(&b, NULL, mode) == CZ_OK);
    const cz_post_witness_t *use = mode == CZ_CS_PROVE || mode == CZ_CS_CHECK ? w : NULL;
    CHECK_OK(cz_post_circuit(a, p, use));
    CHECK_OK(cz_post_synthesize(ctx, b, p, use));
    CHECK_OK(cz_cs_finish(a));
    CHECK_OK(cz_cs_finish(b));
    CHECK_EQ_U64(cz_cs_num_rows(a), cz_cs_num_rows(b));
    CHECK_EQ_U64(cz_cs_num_inputs(a), cz_cs_num_inputs(b));
    CHECK_EQ_U64(cz_cs_num_aux(a), cz_cs_num_aux(b));
    for (int k = 0; k < 3; k++) {
        size_t na, nb, pa, pb;
        const uint64_t *da = cz_cs_density(a, (cz_density_t)k, &na, &pa);
        const uint64_t *db = cz_cs_density(b, (cz_density_t)k, &nb, &pb);
        CHECK_EQ_U64(na, nb);
        CHECK_EQ_U64(pa, pb);
        CHECK_MEM_EQ(da, db, (na / 64) * 8);
    }
    if (mode == CZ_CS_PROVE) {
        CHECK_MEM_EQ(cz_cs_inputs(a), cz_cs_inputs(b), cz_cs_num_inputs(a) * sizeof(cz_fr));
        CHECK_MEM_EQ(cz_cs_aux(a), cz_cs_aux(b), cz_cs_num_aux(a) * sizeof(cz_fr));
        for (int m = 0; m < 3; m++)
            CHECK_MEM_EQ(cz_cs_eval(a, (cz_matrix_t)m), cz_cs_eval(b, (cz_matrix_t)m),
                         cz_cs_num_rows(a) * sizeof(cz_fr));
    }
    if (mode == CZ_CS_KEYGEN) {
        for (int m = 0; m < 3; m++) {
            const cz_csr_t *x = cz_cs_matrix(a, (cz_matrix_t)m),
                           *y = cz_cs_matrix(b, (cz_matrix_t)m);
            REQUIRE(x && y);
            CHECK_EQ_U64(x->nnz, y->nnz);
            CHECK_MEM_EQ(x->row_ptr, y->row_ptr, (x->rows + 1) * sizeof(uint64_t));
            CHECK_MEM_EQ(x->cols, y->cols, x->nnz * sizeof(uint32_t));
            CHECK_MEM_EQ(x->vals, y->vals, x->nnz * sizeof(cz_fr));
        }
    }
    cz_cs_free(a);
    cz_cs_free(b);
}

CZ_TEST(parallel_equals_sequential)
{
    for (unsigned width = 2; width <= 3; width++) {
        cz_ctx_t *ctx;
        REQUIRE(cz_ctx_new(&ctx, NULL, width) == CZ_OK);
        cz_post_params_t p;
        cz_post_witness_t w;
        /* 5 sectors on width 2 / 3: uneven groups (3 + 2, 2 + 2 + 1). */
        REQUIRE(cz_post_params_make(&p, CZ_POST_WINDOW, 512, 5, 2, 8, 4, 2) == CZ_OK);
        REQUIRE(build_witness(&w, &p, 21) == CZ_OK);
        compare_modes(&p, &w, CZ_CS_SHAPE, ctx);
        compare_modes(&p, &w, CZ_CS_PROVE, ctx);
        compare_modes(&p, &w, CZ_CS_KEYGEN, ctx);
        CHECK_OK(check_run(&p, &w, ctx, -1));
        /* A bad witness in the last group fails the partition. */
        cz_fr_add(&w.sector[4].leaf[0], &w.sector[4].leaf[0], &CZ_FR_ONE);
        CHECK(check_run(&p, &w, ctx, -1) == CZ_EUNSAT);
        cz_post_witness_free(&w);
        cz_ctx_free(ctx);
    }
}

CZ_TEST(null_witness_only_without_values)
{
    cz_post_params_t p, q;
    REQUIRE(cz_post_params_make(&p, CZ_POST_WINDOW, 64, 2, 1, 8, 0, 0) == CZ_OK);
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_PROVE) == CZ_OK);
    CHECK(cz_post_circuit(cs, &p, NULL) == CZ_EINVAL);
    cz_cs_free(cs);
    cz_post_witness_t w;
    REQUIRE(cz_post_params_make(&q, CZ_POST_WINDOW, 64, 3, 1, 8, 0, 0) == CZ_OK);
    REQUIRE(cz_post_witness_alloc(&w, &q) == CZ_OK);
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_CHECK) == CZ_OK);
    CHECK(cz_post_circuit(cs, &p, &w) == CZ_EINVAL); /* witness for other params */
    cz_cs_free(cs);
    w.sector[0].leaf_index[0] = 64; /* outside the tree */
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_CHECK) == CZ_OK);
    CHECK(cz_post_circuit(cs, &q, &w) == CZ_EINVAL);
    cz_cs_free(cs);
    cz_post_witness_free(&w);
    cz_post_witness_free(&w);
}

CZ_TEST_MAIN()
