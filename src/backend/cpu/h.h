/*
 * backend/cpu/h.h — the CPU backend's H computation (the quotient
 * polynomial of Groth16's prover), bit for bit as bellperson computes it.
 *
 * This is the reference the CUDA backend must equal bit for bit.
 */
#ifndef CUZK_BACKEND_CPU_H_H
#define CUZK_BACKEND_CPU_H_H

#include <stddef.h>

#include "ff/ntt.h"

/*
 * For the n constraint evaluations a, b, c (n <= m = 2^log_n of |d|), per
 * FACTS 1: zero-pad each to m; iNTT each; coset NTT each (x[i] *= g^i,
 * g = 7, then NTT); a[i] = (a[i]*b[i] - c[i]) * (g^m - 1)^-1; inverse coset
 * NTT of a. (Computed with one transform fewer, the same bytes: h.c.) On
 * return a[0 .. m) holds h (the first m-1 coefficients are the ones the H
 * MSM uses); b and c are clobbered. a and b must hold m elements, c too
 * when given; [n, m) need not be initialised.
 *
 * c == NULL means c[i] = a[i]*b[i] for i < n (zero beyond), the c of every
 * satisfying witness (backend/backend.h): it is formed here, on the pool,
 * in a domain-sized scratch vector held for the duration of the call. The
 * result is the one the c-given call returns for that c.
 *
 * Returns CZ_OK, CZ_EMISMATCH (n > m), CZ_ENOMEM (the scratch for c = a*b;
 * the message says its size) or an NTT error. Runs on the ctx's pool.
 * Thread-safety: as the cz_ntt_* calls (the domain is shared read-only;
 * the arrays belong to the call).
 */
int cz_cpu_compute_h(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n);

#endif /* CUZK_BACKEND_CPU_H_H */
