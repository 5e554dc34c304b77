/*
 * backend/cuda/probe.cu — device discovery, memory and copy helpers, and the
 * CUDA-error-to-cz_fail bridge.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "backend/cuda/internal.cuh"

int cz__cuda_fail(cz_ctx_t *ctx, cudaError_t e, const char *what)
{
    return cz_fail(ctx, CZ_EDEVICE, "cuda: %s: %s", what, cudaGetErrorString(e));
}

/* A kernel whose attributes tell whether this binary has code for the device. */
static __global__ void cz__probe_kernel(int *x) { if (x) *x = 1; }

static int probe(char *why, size_t len, int *count)
{
    char dummy[8];
    if (!why) { why = dummy; len = sizeof dummy; }
    *count = 0;
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        if (drv == 0)
            snprintf(why, len, "no CUDA driver on this machine (%s)",
                     e != cudaSuccess ? cudaGetErrorString(e) : "no device");
        else if (e == cudaErrorInsufficientDriver || drv < rt)
            snprintf(why, len, "CUDA driver too old: it supports CUDA %d.%d, this build needs %d.%d",
                     drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10);
        else
            snprintf(why, len, "%s (driver CUDA %d.%d, runtime %d.%d)",
                     e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device",
                     drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10);
        cudaGetLastError();
        return CZ_EUNAVAIL;
    }
    cudaDeviceProp p;
    if ((e = cudaGetDeviceProperties(&p, 0)) != cudaSuccess) {
        snprintf(why, len, "cudaGetDeviceProperties: %s", cudaGetErrorString(e));
        return CZ_EUNAVAIL;
    }
    if (p.major < 8) {
        snprintf(why, len, "%s has compute capability %d.%d; cuzk needs 8.0 or newer",
                 p.name, p.major, p.minor);
        return CZ_EUNAVAIL;
    }
    cudaFuncAttributes fa;
    if ((e = cudaFuncGetAttributes(&fa, cz__probe_kernel)) != cudaSuccess) {
        snprintf(why, len, "no kernel image for %s (sm_%d%d): %s", p.name, p.major, p.minor,
                 cudaGetErrorString(e));
        cudaGetLastError();
        return CZ_EUNAVAIL;
    }
    snprintf(why, len, "%d device(s); 0: %s, sm_%d%d, %d SMs, %.1f GiB; driver CUDA %d.%d, runtime %d.%d",
             n, p.name, p.major, p.minor, p.multiProcessorCount,
             (double)p.totalGlobalMem / (1u << 30), drv / 1000, drv % 1000 / 10, rt / 1000,
             rt % 1000 / 10);
    *count = n;
    return CZ_OK;
}

extern "C" int cz_cuda_probe(char *why, size_t len)
{
    int n;
    return probe(why, len, &n);
}

extern "C" int cz_cuda_device_count(void)
{
    int n;
    char why[256];
    return probe(why, sizeof why, &n) == CZ_OK ? n : 0;
}

extern "C" int cz_cuda_set_device(cz_ctx_t *ctx, int device)
{
    CZ__CU(ctx, cudaSetDevice(device));
    return CZ_OK;
}

extern "C" int cz_cuda_malloc(cz_ctx_t *ctx, void **dptr, size_t bytes)
{
    *dptr = NULL;
    cudaError_t e = cudaMalloc(dptr, bytes);
    if (e != cudaSuccess) {
        *dptr = NULL;
        /* out of memory is not sticky: the device stays usable and a smaller plan may fit
         * (cuda_backend.c plans again); clear it so that the next call does not see it */
        const bool oom = e == cudaErrorMemoryAllocation;
        if (oom)
            (void)cudaGetLastError();
        return cz_fail(ctx, oom ? CZ_ENOMEM : CZ_EDEVICE, "cuda: cudaMalloc(%zu bytes): %s",
                       bytes, cudaGetErrorString(e));
    }
    return CZ_OK;
}

extern "C" void cz_cuda_free(void *dptr)
{
    if (dptr)
        cudaFree(dptr);
}

extern "C" int cz_cuda_host_alloc(cz_ctx_t *ctx, void **hptr, size_t bytes)
{
    *hptr = NULL;
    cudaError_t e = cudaMallocHost(hptr, bytes);
    if (e != cudaSuccess) {
        *hptr = NULL;
        return cz_fail(ctx, CZ_EDEVICE, "cuda: cudaMallocHost(%zu bytes): %s", bytes,
                       cudaGetErrorString(e));
    }
    return CZ_OK;
}

extern "C" void cz_cuda_host_free(void *hptr)
{
    if (hptr)
        cudaFreeHost(hptr);
}

extern "C" int cz_cuda_host_register(cz_ctx_t *ctx, void *p, size_t bytes)
{
    cudaError_t e = cudaHostRegister(p, bytes, cudaHostRegisterPortable);
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); /* not sticky: clear it for the next call */
        return cz_fail(ctx, CZ_EDEVICE, "cuda: cudaHostRegister(%zu bytes): %s", bytes,
                       cudaGetErrorString(e));
    }
    return CZ_OK;
}

extern "C" void cz_cuda_host_unregister(void *p)
{
    if (p)
        cudaHostUnregister(p);
}

/* ---- large pinned buffers: hugepages faulted in parallel, then registered ---- */

#define CZ__PIN_MAX_THREADS 32u

typedef struct {
    char *p;
    size_t bytes;
} fault_slice;

static void *fault_in(void *arg)
{
    fault_slice *s = (fault_slice *)arg;
    memset(s->p, 0, s->bytes);   /* the first touch: the kernel's page faults happen here */
    return NULL;
}

/* Touch every page of |mem| on |threads| threads (the calling one included). */
static void fault_parallel(void *mem, size_t bytes, unsigned threads)
{
    fault_slice sl[CZ__PIN_MAX_THREADS];
    pthread_t th[CZ__PIN_MAX_THREADS];
    bool started[CZ__PIN_MAX_THREADS] = { false };
    const size_t per = (bytes / threads + CZ_CUDA_PIN_ALIGN - 1) & ~(CZ_CUDA_PIN_ALIGN - 1);
    for (unsigned t = 0; t < threads; t++) {
        size_t b = per * t < bytes ? per * t : bytes, e = b + per < bytes ? b + per : bytes;
        sl[t].p = (char *)mem + b;
        sl[t].bytes = e - b;
        if (t > 0 && sl[t].bytes)
            started[t] = pthread_create(&th[t], NULL, fault_in, &sl[t]) == 0;
        if (t > 0 && sl[t].bytes && !started[t])
            fault_in(&sl[t]);
    }
    fault_in(&sl[0]);
    for (unsigned t = 1; t < threads; t++)
        if (started[t])
            pthread_join(th[t], NULL);
}

extern "C" int cz_cuda_pinned_alloc(cz_ctx_t *ctx, cz_cuda_pinned *out, size_t bytes,
                                    unsigned threads)
{
    memset(out, 0, sizeof *out);
    if (threads == 0)
        threads = 8;
    if (threads > CZ__PIN_MAX_THREADS)
        threads = CZ__PIN_MAX_THREADS;
    const size_t rounded = (bytes + CZ_CUDA_PIN_ALIGN - 1) & ~(CZ_CUDA_PIN_ALIGN - 1);
    void *mem = NULL;
    if (rounded && posix_memalign(&mem, CZ_CUDA_PIN_ALIGN, rounded) == 0) {
        (void)madvise(mem, rounded, MADV_HUGEPAGE);   /* advice: 4 KiB pages still work */
        fault_parallel(mem, rounded, threads);
        if (cudaHostRegister(mem, rounded, cudaHostRegisterDefault) == cudaSuccess) {
            out->mem = mem;
            out->bytes = rounded;
            out->registered = true;
            return CZ_OK;
        }
        (void)cudaGetLastError();   /* not sticky: clear it and take the other way */
        free(mem);
    }
    int rc = cz_cuda_host_alloc(ctx, &out->mem, bytes);
    if (rc == CZ_OK)
        out->bytes = bytes;
    return rc;
}

extern "C" void cz_cuda_pinned_free(cz_cuda_pinned *p)
{
    if (!p || !p->mem)
        return;
    if (p->registered) {
        cudaHostUnregister(p->mem);
        free(p->mem);
    } else {
        cudaFreeHost(p->mem);
    }
    memset(p, 0, sizeof *p);
}

extern "C" int cz_cuda_memcpy_htod(cz_ctx_t *ctx, void *dst, const void *src, size_t bytes)
{
    CZ__CU(ctx, cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    CZ__CU(ctx, cudaStreamSynchronize(0));   /* the DMA itself (cuda.h) */
    return CZ_OK;
}

/* Chunk k goes through bounce[k % 2]: before refilling a buffer, wait for
 * the DMA that last read it (its event). */
static int upload_chunks(cz_ctx_t *ctx, char *dst, size_t bytes, void *const bounce[2],
                         size_t bb, cz_cuda_fill_fn *fill, void *arg, cudaStream_t st,
                         cudaEvent_t ev[2])
{
    for (size_t off = 0, k = 0; off < bytes; off += bb, k++) {
        const size_t len = bytes - off < bb ? bytes - off : bb;
        const int b = (int)(k & 1);
        if (k >= 2)
            CZ__CU(ctx, cudaEventSynchronize(ev[b]));
        int rc = fill(arg, bounce[b], off, len);
        if (rc != CZ_OK)
            return rc;
        CZ__CU(ctx, cudaMemcpyAsync(dst + off, bounce[b], len, cudaMemcpyHostToDevice, st));
        CZ__CU(ctx, cudaEventRecord(ev[b], st));
    }
    CZ__CU(ctx, cudaStreamSynchronize(st));
    return CZ_OK;
}

extern "C" int cz_cuda_upload_bounced(cz_ctx_t *ctx, void *dst, size_t bytes,
                                      void *const bounce[2], size_t chunk,
                                      cz_cuda_fill_fn *fill, void *fill_arg)
{
    if (chunk == 0)
        return cz_fail(ctx, CZ_EINVAL, "cuda upload: chunk of 0 bytes");
    cudaStream_t st = NULL;
    cudaEvent_t ev[2] = { NULL, NULL };
    CZ__CU(ctx, cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    int rc = CZ_OK;
    for (int i = 0; i < 2 && rc == CZ_OK; i++)
        if (cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming) != cudaSuccess)
            rc = cz_fail(ctx, CZ_EDEVICE, "cuda: cudaEventCreate failed");
    if (rc == CZ_OK)
        rc = upload_chunks(ctx, (char *)dst, bytes, bounce, chunk, fill, fill_arg, st, ev);
    if (rc != CZ_OK)
        cudaStreamSynchronize(st);   /* no DMA may still read a bounce buffer */
    for (int i = 0; i < 2; i++)
        if (ev[i])
            cudaEventDestroy(ev[i]);
    cudaStreamDestroy(st);
    return rc;
}

extern "C" int cz_cuda_memcpy_dtoh(cz_ctx_t *ctx, void *dst, const void *src, size_t bytes)
{
    CZ__CU(ctx, cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
    return CZ_OK;
}

extern "C" int cz_cuda_sync(cz_ctx_t *ctx)
{
    CZ__CU(ctx, cudaDeviceSynchronize());
    return CZ_OK;
}

extern "C" int cz_cuda_reserve_stack(cz_ctx_t *ctx, size_t bytes)
{
    size_t now = 0;
    CZ__CU(ctx, cudaDeviceGetLimit(&now, cudaLimitStackSize));
    if (bytes > now)
        CZ__CU(ctx, cudaDeviceSetLimit(cudaLimitStackSize, bytes));
    return CZ_OK;
}

extern "C" int cz_cuda_mem_info(cz_ctx_t *ctx, size_t *free_bytes, size_t *total_bytes)
{
    CZ__CU(ctx, cudaMemGetInfo(free_bytes, total_bytes));
    return CZ_OK;
}

static __global__ void cz__fault_kernel(void) { __trap(); }

extern "C" int cz_cuda_inject_fault(cz_ctx_t *ctx)
{
    cz__fault_kernel<<<1, 1>>>();
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e == cudaSuccess)
        return cz_fail(ctx, CZ_EDEVICE, "cuda: injected fault did not fault");
    return cz__cuda_fail(ctx, e, "injected fault (a DEVICE fault site, core/fault.h)");
}
