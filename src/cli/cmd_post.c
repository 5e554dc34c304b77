/*
 * cli/cmd_post.c — WinningPoSt / WindowPoSt from the command line (needs
 * jansson: CUZK_HAVE_JANSSON):
 *
 *   cuzk post gen-vanilla --kind winning|window --sector-size S [--sectors N]
 *                         --random SEED -o FILE
 *   cuzk setup  --kind winning-post|window-post --sector-size S --params-dir D [--seed S]
 *   cuzk prove  --kind winning-post|window-post --input FILE --params-dir D --proof OUT
 *               [--backend cpu|cuda|auto] [--device N] [--threads T]
 *   cuzk verify --kind winning-post|window-post --params-dir D --proof OUT --input FILE
 *
 * FILE is post/input.h's JSON: what Curio sends (registered proof,
 * randomness, miner id, partition index, bincode vanilla proofs) plus the
 * public sectors. prove checks every vanilla proof against the public
 * values before it queues anything, proves through the engine, verifies
 * the proof from the public values and writes 192 bytes. verify reads only
 * the public values (randomness, prover, sector ids, comm_rs). Parameter
 * files go by their Filecoin names (post/post.h). Exit codes: 0 ok / valid,
 * 1 failed / INVALID, 2 bad input or usage.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "circuits/porep/stacked.h"
#include "circuits/post/fallback.h"
#include "cuzk/ctx.h"

#ifdef CUZK_HAVE_JANSSON
#include "backend/backend.h"
#include "cli/time_random.h"
#include "core/clock.h"
#include "engine/engine.h"
#include "post/input.h"

static int fail(cz_ctx_t *ctx, const char *cmd, int rc)
{
    fprintf(stderr, "cuzk %s: %s\n", cmd, *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    return rc;
}

/* --kind of prove/verify/setup: winning-post or window-post. */
static bool kind_of(int argc, char **argv, cz_post_kind_t *k)
{
    return cz_cli_has_kind(argc, argv, "winning-post") ? (*k = CZ_POST_WINNING, true)
           : cz_cli_has_kind(argc, argv, "window-post") ? (*k = CZ_POST_WINDOW, true)
                                                         : false;
}

bool cz_cli_post_kind(int argc, char **argv)
{
    cz_post_kind_t k;
    return kind_of(argc, argv, &k);
}

/* DIR/<Filecoin name>.EXT of |proof|'s circuit. */
static bool named(char *out, size_t cap, const char *dir, const cz_post_proof_t *proof,
                  const char *ext)
{
    cz_post_params_t p;
    char name[256];
    if (!proof || cz_post_params_sector(&p, proof->kind, proof->sector_bytes) ||
        cz_post_params_name(name, sizeof name, &p, ext))
        return false;
    int n = snprintf(out, cap, "%s/%s", dir, name);
    return n > 0 && (size_t)n < cap;
}

/* ---- gen-vanilla ------------------------------------------------------------------ */

static const char GEN_USAGE[] =
    "usage: cuzk post gen-vanilla --kind winning|window --sector-size S [--sectors N]\n"
    "                             --random SEED -o FILE\n"
    "  Seals N test sectors (default 1; S = 2KiB, 8MiB or 512MiB) and writes the\n"
    "  PoSt input FILE: randomness and miner from SEED, the public sectors, and\n"
    "  each sector's bincode vanilla proof as rust-filecoin-proofs-api writes it.\n";

static int gen_vanilla(int argc, char **argv)
{
    const char *kind = NULL, *size = NULL, *sectors = "1", *seed = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = !strcmp(argv[i], "--kind")          ? &kind
                            : !strcmp(argv[i], "--sector-size") ? &size
                            : !strcmp(argv[i], "--sectors")     ? &sectors
                            : !strcmp(argv[i], "--random")      ? &seed
                            : !strcmp(argv[i], "-o")            ? &out
                            : !strcmp(argv[i], "--out")         ? &out
                                                                : NULL;
        if (!strcmp(argv[i], "--help")) {
            fputs(GEN_USAGE, stdout);
            return CZ_EXIT_OK;
        }
        if (!slot || !v)
            goto usage;
        *slot = v;
        i++;
    }
    cz_post_kind_t k;
    uint64_t bytes;
    size_t n, s;
    if (!kind || cz_post_kind_parse(kind, &k) || !size || cz_porep_parse_size(size, &bytes) ||
        !cz_cli_parse_size(sectors, &n) || !seed || !cz_cli_parse_size(seed, &s) || !out ||
        n > 1u << 16)
        goto usage;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_FAIL;
    cz_post_input_t in;
    int rc = cz_post_gen(ctx, k, bytes, (unsigned)n, s, &in);
    if (rc == CZ_OK)
        rc = cz_post_input_save(ctx, &in, out);
    if (rc == CZ_OK)
        printf("%s: %s, %zu sector%s, miner %llu\n", out, in.proof->name, in.nsectors,
               in.nsectors == 1 ? "" : "s", (unsigned long long)in.miner_id);
    else
        fail(ctx, "post gen-vanilla", rc);
    cz_post_input_free(&in);
    cz_ctx_free(ctx);
    return rc == CZ_OK ? CZ_EXIT_OK : rc == CZ_EINVAL ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
usage:
    fputs(GEN_USAGE, stderr);
    return CZ_EXIT_USAGE;
}

int cmd_post(int argc, char **argv)
{
    static const cz_cli_command sub[] = {
        { "gen-vanilla", gen_vanilla, "seal test sectors, write their PoSt vanilla proofs" },
    };
    return cz_cli_dispatch("cuzk post", sub, sizeof sub / sizeof sub[0], GEN_USAGE, argc, argv);
}

/* ---- setup ------------------------------------------------------------------------ */

static const char SETUP_USAGE[] =
    "usage: cuzk setup --kind winning-post|window-post --sector-size S --params-dir D\n"
    "                  [--seed N] [--threads T]\n"
    "  TEST parameters (random toxic waste; never for production) under the\n"
    "  Filecoin names (v28-proof-of-spacetime-fallback-...{params,vk}) in D.\n";

int cmd_setup_post(int argc, char **argv)
{
    const char *size = NULL, *dir = NULL, *seed = NULL, *threads = NULL;
    cz_post_kind_t k;
    if (!kind_of(argc, argv, &k))
        goto usage;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            goto usage;
        if (!strcmp(argv[i], "--kind"))
            ;
        else if (!strcmp(argv[i], "--sector-size"))
            size = v;
        else if (!strcmp(argv[i], "--params-dir"))
            dir = v;
        else if (!strcmp(argv[i], "--seed"))
            seed = v;
        else if (!strcmp(argv[i], "--threads"))
            threads = v;
        else
            goto usage;
        i++;
    }
    uint64_t bytes;
    char circuit[64], pbuf[1024], vbuf[1024];
    const cz_post_proof_t *proof;
    if (!size || !dir || cz_porep_parse_size(size, &bytes) ||
        !(proof = cz_post_proof_current(k, bytes)) ||
        !named(pbuf, sizeof pbuf, dir, proof, "params") || !named(vbuf, sizeof vbuf, dir, proof, "vk"))
        goto usage;
    if (mkdir(dir, 0755) && errno != EEXIST) {
        fprintf(stderr, "cuzk setup: cannot create %s: %s\n", dir, strerror(errno));
        return CZ_EXIT_FAIL;
    }
    snprintf(circuit, sizeof circuit, "%s:%s", cz_post_kind_name(k), size);
    char *av[12] = { "setup", "--circuit", circuit, "--params", pbuf, "--vk", vbuf };
    int ac = 7;
    if (seed) {
        av[ac++] = "--seed";
        av[ac++] = (char *)seed;
    }
    if (threads) {
        av[ac++] = "--threads";
        av[ac++] = (char *)threads;
    }
    return cmd_setup(ac, av);
usage:
    fputs(SETUP_USAGE, stderr);
    return CZ_EXIT_USAGE;
}

/* ---- prove ------------------------------------------------------------------------ */

static const char PROVE_USAGE[] =
    "usage: cuzk prove --kind winning-post|window-post --input FILE --params-dir D\n"
    "                  --proof OUT [--backend cpu|cuda|auto] [--device N] [--threads T]\n"
    "       cuzk prove --kind winning-post|window-post --sector-size S --random-params\n"
    "                  [--seed N] [--backend B] [--device N] [--threads T]\n"
    "  --random-params: TIMING ONLY. Params of the partition circuit's exact shape made of\n"
    "  random points and a witness of random field elements (the real R1CS and scalar\n"
    "  distribution; the proof cannot verify and is not written). Prints the shape,\n"
    "  the params' generation time, synthesis, the device region and submit-to-done.\n";

typedef struct {
    const char *input, *dir, *proof, *backend, *size;
    size_t device, threads;
    uint64_t seed;
    bool random;
} prove_opts_t;

/* --random-params: TIMING ONLY (post/job.h cz_post_job_random, cli/time_random.h). */
static int prove_random(cz_ctx_t *ctx, const prove_opts_t *o, cz_post_kind_t kind)
{
    uint64_t bytes;
    if (cz_porep_parse_size(o->size, &bytes))
        return cz_fail(ctx, CZ_EINVAL, "--sector-size wants 2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
    cz_post_job_t job;
    cz_backend_t *be = NULL;
    double t0 = cz_mono_s();
    int rc = cz_backend_new(ctx, &be, o->backend, (int)o->device);
    if (rc == CZ_OK)
        rc = cz_post_job_random(ctx, &job, kind, bytes, o->seed);
    else
        memset(&job, 0, sizeof job);
    if (rc == CZ_OK) {
        cz_cli_time_random_t t = { .name = job.proof->name, .shape = &job.shape,
                                   .rows = job.rows, .spec = &job.spec, .seed = o->seed,
                                   .t_prepare = cz_mono_s() - t0 };
        rc = cz_cli_time_random(ctx, &be, &t);
    }
    cz_backend_free(be);
    cz_post_job_clear(&job);
    return rc;
}

static int prove_run(cz_ctx_t *ctx, const prove_opts_t *o, cz_post_kind_t kind)
{
    cz_post_input_t in;
    cz_post_job_t job;
    cz_post_request_t req;
    cz_backend_t *be = NULL;
    cz_params_t *params = NULL;
    cz_pvk_t *pvk = NULL;
    cz_engine_t *e = NULL;
    uint8_t *proof = NULL;
    size_t len = 0;
    char path[1024];
    memset(&job, 0, sizeof job);
    double t0 = cz_mono_s();
    int rc = cz_backend_new(ctx, &be, o->backend, (int)o->device);
    if (rc == CZ_OK)
        rc = cz_post_input_load(ctx, &in, o->input);
    else
        memset(&in, 0, sizeof in);
    if (rc == CZ_OK && in.proof->kind != kind)
        rc = cz_fail(ctx, CZ_EINVAL, "%s is a %s input, not %s", o->input,
                     cz_post_kind_name(in.proof->kind), cz_post_kind_name(kind));
    if (rc == CZ_OK) {
        cz_post_input_request(&in, &req);
        rc = cz_post_job_init(ctx, &job, &req, NULL, NULL);
    }
    if (rc == CZ_OK && !named(path, sizeof path, o->dir, in.proof, "params"))
        rc = cz_fail(ctx, CZ_EINVAL, "no params name for %s", in.proof->name);
    if (rc == CZ_OK) {
        cz_params_opts_t opts = { .expect = &job.shape };
        rc = cz_params_load(ctx, &params, path, &opts);
    }
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &pvk, &params->vk);
    if (rc == CZ_OK) {
        cz_engine_config_t cfg = { .backends = &be, .num_devices = 1, .pool = cz_ctx_pool(ctx),
                                   .memory_margin = ((size_t)5 << 30) + cz_params_mem_bytes(params) };
        rc = cz_engine_new(ctx, &e, &cfg);
    }
    uint64_t id = 0;
    cz_job_info_t info;
    memset(&info, 0, sizeof info);
    if (rc == CZ_OK) {
        job.spec.params = params;
        job.spec.pvk = pvk;
        rc = cz_engine_submit(e, NULL, &job.spec, &id);
        while (rc == CZ_OK && (rc = cz_engine_wait(e, id, 0.25, &info)) == CZ_EBUSY)
            rc = CZ_OK;
        if (rc == CZ_OK && info.state != CZ_JOB_DONE)
            rc = cz_fail(ctx, info.error ? info.error : CZ_EINTERNAL, "job %s: %s",
                         cz_job_state_name(info.state), info.message);
    }
    if (rc == CZ_OK)
        rc = cz_engine_proof(e, id, &proof, &len);
    if (rc == CZ_OK) {
        cz_post_public_t pub;
        cz_post_input_public(&in, &pub);
        if ((rc = cz_post_verify(ctx, pvk, proof, len, &pub)))
            cz_fail(ctx, rc, "the proof does not verify from the public values (%s)",
                    cz_strerror(rc));
    }
    if (rc == CZ_OK)
        rc = cz_cli_write_file(ctx, o->proof, proof, len);
    if (rc == CZ_OK)
        printf("proof written to %s (%s, %zu sector%s, 192 bytes, verified from public values; "
               "synthesis %.2f s, device %.2f s, total %.2f s, backend %s)\n",
               o->proof, in.proof->name, in.nsectors, in.nsectors == 1 ? "" : "s",
               info.t.synthesis / 1e3, info.t.device / 1e3, cz_mono_s() - t0, be->ops->name);
    cz_engine_free(e);
    cz_backend_free(be);
    free(proof);
    cz_pvk_free(pvk);
    cz_params_free(params);
    cz_post_job_clear(&job);
    cz_post_input_free(&in);
    return rc;
}

int cmd_prove_post(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "kind", required_argument, 0, 'k' },    { "input", required_argument, 0, 'i' },
        { "params-dir", required_argument, 0, 'd' }, { "proof", required_argument, 0, 'o' },
        { "backend", required_argument, 0, 'b' }, { "device", required_argument, 0, 'D' },
        { "threads", required_argument, 0, 't' }, { "help", no_argument, 0, 'h' },
        { "sector-size", required_argument, 0, 'S' }, { "random-params", no_argument, 0, 'R' },
        { "seed", required_argument, 0, 's' },    { 0, 0, 0, 0 },
    };
    prove_opts_t o = { NULL, NULL, NULL, "auto", NULL, 0, 0, 1, false };
    cz_post_kind_t kind;
    int c;
    if (!kind_of(argc, argv, &kind))
        goto usage;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'k': break;
        case 'i': o.input = optarg; break;
        case 'd': o.dir = optarg; break;
        case 'o': o.proof = optarg; break;
        case 'b': o.backend = optarg; break;
        case 'D': if (!cz_cli_parse_size(optarg, &o.device)) goto usage; break;
        case 't': if (!cz_cli_parse_size(optarg, &o.threads)) goto usage; break;
        case 'S': o.size = optarg; break;
        case 'R': o.random = true; break;
        case 's': o.seed = strtoull(optarg, NULL, 0); break;
        case 'h': fputs(PROVE_USAGE, stdout); return CZ_EXIT_OK;
        default: goto usage;
        }
    }
    if (optind != argc || (o.random ? (!o.size || o.input || o.dir || o.proof)
                                    : (!o.input || !o.dir || !o.proof || o.size)))
        goto usage;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, (unsigned)o.threads))
        return CZ_EXIT_FAIL;
    int rc = o.random ? prove_random(ctx, &o, kind) : prove_run(ctx, &o, kind);
    if (rc)
        fail(ctx, "prove", rc);
    cz_ctx_free(ctx);
    return rc == CZ_OK ? CZ_EXIT_OK : rc == CZ_EINVAL ? CZ_EXIT_USAGE : CZ_EXIT_FAIL;
usage:
    fputs(PROVE_USAGE, stderr);
    return CZ_EXIT_USAGE;
}

/* ---- verify ----------------------------------------------------------------------- */

static const char VERIFY_USAGE[] =
    "usage: cuzk verify --kind winning-post|window-post --params-dir D --proof P --input FILE\n"
    "  From the public values of FILE alone (randomness, miner, sector ids, comm_rs):\n"
    "  exit 0 valid, 1 INVALID, 2 bad input.\n";

int cmd_verify_post(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "kind", required_argument, 0, 'k' },  { "params-dir", required_argument, 0, 'd' },
        { "proof", required_argument, 0, 'p' }, { "input", required_argument, 0, 'i' },
        { "help", no_argument, 0, 'h' },        { 0, 0, 0, 0 },
    };
    const char *dir = NULL, *proof_path = NULL, *input = NULL;
    cz_post_kind_t kind;
    int c;
    if (!kind_of(argc, argv, &kind))
        goto usage;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'k': break;
        case 'd': dir = optarg; break;
        case 'p': proof_path = optarg; break;
        case 'i': input = optarg; break;
        case 'h': fputs(VERIFY_USAGE, stdout); return CZ_EXIT_OK;
        default: goto usage;
        }
    }
    if (optind != argc || !dir || !proof_path || !input)
        goto usage;
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, NULL, 0))
        return CZ_EXIT_FAIL;
    cz_post_input_t in;
    cz_vk_t vk = { 0 };
    cz_pvk_t *pvk = NULL;
    uint8_t *proof = NULL;
    size_t len = 0;
    char path[1024];
    int rc = cz_post_input_load(ctx, &in, input);
    if (rc == CZ_OK && in.proof->kind != kind)
        rc = cz_fail(ctx, CZ_EINVAL, "%s is a %s input", input, cz_post_kind_name(in.proof->kind));
    if (rc == CZ_OK && !named(path, sizeof path, dir, in.proof, "vk"))
        rc = cz_fail(ctx, CZ_EINVAL, "no vk name for %s", in.proof->name);
    if (rc == CZ_OK)
        rc = cz_vk_load(ctx, &vk, path);
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, proof_path, 4096, &proof, &len);
    if (rc == CZ_OK)
        rc = cz_pvk_new(ctx, &pvk, &vk);
    if (rc == CZ_OK) {
        cz_post_public_t pub;
        cz_post_input_public(&in, &pub);
        rc = cz_post_verify(ctx, pvk, proof, len, &pub);
    }
    int exit_code = rc == CZ_OK ? CZ_EXIT_OK : rc == CZ_EVERIFY ? CZ_EXIT_FAIL : CZ_EXIT_USAGE;
    if (exit_code == CZ_EXIT_OK)
        printf("valid (%s, %zu sector%s)\n", in.proof->name, in.nsectors,
               in.nsectors == 1 ? "" : "s");
    else if (exit_code == CZ_EXIT_FAIL)
        printf("INVALID proof\n");
    else
        fail(ctx, "verify", rc);
    free(proof);
    cz_pvk_free(pvk);
    cz_vk_clear(&vk);
    cz_post_input_free(&in);
    cz_ctx_free(ctx);
    return exit_code;
usage:
    fputs(VERIFY_USAGE, stderr);
    return CZ_EXIT_USAGE;
}

#else /* no jansson */

bool cz_cli_post_kind(int argc, char **argv)
{
    return cz_cli_has_kind(argc, argv, "winning-post") || cz_cli_has_kind(argc, argv, "window-post");
}

static int no_post(void)
{
    fprintf(stderr, "cuzk: PoSt input files need jansson (apt-get install libjansson-dev)\n");
    return CZ_EXIT_FAIL;
}
int cmd_post(int argc, char **argv) { (void)argc, (void)argv; return no_post(); }
int cmd_setup_post(int argc, char **argv) { (void)argc, (void)argv; return no_post(); }
int cmd_prove_post(int argc, char **argv) { (void)argc, (void)argv; return no_post(); }
int cmd_verify_post(int argc, char **argv) { (void)argc, (void)argv; return no_post(); }
#endif
