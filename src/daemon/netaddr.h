/*
 * daemon/netaddr.h — who may talk to a listener: client allowlists of
 * IPv4/IPv6 CIDRs (grpc.allow_from), the peer strings gRPC core reports,
 * and "is this host loopback" for the listen addresses.
 *
 * An allowlist entry is an address ("192.0.2.7", "fd00::1": a /32 or /128)
 * or a prefix ("10.1.2.0/24", "fd00::/8"). Host bits set below the prefix
 * are refused ("10.1.2.3/24" is a typo more often than a wish). IPv4 peers
 * that arrive as IPv4-mapped IPv6 (::ffff:a.b.c.d, a dual-stack socket)
 * are matched as IPv4.
 *
 * Peer strings are gRPC core's (grpc_call_get_peer): "ipv4:127.0.0.1:5000",
 * "ipv6:[::1]:5000", the same with the brackets percent-encoded
 * ("ipv6:%5B::1%5D:5000", gRPC >= 1.4x), or "unix:..." (a unix socket:
 * its file permissions decide, cz_peer_allowed says yes).
 *
 * Memory: cz_allow_t is a fixed-size value (no allocation); the caller owns it.
 * Thread-safety: parsing writes only its output; matching reads only, so
 * one parsed list may be matched from many threads. cz_host_is_loopback
 * calls getaddrinfo (thread-safe, may block on DNS).
 */
#ifndef CUZK_DAEMON_NETADDR_H
#define CUZK_DAEMON_NETADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"

#define CZ_ALLOW_MAX 64 /* entries in one allowlist */

typedef struct {
    uint8_t addr[16]; /* IPv4 in the first 4 bytes */
    uint8_t bits;     /* prefix length */
    bool v6;
} cz_cidr_t;

typedef struct {
    cz_cidr_t e[CZ_ALLOW_MAX];
    size_t n;
} cz_allow_t;

/* One entry -> *out. CZ_EINVAL with a message naming |text| and what is wrong. */
int cz_cidr_parse(cz_ctx_t *ctx, const char *text, cz_cidr_t *out);
/* |n| entries (config order) -> *out. CZ_EINVAL naming the first bad entry, or too many. */
int cz_allow_parse(cz_ctx_t *ctx, char *const *texts, size_t n, cz_allow_t *out);

/*
 * A gRPC peer string -> its address (IPv4-mapped IPv6 becomes IPv4).
 * false when it is not an ipv4:/ipv6: peer or does not parse.
 */
bool cz_peer_addr(const char *peer, uint8_t addr[16], bool *v6);

/*
 * Whether |peer| may call: a unix socket peer, a loopback address
 * (127.0.0.0/8, ::1), or an address inside one of |allow|'s entries.
 * An unparsable ipv4/ipv6 peer, or anything else, is refused.
 */
bool cz_peer_allowed(const cz_allow_t *allow, const char *peer);

/*
 * Whether |host| (a name or a literal, no brackets, no port) names this
 * host only: it must resolve, and every address it resolves to must be
 * loopback. "" (every interface) is not loopback.
 */
bool cz_host_is_loopback(const char *host);

#endif /* CUZK_DAEMON_NETADDR_H */
