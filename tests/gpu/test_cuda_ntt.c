/*
 * tests/gpu/test_cuda_ntt.c — the device NTT against the CPU NTT (ff/ntt.h)
 * for every kind and input/output order at sizes 2^1 .. 2^20 and 2^23, and
 * the device H pipeline (three and two buffers) against cz_cpu_compute_h,
 * bit for bit. Labelled gpu; skips without a device.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/h.h"
#include "gpu_test.h"

static cz_ctx_t *ctx(void)
{
    static cz_ctx_t *c;
    if (!c && cz_ctx_new(&c, NULL, 0) != CZ_OK)
        abort();
    return c;
}

static cz_fr *random_vec(size_t n, uint64_t seed)
{
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    cz_fr *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        cz_fr_random_rng(&v[i], &rng);
    return v;
}

static void bitrev_copy(cz_fr *dst, const cz_fr *src, unsigned log_n)
{
    size_t n = (size_t)1 << log_n;
    for (size_t i = 0; i < n; i++) {
        size_t r = 0;
        for (unsigned b = 0; b < log_n; b++)
            r |= ((i >> b) & 1) << (log_n - 1 - b);
        dst[r] = src[i];
    }
}

typedef int cpu_ntt_fn(cz_ctx_t *, const cz_ntt_domain *, cz_fr *);
static cpu_ntt_fn *const CPU_NTT[4] = { cz_ntt_forward, cz_ntt_inverse, cz_ntt_coset_forward,
                                        cz_ntt_coset_inverse };

/* Every kind and order at one size; returns the number of mismatches. */
static int check_size(unsigned log_n, int all_orders)
{
    const size_t n = (size_t)1 << log_n, bytes = n * sizeof(cz_fr);
    int bad = 0;
    cz_ntt_domain *cd = NULL;
    cz_cuda_ntt_domain *gd = NULL;
    void *dv = NULL;
    cz_fr *x = random_vec(n, 100 + log_n), *want = malloc(bytes), *in = malloc(bytes),
          *got = malloc(bytes), *tmp = malloc(bytes);
    if (cz_ntt_domain_new(ctx(), &cd, log_n) != CZ_OK ||
        cz_cuda_ntt_domain_new(ctx(), &gd, log_n) != CZ_OK ||
        cz_cuda_malloc(ctx(), &dv, bytes) != CZ_OK) {
        fprintf(stderr, "setup 2^%u: %s\n", log_n, cz_ctx_message(ctx()));
        bad++;
        goto out;
    }
    for (int kind = 0; kind < 4; kind++) {
        memcpy(want, x, bytes);
        if (CPU_NTT[kind](ctx(), cd, want) != CZ_OK) {
            bad++;
            continue;
        }
        for (int order = 0; order < 4; order++) {
            if (!all_orders && order != CZ_CUDA_ORDER_NN && order != CZ_CUDA_ORDER_NR)
                continue;
            int rev_in = order == CZ_CUDA_ORDER_RN || order == CZ_CUDA_ORDER_RR;
            int rev_out = order == CZ_CUDA_ORDER_NR || order == CZ_CUDA_ORDER_RR;
            if (rev_in)
                bitrev_copy(in, x, log_n);
            else
                memcpy(in, x, bytes);
            int rc = cz_cuda_memcpy_htod(ctx(), dv, in, bytes);
            if (rc == CZ_OK)
                rc = cz_cuda_ntt(ctx(), gd, dv, (cz_cuda_ntt_kind)kind, (cz_cuda_ntt_order)order,
                                 NULL);
            if (rc == CZ_OK)
                rc = cz_cuda_sync(ctx());
            if (rc == CZ_OK)
                rc = cz_cuda_memcpy_dtoh(ctx(), got, dv, bytes);
            if (rc != CZ_OK) {
                fprintf(stderr, "2^%u kind %d order %d: %s\n", log_n, kind, order,
                        cz_ctx_message(ctx()));
                bad++;
                continue;
            }
            if (rev_out) {
                memcpy(tmp, got, bytes);
                bitrev_copy(got, tmp, log_n);
            }
            if (memcmp(got, want, bytes) != 0) {
                size_t i = 0;
                while (!cz_fr_eq(&got[i], &want[i]))
                    i++;
                fprintf(stderr, "2^%u kind %d order %d differs (first at %zu)\n", log_n, kind,
                        order, i);
                bad++;
            }
        }
    }
out:
    cz_cuda_free(dv);
    cz_cuda_ntt_domain_free(gd);
    cz_ntt_domain_free(cd);
    free(x);
    free(want);
    free(in);
    free(got);
    free(tmp);
    return bad;
}

CZ_TEST(ntt_all_kinds_orders_small)
{
    if (!gpu_or_skip())
        return;
    for (unsigned L = 1; L <= 20; L++)
        CHECK_EQ_INT(check_size(L, L <= 14 || L == 20), 0);
}

CZ_TEST(ntt_large)
{
    if (!gpu_or_skip())
        return;
    CHECK_EQ_INT(check_size(23, 0), 0);
}

CZ_TEST(ntt_bad_arguments)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_ntt_domain *d = NULL;
    CHECK_EQ_INT(cz_cuda_ntt_domain_new(ctx(), &d, 0), CZ_ERANGE);
    CHECK_EQ_INT(cz_cuda_ntt_domain_new(ctx(), &d, 29), CZ_ERANGE);
    CHECK(d == NULL);
}

/* Device H (one context reused across sizes) equals the CPU H bit for bit. */
static void check_h(cz_cuda_h *gh, unsigned log_n, size_t n)
{
    const size_t m = (size_t)1 << log_n, bytes = m * sizeof(cz_fr);
    cz_fr *a = random_vec(m, 7 * log_n + n), *b = random_vec(m, 7 * log_n + n + 1),
          *c = random_vec(m, 7 * log_n + n + 2), *got = malloc(bytes);
    cz_ntt_domain *cd;
    CHECK_OK(cz_cuda_h_compute(ctx(), gh, a, b, c, n, log_n));
    CHECK_OK(cz_cuda_h_download(ctx(), gh, got, m));
    REQUIRE(cz_ntt_domain_new(ctx(), &cd, log_n) == CZ_OK);
    CHECK_OK(cz_cpu_compute_h(ctx(), cd, a, b, c, n));
    if (memcmp(got, a, bytes) != 0) {
        size_t i = 0;
        while (cz_fr_eq(&got[i], &a[i]))
            i++;
        fprintf(stderr, "h 2^%u n=%zu differs (first at %zu)\n", log_n, n, i);
        CHECK(0);
    }
    cz_ntt_domain_free(cd);
    free(a);
    free(b);
    free(c);
    free(got);
}

CZ_TEST(h_matches_cpu)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_h *gh;
    REQUIRE(cz_cuda_h_new(ctx(), &gh, 0, 22) == CZ_OK);
    static const unsigned sizes[] = { 1, 2, 3, 5, 9, 10, 11, 14, 15, 17, 20, 22 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t m = (size_t)1 << sizes[i];
        check_h(gh, sizes[i], m);
        if (m > 2)
            check_h(gh, sizes[i], m - m / 3);
    }
    cz_cuda_h_times t;
    cz_cuda_h_last_times(gh, &t);
    printf("h 2^22 times (ms from start): a %.2f b %.2f c %.2f ab %.2f total %.2f\n", t.a_uploaded,
           t.b_uploaded, t.c_uploaded, t.ab_done, t.total);
    CHECK_EQ_INT(cz_cuda_h_compute(ctx(), gh, NULL, NULL, NULL, 1, 3), CZ_EINVAL);
    cz_fr v[4];
    CHECK_EQ_INT(cz_cuda_h_compute(ctx(), gh, v, v, v, 1, 23), CZ_ERANGE);
    CHECK_EQ_INT(cz_cuda_h_compute(ctx(), gh, v, v, v, 9, 3), CZ_EMISMATCH);
    cz_cuda_h_free(gh);
}

/* The fill of an upload from |arg|, an array in host memory. */
static int plain_fill(void *arg, void *dst, size_t off, size_t len)
{
    memcpy(dst, (const char *)arg + off, len);
    return CZ_OK;
}

/*
 * cz_cuda_h_compute_loaded, with a and b uploaded by the caller through
 * bounce buffers (several chunks and a short last one: the backend's path
 * for pageable a and b), and cz_cuda_h_compute from arrays in device memory
 * (the backend's staging slots) equal cz_cuda_h_compute from host arrays
 * bit for bit, with c and with c = a∘b; the padding left by an earlier,
 * larger compute is zeroed.
 */
static void check_loaded(cz_cuda_h *gh, void *const bounce[2], size_t bounce_bytes, unsigned log_n,
                         size_t n, bool have_c)
{
    const size_t m = (size_t)1 << log_n, bytes = m * sizeof(cz_fr);
    cz_fr *a = random_vec(n, 11 * log_n + n), *b = random_vec(n, 11 * log_n + n + 1),
          *c = random_vec(n, 11 * log_n + n + 2), *want = malloc(bytes), *got = malloc(bytes);
    CHECK_OK(cz_cuda_h_compute(ctx(), gh, a, b, have_c ? c : NULL, n, log_n));
    CHECK_OK(cz_cuda_h_download(ctx(), gh, want, m));
    const size_t in_bytes = n * sizeof(cz_fr);
    CHECK_OK(cz_cuda_upload_bounced(ctx(), cz_cuda_h_input(gh, 0), in_bytes, bounce, bounce_bytes,
                                    plain_fill, a));
    CHECK_OK(cz_cuda_upload_bounced(ctx(), cz_cuda_h_input(gh, 1), in_bytes, bounce, bounce_bytes,
                                    plain_fill, b));
    if (have_c)
        CHECK_OK(cz_cuda_memcpy_htod(ctx(), cz_cuda_h_input(gh, 2), c, in_bytes));
    CHECK_OK(cz_cuda_h_compute_loaded(ctx(), gh, n, log_n, have_c));
    CHECK_OK(cz_cuda_h_download(ctx(), gh, got, m));
    if (memcmp(got, want, bytes) != 0) {
        fprintf(stderr, "loaded h 2^%u n=%zu c=%d differs\n", log_n, n, (int)have_c);
        CHECK(0);
    }
    /* inputs in device memory of the caller's (the backend's staging slots) */
    void *d[3] = { NULL, NULL, NULL };
    const cz_fr *host[3] = { a, b, c };
    for (int k = 0; k < 3; k++) {
        REQUIRE(cz_cuda_malloc(ctx(), &d[k], in_bytes) == CZ_OK);
        CHECK_OK(cz_cuda_memcpy_htod(ctx(), d[k], host[k], in_bytes));
    }
    memset(got, 0, bytes);
    CHECK_OK(cz_cuda_h_compute(ctx(), gh, d[0], d[1], have_c ? d[2] : NULL, n, log_n));
    CHECK_OK(cz_cuda_h_download(ctx(), gh, got, m));
    if (memcmp(got, want, bytes) != 0) {
        fprintf(stderr, "h from device inputs 2^%u n=%zu c=%d differs\n", log_n, n, (int)have_c);
        CHECK(0);
    }
    for (int k = 0; k < 3; k++)
        cz_cuda_free(d[k]);
    free(a);
    free(b);
    free(c);
    free(want);
    free(got);
}

CZ_TEST(h_from_inputs_loaded_by_the_caller_or_in_device_memory_equals_h_from_host_arrays)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_h *gh;
    REQUIRE(cz_cuda_h_new(ctx(), &gh, 0, 20) == CZ_OK);
    void *bounce[2] = { NULL, NULL };
    const size_t bounce_bytes = (1 << 20) + 96; /* 2^20 elements take 32 chunks and a short one */
    REQUIRE(cz_cuda_host_alloc(ctx(), &bounce[0], bounce_bytes) == CZ_OK);
    REQUIRE(cz_cuda_host_alloc(ctx(), &bounce[1], bounce_bytes) == CZ_OK);
    check_loaded(gh, bounce, bounce_bytes, 20, (size_t)1 << 20, true); /* fills every buffer */
    check_loaded(gh, bounce, bounce_bytes, 20, 700001, false);
    check_loaded(gh, bounce, bounce_bytes, 20, 700001, true);
    check_loaded(gh, bounce, bounce_bytes, 11, 1500, false);
    check_loaded(gh, bounce, bounce_bytes, 3, 5, true);
    CHECK(cz_cuda_h_input(gh, 3) == NULL && cz_cuda_h_input(gh, -1) == NULL);
    CHECK_EQ_INT(cz_cuda_h_compute_loaded(ctx(), gh, 9, 3, false), CZ_EMISMATCH);
    CHECK_EQ_INT(cz_cuda_h_compute_loaded(ctx(), gh, 1, 21, false), CZ_ERANGE);
    cz_cuda_host_free(bounce[0]);
    cz_cuda_host_free(bounce[1]);
    cz_cuda_h_free(gh);
}

/* ---- the two-buffer mode ---------------------------------------------- */

/*
 * The two-buffer context's H equals the CPU H bit for bit: c given (from
 * host memory, or from device memory with |c_on_device|) or c = a∘b
 * (NULL to both), or, with |loaded|, a and b written into the context's
 * input buffers by the caller and c = a∘b.
 */
static void check_h2(cz_cuda_h *gh, unsigned log_n, size_t n, bool with_c, bool loaded,
                     bool c_on_device)
{
    const size_t m = (size_t)1 << log_n, bytes = m * sizeof(cz_fr), in_bytes = n * sizeof(cz_fr);
    const uint64_t seed = 13 * log_n + n + (with_c ? 1000 : 0) + (loaded ? 2000 : 0);
    cz_fr *a = random_vec(m, seed), *b = random_vec(m, seed + 1), *c = random_vec(m, seed + 2),
          *got = malloc(bytes);
    cz_ntt_domain *cd;
    void *dc = NULL;
    if (loaded) {
        CHECK_OK(cz_cuda_memcpy_htod(ctx(), cz_cuda_h_input(gh, 0), a, in_bytes));
        CHECK_OK(cz_cuda_memcpy_htod(ctx(), cz_cuda_h_input(gh, 1), b, in_bytes));
        CHECK_OK(cz_cuda_h_compute_loaded(ctx(), gh, n, log_n, false));
    } else {
        const cz_fr *gc = with_c ? c : NULL;
        if (with_c && c_on_device) {
            REQUIRE(cz_cuda_malloc(ctx(), &dc, in_bytes ? in_bytes : 1) == CZ_OK);
            CHECK_OK(cz_cuda_memcpy_htod(ctx(), dc, c, in_bytes));
            gc = dc;
        }
        CHECK_OK(cz_cuda_h_compute(ctx(), gh, a, b, gc, n, log_n));
    }
    CHECK(cz_cuda_h_result(gh) == cz_cuda_h_input(gh, 0)); /* in place, in A */
    CHECK_OK(cz_cuda_h_download(ctx(), gh, got, m));
    REQUIRE(cz_ntt_domain_new(ctx(), &cd, log_n) == CZ_OK);
    CHECK_OK(cz_cpu_compute_h(ctx(), cd, a, b, with_c ? c : NULL, n));
    if (memcmp(got, a, bytes) != 0) {
        size_t i = 0;
        while (cz_fr_eq(&got[i], &a[i]))
            i++;
        fprintf(stderr, "2-buffer h 2^%u n=%zu c=%d loaded=%d dev_c=%d differs (first at %zu)\n",
                log_n, n, (int)with_c, (int)loaded, (int)c_on_device, i);
        CHECK(0);
    }
    cz_cuda_free(dc);
    cz_ntt_domain_free(cd);
    free(a);
    free(b);
    free(c);
    free(got);
}

/* every way of giving the inputs, n = m and n < m */
static void check_h2_all(cz_cuda_h *gh, unsigned log_n)
{
    const size_t m = (size_t)1 << log_n;
    const size_t ns[2] = { m, m - m / 3 };
    for (int k = 0; k < (m > 2 ? 2 : 1); k++) {
        check_h2(gh, log_n, ns[k], true, false, false);
        check_h2(gh, log_n, ns[k], false, false, false);
        check_h2(gh, log_n, ns[k], false, true, false);
    }
    check_h2(gh, log_n, ns[m > 2], true, false, true);
}

CZ_TEST(h_buffers_arguments_and_memory)
{
    /* pure, or refused before any device call: no GPU needed */
    CHECK(cz_cuda_h_mem_bytes_buffers(27, 3) == cz_cuda_h_mem_bytes(27));
    CHECK(cz_cuda_h_mem_bytes_buffers(27, 2) + ((size_t)4 << 30) - ((size_t)128 << 20) ==
          cz_cuda_h_mem_bytes(27));
    CHECK(cz_cuda_h_mem_bytes_buffers(3, 2) ==
          cz_cuda_h_mem_bytes(3) - 8 * sizeof(cz_fr) + 16 * sizeof(cz_fr));
    CHECK(cz_cuda_h_mem_bytes_buffers(20, 4) == 0 && cz_cuda_h_mem_bytes_buffers(20, 1) == 0);
    static char dummy;
    cz_cuda_h *gh = (cz_cuda_h *)(void *)&dummy; /* anything non-NULL: it comes back NULL */
    CHECK_EQ_INT(cz_cuda_h_new_buffers(ctx(), &gh, 0, 10, 4), CZ_EINVAL);
    CHECK(gh == NULL);
    CHECK_EQ_INT(cz_cuda_h_new_buffers(ctx(), &gh, 0, 10, 1), CZ_EINVAL);
    CHECK_EQ_INT(cz_cuda_h_new_buffers(ctx(), &gh, 0, 29, 2), CZ_ERANGE);
}

CZ_TEST(h_two_buffers_matches_cpu)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_h *gh;
    REQUIRE(cz_cuda_h_new_buffers(ctx(), &gh, 0, 20, 2) == CZ_OK);
    CHECK_EQ_INT((int)cz_cuda_h_buffers(gh), 2);
    CHECK(cz_cuda_h_input(gh, 0) && cz_cuda_h_input(gh, 1) && !cz_cuda_h_input(gh, 2));
    /* the scratch: the halves of B, before and after a compute */
    const size_t half = (sizeof(cz_fr) << 20) / 2;
    CHECK(cz_cuda_h_buffer_bytes(gh) == half);
    for (int pass = 0; pass < 2; pass++) {
        CHECK(cz_cuda_h_scratch(gh, 0) == cz_cuda_h_input(gh, 1));
        CHECK((char *)cz_cuda_h_scratch(gh, 1) == (char *)cz_cuda_h_input(gh, 1) + half);
        CHECK(cz_cuda_h_scratch(gh, 2) == NULL);
        if (pass == 0)
            check_h2(gh, 4, 16, true, false, false);
    }
    /* growing sizes, then smaller ones again over the larger ones' leftovers */
    static const unsigned sizes[] = { 1, 2, 3, 4, 5, 10, 16, 20, 10, 3, 1 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        check_h2_all(gh, sizes[i]);
    CHECK_EQ_INT(cz_cuda_h_compute_loaded(ctx(), gh, 16, 4, true), CZ_EINVAL);
    CHECK(strstr(cz_ctx_message(ctx()), "c buffer") != NULL);
    CHECK_EQ_INT(cz_cuda_h_compute_loaded(ctx(), gh, 9, 3, false), CZ_EMISMATCH);
    CHECK_EQ_INT(cz_cuda_h_compute_loaded(ctx(), gh, 1, 21, false), CZ_ERANGE);
    cz_cuda_h_times t;
    cz_cuda_h_last_times(gh, &t);
    printf("2-buffer h times (ms from start): a %.2f b %.2f c %.2f ab %.2f total %.2f\n",
           t.a_uploaded, t.b_uploaded, t.c_uploaded, t.ab_done, t.total);
    cz_cuda_h_free(gh);
}

/* c = a∘b through several temporaries' worth of chunks (2^23: four 2^21
 * chunks, the two temporaries reused twice each), both ways of giving c. */
CZ_TEST(h_two_buffers_many_chunks)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_h *gh;
    REQUIRE(cz_cuda_h_new_buffers(ctx(), &gh, 0, 23, 2) == CZ_OK);
    const size_t m = (size_t)1 << 23;
    check_h2(gh, 23, m - 12345, false, false, false);
    check_h2(gh, 23, m, false, true, false);
    check_h2(gh, 23, m, true, false, false);
    cz_cuda_h_free(gh);
}

/* Given back between turns (the H in turn with the MSMs) and taken back: the device
 * buffers go and come, the results stay the CPU's; a compute while given back is refused. */
CZ_TEST(h_given_back_and_taken_back_matches_cpu)
{
    if (!gpu_or_skip())
        return;
    cz_cuda_h *gh;
    REQUIRE(cz_cuda_h_new_buffers(ctx(), &gh, 0, 21, 2) == CZ_OK);
    for (int turn = 0; turn < 3; turn++) {
        check_h2(gh, 21, ((size_t)1 << 21) - 7 * (size_t)turn, false, false, false);
        cz_cuda_h_give_back(gh);
        CHECK(cz_cuda_h_input(gh, 0) == NULL && cz_cuda_h_result(gh) == NULL);
        CHECK_EQ_INT(cz_cuda_h_compute_loaded(ctx(), gh, 16, 4, false), CZ_EINVAL);
        REQUIRE(cz_cuda_h_take_back(ctx(), gh) == CZ_OK);
        CHECK(cz_cuda_h_input(gh, 0) != NULL && cz_cuda_h_input(gh, 1) != NULL);
    }
    cz_cuda_h_give_back(gh);
    cz_cuda_h_free(gh); /* given back: the rest freed */
}

CZ_TEST_MAIN()
