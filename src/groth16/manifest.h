/*
 * groth16/manifest.h — the published Filecoin parameter manifest
 * (rust-fil-proofs filecoin-proofs/parameters.json: for every .params and
 * .vk file name its IPFS cid, its digest and its sector size) and the
 * check that a file on disk is the published one.
 *
 * The digest is the first 16 bytes, in hex, of BLAKE2b-512 of the whole
 * file (rust-fil-proofs fil-proofs-param, get_digest_for_file_within_cache:
 * a default blake2b_simd State over the file, `finalize().to_hex()[..32]`;
 * the real v27 seal32.vk reproduces its v27 entry: tests/compat).
 *
 * Built in: the v28 manifest (src/groth16/parameters-v28.json, a copy of
 * rust-fil-proofs@87348a7 filecoin-proofs/parameters.json), embedded at
 * build time, so that a provider's binary carries the digests it trusts
 * and a writable params directory cannot swap them; cz_manifest_load reads
 * another (a newer parameter set, or the v27 one the tests use).
 *
 * A check cache (cz_pcheck_t) remembers a file's verdict by path, size and
 * mtime, so a daemon digests each file once before its first use (a 32GiB
 * .params file is ~47 GB: minutes of BLAKE2b) and again only when
 * the file changes.
 *
 * Ownership: a manifest owns its entries; a check cache borrows its
 * manifest, which must outlive it. Thread-safety: a loaded manifest is
 * read-only and may be shared; cz_pcheck_file may be called from any
 * thread (one mutex guards the cache; digests run outside it).
 * Manifests are parsed with jansson.
 */
#ifndef CUZK_GROTH16_MANIFEST_H
#define CUZK_GROTH16_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"

typedef struct {
    char *name;           /* "v28-stacked-proof-of-replication-...-032d3138....vk" */
    char *cid;            /* "QmamahpFCstMUqHi2qGtVoDnRrsXhid86qsfvoyCTKJqHr" */
    char digest[33];      /* 32 lowercase hex digits */
    uint64_t sector_size; /* bytes */
} cz_manifest_entry_t;

typedef struct cz_manifest {
    cz_manifest_entry_t *entries; /* sorted by name */
    size_t count;
} cz_manifest_t;

/* The built-in v28 manifest. CZ_ENOMEM. */
int cz_manifest_builtin(cz_ctx_t *ctx, cz_manifest_t *out);
/* A parameters.json file. CZ_EIO, CZ_EFORMAT naming the entry. */
int cz_manifest_load(cz_ctx_t *ctx, cz_manifest_t *out, const char *path);
/* Parse parameters.json text. */
int cz_manifest_parse(cz_ctx_t *ctx, cz_manifest_t *out, const char *text, size_t len);
/* NULL / zeroed: harmless no-op. */
void cz_manifest_clear(cz_manifest_t *m);
/* The entry of a file name (no directory), or NULL. */
const cz_manifest_entry_t *cz_manifest_find(const cz_manifest_t *m, const char *name);

/* hex[0..32] = the manifest digest of the file at |path|. CZ_EIO. */
int cz_params_digest(cz_ctx_t *ctx, const char *path, char hex[33]);

/*
 * Check |path| against |m|: CZ_OK when its name is in the manifest and its
 * digest matches, CZ_NOTFOUND when the name is not in the manifest (nothing
 * to compare: the caller decides), CZ_MISMATCH (the message names the file
 * and both digests) when it differs, CZ_EIO when unreadable.
 */
int cz_params_check_file(cz_ctx_t *ctx, const cz_manifest_t *m, const char *path);

typedef struct cz_pcheck cz_pcheck_t;
/* A check cache over |m| (borrowed). */
int cz_pcheck_new(cz_pcheck_t **out, const cz_manifest_t *m);
/* A check cache over the built-in manifest, which it owns. */
int cz_pcheck_new_builtin(cz_ctx_t *ctx, cz_pcheck_t **out);
/* NULL is a harmless no-op. */
void cz_pcheck_free(cz_pcheck_t *c);
/*
 * cz_params_check_file through the cache: a path whose size and mtime are
 * unchanged since its last check gets the same verdict without reading it
 * (CZ_OK, CZ_NOTFOUND or CZ_MISMATCH; CZ_EIO is never cached). |c| NULL:
 * CZ_OK (no checking).
 */
int cz_pcheck_file(cz_pcheck_t *c, cz_ctx_t *ctx, const char *path);

/*
 * The check a params cache runs on a file before its first use: CZ_OK for
 * a file the manifest does not name (test params under their own names:
 * nothing to compare) or one whose digest matches; CZ_EMISMATCH (never
 * load it: it would give proofs that do not verify) or CZ_EIO otherwise.
 * |c| NULL: CZ_OK.
 */
int cz_pcheck_before_use(cz_pcheck_t *c, cz_ctx_t *ctx, const char *path);

#endif /* CUZK_GROTH16_MANIFEST_H */
