/*
 * cli/cmd_circuit.c — `cuzk circuit`: facts about circuits without proving.
 *
 *   cuzk circuit shape --kind porep-c2 --sector-size SIZE [--json] [--threads N]
 *   cuzk circuit shape --kind porep-c2 --nodes N --layers L --challenges C
 *                      --tree BASE-SUB-TOP [--json] [--threads N]
 *   cuzk circuit shape --kind winning-post|window-post --sector-size SIZE [--json]
 *                      [--threads N]
 *   cuzk circuit shape --circuit ID [--json]           (toy, bench:N, porep:SIZE)
 *
 * Synthesizes one partition in SHAPE mode (no field arithmetic on values)
 * and prints the circuit's own constraints (bellpepper TestConstraintSystem
 * count), rows (constraints + one per input: the length of a/b/c), inputs
 * (ONE included), aux and the density popcounts. With --json one object:
 * {"constraints", "rows", "inputs", "aux", "a_aux_density",
 * "b_input_density", "b_aux_density", "seconds"}. --threads sets the pool
 * width the porep challenges are synthesized on (0 = all CPUs, default).
 * Exit codes: 0, 1 (synthesis failed), 2 (usage).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "circuits/porep/stacked.h"
#include "circuits/post/fallback.h"
#include "circuits/registry.h"
#include "cli/cli.h"

static const char CIRCUIT_USAGE[] =
    "usage: cuzk circuit shape --kind porep-c2 --sector-size SIZE [--json] [--threads N]\n"
    "       cuzk circuit shape --kind snap --sector-size SIZE [--json]\n"
    "       cuzk circuit shape --kind porep-c2 --nodes N --layers L --challenges C\n"
    "                          --tree BASE-SUB-TOP [--json] [--threads N]\n"
    "       cuzk circuit shape --kind winning-post|window-post --sector-size SIZE [--json]\n"
    "                          [--threads N]\n"
    "       cuzk circuit shape --circuit ID [--json]\n"
    "  SIZE: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB; tree e.g. 8-0-0, 8-8-0, 8-8-2\n";

static int usage_error(const char *why)
{
    if (why)
        fprintf(stderr, "cuzk circuit: %s\n", why);
    fputs(CIRCUIT_USAGE, stderr);
    return CZ_EXIT_USAGE;
}

typedef struct {
    const char *kind, *sector, *circuit, *tree;
    const char *nodes, *layers, *challenges;
    bool json;
    unsigned threads;
} shape_opts_t;

static bool parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s)
        return false;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end)
        return false;
    *out = v;
    return true;
}

static int porep_params(const shape_opts_t *o, cz_porep_params_t *p)
{
    if (o->sector) {
        uint64_t bytes;
        if (o->nodes || o->layers || o->challenges || o->tree)
            return usage_error("--sector-size excludes --nodes/--layers/--challenges/--tree");
        if (cz_porep_parse_size(o->sector, &bytes) || cz_porep_params_sector(p, bytes))
            return usage_error("--sector-size wants 2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
        return CZ_EXIT_OK;
    }
    uint64_t nodes, layers, challenges;
    unsigned base, sub, top;
    char tail;
    if (!parse_u64(o->nodes, &nodes) || !parse_u64(o->layers, &layers) ||
        !parse_u64(o->challenges, &challenges) || !o->tree ||
        sscanf(o->tree, "%u-%u-%u%c", &base, &sub, &top, &tail) != 3)
        return usage_error("want --sector-size, or --nodes, --layers, --challenges and --tree");
    if (layers > 64 || challenges > 1u << 20 ||
        cz_porep_params_make(p, nodes, (unsigned)layers, (unsigned)challenges, base, sub, top))
        return usage_error("invalid configuration (nodes must fill the tree; layers 2, 4, 8 "
                           "or 11; arities 2, 4, 8; top needs sub)");
    return CZ_EXIT_OK;
}

static int cmd_shape(int argc, char **argv)
{
    shape_opts_t o = { 0 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = !strcmp(a, "--kind")          ? &o.kind
                            : !strcmp(a, "--sector-size") ? &o.sector
                            : !strcmp(a, "--circuit")     ? &o.circuit
                            : !strcmp(a, "--tree")        ? &o.tree
                            : !strcmp(a, "--nodes")       ? &o.nodes
                            : !strcmp(a, "--layers")      ? &o.layers
                            : !strcmp(a, "--challenges")  ? &o.challenges
                                                          : NULL;
        if (slot) {
            if (i + 1 >= argc)
                return usage_error("option needs a value");
            *slot = argv[++i];
        } else if (!strcmp(a, "--json")) {
            o.json = true;
        } else if (!strcmp(a, "--threads")) {
            uint64_t t;
            if (i + 1 >= argc || !parse_u64(argv[++i], &t) || t > 1024)
                return usage_error("--threads wants a number");
            o.threads = (unsigned)t;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(CIRCUIT_USAGE, stdout);
            return CZ_EXIT_OK;
        } else {
            return usage_error("unknown option");
        }
    }
    char snap_id[48];
    if (!o.circuit && o.kind && !strcmp(o.kind, "snap")) {
        /* the SnapDeals update circuit of one partition (circuits/update) */
        if (!o.sector || snprintf(snap_id, sizeof snap_id, "snap:%s", o.sector) >= (int)sizeof snap_id)
            return usage_error("--kind snap wants --sector-size SIZE");
        o.circuit = snap_id;
    }
    cz_post_kind_t post_kind;
    const bool post = !o.circuit && o.kind && cz_post_kind_parse(o.kind, &post_kind) == CZ_OK &&
                      strchr(o.kind, '-');
    cz_post_params_t pp;
    if (post) {
        uint64_t bytes;
        if (!o.sector || o.nodes || o.layers || o.challenges || o.tree)
            return usage_error("--kind winning-post/window-post takes --sector-size only");
        if (cz_porep_parse_size(o.sector, &bytes) || cz_post_params_sector(&pp, post_kind, bytes))
            return usage_error("--sector-size wants 2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
    } else if (!o.circuit && (!o.kind || strcmp(o.kind, "porep-c2"))) {
        return usage_error("want --kind porep-c2|winning-post|window-post|snap or --circuit ID");
    }

    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, o.threads)) {
        fprintf(stderr, "cuzk circuit: out of memory\n");
        return CZ_EXIT_FAIL;
    }
    int rc, exit_code = CZ_EXIT_OK;
    size_t rows = 0, inputs = 0, aux = 0, constraints = 0, pop[3] = { 0 };
    double t0 = cz_mono_s();
    if (o.circuit) {
        cz_circuit_t c;
        rc = cz_circuit_parse(ctx, o.circuit, &c);
        if (rc) {
            fprintf(stderr, "cuzk circuit: %s\n", cz_ctx_message(ctx));
            cz_ctx_free(ctx);
            return CZ_EXIT_USAGE;
        }
        rc = cz_circuit_shape(ctx, &c, &rows, &inputs, &aux, pop);
        constraints = rows - inputs;
    } else {
        cz_porep_params_t p;
        if (!post && (exit_code = porep_params(&o, &p)) != CZ_EXIT_OK) {
            cz_ctx_free(ctx);
            return exit_code;
        }
        cz_cs_t *cs;
        rc = cz_cs_new(&cs, ctx, CZ_CS_SHAPE);
        if (!rc) {
            rc = post ? cz_post_synthesize(ctx, cs, &pp, NULL) : cz_porep_synthesize(ctx, cs, &p, NULL);
            if (!rc)
                rc = cz_cs_finish(cs);
            constraints = cz_cs_num_constraints(cs);
            rows = cz_cs_num_rows(cs);
            inputs = cz_cs_num_inputs(cs);
            aux = cz_cs_num_aux(cs);
            for (int k = 0; k < 3; k++)
                cz_cs_density(cs, (cz_density_t)k, NULL, &pop[k]);
            cz_cs_free(cs);
        }
    }
    double secs = cz_mono_s() - t0;
    if (rc) {
        fprintf(stderr, "cuzk circuit: %s: %s\n", cz_err_name(rc), cz_ctx_message(ctx));
        exit_code = CZ_EXIT_FAIL;
    } else if (o.json) {
        printf("{\"constraints\": %zu, \"rows\": %zu, \"inputs\": %zu, \"aux\": %zu, "
               "\"a_aux_density\": %zu, \"b_input_density\": %zu, \"b_aux_density\": %zu, "
               "\"seconds\": %.3f}\n",
               constraints, rows, inputs, aux, pop[CZ_DENSITY_A_AUX], pop[CZ_DENSITY_B_INPUT],
               pop[CZ_DENSITY_B_AUX], secs);
    } else {
        printf("constraints      %zu\n"
               "rows             %zu\n"
               "inputs           %zu\n"
               "aux              %zu\n"
               "a_aux_density    %zu\n"
               "b_input_density  %zu\n"
               "b_aux_density    %zu\n"
               "seconds          %.3f\n",
               constraints, rows, inputs, aux, pop[CZ_DENSITY_A_AUX], pop[CZ_DENSITY_B_INPUT],
               pop[CZ_DENSITY_B_AUX], secs);
    }
    cz_ctx_free(ctx);
    return exit_code;
}

int cmd_circuit(int argc, char **argv)
{
    static const cz_cli_command sub[] = {
        { "shape", cmd_shape, "constraints, rows, inputs, aux, densities (SHAPE mode)" },
    };
    return cz_cli_dispatch("cuzk circuit", sub, sizeof sub / sizeof sub[0], CIRCUIT_USAGE,
                           argc, argv);
}
