/*
 * kinds/porep/replica_id.c — registered seal proofs, porep_id and replica_id
 * (sources in porep.h: rust-filecoin-proofs-api registry.rs, RFP
 * stacked/vanilla/params.rs generate_replica_id, fr32 bytes_into_fr_repr_safe).
 */
#include "kinds/porep/porep.h"

#include <string.h>

#include "hash/sha254.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* RegisteredSealProof in declaration order (rust-filecoin-proofs-api
 * registry.rs; the id is the enum discriminant, REGISTERED_PROOF_IDS): V1
 * 0..4, V1_1 5..9, V1_1_Feat_SyntheticPoRep 10..14,
 * V1_2_Feat_NonInteractivePoRep 15..19 (also filecoin-ffi's and
 * go-state-types' RegisteredSealProof). */
#define S CZ_POREP_SYNTHETIC
#define NI CZ_POREP_NON_INTERACTIVE
static const cz_porep_proof_t PROOFS[] = {
    { "StackedDrg2KiBV1", "StackedDrg2KiBV1", 0, 2 * KIB, 0, 0 },
    { "StackedDrg8MiBV1", "StackedDrg8MiBV1", 1, 8 * MIB, 0, 0 },
    { "StackedDrg512MiBV1", "StackedDrg512MiBV1", 2, 512 * MIB, 0, 0 },
    { "StackedDrg32GiBV1", "StackedDrg32GiBV1", 3, 32 * GIB, 0, 0 },
    { "StackedDrg64GiBV1", "StackedDrg64GiBV1", 4, 64 * GIB, 0, 0 },
    { "StackedDrg2KiBV1_1", "StackedDrg2KiBV1", 5, 2 * KIB, 1, 0 },
    { "StackedDrg8MiBV1_1", "StackedDrg8MiBV1", 6, 8 * MIB, 1, 0 },
    { "StackedDrg512MiBV1_1", "StackedDrg512MiBV1", 7, 512 * MIB, 1, 0 },
    { "StackedDrg32GiBV1_1", "StackedDrg32GiBV1", 8, 32 * GIB, 1, 0 },
    { "StackedDrg64GiBV1_1", "StackedDrg64GiBV1", 9, 64 * GIB, 1, 0 },
    { "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", "StackedDrg2KiBV1", 10, 2 * KIB, 1, S },
    { "StackedDrg8MiBV1_1_Feat_SyntheticPoRep", "StackedDrg8MiBV1", 11, 8 * MIB, 1, S },
    { "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", "StackedDrg512MiBV1", 12, 512 * MIB, 1, S },
    { "StackedDrg32GiBV1_1_Feat_SyntheticPoRep", "StackedDrg32GiBV1", 13, 32 * GIB, 1, S },
    { "StackedDrg64GiBV1_1_Feat_SyntheticPoRep", "StackedDrg64GiBV1", 14, 64 * GIB, 1, S },
    { "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", "StackedDrg2KiBV1", 15, 2 * KIB, 1, NI },
    { "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", "StackedDrg8MiBV1", 16, 8 * MIB, 1, NI },
    { "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", "StackedDrg512MiBV1", 17, 512 * MIB, 1, NI },
    { "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", "StackedDrg32GiBV1", 18, 32 * GIB, 1, NI },
    { "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", "StackedDrg64GiBV1", 19, 64 * GIB, 1, NI },
};
#undef S
#undef NI

const cz_porep_proof_t *cz_porep_proof_by_name(const char *name)
{
    for (size_t i = 0; name && i < sizeof PROOFS / sizeof PROOFS[0]; i++)
        if (!strcmp(PROOFS[i].name, name))
            return &PROOFS[i];
    return NULL;
}

const cz_porep_proof_t *cz_porep_proof_by_id(uint64_t id)
{
    return id < sizeof PROOFS / sizeof PROOFS[0] ? &PROOFS[id] : NULL; /* PROOFS[i].id == i */
}

const cz_porep_proof_t *cz_porep_proof_v1_1(uint64_t sector_bytes)
{
    for (size_t i = 0; i < sizeof PROOFS / sizeof PROOFS[0]; i++)
        if (PROOFS[i].v1_1 && PROOFS[i].challenges == CZ_POREP_INTERACTIVE &&
            PROOFS[i].sector_bytes == sector_bytes)
            return &PROOFS[i];
    return NULL;
}

/*
 * NI-PoRep's layout (RFP filecoin-proofs/src/constants.rs
 * get_porep_non_interactive_partitions and
 * get_porep_non_interactive_minimum_challenges, read at eigerco/rust-fil-
 * proofs 4ed7936, a fork carrying upstream's NI code; upstream PR #1756 set
 * the test sizes' values): the minimum is ceil(12.8 x the interactive
 * minimum), 26 for the test sizes (2KiB, 8MiB, 512MiB) and 2253 for 32GiB
 * and 64GiB, over 13 and 126 partitions. Confirmed by the real regression
 * records (rust-fil-proofs seal_regression_records-v18.json: NI porep_config
 * partitions 13 at 8MiB and 512MiB, 126 at 32GiB; their SnarkPack
 * aggregates hold 16 and 128 proofs, the counts padded to a power of 2).
 */
static int ni_layout(uint64_t sector_bytes, unsigned *partitions, unsigned *min_challenges)
{
    if (sector_bytes == 2 * KIB || sector_bytes == 8 * MIB || sector_bytes == 512 * MIB) {
        *partitions = 13;
        *min_challenges = 26;
        return CZ_OK;
    }
    if (sector_bytes == 32 * GIB || sector_bytes == 64 * GIB) {
        *partitions = 126;
        *min_challenges = 2253;
        return CZ_OK;
    }
    return CZ_EINVAL;
}

int cz_porep_proof_params(cz_porep_params_t *out, const cz_porep_proof_t *proof)
{
    if (!proof || cz_porep_params_sector(out, proof->sector_bytes))
        return CZ_EINVAL;
    if (proof->challenges != CZ_POREP_NON_INTERACTIVE)
        return CZ_OK;
    unsigned parts, min;
    if (ni_layout(proof->sector_bytes, &parts, &min))
        return CZ_EINVAL;
    /* RFP filecoin-proofs/src/parameters.rs select_challenges: per partition
     * div_ceil(minimum, partitions) (2 and 18: the interactive counts, so the
     * same circuit and params file; PublicParams::identifier hashes only the
     * per-partition count, storage-proofs-porep stacked/vanilla/params.rs),
     * at most MAX_CHALLENGES_PER_PARTITION = 18 (constants.rs). */
    unsigned per = (min + parts - 1) / parts;
    if (per > 18 || per != out->challenges)
        return CZ_EINVAL; /* not a layout the published circuits prove */
    out->partitions = parts;
    return CZ_OK;
}

void cz_porep_id(uint8_t out[32], const cz_porep_proof_t *proof)
{
    memset(out, 0, 32);
    uint64_t id = proof->id;
    for (int i = 0; i < 8; i++) /* id LE; nonce (0) LE at [8..16) */
        out[i] = (uint8_t)(id >> (8 * i));
}

void cz_porep_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                         const uint8_t ticket[32], const uint8_t comm_d[32],
                         const uint8_t porep_id[32])
{
    uint8_t be[8];
    for (int i = 0; i < 8; i++)
        be[i] = (uint8_t)(sector_id >> (56 - 8 * i));
    cz_sha256_ctx s;
    cz_sha256_init(&s);
    cz_sha256_update(&s, prover_id, 32);
    cz_sha256_update(&s, be, 8);
    cz_sha256_update(&s, ticket, 32);
    cz_sha256_update(&s, comm_d, 32);
    cz_sha256_update(&s, porep_id, 32);
    cz_sha256_final(&s, out);
    out[31] &= 0x3f; /* bytes_into_fr_repr_safe */
}
