/*
 * tests/fuzz/fuzz_params.c — libFuzzer target for the groth16 parsers.
 *
 * Every input goes to all of them: the params parser, the .vk parser (whole
 * buffer and prefix), the single and the multi-partition proof decoders.
 * Beyond "never crash, never read out of bounds" (ASan/UBSan), it checks the
 * round-trip property the formats promise: whatever a parser accepts
 * re-encodes to exactly the bytes it came from.
 *
 * Build: cmake -DCUZK_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCUZK_SANITIZE=address,undefined
 * Run:   ./fuzz_params -max_total_time=120 tests/fuzz/corpus/params
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "groth16/params.h"
#include "groth16/proof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static cz_ctx_t *fuzz_ctx(void)
{
    static cz_ctx_t *ctx;
    if (!ctx && cz_ctx_new(&ctx, NULL, 1) != 0)
        abort();
    return ctx;
}

static void must_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (memcmp(a, b, n) != 0)
        __builtin_trap(); /* accepted bytes that do not round-trip */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cz_ctx_t *ctx = fuzz_ctx();

    cz_params_t *p = NULL;
    if (cz_params_parse(ctx, &p, data, size, NULL) == CZ_OK) {
        size_t n = cz_params_encoded_size(p);
        uint8_t *out = malloc(n);
        if (n != size || !out || cz_params_encode(ctx, out, n, p) != CZ_OK)
            __builtin_trap();
        must_equal(out, data, size);
        free(out);
        cz_params_free(p);
    }

    cz_vk_t vk;
    size_t used = 0;
    if (cz_vk_parse(ctx, &vk, data, size, &used) == CZ_OK) {
        size_t n = cz_vk_encoded_size(vk.n_ic);
        uint8_t *out = malloc(n);
        if (n != used || !out)
            __builtin_trap();
        cz_vk_encode(out, &vk);
        must_equal(out, data, n);
        free(out);
        cz_vk_clear(&vk);
        if (cz_vk_parse(ctx, &vk, data, size, NULL) == CZ_OK) {
            if (used != size)
                __builtin_trap();
            cz_vk_clear(&vk);
        }
    }

    if (size >= CZ_PROOF_BYTES) {
        cz_proof_t pf;
        uint8_t out[CZ_PROOF_BYTES];
        if (cz_proof_decode(ctx, &pf, data) == CZ_OK) {
            cz_proof_encode(out, &pf);
            must_equal(out, data, CZ_PROOF_BYTES);
        }
    }
    size_t parts = size / CZ_PROOF_BYTES;
    if (parts <= 16) {
        cz_proof_t pf[16];
        if (cz_proofs_decode(ctx, pf, parts, data, size) == CZ_OK) {
            uint8_t out[16 * CZ_PROOF_BYTES];
            cz_proofs_encode(out, pf, parts);
            must_equal(out, data, size);
        }
    }
    return 0;
}
