/*
 * groth16/params.h — bellperson Groth16 parameter files (.params) and
 * verifying keys (.vk): parse, validate, write.
 *
 * File layout (BP src/groth16/mod.rs VerifyingKey::write and
 * Parameters::write / params.rs; FACTS 2), every point UNCOMPRESSED
 * (G1 96 bytes, G2 192 bytes, blst serialization, big-endian, ZCash flags):
 *
 *   vk:     alpha_g1 beta_g1 beta_g2 gamma_g2 delta_g1 delta_g2
 *           u32 BE |ic|, ic[0..|ic|)                    (G1 G1 G2 G2 G1 G2 G1*)
 *   then    u32 BE |h|,    h points     (G1)
 *           u32 BE |l|,    l points     (G1)
 *           u32 BE |a|,    a points     (G1)
 *           u32 BE |b_g1|, b_g1 points  (G1)
 *           u32 BE |b_g2|, b_g2 points  (G2)
 *
 * A .vk file is the vk section alone. Nothing may follow the last vector
 * (trailing bytes are an error: a file cuzk accepts round-trips byte for byte).
 *
 * Validation on parse: every length is checked against the bytes left before
 * anything is read (a truncated file is CZ_EFORMAT naming the offset); every
 * point must decode and lie on its curve; no point may be at infinity
 * (bellperson readers reject it, BP params.rs read_g1/read_g2); the
 * prime-order subgroup check is always done for the vk and, with
 * CZ_PARAMS_SUBGROUP, for the vectors. With an expected circuit shape the
 * counts must match it (FACTS 1, BP generator.rs):
 *   |ic| = num_inputs, |h| = m - 1, |l| = num_aux,
 *   |a| = num_inputs + popcount(a_aux),
 *   |b_g1| = |b_g2| = popcount(b_input) + popcount(b_aux).
 * Messages name the vector and index: "params: l[3]: G1 point not on curve".
 *
 * Decoding runs on the ctx's pool (real params hold ~2^27 points per vector).
 *
 * Ownership and threads: a cz_params_t / cz_vk_t owns its point arrays and
 * never changes after parse/load returns; any number of threads may read it
 * (and run MSMs over its vectors) concurrently without locking. Free it once,
 * after every reader is done.
 */
#ifndef CUZK_GROTH16_PARAMS_H
#define CUZK_GROTH16_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <blst.h>

#include "core/ctx.h"

/* The verifying key (BP VerifyingKey). ic[i] belongs to input i; ic[0] to ONE. */
typedef struct cz_vk {
    blst_p1_affine alpha_g1, beta_g1, delta_g1;
    blst_p2_affine beta_g2, gamma_g2, delta_g2;
    blst_p1_affine *ic; /* n_ic points, owned */
    size_t n_ic;
} cz_vk_t;

/* The five proving vectors, in file order. */
enum cz_params_vec { CZ_PV_H, CZ_PV_L, CZ_PV_A, CZ_PV_B_G1, CZ_PV_B_G2, CZ_PV_COUNT };

typedef struct cz__params_source cz__params_source;

typedef struct cz_params {
    cz_vk_t vk;
    blst_p1_affine *h, *l, *a, *b_g1; /* owned, contiguous (MSM layout); NULL: not in host
                                         * memory yet (a source's: cz_params_vector) */
    blst_p2_affine *b_g2;             /* owned */
    size_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    cz__params_source *source; /* owned; NULL: every vector is in host memory */
} cz_params_t;

/*
 * The circuit shape the params must fit (FACTS 1). num_inputs counts ONE.
 * domain_size is m, a power of two >= the number of constraint rows.
 */
typedef struct cz_params_shape {
    size_t num_inputs, num_aux, domain_size;
    size_t a_aux_popcount, b_input_popcount, b_aux_popcount;
} cz_params_shape_t;

enum {
    CZ_PARAMS_SUBGROUP = 1,   /* also subgroup-check h, l, a, b_g1, b_g2 (slow) */
    CZ_PARAMS_NO_MADVISE = 2, /* load: leave the kernel's default read-ahead */
};

typedef struct cz_params_opts {
    unsigned flags;                  /* CZ_PARAMS_* */
    const cz_params_shape_t *expect; /* NULL: counts are not checked */
} cz_params_opts_t;

/* Where a vector lives and what it costs (for the params cache). */
typedef struct cz_params_vec_info {
    const char *name; /* "h", "l", "a", "b_g1", "b_g2" */
    size_t count;
    size_t file_offset; /* offset of the u32 count in the file */
    size_t file_bytes;  /* count * encoded point size (count word excluded) */
    size_t mem_bytes;   /* count * sizeof(affine point) */
    int g2;             /* 1 for b_g2 */
    const void *points; /* blst_p1_affine * or blst_p2_affine * */
} cz_params_vec_info_t;

/* Bytes of the vk section for |n_ic| ic points (4 G1 + ... = 864 + 4 + 96 n_ic). */
size_t cz_vk_encoded_size(size_t n_ic);
/* Bytes of the whole params file. */
size_t cz_params_encoded_size(const cz_params_t *p);

/*
 * Parse a params file image buf[0..len). *out is a new object on CZ_OK, NULL
 * on error. opts may be NULL (no subgroup check of the vectors, no shape).
 * Errors: CZ_EFORMAT (truncated, bad point, infinity, trailing bytes),
 * CZ_ERANGE (not in subgroup), CZ_EMISMATCH (shape), CZ_ENOMEM, CZ_EINVAL.
 */
int cz_params_parse(cz_ctx_t *ctx, cz_params_t **out, const uint8_t *buf, size_t len,
                    const cz_params_opts_t *opts);
/*
 * Map |path| read-only (MAP_PRIVATE, sequential read-ahead) and parse it;
 * unmapped before return. Adds CZ_EIO (open/stat/mmap) to parse's errors.
 * The file must not be truncated while loading (the kernel would SIGBUS).
 */
int cz_params_load(cz_ctx_t *ctx, cz_params_t **out, const char *path,
                   const cz_params_opts_t *opts);
/*
 * Open |path| with its vectors left in the file: the structure is checked
 * as cz_params_load checks it (the vk decoded, every count against the
 * file's size, no trailing bytes, the shape) but no vector is read. The
 * file is the params' source (vectors on demand, below): a device backend
 * uploads the points as the file has them and decodes them on the device;
 * cz_params_host decodes a vector into host memory when a CPU MSM needs
 * it. Points are checked as they are decoded (as cz_params_load checks
 * them), so a bad point fails the job that reads it, naming it. The file
 * stays open (and must not change) until cz_params_free. Errors as load's.
 */
int cz_params_open(cz_ctx_t *ctx, cz_params_t **out, const char *path,
                   const cz_params_opts_t *opts);
/*
 * TIMING ONLY (benchmarks at real scale): params of |shape| whose vectors
 * and vk are random points (a pool of up to 2^20 distinct points per group,
 * tiled: vector v's point i is pool[i mod pool size]; groth16/params_random.c).
 * Proofs made with them DO NOT VERIFY. The pool is their source: no vector
 * is in host memory until cz_params_host asks for it (cz_params_vector).
 * A second at the 32GiB PoRep shape, where a real setup takes hours.
 */
int cz_params_random(cz_ctx_t *ctx, cz_params_t **out, const cz_params_shape_t *shape,
                     uint64_t seed);

/*
 * Vectors on demand. Params with a source (cz_params_random's, cz_params_open's) keep their
 * proving vectors OUT of host memory: the counts are set, the pointers
 * NULL, and any range of a vector is produced on request from the source.
 * A device backend uploads them that way (cz_params_read, through its own
 * bounce buffers), so host memory never holds the 44 GiB of a 32GiB set.
 * A reader that needs a whole vector in host memory (a CPU MSM) makes it
 * resident with cz_params_host: filled once, on the first call (concurrent
 * callers wait for that one), kept until cz_params_free. Params without a
 * source (parsed, loaded, made by a setup) have every vector resident and
 * these calls only return it.
 *
 * Threads: any. A vector pointer goes from NULL to its host copy at most
 * once; code that may run while another thread makes it resident reads it
 * with cz_params_vector (an acquire load), not from the field.
 */
const void *cz_params_vector(const cz_params_t *p, enum cz_params_vec which);
/* Vector |which| in host memory (made resident first if needed). CZ_ENOMEM, or the source's error. */
int cz_params_host(cz_ctx_t *ctx, const cz_params_t *p, enum cz_params_vec which, const void **out);
/* Every vector in host memory (before code that reads the fields: encode, write). */
int cz_params_host_all(cz_ctx_t *ctx, const cz_params_t *p);
/*
 * Copy points [first, first + n) of vector |which| into out (host memory, n
 * affine points): from the host copy when resident, else from the source.
 * CZ_ERANGE past the vector's end; else the source's error. Runs on the
 * calling thread (callers split large copies over their own threads).
 */
int cz_params_read(cz_ctx_t *ctx, const cz_params_t *p, enum cz_params_vec which, size_t first,
                   size_t n, void *out);
/*
 * Params opened from a file (cz_params_open): points [first, first + n) of
 * vector |which| as the file has them (uncompressed encodings, 96 or 192
 * bytes each, NOT checked: the reader decodes and checks them).
 * cz_params_has_encoded says whether these params can; CZ_EUNAVAIL if not.
 */
bool cz_params_has_encoded(const cz_params_t *p);
int cz_params_read_encoded(cz_ctx_t *ctx, const cz_params_t *p, enum cz_params_vec which,
                           size_t first, size_t n, void *out);

/* Bytes the params hold in host memory (resident vectors and the source; the vk is small). NULL: 0. */
size_t cz_params_mem_bytes(const cz_params_t *p);

/* NULL is a harmless no-op. */
void cz_params_free(cz_params_t *p);

/*
 * Check the count words of the file at |path| against |shape| without
 * reading any vector (groth16/params_header.c): a few 4-byte reads at the
 * offsets the counts before them give. CZ_EMISMATCH names the file, the
 * count, its offset, the found and the expected value; CZ_ENOTFOUND /
 * CZ_EIO when the file cannot be read; CZ_EINVAL for a bad |shape|. A count
 * that lies past the end of the file is not checked (CZ_OK): loading the
 * file reports the truncation. Thread-safe (no state).
 */
int cz_params_check_file_shape(cz_ctx_t *ctx, const char *path, const cz_params_shape_t *shape);

/* Check the counts against |shape| (parse does this when opts->expect is set). */
int cz_params_check_shape(cz_ctx_t *ctx, const cz_params_t *p, const cz_params_shape_t *shape);

/* Description of vector |which| (< CZ_PV_COUNT) of |p|; file offsets assume cz_params_encode's layout. */
cz_params_vec_info_t cz_params_vec_info(const cz_params_t *p, enum cz_params_vec which);

/*
 * Serialize into out[0..cap); cap must be >= cz_params_encoded_size(p)
 * (CZ_EINVAL otherwise). Encoding runs on the ctx's pool.
 */
int cz_params_encode(cz_ctx_t *ctx, uint8_t *out, size_t cap, const cz_params_t *p);
/*
 * Write the params file to |path| atomically: a temporary file beside it,
 * fsync, rename over |path|, fsync of the directory. On any error the
 * temporary file is removed and |path| is untouched. CZ_EIO names the cause
 * ("no space left on device" for ENOSPC) and the byte offset reached.
 */
int cz_params_write(cz_ctx_t *ctx, const char *path, const cz_params_t *p);

/* ---- .vk files ---------------------------------------------------------- */

/*
 * Parse a vk section from buf[0..len). *consumed (if not NULL) receives its
 * size; with consumed == NULL the vk must fill the buffer exactly (a .vk
 * file). |vk| is filled on CZ_OK and zeroed on error; release with cz_vk_clear.
 */
int cz_vk_parse(cz_ctx_t *ctx, cz_vk_t *vk, const uint8_t *buf, size_t len, size_t *consumed);
int cz_vk_load(cz_ctx_t *ctx, cz_vk_t *vk, const char *path);
/* Free vk->ic and zero |vk|; NULL / zeroed is a no-op. */
void cz_vk_clear(cz_vk_t *vk);
/* Deep copy (own ic array). */
int cz_vk_copy(cz_ctx_t *ctx, cz_vk_t *dst, const cz_vk_t *src);
/* out must hold cz_vk_encoded_size(vk->n_ic) bytes. */
void cz_vk_encode(uint8_t *out, const cz_vk_t *vk);
/* Atomic write, as cz_params_write. */
int cz_vk_write(cz_ctx_t *ctx, const char *path, const cz_vk_t *vk);

#endif /* CUZK_GROTH16_PARAMS_H */
