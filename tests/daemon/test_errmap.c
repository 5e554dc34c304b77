/*
 * tests/daemon/test_errmap.c — docs/API.md lists exactly the daemon's error
 * table (daemon/errmap.h): the two markdown tables between the errmap
 * markers are generated here from the C tables and compared line by line;
 * on a difference the expected text is printed, ready to paste. Also: the
 * mapping's contexts (a params endpoint vs a request) and its fallback.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/error.h"
#include "daemon/errmap.h"
#include "cz_test.h"

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The text between "<!-- errmap:NAME -->\n" and "<!-- /errmap:NAME -->" (malloc'd) or NULL. */
static char *section(const char *doc, const char *name)
{
    char open_m[64], close_m[64];
    snprintf(open_m, sizeof open_m, "<!-- errmap:%s -->\n", name);
    snprintf(close_m, sizeof close_m, "<!-- /errmap:%s -->", name);
    const char *a = strstr(doc, open_m), *b = a ? strstr(a, close_m) : NULL;
    if (!b)
        return NULL;
    a += strlen(open_m);
    char *out = malloc((size_t)(b - a) + 1);
    memcpy(out, a, (size_t)(b - a));
    out[b - a] = '\0';
    return out;
}

static void append(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

static void errors_table(char *buf, size_t cap)
{
    buf[0] = '\0';
    append(buf, cap, "| status | error | gRPC | when |\n| --- | --- | --- | --- |\n");
    for (int e = 0; e < CZ_API_E__COUNT; e++) {
        const cz_api_err_info_t *i = cz_api_err_info((cz_api_err_t)e);
        append(buf, cap, "| %d | `%s` | %s | %s |\n", i->http, i->name, cz_grpc_code_name(i->grpc),
               i->when);
    }
}

static void codes_table(char *buf, size_t cap)
{
    buf[0] = '\0';
    append(buf, cap, "| code | a request | preload / evict |\n| --- | --- | --- |\n");
    static const int codes[] = {
#define CZ__CODE(name, value, desc) value,
        CZ_ERRNO_MAP(CZ__CODE)
#undef CZ__CODE
    };
    for (size_t k = 0; k < sizeof codes / sizeof codes[0]; k++) {
        const int c = codes[k];
        if (c == CZ_OK)
            continue;
        const cz_api_err_info_t *r = cz_api_err_info(cz_errmap_of(c, CZ_ERRMAP_REQUEST));
        const cz_api_err_info_t *p = cz_api_err_info(cz_errmap_of(c, CZ_ERRMAP_PARAMS));
        append(buf, cap, "| `%s` | %d `%s` | %d `%s` |\n", cz_err_name(c), r->http, r->name,
               p->http, p->name);
    }
}

static void check_section(const char *doc, const char *name, const char *want)
{
    char *got = section(doc, name);
    REQUIRE(got != NULL);
    if (strcmp(got, want)) {
        CZ__FAIL("docs/API.md errmap:%s differs from daemon/errmap.h; it should read:\n%s", name,
                 want);
    }
    free(got);
}

CZ_TEST(api_md_lists_exactly_the_table)
{
    char *doc = read_all(CZ_API_MD);
    REQUIRE(doc != NULL);
    static char want[16384];
    errors_table(want, sizeof want);
    check_section(doc, "errors", want);
    codes_table(want, sizeof want);
    check_section(doc, "codes", want);
    free(doc);
}

CZ_TEST(contexts_and_fallback)
{
    CHECK_EQ_INT(cz_errmap_of(CZ_EFORMAT, CZ_ERRMAP_REQUEST), CZ_API_E_INVALID_REQUEST);
    CHECK_EQ_INT(cz_errmap_of(CZ_EFORMAT, CZ_ERRMAP_PARAMS), CZ_API_E_INVALID_PARAMS);
    CHECK_EQ_INT(cz_errmap_of(CZ_EIO, CZ_ERRMAP_REQUEST), CZ_API_E_STORAGE_UNAVAILABLE);
    CHECK_EQ_INT(cz_api_err_info(CZ_API_E_STORAGE_UNAVAILABLE)->http, 503);
    CHECK_EQ_INT(cz_errmap_of(-99, CZ_ERRMAP_REQUEST), CZ_API_E_INTERNAL);
    CHECK_EQ_INT(cz_api_err_info((cz_api_err_t)999)->http, 500);
    for (int e = 0; e < CZ_API_E__COUNT; e++) { /* names unique, statuses 4xx/5xx */
        const cz_api_err_info_t *a = cz_api_err_info((cz_api_err_t)e);
        CHECK(a->http >= 400 && a->http < 600);
        for (int f = e + 1; f < CZ_API_E__COUNT; f++)
            CHECK(strcmp(a->name, cz_api_err_info((cz_api_err_t)f)->name) != 0);
    }
}

/* The gRPC door answers through the same table (daemon/grpc/service.c reply_error). */
CZ_TEST(grpc_codes_come_from_the_table)
{
    /* a full disk is retryable, not a bug */
    CHECK_EQ_INT(cz_errmap_grpc(CZ_EIO, CZ_ERRMAP_REQUEST), CZ_GRPC_UNAVAILABLE);
    /* a request_id reused with another request */
    CHECK_EQ_INT(cz_errmap_grpc(CZ_EBUSY, CZ_ERRMAP_REQUEST), CZ_GRPC_ALREADY_EXISTS);
    /* shutting down, or no usable backend: not "unimplemented" */
    CHECK_EQ_INT(cz_errmap_grpc(CZ_EUNAVAIL, CZ_ERRMAP_REQUEST), CZ_GRPC_UNAVAILABLE);
    /* evicting params a job uses */
    CHECK_EQ_INT(cz_errmap_grpc(CZ_EBUSY, CZ_ERRMAP_PARAMS), CZ_GRPC_FAILED_PRECONDITION);
    CHECK_EQ_INT(cz_errmap_grpc(CZ_ENOTFOUND, CZ_ERRMAP_PARAMS), CZ_GRPC_NOT_FOUND);
    CHECK_EQ_INT(cz_errmap_grpc(CZ_ECANCELED, CZ_ERRMAP_REQUEST), CZ_GRPC_CANCELLED);
    CHECK_EQ_INT(cz_errmap_grpc(CZ_ENOMEM, CZ_ERRMAP_REQUEST), CZ_GRPC_RESOURCE_EXHAUSTED);
    CHECK_EQ_INT(cz_errmap_grpc(CZ_EINVAL, CZ_ERRMAP_REQUEST), CZ_GRPC_INVALID_ARGUMENT);
    CHECK_EQ_INT(cz_errmap_grpc(-99, CZ_ERRMAP_REQUEST), CZ_GRPC_INTERNAL);
}

CZ_TEST_MAIN()
