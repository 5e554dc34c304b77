/*
 * cli/client.h — the `cuzk` side of the cuzkd API: one HTTP/1.1 request
 * over a unix socket or TCP (libcurl), JSON in and out, and the progress
 * display the client commands share.
 *
 * Where the daemon is: --url URL (http://host:port) or --socket PATH, else
 * $CUZK_URL, else $CUZK_SOCKET, else /run/cuzk/cuzkd.sock. The token:
 * --token T, --token-file F, else $CUZK_TOKEN (sent as Authorization: Bearer).
 *
 * Exit codes of every client command (docs/API.md):
 *   0 success; 1 the job failed / was canceled / the daemon refused the request;
 *   2 usage error; 3 the daemon could not be reached (or answered garbage);
 *   4 timeout (the job is still running).
 *
 * Not thread-safe (one command, one thread).
 */
#ifndef CUZK_CLI_CLIENT_H
#define CUZK_CLI_CLIENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli/options.h"
#include "cli/progress.h"

#define CZ_EXIT_UNREACHABLE 3
#define CZ_EXIT_TIMEOUT 4
#define CZ_CLIENT_BUSY_RETRIES 10

typedef struct cz_client {
    const char *url, *socket, *token, *token_file;
    char token_buf[512];
    bool json; /* --json: machine-readable output */
} cz_client_t;

/* A client of the common options' values (cli/options.h CZ_OPT_CLIENT),
 * defaults resolved (cz_client_init). */
void cz_client_set(cz_client_t *cl, const cz_opt_client_t *o);
/* Resolve defaults (env). */
void cz_client_init(cz_client_t *cl);

typedef struct cz_http_reply {
    long status; /* 0: not reached */
    char *body;  /* NUL-terminated, caller frees */
    size_t len;
    char error[256];  /* transport error when status == 0 */
    long retry_after; /* a Retry-After header's seconds; -1 when absent */
} cz_http_reply_t;

/* One request; |body| may be NULL. Returns false when the daemon was not reached. */
bool cz_client_call(cz_client_t *cl, const char *method, const char *path, const char *body,
                    cz_http_reply_t *out);
/*
 * The same, expecting JSON: *out (new reference) is the parsed body. A 503
 * "busy" with Retry-After (cuzkd's connection or body limits: the request
 * was not handled) is retried after that many seconds (at most 30), up to
 * CZ_CLIENT_BUSY_RETRIES times, saying so on stderr. On a
 * transport error, a non-JSON body or status >= 400, prints the problem to
 * stderr (prefixed |who|) and returns the exit code (1 or 3); 0 on success.
 * |status| (may be NULL) receives the HTTP status.
 */
int cz_client_json(cz_client_t *cl, const char *who, const char *method, const char *path,
                   const json_t *body, json_t **out, long *status);

/*
 * Follow job |id| until it ends or |timeout_s| (< 0: forever) passes,
 * drawing progress on stderr (a bar on a TTY, a line per change otherwise;
 * nothing with |quiet|). *final (new reference) is the last status.
 * Returns 0 done, 1 failed/canceled, 3 unreachable, 4 timeout.
 */
int cz_client_follow(cz_client_t *cl, const char *who, const char *id, double timeout_s, bool quiet,
                     json_t **final);

/* Fetch the proof of |id| (JSON form) and write |proof_path| / |public_path| (may be NULL). */
int cz_client_fetch_proof(cz_client_t *cl, const char *who, const char *id, double wait_s,
                          const char *proof_path, const char *public_path, size_t *partitions);

/* `cuzk prove` through the daemon (cmd_prove.c calls it with its parsed options). */
int cz_cli_prove_daemon(cz_client_t *cl, const char *circuit, const char *params, size_t partitions,
                        size_t seed, const char *proof_path, const char *public_path, int priority,
                        const char *request_id);

#endif /* CUZK_CLI_CLIENT_H */
