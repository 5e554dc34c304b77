/*
 * circuits/snap/params.c — EmptySectorUpdate parameters per sector size,
 * the randomness Poseidon, challenges, phi, rho and the public inputs (see
 * snap.h for the facts and their sources).
 */
#include "circuits/snap/snap.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/snap/snap_int.h"
#include "hash/poseidon.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

static unsigned log2u64(uint64_t v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

int cz_snap_params_sector(cz_snap_params_t *out, uint64_t sector_bytes)
{
    memset(out, 0, sizeof *out);
    unsigned sub = 0, top = 0;
    switch (sector_bytes) {
    case 2 * KIB:
    case 8 * MIB:
    case 512 * MIB: break;
    case 32 * GIB: sub = 8; break;
    case 64 * GIB:
        sub = 8;
        top = 2;
        break;
    default: return CZ_EINVAL;
    }
    const uint64_t nodes = sector_bytes / 32;
    /* RFP storage-proofs-update/src/constants.rs: partition_count,
     * challenge_count, apex_leaf_count, hs (by nodes). */
    out->sector_bytes = sector_bytes;
    out->nodes = nodes;
    out->challenge_bit_len = log2u64(nodes);
    out->partitions = nodes <= (8 * KIB) / 32    ? 1
                      : nodes <= (32 * KIB) / 32 ? 2
                      : nodes <= (16 * MIB) / 32 ? 4
                                                 : 16;
    out->partition_bit_len = log2u64(out->partitions);
    out->challenges = nodes <= (16 * MIB) / 32 ? 10 : 86;
    out->apex_leaves = nodes <= (8 * KIB) / 32 ? 8 : 128;
    out->apex_bit_len = log2u64(out->apex_leaves);
    out->base_arity = 8;
    out->sub_arity = sub;
    out->top_arity = top;
    for (unsigned i = 0; i < CZ_SNAP_NUM_HS; i++)
        out->hs[i] = nodes <= (32 * KIB) / 32 ? 1 : 7 + i;
    out->h = out->hs[3]; /* filecoin-proofs HSelect::from_nodes */
    return CZ_OK;
}

size_t cz_snap_d_path_len(const cz_snap_params_t *p)
{
    return p->challenge_bit_len;
}

size_t cz_snap_r_path_len(const cz_snap_params_t *p)
{
    unsigned bits = p->challenge_bit_len;
    size_t len = 0;
    if (p->sub_arity) {
        len += p->sub_arity - 1;
        bits -= log2u64(p->sub_arity);
    }
    if (p->top_arity) {
        len += p->top_arity - 1;
        bits -= log2u64(p->top_arity);
    }
    return len + (size_t)(bits / 3) * (p->base_arity - 1);
}

int cz_snap_h_index(const cz_snap_params_t *p, unsigned h, unsigned *index)
{
    for (unsigned i = 0; i < CZ_SNAP_NUM_HS; i++) {
        if (p->hs[i] == h) {
            *index = i;
            return CZ_OK;
        }
    }
    return CZ_EINVAL;
}

/* ---- the randomness Poseidon: process-wide, built once, immutable ---------------- */

static pthread_once_t rand_once = PTHREAD_ONCE_INIT;
static cz_poseidon_constants *rand_constants;

static void rand_init(void)
{
    if (cz_poseidon_constants_new(&rand_constants, 2) != CZ_OK) {
        rand_constants = NULL;
        return;
    }
    /* neptune HashType::Custom(CType::Arbitrary(1)).domain_tag() = 1 << 40;
     * the round constants and matrices do not depend on the hash type. */
    cz_fr_from_u64(&rand_constants->domain_tag, 1ull << 40);
}

const cz_poseidon_constants *cz_snap_randomness_constants(void)
{
    pthread_once(&rand_once, rand_init);
    return rand_constants;
}

static int hash_rand(cz_fr *out, const cz_fr *a, const cz_fr *b)
{
    const cz_poseidon_constants *c = cz_snap_randomness_constants();
    if (!c)
        return CZ_ENOMEM;
    cz_fr pre[2] = { *a, *b };
    cz_poseidon_hash(c, out, pre);
    return CZ_OK;
}

int cz_snap_phi(cz_fr *phi, const cz_fr *comm_d_new, const cz_fr *comm_r_old)
{
    return hash_rand(phi, comm_d_new, comm_r_old);
}

int cz_snap_rho(cz_fr *rho, const cz_snap_params_t *p, const cz_fr *phi, uint64_t c, unsigned h)
{
    if (h == 0 || h > p->challenge_bit_len)
        return CZ_EINVAL;
    cz_fr high;
    cz_fr_from_u64(&high, c >> (p->challenge_bit_len - h));
    return hash_rand(rho, phi, &high);
}

int cz_snap_challenges(const cz_snap_params_t *p, const cz_fr *comm_r_new, unsigned k,
                       uint64_t *out)
{
    if (k >= p->partitions)
        return CZ_EINVAL;
    const unsigned bits = p->challenge_bit_len - p->partition_bit_len;
    const unsigned per_digest = 254 / bits;
    const unsigned digests = (p->challenges + per_digest - 1) / per_digest;
    unsigned n = 0;
    for (unsigned j = 0; n < p->challenges; j++) {
        cz_fr index, digest;
        uint8_t repr[32];
        cz_fr_from_u64(&index, (uint64_t)k * digests + j);
        CZ__UTRY(hash_rand(&digest, comm_r_new, &index));
        cz_fr_to_repr(repr, &digest);
        for (unsigned i = 0; i < per_digest && n < p->challenges; i++, n++) {
            uint64_t c = 0;
            for (unsigned b = 0; b < bits; b++) {
                unsigned at = i * bits + b;
                c |= (uint64_t)((repr[at >> 3] >> (at & 7)) & 1) << b;
            }
            out[n] = c | ((uint64_t)k << bits);
        }
    }
    return CZ_OK;
}

int cz_snap_k_and_h_select(const cz_snap_params_t *p, unsigned k, unsigned h, cz_fr *out)
{
    unsigned idx;
    if (k >= p->partitions || cz_snap_h_index(p, h, &idx))
        return CZ_EINVAL;
    cz_fr_from_u64(out, (uint64_t)k | ((1ull << idx) << p->partition_bit_len));
    return CZ_OK;
}

int cz_snap_public_inputs(const cz_snap_params_t *p, unsigned k, unsigned h,
                          const cz_fr *comm_r_old, const cz_fr *comm_d_new, const cz_fr *comm_r_new,
                          cz_fr out[CZ_SNAP_NUM_INPUTS - 1])
{
    CZ__UTRY(cz_snap_k_and_h_select(p, k, h, &out[0]));
    out[1] = *comm_r_old;
    out[2] = *comm_d_new;
    out[3] = *comm_r_new;
    return CZ_OK;
}

/* ---- the input ---------------------------------------------------------------------- */

int cz_snap_input_alloc(cz_snap_input_t *in, const cz_snap_params_t *p)
{
    memset(in, 0, sizeof *in);
    if (!p->challenges || !p->nodes)
        return CZ_EINVAL;
    const size_t rl = cz_snap_r_path_len(p), dl = cz_snap_d_path_len(p);
    const size_t per = 2 * rl + dl;
    size_t bytes = sizeof(cz_snap_challenge_t) * p->challenges +
                   sizeof(cz_fr) * (p->apex_leaves + per * p->challenges);
    uint8_t *block = calloc(1, bytes);
    if (!block)
        return CZ_ENOMEM;
    in->params = *p;
    in->h = p->h;
    in->block_ = block;
    in->ch = (cz_snap_challenge_t *)block;
    cz_fr *f = (cz_fr *)(block + sizeof(cz_snap_challenge_t) * p->challenges);
    in->apex_leaves = f;
    f += p->apex_leaves;
    for (unsigned i = 0; i < p->challenges; i++) {
        in->ch[i].path_r_old = f;
        in->ch[i].path_d_new = f + rl;
        in->ch[i].path_r_new = f + rl + dl;
        f += per;
    }
    return CZ_OK;
}

void cz_snap_input_free(cz_snap_input_t *in)
{
    if (!in)
        return;
    free(in->block_);
    memset(in, 0, sizeof *in);
}
