/*
 * cli/cli.h — the `cuzk` command-line tool: command table and shared helpers.
 *
 * Each command is `int cmd_<name>(int argc, char **argv)` with argv[0] the
 * command's own name; it returns the process exit code:
 *   0 success, 1 failure (bad proof, failed run), 2 usage error (a bad
 *   argument, or a path that cannot be used, found before any work).
 */
#ifndef CUZK_CLI_H
#define CUZK_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/ctx.h"

#define CZ_EXIT_OK 0
#define CZ_EXIT_FAIL 1
#define CZ_EXIT_USAGE 2

typedef int cz_cli_fn(int argc, char **argv);

typedef struct {
    const char *name;
    cz_cli_fn *fn;
    const char *summary;
} cz_cli_command;

/* Dispatch argv[1] over |table|; prints |usage| + the table on --help or a bad name. */
int cz_cli_dispatch(const char *prog, const cz_cli_command *table, size_t n,
                    const char *usage, int argc, char **argv);

/* Peak resident set size of this process in bytes: /proc's VmHWM (which
 * clear_refs can reset), else getrusage's maximum; 0 if neither says. */
size_t cz_cli_peak_rss(void);

/*
 * Output locations, checked BEFORE any expensive work, so that no result is
 * lost to a bad path at the end of a run:
 *   cz_cli_check_output: |path| can be created or overwritten: it is not a
 *     directory, its directory exists, is a directory and is writable, and
 *     an existing file is writable. Nothing is created.
 *   cz_cli_make_output_dir: |dir| exists as a writable directory, created
 *     (with its missing parents, mode 0755) when it does not.
 * NULL |path| / |dir| (an optional output not asked for) is fine. On a
 * problem both print "<who>: <what> <path>: <reason>" to stderr and return
 * false; the caller exits with CZ_EXIT_USAGE (docs/API.md, exit codes).
 */
bool cz_cli_check_output(const char *who, const char *what, const char *path);
bool cz_cli_make_output_dir(const char *who, const char *what, const char *dir);

/* Write |len| bytes to |path| (created/truncated); CZ_EIO names the path. */
int cz_cli_write_file(cz_ctx_t *ctx, const char *path, const uint8_t *data, size_t len);
/* Read all of |path| (at most |max| bytes: CZ_EFORMAT beyond); caller frees *data. */
int cz_cli_read_file(cz_ctx_t *ctx, const char *path, size_t max, uint8_t **data, size_t *len);

/* "123", "2^20", "1Mi" style unsigned parse; false on junk. */
bool cz_cli_parse_size(const char *s, size_t *out);

int cmd_bench(int argc, char **argv);
int cmd_hash(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_prove(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_setup(int argc, char **argv);
int cmd_porep(int argc, char **argv);
int cmd_circuit(int argc, char **argv);
/* `--kind porep-c2` forms of prove / setup / verify (cmd_porep.c) */
bool cz_cli_has_kind(int argc, char **argv, const char *kind);
int cmd_prove_porep_c2(int argc, char **argv);
int cmd_setup_porep_c2(int argc, char **argv);
int cmd_verify_porep_c2(int argc, char **argv);
/* --kind winning-post|window-post (cli/cmd_post.c) */
bool cz_cli_post_kind(int argc, char **argv);
int cmd_post(int argc, char **argv);
int cmd_setup_post(int argc, char **argv);
int cmd_prove_post(int argc, char **argv);
int cmd_verify_post(int argc, char **argv);
/* The `--kind porep-c2` usage of |command| ("prove", "setup" or "verify"),
 * which the plain form's --help prints after its own. */
void cz_cli_c2_usage(FILE *f, const char *command);
/* The plain form's usage: the whole help (with the porep-c2 form) on stdout
 * for --help, else the plain form and a pointer to --help on stderr. */
void cz_cli_usage_tail(FILE *f, const char *command);
/* cuzkd client commands (cmd_client.c; built with libcurl + jansson: CUZK_HAVE_CLIENT) */
int cmd_submit(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_wait(int argc, char **argv);
int cmd_proof(int argc, char **argv);
int cmd_cancel(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_daemon_status(int argc, char **argv);

#endif /* CUZK_CLI_H */
