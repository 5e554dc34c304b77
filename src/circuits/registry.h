/*
 * circuits/registry.h — circuits by name, as the CLI, the engine's benches
 * and the daemon name them:
 *
 *   toy[:X]     x^3 + x + 5 = y with witness x (default 3), public y
 *   bench:N     the synthetic Filecoin-shaped circuit with N rows (circuits/bench.h)
 *   porep:SIZE  one StackedDRG PoRep C2 partition of a production sector size
 *               (2KiB, 8MiB, 512MiB, 32GiB, 64GiB; circuits/porep/stacked.h),
 *               blank: SHAPE and KEYGEN only (setup); its PROVE witness comes
 *               from a C1 input (cz_porep_circuit with a cz_porep_input_t)
 *   porep-graph:NODES:LAYERS:CHALLENGES:BASE-SUB-TOP  a PoRep partition of
 *               a custom graph (cz_porep_params_make; e.g. porep-graph:64:2:2:8-0-0),
 *               blank like porep:SIZE
 *   winning-post:SIZE, window-post:SIZE  one FallbackPoSt partition
 *               (circuits/post/fallback.h), blank like porep:SIZE
 *   snap:SIZE   one SnapDeals EmptySectorUpdate partition (2KiB, 8MiB, 512MiB,
 *               32GiB, 64GiB; circuits/snap/snap.h), blank like porep:SIZE
 *
 * A parsed cz_circuit_t is a small value; all functions are thread-safe.
 */
#ifndef CUZK_CIRCUITS_REGISTRY_H
#define CUZK_CIRCUITS_REGISTRY_H

#include <stdint.h>

#include "circuits/bench.h"
#include "circuits/porep/stacked.h"
#include "circuits/post/fallback.h"
#include "circuits/snap/snap.h"
#include "cs/cs.h"

typedef enum {
    CZ_CIRCUIT_TOY,
    CZ_CIRCUIT_BENCH,
    CZ_CIRCUIT_POREP,
    CZ_CIRCUIT_POST,
    CZ_CIRCUIT_SNAP
} cz_circuit_kind_t;

typedef struct cz_circuit {
    cz_circuit_kind_t kind;
    char id[64];
    uint64_t toy_x;
    cz_bench_params bench;
    cz_porep_params_t porep;
    cz_post_params_t post;
    cz_snap_params_t update;
} cz_circuit_t;

/* Parse a circuit id; CZ_EINVAL naming the id when unknown or malformed. */
int cz_circuit_parse(cz_ctx_t *ctx, const char *id, cz_circuit_t *out);

/* Synthesize into |cs| (any mode) and finish it. */
int cz_circuit_synthesize(const cz_circuit_t *c, cz_cs_t *cs);
/*
 * Synthesize without finishing, with the signature cz_setup() takes
 * (|circuit| is a const cz_circuit_t *): cz_setup(ctx, &p, cz_circuit_body, &c, ...).
 */
int cz_circuit_body(cz_cs_t *cs, void *circuit);

/*
 * The PROVE-mode witness (free with cz_cs_witness_free): through the
 * constraint system for toy, through the parallel generator for bench.
 * C-free, as the provers take it: out->c is NULL (c = a*b, cs/cs.h); for
 * c, synthesize in a PROVE cs without cz_cs_omit_c.
 * |seed| varies the bench witness values (0 = the circuit's own seed).
 */
int cz_circuit_witness(cz_ctx_t *ctx, const cz_circuit_t *c, uint64_t seed, cz_cs_witness_t *out);

/* The shape without field arithmetic (SHAPE mode or the bench formula). */
int cz_circuit_shape(cz_ctx_t *ctx, const cz_circuit_t *c, size_t *rows, size_t *num_inputs,
                     size_t *num_aux, size_t popcount[3]);

#endif /* CUZK_CIRCUITS_REGISTRY_H */
