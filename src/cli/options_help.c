/*
 * cli/options_help.c — the help of an option table (cli/options.h), printed
 * from the table the parser reads, and the table's own consistency check.
 */
#include "cli/options_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

/* "(default 2; 1..16)", "(required)" ... of entry |o|, into buf. */
static void notes(const cz_opt *o, char *buf, size_t cap)
{
    char b[64] = "";
    if (o->kind == CZ_OPT_SIZE || o->kind == CZ_OPT_U64 || o->kind == CZ_OPT_DOUBLE)
        cz__opt_bounds_text(b, sizeof b, o);
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
    if (cz__opt_takes_value(o))
        len += snprintf(line + len, sizeof line - (size_t)len, " %s",
                        cz__opt_arg_name(o, a, sizeof a));
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
        if (!cz__opt_find(s, t + 2, len, &i) && !(len == 4 && !strncmp(t + 2, "help", 4)))
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
    if (s->max_args > CZ_OPTS_MAX_ARGS || s->min_args > s->max_args || (s->max_args && !s->args))
        return bad(why, cap, "bad argument counts");
    for (size_t i = 0; i < s->nopts; i++) {
        const cz_opt *o = &s->opts[i];
        size_t j;
        if (!o->name || !*o->name || !strcmp(o->name, "help"))
            return bad(why, cap, "entry %zu has no usable name", i);
        if (cz__opt_find(s, o->name, strlen(o->name), &j) && j != i)
            return bad(why, cap, "--%s is in the table twice", o->name);
        for (j = 0; o->letter && j < i; j++)
            if (s->opts[j].letter == o->letter)
                return bad(why, cap, "-%c is in the table twice", o->letter);
        if (o->letter == 'h')
            return bad(why, cap, "-h is --help");
        if ((o->flags & CZ_OPT_ALIAS) && (i == 0 || s->opts[cz__opt_primary(s, i)].off != o->off ||
                                          s->opts[cz__opt_primary(s, i)].kind != o->kind))
            return bad(why, cap, "alias --%s is not after its entry", o->name);
        if (o->kind == CZ_OPT_ENUM && (!o->values || !o->values[0]))
            return bad(why, cap, "--%s: an enum without values", o->name);
        if (o->kind == CZ_OPT_CUSTOM && (!o->hook || !o->size))
            return bad(why, cap, "--%s: a custom kind without a hook or a size (CZ_O_CUSTOM)",
                       o->name);
        if (!(o->flags & CZ_OPT_ALIAS) && !o->help)
            return bad(why, cap, "--%s has no help line", o->name);
    }
    for (size_t r = 0; r < s->nrules; r++) {
        const cz_opt_rule *rule = &s->rules[r];
        size_t n = 0, j;
        for (; rule->names[n]; n++)
            if (!cz__opt_find(s, rule->names[n], strlen(rule->names[n]), &j))
                return bad(why, cap, "rule %zu names --%s, not an option", r, rule->names[n]);
        if (rule->unless && !cz__opt_find(s, rule->unless, strlen(rule->unless), &j))
            return bad(why, cap, "rule %zu: unless --%s is not an option", r, rule->unless);
        if (n < (rule->kind == CZ_RULE_REQUIRED ? 1u : 2u))
            return bad(why, cap, "rule %zu names too few options", r);
    }
    return text_names_ok(s, s->usage, why, cap) && text_names_ok(s, s->about, why, cap);
}
