/*
 * groth16/params_header.c — a params file's shape from its count words
 * alone (params.h cz_params_check_file_shape): the prover refuses a file
 * made for another circuit before it maps, reads or decodes a single
 * vector (with 32GiB params the load it saves is minutes and 44 GiB).
 *
 * Every count word sits at an offset that follows from the counts before
 * it (params.h's layout): |ic| right after the vk's fixed points, each
 * vector's count right after the previous vector's points. So a handful of
 * 4-byte preads reach them all without touching the points. A count whose
 * offset lies past the end of the file is not checked here: the load that
 * follows reports the truncation.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "groth16/params.h"
#include "groth16/params_int.h"

/* The count word at |off|: 1 read, 0 past the end of the file, or a CZ_EIO code. */
static int read_count(cz_ctx_t *ctx, int fd, const char *path, size_t off, size_t file_bytes,
                      size_t *out)
{
    uint8_t b[4];
    if (off > file_bytes || file_bytes - off < sizeof b)
        return 0;
    for (size_t done = 0; done < sizeof b;) {
        ssize_t r = pread(fd, b + done, sizeof b - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return cz_fail(ctx, CZ_EIO, "params %s: read at offset %zu: %s", path, off + done,
                           r < 0 ? strerror(errno) : "the file ended");
        done += (size_t)r;
    }
    *out = cz__be32(b);
    return 1;
}

/* The counts |shape| wants, in file order: ic, then the five vectors. */
static void wanted_counts(const cz_params_shape_t *s, size_t want[1 + CZ_PV_COUNT])
{
    size_t b = s->b_input_popcount + s->b_aux_popcount;
    want[0] = s->num_inputs;
    want[1 + CZ_PV_H] = s->domain_size - 1;
    want[1 + CZ_PV_L] = s->num_aux;
    want[1 + CZ_PV_A] = s->num_inputs + s->a_aux_popcount;
    want[1 + CZ_PV_B_G1] = b;
    want[1 + CZ_PV_B_G2] = b;
}

/* Walk the count words of the open file |fd| (file_bytes long) against |want|. */
static int check_counts_in_file(cz_ctx_t *ctx, int fd, const char *path, size_t file_bytes,
                                const size_t want[1 + CZ_PV_COUNT])
{
    static const char *const why[1 + CZ_PV_COUNT] = {
        "num_inputs",
        "domain-1",
        "num_aux",
        "num_inputs + popcount(a_aux)",
        "popcount(b_input) + popcount(b_aux)",
        "popcount(b_input) + popcount(b_aux)",
    };
    size_t off = CZ__VK_FIXED_BYTES;
    for (int i = 0; i < 1 + CZ_PV_COUNT; i++) {
        const char *name = i ? cz__pvecs[i - 1].name : "ic";
        size_t enc = i ? cz__pvecs[i - 1].enc_size : 96;
        size_t found = 0;
        int rc = read_count(ctx, fd, path, off, file_bytes, &found);
        if (rc <= 0)
            return rc; /* an I/O error, or past the end: the load says "truncated" */
        if (found != want[i])
            return cz_fail(ctx, CZ_EMISMATCH,
                           "params %s: %s count %zu at offset %zu, the job needs %zu (%s)", path,
                           name, found, off, want[i], why[i]);
        off += 4 + found * enc; /* found < 2^32 points: no overflow */
    }
    return CZ_OK;
}

int cz_params_check_file_shape(cz_ctx_t *ctx, const char *path, const cz_params_shape_t *shape)
{
    size_t m = shape->domain_size;
    if (m < 2 || (m & (m - 1)))
        return cz_fail(ctx, CZ_EINVAL,
                       "params: expected domain size %zu is not a power of two >= 2", m);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cz_fail(ctx, errno == ENOENT ? CZ_ENOTFOUND : CZ_EIO, "params %s: open: %s", path,
                       strerror(errno));
    struct stat st;
    int rc;
    if (fstat(fd, &st) != 0) {
        rc = cz_fail(ctx, CZ_EIO, "params %s: stat: %s", path, strerror(errno));
    } else {
        size_t want[1 + CZ_PV_COUNT];
        wanted_counts(shape, want);
        rc = check_counts_in_file(ctx, fd, path, (size_t)st.st_size, want);
    }
    close(fd);
    return rc;
}
