/*
 * tests/core/test_fault.c — the fault object (core/fault.h): counting,
 * arming once / from n on / k times, the callback, the spec parser and
 * the allocation wrapper through a ctx.
 */
#include <stdlib.h>
#include <string.h>

#include "core/fault.h"
#include "cz_test.h"

static int fires(cz_fault_t *f, cz_fault_site_t site, int reaches, int *fired_at, int max)
{
    int n = 0;
    for (int i = 1; i <= reaches; i++)
        if (cz__fault_sim(f, NULL, site) != CZ_OK && n < max)
            fired_at[n++] = i;
    return n;
}

CZ_TEST(null_object_and_unarmed_sites_never_fire)
{
    CHECK_EQ_INT(cz__fault_sim(NULL, NULL, CZ_FAULT_WRITE), CZ_OK);
    CHECK_EQ_U64(cz_fault_reached(NULL, CZ_FAULT_WRITE), 0);
    cz_fault_t f;
    cz_fault_init(&f);
    int at[8];
    CHECK_EQ_INT(fires(&f, CZ_FAULT_ALLOC, 5, at, 8), 0);
    CHECK_EQ_U64(cz_fault_reached(&f, CZ_FAULT_ALLOC), 5);
    CHECK_EQ_U64(cz_fault_reached(&f, CZ_FAULT_WRITE), 0);
}

CZ_TEST(once_persist_and_k_times)
{
    cz_fault_t f;
    cz_fault_init(&f);
    int at[8];
    cz_fault_arm(&f, CZ_FAULT_WRITE, 3, false);
    REQUIRE(fires(&f, CZ_FAULT_WRITE, 6, at, 8) == 1);
    CHECK_EQ_INT(at[0], 3);
    cz_fault_arm(&f, CZ_FAULT_DEVICE, 2, true);
    CHECK_EQ_INT(fires(&f, CZ_FAULT_DEVICE, 5, at, 8), 4);
    CHECK_EQ_INT(at[0], 2);
    cz_fault_arm_times(&f, CZ_FAULT_ALLOC, 2, 2, 0);
    REQUIRE(fires(&f, CZ_FAULT_ALLOC, 6, at, 8) == 2);
    CHECK_EQ_INT(at[0], 2);
    CHECK_EQ_INT(at[1], 3);
    cz_fault_arm(&f, CZ_FAULT_ALLOC, 0, false); /* disarmed */
    CHECK_EQ_INT(fires(&f, CZ_FAULT_ALLOC, 4, at, 8), 0);
}

CZ_TEST(codes_and_message)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_fault_t f;
    cz_fault_init(&f);
    cz_fault_arm(&f, CZ_FAULT_WRITE, 1, true);
    cz_fault_arm(&f, CZ_FAULT_DEVICE_STEP, 1, true);
    CHECK_EQ_INT(cz__fault_sim(&f, ctx, CZ_FAULT_WRITE), CZ_EIO);
    CHECK(strcmp(cz_ctx_message(ctx), "injected fault: write #1") == 0);
    CHECK_EQ_INT(cz__fault_sim(&f, ctx, CZ_FAULT_DEVICE_STEP), CZ_EDEVICE);
    CHECK_EQ_INT(cz__fault_code(CZ_FAULT_ALLOC), CZ_ENOMEM);
    /* a device allocation fails as cudaMalloc's out of memory does: a smaller plan may fit */
    CHECK_EQ_INT(cz__fault_code(CZ_FAULT_DEVICE_ALLOC), CZ_ENOMEM);
    cz_ctx_free(ctx);
}

static int fail_even(void *arg, cz_fault_site_t site, uint64_t n)
{
    (void)arg;
    return site == CZ_FAULT_DEVICE && n % 2 == 0 ? CZ_EBUSY : CZ_OK;
}

CZ_TEST(callback_decides_first)
{
    cz_fault_t f;
    cz_fault_init(&f);
    f.cb = fail_even;
    int at[8];
    REQUIRE(fires(&f, CZ_FAULT_DEVICE, 5, at, 8) == 2);
    CHECK_EQ_INT(at[0], 2);
    CHECK_EQ_INT(at[1], 4);
    CHECK_EQ_INT(cz__fault_sim(&f, NULL, CZ_FAULT_DEVICE), CZ_EBUSY); /* the callback's code */
}

CZ_TEST(spec_parses_and_names_bad_parts)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_fault_t f;
    cz_fault_init(&f);
    CHECK_OK(cz_fault_parse(&f, ctx, "write:2x2,device:1+,device_step:3~1"));
    int at[8];
    REQUIRE(fires(&f, CZ_FAULT_WRITE, 5, at, 8) == 2);
    CHECK_EQ_INT(at[0], 2);
    CHECK_EQ_INT(fires(&f, CZ_FAULT_DEVICE, 3, at, 8), 3);
    CHECK_EQ_INT(fires(&f, CZ_FAULT_DEVICE_STEP, 4, at, 8), 0); /* a delay passes */
    CHECK_OK(cz_fault_parse(&f, ctx, "device_alloc:2"));
    REQUIRE(fires(&f, CZ_FAULT_DEVICE_ALLOC, 3, at, 8) == 1);
    CHECK_EQ_INT(at[0], 2);
    CHECK(strcmp(cz_fault_site_name(CZ_FAULT_DEVICE_ALLOC), "device_alloc") == 0);
    static const char *const bad[] = { "write",     "write:",   "write:0",   "disk:1",   "write:1x",
                                       "write:1x0", "write:1~", "write:1~0", "write:1+x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ_INT(cz_fault_parse(&f, ctx, bad[i]), CZ_EINVAL);
        CHECK(strstr(cz_ctx_message(ctx), bad[i]) != NULL);
    }
    cz_ctx_free(ctx);
}

CZ_TEST(allocation_wrapper_fails_the_nth)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    void *p = cz__fault_malloc(ctx, 64); /* no fault object: plain malloc */
    CHECK(p != NULL);
    free(p);
    cz_fault_t f;
    cz_fault_init(&f);
    cz_fault_arm(&f, CZ_FAULT_ALLOC, 2, false);
    cz_ctx_set_fault(ctx, &f);
    void *a = cz__fault_calloc(ctx, 4, 16);
    void *b = cz__fault_malloc(ctx, 64);
    void *c = cz__fault_realloc(ctx, NULL, 64);
    CHECK(a != NULL);
    CHECK(b == NULL);
    CHECK(c != NULL);
    CHECK_EQ_INT(cz_ctx_code(ctx), CZ_ENOMEM);
    free(a);
    free(c);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
