/* cmd_plot.c - `pathfind plot`: benchmark JSON/CSV to PNG plots, drawn by gnuplot through popen. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

static const char *HELP =
    "usage: pathfind plot FILE... --out DIR [--json]\n"
    "\n"
    "Reads benchmark results and writes up to three plots as PNG (with gnuplot), each with the data\n"
    "file and gnuplot script that made it, so a plot can be restyled by hand:\n"
    "  DIR/query_us.png    microseconds per query against path length, one series per algorithm,\n"
    "                      points plus the median per length bin (log scale)\n"
    "  DIR/threads_qps.png queries per second against threads, with ideal linear scaling dashed\n"
    "  DIR/frame_ms.png    frame time distribution (histogram; p50, p99 and max in the title)\n"
    "When gnuplot is not installed (or PF_GNUPLOT names a missing program) the data and scripts are\n"
    "still written, a message says the plots were skipped, and the exit status is 0.\n"
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
    "\n"
    "examples:\n"
    "  pathfind scen arena.map arena.map.scen --algo astar --csv astar.csv\n"
    "  pathfind scen arena.map arena.map.scen --algo dijkstra --csv dijkstra.csv\n"
    "  pathfind plot astar.csv dijkstra.csv --out plots/\n"
    "  echo '{\"algo\":\"astar\",\"runs\":[{\"threads\":1,\"qps\":9000},{\"threads\":2,\"qps\":17000}]}' > t.json\n"
    "  pathfind plot t.json --out plots/\n";

enum { K_QUERY, K_THREADS, K_FRAMES, K__COUNT };
static const char *const KIND_FILE[K__COUNT] = {"query_us", "threads_qps", "frame_ms"};

typedef struct pt { int series; double x, y; } pt;
typedef struct plotdata {
    char *series[64];
    int nseries;
    pt *pts[K__COUNT];
    size_t n[K__COUNT], cap[K__COUNT];
} plotdata;

static int series_id(plotdata *d, const char *name)
{
    for (int i = 0; i < d->nseries; i++)
        if (strcmp(d->series[i], name) == 0) return i;
    if (d->nseries == 64) return 63; /* more series than any plot can show: merge the rest */
    char *s = malloc(strlen(name) + 1);
    if (!s) return -1;
    strcpy(s, name);
    d->series[d->nseries] = s;
    return d->nseries++;
}

static int add_pt(plotdata *d, int kind, const char *series, double x, double y)
{
    if (!isfinite(x) || !isfinite(y)) return 1;
    int s = series_id(d, series);
    if (s < 0) return 0;
    if (d->n[kind] == d->cap[kind]) {
        size_t nc = d->cap[kind] ? d->cap[kind] * 2 : 256;
        pt *p = realloc(d->pts[kind], nc * sizeof *p);
        if (!p) return 0;
        d->pts[kind] = p;
        d->cap[kind] = nc;
    }
    d->pts[kind][d->n[kind]++] = (pt){s, x, y};
    return 1;
}

/* ---- a small JSON reader: builds a tree, reports FILE:LINE:COL on malformed input ---- */

typedef enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;
typedef struct jval {
    jtype type;
    double num;
    char *str;            /* J_STR */
    char **keys;          /* J_OBJ: [n] */
    struct jval **items;  /* J_ARR, J_OBJ: [n] */
    size_t n;
} jval;

typedef struct jparser {
    const char *s, *end, *file;
    unsigned line, col;
    char err[200];
    int depth;
} jparser;

static void jfree(jval *v)
{
    if (!v) return;
    for (size_t i = 0; i < v->n; i++) {
        jfree(v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    free(v);
}

static int jfail(jparser *p, const char *what)
{
    if (!p->err[0]) snprintf(p->err, sizeof p->err, "%s:%u:%u: %s", p->file, p->line, p->col, what);
    return 0;
}

static void jskip(jparser *p)
{
    while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\r' || *p->s == '\n')) {
        if (*p->s == '\n') {
            p->line++;
            p->col = 1;
        } else {
            p->col++;
        }
        p->s++;
    }
}

static int jadv(jparser *p, char c)
{
    jskip(p);
    if (p->s < p->end && *p->s == c) {
        p->s++;
        p->col++;
        return 1;
    }
    return 0;
}

/* Strings: escapes are kept simple (\uXXXX becomes '?'): names and labels are all we need. */
static char *jstring(jparser *p)
{
    if (!jadv(p, '"')) {
        jfail(p, "expected a string");
        return NULL;
    }
    size_t cap = 32, n = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    while (p->s < p->end && *p->s != '"') {
        char c = *p->s++;
        p->col++;
        if (c == '\n' || (unsigned char)c < 0x20) {
            free(out);
            jfail(p, "control character in a string");
            return NULL;
        }
        if (c == '\\') {
            if (p->s >= p->end) break;
            c = *p->s++;
            p->col++;
            if (c == 'u') {
                for (int k = 0; k < 4 && p->s < p->end; k++, p->s++, p->col++) {}
                c = '?';
            } else if (c == 'n') c = ' ';
            else if (c == 't') c = ' ';
            else if (!strchr("\"\\/bfr", c)) {
                free(out);
                jfail(p, "bad escape in a string");
                return NULL;
            }
        }
        if (n + 2 > cap) {
            char *g = realloc(out, cap *= 2);
            if (!g) {
                free(out);
                return NULL;
            }
            out = g;
        }
        out[n++] = c;
    }
    if (p->s >= p->end) {
        free(out);
        jfail(p, "unterminated string");
        return NULL;
    }
    p->s++;
    p->col++;
    out[n] = '\0';
    return out;
}

static jval *jvalue(jparser *p);

static int jpush(jval *v, char *key, jval *item)
{
    void *ni = realloc(v->items, (v->n + 1) * sizeof *v->items);
    if (!ni) return 0;
    v->items = ni;
    if (v->type == J_OBJ) {
        void *nk = realloc(v->keys, (v->n + 1) * sizeof *v->keys);
        if (!nk) return 0;
        v->keys = nk;
        v->keys[v->n] = key;
    }
    v->items[v->n++] = item;
    return 1;
}

static jval *jcontainer(jparser *p, jval *v, char close)
{
    if (jadv(p, close)) return v;
    for (;;) {
        char *key = NULL;
        if (v->type == J_OBJ) {
            if (!(key = jstring(p))) break;
            if (!jadv(p, ':')) {
                free(key);
                jfail(p, "expected ':' after a key");
                break;
            }
        }
        jval *item = jvalue(p);
        if (!item || !jpush(v, key, item)) {
            free(key);
            jfree(item);
            jfail(p, "out of memory");
            break;
        }
        if (jadv(p, ',')) continue;
        if (jadv(p, close)) return v;
        jfail(p, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
        break;
    }
    jfree(v);
    return NULL;
}

static jval *jvalue(jparser *p)
{
    jskip(p);
    if (p->s >= p->end) {
        jfail(p, "unexpected end of file");
        return NULL;
    }
    if (++p->depth > 64) {
        jfail(p, "nesting deeper than 64");
        return NULL;
    }
    jval *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    char c = *p->s;
    jval *r = v;
    if (c == '{' || c == '[') {
        p->s++;
        p->col++;
        v->type = c == '{' ? J_OBJ : J_ARR;
        r = jcontainer(p, v, c == '{' ? '}' : ']');
    } else if (c == '"') {
        v->type = J_STR;
        if (!(v->str = jstring(p))) {
            free(v);
            r = NULL;
        }
    } else if (c == '-' || isdigit((unsigned char)c)) {
        char *e;
        errno = 0;
        v->type = J_NUM;
        v->num = strtod(p->s, &e); /* the buffer is NUL-terminated, so strtod cannot run past it */
        if (e == p->s || e > p->end) {
            free(v);
            r = NULL;
            jfail(p, "bad number");
        } else {
            p->col += (unsigned)(e - p->s);
            p->s = e;
        }
    } else {
        static const char *const words[3] = {"true", "false", "null"};
        int k;
        for (k = 0; k < 3; k++)
            if ((size_t)(p->end - p->s) >= strlen(words[k]) && strncmp(p->s, words[k], strlen(words[k])) == 0) break;
        if (k == 3) {
            free(v);
            r = NULL;
            jfail(p, "unexpected character");
        } else {
            v->type = k == 2 ? J_NULL : J_BOOL;
            v->num = k == 0;
            p->s += strlen(words[k]);
            p->col += (unsigned)strlen(words[k]);
        }
    }
    p->depth--;
    return r;
}

static const jval *jget(const jval *o, const char *const *names, jtype type)
{
    for (; *names; names++)
        for (size_t i = 0; i < o->n; i++)
            if (o->items[i]->type == type && strcmp(o->keys[i], *names) == 0) return o->items[i];
    return NULL;
}

static const char *const X_QUERY[] = {"path_len", "length", "cost", NULL};
static const char *const Y_QUERY[] = {"us", "time_us", "us_per_query", NULL};
static const char *const Y_QPS[] = {"queries_per_s", "qps", "queries_per_sec", "throughput_qps", NULL};
static const char *const K_THREADS_N[] = {"threads", NULL};
static const char *const K_US_PER_Q[] = {"us_per_query", NULL};
static const char *const LABELS[] = {"algo", "label", "name", "series", NULL};
static const char *const FRAMES_MS[] = {"frame_ms", "frame_times_ms", "frames_ms", NULL};
static const char *const FRAMES_US[] = {"frame_us", "frame_times_us", NULL};

static int jcollect(plotdata *d, const jval *v, const char *label)
{
    if (v->type == J_OBJ) {
        const jval *l = jget(v, LABELS, J_STR);
        if (l) label = l->str;
        const jval *x = jget(v, X_QUERY, J_NUM), *y = jget(v, Y_QUERY, J_NUM);
        if (x && y && !jget(v, K_THREADS_N, J_NUM) && !add_pt(d, K_QUERY, label, x->num, y->num)) return 0;
        const jval *t = jget(v, K_THREADS_N, J_NUM);
        if (t) {
            const jval *q = jget(v, Y_QPS, J_NUM), *u = jget(v, K_US_PER_Q, J_NUM);
            double qps = q ? q->num : u && u->num > 0 ? 1e6 / u->num : NAN;
            if ((q || u) && !add_pt(d, K_THREADS, label, t->num, qps)) return 0;
        }
        for (int k = 0; k < 2; k++) {
            const jval *a = jget(v, k ? FRAMES_US : FRAMES_MS, J_ARR);
            for (size_t i = 0; a && i < a->n; i++)
                if (a->items[i]->type == J_NUM && !add_pt(d, K_FRAMES, label, (double)i, a->items[i]->num / (k ? 1000.0 : 1.0)))
                    return 0;
        }
    }
    if (v->type == J_OBJ || v->type == J_ARR)
        for (size_t i = 0; i < v->n; i++)
            if (!jcollect(d, v->items[i], label)) return 0;
    return 1;
}

/* ---- CSV ---- */

static int col_of(char **cols, int n, const char *const *names)
{
    for (; *names; names++)
        for (int i = 0; i < n; i++)
            if (strcmp(cols[i], *names) == 0) return i;
    return -1;
}

static int split_csv(char *line, char **cols, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line;;) {
        if (n == max) return -1;
        cols[n++] = p;
        char *c = strchr(p, ',');
        if (!c) break;
        *c = '\0';
        p = c + 1;
    }
    for (int i = 0; i < n; i++) /* trim blanks around fields */
    {
        while (*cols[i] == ' ') cols[i]++;
        size_t l = strlen(cols[i]);
        while (l && cols[i][l - 1] == ' ') cols[i][--l] = '\0';
    }
    return n;
}

static int csv_num(const char *file, unsigned line, const char *col, const char *s, double *out)
{
    char *e;
    *out = strtod(s, &e);
    if (e == s || *e) {
        fprintf(stderr, "pathfind plot: %s:%u: column %s: '%s' is not a number\n", file, line, col, s);
        return 0;
    }
    return 1;
}

static const char *const X_CSV_THREADS[] = {"threads", NULL};
static const char *const Y_CSV_FRAMES[] = {"frame_ms", NULL};
static const char *const STATUS[] = {"status", NULL};

static int read_csv(plotdata *d, FILE *f, const char *file, const char *label)
{
    char line[4096], head[4096];
    char *hc[64], *rc[64];
    unsigned ln = 1;
    if (!fgets(head, sizeof head, f)) {
        fprintf(stderr, "pathfind plot: %s: empty file\n", file);
        return 0;
    }
    int nh = split_csv(head, hc, 64);
    int cx = col_of(hc, nh, X_QUERY), cy = col_of(hc, nh, Y_QUERY), ct = col_of(hc, nh, X_CSV_THREADS),
        cq = col_of(hc, nh, Y_QPS), cf = col_of(hc, nh, Y_CSV_FRAMES), ca = col_of(hc, nh, LABELS),
        cs = col_of(hc, nh, STATUS);
    int want_q = cx >= 0 && cy >= 0, want_t = ct >= 0 && cq >= 0;
    if (!want_q && !want_t && cf < 0) {
        fprintf(stderr,
                "pathfind plot: %s:1: no known columns (need path_len and us, threads and qps, or frame_ms; "
                "see --help)%s\n",
                file, cy < 0 && cx >= 0 ? ": this CSV has no per-query time column 'us'" : "");
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (line[0] == '\n' || line[0] == '\r' || line[0] == '#') continue;
        int n = split_csv(line, rc, 64);
        if (n != nh) {
            fprintf(stderr, "pathfind plot: %s:%u: expected %d fields as in the header, found %d\n", file, ln, nh,
                    n < 0 ? 64 : n);
            return 0;
        }
        const char *lab = ca >= 0 ? rc[ca] : label;
        double x, y;
        if (want_q && (cs < 0 || strcmp(rc[cs], "ok") == 0)) {
            if (!csv_num(file, ln, hc[cx], rc[cx], &x) || !csv_num(file, ln, hc[cy], rc[cy], &y)) return 0;
            if (!add_pt(d, K_QUERY, lab, x, y)) return 0;
        }
        if (want_t) {
            if (!csv_num(file, ln, hc[ct], rc[ct], &x) || !csv_num(file, ln, hc[cq], rc[cq], &y)) return 0;
            if (!add_pt(d, K_THREADS, lab, x, y)) return 0;
        }
        if (cf >= 0) {
            if (!csv_num(file, ln, hc[cf], rc[cf], &y)) return 0;
            if (!add_pt(d, K_FRAMES, lab, (double)ln, y)) return 0;
        }
    }
    return 1;
}

static int read_input(plotdata *d, const char *file)
{
    FILE *f = fopen(file, "rb");
    if (!f) {
        fprintf(stderr, "pathfind plot: cannot open '%s': %s\n", file, strerror(errno));
        return 0;
    }
    /* series name fallback: the file name without directory and extension */
    char label[128];
    const char *base = strrchr(file, '/');
    snprintf(label, sizeof label, "%s", base ? base + 1 : file);
    char *dot = strrchr(label, '.');
    if (dot && dot != label) *dot = '\0';
    int c;
    do c = fgetc(f);
    while (c == ' ' || c == '\t' || c == '\r' || c == '\n');
    if (c != '{' && c != '[') {
        rewind(f);
        int ok = read_csv(d, f, file, label);
        fclose(f);
        return ok;
    }
    rewind(f);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t r; buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += r;
        if (n + 1 == cap) {
            char *g = realloc(buf, cap *= 2);
            if (!g) free(buf);
            buf = g;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "pathfind plot: %s: out of memory\n", file);
        return 0;
    }
    buf[n] = '\0';
    jparser p = {.s = buf, .end = buf + n, .file = file, .line = 1, .col = 1};
    int ok = 1;
    for (;;) {
        jskip(&p);
        if (p.s >= p.end) break;
        jval *v = jvalue(&p);
        if (!v) {
            fprintf(stderr, "pathfind plot: %s\n", p.err[0] ? p.err : "out of memory");
            ok = 0;
            break;
        }
        ok = jcollect(d, v, label);
        jfree(v);
        if (!ok) {
            fprintf(stderr, "pathfind plot: out of memory\n");
            break;
        }
    }
    free(buf);
    return ok;
}

/* ---- output ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(double *v, size_t n, double q) /* v sorted */
{
    if (!n) return NAN;
    size_t i = (size_t)floor(q * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

static int cmp_pt_x(const void *a, const void *b)
{
    double x = ((const pt *)a)->x, y = ((const pt *)b)->x;
    return (x > y) - (x < y);
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

/* Writes DIR/<kind>.dat (one gnuplot index block per series) and DIR/<kind>.gp; returns the number
 * of series written (0 when the kind has no data), -1 on error. `summary` receives a one-line digest. */
static int write_kind(plotdata *d, int kind, const char *dir, char *summary, size_t slen)
{
    if (!d->n[kind]) return 0;
    if (kind == K_THREADS) qsort(d->pts[kind], d->n[kind], sizeof(pt), cmp_pt_x); /* lines run left to right */
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.dat", dir, KIND_FILE[kind]);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "pathfind plot: cannot write '%s': %s\n", path, strerror(errno));
        return -1;
    }
    int used[64] = {0}, nblocks = 0, order[64];
    for (size_t i = 0; i < d->n[kind]; i++) used[d->pts[kind][i].series] = 1;
    double *v = malloc(d->n[kind] * sizeof *v);
    if (!v) {
        fclose(f);
        return -1;
    }
    summary[0] = '\0';
    double xmax = 0;
    for (int s = 0; s < d->nseries; s++) {
        if (!used[s]) continue;
        order[nblocks++] = s;
        size_t m = 0;
        fprintf(f, "# series %s\n", d->series[s]);
        for (size_t i = 0; i < d->n[kind]; i++) {
            const pt *p = &d->pts[kind][i];
            if (p->series != s) continue;
            v[m++] = p->y;
            if (p->x > xmax) xmax = p->x;
            if (kind != K_FRAMES) fprintf(f, "%.9g %.9g\n", p->x, p->y);
        }
        qsort(v, m, sizeof *v, cmp_double);
        if (kind == K_FRAMES) {
            /* histogram: 40 bins from 0 to the largest frame, as counts */
            double hi = v[m - 1] > 0 ? v[m - 1] : 1, bw = hi / 40;
            unsigned cnt[40] = {0};
            for (size_t i = 0; i < m; i++) cnt[(size_t)fmin(39, floor(v[i] / bw))]++;
            for (int b = 0; b < 40; b++) fprintf(f, "%.9g %u\n", (b + 0.5) * bw, cnt[b]);
        }
        fprintf(f, "\n\n");
        size_t ul = strlen(summary);
        if (kind == K_QUERY)
            snprintf(summary + ul, slen - ul, "%s%s: %zu queries, median %.2f us", ul ? "; " : "", d->series[s], m,
                     quantile(v, m, 0.5));
        else if (kind == K_THREADS)
            snprintf(summary + ul, slen - ul, "%s%s: %zu points, best %.0f queries/s", ul ? "; " : "", d->series[s], m,
                     v[m - 1]);
        else
            snprintf(summary + ul, slen - ul, "%s%s: %zu frames, p50 %.3f ms, p99 %.3f ms, max %.3f ms", ul ? "; " : "",
                     d->series[s], m, quantile(v, m, 0.5), quantile(v, m, 0.99), v[m - 1]);
    }
    if (kind == K_QUERY) {
        /* medians per path-length bin: the trend the cloud of points hides */
        for (int k = 0; k < nblocks; k++) {
            fprintf(f, "# median per bin, series %s\n", d->series[order[k]]);
            for (int b = 0; b < 20; b++) {
                double lo = xmax * b / 20, hi = xmax * (b + 1) / 20;
                size_t m = 0;
                for (size_t i = 0; i < d->n[kind]; i++) {
                    const pt *p = &d->pts[kind][i];
                    if (p->series == order[k] && p->x >= lo && (p->x < hi || (b == 19 && p->x <= hi))) v[m++] = p->y;
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
    if (fclose(f) != 0) return -1;

    snprintf(path, sizeof path, "%s/%s.gp", dir, KIND_FILE[kind]);
    FILE *g = fopen(path, "w");
    if (!g) {
        fprintf(stderr, "pathfind plot: cannot write '%s': %s\n", path, strerror(errno));
        return -1;
    }
    /* pngcairo looks better; plain png (libgd) is the fallback on builds without cairo */
    fprintf(g, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
               "  set terminal pngcairo size 800,500 font 'sans,10'\n} else {\n"
               "  set terminal png size 800,500\n}\n"
               "set output '%s/%s.png'\nset grid\nset key top left opaque box\n",
            dir, KIND_FILE[kind]);
    fprintf(g, "dat = '%s/%s.dat'\n", dir, KIND_FILE[kind]);
    if (kind == K_QUERY) {
        fprintf(g, "set title 'time per query against path length'\nset key bottom right opaque box\nset xlabel 'path length'\n"
                   "set ylabel 'microseconds per query'\nset logscale y\nplot \\\n");
        for (int k = 0; k < nblocks; k++)
            fprintf(g, "  dat index %d with points pt 7 ps 0.35 lc %d title '%s', \\\n"
                       "  dat index %d with lines lw 2 lc %d title '%s median'%s\n",
                    k, k + 1, d->series[order[k]], nblocks + k, k + 1, d->series[order[k]],
                    k + 1 < nblocks ? ", \\" : "");
    } else if (kind == K_THREADS) {
        fprintf(g, "set title 'throughput against threads'\nset xlabel 'threads'\nset ylabel 'queries per second'\n"
                   "set xrange [0:*]\nset yrange [0:*]\nplot \\\n");
        for (int k = 0; k < nblocks; k++) {
            /* ideal scaling from the series' first point: y1 * x / x1 */
            fprintf(g, "  dat index %d using 1:2 with linespoints pt 7 lw 2 lc %d title '%s', \\\n", k, k + 1,
                    d->series[order[k]]);
            double x1 = 0, y1 = 0;
            for (size_t i = 0; i < d->n[kind]; i++) {
                const pt *p = &d->pts[kind][i];
                if (p->series == order[k] && (x1 == 0 || p->x < x1)) {
                    x1 = p->x;
                    y1 = p->y;
                }
            }
            fprintf(g, "  (x >= %g ? %.9g * x / %g : 1/0) with lines dt 2 lc %d title '%s ideal'%s\n", x1, y1,
                    x1 > 0 ? x1 : 1, k + 1, d->series[order[k]], k + 1 < nblocks ? ", \\" : "");
        }
    } else {
        fprintf(g, "set title 'frame time distribution'\nset xlabel 'frame time (ms)'\nset ylabel 'frames'\n"
                   "set style fill transparent solid 0.5\nset yrange [0:*]\nplot \\\n");
        for (int k = 0; k < nblocks; k++)
            fprintf(g, "  dat index %d with boxes lc %d title '%s'%s\n", k, k + 1, d->series[order[k]],
                    k + 1 < nblocks ? ", \\" : "");
    }
    if (fclose(g) != 0) return -1;
    return nblocks;
}

static int run_gnuplot(const char *prog, const char *dir, int kind)
{
    char cmd[4400], script[4200];
    snprintf(script, sizeof script, "%s/%s.gp", dir, KIND_FILE[kind]);
    /* the script is fed on stdin; stderr stays visible so gnuplot's own errors reach the user */
    snprintf(cmd, sizeof cmd, "'%s' > /dev/null", prog);
    FILE *in = fopen(script, "r"), *gp = popen(cmd, "w");
    if (!in || !gp) {
        if (in) fclose(in);
        if (gp) pclose(gp);
        return 0;
    }
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, in)) > 0;) fwrite(buf, 1, n, gp);
    fclose(in);
    return pclose(gp) == 0;
}

int pf_cli_plot(int argc, char **argv)
{
    const char *dir = NULL, *files[256];
    int nfiles = 0, json = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        } else if ((strcmp(a, "--out") == 0 || strcmp(a, "-o") == 0) && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "pathfind plot: unknown or incomplete option '%s' (see --help)\n", a);
            return 2;
        } else if (nfiles < 256) {
            files[nfiles++] = a;
        } else {
            fprintf(stderr, "pathfind plot: at most 256 input files\n");
            return 2;
        }
    }
    if (!nfiles || !dir) {
        fprintf(stderr, "pathfind plot: need at least one input FILE and --out DIR\n\n");
        fputs(HELP, stderr);
        return 2;
    }
    /* the directory and series names go into gnuplot strings in single quotes */
    if (strchr(dir, '\'') || strlen(dir) > 4000) {
        fprintf(stderr, "pathfind plot: --out '%s': quotes are not allowed in the directory name\n", dir);
        return 2;
    }
    plotdata d = {0};
    int rc = 1;
    for (int i = 0; i < nfiles; i++)
        if (!read_input(&d, files[i])) goto done;
    for (int s = 0; s < d.nseries; s++)
        for (char *c = d.series[s]; *c; c++)
            if (*c == '\'' || (unsigned char)*c < 0x20) *c = '_';
    if (!d.n[K_QUERY] && !d.n[K_THREADS] && !d.n[K_FRAMES]) {
        fprintf(stderr, "pathfind plot: no plottable data in the input (see --help for the keys it looks for)\n");
        goto done;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "pathfind plot: cannot create '%s': %s\n", dir, strerror(errno));
        goto done;
    }
    const char *prog = gnuplot_program();
    int have_gp = program_exists(prog), made = 0;
    if (json) printf("{\"out\":\"%s\",\"gnuplot\":%s,\"plots\":[", dir, have_gp ? "true" : "false");
    for (int k = 0; k < K__COUNT; k++) {
        char summary[2048];
        int ns = write_kind(&d, k, dir, summary, sizeof summary);
        if (ns < 0) goto done;
        if (ns == 0) continue;
        int ok = have_gp && run_gnuplot(prog, dir, k);
        if (have_gp && !ok) {
            fprintf(stderr, "pathfind plot: gnuplot failed on %s/%s.gp\n", dir, KIND_FILE[k]);
            goto done;
        }
        if (json) {
            printf("%s{\"kind\":\"%s\",\"png\":", made ? "," : "", KIND_FILE[k]);
            if (ok) printf("\"%s/%s.png\"", dir, KIND_FILE[k]);
            else printf("null");
            printf(",\"points\":%zu,\"series\":%d}", d.n[k], ns);
        }
        else if (ok)
            printf("wrote %s/%s.png  (%s)\n", dir, KIND_FILE[k], summary);
        else
            printf("data  %s/%s.dat  (%s)\n", dir, KIND_FILE[k], summary);
        made++;
    }
    if (json) printf("]}\n");
    if (!have_gp)
        fprintf(stderr,
                "pathfind plot: gnuplot not found ('%s'; install gnuplot-nox or set PF_GNUPLOT): plots skipped, "
                "data and scripts written to %s/\n",
                prog, dir);
    rc = 0;
done:
    for (int s = 0; s < d.nseries; s++) free(d.series[s]);
    for (int k = 0; k < K__COUNT; k++) free(d.pts[k]);
    return rc;
}
