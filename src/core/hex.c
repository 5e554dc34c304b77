/*
 * core/hex.c — hex encoding (see core/hex.h).
 */
#include "core/hex.h"

int cz_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

void cz_hex_encode(char *out, const uint8_t *in, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

bool cz_hex_decode(uint8_t *out, const char *hex, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int hi = cz_hex_digit(hex[2 * i]);
        int lo = hi < 0 ? -1 : cz_hex_digit(hex[2 * i + 1]);
        if (lo < 0)
            return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}
