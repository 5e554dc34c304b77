/*
 * kinds/porep/c1.c — storage of the C1 model (see c1.h).
 */
#include "kinds/porep/c1.h"

#include <stdlib.h>
#include <string.h>

int cz_c1_alloc_proofs(cz_c1_t *c, unsigned npartitions, unsigned nchallenges)
{
    c->proofs = calloc((size_t)npartitions * nchallenges, sizeof *c->proofs);
    if (!c->proofs)
        return CZ_ENOMEM;
    c->npartitions = npartitions;
    c->nchallenges = nchallenges;
    return CZ_OK;
}

int cz_c1_merkle_alloc(cz_c1_merkle_t *m, int kind, unsigned nbase, const unsigned *arity,
                       unsigned nlevels)
{
    if (nlevels > CZ_TREE_MAX_LEVELS)
        return CZ_EINVAL;
    size_t n = 0;
    m->kind = kind;
    m->nbase = nbase;
    m->nlevels = nlevels;
    for (unsigned l = 0; l < nlevels; l++) {
        m->arity[l] = arity[l];
        m->index[l] = 0;
        n += arity[l] - 1;
    }
    free(m->siblings);
    m->siblings = calloc(n ? n : 1, sizeof *m->siblings);
    return m->siblings ? CZ_OK : CZ_ENOMEM;
}

static void free_column(cz_c1_column_t *col)
{
    free(col->rows);
    free(col->proof.siblings);
}

void cz_c1_free(cz_c1_t *c)
{
    if (!c)
        return;
    for (size_t i = 0; c->proofs && i < (size_t)c->npartitions * c->nchallenges; i++) {
        cz_c1_proof_t *p = &c->proofs[i];
        free(p->comm_d.siblings);
        free(p->comm_r_last.siblings);
        free_column(&p->c_x);
        for (unsigned j = 0; j < CZ_POREP_DRG_DEGREE; j++)
            free_column(&p->drg[j]);
        for (unsigned j = 0; j < CZ_POREP_EXP_DEGREE; j++)
            free_column(&p->exp[j]);
        for (unsigned j = 0; p->labeling && j < p->nlabels; j++)
            free(p->labeling[j].parents);
        free(p->labeling);
        free(p->encoding.parents);
    }
    free(c->proofs);
    memset(c, 0, sizeof *c);
}
