/*
 * api/pcache.h — the params cache of a prover (cuzk.h cz_prover_params_*): each params file is loaded once
 * (cz_params_load maps it and decodes the points) and shared, read-only,
 * by every job and worker that names it; its prepared verifying key is
 * built once beside it.
 *
 * Entries are keyed by the file's real path. A byte budget bounds what is
 * kept: after a load, least-recently-used entries with no users are evicted
 * until the total fits. An entry in use (acquired and not yet released) is
 * NEVER evicted — if in-use entries alone exceed the budget the cache runs
 * over it (and says so in the log) rather than fail a job.
 *
 * Concurrent acquires of the same path load it once: later callers wait for
 * the first one's load and share its result (or its error).
 *
 * Thread-safety: every function may be called from any thread; one mutex
 * protects the entry list, loads run outside it.
 */
#ifndef CUZK_API_PCACHE_H
#define CUZK_API_PCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "groth16/manifest.h"
#include "api/log.h"
#include "groth16/params.h"
#include "groth16/verify.h"

typedef struct cz_pcache cz_pcache_t;
typedef struct cz_pentry cz_pentry_t;

/* |budget| bytes (0: no limit); evictions and overruns go to |log| (copied, may be NULL). */
int cz_pcache_new(cz_pcache_t **out, size_t budget, const cz_logger_t *log);
/* Every entry must have been released. NULL is a harmless no-op. */
void cz_pcache_free(cz_pcache_t *pc);
/*
 * Check every file against the Filecoin manifest before its first load
 * (groth16/manifest.h cz_pcheck_before_use: a published name with another
 * digest fails the acquire with CZ_EMISMATCH). The cache takes |check|
 * (freed with it); call before the first acquire.
 */
void cz_pcache_set_check(cz_pcache_t *pc, cz_pcheck_t *check);

/*
 * Open params files instead of loading them (groth16/params.h
 * cz_params_open): no vector is read at the acquire; a device backend
 * uploads them from the file (decoded on the device), and a vector is
 * decoded into host memory only when a CPU MSM reads it. For a prover
 * whose devices are all GPUs: the 44 GiB of a 32GiB set never sit in host
 * memory. A bad point then fails the job that reads it (naming it), not
 * the acquire. Entries' bytes follow what they hold in host memory. Call
 * before the first acquire.
 */
void cz_pcache_set_open_lazily(cz_pcache_t *pc, bool lazily);

/*
 * The loaded params of |path| (a reference: release it). *load_ms (may be
 * NULL) gets the time this call spent loading or waiting for a load (0 on
 * a hit). Errors of the load (CZ_EIO, CZ_EFORMAT, ...) with the ctx message.
 */
int cz_pcache_acquire(cz_pcache_t *pc, cz_ctx_t *ctx, const char *path, cz_pentry_t **out,
                      double *load_ms);
/*
 * Never waits: a reference to |path|'s params when they are loaded (true),
 * else false (absent, still loading, or no such file) with *out NULL.
 * A hit counts as cz_pcache_acquire's; a false counts nothing.
 */
bool cz_pcache_acquire_loaded(cz_pcache_t *pc, const char *path, cz_pentry_t **out);
/* Another reference to |e|, which the caller holds one of (release each). */
void cz_pcache_retain(cz_pcache_t *pc, cz_pentry_t *e);
void cz_pcache_release(cz_pcache_t *pc, cz_pentry_t *e);
const cz_params_t *cz_pentry_params(const cz_pentry_t *e);
const cz_pvk_t *cz_pentry_pvk(const cz_pentry_t *e);
/* Bytes the entry holds in memory; its real path (the cache key). */
size_t cz_pentry_bytes(const cz_pentry_t *e);
const char *cz_pentry_path(const cz_pentry_t *e);

/* Drop |path| now: CZ_ENOTFOUND when not loaded, CZ_EBUSY while in use or loading. */
int cz_pcache_evict(cz_pcache_t *pc, cz_ctx_t *ctx, const char *path);

/* An entry as listed: the public record (cuzk.h cz_params_item_t). */
typedef cz_params_item_t cz_pcache_item_t;

typedef struct cz_pcache_stats {
    size_t entries, bytes, budget;
    uint64_t hits, misses, evictions, load_errors;
} cz_pcache_stats_t;

/* Copy up to |cap| items (most recently used first); returns the entry count. */
size_t cz_pcache_list(cz_pcache_t *pc, cz_pcache_item_t *items, size_t cap);
void cz_pcache_stats(cz_pcache_t *pc, cz_pcache_stats_t *out);

#endif /* CUZK_API_PCACHE_H */
