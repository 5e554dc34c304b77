/*
 * cli/options.c — the option tables' parser, help printer and self-check
 * (cli/options.h), and the value kinds every command shares: a number, a
 * byte size, a sector size, one of a list, an output path.
 */
#include "cli/options.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/porep/stacked.h"
#include "cli/cli.h"
#include "core/hex.h"
#include "porep/porep.h"

const char *const cz_opt_backends[] = { "auto", "cpu", "cuda", NULL };

/* ---- value kinds ---------------------------------------------------------------- */

bool cz_cli_parse_size(const char *s, size_t *out)
{
    /* digits first: strtoull would take " 5", "+5" and "-1" (as 2^64 - 1) */
    if (!s || !isdigit((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return false;
    if (end[0] == '^') {                       /* 2^20 */
        if (!isdigit((unsigned char)end[1]))
            return false;
        unsigned long long e = strtoull(end + 1, &end, 10);
        if (v != 2 || e > 62)
            return false;
        v = 1ull << e;
    } else if (end[0] == 'K' || end[0] == 'M' || end[0] == 'G') {   /* 4K, 64Mi, 1G */
        unsigned shift = end[0] == 'K' ? 10 : end[0] == 'M' ? 20 : 30;
        end += end[1] == 'i' ? 2 : 1;
        if (v > (SIZE_MAX >> shift))
            return false;
        v <<= shift;
    }
    if (*end || v > SIZE_MAX)
        return false;
    *out = (size_t)v;
    return true;
}

/* Decimal, or 0x-hex; nothing else (no sign, no octal, no trailing text). */
static bool parse_u64(const char *s, uint64_t *out)
{
    int base = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
    const char *digits = base == 16 ? s + 2 : s;
    if (!(base == 16 ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits)))
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(digits, &end, base);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

static bool parse_double(const char *s, double *out)
{
    if (!*s || isspace((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v))
        return false;
    *out = v;
    return true;
}

const char *cz_opt_sector_name(uint64_t bytes)
{
    static const struct { uint64_t bytes; const char *name; } sizes[] = {
        { 2048, "2KiB" },           { 8ull << 20, "8MiB" },    { 512ull << 20, "512MiB" },
        { 32ull << 30, "32GiB" },   { 64ull << 30, "64GiB" },
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (sizes[i].bytes == bytes)
            return sizes[i].name;
    return NULL;
}

bool cz_opt_hex32(void *field, const char *text, char *why, size_t cap)
{
    if (strlen(text) != 64 || !cz_hex_decode(field, text, 32))
        return snprintf(why, cap, "is not 64 hex digits"), false;
    return true;
}

bool cz_opt_porep_proof(void *field, const char *text, char *why, size_t cap)
{
    const cz_porep_proof_t *p = cz_porep_proof_by_name(text);
    if (!p)
        return snprintf(why, cap, "is not a StackedDrg registered proof (e.g. "
                                  "StackedDrg32GiBV1_1, StackedDrg32GiBV1)"), false;
    *(const cz_porep_proof_t **)field = p;
    return true;
}

/* "(0..1024)", "(>= 1)", "" into buf: the bounds of a numeric entry. */
static void bounds_text(char *buf, size_t cap, const cz_opt *o)
{
    if (o->max)
        snprintf(buf, cap, "%" PRIu64 "..%" PRIu64, o->min, o->max);
    else if (o->min)
        snprintf(buf, cap, ">= %" PRIu64, o->min);
    else if (o->flags & CZ_OPT_NONZERO)
        snprintf(buf, cap, "> 0");
    else
        buf[0] = '\0';
}

static bool in_bounds(const cz_opt *o, uint64_t v)
{
    return v >= o->min && (!o->max || v <= o->max) && !(v == 0 && (o->flags & CZ_OPT_NONZERO));
}

static bool out_of_range(const cz_opt *o, char *why, size_t cap)
{
    char b[64];
    bounds_text(b, sizeof b, o);
    snprintf(why, cap, "is out of range (%s)", b);
    return false;
}

static void join_values(char *buf, size_t cap, const char *const *v, const char *sep,
                        const char *last)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; v[i]; i++) {
        const char *s = i == 0 ? "" : v[i + 1] ? sep : last;
        n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", s, v[i]);
        if (n >= cap)
            break;
    }
}

/*
 * Store |text| as the value of |o| in |opts|. False with |why| completing
 * "--name: 'text' ...".
 */
static bool set_value(const cz_opt *o, void *opts, const char *text, char *why, size_t cap)
{
    void *p = (char *)opts + o->off;
    switch (o->kind) {
    case CZ_OPT_FLAG:
        *(bool *)p = true;
        return true;
    case CZ_OPT_STRING:
    case CZ_OPT_OUTPUT:
    case CZ_OPT_OUTDIR:
        *(const char **)p = text;
        return true;
    case CZ_OPT_SIZE: {
        size_t v;
        if (!cz_cli_parse_size(text, &v))
            return snprintf(why, cap, "is not a number"), false;
        if (!in_bounds(o, v))
            return out_of_range(o, why, cap);
        *(size_t *)p = v;
        return true;
    }
    case CZ_OPT_U64: {
        uint64_t v;
        if (!parse_u64(text, &v))
            return snprintf(why, cap, "is not a number (decimal or 0x-hex)"), false;
        if (!in_bounds(o, v))
            return out_of_range(o, why, cap);
        *(uint64_t *)p = v;
        return true;
    }
    case CZ_OPT_DOUBLE: {
        double v;
        if (!parse_double(text, &v))
            return snprintf(why, cap, "is not a number"), false;
        if (v < (double)o->min || (o->max && v > (double)o->max) ||
            (v == 0 && (o->flags & CZ_OPT_NONZERO)))
            return out_of_range(o, why, cap);
        *(double *)p = v;
        return true;
    }
    case CZ_OPT_ENUM:
        for (size_t i = 0; o->values && o->values[i]; i++)
            if (!strcmp(text, o->values[i])) {
                *(const char **)p = o->values[i];
                return true;
            }
        {
            char list[256];
            join_values(list, sizeof list, o->values, ", ", " or ");
            snprintf(why, cap, "is not %s%s", o->values && o->values[1] ? "one of " : "", list);
        }
        return false;
    case CZ_OPT_SECTOR: {
        uint64_t bytes;
        cz_porep_params_t pp;
        if (cz_porep_parse_size(text, &bytes) || cz_porep_params_sector(&pp, bytes))
            return snprintf(why, cap, "is not a sector size (2KiB, 8MiB, 512MiB, 32GiB or "
                                      "64GiB)"), false;
        *(uint64_t *)p = bytes;
        return true;
    }
    case CZ_OPT_CUSTOM:
        why[0] = '\0';
        if (o->hook(p, text, why, cap))
            return true;
        if (!why[0])
            snprintf(why, cap, "is not valid");
        return false;
    }
    snprintf(why, cap, "has an unknown kind (bug)");
    return false;
}

/* ---- the parser ------------------------------------------------------------------- */

typedef struct {
    const cz_opts_spec *spec;
    cz_opts_result_t *res;
    void *opts;
} parse_t;

static FILE *err_of(const cz_opts_result_t *res) { return res && res->err ? res->err : stderr; }
static FILE *out_of(const cz_opts_result_t *res) { return res && res->out ? res->out : stdout; }

/* The entry an alias names: the nearest entry before it that is not an alias. */
static size_t primary(const cz_opts_spec *s, size_t i)
{
    while (i > 0 && (s->opts[i].flags & CZ_OPT_ALIAS))
        i--;
    return i;
}

static const cz_opt *find(const cz_opts_spec *s, const char *name, size_t len, size_t *idx)
{
    for (size_t i = 0; i < s->nopts; i++)
        if (strlen(s->opts[i].name) == len && !strncmp(s->opts[i].name, name, len)) {
            *idx = i;
            return &s->opts[i];
        }
    return NULL;
}

static bool takes_value(const cz_opt *o) { return o->kind != CZ_OPT_FLAG; }

static const char *arg_name(const cz_opt *o, char *buf, size_t cap)
{
    if (o->arg)
        return o->arg;
    switch (o->kind) {
    case CZ_OPT_ENUM: join_values(buf, cap, o->values, "|", "|"); return buf;
    case CZ_OPT_SIZE: case CZ_OPT_U64: return "N";
    case CZ_OPT_DOUBLE: return "S";
    case CZ_OPT_SECTOR: return "SIZE";
    case CZ_OPT_OUTPUT: return "FILE";
    case CZ_OPT_OUTDIR: return "DIR";
    default: return "VALUE";
    }
}

/* The synopsis and where the whole help is, after an error. */
static void usage_hint(const cz_opts_spec *s, FILE *f)
{
    if (s->usage)
        fputs(s->usage, f);
    if (s->help_cmd)
        fprintf(f, "(%s: every option)\n", s->help_cmd);
    else
        fprintf(f, "(%s --help: every option)\n", s->cmd);
}

static int verror(const cz_opts_spec *s, cz_opts_result_t *res, const char *fmt, va_list ap)
{
    char msg[256];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (res)
        snprintf(res->error, sizeof res->error, "%s", msg);
    FILE *f = err_of(res);
    fprintf(f, "%s: %s\n", s->cmd, msg);
    usage_hint(s, f);
    return CZ_EXIT_USAGE;
}

static int fail(parse_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(parse_t *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = verror(p->spec, p->res, fmt, ap);
    va_end(ap);
    return rc;
}

int cz_opts_error(const cz_opts_spec *spec, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = verror(spec, NULL, fmt, ap);
    va_end(ap);
    return rc;
}

/* Every field of the table to its default (or zero). */
static int apply_defaults(parse_t *p)
{
    const cz_opts_spec *s = p->spec;
    for (size_t i = 0; i < s->nopts; i++) {
        const cz_opt *o = &s->opts[i];
        if (o->flags & CZ_OPT_ALIAS)
            continue;
        void *f = (char *)p->opts + o->off;
        switch (o->kind) {
        case CZ_OPT_FLAG: *(bool *)f = false; break;
        case CZ_OPT_SIZE: *(size_t *)f = 0; break;
        case CZ_OPT_U64: case CZ_OPT_SECTOR: *(uint64_t *)f = 0; break;
        case CZ_OPT_DOUBLE: *(double *)f = 0; break;
        case CZ_OPT_CUSTOM: break;   /* the hook's field: the command's initial value */
        default: *(const char **)f = NULL; break;
        }
        char why[160];
        if (o->def && o->kind != CZ_OPT_FLAG && !set_value(o, p->opts, o->def, why, sizeof why)) {
            fprintf(err_of(p->res), "%s: BUG: the default of --%s, '%s', %s\n", s->cmd, o->name,
                    o->def, why);
            return CZ_EXIT_FAIL;
        }
    }
    return CZ_OPTS_RUN;
}

/* The entry of "--name[=value]" (|a| without the dashes): exact, else a unique prefix. */
static int long_option(parse_t *p, const char *a, size_t *idx)
{
    const cz_opts_spec *s = p->spec;
    size_t len = strcspn(a, "=");
    if (find(s, a, len, idx))
        return CZ_OPTS_RUN;
    size_t hits = 0, first = 0;
    bool same = true;   /* every hit a name of one entry (its aliases): not ambiguous */
    char names[200] = "";
    for (size_t i = 0; i < s->nopts; i++)
        if (!strncmp(s->opts[i].name, a, len)) {
            size_t n = strlen(names);
            snprintf(names + n, sizeof names - n, "%s--%s", hits ? ", " : "", s->opts[i].name);
            if (!hits)
                first = i;
            same &= primary(s, i) == primary(s, first);
            hits++;
        }
    if (hits >= 1 && same) {
        *idx = first;
        return CZ_OPTS_RUN;
    }
    if (hits)
        return fail(p, "--%.*s is ambiguous: %s", (int)len, a, names);
    return fail(p, "unknown option --%.*s", (int)len, a);
}

static int short_option(parse_t *p, char c, size_t *idx)
{
    for (size_t i = 0; i < p->spec->nopts; i++)
        if (p->spec->opts[i].letter == c) {
            *idx = i;
            return CZ_OPTS_RUN;
        }
    return fail(p, "unknown option -%c", c);
}

/* One option at argv[*i]; its value inline (|inl|) or the next argument. */
static int take(parse_t *p, size_t idx, const char *inl, int argc, char **argv, int *i,
                const char *shown)
{
    const cz_opt *o = &p->spec->opts[idx];
    const cz_opt *po = &p->spec->opts[primary(p->spec, idx)];
    p->res->given |= 1ull << primary(p->spec, idx);
    if (!takes_value(o)) {
        if (inl)
            return fail(p, "%s takes no value", shown);
        return set_value(po, p->opts, "", NULL, 0) ? CZ_OPTS_RUN : CZ_EXIT_FAIL;
    }
    const char *v = inl;
    if (!v) {
        if (*i + 1 >= argc)
            return fail(p, "%s needs a value", shown);
        v = argv[++*i];
    }
    char why[192];
    if (!set_value(po, p->opts, v, why, sizeof why))
        return fail(p, "%s: '%s' %s", shown, v, why);
    return CZ_OPTS_RUN;
}

/* "--help" or "-h" among argv[from..), before any "--". */
static bool help_after(int argc, char **argv, int from)
{
    for (int i = from; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return true;
    return false;
}

static bool given(const parse_t *p, const char *name)
{
    size_t i;
    return find(p->spec, name, strlen(name), &i) && (p->res->given >> i & 1);
}

/* "--name ARG" of a long name, for messages. */
static const char *shown_with_arg(const cz_opts_spec *s, const char *name, char *buf, size_t cap)
{
    size_t i;
    char a[128];
    const cz_opt *o = find(s, name, strlen(name), &i);
    if (o && takes_value(o))
        snprintf(buf, cap, "--%s %s", name, arg_name(o, a, sizeof a));
    else
        snprintf(buf, cap, "--%s", name);
    return buf;
}

/* "--a, --b and --c" of |names| (the given ones only when |only_given|). */
static void name_list(const parse_t *p, const char *const *names, bool only_given,
                      const char *last, char *buf, size_t cap)
{
    const char *pick[7];
    size_t n = 0;
    for (size_t i = 0; names[i] && n < 7; i++)
        if (!only_given || given(p, names[i]))
            pick[n++] = names[i];
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s--%s",
                                i == 0 ? "" : i + 1 == n ? last : ", ", pick[i]);
}

static int check_rule(parse_t *p, const cz_opt_rule *r)
{
    if (r->unless && given(p, r->unless))
        return CZ_OPTS_RUN;
    size_t n = 0, have = 0;
    for (; r->names[n]; n++)
        have += given(p, r->names[n]);
    char list[256], a[160], b[160];
    char unless[200] = "";
    if (r->unless)
        snprintf(unless, sizeof unless, " (or --%s)", r->unless);
    switch (r->kind) {
    case CZ_RULE_EXCLUSIVE:
    case CZ_RULE_ONE_OF:
    case CZ_RULE_ANY_OF:
        if (have > 1 && r->kind != CZ_RULE_ANY_OF) {
            name_list(p, r->names, true, " and ", list, sizeof list);
            return fail(p, "%s exclude each other", list);
        }
        if (r->kind != CZ_RULE_EXCLUSIVE && have == 0) {
            size_t len = 0;
            for (size_t i = 0; i < n; i++)
                len += (size_t)snprintf(list + len, len < sizeof list ? sizeof list - len : 0,
                                        "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
                                        shown_with_arg(p->spec, r->names[i], a, sizeof a));
            return fail(p, "give %s%s", list, unless);
        }
        return CZ_OPTS_RUN;
    case CZ_RULE_TOGETHER:
        if (have == 0 || have == n)
            return CZ_OPTS_RUN;
        for (size_t i = 0; i < n; i++)
            if (!given(p, r->names[i])) {
                name_list(p, r->names, true, " and ", list, sizeof list);
                return fail(p, "%s %s %s (they go together)", list, have == 1 ? "needs" : "need",
                            shown_with_arg(p->spec, r->names[i], a, sizeof a));
            }
        return CZ_OPTS_RUN;
    case CZ_RULE_NEEDS:
        if (!given(p, r->names[0]))
            return CZ_OPTS_RUN;
        for (size_t i = 1; i < n; i++)
            if (!given(p, r->names[i]))
                return fail(p, "--%s needs %s", r->names[0],
                            shown_with_arg(p->spec, r->names[i], b, sizeof b));
        return CZ_OPTS_RUN;
    case CZ_RULE_REQUIRED:
        for (size_t i = 0; i < n; i++)
            if (!given(p, r->names[i]))
                return fail(p, "missing %s%s", shown_with_arg(p->spec, r->names[i], a, sizeof a),
                            unless);
        return CZ_OPTS_RUN;
    }
    return CZ_OPTS_RUN;
}

/* Required options, then the rules in table order. */
static int check_rules(parse_t *p)
{
    const cz_opts_spec *s = p->spec;
    char a[160];
    for (size_t i = 0; i < s->nopts; i++)
        if ((s->opts[i].flags & CZ_OPT_REQUIRED) && !(p->res->given >> i & 1))
            return fail(p, "missing %s", shown_with_arg(s, s->opts[i].name, a, sizeof a));
    for (size_t i = 0; i < s->nrules; i++) {
        int rc = check_rule(p, &s->rules[i]);
        if (rc != CZ_OPTS_RUN)
            return rc;
    }
    return CZ_OPTS_RUN;
}

/* Output files checked, then output directories made: last, as they touch the disk. */
static int check_outputs(parse_t *p)
{
    const cz_opts_spec *s = p->spec;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < s->nopts; i++) {
            const cz_opt *o = &s->opts[i];
            if (o->flags & CZ_OPT_ALIAS || o->kind != (pass ? CZ_OPT_OUTDIR : CZ_OPT_OUTPUT))
                continue;
            const char *path = *(const char **)((char *)p->opts + o->off);
            char what[80];
            snprintf(what, sizeof what, "--%s", o->name);
            bool ok = pass ? cz_cli_make_output_dir(s->cmd, what, path)
                           : cz_cli_check_output(s->cmd, what, path);
            if (!ok) {
                snprintf(p->res->error, sizeof p->res->error, "%s %s: unusable", what, path);
                return CZ_EXIT_USAGE;
            }
        }
    return CZ_OPTS_RUN;
}

static int scan(parse_t *p, int argc, char **argv)
{
    bool options = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        size_t idx = 0;
        int rc = CZ_OPTS_RUN;
        if (options && !strcmp(a, "--")) {
            options = false;
        } else if (options && a[0] == '-' && a[1] == '-') {
            const char *eq = strchr(a + 2, '=');
            char shown[96];
            if ((rc = long_option(p, a + 2, &idx)) == CZ_OPTS_RUN) {
                snprintf(shown, sizeof shown, "--%s", p->spec->opts[idx].name);
                rc = take(p, idx, eq ? eq + 1 : NULL, argc, argv, &i, shown);
            }
        } else if (options && a[0] == '-' && a[1]) {
            /* -x VALUE, -xVALUE; flags may not be bundled (none is short today) */
            char shown[8];
            snprintf(shown, sizeof shown, "-%c", a[1]);
            if ((rc = short_option(p, a[1], &idx)) == CZ_OPTS_RUN) {
                const cz_opt *o = &p->spec->opts[idx];
                if (!takes_value(o) && a[2])
                    rc = fail(p, "-%c takes no value", a[1]);
                else
                    rc = take(p, idx, a[2] ? a + 2 : NULL, argc, argv, &i, shown);
            }
        } else if (!p->spec->args || p->res->nargs >= (int)p->spec->max_args) {
            rc = fail(p, "unexpected argument '%s'", a);
        } else {
            p->res->args[p->res->nargs++] = argv[i];
        }
        if (rc != CZ_OPTS_RUN)
            return rc;
    }
    if (p->spec->args && p->res->nargs < (int)p->spec->min_args)
        return fail(p, "missing %s", p->spec->args);
    return CZ_OPTS_RUN;
}

int cz_opts_parse(const cz_opts_spec *spec, void *opts, int argc, char **argv,
                  cz_opts_result_t *res)
{
    cz_opts_result_t local = { 0 };
    if (!res)
        res = &local;
    res->given = 0;
    res->nargs = 0;
    res->error[0] = '\0';
    parse_t p = { spec, res, opts };
    if (spec->nopts > CZ_OPTS_MAX || spec->max_args > CZ_OPTS_MAX_ARGS) {
        fprintf(err_of(res), "%s: BUG: the option table is too large\n", spec->cmd);
        return CZ_EXIT_FAIL;
    }
    int rc = apply_defaults(&p);
    if (rc != CZ_OPTS_RUN)
        return rc;
    /* help wins wherever it is: say what the options are rather than what is wrong */
    if (help_after(argc, argv, 1)) {
        char why[256];
        cz_opts_usage(spec, out_of(res));
        if (cz_opts_check(spec, why, sizeof why))
            return CZ_EXIT_OK;
        fprintf(err_of(res), "%s: BUG in the option table: %s\n", spec->cmd, why);
        return CZ_EXIT_FAIL;
    }
    if ((rc = scan(&p, argc, argv)) != CZ_OPTS_RUN)
        return rc;
    if ((rc = check_rules(&p)) != CZ_OPTS_RUN)
        return rc;
    return check_outputs(&p);
}

bool cz_opts_given(const cz_opts_spec *spec, const cz_opts_result_t *res, const char *name)
{
    size_t i;
    return res && find(spec, name, strlen(name), &i) && (res->given >> i & 1);
}

/* ---- help -------------------------------------------------------------------------- */

/* "(default 2; 1..16)", "(required)" ... of entry |o|, into buf. */
static void notes(const cz_opt *o, char *buf, size_t cap)
{
    char b[64] = "";
    if (o->kind == CZ_OPT_SIZE || o->kind == CZ_OPT_U64 || o->kind == CZ_OPT_DOUBLE)
        bounds_text(b, sizeof b, o);
    const char *def = o->def && o->kind != CZ_OPT_FLAG ? o->def : NULL;
    bool req = o->flags & CZ_OPT_REQUIRED;
    if (!def && !b[0] && !req) {
        buf[0] = '\0';
        return;
    }
    snprintf(buf, cap, " (%s%s%s%s%s%s)", req ? "required" : "", req && (def || b[0]) ? "; " : "",
             def ? "default " : "", def ? def : "", def && b[0] ? "; " : "", b);
}

enum { HELP_COL = 28, HELP_WIDTH = 100 };

/* |text| from column HELP_COL, wrapped at HELP_WIDTH onto lines indented as much. */
static void wrap(FILE *f, const char *text)
{
    int col = HELP_COL;
    while (*text) {
        size_t word = strcspn(text, " ");
        if (col > HELP_COL && col + 1 + (int)word > HELP_WIDTH) {
            fprintf(f, "\n%-*s", HELP_COL, "");
            col = HELP_COL;
        } else if (col > HELP_COL) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", (int)word, text);
        col += (int)word;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', f);
}

static void print_option(const cz_opts_spec *s, size_t i, FILE *f)
{
    const cz_opt *o = &s->opts[i];
    char line[320], a[128], n[160];
    int len = o->letter ? snprintf(line, sizeof line, "  -%c, --%s", o->letter, o->name)
                        : snprintf(line, sizeof line, "      --%s", o->name);
    if (takes_value(o))
        len += snprintf(line + len, sizeof line - (size_t)len, " %s", arg_name(o, a, sizeof a));
    for (size_t j = i + 1; j < s->nopts && (s->opts[j].flags & CZ_OPT_ALIAS); j++)
        len += snprintf(line + len, sizeof line - (size_t)len, ", --%s", s->opts[j].name);
    notes(o, n, sizeof n);
    char text[512];
    snprintf(text, sizeof text, "%s%s", o->help ? o->help : "", n);
    if (len >= HELP_COL - 1) {
        fprintf(f, "%s\n", line);
        len = 0;
    }
    fprintf(f, "%-*s", HELP_COL, len ? line : "");
    wrap(f, text);
}

void cz_opts_usage(const cz_opts_spec *spec, FILE *f)
{
    if (spec->usage)
        fputs(spec->usage, f);
    if (spec->about)
        fputs(spec->about, f);
    fprintf(f, "\noptions:\n");
    for (size_t i = 0; i < spec->nopts; i++)
        if (!(spec->opts[i].flags & CZ_OPT_ALIAS))
            print_option(spec, i, f);
    fprintf(f, "%-*s%s\n", HELP_COL, "  -h, --help", "this help");
    if (spec->more) {
        fputc('\n', f);
        spec->more(f);
    }
}

/* ---- the table's own check --------------------------------------------------------- */

static bool bad(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool bad(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return false;
}

/* Every "--name" of |text| outside `backticks` is an option of the table (or help). */
static bool text_names_ok(const cz_opts_spec *s, const char *text, char *why, size_t cap)
{
    bool quoted = false;
    for (const char *t = text; t && *t; t++) {
        if (*t == '`')
            quoted = !quoted;
        if (quoted || t[0] != '-' || t[1] != '-' || !islower((unsigned char)t[2]) ||
            (t > text && (isalnum((unsigned char)t[-1]) || t[-1] == '-')))
            continue;
        size_t len = strspn(t + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
        size_t i;
        if (!find(s, t + 2, len, &i) && !(len == 4 && !strncmp(t + 2, "help", 4)))
            return bad(why, cap, "the help text names --%.*s, which is not an option here",
                       (int)len, t + 2);
        t += 1 + len;
    }
    return true;
}

bool cz_opts_check(const cz_opts_spec *s, char *why, size_t cap)
{
    if (s->nopts > CZ_OPTS_MAX)
        return bad(why, cap, "%zu options (at most %d)", s->nopts, CZ_OPTS_MAX);
    if (s->max_args > CZ_OPTS_MAX_ARGS || s->min_args > s->max_args ||
        (s->max_args && !s->args))
        return bad(why, cap, "bad argument counts");
    for (size_t i = 0; i < s->nopts; i++) {
        const cz_opt *o = &s->opts[i];
        size_t j;
        if (!o->name || !*o->name || !strcmp(o->name, "help"))
            return bad(why, cap, "entry %zu has no usable name", i);
        if (find(s, o->name, strlen(o->name), &j) && j != i)
            return bad(why, cap, "--%s is in the table twice", o->name);
        for (j = 0; o->letter && j < i; j++)
            if (s->opts[j].letter == o->letter)
                return bad(why, cap, "-%c is in the table twice", o->letter);
        if (o->letter == 'h')
            return bad(why, cap, "-h is --help");
        if ((o->flags & CZ_OPT_ALIAS) &&
            (i == 0 || s->opts[primary(s, i)].off != o->off ||
             s->opts[primary(s, i)].kind != o->kind))
            return bad(why, cap, "alias --%s is not after its entry", o->name);
        if (o->kind == CZ_OPT_ENUM && (!o->values || !o->values[0]))
            return bad(why, cap, "--%s: an enum without values", o->name);
        if (o->kind == CZ_OPT_CUSTOM && !o->hook)
            return bad(why, cap, "--%s: a custom kind without a hook", o->name);
        if (!(o->flags & CZ_OPT_ALIAS) && !o->help)
            return bad(why, cap, "--%s has no help line", o->name);
    }
    for (size_t r = 0; r < s->nrules; r++) {
        const cz_opt_rule *rule = &s->rules[r];
        size_t n = 0, j;
        for (; rule->names[n]; n++)
            if (!find(s, rule->names[n], strlen(rule->names[n]), &j))
                return bad(why, cap, "rule %zu names --%s, not an option", r, rule->names[n]);
        if (rule->unless && !find(s, rule->unless, strlen(rule->unless), &j))
            return bad(why, cap, "rule %zu: unless --%s is not an option", r, rule->unless);
        if (n < (rule->kind == CZ_RULE_REQUIRED ? 1u : 2u))
            return bad(why, cap, "rule %zu names too few options", r);
    }
    return text_names_ok(s, s->usage, why, cap) && text_names_ok(s, s->about, why, cap);
}
