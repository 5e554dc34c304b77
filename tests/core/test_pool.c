/*
 * tests/core/test_pool.c — the thread pool: coverage of every index exactly
 * once, concurrent and nested sections, slot uniqueness, error context.
 * Also run under ThreadSanitizer (label tsan).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "cz_test.h"

typedef struct {
    atomic_uint *hits;
    atomic_uint slot_used[64];
    unsigned width;
    atomic_int bad_slot;
} cover_arg;

static void cover(void *p, size_t b, size_t e, unsigned slot)
{
    cover_arg *a = p;
    if (slot >= a->width)
        atomic_store(&a->bad_slot, 1);
    for (size_t i = b; i < e; i++)
        atomic_fetch_add(&a->hits[i], 1);
}

static int check_cover(cz_pool_t *pool, size_t n, size_t grain)
{
    cover_arg a = { .width = cz_pool_width(pool) };
    a.hits = calloc(n ? n : 1, sizeof *a.hits);
    cz_pool_for(pool, n, grain, cover, &a);
    int ok = !atomic_load(&a.bad_slot);
    for (size_t i = 0; i < n; i++)
        ok &= atomic_load(&a.hits[i]) == 1;
    free(a.hits);
    return ok;
}

CZ_TEST(every_index_once)
{
    cz_pool_t *pool;
    CHECK_OK(cz_pool_new(&pool, 4));
    CHECK_EQ_INT(cz_pool_width(pool), 4);
    cz_pool_t *single;
    CHECK_OK(cz_pool_new(&single, 1));
    CHECK_EQ_INT(cz_pool_width(single), 1);
    CHECK(check_cover(single, 1000, 10));
    cz_pool_free(single);
    size_t sizes[] = { 0, 1, 2, 3, 7, 64, 1000, 100003 };
    size_t grains[] = { 1, 3, 64, 1000000 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t j = 0; j < sizeof grains / sizeof *grains; j++)
            CHECK(check_cover(pool, sizes[i], grains[j]));
    cz_pool_free(pool);
}

CZ_TEST(null_pool_runs_inline)
{
    CHECK(check_cover(NULL, 1000, 7));
}

typedef struct {
    cz_pool_t *pool;
    atomic_ulong sum;
} nest_arg;

static void inner(void *p, size_t b, size_t e, unsigned slot)
{
    nest_arg *a = p;
    for (size_t i = b; i < e; i++)
        atomic_fetch_add(&a->sum, i);
}

static void outer(void *p, size_t b, size_t e, unsigned slot)
{
    nest_arg *a = p;
    for (size_t i = b; i < e; i++)
        cz_pool_for(a->pool, 100, 3, inner, a);
}

CZ_TEST(nested_sections_complete)
{
    cz_pool_t *pool;
    CHECK_OK(cz_pool_new(&pool, 2));
    nest_arg a = { .pool = pool };
    cz_pool_for(pool, 50, 1, outer, &a);
    CHECK_EQ_U64(atomic_load(&a.sum), 50ull * (99 * 100 / 2));
    cz_pool_free(pool);
}

static void *concurrent_caller(void *p)
{
    cz_pool_t *pool = p;
    for (int k = 0; k < 50; k++)
        if (!check_cover(pool, 5000, 17))
            return (void *)1;
    return NULL;
}

CZ_TEST(concurrent_sections_from_many_threads)
{
    cz_pool_t *pool;
    CHECK_OK(cz_pool_new(&pool, 2));
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, concurrent_caller, pool);
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(t[i], &r);
        CHECK(r == NULL);
    }
    cz_pool_free(pool);
}

CZ_TEST(ctx_error_message_and_tables)
{
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 1));
    CHECK_EQ_STR(cz_ctx_message(ctx), "");
    int rc = cz_fail(ctx, CZ_EFORMAT, "params: h count %d != %d", 1023, 4095);
    CHECK_EQ_INT(rc, CZ_EFORMAT);
    CHECK_EQ_INT(cz_ctx_code(ctx), CZ_EFORMAT);
    CHECK_EQ_STR(cz_ctx_message(ctx), "params: h count 1023 != 4095");
    CHECK_EQ_STR(cz_err_name(CZ_EFORMAT), "CZ_EFORMAT");
    CHECK_EQ_STR(cz_strerror(CZ_ENOMEM), "out of memory");
    CHECK_EQ_STR(cz_strerror(12345), "unknown error");
    cz_ctx_clear(ctx);
    CHECK_EQ_INT(cz_ctx_code(ctx), CZ_OK);
    cz_ctx_free(ctx);
    cz_ctx_free(NULL);
    cz_pool_free(NULL);
}

CZ_TEST(pool_memcpy_copies_every_byte)
{
    /* sizes around the 4 MiB piece: none, one byte, a piece +-1, several pieces and a tail */
    const size_t piece = (size_t)4 << 20;
    size_t sizes[] = { 0, 1, piece - 1, piece, piece + 1, 3 * piece + 12345 };
    for (unsigned threads = 1; threads <= 3; threads++) {
        cz_pool_t *pool;
        CHECK_OK(cz_pool_new(&pool, threads));
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
            size_t n = sizes[i];
            unsigned char *src = malloc(n + 1), *dst = malloc(n + 2);
            for (size_t k = 0; k < n; k++)
                src[k] = (unsigned char)(k * 131 + 7);
            memset(dst, 0xAB, n + 2);
            cz_pool_memcpy(pool, dst + 1, src, n);
            CHECK(dst[0] == 0xAB && dst[n + 1] == 0xAB); /* nothing outside */
            CHECK(memcmp(dst + 1, src, n) == 0);
            free(src);
            free(dst);
        }
        cz_pool_free(pool);
    }
}

CZ_TEST_MAIN()
