/*
 * engine/timeline.h — the event timeline every stage of the engine records.
 *
 * One line per event, the anchor's format (FACTS 7) so grep/awk habits keep
 * working:   TIMELINE,<offset_ms>,<event>,<job_id>,<detail>
 * offset_ms is from the timeline's creation with a microsecond fraction;
 * detail is comma-separated key=value pairs (device, worker, partition, ms).
 *
 * Sinks: a FILE* (stderr or a file; not owned unless opened by path) and/or
 * an in-memory capture that benches and tests analyse in process. A NULL
 * timeline is valid everywhere and records nothing.
 *
 * Cost: the line is formatted on the caller's stack without any lock; only
 * the final append (one fwrite / memcpy) is serialised. Cheap enough to leave
 * on in production.
 *
 * Thread-safety: cz_tl_emit may be called from any thread concurrently.
 */
#ifndef CUZK_ENGINE_TIMELINE_H
#define CUZK_ENGINE_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "core/ctx.h"

/* a table of macros, laid out by hand: */
/* clang-format off */
#define CZ_TL_EVENTS(X)                                                         \
    X(SYNTH_START) X(SYNTH_END) X(GPU_QUEUE) X(GPU_PICKUP) X(GPU_START)         \
    X(GPU_END) X(PREP_START) X(PREP_END) X(LOCK_WAIT) X(LOCK_ACQ) X(LOCK_REL)   \
    X(EPI_START) X(EPI_END) X(JOB_DONE)

typedef enum {
#define CZ__TL_ENUM(name) CZ_TL_##name,
    CZ_TL_EVENTS(CZ__TL_ENUM)
#undef CZ__TL_ENUM
    CZ_TL_EVENT_COUNT
} cz_tl_event_t;

/* clang-format on */
typedef struct cz_timeline cz_timeline_t;

/*
 * New timeline. |sink| (borrowed, may be NULL) receives lines as they come;
 * |capture| non-zero also keeps them in memory (cz_tl_captured).
 */
int cz_tl_new(cz_timeline_t **out, FILE *sink, int capture);
/* Same, writing to the file at |path| (created/truncated, owned). */
int cz_tl_open(cz_ctx_t *ctx, cz_timeline_t **out, const char *path, int capture);
/* Flushes and frees. NULL is a harmless no-op. */
void cz_tl_free(cz_timeline_t *tl);

/* Record one event; |fmt| formats the detail (may be NULL). NULL tl: no-op. */
void cz_tl_emit(cz_timeline_t *tl, cz_tl_event_t ev, uint64_t job_id, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/*
 * The same with the event's time given (from cz_tl_now_ms) instead of taken
 * now: lets the engine stamp LOCK_REL at the moment of release yet format
 * and write the line after the unlock. Lines may then be out of time order
 * in the log; readers pair and sort by time.
 */
void cz_tl_emit_at(cz_timeline_t *tl, double t_ms, cz_tl_event_t ev, uint64_t job_id,
                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* Milliseconds since the timeline was created. */
double cz_tl_now_ms(const cz_timeline_t *tl);
const char *cz_tl_event_name(cz_tl_event_t ev);

/*
 * The captured text so far (NUL-terminated copy, caller frees), or NULL
 * when capture is off or memory is short. *len (may be NULL) gets its length.
 */
char *cz_tl_captured(cz_timeline_t *tl, size_t *len);
void cz_tl_flush(cz_timeline_t *tl);

#endif /* CUZK_ENGINE_TIMELINE_H */
