/*
 * tests/gpu/test_bin_inverse.cu — the device's field inversion
 * (backend/cuda/bin_inv.cuh, binary extended Euclid, then one Montgomery
 * product by R^3 in mont_impl.cuh) checked on the CPU against blst: no GPU
 * needed, so it runs wherever the CUDA code is compiled (CI included). The
 * moduli and R^3 are field.cuh's own limb lists.
 *
 * For a Montgomery representative X (of x = X / R), blst's inverse is
 * R^2 / X; the binary algorithm's X^-1 must equal it divided by R twice
 * (blst's product by a raw 1), and its product by R^3 must equal it.
 * Values: 1, 2, m - 1, m - 2, low words zero, top words zero, random ones.
 */
#include <stdint.h>
#include <string.h>

#include <blst.h>

#include "backend/cuda/field.cuh"
#include "cz_test.h"

static const uint32_t P[12] = { CZ__DFP_MOD_LIMBS }, P_R3[12] = { CZ__DFP_R3_LIMBS };
static const uint32_t R[8] = { CZ__DFR_MOD_LIMBS }, R_R3[8] = { CZ__DFR_R3_LIMBS };

static uint32_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)(*s >> 16);
}

/* The values checked for a modulus of n limbs: edge values, then random ones below it. */
static int make_values(uint32_t (*v)[12], int cap, const uint32_t *m, int n, uint64_t seed)
{
    int k = 0;
    memset(v, 0, (size_t)cap * sizeof *v);
    v[k++][0] = 1;
    v[k++][0] = 2;
    const uint32_t one[CZ__BIN_MAX] = { 1 }, two[CZ__BIN_MAX] = { 2 };
    cz__bin_sub(v[k++], m, one, n); /* m - 1 */
    cz__bin_sub(v[k++], m, two, n); /* m - 2 (Fr: a borrow from limb 1) */
    v[k][n - 1] = 1; /* low words zero: many halvings */
    k++;
    v[k][n / 2] = 0x80000000u;
    k++;
    v[k++][1] = 0xffffffffu;
    uint64_t rng = 0x2545f4914f6cdd1dull ^ seed;
    while (k < cap) {
        for (int i = 0; i < n; i++)
            v[k][i] = rng_next(&rng);
        v[k][n - 1] &= m[n - 1] >> 1; /* below the modulus's top limb: below m */
        k++;
    }
    return k;
}

/* A field as the test needs it: blst's inverse and product on limbs, its modulus and R^3. */
typedef struct {
    const char *name;
    int n;
    const uint32_t *m, *r3;
    void (*inverse)(uint32_t *out, const uint32_t *a);
    void (*mul)(uint32_t *out, const uint32_t *a, const uint32_t *b);
} field;

/* blst's inverse and product of field F (fp, fr) on little-endian limbs */
#define CZ__BLST_ON_LIMBS(F)                                                   \
    static void F##_inverse(uint32_t *out, const uint32_t *a)                  \
    {                                                                          \
        blst_##F x, y;                                                         \
        memcpy(&x, a, sizeof x);                                               \
        blst_##F##_inverse(&y, &x);                                            \
        memcpy(out, &y, sizeof y);                                             \
    }                                                                          \
    static void F##_mul(uint32_t *out, const uint32_t *a, const uint32_t *b)   \
    {                                                                          \
        blst_##F x, y, z;                                                      \
        memcpy(&x, a, sizeof x);                                               \
        memcpy(&y, b, sizeof y);                                               \
        blst_##F##_mul(&z, &x, &y);                                            \
        memcpy(out, &z, sizeof z);                                             \
    }
CZ__BLST_ON_LIMBS(fp)
CZ__BLST_ON_LIMBS(fr)

static void check_field(const field *f, uint64_t seed)
{
    enum { COUNT = 400 };
    static uint32_t v[COUNT][12];
    const int k = make_values(v, COUNT, f->m, f->n, seed);
    const uint32_t raw_one[CZ__BIN_MAX] = { 1 };
    for (int i = 0; i < k; i++) {
        uint32_t want[CZ__BIN_MAX], got[CZ__BIN_MAX], mont[CZ__BIN_MAX], plain[CZ__BIN_MAX];
        f->inverse(want, v[i]); /* R^2 / X */
        cz__bin_inverse(got, v[i], f->m, f->n);
        f->mul(mont, got, f->r3); /* X^-1 R^3 / R */
        f->mul(plain, want, raw_one);
        f->mul(plain, plain, raw_one); /* X^-1 */
        const size_t bytes = (size_t)f->n * 4;
        if (memcmp(got, plain, bytes) || memcmp(mont, want, bytes))
            CZ__FAIL("%s value %d: the binary inverse %s", f->name, i,
                     memcmp(got, plain, bytes) ? "differs" : "times R^3 differs from blst's");
    }
    uint32_t zero[CZ__BIN_MAX] = { 0 }, out[CZ__BIN_MAX];
    memset(out, 0xff, sizeof out);
    cz__bin_inverse(out, zero, f->m, f->n);
    for (int i = 0; i < f->n; i++)
        CHECK(out[i] == 0); /* the inverse of 0 is 0, as Fermat's */
}

CZ_TEST(fp_inverse_matches_blst)
{
    const field fp = { "Fp", 12, P, P_R3, fp_inverse, fp_mul };
    check_field(&fp, 381);
}

CZ_TEST(fr_inverse_matches_blst)
{
    const field fr = { "Fr", 8, R, R_R3, fr_inverse, fr_mul };
    check_field(&fr, 255);
}

CZ_TEST_MAIN()
