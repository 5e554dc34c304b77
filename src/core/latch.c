/*
 * core/latch.c — counting semaphore with a sticky error (see core/latch.h).
 */
#include "core/latch.h"

void cz_latch_init(cz_latch_t *l)
{
    pthread_mutex_init(&l->mu, NULL);
    pthread_cond_init(&l->cv, NULL);
    l->count = 0;
    l->error = 0;
}

void cz_latch_destroy(cz_latch_t *l)
{
    pthread_cond_destroy(&l->cv);
    pthread_mutex_destroy(&l->mu);
}

void cz_latch_post(cz_latch_t *l, int error)
{
    pthread_mutex_lock(&l->mu);
    l->count++;
    if (error && !l->error)
        l->error = error;
    pthread_cond_broadcast(&l->cv);
    pthread_mutex_unlock(&l->mu);
}

int cz_latch_wait(cz_latch_t *l)
{
    pthread_mutex_lock(&l->mu);
    while (l->count == 0 && !l->error)
        pthread_cond_wait(&l->cv, &l->mu);
    if (l->count > 0)
        l->count--;
    int error = l->error;
    pthread_mutex_unlock(&l->mu);
    return error;
}
