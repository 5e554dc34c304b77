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
    const cz__params_source *src;
    int which;
    uint8_t *out;
    size_t n, point_bytes;
    atomic_size_t first_bad_chunk; /* SIZE_MAX: none failed */
} fill_arg;

#define FILL_GRAIN ((size_t)1 << 16) /* points per pool task */

/* Points [c * FILL_GRAIN, ...) of the vector: chunk c's range. */
static int fill_one_chunk(cz_ctx_t *ctx, const fill_arg *f, size_t c)
{
    const size_t first = c * FILL_GRAIN, n = f->n - first < FILL_GRAIN ? f->n - first : FILL_GRAIN;
    return f->src->read(ctx, f->src, f->which, first, n, f->out + first * f->point_bytes);
}

static void fill_chunk(void *arg, size_t b, size_t e, unsigned slot)
{
    (void)slot;
    fill_arg *f = arg;
    for (size_t c = b; c < e; c++)
        if (fill_one_chunk(NULL, f, c) != CZ_OK) {
            size_t cur = atomic_load(&f->first_bad_chunk);
            while (c < cur && !atomic_compare_exchange_weak(&f->first_bad_chunk, &cur, c))
                ;
            return;
        }
}

/* Fill a new host copy of vector |which| from the source, on the ctx's pool (s->mu held). */
static int fill_vector(cz_ctx_t *ctx, const cz_params_t *p, enum cz_params_vec which, void **out)
{
    const cz__pvec *v = &cz__pvecs[which];
    const size_t n = vector_count(p, which);
    uint8_t *mem = malloc(n ? n * v->aff_size : 1);
    if (!mem)
        return cz_fail(ctx, CZ_ENOMEM, "params: %s in host memory (%zu points)", v->name, n);
    fill_arg f = { p->source, which, mem, n, v->aff_size, SIZE_MAX };
    cz_pool_for(cz_ctx_pool(ctx), (n + FILL_GRAIN - 1) / FILL_GRAIN, 1, fill_chunk, &f);
    const size_t bad = atomic_load(&f.first_bad_chunk);
    if (bad != SIZE_MAX) {
        /* the pool's tasks have no ctx: the first failed chunk again, for its message */
        int rc = fill_one_chunk(ctx, &f, bad);
        free(mem);
        return rc != CZ_OK ? rc
                           : cz_fail(ctx, CZ_EIO, "params: %s: a read failed once only", v->name);
    }
    *out = mem;
    return CZ_OK;
}

int cz_params_host(cz_ctx_t *ctx, const cz_params_t *p, enum cz_params_vec which, const void **out)
{
    *out = NULL;
    if ((unsigned)which >= CZ_PV_COUNT)
        return cz_fail(ctx, CZ_EINVAL, "params: no vector %d", (int)which);
    if ((*out = cz_params_vector(p, which)) != NULL || !p->source)
        return CZ_OK; /* resident (or, with no source, an empty vector) */
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

bool cz_params_has_encoded(const cz_params_t *p)
{
    return p->source && p->source->read_encoded;
}

int cz_params_read_encoded(cz_ctx_t *ctx, const cz_params_t *p, enum cz_params_vec which,
                           size_t first, size_t n, void *out)
{
    if ((unsigned)which >= CZ_PV_COUNT)
        return cz_fail(ctx, CZ_EINVAL, "params: no vector %d", (int)which);
    if (!cz_params_has_encoded(p))
        return cz_fail(ctx, CZ_EUNAVAIL, "params: not opened from a file: no encoded points");
    const size_t count = vector_count(p, which);
    if (first > count || n > count - first)
        return cz_fail(ctx, CZ_ERANGE, "params: %s[%zu..%zu) past its %zu points",
                       cz__pvecs[which].name, first, first + n, count);
    return n ? p->source->read_encoded(ctx, p->source, which, first, n, out) : CZ_OK;
}
