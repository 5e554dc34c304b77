/*
 * circuits/porep/parallel.c — one partition with its challenges synthesized
 * concurrently (cz_porep_synthesize, see stacked.h).
 *
 * The challenges of a partition only share the prelude's variables
 * (replica_id bits, comm_d, comm_c, comm_r_last: RFP proof.rs passes them
 * to every Proof::synthesize), so each challenge can be synthesized into a
 * fork of the cs holding the prelude (cz_cs_fork) and the forks appended
 * in challenge order (cz_cs_extend): the R1CS, assignment, a/b/c and
 * densities are those of the sequential synthesis, byte for byte.
 *
 * Memory: a fork reads the parent's values in place (cz_cs_fork: no copy,
 * so the parent must not change while a wave runs) and stores only its own
 * rows and aux; a PROVE fork of a 32GiB challenge holds ~7.2M rows (a, b:
 * c is not stored when the parent omits it, as the provers do) and ~7.2M
 * aux, ~0.7 GB (~0.9 GB with c), until it is appended. Challenges therefore
 * run in waves of at most the pool's width, each wave appended (and freed)
 * before the next starts: peak = the partition + one wave of forks. The
 * wave size evens the waves out (18 challenges on 16 threads: 2 waves of 9).
 */
#include "circuits/porep/porep_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/pool.h"

typedef struct {
    const cz_cs_t *parent;
    const cz_porep_params_t *p;
    const cz__porep_shapes_t *sh;
    const cz__porep_shared_t *shared;
    const cz_porep_input_t *in;
    cz_pool_t *pool;
    unsigned first;          /* challenge of task 0 of this wave */
    cz_cs_t **forks;         /* [wave] */
    cz_ctx_t **ctxs;         /* [wave] */
    int *rcs;                /* [wave] */
} wave_t;

static void run_tasks(void *arg, size_t begin, size_t end, unsigned slot)
{
    wave_t *w = arg;
    (void)slot;
    for (size_t t = begin; t < end; t++) {
        unsigned i = w->first + (unsigned)t;
        int rc = cz_ctx_new(&w->ctxs[t], w->pool, 1);
        cz__porep_scratch_t *scr = rc ? NULL : malloc(sizeof *scr);
        if (!rc && !scr)
            rc = CZ_ENOMEM;
        if (!rc)
            rc = cz_cs_fork(&w->forks[t], w->parent, w->ctxs[t]);
        if (!rc)
            rc = cz__porep_challenge(w->forks[t], w->p, w->sh, w->shared, i,
                                     w->in ? &w->in->ch[i] : NULL, scr);
        free(scr);
        w->rcs[t] = rc;
    }
}

int cz_porep_synthesize(cz_ctx_t *ctx, cz_cs_t *cs, const cz_porep_params_t *p,
                        const cz_porep_input_t *in)
{
    cz__porep_shapes_t sh;
    int rc = cz__porep_validate(cs, p, in, &sh);
    if (rc)
        return cz_fail(ctx, rc, "porep: invalid parameters or input");
    cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
    unsigned width = cz_pool_width(pool);
    if (width <= 1 || p->challenges == 1)
        return cz_porep_circuit(cs, p, in);

    cz__porep_shared_t shared;
    CZ__PTRY(cz__porep_prelude(cs, &shared, in));
    const unsigned C = p->challenges;
    const unsigned nwaves = (C + width - 1) / width;
    const unsigned wave = (C + nwaves - 1) / nwaves;
    cz_cs_t **forks = calloc(wave, sizeof *forks);
    cz_ctx_t **ctxs = calloc(wave, sizeof *ctxs);
    int *rcs = calloc(wave, sizeof *rcs);
    if (!forks || !ctxs || !rcs) {
        rc = cz_fail(ctx, CZ_ENOMEM, "porep: out of memory");
        goto out;
    }
    for (unsigned first = 0; first < C && rc == CZ_OK; first += wave) {
        unsigned n = C - first < wave ? C - first : wave;
        wave_t w = { cs, p, &sh, &shared, in, pool, first, forks, ctxs, rcs };
        cz_pool_for(pool, n, 1, run_tasks, &w);
        for (unsigned t = 0; t < n; t++) {
            if (rc == CZ_OK && rcs[t])
                rc = cz_fail(ctx, rcs[t], "porep: challenge %u: %s", first + t,
                             ctxs[t] && cz_ctx_message(ctxs[t])[0]
                                 ? cz_ctx_message(ctxs[t])
                                 : cz_strerror(rcs[t]));
            if (rc == CZ_OK)
                rc = cz_cs_extend(cs, forks[t]);
            cz_cs_free(forks[t]);
            cz_ctx_free(ctxs[t]);
            forks[t] = NULL;
            ctxs[t] = NULL;
        }
    }
out:
    free(forks);
    free(ctxs);
    free(rcs);
    return rc;
}
