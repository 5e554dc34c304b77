/*
 * ec/curve.c — G1/G2 encodings with validation, batch affine conversion,
 * random points for tests (see ec/curve.h).
 */
#include "ec/curve.h"

#include <string.h>

#include "core/pool.h"
#include "ec/group.h"

static const char *blst_error_text(BLST_ERROR e)
{
    switch (e) {
    case BLST_SUCCESS: return "ok";
    case BLST_BAD_ENCODING: return "bad encoding";
    case BLST_POINT_NOT_ON_CURVE: return "point not on curve";
    case BLST_POINT_NOT_IN_GROUP: return "point not in subgroup";
    default: return "invalid point";
    }
}

int cz_g1_decode(cz_ctx_t *ctx, blst_p1_affine *out, const uint8_t *in, size_t len, unsigned flags,
                 const char *what)
{
    BLST_ERROR e;
    /* The length decides the form; blst would read only the first half of an
     * uncompressed slot that carries the compressed flag. */
    if (len != CZ_G1_UNCOMPRESSED && len != CZ_G1_COMPRESSED)
        return cz_fail(ctx, CZ_EINVAL, "%s: G1 encoding length %zu (want 48 or 96)", what, len);
    if ((len == CZ_G1_UNCOMPRESSED) == ((in[0] & 0x80) != 0))
        return cz_fail(ctx, CZ_EFORMAT, "%s: G1 compression flag does not match %zu-byte encoding",
                       what, len);
    e = len == CZ_G1_UNCOMPRESSED ? blst_p1_deserialize(out, in) : blst_p1_uncompress(out, in);
    if (e != BLST_SUCCESS)
        return cz_fail(ctx, CZ_EFORMAT, "%s: G1 %s", what, blst_error_text(e));
    if ((flags & CZ_DECODE_NO_INFINITY) && blst_p1_affine_is_inf(out))
        return cz_fail(ctx, CZ_EFORMAT, "%s: G1 point at infinity", what);
    if ((flags & CZ_DECODE_SUBGROUP) && !blst_p1_affine_in_g1(out))
        return cz_fail(ctx, CZ_ERANGE, "%s: G1 point not in the prime-order subgroup", what);
    return CZ_OK;
}

int cz_g2_decode(cz_ctx_t *ctx, blst_p2_affine *out, const uint8_t *in, size_t len, unsigned flags,
                 const char *what)
{
    BLST_ERROR e;
    if (len != CZ_G2_UNCOMPRESSED && len != CZ_G2_COMPRESSED)
        return cz_fail(ctx, CZ_EINVAL, "%s: G2 encoding length %zu (want 96 or 192)", what, len);
    if ((len == CZ_G2_UNCOMPRESSED) == ((in[0] & 0x80) != 0))
        return cz_fail(ctx, CZ_EFORMAT, "%s: G2 compression flag does not match %zu-byte encoding",
                       what, len);
    e = len == CZ_G2_UNCOMPRESSED ? blst_p2_deserialize(out, in) : blst_p2_uncompress(out, in);
    if (e != BLST_SUCCESS)
        return cz_fail(ctx, CZ_EFORMAT, "%s: G2 %s", what, blst_error_text(e));
    if ((flags & CZ_DECODE_NO_INFINITY) && blst_p2_affine_is_inf(out))
        return cz_fail(ctx, CZ_EFORMAT, "%s: G2 point at infinity", what);
    if ((flags & CZ_DECODE_SUBGROUP) && !blst_p2_affine_in_g2(out))
        return cz_fail(ctx, CZ_ERANGE, "%s: G2 point not in the prime-order subgroup", what);
    return CZ_OK;
}

void cz_g1_encode(uint8_t *out, size_t len, const blst_p1_affine *p)
{
    if (len == CZ_G1_COMPRESSED)
        blst_p1_affine_compress(out, p);
    else
        blst_p1_affine_serialize(out, p);
}

void cz_g2_encode(uint8_t *out, size_t len, const blst_p2_affine *p)
{
    if (len == CZ_G2_COMPRESSED)
        blst_p2_affine_compress(out, p);
    else
        blst_p2_affine_serialize(out, p);
}

/* ---- batch affine conversion --------------------------------------------- */

typedef struct {
    const cz_group *g;
    void *out;
    const void *in;
} to_affine_job;

static void to_affine_chunk(void *p, size_t b, size_t e, unsigned slot)
{
    const to_affine_job *job = p;
    const cz_group *g = job->g;
    const void *arr[2] = { (const uint8_t *)job->in + b * g->proj_size, NULL };
    g->to_affine_many((uint8_t *)job->out + b * g->affine_size, arr, e - b);
}

static int batch_to_affine(cz_ctx_t *ctx, const cz_group *g, void *out, const void *in, size_t n)
{
    if (n == 0)
        return CZ_OK;
    if (!out || !in)
        return cz_fail(ctx, CZ_EINVAL, "%s batch_to_affine: NULL array", g->name);
    to_affine_job job = { g, out, in };
    cz_pool_for(cz_ctx_pool(ctx), n, 4096, to_affine_chunk, &job);
    return CZ_OK;
}

int cz_g1_batch_to_affine(cz_ctx_t *ctx, blst_p1_affine *out, const blst_p1 *in, size_t n)
{
    return batch_to_affine(ctx, &CZ_G1, out, in, n);
}

int cz_g2_batch_to_affine(cz_ctx_t *ctx, blst_p2_affine *out, const blst_p2 *in, size_t n)
{
    return batch_to_affine(ctx, &CZ_G2, out, in, n);
}

void cz_g1_mul(blst_p1 *out, const blst_p1 *p, const blst_scalar *k)
{
    blst_p1_mult(out, p, k->b, 255);
}

void cz_g2_mul(blst_p2 *out, const blst_p2 *p, const blst_scalar *k)
{
    blst_p2_mult(out, p, k->b, 255);
}

void cz_g1_random_affine(blst_p1_affine *out, size_t n, uint64_t seed)
{
    cz_group_random_affine(&CZ_G1, out, n, seed);
}

void cz_g2_random_affine(blst_p2_affine *out, size_t n, uint64_t seed)
{
    cz_group_random_affine(&CZ_G2, out, n, seed);
}
