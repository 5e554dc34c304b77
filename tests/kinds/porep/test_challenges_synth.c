/*
 * tests/kinds/porep/test_challenges_synth.c — Synthetic and Non-Interactive PoRep
 * challenges (kinds/porep/challenges_synth.c) and their primitives:
 *   - keyed BLAKE2b against the BLAKE2 reference KAT (blake2b-kat.txt: key
 *     00..3f, inputs "" and "00");
 *   - challenges in [1, nodes), deterministic, every input matters;
 *   - partition k's challenges are challenges [k n, k n + n) of one
 *     partition of (k + 1) n (RFP challenges.rs challenge_partition_
 *     equivalence, which also holds for the synthetic index stream and the
 *     NI counter);
 *   - synthetic challenges are drawn from a set of min(nodes, 2^18): at 2KiB
 *     (64 nodes) every challenge is a node, and the registered proofs
 *     dispatch to the right derivation.
 * The real synthetic seals (rust-fil-proofs regression records) are checked
 * by tests/compat/test_compat_regression.c when the v28 vks are present.
 */
#include <string.h>

#include "core/hex.h"
#include "cz_test.h"
#include "core/blake2b.h"
#include "kinds/porep/porep.h"

CZ_TEST(blake2b_keyed_kat)
{
    uint8_t key[64], h[64], want[64];
    for (int i = 0; i < 64; i++)
        key[i] = (uint8_t)i;
    cz_blake2b_ctx c;
    cz_blake2b_init_key(&c, 64, key, 64);
    cz_blake2b_final(&c, h);
    REQUIRE(cz_hex_decode(want,
                          "10ebb67700b1868efb4417987acf4690ae9d972fb7a590c2f02871799aaa4786"
                          "b5e996e8f0f4eb981fc214b005f42d2ff4233499391653df7aefcbc13fc51568",
                          64));
    CHECK_MEM_EQ(h, want, 64);
    const uint8_t zero = 0;
    cz_blake2b_init_key(&c, 64, key, 64);
    cz_blake2b_update(&c, &zero, 1);
    cz_blake2b_final(&c, h);
    REQUIRE(cz_hex_decode(want,
                          "961f6dd1e4dd30f63901690c512e78e4b45e4742ed197c3c5e45c549fd25f2e4"
                          "187b0bc9fe30",
                          38));
    CHECK_MEM_EQ(h, want, 38);
}

static void fill(uint8_t *b, uint8_t v)
{
    for (int i = 0; i < 32; i++)
        b[i] = (uint8_t)(v + 3 * i);
    b[31] &= 0x3f;
}

CZ_TEST(ranges_and_determinism)
{
    uint8_t rid[32], comm_r[32], seed[32];
    fill(rid, 1);
    fill(comm_r, 2);
    fill(seed, 3);
    const uint64_t sizes[] = { 64, 1ull << 18, 1ull << 30 };
    for (size_t s = 0; s < 3; s++) {
        uint64_t a[18], b[18], c[18];
        CHECK_OK(cz_porep_challenges_synthetic(a, 18, sizes[s], rid, comm_r, seed, 3));
        CHECK_OK(cz_porep_challenges_synthetic(b, 18, sizes[s], rid, comm_r, seed, 3));
        CHECK(!memcmp(a, b, sizeof a));
        CHECK_OK(cz_porep_challenges_ni(c, 18, sizes[s], rid, comm_r, 3));
        for (int i = 0; i < 18; i++) {
            CHECK(a[i] >= 1 && a[i] < sizes[s]);
            CHECK(c[i] >= 1 && c[i] < sizes[s]);
        }
        if (sizes[s] > 64) {
            /* each input changes the result: comm_r and seed for synthetic,
             * comm_r (and not the seed, which NI has none of) for NI */
            uint8_t other[32];
            fill(other, 9);
            CHECK_OK(cz_porep_challenges_synthetic(b, 18, sizes[s], rid, other, seed, 3));
            CHECK(memcmp(a, b, sizeof a));
            CHECK_OK(cz_porep_challenges_synthetic(b, 18, sizes[s], rid, comm_r, other, 3));
            CHECK(memcmp(a, b, sizeof a));
            CHECK_OK(cz_porep_challenges_synthetic(b, 18, sizes[s], other, comm_r, seed, 3));
            CHECK(memcmp(a, b, sizeof a));
            CHECK_OK(cz_porep_challenges_ni(b, 18, sizes[s], rid, other, 3));
            CHECK(memcmp(c, b, sizeof c));
            CHECK_OK(cz_porep_challenges(b, 18, sizes[s], rid, seed, 3));
            CHECK(memcmp(a, b, sizeof a) && memcmp(c, b, sizeof c));
        }
    }
    uint64_t x[2];
    CHECK_EQ_INT(cz_porep_challenges_synthetic(x, 2, 2, rid, comm_r, seed, 0), CZ_EINVAL);
    CHECK_EQ_INT(cz_porep_challenges_ni(x, 2, (1ull << 32) + 1, rid, comm_r, 0), CZ_EINVAL);
}

CZ_TEST(partition_equivalence)
{
    uint8_t rid[32], comm_r[32], seed[32];
    fill(rid, 11);
    fill(comm_r, 12);
    fill(seed, 13);
    enum { N = 18, K = 5 };
    uint64_t all[N * (K + 1)], part[N];
    const uint64_t nodes = 1ull << 30;
    CHECK_OK(cz_porep_challenges_synthetic(all, N * (K + 1), nodes, rid, comm_r, seed, 0));
    for (unsigned k = 0; k <= K; k++) {
        CHECK_OK(cz_porep_challenges_synthetic(part, N, nodes, rid, comm_r, seed, k));
        CHECK(!memcmp(part, all + k * N, sizeof part));
    }
    CHECK_OK(cz_porep_challenges_ni(all, N * (K + 1), nodes, rid, comm_r, 0));
    for (unsigned k = 0; k <= K; k++) {
        CHECK_OK(cz_porep_challenges_ni(part, N, nodes, rid, comm_r, k));
        CHECK(!memcmp(part, all + k * N, sizeof part));
    }
}

CZ_TEST(registered_proofs_dispatch)
{
    const cz_porep_proof_t *s = cz_porep_proof_by_name("StackedDrg2KiBV1_1_Feat_SyntheticPoRep");
    const cz_porep_proof_t *ni = cz_porep_proof_by_name(
        "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep");
    const cz_porep_proof_t *v = cz_porep_proof_by_name("StackedDrg2KiBV1_1");
    REQUIRE(s && ni && v);
    CHECK_EQ_U64(s->id, 10);
    CHECK_EQ_U64(ni->id, 18);
    CHECK(s->v1_1 && ni->v1_1);
    CHECK(cz_porep_proof_v1_1(2048) == v); /* the interactive one of the size */
    uint8_t pid[32];
    cz_porep_id(pid, s);
    CHECK_EQ_U64(pid[0], 10);
    cz_porep_params_t p;
    CHECK_OK(cz_porep_proof_params(&p, ni));
    CHECK_EQ_U64(p.partitions, 126);
    CHECK_EQ_U64(p.challenges, 18);
    /* NI at every size (RFP constants.rs: 26 challenges over 13 partitions at
     * the test sizes, 2253 over 126 at 32GiB/64GiB): the V1_1 circuit of the
     * size (same params file), only the partition count differs */
    static const struct {
        const char *ni, *v11;
        unsigned parts;
    } sizes[] = {
        { "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", "StackedDrg2KiBV1_1", 13 },
        { "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", "StackedDrg8MiBV1_1", 13 },
        { "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", "StackedDrg512MiBV1_1", 13 },
        { "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", "StackedDrg32GiBV1_1", 126 },
        { "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", "StackedDrg64GiBV1_1", 126 },
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const cz_porep_proof_t *n = cz_porep_proof_by_name(sizes[i].ni);
        const cz_porep_proof_t *w = cz_porep_proof_by_name(sizes[i].v11);
        REQUIRE(n && w);
        CHECK_EQ_U64(n->id, 15 + i);
        cz_porep_params_t pn, pw;
        CHECK_OK(cz_porep_proof_params(&pn, n));
        CHECK_OK(cz_porep_proof_params(&pw, w));
        CHECK_EQ_U64(pn.partitions, sizes[i].parts);
        CHECK(cz_porep_params_same_circuit(&pn, &pw));
        /* at least the minimum: 26 / 2253 challenges in all */
        CHECK((uint64_t)pn.partitions * pn.challenges >= (sizes[i].parts == 13 ? 26u : 2253u));
    }
    uint8_t rid[32], comm_r[32], seed[32];
    fill(rid, 21);
    fill(comm_r, 22);
    fill(seed, 23);
    uint64_t a[2], b[2];
    CHECK_OK(cz_porep_proof_challenges(a, 2, 64, s, rid, comm_r, seed, 0));
    CHECK_OK(cz_porep_challenges_synthetic(b, 2, 64, rid, comm_r, seed, 0));
    CHECK(!memcmp(a, b, sizeof a));
    CHECK_OK(cz_porep_proof_challenges(a, 2, 1ull << 30, ni, rid, comm_r, seed, 0));
    CHECK_OK(cz_porep_challenges_ni(b, 2, 1ull << 30, rid, comm_r, 0));
    CHECK(!memcmp(a, b, sizeof a));
    CHECK_OK(cz_porep_proof_challenges(a, 2, 64, v, rid, comm_r, seed, 0));
    CHECK_OK(cz_porep_challenges(b, 2, 64, rid, seed, 0));
    CHECK(!memcmp(a, b, sizeof a));
}

CZ_TEST_MAIN()
