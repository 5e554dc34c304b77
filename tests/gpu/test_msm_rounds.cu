/*
 * tests/gpu/test_msm_rounds.cu — the bookkeeping of G1's batch-affine
 * rounds (backend/cuda/msm_rounds.cuh), replayed on the CPU: no GPU needed,
 * so it runs wherever the CUDA code is compiled (CI included).
 *
 * A window's buckets get entries in various shapes (spread out, mostly
 * empty, one bucket holding everything, counts at and past powers of two);
 * each entry is a number mod 2^61 - 1 standing for a point, a sum of two
 * inputs standing for their addition. Each round runs as the kernels run
 * it: threads of 16 consecutive outputs, each thread's cursor from
 * cz__aff_start, each output's inputs from cz__aff_source. Checked: every
 * input of a round is read exactly once, a round's outputs stay within
 * cz__aff_next_bound, the rounds from cz__aff_rounds leave one point a
 * bucket at its position, and that point is the sum of the bucket's
 * entries.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/msm_rounds.cuh"
#include "cz_test.h"

#define MOD (((uint64_t)1 << 61) - 1)
#define PER 16u /* outputs a thread, as CZ__AFF_PER */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static uint64_t add_mod(uint64_t a, uint64_t b)
{
    const uint64_t s = a + b;
    return s >= MOD ? s - MOD : s;
}

/* Exclusive prefix sum, as the CUB scan of the kernels. */
static void scan(uint32_t *out, const uint32_t *in, uint32_t n)
{
    uint32_t run = 0;
    for (uint32_t i = 0; i < n; i++) {
        out[i] = run;
        run += in[i];
    }
}

/*
 * One window of |half| buckets whose entries start at |base| in the sorted
 * entries: the rounds replayed; the number of failures.
 */
static int replay(const uint32_t *cnt, uint32_t half, uint32_t base, const char *shape)
{
    uint64_t seed = 0x9e3779b97f4a7c15ull ^ half ^ ((uint64_t)base << 20);
    uint32_t most = 0, total = 0;
    for (uint32_t b = 0; b < half; b++) {
        most = cnt[b] > most ? cnt[b] : most;
        total += cnt[b];
    }
    uint32_t *start = (uint32_t *)calloc(half, 4), *pos[2], *next = (uint32_t *)calloc(half, 4);
    pos[0] = (uint32_t *)calloc(half, 4);
    pos[1] = (uint32_t *)calloc(half, 4);
    uint64_t *entries = (uint64_t *)calloc((size_t)base + total + 1, 8);
    uint64_t *want = (uint64_t *)calloc(half, 8);
    uint64_t *list[2] = { (uint64_t *)calloc((size_t)total + 1, 8),
                          (uint64_t *)calloc((size_t)total + 1, 8) };
    uint8_t *used = (uint8_t *)calloc((size_t)base + total + 1, 1);
    uint32_t at = base;
    for (uint32_t b = 0; b < half; b++) {
        start[b] = cnt[b] ? at : 0; /* an empty bucket's start is never read (memset: 0) */
        for (uint32_t k = 0; k < cnt[b]; k++) {
            entries[at] = rng_next(&seed) % MOD;
            want[b] = add_mod(want[b], entries[at]);
            at++;
        }
    }
    int fails = 0;
    cz__aff_round a;
    memset(&a, 0, sizeof a);
    a.cnt = cnt;
    a.pos = start;
    a.half = half;
    a.next = next;
    const unsigned rounds = cz__aff_rounds(most);
    const uint64_t *in = entries;
    uint32_t in_len = base + total; /* list r's extent (round 0: the sorted entries) */
    size_t bound = total;
    for (unsigned r = 0; r < rounds && !fails; r++) {
        a.r = r;
        a.pos_next = pos[r & 1];
        for (uint32_t b = 0; b < half; b++)
            next[b] = cz__aff_points(cnt[b], r + 1);
        scan(pos[r & 1], next, half);
        const uint32_t outputs = cz__aff_outputs(&a);
        bound = cz__aff_next_bound(bound, half);
        if (outputs > bound) {
            CZ__FAIL("%s: round %u has %u outputs, above its bound %zu", shape, r, outputs, bound);
            fails++;
            break;
        }
        uint64_t *out = list[r & 1];
        memset(used, 0, (size_t)in_len);
        for (uint32_t q0 = 0; q0 < outputs; q0 += PER) { /* one thread's outputs */
            cz__aff_cursor c = cz__aff_start(&a, q0);
            const uint32_t qe = q0 + PER < outputs ? q0 + PER : outputs;
            for (uint32_t q = q0; q < qe; q++) {
                const uint32_t v = cz__aff_source(&a, &c, q), s = v & ~CZ__AFF_PAIR;
                const uint32_t width = (v & CZ__AFF_PAIR) ? 2 : 1;
                if (s + width > in_len || used[s] || (width == 2 && used[s + 1])) {
                    CZ__FAIL("%s: round %u output %u reads input %u (%u of %u, %s)", shape, r,
                             q, s, width, in_len, used[s] ? "already read" : "past the end");
                    fails++;
                    break;
                }
                used[s] = 1;
                out[q] = in[s];
                if (width == 2) {
                    used[s + 1] = 1;
                    out[q] = add_mod(in[s], in[s + 1]);
                }
            }
        }
        for (uint32_t i = (r == 0 ? base : 0); i < in_len && !fails; i++)
            if (!used[i]) {
                CZ__FAIL("%s: round %u left input %u unread", shape, r, i);
                fails++;
            }
        in = out;
        in_len = outputs;
        a.pos = pos[r & 1];
    }
    for (uint32_t b = 0; b < half && !fails; b++) {
        if (!cnt[b])
            continue;
        if (cz__aff_points(cnt[b], rounds) != 1 || in[a.pos[b]] != want[b]) {
            CZ__FAIL("%s: bucket %u of %u entries: %u points after %u rounds, %s sum", shape, b,
                     cnt[b], cz__aff_points(cnt[b], rounds), rounds,
                     in[a.pos[b]] == want[b] ? "the right" : "a wrong");
            fails++;
        }
    }
    free(start);
    free(pos[0]);
    free(pos[1]);
    free(next);
    free(entries);
    free(want);
    free(list[0]);
    free(list[1]);
    free(used);
    return fails;
}

CZ_TEST(rounds_and_bounds)
{
    CHECK_EQ_INT(cz__aff_rounds(0), 0);
    CHECK_EQ_INT(cz__aff_rounds(1), 0);
    CHECK_EQ_INT(cz__aff_rounds(2), 1);
    CHECK_EQ_INT(cz__aff_rounds(3), 2);
    CHECK_EQ_INT(cz__aff_rounds(32), 5);
    CHECK_EQ_INT(cz__aff_rounds(33), 6);
    CHECK_EQ_INT(cz__aff_rounds(1u << 24), 24);
    CHECK_EQ_INT(cz__aff_points(0, 3), 0);
    CHECK_EQ_INT(cz__aff_points(9, 3), 2);
    CHECK_EQ_INT(cz__aff_points(0xffffffffu, 31), 2);
    /* a round over 2^24 points in 2^19 buckets outputs at most (2^24 + 2^19) / 2 */
    CHECK_EQ_U64(cz__aff_next_bound((size_t)1 << 24, (size_t)1 << 19), (((size_t)1 << 24) + ((size_t)1 << 19)) / 2);
    CHECK_EQ_U64(cz__aff_next_bound(3, 1024), 3); /* 3 buckets of one point each */
}

CZ_TEST(spread_out_buckets)
{
    const uint32_t half = 4096;
    uint32_t *cnt = (uint32_t *)calloc(half, 4);
    uint64_t s = 7;
    for (uint32_t b = 0; b < half; b++)
        cnt[b] = (uint32_t)(rng_next(&s) % 65); /* mean 32, some empty */
    CHECK_EQ_INT(replay(cnt, half, 0, "spread out"), 0);
    CHECK_EQ_INT(replay(cnt, half, 123457, "spread out, after another window"), 0);
    free(cnt);
}

CZ_TEST(mostly_empty_buckets)
{
    const uint32_t half = 1u << 14;
    uint32_t *cnt = (uint32_t *)calloc(half, 4);
    uint64_t s = 11;
    for (uint32_t b = 0; b < half; b++)
        cnt[b] = rng_next(&s) % 10 == 0 ? (uint32_t)(1 + rng_next(&s) % 40) : 0;
    cnt[half - 1] = 3; /* the last bucket: the output count's end */
    CHECK_EQ_INT(replay(cnt, half, 5, "mostly empty"), 0);
    memset(cnt, 0, half * 4);
    cnt[0] = 2;
    cnt[half / 2] = 1;
    cnt[half - 2] = 5; /* gaps longer than any thread's walk */
    CHECK_EQ_INT(replay(cnt, half, 0, "three far apart"), 0);
    free(cnt);
}

CZ_TEST(one_bucket_holds_everything)
{
    const uint32_t half = 512;
    uint32_t *cnt = (uint32_t *)calloc(half, 4);
    cnt[77] = 100003; /* every scalar equal: the most rounds */
    CHECK_EQ_INT(replay(cnt, half, 9, "one bucket"), 0);
    cnt[77] = 1u << 16;
    CHECK_EQ_INT(replay(cnt, half, 0, "one bucket of 2^16"), 0);
    free(cnt);
}

CZ_TEST(counts_at_powers_of_two)
{
    const uint32_t half = 64;
    uint32_t cnt[64];
    for (uint32_t b = 0; b < half; b++)
        cnt[b] = (b & 1) ? (1u << (b % 11)) + 1 : 1u << (b % 11);
    CHECK_EQ_INT(replay(cnt, half, 0, "powers of two"), 0);
    for (uint32_t b = 0; b < half; b++)
        cnt[b] = 1; /* no round at all */
    CHECK_EQ_INT(replay(cnt, half, 3, "one each"), 0);
    const uint32_t two[2] = { 3, 2 }; /* the smallest window (c = 2) */
    CHECK_EQ_INT(replay(two, 2, 0, "two buckets"), 0);
}

CZ_TEST_MAIN()
