/*
 * daemon/netaddr.c — allowlists, gRPC peer strings, loopback hosts
 * (see daemon/netaddr.h).
 */
#include "daemon/netaddr.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static const uint8_t v4_mapped_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

/* ::ffff:a.b.c.d -> a.b.c.d in addr[0..3] (a dual-stack socket's IPv4 peer) */
static void unmap_v4(uint8_t addr[16], bool *v6)
{
    if (*v6 && !memcmp(addr, v4_mapped_prefix, sizeof v4_mapped_prefix)) {
        memmove(addr, addr + 12, 4);
        memset(addr + 4, 0, 12);
        *v6 = false;
    }
}

/* A literal address, v4 or v6 (no brackets) -> addr, *v6. */
static bool parse_literal(const char *s, uint8_t addr[16], bool *v6)
{
    memset(addr, 0, 16);
    if (inet_pton(AF_INET, s, addr) == 1) {
        *v6 = false;
        return true;
    }
    if (inet_pton(AF_INET6, s, addr) == 1) {
        *v6 = true;
        return true;
    }
    return false;
}

static bool prefix_match(const uint8_t *a, const uint8_t *b, unsigned bits)
{
    unsigned whole = bits / 8, rest = bits % 8;
    if (memcmp(a, b, whole))
        return false;
    if (!rest)
        return true;
    uint8_t mask = (uint8_t)(0xff << (8 - rest));
    return (a[whole] & mask) == (b[whole] & mask);
}

int cz_cidr_parse(cz_ctx_t *ctx, const char *text, cz_cidr_t *out)
{
    char buf[64];
    memset(out, 0, sizeof *out);
    if (strlen(text) >= sizeof buf)
        return cz_fail(ctx, CZ_EINVAL, "'%.40s...' is too long for an address", text);
    snprintf(buf, sizeof buf, "%s", text);
    char *slash = strchr(buf, '/');
    if (slash)
        *slash = '\0';
    if (!parse_literal(buf, out->addr, &out->v6))
        return cz_fail(ctx, CZ_EINVAL,
                       "'%s' is not an IPv4 or IPv6 address or CIDR "
                       "(e.g. 10.1.2.0/24, 192.0.2.7, fd00::/8)",
                       text);
    unmap_v4(out->addr, &out->v6);
    unsigned max = out->v6 ? 128 : 32;
    unsigned long bits = max;
    if (slash) {
        const char *b = slash + 1;
        char *end = NULL;
        if (*b >= '0' && *b <= '9')
            bits = strtoul(b, &end, 10);
        if (!end || *end || bits > max)
            return cz_fail(ctx, CZ_EINVAL, "'%s': the prefix length after '/' must be 0..%u", text,
                           max);
    }
    out->bits = (uint8_t)bits;
    for (unsigned i = (unsigned)bits; i < max; i++) /* past the prefix: all zero */
        if (out->addr[i / 8] & (0x80 >> (i % 8)))
            return cz_fail(ctx, CZ_EINVAL,
                           "'%s' has address bits set past the /%lu prefix "
                           "(did you mean the network address?)",
                           text, bits);
    return CZ_OK;
}

int cz_allow_parse(cz_ctx_t *ctx, char *const *texts, size_t n, cz_allow_t *out)
{
    memset(out, 0, sizeof *out);
    if (n > CZ_ALLOW_MAX)
        return cz_fail(ctx, CZ_EINVAL, "%zu entries: at most %d", n, CZ_ALLOW_MAX);
    for (size_t i = 0; i < n; i++) {
        int rc = cz_cidr_parse(ctx, texts[i], &out->e[i]);
        if (rc != CZ_OK)
            return rc;
    }
    out->n = n;
    return CZ_OK;
}

bool cz_peer_addr(const char *peer, uint8_t addr[16], bool *v6)
{
    char buf[80];
    const char *p;
    size_t len;
    if (!strncmp(peer, "ipv4:", 5)) {
        p = peer + 5;
        const char *colon = strrchr(p, ':');
        if (!colon)
            return false;
        len = (size_t)(colon - p);
    } else if (!strncmp(peer, "ipv6:", 5)) {
        p = peer + 5;
        const char *close;
        if (*p == '[') {
            p++;
            close = strstr(p, "]:");
        } else if (!strncmp(p, "%5B", 3) || !strncmp(p, "%5b", 3)) {
            p += 3;
            close = strstr(p, "%5D:");
            if (!close)
                close = strstr(p, "%5d:");
        } else {
            return false;
        }
        if (!close)
            return false;
        len = (size_t)(close - p);
        /* a zone ("fe80::1%25eth0") names the interface, not the address */
        const char *zone = memchr(p, '%', len);
        if (zone)
            len = (size_t)(zone - p);
    } else {
        return false;
    }
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, p, len);
    buf[len] = '\0';
    if (!parse_literal(buf, addr, v6) || (*v6 != !strncmp(peer, "ipv6:", 5)))
        return false;
    unmap_v4(addr, v6);
    return true;
}

static bool addr_is_loopback(const uint8_t addr[16], bool v6)
{
    static const uint8_t one[16] = { [15] = 1 };
    return v6 ? !memcmp(addr, one, 16) : addr[0] == 127;
}

bool cz_peer_allowed(const cz_allow_t *allow, const char *peer)
{
    if (!strncmp(peer, "unix:", 5))
        return true;
    uint8_t addr[16];
    bool v6;
    if (!cz_peer_addr(peer, addr, &v6))
        return false;
    if (addr_is_loopback(addr, v6))
        return true;
    for (size_t i = 0; allow && i < allow->n; i++)
        if (allow->e[i].v6 == v6 && prefix_match(addr, allow->e[i].addr, allow->e[i].bits))
            return true;
    return false;
}

bool cz_host_is_loopback(const char *host)
{
    if (!*host)
        return false;
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res = NULL;
    if (getaddrinfo(host, NULL, &hints, &res) || !res)
        return false;
    bool all = true;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        uint8_t addr[16] = { 0 };
        bool v6 = ai->ai_family == AF_INET6;
        if (ai->ai_family == AF_INET)
            memcpy(addr, &((struct sockaddr_in *)ai->ai_addr)->sin_addr, 4);
        else if (v6)
            memcpy(addr, &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr, 16);
        else {
            all = false;
            break;
        }
        unmap_v4(addr, &v6);
        all &= addr_is_loopback(addr, v6);
    }
    freeaddrinfo(res);
    return all;
}
