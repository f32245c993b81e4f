/* cmd_plot.c - `pathfind plot`: benchmark JSON/CSV (plot_read.c) to PNG plots, drawn by gnuplot.
 *
 * gnuplot runs !command lines, so no user string is ever spliced into script text: the scripts
 * name their files relative to DIR, gnuplot is started in DIR without a shell (fork, chdir,
 * execvp), and series names, the only text from the input, are sanitised (plot.h). */
#define _XOPEN_SOURCE 700 /* realpath, with POSIX 2008 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "plot.h"

static const char *HELP =
    "usage: pathfind plot FILE... --out DIR [--json]\n"
    "\n"
    "  --out DIR, -o DIR  where the plots go (made if missing)\n"
    "  --json             print one JSON object: out, gnuplot (whether it ran), plots (kind, png)\n"
    "\n"
    "Reads benchmark results and writes up to three plots as PNG (with gnuplot), each with the data\n"
    "file and gnuplot script that made it, so a plot can be restyled by hand:\n"
    "  DIR/query_us.png    microseconds per query against path length, one series per algorithm,\n"
    "                      points plus the median per length bin (log scale)\n"
    "  DIR/threads_qps.png queries per second against threads, with ideal linear scaling dashed\n"
    "  DIR/frame_ms.png    frame time distribution (histogram; p50, p99 and max in the title)\n"
    "When gnuplot is not installed (or PF_GNUPLOT names a missing program) the data and scripts are\n"
    "still written, a message says the plots were skipped, and the exit status is 0. The scripts name\n"
    "their files relative to DIR: restyle a plot with `cd DIR && gnuplot query_us.gp`.\n"
    "\n"
    "INPUT. A file whose first non-blank character is '{' or '[' is JSON: one value or several in a\n"
    "row (JSON Lines, as benchmarks print one object per run). Any other file is CSV with a header.\n"
    "Keys are found anywhere in the JSON, so wrappers and extra fields do not matter:\n"
    "  per query   an object with a number path_len (or length, cost) and us (or time_us,\n"
    "              us_per_query). CSV: columns path_len and us (same aliases); rows whose status\n"
    "              column is present and not ok are skipped.\n"
    "  threads     an object with threads and queries_per_s (or qps, queries_per_sec,\n"
    "              throughput_qps; or us_per_query, taken as wall time: qps = 1e6 / us_per_query).\n"
    "              CSV: columns threads and qps (same aliases).\n"
    "  frames      an array of numbers under frame_ms (or frame_times_ms, frames_ms; frame_us and\n"
    "              frame_times_us are divided by 1000). CSV: column frame_ms.\n"
    "The series name is the string algo (or label, name, series) of the object or of the nearest\n"
    "enclosing object, the CSV's algo column, or else the file name.\n"
    "VALUES. Path lengths, times, rates and frame times must be finite and >= 0, thread counts 1 to\n"
    "1000000, us_per_query > 0: anything else is an error naming the file, line and key. An input\n"
    "file may hold at most 256 MiB.\n"
    "\n"
    "examples:\n"
    "  pathfind scen arena.map arena.map.scen --algo astar --csv astar.csv\n"
    "  pathfind scen arena.map arena.map.scen --algo dijkstra --csv dijkstra.csv\n"
    "  pathfind plot astar.csv dijkstra.csv --out plots/\n"
    "  echo '{\"algo\":\"astar\",\"runs\":[{\"threads\":1,\"qps\":9000},{\"threads\":2,\"qps\":17000}]}' > t.json\n"
    "  pathfind plot t.json --out plots/\n";

const char *const cli_plot_kind_file[CLI_PLOT__KINDS] = {"query_us", "threads_qps", "frame_ms"};

/* ---- output ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(const double *v, size_t n, double q) /* v sorted */
{
    if (!n) return NAN;
    size_t i = (size_t)floor(q * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

static int cmp_pt_x(const void *a, const void *b)
{
    double x = ((const cli_plot_pt *)a)->x, y = ((const cli_plot_pt *)b)->x;
    return (x > y) - (x < y);
}

enum { HIST_BINS = 40, MEDIAN_BINS = 20 };

/* Histogram of sorted values v[0..m) >= 0 in HIST_BINS bins from 0 to the largest; the bin index
 * is clamped whatever the division gives (a denormal width makes it inf, 0/0 makes it NaN). */
static void histogram(const double *v, size_t m, unsigned cnt[HIST_BINS], double *bw)
{
    double hi = m && v[m - 1] > 0 ? v[m - 1] : 1;
    *bw = hi / HIST_BINS;
    memset(cnt, 0, HIST_BINS * sizeof *cnt);
    for (size_t i = 0; i < m; i++) {
        double q = floor(v[i] / *bw);
        size_t b = q >= 0 ? (q < HIST_BINS - 1 ? (size_t)q : HIST_BINS - 1) : 0;
        cnt[b]++;
    }
}

/* The data file: one index block per series (frames as a histogram), then for per-query data the
 * medians per path-length bin. Fills order[] with the series in block order. */
static int write_data(cli_plot_data *d, int kind, FILE *f, int *order, char *summary, size_t slen)
{
    const cli_plot_pt *pts = d->pts[kind];
    size_t np = d->n[kind];
    int used[CLI_PLOT_MAX_SERIES] = {0}, nblocks = 0;
    for (size_t i = 0; i < np; i++) used[pts[i].series] = 1;
    double *v = malloc(np * sizeof *v);
    if (!v) return -1;
    summary[0] = '\0';
    double xmax = 0;
    for (int s = 0; s < d->nseries; s++) {
        if (!used[s]) continue;
        order[nblocks++] = s;
        size_t m = 0;
        fprintf(f, "# series %s\n", d->series[s]);
        for (size_t i = 0; i < np; i++) {
            if (pts[i].series != s) continue;
            v[m++] = pts[i].y;
            if (pts[i].x > xmax) xmax = pts[i].x;
            if (kind != CLI_PLOT_FRAMES) fprintf(f, "%.9g %.9g\n", pts[i].x, pts[i].y);
        }
        qsort(v, m, sizeof *v, cmp_double);
        if (kind == CLI_PLOT_FRAMES) {
            unsigned cnt[HIST_BINS];
            double bw;
            histogram(v, m, cnt, &bw);
            for (int b = 0; b < HIST_BINS; b++) fprintf(f, "%.9g %u\n", (b + 0.5) * bw, cnt[b]);
        }
        fprintf(f, "\n\n");
        size_t ul = strlen(summary);
        if (kind == CLI_PLOT_QUERY)
            snprintf(summary + ul, slen - ul, "%s%s: %zu queries, median %.2f us", ul ? "; " : "", d->series[s], m,
                     quantile(v, m, 0.5));
        else if (kind == CLI_PLOT_THREADS)
            snprintf(summary + ul, slen - ul, "%s%s: %zu points, best %.0f queries/s", ul ? "; " : "", d->series[s], m,
                     v[m - 1]);
        else
            snprintf(summary + ul, slen - ul, "%s%s: %zu frames, p50 %.3f ms, p99 %.3f ms, max %.3f ms", ul ? "; " : "",
                     d->series[s], m, quantile(v, m, 0.5), quantile(v, m, 0.99), v[m - 1]);
    }
    if (kind == CLI_PLOT_QUERY) {
        /* medians per path-length bin: the trend the cloud of points hides */
        for (int k = 0; k < nblocks; k++) {
            fprintf(f, "# median per bin, series %s\n", d->series[order[k]]);
            for (int b = 0; b < MEDIAN_BINS; b++) {
                double lo = xmax * b / MEDIAN_BINS, hi = xmax * (b + 1) / MEDIAN_BINS;
                size_t m = 0;
                for (size_t i = 0; i < np; i++) {
                    const cli_plot_pt *p = &pts[i];
                    if (p->series == order[k] && p->x >= lo && (p->x < hi || (b == MEDIAN_BINS - 1 && p->x <= hi)))
                        v[m++] = p->y;
                }
                if (m) {
                    qsort(v, m, sizeof *v, cmp_double);
                    fprintf(f, "%.9g %.9g\n", (lo + hi) / 2, quantile(v, m, 0.5));
                }
            }
            fprintf(f, "\n\n");
        }
    }
    free(v);
    return nblocks;
}

/* The script: file names relative to DIR, titles from sanitised series names, nothing else from
 * the user. `out` may be set on gnuplot's command line (pathfind points it at a temporary file). */
static void write_script(const cli_plot_data *d, int kind, FILE *g, const int *order, int nblocks)
{
    const char *name = cli_plot_kind_file[kind];
    /* pngcairo looks better; plain png (libgd) is the fallback on builds without cairo */
    fprintf(g, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
               "  set terminal pngcairo size 800,500 font 'sans,10'\n} else {\n"
               "  set terminal png size 800,500\n}\n"
               "if (!exists('out')) out = '%s.png'\nset output out\nset grid\nset key top left opaque box\n"
               "dat = '%s.dat'\n",
            name, name);
    if (kind == CLI_PLOT_QUERY) {
        fprintf(g, "set title 'time per query against path length'\nset key bottom right opaque box\nset xlabel 'path length'\n"
                   "set ylabel 'microseconds per query'\nset logscale y\nplot \\\n");
        for (int k = 0; k < nblocks; k++)
            fprintf(g, "  dat index %d with points pt 7 ps 0.35 lc %d title '%s', \\\n"
                       "  dat index %d with lines lw 2 lc %d title '%s median'%s\n",
                    k, k + 1, d->series[order[k]], nblocks + k, k + 1, d->series[order[k]],
                    k + 1 < nblocks ? ", \\" : "");
    } else if (kind == CLI_PLOT_THREADS) {
        fprintf(g, "set title 'throughput against threads'\nset xlabel 'threads'\nset ylabel 'queries per second'\n"
                   "set xrange [0:*]\nset yrange [0:*]\nplot \\\n");
        for (int k = 0; k < nblocks; k++) {
            /* ideal scaling from the series' first point: y1 * x / x1 (threads are >= 1) */
            fprintf(g, "  dat index %d using 1:2 with linespoints pt 7 lw 2 lc %d title '%s', \\\n", k, k + 1,
                    d->series[order[k]]);
            double x1 = 0, y1 = 0;
            for (size_t i = 0; i < d->n[kind]; i++) {
                const cli_plot_pt *p = &d->pts[kind][i];
                if (p->series == order[k] && (x1 == 0 || p->x < x1)) {
                    x1 = p->x;
                    y1 = p->y;
                }
            }
            fprintf(g, "  (x >= %.9g ? %.9g * x / %.9g : 1/0) with lines dt 2 lc %d title '%s ideal'%s\n", x1, y1,
                    x1 > 0 ? x1 : 1, k + 1, d->series[order[k]], k + 1 < nblocks ? ", \\" : "");
        }
    } else {
        fprintf(g, "set title 'frame time distribution'\nset xlabel 'frame time (ms)'\nset ylabel 'frames'\n"
                   "set style fill transparent solid 0.5\nset yrange [0:*]\nplot \\\n");
        for (int k = 0; k < nblocks; k++)
            fprintf(g, "  dat index %d with boxes lc %d title '%s'%s\n", k, k + 1, d->series[order[k]],
                    k + 1 < nblocks ? ", \\" : "");
    }
}

int cli_plot_write(cli_plot_data *d, int kind, const char *dir, char *summary, size_t slen)
{
    if (!d->n[kind]) return 0;
    if (kind == CLI_PLOT_THREADS) qsort(d->pts[kind], d->n[kind], sizeof(cli_plot_pt), cmp_pt_x); /* left to right */
    size_t plen = strlen(dir) + 32;
    char *path = malloc(plen);
    if (!path) {
        cli_error("plot", "out of memory");
        return -1;
    }
    int order[CLI_PLOT_MAX_SERIES], nblocks = -1;
    cli_out o;
    snprintf(path, plen, "%s/%s.dat", dir, cli_plot_kind_file[kind]);
    FILE *f = cli_out_open(&o, "plot", path);
    if (f) {
        nblocks = write_data(d, kind, f, order, summary, slen);
        if (!cli_out_close(&o, "plot", nblocks >= 0)) nblocks = -1;
    }
    if (nblocks > 0) {
        snprintf(path, plen, "%s/%s.gp", dir, cli_plot_kind_file[kind]);
        if ((f = cli_out_open(&o, "plot", path))) {
            write_script(d, kind, f, order, nblocks);
            if (!cli_out_close(&o, "plot", 1)) nblocks = -1;
        } else {
            nblocks = -1;
        }
    }
    free(path);
    return nblocks;
}

static const char *gnuplot_program(void)
{
    const char *g = getenv("PF_GNUPLOT");
    return g && *g ? g : "gnuplot";
}

static int program_exists(const char *prog)
{
    if (strchr(prog, '/')) return access(prog, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path) return 0;
    char buf[4096];
    for (const char *p = path; *p;) {
        size_t len = strcspn(p, ":");
        if (len && len + strlen(prog) + 2 < sizeof buf) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, prog);
            if (access(buf, X_OK) == 0) return 1;
        }
        p += len;
        if (*p == ':') p++;
    }
    return 0;
}

/* Whether the file at path is a whole PNG as far as its ends say: the signature first and the IEND
 * chunk last. gnuplot 5.4 exits 0 when its write fails (a full disk: a file cut short), so its
 * status alone would put a truncated picture over the previous one. */
static int png_whole(const char *path)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    unsigned char head[8], tail[12];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int ok = fread(head, 1, 8, f) == 8 && memcmp(head, sig, 8) == 0 && fseek(f, -12L, SEEK_END) == 0 &&
             fread(tail, 1, 12, f) == 12 && memcmp(tail, iend, 12) == 0;
    fclose(f);
    return ok;
}

/* Runs `prog -e "out='TMP'" KIND.gp` in DIR (no shell), gnuplot's stdout to /dev/null, then puts
 * TMP in KIND.png's place as every output is (cli_out_open: a failed run leaves the previous
 * picture; a link is written through; the mode is the replaced file's, or what fopen would give).
 * TMP's name goes inside a quoted string of gnuplot's: one with a quote or a backslash is refused. */
static int run_gnuplot(const char *prog, const char *dir, int kind)
{
    const char *name = cli_plot_kind_file[kind];
    size_t plen = strlen(dir) + 48;
    char *png = malloc(plen), *abs = NULL;
    if (!png) return 0;
    snprintf(png, plen, "%s/%s.png", dir, name);
    cli_out o;
    if (!cli_out_open(&o, "plot", png)) {
        free(png);
        return 0;
    }
    /* gnuplot runs in DIR: the name of a file beside the picture (no link) is enough; else whole */
    const char *out = o.tmp ? o.tmp : png, *base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
    int beside = (size_t)(base - out) == strlen(dir) + 1 && strncmp(out, dir, strlen(dir)) == 0;
    if (!beside && out[0] != '/') {
        char cwd[4096];
        size_t n = getcwd(cwd, sizeof cwd) ? strlen(cwd) + strlen(out) + 2 : 0;
        if (n && (abs = malloc(n))) snprintf(abs, n, "%s/%s", cwd, out);
    }
    const char *given = beside ? base : abs ? abs : out;
    int ok = 0;
    if (!beside && out[0] != '/' && !abs) {
        cli_error("plot", "cannot write '%s': out of memory or a working directory too long", png);
    } else if (strchr(given, '\'') || strchr(given, '\\')) {
        cli_error("plot", "cannot write '%s' through '%s': gnuplot takes no quote or backslash in a file name", png,
                  given);
    } else {
        size_t elen = strlen(given) + 8;
        char *out_expr = malloc(elen), script[32];
        if (out_expr) {
            snprintf(out_expr, elen, "out='%s'", given);
            snprintf(script, sizeof script, "%s.gp", name);
            fflush(NULL);
            pid_t pid = fork();
            if (pid == 0) {
                int null = open("/dev/null", O_WRONLY);
                if (null >= 0) dup2(null, STDOUT_FILENO);
                if (chdir(dir) == 0) execlp(prog, prog, "-e", out_expr, script, (char *)NULL);
                _exit(127);
            }
            int st = 0;
            ok = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
            /* a target that is not a regular file (a FIFO, /dev/null) is written in place: it
             * cannot be read back (a FIFO's reader would wait on this process), gnuplot's status
             * stands for it */
            if (ok && o.tmp && !png_whole(out)) {
                cli_error("plot", "cannot write '%s': %s wrote no whole PNG (a full disk?); the previous picture is kept",
                          png, prog);
                ok = 0;
            }
            free(out_expr);
        }
    }
    ok = cli_out_close(&o, "plot", ok) && ok; /* nothing was written through o.f: gnuplot wrote the file */
    free(abs);
    free(png);
    return ok;
}

typedef struct plot_args { const char *dir, *files[256]; int nfiles, json; } plot_args;

static int parse_args(int argc, char **argv, plot_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (cli_is_help(s)) {
            fputs(HELP, stdout);
            return 0;
        } else if ((strcmp(s, "--out") == 0 || strcmp(s, "-o") == 0) && cli_has_value(argc, argv, i)) {
            a->dir = argv[++i];
        } else if (strcmp(s, "--json") == 0) {
            a->json = 1;
        } else if (s[0] == '-' && s[1]) {
            cli_error("plot", "unknown or incomplete option '%s' (see --help)", s);
            return 2;
        } else if (a->nfiles < 256) {
            a->files[a->nfiles++] = s;
        } else {
            cli_error("plot", "at most 256 input files");
            return 2;
        }
    }
    if (!a->nfiles || !a->dir) {
        cli_error("plot", "need at least one input FILE and --out DIR");
        fputc('\n', stderr);
        fputs(HELP, stderr);
        return 2;
    }
    /* nothing from the name reaches a script, but a newline or an escape in a directory name is
     * a mistake worth stopping on: messages and the JSON report print it */
    for (const char *c = a->dir; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            cli_error("plot", "--out '%s': control characters are not allowed in the directory name", a->dir);
            return 2;
        }
    if (!*a->dir || strlen(a->dir) > 4000) {
        cli_error("plot", "--out: the directory name must be 1 to 4000 bytes");
        return 2;
    }
    return -1;
}

/* The series name of a file's points without one: its name without directory and extension. */
static int read_file(cli_plot_data *d, const char *file)
{
    FILE *f = cli_open_read("plot", file);
    if (!f) return 0;
    char label[128];
    const char *base = strrchr(file, '/');
    snprintf(label, sizeof label, "%s", base ? base + 1 : file);
    char *dot = strrchr(label, '.');
    if (dot && dot != label) *dot = '\0';
    int ok = cli_plot_read(d, f, file, label);
    fclose(f);
    return ok;
}

int pf_cli_plot(int argc, char **argv)
{
    plot_args a = {0};
    int prc = parse_args(argc, argv, &a);
    if (prc >= 0) return prc;
    if (cli_args_only) return 0;
    cli_plot_data d = {0};
    char *prog_abs = NULL;
    int rc = 1;
    for (int i = 0; i < a.nfiles; i++)
        if (!read_file(&d, a.files[i])) goto done;
    if (!d.n[CLI_PLOT_QUERY] && !d.n[CLI_PLOT_THREADS] && !d.n[CLI_PLOT_FRAMES]) {
        cli_error("plot", "no plottable data in the input (see --help for the keys it looks for)");
        goto done;
    }
    if (mkdir(a.dir, 0777) != 0 && errno != EEXIST) {
        cli_error("plot", "cannot create '%s': %s", a.dir, strerror(errno));
        goto done;
    }
    const char *prog = gnuplot_program();
    int have_gp = program_exists(prog);
    /* gnuplot runs in DIR: a relative PF_GNUPLOT such as ./gp must still name the same program */
    prog_abs = strchr(prog, '/') && prog[0] != '/' && have_gp ? realpath(prog, NULL) : NULL;
    if (prog_abs) prog = prog_abs;
    /* --json: the object is printed whole once every plot is made, so a failure leaves none */
    int ns_of[CLI_PLOT__KINDS] = {0}, ok_of[CLI_PLOT__KINDS] = {0};
    /* the paths printed join DIR and the file with one slash: --out plots/ prints plots/query_us.png */
    size_t dlen = strlen(a.dir);
    const char *sep = dlen && a.dir[dlen - 1] == '/' ? "" : "/";
    for (int k = 0; k < CLI_PLOT__KINDS; k++) {
        char summary[2048];
        int ns = cli_plot_write(&d, k, a.dir, summary, sizeof summary);
        if (ns < 0) goto done;
        if (ns == 0) continue;
        int ok = have_gp && run_gnuplot(prog, a.dir, k);
        if (have_gp && !ok) {
            cli_error("plot", "gnuplot failed on %s%s%s.gp", a.dir, sep, cli_plot_kind_file[k]);
            goto done;
        }
        ns_of[k] = ns;
        ok_of[k] = ok;
        if (a.json) continue;
        if (ok) printf("wrote %s%s%s.png  (%s)\n", a.dir, sep, cli_plot_kind_file[k], summary);
        else printf("data  %s%s%s.dat  (%s)\n", a.dir, sep, cli_plot_kind_file[k], summary);
    }
    if (a.json) {
        printf("{\"out\":");
        cli_json_str(stdout, a.dir);
        printf(",\"gnuplot\":%s,\"plots\":[", have_gp ? "true" : "false");
        for (int k = 0, made = 0; k < CLI_PLOT__KINDS; k++) {
            if (!ns_of[k]) continue;
            printf("%s{\"kind\":\"%s\",\"png\":", made++ ? "," : "", cli_plot_kind_file[k]);
            if (ok_of[k]) {
                char png[4096];
                snprintf(png, sizeof png, "%s%s%s.png", a.dir, sep, cli_plot_kind_file[k]);
                cli_json_str(stdout, png);
            } else {
                printf("null");
            }
            printf(",\"points\":%zu,\"series\":%d}", d.n[k], ns_of[k]);
        }
        printf("]}\n");
    }
    if (!have_gp)
        cli_error("plot", "gnuplot not found ('%s'; install gnuplot-nox or set PF_GNUPLOT): plots skipped, "
                          "data and scripts written to %s%s", prog, a.dir, sep);
    rc = 0;
done:
    free(prog_abs);
    cli_plot_free(&d);
    return rc;
}
