/*
 * cli/cmd_params.c — `cuzk params check DIR`: is this params directory the
 * published Filecoin parameters? Every file of DIR whose name is in the
 * manifest (built in: v28, groth16/manifest.h; or --manifest FILE) is
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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "circuits/porep/stacked.h"
#include "cli/cli.h"
#include "groth16/manifest.h"

static const char USAGE[] =
    "usage: cuzk params check DIR [--manifest FILE] [--sector-size S]... [--all] [--quiet]\n"
    "  Checks the Filecoin params and vk files in DIR against the manifest's blake2b\n"
    "  digests (built in: rust-fil-proofs' v28 parameters.json; --manifest FILE reads\n"
    "  another). Expected files: those of each --sector-size S, every one with --all,\n"
    "  else every manifest file of a sector size DIR holds any file of. --quiet\n"
    "  prints only problems and the summary. A 32GiB .params file (~47 GB) takes\n"
    "  a few minutes to digest.\n"
    "  Exit 0 all good; 1 a file corrupt, unreadable or missing; 2 usage, DIR or\n"
    "  manifest unreadable.\n";

enum { MAX_SIZES = 8 };

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
    static const struct option longopts[] = {
        { "manifest", required_argument, 0, 'm' }, { "sector-size", required_argument, 0, 's' },
        { "all", no_argument, 0, 'a' },            { "quiet", no_argument, 0, 'q' },
        { "help", no_argument, 0, 'h' },           { 0, 0, 0, 0 },
    };
    const char *manifest_path = NULL;
    uint64_t sizes[MAX_SIZES];
    size_t nsizes = 0;
    bool all = false, quiet = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'm': manifest_path = optarg; break;
        case 's': {
            cz_porep_params_t p;
            if (nsizes == MAX_SIZES || cz_porep_parse_size(optarg, &sizes[nsizes]) ||
                cz_porep_params_sector(&p, sizes[nsizes])) {
                fprintf(stderr, "cuzk params check: --sector-size wants 2KiB, 8MiB, 512MiB, "
                                "32GiB or 64GiB (at most %d)\n", MAX_SIZES);
                return CZ_EXIT_USAGE;
            }
            nsizes++;
            break;
        }
        case 'a': all = true; break;
        case 'q': quiet = true; break;
        case 'h': fputs(USAGE, stdout); return CZ_EXIT_OK;
        default: fputs(USAGE, stderr); return CZ_EXIT_USAGE;
        }
    }
    if (optind + 1 != argc || (all && nsizes)) {
        fputs(USAGE, stderr);
        return CZ_EXIT_USAGE;
    }
    const char *dir = argv[optind];
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_USAGE;
    cz_manifest_t m = { 0 };
    int rc = manifest_path ? cz_manifest_load(ctx, &m, manifest_path) : cz_manifest_builtin(ctx, &m);
    DIR *d = rc == CZ_OK ? opendir(dir) : NULL;
    if (rc != CZ_OK || !d) {
        fprintf(stderr, "cuzk params check: %s\n",
                rc != CZ_OK ? cz_ctx_message(ctx) : "cannot open the directory");
        if (rc == CZ_OK)
            perror(dir);
        cz_manifest_clear(&m);
        cz_ctx_free(ctx);
        return CZ_EXIT_USAGE;
    }
    bool *present = calloc(m.count ? m.count : 1, sizeof *present);
    uint64_t held[MAX_SIZES];           /* sector sizes of the manifest files in DIR */
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
        const cz_manifest_entry_t *e = cz_manifest_find(&m, de->d_name);
        if (!e) {
            n_extra++;
            if (!quiet)
                printf("extra    %s\n", de->d_name);
            continue;
        }
        present[e - m.entries] = true;
        if (!expected_size(e->sector_size, held, nheld) && nheld < MAX_SIZES)
            held[nheld++] = e->sector_size;
        char hex[33];
        if (cz_params_digest(ctx, path, hex) != CZ_OK) {
            n_bad++;
            printf("CORRUPT  %s  unreadable: %s\n", de->d_name, cz_ctx_message(ctx));
        } else if (strcmp(hex, e->digest)) {
            n_bad++;
            printf("CORRUPT  %s  digest %s, the manifest says %s\n", de->d_name, hex, e->digest);
        } else {
            n_ok++;
            if (!quiet)
                printf("ok       %s\n", de->d_name);
        }
        fflush(stdout);
    }
    closedir(d);
    for (size_t i = 0; present && i < m.count; i++) {
        uint64_t size = m.entries[i].sector_size;
        bool expected = all || (nsizes ? expected_size(size, sizes, nsizes)
                                       : expected_size(size, held, nheld));
        if (!present[i] && expected) {
            n_missing++;
            printf("MISSING  %s\n", m.entries[i].name);
        }
    }
    printf("%zu ok, %zu corrupt, %zu missing, %zu extra (manifest: %s, %zu files)\n", n_ok, n_bad,
           n_missing, n_extra, manifest_path ? manifest_path : "built-in v28", m.count);
    int exit_code = !present ? CZ_EXIT_USAGE : n_bad || n_missing ? CZ_EXIT_FAIL : CZ_EXIT_OK;
    free(present);
    cz_manifest_clear(&m);
    cz_ctx_free(ctx);
    return exit_code;
}

int cmd_params(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "check"))
        return params_check(argc - 1, argv + 1);
    bool help = argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
    fputs(USAGE, help ? stdout : stderr);
    return help ? CZ_EXIT_OK : CZ_EXIT_USAGE;
}
