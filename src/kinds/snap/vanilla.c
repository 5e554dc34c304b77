/*
 * kinds/snap/vanilla.c — bincode PartitionProof reader and writer (vanilla.h).
 */
#include "kinds/snap/vanilla.h"

#include <stdio.h>
#include <string.h>

#include "circuits/snap/snap_int.h"

/* ---- reader ------------------------------------------------------------------------ */

typedef struct {
    cz_ctx_t *ctx;
    const uint8_t *buf;
    size_t len, pos;
    char path[96]; /* the field being read, for errors */
} reader_t;

static int fail_at(reader_t *r, const char *fmt, const char *what)
{
    return cz_fail(r->ctx, CZ_EFORMAT, "snap vanilla proof: %s at byte %zu: %s", r->path, r->pos,
                   what ? what : fmt);
}

static int need(reader_t *r, size_t n)
{
    if (r->len - r->pos < n)
        return cz_fail(r->ctx, CZ_EFORMAT,
                       "snap vanilla proof: %s at byte %zu: truncated "
                       "(%zu bytes wanted, %zu left)",
                       r->path, r->pos, n, r->len - r->pos);
    return CZ_OK;
}

static int read_u64(reader_t *r, uint64_t *v)
{
    CZ__UTRY(need(r, 8));
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = (x << 8) | r->buf[r->pos + (size_t)i];
    r->pos += 8;
    *v = x;
    return CZ_OK;
}

static int read_u32(reader_t *r, uint32_t *v)
{
    CZ__UTRY(need(r, 4));
    const uint8_t *b = r->buf + r->pos;
    *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    r->pos += 4;
    return CZ_OK;
}

static int read_fr(reader_t *r, cz_fr *out)
{
    CZ__UTRY(need(r, 32));
    if (cz_fr_from_repr(out, r->buf + r->pos))
        return fail_at(r, NULL, "not a canonical field element (>= r)");
    r->pos += 32;
    return CZ_OK;
}

/* A u64 length that must equal |want|. */
static int read_len(reader_t *r, uint64_t want)
{
    uint64_t n;
    size_t at = r->pos;
    CZ__UTRY(read_u64(r, &n));
    if (n != want)
        return cz_fail(r->ctx, CZ_EFORMAT,
                       "snap vanilla proof: %s at byte %zu: length %llu, "
                       "the sector size wants %llu",
                       r->path, at, (unsigned long long)n, (unsigned long long)want);
    return CZ_OK;
}

/* Save/extend the field path (restored by the caller from the saved length). */
static size_t path_push(reader_t *r, const char *fmt, unsigned a)
{
    size_t keep = strlen(r->path);
    snprintf(r->path + keep, sizeof r->path - keep, fmt, a);
    return keep;
}

/*
 * An InclusionPath of |levels| elements of arity |arity|: the siblings go to
 * sib[], and the node index gains digit * weight per level.
 */
static int read_inclusion(reader_t *r, unsigned levels, unsigned arity, cz_fr **sib, uint64_t *node,
                          uint64_t *weight)
{
    CZ__UTRY(read_len(r, levels));
    for (unsigned l = 0; l < levels; l++) {
        size_t keep = path_push(r, "[%u]", l);
        size_t k2 = path_push(r, ".hashes", 0);
        CZ__UTRY(read_len(r, arity - 1));
        for (unsigned j = 0; j + 1 < arity; j++)
            CZ__UTRY(read_fr(r, (*sib)++));
        r->path[k2] = 0;
        path_push(r, ".index", 0);
        uint64_t idx;
        size_t at = r->pos;
        CZ__UTRY(read_u64(r, &idx));
        if (idx >= arity) {
            r->pos = at;
            char what[64];
            snprintf(what, sizeof what, "%llu >= arity %u", (unsigned long long)idx, arity);
            return fail_at(r, NULL, what);
        }
        *node += idx * *weight;
        *weight *= arity;
        r->path[keep] = 0;
    }
    return CZ_OK;
}

/* One MerkleProof of |shape| into leaf, root, siblings; *node = its index. */
static int read_merkle(reader_t *r, const cz_por_shape_t *s, cz_fr *leaf, cz_fr *root, cz_fr *sib,
                       uint64_t *node)
{
    const uint32_t want = s->top_arity ? 2 : s->sub_arity ? 1 : 0;
    uint32_t variant;
    size_t at = r->pos;
    CZ__UTRY(read_u32(r, &variant));
    if (variant != want) {
        r->pos = at;
        char what[96];
        snprintf(what, sizeof what,
                 "proof variant %u, the tree shape wants %u "
                 "(0 single, 1 sub, 2 top)",
                 variant, want);
        return fail_at(r, NULL, what);
    }
    uint64_t weight = 1;
    *node = 0;
    size_t keep = strlen(r->path);
    if (want == 0) {
        path_push(r, ".root", 0);
        CZ__UTRY(read_fr(r, root));
        r->path[keep] = 0;
        path_push(r, ".leaf", 0);
        CZ__UTRY(read_fr(r, leaf));
        r->path[keep] = 0;
        path_push(r, ".path", 0);
        CZ__UTRY(read_inclusion(r, s->base_levels, s->base_arity, &sib, node, &weight));
        r->path[keep] = 0;
        return CZ_OK;
    }
    path_push(r, ".base_proof", 0);
    CZ__UTRY(read_inclusion(r, s->base_levels, s->base_arity, &sib, node, &weight));
    r->path[keep] = 0;
    path_push(r, ".sub_proof", 0);
    CZ__UTRY(read_inclusion(r, 1, s->sub_arity, &sib, node, &weight));
    r->path[keep] = 0;
    if (want == 2) {
        path_push(r, ".top_proof", 0);
        CZ__UTRY(read_inclusion(r, 1, s->top_arity, &sib, node, &weight));
        r->path[keep] = 0;
    }
    path_push(r, ".root", 0);
    CZ__UTRY(read_fr(r, root));
    r->path[keep] = 0;
    path_push(r, ".leaf", 0);
    CZ__UTRY(read_fr(r, leaf));
    r->path[keep] = 0;
    return CZ_OK;
}

static int read_challenge(reader_t *r, const cz__snap_shapes_t *sh, unsigned i, cz_snap_input_t *in)
{
    cz_snap_challenge_t *ch = &in->ch[i];
    cz_fr root_old, root_d, root_new;
    uint64_t n_old, n_d, n_new;
    size_t keep = path_push(r, "challenge_proofs[%u]", i), start = r->pos;
    path_push(r, ".proof_r_old", 0);
    CZ__UTRY(read_merkle(r, &sh->r, &ch->leaf_r_old, &root_old, ch->path_r_old, &n_old));
    r->path[keep] = 0;
    path_push(r, "challenge_proofs[%u]", i);
    path_push(r, ".proof_d_new", 0);
    CZ__UTRY(read_merkle(r, &sh->d, &ch->leaf_d_new, &root_d, ch->path_d_new, &n_d));
    r->path[keep] = 0;
    path_push(r, "challenge_proofs[%u]", i);
    path_push(r, ".proof_r_new", 0);
    CZ__UTRY(read_merkle(r, &sh->r, &ch->leaf_r_new, &root_new, ch->path_r_new, &n_new));
    r->path[keep] = 0;
    if (n_old != n_d || n_old != n_new)
        return cz_fail(r->ctx, CZ_EFORMAT,
                       "snap vanilla proof: challenge_proofs[%u] at byte "
                       "%zu: its paths open different nodes (r_old %llu, d_new %llu, r_new "
                       "%llu)",
                       i, start, (unsigned long long)n_old, (unsigned long long)n_d,
                       (unsigned long long)n_new);
    ch->challenge = n_old;
    if (i == 0) {
        in->root_r_old = root_old;
        in->root_r_new = root_new;
        in->comm_d_new = root_d;
    } else if (!cz_fr_eq(&root_old, &in->root_r_old) || !cz_fr_eq(&root_new, &in->root_r_new) ||
               !cz_fr_eq(&root_d, &in->comm_d_new)) {
        return cz_fail(r->ctx, CZ_EFORMAT,
                       "snap vanilla proof: challenge_proofs[%u] at byte "
                       "%zu: its tree roots differ from challenge 0's",
                       i, start);
    }
    return CZ_OK;
}

int cz_snap_vanilla_decode(cz_ctx_t *ctx, const uint8_t *buf, size_t len, cz_snap_input_t *in)
{
    const cz_snap_params_t *p = &in->params;
    cz__snap_shapes_t sh;
    if (!buf || cz__snap_shapes(&sh, p))
        return cz_fail(ctx, CZ_EINVAL, "snap vanilla proof: no buffer or bad parameters");
    reader_t r = { ctx, buf, len, 0, "comm_c" };
    CZ__UTRY(read_fr(&r, &in->comm_c));
    snprintf(r.path, sizeof r.path, "apex_leafs");
    CZ__UTRY(read_len(&r, p->apex_leaves));
    for (unsigned i = 0; i < p->apex_leaves; i++) {
        snprintf(r.path, sizeof r.path, "apex_leafs[%u]", i);
        CZ__UTRY(read_fr(&r, &in->apex_leaves[i]));
    }
    snprintf(r.path, sizeof r.path, "challenge_proofs");
    CZ__UTRY(read_len(&r, p->challenges));
    r.path[0] = 0;
    for (unsigned i = 0; i < p->challenges; i++)
        CZ__UTRY(read_challenge(&r, &sh, i, in));
    if (r.pos != len)
        return cz_fail(ctx, CZ_EFORMAT,
                       "snap vanilla proof: %zu trailing bytes after the "
                       "partition proof (at byte %zu)",
                       len - r.pos, r.pos);
    return CZ_OK;
}

/* ---- writer ------------------------------------------------------------------------ */

static size_t merkle_size(const cz_por_shape_t *s)
{
    size_t parts = 1 + (s->sub_arity ? 1 : 0) + (s->top_arity ? 1 : 0);
    return 4 + 64 + 8 * parts + (size_t)cz_por_levels(s) * 16 + cz_por_path_len(s) * 32;
}

size_t cz_snap_vanilla_size(const cz_snap_params_t *p)
{
    cz__snap_shapes_t sh;
    if (cz__snap_shapes(&sh, p))
        return 0;
    return 32 + 8 + (size_t)p->apex_leaves * 32 + 8 +
           (size_t)p->challenges * (2 * merkle_size(&sh.r) + merkle_size(&sh.d));
}

typedef struct {
    uint8_t *out;
    size_t pos;
} writer_t;

static void put_u64(writer_t *w, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        w->out[w->pos++] = (uint8_t)(v >> (8 * i));
}

static void put_u32(writer_t *w, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        w->out[w->pos++] = (uint8_t)(v >> (8 * i));
}

static void put_fr(writer_t *w, const cz_fr *v)
{
    cz_fr_to_repr(w->out + w->pos, v);
    w->pos += 32;
}

static void put_inclusion(writer_t *w, unsigned levels, unsigned arity, const cz_fr **sib,
                          uint64_t *node)
{
    put_u64(w, levels);
    for (unsigned l = 0; l < levels; l++) {
        put_u64(w, arity - 1);
        for (unsigned j = 0; j + 1 < arity; j++)
            put_fr(w, (*sib)++);
        put_u64(w, *node % arity);
        *node /= arity;
    }
}

static void put_merkle(writer_t *w, const cz_por_shape_t *s, uint64_t node, const cz_fr *leaf,
                       const cz_fr *root, const cz_fr *sib)
{
    const uint32_t variant = s->top_arity ? 2 : s->sub_arity ? 1 : 0;
    put_u32(w, variant);
    if (variant == 0) {
        put_fr(w, root);
        put_fr(w, leaf);
        put_inclusion(w, s->base_levels, s->base_arity, &sib, &node);
        return;
    }
    put_inclusion(w, s->base_levels, s->base_arity, &sib, &node);
    put_inclusion(w, 1, s->sub_arity, &sib, &node);
    if (variant == 2)
        put_inclusion(w, 1, s->top_arity, &sib, &node);
    put_fr(w, root);
    put_fr(w, leaf);
}

int cz_snap_vanilla_encode(const cz_snap_input_t *in, uint8_t *out, size_t cap)
{
    const cz_snap_params_t *p = &in->params;
    cz__snap_shapes_t sh;
    if (cz__snap_shapes(&sh, p) || cap < cz_snap_vanilla_size(p))
        return CZ_EINVAL;
    writer_t w = { out, 0 };
    put_fr(&w, &in->comm_c);
    put_u64(&w, p->apex_leaves);
    for (unsigned i = 0; i < p->apex_leaves; i++)
        put_fr(&w, &in->apex_leaves[i]);
    put_u64(&w, p->challenges);
    for (unsigned i = 0; i < p->challenges; i++) {
        const cz_snap_challenge_t *ch = &in->ch[i];
        put_merkle(&w, &sh.r, ch->challenge, &ch->leaf_r_old, &in->root_r_old, ch->path_r_old);
        put_merkle(&w, &sh.d, ch->challenge, &ch->leaf_d_new, &in->comm_d_new, ch->path_d_new);
        put_merkle(&w, &sh.r, ch->challenge, &ch->leaf_r_new, &in->root_r_new, ch->path_r_new);
    }
    return CZ_OK;
}
