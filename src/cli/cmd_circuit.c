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
#include "cli/options.h"

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

static int porep_params(const shape_opts_t *o, cz_porep_params_t *p)
{
    if (o->sector) {
        if (cz_porep_params_sector(p, o->sector))
            return usage_error("--sector-size: no PoRep circuit of that size");
        return CZ_EXIT_OK;
    }
    unsigned base, sub, top;
    char tail;
    if (!o->tree)
        return usage_error("want --sector-size, or --nodes, --layers, --challenges and --tree");
    if (sscanf(o->tree, "%u-%u-%u%c", &base, &sub, &top, &tail) != 3)
        return usage_error("--tree wants BASE-SUB-TOP, e.g. 8-0-0, 8-8-0, 8-8-2");
    if (cz_porep_params_make(p, o->nodes, (unsigned)o->layers, (unsigned)o->challenges, base, sub,
                             top))
        return usage_error("invalid configuration (nodes must fill the tree; layers 2, 4, 8 "
                           "or 11; arities 2, 4, 8; top needs sub)");
    return CZ_EXIT_OK;
}

static int cmd_shape(int argc, char **argv)
{
    shape_opts_t o;
    int go = cz_opts_parse(&SHAPE_SPEC, &o, argc, argv, NULL);
    if (go != CZ_OPTS_RUN)
        return go;
    char snap_id[48];
    if (!o.circuit && !strcmp(o.kind, "snap")) {
        /* the SnapDeals update circuit of one partition (circuits/snap) */
        if (!o.sector)
            return usage_error("--kind snap wants --sector-size SIZE");
        snprintf(snap_id, sizeof snap_id, "snap:%s", cz_opt_sector_name(o.sector));
        o.circuit = snap_id;
    }
    cz_post_kind_t post_kind;
    const bool post = !o.circuit && cz_post_kind_parse(o.kind, &post_kind) == CZ_OK;
    cz_post_params_t pp;
    if (post) {
        if (!o.sector || o.nodes)
            return usage_error("--kind winning-post/window-post takes --sector-size only");
        if (cz_post_params_sector(&pp, post_kind, o.sector))
            return usage_error("--sector-size: no PoSt circuit of that size");
    }
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, (unsigned)o.threads)) {
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
            rc = post ? cz_post_synthesize(ctx, cs, &pp, NULL)
                      : cz_porep_synthesize(ctx, cs, &p, NULL);
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
    return cz_cli_dispatch("cuzk circuit", sub, sizeof sub / sizeof sub[0],
                           "usage: cuzk circuit shape ...   (cuzk circuit shape --help)", argc,
                           argv);
}
