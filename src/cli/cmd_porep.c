/*
 * cli/cmd_porep.c — `cuzk porep gen-c1 ...` (seal a small test sector and
 * write its C1 JSON) and `cuzk porep check-c1 FILE` (parse and verify a
 * C1 natively). Needs jansson (CUZK_HAVE_JANSSON).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "circuits/porep/stacked.h"
#include "cuzk/ctx.h"

#ifdef CUZK_HAVE_JANSSON
#include "porep/c1.h"
#include "porep/seal.h"
#include "porep/seal_sparse.h"
#include "gadgets/sha254.h"

static void hexout(const uint8_t *b)
{
    for (int i = 0; i < 32; i++)
        printf("%02x", b[i]);
}

/* A 32-byte value: 64 hex digits, or any other text hashed with SHA-256. */
static void bytes32(uint8_t out[32], const char *s)
{
    if (strlen(s) == 64 && strspn(s, "0123456789abcdefABCDEF") == 64) {
        for (int i = 0; i < 32; i++) {
            unsigned v;
            sscanf(s + 2 * i, "%2x", &v);
            out[i] = (uint8_t)v;
        }
    } else {
        cz_sha256(out, s, strlen(s));
    }
}

static int usage(void)
{
    fprintf(stderr,
            "usage: cuzk porep gen-c1 --sector-size 2KiB|8MiB|512MiB (--data FILE | --random SEED)\n"
            "                         [--ticket T] [--seed S] [--prover-id P] [--sector-id N]\n"
            "                         -o c1.json\n"
            "       cuzk porep gen-c1 --sector-size 2KiB..64GiB --sparse [--random SEED] ...\n"
            "         (all-zero data, sparse trees: only the opened columns are materialized;\n"
            "          SEED picks the unopened parents' labels)\n"
            "       cuzk porep check-c1 c1.json\n"
            "T, S, P: 64 hex digits, or any text (its SHA-256 is used).\n");
    return CZ_EXIT_USAGE;
}

static int gen_c1(int argc, char **argv)
{
    cz_seal_args_t a;
    memset(&a, 0, sizeof a);
    const char *out = NULL, *data_path = NULL;
    int have_random = 0, sparse = 0;
    bytes32(a.ticket, "ticket");
    bytes32(a.seed, "seed");
    bytes32(a.prover_id, "prover");
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--sparse")) {
            sparse = 1;
            continue;
        } else if (!strcmp(argv[i], "--sector-size") && v) {
            if (cz_porep_parse_size(v, &a.sector_bytes))
                return usage();
        } else if (!strcmp(argv[i], "--data") && v) {
            data_path = v;
        } else if (!strcmp(argv[i], "--random") && v) {
            a.random_seed = strtoull(v, NULL, 0);
            have_random = 1;
        } else if (!strcmp(argv[i], "--ticket") && v) {
            bytes32(a.ticket, v);
        } else if (!strcmp(argv[i], "--seed") && v) {
            bytes32(a.seed, v);
        } else if (!strcmp(argv[i], "--prover-id") && v) {
            bytes32(a.prover_id, v);
        } else if (!strcmp(argv[i], "--sector-id") && v) {
            a.sector_id = strtoull(v, NULL, 0);
        } else if (!strcmp(argv[i], "-o") && v) {
            out = v;
        } else {
            return usage();
        }
        i++;
    }
    if (!out || !a.sector_bytes ||
        (sparse ? data_path != NULL : !data_path == !have_random))
        return usage();
    uint8_t *data = NULL;
    if (data_path) {
        FILE *f = fopen(data_path, "rb");
        data = malloc(a.sector_bytes);
        if (!f || !data || fread(data, 1, a.sector_bytes, f) != a.sector_bytes) {
            fprintf(stderr, "porep gen-c1: cannot read %llu bytes from %s\n",
                    (unsigned long long)a.sector_bytes, data_path);
            if (f)
                fclose(f);
            free(data);
            return CZ_EXIT_FAIL;
        }
        fclose(f);
        a.data = data;
    }
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0)) {
        free(data);
        return CZ_EXIT_FAIL;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cz_c1_t c1;
    int rc = sparse ? cz_seal_sparse_gen_c1(ctx, &a, &c1, NULL) : cz_seal_gen_c1(ctx, &a, &c1);
    if (!rc)
        rc = cz_c1_save(ctx, &c1, out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc) {
        fprintf(stderr, "porep gen-c1: %s\n", cz_ctx_message(ctx));
    } else {
        printf("registered_proof %s\ncomm_d ", c1.proof->name);
        hexout(c1.comm_d);
        printf("\ncomm_r ");
        hexout(c1.comm_r);
        printf("\nreplica_id ");
        hexout(c1.replica_id);
        printf("\nwrote %s in %.2f s\n", out,
               (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
        cz_c1_free(&c1);
    }
    cz_ctx_free(ctx);
    free(data);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}

static int check_c1(int argc, char **argv)
{
    if (argc != 2)
        return usage();
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_FAIL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cz_c1_t c1;
    int rc = cz_c1_load(ctx, &c1, argv[1]);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc) {
        fprintf(stderr, "porep check-c1: %s\n", cz_ctx_message(ctx));
        cz_ctx_free(ctx);
        return rc == CZ_EFORMAT || rc == CZ_EIO ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
    }
    printf("parsed %s (%u partitions x %u challenges) in %.3f s\n", c1.proof->name,
           c1.npartitions, c1.nchallenges,
           (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    rc = cz_c1_verify(ctx, &c1);
    if (rc)
        fprintf(stderr, "porep check-c1: INVALID: %s\n", cz_ctx_message(ctx));
    else
        printf("valid\n");
    cz_c1_free(&c1);
    cz_ctx_free(ctx);
    return rc ? CZ_EXIT_FAIL : CZ_EXIT_OK;
}

int cmd_porep(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    if (!strcmp(argv[1], "gen-c1"))
        return gen_c1(argc - 1, argv + 1);
    if (!strcmp(argv[1], "check-c1"))
        return check_c1(argc - 1, argv + 1);
    return usage();
}
#else
int cmd_porep(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "cuzk porep: built without jansson (apt-get install libjansson-dev)\n");
    return CZ_EXIT_FAIL;
}
#endif
