/*
 * tests/compat/test_compat_regression.c — the real seal proofs of
 * rust-fil-proofs' regression records (shared/realdata/rust-fil-proofs/
 * seal_regression_records-v16.json and -v18.json, JSON lines: porep_config,
 * comm_r, comm_d, prover_id, sector_id, ticket, seed, proof; made with the
 * published v28 params, filecoin-proofs/tests/regression.rs).
 *
 * Always: every record with a registered porep_id (0..9: the StackedDrg V1
 * and V1_1 proofs; the 8MiB ones and some 512MiB ones carry made-up ids)
 * gets its public inputs derived from its sector values, and its proof
 * decodes into partitions x 192 bytes of valid points.
 *
 * With the v28 verifying keys present (the lotus layout: a directory of
 * Filecoin-named files, $FIL_PROOFS_PARAMETER_CACHE else
 * /var/tmp/filecoin-proof-parameters), each record whose vk is there is
 * verified with the pairing check, as the chain would (cz_c2_verify): the
 * 2KiB ones (31 V1_0 with porep_id 0, 31 V1_1 and 31 V1_2 with porep_id
 * 5, 31 V1_2 + SyntheticPoRep with porep_id 5) need only the 4.6 KB 2KiB
 * vk. The vk's blake2b digest is checked against the built-in manifest
 * first. The NonInteractivePoRep records (v18: 12 at 8MiB and 10 at 512MiB
 * with made-up porep_ids, 2 at 32GiB with porep_id 8) carry cuzk's NI
 * partition count (13 / 126), and their proofs are SnarkPack aggregates of
 * 16 / 128 proofs (the count padded to a power of 2; header and length
 * checked, the aggregate itself is not verified); the 32GiB ones get their
 * 126 partitions' inputs derived. Without any vk the test says so and skips
 * (77) after the checks above.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cz_test.h"
#include "groth16/manifest.h"
#include "groth16/params.h"
#include "groth16/proof.h"
#include "kinds/porep/c2.h"

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

static const char *data_dir(void)
{
    const char *d = getenv("CUZK_REALDATA");
    return d && *d ? d : CZ_REALDATA_DIR;
}

static const char *params_dir(void)
{
    const char *d = getenv("FIL_PROOFS_PARAMETER_CACHE");
    return d && *d ? d : "/var/tmp/filecoin-proof-parameters";
}

/* A JSON array of 32 small integers -> bytes. */
static bool bytes_of(uint8_t *out, size_t n, json_t *a)
{
    if (!json_is_array(a) || json_array_size(a) != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        double v = json_number_value(json_array_get(a, i));
        if (v < 0 || v > 255)
            return false;
        out[i] = (uint8_t)v;
    }
    return true;
}

/* sector_id is >= 2^63 in these files (jansson integers are int64): read it
 * from the line's text. */
static uint64_t sector_id_of(const char *line)
{
    const char *k = strstr(line, "\"sector_id\":");
    NEED(k);
    return strtoull(k + 12, NULL, 10);
}

typedef struct {
    size_t records, derived, verified, no_vk, unsupported, made_up, synthetic, ni_layout, ni_inputs;
    char vk_missing[8][300];
    size_t n_missing;
} tally_t;

static void note_missing(tally_t *t, const char *name)
{
    for (size_t i = 0; i < t->n_missing; i++)
        if (!strcmp(t->vk_missing[i], name))
            return;
    if (t->n_missing < 8)
        snprintf(t->vk_missing[t->n_missing++], sizeof t->vk_missing[0], "%s", name);
}

/* The pvk for |p| from the params directory, loaded once per sector size
 * and digest-checked; NULL when the vk is not there. */
typedef struct {
    uint64_t sector;
    cz_pvk_t *pvk;
    cz_vk_t vk;
} vk_slot_t;
static vk_slot_t slots[8];
static cz_manifest_t manifest;

static cz_pvk_t *pvk_for(cz_ctx_t *ctx, const cz_porep_params_t *p, uint64_t sector, tally_t *t)
{
    for (size_t i = 0; i < 8; i++)
        if (slots[i].sector == sector)
            return slots[i].pvk;
    char name[256], path[1024];
    NEED(cz_c2_params_name(name, sizeof name, p, "vk") == 0);
    snprintf(path, sizeof path, "%s/%s", params_dir(), name);
    vk_slot_t *s = NULL;
    for (size_t i = 0; i < 8 && !s; i++)
        if (!slots[i].sector)
            s = &slots[i];
    NEED(s);
    s->sector = sector;
    struct stat st;
    if (stat(path, &st)) {
        note_missing(t, name);
        return NULL;
    }
    if (!manifest.count)
        CHECK_OK(cz_manifest_builtin(ctx, &manifest));
    int rc = cz_params_check_file(ctx, &manifest, path);
    if (rc != CZ_OK) {
        CZ__FAIL("%s: %s", path, cz_ctx_message(ctx));
        return NULL;
    }
    CHECK_OK(cz_vk_load(ctx, &s->vk, path));
    CHECK_OK(cz_pvk_new(ctx, &s->pvk, &s->vk));
    printf("  %s: digest ok, verifying with it\n", path);
    return s->pvk;
}

/*
 * An NI record's layout against cuzk's (kinds/porep/replica_id.c): the record's
 * partition count is NI's for its size, and its proof is a SnarkPack
 * aggregate of that many partition proofs padded to a power of 2 (RFP
 * filecoin-proofs api/seal.rs: seal_commit_phase2 aggregates NI's circuit
 * proofs; get_aggregate_target_len). The aggregate's layout (bellperson
 * src/groth16/aggregate/proof.rs AggregateProof::write, Gt compressed to 288
 * bytes, G1 48, G2 96): com_ab, com_c (2 Gt each), ip_ab (Gt), agg_c (G1) =
 * 1488 bytes, then GipaProof.nproofs as u32 LE; in all 2260 bytes plus 2976
 * per halving (comms_ab, comms_c: 4 Gt each; z_ab: 2 Gt; z_c: 2 G1).
 */
static void check_ni_layout(json_t *pc, json_t *proof, uint64_t sector_size, tally_t *t)
{
    static const char *ni_names[5] = {
        "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
        "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
        "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
        "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
        "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep",
    };
    const cz_porep_proof_t *ni = NULL;
    for (int i = 0; i < 5 && !ni; i++) {
        const cz_porep_proof_t *c = cz_porep_proof_by_name(ni_names[i]);
        if (c && c->sector_bytes == sector_size)
            ni = c;
    }
    cz_porep_params_t p;
    NEED(ni && cz_porep_proof_params(&p, ni) == 0);
    CHECK_EQ_U64((uint64_t)json_number_value(json_object_get(pc, "partitions")), p.partitions);
    unsigned n = 2, levels = 1;
    while (n < p.partitions)
        n *= 2, levels++;
    const size_t len = json_array_size(proof);
    CHECK_EQ_U64(len, 2260 + 2976 * (uint64_t)levels);
    uint8_t head[1492];
    NEED(len >= sizeof head);
    for (size_t i = 0; i < sizeof head; i++)
        head[i] = (uint8_t)json_number_value(json_array_get(proof, i));
    uint32_t nproofs = (uint32_t)head[1488] | (uint32_t)head[1489] << 8 |
                       (uint32_t)head[1490] << 16 | (uint32_t)head[1491] << 24;
    CHECK_EQ_U64(nproofs, n);
    t->ni_layout++;
}

static void check_record(cz_ctx_t *ctx, const char *line, tally_t *t)
{
    json_error_t err;
    json_t *r = json_loads(line, JSON_DECODE_INT_AS_REAL, &err);
    NEED(r);
    t->records++;
    json_t *pc = json_object_get(r, "porep_config");
    uint8_t porep_id[32], comm_r[32], comm_d[32], prover[32], ticket[32], seed[32];
    NEED(bytes_of(porep_id, 32, json_object_get(pc, "porep_id")) &&
         bytes_of(comm_r, 32, json_object_get(r, "comm_r")) &&
         bytes_of(comm_d, 32, json_object_get(r, "comm_d")) &&
         bytes_of(prover, 32, json_object_get(r, "prover_id")) &&
         bytes_of(ticket, 32, json_object_get(r, "ticket")) &&
         bytes_of(seed, 32, json_object_get(r, "seed")));
    uint64_t sector_size = (uint64_t)json_number_value(json_object_get(pc, "sector_size"));
    json_t *features = json_object_get(pc, "api_features");
    /* the registered proof of this porep_id: id LE in bytes 0..8, all else 0 */
    const cz_porep_proof_t *pf = NULL;
    static const char *names[10] = {
        "StackedDrg2KiBV1",    "StackedDrg8MiBV1",    "StackedDrg512MiBV1", "StackedDrg32GiBV1",
        "StackedDrg64GiBV1",   "StackedDrg2KiBV1_1",  "StackedDrg8MiBV1_1", "StackedDrg512MiBV1_1",
        "StackedDrg32GiBV1_1", "StackedDrg64GiBV1_1",
    };
    for (int i = 0; i < 10 && !pf; i++) {
        uint8_t id[32];
        const cz_porep_proof_t *c = cz_porep_proof_by_name(names[i]);
        cz_porep_id(id, c);
        if (!memcmp(id, porep_id, 32) && c->sector_bytes == sector_size)
            pf = c;
    }
    /* The records pair the V1_1 porep_ids with the features (test configs:
     * RFP tests/regression.rs), so the feature picks the challenge kind and
     * the porep_id the graph. */
    const char *feat = json_string_value(json_array_get(features, 0));
    const bool ni = feat && !strcmp(feat, "NonInteractivePoRep");
    if (ni)
        check_ni_layout(pc, json_object_get(r, "proof"), sector_size, t);
    if (!pf) {
        t->made_up++;
        json_decref(r);
        return;
    }
    cz_porep_proof_t synth;
    if (feat && !strcmp(feat, "SyntheticPoRep")) {
        synth = *pf;
        synth.challenges = CZ_POREP_SYNTHETIC;
        pf = &synth;
        t->synthetic++;
    } else if (ni) {
        /* inputs only (the proof is an aggregate): every partition's, from
         * replica_id and comm_r */
        synth = *pf;
        synth.challenges = CZ_POREP_NON_INTERACTIVE;
        cz_porep_params_t p;
        NEED(cz_porep_proof_params(&p, &synth) == 0);
        cz_c2_public_t pub = { .proof = &synth };
        cz_porep_replica_id(pub.replica_id, prover, sector_id_of(line), ticket, comm_d, porep_id);
        memcpy(pub.comm_d, comm_d, 32);
        memcpy(pub.comm_r, comm_r, 32);
        const size_t n = (size_t)p.partitions * (cz_porep_num_inputs(&p) - 1);
        cz_fr *in = malloc(n * sizeof *in);
        NEED(in);
        CHECK_OK(cz_c2_public_inputs(ctx, in, n, NULL, &pub));
        free(in);
        t->ni_inputs++;
        json_decref(r);
        return;
    } else if (feat) {
        t->unsupported++;
        json_decref(r);
        return;
    }
    cz_porep_params_t p;
    NEED(cz_porep_params_sector(&p, sector_size) == 0);
    CHECK_EQ_U64((uint64_t)json_number_value(json_object_get(pc, "partitions")), p.partitions);
    cz_c2_public_t pub = { .proof = pf };
    cz_porep_replica_id(pub.replica_id, prover, sector_id_of(line), ticket, comm_d, porep_id);
    memcpy(pub.comm_d, comm_d, 32);
    memcpy(pub.comm_r, comm_r, 32);
    memcpy(pub.seed, seed, 32);
    const size_t per = cz_porep_num_inputs(&p) - 1;
    cz_fr *in = malloc((size_t)p.partitions * per * sizeof *in);
    NEED(in);
    CHECK_OK(cz_c2_public_inputs(ctx, in, (size_t)p.partitions * per, NULL, &pub));
    free(in);
    uint8_t proof[192 * 16];
    size_t len = (size_t)p.partitions * 192;
    NEED(len <= sizeof proof);
    NEED(bytes_of(proof, len, json_object_get(r, "proof")));
    cz_proof_t dec[16];
    CHECK_OK(cz_proofs_decode(ctx, dec, p.partitions, proof, len));
    t->derived++;
    cz_pvk_t *pvk = pvk_for(ctx, &p, sector_size, t);
    if (pvk) {
        int rc = cz_c2_verify(ctx, pvk, proof, len, &pub);
        if (rc != CZ_OK)
            CZ__FAIL("%s record %zu: %s (%s)", pf->name, t->records, cz_strerror(rc),
                     cz_ctx_message(ctx));
        else
            t->verified++;
    } else {
        t->no_vk++;
    }
    json_decref(r);
}

static void run_file(cz_ctx_t *ctx, const char *name, tally_t *t)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/rust-fil-proofs/%s", data_dir(), name);
    FILE *f = fopen(path, "r");
    if (!f) {
        static char why[1200];
        snprintf(why, sizeof why, "%s not found (set CUZK_REALDATA to shared/realdata)", path);
        cz_skip(why);
        return;
    }
    size_t cap = 1 << 20;
    char *line = malloc(cap);
    NEED(line);
    while (fgets(line, (int)cap, f)) {
        NEED(strchr(line, '\n') || feof(f)); /* a record longer than 1 MiB: none */
        if (line[0] == '{')
            check_record(ctx, line, t);
    }
    free(line);
    fclose(f);
}

CZ_TEST(regression_records)
{
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 0));
    tally_t t = { 0 };
    run_file(ctx, "seal_regression_records-v16.json", &t);
    run_file(ctx, "seal_regression_records-v18.json", &t);
    if (!t.records)
        goto done;
    printf("  %zu records: %zu derived + decoded (%zu synthetic), %zu verified, %zu without a "
           "vk here, %zu NI (layout checked; %zu with inputs derived; aggregates not verified), "
           "%zu made-up porep_ids, %zu of other features\n",
           t.records, t.derived, t.synthetic, t.verified, t.no_vk, t.ni_layout, t.ni_inputs,
           t.made_up, t.unsupported);
    CHECK(t.derived >= 360);
    CHECK_EQ_U64(t.synthetic, 32);
    CHECK_EQ_U64(t.ni_layout, 24); /* v18: 12 x 8MiB, 10 x 512MiB, 2 x 32GiB */
    CHECK_EQ_U64(t.ni_inputs, 2);
    CHECK_EQ_U64(t.unsupported, 0);
    if (t.no_vk) {
        static char why[3000];
        int o = snprintf(why, sizeof why,
                         "%zu real proofs not verified: no v28 vk in %s "
                         "(FIL_PROOFS_PARAMETER_CACHE) —",
                         t.no_vk, params_dir());
        for (size_t i = 0; i < t.n_missing && o < (int)sizeof why - 320; i++)
            o += snprintf(why + o, sizeof why - o, " %s", t.vk_missing[i]);
        if (!t.verified && cz__failed_checks == 0)
            cz_skip(why); /* a failed derivation still fails the test */
        else
            printf("  %s\n", why);
    }
done:
    for (size_t i = 0; i < 8; i++) {
        cz_pvk_free(slots[i].pvk);
        cz_vk_clear(&slots[i].vk);
    }
    cz_manifest_clear(&manifest);
    cz_ctx_free(ctx);
}

CZ_TEST_MAIN()
