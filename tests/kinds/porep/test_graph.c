/*
 * tests/kinds/porep/test_graph.c — ChaCha8, BLAKE2b, BucketGraph, Feistel, the
 * expander, challenges and replica_id.
 */
#include <stdlib.h>
#include <string.h>

#include "cz_test.h"
#include "hash/sha254.h"
#include "core/blake2b.h"
#include "kinds/porep/chacha8.h"
#include "kinds/porep/graph.h"
#include "kinds/porep/porep.h"

static void unhex(uint8_t *out, const char *hex)
{
    for (size_t i = 0; hex[2 * i]; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static void tohex(char *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", in[i]);
}

/* RFC 7539 2.3.2: ChaCha20 block, key 00..1f, nonce 000000090000004a00000000,
 * counter 1 (IETF layout: word 12 counter, 13..15 nonce). Checks the core. */
CZ_TEST(chacha20_rfc7539_block)
{
    uint32_t st[16], out[16];
    uint8_t key[32];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    cz_chacha_init_djb(st, key, 0, 0);
    st[12] = 1;
    st[13] = 0x09000000u;
    st[14] = 0x4a000000u;
    st[15] = 0;
    cz_chacha_block(out, st, 20);
    static const uint32_t want[16] = {
        0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3, 0xc7f4d1c7, 0x0368c033,
        0x9aaa2204, 0x4e6cd4c3, 0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
        0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2,
    };
    for (int i = 0; i < 16; i++)
        CHECK_EQ_U64(out[i], want[i]);
}

/* draft-strombergson-chacha-test-vectors TC1, 8 rounds, 256-bit zero key,
 * zero IV: the first 128 keystream bytes. ChaCha8Rng::from_seed([0; 32])
 * draws exactly this stream (words LE). */
CZ_TEST(chacha8_tc1_stream)
{
    static const char *tc1 = "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
                             "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42"
                             "d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566a26b"
                             "5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa";
    uint8_t want[128], got[128], zero[32] = { 0 };
    unhex(want, tc1);
    cz_chacha8_rng r;
    cz_chacha8_seed(&r, zero);
    for (int i = 0; i < 16; i++) {
        uint64_t v = cz_chacha8_next_u64(&r);
        for (int b = 0; b < 8; b++)
            got[8 * i + b] = (uint8_t)(v >> (8 * b));
    }
    CHECK_MEM_EQ(got, want, 128);
}

/* RFC 7693 appendix A: BLAKE2b-512("abc"); and of the empty string. */
CZ_TEST(blake2b_rfc7693)
{
    uint8_t h[64], want[64];
    cz_blake2b(h, 64, "abc", 3);
    unhex(want, "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
    CHECK_MEM_EQ(h, want, 64);
    cz_blake2b(h, 64, "", 0);
    unhex(want, "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
                "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce");
    CHECK_MEM_EQ(h, want, 64);
    /* multi-block message (200 bytes) against its two-block definition is
     * covered by the "abc" vector's compression; check determinism here */
    uint8_t big[200], h2[64];
    memset(big, 0x61, sizeof big);
    cz_blake2b(h, 64, big, sizeof big);
    cz_blake2b(h2, 64, big, sizeof big);
    CHECK_MEM_EQ(h, h2, 64);
    /* streamed in pieces of every size around the 128-byte block, for
     * messages that end on and off a block boundary (the final block must
     * carry the flag): equal to one shot */
    uint8_t msg[300];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 7 + 1);
    const size_t lens[] = { 0, 1, 127, 128, 129, 255, 256, 257, 300 };
    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
        cz_blake2b(h, 64, msg, lens[l]);
        for (size_t piece = 1; piece <= 130; piece++) {
            cz_blake2b_ctx c;
            cz_blake2b_init(&c, 64);
            for (size_t o = 0; o < lens[l]; o += piece)
                cz_blake2b_update(&c, msg + o, lens[l] - o < piece ? lens[l] - o : piece);
            cz_blake2b_final(&c, h2);
            if (memcmp(h, h2, 64))
                CZ__FAIL("blake2b streamed: len %zu in pieces of %zu differs", lens[l], piece);
        }
    }
}

/*
 * The parent cache file name of RFP cache.rs cache_path: sha256(H::name()
 * || graph.identifier() || feistel keys LE || cache_entries LE u32), hex,
 * as "v28-sdr-parent-<hex>.cache". A published rust-fil-proofs 2KiB
 * sealing log (seal_pre_commit_phase1, "using parent_cache[64 / 64]",
 * StackedDrg2KiBV1, porep id 0) opens
 * v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899.cache,
 * which pins the porep_id layout, the domain seed and the Feistel key
 * derivation (graph.rs derive_feistel_keys).
 */
CZ_TEST(parent_cache_name_2kib)
{
    const cz_porep_proof_t *pf = cz_porep_proof_by_name("StackedDrg2KiBV1");
    REQUIRE(pf && pf->id == 0);
    uint8_t porep_id[32];
    cz_porep_id(porep_id, pf);
    cz_porep_graph_t g;
    CHECK_OK(cz_porep_graph_init(&g, 64, porep_id));
    const char *name = "poseidon_hasher";
    const char *ident = "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
                        "drgraph::BucketGraph{size: 64; degree: 6; hasher: poseidon_hasher} }";
    cz_sha256_ctx s;
    cz_sha256_init(&s);
    cz_sha256_update(&s, name, strlen(name));
    cz_sha256_update(&s, ident, strlen(ident));
    for (int k = 0; k < 4; k++) {
        uint8_t le[8];
        for (int i = 0; i < 8; i++)
            le[i] = (uint8_t)(g.feistel_keys[k] >> (8 * i));
        cz_sha256_update(&s, le, 8);
    }
    uint8_t n[4] = { 64, 0, 0, 0 };
    cz_sha256_update(&s, n, 4);
    uint8_t h[32];
    char hex[65];
    cz_sha256_final(&s, h);
    tohex(hex, h, 32);
    CHECK_EQ_STR(hex, "3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899");
}

/* RFP drgraph.rs graph_bucket tests (properties): nodes 0/1 -> all 0;
 * deterministic; parents < node; V1_1 puts node - 1 first; no self loop. */
CZ_TEST(drg_properties)
{
    uint8_t porep_id[32] = { 5 };
    for (uint64_t size = 4; size <= 1u << 14; size *= 4) {
        cz_porep_graph_t g;
        CHECK_OK(cz_porep_graph_init(&g, size, porep_id));
        uint32_t p[6], q[6];
        cz_porep_drg_parents(&g, 0, p);
        for (int i = 0; i < 6; i++)
            CHECK_EQ_U64(p[i], 0);
        cz_porep_drg_parents(&g, 1, p);
        for (int i = 0; i < 6; i++)
            CHECK_EQ_U64(p[i], 0);
        for (uint32_t v = 2; v < size; v++) {
            cz_porep_drg_parents(&g, v, p);
            cz_porep_drg_parents(&g, v, q);
            CHECK(!memcmp(p, q, sizeof p));
            CHECK_EQ_U64(p[0], v - 1);
            for (int i = 0; i < 6; i++)
                if (p[i] >= v)
                    CZ__FAIL("node %u parent %u >= node", v, p[i]);
        }
    }
    /* distribution: over 2^14 nodes, parents reach into the far half of the
     * predecessors (bucket sampling gives long edges) */
    cz_porep_graph_t g;
    CHECK_OK(cz_porep_graph_init(&g, 1u << 14, porep_id));
    unsigned far = 0, total = 0;
    for (uint32_t v = 1u << 13; v < (1u << 14); v += 7) {
        uint32_t p[6];
        cz_porep_drg_parents(&g, v, p);
        for (int i = 1; i < 6; i++, total++)
            far += p[i] < v / 2;
    }
    CHECK(far > total / 20);
}

/* RFP feistel.rs tests: powers of 4 encode/decode round trip in range with
 * keys [1,2,3,4]; permute/invert on BAD_NS; graph.rs test_shuffle: a
 * permutation of n*d for n = 2^10, d = 8. */
/* The legacy (V1, porep_id <= 4) graph: the same sampled parents as V1_1 of
 * that porep_id would give, moved: predecessor last (drgraph.rs
 * predecessor_index = m_prime); expander parents = (u32)permute / 8
 * (graph.rs correspondent, ApiVersion::V1_0_0). Real 32GiB data:
 * tests/compat/test_compat_porep.c. */
CZ_TEST(legacy_graph)
{
    uint8_t v1[32] = { 3 }, v1_1[32] = { 8 };
    CHECK(cz_porep_id_is_legacy(v1));
    CHECK(!cz_porep_id_is_legacy(v1_1));
    uint8_t big[32] = { 4, 0, 0, 0, 0, 0, 0, 1 }; /* id 2^56 + 4: not legacy */
    CHECK(!cz_porep_id_is_legacy(big));
    cz_porep_graph_t g, h;
    CHECK_OK(cz_porep_graph_init(&g, 1u << 14, v1));
    CHECK(g.legacy);
    h = g;
    h.legacy = 0; /* same seeds, V1_1 rules */
    for (uint32_t v = 2; v < (1u << 14); v += 97) {
        uint32_t p[6], q[6];
        cz_porep_drg_parents(&g, v, p);
        cz_porep_drg_parents(&h, v, q);
        CHECK_EQ_U64(p[5], v - 1);
        for (int i = 0; i < 5; i++)
            CHECK_EQ_U64(p[i], q[i + 1]);
    }
    /* below 2^29 nodes x 8 the truncation never bites */
    uint32_t a[8], b[8];
    for (uint32_t v = 0; v < (1u << 14); v += 101) {
        cz_porep_exp_parents(&g, v, a);
        cz_porep_exp_parents(&h, v, b);
        CHECK(!memcmp(a, b, sizeof a));
    }
    /* at 32GiB (2^33 slots) it does: every legacy parent < 2^29 */
    CHECK_OK(cz_porep_graph_init(&g, 1ull << 30, v1));
    h = g;
    h.legacy = 0;
    unsigned differ = 0;
    for (uint32_t v = 1; v < 2000; v += 13) {
        cz_porep_exp_parents(&g, v, a);
        cz_porep_exp_parents(&h, v, b);
        for (int i = 0; i < 8; i++) {
            CHECK(a[i] < (1u << 29));
            CHECK_EQ_U64(a[i], b[i] % (1u << 29)); /* (t mod 2^32) / 8 */
            differ += a[i] != b[i];
        }
    }
    CHECK(differ > 100);
}

CZ_TEST(feistel_permutation)
{
    const uint64_t keys[4] = { 1, 2, 3, 4 };
    for (uint64_t n = 4; n <= 256; n *= 4) {
        uint64_t lm, rm;
        unsigned hb;
        cz_feistel_precompute(n, &lm, &rm, &hb);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t p = cz_feistel_encode(i, keys, lm, rm, hb);
            CHECK(p < n);
            CHECK_EQ_U64(cz_feistel_decode(p, keys, lm, rm, hb), i);
        }
    }
    static const uint64_t bad[] = { 5, 6, 8, 12, 17 };
    for (size_t k = 0; k < 5; k++) {
        uint64_t n = bad[k], lm, rm;
        unsigned hb;
        cz_feistel_precompute(n, &lm, &rm, &hb);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t p = cz_feistel_permute(n, i, keys, lm, rm, hb);
            CHECK(p < n);
            CHECK_EQ_U64(cz_feistel_invert(n, p, keys, lm, rm, hb), i);
        }
    }
    const uint64_t n = 1u << 13;
    uint8_t *seen = calloc(n, 1);
    uint64_t lm, rm;
    unsigned hb;
    cz_feistel_precompute(n, &lm, &rm, &hb);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t p = cz_feistel_permute(n, i, keys, lm, rm, hb);
        REQUIRE(p < n);
        CHECK(!seen[p]);
        seen[p] = 1;
    }
    free(seen);
}

/* graph.rs test_exp_parent_histogram-like check on a small graph: expander
 * parents spread over the whole layer. */
CZ_TEST(expander_spread)
{
    uint8_t porep_id[32] = { 5 };
    cz_porep_graph_t g;
    const uint64_t N = 1u << 12;
    CHECK_OK(cz_porep_graph_init(&g, N, porep_id));
    unsigned hist[8] = { 0 };
    for (uint32_t v = 0; v < N; v++) {
        uint32_t e[8];
        cz_porep_exp_parents(&g, v, e);
        for (int i = 0; i < 8; i++) {
            REQUIRE(e[i] < N);
            hist[e[i] / (N / 8)]++;
        }
    }
    for (int b = 0; b < 8; b++) /* 4096 per bin uniform, +-20% */
        CHECK(hist[b] > 3276 && hist[b] < 4915);
}

CZ_TEST(parent_cache_matches_direct)
{
    uint8_t porep_id[32] = { 6 };
    cz_porep_graph_t g;
    CHECK_OK(cz_porep_graph_init(&g, 4096, porep_id));
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 2));
    uint32_t *cache;
    CHECK_OK(cz_porep_parent_cache(ctx, &g, &cache));
    for (uint32_t v = 0; v < 4096; v += 13) {
        uint32_t p[14];
        cz_porep_parents(&g, v, p);
        CHECK(!memcmp(p, cache + 14 * v, sizeof p));
    }
    free(cache);
    cz_ctx_free(ctx);
}

/* challenges.rs derive_porep: in [1, nodes), deterministic, depend on k. */
CZ_TEST(challenges_properties)
{
    uint8_t rid[32], seed[32];
    memset(rid, 7, 32);
    rid[31] = 0x07;
    memset(seed, 9, 32);
    uint64_t a[18], b[18], c[18];
    CHECK_OK(cz_porep_challenges(a, 18, 1ull << 30, rid, seed, 0));
    CHECK_OK(cz_porep_challenges(b, 18, 1ull << 30, rid, seed, 0));
    CHECK_OK(cz_porep_challenges(c, 18, 1ull << 30, rid, seed, 1));
    CHECK(!memcmp(a, b, sizeof a));
    CHECK(memcmp(a, c, sizeof a));
    for (int i = 0; i < 18; i++)
        CHECK(a[i] >= 1 && a[i] < (1ull << 30));
    /* partition k, challenge i uses j = 18k + i: k=1 i=0 == k=0 with count 36 at 18 */
    uint64_t d[36];
    CHECK_OK(cz_porep_challenges(d, 36, 1ull << 30, rid, seed, 0));
    CHECK(!memcmp(d + 18, c, sizeof c));
    /* small sectors: 64 nodes, never node 0 */
    for (unsigned k = 0; k < 200; k++) {
        uint64_t e[2];
        seed[0] = (uint8_t)k;
        CHECK_OK(cz_porep_challenges(e, 2, 64, rid, seed, 0));
        CHECK(e[0] >= 1 && e[0] < 64 && e[1] >= 1 && e[1] < 64);
    }
    CHECK_EQ_INT(cz_porep_challenges(a, 1, 2, rid, seed, 0), CZ_EINVAL);
}

/* params.rs generate_replica_id: sha256 of the 136-byte preimage, Fr-safe. */
CZ_TEST(replica_id_definition)
{
    uint8_t prover[32], ticket[32], comm_d[32], porep_id[32], out[32];
    memset(prover, 9, 32);
    memset(ticket, 1, 32);
    memset(comm_d, 3, 32);
    cz_porep_id(porep_id, cz_porep_proof_v1_1(2048));
    CHECK_EQ_U64(porep_id[0], 5);
    cz_porep_replica_id(out, prover, 0x0102030405060708ull, ticket, comm_d, porep_id);
    uint8_t pre[136], want[32];
    memcpy(pre, prover, 32);
    for (int i = 0; i < 8; i++)
        pre[32 + i] = (uint8_t)(i + 1);
    memcpy(pre + 40, ticket, 32);
    memcpy(pre + 72, comm_d, 32);
    memcpy(pre + 104, porep_id, 32);
    cz_sha256(want, pre, sizeof pre);
    want[31] &= 0x3f;
    CHECK_MEM_EQ(out, want, 32);
    CHECK(cz_porep_proof_by_name("StackedDrg32GiBV1_1")->id == 8);
    CHECK(!strcmp(cz_porep_proof_by_name("StackedDrg32GiBV1_1")->vanilla_key, "StackedDrg32GiBV1"));
    CHECK(cz_porep_proof_by_name("nope") == NULL);
}

CZ_TEST_MAIN()
