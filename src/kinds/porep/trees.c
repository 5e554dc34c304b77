/*
 * kinds/porep/trees.c — dense and sparse SDR trees (see trees.h). tree_d nodes
 * are SHA254(left || right) (FACTS 5, hash/sha254.h); tree_c and
 * tree_r_last nodes are neptune Poseidon of the arity children
 * (filecoin-hashers poseidon.rs, MerkleTree domain tag; hash/poseidon.h).
 */
#include "kinds/porep/trees.h"

#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "hash/poseidon.h"
#include "hash/sha254.h"

static unsigned log2u(uint64_t x)
{
    unsigned r = 0;
    while (x > 1) {
        x >>= 1;
        r++;
    }
    return r;
}

int cz_sdr_tree_shape(cz_sdr_tree_t *t, cz_por_hasher_t hasher, uint64_t leaves, unsigned base,
                      unsigned sub, unsigned top)
{
    memset(t, 0, sizeof *t);
    t->hasher = hasher;
    if (base < 2 || (base & (base - 1)) || (sub & (sub - 1)) || (top & (top - 1)) ||
        (top && !sub) || leaves < 2 || (leaves & (leaves - 1)))
        return CZ_EINVAL;
    if (hasher == CZ_POR_SHA254 && (base != 2 || sub || top))
        return CZ_EINVAL;
    uint64_t per_base = leaves / (sub ? sub : 1) / (top ? top : 1);
    if (per_base * (sub ? sub : 1) * (top ? top : 1) != leaves || per_base < base)
        return CZ_EINVAL;
    unsigned lb = log2u(base), bits = log2u(per_base);
    if (bits % lb)
        return CZ_EINVAL;
    unsigned n = 0;
    for (unsigned i = 0; i < bits / lb; i++)
        t->arity[n++] = base;
    if (sub)
        t->arity[n++] = sub;
    if (top)
        t->arity[n++] = top;
    if (n > CZ_TREE_MAX_LEVELS)
        return CZ_EINVAL;
    t->nlevels = n;
    t->width[0] = leaves;
    for (unsigned l = 0; l < n; l++)
        t->width[l + 1] = t->width[l] / t->arity[l];
    return t->width[n] == 1 ? CZ_OK : CZ_EINVAL;
}

void cz_sdr_hash_nodes(cz_por_hasher_t hasher, unsigned arity, uint8_t out[32],
                       const uint8_t *children)
{
    if (hasher == CZ_POR_SHA254) {
        cz_sha254_node(out, children, children + 32);
        return;
    }
    cz_fr r;
    cz_poseidon_hash(cz_poseidon_constants_get(arity), &r, (const cz_fr *)(const void *)children);
    memcpy(out, &r, 32);
}

/* ---- dense ---------------------------------------------------------------------- */

struct level_job {
    cz_por_hasher_t hasher;
    unsigned arity;
    const uint8_t *in;
    uint8_t *out;
};

static void level_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    struct level_job *j = arg;
    for (size_t i = begin; i < end; i++)
        cz_sdr_hash_nodes(j->hasher, j->arity, j->out + 32 * i, j->in + 32 * i * j->arity);
}

static void hash_level(cz_ctx_t *ctx, cz_por_hasher_t h, unsigned arity, const uint8_t *in,
                       uint8_t *out, uint64_t n_out)
{
    cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
    if (h == CZ_POR_POSEIDON) {
        cz_poseidon_hash_many(ctx, cz_poseidon_constants_get(arity), (cz_fr *)(void *)out,
                              (const cz_fr *)(const void *)in, (size_t)n_out);
        return;
    }
    struct level_job j = { h, arity, in, out };
    if (pool)
        cz_pool_for(pool, (size_t)n_out, 4096, level_chunk, &j);
    else
        level_chunk(&j, 0, (size_t)n_out, 0);
}

int cz_sdr_tree_build(cz_ctx_t *ctx, cz_sdr_tree_t *t, const void *leaves)
{
    for (unsigned l = 0; l <= t->nlevels; l++) {
        t->level[l] = malloc((size_t)t->width[l] * 32);
        if (!t->level[l]) {
            cz_sdr_tree_free(t);
            return cz_fail(ctx, CZ_ENOMEM, "tree: level %u (%llu nodes)", l,
                           (unsigned long long)t->width[l]);
        }
    }
    memcpy(t->level[0], leaves, (size_t)t->width[0] * 32);
    for (unsigned l = 0; l < t->nlevels; l++)
        hash_level(ctx, t->hasher, t->arity[l], t->level[l], t->level[l + 1], t->width[l + 1]);
    return CZ_OK;
}

/* ---- sparse --------------------------------------------------------------------- */

/* Position of index |i| in level l, or -1. */
static long find(const cz_sdr_tree_t *t, unsigned l, uint64_t i)
{
    size_t lo = 0, hi = t->count[l];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->idx[l][mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->count[l] && t->idx[l][lo] == i ? (long)lo : -1;
}

static const uint8_t *node_ptr(const cz_sdr_tree_t *t, unsigned l, uint64_t i)
{
    if (!t->sparse)
        return t->level[l] + 32 * i;
    long p = find(t, l, i);
    return p < 0 ? t->zero_node[l] : t->level[l] + 32 * (size_t)p;
}

/* Hash groups [begin, end) of level l + 1: group g's children are the
 * present nodes first[g] .. first[g + 1] - 1 of level l, zero_node[l]
 * elsewhere. */
struct sparse_job {
    cz_sdr_tree_t *t;
    unsigned l;
    const size_t *first;
};

static void sparse_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    const struct sparse_job *j = arg;
    cz_sdr_tree_t *t = j->t;
    const unsigned l = j->l, ar = t->arity[l];
    _Alignas(16) uint8_t kids[32 * 16];
    for (size_t g = begin; g < end; g++) {
        for (unsigned a = 0; a < ar; a++)
            memcpy(kids + 32 * a, t->zero_node[l], 32);
        for (size_t k = j->first[g]; k < j->first[g + 1]; k++)
            memcpy(kids + 32 * (t->idx[l][k] % ar), t->level[l] + 32 * k, 32);
        cz_sdr_hash_nodes(t->hasher, ar, t->level[l + 1] + 32 * g, kids);
    }
}

int cz_sdr_tree_build_sparse(cz_ctx_t *ctx, cz_sdr_tree_t *t, const uint64_t *idx,
                             const void *values, size_t n, const void *zero_leaf)
{
    t->sparse = 1;
    memcpy(t->zero_node[0], zero_leaf, 32);
    for (unsigned l = 0; l < t->nlevels; l++) {
        _Alignas(16) uint8_t kids[32 * 16];
        for (unsigned a = 0; a < t->arity[l]; a++)
            memcpy(kids + 32 * a, t->zero_node[l], 32);
        cz_sdr_hash_nodes(t->hasher, t->arity[l], t->zero_node[l + 1], kids);
    }
    t->idx[0] = malloc((n ? n : 1) * sizeof(uint64_t));
    t->level[0] = malloc((n ? n : 1) * 32);
    if (!t->idx[0] || !t->level[0])
        goto oom;
    for (size_t k = 0; k < n; k++) {
        if (idx[k] >= t->width[0] || (k && idx[k] <= idx[k - 1])) {
            cz_sdr_tree_free(t);
            return cz_fail(ctx, CZ_EINVAL, "sparse tree: leaf indices not ascending/in range");
        }
    }
    memcpy(t->idx[0], idx, n * sizeof(uint64_t));
    memcpy(t->level[0], values, n * 32);
    t->count[0] = n;
    /* per level: group the present nodes by parent (first[g] = the first
     * node of group g), then hash the groups on the pool */
    size_t *first = malloc((n + 1) * sizeof *first);
    if (!first)
        goto oom;
    for (unsigned l = 0; l < t->nlevels; l++) {
        size_t cnt = t->count[l], m = 0;
        unsigned ar = t->arity[l];
        t->idx[l + 1] = malloc((cnt ? cnt : 1) * sizeof(uint64_t));
        t->level[l + 1] = malloc((cnt ? cnt : 1) * 32);
        if (!t->idx[l + 1] || !t->level[l + 1]) {
            free(first);
            goto oom;
        }
        for (size_t k = 0; k < cnt; k++) {
            if (k == 0 || t->idx[l][k] / ar != t->idx[l][k - 1] / ar) {
                first[m] = k;
                t->idx[l + 1][m++] = t->idx[l][k] / ar;
            }
        }
        first[m] = cnt;
        struct sparse_job j = { t, l, first };
        cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
        if (pool)
            cz_pool_for(pool, m, 64, sparse_chunk, &j);
        else
            sparse_chunk(&j, 0, m, 0);
        t->count[l + 1] = m;
    }
    free(first);
    if (t->count[t->nlevels] == 0)
        memcpy(t->level[t->nlevels], t->zero_node[t->nlevels], 32);
    return CZ_OK;
oom:
    cz_sdr_tree_free(t);
    return cz_fail(ctx, CZ_ENOMEM, "sparse tree: %zu leaves", n);
}

void cz_sdr_tree_free(cz_sdr_tree_t *t)
{
    for (unsigned l = 0; l <= CZ_TREE_MAX_LEVELS; l++) {
        free(t->level[l]);
        free(t->idx[l]);
        t->level[l] = NULL;
        t->idx[l] = NULL;
    }
}

/* ---- reading -------------------------------------------------------------------- */

static void to_repr(const cz_sdr_tree_t *t, uint8_t out[32], const uint8_t *node)
{
    if (t->hasher == CZ_POR_SHA254) {
        memcpy(out, node, 32);
    } else {
        cz_fr f;
        memcpy(&f, node, 32);
        cz_fr_to_repr(out, &f);
    }
}

void cz_sdr_tree_node(const cz_sdr_tree_t *t, unsigned level, uint64_t i, uint8_t out[32])
{
    to_repr(t, out, node_ptr(t, level, i));
}

void cz_sdr_tree_root(const cz_sdr_tree_t *t, uint8_t out[32])
{
    if (t->sparse && t->count[t->nlevels] == 0)
        to_repr(t, out, t->zero_node[t->nlevels]);
    else
        to_repr(t, out, t->level[t->nlevels]);
}

size_t cz_sdr_tree_path_len(const cz_sdr_tree_t *t)
{
    size_t n = 0;
    for (unsigned l = 0; l < t->nlevels; l++)
        n += t->arity[l] - 1;
    return n;
}

void cz_sdr_tree_path(const cz_sdr_tree_t *t, uint64_t i, uint8_t (*siblings)[32])
{
    size_t o = 0;
    for (unsigned l = 0; l < t->nlevels; l++) {
        uint64_t first = i / t->arity[l] * t->arity[l];
        for (uint64_t s = first; s < first + t->arity[l]; s++)
            if (s != i)
                to_repr(t, siblings[o++], node_ptr(t, l, s));
        i /= t->arity[l];
    }
}

int cz_sdr_path_root(uint8_t out[32], cz_por_hasher_t hasher, const unsigned *arity,
                     unsigned nlevels, uint64_t leaf_index, const uint8_t leaf[32],
                     const uint8_t (*siblings)[32])
{
    _Alignas(16) uint8_t cur[32];
    _Alignas(16) uint8_t kids[32 * 16];
    /* work in the node form: repr for SHA254, cz_fr for Poseidon */
    if (hasher == CZ_POR_SHA254) {
        memcpy(cur, leaf, 32);
    } else {
        cz_fr f;
        if (cz_fr_from_repr(&f, leaf))
            return CZ_ERANGE;
        memcpy(cur, &f, 32);
    }
    size_t o = 0;
    for (unsigned l = 0; l < nlevels; l++) {
        unsigned pos = (unsigned)(leaf_index % arity[l]);
        for (unsigned a = 0; a < arity[l]; a++) {
            if (a == pos) {
                memcpy(kids + 32 * a, cur, 32);
                continue;
            }
            if (hasher == CZ_POR_SHA254) {
                memcpy(kids + 32 * a, siblings[o], 32);
            } else {
                cz_fr f;
                if (cz_fr_from_repr(&f, siblings[o]))
                    return CZ_ERANGE;
                memcpy(kids + 32 * a, &f, 32);
            }
            o++;
        }
        cz_sdr_hash_nodes(hasher, arity[l], cur, kids);
        leaf_index /= arity[l];
    }
    if (hasher == CZ_POR_SHA254) {
        memcpy(out, cur, 32);
    } else {
        cz_fr f;
        memcpy(&f, cur, 32);
        cz_fr_to_repr(out, &f);
    }
    return CZ_OK;
}
