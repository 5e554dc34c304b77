/*
 * daemon/admit.c — connection and body accounting (see daemon/admit.h).
 *
 * The per-address counts are a small unsorted array: it holds one entry
 * per address with a connection open, at most max_connections plus the
 * listener's overflow, and is scanned under the mutex. A few hundred
 * entries scan in well under a microsecond, far below an accept's cost.
 */
#include "daemon/admit.h"

#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutex.h"
#include "cuzk/error.h"

typedef struct {
    uint8_t addr[16]; /* IPv4 as ::ffff:a.b.c.d, so both families share the key */
    long n;
} per_addr_t;

struct cz_admit {
    long max_connections, per_ip;
    size_t body_budget;
    cz_mutex_t mu;
    long open;          /* (mu) connections open */
    size_t body_bytes;  /* (mu) body bytes reserved */
    per_addr_t *addrs;  /* (mu) addresses with connections open */
    size_t naddrs, cap; /* (mu) */
};

int cz_admit_new(cz_admit_t **out, long max_connections, long per_ip, size_t body_budget)
{
    cz_admit_t *a = calloc(1, sizeof *a);
    if (!a)
        return CZ_ENOMEM;
    a->max_connections = max_connections;
    a->per_ip = per_ip;
    a->body_budget = body_budget;
    cz_mutex_init(&a->mu);
    *out = a;
    return CZ_OK;
}

void cz_admit_free(cz_admit_t *a)
{
    if (!a)
        return;
    cz_mutex_destroy(&a->mu);
    free(a->addrs);
    free(a);
}

/* |peer| -> the 16-byte key; false when it has no IP address. */
static bool addr_key(const struct sockaddr *peer, uint8_t key[16])
{
    if (!peer)
        return false;
    if (peer->sa_family == AF_INET6) {
        memcpy(key, &((const struct sockaddr_in6 *)peer)->sin6_addr, 16);
        return true;
    }
    if (peer->sa_family == AF_INET) {
        static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };
        memcpy(key, mapped, 12);
        memcpy(key + 12, &((const struct sockaddr_in *)peer)->sin_addr, 4);
        return true;
    }
    return false;
}

/* The entry of |key| (created with n = 0 when |create|), or NULL. Called with mu held. */
static per_addr_t *find_addr(cz_admit_t *a, const uint8_t key[16], bool create)
{
    CZ_ASSERT(cz_mutex_held(&a->mu));
    for (size_t i = 0; i < a->naddrs; i++)
        if (!memcmp(a->addrs[i].addr, key, 16))
            return &a->addrs[i];
    if (!create)
        return NULL;
    if (a->naddrs == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 16;
        per_addr_t *g = realloc(a->addrs, cap * sizeof *g);
        if (!g)
            return NULL; /* the address goes uncounted: the total still bounds it */
        a->addrs = g;
        a->cap = cap;
    }
    per_addr_t *e = &a->addrs[a->naddrs++];
    memcpy(e->addr, key, 16);
    e->n = 0;
    return e;
}

cz_admit_verdict_t cz_admit_open(cz_admit_t *a, const struct sockaddr *peer)
{
    uint8_t key[16];
    bool keyed = addr_key(peer, key);
    cz_mutex_lock(&a->mu);
    long total = ++a->open, mine = 0;
    per_addr_t *e = keyed ? find_addr(a, key, true) : NULL;
    if (e)
        mine = ++e->n;
    cz_mutex_unlock(&a->mu);
    if (total > a->max_connections)
        return CZ_ADMIT_FULL;
    if (a->per_ip > 0 && mine > a->per_ip)
        return CZ_ADMIT_PER_IP;
    return CZ_ADMIT_OK;
}

void cz_admit_close(cz_admit_t *a, const struct sockaddr *peer)
{
    uint8_t key[16];
    bool keyed = addr_key(peer, key);
    cz_mutex_lock(&a->mu);
    a->open--;
    per_addr_t *e = keyed ? find_addr(a, key, false) : NULL;
    if (e && --e->n <= 0)
        *e = a->addrs[--a->naddrs]; /* the last entry takes its place */
    cz_mutex_unlock(&a->mu);
}

bool cz_admit_body(cz_admit_t *a, size_t n)
{
    cz_mutex_lock(&a->mu);
    bool ok = n <= a->body_budget - a->body_bytes;
    if (ok)
        a->body_bytes += n;
    cz_mutex_unlock(&a->mu);
    return ok;
}

void cz_admit_body_release(cz_admit_t *a, size_t n)
{
    cz_mutex_lock(&a->mu);
    CZ_ASSERT(n <= a->body_bytes);
    a->body_bytes -= n;
    cz_mutex_unlock(&a->mu);
}

void cz_admit_counts(cz_admit_t *a, long *open, size_t *body_bytes)
{
    cz_mutex_lock(&a->mu);
    *open = a->open;
    *body_bytes = a->body_bytes;
    cz_mutex_unlock(&a->mu);
}
