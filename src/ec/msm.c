/*
 * ec/msm.c — multi-threaded Pippenger, batch addition and the Filecoin
 * witness split, written once over ec/group.h for G1 and G2.
 *
 * Parallel Pippenger. blst's tile function computes, for one window of c
 * bits at offset bit0 and one range of points, the window's sum
 * sum_i digit_i(bit0) * P_i with signed (Booth) digits and XYZZ buckets.
 * An MSM is a grid of such tiles — windows x point ranges — run on the pool
 * with one bucket array per thread, then combined on the caller:
 *     result = sum_w 2^(w c) * sum_r tile[w][r]
 * The window c and the number of ranges come from a small cost model
 * (plan_msm) so that the grid keeps every thread busy while the bucket
 * reduction (2^(c-1) buckets per tile) stays cheap relative to the point
 * additions.
 *
 * Batch addition. The bitmap is cut into word-aligned chunks; each task
 * gathers pointers to its chunk's selected bases and sums them with blst's
 * batched affine addition (one inversion per 2048-point batch).
 */
#include "ec/msm.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "ec/group.h"

#define FR_BITS 255

/* ---- bitmaps --------------------------------------------------------------- */

size_t cz_bitmap_popcount(const uint64_t *bitmap, size_t n)
{
    size_t count = 0, words = n / 64;
    for (size_t i = 0; i < words; i++)
        count += (size_t)__builtin_popcountll(bitmap[i]);
    if (n % 64)
        count += (size_t)__builtin_popcountll(bitmap[words] & ((1ull << (n % 64)) - 1));
    return count;
}

/* ---- Pippenger plan ---------------------------------------------------------- */

typedef struct {
    size_t window;   /* c, bits per window */
    size_t nwin;     /* windows, the top one narrower (possibly only the carry) */
    size_t nranges;  /* point ranges per window */
} msm_plan;

/*
 * Relative costs: a bucket accumulation is one mixed XYZZ addition (1.0);
 * reducing a bucket takes two full XYZZ additions (~2.4). The makespan of
 * a grid is ceil(tiles / threads) tiles. Buckets per thread are capped so
 * that scratch stays within ~24 MiB per thread.
 */
static msm_plan plan_msm(const cz_group *g, size_t n, size_t nbits, unsigned threads)
{
    msm_plan best = { 1, nbits + 1, 1 };
    double best_cost = -1;
    size_t max_ranges = n / 2 ? n / 2 : 1;          /* blst tiles need >= 2 points */
    if (max_ranges > 4 * (size_t)threads)
        max_ranges = 4 * (size_t)threads;
    for (size_t c = 2; c <= 20; c++) {
        if ((g->bucket_size << (c - 1)) > (24u << 20))
            break;
        size_t nwin = nbits / c + 1;
        for (size_t p = 1; p <= max_ranges; p++) {
            size_t tiles = nwin * p;
            size_t rounds = (tiles + threads - 1) / threads;
            double per_tile = (double)(n + p - 1) / (double)p + 2.4 * (double)(1ull << (c - 1));
            double cost = (double)rounds * per_tile + (double)tiles; /* + combining */
            if (best_cost < 0 || cost < best_cost) {
                best_cost = cost;
                best = (msm_plan){ c, nwin, p };
            }
        }
    }
    return best;
}

/* ---- the tile grid ------------------------------------------------------------ */

/*
 * Inputs of one Pippenger: n contiguous points, with scalars contiguous
 * (|scalars|, 32 bytes each) or through |scalar_ptrs| (needed when
 * nbits < 249: blst strides contiguous scalars by (nbits+7)/8 bytes).
 */
typedef struct {
    const cz_group *g;
    const void *bases;
    const blst_scalar *scalars;
    const uint8_t *const *scalar_ptrs;
    size_t n, nbits;
    msm_plan plan;
    void **scratch;   /* per slot bucket arrays, zeroed (blst re-zeroes after use) */
    uint8_t *tiles;   /* nwin * nranges projective points */
} grid_job;

static void run_tile(void *p, size_t begin, size_t end, unsigned slot)
{
    const grid_job *job = p;
    const cz_group *g = job->g;
    for (size_t t = begin; t < end; t++) {
        size_t w = t / job->plan.nranges, r = t % job->plan.nranges;
        size_t lo = job->n * r / job->plan.nranges;
        size_t hi = job->n * (r + 1) / job->plan.nranges;
        const void *pts[2] = { cz_aff(g, job->bases, lo), NULL };   /* NULL: contiguous */
        const uint8_t *contig_sc[2] = { job->scalars ? job->scalars[lo].b : NULL, NULL };
        const uint8_t *const *sc = job->scalar_ptrs ? job->scalar_ptrs + lo : contig_sc;
        g->tile(job->tiles + t * g->proj_size, pts, hi - lo, sc, job->nbits,
                job->scratch[slot], w * job->plan.window, job->plan.window);
    }
}

static void free_scratch(void **scratch, unsigned width)
{
    if (!scratch)
        return;
    for (unsigned i = 0; i < width; i++)
        free(scratch[i]);
    free(scratch);
}

static void **alloc_scratch(unsigned width, size_t bytes)
{
    void **scratch = calloc(width, sizeof *scratch);
    if (!scratch)
        return NULL;
    for (unsigned i = 0; i < width; i++) {
        if (!(scratch[i] = calloc(1, bytes))) {
            free_scratch(scratch, width);
            return NULL;
        }
    }
    return scratch;
}

/* out = the MSM described by |job| (n >= 2). */
static int run_grid(cz_ctx_t *ctx, grid_job *job, void *out)
{
    const cz_group *g = job->g;
    cz_pool_t *pool = cz_ctx_pool(ctx);
    unsigned width = cz_pool_width(pool);
    job->plan = plan_msm(g, job->n, job->nbits, width);
    size_t ntiles = job->plan.nwin * job->plan.nranges;
    job->tiles = calloc(ntiles, g->proj_size);
    job->scratch = alloc_scratch(width, g->bucket_size << (job->plan.window - 1));
    if (!job->tiles || !job->scratch) {
        free(job->tiles);
        free_scratch(job->scratch, width);
        return cz_fail(ctx, CZ_ENOMEM, "%s MSM: cannot allocate %zu tiles / buckets",
                       g->name, ntiles);
    }
    cz_pool_for(pool, ntiles, 1, run_tile, job);

    /* Horner over windows, top first: acc = acc * 2^c + sum of the window's tiles. */
    memset(out, 0, g->proj_size);
    for (size_t w = job->plan.nwin; w-- > 0;) {
        if (w + 1 < job->plan.nwin)
            for (size_t i = 0; i < job->plan.window; i++)
                g->dbl(out, out);
        for (size_t r = 0; r < job->plan.nranges; r++)
            g->add(out, out, job->tiles + (w * job->plan.nranges + r) * g->proj_size);
    }
    free(job->tiles);
    free_scratch(job->scratch, width);
    return CZ_OK;
}

/* Bit length of the largest of |n| scalars (0 when all are zero). */
static size_t max_scalar_bits(const blst_scalar *s, size_t n)
{
    uint8_t acc[32] = { 0 };
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 32; j++)
            acc[j] |= s[i].b[j];
    for (int j = 31; j >= 0; j--)
        if (acc[j])
            return (size_t)j * 8 + (size_t)(32 - __builtin_clz(acc[j]));
    return 0;
}

/*
 * Pippenger over n contiguous points and scalars. |nbits| 0 means "find the
 * largest scalar's length".
 */
static int pippenger(cz_ctx_t *ctx, const cz_group *g, void *out, const void *bases,
                     const blst_scalar *scalars, size_t n, size_t nbits)
{
    if (nbits == 0)
        nbits = max_scalar_bits(scalars, n);
    if (n == 0 || nbits == 0) {
        memset(out, 0, g->proj_size);
        return CZ_OK;
    }
    if (n == 1) {
        uint8_t p[sizeof(blst_p2)];
        g->from_affine(p, bases);
        g->mult(out, p, scalars[0].b, nbits);
        return CZ_OK;
    }
    grid_job job = { .g = g, .bases = bases, .n = n, .nbits = nbits };
    const uint8_t **sptr = NULL;
    if ((nbits + 7) / 8 == 32) {
        job.scalars = scalars;
    } else {
        if (!(sptr = malloc(n * sizeof *sptr)))
            return cz_fail(ctx, CZ_ENOMEM, "%s MSM: scalar pointers for %zu points", g->name, n);
        for (size_t i = 0; i < n; i++)
            sptr[i] = scalars[i].b;
        job.scalar_ptrs = sptr;
    }
    int rc = run_grid(ctx, &job, out);
    free(sptr);
    return rc;
}

static int msm(cz_ctx_t *ctx, const cz_group *g, void *out, const void *bases,
               const blst_scalar *scalars, size_t n)
{
    if (n > 0 && (!out || !bases || !scalars))
        return cz_fail(ctx, CZ_EINVAL, "%s MSM: NULL argument with n = %zu", g->name, n);
    if (!out)
        return cz_fail(ctx, CZ_EINVAL, "%s MSM: NULL output", g->name);
    return pippenger(ctx, g, out, bases, scalars, n, FR_BITS);
}

/*
 * The tail MSM reads each gathered base once per window; from a pointer
 * array those reads are scattered over the whole params vector and miss the
 * cache, so the bases are first copied into a contiguous block (measured
 * ~1.5x faster at 2^16 tails). Blocks are bounded to keep the copy small.
 */
#define GATHER_BLOCK ((size_t)1 << 20)

typedef struct {
    const cz_group *g;
    void *dst;
    const void *bases;
    const uint32_t *index;
} gather_job;

static void gather_copy(void *p, size_t begin, size_t end, unsigned slot)
{
    const gather_job *job = p;
    size_t sz = job->g->affine_size;
    for (size_t i = begin; i < end; i++)
        memcpy((uint8_t *)job->dst + i * sz, cz_aff(job->g, job->bases, job->index[i]), sz);
}

static int msm_gather(cz_ctx_t *ctx, const cz_group *g, void *out, const void *bases,
                      const uint32_t *index, const blst_scalar *scalars, size_t count,
                      size_t nbits)
{
    if (!out || (count > 0 && (!bases || !index || !scalars)))
        return cz_fail(ctx, CZ_EINVAL, "%s tail MSM: NULL argument", g->name);
    memset(out, 0, g->proj_size);
    if (count == 0)
        return CZ_OK;
    size_t block = count < GATHER_BLOCK ? count : GATHER_BLOCK;
    void *copy = malloc(block * g->affine_size);
    if (!copy)
        return cz_fail(ctx, CZ_ENOMEM, "%s tail MSM: %zu gathered bases", g->name, block);
    int rc = CZ_OK;
    uint8_t part[sizeof(blst_p2)];
    for (size_t at = 0; at < count && rc == CZ_OK; at += block) {
        size_t m = count - at < block ? count - at : block;
        gather_job job = { g, copy, bases, index + at };
        cz_pool_for(cz_ctx_pool(ctx), m, 8192, gather_copy, &job);
        rc = pippenger(ctx, g, part, copy, scalars + at, m, nbits > FR_BITS ? FR_BITS : nbits);
        if (rc == CZ_OK)
            g->add(out, out, part);
    }
    free(copy);
    return rc;
}

/* ---- batch addition ---------------------------------------------------------- */

#define BATCH_WORDS 512   /* 32768 candidate bases per task */

typedef struct {
    const cz_group *g;
    const void *bases;
    const uint64_t *bitmap;
    size_t n;
    const void ***ptrs;   /* per slot: BATCH_WORDS * 64 pointers */
    uint8_t *sums;        /* per chunk */
} batch_job;

static void batch_chunk(void *p, size_t begin, size_t end, unsigned slot)
{
    const batch_job *job = p;
    const cz_group *g = job->g;
    const void **ptrs = job->ptrs[slot];
    for (size_t c = begin; c < end; c++) {
        size_t w0 = c * BATCH_WORDS, w1 = w0 + BATCH_WORDS, words = (job->n + 63) / 64;
        if (w1 > words)
            w1 = words;
        size_t k = 0;
        for (size_t w = w0; w < w1; w++) {
            uint64_t bits = job->bitmap[w];
            if (w == words - 1 && job->n % 64)
                bits &= (1ull << (job->n % 64)) - 1;
            while (bits) {
                size_t i = w * 64 + (size_t)__builtin_ctzll(bits);
                ptrs[k++] = cz_aff(g, job->bases, i);
                bits &= bits - 1;
            }
        }
        g->sum_affine(job->sums + c * g->proj_size, ptrs, k);
    }
}

static int batch_add(cz_ctx_t *ctx, const cz_group *g, void *out, const void *bases,
                     const uint64_t *bitmap, size_t n)
{
    if (!out || (n > 0 && (!bases || !bitmap)))
        return cz_fail(ctx, CZ_EINVAL, "%s batch addition: NULL argument", g->name);
    memset(out, 0, g->proj_size);
    if (n == 0)
        return CZ_OK;
    cz_pool_t *pool = cz_ctx_pool(ctx);
    unsigned width = cz_pool_width(pool);
    size_t chunks = ((n + 63) / 64 + BATCH_WORDS - 1) / BATCH_WORDS;
    batch_job job = { .g = g, .bases = bases, .bitmap = bitmap, .n = n };
    job.sums = calloc(chunks, g->proj_size);
    job.ptrs = calloc(width, sizeof *job.ptrs);
    bool ok = job.sums && job.ptrs;
    for (unsigned i = 0; ok && i < width; i++)
        ok = (job.ptrs[i] = malloc(BATCH_WORDS * 64 * sizeof(void *))) != NULL;
    if (ok) {
        cz_pool_for(pool, chunks, 1, batch_chunk, &job);
        for (size_t c = 0; c < chunks; c++)
            g->add(out, out, job.sums + c * g->proj_size);
    }
    for (unsigned i = 0; job.ptrs && i < width; i++)
        free(job.ptrs[i]);
    free(job.ptrs);
    free(job.sums);
    return ok ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "%s batch addition: scratch", g->name);
}

static int msm_split(cz_ctx_t *ctx, const cz_group *g, void *out, const void *bases,
                     const cz_scalar_split *split)
{
    if (!out || !split)
        return cz_fail(ctx, CZ_EINVAL, "%s split MSM: NULL argument", g->name);
    uint8_t ones[sizeof(blst_p2)], tail[sizeof(blst_p2)];
    int rc = batch_add(ctx, g, ones, bases, split->ones, split->n);
    if (rc == CZ_OK)
        rc = msm_gather(ctx, g, tail, bases, split->sig_index, split->sig_scalar,
                        split->n_sig, split->sig_bits);
    if (rc == CZ_OK)
        g->add(out, ones, tail);
    return rc;
}

/*
 * Split when the significant scalars are at most half (SUPRA's rule, FACTS
 * 7): zeros then cost nothing and ones one affine addition each.
 */
static int msm_auto(cz_ctx_t *ctx, const cz_group *g, void *out, const void *bases,
                    const blst_scalar *scalars, size_t n)
{
    cz_scalar_split split;
    int rc = cz_scalar_split_build(ctx, &split, scalars, n);
    if (rc)
        return rc;
    if (split.n_sig <= n / 2)
        rc = msm_split(ctx, g, out, bases, &split);
    else
        rc = msm(ctx, g, out, bases, scalars, n);
    cz_scalar_split_free(&split);
    return rc;
}

/* ---- typed entry points -------------------------------------------------------- */

#define MSM_ENTRY_POINTS(gx, P, A, GROUP)                                                \
    int cz_##gx##_msm(cz_ctx_t *ctx, P *out, const A *bases, const blst_scalar *scalars, \
                      size_t n)                                                          \
    { return msm(ctx, &GROUP, out, bases, scalars, n); }                                 \
    int cz_##gx##_batch_add(cz_ctx_t *ctx, P *out, const A *bases,                       \
                            const uint64_t *bitmap, size_t n)                            \
    { return batch_add(ctx, &GROUP, out, bases, bitmap, n); }                            \
    int cz_##gx##_msm_split(cz_ctx_t *ctx, P *out, const A *bases,                       \
                            const cz_scalar_split *split)                                \
    { return msm_split(ctx, &GROUP, out, bases, split); }                                \
    int cz_##gx##_msm_auto(cz_ctx_t *ctx, P *out, const A *bases,                        \
                           const blst_scalar *scalars, size_t n)                         \
    { return msm_auto(ctx, &GROUP, out, bases, scalars, n); }                            \
    int cz_##gx##_msm_gather(cz_ctx_t *ctx, P *out, const A *bases,                      \
                             const uint32_t *index, const blst_scalar *scalars,          \
                             size_t count, size_t nbits)                                 \
    { return msm_gather(ctx, &GROUP, out, bases, index, scalars, count, nbits); }

MSM_ENTRY_POINTS(g1, blst_p1, blst_p1_affine, CZ_G1)
MSM_ENTRY_POINTS(g2, blst_p2, blst_p2_affine, CZ_G2)
