/* common.c - helpers shared by the subcommands. */
#define _XOPEN_SOURCE 700 /* realpath, with POSIX 2008 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "common/pf_internal.h" /* pf__out_open, pf__link_target: the library's output files */

int cli_args_only;

cli_rng cli_rng_seed(uint64_t seed, uint64_t salt) { return (cli_rng){seed * 0x9E3779B97F4A7C15ull + salt}; }

uint32_t cli_rng_next(cli_rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return (uint32_t)(r->s >> 16);
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

long cli_peak_rss_kb(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return -1;
    return ru.ru_maxrss; /* kilobytes on Linux */
}

/* Linux's per-thread schedstat (CONFIG_SCHED_INFO): nanoseconds the thread has run on a core,
 * then nanoseconds it has waited, runnable, for one. A frame's wall time takes in every wait of
 * its threads, one after another or at once, so no sum of them is the frame's loss; what one
 * thread ran is exact, and it is what the batch's own work is measured by: a frame over its
 * budget whose busiest thread ran no more than the budget allows lost the rest off the cores. */
int cli_waits_read(cli_waits *w)
{
    w->n = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)) && w->n < CLI_WAITS_MAX) {
        char *end = NULL;
        long long tid = strtoll(e->d_name, &end, 10);
        if (!end || *end || end == e->d_name) continue; /* "." and ".." */
        char path[64];
        snprintf(path, sizeof path, "/proc/self/task/%lld/schedstat", tid);
        FILE *f = fopen(path, "r");
        if (!f) continue; /* a thread that ended since readdir */
        unsigned long long run, wait;
        /* schedstat's run time of a thread on a core now is as of its last tick (up to 4 ms
         * behind): its CPU clock is read instead, which Linux brings up to date (the clock id
         * glibc's pthread_getcpuclockid makes of a thread id: ~tid << 3 | per-thread | sched) */
        struct timespec ts;
        const clockid_t cid = (clockid_t)((~(unsigned long long)tid << 3) | 6u);
        if (fscanf(f, "%llu %llu", &run, &wait) == 2 && wait <= (unsigned long long)LLONG_MAX &&
            clock_gettime(cid, &ts) == 0) {
            w->tid[w->n] = tid;
            w->run[w->n] = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
            w->wait[w->n++] = (long long)wait;
        }
        fclose(f);
    }
    closedir(d);
    return w->n > 0;
}

void cli_waits_frame(const cli_waits *before, const cli_waits *after, double *busiest_ms, double *wait_ms)
{
    long long run = 0, wait = 0;
    for (uint32_t i = 0; i < after->n; i++) {
        long long r0 = 0, w0 = 0; /* a thread started since: all of it is the frame's */
        for (uint32_t k = 0; k < before->n; k++)
            if (before->tid[k] == after->tid[i]) {
                r0 = before->run[k];
                w0 = before->wait[k];
                break;
            }
        if (after->run[i] - r0 > run) run = after->run[i] - r0;
        if (after->wait[i] - w0 > wait) wait = after->wait[i] - w0;
    }
    *busiest_ms = (double)run * 1e-6;
    *wait_ms = (double)wait * 1e-6;
}

int cli_is_help(const char *a) { return a && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0); }

/* strtol and strtod skip leading blanks and take "0x" and "inf": a number here starts with a digit
 * (after an optional '-'), so what was typed is what is read. */
static int starts_like_a_number(const char *s)
{
    if (*s == '-') s++;
    return *s >= '0' && *s <= '9';
}

int cli_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out)
{
    char *e = NULL;
    errno = 0;
    long v = s && starts_like_a_number(s) ? strtol(s, &e, 10) : 0;
    if (!e || *e || errno || v < lo || v > hi) {
        cli_error(cmd, "bad value '%s' for %s (expected an integer in %ld..%ld)", s ? s : "", opt, lo, hi);
        return 0;
    }
    *out = v;
    return 1;
}

int cli_parse_double(const char *cmd, const char *opt, const char *s, double lo, double *out)
{
    char *e = NULL;
    errno = 0;
    double v = s && starts_like_a_number(s) ? strtod(s, &e) : 0;
    if (!e || *e || errno || !isfinite(v) || v < lo) {
        cli_error(cmd, "bad value '%s' for %s (expected a number >= %g)", s ? s : "", opt, lo);
        return 0;
    }
    *out = v;
    return 1;
}

int cli_check_weight(const char *cmd, pf_algo algo, int weight_given)
{
    if (!weight_given || algo == PF_ALGO_WASTAR || algo == PF_ALGO_JPS || algo == PF_ALGO_JPS_PLUS) return 1;
    cli_error(cmd, "--weight applies to wastar, jps and jps+; %s ignores it (drop it or pick one of those)",
              pf_algo_name(algo));
    return 0;
}

int cli_check_moves(const char *cmd, pf_moves moves, pf_algo algo, int smooth, long size)
{
    if (moves != PF_MOVES_HEX) return 1;
    /* what the library answers PF_UNSUPPORTED on a hex grid, refused before any query runs */
    const char *what = algo == PF_ALGO_THETA ? "--algo theta" : smooth ? "--smooth" : size > 1 ? "--size" : NULL;
    if (!what) return 1;
    cli_error(cmd, "%s needs a square grid (--moves 4, 8 or 8cut): %s", what,
              size > 1 && algo != PF_ALGO_THETA && !smooth ? "hex maps have no clearance for larger units"
                                                            : "hex maps have no straight lines");
    return 0;
}

/* The class of a terrain character a unit may enter; 0 (with a message) for an unknown or blocked one. */
static uint8_t filter_class(const char *cmd, const char *opt, char ch)
{
    int k = pf_grid_terrain_class(ch);
    if (k > 0) return (uint8_t)k;
    if (k == 0) cli_error(cmd, "%s: '%c' is blocked terrain, which no unit enters", opt, ch);
    else cli_error(cmd, "%s: unknown terrain character '%c' (expected . G S W T)", opt, ch);
    return 0;
}

int cli_filter_opt(const char *cmd, const char *opt, const char *arg, cli_filter *cf)
{
    if (strcmp(opt, "--classes") == 0) {
        if (!*arg) {
            cli_error(cmd, "--classes needs at least one terrain character (e.g. --classes .W)");
            return 0;
        }
        for (const char *p = arg; *p; p++) {
            uint8_t k = filter_class(cmd, opt, *p);
            if (!k) return 0;
            cf->f.classes[k >> 3] = (uint8_t)(cf->f.classes[k >> 3] | (1u << (k & 7u)));
        }
        cf->classes = 1;
        return 1;
    }
    if (strcmp(opt, "--class-cost") != 0) return -1;
    /* C=X[,C=X]: one character, '=', a positive finite number, each item whole */
    for (const char *p = arg;;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char num[64];
        if (n < 3 || p[1] != '=' || n - 2 >= sizeof num) {
            cli_error(cmd, "bad value '%s' for --class-cost (expected C=X[,C=X], e.g. W=2.5)", arg);
            return 0;
        }
        uint8_t k = filter_class(cmd, opt, p[0]);
        if (!k) return 0;
        if (cf->cost_set[k >> 3] & (1u << (k & 7u))) { /* the last one won: say which is meant */
            cli_error(cmd, "--class-cost: the class of '%c' is given a multiplier twice (. G S name one class)", p[0]);
            return 0;
        }
        memcpy(num, p + 2, n - 2);
        num[n - 2] = 0;
        char *e;
        double x = strtod(num, &e);
        if (*e || !(x > 0) || !(x <= 1e30)) {
            cli_error(cmd, "bad multiplier '%s' for --class-cost %c (expected a number > 0)", num, p[0]);
            return 0;
        }
        cf->f.class_cost[k] = (float)x;
        cf->cost_set[k >> 3] = (uint8_t)(cf->cost_set[k >> 3] | (1u << (k & 7u)));
        if (!end) break;
        p = end + 1;
    }
    cf->costs = 1;
    return 1;
}

int cli_filter_done(const char *cmd, cli_filter *cf, const pf_move_filter **out)
{
    *out = NULL;
    if (!cf->classes && !cf->costs) return 1;
    if (!cf->classes) {
        cli_error(cmd, "--class-cost needs --classes (the terrain the unit may enter)");
        return 0;
    }
    for (uint32_t k = 1; k < 4; k++) /* the classes terrain characters name */
        if (((cf->cost_set[k >> 3] >> (k & 7u)) & 1u) && !((cf->f.classes[k >> 3] >> (k & 7u)) & 1u)) {
            cli_error(cmd, "--class-cost names terrain '%c', which --classes does not allow", "?.WT"[k < 4 ? k : 0]);
            return 0;
        }
    *out = &cf->f;
    return 1;
}

int cli_parse_moves(const char *cmd, const char *s, pf_moves *out)
{
    if (s && strcmp(s, "4") == 0) *out = PF_MOVES_4;
    else if (s && strcmp(s, "8") == 0) *out = PF_MOVES_8_NO_CUT;
    else if (s && strcmp(s, "8cut") == 0) *out = PF_MOVES_8_CUT;
    else if (s && strcmp(s, "hex") == 0) *out = PF_MOVES_HEX;
    else {
        cli_error(cmd, "bad value '%s' for --moves (expected 4, 8, 8cut or hex)", s ? s : "");
        return 0;
    }
    return 1;
}

int cli_parse_algo(const char *cmd, const char *s, pf_algo *out)
{
    pf_algo a = pf_algo_parse(s);
    if (a == PF_ALGO_UNKNOWN) {
        /* the list comes from the library, so it cannot fall behind a new algorithm */
        char names[160] = "";
        for (int k = PF_ALGO_ASTAR; k < PF_ALGO__COUNT; k++) {
            size_t l = strlen(names);
            snprintf(names + l, sizeof names - l, "%s%s", k > PF_ALGO_ASTAR ? ", " : "", pf_algo_name((pf_algo)k));
        }
        cli_error(cmd, "unknown algorithm '%s' (valid: %s)", s ? s : "", names);
        return 0;
    }
    *out = a;
    return 1;
}

static const char *const DETAIL_NAMES[] = {"fallback", "accel", "accel_stale", "short", "partial", "accel_edited",
                                           "accel_declined"};
enum { NDETAIL = sizeof DETAIL_NAMES / sizeof DETAIL_NAMES[0] };

void cli_detail_json(FILE *f, uint32_t detail)
{
    fputc('[', f);
    for (unsigned k = 0, first = 1; k < NDETAIL; k++)
        if (detail & (1u << k)) {
            fprintf(f, "%s\"%s\"", first ? "" : ",", DETAIL_NAMES[k]);
            first = 0;
        }
    fputc(']', f);
}

void cli_answers_add(cli_answers *a, const pf_stats *st)
{
    if (st->algo < PF_ALGO__COUNT) a->by_algo[st->algo]++;
    for (unsigned k = 0; k < NDETAIL; k++) a->detail[k] += (st->detail >> k) & 1u;
}

void cli_answers_json(FILE *f, const cli_answers *a)
{
    /* flat keys: the summary stays one object of numbers, easy to grep and to plot */
    for (int k = PF_ALGO_ASTAR; k < PF_ALGO__COUNT; k++)
        if (a->by_algo[k]) fprintf(f, ",\"by_%s\":%llu", pf_algo_name((pf_algo)k), (unsigned long long)a->by_algo[k]);
    for (unsigned k = 0; k < NDETAIL; k++)
        fprintf(f, ",\"detail_%s\":%llu", DETAIL_NAMES[k], (unsigned long long)a->detail[k]);
}

int cli_algo_optimal(pf_algo a)
{
    return a == PF_ALGO_ASTAR || a == PF_ALGO_DIJKSTRA || a == PF_ALGO_JPS || a == PF_ALGO_JPS_PLUS || a == PF_ALGO_AUTO ||
           a == PF_ALGO_DEFAULT;
}

pf_status cli_search(pf_ctx *ctx, uint32_t s, uint32_t g, const pf_search_desc *d, cli_pathbuf *pb,
                     pf_path *path, pf_stats *st)
{
    if (!pb->nodes) {
        /* a NULL nodes array means "no path wanted" to pf_search, so never pass one */
        pb->nodes = malloc(256 * sizeof *pb->nodes);
        if (!pb->nodes) return PF_OUT_OF_MEMORY;
        pb->cap = 256;
    }
    *path = (pf_path){.nodes = pb->nodes, .capacity = pb->cap};
    pf_status r = pf_search(ctx, s, g, d, path, st);
    if (r == PF_BUFFER_TOO_SMALL) {
        /* the search result stays in the context: grow and read it again */
        uint32_t need = path->len;
        uint32_t *n = realloc(pb->nodes, (size_t)need * sizeof *n);
        if (!n) return PF_OUT_OF_MEMORY;
        pb->nodes = n;
        pb->cap = need;
        *path = (pf_path){.nodes = pb->nodes, .capacity = pb->cap};
        r = pf_search_path(ctx, path, st);
    }
    return r;
}

void cli_pathbuf_free(cli_pathbuf *pb)
{
    free(pb->nodes);
    pb->nodes = NULL;
    pb->cap = 0;
}

/* ---- messages ------------------------------------------------------------------------------- */

/* Formats like vprintf and writes the result to f with control characters escaped, then a newline. */
static void put_escaped(FILE *f, const char *fmt, va_list ap)
{
    char raw[8192];
    int n = vsnprintf(raw, sizeof raw, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof raw ? (size_t)n : sizeof raw - 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)raw[i];
        /* C0 controls and DEL, and C1 controls as UTF-8 (0xC2 0x80..0x9F): a terminal acts on them */
        int c1 = c == 0xc2 && i + 1 < len && (unsigned char)raw[i + 1] >= 0x80 && (unsigned char)raw[i + 1] <= 0x9f;
        if (c < 0x20 || c == 0x7f) fprintf(f, "\\x%02x", c);
        else if (c1) fprintf(f, "\\x%02x\\x%02x", c, (unsigned char)raw[++i]);
        else fputc(c, f);
    }
    if (n >= 0 && (size_t)n >= sizeof raw) fputs("...", f);
    fputc('\n', f);
}

void cli_error(const char *cmd, const char *fmt, ...)
{
    if (*cmd) fprintf(stderr, "pathfind %s: ", cmd);
    else fputs("pathfind: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    put_escaped(stderr, fmt, ap);
    va_end(ap);
}

void cli_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_escaped(stdout, fmt, ap);
    va_end(ap);
}

void cli_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

/* ---- files ---------------------------------------------------------------------------------- */

/* The output files are the library's (pf__out_open, pf__out_close: written beside the target and
 * renamed over it, links followed, devices and this process's streams written in place); the
 * CLI words its own messages from the reason the library records. */
static void out_error(const char *cmd, const pf__outfile *p)
{
    const char *path = p->path ? p->path : "";
    switch (p->fail) {
    case PF__OUT_IS_DIR: cli_error(cmd, "cannot write '%s': it is a directory", path); break;
    case PF__OUT_LINK_LOOP:
        cli_error(cmd, "cannot write '%s': a loop of symbolic links, or one too long to follow", path);
        break;
    case PF__OUT_NO_MEMORY: cli_error(cmd, "out of memory"); break;
    case PF__OUT_WRITE: /* err 0: the caller discarded the output (ok = 0) and has said why */
        if (p->err) cli_error(cmd, "error writing '%s': %s", path, strerror(p->err));
        break;
    case PF__OUT_RENAME: cli_error(cmd, "cannot replace '%s': %s", path, strerror(p->err)); break;
    default: cli_error(cmd, "cannot write '%s': %s", path, strerror(p->err ? p->err : EIO)); break;
    }
}

FILE *cli_out_open(cli_out *o, const char *cmd, const char *path)
{
    *o = (cli_out){.path = path};
    pf__outfile *p = malloc(sizeof *p);
    if (!p) {
        cli_error(cmd, "out of memory");
        return NULL;
    }
    if (pf__out_open(p, path, NULL, NULL) != PF_OK) {
        out_error(cmd, p);
        free(p);
        return NULL;
    }
    o->impl = p;
    o->f = p->f;
    o->tmp = p->tmp;
    return o->f;
}

/* The file an output named `path` is written to, as an absolute name: resolved when it exists;
 * else (through a dangling link as cli_out_open follows it) its directory resolved and its own
 * name. NULL when that cannot be told (a loop of links, a missing directory, out of memory). */
static char *out_target(const char *path)
{
    char *real = realpath(path, NULL);
    if (real) return real;
    struct stat sb;
    char link[4096];
    const char *p = path;
    if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
        if (!pf__link_target(path, link, sizeof link)) return NULL;
        p = link;
    }
    const char *slash = strrchr(p, '/'), *base = slash ? slash + 1 : p;
    char dir[4096];
    size_t dl = slash ? (size_t)(slash - p) : 0;
    if (dl >= sizeof dir) return NULL;
    if (!slash) strcpy(dir, ".");
    else if (dl == 0) strcpy(dir, "/");
    else {
        memcpy(dir, p, dl);
        dir[dl] = '\0';
    }
    char *rd = realpath(dir, NULL), *out = NULL;
    if (rd && (out = malloc(strlen(rd) + strlen(base) + 2)))
        sprintf(out, "%s%s%s", rd, strcmp(rd, "/") == 0 ? "" : "/", base);
    free(rd);
    return out;
}

int cli_out_same(const char *cmd, const char *opt_a, const char *a, const char *opt_b, const char *b)
{
    if (!a || !b) return 0;
    struct stat sa, sb;
    int same = strcmp(a, b) == 0 ||
               (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
    if (!same) { /* one not made yet, named two ways ("./x" and "x", or a link to where it will be) */
        char *ta = out_target(a), *tb = out_target(b);
        same = ta && tb && strcmp(ta, tb) == 0;
        free(ta);
        free(tb);
    }
    if (same) cli_error(cmd, "%s and %s name the same file ('%s'): one would replace the other", opt_a, opt_b, a);
    return same;
}

int cli_out_check(const char *cmd, const char *path)
{
    /* a pipe, a device or a stream is written in place: opened to check, a pipe's reader would see
     * its end */
    if (pf__out_in_place(path)) return 1;
    cli_out o;
    if (!cli_out_open(&o, cmd, path)) return 0;
    cli_out_close(&o, cmd, 0); /* the temporary file goes; the target is not touched */
    return 1;
}

int cli_out_close(cli_out *o, const char *cmd, int ok)
{
    if (!o || !o->impl) return 0;
    pf__outfile *p = o->impl;
    const int done = pf__out_close(p, ok, NULL) == PF_OK;
    if (!done) out_error(cmd, p);
    free(p);
    *o = (cli_out){.path = o->path};
    return done;
}

FILE *cli_open_read(const char *cmd, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error(cmd, "%s: cannot open: %s", path, strerror(errno)); /* as the library's loaders say it */
        return NULL;
    }
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        cli_error(cmd, "%s: is a directory, not a file", path);
        fclose(f);
        return NULL;
    }
    return f;
}

int cli_close_stdout(int rc)
{
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad) return rc;
    fprintf(stderr, "pathfind: error writing standard output: %s\n", strerror(e ? e : EIO));
    return rc ? rc : 1;
}
