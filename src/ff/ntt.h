/*
 * ff/ntt.h — number-theoretic transforms over Fr on the CPU.
 *
 * Sizes 2^0 .. 2^28, in place, natural order in and out. Multi-threaded on
 * the ctx's pool. A cz_ntt_domain holds the twiddle factors of one size; it
 * is immutable after creation and may be shared by any number of threads.
 *
 * Conventions (bellperson's EvaluationDomain, FACTS 1):
 *   forward:  X[k] = sum_i x[i] * w^(ik),      w = cz_fr_root_of_unity(log_n)
 *   inverse:  x[i] = m^-1 * sum_k X[k] * w^(-ik)
 *   coset forward:  multiply x[i] by g^i (g = 7), then forward
 *   coset inverse:  inverse, then multiply x[i] by g^-i
 */
#ifndef CUZK_FF_NTT_H
#define CUZK_FF_NTT_H

#include "ff/fr.h"

typedef struct cz_ntt_domain cz_ntt_domain;

/* Create the domain of size 2^log_n (log_n <= 28). Allocates the twiddles. */
int cz_ntt_domain_new(cz_ctx_t *ctx, cz_ntt_domain **out, unsigned log_n);
void cz_ntt_domain_free(cz_ntt_domain *d);
unsigned cz_ntt_domain_log_n(const cz_ntt_domain *d);

/* In-place transforms of v[0 .. 2^log_n). */
int cz_ntt_forward(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v);
int cz_ntt_inverse(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v);
int cz_ntt_coset_forward(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v);
int cz_ntt_coset_inverse(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v);

#endif /* CUZK_FF_NTT_H */
