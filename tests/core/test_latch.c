/*
 * tests/core/test_latch.c — a post before the wait is kept; errors wake
 * waiters; posts from another thread release a blocked waiter.
 */
#include <pthread.h>
#include <unistd.h>

#include "core/latch.h"
#include "cuzk/error.h"
#include "cz_test.h"

CZ_TEST(post_before_wait_is_counted)
{
    cz_latch_t l;
    cz_latch_init(&l);
    cz_latch_post(&l, 0);
    cz_latch_post(&l, 0);
    CHECK_EQ_INT(cz_latch_wait(&l), 0);
    CHECK_EQ_INT(cz_latch_wait(&l), 0);
    CHECK_EQ_INT(l.count, 0);
    cz_latch_destroy(&l);
}

static void *poster(void *p)
{
    usleep(20000);
    cz_latch_post(p, 0);
    return NULL;
}

CZ_TEST(wait_blocks_until_post_from_another_thread)
{
    cz_latch_t l;
    cz_latch_init(&l);
    pthread_t t;
    pthread_create(&t, NULL, poster, &l);
    CHECK_EQ_INT(cz_latch_wait(&l), 0);
    pthread_join(t, NULL);
    cz_latch_destroy(&l);
}

CZ_TEST(error_is_sticky_and_wakes_every_waiter)
{
    cz_latch_t l;
    cz_latch_init(&l);
    cz_latch_post(&l, CZ_EDEVICE);
    CHECK_EQ_INT(cz_latch_wait(&l), CZ_EDEVICE);
    CHECK_EQ_INT(cz_latch_wait(&l), CZ_EDEVICE); /* no permit left, still returns */
    cz_latch_destroy(&l);
}

CZ_TEST_MAIN()
