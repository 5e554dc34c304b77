/*
 * tests/groth16/test_params.c — params and vk files: byte-exact round trips
 * (memory and disk), truncation at every offset, corrupt / infinity /
 * off-subgroup points named by vector and index, shape checks, atomic
 * writes under a full disk; params opened with their vectors left in the
 * file (cz_params_open): the same structure checks, the same points on
 * demand, the file's own bytes, bad points named when read, a file cut
 * short after the open. Layout: FACTS 2, BP src/groth16/mod.rs and params.rs.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cz_test.h"
#include "g16_fixture.h"
#include "groth16/params_int.h"

static const size_t small_counts[CZ_PV_COUNT] = { 7, 5, 6, 4, 4 };

static char tmpdir[64];

static const char *tmp_path(const char *name)
{
    static char buf[160];
    if (!tmpdir[0]) {
        snprintf(tmpdir, sizeof tmpdir, "/tmp/cz_g16_XXXXXX");
        if (!mkdtemp(tmpdir))
            abort();
    }
    snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
    return buf;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(*len + 1);
    if (fread(buf, 1, *len, f) != *len) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

static int dump(const char *path, const uint8_t *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(buf, 1, len, f);
    fclose(f);
    return w == len ? 0 : -1;
}

/* Number of entries in tmpdir whose name contains ".tmp." (left-over temporaries). */
static int count_temporaries(void)
{
    DIR *d = opendir(tmpdir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strstr(e->d_name, ".tmp.") != NULL;
    if (d)
        closedir(d);
    return n;
}

static cz_ctx_t *new_ctx(unsigned threads)
{
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, threads) != 0)
        abort();
    return ctx;
}

/* Parse a private exact-size copy of buf[0..len). */
static int parse_copy(cz_ctx_t *ctx, const uint8_t *buf, size_t len, const cz_params_opts_t *o)
{
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, buf, len);
    cz_params_t *p = NULL;
    int rc = cz_params_parse(ctx, &p, copy, len, o);
    if (rc == 0 && p == NULL)
        rc = -100;
    if (rc != 0 && p != NULL)
        rc = -101; /* *out must be NULL on error */
    cz_params_free(p);
    free(copy);
    return rc;
}

/* laid out by hand: */
/* clang-format off */
#define CHECK_MSG(ctx, sub)                                                   \
    do { if (!strstr(cz_ctx_message(ctx), (sub)))                             \
            CZ__FAIL("message \"%s\" lacks \"%s\"", cz_ctx_message(ctx), (sub)); } while (0)
/* clang-format on */

CZ_TEST(params_round_trip_in_memory)
{
    cz_ctx_t *ctx = new_ctx(2);
    cz_params_t *p = g16_params_new(3, small_counts, 11), *q = NULL;
    size_t len;
    uint8_t *bytes = g16_params_bytes(p, &len);
    REQUIRE(bytes);
    /* 864 + 4 + 3*96 (vk), then 5 counts, 26 G1 and 4 G2 points */
    CHECK_EQ_U64(len, 864 + 4 + 3 * 96 + 5 * 4 + 22 * 96 + 4 * 192);
    CHECK_EQ_U64(cz__be32(bytes + 864), 3);              /* |ic| after the six vk points */
    CHECK_EQ_U64(cz__be32(bytes + 864 + 4 + 3 * 96), 7); /* |h| right after the vk */
    cz_params_opts_t opts = { CZ_PARAMS_SUBGROUP, NULL };
    CHECK_OK(cz_params_parse(ctx, &q, bytes, len, &opts));
    REQUIRE(q);
    CHECK_EQ_U64(q->n_h, 7);
    CHECK_EQ_U64(q->n_b_g2, 4);
    for (size_t i = 0; i < q->n_l; i++)
        CHECK(blst_p1_affine_is_equal(&q->l[i], &p->l[i]));
    for (size_t i = 0; i < q->n_b_g2; i++)
        CHECK(blst_p2_affine_is_equal(&q->b_g2[i], &p->b_g2[i]));
    CHECK(blst_p2_affine_is_equal(&q->vk.gamma_g2, &p->vk.gamma_g2));
    size_t len2;
    uint8_t *again = g16_params_bytes(q, &len2);
    CHECK_EQ_U64(len2, len);
    CHECK_MEM_EQ(again, bytes, len);

    /* sizes for the params cache */
    cz_params_vec_info_t l = cz_params_vec_info(q, CZ_PV_L), b2 = cz_params_vec_info(q, CZ_PV_B_G2);
    CHECK_EQ_STR(l.name, "l");
    CHECK_EQ_U64(l.file_offset, 864 + 4 + 3 * 96 + 4 + 7 * 96);
    CHECK_EQ_U64(cz__be32(bytes + l.file_offset), 5);
    CHECK_EQ_U64(l.file_bytes, 5 * 96);
    CHECK_EQ_U64(l.mem_bytes, 5 * sizeof(blst_p1_affine));
    CHECK_EQ_U64(b2.g2, 1);
    CHECK_EQ_U64(b2.file_offset + 4 + b2.file_bytes, len);
    CHECK(b2.points == q->b_g2);

    /* the encoder refuses a short buffer */
    CHECK_EQ_INT(cz_params_encode(ctx, again, len - 1, q), CZ_EINVAL);
    free(again);
    free(bytes);
    cz_params_free(q);
    cz_params_free(p);
    cz_ctx_free(ctx);
}

CZ_TEST(params_and_vk_round_trip_on_disk)
{
    cz_ctx_t *ctx = new_ctx(2);
    cz_params_t *p = g16_params_new(4, small_counts, 21), *q = NULL;
    const char *path1 = strdup(tmp_path("a.params"));
    const char *path2 = strdup(tmp_path("b.params"));
    CHECK_OK(cz_params_write(ctx, path1, p));
    CHECK_OK(cz_params_load(ctx, &q, path1, NULL));
    REQUIRE(q);
    CHECK_OK(cz_params_write(ctx, path2, q));
    size_t l1 = 0, l2 = 0;
    uint8_t *b1 = slurp(path1, &l1), *b2 = slurp(path2, &l2);
    REQUIRE(b1 && b2);
    CHECK_EQ_U64(l1, cz_params_encoded_size(p));
    CHECK_EQ_U64(l1, l2);
    CHECK_MEM_EQ(b1, b2, l1);
    struct stat st;
    CHECK(stat(path1, &st) == 0 && (st.st_mode & 0777) == 0644);

    /* overwrite in place: replaced atomically, still identical */
    CHECK_OK(cz_params_write(ctx, path1, q));
    free(b1);
    b1 = slurp(path1, &l1);
    CHECK_MEM_EQ(b1, b2, l2);

    /* the .vk file is the params' vk section, byte for byte */
    const char *vkpath = strdup(tmp_path("a.vk"));
    cz_vk_t vk;
    CHECK_OK(cz_vk_write(ctx, vkpath, &q->vk));
    CHECK_OK(cz_vk_load(ctx, &vk, vkpath));
    size_t lv;
    uint8_t *bv = slurp(vkpath, &lv);
    REQUIRE(bv);
    CHECK_EQ_U64(lv, cz_vk_encoded_size(4));
    CHECK_MEM_EQ(bv, b1, lv);
    CHECK_EQ_U64(vk.n_ic, 4);
    CHECK(blst_p1_affine_is_equal(&vk.ic[3], &p->vk.ic[3]));
    uint8_t *ev = malloc(lv);
    cz_vk_encode(ev, &vk);
    CHECK_MEM_EQ(ev, bv, lv);

    /* a vk parse inside a longer buffer reports what it consumed */
    cz_vk_t vk2;
    size_t used = 0;
    CHECK_OK(cz_vk_parse(ctx, &vk2, b1, l1, &used));
    CHECK_EQ_U64(used, lv);
    cz_vk_clear(&vk2);
    /* ...but a .vk file must end with the vk */
    CHECK_EQ_INT(cz_vk_parse(ctx, &vk2, b1, lv + 1, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "1 trailing bytes");
    CHECK_EQ_INT(count_temporaries(), 0);

    free(ev);
    free(bv);
    free(b1);
    free(b2);
    cz_vk_clear(&vk);
    unlink(vkpath);
    unlink(path1);
    unlink(path2);
    free((void *)vkpath);
    free((void *)path1);
    free((void *)path2);
    cz_params_free(q);
    cz_params_free(p);
    cz_ctx_free(ctx);
}

CZ_TEST(params_truncated_at_every_offset)
{
    cz_ctx_t *ctx = new_ctx(1);
    cz_params_t *p = g16_params_new(2, small_counts, 31);
    size_t len;
    uint8_t *bytes = g16_params_bytes(p, &len);
    REQUIRE(bytes);
    int bad = 0;
    for (size_t cut = 0; cut < len; cut++) {
        int rc = parse_copy(ctx, bytes, cut, NULL);
        if (rc != CZ_EFORMAT || !strstr(cz_ctx_message(ctx), "truncated at offset")) {
            if (bad++ < 5)
                CZ__FAIL("cut %zu: rc %d, \"%s\"", cut, rc, cz_ctx_message(ctx));
        }
    }
    CHECK_EQ_INT(bad, 0);
    /* a message names the field and the offset */
    CHECK_EQ_INT(parse_copy(ctx, bytes, 864 + 4 + 2 * 96 + 4 + 3 * 96, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "params: truncated at offset 1064: h has 7 points (672 bytes), 288 left");
    CHECK_EQ_INT(parse_copy(ctx, bytes, 100, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "params: vk: truncated at offset 96: beta_g1 needs 96 bytes, 4 left");
    /* a byte too many */
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, bytes, len);
    longer[len] = 0;
    CHECK_EQ_INT(parse_copy(ctx, longer, len + 1, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "1 trailing bytes after b_g2");
    CHECK_OK(parse_copy(ctx, bytes, len, NULL));
    free(longer);
    free(bytes);
    cz_params_free(p);
    cz_ctx_free(ctx);
}

CZ_TEST(params_huge_counts_are_refused_before_allocating)
{
    cz_ctx_t *ctx = new_ctx(1);
    cz_params_t *p = g16_params_new(2, small_counts, 41);
    size_t len;
    uint8_t *bytes = g16_params_bytes(p, &len);
    REQUIRE(bytes);
    size_t ic_off = 864, h_off = 864 + 4 + 2 * 96;
    cz__put_be32(bytes + ic_off, 0xffffffffu);
    CHECK_EQ_INT(parse_copy(ctx, bytes, len, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "ic has 4294967295 points");
    cz__put_be32(bytes + ic_off, 2);
    cz__put_be32(bytes + h_off, 0xfffffff0u);
    CHECK_EQ_INT(parse_copy(ctx, bytes, len, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "h has 4294967280 points");
    /* one fewer h point claimed: everything after shifts, b_g2 ends up short / trailing */
    cz__put_be32(bytes + h_off, 6);
    CHECK(parse_copy(ctx, bytes, len, NULL) != 0);
    free(bytes);
    cz_params_free(p);
    cz_ctx_free(ctx);
}

/* Points that are on the curve but outside the prime-order subgroup. */
static void off_subgroup_g1(blst_p1_affine *out)
{
    for (uint64_t x0 = 1;; x0++) {
        uint64_t limbs[6] = { x0, 0, 0, 0, 0, 0 };
        blst_fp x, rhs, four, y;
        uint64_t four_l[6] = { 4, 0, 0, 0, 0, 0 };
        blst_fp_from_uint64(&x, limbs);
        blst_fp_from_uint64(&four, four_l);
        blst_fp_sqr(&rhs, &x);
        blst_fp_mul(&rhs, &rhs, &x);
        blst_fp_add(&rhs, &rhs, &four); /* x^3 + 4 */
        if (!blst_fp_sqrt(&y, &rhs))
            continue;
        out->x = x;
        out->y = y;
        if (blst_p1_affine_on_curve(out) && !blst_p1_affine_in_g1(out))
            return;
    }
}

CZ_TEST(params_bad_points_are_named)
{
    cz_ctx_t *ctx = new_ctx(2);
    cz_params_t *p = g16_params_new(2, small_counts, 51);
    size_t len;
    uint8_t *bytes = g16_params_bytes(p, &len);
    REQUIRE(bytes);
    cz_params_vec_info_t l = cz_params_vec_info(p, CZ_PV_L), h = cz_params_vec_info(p, CZ_PV_H);
    cz_params_vec_info_t b1 = cz_params_vec_info(p, CZ_PV_B_G1),
                         b2 = cz_params_vec_info(p, CZ_PV_B_G2);
    uint8_t *work = malloc(len);

    /* a corrupt coordinate: off the curve */
    memcpy(work, bytes, len);
    size_t at = l.file_offset + 4 + 3 * 96 + 95;
    work[at] ^= 1;
    CHECK_EQ_INT(parse_copy(ctx, work, len, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "params: l[3] at offset");
    CHECK_MSG(ctx, "not on curve");

    /* the point at infinity (ZCash: flag 0x40, all else zero) */
    memcpy(work, bytes, len);
    memset(work + h.file_offset + 4, 0, 96);
    work[h.file_offset + 4] = 0x40;
    CHECK_EQ_INT(parse_copy(ctx, work, len, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "params: h[0]");
    CHECK_MSG(ctx, "infinity");
    memcpy(work, bytes, len);
    memset(work + b2.file_offset + 4 + 192, 0, 192);
    work[b2.file_offset + 4 + 192] = 0x40;
    CHECK_EQ_INT(parse_copy(ctx, work, len, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "params: b_g2[1]");
    /* infinity in the vk */
    memcpy(work, bytes, len);
    memset(work + 96, 0, 96);
    work[96] = 0x40;
    CHECK_EQ_INT(parse_copy(ctx, work, len, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "params: vk.beta_g1");

    /* a compressed point where an uncompressed one belongs: blst would read
     * the first 48 bytes and ignore the rest, so the file would not round-trip */
    memcpy(work, bytes, len);
    blst_p1_affine_compress(work + b1.file_offset + 4 + 2 * 96, &p->b_g1[2]);
    CHECK_EQ_INT(parse_copy(ctx, work, len, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "params: b_g1[2]");
    CHECK_MSG(ctx, "compressed flag");
    memcpy(work, bytes, len);
    blst_p2_affine_compress(work + 2 * 96, &p->vk.beta_g2);
    CHECK_EQ_INT(parse_copy(ctx, work, len, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "params: vk.beta_g2 at offset 192: compressed flag");

    /* on the curve, outside the subgroup: only caught when asked */
    blst_p1_affine odd;
    off_subgroup_g1(&odd);
    memcpy(work, bytes, len);
    blst_p1_affine_serialize(work + b1.file_offset + 4 + 2 * 96, &odd);
    CHECK_OK(parse_copy(ctx, work, len, NULL));
    cz_params_opts_t sub = { CZ_PARAMS_SUBGROUP, NULL };
    CHECK_EQ_INT(parse_copy(ctx, work, len, &sub), CZ_ERANGE);
    CHECK_MSG(ctx, "params: b_g1[2]");
    CHECK_MSG(ctx, "subgroup");
    /* the vk is always subgroup-checked */
    memcpy(work, bytes, len);
    blst_p1_affine_serialize(work + 864 + 4 + 96, &odd);
    CHECK_EQ_INT(parse_copy(ctx, work, len, NULL), CZ_ERANGE);
    CHECK_MSG(ctx, "params: vk.ic[1]");

    free(work);
    free(bytes);
    cz_params_free(p);
    cz_ctx_free(ctx);
}

CZ_TEST(params_parallel_decode_names_the_first_bad_point)
{
    cz_ctx_t *ctx = new_ctx(2);
    const size_t counts[CZ_PV_COUNT] = { 5000, 3, 3, 2, 2 };
    cz_params_t *p = g16_params_new(2, counts, 61);
    size_t len;
    uint8_t *bytes = g16_params_bytes(p, &len);
    REQUIRE(bytes);
    size_t h0 = cz_params_vec_info(p, CZ_PV_H).file_offset + 4;
    bytes[h0 + 4900 * 96 + 50] ^= 0x10;
    bytes[h0 + 4321 * 96 + 50] ^= 0x10;
    bytes[h0 + 4700 * 96 + 50] ^= 0x10;
    CHECK_EQ_INT(parse_copy(ctx, bytes, len, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "params: h[4321] at offset");
    free(bytes);
    cz_params_free(p);
    cz_ctx_free(ctx);
}

CZ_TEST(params_shape_checks)
{
    cz_ctx_t *ctx = new_ctx(1);
    /* 2 inputs (ONE + 1), 5 aux, m = 8, a_aux 4 set, b_input 1 + b_aux 3 set (FACTS 1) */
    cz_params_t *p = g16_params_new(2, small_counts, 71);
    size_t len;
    uint8_t *bytes = g16_params_bytes(p, &len);
    REQUIRE(bytes);
    cz_params_shape_t s = { .num_inputs = 2,
                            .num_aux = 5,
                            .domain_size = 8,
                            .a_aux_popcount = 4,
                            .b_input_popcount = 1,
                            .b_aux_popcount = 3 };
    cz_params_opts_t o = { 0, &s };
    CHECK_OK(parse_copy(ctx, bytes, len, &o));
    CHECK_OK(cz_params_check_shape(ctx, p, &s));

    cz_params_shape_t t = s;
    t.num_aux = 6;
    o.expect = &t;
    CHECK_EQ_INT(parse_copy(ctx, bytes, len, &o), CZ_EMISMATCH);
    CHECK_MSG(ctx, "params: l count 5 != num_aux 6");
    t = s, t.domain_size = 16;
    CHECK_EQ_INT(parse_copy(ctx, bytes, len, &o), CZ_EMISMATCH);
    CHECK_MSG(ctx, "params: h count 7 != domain-1 15");
    t = s, t.a_aux_popcount = 3;
    CHECK_EQ_INT(parse_copy(ctx, bytes, len, &o), CZ_EMISMATCH);
    CHECK_MSG(ctx, "params: a count 6 != num_inputs 2 + popcount(a_aux) 3");
    t = s, t.b_aux_popcount = 2;
    CHECK_EQ_INT(parse_copy(ctx, bytes, len, &o), CZ_EMISMATCH);
    CHECK_MSG(ctx, "params: b_g1 count 4");
    t = s, t.num_inputs = 3, t.a_aux_popcount = 3;
    CHECK_EQ_INT(parse_copy(ctx, bytes, len, &o), CZ_EMISMATCH);
    CHECK_MSG(ctx, "params: ic count 2 != num_inputs 3");
    t = s, t.domain_size = 12;
    CHECK_EQ_INT(parse_copy(ctx, bytes, len, &o), CZ_EINVAL);
    /* b_g2 differs from b_g1 */
    p->n_b_g2 = 3;
    CHECK_EQ_INT(cz_params_check_shape(ctx, p, &s), CZ_EMISMATCH);
    CHECK_MSG(ctx, "params: b_g2 count 3");
    p->n_b_g2 = 4;
    free(bytes);
    cz_params_free(p);
    cz_ctx_free(ctx);
}

CZ_TEST(params_load_errors)
{
    cz_ctx_t *ctx = new_ctx(1);
    cz_params_t *q = (cz_params_t *)1;
    CHECK_EQ_INT(cz_params_load(ctx, &q, tmp_path("missing.params"), NULL), CZ_ENOTFOUND);
    CHECK(q == NULL);
    CHECK_MSG(ctx, "missing.params");
    const char *empty = strdup(tmp_path("empty.params"));
    CHECK_EQ_INT(dump(empty, (const uint8_t *)"", 0), 0);
    CHECK_EQ_INT(cz_params_load(ctx, &q, empty, NULL), CZ_EFORMAT);
    CHECK_MSG(ctx, "empty.params: params: vk: truncated at offset 0");
    CHECK_EQ_INT(cz_params_load(ctx, &q, tmpdir, NULL), CZ_EIO);
    cz_vk_t vk;
    CHECK_EQ_INT(cz_vk_load(ctx, &vk, empty), CZ_EFORMAT);
    CHECK_MSG(ctx, "vk: truncated at offset 0");
    unlink(empty);
    free((void *)empty);
    cz_ctx_free(ctx);
}

/* Open a private file holding buf[0..len). */
static int open_copy(cz_ctx_t *ctx, const uint8_t *buf, size_t len, const cz_params_opts_t *o,
                     cz_params_t **out)
{
    const char *path = tmp_path("open.params");
    if (dump(path, buf, len) != 0)
        return -102;
    *out = NULL;
    int rc = cz_params_open(ctx, out, path, o);
    if (rc != 0 && *out != NULL)
        rc = -101;
    return rc;
}

CZ_TEST(params_opened_read_their_points_from_the_file_on_demand)
{
    cz_ctx_t *ctx = new_ctx(2);
    const size_t counts[CZ_PV_COUNT] = { 9000, 5, 6, 4, 70000 }; /* several fill chunks */
    cz_params_t *p = g16_params_new(3, counts, 81), *q = NULL, *loaded = NULL;
    size_t len;
    uint8_t *bytes = g16_params_bytes(p, &len);
    REQUIRE(bytes);
    REQUIRE(open_copy(ctx, bytes, len, NULL, &q) == CZ_OK);
    CHECK_OK(cz_params_load(ctx, &loaded, tmp_path("open.params"), NULL));
    /* the structure: counts and the vk; no vector in host memory */
    for (int v = 0; v < CZ_PV_COUNT; v++) {
        CHECK_EQ_U64(cz_params_vec_info(q, (enum cz_params_vec)v).count, counts[v]);
        CHECK(cz_params_vector(q, (enum cz_params_vec)v) == NULL);
    }
    CHECK(cz_params_mem_bytes(q) < 4096);
    CHECK(blst_p2_affine_is_equal(&q->vk.delta_g2, &p->vk.delta_g2));
    CHECK(cz_params_has_encoded(q) && !cz_params_has_encoded(loaded));

    /* ranges read from the file are the loaded points; encoded ones are the file's bytes */
    blst_p2_affine b2[3];
    CHECK_OK(cz_params_read(ctx, q, CZ_PV_B_G2, 69997, 3, b2));
    CHECK_MEM_EQ(b2, &loaded->b_g2[69997], sizeof b2);
    uint8_t enc[3 * 192];
    CHECK_OK(cz_params_read_encoded(ctx, q, CZ_PV_B_G2, 69997, 3, enc));
    cz_params_vec_info_t info = cz_params_vec_info(q, CZ_PV_B_G2);
    CHECK_MEM_EQ(enc, bytes + info.file_offset + 4 + 69997 * 192, sizeof enc);
    CHECK_EQ_INT(cz_params_read_encoded(ctx, q, CZ_PV_B_G2, 69998, 3, enc), CZ_ERANGE);
    CHECK_EQ_INT(cz_params_read_encoded(ctx, loaded, CZ_PV_H, 0, 1, enc), CZ_EUNAVAIL);

    /* whole vectors on demand equal the loaded ones, and a writer sees them all */
    CHECK_OK(cz_params_host_all(ctx, q));
    for (int v = 0; v < CZ_PV_COUNT; v++) {
        cz_params_vec_info_t a = cz_params_vec_info(q, (enum cz_params_vec)v);
        cz_params_vec_info_t b = cz_params_vec_info(loaded, (enum cz_params_vec)v);
        CHECK_MEM_EQ(a.points, b.points, a.mem_bytes);
    }
    uint8_t *again = malloc(len);
    CHECK_OK(cz_params_encode(ctx, again, len, q));
    CHECK_MEM_EQ(again, bytes, len);
    free(again);
    cz_params_free(loaded);
    cz_params_free(q);
    cz_params_free(p);
    free(bytes);
    cz_ctx_free(ctx);
}

CZ_TEST(params_opened_check_the_structure_and_name_bad_points_when_read)
{
    cz_ctx_t *ctx = new_ctx(2);
    const size_t counts[CZ_PV_COUNT] = { 7, 300000, 6, 4, 4 };
    cz_params_t *p = g16_params_new(2, counts, 91), *q = NULL;
    size_t len;
    uint8_t *bytes = g16_params_bytes(p, &len);
    REQUIRE(bytes);
    /* the structure checks of a load: truncation, trailing bytes, the shape, a missing file */
    CHECK_EQ_INT(open_copy(ctx, bytes, len - 1, NULL, &q), CZ_EFORMAT);
    CHECK_MSG(ctx, "truncated at offset");
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, bytes, len);
    longer[len] = 0;
    CHECK_EQ_INT(open_copy(ctx, longer, len + 1, NULL, &q), CZ_EFORMAT);
    CHECK_MSG(ctx, "1 trailing bytes");
    free(longer);
    cz_params_shape_t s = { .num_inputs = 2,
                            .num_aux = 300001,
                            .domain_size = 8,
                            .a_aux_popcount = 4,
                            .b_input_popcount = 1,
                            .b_aux_popcount = 3 };
    cz_params_opts_t o = { 0, &s };
    CHECK_EQ_INT(open_copy(ctx, bytes, len, &o, &q), CZ_EMISMATCH);
    CHECK_MSG(ctx, "params: l count 300000 != num_aux 300001");
    CHECK_EQ_INT(cz_params_open(ctx, &q, tmp_path("missing.params"), NULL), CZ_ENOTFOUND);

    /* a bad point deep in l: the open succeeds (nothing read), reading it names it */
    cz_params_vec_info_t l = cz_params_vec_info(p, CZ_PV_L);
    bytes[l.file_offset + 4 + 250123 * 96 + 95] ^= 1;
    REQUIRE(open_copy(ctx, bytes, len, NULL, &q) == CZ_OK);
    blst_p1_affine pt;
    CHECK_OK(cz_params_read(ctx, q, CZ_PV_L, 250122, 1, &pt));
    blst_p1_affine *run = malloc(200 * sizeof *run);
    CHECK_EQ_INT(cz_params_read(ctx, q, CZ_PV_L, 250000, 200, run), CZ_EFORMAT);
    CHECK_MSG(ctx, "l[250123]");
    free(run);
    const void *host = NULL;
    CHECK_EQ_INT(cz_params_host(ctx, q, CZ_PV_L, &host), CZ_EFORMAT);
    CHECK(host == NULL && cz_params_vector(q, CZ_PV_L) == NULL);
    CHECK_MSG(ctx, "open.params: l[250123] at offset");
    CHECK_MSG(ctx, "not on curve");
    CHECK_OK(cz_params_host(ctx, q, CZ_PV_H, &host)); /* the other vectors are fine */

    /* the file cut short after the open: a read error naming the offset, no SIGBUS */
    CHECK_EQ_INT(truncate(tmp_path("open.params"), (off_t)(l.file_offset + 4 + 1000 * 96)), 0);
    CHECK_EQ_INT(cz_params_read(ctx, q, CZ_PV_L, 999, 2, &pt), CZ_EIO);
    CHECK_MSG(ctx, "the file ends before offset");
    cz_params_free(q);
    unlink(tmp_path("open.params"));
    cz_params_free(p);
    free(bytes);
    cz_ctx_free(ctx);
}

CZ_TEST(params_write_on_a_full_disk_leaves_nothing)
{
    cz_ctx_t *ctx = new_ctx(2);
    /* h of 9.6 MB: more than one 8 MiB staging buffer, so the writer flushes twice */
    const size_t counts[CZ_PV_COUNT] = { 100000, 5, 6, 4, 4 };
    cz_params_t *p = g16_params_new(2, counts, 81);
    const char *path = strdup(tmp_path("full.params"));
    size_t total = cz_params_encoded_size(p);
    const size_t cut[3] = { 0, 1000, total - 10 };
    for (int i = 0; i < 3; i++) {
        cz__write_fault_errno = ENOSPC;
        cz__write_fault_after = cut[i];
        int rc = cz_params_write(ctx, path, p);
        cz__write_fault_errno = 0;
        CHECK_EQ_INT(rc, CZ_EIO);
        CHECK_MSG(ctx, "params write: write failed at byte");
        CHECK_MSG(ctx, "(disk full)");
        CHECK(access(path, F_OK) != 0 && errno == ENOENT);
        CHECK_EQ_INT(count_temporaries(), 0);
    }
    /* an existing file survives a failed rewrite untouched */
    CHECK_OK(cz_params_write(ctx, path, p));
    size_t l1, l2;
    uint8_t *before = slurp(path, &l1);
    p->h[0] = p->h[1]; /* a different file would be written */
    cz__write_fault_errno = ENOSPC;
    cz__write_fault_after = 5000;
    CHECK_EQ_INT(cz_params_write(ctx, path, p), CZ_EIO);
    cz__write_fault_errno = 0;
    uint8_t *after = slurp(path, &l2);
    REQUIRE(before && after);
    CHECK_EQ_U64(l1, l2);
    CHECK_MEM_EQ(before, after, l1);
    CHECK_EQ_INT(count_temporaries(), 0);
    /* a directory that does not exist */
    CHECK_EQ_INT(cz_params_write(ctx, "/nonexistent-dir-cz/x.params", p), CZ_EIO);
    CHECK_MSG(ctx, "creating a temporary file");
    free(before);
    free(after);
    unlink(path);
    free((void *)path);
    cz_params_free(p);
    cz_ctx_free(ctx);
}

CZ_TEST(zz_cleanup_tmpdir)
{
    if (tmpdir[0])
        CHECK_EQ_INT(rmdir(tmpdir), 0);
}

CZ_TEST_MAIN()
