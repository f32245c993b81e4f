/* plot.h - `pathfind plot`'s data: the JSON and CSV readers (plot_read.c) and the files written for
 * gnuplot (cmd_plot.c). Declared here so the fuzz target drives them in-process.
 *
 * Every value read is untrusted: a value outside its kind's range is an error naming file, line
 * (and column for JSON) and the key, never a point (a negative frame time once indexed the
 * histogram below its first bucket).
 */
#ifndef PF_CLI_PLOT_H
#define PF_CLI_PLOT_H

#include <stddef.h>
#include <stdio.h>

/* The largest input file plot reads: far above any benchmark's output, far below memory. */
#define CLI_PLOT_MAX_INPUT_BYTES ((size_t)256 << 20)
/* The most values a JSON input may hold: its tree costs about 100 bytes a value (56 times the
 * file's size for an array of one-digit numbers: a 30 MB file took 1.6 GB), so the byte limit
 * alone let a JSON file take about 14 GiB; this one, about 450 MB. `pathfind bench` at its limits
 * fits: its frame series (16 thread counts x 100,000 frames, 1.6 M values) and beside them a
 * per-query list of about 500,000 entries (5 values each, summed over the algorithms). */
#define CLI_PLOT_MAX_JSON_VALUES ((size_t)1 << 22)
#define CLI_PLOT_MAX_JSON_VALUES_TEXT "4,194,304"
/* Series beyond this many are merged into the last one (no plot can show more apart). */
#define CLI_PLOT_MAX_SERIES 64
/* Series names are cut to this many bytes (they become plot titles). */
#define CLI_PLOT_MAX_NAME 100
/* Threads counts are 1..this; larger is not a thread count. */
#define CLI_PLOT_MAX_THREADS 1000000.0

enum { CLI_PLOT_QUERY, CLI_PLOT_THREADS, CLI_PLOT_FRAMES, CLI_PLOT__KINDS };

typedef struct cli_plot_pt { int series; double x, y; } cli_plot_pt;

typedef struct cli_plot_data {
    char        *series[CLI_PLOT_MAX_SERIES]; /* [nseries] names, sanitised for gnuplot titles */
    int          nseries;
    cli_plot_pt *pts[CLI_PLOT__KINDS];        /* [n[k]] points of each kind */
    size_t       n[CLI_PLOT__KINDS], cap[CLI_PLOT__KINDS];
} cli_plot_data;

/* Reads one input (JSON when its first non-blank byte is '{' or '[', CSV otherwise) from `f`,
 * named `file` in messages; `label` names the series of points without one. Returns 1, or 0 with
 * a message printed. */
int  cli_plot_read(cli_plot_data *d, FILE *f, const char *file, const char *label);
/* Writes DIR/<kind>.dat (one gnuplot index block per series) and DIR/<kind>.gp. Returns the
 * number of series written (0 when the kind has no points), -1 on error (message printed).
 * `summary` receives a one-line digest. */
int  cli_plot_write(cli_plot_data *d, int kind, const char *dir, char *summary, size_t slen);
void cli_plot_free(cli_plot_data *d);

extern const char *const cli_plot_kind_file[CLI_PLOT__KINDS]; /* "query_us", "threads_qps", "frame_ms" */

#endif
