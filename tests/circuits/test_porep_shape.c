/*
 * tests/circuits/test_porep_shape.c — the StackedDRG PoRep partition circuit.
 *
 * - RFP fingerprints (rust-fil-proofs storage-proofs-porep/tests/
 *   stacked_circuit.rs; FACTS 3): 1 challenge, 2 layers, nodes = 8 x sub x
 *   top: base-2 1,206,212; base-8 1,199,620; 8-4 1,296,576; 8-4-2
 *   1,346,982 constraints; 22 inputs (ONE included) each.
 * - 2KiB partition: 40 inputs (FACTS 3), the input formula for every size
 *   (32GiB: 328), the production parameter table and path lengths.
 * - CHECK mode on tiny configurations with a witness built natively here
 *   (random data and labels, distinct parents, the challenged labels
 *   computed per FACTS 4, tree_d SHA254, tree_c / tree_r_last Poseidon
 *   with base, sub and top levels): satisfied; a corrupted aux, a wrong
 *   label or wrong parent row are caught (by CHECK and by the native
 *   cz_porep_input_check); the public inputs equal the circuit's inputs.
 * - parallel (cz_porep_synthesize on a pool) == sequential byte for byte in
 *   SHAPE (counts, densities), PROVE (assignment, a/b/c, densities) and
 *   KEYGEN (the three matrices).
 * The full 32GiB fingerprint is test_porep_shape_32g (label slow).
 */
#include <time.h>

#include "circuits/porep/stacked.h"
#include "cz_test.h"
#include "gadgets/por.h"
#include "hash/poseidon.h"
#include "hash/sha254.h"

/* ---- helpers -------------------------------------------------------------- */

typedef struct {
    size_t constraints, rows, inputs, aux, pop[3];
} shape_t;

static int shape_of(const cz_porep_params_t *p, cz_ctx_t *ctx, shape_t *s)
{
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, NULL, CZ_CS_SHAPE);
    if (rc)
        return rc;
    rc = ctx ? cz_porep_synthesize(ctx, cs, p, NULL) : cz_porep_circuit(cs, p, NULL);
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

/* Label of |node| at |layer| from the rows in labels[layer][node]. */
static void native_label(cz_fr *out, const cz_fr *rid, cz_fr **labels, unsigned layer,
                         uint64_t node, const uint64_t *drg, const uint64_t *exp)
{
    /* FACTS 4: layer 1: 6 DRG parents x 6 + p[0]; later: 14 x 2 + p[0..9];
     * DRG parents at this layer, expander parents at the previous one. */
    const cz_fr *base[14], *par[37];
    unsigned n = layer > 1 ? 14 : 6;
    for (unsigned k = 0; k < 6; k++)
        base[k] = &labels[layer - 1][drg[k]];
    for (unsigned k = 0; layer > 1 && k < 8; k++)
        base[6 + k] = &labels[layer - 2][exp[k]];
    for (unsigned k = 0; k < 37; k++)
        par[k] = base[k % n];
    /* SHA-256(rid || layer BE32 || node BE64 || 0^20 || parents), & 0x3f. */
    uint8_t msg[64 + 37 * 32] = { 0 }, d[32];
    cz_fr_to_repr(msg, rid);
    for (unsigned i = 0; i < 4; i++)
        msg[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (unsigned i = 0; i < 8; i++)
        msg[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    for (unsigned k = 0; k < 37; k++)
        cz_fr_to_repr(msg + 64 + 32 * k, par[k]);
    cz_sha256(d, msg, sizeof msg);
    d[31] &= 0x3f;
    cz_fr_from_repr(out, d);
}

static bool is_challenged(const cz_porep_input_t *in, unsigned upto, uint64_t n)
{
    for (unsigned i = 0; i < upto; i++)
        if (in->ch[i].challenge == n)
            return true;
    return false;
}

/* A consistent partition input for |p|, built natively from |seed|. */
static int build_input(cz_porep_input_t *in, const cz_porep_params_t *p, uint64_t seed)
{
    const uint64_t N = p->nodes;
    const unsigned L = p->layers;
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    int rc = cz_porep_input_alloc(in, p);
    if (rc)
        return rc;
    cz_fr *data = calloc(N, sizeof *data), *cl = calloc(N, sizeof *cl);
    cz_fr *rl = calloc(N, sizeof *rl), *labels[11] = { 0 };
    for (unsigned l = 0; l < L; l++)
        labels[l] = calloc(N, sizeof(cz_fr));
    cz_fr_random_rng(&in->replica_id, &rng);
    for (uint64_t n = 0; n < N; n++) {
        cz_fr_random_rng(&data[n], &rng);
        for (unsigned l = 0; l < L; l++)
            cz_fr_random_rng(&labels[l][n], &rng);
    }
    /* Distinct challenges; parents never challenged, so their rows are final. */
    for (unsigned i = 0; i < in->nchallenges; i++) {
        uint64_t c;
        do
            c = cz_rng_next(&rng) % N;
        while (is_challenged(in, i, c));
        in->ch[i].challenge = c;
    }
    for (unsigned i = 0; i < in->nchallenges; i++) {
        cz_porep_challenge_t *ch = &in->ch[i];
        uint64_t drg[6], exp[8];
        for (unsigned k = 0; k < 14; k++) {
            uint64_t v;
            do
                v = cz_rng_next(&rng) % N;
            while (is_challenged(in, in->nchallenges, v));
            if (k < 6)
                drg[k] = ch->drg[k].index = v;
            else
                exp[k - 6] = ch->exp[k - 6].index = v;
        }
        for (unsigned layer = 1; layer <= L; layer++)
            native_label(&labels[layer - 1][ch->challenge], &in->replica_id, labels, layer,
                         ch->challenge, drg, exp);
    }
    /* Trees: tree_d over the data, tree_c over column hashes, tree_r_last
     * over label_L + data. */
    cz_por_shape_t sd, src;
    cz_por_tree_t td = { 0 }, tc = { 0 }, tr = { 0 };
    cz_fr col[11];
    for (uint64_t n = 0; n < N; n++) {
        for (unsigned l = 0; l < L; l++)
            col[l] = labels[l][n];
        cz_poseidon_hash(cz_poseidon_constants_get(L), &cl[n], col);
        cz_fr_add(&rl[n], &labels[L - 1][n], &data[n]);
    }
    if ((rc = cz_por_shape(&sd, CZ_POR_SHA254, 2, 0, 0, N)) ||
        (rc = cz_por_shape(&src, CZ_POR_POSEIDON, p->base_arity, p->sub_arity, p->top_arity, N)) ||
        (rc = cz_por_tree_build(&td, &sd, data)) || (rc = cz_por_tree_build(&tc, &src, cl)) ||
        (rc = cz_por_tree_build(&tr, &src, rl)))
        goto out;
    in->comm_d = *cz_por_tree_root(&td);
    in->comm_c = *cz_por_tree_root(&tc);
    in->comm_r_last = *cz_por_tree_root(&tr);
    cz_fr pre[2] = { in->comm_c, in->comm_r_last };
    cz_poseidon_hash(cz_poseidon_constants_get(2), &in->comm_r, pre);
    for (unsigned i = 0; i < in->nchallenges && !rc; i++) {
        cz_porep_challenge_t *ch = &in->ch[i];
        uint64_t c = ch->challenge;
        ch->data_leaf = data[c];
        ch->replica_leaf = rl[c];
        for (unsigned l = 0; l < L; l++)
            ch->labels[l] = labels[l][c];
        rc = cz_por_tree_path(&td, c, ch->d_path);
        rc = rc ? rc : cz_por_tree_path(&tc, c, ch->c_path);
        rc = rc ? rc : cz_por_tree_path(&tr, c, ch->r_path);
        for (unsigned k = 0; k < 14 && !rc; k++) {
            cz_porep_column_t *pc = k < 6 ? &ch->drg[k] : &ch->exp[k - 6];
            for (unsigned l = 0; l < L; l++)
                pc->rows[l] = labels[l][pc->index];
            rc = cz_por_tree_path(&tc, pc->index, pc->c_path);
        }
    }
out:
    cz_por_tree_free(&td);
    cz_por_tree_free(&tc);
    cz_por_tree_free(&tr);
    for (unsigned l = 0; l < L; l++)
        free(labels[l]);
    free(data);
    free(cl);
    free(rl);
    if (rc)
        cz_porep_input_free(in);
    return rc;
}

/* CHECK-mode synthesis (sequential or parallel); returns cz_cs_finish's code. */
static int check_run(const cz_porep_params_t *p, const cz_porep_input_t *in, cz_ctx_t *ctx,
                     long corrupt_aux)
{
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, NULL, CZ_CS_CHECK);
    if (rc)
        return rc;
    if (corrupt_aux >= 0)
        cz_cs_corrupt_aux(cs, (size_t)corrupt_aux);
    rc = ctx ? cz_porep_synthesize(ctx, cs, p, in) : cz_porep_circuit(cs, p, in);
    if (!rc)
        rc = cz_cs_finish(cs);
    cz_cs_free(cs);
    return rc;
}

/* ---- fingerprints ------------------------------------------------------------ */

CZ_TEST(rfp_fingerprints)
{
    /* stacked_circuit.rs: (tree, expected inputs, expected constraints). */
    static const struct {
        unsigned base, sub, top;
        size_t constraints;
    } cases[] = {
        { 2, 0, 0, 1206212 },
        { 8, 0, 0, 1199620 },
        { 8, 4, 0, 1296576 },
        { 8, 4, 2, 1346982 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cz_porep_params_t p;
        uint64_t nodes = 8ull * (cases[i].sub ? cases[i].sub : 1) *
                         (cases[i].top ? cases[i].top : 1);
        REQUIRE(cz_porep_params_make(&p, nodes, 2, 1, cases[i].base, cases[i].sub, cases[i].top) ==
                CZ_OK);
        shape_t s;
        CHECK_OK(shape_of(&p, NULL, &s));
        CHECK_EQ_U64(s.constraints, cases[i].constraints);
        CHECK_EQ_U64(s.inputs, 22);
        CHECK_EQ_U64(s.rows, s.constraints + 22);
        CHECK_EQ_U64(cz_porep_num_inputs(&p), 22);
        CHECK_EQ_U64(s.pop[CZ_DENSITY_B_INPUT], 1);
    }
}

CZ_TEST(sector_2kib)
{
    cz_porep_params_t p;
    REQUIRE(cz_porep_params_sector(&p, 2048) == CZ_OK);
    shape_t s;
    CHECK_OK(shape_of(&p, NULL, &s));
    CHECK_EQ_U64(s.inputs, 40); /* FACTS 3 */
    /* cuzk's own count (regression): two challenges of the 1,199,620-type
     * circuit over 64 nodes. */
    CHECK_EQ_U64(s.constraints, 2687921);
    CHECK_EQ_U64(s.aux, 2685673);
    CHECK_EQ_U64(s.pop[CZ_DENSITY_B_INPUT], 1);
}

CZ_TEST(params_table)
{
    static const struct {
        const char *size;
        uint64_t nodes;
        unsigned layers, challenges, partitions, base, sub, top;
        size_t dlen, rclen, inputs;
    } t[] = {
        { "2KiB", 64, 2, 2, 1, 8, 0, 0, 6, 14, 40 },
        { "8MiB", 1u << 18, 2, 2, 1, 8, 0, 0, 18, 42, 40 },
        { "512MiB", 1u << 24, 2, 2, 1, 8, 0, 0, 24, 56, 40 },
        { "32GiB", 1ull << 30, 11, 18, 10, 8, 8, 0, 30, 70, 328 },
        { "64GiB", 1ull << 31, 11, 18, 10, 8, 8, 2, 31, 71, 328 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        uint64_t bytes;
        cz_porep_params_t p;
        REQUIRE(cz_porep_parse_size(t[i].size, &bytes) == CZ_OK);
        REQUIRE(cz_porep_params_sector(&p, bytes) == CZ_OK);
        CHECK_EQ_U64(p.nodes, t[i].nodes);
        CHECK_EQ_U64(p.layers, t[i].layers);
        CHECK_EQ_U64(p.challenges, t[i].challenges);
        CHECK_EQ_U64(p.partitions, t[i].partitions);
        CHECK_EQ_U64(p.sub_arity, t[i].sub);
        CHECK_EQ_U64(p.top_arity, t[i].top);
        CHECK_EQ_U64(cz_porep_d_path_len(&p), t[i].dlen);
        CHECK_EQ_U64(cz_porep_rc_path_len(&p), t[i].rclen);
        CHECK_EQ_U64(cz_porep_num_inputs(&p), t[i].inputs);
    }
    cz_porep_params_t p;
    uint64_t b;
    CHECK(cz_porep_params_sector(&p, 4096) == CZ_EINVAL);
    CHECK(cz_porep_parse_size("32 GiB", &b) == CZ_EINVAL);
    CHECK(cz_porep_params_make(&p, 64, 3, 1, 8, 0, 0) == CZ_EINVAL); /* no arity-3 column */
    CHECK(cz_porep_params_make(&p, 48, 2, 1, 8, 0, 0) == CZ_EINVAL); /* not a tree */
    CHECK(cz_porep_params_make(&p, 64, 2, 0, 8, 0, 0) == CZ_EINVAL);
    CHECK(cz_porep_params_make(&p, 64, 2, 1, 8, 0, 2) == CZ_EINVAL); /* top without sub */
}

/* ---- values ---------------------------------------------------------------------- */

CZ_TEST(check_mode_native_witness)
{
    static const unsigned shapes[][4] = {
        /* nodes, base, sub, top */
        { 64, 8, 0, 0 },
        { 64, 8, 4, 2 },
        { 32, 2, 2, 0 },
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        cz_porep_params_t p;
        cz_porep_input_t in;
        REQUIRE(cz_porep_params_make(&p, shapes[i][0], 2, 2, shapes[i][1], shapes[i][2],
                                     shapes[i][3]) == CZ_OK);
        REQUIRE(build_input(&in, &p, 100 + i) == CZ_OK);
        CHECK_OK(cz_porep_input_check(NULL, &in));
        CHECK_OK(check_run(&p, &in, NULL, -1));
        /* A corrupted aux deep inside challenge 1's labels. */
        CHECK(check_run(&p, &in, NULL, 1500000) == CZ_EUNSAT);
        /* A wrong parent row: the label (and the column hash) disagree. */
        cz_fr_add(&in.ch[1].exp[3].rows[0], &in.ch[1].exp[3].rows[0], &CZ_FR_ONE);
        CHECK(cz_porep_input_check(NULL, &in) == CZ_EUNSAT);
        CHECK(check_run(&p, &in, NULL, -1) == CZ_EUNSAT);
        cz_porep_input_free(&in);
    }
}

CZ_TEST(check_mode_eleven_layers)
{
    /* The production layer count (column arity 11) on a tiny tree. */
    cz_porep_params_t p;
    cz_porep_input_t in;
    REQUIRE(cz_porep_params_make(&p, 64, 11, 1, 8, 8, 0) == CZ_OK);
    REQUIRE(build_input(&in, &p, 7) == CZ_OK);
    CHECK_OK(cz_porep_input_check(NULL, &in));
    CHECK_OK(check_run(&p, &in, NULL, -1));
    in.ch[0].labels[4] = CZ_FR_ONE; /* not read by the circuit, checked natively */
    CHECK(cz_porep_input_check(NULL, &in) == CZ_EUNSAT);
    CHECK_OK(check_run(&p, &in, NULL, -1));
    cz_porep_input_free(&in);
}

CZ_TEST(public_inputs_match_circuit)
{
    cz_porep_params_t p;
    cz_porep_input_t in;
    REQUIRE(cz_porep_params_make(&p, 64, 2, 3, 8, 4, 2) == CZ_OK);
    REQUIRE(build_input(&in, &p, 3) == CZ_OK);
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_CHECK) == CZ_OK);
    CHECK_OK(cz_porep_circuit(cs, &p, &in));
    CHECK_OK(cz_cs_finish(cs));
    size_t n = cz_porep_num_inputs(&p);
    CHECK_EQ_U64(cz_cs_num_inputs(cs), n);
    cz_fr *pub = calloc(n, sizeof *pub);
    CHECK_OK(cz_porep_public_inputs(&in, pub, n - 1));
    CHECK_MEM_EQ(pub, cz_cs_inputs(cs) + 1, (n - 1) * sizeof(cz_fr));
    free(pub);
    cz_cs_free(cs);
    cz_porep_input_free(&in);
}

/* ---- parallel == sequential ------------------------------------------------------ */

static void compare_modes(const cz_porep_params_t *p, const cz_porep_input_t *in, cz_cs_mode_t mode,
                          cz_ctx_t *ctx)
{
    cz_cs_t *a, *b;
    REQUIRE(cz_cs_new(&a, NULL, mode) == CZ_OK);
    REQUIRE(cz_cs_new(&b, NULL, mode) == CZ_OK);
    const cz_porep_input_t *use = mode == CZ_CS_PROVE || mode == CZ_CS_CHECK ? in : NULL;
    CHECK_OK(cz_porep_circuit(a, p, use));
    CHECK_OK(cz_porep_synthesize(ctx, b, p, use));
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
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 2) == CZ_OK);
    cz_porep_params_t p;
    cz_porep_input_t in;
    /* 3 challenges on width 2: two waves (2 + 1). */
    REQUIRE(cz_porep_params_make(&p, 64, 2, 3, 8, 4, 2) == CZ_OK);
    REQUIRE(build_input(&in, &p, 11) == CZ_OK);
    compare_modes(&p, &in, CZ_CS_SHAPE, ctx);
    compare_modes(&p, &in, CZ_CS_PROVE, ctx);
    compare_modes(&p, &in, CZ_CS_KEYGEN, ctx);
    CHECK_OK(check_run(&p, &in, ctx, -1));
    /* A bad input found in a fork (challenge 2) fails the partition. */
    cz_fr_add(&in.ch[2].drg[2].rows[1], &in.ch[2].drg[2].rows[1], &CZ_FR_ONE);
    CHECK(check_run(&p, &in, ctx, -1) == CZ_EUNSAT);
    cz_porep_input_free(&in);
    cz_ctx_free(ctx);
}

CZ_TEST(null_input_only_without_values)
{
    cz_porep_params_t p;
    REQUIRE(cz_porep_params_make(&p, 8, 2, 1, 8, 0, 0) == CZ_OK);
    cz_cs_t *cs;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_PROVE) == CZ_OK);
    CHECK(cz_porep_circuit(cs, &p, NULL) == CZ_EINVAL);
    cz_cs_free(cs);
    cz_porep_input_t in;
    cz_porep_params_t q;
    REQUIRE(cz_porep_params_make(&q, 64, 2, 1, 8, 0, 0) == CZ_OK);
    REQUIRE(cz_porep_input_alloc(&in, &q) == CZ_OK);
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_CHECK) == CZ_OK);
    CHECK(cz_porep_circuit(cs, &p, &in) == CZ_EINVAL); /* input for other params */
    cz_cs_free(cs);
    cz_porep_input_free(&in);
    cz_porep_input_free(&in); /* harmless twice */
}

CZ_TEST_MAIN()
