/*
 * examples/prove_c2.c — prove a PoRep C2 with libcuzk, verify it from the
 * public values, write it. Only <cuzk.h>; build against an installed cuzk:
 *
 *     cc prove_c2.c $(pkg-config --cflags --libs cuzk) -o prove_c2
 *     ./prove_c2 c1.json /var/tmp/filecoin-proof-parameters proof.bin
 */
#include <cuzk.h>
#include <stdio.h>
#include <stdlib.h>

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    if (f && fseek(f, 0, SEEK_END) == 0 && (*len = (size_t)ftell(f)) > 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (buf = malloc(*len)) && fread(buf, 1, *len, f) != *len) {
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: prove_c2 C1.json PARAMS_DIR PROOF_OUT   (libcuzk %s)\n",
                cz_version());
        return 2;
    }
    size_t c1_len = 0, len = 0;
    char *c1 = slurp(argv[1], &c1_len);
    if (!c1) {
        fprintf(stderr, "prove_c2: cannot read %s\n", argv[1]);
        return 2;
    }
    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.params_dir = argv[2];
    cz_prover_t *p = NULL;
    cz_job_request_t req;
    cz_job_request_init(&req, "porep-c2", c1, c1_len);
    cz_porep_public_t pub;
    cz_error_t err;
    uint64_t id = 0;
    uint8_t *proof = NULL;
    int rc = cz_prover_new(&p, &cfg, &err);
    if (!rc)
        rc = cz_prover_submit(p, &req, &id, &err); /* C1 checked, job queued */
    if (!rc)
        rc = cz_prover_wait(p, id, -1, NULL, &err); /* until it ends */
    if (!rc)
        rc = cz_prover_proof(p, id, &proof, &len, &err); /* its error if it failed */
    if (!rc)
        rc = cz_porep_public_from_c1(&pub, c1, c1_len, &err);
    if (!rc)
        rc = cz_porep_c2_verify(NULL, argv[2], &pub, proof, len, &err);
    FILE *out = rc ? NULL : fopen(argv[3], "wb");
    if (!rc && (!out || fwrite(proof, 1, len, out) != len))
        rc = CZ_EIO;
    if (out && fclose(out) != 0)
        rc = CZ_EIO;
    if (rc == CZ_EIO)
        snprintf(err.message, sizeof err.message, "cannot write %s", argv[3]);
    if (rc)
        fprintf(stderr, "prove_c2: %s: %s\n", cz_err_name(rc), err.message);
    else
        printf("%s: %zu-byte proof, verified from the public values\n", argv[3], len);
    cz_free(proof);
    cz_prover_free(p);
    free(c1);
    return rc ? 1 : 0;
}
