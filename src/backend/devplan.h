/*
 * backend/devplan.h — the device-memory plan of a region: what a device's
 * memory holds while it proves one partition, made from the memory free
 * at that moment (not the card's total).
 *
 * A region needs, on the device: the H context (the domain's buffers and
 * tables), the MSM workspace and its buckets, and the bases of five params
 * vectors (h, l, a, b_g1, b_g2). A vector is either RESIDENT (kept on the
 * device between regions) or STREAMED: its points go host -> device in
 * windows through two buffers, each window's copy overlapping the MSM of
 * the previous one. Streaming through the H context's buffers costs no
 * memory: once the H coefficients are made, the H context's other buffers
 * are idle for the rest of the region (cuda.h, cz_cuda_h_scratch). Where
 * even the H context does not fit, the H is made on the CPU and the
 * vectors stream through two buffers of their own.
 *
 * The plan, from the most memory to the least:
 *   RESIDENT    the whole set, the full MSM workspace and buckets (today's
 *               fast path on an 80 GB card);
 *   STREAM      the H context on the device (three domain buffers, or two
 *               where three do not fit), a workspace that fits with
 *               twice the least buckets (the least where twice does not
 *               fit), and as many vectors resident as fit in the order of
 *               cz_devplan_residency (the ones whose MSMs are too short to
 *               hide their copy come first), the others streamed; what
 *               the plan then leaves (after the slots) goes to the
 *               buckets, up to the full plan's (a larger window size);
 *   STREAM_HOST_H  the vectors streamed through two buffers of their own
 *               (those that fit beside them resident where the H is made
 *               on the CPU; none where it is made on the device in turn,
 *               whose context takes their place); the H made on the device in turn
 *               with the MSMs (h_in_turn: a two-buffer H context made for
 *               each partition's H and given back, with its coefficients
 *               in host memory, before the MSM workspace and the windows
 *               are made again) where that context alone fits, else on
 *               the CPU;
 *   CPU         not even that fits: the region runs its MSMs on the CPU
 *               (the partition is still proved).
 * Staging slots (a and b uploaded before the region) are planned only
 * where they fit after everything else.
 *
 * Pure function: no CUDA, no allocation, no global state; unit-tested over
 * card sizes in CI (tests/backend/test_devplan.c). The sizes of the parts
 * (H context, workspaces) come from the caller, which asks the CUDA code.
 */
#ifndef CUZK_BACKEND_DEVPLAN_H
#define CUZK_BACKEND_DEVPLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"

enum { CZ_DEVPLAN_MSM_SIZES = 3 }; /* MSM workspaces offered, largest first */

typedef enum {
    CZ_DEVPLAN_RESIDENT = 0,
    CZ_DEVPLAN_STREAM = 1,
    CZ_DEVPLAN_STREAM_HOST_H = 2,
    CZ_DEVPLAN_CPU = 3,
} cz_devplan_level;

typedef struct {
    size_t budget;                          /* device bytes the plan may use (after headroom) */
    size_t vec_bytes[CZ_BASES_COUNT];       /* each vector's bases; 0: not on the device */
    size_t h_bytes;                         /* the H context for the domain, three buffers;
                                             * 0: not offered (tests: the two-buffer H) */
    size_t h_buffer_bytes;                  /* one of its domain buffers (the stream window) */
    size_t h2_bytes;                        /* the H context with two buffers (c = a∘b kept
                                             * in host memory meanwhile); 0: not offered */
    size_t h2_window_bytes;                 /* its stream window: half its idle buffer */
    size_t msm_bytes[CZ_DEVPLAN_MSM_SIZES]; /* the MSM workspace options, largest first */
    size_t bucket_full;                     /* buckets the full plan lets the MSM take */
    size_t bucket_least;                    /* the least bucket cap an MSM works with */
    size_t slot_bytes;                      /* one staging slot (a and b of one partition) */
    unsigned max_slots;
    size_t own_stream_bytes;    /* each of two window buffers of the plan's own
                                             * (STREAM_HOST_H; STREAM where the H's buffers
                                             * are smaller than min_window_bytes) */
    size_t min_window_bytes;    /* the least a window buffer must hold (the
                                             * inputs' bases and one bitmap word of points) */
    cz_devplan_level min_level; /* tests, benchmarks: no level above this one;
                                             * at STREAM or below, every vector streams */
    bool no_h_in_turn;          /* STREAM_HOST_H makes the H on the CPU (benchmarks: the
                                 * ratio against the H in turn) */
} cz_devplan_in;

typedef struct {
    cz_devplan_level level;
    unsigned resident;       /* 1 << CZ_BASES_*: kept on the device */
    unsigned streamed;       /* on the device's path but streamed (the rest of vec_bytes) */
    bool h_on_device;        /* the H context held for the region (RESIDENT, STREAM) */
    bool h_in_turn;          /* STREAM_HOST_H: the H on the device all the same, in a
                                 * two-buffer context made and given back in turn with the
                                 * MSM workspace and the windows (total: the larger) */
    unsigned h_buffers;      /* the H context's domain buffers: 3, or 2 where three do not
                                 * fit (STREAM) or in turn; 0 with the H on the CPU */
    int msm_size;            /* index into msm_bytes; -1: no MSM workspace (CPU) */
    size_t bucket_cap;       /* for cz_cuda_msm_set_bucket_cap */
    size_t stream_bytes;     /* one stream window buffer (0: nothing streams) */
    bool own_stream_buffers; /* the windows are buffers of their own, not the H's (a
                                 * small domain's H buffers may not hold a window) */
    unsigned slots;          /* staging slots */
    size_t total;            /* device bytes the plan holds at most */
} cz_devplan;

/* The order in which vectors are made resident when not all fit (CZ_BASES_*). */
extern const int cz_devplan_residency[CZ_BASES_COUNT];

/* The plan for |in|. Never fails: the least is the CPU level. */
void cz_devplan_make(const cz_devplan_in *in, cz_devplan *out);

/* One line describing |p| (for logs, status and the benchmarks): snprintf's contract. */
int cz_devplan_format(const cz_devplan *p, const cz_devplan_in *in, char *buf, size_t len);

#endif /* CUZK_BACKEND_DEVPLAN_H */
