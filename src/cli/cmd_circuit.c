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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cuzk.h"

typedef struct {
    const char *kind, *circuit, *tree;
    uint64_t sector, nodes, layers, challenges;
    size_t threads;
    bool json;
} shape_opts_t;

static const char *const SHAPE_KINDS[] = { "porep-c2", "snap", "winning-post", "window-post",
                                           NULL };

static const cz_opt SHAPE_OPTS[] = {
    { "kind", 0, CZ_O_ENUM(shape_opts_t, kind), .values = SHAPE_KINDS,
      .help = "one partition of this proof's circuit" },
    CZ_OPT_SECTOR_SIZE(shape_opts_t, sector, "the sector size"),
    { "circuit", 0, CZ_O_STRING(shape_opts_t, circuit), .arg = "ID",
      .help = "any registered circuit instead (toy, bench:N, porep:SIZE, snap:SIZE, ...)" },
    { "nodes", 0, CZ_O_U64(shape_opts_t, nodes), .help = "porep-c2 of a custom graph: nodes" },
    { "layers", 0, CZ_O_U64(shape_opts_t, layers), .max = 64, .arg = "L",
      .help = "its layers (2, 4, 8 or 11)" },
    { "challenges", 0, CZ_O_U64(shape_opts_t, challenges), .max = 1u << 20, .arg = "C",
      .help = "its challenges per partition" },
    { "tree", 0, CZ_O_STRING(shape_opts_t, tree), .arg = "BASE-SUB-TOP",
      .help = "its tree arities, e.g. 8-0-0, 8-8-0, 8-8-2" },
    CZ_OPT_JSON(shape_opts_t, json, "one JSON object"),
    CZ_OPT_THREADS(shape_opts_t, threads),
};
static const cz_opt_rule SHAPE_RULES[] = {
    CZ_RULE(ONE_OF, "kind", "circuit"),
    CZ_RULE(EXCLUSIVE, "circuit", "sector-size"),
    CZ_RULE(EXCLUSIVE, "sector-size", "nodes"),
    CZ_RULE(EXCLUSIVE, "sector-size", "layers"),
    CZ_RULE(EXCLUSIVE, "sector-size", "challenges"),
    CZ_RULE(EXCLUSIVE, "sector-size", "tree"),
    CZ_RULE(TOGETHER, "nodes", "layers", "challenges", "tree"),
    CZ_RULE(NEEDS, "nodes", "kind"),
};
static const cz_opts_spec SHAPE_SPEC = {
    .cmd = "cuzk circuit shape",
    .usage =
        "usage: cuzk circuit shape --kind porep-c2 --sector-size SIZE [--json] [--threads N]\n"
        "       cuzk circuit shape --kind snap --sector-size SIZE [--json]\n"
        "       cuzk circuit shape --kind porep-c2 --nodes N --layers L --challenges C\n"
        "                          --tree BASE-SUB-TOP [--json] [--threads N]\n"
        "       cuzk circuit shape --kind winning-post|window-post --sector-size SIZE [--json]\n"
        "                          [--threads N]\n"
        "       cuzk circuit shape --circuit ID [--json]\n",
    .about = "  Synthesizes one partition in SHAPE mode (no field arithmetic on values) and\n"
             "  prints the circuit's own constraints, rows (constraints + one per input),\n"
             "  inputs (ONE included), aux and the density popcounts. Exit 0, 1 (synthesis\n"
             "  failed), 2 (usage).\n",
    CZ_OPTS(SHAPE_OPTS),
    CZ_RULES(SHAPE_RULES),
};

static int usage_error(const char *why)
{
    return cz_opts_error(&SHAPE_SPEC, "%s", why);
}

/* The registry id of --nodes/--layers/--challenges/--tree (cuzk.h cz_circuit_describe). */
static int graph_id(const shape_opts_t *o, char *id, size_t cap)
{
    unsigned base, sub, top;
    char tail;
    if (!o->tree)
        return usage_error("want --sector-size, or --nodes, --layers, --challenges and --tree");
    if (sscanf(o->tree, "%u-%u-%u%c", &base, &sub, &top, &tail) != 3)
        return usage_error("--tree wants BASE-SUB-TOP, e.g. 8-0-0, 8-8-0, 8-8-2");
    snprintf(id, cap, "porep-graph:%" PRIu64 ":%" PRIu64 ":%" PRIu64 ":%u-%u-%u", o->nodes,
             o->layers, o->challenges, base, sub, top);
    return CZ_EXIT_OK;
}

static int cmd_shape(int argc, char **argv)
{
    shape_opts_t o;
    int go = cz_opts_parse(&SHAPE_SPEC, &o, argc, argv, NULL);
    if (go != CZ_OPTS_RUN)
        return go;
    /* through cuzk.h: a kind's circuit of a sector size, a custom PoRep graph
     * (porep-graph:...) or any registry circuit, described in SHAPE mode */
    char graph[96];
    const char *kind = o.circuit ? NULL : o.kind;
    if (kind && !o.sector) {
        if (strcmp(kind, "porep-c2"))
            return usage_error(!strcmp(kind, "snap") ? "--kind snap wants --sector-size SIZE"
                                                     : "--kind winning-post/window-post takes "
                                                       "--sector-size only");
        int ex = graph_id(&o, graph, sizeof graph);
        if (ex != CZ_EXIT_OK)
            return ex;
        o.circuit = graph;
        kind = NULL;
    }
    cz_circuit_shape_t sh;
    cz_error_t err;
    int rc = cz_circuit_describe(kind, o.sector, o.circuit, (unsigned)o.threads, &sh, &err);
    int exit_code = CZ_EXIT_OK;
    if (rc == CZ_EINVAL && !sh.circuit[0] && o.circuit == graph)
        return usage_error("invalid configuration (nodes must fill the tree; layers 2, 4, 8 "
                           "or 11; arities 2, 4, 8; top needs sub)");
    if (rc == CZ_EINVAL && !sh.circuit[0]) {
        /* the request itself: an unknown circuit id, a size with no circuit */
        fprintf(stderr, "cuzk circuit: %s\n", err.message);
        return CZ_EXIT_USAGE;
    }
    if (rc) {
        fprintf(stderr, "cuzk circuit: %s: %s\n", cz_err_name(rc), err.message);
        exit_code = CZ_EXIT_FAIL;
    } else if (o.json) {
        printf("{\"constraints\": %zu, \"rows\": %zu, \"inputs\": %zu, \"aux\": %zu, "
               "\"a_aux_density\": %zu, \"b_input_density\": %zu, \"b_aux_density\": %zu, "
               "\"seconds\": %.3f}\n",
               sh.constraints, sh.rows, sh.inputs, sh.aux, sh.a_aux_density, sh.b_input_density,
               sh.b_aux_density, sh.seconds);
    } else {
        printf("constraints      %zu\n"
               "rows             %zu\n"
               "inputs           %zu\n"
               "aux              %zu\n"
               "a_aux_density    %zu\n"
               "b_input_density  %zu\n"
               "b_aux_density    %zu\n"
               "seconds          %.3f\n",
               sh.constraints, sh.rows, sh.inputs, sh.aux, sh.a_aux_density, sh.b_input_density,
               sh.b_aux_density, sh.seconds);
    }
    return exit_code;
}

int cmd_circuit(int argc, char **argv)
{
    static const cz_cli_command sub[] = {
        { "shape", cmd_shape, "constraints, rows, inputs, aux, densities (SHAPE mode)" },
    };
    return cz_cli_dispatch("cuzk circuit", sub, sizeof sub / sizeof sub[0],
                           "usage: cuzk circuit shape ...   (cuzk circuit shape --help)", argc,
                           argv);
}
