/*
 * cli/cmd_hash.c — `cuzk hash`: the native hashers from the command line.
 *
 *   cuzk hash poseidon --arity A X1 .. XA   neptune Poseidon (MerkleTree tag);
 *                                           X decimal or 0x-hex big-endian,
 *                                           prints 0x-hex big-endian
 *   cuzk hash sha256 HEXBYTES               prints the 32 digest bytes in hex
 *   cuzk hash sha254 HEXBYTES               same, with digest[31] &= 0x3f
 *   cuzk hash commd-zero SIZE               comm_d of SIZE zero bytes (e.g. 32Gi)
 *
 * HEXBYTES may be empty ("") and may start with 0x.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hex.h"
#include "cli/cli.h"
#include "gadgets/poseidon.h"
#include "gadgets/sha254.h"

static const char HASH_USAGE[] =
    "usage: cuzk hash poseidon --arity A X1 .. XA   (A in 2, 4, 8, 11; X decimal or 0x-hex)\n"
    "       cuzk hash sha256 HEXBYTES\n"
    "       cuzk hash sha254 HEXBYTES\n"
    "       cuzk hash commd-zero SIZE                (power of two >= 64, e.g. 2K, 32Gi)\n";

static int usage_error(const char *why)
{
    if (why)
        fprintf(stderr, "cuzk hash: %s\n", why);
    fputs(HASH_USAGE, stderr);
    return CZ_EXIT_USAGE;
}

static void print_hex(const uint8_t *p, size_t n)
{
    char hex[2 * 64 + 1];
    cz_hex_encode(hex, p, n < 64 ? n : 64);
    puts(hex);
}

/* Decode |s| into a new buffer (*out, caller frees); false on bad hex. */
static bool parse_hex(const char *s, uint8_t **out, size_t *len)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    size_t n = strlen(s);
    uint8_t *b = n % 2 ? NULL : malloc(n / 2 + 1);
    if (!b || !cz_hex_decode(b, s, n / 2)) {
        free(b);
        return false;
    }
    *out = b;
    *len = n / 2;
    return true;
}

static bool wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return true;
    return false;
}

static int hash_poseidon(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[1], "--arity") != 0)
        return usage_error("poseidon needs --arity A and A elements");
    size_t arity;
    if (!cz_cli_parse_size(argv[2], &arity))
        return usage_error("bad arity");
    const cz_poseidon_constants *c = cz_poseidon_constants_get((unsigned)arity);
    if (!c || arity != c->arity)
        return usage_error("arity must be 2, 4, 8 or 11");
    if ((size_t)(argc - 3) != arity) {
        fprintf(stderr, "cuzk hash: arity %zu needs %zu elements, got %d\n", arity, arity,
                argc - 3);
        return CZ_EXIT_USAGE;
    }
    cz_fr x[CZ_POSEIDON_MAX_ARITY], h;
    for (size_t i = 0; i < arity; i++) {
        int rc = cz_fr_parse(&x[i], argv[3 + i]);
        if (rc != CZ_OK) {
            fprintf(stderr, "cuzk hash: element %zu '%s': %s\n", i + 1, argv[3 + i],
                    cz_strerror(rc));
            return CZ_EXIT_USAGE;
        }
    }
    cz_poseidon_hash(c, &h, x);
    char hex[67];
    cz_fr_to_hex(hex, &h);
    puts(hex);
    return CZ_EXIT_OK;
}

static int hash_sha(int argc, char **argv, bool sha254)
{
    if (argc != 2)
        return usage_error("expected one HEXBYTES argument");
    uint8_t *msg = NULL, d[32];
    size_t len = 0;
    if (!parse_hex(argv[1], &msg, &len))
        return usage_error("HEXBYTES is not an even-length hex string");
    if (sha254)
        cz_sha254(d, msg, len);
    else
        cz_sha256(d, msg, len);
    free(msg);
    print_hex(d, 32);
    return CZ_EXIT_OK;
}

static int hash_commd_zero(int argc, char **argv)
{
    size_t size;
    uint8_t d[32];
    if (argc != 2 || !cz_cli_parse_size(argv[1], &size))
        return usage_error("expected one SIZE argument");
    if (cz_sha254_comm_d_zero(d, size) != CZ_OK)
        return usage_error("SIZE must be a power of two >= 64");
    print_hex(d, 32);
    return CZ_EXIT_OK;
}

int cmd_hash(int argc, char **argv)
{
    if (argc < 2)
        return usage_error(NULL);
    const char *what = argv[1];
    if (wants_help(argc, argv)) {   /* `hash --help` and `hash poseidon --help` */
        fputs(HASH_USAGE, stdout);
        return CZ_EXIT_OK;
    }
    if (!strcmp(what, "poseidon"))
        return hash_poseidon(argc - 1, argv + 1);
    if (!strcmp(what, "sha256"))
        return hash_sha(argc - 1, argv + 1, false);
    if (!strcmp(what, "sha254"))
        return hash_sha(argc - 1, argv + 1, true);
    if (!strcmp(what, "commd-zero"))
        return hash_commd_zero(argc - 1, argv + 1);
    fprintf(stderr, "cuzk hash: unknown hash '%s'\n", what);
    return usage_error(NULL);
}
