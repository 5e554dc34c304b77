/*
 * tests/cli/test_options.c — cli/options.h: the option table's parser, its
 * exact errors and exit codes, the defaults, the rules across options, the
 * help printed from the table, and the table's self-check.
 */
#include <stdarg.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cz_test.h"

typedef struct {
    const char *input, *out, *mode, *backend, *devices;
    size_t device, workers;
    uint64_t seed, sector;
    double timeout;
    bool json, quiet, random;
    unsigned ndev; /* the hook's count of --dev */
} t_opts;

/* A custom kind: "a" or "b", counted (each occurrence reaches the hook). */
static bool dev_hook(void *field, const char *text, char *why, size_t cap)
{
    t_opts *o = (t_opts *)((char *)field - offsetof(t_opts, devices));
    if (strcmp(text, "a") && strcmp(text, "b")) {
        snprintf(why, cap, "is not a or b");
        return false;
    }
    o->devices = text;
    o->ndev++;
    return true;
}

static const char *const MODES[] = { "fast", "slow", NULL };
static const cz_opt T_OPTS[] = {
    { "input", 'i', CZ_O_STRING(t_opts, input), .arg = "FILE", .help = "the input",
      .flags = CZ_OPT_REQUIRED },
    { "out", 'o', CZ_O_OUTPUT(t_opts, out), .help = "where the result goes" },
    { "output", 0, CZ_O_OUTPUT(t_opts, out), .flags = CZ_OPT_ALIAS },
    { "mode", 0, CZ_O_ENUM(t_opts, mode), .values = MODES, .def = "fast", .help = "how" },
    CZ_OPT_BACKEND(t_opts, backend, "auto"),
    CZ_OPT_DEVICE(t_opts, device),
    { "workers", 0, CZ_O_SIZE(t_opts, workers), .min = 1, .max = 16, .def = "2", .arg = "W",
      .help = "workers" },
    { "seed", 0, CZ_O_U64(t_opts, seed), .def = "1", .help = "the seed" },
    CZ_OPT_SECTOR_SIZE(t_opts, sector, "the sector size"),
    { "timeout", 0, CZ_O_DOUBLE(t_opts, timeout), .max = 100, .arg = "S", .help = "seconds" },
    { "dev", 0, CZ_O_CUSTOM(t_opts, devices), .hook = dev_hook, .help = "a or b, repeatable" },
    CZ_OPT_JSON(t_opts, json, "one JSON line"),
    CZ_OPT_QUIET(t_opts, quiet),
    { "random", 0, CZ_O_FLAG(t_opts, random), .help = "random" },
};
static const cz_opt_rule T_RULES[] = {
    CZ_RULE(EXCLUSIVE, "random", "seed"),
    CZ_RULE(NEEDS, "quiet", "out"),
    CZ_RULE(TOGETHER, "timeout", "dev"),
};
static const cz_opts_spec T_SPEC = {
    .cmd = "cuzk t",
    .usage = "usage: cuzk t --input FILE [--out FILE] [--random | --seed N]\n",
    .about = "  A test command; `cuzk other --frob` is another command's.\n",
    CZ_OPTS(T_OPTS),
    CZ_RULES(T_RULES),
    .args = "ARG",
    .min_args = 0,
    .max_args = 2,
};

/* Parse a NULL-terminated list; the exit code (CZ_OPTS_RUN to go on). */
static int run(t_opts *o, cz_opts_result_t *r, ...)
{
    char *argv[32] = { "t" };
    int argc = 1;
    va_list ap;
    va_start(ap, r);
    for (char *a; argc < 31 && (a = va_arg(ap, char *));)
        argv[argc++] = a;
    va_end(ap);
    memset(o, 0x5a, sizeof *o); /* the parser must set every field of the table */
    o->ndev = 0;
    memset(r, 0, sizeof *r);
    r->out = r->err = tmpfile();
    int rc = cz_opts_parse(&T_SPEC, o, argc, argv, r);
    return rc;
}

/* What the last run printed (help or error). */
static const char *printed(cz_opts_result_t *r)
{
    static char buf[8192];
    fflush(r->out);
    rewind(r->out);
    size_t n = fread(buf, 1, sizeof buf - 1, r->out);
    buf[n] = '\0';
    fclose(r->out);
    r->out = r->err = NULL;
    return buf;
}

/* laid out by hand: */
/* clang-format off */
#define CHECK_STR(a, b)                                                                  \
    do {                                                                                 \
        const char *cz__a = (a), *cz__b = (b);                                           \
        if (!cz__a || strcmp(cz__a, cz__b))                                              \
            CZ__FAIL("%s == \"%s\": got \"%s\"", #a, cz__b, cz__a ? cz__a : "(null)");   \
    } while (0)
/* clang-format on */

CZ_TEST(defaults_and_values)
{
    t_opts o;
    cz_opts_result_t r;
    CHECK_EQ_INT(run(&o, &r, "--input", "x", NULL), CZ_OPTS_RUN);
    printed(&r);
    CHECK_STR(o.input, "x");
    CHECK(o.out == NULL);
    CHECK_STR(o.mode, "fast");
    CHECK(o.mode == MODES[0]); /* the table's own string */
    CHECK_STR(o.backend, "auto");
    CHECK_EQ_INT(o.device, 0);
    CHECK_EQ_INT(o.workers, 2);
    CHECK_EQ_U64(o.seed, 1);
    CHECK_EQ_U64(o.sector, 0);
    CHECK(o.timeout == 0);
    CHECK(!o.json && !o.quiet && !o.random);
    CHECK(o.devices == NULL); /* a custom kind's field is zeroed too */
    CHECK_EQ_INT(o.ndev, 0);
    CHECK_EQ_INT(r.nargs, 0);
    CHECK(cz_opts_given(&T_SPEC, &r, "input"));
    CHECK(!cz_opts_given(&T_SPEC, &r, "seed")); /* a default is not "given" */

    CHECK_EQ_INT(run(&o, &r, "-i", "in", "--mode=slow", "--backend", "cuda", "--device", "3",
                     "--workers", "16", "--seed", "0x10", "--sector-size", "32GiB", "--timeout",
                     "2.5", "--dev", "a", "--json", "A", "B", NULL),
                 CZ_OPTS_RUN);
    printed(&r);
    CHECK_STR(o.input, "in");
    CHECK_STR(o.mode, "slow");
    CHECK_STR(o.backend, "cuda");
    CHECK_EQ_INT(o.device, 3);
    CHECK_EQ_INT(o.workers, 16);
    CHECK_EQ_U64(o.seed, 16);
    CHECK_EQ_U64(o.sector, 32ull << 30);
    CHECK(o.timeout == 2.5);
    CHECK(o.json);
    CHECK_EQ_INT(r.nargs, 2);
    CHECK_STR(r.args[0], "A");
    CHECK_STR(r.args[1], "B");
    /* -xVALUE, a unique prefix, "--" then an argument that looks like an option */
    CHECK_EQ_INT(run(&o, &r, "-iin", "--work", "4", "--", "--json", NULL), CZ_OPTS_RUN);
    printed(&r);
    CHECK_STR(o.input, "in");
    CHECK_EQ_INT(o.workers, 4);
    CHECK(!o.json);
    CHECK_EQ_INT(r.nargs, 1);
    CHECK_STR(r.args[0], "--json");
    /* sizes as cz_cli_parse_size takes them; "-" alone is an argument (stdin) */
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--device", "2^10", "-", NULL), CZ_OPTS_RUN);
    printed(&r);
    CHECK_EQ_INT(o.device, 1024);
    CHECK_STR(r.args[0], "-");
}

CZ_TEST(bad_numbers)
{
    t_opts o;
    cz_opts_result_t r;
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--device", "x", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--device: 'x' is not a number");
    const char *text = printed(&r);
    CHECK(strstr(text, "cuzk t: --device: 'x' is not a number\n") == text);
    CHECK(strstr(text, "usage: cuzk t --input FILE") != NULL); /* the synopsis follows */
    CHECK(strstr(text, "(cuzk t --help: every option)") != NULL);
    static const char *const junk[] = { "",   "-1",  " 5", "+5",
                                        "5x", "1.5", "2^", "99999999999999999999999" };
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
        CHECK_EQ_INT(run(&o, &r, "--input", "x", "--workers", junk[i], NULL), CZ_EXIT_USAGE);
        printed(&r);
        CHECK(strstr(r.error, "is not a number") != NULL);
    }
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--seed", "010x", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--seed: '010x' is not a number (decimal or 0x-hex)");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--seed", "-3", NULL), CZ_EXIT_USAGE);
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--timeout", "soon", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--timeout: 'soon' is not a number");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--sector-size", "3KiB", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--sector-size: '3KiB' is not a sector size (2KiB, 8MiB, 512MiB, "
                       "32GiB or 64GiB)");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--backend", "opencl", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--backend: 'opencl' is not one of auto, cpu or cuda");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--dev", "c", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--dev: 'c' is not a or b");
    printed(&r);
}

CZ_TEST(out_of_range)
{
    t_opts o;
    cz_opts_result_t r;
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--device", "2000", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--device: '2000' is out of range (0..1024)");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--workers", "0", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--workers: '0' is out of range (1..16)");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--workers", "17", NULL), CZ_EXIT_USAGE);
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--timeout", "100.5", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--timeout: '100.5' is out of range (0..100)");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--timeout", "-1", NULL), CZ_EXIT_USAGE);
    printed(&r);
    /* the bounds themselves are in */
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--device", "1024", "--workers", "1", NULL),
                 CZ_OPTS_RUN);
    printed(&r);
}

CZ_TEST(missing_required)
{
    t_opts o;
    cz_opts_result_t r;
    CHECK_EQ_INT(run(&o, &r, NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "missing --input FILE");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--input needs a value");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "-i", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "-i needs a value");
    printed(&r);
}

CZ_TEST(rules_between_options)
{
    t_opts o;
    cz_opts_result_t r;
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--random", "--seed", "3", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--random and --seed exclude each other");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--quiet", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--quiet needs --out FILE");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--quiet", "--output", "o.bin", NULL), CZ_OPTS_RUN);
    printed(&r);
    CHECK_STR(o.out, "o.bin");
    CHECK(cz_opts_given(&T_SPEC, &r, "out")); /* an alias marks its entry */
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--timeout", "1", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--timeout needs --dev VALUE (they go together)");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--timeout", "1", "--dev", "b", NULL), CZ_OPTS_RUN);
    printed(&r);
}

/* ONE_OF / REQUIRED with unless, on a second table */
typedef struct {
    const char *params, *dir, *proof;
    bool random;
} u_opts;
static const cz_opt U_OPTS[] = {
    { "params", 0, CZ_O_STRING(u_opts, params), .arg = "P", .help = "params" },
    { "params-dir", 0, CZ_O_STRING(u_opts, dir), .arg = "D", .help = "dir" },
    { "proof", 0, CZ_O_STRING(u_opts, proof), .arg = "OUT", .help = "proof" },
    { "random-params", 0, CZ_O_FLAG(u_opts, random), .help = "timing only" },
};
static const cz_opt_rule U_RULES[] = {
    CZ_RULE(EXCLUSIVE, "random-params", "params", "params-dir"),
    CZ_RULE_UNLESS(ONE_OF, "random-params", "params", "params-dir"),
    CZ_RULE_UNLESS(REQUIRED, "random-params", "proof"),
};
static const cz_opts_spec U_SPEC = {
    .cmd = "cuzk u", .usage = "usage: cuzk u\n", CZ_OPTS(U_OPTS), CZ_RULES(U_RULES)
};

static int run_u(u_opts *o, cz_opts_result_t *r, int argc, char **argv)
{
    memset(r, 0, sizeof *r);
    r->err = fopen("/dev/null", "w");
    int rc = cz_opts_parse(&U_SPEC, o, argc, argv, r);
    fclose(r->err);
    return rc;
}

CZ_TEST(rules_with_unless)
{
    u_opts o;
    cz_opts_result_t r;
    char *a1[] = { "u", "--proof", "p" };
    CHECK_EQ_INT(run_u(&o, &r, 3, a1), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "give --params P or --params-dir D (or --random-params)");
    char *a2[] = { "u", "--params", "x", "--params-dir", "d", "--proof", "p" };
    CHECK_EQ_INT(run_u(&o, &r, 7, a2), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--params and --params-dir exclude each other");
    char *a3[] = { "u", "--params", "x" };
    CHECK_EQ_INT(run_u(&o, &r, 3, a3), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "missing --proof OUT (or --random-params)");
    char *a4[] = { "u", "--random-params" };
    CHECK_EQ_INT(run_u(&o, &r, 2, a4), CZ_OPTS_RUN);
    CHECK(o.random && !o.proof);
    char *a5[] = { "u", "--random-params", "--params", "x" };
    CHECK_EQ_INT(run_u(&o, &r, 4, a5), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--random-params and --params exclude each other");
    char *a6[] = { "u", "--params-dir", "d", "--proof", "p" };
    CHECK_EQ_INT(run_u(&o, &r, 5, a6), CZ_OPTS_RUN);
}

CZ_TEST(unknown_options_and_arguments)
{
    t_opts o;
    cz_opts_result_t r;
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--frobnicate", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "unknown option --frobnicate");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--frob=1", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "unknown option --frob");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "-z", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "unknown option -z");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--se", "1", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--se is ambiguous: --seed, --sector-size");
    printed(&r);
    /* a prefix of one entry's names only (--out, --output) is that entry */
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--ou", "f", NULL), CZ_OPTS_RUN);
    printed(&r);
    CHECK_STR(o.out, "f");
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--json=yes", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "--json takes no value");
    printed(&r);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "A", "B", "C", NULL), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "unexpected argument 'C'");
    printed(&r);
    /* a table without arguments; one with a minimum */
    u_opts u;
    char *a1[] = { "u", "--random-params", "extra" };
    CHECK_EQ_INT(run_u(&u, &r, 3, a1), CZ_EXIT_USAGE);
    CHECK_STR(r.error, "unexpected argument 'extra'");
    cz_opts_spec one = T_SPEC;
    one.args = "DIR";
    one.min_args = 1;
    char *a2[] = { "t", "--input", "x" };
    memset(&r, 0, sizeof r);
    r.err = fopen("/dev/null", "w");
    CHECK_EQ_INT(cz_opts_parse(&one, &o, 3, a2, &r), CZ_EXIT_USAGE);
    fclose(r.err);
    CHECK_STR(r.error, "missing DIR");
}

CZ_TEST(help)
{
    t_opts o;
    cz_opts_result_t r;
    /* anywhere, even after a bad value or without the required options: exit 0 */
    CHECK_EQ_INT(run(&o, &r, "--help", NULL), CZ_EXIT_OK);
    const char *text = printed(&r);
    CHECK(strstr(text, "usage: cuzk t --input FILE") == text);
    CHECK(strstr(text, "A test command") != NULL);
    CHECK(strstr(text, "  -i, --input FILE") != NULL);
    CHECK(strstr(text, "the input (required)") != NULL);
    CHECK(strstr(text, "  -o, --out FILE, --output") != NULL);
    CHECK(strstr(text, "--mode fast|slow") != NULL);
    CHECK(strstr(text, "how (default fast)") != NULL);
    CHECK(strstr(text, "--backend auto|cpu|cuda") != NULL);
    CHECK(strstr(text, "--device N") != NULL);
    CHECK(strstr(text, "(default 0; 0..1024)") != NULL);
    CHECK(strstr(text, "workers (default 2; 1..16)") != NULL);
    CHECK(strstr(text, "--sector-size SIZE") != NULL);
    CHECK(strstr(text, "  -h, --help") != NULL);
    /* every entry of the table is in the help */
    for (size_t i = 0; i < sizeof T_OPTS / sizeof T_OPTS[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "--%s", T_OPTS[i].name);
        if (!strstr(text, want))
            CZ__FAIL("the help lacks %s", want);
    }
    CHECK_EQ_INT(run(&o, &r, "--device", "x", "-h", NULL), CZ_EXIT_OK);
    CHECK(strstr(printed(&r), "usage: cuzk t") != NULL);
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "A", "--help", NULL), CZ_EXIT_OK);
    printed(&r);
    /* after "--" it is an argument */
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "--", "--help", NULL), CZ_OPTS_RUN);
    printed(&r);
    CHECK_STR(r.args[0], "--help");
}

CZ_TEST(flags_and_repeats)
{
    t_opts o;
    cz_opts_result_t r;
    /* a flag twice is the flag; a value twice: the last wins; a hook sees each */
    CHECK_EQ_INT(run(&o, &r, "--input", "a", "--json", "--json", "--input", "b", "--device", "1",
                     "--device", "2", "--dev", "a", "--dev", "b", "--dev", "a", "--timeout", "1",
                     NULL),
                 CZ_OPTS_RUN);
    printed(&r);
    CHECK(o.json);
    CHECK_STR(o.input, "b");
    CHECK_EQ_INT(o.device, 2);
    CHECK_EQ_INT(o.ndev, 3);
    CHECK_STR(o.devices, "a");
    CHECK(!o.quiet && !o.random);
}

CZ_TEST(outputs_checked_after_parsing)
{
    t_opts o;
    cz_opts_result_t r;
    /* an unusable output: exit 2 before any work, the path named (cli.h's message) */
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "-o", "/nonexistent-dir/out.bin", NULL),
                 CZ_EXIT_USAGE);
    printed(&r);
    CHECK(strstr(r.error, "/nonexistent-dir/out.bin") != NULL);
    /* a bad value after it is reported, not the output (nothing touched the disk first) */
    CHECK_EQ_INT(run(&o, &r, "--input", "x", "-o", "/nonexistent-dir/out.bin", "--device", "x",
                     NULL),
                 CZ_EXIT_USAGE);
    printed(&r);
    CHECK_STR(r.error, "--device: 'x' is not a number");
    /* an output directory is made (with its parents) only when all else parsed */
    typedef struct {
        const char *dir;
        size_t n;
    } d_opts;
    static const cz_opt D_OPTS[] = {
        { "dir", 0, CZ_O_OUTDIR(d_opts, dir), .help = "made" },
        { "n", 0, CZ_O_SIZE(d_opts, n), .max = 3, .help = "n" },
    };
    static const cz_opts_spec D = { .cmd = "cuzk d", .usage = "usage: cuzk d\n", CZ_OPTS(D_OPTS) };
    char base[] = "/tmp/cz-test-options-XXXXXX", dir[128];
    REQUIRE(mkdtemp(base));
    snprintf(dir, sizeof dir, "%s/a/b", base);
    d_opts d;
    char *bad_args[] = { "d", "--dir", dir, "--n", "9" };
    memset(&r, 0, sizeof r);
    r.err = fopen("/dev/null", "w");
    CHECK_EQ_INT(cz_opts_parse(&D, &d, 5, bad_args, &r), CZ_EXIT_USAGE);
    CHECK(access(dir, F_OK) != 0);
    char *ok_args[] = { "d", "--dir", dir, "--n", "3" };
    CHECK_EQ_INT(cz_opts_parse(&D, &d, 5, ok_args, &r), CZ_OPTS_RUN);
    fclose(r.err);
    CHECK(access(dir, W_OK) == 0);
    char path[160];
    rmdir(dir);
    snprintf(path, sizeof path, "%s/a", base);
    rmdir(path);
    rmdir(base);
}

CZ_TEST(table_self_check)
{
    char why[256];
    CHECK(cz_opts_check(&T_SPEC, why, sizeof why));
    CHECK(cz_opts_check(&U_SPEC, why, sizeof why));
    /* the synopsis names an option the table lacks */
    cz_opts_spec s = T_SPEC;
    s.usage = "usage: cuzk t --input FILE --bogus\n";
    CHECK(!cz_opts_check(&s, why, sizeof why));
    CHECK(strstr(why, "--bogus") != NULL);
    /* ...which also makes --help fail (so the CLI tests catch it) */
    t_opts o;
    cz_opts_result_t r = { 0 };
    r.out = r.err = fopen("/dev/null", "w");
    char *args[] = { "t", "--help" };
    CHECK_EQ_INT(cz_opts_parse(&s, &o, 2, args, &r), CZ_EXIT_FAIL);
    fclose(r.out);
    /* a rule naming no option; a duplicate name; an alias first */
    static const cz_opt_rule bad_rule[] = { CZ_RULE(EXCLUSIVE, "input", "nosuch") };
    s = T_SPEC;
    s.rules = bad_rule;
    s.nrules = 1;
    CHECK(!cz_opts_check(&s, why, sizeof why));
    static const cz_opt dup[] = {
        { "input", 0, CZ_O_STRING(t_opts, input), .help = "a" },
        { "input", 0, CZ_O_STRING(t_opts, out), .help = "b" },
    };
    s = T_SPEC;
    s.opts = dup;
    s.nopts = 2;
    s.rules = NULL;
    s.nrules = 0;
    s.usage = s.about = NULL;
    CHECK(!cz_opts_check(&s, why, sizeof why));
    static const cz_opt alias_first[] = {
        { "input", 0, CZ_O_STRING(t_opts, input), .flags = CZ_OPT_ALIAS },
    };
    s.opts = alias_first;
    s.nopts = 1;
    CHECK(!cz_opts_check(&s, why, sizeof why));
}

CZ_TEST(bad_default_is_a_bug)
{
    typedef struct {
        size_t n;
    } b_opts;
    static const cz_opt B_OPTS[] = {
        { "n", 0, CZ_O_SIZE(b_opts, n), .max = 3, .def = "9", .help = "n" },
    };
    static const cz_opts_spec B = { .cmd = "cuzk b", CZ_OPTS(B_OPTS) };
    b_opts b;
    cz_opts_result_t r = { 0 };
    r.err = fopen("/dev/null", "w");
    char *args[] = { "b" };
    CHECK_EQ_INT(cz_opts_parse(&B, &b, 1, args, &r), CZ_EXIT_FAIL);
    fclose(r.err);
}

CZ_TEST(sector_names)
{
    CHECK_STR(cz_opt_sector_name(2048), "2KiB");
    CHECK_STR(cz_opt_sector_name(64ull << 30), "64GiB");
    CHECK(cz_opt_sector_name(4096) == NULL);
}

CZ_TEST_MAIN()
