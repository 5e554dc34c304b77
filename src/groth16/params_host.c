/*
 * groth16/params_host.c — vectors on demand (params.h): params with a
 * source keep their vectors out of host memory until a reader asks for one.
 *
 * A vector pointer is published once, with a release store, after its fill
 * is complete; readers load it with acquire (cz_params_vector), so a thread
 * that sees the pointer sees the points. The fill itself runs under the
 * source's mutex, so two first callers do not fill it twice.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "groth16/params.h"
#include "groth16/params_int.h"

void cz__params_source_init(cz__params_source *s)
{
    pthread_mutex_init(&s->mu, NULL);
}

void cz__params_source_destroy(cz__params_source *s)
{
    pthread_mutex_destroy(&s->mu);
}

const void *cz_params_vector(const cz_params_t *p, enum cz_params_vec which)
{
    if ((unsigned)which >= CZ_PV_COUNT)
        return NULL;
    void *const *slot = cz__pvec_points((cz_params_t *)p, which);
    return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}

static size_t vector_count(const cz_params_t *p, enum cz_params_vec which)
{
    return *cz__pvec_count((cz_params_t *)p, which);
}

typedef struct {
    cz_ctx_t *ctx;
    const cz__params_source *src;
    int which;
    uint8_t *out;
    size_t n, point_bytes;
    _Atomic int rc;
} fill_arg;

#define FILL_GRAIN ((size_t)1 << 16)   /* points per pool task */

static void fill_chunk(void *arg, size_t b, size_t e, unsigned slot)
{
    (void)slot;
    fill_arg *f = arg;
    const size_t first = b * FILL_GRAIN, last = e * FILL_GRAIN < f->n ? e * FILL_GRAIN : f->n;
    int rc = f->src->read(NULL, f->src, f->which, first, last - first,
                          f->out + first * f->point_bytes);
    if (rc != CZ_OK) {
        int ok = CZ_OK;
        atomic_compare_exchange_strong(&f->rc, &ok, rc);
    }
}

/* Fill a new host copy of vector |which| from the source, on the ctx's pool (s->mu held). */
static int fill_vector(cz_ctx_t *ctx, const cz_params_t *p, enum cz_params_vec which,
                       void **out)
{
    const cz__pvec *v = &cz__pvecs[which];
    const size_t n = vector_count(p, which);
    uint8_t *mem = malloc(n ? n * v->aff_size : 1);
    if (!mem)
        return cz_fail(ctx, CZ_ENOMEM, "params: %s in host memory (%zu points)", v->name, n);
    fill_arg f = { ctx, p->source, which, mem, n, v->aff_size, CZ_OK };
    cz_pool_for(cz_ctx_pool(ctx), (n + FILL_GRAIN - 1) / FILL_GRAIN, 1, fill_chunk, &f);
    int rc = atomic_load(&f.rc);
    if (rc != CZ_OK) {
        free(mem);
        /* the pool's tasks have no ctx: say here which vector failed */
        return cz_fail(ctx, rc, "params: %s: its source failed (%s)", v->name, cz_strerror(rc));
    }
    *out = mem;
    return CZ_OK;
}

int cz_params_host(cz_ctx_t *ctx, const cz_params_t *p, enum cz_params_vec which,
                   const void **out)
{
    *out = NULL;
    if ((unsigned)which >= CZ_PV_COUNT)
        return cz_fail(ctx, CZ_EINVAL, "params: no vector %d", (int)which);
    if ((*out = cz_params_vector(p, which)) != NULL || !p->source)
        return CZ_OK;   /* resident (or, with no source, an empty vector) */
    pthread_mutex_lock(&p->source->mu);
    void **slot = cz__pvec_points((cz_params_t *)p, which);
    int rc = CZ_OK;
    void *mem = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!mem && (rc = fill_vector(ctx, p, which, &mem)) == CZ_OK)
        __atomic_store_n(slot, mem, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&p->source->mu);
    *out = mem;
    return rc;
}

int cz_params_host_all(cz_ctx_t *ctx, const cz_params_t *p)
{
    int rc = CZ_OK;
    for (int v = 0; v < CZ_PV_COUNT && rc == CZ_OK; v++) {
        const void *unused;
        rc = cz_params_host(ctx, p, (enum cz_params_vec)v, &unused);
    }
    return rc;
}

int cz_params_read(cz_ctx_t *ctx, const cz_params_t *p, enum cz_params_vec which, size_t first,
                   size_t n, void *out)
{
    if ((unsigned)which >= CZ_PV_COUNT)
        return cz_fail(ctx, CZ_EINVAL, "params: no vector %d", (int)which);
    const cz__pvec *v = &cz__pvecs[which];
    const size_t count = vector_count(p, which);
    if (first > count || n > count - first)
        return cz_fail(ctx, CZ_ERANGE, "params: %s[%zu..%zu) past its %zu points", v->name, first,
                       first + n, count);
    if (n == 0)
        return CZ_OK;
    const uint8_t *host = cz_params_vector(p, which);
    if (host) {
        memcpy(out, host + first * v->aff_size, n * v->aff_size);
        return CZ_OK;
    }
    if (!p->source)
        return cz_fail(ctx, CZ_EINTERNAL, "params: %s has neither points nor a source", v->name);
    return p->source->read(ctx, p->source, which, first, n, out);
}
