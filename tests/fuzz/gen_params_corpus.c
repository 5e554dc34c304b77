/*
 * tests/fuzz/gen_params_corpus.c — writes the seed corpus of fuzz_params:
 * small valid params / vk / proof files (forged with the test trapdoor of
 * tests/groth16/g16_fixture.h) and invalid variants (truncated, infinity,
 * compressed point in an uncompressed slot, trailing byte, bogus count).
 * Deterministic: the same files every run. Each is < 10 KB.
 *
 * Usage: gen_params_corpus DIR
 */
#include <stdio.h>

#include "groth16/g16_fixture.h"
#include "groth16/params_int.h"

static int put(const char *dir, const char *name, const uint8_t *buf, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len) {
        fprintf(stderr, "gen_params_corpus: cannot write %s\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    fclose(f);
    printf("%-28s %5zu bytes\n", name, len);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    int bad = 0;

    /* valid params: 2 inputs, m = 4, 2 aux, every aux in A, one B input, one B aux */
    const size_t counts[CZ_PV_COUNT] = { 3, 2, 4, 2, 2 };
    cz_params_t *p = g16_params_new(2, counts, 7);
    size_t len;
    uint8_t *bytes = g16_params_bytes(p, &len);
    if (!bytes)
        return 1;
    bad |= put(dir, "valid.params", bytes, len);

    size_t vk_len = cz_vk_encoded_size(p->vk.n_ic);
    bad |= put(dir, "valid.vk", bytes, vk_len);
    bad |= put(dir, "truncated_in_l.params", bytes,
               cz_params_vec_info(p, CZ_PV_L).file_offset + 4 + 50);
    bad |= put(dir, "truncated_in_vk.params", bytes, 500);

    uint8_t *work = malloc(len + 1);
    memcpy(work, bytes, len);
    work[len] = 0;
    bad |= put(dir, "trailing_byte.params", work, len + 1);

    size_t h0 = cz_params_vec_info(p, CZ_PV_H).file_offset + 4;
    memset(work + h0 + 96, 0, 96);
    work[h0 + 96] = 0x40; /* h[1] = infinity */
    bad |= put(dir, "infinity_h1.params", work, len);

    memcpy(work, bytes, len);
    size_t b2 = cz_params_vec_info(p, CZ_PV_B_G2).file_offset + 4;
    blst_p2_affine_compress(work + b2, &p->b_g2[0]); /* compressed in an uncompressed slot */
    bad |= put(dir, "compressed_b_g2.params", work, len);

    memcpy(work, bytes, len);
    cz__put_be32(work + cz_params_vec_info(p, CZ_PV_A).file_offset, 0x7fffffffu);
    bad |= put(dir, "huge_count_a.params", work, len);

    memcpy(work, bytes, len);
    work[cz_params_vec_info(p, CZ_PV_B_G1).file_offset + 4 + 40] ^= 0x01; /* off the curve */
    bad |= put(dir, "corrupt_b_g1.params", work, len);

    /* proofs: one valid, three partitions, one with a bad B */
    g16_toy t;
    cz_vk_t vk;
    g16_toy_new(&t, &vk, 3, 8);
    cz_fr x[2];
    cz_proof_t pf[3];
    cz_fr_from_u64(&x[0], 1);
    cz_fr_from_u64(&x[1], 2);
    for (int i = 0; i < 3; i++)
        g16_toy_prove(&t, &pf[i], x);
    uint8_t proofs[3 * CZ_PROOF_BYTES];
    cz_proofs_encode(proofs, pf, 3);
    bad |= put(dir, "valid.proof", proofs, CZ_PROOF_BYTES);
    bad |= put(dir, "valid_3_partitions.proof", proofs, sizeof proofs);
    proofs[CZ_PROOF_BYTES + 48 + 20] ^= 0x08;
    bad |= put(dir, "bad_b_partition_1.proof", proofs, sizeof proofs);
    bad |= put(dir, "empty", proofs, 0);

    g16_toy_free(&t);
    cz_vk_clear(&vk);
    free(work);
    free(bytes);
    cz_params_free(p);
    return bad;
}
