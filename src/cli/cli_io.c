/*
 * cli/cli_io.c — whole-file reads and writes for the CLI commands (proofs,
 * public inputs), and the early checks of output locations: errors name the
 * path and the cause.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

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
    return getrusage(RUSAGE_SELF, &ru) == 0 ? (size_t)ru.ru_maxrss * 1024 : 0; /* KiB on Linux */
}

/* ---- output locations -------------------------------------------------------- */

static bool output_problem(const char *who, const char *what, const char *path, const char *why,
                           const char *detail)
{
    fprintf(stderr, "%s: %s %s: %s%s%s\n", who, what, path, why, detail ? ": " : "",
            detail ? detail : "");
    return false;
}

/* The directory part of |path| ("." for a bare name, "/" for "/x"). */
static void dir_of(char *out, size_t cap, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, cap, ".");
    else if (slash == path)
        snprintf(out, cap, "/");
    else
        snprintf(out, cap, "%.*s", (int)(slash - path), path);
}

/* |dir| is an existing directory this process may create files in. */
static bool dir_usable(const char *who, const char *what, const char *path, const char *dir)
{
    struct stat st;
    char why[PATH_MAX + 64];
    if (stat(dir, &st) != 0) {
        snprintf(why, sizeof why, "directory %s", dir);
        return output_problem(who, what, path, why, strerror(errno));
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, sizeof why, "%s is not a directory", dir);
        return output_problem(who, what, path, why, NULL);
    }
    if (access(dir, W_OK | X_OK) != 0) {
        snprintf(why, sizeof why, "directory %s is not writable", dir);
        return output_problem(who, what, path, why, strerror(errno));
    }
    return true;
}

bool cz_cli_check_output(const char *who, const char *what, const char *path)
{
    if (!path)
        return true;
    if (!*path)
        return output_problem(who, what, "''", "empty path", NULL);
    size_t n = strlen(path);
    struct stat st;
    if (path[n - 1] == '/' || (stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
        return output_problem(who, what, path, "is a directory (a file name is wanted)", NULL);
    if (stat(path, &st) == 0 && access(path, W_OK) != 0)
        return output_problem(who, what, path, "not writable", strerror(errno));
    char dir[PATH_MAX];
    dir_of(dir, sizeof dir, path);
    return dir_usable(who, what, path, dir);
}

bool cz_cli_make_output_dir(const char *who, const char *what, const char *dir)
{
    if (!dir)
        return true;
    if (!*dir)
        return output_problem(who, what, "''", "empty path", NULL);
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return output_problem(who, what, dir, "path too long", NULL);
    /* mkdir -p: each prefix in turn; an existing one is fine if a directory */
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
            char why[PATH_MAX + 32];
            snprintf(why, sizeof why, "cannot create %s", buf);
            return output_problem(who, what, dir, why, strerror(errno));
        }
        *p = c;
        if (!c)
            break;
    }
    return dir_usable(who, what, dir, dir);
}
