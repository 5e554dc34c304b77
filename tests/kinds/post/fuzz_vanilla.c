/*
 * tests/kinds/post/fuzz_vanilla.c — fuzz target for the bincode vanilla-proof
 * reader (src/kinds/post/bincode.c); replayed over tests/kinds/post/corpus in every
 * build (post_fuzz_replay), a libFuzzer build with -DCUZK_FUZZ=ON and clang:
 *   build-fuzz/tests/fuzz_vanilla -runs=1000000 tests/kinds/post/corpus
 *
 * Input: byte 0 picks the tree shape (0 winning 2KiB 8-0-0, 1 window 2KiB,
 * 2 window 32GiB 8-8-0, 3 window 64GiB 8-8-2; mod 4), the rest is the
 * bincode FallbackPoStSectorProof. Properties: no crash or out-of-bounds
 * read (ASan/UBSan); a rejection is CZ_EFORMAT with a message naming a
 * byte offset; an accepted proof re-serializes to exactly the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "kinds/post/post.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static cz_ctx_t *fuzz_ctx(void)
{
    static cz_ctx_t *ctx;
    if (!ctx && cz_ctx_new(&ctx, NULL, 1) != 0)
        abort();
    return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct {
        cz_post_kind_t kind;
        uint64_t bytes;
    } shapes[] = { { CZ_POST_WINNING, 2048 },
                   { CZ_POST_WINDOW, 2048 },
                   { CZ_POST_WINDOW, 32ull << 30 },
                   { CZ_POST_WINDOW, 64ull << 30 } };
    if (size < 1)
        return 0;
    cz_post_params_t p;
    if (cz_post_params_sector(&p, shapes[data[0] % 4].kind, shapes[data[0] % 4].bytes))
        abort();
    cz_ctx_t *ctx = fuzz_ctx();
    cz_post_vanilla_t v;
    int rc = cz_post_vanilla_parse(ctx, &p, data + 1, size - 1, &v);
    if (rc != CZ_OK) {
        if (rc != CZ_EFORMAT || !strstr(cz_ctx_message(ctx), "byte"))
            abort();
        return 0;
    }
    uint8_t *out;
    size_t len;
    if (cz_post_vanilla_write(&p, &v, &out, &len) != CZ_OK || len != size - 1 ||
        memcmp(out, data + 1, len))
        abort();
    free(out);
    cz_post_vanilla_free(&v);
    return 0;
}
