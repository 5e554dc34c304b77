/*
 * circuits/porep/params.c — StackedDRG configurations, the partition input's
 * storage and the verifier's public inputs (see stacked.h).
 *
 * Sources: rust-fil-proofs filecoin-proofs/src/constants.rs (sizes, layers,
 * challenges, partitions, tree arities; FACTS 3),
 * storage-proofs-porep/src/stacked/circuit/proof.rs
 * (StackedCompound::generate_public_inputs), storage-proofs-core
 * gadgets/por.rs (PoRCompound::generate_public_inputs: the path's index
 * bits multipacked).
 */
#include "circuits/porep/porep_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gadgets/multipack.h"
#include "hash/poseidon_constants.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

int cz__porep_shapes(cz__porep_shapes_t *out, const cz_porep_params_t *p)
{
    if (!p || p->challenges == 0 || p->nodes < 2 || (p->nodes & (p->nodes - 1)))
        return CZ_EINVAL;
    if (p->layers < 2 || p->layers > CZ_POREP_MAX_LAYERS || !cz_poseidon_constants_get(p->layers))
        return CZ_EINVAL;
    if (cz_por_shape(&out->d, CZ_POR_SHA254, 2, 0, 0, p->nodes))
        return CZ_EINVAL;
    if (cz_por_shape(&out->rc, CZ_POR_POSEIDON, p->base_arity, p->sub_arity, p->top_arity,
                     p->nodes))
        return CZ_EINVAL;
    /* Each path's index bits must pack into one input (true for any
     * Filecoin size; the input count formula relies on it). */
    if (cz_por_levels(&out->d) > CZ_FR_CAPACITY)
        return CZ_EINVAL;
    return CZ_OK;
}

int cz_porep_params_make(cz_porep_params_t *out, uint64_t nodes, unsigned layers,
                         unsigned challenges, unsigned base_arity, unsigned sub_arity,
                         unsigned top_arity)
{
    cz_porep_params_t p = { nodes * 32, nodes,      layers,    challenges,
                            1,          base_arity, sub_arity, top_arity };
    cz__porep_shapes_t s;
    if (nodes > (UINT64_MAX >> 5) || cz__porep_shapes(&s, &p))
        return CZ_EINVAL;
    *out = p;
    return CZ_OK;
}

int cz_porep_params_sector(cz_porep_params_t *out, uint64_t sector_bytes)
{
    /* filecoin-proofs constants.rs: DEFAULT_LAYERS / POREP_MINIMUM_CHALLENGES /
     * POREP_PARTITIONS and the per-size tree shapes (FACTS 3). */
    static const struct {
        uint64_t bytes;
        unsigned layers, challenges, partitions, base, sub, top;
    } table[] = {
        { 2 * KIB, 2, 2, 1, 8, 0, 0 },     { 8 * MIB, 2, 2, 1, 8, 0, 0 },
        { 512 * MIB, 2, 2, 1, 8, 0, 0 },   { 32 * GIB, 11, 18, 10, 8, 8, 0 },
        { 64 * GIB, 11, 18, 10, 8, 8, 2 },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].bytes != sector_bytes)
            continue;
        int rc = cz_porep_params_make(out, sector_bytes / 32, table[i].layers, table[i].challenges,
                                      table[i].base, table[i].sub, table[i].top);
        if (rc == CZ_OK)
            out->partitions = table[i].partitions;
        return rc;
    }
    return CZ_EINVAL;
}

int cz_porep_parse_size(const char *text, uint64_t *bytes)
{
    if (!text || !isdigit((unsigned char)*text))
        return CZ_EINVAL;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    uint64_t mult = 1;
    if (!strcmp(end, "KiB"))
        mult = KIB;
    else if (!strcmp(end, "MiB"))
        mult = MIB;
    else if (!strcmp(end, "GiB"))
        mult = GIB;
    else if (*end)
        return CZ_EINVAL;
    if (v == 0 || v > UINT64_MAX / mult)
        return CZ_EINVAL;
    *bytes = (uint64_t)v * mult;
    return CZ_OK;
}

size_t cz_porep_d_path_len(const cz_porep_params_t *p)
{
    cz__porep_shapes_t s;
    return cz__porep_shapes(&s, p) ? 0 : cz_por_path_len(&s.d);
}

size_t cz_porep_rc_path_len(const cz_porep_params_t *p)
{
    cz__porep_shapes_t s;
    return cz__porep_shapes(&s, p) ? 0 : cz_por_path_len(&s.rc);
}

size_t cz_porep_num_inputs(const cz_porep_params_t *p)
{
    /* proof.rs generate_public_inputs: replica_id, comm_d, comm_r, then per
     * challenge 1 (tree_d) + 6 + 8 (parents in tree_c) + 1 (challenge) + 1
     * (tree_r_last) + 1 (tree_c) packed paths / values; plus ONE. */
    return 1 + 3 + (size_t)p->challenges * (1 + CZ_POREP_DRG_DEGREE + CZ_POREP_EXP_DEGREE + 3);
}

/* ---- input storage -------------------------------------------------------------- */

int cz_porep_input_alloc(cz_porep_input_t *in, const cz_porep_params_t *p)
{
    memset(in, 0, sizeof *in);
    cz__porep_shapes_t s;
    if (!p || cz__porep_shapes(&s, p))
        return CZ_EINVAL;
    const size_t L = p->layers, dl = cz_por_path_len(&s.d), rl = cz_por_path_len(&s.rc);
    const size_t ncol = CZ_POREP_DRG_DEGREE + CZ_POREP_EXP_DEGREE;
    /* Per challenge: d_path, 14 x (rows + c_path), c_path, r_path, labels. */
    const size_t fr_per = dl + ncol * (L + rl) + 2 * rl + L;
    const size_t head = (size_t)p->challenges * sizeof(cz_porep_challenge_t);
    const size_t head_al = (head + 63) & ~(size_t)63;
    cz_fr *fr;
    void *block = calloc(1, head_al + (size_t)p->challenges * fr_per * sizeof *fr);
    if (!block)
        return CZ_ENOMEM;
    in->params = *p;
    in->nchallenges = p->challenges;
    in->ch = block;
    in->block_ = block;
    fr = (cz_fr *)((char *)block + head_al);
    for (unsigned c = 0; c < p->challenges; c++) {
        cz_porep_challenge_t *ch = &in->ch[c];
        ch->d_path = fr, fr += dl;
        for (size_t k = 0; k < ncol; k++) {
            cz_porep_column_t *col = k < CZ_POREP_DRG_DEGREE ? &ch->drg[k]
                                                             : &ch->exp[k - CZ_POREP_DRG_DEGREE];
            col->rows = fr, fr += L;
            col->c_path = fr, fr += rl;
        }
        ch->c_path = fr, fr += rl;
        ch->r_path = fr, fr += rl;
        ch->labels = fr, fr += L;
    }
    return CZ_OK;
}

void cz_porep_input_free(cz_porep_input_t *in)
{
    if (!in)
        return;
    free(in->block_);
    memset(in, 0, sizeof *in);
}

/* ---- public inputs ------------------------------------------------------------------ */

/* PoRCompound::generate_public_inputs (private root): the path's index bits,
 * log2(arity) per level little-endian, multipacked: one Fr here. */
static void path_input(cz_fr *out, const cz_por_shape_t *s, uint64_t index)
{
    bool bits[64];
    unsigned n = 0;
    for (unsigned l = 0; l < cz_por_levels(s); l++) {
        unsigned nb = (unsigned)__builtin_ctz(cz_por_level_arity(s, l));
        for (unsigned j = 0; j < nb; j++, n++)
            bits[n] = (index >> n) & 1;
    }
    cz_compute_multipacking(out, bits, n);
}

int cz_porep_public_inputs(const cz_porep_input_t *in, cz_fr *out, size_t n_out)
{
    cz__porep_shapes_t s;
    if (!in || !in->ch || cz__porep_shapes(&s, &in->params) ||
        n_out < cz_porep_num_inputs(&in->params) - 1)
        return CZ_EINVAL;
    size_t k = 0;
    out[k++] = in->replica_id;
    out[k++] = in->comm_d;
    out[k++] = in->comm_r;
    for (unsigned c = 0; c < in->nchallenges; c++) {
        const cz_porep_challenge_t *ch = &in->ch[c];
        if (ch->challenge >= in->params.nodes)
            return CZ_EINVAL;
        path_input(&out[k++], &s.d, ch->challenge);
        for (unsigned j = 0; j < CZ_POREP_DRG_DEGREE; j++)
            path_input(&out[k++], &s.rc, ch->drg[j].index);
        for (unsigned j = 0; j < CZ_POREP_EXP_DEGREE; j++)
            path_input(&out[k++], &s.rc, ch->exp[j].index);
        cz_fr_from_u64(&out[k++], ch->challenge);
        path_input(&out[k++], &s.rc, ch->challenge);
        path_input(&out[k++], &s.rc, ch->challenge);
    }
    return CZ_OK;
}
