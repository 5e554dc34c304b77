/*
 * cs/cs_names.c — namespaces, constraint names and the sticky error.
 *
 * Names matter only in CZ_CS_CHECK, where the first unsatisfied constraint
 * is reported by its path, as bellpepper's TestConstraintSystem does with
 * `which_is_unsatisfied` ("ns/path/name"). Elsewhere a push or pop is one
 * counter update and no string is formatted.
 */
#include "cs/cs_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cz__cs_fail(cz_cs_t *cs, int code, const char *fmt, ...)
{
    if (cs->err)
        return cs->err;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cs->err = code;
    return cz_fail(cs->ctx, code, "cs: %s", msg);
}

/* Make room for |extra| more characters (plus the NUL) in the path. */
static int path_reserve(cz_cs_t *cs, size_t extra)
{
    size_t need = cs->path_len + extra + 1;
    if (need <= cs->path_cap)
        return CZ_OK;
    size_t cap = cs->path_cap ? cs->path_cap : 128;
    while (cap < need)
        cap *= 2;
    char *p = realloc(cs->path, cap);
    if (!p)
        return cz__cs_fail(cs, CZ_ENOMEM, "namespace path of %zu bytes", cap);
    cs->path = p;
    cs->path_cap = cap;
    return CZ_OK;
}

/* CHECK: append "/" (unless at the root) and the formatted name. */
static int path_push(cz_cs_t *cs, const char *fmt, va_list ap)
{
    if (cs->depth >= cs->ns_cap) {
        size_t cap = cs->ns_cap ? cs->ns_cap * 2 : 16;
        size_t *off = realloc(cs->ns_off, cap * sizeof *off);
        if (!off)
            return cz__cs_fail(cs, CZ_ENOMEM, "namespace stack of %zu", cap);
        cs->ns_off = off;
        cs->ns_cap = cap;
    }
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return cz__cs_fail(cs, CZ_EINVAL, "namespace name format '%s'", fmt);
    int rc = path_reserve(cs, (size_t)n + 1);
    if (rc)
        return rc;
    cs->ns_off[cs->depth] = cs->path_len;
    if (cs->path_len)
        cs->path[cs->path_len++] = '/';
    vsnprintf(cs->path + cs->path_len, (size_t)n + 1, fmt, ap);
    cs->path_len += (size_t)n;
    cs->path[cs->path_len] = '\0';
    return CZ_OK;
}

static int cs_push(cz_cs_t *cs, const char *fmt, va_list ap)
{
    if (cs->err)
        return cs->err;
    if (cs->finished)
        return cz__cs_fail(cs, CZ_EINVAL, "push_namespace after finish");
    if (cs->mode == CZ_CS_CHECK) {
        int rc = path_push(cs, fmt, ap);
        if (rc)
            return rc;
    }
    cs->depth++;
    return CZ_OK;
}

int cz_cs_push(cz_cs_t *cs, const char *name)
{
    if (cs->mode != CZ_CS_CHECK && !cs->err && !cs->finished) {
        cs->depth++; /* the common path: no formatting at all */
        return CZ_OK;
    }
    return cz_cs_pushf(cs, "%s", name ? name : "(unnamed)");
}

int cz_cs_pushf(cz_cs_t *cs, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = cs_push(cs, fmt, ap);
    va_end(ap);
    return rc;
}

int cz_cs_pop(cz_cs_t *cs)
{
    if (cs->err)
        return cs->err;
    if (cs->depth == 0)
        return cz__cs_fail(cs, CZ_EINVAL, "pop_namespace without a matching push");
    cs->depth--;
    if (cs->mode == CZ_CS_CHECK) {
        cs->path_len = cs->ns_off[cs->depth];
        cs->path[cs->path_len] = '\0';
    }
    return CZ_OK;
}

int cz__cs_record_unsat(cz_cs_t *cs, size_t index, const char *name)
{
    if (cs->unsat)
        return CZ_OK;
    if (!name)
        name = "(unnamed)";
    size_t plen = cs->path_len, nlen = strlen(name);
    char *p = malloc(plen + 1 + nlen + 1);
    if (!p)
        return cz__cs_fail(cs, CZ_ENOMEM, "unsatisfied constraint name");
    size_t k = 0;
    if (plen) {
        memcpy(p, cs->path, plen);
        k = plen;
        p[k++] = '/';
    }
    memcpy(p + k, name, nlen + 1);
    cs->unsat = true;
    cs->unsat_index = index;
    cs->unsat_path = p;
    return CZ_OK;
}

void cz__cs_names_free(cz_cs_t *cs)
{
    free(cs->path);
    free(cs->ns_off);
    free(cs->unsat_path);
    cs->path = NULL;
    cs->ns_off = NULL;
    cs->unsat_path = NULL;
}
