/*
 * ec/split.c — classifying witness scalars into zero / one / significant,
 * and restricting a classification to a density (see ec/msm.h).
 *
 * Both run in parallel chunks on the ctx's pool: one pass classifies and
 * counts, a prefix sum places each chunk's significant scalars, a second
 * pass writes them, so the output order is the input order.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "ec/msm.h"


#define SPLIT_GRAIN 65536 /* scalars per task; a multiple of 64 */

typedef struct {
    const blst_scalar *scalars;
    cz_scalar_split *out;
    size_t *sig_count;  /* per chunk: significant scalars */
    size_t *ones_count; /* per chunk */
    uint8_t *sig_or;    /* per chunk: OR of the significant scalars' top bytes */
} split_job;

static inline int classify(const blst_scalar *s)
{
    /* 0: zero, 1: one, 2: significant */
    uint64_t w[4];
    memcpy(w, s->b, 32); /* little-endian host: word 0 is the low 64 bits */
    uint64_t high = w[1] | w[2] | w[3];
    if (high)
        return 2;
    return w[0] == 0 ? 0 : (w[0] == 1 ? 1 : 2);
}

static void split_count(void *p, size_t begin, size_t end, unsigned slot)
{
    const split_job *job = p;
    for (size_t c = begin; c < end; c++) {
        size_t lo = c * SPLIT_GRAIN, hi = lo + SPLIT_GRAIN;
        if (hi > job->out->n)
            hi = job->out->n;
        size_t sig = 0, ones = 0;
        uint8_t top[32] = { 0 };
        for (size_t i = lo; i < hi; i++) {
            int k = classify(&job->scalars[i]);
            if (k == 1) {
                job->out->ones[i / 64] |= 1ull << (i % 64);
                ones++;
            } else if (k == 2) {
                for (int j = 0; j < 32; j++)
                    top[j] |= job->scalars[i].b[j];
                sig++;
            }
        }
        job->sig_count[c] = sig;
        job->ones_count[c] = ones;
        memcpy(job->sig_or + 32 * c, top, 32);
    }
}

static void split_gather(void *p, size_t begin, size_t end, unsigned slot)
{
    const split_job *job = p;
    for (size_t c = begin; c < end; c++) {
        size_t lo = c * SPLIT_GRAIN, hi = lo + SPLIT_GRAIN;
        if (hi > job->out->n)
            hi = job->out->n;
        size_t k = job->sig_count[c]; /* now the chunk's first output slot */
        for (size_t i = lo; i < hi; i++) {
            if (classify(&job->scalars[i]) == 2) {
                job->out->sig_index[k] = (uint32_t)i;
                job->out->sig_scalar[k] = job->scalars[i];
                k++;
            }
        }
    }
}

void cz_scalar_split_free(cz_scalar_split *s)
{
    if (!s)
        return;
    free(s->ones);
    free(s->sig_index);
    free(s->sig_scalar);
    memset(s, 0, sizeof *s);
}

int cz_scalar_split_build(cz_ctx_t *ctx, cz_scalar_split *out, const blst_scalar *scalars, size_t n)
{
    memset(out, 0, sizeof *out);
    if (n > 0 && !scalars)
        return cz_fail(ctx, CZ_EINVAL, "scalar split: NULL scalars");
    if (n > UINT32_MAX)
        return cz_fail(ctx, CZ_ERANGE, "scalar split: %zu scalars (at most 2^32-1)", n);
    size_t chunks = (n + SPLIT_GRAIN - 1) / SPLIT_GRAIN;
    split_job job = { .scalars = scalars, .out = out };
    out->n = n;
    out->ones = calloc((n + 63) / 64 + 1, sizeof *out->ones);
    job.sig_count = calloc(chunks + 1, sizeof *job.sig_count);
    job.ones_count = calloc(chunks + 1, sizeof *job.ones_count);
    job.sig_or = calloc(chunks + 1, 32);
    int rc = CZ_OK;
    if (!out->ones || !job.sig_count || !job.ones_count || !job.sig_or) {
        rc = cz_fail(ctx, CZ_ENOMEM, "scalar split: bitmap for %zu scalars", n);
        goto done;
    }
    cz_pool_t *pool = cz_ctx_pool(ctx);
    cz_pool_for(pool, chunks, 1, split_count, &job);

    /* exclusive prefix sums: chunk c writes from sig_count[c] on */
    uint8_t top[32] = { 0 };
    size_t sig = 0;
    for (size_t c = 0; c < chunks; c++) {
        size_t k = job.sig_count[c];
        job.sig_count[c] = sig;
        sig += k;
        out->n_ones += job.ones_count[c];
        for (int j = 0; j < 32; j++)
            top[j] |= job.sig_or[32 * c + j];
    }
    out->n_sig = sig;
    out->n_zero = n - sig - out->n_ones;
    out->sig_bits = 0;
    for (int j = 31; j >= 0; j--) {
        if (top[j]) {
            out->sig_bits = (size_t)j * 8 + (size_t)(32 - __builtin_clz(top[j]));
            break;
        }
    }
    out->sig_index = malloc((sig ? sig : 1) * sizeof *out->sig_index);
    out->sig_scalar = malloc((sig ? sig : 1) * sizeof *out->sig_scalar);
    if (!out->sig_index || !out->sig_scalar) {
        rc = cz_fail(ctx, CZ_ENOMEM, "scalar split: %zu significant scalars", sig);
        goto done;
    }
    if (sig)
        cz_pool_for(pool, chunks, 1, split_gather, &job);
done:
    free(job.sig_count);
    free(job.ones_count);
    free(job.sig_or);
    if (rc)
        cz_scalar_split_free(out);
    return rc;
}

/* ---- restriction to a density ----------------------------------------------- */

/*
 * A params vector holds bases only for the density's set positions, so the
 * scalar for aux j multiplies base rank(j) = #{i < j : density[i]}. The
 * restriction maps the full split into that compacted index space: ones bit
 * j moves to bit rank(j) (a parallel bit extract per word, PEXT where the
 * CPU has BMI2), significant entry j to index rank(j); positions outside
 * the density are dropped.
 */

#define RANK_GRAIN 1024 /* words per task */

typedef struct {
    const cz_scalar_split *full;
    const uint64_t *density;
    size_t words;
    uint64_t *rank; /* words + 1: set density bits before word w */
    cz_scalar_split *out;
    size_t *kept; /* per sig chunk: significant entries kept */
    bool use_pext;
} restrict_job;

static uint64_t pext_portable(uint64_t src, uint64_t mask)
{
    uint64_t out = 0;
    for (unsigned k = 0; mask; k++) {
        unsigned bit = (unsigned)__builtin_ctzll(mask);
        out |= ((src >> bit) & 1) << k;
        mask &= mask - 1;
    }
    return out;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("bmi2"))) static uint64_t pext_bmi2(uint64_t src, uint64_t mask)
{
    return __builtin_ia32_pext_di(src, mask);
}
#define HAVE_PEXT_BMI2 1
#endif

static inline uint64_t density_word(const restrict_job *job, size_t w)
{
    uint64_t d = job->density[w];
    size_t n = job->full->n;
    if (w == job->words - 1 && n % 64)
        d &= (1ull << (n % 64)) - 1;
    return d;
}

static void rank_count(void *p, size_t begin, size_t end, unsigned slot)
{
    restrict_job *job = p;
    for (size_t c = begin; c < end; c++) {
        size_t w1 = (c + 1) * RANK_GRAIN < job->words ? (c + 1) * RANK_GRAIN : job->words;
        uint64_t sum = 0;
        for (size_t w = c * RANK_GRAIN; w < w1; w++)
            sum += (uint64_t)__builtin_popcountll(density_word(job, w));
        job->rank[c * RANK_GRAIN] = sum; /* chunk total, turned into a prefix below */
    }
}

static void rank_fill(void *p, size_t begin, size_t end, unsigned slot)
{
    restrict_job *job = p;
    for (size_t c = begin; c < end; c++) {
        size_t w1 = (c + 1) * RANK_GRAIN < job->words ? (c + 1) * RANK_GRAIN : job->words;
        uint64_t r = job->rank[c * RANK_GRAIN];
        for (size_t w = c * RANK_GRAIN; w < w1; w++) {
            job->rank[w] = r;
            r += (uint64_t)__builtin_popcountll(density_word(job, w));
        }
    }
}

static void compact_ones(void *p, size_t begin, size_t end, unsigned slot)
{
    restrict_job *job = p;
    uint64_t *dst = job->out->ones;
    for (size_t w = begin; w < end; w++) {
        uint64_t d = density_word(job, w);
        uint64_t src = job->full->ones[w];
#ifdef HAVE_PEXT_BMI2
        uint64_t bits = job->use_pext ? pext_bmi2(src, d) : pext_portable(src, d);
#else
        uint64_t bits = pext_portable(src, d);
#endif
        if (!bits)
            continue;
        uint64_t at = job->rank[w];
        unsigned shift = (unsigned)(at % 64);
        /* neighbouring words may be written by two tasks: OR atomically */
        __atomic_fetch_or(&dst[at / 64], bits << shift, __ATOMIC_RELAXED);
        if (shift && (bits >> (64 - shift)))
            __atomic_fetch_or(&dst[at / 64 + 1], bits >> (64 - shift), __ATOMIC_RELAXED);
    }
}

static inline bool in_density(const restrict_job *job, uint32_t j)
{
    return (job->density[j / 64] >> (j % 64)) & 1;
}

static void sig_count_kept(void *p, size_t begin, size_t end, unsigned slot)
{
    restrict_job *job = p;
    for (size_t c = begin; c < end; c++) {
        size_t i1 = (c + 1) * SPLIT_GRAIN < job->full->n_sig ? (c + 1) * SPLIT_GRAIN
                                                             : job->full->n_sig;
        size_t kept = 0;
        for (size_t i = c * SPLIT_GRAIN; i < i1; i++)
            kept += in_density(job, job->full->sig_index[i]);
        job->kept[c] = kept;
    }
}

static void sig_write_kept(void *p, size_t begin, size_t end, unsigned slot)
{
    restrict_job *job = p;
    for (size_t c = begin; c < end; c++) {
        size_t i1 = (c + 1) * SPLIT_GRAIN < job->full->n_sig ? (c + 1) * SPLIT_GRAIN
                                                             : job->full->n_sig;
        size_t k = job->kept[c]; /* the chunk's first output slot */
        for (size_t i = c * SPLIT_GRAIN; i < i1; i++) {
            uint32_t j = job->full->sig_index[i];
            if (!in_density(job, j))
                continue;
            uint64_t below = job->density[j / 64] & ((1ull << (j % 64)) - 1);
            job->out->sig_index[k] = (uint32_t)(job->rank[j / 64] +
                                                (uint64_t)__builtin_popcountll(below));
            job->out->sig_scalar[k] = job->full->sig_scalar[i];
            k++;
        }
    }
}

int cz_scalar_split_restrict(cz_ctx_t *ctx, cz_scalar_split *out, const cz_scalar_split *full,
                             const uint64_t *density)
{
    memset(out, 0, sizeof *out);
    if (!full || (full->n > 0 && !density))
        return cz_fail(ctx, CZ_EINVAL, "scalar split restrict: NULL argument");
    restrict_job job = { .full = full,
                         .density = density,
                         .words = (full->n + 63) / 64,
                         .out = out };
#ifdef HAVE_PEXT_BMI2
    job.use_pext = __builtin_cpu_supports("bmi2");
#endif
    size_t rank_chunks = (job.words + RANK_GRAIN - 1) / RANK_GRAIN;
    size_t sig_chunks = (full->n_sig + SPLIT_GRAIN - 1) / SPLIT_GRAIN;
    job.rank = calloc(job.words + 1, sizeof *job.rank);
    job.kept = calloc(sig_chunks + 1, sizeof *job.kept);
    int rc = CZ_OK;
    if (!job.rank || !job.kept) {
        rc = cz_fail(ctx, CZ_ENOMEM, "scalar split restrict: rank table for %zu words", job.words);
        goto done;
    }
    cz_pool_t *pool = cz_ctx_pool(ctx);
    cz_pool_for(pool, rank_chunks, 1, rank_count, &job);
    uint64_t total = 0;
    for (size_t c = 0; c < rank_chunks; c++) {
        uint64_t t = job.rank[c * RANK_GRAIN];
        job.rank[c * RANK_GRAIN] = total;
        total += t;
    }
    cz_pool_for(pool, rank_chunks, 1, rank_fill, &job);
    job.rank[job.words] = total;

    out->n = (size_t)total;
    out->ones = calloc((out->n + 63) / 64 + 1, sizeof *out->ones);
    if (!out->ones) {
        rc = cz_fail(ctx, CZ_ENOMEM, "scalar split restrict: bitmap of %zu bits", out->n);
        goto done;
    }
    cz_pool_for(pool, job.words, RANK_GRAIN, compact_ones, &job);
    out->n_ones = cz_bitmap_popcount(out->ones, out->n);

    cz_pool_for(pool, sig_chunks, 1, sig_count_kept, &job);
    size_t kept = 0;
    for (size_t c = 0; c < sig_chunks; c++) {
        size_t k = job.kept[c];
        job.kept[c] = kept;
        kept += k;
    }
    out->n_sig = kept;
    out->sig_bits = full->sig_bits;
    out->n_zero = out->n - out->n_ones - kept;
    out->sig_index = malloc((kept ? kept : 1) * sizeof *out->sig_index);
    out->sig_scalar = malloc((kept ? kept : 1) * sizeof *out->sig_scalar);
    if (!out->sig_index || !out->sig_scalar) {
        rc = cz_fail(ctx, CZ_ENOMEM, "scalar split restrict: %zu significant scalars", kept);
        goto done;
    }
    cz_pool_for(pool, sig_chunks, 1, sig_write_kept, &job);
done:
    free(job.rank);
    free(job.kept);
    if (rc)
        cz_scalar_split_free(out);
    return rc;
}
