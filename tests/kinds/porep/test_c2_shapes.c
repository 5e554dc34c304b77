/*
 * tests/kinds/porep/test_c2_shapes.c — the C2 shape cache (kinds/porep/c2.h): a job
 * initialized from the cache has the shape, rows and plan of one computed
 * from scratch; the second job of a size is a hit, another size a miss
 * (the cache's own rules, replacement and concurrency, are
 * tests/kinds/test_shapes.c's).
 */
#include <string.h>

#include "cz_test.h"
#include "kinds/porep/c2.h"
#include "kinds/porep/seal_sparse.h"

static void sparse_c1(cz_ctx_t *ctx, uint64_t bytes, cz_c1_t *c1)
{
    cz_seal_args_t a;
    memset(&a, 0, sizeof a);
    a.sector_bytes = bytes;
    a.random_seed = 3;
    memset(a.prover_id, 1, 32);
    memset(a.ticket, 2, 32);
    memset(a.seed, 5, 32);
    CHECK_OK(cz_seal_sparse_gen_c1(ctx, &a, c1, NULL));
}

static void same_job_shape(const cz_c2_job_t *x, const cz_c2_job_t *y)
{
    CHECK(!memcmp(&x->shape, &y->shape, sizeof x->shape));
    CHECK_EQ_U64(x->rows, y->rows);
    CHECK(!memcmp(&x->plan, &y->plan, sizeof x->plan));
}

CZ_TEST(cached_shapes_equal_computed_ones)
{
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 1));
    cz_c1_t c2k, c8m;
    sparse_c1(ctx, 2048, &c2k);
    sparse_c1(ctx, (uint64_t)8 << 20, &c8m);
    cz_shape_cache_t *cache;
    CHECK_OK(cz_c2_shapes_new(&cache));
    cz_c2_job_t plain, first, again, other;
    CHECK_OK(cz_c2_job_init(ctx, &plain, &c2k, NULL, NULL));
    CHECK_OK(cz_c2_job_init_cached(ctx, &first, &c2k, NULL, NULL, cache));
    CHECK_OK(cz_c2_job_init_cached(ctx, &again, &c2k, NULL, NULL, cache));
    CHECK_OK(cz_c2_job_init_cached(ctx, &other, &c8m, NULL, NULL, cache));
    same_job_shape(&plain, &first);
    same_job_shape(&plain, &again);
    CHECK(other.rows != plain.rows);
    CHECK_EQ_U64(plain.rows, 2687961);
    CHECK(plain.plan.challenge.rows > 0 &&
          plain.plan.prelude.rows + 2 * plain.plan.challenge.rows + plain.shape.num_inputs ==
              plain.rows);
    size_t hits, lookups;
    cz_shape_cache_stats(cache, &hits, &lookups);
    CHECK_EQ_U64(lookups, 3);
    CHECK_EQ_U64(hits, 1);
    cz_c2_job_clear(&plain);
    cz_c2_job_clear(&first);
    cz_c2_job_clear(&again);
    cz_c2_job_clear(&other);
    cz_shape_cache_free(cache);
    cz_shape_cache_free(NULL);
    cz_c1_free(&c2k);
    cz_c1_free(&c8m);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
