/*
 * daemon/server.h — cuzkd's core: the jobs the daemon has accepted, from
 * submit to a fetched (or expired) result, over the library's prover
 * (cuzk.h: params cache, job kinds, engine) and the daemon's journal. The
 * HTTP layer (daemon/api.h) and the gRPC service call only this.
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
 * cz_server_free.
 */
#ifndef CUZK_DAEMON_SERVER_H
#define CUZK_DAEMON_SERVER_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "daemon/config.h"

typedef struct cz_server cz_server_t;

#define CZ_JOB_ID_LEN 16
/* The longest request_id in bytes: an opaque key, any UTF-8 text (Curio's hold blanks). */
#define CZ_REQUEST_ID_MAX 1024

/* Open the journal and the prover, replay the journal, start the finisher. */
int cz_server_new(cz_ctx_t *ctx, const cz_dconfig_t *cfg, cz_server_t **out);
/* Stop accepting, give running jobs |grace_s| seconds, leave the rest journaled. */
void cz_server_shutdown(cz_server_t *s, double grace_s);
/* Shutdown (grace 0 if not done) and free everything. NULL: no-op. */
void cz_server_free(cz_server_t *s);
bool cz_server_stopping(cz_server_t *s);

/*
 * Accept a job. *resp (new reference) is {"id", "state", "existing"}.
 * Errors: CZ_EINVAL / CZ_EFORMAT (bad request, message names the field),
 * CZ_ENOTFOUND (params or input file), CZ_EBUSY (request_id conflict),
 * CZ_EUNAVAIL (shutting down), CZ_EIO (journal).
 */
int cz_server_submit(cz_server_t *s, cz_ctx_t *ctx, const json_t *req, json_t **resp,
                     bool *existing);
/*
 * cz_server_submit for clients that retry one request_id until it yields a
 * proof (Curio's gRPC calls): an earlier job under the same request_id that
 * ended without a proof (failed, canceled), or ended with a different
 * request, is forgotten (list and journal) and the request accepted anew; a
 * job still running with a different request stays CZ_EBUSY.
 */
int cz_server_submit_retry(cz_server_t *s, cz_ctx_t *ctx, const json_t *req, json_t **resp,
                           bool *existing);
/*
 * The job |key| names into id: a job id as is, else the newest job of
 * request_id |key| — Curio's own daemon answers with the request_id as
 * job_id, so a client written for it may wait or cancel by request_id.
 * CZ_ENOTFOUND.
 */
int cz_server_lookup(cz_server_t *s, cz_ctx_t *ctx, const char *key, char id[CZ_JOB_ID_LEN + 1]);
/* The job's status object (new reference). CZ_ENOTFOUND. */
int cz_server_job(cz_server_t *s, cz_ctx_t *ctx, const char *id, json_t **out);
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
/*
 * The finished job's proof (copy, caller frees) and public inputs (new
 * reference: one array of 0x-hex strings per partition); marks it fetched.
 * CZ_EBUSY not finished; CZ_EVERIFY/CZ_E... failed (message: the job's
 * error); CZ_ECANCELED canceled; CZ_ENOTFOUND.
 */
int cz_server_result(cz_server_t *s, cz_ctx_t *ctx, const char *id, uint8_t **proof,
                     size_t *len, json_t **public_inputs);
/* Request cancellation (CZ_OK also when already ended); *out is the status after. */
int cz_server_cancel(cz_server_t *s, cz_ctx_t *ctx, const char *id, json_t **out);
/* {"jobs": [status...]} newest first; |state| NULL or a state name filter. */
json_t *cz_server_list(cz_server_t *s, const char *state);
/* GET /v1/status body. */
json_t *cz_server_status(cz_server_t *s);
/* The job kinds the server takes (kinds/kinds.h: its prover's table; cfg->kinds or the
 * library's), for the doors that map their own vocabulary onto them (gRPC's ProofKind). */
const struct cz_kinds *cz_server_kinds(const cz_server_t *s);
/* Params by name or (if allowed) absolute path; *out {"path","bytes","load_ms"}. */
int cz_server_preload(cz_server_t *s, cz_ctx_t *ctx, const char *name, json_t **out);
int cz_server_evict(cz_server_t *s, cz_ctx_t *ctx, const char *name, json_t **out);
/* Prometheus text exposition (caller frees). */
char *cz_server_metrics(cz_server_t *s);
/* Count one HTTP response by status code (for metrics). */
void cz_server_count_http(cz_server_t *s, int status);
/* The effective configuration (borrowed). */
const cz_dconfig_t *cz_server_config(const cz_server_t *s);

#endif /* CUZK_DAEMON_SERVER_H */
