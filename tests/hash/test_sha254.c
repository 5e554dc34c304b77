/*
 * tests/hash/test_sha254.c — SHA-256 (FIPS 180-4 / NIST CAVP examples),
 * SHA254 and comm_d against FACTS 5, SHA-NI against portable C.
 */
#include "cz_test.h"

#include "hash/sha254.h"

static void to_hex(char *buf, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(buf + 2 * i, "%02x", p[i]);
}

static void check_sha256(const void *msg, size_t len, const char *expect)
{
    uint8_t d[32];
    char hex[65];
    cz_sha256(d, msg, len);
    to_hex(hex, d, 32);
    CHECK_EQ_STR(hex, expect);
}

/* NIST examples (FIPS 180-2 appendix B / CSRC SHA256.pdf). */
CZ_TEST(sha256_nist)
{
    check_sha256("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    check_sha256("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    check_sha256(m448, strlen(m448),
                 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* One million 'a', fed in uneven pieces to exercise the streaming buffer. */
CZ_TEST(sha256_million_a)
{
    static uint8_t a[1000];
    memset(a, 'a', sizeof a);
    cz_sha256_ctx s;
    cz_sha256_init(&s);
    size_t left = 1000000, step = 1;
    while (left) {
        size_t n = step < left ? step : left;
        cz_sha256_update(&s, a, n);
        left -= n;
        step = step * 7 % 997 + 1;
    }
    uint8_t d[32];
    char hex[65];
    cz_sha256_final(&s, d);
    to_hex(hex, d, 32);
    CHECK_EQ_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* FACTS 5: SHA254(0x01 || 0^63), and the node helper gives the same. */
CZ_TEST(sha254_vector)
{
    uint8_t msg[64] = { 1 }, d[32], n[32];
    char hex[65];
    cz_sha254(d, msg, 64);
    to_hex(hex, d, 32);
    CHECK_EQ_STR(hex, "16abab341fb7f370e27e4dadcf81766dd0dfd0ae64469477bb2cf6614938b22f");
    cz_sha254_node(n, msg, msg + 32);
    CHECK_MEM_EQ(n, d, 32);
    CHECK((d[31] & 0xc0) == 0);
}

/* The SHA-NI compression equals the portable one on random blocks. */
CZ_TEST(shani_equals_portable)
{
    if (!cz_sha256_shani_available()) {
        printf("  (no SHA-NI on this CPU: only the portable path is tested)\n");
        return;
    }
    uint8_t buf[64 * 9];
    uint64_t x = 0x0123456789abcdefull;
    for (int round = 0; round < 50; round++) {
        for (size_t i = 0; i < sizeof buf; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            buf[i] = (uint8_t)x;
        }
        uint32_t a[8], b[8];
        for (int i = 0; i < 8; i++)
            a[i] = b[i] = (uint32_t)(x >> (i * 4)) * 2654435761u;
        size_t nblk = 1 + (size_t)round % 9;
        cz_sha256_blocks_portable(a, buf, nblk);
        cz_sha256_blocks_shani(b, buf, nblk);
        CHECK_MEM_EQ(a, b, sizeof a);
    }
}

static void check_hex32(const uint8_t *d, const char *expect)
{
    char hex[65];
    to_hex(hex, d, 32);
    CHECK_EQ_STR(hex, expect);
}

/* FACTS 5: level 1 of the zero tree and comm_d of zero sectors. The tree
 * builder (on a 2-thread pool) and the one-hash-per-level path must agree. */
CZ_TEST(comm_d_zero)
{
    uint8_t d[32];
    CHECK_OK(cz_sha254_comm_d_zero(d, 64));
    check_hex32(d, "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b");
    CHECK_OK(cz_sha254_comm_d_zero(d, 2048));
    check_hex32(d, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    CHECK_OK(cz_sha254_comm_d_zero(d, 8u << 20));
    check_hex32(d, "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c");
    CHECK_OK(cz_sha254_comm_d_zero(d, 512u << 20));
    check_hex32(d, "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06");
    CHECK_OK(cz_sha254_comm_d_zero(d, 32ull << 30));
    check_hex32(d, "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e");
    CHECK_EQ_INT(cz_sha254_comm_d_zero(d, 32), CZ_EINVAL);
    CHECK_EQ_INT(cz_sha254_comm_d_zero(d, 3000), CZ_EINVAL);

    cz_ctx_t *ctx = NULL;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 2));
    uint8_t *zero = calloc(8u << 20, 1);
    REQUIRE(zero != NULL);
    CHECK_OK(cz_sha254_comm_d(ctx, d, zero, 2048));
    check_hex32(d, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    CHECK_OK(cz_sha254_comm_d(ctx, d, zero, 8u << 20));
    check_hex32(d, "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c");
    CHECK_OK(cz_sha254_comm_d(NULL, d, zero, 64));
    check_hex32(d, "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b");
    CHECK_EQ_INT(cz_sha254_comm_d(ctx, d, zero, 96), CZ_EINVAL);
    free(zero);
    cz_ctx_free(ctx);
}

/* FACTS 5: a 2KiB sector with data[0] = 1. */
CZ_TEST(comm_d_2kib_one)
{
    uint8_t data[2048] = { 1 }, d[32];
    CHECK_OK(cz_sha254_comm_d(NULL, d, data, sizeof data));
    check_hex32(d, "ea995c54784720b449fc92b070adb6cf6635c2619a7a5e0054a24e88f252ec0d");
}

/* Non-uniform data over several subtrees (1 MiB = 8 subtrees of 4096
 * leaves): the pooled builder equals a plain level-by-level reduction. */
CZ_TEST(comm_d_random_matches_levels)
{
    const size_t len = (size_t)1 << 20, n = len / 32;
    uint8_t *data = malloc(len), *lvl = malloc(len / 2), d[32];
    REQUIRE(data && lvl);
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < len; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        data[i] = (uint8_t)(x >> 24);
    }
    for (size_t i = 0; i < n / 2; i++)
        cz_sha254_node(lvl + 32 * i, data + 64 * i, data + 64 * i + 32);
    for (size_t m = n / 2; m > 1; m /= 2)
        for (size_t i = 0; i < m / 2; i++)
            cz_sha254_node(lvl + 32 * i, lvl + 64 * i, lvl + 64 * i + 32);
    cz_ctx_t *ctx = NULL;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 2));
    CHECK_OK(cz_sha254_comm_d(ctx, d, data, len));
    CHECK_MEM_EQ(d, lvl, 32);
    CHECK_OK(cz_sha254_comm_d(NULL, d, data, len));
    CHECK_MEM_EQ(d, lvl, 32);
    cz_ctx_free(ctx);
    free(data);
    free(lvl);
}

CZ_TEST_MAIN()
