/*
 * tests/cz_test.h — the tiny test harness every cuzk test uses.
 *
 * A test program lists its cases with CZ_TEST(name) { ... } and ends with
 * CZ_TEST_MAIN(). Checks print both sides on failure and mark the case
 * failed; the run continues with the next case. The program exits 0 only if
 * every case passed, 77 (ctest's SKIP_RETURN_CODE) if it called cz_skip(),
 * 1 otherwise. Its last line is "N passed, N failed".
 *
 * Run one case: ./test_x NAME (substring match).
 */
#ifndef CUZK_TEST_H
#define CUZK_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void cz_test_fn(void);
struct cz_test_case {
    const char *name;
    cz_test_fn *fn;
};

#define CZ_MAX_TESTS 256
static struct cz_test_case cz__tests[CZ_MAX_TESTS];
static int cz__ntests, cz__failed_checks, cz__skipped;

/* laid out by hand: */
/* clang-format off */
#define CZ_TEST(name)                                                         \
    static void name(void);                                                   \
    __attribute__((constructor)) static void cz__reg_##name(void)             \
    {                                                                         \
        if (cz__ntests < CZ_MAX_TESTS)                                        \
            cz__tests[cz__ntests++] = (struct cz_test_case){ #name, name };   \
    }                                                                         \
    static void name(void)
/* clang-format on */

/* laid out by hand: */
/* clang-format off */
#define CZ__FAIL(...)                                                         \
    do {                                                                      \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                       \
        fprintf(stderr, __VA_ARGS__);                                         \
        fputc('\n', stderr);                                                  \
        cz__failed_checks++;                                                  \
    } while (0)
/* clang-format on */

/* laid out by hand: */
/* clang-format off */
#define CHECK(cond)                                                           \
    do { if (!(cond)) CZ__FAIL("CHECK(%s) failed", #cond); } while (0)
/* clang-format on */
/* Fatal variant: stop this case (later checks would only cascade). */
/* laid out by hand: */
/* clang-format off */
#define REQUIRE(cond)                                                         \
    do { if (!(cond)) { CZ__FAIL("REQUIRE(%s) failed", #cond); return; } } while (0)
/* clang-format on */
/* laid out by hand: */
/* clang-format off */
#define CHECK_EQ_INT(a, b)                                                    \
    do {                                                                      \
        long long cz__a = (long long)(a), cz__b = (long long)(b);             \
        if (cz__a != cz__b)                                                   \
            CZ__FAIL("%s == %s: %lld != %lld", #a, #b, cz__a, cz__b);         \
    } while (0)
/* clang-format on */
/* laid out by hand: */
/* clang-format off */
#define CHECK_EQ_U64(a, b)                                                    \
    do {                                                                      \
        uint64_t cz__a = (uint64_t)(a), cz__b = (uint64_t)(b);                \
        if (cz__a != cz__b)                                                   \
            CZ__FAIL("%s == %s: %" PRIu64 " != %" PRIu64, #a, #b, cz__a, cz__b); \
    } while (0)
/* clang-format on */
/* laid out by hand: */
/* clang-format off */
#define CHECK_EQ_STR(a, b)                                                    \
    do {                                                                      \
        const char *cz__a = (a), *cz__b = (b);                                \
        if (strcmp(cz__a, cz__b) != 0)                                        \
            CZ__FAIL("%s == %s: \"%s\" != \"%s\"", #a, #b, cz__a, cz__b);     \
    } while (0)
/* clang-format on */
/* laid out by hand: */
/* clang-format off */
#define CHECK_MEM_EQ(a, b, len)                                               \
    do { if (memcmp((a), (b), (len)) != 0)                                    \
            CZ__FAIL("memory %s != %s (%zu bytes)", #a, #b, (size_t)(len)); } while (0)
/* clang-format on */
/* A cuzk call that must succeed: prints the code's name on failure. */
/* laid out by hand: */
/* clang-format off */
#define CHECK_OK(call)                                                        \
    do {                                                                      \
        int cz__rc = (call);                                                  \
        if (cz__rc != 0) CZ__FAIL("%s -> %d", #call, cz__rc);                 \
    } while (0)
/* clang-format on */

/* Mark the whole program skipped (e.g. no GPU), with the reason. */
static inline void cz_skip(const char *why)
{
    printf("SKIP: %s\n", why);
    cz__skipped = 1;
}

static inline int cz__run_tests(int argc, char **argv)
{
    int passed = 0, failed = 0;
    for (int i = 0; i < cz__ntests; i++) {
        if (argc > 1 && !strstr(cz__tests[i].name, argv[1]))
            continue;
        int before = cz__failed_checks;
        printf("[ RUN  ] %s\n", cz__tests[i].name);
        fflush(stdout);
        cz__tests[i].fn();
        if (cz__skipped) {
            printf("[ SKIP ] %s\n", cz__tests[i].name);
            return 77;
        }
        if (cz__failed_checks == before) {
            printf("[  OK  ] %s\n", cz__tests[i].name);
            passed++;
        } else {
            printf("[ FAIL ] %s\n", cz__tests[i].name);
            failed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

/* laid out by hand: */
/* clang-format off */
#define CZ_TEST_MAIN()                                                        \
    int main(int argc, char **argv) { return cz__run_tests(argc, argv); }
/* clang-format on */

#endif /* CUZK_TEST_H */
