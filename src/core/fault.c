/*
 * core/fault.c — the fault sites' decision, the ctx's fault object and the
 * allocation wrapper (see core/fault.h).
 */
#include "core/fault.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const SITE_NAMES[CZ_FAULT__COUNT] = {
    [CZ_FAULT_ALLOC] = "alloc",
    [CZ_FAULT_WRITE] = "write",
    [CZ_FAULT_DEVICE] = "device",
    [CZ_FAULT_DEVICE_STEP] = "device_step",
    [CZ_FAULT_PREPARE] = "prepare",
    [CZ_FAULT_PARAMS_LOAD] = "params_load",
    [CZ_FAULT_DEVICE_ALLOC] = "device_alloc",
};

void cz_fault_init(cz_fault_t *f)
{
    f->cb = NULL;
    f->cb_arg = NULL;
    for (int s = 0; s < CZ_FAULT__COUNT; s++) {
        atomic_init(&f->reached[s], 0);
        atomic_init(&f->fail_at[s], 0);
        atomic_init(&f->fire_last[s], 0);
        atomic_init(&f->delay_ms[s], 0);
    }
}

void cz_fault_arm_times(cz_fault_t *f, cz_fault_site_t site, uint64_t n, uint64_t times,
                        uint32_t ms)
{
    atomic_store(&f->fail_at[site], 0); /* disarmed while the counter restarts */
    atomic_store(&f->reached[site], 0);
    atomic_store(&f->fire_last[site],
                 times && n <= UINT64_MAX - times ? n + times - 1 : UINT64_MAX);
    atomic_store(&f->delay_ms[site], ms);
    atomic_store(&f->fail_at[site], n);
}

void cz_fault_arm(cz_fault_t *f, cz_fault_site_t site, uint64_t n, bool persist)
{
    cz_fault_arm_times(f, site, n, persist ? 0 : 1, 0);
}

static void sleep_ms(uint32_t ms)
{
    struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) && errno == EINTR)
        ;
}

uint64_t cz_fault_reached(const cz_fault_t *f, cz_fault_site_t site)
{
    return f ? atomic_load(&f->reached[site]) : 0;
}

const char *cz_fault_site_name(cz_fault_site_t site)
{
    return (unsigned)site < CZ_FAULT__COUNT ? SITE_NAMES[site] : "?";
}

int cz__fault_code(cz_fault_site_t site)
{
    switch (site) {
    case CZ_FAULT_ALLOC:
    case CZ_FAULT_PREPARE:
    case CZ_FAULT_DEVICE_ALLOC: return CZ_ENOMEM;
    case CZ_FAULT_WRITE:
    case CZ_FAULT_PARAMS_LOAD: return CZ_EIO;
    default: return CZ_EDEVICE;
    }
}

int cz__fault_sim(cz_fault_t *f, cz_ctx_t *ctx, cz_fault_site_t site)
{
    if (!f)
        return CZ_OK;
    uint64_t n = atomic_fetch_add(&f->reached[site], 1) + 1;
    int rc = f->cb ? f->cb(f->cb_arg, site, n) : CZ_OK;
    uint64_t at = atomic_load(&f->fail_at[site]);
    if (rc == CZ_OK && at && n >= at && n <= atomic_load(&f->fire_last[site])) {
        uint32_t ms = atomic_load(&f->delay_ms[site]);
        if (ms) {
            sleep_ms(ms);
            return CZ_OK;
        }
        rc = cz__fault_code(site);
    }
    if (rc != CZ_OK)
        cz_fail(ctx, rc, "injected fault: %s #%" PRIu64, SITE_NAMES[site], n);
    return rc;
}

int cz_fault_parse(cz_fault_t *f, cz_ctx_t *ctx, const char *spec)
{
    char buf[256];
    if (strlen(spec) >= sizeof buf)
        return cz_fail(ctx, CZ_EINVAL, "fault spec: longer than %zu characters", sizeof buf - 1);
    snprintf(buf, sizeof buf, "%s", spec);
    char *save = NULL;
    for (char *part = strtok_r(buf, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(part, ':');
        int site = -1;
        if (colon) {
            *colon = '\0';
            for (int s = 0; s < CZ_FAULT__COUNT; s++)
                if (!strcmp(part, SITE_NAMES[s]))
                    site = s;
        }
        char *end = NULL;
        unsigned long long n = colon ? strtoull(colon + 1, &end, 10) : 0;
        unsigned long long times = 1;
        bool bad_times = false;
        if (end && *end == '+') {
            times = 0;
            end++;
        } else if (end && *end == 'x') {
            char *num = end + 1;
            times = strtoull(num, &end, 10);
            bad_times = end == num || times == 0;
        }
        unsigned long ms = 0;
        bool delay = end && *end == '~', bad_delay = false;
        if (delay) {
            char *num = end + 1;
            ms = strtoul(num, &end, 10);
            bad_delay = end == num || ms == 0 || ms > 3600000;
        }
        if (site < 0 || !end || end == colon + 1 || *end || n == 0 || bad_times || bad_delay)
            return cz_fail(ctx, CZ_EINVAL,
                           "fault spec '%s': want site:n[+|xK][~MS] with site "
                           "one of alloc, write, device, device_step, prepare, params_load, "
                           "device_alloc, n, K >= 1 and "
                           "1 <= MS <= 3600000",
                           spec);
        cz_fault_arm_times(f, (cz_fault_site_t)site, n, times, (uint32_t)ms);
    }
    return CZ_OK;
}

void *cz__fault_malloc(cz_ctx_t *ctx, size_t n)
{
    if (cz__fault_sim(cz_ctx_fault(ctx), ctx, CZ_FAULT_ALLOC))
        return NULL;
    return malloc(n);
}

void *cz__fault_calloc(cz_ctx_t *ctx, size_t count, size_t size)
{
    if (cz__fault_sim(cz_ctx_fault(ctx), ctx, CZ_FAULT_ALLOC))
        return NULL;
    return calloc(count, size);
}

void *cz__fault_realloc(cz_ctx_t *ctx, void *p, size_t n)
{
    if (cz__fault_sim(cz_ctx_fault(ctx), ctx, CZ_FAULT_ALLOC))
        return NULL;
    return realloc(p, n);
}

int cz__fault_memalign(cz_ctx_t *ctx, void **out, size_t align, size_t n)
{
    *out = NULL;
    if (cz__fault_sim(cz_ctx_fault(ctx), ctx, CZ_FAULT_ALLOC))
        return CZ_ENOMEM;
    return posix_memalign(out, align, n) ? CZ_ENOMEM : CZ_OK;
}
