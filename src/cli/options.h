/*
 * cli/options.h — one declarative option table per command, one parser and
 * one help printer for every `cuzk` command and benchmark (issue 16 item 5;
 * the model is daemon/config.c's key table).
 *
 * A command describes each option once, as a cz_opt entry: the long name,
 * an optional short letter, the kind of value (which says how it is parsed
 * and checked), where the value goes (offsetof into the command's own
 * options struct, type-checked by the CZ_O_* macros), its default as text,
 * the value's name and one help line. Rules across options (exclude each
 * other, go together, exactly one of, needs, required unless) sit in a
 * second table. cz_opts_parse fills the struct from argv or prints one
 * exact error; cz_opts_usage prints the help from the same tables, so an
 * option cannot be parsed without being listed, nor listed without being
 * parsed, and a printed default is the one parsed (defaults go through the
 * same code as the command line).
 *
 * Syntax (as getopt_long's users always had): --name VALUE, --name=VALUE,
 * a unique prefix of a long name (an exact name always wins), -x VALUE,
 * -xVALUE; options and arguments in any order; "--" ends the options; "-"
 * alone is an argument (stdin). --help / -h anywhere prints the help (even
 * after a bad option) and exits 0. A value option given twice: the last
 * value wins, except CZ_OPT_CUSTOM hooks, which see every one (and so may
 * collect them: `params check --sector-size S...`).
 *
 * Errors go to stderr as "<cmd>: <what>" followed by the synopsis and a
 * pointer to --help; the command then exits CZ_EXIT_USAGE (2):
 *   cuzk prove: --device: 'x' is not a number
 *   cuzk prove: --device: '2000' is out of range (0..1024)
 *   cuzk prove: --params and --random-params exclude each other
 *   cuzk prove: unknown option --frobnicate
 *   cuzk verify: missing --public FILE
 * Output paths (CZ_OPT_OUTPUT) are checked and directories (CZ_OPT_OUTDIR)
 * made after everything else parsed, before the command does any work
 * (cli.h cz_cli_check_output / cz_cli_make_output_dir, their messages).
 *
 * Thread-safety: no global state (getopt's optind/optarg are not used);
 * tables are const and may be shared. Ownership: string values point into
 * argv or at the table's own text; nothing is allocated.
 */
#ifndef CUZK_CLI_OPTIONS_H
#define CUZK_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    CZ_OPT_FLAG,   /* bool: true when given; takes no value */
    CZ_OPT_STRING, /* const char *: the text as given */
    CZ_OPT_SIZE,   /* size_t: cz_cli_parse_size ("4096", "2^20", "64Mi"), in [min, max] */
    CZ_OPT_U64,    /* uint64_t: decimal or 0x-hex, in [min, max] */
    CZ_OPT_DOUBLE, /* double: a decimal number in [min, max] (seconds and such) */
    CZ_OPT_ENUM,   /* const char *: one of values[] (the table's own string is stored) */
    CZ_OPT_SECTOR, /* uint64_t: a PoRep sector size in bytes: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB */
    CZ_OPT_BYTES,  /* size_t: a byte count, 1024, 22GiB, 2^30 (core/bytes.h) */
    CZ_OPT_OUTPUT, /* const char *: a file to be written; cz_cli_check_output after parsing */
    CZ_OPT_OUTDIR, /* const char *: a directory to be written in; made after parsing */
    CZ_OPT_CUSTOM, /* parsed by the entry's hook, once per occurrence (and for the default) */
} cz_opt_kind;

/* A CZ_OPT_CUSTOM parser: |field| is the options struct at the entry's
 * offset. False when |text| is not acceptable, with |why| completing
 * "--name: 'text' ..." (e.g. "is not cpu, cpu:N, cuda, cuda:N or cuda:all"). */
typedef bool cz_opt_hook(void *field, const char *text, char *why, size_t cap);

/* cz_opt.flags */
#define CZ_OPT_REQUIRED 1u /* must be given ("missing --c1 FILE") */
#define CZ_OPT_ALIAS 2u    /* another name of the entry before it (same field and kind) */
#define CZ_OPT_NONZERO 4u  /* numeric: 0 is refused (also with min 0: --px-per-s) */

typedef struct cz_opt {
    const char *name; /* long name without "--" */
    char letter;      /* short name ('o' for -o); 0: none */
    cz_opt_kind kind;
    size_t off;                /* the field: CZ_O_* macros below */
    uint64_t min, max;         /* numeric bounds, inclusive; max 0: no upper bound */
    const char *const *values; /* CZ_OPT_ENUM: the allowed values, NULL-terminated */
    cz_opt_hook *hook;         /* CZ_OPT_CUSTOM */
    const char *def;           /* default as text, parsed like a value; NULL: 0 / NULL / false */
    const char *arg;           /* the value's name in the help (FILE, N); NULL: by kind */
    const char *help;          /* one line */
    unsigned flags;            /* CZ_OPT_REQUIRED, ... */
    size_t size;               /* CZ_OPT_CUSTOM: the field's bytes (zeroed first; CZ_O_CUSTOM) */
} cz_opt;

/*
 * The field of an entry: CZ_O_SIZE(opts_t, device) expands to the kind and
 * the offset, and does not compile cleanly (distinct pointer types, an error
 * under the project's -Werror) when the field's type is not the kind's.
 * Use as the 3rd and 4th members, designated ones after them:
 * { "device", 0, CZ_O_SIZE(opts_t, device), .max = 1024, ... }.
 */
#define CZ_OPT_AT(T, field, type) (offsetof(T, field) + 0 * sizeof(&((T *)0)->field == (type *)0))
#define CZ_O_FLAG(T, f) CZ_OPT_FLAG, CZ_OPT_AT(T, f, bool)
#define CZ_O_STRING(T, f) CZ_OPT_STRING, CZ_OPT_AT(T, f, const char *)
#define CZ_O_SIZE(T, f) CZ_OPT_SIZE, CZ_OPT_AT(T, f, size_t)
#define CZ_O_U64(T, f) CZ_OPT_U64, CZ_OPT_AT(T, f, uint64_t)
#define CZ_O_DOUBLE(T, f) CZ_OPT_DOUBLE, CZ_OPT_AT(T, f, double)
#define CZ_O_ENUM(T, f) CZ_OPT_ENUM, CZ_OPT_AT(T, f, const char *)
#define CZ_O_SECTOR(T, f) CZ_OPT_SECTOR, CZ_OPT_AT(T, f, uint64_t)
#define CZ_O_BYTES(T, f) CZ_OPT_BYTES, CZ_OPT_AT(T, f, size_t)
#define CZ_O_OUTPUT(T, f) CZ_OPT_OUTPUT, CZ_OPT_AT(T, f, const char *)
#define CZ_O_OUTDIR(T, f) CZ_OPT_OUTDIR, CZ_OPT_AT(T, f, const char *)
#define CZ_O_CUSTOM(T, f) CZ_OPT_CUSTOM, offsetof(T, f), .size = sizeof(((T *)0)->f)

typedef enum {
    CZ_RULE_EXCLUSIVE, /* at most one of names given */
    CZ_RULE_TOGETHER,  /* all of names, or none */
    CZ_RULE_ONE_OF,    /* exactly one of names */
    CZ_RULE_NEEDS,     /* names[0] given: every other name too */
    CZ_RULE_ANY_OF,    /* at least one of names */
    CZ_RULE_REQUIRED,  /* every one of names (use with unless) */
} cz_rule_kind;

typedef struct cz_opt_rule {
    cz_rule_kind kind;
    const char *names[7]; /* long names, at most 6, NULL-terminated */
    const char *unless;   /* NULL, or: the rule does not apply when this option is given */
} cz_opt_rule;

/* A rule: CZ_RULE(EXCLUSIVE, "params", "random-params"),
 * CZ_RULE_UNLESS(ONE_OF, "random-params", "params", "params-dir"). */
#define CZ_RULE(k, ...)                               \
    {                                                 \
        .kind = CZ_RULE_##k, .names = { __VA_ARGS__ } \
    }
#define CZ_RULE_UNLESS(k, u, ...)                                  \
    {                                                              \
        .kind = CZ_RULE_##k, .names = { __VA_ARGS__ }, .unless = u \
    }

typedef struct cz_opts_spec {
    const char *cmd;   /* message prefix: "cuzk prove" */
    const char *usage; /* the synopsis: "usage: cuzk prove ...\n" (the forms) */
    const char *about; /* after the synopsis in --help; NULL: none */
    const cz_opt *opts;
    size_t nopts; /* at most CZ_OPTS_MAX */
    const cz_opt_rule *rules;
    size_t nrules;
    const char *args;            /* the arguments' name ("DIR"); NULL: none are taken */
    unsigned min_args, max_args; /* how many (max_args <= CZ_OPTS_MAX_ARGS) */
    const char *help_cmd;        /* what prints this help ("cuzk prove --kind snap --help");
                                    NULL: "<cmd> --help" */
    void (*more)(FILE *f);       /* printed after the options by --help (other forms) */
} cz_opts_spec;

/* A cz_opts_spec's table and rules with their lengths: CZ_OPTS(X_OPTS), CZ_RULES(X_RULES). */
#define CZ_OPTS(a) .opts = (a), .nopts = sizeof(a) / sizeof((a)[0])
#define CZ_RULES(a) .rules = (a), .nrules = sizeof(a) / sizeof((a)[0])

#define CZ_OPTS_MAX 64
#define CZ_OPTS_MAX_ARGS 16
/* cz_opts_parse: go on with the command (anything else is its exit code) */
#define CZ_OPTS_RUN (-1)

typedef struct cz_opts_result {
    FILE *out, *err; /* IN: where help / errors go (NULL: stdout / stderr) */
    uint64_t given;  /* OUT: bit i: opts[i] (or an alias of it) was given */
    int nargs;       /* OUT: the arguments, in order (pointers into argv) */
    char *args[CZ_OPTS_MAX_ARGS];
    char error[256]; /* OUT: the usage error printed; "" when none */
} cz_opts_result_t;

/*
 * Parse argv[1..argc) (argv[0]: the command's name) into |opts| (the
 * options struct, which the defaults overwrite first: every field in the
 * table gets its default or zero; fields not in the table are untouched). |res| may be NULL; else set its out/err
 * (or zero it) before the call. Returns CZ_OPTS_RUN to go on; CZ_EXIT_OK
 * after printing --help; CZ_EXIT_USAGE after printing the error;
 * CZ_EXIT_FAIL when the table itself is wrong (a default that does not
 * parse: "BUG" named on stderr).
 */
int cz_opts_parse(const cz_opts_spec *spec, void *opts, int argc, char **argv,
                  cz_opts_result_t *res);

/* The whole help: synopsis, about, the options (with value names, defaults,
 * bounds, allowed values, required), spec->more. */
void cz_opts_usage(const cz_opts_spec *spec, FILE *f);

/* Was option |name| (a long name of spec's table) given? False for NULL |res|. */
bool cz_opts_given(const cz_opts_spec *spec, const cz_opts_result_t *res, const char *name);

/* A usage error the table cannot express, found by the command after
 * parsing: prints "<cmd>: <message>", the synopsis and the --help pointer
 * to stderr; returns CZ_EXIT_USAGE. */
int cz_opts_error(const cz_opts_spec *spec, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * The table's own consistency, for tests and for --help (which prints a
 * BUG line and fails when it does not hold): names and letters unique,
 * aliases after their entry with its field and kind, enums with values,
 * hooks for CUSTOM, rules naming options of the table, every "--name" in
 * the synopsis and about text an option of the table (text in `backticks`
 * may name other commands' options). False with |why| filled.
 */
bool cz_opts_check(const cz_opts_spec *spec, char *why, size_t cap);

/* ---- shared kinds' data and entries ---------------------------------------------- */

/* The backends by name (backend/backend.h cz_backend_new). */
extern const char *const cz_opt_backends[];
/* "2KiB" ... "64GiB" for a PoRep sector size (CZ_OPT_SECTOR); NULL for others. */
const char *cz_opt_sector_name(uint64_t bytes);

/* CZ_OPT_CUSTOM hooks: 64 hex digits into a uint8_t[32] field (the bytes in
 * order: the C1 JSON's, as `cuzk porep gen-c1` prints them); a StackedDrg
 * registered proof's name into a `const cz_porep_proof_t *` field
 * (kinds/porep/porep.h cz_porep_proof_by_name). */
bool cz_opt_hex32(void *field, const char *text, char *why, size_t cap);
bool cz_opt_porep_proof(void *field, const char *text, char *why, size_t cap);
/* laid out by hand: */
/* clang-format off */
#define CZ_OPT_HEX32(T, f, nm, what)                                                        \
    { nm, 0, CZ_O_CUSTOM(T, f), .hook = cz_opt_hex32, .arg = "HEX", .help = what }
/* clang-format on */
/* laid out by hand: */
/* clang-format off */
#define CZ_OPT_REGISTERED_PROOF(T, f, what)                                                 \
    { "registered-proof", 0, CZ_O_CUSTOM(T, f), .hook = cz_opt_porep_proof, .arg = "NAME", \
      .help = what }
/* clang-format on */

/* The options many commands share, defined once: their names, kinds,
 * bounds and help. */
/* laid out by hand: */
/* clang-format off */
#define CZ_OPT_BACKEND(T, f, dflt)                                                          \
    { "backend", 0, CZ_O_ENUM(T, f), .values = cz_opt_backends, .def = dflt,               \
      .help = "auto: cuda when usable, else cpu; cuda fails with the reason when unusable" }
/* clang-format on */
/* laid out by hand: */
/* clang-format off */
#define CZ_OPT_DEVICE(T, f)                                                                 \
    { "device", 0, CZ_O_SIZE(T, f), .max = 1024, .def = "0", .arg = "N",                   \
      .help = "the GPU (cuda backend)" }
/* clang-format on */
/* laid out by hand: */
/* clang-format off */
#define CZ_OPT_THREADS(T, f)                                                                \
    { "threads", 0, CZ_O_SIZE(T, f), .max = 4096, .def = "0", .arg = "T",                  \
      .help = "thread pool width (0: all CPUs)" }
/* clang-format on */
#define CZ_OPT_JSON(T, f, what)                  \
    {                                            \
        "json", 0, CZ_O_FLAG(T, f), .help = what \
    }
#define CZ_OPT_QUIET(T, f)                                           \
    {                                                                \
        "quiet", 0, CZ_O_FLAG(T, f), .help = "no progress on stderr" \
    }
/* laid out by hand: */
/* clang-format off */
#define CZ_OPT_SECTOR_SIZE(T, f, what)                                                      \
    { "sector-size", 0, CZ_O_SECTOR(T, f), .arg = "SIZE", .help = what }
/* clang-format on */

/* Where cuzkd is and how to talk to it: the options every client command
 * takes (cli/client.h cz_client_set makes a client of them). */
typedef struct cz_opt_client {
    const char *socket, *url, *token, *token_file;
    bool json;
} cz_opt_client_t;
/* laid out by hand: */
/* clang-format off */
#define CZ_OPT_CLIENT(T, f)                                                                 \
    { "socket", 0, CZ_O_STRING(T, f.socket), .arg = "PATH",                                \
      .help = "cuzkd's unix socket (else $CUZK_URL, $CUZK_SOCKET, /run/cuzk/cuzkd.sock)" }, \
    { "url", 0, CZ_O_STRING(T, f.url), .arg = "URL",                                       \
      .help = "cuzkd over TCP: http://HOST:PORT" },                                        \
    { "token", 0, CZ_O_STRING(T, f.token), .arg = "T",                                     \
      .help = "bearer token (else $CUZK_TOKEN)" },                                         \
    { "token-file", 0, CZ_O_STRING(T, f.token_file), .arg = "F",                           \
      .help = "the token is this file's first line" },                                     \
    { "json", 0, CZ_O_FLAG(T, f.json), .help = "machine-readable output" }
/* clang-format on */
/* laid out by hand: */
/* clang-format off */
#define CZ_OPT_CLIENT_RULES                                                                 \
    CZ_RULE(EXCLUSIVE, "socket", "url"), CZ_RULE(EXCLUSIVE, "token", "token-file")
/* clang-format on */

#endif /* CUZK_CLI_OPTIONS_H */
