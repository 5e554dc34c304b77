/*
 * cli/cmd_client.c — `cuzk submit|status|wait|proof|cancel|list|daemon-status`:
 * the client commands of cuzkd's HTTP API (docs/API.md), and `cuzk prove`
 * through the daemon. Exit codes: cli/client.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
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

typedef struct {
    const char *circuit, *params, *priority, *request_id, *kind, *input, *input_path;
    size_t partitions;
    uint64_t seed;
    cz_opt_client_t cl;
} submit_opts_t;

static const cz_opt SUBMIT_OPTS[] = {
    { "kind", 0, CZ_O_STRING(submit_opts_t, kind), .arg = "K", .def = "circuit",
      .help =
          "the job kind, by name: one of cuzkd's (its GET /v1/status lists them; docs/API.md)" },
    { "circuit", 0, CZ_O_STRING(submit_opts_t, circuit), .arg = "ID",
      .help = "the circuit (kind circuit)" },
    { "params", 0, CZ_O_STRING(submit_opts_t, params), .arg = "NAME",
      .help = "a params file in the daemon's params.dir (or an absolute path it may read)" },
    { "partitions", 0, CZ_O_SIZE(submit_opts_t, partitions), .arg = "P",
      .help = "partitions (kind circuit)" },
    { "seed", 0, CZ_O_U64(submit_opts_t, seed), .arg = "S", .help = "the witness's seed" },
    { "priority", 0, CZ_O_STRING(submit_opts_t, priority), .arg = "low|normal|high|critical",
      .help = "the job's priority (or 1..4)" },
    { "request-id", 0, CZ_O_STRING(submit_opts_t, request_id), .arg = "R",
      .help = "idempotency key: resubmitting the same R returns the same job" },
    { "input", 0, CZ_O_STRING(submit_opts_t, input), .arg = "FILE",
      .help = "send FILE's JSON inline" },
    { "input-path", 0, CZ_O_STRING(submit_opts_t, input_path), .arg = "PATH",
      .help = "let the daemon read PATH (made absolute here)" },
    CZ_OPT_CLIENT(submit_opts_t, cl),
};
static const cz_opt_rule SUBMIT_RULES[] = {
    CZ_RULE(EXCLUSIVE, "input", "input-path"),
    CZ_OPT_CLIENT_RULES,
};
static const cz_opts_spec SUBMIT_SPEC = {
    .cmd = "cuzk submit",
    .usage = "usage: cuzk submit --circuit ID --params NAME [--partitions P] [--seed S]\n"
             "                   [--priority low|normal|high|critical] [--request-id R]\n"
             "                   [--kind K] [--input FILE | --input-path PATH] [common]\n",
    .about =
        "  Submits a job to cuzkd and prints its id (with --json: the reply).\n"
        "  common: --socket PATH | --url http://HOST:PORT, --token T | --token-file F, --json\n"
        "  Exit: 0 accepted, 1 refused, 2 usage, 3 daemon unreachable.\n",
    CZ_OPTS(SUBMIT_OPTS),
    CZ_RULES(SUBMIT_RULES),
};

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
    submit_opts_t o;
    cz_opts_result_t r = { 0 };
    int go = cz_opts_parse(&SUBMIT_SPEC, &o, argc, argv, &r);
    if (go != CZ_OPTS_RUN)
        return go;
    json_t *req = json_object(), *in = NULL;
    if (o.circuit)
        json_object_set_new(req, "circuit", json_string(o.circuit));
    if (o.params)
        json_object_set_new(req, "params", json_string(o.params));
    if (cz_opts_given(&SUBMIT_SPEC, &r, "partitions"))
        json_object_set_new(req, "partitions", json_integer((json_int_t)o.partitions));
    if (cz_opts_given(&SUBMIT_SPEC, &r, "seed"))
        json_object_set_new(req, "seed", json_integer((json_int_t)o.seed));
    if (o.priority) {
        char *end;
        long p = strtol(o.priority, &end, 10);
        json_object_set_new(req, "priority",
                            *end || end == o.priority ? json_string(o.priority) : json_integer(p));
    }
    if (o.request_id)
        json_object_set_new(req, "request_id", json_string(o.request_id));
    if (o.input) {
        if (!(in = read_json_file(o.input))) {
            json_decref(req);
            return CZ_EXIT_USAGE;
        }
        json_object_set_new(req, "input", in);
    }
    if (o.input_path) {
        /* the daemon runs elsewhere (another cwd): send an absolute path */
        char abs[PATH_MAX];
        if (!realpath(o.input_path, abs)) {
            fprintf(stderr, "cuzk submit: --input-path %s: %s\n", o.input_path, strerror(errno));
            json_decref(req);
            return CZ_EXIT_USAGE;
        }
        json_object_set_new(req, "input_path", json_string(abs));
    }
    json_object_set_new(req, "kind", json_string(o.kind));
    cz_client_t cl;
    cz_client_set(&cl, &o.cl);
    char id[32];
    int rc = do_submit(&cl, req, "cuzk submit", id, true);
    json_decref(req);
    return rc;
}

/* ---- status / wait / cancel / proof: one job id -------------------------- */

/* status, wait, cancel and proof: one job id and the common options. */
typedef struct {
    const char *out, *pub;
    double timeout;
    bool quiet;
    cz_opt_client_t copts;
    /* what the command works with, after parsing */
    cz_client_t cl;
    const char *id;
} id_opts;

/* laid out by hand: */
/* clang-format off */
#define TIMEOUT_OPTS(what)                                                                   \
    { "timeout", 0, CZ_O_DOUBLE(id_opts, timeout), .arg = "S", .help = what },             \
    { "wait", 0, CZ_O_DOUBLE(id_opts, timeout), .flags = CZ_OPT_ALIAS }
/* clang-format on */

static const cz_opt ID_OPTS[] = {
    TIMEOUT_OPTS("wait: give up after S seconds (exit 4; the job goes on)"),
    { "quiet", 0, CZ_O_FLAG(id_opts, quiet), .help = "wait: no progress on stderr" },
    CZ_OPT_CLIENT(id_opts, copts),
};
static const cz_opt PROOF_OPTS[] = {
    { "out", 0, CZ_O_OUTPUT(id_opts, out), .arg = "FILE", .flags = CZ_OPT_REQUIRED,
      .help = "the proof, 192 bytes per partition" },
    { "public", 0, CZ_O_OUTPUT(id_opts, pub), .arg = "PUB",
      .help = "its public inputs (the format `cuzk verify --public` reads)" },
    TIMEOUT_OPTS("wait up to S seconds for the job to finish (default 0)"),
    { "quiet", 0, CZ_O_FLAG(id_opts, quiet), .help = "(no progress is drawn here)" },
    CZ_OPT_CLIENT(id_opts, copts),
};
static const cz_opt_rule ID_RULES[] = { CZ_OPT_CLIENT_RULES };

/* laid out by hand: */
/* clang-format off */
#define CLIENT_COMMON                                                                        \
    "  common: --socket PATH | --url http://HOST:PORT, --token T | --token-file F, --json\n"
/* clang-format on */
/* laid out by hand: */
/* clang-format off */
#define ID_SPEC(name, use, what, exits, table)                                               \
    { .cmd = "cuzk " name, .usage = "usage: cuzk " name " " use "\n",                        \
      .about = what CLIENT_COMMON exits, CZ_OPTS(table), CZ_RULES(ID_RULES),                 \
      .args = "ID", .min_args = 1, .max_args = 1 }
/* clang-format on */

static const cz_opts_spec STATUS_SPEC =
    ID_SPEC("status", "ID [common]",
            "  The job's state, stage, partitions done / total and timings.\n",
            "  Exit: 0 ok, 1 unknown job, 2 usage, 3 daemon unreachable.\n", ID_OPTS);
static const cz_opts_spec WAIT_SPEC =
    ID_SPEC("wait", "ID [--timeout S] [--quiet] [common]",
            "  Follows the job until it ends, with a progress bar on a TTY (plain lines\n"
            "  otherwise; none with --quiet or --json).\n",
            "  Exit: 0 done, 1 failed or canceled, 2 usage, 3 unreachable, 4 timeout.\n", ID_OPTS);
static const cz_opts_spec CANCEL_SPEC =
    ID_SPEC("cancel", "ID [common]",
            "  Cancels the job: queued partitions are dropped at once, running ones at\n"
            "  their next stage boundary. Cancelling an ended job is not an error.\n",
            "  Exit: 0 ok, 1 unknown job, 2 usage, 3 unreachable.\n", ID_OPTS);
static const cz_opts_spec PROOF_SPEC =
    ID_SPEC("proof", "ID --out FILE [--public PUB] [--wait S] [common]",
            "  Writes the finished job's proof and its public inputs, waiting up to S\n"
            "  seconds for the job to finish.\n",
            "  Exit: 0 written, 1 failed/canceled job or unknown id, 2 usage,\n"
            "  3 unreachable, 4 not finished within S.\n",
            PROOF_OPTS);

/* CZ_OPTS_RUN with *o ready, or the exit code (help, usage error). */
static int parse_id_cmd(const cz_opts_spec *spec, int argc, char **argv, id_opts *o)
{
    cz_opts_result_t r = { 0 };
    memset(o, 0, sizeof *o);
    int go = cz_opts_parse(spec, o, argc, argv, &r);
    if (go != CZ_OPTS_RUN)
        return go;
    if (!cz_opts_given(spec, &r, "timeout"))
        o->timeout = -1; /* none: wait follows the job to its end */
    o->id = r.args[0];
    if (!job_id_ok(o->id))
        return cz_opts_error(spec, "'%s' is not a job id (16 hex digits)", o->id);
    cz_client_set(&o->cl, &o->copts);
    return CZ_OPTS_RUN;
}

int cmd_status(int argc, char **argv)
{
    id_opts o;
    int p = parse_id_cmd(&STATUS_SPEC, argc, argv, &o);
    if (p != CZ_OPTS_RUN)
        return p;
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

int cmd_wait(int argc, char **argv)
{
    id_opts o;
    int p = parse_id_cmd(&WAIT_SPEC, argc, argv, &o);
    if (p != CZ_OPTS_RUN)
        return p;
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

int cmd_cancel(int argc, char **argv)
{
    id_opts o;
    int p = parse_id_cmd(&CANCEL_SPEC, argc, argv, &o);
    if (p != CZ_OPTS_RUN)
        return p;
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

int cmd_proof(int argc, char **argv)
{
    id_opts o;
    int p = parse_id_cmd(&PROOF_SPEC, argc, argv, &o);
    if (p != CZ_OPTS_RUN)
        return p;
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

/* The states a job can be in: those cuzkd's GET /v1/proofs?state= takes
 * (docs/API.md; daemon/api.c checks the same list). */
static const char *const JOB_STATE_NAMES[] = { "queued",   "running", "done", "failed",
                                               "canceled", "lost",    NULL };

typedef struct {
    const char *state;
    cz_opt_client_t cl;
} get_opts_t;

static const cz_opt LIST_OPTS[] = {
    { "state", 0, CZ_O_ENUM(get_opts_t, state), .values = JOB_STATE_NAMES,
      .help = "only the jobs in this state (lost: tombstones of jobs a restart lost)" },
    CZ_OPT_CLIENT(get_opts_t, cl),
};
static const cz_opt DSTATUS_OPTS[] = { CZ_OPT_CLIENT(get_opts_t, cl) };
static const cz_opt_rule GET_RULES[] = { CZ_OPT_CLIENT_RULES };
static const cz_opts_spec LIST_SPEC = {
    .cmd = "cuzk list",
    .usage = "usage: cuzk list [--state queued|running|done|failed|canceled|lost] [common]\n",
    .about = "  The daemon's jobs, newest first.\n" CLIENT_COMMON
             "  Exit: 0 ok, 2 usage, 3 daemon unreachable.\n",
    CZ_OPTS(LIST_OPTS),
    CZ_RULES(GET_RULES),
};
static const cz_opts_spec DSTATUS_SPEC = {
    .cmd = "cuzk daemon-status",
    .usage = "usage: cuzk daemon-status [common]\n",
    .about =
        "  Devices, workers, queue depth, memory budget use and the params cache.\n" CLIENT_COMMON
        "  Exit: 0 ok, 2 usage, 3 daemon unreachable.\n",
    CZ_OPTS(DSTATUS_OPTS),
    CZ_RULES(GET_RULES),
};

/* GET the jobs (|spec| LIST_SPEC) or the daemon's status into *out: the exit code,
 * -1 after --help. */
static int simple_get(const cz_opts_spec *spec, int argc, char **argv, json_t **out,
                      cz_client_t *cl)
{
    get_opts_t o;
    int go = cz_opts_parse(spec, &o, argc, argv, NULL);
    if (go == CZ_EXIT_OK)
        return -1;
    if (go != CZ_OPTS_RUN)
        return go;
    cz_client_set(cl, &o.cl);
    bool jobs = spec == &LIST_SPEC;
    const char *state = jobs ? o.state : NULL;
    char path[96];
    snprintf(path, sizeof path, "%s%s%.32s", jobs ? "/v1/proofs" : "/v1/status",
             state ? "?state=" : "", state ? state : "");
    return cz_client_json(cl, spec->cmd, "GET", path, NULL, out, NULL);
}

int cmd_list(int argc, char **argv)
{
    cz_client_t cl = { 0 };
    json_t *o = NULL;
    int rc = simple_get(&LIST_SPEC, argc, argv, &o, &cl);
    if (rc < 0)
        return CZ_EXIT_OK;
    if (rc == CZ_EXIT_OK) {
        if (cl.json)
            print_json(o);
        else {
            json_t *jobs = json_object_get(o, "jobs"), *j;
            size_t i;
            json_array_foreach(jobs, i, j) print_status_line(j);
            if (!json_array_size(jobs))
                printf("no jobs\n");
        }
    }
    json_decref(o);
    return rc;
}

/* A GPU device's memory plan and where its regions' time went, a partition's share
 * (nothing for a device that has proved none, or one without a plan: the CPU's). */
static void print_device_memory(json_t *d)
{
    const char *plan = json_string_value(json_object_get(d, "memory_plan"));
    const json_int_t parts = json_integer_value(json_object_get(d, "partitions"));
    if (!plan || !plan[0] || parts <= 0)
        return;
    json_t *rp = json_object_get(d, "region_parts_ms");
    const double n = (double)parts;
    printf("  memory: %s\n", plan);
    printf("  a partition's region: set-up %.1f ms, H %.1f, MSM h %.1f, prep wait %.1f, tails "
           "%.1f (%lld partitions; %.2f GiB of params to the device each)\n",
           json_number_value(json_object_get(rp, "setup")) / n,
           json_number_value(json_object_get(rp, "h")) / n,
           json_number_value(json_object_get(rp, "msm_h")) / n,
           json_number_value(json_object_get(rp, "prep_wait")) / n,
           json_number_value(json_object_get(rp, "tails")) / n, (long long)parts,
           (double)json_integer_value(json_object_get(d, "h2d_bytes")) / n / (1 << 30));
}

int cmd_daemon_status(int argc, char **argv)
{
    cz_client_t cl = { 0 };
    json_t *o = NULL;
    int rc = simple_get(&DSTATUS_SPEC, argc, argv, &o, &cl);
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
        json_t *devs = json_object_get(o, "devices");
        for (i = 0; i < json_array_size(devs); i++) {
            d = json_array_get(devs, i);
            printf("device %lld (%s): %lld workers, busy %.1f s, efficiency %.1f%%%s\n",
                   json_integer_value(json_object_get(d, "index")),
                   json_string_value(json_object_get(d, "backend")),
                   json_integer_value(json_object_get(d, "workers")),
                   json_number_value(json_object_get(d, "busy_s")),
                   100 * json_number_value(json_object_get(d, "efficiency")),
                   json_is_true(json_object_get(d, "failed")) ? ", FAILED" : "");
            print_device_memory(d);
        }
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

int cz_cli_prove_daemon(cz_client_t *cl, const char *circuit, const char *params, size_t partitions,
                        size_t seed, const char *proof_path, const char *public_path, int priority,
                        const char *request_id)
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
