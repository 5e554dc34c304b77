/*
 * backend/cuda/msm_rounds.cuh — the bookkeeping of G1's batch-affine rounds
 * (msm_affine.cuh): which inputs each output of a round takes. Host and
 * device code alike (no field arithmetic), so that tests/gpu/
 * test_msm_rounds.cu replays whole accumulations on the CPU, without a GPU,
 * through the same functions the kernels call.
 *
 * Round r reads list r, where bucket b holds cz__aff_points(cnt[b], r)
 * points from pos[b] on, and writes list r + 1, where it holds next[b] =
 * cz__aff_points(cnt[b], r + 1) from pos_next[b] (an exclusive scan of
 * next). Output j of bucket b is the sum of its inputs 2j and 2j + 1, or
 * input 2j alone when that is the last of an odd count.
 */
#ifndef CUZK_BACKEND_CUDA_MSM_ROUNDS_CUH
#define CUZK_BACKEND_CUDA_MSM_ROUNDS_CUH

#include <stddef.h>
#include <stdint.h>

#include "backend/cuda/ec.cuh"

#define CZ__HD static __host__ __device__ __forceinline__
#define CZ__AFF_PAIR 0x80000000u /* a source: the sum of two inputs, not one */

/* One round's arguments (r: the round; list r is read, list r + 1 written). */
typedef struct {
    const uint32_t *vals;       /* round 0: the sorted entries' values */
    const cz_g1_aff *bases;     /* round 0 */
    const cz_g1_aff *in;        /* rounds >= 1: list r */
    cz_g1_aff *out;             /* list r + 1 */
    uint32_t *src;              /* an output's first input | CZ__AFF_PAIR */
    const uint32_t *cnt;        /* the window's buckets' entries */
    const uint32_t *pos;        /* list r positions (round 0: the runs' starts) */
    const uint32_t *pos_next;   /* list r + 1 positions */
    const uint32_t *next;       /* list r + 1 counts */
    uint32_t half;              /* buckets in the window */
    unsigned r;
} cz__aff_round;

/* The points of a bucket of |cnt| entries after |r| rounds: ceil(cnt / 2^r). */
CZ__HD uint32_t cz__aff_points(uint32_t cnt, unsigned r)
{
    return (uint32_t)(((uint64_t)cnt + (1ull << r) - 1) >> r);
}

/* Outputs of a round over at most |u| points in |half| buckets: sum ceil(L/2) <= (u + min(u, half)) / 2. */
CZ__HD size_t cz__aff_next_bound(size_t u, size_t half)
{
    return (u + (u < half ? u : half) + 1) / 2;
}

/* Rounds that leave one point in a bucket of |most| entries: ceil(log2(most)). */
CZ__HD unsigned cz__aff_rounds(uint32_t most)
{
    unsigned r = 0;
    while (r < 32 && ((uint64_t)1 << r) < most)
        r++;
    return r;
}

/* The number of outputs of the round (list r + 1's length). */
CZ__HD uint32_t cz__aff_outputs(const cz__aff_round *a)
{
    return a->pos_next[a->half - 1] + a->next[a->half - 1];
}

/*
 * The bucket of output q: the last b in [lo, hi) with pos_next[b] <= q
 * (given pos_next[lo] <= q); it holds q, as next[b] = pos_next[b + 1] -
 * pos_next[b] > 0 there.
 */
CZ__HD uint32_t cz__aff_find(const uint32_t *pos_next, uint32_t lo, uint32_t hi, uint32_t q)
{
    while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (pos_next[mid] <= q)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* A thread's walk over consecutive outputs: the bucket of the current one and its index there. */
typedef struct {
    uint32_t b, j;
} cz__aff_cursor;

CZ__HD cz__aff_cursor cz__aff_start(const cz__aff_round *a, uint32_t q)
{
    cz__aff_cursor c;
    c.b = cz__aff_find(a->pos_next, 0, a->half, q);
    c.j = q - a->pos_next[c.b];
    return c;
}

/*
 * The source of output q (the next after the cursor's, or its first) and
 * the cursor moved past it: the position of its first input in list r,
 * | CZ__AFF_PAIR when a second input follows it. A bucket boundary moves to
 * the next bucket with outputs, searched for where empty ones lie between.
 */
CZ__HD uint32_t cz__aff_source(const cz__aff_round *a, cz__aff_cursor *c, uint32_t q)
{
    if (c->j >= a->next[c->b]) {
        c->b = a->next[c->b + 1] ? c->b + 1 : cz__aff_find(a->pos_next, c->b + 1, a->half, q);
        c->j = 0;
    }
    const uint32_t s = a->pos[c->b] + 2 * c->j;
    const bool pair = 2 * c->j + 1 < cz__aff_points(a->cnt[c->b], a->r);
    c->j++;
    return s | (pair ? CZ__AFF_PAIR : 0u);
}

#endif /* CUZK_BACKEND_CUDA_MSM_ROUNDS_CUH */
