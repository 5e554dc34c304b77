/*
 * cli/progress.h — the progress display of `cuzk prove`, `cuzk wait` and
 * `cuzk setup`:
 * on a TTY one bar redrawn in place on stderr
 *
 *     [##########....................] 3/10 partitions  proving   elapsed 12.3s  ETA 28s
 *
 * and, when stderr is not a TTY, one plain line per change of partitions
 * or stage ("progress: 3/10 partitions, proving, elapsed 12.3s, ETA 28s").
 * ETA = elapsed / done x remaining ("?" before the first partition).
 * Not thread-safe; one display per command.
 */
#ifndef CUZK_CLI_PROGRESS_H
#define CUZK_CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cz_progress {
    bool tty, quiet;
    double t0;
    bool drawn; /* something is on the TTY line */
    char last[160];
} cz_progress_t;

/* |quiet|: draw nothing. */
void cz_progress_start(cz_progress_t *p, bool quiet);
void cz_progress_draw(cz_progress_t *p, size_t done, size_t total, const char *stage);
/*
 * A run measured by the fraction done rather than by partitions (`cuzk
 * setup`): on a TTY one line redrawn in place,
 *     setup: G1 points   43.2%  elapsed 12.3s  ETA 16s
 * (|fraction| < 0: the phase alone, no percent or ETA); nothing when stderr
 * is not a TTY. ETA = elapsed / fraction x (1 - fraction).
 */
void cz_progress_fraction(cz_progress_t *p, const char *what, const char *phase, double fraction);
/* Ends the bar's line on a TTY. */
void cz_progress_end(cz_progress_t *p);

#endif /* CUZK_CLI_PROGRESS_H */
