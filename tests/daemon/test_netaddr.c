/*
 * tests/daemon/test_netaddr.c — daemon/netaddr.h over many cases: CIDR
 * entries accepted and refused (the message names the entry), gRPC peer
 * strings as gRPC core writes them (brackets plain or percent-encoded,
 * IPv4-mapped IPv6, zones, unix sockets, junk), allowlist matching at
 * prefix boundaries, and loopback hosts by resolution (a name that only
 * starts with "127." is not loopback).
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/error.h"
#include "daemon/netaddr.h"
#include "cz_test.h"

static cz_ctx_t *ctx;

static bool parses(const char *text)
{
    cz_cidr_t c;
    return cz_cidr_parse(ctx, text, &c) == CZ_OK;
}

CZ_TEST(cidr_entries_accepted)
{
    REQUIRE(cz_ctx_new(&ctx, NULL, 1) == CZ_OK);
    const char *good[] = { "10.1.2.0/24", "192.0.2.7",  "192.0.2.7/32",     "0.0.0.0/0",
                           "fd00::/8",    "::1",        "2001:db8::/32",    "2001:db8::1/128",
                           "::/0",        "10.0.0.0/8", "::ffff:192.0.2.7", "172.16.0.0/12" };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        if (!parses(good[i]))
            CZ__FAIL("'%s' refused: %s", good[i], cz_ctx_message(ctx));
    cz_cidr_t c;
    REQUIRE(cz_cidr_parse(ctx, "::ffff:192.0.2.7", &c) == CZ_OK);
    CHECK(!c.v6 && c.bits == 32 && c.addr[0] == 192 && c.addr[3] == 7);
    REQUIRE(cz_cidr_parse(ctx, "fd00::/8", &c) == CZ_OK);
    CHECK(c.v6 && c.bits == 8 && c.addr[0] == 0xfd);
}

CZ_TEST(cidr_entries_refused_with_the_entry_named)
{
    const char *bad[] = {
        "",
        "10.1.2.0/",
        "10.1.2.0/33",
        "10.1.2.3/24",
        "fd00::/129",
        "fd00::1/8",
        "example.com",
        "10.1.2",
        "10.1.2.0/24x",
        "10.1.2.0/-1",
        "/24",
        "10.1.2.0/ 24",
        "256.1.1.1",
        "[::1]",
        "::1/+8",
        "0123456789012345678901234567890123456789012345678901234567890123456789"
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (parses(bad[i])) {
            CZ__FAIL("'%s' accepted", bad[i]);
            continue;
        }
        char want[24];
        snprintf(want, sizeof want, "'%.12s", bad[i]);
        if (!strstr(cz_ctx_message(ctx), want))
            CZ__FAIL("message for '%s' does not name it: %s", bad[i], cz_ctx_message(ctx));
    }
    char *list[] = { "10.0.0.0/8", "10.1.2.3/24" };
    cz_allow_t a;
    CHECK(cz_allow_parse(ctx, list, 2, &a) == CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx), "10.1.2.3/24") != NULL);
    CHECK(cz_allow_parse(ctx, list, 1, &a) == CZ_OK && a.n == 1);
    CHECK(cz_allow_parse(ctx, list, CZ_ALLOW_MAX + 1, &a) == CZ_EINVAL);
}

CZ_TEST(peer_strings)
{
    uint8_t a[16];
    bool v6;
    REQUIRE(cz_peer_addr("ipv4:127.0.0.1:5000", a, &v6));
    CHECK(!v6 && a[0] == 127 && a[3] == 1);
    REQUIRE(cz_peer_addr("ipv6:[::1]:5000", a, &v6));
    CHECK(v6 && a[15] == 1);
    REQUIRE(cz_peer_addr("ipv6:%5B::1%5D:5000", a, &v6));
    CHECK(v6 && a[15] == 1);
    REQUIRE(cz_peer_addr("ipv6:%5b2001:db8::7%5d:1", a, &v6));
    CHECK(v6 && a[0] == 0x20 && a[15] == 7);
    REQUIRE(cz_peer_addr("ipv6:[::ffff:10.1.2.9]:443", a, &v6));
    CHECK(!v6 && a[0] == 10 && a[3] == 9);
    REQUIRE(cz_peer_addr("ipv6:[fe80::1%25eth0]:80", a, &v6));
    CHECK(v6 && a[0] == 0xfe && a[15] == 1);
    const char *junk[] = { "",
                           "unix:/tmp/x.sock",
                           "ipv4:",
                           "ipv4:127.0.0.1",
                           "ipv4:::1:5",
                           "ipv6:::1:5000",
                           "ipv6:[::1]",
                           "ipv6:[127.0.0.1]:5",
                           "ipv4:[::1]:5",
                           "ipv6:%5B::1:5",
                           "dns:localhost:5",
                           "ipv4:1.2.3.4.5:6",
                           "ipv4:localhost:5000",
                           "IPV4:127.0.0.1:5" };
    for (size_t i = 0; i < sizeof junk / sizeof *junk; i++)
        if (cz_peer_addr(junk[i], a, &v6))
            CZ__FAIL("peer '%s' parsed", junk[i]);
}

CZ_TEST(allowlist_matching)
{
    char *list[] = { "10.1.2.0/24", "192.0.2.7", "fd00::/8", "172.16.0.0/12", "2001:db8:1::/48" };
    cz_allow_t a;
    REQUIRE(cz_allow_parse(ctx, list, 5, &a) == CZ_OK);
    struct {
        const char *peer;
        bool ok;
    } cases[] = {
        { "ipv4:127.0.0.1:5000", true }, /* loopback is always allowed */
        { "ipv4:127.255.3.4:1", true },
        { "ipv6:[::1]:5000", true },
        { "ipv6:%5B::1%5D:5000", true },
        { "ipv6:[::ffff:127.0.0.1]:9", true },
        { "unix:/run/cuzk/grpc.sock", true }, /* the socket file's mode decides */
        { "unix:", true },
        { "ipv4:10.1.2.0:1", true },
        { "ipv4:10.1.2.255:1", true },
        { "ipv4:10.1.3.0:1", false },
        { "ipv4:10.1.1.255:1", false },
        { "ipv4:192.0.2.7:6000", true },
        { "ipv4:192.0.2.8:6000", false },
        { "ipv4:192.0.2.6:6000", false },
        { "ipv6:[::ffff:10.1.2.77]:5", true }, /* IPv4 on a dual-stack socket */
        { "ipv6:[::ffff:10.1.3.77]:5", false },
        { "ipv4:172.16.0.1:1", true },
        { "ipv4:172.31.255.255:1", true },
        { "ipv4:172.32.0.0:1", false },
        { "ipv4:172.15.255.255:1", false },
        { "ipv6:[fd12:3456::1]:7", true },
        { "ipv6:%5Bfdff:ffff::1%5D:7", true },
        { "ipv6:[fe00::1]:7", false },
        { "ipv6:[fc00::1]:7", false },
        { "ipv6:[2001:db8:1:ffff::1]:7", true },
        { "ipv6:[2001:db8:2::1]:7", false },
        { "ipv6:[::a01:203]:7", false }, /* 10.1.2.3 as IPv4-compatible v6: not v4 */
        { "ipv4:0.0.0.0:1", false },
        { "ipv4:8.8.8.8:53", false },
        { "ipv6:[::]:1", false },
        { "ipv6:[::2]:1", false },
        { "garbage", false },
        { "", false },
        { "ipv4:10.1.2.3", false }, /* no port: not gRPC's form */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (cz_peer_allowed(&a, cases[i].peer) != cases[i].ok)
            CZ__FAIL("peer '%s': %s, want %s", cases[i].peer, cases[i].ok ? "refused" : "allowed",
                     cases[i].ok ? "allowed" : "refused");
    cz_allow_t none = { .n = 0 };
    CHECK(cz_peer_allowed(&none, "ipv4:127.0.0.1:1"));
    CHECK(cz_peer_allowed(NULL, "ipv6:[::1]:1"));
    CHECK(!cz_peer_allowed(&none, "ipv4:10.1.2.3:1"));
    char *all[] = { "0.0.0.0/0" };
    REQUIRE(cz_allow_parse(ctx, all, 1, &a) == CZ_OK);
    CHECK(cz_peer_allowed(&a, "ipv4:8.8.8.8:1"));
    CHECK(!cz_peer_allowed(&a, "ipv6:[2001:db8::1]:1")); /* /0 of v4 is not v6 */
}

CZ_TEST(loopback_hosts_by_resolution)
{
    CHECK(cz_host_is_loopback("127.0.0.1"));
    CHECK(cz_host_is_loopback("127.1.2.3"));
    CHECK(cz_host_is_loopback("::1"));
    CHECK(!cz_host_is_loopback("127.evil.example")); /* was a string-prefix pass */
    CHECK(!cz_host_is_loopback("127.0.0.1.evil.example"));
    CHECK(!cz_host_is_loopback("0.0.0.0"));
    CHECK(!cz_host_is_loopback("::"));
    CHECK(!cz_host_is_loopback(""));
    CHECK(!cz_host_is_loopback("10.0.0.1"));
    CHECK(!cz_host_is_loopback("::ffff:10.0.0.1"));
    CHECK(cz_host_is_loopback("::ffff:127.0.0.1"));
    CHECK(!cz_host_is_loopback("[::1]")); /* brackets are the caller's to strip */
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
