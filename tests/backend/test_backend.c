/*
 * tests/backend/test_backend.c — the backend factory (backend/backend.c):
 * backends by name, device counts, "auto", and the errors that say why.
 *
 * Runs in every build: without CUDA (the CI) "cuda" must be CZ_EUNAVAIL
 * with a reason and "auto" the CPU; with CUDA it follows cz_cuda_probe.
 */
#include <stdbool.h>
#include <string.h>

#include "backend/backend.h"
#ifdef CUZK_HAVE_CUDA
#include "backend/cuda/cuda.h"
#endif
#include "cz_test.h"

static bool msg_has(cz_ctx_t *ctx, const char *word)
{
    if (!strstr(cz_ctx_message(ctx), word)) {
        fprintf(stderr, "message \"%s\" lacks \"%s\"\n", cz_ctx_message(ctx), word);
        return false;
    }
    return true;
}

/* Is CUDA usable in this process (and why not)? */
static bool cuda_here(char *why, size_t len)
{
#ifdef CUZK_HAVE_CUDA
    return cz_cuda_probe(why, len) == CZ_OK;
#else
    snprintf(why, len, "no CUDA support");
    return false;
#endif
}

CZ_TEST(cpu_by_name)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_backend_t *be = NULL;
    CHECK_OK(cz_backend_new(ctx, &be, "cpu", 0));
    REQUIRE(be != NULL);
    CHECK_EQ_STR(be->ops->name, "cpu");
    CHECK_EQ_INT(be->device_index, 0);
    cz_backend_free(be);

    /* cpu:N emulated devices: the index only labels the backend; CUDA options are ignored */
    cz_cuda_backend_opts_t opts = { .device_mem_limit = 1, .g2_on_cpu = true };
    CHECK_OK(cz_backend_new_opts(ctx, &be, "cpu", 3, &opts));
    REQUIRE(be != NULL);
    CHECK_EQ_STR(be->ops->name, "cpu");
    CHECK_EQ_INT(be->device_index, 3);
    cz_backend_free(be);

    size_t n = 99;
    CHECK_OK(cz_backend_device_count(ctx, "cpu", &n));
    CHECK_EQ_U64(n, 1);
    const char *k = NULL;
    char why[256];
    CHECK_OK(cz_backend_resolve(ctx, "cpu", &k, why, sizeof why));
    REQUIRE(k != NULL);
    CHECK_EQ_STR(k, "cpu");
    cz_ctx_free(ctx);
}

CZ_TEST(cuda_by_name)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    char why[512];
    bool usable = cuda_here(why, sizeof why);
    cz_backend_t *be = (cz_backend_t *)&be; /* must be reset to NULL on error */
    size_t n = 99;
    int rc = cz_backend_new(ctx, &be, "cuda", 0);
    if (!usable) {
        CHECK_EQ_INT(rc, CZ_EUNAVAIL);
        CHECK(be == NULL);
        CHECK(msg_has(ctx, "cuda backend: "));
#ifdef CUZK_HAVE_CUDA
        CHECK(msg_has(ctx, why)); /* the probe's reason */
#else
        CHECK(msg_has(ctx, "this build has no CUDA support"));
        CHECK(msg_has(ctx, "CUZK_CUDA=ON"));
#endif
        CHECK_EQ_INT(cz_backend_device_count(ctx, "cuda", &n), CZ_EUNAVAIL);
        CHECK_EQ_U64(n, 0);
        const char *k = "x";
        CHECK_EQ_INT(cz_backend_resolve(ctx, "cuda", &k, NULL, 0), CZ_EUNAVAIL);
        CHECK(k == NULL);
        /* a NULL ctx still gets the code */
        CHECK_EQ_INT(cz_backend_new(NULL, &be, "cuda", 0), CZ_EUNAVAIL);
    } else {
#ifdef CUZK_HAVE_CUDA
        CHECK_OK(cz_backend_device_count(ctx, "cuda", &n));
        CHECK_EQ_U64(n, (size_t)cz_cuda_device_count());
        CHECK_OK(rc);
        REQUIRE(be != NULL);
        CHECK_EQ_STR(be->ops->name, "cuda");
        cz_backend_free(be);
        CHECK_EQ_INT(cz_backend_new(ctx, &be, "cuda", (int)n), CZ_ERANGE);
        CHECK(be == NULL);
        CHECK(msg_has(ctx, "does not exist"));
#endif
    }
    cz_ctx_free(ctx);
}

CZ_TEST(unknown_kind)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    cz_backend_t *be = NULL;
    CHECK_EQ_INT(cz_backend_new(ctx, &be, "opencl", 0), CZ_EINVAL);
    CHECK(be == NULL);
    CHECK(msg_has(ctx, "'opencl'"));
    CHECK(msg_has(ctx, "cpu, cuda, auto"));
    size_t n = 7;
    CHECK_EQ_INT(cz_backend_device_count(ctx, "", &n), CZ_EINVAL);
    CHECK_EQ_U64(n, 0);
    const char *k = "x";
    CHECK_EQ_INT(cz_backend_resolve(ctx, "CPU", &k, NULL, 0), CZ_EINVAL); /* names are exact */
    CHECK(k == NULL);
    CHECK_EQ_INT(cz_backend_new(ctx, &be, "cpu", -1), CZ_EINVAL);
    CHECK(be == NULL);
    CHECK(msg_has(ctx, "-1"));
    cz_ctx_free(ctx);
}

CZ_TEST(auto_falls_back)
{
    cz_ctx_t *ctx;
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    char why[512], rwhy[512];
    bool usable = cuda_here(why, sizeof why);
    const char *want = usable ? "cuda" : "cpu";
    const char *names[] = { "auto", NULL }; /* NULL means auto */
    for (int i = 0; i < 2; i++) {
        cz_backend_t *be = NULL;
        CHECK_OK(cz_backend_new(ctx, &be, names[i], 0));
        REQUIRE(be != NULL);
        CHECK_EQ_STR(be->ops->name, want);
        cz_backend_free(be);
        const char *k = NULL;
        CHECK_OK(cz_backend_resolve(ctx, names[i], &k, rwhy, sizeof rwhy));
        REQUIRE(k != NULL);
        CHECK_EQ_STR(k, want);
        CHECK(rwhy[0] != '\0'); /* says why: the device, or why not cuda */
        if (!usable)
            CHECK(strstr(rwhy, why) != NULL);
        size_t n = 0;
        CHECK_OK(cz_backend_device_count(ctx, names[i], &n));
        CHECK(n >= 1);
        if (!usable)
            CHECK_EQ_U64(n, 1);
    }
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
