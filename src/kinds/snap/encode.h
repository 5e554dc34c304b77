/*
 * kinds/snap/encode.h — the SnapDeals update encoding of a whole (small) sector
 * and the vanilla partition proofs drawn from it: the test data cuzk makes
 * itself (`cuzk snap gen-vanilla`), as rust-fil-proofs' encode_into and
 * EmptySectorUpdate::prove_all_partitions make it.
 *
 * Sources (rust-fil-proofs): storage-proofs-update/src/vanilla.rs (encode:
 * replica_new[i] = replica_old[i] + data_new[i] * rho(i), rho from phi =
 * H(comm_d_new, comm_r_old) and i >> (log2(nodes) - h); prove_inner: the
 * apex leaves are TreeDNew's nodes at height log2(nodes) - partition_bit_len
 * - apex_bit_len, partition k's apex_leaves consecutive ones; each
 * challenge opens TreeROld, TreeDNew and TreeRNew at the challenged node);
 * comm_r_new = H2(comm_c, root_r_new) with comm_c of the old sector.
 *
 * Memory: the three trees (about 1.2 x nodes x 32 B each) are owned by the
 * cz_snap_sector_t until cz_snap_sector_free. Dense only (2KiB, 8MiB,
 * 512MiB). Thread-safety: one call per ctx; a built sector is read-only.
 */
#ifndef CUZK_KINDS_SNAP_ENCODE_H
#define CUZK_KINDS_SNAP_ENCODE_H

#include "circuits/snap/snap.h"
#include "gadgets/por.h"

typedef struct {
    cz_snap_params_t params;
    unsigned h;
    cz_fr comm_c, comm_r_old, comm_d_new, comm_r_new;
    cz_por_tree_t tree_r_old, tree_d_new, tree_r_new;
} cz_snap_sector_t;

/*
 * Encode |data_new| (nodes Fr32-valid field elements) into the CC replica
 * |replica_old| (nodes elements, the old tree_r_last leaves) of a sector
 * with |comm_c|, proving with |h| (0: the params' h). CZ_EINVAL (size not
 * dense, bad h), CZ_ENOMEM. *out is zeroed on error.
 */
int cz_snap_sector_encode(cz_ctx_t *ctx, cz_snap_sector_t *out, const cz_snap_params_t *p,
                          const cz_fr *comm_c, const cz_fr *replica_old, const cz_fr *data_new,
                          unsigned h);
void cz_snap_sector_free(cz_snap_sector_t *s);

/* Fill |in| (allocated for s->params) with partition k's vanilla proof and
 * the public values. CZ_EINVAL for k out of range. */
int cz_snap_sector_partition(const cz_snap_sector_t *s, unsigned k, cz_snap_input_t *in);

#endif /* CUZK_KINDS_SNAP_ENCODE_H */
