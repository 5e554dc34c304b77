/*
 * cli/client.c — HTTP over libcurl (loaded at run time, cli/curl_dl.h), JSON replies, job following and the
 * progress display (see cli/client.h).
 */
#include "core/clock.h"
#include "core/hex.h"
#include "cli/client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/curl_dl.h"
#include "cli/public_file.h"
#include "cuzk.h"


void cz_client_set(cz_client_t *cl, const cz_opt_client_t *o)
{
    memset(cl, 0, sizeof *cl);
    cl->socket = o->socket;
    cl->url = o->url;
    cl->token = o->token;
    cl->token_file = o->token_file;
    cl->json = o->json;
    cz_client_init(cl);
}

void cz_client_init(cz_client_t *cl)
{
    if (!cl->url && !cl->socket) {
        cl->url = getenv("CUZK_URL");
        if (!cl->url)
            cl->socket = getenv("CUZK_SOCKET");
        if (!cl->url && !cl->socket)
            cl->socket = "/run/cuzk/cuzkd.sock";
    }
    if (!cl->token && cl->token_file) {
        FILE *f = fopen(cl->token_file, "r");
        if (f) {
            if (fgets(cl->token_buf, sizeof cl->token_buf, f)) {
                cl->token_buf[strcspn(cl->token_buf, "\r\n")] = '\0';
                cl->token = cl->token_buf;
            }
            fclose(f);
        } else {
            fprintf(stderr, "cuzk: --token-file %s: %s\n", cl->token_file, strerror(errno));
        }
    }
    if (!cl->token)
        cl->token = getenv("CUZK_TOKEN");
}

typedef struct {
    char *buf;
    size_t len, cap;
} sink_t;

static size_t on_data(char *p, size_t size, size_t n, void *arg)
{
    sink_t *s = arg;
    size_t add = size * n;
    if (s->len + add + 1 > s->cap) {
        size_t cap = (s->len + add + 1) * 2;
        char *g = realloc(s->buf, cap);
        if (!g)
            return 0;
        s->buf = g;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, p, add);
    s->len += add;
    s->buf[s->len] = '\0';
    return add;
}

/* "Retry-After: N" -> *arg (seconds); other headers are ignored. */
static size_t on_header(char *p, size_t size, size_t n, void *arg)
{
    static const char name[] = "retry-after:";
    size_t len = size * n;
    if (len > sizeof name - 1 && !strncasecmp(p, name, sizeof name - 1)) {
        char v[32];
        size_t vl = len - (sizeof name - 1);
        snprintf(v, sizeof v, "%.*s", (int)(vl < sizeof v - 1 ? vl : sizeof v - 1),
                 p + sizeof name - 1);
        char *end;
        long s = strtol(v, &end, 10);
        if (end != v && s >= 0)
            *(long *)arg = s;
    }
    return len;
}

bool cz_client_call(cz_client_t *cl, const char *method, const char *path, const char *body,
                    cz_http_reply_t *out)
{
    memset(out, 0, sizeof *out);
    out->retry_after = -1;
    const cz_curl_api_t *curl = cz_curl_load(out->error, sizeof out->error);
    if (!curl)
        return false;
    CURL *c = curl->easy_init();
    if (!c) {
        snprintf(out->error, sizeof out->error, "libcurl: out of memory");
        return false;
    }
    char url[2048], auth[600];
    snprintf(url, sizeof url, "%s%s", cl->url ? cl->url : "http://cuzkd", path);
    size_t ul = strlen(cl->url ? cl->url : "");
    if (cl->url && ul && cl->url[ul - 1] == '/')
        snprintf(url, sizeof url, "%.*s%s", (int)ul - 1, cl->url, path);
    struct curl_slist *hdr = NULL;
    hdr = curl->slist_append(hdr, "Content-Type: application/json");
    hdr = curl->slist_append(hdr, "Expect:");
    if (cl->token && *cl->token) {
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", cl->token);
        hdr = curl->slist_append(hdr, auth);
    }
    sink_t sink = { 0 };
    char err[CURL_ERROR_SIZE] = "";
    curl->easy_setopt(c, CURLOPT_URL, url);
    if (!cl->url)
        curl->easy_setopt(c, CURLOPT_UNIX_SOCKET_PATH, cl->socket);
    curl->easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    if (body) {
        curl->easy_setopt(c, CURLOPT_POSTFIELDS, body);
        curl->easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
    }
    curl->easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
    curl->easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl->easy_setopt(c, CURLOPT_WRITEDATA, &sink);
    curl->easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl->easy_setopt(c, CURLOPT_HEADERDATA, &out->retry_after);
    curl->easy_setopt(c, CURLOPT_ERRORBUFFER, err);
    curl->easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl->easy_setopt(c, CURLOPT_TIMEOUT, 3600L);
    curl->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    CURLcode rc = curl->easy_perform(c);
    if (rc == CURLE_OK) {
        curl->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out->status);
        out->body = sink.buf ? sink.buf : strdup("");
        out->len = sink.len;
    } else {
        /* name the address we tried; on a unix socket libcurl's own text says
         * "port 80" (of the placeholder URL), so the OS's reason is given */
        long os_errno = 0;
        curl->easy_getinfo(c, CURLINFO_OS_ERRNO, &os_errno);
        if (cl->url)
            snprintf(out->error, sizeof out->error, "%s: %s", cl->url,
                     *err ? err : curl->easy_strerror(rc));
        else
            snprintf(out->error, sizeof out->error, "unix socket %s: %s", cl->socket,
                     os_errno ? strerror((int)os_errno) : curl->easy_strerror(rc));
        free(sink.buf);
    }
    curl->slist_free_all(hdr);
    curl->easy_cleanup(c);
    return rc == CURLE_OK;
}

int cz_client_json(cz_client_t *cl, const char *who, const char *method, const char *path,
                   const json_t *body, json_t **out, long *status)
{
    *out = NULL;
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    cz_http_reply_t r;
    json_t *o = NULL;
    for (int attempt = 0;; attempt++) {
        bool ok = cz_client_call(cl, method, path, text, &r);
        if (status)
            *status = r.status;
        if (!ok) {
            free(text);
            fprintf(stderr, "%s: cannot reach cuzkd: %s\n", who, r.error);
            return CZ_EXIT_UNREACHABLE;
        }
        json_error_t err;
        o = json_loadb(r.body, r.len, 0, &err);
        free(r.body);
        if (!o) {
            free(text);
            fprintf(stderr, "%s: %s %s: HTTP %ld with a body that is not JSON\n", who, method, path,
                    r.status);
            return CZ_EXIT_UNREACHABLE;
        }
        const char *code = json_string_value(json_object_get(o, "error"));
        if (r.status != 503 || !code || strcmp(code, "busy") || r.retry_after < 0 ||
            attempt == CZ_CLIENT_BUSY_RETRIES)
            break;
        long wait_s = r.retry_after < 1 ? 1 : r.retry_after > 30 ? 30 : r.retry_after;
        const char *msg = json_string_value(json_object_get(o, "message"));
        fprintf(stderr, "%s: cuzkd is busy (HTTP 503 busy: %s); retrying in %ld s (%d of %d)\n",
                who, msg ? msg : "", wait_s, attempt + 1, CZ_CLIENT_BUSY_RETRIES);
        json_decref(o);
        sleep((unsigned)wait_s);
    }
    free(text);
    if (r.status >= 400) {
        const char *msg = json_string_value(json_object_get(o, "message"));
        const char *code = json_string_value(json_object_get(o, "error"));
        fprintf(stderr, "%s: %s (HTTP %ld %s)\n", who, msg ? msg : "error", r.status,
                code ? code : "");
        json_decref(o);
        return CZ_EXIT_FAIL;
    }
    *out = o;
    return CZ_EXIT_OK;
}

int cz_client_follow(cz_client_t *cl, const char *who, const char *id, double timeout_s, bool quiet,
                     json_t **final)
{
    char path[128];
    snprintf(path, sizeof path, "/v1/proofs/%s", id);
    cz_progress_t pr;
    cz_progress_start(&pr, quiet);
    double t0 = cz_mono_s();
    *final = NULL;
    for (;;) {
        json_t *st = NULL;
        int rc = cz_client_json(cl, who, "GET", path, NULL, &st, NULL);
        if (rc) {
            cz_progress_end(&pr);
            return rc;
        }
        const char *state = json_string_value(json_object_get(st, "state"));
        /* within the engine the partition's own stage (synthesis, device, ...)
         * says more than "proving": a one-partition job moves through it */
        const char *stage = json_string_value(json_object_get(st, "partition_stage"));
        if (!stage)
            stage = json_string_value(json_object_get(st, "stage"));
        json_t *prog = json_object_get(st, "progress");
        size_t done = (size_t)json_integer_value(json_object_get(prog, "partitions_done"));
        size_t total = (size_t)json_integer_value(json_object_get(prog, "partitions_total"));
        cz_progress_draw(&pr, done, total, stage ? stage : "?");
        bool ended = state && (!strcmp(state, "done") || !strcmp(state, "failed") ||
                               !strcmp(state, "canceled") || !strcmp(state, "lost"));
        if (ended || (timeout_s >= 0 && cz_mono_s() - t0 >= timeout_s)) {
            cz_progress_end(&pr);
            *final = st;
            if (!ended)
                return CZ_EXIT_TIMEOUT;
            return !strcmp(state, "done") ? CZ_EXIT_OK : CZ_EXIT_FAIL;
        }
        json_decref(st);
        nanosleep(&(struct timespec){ .tv_sec = 0, .tv_nsec = 200 * 1000 * 1000 }, NULL);
    }
}

int cz_client_fetch_proof(cz_client_t *cl, const char *who, const char *id, double wait_s,
                          const char *proof_path, const char *public_path, size_t *partitions)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/proofs/%s/proof?format=json&wait=%.0f", id, wait_s);
    json_t *o = NULL;
    long status = 0;
    int rc = cz_client_json(cl, who, "GET", path, NULL, &o, &status);
    if (rc)
        return rc;
    if (status == 202) {
        fprintf(stderr, "%s: job %s is not finished (stage %s)\n", who, id,
                json_string_value(json_object_get(o, "stage")));
        json_decref(o);
        return CZ_EXIT_TIMEOUT;
    }
    const char *hex = json_string_value(json_object_get(o, "proof"));
    json_t *pub = json_object_get(o, "public_inputs");
    size_t n = hex ? strlen(hex) / 2 : 0;
    uint8_t *bytes = n ? malloc(n) : NULL;
    rc = CZ_EXIT_OK;
    if (!bytes || !cz_hex_decode(bytes, hex, n) || !json_is_array(pub)) {
        fprintf(stderr, "%s: the daemon's proof reply is malformed\n", who);
        rc = CZ_EXIT_UNREACHABLE;
    }
    if (rc == CZ_EXIT_OK && proof_path) {
        FILE *f = fopen(proof_path, "wb");
        if (!f || fwrite(bytes, 1, n, f) != n || fclose(f)) {
            fprintf(stderr, "%s: %s: %s\n", who, proof_path, strerror(errno));
            rc = CZ_EXIT_FAIL;
        }
    }
    if (rc == CZ_EXIT_OK && public_path) {
        size_t blocks = json_array_size(pub);
        size_t per = blocks ? json_array_size(json_array_get(pub, 0)) : 0;
        uint8_t *in = calloc(blocks * per + 1, 32);
        for (size_t b = 0; in && rc == CZ_EXIT_OK && b < blocks; b++)
            for (size_t i = 0; rc == CZ_EXIT_OK && i < per; i++) {
                const char *h = json_string_value(json_array_get(json_array_get(pub, b), i));
                if (!h || cz_fr_repr_parse(in + 32 * (b * per + i), h, NULL) != CZ_OK) {
                    fprintf(stderr, "%s: public input %zu of partition %zu is malformed\n", who, i,
                            b);
                    rc = CZ_EXIT_UNREACHABLE;
                }
            }
        cz_ctx_t *ctx = NULL;
        if (rc == CZ_EXIT_OK && in && cz_ctx_new(&ctx, NULL, 1) == CZ_OK &&
            cz_public_write(ctx, public_path, in, blocks, per) != CZ_OK) {
            fprintf(stderr, "%s: %s\n", who, cz_ctx_message(ctx));
            rc = CZ_EXIT_FAIL;
        }
        cz_ctx_free(ctx);
        free(in);
    }
    if (partitions)
        *partitions = n / 192;
    free(bytes);
    json_decref(o);
    return rc;
}
