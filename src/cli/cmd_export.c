/*
 * cli/cmd_export.c — `cuzk export snarkjs`: a cuzk proof, its public inputs
 * and verifying key as snarkjs's Groth16 JSON (curve "bls12381"), so the
 * JavaScript tooling users already have can check cuzk proofs:
 *   snarkjs groth16 verify verification_key.json public.json proof.json
 *
 * snarkjs's layout (snarkjs groth16_verify.js, ffjavascript toObject):
 * G1 as ["x", "y", "1"], G2 as [["x.c0", "x.c1"], ["y.c0", "y.c1"], ["1", "0"]],
 * every number a decimal string; it checks e(-A, B) e(alpha, beta)
 * e(IC(x), gamma) e(C, delta) = 1, the same equation as bellperson.
 * A multi-partition proof gives proof.json/public.json for partition 0 and
 * proof_K.json/public_K.json for the others.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/public_file.h"
#include "cuzk.h"

/* Decimal string of the |n|-byte big-endian integer at |be|. */
static void be_to_decimal(char out[130], const uint8_t *be, size_t n)
{
    uint8_t v[48];
    memcpy(v, be, n);
    char rev[130];
    size_t k = 0;
    bool zero;
    do { /* repeated division by 10, most significant byte first */
        unsigned rem = 0;
        zero = true;
        for (size_t i = 0; i < n; i++) {
            unsigned cur = (rem << 8) | v[i];
            v[i] = (uint8_t)(cur / 10);
            rem = cur % 10;
            zero &= v[i] == 0;
        }
        rev[k++] = (char)('0' + rem);
    } while (!zero && k < sizeof rev - 1);
    for (size_t i = 0; i < k; i++)
        out[i] = rev[k - 1 - i];
    out[k] = '\0';
}

/* An uncompressed G1 point (x || y, 48 bytes each, cuzk.h) as snarkjs's ["x", "y", "1"]. */
static void put_g1(FILE *f, const uint8_t p[CZ_G1_UNCOMPRESSED_BYTES])
{
    char x[130], y[130];
    be_to_decimal(x, p, 48);
    be_to_decimal(y, p + 48, 48);
    fprintf(f, "[\"%s\", \"%s\", \"1\"]", x, y);
}

/* An uncompressed G2 point (x.c1 x.c0 y.c1 y.c0) as [[x.c0, x.c1], [y.c0, y.c1], [1, 0]]. */
static void put_g2(FILE *f, const uint8_t p[CZ_G2_UNCOMPRESSED_BYTES])
{
    char x0[130], x1[130], y0[130], y1[130];
    be_to_decimal(x1, p, 48);
    be_to_decimal(x0, p + 48, 48);
    be_to_decimal(y1, p + 96, 48);
    be_to_decimal(y0, p + 144, 48);
    fprintf(f, "[[\"%s\", \"%s\"], [\"%s\", \"%s\"], [\"1\", \"0\"]]", x0, x1, y0, y1);
}

/* Point |which| (|i|: IC's index) of |vk| as snarkjs writes it. */
static void put_vk_point(FILE *f, const cz_groth16_vk_t *vk, cz_groth16_vk_point_id_t which,
                         size_t i)
{
    uint8_t p[CZ_G2_UNCOMPRESSED_BYTES];
    int n = cz_groth16_vk_point(vk, which, i, p, sizeof p, NULL);
    if (n == CZ_G1_UNCOMPRESSED_BYTES)
        put_g1(f, p);
    else if (n == CZ_G2_UNCOMPRESSED_BYTES)
        put_g2(f, p);
}

static FILE *open_out(cz_ctx_t *ctx, const char *dir, const char *name, long k, char *path,
                      size_t cap)
{
    if (k > 0)
        snprintf(path, cap, "%s/%s_%ld.json", dir, name, k);
    else
        snprintf(path, cap, "%s/%s.json", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        cz_fail(ctx, CZ_EIO, "%s: %s", path, strerror(errno));
    return f;
}

static int close_out(cz_ctx_t *ctx, FILE *f, const char *path)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return cz_fail(ctx, CZ_EIO, "%s: write failed", path);
    return CZ_OK;
}

static int write_vk(cz_ctx_t *ctx, const char *dir, const cz_groth16_vk_t *vk)
{
    char path[4096];
    FILE *f = open_out(ctx, dir, "verification_key", 0, path, sizeof path);
    if (!f)
        return CZ_EIO;
    const size_t n_public = cz_groth16_vk_inputs(vk);
    fprintf(f, "{\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\",\n \"nPublic\": %zu,\n",
            n_public);
    fputs(" \"vk_alpha_1\": ", f);
    put_vk_point(f, vk, CZ_VK_ALPHA_G1, 0);
    fputs(",\n \"vk_beta_2\": ", f);
    put_vk_point(f, vk, CZ_VK_BETA_G2, 0);
    fputs(",\n \"vk_gamma_2\": ", f);
    put_vk_point(f, vk, CZ_VK_GAMMA_G2, 0);
    fputs(",\n \"vk_delta_2\": ", f);
    put_vk_point(f, vk, CZ_VK_DELTA_G2, 0);
    fputs(",\n \"IC\": [\n", f);
    for (size_t i = 0; i <= n_public; i++) {
        fputs("  ", f);
        put_vk_point(f, vk, CZ_VK_IC, i);
        fputs(i < n_public ? ",\n" : "\n", f);
    }
    fputs(" ]\n}\n", f);
    return close_out(ctx, f, path);
}

/* Proof |k| (192 bytes at |proof|) and its |n| inputs (reprs) as proof[_K].json, public[_K].json. */
static int write_proof(cz_ctx_t *ctx, const char *dir, long k, const uint8_t *proof,
                       const uint8_t *inputs, size_t n)
{
    uint8_t pts[CZ_GROTH16_PROOF_UNCOMPRESSED_BYTES];
    cz_error_t err;
    if (cz_groth16_proof_points(pts, proof, &err))
        return cz_fail(ctx, err.code, "proof %ld: %s", k, err.message);
    char path[4096];
    FILE *f = open_out(ctx, dir, "proof", k, path, sizeof path);
    if (!f)
        return CZ_EIO;
    fputs("{\n \"pi_a\": ", f);
    put_g1(f, pts);
    fputs(",\n \"pi_b\": ", f);
    put_g2(f, pts + CZ_G1_UNCOMPRESSED_BYTES);
    fputs(",\n \"pi_c\": ", f);
    put_g1(f, pts + CZ_G1_UNCOMPRESSED_BYTES + CZ_G2_UNCOMPRESSED_BYTES);
    fputs(",\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\"\n}\n", f);
    int rc = close_out(ctx, f, path);
    if (rc)
        return rc;
    if (!(f = open_out(ctx, dir, "public", k, path, sizeof path)))
        return CZ_EIO;
    fputs("[\n", f);
    for (size_t i = 0; i < n && rc == CZ_OK; i++) {
        char d[80];
        if (cz_fr_repr_format(d, sizeof d, inputs + 32 * i, true, &err))
            rc = cz_fail(ctx, err.code, "public input %zu: %s", i, err.message);
        else
            fprintf(f, " \"%s\"%s\n", d, i + 1 < n ? "," : "");
    }
    fputs("]\n", f);
    int wrc = close_out(ctx, f, path);
    return rc ? rc : wrc;
}

typedef struct {
    const char *vk, *proof, *public_path, *dir;
} export_opts_t;

static const cz_opt EXPORT_OPTS[] = {
    { "vk", 0, CZ_O_STRING(export_opts_t, vk), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the verifying key (bellperson's format)" },
    { "proof", 0, CZ_O_STRING(export_opts_t, proof), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the proof, 192 bytes per partition" },
    { "public", 0, CZ_O_STRING(export_opts_t, public_path), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the public inputs, one block per partition" },
    { "dir", 0, CZ_O_OUTDIR(export_opts_t, dir), .flags = CZ_OPT_REQUIRED,
      .help = "where the JSON files go (created)" },
};
static const cz_opts_spec EXPORT_SPEC = {
    .cmd = "cuzk export snarkjs",
    .usage = "usage: cuzk export snarkjs --vk FILE --proof FILE --public FILE --dir DIR\n",
    .about =
        "  Writes DIR/verification_key.json, DIR/proof.json and DIR/public.json in\n"
        "  snarkjs's Groth16 format (curve bls12381); check them with\n"
        "  `snarkjs groth16 verify DIR/verification_key.json DIR/public.json DIR/proof.json`.\n"
        "  Partition K > 0 of a multi-partition proof goes to proof_K.json / public_K.json.\n",
    CZ_OPTS(EXPORT_OPTS),
};

static int export_snarkjs(int argc, char **argv)
{
    export_opts_t o;
    int go = cz_opts_parse(&EXPORT_SPEC, &o, argc, argv, NULL);
    if (go != CZ_OPTS_RUN)
        return go;
    const char *vk_path = o.vk, *proof_path = o.proof, *public_path = o.public_path, *dir = o.dir;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 1))
        return CZ_EXIT_FAIL;
    cz_groth16_vk_t *vk = NULL;
    cz_error_t err;
    uint8_t *inputs = NULL, *bytes = NULL;
    size_t blocks = 0, per_block = 0, len = 0;
    int rc = cz_groth16_vk_load(&vk, vk_path, &err);
    if (rc)
        cz_fail(ctx, rc, "%s", err.message);
    if (rc == CZ_OK)
        rc = cz_public_read(ctx, public_path, &inputs, &blocks, &per_block);
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, proof_path, (size_t)1 << 20, &bytes, &len);
    if (rc == CZ_OK) {
        size_t n = len / CZ_GROTH16_PROOF_BYTES;
        if (len == 0 || len % CZ_GROTH16_PROOF_BYTES)
            rc = cz_fail(ctx, CZ_EFORMAT, "%s: %zu bytes is not a whole number of 192-byte proofs",
                         proof_path, len);
        else if (n != blocks)
            rc = cz_fail(ctx, CZ_EMISMATCH, "%s has %zu partitions, %s %zu blocks", proof_path, n,
                         public_path, blocks);
        else if (per_block != cz_groth16_vk_inputs(vk))
            rc = cz_fail(ctx, CZ_EMISMATCH, "%zu public inputs per partition, the vk takes %zu",
                         per_block, cz_groth16_vk_inputs(vk));
    }
    if (rc == CZ_OK)
        rc = write_vk(ctx, dir, vk);
    for (size_t k = 0; rc == CZ_OK && k < blocks; k++)
        rc = write_proof(ctx, dir, (long)k, bytes + k * CZ_GROTH16_PROOF_BYTES,
                         inputs + k * per_block * 32, per_block);
    if (rc)
        fprintf(stderr, "cuzk export: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    else
        printf("wrote %s/verification_key.json, proof.json, public.json (%zu partition%s)\n", dir,
               blocks, blocks == 1 ? "" : "s");
    cz_groth16_vk_free(vk);
    free(inputs);
    free(bytes);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}

int cmd_export(int argc, char **argv)
{
    static const cz_cli_command sub[] = {
        { "snarkjs", export_snarkjs, "vk, proof and public inputs as snarkjs's Groth16 JSON" },
    };
    return cz_cli_dispatch("cuzk export", sub, sizeof sub / sizeof sub[0],
                           "usage: cuzk export snarkjs ...   (cuzk export snarkjs --help)", argc,
                           argv);
}
