/*
 * groth16/params_random.c — TIMING-ONLY parameters of a given shape whose
 * points are random (see cz_params_random in params.h).
 *
 * A real setup at the 32GiB PoRep shape (2^27 domain, 130M aux) takes hours;
 * the device region's cost does not depend on which points the bases are,
 * only on how many and where they lie in memory. So each vector is a tiling
 * of a pool of distinct random points (a random walk per pool chunk, in
 * parallel; as many as the longest vector, at most 2^20), and the vk is
 * made of random points too: proofs made with these params do not verify,
 * and callers must not try. The pools are the params' source (params.h):
 * a vector is written out in host memory only when a reader asks for it
 * (a CPU MSM); a device backend uploads the tiling straight from the pools.
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

/* The pools are the source: vector v's point i is pool[i mod np] (params.h). */
typedef struct {
    cz__params_source base;
    uint8_t *pool[2]; /* G1, G2: np points each */
    size_t np;
} random_source;

static int random_read(cz_ctx_t *ctx, const cz__params_source *s, int which, size_t first, size_t n,
                       void *out)
{
    (void)ctx;
    const random_source *r = (const random_source *)s;
    const cz__pvec *v = &cz__pvecs[which];
    const uint8_t *pool = r->pool[v->g2];
    uint8_t *dst = out;
    for (size_t i = first, end = first + n; i < end;) {
        const size_t j = i % r->np, k = r->np - j < end - i ? r->np - j : end - i;
        memcpy(dst, pool + j * v->aff_size, k * v->aff_size);
        dst += k * v->aff_size;
        i += k;
    }
    return CZ_OK;
}

static void random_free(cz__params_source *s)
{
    random_source *r = (random_source *)s;
    free(r->pool[0]);
    free(r->pool[1]);
    cz__params_source_destroy(s);
    free(r);
}

static random_source *random_source_new(size_t np)
{
    random_source *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->pool[0] = malloc(np * sizeof(blst_p1_affine));
    r->pool[1] = malloc(np * sizeof(blst_p2_affine));
    if (!r->pool[0] || !r->pool[1]) {
        free(r->pool[0]);
        free(r->pool[1]);
        free(r);
        return NULL;
    }
    cz__params_source_init(&r->base);
    r->base.read = random_read;
    r->base.free = random_free;
    r->base.bytes = np * (sizeof(blst_p1_affine) + sizeof(blst_p2_affine));
    r->np = np;
    return r;
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
    random_source *src = p ? random_source_new(np) : NULL;
    if (!src) {
        free(p);
        return cz_fail(ctx, CZ_ENOMEM, "random params: point pools");
    }
    p->source = &src->base;
    pool_arg a1 = { &CZ_G1, src->pool[0], seed }, a2 = { &CZ_G2, src->pool[1], seed + 1 };
    cz_pool_for(cz_ctx_pool(ctx), np / POOL_CHUNK, 1, pool_chunk, &a1);
    cz_pool_for(cz_ctx_pool(ctx), np / POOL_CHUNK, 1, pool_chunk, &a2);
    const blst_p1_affine *q1 = (const blst_p1_affine *)src->pool[0];
    const blst_p2_affine *q2 = (const blst_p2_affine *)src->pool[1];
    p->vk.alpha_g1 = q1[0];
    p->vk.beta_g1 = q1[1];
    p->vk.delta_g1 = q1[2];
    p->vk.beta_g2 = q2[0];
    p->vk.gamma_g2 = q2[1];
    p->vk.delta_g2 = q2[2];
    p->vk.n_ic = s->num_inputs;
    p->vk.ic = malloc((s->num_inputs ? s->num_inputs : 1) * sizeof *p->vk.ic);
    if (!p->vk.ic) {
        cz_params_free(p);
        return cz_fail(ctx, CZ_ENOMEM, "random params: ic");
    }
    for (size_t i = 0; i < s->num_inputs; i++)
        p->vk.ic[i] = q1[3 + i % (np - 3)];
    /* the vectors stay in the pools until a reader wants them in host memory */
    p->n_h = s->domain_size - 1;
    p->n_l = s->num_aux;
    p->n_a = s->num_inputs + s->a_aux_popcount;
    p->n_b_g1 = p->n_b_g2 = s->b_input_popcount + s->b_aux_popcount;
    *out = p;
    return CZ_OK;
}
