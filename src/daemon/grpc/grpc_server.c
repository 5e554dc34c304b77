/*
 * daemon/grpc/grpc_server.c — gRPC C core glue (see grpc_server.h): the
 * listener, the completion-queue thread and the life of a call. What a
 * method does is daemon/grpc/service.c.
 *
 * A call, from the cq thread's point of view:
 *   NEW     grpc_server_request_call matched a client call: check the
 *           method and the token; start RECV_MESSAGE and RECV_CLOSE.
 *   MSG     the request arrived: hand the call to a handler thread, which
 *           runs the method and starts the reply batch (SENT).
 *   CLOSE   the call is over: when the client canceled or the deadline
 *           passed, mark the call gone and wake the job layer's waiters.
 *   SENT    the reply batch completed.
 * Each of the two chains (MSG..SENT, CLOSE) holds a reference to the call;
 * the last one frees it. The cq thread exits once the server has shut down
 * and no call is left.
 */
#include "daemon/grpc/grpc_server.h"

#include <errno.h>
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <grpc/support/string_util.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "daemon/grpc/service.h"
#include "daemon/log.h"
#include "daemon/netaddr.h"

/* How long cz_grpc_stop lets the calls in flight send their answers before cancelling. */
#define CZ_GRPC_DRAIN_S 10

#define PENDING_REQUESTS 8 /* calls requested ahead, so a burst is not served one by one */

typedef enum { T_NEW, T_MSG, T_CLOSE, T_SENT } tag_kind_t;

typedef struct call call_t;
typedef struct {
    call_t *c;
    tag_kind_t kind;
} tag_t;

struct call {
    struct cz_grpc *g;
    grpc_call *call;
    grpc_call_details details;
    grpc_metadata_array md;
    grpc_byte_buffer *payload;
    grpc_byte_buffer *reply;
    grpc_slice status_detail;
    bool have_detail;
    int cancelled;    /* RECV_CLOSE_ON_SERVER's output */
    atomic_bool gone; /* the client canceled / the deadline passed */
    atomic_int refs;
    cz_grpc_handler_fn *fn;
    tag_t t_new, t_msg, t_close, t_sent;
};

struct cz_grpc {
    cz_server_t *server;
    const cz_dconfig_t *cfg;
    grpc_server *srv;
    grpc_completion_queue *cq;
    pthread_t cq_thread;
    bool cq_thread_started;
    bool tcp;         /* a TCP listener: every call's peer and token are checked */
    bool tcp_token;   /* TCP with daemon.auth_token */
    cz_allow_t allow; /* grpc.allow_from (n = 0: the token alone decides) */
    char socket_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    tag_t t_shutdown;

    pthread_mutex_t mu;
    pthread_cond_t idle; /* a handler ended */
    unsigned calls;      /* (mu) call_t alive */
    unsigned handlers;   /* (mu) handler threads running */
    bool shut_down;      /* (mu) the server's shutdown notification arrived */
    bool stopping;       /* (mu) no new requests */
};

/* ---- calls ---------------------------------------------------------------- */

static void call_unref(call_t *c)
{
    if (atomic_fetch_sub(&c->refs, 1) != 1)
        return;
    struct cz_grpc *g = c->g;
    if (c->call)
        grpc_call_unref(c->call);
    if (c->payload)
        grpc_byte_buffer_destroy(c->payload);
    if (c->reply)
        grpc_byte_buffer_destroy(c->reply);
    if (c->have_detail)
        grpc_slice_unref(c->status_detail);
    grpc_call_details_destroy(&c->details);
    grpc_metadata_array_destroy(&c->md);
    free(c);
    pthread_mutex_lock(&g->mu);
    bool last = --g->calls == 0 && g->shut_down;
    pthread_mutex_unlock(&g->mu);
    if (last)
        grpc_completion_queue_shutdown(g->cq);
}

/* Ask gRPC for the next client call (cq thread, or start-up). */
static void request_call(struct cz_grpc *g)
{
    pthread_mutex_lock(&g->mu);
    bool stop = g->stopping;
    if (!stop)
        g->calls++;
    pthread_mutex_unlock(&g->mu);
    if (stop)
        return;
    call_t *c = calloc(1, sizeof *c);
    if (!c) {
        pthread_mutex_lock(&g->mu);
        g->calls--;
        pthread_mutex_unlock(&g->mu);
        CZ_LOGE("grpc: out of memory for a call", NULL);
        return;
    }
    c->g = g;
    atomic_init(&c->refs, 1);
    atomic_init(&c->gone, false);
    c->t_new = (tag_t){ c, T_NEW };
    c->t_msg = (tag_t){ c, T_MSG };
    c->t_close = (tag_t){ c, T_CLOSE };
    c->t_sent = (tag_t){ c, T_SENT };
    grpc_call_details_init(&c->details);
    grpc_metadata_array_init(&c->md);
    if (grpc_server_request_call(g->srv, &c->call, &c->details, &c->md, g->cq, g->cq, &c->t_new) !=
        GRPC_CALL_OK)
        call_unref(c);
}

/* Start the reply: the message (when there is one) and the status. Takes the chain's ref. */
static void send_reply(call_t *c, cz_grpc_reply_t *r)
{
    grpc_op ops[3];
    memset(ops, 0, sizeof ops);
    size_t n = 0;
    ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
    if (r->status == GRPC_STATUS_OK && r->out) {
        grpc_slice s = grpc_slice_new(r->out, r->out_len, free);
        r->out = NULL;
        c->reply = grpc_raw_byte_buffer_create(&s, 1);
        grpc_slice_unref(s);
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n++].data.send_message.send_message = c->reply;
    }
    free(r->out);
    r->out = NULL;
    c->status_detail = grpc_slice_from_copied_string(r->status == GRPC_STATUS_OK ? "" : r->detail);
    c->have_detail = true;
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.status = r->status;
    ops[n++].data.send_status_from_server.status_details = &c->status_detail;
    if (grpc_call_start_batch(c->call, ops, n, &c->t_sent, NULL) != GRPC_CALL_OK)
        call_unref(c);
}

static void reply_now(call_t *c, grpc_status_code code, const char *detail)
{
    cz_grpc_reply_t r = { .status = code };
    snprintf(r.detail, sizeof r.detail, "%s", detail);
    send_reply(c, &r);
}

/*
 * The request message as one slice (a reference; the caller unrefs it).
 * A message that came in one uncompressed slice is that slice, no copy;
 * else its slices are copied into one (protobuf-c unpacks from one
 * buffer): the first of the two copies of a request's bytes field between
 * the socket and the kind's parser (daemon/server.h, THE INPUT'S COPIES;
 * the unpack borrows the field from this buffer: daemon/grpc/unpack.h).
 */
static grpc_slice message_slice(grpc_byte_buffer *bb)
{
    if (bb->type == GRPC_BB_RAW && bb->data.raw.compression == GRPC_COMPRESS_NONE &&
        bb->data.raw.slice_buffer.count == 1)
        return grpc_slice_ref(bb->data.raw.slice_buffer.slices[0]);
    grpc_byte_buffer_reader rd;
    grpc_slice in = grpc_empty_slice();
    if (grpc_byte_buffer_reader_init(&rd, bb)) {
        in = grpc_byte_buffer_reader_readall(&rd);
        grpc_byte_buffer_reader_destroy(&rd);
    }
    return in;
}

static void *handler_main(void *arg)
{
    call_t *c = arg;
    struct cz_grpc *g = c->g;
    grpc_slice in = message_slice(c->payload);
    cz_grpc_call_env_t env = { .server = g->server, .gone = &c->gone };
    cz_grpc_reply_t r = { .status = GRPC_STATUS_OK };
    c->fn(&env, GRPC_SLICE_START_PTR(in), GRPC_SLICE_LENGTH(in), &r);
    grpc_slice_unref(in);
    send_reply(c, &r);
    pthread_mutex_lock(&g->mu);
    g->handlers--;
    pthread_cond_broadcast(&g->idle);
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

/* The token, when TCP has one: "authorization: Bearer <token>", compared in constant time. */
static bool token_ok(const struct cz_grpc *g, const grpc_metadata_array *md)
{
    static const char prefix[] = "Bearer ";
    const char *token = g->cfg->auth_token;
    size_t tl = strlen(token);
    bool ok = false;
    for (size_t i = 0; i < md->count; i++) {
        const grpc_slice *k = &md->metadata[i].key, *v = &md->metadata[i].value;
        if (GRPC_SLICE_LENGTH(*k) != 13 || memcmp(GRPC_SLICE_START_PTR(*k), "authorization", 13))
            continue;
        const char *got = (const char *)GRPC_SLICE_START_PTR(*v);
        size_t gl = GRPC_SLICE_LENGTH(*v);
        if (gl < sizeof prefix - 1 || memcmp(got, prefix, sizeof prefix - 1))
            continue;
        got += sizeof prefix - 1;
        gl -= sizeof prefix - 1;
        unsigned char diff = (unsigned char)(gl != tl);
        for (size_t j = 0; j < tl; j++)
            diff |= (unsigned char)(got[j < gl ? j : 0] ^ token[j]);
        ok |= gl > 0 && diff == 0;
    }
    return ok;
}

/*
 * Whether this call may go on, checked on every call (a connection's peer
 * could be anyone once the listener is not loopback-only). Refused calls
 * are answered here: PERMISSION_DENIED naming the peer when an allowlist
 * is set and neither it nor a token admits the call, UNAUTHENTICATED when
 * only the token decides.
 */
static bool call_admitted(call_t *c)
{
    struct cz_grpc *g = c->g;
    if (!g->tcp)
        return true; /* a unix socket: its file mode decided */
    if (g->allow.n) {
        char *peer = *g->cfg->test_grpc_peer ? gpr_strdup(g->cfg->test_grpc_peer)
                                             : grpc_call_get_peer(c->call);
        bool ok = peer && cz_peer_allowed(&g->allow, peer);
        if (!ok && !(g->tcp_token && token_ok(g, &c->md))) {
            char d[300];
            snprintf(d, sizeof d, "peer %.200s is not in grpc.allow_from%s",
                     peer ? peer : "(unknown)",
                     g->tcp_token ? " and sent no valid \"authorization: Bearer\" token" : "");
            CZ_LOGW("grpc call refused", "peer=%s", peer ? peer : "?");
            gpr_free(peer);
            reply_now(c, GRPC_STATUS_PERMISSION_DENIED, d);
            return false;
        }
        gpr_free(peer);
        return true;
    }
    if (g->tcp_token && !token_ok(g, &c->md)) {
        reply_now(c, GRPC_STATUS_UNAUTHENTICATED,
                  "authorization: this TCP listener needs "
                  "\"Bearer <daemon.auth_token>\"");
        return false;
    }
    return true;
}

static void on_new(call_t *c)
{
    struct cz_grpc *g = c->g;
    request_call(g);               /* keep PENDING_REQUESTS outstanding */
    atomic_fetch_add(&c->refs, 1); /* the CLOSE chain */
    grpc_op close_op;
    memset(&close_op, 0, sizeof close_op);
    close_op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    close_op.data.recv_close_on_server.cancelled = &c->cancelled;
    if (grpc_call_start_batch(c->call, &close_op, 1, &c->t_close, NULL) != GRPC_CALL_OK)
        call_unref(c);
    const char *m = (const char *)GRPC_SLICE_START_PTR(c->details.method);
    size_t ml = GRPC_SLICE_LENGTH(c->details.method);
    if (!call_admitted(c))
        return;
    if (!(c->fn = cz__grpc_method(m, ml))) {
        char d[300];
        snprintf(d, sizeof d, "%.*s: not a method of cuzk.v1.ProvingEngine",
                 (int)(ml < 200 ? ml : 200), m);
        reply_now(c, GRPC_STATUS_UNIMPLEMENTED, d);
        return;
    }
    grpc_op recv;
    memset(&recv, 0, sizeof recv);
    recv.op = GRPC_OP_RECV_MESSAGE;
    recv.data.recv_message.recv_message = &c->payload;
    if (grpc_call_start_batch(c->call, &recv, 1, &c->t_msg, NULL) != GRPC_CALL_OK)
        call_unref(c);
}

static void on_msg(call_t *c, bool ok)
{
    struct cz_grpc *g = c->g;
    if (!ok) { /* the call broke before its message arrived */
        call_unref(c);
        return;
    }
    if (!c->payload) {
        reply_now(c, GRPC_STATUS_INVALID_ARGUMENT, "request: no message (a unary call sends one)");
        return;
    }
    pthread_mutex_lock(&g->mu);
    bool room = g->handlers < CZ_GRPC_MAX_CALLS;
    if (room)
        g->handlers++;
    pthread_mutex_unlock(&g->mu);
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    bool started = room && pthread_create(&t, &attr, handler_main, c) == 0;
    pthread_attr_destroy(&attr);
    if (!started) {
        if (room) {
            pthread_mutex_lock(&g->mu);
            g->handlers--;
            pthread_mutex_unlock(&g->mu);
        }
        reply_now(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "too many calls in flight; retry later");
    }
}

static void *cq_main(void *arg)
{
    struct cz_grpc *g = arg;
    for (;;) {
        grpc_event ev = grpc_completion_queue_next(g->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN)
            break;
        if (ev.type != GRPC_OP_COMPLETE)
            continue;
        if (ev.tag == &g->t_shutdown) {
            pthread_mutex_lock(&g->mu);
            g->shut_down = true;
            pthread_cond_broadcast(&g->idle);
            bool none = g->calls == 0;
            pthread_mutex_unlock(&g->mu);
            if (none)
                grpc_completion_queue_shutdown(g->cq);
            continue;
        }
        tag_t *t = ev.tag;
        call_t *c = t->c;
        switch (t->kind) {
        case T_NEW:
            if (ev.success)
                on_new(c);
            else
                call_unref(c); /* the server is shutting down */
            break;
        case T_MSG: on_msg(c, ev.success != 0); break;
        case T_CLOSE:
            if (c->cancelled) {
                atomic_store(&c->gone, true);
                cz_server_wake(c->g->server);
            }
            call_unref(c);
            break;
        case T_SENT: call_unref(c); break;
        }
    }
    return NULL;
}

/* ---- listening ------------------------------------------------------------ */

/* mkdir -p of |path|'s directory. */
static int make_parent(cz_ctx_t *ctx, const char *path)
{
    char d[sizeof(((struct sockaddr_un *)0)->sun_path)];
    snprintf(d, sizeof d, "%s", path);
    for (char *p = d + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(d, 0755) && errno != EEXIST)
            return cz_fail(ctx, CZ_EIO, "grpc.listen: cannot create %s: %s", d, strerror(errno));
        *p = '/';
    }
    return CZ_OK;
}

/* A socket file left by a dead daemon is removed; a live one is refused. */
static int clear_stale(cz_ctx_t *ctx, const char *path)
{
    struct stat st;
    if (lstat(path, &st))
        return CZ_OK;
    if (!S_ISSOCK(st.st_mode))
        return cz_fail(ctx, CZ_EINVAL, "grpc.listen: %s exists and is not a socket", path);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    memcpy(a.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return cz_fail(ctx, CZ_EIO, "grpc.listen: socket(): %s", strerror(errno));
    int live = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    if (live)
        return cz_fail(ctx, CZ_EBUSY, "grpc.listen: %s: another daemon is listening there", path);
    unlink(path);
    return CZ_OK;
}

static int bind_listener(cz_ctx_t *ctx, struct cz_grpc *g)
{
    const char *addr = g->cfg->grpc_listen;
    char target[300];
    mode_t mode = (mode_t)strtol(g->cfg->socket_mode, NULL, 8);
    bool unix_sock = !strncmp(addr, "unix:", 5);
    if (unix_sock) {
        const char *path = addr + 5;
        if (!strncmp(path, "//", 2))
            path += 2; /* unix:///abs/path */
        if (path[0] != '/' || strlen(path) >= sizeof g->socket_path)
            return cz_fail(ctx, CZ_EINVAL,
                           "grpc.listen: '%s': want unix:///ABSOLUTE/PATH (under %zu bytes)", addr,
                           sizeof g->socket_path);
        int rc = make_parent(ctx, path);
        if (rc == CZ_OK)
            rc = clear_stale(ctx, path);
        if (rc != CZ_OK)
            return rc;
        snprintf(g->socket_path, sizeof g->socket_path, "%s", path);
        snprintf(target, sizeof target, "unix:%s", path);
    } else {
        snprintf(target, sizeof target, "%s", addr);
        g->tcp = true;
        g->tcp_token = *g->cfg->auth_token != '\0';
        int rc = cz_allow_parse(ctx, g->cfg->grpc_allow_from, g->cfg->ngrpc_allow_from, &g->allow);
        if (rc != CZ_OK)
            return rc;
    }
    grpc_server_credentials *cr = grpc_insecure_server_credentials_create();
    mode_t old = unix_sock ? umask(0777 & ~mode) : 0;
    int port = grpc_server_add_http2_port(g->srv, target, cr);
    if (unix_sock)
        umask(old);
    grpc_server_credentials_release(cr);
    if (port == 0) {
        g->socket_path[0] = '\0';
        return cz_fail(ctx, CZ_EIO, "grpc.listen: cannot listen on %s (in use, or not an address)",
                       addr);
    }
    if (unix_sock && chmod(g->socket_path, mode))
        return cz_fail(ctx, CZ_EIO, "grpc.listen: chmod %s: %s", g->socket_path, strerror(errno));
    char shown[300]; /* with the port bound: HOST:0 asks the kernel for one */
    if (unix_sock)
        snprintf(shown, sizeof shown, "%s", addr);
    else
        snprintf(shown, sizeof shown, "%.*s:%d", (int)(strrchr(addr, ':') - addr), addr, port);
    CZ_LOGI("listening", "grpc=%s mode=%s auth=%s%s allow_from=%zu", shown,
            unix_sock ? g->cfg->socket_mode : "-", g->tcp_token ? "token" : "none",
            g->allow.n ? "+allowlist" : "", g->allow.n);
    return CZ_OK;
}

/* ---- start, stop ------------------------------------------------------------ */

int cz_grpc_start(cz_ctx_t *ctx, cz_server_t *s, const cz_dconfig_t *cfg, cz_grpc_t **out)
{
    *out = NULL;
    struct cz_grpc *g = calloc(1, sizeof *g);
    if (!g)
        return cz_fail(ctx, CZ_ENOMEM, "grpc");
    g->server = s;
    g->cfg = cfg;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->idle, NULL);
    grpc_init();
    grpc_arg args[] = {
        { .type = GRPC_ARG_INTEGER,
          .key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH,
          .value.integer = CZ_GRPC_MAX_MESSAGE },
        { .type = GRPC_ARG_INTEGER,
          .key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH,
          .value.integer = CZ_GRPC_MAX_MESSAGE },
    };
    grpc_channel_args ca = { .num_args = sizeof args / sizeof *args, .args = args };
    g->srv = grpc_server_create(&ca, NULL);
    g->cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(g->srv, g->cq, NULL);
    int rc = bind_listener(ctx, g);
    if (rc == CZ_OK) {
        grpc_server_start(g->srv);
        for (int i = 0; i < PENDING_REQUESTS; i++)
            request_call(g);
        if (pthread_create(&g->cq_thread, NULL, cq_main, g) == 0)
            g->cq_thread_started = true;
        else
            rc = cz_fail(ctx, CZ_ENOMEM, "cannot start the gRPC thread");
    }
    if (rc != CZ_OK) {
        cz_grpc_stop(g);
        return rc;
    }
    *out = g;
    return CZ_OK;
}

/*
 * Wait up to |seconds| for the calls in flight to finish on their own once
 * the server stops taking new ones: cz_grpc_stop runs after the job layer's
 * shutdown, so every wait has its answer by now — a Prove whose job ended
 * within the shutdown grace its proof, the others UNAVAILABLE — and only
 * the sending is left. Cancelling at once could cut those replies off.
 */
static void drain_calls(struct cz_grpc *g, double seconds)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts); /* g->idle has the default (realtime) clock */
    ts.tv_sec += (time_t)seconds;
    pthread_mutex_lock(&g->mu);
    while (!g->shut_down && pthread_cond_timedwait(&g->idle, &g->mu, &ts) != ETIMEDOUT)
        ;
    pthread_mutex_unlock(&g->mu);
}

void cz_grpc_stop(cz_grpc_t *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&g->mu);
    g->stopping = true;
    pthread_mutex_unlock(&g->mu);
    g->t_shutdown = (tag_t){ NULL, T_NEW };
    grpc_server_shutdown_and_notify(g->srv, g->cq, &g->t_shutdown);
    if (g->cq_thread_started)
        drain_calls(g, CZ_GRPC_DRAIN_S);
    grpc_server_cancel_all_calls(g->srv);
    if (g->cq_thread_started) {
        pthread_join(g->cq_thread, NULL);
    } else { /* never served: drain the shutdown notification here */
        grpc_completion_queue_shutdown(g->cq);
        while (grpc_completion_queue_next(g->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
               GRPC_QUEUE_SHUTDOWN)
            ;
    }
    /* the cq thread is done with every call, so every handler has replied */
    pthread_mutex_lock(&g->mu);
    while (g->handlers)
        pthread_cond_wait(&g->idle, &g->mu);
    pthread_mutex_unlock(&g->mu);
    grpc_server_destroy(g->srv);
    grpc_completion_queue_destroy(g->cq);
    grpc_shutdown();
    if (*g->socket_path)
        unlink(g->socket_path);
    pthread_cond_destroy(&g->idle);
    pthread_mutex_destroy(&g->mu);
    free(g);
}
