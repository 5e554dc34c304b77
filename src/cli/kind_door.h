/*
 * cli/kind_door.h — the CLI's `--kind K`, taken from a kind table
 * (kinds/kinds.h): `cuzk prove|setup|verify --kind K ...`.
 *
 * K must be a kind of the table: any other is a usage error listing the
 * table's kinds. A kind the CLI has a pipeline of its own for (porep-c2:
 * cmd_porep.c, the PoSt kinds: cmd_post.c, snap: cmd_snap.c; private
 * pipelines with their own options, public-value checks and setup) runs
 * it. Every other kind of the table gets, with nothing to write in the
 * CLI:
 *   prove   `cuzk prove --kind K [--input FILE] [--fields JSON] --params P
 *           --proof OUT [--public PUB]`: an in-process prover made with the
 *           table proves it (cz_prover_submit of kind K), verifies it (the
 *           engine's check with the params' vk) and writes the proof and
 *           the public inputs;
 *   verify  the plain `cuzk verify --vk --proof --public` (a Groth16 proof
 *           needs no kind to be checked);
 *   setup   a usage error: test params come from `cuzk setup --circuit`
 *           or the kind's own tools.
 * `cuzk prove --help` (and setup, verify) lists the table's kinds.
 *
 * The table is the caller's: the `cuzk` tool passes cz_kinds_builtin();
 * tests/kinds/test_kinds.c passes one with a toy kind. Not thread-safe (a
 * command runs once per process).
 */
#ifndef CUZK_CLI_KIND_DOOR_H
#define CUZK_CLI_KIND_DOOR_H

#include <stdio.h>

struct cz_kinds; /* kinds/kinds.h */

/* The `cuzk` tool's table: the library's kinds (cz_kinds_builtin). */
const struct cz_kinds *cz_cli_kinds(void);

/*
 * Run `cuzk |command| --kind K ...` (|command|: "prove", "setup" or
 * "verify"; argv[0] the command's name) by |kinds|. CZ_OPTS_RUN
 * (cli/options.h) when argv holds no --kind: the caller runs its plain
 * form. Else the exit code (CZ_EXIT_USAGE for an unknown kind).
 */
int cz_cli_kind_door(const struct cz_kinds *kinds, const char *command, int argc, char **argv);

/* The "--kind K" lines of |command|'s --help: every kind of |kinds|, one line each. */
void cz_cli_kinds_list(FILE *f, const char *command, const struct cz_kinds *kinds);

/* `cuzk prove --kind K` through an in-process prover made with |kinds| (see above). */
int cz_cli_prove_kind(const struct cz_kinds *kinds, int argc, char **argv);

#endif /* CUZK_CLI_KIND_DOOR_H */
