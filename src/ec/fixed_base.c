/*
 * ec/fixed_base.c — fixed-base multiplication by a window table (see
 * fixed_base.h for the method and its caveat: not constant time).
 */
#include "ec/fixed_base.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"

#define SCALAR_BITS 255u /* scalars are < r < 2^255 */
#define CHUNK 256u       /* products per affine conversion */

struct cz_fixed_base {
    const cz_group *g;
    unsigned w, nwin; /* window bits, number of windows */
    size_t per_win;   /* 2^w - 1 entries per window */
    uint8_t *table;   /* nwin * per_win affine points */
};

static unsigned nwindows(unsigned w)
{
    return (SCALAR_BITS + w - 1) / w;
}

unsigned cz_fixed_base_window(size_t n)
{
    unsigned best = 2;
    double best_cost = 0;
    for (unsigned w = 2; w <= 14; w++) {
        double cost = (double)nwindows(w) * ((double)n + (double)((size_t)1 << w));
        if (w == 2 || cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

/* ---- table ------------------------------------------------------------------ */

typedef struct {
    cz_fixed_base_t *fb;
    const uint8_t *wbase; /* nwin projective points: 2^(w i) * P */
    uint8_t *proj;        /* per_win projective points per slot */
} build_job;

/* Windows [begin, end): d * 2^(w i) P for d = 1 .. 2^w - 1, then to affine. */
static void build_windows(void *arg, size_t begin, size_t end, unsigned slot)
{
    build_job *j = arg;
    const cz_fixed_base_t *fb = j->fb;
    const cz_group *g = fb->g;
    uint8_t *proj = j->proj + (size_t)slot * fb->per_win * g->proj_size;
    for (size_t i = begin; i < end; i++) {
        const void *b = j->wbase + i * g->proj_size;
        memcpy(proj, b, g->proj_size);
        for (size_t d = 1; d < fb->per_win; d++)
            g->add(proj + d * g->proj_size, proj + (d - 1) * g->proj_size, b);
        const void *arr[2] = { proj, NULL };
        g->to_affine_many(fb->table + i * fb->per_win * g->affine_size, arr, fb->per_win);
    }
}

int cz_fixed_base_new(cz_ctx_t *ctx, cz_fixed_base_t **out, const cz_group *g, const void *base,
                      unsigned window, size_t n_hint)
{
    if (!out || !g || !base)
        return cz_fail(ctx, CZ_EINVAL, "fixed base: NULL argument");
    *out = NULL;
    if (window == 0)
        window = cz_fixed_base_window(n_hint);
    if (window > CZ_FIXED_BASE_MAX_WINDOW)
        return cz_fail(ctx, CZ_EINVAL, "fixed base: window %u bits (max %u)", window,
                       CZ_FIXED_BASE_MAX_WINDOW);
    cz_fixed_base_t *fb = calloc(1, sizeof *fb);
    if (!fb)
        return cz_fail(ctx, CZ_ENOMEM, "fixed base: out of memory");
    fb->g = g;
    fb->w = window;
    fb->nwin = nwindows(window);
    fb->per_win = ((size_t)1 << window) - 1;

    cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
    size_t tbytes = (size_t)fb->nwin * fb->per_win * g->affine_size;
    fb->table = malloc(tbytes);
    uint8_t *wbase = malloc((size_t)fb->nwin * g->proj_size);
    uint8_t *proj = malloc((size_t)cz_pool_width(pool) * fb->per_win * g->proj_size);
    if (!fb->table || !wbase || !proj) {
        int rc = cz_fail(ctx, CZ_ENOMEM, "fixed base: %s table of %u x %zu points (%zu bytes)",
                         g->name, fb->nwin, fb->per_win, tbytes);
        free(wbase);
        free(proj);
        cz_fixed_base_free(fb);
        return rc;
    }
    /* wbase[i] = 2^(w i) P by doubling. */
    memcpy(wbase, base, g->proj_size);
    for (unsigned i = 1; i < fb->nwin; i++) {
        uint8_t *p = wbase + i * g->proj_size;
        memcpy(p, p - g->proj_size, g->proj_size);
        for (unsigned b = 0; b < window; b++)
            g->dbl(p, p);
    }
    build_job job = { .fb = fb, .wbase = wbase, .proj = proj };
    cz_pool_for(pool, fb->nwin, 1, build_windows, &job);
    free(wbase);
    free(proj);
    *out = fb;
    return CZ_OK;
}

void cz_fixed_base_free(cz_fixed_base_t *fb)
{
    if (!fb)
        return;
    free(fb->table);
    free(fb);
}

unsigned cz_fixed_base_window_of(const cz_fixed_base_t *fb)
{
    return fb ? fb->w : 0;
}

/* ---- products ----------------------------------------------------------------- */

/* Bits [bit, bit + w) of the little-endian scalar (w <= 16, bit < 256). */
static inline size_t digit(const uint8_t *k, unsigned bit, unsigned w)
{
    uint32_t v = 0;
    unsigned byte = bit >> 3;
    for (unsigned i = 0; i < 4 && byte + i < 32; i++)
        v |= (uint32_t)k[byte + i] << (8 * i);
    return (v >> (bit & 7)) & ((1u << w) - 1);
}

typedef struct {
    const cz_fixed_base_t *fb;
    uint8_t *out;
    const blst_scalar *k;
    size_t n;
    uint8_t *scratch; /* CHUNK projective points per slot */
} mul_job;

static void mul_chunks(void *arg, size_t begin, size_t end, unsigned slot)
{
    mul_job *j = arg;
    const cz_fixed_base_t *fb = j->fb;
    const cz_group *g = fb->g;
    uint8_t *acc = j->scratch + (size_t)slot * CHUNK * g->proj_size;
    bool inf[CHUNK];
    for (size_t c = begin; c < end; c++) {
        size_t first = c * CHUNK, m = j->n - first < CHUNK ? j->n - first : CHUNK;
        for (size_t t = 0; t < m; t++) {
            uint8_t *p = acc + t * g->proj_size;
            const uint8_t *k = j->k[first + t].b;
            memset(p, 0, g->proj_size); /* infinity */
            inf[t] = true;
            for (unsigned i = 0; i < fb->nwin; i++) {
                size_t d = digit(k, i * fb->w, fb->w);
                if (d) {
                    g->add_affine(p, p, fb->table + (i * fb->per_win + d - 1) * g->affine_size);
                    inf[t] = false;
                }
            }
            /*
             * k = 0. blst's batch conversion multiplies every Z together,
             * so one Z = 0 would spoil the whole chunk: convert a stand-in
             * (P itself) and write infinity afterwards.
             */
            if (inf[t])
                g->from_affine(p, fb->table);
        }
        uint8_t *out = j->out + first * g->affine_size;
        const void *arr[2] = { acc, NULL };
        g->to_affine_many(out, arr, m);
        for (size_t t = 0; t < m; t++)
            if (inf[t])
                memset(out + t * g->affine_size, 0, g->affine_size);
    }
}

int cz_fixed_base_mul(cz_ctx_t *ctx, const cz_fixed_base_t *fb, void *out, const blst_scalar *k,
                      size_t n)
{
    if (n == 0)
        return CZ_OK;
    if (!fb || !out || !k)
        return cz_fail(ctx, CZ_EINVAL, "fixed base mul: NULL argument");
    cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
    size_t chunks = (n + CHUNK - 1) / CHUNK;
    uint8_t *scratch = malloc((size_t)cz_pool_width(pool) * CHUNK * fb->g->proj_size);
    if (!scratch)
        return cz_fail(ctx, CZ_ENOMEM, "fixed base mul: scratch");
    mul_job job = { .fb = fb, .out = out, .k = k, .n = n, .scratch = scratch };
    cz_pool_for(pool, chunks, 1, mul_chunks, &job);
    free(scratch);
    return CZ_OK;
}

static int mul_many(cz_ctx_t *ctx, const cz_group *g, void *out, const void *base,
                    const blst_scalar *k, size_t n)
{
    if (n == 0)
        return CZ_OK;
    cz_fixed_base_t *fb;
    int rc = cz_fixed_base_new(ctx, &fb, g, base, 0, n);
    if (rc)
        return rc;
    rc = cz_fixed_base_mul(ctx, fb, out, k, n);
    cz_fixed_base_free(fb);
    return rc;
}

int cz_g1_fixed_base_mul_many(cz_ctx_t *ctx, blst_p1_affine *out, const blst_p1 *base,
                              const blst_scalar *k, size_t n)
{
    return mul_many(ctx, &CZ_G1, out, base, k, n);
}

int cz_g2_fixed_base_mul_many(cz_ctx_t *ctx, blst_p2_affine *out, const blst_p2 *base,
                              const blst_scalar *k, size_t n)
{
    return mul_many(ctx, &CZ_G2, out, base, k, n);
}
