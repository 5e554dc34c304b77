/*
 * ff/ntt.h — number-theoretic transforms over Fr on the CPU.
 *
 * Sizes 2^0 .. 2^28, in place, natural order in and out. Multi-threaded on
 * the ctx's pool. A cz_ntt_domain holds the twiddle factors of one size; it
 * is immutable after creation and may be shared by any number of threads.
 *
 * Memory: a domain of size n holds n/2 twiddles (w^0 .. w^(n/2-1), 32 bytes
 * each: 2 GiB at 2^27, 4 GiB at 2^28) plus a few constants; the inverse
 * transforms reuse the same table. A transform of more than 2^12 points
 * allocates pool width x 64 KiB of scratch for the duration of the call.
 *
 * Threads: |ctx| is used by one thread at a time (its error buffer), its
 * pool may be shared. A NULL ctx runs the call on the calling thread alone
 * and errors return only their code. Results are bit-identical whatever the
 * pool's width.
 *
 * Errors: CZ_EINVAL for a NULL domain, vector or output pointer, CZ_ERANGE
 * for log_n > 28, CZ_ENOMEM; the ctx gets the details. On error the vector
 * is unchanged and *out is NULL.
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

/*
 * Create the domain of size 2^log_n (log_n <= 28). Allocates the twiddles
 * (computed in parallel on ctx's pool); free with cz_ntt_domain_free().
 */
int cz_ntt_domain_new(cz_ctx_t *ctx, cz_ntt_domain **out, unsigned log_n);
/* NULL is a harmless no-op. */
void cz_ntt_domain_free(cz_ntt_domain *d);
/* log2 of the domain's size; 0 for NULL. */
unsigned cz_ntt_domain_log_n(const cz_ntt_domain *d);

/*
 * In-place transforms of v[0 .. 2^log_n), log_n = cz_ntt_domain_log_n(d).
 * Return CZ_OK or an error (see above); never partially transform v.
 */
int cz_ntt_forward(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v);
int cz_ntt_inverse(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v);
int cz_ntt_coset_forward(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v);
int cz_ntt_coset_inverse(cz_ctx_t *ctx, const cz_ntt_domain *d, cz_fr *v);

#endif /* CUZK_FF_NTT_H */
