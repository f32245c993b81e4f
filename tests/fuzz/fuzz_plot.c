/* fuzz_plot.c - `pathfind plot`'s JSON and CSV readers (cli/plot_read.c) and the data and script
 * files written from what they read (cli_plot_write).
 *
 * The input is one plot input file: JSON when its first non-blank byte is '{' or '[', CSV
 * otherwise, as `pathfind plot` decides. Beyond "no crash, no sanitizer report, no leak":
 * - every point read is finite and in its kind's range (the readers refuse anything else), and
 *   names a series that exists;
 * - a successful read writes every kind's .dat and .gp without error, and the frame-time
 *   histogram in the .dat counts exactly the frames read (the clamped bucket index loses none);
 * - no script line starts with '!' (gnuplot's shell escape) or holds a control character.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz_common.h"
#include "plot.h"

static char g_dir[64];
static FILE *g_null;

static void remove_scratch(void)
{
    for (int k = 0; k < CLI_PLOT__KINDS; k++)
        for (int gp = 0; gp < 2; gp++) {
            char path[128];
            snprintf(path, sizeof path, "%s/%s.%s", g_dir, cli_plot_kind_file[k], gp ? "gp" : "dat");
            unlink(path);
        }
    rmdir(g_dir);
}

static void init(void)
{
    if (g_dir[0]) return;
    /* files are made and removed on every run: in memory where there is a tmpfs for it */
    snprintf(g_dir, sizeof g_dir, "%s/pf_fuzz_plot_XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    FUZZ_CHECK(mkdtemp(g_dir) != NULL);
    g_null = fopen("/dev/null", "w");
    FUZZ_CHECK(g_null != NULL);
    atexit(remove_scratch);
}

static void check_points(const cli_plot_data *d)
{
    for (int k = 0; k < CLI_PLOT__KINDS; k++)
        for (size_t i = 0; i < d->n[k]; i++) {
            const cli_plot_pt *p = &d->pts[k][i];
            FUZZ_CHECK(p->series >= 0 && p->series < d->nseries);
            FUZZ_CHECK(isfinite(p->x) && isfinite(p->y) && p->x >= 0 && p->y >= 0);
            if (k == CLI_PLOT_THREADS) FUZZ_CHECK(p->x >= 1 && p->x <= CLI_PLOT_MAX_THREADS);
        }
    for (int s = 0; s < d->nseries; s++) {
        FUZZ_CHECK(strlen(d->series[s]) <= CLI_PLOT_MAX_NAME);
        for (const char *c = d->series[s]; *c; c++)
            FUZZ_CHECK(*c != '\'' && *c != '\\' && (unsigned char)*c >= 0x20 && *c != 0x7f);
    }
}

/* Sums the counts of the histogram blocks of frame_ms.dat ("x count" lines). */
static unsigned long long histogram_total(void)
{
    char path[128], line[512];
    snprintf(path, sizeof path, "%s/frame_ms.dat", g_dir);
    FILE *f = fopen(path, "r");
    FUZZ_CHECK(f != NULL);
    unsigned long long total = 0;
    while (fgets(line, sizeof line, f)) {
        double x;
        unsigned long long c;
        if (line[0] != '#' && sscanf(line, "%lf %llu", &x, &c) == 2) total += c;
    }
    fclose(f);
    return total;
}

static void check_script(int kind)
{
    char path[128], line[4096];
    snprintf(path, sizeof path, "%s/%s.gp", g_dir, cli_plot_kind_file[kind]);
    FILE *f = fopen(path, "r");
    FUZZ_CHECK(f != NULL);
    while (fgets(line, sizeof line, f)) {
        FUZZ_CHECK(line[0] != '!');
        for (const char *c = line; *c && *c != '\n'; c++) FUZZ_CHECK((unsigned char)*c >= 0x20 && *c != 0x7f);
    }
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init();
    if (size == 0 || size > (1u << 20)) return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    FUZZ_CHECK(f != NULL);
    cli_plot_data d = {0};
    /* the readers' messages are expected output here: keep them off the log while they run (the
     * FILE pointer only: sanitizer reports go to descriptor 2, libFuzzer keeps its own stream) */
    FILE *err = stderr;
    stderr = g_null;
    int ok = cli_plot_read(&d, f, "fuzz", "fuzz");
    stderr = err;
    fclose(f);
    check_points(&d);
    if (ok)
        for (int k = 0; k < CLI_PLOT__KINDS; k++) {
            char summary[2048];
            stderr = g_null;
            int ns = cli_plot_write(&d, k, g_dir, summary, sizeof summary);
            stderr = err;
            FUZZ_CHECK(ns >= 0);
            if (ns == 0) continue;
            check_script(k);
            if (k == CLI_PLOT_FRAMES) FUZZ_CHECK(histogram_total() == d.n[k]);
        }
    cli_plot_free(&d);
    return 0;
}
