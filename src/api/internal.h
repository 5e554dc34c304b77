/*
 * api/internal.h — what libcuzk's own programs (cuzkd, the tests) may set
 * on a prover beyond cuzk.h. Not public API: nothing here is exported from
 * libcuzk.so (no CZ_EXTERN); these programs link the static library.
 *
 * The fault object (core/fault.h) is test machinery: cuzkd's test.fault
 * key and the tests arm one and hand it to the prover, which passes it to
 * its engine (every ctx the engine makes: synthesis, prep, device region,
 * epilogue), reaches the PREPARE site in each submit before the kind
 * prepares the job, and the PARAMS_LOAD site in each params load before the
 * file is read (api/pload.c). A program using only cuzk.h never has one.
 *
 * The kind table (kinds/kinds.h) is how cuzkd and the tests give a prover
 * kinds beyond the built-in ones (a test's toy kind); cuzk.h's
 * cz_prover_kind_* functions list them.
 */
#ifndef CUZK_API_INTERNAL_H
#define CUZK_API_INTERNAL_H

#include "cuzk.h"
#include "core/ctx.h"
#include "core/fault.h"

struct cz_kinds;

/*
 * cz_prover_new with a fault object (borrowed: it must outlive the prover;
 * NULL: none) and a kind table (kinds/kinds.h; copied, its kinds borrowed:
 * they must outlive the prover; NULL: cz_kinds_builtin(), as
 * cz_prover_new). Errors as cz_prover_new.
 */
int cz__prover_new_with(cz_prover_t **out, const cz_prover_config_t *cfg, cz_fault_t *fault,
                        const struct cz_kinds *kinds, cz_error_t *err);
/*
 * The refusal of a kind name |name| not in |kinds| (kinds/kinds.h), as
 * cz_prover_submit words it: CZ_EINVAL with "kind: 'NAME' is not a known
 * kind (known: ...)" in |ctx|. Every door that looks a kind up before the
 * prover does (the CLI's --kind) says it with this, so the same name gets
 * the same error through each. Returns CZ_EINVAL.
 */
int cz__kind_unknown(cz_ctx_t *ctx, const struct cz_kinds *kinds, const char *name);
/* The prover's kind table (its copy, for the life of |p|). Thread-safe. */
const struct cz_kinds *cz__prover_kinds(const cz_prover_t *p);

#endif /* CUZK_API_INTERNAL_H */
