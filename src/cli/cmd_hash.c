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
#include "cli/options.h"
#include "cuzk.h"

typedef struct {
    size_t arity;
} hash_opts_t;

static const cz_opt POSEIDON_OPTS[] = {
    { "arity", 0, CZ_O_SIZE(hash_opts_t, arity), .arg = "A", .flags = CZ_OPT_REQUIRED,
      .help = "2, 4, 8 or 11 (neptune's MerkleTree constants)" },
};
static const cz_opts_spec POSEIDON_SPEC = {
    .cmd = "cuzk hash poseidon",
    .usage = "usage: cuzk hash poseidon --arity A X1 .. XA\n",
    .about = "  neptune's Poseidon (MerkleTree tag) of A field elements, each decimal or\n"
             "  0x-hex big-endian; prints the hash in 0x-hex big-endian.\n",
    CZ_OPTS(POSEIDON_OPTS),
    .args = "X1 .. XA",
    .min_args = 1,
    .max_args = 14, /* room to say "arity A needs A elements, got N" */
};
static const cz_opts_spec SHA256_SPEC = {
    .cmd = "cuzk hash sha256",
    .usage = "usage: cuzk hash sha256 HEXBYTES\n",
    .about = "  The SHA-256 digest of HEXBYTES (may be empty, \"\", and start with 0x).\n",
    .args = "HEXBYTES",
    .min_args = 1,
    .max_args = 1,
};
static const cz_opts_spec SHA254_SPEC = {
    .cmd = "cuzk hash sha254",
    .usage = "usage: cuzk hash sha254 HEXBYTES\n",
    .about = "  SHA-256 with digest[31] &= 0x3f (Filecoin's Fr-truncated sha256).\n",
    .args = "HEXBYTES",
    .min_args = 1,
    .max_args = 1,
};
static const cz_opts_spec COMMD_SPEC = {
    .cmd = "cuzk hash commd-zero",
    .usage = "usage: cuzk hash commd-zero SIZE\n",
    .about = "  comm_d of SIZE zero bytes: a power of two >= 64, e.g. 2K, 32Gi.\n",
    .args = "SIZE",
    .min_args = 1,
    .max_args = 1,
};

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

static int hash_poseidon(int argc, char **argv)
{
    hash_opts_t o;
    cz_opts_result_t r = { 0 };
    int go = cz_opts_parse(&POSEIDON_SPEC, &o, argc, argv, &r);
    if (go != CZ_OPTS_RUN)
        return go;
    size_t arity = o.arity;
    uint8_t x[11 * 32], h[32];
    if (arity != 2 && arity != 4 && arity != 8 && arity != 11)
        return cz_opts_error(&POSEIDON_SPEC, "--arity: '%zu' is not 2, 4, 8 or 11", arity);
    if ((size_t)r.nargs != arity)
        return cz_opts_error(&POSEIDON_SPEC, "arity %zu needs %zu elements, got %d", arity, arity,
                             r.nargs);
    char **elems = r.args;
    for (size_t i = 0; i < arity; i++) {
        int rc = cz_fr_repr_parse(x + 32 * i, elems[i], NULL);
        if (rc != CZ_OK)
            return cz_opts_error(&POSEIDON_SPEC, "element %zu '%s': %s", i + 1, elems[i],
                                 cz_strerror(rc));
    }
    cz_error_t err;
    char hex[80];
    if (cz_hash_poseidon(h, x, arity, &err) || cz_fr_repr_format(hex, sizeof hex, h, false, &err))
        return cz_opts_error(&POSEIDON_SPEC, "%s", err.message);
    puts(hex);
    return CZ_EXIT_OK;
}

static int hash_sha(int argc, char **argv, bool sha254)
{
    const cz_opts_spec *spec = sha254 ? &SHA254_SPEC : &SHA256_SPEC;
    char none;
    cz_opts_result_t r = { 0 };
    int go = cz_opts_parse(spec, &none, argc, argv, &r);
    if (go != CZ_OPTS_RUN)
        return go;
    uint8_t *msg = NULL, d[32];
    size_t len = 0;
    if (!parse_hex(r.args[0], &msg, &len))
        return cz_opts_error(spec, "'%s' is not an even-length hex string", r.args[0]);
    if (sha254)
        cz_hash_sha254(d, msg, len);
    else
        cz_hash_sha256(d, msg, len);
    free(msg);
    print_hex(d, 32);
    return CZ_EXIT_OK;
}

static int hash_sha256(int argc, char **argv)
{
    return hash_sha(argc, argv, false);
}
static int hash_sha254(int argc, char **argv)
{
    return hash_sha(argc, argv, true);
}

static int hash_commd_zero(int argc, char **argv)
{
    char none;
    cz_opts_result_t r = { 0 };
    int go = cz_opts_parse(&COMMD_SPEC, &none, argc, argv, &r);
    if (go != CZ_OPTS_RUN)
        return go;
    size_t size;
    uint8_t d[32];
    if (!cz_cli_parse_size(r.args[0], &size))
        return cz_opts_error(&COMMD_SPEC, "'%s' is not a size", r.args[0]);
    if (cz_comm_d_zero(d, size, NULL) != CZ_OK)
        return cz_opts_error(&COMMD_SPEC, "SIZE must be a power of two >= 64");
    print_hex(d, 32);
    return CZ_EXIT_OK;
}

int cmd_hash(int argc, char **argv)
{
    static const cz_cli_command sub[] = {
        { "poseidon", hash_poseidon, "--arity A X1 .. XA: neptune Poseidon (MerkleTree tag)" },
        { "sha256", hash_sha256, "HEXBYTES: the 32 digest bytes in hex" },
        { "sha254", hash_sha254, "HEXBYTES: the same with digest[31] &= 0x3f" },
        { "commd-zero", hash_commd_zero, "SIZE: comm_d of SIZE zero bytes (e.g. 32Gi)" },
    };
    return cz_cli_dispatch("cuzk hash", sub, sizeof sub / sizeof sub[0],
                           "usage: cuzk hash poseidon|sha256|sha254|commd-zero ...   "
                           "(cuzk hash poseidon --help)",
                           argc, argv);
}
