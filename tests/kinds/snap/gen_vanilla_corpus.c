/*
 * tests/kinds/snap/gen_vanilla_corpus.c — writes the seed corpus of
 * fuzz_vanilla: a valid 2KiB PartitionProof (selector byte 0) and a few
 * damaged ones. Usage: gen_vanilla_corpus DIR
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "kinds/snap/vanilla.h"

static int put(const char *dir, const char *name, const uint8_t *b, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, n, f) != n) {
        perror(path);
        return 1;
    }
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_vanilla_corpus DIR\n");
        return 2;
    }
    cz_snap_input_t in;
    cz_snap_sector_t s;
    if (tu_make_2kib(&in, &s, 1))
        return 1;
    size_t n = cz_snap_vanilla_size(&in.params);
    uint8_t *b = malloc(n + 1);
    if (!b || cz_snap_vanilla_encode(&in, b + 1, n))
        return 1;
    b[0] = 0;
    int bad = put(argv[1], "valid_2kib", b, n + 1);
    bad |= put(argv[1], "truncated_2kib", b, n / 2);
    b[1 + 32] = 9; /* apex_leafs length 9 */
    bad |= put(argv[1], "bad_apex_len", b, n + 1);
    b[1 + 32] = 8;
    b[0] = 1; /* read as a 32GiB proof */
    bad |= put(argv[1], "wrong_size", b, n + 1);
    free(b);
    cz_snap_input_free(&in);
    cz_snap_sector_free(&s);
    return bad;
}
