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

#include "core/ctx.h"

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
int cz_cli_dispatch(const char *prog, const cz_cli_command *table, size_t n, const char *usage,
                    int argc, char **argv);

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

/* "123", "2^20", "1Mi" style unsigned parse; false on junk, a sign or overflow
 * (cli/options.c: the CZ_OPT_SIZE kind). */
bool cz_cli_parse_size(const char *s, size_t *out);

/* `cuzk bench` (bench/bench.c, over this header) and the names it
 * dispatches, for the top-level help (bench.c's table: same order and
 * build conditions). */
#ifdef CUZK_HAVE_CUDA
#define CZ_BENCH_NAMES_H ", h, pin, fmul, affine"
#else
#define CZ_BENCH_NAMES_H ""
#endif
#define CZ_BENCH_NAMES \
    "pipeline, mixed, prove, msm, ntt, poseidon, synth, snap-synth" CZ_BENCH_NAMES_H
int cmd_bench(int argc, char **argv);
int cmd_hash(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_prove(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_setup(int argc, char **argv);
int cmd_porep(int argc, char **argv);
int cmd_circuit(int argc, char **argv);
int cmd_params(int argc, char **argv); /* cmd_params.c: params check DIR */
/* Is |kind| the value of argv's first --kind? (cli/kind_door.c, which runs --kind) */
bool cz_cli_has_kind(int argc, char **argv, const char *kind);
/* `--kind porep-c2` forms of prove / verify (cmd_porep.c) */
int cmd_prove_porep_c2(int argc, char **argv);
int cmd_verify_porep_c2(int argc, char **argv);
/* Sector values -> PoRep public inputs, any StackedDrg registered proof
 * (cmd_porep_sector.c): `porep public-inputs`, and `verify --kind porep-c2`
 * when it is given --registered-proof. */
int cz_cli_porep_public_inputs(int argc, char **argv);
int cz_cli_verify_porep_sector(int argc, char **argv);
bool cz_cli_has_registered_proof(int argc, char **argv);
/* --kind winning-post|window-post (cli/cmd_post.c) */
bool cz_cli_post_kind(int argc, char **argv);
int cmd_post(int argc, char **argv);
int cmd_prove_post(int argc, char **argv);
int cmd_verify_post(int argc, char **argv);
/* The `--kind porep-c2` help of |command| ("prove", "setup" or "verify"),
 * which the plain form's --help prints after its own (cz_cli_kinds_help:
 * that, where the PoSt and SnapDeals forms' help is, and the kind table's
 * kinds; cli/kind_door.c). */
void cz_cli_c2_usage(FILE *f, const char *command);
void cz_cli_kinds_help(FILE *f, const char *command);
/* `cuzk setup --kind K ...` (cmd_setup.c): TEST params of kind K's circuit
 * through cuzk.h cz_setup_test_params, for every kind with a test circuit.
 * The exit code. cz_cli_setup_usage: its usage, K one of |kinds|. */
int cz_cli_setup_kind(int argc, char **argv);
void cz_cli_setup_usage(FILE *f, const char *kinds);
/* SnapDeals: `cuzk snap gen-vanilla` and the `--kind snap` forms (cmd_snap.c) */
int cmd_snap(int argc, char **argv);
int cmd_prove_snap(int argc, char **argv);
int cmd_verify_snap(int argc, char **argv);
/* cuzkd client commands (cmd_client.c; built with libcurl + jansson: CUZK_HAVE_CLIENT) */
int cmd_submit(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_wait(int argc, char **argv);
int cmd_proof(int argc, char **argv);
int cmd_cancel(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_daemon_status(int argc, char **argv);

#endif /* CUZK_CLI_H */
