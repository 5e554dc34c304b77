/*
 * hash/sha254_tree.c — comm_d: roots of SHA254 binary trees (see sha254.h).
 *
 * DESIGN. The leaves are cut into equal subtrees of SUBTREE_LEAVES leaves
 * (fewer if the tree is smaller). Each pool task reduces whole subtrees, one
 * at a time, inside its own 64 KiB scratch (cache-resident): the first level
 * is written from the data into the scratch, then each further level is
 * reduced in place (parent i overwrites node i after its children 2i, 2i+1
 * were read — safe sequentially). The subtree roots, one per subtree, are
 * then reduced in place on the calling thread (at most 2^18 of them for a
 * 32 GiB sector: a few tens of milliseconds).
 */
#include "hash/sha254.h"

#include <stdlib.h>
#include <string.h>

#include "core/pool.h"

#define SUBTREE_LEAVES ((size_t)1 << 12) /* 128 KiB of data, 64 KiB scratch */

static bool is_pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

/* Root of the tree over |nleaves| (a power of two >= 2) 32-byte leaves. */
static void subtree_root(uint8_t out[32], const uint8_t *leaves, size_t nleaves, uint8_t *scratch)
{
    size_t n = nleaves / 2;
    for (size_t i = 0; i < n; i++)
        cz_sha254_node(scratch + 32 * i, leaves + 64 * i, leaves + 64 * i + 32);
    for (; n > 1; n /= 2)
        for (size_t i = 0; i < n / 2; i++)
            cz_sha254_node(scratch + 32 * i, scratch + 64 * i, scratch + 64 * i + 32);
    memcpy(out, scratch, 32);
}

typedef struct {
    const uint8_t *data;
    uint8_t *roots;
    uint8_t *scratch; /* one SUBTREE_LEAVES/2-node area per pool slot */
    size_t sub_leaves;
} tree_job;

static void tree_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    const tree_job *j = arg;
    uint8_t *scratch = j->scratch + (size_t)slot * (j->sub_leaves / 2) * 32;
    for (size_t s = begin; s < end; s++)
        subtree_root(j->roots + 32 * s, j->data + s * j->sub_leaves * 32, j->sub_leaves, scratch);
}

int cz_sha254_comm_d(cz_ctx_t *ctx, uint8_t out[32], const uint8_t *data, size_t len)
{
    if (!out || !data || len < 64 || !is_pow2(len))
        return cz_fail(ctx, CZ_EINVAL, "comm_d: data length %zu is not a power of two >= 64", len);
    cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
    const size_t nleaves = len / 32;
    const size_t sub = nleaves < SUBTREE_LEAVES ? nleaves : SUBTREE_LEAVES;
    const size_t nsub = nleaves / sub;
    const unsigned width = cz_pool_width(pool);

    uint8_t *roots = malloc(32 * nsub);
    uint8_t *scratch = malloc((size_t)width * (sub / 2) * 32);
    if (!roots || !scratch) {
        free(roots);
        free(scratch);
        return cz_fail(ctx, CZ_ENOMEM, "comm_d: no memory for %zu subtree roots", nsub);
    }
    tree_job job = { data, roots, scratch, sub };
    cz_pool_for(pool, nsub, cz_pool_grain(pool, nsub, 4), tree_chunk, &job);

    for (size_t n = nsub; n > 1; n /= 2) /* the top levels */
        for (size_t i = 0; i < n / 2; i++)
            cz_sha254_node(roots + 32 * i, roots + 64 * i, roots + 64 * i + 32);
    memcpy(out, roots, 32);
    free(roots);
    free(scratch);
    return CZ_OK;
}

int cz_sha254_comm_d_zero(uint8_t out[32], uint64_t sector_size)
{
    if (sector_size < 64 || !is_pow2(sector_size))
        return CZ_EINVAL;
    uint8_t z[32] = { 0 }; /* z_0: a zero leaf */
    for (uint64_t leaves = sector_size / 32; leaves > 1; leaves /= 2)
        cz_sha254_node(z, z, z); /* z_{k+1} = node(z_k, z_k) */
    memcpy(out, z, 32);
    return CZ_OK;
}
