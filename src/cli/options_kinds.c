/*
 * cli/options_kinds.c — the kinds of option values every command shares
 * (cli/options.h): a byte size, a number, seconds, one of a list, a sector
 * size, 32 bytes in hex, a registered proof; each parsed and checked once,
 * its refusal worded once.
 */
#include "cli/options_int.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cuzk.h"
#include "core/bytes.h"
#include "core/hex.h"
#include "kinds/porep/porep.h"

const char *const cz_opt_backends[] = { "auto", "cpu", "cuda", NULL };

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
    if (end[0] == '^') { /* 2^20 */
        if (!isdigit((unsigned char)end[1]))
            return false;
        unsigned long long e = strtoull(end + 1, &end, 10);
        if (v != 2 || e > 62)
            return false;
        v = 1ull << e;
    } else if (end[0] == 'K' || end[0] == 'M' || end[0] == 'G') { /* 4K, 64Mi, 1G */
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
    static const struct {
        uint64_t bytes;
        const char *name;
    } sizes[] = {
        { 2048, "2KiB" },         { 8ull << 20, "8MiB" },   { 512ull << 20, "512MiB" },
        { 32ull << 30, "32GiB" }, { 64ull << 30, "64GiB" },
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
        return snprintf(why, cap,
                        "is not a StackedDrg registered proof (e.g. "
                        "StackedDrg32GiBV1_1, StackedDrg32GiBV1)"),
               false;
    *(const cz_porep_proof_t **)field = p;
    return true;
}

/* "(0..1024)", "(>= 1)", "" into buf: the bounds of a numeric entry. */
void cz__opt_bounds_text(char *buf, size_t cap, const cz_opt *o)
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
    cz__opt_bounds_text(b, sizeof b, o);
    snprintf(why, cap, "is out of range (%s)", b);
    return false;
}

void cz__opt_join_values(char *buf, size_t cap, const char *const *v, const char *sep,
                         const char *last)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; v && v[i]; i++) { /* an enum without values (a table's slip) lists none */
        const char *s = i == 0 ? "" : v[i + 1] ? sep : last;
        n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", s, v[i]);
        if (n >= cap)
            break;
    }
}

bool cz__opt_set_value(const cz_opt *o, void *opts, const char *text, char *why, size_t cap)
{
    void *p = (char *)opts + o->off;
    switch (o->kind) {
    case CZ_OPT_FLAG: *(bool *)p = true; return true;
    case CZ_OPT_STRING:
    case CZ_OPT_OUTPUT:
    case CZ_OPT_OUTDIR: *(const char **)p = text; return true;
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
            cz__opt_join_values(list, sizeof list, o->values, ", ", " or ");
            snprintf(why, cap, "is not %s%s", o->values && o->values[1] ? "one of " : "", list);
        }
        return false;
    case CZ_OPT_SECTOR: {
        uint64_t bytes;
        if (cz_sector_size_parse(text, &bytes, NULL))
            return snprintf(why, cap,
                            "is not a sector size (2KiB, 8MiB, 512MiB, 32GiB or "
                            "64GiB)"),
                   false;
        *(uint64_t *)p = bytes;
        return true;
    }
    case CZ_OPT_BYTES:
        if (!cz_parse_bytes(text, (size_t *)p))
            return snprintf(why, cap, "is not a byte count (e.g. 1024, 512MiB, 22GiB)"), false;
        return true;
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
