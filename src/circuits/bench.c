/*
 * circuits/bench.c — the synthetic PoRep-shaped circuit (see bench.h).
 *
 * One description of a block serves both paths: step_at() says what step s
 * is (kind and operand steps), block_values() computes the values of a
 * block's steps from its random bits, and two emitters turn a step into
 * either cs calls (emit_cs: linear combinations, cz_cs_enforce) or direct
 * writes of a/b/c and density bits (emit_direct: the value each combination
 * evaluates to). The two emitters are the only code that must agree; the
 * tests compare their output byte for byte.
 */
#include "circuits/bench.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/fault.h"
#include "core/pool.h"
#include "core/recycle.h"

/* ---- the block ------------------------------------------------------------ */

enum {
    NBITS = 254,   /* decomposed bits b_0..b_253 */
    S_X = 254,     /* x = pack of the bits */
    NCHAIN = 1012, /* chain steps t_1..t_1012 */
    S_T1 = 255,    /* step of t_1 (t_k is step 254 + k) */
    PACKW = 253,   /* chain bits per packed number */
    NPACK = 4,
    S_PACK = S_T1 + NCHAIN, /* 1267 */
    S_MIX = S_PACK + NPACK, /* 1271 */
    S_SQ = S_MIX + NPACK,   /* 1275 */
    NSQ = 4,                /* square chains */
    SQLEN = 14,             /* steps per square chain */
    RSTRIDE = 109,          /* chain operand u_k = b_(109 k mod 254) */
    AND_EVERY = 7,          /* k % 7 == 0: AND, else XOR */
    SWAP_EVERY = 37,        /* k % 37 == 0: t_(k-1) goes to B */
};
_Static_assert(S_SQ + NSQ * SQLEN == CZ_BENCH_BLOCK, "block size");
_Static_assert(NPACK *PACKW == NCHAIN, "packs cover the chain exactly");

typedef enum { K_BOOL, K_PACK, K_XOR, K_AND, K_MIX, K_SQ0, K_SQ } kind_t;

/*
 * Step s of a block: its kind and operands (block-local step indices).
 *   BOOL  (ONE - s) * s = 0
 *   PACK  (sum_{i<n} 2^i [first+i]) * ONE = s
 *   XOR   (2 l) * r = l + r - s          AND  l * r = s
 *   MIX   (l + r) * r = s
 *   SQ0   (l + q ONE) * (l + q ONE) = s  SQ   l * l = s
 */
typedef struct {
    kind_t kind;
    uint32_t l, r;     /* operands (BOOL: none) */
    uint32_t first, n; /* PACK */
    uint32_t q;        /* SQ0 */
} step_t;

static step_t step_at(uint32_t s)
{
    step_t st = { 0 };
    if (s < NBITS) {
        st.kind = K_BOOL;
    } else if (s == S_X) {
        st.kind = K_PACK;
        st.first = 0;
        st.n = NBITS;
    } else if (s < S_PACK) {
        uint32_t k = s - S_X;               /* t_k, k = 1..NCHAIN */
        uint32_t left = k == 1 ? 0 : s - 1; /* t_0 = b_0 */
        uint32_t u = (RSTRIDE * k) % NBITS;
        st.kind = k % AND_EVERY == 0 ? K_AND : K_XOR;
        bool swap = k % SWAP_EVERY == 0;
        st.l = swap ? u : left;
        st.r = swap ? left : u;
    } else if (s < S_MIX) {
        st.kind = K_PACK;
        st.first = S_T1 + (s - S_PACK) * PACKW;
        st.n = PACKW;
    } else if (s < S_SQ) {
        uint32_t p = s - S_MIX;
        st.kind = K_MIX;
        st.l = p == 0 ? S_X : s - 1; /* y_p, y_0 = x */
        st.r = S_PACK + p;           /* num_p */
    } else {
        uint32_t j = s - S_SQ;
        if (j % SQLEN == 0) {
            st.kind = K_SQ0;
            st.l = S_SQ - 1; /* y_NPACK */
            st.q = j / SQLEN;
        } else {
            st.kind = K_SQ;
            st.l = s - 1;
        }
    }
    return st;
}

/* splitmix64 finalizer: block k's stream is seeded by mix(seed ^ mix(k)). */
static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline const cz_fr *fr_bit(unsigned bit)
{
    return bit ? &CZ_FR_ONE : &CZ_FR_ZERO;
}

/*
 * Values of steps [0, nsteps) of block |block| into v[0..nsteps). |bits|
 * is CZ_BENCH_BLOCK bytes of scratch (the 0/1 values of bit-valued steps).
 */
static void block_values(cz_fr *v, uint8_t *bits, uint64_t seed, size_t block, uint32_t nsteps)
{
    cz_rng rng;
    cz_rng_seed(&rng, mix64(seed ^ mix64((uint64_t)block)));
    uint64_t w[4];
    for (int i = 0; i < 4; i++)
        w[i] = cz_rng_next(&rng);
    for (uint32_t s = 0; s < nsteps; s++) {
        step_t st = step_at(s);
        switch (st.kind) {
        case K_BOOL:
            bits[s] = (uint8_t)((w[s >> 6] >> (s & 63)) & 1);
            v[s] = *fr_bit(bits[s]);
            break;
        case K_PACK: {
            uint8_t repr[32] = { 0 };
            for (uint32_t i = 0; i < st.n; i++)
                repr[i >> 3] |= (uint8_t)(bits[st.first + i] << (i & 7));
            (void)cz_fr_from_repr(&v[s], repr); /* < 2^254 < r: cannot fail */
            break;
        }
        case K_XOR:
            bits[s] = bits[st.l] ^ bits[st.r];
            v[s] = *fr_bit(bits[s]);
            break;
        case K_AND:
            bits[s] = bits[st.l] & bits[st.r];
            v[s] = *fr_bit(bits[s]);
            break;
        case K_MIX: {
            cz_fr t;
            cz_fr_add(&t, &v[st.l], &v[st.r]);
            cz_fr_mul(&v[s], &t, &v[st.r]);
            break;
        }
        case K_SQ0: {
            cz_fr q, t;
            cz_fr_from_u64(&q, st.q);
            cz_fr_add(&t, &v[st.l], &q);
            cz_fr_sqr(&v[s], &t);
            break;
        }
        case K_SQ: cz_fr_sqr(&v[s], &v[st.l]); break;
        }
    }
}

/* The aux that public input i + 1 copies: the last ones of the body. */
static inline size_t inputized(size_t body, size_t i)
{
    return body - 1 - i % body;
}

/* ---- params, parse, shape ------------------------------------------------- */

void cz_bench_params_init(cz_bench_params *p, size_t rows)
{
    memset(p, 0, sizeof *p);
    p->rows = rows;
    p->num_public = CZ_BENCH_DEFAULT_PUBLIC;
}

/* "65536", "2^16", "64K", "64Ki", "1M", "1Gi" -> *out; false on junk or overflow. */
static bool parse_count(const char *s, size_t *out)
{
    if (*s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return false;
    if (*end == '^') {
        if (v != 2 || end[1] < '0' || end[1] > '9')
            return false;
        unsigned long long e = strtoull(end + 1, &end, 10);
        if (e > 62)
            return false;
        v = 1ull << e;
    } else if (*end == 'K' || *end == 'M' || *end == 'G') {
        unsigned shift = *end == 'K' ? 10 : *end == 'M' ? 20 : 30;
        end += end[1] == 'i' ? 2 : 1;
        if (v > (~0ull >> shift))
            return false;
        v <<= shift;
    }
    if (*end || v > SIZE_MAX)
        return false;
    *out = (size_t)v;
    return true;
}

int cz_bench_parse(cz_ctx_t *ctx, const char *id, cz_bench_params *out)
{
    static const char prefix[] = "bench:";
    size_t rows;
    if (!id || !out)
        return cz_fail(ctx, CZ_EINVAL, "bench: NULL argument");
    if (strncmp(id, prefix, sizeof prefix - 1) != 0)
        return cz_fail(ctx, CZ_EINVAL, "'%s' is not a bench circuit (want bench:N)", id);
    if (!parse_count(id + sizeof prefix - 1, &rows))
        return cz_fail(ctx, CZ_EINVAL,
                       "'%s': bad row count (want e.g. bench:65536, bench:2^16, bench:64Ki)", id);
    cz_bench_params_init(out, rows);
    cz_bench_shape_t shape;
    return cz_bench_shape(ctx, out, &shape);
}

/* ---- direct emission (witness generator, shape) --------------------------- */

typedef struct {
    cz_fr *a, *b;            /* rows, indexed by base + s; NULL: densities only */
    cz_fr *c;                /* likewise; NULL: not wanted (c = a*b, cs/cs.h) */
    uint64_t *a_aux, *b_aux; /* global bitmaps, bit base + step */
    size_t base;
    bool one_in_b; /* some B contained ONE */
} sink_t;

static inline void set_bit(uint64_t *w, size_t j)
{
    w[j >> 6] |= 1ull << (j & 63);
}

/* What emit_cs's combinations evaluate to, and the same density bits. */
static void emit_direct(sink_t *k, const cz_fr *v, uint32_t s, const step_t *st)
{
    size_t base = k->base, row = base + s;
    cz_fr *a = k->a ? &k->a[row] : NULL, *b = k->a ? &k->b[row] : NULL;
    cz_fr *c = k->c ? &k->c[row] : NULL;
    switch (st->kind) {
    case K_BOOL: /* (ONE - s) * s = 0 */
        set_bit(k->a_aux, base + s);
        set_bit(k->b_aux, base + s);
        if (a) {
            cz_fr_sub(a, &CZ_FR_ONE, &v[s]);
            *b = v[s];
            if (c)
                *c = CZ_FR_ZERO;
        }
        break;
    case K_PACK: /* (sum 2^i bit_i) * ONE = s */
        for (uint32_t i = 0; i < st->n; i++)
            set_bit(k->a_aux, base + st->first + i);
        k->one_in_b = true;
        if (a) {
            *a = v[s];
            *b = CZ_FR_ONE;
            if (c)
                *c = v[s];
        }
        break;
    case K_XOR: /* (2 l) * r = l + r - s */
        set_bit(k->a_aux, base + st->l);
        set_bit(k->b_aux, base + st->r);
        if (a) {
            cz_fr_add(a, &v[st->l], &v[st->l]);
            *b = v[st->r];
            if (c) {
                cz_fr_add(c, &v[st->l], &v[st->r]);
                cz_fr_sub(c, c, &v[s]);
            }
        }
        break;
    case K_AND: /* l * r = s */
        set_bit(k->a_aux, base + st->l);
        set_bit(k->b_aux, base + st->r);
        if (a) {
            *a = v[st->l];
            *b = v[st->r];
            if (c)
                *c = v[s];
        }
        break;
    case K_MIX: /* (l + r) * r = s */
        set_bit(k->a_aux, base + st->l);
        set_bit(k->a_aux, base + st->r);
        set_bit(k->b_aux, base + st->r);
        if (a) {
            cz_fr_add(a, &v[st->l], &v[st->r]);
            *b = v[st->r];
            if (c)
                *c = v[s];
        }
        break;
    case K_SQ0: /* (l + q ONE)^2 = s */
    case K_SQ:  /* l * l = s */
        set_bit(k->a_aux, base + st->l);
        set_bit(k->b_aux, base + st->l);
        if (st->kind == K_SQ0 && st->q)
            k->one_in_b = true;
        if (a) {
            if (st->kind == K_SQ0) {
                cz_fr q;
                cz_fr_from_u64(&q, st->q);
                cz_fr_add(a, &v[st->l], &q);
            } else {
                *a = v[st->l];
            }
            *b = *a;
            if (c)
                *c = v[s];
        }
        break;
    }
}

static size_t popcount_words(const uint64_t *w, size_t nbits)
{
    size_t pop = 0;
    for (size_t i = 0; i < (nbits + 63) / 64; i++)
        pop += (size_t)__builtin_popcountll(w[i]);
    return pop;
}

/* Density counts of the first |nsteps| steps of a block (a_aux, b_aux, ONE in B). */
static void block_density(uint32_t nsteps, size_t *a_pop, size_t *b_pop, bool *one_in_b)
{
    uint64_t abits[(CZ_BENCH_BLOCK + 63) / 64] = { 0 }, bbits[(CZ_BENCH_BLOCK + 63) / 64] = { 0 };
    sink_t k = { .a_aux = abits, .b_aux = bbits };
    for (uint32_t s = 0; s < nsteps; s++) {
        step_t st = step_at(s);
        emit_direct(&k, NULL, s, &st);
    }
    *a_pop = popcount_words(abits, CZ_BENCH_BLOCK);
    *b_pop = popcount_words(bbits, CZ_BENCH_BLOCK);
    *one_in_b = k.one_in_b;
}

int cz_bench_shape(cz_ctx_t *ctx, const cz_bench_params *p, cz_bench_shape_t *out)
{
    memset(out, 0, sizeof *out);
    size_t I = p->num_public;
    if (I > (SIZE_MAX - 2) / 2 || p->rows < 2 * I + 2)
        return cz_fail(ctx, CZ_EINVAL,
                       "bench: %zu rows are too few for %zu public inputs "
                       "(need >= %zu)",
                       p->rows, I, I < SIZE_MAX / 4 ? 2 * I + 2 : 0);
    if (p->rows >= ((size_t)1 << 31))
        return cz_fail(ctx, CZ_EINVAL, "bench: %zu rows (limit 2^31 - 1)", p->rows);
    size_t body = p->rows - 2 * I - 1;
    out->rows = p->rows;
    out->num_inputs = I + 1;
    out->constraints = p->rows - I - 1;
    out->num_aux = body;
    out->full_blocks = body / CZ_BENCH_BLOCK;
    out->last_steps = body % CZ_BENCH_BLOCK;

    size_t fa = 0, fb = 0, la = 0, lb = 0;
    bool f1 = false, l1 = false;
    if (out->full_blocks)
        block_density(CZ_BENCH_BLOCK, &fa, &fb, &f1);
    if (out->last_steps)
        block_density((uint32_t)out->last_steps, &la, &lb, &l1);
    out->a_aux_popcount = out->full_blocks * fa + la;
    out->b_aux_popcount = out->full_blocks * fb + lb;
    out->b_input_popcount = (I > 0 || f1 || l1) ? 1 : 0; /* inputize: x * ONE = aux */
    unsigned k = 0;
    while (((size_t)1 << k) < out->rows)
        k++;
    out->log_domain = k;
    return CZ_OK;
}

/* ---- synthesis through the constraint system ------------------------------ */

/* Reused combinations and the pack coefficients 2^i. */
typedef struct {
    cz_lc_t a, b, c;
    cz_fr pow2[NBITS];
} cs_scratch;

static inline cz_var_t aux_var(size_t base, uint32_t s)
{
    return cz_var_aux((uint32_t)(base + s));
}

/* Step s of the block at aux |base|: allocate it (value v[s], or none) and enforce. */
static int emit_cs(cz_cs_t *cs, cs_scratch *w, size_t base, const cz_fr *v, uint32_t s,
                   const step_t *st, size_t corrupt)
{
    cz_var_t var;
    const cz_fr *val = v ? &v[s] : NULL;
    cz_fr bad;
    if (val && corrupt && corrupt - 1 == base + s) {
        cz_fr_add(&bad, val, &CZ_FR_ONE); /* + 2: a bit stays non-boolean */
        cz_fr_add(&bad, &bad, &CZ_FR_ONE);
        val = &bad;
    }
    int rc = cz_cs_alloc(cs, &var, val);
    if (rc)
        return rc;
    if (cz_var_index(var) != base + s)
        return cz_fail(NULL, CZ_EINTERNAL, "bench: aux %u != step %zu", cz_var_index(var),
                       base + s);
    cz_lc_t *a = &w->a, *b = &w->b, *c = &w->c;
    cz_lc_clear(a);
    cz_lc_clear(b);
    cz_lc_clear(c);
    cz_var_t l = aux_var(base, st->l), r = aux_var(base, st->r);
    const char *name = NULL;
    switch (st->kind) {
    case K_BOOL:
        cz_lc_add(a, CZ_VAR_ONE);
        cz_lc_sub(a, var);
        cz_lc_add(b, var);
        name = "bool";
        break;
    case K_PACK:
        for (uint32_t i = 0; i < st->n; i++)
            cz_lc_add_term(a, &w->pow2[i], aux_var(base, st->first + i));
        cz_lc_add(b, CZ_VAR_ONE);
        cz_lc_add(c, var);
        name = "pack";
        break;
    case K_XOR: {
        cz_fr two;
        cz_fr_add(&two, &CZ_FR_ONE, &CZ_FR_ONE);
        cz_lc_add_term(a, &two, l);
        cz_lc_add(b, r);
        cz_lc_add(c, l);
        cz_lc_add(c, r);
        cz_lc_sub(c, var);
        name = "xor";
        break;
    }
    case K_AND:
        cz_lc_add(a, l);
        cz_lc_add(b, r);
        cz_lc_add(c, var);
        name = "and";
        break;
    case K_MIX:
        cz_lc_add(a, l);
        cz_lc_add(a, r);
        cz_lc_add(b, r);
        cz_lc_add(c, var);
        name = "mix";
        break;
    case K_SQ0:
    case K_SQ:
        cz_lc_add(a, l);
        if (st->kind == K_SQ0 && st->q) {
            cz_fr q;
            cz_fr_from_u64(&q, st->q);
            cz_lc_add_term(a, &q, CZ_VAR_ONE);
        }
        cz_lc_copy(b, a);
        cz_lc_add(c, var);
        name = "square";
        break;
    }
    return cz_cs_enforce(cs, a, b, c, name);
}

int cz_bench_circuit(cz_cs_t *cs, const cz_bench_params *p)
{
    cz_bench_shape_t sh;
    int rc = cz_bench_shape(NULL, p, &sh);
    if (rc)
        return rc;
    if ((rc = cz_cs_reserve(cs, sh.constraints, sh.num_aux, sh.num_inputs)))
        return rc;
    bool vals = cz_cs_needs_values(cs);
    cs_scratch *w = calloc(1, sizeof *w);
    cz_fr *v = vals ? malloc(CZ_BENCH_BLOCK * sizeof *v) : NULL;
    uint8_t *bits = vals ? malloc(CZ_BENCH_BLOCK) : NULL;
    if (!w || (vals && (!v || !bits))) {
        rc = CZ_ENOMEM;
        goto out;
    }
    w->pow2[0] = CZ_FR_ONE;
    for (int i = 1; i < NBITS; i++)
        cz_fr_add(&w->pow2[i], &w->pow2[i - 1], &w->pow2[i - 1]);

    size_t nblocks = sh.full_blocks + (sh.last_steps ? 1 : 0);
    for (size_t blk = 0; blk < nblocks && !rc; blk++) {
        uint32_t n = blk < sh.full_blocks ? CZ_BENCH_BLOCK : (uint32_t)sh.last_steps;
        size_t base = blk * CZ_BENCH_BLOCK;
        if (vals)
            block_values(v, bits, p->seed, blk, n);
        if ((rc = cz_cs_pushf(cs, "block%zu", blk)))
            break;
        for (uint32_t s = 0; s < n && !rc; s++) {
            step_t st = step_at(s);
            rc = emit_cs(cs, w, base, v, s, &st, p->test_corrupt_aux);
        }
        if (!rc)
            rc = cz_cs_pop(cs);
    }
    /* Inputize: x_i * ONE = aux[inputized(i)] (BPC num.rs, FACTS 4). */
    if (!rc)
        rc = cz_cs_push(cs, "inputs");
    for (size_t i = 0; i < p->num_public && !rc; i++) {
        cz_var_t x, src = cz_var_aux((uint32_t)inputized(sh.num_aux, i));
        cz_fr xv;
        if (vals && (rc = cz_cs_value(cs, src, &xv)))
            break;
        if ((rc = cz_cs_alloc_input(cs, &x, vals ? &xv : NULL)))
            break;
        cz_lc_clear(&w->a);
        cz_lc_clear(&w->b);
        cz_lc_clear(&w->c);
        cz_lc_add(&w->a, x);
        cz_lc_add(&w->b, CZ_VAR_ONE);
        cz_lc_add(&w->c, src);
        rc = cz_cs_enforce(cs, &w->a, &w->b, &w->c, "inputize");
    }
    if (!rc)
        rc = cz_cs_pop(cs);
out:
    if (w) {
        cz_lc_free(&w->a);
        cz_lc_free(&w->b);
        cz_lc_free(&w->c);
    }
    free(w);
    free(v);
    free(bits);
    return rc;
}

/* ---- the witness-only generator ------------------------------------------- */

/* Blocks per task: 64 blocks span 64 * 1331 bits, a whole number of words. */
#define GROUP 64u

typedef struct {
    const cz_bench_params *p;
    const cz_bench_shape_t *sh;
    cz_cs_witness_t *w;
    int one_in_b; /* set (atomically) when any block put ONE in B */
} gen_job;

static void gen_blocks(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    gen_job *j = arg;
    const cz_bench_shape_t *sh = j->sh;
    size_t nblocks = sh->full_blocks + (sh->last_steps ? 1 : 0);
    uint8_t bits[CZ_BENCH_BLOCK];
    sink_t k = { .a = j->w->a,
                 .b = j->w->b,
                 .c = j->w->c,
                 .a_aux = j->w->density[CZ_DENSITY_A_AUX],
                 .b_aux = j->w->density[CZ_DENSITY_B_AUX] };
    for (size_t g = begin; g < end; g++) {
        for (size_t blk = g * GROUP; blk < (g + 1) * GROUP && blk < nblocks; blk++) {
            uint32_t n = blk < sh->full_blocks ? CZ_BENCH_BLOCK : (uint32_t)sh->last_steps;
            k.base = blk * CZ_BENCH_BLOCK;
            cz_fr *v = j->w->aux + k.base;
            block_values(v, bits, j->p->seed, blk, n);
            for (uint32_t s = 0; s < n; s++) {
                step_t st = step_at(s);
                emit_direct(&k, v, s, &st);
            }
        }
    }
    if (k.one_in_b)
        __atomic_store_n(&j->one_in_b, 1, __ATOMIC_RELAXED);
}

/* Large arrays: ask for huge pages (first-touch faults dominate otherwise). */
/* A witness array: a warm block from the ctx's recycler (core/recycle.h;
 * contents not zeroed: used only for arrays written in full), else fresh. */
static void *big_alloc(cz_ctx_t *ctx, size_t bytes, bool zero)
{
    void *p = zero ? NULL : cz_recycler_take(cz_ctx_recycler(ctx), bytes);
    if (p)
        return p;
    if (cz__fault_memalign(ctx, &p, 64, bytes ? bytes : 64))
        return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= ((size_t)4 << 20)) {
        uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
        uintptr_t hi = ((uintptr_t)p + bytes) & ~(uintptr_t)4095;
        if (hi > lo)
            (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    }
#endif
    if (zero)
        memset(p, 0, bytes);
    return p;
}

int cz_bench_witness(cz_ctx_t *ctx, const cz_bench_params *p, cz_cs_witness_t *out)
{
    memset(out, 0, sizeof *out);
    cz_bench_shape_t sh;
    int rc = cz_bench_shape(ctx, p, &sh);
    if (rc)
        return rc;
    size_t ni = sh.num_inputs, na = sh.num_aux, rows = sh.rows;
    out->num_inputs = ni;
    out->num_aux = na;
    out->num_rows = rows;
    out->input = big_alloc(ctx, ni * sizeof(cz_fr), false);
    out->aux = big_alloc(ctx, na * sizeof(cz_fr), false);
    out->a = big_alloc(ctx, rows * sizeof(cz_fr), false);
    out->b = big_alloc(ctx, rows * sizeof(cz_fr), false);
    if (p->with_c)
        out->c = big_alloc(ctx, rows * sizeof(cz_fr), false);
    size_t nbits[3] = { na, ni, na };
    for (int i = 0; i < 3; i++) {
        out->density_bits[i] = nbits[i];
        out->density[i] = big_alloc(ctx, (nbits[i] + 63) / 64 * sizeof(uint64_t), true);
    }
    if (!out->input || !out->aux || !out->a || !out->b || (p->with_c && !out->c) ||
        !out->density[0] || !out->density[1] || !out->density[2]) {
        cz_cs_witness_free(out);
        return cz_fail(ctx, CZ_ENOMEM, "bench witness: %zu rows, %zu aux", rows, na);
    }

    gen_job job = { .p = p, .sh = &sh, .w = out };
    size_t nblocks = sh.full_blocks + (sh.last_steps ? 1 : 0);
    cz_pool_for(ctx ? cz_ctx_pool(ctx) : NULL, (nblocks + GROUP - 1) / GROUP, 1, gen_blocks, &job);

    /* Inputs and the inputize rows: x_i = aux[inputized(i)]; x_i * ONE = aux. */
    size_t row = sh.constraints - p->num_public;
    out->input[0] = CZ_FR_ONE;
    for (size_t i = 0; i < p->num_public; i++, row++) {
        const cz_fr *src = &out->aux[inputized(na, i)];
        out->input[i + 1] = *src;
        out->a[row] = *src;
        out->b[row] = CZ_FR_ONE;
        if (out->c)
            out->c[row] = *src;
    }
    /* One row x_i * 0 = 0 per input (BP prover, FACTS 1). */
    for (size_t i = 0; i < ni; i++, row++) {
        out->a[row] = out->input[i];
        out->b[row] = CZ_FR_ZERO;
        if (out->c)
            out->c[row] = CZ_FR_ZERO;
    }
    if (job.one_in_b || p->num_public)
        out->density[CZ_DENSITY_B_INPUT][0] |= 1;
    for (int i = 0; i < 3; i++)
        out->popcount[i] = popcount_words(out->density[i], nbits[i]);
    return CZ_OK;
}

void cz_bench_value_mix(const cz_fr *aux, size_t n, size_t *zeros, size_t *ones, size_t *other)
{
    size_t z = 0, o = 0;
    for (size_t i = 0; i < n; i++) {
        if (cz_fr_is_zero(&aux[i]))
            z++;
        else if (cz_fr_is_one(&aux[i]))
            o++;
    }
    *zeros = z;
    *ones = o;
    *other = n - z - o;
}
