/*
 * core/clock.c — monotonic time and condition-variable deadlines (see core/clock.h).
 */
#include "core/clock.h"

double cz_mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double cz_mono_ms(void)
{
    return cz_mono_s() * 1e3;
}

struct timespec cz_deadline_in(double seconds)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (!(seconds > 0))
        return ts;
    if (seconds > 1e9)
        seconds = 1e9; /* ~31 years: "forever" without overflowing time_t arithmetic */
    time_t whole = (time_t)seconds;
    ts.tv_sec += whole;
    ts.tv_nsec += (long)((seconds - (double)whole) * 1e9);
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}
