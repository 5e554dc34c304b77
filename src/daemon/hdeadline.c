/*
 * daemon/hdeadline.c — the header deadline's watcher (see daemon/hdeadline.h).
 *
 * The entries form one unsorted list: a pass looks at each once, and runs
 * four times per deadline, so a connection is cut at most a quarter of the
 * deadline late. A few thousand entries take microseconds per pass.
 */
#include "daemon/hdeadline.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "core/clock.h"
#include "core/mutex.h"
#include "cuzk/error.h"

struct cz_hdeadline {
    double deadline_s;
    cz_mutex_t mu;
    pthread_cond_t wake; /* stop requested */
    pthread_t thread;
    bool stopping;             /* (mu) */
    cz_hdeadline_conn_t *head; /* (mu) connections watched */
    unsigned long cut;         /* (mu) connections cut so far */
};

/* One pass: shut down every connection past its deadline. Called with mu held. */
static void sweep(cz_hdeadline_t *w)
{
    CZ_ASSERT(cz_mutex_held(&w->mu));
    double now = cz_mono_s();
    for (cz_hdeadline_conn_t *e = w->head; e; e = e->next)
        if (!e->in_request && !e->cut && now - e->since > w->deadline_s) {
            shutdown(e->fd, SHUT_RDWR); /* the owner sees the end and closes it */
            e->cut = true;
            w->cut++;
        }
}

static void *watch_main(void *arg)
{
    cz_hdeadline_t *w = arg;
    cz_mutex_lock(&w->mu);
    while (!w->stopping) {
        struct timespec ts = cz_deadline_in(w->deadline_s / 4);
        cz_cond_timedwait(&w->wake, &w->mu, &ts);
        if (!w->stopping)
            sweep(w);
    }
    cz_mutex_unlock(&w->mu);
    return NULL;
}

int cz_hdeadline_start(cz_hdeadline_t **out, double deadline_s)
{
    *out = NULL;
    cz_hdeadline_t *w = calloc(1, sizeof *w);
    if (!w)
        return CZ_ENOMEM;
    w->deadline_s = deadline_s;
    cz_mutex_init(&w->mu);
    pthread_cond_init(&w->wake, NULL);
    if (pthread_create(&w->thread, NULL, watch_main, w)) {
        pthread_cond_destroy(&w->wake);
        cz_mutex_destroy(&w->mu);
        free(w);
        return CZ_ENOMEM;
    }
    *out = w;
    return CZ_OK;
}

void cz_hdeadline_stop(cz_hdeadline_t *w)
{
    if (!w)
        return;
    cz_mutex_lock(&w->mu);
    w->stopping = true;
    pthread_cond_broadcast(&w->wake);
    cz_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    cz_mutex_destroy(&w->mu);
    free(w);
}

void cz_hdeadline_add(cz_hdeadline_t *w, cz_hdeadline_conn_t *e, int fd)
{
    cz_mutex_lock(&w->mu);
    e->fd = fd;
    e->since = cz_mono_s();
    e->in_request = e->cut = false;
    e->prev = NULL;
    e->next = w->head;
    if (w->head)
        w->head->prev = e;
    w->head = e;
    cz_mutex_unlock(&w->mu);
}

void cz_hdeadline_request(cz_hdeadline_t *w, cz_hdeadline_conn_t *e, bool in_request)
{
    cz_mutex_lock(&w->mu);
    e->in_request = in_request;
    if (!in_request)
        e->since = cz_mono_s();
    cz_mutex_unlock(&w->mu);
}

void cz_hdeadline_remove(cz_hdeadline_t *w, cz_hdeadline_conn_t *e)
{
    cz_mutex_lock(&w->mu);
    if (e->prev)
        e->prev->next = e->next;
    else
        w->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    e->prev = e->next = NULL;
    cz_mutex_unlock(&w->mu);
}

unsigned long cz_hdeadline_cut_count(cz_hdeadline_t *w)
{
    cz_mutex_lock(&w->mu);
    unsigned long n = w->cut;
    cz_mutex_unlock(&w->mu);
    return n;
}
