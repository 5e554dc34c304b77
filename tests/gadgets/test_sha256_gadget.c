/*
 * tests/gadgets/test_sha256_gadget.c — the SHA-256 circuit against the native
 * hash, and bellpepper's constraint counts (bellpepper src/gadgets/sha256.rs
 * tests: one compression of 512 allocated bits = 25,840 constraints, sha256
 * of 512 allocated bits = 44,874, an all-constant block = 0).
 */
#include "gadget_check.h"

#include <stdlib.h>

#include "hash/sha254.h"
#include "gadgets/sha256_gadget.h"

typedef struct {
    const uint8_t *msg;
    size_t len;
    bool constant;      /* input bits as constants instead of allocated */
    bool compress_only; /* one block, no padding (len must be 64) */
    uint8_t out[32];
} sha_arg;

static int sha_circuit(cz_cs_t *cs, void *p)
{
    sha_arg *a = p;
    size_t nbits = a->len * 8;
    cz_bool_t *bits = malloc((nbits ? nbits : 1) * sizeof *bits), out[256];
    int rc = CZ_OK;
    for (size_t i = 0; i < nbits && rc == CZ_OK; i++) {
        bool v = (a->msg[i / 8] >> (7 - i % 8)) & 1;
        if (a->constant) {
            bits[i] = cz_bool_const(v);
            continue;
        }
        if ((rc = cz_cs_pushf(cs, "input bit %zu", i)) || (rc = cz_bit_alloc(cs, &bits[i], v)))
            break;
        rc = cz_cs_pop(cs);
    }
    if (rc == CZ_OK) {
        rc = a->compress_only ? cz_sha256_gadget_block(cs, out, bits)
                              : cz_sha256_gadget(cs, out, bits, nbits);
    }
    free(bits);
    if (rc == CZ_OK && cz_cs_needs_values(cs)) {
        memset(a->out, 0, 32);
        for (unsigned i = 0; i < 256; i++)
            a->out[i / 8] |= (uint8_t)(out[i].value << (7 - i % 8));
    }
    return rc;
}

static void fill(uint8_t *p, size_t n, uint64_t seed)
{
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)cz_rng_next(&rng);
}

/* One compression from the IV, no padding: the raw compression function. */
static void native_block(uint8_t out[32], const uint8_t block[64])
{
    uint32_t st[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
    cz_sha256_blocks_portable(st, block, 1);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(st[i] >> (24 - 8 * j));
}

CZ_TEST(sha256_gadget_full_block_count)
{
    uint8_t msg[64], expect[32];
    fill(msg, sizeof msg, 1);
    sha_arg a = { msg, 64, false, true, { 0 } };
    gc_counts_t c = gc_satisfied(sha_circuit, &a);
    CHECK_EQ_U64(c.constraints - 512, 25840);
    native_block(expect, msg);
    CHECK_MEM_EQ(a.out, expect, 32);
}

CZ_TEST(sha256_gadget_full_hash_count)
{
    uint8_t msg[64], expect[32];
    fill(msg, sizeof msg, 2);
    sha_arg a = { msg, 64, false, false, { 0 } };
    gc_counts_t c = gc_satisfied(sha_circuit, &a);
    CHECK_EQ_U64(c.constraints - 512, 44874);
    cz_sha256(expect, msg, 64);
    CHECK_MEM_EQ(a.out, expect, 32);
}

/* bellpepper test_blank_hash: a constant block from the constant IV costs
 * nothing, and still hashes right (the empty message's padded block). */
CZ_TEST(sha256_gadget_constant_block_is_free)
{
    uint8_t block[64] = { 0x80 }, expect[32];
    sha_arg a = { block, 64, true, true, { 0 } };
    gc_counts_t c = gc_satisfied(sha_circuit, &a);
    CHECK_EQ_U64(c.constraints, 0);
    CHECK_EQ_U64(c.aux, 0);
    cz_sha256(expect, "", 0);
    CHECK_MEM_EQ(a.out, expect, 32);
}

CZ_TEST(sha256_gadget_random_lengths)
{
    cz_rng rng;
    cz_rng_seed(&rng, 42);
    size_t lens[] = { 0, 1, 3, 31, 32, 55, 56, 63, 64, 65, 100, 119, 120, 150 };
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        size_t len = lens[k];
        uint8_t msg[160], expect[32];
        fill(msg, len, 100 + len);
        cz_sha256(expect, msg, len);
        sha_arg a = { msg, len, false, false, { 0 } };
        gc_counts_t c = gc_counts(CZ_CS_CHECK, sha_circuit, &a);
        CHECK_EQ_INT(c.rc, CZ_OK);
        CHECK_MEM_EQ(a.out, expect, 32);
        /* The same message as constants folds to the same digest. */
        sha_arg b = { msg, len, true, false, { 0 } };
        c = gc_counts(CZ_CS_CHECK, sha_circuit, &b);
        CHECK_EQ_INT(c.rc, CZ_OK);
        CHECK_EQ_U64(c.constraints, 0);
        CHECK_MEM_EQ(b.out, expect, 32);
    }
}

CZ_TEST(sha256_gadget_corrupt)
{
    uint8_t msg[64];
    fill(msg, sizeof msg, 3);
    sha_arg a = { msg, 64, false, true, { 0 } };
    gc_counts_t c = gc_counts(CZ_CS_CHECK, sha_circuit, &a);
    CHECK_EQ_INT(c.rc, CZ_OK);
    gc_corrupt_many(sha_circuit, &a, c.aux, 12);
    /* A corrupted input bit breaks its boolean constraint or a later xor. */
    char name[256];
    gc_corrupt(sha_circuit, &a, c.aux - 1, name, sizeof name);
    CHECK(strstr(name, "multieq") || strstr(name, "boolean"));
}

CZ_TEST_MAIN()
