/*
 * groth16/params_random.c — TIMING-ONLY parameters of a given shape whose
 * points are random (see cz_params_random in params.h).
 *
 * A real setup at the 32GiB PoRep shape (2^27 domain, 130M aux) takes hours;
 * the device region's cost does not depend on which points the bases are,
 * only on how many and where they lie in memory. So each vector is filled
 * by tiling a pool of distinct random points (a random walk per pool chunk,
 * in parallel; as many as the longest vector, at most 2^20), and the vk is
 * made of random points too: proofs made with these params do not verify,
 * and callers must not try.
 */
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "ec/group.h"
#include "groth16/params.h"
#include "groth16/params_int.h"

#define POOL_POINTS ((size_t)1 << 20)
#define POOL_CHUNK ((size_t)1 << 14)

typedef struct {
    const cz_group *g;
    uint8_t *pool;
    uint64_t seed;
} pool_arg;

static void pool_chunk(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    pool_arg *a = arg;
    for (size_t c = begin; c < end; c++)
        cz_group_random_affine(a->g, a->pool + c * POOL_CHUNK * a->g->affine_size, POOL_CHUNK,
                               a->seed * 1000003u + c);
}

/* v[i] = pool[i mod np]: whole copies of the pool, then the rest. */
static int fill(cz_ctx_t *ctx, void **out, size_t n, const uint8_t *pool, size_t np, size_t pb,
                const char *name)
{
    *out = NULL;
    if (n == 0)
        return CZ_OK;
    uint8_t *v = malloc(n * pb);
    if (!v)
        return cz_fail(ctx, CZ_ENOMEM, "random params: %s (%zu points)", name, n);
    for (size_t done = 0; done < n; done += np) {
        size_t k = n - done < np ? n - done : np;
        cz_pool_memcpy(cz_ctx_pool(ctx), v + done * pb, pool, k * pb);
    }
    *out = v;
    return CZ_OK;
}

/* Distinct points per group: the longest vector's length, in whole pool chunks, at most 2^20. */
static size_t pool_points(const cz_params_shape_t *s)
{
    size_t n = s->domain_size;
    size_t m[] = { s->num_aux, s->num_inputs + s->a_aux_popcount,
                   s->b_input_popcount + s->b_aux_popcount, s->num_inputs + 3 };
    for (size_t i = 0; i < sizeof m / sizeof *m; i++)
        n = m[i] > n ? m[i] : n;
    n = (n + POOL_CHUNK - 1) / POOL_CHUNK * POOL_CHUNK;
    return n < POOL_POINTS ? n : POOL_POINTS;
}

int cz_params_random(cz_ctx_t *ctx, cz_params_t **out, const cz_params_shape_t *s, uint64_t seed)
{
    *out = NULL;
    cz_params_t *p = calloc(1, sizeof *p);
    const size_t np = pool_points(s);
    uint8_t *g1 = malloc(np * sizeof(blst_p1_affine));
    uint8_t *g2 = malloc(np * sizeof(blst_p2_affine));
    int rc = p && g1 && g2 ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "random params: point pools");
    if (rc == CZ_OK) {
        pool_arg a1 = { &CZ_G1, g1, seed }, a2 = { &CZ_G2, g2, seed + 1 };
        cz_pool_for(cz_ctx_pool(ctx), np / POOL_CHUNK, 1, pool_chunk, &a1);
        cz_pool_for(cz_ctx_pool(ctx), np / POOL_CHUNK, 1, pool_chunk, &a2);
        const blst_p1_affine *q1 = (const blst_p1_affine *)g1;
        const blst_p2_affine *q2 = (const blst_p2_affine *)g2;
        p->vk.alpha_g1 = q1[0];
        p->vk.beta_g1 = q1[1];
        p->vk.delta_g1 = q1[2];
        p->vk.beta_g2 = q2[0];
        p->vk.gamma_g2 = q2[1];
        p->vk.delta_g2 = q2[2];
        p->vk.n_ic = s->num_inputs;
        p->vk.ic = malloc((s->num_inputs ? s->num_inputs : 1) * sizeof *p->vk.ic);
        if (!p->vk.ic)
            rc = cz_fail(ctx, CZ_ENOMEM, "random params: ic");
        for (size_t i = 0; rc == CZ_OK && i < s->num_inputs; i++)
            p->vk.ic[i] = q1[3 + i % (np - 3)];
    }
    if (rc == CZ_OK) {
        p->n_h = s->domain_size - 1;
        p->n_l = s->num_aux;
        p->n_a = s->num_inputs + s->a_aux_popcount;
        p->n_b_g1 = p->n_b_g2 = s->b_input_popcount + s->b_aux_popcount;
        const size_t g1b = sizeof(blst_p1_affine), g2b = sizeof(blst_p2_affine);
        rc = fill(ctx, (void **)&p->h, p->n_h, g1, np, g1b, "h");
        if (rc == CZ_OK)
            rc = fill(ctx, (void **)&p->l, p->n_l, g1, np, g1b, "l");
        if (rc == CZ_OK)
            rc = fill(ctx, (void **)&p->a, p->n_a, g1, np, g1b, "a");
        if (rc == CZ_OK)
            rc = fill(ctx, (void **)&p->b_g1, p->n_b_g1, g1, np, g1b, "b_g1");
        if (rc == CZ_OK)
            rc = fill(ctx, (void **)&p->b_g2, p->n_b_g2, g2, np, g2b, "b_g2");
    }
    free(g1);
    free(g2);
    if (rc != CZ_OK) {
        cz_params_free(p);
        return rc;
    }
    *out = p;
    return CZ_OK;
}
