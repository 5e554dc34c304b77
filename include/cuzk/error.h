/*
 * cuzk/error.h — error codes.
 *
 * Every fallible cuzk function returns an int: 0 (CZ_OK) on success or one
 * of the negative CZ_E* codes below. The specifics ("params: h count 1023 !=
 * domain-1 4095") come back in the caller's cz_error_t (cuzk.h); inside the
 * library they travel in a cz_ctx_t (src/core/ctx.h, private). One table (CZ_ERRNO_MAP) gives the enum, cz_strerror()
 * and cz_err_name(), so they cannot drift apart.
 */
#ifndef CUZK_ERROR_H
#define CUZK_ERROR_H

#include "cuzk/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, value, description) */
/* laid out by hand: */
/* clang-format off */
#define CZ_ERRNO_MAP(X)                                                     \
    X(OK,        0,  "success")                                             \
    X(INVAL,    -1,  "invalid argument")                                    \
    X(NOMEM,    -2,  "out of memory")                                       \
    X(IO,       -3,  "input/output error")                                  \
    X(FORMAT,   -4,  "malformed or corrupt data")                           \
    X(MISMATCH, -5,  "sizes or shapes do not match")                        \
    X(RANGE,    -6,  "value out of range")                                  \
    X(UNSAT,    -7,  "constraint not satisfied")                            \
    X(VERIFY,   -8,  "proof does not verify")                               \
    X(DEVICE,   -9,  "device (GPU) error")                                  \
    X(UNAVAIL,  -10, "not available in this build or on this machine")      \
    X(CANCELED, -11, "canceled")                                            \
    X(BUSY,     -12, "resource busy")                                       \
    X(NOTFOUND, -13, "not found")                                           \
    X(INTERNAL, -14, "internal error (a bug in cuzk)")
/* clang-format on */

enum {
#define CZ__ERR_ENUM(name, value, desc) CZ_E##name = value,
    CZ_ERRNO_MAP(CZ__ERR_ENUM)
#undef CZ__ERR_ENUM
};
#define CZ_OK CZ_EOK

/*
 * The number of codes in the table, CZ_OK included: the codes are 0 down to
 * -(CZ_E_COUNT - 1), so a per-code array is `x[CZ_E_COUNT]` indexed by -code.
 */
enum {
#define CZ__ERR_ONE(name, value, desc) +1
    CZ_E_COUNT = 0 CZ_ERRNO_MAP(CZ__ERR_ONE)
#undef CZ__ERR_ONE
};

/* Description of |code| ("invalid argument"); never NULL. Thread-safe. */
CZ_EXTERN const char *cz_strerror(int code);
/* Symbolic name of |code| ("CZ_EINVAL"); never NULL. Thread-safe. */
CZ_EXTERN const char *cz_err_name(int code);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_ERROR_H */
