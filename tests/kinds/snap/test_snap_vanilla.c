/*
 * tests/kinds/snap/test_snap_vanilla.c — the bincode PartitionProof reader and
 * writer (kinds/snap/vanilla.h).
 *
 * - the byte layout of a 2KiB proof: its size from the RFP layout
 *   (32 + 8 + 8 x 32 + 8 + 10 x (2 x TreeR + TreeD)), the variant, length
 *   and index words where the layout puts them;
 * - round trip: decode(encode(x)) gives x back, and the decoded input passes
 *   the native check;
 * - every damage is named with its field and byte offset: a wrong length,
 *   an index >= arity, a non-canonical field element, a wrong variant,
 *   truncation, trailing bytes, paths opening different nodes.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cz_test.h"
#include "kinds/snap/vanilla.h"

/* 2KiB: TreeR 8-0-0 over 64 leaves = 2 levels x 7; TreeD 6 levels x 1. */
#define TREE_R (4 + 64 + 8 + 2 * (8 + 8 + 7 * 32))
#define TREE_D (4 + 64 + 8 + 6 * (8 + 8 + 32))
#define PROOF_2KIB (32 + 8 + 8 * 32 + 8 + 10 * (2 * TREE_R + TREE_D))

typedef struct {
    cz_snap_input_t in;
    cz_snap_sector_t s;
    uint8_t *buf;
    size_t n;
} fixture_t;

static void fixture(fixture_t *f)
{
    REQUIRE(tu_make_2kib(&f->in, &f->s, 3) == CZ_OK);
    f->n = cz_snap_vanilla_size(&f->in.params);
    f->buf = malloc(f->n);
    REQUIRE(f->buf && cz_snap_vanilla_encode(&f->in, f->buf, f->n) == CZ_OK);
}

static void fixture_free(fixture_t *f)
{
    free(f->buf);
    cz_snap_input_free(&f->in);
    cz_snap_sector_free(&f->s);
}

static uint64_t u64_at(const uint8_t *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | b[i];
    return v;
}

/* Decode |b| into a fresh input; the code, and the message in |ctx|. */
static int decode(cz_ctx_t *ctx, const uint8_t *b, size_t n)
{
    cz_snap_params_t p;
    cz_snap_input_t in;
    cz_snap_params_sector(&p, 2048);
    if (cz_snap_input_alloc(&in, &p))
        return CZ_ENOMEM;
    int rc = cz_snap_vanilla_decode(ctx, b, n, &in);
    cz_snap_input_free(&in);
    return rc;
}

CZ_TEST(layout_2kib)
{
    fixture_t f;
    fixture(&f);
    CHECK_EQ_U64(f.n, PROOF_2KIB);
    CHECK_EQ_U64(u64_at(f.buf + 32), 8);        /* apex_leafs */
    CHECK_EQ_U64(u64_at(f.buf + 40 + 256), 10); /* challenge_proofs */
    const uint8_t *c0 = f.buf + 40 + 256 + 8;
    CHECK_EQ_U64(c0[0] | c0[1] | c0[2] | c0[3], 0); /* ProofData::Single */
    CHECK_EQ_U64(u64_at(c0 + 4 + 64), 2);           /* 2 path elements */
    CHECK_EQ_U64(u64_at(c0 + 4 + 64 + 8), 7);       /* 7 hashes each */
    CHECK_EQ_U64(u64_at(c0 + 4 + 64 + 16 + 7 * 32), f.in.ch[0].challenge % 8);
    fixture_free(&f);
}

CZ_TEST(round_trip)
{
    fixture_t f;
    fixture(&f);
    cz_snap_input_t back;
    REQUIRE(cz_snap_input_alloc(&back, &f.in.params) == CZ_OK);
    CHECK_OK(cz_snap_vanilla_decode(NULL, f.buf, f.n, &back));
    back.k = f.in.k;
    back.h = f.in.h;
    back.comm_r_old = f.in.comm_r_old;
    back.comm_r_new = f.in.comm_r_new;
    CHECK(cz_fr_eq(&back.comm_d_new, &f.in.comm_d_new));
    CHECK(cz_fr_eq(&back.comm_c, &f.in.comm_c));
    for (unsigned i = 0; i < f.in.params.challenges; i++) {
        CHECK_EQ_U64(back.ch[i].challenge, f.in.ch[i].challenge);
        CHECK(cz_fr_eq(&back.ch[i].leaf_r_new, &f.in.ch[i].leaf_r_new));
    }
    CHECK_OK(cz_snap_input_check(NULL, &back));
    uint8_t *again = malloc(f.n);
    REQUIRE(again != NULL);
    CHECK_OK(cz_snap_vanilla_encode(&back, again, f.n));
    CHECK_MEM_EQ(again, f.buf, f.n);
    free(again);
    cz_snap_input_free(&back);
    fixture_free(&f);
}

CZ_TEST(damage_is_named)
{
    fixture_t f;
    cz_ctx_t *ctx;
    fixture(&f);
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    const size_t c0 = 40 + 256 + 8;

    f.buf[32] = 9;
    CHECK_EQ_INT(decode(ctx, f.buf, f.n), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "apex_leafs at byte 32: length 9") != NULL);
    f.buf[32] = 8;

    f.buf[c0] = 1;
    CHECK_EQ_INT(decode(ctx, f.buf, f.n), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "challenge_proofs[0].proof_r_old") != NULL);
    CHECK(strstr(cz_ctx_message(ctx), "variant 1") != NULL);
    f.buf[c0] = 0;

    const size_t idx = c0 + 4 + 64 + 16 + 7 * 32;
    uint8_t keep = f.buf[idx];
    f.buf[idx] = 8;
    CHECK_EQ_INT(decode(ctx, f.buf, f.n), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "proof_r_old.path[0].index") != NULL);
    CHECK(strstr(cz_ctx_message(ctx), "8 >= arity 8") != NULL);
    f.buf[idx] = (uint8_t)(keep ^ 1); /* another node than d_new / r_new */
    CHECK_EQ_INT(decode(ctx, f.buf, f.n), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "open different nodes") != NULL);
    f.buf[idx] = keep;

    uint8_t fr[32];
    memcpy(fr, f.buf, 32);
    memset(f.buf, 0xff, 32);
    CHECK_EQ_INT(decode(ctx, f.buf, f.n), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "comm_c at byte 0: not a canonical") != NULL);
    memcpy(f.buf, fr, 32);

    CHECK_EQ_INT(decode(ctx, f.buf, f.n - 1), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "truncated") != NULL);
    uint8_t *longer = calloc(1, f.n + 1);
    REQUIRE(longer != NULL);
    memcpy(longer, f.buf, f.n);
    CHECK_EQ_INT(decode(ctx, longer, f.n + 1), CZ_EFORMAT);
    CHECK(strstr(cz_ctx_message(ctx), "1 trailing bytes") != NULL);
    free(longer);

    CHECK_OK(decode(ctx, f.buf, f.n));
    cz_ctx_free(ctx);
    fixture_free(&f);
}

CZ_TEST_MAIN()
