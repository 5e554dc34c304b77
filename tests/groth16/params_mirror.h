/*
 * tests/groth16/params_mirror.h — params kept out of host memory, for
 * tests: a copy of real params (a setup's, so proofs verify) that has no
 * vector in host memory and a source reading them from the original
 * (groth16/params.h, vectors on demand). What a prover or backend made
 * resident shows in cz_params_vector; the reads are counted.
 *
 * Ownership: the mirror borrows |from| (free it after the mirror); free
 * the mirror with cz_params_free. Header-only (static functions).
 */
#ifndef CUZK_TESTS_PARAMS_MIRROR_H
#define CUZK_TESTS_PARAMS_MIRROR_H

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/params.h"
#include "groth16/params_int.h"

typedef struct {
    cz__params_source base;
    const cz_params_t *from;
    atomic_size_t points_read;
} params_mirror_source;

static int mirror_read(cz_ctx_t *ctx, const cz__params_source *s, int which, size_t first, size_t n,
                       void *out)
{
    (void)ctx;
    params_mirror_source *m = (params_mirror_source *)s;
    const cz__pvec *v = &cz__pvecs[which];
    const uint8_t *src = cz_params_vector(m->from, (enum cz_params_vec)which);
    memcpy(out, src + first * v->aff_size, n * v->aff_size);
    atomic_fetch_add(&m->points_read, n);
    return CZ_OK;
}

static void mirror_free(cz__params_source *s)
{
    cz__params_source_destroy(s);
    free(s);
}

/* A mirror of |from| (every vector resident there); NULL on ENOMEM. */
static cz_params_t *params_mirror_new(cz_ctx_t *ctx, const cz_params_t *from)
{
    cz_params_t *p = calloc(1, sizeof *p);
    params_mirror_source *m = calloc(1, sizeof *m);
    if (!p || !m || cz_vk_copy(ctx, &p->vk, &from->vk) != CZ_OK) {
        free(p);
        free(m);
        return NULL;
    }
    p->n_h = from->n_h;
    p->n_l = from->n_l;
    p->n_a = from->n_a;
    p->n_b_g1 = from->n_b_g1;
    p->n_b_g2 = from->n_b_g2;
    cz__params_source_init(&m->base);
    m->base.read = mirror_read;
    m->base.free = mirror_free;
    m->from = from;
    p->source = &m->base;
    return p;
}

/* Points the mirror's source has produced so far. */
static size_t params_mirror_points_read(const cz_params_t *p)
{
    return atomic_load(&((params_mirror_source *)p->source)->points_read);
}

/* Bitmask (1 << CZ_PV_*) of the mirror's vectors now in host memory. */
static unsigned params_mirror_resident(const cz_params_t *p)
{
    unsigned mask = 0;
    for (int v = 0; v < CZ_PV_COUNT; v++)
        if (cz_params_vector(p, (enum cz_params_vec)v))
            mask |= 1u << v;
    return mask;
}

#endif /* CUZK_TESTS_PARAMS_MIRROR_H */
