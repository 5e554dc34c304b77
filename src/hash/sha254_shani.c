/*
 * hash/sha254_shani.c — SHA-256 compression with the x86 SHA extensions.
 *
 * The instructions (Intel SDM vol. 2, SHA256RNDS2 / SHA256MSG1 / SHA256MSG2)
 * keep the eight working variables as two vectors, ABEF and CDGH (lane 3
 * holds the first letter). SHA256RNDS2 does two rounds, taking W+K for them
 * from the low 64 bits of its third operand, so each group of four rounds is
 * two RNDS2 with the second pair moved down by a shuffle.
 *
 * Message schedule (FIPS 180-4 6.2.2 step 1), four words at a time: for the
 * vector X_k = W[4k..4k+3], k >= 4,
 *   X_k = MSG2(MSG1(X_{k-4}, X_{k-3}) + (W[4k-7..4k-4]), X_{k-1})
 * where MSG1 adds sigma0(W[t-15]) to W[t-16], the middle term is W[t-7]
 * (ALIGNR of X_{k-1}:X_{k-2} by 4 bytes), and MSG2 adds sigma1(W[t-2]).
 *
 * The functions are compiled for the SHA target via attributes only, so the
 * rest of the library keeps the baseline ISA; the caller checks CPUID first.
 */
#include "hash/sha254.h"

const uint32_t *cz__sha256_k(void);

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

bool cz_sha256_shani_available(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return false;
    bool ssse3 = c & (1u << 9), sse41 = c & (1u << 19);
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return false;
    bool sha = b & (1u << 29); /* CPUID.(EAX=7,ECX=0):EBX.SHA[bit 29] */
    return ssse3 && sse41 && sha;
}

__attribute__((target("sha,sse4.1,ssse3"))) void
cz_sha256_blocks_shani(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    const uint32_t *k = cz__sha256_k();
    /* Byte swap within each 32-bit lane: message words are big-endian. */
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);

    /* state DCBA / HGFE -> ABEF / CDGH */
    __m128i t = _mm_loadu_si128((const __m128i *)&state[0]);  /* D C B A */
    __m128i s1 = _mm_loadu_si128((const __m128i *)&state[4]); /* H G F E */
    t = _mm_shuffle_epi32(t, 0xB1);                           /* C D A B */
    s1 = _mm_shuffle_epi32(s1, 0x1B);                         /* E F G H */
    __m128i s0 = _mm_alignr_epi8(t, s1, 8);                   /* A B E F */
    s1 = _mm_blend_epi16(s1, t, 0xF0);                        /* C D G H */

    for (; n > 0; n--, blocks += 64) {
        const __m128i save0 = s0, save1 = s1;
        __m128i w[4];
#pragma GCC unroll 16
        for (unsigned g = 0; g < 16; g++) {
            __m128i *x = &w[g & 3];
            if (g < 4) {
                *x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 16 * g)), bswap);
            } else {
                const __m128i prev1 = w[(g + 3) & 3], prev2 = w[(g + 2) & 3];
                __m128i m = _mm_sha256msg1_epu32(*x, w[(g + 1) & 3]);
                m = _mm_add_epi32(m, _mm_alignr_epi8(prev1, prev2, 4));
                *x = _mm_sha256msg2_epu32(m, prev1);
            }
            __m128i wk = _mm_add_epi32(*x, _mm_loadu_si128((const __m128i *)&k[4 * g]));
            s1 = _mm_sha256rnds2_epu32(s1, s0, wk); /* rounds 4g, 4g+1 */
            wk = _mm_shuffle_epi32(wk, 0x0E);
            s0 = _mm_sha256rnds2_epu32(s0, s1, wk); /* rounds 4g+2, 4g+3 */
        }
        s0 = _mm_add_epi32(s0, save0);
        s1 = _mm_add_epi32(s1, save1);
    }

    /* ABEF / CDGH -> DCBA / HGFE */
    t = _mm_shuffle_epi32(s0, 0x1B);   /* F E B A */
    s1 = _mm_shuffle_epi32(s1, 0xB1);  /* D C H G */
    s0 = _mm_blend_epi16(t, s1, 0xF0); /* D C B A */
    s1 = _mm_alignr_epi8(s1, t, 8);    /* H G F E */
    _mm_storeu_si128((__m128i *)&state[0], s0);
    _mm_storeu_si128((__m128i *)&state[4], s1);
}

#else /* not x86 */

bool cz_sha256_shani_available(void)
{
    return false;
}

void cz_sha256_blocks_shani(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    cz_sha256_blocks_portable(state, blocks, n);
}

#endif
