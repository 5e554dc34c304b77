/*
 * groth16/proof.c — encoding and decoding of Groth16 proofs (see groth16/proof.h).
 */
#include "groth16/proof.h"

#include <stdatomic.h>
#include <stdio.h>

#include "core/pool.h"
#include "ec/curve.h"

void cz_proof_encode(uint8_t out[CZ_PROOF_BYTES], const cz_proof_t *proof)
{
    cz_g1_encode(out, CZ_G1_COMPRESSED, &proof->a);
    cz_g2_encode(out + CZ_G1_COMPRESSED, CZ_G2_COMPRESSED, &proof->b);
    cz_g1_encode(out + CZ_G1_COMPRESSED + CZ_G2_COMPRESSED, CZ_G1_COMPRESSED, &proof->c);
}

/* |name| prefixes the messages ("proof" or "proof[3]"); NULL ctx: code only. */
static int decode_one(cz_ctx_t *ctx, cz_proof_t *out, const uint8_t *in, const char *name)
{
    const unsigned flags = CZ_DECODE_SUBGROUP | CZ_DECODE_NO_INFINITY;
    char what[48];
    int rc;

    snprintf(what, sizeof what, "%s.A", name);
    if ((rc = cz_g1_decode(ctx, &out->a, in, CZ_G1_COMPRESSED, flags, what)))
        return rc;
    snprintf(what, sizeof what, "%s.B", name);
    if ((rc = cz_g2_decode(ctx, &out->b, in + CZ_G1_COMPRESSED, CZ_G2_COMPRESSED, flags, what)))
        return rc;
    snprintf(what, sizeof what, "%s.C", name);
    return cz_g1_decode(ctx, &out->c, in + CZ_G1_COMPRESSED + CZ_G2_COMPRESSED, CZ_G1_COMPRESSED,
                        flags, what);
}

int cz_proof_decode(cz_ctx_t *ctx, cz_proof_t *out, const uint8_t in[CZ_PROOF_BYTES])
{
    if (!out || !in)
        return cz_fail(ctx, CZ_EINVAL, "proof: NULL argument");
    return decode_one(ctx, out, in, "proof");
}

void cz_proofs_encode(uint8_t *out, const cz_proof_t *proofs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cz_proof_encode(out + i * CZ_PROOF_BYTES, &proofs[i]);
}

typedef struct {
    cz_proof_t *out;
    const uint8_t *in;
    atomic_size_t first_bad; /* lowest failing partition; SIZE_MAX: none */
} decode_job;

static void decode_chunk(void *arg, size_t b, size_t e, unsigned slot)
{
    decode_job *job = arg;
    for (size_t i = b; i < e; i++) {
        if (decode_one(NULL, &job->out[i], job->in + i * CZ_PROOF_BYTES, "") == CZ_OK)
            continue;
        size_t cur = atomic_load(&job->first_bad);
        while (i < cur && !atomic_compare_exchange_weak(&job->first_bad, &cur, i))
            ;
        return;
    }
}

int cz_proofs_decode(cz_ctx_t *ctx, cz_proof_t *out, size_t n, const uint8_t *in, size_t len)
{
    if ((!out || !in) && n)
        return cz_fail(ctx, CZ_EINVAL, "proofs: NULL argument");
    if (len / CZ_PROOF_BYTES != n || len % CZ_PROOF_BYTES)
        return cz_fail(ctx, CZ_EFORMAT, "proofs: %zu bytes, want %zu partitions x %d = %zu", len, n,
                       CZ_PROOF_BYTES, n * CZ_PROOF_BYTES);
    decode_job job = { out, in, SIZE_MAX };
    cz_pool_for(cz_ctx_pool(ctx), n, 1, decode_chunk, &job);
    size_t bad = atomic_load(&job.first_bad);
    if (bad == SIZE_MAX)
        return CZ_OK;
    char name[32];
    snprintf(name, sizeof name, "proof[%zu]", bad);
    int rc = decode_one(ctx, &out[bad], in + bad * CZ_PROOF_BYTES, name);
    return rc ? rc : cz_fail(ctx, CZ_EINTERNAL, "%s: decode failed only in parallel", name);
}
