/*
 * tests/compat/test_compat_porep.c — PoRep public inputs against real
 * Filecoin artifacts (shared/realdata; README.md there says where each
 * file came from):
 *
 *   seal32_v1_inputs: the real v27 32GiB StackedDrg32GiBV1 proof set
 *     (fil-blst) lists 10 partitions x 327 inputs. Its seed is unknown, so
 *     its 18 challenges per partition are read from the inputs; every other
 *     input (replica_id, comm_d, comm_r, the 6 DRG and 8 expander parents of
 *     each challenge, the three repeats) must equal what cuzk derives with
 *     the V1 (legacy) graph of porep_id 3: 3270 values. The V1_1 graph of
 *     the same sector must NOT reproduce them (a control that the legacy
 *     rules are what matches).
 *   mainnet_v1_seals: the 117 mainnet StackedDrg32GiBV1 SealVerifyInfos
 *     (test-vectors): prover_id = LEB128(miner id), replica_id from the
 *     sector values, comm_d = the 32GiB zero commitment (CC sectors), every
 *     partition's inputs derive (challenges in [1, nodes), the DRG
 *     predecessor last, every parent behind its challenge, every legacy
 *     expander parent < 2^29 as RFP graph.rs test_graph_distribution_pathology
 *     predicts for V1_0_0 at 32GiB), and the 1920-byte proofs decode into
 *     10 valid proofs each. They cannot be verified here: they need the
 *     v28 32GiB vk (not in shared/realdata).
 *   v1_1_records_replica_id: every V1_1 seal regression record
 *     (rust-fil-proofs seal_regression_records, real porep_ids 5, 7, 8, 9)
 *     gives its recorded replica_id, and its public inputs derive.
 *
 * The data directory: $CUZK_REALDATA, else CZ_REALDATA_DIR (CMake:
 * <repo>/../shared/realdata). Skips (77) when the files are not there.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hex.h"
#include "cz_test.h"
#include "hash/sha254.h"
#include "groth16/proof.h"
#include "kinds/porep/c2.h"
#include "kinds/porep/graph.h"
#include "kinds/porep/porep.h"

#define NODES_32G (1ull << 30)

/* REQUIRE for helpers that return a value: a broken data file ends the run. */
/* laid out by hand: */
/* clang-format off */
#define NEED(c)                                                               \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "%s:%d: NEED(%s) failed\n", __FILE__, __LINE__, #c); \
            abort();                                                          \
        }                                                                     \
    } while (0)
/* clang-format on */

static char path_buf[1024];

/* realdata/|rel|, or NULL (test skipped) when it is not readable. */
static const char *realdata(const char *rel)
{
    const char *dir = getenv("CUZK_REALDATA");
    if (!dir || !*dir)
        dir = CZ_REALDATA_DIR;
    snprintf(path_buf, sizeof path_buf, "%s/%s", dir, rel);
    FILE *f = fopen(path_buf, "rb");
    if (!f) {
        static char why[1200];
        snprintf(why, sizeof why, "%s not found (set CUZK_REALDATA to shared/realdata)", path_buf);
        cz_skip(why);
        return NULL;
    }
    fclose(f);
    return path_buf;
}

/* A `cuzk verify --public` file: one BE hex Fr per line, blank lines between
 * blocks. Returns the count read into out[0..cap). */
static size_t read_public(const char *path, cz_fr *out, size_t cap)
{
    FILE *f = fopen(path, "r");
    NEED(f);
    char line[256];
    size_t n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        NEED(n < cap);
        NEED(cz_fr_parse(&out[n++], line) == CZ_OK);
    }
    fclose(f);
    return n;
}

static uint64_t fr_u64(const cz_fr *a)
{
    uint8_t r[32];
    cz_fr_to_repr(r, a);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | r[i];
    for (int i = 8; i < 32; i++)
        NEED(r[i] == 0);
    return v;
}

/* The inputs of |n_part| partitions rebuilt from their own challenges with
 * |proof|'s graph; the number of values that differ. */
static size_t rebuild_mismatches(const cz_fr *real, unsigned n_part, const char *proof)
{
    const cz_porep_proof_t *pf = cz_porep_proof_by_name(proof);
    NEED(pf);
    cz_porep_params_t p;
    NEED(cz_porep_params_sector(&p, pf->sector_bytes) == 0);
    const size_t per = cz_porep_num_inputs(&p) - 1;
    uint8_t porep_id[32], replica_id[32], comm_d[32], comm_r[32];
    cz_porep_id(porep_id, pf);
    cz_fr_to_repr(replica_id, &real[0]);
    cz_fr_to_repr(comm_d, &real[1]);
    cz_fr_to_repr(comm_r, &real[2]);
    cz_fr *mine = malloc(per * sizeof *mine);
    uint64_t ch[64];
    NEED(mine && p.challenges <= 64);
    size_t bad = 0;
    for (unsigned k = 0; k < n_part; k++) {
        const cz_fr *blk = real + (size_t)k * per;
        for (unsigned i = 0; i < p.challenges; i++)
            ch[i] = fr_u64(&blk[3 + (size_t)i * (CZ_SDR_DEGREE + 4)]);
        CHECK_OK(cz_porep_public_inputs_at(NULL, mine, per, &p, porep_id, replica_id, comm_d,
                                           comm_r, ch));
        for (size_t j = 0; j < per; j++)
            bad += !cz_fr_eq(&mine[j], &blk[j]);
    }
    free(mine);
    return bad;
}

CZ_TEST(seal32_v1_inputs)
{
    const char *path = realdata("fil-blst/converted/seal32.public");
    if (!path)
        return;
    const size_t per = 327, n_part = 10;
    cz_fr *real = malloc(per * n_part * sizeof *real);
    REQUIRE(real);
    CHECK_EQ_U64(read_public(path, real, per * n_part), per * n_part);
    /* every block opens with the same replica_id, comm_d, comm_r */
    for (size_t k = 1; k < n_part; k++)
        for (int j = 0; j < 3; j++)
            CHECK(cz_fr_eq(&real[k * per + j], &real[j]));
    CHECK_EQ_U64(rebuild_mismatches(real, n_part, "StackedDrg32GiBV1"), 0);
    /* the V1_1 graph (porep_id 8, predecessor first, no u32 truncation)
     * differs in most parents: the match above is the legacy rules' */
    size_t v1_1_bad = rebuild_mismatches(real, n_part, "StackedDrg32GiBV1_1");
    printf("  seal32: 3270/3270 inputs match the V1 graph; the V1_1 graph differs in %zu\n",
           v1_1_bad);
    CHECK(v1_1_bad > 1000);
    free(real);
}

static bool json_hex32(uint8_t out[32], json_t *obj, const char *key)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s && strlen(s) == 64 && cz_hex_decode(out, s, 32);
}

/* prover_id of "f0<id>": the LEB128 of the id, zero-padded (filecoin-ffi
 * toProverID: the ID address payload). */
static void prover_of_miner(uint8_t out[32], const char *miner)
{
    REQUIRE(miner && miner[0] == 'f' && miner[1] == '0');
    uint64_t id = strtoull(miner + 2, NULL, 10);
    memset(out, 0, 32);
    for (unsigned i = 0;; i++) {
        out[i] = (uint8_t)(id & 0x7f);
        id >>= 7;
        if (!id)
            break;
        out[i] |= 0x80;
    }
}

/* The derived inputs of a 32GiB V1 seal obey the legacy graph's rules. */
static void check_v1_inputs(const cz_fr *in, size_t per, unsigned parts, size_t *high_exp)
{
    for (unsigned k = 0; k < parts; k++) {
        const cz_fr *blk = in + (size_t)k * per;
        for (unsigned i = 0; i < 18; i++) {
            const cz_fr *c = &blk[3 + (size_t)i * 18];
            uint64_t ch = fr_u64(&c[0]);
            CHECK(ch >= 1 && ch < NODES_32G);
            CHECK_EQ_U64(fr_u64(&c[6]), ch - 1); /* predecessor last */
            for (int j = 1; j <= 6; j++)
                CHECK(fr_u64(&c[j]) < ch);
            for (int j = 7; j <= 14; j++)
                *high_exp += fr_u64(&c[j]) >= NODES_32G / 2;
            for (int j = 15; j <= 17; j++)
                CHECK(cz_fr_eq(&c[j], &c[0]));
        }
    }
}

CZ_TEST(mainnet_v1_seals)
{
    const char *path = realdata("test-vectors/mainnet_seal_verify_infos.json");
    if (!path)
        return;
    json_error_t err;
    json_t *all = json_load_file(path, 0, &err);
    REQUIRE(all && json_is_array(all));
    CHECK_EQ_U64(json_array_size(all), 117);
    const cz_porep_proof_t *v1 = cz_porep_proof_by_name("StackedDrg32GiBV1");
    REQUIRE(v1);
    cz_porep_params_t p;
    REQUIRE(cz_porep_params_sector(&p, v1->sector_bytes) == 0);
    const size_t per = cz_porep_num_inputs(&p) - 1;
    cz_fr *in = malloc(p.partitions * per * sizeof *in);
    REQUIRE(in);
    uint8_t porep_id[32], zero_d[32];
    cz_porep_id(porep_id, v1);
    CHECK_OK(cz_sha254_comm_d_zero(zero_d, v1->sector_bytes));
    size_t i, high_v1 = 0, proofs_ok = 0;
    json_t *s;
    json_array_foreach(all, i, s)
    {
        uint8_t prover[32], want_prover[32], ticket[32], seed[32], comm_d[32], comm_r[32];
        uint8_t want_porep[32], want_rid[32];
        REQUIRE(json_hex32(want_prover, s, "prover_id") && json_hex32(ticket, s, "ticket") &&
                json_hex32(seed, s, "seed") && json_hex32(comm_d, s, "comm_d") &&
                json_hex32(comm_r, s, "comm_r") && json_hex32(want_porep, s, "porep_id") &&
                json_hex32(want_rid, s, "replica_id"));
        CHECK_EQ_U64(json_integer_value(json_object_get(s, "registered_seal_proof")), v1->id);
        CHECK_MEM_EQ(want_porep, porep_id, 32);
        prover_of_miner(prover, json_string_value(json_object_get(s, "miner")));
        CHECK_MEM_EQ(prover, want_prover, 32);
        CHECK_MEM_EQ(comm_d, zero_d, 32);
        cz_c2_public_t pub = { .proof = v1 };
        uint64_t sector = (uint64_t)json_integer_value(json_object_get(s, "sector_number"));
        cz_porep_replica_id(pub.replica_id, prover, sector, ticket, comm_d, porep_id);
        CHECK_MEM_EQ(pub.replica_id, want_rid, 32);
        memcpy(pub.comm_d, comm_d, 32);
        memcpy(pub.comm_r, comm_r, 32);
        memcpy(pub.seed, seed, 32);
        CHECK_OK(cz_c2_public_inputs(NULL, in, p.partitions * per, NULL, &pub));
        check_v1_inputs(in, per, p.partitions, &high_v1);
        /* the proof: 10 x 192 bytes of valid, subgroup-checked points */
        const char *hex = json_string_value(json_object_get(s, "proof"));
        uint8_t bytes[1920];
        cz_proof_t proofs[10];
        REQUIRE(hex && strlen(hex) == 2 * sizeof bytes && cz_hex_decode(bytes, hex, sizeof bytes));
        proofs_ok += cz_proofs_decode(NULL, proofs, 10, bytes, sizeof bytes) == CZ_OK;
    }
    CHECK_EQ_U64(high_v1, 0); /* RFP: V1_0_0 graphs never reach the upper half */
    CHECK_EQ_U64(proofs_ok, 117);
    /* control: the same sectors under the V1_1 graph reach the upper half */
    json_t *s0 = json_array_get(all, 0);
    cz_c2_public_t pub = { .proof = cz_porep_proof_by_name("StackedDrg32GiBV1_1") };
    REQUIRE(json_hex32(pub.replica_id, s0, "replica_id") && json_hex32(pub.comm_d, s0, "comm_d") &&
            json_hex32(pub.comm_r, s0, "comm_r") && json_hex32(pub.seed, s0, "seed"));
    CHECK_OK(cz_c2_public_inputs(NULL, in, p.partitions * per, NULL, &pub));
    size_t high_v1_1 = 0;
    for (size_t k = 0; k < p.partitions; k++)
        for (unsigned c = 0; c < 18; c++)
            for (int j = 7; j <= 14; j++)
                high_v1_1 += fr_u64(&in[k * per + 3 + c * 18 + j]) >= NODES_32G / 2;
    CHECK(high_v1_1 > 100);
    printf("  117 mainnet V1 seals: inputs derived, 0 of %zu legacy expander parents in the"
           " upper half (V1_1 graph: %zu of 1440 for one sector)\n",
           (size_t)117 * 1440, high_v1_1);
    free(in);
    json_decref(all);
}

/* The JSON at |path| with every `"sector_id": DIGITS` turned into a string
 * (jansson's integers are int64; these sector ids are >= 2^63). */
static json_t *load_records(const char *path)
{
    FILE *f = fopen(path, "rb");
    NEED(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *text = malloc((size_t)len + 1), *out = malloc((size_t)len * 2 + 1);
    NEED(text && out && fread(text, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    text[len] = 0;
    static const char key[] = "\"sector_id\": ";
    char *o = out;
    for (const char *t = text; *t;) {
        const char *k = strstr(t, key);
        if (!k) {
            o += sprintf(o, "%s", t);
            break;
        }
        k += sizeof key - 1;
        memcpy(o, t, (size_t)(k - t));
        o += k - t;
        size_t d = strspn(k, "0123456789");
        o += sprintf(o, "\"%.*s\"", (int)d, k);
        t = k + d;
    }
    json_error_t err;
    json_t *j = json_loads(out, 0, &err);
    free(text);
    free(out);
    if (!j)
        CZ__FAIL("%s: %s (line %d)", path, err.text, err.line);
    return j;
}

CZ_TEST(v1_1_records_replica_id)
{
    const char *path = realdata("rust-fil-proofs/v1_1_records_with_replica_id.json");
    if (!path)
        return;
    json_t *all = load_records(path);
    REQUIRE(all && json_is_array(all));
    size_t i, n = 0, known = 0;
    json_t *r;
    json_array_foreach(all, i, r)
    {
        uint8_t porep_id[32], prover[32], ticket[32], comm_d[32], want[32], rid[32];
        REQUIRE(json_hex32(porep_id, r, "porep_id") && json_hex32(prover, r, "prover_id") &&
                json_hex32(ticket, r, "ticket") && json_hex32(comm_d, r, "comm_d") &&
                json_hex32(want, r, "replica_id"));
        uint64_t sector = strtoull(json_string_value(json_object_get(r, "sector_id")), NULL, 10);
        cz_porep_replica_id(rid, prover, sector, ticket, comm_d, porep_id);
        CHECK_MEM_EQ(rid, want, 32);
        n++;
        const cz_porep_proof_t *pf = NULL;
        for (unsigned id = 5; id <= 9; id++) {
            const char *names[] = { "StackedDrg2KiBV1_1", "StackedDrg8MiBV1_1",
                                    "StackedDrg512MiBV1_1", "StackedDrg32GiBV1_1",
                                    "StackedDrg64GiBV1_1" };
            const cz_porep_proof_t *c = cz_porep_proof_by_name(names[id - 5]);
            uint8_t pid[32];
            cz_porep_id(pid, c);
            if (!memcmp(pid, porep_id, 32))
                pf = c;
        }
        if (!pf)
            continue; /* a made-up porep_id (README: the 8MiB records) */
        known++;
        CHECK_EQ_U64((uint64_t)json_integer_value(json_object_get(r, "sector_size")),
                     pf->sector_bytes);
    }
    printf("  %zu V1_1 regression records: replica_id as recorded (%zu with a registered"
           " porep_id)\n",
           n, known);
    CHECK_EQ_U64(n, 197);
    CHECK(known >= 150);
    json_decref(all);
}

CZ_TEST_MAIN()
