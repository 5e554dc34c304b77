/*
 * tests/daemon/fuzz_api.c — fuzz target of cuzkd's request handling
 * (daemon/api.c and the server's validation), without sockets.
 *
 * An input is "METHOD PATH[?QUERY]\n" followed by the body. A server is
 * made on first use (and anew every RECYCLE_EVERY inputs) over an empty
 * params directory and a temporary journal,
 * with daemon.max_wait = 0 so long polls return at once; every submit is
 * therefore validated all the way to the params lookup and refused there,
 * which keeps runs fast and free of proving work. Checked: the handler
 * never crashes (sanitizers) and always answers with a status in 200..599,
 * a JSON body for every non-200 reply.
 *
 * Built as a libFuzzer target with -DCUZK_FUZZ=ON and clang:
 *   build-fuzz/tests/fuzz_api -max_total_time=120 tests/daemon/corpus
 * and always as fuzz_api_replay, which runs the files given (or every file
 * in the directories given) once: ctest runs the seed corpus that way.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/api.h"
#include "daemon/log.h"

static cz_server_t *g_server;
static cz_dconfig_t g_cfg;
static char g_dir[64];
static unsigned g_inputs;

/*
 * The server keeps every job an input got accepted (a params path that
 * exists, then fails to load): a fuzzing run's list and journal would grow
 * without bound and each input cost more than the last (13,000 exec/s fell
 * to 100). So the server is made anew every RECYCLE_EVERY inputs.
 */
#define RECYCLE_EVERY 4096

/* Remove the plain files of directory |d| (a journal). */
static void remove_files(const char *d)
{
    DIR *dir = opendir(d);
    struct dirent *e;
    char p[512];
    while (dir && (e = readdir(dir)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", d, e->d_name);
            unlink(p);
        }
    if (dir)
        closedir(dir);
}

static void teardown(void)
{
    if (!g_server)
        return;
    cz_server_free(g_server);
    g_server = NULL;
    cz_dconfig_clear(&g_cfg);
    char p[128];
    snprintf(p, sizeof p, "%s/journal", g_dir);
    remove_files(p);
    rmdir(p);
    snprintf(p, sizeof p, "%s/params", g_dir);
    rmdir(p);
    rmdir(g_dir);
}

static cz_server_t *server(void)
{
    if (g_server)
        return g_server;
    cz_log_set_level(CZ_LOG_ERROR);
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk-fuzz.XXXXXX");
    if (!mkdtemp(g_dir))
        abort();
    char jd[128], pd[128];
    snprintf(jd, sizeof jd, "%s/journal", g_dir);
    snprintf(pd, sizeof pd, "%s/params", g_dir);
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, 1) || cz_dconfig_defaults(&g_cfg) ||
        cz_dconfig_set(ctx, &g_cfg, "journal.dir", jd) ||
        cz_dconfig_set(ctx, &g_cfg, "params.dir", pd) ||
        cz_dconfig_set(ctx, &g_cfg, "daemon.max_wait", "0") ||
        cz_dconfig_set(ctx, &g_cfg, "daemon.max_body", "65536") ||
        cz_dconfig_set(ctx, &g_cfg, "daemon.max_partitions", "2") ||
        cz_dconfig_set(ctx, &g_cfg, "synthesis.threads", "1") ||
        cz_dconfig_set(ctx, &g_cfg, "timeline.enabled", "false") ||
        cz_dconfig_set(ctx, &g_cfg, "memory.total_budget", "256MiB") ||
        cz_dconfig_validate(ctx, &g_cfg) || cz_server_new(ctx, &g_cfg, &g_server)) {
        fprintf(stderr, "fuzz_api: setup failed: %s\n", ctx ? cz_ctx_message(ctx) : "");
        abort();
    }
    cz_ctx_free(ctx);
    mkdir(pd, 0700);
    static bool at_exit;
    if (!at_exit)
        at_exit = atexit(teardown) == 0;
    return g_server;
}

typedef struct {
    const char *q;
} query_t;

/* "a=b&c=d": the value of |key| in a static buffer per call (enough here). */
static const char *get_arg(void *cls, const char *key)
{
    static __thread char val[256];
    const char *q = ((query_t *)cls)->q;
    size_t kl = strlen(key);
    while (q && *q) {
        const char *amp = strchr(q, '&'), *end = amp ? amp : q + strlen(q);
        if ((size_t)(end - q) > kl && !strncmp(q, key, kl) && q[kl] == '=') {
            size_t n = (size_t)(end - q) - kl - 1;
            if (n >= sizeof val)
                n = sizeof val - 1;
            memcpy(val, q + kl + 1, n);
            val[n] = '\0';
            return val;
        }
        q = amp ? amp + 1 : NULL;
    }
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (++g_inputs % RECYCLE_EVERY == 0)
        teardown(); /* server() makes the next one */
    const uint8_t *nl = memchr(data, '\n', size);
    size_t head = nl ? (size_t)(nl - data) : size;
    if (head > 1024)
        return 0;
    char line[1025];
    memcpy(line, data, head);
    line[head] = '\0';
    if (strlen(line) != head) /* NUL in the request line: the transport would refuse it */
        return 0;
    char *sp = strchr(line, ' ');
    if (!sp)
        return 0;
    *sp = '\0';
    char *path = sp + 1, *qm = strchr(path, '?');
    query_t q = { NULL };
    if (qm) {
        *qm = '\0';
        q.q = qm + 1;
    }
    size_t blen = nl ? size - head - 1 : 0;
    char *body = malloc(blen + 1); /* exact size: ASan catches overreads */
    if (!body)
        return 0;
    if (blen)
        memcpy(body, nl + 1, blen);
    body[blen] = '\0';
    cz_api_req_t req = { .method = line,
                         .path = path,
                         .arg = get_arg,
                         .arg_cls = &q,
                         .content_type = "application/json",
                         .body = blen ? body : NULL,
                         .body_len = blen,
                         .body_writable = true,
                         .body_too_large = blen > 65536 };
    cz_api_resp_t resp;
    cz_api_handle(server(), &req, &resp);
    if (resp.status < 200 || resp.status > 599)
        abort();
    if (resp.status != 200 && resp.status != 201 && resp.status != 202 &&
        (!resp.body || resp.body[0] != '{'))
        abort();
    free(resp.body);
    free(body);
    return 0;
}
