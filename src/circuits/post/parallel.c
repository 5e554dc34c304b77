/*
 * circuits/post/parallel.c — one FallbackPoSt partition with its sectors
 * synthesized concurrently (cz_post_synthesize, see fallback.h).
 *
 * The circuit sectors share no variable but ONE (RFP circuit.rs
 * synthesize_extendable runs groups of them in fresh constraint systems
 * and extends the parent in order), so the partition splits into one
 * contiguous group of sectors per pool thread, each synthesized into a
 * fork of the (empty) parent and appended in group order: the R1CS,
 * assignment and densities of the sequential synthesis, byte for byte.
 *
 * PROVE: every sector has the same shape, so group g gets an in-place fork
 * whose slot starts g x group x (one sector's counts) past ONE: the forks
 * write their rows and values where the sequential synthesis puts them and
 * extending only merges density bits. Other modes (SHAPE, KEYGEN, CHECK):
 * copying forks, one per thread, all at once.
 */
#include "circuits/post/post_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/pool.h"

typedef struct {
    size_t rows, aux, inputs;
} counts_t;

static void counts_of(counts_t *c, const cz_cs_t *cs)
{
    c->rows = cz_cs_num_constraints(cs);
    c->aux = cz_cs_num_aux(cs);
    c->inputs = cz_cs_num_inputs(cs);
}

/* One circuit sector's counts, from a SHAPE synthesis of sector 0. */
static int sector_counts(counts_t *out, const cz_post_params_t *p, const cz_por_shape_t *s)
{
    cz_cs_t *cs;
    CZ__QTRY(cz_cs_new(&cs, NULL, CZ_CS_SHAPE));
    counts_t a, b;
    counts_of(&a, cs);
    int rc = cz__post_sector(cs, p, s, 0, NULL);
    counts_of(&b, cs);
    cz_cs_free(cs);
    out->rows = b.rows - a.rows;
    out->aux = b.aux - a.aux;
    out->inputs = b.inputs - a.inputs;
    return rc;
}

typedef struct {
    cz_cs_t *parent;
    const cz_post_params_t *p;
    const cz_por_shape_t *s;
    const cz_post_witness_t *w;
    cz_pool_t *pool;
    const counts_t *per; /* in place: one sector's counts; NULL: copying */
    unsigned group;      /* sectors per group */
    cz_cs_t **forks;
    cz_ctx_t **ctxs;
    int *rcs;
} tasks_t;

static int run_group(tasks_t *t, unsigned g)
{
    const unsigned first = g * t->group;
    const unsigned n = t->p->sectors - first < t->group ? t->p->sectors - first : t->group;
    CZ__QTRY(cz_ctx_new(&t->ctxs[g], t->pool, 1));
    if (t->per) {
        const counts_t *c = t->per;
        cz_cs_slot_t at = { first * c->inputs, first * c->aux, first * c->rows,
                            n * c->inputs,     n * c->aux,     n * c->rows };
        CZ__QTRY(cz_cs_fork_at(&t->forks[g], t->parent, &at, t->ctxs[g]));
    } else {
        CZ__QTRY(cz_cs_fork(&t->forks[g], t->parent, t->ctxs[g]));
    }
    for (unsigned i = first; i < first + n; i++)
        CZ__QTRY(cz__post_sector(t->forks[g], t->p, t->s, i, t->w ? &t->w->sector[i] : NULL));
    return CZ_OK;
}

static void run_tasks(void *arg, size_t begin, size_t end, unsigned slot)
{
    tasks_t *t = arg;
    (void)slot;
    for (size_t g = begin; g < end; g++)
        t->rcs[g] = run_group(t, (unsigned)g);
}

int cz_post_synthesize(cz_ctx_t *ctx, cz_cs_t *cs, const cz_post_params_t *p,
                       const cz_post_witness_t *w)
{
    cz_por_shape_t s;
    int rc = cz__post_validate(cs, p, w, &s);
    if (rc)
        return cz_fail(ctx, rc, "post: invalid parameters or witness");
    cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
    const unsigned width = cz_pool_width(pool);
    if (width <= 1 || p->sectors == 1)
        return cz_post_circuit(cs, p, w);

    const unsigned ngroups = p->sectors < width ? p->sectors : width;
    const unsigned group = (p->sectors + ngroups - 1) / ngroups;
    const unsigned ntasks = (p->sectors + group - 1) / group;
    const bool inplace = cz_cs_mode(cs) == CZ_CS_PROVE;
    counts_t per;
    if (inplace) {
        if ((rc = sector_counts(&per, p, &s)))
            return cz_fail(ctx, rc, "post: planning the sectors: %s", cz_strerror(rc));
        if ((rc = cz_cs_room(cs, p->sectors * per.rows, p->sectors * per.aux,
                             p->sectors * per.inputs)))
            return cz_fail(ctx, rc, "post: reserving the partition: %s", cz_strerror(rc));
    }
    tasks_t t = { cs,
                  p,
                  &s,
                  w,
                  pool,
                  inplace ? &per : NULL,
                  group,
                  calloc(ntasks, sizeof(cz_cs_t *)),
                  calloc(ntasks, sizeof(cz_ctx_t *)),
                  calloc(ntasks, sizeof(int)) };
    if (!t.forks || !t.ctxs || !t.rcs) {
        rc = cz_fail(ctx, CZ_ENOMEM, "post: out of memory");
    } else {
        cz_pool_for(pool, ntasks, 1, run_tasks, &t);
        for (unsigned g = 0; g < ntasks; g++) {
            if (rc == CZ_OK && t.rcs[g])
                rc = cz_fail(ctx, t.rcs[g], "post: sectors from %u: %s", g * group,
                             t.ctxs[g] && cz_ctx_message(t.ctxs[g])[0] ? cz_ctx_message(t.ctxs[g])
                                                                       : cz_strerror(t.rcs[g]));
            if (rc == CZ_OK)
                rc = cz_cs_extend(cs, t.forks[g]);
            cz_cs_free(t.forks[g]);
            cz_ctx_free(t.ctxs[g]);
        }
    }
    free(t.forks);
    free(t.ctxs);
    free(t.rcs);
    return rc;
}
