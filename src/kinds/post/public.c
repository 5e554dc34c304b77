/*
 * kinds/post/public.c — leaf challenges, public inputs and the circuit witness of
 * one PoSt partition (sources in kinds/post/post.h: RFP fallback/vanilla.rs
 * generate_leaf_challenge_inner, fallback/utils.rs get_challenge_index,
 * fallback/compound.rs generate_public_inputs, filecoin-proofs api/
 * post_util.rs partition_vanilla_proofs, api/winning_post.rs).
 */
#include <string.h>

#include "circuits/post/post_int.h"
#include "hash/sha254.h"
#include "kinds/post/post.h"

uint64_t cz_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t index,
                                uint64_t nodes)
{
    uint8_t msg[48], h[32];
    memcpy(msg, randomness, 32);
    for (int i = 0; i < 8; i++) {
        msg[32 + i] = (uint8_t)(sector_id >> (8 * i));
        msg[40 + i] = (uint8_t)(index >> (8 * i));
    }
    cz_sha256(h, msg, sizeof msg);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | h[i];
    return v % nodes;
}

/* The public sector behind circuit sector |i|: winning repeats its one
 * sector, a short window partition repeats its last. */
static const cz_post_sector_pub_t *sector_of(const cz_post_public_t *pub, unsigned i)
{
    return &pub->sectors[i < pub->nsectors ? i : pub->nsectors - 1];
}

uint64_t cz_post_challenge(const cz_post_public_t *pub, const cz_post_params_t *p, unsigned i,
                           unsigned n)
{
    /* get_challenge_index: ApiVersion 1.2.0 uses n alone. A window padding
     * sector repeats the last one's inputs, so its i is the last one's. */
    unsigned si = pub->proof->kind == CZ_POST_WINDOW && i >= pub->nsectors
                      ? (unsigned)pub->nsectors - 1
                      : i;
    uint64_t index = pub->proof->api_minor >= 2
                         ? n
                         : ((uint64_t)pub->partition * p->sectors + si) * p->challenges + n;
    return cz_post_leaf_challenge(pub->randomness, sector_of(pub, i)->id, index, p->nodes);
}

int cz_post_params_of(cz_ctx_t *ctx, const cz_post_public_t *pub, cz_post_params_t *p)
{
    if (!pub || !pub->proof)
        return cz_fail(ctx, CZ_EINVAL, "post: no registered proof");
    if (cz_post_params_sector(p, pub->proof->kind, pub->proof->sector_bytes))
        return cz_fail(ctx, CZ_EINVAL, "post: no circuit for %s", pub->proof->name);
    return CZ_OK;
}

static int fr_of(cz_ctx_t *ctx, cz_fr *out, const uint8_t repr[32], const char *what,
                 unsigned sector)
{
    if (cz_fr_from_repr(out, repr) == CZ_OK)
        return CZ_OK;
    return cz_fail(ctx, CZ_ERANGE, "post: %s of sector %u is not a field element", what, sector);
}

static int check_public(cz_ctx_t *ctx, const cz_post_public_t *pub, const cz_post_params_t *p)
{
    cz_fr x;
    if (pub->nsectors == 0 || !pub->sectors)
        return cz_fail(ctx, CZ_EINVAL, "post: no sectors");
    if (pub->proof->kind == CZ_POST_WINNING && pub->nsectors != CZ_POST_WINNING_SECTORS)
        return cz_fail(ctx, CZ_EINVAL, "post: WinningPoSt proves %u sector, got %zu",
                       CZ_POST_WINNING_SECTORS, pub->nsectors);
    if (pub->nsectors > p->sectors)
        return cz_fail(ctx, CZ_EINVAL, "post: %zu sectors, a %s partition holds %u", pub->nsectors,
                       pub->proof->name, p->sectors);
    if (pub->proof->kind == CZ_POST_WINNING && pub->partition != 0)
        return cz_fail(ctx, CZ_EINVAL, "post: WinningPoSt has one partition (index %u given)",
                       pub->partition);
    if (cz_fr_from_repr(&x, pub->randomness))
        return cz_fail(ctx, CZ_ERANGE, "post: randomness is not a field element");
    if (cz_fr_from_repr(&x, pub->prover_id))
        return cz_fail(ctx, CZ_ERANGE, "post: prover_id is not a field element");
    for (size_t i = 0; i < pub->nsectors; i++)
        CZ__QTRY(fr_of(ctx, &x, pub->sectors[i].comm_r, "comm_r", (unsigned)i));
    return CZ_OK;
}

int cz_post_public_inputs(cz_ctx_t *ctx, const cz_post_public_t *pub, cz_fr *out, size_t n_out)
{
    cz_post_params_t p;
    CZ__QTRY(cz_post_params_of(ctx, pub, &p));
    CZ__QTRY(check_public(ctx, pub, &p));
    if (n_out != cz_post_num_inputs(&p) - 1)
        return cz_fail(ctx, CZ_EINVAL, "post: %zu input slots, %s has %zu", n_out, pub->proof->name,
                       cz_post_num_inputs(&p) - 1);
    size_t k = 0;
    for (unsigned i = 0; i < p.sectors; i++) {
        cz_fr_from_repr(&out[k++], sector_of(pub, i)->comm_r);
        for (unsigned n = 0; n < p.challenges; n++)
            cz_fr_from_u64(&out[k++], cz_post_challenge(pub, &p, i, n));
    }
    return CZ_OK;
}

/* ---- the witness ------------------------------------------------------------------ */

static int fill_sector(cz_ctx_t *ctx, cz_post_sector_t *sec, const cz_post_vanilla_t *v,
                       const cz_post_sector_pub_t *ps, unsigned first, unsigned count,
                       const uint64_t *want, size_t L, unsigned csec)
{
    CZ__QTRY(fr_of(ctx, &sec->comm_r, ps->comm_r, "comm_r", csec));
    CZ__QTRY(fr_of(ctx, &sec->comm_c, v->comm_c, "comm_c", csec));
    CZ__QTRY(fr_of(ctx, &sec->comm_r_last, v->comm_r_last, "comm_r_last", csec));
    for (unsigned c = 0; c < count; c++) {
        const cz_post_inclusion_t *m = &v->proofs[first + c];
        if (m->leaf_index != want[c])
            return cz_fail(ctx, CZ_EVERIFY,
                           "post: sector %llu inclusion proof %u opens leaf "
                           "%llu, the randomness challenges leaf %llu",
                           (unsigned long long)v->sector_id, first + c,
                           (unsigned long long)m->leaf_index, (unsigned long long)want[c]);
        if (memcmp(m->root, v->comm_r_last, 32))
            return cz_fail(ctx, CZ_EVERIFY,
                           "post: sector %llu inclusion proof %u: root is not "
                           "comm_r_last",
                           (unsigned long long)v->sector_id, first + c);
        sec->leaf_index[c] = m->leaf_index;
        CZ__QTRY(fr_of(ctx, &sec->leaf[c], m->leaf, "a leaf", csec));
        for (size_t j = 0; j < L; j++)
            CZ__QTRY(fr_of(ctx, &sec->siblings[c * L + j], m->siblings[j], "a path hash", csec));
    }
    return CZ_OK;
}

static int build(cz_ctx_t *ctx, const cz_post_public_t *pub, const cz_post_params_t *p,
                 const cz_post_vanilla_t *vanilla, size_t nvanilla, cz_post_witness_t *w)
{
    CZ__QTRY(check_public(ctx, pub, p));
    if (nvanilla != pub->nsectors)
        return cz_fail(ctx, CZ_EINVAL, "post: %zu vanilla proofs for %zu sectors", nvanilla,
                       pub->nsectors);
    const unsigned need = cz_post_vanilla_challenges(p);
    for (size_t i = 0; i < nvanilla; i++) {
        const cz_post_vanilla_t *v = &vanilla[i];
        if (v->nproofs != need)
            return cz_fail(ctx, CZ_EINVAL,
                           "post: vanilla proof %zu has %u inclusion proofs, "
                           "want %u",
                           i, v->nproofs, need);
        if (v->sector_id != pub->sectors[i].id)
            return cz_fail(ctx, CZ_EVERIFY,
                           "post: vanilla proof %zu is for sector %llu, the "
                           "public sector %zu is %llu",
                           i, (unsigned long long)v->sector_id, i,
                           (unsigned long long)pub->sectors[i].id);
        if (memcmp(v->comm_r, pub->sectors[i].comm_r, 32))
            return cz_fail(ctx, CZ_EVERIFY,
                           "post: vanilla proof %zu (sector %llu): comm_r "
                           "differs from the public comm_r",
                           i, (unsigned long long)v->sector_id);
    }
    CZ__QTRY(cz_post_witness_alloc(w, p) ? cz_fail(ctx, CZ_ENOMEM, "post: witness") : CZ_OK);
    const size_t L = cz_post_path_len(p);
    uint64_t want[CZ_POST_WINNING_CHALLENGES > CZ_POST_WINDOW_CHALLENGES
                      ? CZ_POST_WINNING_CHALLENGES
                      : CZ_POST_WINDOW_CHALLENGES];
    if (p->challenges > sizeof want / sizeof want[0])
        return cz_fail(ctx, CZ_EINVAL, "post: %u challenges per sector", p->challenges);
    for (unsigned i = 0; i < p->sectors; i++) {
        /* winning: circuit sector i = inclusion proof i of the one sector;
         * window: sector i (or the last one) with all its proofs. */
        const bool winning = p->kind == CZ_POST_WINNING;
        const size_t vi = winning ? 0 : (i < nvanilla ? i : nvanilla - 1);
        const unsigned first = winning ? i * p->challenges : 0;
        for (unsigned n = 0; n < p->challenges; n++)
            want[n] = cz_post_challenge(pub, p, i, n);
        CZ__QTRY(fill_sector(ctx, &w->sector[i], &vanilla[vi], &pub->sectors[winning ? 0 : vi],
                             first, p->challenges, want, L, i));
    }
    return CZ_OK;
}

int cz_post_witness_from(cz_ctx_t *ctx, const cz_post_public_t *pub, const cz_post_params_t *p,
                         const cz_post_vanilla_t *vanilla, size_t nvanilla, cz_post_witness_t *w)
{
    memset(w, 0, sizeof *w);
    int rc = build(ctx, pub, p, vanilla, nvanilla, w);
    if (rc)
        cz_post_witness_free(w);
    return rc;
}
