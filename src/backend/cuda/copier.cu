/*
 * backend/cuda/copier.cu — host -> device copies on a stream of their own,
 * two at a time (cuda.h, cz_cuda_copier): what streams a params vector's
 * windows while the previous window's MSM runs on the MSM's stream.
 */
#include <stdlib.h>

#include "backend/cuda/internal.cuh"

struct cz_cuda_copier {
    int device;
    cudaStream_t stream;
    cudaEvent_t done[2];
};

extern "C" void cz_cuda_copier_free(cz_cuda_copier *c)
{
    if (!c)
        return;
    cudaSetDevice(c->device);
    if (c->stream)
        cudaStreamSynchronize(c->stream);   /* no copy outlives its buffers' owner */
    for (int i = 0; i < 2; i++)
        if (c->done[i])
            cudaEventDestroy(c->done[i]);
    if (c->stream)
        cudaStreamDestroy(c->stream);
    free(c);
}

extern "C" int cz_cuda_copier_new(cz_ctx_t *ctx, cz_cuda_copier **out, int device)
{
    *out = NULL;
    cz_cuda_copier *c = (cz_cuda_copier *)calloc(1, sizeof *c);
    if (!c)
        return cz_fail(ctx, CZ_ENOMEM, "cuda copier");
    c->device = device;
    int rc = cz_cuda_set_device(ctx, device);
    cudaError_t e = cudaSuccess;
    if (rc == CZ_OK && (e = cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking)) != cudaSuccess)
        rc = cz__cuda_fail(ctx, e, "cudaStreamCreate");
    for (int i = 0; i < 2 && rc == CZ_OK; i++)
        if ((e = cudaEventCreateWithFlags(&c->done[i], cudaEventDisableTiming)) != cudaSuccess)
            rc = cz__cuda_fail(ctx, e, "cudaEventCreate");
    if (rc != CZ_OK) {
        cz_cuda_copier_free(c);
        return rc;
    }
    *out = c;
    return CZ_OK;
}

extern "C" int cz_cuda_copier_put(cz_ctx_t *ctx, cz_cuda_copier *c, int slot, void *dst,
                                  const void *src, size_t bytes)
{
    if (slot < 0 || slot > 1)
        return cz_fail(ctx, CZ_EINVAL, "cuda copier: slot %d (0 or 1)", slot);
    CZ__CU(ctx, cudaSetDevice(c->device));
    if (bytes)
        CZ__CU(ctx, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, c->stream));
    CZ__CU(ctx, cudaEventRecord(c->done[slot], c->stream));
    return CZ_OK;
}

extern "C" int cz_cuda_copier_wait(cz_ctx_t *ctx, cz_cuda_copier *c, int slot)
{
    if (slot < 0 || slot > 1)
        return cz_fail(ctx, CZ_EINVAL, "cuda copier: slot %d (0 or 1)", slot);
    CZ__CU(ctx, cudaEventSynchronize(c->done[slot]));
    return CZ_OK;
}
