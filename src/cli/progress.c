/*
 * cli/progress.c — progress bar / plain progress lines (see cli/progress.h).
 */
#include "core/clock.h"
#include "cli/progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void cz_progress_start(cz_progress_t *p, bool quiet)
{
    memset(p, 0, sizeof *p);
    p->tty = isatty(STDERR_FILENO);
    p->quiet = quiet;
    p->t0 = cz_mono_s();
}

void cz_progress_draw(cz_progress_t *p, size_t done, size_t total, const char *stage)
{
    if (p->quiet)
        return;
    double el = cz_mono_s() - p->t0;
    char eta[32] = "?";
    if (total && done >= total)
        snprintf(eta, sizeof eta, "0s");
    else if (done)
        snprintf(eta, sizeof eta, "%.0fs", el / (double)done * (double)(total - done));
    if (p->tty) {
        char bar[31];
        size_t fill = total ? (done > total ? total : done) * 30 / total : 0;
        for (size_t i = 0; i < 30; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[30] = '\0';
        p->drawn = true;
        fprintf(stderr, "\r[%s] %zu/%zu partitions  %-14s elapsed %5.1fs  ETA %-6s", bar, done,
                total, stage, el, eta);
        fflush(stderr);
        return;
    }
    char line[160];
    snprintf(line, sizeof line, "%zu/%zu partitions, %s", done, total, stage);
    if (strcmp(line, p->last)) {
        fprintf(stderr, "progress: %s, elapsed %.1fs, ETA %s\n", line, el, eta);
        snprintf(p->last, sizeof p->last, "%s", line);
    }
}

void cz_progress_fraction(cz_progress_t *p, const char *what, const char *phase, double fraction)
{
    if (p->quiet || !p->tty)
        return;
    double el = cz_mono_s() - p->t0;
    p->drawn = true;
    if (fraction < 0) {
        fprintf(stderr, "\r%s: %-12s         elapsed %5.1fs            ", what, phase, el);
    } else {
        char eta[32] = "?";
        if (fraction >= 1)
            snprintf(eta, sizeof eta, "0s");
        else if (fraction > 0.001)
            snprintf(eta, sizeof eta, "%.0fs", el / fraction * (1 - fraction));
        fprintf(stderr, "\r%s: %-12s %5.1f%%  elapsed %5.1fs  ETA %-6s", what, phase,
                100 * fraction, el, eta);
    }
    fflush(stderr);
}

void cz_progress_end(cz_progress_t *p)
{
    if (!p->quiet && p->tty && p->drawn)
        fputc('\n', stderr);
    p->drawn = false;
}
