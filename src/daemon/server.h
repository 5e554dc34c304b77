/*
 * daemon/server.h — cuzkd's core: the jobs the daemon has accepted, from
 * submit to a fetched (or expired) result, over the library's prover
 * (cuzk.h: params cache, job kinds, engine) and the daemon's journal. The
 * doors call only this, with C structs both ways: the HTTP door
 * (daemon/api.c) turns its JSON into them and back (daemon/jsonio.h), the
 * gRPC door (daemon/grpc/service.c) its protobuf messages. Job states are
 * cuzk.h's cz_job_state_t (plus |lost|), never names.
 *
 * THE INPUT'S COPIES. A submit's input bytes (a C1 is tens of MB) are
 * borrowed (cz_submit_req_t.input): the core hands that very pointer to
 * cz_prover_submit, whose kind parses it there. Between the socket and
 * that parser the doors copy them twice at most:
 *   HTTP  (1) libmicrohttpd's read buffer into the request body (http.c
 *         on_upload; sized by Content-Length, a chunked body may also
 *         grow by realloc), (2) the body's "input" string decoded out of
 *         the body into its own buffer (daemon/lift.c), the one the parser
 *         gets; jansson parses the rest of the body and never holds the
 *         input (it would copy it twice: its lexer, then its string).
 *   gRPC  (1) gRPC's slices into one buffer (grpc_server.c; none when the
 *         message came in one slice); protobuf-c never copies the bytes
 *         field (daemon/grpc/unpack.h: vanilla_proof points into that
 *         buffer); (2) the kind's Curio map (kinds/kinds.h) gives the
 *         input the door borrows: for PoRep, Curio's wrapper's Phase1Out
 *         decoded from the message straight into the buffer the C1 parser
 *         reads (kinds/porep/kind_porep.c; jansson parses the wrapper
 *         without that string); for the other kinds, the small input the
 *         map wrote into its request object.
 * tests/daemon/test_input_copies.c checks each: the pointer the parser
 * gets, and every allocation of the input's size. The journal writes the
 * borrowed bytes into ID.job after the prover has taken the job; nothing
 * keeps them after the submit returns (a job keeps their length and, with
 * a request_id, their BLAKE2b-256 digest, for the dedupe).
 *
 * DESIGN (ordering and guarantees):
 *  - submit checks the request (the daemon's fields here, the kind, its
 *    fields, the input and the params name in cz_prover_submit), then
 *    writes ID.job to the journal (fsync) BEFORE returning the id: an
 *    acknowledged job survives a crash. A request_id already known returns
 *    that job (idempotent); the same request_id with a different request
 *    is CZ_EBUSY (409). Submits of different jobs prepare concurrently (no
 *    lock is held across a kind's prepare); two submits of one request_id
 *    are ordered: the second waits for the first's outcome.
 *  - The prover starts jobs by priority (higher first), then submit order:
 *    params from its cache (loaded once), checked against the kind's
 *    circuit shape, then its engine. The prover may start a job before its
 *    ID.job lands; if that write fails the job is withdrawn and the submit
 *    fails, so no client ever saw it.
 *  - The prover's completion callback wakes a finisher thread, which
 *    writes ID.result (fsync) BEFORE the job is reported done / failed /
 *    canceled (daemon/finish.c: a refused write is retried, the job reads
 *    running / writing_result meanwhile). ID.result is written only for a
 *    journaled job. Results stay until fetched + journal.keep_fetched
 *    seconds or journal.result_ttl seconds after they finished.
 *  - At start-up the journal is replayed (daemon/replay.c): finished jobs
 *    are served again, unfinished ones are handed to the prover again and
 *    proved from their first partition (a partition's proof is not
 *    journaled on its own), and a corrupt ID.job answers as lost.
 *  - shutdown: no new submits (CZ_EUNAVAIL); jobs the prover has not
 *    started are left for the next start; running ones get up to |grace|
 *    seconds to finish; what is left stays journaled as unfinished and is
 *    re-queued by the next start.
 *
 * Thread-safety: every function may be called from any thread (one mutex
 * over the job table; the prover has its own locks), except
 * cz_server_free. Errors: CZ_E* codes with the specifics in |ctx|'s
 * message, the same message whichever door asked.
 */
#ifndef CUZK_DAEMON_SERVER_H
#define CUZK_DAEMON_SERVER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "cuzk.h"
#include "daemon/config.h"

typedef struct cz_server cz_server_t;

#define CZ_JOB_ID_LEN 16
/* The longest request_id in bytes: an opaque key, any UTF-8 text (Curio's hold blanks). */
#define CZ_REQUEST_ID_MAX 1024
/* The longest params name or path a job status carries (longer ones are cut there). */
#define CZ_PARAMS_NAME_MAX 1024

/* Open the journal and the prover, replay the journal, start the finisher. */
int cz_server_new(cz_ctx_t *ctx, const cz_dconfig_t *cfg, cz_server_t **out);
/* Stop accepting, give running jobs |grace_s| seconds, leave the rest journaled. */
void cz_server_shutdown(cz_server_t *s, double grace_s);
/* Shutdown (grace 0 if not done) and free everything. NULL: no-op. */
void cz_server_free(cz_server_t *s);
bool cz_server_stopping(cz_server_t *s);

/* ---- submit ---------------------------------------------------------------------------- */

/*
 * A submit request. Every pointer is BORROWED for the call only (the core
 * copies the small strings it keeps; it never copies |input|: see THE
 * INPUT'S COPIES above). Zero it, then set what applies.
 */
typedef struct cz_submit_req {
    const char *kind;       /* a kind of cz_server_kinds; NULL: refused, the kinds named */
    const char *params;     /* a name in params.dir or (if allowed) a path; NULL: the kind's */
    int priority;           /* 1 low .. 4 critical; 0: 2 (normal); others refused */
    const char *request_id; /* NULL: none; else request_id_len bytes, 1..CZ_REQUEST_ID_MAX
                                * of UTF-8 without NUL (the door checked the UTF-8) */
    size_t request_id_len;
    const char *fields; /* the kind's fields: a JSON object text (jsonio.h writes it
                                * canonical: compact, keys sorted); NULL: none */
    const void *input;  /* the kind's input bytes; NULL: none */
    size_t input_len;
    const char *input_path; /* or: a client file read here (daemon.allow_client_paths,
                                * absolute, regular, 256 MiB at most); NULL: none */
    bool retry;             /* Curio's rule (its gRPC calls retry one request_id until
                                * it yields a proof): an earlier job under the same
                                * request_id that ended without a proof (failed, canceled),
                                * or ended with a different request, is forgotten (list and
                                * journal) and the request accepted anew; a job still
                                * running with a different request stays CZ_EBUSY */
} cz_submit_req_t;

typedef struct cz_submit_out {
    char id[CZ_JOB_ID_LEN + 1];
    cz_job_state_t state; /* QUEUED for a new job; an existing one's (cz_job_status_t) */
    bool existing;        /* the request_id named a job with this very request */
} cz_submit_out_t;

/*
 * Accept a job. Errors: CZ_EINVAL / CZ_EFORMAT (bad request, message names
 * the field), CZ_ENOTFOUND (params or input file), CZ_EBUSY (request_id
 * conflict), CZ_EUNAVAIL (shutting down), CZ_EIO (journal).
 */
int cz_server_submit(cz_server_t *s, cz_ctx_t *ctx, const cz_submit_req_t *req,
                     cz_submit_out_t *out);

/* ---- a job's status --------------------------------------------------------------------- */

/* Where a job is (docs/API.md "stage"); an ended job's stage is its state. */
typedef enum cz_job_stage {
    CZ_STAGE_WAITING,        /* not started: waiting for its params or a turn */
    CZ_STAGE_LOADING_PARAMS, /* its params are being loaded */
    CZ_STAGE_QUEUED,         /* in the proving queues, no partition taken yet */
    CZ_STAGE_PROVING,
    CZ_STAGE_VERIFYING,
    CZ_STAGE_WRITING_RESULT, /* ended in the prover; ID.result being written */
    CZ_STAGE_ENDED,          /* done, failed, canceled or lost: see the state */
} cz_job_stage_t;

/* A refused ID.result write being retried (daemon/finish.c). */
typedef struct cz_result_write {
    unsigned attempts;
    int error; /* CZ_E* of the last attempt */
    char message[256];
    double retry_in_s;
} cz_result_write_t;

typedef struct cz_job_status {
    char id[CZ_JOB_ID_LEN + 1];
    char kind[32];     /* "?" for a lost job */
    char summary[128]; /* the kind's, from the prover */
    int priority;      /* 1..4 */
    /* QUEUED (not in the proving queues yet), RUNNING (in them, verifying or
     * writing its result included), DONE, FAILED or CANCELED; never VERIFYING */
    cz_job_state_t state;
    bool lost; /* FAILED because its journal entry was corrupt */
    cz_job_stage_t stage;
    size_t partitions_done, partitions_total;
    cz_job_timings_t t;          /* ms; total: accepted by this process -> now until it ends */
    bool recovered;              /* replayed from the journal */
    bool working;                /* in the proving queues: in_stage counts its partitions */
    cz_job_state_t prover_state; /* the prover's (working only), for the partition label */
    size_t in_stage[CZ_PART_NSTAGES];
    char request_id[CZ_REQUEST_ID_MAX + 1]; /* "" none */
    char params[CZ_PARAMS_NAME_MAX + 1];    /* as requested; "" the kind's default */
    time_t created, finished;               /* wall clock; 0 = not known / not yet */
    int error;                              /* FAILED / CANCELED: CZ_E* (lost: CZ_EFORMAT) */
    char message[256];
    bool result_write_pending; /* then result_write says why the job reads running */
    cz_result_write_t result_write;
} cz_job_status_t;

/* The state as the doors name it: "queued", "running", "done", "failed", "canceled", "lost". */
const char *cz_job_status_state(const cz_job_status_t *st);
/* The stage's name: "waiting", "loading_params", "queued", "proving", "verifying",
 * "writing_result", else the state's. */
const char *cz_job_status_stage(const cz_job_status_t *st);
/* Whether the job has ended (its result is there to fetch, or why not). */
bool cz_job_status_ended(const cz_job_status_t *st);

/* Job |id|'s status into *out. CZ_ENOTFOUND. */
int cz_server_job(cz_server_t *s, cz_ctx_t *ctx, const char *id, cz_job_status_t *out);
/* Every job's status, newest first: *out malloc'd (the caller frees; NULL when *n is 0).
 * CZ_ENOMEM. */
int cz_server_list(cz_server_t *s, cz_job_status_t **out, size_t *n);

/*
 * The job |key| names into id: a job id as is, else the newest job of
 * request_id |key| — Curio's own daemon answers with the request_id as
 * job_id, so a client written for it may wait or cancel by request_id.
 * CZ_ENOTFOUND.
 */
int cz_server_lookup(cz_server_t *s, cz_ctx_t *ctx, const char *key, char id[CZ_JOB_ID_LEN + 1]);
/* Wait up to |timeout_s| for the job to end: CZ_OK (ended) or CZ_EBUSY (still running). */
int cz_server_wait(cz_server_t *s, cz_ctx_t *ctx, const char *id, double timeout_s);
/*
 * Wait for the job to end as one of its waiters (no polling: the job's end
 * wakes it). Returns CZ_OK (ended), CZ_EBUSY (|timeout_s| passed; < 0: no
 * limit), CZ_EUNAVAIL (the daemon is stopping), CZ_ENOTFOUND, or
 * CZ_ECANCELED once *|gone| (may be NULL) is true: the waiter's client went
 * away; whoever sets it calls cz_server_wake. With |cancel_if_last| a job
 * left with no waiter that way is canceled (not while the daemon stops: its
 * jobs stay journaled).
 */
int cz_server_await(cz_server_t *s, cz_ctx_t *ctx, const char *id, double timeout_s,
                    const atomic_bool *gone, bool cancel_if_last);
/* Wake every cz_server_await so it looks at its |gone| flag again. */
void cz_server_wake(cz_server_t *s);

/* ---- results ------------------------------------------------------------------------- */

typedef struct cz_job_result {
    uint8_t *proof; /* partitions x 192 bytes; malloc'd */
    size_t proof_len;
    uint8_t *inputs; /* the public inputs: partitions x per_partition 32-byte Fr
                                * reprs (little-endian, as cz_prover_public_inputs), partition-
                                * major; malloc'd; NULL when there are none */
    size_t per_partition, partitions;
} cz_job_result_t;

/*
 * The finished job's proof and public inputs (*out: caller frees with
 * cz_job_result_free); marks it fetched. CZ_EBUSY not finished; the job's
 * code (failed; message: its error); CZ_ECANCELED canceled; CZ_ENOTFOUND.
 * *why (may be NULL) says why a job has no proof: its status' state
 * (FAILED with lost, CANCELED, ...) when the job is there, else unchanged.
 */
int cz_server_result(cz_server_t *s, cz_ctx_t *ctx, const char *id, cz_job_result_t *out,
                     cz_job_status_t *why);
/* Free what a result holds (and zero it). NULL: no-op. */
void cz_job_result_free(cz_job_result_t *r);
/* Request cancellation (CZ_OK also when already ended); *out (may be NULL) the status
 * before the request, *after (may be NULL) the status after it. CZ_ENOTFOUND. */
int cz_server_cancel(cz_server_t *s, cz_ctx_t *ctx, const char *id, cz_job_status_t *before,
                     cz_job_status_t *after);

/* ---- the daemon ---------------------------------------------------------------------- */

/* The daemon's counts, for status answers (the HTTP door's /v1/status has more). */
typedef struct cz_server_counts {
    double uptime_s;
    bool stopping;
    size_t jobs[CZ_JOB_CANCELED + 1]; /* listed jobs by state (VERIFYING: 0) */
    size_t jobs_lost;                 /* counted apart from FAILED */
    size_t devices;
    char backend[16]; /* "cpu" or "cuda" */
    uint64_t memory_budget, memory_reserved;
} cz_server_counts_t;
void cz_server_counts(cz_server_t *s, cz_server_counts_t *out);
/* The params cache's entries (up to |cap|); returns how many were written. */
size_t cz_server_params(cz_server_t *s, cz_params_item_t *items, size_t cap);
/* The job kinds the server takes (kinds/kinds.h: its prover's table; cfg->kinds or the
 * library's), for the doors that map their own vocabulary onto them (gRPC's ProofKind). */
const struct cz_kinds *cz_server_kinds(const cz_server_t *s);
/* Every kind's name, ", "-separated, in the table's order, into |buf| (cut to |cap|);
 * returns |buf|. For the doors' "known kinds" messages. */
const char *cz_server_kind_names(const cz_server_t *s, char *buf, size_t cap);
/* Params by name or (if allowed) absolute path into the cache; *out what was loaded. */
int cz_server_preload(cz_server_t *s, cz_ctx_t *ctx, const char *name, cz_params_item_t *out);
/* Drop params from the cache. CZ_EBUSY while a job uses them; CZ_ENOTFOUND. */
int cz_server_evict(cz_server_t *s, cz_ctx_t *ctx, const char *name);
/* Prometheus text exposition (caller frees). */
char *cz_server_metrics(cz_server_t *s);
/* Count one HTTP response by status code (for metrics). */
void cz_server_count_http(cz_server_t *s, int status);
/* The effective configuration (borrowed). */
const cz_dconfig_t *cz_server_config(const cz_server_t *s);

#endif /* CUZK_DAEMON_SERVER_H */
