/* cli.h - shared helpers of the pathfind command-line tool. */
#ifndef PF_CLI_H
#define PF_CLI_H

#include <stdint.h>
#include <stdio.h>
#include "pathfind.h"

/* The whole tool: argv[0] is the program, argv[1] the subcommand. Returns the exit code. */
int pf_cli_main(int argc, char **argv);
/* Flushes and closes stdout: data lost to a full disk or a closed pipe must not exit 0. Returns rc,
 * or 1 with a message when stdout could not be written. */
int cli_close_stdout(int rc);

/* Set by the fuzz target: every subcommand returns right after parsing and checking its arguments
 * (exit code 0 when they are good), before it opens or writes anything. */
extern int cli_args_only;

/* Each subcommand: returns the process exit code (0 ok, 1 failure, 2 usage). */
int pf_cli_scen(int argc, char **argv);
int pf_cli_graph(int argc, char **argv);
int pf_cli_path(int argc, char **argv);
int pf_cli_demo(int argc, char **argv);
int pf_cli_gen(int argc, char **argv);
int pf_cli_render(int argc, char **argv);
int pf_cli_plot(int argc, char **argv);
int pf_cli_table(int argc, char **argv);
int pf_cli_bench(int argc, char **argv);
int pf_cli_replay(int argc, char **argv);
int pf_cli_edit(int argc, char **argv);

/* EDITS files (cmd_edit.c): applies each `rect X Y W H C` line to `map` as one edit (its own map
 * version), timing the library calls; `cb` [opt] sees each applied edit and its character. Returns
 * 0 after a message naming the file and line at the first bad line (edits before it stay applied). */
typedef void (*cli_edit_cb)(const pf_grid_edit *e, char terrain, void *user);
typedef struct cli_edit_stats {
    uint32_t edits;          /* rect lines applied */
    uint64_t cells_changed;
    double   seconds;        /* in pf_grid_apply_edits, derived data included */
} cli_edit_stats;
int cli_apply_edits(const char *cmd, pf_map *map, const char *path, cli_edit_cb cb, void *user, cli_edit_stats *out);
/* A cli_edit_cb that writes each edit's character into a map's rows of characters. */
typedef struct cli_paint { char *rows; uint32_t w; } cli_paint;
/* A Moving AI map read once (a pipe or a FIFO cannot be read twice) and parsed, and with `rows`
 * its raw characters, W x H (swamp and 'G' apart, which the library folds into ground; malloc'd).
 * NULL with a message printed. */
pf_map *cli_map_read(const char *cmd, const char *path, const pf_grid_load_desc *desc, char **rows);
void cli_paint_edit(const pf_grid_edit *e, char ch, void *user);
int pf_cli_prep(int argc, char **argv);

/* Deterministic xorshift64 generator shared by demo and gen (same seed, same map and queries). */
typedef struct cli_rng { uint64_t s; } cli_rng;
cli_rng  cli_rng_seed(uint64_t seed, uint64_t salt);
uint32_t cli_rng_next(cli_rng *r);

/* "pathfind CMD: MESSAGE\n" on stderr, the message formatted like printf and written with control
 * characters escaped (\xNN): file names, arguments and input echoed in messages may hold them. */
void     cli_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A report line on stdout (a newline is added), escaped as cli_error escapes: for lines that echo
 * file names ("wrote FILE"). */
void     cli_say(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Writes s as a JSON string, quotes included ("a\"b", control characters as \u00XX, a byte of no
 * UTF-8 character as \ufffd: JSON is UTF-8). */
void     cli_json_str(FILE *f, const char *s);

/* An output file (--csv, -o): written beside its target and renamed over it once complete, so a
 * failed run never leaves a truncated file and never removes one; a target that exists and is not
 * a regular file (/dev/null, /dev/full, a pipe) is written in place and never removed. */
typedef struct cli_out {
    FILE       *f;
    const char *path;
    const char *tmp;          /* the file written beside the target; NULL when written in place */
    struct pf__outfile *impl; /* the library's (pf__out_open): the one rule for output files */
} cli_out;
/* Opens; NULL (message printed) on failure. */
FILE    *cli_out_open(cli_out *o, const char *cmd, const char *path);
/* Checks every write (ferror, fflush, fclose), then renames; ok = 0 discards the output. Returns 1
 * when the file is complete, else 0 with a message (none when ok was 0). NULL-safe. */
int      cli_out_close(cli_out *o, const char *cmd, int ok);
/* Whether `path` can be written as cli_out_open writes it (a temporary file beside it is made and
 * removed; the target is not touched), said before long work whose result would go there; 0 after
 * an error message. */
int      cli_out_check(const char *cmd, const char *path);
/* Whether two outputs (either may be NULL) name one file: the same name, or the same existing file
 * by device and inode. Said (an error of `cmd`, naming the two options) when they do: written one
 * after the other, the second would replace the first. */
int      cli_out_same(const char *cmd, const char *opt_a, const char *a, const char *opt_b, const char *b);
/* Refuses (1, said) an output `out` (given by `opt`) that names one of the n inputs ins[k] (given
 * by in_opts[k], NULL ones skipped): the input would be replaced by the output (a scenario by its
 * CSV, an order log by the replay's). */
int      cli_out_names_input(const char *cmd, const char *opt, const char *out, int n, const char *const *in_opts,
                             const char *const *ins);
/* Opens a file to read; refuses a directory (fopen takes one, then every read fails). */
FILE    *cli_open_read(const char *cmd, const char *path);
/* A text input (text_read.c), the one reader of every text file the tool itself reads: at most
 * max_bytes in all (a regular file is refused by its size before a byte is read, a stream when it
 * passes the bound), refused at its first NUL byte; messages name FILE:LINE and `what` ("order
 * log", "edit list", ...). */
typedef struct cli_text {
    FILE       *f;
    const char *cmd, *path, *what;
    unsigned    line;      /* lines read so far */
    uint64_t    bytes, max_bytes;
    int         owned;     /* opened by cli_text_open: closed by cli_text_close */
} cli_text;
/* Opens path (a directory is refused); 0 with a message printed on failure. */
int      cli_text_open(cli_text *t, const char *cmd, const char *path, const char *what, uint64_t max_bytes);
/* Reads from a stream the caller opened (and closes); 0 with a message when a regular file is over
 * the bound. */
int      cli_text_from(cli_text *t, FILE *f, const char *cmd, const char *path, const char *what, uint64_t max_bytes);
/* Reads one line of at most cap - 2 bytes into buf, "\n" or "\r\n" stripped. Returns 1 for a line,
 * 0 at the end, -1 (message printed) for a NUL byte, a longer line, the bound or a read error. */
int      cli_text_line(cli_text *t, char *buf, size_t cap);
/* The rest of the input, NUL-terminated (malloc'd; *len bytes); NULL with a message printed. */
char    *cli_text_rest(cli_text *t, size_t *len);
void     cli_text_close(cli_text *t);
/* The documented bounds of the tool's own text inputs (docs/hardening.md, Limits). */
#define CLI_ORDERS_MAX_BYTES ((uint64_t)256 << 20) /* replay order logs */
#define CLI_EDITS_MAX_BYTES  ((uint64_t)64 << 20)  /* edit lists: edit, scen --edits, table update */
#define CLI_PAIRS_MAX_BYTES  ((uint64_t)1 << 30)   /* graph PAIRS, as large as a .scen file */

double   cli_now(void);                  /* monotonic seconds */
long     cli_peak_rss_kb(void);          /* peak resident set size of this process */
int      cli_is_help(const char *a);     /* "-h" or "--help" */
/* An option's name: '-' and then anything but a digit or a point ("-5" and "-.5" are numbers, "-"
 * alone a file name). */
int      cli_is_option(const char *a);
/* Whether argv[i], an option, has its value: a next argument that is not itself an option (an
 * option missing its value took the next option as a file name: --csv --threads). */
int      cli_has_value(int argc, char **argv, int i);
/* Refuses (1, said) an option given twice among argv[1..argc): the second replaced the first in
 * silence (a second --csv, a second --edits file dropped). */
int      cli_repeated_option(const char *cmd, int argc, char **argv);
/* Parses numbers strictly (the whole string, in range, no wrap-around); print "pathfind CMD: bad
 * VALUE for OPT" and return 0 on failure. */
int      cli_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out);
/* cli_parse_int without the message: for a caller that says what is wrong itself (a list). */
int      cli_read_int(const char *s, long lo, long hi, long *out);
int      cli_parse_double(const char *cmd, const char *opt, const char *s, double lo, double *out);
/* The largest --threads any subcommand takes (a batch has at most PF_BATCH_MAX_WORKERS workers). */
#define CLI_MAX_THREADS 1024
/* What each thread of this process has done with the cores (Linux schedstat): its time running
 * on one and its time waiting, runnable, for one. Read before and after a frame, cli_waits_frame
 * gives the most CPU time one thread used in between (what the batch's own work can account for)
 * and the longest one thread waited for a core. cli_waits_read returns 0 where the system does
 * not say (then no figure is given). */
#define CLI_WAITS_MAX (CLI_MAX_THREADS + 16)
typedef struct cli_waits {
    uint32_t  n;
    long long tid[CLI_WAITS_MAX], run[CLI_WAITS_MAX], wait[CLI_WAITS_MAX];
} cli_waits;
int      cli_waits_read(cli_waits *w);
void     cli_waits_frame(const cli_waits *before, const cli_waits *after, double *busiest_ms, double *wait_ms);
/* --weight W is read by wastar, jps and jps+ only: given with another algorithm it is an error
 * (message printed, returns 0) rather than silently ignored. `grid`: 0 for a graph, where the
 * message names wastar alone (no JPS there). */
int      cli_check_weight(const char *cmd, pf_algo algo, int weight_given, int grid);
/* --moves 4|8|8cut|hex */
int      cli_parse_moves(const char *cmd, const char *s, pf_moves *out);
/* A replay order log (orders.c; the format is in `pathfind replay --help`), read whole through the
 * bounded text reader: one record a line, frames non-decreasing. */
enum { CLI_ORDER, CLI_CANCEL, CLI_EDIT };
typedef struct cli_order {
    uint32_t    kind, line, frame;
    uint64_t    tag;
    int32_t     sx, sy, gx, gy; /* edit: the rectangle's corner is sx, sy */
    int32_t     w, h;           /* edit: its size */
    char        terrain;        /* edit: the Moving AI character it paints */
    uint16_t    ecol[6];        /* edit: where `rect`, X, Y, W, H and C begin on the line (0-based),
                                   so the map's checks name the columns as typed */
    uint8_t     size;           /* order: size=K (0: the --size default) */
    uint8_t     partial;        /* order: `partial` */
    pf_priority prio;
    uint32_t    row; /* order: its CSV row; cancel: the row of the unit's latest earlier order, or
                        UINT32_MAX when it has none; edit: UINT32_MAX */
    uint32_t    prev; /* order: the row of the unit's previous order (UINT32_MAX: none) */
} cli_order;
typedef struct cli_orders {
    cli_order *r;
    uint32_t   n, cap, orders; /* records, capacity, order records */
} cli_orders;
/* 1 when the whole log was read (*out owned by the caller: cli_orders_free); else 0, message printed,
 * nothing to free. */
int      cli_orders_read(const char *path, cli_orders *out);
void     cli_orders_free(cli_orders *o);

/* What a hex grid cannot answer (Theta*, --smooth, --size above 1), refused as a usage error before
 * anything is loaded: message printed, returns 0. */
int      cli_check_moves(const char *cmd, pf_moves moves, pf_algo algo, int smooth, long size);
/* Movement types: --classes CHARS (the Moving AI terrain characters the unit may enter; any of
 * `.GS` names ground) and --class-cost C=X[,C=X] (the multiplier of a step into the class of
 * character C, > 0). cli_filter_opt takes either option (returns 1 when `opt` was one of them and
 * its value is good; 0 with a message when bad; -1 when `opt` is another option); cli_filter_done,
 * after every option, checks they agree (a cost for a class not in --classes, or --class-cost
 * without --classes, is an error: returns 0 with a message) and gives the filter for
 * pf_search_desc.filter, NULL when neither option was given. */
typedef struct cli_filter {
    pf_move_filter f;
    int            classes, costs; /* options seen */
    uint8_t        cost_set[4];    /* classes given a cost (bits of classes 0..31) */
} cli_filter;
int      cli_filter_opt(const char *cmd, const char *opt, const char *arg, cli_filter *cf);
int      cli_filter_done(const char *cmd, cli_filter *cf, const pf_move_filter **out);
/* --algo NAME; an unknown name is an error that lists the valid ones */
int      cli_parse_algo(const char *cmd, const char *s, pf_algo *out);
/* How searches were answered (pf_stats.algo and .detail), never a silent substitution: a JSON
 * array of detail names (fallback, accel, accel_stale, short, partial), and counts over many
 * queries printed flat, as `,"by_jps+":N,"by_auto":N,...,"detail_fallback":N,"detail_accel":N,...`
 * (by_ALGO for each search that answered; by_auto counts the accelerator's answers). */
void     cli_detail_json(FILE *f, uint32_t detail);
typedef struct cli_answers { uint64_t by_algo[PF_ALGO__COUNT]; uint64_t detail[8]; } cli_answers;
void     cli_answers_add(cli_answers *a, const pf_stats *st);
void     cli_answers_json(FILE *f, const cli_answers *a);
/* CSV status word (ok, no_path, limit, invalid, oom, ...): cli_status_word, status_word.h */
#include "status_word.h"
/* Whether this algorithm's cost must equal the optimum. */
int      cli_algo_optimal(pf_algo a);
/* A path buffer that grows on PF_BUFFER_TOO_SMALL. */
typedef struct cli_pathbuf { uint32_t *nodes; uint32_t cap; } cli_pathbuf;
pf_status cli_search(pf_ctx *ctx, uint32_t s, uint32_t g, const pf_search_desc *d, cli_pathbuf *pb,
                     pf_path *path, pf_stats *st);
void     cli_pathbuf_free(cli_pathbuf *pb);
/* Progress bar on stderr, drawn only when stderr is a terminal (and PF_NO_PROGRESS is unset) and
 * the work has run for half a second; erased when done == total. Zero-initialise the state. */
typedef struct cli_progress_state { const char *label; int enabled, drawn; double start, last; } cli_progress_state;
void     cli_progress(cli_progress_state *p, uint64_t done, uint64_t total);

/* What a search command prepares before its timed queries (cmd_prep.c): for --algo auto the
 * accelerator, read from `file` [opt] (--prep FILE) or built when the map supports one, else JPS
 * tables for jps, jps+ and auto. prep_s: seconds spent. Returns 0 after printing why when the file
 * cannot be used (another map, corrupted, ...) or --prep was given with another algorithm. */
typedef struct cli_prep { pf_accel *accel; pf_jps_table *jps; double prep_s; } cli_prep;
int      cli_prep_make(const char *cmd, const pf_map *map, pf_algo algo, const char *file, cli_prep *p);
/* The same with the accelerator's edit policy named (cli_prep_make: PF_ACCEL_EDITS_CHECK, followed by
 * its diff; --accel-edits names another). */
int      cli_prep_make_edits(const char *cmd, const pf_map *map, pf_algo algo, const char *file, pf_accel_edits edits,
                             cli_prep *p);
void     cli_prep_attach(const cli_prep *p, pf_ctx *ctx);
/* --accel-edits check|rebuild|stale (pf_accel_edits); 0 after printing why when unknown. */
int      cli_parse_accel_edits(const char *cmd, const char *s, pf_accel_edits *out);
void     cli_prep_free(cli_prep *p);

#endif
