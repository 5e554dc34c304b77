/*
 * ec/msm.c — multi-threaded Pippenger, batch addition and the Filecoin
 * witness split, written once over ec/group.h for G1 and G2.
 *
 * Parallel Pippenger. An MSM is a grid of tiles — windows x point ranges —
 * run on the pool with one scratch per thread, then combined on the caller:
 *     result = sum_w 2^(w c) * sum_r tile[w][r]
 * A tile computes, for one window of c bits at offset bit0 and one range of
 * points, the window's sum sum_i digit_i(bit0) * P_i with signed (Booth)
 * digits. Two tile engines (ec/affine.h):
 *   - batched affine buckets (ec/bucket.c) on the IFMA backends (x86-64
 *     with avx512ifma) or on blst's field arithmetic: the default;
 *   - blst's tile function (XYZZ buckets), kept for comparison.
 * The window c and the number of ranges come from a small cost model
 * (plan_msm) so that the grid keeps every thread busy while the bucket
 * reduction (2^(c-1) buckets per tile) stays cheap relative to the point
 * additions.
 *
 * Batch addition. The bitmap is cut into word-aligned chunks; each task
 * gathers its chunk's selected indices and sums them by rounds of batched
 * affine pair additions (cz__aff_sum).
 */
#include "ec/msm.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_int.h"
#include "core/pool.h"
#include "ec/affine.h"
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

/* ---- tile engines ------------------------------------------------------------ */

/* AUTO unless a test or benchmark forced an engine on the ctx (ec/affine.h). */
void cz__msm_force_engine(cz_ctx_t *ctx, cz__msm_engine engine)
{
    cz__ctx_set_msm_engine(ctx, (int)engine);
}

/*
 * A tile engine and its plan costs (ns per operation on ci2, 2026-11-29):
 * |add| per point and window (a bucket accumulation), |bucket| per bucket
 * of a tile (its share of the reduction), |proj| per projective addition
 * (the affine engines' reduction ends with ~4 sqrt(buckets) of them).
 */
typedef struct {
    cz__msm_engine kind;
    const cz__aff_ops *ops; /* NULL for XYZZ */
    double add, bucket, proj;
} engine;

static engine pick_engine(const cz_ctx_t *ctx, const cz_group *g)
{
    cz__msm_engine kind = (cz__msm_engine)cz__ctx_msm_engine(ctx);
    const cz__aff_ops *ifma = g == &CZ_G1 ? cz__aff_g1_ifma() : cz__aff_g2_ifma();
    if (kind == CZ__MSM_AUTO)
        kind = ifma ? CZ__MSM_IFMA : CZ__MSM_BLST;
    if (kind == CZ__MSM_IFMA && !ifma)
        kind = CZ__MSM_BLST;
    bool g1 = g == &CZ_G1;
    switch (kind) {
    case CZ__MSM_XYZZ: return (engine){ kind, NULL, g1 ? 300 : 900, g1 ? 720 : 2200, 0 };
    case CZ__MSM_IFMA:
        return (engine){ kind, ifma, g1 ? 70 : 230, g1 ? 170 : 520, g1 ? 600 : 1800 };
    default:
        return (engine){ CZ__MSM_BLST, g1 ? &cz__aff_g1_blst : &cz__aff_g2_blst, g1 ? 220 : 650,
                         g1 ? 450 : 1300, g1 ? 600 : 1800 };
    }
}

static size_t tile_scratch_size(const cz_group *g, const engine *e, size_t window)
{
    return e->ops ? cz__aff_tile_scratch_size(e->ops, window) : g->bucket_size << (window - 1);
}

/* ---- Pippenger plan ---------------------------------------------------------- */

typedef struct {
    size_t window;  /* c, bits per window */
    size_t nwin;    /* windows, the top one narrower (possibly only the carry) */
    size_t nranges; /* point ranges per window */
} msm_plan;

/*
 * A tile of a range of n/p points costs add * n/p + bucket * 2^(c-1), plus
 * proj * 4 * 2^((c-1)/2) for the affine engines' last running sums; the
 * makespan of a grid is ceil(tiles / threads) tiles, plus the combination
 * (about one projective addition per tile and per window bit). Scratch
 * stays within ~32 MiB per thread.
 */
static msm_plan plan_msm(const cz_group *g, const engine *e, size_t n, size_t nbits,
                         unsigned threads)
{
    msm_plan best = { 1, nbits + 1, 1 };
    double best_cost = -1;
    size_t max_ranges = n / 2 ? n / 2 : 1; /* blst tiles need >= 2 points */
    if (max_ranges > 4 * (size_t)threads)
        max_ranges = 4 * (size_t)threads;
    double comb = e->proj ? e->proj : e->bucket / 2;
    for (size_t c = 2; c <= 20; c++) {
        if (c > 2 && tile_scratch_size(g, e, c) > (32u << 20))
            break;
        size_t nwin = nbits / c + 1;
        double fixed = e->proj * 4.0 * (double)(1ull << ((c - 1) / 2));
        for (size_t p = 1; p <= max_ranges; p++) {
            size_t tiles = nwin * p;
            size_t rounds = (tiles + threads - 1) / threads;
            double per_tile = e->add * (double)(n + p - 1) / (double)p +
                              e->bucket * (double)(1ull << (c - 1)) + fixed;
            double cost = (double)rounds * per_tile + comb * (double)(tiles + nwin * c);
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
 * Inputs of one Pippenger: n contiguous points (blst affine, or in the
 * affine backend's format when |converted|), with scalars contiguous
 * (|scalars|, 32 bytes each) or, for blst's tile, through |scalar_ptrs|
 * (needed when nbits < 249: blst strides contiguous scalars by
 * (nbits+7)/8 bytes).
 */
typedef struct {
    const cz_group *g;
    engine e;
    const void *bases;
    bool converted;
    const blst_scalar *scalars;
    const uint8_t *const *scalar_ptrs;
    size_t n, nbits;
    msm_plan plan;
    void **scratch; /* per slot (blst's buckets: zeroed, blst re-zeroes after use) */
    uint8_t *tiles; /* nwin * nranges projective points */
} grid_job;

static void run_tile(void *p, size_t begin, size_t end, unsigned slot)
{
    const grid_job *job = p;
    const cz_group *g = job->g;
    for (size_t t = begin; t < end; t++) {
        size_t w = t / job->plan.nranges, r = t % job->plan.nranges;
        size_t lo = job->n * r / job->plan.nranges;
        size_t hi = job->n * (r + 1) / job->plan.nranges;
        void *out = job->tiles + t * g->proj_size;
        if (job->e.ops) {
            size_t stride = job->converted ? job->e.ops->point_size : g->affine_size;
            cz__aff_tile(job->e.ops, out, (const uint8_t *)job->bases + lo * stride, job->converted,
                         job->scalars + lo, hi - lo, w * job->plan.window, job->plan.window,
                         job->scratch[slot]);
            continue;
        }
        const void *pts[2] = { cz_aff(g, job->bases, lo), NULL }; /* NULL: contiguous */
        const uint8_t *contig_sc[2] = { job->scalars ? job->scalars[lo].b : NULL, NULL };
        const uint8_t *const *sc = job->scalar_ptrs ? job->scalar_ptrs + lo : contig_sc;
        g->tile(out, pts, hi - lo, sc, job->nbits, job->scratch[slot], w * job->plan.window,
                job->plan.window);
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

static void **alloc_scratch(unsigned width, size_t bytes, bool zero)
{
    void **scratch = calloc(width, sizeof *scratch);
    if (!scratch)
        return NULL;
    for (unsigned i = 0; i < width; i++) {
        if (!(scratch[i] = zero ? calloc(1, bytes) : malloc(bytes))) {
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
    job->plan = plan_msm(g, &job->e, job->n, job->nbits, width);
    size_t ntiles = job->plan.nwin * job->plan.nranges;
    job->tiles = calloc(ntiles, g->proj_size);
    job->scratch = alloc_scratch(width, tile_scratch_size(g, &job->e, job->plan.window),
                                 job->e.ops == NULL);
    if (!job->tiles || !job->scratch) {
        free(job->tiles);
        free_scratch(job->scratch, width);
        return cz_fail(ctx, CZ_ENOMEM, "%s MSM: cannot allocate %zu tiles / buckets", g->name,
                       ntiles);
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
 * Pippenger over n contiguous points (|converted|: in e's backend format)
 * and scalars. |nbits| 0 means "find the largest scalar's length".
 */
static int pippenger(cz_ctx_t *ctx, const cz_group *g, const engine *e, void *out,
                     const void *bases, bool converted, const blst_scalar *scalars, size_t n,
                     size_t nbits)
{
    if (nbits == 0)
        nbits = max_scalar_bits(scalars, n);
    if (n == 0 || nbits == 0) {
        memset(out, 0, g->proj_size);
        return CZ_OK;
    }
    if (n == 1) {
        uint8_t p[sizeof(blst_p2)], a[sizeof(blst_p2_affine)];
        const void *base = bases;
        if (converted) {
            e->ops->to_blst(a, bases, 1);
            base = a;
        }
        g->from_affine(p, base);
        g->mult(out, p, scalars[0].b, nbits);
        return CZ_OK;
    }
    grid_job job = { .g = g,
                     .e = *e,
                     .bases = bases,
                     .converted = converted,
                     .n = n,
                     .nbits = nbits };
    const uint8_t **sptr = NULL;
    if (e->ops || (nbits + 7) / 8 == 32) {
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

static int gather_msm(cz_ctx_t *ctx, const cz_group *g, void *out, const void *bases,
                      const uint32_t *index, const blst_scalar *scalars, size_t count,
                      size_t nbits);

static int msm(cz_ctx_t *ctx, const cz_group *g, void *out, const void *bases,
               const blst_scalar *scalars, size_t n)
{
    if (n > 0 && (!out || !bases || !scalars))
        return cz_fail(ctx, CZ_EINVAL, "%s MSM: NULL argument with n = %zu", g->name, n);
    if (!out)
        return cz_fail(ctx, CZ_EINVAL, "%s MSM: NULL output", g->name);
    engine e = pick_engine(ctx, g);
    if (e.ops && !e.ops->native && n > 1) /* convert once, not once per window */
        return gather_msm(ctx, g, out, bases, NULL, scalars, n, FR_BITS);
    return pippenger(ctx, g, &e, out, bases, false, scalars, n, FR_BITS);
}

/*
 * The tail MSM reads each gathered base once per window; from a pointer
 * array those reads are scattered over the whole params vector and miss the
 * cache, so the bases are first copied into a contiguous block (measured
 * ~1.5x faster at 2^16 tails) — converted to the affine backend's format
 * on the way, so the windows do not convert them again (a NULL |index|:
 * the bases in order, the plain MSM's conversion). Blocks are bounded to
 * keep the copy small.
 */
#define GATHER_BLOCK ((size_t)1 << 20)
#define GATHER_GRAIN 8192

typedef struct {
    const cz_group *g;
    const cz__aff_ops *ops; /* NULL: plain copy */
    void *dst;
    const void *bases;
    const uint32_t *index;
} gather_job;

static void gather_copy(void *p, size_t begin, size_t end, unsigned slot)
{
    const gather_job *job = p;
    if (job->ops) {
        size_t ps = job->ops->point_size;
        if (job->index)
            job->ops->from_blst((uint8_t *)job->dst + begin * ps, job->bases, job->index + begin,
                                end - begin);
        else
            job->ops->from_blst((uint8_t *)job->dst + begin * ps, cz_aff(job->g, job->bases, begin),
                                NULL, end - begin);
        return;
    }
    size_t sz = job->g->affine_size;
    for (size_t i = begin; i < end; i++)
        memcpy((uint8_t *)job->dst + i * sz, cz_aff(job->g, job->bases, job->index[i]), sz);
}

/* |index| NULL: bases[0..count) in order (converting engines only) */
static int gather_msm(cz_ctx_t *ctx, const cz_group *g, void *out, const void *bases,
                      const uint32_t *index, const blst_scalar *scalars, size_t count, size_t nbits)
{
    memset(out, 0, g->proj_size);
    if (count == 0)
        return CZ_OK;
    engine e = pick_engine(ctx, g);
    size_t block = count < GATHER_BLOCK ? count : GATHER_BLOCK;
    size_t psize = e.ops ? e.ops->point_size : g->affine_size;
    /* 64-byte aligned: the IFMA backend loads a coordinate as one 64-byte row */
    void *copy = aligned_alloc(64, (block * psize + 63) & ~(size_t)63);
    if (!copy)
        return cz_fail(ctx, CZ_ENOMEM, "%s tail MSM: %zu gathered bases", g->name, block);
    int rc = CZ_OK;
    uint8_t part[sizeof(blst_p2)];
    for (size_t at = 0; at < count && rc == CZ_OK; at += block) {
        size_t m = count - at < block ? count - at : block;
        gather_job job = { g, e.ops, copy, index ? bases : cz_aff(g, bases, at),
                           index ? index + at : NULL };
        cz_pool_for(cz_ctx_pool(ctx), m, GATHER_GRAIN, gather_copy, &job);
        rc = pippenger(ctx, g, &e, part, copy, e.ops != NULL, scalars + at, m,
                       nbits > FR_BITS ? FR_BITS : nbits);
        if (rc == CZ_OK)
            g->add(out, out, part);
    }
    free(copy);
    return rc;
}

/* ---- batch addition ---------------------------------------------------------- */

#define BATCH_WORDS 512 /* 32768 candidate bases per task */

typedef struct {
    const cz_group *g;
    const cz__aff_ops *ops;
    const void *bases;
    const uint64_t *bitmap;
    size_t n;
    uint32_t **index; /* per slot: BATCH_WORDS * 64 indices */
    void **scratch;   /* per slot: cz__aff_sum scratch */
    uint8_t *sums;    /* per chunk */
} batch_job;

static void batch_chunk(void *p, size_t begin, size_t end, unsigned slot)
{
    const batch_job *job = p;
    const cz_group *g = job->g;
    uint32_t *index = job->index[slot];
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
                index[k++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(bits));
                bits &= bits - 1;
            }
        }
        cz__aff_sum(job->ops, job->sums + c * g->proj_size, job->bases, index, k,
                    job->scratch[slot]);
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
    if (n > UINT32_MAX)
        return cz_fail(ctx, CZ_ERANGE, "%s batch addition: %zu bases (at most 2^32-1)", g->name, n);
    cz_pool_t *pool = cz_ctx_pool(ctx);
    unsigned width = cz_pool_width(pool);
    size_t chunks = ((n + 63) / 64 + BATCH_WORDS - 1) / BATCH_WORDS;
    engine e = pick_engine(ctx, g);
    /* XYZZ (the comparison engine) sums over blst's field arithmetic, like blst_pXs_add */
    const cz__aff_ops *ops = e.ops ? e.ops : g == &CZ_G1 ? &cz__aff_g1_blst : &cz__aff_g2_blst;
    batch_job job = { .g = g, .ops = ops, .bases = bases, .bitmap = bitmap, .n = n };
    job.sums = calloc(chunks, g->proj_size);
    job.index = (uint32_t **)alloc_scratch(width, BATCH_WORDS * 64 * sizeof(uint32_t), false);
    job.scratch = alloc_scratch(width, cz__aff_sum_scratch_size(job.ops), false);
    bool ok = job.sums && job.index && job.scratch;
    if (ok) {
        cz_pool_for(pool, chunks, 1, batch_chunk, &job);
        for (size_t c = 0; c < chunks; c++)
            g->add(out, out, job.sums + c * g->proj_size);
    }
    free_scratch((void **)job.index, width);
    free_scratch(job.scratch, width);
    free(job.sums);
    return ok ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "%s batch addition: scratch", g->name);
}

static int msm_gather(cz_ctx_t *ctx, const cz_group *g, void *out, const void *bases,
                      const uint32_t *index, const blst_scalar *scalars, size_t count, size_t nbits)
{
    if (!out || (count > 0 && (!bases || !index || !scalars)))
        return cz_fail(ctx, CZ_EINVAL, "%s tail MSM: NULL argument", g->name);
    return gather_msm(ctx, g, out, bases, index, scalars, count, nbits);
}

static int msm_split(cz_ctx_t *ctx, const cz_group *g, void *out, const void *bases,
                     const cz_scalar_split *split)
{
    if (!out || !split)
        return cz_fail(ctx, CZ_EINVAL, "%s split MSM: NULL argument", g->name);
    uint8_t ones[sizeof(blst_p2)], tail[sizeof(blst_p2)];
    int rc = batch_add(ctx, g, ones, bases, split->ones, split->n);
    if (rc == CZ_OK)
        rc = msm_gather(ctx, g, tail, bases, split->sig_index, split->sig_scalar, split->n_sig,
                        split->sig_bits);
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

/* laid out by hand: */
/* clang-format off */
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
/* clang-format on */

MSM_ENTRY_POINTS(g1, blst_p1, blst_p1_affine, CZ_G1)
MSM_ENTRY_POINTS(g2, blst_p2, blst_p2_affine, CZ_G2)
