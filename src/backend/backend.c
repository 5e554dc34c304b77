/*
 * backend/backend.c — proving backends by name ("cpu", "cuda", "auto"): the
 * one factory the CLI, the daemon and the benches share (backend.h).
 *
 * CUDA is reached only through cz_cuda_probe / cz_cuda_device_count
 * (backend/cuda/cuda.h) and cz_cuda_backend_new, all behind CUZK_HAVE_CUDA:
 * a build without CUDA links none of them and answers "cuda" with
 * CZ_EUNAVAIL and the reason.
 */
#include "backend/backend.h"

#include <stdio.h>
#include <string.h>

#ifdef CUZK_HAVE_CUDA
#include "backend/cuda/cuda.h"
#endif

typedef enum { KIND_CPU, KIND_CUDA, KIND_AUTO } kind_t;

static const char KNOWN_KINDS[] = "cpu, cuda, auto";

static int parse_kind(cz_ctx_t *ctx, const char *name, kind_t *out)
{
    if (!name || !strcmp(name, "auto"))
        *out = KIND_AUTO;
    else if (!strcmp(name, "cpu"))
        *out = KIND_CPU;
    else if (!strcmp(name, "cuda"))
        *out = KIND_CUDA;
    else
        return cz_fail(ctx, CZ_EINVAL, "backend '%s': unknown (known backends: %s)", name,
                       KNOWN_KINDS);
    return CZ_OK;
}

/*
 * Is the CUDA backend usable here? CZ_OK with the number of usable devices
 * and the probe's description in |why|, or CZ_EUNAVAIL with the reason in
 * |why| (no ctx message: "auto" is not an error).
 */
static int cuda_usable(char *why, size_t len, size_t *count)
{
    *count = 0;
#ifdef CUZK_HAVE_CUDA
    if (cz_cuda_probe(why, len) != CZ_OK)
        return CZ_EUNAVAIL;
    int n = cz_cuda_device_count();
    if (n <= 0) {
        snprintf(why, len, "no usable CUDA device");
        return CZ_EUNAVAIL;
    }
    *count = (size_t)n;
    return CZ_OK;
#else
    snprintf(why, len,
             "this build has no CUDA support (rebuild with the CUDA toolkit; CUZK_CUDA=ON)");
    return CZ_EUNAVAIL;
#endif
}

/* |name| -> KIND_CPU or KIND_CUDA, with the CUDA device count (0 for cpu). */
static int resolve(cz_ctx_t *ctx, const char *name, kind_t *out, size_t *ncuda, char *why,
                   size_t len)
{
    kind_t k;
    int rc = parse_kind(ctx, name, &k);
    *out = KIND_CPU; /* defined on every path */
    *ncuda = 0;
    why[0] = '\0';
    if (rc != CZ_OK)
        return rc;
    if (k == KIND_CPU) {
        *out = KIND_CPU;
        return CZ_OK;
    }
    char reason[400];
    if (cuda_usable(reason, sizeof reason, ncuda) == CZ_OK) {
        snprintf(why, len, "%s", reason);
        *out = KIND_CUDA;
        return CZ_OK;
    }
    if (k == KIND_CUDA)
        return cz_fail(ctx, CZ_EUNAVAIL, "cuda backend: %s", reason);
    snprintf(why, len, "cuda not usable: %s", reason); /* auto: why not cuda */
    *out = KIND_CPU;
    return CZ_OK;
}

int cz_backend_resolve(cz_ctx_t *ctx, const char *kind, const char **resolved, char *why,
                       size_t why_len)
{
    char buf[512];
    kind_t k = KIND_CPU;
    size_t n;
    *resolved = NULL;
    int rc = resolve(ctx, kind, &k, &n, buf, sizeof buf);
    if (why && why_len)
        snprintf(why, why_len, "%s", rc == CZ_OK ? buf : "");
    if (rc == CZ_OK)
        *resolved = k == KIND_CUDA ? "cuda" : "cpu";
    return rc;
}

int cz_backend_device_count(cz_ctx_t *ctx, const char *kind, size_t *count)
{
    char why[512];
    kind_t k = KIND_CPU;
    size_t n;
    *count = 0;
    int rc = resolve(ctx, kind, &k, &n, why, sizeof why);
    if (rc == CZ_OK)
        *count = k == KIND_CUDA ? n : 1;
    return rc;
}

int cz_backend_new_opts(cz_ctx_t *ctx, cz_backend_t **out, const char *kind, int device_index,
                        const cz_cuda_backend_opts_t *cuda_opts)
{
    char why[512];
    kind_t k = KIND_CPU;
    size_t n;
    *out = NULL;
    int rc = resolve(ctx, kind, &k, &n, why, sizeof why);
    if (rc != CZ_OK)
        return rc;
    if (device_index < 0)
        return cz_fail(ctx, CZ_EINVAL, "backend %s: device index %d is negative",
                       k == KIND_CUDA ? "cuda" : "cpu", device_index);
    if (k == KIND_CPU) {
        (void)cuda_opts;
        if ((rc = cz_cpu_backend_new(out, device_index)) != CZ_OK)
            return cz_fail(ctx, rc, "cpu backend %d", device_index);
        return CZ_OK;
    }
    if ((size_t)device_index >= n)
        return cz_fail(ctx, CZ_ERANGE,
                       "cuda backend: device %d does not exist: %zu usable CUDA "
                       "device%s (0..%zu)",
                       device_index, n, n == 1 ? "" : "s", n - 1);
#ifdef CUZK_HAVE_CUDA
    rc = cz_cuda_backend_new(ctx, out, device_index, cuda_opts);
    if (rc != CZ_OK)
        *out = NULL;
    return rc;
#else
    /* unreachable: resolve() only answers KIND_CUDA in a CUDA build */
    return cz_fail(ctx, CZ_EINTERNAL, "cuda backend chosen in a build without CUDA");
#endif
}

int cz_backend_new(cz_ctx_t *ctx, cz_backend_t **out, const char *kind, int device_index)
{
    return cz_backend_new_opts(ctx, out, kind, device_index, NULL);
}

int cz_backend_step(cz_ctx_t *ctx, const cz_prove_work_t *w, const char *next)
{
    if (w->cancel && atomic_load(w->cancel))
        return cz_fail(ctx, CZ_ECANCELED, "canceled before the %s step", next);
    return cz__fault_sim(cz_ctx_fault(ctx), ctx, CZ_FAULT_DEVICE_STEP);
}

void cz_backend_abc_done(cz_prove_work_t *w)
{
    void (*done)(void *) = w->abc_done;
    w->abc_done = NULL;
    if (done)
        done(w->abc_done_arg);
}

int cz_backend_enter(cz_ctx_t *ctx, cz_backend_t *be)
{
    int rc = cz__fault_sim(cz_ctx_fault(ctx), ctx, CZ_FAULT_DEVICE);
    return rc ? rc : cz__fault_sim(be->fault, ctx, CZ_FAULT_DEVICE);
}

/* The ctx's message, or the code's name, into res->why. */
static void note_result(cz_ctx_t *ctx, cz_batch_result *res, int rc)
{
    res->rc = rc;
    const char *msg = rc ? cz_ctx_message(ctx) : NULL;
    snprintf(res->why, sizeof res->why, "%s", msg && *msg ? msg : rc ? cz_strerror(rc) : "");
}

int cz_backend_device_batch(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *const *w, size_t n,
                            cz_batch_result *res)
{
    if (n > 1 && be->ops->device_batch)
        return be->ops->device_batch(be, ctx, w, n, res);
    const cz_batch_result *dead = NULL; /* the device's failure: the rest are not tried */
    for (size_t i = 0; i < n; i++) {
        if (dead) {
            res[i] = *dead;
            continue;
        }
        cz_ctx_clear(ctx);
        note_result(ctx, &res[i], be->ops->device(be, ctx, w[i]));
        if (res[i].rc == CZ_EDEVICE)
            dead = &res[i];
    }
    return dead ? CZ_EDEVICE : CZ_OK;
}
