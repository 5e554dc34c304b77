/*
 * groth16/params.c — parsing and loading bellperson params and vk files
 * (see groth16/params.h for the layout and its sources).
 *
 * Parsing is two passes over the image: first the structure (every count
 * word and every vector's byte span is checked against what is left, the
 * shape is checked, trailing bytes are refused) without allocating anything
 * a bogus count could make huge; then the points are decoded in parallel on
 * the ctx's pool straight into the affine arrays.
 */
#include "groth16/params.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/pool.h"
#include "ec/curve.h"
#include "groth16/params_int.h"

const cz__pvec cz__pvecs[CZ_PV_COUNT] = {
    { "h", 0, CZ_G1_UNCOMPRESSED, sizeof(blst_p1_affine), offsetof(cz_params_t, n_h),
      offsetof(cz_params_t, h) },
    { "l", 0, CZ_G1_UNCOMPRESSED, sizeof(blst_p1_affine), offsetof(cz_params_t, n_l),
      offsetof(cz_params_t, l) },
    { "a", 0, CZ_G1_UNCOMPRESSED, sizeof(blst_p1_affine), offsetof(cz_params_t, n_a),
      offsetof(cz_params_t, a) },
    { "b_g1", 0, CZ_G1_UNCOMPRESSED, sizeof(blst_p1_affine), offsetof(cz_params_t, n_b_g1),
      offsetof(cz_params_t, b_g1) },
    { "b_g2", 1, CZ_G2_UNCOMPRESSED, sizeof(blst_p2_affine), offsetof(cz_params_t, n_b_g2),
      offsetof(cz_params_t, b_g2) },
};

size_t cz_vk_encoded_size(size_t n_ic)
{
    return CZ__VK_FIXED_BYTES + 4 + n_ic * CZ_G1_UNCOMPRESSED;
}

size_t cz_params_encoded_size(const cz_params_t *p)
{
    size_t n = cz_vk_encoded_size(p->vk.n_ic);
    for (int i = 0; i < CZ_PV_COUNT; i++)
        n += 4 + *cz__pvec_count((cz_params_t *)p, i) * cz__pvecs[i].enc_size;
    return n;
}

cz_params_vec_info_t cz_params_vec_info(const cz_params_t *p, enum cz_params_vec which)
{
    cz_params_vec_info_t info = { 0 };
    if ((unsigned)which >= CZ_PV_COUNT)
        return info;
    size_t off = cz_vk_encoded_size(p->vk.n_ic);
    for (int i = 0; i < (int)which; i++)
        off += 4 + *cz__pvec_count((cz_params_t *)p, i) * cz__pvecs[i].enc_size;
    const cz__pvec *v = &cz__pvecs[which];
    info.name = v->name;
    info.count = *cz__pvec_count((cz_params_t *)p, which);
    info.file_offset = off;
    info.file_bytes = info.count * v->enc_size;
    info.mem_bytes = info.count * v->aff_size;
    info.g2 = v->g2;
    info.points = cz_params_vector(p, which);
    return info;
}

/*
 * One uncompressed point. blst_pX_deserialize also takes the compressed form
 * when the 0x80 flag is set (reading only the first half of the slot), which
 * would let a file that does not round-trip byte for byte through; refuse it.
 */
int cz__params_decode_point(cz_ctx_t *ctx, int g2, void *out, const uint8_t *in, unsigned flags,
                            const char *what)
{
    if (in[0] & 0x80)
        return cz_fail(ctx, CZ_EFORMAT, "%s: compressed flag set in an uncompressed point", what);
    return g2 ? cz_g2_decode(ctx, out, in, CZ_G2_UNCOMPRESSED, flags, what)
              : cz_g1_decode(ctx, out, in, CZ_G1_UNCOMPRESSED, flags, what);
}

/* ---- vk ------------------------------------------------------------------ */

void cz_vk_clear(cz_vk_t *vk)
{
    if (!vk)
        return;
    free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

int cz_vk_copy(cz_ctx_t *ctx, cz_vk_t *dst, const cz_vk_t *src)
{
    *dst = *src;
    dst->ic = NULL;
    if (src->n_ic) {
        dst->ic = malloc(src->n_ic * sizeof *dst->ic);
        if (!dst->ic) {
            memset(dst, 0, sizeof *dst);
            return cz_fail(ctx, CZ_ENOMEM, "vk: copy of %zu ic points", src->n_ic);
        }
        memcpy(dst->ic, src->ic, src->n_ic * sizeof *dst->ic);
    }
    return CZ_OK;
}

/*
 * The vk section at buf[0..len). |prefix| starts every message ("vk" or
 * "params: vk"); |base| is buf's offset in the file, for messages. The vk is
 * small, so it is always fully checked, subgroup included.
 */
static int vk_parse(cz_ctx_t *ctx, cz_vk_t *vk, const uint8_t *buf, size_t len, size_t *consumed,
                    const char *prefix)
{
    static const struct {
        const char *name;
        int g2;
        size_t off;
    } fixed[6] = {
        { "alpha_g1", 0, offsetof(cz_vk_t, alpha_g1) },
        { "beta_g1", 0, offsetof(cz_vk_t, beta_g1) },
        { "beta_g2", 1, offsetof(cz_vk_t, beta_g2) },
        { "gamma_g2", 1, offsetof(cz_vk_t, gamma_g2) },
        { "delta_g1", 0, offsetof(cz_vk_t, delta_g1) },
        { "delta_g2", 1, offsetof(cz_vk_t, delta_g2) },
    };
    const unsigned flags = CZ_DECODE_SUBGROUP | CZ_DECODE_NO_INFINITY;
    char what[96];
    size_t off = 0;
    int rc;

    memset(vk, 0, sizeof *vk);
    for (int i = 0; i < 6; i++) {
        size_t sz = fixed[i].g2 ? CZ_G2_UNCOMPRESSED : CZ_G1_UNCOMPRESSED;
        if (len - off < sz)
            return cz_fail(ctx, CZ_EFORMAT,
                           "%s: truncated at offset %zu: %s needs %zu bytes, %zu left", prefix, off,
                           fixed[i].name, sz, len - off);
        snprintf(what, sizeof what, "%s.%s at offset %zu", prefix, fixed[i].name, off);
        void *dst = (uint8_t *)vk + fixed[i].off;
        rc = cz__params_decode_point(ctx, fixed[i].g2, dst, buf + off, flags, what);
        if (rc)
            return rc;
        off += sz;
    }
    if (len - off < 4)
        return cz_fail(ctx, CZ_EFORMAT,
                       "%s: truncated at offset %zu: ic count needs 4 bytes, %zu left", prefix, off,
                       len - off);
    size_t n_ic = cz__be32(buf + off);
    off += 4;
    if (n_ic > (len - off) / CZ_G1_UNCOMPRESSED)
        return cz_fail(ctx, CZ_EFORMAT,
                       "%s: truncated at offset %zu: ic has %zu points (%zu bytes), %zu left",
                       prefix, off, n_ic, n_ic * CZ_G1_UNCOMPRESSED, len - off);
    if (consumed == NULL && len - off != n_ic * CZ_G1_UNCOMPRESSED)
        return cz_fail(ctx, CZ_EFORMAT, "%s: %zu trailing bytes after ic at offset %zu", prefix,
                       len - off - n_ic * CZ_G1_UNCOMPRESSED, off + n_ic * CZ_G1_UNCOMPRESSED);
    if (n_ic) {
        vk->ic = malloc(n_ic * sizeof *vk->ic);
        if (!vk->ic)
            return cz_fail(ctx, CZ_ENOMEM, "%s: %zu ic points", prefix, n_ic);
    }
    vk->n_ic = n_ic;
    for (size_t i = 0; i < n_ic; i++, off += CZ_G1_UNCOMPRESSED) {
        snprintf(what, sizeof what, "%s.ic[%zu] at offset %zu", prefix, i, off);
        rc = cz__params_decode_point(ctx, 0, &vk->ic[i], buf + off, flags, what);
        if (rc) {
            cz_vk_clear(vk);
            return rc;
        }
    }
    if (consumed)
        *consumed = off;
    return CZ_OK;
}

int cz_vk_parse(cz_ctx_t *ctx, cz_vk_t *vk, const uint8_t *buf, size_t len, size_t *consumed)
{
    if (!vk || (!buf && len))
        return cz_fail(ctx, CZ_EINVAL, "vk: NULL argument");
    int rc = vk_parse(ctx, vk, buf, len, consumed, "vk");
    if (rc)
        cz_vk_clear(vk);
    return rc;
}

/* ---- params: structure pass ----------------------------------------------- */

static int check_counts(cz_ctx_t *ctx, size_t n_ic, const size_t n[CZ_PV_COUNT],
                        const cz_params_shape_t *s)
{
    size_t m = s->domain_size;
    if (m < 2 || (m & (m - 1)))
        return cz_fail(ctx, CZ_EINVAL,
                       "params: expected domain size %zu is not a power of two >= 2", m);
    size_t want_b = s->b_input_popcount + s->b_aux_popcount;
    if (n_ic != s->num_inputs)
        return cz_fail(ctx, CZ_EMISMATCH, "params: ic count %zu != num_inputs %zu", n_ic,
                       s->num_inputs);
    if (n[CZ_PV_H] != m - 1)
        return cz_fail(ctx, CZ_EMISMATCH, "params: h count %zu != domain-1 %zu", n[CZ_PV_H], m - 1);
    if (n[CZ_PV_L] != s->num_aux)
        return cz_fail(ctx, CZ_EMISMATCH, "params: l count %zu != num_aux %zu", n[CZ_PV_L],
                       s->num_aux);
    if (n[CZ_PV_A] != s->num_inputs + s->a_aux_popcount)
        return cz_fail(ctx, CZ_EMISMATCH,
                       "params: a count %zu != num_inputs %zu + popcount(a_aux) %zu", n[CZ_PV_A],
                       s->num_inputs, s->a_aux_popcount);
    for (int i = CZ_PV_B_G1; i <= CZ_PV_B_G2; i++)
        if (n[i] != want_b)
            return cz_fail(ctx, CZ_EMISMATCH,
                           "params: %s count %zu != popcount(b_input) %zu + popcount(b_aux) %zu",
                           cz__pvecs[i].name, n[i], s->b_input_popcount, s->b_aux_popcount);
    return CZ_OK;
}

int cz_params_check_shape(cz_ctx_t *ctx, const cz_params_t *p, const cz_params_shape_t *shape)
{
    size_t n[CZ_PV_COUNT];
    for (int i = 0; i < CZ_PV_COUNT; i++)
        n[i] = *cz__pvec_count((cz_params_t *)p, i);
    return check_counts(ctx, p->vk.n_ic, n, shape);
}

/* ---- params: parallel decode ---------------------------------------------- */

typedef struct {
    const uint8_t *src;
    void *dst;
    const cz__pvec *vec;
    unsigned flags;
    atomic_size_t first_bad; /* lowest failing index seen; SIZE_MAX: none */
} decode_job;

static void decode_chunk(void *arg, size_t b, size_t e, unsigned slot)
{
    decode_job *job = arg;
    const cz__pvec *v = job->vec;
    for (size_t i = b; i < e; i++) {
        if (i > atomic_load_explicit(&job->first_bad, memory_order_relaxed))
            return; /* an earlier point already failed: the rest is moot */
        const uint8_t *in = job->src + i * v->enc_size;
        void *out = (uint8_t *)job->dst + i * v->aff_size;
        int rc = cz__params_decode_point(NULL, v->g2, out, in, job->flags, "");
        if (rc) {
            size_t cur = atomic_load(&job->first_bad);
            while (i < cur && !atomic_compare_exchange_weak(&job->first_bad, &cur, i))
                ;
            return;
        }
    }
}

static int decode_vector(cz_ctx_t *ctx, const cz__pvec *v, void *dst, const uint8_t *src, size_t n,
                         size_t file_off, unsigned flags)
{
    decode_job job = { src, dst, v, flags, SIZE_MAX };
    /* Subgroup checks cost a scalar multiplication per point: smaller chunks. */
    size_t grain = (flags & CZ_DECODE_SUBGROUP) ? 64 : 1024;
    cz_pool_for(cz_ctx_pool(ctx), n, grain, decode_chunk, &job);
    size_t bad = atomic_load(&job.first_bad);
    if (bad == SIZE_MAX)
        return CZ_OK;
    /* Decode the failing point again with the ctx, for a precise message. */
    char what[96];
    uint8_t tmp[sizeof(blst_p2_affine)];
    snprintf(what, sizeof what, "params: %s[%zu] at offset %zu", v->name, bad,
             file_off + bad * v->enc_size);
    const uint8_t *in = src + bad * v->enc_size;
    int rc = cz__params_decode_point(ctx, v->g2, tmp, in, flags, what);
    return rc ? rc : cz_fail(ctx, CZ_EINTERNAL, "%s: decode failed only in parallel", what);
}

/*
 * The first pass over a params image: the vk decoded into p->vk, every
 * count checked against the bytes left (before anything a bogus count
 * could make huge is allocated) and set in p, trailing bytes refused, the
 * shape checked. start[i] gets the offset of vector i's first point.
 */
static int parse_structure(cz_ctx_t *ctx, cz_params_t *p, const uint8_t *buf, size_t len,
                           const cz_params_opts_t *opts, size_t start[CZ_PV_COUNT])
{
    size_t off = 0, n[CZ_PV_COUNT];
    int rc = vk_parse(ctx, &p->vk, buf, len, &off, "params: vk");
    if (rc)
        return rc;
    for (int i = 0; i < CZ_PV_COUNT; i++) {
        const cz__pvec *v = &cz__pvecs[i];
        if (len - off < 4)
            return cz_fail(ctx, CZ_EFORMAT,
                           "params: truncated at offset %zu: %s count needs 4 bytes, %zu left", off,
                           v->name, len - off);
        n[i] = cz__be32(buf + off);
        off += 4;
        if (n[i] > (len - off) / v->enc_size)
            return cz_fail(
                ctx, CZ_EFORMAT,
                "params: truncated at offset %zu: %s has %zu points (%zu bytes), %zu left", off,
                v->name, n[i], n[i] * v->enc_size, len - off);
        start[i] = off;
        off += n[i] * v->enc_size;
    }
    if (off != len)
        return cz_fail(ctx, CZ_EFORMAT, "params: %zu trailing bytes after b_g2 at offset %zu",
                       len - off, off);
    if (opts && opts->expect && (rc = check_counts(ctx, p->vk.n_ic, n, opts->expect)))
        return rc;
    for (int i = 0; i < CZ_PV_COUNT; i++)
        *cz__pvec_count(p, i) = n[i];
    return CZ_OK;
}

unsigned cz__params_decode_flags(const cz_params_opts_t *opts)
{
    const unsigned flags = opts ? opts->flags : 0;
    return CZ_DECODE_NO_INFINITY | ((flags & CZ_PARAMS_SUBGROUP) ? CZ_DECODE_SUBGROUP : 0);
}

int cz_params_parse(cz_ctx_t *ctx, cz_params_t **out, const uint8_t *buf, size_t len,
                    const cz_params_opts_t *opts)
{
    if (!out || (!buf && len))
        return cz_fail(ctx, CZ_EINVAL, "params: NULL argument");
    *out = NULL;
    cz_params_t *p = calloc(1, sizeof *p);
    if (!p)
        return cz_fail(ctx, CZ_ENOMEM, "params: allocating the params object");
    size_t start[CZ_PV_COUNT];
    int rc = parse_structure(ctx, p, buf, len, opts, start);

    /* Points, vector by vector (file order: errors name the first bad one). */
    const unsigned dflags = cz__params_decode_flags(opts);
    for (int i = 0; i < CZ_PV_COUNT && rc == CZ_OK; i++) {
        const cz__pvec *v = &cz__pvecs[i];
        void **pts = cz__pvec_points(p, i);
        const size_t n = *cz__pvec_count(p, i);
        if (n == 0)
            continue;
        if (posix_memalign(pts, 64, n * v->aff_size)) {
            *pts = NULL;
            rc = cz_fail(ctx, CZ_ENOMEM, "params: %s: %zu points (%zu bytes)", v->name, n,
                         n * v->aff_size);
            break;
        }
        rc = decode_vector(ctx, v, *pts, buf + start[i], n, start[i], dflags);
    }
    if (rc) {
        cz_params_free(p);
        return rc;
    }
    *out = p;
    return CZ_OK;
}

size_t cz_params_mem_bytes(const cz_params_t *p)
{
    if (!p)
        return 0;
    size_t n = p->source ? p->source->bytes : 0;
    for (int v = 0; v < CZ_PV_COUNT; v++) {
        cz_params_vec_info_t info = cz_params_vec_info(p, (enum cz_params_vec)v);
        n += info.points ? info.mem_bytes : 0;
    }
    return n;
}

void cz_params_free(cz_params_t *p)
{
    if (!p)
        return;
    cz_vk_clear(&p->vk);
    for (int i = 0; i < CZ_PV_COUNT; i++)
        free(*cz__pvec_points(p, i));
    if (p->source)
        p->source->free(p->source);
    free(p);
}

/* ---- files ----------------------------------------------------------------- */

/* Re-raise the ctx's error with the path in front. */
static int with_path(cz_ctx_t *ctx, int rc, const char *path)
{
    char msg[400];
    snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
    return cz_fail(ctx, rc, "%s: %s", path, msg);
}

typedef struct {
    int fd;
    const uint8_t *map;
    size_t len;
} mapped_file;

static int map_file(cz_ctx_t *ctx, mapped_file *mf, const char *path, bool sequential)
{
    struct stat st;
    mf->fd = open(path, O_RDONLY | O_CLOEXEC);
    mf->map = NULL;
    mf->len = 0;
    if (mf->fd < 0)
        return cz_fail(ctx, errno == ENOENT ? CZ_ENOTFOUND : CZ_EIO, "%s: open: %s", path,
                       strerror(errno));
    if (fstat(mf->fd, &st) != 0) {
        int e = errno;
        close(mf->fd);
        return cz_fail(ctx, CZ_EIO, "%s: stat: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(mf->fd);
        return cz_fail(ctx, CZ_EIO, "%s: not a regular file", path);
    }
    mf->len = (size_t)st.st_size;
    if (mf->len == 0)
        return CZ_OK;
    void *m = mmap(NULL, mf->len, PROT_READ, MAP_PRIVATE, mf->fd, 0);
    if (m == MAP_FAILED) {
        int e = errno;
        close(mf->fd);
        return cz_fail(ctx, CZ_EIO, "%s: mmap of %zu bytes: %s", path, mf->len, strerror(e));
    }
    /* Each pool thread decodes a contiguous run: ask for aggressive read-ahead. */
    if (sequential)
        (void)madvise(m, mf->len, MADV_SEQUENTIAL);
    mf->map = m;
    return CZ_OK;
}

static void unmap_file(mapped_file *mf)
{
    if (mf->map)
        munmap((void *)mf->map, mf->len);
    close(mf->fd);
}

int cz_params_load(cz_ctx_t *ctx, cz_params_t **out, const char *path, const cz_params_opts_t *opts)
{
    if (!out || !path)
        return cz_fail(ctx, CZ_EINVAL, "params load: NULL argument");
    *out = NULL;
    mapped_file mf;
    bool seq = !(opts && (opts->flags & CZ_PARAMS_NO_MADVISE));
    int rc = map_file(ctx, &mf, path, seq);
    if (rc)
        return rc;
    rc = cz_params_parse(ctx, out, mf.map, mf.len, opts);
    unmap_file(&mf);
    return rc ? with_path(ctx, rc, path) : CZ_OK;
}

int cz_params_open(cz_ctx_t *ctx, cz_params_t **out, const char *path, const cz_params_opts_t *opts)
{
    if (!out || !path)
        return cz_fail(ctx, CZ_EINVAL, "params open: NULL argument");
    *out = NULL;
    mapped_file mf;
    int rc = map_file(ctx, &mf, path, false); /* the structure pass reads a few pages */
    if (rc)
        return rc;
    cz_params_t *p = calloc(1, sizeof *p);
    size_t start[CZ_PV_COUNT];
    rc = p ? parse_structure(ctx, p, mf.map, mf.len, opts, start)
           : cz_fail(ctx, CZ_ENOMEM, "params: allocating the params object");
    if (mf.map)
        munmap((void *)mf.map, mf.len);
    if (rc == CZ_OK) /* the descriptor is the source's now */
        rc = cz__file_source_new(ctx, &p->source, mf.fd, path, mf.len, start,
                                 cz__params_decode_flags(opts));
    else
        close(mf.fd);
    if (rc) {
        cz_params_free(p);
        return with_path(ctx, rc, path);
    }
    *out = p;
    return CZ_OK;
}

int cz_vk_load(cz_ctx_t *ctx, cz_vk_t *vk, const char *path)
{
    if (!vk || !path)
        return cz_fail(ctx, CZ_EINVAL, "vk load: NULL argument");
    memset(vk, 0, sizeof *vk);
    mapped_file mf;
    int rc = map_file(ctx, &mf, path, false);
    if (rc)
        return rc;
    rc = cz_vk_parse(ctx, vk, mf.map, mf.len, NULL);
    unmap_file(&mf);
    return rc ? with_path(ctx, rc, path) : CZ_OK;
}
