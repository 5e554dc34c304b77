/*
 * circuits/snap/parallel.c — one update partition with its independent
 * parts synthesized concurrently (cz_snap_circuit_planned, snap.h).
 *
 * The challenges of a partition only read the prelude's variables (RFP
 * storage-proofs-update/src/circuit.rs EmptySectorUpdateCircuit::
 * synthesize: every challenge uses the partition bits, h_select bits, phi,
 * the two TreeR roots and the apex leaves, and allocates the rest itself),
 * and the hashes of one apex tree row only read the row below (gadgets.rs
 * apex_por). So, in PROVE, the synthesis is the sequential code (circuit.c)
 * with two kinds of parts moved into in-place forks of the partition's cs
 * (cs/cs.h cz_cs_fork_at, the mechanism the PoRep C2 circuit uses,
 * circuits/porep/parallel.c):
 *
 *   - each apex row's hashes (64, 32, .. 2 at 8MiB and up): hash i's fork
 *     takes slot i past the parent's ends, the forks run on the pool and
 *     are extended in order before the next row forks (a row needs the one
 *     below);
 *   - every challenge at once: challenge i's fork takes slot i past the
 *     prelude's end (the whole prelude, gen_challenge_bits included, is
 *     synthesized first).
 *
 * A fork writes its aux, inputs and rows where the sequential synthesis
 * would have put them and extending only merges density bits, so the R1CS,
 * the assignment, a/b/c and the densities are the sequential synthesis's,
 * byte for byte. The slot sizes come from the plan (cz_snap_plan); a fork
 * that does not fill its slot exactly fails the extend.
 *
 * The other modes are the sequential code: SHAPE and KEYGEN give the shape
 * they always gave, CHECK names constraints by their sequential index.
 */
#include "circuits/snap/snap_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/pool.h"

/* ---- the plan ------------------------------------------------------------------- */

static void counts_of(cz_snap_counts_t *c, const cz_cs_t *cs)
{
    c->rows = cz_cs_num_constraints(cs);
    c->aux = cz_cs_num_aux(cs);
    c->inputs = cz_cs_num_inputs(cs);
}

/* *d = the counts |cs| gained since |from|. */
static void counts_since(cz_snap_counts_t *d, const cz_cs_t *cs, const cz_snap_counts_t *from)
{
    counts_of(d, cs);
    d->rows -= from->rows;
    d->aux -= from->aux;
    d->inputs -= from->inputs;
}

/*
 * Stand-ins for what a challenge and an apex hash read from the prelude,
 * of the kinds the prelude makes them: allocated bits (cz_bit_alloc,
 * cz_bits_alloc_fr_le) for the partition, h_select and challenge bits,
 * allocated nums for phi, the roots and the apex leaves. A gadget's shape
 * depends on its operands' kinds, never on which variables they are.
 */
static int stand_ins(cz_cs_t *cs, const cz_snap_params_t *p, cz__snap_shared_t *s, cz_bool_t *gen)
{
    for (unsigned i = 0; i < p->partition_bit_len; i++)
        CZ__UTRY(cz_bit_alloc(cs, &s->partition_bits[i], false));
    for (unsigned i = 0; i < CZ_SNAP_NUM_HS; i++)
        CZ__UTRY(cz_bit_alloc(cs, &s->h_select_bits[i], false));
    for (unsigned i = 0; i < p->challenge_bit_len - p->partition_bit_len; i++)
        CZ__UTRY(cz_bit_alloc(cs, &gen[i], false));
    cz_num_t *nums[] = { &s->partition, &s->comm_r_old, &s->comm_d_new, &s->comm_r_new,
                         &s->phi,       &s->comm_c,     &s->root_r_old, &s->root_r_new };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        CZ__UTRY(cz_num_alloc(cs, nums[i], NULL));
    for (unsigned i = 0; i < p->apex_leaves; i++)
        CZ__UTRY(cz_num_alloc(cs, &s->apex[i], NULL));
    return CZ_OK;
}

static int plan_in(cz_cs_t *cs, cz_snap_plan_t *out, const cz_snap_params_t *p,
                   const cz__snap_shapes_t *sh, cz__snap_shared_t *s, cz_num_t *sib)
{
    cz_bool_t gen[CZ__SNAP_MAX_BITS];
    CZ__UTRY(stand_ins(cs, p, s, gen));
    cz_snap_counts_t start;
    counts_of(&start, cs);
    CZ__UTRY(cz__snap_challenge(cs, p, sh, s, 0, gen, NULL, sib));
    counts_since(&out->challenge, cs, &start);
    if (p->apex_leaves < 2)
        return CZ_OK; /* no apex hash: its counts stay 0 */
    cz_num_t root;
    counts_of(&start, cs);
    CZ__UTRY(cz__snap_apex_hash(cs, 0, 0, &root, s->apex));
    counts_since(&out->apex_hash, cs, &start);
    return CZ_OK;
}

int cz_snap_plan(cz_snap_plan_t *out, const cz_snap_params_t *p)
{
    memset(out, 0, sizeof *out);
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, NULL, CZ_CS_SHAPE);
    if (rc)
        return rc;
    cz__snap_shapes_t sh;
    if ((rc = cz__snap_validate(cs, p, NULL, &sh))) {
        cz_cs_free(cs);
        return rc;
    }
    cz__snap_shared_t *s = malloc(sizeof *s);
    cz_num_t *sib = malloc(sizeof(cz_num_t) * cz__snap_sib_len(p, &sh));
    rc = s && sib ? plan_in(cs, out, p, &sh, s, sib) : CZ_ENOMEM;
    free(s);
    free(sib);
    cz_cs_free(cs);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}

/* ---- in-place forks over runs of parts ---------------------------------------------- */

/* Synthesizes part |i| into |fork| (an in-place fork whose slot starts at
 * part i's place or before it). */
typedef int part_fn(void *arg, cz_cs_t *fork, unsigned i);

typedef struct {
    cz_cs_t *parent;
    cz_pool_t *pool;
    const cz_snap_counts_t *each; /* one part's counts */
    unsigned n, forks_n;          /* parts, forks (each a run of parts) */
    part_fn *part;
    void *arg;
    cz_cs_t **forks;
    cz_ctx_t **ctxs;
    int *rcs;
} slots_t;

/* The parts [*lo, *hi) of fork |f|: runs of n / forks_n or one more. */
static void run_of(const slots_t *w, unsigned f, unsigned *lo, unsigned *hi)
{
    *lo = (unsigned)((uint64_t)f * w->n / w->forks_n);
    *hi = (unsigned)((uint64_t)(f + 1) * w->n / w->forks_n);
}

/* Fork |f|'s run of parts, in order, in a new in-place fork whose slot is
 * where they go (each fork its own ctx, so its message survives until the
 * forks are extended). */
static int run_fork(slots_t *w, unsigned f)
{
    int rc = cz_ctx_new(&w->ctxs[f], w->pool, 1);
    if (rc)
        return rc;
    const cz_snap_counts_t *c = w->each;
    unsigned lo, hi;
    run_of(w, f, &lo, &hi);
    const size_t m = hi - lo;
    cz_cs_slot_t at = { lo * c->inputs, lo * c->aux, lo * c->rows,
                        m * c->inputs,  m * c->aux,  m * c->rows };
    rc = cz_cs_fork_at(&w->forks[f], w->parent, &at, w->ctxs[f]);
    for (unsigned i = lo; rc == CZ_OK && i < hi; i++)
        rc = w->part(w->arg, w->forks[f], i);
    return rc;
}

static void run_forks(void *arg, size_t begin, size_t end, unsigned slot)
{
    slots_t *w = arg;
    (void)slot;
    for (size_t f = begin; f < end; f++)
        w->rcs[f] = run_fork(w, (unsigned)f);
}

/*
 * Parts 0..n-1, each of |each|'s counts, synthesized on the pool into
 * in-place forks of |cs| at consecutive slots past its ends, then |cs|
 * extended with the forks in order (the first failure is reported on
 * |ctx|, naming |what| and the part's run).
 *
 * One fork per thread, each a run of consecutive parts (the parts are of
 * one size, so runs of n / width balance as well as one fork per part),
 * not one fork per part: every fork costs its density bitmaps, which span
 * the parent's whole range (calloc'd, so zeroed or faulted in, and their
 * low part OR-ed into the parent on extend). With one fork per apex hash
 * and challenge (137 at 8MiB, 45K-415K rows each) the parallel synthesis
 * took 3.2x the sequential CPU time on the 2-core VM (memset, or_bits and
 * page faults in the profile); with runs, 1.1-1.2x.
 */
static int run_slots(cz_ctx_t *ctx, cz_cs_t *cs, cz_pool_t *pool, const cz_snap_counts_t *each,
                     unsigned n, part_fn *part, void *arg, const char *what)
{
    int rc = cz_cs_room(cs, n * each->rows, n * each->aux, n * each->inputs);
    if (rc)
        return rc;
    const unsigned width = cz_pool_width(pool), nf = n < width ? n : width;
    slots_t w = { cs,
                  pool,
                  each,
                  n,
                  nf,
                  part,
                  arg,
                  calloc(nf, sizeof(cz_cs_t *)),
                  calloc(nf, sizeof(cz_ctx_t *)),
                  calloc(nf, sizeof(int)) };
    if (!w.forks || !w.ctxs || !w.rcs)
        rc = cz_fail(ctx, CZ_ENOMEM, "snap: out of memory for %u forks", nf);
    else
        cz_pool_for(pool, nf, 1, run_forks, &w);
    for (unsigned f = 0; w.forks && w.ctxs && w.rcs && f < nf; f++) {
        unsigned lo, hi;
        run_of(&w, f, &lo, &hi);
        if (rc == CZ_OK && w.rcs[f])
            rc = cz_fail(ctx, w.rcs[f], "snap: %s %u..%u: %s", what, lo, hi - 1,
                         w.ctxs[f] && cz_ctx_message(w.ctxs[f])[0] ? cz_ctx_message(w.ctxs[f])
                                                                   : cz_strerror(w.rcs[f]));
        if (rc == CZ_OK)
            rc = cz_cs_extend(cs, w.forks[f]);
        cz_cs_free(w.forks[f]);
        cz_ctx_free(w.ctxs[f]);
    }
    free(w.forks);
    free(w.ctxs);
    free(w.rcs);
    return rc;
}

/* ---- the parts ---------------------------------------------------------------------- */

typedef struct {
    cz_ctx_t *ctx;
    cz_pool_t *pool;
    const cz_snap_plan_t *plan;
    /* the apex row being synthesized */
    unsigned r;
    const cz_num_t *below;
    cz_num_t *out;
} apex_t;

static int apex_part(void *arg, cz_cs_t *fork, unsigned i)
{
    const apex_t *a = arg;
    return cz__snap_apex_hash(fork, a->r, i, &a->out[i], &a->below[2 * i]);
}

/* cz__snap_apex_row_fn: a row's hashes in forks (one hash: directly). */
static int apex_row(void *arg, cz_cs_t *cs, unsigned r, const cz_num_t *below, cz_num_t *out,
                    unsigned n)
{
    apex_t *a = arg;
    if (n == 1)
        return cz__snap_apex_hash(cs, r, 0, &out[0], below);
    a->r = r;
    a->below = below;
    a->out = out;
    return run_slots(a->ctx, cs, a->pool, &a->plan->apex_hash, n, apex_part, a, "apex hash");
}

typedef struct {
    const cz_snap_params_t *p;
    const cz__snap_shapes_t *sh;
    const cz__snap_shared_t *s;
    const cz_bool_t *gen;
    const cz_snap_input_t *in;
    size_t sib_len;
} challenges_t;

static int challenge_part(void *arg, cz_cs_t *fork, unsigned i)
{
    const challenges_t *c = arg;
    cz_num_t *sib = malloc(sizeof(cz_num_t) * c->sib_len);
    if (!sib)
        return CZ_ENOMEM;
    int rc = cz__snap_challenge(fork, c->p, c->sh, c->s, i, &c->gen[(size_t)i * CZ__SNAP_MAX_BITS],
                                c->in ? &c->in->ch[i] : NULL, sib);
    free(sib);
    return rc;
}

/* ---- the partition ------------------------------------------------------------------ */

int cz_snap_circuit_planned(cz_ctx_t *ctx, cz_cs_t *cs, const cz_snap_params_t *p,
                            const cz_snap_input_t *in, const cz_snap_plan_t *plan)
{
    cz__snap_shapes_t sh;
    int rc = cz__snap_validate(cs, p, in, &sh);
    if (rc)
        return cz_fail(ctx, rc, "snap: invalid parameters or input");
    cz_pool_t *pool = ctx ? cz_ctx_pool(ctx) : NULL;
    if (cz_cs_mode(cs) != CZ_CS_PROVE || cz_pool_width(pool) <= 1 || p->challenges <= 1)
        return cz_snap_circuit(cs, p, in);
    cz_snap_plan_t own;
    if (!plan) {
        if ((rc = cz_snap_plan(&own, p)))
            return cz_fail(ctx, rc, "snap: planning the partition: %s", cz_strerror(rc));
        plan = &own;
    }
    cz__snap_shared_t *s = malloc(sizeof *s);
    cz_bool_t *gen = malloc(sizeof(cz_bool_t) * CZ__SNAP_MAX_BITS * p->challenges);
    if (!s || !gen)
        rc = cz_fail(ctx, CZ_ENOMEM, "snap: out of memory");
    apex_t a = { ctx, pool, plan, 0, NULL, NULL };
    if (rc == CZ_OK)
        rc = cz__snap_prelude(cs, p, &sh, s, in, gen, apex_row, &a);
    challenges_t c = { p, &sh, s, gen, in, cz__snap_sib_len(p, &sh) };
    if (rc == CZ_OK)
        rc = run_slots(ctx, cs, pool, &plan->challenge, p->challenges, challenge_part, &c,
                       "challenge");
    free(s);
    free(gen);
    return rc;
}
