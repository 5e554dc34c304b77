/*
 * daemon/lift.c — the HTTP body's "input" string taken out before jansson
 * parses the body (see daemon/jsonio.h cz_json_lift_input). jansson would
 * copy a tens-of-MB C1 twice (its lexer saves every character of a token,
 * then unescapes it into the string); this decodes it once, from the body
 * straight into the buffer the kind will parse, and leaves jansson a body
 * whose input is "" — the same length, so every line and column jansson
 * reports is where the client wrote it, and the key is still there for
 * its duplicate and presence checks.
 *
 * The decoder takes only what jansson takes the same way: strict UTF-8
 * (no overlongs, no encoded surrogates, nothing past U+10FFFF), no control
 * characters, the eight one-letter escapes and \uXXXX (surrogate pairs
 * joined; \u0000 and lone surrogates are left to jansson, which refuses
 * them with its own message). Anything else leaves the body as sent.
 */
#include "daemon/jsonio.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *p, *end;
} scan_t;

static void ws(scan_t *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

/* Past the string at s->p (its opening quote); false when it does not end. */
static bool skip_string(scan_t *s)
{
    if (s->p >= s->end || *s->p != '"')
        return false;
    for (s->p++; s->p < s->end; s->p++) {
        if (*s->p == '"') {
            s->p++;
            return true;
        }
        if (*s->p == '\\' && ++s->p == s->end)
            return false;
    }
    return false;
}

/* Past the value at s->p: a string, an object or array (brackets counted, strings
 * skipped), or a scalar (up to its delimiter: jansson checks it). */
static bool skip_value(scan_t *s)
{
    if (s->p >= s->end)
        return false;
    if (*s->p == '"')
        return skip_string(s);
    if (*s->p == '{' || *s->p == '[') {
        int depth = 0;
        while (s->p < s->end) {
            char c = *s->p;
            if (c == '"') {
                if (!skip_string(s))
                    return false;
                continue;
            }
            depth += c == '{' || c == '[';
            depth -= c == '}' || c == ']';
            s->p++;
            if (depth == 0)
                return true;
        }
        return false;
    }
    while (s->p < s->end && !strchr(",}] \t\n\r", *s->p))
        s->p++;
    return true;
}

static int hex4(const unsigned char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int c = p[i], d = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t utf8_put(unsigned char *o, long cp)
{
    if (cp < 0x80)
        return o[0] = (unsigned char)cp, 1;
    if (cp < 0x800)
        return o[0] = (unsigned char)(0xC0 | cp >> 6), o[1] = (unsigned char)(0x80 | (cp & 0x3F)),
               2;
    if (cp < 0x10000)
        return o[0] = (unsigned char)(0xE0 | cp >> 12),
               o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F)),
               o[2] = (unsigned char)(0x80 | (cp & 0x3F)), 3;
    return o[0] = (unsigned char)(0xF0 | cp >> 18),
           o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F)),
           o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F)),
           o[3] = (unsigned char)(0x80 | (cp & 0x3F)), 4;
}

/* The length of the strict UTF-8 sequence at p (< end), 0 when it is not one. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0];
    size_t n = c >= 0xC2 && c <= 0xDF   ? 2
               : c >= 0xE0 && c <= 0xEF ? 3
               : c >= 0xF0 && c <= 0xF4 ? 4
                                        : 0;
    if (!n || (size_t)(end - p) < n)
        return 0;
    unsigned lo = 0x80, hi = 0xBF; /* the second byte's range: no overlong, surrogate, > U+10FFFF */
    if (c == 0xE0)
        lo = 0xA0;
    else if (c == 0xED)
        hi = 0x9F;
    else if (c == 0xF0)
        lo = 0x90;
    else if (c == 0xF4)
        hi = 0x8F;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return n;
}

/* The string between |p| and |end| (its quotes excluded) decoded into |o| (room for
 * end - p bytes); its length, or (size_t)-1 for what is left to jansson. */
static size_t decode(const unsigned char *p, const unsigned char *end, unsigned char *o)
{
    unsigned char *start = o;
    while (p < end) {
        unsigned c = *p;
        if (c >= 0x20 && c < 0x80 && c != '\\') {
            *o++ = (unsigned char)c;
            p++;
            continue;
        }
        if (c >= 0x80) {
            size_t n = utf8_len(p, end);
            if (!n)
                return (size_t)-1;
            memcpy(o, p, n);
            o += n;
            p += n;
            continue;
        }
        if (c != '\\' || end - p < 2)
            return (size_t)-1; /* a control character, or a torn escape */
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *k = memchr(from, p[1], sizeof from - 1);
        if (k) {
            *o++ = (unsigned char)to[k - from];
            p += 2;
            continue;
        }
        if (p[1] != 'u' || end - p < 6)
            return (size_t)-1;
        long cp = hex4(p + 2);
        p += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
            long lo = hex4(p + 2);
            if (lo < 0xDC00 || lo > 0xDFFF)
                return (size_t)-1;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            p += 6;
        } else if (cp <= 0 || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return (size_t)-1; /* \u0000, a bad digit, a lone surrogate: jansson's words */
        }
        o += utf8_put(o, cp); /* never longer than the escape it replaces */
    }
    return (size_t)(o - start);
}

bool cz_json_lift_input(char *body, size_t len, char **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    scan_t s = { body, body + len };
    ws(&s);
    if (s.p == s.end || *s.p++ != '{')
        return false;
    for (;;) {
        ws(&s);
        const char *key = s.p;
        if (!skip_string(&s))
            return false;
        bool is_input = s.p - key == 7 && !memcmp(key, "\"input\"", 7);
        ws(&s);
        if (s.p == s.end || *s.p++ != ':')
            return false;
        ws(&s);
        char *value = (char *)s.p;
        if (!skip_value(&s))
            return false;
        if (is_input) {
            if (*value != '"')
                return false;
            size_t n = (size_t)(s.p - value); /* with both quotes */
            unsigned char *buf = malloc(n - 1);
            size_t got = buf ? decode((unsigned char *)value + 1, (unsigned char *)value + n - 1,
                                      buf)
                             : (size_t)-1;
            if (got == (size_t)-1) {
                free(buf);
                return false;
            }
            buf[got] = '\0';
            memset(value + 2, ' ', n - 2); /* "" and blanks, where the string was */
            value[1] = '"';
            *out = (char *)buf;
            *out_len = got;
            return true;
        }
        ws(&s);
        if (s.p == s.end || *s.p != ',')
            return false;
        s.p++;
    }
}
