/*
 * kinds/kinds.c — the library's kind table and what every door asks of a
 * table: find by name, by ProofKind, list, register (see kinds/kinds.h).
 * Each kind lives in its own file (kind_circuit.c, kind_porep.c, ...).
 */
#include "kinds/kinds.h"

#include <stdio.h>
#include <string.h>

/* ---- the built-in table: add new kinds here ------------------------------ */

static const cz_kinds_t builtin = {
    {
        &cz_kind_circuit,  /* registry circuits: toy, bench (src/kinds/circuit/kind_circuit.c) */
        &cz_kind_porep_c2, /* PoRep C2: input = C1 JSON (src/kinds/porep/kind_porep.c) */
        &cz_kind_winning_post, /* WinningPoSt: PoSt input JSON (src/kinds/post/kind_post.c) */
        &cz_kind_window_post,  /* WindowPoSt partition: the same (src/kinds/post/kind_post.c) */
        &cz_kind_snap, /* SnapDeals update: input = snap request (src/kinds/snap/kind_snap.c) */
    },
    5,
};

const cz_kinds_t *cz_kinds_builtin(void)
{
    return &builtin;
}

int cz_kinds_register(cz_kinds_t *t, cz_ctx_t *ctx, const cz_job_kind_t *k)
{
    if (!k || !k->name || !*k->name || !k->prepare || !k->release)
        return cz_fail(ctx, CZ_EINVAL, "kind: a kind needs a name, prepare and release");
    if (cz_kinds_find(t, k->name, NULL))
        return cz_fail(ctx, CZ_EINVAL, "kind %s: already in the table", k->name);
    const cz_kind_curio_t *c = &k->curio;
    if (c->proof_kind && (!c->map || !c->proof_kind_name))
        return cz_fail(ctx, CZ_EINVAL, "kind %s: ProofKind %d without a name or a map", k->name,
                       c->proof_kind);
    if (c->proof_kind && cz_kinds_by_proof_kind(t, c->proof_kind))
        return cz_fail(ctx, CZ_EINVAL, "kind %s: ProofKind %d is already %s's", k->name,
                       c->proof_kind, cz_kinds_by_proof_kind(t, c->proof_kind)->name);
    if (c->srs_family && !c->params_name)
        return cz_fail(ctx, CZ_EINVAL, "kind %s: SRS family %s without params_name", k->name,
                       c->srs_family);
    for (size_t i = 0; c->srs_family && i < t->n; i++)
        if (t->kind[i]->curio.srs_family && !strcmp(t->kind[i]->curio.srs_family, c->srs_family))
            return cz_fail(ctx, CZ_EINVAL, "kind %s: SRS family %s is already %s's", k->name,
                           c->srs_family, t->kind[i]->name);
    if (t->n >= CZ_MAX_KINDS)
        return cz_fail(ctx, CZ_ERANGE, "kind %s: the table is full (%d kinds)", k->name,
                       CZ_MAX_KINDS);
    t->kind[t->n++] = k;
    return CZ_OK;
}

const cz_job_kind_t *cz_kinds_find(const cz_kinds_t *t, const char *name, size_t *index)
{
    for (size_t i = 0; name && i < t->n; i++) {
        if (!strcmp(t->kind[i]->name, name)) {
            if (index)
                *index = i;
            return t->kind[i];
        }
    }
    return NULL;
}

const cz_job_kind_t *cz_kinds_by_proof_kind(const cz_kinds_t *t, int proof_kind)
{
    for (size_t i = 0; proof_kind > 0 && i < t->n; i++)
        if (t->kind[i]->curio.proof_kind == proof_kind)
            return t->kind[i];
    return NULL;
}

const char *cz_kinds_names(const cz_kinds_t *t, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < t->n && used < cap; i++) {
        int n = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", t->kind[i]->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

/* ---- cuzk.h: the built-in kinds ------------------------------------------- */

size_t cz_kind_count(void)
{
    return builtin.n;
}
const char *cz_kind_name(size_t i)
{
    return i < builtin.n ? builtin.kind[i]->name : NULL;
}
const char *cz_kind_summary(size_t i)
{
    return i < builtin.n ? builtin.kind[i]->summary : NULL;
}
