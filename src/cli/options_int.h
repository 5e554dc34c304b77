/*
 * cli/options_int.h — private to cli/options*.c: the value kinds
 * (options_kinds.c) and the table look-ups the parser (options.c) and the
 * help printer and self-check (options_help.c) share.
 */
#ifndef CUZK_CLI_OPTIONS_INT_H
#define CUZK_CLI_OPTIONS_INT_H

#include "cli/options.h"

/* Store |text| as the value of |o| in the options struct |opts|. False with
 * |why| completing "--name: 'text' ..." ("is not a number"). */
bool cz__opt_set_value(const cz_opt *o, void *opts, const char *text, char *why, size_t cap);
/* "0..1024", ">= 1", "> 0" or "": the bounds of a numeric entry. */
void cz__opt_bounds_text(char *buf, size_t cap, const cz_opt *o);
/* The values joined: "a, b or c" (sep ", ", last " or "), "a|b|c". */
void cz__opt_join_values(char *buf, size_t cap, const char *const *v, const char *sep,
                         const char *last);

/* The entry named |name| (|len| bytes), exact; NULL if none (*idx: its index). */
const cz_opt *cz__opt_find(const cz_opts_spec *s, const char *name, size_t len, size_t *idx);
/* The entry alias |i| names: the nearest one before it that is not an alias. */
size_t cz__opt_primary(const cz_opts_spec *s, size_t i);
/* The value's name in help and messages: o->arg, else by kind (FILE, N, a|b). */
const char *cz__opt_arg_name(const cz_opt *o, char *buf, size_t cap);
static inline bool cz__opt_takes_value(const cz_opt *o)
{
    return o->kind != CZ_OPT_FLAG;
}

#endif /* CUZK_CLI_OPTIONS_INT_H */
