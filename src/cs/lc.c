/*
 * cs/lc.c — sorted, merged sparse linear combinations (see cs/lc.h).
 *
 * Insertion follows the behaviour of BPC lc.rs `Indexer::insert_or_update`:
 * the terms stay sorted by id and a repeated id updates its coefficient. The
 * common patterns (append an id above every present one; touch the same id
 * again) take O(1); anything else is a binary search and one memmove.
 */
#include "cs/lc.h"

#include <stdlib.h>
#include <string.h>

static inline uint32_t *lc_ids_mut(cz_lc_t *lc)
{
    return lc->hvars ? lc->hvars : lc->ivars;
}
static inline cz_fr *lc_coeffs_mut(cz_lc_t *lc)
{
    return lc->hcoeffs ? lc->hcoeffs : lc->icoeffs;
}
static inline uint32_t lc_capacity(const cz_lc_t *lc)
{
    return lc->hvars ? lc->cap : CZ_LC_INLINE;
}

void cz_lc_init(cz_lc_t *lc)
{
    memset(lc, 0, sizeof *lc);
}

void cz_lc_free(cz_lc_t *lc)
{
    if (!lc)
        return;
    free(lc->hvars);
    free(lc->hcoeffs);
    cz_lc_init(lc);
}

void cz_lc_clear(cz_lc_t *lc)
{
    lc->len = 0;
    lc->last = 0;
    lc->err = CZ_OK;
}

/* Make room for |need| terms; false (and lc->err set) when out of memory. */
static bool lc_reserve(cz_lc_t *lc, uint64_t need)
{
    uint32_t cap = lc_capacity(lc);
    if (need <= cap)
        return true;
    uint64_t ncap = (uint64_t)cap * 2;
    while (ncap < need)
        ncap *= 2;
    if (ncap > UINT32_MAX) {
        lc->err = CZ_ENOMEM;
        return false;
    }
    uint32_t *ids = malloc(ncap * sizeof *ids);
    cz_fr *coeffs = malloc(ncap * sizeof *coeffs);
    if (!ids || !coeffs) {
        free(ids);
        free(coeffs);
        lc->err = CZ_ENOMEM;
        return false;
    }
    memcpy(ids, lc_ids_mut(lc), lc->len * sizeof *ids);
    memcpy(coeffs, lc_coeffs_mut(lc), lc->len * sizeof *coeffs);
    free(lc->hvars);
    free(lc->hcoeffs);
    lc->hvars = ids;
    lc->hcoeffs = coeffs;
    lc->cap = (uint32_t)ncap;
    return true;
}

/* First position whose id is >= |id| (the terms are sorted). */
static uint32_t lc_lower_bound(const uint32_t *ids, uint32_t n, uint32_t id)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* lc += (neg ? -c : c) * Var(id). |c| is a private copy (may alias nothing). */
static void lc_upsert(cz_lc_t *lc, uint32_t id, const cz_fr *c, bool neg)
{
    if (lc->err)
        return;
    uint32_t n = lc->len;
    uint32_t *ids = lc_ids_mut(lc);
    uint32_t pos;
    if (n == 0 || id > ids[n - 1]) {
        pos = n;
    } else {
        if (lc->last < n && ids[lc->last] == id)
            pos = lc->last;
        else
            pos = lc_lower_bound(ids, n, id);
        if (ids[pos] == id) {
            cz_fr *dst = &lc_coeffs_mut(lc)[pos];
            if (neg)
                cz_fr_sub(dst, dst, c);
            else
                cz_fr_add(dst, dst, c);
            lc->last = pos;
            return;
        }
    }
    if (n >= lc_capacity(lc) && !lc_reserve(lc, (uint64_t)n + 1))
        return;
    ids = lc_ids_mut(lc);
    cz_fr *coeffs = lc_coeffs_mut(lc);
    if (pos < n) {
        memmove(ids + pos + 1, ids + pos, (n - pos) * sizeof *ids);
        memmove(coeffs + pos + 1, coeffs + pos, (n - pos) * sizeof *coeffs);
    }
    ids[pos] = id;
    if (neg)
        cz_fr_neg(&coeffs[pos], c);
    else
        coeffs[pos] = *c;
    lc->len = n + 1;
    lc->last = pos;
}

void cz_lc_add(cz_lc_t *lc, cz_var_t var)
{
    lc_upsert(lc, var.id, &CZ_FR_ONE, false);
}

void cz_lc_sub(cz_lc_t *lc, cz_var_t var)
{
    lc_upsert(lc, var.id, &CZ_FR_ONE, true);
}

void cz_lc_add_term(cz_lc_t *lc, const cz_fr *coeff, cz_var_t var)
{
    cz_fr c = *coeff; /* |coeff| may point into lc's own buffer */
    lc_upsert(lc, var.id, &c, false);
}

void cz_lc_sub_term(cz_lc_t *lc, const cz_fr *coeff, cz_var_t var)
{
    cz_fr c = *coeff;
    lc_upsert(lc, var.id, &c, true);
}

/* lc += sign * k * other, k NULL meaning 1. */
static void lc_add_lc(cz_lc_t *lc, const cz_fr *k, const cz_lc_t *other, bool neg)
{
    if (lc->err)
        return;
    if (other->err) {
        lc->err = other->err;
        return;
    }
    cz_fr kk = k ? *k : CZ_FR_ONE;
    if (other == lc) {
        /* Same ids in the same places: c_k = c_k +- kk * c_k. */
        cz_fr *coeffs = lc_coeffs_mut(lc);
        for (uint32_t i = 0; i < lc->len; i++) {
            cz_fr t;
            cz_fr_mul(&t, &coeffs[i], &kk);
            if (neg)
                cz_fr_sub(&coeffs[i], &coeffs[i], &t);
            else
                cz_fr_add(&coeffs[i], &coeffs[i], &t);
        }
        return;
    }
    if (lc->len == 0 && !k && !neg) {
        cz_lc_copy(lc, other);
        return;
    }
    const uint32_t *ids = cz_lc_ids(other);
    const cz_fr *coeffs = cz_lc_coeffs(other);
    for (uint32_t i = 0; i < other->len; i++) {
        cz_fr c = coeffs[i];
        if (k)
            cz_fr_mul(&c, &c, &kk);
        lc_upsert(lc, ids[i], &c, neg);
    }
}

void cz_lc_add_lc(cz_lc_t *lc, const cz_lc_t *other)
{
    lc_add_lc(lc, NULL, other, false);
}
void cz_lc_sub_lc(cz_lc_t *lc, const cz_lc_t *other)
{
    lc_add_lc(lc, NULL, other, true);
}

void cz_lc_add_scaled(cz_lc_t *lc, const cz_fr *coeff, const cz_lc_t *other)
{
    lc_add_lc(lc, coeff, other, false);
}

void cz_lc_sub_scaled(cz_lc_t *lc, const cz_fr *coeff, const cz_lc_t *other)
{
    lc_add_lc(lc, coeff, other, true);
}

void cz_lc_copy(cz_lc_t *dst, const cz_lc_t *src)
{
    if (dst == src)
        return;
    cz_lc_clear(dst);
    if (src->err) {
        dst->err = src->err;
        return;
    }
    if (!lc_reserve(dst, src->len))
        return;
    memcpy(lc_ids_mut(dst), cz_lc_ids(src), src->len * sizeof(uint32_t));
    memcpy(lc_coeffs_mut(dst), cz_lc_coeffs(src), src->len * sizeof(cz_fr));
    dst->len = src->len;
    dst->last = src->len ? src->len - 1 : 0;
}

void cz_lc_eval(cz_fr *out, const cz_lc_t *lc, const cz_fr *inputs, const cz_fr *aux)
{
    const uint32_t *ids = cz_lc_ids(lc);
    const cz_fr *coeffs = cz_lc_coeffs(lc);
    cz_fr acc = CZ_FR_ZERO;
    for (uint32_t i = 0; i < lc->len; i++) {
        if (cz_fr_is_zero(&coeffs[i]))
            continue;
        uint32_t id = ids[i];
        const cz_fr *z = (id & CZ_VAR_AUX_BIT) ? &aux[id & CZ_VAR_MAX_INDEX] : &inputs[id];
        if (cz_fr_is_one(&coeffs[i])) {
            cz_fr_add(&acc, &acc, z);
        } else {
            cz_fr t;
            cz_fr_mul(&t, z, &coeffs[i]);
            cz_fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}
