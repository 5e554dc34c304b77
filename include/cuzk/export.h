/*
 * cuzk/export.h — CZ_EXTERN, the one mark of an exported function.
 *
 * libcuzk is compiled with -fvisibility=hidden: a function is in the
 * shared library's dynamic symbol table only if its declaration in a
 * public header carries CZ_EXTERN. Everything else, internal cz_ and cz__
 * functions and the bundled blst, stays private (tests/api checks it with
 * nm -D).
 */
#ifndef CUZK_EXPORT_H
#define CUZK_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define CZ_EXTERN extern __attribute__((visibility("default")))
#else
#define CZ_EXTERN extern
#endif

#endif /* CUZK_EXPORT_H */
