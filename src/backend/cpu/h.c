/*
 * backend/cpu/h.c — H on the CPU: three iNTTs, three coset NTTs, one
 * pointwise pass, one inverse coset NTT (see h.h; FACTS 1).
 */
#include "backend/cpu/h.h"

#include <string.h>

#include "core/pool.h"

typedef struct {
    cz_fr *a;
    const cz_fr *b, *c;
    cz_fr zinv;
} pointwise_arg;

/* a[i] = (a[i] * b[i] - c[i]) * zinv */
static void pointwise(void *arg, size_t begin, size_t end, unsigned slot)
{
    (void)slot;
    pointwise_arg *p = arg;
    for (size_t i = begin; i < end; i++) {
        cz_fr t;
        cz_fr_mul(&t, &p->a[i], &p->b[i]);
        cz_fr_sub(&t, &t, &p->c[i]);
        cz_fr_mul(&p->a[i], &t, &p->zinv);
    }
}

int cz_cpu_compute_h(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c,
                     size_t n)
{
    const unsigned log_n = cz_ntt_domain_log_n(d);
    const size_t m = (size_t)1 << log_n;
    if (n > m)
        return cz_fail(ctx, CZ_EMISMATCH, "h: %zu constraints exceed the domain %zu", n, m);
    cz_fr *v[3] = { a, b, c };
    int rc;
    for (int i = 0; i < 3; i++) {
        memset(v[i] + n, 0, (m - n) * sizeof(cz_fr));
        if ((rc = cz_ntt_inverse(ctx, d, v[i])) != CZ_OK ||
            (rc = cz_ntt_coset_forward(ctx, d, v[i])) != CZ_OK)
            return rc;
    }
    /* Z(X) = X^m - 1 is the constant g^m - 1 on the coset g*<w>. */
    pointwise_arg p = { a, b, c, CZ_FR_ZERO };
    cz_fr g, one = CZ_FR_ONE;
    cz_fr_from_u64(&g, CZ_FR_GENERATOR);
    cz_fr_pow_u64(&p.zinv, &g, (uint64_t)m);
    cz_fr_sub(&p.zinv, &p.zinv, &one);
    cz_fr_inverse(&p.zinv, &p.zinv);
    cz_pool_t *pool = cz_ctx_pool(ctx);
    cz_pool_for(pool, m, cz_pool_grain(pool, m, 4), pointwise, &p);
    return cz_ntt_coset_inverse(ctx, d, a);
}
