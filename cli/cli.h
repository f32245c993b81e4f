/* cli.h - shared helpers of the pathfind command-line tool. */
#ifndef PF_CLI_H
#define PF_CLI_H

#include <stdint.h>
#include <stdio.h>
#include "pathfind.h"

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
int pf_cli_prep(int argc, char **argv);

/* Deterministic xorshift64 generator shared by demo and gen (same seed, same map and queries). */
typedef struct cli_rng { uint64_t s; } cli_rng;
cli_rng  cli_rng_seed(uint64_t seed, uint64_t salt);
uint32_t cli_rng_next(cli_rng *r);

double   cli_now(void);                  /* monotonic seconds */
long     cli_peak_rss_kb(void);          /* peak resident set size of this process */
int      cli_is_help(const char *a);     /* "-h" or "--help" */
/* Parses numbers strictly; print "pathfind CMD: bad VALUE for OPT" and return 0 on failure. */
int      cli_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out);
int      cli_parse_double(const char *cmd, const char *opt, const char *s, double lo, double *out);
/* --moves 4|8|8cut|hex */
int      cli_parse_moves(const char *cmd, const char *s, pf_moves *out);
/* --algo NAME */
int      cli_parse_algo(const char *cmd, const char *s, pf_algo *out);
/* CSV status word: ok, no_path, limit, invalid, oom, ... */
const char *cli_status_word(pf_status s);
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
void     cli_prep_attach(const cli_prep *p, pf_ctx *ctx);
void     cli_prep_free(cli_prep *p);

#endif
