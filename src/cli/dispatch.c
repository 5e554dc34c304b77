/*
 * cli/dispatch.c — a command table's dispatch (cli/cli.h cz_cli_dispatch):
 * `cuzk`'s top level (main.c) and the commands with subcommands (porep,
 * post, snap, ...).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int cz_cli_dispatch(const char *prog, const cz_cli_command *table, size_t n, const char *usage,
                    int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : NULL;
    bool help = name && (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help"));
    if (name && !help) {
        for (size_t i = 0; i < n; i++)
            if (!strcmp(table[i].name, name))
                return table[i].fn(argc - 1, argv + 1);
        fprintf(stderr, "%s: unknown command '%s'\n", prog, name);
    }
    FILE *out = help ? stdout : stderr;
    fprintf(out, "%s\n\ncommands:\n", usage);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "  %-12s %s\n", table[i].name, table[i].summary);
    return help ? CZ_EXIT_OK : CZ_EXIT_USAGE;
}
