/*
 * groth16/params_write.c — serializing params and vk files (see
 * groth16/params.h): into memory, or to disk through a temporary file,
 * fsync and rename so a crash never leaves a half-written file under the
 * final name.
 *
 * Points are encoded in parallel on the ctx's pool, a staging buffer at a
 * time, so writing 44 GiB of params needs 8 MiB of extra memory.
 */
#include "groth16/params.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/pool.h"
#include "ec/curve.h"
#include "groth16/params_int.h"

#define STAGING_BYTES (8u << 20)

/* ---- vk -------------------------------------------------------------------- */

void cz_vk_encode(uint8_t *out, const cz_vk_t *vk)
{
    /* BP mod.rs VerifyingKey::write: alpha_g1 beta_g1 beta_g2 gamma_g2 delta_g1 delta_g2 |ic| ic */
    cz_g1_encode(out, CZ_G1_UNCOMPRESSED, &vk->alpha_g1), out += CZ_G1_UNCOMPRESSED;
    cz_g1_encode(out, CZ_G1_UNCOMPRESSED, &vk->beta_g1), out += CZ_G1_UNCOMPRESSED;
    cz_g2_encode(out, CZ_G2_UNCOMPRESSED, &vk->beta_g2), out += CZ_G2_UNCOMPRESSED;
    cz_g2_encode(out, CZ_G2_UNCOMPRESSED, &vk->gamma_g2), out += CZ_G2_UNCOMPRESSED;
    cz_g1_encode(out, CZ_G1_UNCOMPRESSED, &vk->delta_g1), out += CZ_G1_UNCOMPRESSED;
    cz_g2_encode(out, CZ_G2_UNCOMPRESSED, &vk->delta_g2), out += CZ_G2_UNCOMPRESSED;
    cz__put_be32(out, (uint32_t)vk->n_ic), out += 4;
    for (size_t i = 0; i < vk->n_ic; i++, out += CZ_G1_UNCOMPRESSED)
        cz_g1_encode(out, CZ_G1_UNCOMPRESSED, &vk->ic[i]);
}

/* ---- the sink: memory or a file through a staging buffer ------------------- */

typedef struct {
    cz_ctx_t *ctx;
    const char *what; /* for messages */
    int fd;           /* -1: memory sink */
    uint8_t *buf;     /* memory: the output; file: the staging buffer */
    size_t cap;       /* bytes of buf */
    size_t fill;      /* bytes in buf not yet written (file) / written (memory) */
    size_t written;   /* bytes already handed to the kernel */
} sink;

int cz__write_fault_errno;
size_t cz__write_fault_after;

static int write_all(cz_ctx_t *ctx, const char *what, int fd, const uint8_t *p, size_t n,
                     size_t *written)
{
    while (n) {
        ssize_t w;
        if (cz__write_fault_errno && *written + n > cz__write_fault_after) {
            /* a short write up to the limit first, then the error (as a kernel does) */
            size_t room = cz__write_fault_after - *written;
            if (room) {
                w = write(fd, p, room);
            } else {
                errno = cz__write_fault_errno;
                w = -1;
            }
        } else {
            w = write(fd, p, n);
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            return cz_fail(ctx, CZ_EIO, "%s: write failed at byte %zu: %s%s", what, *written,
                           strerror(e), e == ENOSPC || e == EDQUOT ? " (disk full)" : "");
        }
        p += w;
        n -= (size_t)w;
        *written += (size_t)w;
    }
    return CZ_OK;
}

static int sink_flush(sink *s)
{
    if (s->fd < 0 || s->fill == 0)
        return CZ_OK;
    int rc = write_all(s->ctx, s->what, s->fd, s->buf, s->fill, &s->written);
    s->fill = 0;
    return rc;
}

/* Room for n (<= cap) bytes at *dst. */
static int sink_reserve(sink *s, size_t n, uint8_t **dst)
{
    if (s->cap - s->fill < n) {
        if (s->fd < 0)
            return cz_fail(s->ctx, CZ_EINTERNAL, "%s: memory sink overflow", s->what);
        int rc = sink_flush(s);
        if (rc)
            return rc;
    }
    *dst = s->buf + s->fill;
    return CZ_OK;
}

typedef struct {
    const cz__pvec *vec;
    const uint8_t *src;
    uint8_t *dst;
} encode_job;

static void encode_chunk(void *arg, size_t b, size_t e, unsigned slot)
{
    const encode_job *job = arg;
    const cz__pvec *v = job->vec;
    for (size_t i = b; i < e; i++) {
        const void *pt = job->src + i * v->aff_size;
        uint8_t *out = job->dst + i * v->enc_size;
        if (v->g2)
            cz_g2_encode(out, v->enc_size, pt);
        else
            cz_g1_encode(out, v->enc_size, pt);
    }
}

static int emit_params(sink *s, const cz_params_t *p)
{
    uint8_t *dst = NULL;
    size_t vk_bytes = cz_vk_encoded_size(p->vk.n_ic);
    int rc;

    if (vk_bytes > s->cap) { /* vk bigger than the staging buffer: a one-off buffer */
        uint8_t *tmp = malloc(vk_bytes);
        if (!tmp)
            return cz_fail(s->ctx, CZ_ENOMEM, "%s: vk of %zu bytes", s->what, vk_bytes);
        cz_vk_encode(tmp, &p->vk);
        if ((rc = sink_flush(s)) == CZ_OK)
            rc = write_all(s->ctx, s->what, s->fd, tmp, vk_bytes, &s->written);
        free(tmp);
        if (rc)
            return rc;
    } else {
        if ((rc = sink_reserve(s, vk_bytes, &dst)))
            return rc;
        cz_vk_encode(dst, &p->vk);
        s->fill += vk_bytes;
    }

    for (int i = 0; i < CZ_PV_COUNT; i++) {
        const cz__pvec *v = &cz__pvecs[i];
        size_t n = *cz__pvec_count((cz_params_t *)p, i);
        const uint8_t *src = cz_params_vector(p, (enum cz_params_vec)i);
        if ((rc = sink_reserve(s, 4, &dst)))
            return rc;
        cz__put_be32(dst, (uint32_t)n);
        s->fill += 4;
        size_t per = s->fd < 0 ? n : s->cap / v->enc_size; /* points per round */
        for (size_t done = 0; done < n;) {
            size_t k = n - done < per ? n - done : per;
            if ((rc = sink_reserve(s, k * v->enc_size, &dst)))
                return rc;
            encode_job job = { v, src + done * v->aff_size, dst };
            cz_pool_for(cz_ctx_pool(s->ctx), k, 4096, encode_chunk, &job);
            s->fill += k * v->enc_size;
            done += k;
        }
    }
    return sink_flush(s);
}

/* The counts fit the format and every vector is in host memory (a source's made resident). */
static int check_counts_fit(cz_ctx_t *ctx, const cz_params_t *p)
{
    int rc = cz_params_host_all(ctx, p);
    if (rc != CZ_OK)
        return rc;
    if (p->vk.n_ic > UINT32_MAX)
        return cz_fail(ctx, CZ_ERANGE, "params: ic count %zu does not fit the u32 count",
                       p->vk.n_ic);
    for (int i = 0; i < CZ_PV_COUNT; i++) {
        size_t n = *cz__pvec_count((cz_params_t *)p, i);
        if (n > UINT32_MAX)
            return cz_fail(ctx, CZ_ERANGE, "params: %s count %zu does not fit the u32 count",
                           cz__pvecs[i].name, n);
        if (n && !cz_params_vector(p, (enum cz_params_vec)i))
            return cz_fail(ctx, CZ_EINVAL, "params: %s has %zu points but no array",
                           cz__pvecs[i].name, n);
    }
    return CZ_OK;
}

int cz_params_encode(cz_ctx_t *ctx, uint8_t *out, size_t cap, const cz_params_t *p)
{
    if (!p || !out)
        return cz_fail(ctx, CZ_EINVAL, "params encode: NULL argument");
    int rc = check_counts_fit(ctx, p);
    if (rc)
        return rc;
    size_t need = cz_params_encoded_size(p);
    if (cap < need)
        return cz_fail(ctx, CZ_EINVAL, "params encode: buffer of %zu bytes < %zu needed", cap,
                       need);
    sink s = { ctx, "params encode", -1, out, need, 0, 0 };
    return emit_params(&s, p);
}

/* ---- atomic file replacement ----------------------------------------------- */

int cz__atomic_write(cz_ctx_t *ctx, const char *path, const char *what, cz__produce_fn *produce,
                     const void *arg)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16), *dircopy = malloc(plen + 1);
    int rc = CZ_OK, fd = -1;
    if (!tmp || !dircopy) {
        rc = cz_fail(ctx, CZ_ENOMEM, "%s %s: path buffers", what, path);
        goto out;
    }
    /* The temporary lives beside the target: rename() is atomic within a file system. */
    snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
    fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) {
        rc = cz_fail(ctx, CZ_EIO, "%s %s: creating a temporary file: %s", what, path,
                     strerror(errno));
        tmp[0] = '\0';
        goto out;
    }
    size_t written = 0;
    if ((rc = produce(ctx, fd, arg, &written)))
        goto out;
    if (fchmod(fd, 0644) != 0 || fsync(fd) != 0) {
        int e = errno;
        rc = cz_fail(ctx, CZ_EIO, "%s %s: fsync after %zu bytes: %s%s", what, path, written,
                     strerror(e), e == ENOSPC || e == EDQUOT ? " (disk full)" : "");
        goto out;
    }
    if (close(fd) != 0) {
        fd = -1;
        rc = cz_fail(ctx, CZ_EIO, "%s %s: close: %s", what, path, strerror(errno));
        goto out;
    }
    fd = -1;
    if (rename(tmp, path) != 0) {
        rc = cz_fail(ctx, CZ_EIO, "%s %s: rename from %s: %s", what, path, tmp, strerror(errno));
        goto out;
    }
    tmp[0] = '\0'; /* renamed: nothing to clean up */
    /* Make the rename itself durable. Some file systems refuse fsync on a directory; that is not an error. */
    memcpy(dircopy, path, plen + 1);
    int dfd = open(dirname(dircopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
out:
    if (fd >= 0)
        close(fd);
    if (tmp && tmp[0])
        unlink(tmp);
    free(tmp);
    free(dircopy);
    return rc;
}

static int produce_params(cz_ctx_t *ctx, int fd, const void *arg, size_t *written)
{
    const cz_params_t *p = arg;
    sink s = { ctx, "params write", fd, malloc(STAGING_BYTES), STAGING_BYTES, 0, 0 };
    if (!s.buf)
        return cz_fail(ctx, CZ_ENOMEM, "params write: staging buffer of %u bytes", STAGING_BYTES);
    int rc = emit_params(&s, p);
    *written = s.written;
    free(s.buf);
    return rc;
}

int cz_params_write(cz_ctx_t *ctx, const char *path, const cz_params_t *p)
{
    if (!path || !p)
        return cz_fail(ctx, CZ_EINVAL, "params write: NULL argument");
    int rc = check_counts_fit(ctx, p);
    return rc ? rc : cz__atomic_write(ctx, path, "params write", produce_params, p);
}

static int produce_vk(cz_ctx_t *ctx, int fd, const void *arg, size_t *written)
{
    const cz_vk_t *vk = arg;
    size_t n = cz_vk_encoded_size(vk->n_ic);
    uint8_t *buf = malloc(n);
    if (!buf)
        return cz_fail(ctx, CZ_ENOMEM, "vk write: %zu bytes", n);
    cz_vk_encode(buf, vk);
    int rc = write_all(ctx, "vk write", fd, buf, n, written);
    free(buf);
    return rc;
}

int cz_vk_write(cz_ctx_t *ctx, const char *path, const cz_vk_t *vk)
{
    if (!path || !vk || (vk->n_ic && !vk->ic))
        return cz_fail(ctx, CZ_EINVAL, "vk write: NULL argument");
    if (vk->n_ic > UINT32_MAX)
        return cz_fail(ctx, CZ_ERANGE, "vk write: ic count %zu does not fit the u32 count",
                       vk->n_ic);
    return cz__atomic_write(ctx, path, "vk write", produce_vk, vk);
}
