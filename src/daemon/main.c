/*
 * daemon/main.c — `cuzkd`: flags over the config file, start-up, signals,
 * graceful shutdown.
 *
 * Order: defaults < config file < flags. SIGTERM/SIGINT: stop accepting
 * jobs (submits get 503), give running jobs journal.shutdown_grace
 * seconds, stop the listeners, free the prover (running partitions stop at
 * a stage boundary; unfinished jobs stay journaled and are re-queued at the
 * next start).
 * Exit codes: 0 clean shutdown, 1 start-up failure, 2 usage / config error.
 */
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "daemon/config.h"
#ifdef CUZK_HAVE_GRPC
#include "daemon/grpc/grpc_server.h"
#endif
#include "daemon/http.h"
#include "daemon/log.h"
#include "daemon/server.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzkd [--config FILE] [--socket PATH] [--listen HOST:PORT] [--journal DIR]\n"
            "             [--grpc-listen unix:///PATH|HOST:PORT]\n"
            "             [--params-dir DIR] [--token-file FILE] [--log-level LEVEL]\n"
            "             [--set SECTION.KEY=VALUE]... [--print-config] [--check-config]\n"
            "       cuzkd --version\n"
            "\n"
            "  The cuzk proving daemon: HTTP/1.1 + JSON on a unix socket (and optionally\n"
            "  TCP); see docs/API.md. Settings come from the defaults, then FILE (libconfig\n"
            "  format, documented in cuzk.example.conf), then the flags:\n"
            "    --socket PATH        daemon.socket (\"\" = no unix socket)\n"
            "    --listen HOST:PORT   daemon.listen (TCP; loopback unless a token is set)\n"
            "    --grpc-listen ADDR   grpc.listen: Curio's cuzk.v1 gRPC, unix:///PATH.sock or\n"
            "                         HOST:PORT (see docs/CURIO.md; %s in this build)\n"
            "    --journal DIR        journal.dir\n"
            "    --params-dir DIR     params.dir\n"
            "    --token-file FILE    daemon.auth_token_file\n"
            "    --log-level LEVEL    daemon.log_level (debug, info, warn, error)\n"
            "    --set KEY=VALUE      any key, e.g. --set devices.workers_per_device=1\n"
            "    --print-config       print the effective configuration and exit\n"
            "    --check-config       validate and exit (0 valid, 2 invalid)\n"
            "  The proving backend: devices.backend = auto (default: cuda when a usable GPU\n"
            "  exists, else cpu; the log says which and why), cpu or cuda (start-up fails\n"
            "  with the reason when CUDA is not usable); devices.devices = all or a count.\n"
            "  Exit codes: 0 clean shutdown, 1 start-up failure, 2 usage or config error.\n",
#ifdef CUZK_HAVE_GRPC
            "available"
#else
            "NOT available"
#endif
    );
}

/*
 * Each HTTP connection is a descriptor: raise the soft limit to the hard
 * one (the usual 1024 is below daemon.max_connections' default), and say
 * so when even that is short of the connections allowed plus room for the
 * journal, params files and gRPC.
 */
static void raise_fd_limit(const cz_dconfig_t *cfg)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl))
        return;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    rlim_t want = (rlim_t)cfg->max_connections * (*cfg->socket && *cfg->listen ? 2 : 1) + 256;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want)
        CZ_LOGW("file descriptor limit low",
                "nofile=%llu want=%llu hint=\"raise LimitNOFILE, or "
                "lower daemon.max_connections\"",
                (unsigned long long)rl.rlim_cur, (unsigned long long)want);
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "config", required_argument, 0, 'c' },      { "socket", required_argument, 0, 's' },
        { "listen", required_argument, 0, 'l' },      { "journal", required_argument, 0, 'j' },
        { "params-dir", required_argument, 0, 'p' },  { "token-file", required_argument, 0, 't' },
        { "log-level", required_argument, 0, 'L' },   { "set", required_argument, 0, 'S' },
        { "print-config", no_argument, 0, 'P' },      { "check-config", no_argument, 0, 'C' },
        { "grpc-listen", required_argument, 0, 'g' }, { "help", no_argument, 0, 'h' },
        { "version", no_argument, 0, 'V' },           { 0, 0, 0, 0 },
    };
    /* two passes: the file first, then the flags over it */
    const char *config_path = NULL;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        if (c == 'V') { /* before the config: a version query needs none */
            printf("cuzkd %s\n", CUZK_VERSION);
            return 0;
        }
        if (c == 'c')
            config_path = optarg;
    }
    cz_dconfig_t cfg;
    cz_ctx_t *ctx = NULL;
    if (cz_dconfig_defaults(&cfg) || cz_ctx_new(&ctx, NULL, 1)) {
        fprintf(stderr, "cuzkd: out of memory\n");
        return 1;
    }
    int rc = config_path ? cz_dconfig_load(ctx, &cfg, config_path) : CZ_OK;
    bool print = false, check = false;
    opterr = 1;
    optind = 1;
    while (rc == CZ_OK && (c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'c': break;
        case 's': rc = cz_dconfig_set(ctx, &cfg, "daemon.socket", optarg); break;
        case 'l': rc = cz_dconfig_set(ctx, &cfg, "daemon.listen", optarg); break;
        case 'g': rc = cz_dconfig_set(ctx, &cfg, "grpc.listen", optarg); break;
        case 'j': rc = cz_dconfig_set(ctx, &cfg, "journal.dir", optarg); break;
        case 'p': rc = cz_dconfig_set(ctx, &cfg, "params.dir", optarg); break;
        case 't': rc = cz_dconfig_set(ctx, &cfg, "daemon.auth_token_file", optarg); break;
        case 'L': rc = cz_dconfig_set(ctx, &cfg, "daemon.log_level", optarg); break;
        case 'S': {
            char *eq = strchr(optarg, '=');
            if (!eq) {
                rc = cz_fail(ctx, CZ_EINVAL, "--set %s: expected SECTION.KEY=VALUE", optarg);
                break;
            }
            *eq = '\0';
            rc = cz_dconfig_set(ctx, &cfg, optarg, eq + 1);
            *eq = '=';
            break;
        }
        case 'P': print = true; break;
        case 'C': check = true; break;
        case 'h':
            usage(stdout);
            cz_dconfig_clear(&cfg);
            cz_ctx_free(ctx);
            return 0;
        default:
            usage(stderr);
            cz_dconfig_clear(&cfg);
            cz_ctx_free(ctx);
            return 2;
        }
    }
    if (rc == CZ_OK && optind != argc)
        rc = cz_fail(ctx, CZ_EINVAL, "unexpected argument '%s'", argv[optind]);
    if (rc == CZ_OK)
        rc = cz_dconfig_validate(ctx, &cfg);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzkd: %s\n", cz_ctx_message(ctx));
        cz_dconfig_clear(&cfg);
        cz_ctx_free(ctx);
        return 2;
    }
    if (print || check) {
        if (print)
            cz_dconfig_print(&cfg, stdout);
        else
            printf("cuzkd: configuration is valid\n");
        cz_dconfig_clear(&cfg);
        cz_ctx_free(ctx);
        return 0;
    }
    cz_log_level_t level = CZ_LOG_INFO;
    cz_log_level_parse(cfg.log_level, &level);
    cz_log_set_level(level);
    raise_fd_limit(&cfg);

    /* SIGTERM/SIGINT are blocked in every thread and taken by sigwait below;
     * SIGPIPE is ignored (clients may hang up mid-reply) */
    sigset_t stop_set;
    sigemptyset(&stop_set);
    sigaddset(&stop_set, SIGTERM);
    sigaddset(&stop_set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop_set, NULL);
    signal(SIGPIPE, SIG_IGN);

    cz_server_t *server = NULL;
    cz_http_t *http = NULL;
    CZ_LOGI("cuzkd starting", "pid=%d journal=%s params_dir=%s backend=%s devices=%s",
            (int)getpid(), cfg.journal_dir, cfg.params_dir, cfg.backend, cfg.devices);
    rc = cz_server_new(ctx, &cfg, &server);
    if (rc == CZ_OK)
        rc = cz_http_start(ctx, server, &cfg, &http);
#ifdef CUZK_HAVE_GRPC
    cz_grpc_t *grpc = NULL;
    if (rc == CZ_OK && *cfg.grpc_listen)
        rc = cz_grpc_start(ctx, server, &cfg, &grpc);
    else if (rc == CZ_OK)
        CZ_LOGI("grpc off", "reason=\"grpc.listen is empty\"");
#else
    CZ_LOGI("grpc off", "reason=\"built without libgrpc/protobuf-c\"");
#endif
    if (rc != CZ_OK) {
        char q[600];
        CZ_LOGE("start-up failed", "error=%s message=%s", cz_err_name(rc),
                cz_log_q(q, sizeof q, cz_ctx_message(ctx)));
#ifdef CUZK_HAVE_GRPC
        cz_grpc_stop(grpc);
#endif
        cz_http_stop(http);
        cz_server_free(server);
        cz_dconfig_clear(&cfg);
        cz_ctx_free(ctx);
        return 1;
    }
    if (*cfg.pid_file) {
        FILE *f = fopen(cfg.pid_file, "w");
        if (f) {
            fprintf(f, "%d\n", (int)getpid());
            fclose(f);
        }
    }
    CZ_LOGI("cuzkd ready", NULL);
    int sig = 0;
    while (sigwait(&stop_set, &sig) != 0)
        ;
    CZ_LOGI("shutdown requested", "signal=%d grace_s=%ld", sig, cfg.shutdown_grace);
    cz_server_shutdown(server, (double)cfg.shutdown_grace);
#ifdef CUZK_HAVE_GRPC
    cz_grpc_stop(
        grpc); /* after the shutdown: waiting calls answer UNAVAILABLE, jobs stay journaled */
#endif
    cz_http_stop(http);
    cz_server_free(server);
    if (*cfg.pid_file)
        unlink(cfg.pid_file);
    CZ_LOGI("cuzkd stopped", NULL);
    cz_dconfig_clear(&cfg);
    cz_ctx_free(ctx);
    return 0;
}
