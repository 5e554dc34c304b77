/*
 * timeline/analyze_int.h — private to the timeline analyzer: the report's
 * layout, shared by analyze_parse.c (lines -> spans) and analyze.c (spans ->
 * figures, accessors). See analyze.h for the contract.
 */
#ifndef CUZK_TIMELINE_ANALYZE_INT_H
#define CUZK_TIMELINE_ANALYZE_INT_H

#include <stdbool.h>

#include "timeline/analyze.h"

/* An open start, waiting for its end. used == false marks an empty slot. */
typedef struct {
    bool used;
    int8_t kind;
    uint64_t job;
    int32_t partition, device, worker, synth_worker;
    int64_t start_us;
    uint32_t line;
} open_t;

struct cz_timeline_report {
    bool finished;
    uint32_t line; /* lines fed so far */
    size_t nevents, njobs_done;

    cz_tl_span_t *spans;
    size_t nspans, cap_spans;

    open_t *open; /* linear-probing table, cap a power of 2 */
    size_t nopen, cap_open;

    cz_tl_device_t *devs;
    size_t ndevs;
    cz_tl_overlap_t *overlaps;
    size_t noverlaps, cap_overlaps;
    cz_tl_stage_t stages[CZ_SPAN_NKINDS];
    int64_t first_us, last_us;

    char *warn[CZ_TL_MAX_WARNINGS];
    size_t nwarn_msgs, nwarn;
};

/* Count a warning; keep its text while fewer than CZ_TL_MAX_WARNINGS are kept. */
void cz__tl_warn(cz_timeline_report_t *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Grow *pp (n used of *cap elements of |size| bytes) to hold one more; false on ENOMEM. */
bool cz__tl_grow(void *pp, size_t n, size_t *cap, size_t size);
/* Warn about every start never ended (log order) and free the open table.
 * Returns CZ_OK or CZ_ENOMEM. */
int cz__tl_close_open(cz_timeline_report_t *r);

#endif /* CUZK_TIMELINE_ANALYZE_INT_H */
