/*
 * tests/core/test_recycle.c — the recycler keeps freed blocks and hands
 * them out by best fit within 5/4 of the request (or the caller's bound),
 * frees what is too small,
 * past its slots or refused by its hold hook, keeps its accounting
 * balanced (every hold is released once), trims, sheds what it is asked
 * for, and survives concurrent
 * give/take (also under ThreadSanitizer).
 */
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>

#include "core/recycle.h"
#include "cz_test.h"

#define MiB ((size_t)1 << 20)

/* A hold hook with a limit, counting what it holds. */
typedef struct {
    pthread_mutex_t mu;
    size_t held, limit, refused;
} acct_t;

static bool hold(void *arg, size_t bytes)
{
    acct_t *a = arg;
    pthread_mutex_lock(&a->mu);
    bool ok = a->held + bytes <= a->limit;
    if (ok)
        a->held += bytes;
    else
        a->refused++;
    pthread_mutex_unlock(&a->mu);
    return ok;
}

static void unhold(void *arg, size_t bytes)
{
    acct_t *a = arg;
    pthread_mutex_lock(&a->mu);
    a->held -= bytes;
    pthread_mutex_unlock(&a->mu);
}

CZ_TEST(recycler_best_fit_and_limits)
{
    acct_t acct = { PTHREAD_MUTEX_INITIALIZER, 0, 100 * MiB, 0 };
    cz_recycler_t *r;
    CHECK_OK(cz_recycler_new(&r, 2 * MiB, 3, hold, unhold, &acct));
    char *a = malloc(10 * MiB), *b = malloc(12 * MiB), *c = malloc(40 * MiB);
    char *small = malloc(MiB);
    REQUIRE(a && b && c && small);
    a[0] = 'a';
    b[0] = 'b';
    cz_recycler_give(r, small); /* below min_bytes: freed */
    cz_recycler_give(r, a);
    cz_recycler_give(r, c);
    cz_recycler_give(r, b);
    cz_recycler_stats_t st;
    cz_recycler_stats(r, &st);
    CHECK_EQ_U64(st.kept_blocks, 3);
    CHECK_EQ_U64(acct.held, st.kept_bytes);

    /* 9.5 MiB: a (10) fits within 5/4, b (12) does not; best fit is a. */
    char *t = cz_recycler_take(r, 9 * MiB + MiB / 2);
    CHECK(t == a && t[0] == 'a');
    /* 11 MiB: b. 20 MiB: c is too large (40 > 25), nothing. */
    CHECK(cz_recycler_take(r, 11 * MiB) == b);
    CHECK(cz_recycler_take(r, 20 * MiB) == NULL);
    CHECK(cz_recycler_take(r, 64 * MiB) == NULL);
    cz_recycler_stats(r, &st);
    CHECK_EQ_U64(st.takes, 4);
    CHECK_EQ_U64(st.hits, 2);
    CHECK_EQ_U64(st.kept_blocks, 1);
    CHECK_EQ_U64(acct.held, malloc_usable_size(c));

    /* take_range: the caller's own bound (20 MiB up to 48 MiB: c). */
    CHECK(cz_recycler_take_range(r, 20 * MiB, 30 * MiB) == NULL);
    CHECK(cz_recycler_take_range(r, 20 * MiB, 48 * MiB) == c);
    cz_recycler_give(r, c);

    /* A fourth slot does not exist: with a, b and c kept, d is freed. */
    cz_recycler_give(r, a);
    cz_recycler_give(r, b);
    char *d = malloc(8 * MiB);
    cz_recycler_give(r, d);
    cz_recycler_stats(r, &st);
    CHECK_EQ_U64(st.kept_blocks, 3);
    CHECK_EQ_U64(acct.held, st.kept_bytes);

    cz_recycler_trim(r);
    cz_recycler_stats(r, &st);
    CHECK_EQ_U64(st.kept_blocks, 0);
    CHECK_EQ_U64(st.kept_bytes, 0);
    CHECK_EQ_U64(acct.held, 0);
    cz_recycler_free(r);
}

CZ_TEST(recycler_hold_refused_frees)
{
    acct_t acct = { PTHREAD_MUTEX_INITIALIZER, 0, 15 * MiB, 0 };
    cz_recycler_t *r;
    CHECK_OK(cz_recycler_new(&r, MiB, 8, hold, unhold, &acct));
    cz_recycler_give(r, malloc(10 * MiB));
    cz_recycler_give(r, malloc(10 * MiB)); /* 20 > 15: refused, freed */
    cz_recycler_stats_t st;
    cz_recycler_stats(r, &st);
    CHECK_EQ_U64(st.kept_blocks, 1);
    CHECK_EQ_U64(acct.refused, 1);
    cz_recycler_free(r); /* trims: the hold is given back */
    CHECK_EQ_U64(acct.held, 0);
}

/* shed frees kept blocks until the bytes asked for are freed (whole blocks: it may free
 * more), gives their holds back, and returns what it freed; nothing kept: 0. */
CZ_TEST(recycler_sheds_what_is_asked_for)
{
    acct_t acct = { PTHREAD_MUTEX_INITIALIZER, 0, 100 * MiB, 0 };
    cz_recycler_t *r;
    CHECK_OK(cz_recycler_new(&r, MiB, 8, hold, unhold, &acct));
    for (int i = 0; i < 4; i++)
        cz_recycler_give(r, malloc(10 * MiB));
    const size_t one = acct.held / 4;
    CHECK(one >= 10 * MiB);
    CHECK_EQ_U64(cz_recycler_shed(r, one + 1), 2 * one); /* two blocks cover one + 1 byte */
    cz_recycler_stats_t st;
    cz_recycler_stats(r, &st);
    CHECK_EQ_U64(st.kept_blocks, 2);
    CHECK_EQ_U64(acct.held, 2 * one);
    CHECK_EQ_U64(cz_recycler_shed(r, SIZE_MAX), 2 * one);
    CHECK_EQ_U64(cz_recycler_shed(r, 1), 0);
    CHECK_EQ_U64(acct.held, 0);
    CHECK_EQ_U64(cz_recycler_shed(NULL, 1), 0);
    cz_recycler_free(r);
}

CZ_TEST(recycler_null_and_no_accounting)
{
    cz_recycler_give(NULL, malloc(MiB)); /* freed */
    CHECK(cz_recycler_take(NULL, MiB) == NULL);
    cz_recycler_give(NULL, NULL);
    cz_recycler_stats_t st;
    cz_recycler_stats(NULL, &st);
    CHECK_EQ_U64(st.takes, 0);
    cz_recycler_t *r;
    CHECK_OK(cz_recycler_new(&r, 0, 2, NULL, NULL, NULL));
    cz_recycler_give(r, NULL);
    void *p = malloc(100);
    cz_recycler_give(r, p);
    CHECK(cz_recycler_take(r, 90) == p);
    free(p);
    cz_recycler_free(r);
    cz_recycler_free(NULL);

    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 1));
    CHECK(cz_ctx_recycler(ctx) == NULL);
    CHECK(cz_ctx_recycler(NULL) == NULL);
    cz_ctx_free(ctx);
}

static void *churn(void *arg)
{
    cz_recycler_t *r = arg;
    for (int i = 0; i < 2000; i++) {
        size_t n = (size_t)(1 + i % 4) * 4096;
        char *p = cz_recycler_take(r, n);
        if (!p)
            p = malloc(n);
        if (p)
            p[n - 1] = (char)i; /* the block is really that large */
        cz_recycler_give(r, p);
    }
    return NULL;
}

CZ_TEST(recycler_concurrent)
{
    acct_t acct = { PTHREAD_MUTEX_INITIALIZER, 0, (size_t)1 << 30, 0 };
    cz_recycler_t *r;
    CHECK_OK(cz_recycler_new(&r, 1024, 6, hold, unhold, &acct));
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        REQUIRE(pthread_create(&th[i], NULL, churn, r) == 0);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    cz_recycler_stats_t st;
    cz_recycler_stats(r, &st);
    CHECK(st.kept_blocks <= 6);
    CHECK_EQ_U64(acct.held, st.kept_bytes);
    CHECK(st.hits > 0);
    cz_recycler_free(r);
    CHECK_EQ_U64(acct.held, 0);
}

CZ_TEST_MAIN()
