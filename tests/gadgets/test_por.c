/*
 * tests/gadgets/test_por.c — the PoR gadget (RFP storage-proofs-core
 * gadgets/por.rs): FACTS 3 counts (Poseidon base-8 over 64 leaves = 1,063;
 * SHA256 base-2 over 64 leaves = 272,295), inclusion proofs from native
 * trees verify in CHECK mode for every tree shape Filecoin uses, a wrong
 * sibling or leaf fails, and corrupted witness values fail by name.
 */
#include "gadget_check.h"

#include <stdlib.h>

#include "gadgets/por.h"
#include "hash/sha254.h"

typedef struct {
    cz_por_shape_t shape;
    cz_por_tree_t tree;
    uint64_t challenge;
    cz_fr *siblings;
    cz_fr leaf, root;
    bool private_root;
} por_arg;

static int por_circuit(cz_cs_t *cs, void *p)
{
    por_arg *a = p;
    cz_por_path_t path = { a->challenge, a->siblings };
    cz_por_num_t leaf = { NULL, a->leaf }, root = { NULL, a->root };
    return cz_por_circuit(cs, &a->shape, &path, &leaf, &root, a->private_root);
}

/* Tree of |leaves| random leaves and the path of |challenge|. */
static bool setup(por_arg *a, cz_por_hasher_t h, unsigned base, unsigned sub, unsigned top,
                  uint64_t leaves, uint64_t challenge, uint64_t seed)
{
    memset(a, 0, sizeof *a);
    if (cz_por_shape(&a->shape, h, base, sub, top, leaves))
        return false;
    cz_fr *l = malloc(leaves * sizeof *l);
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    for (uint64_t i = 0; i < leaves; i++)
        cz_fr_random_rng(&l[i], &rng);
    int rc = cz_por_tree_build(&a->tree, &a->shape, l);
    free(l);
    if (rc)
        return false;
    a->siblings = malloc(cz_por_path_len(&a->shape) * sizeof *a->siblings);
    a->challenge = challenge;
    a->leaf = *cz_por_tree_leaf(&a->tree, challenge);
    a->root = *cz_por_tree_root(&a->tree);
    return cz_por_tree_path(&a->tree, challenge, a->siblings) == CZ_OK;
}

static void teardown(por_arg *a)
{
    cz_por_tree_free(&a->tree);
    free(a->siblings);
}

CZ_TEST(por_poseidon_base8_64_count)
{
    por_arg a;
    REQUIRE(setup(&a, CZ_POR_POSEIDON, 8, 0, 0, 64, 13, 1));
    gc_counts_t c = gc_satisfied(por_circuit, &a);
    CHECK_EQ_U64(c.constraints, 1063); /* FACTS 3 */
    CHECK_EQ_U64(c.inputs, 3);         /* ONE, packed path, root */
    teardown(&a);
}

CZ_TEST(por_sha256_base2_64_count)
{
    por_arg a;
    REQUIRE(setup(&a, CZ_POR_SHA254, 2, 0, 0, 64, 37, 2));
    gc_counts_t c = gc_counts(CZ_CS_CHECK, por_circuit, &a);
    CHECK_EQ_INT(c.rc, CZ_OK);
    CHECK_EQ_U64(c.constraints, 272295); /* FACTS 3 */
    gc_counts_t s = gc_counts(CZ_CS_SHAPE, por_circuit, &a);
    CHECK_EQ_U64(s.constraints, c.constraints);
    CHECK_EQ_U64(s.aux, c.aux);
    teardown(&a);
}

/* Native SHA254 node = FACTS 5 definition: SHA254(left32 || right32). */
CZ_TEST(por_sha254_native_node)
{
    cz_fr ch[2], out;
    uint8_t buf[64] = { 1 }, d[32], r[32];
    CHECK_OK(cz_fr_from_repr(&ch[0], buf));
    CHECK_OK(cz_fr_from_repr(&ch[1], buf + 32));
    CHECK_OK(cz_por_hash_native(&out, CZ_POR_SHA254, ch, 2));
    cz_fr_to_repr(r, &out);
    cz_sha254(d, buf, 64);
    CHECK_MEM_EQ(r, d, 32);
}

/* Every shape Filecoin uses, every leaf of a small tree or a sample. */
CZ_TEST(por_shapes_verify)
{
    struct {
        cz_por_hasher_t h;
        unsigned b, s, t;
        uint64_t leaves;
    } shapes[] = {
        { CZ_POR_SHA254, 2, 0, 0, 8 },      /* tree_d */
        { CZ_POR_POSEIDON, 8, 0, 0, 64 },   /* tree_r_last / tree_c, small sectors */
        { CZ_POR_POSEIDON, 8, 8, 0, 512 },  /* 32GiB shape */
        { CZ_POR_POSEIDON, 8, 8, 2, 1024 }, /* 64GiB shape */
        { CZ_POR_POSEIDON, 4, 0, 0, 16 },   { CZ_POR_POSEIDON, 2, 4, 0, 16 },
        { CZ_POR_POSEIDON, 8, 4, 2, 64 },
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        uint64_t n = shapes[k].leaves;
        for (uint64_t ch = 0; ch < n; ch += n / 4 + 1) {
            por_arg a;
            REQUIRE(setup(&a, shapes[k].h, shapes[k].b, shapes[k].s, shapes[k].t, n, ch, 10 + k));
            a.private_root = ch & 1;
            gc_counts_t c = gc_counts(CZ_CS_CHECK, por_circuit, &a);
            CHECK_EQ_INT(c.rc, CZ_OK);
            CHECK_EQ_U64(c.inputs, a.private_root ? 2 : 3);
            /* The last challenge: the highest leaf. */
            if (ch + n / 4 + 1 >= n && ch != n - 1) {
                teardown(&a);
                REQUIRE(setup(&a, shapes[k].h, shapes[k].b, shapes[k].s, shapes[k].t, n, n - 1,
                              10 + k));
                c = gc_counts(CZ_CS_CHECK, por_circuit, &a);
                CHECK_EQ_INT(c.rc, CZ_OK);
            }
            teardown(&a);
        }
    }
}

CZ_TEST(por_wrong_sibling_or_leaf_fails)
{
    por_arg a;
    REQUIRE(setup(&a, CZ_POR_POSEIDON, 8, 8, 0, 512, 300, 5));
    size_t n = cz_por_path_len(&a.shape);
    for (size_t k = 0; k < n; k += 3) {
        cz_fr keep = a.siblings[k];
        cz_fr_add(&a.siblings[k], &a.siblings[k], &CZ_FR_ONE);
        gc_counts_t c = gc_counts(CZ_CS_CHECK, por_circuit, &a);
        CHECK_EQ_INT(c.rc, CZ_EUNSAT);
        a.siblings[k] = keep;
    }
    cz_fr_add(&a.leaf, &a.leaf, &CZ_FR_ONE);
    CHECK_EQ_INT(gc_counts(CZ_CS_CHECK, por_circuit, &a).rc, CZ_EUNSAT);
    teardown(&a);

    /* A wrong sibling in a SHA254 tree: the root equality names the failure. */
    REQUIRE(setup(&a, CZ_POR_SHA254, 2, 0, 0, 4, 2, 6));
    cz_fr_add(&a.siblings[1], &a.siblings[1], &CZ_FR_ONE);
    cz_cs_t *cs = NULL;
    REQUIRE(cz_cs_new(&cs, NULL, CZ_CS_CHECK) == CZ_OK);
    CHECK_OK(por_circuit(cs, &a));
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_EUNSAT);
    size_t idx;
    const char *path = NULL;
    CHECK(cz_cs_unsatisfied(cs, &idx, &path));
    CHECK_EQ_STR(path ? path : "", "enforce root is correct");
    cz_cs_free(cs);
    teardown(&a);
}

CZ_TEST(por_corrupt)
{
    por_arg a;
    REQUIRE(setup(&a, CZ_POR_POSEIDON, 8, 0, 0, 64, 21, 8));
    gc_counts_t c = gc_counts(CZ_CS_CHECK, por_circuit, &a);
    CHECK_EQ_INT(c.rc, CZ_OK);
    gc_corrupt_many(por_circuit, &a, c.aux, 60);
    teardown(&a);
}

/* por_no_challenge_input over pre-allocated bits, leaf, path and root. */
typedef struct {
    por_arg *a;
} nci_arg;

static int nci_circuit(cz_cs_t *cs, void *p)
{
    por_arg *a = ((nci_arg *)p)->a;
    size_t n = cz_por_path_len(&a->shape), nb = 0;
    cz_bool_t bits[64];
    cz_num_t leaf, root, sib[64];
    int rc;
    for (unsigned l = 0; l < cz_por_levels(&a->shape); l++)
        nb += (size_t)__builtin_ctz(cz_por_level_arity(&a->shape, l));
    for (size_t i = 0; i < nb; i++)
        if ((rc = cz_bit_alloc(cs, &bits[i], (a->challenge >> i) & 1)))
            return rc;
    if ((rc = cz_num_alloc(cs, &leaf, &a->leaf)))
        return rc;
    for (size_t i = 0; i < n; i++)
        if ((rc = cz_num_alloc(cs, &sib[i], &a->siblings[i])))
            return rc;
    if ((rc = cz_num_alloc(cs, &root, &a->root)))
        return rc;
    return cz_por_no_challenge_input(cs, &a->shape, bits, &leaf, sib, &root);
}

CZ_TEST(por_no_challenge_input_verifies)
{
    por_arg a;
    REQUIRE(setup(&a, CZ_POR_POSEIDON, 8, 8, 2, 1024, 777, 9));
    nci_arg n = { &a };
    gc_counts_t c = gc_satisfied(nci_circuit, &n);
    /* bits (10) + 3 x (insert_8 22 + 505) + insert_2 (2) + 311 + equal 1 */
    CHECK_EQ_U64(c.constraints, 10 + 3 * (22 + 505) + 2 + 311 + 1);
    cz_fr_add(&a.siblings[9], &a.siblings[9], &CZ_FR_ONE);
    CHECK_EQ_INT(gc_counts(CZ_CS_CHECK, nci_circuit, &n).rc, CZ_EUNSAT);
    teardown(&a);
}

CZ_TEST_MAIN()
