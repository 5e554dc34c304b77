/*
 * tests/api/test_tools.c — cuzk.h's "tools" block (src/api/groth16.c,
 * src/api/tools.c), through the public header only: test params of the
 * toy circuit (cz_setup_test_params, seeded) in a temporary directory, a
 * two-partition proof of it through a CPU prover ("circuit" kind), then
 *  - cz_groth16_vk_load / _parse / _inputs / _point: the points as the vk
 *    file holds them; a missing file, a truncated vk, trailing bytes, no
 *    bytes, a bad index, too little room: refused, the message saying why;
 *  - cz_groth16_verify: valid; a changed input or proof byte never valid;
 *    wrong lengths and input counts, a non-field repr: refused, named;
 *  - cz_groth16_proof_points: A, B, C uncompressed, their x as compressed;
 *  - cz_fr_repr_parse / _format: hex, decimal, the modulus, junk, room;
 *  - cz_sector_size_parse; cz_params_manifest_* and cz_params_file_digest
 *    (BLAKE2b-512 of known bytes; a missing and a malformed manifest);
 *  - cz_circuit_describe: a registry id, a kind and size, a custom PoRep
 *    graph; neither or both of kind and circuit, an unknown kind and id;
 *  - cz_hash_sha256 / _sha254 / _poseidon, cz_comm_d_zero: known values
 *    (FIPS 180 "abc"; `cuzk hash` before the API), bad arity and inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk.h"
#include "cz_setup_params.h"
#include "cz_test.h"

static char dir[64], params_path[128], vk_path[128], scratch[128];
static uint8_t *proof, *inputs; /* 2 x 192 bytes; 2 x per reprs */
static size_t proof_len, per, parts;
static uint8_t *vk_bytes;
static size_t vk_len;

static void cleanup(void)
{
    unlink(params_path);
    unlink(vk_path);
    unlink(scratch);
    rmdir(dir);
    cz_free(proof);
    cz_free(inputs);
    free(vk_bytes);
}

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void write_all(const char *path, const void *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, len, f) != len)
        abort();
    fclose(f);
}

/* Params, vk and a two-partition proof of the toy circuit, once per process. */
static void fixture(void)
{
    if (proof)
        return;
    snprintf(dir, sizeof dir, "/tmp/cz_tools_XXXXXX");
    if (!mkdtemp(dir))
        abort();
    atexit(cleanup);
    snprintf(params_path, sizeof params_path, "%s/toy.params", dir);
    snprintf(vk_path, sizeof vk_path, "%s/toy.vk", dir);
    snprintf(scratch, sizeof scratch, "%s/scratch", dir);
    cz_test_setup_params("toy", 3, params_path, vk_path);
    cz_error_t err;
    cz_prover_config_t cfg;
    cz_prover_config_init(&cfg);
    cfg.backend = "cpu";
    cfg.threads = 2;
    cfg.memory_budget = (size_t)1 << 30;
    cfg.params_dir = dir;
    cz_prover_t *p;
    if (cz_prover_new(&p, &cfg, &err))
        abort();
    cz_job_request_t r;
    cz_job_request_init(&r, "circuit", NULL, 0);
    r.fields = "{\"circuit\":\"toy\",\"partitions\":2,\"seed\":5}";
    r.params = "toy";
    uint64_t id;
    if (cz_prover_submit(p, &r, &id, &err) || cz_prover_wait(p, id, -1, NULL, &err) ||
        cz_prover_proof(p, id, &proof, &proof_len, &err) ||
        cz_prover_public_inputs(p, id, &inputs, &per, &parts, &err)) {
        fprintf(stderr, "prove: %s\n", err.message);
        abort();
    }
    cz_prover_free(p);
    if (!(vk_bytes = read_all(vk_path, &vk_len)))
        abort();
}

CZ_TEST(vk_load_and_points)
{
    fixture();
    cz_groth16_vk_t *vk = NULL;
    cz_error_t err;
    CHECK_OK(cz_groth16_vk_load(&vk, vk_path, &err));
    REQUIRE(vk);
    CHECK_EQ_U64(cz_groth16_vk_inputs(vk), per);
    CHECK_EQ_U64(per, 1); /* the toy's public y */
    /* bellperson's vk file: the same points uncompressed, in this order */
    static const struct {
        cz_groth16_vk_point_id_t id;
        size_t at, len;
    } pts[] = { { CZ_VK_ALPHA_G1, 0, 96 },   { CZ_VK_BETA_G1, 96, 96 },
                { CZ_VK_BETA_G2, 192, 192 }, { CZ_VK_GAMMA_G2, 384, 192 },
                { CZ_VK_DELTA_G1, 576, 96 }, { CZ_VK_DELTA_G2, 672, 192 } };
    uint8_t out[CZ_G2_UNCOMPRESSED_BYTES];
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        CHECK_EQ_INT(cz_groth16_vk_point(vk, pts[i].id, 0, out, sizeof out, &err), (int)pts[i].len);
        CHECK_MEM_EQ(out, vk_bytes + pts[i].at, pts[i].len);
    }
    for (size_t i = 0; i <= per; i++) { /* IC after the u32 count */
        CHECK_EQ_INT(cz_groth16_vk_point(vk, CZ_VK_IC, i, out, sizeof out, &err), 96);
        CHECK_MEM_EQ(out, vk_bytes + 868 + 96 * i, 96);
    }
    CHECK_EQ_INT(cz_groth16_vk_point(vk, CZ_VK_IC, per + 1, out, sizeof out, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "IC index 2 out of range") != NULL);
    CHECK_EQ_INT(cz_groth16_vk_point(vk, CZ_VK_BETA_G2, 0, out, 96, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "96 bytes of room, the point takes 192") != NULL);
    CHECK_EQ_INT(cz_groth16_vk_point(vk, CZ_VK_ALPHA_G1, 1, out, sizeof out, &err), CZ_EINVAL);
    CHECK_EQ_INT(cz_groth16_vk_point(vk, (cz_groth16_vk_point_id_t)99, 0, out, sizeof out, &err),
                 CZ_EINVAL);
    CHECK(strstr(err.message, "unknown point 99") != NULL);
    cz_groth16_vk_free(vk);

    /* the same from bytes */
    CHECK_OK(cz_groth16_vk_parse(&vk, vk_bytes, vk_len, &err));
    CHECK_EQ_U64(cz_groth16_vk_inputs(vk), per);
    cz_groth16_vk_free(vk);
    cz_groth16_vk_free(NULL);
    CHECK_EQ_U64(cz_groth16_vk_inputs(NULL), 0);
}

CZ_TEST(vk_bad_input)
{
    fixture();
    cz_groth16_vk_t *vk = (cz_groth16_vk_t *)1;
    cz_error_t err;
    char missing[160];
    snprintf(missing, sizeof missing, "%s/no-such.vk", dir);
    CHECK_EQ_INT(cz_groth16_vk_load(&vk, missing, &err), CZ_ENOTFOUND);
    CHECK(vk == NULL);
    CHECK(strstr(err.message, "no-such.vk") != NULL);
    /* truncated: in the points, in the IC count, one IC point short */
    size_t cuts[] = { 50, 866, vk_len - 1 };
    for (size_t i = 0; i < 3; i++) {
        write_all(scratch, vk_bytes, cuts[i]);
        CHECK_EQ_INT(cz_groth16_vk_load(&vk, scratch, &err), CZ_EFORMAT);
        CHECK(vk == NULL);
        CHECK(strstr(err.message, "scratch") != NULL); /* the file named */
        CHECK_EQ_INT(cz_groth16_vk_parse(&vk, vk_bytes, cuts[i], &err), CZ_EFORMAT);
        CHECK(err.message[0] != '\0');
    }
    /* trailing bytes, a point off the curve, no bytes, NULLs */
    uint8_t *longer = malloc(vk_len + 1);
    memcpy(longer, vk_bytes, vk_len);
    longer[vk_len] = 0;
    CHECK_EQ_INT(cz_groth16_vk_parse(&vk, longer, vk_len + 1, &err), CZ_EFORMAT);
    memcpy(longer, vk_bytes, vk_len);
    longer[40] ^= 1; /* alpha_g1's x */
    CHECK_EQ_INT(cz_groth16_vk_parse(&vk, longer, vk_len, &err), CZ_EFORMAT);
    free(longer);
    CHECK_EQ_INT(cz_groth16_vk_parse(&vk, vk_bytes, 0, &err), CZ_EFORMAT);
    CHECK_EQ_INT(cz_groth16_vk_parse(&vk, NULL, 0, &err), CZ_EFORMAT);
    CHECK(strstr(err.message, "0 bytes") != NULL);
    CHECK_EQ_INT(cz_groth16_vk_parse(&vk, NULL, 5, &err), CZ_EINVAL);
    CHECK_EQ_INT(cz_groth16_vk_load(NULL, vk_path, &err), CZ_EINVAL);
    CHECK_EQ_INT(cz_groth16_vk_load(&vk, NULL, NULL), CZ_EINVAL);
}

CZ_TEST(verify_raw)
{
    fixture();
    REQUIRE(proof_len == 2 * CZ_GROTH16_PROOF_BYTES && parts == 2 && per == 1);
    cz_groth16_vk_t *vk;
    cz_error_t err;
    REQUIRE(cz_groth16_vk_load(&vk, vk_path, &err) == CZ_OK);
    CHECK_OK(cz_groth16_verify(vk, proof, proof_len, inputs, parts * per, &err));
    CHECK_EQ_STR(err.message, "");
    /* one partition alone */
    CHECK_OK(cz_groth16_verify(vk, proof + 192, 192, inputs + 32 * per, per, &err));

    uint8_t in2[64], pr2[384];
    int rc_swap;
    memcpy(in2, inputs, 64);
    in2[0] ^= 1; /* another y */
    CHECK_EQ_INT(cz_groth16_verify(vk, proof, proof_len, in2, 2, &err), CZ_EVERIFY);
    memcpy(in2, inputs, 64);
    in2[32] ^= 2; /* partition 1's y only */
    CHECK_EQ_INT(cz_groth16_verify(vk, proof, proof_len, in2, 2, &err), CZ_EVERIFY);
    memcpy(pr2, proof, 384);
    memcpy(pr2 + 48, proof + 192 + 48, 96); /* partition 1's B in partition 0's proof */
    rc_swap = cz_groth16_verify(vk, pr2, 384, inputs, 2, &err);
    CHECK(rc_swap == CZ_EVERIFY);
    memcpy(pr2, proof, 384);
    pr2[200] ^= 4; /* a byte of partition 1's A: off its subgroup */
    CHECK_EQ_INT(cz_groth16_verify(vk, pr2, 384, inputs, 2, &err), CZ_EFORMAT);
    CHECK(strstr(err.message, "proof[1].A") != NULL);

    CHECK_EQ_INT(cz_groth16_verify(vk, proof, 191, inputs, 1, &err), CZ_EFORMAT);
    CHECK(strstr(err.message, "191 bytes is not a whole number of 192-byte proofs") != NULL);
    CHECK_EQ_INT(cz_groth16_verify(vk, proof, 0, NULL, 0, &err), CZ_EFORMAT);
    CHECK_EQ_INT(cz_groth16_verify(vk, proof, proof_len, inputs, 1, &err), CZ_EMISMATCH);
    CHECK(strstr(err.message, "1 given, 2 proofs x 1 inputs (the vk's) = 2 wanted") != NULL);
    memset(in2, 0xff, sizeof in2); /* above the modulus */
    CHECK_EQ_INT(cz_groth16_verify(vk, proof, proof_len, in2, 2, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "public input 0 (proof 0, input 0) is not a field element") != NULL);
    CHECK_EQ_INT(cz_groth16_verify(NULL, proof, proof_len, inputs, 2, &err), CZ_EINVAL);
    CHECK_EQ_INT(cz_groth16_verify(vk, NULL, 192, inputs, 1, &err), CZ_EINVAL);
    cz_groth16_vk_free(vk);
}

CZ_TEST(proof_points)
{
    fixture();
    uint8_t out[CZ_GROTH16_PROOF_UNCOMPRESSED_BYTES];
    cz_error_t err;
    CHECK_OK(cz_groth16_proof_points(out, proof, &err));
    /* each x as the compressed encoding holds it, less its 3 flag bits */
    static const size_t at_c[] = { 0, 48, 144 }, at_u[] = { 0, 96, 288 }, len[] = { 48, 96, 48 };
    for (int k = 0; k < 3; k++) {
        uint8_t a[96], b[96];
        memcpy(a, proof + at_c[k], len[k]);
        memcpy(b, out + at_u[k], len[k]);
        a[0] &= 0x1f;
        b[0] &= 0x1f;
        CHECK_MEM_EQ(a, b, len[k]);
        CHECK((proof[at_c[k]] & 0x80) != 0); /* compressed */
        CHECK((out[at_u[k]] & 0x80) == 0);   /* uncompressed */
    }
    uint8_t bad[192];
    memcpy(bad, proof, 192);
    bad[0] &= 0x7f; /* A without its compression flag */
    CHECK_EQ_INT(cz_groth16_proof_points(out, bad, &err), CZ_EFORMAT);
    CHECK(err.message[0] != '\0');
    CHECK_EQ_INT(cz_groth16_proof_points(out, NULL, &err), CZ_EINVAL);
}

CZ_TEST(fr_reprs)
{
    uint8_t r[32], want[32] = { 5 };
    char text[80];
    cz_error_t err;
    CHECK_OK(cz_fr_repr_parse(r, "0x05", &err));
    CHECK_MEM_EQ(r, want, 32);
    CHECK_OK(cz_fr_repr_parse(r, "5", &err));
    CHECK_MEM_EQ(r, want, 32);
    CHECK_OK(cz_fr_repr_format(text, sizeof text, r, false, &err));
    CHECK_EQ_STR(text, "0x0000000000000000000000000000000000000000000000000000000000000005");
    CHECK_OK(cz_fr_repr_format(text, sizeof text, r, true, &err));
    CHECK_EQ_STR(text, "5");
    /* r - 1, the largest element, both ways */
    const char
        *rm1 = "52435875175126190479447740508185965837690552500527637822603658699938581184512";
    CHECK_OK(cz_fr_repr_parse(r, rm1, &err));
    CHECK_OK(cz_fr_repr_format(text, sizeof text, r, true, &err));
    CHECK_EQ_STR(text, rm1);
    CHECK_OK(cz_fr_repr_format(text, sizeof text, r, false, &err));
    CHECK_EQ_STR(text, "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000000");
    CHECK_EQ_INT(
        cz_fr_repr_parse(
            r, "52435875175126190479447740508185965837690552500527637822603658699938581184513",
            &err),
        CZ_ERANGE);
    CHECK(strstr(err.message, "not below the field's modulus") != NULL);
    CHECK_EQ_INT(cz_fr_repr_parse(r, "0xzz", &err), CZ_EFORMAT);
    CHECK(strstr(err.message, "'0xzz' is not a decimal or 0x-hex number") != NULL);
    CHECK_EQ_INT(cz_fr_repr_parse(r, "", &err), CZ_EFORMAT);
    CHECK_EQ_INT(cz_fr_repr_parse(r, NULL, &err), CZ_EINVAL);
    memset(r, 0xff, 32);
    CHECK_EQ_INT(cz_fr_repr_format(text, sizeof text, r, false, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "not a field element") != NULL);
    memcpy(r, want, 32);
    CHECK_EQ_INT(cz_fr_repr_format(text, 10, r, false, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "10 bytes of room, the text takes 67") != NULL);
    CHECK_OK(cz_fr_repr_format(text, 2, r, true, &err)); /* "5" */
}

CZ_TEST(sector_sizes)
{
    uint64_t b = 0;
    cz_error_t err;
    CHECK_OK(cz_sector_size_parse("32GiB", &b, &err));
    CHECK_EQ_U64(b, 32ull << 30);
    CHECK_OK(cz_sector_size_parse("2048", &b, &err));
    CHECK_EQ_U64(b, 2048);
    CHECK_EQ_INT(cz_sector_size_parse("3KiB", &b, &err), CZ_EINVAL);
    CHECK_EQ_STR(err.message, "'3KiB' is not a sector size (2KiB, 8MiB, 512MiB, 32GiB or 64GiB)");
    CHECK_EQ_INT(cz_sector_size_parse(NULL, &b, &err), CZ_EINVAL);
}

CZ_TEST(params_manifest)
{
    fixture();
    cz_params_manifest_t *m = NULL;
    cz_error_t err;
    CHECK_OK(cz_params_manifest_load(&m, NULL, &err));
    REQUIRE(m);
    size_t n = cz_params_manifest_count(m);
    CHECK(n > 20);
    cz_params_manifest_entry_t e;
    const char
        *vk32 = "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-"
                "sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.vk";
    long at = cz_params_manifest_find(m, vk32);
    REQUIRE(at >= 0);
    CHECK_OK(cz_params_manifest_entry(m, (size_t)at, &e));
    CHECK_EQ_STR(e.name, vk32);
    CHECK_EQ_U64(e.sector_size, 32ull << 30);
    CHECK_EQ_U64(strlen(e.digest), 32);
    CHECK(e.cid && e.cid[0] == 'Q');
    CHECK_EQ_INT((int)cz_params_manifest_find(m, "toy.vk"), -1);
    CHECK_EQ_INT((int)cz_params_manifest_find(m, NULL), -1);
    CHECK_EQ_INT(cz_params_manifest_entry(m, n, &e), CZ_ERANGE);
    CHECK(e.name == NULL);
    cz_params_manifest_free(m);
    cz_params_manifest_free(NULL);

    /* another manifest file; a missing one; a malformed one */
    const char *json = "{\"a.vk\": {\"cid\": \"Qmx\", \"digest\": "
                       "\"0123456789abcdef0123456789abcdef\", \"sector_size\": 2048}}";
    write_all(scratch, json, strlen(json));
    CHECK_OK(cz_params_manifest_load(&m, scratch, &err));
    CHECK_EQ_U64(cz_params_manifest_count(m), 1);
    CHECK_EQ_INT((int)cz_params_manifest_find(m, "a.vk"), 0);
    cz_params_manifest_free(m);
    char missing[160];
    snprintf(missing, sizeof missing, "%s/none.json", dir);
    CHECK_EQ_INT(cz_params_manifest_load(&m, missing, &err), CZ_EIO);
    CHECK(m == NULL);
    CHECK(strstr(err.message, "none.json") != NULL);
    write_all(scratch, "{\"a.vk\": 3", 10);
    CHECK_EQ_INT(cz_params_manifest_load(&m, scratch, &err), CZ_EFORMAT);
    CHECK(m == NULL);
    CHECK_EQ_INT(cz_params_manifest_load(NULL, NULL, &err), CZ_EINVAL);

    /* the digest: BLAKE2b-512's first 16 bytes */
    char hex[33];
    write_all(scratch, "cuzk", 4);
    CHECK_OK(cz_params_file_digest(scratch, hex, &err));
    CHECK_EQ_STR(hex, "4cbfb73ab389aa84e65962bcd926d6e8");
    CHECK_EQ_INT(cz_params_file_digest(missing, hex, &err), CZ_EIO);
    CHECK(strstr(err.message, "none.json") != NULL);
}

CZ_TEST(circuit_describe)
{
    cz_circuit_shape_t s;
    cz_error_t err;
    CHECK_OK(cz_circuit_describe(NULL, 0, "toy", 1, &s, &err));
    CHECK_EQ_STR(s.circuit, "toy");
    CHECK_EQ_U64(s.inputs, 2); /* ONE and y */
    CHECK_EQ_U64(s.rows, s.constraints + s.inputs);
    CHECK(s.constraints > 0 && s.aux > 0);

    CHECK_OK(cz_circuit_describe("porep-c2", 2048, NULL, 2, &s, &err));
    CHECK_EQ_STR(s.circuit, "porep:2KiB");
    CHECK(s.constraints > 100000);
    cz_circuit_shape_t g;
    /* the 2KiB graph spelled out: the same circuit */
    CHECK_OK(cz_circuit_describe(NULL, 0, "porep-graph:64:2:2:8-0-0", 2, &g, &err));
    CHECK_EQ_U64(g.constraints, s.constraints);
    CHECK_EQ_U64(g.aux, s.aux);
    CHECK_EQ_U64(g.b_aux_density, s.b_aux_density);

    CHECK_EQ_INT(cz_circuit_describe(NULL, 0, "porep-graph:64:3:2:8-0-0", 1, &s, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "invalid graph") != NULL);
    CHECK_EQ_INT(cz_circuit_describe(NULL, 0, "porep-graph:64", 1, &s, &err), CZ_EINVAL);
    CHECK_EQ_INT(cz_circuit_describe(NULL, 0, "nope", 1, &s, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "unknown circuit 'nope'") != NULL);
    CHECK_EQ_STR(s.circuit, "");
    CHECK_EQ_INT(cz_circuit_describe("nope", 2048, NULL, 1, &s, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "'nope' is not a known kind") != NULL);
    CHECK_EQ_INT(cz_circuit_describe("porep-c2", 4096, NULL, 1, &s, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "4KiB has no porep-c2 circuit") != NULL);
    CHECK_EQ_INT(cz_circuit_describe(NULL, 0, NULL, 1, &s, &err), CZ_EINVAL);
    CHECK_EQ_INT(cz_circuit_describe("porep-c2", 2048, "toy", 1, &s, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "one of kind and circuit") != NULL);
    CHECK_EQ_INT(cz_circuit_describe(NULL, 0, "toy", 1, NULL, &err), CZ_EINVAL);
}

CZ_TEST(hashes)
{
    uint8_t d[32], in[64] = { 1 }, h[32];
    char hex[80];
    cz_error_t err;
    static const uint8_t sha_abc[32] = {
        0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
        0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
        0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
    };
    cz_hash_sha256(d, "abc", 3);
    CHECK_MEM_EQ(d, sha_abc, 32);
    cz_hash_sha254(d, "abc", 3);
    CHECK_MEM_EQ(d, sha_abc, 31);
    CHECK_EQ_INT(d[31], 0x2d); /* 0xad & 0x3f */

    in[32] = 2; /* Poseidon(1, 2), arity 2 */
    CHECK_OK(cz_hash_poseidon(h, in, 2, &err));
    CHECK_OK(cz_fr_repr_format(hex, sizeof hex, h, false, &err));
    CHECK_EQ_STR(hex, "0x6d6f8106657f1f4d7babcbaf436a9d7669c04e726e5896d89317d9833e5fa9be");
    CHECK_EQ_INT(cz_hash_poseidon(h, in, 3, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "arity 3 is not 2, 4, 8 or 11") != NULL);
    CHECK_EQ_INT(cz_hash_poseidon(h, in, 40, &err), CZ_EINVAL);
    memset(in + 32, 0xff, 32);
    CHECK_EQ_INT(cz_hash_poseidon(h, in, 2, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "input 1 is not a field element") != NULL);
    CHECK_EQ_INT(cz_hash_poseidon(h, NULL, 2, &err), CZ_EINVAL);

    CHECK_OK(cz_comm_d_zero(d, 64, &err));
    CHECK_OK(cz_fr_repr_format(hex, sizeof hex, d, false, &err)); /* a field element */
    static const uint8_t z64[4] = { 0xf5, 0xa5, 0xfd, 0x42 };
    CHECK_MEM_EQ(d, z64, 4);
    CHECK_EQ_INT(cz_comm_d_zero(d, 96, &err), CZ_EINVAL);
    CHECK(strstr(err.message, "96 is not a power of two >= 64") != NULL);
    CHECK_EQ_INT(cz_comm_d_zero(d, 32, &err), CZ_EINVAL);
}

CZ_TEST_MAIN()
