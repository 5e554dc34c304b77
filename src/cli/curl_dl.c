/*
 * cli/curl_dl.c — resolve libcurl's entry points with dlopen (cli/curl_dl.h).
 */
#include "cli/curl_dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* Resolved once by load_once; read-only afterwards. */
static struct {
    pthread_once_t once;
    cz_curl_api_t api;
    int ok;
    char why[512];
} curl_dl = { .once = PTHREAD_ONCE_INIT };

/* dlsym returns void *; converting it to a function pointer is what POSIX
 * requires to work (XSH dlsym, "Application Usage"). */
/* laid out by hand: */
/* clang-format off */
#define RESOLVE(lib, field, name)                                                   \
    do {                                                                            \
        void *sym_ = dlsym(lib, name);                                              \
        if (!sym_) {                                                                \
            snprintf(curl_dl.why, sizeof curl_dl.why, "libcurl has no %s", name);   \
            return;                                                                 \
        }                                                                           \
        memcpy(&curl_dl.api.field, &sym_, sizeof sym_);                             \
    } while (0)
/* clang-format on */

static void load_once(void)
{
    /* the SONAME of every libcurl since 7.16 */
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(curl_dl.why, sizeof curl_dl.why,
                 "the client commands need libcurl (apt-get install libcurl4): %s", dlerror());
        return;
    }
    RESOLVE(lib, easy_init, "curl_easy_init");
    RESOLVE(lib, easy_setopt, "curl_easy_setopt");
    RESOLVE(lib, easy_perform, "curl_easy_perform");
    RESOLVE(lib, easy_getinfo, "curl_easy_getinfo");
    RESOLVE(lib, easy_strerror, "curl_easy_strerror");
    RESOLVE(lib, easy_cleanup, "curl_easy_cleanup");
    RESOLVE(lib, slist_append, "curl_slist_append");
    RESOLVE(lib, slist_free_all, "curl_slist_free_all");
    CURLcode (*global_init)(long flags);
    void *gi = dlsym(lib, "curl_global_init");
    if (!gi) {
        snprintf(curl_dl.why, sizeof curl_dl.why, "libcurl has no curl_global_init");
        return;
    }
    memcpy(&global_init, &gi, sizeof gi);
    if (global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(curl_dl.why, sizeof curl_dl.why, "curl_global_init failed");
        return;
    }
    curl_dl.ok = 1; /* the library stays loaded for the life of the process */
}

const cz_curl_api_t *cz_curl_load(char *err, size_t errlen)
{
    pthread_once(&curl_dl.once, load_once);
    if (curl_dl.ok)
        return &curl_dl.api;
    if (err && errlen)
        snprintf(err, errlen, "%s", curl_dl.why);
    return NULL;
}
