/*
 * groth16/prover.h — bellperson's Groth16 prover, one partition at a time,
 * in the three parts the engine schedules (ARCHITECTURE.md):
 *
 *   cz_g16_prep      CPU: witness -> canonical scalars (in place), the
 *                    zero / one / significant split of aux and its
 *                    restrictions to the A and B densities; posts the
 *                    partition's prep latch (also on failure).
 *   cz_g16_device    the backend's device region (device lock held by the
 *                    caller): H from a, b, c (c = a*b when the witness has
 *                    no c), the H MSM, then — after prep —
 *                    L, A, B1 (and B2 if the backend does G2).
 *   cz_g16_epilogue  CPU: B2 if left to the CPU, assembly with r, s
 *                    (FACTS 1), then the scalar splits are freed; the
 *                    witness's arrays go with cz_g16_partition_free (aux
 *                    sooner where the caller gives it: cz_g16_give_aux).
 *
 * Freed arrays (a, b, c, aux) go to the recycler of the ctx the partition
 * was made with (core/recycle.h), when it has one, for the next
 * partition's synthesis; otherwise they are freed.
 *
 * prep and device may run concurrently on different threads (device waits
 * for prep before it needs prep's output); epilogue runs after both.
 * cz_g16_prove() runs the three back to back.
 *
 * Ownership: the partition takes the witness (the caller's struct is zeroed)
 * and consumes it in place: a/b/c become the H coefficients, aux becomes
 * canonical scalars. The witness may be c-free (c == NULL, cz_cs_omit_c:
 * what the provers synthesize): the proof is the same bytes as with the
 * c = a*b it stands for; an unsatisfying witness gives a proof that fails
 * verification either way. |params| is borrowed and must outlive the partition.
 * r and s are secrets: kept only in the partition, scrubbed when it is freed.
 *
 * Thread-safety: a partition is driven by one thread per part as above;
 * distinct partitions are independent and may share params and backend.
 */
#ifndef CUZK_GROTH16_PROVER_H
#define CUZK_GROTH16_PROVER_H

#include <stddef.h>

#include "backend/backend.h"
#include "cs/cs.h"
#include "core/ctx.h"
#include "groth16/params.h"
#include "groth16/proof.h"

typedef struct cz_g16_partition cz_g16_partition_t;

/* Seconds spent per part and per stage (stage times come from the backend). */
typedef struct cz_g16_timings {
    double prep, stage, device, epilogue;
    double ntt, msm_h, prep_wait, msm_l, msm_a, msm_b1, msm_b2, assembly;
    double upload;     /* params bases to the device (inside device; a set's first region) */
    double setup;      /* device contexts and buffers (inside device; the first region) */
    bool tails_staged; /* prep left the splits in the backend's memory (ops->stage_tails) */
    /* the MSMs waited this long for streamed windows (inside their stages); of which
     * the H MSM's */
    double stream_wait, stream_wait_h;
} cz_g16_timings_t;

/*
 * The backend's prepare() (backend.h) for partitions proved with |params|
 * (their domain is the params': h holds 2^log_m - 1 points). Non-blocking;
 * |params| must stay alive until cz_backend_settle(be) returned.
 */
void cz_g16_prepare(cz_backend_t *be, const cz_params_t *params);

/* The params shape a witness needs (FACTS 1): domain m = 2^ceil(log2(rows)). */
void cz_g16_shape_of(const cz_cs_witness_t *w, cz_params_shape_t *shape);
/* The same of a finished cs of any mode (a SHAPE synthesis, usually);
 * *rows gets its row count. */
void cz_g16_shape_of_cs(const cz_cs_t *cs, cz_params_shape_t *shape, size_t *rows);

/*
 * New partition over |witness| (taken) and |params| (borrowed). r and s may
 * be NULL: then they come from the OS CSPRNG; passing them is for tests
 * (the same r, s give the same proof bytes). Errors: CZ_EMISMATCH when the
 * params do not fit the witness's shape (the message names the vector),
 * CZ_ENOMEM, CZ_EIO (CSPRNG). On error the witness is freed.
 */
int cz_g16_partition_new(cz_ctx_t *ctx, cz_g16_partition_t **out, const cz_params_t *params,
                         cz_cs_witness_t *witness, const cz_fr *r, const cz_fr *s);
/* Scrubs r, s and frees every buffer (large arrays to the ctx's recycler).
 * NULL is a harmless no-op. */
void cz_g16_partition_free(cz_g16_partition_t *p);

/*
 * Prep (CPU): the input scalars and the three scalar splits, then posts
 * the partition's latch (also on failure). With a backend set it offers
 * the splits to it (backend.h, ops->stage_tails) before posting.
 */
int cz_g16_prep(cz_ctx_t *ctx, cz_g16_partition_t *p);
/*
 * The backend the partition will be proved on, for prep to hand its
 * splits to (set before prep starts; NULL, the default: none). Once prep
 * staged them there, the partition must be proved on |be| (or freed).
 */
void cz_g16_set_backend(cz_g16_partition_t *p, cz_backend_t *be);
/*
 * Outside the device lock, before cz_g16_device: let the backend copy a and
 * b into its staging memory (backend.h, ops->stage); the partition's own a/b
 * are freed right away. A no-op for backends without staging. Once staged,
 * the partition must be proved on |be| (or freed, which unstages).
 */
int cz_g16_stage(cz_ctx_t *ctx, cz_backend_t *be, cz_g16_partition_t *p);
/*
 * Outside the device lock, before cz_g16_device: a and b that stay in host
 * memory (not staged) page-locked where they are (backend.h, ops->pin), so
 * that the region's uploads are DMA alone; cz_g16_stage does it when it
 * could not stage. Best effort; a no-op for backends without it, for a
 * partition staged or pinned already, and once a/b are released. Undone
 * before a and b are freed (cz_g16_give_abc, cz_g16_release_abc,
 * cz_g16_partition_free). Its time counts in the timings' stage.
 */
void cz_g16_pin(cz_backend_t *be, cz_g16_partition_t *p);
int cz_g16_device(cz_ctx_t *ctx, cz_backend_t *be, cz_g16_partition_t *p);
/*
 * Batches (backend.h, batch_max / device_batch): how many partitions of
 * |p|'s params one region of |be| should take (>= 1), and the region of n
 * such partitions (1 .. CZ_BACKEND_MAX_BATCH; device lock held, each
 * prepared as for cz_g16_device), with each partition's outcome in res[i]
 * and its timings' device time the region's share; returns as
 * cz_backend_device_batch (CZ_EDEVICE: the device failed), CZ_EINVAL for
 * a bad n.
 */
unsigned cz_g16_batch_max(cz_backend_t *be, const cz_g16_partition_t *p);
int cz_g16_device_batch(cz_ctx_t *ctx, cz_backend_t *be, cz_g16_partition_t *const *ps, size_t n,
                        cz_batch_result *res);
/*
 * The flag the device region checks between its steps (backend.h,
 * cz_backend_step): once set, cz_g16_device returns CZ_ECANCELED at the
 * next boundary. Borrowed: must outlive the partition's device region.
 * NULL (the default) never cancels.
 */
void cz_g16_set_cancel(cz_g16_partition_t *p, const atomic_bool *cancel);
/*
 * |done|(|arg|), called once by the device region as soon as it reads the
 * partition's a, b and c no more (backend.h, cz_prove_work_t.abc_done):
 * on the region's thread, the device lock held, so it must return at once.
 * From then on cz_g16_give_abc may run on any one thread while the region
 * goes on. NULL (the default): nothing is told.
 */
void cz_g16_set_abc_done(cz_g16_partition_t *p, void (*done)(void *), void *arg);
int cz_g16_epilogue(cz_ctx_t *ctx, cz_g16_partition_t *p, cz_proof_t *out);

/* Free a/b/c (call after the device region, outside the device lock). */
void cz_g16_release_abc(cz_g16_partition_t *p);
/*
 * The host a, b and c to the recycler, once the region has said it reads
 * them no more (cz_g16_set_abc_done), while it may still run: only the
 * witness's arrays (unpinned first, ops->unpin), nothing the region touches
 * (staging stays for cz_g16_release_abc, which is still called after the
 * region).
 */
void cz_g16_give_abc(cz_g16_partition_t *p);
/*
 * After a cz_g16_prep that succeeded, the witness's aux is read by nothing
 * (prep made the scalar splits from it): cz_g16_give_aux hands it to the
 * recycler, and cz_g16_aux_bytes says how many bytes that gives (0 when
 * there is none or prep has not succeeded; the engine gives them back to
 * its budget first). On prep's thread, or after the partition's prep
 * latch; never while prep runs.
 */
size_t cz_g16_aux_bytes(const cz_g16_partition_t *p);
void cz_g16_give_aux(cz_g16_partition_t *p);
/* Bytes of a/b/c held by the partition: 2 or 3 (with c) domain vectors, 0
 * once released. */
size_t cz_g16_partition_abc_bytes(const cz_g16_partition_t *p);
const cz_g16_timings_t *cz_g16_partition_timings(const cz_g16_partition_t *p);

/* prep, device, epilogue on this thread. |timings| may be NULL. */
int cz_g16_prove(cz_ctx_t *ctx, cz_backend_t *be, const cz_params_t *params,
                 cz_cs_witness_t *witness, const cz_fr *r, const cz_fr *s, cz_proof_t *out,
                 cz_g16_timings_t *timings);

#endif /* CUZK_GROTH16_PROVER_H */
