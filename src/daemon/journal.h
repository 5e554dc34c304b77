/*
 * daemon/journal.h — the durable record of accepted jobs and their results.
 *
 * One directory, flat, a few files per job (ID = 16 hex digits):
 *
 *   ID.job       the accepted request: {"id", "request_id", "created", "request"}
 *   ID.result    the outcome: {"state": "done"|"failed"|"canceled", "proof" (hex),
 *                "public_inputs", "timings", "error", "message", "finished"}
 *   ID.fetched   empty marker; its mtime is when the result was first fetched
 *   ID.job.corrupt  an ID.job that did not parse, set aside: the job's tombstone
 *                (its ID.result, if intact, is kept and still served)
 *   ID.result.corrupt  an ID.result that did not parse or whose proof did not
 *                check (daemon/replay.c), set aside: the job is proved again
 *   LOCK         flock()ed by the one daemon that owns the directory
 *
 * Every put is atomic and durable: the document is written to a temporary
 * file, fsync()ed, renamed over its final name and the directory fsync()ed,
 * all before the call returns — so the daemon acknowledges a submit only
 * after ID.job is on disk, and reports a job done only after ID.result is.
 * A crash leaves either the old state or the new one, never a torn file;
 * leftover temporaries are removed by the next scan.
 *
 * Thread-safety: put/remove/mark calls for different ids may run
 * concurrently; the scan runs once at start-up before any other call.
 */
#ifndef CUZK_DAEMON_JOURNAL_H
#define CUZK_DAEMON_JOURNAL_H

#include <jansson.h>
#include <time.h>

#include "core/fault.h"
#include "core/ctx.h"

typedef struct cz_journal cz_journal_t;

/* Create |dir| if missing (mode 0700), take its LOCK (CZ_EBUSY: another daemon has it). */
int cz_journal_open(cz_ctx_t *ctx, const char *dir, cz_journal_t **out);
/* Releases the lock. NULL is a harmless no-op. */
void cz_journal_close(cz_journal_t *j);
const char *cz_journal_dir(const cz_journal_t *j);

/* The fault object whose WRITE site every put reaches (core/fault.h; borrowed, NULL: none). */
void cz_journal_set_fault(cz_journal_t *j, cz_fault_t *f);
/* Write |doc| as ID.|suffix| ("job" or "result") durably (see above). An
 * injected WRITE fault fails the put as a failed write(2) would (CZ_EIO). */
int cz_journal_put(cz_journal_t *j, cz_ctx_t *ctx, const char *id, const char *suffix,
                   const json_t *doc);
/* Create ID.fetched (not fsynced: losing it only delays expiry). */
void cz_journal_mark_fetched(cz_journal_t *j, const char *id);
/* Remove all of ID's files (the set-aside ones too). */
void cz_journal_remove(cz_journal_t *j, const char *id);
/* Rename ID.|suffix| to ID.|suffix|.corrupt (kept for the operator; no error if absent). */
void cz_journal_set_aside(cz_journal_t *j, const char *id, const char *suffix);

/*
 * Call |cb| for every ID.job found, with its parsed documents (borrowed for
 * the call): |result| NULL when the job has no result yet; |fetched| 0 when
 * never fetched. A result without its job is removed; a result that does
 * not parse is renamed to ID.result.corrupt (the job is then unfinished).
 *
 * An ID.job that does not parse is renamed to ID.job.corrupt (logged). If
 * its ID.result parses, the result is still the job's outcome: |cb| is
 * called with |job| NULL. Otherwise |lost| is called with why; the file
 * stays as the job's tombstone, so every later scan calls |lost| (or |cb|)
 * for it again (until an operator removes it). The same id may be reported
 * twice in one scan (a renamed entry can show up again in the listing):
 * the callee ignores a repeat.
 */
typedef void cz_journal_scan_cb(void *arg, const char *id, json_t *job, json_t *result,
                                time_t fetched);
typedef void cz_journal_lost_cb(void *arg, const char *id, const char *reason);
int cz_journal_scan(cz_journal_t *j, cz_ctx_t *ctx, cz_journal_scan_cb *cb,
                    cz_journal_lost_cb *lost, void *arg);

#endif /* CUZK_DAEMON_JOURNAL_H */
