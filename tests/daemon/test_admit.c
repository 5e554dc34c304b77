/*
 * tests/daemon/test_admit.c — daemon/admit.h: the connection limits (in
 * all and per address; IPv4 and IPv4-mapped IPv6 are one address, a unix
 * peer only counts in the total), entries forgotten when their last
 * connection closes, the body budget's edges, and opens/closes/reserves
 * from many threads balancing to zero (label tsan).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>
#include <sys/un.h>

#include "cuzk/error.h"
#include "daemon/admit.h"
#include "cz_test.h"

static struct sockaddr_in v4(const char *ip)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(1234) };
    inet_pton(AF_INET, ip, &a.sin_addr);
    return a;
}

static struct sockaddr_in6 v6(const char *ip)
{
    struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(1234) };
    inet_pton(AF_INET6, ip, &a.sin6_addr);
    return a;
}

#define SA(x) ((const struct sockaddr *)&(x))

CZ_TEST(limits_in_all_and_per_address)
{
    cz_admit_t *a = NULL;
    REQUIRE(cz_admit_new(&a, 5, 2, 100) == CZ_OK);
    struct sockaddr_in x = v4("10.0.0.1"), y = v4("10.0.0.2");
    struct sockaddr_in6 xm = v6("::ffff:10.0.0.1"), z = v6("fd00::1");
    CHECK_EQ_INT(cz_admit_open(a, SA(x)), CZ_ADMIT_OK);
    CHECK_EQ_INT(cz_admit_open(a, SA(xm)), CZ_ADMIT_OK);    /* the same address: 2 of 2 */
    CHECK_EQ_INT(cz_admit_open(a, SA(x)), CZ_ADMIT_PER_IP); /* 3 of 2 */
    CHECK_EQ_INT(cz_admit_open(a, SA(y)), CZ_ADMIT_OK);     /* another address: 4 in all */
    CHECK_EQ_INT(cz_admit_open(a, SA(z)), CZ_ADMIT_OK);     /* 5 of 5 */
    CHECK_EQ_INT(cz_admit_open(a, NULL), CZ_ADMIT_FULL);    /* 6 of 5: the total first */
    long open;
    size_t bytes;
    cz_admit_counts(a, &open, &bytes);
    CHECK_EQ_INT(open, 6);
    cz_admit_close(a, NULL);
    cz_admit_close(a, SA(x)); /* x: 2 left */
    CHECK_EQ_INT(cz_admit_open(a, SA(x)), CZ_ADMIT_PER_IP);
    cz_admit_close(a, SA(x));
    cz_admit_close(a, SA(x));
    cz_admit_close(a, SA(xm)); /* x gone: its entry forgotten */
    CHECK_EQ_INT(cz_admit_open(a, SA(x)), CZ_ADMIT_OK);
    cz_admit_close(a, SA(x));
    cz_admit_close(a, SA(y));
    cz_admit_close(a, SA(z));
    cz_admit_counts(a, &open, &bytes);
    CHECK_EQ_INT(open, 0);
    cz_admit_free(a);
}

CZ_TEST(unix_peers_count_only_in_the_total)
{
    cz_admit_t *a = NULL;
    REQUIRE(cz_admit_new(&a, 3, 1, 100) == CZ_OK);
    struct sockaddr_un u = { .sun_family = AF_UNIX };
    CHECK_EQ_INT(cz_admit_open(a, SA(u)), CZ_ADMIT_OK);
    CHECK_EQ_INT(cz_admit_open(a, SA(u)), CZ_ADMIT_OK); /* no per-address cap for them */
    CHECK_EQ_INT(cz_admit_open(a, SA(u)), CZ_ADMIT_OK);
    CHECK_EQ_INT(cz_admit_open(a, SA(u)), CZ_ADMIT_FULL);
    for (int i = 0; i < 4; i++)
        cz_admit_close(a, SA(u));
    cz_admit_free(a);
    REQUIRE(cz_admit_new(&a, 3, 0, 100) == CZ_OK); /* per_ip 0: no cap */
    struct sockaddr_in x = v4("192.0.2.1");
    for (int i = 0; i < 3; i++)
        CHECK_EQ_INT(cz_admit_open(a, SA(x)), CZ_ADMIT_OK);
    for (int i = 0; i < 3; i++)
        cz_admit_close(a, SA(x));
    cz_admit_free(a);
    cz_admit_free(NULL);
}

CZ_TEST(body_budget_edges)
{
    cz_admit_t *a = NULL;
    REQUIRE(cz_admit_new(&a, 1, 0, 100) == CZ_OK);
    CHECK(cz_admit_body(a, 60));
    CHECK(!cz_admit_body(a, 41)); /* 101 > 100: nothing reserved */
    CHECK(cz_admit_body(a, 40));  /* exactly the budget */
    CHECK(!cz_admit_body(a, 1));
    CHECK(cz_admit_body(a, 0));
    cz_admit_body_release(a, 60);
    CHECK(cz_admit_body(a, 60));
    CHECK(!cz_admit_body(a, (size_t)-1)); /* no wrap-around */
    long open;
    size_t bytes;
    cz_admit_counts(a, &open, &bytes);
    CHECK_EQ_U64(bytes, 100);
    cz_admit_body_release(a, 100);
    cz_admit_counts(a, &open, &bytes);
    CHECK_EQ_U64(bytes, 0);
    cz_admit_free(a);
}

typedef struct {
    cz_admit_t *a;
    int id;
} worker_arg_t;

static void *churn(void *p)
{
    worker_arg_t *w = p;
    char ip[32];
    snprintf(ip, sizeof ip, "10.0.%d.1", w->id % 3);
    struct sockaddr_in x = v4(ip);
    for (int i = 0; i < 2000; i++) {
        cz_admit_open(w->a, SA(x));
        bool got = cz_admit_body(w->a, 10);
        cz_admit_close(w->a, SA(x));
        if (got)
            cz_admit_body_release(w->a, 10);
    }
    return NULL;
}

CZ_TEST(threads_balance_to_zero)
{
    cz_admit_t *a = NULL;
    REQUIRE(cz_admit_new(&a, 4, 2, 25) == CZ_OK);
    pthread_t t[6];
    worker_arg_t w[6];
    for (int i = 0; i < 6; i++) {
        w[i] = (worker_arg_t){ a, i };
        REQUIRE(pthread_create(&t[i], NULL, churn, &w[i]) == 0);
    }
    for (int i = 0; i < 6; i++)
        pthread_join(t[i], NULL);
    long open;
    size_t bytes;
    cz_admit_counts(a, &open, &bytes);
    CHECK_EQ_INT(open, 0);
    CHECK_EQ_U64(bytes, 0);
    cz_admit_free(a);
}

CZ_TEST_MAIN()
