/*
 * tests/api/test_pcache.c — the params cache (api/pcache.h): an entry
 * opened lazily holds no vector at the acquire, its bytes follow what
 * readers make resident, and a load of the same file holds them all.
 */
#include <stdio.h>
#include <unistd.h>

#include "api/pcache.h"
#include "cz_test.h"
#include "groth16/g16_fixture.h"

CZ_TEST(an_entry_opened_lazily_grows_with_what_its_readers_make_resident)
{
    cz_ctx_t *ctx = NULL;
    REQUIRE(cz_ctx_new(&ctx, NULL, 2) == CZ_OK);
    const size_t counts[CZ_PV_COUNT] = { 2000, 1500, 1000, 800, 800 };
    cz_params_t *p = g16_params_new(2, counts, 5);
    char path[] = "/tmp/cz_pcache_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    CHECK_OK(cz_params_write(ctx, path, p));
    const size_t all = cz_params_mem_bytes(p);

    cz_pcache_t *lazy = NULL, *eager = NULL;
    REQUIRE(cz_pcache_new(&lazy, 0, NULL) == CZ_OK && cz_pcache_new(&eager, 0, NULL) == CZ_OK);
    cz_pcache_set_open_lazily(lazy, true);
    cz_pentry_t *e = NULL, *f = NULL;
    REQUIRE(cz_pcache_acquire(lazy, ctx, path, &e, NULL) == CZ_OK);
    REQUIRE(cz_pcache_acquire(eager, ctx, path, &f, NULL) == CZ_OK);
    CHECK(cz_pentry_bytes(e) < 8192);
    CHECK(cz_pentry_bytes(f) >= all);
    const void *l = NULL;
    CHECK_OK(cz_params_host(ctx, cz_pentry_params(e), CZ_PV_L, &l));
    CHECK_MEM_EQ(l, cz_pentry_params(f)->l, counts[CZ_PV_L] * sizeof(blst_p1_affine));
    cz_pcache_release(lazy, e);
    cz_pcache_stats_t st;
    cz_pcache_stats(lazy, &st);
    CHECK(st.bytes >= counts[CZ_PV_L] * sizeof(blst_p1_affine) && st.bytes < all);
    cz_pcache_release(eager, f);
    cz_pcache_free(lazy);
    cz_pcache_free(eager);
    unlink(path);
    cz_params_free(p);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
