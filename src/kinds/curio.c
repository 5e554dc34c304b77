/*
 * kinds/curio.c — what the kinds' Curio mappings share (see kinds/curio.h).
 */
#include "kinds/curio.h"

#include <stdbool.h>
#include <stdlib.h>

/* ---- base64 (RFC 4648 section 4: what Go's encoding/json writes) -------- */

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

bool cz__utf8_valid(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t k = c >= 0xC2 && c <= 0xDF   ? 2
                   : c >= 0xE0 && c <= 0xEF ? 3
                   : c >= 0xF0 && c <= 0xF4 ? 4
                                            : 0;
        if (!k || n - i < k)
            return false;
        /* the second byte's range: no overlong form, surrogate or code point > U+10FFFF */
        unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
        unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
        if (p[i + 1] < lo || p[i + 1] > hi)
            return false;
        for (size_t j = 2; j < k; j++)
            if (p[i + j] < 0x80 || p[i + j] > 0xBF)
                return false;
        i += k;
    }
    return true;
}

int cz__base64_decode(const char *in, size_t in_len, uint8_t *out, size_t *out_len, size_t *bad)
{
    *out_len = 0;
    *bad = 0;
    if (in_len % 4) {
        *bad = in_len;
        return CZ_EFORMAT;
    }
    size_t o = 0;
    for (size_t i = 0; i < in_len; i += 4) {
        int v[4];
        bool last = i + 4 == in_len;
        for (int k = 0; k < 4; k++) {
            unsigned char c = (unsigned char)in[i + k];
            /* '=' only as the last one or two characters */
            if (c == '=' && last && (k == 3 || (k == 2 && in[i + 3] == '='))) {
                v[k] = -2;
                continue;
            }
            v[k] = b64_value(c);
            if (v[k] < 0 || (k == 3 && v[2] == -2)) {
                *bad = i + (size_t)k;
                return CZ_EFORMAT;
            }
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 |
                     (uint32_t)(v[2] < 0 ? 0 : v[2]) << 6 | (uint32_t)(v[3] < 0 ? 0 : v[3]);
        out[o++] = (uint8_t)(w >> 16);
        if (v[2] >= 0)
            out[o++] = (uint8_t)(w >> 8);
        if (v[3] >= 0)
            out[o++] = (uint8_t)w;
    }
    *out_len = o;
    return CZ_OK;
}

/* ---- vanilla_proofs ------------------------------------------------------- */

/* These kinds carry their vanilla proofs in vanilla_proofs (field 11); a
 * client that puts one in vanilla_proof (field 10, PoRep's) gets it named. */
int cz__curio_no_single_vanilla(cz_ctx_t *ctx, const cz_curio_request_t *r, const char *kind,
                                const char *each)
{
    if (r->vanilla_proof.len)
        return cz_fail(ctx, CZ_EINVAL,
                       "vanilla_proof: %zu bytes, but %s takes vanilla_proofs "
                       "(field 11: %s each), not vanilla_proof (field 10)",
                       r->vanilla_proof.len, kind, each);
    return CZ_OK;
}

/* vanilla_proofs as pointer / length arrays (borrowing |r|; free both). */
int cz__curio_vanilla_arrays(cz_ctx_t *ctx, const cz_curio_request_t *r, uint8_t ***ptrs,
                             size_t **lens)
{
    size_t n = r->n_vanilla_proofs;
    *ptrs = calloc(n ? n : 1, sizeof **ptrs);
    *lens = calloc(n ? n : 1, sizeof **lens);
    if (!*ptrs || !*lens) {
        free(*ptrs);
        free(*lens);
        return cz_fail(ctx, CZ_ENOMEM, "vanilla_proofs: %zu", n);
    }
    for (size_t i = 0; i < n; i++) {
        (*ptrs)[i] = (uint8_t *)r->vanilla_proofs[i].data; /* only read */
        (*lens)[i] = r->vanilla_proofs[i].len;
    }
    return CZ_OK;
}
