/*
 * cli/cmd_porep_sector.c — a sealed sector's PoRep public inputs from the
 * values the chain holds, for every StackedDrg registered proof (the V1
 * ones included):
 *
 *   cuzk porep public-inputs --registered-proof T SECTOR [--partition K] [-o FILE]
 *   cuzk verify --kind porep-c2 --registered-proof T (--vk V | --params-dir D)
 *               --proof P SECTOR
 *
 * SECTOR = (--replica-id HEX | (--prover-id HEX | --miner ID) --sector N
 *           --ticket HEX) --seed HEX --comm-r HEX --comm-d HEX (no --seed for
 *           the NonInteractivePoRep proofs).
 *
 * HEX is 64 hex digits, the 32 bytes in rust-fil-proofs / C1 JSON order
 * (Fr little-endian). --miner takes an actor id ("f01234", "t01234" or
 * "1234"): the prover_id is its ID address payload, the unsigned LEB128 of
 * the id, zero-padded to 32 bytes (filecoin-ffi proofs.go toProverID:
 * address.NewIDAddress(miner).Payload()). replica_id follows from the
 * prover_id, sector number, ticket, comm_d and the proof's porep_id
 * (kinds/porep/porep.h); the challenges as the proof chooses them (interactive,
 * synthetic or non-interactive: kinds/porep/challenges_synth.c); the parents from
 * the proof's graph (kinds/porep/graph.h: legacy V1 graphs put the DRG predecessor
 * last and truncate expander parents to u32).
 *
 * public-inputs writes the file `cuzk verify --vk --proof --public` reads
 * (cli/public_file.h: one block per partition) and names the proof and the
 * replica_id on stderr. Exit 0 done, 2 bad input. verify: 0 valid, 1
 * invalid, 2 bad input.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/public_file.h"
#include "core/hex.h"
#include "cuzk.h"
#include "kinds/porep/porep.h"

/* The sector values of the options above, as parsed. */
typedef struct {
    const cz_porep_proof_t *proof;
    uint8_t replica_id[32], comm_d[32], comm_r[32], seed[32];
} sector_values_t;

/* Both commands' options: the SECTOR values, then each command's own. */
typedef struct {
    const cz_porep_proof_t *proof;
    uint8_t replica_id[32], prover_id[32], miner[32], ticket[32], seed[32], comm_r[32], comm_d[32];
    uint64_t sector;
    /* public-inputs */
    size_t partition;
    const char *out;
    /* verify */
    const char *kind, *vk, *dir, *proof_path;
} sector_opts_t;

/* "f01234" / "t01234" / "1234" -> the prover_id (LEB128 of the actor id). */
static bool miner_prover_id(void *field, const char *s, char *why, size_t cap)
{
    uint8_t *out = field;
    if ((s[0] == 'f' || s[0] == 't') && s[1] == '0')
        s += 2;
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 19)
        return snprintf(why, cap, "is not an actor id: f01234, t01234 or 1234"), false;
    uint64_t id = strtoull(s, NULL, 10);
    memset(out, 0, 32);
    unsigned i = 0;
    do {
        out[i] = (uint8_t)(id & 0x7f);
        id >>= 7;
        if (id)
            out[i] |= 0x80;
        i++;
    } while (id);
    return true;
}

/* laid out by hand: */
/* clang-format off */
#define SECTOR_OPTS                                                                          \
    CZ_OPT_REGISTERED_PROOF(sector_opts_t, proof, "the sector's StackedDrg registered proof"), \
    CZ_OPT_HEX32(sector_opts_t, replica_id, "replica-id", "the replica id"),                 \
    CZ_OPT_HEX32(sector_opts_t, prover_id, "prover-id", "the prover id (instead of --miner)"), \
    { "miner", 0, CZ_O_CUSTOM(sector_opts_t, miner), .hook = miner_prover_id, .arg = "ID",   \
      .help = "the miner's actor id (f01234, t01234, 1234): its prover id" },                \
    { "sector", 0, CZ_O_U64(sector_opts_t, sector), .help = "the sector number" },         \
    CZ_OPT_HEX32(sector_opts_t, ticket, "ticket", "the ticket"),                             \
    CZ_OPT_HEX32(sector_opts_t, seed, "seed", "the interactive seed (not for NI-PoRep)"),     \
    CZ_OPT_HEX32(sector_opts_t, comm_r, "comm-r", "the sealed sector's commitment"),         \
    CZ_OPT_HEX32(sector_opts_t, comm_d, "comm-d", "the unsealed sector's commitment")
/* clang-format on */

/* The replica id, given or derived from the prover values; never both. */
/* laid out by hand: */
/* clang-format off */
#define SECTOR_RULES                                                                         \
    CZ_RULE(EXCLUSIVE, "replica-id", "prover-id"), CZ_RULE(EXCLUSIVE, "replica-id", "miner"), \
    CZ_RULE(EXCLUSIVE, "replica-id", "sector"), CZ_RULE(EXCLUSIVE, "replica-id", "ticket"),  \
    CZ_RULE_UNLESS(ONE_OF, "replica-id", "prover-id", "miner"),                              \
    CZ_RULE_UNLESS(REQUIRED, "replica-id", "sector", "ticket")
/* clang-format on */

/*
 * The sector values of parsed options: the replica id (derived from the
 * prover values when not given) and the seed, which NI-PoRep refuses and
 * the others need. A usage error (printed) when they do not fit the proof.
 */
static int sector_values(sector_values_t *v, const cz_opts_spec *spec, const cz_opts_result_t *r,
                         const sector_opts_t *o)
{
    memset(v, 0, sizeof *v);
    v->proof = o->proof;
    /* NI-PoRep: no seed (challenges from replica_id and comm_r) */
    const bool ni = v->proof->challenges == CZ_POREP_NON_INTERACTIVE;
    bool seed = cz_opts_given(spec, r, "seed");
    if (ni && seed)
        return cz_opts_error(spec, "%s takes no --seed (non-interactive challenges)",
                             v->proof->name);
    if (!ni && !seed)
        return cz_opts_error(spec, "missing --seed HEX (%s has interactive challenges)",
                             v->proof->name);
    if (seed)
        memcpy(v->seed, o->seed, 32);
    memcpy(v->comm_r, o->comm_r, 32);
    memcpy(v->comm_d, o->comm_d, 32);
    if (cz_opts_given(spec, r, "replica-id")) {
        memcpy(v->replica_id, o->replica_id, 32);
        return CZ_OPTS_RUN;
    }
    uint8_t porep_id[32];
    cz_porep_id(porep_id, v->proof);
    cz_porep_replica_id(v->replica_id, cz_opts_given(spec, r, "miner") ? o->miner : o->prover_id,
                        o->sector, o->ticket, v->comm_d, porep_id);
    return CZ_OPTS_RUN;
}

/* laid out by hand: */
/* clang-format off */
#define SECTOR_USAGE                                                                         \
    "  SECTOR: (--replica-id HEX | (--prover-id HEX | --miner f0ID) --sector N --ticket HEX)\n" \
    "          --seed HEX --comm-r HEX --comm-d HEX\n"                                        \
    "  T: StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1, ...V1_1, ...V1_1_Feat_SyntheticPoRep,\n" \
    "  ...V1_2_Feat_NonInteractivePoRep (no --seed: non-interactive; 13 partitions at 2KiB,\n" \
    "  8MiB, 512MiB, 126 at 32GiB, 64GiB). HEX: 64 hex digits, the bytes in rust-fil-proofs /\n"\
    "  C1 JSON order. The V1 proofs use their own graph (predecessor last, expander parents\n"\
    "  truncated to u32).\n"
/* clang-format on */

static const cz_opt PI_OPTS[] = {
    SECTOR_OPTS,
    { "partition", 0, CZ_O_SIZE(sector_opts_t, partition), .arg = "K",
      .help = "partition K's inputs only (default: every partition's)" },
    { "output", 'o', CZ_O_OUTPUT(sector_opts_t, out), .arg = "FILE",
      .help = "the public-inputs file (default: stdout)" },
};
static const cz_opt_rule PI_RULES[] = {
    CZ_RULE(REQUIRED, "registered-proof", "comm-r", "comm-d"),
    SECTOR_RULES,
};
static const cz_opts_spec PI_SPEC = {
    .cmd = "cuzk porep public-inputs",
    .usage =
        "usage: cuzk porep public-inputs --registered-proof T SECTOR [--partition K] [-o FILE]\n",
    .about = "  Every partition's public inputs (or partition K's) as a chain verifier derives\n"
             "  them, in the file format `cuzk verify --vk --proof --public` reads.\n" SECTOR_USAGE
             "  Exit 0 done, 2 bad input.\n",
    CZ_OPTS(PI_OPTS),
    CZ_RULES(PI_RULES),
};

int cz_cli_porep_public_inputs(int argc, char **argv)
{
    sector_opts_t o;
    cz_opts_result_t r = { 0 };
    int rc = cz_opts_parse(&PI_SPEC, &o, argc, argv, &r);
    if (rc != CZ_OPTS_RUN)
        return rc;
    sector_values_t v;
    if ((rc = sector_values(&v, &PI_SPEC, &r, &o)) != CZ_OPTS_RUN)
        return rc;
    cz_porep_params_t p;
    if (cz_porep_proof_params(&p, v.proof))
        return cz_opts_error(&PI_SPEC,
                             "--registered-proof %s: no circuit configuration for its "
                             "sector size",
                             v.proof->name);
    unsigned first = 0, count = p.partitions;
    if (cz_opts_given(&PI_SPEC, &r, "partition")) {
        if (o.partition >= p.partitions)
            return cz_opts_error(&PI_SPEC, "--partition: '%zu' is out of range (0..%u)",
                                 o.partition, p.partitions - 1);
        first = (unsigned)o.partition;
        count = 1;
    }
    const char *out_path = o.out;
    const size_t per = cz_porep_num_inputs(&p) - 1;
    cz_fr *in = malloc((size_t)count * per * sizeof *in);
    uint8_t *reprs = malloc((size_t)count * per * 32 + 1);
    cz_ctx_t *ctx = NULL;
    rc = in && reprs ? cz_ctx_new(&ctx, NULL, 0) : CZ_ENOMEM;
    for (unsigned k = 0; rc == CZ_OK && k < count; k++)
        rc = cz_porep_public_inputs_proof(ctx, in + (size_t)k * per, per, &p, v.proof, v.replica_id,
                                          v.comm_d, v.comm_r, v.seed, first + k);
    for (size_t i = 0; rc == CZ_OK && i < (size_t)count * per; i++)
        cz_fr_to_repr(reprs + 32 * i, &in[i]);
    if (rc == CZ_OK)
        rc = cz_public_write(ctx, out_path ? out_path : "/dev/stdout", reprs, count, per);
    if (rc == CZ_OK) {
        char rid[65];
        cz_hex_encode(rid, v.replica_id, 32);
        fprintf(stderr, "%s: replica_id %s, %u partition%s x %zu inputs\n", v.proof->name, rid,
                count, count == 1 ? "" : "s", per);
    } else {
        fprintf(stderr, "cuzk porep public-inputs: %s\n",
                ctx && *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    }
    free(in);
    free(reprs);
    cz_ctx_free(ctx);
    return rc == CZ_OK ? CZ_EXIT_OK : CZ_EXIT_USAGE;
}

bool cz_cli_has_registered_proof(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--registered-proof") || !strncmp(argv[i], "--registered-proof=", 19))
            return true;
    return false;
}

static const char *const C2_KIND[] = { "porep-c2", NULL };

static const cz_opt VS_OPTS[] = {
    { "kind", 0, CZ_O_ENUM(sector_opts_t, kind), .values = C2_KIND, .flags = CZ_OPT_REQUIRED,
      .help = "a PoRep proof" },
    SECTOR_OPTS,
    { "vk", 0, CZ_O_STRING(sector_opts_t, vk), .arg = "V", .help = "the verifying key" },
    { "params-dir", 0, CZ_O_STRING(sector_opts_t, dir), .arg = "D",
      .help = "the Filecoin-named vk (v28-stacked-proof-of-replication-...vk) in D instead" },
    { "proof", 0, CZ_O_STRING(sector_opts_t, proof_path), .arg = "P", .flags = CZ_OPT_REQUIRED,
      .help = "the proof, 192 bytes per partition" },
};
static const cz_opt_rule VS_RULES[] = {
    CZ_RULE(REQUIRED, "registered-proof", "comm-r", "comm-d"),
    CZ_RULE(ONE_OF, "vk", "params-dir"),
    SECTOR_RULES,
};
static const cz_opts_spec VS_SPEC = {
    .cmd = "cuzk verify",
    .usage = "usage: cuzk verify --kind porep-c2 --registered-proof T (--vk V | --params-dir D)\n"
             "                   --proof P SECTOR\n",
    .about = "  Verifies a PoRep proof (partitions x 192 bytes) from the sector values alone, as\n"
             "  the chain does (rust-fil-proofs verify_seal).\n" SECTOR_USAGE
             "  Exit 0 valid, 1 invalid, 2 bad input.\n",
    CZ_OPTS(VS_OPTS),
    CZ_RULES(VS_RULES),
    .help_cmd = "cuzk verify --kind porep-c2 --registered-proof X --help",
};

int cz_cli_verify_porep_sector(int argc, char **argv)
{
    sector_opts_t o;
    cz_opts_result_t r = { 0 };
    int go = cz_opts_parse(&VS_SPEC, &o, argc, argv, &r);
    if (go != CZ_OPTS_RUN)
        return go;
    sector_values_t v;
    if ((go = sector_values(&v, &VS_SPEC, &r, &o)) != CZ_OPTS_RUN)
        return go;
    const char *vk_path = o.vk, *dir = o.dir, *proof_path = o.proof_path;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_USAGE;
    /* through cuzk.h: the public values of any registered proof, named */
    cz_porep_public_t pub = { .sector_size = v.proof->sector_bytes,
                              .registered_proof = v.proof->name };
    memcpy(pub.replica_id, v.replica_id, 32);
    memcpy(pub.comm_d, v.comm_d, 32);
    memcpy(pub.comm_r, v.comm_r, 32);
    memcpy(pub.seed, v.seed, 32);
    /* --params-dir: the vk named after the registered proof's own circuit
     * (cz_porep_c2_verify names it from pub.registered_proof) */
    cz_error_t err = { 0 };
    uint8_t *proof = NULL;
    size_t len = 0;
    int rc = cz_cli_read_file(ctx, proof_path, (size_t)1 << 20, &proof, &len);
    if (rc == CZ_OK)
        rc = cz_porep_c2_verify(vk_path, dir, &pub, proof, len, &err);
    else
        snprintf(err.message, sizeof err.message, "%s", cz_ctx_message(ctx));
    int exit_code = rc == CZ_OK ? CZ_EXIT_OK : rc == CZ_EVERIFY ? CZ_EXIT_FAIL : CZ_EXIT_USAGE;
    if (exit_code == CZ_EXIT_OK)
        printf("valid (%s, %zu partition%s)\n", v.proof->name, len / 192, len == 192 ? "" : "s");
    else if (exit_code == CZ_EXIT_FAIL)
        printf("INVALID proof\n");
    else
        fprintf(stderr, "cuzk verify: %s\n", *err.message ? err.message : cz_strerror(rc));
    free(proof);
    cz_ctx_free(ctx);
    return exit_code;
}
