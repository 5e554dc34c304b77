/*
 * core/bytes.h — byte counts as people write them: "64MiB", "5GiB", "1024",
 * "2^20" (K, M, G, T and KiB .. TiB are powers of 1024; B or nothing:
 * bytes). For the daemon's config and the CLI's options. Pure, thread-safe.
 */
#ifndef CUZK_CORE_BYTES_H
#define CUZK_CORE_BYTES_H

#include <stdbool.h>
#include <stddef.h>

/* |s| -> *out; false (and *out untouched) on junk, a sign, or overflow. */
bool cz_parse_bytes(const char *s, size_t *out);

#endif /* CUZK_CORE_BYTES_H */
