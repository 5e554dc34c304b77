/*
 * kinds/snap/vanilla.h — the bincode `PartitionProof<Tree>` of rust-fil-proofs'
 * EmptySectorUpdate, read and written bit for bit: what proofs-api's
 * generate_partition_proofs returns (bincode::serialize, default options:
 * little-endian, fixed-width integers) and Curio sends as `vanilla_proofs`.
 *
 * Layout (RFP storage-proofs-update/src/vanilla.rs PartitionProof,
 * ChallengeProof; storage-proofs-core/src/merkle/proof.rs MerkleProof,
 * ProofData, SingleProof, SubProof, TopProof, InclusionPath, PathElement;
 * a Domain (PoseidonDomain / Sha256Domain) is its 32-byte Fr repr):
 *
 *   PartitionProof  comm_c[32]
 *                   apex_leafs: u64 n, n x [32]
 *                   challenge_proofs: u64 n, n x ChallengeProof
 *   ChallengeProof  proof_r_old (TreeR), proof_d_new (TreeD), proof_r_new (TreeR)
 *   MerkleProof     u32 variant: 0 Single {root, leaf, path}
 *                                1 Sub    {base path, sub path, root, leaf}
 *                                2 Top    {base path, sub path, top path, root, leaf}
 *   InclusionPath   u64 n, n x PathElement {u64 m, m x [32] hashes, u64 index}
 *
 * The reader checks everything it can know from the bytes and the sector
 * size before any proving: every length against the size's shape (apex
 * leaves, challenges, levels, arity - 1 hashes per level), every index
 * below its arity, every 32-byte value a canonical field element, the
 * variant against the tree shape, the three paths of a challenge opening the
 * same node, every TreeR root equal to challenge 0's, no trailing bytes.
 * Errors are CZ_EFORMAT with the field path and byte offset, e.g.
 * "challenge_proofs[3].proof_d_new.path[2].index at byte 5123: 2 >= arity 2".
 *
 * Thread-safety: pure functions over caller buffers.
 */
#ifndef CUZK_KINDS_SNAP_VANILLA_H
#define CUZK_KINDS_SNAP_VANILLA_H

#include <stddef.h>
#include <stdint.h>

#include "circuits/snap/snap.h"

/*
 * Decode one PartitionProof into |in| (allocated for the params of the
 * sector; its k, h, comm_r_old and comm_r_new are the caller's to set).
 * Fills comm_c, the apex leaves, root_r_old / root_r_new and comm_d_new
 * (the roots of the proofs, equal in every challenge) and every challenge
 * (node, leaves, siblings). The caller compares comm_d_new with the public
 * one.
 */
int cz_snap_vanilla_decode(cz_ctx_t *ctx, const uint8_t *buf, size_t len, cz_snap_input_t *in);

/* The encoded size of |in|'s partition proof. */
size_t cz_snap_vanilla_size(const cz_snap_params_t *p);
/* Encode |in| as bincode into out[0 .. cz_snap_vanilla_size). */
int cz_snap_vanilla_encode(const cz_snap_input_t *in, uint8_t *out, size_t cap);

#endif /* CUZK_KINDS_SNAP_VANILLA_H */
