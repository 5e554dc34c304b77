/*
 * core/bytes.c — byte counts as people write them (bytes.h).
 */
#include "core/bytes.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool cz_parse_bytes(const char *s, size_t *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    if (*s == '-')
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno)
        return false;
    if (end[0] == '^') {
        unsigned long long e = strtoull(end + 1, &end, 10);
        if (v != 2 || e > 62 || *end)
            return false;
        *out = (size_t)(1ull << e);
        return true;
    }
    while (*end == ' ')
        end++;
    static const struct {
        const char *u;
        unsigned shift;
    } units[] = {
        { "", 0 },     { "B", 0 },  { "K", 10 },   { "KiB", 10 }, { "M", 20 },
        { "MiB", 20 }, { "G", 30 }, { "GiB", 30 }, { "T", 40 },   { "TiB", 40 },
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(end, units[i].u)) {
            if (units[i].shift && v > (SIZE_MAX >> units[i].shift))
                return false;
            *out = (size_t)(v << units[i].shift);
            return true;
        }
    return false;
}
