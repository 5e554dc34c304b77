/*
 * cli/curl_dl.h — libcurl, loaded at run time for the client commands.
 *
 * Why: `cuzk` proves, verifies and benchmarks without any network code; only
 * the client commands (submit, status, wait, proof, ...) talk HTTP to cuzkd.
 * Linking libcurl into the binary made every command depend on it: on a GPU
 * box whose libcurl came from another distribution's .deb, `cuzk` did not
 * start at all (libssh2.so.1 missing). So the binary carries no DT_NEEDED on
 * libcurl: the client commands load the system's libcurl.so.4 on first use,
 * and a missing or unusable libcurl fails those commands alone, with the
 * loader's message. Only curl.h is needed at build time (the ABI of
 * libcurl.so.4 has been stable since 2006).
 *
 * Thread-safety: cz_curl_load() may be called from any thread; the table is
 * resolved once (pthread_once) and is immutable afterwards.
 */
#ifndef CUZK_CLI_CURL_DL_H
#define CUZK_CLI_CURL_DL_H

#include <curl/curl.h>
#include <stddef.h>

/* The few libcurl entry points the client uses. */
typedef struct {
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *c, CURLoption opt, ...);
    CURLcode (*easy_perform)(CURL *c);
    CURLcode (*easy_getinfo)(CURL *c, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode rc);
    void (*easy_cleanup)(CURL *c);
    struct curl_slist *(*slist_append)(struct curl_slist *l, const char *s);
    void (*slist_free_all)(struct curl_slist *l);
} cz_curl_api_t;

/* The loaded table (curl_global_init already called), or NULL with the
 * reason ("libcurl.so.4: cannot open shared object file ...") in err. */
const cz_curl_api_t *cz_curl_load(char *err, size_t errlen);

#endif
