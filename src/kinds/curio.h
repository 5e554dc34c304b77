/*
 * kinds/curio.h — what the kinds' Curio mappings share (kinds/kinds.h
 * cz_kind_curio_t.map): standard base64 (Go's encoding/json writes []byte
 * so: PoRep's C1 wrapper), a UTF-8 check, vanilla_proofs as pointer / length arrays, and
 * the refusal of a vanilla_proof (field 10) sent to a kind that reads
 * vanilla_proofs (field 11). Pure functions; thread-safe.
 */
#ifndef CUZK_KINDS_CURIO_H
#define CUZK_KINDS_CURIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kinds/kinds.h"

/* Standard base64 with padding (RFC 4648 section 4) of |in| into |out|
 * (room for in_len / 4 * 3); CZ_EFORMAT with *bad = the offset of the
 * first bad character (in_len: the length is not a multiple of 4). */
int cz__base64_decode(const char *in, size_t in_len, uint8_t *out, size_t *out_len, size_t *bad);

/* Whether |p| (|n| bytes) is strict UTF-8 (RFC 3629: no overlong form, no
 * surrogate, nothing above U+10FFFF), as jansson takes a string's text. */
bool cz__utf8_valid(const uint8_t *p, size_t n);

/* r->vanilla_proofs as arrays (*ptrs borrow |r|: free both arrays only). CZ_ENOMEM. */
int cz__curio_vanilla_arrays(cz_ctx_t *ctx, const cz_curio_request_t *r, uint8_t ***ptrs,
                             size_t **lens);

/* CZ_EINVAL naming both fields when r->vanilla_proof is set: |kind| (the
 * ProofKind's name) takes vanilla_proofs, |each| being what one holds. */
int cz__curio_no_single_vanilla(cz_ctx_t *ctx, const cz_curio_request_t *r, const char *kind,
                                const char *each);

#endif /* CUZK_KINDS_CURIO_H */
