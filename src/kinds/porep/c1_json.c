/*
 * kinds/porep/c1_json.c — strict C1 JSON parser (shapes in c1.h). Every error
 * names the JSON path of the offending value.
 */
#include "kinds/porep/c1.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include "core/json_error.h"

typedef struct {
    cz_ctx_t *ctx;
    char path[512];
    size_t len;
    const cz_c1_t *c;
    unsigned rc_arity[CZ_TREE_MAX_LEVELS];
    unsigned rc_levels, rc_base;
    int rc_kind;
    unsigned d_levels;
} parser_t;

/* Append ".name" / "[i]" to the path; returns the previous length. */
static size_t push(parser_t *p, const char *fmt, ...)
{
    size_t old = p->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(p->path + p->len, sizeof p->path - p->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        p->len += (size_t)n < sizeof p->path - p->len ? (size_t)n : sizeof p->path - 1 - p->len;
    return old;
}

static void pop(parser_t *p, size_t old)
{
    p->len = old;
    p->path[old] = 0;
}

static int bad(parser_t *p, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cz_fail(p->ctx, CZ_EFORMAT, "c1: %s: %s", p->len ? p->path : "(root)", msg);
}

static const char *type_name(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT: return "object";
    case JSON_ARRAY: return "array";
    case JSON_STRING: return "string";
    case JSON_INTEGER: return "integer";
    case JSON_REAL: return "real";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    default: return "null";
    }
}

/* Member |key| of object |o| (path extended by ".key" on success). */
static json_t *member(parser_t *p, json_t *o, const char *key, json_type type, size_t *old, int *rc)
{
    json_t *v = json_object_get(o, key);
    *old = push(p, p->len ? ".%s" : "%s", key);
    if (!v) {
        *rc = bad(p, "missing");
        return NULL;
    }
    if (json_typeof(v) != type && !(type == JSON_TRUE && json_is_boolean(v))) {
        static const char *names[] = { "object", "array",   "string",  "integer",
                                       "real",   "boolean", "boolean", "null" };
        *rc = bad(p, "expected %s, got %s", names[type], type_name(v));
        return NULL;
    }
    return v;
}

static int uint_of(parser_t *p, json_t *v, uint64_t max, uint64_t *out)
{
    if (!json_is_integer(v))
        return bad(p, "expected integer, got %s", type_name(v));
    json_int_t x = json_integer_value(v);
    if (x < 0 || (uint64_t)x > max)
        return bad(p, "integer %lld out of range [0, %llu]", (long long)x, (unsigned long long)max);
    *out = (uint64_t)x;
    return CZ_OK;
}

static int hash_of(parser_t *p, json_t *v, uint8_t out[32])
{
    if (!json_is_array(v))
        return bad(p, "expected array of 32 bytes, got %s", type_name(v));
    if (json_array_size(v) != 32)
        return bad(p, "expected 32 bytes, got %zu", json_array_size(v));
    for (size_t i = 0; i < 32; i++) {
        json_t *b = json_array_get(v, i);
        if (!json_is_integer(b) || json_integer_value(b) < 0 || json_integer_value(b) > 255) {
            size_t o = push(p, "[%zu]", i);
            int rc = bad(p, "expected a byte (0..255), got %s",
                         json_is_integer(b) ? "an out-of-range integer" : type_name(b));
            pop(p, o);
            return rc;
        }
        out[i] = (uint8_t)json_integer_value(b);
    }
    return CZ_OK;
}

static int hash_member(parser_t *p, json_t *o, const char *key, uint8_t out[32])
{
    size_t old;
    int rc = CZ_OK;
    json_t *v = member(p, o, key, JSON_ARRAY, &old, &rc);
    if (v)
        rc = hash_of(p, v, out);
    if (rc == CZ_OK)
        pop(p, old);
    return rc;
}

static int uint_member(parser_t *p, json_t *o, const char *key, uint64_t max, uint64_t *out)
{
    size_t old;
    int rc = CZ_OK;
    json_t *v = member(p, o, key, JSON_INTEGER, &old, &rc);
    if (v)
        rc = uint_of(p, v, max, out);
    if (rc == CZ_OK)
        pop(p, old);
    return rc;
}

/* {"path": [ {hashes, index} ... ]} with |n| levels of the given arities. */
static int inclusion_path(parser_t *p, json_t *o, const char *key, cz_c1_merkle_t *m,
                          unsigned first, unsigned n, size_t *sib)
{
    size_t o1, o2;
    int rc = CZ_OK;
    json_t *ip = member(p, o, key, JSON_OBJECT, &o1, &rc);
    if (!ip)
        return rc;
    json_t *arr = member(p, ip, "path", JSON_ARRAY, &o2, &rc);
    if (!arr)
        return rc;
    if (json_array_size(arr) != n)
        return bad(p, "expected %u path elements, got %zu", n, json_array_size(arr));
    for (unsigned l = 0; l < n; l++) {
        json_t *el = json_array_get(arr, l);
        size_t o3 = push(p, "[%u]", l), o4;
        if (!json_is_object(el))
            return bad(p, "expected object, got %s", type_name(el));
        unsigned ar = m->arity[first + l];
        json_t *hs = member(p, el, "hashes", JSON_ARRAY, &o4, &rc);
        if (!hs)
            return rc;
        if (json_array_size(hs) != ar - 1)
            return bad(p, "expected %u hashes, got %zu", ar - 1, json_array_size(hs));
        for (unsigned h = 0; h < ar - 1; h++) {
            size_t o5 = push(p, "[%u]", h);
            if ((rc = hash_of(p, json_array_get(hs, h), m->siblings[(*sib)++])))
                return rc;
            pop(p, o5);
        }
        pop(p, o4);
        uint64_t idx;
        if ((rc = uint_member(p, el, "index", ar - 1, &idx)))
            return rc;
        m->index[first + l] = (unsigned)idx;
        pop(p, o3);
    }
    pop(p, o2);
    pop(p, o1);
    return CZ_OK;
}

/* MerkleProof {data: {Single|Sub|Top: ...}} of the expected shape. */
static int merkle(parser_t *p, json_t *o, const char *key, cz_c1_merkle_t *m, int tree_d)
{
    size_t o1, o2, o3;
    int rc = CZ_OK;
    json_t *mp = member(p, o, key, JSON_OBJECT, &o1, &rc);
    if (!mp)
        return rc;
    json_t *data = member(p, mp, "data", JSON_OBJECT, &o2, &rc);
    if (!data)
        return rc;
    static const char *kinds[] = { "Single", "Sub", "Top" };
    int kind = tree_d ? CZ_C1_SINGLE : p->rc_kind;
    if (json_object_size(data) != 1 || !json_object_get(data, kinds[kind])) {
        const char *k = json_object_size(data) ? json_object_iter_key(json_object_iter(data))
                                               : "nothing";
        return bad(p, "expected exactly one variant \"%s\", got \"%s\"%s", kinds[kind], k,
                   json_object_size(data) > 1 ? " and more" : "");
    }
    json_t *v = member(p, data, kinds[kind], JSON_OBJECT, &o3, &rc);
    if (!v)
        return rc;
    unsigned ar[CZ_TREE_MAX_LEVELS];
    unsigned nl = tree_d ? p->d_levels : p->rc_levels;
    unsigned nb = tree_d ? p->d_levels : p->rc_base;
    for (unsigned l = 0; l < nl; l++)
        ar[l] = tree_d ? 2 : p->rc_arity[l];
    if (cz_c1_merkle_alloc(m, kind, nb, ar, nl))
        return cz_fail(p->ctx, CZ_ENOMEM, "c1: %s: out of memory", p->path);
    size_t sib = 0;
    if ((rc = hash_member(p, v, "root", m->root)) || (rc = hash_member(p, v, "leaf", m->leaf)))
        return rc;
    if (kind == CZ_C1_SINGLE) {
        rc = inclusion_path(p, v, "path", m, 0, nl, &sib);
    } else {
        rc = inclusion_path(p, v, "base_proof", m, 0, nb, &sib);
        if (!rc)
            rc = inclusion_path(p, v, "sub_proof", m, nb, 1, &sib);
        if (!rc && kind == CZ_C1_TOP)
            rc = inclusion_path(p, v, "top_proof", m, nb + 1, 1, &sib);
    }
    if (rc)
        return rc;
    pop(p, o3);
    pop(p, o2);
    pop(p, o1);
    return CZ_OK;
}

static int hash_array(parser_t *p, json_t *o, const char *key, unsigned n, cz_c1_hash_t **out)
{
    size_t o1;
    int rc = CZ_OK;
    json_t *a = member(p, o, key, JSON_ARRAY, &o1, &rc);
    if (!a)
        return rc;
    if (json_array_size(a) != n)
        return bad(p, "expected %u entries, got %zu", n, json_array_size(a));
    *out = calloc(n ? n : 1, sizeof **out);
    if (!*out)
        return cz_fail(p->ctx, CZ_ENOMEM, "c1: %s: out of memory", p->path);
    for (unsigned i = 0; i < n; i++) {
        size_t o2 = push(p, "[%u]", i);
        if ((rc = hash_of(p, json_array_get(a, i), (*out)[i])))
            return rc;
        pop(p, o2);
    }
    pop(p, o1);
    return CZ_OK;
}

static int column(parser_t *p, json_t *cp, cz_c1_column_t *col)
{
    size_t o1;
    int rc = CZ_OK;
    if (!json_is_object(cp))
        return bad(p, "expected object, got %s", type_name(cp));
    json_t *c = member(p, cp, "column", JSON_OBJECT, &o1, &rc);
    if (!c)
        return rc;
    uint64_t idx;
    if ((rc = uint_member(p, c, "index", p->c->params.nodes - 1, &idx)))
        return rc;
    col->index = (uint32_t)idx;
    col->nrows = p->c->params.layers;
    if ((rc = hash_array(p, c, "rows", col->nrows, &col->rows)))
        return rc;
    pop(p, o1);
    return merkle(p, cp, "inclusion_proof", &col->proof, 0);
}

static int label(parser_t *p, json_t *o, const char *key, cz_c1_label_t *lp)
{
    int rc;
    if ((rc = hash_array(p, o, "parents", CZ_POREP_TOTAL_PARENTS, &lp->parents)))
        return rc;
    lp->nparents = CZ_POREP_TOTAL_PARENTS;
    uint64_t v;
    if ((rc = uint_member(p, o, "layer_index", p->c->params.layers, &v)))
        return rc;
    if (v == 0)
        return bad(p, "layer_index 0 (layers count from 1)");
    lp->layer_index = (uint32_t)v;
    if ((rc = uint_member(p, o, "node", p->c->params.nodes - 1, &lp->node)))
        return rc;
    (void)key;
    return CZ_OK;
}

static int columns(parser_t *p, json_t *rcp, const char *key, cz_c1_column_t *cols, unsigned n)
{
    size_t o1;
    int rc = CZ_OK;
    json_t *a = member(p, rcp, key, JSON_ARRAY, &o1, &rc);
    if (!a)
        return rc;
    if (json_array_size(a) != n)
        return bad(p, "expected %u column proofs, got %zu", n, json_array_size(a));
    for (unsigned i = 0; i < n; i++) {
        size_t o2 = push(p, "[%u]", i);
        if ((rc = column(p, json_array_get(a, i), &cols[i])))
            return rc;
        pop(p, o2);
    }
    pop(p, o1);
    return CZ_OK;
}

static int proof(parser_t *p, json_t *o, cz_c1_proof_t *pr)
{
    size_t o1, o2;
    int rc = CZ_OK;
    if (!json_is_object(o))
        return bad(p, "expected object, got %s", type_name(o));
    if ((rc = merkle(p, o, "comm_d_proofs", &pr->comm_d, 1)) ||
        (rc = merkle(p, o, "comm_r_last_proof", &pr->comm_r_last, 0)))
        return rc;
    json_t *rcp = member(p, o, "replica_column_proofs", JSON_OBJECT, &o1, &rc);
    if (!rcp)
        return rc;
    size_t ox = push(p, ".c_x");
    json_t *cx = json_object_get(rcp, "c_x");
    if (!cx)
        return bad(p, "missing");
    if ((rc = column(p, cx, &pr->c_x)))
        return rc;
    pop(p, ox);
    if ((rc = columns(p, rcp, "drg_parents", pr->drg, CZ_POREP_DRG_DEGREE)) ||
        (rc = columns(p, rcp, "exp_parents", pr->exp, CZ_POREP_EXP_DEGREE)))
        return rc;
    pop(p, o1);
    json_t *lps = member(p, o, "labeling_proofs", JSON_ARRAY, &o2, &rc);
    if (!lps)
        return rc;
    unsigned L = p->c->params.layers;
    if (json_array_size(lps) != L)
        return bad(p, "expected %u labeling proofs, got %zu", L, json_array_size(lps));
    pr->labeling = calloc(L, sizeof *pr->labeling);
    if (!pr->labeling)
        return cz_fail(p->ctx, CZ_ENOMEM, "c1: out of memory");
    pr->nlabels = L;
    for (unsigned l = 0; l < L; l++) {
        size_t o3 = push(p, "[%u]", l);
        json_t *e = json_array_get(lps, l);
        if (!json_is_object(e))
            return bad(p, "expected object, got %s", type_name(e));
        if ((rc = label(p, e, NULL, &pr->labeling[l])))
            return rc;
        pop(p, o3);
    }
    pop(p, o2);
    json_t *enc = member(p, o, "encoding_proof", JSON_OBJECT, &o2, &rc);
    if (!enc)
        return rc;
    if ((rc = label(p, enc, NULL, &pr->encoding)))
        return rc;
    pop(p, o2);
    return CZ_OK;
}

static int parse_root(parser_t *p, json_t *root, cz_c1_t *c)
{
    size_t o1, o2;
    int rc = CZ_OK;
    if (!json_is_object(root))
        return bad(p, "expected object, got %s", type_name(root));
    json_t *rp = member(p, root, "registered_proof", JSON_STRING, &o1, &rc);
    if (!rp)
        return rc;
    c->proof = cz_porep_proof_by_name(json_string_value(rp));
    if (!c->proof)
        return bad(p, "unknown registered proof \"%s\"", json_string_value(rp));
    if (!c->proof->v1_1)
        return bad(p, "%s is a v1.0 graph; cuzk proves the V1_1 proofs only", c->proof->name);
    if (cz_porep_proof_params(&c->params, c->proof))
        return bad(p, "no parameters for %s", c->proof->name);
    pop(p, o1);
    if ((rc = hash_member(p, root, "comm_r", c->comm_r)) ||
        (rc = hash_member(p, root, "comm_d", c->comm_d)) ||
        (rc = hash_member(p, root, "replica_id", c->replica_id)) ||
        (rc = hash_member(p, root, "seed", c->seed)) ||
        (rc = hash_member(p, root, "ticket", c->ticket)))
        return rc;
    /* tree shapes */
    cz_sdr_tree_t shape;
    const cz_porep_params_t *pp = &c->params;
    if (cz_sdr_tree_shape(&shape, CZ_POR_POSEIDON, pp->nodes, pp->base_arity, pp->sub_arity,
                          pp->top_arity))
        return bad(p, "bad tree shape for %s", c->proof->name);
    p->rc_levels = shape.nlevels;
    memcpy(p->rc_arity, shape.arity, sizeof shape.arity);
    p->rc_base = shape.nlevels - (pp->sub_arity ? 1 : 0) - (pp->top_arity ? 1 : 0);
    p->rc_kind = pp->top_arity ? CZ_C1_TOP : pp->sub_arity ? CZ_C1_SUB : CZ_C1_SINGLE;
    p->d_levels = 0;
    while ((1ull << p->d_levels) < pp->nodes)
        p->d_levels++;

    json_t *vp = member(p, root, "vanilla_proofs", JSON_OBJECT, &o1, &rc);
    if (!vp)
        return rc;
    json_t *parts = member(p, vp, c->proof->vanilla_key, JSON_ARRAY, &o2, &rc);
    if (!parts)
        return rc;
    if (json_object_size(vp) != 1)
        return bad(p, "vanilla_proofs must hold only %s", c->proof->vanilla_key);
    if (json_array_size(parts) != pp->partitions)
        return bad(p, "expected %u partitions, got %zu", pp->partitions, json_array_size(parts));
    if (cz_c1_alloc_proofs(c, pp->partitions, pp->challenges))
        return cz_fail(p->ctx, CZ_ENOMEM, "c1: out of memory");
    for (unsigned k = 0; k < pp->partitions; k++) {
        size_t o3 = push(p, "[%u]", k);
        json_t *chs = json_array_get(parts, k);
        if (!json_is_array(chs))
            return bad(p, "expected array, got %s", type_name(chs));
        if (json_array_size(chs) != pp->challenges)
            return bad(p, "expected %u challenge proofs, got %zu", pp->challenges,
                       json_array_size(chs));
        for (unsigned i = 0; i < pp->challenges; i++) {
            size_t o4 = push(p, "[%u]", i);
            if ((rc = proof(p, json_array_get(chs, i), &c->proofs[k * pp->challenges + i])))
                return rc;
            pop(p, o4);
        }
        pop(p, o3);
    }
    pop(p, o2);
    pop(p, o1);
    return CZ_OK;
}

int cz_c1_parse(cz_ctx_t *ctx, cz_c1_t *out, const char *text, size_t len)
{
    memset(out, 0, sizeof *out);
    json_error_t err;
    char what[160];
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!root)
        return cz_fail(ctx, CZ_EFORMAT, "c1: JSON syntax error at line %d column %d: %s", err.line,
                       err.column, cz_json_error_what(&err, what, sizeof what));
    parser_t p = { .ctx = ctx, .c = out };
    int rc = parse_root(&p, root, out);
    json_decref(root);
    if (rc)
        cz_c1_free(out);
    return rc;
}

int cz_c1_load(cz_ctx_t *ctx, cz_c1_t *out, const char *path)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return cz_fail(ctx, CZ_EIO, "c1: cannot open %s: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 1 << 20;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return cz_fail(ctx, CZ_ENOMEM, "c1: reading %s", path);
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return cz_fail(ctx, CZ_EIO, "c1: read error on %s", path);
    }
    int rc = cz_c1_parse(ctx, out, buf, len);
    free(buf);
    return rc;
}
