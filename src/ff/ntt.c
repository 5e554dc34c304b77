/*
 * ff/ntt.c — radix-2 NTT over Fr on the CPU (see ff/ntt.h).
 *
 * DESIGN. A forward transform of n = 2^L points runs the L radix-2 stages
 * in the Cooley-Tukey order that takes natural order to bit-reversed order
 * (stage m joins points 2^(L-1-m) apart; all butterflies of one block of
 * 2^(L-m) points share one twiddle), then one bit-reversal permutation. The
 * twiddle table is stored in bit-reversed order, tw[b] = w^brv(b), so block
 * b of any stage uses tw[b]: a stage reads a contiguous prefix of the table.
 * The stages are grouped into passes that each read and write every point
 * once and do their work in cache:
 *   - column passes take the first L - LAST_STAGES stages, up to PASS_STAGES
 *     at a time. A task gathers 2^k rows (a power-of-two stride apart, which
 *     in place would map every row to the same cache sets) of 2^LOG_COLS
 *     adjacent points into per-thread scratch, runs the k stages there and
 *     scatters them back; its columns share every twiddle;
 *   - the last pass runs the remaining stages (up to LAST_STAGES) on
 *     contiguous blocks of 2^LAST_STAGES points (128 KiB), in place;
 *   - the bit reversal is tiled so that every access moves 2^REV_BITS
 *     contiguous points, parallel over tiles.
 * The inverse runs the forward transform and then sets
 * x[i] = n^-1 * X[(n - i) mod n] (since w^-ik = w^(n-i)k), fused with the
 * coset factor g^-i, so one table serves both directions.
 *
 * Determinism: every output point is produced by the same sequence of field
 * operations whatever the thread count or chunk schedule, and blst keeps Fr
 * elements fully reduced, so results are bit-identical across thread counts.
 */
#include "ff/ntt.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"

#define NTT_MAX_LOG_N 28u
#define LAST_STAGES 12u    /* last pass: blocks of 2^12 points = 128 KiB */
#define PASS_STAGES 8u     /* column passes: 2^8 rows ... */
#define LOG_COLS 3u        /* ... x 2^3 columns = 64 KiB of scratch per thread */
#define REV_BITS 4u        /* bit-reversal tiles of 2^4 x 2^4 points */
#define CHUNK_LOG 12u      /* aim for >= 2^12 points per parallel chunk */
#define SCALE_CHUNK 16384u /* points per chunk of the scaling passes */
#define CACHE_LINE 64u

struct cz_ntt_domain {
    unsigned log_n;
    size_t n;
    cz_fr n_inv;    /* n^-1 */
    cz_fr g, g_inv; /* coset shift 7 and 7^-1 */
    cz_fr *tw;      /* tw[b] = w^brv(b) (L-1 bits), b < max(n/2, 1); aligned */
};

/* ---- small helpers ---------------------------------------------------- */

static cz_fr *alloc_fr(size_t count)
{
    size_t bytes = count * sizeof(cz_fr);
    bytes = (bytes + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
    return aligned_alloc(CACHE_LINE, bytes ? bytes : CACHE_LINE);
}

/* The low |bits| bits of x in reverse order. */
static size_t rev_bits(size_t x, unsigned bits)
{
    uint64_t v = x;
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
    v = __builtin_bswap64(v);
    return bits ? (size_t)(v >> (64 - bits)) : 0;
}

static void swap_fr(cz_fr *a, cz_fr *b)
{
    cz_fr t = *a;
    *a = *b;
    *b = t;
}

/* Chunk size (in tasks of 2^task_log points) giving ~2^CHUNK_LOG points. */
static size_t grain_for(unsigned task_log)
{
    return task_log >= CHUNK_LOG ? 1 : (size_t)1 << (CHUNK_LOG - task_log);
}

static void bit_reverse(cz_pool_t *pool, cz_fr *v, unsigned log_n);

/* ---- domain ----------------------------------------------------------- */

typedef struct {
    cz_fr *out;
    cz_fr base;
} powers_arg;

/* out[k] = base^k for k in [begin, end). */
static void fill_powers(void *p, size_t begin, size_t end, unsigned slot)
{
    const powers_arg *a = p;
    cz_fr t;
    cz_fr_pow_u64(&t, &a->base, begin);
    for (size_t k = begin; k < end; k++) {
        a->out[k] = t;
        cz_fr_mul(&t, &t, &a->base);
    }
}

int cz_ntt_domain_new(cz_ctx_t *ctx, cz_ntt_domain **out, unsigned log_n)
{
    if (out == NULL)
        return cz_fail(ctx, CZ_EINVAL, "ntt: domain output pointer is NULL");
    *out = NULL;
    if (log_n > NTT_MAX_LOG_N)
        return cz_fail(ctx, CZ_ERANGE, "ntt: log_n %u > %u (largest domain is 2^%u)", log_n,
                       NTT_MAX_LOG_N, NTT_MAX_LOG_N);
    cz_ntt_domain *d = calloc(1, sizeof *d);
    size_t half = log_n ? (size_t)1 << (log_n - 1) : 1;
    if (d)
        d->tw = alloc_fr(half);
    if (!d || !d->tw) {
        free(d);
        return cz_fail(ctx, CZ_ENOMEM, "ntt: cannot allocate %zu twiddles for 2^%u", half, log_n);
    }
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;

    powers_arg pa = { .out = d->tw };
    cz_fr_root_of_unity(&pa.base, log_n); /* log_n <= 28 < 32: cannot fail */
    cz_pool_for(cz_ctx_pool(ctx), half, SCALE_CHUNK, fill_powers, &pa);
    if (log_n > 1)
        bit_reverse(cz_ctx_pool(ctx), d->tw, log_n - 1);

    cz_fr n_fr;
    cz_fr_from_u64(&n_fr, d->n);
    cz_fr_inverse(&d->n_inv, &n_fr);
    cz_fr_from_u64(&d->g, CZ_FR_GENERATOR);
    cz_fr_inverse(&d->g_inv, &d->g);
    *out = d;
    return CZ_OK;
}

void cz_ntt_domain_free(cz_ntt_domain *d)
{
    if (!d)
        return;
    free(d->tw);
    free(d);
}

unsigned cz_ntt_domain_log_n(const cz_ntt_domain *d)
{
    return d ? d->log_n : 0;
}

/* ---- bit reversal ----------------------------------------------------- */

typedef struct {
    cz_fr *v;
    unsigned log_n;
} rev_arg;

/*
 * Point i = hi<<(L-q) | b<<q | lo (hi, lo < 2^q) maps to
 * rev(lo)<<(L-q) | rev(b)<<q | rev(hi): tile b trades places with tile rev(b).
 * The smaller of the two tile indexes does the swaps, so tasks never overlap.
 */
static void rev_tiles(void *p, size_t begin, size_t end, unsigned slot)
{
    const rev_arg *a = p;
    const unsigned L = a->log_n, q = REV_BITS, mid = L - 2 * q;
    const size_t side = (size_t)1 << q;
    size_t rq[1u << REV_BITS];
    for (size_t c = 0; c < side; c++)
        rq[c] = rev_bits(c, q);
    for (size_t b = begin; b < end; b++) {
        size_t rb = rev_bits(b, mid);
        if (rb < b)
            continue;
        for (size_t hi = 0; hi < side; hi++) {
            for (size_t lo = 0; lo < side; lo++) {
                size_t i = hi << (L - q) | b << q | lo;
                size_t j = rq[lo] << (L - q) | rb << q | rq[hi];
                if (rb != b || i < j)
                    swap_fr(a->v + i, a->v + j);
            }
        }
    }
}

static void bit_reverse(cz_pool_t *pool, cz_fr *v, unsigned log_n)
{
    if (log_n < 2 * REV_BITS + 2) { /* small: not worth tiling */
        size_t n = (size_t)1 << log_n;
        for (size_t i = 0; i < n; i++) {
            size_t j = rev_bits(i, log_n);
            if (i < j)
                swap_fr(v + i, v + j);
        }
        return;
    }
    rev_arg a = { v, log_n };
    size_t tiles = (size_t)1 << (log_n - 2 * REV_BITS);
    cz_pool_for(pool, tiles, grain_for(2 * REV_BITS), rev_tiles, &a);
}

/* ---- butterfly passes ------------------------------------------------- */

typedef struct {
    cz_fr *v;
    const cz_fr *tw; /* the domain's table, bit-reversed order */
    unsigned log_n;
    unsigned m0, k;    /* this pass runs stages m0 .. m0+k-1 */
    unsigned log_cols; /* 2^log_cols adjacent columns per task */
    cz_fr *scratch;    /* 2^(k+log_cols) points per slot; NULL: rows contiguous */
} pass_arg;

/* (x, y) <- (x + w*y, x - w*y) */
static inline void butterfly(cz_fr *x, cz_fr *y, const cz_fr *w)
{
    cz_fr t;
    cz_fr_mul(&t, y, w);
    cz_fr_sub(y, x, &t);
    cz_fr_add(x, x, &t);
}

/* (x, y) <- (x + y, x - y): twiddle w^0 = 1 saves the multiplication. */
static inline void butterfly_unit(cz_fr *x, cz_fr *y)
{
    cz_fr t = *y;
    cz_fr_sub(y, x, &t);
    cz_fr_add(x, x, &t);
}

/*
 * Run the pass's stages on one sub-problem: rows x[r*C .. r*C+C), r < 2^k,
 * of outer block |outer|. At local stage i (global m0 + i) rows r and
 * r + 2^(k-1-i) pair up inside row blocks of 2^(k-i) rows; row block q is
 * global butterfly block (outer << i) + q, whose twiddle is tw[that]. Every
 * column of the task shares it, and the blocks of a stage read the table
 * contiguously.
 */
static void run_stages(const pass_arg *a, cz_fr *x, size_t outer)
{
    const size_t cols = (size_t)1 << a->log_cols;
    for (unsigned i = 0; i < a->k; i++) {
        const size_t half = (cols << (a->k - 1 - i)); /* points per half block */
        const size_t blocks = (size_t)1 << i;
        for (size_t q = 0; q < blocks; q++) {
            const size_t b = (outer << i) + q;
            cz_fr *lo = x + 2 * q * half, *hi = lo + half;
            if (b == 0) {
                for (size_t t = 0; t < half; t++)
                    butterfly_unit(lo + t, hi + t);
                continue;
            }
            const cz_fr w = a->tw[b];
            for (size_t t = 0; t < half; t++)
                butterfly(lo + t, hi + t, &w);
        }
    }
}

/*
 * Task = (outer block o, column group g). Outer block o holds points
 * [o*2^(L-m0), (o+1)*2^(L-m0)); inside it, row r and column c is point
 * r*2^(L-m0-k) + c. Column groups of one outer block are consecutive tasks:
 * they share their twiddles.
 */
static void pass_tasks(void *p, size_t begin, size_t end, unsigned slot)
{
    const pass_arg *a = p;
    const unsigned stride_log = a->log_n - a->m0 - a->k;
    const unsigned groups_log = stride_log - a->log_cols;
    const size_t cols = (size_t)1 << a->log_cols, rows = (size_t)1 << a->k;
    const size_t stride = (size_t)1 << stride_log;
    cz_fr *buf = a->scratch ? a->scratch + ((size_t)slot << (a->k + a->log_cols)) : NULL;
    for (size_t task = begin; task < end; task++) {
        size_t o = task >> groups_log;
        size_t c0 = (task & (((size_t)1 << groups_log) - 1)) << a->log_cols;
        cz_fr *base = a->v + (o << (a->log_n - a->m0)) + c0;
        if (!buf) { /* last pass: the block is contiguous */
            run_stages(a, base, o);
            continue;
        }
        for (size_t r = 0; r < rows; r++)
            memcpy(buf + r * cols, base + r * stride, cols * sizeof(cz_fr));
        run_stages(a, buf, o);
        for (size_t r = 0; r < rows; r++)
            memcpy(base + r * stride, buf + r * cols, cols * sizeof(cz_fr));
    }
}

static void run_pass(cz_pool_t *pool, pass_arg *a)
{
    unsigned task_log = a->k + a->log_cols;
    size_t tasks = (size_t)1 << (a->log_n - task_log);
    cz_pool_for(pool, tasks, grain_for(task_log), pass_tasks, a);
}

/* Per-call scratch size in points: one column group per pool slot (0 when
 * the last pass is the only one). */
static size_t scratch_points(const cz_ntt_domain *d, cz_pool_t *pool)
{
    if (d->log_n <= LAST_STAGES)
        return 0;
    return (size_t)cz_pool_width(pool) << (PASS_STAGES + LOG_COLS);
}

/*
 * The forward transform in place. Stage m (m = 0 .. L-1) pairs points
 * 2^(L-1-m) apart inside butterfly blocks of 2^(L-m) points; block b's
 * twiddle is w^brv(b) = tw[b]. Run in this order (the Cooley-Tukey form of
 * decimation in time) the stages turn natural order into the transform in
 * bit-reversed order, which the final permutation puts right. The first
 * L - LAST_STAGES stages go in column passes, the rest in one pass over
 * contiguous blocks. |scratch| holds scratch_points() points. Cannot fail.
 */
static void forward_core(cz_pool_t *pool, const cz_ntt_domain *d, cz_fr *v, cz_fr *scratch)
{
    const unsigned L = d->log_n;
    if (L == 0)
        return;
    const unsigned last = L < LAST_STAGES ? L : LAST_STAGES;
    pass_arg a = { .v = v, .tw = d->tw, .log_n = L, .scratch = scratch };

    unsigned m0 = 0, left = L - last;
    for (unsigned passes = (left + PASS_STAGES - 1) / PASS_STAGES; passes > 0; passes--) {
        unsigned k = (left + passes - 1) / passes; /* split as evenly as possible */
        unsigned stride_log = L - m0 - k;
        a.m0 = m0;
        a.k = k;
        a.log_cols = stride_log < LOG_COLS ? stride_log : LOG_COLS;
        run_pass(pool, &a);
        m0 += k;
        left -= k;
    }

    a.m0 = m0;
    a.k = last;
    a.log_cols = 0;
    a.scratch = NULL;
    run_pass(pool, &a);
    bit_reverse(pool, v, L);
}

/* ---- scaling passes --------------------------------------------------- */

typedef struct {
    cz_fr *v;
    size_t n;
    cz_fr c;          /* constant factor (n^-1) */
    cz_fr step, back; /* G and G^-1 of the per-index factor G^i */
    bool geometric;   /* false: G = 1, skip the running powers */
} scale_arg;

/* v[i] *= G^i (coset forward: G = g). */
static void scale_powers(void *p, size_t begin, size_t end, unsigned slot)
{
    const scale_arg *a = p;
    cz_fr f;
    cz_fr_pow_u64(&f, &a->step, begin);
    for (size_t i = begin; i < end; i++) {
        cz_fr_mul(&a->v[i], &a->v[i], &f);
        cz_fr_mul(&f, &f, &a->step);
    }
}

/*
 * Pairs (i, n-i) for i = 1 + [begin, end): v[i] <- c G^i X[n-i] and
 * v[n-i] <- c G^(n-i) X[i]. Points 0 and n/2 map to themselves (finish_inverse).
 */
static void reverse_pairs(void *p, size_t begin, size_t end, unsigned slot)
{
    const scale_arg *a = p;
    const size_t i0 = begin + 1, n = a->n;
    cz_fr lo = a->c, hi = a->c, t;
    if (a->geometric) {
        cz_fr_pow_u64(&t, &a->step, i0);
        cz_fr_mul(&lo, &lo, &t);
        cz_fr_pow_u64(&t, &a->step, n - i0);
        cz_fr_mul(&hi, &hi, &t);
    }
    for (size_t i = i0; i < end + 1; i++) {
        cz_fr x = a->v[i], y = a->v[n - i];
        cz_fr_mul(&a->v[i], &y, &lo);
        cz_fr_mul(&a->v[n - i], &x, &hi);
        if (a->geometric) {
            cz_fr_mul(&lo, &lo, &a->step);
            cz_fr_mul(&hi, &hi, &a->back);
        }
    }
}

/* After the forward core: x[i] = n^-1 G^i X[(n-i) mod n]. */
static void finish_inverse(cz_pool_t *pool, const cz_ntt_domain *d, cz_fr *v, bool coset)
{
    const size_t n = d->n;
    scale_arg a = { .v = v, .n = n, .c = d->n_inv, .geometric = coset };
    if (coset) {
        a.step = d->g_inv;
        a.back = d->g;
    }
    cz_fr_mul(&v[0], &v[0], &a.c);
    if (n < 2)
        return;
    cz_fr mid = a.c;
    if (coset) {
        cz_fr t;
        cz_fr_pow_u64(&t, &a.step, n / 2);
        cz_fr_mul(&mid, &mid, &t);
    }
    cz_fr_mul(&v[n / 2], &v[n / 2], &mid);
    cz_pool_for(pool, n / 2 - 1, SCALE_CHUNK, reverse_pairs, &a);
}

/* ---- public transforms ------------------------------------------------ */

enum { OP_FORWARD, OP_INVERSE, OP_COSET_FORWARD, OP_COSET_INVERSE };
static const char *const op_names[] = { "forward", "inverse", "coset forward", "coset inverse" };

/* Checks and allocates before touching v, so v is unchanged on any error. */
static int transform(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v, int op)
{
    if (d == NULL)
        return cz_fail(ctx, CZ_EINVAL, "ntt %s: domain is NULL", op_names[op]);
    if (v == NULL)
        return cz_fail(ctx, CZ_EINVAL, "ntt %s: vector is NULL (2^%u points expected)",
                       op_names[op], d->log_n);
    cz_pool_t *pool = cz_ctx_pool(ctx);
    size_t need = scratch_points(d, pool);
    cz_fr *scratch = need ? alloc_fr(need) : NULL;
    if (need && !scratch)
        return cz_fail(ctx, CZ_ENOMEM, "ntt %s: cannot allocate %zu points of scratch",
                       op_names[op], need);
    if (op == OP_COSET_FORWARD) {
        scale_arg a = { .v = v, .n = d->n, .step = d->g };
        cz_pool_for(pool, d->n, SCALE_CHUNK, scale_powers, &a);
    }
    forward_core(pool, d, v, scratch);
    if (op == OP_INVERSE || op == OP_COSET_INVERSE)
        finish_inverse(pool, d, v, op == OP_COSET_INVERSE);
    free(scratch);
    return CZ_OK;
}

int cz_ntt_forward(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v)
{
    return transform(ctx, d, v, OP_FORWARD);
}

int cz_ntt_inverse(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v)
{
    return transform(ctx, d, v, OP_INVERSE);
}

int cz_ntt_coset_forward(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v)
{
    return transform(ctx, d, v, OP_COSET_FORWARD);
}

int cz_ntt_coset_inverse(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v)
{
    return transform(ctx, d, v, OP_COSET_INVERSE);
}
