/*
 * circuits/porep/parallel.c — one partition with its challenges synthesized
 * concurrently (cz_porep_synthesize, see stacked.h).
 *
 * The challenges of a partition only share the prelude's variables
 * (replica_id bits, comm_d, comm_c, comm_r_last: RFP proof.rs passes them
 * to every Proof::synthesize), so each challenge can be synthesized into a
 * fork of the cs holding the prelude and the forks appended in challenge
 * order (cz_cs_extend): the R1CS, assignment, a/b/c and densities are those
 * of the sequential synthesis, byte for byte.
 *
 * PROVE (what the engine runs): every challenge has the same shape, known
 * ahead (cz_porep_plan), so challenge i gets an in-place fork whose slot
 * starts i challenges past the prelude: it writes its aux, inputs and rows
 * where the sequential synthesis would have put them, and extending only
 * merges density bits. All challenges run at once on the pool (a fork
 * holds only its density bitmaps, ~2 MB at 32GiB), so 18 challenges keep
 * up to 18 threads busy; the partition's memory is its reserved arrays.
 *
 * Other modes (SHAPE, KEYGEN, CHECK): copying forks, which read the
 * parent's values in place (cz_cs_fork) and store their own until they
 * are appended, in waves of at most the pool's width (each wave appended
 * and freed before the next); the wave size evens the waves out.
 */
#include "circuits/porep/porep_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/pool.h"

/* ---- the plan ------------------------------------------------------------------- */

static void counts_of(cz_porep_counts_t *c, const cz_cs_t *cs)
{
    c->rows = cz_cs_num_constraints(cs);
    c->aux = cz_cs_num_aux(cs);
    c->inputs = cz_cs_num_inputs(cs);
}

/* d = a - b */
static void counts_sub(cz_porep_counts_t *d, const cz_porep_counts_t *a, const cz_porep_counts_t *b)
{
    d->rows = a->rows - b->rows;
    d->aux = a->aux - b->aux;
    d->inputs = a->inputs - b->inputs;
}

int cz_porep_plan(cz_porep_plan_t *out, const cz_porep_params_t *p)
{
    memset(out, 0, sizeof *out);
    cz__porep_shapes_t sh;
    if (cz__porep_shapes(&sh, p))
        return CZ_EINVAL;
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, NULL, CZ_CS_SHAPE);
    if (rc)
        return rc;
    cz__porep_scratch_t *scr = malloc(sizeof *scr);
    cz__porep_shared_t shared;
    cz_porep_counts_t start, mid, end;
    counts_of(&start, cs); /* ONE */
    rc = scr ? cz__porep_prelude(cs, &shared, NULL) : CZ_ENOMEM;
    counts_of(&mid, cs);
    if (rc == CZ_OK)
        rc = cz__porep_challenge(cs, p, &sh, &shared, 0, NULL, scr);
    counts_of(&end, cs);
    counts_sub(&out->prelude, &mid, &start);
    counts_sub(&out->challenge, &end, &mid);
    free(scr);
    cz_cs_free(cs);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}

/* ---- the challenges' tasks ------------------------------------------------------ */

typedef struct {
    cz_cs_t *parent;
    const cz_porep_params_t *p;
    const cz__porep_shapes_t *sh;
    const cz__porep_shared_t *shared;
    const cz_porep_input_t *in;
    cz_pool_t *pool;
    const cz_porep_counts_t *slot; /* in-place: one challenge's counts; NULL: copying */
    unsigned first;                /* challenge of task 0 */
    cz_cs_t **forks;
    cz_ctx_t **ctxs;
    int *rcs;
} tasks_t;

/* Challenge |i| into a new fork of the parent: in place (slot i) or copying. */
static int run_challenge(tasks_t *w, unsigned i, size_t t)
{
    int rc = cz_ctx_new(&w->ctxs[t], w->pool, 1);
    if (rc)
        return rc;
    cz__porep_scratch_t *scr = malloc(sizeof *scr);
    if (!scr)
        return CZ_ENOMEM;
    if (w->slot) {
        const cz_porep_counts_t *c = w->slot;
        cz_cs_slot_t at = { i * c->inputs, i * c->aux, i * c->rows, c->inputs, c->aux, c->rows };
        rc = cz_cs_fork_at(&w->forks[t], w->parent, &at, w->ctxs[t]);
    } else {
        rc = cz_cs_fork(&w->forks[t], w->parent, w->ctxs[t]);
    }
    if (rc == CZ_OK)
        rc = cz__porep_challenge(w->forks[t], w->p, w->sh, w->shared, i,
                                 w->in ? &w->in->ch[i] : NULL, scr);
    free(scr);
    return rc;
}

static void run_tasks(void *arg, size_t begin, size_t end, unsigned slot)
{
    tasks_t *w = arg;
    (void)slot;
    for (size_t t = begin; t < end; t++)
        w->rcs[t] = run_challenge(w, w->first + (unsigned)t, t);
}

/* Run challenges [first, first + n) as tasks 0..n-1, then extend the parent
 * with them in order (the first failure is reported) and free them. */
static int run_and_extend(cz_ctx_t *ctx, tasks_t *w, unsigned first, unsigned n)
{
    int rc = CZ_OK;
    w->first = first;
    cz_pool_for(w->pool, n, 1, run_tasks, w);
    for (unsigned t = 0; t < n; t++) {
        if (rc == CZ_OK && w->rcs[t])
            rc = cz_fail(ctx, w->rcs[t], "porep: challenge %u: %s", first + t,
                         w->ctxs[t] && cz_ctx_message(w->ctxs[t])[0] ? cz_ctx_message(w->ctxs[t])
                                                                     : cz_strerror(w->rcs[t]));
        if (rc == CZ_OK)
            rc = cz_cs_extend(w->parent, w->forks[t]);
        cz_cs_free(w->forks[t]);
        cz_ctx_free(w->ctxs[t]);
        w->forks[t] = NULL;
        w->ctxs[t] = NULL;
        w->rcs[t] = CZ_OK;
    }
    return rc;
}

/* The slots of |plan| for this cs: the prelude must match it, and the
 * parent gets the room for all challenges. */
static int prepare_inplace(cz_ctx_t *ctx, cz_cs_t *cs, const cz_porep_params_t *p,
                           const cz_porep_plan_t *plan, const cz_porep_counts_t *start)
{
    cz_porep_counts_t now, pre;
    counts_of(&now, cs);
    counts_sub(&pre, &now, start);
    if (memcmp(&pre, &plan->prelude, sizeof pre))
        return cz_fail(ctx, CZ_EINVAL,
                       "porep: the plan is for another circuit (prelude of "
                       "%zu rows, this one has %zu)",
                       plan->prelude.rows, pre.rows);
    const size_t C = p->challenges;
    return cz_cs_room(cs, C * plan->challenge.rows, C * plan->challenge.aux,
                      C * plan->challenge.inputs);
}

int cz_porep_synthesize_planned(cz_ctx_t *ctx, cz_cs_t *cs, const cz_porep_params_t *p,
                                const cz_porep_input_t *in, const cz_porep_plan_t *plan)
{
    cz__porep_shapes_t sh;
    int rc = cz__porep_validate(cs, p, in, &sh);
    if (rc)
        return cz_fail(ctx, rc, "porep: invalid parameters or input");
    cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
    const unsigned width = cz_pool_width(pool), C = p->challenges;
    if (width <= 1 || C == 1)
        return cz_porep_circuit(cs, p, in);

    const bool inplace = cz_cs_mode(cs) == CZ_CS_PROVE;
    cz_porep_plan_t own;
    if (inplace && !plan) {
        if ((rc = cz_porep_plan(&own, p)))
            return cz_fail(ctx, rc, "porep: planning the challenges: %s", cz_strerror(rc));
        plan = &own;
    }
    cz_porep_counts_t start;
    counts_of(&start, cs);
    cz__porep_shared_t shared;
    CZ__PTRY(cz__porep_prelude(cs, &shared, in));
    if (inplace && (rc = prepare_inplace(ctx, cs, p, plan, &start)))
        return rc;

    /* In place: every challenge at once. Copying: waves of <= width. */
    const unsigned nwaves = inplace ? 1 : (C + width - 1) / width;
    const unsigned wave = (C + nwaves - 1) / nwaves;
    tasks_t w = { cs,
                  p,
                  &sh,
                  &shared,
                  in,
                  pool,
                  inplace ? &plan->challenge : NULL,
                  0,
                  calloc(wave, sizeof(cz_cs_t *)),
                  calloc(wave, sizeof(cz_ctx_t *)),
                  calloc(wave, sizeof(int)) };
    if (!w.forks || !w.ctxs || !w.rcs)
        rc = cz_fail(ctx, CZ_ENOMEM, "porep: out of memory");
    for (unsigned first = 0; first < C && rc == CZ_OK; first += wave)
        rc = run_and_extend(ctx, &w, first, C - first < wave ? C - first : wave);
    free(w.forks);
    free(w.ctxs);
    free(w.rcs);
    return rc;
}

int cz_porep_synthesize(cz_ctx_t *ctx, cz_cs_t *cs, const cz_porep_params_t *p,
                        const cz_porep_input_t *in)
{
    return cz_porep_synthesize_planned(ctx, cs, p, in, NULL);
}
