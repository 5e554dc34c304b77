/*
 * daemon/http.c — libmicrohttpd glue: sockets, admission (daemon/admit.h),
 * the header deadline (daemon/hdeadline.h), auth, body accumulation and
 * the request workers (see daemon/http.h). Everything about the API itself
 * is in daemon/api.c.
 *
 * A request's life: MHD's polling thread reads the headers (on_headers:
 * limits, token, Content-Length and the body's reservation), the body
 * (on_upload), then dispatch() suspends the connection and starts a worker
 * that runs cz_api_handle and resumes it; the polling thread then queues
 * the worker's answer. A conn_t belongs to the polling thread except
 * between the suspend and the resume, when only its worker touches it.
 */
#include "daemon/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/mutex.h"
#include "daemon/admit.h"
#include "daemon/api.h"
#include "daemon/hdeadline.h"
#include "daemon/log.h"

#define OVERFLOW_CONNECTIONS 64 /* accepted past max_connections, only to be answered 503 */
#define OVERFLOW_PER_IP 32      /* the same past max_connections_per_ip */
#define RETRY_FULL_S 1          /* Retry-After of a 503 for the connection limits */
#define RETRY_BODY_S 2          /* ... and for the body budget */

typedef struct listener {
    struct cz_http *h;
    struct MHD_Daemon *mhd;
    int fd;
    bool tcp;
} listener_t;

struct cz_http {
    cz_server_t *server;
    const cz_dconfig_t *cfg;
    listener_t unix_l, tcp_l;
    char socket_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    cz_admit_t *admit;
    cz_hdeadline_t *deadline; /* daemon.header_timeout, however the headers trickle */
    cz_mutex_t mu;
    pthread_cond_t idle; /* a worker ended */
    unsigned workers;    /* (mu) request threads running */
    bool stopping;       /* (mu) no new workers: requests answer 503 */
};

/* One connection, from MHD's NOTIFY_CONNECTION (its socket context). */
typedef struct sock {
    struct sockaddr_storage peer;
    bool has_peer;
    cz_admit_verdict_t verdict; /* at accept: over a connection limit or not */
    cz_hdeadline_conn_t dl;     /* its entry in the header deadline's watch */
} sock_t;

/* One request (MHD's con_cls). */
typedef struct conn {
    listener_t *l;
    struct MHD_Connection *c;
    char *body;
    size_t len, cap;
    size_t reserved; /* budget held: CZ_HTTP_BODY_COST x the buffer */
    bool too_large;
    bool over_budget; /* a chunked body outgrew the budget: 503 at the end */
    bool replied;
    bool answered; /* a worker filled |resp| (read after the resume) */
    cz_api_resp_t resp;
    const char *method, *url; /* MHD's, valid for the request */
} conn_t;

static bool token_ok(const char *header, const char *token)
{
    static const char prefix[] = "Bearer ";
    if (!header || strncmp(header, prefix, sizeof prefix - 1))
        return false;
    const char *got = header + sizeof prefix - 1;
    size_t a = strlen(got), b = strlen(token);
    unsigned char diff = (unsigned char)(a != b);
    for (size_t i = 0; i < b; i++) /* constant time in the token's length */
        diff |= (unsigned char)(got[i < a ? i : 0] ^ token[i]);
    return diff == 0;
}

/* Queue |r| (its body is handed to MHD). retry_s > 0 adds Retry-After and closes the connection. */
static enum MHD_Result send_resp(struct MHD_Connection *c, cz_api_resp_t *r, int retry_s)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(r->len,
                                                                r->body ? r->body : (void *)"",
                                                                r->body ? MHD_RESPMEM_MUST_FREE
                                                                        : MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        free(r->body);
        r->body = NULL;
        return MHD_NO;
    }
    r->body = NULL;
    MHD_add_response_header(resp, "Content-Type",
                            r->content_type ? r->content_type : "application/json");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    if (r->status == 401)
        MHD_add_response_header(resp, "WWW-Authenticate", "Bearer realm=\"cuzkd\"");
    if (retry_s > 0) {
        char v[16];
        snprintf(v, sizeof v, "%d", retry_s);
        MHD_add_response_header(resp, "Retry-After", v);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    }
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

/* Answer now, on the polling thread (errors found before the request is handled). */
static enum MHD_Result reply_early(conn_t *cn, cz_api_resp_t *r, int retry_s)
{
    cz_server_count_http(cn->l->h->server, r->status);
    cn->replied = true;
    return send_resp(cn->c, r, retry_s);
}

static const char *get_arg(void *cls, const char *key)
{
    return MHD_lookup_connection_value(cls, MHD_GET_ARGUMENT_KIND, key);
}

/* ---- connections ---------------------------------------------------------------- */

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    listener_t *l = cls;
    sock_t *sk = *socket_context;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        if (!(sk = calloc(1, sizeof *sk))) {
            *socket_context = NULL; /* uncounted; its request is answered 503 */
            return;
        }
        const union MHD_ConnectionInfo
            *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        if (l->tcp && ci && ci->client_addr) {
            size_t n = ci->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                                              : sizeof(struct sockaddr_in);
            memcpy(&sk->peer, ci->client_addr, n);
            sk->has_peer = true;
        }
        sk->verdict = cz_admit_open(l->h->admit,
                                    sk->has_peer ? (struct sockaddr *)&sk->peer : NULL);
        const union MHD_ConnectionInfo
            *fi = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        cz_hdeadline_add(l->h->deadline, &sk->dl, fi ? fi->connect_fd : -1);
        *socket_context = sk;
    } else if (sk) { /* MHD closes the descriptor after this: the watch lets go first */
        cz_hdeadline_remove(l->h->deadline, &sk->dl);
        cz_admit_close(l->h->admit, sk->has_peer ? (struct sockaddr *)&sk->peer : NULL);
        free(sk);
        *socket_context = NULL;
    }
}

/* The connection's own state, or NULL when there was no memory for it at accept. */
static sock_t *sock_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo
        *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

/* ---- a request ---------------------------------------------------------------- */

/*
 * The headers are complete: checks that need no body. Answers early (and
 * the connection closes after the reply) or lets the body come, with its
 * bytes reserved in the budget when Content-Length says how many.
 */
static enum MHD_Result on_headers(conn_t *cn)
{
    cz_http_t *h = cn->l->h;
    struct MHD_Connection *c = cn->c;
    MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned)h->cfg->body_timeout);
    cz_api_resp_t r = { 0 };
    sock_t *sk = sock_of(c);
    if (sk) /* the headers are in: no deadline while the request runs */
        cz_hdeadline_request(h->deadline, &sk->dl, true);
    cz_admit_verdict_t v = sk ? sk->verdict : CZ_ADMIT_FULL; /* no memory: 503 */
    if (v == CZ_ADMIT_FULL) {
        cz_api_error(&r, CZ_API_E_BUSY,
                     "cuzkd is serving daemon.max_connections (%ld) connections; "
                     "retry after %d s",
                     h->cfg->max_connections, RETRY_FULL_S);
        return reply_early(cn, &r, RETRY_FULL_S);
    }
    if (v == CZ_ADMIT_PER_IP) {
        cz_api_error(&r, CZ_API_E_BUSY,
                     "this address has daemon.max_connections_per_ip (%ld) "
                     "connections open; retry after %d s",
                     h->cfg->max_connections_per_ip, RETRY_FULL_S);
        return reply_early(cn, &r, RETRY_FULL_S);
    }
    if (cn->l->tcp && *h->cfg->auth_token &&
        !token_ok(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization"),
                  h->cfg->auth_token)) {
        cz_api_error(&r, CZ_API_E_UNAUTHORIZED, "missing or wrong 'Authorization: Bearer <token>'");
        return reply_early(cn, &r, 0);
    }
    const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
    unsigned long long want = cl ? strtoull(cl, NULL, 10) : 0;
    if (want > h->cfg->max_body) {
        cz_api_error(&r, CZ_API_E_BODY_TOO_LARGE,
                     "Content-Length %.24s is over daemon.max_body (%zu bytes)", cl,
                     h->cfg->max_body);
        return reply_early(cn, &r, 0);
    }
    if (want) { /* one buffer of the announced size: no growing copies */
        if (!cz_admit_body(h->admit, ((size_t)want + 1) * CZ_HTTP_BODY_COST)) {
            cz_api_error(&r, CZ_API_E_BUSY,
                         "request bodies in memory are at daemon.body_budget "
                         "(%zu bytes); retry after %d s",
                         h->cfg->body_budget, RETRY_BODY_S);
            return reply_early(cn, &r, RETRY_BODY_S);
        }
        cn->reserved = ((size_t)want + 1) * CZ_HTTP_BODY_COST;
        cn->cap = (size_t)want + 1;
        if (!(cn->body = malloc(cn->cap))) {
            cz_api_error(&r, CZ_API_E_OUT_OF_MEMORY, "no memory for a %llu-byte body", want);
            return reply_early(cn, &r, RETRY_BODY_S);
        }
    }
    return MHD_YES;
}

/* Body bytes: into the buffer, growing it (and the reservation) when there was no Content-Length. */
static enum MHD_Result on_upload(conn_t *cn, const char *data, size_t n)
{
    cz_http_t *h = cn->l->h;
    if (cn->too_large || cn->over_budget)
        return MHD_YES; /* read and dropped: the answer is 413 / 503 */
    if (cn->len + n > h->cfg->max_body) {
        cn->too_large = true;
        return MHD_YES;
    }
    if (cn->len + n + 1 > cn->cap) {
        size_t cap = (cn->len + n + 1) * 2;
        if (cap > h->cfg->max_body + 1)
            cap = h->cfg->max_body + 1;
        if (!cz_admit_body(h->admit, (cap - cn->cap) * CZ_HTTP_BODY_COST)) {
            cn->over_budget = true;
            return MHD_YES;
        }
        cn->reserved += (cap - cn->cap) * CZ_HTTP_BODY_COST;
        char *g = realloc(cn->body, cap);
        if (!g)
            return MHD_NO;
        cn->body = g;
        cn->cap = cap;
    }
    memcpy(cn->body + cn->len, data, n);
    cn->len += n;
    return MHD_YES;
}

/* The body is parsed: its buffer goes (its reservation stays until the request ends). */
static void free_body(void *cls)
{
    conn_t *cn = cls;
    free(cn->body);
    cn->body = NULL;
}

/* A worker: the API call (it may block: ?wait=, a journal fsync), then the connection resumes. */
static void *worker_main(void *arg)
{
    conn_t *cn = arg;
    cz_http_t *h = cn->l->h;
    struct MHD_Connection *c = cn->c;
    cz_api_req_t req = { .method = cn->method,
                         .path = cn->url,
                         .arg = get_arg,
                         .arg_cls = c,
                         .content_type = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                                     "Content-Type"),
                         .body = cn->body,
                         .body_len = cn->len,
                         .body_writable = true,
                         .body_too_large = cn->too_large,
                         .body_parsed = free_body,
                         .body_cls = cn };
    cz_api_handle(h->server, &req, &cn->resp);
    cn->answered = true;
    MHD_resume_connection(c); /* |cn| is the polling thread's again */
    cz_mutex_lock(&h->mu);
    h->workers--;
    pthread_cond_broadcast(&h->idle);
    cz_mutex_unlock(&h->mu);
    return NULL;
}

/* The request is complete: hand it to a worker and suspend the connection until it answers. */
static enum MHD_Result dispatch(conn_t *cn)
{
    cz_http_t *h = cn->l->h;
    cz_api_resp_t r = { 0 };
    if (cn->over_budget) {
        cz_api_error(&r, CZ_API_E_BUSY,
                     "request bodies in memory are at daemon.body_budget "
                     "(%zu bytes); retry after %d s",
                     h->cfg->body_budget, RETRY_BODY_S);
        return reply_early(cn, &r, RETRY_BODY_S);
    }
    if (cn->body)
        cn->body[cn->len] = '\0';
    cz_mutex_lock(&h->mu);
    bool stopping = h->stopping;
    if (!stopping)
        h->workers++;
    cz_mutex_unlock(&h->mu);
    if (stopping) {
        cz_api_error(&r, CZ_API_E_UNAVAILABLE, "cuzkd is shutting down");
        return reply_early(cn, &r, 0);
    }
    MHD_suspend_connection(cn->c);
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    bool started = pthread_create(&t, &attr, worker_main, cn) == 0;
    pthread_attr_destroy(&attr);
    if (started)
        return MHD_YES;
    MHD_resume_connection(cn->c);
    cz_mutex_lock(&h->mu);
    h->workers--;
    pthread_cond_broadcast(&h->idle);
    cz_mutex_unlock(&h->mu);
    cz_api_error(&r, CZ_API_E_OUT_OF_MEMORY, "cannot start a request thread; retry after %d s",
                 RETRY_FULL_S);
    return reply_early(cn, &r, RETRY_FULL_S);
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url,
                               const char *method, const char *version, const char *upload,
                               size_t *upload_size, void **con_cls)
{
    (void)version;
    conn_t *cn = *con_cls;
    if (!cn) {
        if (!(cn = calloc(1, sizeof *cn)))
            return MHD_NO;
        *con_cls = cn;
        cn->l = cls;
        cn->c = c;
        cn->method = method;
        cn->url = url;
        return on_headers(cn);
    }
    if (cn->replied) { /* an early reply: drop whatever body still arrives */
        *upload_size = 0;
        return MHD_YES;
    }
    if (*upload_size) {
        size_t n = *upload_size;
        *upload_size = 0;
        return on_upload(cn, upload, n);
    }
    if (cn->answered) { /* resumed: the worker's answer */
        cz_server_count_http(cn->l->h->server, cn->resp.status);
        cn->replied = true;
        return send_resp(c, &cn->resp, 0);
    }
    return dispatch(cn);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    (void)toe;
    listener_t *l = cls;
    conn_t *cn = *con_cls;
    if (cn) {
        if (cn->reserved)
            cz_admit_body_release(l->h->admit, cn->reserved);
        free(cn->body);
        free(cn->resp.body);
        free(cn);
        *con_cls = NULL;
    }
    /* between requests of a kept-alive connection: the header deadline again */
    MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT,
                              (unsigned)l->h->cfg->header_timeout);
    sock_t *sk = sock_of(c);
    if (sk)
        cz_hdeadline_request(l->h->deadline, &sk->dl, false);
}

/* ---- listening ------------------------------------------------------------------ */

static int bind_unix(cz_ctx_t *ctx, cz_http_t *h, const char *path, const char *mode_text)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    if (strlen(path) >= sizeof a.sun_path)
        return cz_fail(ctx, CZ_EINVAL, "daemon.socket: %s is longer than %zu bytes", path,
                       sizeof a.sun_path - 1);
    memcpy(a.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return cz_fail(ctx, CZ_EIO, "daemon.socket: socket(): %s", strerror(errno));
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            close(fd);
            return cz_fail(ctx, CZ_EINVAL, "daemon.socket: %s exists and is not a socket", path);
        }
        if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0) {
            close(fd);
            return cz_fail(ctx, CZ_EBUSY, "daemon.socket: %s: another daemon is listening there",
                           path);
        }
        close(fd);
        unlink(path); /* stale: its daemon died */
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return cz_fail(ctx, CZ_EIO, "daemon.socket: socket(): %s", strerror(errno));
    }
    mode_t mode = (mode_t)strtol(mode_text, NULL, 8);
    mode_t old = umask(0777 & ~mode);
    int rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    umask(old);
    if (rc || chmod(path, mode) || listen(fd, SOMAXCONN)) {
        int e = errno;
        close(fd);
        return cz_fail(ctx, CZ_EIO, "daemon.socket: %s: %s", path, strerror(e));
    }
    snprintf(h->socket_path, sizeof h->socket_path, "%s", path);
    h->unix_l.fd = fd;
    return CZ_OK;
}

static int bind_tcp(cz_ctx_t *ctx, cz_http_t *h, const char *listen_addr)
{
    char host[256];
    const char *colon = strrchr(listen_addr, ':');
    size_t hl = (size_t)(colon - listen_addr);
    memcpy(host, listen_addr, hl);
    host[hl] = '\0';
    char *hp = host;
    if (hp[0] == '[' && hl > 2 && hp[hl - 1] == ']') { /* [::1]:9820 */
        hp[hl - 1] = '\0';
        hp++;
    }
    struct addrinfo hints = { .ai_family = AF_UNSPEC,
                              .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_PASSIVE | AI_NUMERICSERV },
                    *res = NULL;
    int g = getaddrinfo(hp, colon + 1, &hints, &res);
    if (g)
        return cz_fail(ctx, CZ_EINVAL, "daemon.listen: %s: %s", listen_addr, gai_strerror(g));
    int fd = -1, err = 0;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        int one = 1;
        if (fd >= 0 && (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
                        bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, SOMAXCONN))) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0)
        return cz_fail(ctx, CZ_EIO, "daemon.listen: %s: %s", listen_addr, strerror(err));
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    char name[64] = "?";
    unsigned port = 0;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
        if (ss.ss_family == AF_INET) {
            inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, name, sizeof name);
            port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
        } else if (ss.ss_family == AF_INET6) {
            inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, name, sizeof name);
            port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
        }
    }
    CZ_LOGI("listening", "tcp=%s:%u auth=%s", name, port, *h->cfg->auth_token ? "token" : "none");
    h->tcp_l.fd = fd;
    return CZ_OK;
}

/*
 * One polling thread (epoll) reads every connection's headers and body, so
 * a connection that sends nothing costs a socket, not a thread; a complete
 * request runs on a worker thread of its own while its connection is
 * suspended. MHD itself resets connections only past the overflow beyond
 * the limits, which are answered 503 up to there.
 */
static int start_mhd(cz_ctx_t *ctx, cz_http_t *h, listener_t *l)
{
    l->h = h;
    const cz_dconfig_t *cfg = h->cfg;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME;
    unsigned per_ip = l->tcp && cfg->max_connections_per_ip > 0
                          ? (unsigned)cfg->max_connections_per_ip + OVERFLOW_PER_IP
                          : 0;
    l->mhd = MHD_start_daemon(flags, 0, NULL, NULL, handler, l, MHD_OPTION_LISTEN_SOCKET, l->fd,
                              MHD_OPTION_CONNECTION_LIMIT,
                              (unsigned)cfg->max_connections + OVERFLOW_CONNECTIONS,
                              MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip,
                              MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->header_timeout,
                              MHD_OPTION_NOTIFY_CONNECTION, on_connection, l,
                              MHD_OPTION_NOTIFY_COMPLETED, completed, l, MHD_OPTION_END);
    if (!l->mhd)
        return cz_fail(ctx, CZ_EIO, "cannot start the HTTP server on the %s listener",
                       l->tcp ? "TCP" : "unix");
    l->fd = -1; /* MHD owns and closes it now */
    return CZ_OK;
}

int cz_http_start(cz_ctx_t *ctx, cz_server_t *s, const cz_dconfig_t *cfg, cz_http_t **out)
{
    *out = NULL;
    cz_http_t *h = calloc(1, sizeof *h);
    if (!h)
        return cz_fail(ctx, CZ_ENOMEM, "http");
    h->server = s;
    h->cfg = cfg;
    h->unix_l.fd = h->tcp_l.fd = -1;
    h->tcp_l.tcp = true;
    cz_mutex_init(&h->mu);
    pthread_cond_init(&h->idle, NULL);
    int rc = cz_admit_new(&h->admit, cfg->max_connections, cfg->max_connections_per_ip,
                          cfg->body_budget);
    if (rc == CZ_OK)
        rc = cz_hdeadline_start(&h->deadline, (double)cfg->header_timeout);
    if (rc != CZ_OK) {
        cz_http_stop(h);
        return cz_fail(ctx, rc, "http: out of memory");
    }
    if (rc == CZ_OK && *cfg->socket &&
        (rc = bind_unix(ctx, h, cfg->socket, cfg->socket_mode)) == CZ_OK) {
        rc = start_mhd(ctx, h, &h->unix_l);
        if (rc == CZ_OK)
            CZ_LOGI("listening", "socket=%s mode=%s", cfg->socket, cfg->socket_mode);
    }
    if (rc == CZ_OK && *cfg->listen && (rc = bind_tcp(ctx, h, cfg->listen)) == CZ_OK)
        rc = start_mhd(ctx, h, &h->tcp_l);
    if (rc != CZ_OK) {
        cz_http_stop(h);
        return rc;
    }
    *out = h;
    return CZ_OK;
}

void cz_http_stop(cz_http_t *h)
{
    if (!h)
        return;
    /* MHD must not stop with a connection suspended: let every worker answer first */
    cz_mutex_lock(&h->mu);
    h->stopping = true;
    while (h->workers)
        cz_cond_wait(&h->idle, &h->mu);
    cz_mutex_unlock(&h->mu);
    listener_t *ls[2] = { &h->unix_l, &h->tcp_l };
    for (int i = 0; i < 2; i++) {
        if (ls[i]->mhd)
            MHD_stop_daemon(ls[i]->mhd);
        if (ls[i]->fd >= 0)
            close(ls[i]->fd);
    }
    if (*h->socket_path)
        unlink(h->socket_path);
    cz_hdeadline_stop(h->deadline); /* every connection is closed: nothing is watched */
    cz_admit_free(h->admit);
    pthread_cond_destroy(&h->idle);
    cz_mutex_destroy(&h->mu);
    free(h);
}
