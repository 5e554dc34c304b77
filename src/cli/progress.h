/*
 * cli/progress.h — the progress display of `cuzk prove` and `cuzk wait`:
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
    char last[160];
} cz_progress_t;

/* |quiet|: draw nothing. */
void cz_progress_start(cz_progress_t *p, bool quiet);
void cz_progress_draw(cz_progress_t *p, size_t done, size_t total, const char *stage);
/* Ends the bar's line on a TTY. */
void cz_progress_end(cz_progress_t *p);

#endif /* CUZK_CLI_PROGRESS_H */
