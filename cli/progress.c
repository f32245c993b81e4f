/* progress.c - a progress bar on stderr for long work, shown only when stderr is a terminal. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>
#include "cli.h"

void cli_progress(cli_progress_state *p, uint64_t done, uint64_t total)
{
    if (p->enabled == 0) p->enabled = isatty(STDERR_FILENO) && !getenv("PF_NO_PROGRESS") ? 1 : -1;
    if (p->enabled < 0 || total == 0) return;
    double now = cli_now();
    if (p->start == 0) p->start = now;
    /* quiet for the first half second, so short runs never draw a bar; then ten updates a second */
    int last = done >= total;
    if (!last && (now - p->start < 0.5 || now - p->last < 0.1)) return;
    if (last && !p->drawn) return;
    p->last = now;
    p->drawn = 1;
    int width = 30, fill = (int)((double)width * (double)done / (double)total);
    char bar[31];
    for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    double el = now - p->start, eta = done ? el * (double)(total - done) / (double)done : 0;
    fprintf(stderr, "\r%s [%s] %llu/%llu  %.0fs left ", p->label ? p->label : "", bar, (unsigned long long)done,
            (unsigned long long)total, eta);
    if (last) fprintf(stderr, "\r%*s\r", 72, ""); /* erase: the final report starts on a clean line */
    fflush(stderr);
}
