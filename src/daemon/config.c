/*
 * daemon/config.c — the key table, libconfig file reading, flag setting
 * (see daemon/config.h). Every value, from the file or a flag, goes through
 * set_text() so the two can never parse differently.
 */
#include "daemon/config.h"

#include <errno.h>
#include <inttypes.h>
#include <libconfig.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include <sys/stat.h>

#include "daemon/http.h"
#include "daemon/netaddr.h"

/* T_STRINT: a string that the file may also write as an integer (devices = 2;) */
typedef enum { T_STR, T_BOOL, T_LONG, T_BYTES, T_LIST, T_STRINT } key_type;

typedef struct {
    const char *section, *name;
    key_type type;
    size_t off;
    long min, max;   /* T_LONG bounds */
    const char *def; /* default as text (T_LIST: comma-separated) */
    const char *help;
    size_t count_off; /* T_LIST: where its entry count (size_t) lives */
} key_def;

#define F(field) offsetof(cz_dconfig_t, field)
static const key_def keys[] = {
    { "daemon", "socket", T_STR, F(socket), 0, 0, "/run/cuzk/cuzkd.sock",
      "unix socket path (\"\" = none)", 0 },
    { "daemon", "socket_mode", T_STR, F(socket_mode), 0, 0, "0660",
      "octal permissions of the socket", 0 },
    { "daemon", "listen", T_STR, F(listen), 0, 0, "",
      "TCP HOST:PORT (\"\" = none); loopback only without auth_token", 0 },
    { "daemon", "auth_token", T_STR, F(auth_token), 0, 0, "", "bearer token required on TCP", 0 },
    { "daemon", "auth_token_file", T_STR, F(auth_token_file), 0, 0, "",
      "file holding the token (first line)", 0 },
    { "daemon", "max_body", T_BYTES, F(max_body), 0, 0, "64MiB", "largest request body accepted",
      0 },
    { "daemon", "max_wait", T_LONG, F(max_wait), 0, 86400, "300", "cap of ?wait=SECONDS", 0 },
    { "daemon", "max_connections", T_LONG, F(max_connections), 1, 65536, "1024",
      "connections served at once (past it: 503 + Retry-After)", 0 },
    { "daemon", "max_connections_per_ip", T_LONG, F(max_connections_per_ip), 0, 65536, "256",
      "TCP connections from one client address (0 = no cap; past it: 503)", 0 },
    { "daemon", "header_timeout", T_LONG, F(header_timeout), 1, 3600, "5",
      "seconds a connection has to complete its request's headers (however it trickles them)", 0 },
    { "daemon", "body_timeout", T_LONG, F(body_timeout), 1, 3600, "60",
      "seconds a request body may stall", 0 },
    { "daemon", "body_budget", T_BYTES, F(body_budget), 0, 0, "1GiB",
      "request bodies buffered at once, all connections (past it: 503 + Retry-After)", 0 },
    { "daemon", "max_partitions", T_LONG, F(max_partitions), 1, 1024, "128", "partitions per job",
      0 },
    { "daemon", "allow_client_paths", T_BOOL, F(allow_client_paths), 0, 0, "true",
      "accept absolute params/input paths from clients", 0 },
    { "daemon", "log_level", T_STR, F(log_level), 0, 0, "info", "debug, info, warn or error", 0 },
    { "daemon", "pid_file", T_STR, F(pid_file), 0, 0, "", "write the pid here (\"\" = none)", 0 },
    { "memory", "total_budget", T_STR, F(total_budget), 0, 0, "auto",
      "\"auto\" (RAM - safety_margin) or a size", 0 },
    { "memory", "safety_margin", T_BYTES, F(safety_margin), 0, 0, "0",
      "kept free with total_budget=auto (0 = an eighth of RAM, at least 5GiB, plus params held)",
      0 },
    { "devices", "backend", T_STR, F(backend), 0, 0, "auto",
      "\"auto\" (cuda when usable, else cpu), \"cpu\" or \"cuda\"", 0 },
    { "devices", "devices", T_STRINT, F(devices), 0, 0, "all",
      "\"all\" or a count N (also \"cpu:N\", \"cuda:N\", \"cuda:all\")", 0 },
    { "devices", "cuda_device_mem_limit", T_BYTES, F(cuda_device_mem_limit), 0, 0, "0",
      "device memory each CUDA backend may use (0 = all but 2GiB)", 0 },
    { "devices", "cuda_g2_on_cpu", T_BOOL, F(cuda_g2_on_cpu), 0, 0, "false",
      "leave the B2 (G2) MSM to the CPU on CUDA backends", 0 },
    { "devices", "cuda_max_batch", T_LONG, F(cuda_max_batch), 0, 4, "0",
      "partitions one GPU region proves where params stream (0 = 2, 1 = one)", 0 },
    { "devices", "workers_per_device", T_LONG, F(workers_per_device), 1, 16, "2",
      "workers sharing one device lock", 0 },
    { "devices", "device_queue_depth", T_LONG, F(device_queue_depth), 0, 1024, "0",
      "synthesized partitions waiting (0 = devices x workers)", 0 },
    { "devices", "max_retries", T_LONG, F(max_retries), 0, 16, "1",
      "re-synthesis after a device error", 0 },
    { "synthesis", "workers", T_LONG, F(synth_workers), 1, 256, "1", "parallel partition syntheses",
      0 },
    { "synthesis", "threads", T_LONG, F(threads), 0, 4096, "0", "thread pool width (0 = all CPUs)",
      0 },
    { "params", "dir", T_STR, F(params_dir), 0, 0, "/var/lib/cuzk/params",
      "where params names resolve", 0 },
    { "params", "cache_budget", T_BYTES, F(cache_budget), 0, 0, "64GiB",
      "bytes of loaded params kept (LRU)", 0 },
    { "params", "check", T_BOOL, F(params_check), 0, 0, "true",
      "blake2b-check a file named in Filecoin's v28 parameters.json before its first use (once per size+mtime)",
      0 },
    { "params", "preload", T_LIST, F(preload), 0, 0, "", "params names loaded at start-up",
      F(npreload) },
    { "timeline", "enabled", T_BOOL, F(timeline_enabled), 0, 0, "true",
      "write TIMELINE lines to timeline.file", 0 },
    { "timeline", "file", T_STR, F(timeline_file), 0, 0, "",
      "the timeline's own file (\"\" = no timeline; never the log)", 0 },
    { "journal", "dir", T_STR, F(journal_dir), 0, 0, "/var/lib/cuzk/journal",
      "durable job and result records", 0 },
    { "journal", "result_ttl", T_LONG, F(result_ttl), 1, 31536000, "604800",
      "seconds an unfetched result is kept", 0 },
    { "journal", "keep_fetched", T_LONG, F(keep_fetched), 0, 31536000, "600",
      "seconds a fetched result is kept", 0 },
    { "journal", "shutdown_grace", T_LONG, F(shutdown_grace), 0, 3600, "60",
      "seconds SIGTERM waits for running partitions", 0 },
    { "grpc", "listen", T_STR, F(grpc_listen), 0, 0, "",
      "Curio's cuzk.v1 gRPC: unix:///path.sock or HOST:PORT (\"\" = none)", 0 },
    { "grpc", "allow_from", T_LIST, F(grpc_allow_from), 0, 0, "",
      "client CIDRs a TCP grpc.listen serves without a token (loopback always)",
      F(ngrpc_allow_from) },
    { "test", "fault", T_STR, F(fault), 0, 0, "",
      "TESTS ONLY: fault sites to fire, site:n[+|xK][~MS],... (core/fault.h)", 0 },
    { "test", "grpc_peer", T_STR, F(test_grpc_peer), 0, 0, "",
      "TESTS ONLY: the peer a TCP gRPC call is checked as (e.g. ipv4:192.0.2.9:1)", 0 },
};
#undef F
#define NKEYS (sizeof keys / sizeof keys[0])

static void free_list(char **l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(l[i]);
    free(l);
}

static int set_text(cz_ctx_t *ctx, cz_dconfig_t *cfg, const key_def *k, const char *v)
{
    void *p = (char *)cfg + k->off;
    switch (k->type) {
    case T_STR:
    case T_STRINT: {
        char *dup = strdup(v);
        if (!dup)
            return cz_fail(ctx, CZ_ENOMEM, "%s.%s", k->section, k->name);
        free(*(char **)p);
        *(char **)p = dup;
        return CZ_OK;
    }
    case T_BOOL:
        if (!strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes"))
            *(bool *)p = true;
        else if (!strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "no"))
            *(bool *)p = false;
        else
            return cz_fail(ctx, CZ_EINVAL, "%s.%s: '%s' is not a boolean (true/false)", k->section,
                           k->name, v);
        return CZ_OK;
    case T_LONG: {
        char *end;
        errno = 0;
        long x = strtol(v, &end, 10);
        if (end == v || *end || errno)
            return cz_fail(ctx, CZ_EINVAL, "%s.%s: '%s' is not an integer", k->section, k->name, v);
        if (x < k->min || x > k->max)
            return cz_fail(ctx, CZ_EINVAL, "%s.%s: %ld is outside [%ld, %ld]", k->section, k->name,
                           x, k->min, k->max);
        *(long *)p = x;
        return CZ_OK;
    }
    case T_BYTES:
        if (!cz_parse_bytes(v, (size_t *)p))
            return cz_fail(ctx, CZ_EINVAL,
                           "%s.%s: '%s' is not a byte size (e.g. 4096, 64MiB, 5GiB)", k->section,
                           k->name, v);
        return CZ_OK;
    case T_LIST: {
        char ***lp = (char ***)p;
        size_t *np = (size_t *)((char *)cfg + k->count_off);
        char **l = NULL;
        size_t n = 0;
        const char *s = v;
        while (*s) {
            const char *e = strchr(s, ',');
            size_t len = e ? (size_t)(e - s) : strlen(s);
            if (len) {
                char **g = realloc(l, (n + 1) * sizeof *l);
                if (!g || !(g[n] = strndup(s, len))) {
                    free_list(g ? g : l, n);
                    return cz_fail(ctx, CZ_ENOMEM, "%s.%s", k->section, k->name);
                }
                l = g;
                n++;
            }
            s += len + (e ? 1 : 0);
        }
        free_list(*lp, *np);
        *lp = l;
        *np = n;
        return CZ_OK;
    }
    }
    return cz_fail(ctx, CZ_EINTERNAL, "config: bad key type");
}

static const key_def *find_key(const char *section, const char *name)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (!strcmp(keys[i].section, section) && !strcmp(keys[i].name, name))
            return &keys[i];
    return NULL;
}

int cz_dconfig_defaults(cz_dconfig_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    for (size_t i = 0; i < NKEYS; i++)
        if (set_text(NULL, cfg, &keys[i], keys[i].def) != CZ_OK)
            return CZ_ENOMEM;
    return CZ_OK;
}

int cz_dconfig_set(cz_ctx_t *ctx, cz_dconfig_t *cfg, const char *key, const char *value)
{
    const char *dot = key ? strchr(key, '.') : NULL;
    if (!dot || !value)
        return cz_fail(ctx, CZ_EINVAL, "config: '%s' is not section.key", key ? key : "(null)");
    char section[64];
    size_t sl = (size_t)(dot - key);
    if (sl >= sizeof section)
        return cz_fail(ctx, CZ_EINVAL, "config: unknown key '%s'", key);
    memcpy(section, key, sl);
    section[sl] = '\0';
    const key_def *k = find_key(section, dot + 1);
    if (!k)
        return cz_fail(ctx, CZ_EINVAL, "config: unknown key '%s'", key);
    return set_text(ctx, cfg, k, value);
}

/* One libconfig setting -> text for set_text (lists are joined with ','). */
static int setting_text(cz_ctx_t *ctx, const char *path, const key_def *k, config_setting_t *s,
                        char *buf, size_t cap)
{
    int line = config_setting_source_line(s);
    int t = config_setting_type(s);
    switch (k->type) {
    case T_STRINT:
        if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64) {
            snprintf(buf, cap, "%lld", (long long)config_setting_get_int64(s));
            return CZ_OK;
        }
        /* fall through */
    case T_STR:
        if (t != CONFIG_TYPE_STRING)
            break;
        snprintf(buf, cap, "%s", config_setting_get_string(s));
        return CZ_OK;
    case T_BOOL:
        if (t != CONFIG_TYPE_BOOL)
            break;
        snprintf(buf, cap, "%s", config_setting_get_bool(s) ? "true" : "false");
        return CZ_OK;
    case T_LONG:
        if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
            break;
        snprintf(buf, cap, "%lld", (long long)config_setting_get_int64(s));
        return CZ_OK;
    case T_BYTES:
        if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64) {
            long long v = config_setting_get_int64(s);
            if (v < 0)
                return cz_fail(ctx, CZ_EINVAL, "%s:%d: %s.%s: %lld is negative", path, line,
                               k->section, k->name, v);
            snprintf(buf, cap, "%lld", v);
            return CZ_OK;
        }
        if (t != CONFIG_TYPE_STRING)
            break;
        snprintf(buf, cap, "%s", config_setting_get_string(s));
        return CZ_OK;
    case T_LIST: {
        if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST)
            break;
        size_t n = 0;
        buf[0] = '\0';
        for (int i = 0; i < config_setting_length(s); i++) {
            config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
            if (config_setting_type(e) != CONFIG_TYPE_STRING)
                return cz_fail(ctx, CZ_EINVAL, "%s:%d: %s.%s[%d] is not a string", path, line,
                               k->section, k->name, i);
            const char *v = config_setting_get_string(e);
            if (strchr(v, ',') || !*v)
                return cz_fail(ctx, CZ_EINVAL, "%s:%d: %s.%s[%d]: '%s' is empty or has a comma",
                               path, line, k->section, k->name, i, v);
            int m = snprintf(buf + n, cap - n, "%s%s", n ? "," : "", v);
            if (m < 0 || (size_t)m >= cap - n)
                return cz_fail(ctx, CZ_EINVAL, "%s:%d: %s.%s is too long", path, line, k->section,
                               k->name);
            n += (size_t)m;
        }
        return CZ_OK;
    }
    }
    static const char *const tnames[] = { "string", "boolean",         "integer",
                                          "size",   "list of strings", "string or an integer" };
    return cz_fail(ctx, CZ_EINVAL, "%s:%d: %s.%s must be a %s", path, line, k->section, k->name,
                   tnames[k->type]);
}

int cz_dconfig_load(cz_ctx_t *ctx, cz_dconfig_t *cfg, const char *path)
{
    config_t c;
    config_init(&c);
    int rc = CZ_OK;
    if (config_read_file(&c, path) != CONFIG_TRUE) {
        if (config_error_type(&c) == CONFIG_ERR_FILE_IO)
            rc = cz_fail(ctx, CZ_EIO, "%s: cannot read: %s", path, strerror(errno));
        else
            rc = cz_fail(ctx, CZ_EINVAL, "%s:%d: %s", path, config_error_line(&c),
                         config_error_text(&c));
        config_destroy(&c);
        return rc;
    }
    config_setting_t *root = config_root_setting(&c);
    char *buf = malloc(65536);
    if (!buf)
        rc = cz_fail(ctx, CZ_ENOMEM, "config");
    for (int i = 0; rc == CZ_OK && i < config_setting_length(root); i++) {
        config_setting_t *sec = config_setting_get_elem(root, (unsigned)i);
        const char *sname = config_setting_name(sec);
        bool known = false;
        for (size_t j = 0; j < NKEYS; j++)
            known |= !strcmp(keys[j].section, sname);
        if (!known) {
            rc = cz_fail(ctx, CZ_EINVAL, "%s:%d: unknown section '%s'", path,
                         config_setting_source_line(sec), sname);
            break;
        }
        if (config_setting_type(sec) != CONFIG_TYPE_GROUP) {
            rc = cz_fail(ctx, CZ_EINVAL, "%s:%d: section '%s' must be a group { ... }", path,
                         config_setting_source_line(sec), sname);
            break;
        }
        for (int j = 0; rc == CZ_OK && j < config_setting_length(sec); j++) {
            config_setting_t *s = config_setting_get_elem(sec, (unsigned)j);
            const key_def *k = find_key(sname, config_setting_name(s));
            if (!k) {
                rc = cz_fail(ctx, CZ_EINVAL, "%s:%d: unknown key '%s.%s'", path,
                             config_setting_source_line(s), sname, config_setting_name(s));
                break;
            }
            rc = setting_text(ctx, path, k, s, buf, 65536);
            if (rc == CZ_OK && (rc = set_text(ctx, cfg, k, buf)) != CZ_OK) {
                char msg[512];
                snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
                cz_fail(ctx, rc, "%s:%d: %s", path, config_setting_source_line(s), msg);
            }
        }
    }
    free(buf);
    config_destroy(&c);
    return rc;
}

#define MAX_DEVICES 16 /* = CZ_MAX_DEVICES of the server */

/* "N" (1..MAX_DEVICES) or "all" (0) -> count; false on junk. */
static bool parse_count(const char *s, size_t *count)
{
    if (!strcmp(s, "all")) {
        *count = 0;
        return true;
    }
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (end == s || *end || errno || n < 1 || n > MAX_DEVICES || *s == '+' || *s == ' ')
        return false;
    *count = (size_t)n;
    return true;
}

int cz_dconfig_devices(cz_ctx_t *ctx, const cz_dconfig_t *cfg, const char **kind, size_t *count)
{
    static const char *const kinds[] = { "auto", "cpu", "cuda" };
    *kind = NULL;
    *count = 0;
    for (int i = 0; i < 3; i++)
        if (!strcmp(cfg->backend, kinds[i]))
            *kind = kinds[i];
    if (!*kind)
        return cz_fail(ctx, CZ_EINVAL, "devices.backend: '%s' is not \"auto\", \"cpu\" or \"cuda\"",
                       cfg->backend);
    const char *d = cfg->devices, *named = NULL;
    for (int i = 1; i < 3; i++) {
        size_t l = strlen(kinds[i]);
        if (!strncmp(d, kinds[i], l) && (d[l] == '\0' || d[l] == ':')) {
            named = kinds[i];
            d = d[l] ? d + l + 1 : "all";
            break;
        }
    }
    if (!parse_count(d, count))
        return cz_fail(ctx, CZ_EINVAL,
                       "devices.devices: '%s' is not \"all\", a count 1..%d, or "
                       "\"cpu\", \"cpu:N\", \"cuda\", \"cuda:N\", \"cuda:all\"",
                       cfg->devices, MAX_DEVICES);
    if (named && strcmp(*kind, "auto") && strcmp(*kind, named))
        return cz_fail(ctx, CZ_EINVAL,
                       "devices.devices: '%s' names %s but devices.backend is "
                       "\"%s\"",
                       cfg->devices, named, *kind);
    if (named)
        *kind = named;
    return CZ_OK;
}

/* |key|'s HOST:PORT -> host (brackets of [v6] removed). CZ_EINVAL naming the key. */
static int split_host(cz_ctx_t *ctx, const char *key, const char *a, char *host, size_t cap)
{
    const char *colon = strrchr(a, ':');
    char *end;
    long port = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || colon == a || colon[1] == '\0' || *end || port < 0 || port > 65535)
        return cz_fail(ctx, CZ_EINVAL, "%s: '%s' is not HOST:PORT", key, a);
    size_t hl = (size_t)(colon - a);
    if (hl >= cap)
        return cz_fail(ctx, CZ_EINVAL, "%s: host too long", key);
    memcpy(host, a, hl);
    host[hl] = '\0';
    if (hl > 2 && host[0] == '[' && host[hl - 1] == ']') {
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = '\0';
    }
    return CZ_OK;
}

/* A token file must be the daemon's secret: no group or other access. */
static int read_token_file(cz_ctx_t *ctx, cz_dconfig_t *cfg)
{
    const char *path = cfg->auth_token_file;
    FILE *f = fopen(path, "r");
    if (!f)
        return cz_fail(ctx, CZ_EIO, "daemon.auth_token_file: %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && (st.st_mode & 0077)) {
        fclose(f);
        return cz_fail(ctx, CZ_EINVAL,
                       "daemon.auth_token_file: %s has mode %04o: group or others "
                       "may read or change the token; chmod 600 it",
                       path, (unsigned)(st.st_mode & 07777));
    }
    char line[512] = "";
    if (!fgets(line, sizeof line, f))
        line[0] = '\0';
    fclose(f);
    line[strcspn(line, "\r\n")] = '\0';
    if (!*line)
        return cz_fail(ctx, CZ_EINVAL, "daemon.auth_token_file: %s is empty", path);
    char *dup = strdup(line);
    if (!dup)
        return cz_fail(ctx, CZ_ENOMEM, "token");
    free(cfg->auth_token);
    cfg->auth_token = dup;
    return CZ_OK;
}

/* grpc.listen: unix:///ABS/PATH, or HOST:PORT on loopback unless a token is set (as for HTTP) */
static int validate_grpc_listen(cz_ctx_t *ctx, const cz_dconfig_t *cfg)
{
    const char *a = cfg->grpc_listen;
#ifndef CUZK_HAVE_GRPC
    return cz_fail(ctx, CZ_EINVAL,
                   "grpc.listen: '%s': this cuzkd was built without gRPC (it needs "
                   "libgrpc-dev, libprotobuf-c-dev and protobuf-c-compiler: run scripts/deps.sh "
                   "and rebuild)",
                   a);
#else
    cz_allow_t allow;
    if (cz_allow_parse(ctx, cfg->grpc_allow_from, cfg->ngrpc_allow_from, &allow) != CZ_OK) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
        return cz_fail(ctx, CZ_EINVAL, "grpc.allow_from: %s", msg);
    }
    if (!strncmp(a, "unix:", 5)) {
        if (cfg->ngrpc_allow_from)
            return cz_fail(ctx, CZ_EINVAL,
                           "grpc.allow_from: set, but grpc.listen '%s' is a unix "
                           "socket (its file mode decides who may connect)",
                           a);
        const char *path = a + 5;
        if (!strncmp(path, "//", 2))
            path += 2;
        if (path[0] != '/' || strlen(path) >= 108)
            return cz_fail(ctx, CZ_EINVAL,
                           "grpc.listen: '%s': want unix:///ABSOLUTE/PATH.sock "
                           "(under 108 bytes)",
                           a);
        return CZ_OK;
    }
    if (strstr(a, "://"))
        return cz_fail(ctx, CZ_EINVAL, "grpc.listen: '%s': want unix:///PATH or HOST:PORT", a);
    char host[256];
    int rc = split_host(ctx, "grpc.listen", a, host, sizeof host);
    if (rc != CZ_OK)
        return rc;
    if (!*cfg->auth_token && !cfg->ngrpc_allow_from && !cz_host_is_loopback(host))
        return cz_fail(ctx, CZ_EINVAL,
                       "grpc.listen: '%s' is not a loopback address (every address "
                       "it resolves to must be); set grpc.allow_from (the clients' addresses) or "
                       "daemon.auth_token (or auth_token_file) to serve gRPC beyond this host",
                       a);
    return CZ_OK;
#endif
}

int cz_dconfig_validate(cz_ctx_t *ctx, cz_dconfig_t *cfg)
{
    static const char *const levels[] = { "debug", "info", "warn", "error" };
    bool ok = false;
    for (int i = 0; i < 4; i++)
        ok |= !strcmp(cfg->log_level, levels[i]);
    if (!ok)
        return cz_fail(ctx, CZ_EINVAL, "daemon.log_level: '%s' is not debug, info, warn or error",
                       cfg->log_level);
    char *end;
    long mode = strtol(cfg->socket_mode, &end, 8);
    if (!*cfg->socket_mode || *end || mode < 0 || mode > 0777)
        return cz_fail(ctx, CZ_EINVAL, "daemon.socket_mode: '%s' is not an octal mode like 0660",
                       cfg->socket_mode);
    size_t b;
    if (strcmp(cfg->total_budget, "auto") && !cz_parse_bytes(cfg->total_budget, &b))
        return cz_fail(ctx, CZ_EINVAL, "memory.total_budget: '%s' is neither \"auto\" nor a size",
                       cfg->total_budget);
    const char *kind;
    size_t ndev;
    int rc = cz_dconfig_devices(ctx, cfg, &kind, &ndev);
    if (rc != CZ_OK)
        return rc;
    if (!*cfg->socket && !*cfg->listen)
        return cz_fail(ctx, CZ_EINVAL,
                       "daemon.socket and daemon.listen are both empty: nothing to serve on");
    if (!*cfg->journal_dir)
        return cz_fail(ctx, CZ_EINVAL, "journal.dir is empty (the journal is required)");
    if (cfg->max_body < 1024)
        return cz_fail(ctx, CZ_EINVAL, "daemon.max_body: %zu is below 1024 bytes", cfg->max_body);
    if (cfg->body_budget / CZ_HTTP_BODY_COST < cfg->max_body)
        return cz_fail(ctx, CZ_EINVAL,
                       "daemon.body_budget: %zu is below %d x daemon.max_body (%zu; "
                       "a body counts %d times its size): a largest body could never be accepted",
                       cfg->body_budget, CZ_HTTP_BODY_COST, cfg->max_body, CZ_HTTP_BODY_COST);
    if (*cfg->auth_token_file && (rc = read_token_file(ctx, cfg)) != CZ_OK)
        return rc;
    if (*cfg->grpc_listen && (rc = validate_grpc_listen(ctx, cfg)) != CZ_OK)
        return rc;
    if (!*cfg->grpc_listen && cfg->ngrpc_allow_from)
        return cz_fail(ctx, CZ_EINVAL, "grpc.allow_from: set, but grpc.listen is empty");
    if (*cfg->listen) {
        char host[256];
        if ((rc = split_host(ctx, "daemon.listen", cfg->listen, host, sizeof host)) != CZ_OK)
            return rc;
        if (!*cfg->auth_token && !cz_host_is_loopback(host))
            return cz_fail(ctx, CZ_EINVAL,
                           "daemon.listen: '%s' is not a loopback address (every address it "
                           "resolves to must be); set daemon.auth_token (or auth_token_file) to "
                           "serve TCP beyond this host",
                           cfg->listen);
    }
    return CZ_OK;
}

void cz_dconfig_print(const cz_dconfig_t *cfg, FILE *out)
{
    const char *sec = NULL;
    for (size_t i = 0; i < NKEYS; i++) {
        const key_def *k = &keys[i];
        if (!sec || strcmp(sec, k->section)) {
            fprintf(out, "%s%s: {\n", sec ? "};\n" : "", k->section);
            sec = k->section;
        }
        const void *p = (const char *)cfg + k->off;
        fprintf(out, "  %s = ", k->name);
        switch (k->type) {
        case T_STR:
        case T_STRINT: {
            const char *v = *(char *const *)p;
            if (!strcmp(k->name, "auth_token") && *v)
                v = "(set)";
            fprintf(out, "\"%s\";", v);
            break;
        }
        case T_BOOL: fprintf(out, "%s;", *(const bool *)p ? "true" : "false"); break;
        case T_LONG: fprintf(out, "%ld;", *(const long *)p); break;
        case T_BYTES: fprintf(out, "\"%zu\";", *(const size_t *)p); break;
        case T_LIST: {
            char *const *l = *(char **const *)p;
            size_t n = *(const size_t *)((const char *)cfg + k->count_off);
            fputc('[', out);
            for (size_t j = 0; j < n; j++)
                fprintf(out, "%s\"%s\"", j ? ", " : " ", l[j]);
            fprintf(out, " ];");
            break;
        }
        }
        fprintf(out, "   # %s\n", k->help);
    }
    if (sec)
        fprintf(out, "};\n");
}

void cz_dconfig_clear(cz_dconfig_t *cfg)
{
    for (size_t i = 0; i < NKEYS; i++) {
        void *p = (char *)cfg + keys[i].off;
        if (keys[i].type == T_STR || keys[i].type == T_STRINT)
            free(*(char **)p);
    }
    free_list(cfg->preload, cfg->npreload);
    free_list(cfg->grpc_allow_from, cfg->ngrpc_allow_from);
    memset(cfg, 0, sizeof *cfg);
}
