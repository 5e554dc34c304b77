/*
 * core/hex.h — hexadecimal encoding of byte strings (proofs in JSON, digests,
 * 32-byte values on the command line). Pure functions, thread-safe.
 */
#ifndef CUZK_CORE_HEX_H
#define CUZK_CORE_HEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The value of hex digit |c| (either case), or -1 for another character. */
int cz_hex_digit(char c);

/* out[0 .. 2n] = lowercase hex of in[0 .. n), NUL-terminated. */
void cz_hex_encode(char *out, const uint8_t *in, size_t n);
/*
 * Decode exactly n bytes from the 2n hex digits at |hex| (either case).
 * False, with out partly written, on any other character (a NUL included).
 */
bool cz_hex_decode(uint8_t *out, const char *hex, size_t n);

#endif /* CUZK_CORE_HEX_H */
