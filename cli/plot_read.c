/* plot_read.c - `pathfind plot`'s readers: a small JSON reader and a CSV reader, both strict about
 * sizes and values (see plot.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "plot.h"

/* ---- points ----------------------------------------------------------------------------------- */

/* A series name goes into gnuplot titles between single quotes: keep it printable, without quotes
 * or backslashes, and short. */
static void sanitise_name(char *s)
{
    size_t n = strlen(s);
    if (n > CLI_PLOT_MAX_NAME) s[n = CLI_PLOT_MAX_NAME] = '\0';
    for (char *c = s; *c; c++)
        if (*c == '\'' || *c == '"' || *c == '\\' || (unsigned char)*c < 0x20 || *c == 0x7f) *c = '_';
}

static int series_id(cli_plot_data *d, const char *name)
{
    char buf[CLI_PLOT_MAX_NAME + 1];
    snprintf(buf, sizeof buf, "%s", name);
    sanitise_name(buf);
    for (int i = 0; i < d->nseries; i++)
        if (strcmp(d->series[i], buf) == 0) return i;
    if (d->nseries == CLI_PLOT_MAX_SERIES) return CLI_PLOT_MAX_SERIES - 1; /* merge the rest */
    char *s = malloc(strlen(buf) + 1);
    if (!s) return -1;
    strcpy(s, buf);
    d->series[d->nseries] = s;
    return d->nseries++;
}

static int add_pt(cli_plot_data *d, int kind, const char *series, double x, double y)
{
    int s = series_id(d, series);
    if (s < 0) return 0;
    if (d->n[kind] == d->cap[kind]) {
        size_t nc = d->cap[kind] ? d->cap[kind] * 2 : 256;
        cli_plot_pt *p = realloc(d->pts[kind], nc * sizeof *p);
        if (!p) return 0;
        d->pts[kind] = p;
        d->cap[kind] = nc;
    }
    d->pts[kind][d->n[kind]++] = (cli_plot_pt){s, x, y};
    return 1;
}

void cli_plot_free(cli_plot_data *d)
{
    for (int s = 0; s < d->nseries; s++) free(d->series[s]);
    for (int k = 0; k < CLI_PLOT__KINDS; k++) free(d->pts[k]);
    *d = (cli_plot_data){0};
}

/* What each value may be. A value outside is an error, not a point. */
typedef struct vrange { double lo, hi; int lo_open; const char *what; } vrange;
static const vrange R_LEN = {0, HUGE_VAL, 0, "a path length >= 0"};
static const vrange R_US = {0, HUGE_VAL, 0, "a time >= 0"};
static const vrange R_THREADS = {1, CLI_PLOT_MAX_THREADS, 0, "a thread count in 1..1000000"};
static const vrange R_QPS = {0, HUGE_VAL, 0, "a rate >= 0"};
static const vrange R_USPQ = {0, HUGE_VAL, 1, "a time > 0"};
static const vrange R_FRAME = {0, HUGE_VAL, 0, "a frame time >= 0"};

static int in_range(double v, const vrange *r)
{
    return isfinite(v) && (r->lo_open ? v > r->lo : v >= r->lo) && v <= r->hi;
}

/* ---- a small JSON reader: builds a tree, reports FILE:LINE:COL on malformed input ------------- */

typedef enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;
typedef struct jval {
    jtype type;
    unsigned line, col;   /* where the value starts */
    double num;
    char *str;            /* J_STR */
    char **keys;          /* J_OBJ: [n] */
    struct jval **items;  /* J_ARR, J_OBJ: [n] of [cap]: grown by doubling */
    size_t n, cap;
} jval;

typedef struct jparser {
    const char *s, *end, *file;
    unsigned line, col;
    char err[256];
    int depth;
    size_t values; /* read so far: at most CLI_PLOT_MAX_JSON_VALUES */
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
    if (!p->err[0]) snprintf(p->err, sizeof p->err, "%u:%u: %s", p->line, p->col, what);
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

static int is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

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
    const char *why = NULL;
    while (!why && p->s < p->end && *p->s != '"') {
        char c = *p->s++;
        p->col++;
        if ((unsigned char)c < 0x20) {
            why = "control character in a string";
            break;
        }
        if (c == '\\') {
            if (p->s >= p->end) break;
            c = *p->s++;
            p->col++;
            if (c == 'u') {
                for (int k = 0; k < 4; k++, p->s++, p->col++)
                    if (p->s >= p->end || !is_hex(*p->s)) {
                        why = "bad \\u escape in a string";
                        break;
                    }
                c = '?';
            } else if (c == 'n' || c == 't') c = ' ';
            else if (!strchr("\"\\/bfr", c)) why = "bad escape in a string";
        }
        if (why) break;
        if (n + 2 > cap) {
            char *g = realloc(out, cap *= 2);
            if (!g) {
                free(out);
                jfail(p, "out of memory");
                return NULL;
            }
            out = g;
        }
        out[n++] = c;
    }
    if (!why && p->s >= p->end) why = "unterminated string";
    if (why) {
        free(out);
        jfail(p, why);
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
    if (v->n == v->cap) {
        /* doubling: an array of 200,000 numbers takes 15 reallocations, not 200,000 */
        size_t nc = v->cap ? v->cap * 2 : 8;
        void *ni = realloc(v->items, nc * sizeof *v->items);
        if (!ni) return 0;
        v->items = ni;
        if (v->type == J_OBJ) {
            void *nk = realloc(v->keys, nc * sizeof *v->keys);
            if (!nk) return 0;
            v->keys = nk;
        }
        v->cap = nc;
    }
    if (v->type == J_OBJ) v->keys[v->n] = key;
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

/* JSON's number grammar exactly: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?. strtod alone would
 * also take "-inf", "-nan" and hex floats. Returns the length, 0 when malformed. */
static size_t jnumber_len(const char *s, const char *end)
{
    const char *p = s;
#define DIGIT (p < end && *p >= '0' && *p <= '9')
    if (p < end && *p == '-') p++;
    if (!DIGIT) return 0;
    if (*p == '0') p++;
    else
        while (DIGIT) p++;
    if (p < end && *p == '.') {
        p++;
        if (!DIGIT) return 0;
        while (DIGIT) p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-')) p++;
        if (!DIGIT) return 0;
        while (DIGIT) p++;
    }
#undef DIGIT
    return (size_t)(p - s);
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
    if (++p->values > CLI_PLOT_MAX_JSON_VALUES) {
        jfail(p, "more than " CLI_PLOT_MAX_JSON_VALUES_TEXT " values (plot reads benchmarks' outputs)");
        return NULL;
    }
    jval *v = calloc(1, sizeof *v);
    if (!v) {
        jfail(p, "out of memory");
        return NULL;
    }
    v->line = p->line;
    v->col = p->col;
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
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        size_t len = jnumber_len(p->s, p->end);
        char buf[64];
        if (len == 0 || len >= sizeof buf) {
            free(v);
            r = NULL;
            jfail(p, len ? "number longer than 63 characters" : "bad number");
        } else {
            memcpy(buf, p->s, len);
            buf[len] = '\0';
            v->type = J_NUM;
            v->num = strtod(buf, NULL); /* 1e999 reads as inf: refused where the value is used */
            p->col += (unsigned)len;
            p->s += len;
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

static const jval *jget(const jval *o, const char *const *names, jtype type, const char **key)
{
    for (; *names; names++)
        for (size_t i = 0; i < o->n; i++)
            if (o->items[i]->type == type && strcmp(o->keys[i], *names) == 0) {
                if (key) *key = o->keys[i];
                return o->items[i];
            }
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

/* 1 when the value is in range; else 0 with "FILE:LINE:COL: KEY VALUE is out of range" printed. */
static int jcheck(const char *file, const jval *v, const char *key, const vrange *r)
{
    if (in_range(v->num, r)) return 1;
    cli_error("plot", "%s:%u:%u: %s %g is out of range (expected %s)", file, v->line, v->col, key, v->num, r->what);
    return 0;
}

/* Collects the points of v and everything below it; 0 on a bad value or out of memory (printed). */
static int jcollect(cli_plot_data *d, const jval *v, const char *label, const char *file)
{
    if (v->type == J_OBJ) {
        const jval *l = jget(v, LABELS, J_STR, NULL);
        if (l) label = l->str;
        const char *kx = NULL, *ky = NULL, *kt = NULL, *kq = NULL, *ku = NULL;
        const jval *x = jget(v, X_QUERY, J_NUM, &kx), *y = jget(v, Y_QUERY, J_NUM, &ky);
        const jval *t = jget(v, K_THREADS_N, J_NUM, &kt);
        if (x && y && !t) {
            if (!jcheck(file, x, kx, &R_LEN) || !jcheck(file, y, ky, &R_US)) return 0;
            if (!add_pt(d, CLI_PLOT_QUERY, label, x->num, y->num)) goto oom;
        }
        if (t) {
            const jval *q = jget(v, Y_QPS, J_NUM, &kq), *u = jget(v, K_US_PER_Q, J_NUM, &ku);
            if (q || u) {
                if (!jcheck(file, t, kt, &R_THREADS)) return 0;
                if (q && !jcheck(file, q, kq, &R_QPS)) return 0;
                if (!q && !jcheck(file, u, ku, &R_USPQ)) return 0;
                /* us_per_query is wall time per query: qps = 1e6 / us */
                if (!add_pt(d, CLI_PLOT_THREADS, label, t->num, q ? q->num : 1e6 / u->num)) goto oom;
            }
        }
        for (int k = 0; k < 2; k++) {
            const char *ka = NULL;
            const jval *a = jget(v, k ? FRAMES_US : FRAMES_MS, J_ARR, &ka);
            for (size_t i = 0; a && i < a->n; i++) {
                const jval *f = a->items[i];
                if (f->type != J_NUM) continue;
                if (!jcheck(file, f, ka, &R_FRAME)) return 0;
                if (!add_pt(d, CLI_PLOT_FRAMES, label, (double)i, f->num / (k ? 1000.0 : 1.0))) goto oom;
            }
        }
    }
    if (v->type == J_OBJ || v->type == J_ARR)
        for (size_t i = 0; i < v->n; i++)
            if (!jcollect(d, v->items[i], label, file)) return 0;
    return 1;
oom:
    cli_error("plot", "%s: out of memory", file);
    return 0;
}

static int read_json(cli_plot_data *d, const char *buf, size_t n, const char *file, const char *label,
                     unsigned line)
{
    jparser p = {.s = buf, .end = buf + n, .file = file, .line = line, .col = 1};
    for (;;) {
        jskip(&p);
        if (p.s >= p.end) return 1;
        jval *v = jvalue(&p);
        if (!v) {
            cli_error("plot", "%s:%s", file, p.err[0] ? p.err : " out of memory");
            return 0;
        }
        int ok = jcollect(d, v, label, file);
        jfree(v);
        if (!ok) return 0;
    }
}

/* ---- CSV ------------------------------------------------------------------------------------- */

static int col_of(char **cols, int n, const char *const *names)
{
    for (; *names; names++)
        for (int i = 0; i < n; i++)
            if (strcmp(cols[i], *names) == 0) return i;
    return -1;
}

/* Splits at commas into at most `max` trimmed fields; -1 when there are more. */
static int split_csv(char *line, char **cols, int max)
{
    int n = 0;
    for (char *p = line;;) {
        if (n == max) return -1;
        cols[n++] = p;
        char *c = strchr(p, ',');
        if (!c) break;
        *c = '\0';
        p = c + 1;
    }
    for (int i = 0; i < n; i++) {
        while (*cols[i] == ' ') cols[i]++;
        size_t l = strlen(cols[i]);
        while (l && cols[i][l - 1] == ' ') cols[i][--l] = '\0';
    }
    return n;
}

static int csv_num(const char *file, unsigned line, const char *col, const char *s, const vrange *r, double *out)
{
    char *e;
    errno = 0;
    *out = strtod(s, &e);
    int number = e != s && !*e && ((*s >= '0' && *s <= '9') || *s == '-' || *s == '+' || *s == '.');
    if (!number) {
        cli_error("plot", "%s:%u: column %s: '%s' is not a number", file, line, col, s);
        return 0;
    }
    if (!in_range(*out, r)) {
        cli_error("plot", "%s:%u: column %s: %s is out of range (expected %s)", file, line, col, s, r->what);
        return 0;
    }
    return 1;
}

static const char *const X_CSV_THREADS[] = {"threads", NULL};
static const char *const Y_CSV_FRAMES[] = {"frame_ms", NULL};
static const char *const STATUS[] = {"status", NULL};

enum { CSV_LINE = 4096, CSV_COLS = 64 };

static int read_csv(cli_plot_data *d, cli_text *f, const char *file, const char *label)
{
    char line[CSV_LINE], head[CSV_LINE];
    char *hc[CSV_COLS], *rc[CSV_COLS];
    int got = cli_text_line(f, head, sizeof head);
    if (got < 0) return 0;
    if (got == 0) {
        cli_error("plot", "%s: empty file", file);
        return 0;
    }
    unsigned ln = f->line;
    int nh = split_csv(head, hc, CSV_COLS);
    if (nh < 0) {
        cli_error("plot", "%s:%u: more than %d columns", file, ln, CSV_COLS);
        return 0;
    }
    int cx = col_of(hc, nh, X_QUERY), cy = col_of(hc, nh, Y_QUERY), ct = col_of(hc, nh, X_CSV_THREADS),
        cq = col_of(hc, nh, Y_QPS), cf = col_of(hc, nh, Y_CSV_FRAMES), ca = col_of(hc, nh, LABELS),
        cs = col_of(hc, nh, STATUS);
    int want_q = cx >= 0 && cy >= 0, want_t = ct >= 0 && cq >= 0;
    if (!want_q && !want_t && cf < 0) {
        cli_error("plot", "%s:%u: no known columns (need path_len and us, threads and qps, or frame_ms; see --help)%s",
                  file, ln, cy < 0 && cx >= 0 ? ": this CSV has no per-query time column 'us'" : "");
        return 0;
    }
    while ((got = cli_text_line(f, line, sizeof line)) > 0) {
        ln = f->line;
        if (line[0] == '\0' || line[0] == '#') continue;
        int n = split_csv(line, rc, CSV_COLS);
        if (n != nh) {
            cli_error("plot", "%s:%u: expected %d fields as in the header, found %s%d", file, ln, nh,
                      n < 0 ? "more than " : "", n < 0 ? CSV_COLS : n);
            return 0;
        }
        const char *lab = ca >= 0 ? rc[ca] : label;
        double x, y;
        if (want_q && (cs < 0 || strcmp(rc[cs], "ok") == 0)) {
            if (!csv_num(file, ln, hc[cx], rc[cx], &R_LEN, &x) || !csv_num(file, ln, hc[cy], rc[cy], &R_US, &y))
                return 0;
            if (!add_pt(d, CLI_PLOT_QUERY, lab, x, y)) goto oom;
        }
        if (want_t) {
            if (!csv_num(file, ln, hc[ct], rc[ct], &R_THREADS, &x) || !csv_num(file, ln, hc[cq], rc[cq], &R_QPS, &y))
                return 0;
            if (!add_pt(d, CLI_PLOT_THREADS, lab, x, y)) goto oom;
        }
        if (cf >= 0) {
            if (!csv_num(file, ln, hc[cf], rc[cf], &R_FRAME, &y)) return 0;
            if (!add_pt(d, CLI_PLOT_FRAMES, lab, (double)ln, y)) goto oom;
        }
    }
    return got == 0;
oom:
    cli_error("plot", "%s: out of memory", file);
    return 0;
}

/* ---- either ---------------------------------------------------------------------------------- */

int cli_plot_read(cli_plot_data *d, FILE *f, const char *file, const char *label)
{
    cli_text t;
    if (!cli_text_from(&t, f, "plot", file, "plot input", CLI_PLOT_MAX_INPUT_BYTES)) return 0;
    int c;
    do { /* blank lines before the first value or the CSV header */
        c = fgetc(f);
        t.bytes += c != EOF;
        t.line += c == '\n';
    } while (c == ' ' || c == '\t' || c == '\r' || c == '\n');
    if (c != EOF) {
        if (ungetc(c, f) == EOF) return 0;
        t.bytes--;
    }
    if (c != '{' && c != '[') return read_csv(d, &t, file, label);
    unsigned first = t.line + 1;
    size_t n;
    char *buf = cli_text_rest(&t, &n);
    if (!buf) return 0;
    int ok = read_json(d, buf, n, file, label, first);
    free(buf);
    return ok;
}
