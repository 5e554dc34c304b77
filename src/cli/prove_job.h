/*
 * cli/prove_job.h — the one way every `cuzk prove` form proves in this
 * process: through the public API (include/cuzk.h), never the engine.
 *
 *   1. cz_cli_prover_new   a prover on the command's --backend / --device /
 *                          --threads / --params-dir (one device). The backend
 *                          is made here, so an unusable one fails before any
 *                          input is read. The memory margin is the library's
 *                          (cz_prover_config_t.memory_margin 0: it counts the
 *                          params it holds): no door computes one.
 *   2. cz_cli_prover_run   submit one job, wait for it with the progress
 *                          display, take the proof (and, when asked, the
 *                          public inputs).
 *
 * The kinds (porep-c2, winning-post, window-post, snap, circuit, a test's
 * toy) and their checks are the library's; a command adds its options, its
 * final check from public values (cuzk.h cz_kind_verify) and its result line.
 *
 * Errors: the library's code with its message set in |ctx| (cz_fail), so
 * every command prints "cuzk prove: MESSAGE". Ownership: the result's
 * buffers are the library's (cz_cli_job_result_free). Not thread-safe (one
 * command per process).
 */
#ifndef CUZK_CLI_PROVE_JOB_H
#define CUZK_CLI_PROVE_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "cli/progress.h"
#include "core/ctx.h"

/* What a command's options give the prover. Zero / NULL fields: the library's default. */
typedef struct cz_cli_prover_opts {
    const char *backend; /* "cpu", "cuda", "auto" */
    size_t device, threads, workers;
    const char *params_dir;       /* NULL: "." */
    const struct cz_kinds *kinds; /* NULL: the library's table (a test passes one with a toy) */
    size_t device_mem_limit;      /* cz_prover_config_t.cuda_device_mem_limit */
    size_t memory_budget;         /* cz_prover_config_t.memory_budget */
    unsigned max_batch;           /* cz_prover_config_t.cuda_max_batch */
} cz_cli_prover_opts_t;

/* |cfg| initialized (cz_prover_config_init) and filled from |o|, one device: the config
 * every in-process door of the CLI and the benchmarks starts from. */
void cz_cli_prover_config(const cz_cli_prover_opts_t *o, cz_prover_config_t *cfg);

/*
 * *out <- a prover (cz_prover_free it). CZ_EINVAL for a bad option (an
 * unknown backend name: the command's usage error), the library's other
 * codes (an unusable cuda: CZ_EUNAVAIL), with its message in |ctx|.
 */
int cz_cli_prover_new(cz_ctx_t *ctx, const cz_cli_prover_opts_t *o, cz_prover_t **out);

/* One job's outcome. */
typedef struct cz_cli_job_result {
    uint8_t *proof; /* partitions x 192 bytes (cz_free) */
    size_t len;
    uint8_t *inputs; /* with want_inputs: partitions x per reprs (cz_free) */
    size_t per, parts;
    cz_job_info_t info;     /* the ended job (timings, summary, partitions) */
    double t_submit, t_run; /* seconds: the submit call; submit to the end */
    bool refused;           /* the submit refused the request (a bad input) */
} cz_cli_job_result_t;

/*
 * Submit |req| to |p|, draw |progress| (may be NULL) until the job ends,
 * take its proof and, with |want_inputs|, its public inputs into |r|.
 * CZ_OK only for a DONE job; else the code with "MESSAGE" in |ctx| (a
 * failed job: the job's message). r->refused tells a refused submit from
 * a failed job.
 */
int cz_cli_prover_run(cz_ctx_t *ctx, cz_prover_t *p, const cz_job_request_t *req, bool want_inputs,
                      cz_progress_t *progress, cz_cli_job_result_t *r);

/*
 * The rest of cz_cli_prover_run for job |id|, submitted at cz_mono_s()
 * |t0| (r->t_run counts from it): wait, proof, public inputs. |r| is the
 * caller's, zeroed before the submit.
 */
int cz_cli_prover_wait(cz_ctx_t *ctx, cz_prover_t *p, uint64_t id, double t0, bool want_inputs,
                       cz_progress_t *progress, cz_cli_job_result_t *r);

void cz_cli_job_result_free(cz_cli_job_result_t *r);

/* r's proof to |proof_path| and, when |public_path| is set, its public inputs
 * (r->inputs: run with want_inputs) to it. CZ_EIO names the path. */
int cz_cli_write_outputs(cz_ctx_t *ctx, const cz_cli_job_result_t *r, const char *proof_path,
                         const char *public_path);

/*
 * cz_cli_prover_run of |req| (public inputs when |public_path| is set), the
 * outputs written (cz_cli_write_outputs), *pi the prover's info and the
 * progress ended at "done": the plain in-process prove, whose proof the
 * engine verified with the params' vk. The caller prints its result line.
 */
int cz_cli_prove_to_files(cz_ctx_t *ctx, cz_prover_t *p, const cz_job_request_t *req,
                          const char *proof_path, const char *public_path, cz_progress_t *progress,
                          cz_cli_job_result_t *r, cz_prover_info_t *pi);

/*
 * A kind whose input is a file and whose proof is checked from its public
 * values (the PoSt kinds, snap): read |input_path| (at most |max| bytes),
 * prove one job of |kind| on a prover of |po|, check the proof with
 * cuzk.h cz_kind_verify (the Filecoin-named vk in po->params_dir) and
 * write it to |proof_path|. *pub: what the public values say; *usage: a
 * bad backend. The caller prints its result line and frees |r|.
 */
int cz_cli_prove_checked(cz_ctx_t *ctx, const cz_cli_prover_opts_t *po, const char *kind,
                         const char *input_path, size_t max, const char *proof_path,
                         cz_cli_job_result_t *r, cz_kind_public_info_t *pub, cz_prover_info_t *pi,
                         bool *usage);

/*
 * The params of |path| as a prover takes them (cz_job_request_t.params,
 * with params_allow_paths): an existing file's absolute path in |buf|
 * (PATH_MAX), else |path| unchanged (a name in the params dir; NULL: the
 * kind's default).
 */
const char *cz_cli_params_arg(const char *path, char *buf);

#endif /* CUZK_CLI_PROVE_JOB_H */
