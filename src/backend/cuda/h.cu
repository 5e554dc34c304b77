/*
 * backend/cuda/h.cu — the H computation of one partition on the device
 * (the schedule and the memory bound are documented in cuda.h).
 */
#include <stdlib.h>

#include "backend/cuda/internal.cuh"

/* start, a, b, c uploaded, ab done, end (cz_cuda_h_times); then, in the
 * two-buffer mode, per temporary: its product is formed / its copy to the
 * host is done; and the product P formed (B free for c) */
enum { EV_START, EV_A, EV_B, EV_C, EV_AB, EV_END, EV_PROD0, EV_PROD1, EV_TMP0, EV_TMP1,
       EV_BFREE, EV_COUNT };

/* 64 MiB temporaries: big enough that the copies run at full speed, small
 * next to the two domain buffers */
#define CZ__H_TMP_ELEMS ((size_t)1 << 21)

struct cz_cuda_h {
    int device;
    unsigned log_n_max;
    unsigned nbuf;                  /* 3, or 2 (the small-card mode) */
    cz_dfr *buf[3];                 /* the domain-sized buffers (buf[2] NULL with 2) */
    cz_cuda_ntt_domain *dom;        /* tables of the last log_n used */
    cudaStream_t copy, comp;
    cudaEvent_t ev[EV_COUNT];
    /* two-buffer mode only: c = a∘b waits in pinned host memory while both
     * buffers are transformed; it leaves the device through two small
     * temporaries that alternate (one fills while the other's copy runs) */
    cz_fr *host_c;                  /* 2^log_n_max elements, pinned */
    cz_dfr *tmp[2];                 /* tmp_len elements each */
    size_t tmp_len;
    const cz_dfr *result;
    size_t result_len;
    cz_cuda_h_times times;
};

/* a[i] = a[i] * b[i] */
static __global__ void cz__h_pointwise(cz_dfr *a, const cz_dfr *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        cz_dfr_store(a + i, cz_dfr_mul(cz_dfr_load(a + i), cz_dfr_load(b + i)));
}

/* out[i] = a[i] * b[i], i < n (c = a∘b leaving for the host) */
static __global__ void cz__h_product(cz_dfr *out, const cz_dfr *a, const cz_dfr *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        cz_dfr_store(out + i, cz_dfr_mul(cz_dfr_load(a + i), cz_dfr_load(b + i)));
}

/* h[i] from P[r], C[r], r = rev(i): see cz__h_finish */
static __device__ cz_dfr cz__h_coeff(uint32_t i, cz_dfr p_r, cz_dfr c_r, const cz_dfr *glo,
                                     const cz_dfr *ghik, const cz_dfr *k)
{
    cz_dfr f = cz_dfr_mul(cz_dfr_load(glo + (i & ((1u << CZ__SPLIT) - 1))),
                          cz_dfr_load(ghik + (i >> CZ__SPLIT)));
    return cz_dfr_sub(cz_dfr_mul(f, p_r), cz_dfr_mul(cz_dfr_load(k), c_r));
}

/*
 * h[i] = K g^-i P[rev i] - K C[rev i]: the inverse coset scaling of the
 * product term, the plain 1/m scaling of the c term, (g^m-1)^-1, and the
 * bit-reversal of both DIF outputs, in one pass.
 */
static __global__ void cz__h_finish(cz_dfr *h, const cz_dfr *p, const cz_dfr *c,
                                    const cz_dfr *glo, const cz_dfr *ghik, const cz_dfr *k,
                                    unsigned L)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >> L)
        return;
    uint32_t r = __brev(i) >> (32 - L);
    cz_dfr_store(h + i, cz__h_coeff(i, cz_dfr_load(p + r), cz_dfr_load(c + r), glo, ghik, k));
}

/*
 * cz__h_finish in place over p (the two-buffer mode has no third buffer
 * for h): the bit-reversal pairs i with r = rev(i) and nothing else, so
 * the thread of the pair's smaller index reads both P and C entries before
 * it writes h[i] and h[r], and no other thread touches them.
 */
static __global__ void cz__h_finish_in_place(cz_dfr *p, const cz_dfr *c, const cz_dfr *glo,
                                             const cz_dfr *ghik, const cz_dfr *k, unsigned L)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >> L)
        return;
    uint32_t r = __brev(i) >> (32 - L);
    if (r < i)
        return;
    cz_dfr p_i = cz_dfr_load(p + i), p_r = cz_dfr_load(p + r);
    cz_dfr c_i = cz_dfr_load(c + i), c_r = cz_dfr_load(c + r);
    cz_dfr_store(p + i, cz__h_coeff(i, p_r, c_r, glo, ghik, k));
    if (r != i)
        cz_dfr_store(p + r, cz__h_coeff(r, p_i, c_i, glo, ghik, k));
}

static size_t tmp_elems(unsigned log_n)
{
    const size_t m = (size_t)1 << log_n;
    return m < CZ__H_TMP_ELEMS ? m : CZ__H_TMP_ELEMS;
}

extern "C" size_t cz_cuda_h_mem_bytes_buffers(unsigned log_n, unsigned nbuf)
{
    if (nbuf != 2 && nbuf != 3)
        return 0;
    const size_t tables = sizeof(cz_fr) * cz__cuda_ntt_domain_elems(log_n);
    const size_t bufs = nbuf * sizeof(cz_fr) * ((size_t)1 << log_n);
    return bufs + tables + (nbuf == 2 ? 2 * sizeof(cz_fr) * tmp_elems(log_n) : 0);
}

extern "C" size_t cz_cuda_h_mem_bytes(unsigned log_n)
{
    return cz_cuda_h_mem_bytes_buffers(log_n, 3);
}

extern "C" void cz_cuda_h_free(cz_cuda_h *h)
{
    if (!h)
        return;
    cudaSetDevice(h->device);
    cz_cuda_ntt_domain_free(h->dom);
    for (int i = 0; i < 3; i++)
        cz_cuda_free(h->buf[i]);
    for (int i = 0; i < 2; i++)
        cz_cuda_free(h->tmp[i]);
    cz_cuda_host_free(h->host_c);
    for (int i = 0; i < EV_COUNT; i++)
        if (h->ev[i])
            cudaEventDestroy(h->ev[i]);
    if (h->copy)
        cudaStreamDestroy(h->copy);
    if (h->comp)
        cudaStreamDestroy(h->comp);
    free(h);
}

/* The two-buffer mode's temporaries and host copy of c. */
static int alloc_two_buffer_extras(cz_ctx_t *ctx, cz_cuda_h *h)
{
    h->tmp_len = tmp_elems(h->log_n_max);
    int rc = CZ_OK;
    for (int i = 0; i < 2 && rc == CZ_OK; i++)
        rc = cz_cuda_malloc(ctx, (void **)&h->tmp[i], h->tmp_len * sizeof(cz_fr));
    if (rc == CZ_OK)
        rc = cz_cuda_host_alloc(ctx, (void **)&h->host_c, sizeof(cz_fr) << h->log_n_max);
    return rc;
}

extern "C" int cz_cuda_h_new_buffers(cz_ctx_t *ctx, cz_cuda_h **out, int device,
                                     unsigned log_n_max, unsigned nbuf)
{
    *out = NULL;
    if (nbuf != 2 && nbuf != 3)
        return cz_fail(ctx, CZ_EINVAL, "cuda h: %u buffers (2 or 3)", nbuf);
    if (log_n_max < 1 || log_n_max > 28)
        return cz_fail(ctx, CZ_ERANGE, "cuda h: log_n_max %u outside 1..28", log_n_max);
    cz_cuda_h *h = (cz_cuda_h *)calloc(1, sizeof *h);
    if (!h)
        return cz_fail(ctx, CZ_ENOMEM, "cuda h: context");
    h->device = device;
    h->log_n_max = log_n_max;
    h->nbuf = nbuf;
    int rc = cz_cuda_set_device(ctx, device);
    const size_t bytes = sizeof(cz_fr) << log_n_max;
    for (unsigned i = 0; i < nbuf && rc == CZ_OK; i++)
        rc = cz_cuda_malloc(ctx, (void **)&h->buf[i], bytes);
    if (rc == CZ_OK && nbuf == 2)
        rc = alloc_two_buffer_extras(ctx, h);
    cudaError_t e = cudaSuccess;
    if (rc == CZ_OK && (e = cudaStreamCreateWithFlags(&h->copy, cudaStreamNonBlocking)) != cudaSuccess)
        rc = cz__cuda_fail(ctx, e, "cudaStreamCreate");
    if (rc == CZ_OK && (e = cudaStreamCreateWithFlags(&h->comp, cudaStreamNonBlocking)) != cudaSuccess)
        rc = cz__cuda_fail(ctx, e, "cudaStreamCreate");
    for (int i = 0; i < EV_COUNT && rc == CZ_OK; i++)
        if ((e = cudaEventCreate(&h->ev[i])) != cudaSuccess)
            rc = cz__cuda_fail(ctx, e, "cudaEventCreate");
    if (rc != CZ_OK) {
        cz_cuda_h_free(h);
        return rc;
    }
    *out = h;
    return CZ_OK;
}

extern "C" void cz_cuda_h_give_back(cz_cuda_h *h)
{
    cudaSetDevice(h->device);
    for (int i = 0; i < 3; i++) {
        cz_cuda_free(h->buf[i]);
        h->buf[i] = NULL;
    }
    for (int i = 0; i < 2; i++) {
        cz_cuda_free(h->tmp[i]);
        h->tmp[i] = NULL;
    }
    h->result = NULL;
}

extern "C" void cz_cuda_h_give_back_idle(cz_cuda_h *h)
{
    if (!h->result) {
        cz_cuda_h_give_back(h);
        return;
    }
    cudaSetDevice(h->device);
    for (int i = 0; i < 3; i++)
        if (h->buf[i] != h->result) {
            cz_cuda_free(h->buf[i]);
            h->buf[i] = NULL;
        }
    for (int i = 0; i < 2; i++) {
        cz_cuda_free(h->tmp[i]);
        h->tmp[i] = NULL;
    }
}

extern "C" size_t cz_cuda_h_held_bytes(const cz_cuda_h *h)
{
    if (!h)
        return 0;
    size_t sum = h->dom ? sizeof(cz_fr) * cz__cuda_ntt_domain_elems(h->dom->log_n) : 0;
    for (int i = 0; i < 3; i++)
        sum += h->buf[i] ? sizeof(cz_fr) << h->log_n_max : 0;
    for (int i = 0; i < 2; i++)
        sum += h->tmp[i] ? h->tmp_len * sizeof(cz_fr) : 0;
    return sum;
}

extern "C" int cz_cuda_h_take_back(cz_ctx_t *ctx, cz_cuda_h *h)
{
    int rc = cz_cuda_set_device(ctx, h->device);
    const size_t bytes = sizeof(cz_fr) << h->log_n_max;
    for (unsigned i = 0; i < h->nbuf && rc == CZ_OK; i++)
        if (!h->buf[i])
            rc = cz_cuda_malloc(ctx, (void **)&h->buf[i], bytes);
    for (int i = 0; i < 2 && rc == CZ_OK && h->nbuf == 2; i++)
        if (!h->tmp[i])
            rc = cz_cuda_malloc(ctx, (void **)&h->tmp[i], h->tmp_len * sizeof(cz_fr));
    if (rc != CZ_OK)
        cz_cuda_h_give_back(h);
    return rc;
}

extern "C" int cz_cuda_h_new(cz_ctx_t *ctx, cz_cuda_h **out, int device, unsigned log_n_max)
{
    return cz_cuda_h_new_buffers(ctx, out, device, log_n_max, 3);
}

extern "C" unsigned cz_cuda_h_buffers(const cz_cuda_h *h) { return h->nbuf; }

/*
 * src NULL: the n elements are in dst already (cz_cuda_h_compute_loaded);
 * only the padding. src in host or device memory: cudaMemcpyDefault (unified
 * addressing) takes either.
 */
static int upload(cz_ctx_t *ctx, cz_cuda_h *h, cz_dfr *dst, const cz_fr *src, size_t n, size_t m,
                  cudaEvent_t done)
{
    if (src)
        CZ__CU(ctx, cudaMemcpyAsync(dst, src, n * sizeof(cz_fr), cudaMemcpyDefault, h->copy));
    if (m > n)
        CZ__CU(ctx, cudaMemsetAsync(dst + n, 0, (m - n) * sizeof(cz_fr), h->copy));
    CZ__CU(ctx, cudaEventRecord(done, h->copy));
    return CZ_OK;
}

/* iNTT with m^-1 g^i fused (giving the coset-shifted coefficients, bit-reversed),
 * then the forward DIT: the evaluations on the coset, natural order. */
static int to_coset(cz_ctx_t *ctx, cz_cuda_h *h, cz_dfr *v)
{
    const cz_cuda_ntt_domain *d = h->dom;
    int rc = cz__ntt_dif(ctx, d, v, 1, CZ__NO_SCALE, cz__scale(d->g_lo, d->g_hi_minv, 1), h->comp);
    if (rc == CZ_OK)
        rc = cz__ntt_dit(ctx, d, v, 0, CZ__NO_SCALE, CZ__NO_SCALE, h->comp);
    return rc;
}

/*
 * a, b, c: host or device arrays, or NULL for an input already in its buffer
 * (cz_cuda_h_compute_loaded). There is a c when c is given or |c_loaded|;
 * without one, c = a∘b is formed on the device.
 */
static int enqueue3(cz_ctx_t *ctx, cz_cuda_h *h, const cz_fr *a, const cz_fr *b, const cz_fr *c,
                    bool c_loaded, size_t n, size_t m)
{
    cz_dfr *A = h->buf[0], *B = h->buf[1], *C = h->buf[2];
    const cz_cuda_ntt_domain *d = h->dom;
    const unsigned L = d->log_n;
    int rc;
    CZ__CU(ctx, cudaEventRecord(h->ev[EV_START], h->copy));
    if ((rc = upload(ctx, h, A, a, n, m, h->ev[EV_A])) != CZ_OK ||
        (rc = upload(ctx, h, B, b, n, m, h->ev[EV_B])) != CZ_OK)
        return rc;
    const bool have_c = c || c_loaded;
    if (have_c && (rc = upload(ctx, h, C, c, n, m, h->ev[EV_C])) != CZ_OK)
        return rc;
    if (!have_c)
        CZ__CU(ctx, cudaEventRecord(h->ev[EV_C], h->copy));   /* nothing more to upload */

    CZ__CU(ctx, cudaStreamWaitEvent(h->comp, h->ev[EV_A], 0));
    if (!have_c)   /* keep the evaluations of a for c = a∘b (a device copy, ~2 ms at 2^27) */
        CZ__CU(ctx, cudaMemcpyAsync(C, A, m * sizeof(cz_fr), cudaMemcpyDeviceToDevice, h->comp));
    if ((rc = to_coset(ctx, h, A)) != CZ_OK)
        return rc;
    CZ__CU(ctx, cudaStreamWaitEvent(h->comp, h->ev[EV_B], 0));
    if (!have_c) {
        cz__h_pointwise<<<cz__blocks(m, 256), 256, 0, h->comp>>>(C, B, m);
        CZ__CU(ctx, cudaGetLastError());
    }
    if ((rc = to_coset(ctx, h, B)) != CZ_OK)
        return rc;
    cz__h_pointwise<<<cz__blocks(m, 256), 256, 0, h->comp>>>(A, B, m);
    CZ__CU(ctx, cudaGetLastError());
    if ((rc = cz__ntt_dif(ctx, d, A, 1, CZ__NO_SCALE, CZ__NO_SCALE, h->comp)) != CZ_OK)
        return rc;
    CZ__CU(ctx, cudaEventRecord(h->ev[EV_AB], h->comp));

    CZ__CU(ctx, cudaStreamWaitEvent(h->comp, h->ev[EV_C], 0));
    if ((rc = cz__ntt_dif(ctx, d, C, 1, CZ__NO_SCALE, CZ__NO_SCALE, h->comp)) != CZ_OK)
        return rc;
    cz__h_finish<<<cz__blocks(m, 256), 256, 0, h->comp>>>(B, A, C, d->ginv_lo, d->ginv_hi_k,
                                                        d->c_k, L);
    CZ__CU(ctx, cudaGetLastError());
    CZ__CU(ctx, cudaEventRecord(h->ev[EV_END], h->comp));
    return CZ_OK;
}

/*
 * c = a∘b (the first n elements of A and B, both uploaded) into h->host_c,
 * chunk by chunk through the two temporaries: the product of a chunk on
 * the compute stream, its copy to the host on the copy stream; a
 * temporary is filled again only once its previous copy is done. The
 * compute stream is free for the transforms of A and B once the last
 * product is formed; the copies finish meanwhile.
 */
static int keep_product(cz_ctx_t *ctx, cz_cuda_h *h, size_t n)
{
    for (size_t off = 0, k = 0; off < n; off += h->tmp_len, k++) {
        const size_t len = n - off < h->tmp_len ? n - off : h->tmp_len;
        const int t = (int)(k & 1);
        if (k >= 2)   /* the copy of chunk k - 2, out of the same temporary */
            CZ__CU(ctx, cudaStreamWaitEvent(h->comp, h->ev[EV_TMP0 + t], 0));
        cz__h_product<<<cz__blocks(len, 256), 256, 0, h->comp>>>(h->tmp[t], h->buf[0] + off,
                                                                 h->buf[1] + off, len);
        CZ__CU(ctx, cudaGetLastError());
        CZ__CU(ctx, cudaEventRecord(h->ev[EV_PROD0 + t], h->comp));
        CZ__CU(ctx, cudaStreamWaitEvent(h->copy, h->ev[EV_PROD0 + t], 0));
        CZ__CU(ctx, cudaMemcpyAsync(h->host_c + off, h->tmp[t], len * sizeof(cz_fr),
                                    cudaMemcpyDeviceToHost, h->copy));
        CZ__CU(ctx, cudaEventRecord(h->ev[EV_TMP0 + t], h->copy));
    }
    return CZ_OK;
}

/*
 * The two-buffer schedule (A = buf[0], B = buf[1]): a -> A, b -> B; without
 * a c, c = a∘b to the host (keep_product); A and B to the coset, P = A*B in
 * A, iNTT(P) unscaled; then c (given, or the host copy) into B once B is
 * free, iNTT(c) unscaled; h into A in place (cz__h_finish_in_place). a, b,
 * c as for enqueue3, but c never loaded by the caller (there is no third
 * buffer to load it into).
 */
static int enqueue2(cz_ctx_t *ctx, cz_cuda_h *h, const cz_fr *a, const cz_fr *b, const cz_fr *c,
                    size_t n, size_t m)
{
    cz_dfr *A = h->buf[0], *B = h->buf[1];
    const cz_cuda_ntt_domain *d = h->dom;
    int rc;
    CZ__CU(ctx, cudaEventRecord(h->ev[EV_START], h->copy));
    if ((rc = upload(ctx, h, A, a, n, m, h->ev[EV_A])) != CZ_OK ||
        (rc = upload(ctx, h, B, b, n, m, h->ev[EV_B])) != CZ_OK)
        return rc;

    /* with c given, a's transform overlaps b's upload; without, c = a∘b
     * needs both evaluations first */
    CZ__CU(ctx, cudaStreamWaitEvent(h->comp, h->ev[EV_A], 0));
    if (!c) {
        CZ__CU(ctx, cudaStreamWaitEvent(h->comp, h->ev[EV_B], 0));
        if ((rc = keep_product(ctx, h, n)) != CZ_OK)
            return rc;
    }
    if ((rc = to_coset(ctx, h, A)) != CZ_OK)
        return rc;
    CZ__CU(ctx, cudaStreamWaitEvent(h->comp, h->ev[EV_B], 0));
    if ((rc = to_coset(ctx, h, B)) != CZ_OK)
        return rc;
    cz__h_pointwise<<<cz__blocks(m, 256), 256, 0, h->comp>>>(A, B, m);
    CZ__CU(ctx, cudaGetLastError());
    CZ__CU(ctx, cudaEventRecord(h->ev[EV_BFREE], h->comp));
    if ((rc = cz__ntt_dif(ctx, d, A, 1, CZ__NO_SCALE, CZ__NO_SCALE, h->comp)) != CZ_OK)
        return rc;
    CZ__CU(ctx, cudaEventRecord(h->ev[EV_AB], h->comp));

    /* the copy stream holds the host copy's copies before this: in order */
    CZ__CU(ctx, cudaStreamWaitEvent(h->copy, h->ev[EV_BFREE], 0));
    if ((rc = upload(ctx, h, B, c ? c : h->host_c, n, m, h->ev[EV_C])) != CZ_OK)
        return rc;
    CZ__CU(ctx, cudaStreamWaitEvent(h->comp, h->ev[EV_C], 0));
    if ((rc = cz__ntt_dif(ctx, d, B, 1, CZ__NO_SCALE, CZ__NO_SCALE, h->comp)) != CZ_OK)
        return rc;
    cz__h_finish_in_place<<<cz__blocks(m, 256), 256, 0, h->comp>>>(A, B, d->ginv_lo, d->ginv_hi_k,
                                                                 d->c_k, d->log_n);
    CZ__CU(ctx, cudaGetLastError());
    CZ__CU(ctx, cudaEventRecord(h->ev[EV_END], h->comp));
    return CZ_OK;
}

static int compute(cz_ctx_t *ctx, cz_cuda_h *h, const cz_fr *a, const cz_fr *b, const cz_fr *c,
                   bool c_loaded, size_t n, unsigned log_n)
{
    if (!h->buf[0])
        return cz_fail(ctx, CZ_EINVAL, "cuda h: its buffers are given back (take them back first)");
    if (log_n < 1 || log_n > h->log_n_max)
        return cz_fail(ctx, CZ_ERANGE, "cuda h: log_n %u outside 1..%u", log_n, h->log_n_max);
    const size_t m = (size_t)1 << log_n;
    if (n > m)
        return cz_fail(ctx, CZ_EMISMATCH, "cuda h: %zu constraints > domain %zu", n, m);
    int rc = cz_cuda_set_device(ctx, h->device);
    if (rc != CZ_OK)
        return rc;
    if (!h->dom || h->dom->log_n != log_n) {
        cz_cuda_ntt_domain_free(h->dom);
        h->dom = NULL;
        if ((rc = cz_cuda_ntt_domain_new(ctx, &h->dom, log_n)) != CZ_OK)
            return rc;
    }
    h->result = NULL;
    rc = h->nbuf == 2 ? enqueue2(ctx, h, a, b, c, n, m) : enqueue3(ctx, h, a, b, c, c_loaded, n, m);
    /* Wait for everything enqueued, also after an error in the middle. */
    cudaError_t e1 = cudaStreamSynchronize(h->copy);
    cudaError_t e2 = cudaStreamSynchronize(h->comp);
    if (rc != CZ_OK)
        return rc;
    if (e1 != cudaSuccess)
        return cz__cuda_fail(ctx, e1, "cuda h: upload");
    if (e2 != cudaSuccess)
        return cz__cuda_fail(ctx, e2, "cuda h: compute");
    float *t[5] = { &h->times.a_uploaded, &h->times.b_uploaded, &h->times.c_uploaded,
                    &h->times.ab_done, &h->times.total };
    for (int i = 0; i < 5; i++)
        CZ__CU(ctx, cudaEventElapsedTime(t[i], h->ev[EV_START], h->ev[EV_A + i]));
    h->result = h->nbuf == 2 ? h->buf[0] : h->buf[1];
    h->result_len = m;
    return CZ_OK;
}

extern "C" int cz_cuda_h_compute(cz_ctx_t *ctx, cz_cuda_h *h, const cz_fr *a, const cz_fr *b,
                                 const cz_fr *c, size_t n, unsigned log_n)
{
    if (!h || !a || !b)
        return cz_fail(ctx, CZ_EINVAL, "cuda h: NULL argument");
    return compute(ctx, h, a, b, c, false, n, log_n);
}

extern "C" void *cz_cuda_h_input(cz_cuda_h *h, int k)
{
    return h && k >= 0 && k < (int)h->nbuf ? h->buf[k] : NULL;
}

extern "C" int cz_cuda_h_compute_loaded(cz_ctx_t *ctx, cz_cuda_h *h, size_t n, unsigned log_n,
                                        bool have_c)
{
    if (!h)
        return cz_fail(ctx, CZ_EINVAL, "cuda h: NULL argument");
    if (have_c && h->nbuf == 2)
        return cz_fail(ctx, CZ_EINVAL, "cuda h: a two-buffer context has no c buffer to load "
                                       "(give c to cz_cuda_h_compute, or load none)");
    return compute(ctx, h, NULL, NULL, NULL, have_c, n, log_n);
}

extern "C" void cz_cuda_h_last_times(const cz_cuda_h *h, cz_cuda_h_times *t) { *t = h->times; }

extern "C" const void *cz_cuda_h_result(const cz_cuda_h *h) { return h->result; }

extern "C" void *cz_cuda_h_scratch(cz_cuda_h *h, int i)
{
    if (!h || i < 0 || i > 1)
        return NULL;
    if (h->nbuf == 2)   /* the result is always in buf[0]: the halves of buf[1] */
        return (char *)h->buf[1] + i * cz_cuda_h_buffer_bytes(h);
    int seen = 0;
    for (int k = 0; k < 3; k++)
        if (h->buf[k] != h->result && seen++ == i)
            return h->buf[k];
    return NULL;
}

extern "C" void *cz_cuda_h_spent_result(cz_cuda_h *h, size_t *bytes)
{
    *bytes = h && h->result ? sizeof(cz_fr) << h->log_n_max : 0;   /* its buffer is held */
    return *bytes ? (void *)h->result : NULL;
}

extern "C" size_t cz_cuda_h_buffer_bytes(const cz_cuda_h *h)
{
    const size_t bytes = sizeof(cz_fr) << h->log_n_max;
    return h->nbuf == 2 ? bytes / 2 : bytes;
}

extern "C" int cz_cuda_h_download(cz_ctx_t *ctx, cz_cuda_h *h, cz_fr *out, size_t count)
{
    if (!h->result)
        return cz_fail(ctx, CZ_EINVAL, "cuda h: no result to download");
    if (count > h->result_len)
        return cz_fail(ctx, CZ_ERANGE, "cuda h: %zu > %zu result coefficients", count, h->result_len);
    int rc = cz_cuda_set_device(ctx, h->device);
    if (rc != CZ_OK)
        return rc;
    CZ__CU(ctx, cudaMemcpy(out, h->result, count * sizeof(cz_fr), cudaMemcpyDeviceToHost));
    return CZ_OK;
}
