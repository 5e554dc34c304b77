/*
 * kinds/kinds.h — job kinds: how a submit request becomes engine work.
 *
 * The prover (api/, cuzk.h cz_prover_submit) and the doors above it know
 * nothing about circuits; a kind does. A kind turns the request's
 * kind-specific fields and its input into a cz_kind_job_t: the partition
 * count, the circuit shape the params must fit, a synthesize function for
 * the engine and its argument. The prover does the rest (priority, params
 * resolution and cache, engine, results); cuzkd adds request ids and the
 * journal.
 *
 * THE HOOK. Kinds live in one table in kinds/kinds.c, keyed by name:
 *
 *     static const cz_job_kind_t *const kinds[] = { &cz_kind_circuit, ... };
 *
 * To add one (the PoRep C2 kind: input = the C1 JSON), write a
 * cz_job_kind_t in its own file (e.g. src/kinds/kind_porep.c):
 *   - name        "porep-c2" (what clients put in "kind")
 *   - fields      the request keys it reads besides the common ones
 *                 (kind, params, input, input_path, priority, request_id);
 *                 any other key is refused with 400 naming it
 *   - prepare()   validate and build the job; it receives the request's
 *                 fields (a JSON object holding at most the keys of
 *                 |fields|: cz_job_request_t.fields; cuzkd passes its
 *                 request's keys but the common ones) and the input
 *                 bytes (cz_job_request_t.input; cuzkd's inline "input" or
 *                 the file "input_path"; NULL when none was given). It must
 *                 be deterministic: after a restart cuzkd calls it again on
 *                 the journaled request to re-queue an unfinished job.
 *                 Errors: CZ_EINVAL / CZ_EFORMAT (the client's fault: 400,
 *                 message names the field), others are 500.
 *   - validate()  optional (NULL: nothing to check): the input's expensive
 *                 checks (porep-c2: the native C1 verification), run by the
 *                 stager when the job is about to start and BEFORE its
 *                 params are loaded, so a bad input fails the job in
 *                 milliseconds instead of after a multi-GB params load.
 *                 Kept out of prepare so submits and start-up replay stay
 *                 fast. An error fails the job with its code and message.
 *   - release()   free what prepare allocated.
 *   - state_new() / state_free()  optional (NULL: none): state the kind
 *                 keeps for the prover's life, e.g. a cache (porep-c2 keeps
 *                 partition shapes by sector size); made at start, handed
 *                 to every prepare, freed at stop. It must be thread-safe.
 *   - stats()     optional: the state's cache hits and lookups (metrics).
 * and add it to the table. Nothing else changes: every door (the library,
 * the CLI, cuzkd's HTTP and gRPC) takes the new kind by its name.
 *
 * Thread-safety: prepare and release are called from any thread, several
 * jobs at once (prepare of two submits runs concurrently: the state must
 * be thread-safe); synthesize is called concurrently
 * for different partitions of one job (from engine threads) and must be
 * safe for that.
 */
#ifndef CUZK_KINDS_KINDS_H
#define CUZK_KINDS_KINDS_H

#include <jansson.h>
#include <stddef.h>

#include "cuzk.h"
#include "engine/engine.h"

typedef struct cz_kind_job {
    size_t partitions;            /* >= 1 */
    cz_params_shape_t shape;      /* the params must match it (checked at load) */
    size_t rows;                  /* constraint rows, for the memory estimate */
    char default_params[256];     /* params name when the request has none ("" = required) */
    char summary[128];            /* shown in status ("bench:4096 x2") */
    cz_job_synth_fn *synthesize;  /* witness of one partition */
    void *arg;                    /* owned by the kind */
} cz_kind_job_t;

typedef struct cz_job_kind {
    const char *name;
    const char *summary;
    const char *const *fields;    /* NULL-terminated */
    int (*prepare)(void *state, cz_ctx_t *ctx, const json_t *request, const char *input,
                   size_t input_len, cz_kind_job_t *out);
    int (*validate)(const cz_kind_job_t *job, cz_ctx_t *ctx);   /* may be NULL */
    void (*release)(cz_kind_job_t *job);
    int (*state_new)(void **out);     /* may be NULL */
    void (*state_free)(void *state);
    void (*stats)(void *state, size_t *hits, size_t *lookups);   /* may be NULL */
} cz_job_kind_t;

/* The most kinds the table may hold (the daemon keeps a state per kind). */
#define CZ_MAX_KINDS 8

/* The kind named |name|, or NULL; *index (may be NULL) its table index. */
const cz_job_kind_t *cz_kind_find(const char *name, size_t *index);
/* All kinds (for the status endpoint and error messages); cz_kind_count is in cuzk.h. */
const cz_job_kind_t *cz_kind_at(size_t i);
/* Every registered kind's name, ", "-separated, into |buf| (cut to |cap|); returns |buf|. */
const char *cz_kind_names(char *buf, size_t cap);

/*
 * "circuit": a toy or bench circuit of the registry (circuits/registry.h);
 *   porep:SIZE is refused here (it needs a C1 input: the porep-c2 kind).
 *   circuit     "bench:N" or "toy[:X]" (required)
 *   partitions  1.. (default 1)
 *   seed        unsigned; partition p's witness uses seed*1000 + p + 1 (default 1)
 *   input       optional {"seed": N}, inline or from input_path (overrides seed)
 */
extern const cz_job_kind_t cz_kind_circuit;

/*
 * "porep-c2": PoRep SealCommit phase 2 (kinds/kind_porep.c, porep/c2.h).
 *   input       the C1 JSON, inline or from input_path (required)
 *   params      default: the Filecoin name of the C1's sector size (FACTS 2)
 */
extern const cz_job_kind_t cz_kind_porep_c2;
/*
 * "snap": a SnapDeals update proof (kinds/kind_snap.c, update/job.h).
 *   input       the snap request JSON (update/request.h), inline or input_path
 *   params      default: the Filecoin name of the registered proof's size
 */
extern const cz_job_kind_t cz_kind_snap;

/*
 * "winning-post", "window-post": one FallbackPoSt partition (kinds/
 * kind_post.c, post/job.h). input: the PoSt input JSON (post/input.h);
 * params default: the Filecoin name of the proof's circuit.
 */
extern const cz_job_kind_t cz_kind_winning_post;
extern const cz_job_kind_t cz_kind_window_post;
/* cuzkd's gRPC door turns Curio's WINNING_POST / WINDOW_POST_PARTITION /
 * SNAP_DEALS_UPDATE fields into these kinds' input JSON (daemon/grpc/curio.h),
 * so its jobs are journaled and replayed like the HTTP door's. */

#endif /* CUZK_KINDS_KINDS_H */
