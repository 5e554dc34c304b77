/*
 * backend/cpu/h.c — H on the CPU: iNTT of c (or of a*b, formed here when
 * c is NULL), iNTT and coset NTT of a and b, their product, one inverse
 * coset NTT, one pass subtracting the C coefficients and dividing by Z
 * (see h.h; FACTS 1).
 *
 * Why the C term skips the coset round trip. Bellperson computes
 *   h = cosetINTT((T(a) * T(b) - T(c)) / (g^m - 1)),   T = cosetNTT o INTT,
 * and cosetINTT(T(c)) = INTT(c) (the coset shift is undone by the inverse),
 * so by linearity
 *   h = (cosetINTT(T(a) * T(b)) - INTT(c)) / (g^m - 1):
 * six transforms instead of seven. Every Fr operation is exact and keeps
 * its result fully reduced, so the bytes equal bellperson's order's.
 *
 * Memory: the three domain vectors a, b, c (or the scratch for a*b) are
 * live together from the first transform to the last pass. No exact order
 * with two is known: T(a) * T(b) needs a and b transformed while the C term
 * (a function of both in the evaluation domain) is still wanted.
 */
#include "backend/cpu/h.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/pool.h"

typedef struct {
    cz_fr *out;
    const cz_fr *a, *b;
    const cz_fr *sub; /* final pass: out[i] = (out[i] - sub[i]) * zinv */
    cz_fr zinv;
} pointwise_arg;

/* out[i] = a[i] * b[i] */
static void product(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    const pointwise_arg *p = arg;
    for (size_t i = begin; i < end; i++)
        cz_fr_mul(&p->out[i], &p->a[i], &p->b[i]);
}

/* out[i] = (out[i] - sub[i]) * zinv */
static void sub_scale(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    const pointwise_arg *p = arg;
    for (size_t i = begin; i < end; i++) {
        cz_fr t;
        cz_fr_sub(&t, &p->out[i], &p->sub[i]);
        cz_fr_mul(&p->out[i], &t, &p->zinv);
    }
}

/* A domain-sized scratch vector on 2 MiB pages where the OS allows. */
static cz_fr *scratch_alloc(size_t m)
{
    const size_t bytes = m * sizeof(cz_fr), huge = (size_t)2 << 20;
    void *p = NULL;
    if (posix_memalign(&p, bytes >= huge ? huge : 64, bytes))
        return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= huge)
        (void)madvise(p, bytes & ~(huge - 1), MADV_HUGEPAGE); /* advisory */
#endif
    return p;
}

int cz_cpu_compute_h(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n)
{
    const unsigned log_n = cz_ntt_domain_log_n(d);
    const size_t m = (size_t)1 << log_n;
    if (n > m)
        return cz_fail(ctx, CZ_EMISMATCH, "h: %zu constraints exceed the domain %zu", n, m);
    cz_pool_t *pool = cz_ctx_pool(ctx);
    const size_t grain = cz_pool_grain(pool, m, 4);
    memset(a + n, 0, (m - n) * sizeof(cz_fr));
    memset(b + n, 0, (m - n) * sizeof(cz_fr));

    /* The C term: c, or c = a*b (exactly what a satisfying witness has). */
    cz_fr *y = c, *scratch = NULL;
    if (!c) {
        if (!(y = scratch = scratch_alloc(m)))
            return cz_fail(ctx, CZ_ENOMEM,
                           "h: scratch for c = a*b (%zu elements, %zu MiB) not allocated", m,
                           (m * sizeof(cz_fr)) >> 20);
        pointwise_arg p = { .out = y, .a = a, .b = b };
        cz_pool_for(pool, n, grain, product, &p);
    }
    memset(y + n, 0, (m - n) * sizeof(cz_fr));
    int rc = cz_ntt_inverse(ctx, d, y); /* C's coefficients */
    cz_fr *v[2] = { a, b };
    for (int i = 0; i < 2 && rc == CZ_OK; i++)
        if ((rc = cz_ntt_inverse(ctx, d, v[i])) == CZ_OK)
            rc = cz_ntt_coset_forward(ctx, d, v[i]);
    if (rc == CZ_OK) {
        pointwise_arg p = { .out = a, .a = a, .b = b };
        cz_pool_for(pool, m, grain, product, &p); /* A*B on the coset */
        rc = cz_ntt_coset_inverse(ctx, d, a);     /* A*B mod (X^m - g^m) */
    }
    if (rc == CZ_OK) {
        /* Z(X) = X^m - 1 is the constant g^m - 1 on the coset g*<w>. */
        pointwise_arg p = { .out = a, .sub = y };
        cz_fr g, one = CZ_FR_ONE;
        cz_fr_from_u64(&g, CZ_FR_GENERATOR);
        cz_fr_pow_u64(&p.zinv, &g, (uint64_t)m);
        cz_fr_sub(&p.zinv, &p.zinv, &one);
        cz_fr_inverse(&p.zinv, &p.zinv);
        cz_pool_for(pool, m, grain, sub_scale, &p);
    }
    free(scratch);
    return rc;
}
