/*
 * cli/cmd_client.c — `cuzk submit|status|wait|proof|cancel|list|daemon-status`:
 * the client commands of cuzkd's HTTP API (docs/API.md), and `cuzk prove`
 * through the daemon. Exit codes: cli/client.h.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"

static void print_json(const json_t *o)
{
    char *t = json_dumps(o, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
    if (t)
        printf("%s\n", t);
    free(t);
}

static void print_status_line(const json_t *st)
{
    json_t *p = json_object_get(st, "progress"), *t = json_object_get(st, "timings");
    printf("%s  %-8s %-14s %lld/%lld partitions  %s  total %.1fs",
           json_string_value(json_object_get(st, "id")),
           json_string_value(json_object_get(st, "state")),
           json_string_value(json_object_get(st, "stage")),
           json_integer_value(json_object_get(p, "partitions_done")),
           json_integer_value(json_object_get(p, "partitions_total")),
           json_string_value(json_object_get(st, "summary")),
           json_number_value(json_object_get(t, "total_ms")) / 1e3);
    const char *pstage = json_string_value(json_object_get(st, "partition_stage"));
    if (pstage)
        printf("  [%s]", pstage);
    const char *msg = json_string_value(json_object_get(st, "message"));
    if (msg && *msg)
        printf("  (%s)", msg);
    printf("\n");
}

static void print_status(const json_t *st)
{
    print_status_line(st);
    json_t *t = json_object_get(st, "timings");
    printf("  timings: queue_wait %.1f ms, params_load %.1f ms, synthesis %.1f ms, device %.1f ms, "
           "total %.1f ms\n",
           json_number_value(json_object_get(t, "queue_wait_ms")),
           json_number_value(json_object_get(t, "params_load_ms")),
           json_number_value(json_object_get(t, "synthesis_ms")),
           json_number_value(json_object_get(t, "device_ms")),
           json_number_value(json_object_get(t, "total_ms")));
}

static bool job_id_ok(const char *id)
{
    if (!id || strlen(id) != 16)
        return false;
    for (const char *c = id; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f')))
            return false;
    return true;
}

/* ---- submit ---------------------------------------------------------------- */

static void submit_usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk submit --circuit ID --params NAME [--partitions P] [--seed S]\n"
            "                   [--priority low|normal|high|critical] [--request-id R]\n"
            "                   [--kind K] [--input FILE | --input-path PATH] [common]\n"
            "  Submits a job to cuzkd and prints its id (with --json: the reply).\n"
            "  NAME is a params file in the daemon's params.dir (or an absolute path the\n"
            "  daemon may read). --input sends FILE's JSON inline; --input-path lets the\n"
            "  daemon read PATH (made absolute here). Resubmitting the same --request-id\n"
            "  returns the same job.\n"
            CZ_CLIENT_USAGE
            "  Exit: 0 accepted, 1 refused, 2 usage, 3 daemon unreachable.\n");
}

static json_t *read_json_file(const char *path)
{
    json_error_t err;
    json_t *o = json_load_file(path, 0, &err);
    if (!o)
        fprintf(stderr, "cuzk: %s:%d: %s\n", path, err.line, err.text);
    return o;
}

static int do_submit(cz_client_t *cl, json_t *req, const char *who, char id[32], bool print)
{
    json_t *r = NULL;
    long st = 0;
    int rc = cz_client_json(cl, who, "POST", "/v1/proofs", req, &r, &st);
    if (rc)
        return rc;
    const char *jid = json_string_value(json_object_get(r, "id"));
    snprintf(id, 32, "%s", jid ? jid : "");
    if (print) {
        if (cl->json)
            print_json(r);
        else
            printf("%s%s\n", id, st == 200 ? "  (existing job for this request id)" : "");
    }
    json_decref(r);
    return jid ? CZ_EXIT_OK : CZ_EXIT_UNREACHABLE;
}

int cmd_submit(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "circuit", required_argument, 0, 'c' }, { "params", required_argument, 0, 'p' },
        { "partitions", required_argument, 0, 'n' }, { "seed", required_argument, 0, 's' },
        { "priority", required_argument, 0, 'P' }, { "request-id", required_argument, 0, 'r' },
        { "kind", required_argument, 0, 'k' }, { "input", required_argument, 0, 'i' },
        { "input-path", required_argument, 0, 'I' }, { "help", no_argument, 0, 'h' },
        CZ_CLIENT_LONGOPTS, { 0, 0, 0, 0 },
    };
    cz_client_t cl = { 0 };
    json_t *req = json_object();
    const char *kind = "circuit";
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        size_t v;
        if (cz_client_opt(&cl, c, optarg))
            continue;
        switch (c) {
        case 'c': json_object_set_new(req, "circuit", json_string(optarg)); break;
        case 'p': json_object_set_new(req, "params", json_string(optarg)); break;
        case 'n':
            if (!cz_cli_parse_size(optarg, &v)) goto usage;
            json_object_set_new(req, "partitions", json_integer((json_int_t)v));
            break;
        case 's':
            if (!cz_cli_parse_size(optarg, &v)) goto usage;
            json_object_set_new(req, "seed", json_integer((json_int_t)v));
            break;
        case 'P': {
            char *end;
            long p = strtol(optarg, &end, 10);
            json_object_set_new(req, "priority", *end ? json_string(optarg) : json_integer(p));
            break;
        }
        case 'r': json_object_set_new(req, "request_id", json_string(optarg)); break;
        case 'k': kind = optarg; break;
        case 'i': {
            json_t *in = read_json_file(optarg);
            if (!in) {
                json_decref(req);
                return CZ_EXIT_USAGE;
            }
            json_object_set_new(req, "input", in);
            break;
        }
        case 'I': {
            /* the daemon runs elsewhere (another cwd): send an absolute path */
            char abs[PATH_MAX];
            if (!realpath(optarg, abs)) {
                fprintf(stderr, "cuzk submit: --input-path %s: %s\n", optarg, strerror(errno));
                json_decref(req);
                return CZ_EXIT_USAGE;
            }
            json_object_set_new(req, "input_path", json_string(abs));
            break;
        }
        case 'h': submit_usage(stdout); json_decref(req); return CZ_EXIT_OK;
        default: goto usage;
        }
    }
    if (optind != argc)
        goto usage;
    json_object_set_new(req, "kind", json_string(kind));
    cz_client_init(&cl);
    char id[32];
    int rc = do_submit(&cl, req, "cuzk submit", id, true);
    json_decref(req);
    return rc;
usage:
    submit_usage(stderr);
    json_decref(req);
    return CZ_EXIT_USAGE;
}

/* ---- status / wait / cancel / proof: one job id -------------------------- */

typedef struct {
    cz_client_t cl;
    const char *id, *out, *pub;
    double timeout;
    bool quiet;
} id_opts;

static int parse_id_cmd(int argc, char **argv, id_opts *o, void (*usage)(FILE *), bool files)
{
    static const struct option longopts[] = {
        { "timeout", required_argument, 0, 't' }, { "wait", required_argument, 0, 'w' },
        { "out", required_argument, 0, 'o' },     { "public", required_argument, 0, 'u' },
        { "quiet", no_argument, 0, 'q' },         { "help", no_argument, 0, 'h' },
        CZ_CLIENT_LONGOPTS, { 0, 0, 0, 0 },
    };
    memset(o, 0, sizeof *o);
    o->timeout = -1;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        if (cz_client_opt(&o->cl, c, optarg))
            continue;
        switch (c) {
        case 't': case 'w': {
            char *end;
            o->timeout = strtod(optarg, &end);
            if (*end || o->timeout < 0) goto usage;
            break;
        }
        case 'o': if (!files) goto usage; o->out = optarg; break;
        case 'u': if (!files) goto usage; o->pub = optarg; break;
        case 'q': o->quiet = true; break;
        case 'h': usage(stdout); return 1;
        default: goto usage;
        }
    }
    if (optind + 1 != argc)
        goto usage;
    o->id = argv[optind];
    if (!job_id_ok(o->id)) {
        fprintf(stderr, "cuzk: '%s' is not a job id (16 hex digits)\n", o->id);
        return -1;
    }
    cz_client_init(&o->cl);
    return 0;
usage:
    usage(stderr);
    return -1;
}

static void status_usage(FILE *f)
{
    fprintf(f, "usage: cuzk status ID [common]\n"
               "  The job's state, stage, partitions done / total and timings.\n" CZ_CLIENT_USAGE
               "  Exit: 0 ok, 1 unknown job, 2 usage, 3 daemon unreachable.\n");
}

int cmd_status(int argc, char **argv)
{
    id_opts o;
    int p = parse_id_cmd(argc, argv, &o, status_usage, false);
    if (p)
        return p > 0 ? CZ_EXIT_OK : CZ_EXIT_USAGE;
    char path[64];
    snprintf(path, sizeof path, "/v1/proofs/%s", o.id);
    json_t *st = NULL;
    int rc = cz_client_json(&o.cl, "cuzk status", "GET", path, NULL, &st, NULL);
    if (rc == CZ_EXIT_OK) {
        if (o.cl.json)
            print_json(st);
        else
            print_status(st);
    }
    json_decref(st);
    return rc;
}

static void wait_usage(FILE *f)
{
    fprintf(f, "usage: cuzk wait ID [--timeout S] [--quiet] [common]\n"
               "  Follows the job until it ends, with a progress bar on a TTY (plain lines\n"
               "  otherwise; none with --quiet or --json).\n" CZ_CLIENT_USAGE
               "  Exit: 0 done, 1 failed or canceled, 2 usage, 3 unreachable, 4 timeout.\n");
}

int cmd_wait(int argc, char **argv)
{
    id_opts o;
    int p = parse_id_cmd(argc, argv, &o, wait_usage, false);
    if (p)
        return p > 0 ? CZ_EXIT_OK : CZ_EXIT_USAGE;
    json_t *st = NULL;
    int rc = cz_client_follow(&o.cl, "cuzk wait", o.id, o.timeout, o.quiet || o.cl.json, &st);
    if (st) {
        if (o.cl.json)
            print_json(st);
        else
            print_status(st);
    }
    json_decref(st);
    return rc;
}

static void cancel_usage(FILE *f)
{
    fprintf(f, "usage: cuzk cancel ID [common]\n"
               "  Cancels the job: queued partitions are dropped at once, running ones at\n"
               "  their next stage boundary. Cancelling an ended job is not an error.\n"
               CZ_CLIENT_USAGE "  Exit: 0 ok, 1 unknown job, 2 usage, 3 unreachable.\n");
}

int cmd_cancel(int argc, char **argv)
{
    id_opts o;
    int p = parse_id_cmd(argc, argv, &o, cancel_usage, false);
    if (p)
        return p > 0 ? CZ_EXIT_OK : CZ_EXIT_USAGE;
    char path[64];
    snprintf(path, sizeof path, "/v1/proofs/%s", o.id);
    json_t *st = NULL;
    int rc = cz_client_json(&o.cl, "cuzk cancel", "DELETE", path, NULL, &st, NULL);
    if (rc == CZ_EXIT_OK) {
        if (o.cl.json)
            print_json(st);
        else
            print_status_line(st);
    }
    json_decref(st);
    return rc;
}

static void proof_usage(FILE *f)
{
    fprintf(f, "usage: cuzk proof ID --out FILE [--public PUB] [--wait S] [common]\n"
               "  Writes the finished job's proof (192 bytes per partition) to FILE and its\n"
               "  public inputs (the format `cuzk verify --public` reads) to PUB, waiting up\n"
               "  to S seconds for the job to finish (default 0).\n" CZ_CLIENT_USAGE
               "  Exit: 0 written, 1 failed/canceled job or unknown id, 2 usage,\n"
               "  3 unreachable, 4 not finished within S.\n");
}

int cmd_proof(int argc, char **argv)
{
    id_opts o;
    int p = parse_id_cmd(argc, argv, &o, proof_usage, true);
    if (p)
        return p > 0 ? CZ_EXIT_OK : CZ_EXIT_USAGE;
    if (!o.out) {
        proof_usage(stderr);
        return CZ_EXIT_USAGE;
    }
    if (!cz_cli_check_output("cuzk proof", "--out", o.out) ||
        !cz_cli_check_output("cuzk proof", "--public", o.pub))
        return CZ_EXIT_USAGE;
    size_t parts = 0;
    int rc = cz_client_fetch_proof(&o.cl, "cuzk proof", o.id, o.timeout < 0 ? 0 : o.timeout, o.out,
                                   o.pub, &parts);
    if (rc == CZ_EXIT_OK) {
        if (o.cl.json)
            printf("{\"id\":\"%s\",\"proof\":\"%s\",\"partitions\":%zu}\n", o.id, o.out, parts);
        else
            printf("proof of %s written to %s (%zu partition%s)\n", o.id, o.out, parts,
                   parts == 1 ? "" : "s");
    }
    return rc;
}

/* ---- list / daemon-status ------------------------------------------------ */

/* The states a job can be in (docs/API.md; daemon/api.c checks the same list). */
/* the states cuzkd's GET /v1/jobs?state= takes (daemon/api.c) */
#define JOB_STATES "queued, running, done, failed, canceled, lost"

static bool job_state_ok(const char *s)
{
    static const char *const states[] = { "queued", "running", "done", "failed", "canceled",
                                          "lost" };
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
        if (!strcmp(s, states[i]))
            return true;
    return false;
}

static int simple_get(int argc, char **argv, const char *who, const char *usage_text,
                      bool state_opt, json_t **out, cz_client_t *cl)
{
    static const struct option longopts[] = {
        { "state", required_argument, 0, 's' }, { "help", no_argument, 0, 'h' },
        CZ_CLIENT_LONGOPTS, { 0, 0, 0, 0 },
    };
    const char *state = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        if (cz_client_opt(cl, c, optarg))
            continue;
        if (c == 's' && state_opt && !job_state_ok(optarg)) {
            fprintf(stderr, "%s: --state '%s' is not one of %s\n", who, optarg, JOB_STATES);
            return CZ_EXIT_USAGE;
        } else if (c == 's' && state_opt)
            state = optarg;
        else if (c == 'h') {
            fputs(usage_text, stdout);
            return -1;
        } else {
            fputs(usage_text, stderr);
            return CZ_EXIT_USAGE;
        }
    }
    if (optind != argc) {
        fputs(usage_text, stderr);
        return CZ_EXIT_USAGE;
    }
    cz_client_init(cl);
    char path[96];
    snprintf(path, sizeof path, "%s%s%.32s", state_opt ? "/v1/proofs" : "/v1/status",
             state ? "?state=" : "", state ? state : "");
    return cz_client_json(cl, who, "GET", path, NULL, out, NULL);
}

int cmd_list(int argc, char **argv)
{
    cz_client_t cl = { 0 };
    json_t *o = NULL;
    int rc = simple_get(argc, argv, "cuzk list",
                        "usage: cuzk list [--state queued|running|done|failed|canceled] [common]\n"
                        "  The daemon's jobs, newest first.\n" CZ_CLIENT_USAGE
                        "  Exit: 0 ok, 2 usage, 3 daemon unreachable.\n",
                        true, &o, &cl);
    if (rc < 0)
        return CZ_EXIT_OK;
    if (rc == CZ_EXIT_OK) {
        if (cl.json)
            print_json(o);
        else {
            json_t *jobs = json_object_get(o, "jobs"), *j;
            size_t i;
            json_array_foreach(jobs, i, j)
                print_status_line(j);
            if (!json_array_size(jobs))
                printf("no jobs\n");
        }
    }
    json_decref(o);
    return rc;
}

int cmd_daemon_status(int argc, char **argv)
{
    cz_client_t cl = { 0 };
    json_t *o = NULL;
    int rc = simple_get(argc, argv, "cuzk daemon-status",
                        "usage: cuzk daemon-status [common]\n"
                        "  Devices, workers, queue depth, memory budget use and the params cache.\n"
                        CZ_CLIENT_USAGE "  Exit: 0 ok, 2 usage, 3 daemon unreachable.\n",
                        false, &o, &cl);
    if (rc < 0)
        return CZ_EXIT_OK;
    if (rc == CZ_EXIT_OK && cl.json)
        print_json(o);
    else if (rc == CZ_EXIT_OK) {
        json_t *q = json_object_get(o, "queue"), *m = json_object_get(o, "memory");
        json_t *pc = json_object_get(o, "params_cache"), *jobs = json_object_get(o, "jobs"), *d;
        printf("cuzkd %s, up %.0f s%s\n", json_string_value(json_object_get(o, "version")),
               json_number_value(json_object_get(o, "uptime_s")),
               json_is_true(json_object_get(o, "stopping")) ? " (shutting down)" : "");
        size_t i;
        json_array_foreach(json_object_get(o, "devices"), i, d)
            printf("device %lld (%s): %lld workers, busy %.1f s, efficiency %.1f%%%s\n",
                   json_integer_value(json_object_get(d, "index")),
                   json_string_value(json_object_get(d, "backend")),
                   json_integer_value(json_object_get(d, "workers")),
                   json_number_value(json_object_get(d, "busy_s")),
                   100 * json_number_value(json_object_get(d, "efficiency")),
                   json_is_true(json_object_get(d, "failed")) ? ", FAILED" : "");
        printf("jobs: %lld queued, %lld running, %lld done, %lld failed, %lld canceled\n",
               json_integer_value(json_object_get(jobs, "queued")),
               json_integer_value(json_object_get(jobs, "running")),
               json_integer_value(json_object_get(jobs, "done")),
               json_integer_value(json_object_get(jobs, "failed")),
               json_integer_value(json_object_get(jobs, "canceled")));
        printf("queue: %lld staged jobs, %lld engine partitions, %lld for devices\n",
               json_integer_value(json_object_get(q, "staged")),
               json_integer_value(json_object_get(q, "engine_partitions")),
               json_integer_value(json_object_get(q, "device")));
        printf("memory: %.1f MiB reserved of %.1f MiB (peak %.1f MiB)\n",
               (double)json_integer_value(json_object_get(m, "reserved")) / 1048576.0,
               (double)json_integer_value(json_object_get(m, "budget")) / 1048576.0,
               (double)json_integer_value(json_object_get(m, "peak")) / 1048576.0);
        printf("params cache: %lld loaded, %.1f MiB of %.1f MiB\n",
               json_integer_value(json_object_get(pc, "loaded")),
               (double)json_integer_value(json_object_get(pc, "bytes")) / 1048576.0,
               (double)json_integer_value(json_object_get(pc, "budget")) / 1048576.0);
        json_array_foreach(json_object_get(pc, "entries"), i, d)
            printf("  %s  %.1f MiB, %lld users\n", json_string_value(json_object_get(d, "path")),
                   (double)json_integer_value(json_object_get(d, "bytes")) / 1048576.0,
                   json_integer_value(json_object_get(d, "users")));
    }
    json_decref(o);
    return rc;
}

/* ---- prove through the daemon ------------------------------------------- */

int cz_cli_prove_daemon(cz_client_t *cl, const char *circuit, const char *params,
                        size_t partitions, size_t seed, const char *proof_path,
                        const char *public_path, int priority, const char *request_id)
{
    cz_client_init(cl);
    json_t *req = json_pack("{s:s,s:s,s:s,s:I,s:I,s:i}", "kind", "circuit", "circuit", circuit,
                            "params", params, "partitions", (json_int_t)partitions, "seed",
                            (json_int_t)(seed ? seed : 1), "priority", priority);
    if (req && request_id)
        json_object_set_new(req, "request_id", json_string(request_id));
    char id[32];
    int rc = req ? do_submit(cl, req, "cuzk prove", id, false) : CZ_EXIT_FAIL;
    json_decref(req);
    if (rc)
        return rc;
    if (!cl->json)
        fprintf(stderr, "job %s submitted to cuzkd\n", id);
    json_t *st = NULL;
    rc = cz_client_follow(cl, "cuzk prove", id, -1, cl->json, &st);
    if (rc == CZ_EXIT_OK) {
        size_t parts = 0;
        rc = cz_client_fetch_proof(cl, "cuzk prove", id, 0, proof_path, public_path, &parts);
        if (rc == CZ_EXIT_OK && cl->json) {
            json_object_set_new(st, "proof_file", json_string(proof_path));
            print_json(st);
        } else if (rc == CZ_EXIT_OK) {
            print_status(st);
            printf("proof written to %s (%zu bytes, %zu partition%s, verified by cuzkd)\n",
                   proof_path, parts * 192, parts, parts == 1 ? "" : "s");
        }
    } else if (st) {
        if (cl->json)
            print_json(st);
        else
            print_status(st);
    }
    json_decref(st);
    return rc;
}
