/*
 * cs/cs_fork.c — forking a constraint system and appending a fork back
 * (cz_cs_fork / cz_cs_extend, see cs/cs.h), so independent parts of a
 * circuit can be synthesized on several threads and still produce the
 * R1CS, the assignment, a/b/c and the densities of a sequential synthesis.
 *
 * A fork starts with the parent's variables (counts, and in PROVE and
 * CHECK their values, read in place from the parent: no copy) and no
 * constraints, so the part's gadgets can use the parent's variables by
 * their ids and allocate their own after them. Reading in place matters:
 * at a 32GiB PoRep partition the parent holds up to ~4 GB of aux values
 * when the last challenges fork, and copying them into every fork of a
 * wave cost ~3.7 GB per fork (synthesis peak 19.7 GiB on 2 threads, 12.8
 * in place). A fork of a fork copies (its parent's values are in two
 * places). A fork omits c when its parent does (cz_cs_omit_c).
 *
 * Extending the parent appends the fork's own variables and rows:
 * values and a/b/c are positional and copied as they are; density bits of
 * the parent's variables are OR-ed in, the fork's own are shifted to where
 * its variables land; KEYGEN columns of the fork's own variables are
 * renumbered. The fork's own variables never appear in another fork, so
 * these rules reproduce the sequential order exactly.
 *
 * In-place forks (cz_cs_fork_at, PROVE) skip the copies: the fork's
 * frvecs and a/b/c point into the parent's reserved arrays at the slot's
 * start (fixed: they never grow), its ids are the final ones, and its
 * density bitmaps are calloc'd for the whole range (the other slots' pages
 * stay untouched). Extending checks the slot is exactly filled and is the
 * next one, ORs the bits in at the same positions and moves the parent's
 * ends; nothing else moves.
 */
#include "cs/cs_int.h"

#include <stdlib.h>
#include <string.h>

/* Make room for |need| elements of |elem| bytes in *p (capacity *cap). */
static int ensure(void **p, size_t *cap, size_t need, size_t elem, bool zero)
{
    if (need <= *cap)
        return CZ_OK;
    size_t ncap = *cap ? *cap : 64;
    while (ncap < need)
        ncap *= 2;
    if (ncap > SIZE_MAX / elem)
        return CZ_ENOMEM;
    void *q = realloc(*p, ncap * elem);
    if (!q)
        return CZ_ENOMEM;
    if (zero)
        memset((char *)q + *cap * elem, 0, (ncap - *cap) * elem);
    *p = q;
    *cap = ncap;
    return CZ_OK;
}

static bool has_values(const cz_cs_t *cs)
{
    return cs->mode == CZ_CS_PROVE || cs->mode == CZ_CS_CHECK;
}

/* dst (a new fork's, empty) takes src's elements: borrowed, or copied when src borrows. */
static int copy_vec(cz__frvec *dst, const cz__frvec *src, bool values)
{
    if (values && src->base == 0) {
        dst->shared = src->v;
        dst->base = src->len;
    } else if (values) {
        if (ensure((void **)&dst->v, &dst->cap, src->len, sizeof(cz_fr), false))
            return CZ_ENOMEM;
        memcpy(dst->v, src->shared, src->base * sizeof(cz_fr));
        memcpy(dst->v + src->base, src->v, (src->len - src->base) * sizeof(cz_fr));
    }
    dst->len = src->len;
    return CZ_OK;
}

int cz_cs_fork(cz_cs_t **out, const cz_cs_t *parent, cz_ctx_t *ctx)
{
    *out = NULL;
    if (parent->err)
        return parent->err;
    if (parent->finished || parent->taken)
        return cz_fail(ctx, CZ_EINVAL, "cs: fork of a finished cs");
    if (parent->inplace_parent)
        return cz_fail(ctx, CZ_EINVAL, "cs: fork of an in-place fork");
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, ctx, parent->mode);
    if (rc)
        return rc;
    cs->omit_c = parent->omit_c;
    cs->emit_generic = parent->emit_generic;
    const bool vals = has_values(parent);
    if (copy_vec(&cs->input, &parent->input, vals) || copy_vec(&cs->aux, &parent->aux, vals))
        goto nomem;
    const size_t nbits[3] = { parent->aux.len, parent->input.len, parent->aux.len };
    for (int i = 0; i < 3; i++) {
        cz__bitmap *bm = &cs->dens[i];
        if (ensure((void **)&bm->w, &bm->cap, (nbits[i] + 63) / 64 + 1, sizeof(uint64_t), true))
            goto nomem;
        memset(bm->w, 0, bm->cap * sizeof(uint64_t));
        bm->nbits = nbits[i];
    }
    cs->fork_inputs = parent->input.len;
    cs->fork_aux = parent->aux.len;
    cs->forked = true;
    *out = cs;
    return CZ_OK;
nomem:
    cz_cs_free(cs);
    return cz_fail(ctx, CZ_ENOMEM, "cs: fork of %zu variables", parent->aux.len);
}

/* dst bits [doff, doff + n) |= src bits [soff, soff + n). */
static void or_bits(uint64_t *dst, size_t doff, const uint64_t *src, size_t soff, size_t n)
{
    size_t k = 0;
    /* Bit by bit up to a word boundary of dst, then whole dst words. */
    for (; k < n && ((doff + k) & 63); k++)
        if ((src[(soff + k) >> 6] >> ((soff + k) & 63)) & 1)
            dst[(doff + k) >> 6] |= 1ull << ((doff + k) & 63);
    for (; k + 64 <= n; k += 64) {
        size_t s = soff + k, sh = s & 63;
        uint64_t w = src[s >> 6] >> sh;
        if (sh)
            w |= src[(s >> 6) + 1] << (64 - sh);
        dst[(doff + k) >> 6] |= w;
    }
    for (; k < n; k++)
        if ((src[(soff + k) >> 6] >> ((soff + k) & 63)) & 1)
            dst[(doff + k) >> 6] |= 1ull << ((doff + k) & 63);
}

/*
 * OR |fork|'s density bitmaps (indexed by cz_density_t) into |cs|'s: bits
 * [0, low) in place (the parent's variables), the fork's own bits
 * [from, from + own) to [to, to + own); the bitmaps end at to + own.
 */
static int merge_densities(cz_cs_t *cs, const cz_cs_t *fork, const size_t low[3],
                           const size_t from[3], const size_t to[3], const size_t own[3])
{
    for (int i = 0; i < 3; i++) {
        cz__bitmap *bm = &cs->dens[i];
        if (ensure((void **)&bm->w, &bm->cap, (to[i] + own[i] + 63) / 64 + 1, sizeof(uint64_t),
                   true))
            return cz__cs_fail(cs, CZ_ENOMEM, "cs: extend densities");
        or_bits(bm->w, 0, fork->dens[i].w, 0, low[i]);
        or_bits(bm->w, to[i], fork->dens[i].w, from[i], own[i]);
        bm->nbits = to[i] + own[i];
    }
    return CZ_OK;
}

/* Append src's elements [from, len) (a fork's own: from >= src->base). */
static int append_vec(cz__frvec *dst, const cz__frvec *src, size_t from, bool values)
{
    size_t n = src->len - from, own = dst->len - dst->base;
    if (values && n) {
        if (ensure((void **)&dst->v, &dst->cap, own + n, sizeof(cz_fr), false))
            return CZ_ENOMEM;
        memcpy(dst->v + own, cz__frvec_at(src, from), n * sizeof(cz_fr));
    }
    dst->len += n;
    return CZ_OK;
}

/* KEYGEN: append |src|'s rows to |dst|, own ids moved to the parent's slots. */
static int append_csr(cz__csr_builder *dst, const cz__csr_builder *src, uint32_t in_base,
                      uint32_t in_to, uint32_t aux_base, uint32_t aux_to)
{
    const cz_csr_t *s = &src->m;
    cz_csr_t *d = &dst->m;
    size_t ccap = dst->nnz_cap, vcap = dst->nnz_cap;
    if (ensure((void **)&d->row_ptr, &dst->row_cap, d->rows + s->rows + 1, sizeof(uint64_t),
               false) ||
        ensure((void **)&d->cols, &ccap, d->nnz + s->nnz, sizeof(uint32_t), false) ||
        ensure((void **)&d->vals, &vcap, d->nnz + s->nnz, sizeof(cz_fr), false))
        return CZ_ENOMEM;
    dst->nnz_cap = ccap < vcap ? ccap : vcap;
    for (size_t k = 0; k < s->nnz; k++) {
        uint32_t id = s->cols[k], idx = id & CZ_VAR_MAX_INDEX;
        if (id & CZ_VAR_AUX_BIT) {
            if (idx >= aux_base)
                id = CZ_VAR_AUX_BIT | (idx - aux_base + aux_to);
        } else if (idx >= in_base) {
            id = idx - in_base + in_to;
        }
        d->cols[d->nnz + k] = id;
        d->vals[d->nnz + k] = s->vals[k];
    }
    for (size_t r = 1; r <= s->rows; r++)
        d->row_ptr[d->rows + r] = d->nnz + s->row_ptr[r];
    d->rows += s->rows;
    d->nnz += s->nnz;
    return CZ_OK;
}

/* ---- in-place forks --------------------------------------------------------- */

/* |v| borrows n elements of |arr| from |start| on (its ids start there). */
static void borrow_slot(cz__frvec *v, cz_fr *arr, size_t start, size_t n)
{
    v->shared = arr;
    v->base = start;
    v->v = arr + start;
    v->len = start;
    v->cap = n;
    v->fixed = true;
}

/* A zeroed bitmap of |nbits| bits with room for |room| (it never grows):
 * calloc, so the pages of other slots, never marked, are never touched. */
static int fresh_bitmap(cz__bitmap *bm, size_t nbits, size_t room)
{
    free(bm->w);
    bm->cap = (room + 63) / 64 + 1;
    bm->w = calloc(bm->cap, sizeof(uint64_t));
    bm->nbits = nbits;
    return bm->w ? CZ_OK : CZ_ENOMEM;
}

int cz_cs_fork_at(cz_cs_t **out, cz_cs_t *parent, const cz_cs_slot_t *at, cz_ctx_t *ctx)
{
    *out = NULL;
    if (parent->err)
        return parent->err;
    if (parent->mode != CZ_CS_PROVE || parent->finished || parent->taken || parent->forked)
        return cz_fail(ctx, CZ_EINVAL, "cs: in-place fork of a cs that is not a PROVE root");
    const size_t in0 = parent->input.len + at->inputs, aux0 = parent->aux.len + at->aux;
    const size_t row0 = parent->n_constraints + at->rows;
    if (at->inputs > SIZE_MAX / 4 || at->aux > SIZE_MAX / 4 || at->rows > SIZE_MAX / 4 ||
        at->n_inputs > SIZE_MAX / 4 || at->n_aux > SIZE_MAX / 4 || at->n_rows > SIZE_MAX / 4 ||
        in0 + at->n_inputs > parent->input.cap || aux0 + at->n_aux > parent->aux.cap ||
        row0 + at->n_rows > parent->abc_cap || aux0 + at->n_aux > (size_t)CZ_VAR_MAX_INDEX ||
        in0 + at->n_inputs > (size_t)CZ_VAR_MAX_INDEX)
        return cz_fail(ctx, CZ_EINVAL,
                       "cs: no room in the parent for an in-place fork of "
                       "%zu rows, %zu aux, %zu inputs at +%zu/+%zu/+%zu (reserve it first)",
                       at->n_rows, at->n_aux, at->n_inputs, at->rows, at->aux, at->inputs);
    cz_cs_t *cs;
    int rc = cz_cs_new(&cs, ctx, CZ_CS_PROVE);
    if (rc)
        return rc;
    free(cs->input.v); /* ONE's own slot: the fork reads the parent's */
    borrow_slot(&cs->input, parent->input.v, in0, at->n_inputs);
    borrow_slot(&cs->aux, parent->aux.v, aux0, at->n_aux);
    cs->a = parent->a + row0;
    cs->b = parent->b + row0;
    cs->c = parent->c ? parent->c + row0 : NULL;
    cs->abc_cap = at->n_rows;
    cs->omit_c = parent->omit_c;
    cs->emit_generic = parent->emit_generic;
    cs->inplace_parent = parent;
    cs->at = *at;
    cs->forked = true;
    cs->fork_inputs = parent->input.len;
    cs->fork_aux = parent->aux.len;
    cs->fork_rows = parent->n_constraints;
    if (fresh_bitmap(&cs->dens[CZ_DENSITY_A_AUX], aux0, aux0 + at->n_aux) ||
        fresh_bitmap(&cs->dens[CZ_DENSITY_B_AUX], aux0, aux0 + at->n_aux) ||
        fresh_bitmap(&cs->dens[CZ_DENSITY_B_INPUT], in0, in0 + at->n_inputs)) {
        cz_cs_free(cs);
        return cz_fail(ctx, CZ_ENOMEM, "cs: in-place fork densities");
    }
    *out = cs;
    return CZ_OK;
}

/* cz_cs_extend of an in-place fork: check its slot, take its density bits. */
static int extend_inplace(cz_cs_t *cs, cz_cs_t *fork)
{
    const cz_cs_slot_t *at = &fork->at;
    const size_t own_in = fork->input.len - fork->input.base;
    const size_t own_aux = fork->aux.len - fork->aux.base;
    if (cs->input.len != fork->fork_inputs + at->inputs ||
        cs->aux.len != fork->fork_aux + at->aux || cs->n_constraints != fork->fork_rows + at->rows)
        return cz__cs_fail(cs, CZ_EINVAL,
                           "cs: in-place fork extended out of order (its slot "
                           "starts at aux %zu, the parent has %zu)",
                           fork->aux.base, cs->aux.len);
    if (own_in != at->n_inputs || own_aux != at->n_aux || fork->n_constraints != at->n_rows)
        return cz__cs_fail(cs, CZ_EINVAL,
                           "cs: in-place fork filled %zu rows, %zu aux, %zu "
                           "inputs of a slot of %zu, %zu, %zu",
                           fork->n_constraints, own_aux, own_in, at->n_rows, at->n_aux,
                           at->n_inputs);
    const size_t low[3] = { fork->fork_aux, fork->fork_inputs, fork->fork_aux };
    const size_t base[3] = { fork->aux.base, fork->input.base, fork->aux.base };
    const size_t own[3] = { own_aux, own_in, own_aux };
    int rc = merge_densities(cs, fork, low, base, base, own);
    if (rc)
        return rc;
    /* The parent's ends were the slot's start: its values and rows are in place. */
    cs->input.len += own_in;
    cs->aux.len += own_aux;
    cs->n_constraints += fork->n_constraints;
    return CZ_OK;
}

int cz_cs_extend(cz_cs_t *cs, cz_cs_t *fork)
{
    if (cs->err)
        return cs->err;
    if (fork->err)
        return cz__cs_fail(cs, fork->err, "forked cs: %s", cz_strerror(fork->err));
    if (fork->inplace_parent)
        return fork->inplace_parent == cs && !cs->finished
                   ? extend_inplace(cs, fork)
                   : cz__cs_fail(cs, CZ_EINVAL, "cs: extend with a cs that is not a fork of it");
    if (!fork->forked || fork->mode != cs->mode || fork->omit_c != cs->omit_c || fork->finished ||
        cs->finished || fork->depth || fork->fork_inputs > cs->input.len ||
        fork->fork_aux > cs->aux.len)
        return cz__cs_fail(cs, CZ_EINVAL, "cs: extend with a cs that is not a fork of it");
    const size_t in_base = fork->fork_inputs, aux_base = fork->fork_aux;
    const size_t in_to = cs->input.len, aux_to = cs->aux.len;
    const size_t own_in = fork->input.len - in_base, own_aux = fork->aux.len - aux_base;
    const size_t rows = fork->n_constraints, row0 = cs->n_constraints;
    if (in_to + own_in > CZ_VAR_MAX_INDEX || aux_to + own_aux > CZ_VAR_MAX_INDEX)
        return cz__cs_fail(cs, CZ_ERANGE, "cs: extend past 2^31 variables");
    const bool vals = has_values(cs);

    /* Rows first (they fail alone), then variables and densities. */
    if (cs->mode == CZ_CS_PROVE && rows) {
        cz_fr **d[3] = { &cs->a, &cs->b, &cs->c };
        cz_fr *s[3] = { fork->a, fork->b, fork->c };
        size_t cap = cs->abc_cap;
        for (int i = 0; i < (cs->omit_c ? 2 : 3); i++) {
            size_t c = cs->abc_cap; /* same start, same need: same growth for all three */
            if (ensure((void **)d[i], &c, row0 + rows, sizeof(cz_fr), false))
                return cz__cs_fail(cs, CZ_ENOMEM, "cs: extend a/b/c to %zu rows", row0 + rows);
            memcpy(*d[i] + row0, s[i], rows * sizeof(cz_fr));
            cap = c;
        }
        cs->abc_cap = cap;
    } else if (cs->mode == CZ_CS_KEYGEN) {
        for (int i = 0; i < 3; i++)
            if (append_csr(&cs->mat[i], &fork->mat[i], (uint32_t)in_base, (uint32_t)in_to,
                           (uint32_t)aux_base, (uint32_t)aux_to))
                return cz__cs_fail(cs, CZ_ENOMEM, "cs: extend matrices");
    }
    if (append_vec(&cs->input, &fork->input, in_base, vals) ||
        append_vec(&cs->aux, &fork->aux, aux_base, vals))
        return cz__cs_fail(cs, CZ_ENOMEM, "cs: extend assignment");
    const size_t base[3] = { aux_base, in_base, aux_base };
    const size_t to[3] = { aux_to, in_to, aux_to };
    const size_t own[3] = { own_aux, own_in, own_aux };
    int rc = merge_densities(cs, fork, base, base, to, own);
    if (rc)
        return rc;
    if (fork->unsat && !cs->unsat) {
        size_t plen = cs->path_len, flen = strlen(fork->unsat_path);
        char *p = malloc(plen + flen + 2);
        if (!p)
            return cz__cs_fail(cs, CZ_ENOMEM, "cs: extend");
        memcpy(p, cs->path ? cs->path : "", plen);
        if (plen)
            p[plen++] = '/';
        memcpy(p + plen, fork->unsat_path, flen + 1);
        cs->unsat = true;
        cs->unsat_index = row0 + fork->unsat_index;
        cs->unsat_path = p;
    }
    cs->n_constraints = row0 + rows;
    return CZ_OK;
}
