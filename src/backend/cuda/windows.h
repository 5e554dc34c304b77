/*
 * backend/cuda/windows.h — a params vector streamed through the device in
 * windows (the CUDA backend's STREAM plans, backend/devplan.h).
 *
 * Points [0, n) of a vector go host -> device in windows: window 0 is
 * [0, head + stride), each next one the following |stride| points (the
 * last one shorter). Each window lands in one of two device buffers and is
 * handed to |consume| (which runs its MSMs, synchronously); meanwhile the
 * next window's copy runs on the copier's stream. From a pinned host copy
 * of the vector the copies are asynchronous and overlap the MSMs; without
 * one (pinning failed) |fill| uploads each window synchronously.
 *
 * Memory: borrowed; the buffers and the copier belong to the caller, who
 * must not touch the buffers while a run is going. Thread-safety: one run
 * per cz_windows at a time. Errors: the first of the copies', fill's or
 * consume's; every copy enqueued has landed when cz_windows_run returns.
 */
#ifndef CUZK_BACKEND_CUDA_WINDOWS_H
#define CUZK_BACKEND_CUDA_WINDOWS_H

#include <stddef.h>

#include "backend/cuda/cuda.h"

typedef int cz_window_consume(void *arg, const void *dev, size_t first, size_t n);
typedef int cz_window_fill(void *arg, void *dev, size_t first, size_t n);

typedef struct {
    cz_cuda_copier *copier;
    void *buf[2];
    size_t buf_bytes; /* each */
} cz_windows;

typedef struct {
    size_t bytes; /* copied to the device */
    unsigned windows;
    double wait_s; /* the MSMs waited for copies (or fills) this long */
} cz_window_stats;

/* The largest stride (a multiple of |align| points) for which window 0 fits a buffer; 0: none. */
size_t cz_windows_stride(const cz_windows *ws, size_t point_bytes, size_t head, size_t align);

/* |pinned|: the vector's points in pinned host memory, or NULL: |fill| uploads each window. */
int cz_windows_run(cz_ctx_t *ctx, const cz_windows *ws, const void *pinned, cz_window_fill *fill,
                   void *fill_arg, size_t point_bytes, size_t n, size_t head, size_t stride,
                   cz_window_consume *consume, void *arg, cz_window_stats *stats);

#endif /* CUZK_BACKEND_CUDA_WINDOWS_H */
