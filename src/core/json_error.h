/*
 * core/json_error.h — a jansson parse error, told without the text that
 * was being parsed.
 *
 * jansson's json_error_t.text ends in " near '<the bytes at the error>'".
 * For a file a client names (cuzkd's input_path: a C1, a PoSt or snap
 * request) that would echo the file's content back to the client — any
 * file the daemon can read, JSON or not. Every parser of such input words
 * its error through cz_json_error_what: what went wrong ("invalid token",
 * "unexpected newline", "duplicate object key"), and the caller adds the
 * line and column (json_error_t.line / .column).
 *
 * Header-only (callers include <jansson.h>); pure, reentrant.
 */
#ifndef CUZK_CORE_JSON_ERROR_H
#define CUZK_CORE_JSON_ERROR_H

#include <stdio.h>
#include <string.h>

/* |e|'s message less any " near '...'" into buf (cap > 0); returns buf. */
static inline const char *cz_json_error_what(const json_error_t *e, char *buf, size_t cap)
{
    const char *near = strstr(e->text, " near ");
    int n = near ? (int)(near - e->text) : (int)strlen(e->text);
    snprintf(buf, cap, "%.*s", n, e->text);
    return buf;
}

#endif /* CUZK_CORE_JSON_ERROR_H */
