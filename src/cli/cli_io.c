/*
 * cli/cli_io.c — whole-file reads and writes for the CLI commands (proofs,
 * public inputs): errors name the path and the cause.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int cz_cli_write_file(cz_ctx_t *ctx, const char *path, const uint8_t *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return cz_fail(ctx, CZ_EIO, "%s: %s", path, strerror(errno));
    size_t put = fwrite(data, 1, len, f);
    if (fclose(f) != 0 || put != len)
        return cz_fail(ctx, CZ_EIO, "%s: write failed: %s", path, strerror(errno));
    return CZ_OK;
}

int cz_cli_read_file(cz_ctx_t *ctx, const char *path, size_t max, uint8_t **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cz_fail(ctx, CZ_EIO, "%s: %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    int rc = buf ? CZ_OK : CZ_ENOMEM;
    while (rc == CZ_OK) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        if (cap >= max) {
            rc = cz_fail(ctx, CZ_EFORMAT, "%s: larger than %zu bytes", path, max);
            break;
        }
        uint8_t *grown = realloc(buf, cap *= 2);
        if (!grown)
            rc = CZ_ENOMEM;
        else
            buf = grown;
    }
    if (rc == CZ_OK && ferror(f))
        rc = cz_fail(ctx, CZ_EIO, "%s: read error", path);
    fclose(f);
    if (rc == CZ_ENOMEM)
        cz_fail(ctx, rc, "%s: out of memory", path);
    if (rc) {
        free(buf);
        return rc;
    }
    *data = buf;
    *len = n;
    return CZ_OK;
}

size_t cz_cli_peak_rss(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %zu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    if (kb)
        return kb * 1024;
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? (size_t)ru.ru_maxrss * 1024 : 0;   /* KiB on Linux */
}
