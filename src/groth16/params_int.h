/*
 * groth16/params_int.h — private to groth16/params*.c: the table that drives
 * both the parser and the writer, so the two cannot disagree on the layout.
 */
#ifndef CUZK_GROTH16_PARAMS_INT_H
#define CUZK_GROTH16_PARAMS_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "groth16/params.h"

/* Bytes of the fixed part of the vk: 3 G1 + 3 G2 uncompressed (BP mod.rs VerifyingKey::write). */
#define CZ__VK_FIXED_BYTES (3 * 96 + 3 * 192)

/* One row per vector of cz_params_t, in file order. */
typedef struct {
    const char *name;
    int g2;
    size_t enc_size;   /* 96 or 192 */
    size_t aff_size;   /* sizeof(blst_p1_affine) or sizeof(blst_p2_affine) */
    size_t count_off;  /* offsetof(cz_params_t, n_x) */
    size_t points_off; /* offsetof(cz_params_t, x) */
} cz__pvec;

extern const cz__pvec cz__pvecs[CZ_PV_COUNT];

/*
 * Where the vectors of params with a source come from (cz_params_host and
 * cz_params_read in params.h). read fills out with points [first, first+n)
 * of vector |which| (bounds already checked) and may run on many threads at
 * once; free releases the source. mu serializes cz_params_host's fills.
 */
struct cz__params_source {
    pthread_mutex_t mu;
    int (*read)(cz_ctx_t *ctx, const cz__params_source *s, int which, size_t first, size_t n,
                void *out);
    /* The points as the file has them (encoded, unchecked); NULL: not a file. */
    int (*read_encoded)(cz_ctx_t *ctx, const cz__params_source *s, int which, size_t first,
                        size_t n, void *out);
    void (*free)(cz__params_source *s);
    size_t bytes; /* host memory the source holds */
};

/* The CZ_DECODE_* flags of a load with |opts| (may be NULL). params.c. */
unsigned cz__params_decode_flags(const cz_params_opts_t *opts);

/*
 * The source of a params file opened with cz_params_open (params_file.c):
 * the file |fd| (taken: closed on error too) of |file_bytes| bytes at
 * |path|, vector i's first point at offset start[i]; reads decode with
 * |decode_flags|.
 */
int cz__file_source_new(cz_ctx_t *ctx, cz__params_source **out, int fd, const char *path,
                        size_t file_bytes, const size_t start[CZ_PV_COUNT], unsigned decode_flags);
/*
 * One uncompressed point of a params file (in[0..96) or [0..192) for g2)
 * into |out|, with the cz_gX_decode |flags| (CZ_DECODE_*); a compressed
 * flag is refused. Errors name |what|. params.c.
 */
int cz__params_decode_point(cz_ctx_t *ctx, int g2, void *out, const uint8_t *in, unsigned flags,
                            const char *what);

/* Initialise the common part (mu); the caller sets read, free and bytes. */
void cz__params_source_init(cz__params_source *s);
void cz__params_source_destroy(cz__params_source *s);

static inline size_t *cz__pvec_count(cz_params_t *p, int i)
{
    return (size_t *)((uint8_t *)p + cz__pvecs[i].count_off);
}
static inline void **cz__pvec_points(cz_params_t *p, int i)
{
    return (void **)((uint8_t *)p + cz__pvecs[i].points_off);
}

static inline uint32_t cz__be32(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}
static inline void cz__put_be32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 24);
    b[1] = (uint8_t)(v >> 16);
    b[2] = (uint8_t)(v >> 8);
    b[3] = (uint8_t)v;
}

/*
 * Fault injection for tests (sqlite's sqlite3FaultSim, in small): when
 * cz__write_fault_errno is non-zero, a file write that would go past
 * cz__write_fault_after bytes fails with that errno (ENOSPC: a full disk).
 * Tests only; set before and cleared after the call, single-threaded.
 */
extern int cz__write_fault_errno;
extern size_t cz__write_fault_after;

/*
 * Write buf[0..len) to |path| through a temporary file + fsync + rename
 * (|producer| fills the file instead when buf is NULL; see params_write.c).
 */
typedef int cz__produce_fn(cz_ctx_t *ctx, int fd, const void *arg, size_t *written);
int cz__atomic_write(cz_ctx_t *ctx, const char *path, const char *what, cz__produce_fn *produce,
                     const void *arg);

#endif /* CUZK_GROTH16_PARAMS_INT_H */
