/*
 * tests/fuzz/fuzz_c1.c — libFuzzer target for the C1 JSON parser
 * (src/kinds/porep/c1_json.c).
 *
 * Properties: never crash or read out of bounds (ASan/UBSan); every error
 * is CZ_EFORMAT (or CZ_ENOMEM) with a message; whatever the parser accepts
 * re-serializes and re-parses to the same JSON text (writer and parser
 * agree), and native verification runs to a verdict without crashing.
 *
 * Build: cmake -DCUZK_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCUZK_SANITIZE=address,undefined
 * Run:   ./fuzz_c1 -max_total_time=120 tests/fuzz/corpus/c1
 * Seeds: tests/fuzz/corpus/c1 (a 2KiB C1 from `cuzk porep gen-c1 --sector-size
 * 2KiB --random 1`, and small malformed documents).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "kinds/porep/c1.h"

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
    cz_ctx_t *ctx = fuzz_ctx();
    cz_c1_t c;
    int rc = cz_c1_parse(ctx, &c, (const char *)data, size);
    if (rc != CZ_OK) {
        if (rc != CZ_EFORMAT && rc != CZ_ENOMEM)
            abort();
        if (!cz_ctx_message(ctx)[0])
            abort();
        return 0;
    }
    char *a = NULL, *b = NULL;
    if (cz_c1_to_json(ctx, &c, &a) != CZ_OK)
        abort();
    cz_c1_t d;
    if (cz_c1_parse(ctx, &d, a, strlen(a)) != CZ_OK)
        abort();
    if (cz_c1_to_json(ctx, &d, &b) != CZ_OK || strcmp(a, b) != 0)
        abort();
    (void)cz_c1_verify(ctx, &c);
    free(a);
    free(b);
    cz_c1_free(&d);
    cz_c1_free(&c);
    return 0;
}
