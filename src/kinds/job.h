/*
 * kinds/job.h — what a kind's prepare builds (kinds/kinds.h): the engine's
 * view of one job. The partition count, the circuit shape the params must
 * match (checked at load), the constraint rows (the memory estimate), the
 * params name used when the request names none, a summary for status, and
 * the synthesize function the engine calls per partition with its
 * argument, which the kind owns until its release. Included by the kinds'
 * files and the prover (api/); the doors see only kinds/kinds.h.
 */
#ifndef CUZK_KINDS_JOB_H
#define CUZK_KINDS_JOB_H

#include <stddef.h>

#include "engine/engine.h"
#include "kinds/kinds.h"

struct cz_kind_job {
    size_t partitions;           /* >= 1 */
    cz_params_shape_t shape;     /* the params must match it (checked at load) */
    size_t rows;                 /* constraint rows, for the memory estimate */
    char default_params[256];    /* params name when the request has none ("" = required) */
    char summary[128];           /* shown in status ("bench:4096 x2") */
    cz_job_synth_fn *synthesize; /* witness of one partition */
    void *arg;                   /* owned by the kind */
};

#endif /* CUZK_KINDS_JOB_H */
