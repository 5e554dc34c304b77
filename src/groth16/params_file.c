/*
 * groth16/params_file.c — the source of params opened with cz_params_open
 * (params.h): the vectors stay in the file and are read on demand, decoded
 * and checked on the CPU (read) or handed over as the file has them
 * (read_encoded: a device backend decodes them itself).
 *
 * pread on one descriptor from any number of threads: each read names its
 * offset, nothing is shared but the file. A file shortened since it was
 * opened gives a read error naming the offset, never a SIGBUS (a mapping
 * would).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "groth16/params.h"
#include "groth16/params_int.h"

typedef struct {
    cz__params_source base;
    int fd;
    size_t file_bytes;
    size_t start[CZ_PV_COUNT];
    unsigned decode_flags;
    char path[];
} file_source;

#define BLOCK_POINTS 4096 /* points read and decoded at a time: 384 KiB of G2 */

static int pread_all(cz_ctx_t *ctx, const file_source *f, void *out, size_t bytes, size_t off)
{
    for (size_t done = 0; done < bytes;) {
        ssize_t r = pread(f->fd, (char *)out + done, bytes - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return cz_fail(ctx, CZ_EIO, "params %s: read at offset %zu: %s", f->path, off + done,
                           strerror(errno));
        if (r == 0)
            return cz_fail(ctx, CZ_EIO,
                           "params %s: the file ends before offset %zu (%zu bytes when opened)",
                           f->path, off + done, f->file_bytes);
        done += (size_t)r;
    }
    return CZ_OK;
}

static int file_read_encoded(cz_ctx_t *ctx, const cz__params_source *s, int which, size_t first,
                             size_t n, void *out)
{
    const file_source *f = (const file_source *)s;
    const cz__pvec *v = &cz__pvecs[which];
    return pread_all(ctx, f, out, n * v->enc_size, f->start[which] + first * v->enc_size);
}

/* Decode block[0..n) (points first.. of |which|) into out; a refused one is named. */
static int decode_block(cz_ctx_t *ctx, const file_source *f, int which, size_t first, size_t n,
                        const uint8_t *block, uint8_t *out)
{
    const cz__pvec *v = &cz__pvecs[which];
    for (size_t i = 0; i < n; i++) {
        const uint8_t *in = block + i * v->enc_size;
        if (cz__params_decode_point(NULL, v->g2, out + i * v->aff_size, in, f->decode_flags, "") ==
            CZ_OK)
            continue;
        char what[512];
        snprintf(what, sizeof what, "params %s: %s[%zu] at offset %zu", f->path, v->name, first + i,
                 f->start[which] + (first + i) * v->enc_size);
        return cz__params_decode_point(ctx, v->g2, out + i * v->aff_size, in, f->decode_flags,
                                       what);
    }
    return CZ_OK;
}

static int file_read(cz_ctx_t *ctx, const cz__params_source *s, int which, size_t first, size_t n,
                     void *out)
{
    const file_source *f = (const file_source *)s;
    const cz__pvec *v = &cz__pvecs[which];
    const size_t per = n < BLOCK_POINTS ? n : BLOCK_POINTS;
    uint8_t *block = malloc(per * v->enc_size);
    if (!block)
        return cz_fail(ctx, CZ_ENOMEM, "params %s: a read buffer", f->path);
    int rc = CZ_OK;
    for (size_t done = 0; done < n && rc == CZ_OK; done += per) {
        const size_t k = n - done < per ? n - done : per;
        rc = file_read_encoded(ctx, s, which, first + done, k, block);
        if (rc == CZ_OK)
            rc = decode_block(ctx, f, which, first + done, k, block,
                              (uint8_t *)out + done * v->aff_size);
    }
    free(block);
    return rc;
}

static void file_free(cz__params_source *s)
{
    file_source *f = (file_source *)s;
    close(f->fd);
    cz__params_source_destroy(s);
    free(f);
}

int cz__file_source_new(cz_ctx_t *ctx, cz__params_source **out, int fd, const char *path,
                        size_t file_bytes, const size_t start[CZ_PV_COUNT], unsigned decode_flags)
{
    *out = NULL;
    const size_t len = strlen(path) + 1;
    file_source *f = calloc(1, sizeof *f + len);
    if (!f) {
        close(fd);
        return cz_fail(ctx, CZ_ENOMEM, "params %s: its source", path);
    }
    cz__params_source_init(&f->base);
    f->base.read = file_read;
    f->base.read_encoded = file_read_encoded;
    f->base.free = file_free;
    f->base.bytes = sizeof *f + len;
    f->fd = fd;
    f->file_bytes = file_bytes;
    memcpy(f->start, start, sizeof f->start);
    f->decode_flags = decode_flags;
    memcpy(f->path, path, len);
    *out = &f->base;
    return CZ_OK;
}
