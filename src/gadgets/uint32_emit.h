/*
 * gadgets/uint32_emit.h — private to src/gadgets: UInt32's word-at-a-time
 * direct emission (uint32_emit.c). Each returns true when it emitted the
 * whole word (the cs emits, a window fit, the word has no case that needs
 * the per-bit path); false when it wrote nothing and the caller must run
 * the per-bit gadget, which is always right. Outputs may alias inputs.
 */
#ifndef CUZK_GADGETS_UINT32_EMIT_H
#define CUZK_GADGETS_UINT32_EMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "gadgets/uint32.h"

/* UInt32::xor. */
bool cz__u32_xor_emit(cz_cs_t *cs, cz_u32_t *out, const cz_u32_t *a, const cz_u32_t *b);
/* UInt32::sha256_maj (maj) or sha256_ch of three words; |value| the result's. */
bool cz__u32_triop_emit(cz_cs_t *cs, cz_u32_t *out, const cz_u32_t *a, const cz_u32_t *b,
                        const cz_u32_t *c, bool maj, uint32_t value);
/* |n| (<= 64) AllocatedBit::alloc of the bits of |value|, least significant first. */
bool cz__bits_alloc_emit(cz_cs_t *cs, cz_bool_t *out, unsigned n, uint64_t value);

#endif /* CUZK_GADGETS_UINT32_EMIT_H */
