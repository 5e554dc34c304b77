/*
 * tests/fuzz/replay.c — the main() of every fuzz target's replay executable.
 *
 * A fuzz harness defines LLVMFuzzerTestOneInput and nothing else; linked
 * with -fsanitize=fuzzer it is a libFuzzer target (-DCUZK_FUZZ=ON, clang),
 * linked with this file it is a replay that runs in every build (and under
 * ASan/UBSan in `make asan`): each file named, or each file of each folder
 * named (the seed corpus), is passed to the harness once, in a buffer of
 * exactly its size so that a read past the end is caught by ASan. A harness
 * reports a broken property by aborting; the replay then fails.
 *
 *   REPLAY [--prefixes N] [--flips STRIDE] PATH...
 *
 * --prefixes N   also every prefix of each input, of lengths 0, 1, 2, ...
 *                at a step of 1 + min(k / 64, n / N) after length k: the
 *                first bytes (headers, lengths) one by one, then sparser,
 *                but at least about N prefixes of an n-byte input; each
 *                truncation point is its own error path.
 * --flips STRIDE also the whole input with one byte flipped (xor 0x81), at
 *                offsets 1, 1 + STRIDE, 1 + 2*STRIDE, ...
 *
 * Exit status: 0 when every input ran (the harness returned), 1 when a path
 * could not be read or no input was found.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    size_t prefixes;    /* 0: none; else N of --prefixes */
    size_t flip_stride; /* 0: none */
    size_t files, runs;
} replay_t;

/* Reads all of path into a malloc'd buffer of exactly its size (1 byte
 * allocated for an empty file). Returns NULL, having said why, on error. */
static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        uint8_t *nb = realloc(buf, cap *= 2);
        if (!nb)
            free(buf);
        buf = nb;
    }
    int err = ferror(f);
    fclose(f);
    if (!buf || err) {
        fprintf(stderr, "replay: %s: %s\n", path, buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    /* the harness sees a buffer that ends where the input ends */
    uint8_t *exact = malloc(n ? n : 1);
    if (exact)
        memcpy(exact, buf, n);
    free(buf);
    *len = n;
    return exact;
}

static void run_one(replay_t *r, const uint8_t *data, size_t n)
{
    /* a fresh copy per run: the harness may keep no pointer into it, and
     * a run of a prefix ends exactly at the prefix */
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy) {
        fprintf(stderr, "replay: out of memory\n");
        exit(1);
    }
    memcpy(copy, data, n);
    LLVMFuzzerTestOneInput(copy, n);
    free(copy);
    r->runs++;
}

static int replay_file(replay_t *r, const char *path)
{
    size_t n = 0;
    uint8_t *data = read_all(path, &n);
    if (!data)
        return 1;
    r->files++;
    run_one(r, data, n);
    if (r->prefixes) {
        for (size_t k = 0; k < n;) {
            run_one(r, data, k);
            size_t a = k / 64, b = n / r->prefixes;
            k += 1 + (a < b ? a : b);
        }
    }
    if (r->flip_stride) {
        for (size_t at = 1; at < n; at += r->flip_stride) {
            data[at] ^= 0x81;
            run_one(r, data, n);
            data[at] ^= 0x81;
        }
    }
    free(data);
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder's files in name order (a failure then reproduces in the same
 * order); a path that is not a folder is replayed as a file. */
static int replay_path(replay_t *r, const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return replay_file(r, path);
    char **names = NULL;
    size_t count = 0, cap = 0;
    int bad = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (count == cap) {
            char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
            if (!nn) {
                bad = 1;
                break;
            }
            names = nn;
        }
        size_t len = strlen(de->d_name) + 1;
        if (!(names[count] = malloc(len))) {
            bad = 1;
            break;
        }
        memcpy(names[count], de->d_name, len);
        count++;
    }
    closedir(d);
    if (count)
        qsort(names, count, sizeof *names, cmp_names);
    for (size_t i = 0; i < count; i++) {
        size_t len = strlen(path) + strlen(names[i]) + 2;
        char *p = malloc(len);
        if (!p) {
            bad = 1;
        } else {
            snprintf(p, len, "%s/%s", path, names[i]);
            bad |= replay_file(r, p);
            free(p);
        }
        free(names[i]);
    }
    free(names);
    if (bad)
        fprintf(stderr, "replay: %s: could not read every file\n", path);
    return bad;
}

static size_t parse_count(const char *opt, const char *s)
{
    char *end = NULL;
    unsigned long v = s ? strtoul(s, &end, 10) : 0;
    if (!s || !*s || *end || v == 0) {
        fprintf(stderr, "replay: %s needs a positive count\n", opt);
        exit(1);
    }
    return (size_t)v;
}

int main(int argc, char **argv)
{
    replay_t r = { 0 };
    int bad = 0, paths = 0;
    /* options first, wherever they stand, so that they apply to every path */
    for (int i = 1; i < argc; i++) {
        size_t *opt = !strcmp(argv[i], "--prefixes") ? &r.prefixes
                      : !strcmp(argv[i], "--flips")  ? &r.flip_stride
                                                     : NULL;
        if (opt) {
            *opt = parse_count(argv[i], argv[i + 1]); /* argv[argc] is NULL */
            argv[i] = argv[i + 1] = NULL;
            i++;
        }
    }
    for (int i = 1; i < argc; i++) {
        if (argv[i]) {
            bad |= replay_path(&r, argv[i]);
            paths++;
        }
    }
    if (!paths) {
        fprintf(stderr, "usage: replay [--prefixes N] [--flips STRIDE] PATH...\n");
        return 1;
    }
    if (bad || r.files == 0) {
        fprintf(stderr, "replay: %zu files replayed, %s\n", r.files,
                bad ? "some could not be read" : "none found");
        return 1;
    }
    printf("replay: %zu files, %zu runs, no crash\n", r.files, r.runs);
    return 0;
}
