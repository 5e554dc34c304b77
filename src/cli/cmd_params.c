/*
 * cli/cmd_params.c — `cuzk params check DIR`: is this params directory the
 * published Filecoin parameters? Every file of DIR whose name is in the
 * manifest (built in: v28, cuzk.h cz_params_manifest_load; or --manifest FILE) is
 * digested (BLAKE2b-512, first 16 bytes, as rust-fil-proofs' paramfetch
 * does) and compared. One line per file:
 *
 *   ok       NAME
 *   CORRUPT  NAME  digest D, the manifest says M    (or: unreadable: why)
 *   MISSING  NAME                                    (expected, not in DIR)
 *   extra    NAME                                    (not in the manifest)
 *
 * Which files are expected: those of --sector-size S (repeatable), or with
 * --all every manifest file, or by default every manifest file of a sector
 * size that DIR holds at least one file of (a 32GiB provider's directory
 * then needs all 32GiB PoRep, PoSt and update files, and nothing of 2KiB).
 * Exit 0: every expected file present and every named file matches; 1: a
 * file is corrupt, unreadable or missing; 2: usage, DIR or the manifest
 * unreadable. Extra files (.meta, caches, test params) never fail.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cuzk.h"

enum { MAX_SIZES = 8 };

/* --sector-size S, repeatable: the sizes expected. */
typedef struct {
    uint64_t bytes[MAX_SIZES];
    size_t n;
} size_list_t;

typedef struct {
    const char *manifest;
    size_list_t sizes;
    bool all, quiet;
} check_opts_t;

static bool add_size(void *field, const char *text, char *why, size_t cap)
{
    size_list_t *l = field;
    if (cz_sector_size_parse(text, &l->bytes[l->n < MAX_SIZES ? l->n : 0], NULL))
        return snprintf(why, cap, "is not a sector size (2KiB, 8MiB, 512MiB, 32GiB or 64GiB)"),
               false;
    if (l->n == MAX_SIZES)
        return snprintf(why, cap, "is one sector size too many (at most %d)", MAX_SIZES), false;
    l->n++;
    return true;
}

static const cz_opt CHECK_OPTS[] = {
    { "manifest", 0, CZ_O_STRING(check_opts_t, manifest), .arg = "FILE",
      .help = "another parameters.json (default: the built-in v28 one)" },
    { "sector-size", 0, CZ_O_CUSTOM(check_opts_t, sizes), .hook = add_size, .arg = "S",
      .help = "expect the files of S (repeatable; default: the sizes DIR holds files of)" },
    { "all", 0, CZ_O_FLAG(check_opts_t, all), .help = "expect every file of the manifest" },
    { "quiet", 0, CZ_O_FLAG(check_opts_t, quiet), .help = "print only problems and the summary" },
};
static const cz_opt_rule CHECK_RULES[] = { CZ_RULE(EXCLUSIVE, "all", "sector-size") };
static const cz_opts_spec CHECK_SPEC = {
    .cmd = "cuzk params check",
    .usage =
        "usage: cuzk params check DIR [--manifest FILE] [--sector-size S]... [--all] [--quiet]\n",
    .about = "  Checks the Filecoin params and vk files in DIR against the manifest's blake2b\n"
             "  digests (rust-fil-proofs' v28 parameters.json built in). Expected files: those\n"
             "  of each --sector-size S, every one with --all, else every manifest file of a\n"
             "  sector size DIR holds any file of. A 32GiB .params file (~47 GB) takes a few\n"
             "  minutes to digest.\n"
             "  Exit 0 all good; 1 a file corrupt, unreadable or missing; 2 usage, DIR or\n"
             "  manifest unreadable.\n",
    CZ_OPTS(CHECK_OPTS),
    CZ_RULES(CHECK_RULES),
    .args = "DIR",
    .min_args = 1,
    .max_args = 1,
};

/* Is |size| among the sector sizes expected? */
static bool expected_size(uint64_t size, const uint64_t *sizes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (sizes[i] == size)
            return true;
    return false;
}

static int params_check(int argc, char **argv)
{
    check_opts_t o;
    cz_opts_result_t r = { 0 };
    int go = cz_opts_parse(&CHECK_SPEC, &o, argc, argv, &r);
    if (go != CZ_OPTS_RUN)
        return go;
    const char *manifest_path = o.manifest;
    const uint64_t *sizes = o.sizes.bytes;
    size_t nsizes = o.sizes.n;
    bool all = o.all, quiet = o.quiet;
    const char *dir = r.args[0];
    cz_params_manifest_t *m = NULL;
    cz_error_t err;
    int rc = cz_params_manifest_load(&m, manifest_path, &err);
    DIR *d = rc == CZ_OK ? opendir(dir) : NULL;
    if (rc != CZ_OK || !d) {
        fprintf(stderr, "cuzk params check: %s\n",
                rc != CZ_OK ? err.message : "cannot open the directory");
        if (rc == CZ_OK)
            perror(dir);
        cz_params_manifest_free(m);
        return CZ_EXIT_USAGE;
    }
    const size_t count = cz_params_manifest_count(m);
    bool *present = calloc(count ? count : 1, sizeof *present);
    uint64_t held[MAX_SIZES]; /* sector sizes of the manifest files in DIR */
    size_t nheld = 0;
    size_t n_ok = 0, n_bad = 0, n_missing = 0, n_extra = 0;
    struct dirent *de;
    char path[4096];
    while (present && (de = readdir(d))) {
        struct stat st;
        if (de->d_name[0] == '.' ||
            (size_t)snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >= sizeof path ||
            stat(path, &st) || !S_ISREG(st.st_mode))
            continue;
        long at = cz_params_manifest_find(m, de->d_name);
        cz_params_manifest_entry_t e;
        if (at < 0 || cz_params_manifest_entry(m, (size_t)at, &e) != CZ_OK) {
            n_extra++;
            if (!quiet)
                printf("extra    %s\n", de->d_name);
            continue;
        }
        present[at] = true;
        if (!expected_size(e.sector_size, held, nheld) && nheld < MAX_SIZES)
            held[nheld++] = e.sector_size;
        char hex[33];
        if (cz_params_file_digest(path, hex, &err) != CZ_OK) {
            n_bad++;
            printf("CORRUPT  %s  unreadable: %s\n", de->d_name, err.message);
        } else if (strcmp(hex, e.digest)) {
            n_bad++;
            printf("CORRUPT  %s  digest %s, the manifest says %s\n", de->d_name, hex, e.digest);
        } else {
            n_ok++;
            if (!quiet)
                printf("ok       %s\n", de->d_name);
        }
        fflush(stdout);
    }
    closedir(d);
    for (size_t i = 0; present && i < count; i++) {
        cz_params_manifest_entry_t e;
        cz_params_manifest_entry(m, i, &e);
        uint64_t size = e.sector_size;
        bool expected = all || (nsizes ? expected_size(size, sizes, nsizes)
                                       : expected_size(size, held, nheld));
        if (!present[i] && expected) {
            n_missing++;
            printf("MISSING  %s\n", e.name);
        }
    }
    printf("%zu ok, %zu corrupt, %zu missing, %zu extra (manifest: %s, %zu files)\n", n_ok, n_bad,
           n_missing, n_extra, manifest_path ? manifest_path : "built-in v28", count);
    int exit_code = !present ? CZ_EXIT_USAGE : n_bad || n_missing ? CZ_EXIT_FAIL : CZ_EXIT_OK;
    free(present);
    cz_params_manifest_free(m);
    return exit_code;
}

int cmd_params(int argc, char **argv)
{
    static const cz_cli_command sub[] = {
        { "check", params_check, "blake2b digests of DIR's params against parameters.json" },
    };
    return cz_cli_dispatch("cuzk params", sub, sizeof sub / sizeof sub[0],
                           "usage: cuzk params check DIR ...   (cuzk params check --help)", argc,
                           argv);
}
