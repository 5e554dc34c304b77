/*
 * api/params.c — a prover's params by name: resolution in params_dir,
 * preload, evict and the cache listing (cuzk.h; the cache is api/pcache.c).
 */
#include "api/prover_int.h"

#include "groth16/prover.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* A file name: letters, digits, '.', '_', '-', not starting with '.'. */
static bool name_ok(const char *n)
{
    if (!*n || *n == '.' || strlen(n) > 200)
        return false;
    for (; *n; n++)
        if (!((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') || (*n >= '0' && *n <= '9') ||
              *n == '.' || *n == '_' || *n == '-'))
            return false;
    return true;
}

int cz__params_resolve(const cz_prover_t *p, cz_ctx_t *ctx, const char *name, char out[PATH_MAX])
{
    struct stat st;
    if (!name)
        return cz_fail(ctx, CZ_EINVAL, "params: no name");
    if (name[0] == '/') {
        if (!p->cfg.params_allow_paths)
            return cz_fail(ctx, CZ_EINVAL,
                           "params: paths are not accepted (params_allow_paths "
                           "is off); give a name from params_dir");
        if (strlen(name) >= PATH_MAX)
            return cz_fail(ctx, CZ_EINVAL, "params: path too long");
        if (stat(name, &st) != 0)
            return cz_fail(ctx, CZ_ENOTFOUND, "params: %s: %s", name, strerror(errno));
        if (!S_ISREG(st.st_mode))
            return cz_fail(ctx, CZ_ENOTFOUND, "params: %s: not a regular file", name);
        snprintf(out, PATH_MAX, "%s", name);
        return CZ_OK;
    }
    if (!name_ok(name))
        return cz_fail(ctx, CZ_EINVAL,
                       "params: '%.64s' is not a name (letters, digits, '.', '_', "
                       "'-') or an absolute path",
                       name);
    for (int with_ext = 0; with_ext < 2; with_ext++) {
        int n = snprintf(out, PATH_MAX, "%s/%s%s", p->params_dir, name, with_ext ? ".params" : "");
        if (n > 0 && n < PATH_MAX && stat(out, &st) == 0 && S_ISREG(st.st_mode))
            return CZ_OK;
    }
    return cz_fail(ctx, CZ_ENOTFOUND, "params: '%s' not found in params_dir %s", name,
                   p->params_dir);
}

const char *cz_prover_params_dir(const cz_prover_t *p)
{
    return p->params_dir;
}

static void item_of(cz_params_item_t *item, const cz_pentry_t *e, double load_ms)
{
    memset(item, 0, sizeof *item);
    snprintf(item->path, sizeof item->path, "%s", cz_pentry_path(e));
    item->bytes = cz_pentry_bytes(e);
    item->load_ms = load_ms;
}

int cz_prover_params_preload(cz_prover_t *p, const char *name, cz_params_item_t *item,
                             cz_error_t *err)
{
    cz__err_clear(err);
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, p->pool, 0) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "context");
    char path[PATH_MAX];
    cz_pentry_t *e = NULL;
    double ms = 0;
    int rc = cz__params_resolve(p, ctx, name, path);
    if (rc == CZ_OK)
        rc = cz_pcache_acquire(p->pcache, ctx, path, &e, &ms);
    if (rc == CZ_OK) {
        /* on every device too (a GPU's upload): the first job finds them there */
        for (size_t d = 0; d < p->ndevices; d++)
            cz_g16_prepare(p->backends[d], cz_pentry_params(e));
        for (size_t d = 0; d < p->ndevices; d++)
            cz_backend_settle(p->backends[d]);
        if (item)
            item_of(item, e, ms);
        cz_pcache_release(p->pcache, e);
    }
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    return rc;
}

int cz_prover_params_evict(cz_prover_t *p, const char *name, cz_error_t *err)
{
    cz__err_clear(err);
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, p->pool, 0) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "context");
    char path[PATH_MAX];
    int rc = cz__params_resolve(p, ctx, name, path);
    if (rc == CZ_OK)
        rc = cz_pcache_evict(p->pcache, ctx, path);
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    return rc;
}

size_t cz_prover_params_list(cz_prover_t *p, cz_params_item_t *items, size_t cap)
{
    return cz_pcache_list(p->pcache, items, cap);
}
