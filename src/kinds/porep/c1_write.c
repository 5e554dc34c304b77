/*
 * kinds/porep/c1_write.c — serialize a cz_c1_t as SealCommitPhase1Output JSON
 * (field names and nesting in c1.h; serde order of the RFP structs).
 */
#include "kinds/porep/c1.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static json_t *hash_j(const uint8_t h[32])
{
    json_t *a = json_array();
    for (int i = 0; i < 32; i++)
        json_array_append_new(a, json_integer(h[i]));
    return a;
}

static json_t *hashes_j(const cz_c1_hash_t *h, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, hash_j(h[i]));
    return a;
}

/* InclusionPath {"path": [{hashes, index}]} over levels [first, first + n). */
static json_t *inclusion_j(const cz_c1_merkle_t *m, unsigned first, unsigned n)
{
    size_t sib = 0;
    for (unsigned l = 0; l < first; l++)
        sib += m->arity[l] - 1;
    json_t *arr = json_array();
    for (unsigned l = first; l < first + n; l++) {
        json_t *el = json_object();
        json_object_set_new(el, "hashes", hashes_j(m->siblings + sib, m->arity[l] - 1));
        json_object_set_new(el, "index", json_integer(m->index[l]));
        sib += m->arity[l] - 1;
        json_array_append_new(arr, el);
    }
    json_t *ip = json_object();
    json_object_set_new(ip, "path", arr);
    return ip;
}

static json_t *merkle_j(const cz_c1_merkle_t *m)
{
    json_t *v = json_object();
    const char *kind = "Single";
    if (m->kind == CZ_C1_SINGLE) {
        json_object_set_new(v, "root", hash_j(m->root));
        json_object_set_new(v, "leaf", hash_j(m->leaf));
        json_object_set_new(v, "path", inclusion_j(m, 0, m->nlevels));
    } else {
        kind = m->kind == CZ_C1_SUB ? "Sub" : "Top";
        json_object_set_new(v, "base_proof", inclusion_j(m, 0, m->nbase));
        json_object_set_new(v, "sub_proof", inclusion_j(m, m->nbase, 1));
        if (m->kind == CZ_C1_TOP)
            json_object_set_new(v, "top_proof", inclusion_j(m, m->nbase + 1, 1));
        json_object_set_new(v, "root", hash_j(m->root));
        json_object_set_new(v, "leaf", hash_j(m->leaf));
    }
    json_t *data = json_object();
    json_object_set_new(data, kind, v);
    json_t *mp = json_object();
    json_object_set_new(mp, "data", data);
    return mp;
}

static json_t *column_j(const cz_c1_column_t *c)
{
    json_t *col = json_object();
    json_object_set_new(col, "index", json_integer(c->index));
    json_object_set_new(col, "rows", hashes_j(c->rows, c->nrows));
    json_object_set_new(col, "_h", json_null()); /* PhantomData (column.rs) */
    json_t *cp = json_object();
    json_object_set_new(cp, "column", col);
    json_object_set_new(cp, "inclusion_proof", merkle_j(&c->proof));
    return cp;
}

static json_t *label_j(const cz_c1_label_t *l)
{
    json_t *o = json_object();
    json_object_set_new(o, "parents", hashes_j(l->parents, l->nparents));
    json_object_set_new(o, "layer_index", json_integer(l->layer_index));
    json_object_set_new(o, "node", json_integer((json_int_t)l->node));
    return o;
}

static json_t *proof_j(const cz_c1_proof_t *p)
{
    json_t *o = json_object();
    json_object_set_new(o, "comm_d_proofs", merkle_j(&p->comm_d));
    json_object_set_new(o, "comm_r_last_proof", merkle_j(&p->comm_r_last));
    json_t *rcp = json_object();
    json_object_set_new(rcp, "c_x", column_j(&p->c_x));
    json_t *drg = json_array(), *exp = json_array();
    for (unsigned i = 0; i < CZ_POREP_DRG_DEGREE; i++)
        json_array_append_new(drg, column_j(&p->drg[i]));
    for (unsigned i = 0; i < CZ_POREP_EXP_DEGREE; i++)
        json_array_append_new(exp, column_j(&p->exp[i]));
    json_object_set_new(rcp, "drg_parents", drg);
    json_object_set_new(rcp, "exp_parents", exp);
    json_object_set_new(o, "replica_column_proofs", rcp);
    json_t *lps = json_array();
    for (unsigned l = 0; l < p->nlabels; l++)
        json_array_append_new(lps, label_j(&p->labeling[l]));
    json_object_set_new(o, "labeling_proofs", lps);
    json_object_set_new(o, "encoding_proof", label_j(&p->encoding));
    return o;
}

int cz_c1_to_json(cz_ctx_t *ctx, const cz_c1_t *c, char **out)
{
    *out = NULL;
    if (!c || !c->proof || !c->proofs)
        return cz_fail(ctx, CZ_EINVAL, "c1 write: empty C1");
    json_t *root = json_object();
    json_object_set_new(root, "registered_proof", json_string(c->proof->name));
    json_t *parts = json_array();
    for (unsigned k = 0; k < c->npartitions; k++) {
        json_t *chs = json_array();
        for (unsigned i = 0; i < c->nchallenges; i++)
            json_array_append_new(chs, proof_j(&c->proofs[k * c->nchallenges + i]));
        json_array_append_new(parts, chs);
    }
    json_t *vp = json_object();
    json_object_set_new(vp, c->proof->vanilla_key, parts);
    json_object_set_new(root, "vanilla_proofs", vp);
    json_object_set_new(root, "comm_r", hash_j(c->comm_r));
    json_object_set_new(root, "comm_d", hash_j(c->comm_d));
    json_object_set_new(root, "replica_id", hash_j(c->replica_id));
    json_object_set_new(root, "seed", hash_j(c->seed));
    json_object_set_new(root, "ticket", hash_j(c->ticket));
    *out = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(root);
    return *out ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "c1 write: json_dumps");
}

int cz_c1_save(cz_ctx_t *ctx, const cz_c1_t *c, const char *path)
{
    char *s;
    int rc = cz_c1_to_json(ctx, c, &s);
    if (rc)
        return rc;
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(s);
        return cz_fail(ctx, CZ_EIO, "c1 write: cannot create %s: %s", path, strerror(errno));
    }
    size_t n = strlen(s);
    int bad = fwrite(s, 1, n, f) != n;
    bad |= fclose(f) != 0;
    free(s);
    return bad ? cz_fail(ctx, CZ_EIO, "c1 write: short write to %s", path) : CZ_OK;
}
