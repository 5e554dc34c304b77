/*
 * daemon/http.c — libmicrohttpd glue: sockets, auth, body accumulation
 * (see daemon/http.h). Everything about the API itself is in daemon/api.c.
 */
#include "daemon/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon/api.h"
#include "daemon/log.h"

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
};

typedef struct conn {
    char *body;
    size_t len, cap;
    bool too_large;
    bool replied;
} conn_t;

static bool token_ok(const char *header, const char *token)
{
    static const char prefix[] = "Bearer ";
    if (!header || strncmp(header, prefix, sizeof prefix - 1))
        return false;
    const char *got = header + sizeof prefix - 1;
    size_t a = strlen(got), b = strlen(token);
    unsigned char diff = (unsigned char)(a != b);
    for (size_t i = 0; i < b; i++)   /* constant time in the token's length */
        diff |= (unsigned char)(got[i < a ? i : 0] ^ token[i]);
    return diff == 0;
}

static enum MHD_Result send_resp(struct MHD_Connection *c, cz_api_resp_t *r)
{
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(r->len, r->body ? r->body : (void *)"",
                                        r->body ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        free(r->body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", r->content_type ? r->content_type : "application/json");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    if (r->status == 401)
        MHD_add_response_header(resp, "WWW-Authenticate", "Bearer realm=\"cuzkd\"");
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

static const char *get_arg(void *cls, const char *key)
{
    return MHD_lookup_connection_value(cls, MHD_GET_ARGUMENT_KIND, key);
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url,
                               const char *method, const char *version, const char *upload,
                               size_t *upload_size, void **con_cls)
{
    listener_t *l = cls;
    cz_http_t *h = l->h;
    conn_t *cn = *con_cls;
    if (!cn) {
        if (!(cn = calloc(1, sizeof *cn)))
            return MHD_NO;
        *con_cls = cn;
        cz_api_resp_t r = { 0 };
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
        if (l->tcp && *h->cfg->auth_token &&
            !token_ok(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization"),
                      h->cfg->auth_token))
            cz_api_error(&r, CZ_API_E_UNAUTHORIZED, "missing or wrong 'Authorization: Bearer <token>'");
        else if (cl && strtoull(cl, NULL, 10) > h->cfg->max_body)
            cz_api_error(&r, CZ_API_E_BODY_TOO_LARGE, "Content-Length %.24s is over daemon.max_body (%zu bytes)",
                         cl, h->cfg->max_body);
        if (r.status) {
            cz_server_count_http(h->server, r.status);
            cn->replied = true;
            return send_resp(c, &r);
        }
        return MHD_YES;
    }
    if (cn->replied) {   /* an early reply: drop whatever body still arrives */
        *upload_size = 0;
        return MHD_YES;
    }
    if (*upload_size) {
        size_t n = *upload_size;
        *upload_size = 0;
        if (cn->too_large || cn->len + n > h->cfg->max_body) {
            cn->too_large = true;
            return MHD_YES;
        }
        if (cn->len + n + 1 > cn->cap) {
            size_t cap = (cn->len + n + 1) * 2;
            if (cap > h->cfg->max_body + 1)
                cap = h->cfg->max_body + 1;
            char *g = realloc(cn->body, cap);
            if (!g)
                return MHD_NO;
            cn->body = g;
            cn->cap = cap;
        }
        memcpy(cn->body + cn->len, upload, n);
        cn->len += n;
        cn->body[cn->len] = '\0';
        return MHD_YES;
    }
    cz_api_req_t req = { .method = method, .path = url, .arg = get_arg, .arg_cls = c,
                         .content_type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type"),
                         .body = cn->body, .body_len = cn->len, .body_too_large = cn->too_large };
    cz_api_resp_t r;
    cz_api_handle(h->server, &req, &r);
    cn->replied = true;
    return send_resp(c, &r);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    conn_t *cn = *con_cls;
    if (cn) {
        free(cn->body);
        free(cn);
        *con_cls = NULL;
    }
}

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
            return cz_fail(ctx, CZ_EBUSY, "daemon.socket: %s: another daemon is listening there", path);
        }
        close(fd);
        unlink(path);   /* stale: its daemon died */
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return cz_fail(ctx, CZ_EIO, "daemon.socket: socket(): %s", strerror(errno));
    }
    mode_t mode = (mode_t)strtol(mode_text, NULL, 8);
    mode_t old = umask(0777 & ~mode);
    int rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    umask(old);
    if (rc || chmod(path, mode) || listen(fd, 64)) {
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
    if (hp[0] == '[' && hl > 2 && hp[hl - 1] == ']') {   /* [::1]:9820 */
        hp[hl - 1] = '\0';
        hp++;
    }
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_PASSIVE | AI_NUMERICSERV }, *res = NULL;
    int g = getaddrinfo(hp, colon + 1, &hints, &res);
    if (g)
        return cz_fail(ctx, CZ_EINVAL, "daemon.listen: %s: %s", listen_addr, gai_strerror(g));
    int fd = -1, err = 0;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        int one = 1;
        if (fd >= 0 && (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
                        bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 64))) {
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

static int start_mhd(cz_ctx_t *ctx, cz_http_t *h, listener_t *l)
{
    l->h = h;
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    l->mhd = MHD_start_daemon(flags, 0, NULL, NULL, handler, l, MHD_OPTION_LISTEN_SOCKET, l->fd,
                              MHD_OPTION_CONNECTION_LIMIT, (unsigned)h->cfg->max_connections,
                              MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60,
                              MHD_OPTION_NOTIFY_COMPLETED, completed, NULL, MHD_OPTION_END);
    if (!l->mhd)
        return cz_fail(ctx, CZ_EIO, "cannot start the HTTP server on the %s listener",
                       l->tcp ? "TCP" : "unix");
    l->fd = -1;   /* MHD owns and closes it now */
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
    int rc = CZ_OK;
    if (*cfg->socket && (rc = bind_unix(ctx, h, cfg->socket, cfg->socket_mode)) == CZ_OK) {
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
    listener_t *ls[2] = { &h->unix_l, &h->tcp_l };
    for (int i = 0; i < 2; i++) {
        if (ls[i]->mhd)
            MHD_stop_daemon(ls[i]->mhd);
        if (ls[i]->fd >= 0)
            close(ls[i]->fd);
    }
    if (*h->socket_path)
        unlink(h->socket_path);
    free(h);
}
