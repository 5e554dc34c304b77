/*
 * backend/cuda/cuda.h — the CUDA backend's C API (extern "C"; the kernels
 * live in the .cu files beside it).
 *
 * Present only in builds with CUZK_HAVE_CUDA. At run time cz_cuda_probe()
 * says whether a usable device exists; without one every other call fails
 * cleanly with CZ_EDEVICE or CZ_EUNAVAIL, never crashes, and the CPU backend
 * serves.
 *
 * Field data on the device has exactly the bytes of the host's cz_fr
 * (blst_fr, Montgomery form), so arrays move with a plain copy.
 *
 * Errors: every CUDA error becomes CZ_EDEVICE with "cuda: <call>: <text>"
 * in the ctx's message. Thread-safety: the functions hold no global state;
 * a domain or an H context is used by one thread at a time (shareable
 * read-only for domains once built). Device calls act on the calling
 * thread's current device (cz_cuda_set_device); an H context sets its own.
 */
#ifndef CUZK_BACKEND_CUDA_CUDA_H
#define CUZK_BACKEND_CUDA_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "core/ctx.h"
#include "ff/fr.h"

/* ---- device discovery and memory -------------------------------------- */

/*
 * Is the CUDA backend usable here? CZ_OK with a one-line description of the
 * device(s) in |why|, or CZ_EUNAVAIL with the reason (no device, driver too
 * old for this runtime, compute capability below 8.0, no kernel image for
 * the device). |why| may be NULL. Cheap after the first call's driver start.
 */
int cz_cuda_probe(char *why, size_t len);

/* Number of usable devices (0 when cz_cuda_probe fails). */
int cz_cuda_device_count(void);

int cz_cuda_set_device(cz_ctx_t *ctx, int device);
/* Device memory; *dptr is NULL on error: CZ_ENOMEM when the device has not that much free
 * (not sticky: the device stays usable), CZ_EDEVICE otherwise. cz_cuda_free(NULL): no-op. */
int cz_cuda_malloc(cz_ctx_t *ctx, void **dptr, size_t bytes);
void cz_cuda_free(void *dptr);
/* Pinned (page-locked) host memory: what makes uploads fast and async. */
int cz_cuda_host_alloc(cz_ctx_t *ctx, void **hptr, size_t bytes);
void cz_cuda_host_free(void *hptr);
/*
 * Host memory the caller allocated, page-locked where it is (cudaHostRegister,
 * portable: every device's copies from it are DMA) until unregistered, which
 * must come before it is freed. Pages shared with another registered range
 * fail (CZ_EDEVICE, not sticky). Thread-safe.
 */
int cz_cuda_host_register(cz_ctx_t *ctx, void *p, size_t bytes);
void cz_cuda_host_unregister(void *p);
/*
 * Large pinned host buffers (GiBs; `cuzk bench pin`). cudaMallocHost of an
 * 8 GiB slot took 9 s on the H200 host: the kernel faults and zeroes two
 * million 4 KiB pages on the calling thread and pins them, and the driver
 * serializes other allocations meanwhile, so a region's cudaMalloc on
 * another thread waited behind it. cz_cuda_pinned_alloc takes 2 MiB-aligned
 * memory advised MADV_HUGEPAGE, faults it in on |threads| threads of its
 * own (0: 8) and registers it with cudaHostRegister; where any of that
 * fails it falls back to cudaMallocHost. `cuzk bench pin` measures both.
 * *out is zeroed on error; cz_cuda_pinned_free of a zeroed one is a no-op.
 * Thread-safe (the driver's own locking).
 */
typedef struct {
    void *mem;
    size_t bytes;
    bool registered; /* true: malloc'd and cudaHostRegister'ed; false: cudaMallocHost */
} cz_cuda_pinned;

/* The page of cz_cuda_pinned_alloc: it takes at most |bytes| rounded up to a multiple. */
#define CZ_CUDA_PIN_ALIGN ((size_t)2 << 20)

int cz_cuda_pinned_alloc(cz_ctx_t *ctx, cz_cuda_pinned *out, size_t bytes, unsigned threads);
void cz_cuda_pinned_free(cz_cuda_pinned *p);
/* Free and total memory of the current device. */
int cz_cuda_mem_info(cz_ctx_t *ctx, size_t *free_bytes, size_t *total_bytes);
/*
 * Fault injection (tests: a fired DEVICE site, core/fault.h): runs a kernel that traps on the
 * current device, a real sticky CUDA error; returns its CZ_EDEVICE. The
 * device's context is unusable afterwards, as after any such fault.
 */
int cz_cuda_inject_fault(cz_ctx_t *ctx);
/*
 * Synchronous copies, and a wait for all work on the current device. A
 * copy has landed when it returns, for work on every stream: cudaMemcpy
 * from pageable memory may return once the bytes are in the driver's
 * staging buffer, before its DMA ends, which only the default stream
 * waits for (our streams are non-blocking), so htod waits for it.
 */
int cz_cuda_memcpy_htod(cz_ctx_t *ctx, void *dst, const void *src, size_t bytes);
int cz_cuda_memcpy_dtoh(cz_ctx_t *ctx, void *dst, const void *src, size_t bytes);
int cz_cuda_sync(cz_ctx_t *ctx);
/*
 * Local memory up front: the driver reserves a thread's stack for every
 * thread the device can hold (132 SMs x 2048 on an H100) at the first
 * launch of a kernel that needs more than the current limit, and keeps it.
 * The G2 MSM's frames (3064 bytes, sm_90) grow the default 1 KiB to ~0.8
 * GiB, which a plan made before that launch counted as free. This raises
 * the current device's limit to |bytes| now (never lowers it), so the
 * free memory a plan reads is the free memory that stays. Errors:
 * CZ_EDEVICE (the reservation did not fit: the device's message).
 * cz_cuda_msm_stack_bytes: the most a thread of the MSM kernels takes
 * (0 when it cannot be read).
 */
int cz_cuda_reserve_stack(cz_ctx_t *ctx, size_t bytes);
size_t cz_cuda_msm_stack_bytes(void);
/*
 * Upload |bytes| made in host memory at pinned speed: chunk by chunk,
 * |fill| writes bytes [off, off + len) of the data into one of the two
 * pinned buffers |bounce| (a memcpy from pageable memory on all cores, or
 * points produced by a params source), and each chunk's DMA overlaps the
 * fill of the next. Chunks are |chunk| bytes (<= the bounce buffers' size;
 * a multiple of what |fill| must not split), the last one shorter. From
 * pageable memory the driver stages through its own small buffers at ~5.6
 * GB/s on the H200 host; a params set is 44 GiB at 32GiB. A fill that
 * fails (non-zero) stops the upload with its error (its message in the
 * ctx it was given). Synchronous: returns when the data is on the device.
 */
typedef int cz_cuda_fill_fn(void *arg, void *dst, size_t off, size_t len);

int cz_cuda_upload_bounced(cz_ctx_t *ctx, void *dst, size_t bytes, void *const bounce[2],
                           size_t chunk, cz_cuda_fill_fn *fill, void *fill_arg);

/*
 * Decode |n| params points in place on the current device: |pts| (device
 * memory, 16-byte aligned) holds them as a params file has them
 * (uncompressed, big-endian, ZCash flags: 96 bytes a G1 point, 192 a G2
 * one, |g2| says which: the sizes of blst's affine points) and gets the
 * affine points, blst's layout in Montgomery form. A point is accepted
 * exactly when the CPU decode of a params file accepts it (no flag bits,
 * coordinates below p, on the curve; no subgroup check: decode.cu).
 * *first_bad: the index of the first point refused, SIZE_MAX for none;
 * the points before it are decoded, the others undefined. Synchronous.
 */
int cz_cuda_decode_points(cz_ctx_t *ctx, void *pts, size_t n, int g2, size_t *first_bad);

/*
 * A copier: host -> device copies enqueued on a stream of its own, in two
 * slots, so that one window of a streamed params vector lands while the
 * MSM of the other runs (cuda_backend.c). put enqueues the copy of |bytes|
 * into slot 0 or 1 and returns at once (from pinned memory the copy is
 * asynchronous; from pageable memory the driver stages it first); wait
 * blocks until the slot's last put has landed. A slot's buffer must not be
 * put into again before the work reading it is done (the MSMs are
 * synchronous). One thread at a time; free waits for every copy.
 */
typedef struct cz_cuda_copier cz_cuda_copier;

int cz_cuda_copier_new(cz_ctx_t *ctx, cz_cuda_copier **out, int device);
void cz_cuda_copier_free(cz_cuda_copier *c); /* NULL: no-op */
int cz_cuda_copier_put(cz_ctx_t *ctx, cz_cuda_copier *c, int slot, void *dst, const void *src,
                       size_t bytes);
int cz_cuda_copier_wait(cz_ctx_t *ctx, cz_cuda_copier *c, int slot);

/* ---- NTT on device memory --------------------------------------------- */

/*
 * A domain holds the twiddle and coset tables of one size 2^log_n
 * (1 <= log_n <= 28) on the current device: about
 * 32 B * (1026 + 4*2^min(log_n,14) + 6*2^max(log_n-14,0)), 5.1 MiB at most.
 * Conventions are those of ff/ntt.h (bellperson's EvaluationDomain), so the
 * results equal cz_ntt_* bit for bit.
 */
typedef struct cz_cuda_ntt_domain cz_cuda_ntt_domain;

typedef enum {
    CZ_CUDA_NTT_FORWARD = 0,
    CZ_CUDA_NTT_INVERSE = 1,       /* includes the 1/n factor */
    CZ_CUDA_NTT_COSET_FORWARD = 2, /* x[i] *= g^i, then forward */
    CZ_CUDA_NTT_COSET_INVERSE = 3, /* inverse, then x[i] *= g^-i */
} cz_cuda_ntt_kind;

/* Input order, output order: N natural, R bit-reversed. NR and RN are the
 * cheapest (no permutation pass); NN and RR add one in-place permutation. */
typedef enum {
    CZ_CUDA_ORDER_NN = 0,
    CZ_CUDA_ORDER_NR = 1,
    CZ_CUDA_ORDER_RN = 2,
    CZ_CUDA_ORDER_RR = 3,
} cz_cuda_ntt_order;

int cz_cuda_ntt_domain_new(cz_ctx_t *ctx, cz_cuda_ntt_domain **out, unsigned log_n);
void cz_cuda_ntt_domain_free(cz_cuda_ntt_domain *d); /* NULL: no-op */
unsigned cz_cuda_ntt_domain_log_n(const cz_cuda_ntt_domain *d);

/*
 * In-place transform of the 2^log_n elements at device pointer |data|,
 * enqueued on |stream| (a cudaStream_t; NULL = the legacy default stream).
 * Returns once enqueued; launch errors are reported, execution errors show
 * at the next synchronizing call.
 */
int cz_cuda_ntt(cz_ctx_t *ctx, const cz_cuda_ntt_domain *d, void *data, cz_cuda_ntt_kind kind,
                cz_cuda_ntt_order order, void *stream);

/* ---- the H computation for one partition -------------------------------- */

/*
 * A cz_cuda_h is one worker's H pipeline on one device: two streams (copy,
 * compute), events, the domain tables, and THREE device buffers of
 * 2^log_n_max elements each (no more; two in the two-buffer mode below):
 * device memory
 * cz_cuda_h_mem_bytes(log_n) = 3 * 32 * 2^log_n + domain tables,
 * i.e. 12 GiB + 3.5 MiB for a 2^27 domain.
 *
 * cz_cuda_h_compute(a, b, c, n, log_n) computes, for m = 2^log_n >= n,
 * exactly what ff/ntt.h + backend/cpu/h.h compute (FACTS 1): zero-pad a,b,c
 * to m, iNTT, coset NTT, (a*b - c) * (g^m - 1)^-1, inverse coset NTT. The m
 * coefficients (the first m-1 meaningful) stay in device memory
 * (cz_cuda_h_result) for the H MSM, until the next compute or free.
 * a, b, c are arrays of n elements in host or device memory (any mix: the
 * copies are cudaMemcpyDefault), read and not kept (c may be NULL: then
 * c = a∘b element-wise, formed on the device from a and b, exact for a
 * satisfying witness, and a third less to upload); from pinned or device
 * memory the copies overlap the transforms, from pageable memory the result
 * is the same but slower. Synchronous: returns when h is ready.
 *
 * Schedule (upload order a, b, c; compute stream waits on each upload):
 *   a: iNTT (x m^-1 g^i fused) -> coset NTT          overlaps upload of b
 *   b: the same; P = A*B; iNTT(P) unscaled          overlaps upload of c
 *   c: iNTT unscaled
 *   h[i] = K g^-i iNTT(P)[i] - K iNTT(c)[i], K = m^-1 (g^m-1)^-1, with the
 *   bit-reversal permutation fused (the c term needs no coset round trip:
 *   icoset(coset(iNTT c)) = iNTT c, and the transforms are linear).
 *
 * The two-buffer mode (cz_cuda_h_new_buffers(.., 2); for cards that cannot
 * hold three domain buffers, 16 GB ones at 2^27) gives the same bytes with
 * buffers A and B only:
 *   a -> A, b -> B; without a c, c = a∘b is formed in 64 MiB chunks into
 *   two small device temporaries and copied to a pinned host buffer (the
 *   copies overlap the next chunk's product and the transforms);
 *   A, B to the coset; P = A*B in A; iNTT(P) unscaled;
 *   c (given, or the host copy) -> B once B is free; iNTT(c) unscaled;
 *   h into A in place (each bit-reversal pair (i, rev i) by one thread).
 * It costs the c round trip through the host when c is not given (4 GiB
 * each way at 2^27), and c's upload no longer overlaps the transforms.
 * Device memory cz_cuda_h_mem_bytes_buffers(log_n, 2) = 2 * 32 * 2^log_n
 * + 2 * 32 * min(2^log_n, 2^21) + domain tables (8 GiB + 131.5 MiB at
 * 2^27); pinned host memory 32 * 2^log_n_max (the copy of c), held from
 * creation to free.
 */
typedef struct cz_cuda_h cz_cuda_h;

/* Milliseconds from the first upload, read from device events. */
typedef struct {
    float a_uploaded, b_uploaded, c_uploaded; /* each upload's end */
    float ab_done;                            /* iNTT(A*B) done */
    float total;                              /* h ready */
} cz_cuda_h_times;

/* Device bytes of a context with |nbuf| buffers (2 or 3; 0 for another
 * value); cz_cuda_h_mem_bytes(log_n) is the three-buffer one. */
size_t cz_cuda_h_mem_bytes(unsigned log_n);
size_t cz_cuda_h_mem_bytes_buffers(unsigned log_n, unsigned nbuf);
/*
 * A context of |nbuf| domain buffers: 3 (cz_cuda_h_new) or 2 (the
 * two-buffer mode above); another nbuf is CZ_EINVAL, log_n_max outside
 * 1..28 CZ_ERANGE, a failed allocation CZ_EDEVICE (*out NULL on error).
 * cz_cuda_h_buffers: the nbuf it was made with.
 */
int cz_cuda_h_new_buffers(cz_ctx_t *ctx, cz_cuda_h **out, int device, unsigned log_n_max,
                          unsigned nbuf);
int cz_cuda_h_new(cz_ctx_t *ctx, cz_cuda_h **out, int device, unsigned log_n_max);
unsigned cz_cuda_h_buffers(const cz_cuda_h *h);
void cz_cuda_h_free(cz_cuda_h *h); /* NULL: no-op */
/*
 * The domain buffers and temporaries given back to the device between two
 * uses (the H in turn with the MSMs: cuda_backend.c), the rest kept: the
 * domain's tables, the streams and events, the pinned host copy of c
 * (seconds to make at 4 GiB); no result until cz_cuda_h_take_back makes
 * the buffers again (CZ_ENOMEM where the device has no room now; the
 * context stays given back and may be taken back later or freed).
 */
void cz_cuda_h_give_back(cz_cuda_h *h);
/*
 * The same for every buffer but the one holding the last result, which
 * stays valid (cz_cuda_h_result: the H MSM reads it from there, with no
 * trip through host memory); cz_cuda_h_give_back then gives back that one
 * too, cz_cuda_h_take_back makes the others again. No result: as
 * cz_cuda_h_give_back.
 */
void cz_cuda_h_give_back_idle(cz_cuda_h *h);
int cz_cuda_h_take_back(cz_ctx_t *ctx, cz_cuda_h *h);
/* Device bytes |h| holds now: its buffers and temporaries unless given back, and its
 * domain's tables once a computation made them (NULL: 0). */
size_t cz_cuda_h_held_bytes(const cz_cuda_h *h);
int cz_cuda_h_compute(cz_ctx_t *ctx, cz_cuda_h *h, const cz_fr *a, const cz_fr *b, const cz_fr *c,
                      size_t n, unsigned log_n);
/*
 * For a caller that uploads a and b itself (from pageable memory through
 * bounce buffers, say: cz_cuda_upload_bounced): the device buffer of input
 * |k| (0: a, 1: b, 2: c), room for 2^log_n_max elements, NULL for another
 * k. With the first n elements of a and b (and of c when |have_c|) written
 * there, cz_cuda_h_compute_loaded computes what cz_cuda_h_compute would
 * (the padding is zeroed here). Every compute overwrites the buffers.
 * Two-buffer mode: there is no c buffer (k = 2 gives NULL) and have_c is
 * CZ_EINVAL; give c to cz_cuda_h_compute instead, or load none (c = a∘b).
 */
void *cz_cuda_h_input(cz_cuda_h *h, int k);
int cz_cuda_h_compute_loaded(cz_ctx_t *ctx, cz_cuda_h *h, size_t n, unsigned log_n, bool have_c);
/* Times of the last compute (zeros before the first). */
void cz_cuda_h_last_times(const cz_cuda_h *h, cz_cuda_h_times *t);
/* Device pointer to the last result (2^log_n cz_fr), NULL before the first. */
const void *cz_cuda_h_result(const cz_cuda_h *h);
/*
 * Scratch |i| (0 or 1): device memory the last result does not occupy and
 * no one reads until the next compute (a streamed params vector's windows
 * go there), cz_cuda_h_buffer_bytes(h) bytes each. Three buffers: the two
 * the result is not in, 2^log_n_max elements each (before the first
 * compute, buffers 0 and 1). Two buffers: the result is always in A, so
 * the two halves of B, 2^(log_n_max - 1) elements each. NULL for i
 * outside 0..1.
 */
void *cz_cuda_h_scratch(cz_cuda_h *h, int i);
size_t cz_cuda_h_buffer_bytes(const cz_cuda_h *h);
/*
 * The buffer the last result lies in, as scratch, for a caller done with that
 * result (its H MSM has read it): *bytes (the whole buffer, 2^log_n_max
 * elements) until the next compute, which writes there again. NULL (*bytes 0)
 * before the first compute or with the buffers given back.
 */
void *cz_cuda_h_spent_result(cz_cuda_h *h, size_t *bytes);
/* Copy the first |count| result coefficients to host memory. */
int cz_cuda_h_download(cz_ctx_t *ctx, cz_cuda_h *h, cz_fr *out, size_t count);

/* ---- MSM and batch addition (msm.cu) -------------------------------------- */

/*
 * A cz_cuda_msm is a workspace on one device for multi-scalar
 * multiplications and batch additions over bases already in device memory
 * (the layout of blst_p1_affine / blst_p2_affine arrays, as params files
 * hold them; the point at infinity is allowed). It owns one stream; use it
 * from one thread at a time. Terms from the host (or gathered by an index)
 * are processed in chunks of at most max_chunk (clamped to 2^20..2^24; 0 =
 * 2^24), terms on the device in one chunk of up to 16 * max_chunk, its
 * windows in passes that fit the sort's 16 * max_chunk keys, so any n works.
 *
 * Device memory: cz_cuda_msm_mem_bytes(max_chunk) at creation (about
 * 5.8 GiB for 2^24: the sort's keys/values for 16 * max_chunk digits, the
 * scalar staging, partial sums), plus the buckets, allocated on first need
 * and kept: nwin * 2^(c-1) points of 192 (G1) or 384 (G2) bytes, twice
 * when n exceeds one chunk (totals + the chunk's), at most 5 GiB (G1 at
 * 2^27 terms: c = 22, 4.5 GiB).
 *
 * Results are the same group elements as ec/msm.h computes (compare them as
 * points: Jacobian coordinates are not unique). Errors: CZ_EDEVICE (CUDA,
 * with its message), CZ_EINVAL, CZ_ERANGE.
 */
typedef struct cz_cuda_msm cz_cuda_msm;

typedef struct {
    size_t n;                /* terms, < 2^31 */
    const void *scalars;     /* n 32-byte scalars */
    bool scalars_on_device;  /* device memory (else host, pinned or not) */
    bool scalars_montgomery; /* cz_fr in Montgomery form (the H vector); else blst_scalar */
    bool scalars_scratch;    /* device scalars the MSM may overwrite: Montgomery ones read
                                 * in several passes are converted in place once */
    const uint32_t *index;   /* term i uses bases[index[i] - index_base]; NULL: bases[i] */
    uint32_t index_base;     /* with index: subtracted from every entry (a window of a
                                 * vector's bases streamed through the device: its first
                                 * point's index), each entry >= it */
    bool index_on_device;    /* index is device memory (else host) */
    unsigned nbits;          /* every scalar < 2^nbits (fewer windows); 0: 255 */
} cz_cuda_msm_terms;

size_t cz_cuda_msm_mem_bytes(size_t max_chunk);
/*
 * The most bucket memory an MSM of |m| may take from now on (0: the
 * default, 5 GiB; at least 512 MiB): a smaller window size where it would
 * take more. Buckets held beyond it are freed now. Not while an MSM runs.
 * cz_cuda_msm_buckets_held: what |m| holds now.
 */
void cz_cuda_msm_set_bucket_cap(cz_cuda_msm *m, size_t bytes);
size_t cz_cuda_msm_buckets_held(const cz_cuda_msm *m);
int cz_cuda_msm_new(cz_ctx_t *ctx, cz_cuda_msm **out, int device, size_t max_chunk);
void cz_cuda_msm_free(cz_cuda_msm *m); /* NULL: no-op */
/* group 1: out is a blst_p1, d_bases blst_p1_affine; group 2: blst_p2, blst_p2_affine. */
int cz_cuda_msm_run(cz_ctx_t *ctx, cz_cuda_msm *m, int group, void *out, const void *d_bases,
                    const cz_cuda_msm_terms *terms);
/*
 * The last MSM's plan (passes, c, nwin: always) and, where |m|'s profile is
 * on (cz_cuda_msm_set_profile; off from cz_cuda_msm_new), where its device
 * time went (device events; ms summed over passes; 0 when off). Timing the
 * phases waits on the host for each pass's end, which leaves the device
 * idle until the next pass is enqueued: the benchmarks turn it on, the
 * backend's regions do not.
 */
typedef struct {
    float digits_ms, sort_ms, accumulate_ms, join_ms, merge_ms, reduce_ms;
    unsigned passes, c, nwin; /* (chunk, window group) passes, window bits, windows */
} cz_cuda_msm_profile;
void cz_cuda_msm_last_profile(const cz_cuda_msm *m, cz_cuda_msm_profile *out);
void cz_cuda_msm_set_profile(cz_cuda_msm *m, bool timed); /* not while an MSM runs */
/*
 * out = sum of d_bases[i] over the set bits i < n of |bitmap| (bits past n
 * ignored), in host memory or, with |bitmap_on_device|, device memory.
 */
int cz_cuda_batch_add(cz_ctx_t *ctx, cz_cuda_msm *m, int group, void *out, const void *d_bases,
                      const uint64_t *bitmap, size_t n, bool bitmap_on_device);

/* ---- test-only entry points (selftest.cu) -------------------------------- */

/*
 * Element-wise device evaluation of one operation over n inputs, for the
 * tests that compare the device arithmetic with blst. Host arrays in, host
 * array out. field: 0 Fr (blst_fr), 1 Fp (blst_fp), 2 Fp2 (blst_fp2).
 * POW raises a[i] to the 64-bit exponent held in the first 8 bytes of b[i].
 */
enum {
    CZ_CUDA_TEST_ADD,
    CZ_CUDA_TEST_SUB,
    CZ_CUDA_TEST_NEG,
    CZ_CUDA_TEST_DBL,
    CZ_CUDA_TEST_MUL,
    CZ_CUDA_TEST_SQR,
    CZ_CUDA_TEST_INV,
    CZ_CUDA_TEST_POW,
    /* the lazy operations, Fp and Fp2 only: inputs below 2p (not reduced),
        * the result reduced; IS_ZERO_LZ gives one or zero */
    CZ_CUDA_TEST_ADD_LZ,
    CZ_CUDA_TEST_SUB_LZ,
    CZ_CUDA_TEST_DBL_LZ,
    CZ_CUDA_TEST_MUL_LZ,
    CZ_CUDA_TEST_SQR_LZ,
    CZ_CUDA_TEST_IS_ZERO_LZ,
    /* Fr and Fp: the FP64-pipe product (fmont_impl.cuh) of inputs below
        * 2m, a*b/R' with R' = 2^260 (Fr) or 2^416 (Fp), the result reduced */
    CZ_CUDA_TEST_MUL_F64
};
int cz_cuda_test_field(cz_ctx_t *ctx, int field, int op, void *out, const void *a, const void *b,
                       size_t n);

/*
 * Point operations; group 1 (Fp coordinates) or 2 (Fp2). Layouts: jac =
 * blst_p1/blst_p2, aff = blst_p1_affine/_p2_affine, xyzz = {X, Y, ZZ, ZZZ}.
 *   JAC_ADD  a jac,  b jac  -> jac      XYZZ_ADD  a xyzz, b xyzz -> xyzz
 *   JAC_MADD a jac,  b aff  -> jac      XYZZ_MADD a xyzz, b aff  -> xyzz
 *   JAC_DBL  a jac          -> jac      XYZZ_DBL  a xyzz         -> xyzz
 *   AFF_ADD  a aff,  b aff  -> aff      XYZZ_MADD_LZ a xyzz with coordinates
 *                                          below 2p, b aff -> xyzz reduced
 */
enum {
    CZ_CUDA_TEST_JAC_ADD,
    CZ_CUDA_TEST_JAC_MADD,
    CZ_CUDA_TEST_JAC_DBL,
    CZ_CUDA_TEST_XYZZ_ADD,
    CZ_CUDA_TEST_XYZZ_MADD,
    CZ_CUDA_TEST_XYZZ_DBL,
    CZ_CUDA_TEST_AFF_ADD,
    CZ_CUDA_TEST_XYZZ_MADD_LZ
};
int cz_cuda_test_ec(cz_ctx_t *ctx, int group, int op, void *out, const void *a, const void *b,
                    size_t n);

/*
 * `cuzk bench fmul`: one timed launch of threads (a multiple of 256) each
 * running 4 chains x_k <- x_k * y, |iters| times, over field 0 Fr
 * (blst_fr, CIOS reduced) or 1 Fp (blst_fp, CIOS lazy as in the MSM); kind
 * 0 every chain on CIOS (IMAD pipe), 1 every chain on the FP64 product
 * (fmont_impl.cuh), 2 two of each in one loop; 3 and 4 as 0 and 1 with one
 * chain a thread and 4 * threads threads. io: device array of 4 * threads
 * elements below m, the chains' starts in and their reduced ends out, equal
 * for every kind; y: one device element. *ms: the launch's time.
 */
int cz_cuda_bench_fmul(cz_ctx_t *ctx, int field, int kind, void *io, const void *y, size_t threads,
                       int iters, float *ms);

/*
 * `cuzk bench affine`: the n sums pts[2i] + pts[2i+1] of G1 affine points
 * (device, 2n blst_p1_affine, every pair's x distinct) into out (device):
 * kind 0 by the MSM's lazy XYZZ mixed addition (n XYZZ points X, Y, ZZ,
 * ZZZ of 48 bytes each, reduced), kind 1 in affine coordinates with one
 * shared inversion a block (n blst_p1_affine). ms[0] the whole, ms[1..3]
 * kind 1's three launches (prefix products, inversions, sums). CZ_EINVAL
 * for a pair with equal x (kind 1).
 */
int cz_cuda_bench_affine(cz_ctx_t *ctx, int kind, const void *pts, size_t n, void *out,
                         float ms[4]);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_BACKEND_CUDA_CUDA_H */
