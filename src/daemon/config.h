/*
 * daemon/config.h — cuzkd's configuration: one declarative table of keys
 * (section, name, type, bounds, default, help) shared by the config file,
 * the command-line flags and `cuzkd --print-config`.
 *
 * File format: libconfig (Debian libconfig-dev), which allows comments
 * (# // and block comments):
 *
 *     daemon:  { socket = "/run/cuzk/cuzkd.sock"; listen = "127.0.0.1:9820"; }
 *     memory:  { total_budget = "auto"; safety_margin = "0"; }
 *     ...
 *
 * The documented example is cuzk.example.conf at the top of the repository.
 * Unknown sections or keys, wrong types and out-of-range values are errors
 * whose message names the key ("journal.result_ttl: -5 is below 0").
 * Byte sizes may be integers or strings with a unit ("64MiB", "5GiB",
 * "1.5GiB" is refused: whole numbers only).
 *
 * Ownership: a cz_dconfig_t owns its strings (free with cz_dconfig_clear).
 * Not thread-safe; load it once at start-up.
 */
#ifndef CUZK_DAEMON_CONFIG_H
#define CUZK_DAEMON_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/ctx.h"

typedef struct cz_dconfig {
    /* daemon */
    char *socket;                /* unix socket path; "" = none */
    char *socket_mode;           /* octal, "0660" */
    char *listen;                /* HOST:PORT for TCP; "" = none */
    char *auth_token;            /* "" = none: TCP then binds loopback only */
    char *auth_token_file;       /* read at start-up when set */
    size_t max_body;             /* request body limit in bytes */
    long max_wait;               /* cap of ?wait=SECONDS */
    long max_connections;        /* served at once; past it a request gets 503 + Retry-After */
    long max_connections_per_ip; /* TCP, per client address; 0 = no cap */
    long header_timeout;         /* seconds of silence allowed before the headers are complete */
    long body_timeout;           /* seconds of silence allowed within a body */
    size_t body_budget;          /* bytes of request bodies buffered at once */
    long max_partitions;         /* per job */
    bool allow_client_paths;     /* accept absolute params / input paths from clients */
    char *log_level;
    char *pid_file;
    /* memory */
    char *total_budget; /* "auto" or a size */
    size_t safety_margin;
    /* devices (see cz_dconfig_devices) */
    char *backend;                /* "auto", "cpu" or "cuda" */
    char *devices;                /* "all" or N; or KIND, KIND:N, cuda:all (KIND cpu or cuda) */
    size_t cuda_device_mem_limit; /* bytes per CUDA backend; 0 = all but 2 GiB */
    bool cuda_g2_on_cpu;          /* CUDA backends leave the B2 (G2) MSM to the CPU */
    long cuda_max_batch;          /* partitions a region proves where params stream (0: 2) */
    long workers_per_device;
    long device_queue_depth; /* 0 = devices x workers */
    long max_retries;
    /* synthesis */
    long synth_workers;
    long threads; /* library pool width, 0 = all CPUs */
    /* params */
    char *params_dir;
    size_t cache_budget; /* bytes of loaded params kept (LRU) */
    bool params_check;   /* digest published files against the v28 manifest before use */
    char **preload;      /* names loaded at start-up */
    size_t npreload;
    /* timeline */
    bool timeline_enabled;
    char *timeline_file; /* its own file; "" = no timeline (the log stays one format) */
    /* journal */
    char *journal_dir;
    long result_ttl;     /* seconds a result is kept unfetched */
    long keep_fetched;   /* seconds a result is kept after its first fetch */
    long shutdown_grace; /* seconds SIGTERM waits for running partitions */
    /* grpc (daemon/grpc/grpc_server.h) */
    char *grpc_listen;      /* "unix:///path.sock" or HOST:PORT; "" = none */
    char **grpc_allow_from; /* client CIDRs served without a token on TCP (daemon/netaddr.h) */
    size_t ngrpc_allow_from;
    /* test */
    char *fault;          /* fault injection spec (core/fault.h); "" = none */
    char *test_grpc_peer; /* "" or the peer TCP gRPC calls are checked as (tests: only
                                * loopback can be bound here, and loopback is always allowed) */
    /* not a key of the file: the job kinds (kinds/kinds.h cz_kinds_t, borrowed for the
     * server's life); NULL: the library's built-in ones. Tests set a table with a toy kind. */
    const struct cz_kinds *kinds;
} cz_dconfig_t;

/* Fill with the defaults (strings owned). CZ_ENOMEM only. */
int cz_dconfig_defaults(cz_dconfig_t *cfg);
/* Read |path| over |cfg|: keys present replace values. Errors name file:line or the key. */
int cz_dconfig_load(cz_ctx_t *ctx, cz_dconfig_t *cfg, const char *path);
/*
 * Set one key from a flag or a test: |key| is "section.name", |value| text
 * parsed as the key's type. CZ_EINVAL (unknown key / bad value, named).
 */
int cz_dconfig_set(cz_ctx_t *ctx, cz_dconfig_t *cfg, const char *key, const char *value);
/* Cross-key checks after everything is set (e.g. TCP on a public address needs a token). */
int cz_dconfig_validate(cz_ctx_t *ctx, cz_dconfig_t *cfg);
/* Write the effective configuration in the file's format (token masked). */
void cz_dconfig_print(const cz_dconfig_t *cfg, FILE *out);
void cz_dconfig_clear(cz_dconfig_t *cfg);

/*
 * The device choice: *kind = "auto", "cpu" or "cuda" (devices.backend, or
 * the kind devices.devices names: "cpu:2" means backend cpu), *count = the
 * number of devices wanted, 0 = all of the kind (cpu: 1; cuda: every usable
 * GPU). CZ_EINVAL naming the key for a bad value or for devices.devices
 * naming another kind than an explicit devices.backend. Availability is
 * not checked here (the server does it at start-up). *kind is static.
 */
int cz_dconfig_devices(cz_ctx_t *ctx, const cz_dconfig_t *cfg, const char **kind, size_t *count);


#endif /* CUZK_DAEMON_CONFIG_H */
