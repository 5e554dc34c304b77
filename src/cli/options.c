/*
 * cli/options.c — the option tables' parser (cli/options.h): argv into a
 * command's options struct, the rules across options, the output paths;
 * one exact message for every usage error. The help and the tables' own
 * check are options_help.c, the value kinds options_kinds.c.
 */
#include "cli/options_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* The entry an alias names: the nearest entry before it that is not an alias. */
size_t cz__opt_primary(const cz_opts_spec *s, size_t i)
{
    while (i > 0 && (s->opts[i].flags & CZ_OPT_ALIAS))
        i--;
    return i;
}

const cz_opt *cz__opt_find(const cz_opts_spec *s, const char *name, size_t len, size_t *idx)
{
    for (size_t i = 0; i < s->nopts; i++)
        if (strlen(s->opts[i].name) == len && !strncmp(s->opts[i].name, name, len)) {
            *idx = i;
            return &s->opts[i];
        }
    return NULL;
}

const char *cz__opt_arg_name(const cz_opt *o, char *buf, size_t cap)
{
    if (o->arg)
        return o->arg;
    switch (o->kind) {
    case CZ_OPT_ENUM: cz__opt_join_values(buf, cap, o->values, "|", "|"); return buf;
    case CZ_OPT_SIZE:
    case CZ_OPT_U64: return "N";
    case CZ_OPT_DOUBLE: return "S";
    case CZ_OPT_SECTOR: return "SIZE";
    case CZ_OPT_BYTES: return "BYTES";
    case CZ_OPT_OUTPUT: return "FILE";
    case CZ_OPT_OUTDIR: return "DIR";
    default: return "VALUE";
    }
}

typedef struct {
    const cz_opts_spec *spec;
    cz_opts_result_t *res;
    void *opts;
} parse_t;

static FILE *err_of(const cz_opts_result_t *res)
{
    return res && res->err ? res->err : stderr;
}
static FILE *out_of(const cz_opts_result_t *res)
{
    return res && res->out ? res->out : stdout;
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
        case CZ_OPT_U64:
        case CZ_OPT_SECTOR: *(uint64_t *)f = 0; break;
        case CZ_OPT_BYTES: *(size_t *)f = 0; break;
        case CZ_OPT_DOUBLE: *(double *)f = 0; break;
        case CZ_OPT_CUSTOM: memset(f, 0, o->size); break;
        default: *(const char **)f = NULL; break;
        }
        char why[160];
        if (o->def && o->kind != CZ_OPT_FLAG &&
            !cz__opt_set_value(o, p->opts, o->def, why, sizeof why)) {
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
    if (cz__opt_find(s, a, len, idx))
        return CZ_OPTS_RUN;
    if (len == 0)
        return fail(p, "unknown option --%s", a);
    size_t hits = 0, first = 0;
    bool same = true; /* every hit a name of one entry (its aliases): not ambiguous */
    char names[200] = "";
    for (size_t i = 0; i < s->nopts; i++)
        if (!strncmp(s->opts[i].name, a, len)) {
            size_t n = strlen(names);
            snprintf(names + n, sizeof names - n, "%s--%s", hits ? ", " : "", s->opts[i].name);
            if (!hits)
                first = i;
            same &= cz__opt_primary(s, i) == cz__opt_primary(s, first);
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
    const cz_opt *po = &p->spec->opts[cz__opt_primary(p->spec, idx)];
    p->res->given |= 1ull << cz__opt_primary(p->spec, idx);
    if (!cz__opt_takes_value(o)) {
        if (inl)
            return fail(p, "%s takes no value", shown);
        return cz__opt_set_value(po, p->opts, "", NULL, 0) ? CZ_OPTS_RUN : CZ_EXIT_FAIL;
    }
    const char *v = inl;
    if (!v) {
        if (*i + 1 >= argc)
            return fail(p, "%s needs a value", shown);
        v = argv[++*i];
    }
    char why[192];
    if (!cz__opt_set_value(po, p->opts, v, why, sizeof why))
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
    return cz__opt_find(p->spec, name, strlen(name), &i) && (p->res->given >> i & 1);
}

/* "--name ARG" of a long name, for messages. */
static const char *shown_with_arg(const cz_opts_spec *s, const char *name, char *buf, size_t cap)
{
    size_t i;
    char a[128];
    const cz_opt *o = cz__opt_find(s, name, strlen(name), &i);
    if (o && cz__opt_takes_value(o))
        snprintf(buf, cap, "--%s %s", name, cz__opt_arg_name(o, a, sizeof a));
    else
        snprintf(buf, cap, "--%s", name);
    return buf;
}

/* "--a, --b and --c" of |names| (the given ones only when |only_given|). */
static void name_list(const parse_t *p, const char *const *names, bool only_given, const char *last,
                      char *buf, size_t cap)
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
                                i == 0       ? ""
                                : i + 1 == n ? last
                                             : ", ",
                                pick[i]);
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
                                        "%s%s",
                                        i == 0       ? ""
                                        : i + 1 == n ? " or "
                                                     : ", ",
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
                if (!cz__opt_takes_value(o) && a[2])
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
    return res && cz__opt_find(spec, name, strlen(name), &i) && (res->given >> i & 1);
}
