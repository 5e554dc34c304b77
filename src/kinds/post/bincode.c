/*
 * kinds/post/bincode.c — FallbackPoStSectorProof in bincode 1.x (layout and
 * sources in kinds/post/post.h): a strict reader that checks every length
 * against the tree shape before allocating, and the writer gen-vanilla
 * uses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/post/post_int.h"
#include "kinds/post/post.h"

enum { PROOF_SINGLE = 0, PROOF_SUB = 1, PROOF_TOP = 2 };

unsigned cz_post_vanilla_challenges(const cz_post_params_t *p)
{
    return p->kind == CZ_POST_WINNING ? p->sectors * p->challenges : p->challenges;
}

/* The proof variant and the levels of each of its inclusion paths. */
typedef struct {
    cz_por_shape_t s;
    int variant;
    unsigned npaths;         /* 1 (Single), 2 (Sub), 3 (Top) */
    unsigned levels[3];      /* path elements of base, sub, top path */
    unsigned first_level[3]; /* first tree level of each path */
    size_t path_len;         /* siblings in all */
} layout_t;

static int layout_of(layout_t *l, const cz_post_params_t *p)
{
    memset(l, 0, sizeof *l);
    if (cz__post_shape(&l->s, p))
        return CZ_EINVAL;
    l->variant = p->top_arity ? PROOF_TOP : p->sub_arity ? PROOF_SUB : PROOF_SINGLE;
    l->npaths = (unsigned)l->variant + 1;
    l->levels[0] = l->s.base_levels;
    l->levels[1] = l->levels[2] = 1;
    l->first_level[1] = l->s.base_levels;
    l->first_level[2] = l->s.base_levels + 1;
    l->path_len = cz_por_path_len(&l->s);
    return CZ_OK;
}

int cz_post_vanilla_alloc(cz_post_vanilla_t *v, const cz_post_params_t *p, unsigned nproofs)
{
    memset(v, 0, sizeof *v);
    layout_t l;
    if (layout_of(&l, p) || nproofs == 0)
        return CZ_EINVAL;
    size_t head = (size_t)nproofs * sizeof(cz_post_inclusion_t);
    head = (head + 31) & ~(size_t)31;
    char *block = calloc(1, head + (size_t)nproofs * l.path_len * 32);
    if (!block)
        return CZ_ENOMEM;
    v->proofs = (cz_post_inclusion_t *)block;
    for (unsigned i = 0; i < nproofs; i++)
        v->proofs[i].siblings = (uint8_t(*)[32])(block + head + (size_t)i * l.path_len * 32);
    v->nproofs = nproofs;
    v->block_ = block;
    return CZ_OK;
}

void cz_post_vanilla_free(cz_post_vanilla_t *v)
{
    if (!v)
        return;
    free(v->block_);
    memset(v, 0, sizeof *v);
}

/* ---- the reader ------------------------------------------------------------------- */

typedef struct {
    cz_ctx_t *ctx;
    const uint8_t *buf;
    size_t len, off;
} reader_t;

static int need(reader_t *r, size_t n, const char *field)
{
    if (r->len - r->off >= n)
        return CZ_OK;
    return cz_fail(r->ctx, CZ_EFORMAT, "vanilla proof: %s at byte %zu: needs %zu bytes, %zu left",
                   field, r->off, n, r->len - r->off);
}

static int read_u64(reader_t *r, uint64_t *v, const char *field)
{
    CZ__QTRY(need(r, 8, field));
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | r->buf[r->off + (size_t)i];
    r->off += 8;
    *v = x;
    return CZ_OK;
}

static int read_u32(reader_t *r, uint32_t *v, const char *field)
{
    CZ__QTRY(need(r, 4, field));
    const uint8_t *b = r->buf + r->off;
    *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    r->off += 4;
    return CZ_OK;
}

static int read_32(reader_t *r, uint8_t out[32], const char *field)
{
    CZ__QTRY(need(r, 32, field));
    memcpy(out, r->buf + r->off, 32);
    r->off += 32;
    return CZ_OK;
}

/* A Vec length that must equal |want|. */
static int read_len(reader_t *r, uint64_t want, const char *field)
{
    size_t at = r->off;
    uint64_t n;
    CZ__QTRY(read_u64(r, &n, field));
    if (n != want)
        return cz_fail(r->ctx, CZ_EFORMAT,
                       "vanilla proof: %s at byte %zu: length %llu, the "
                       "tree shape wants %llu",
                       field, at, (unsigned long long)n, (unsigned long long)want);
    return CZ_OK;
}

/* One InclusionPath of |l|'s path |which|: its siblings go to *sib, the
 * per-level positions into the leaf index. */
static int read_path(reader_t *r, const layout_t *l, unsigned which, uint8_t (**sib)[32],
                     uint64_t *index, uint64_t *scale, unsigned proof)
{
    static const char *names[] = { "base path", "sub path", "top path" };
    char field[96];
    snprintf(field, sizeof field, "inclusion proof %u %s length", proof, names[which]);
    CZ__QTRY(read_len(r, l->levels[which], field));
    for (unsigned e = 0; e < l->levels[which]; e++) {
        const unsigned a = cz_por_level_arity(&l->s, l->first_level[which] + e);
        snprintf(field, sizeof field, "inclusion proof %u %s element %u hashes", proof,
                 names[which], e);
        CZ__QTRY(read_len(r, a - 1, field));
        for (unsigned h = 0; h < a - 1; h++, (*sib)++)
            CZ__QTRY(read_32(r, **sib, field));
        snprintf(field, sizeof field, "inclusion proof %u %s element %u index", proof, names[which],
                 e);
        size_t at = r->off;
        uint64_t pos;
        CZ__QTRY(read_u64(r, &pos, field));
        if (pos >= a)
            return cz_fail(r->ctx, CZ_EFORMAT,
                           "vanilla proof: %s at byte %zu: %llu, the "
                           "arity is %u",
                           field, at, (unsigned long long)pos, a);
        *index += pos * *scale;
        *scale *= a;
    }
    return CZ_OK;
}

static int read_merkle(reader_t *r, const layout_t *l, cz_post_inclusion_t *m, unsigned proof)
{
    char field[64];
    snprintf(field, sizeof field, "inclusion proof %u variant", proof);
    size_t at = r->off;
    uint32_t tag;
    CZ__QTRY(read_u32(r, &tag, field));
    if (tag != (uint32_t)l->variant)
        return cz_fail(r->ctx, CZ_EFORMAT,
                       "vanilla proof: %s at byte %zu: %u, the tree shape "
                       "wants %d (0 Single, 1 Sub, 2 Top)",
                       field, at, tag, l->variant);
    uint8_t(*sib)[32] = m->siblings;
    uint64_t index = 0, scale = 1;
    snprintf(field, sizeof field, "inclusion proof %u root", proof);
    if (l->variant == PROOF_SINGLE) { /* root, leaf, path */
        CZ__QTRY(read_32(r, m->root, field));
        snprintf(field, sizeof field, "inclusion proof %u leaf", proof);
        CZ__QTRY(read_32(r, m->leaf, field));
        CZ__QTRY(read_path(r, l, 0, &sib, &index, &scale, proof));
    } else { /* paths, then root, leaf */
        for (unsigned k = 0; k < l->npaths; k++)
            CZ__QTRY(read_path(r, l, k, &sib, &index, &scale, proof));
        CZ__QTRY(read_32(r, m->root, field));
        snprintf(field, sizeof field, "inclusion proof %u leaf", proof);
        CZ__QTRY(read_32(r, m->leaf, field));
    }
    m->leaf_index = index;
    return CZ_OK;
}

int cz_post_vanilla_parse(cz_ctx_t *ctx, const cz_post_params_t *p, const uint8_t *buf, size_t len,
                          cz_post_vanilla_t *out)
{
    memset(out, 0, sizeof *out);
    layout_t l;
    if (layout_of(&l, p) || (!buf && len))
        return cz_fail(ctx, CZ_EINVAL, "vanilla proof: bad parameters");
    reader_t r = { ctx, buf, len, 0 };
    const unsigned n = cz_post_vanilla_challenges(p);
    uint64_t sector_id;
    uint8_t comm_r[32];
    int rc = read_u64(&r, &sector_id, "sector_id");
    if (!rc)
        rc = read_32(&r, comm_r, "comm_r");
    if (!rc)
        rc = read_len(&r, 1, "vanilla_proof.sectors length");
    if (!rc)
        rc = read_len(&r, n, "inclusion_proofs length");
    /* Every remaining length is fixed by the shape: allocate only now. */
    if (!rc && (rc = cz_post_vanilla_alloc(out, p, n)))
        rc = cz_fail(ctx, rc, "vanilla proof: %s", cz_strerror(rc));
    for (unsigned i = 0; !rc && i < n; i++)
        rc = read_merkle(&r, &l, &out->proofs[i], i);
    if (!rc)
        rc = read_32(&r, out->comm_c, "comm_c");
    if (!rc)
        rc = read_32(&r, out->comm_r_last, "comm_r_last");
    if (!rc && r.off != len)
        rc = cz_fail(ctx, CZ_EFORMAT, "vanilla proof: %zu trailing bytes after byte %zu",
                     len - r.off, r.off);
    if (rc) {
        cz_post_vanilla_free(out);
        return rc;
    }
    out->sector_id = sector_id;
    memcpy(out->comm_r, comm_r, 32);
    return CZ_OK;
}

/* ---- the writer ------------------------------------------------------------------ */

typedef struct {
    uint8_t *p;
} writer_t;

static void put_u64(writer_t *w, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        *w->p++ = (uint8_t)v;
}

static void put_32(writer_t *w, const uint8_t v[32])
{
    memcpy(w->p, v, 32);
    w->p += 32;
}

static void put_path(writer_t *w, const layout_t *l, unsigned which, const uint8_t (**sib)[32],
                     uint64_t *index)
{
    put_u64(w, l->levels[which]);
    for (unsigned e = 0; e < l->levels[which]; e++) {
        const unsigned a = cz_por_level_arity(&l->s, l->first_level[which] + e);
        put_u64(w, a - 1);
        for (unsigned h = 0; h < a - 1; h++, (*sib)++)
            put_32(w, **sib);
        put_u64(w, *index % a);
        *index /= a;
    }
}

int cz_post_vanilla_write(const cz_post_params_t *p, const cz_post_vanilla_t *v, uint8_t **out,
                          size_t *len)
{
    *out = NULL;
    *len = 0;
    layout_t l;
    if (layout_of(&l, p) || !v || !v->proofs)
        return CZ_EINVAL;
    size_t levels = 0;
    for (unsigned k = 0; k < l.npaths; k++)
        levels += l.levels[k];
    const size_t per = 4 + 64 + 8 * l.npaths + levels * 16 + l.path_len * 32;
    const size_t total = 8 + 32 + 8 + 8 + v->nproofs * per + 64;
    writer_t w = { malloc(total) };
    if (!w.p)
        return CZ_ENOMEM;
    *out = w.p;
    put_u64(&w, v->sector_id);
    put_32(&w, v->comm_r);
    put_u64(&w, 1);
    put_u64(&w, v->nproofs);
    for (unsigned i = 0; i < v->nproofs; i++) {
        const cz_post_inclusion_t *m = &v->proofs[i];
        const uint8_t(*sib)[32] = (const uint8_t(*)[32])m->siblings;
        uint64_t index = m->leaf_index;
        for (int b = 0; b < 4; b++)
            *w.p++ = (uint8_t)((uint32_t)l.variant >> (8 * b));
        if (l.variant == PROOF_SINGLE) {
            put_32(&w, m->root);
            put_32(&w, m->leaf);
            put_path(&w, &l, 0, &sib, &index);
        } else {
            for (unsigned k = 0; k < l.npaths; k++)
                put_path(&w, &l, k, &sib, &index);
            put_32(&w, m->root);
            put_32(&w, m->leaf);
        }
    }
    put_32(&w, v->comm_c);
    put_32(&w, v->comm_r_last);
    *len = (size_t)(w.p - *out);
    return *len == total ? CZ_OK : CZ_EINTERNAL;
}
