/*
 * core/latch.h — a counting semaphore for "prep is done" hand-offs.
 *
 * The device region waits for CPU prep before the stages that need its
 * output; prep may finish first, even before the device worker holds the
 * device lock, so a post that happens before the wait must not be lost
 * (it is counted). A post may also carry a failure: waiters then get the
 * error code instead of CZ_OK, so a failed prep never leaves the device
 * region waiting forever.
 *
 * Thread-safety: all functions may be called from any thread.
 */
#ifndef CUZK_CORE_LATCH_H
#define CUZK_CORE_LATCH_H

#include <pthread.h>

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned count; /* posts not yet consumed (mu) */
    int error;      /* first error posted (mu); sticky */
} cz_latch_t;

void cz_latch_init(cz_latch_t *l);
void cz_latch_destroy(cz_latch_t *l);
/* Add one permit; |error| != 0 marks the latch failed (every wait returns it). */
void cz_latch_post(cz_latch_t *l, int error);
/* Take one permit, blocking until one exists; returns the posted error or 0. */
int cz_latch_wait(cz_latch_t *l);

#endif /* CUZK_CORE_LATCH_H */
