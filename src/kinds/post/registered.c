/*
 * kinds/post/registered.c — the registered PoSt proofs, prover ids and the
 * parameter file names (see kinds/post/post.h for the sources).
 */
#include <stdio.h>
#include <string.h>

#include "hash/sha254.h"
#include "kinds/post/post.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* abi.RegisteredPoStProof order (go-state-types abi/sector.go) with the API
 * names (rust-filecoin-proofs-api registry.rs). */
static const cz_post_proof_t PROOFS[] = {
    { "StackedDrgWinning2KiBV1", 0, CZ_POST_WINNING, 2 * KIB, 0 },
    { "StackedDrgWinning8MiBV1", 1, CZ_POST_WINNING, 8 * MIB, 0 },
    { "StackedDrgWinning512MiBV1", 2, CZ_POST_WINNING, 512 * MIB, 0 },
    { "StackedDrgWinning32GiBV1", 3, CZ_POST_WINNING, 32 * GIB, 0 },
    { "StackedDrgWinning64GiBV1", 4, CZ_POST_WINNING, 64 * GIB, 0 },
    { "StackedDrgWindow2KiBV1", 5, CZ_POST_WINDOW, 2 * KIB, 0 },
    { "StackedDrgWindow8MiBV1", 6, CZ_POST_WINDOW, 8 * MIB, 0 },
    { "StackedDrgWindow512MiBV1", 7, CZ_POST_WINDOW, 512 * MIB, 0 },
    { "StackedDrgWindow32GiBV1", 8, CZ_POST_WINDOW, 32 * GIB, 0 },
    { "StackedDrgWindow64GiBV1", 9, CZ_POST_WINDOW, 64 * GIB, 0 },
    { "StackedDrgWindow2KiBV1_2", 10, CZ_POST_WINDOW, 2 * KIB, 2 },
    { "StackedDrgWindow8MiBV1_2", 11, CZ_POST_WINDOW, 8 * MIB, 2 },
    { "StackedDrgWindow512MiBV1_2", 12, CZ_POST_WINDOW, 512 * MIB, 2 },
    { "StackedDrgWindow32GiBV1_2", 13, CZ_POST_WINDOW, 32 * GIB, 2 },
    { "StackedDrgWindow64GiBV1_2", 14, CZ_POST_WINDOW, 64 * GIB, 2 },
};
#define NPROOFS (sizeof PROOFS / sizeof PROOFS[0])

const cz_post_proof_t *cz_post_proof_by_abi(uint64_t abi)
{
    return abi < NPROOFS ? &PROOFS[abi] : NULL;
}

const cz_post_proof_t *cz_post_proof_by_name(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < NPROOFS; i++) {
        const char *n = PROOFS[i].name;
        size_t len = strlen(n);
        if (!strcmp(name, n))
            return &PROOFS[i];
        /* the abi spelling of the V1_2 proofs ends in V1_1 */
        if (PROOFS[i].api_minor == 2 && !strncmp(name, n, len - 1) && name[len - 1] == '1' &&
            !name[len])
            return &PROOFS[i];
    }
    return NULL;
}

const cz_post_proof_t *cz_post_proof_current(cz_post_kind_t kind, uint64_t sector_bytes)
{
    for (size_t i = 0; i < NPROOFS; i++)
        if (PROOFS[i].kind == kind && PROOFS[i].sector_bytes == sector_bytes &&
            (kind == CZ_POST_WINNING || PROOFS[i].api_minor == 2))
            return &PROOFS[i];
    return NULL;
}

void cz_post_prover_id(uint8_t out[32], uint64_t miner_id)
{
    memset(out, 0, 32);
    unsigned i = 0;
    do {
        uint8_t b = miner_id & 0x7f;
        miner_id >>= 7;
        out[i++] = b | (miner_id ? 0x80 : 0);
    } while (miner_id);
}

int cz_post_identifier(char *out, size_t cap, const cz_post_params_t *p)
{
    int n = snprintf(out, cap,
                     "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: %u, "
                     "sector_count: %u}",
                     (unsigned long long)p->sector_bytes, p->challenges, p->sectors);
    return n > 0 && (size_t)n < cap ? CZ_OK : CZ_EINVAL;
}

int cz_post_params_name(char *out, size_t cap, const cz_post_params_t *p, const char *ext)
{
    char id[256], hex[65];
    uint8_t h[32];
    if (cz_post_identifier(id, sizeof id, p))
        return CZ_EINVAL;
    cz_sha256(h, id, strlen(id));
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", h[i]);
    int n = snprintf(out, cap,
                     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-%u-%u-%u-%s.%s",
                     p->base_arity, p->sub_arity, p->top_arity, hex, ext);
    return n > 0 && (size_t)n < cap ? CZ_OK : CZ_EINVAL;
}
