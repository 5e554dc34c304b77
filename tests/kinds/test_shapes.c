/*
 * tests/kinds/test_shapes.c — the shared shape cache (kinds/shapes.h) with
 * a stand-in compute (no circuit): hits and misses counted, the least
 * recently used entry replaced, concurrent first lookups of a key computing
 * it once, an error never kept (alone and with waiters), a miss with every
 * entry busy computed without being kept, NULL caches and a cache looked
 * up with another kind's spec. The kinds' own caches are checked against
 * real shapes in tests/kinds/porep/test_c2_shapes.c and
 * tests/kinds/snap/test_snap_prove.c.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "cz_test.h"
#include "kinds/shapes.h"

typedef struct {
    uint64_t v[3];
} value_t;

/* What compute reads (the pointees are the test's counters). */
typedef struct {
    uint64_t key;
    cz_shape_cache_t *cache; /* for wait_for */
    size_t wait_for;         /* finish only once the cache counted this many lookups */
    atomic_int *calls;       /* computes run */
    bool fail_first;         /* the first compute (calls was 0) fails */
} arg_t;

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Wait (10 s at most) until |c| has counted |n| lookups. */
static void wait_lookups(cz_shape_cache_t *c, size_t n)
{
    size_t hits, lookups;
    for (int i = 0; i < 10000; i++) {
        cz_shape_cache_stats(c, &hits, &lookups);
        if (lookups >= n)
            return;
        sleep_ms(1);
    }
}

static int compute(const void *argp, cz_ctx_t *ctx, void *value)
{
    const arg_t *a = argp;
    int n = atomic_fetch_add(a->calls, 1);
    if (a->cache)
        wait_lookups(a->cache, a->wait_for); /* the others are in: they wait */
    if (a->key == 666 || (a->fail_first && n == 0))
        return cz_fail(ctx, CZ_EINVAL, "no shape for %llu", (unsigned long long)a->key);
    value_t *v = value;
    *v = (value_t){ { a->key, a->key * 10, a->key * 100 } };
    return CZ_OK;
}

static const cz_shape_cache_spec_t two = { "two", sizeof(uint64_t), sizeof(value_t), 2, compute };
static const cz_shape_cache_spec_t one = { "one", sizeof(uint64_t), sizeof(value_t), 1, compute };

static cz_ctx_t *ctx; /* the main thread's (the lookup threads make their own) */

/* A new cache of |spec| (NULL: none), ctx made on first use; NULL on error. */
static cz_shape_cache_t *fresh(const cz_shape_cache_spec_t *spec)
{
    cz_shape_cache_t *c = NULL;
    if ((ctx || cz_ctx_new(&ctx, NULL, 1) == CZ_OK) && spec)
        CHECK_OK(cz_shape_cache_new(&c, spec));
    return c;
}

/* Look up |key| with no waiting; the value must be the key's. */
static int get(cz_shape_cache_t *c, const cz_shape_cache_spec_t *spec, uint64_t key,
               atomic_int *calls)
{
    arg_t a = { key, NULL, 0, calls, false };
    value_t v;
    memset(&v, 0, sizeof v);
    int rc = cz_shape_cache_get(c, spec, ctx, &key, &v, &a);
    if (rc == CZ_OK) {
        CHECK_EQ_U64(v.v[0], key);
        CHECK_EQ_U64(v.v[2], key * 100);
    }
    return rc;
}

static void check_stats(cz_shape_cache_t *c, size_t hits, size_t lookups)
{
    size_t h, l;
    cz_shape_cache_stats(c, &h, &l);
    CHECK_EQ_U64(h, hits);
    CHECK_EQ_U64(l, lookups);
}

CZ_TEST(hits_misses_and_least_recently_used)
{
    cz_shape_cache_t *c = fresh(&two);
    REQUIRE(c);
    atomic_int calls = 0;
    CHECK_OK(get(c, &two, 1, &calls)); /* miss */
    CHECK_OK(get(c, &two, 2, &calls)); /* miss */
    CHECK_OK(get(c, &two, 1, &calls)); /* hit: 1 is now the more recent */
    CHECK_EQ_INT(calls, 2);
    check_stats(c, 1, 3);
    CHECK_OK(get(c, &two, 3, &calls)); /* miss: replaces 2 */
    CHECK_OK(get(c, &two, 1, &calls)); /* hit */
    CHECK_EQ_INT(calls, 3);
    CHECK_OK(get(c, &two, 2, &calls)); /* miss: replaces 3 */
    CHECK_OK(get(c, &two, 3, &calls)); /* miss: replaces 1 */
    CHECK_OK(get(c, &two, 2, &calls)); /* hit */
    CHECK_EQ_INT(calls, 5);
    check_stats(c, 3, 8);
    cz_shape_cache_free(c);
}

CZ_TEST(an_error_is_not_kept)
{
    cz_shape_cache_t *c = fresh(&two);
    REQUIRE(c);
    atomic_int calls = 0;
    CHECK_OK(get(c, &two, 1, &calls));
    CHECK_EQ_INT(get(c, &two, 666, &calls), CZ_EINVAL);
    CHECK_EQ_STR(cz_ctx_message(ctx), "no shape for 666");
    cz_ctx_clear(ctx);
    CHECK_EQ_INT(get(c, &two, 666, &calls), CZ_EINVAL); /* computed again */
    CHECK_EQ_STR(cz_ctx_message(ctx), "no shape for 666");
    CHECK_EQ_INT(calls, 3);
    CHECK_OK(get(c, &two, 2, &calls)); /* the failed key took no entry */
    CHECK_OK(get(c, &two, 1, &calls));
    CHECK_EQ_INT(calls, 4);
    check_stats(c, 1, 5);
    cz_shape_cache_free(c);
}

#define THREADS 8

typedef struct {
    cz_shape_cache_t *cache;
    const cz_shape_cache_spec_t *spec;
    arg_t arg;
    pthread_barrier_t *start;
    int rc;
    value_t v;
} lookup_t;

static void *lookup_thread(void *p)
{
    lookup_t *l = p;
    cz_ctx_t *own;
    l->rc = cz_ctx_new(&own, NULL, 1);
    if (l->rc)
        return NULL;
    if (l->start)
        pthread_barrier_wait(l->start);
    l->rc = cz_shape_cache_get(l->cache, l->spec, own, &l->arg.key, &l->v, &l->arg);
    cz_ctx_free(own);
    return NULL;
}

/* THREADS concurrent first lookups of key 7; the first compute waits until
 * every thread has looked up, so the others are waiting on it. Returns how
 * many lookups failed. */
static int first_lookups(cz_shape_cache_t *c, atomic_int *calls, bool fail_first)
{
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, THREADS);
    lookup_t l[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        l[i] = (lookup_t){ c, &two, { 7, c, THREADS, calls, fail_first }, &start, -1, { { 0 } } };
        if (pthread_create(&t[i], NULL, lookup_thread, &l[i]))
            abort(); /* the barrier would wait for it forever */
    }
    int failed = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        if (l[i].rc == CZ_OK)
            CHECK_EQ_U64(l[i].v.v[1], 70);
        else
            failed++;
    }
    pthread_barrier_destroy(&start);
    return failed;
}

CZ_TEST(concurrent_first_lookups_compute_once)
{
    /* fail 0: one compute, the rest hit; fail 1: the first compute fails (its
     * caller alone gets the error), one waiter computes, the rest hit */
    for (int fail = 0; fail < 2; fail++) {
        cz_shape_cache_t *c = fresh(&two);
        REQUIRE(c);
        atomic_int calls = 0;
        CHECK_EQ_INT(first_lookups(c, &calls, fail), fail);
        CHECK_EQ_INT(calls, 1 + fail);
        check_stats(c, THREADS - 1 - fail, THREADS);
        cz_shape_cache_free(c);
    }
}

CZ_TEST(a_miss_with_every_entry_busy_is_not_kept)
{
    cz_shape_cache_t *c = fresh(&one);
    REQUIRE(c);
    atomic_int calls = 0;
    /* a thread computes key 7 in the only entry until a second lookup is counted */
    lookup_t l = { c, &one, { 7, c, 2, &calls, false }, NULL, -1, { { 0 } } };
    pthread_t t;
    REQUIRE(pthread_create(&t, NULL, lookup_thread, &l) == 0);
    wait_lookups(c, 1);
    CHECK_OK(get(c, &one, 8, &calls)); /* computed beside it, not kept */
    pthread_join(t, NULL);
    CHECK_OK(l.rc);
    CHECK_EQ_U64(l.v.v[1], 70);
    CHECK_OK(get(c, &one, 7, &calls)); /* hit */
    CHECK_OK(get(c, &one, 8, &calls)); /* a miss again (now replacing 7) */
    CHECK_EQ_INT(calls, 3);
    check_stats(c, 1, 4);
    cz_shape_cache_free(c);
}

CZ_TEST(null_cache_and_wrong_spec)
{
    REQUIRE(fresh(NULL) == NULL && ctx);
    atomic_int calls = 0;
    CHECK_OK(get(NULL, &two, 5, &calls));
    CHECK_OK(get(NULL, &two, 5, &calls));
    CHECK_EQ_INT(calls, 2);
    check_stats(NULL, 0, 0);
    cz_shape_cache_free(NULL);
    cz_shape_cache_t *c = fresh(&one);
    REQUIRE(c);
    CHECK_EQ_INT(get(c, &two, 5, &calls), CZ_EINVAL);
    CHECK_EQ_STR(cz_ctx_message(ctx), "shape cache: a one cache looked up as two");
    CHECK_EQ_INT(calls, 2);
    check_stats(c, 0, 0);
    cz_shape_cache_free(c);
    const cz_shape_cache_spec_t none = { "none", sizeof(uint64_t), sizeof(value_t), 0, compute };
    c = (cz_shape_cache_t *)&calls;
    CHECK_EQ_INT(cz_shape_cache_new(&c, &none), CZ_EINVAL);
    CHECK(c == NULL);
}

CZ_TEST_MAIN()
