/*
 * tests/daemon/daemon_test.h — cuzkd's core in process, for the daemon's C
 * tests (test_server.c, test_input_copies.c): one function that makes a
 * server the way they all want it. Not thread-safe (a test's set-up).
 */
#ifndef CUZK_TESTS_DAEMON_TEST_H
#define CUZK_TESTS_DAEMON_TEST_H

#include <stdio.h>

#include "daemon/config.h"
#include "daemon/server.h"

/*
 * A server over journal |root|/|journal| and params |root|/params (both made
 * by the caller or the server), on the CPU backend with 2 synthesis threads,
 * no timeline and a 1 GiB memory budget; |fault| a test.fault spec ("": none);
 * |kinds| its job kinds (borrowed; NULL: the library's). *cfg is the caller's
 * to clear (cz_dconfig_clear) after cz_server_free. NULL on failure, said on
 * stderr.
 */
static inline cz_server_t *cz_test_server_new(cz_dconfig_t *cfg, const char *root,
                                              const char *journal, const char *fault,
                                              const struct cz_kinds *kinds)
{
    char jd[256], pd[256];
    snprintf(jd, sizeof jd, "%s/%s", root, journal);
    snprintf(pd, sizeof pd, "%s/params", root);
    cz_ctx_t *ctx = NULL;
    cz_server_t *s = NULL;
    if (cz_ctx_new(&ctx, NULL, 1) || cz_dconfig_defaults(cfg) ||
        cz_dconfig_set(ctx, cfg, "journal.dir", jd) || cz_dconfig_set(ctx, cfg, "params.dir", pd) ||
        cz_dconfig_set(ctx, cfg, "devices.backend", "cpu") ||
        cz_dconfig_set(ctx, cfg, "synthesis.threads", "2") ||
        cz_dconfig_set(ctx, cfg, "timeline.enabled", "false") ||
        cz_dconfig_set(ctx, cfg, "memory.total_budget", "1GiB") ||
        cz_dconfig_set(ctx, cfg, "test.fault", fault) || cz_dconfig_validate(ctx, cfg)) {
        fprintf(stderr, "config: %s\n", ctx ? cz_ctx_message(ctx) : "out of memory");
    } else {
        cfg->kinds = kinds;
        if (cz_server_new(ctx, cfg, &s))
            fprintf(stderr, "server: %s\n", cz_ctx_message(ctx));
    }
    cz_ctx_free(ctx);
    return s;
}

#endif /* CUZK_TESTS_DAEMON_TEST_H */
