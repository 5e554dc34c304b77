/*
 * tests/daemon/test_hdeadline.c — daemon/hdeadline.h on socket pairs:
 * a connection still waiting for its headers past the deadline is shut
 * down (its peer reads EOF), however recently it sent a byte; one whose
 * request runs is not; a request's end restarts the clock; a removed entry
 * is never touched. Deadlines of 0.3 s, every wait bounded.
 */
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/clock.h"
#include "cuzk/error.h"
#include "daemon/hdeadline.h"
#include "cz_test.h"

/* Whether |fd|'s peer was shut down within |s| seconds (EOF or an error to read). */
static bool cut_within(int fd, double s)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    double end = cz_mono_s() + s;
    while (cz_mono_s() < end) {
        if (poll(&p, 1, 20) == 1) {
            char b[64];
            ssize_t n = read(fd, b, sizeof b);
            if (n <= 0)
                return true;
        }
    }
    return false;
}

CZ_TEST(cut_at_the_deadline_however_it_trickles)
{
    cz_hdeadline_t *w = NULL;
    REQUIRE(cz_hdeadline_start(&w, 0.3) == CZ_OK);
    int a[2], b[2], c[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, a) == 0);
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, b) == 0);
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, c) == 0);
    cz_hdeadline_conn_t ea, eb, ec;
    double t0 = cz_mono_s();
    cz_hdeadline_add(w, &ea, a[0]); /* waits for headers: cut */
    cz_hdeadline_add(w, &eb, b[0]); /* its request runs: kept */
    cz_hdeadline_request(w, &eb, true);
    cz_hdeadline_add(w, &ec, c[0]); /* removed: never touched */
    cz_hdeadline_remove(w, &ec);
    for (int i = 0; i < 3; i++) { /* trickling does not help a[0] */
        CHECK(write(a[1], "x", 1) == 1);
        usleep(100 * 1000);
    }
    CHECK(cut_within(a[1], 2.0));
    double took = cz_mono_s() - t0;
    CHECK(took >= 0.3 && took < 1.0);
    CHECK(!cut_within(b[1], 0.6));
    CHECK(!cut_within(c[1], 0.1));
    CHECK_EQ_INT(cz_hdeadline_cut_count(w), 1);

    /* the request ends: the next headers are due within the deadline again */
    cz_hdeadline_request(w, &eb, false);
    CHECK(cut_within(b[1], 2.0));
    CHECK_EQ_INT(cz_hdeadline_cut_count(w), 2);
    cz_hdeadline_remove(w, &ea);
    cz_hdeadline_remove(w, &eb);
    cz_hdeadline_stop(w);
    cz_hdeadline_stop(NULL);
    for (int i = 0; i < 2; i++) {
        close(a[i]);
        close(b[i]);
        close(c[i]);
    }
}

CZ_TEST_MAIN()
