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

CZ_TEST(fp_inverse_matches_blst)
{
    enum { N = 12, COUNT = 400 };
    static uint32_t v[COUNT][12];
    const int k = make_values(v, COUNT, P, N, 381);
    blst_fp raw_one;
    memset(&raw_one, 0, sizeof raw_one);
    raw_one.l[0] = 1;
    blst_fp r3;
    memcpy(&r3, P_R3, sizeof r3);
    for (int i = 0; i < k; i++) {
        blst_fp x, want, got, mont;
        memcpy(&x, v[i], sizeof x);
        blst_fp_inverse(&want, &x); /* R^2 / X */
        cz__bin_inverse((uint32_t *)&got, v[i], P, N);
        blst_fp_mul(&mont, &got, &r3); /* X^-1 R^3 / R */
        blst_fp plain = want;
        blst_fp_mul(&plain, &plain, &raw_one);
        blst_fp_mul(&plain, &plain, &raw_one); /* X^-1 */
        if (memcmp(&got, &plain, sizeof got) || memcmp(&mont, &want, sizeof mont))
            CZ__FAIL("Fp value %d: the binary inverse %s", i,
                     memcmp(&got, &plain, sizeof got) ? "differs" : "times R^3 differs from blst's");
    }
    uint32_t zero[12] = { 0 }, out[12];
    memset(out, 0xff, sizeof out);
    cz__bin_inverse(out, zero, P, N);
    for (int i = 0; i < N; i++)
        CHECK(out[i] == 0); /* the inverse of 0 is 0, as Fermat's */
}

CZ_TEST(fr_inverse_matches_blst)
{
    enum { N = 8, COUNT = 400 };
    static uint32_t v[COUNT][12];
    const int k = make_values(v, COUNT, R, N, 255);
    blst_fr raw_one;
    memset(&raw_one, 0, sizeof raw_one);
    raw_one.l[0] = 1;
    blst_fr r3;
    memcpy(&r3, R_R3, sizeof r3);
    for (int i = 0; i < k; i++) {
        blst_fr x, want, got, mont;
        memcpy(&x, v[i], sizeof x);
        blst_fr_inverse(&want, &x);
        cz__bin_inverse((uint32_t *)&got, v[i], R, N);
        blst_fr_mul(&mont, &got, &r3);
        blst_fr plain = want;
        blst_fr_mul(&plain, &plain, &raw_one);
        blst_fr_mul(&plain, &plain, &raw_one);
        if (memcmp(&got, &plain, sizeof got) || memcmp(&mont, &want, sizeof mont))
            CZ__FAIL("Fr value %d: the binary inverse %s", i,
                     memcmp(&got, &plain, sizeof got) ? "differs" : "times R^3 differs from blst's");
    }
}

CZ_TEST_MAIN()
