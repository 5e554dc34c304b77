/*
 * tests/groth16/test_manifest.c — the params manifest (groth16/manifest.h):
 * the built-in v28 manifest, file digests (streamed BLAKE2b-512, first 16
 * bytes), the per-file check, and the check cache keyed by path + size +
 * mtime (a file changed behind an unchanged size and mtime keeps its
 * verdict; a new mtime is digested again). Real files: tests/compat.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cz_test.h"
#include "groth16/manifest.h"
#include "core/blake2b.h"

static char dir[64], path[128];

static void write_file(const char *p, const void *data, size_t len)
{
    FILE *f = fopen(p, "wb");
    REQUIRE(f);
    REQUIRE(fwrite(data, 1, len, f) == len);
    fclose(f);
}

CZ_TEST(builtin_v28)
{
    cz_manifest_t m;
    CHECK_OK(cz_manifest_builtin(NULL, &m));
    CHECK_EQ_U64(m.count, 44);
    const cz_manifest_entry_t *e = cz_manifest_find(
        &m, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
            "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk");
    REQUIRE(e);
    CHECK_EQ_STR(e->digest, "dc1ade9929ade1708238f155343044ac");
    CHECK_EQ_STR(e->cid, "QmamahpFCstMUqHi2qGtVoDnRrsXhid86qsfvoyCTKJqHr");
    CHECK_EQ_U64(e->sector_size, 2048);
    CHECK(!cz_manifest_find(&m, "v28-nothing.vk"));
    cz_manifest_clear(&m);
}

CZ_TEST(malformed_manifest)
{
    cz_manifest_t m;
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 0));
    const char *bad[] = {
        "{ broken",
        "[1, 2]",
        "{\"a.vk\": {\"cid\": \"Q\", \"digest\": \"xyz\", \"sector_size\": 2048}}",
        "{\"a.vk\": {\"cid\": \"Q\", \"digest\": \"00112233445566778899aabbccddeeff\"}}",
        "{\"d/a.vk\": {\"cid\": \"Q\", \"digest\": \"00112233445566778899aabbccddeeff\", "
        "\"sector_size\": 1}}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ_INT(cz_manifest_parse(ctx, &m, bad[i], strlen(bad[i])), CZ_EFORMAT);
        CHECK(strstr(cz_ctx_message(ctx), "manifest"));
        CHECK_EQ_U64(m.count, 0);
    }
    cz_ctx_free(ctx);
}

CZ_TEST(digest_check_and_cache)
{
    snprintf(dir, sizeof dir, "/tmp/cz_manifest_XXXXXX");
    REQUIRE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/v28-test.vk", dir);
    /* 3 MiB + 5: several 1 MiB reads, a tail off the block boundary */
    size_t len = (3u << 20) + 5;
    uint8_t *data = malloc(len);
    REQUIRE(data);
    for (size_t i = 0; i < len; i++)
        data[i] = (uint8_t)(i * 131 + (i >> 12));
    write_file(path, data, len);
    uint8_t h[64];
    cz_blake2b(h, 64, data, len);
    char want[33], got[33];
    for (int i = 0; i < 16; i++)
        sprintf(want + 2 * i, "%02x", h[i]);
    CHECK_OK(cz_params_digest(NULL, path, got));
    CHECK_EQ_STR(got, want);

    char text[512];
    snprintf(text, sizeof text,
             "{\"v28-test.vk\": {\"cid\": \"Qm1\", \"digest\": \"%s\", \"sector_size\": 2048},"
             " \"v28-other.vk\": {\"cid\": \"Qm2\", \"digest\": \"%s\", \"sector_size\": 2048}}",
             want, "00000000000000000000000000000000");
    cz_manifest_t m;
    cz_ctx_t *ctx;
    CHECK_OK(cz_ctx_new(&ctx, NULL, 0));
    CHECK_OK(cz_manifest_parse(ctx, &m, text, strlen(text)));
    CHECK_OK(cz_params_check_file(ctx, &m, path));

    cz_pcheck_t *c;
    CHECK_OK(cz_pcheck_new(&c, &m));
    CHECK_OK(cz_pcheck_file(c, ctx, path));
    /* other bytes behind the same size and mtime: the cached verdict */
    struct stat st;
    REQUIRE(stat(path, &st) == 0);
    data[len / 2] ^= 1;
    write_file(path, data, len);
    struct timespec times[2] = { st.st_atim, st.st_mtim };
    REQUIRE(utimensat(AT_FDCWD, path, times, 0) == 0);
    CHECK_OK(cz_pcheck_file(c, ctx, path));
    CHECK_EQ_INT(cz_params_check_file(ctx, &m, path), CZ_EMISMATCH); /* uncached: corrupt */
    CHECK(strstr(cz_ctx_message(ctx), want));
    /* a new mtime: digested again, and the mismatch is remembered */
    times[1].tv_sec -= 100;
    REQUIRE(utimensat(AT_FDCWD, path, times, 0) == 0);
    CHECK_EQ_INT(cz_pcheck_file(c, ctx, path), CZ_EMISMATCH);
    CHECK_EQ_INT(cz_pcheck_file(c, ctx, path), CZ_EMISMATCH);
    CHECK_EQ_INT(cz_pcheck_before_use(c, ctx, path), CZ_EMISMATCH);
    /* a name outside the manifest: NOTFOUND for the check, fine before use */
    char other[160];
    snprintf(other, sizeof other, "%s/test-params-seed7.params", dir);
    write_file(other, "x", 1);
    CHECK_EQ_INT(cz_pcheck_file(c, ctx, other), CZ_ENOTFOUND);
    CHECK_OK(cz_pcheck_before_use(c, ctx, other));
    CHECK_OK(cz_pcheck_before_use(NULL, ctx, path)); /* no check configured */
    /* unreadable: CZ_EIO, not remembered */
    unlink(other);
    CHECK_EQ_INT(cz_pcheck_file(c, ctx, other), CZ_EIO);
    cz_pcheck_free(c);

    /* the built-in check cache owns its manifest */
    CHECK_OK(cz_pcheck_new_builtin(ctx, &c));
    CHECK_OK(cz_pcheck_before_use(c, ctx, path)); /* v28-test.vk: not published */
    cz_pcheck_free(c);
    cz_manifest_clear(&m);
    cz_ctx_free(ctx);
    unlink(path);
    rmdir(dir);
    free(data);
}

CZ_TEST_MAIN()
