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
 */
#ifndef CUZK_API_INTERNAL_H
#define CUZK_API_INTERNAL_H

#include "cuzk.h"
#include "core/fault.h"

/*
 * cz_prover_new with a fault object (borrowed: it must outlive the prover;
 * NULL: none, exactly cz_prover_new). Errors as cz_prover_new.
 */
int cz__prover_new_with_fault(cz_prover_t **out, const cz_prover_config_t *cfg, cz_fault_t *fault,
                              cz_error_t *err);

#endif /* CUZK_API_INTERNAL_H */
