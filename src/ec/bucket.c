/*
 * ec/bucket.c — the batched affine Pippenger tile and point sums
 * (ec/affine.h), written once over a backend's cz__aff_ops.
 *
 * A tile (one window of one point range) walks its points in chunks of
 * CHUNK. Per chunk: the points' signed digits are counting-sorted into one
 * list of references per bucket; rounds of pairwise additions — every pair
 * of every list in one batched call — halve the lists until each holds at
 * most one point; one last batched call adds each list's point into its
 * bucket. Every call adds distinct, independent pairs, so there are no
 * scheduling conflicts to defer, and a batch is as large as the chunk
 * allows. Buckets are affine; empty ones are tracked out of band (an
 * addition that cancels, A + (-A), empties its list entry or bucket).
 *
 * The window sum sum_k k * B_k is split into row and column sums of the
 * buckets (reduce_buckets), done by the same batched rounds: two affine
 * additions per bucket, and projective running sums over ~2 sqrt(m)
 * points only. ec/msm.c's plan prices both.
 *
 * Sums (the ones of the split MSM) are one list per chunk, reduced by the
 * same rounds, partial sums carried from chunk to chunk.
 *
 * NOT constant time (digits and points are public).
 */
#include <string.h>

#include "ec/affine.h"

#define CHUNK 4096 /* points per chunk */

/* ---- scratch layout ---------------------------------------------------- */

typedef struct {
    uint8_t *base;
    size_t used;
} bump;

/* the next |bytes| of |b|, 64-byte aligned (sizes only when base is NULL) */
static void *take(bump *b, size_t bytes)
{
    size_t at = (b->used + 63) & ~(size_t)63;
    b->used = at + bytes;
    return b->base ? b->base + at : NULL;
}

/* The lists being summed and the arrays their rounds use. */
typedef struct {
    const cz__aff_ops *ops;
    uint8_t *slots; /* cap sums */
    size_t nslots;
    cz__aff_ref *refs;     /* cap, list by list */
    uint32_t *start, *len; /* per list */
    uint32_t *active;      /* lists that may hold >= 2 refs */
    cz__aff_pair *pairs;   /* cap */
    uint32_t *pos;         /* per pair: index of its sum's ref */
    uint32_t *list;        /* per pair: its list (or bucket) */
    uint8_t *inf;          /* per pair */
    void *be;              /* backend scratch */
} lists;

/* |cap| refs in at most |nlists| lists */
static void lists_layout(lists *l, bump *b, const cz__aff_ops *ops, size_t cap, size_t nlists)
{
    l->ops = ops;
    l->slots = take(b, cap * ops->point_size);
    l->refs = take(b, cap * sizeof *l->refs);
    l->start = take(b, nlists * sizeof *l->start);
    l->len = take(b, nlists * sizeof *l->len);
    l->active = take(b, nlists * sizeof *l->active);
    l->pairs = take(b, cap * sizeof *l->pairs);
    l->pos = take(b, cap * sizeof *l->pos);
    l->list = take(b, cap * sizeof *l->list);
    l->inf = take(b, cap);
    l->be = take(b, ops->scratch_size);
}

/* Remove the refs of sums that came out as the point at infinity. */
static void drop_infinities(lists *l, size_t np)
{
    for (size_t i = 0; i < np; i++)
        if (l->inf[i])
            l->refs[l->pos[i]] = 0;
    for (size_t i = 0; i < np; i++) {
        if (!l->inf[i])
            continue;
        uint32_t b = l->list[i], st = l->start[b], k = 0;
        for (uint32_t j = 0; j < l->len[b]; j++)
            if (l->refs[st + j])
                l->refs[st + k++] = l->refs[st + j];
        l->len[b] = k;
    }
}

/*
 * Halve the |nactive| active lists by batched pairwise sums, round after
 * round, until each holds at most |stop| refs (stop >= 1). Sums take fresh slots (k refs
 * make at most k - 1 sums), so no sum overwrites an input of its own round.
 */
static void run_rounds(lists *l, size_t nactive, uint32_t stop)
{
    size_t ps = l->ops->point_size;
    while (nactive) {
        size_t np = 0, keep = 0;
        for (size_t k = 0; k < nactive; k++) {
            uint32_t b = l->active[k], st = l->start[b], n = l->len[b];
            if (n <= stop)
                continue;
            for (uint32_t j = 0; j < n / 2; j++) {
                void *slot = l->slots + l->nslots++ * ps;
                l->pairs[np] = (cz__aff_pair){ slot, l->refs[st + 2 * j], l->refs[st + 2 * j + 1] };
                l->pos[np] = st + j;
                l->list[np] = b;
                l->refs[st + j] = (cz__aff_ref)slot;
                np++;
            }
            if (n & 1)
                l->refs[st + n / 2] = l->refs[st + n - 1];
            l->len[b] = (n + 1) / 2;
            if (l->len[b] > stop)
                l->active[keep++] = b;
        }
        nactive = keep;
        if (np == 0)
            break;
        l->ops->add_pairs(l->pairs, np, l->inf, l->be);
        drop_infinities(l, np);
    }
}

/* ---- the tile ------------------------------------------------------------ */

typedef struct {
    lists l;
    uint8_t *buckets;   /* m points */
    uint8_t *occ;       /* m flags: bucket holds a point */
    uint8_t *aff;       /* m blst affine points (the reduction) */
    uint8_t *stage;     /* the reduction's row and column sums */
    uint8_t *conv;      /* CHUNK converted bases (non-native backends) */
    uint32_t *code;     /* CHUNK digits: bucket << 1 | negative, or UINT32_MAX */
    uint32_t *nonempty; /* lists with >= 1 ref this chunk */
} tile_scratch;

static size_t tile_layout(tile_scratch *t, void *base, const cz__aff_ops *ops, size_t window)
{
    size_t m = (size_t)1 << (window - 1);
    bump b = { base, 0 };
    lists_layout(&t->l, &b, ops, 2 * m > CHUNK ? 2 * m : CHUNK, m + 2);
    t->buckets = take(&b, m * ops->point_size);
    t->occ = take(&b, m);
    t->aff = take(&b, m * ops->group->affine_size);
    t->stage = take(&b, (((size_t)4 << (window / 2)) + 2) * ops->point_size);
    t->conv = take(&b, ops->native ? 0 : CHUNK * ops->point_size);
    t->code = take(&b, CHUNK * sizeof *t->code);
    t->nonempty = take(&b, m * sizeof *t->nonempty);
    return b.used + 64; /* + alignment of the base */
}

size_t cz__aff_tile_scratch_size(const cz__aff_ops *ops, size_t window)
{
    tile_scratch t;
    return tile_layout(&t, NULL, ops, window);
}

/*
 * The Booth digit of |s| for the window of c bits at bit0: the c+1 bits
 * [bit0 - 1, bit0 + c) (bit -1 = 0) give
 *     digit = bits[bit0, bit0+c) + bit(bit0-1) - 2^c bit(bit0+c-1),
 * in [-2^(c-1), 2^(c-1)]; the windows' digits telescope to the scalar.
 */
static inline int32_t booth_digit(const blst_scalar *s, size_t bit0, size_t c)
{
    uint64_t w[4], v;
    memcpy(w, s->b, sizeof w); /* little-endian host, as ec/split.c */
    if (bit0 == 0) {
        v = w[0] << 1;
    } else {
        size_t q = (bit0 - 1) / 64, r = (bit0 - 1) % 64;
        v = w[q] >> r;
        if (r && q + 1 < 4)
            v |= w[q + 1] << (64 - r);
    }
    v &= (2ull << c) - 1;
    return (int32_t)((v >> 1) + (v & 1)) - (int32_t)((v >> c) << c);
}

/* Sort the chunk's points into bucket lists; returns the number of lists. */
static size_t sort_chunk(tile_scratch *t, const uint8_t *pts, size_t stride,
                         const blst_scalar *scalars, size_t cn, size_t bit0, size_t window,
                         size_t *nactive, uint32_t *top)
{
    lists *l = &t->l;
    size_t nn = 0, na = 0, at = 0;
    for (size_t i = 0; i < cn; i++) {
        int32_t d = booth_digit(&scalars[i], bit0, window);
        if (d == 0) {
            t->code[i] = UINT32_MAX;
            continue;
        }
        uint32_t bucket = (uint32_t)(d < 0 ? -d : d) - 1;
        t->code[i] = bucket << 1 | (d < 0);
        if (l->len[bucket]++ == 0)
            t->nonempty[nn++] = bucket;
        if (bucket + 1 > *top)
            *top = bucket + 1;
    }
    for (size_t k = 0; k < nn; k++) {
        uint32_t b = t->nonempty[k];
        l->start[b] = (uint32_t)at;
        at += l->len[b];
        if (l->len[b] >= 2)
            l->active[na++] = b;
    }
    for (size_t i = 0; i < cn; i++) {
        uint32_t c = t->code[i];
        if (c != UINT32_MAX)
            l->refs[l->start[c >> 1]++] = (cz__aff_ref)(pts + i * stride) | (c & 1);
    }
    for (size_t k = 0; k < nn; k++)
        l->start[t->nonempty[k]] -= l->len[t->nonempty[k]];
    *nactive = na;
    return nn;
}

/* Add each non-empty list's point into its bucket: distinct buckets, one batch. */
static void merge_chunk(tile_scratch *t, size_t nn)
{
    lists *l = &t->l;
    const cz__aff_ops *ops = l->ops;
    size_t np = 0, ps = ops->point_size;
    for (size_t k = 0; k < nn; k++) {
        uint32_t b = t->nonempty[k];
        if (l->len[b] == 1) {
            uint8_t *bucket = t->buckets + b * ps;
            if (t->occ[b]) {
                l->pairs[np] = (cz__aff_pair){ bucket, (cz__aff_ref)bucket, l->refs[l->start[b]] };
                l->list[np++] = b;
            } else {
                ops->copy(bucket, l->refs[l->start[b]]);
                t->occ[b] = 1;
            }
        }
        l->len[b] = 0; /* ready for the next chunk */
    }
    if (np == 0)
        return;
    ops->add_pairs(l->pairs, np, l->inf, l->be);
    for (size_t i = 0; i < np; i++)
        if (l->inf[i])
            t->occ[l->list[i]] = 0;
}

/*
 * sum_k (k + w0) P_k over k < count by running sums in projective
 * coordinates: S_k = P_(count-1) + ... + P_k, sum = sum_(k >= 1 - w0) S_k.
 * |pts| are blst affine points, present where |occ| (NULL: all present).
 */
static void weighted_sum(const cz_group *g, void *out, const uint8_t *pts, const uint8_t *occ,
                         size_t count, size_t w0)
{
    uint8_t run[sizeof(blst_p2)] = { 0 }, sum[sizeof(blst_p2)] = { 0 };
    bool started = false;
    for (size_t k = count; k-- > 1 - w0;) {
        if (!occ || occ[k]) {
            g->add_affine(run, run, pts + k * g->affine_size);
            started = true;
        }
        if (started)
            g->add(sum, sum, run);
    }
    memcpy(out, sum, g->proj_size);
}

/*
 * out = sum_k (k+1) B_k over the first |top| buckets. With k = a s + b
 * (s = 2^h ~ sqrt(top), b < s) the sum is
 *     s * sum_a a G_a + sum_b (b+1) H_b,
 *     G_a = sum_b B_(a s + b) (rows),  H_b = sum_a B_(a s + b) (columns),
 * so the rows and columns are summed by batched rounds (2 top affine
 * additions) and only ~2 sqrt(top) points go through projective running
 * sums, instead of 2 projective additions per bucket.
 */
static void reduce_buckets(tile_scratch *t, void *out, uint32_t top)
{
    const cz__aff_ops *ops = t->l.ops;
    const cz_group *g = ops->group;
    lists *l = &t->l;
    size_t ps = ops->point_size, as = g->affine_size;
    size_t h = 0;
    while (((size_t)1 << (2 * h)) < top)
        h++;
    size_t s = (size_t)1 << h, rows = (top + s - 1) / s, nlists = rows + s;
    if (top <= 16) { /* few buckets: running sums over them directly */
        for (uint32_t b = 0; b < top; b++)
            if (!t->occ[b])
                memset(t->buckets + b * ps, 0, ps); /* defined input for the conversion */
        ops->to_blst(t->aff, t->buckets, top);
        weighted_sum(g, out, t->aff, t->occ, top, 1);
        return;
    }
    /* lists: row a = 0..rows-1, column b = rows + b */
    memset(l->len, 0, nlists * sizeof *l->len);
    for (uint32_t k = 0; k < top; k++)
        if (t->occ[k])
            l->len[k / s]++, l->len[rows + k % s]++;
    size_t at = 0, na = 0;
    for (size_t i = 0; i < nlists; i++) {
        l->start[i] = (uint32_t)at;
        at += l->len[i];
        if (l->len[i] >= 2)
            l->active[na++] = (uint32_t)i;
    }
    for (uint32_t k = 0; k < top; k++) {
        if (!t->occ[k])
            continue;
        cz__aff_ref r = (cz__aff_ref)(t->buckets + k * ps);
        l->refs[l->start[k / s]++] = r;
        l->refs[l->start[rows + k % s]++] = r;
    }
    for (size_t i = 0; i < nlists; i++)
        l->start[i] -= l->len[i];
    l->nslots = 0;
    run_rounds(l, na, 1);
    /* the row and column sums, in order, into t->aff via the backend format */
    uint8_t *sums = t->stage;
    uint8_t *present = t->occ; /* consumed: reused for the sums' flags */
    for (size_t i = 0; i < nlists; i++) {
        present[i] = l->len[i] == 1;
        if (present[i])
            ops->copy(sums + i * ps, l->refs[l->start[i]]);
        else
            memset(sums + i * ps, 0, ps);
    }
    ops->to_blst(t->aff, sums, nlists);
    uint8_t rsum[sizeof(blst_p2)], csum[sizeof(blst_p2)];
    weighted_sum(g, rsum, t->aff, present, rows, 0);
    weighted_sum(g, csum, t->aff + rows * as, present + rows, s, 1);
    for (size_t i = 0; i < h; i++)
        g->dbl(rsum, rsum);
    g->add(out, rsum, csum);
}

void cz__aff_tile(const cz__aff_ops *ops, void *out, const void *bases, bool converted,
                  const blst_scalar *scalars, size_t n, size_t bit0, size_t window, void *scratch)
{
    tile_scratch t;
    tile_layout(&t, (uint8_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63), ops, window);
    size_t m = (size_t)1 << (window - 1), ps = ops->point_size;
    bool native = ops->native || converted;
    size_t stride = native ? ps : ops->group->affine_size;
    memset(t.occ, 0, m);
    memset(t.l.len, 0, m * sizeof *t.l.len);
    uint32_t top = 0;
    for (size_t at = 0; at < n; at += CHUNK) {
        size_t cn = n - at < CHUNK ? n - at : CHUNK, nactive;
        const uint8_t *pts = (const uint8_t *)bases + at * stride;
        if (!native) {
            ops->from_blst(t.conv, pts, NULL, cn);
            pts = t.conv;
        }
        size_t nn = sort_chunk(&t, pts, native ? stride : ps, scalars + at, cn, bit0, window,
                               &nactive, &top);
        t.l.nslots = 0;
        run_rounds(&t.l, nactive, 1);
        merge_chunk(&t, nn);
    }
    reduce_buckets(&t, out, top);
}

/* ---- sums ------------------------------------------------------------------ */

/*
 * A sum runs chunk by chunk; a chunk's rounds stop at CARRY points, which
 * join the next chunk (the last rounds of a list are small batches, each
 * paying an inversion), and only the last chunk is summed to one point.
 */
#define CARRY 64

typedef struct {
    lists l;
    uint8_t *conv;     /* CHUNK converted bases (non-native backends) */
    uint8_t *carry[2]; /* CARRY points each: the previous chunk's partial sums */
    uint8_t *aff;      /* a blst affine point */
} sum_scratch;

static size_t sum_layout(sum_scratch *s, void *base, const cz__aff_ops *ops)
{
    bump b = { base, 0 };
    lists_layout(&s->l, &b, ops, CHUNK + CARRY, 1);
    s->conv = take(&b, ops->native ? 0 : CHUNK * ops->point_size);
    s->carry[0] = take(&b, CARRY * ops->point_size);
    s->carry[1] = take(&b, CARRY * ops->point_size);
    s->aff = take(&b, ops->group->affine_size);
    return b.used + 64;
}

size_t cz__aff_sum_scratch_size(const cz__aff_ops *ops)
{
    sum_scratch s;
    return sum_layout(&s, NULL, ops);
}

void cz__aff_sum(const cz__aff_ops *ops, void *out, const void *bases, const uint32_t *index,
                 size_t n, void *scratch)
{
    sum_scratch s;
    sum_layout(&s, (uint8_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63), ops);
    const cz_group *g = ops->group;
    size_t ps = ops->point_size, as = g->affine_size, carried = 0;
    memset(out, 0, g->proj_size);
    for (size_t at = 0, k = 0; at < n; at += CHUNK, k ^= 1) {
        size_t cn = n - at < CHUNK ? n - at : CHUNK;
        bool last = at + cn == n;
        const uint32_t *idx = index ? index + at : NULL;
        cz__aff_ref *refs = s.l.refs;
        for (size_t i = 0; i < carried; i++)
            refs[i] = (cz__aff_ref)(s.carry[k ^ 1] + i * ps);
        refs += carried;
        if (ops->native) {
            for (size_t i = 0; i < cn; i++)
                refs[i] = (cz__aff_ref)((const uint8_t *)bases + (idx ? idx[i] : at + i) * as);
        } else {
            ops->from_blst(s.conv, idx ? bases : (const uint8_t *)bases + at * as, idx, cn);
            for (size_t i = 0; i < cn; i++)
                refs[i] = (cz__aff_ref)(s.conv + i * ps);
        }
        uint32_t stop = last ? 1 : CARRY;
        s.l.start[0] = 0;
        s.l.len[0] = (uint32_t)(carried + cn);
        s.l.active[0] = 0;
        s.l.nslots = 0;
        run_rounds(&s.l, s.l.len[0] > stop, stop);
        /* the partial sums move to this chunk's carry buffer (the other one
         * may still be referenced) */
        carried = s.l.len[0];
        for (size_t i = 0; i < carried; i++)
            ops->copy(s.carry[k] + i * ps, s.l.refs[i]);
    }
    if (carried == 1) {
        ops->to_blst(s.aff, s.carry[(n - 1) / CHUNK % 2], 1);
        g->add_affine(out, out, s.aff);
    }
}
