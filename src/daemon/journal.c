/*
 * daemon/journal.c — atomic, fsynced job and result files (see daemon/journal.h).
 */
#include "daemon/journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/log.h"

struct cz_journal {
    char dir[PATH_MAX];
    int dir_fd;
    int lock_fd;
    cz_fault_t *fault; /* borrowed; NULL: none */
};

void cz_journal_set_fault(cz_journal_t *j, cz_fault_t *f)
{
    j->fault = f;
}

static int mkdir_p(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0700) && errno != EEXIST ? -1 : 0;
}

int cz_journal_open(cz_ctx_t *ctx, const char *dir, cz_journal_t **out)
{
    *out = NULL;
    if (strlen(dir) + 40 >= PATH_MAX)
        return cz_fail(ctx, CZ_EINVAL, "journal.dir: path too long");
    if (mkdir_p(dir))
        return cz_fail(ctx, CZ_EIO, "journal.dir %s: cannot create: %s", dir, strerror(errno));
    cz_journal_t *j = calloc(1, sizeof *j);
    if (!j)
        return cz_fail(ctx, CZ_ENOMEM, "journal");
    snprintf(j->dir, sizeof j->dir, "%s", dir);
    j->lock_fd = -1;
    j->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (j->dir_fd < 0) {
        int e = errno;
        free(j);
        return cz_fail(ctx, CZ_EIO, "journal.dir %s: %s", dir, strerror(e));
    }
    j->lock_fd = openat(j->dir_fd, "LOCK", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (j->lock_fd < 0 || flock(j->lock_fd, LOCK_EX | LOCK_NB)) {
        int e = errno;
        cz_journal_close(j);
        if (e == EWOULDBLOCK)
            return cz_fail(ctx, CZ_EBUSY, "journal.dir %s is in use by another cuzkd", dir);
        return cz_fail(ctx, CZ_EIO, "journal.dir %s/LOCK: %s", dir, strerror(e));
    }
    *out = j;
    return CZ_OK;
}

void cz_journal_close(cz_journal_t *j)
{
    if (!j)
        return;
    if (j->lock_fd >= 0)
        close(j->lock_fd);
    if (j->dir_fd >= 0)
        close(j->dir_fd);
    free(j);
}

const char *cz_journal_dir(const cz_journal_t *j)
{
    return j->dir;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int cz_journal_put(cz_journal_t *j, cz_ctx_t *ctx, const char *id, const char *suffix,
                   const json_t *doc)
{
    char name[128], tmp[160];
    snprintf(name, sizeof name, "%s.%s", id, suffix);
    snprintf(tmp, sizeof tmp, ".%s.tmp", name);
    char *text = json_dumps(doc, JSON_COMPACT);
    if (!text)
        return cz_fail(ctx, CZ_ENOMEM, "journal %s: encode", name);
    int fd = openat(j->dir_fd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int rc = CZ_OK;
    if (fd < 0) {
        rc = cz_fail(ctx, CZ_EIO, "journal %s/%s: %s", j->dir, tmp, strerror(errno));
    } else {
        size_t len = strlen(text);
        text[len] = '\n'; /* one line per file, replaces the NUL (not re-read as a string) */
        errno = ENOSPC;   /* what an injected write fault stands for */
        if (cz__fault_sim(j->fault, NULL, CZ_FAULT_WRITE) || write_all(fd, text, len + 1) ||
            fsync(fd))
            rc = cz_fail(ctx, CZ_EIO, "journal %s/%s: %s", j->dir, tmp,
                         errno == ENOSPC ? "no space left on device" : strerror(errno));
        if (close(fd) && rc == CZ_OK)
            rc = cz_fail(ctx, CZ_EIO, "journal %s/%s: close: %s", j->dir, tmp, strerror(errno));
        if (rc == CZ_OK && renameat(j->dir_fd, tmp, j->dir_fd, name))
            rc = cz_fail(ctx, CZ_EIO, "journal %s/%s: rename: %s", j->dir, name, strerror(errno));
        if (rc == CZ_OK && fsync(j->dir_fd))
            rc = cz_fail(ctx, CZ_EIO, "journal %s: fsync: %s", j->dir, strerror(errno));
        if (rc != CZ_OK)
            unlinkat(j->dir_fd, tmp, 0);
    }
    free(text);
    return rc;
}

void cz_journal_mark_fetched(cz_journal_t *j, const char *id)
{
    char name[128];
    snprintf(name, sizeof name, "%s.fetched", id);
    int fd = openat(j->dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0)
        close(fd);
}

void cz_journal_remove(cz_journal_t *j, const char *id)
{
    static const char *const suffixes[] = { "result", "fetched", "result.corrupt", "job.corrupt",
                                            "job" }; /* job last */
    char name[128];
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        snprintf(name, sizeof name, "%s.%s", id, suffixes[i]);
        unlinkat(j->dir_fd, name, 0);
    }
    fsync(j->dir_fd);
}

void cz_journal_set_aside(cz_journal_t *j, const char *id, const char *suffix)
{
    char name[128], aside[160];
    snprintf(name, sizeof name, "%s.%s", id, suffix);
    snprintf(aside, sizeof aside, "%s.corrupt", name);
    if (renameat(j->dir_fd, name, j->dir_fd, aside) == 0)
        fsync(j->dir_fd);
}

/* Parse |path| as a JSON object; NULL with why in |why| (a parse error, or not an object). */
static json_t *parse_doc(const char *path, char *why, size_t why_len)
{
    json_error_t err;
    json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (doc && json_is_object(doc))
        return doc;
    if (doc)
        snprintf(why, why_len, "not a JSON object");
    else
        snprintf(why, why_len, "line %d: %s", err.line, err.text);
    json_decref(doc);
    return NULL;
}

/* |name|'s document, or NULL: absent (*corrupt false) or set aside as NAME.corrupt. */
static json_t *load_doc(cz_journal_t *j, const char *name, bool *corrupt, char *why, size_t why_len)
{
    char path[PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/%s", j->dir, name);
    *corrupt = false;
    if (access(path, F_OK))
        return NULL;
    json_t *doc = parse_doc(path, why, why_len);
    if (!doc) {
        CZ_LOGE("journal file corrupt, set aside", "file=%s error=\"%s\"", path, why);
        char aside[PATH_MAX + 160];
        snprintf(aside, sizeof aside, "%s.corrupt", path);
        rename(path, aside);
        *corrupt = true;
    }
    return doc;
}

/* The tombstone's reason, for the status: what was wrong and where the file is. */
static void lost_reason(char *out, size_t len, const char *id, const char *why)
{
    snprintf(out, len,
             "journal entry %s.job is corrupt (%s); set aside as %s.job.corrupt, the "
             "request cannot be recovered: submit it again",
             id, why, id);
}

/* Whether ID.|suffix| exists. */
static bool has_file(cz_journal_t *j, const char *id, const char *suffix)
{
    char name[64];
    snprintf(name, sizeof name, "%s.%s", id, suffix);
    return faccessat(j->dir_fd, name, F_OK, 0) == 0;
}

/*
 * Job |id| whose ID.job is corrupt (|why|): its result, when one parses,
 * is still the job's outcome — the proof is what matters — and is handed
 * to |cb| with no job document; without one the job is lost.
 */
static void scan_torn(cz_journal_t *j, const char *id, const char *why, cz_journal_scan_cb *cb,
                      cz_journal_lost_cb *lost, void *arg)
{
    char rn[32], fn[32], rwhy[200], reason[400];
    snprintf(rn, sizeof rn, "%s.result", id);
    snprintf(fn, sizeof fn, "%s.fetched", id);
    bool corrupt;
    json_t *result = load_doc(j, rn, &corrupt, rwhy, sizeof rwhy);
    if (!result) {
        lost_reason(reason, sizeof reason, id, why);
        lost(arg, id, reason);
        return;
    }
    struct stat st;
    time_t fetched = fstatat(j->dir_fd, fn, &st, 0) == 0 ? st.st_mtime : 0;
    CZ_LOGW("journal: job entry corrupt, its result kept", "id=%s", id);
    cb(arg, id, NULL, result, fetched);
    json_decref(result);
}

static bool is_id(const char *s, size_t n)
{
    if (n != 16)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

int cz_journal_scan(cz_journal_t *j, cz_ctx_t *ctx, cz_journal_scan_cb *cb,
                    cz_journal_lost_cb *lost, void *arg)
{
    char why[200];
    DIR *d = opendir(j->dir);
    if (!d)
        return cz_fail(ctx, CZ_EIO, "journal %s: %s", j->dir, strerror(errno));
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *n = de->d_name;
        size_t len = strlen(n);
        if (n[0] == '.' && len > 4 && !strcmp(n + len - 4, ".tmp")) {
            unlinkat(j->dir_fd, n, 0); /* a put that never finished */
            continue;
        }
        const char *dot = strchr(n, '.');
        if (!dot || !is_id(n, (size_t)(dot - n)))
            continue;
        char id[17];
        memcpy(id, n, 16);
        id[16] = '\0';
        if (!strcmp(dot, ".result")) {
            /* a torn ID.job (set aside as .job.corrupt) keeps its result */
            if (!has_file(j, id, "job") && !has_file(j, id, "job.corrupt")) {
                CZ_LOGW("journal: result without its job removed", "id=%s", id);
                cz_journal_remove(j, id);
            }
            continue;
        }
        if (!strcmp(dot, ".job.corrupt")) { /* a tombstone from an earlier start */
            char path[PATH_MAX + 260];
            snprintf(path, sizeof path, "%s/%s", j->dir, n);
            json_t *doc = parse_doc(path, why, sizeof why);
            if (doc)
                snprintf(why, sizeof why, "set aside earlier");
            json_decref(doc);
            scan_torn(j, id, why, cb, lost, arg);
            continue;
        }
        if (strcmp(dot, ".job"))
            continue;
        bool corrupt;
        json_t *job = load_doc(j, n, &corrupt, why, sizeof why);
        if (!job) {
            if (corrupt)
                scan_torn(j, id, why, cb, lost, arg);
            continue;
        }
        char rn[32], fn[32];
        snprintf(rn, sizeof rn, "%s.result", id);
        snprintf(fn, sizeof fn, "%s.fetched", id);
        json_t *result = load_doc(j, rn, &corrupt, why, sizeof why);
        struct stat st;
        time_t fetched = fstatat(j->dir_fd, fn, &st, 0) == 0 ? st.st_mtime : 0;
        cb(arg, id, job, result, fetched);
        json_decref(result);
        json_decref(job);
    }
    closedir(d);
    return CZ_OK;
}
