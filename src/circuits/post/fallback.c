/*
 * circuits/post/fallback.c — FallbackPoSt configurations, the witness's
 * storage, its native check and the sequential synthesis (see fallback.h;
 * the parallel driver is parallel.c).
 *
 * Sources: rust-fil-proofs storage-proofs-post/src/fallback/circuit.rs
 * (Sector::synthesize), filecoin-proofs/src/constants.rs
 * (WINDOW_POST_SECTOR_COUNT, the challenge counts), filecoin-proofs/src/
 * parameters.rs (winning_post_setup_params / window_post_setup_params).
 */
#include "circuits/post/post_int.h"

#include <stdlib.h>
#include <string.h>

#include "hash/poseidon.h"
#include "hash/poseidon_constants.h"
#include "gadgets/poseidon_gadget.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* ---- configurations ------------------------------------------------------------ */

int cz__post_shape(cz_por_shape_t *out, const cz_post_params_t *p)
{
    if (!p || p->sectors == 0 || p->challenges == 0 || p->nodes < 2 || (p->nodes & (p->nodes - 1)))
        return CZ_EINVAL;
    if (cz_por_shape(out, CZ_POR_POSEIDON, p->base_arity, p->sub_arity, p->top_arity, p->nodes))
        return CZ_EINVAL;
    /* One packed input per challenge (the input count relies on it). */
    return cz_por_levels(out) * 3 <= CZ_FR_CAPACITY ? CZ_OK : CZ_EINVAL;
}

int cz_post_params_make(cz_post_params_t *out, cz_post_kind_t kind, uint64_t nodes,
                        unsigned sectors, unsigned challenges, unsigned base_arity,
                        unsigned sub_arity, unsigned top_arity)
{
    cz_post_params_t p = { kind,       nodes * 32, nodes,     sectors,
                           challenges, base_arity, sub_arity, top_arity };
    cz_por_shape_t s;
    if ((kind != CZ_POST_WINNING && kind != CZ_POST_WINDOW) || nodes > (UINT64_MAX >> 5) ||
        cz__post_shape(&s, &p))
        return CZ_EINVAL;
    *out = p;
    return CZ_OK;
}

int cz_post_params_sector(cz_post_params_t *out, cz_post_kind_t kind, uint64_t sector_bytes)
{
    /* Tree shapes: filecoin-proofs with_shape! (as PoRep's tree_r_last);
     * window sectors per partition: WINDOW_POST_SECTOR_COUNT. */
    static const struct {
        uint64_t bytes;
        unsigned window_sectors, base, sub, top;
    } table[] = {
        { 2 * KIB, 2, 8, 0, 0 },     { 8 * MIB, 2, 8, 0, 0 },     { 512 * MIB, 2, 8, 0, 0 },
        { 32 * GIB, 2349, 8, 8, 0 }, { 64 * GIB, 2300, 8, 8, 2 },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].bytes != sector_bytes)
            continue;
        /* winning_post_setup_params: 66 / 1 circuit sectors of 66 / 66
         * challenges each. */
        unsigned sectors = kind == CZ_POST_WINNING
                               ? CZ_POST_WINNING_CHALLENGES / CZ_POST_WINNING_SECTORS
                               : table[i].window_sectors;
        unsigned challenges = kind == CZ_POST_WINNING ? CZ_POST_WINNING_CHALLENGES / sectors
                                                      : CZ_POST_WINDOW_CHALLENGES;
        return cz_post_params_make(out, kind, sector_bytes / 32, sectors, challenges, table[i].base,
                                   table[i].sub, table[i].top);
    }
    return CZ_EINVAL;
}

const char *cz_post_kind_name(cz_post_kind_t kind)
{
    return kind == CZ_POST_WINNING ? "winning-post" : "window-post";
}

int cz_post_kind_parse(const char *name, cz_post_kind_t *out)
{
    if (name && (!strcmp(name, "winning-post") || !strcmp(name, "winning"))) {
        *out = CZ_POST_WINNING;
        return CZ_OK;
    }
    if (name && (!strcmp(name, "window-post") || !strcmp(name, "window"))) {
        *out = CZ_POST_WINDOW;
        return CZ_OK;
    }
    return CZ_EINVAL;
}

size_t cz_post_path_len(const cz_post_params_t *p)
{
    cz_por_shape_t s;
    return cz__post_shape(&s, p) ? 0 : cz_por_path_len(&s);
}

size_t cz_post_num_inputs(const cz_post_params_t *p)
{
    return 1 + (size_t)p->sectors * (1 + (size_t)p->challenges);
}

/* ---- the witness ------------------------------------------------------------------ */

int cz_post_witness_alloc(cz_post_witness_t *w, const cz_post_params_t *p)
{
    memset(w, 0, sizeof *w);
    cz_por_shape_t s;
    if (cz__post_shape(&s, p))
        return CZ_EINVAL;
    const size_t S = p->sectors, C = p->challenges, L = cz_por_path_len(&s);
    /* Layout: sectors[S], then per sector C leaves, C x L siblings, C indices
     * (cz_fr first, so every part stays aligned). */
    const size_t per_frs = C * (1 + L);
    const size_t bytes = S * sizeof(cz_post_sector_t) + S * per_frs * sizeof(cz_fr) +
                         S * C * sizeof(uint64_t);
    char *block = calloc(1, bytes);
    if (!block)
        return CZ_ENOMEM;
    w->params = *p;
    w->sector = (cz_post_sector_t *)block;
    cz_fr *frs = (cz_fr *)(block + S * sizeof(cz_post_sector_t));
    uint64_t *idx = (uint64_t *)(frs + S * per_frs);
    for (size_t i = 0; i < S; i++) {
        w->sector[i].leaf = frs + i * per_frs;
        w->sector[i].siblings = frs + i * per_frs + C;
        w->sector[i].leaf_index = idx + i * C;
    }
    w->block_ = block;
    return CZ_OK;
}

void cz_post_witness_free(cz_post_witness_t *w)
{
    if (!w)
        return;
    free(w->block_);
    memset(w, 0, sizeof *w);
}

int cz__post_path_root(cz_fr *root, const cz_por_shape_t *s, uint64_t index, const cz_fr *leaf,
                       const cz_fr *siblings)
{
    cz_fr cur = *leaf, children[8];
    const unsigned levels = cz_por_levels(s);
    for (unsigned l = 0; l < levels; l++) {
        const unsigned a = cz_por_level_arity(s, l);
        const unsigned pos = (unsigned)(index & (a - 1));
        index >>= __builtin_ctz(a);
        for (unsigned k = 0, j = 0; k < a; k++)
            children[k] = k == pos ? cur : siblings[j++];
        siblings += a - 1;
        CZ__QTRY(cz_por_hash_native(&cur, s->hasher, children, a));
    }
    *root = cur;
    return CZ_OK;
}

int cz_post_witness_check(cz_ctx_t *ctx, const cz_post_witness_t *w)
{
    cz_por_shape_t s;
    if (!w || !w->sector || cz__post_shape(&s, &w->params))
        return cz_fail(ctx, CZ_EINVAL, "post: witness not allocated");
    const cz_post_params_t *p = &w->params;
    const size_t L = cz_por_path_len(&s);
    for (unsigned i = 0; i < p->sectors; i++) {
        const cz_post_sector_t *sec = &w->sector[i];
        cz_fr pre[2] = { sec->comm_c, sec->comm_r_last }, h;
        cz_poseidon_hash(cz_poseidon_constants_get(2), &h, pre);
        if (!cz_fr_eq(&h, &sec->comm_r))
            return cz_fail(ctx, CZ_EUNSAT,
                           "post: sector %u: comm_r != Poseidon(comm_c, comm_r_last)", i);
        for (unsigned c = 0; c < p->challenges; c++) {
            cz_fr root;
            if (sec->leaf_index[c] >= p->nodes)
                return cz_fail(ctx, CZ_EUNSAT,
                               "post: sector %u challenge %u: leaf %llu "
                               "outside the tree (%llu leaves)",
                               i, c, (unsigned long long)sec->leaf_index[c],
                               (unsigned long long)p->nodes);
            CZ__QTRY(cz__post_path_root(&root, &s, sec->leaf_index[c], &sec->leaf[c],
                                        sec->siblings + (size_t)c * L));
            if (!cz_fr_eq(&root, &sec->comm_r_last))
                return cz_fail(ctx, CZ_EUNSAT,
                               "post: sector %u challenge %u: the inclusion "
                               "path of leaf %llu does not hash to comm_r_last",
                               i, c, (unsigned long long)sec->leaf_index[c]);
        }
    }
    return CZ_OK;
}

/* ---- synthesis ------------------------------------------------------------------ */

static int alloc_num(cz_cs_t *cs, cz_num_t *out, const char *ns, const cz_fr *v)
{
    CZ__QTRY(cz_cs_push(cs, ns));
    CZ__QTRY(cz_num_alloc(cs, out, v));
    return cz_cs_pop(cs);
}

/* Sector::synthesize (RFP circuit.rs), in the caller's "sector_i". */
static int sector_body(cz_cs_t *cs, const cz_post_params_t *p, const cz_por_shape_t *s,
                       const cz_post_sector_t *sec)
{
    cz_num_t comm_r_last, comm_c, comm_r, h;
    CZ__QTRY(alloc_num(cs, &comm_r_last, "comm_r_last", sec ? &sec->comm_r_last : NULL));
    CZ__QTRY(alloc_num(cs, &comm_c, "comm_c", sec ? &sec->comm_c : NULL));
    CZ__QTRY(alloc_num(cs, &comm_r, "comm_r", sec ? &sec->comm_r : NULL));
    CZ__QTRY(cz_cs_push(cs, "comm_r_input"));
    CZ__QTRY(cz_num_inputize(cs, &comm_r));
    CZ__QTRY(cz_cs_pop(cs));

    /* H(comm_c || comm_r_last) == comm_r: hash2_circuit, constraint::equal. */
    cz_num_t pre[2] = { comm_c, comm_r_last };
    CZ__QTRY(cz_cs_push(cs, "H_comm_c_comm_r_last"));
    CZ__QTRY(cz_poseidon_gadget(cs, &h, cz_poseidon_constants_get(2), pre));
    CZ__QTRY(cz_cs_pop(cs));
    CZ__QTRY(cz_num_equal(cs, &comm_r, &h, "enforce_comm_c_comm_r_last_hash_comm_r"));

    /* The inclusion paths: Root::Val(leaf), Root::Var(comm_r_last), private. */
    const size_t L = cz_por_path_len(s);
    for (unsigned c = 0; c < p->challenges; c++) {
        cz_por_path_t path = { sec ? sec->leaf_index[c] : 0,
                               sec ? sec->siblings + (size_t)c * L : NULL };
        cz_por_num_t leaf = { NULL, sec ? sec->leaf[c] : CZ_FR_ZERO };
        cz_por_num_t root = { &comm_r_last, CZ_FR_ZERO };
        CZ__QTRY(cz_cs_pushf(cs, "challenge_inclusion_%u", c));
        CZ__QTRY(cz_por_circuit(cs, s, sec ? &path : NULL, &leaf, &root, true));
        CZ__QTRY(cz_cs_pop(cs));
    }
    return CZ_OK;
}

int cz__post_sector(cz_cs_t *cs, const cz_post_params_t *p, const cz_por_shape_t *s, unsigned i,
                    const cz_post_sector_t *sec)
{
    CZ__QTRY(cz_cs_pushf(cs, "sector_%u", i));
    CZ__QTRY(sector_body(cs, p, s, sec));
    return cz_cs_pop(cs);
}

int cz__post_validate(cz_cs_t *cs, const cz_post_params_t *p, const cz_post_witness_t *w,
                      cz_por_shape_t *s)
{
    if (!cs || cz__post_shape(s, p))
        return CZ_EINVAL;
    if (w) {
        const cz_post_params_t *q = &w->params;
        if (!w->sector || q->nodes != p->nodes || q->sectors != p->sectors ||
            q->challenges != p->challenges || q->base_arity != p->base_arity ||
            q->sub_arity != p->sub_arity || q->top_arity != p->top_arity)
            return CZ_EINVAL;
        for (unsigned i = 0; i < p->sectors; i++)
            for (unsigned c = 0; c < p->challenges; c++)
                if (w->sector[i].leaf_index[c] >= p->nodes)
                    return CZ_EINVAL;
    } else if (cz_cs_needs_values(cs)) {
        return CZ_EINVAL;
    }
    return CZ_OK;
}

int cz_post_circuit(cz_cs_t *cs, const cz_post_params_t *p, const cz_post_witness_t *w)
{
    cz_por_shape_t s;
    CZ__QTRY(cz__post_validate(cs, p, w, &s));
    CZ__QTRY(cz_cs_push(cs, "outer namespace"));
    for (unsigned i = 0; i < p->sectors; i++)
        CZ__QTRY(cz__post_sector(cs, p, &s, i, w ? &w->sector[i] : NULL));
    return cz_cs_pop(cs);
}
