/*
 * cli/public_file.c — public-inputs files (see cli/public_file.h).
 */
#include "cli/public_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk.h"

int cz_public_write(cz_ctx_t *ctx, const char *path, const uint8_t *reprs, size_t blocks,
                    size_t per_block)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return cz_fail(ctx, CZ_EIO, "%s: %s", path, strerror(errno));
    int rc = CZ_OK;
    for (size_t b = 0; rc == CZ_OK && b < blocks; b++) {
        if (b)
            fputc('\n', f);
        for (size_t i = 0; rc == CZ_OK && i < per_block; i++) {
            char hex[80];
            cz_error_t err;
            if (cz_fr_repr_format(hex, sizeof hex, reprs + 32 * (b * per_block + i), false, &err))
                rc = cz_fail(ctx, err.code, "%s: public input %zu of block %zu: %s", path, i, b,
                             err.message);
            else
                fprintf(f, "%s\n", hex);
        }
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return rc ? rc : cz_fail(ctx, CZ_EIO, "%s: write failed: %s", path, strerror(errno));
    return rc;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

/*
 * |s| as it may be quoted in a message: at most QUOTE_MAX characters,
 * anything not printable ASCII as \xNN, "..." when cut (a binary file given
 * as the public file must not put raw bytes on the terminal).
 */
#define QUOTE_MAX 40

static const char *quoted(char out[4 * QUOTE_MAX + 4], const char *s)
{
    size_t o = 0, i = 0;
    for (; i < QUOTE_MAX && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out[o++] = (char)c;
        else
            o += (size_t)sprintf(out + o, "\\x%02x", c);
    }
    if (s[i])
        o += (size_t)sprintf(out + o, "...");
    out[o] = '\0';
    return out;
}

int cz_public_read(cz_ctx_t *ctx, const char *path, uint8_t **inputs, size_t *blocks,
                   size_t *per_block)
{
    *inputs = NULL;
    *blocks = *per_block = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return cz_fail(ctx, CZ_EIO, "%s: %s", path, strerror(errno));
    uint8_t *v = NULL;
    size_t n = 0, cap = 0, in_block = 0, nblocks = 0, width = 0, line_no = 0;
    char line[256];
    int rc = CZ_OK;
    while (rc == CZ_OK && fgets(line, sizeof line, f)) {
        line_no++;
        char *s = trim(line);
        if (*s == '#')
            continue;
        if (*s == '\0') { /* end of a block */
            if (in_block) {
                if (nblocks && in_block != width)
                    rc = cz_fail(ctx, CZ_EFORMAT, "%s:%zu: block of %zu inputs, the first had %zu",
                                 path, line_no, in_block, width);
                width = in_block;
                nblocks++;
                in_block = 0;
            }
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            uint8_t *grown = realloc(v, cap * 32);
            if (!grown) {
                rc = cz_fail(ctx, CZ_ENOMEM, "%s: out of memory", path);
                break;
            }
            v = grown;
        }
        char q[4 * QUOTE_MAX + 4];
        cz_error_t err;
        if (cz_fr_repr_parse(v + 32 * n, s, &err) != CZ_OK)
            rc = cz_fail(ctx, CZ_EFORMAT, "%s:%zu: not a field element: '%s'%s", path, line_no,
                         quoted(q, s),
                         strspn(s, "0123456789abcdefABCDEFx") == strlen(s)
                             ? ""
                             : " (the public file holds one 0x-hex element per line; is this a "
                               "binary file, such as a proof?)");
        n++;
        in_block++;
    }
    if (rc == CZ_OK && ferror(f))
        rc = cz_fail(ctx, CZ_EIO, "%s: read error", path);
    fclose(f);
    if (rc == CZ_OK && in_block) {
        if (nblocks && in_block != width)
            rc = cz_fail(ctx, CZ_EFORMAT, "%s: last block has %zu inputs, the first had %zu", path,
                         in_block, width);
        width = in_block;
        nblocks++;
    }
    if (rc) {
        free(v);
        return rc;
    }
    *inputs = v;
    *blocks = nblocks;
    *per_block = width;
    return CZ_OK;
}
