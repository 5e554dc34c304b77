/*
 * tests/groth16/test_params_header.c — a params file's shape from its count
 * words (groth16/params.h cz_params_check_file_shape): a file that fits
 * passes; each count that does not is named with its offset, the found and
 * the expected value; a file cut short after a wrong count is still refused
 * for its shape; a count past the end of the file is left to the load.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cz_test.h"
#include "g16_fixture.h"
#include "groth16/params.h"

/* The file's counts: ic 2, h 7 (m = 8), l 5, a 2 + 3, b 4 + 0. */
static const size_t N_IC = 2;
static const size_t COUNTS[CZ_PV_COUNT] = { 7, 5, 5, 4, 4 };
static const cz_params_shape_t SHAPE = { .num_inputs = 2,
                                         .num_aux = 5,
                                         .domain_size = 8,
                                         .a_aux_popcount = 3,
                                         .b_input_popcount = 2,
                                         .b_aux_popcount = 2 };

static uint8_t *image;
static size_t image_len;

static void make_image(void)
{
    if (image)
        return;
    cz_ctx_t *ctx = NULL;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_params_t *p = g16_params_new(N_IC, COUNTS, 3);
    REQUIRE(p);
    image_len = cz_params_encoded_size(p);
    REQUIRE((image = malloc(image_len)) != NULL);
    REQUIRE(cz_params_encode(ctx, image, image_len, p) == CZ_OK);
    cz_params_free(p);
    cz_ctx_free(ctx);
}

/* The offset of count word |i| (0: ic, 1 + v: vector v) in the image. */
static size_t count_offset(int i)
{
    static const size_t enc[1 + CZ_PV_COUNT] = { 96, 96, 96, 96, 96, 192 };
    size_t off = 3 * 96 + 3 * 192, n[1 + CZ_PV_COUNT] = { N_IC };
    memcpy(n + 1, COUNTS, sizeof COUNTS);
    for (int k = 0; k < i; k++)
        off += 4 + n[k] * enc[k];
    return off;
}

/* Check a file of image[0..len) with count word |bump| (-1: none) raised by one. */
static int check_file(cz_ctx_t *ctx, int bump, size_t len)
{
    uint8_t *b = malloc(image_len);
    char path[] = "/tmp/cz_phdr_XXXXXX";
    int fd = b ? mkstemp(path) : -1;
    if (fd < 0)
        abort(); /* the test's own machinery: not what it checks */
    memcpy(b, image, image_len);
    if (bump >= 0)
        b[count_offset(bump) + 3]++; /* the low byte of a small big-endian count */
    if (write(fd, b, len) != (ssize_t)len)
        abort();
    close(fd);
    int rc = cz_params_check_file_shape(ctx, path, &SHAPE);
    unlink(path);
    free(b);
    return rc;
}

CZ_TEST(a_file_that_fits_passes)
{
    make_image();
    cz_ctx_t *ctx = NULL;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    CHECK_OK(check_file(ctx, -1, image_len));
    cz_ctx_free(ctx);
}

CZ_TEST(each_count_that_does_not_fit_is_named)
{
    make_image();
    static const char *const names[1 + CZ_PV_COUNT] = { "ic", "h", "l", "a", "b_g1", "b_g2" };
    cz_ctx_t *ctx = NULL;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    for (int i = 0; i < 1 + CZ_PV_COUNT; i++) {
        CHECK_EQ_INT(check_file(ctx, i, image_len), CZ_EMISMATCH);
        size_t want = i == 0 ? N_IC : COUNTS[i - 1];
        char says[96];
        snprintf(says, sizeof says, ": %s count %zu at offset %zu, the job needs %zu", names[i],
                 want + 1, count_offset(i), want);
        if (!strstr(cz_ctx_message(ctx), says) || !strstr(cz_ctx_message(ctx), "/tmp/cz_phdr_"))
            CZ__FAIL("count %d: '%s' does not say '%s' and the file", i, cz_ctx_message(ctx), says);
    }
    cz_ctx_free(ctx);
}

CZ_TEST(a_file_cut_after_a_wrong_count_is_refused_for_its_shape)
{
    make_image();
    cz_ctx_t *ctx = NULL;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    CHECK_EQ_INT(check_file(ctx, 2, count_offset(2) + 4), CZ_EMISMATCH); /* l, then nothing */
    CHECK(strstr(cz_ctx_message(ctx), "l count 6") != NULL);
    /* a count past the end is the load's to report (truncated): not checked here */
    CHECK_OK(check_file(ctx, -1, count_offset(3) + 2));
    cz_params_shape_t bad = SHAPE;
    bad.domain_size = 6;
    CHECK_EQ_INT(cz_params_check_file_shape(ctx, "/nonexistent", &bad), CZ_EINVAL);
    CHECK_EQ_INT(cz_params_check_file_shape(ctx, "/nonexistent/x.params", &SHAPE), CZ_ENOTFOUND);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
