/*
 * tests/ec/test_msm_affine.c — the batched affine additions (ec/affine.h)
 * and the MSMs built on them, engine by engine (XYZZ, blst-affine, IFMA
 * where the CPU has it), against blst's own additions and naive sums, with
 * the exceptional cases forced: A == B (doubling), A == -B (cancelling),
 * duplicate bases with equal scalars (P == Q in a bucket), a base next to
 * its negation, every point in one bucket, batches spanning several
 * inversions and partial 8-lane groups.
 */
#include <stdlib.h>
#include <string.h>

#include "ec/affine.h"
#include "ec/curve.h"
#include "ec/group.h"
#include "ec/msm.h"
#include "ff/fr.h"
#include "cz_test.h"

static cz_ctx_t *new_ctx(unsigned threads)
{
    cz_ctx_t *ctx = NULL;
    cz_ctx_new(&ctx, NULL, threads);
    return ctx;
}

static int points_equal(const cz_group *g, const void *a, const void *b)
{
    return g == &CZ_G1 ? blst_p1_is_equal(a, b) : blst_p2_is_equal(a, b);
}

/* the backends to test for |g| (IFMA only where the CPU has it) */
static size_t backends(const cz_group *g, const cz__aff_ops *out[2])
{
    size_t k = 0;
    out[k++] = g == &CZ_G1 ? &cz__aff_g1_blst : &cz__aff_g2_blst;
    const cz__aff_ops *ifma = g == &CZ_G1 ? cz__aff_g1_ifma() : cz__aff_g2_ifma();
    if (ifma)
        out[k++] = ifma;
    return k;
}

/* -P of an affine point */
static void negate_affine(const cz_group *g, void *dst, const void *src)
{
    memcpy(dst, src, g->affine_size);
    if (g == &CZ_G1) {
        blst_p1_affine *p = dst;
        blst_fp_cneg(&p->y, &p->y, 1);
    } else {
        blst_p2_affine *p = dst;
        blst_fp2_cneg(&p->y, &p->y, 1);
    }
}

/* ---- add_pairs ----------------------------------------------------------- */

enum pair_kind { PK_RANDOM, PK_SAME, PK_SAME_COPY, PK_NEG, PK_NEG_BOTH, PK_OUT_IS_A, PK_KINDS };

/*
 * n pairs, kinds cycling with a stride so exceptional pairs land in all
 * lanes and batches; every result checked against blst's projective sum.
 */
static void check_pairs(const cz__aff_ops *ops, size_t n, unsigned every)
{
    const cz_group *g = ops->group;
    size_t ps = ops->point_size, as = g->affine_size;
    uint8_t *bl = malloc(2 * n * as), *pts = aligned_alloc(64, (2 * n * ps + 63) / 64 * 64);
    uint8_t *outs = aligned_alloc(64, (n * ps + 63) / 64 * 64), *got = malloc(n * as);
    cz__aff_pair *pairs = malloc(n * sizeof *pairs);
    uint8_t *inf = malloc(n), *want_inf = malloc(n);
    void *scratch = malloc(ops->scratch_size);
    cz_group_random_affine(g, bl, 2 * n, 77 + n);
    uint8_t *want = malloc(n * g->proj_size);
    for (size_t i = 0; i < n; i++) {
        enum pair_kind k = i % every == 0 ? (enum pair_kind)(i / every % PK_KINDS) : PK_RANDOM;
        uint8_t *a = bl + 2 * i * as, *b = a + as;
        unsigned na = (unsigned)(i >> 1) & 1, nb = (unsigned)i & 1;
        if (k == PK_SAME_COPY || k == PK_NEG || k == PK_NEG_BOTH)
            memcpy(b, a, as);
        if (k == PK_NEG)
            na = 1, nb = 0;
        if (k == PK_NEG_BOTH)
            na = 1, nb = 1;
        /* the reference: (-1)^na A + (-1)^nb B */
        uint8_t ta[sizeof(blst_p2_affine)], tb[sizeof(blst_p2_affine)], pa[sizeof(blst_p2)];
        memcpy(ta, a, as);
        memcpy(tb, k == PK_SAME ? a : b, as);
        if (na)
            negate_affine(g, ta, ta);
        if (nb)
            negate_affine(g, tb, tb);
        g->from_affine(pa, ta);
        g->add_affine(want + i * g->proj_size, pa, tb);
        want_inf[i] = g == &CZ_G1 ? blst_p1_is_inf((blst_p1 *)(want + i * g->proj_size))
                                  : blst_p2_is_inf((blst_p2 *)(want + i * g->proj_size));
        pairs[i].a = (cz__aff_ref)(pts + 2 * i * ps) | na;
        pairs[i].b = (cz__aff_ref)(k == PK_SAME ? pts + 2 * i * ps : pts + (2 * i + 1) * ps) | nb;
        pairs[i].out = k == PK_OUT_IS_A ? pts + 2 * i * ps : outs + i * ps;
    }
    ops->from_blst(pts, bl, NULL, 2 * n);
    ops->add_pairs(pairs, n, inf, scratch);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (inf[i] != want_inf[i]) {
            bad++;
            continue;
        }
        if (inf[i])
            continue;
        uint8_t p[sizeof(blst_p2)];
        ops->to_blst(got + i * as, pairs[i].out, 1);
        g->from_affine(p, got + i * as);
        bad += !points_equal(g, p, want + i * g->proj_size);
    }
    if (bad)
        CZ__FAIL("%s add_pairs n=%zu every=%u: %zu wrong", ops->name, n, every, bad);
    free(bl), free(pts), free(outs), free(got), free(pairs), free(inf), free(want_inf);
    free(scratch), free(want);
}

CZ_TEST(add_pairs_match_blst_with_exceptional_pairs)
{
    const cz_group *groups[2] = { &CZ_G1, &CZ_G2 };
    for (int gi = 0; gi < 2; gi++) {
        const cz__aff_ops *ops[2];
        size_t k = backends(groups[gi], ops);
        for (size_t b = 0; b < k; b++) {
            size_t sizes[] = { 1, 2, 7, 8, 9, 63, 300, 1100 };
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                check_pairs(ops[b], sizes[s], 1); /* exceptional pairs everywhere */
                check_pairs(ops[b], sizes[s], 5);
                check_pairs(ops[b], sizes[s], 97); /* rare: mostly regular batches */
            }
        }
    }
}

/* A conversion round trip is the identity (gathered in reverse order). */
CZ_TEST(conversion_round_trip)
{
    const cz_group *groups[2] = { &CZ_G1, &CZ_G2 };
    for (int gi = 0; gi < 2; gi++) {
        const cz_group *g = groups[gi];
        const cz__aff_ops *ifma = gi == 0 ? cz__aff_g1_ifma() : cz__aff_g2_ifma();
        if (!ifma)
            continue;
        const size_t n = 37;
        uint32_t index[37];
        uint8_t *in = malloc(n * g->affine_size), *out = malloc(n * g->affine_size);
        uint8_t *pts = aligned_alloc(64, n * ifma->point_size);
        cz_group_random_affine(g, in, n, 5);
        for (size_t i = 0; i < n; i++)
            index[i] = (uint32_t)(n - 1 - i);
        ifma->from_blst(pts, in, index, n);
        ifma->to_blst(out, pts, n);
        for (size_t i = 0; i < n; i++)
            CHECK_MEM_EQ(out + i * g->affine_size, in + (n - 1 - i) * g->affine_size,
                         g->affine_size);
        free(in);
        free(out);
        free(pts);
    }
}

/* G2 points with a zero coordinate component: negation keeps it zero. */
CZ_TEST(g2_negation_of_zero_components)
{
    const cz__aff_ops *ops[2];
    size_t k = backends(&CZ_G2, ops);
    for (size_t b = 0; b < k; b++) {
        /* a point whose y has c1 == 0 is rare; build (x, y) with y = (y0, 0)
         * formally: the backends' copy must map 0 to 0, whatever the curve */
        blst_p2_affine p, q;
        cz_g2_random_affine(&p, 1, 3);
        memset(&p.y.fp[1], 0, sizeof p.y.fp[1]);
        uint8_t *st = aligned_alloc(64, 2 * ops[b]->point_size);
        ops[b]->from_blst(st, &p, NULL, 1);
        ops[b]->copy(st + ops[b]->point_size, (cz__aff_ref)st | 1);
        ops[b]->to_blst(&q, st + ops[b]->point_size, 1);
        blst_fp2 ny;
        blst_fp2_cneg(&ny, &p.y, 1);
        CHECK_MEM_EQ(&q.y, &ny, sizeof ny);
        CHECK_MEM_EQ(&q.x, &p.x, sizeof p.x);
        free(st);
    }
}

/* ---- MSMs per engine -------------------------------------------------------- */

static const cz__msm_engine ENGINES[] = { CZ__MSM_XYZZ, CZ__MSM_BLST, CZ__MSM_IFMA };
static const char *ENGINE_NAME[] = { "auto", "xyzz", "blst", "ifma" };

static void naive_msm(const cz_group *g, void *out, const void *bases, const blst_scalar *s,
                      size_t n)
{
    uint8_t p[sizeof(blst_p2)], t[sizeof(blst_p2)];
    memset(out, 0, g->proj_size);
    for (size_t i = 0; i < n; i++) {
        g->from_affine(p, cz_aff(g, bases, i));
        g->mult(t, p, s[i].b, 255);
        g->add(out, out, t);
    }
}

enum layout { L_RANDOM, L_DUP_SAME, L_NEG_PAIRS, L_ONE_BUCKET, L_DUP_ONE_BUCKET, L_LAYOUTS };
static const char *LAYOUT_NAME[] = { "random", "dup-same-scalar", "base-and-negation", "one-bucket",
                                     "dup-one-bucket" };

/*
 * Bases and scalars for a layout: duplicated bases with equal scalars (so
 * P == Q meet in every window's bucket), a base followed by its negation
 * with the same scalar (they cancel), one scalar for all points (every
 * point in the same bucket of each window), both.
 */
static void make_case(const cz_group *g, void *bases, blst_scalar *s, size_t n, enum layout lay,
                      uint64_t seed)
{
    cz_group_random_affine(g, bases, n, seed);
    cz_rng rng;
    cz_rng_seed(&rng, seed + 1);
    cz_fr f;
    cz_fr_random_rng(&f, &rng);
    for (size_t i = 0; i < n; i++) {
        if (lay != L_ONE_BUCKET && lay != L_DUP_ONE_BUCKET)
            cz_fr_random_rng(&f, &rng);
        cz_fr_to_scalar(&s[i], &f);
        if (i % 2 == 1 && (lay == L_DUP_SAME || lay == L_NEG_PAIRS || lay == L_DUP_ONE_BUCKET)) {
            s[i] = s[i - 1];
            void *b = (uint8_t *)bases + i * g->affine_size;
            const void *prev = cz_aff(g, bases, i - 1);
            if (lay == L_NEG_PAIRS)
                negate_affine(g, b, prev);
            else
                memcpy(b, prev, g->affine_size);
        }
    }
}

static int run_msm(cz_ctx_t *ctx, const cz_group *g, void *out, const void *bases,
                   const blst_scalar *s, size_t n, int how)
{
    switch (how) {
    case 0: /* plain */
        return g == &CZ_G1 ? cz_g1_msm(ctx, out, bases, s, n) : cz_g2_msm(ctx, out, bases, s, n);
    case 1: { /* gathered, reversed */
        uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
        blst_scalar *rs = malloc((n ? n : 1) * sizeof *rs);
        for (size_t i = 0; i < n; i++)
            idx[i] = (uint32_t)(n - 1 - i), rs[i] = s[n - 1 - i];
        int rc = g == &CZ_G1 ? cz_g1_msm_gather(ctx, out, bases, idx, rs, n, 0)
                             : cz_g2_msm_gather(ctx, out, bases, idx, rs, n, 0);
        free(idx);
        free(rs);
        return rc;
    }
    default: /* split (ones summed in batches) */
        return g == &CZ_G1 ? cz_g1_msm_auto(ctx, out, bases, s, n)
                           : cz_g2_msm_auto(ctx, out, bases, s, n);
    }
}

static void check_engines(const cz_group *g, size_t n, enum layout lay, unsigned threads)
{
    cz_ctx_t *ctx = new_ctx(threads);
    void *bases = malloc((n ? n : 1) * g->affine_size);
    blst_scalar *s = malloc((n ? n : 1) * sizeof *s);
    make_case(g, bases, s, n, lay, 300 + n + lay);
    blst_p2 want, got;
    naive_msm(g, &want, bases, s, n);
    for (size_t e = 0; e < sizeof ENGINES / sizeof *ENGINES; e++) {
        cz__msm_force_engine(ctx, ENGINES[e]);
        for (int how = 0; how < 3; how++) {
            CHECK_OK(run_msm(ctx, g, &got, bases, s, n, how));
            if (!points_equal(g, &want, &got))
                CZ__FAIL("%s %s n=%zu %s way %d threads %u differs from naive", g->name,
                         ENGINE_NAME[ENGINES[e]], n, LAYOUT_NAME[lay], how, threads);
        }
    }
    cz__msm_force_engine(ctx, CZ__MSM_AUTO);
    free(bases);
    free(s);
    cz_ctx_free(ctx);
}

CZ_TEST(g1_engines_exceptional_layouts)
{
    size_t sizes[] = { 2, 3, 16, 65, 400 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int lay = 0; lay < L_LAYOUTS; lay++)
            check_engines(&CZ_G1, sizes[i], (enum layout)lay, 2);
}

CZ_TEST(g2_engines_exceptional_layouts)
{
    size_t sizes[] = { 2, 17, 120 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int lay = 0; lay < L_LAYOUTS; lay++)
            check_engines(&CZ_G2, sizes[i], (enum layout)lay, 2);
}

/* Duplicates spread over many chunks and rounds: vs blst's Pippenger. */
CZ_TEST(g1_engines_large_with_duplicates_match_blst)
{
    const size_t n = 9001;
    blst_p1_affine *bases = malloc(n * sizeof *bases);
    blst_scalar *s = malloc(n * sizeof *s);
    for (int lay = 0; lay < L_LAYOUTS; lay++) {
        make_case(&CZ_G1, bases, s, n, (enum layout)lay, 41);
        void *scratch = malloc(blst_p1s_mult_pippenger_scratch_sizeof(n));
        const blst_p1_affine *pts[2] = { bases, NULL };
        const uint8_t *sc[2] = { s[0].b, NULL };
        blst_p1 want, got;
        blst_p1s_mult_pippenger(&want, pts, n, sc, 255, scratch);
        free(scratch);
        for (unsigned threads = 1; threads <= 3; threads += 2) {
            cz_ctx_t *ctx = new_ctx(threads);
            for (size_t e = 0; e < sizeof ENGINES / sizeof *ENGINES; e++) {
                cz__msm_force_engine(ctx, ENGINES[e]);
                for (int how = 0; how < 3; how++) {
                    CHECK_OK(run_msm(ctx, &CZ_G1, &got, bases, s, n, how));
                    if (!blst_p1_is_equal(&want, &got))
                        CZ__FAIL("G1 %s n=%zu %s way %d threads %u differs from blst",
                                 ENGINE_NAME[ENGINES[e]], n, LAYOUT_NAME[lay], how, threads);
                }
            }
            cz__msm_force_engine(ctx, CZ__MSM_AUTO);
            cz_ctx_free(ctx);
        }
    }
    free(bases);
    free(s);
}

/* The ones: a base and its negation cancel, duplicates double, across chunks. */
CZ_TEST(batch_add_cancels_and_doubles)
{
    const size_t n = 20000;
    blst_p1_affine *bases = malloc(n * sizeof *bases);
    uint64_t *bitmap = malloc(((n + 63) / 64 + 1) * sizeof *bitmap);
    cz_g1_random_affine(bases, n, 8);
    for (size_t i = 0; i + 1 < n; i += 3) {
        if (i % 2)
            negate_affine(&CZ_G1, &bases[i + 1], &bases[i]);
        else
            bases[i + 1] = bases[i];
    }
    memset(bitmap, 0xff, ((n + 63) / 64 + 1) * sizeof *bitmap);
    blst_p1 want, p;
    memset(&want, 0, sizeof want);
    for (size_t i = 0; i < n; i++) {
        blst_p1_from_affine(&p, &bases[i]);
        blst_p1_add_or_double(&want, &want, &p);
    }
    cz_ctx_t *ctx = new_ctx(2);
    for (size_t e = 0; e < sizeof ENGINES / sizeof *ENGINES; e++) {
        blst_p1 got;
        cz__msm_force_engine(ctx, ENGINES[e]);
        CHECK_OK(cz_g1_batch_add(ctx, &got, bases, bitmap, n));
        if (!blst_p1_is_equal(&want, &got))
            CZ__FAIL("batch_add %s differs", ENGINE_NAME[ENGINES[e]]);
    }
    /* everything cancels: P, -P, P, -P, ... */
    for (size_t i = 1; i < n; i++)
        negate_affine(&CZ_G1, &bases[i], &bases[i - 1]);
    for (size_t e = 0; e < sizeof ENGINES / sizeof *ENGINES; e++) {
        blst_p1 got;
        cz__msm_force_engine(ctx, ENGINES[e]);
        CHECK_OK(cz_g1_batch_add(ctx, &got, bases, bitmap, n));
        CHECK(blst_p1_is_inf(&got));
    }
    cz__msm_force_engine(ctx, CZ__MSM_AUTO);
    cz_ctx_free(ctx);
    free(bases);
    free(bitmap);
}

CZ_TEST(engines_independent_of_thread_count)
{
    const size_t n = 5000;
    blst_p1_affine *bases = malloc(n * sizeof *bases);
    blst_scalar *s = malloc(n * sizeof *s);
    make_case(&CZ_G1, bases, s, n, L_RANDOM, 12);
    unsigned threads[] = { 1, 2, 5, 8 };
    for (size_t e = 0; e < sizeof ENGINES / sizeof *ENGINES; e++) {
        blst_p1 r[4];
        for (int i = 0; i < 4; i++) {
            cz_ctx_t *ctx = new_ctx(threads[i]);
            cz__msm_force_engine(ctx, ENGINES[e]);
            CHECK_OK(cz_g1_msm(ctx, &r[i], bases, s, n));
            cz_ctx_free(ctx);
        }
        for (int i = 1; i < 4; i++)
            CHECK(blst_p1_is_equal(&r[0], &r[i]));
    }
    free(bases);
    free(s);
}

CZ_TEST_MAIN()
