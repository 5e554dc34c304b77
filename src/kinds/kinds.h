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
 * THE HOOK. A kind is one cz_job_kind_t, written in its own folder (e.g.
 * src/kinds/porep/kind_porep.c); the library's built-in kinds are one table,
 * kinds/kinds.c:
 *
 *     static const cz_kinds_t builtin = { { &cz_kind_circuit, ... }, 5 };
 *
 * A prover takes its kinds from a cz_kinds_t handed to it at creation (a
 * copy: api/internal.h cz__prover_new_with; NULL: cz_kinds_builtin()), and
 * so does cuzkd (cz_dconfig_t.kinds). No table is a hidden global that
 * changes: the built-in one is const, and a program (a test) that wants
 * one more kind copies it and registers the kind on its copy:
 *
 *     cz_kinds_t t = *cz_kinds_builtin();
 *     cz_kinds_register(&t, ctx, &my_kind);     (checked: name, hooks, clashes)
 *
 * Why a table value and not a registry object: it is the smallest thing
 * that lets a test add a kind without a global that changes. The prover
 * keeps its own copy (so the caller's may go), states are per prover and
 * by table index, and the doors reach the prover's table (cuzk.h
 * cz_prover_kind_*, cuzkd's cz_server_kinds), never a file-level one.
 *
 * To add a built-in kind: write src/kinds/NAME/kind_NAME.c (its
 * cz_job_kind_t and everything it needs: prepare, release, state, its Curio
 * mapping; the kind's formats beside it in src/kinds/NAME/) and list it in
 * kinds/CMakeLists.txt; declare it below; add it to the table in
 * kinds/kinds.c. Nothing else changes.
 *
 * A kind says, besides its name and one-line summary:
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
 *                 keeps for the prover's life, e.g. a cache (porep-c2 and
 *                 snap keep partition shapes in a kinds/shapes.h
 *                 cz_shape_cache_t); made at start, handed
 *                 to every prepare, freed at stop. It must be thread-safe.
 *   - stats()     optional: the state's cache hits and lookups (metrics).
 *   - public_inputs()  optional (NULL: the kind has no public values to
 *                 verify from, e.g. "circuit"): every partition's public
 *                 inputs from the public values in the same input bytes
 *                 prepare takes, as a chain verifier computes them (no
 *                 vanilla proof is checked or needed), with the Filecoin
 *                 vk file name of the circuit and a one-line summary
 *                 (cz_kind_public_t). cuzk.h cz_kind_public_inputs and
 *                 cz_kind_verify (api/verify.c) are this hook plus the
 *                 Groth16 check: the one verify every door calls. Pure;
 *                 thread-safe. Errors as prepare's.
 *   - prepare_random()  optional (NULL: none), TIMING ONLY: a job of the
 *                 kind's production circuit for |sector_bytes| whose witness
 *                 holds pseudo-random field elements from |seed| (the real
 *                 R1CS, a witness that does not satisfy it), for the kinds
 *                 whose timing run has no input to prove (winning-post,
 *                 window-post, snap): cuzk.h cz_prover_submit_timing with no
 *                 input. released like prepare's job. CZ_EINVAL: no circuit
 *                 of that size.
 *   - test_circuit  optional (NULL: none): the registry family
 *                 (circuits/registry.h) whose "FAMILY:SIZE" is the kind's
 *                 circuit of a sector size ("porep"): cuzk.h cz_setup_test_params makes
 *                 TEST params of it under the name curio.params_name gives
 *                 (`cuzk setup --kind K` for every kind that has one).
 *   - curio       optional (zero: the kind has no ProofKind): its Curio
 *                 mapping (cz_kind_curio_t below): the cuzk.v1 ProofKind
 *                 number and name, the default priority, the function
 *                 that turns a SubmitProofRequest (cz_curio_request_t,
 *                 free of protobuf types) into this kind's request JSON
 *                 and input (bincode, sector and partition checks live
 *                 there), and
 *                 Curio's SRS circuit-id family with the params name of a
 *                 sector size.
 * What each door then takes from the table, with nothing to change in it:
 *   - the library (cz_prover_submit by name; cz_prover_kind_count/name/
 *     summary list the prover's kinds);
 *   - cuzkd's HTTP API (submit {"kind": name}; /v1/status "kinds"; the
 *     per-kind metrics; the "known kinds" of its messages);
 *   - cuzkd's gRPC door (daemon/grpc/curio.c: ProofKind -> kind by number,
 *     GetStatus's queues, PreloadSRS / EvictSRS circuit ids);
 *   - the CLI (cli/kind_door.c: `--kind` of prove / setup / verify lists
 *     the table; a kind without a CLI form of its own is proved by
 *     `cuzk prove --kind NAME` through an in-process prover; a kind with a
 *     test_circuit gets `cuzk setup --kind NAME`).
 * tests/kinds/test_kinds.c registers a toy kind (tests/kinds/kind_toy.c) and
 * proves through every door with it.
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
#include <stdint.h>

#include "cuzk.h"
#include "core/ctx.h"
#include "ff/fr.h"

/* What prepare builds for the engine: kinds/job.h (a kind's file and the
 * prover include it; a door needs only this header). */
typedef struct cz_kind_job cz_kind_job_t;

/* A byte string borrowed from the caller. */
typedef struct cz_bytes_view {
    const uint8_t *data;
    size_t len;
} cz_bytes_view_t;

/*
 * Curio's SubmitProofRequest (daemon/grpc/proving.proto, field numbers in
 * brackets) as plain C, so kinds map it without protobuf types. proto3:
 * 0 / empty means unset. Every pointer is borrowed for the map call.
 */
typedef struct cz_curio_request {
    int proof_kind;                        /* (2) */
    uint64_t sector_size;                  /* (3) */
    uint64_t registered_proof;             /* (4) */
    cz_bytes_view_t vanilla_proof;         /* (10) PoRep's C1 wrapper */
    const cz_bytes_view_t *vanilla_proofs; /* (11) */
    size_t n_vanilla_proofs;
    uint64_t sector_number;                             /* (20) */
    uint64_t miner_id;                                  /* (21) */
    cz_bytes_view_t randomness;                         /* (22) */
    uint32_t partition_index;                           /* (23) */
    cz_bytes_view_t comm_r_old, comm_r_new, comm_d_new; /* (30-32) */
} cz_curio_request_t;

/*
 * The input bytes a Curio map made itself (PoRep: the C1 it decoded from
 * Curio's base64 wrapper). |data| is malloc'd and MOVED to the map's
 * caller, who hands it to the prover as the job's input (never copies it)
 * and frees it; NULL: the input is the request's "input" key, if any.
 */
typedef struct cz_curio_input {
    char *data; /* owned; NUL-terminated (not counted in len) */
    size_t len;
} cz_curio_input_t;

/*
 * A kind's Curio mapping (the gRPC door): zero when it has no ProofKind.
 *   map          add the kind's fields to |req| (which holds "kind",
 *                "priority" and maybe "request_id") and give the job's
 *                input, the same input the HTTP API takes for the kind, so
 *                gRPC jobs are journaled and replayed like any other:
 *                either as |req|'s "input" key (a small input: PoSt's,
 *                snap's JSON) or, for an input of tens of MB, as bytes in
 *                *|input| (zeroed by the caller; porep-c2's C1, decoded
 *                straight from the protobuf's bytes: the one copy a map
 *                makes; daemon/server.h THE INPUT'S COPIES), not both.
 *                On error *|input| holds nothing. Errors: CZ_EINVAL /
 *                CZ_EFORMAT naming the field, CZ_ENOMEM. Pure;
 *                thread-safe.
 *   srs_family   Curio's CircuitId prefix ("porep-"): PreloadSRS of
 *                FAMILY-SIZE (SIZE 2k, 8m, 512m, 32g, 64g) loads
 *                params_name(that size); NULL: none.
 */
typedef struct cz_kind_curio {
    int proof_kind;              /* cuzk.v1 ProofKind number; 0: none */
    const char *proof_kind_name; /* "POREP_SEAL_COMMIT": GetStatus's queue name */
    int default_priority;        /* for PRIORITY_UNSPECIFIED (1 LOW .. 4 CRITICAL) */
    int (*map)(cz_ctx_t *ctx, const cz_curio_request_t *r, json_t *req, cz_curio_input_t *input);
    const char *srs_family;
    int (*params_name)(uint64_t sector_bytes, char *out, size_t cap);
} cz_kind_curio_t;

/* What a kind's public_inputs hook fills. */
typedef struct cz_kind_public {
    cz_fr *inputs; /* partitions x per_partition, partition-major
                                   * (ONE excluded); malloc'd, the caller frees */
    size_t per_partition, partitions;
    char vk_name[256]; /* the circuit's Filecoin vk file name */
    char summary[128]; /* "StackedDrgWindow2KiBV1_2, 2 sectors" */
} cz_kind_public_t;

typedef struct cz_job_kind {
    const char *name;
    const char *summary;
    const char *const *fields; /* NULL-terminated */
    int (*prepare)(void *state, cz_ctx_t *ctx, const json_t *request, const char *input,
                   size_t input_len, cz_kind_job_t *out);
    int (*validate)(const cz_kind_job_t *job, cz_ctx_t *ctx); /* may be NULL */
    void (*release)(cz_kind_job_t *job);
    int (*state_new)(void **out); /* may be NULL */
    void (*state_free)(void *state);
    void (*stats)(void *state, size_t *hits, size_t *lookups); /* may be NULL */
    int (*public_inputs)(cz_ctx_t *ctx, const char *input, size_t input_len,
                         cz_kind_public_t *out); /* may be NULL */
    cz_kind_curio_t curio;                       /* zero: not one of Curio's ProofKinds */
    int (*prepare_random)(void *state, cz_ctx_t *ctx, uint64_t sector_bytes, uint64_t seed,
                          cz_kind_job_t *out); /* may be NULL */
    const char *test_circuit;                  /* may be NULL */
} cz_job_kind_t;

/* The most kinds a table may hold (the prover keeps a state per kind). */
#define CZ_MAX_KINDS 8

/* A kind table: kind[0 .. n). A value: copy it, register on the copy. */
typedef struct cz_kinds {
    const cz_job_kind_t *kind[CZ_MAX_KINDS];
    size_t n;
} cz_kinds_t;

/* The library's kinds (circuit, porep-c2, winning-post, window-post, snap). Never NULL. */
const cz_kinds_t *cz_kinds_builtin(void);
/*
 * Add |k| (borrowed: it must outlive every prover made with |t|) to |t|.
 * CZ_EINVAL, naming the problem, when k has no name, prepare or release,
 * when its name, its ProofKind or its SRS family is already in |t|, or a
 * ProofKind without a map; CZ_ERANGE when |t| is full. Not thread-safe
 * (a table is built before it is handed out).
 */
int cz_kinds_register(cz_kinds_t *t, cz_ctx_t *ctx, const cz_job_kind_t *k);
/* The kind named |name| in |t|, or NULL; *index (may be NULL) its index. */
const cz_job_kind_t *cz_kinds_find(const cz_kinds_t *t, const char *name, size_t *index);
/* The kind of ProofKind |proof_kind| (> 0) in |t|, or NULL. */
const cz_job_kind_t *cz_kinds_by_proof_kind(const cz_kinds_t *t, int proof_kind);
/* Every kind's name in |t|, ", "-separated, into |buf| (cut to |cap|); returns |buf|. */
const char *cz_kinds_names(const cz_kinds_t *t, char *buf, size_t cap);

/*
 * "circuit": a toy or bench circuit of the registry (kinds/circuit/kind_circuit.c,
 *   circuits/registry.h);
 *   porep:SIZE is refused here (it needs a C1 input: the porep-c2 kind).
 *   circuit     "bench:N" or "toy[:X]" (required)
 *   partitions  1.. (default 1)
 *   seed        unsigned; partition p's witness uses seed*1000 + p + 1 (default 1)
 *   input       optional {"seed": N}, inline or from input_path (overrides seed)
 */
extern const cz_job_kind_t cz_kind_circuit;

/*
 * "porep-c2": PoRep SealCommit phase 2 (kinds/porep/kind_porep.c, kinds/porep/c2.h).
 *   input       the C1 JSON, inline or from input_path (required)
 *   params      default: the Filecoin name of the C1's sector size (FACTS 2)
 */
extern const cz_job_kind_t cz_kind_porep_c2;
/*
 * "snap": a SnapDeals update proof (kinds/snap/kind_snap.c, kinds/snap/job.h).
 *   input       the snap request JSON (kinds/snap/request.h), inline or input_path
 *   params      default: the Filecoin name of the registered proof's size
 */
extern const cz_job_kind_t cz_kind_snap;

/*
 * "winning-post", "window-post": one FallbackPoSt partition (kinds/
 * kind_post.c, kinds/post/job.h). input: the PoSt input JSON (kinds/post/input.h);
 * params default: the Filecoin name of the proof's circuit.
 */
extern const cz_job_kind_t cz_kind_winning_post;
extern const cz_job_kind_t cz_kind_window_post;
/* Each of porep-c2, winning-post, window-post and snap maps its ProofKind
 * (POREP_SEAL_COMMIT, WINNING_POST, WINDOW_POST_PARTITION, SNAP_DEALS_UPDATE)
 * in its own file; the fields each reads are listed there. */

#endif /* CUZK_KINDS_KINDS_H */
