/*
 * ec/group.h — G1 and G2 behind one table of operations (internal).
 *
 * MSM, batch addition and the other multi-point algorithms are written once
 * over this table; CZ_G1 and CZ_G2 bind it to blst's typed functions.
 * Points are opaque byte blobs of |proj_size| (blst_pX, Jacobian; all-zero
 * bytes are the point at infinity) or |affine_size| (blst_pX_affine).
 * The tables are immutable; every operation is thread-safe.
 */
#ifndef CUZK_EC_GROUP_H
#define CUZK_EC_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include <blst.h>

typedef struct cz_group {
    const char *name;
    size_t proj_size, affine_size;
    size_t bucket_size; /* blst's XYZZ bucket: 4 coordinates */
    void (*add)(void *out, const void *a, const void *b);
    void (*dbl)(void *out, const void *a);
    void (*add_affine)(void *out, const void *a, const void *b_affine);
    void (*from_affine)(void *out, const void *a_affine);
    void (*mult)(void *out, const void *p, const uint8_t *scalar, size_t nbits);
    /* blst pointer-array convention: a NULL entry continues contiguously */
    void (*to_affine_many)(void *out, const void *const in[], size_t n);
    void (*sum_affine)(void *out, const void *const pts[], size_t n);
    void (*tile)(void *out, const void *const pts[], size_t n, const uint8_t *const scalars[],
                 size_t nbits, void *scratch, size_t bit0, size_t window);
    const void *generator; /* projective */
} cz_group;

extern const cz_group CZ_G1;
extern const cz_group CZ_G2;

static inline void *cz_pt(const cz_group *g, void *base, size_t i)
{
    return (uint8_t *)base + i * g->proj_size;
}
static inline const void *cz_aff(const cz_group *g, const void *base, size_t i)
{
    return (const uint8_t *)base + i * g->affine_size;
}

/* Fill out[0..n) with pseudo-random affine points derived from |seed|. */
void cz_group_random_affine(const cz_group *g, void *out, size_t n, uint64_t seed);

#endif /* CUZK_EC_GROUP_H */
