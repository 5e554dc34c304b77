/*
 * tests/core/test_thread_name.c — a thread names itself, cut at the
 * kernel's 15 bytes; the pool's threads carry their name (Linux, where
 * cuzk runs: pthread_getname_np and /proc/self/task).
 */
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/pool.h"
#include "core/thread_name.h"
#include "cuzk/error.h"
#include "cz_test.h"

static void *name_and_read(void *out)
{
    cz_thread_name("cz-synth%u-%s", 12u, "and-far-too-long");
    (void)pthread_getname_np(pthread_self(), out, CZ_THREAD_NAME_MAX + 1);
    return NULL;
}

CZ_TEST(a_long_name_is_cut_to_fifteen_bytes)
{
    char got[CZ_THREAD_NAME_MAX + 1] = "";
    pthread_t t;
    REQUIRE(pthread_create(&t, NULL, name_and_read, got) == 0);
    pthread_join(t, NULL);
    CHECK_EQ_STR(got, "cz-synth12-and-");
}

/* Threads of this process whose name is |name|, from /proc/self/task/<tid>/comm. */
static unsigned threads_named(const char *name)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return 0;
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[320], comm[64] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (f && fgets(comm, sizeof comm, f))
            comm[strcspn(comm, "\n")] = 0;
        if (f)
            fclose(f);
        n += strcmp(comm, name) == 0;
    }
    closedir(d);
    return n;
}

/*
 * Each chunk waits until all four threads of the pool hold one (a worker
 * names itself before it takes work), so the section returns only once
 * every worker has started; bounded, so a broken pool fails, not hangs.
 */
static void meet(void *arg, size_t begin, size_t end, unsigned slot)
{
    atomic_uint *arrived = arg;
    (void)begin;
    (void)end;
    (void)slot;
    atomic_fetch_add(arrived, 1);
    for (int ms = 0; ms < 10000 && atomic_load(arrived) < 4; ms++)
        usleep(1000);
}

CZ_TEST(the_pools_threads_are_named)
{
    cz_pool_t *pool = NULL;
    CHECK_OK(cz_pool_new(&pool, 4));
    atomic_uint arrived = 0;
    cz_pool_for(pool, 4, 1, meet, &arrived);
    CHECK_EQ_INT(atomic_load(&arrived), 4);
    CHECK_EQ_INT(threads_named("cz-pool"), 3); /* the calling thread is the fourth */
    cz_pool_free(pool);
}

CZ_TEST_MAIN()
