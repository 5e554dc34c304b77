/*
 * kinds/post/gen.c — PoSt test data from sectors sealed here (see kinds/post/input.h):
 * the vanilla proofs rust-fil-proofs' prover would make for them (RFP
 * storage-proofs-post fallback/vanilla.rs prove_all_partitions: per sector
 * its challenged leaves' tree_r_last inclusion proofs, comm_c,
 * comm_r_last), serialized as the API does (kinds/post/bincode.c).
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/post/post_int.h"
#include "kinds/porep/seal.h"
#include "kinds/post/input.h"

/* The vanilla proof of sector |i| (sealed as |s|) of the partition |pub|. */
static int vanilla_of(const cz_post_public_t *pub, const cz_post_params_t *p, const cz_sealed_t *s,
                      unsigned i, cz_post_vanilla_t *v)
{
    const unsigned n = cz_post_vanilla_challenges(p);
    CZ__QTRY(cz_post_vanilla_alloc(v, p, n));
    v->sector_id = pub->sectors[i].id;
    memcpy(v->comm_r, s->comm_r, 32);
    memcpy(v->comm_c, s->comm_c, 32);
    memcpy(v->comm_r_last, s->comm_r_last, 32);
    for (unsigned j = 0; j < n; j++) {
        /* winning: circuit sector j's one challenge; window: sector i's j-th */
        uint64_t leaf = p->kind == CZ_POST_WINNING ? cz_post_challenge(pub, p, j, 0)
                                                   : cz_post_challenge(pub, p, i, j);
        cz_post_inclusion_t *m = &v->proofs[j];
        m->leaf_index = leaf;
        memcpy(m->root, s->comm_r_last, 32);
        cz_sdr_tree_node(&s->tr, 0, leaf, m->leaf);
        cz_sdr_tree_path(&s->tr, leaf, m->siblings);
    }
    return CZ_OK;
}

static int gen(cz_ctx_t *ctx, cz_post_kind_t kind, uint64_t bytes, unsigned nsectors, uint64_t seed,
               cz_post_input_t *out)
{
    cz_post_params_t p;
    if (!(out->proof = cz_post_proof_current(kind, bytes)) ||
        cz_post_params_sector(&p, kind, bytes))
        return cz_fail(ctx, CZ_EINVAL, "gen-vanilla: no %s proof for %llu-byte sectors",
                       cz_post_kind_name(kind), (unsigned long long)bytes);
    const unsigned max = kind == CZ_POST_WINNING ? 1 : p.sectors;
    if (nsectors == 0 || nsectors > max)
        return cz_fail(ctx, CZ_EINVAL, "gen-vanilla: %u sectors; %s takes 1..%u per partition",
                       nsectors, out->proof->name, max);
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    for (int w = 0; w < 4; w++) {
        uint64_t x = cz_rng_next(&rng);
        memcpy(out->randomness + 8 * w, &x, 8);
    }
    out->randomness[31] &= 0x3f; /* as Curio does: a field element */
    out->miner_id = 1000;
    cz_post_prover_id(out->prover_id, out->miner_id);
    out->nsectors = out->nvanilla = nsectors;
    out->sectors = calloc(nsectors, sizeof *out->sectors);
    out->vanilla = calloc(nsectors, sizeof *out->vanilla);
    out->vanilla_len = calloc(nsectors, sizeof *out->vanilla_len);
    if (!out->sectors || !out->vanilla || !out->vanilla_len)
        return cz_fail(ctx, CZ_ENOMEM, "gen-vanilla");
    for (unsigned i = 0; i < nsectors; i++)
        out->sectors[i].id = i + 1;
    cz_post_public_t pub;
    cz_post_input_public(out, &pub);
    int rc = CZ_OK;
    for (unsigned i = 0; i < nsectors && rc == CZ_OK; i++) {
        cz_seal_args_t a = { .sector_bytes = bytes,
                             .random_seed = seed * 1000003 + i,
                             .sector_id = out->sectors[i].id };
        memcpy(a.prover_id, out->prover_id, 32);
        memset(a.ticket, (int)(i + 1), 32);
        a.ticket[31] &= 0x3f;
        cz_sealed_t s;
        cz_post_vanilla_t v;
        memset(&v, 0, sizeof v);
        if ((rc = cz_seal_replicate(ctx, &a, &s)))
            break;
        memcpy(out->sectors[i].comm_r, s.comm_r, 32);
        rc = vanilla_of(&pub, &p, &s, i, &v);
        if (rc == CZ_OK)
            rc = cz_post_vanilla_write(&p, &v, &out->vanilla[i], &out->vanilla_len[i]);
        if (rc)
            rc = cz_fail(ctx, rc, "gen-vanilla: sector %u: %s", i, cz_strerror(rc));
        cz_post_vanilla_free(&v);
        cz_sealed_free(&s);
    }
    return rc;
}

int cz_post_gen(cz_ctx_t *ctx, cz_post_kind_t kind, uint64_t sector_bytes, unsigned nsectors,
                uint64_t seed, cz_post_input_t *out)
{
    memset(out, 0, sizeof *out);
    int rc = gen(ctx, kind, sector_bytes, nsectors, seed, out);
    if (rc)
        cz_post_input_free(out);
    return rc;
}
