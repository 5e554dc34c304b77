/*
 * ec/group.c — the G1 and G2 operation tables over blst (see ec/group.h).
 */
#include "ec/group.h"

#include <string.h>

#include "ff/fr.h"

/* Thin adapters: blst's functions take typed pointers. */
/* laid out by hand: */
/* clang-format off */
#define GROUP_ADAPTERS(px, P, A)                                                     \
    static void px##_add(void *o, const void *a, const void *b)                      \
    { blst_##px##_add_or_double(o, a, b); }                                          \
    static void px##_dbl(void *o, const void *a) { blst_##px##_double(o, a); }       \
    static void px##_add_aff(void *o, const void *a, const void *b)                  \
    { blst_##px##_add_or_double_affine(o, a, b); }                                   \
    static void px##_from_aff(void *o, const void *a) { blst_##px##_from_affine(o, a); } \
    static void px##_mult(void *o, const void *p, const uint8_t *k, size_t nbits)    \
    { blst_##px##_mult(o, p, k, nbits); }                                            \
    static void px##_to_aff_many(void *o, const void *const in[], size_t n)          \
    { blst_##px##s_to_affine(o, (const P *const *)in, n); }                          \
    static void px##_sum_aff(void *o, const void *const pts[], size_t n)             \
    { blst_##px##s_add(o, (const A *const *)pts, n); }                               \
    static void px##_tile(void *o, const void *const pts[], size_t n,                \
                          const uint8_t *const sc[], size_t nbits, void *scratch,    \
                          size_t bit0, size_t window)                                \
    { blst_##px##s_tile_pippenger(o, (const A *const *)pts, n, sc, nbits, scratch,   \
                                  bit0, window); }
/* clang-format on */

GROUP_ADAPTERS(p1, blst_p1, blst_p1_affine)
GROUP_ADAPTERS(p2, blst_p2, blst_p2_affine)

/* laid out by hand: */
/* clang-format off */
#define GROUP_TABLE(px, label, P, A, F)                                               \
    {                                                                                 \
        .name = label, .proj_size = sizeof(P), .affine_size = sizeof(A),              \
        .bucket_size = 4 * sizeof(F), .add = px##_add, .dbl = px##_dbl,               \
        .add_affine = px##_add_aff, .from_affine = px##_from_aff,                     \
        .mult = px##_mult, .to_affine_many = px##_to_aff_many,                        \
        .sum_affine = px##_sum_aff, .tile = px##_tile,                                \
    }
/* clang-format on */

const cz_group CZ_G1 = GROUP_TABLE(p1, "G1", blst_p1, blst_p1_affine, blst_fp);
const cz_group CZ_G2 = GROUP_TABLE(p2, "G2", blst_p2, blst_p2_affine, blst_fp2);

/*
 * A scalar multiplication per point would take minutes at 2^20 points, so
 * points come from a walk: P_{i+1} = P_i + S_{h(i)} over 16 random steps
 * S_j = k_j * generator, converted to affine a batch at a time. The points
 * are distinct multiples of the generator with logs unknown to the MSM:
 * fine for tests and timing, never for parameters.
 */
#define WALK_STEPS 16
#define WALK_BATCH 512

static void random_multiple(const cz_group *g, void *out, const void *gen, cz_rng *rng)
{
    cz_fr f;
    blst_scalar k;
    cz_fr_random_rng(&f, rng);
    cz_fr_to_scalar(&k, &f);
    g->mult(out, gen, k.b, 255);
}

void cz_group_random_affine(const cz_group *g, void *out, size_t n, uint64_t seed)
{
    /* sized for G2, the larger group */
    blst_p2 steps[WALK_STEPS], acc, buf[WALK_BATCH];
    const void *gen = g == &CZ_G1 ? (const void *)blst_p1_generator()
                                  : (const void *)blst_p2_generator();
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    for (int i = 0; i < WALK_STEPS; i++)
        random_multiple(g, cz_pt(g, steps, i), gen, &rng);
    random_multiple(g, &acc, gen, &rng);
    for (size_t done = 0; done < n;) {
        size_t m = n - done < WALK_BATCH ? n - done : WALK_BATCH;
        for (size_t i = 0; i < m; i++) {
            g->add(&acc, &acc, cz_pt(g, steps, cz_rng_next(&rng) % WALK_STEPS));
            memcpy(cz_pt(g, buf, i), &acc, g->proj_size);
        }
        const void *arr[2] = { buf, NULL };
        g->to_affine_many((uint8_t *)out + done * g->affine_size, arr, m);
        done += m;
    }
}
