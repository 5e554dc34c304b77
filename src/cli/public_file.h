/*
 * cli/public_file.h — the public-inputs file the CLI reads and writes.
 *
 * Text, one field element per line as a 0x-prefixed big-endian hex integer
 * (decimal is accepted on input); ONE is not listed. A multi-partition proof
 * has one block per partition, blocks separated by one empty line. Lines
 * starting with '#' are comments. Field elements go through cuzk.h
 * (cz_fr_repr_parse, cz_fr_repr_format): the CLI holds them as reprs.
 */
#ifndef CUZK_CLI_PUBLIC_FILE_H
#define CUZK_CLI_PUBLIC_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"

/*
 * Write |blocks| blocks of |per_block| inputs, each a 32-byte little-endian
 * repr (the API's public inputs, cz_prover_public_inputs). CZ_EIO with a
 * message on failure; CZ_EINVAL for a repr that is not a field element.
 */
int cz_public_write(cz_ctx_t *ctx, const char *path, const uint8_t *reprs, size_t blocks,
                    size_t per_block);
/*
 * Read a file; *reprs (caller frees with free) holds *blocks x *per_block
 * 32-byte reprs. Every block must have the same length. CZ_EIO / CZ_EFORMAT
 * name the line.
 */
int cz_public_read(cz_ctx_t *ctx, const char *path, uint8_t **reprs, size_t *blocks,
                   size_t *per_block);

#endif /* CUZK_CLI_PUBLIC_FILE_H */
