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
 * (porep/porep.h); the challenges as the proof chooses them (interactive,
 * synthetic or non-interactive: porep/challenges_synth.c); the parents from
 * the proof's graph (porep/graph.h: legacy V1 graphs put the DRG predecessor
 * last and truncate expander parents to u32).
 *
 * public-inputs writes the file `cuzk verify --vk --proof --public` reads
 * (cli/public_file.h: one block per partition) and names the proof and the
 * replica_id on stderr. Exit 0 done, 2 bad input. verify: 0 valid, 1
 * invalid, 2 bad input.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/public_file.h"
#include "core/hex.h"
#include "porep/porep.h"

#ifdef CUZK_HAVE_JANSSON
#include "groth16/params.h"
#include "porep/c2.h"
#endif

/* The sector values of the options above, as parsed. */
typedef struct {
    const cz_porep_proof_t *proof;
    uint8_t replica_id[32], comm_d[32], comm_r[32], seed[32];
} sector_values_t;

/* Options both commands take; `have` marks the ones given. */
enum { O_PROOF, O_REPLICA, O_PROVER, O_MINER, O_SECTOR, O_TICKET, O_SEED, O_COMM_R, O_COMM_D,
       O_NVALUES };
static const char *const OPT_NAMES[O_NVALUES] = {
    "--registered-proof", "--replica-id", "--prover-id", "--miner", "--sector",
    "--ticket",           "--seed",       "--comm-r",    "--comm-d",
};

static bool hex32(uint8_t out[32], const char *s)
{
    return s && strlen(s) == 64 && cz_hex_decode(out, s, 32);
}

/* "f01234" / "t01234" / "1234" -> the prover_id (LEB128 of the actor id). */
static bool miner_prover_id(uint8_t out[32], const char *s)
{
    if ((s[0] == 'f' || s[0] == 't') && s[1] == '0')
        s += 2;
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 19)
        return false;
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

/*
 * Fill |v| from the option values |opt| (NULL = not given). False after
 * printing which value is missing or malformed, naming the option.
 */
static bool sector_values(sector_values_t *v, const char *cmd, const char *const opt[O_NVALUES])
{
    memset(v, 0, sizeof *v);
    if (!opt[O_PROOF] || !(v->proof = cz_porep_proof_by_name(opt[O_PROOF]))) {
        fprintf(stderr, "%s: --registered-proof wants a StackedDrg proof name, e.g. "
                        "StackedDrg32GiBV1_1 or StackedDrg32GiBV1 (got '%s')\n",
                cmd, opt[O_PROOF] ? opt[O_PROOF] : "");
        return false;
    }
    const int h[4] = { O_SEED, O_COMM_R, O_COMM_D, -1 };
    uint8_t *dst[3] = { v->seed, v->comm_r, v->comm_d };
    /* NI-PoRep: no seed (challenges from replica_id and comm_r) */
    const bool ni = v->proof->challenges == CZ_POREP_NON_INTERACTIVE;
    if (ni && opt[O_SEED]) {
        fprintf(stderr, "%s: %s takes no --seed (non-interactive challenges)\n", cmd,
                v->proof->name);
        return false;
    }
    for (int i = ni ? 1 : 0; h[i] >= 0; i++) {
        if (!hex32(dst[i], opt[h[i]])) {
            fprintf(stderr, "%s: %s wants 64 hex digits\n", cmd, OPT_NAMES[h[i]]);
            return false;
        }
    }
    bool by_prover = opt[O_PROVER] || opt[O_MINER] || opt[O_SECTOR] || opt[O_TICKET];
    if (opt[O_REPLICA]) {
        if (by_prover) {
            fprintf(stderr, "%s: give --replica-id or the prover values "
                            "(--prover-id/--miner, --sector, --ticket), not both\n", cmd);
            return false;
        }
        if (!hex32(v->replica_id, opt[O_REPLICA])) {
            fprintf(stderr, "%s: --replica-id wants 64 hex digits\n", cmd);
            return false;
        }
        return true;
    }
    uint8_t prover[32], ticket[32], porep_id[32];
    if (!opt[O_PROVER] == !opt[O_MINER]) {
        fprintf(stderr, "%s: give one of --prover-id HEX and --miner ID (or --replica-id)\n",
                cmd);
        return false;
    }
    if (opt[O_PROVER] ? !hex32(prover, opt[O_PROVER]) : !miner_prover_id(prover, opt[O_MINER])) {
        fprintf(stderr, "%s: %s\n", cmd,
                opt[O_PROVER] ? "--prover-id wants 64 hex digits"
                              : "--miner wants an actor id: f01234, t01234 or 1234");
        return false;
    }
    char *end = NULL;
    unsigned long long sector = opt[O_SECTOR] ? strtoull(opt[O_SECTOR], &end, 10) : 0;
    if (!opt[O_SECTOR] || !*opt[O_SECTOR] || *end || opt[O_SECTOR][0] == '-') {
        fprintf(stderr, "%s: --sector wants the sector number (a u64)\n", cmd);
        return false;
    }
    if (!hex32(ticket, opt[O_TICKET])) {
        fprintf(stderr, "%s: --ticket wants 64 hex digits\n", cmd);
        return false;
    }
    cz_porep_id(porep_id, v->proof);
    cz_porep_replica_id(v->replica_id, prover, (uint64_t)sector, ticket, v->comm_d, porep_id);
    return true;
}

/* Map long option |c| (its index + 1000) into opt[]. */
#define SECTOR_LONGOPTS                                                                      \
    { "registered-proof", required_argument, 0, 1000 + O_PROOF },                            \
    { "replica-id", required_argument, 0, 1000 + O_REPLICA },                                \
    { "prover-id", required_argument, 0, 1000 + O_PROVER },                                  \
    { "miner", required_argument, 0, 1000 + O_MINER },                                       \
    { "sector", required_argument, 0, 1000 + O_SECTOR },                                     \
    { "ticket", required_argument, 0, 1000 + O_TICKET },                                     \
    { "seed", required_argument, 0, 1000 + O_SEED },                                         \
    { "comm-r", required_argument, 0, 1000 + O_COMM_R },                                     \
    { "comm-d", required_argument, 0, 1000 + O_COMM_D }

#define SECTOR_USAGE                                                                         \
    "  SECTOR: (--replica-id HEX | (--prover-id HEX | --miner f0ID) --sector N --ticket HEX)\n" \
    "          --seed HEX --comm-r HEX --comm-d HEX\n"                                        \
    "  T: StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1, ...V1_1, ...V1_1_Feat_SyntheticPoRep,\n" \
    "  ...V1_2_Feat_NonInteractivePoRep (no --seed: non-interactive; 13 partitions at 2KiB,\n" \
    "  8MiB, 512MiB, 126 at 32GiB, 64GiB). HEX: 64 hex digits, the bytes in rust-fil-proofs /\n"\
    "  C1 JSON order. The V1 proofs use their own graph (predecessor last, expander parents\n"\
    "  truncated to u32).\n"

static const char PI_USAGE[] =
    "usage: cuzk porep public-inputs --registered-proof T SECTOR [--partition K] [-o FILE]\n"
    "  Every partition's public inputs (or partition K's) as a chain verifier derives\n"
    "  them, in the file format `cuzk verify --vk --proof --public` reads.\n" SECTOR_USAGE
    "  Exit 0 done, 2 bad input.\n";

int cz_cli_porep_public_inputs(int argc, char **argv)
{
    static const struct option longopts[] = {
        SECTOR_LONGOPTS,
        { "partition", required_argument, 0, 'k' },
        { "output", required_argument, 0, 'o' },
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    const char *opt[O_NVALUES] = { NULL }, *out_path = NULL, *part = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
        if (c >= 1000 && c < 1000 + O_NVALUES)
            opt[c - 1000] = optarg;
        else if (c == 'k')
            part = optarg;
        else if (c == 'o')
            out_path = optarg;
        else if (c == 'h')
            return fputs(PI_USAGE, stdout), CZ_EXIT_OK;
        else
            return fputs(PI_USAGE, stderr), CZ_EXIT_USAGE;
    }
    sector_values_t v;
    if (optind != argc)
        return fputs(PI_USAGE, stderr), CZ_EXIT_USAGE;
    if (!sector_values(&v, "cuzk porep public-inputs", opt))
        return CZ_EXIT_USAGE;
    cz_porep_params_t p;
    if (cz_porep_proof_params(&p, v.proof)) {
        fprintf(stderr, "cuzk porep public-inputs: --registered-proof %s: no circuit "
                        "configuration for its sector size\n", v.proof->name);
        return CZ_EXIT_USAGE;
    }
    unsigned first = 0, count = p.partitions;
    if (part) {
        char *end;
        unsigned long k = strtoul(part, &end, 10);
        if (!*part || *end || k >= p.partitions) {
            fprintf(stderr, "cuzk porep public-inputs: --partition wants 0..%u\n",
                    p.partitions - 1);
            return CZ_EXIT_USAGE;
        }
        first = (unsigned)k;
        count = 1;
    }
    const size_t per = cz_porep_num_inputs(&p) - 1;
    cz_fr *in = malloc((size_t)count * per * sizeof *in);
    cz_ctx_t *ctx = NULL;
    int rc = in ? cz_ctx_new(&ctx, NULL, 0) : CZ_ENOMEM;
    for (unsigned k = 0; rc == CZ_OK && k < count; k++)
        rc = cz_porep_public_inputs_proof(ctx, in + (size_t)k * per, per, &p, v.proof,
                                          v.replica_id, v.comm_d, v.comm_r, v.seed, first + k);
    if (rc == CZ_OK)
        rc = cz_public_write(ctx, out_path ? out_path : "/dev/stdout", in, count, per);
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
    cz_ctx_free(ctx);
    return rc == CZ_OK ? CZ_EXIT_OK : CZ_EXIT_USAGE;
}

bool cz_cli_has_registered_proof(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--registered-proof") ||
            !strncmp(argv[i], "--registered-proof=", 19))
            return true;
    return false;
}

#ifdef CUZK_HAVE_JANSSON
static const char VERIFY_USAGE[] =
    "usage: cuzk verify --kind porep-c2 --registered-proof T (--vk V | --params-dir D)\n"
    "                   --proof P SECTOR\n"
    "  Verifies a PoRep proof (partitions x 192 bytes) from the sector values alone, as\n"
    "  the chain does (rust-fil-proofs verify_seal). --params-dir D takes the Filecoin-\n"
    "  named vk (v28-stacked-proof-of-replication-...vk) from D.\n" SECTOR_USAGE
    "  Exit 0 valid, 1 invalid, 2 bad input.\n";

int cz_cli_verify_porep_sector(int argc, char **argv)
{
    static const struct option longopts[] = {
        SECTOR_LONGOPTS,
        { "kind", required_argument, 0, 'K' },
        { "vk", required_argument, 0, 'v' },
        { "params-dir", required_argument, 0, 'd' },
        { "proof", required_argument, 0, 'p' },
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    const char *opt[O_NVALUES] = { NULL }, *vk_path = NULL, *dir = NULL, *proof_path = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        if (c >= 1000 && c < 1000 + O_NVALUES)
            opt[c - 1000] = optarg;
        else if (c == 'K' && !strcmp(optarg, "porep-c2"))
            continue;
        else if (c == 'v')
            vk_path = optarg;
        else if (c == 'd')
            dir = optarg;
        else if (c == 'p')
            proof_path = optarg;
        else if (c == 'h')
            return fputs(VERIFY_USAGE, stdout), CZ_EXIT_OK;
        else
            return fputs(VERIFY_USAGE, stderr), CZ_EXIT_USAGE;
    }
    if (optind != argc || !proof_path || !vk_path == !dir)
        return fputs(VERIFY_USAGE, stderr), CZ_EXIT_USAGE;
    sector_values_t v;
    if (!sector_values(&v, "cuzk verify", opt))
        return CZ_EXIT_USAGE;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_USAGE;
    cz_c2_public_t pub = { .proof = v.proof };
    memcpy(pub.replica_id, v.replica_id, 32);
    memcpy(pub.comm_d, v.comm_d, 32);
    memcpy(pub.comm_r, v.comm_r, 32);
    memcpy(pub.seed, v.seed, 32);
    char named[1024], name[256];
    cz_porep_params_t p;
    int rc = CZ_OK;
    if (dir) {
        if (cz_porep_proof_params(&p, v.proof) || cz_c2_params_name(name, sizeof name, &p, "vk"))
            rc = cz_fail(ctx, CZ_EINVAL, "no Filecoin vk name for %s", v.proof->name);
        else if ((size_t)snprintf(named, sizeof named, "%s/%s", dir, name) >= sizeof named)
            rc = cz_fail(ctx, CZ_EINVAL, "--params-dir: path too long");
        vk_path = named;
    }
    cz_vk_t vk = { 0 };
    cz_pvk_t *pvk = NULL;
    uint8_t *proof = NULL;
    size_t len = 0;
    if (rc == CZ_OK)
        rc = cz_vk_load(ctx, &vk, vk_path);
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, proof_path, (size_t)1 << 20, &proof, &len);
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &pvk, &vk);
    if (rc == CZ_OK)
        rc = cz_c2_verify(ctx, pvk, proof, len, &pub);
    int exit_code = rc == CZ_OK ? CZ_EXIT_OK : rc == CZ_EVERIFY ? CZ_EXIT_FAIL : CZ_EXIT_USAGE;
    if (exit_code == CZ_EXIT_OK)
        printf("valid (%s, %zu partition%s)\n", v.proof->name, len / 192, len == 192 ? "" : "s");
    else if (exit_code == CZ_EXIT_FAIL)
        printf("INVALID proof\n");
    else
        fprintf(stderr, "cuzk verify: %s\n",
                *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    free(proof);
    cz_pvk_free(pvk);
    cz_vk_clear(&vk);
    cz_ctx_free(ctx);
    return exit_code;
}
#else
int cz_cli_verify_porep_sector(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "cuzk verify: --kind porep-c2 needs jansson (apt-get install libjansson-dev)\n");
    return CZ_EXIT_FAIL;
}
#endif
