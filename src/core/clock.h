/*
 * core/clock.h — the one monotonic clock of the library, and deadlines for
 * pthread_cond_timedwait (which waits on CLOCK_REALTIME unless a condition
 * is made otherwise).
 *
 * Thread-safe; no state.
 */
#ifndef CUZK_CORE_CLOCK_H
#define CUZK_CORE_CLOCK_H

#include <time.h>

/* Seconds on CLOCK_MONOTONIC (an arbitrary origin: only differences mean anything). */
double cz_mono_s(void);
/* Milliseconds on the same clock. */
double cz_mono_ms(void);
/* The CLOCK_REALTIME instant |seconds| from now (clamped at 0), for pthread_cond_timedwait. */
struct timespec cz_deadline_in(double seconds);

#endif /* CUZK_CORE_CLOCK_H */
