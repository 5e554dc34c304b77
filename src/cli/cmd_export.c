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
#include "groth16/params.h"
#include "groth16/proof.h"

/* Decimal string of a little-endian multi-limb integer (destroys |v|). */
static void limbs_to_decimal(char *out, size_t cap, uint64_t *v, size_t limbs)
{
    char rev[128];
    size_t n = 0;
    for (;;) {
        bool zero = true;
        unsigned __int128 rem = 0;
        for (size_t i = limbs; i-- > 0;) {
            unsigned __int128 cur = (rem << 64) | v[i];
            v[i] = (uint64_t)(cur / 10);
            rem = cur % 10;
            zero &= v[i] == 0;
        }
        rev[n++] = (char)('0' + (int)rem);
        if (zero || n == sizeof rev)
            break;
    }
    size_t k = 0;
    while (n > 0 && k + 1 < cap)
        out[k++] = rev[--n];
    out[k] = '\0';
}

static void fp_dec(char out[130], const blst_fp *a)
{
    uint64_t v[6];
    blst_uint64_from_fp(v, a);
    limbs_to_decimal(out, 130, v, 6);
}

static void fr_dec(char out[130], const cz_fr *a)
{
    uint64_t v[4];
    blst_uint64_from_fr(v, a);
    limbs_to_decimal(out, 130, v, 4);
}

static void put_g1(FILE *f, const blst_p1_affine *p)
{
    char x[130], y[130];
    fp_dec(x, &p->x);
    fp_dec(y, &p->y);
    fprintf(f, "[\"%s\", \"%s\", \"1\"]", x, y);
}

static void put_g2(FILE *f, const blst_p2_affine *p)
{
    char x0[130], x1[130], y0[130], y1[130];
    fp_dec(x0, &p->x.fp[0]);
    fp_dec(x1, &p->x.fp[1]);
    fp_dec(y0, &p->y.fp[0]);
    fp_dec(y1, &p->y.fp[1]);
    fprintf(f, "[[\"%s\", \"%s\"], [\"%s\", \"%s\"], [\"1\", \"0\"]]", x0, x1, y0, y1);
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

static int write_vk(cz_ctx_t *ctx, const char *dir, const cz_vk_t *vk)
{
    char path[4096];
    FILE *f = open_out(ctx, dir, "verification_key", 0, path, sizeof path);
    if (!f)
        return CZ_EIO;
    fprintf(f, "{\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\",\n \"nPublic\": %zu,\n",
            vk->n_ic - 1);
    fputs(" \"vk_alpha_1\": ", f);
    put_g1(f, &vk->alpha_g1);
    fputs(",\n \"vk_beta_2\": ", f);
    put_g2(f, &vk->beta_g2);
    fputs(",\n \"vk_gamma_2\": ", f);
    put_g2(f, &vk->gamma_g2);
    fputs(",\n \"vk_delta_2\": ", f);
    put_g2(f, &vk->delta_g2);
    fputs(",\n \"IC\": [\n", f);
    for (size_t i = 0; i < vk->n_ic; i++) {
        fputs("  ", f);
        put_g1(f, &vk->ic[i]);
        fputs(i + 1 < vk->n_ic ? ",\n" : "\n", f);
    }
    fputs(" ]\n}\n", f);
    return close_out(ctx, f, path);
}

static int write_proof(cz_ctx_t *ctx, const char *dir, long k, const cz_proof_t *p,
                       const cz_fr *inputs, size_t n)
{
    char path[4096];
    FILE *f = open_out(ctx, dir, "proof", k, path, sizeof path);
    if (!f)
        return CZ_EIO;
    fputs("{\n \"pi_a\": ", f);
    put_g1(f, &p->a);
    fputs(",\n \"pi_b\": ", f);
    put_g2(f, &p->b);
    fputs(",\n \"pi_c\": ", f);
    put_g1(f, &p->c);
    fputs(",\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\"\n}\n", f);
    int rc = close_out(ctx, f, path);
    if (rc)
        return rc;
    if (!(f = open_out(ctx, dir, "public", k, path, sizeof path)))
        return CZ_EIO;
    fputs("[\n", f);
    for (size_t i = 0; i < n; i++) {
        char d[130];
        fr_dec(d, &inputs[i]);
        fprintf(f, " \"%s\"%s\n", d, i + 1 < n ? "," : "");
    }
    fputs("]\n", f);
    return close_out(ctx, f, path);
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
    cz_vk_t vk = { 0 };
    cz_fr *inputs = NULL;
    cz_proof_t *proofs = NULL;
    uint8_t *bytes = NULL;
    size_t blocks = 0, per_block = 0, len = 0;
    int rc = cz_vk_load(ctx, &vk, vk_path);
    if (rc == CZ_OK)
        rc = cz_public_read(ctx, public_path, &inputs, &blocks, &per_block);
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, proof_path, (size_t)1 << 20, &bytes, &len);
    if (rc == CZ_OK) {
        size_t n = len / CZ_PROOF_BYTES;
        if (len == 0 || len % CZ_PROOF_BYTES)
            rc = cz_fail(ctx, CZ_EFORMAT, "%s: %zu bytes is not a whole number of 192-byte proofs",
                         proof_path, len);
        else if (n != blocks)
            rc = cz_fail(ctx, CZ_EMISMATCH, "%s has %zu partitions, %s %zu blocks", proof_path, n,
                         public_path, blocks);
        else if (per_block + 1 != vk.n_ic)
            rc = cz_fail(ctx, CZ_EMISMATCH, "%zu public inputs per partition, the vk takes %zu",
                         per_block, vk.n_ic - 1);
        else if (!(proofs = calloc(n, sizeof *proofs)))
            rc = cz_fail(ctx, CZ_ENOMEM, "proofs");
        else
            rc = cz_proofs_decode(ctx, proofs, n, bytes, len);
    }
    if (rc == CZ_OK)
        rc = write_vk(ctx, dir, &vk);
    for (size_t k = 0; rc == CZ_OK && k < blocks; k++)
        rc = write_proof(ctx, dir, (long)k, &proofs[k], inputs + k * per_block, per_block);
    if (rc)
        fprintf(stderr, "cuzk export: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    else
        printf("wrote %s/verification_key.json, proof.json, public.json (%zu partition%s)\n", dir,
               blocks, blocks == 1 ? "" : "s");
    cz_vk_clear(&vk);
    free(inputs);
    free(proofs);
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
