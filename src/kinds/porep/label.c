/*
 * kinds/porep/label.c — SDR labels (see label.h for the definition and sources).
 * The message of a label with parents is 64 + 37 x 32 = 1248 bytes = 20
 * SHA-256 blocks with the padding; it is laid out once per node in a
 * buffer and compressed with the fastest cz_sha256_blocks (SHA-NI).
 */
#include "kinds/porep/label.h"

#include <string.h>

#include "hash/sha254.h"

void cz_sdr_label_parents(uint8_t *out, unsigned layer, const uint32_t parents[14],
                          const uint8_t *cur, const uint8_t *prev)
{
    const uint8_t *p[14];
    unsigned n = layer == 1 ? CZ_SDR_DRG_DEGREE : CZ_SDR_DEGREE;
    for (unsigned i = 0; i < CZ_SDR_DRG_DEGREE; i++)
        p[i] = cur + 32 * (size_t)parents[i];
    for (unsigned i = CZ_SDR_DRG_DEGREE; i < n; i++)
        p[i] = prev + 32 * (size_t)parents[i];
    /* cycle the n parents until 37 are taken (params.rs from_parts:
     * .cycle().take(TOTAL_PARENTS); graph.rs rounds 1..7 / 1..3) */
    for (unsigned k = 0; k < CZ_SDR_TOTAL_PARENTS; k++)
        memcpy(out + 32 * k, p[k % n], 32);
}

static void put_be(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* 64-byte first block: replica_id || layer BE4 || node BE8 || zeros */
static void first_block(uint8_t b[64], const uint8_t replica_id[32], unsigned layer, uint64_t node)
{
    memcpy(b, replica_id, 32);
    memset(b + 32, 0, 32);
    put_be(b + 32, layer, 4);
    put_be(b + 36, node, 8);
}

static const uint32_t SHA256_IV[8] = {
    0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
    0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
};

/* Digest of a message laid out in |msg| of |nblocks| blocks (padding
 * included), with the Fr-safe truncation. */
static void finish(uint8_t out[32], const uint8_t *msg, size_t nblocks)
{
    uint32_t st[8];
    memcpy(st, SHA256_IV, sizeof st);
    cz_sha256_blocks(st, msg, nblocks);
    for (int i = 0; i < 8; i++)
        put_be(out + 4 * i, st[i], 4);
    out[31] &= 0x3f;
}

/* Pad a message of |len| bytes in place (buf has room); returns blocks. */
static size_t pad(uint8_t *buf, size_t len)
{
    size_t nblocks = (len + 9 + 63) / 64;
    memset(buf + len, 0, nblocks * 64 - len);
    buf[len] = 0x80;
    put_be(buf + nblocks * 64 - 8, (uint64_t)len * 8, 8);
    return nblocks;
}

void cz_sdr_label(uint8_t out[32], const uint8_t replica_id[32], unsigned layer, uint64_t node,
                  const uint8_t *parents37)
{
    uint8_t msg[64 + 32 * CZ_SDR_TOTAL_PARENTS + 64];
    first_block(msg, replica_id, layer, node);
    size_t len = 64;
    if (node > 0) {
        memcpy(msg + 64, parents37, 32 * CZ_SDR_TOTAL_PARENTS);
        len += 32 * CZ_SDR_TOTAL_PARENTS;
    }
    finish(out, msg, pad(msg, len));
}

int cz_sdr_label_all(cz_ctx_t *ctx, const cz_porep_graph_t *g, const uint32_t *cache,
                     const uint8_t replica_id[32], unsigned layers, uint8_t *labels)
{
    if (!g || !cache || !labels || layers == 0)
        return cz_fail(ctx, CZ_EINVAL, "labels: missing graph, cache or output");
    const size_t layer_bytes = (size_t)g->nodes * 32;
    uint8_t msg[64 + 32 * CZ_SDR_TOTAL_PARENTS + 64];
    for (unsigned layer = 1; layer <= layers; layer++) {
        uint8_t *cur = labels + (size_t)(layer - 1) * layer_bytes;
        const uint8_t *prev = layer > 1 ? cur - layer_bytes : NULL;
        for (uint64_t v = 0; v < g->nodes; v++) {
            first_block(msg, replica_id, layer, v);
            size_t len = 64;
            if (v > 0) {
                cz_sdr_label_parents(msg + 64, layer, cache + v * CZ_SDR_DEGREE, cur, prev);
                len += 32 * CZ_SDR_TOTAL_PARENTS;
            }
            finish(cur + 32 * v, msg, pad(msg, len));
        }
    }
    return CZ_OK;
}
