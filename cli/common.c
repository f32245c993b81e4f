/* common.c - helpers shared by the subcommands. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "cli.h"

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

int cli_is_help(const char *a) { return a && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0); }

int cli_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out)
{
    char *e;
    errno = 0;
    long v = s ? strtol(s, &e, 10) : 0;
    if (!s || !*s || *e || errno || v < lo || v > hi) {
        fprintf(stderr, "pathfind %s: bad value '%s' for %s (expected an integer in %ld..%ld)\n", cmd,
                s ? s : "", opt, lo, hi);
        return 0;
    }
    *out = v;
    return 1;
}

int cli_parse_double(const char *cmd, const char *opt, const char *s, double lo, double *out)
{
    char *e;
    errno = 0;
    double v = s ? strtod(s, &e) : 0;
    if (!s || !*s || *e || errno || !isfinite(v) || v < lo) {
        fprintf(stderr, "pathfind %s: bad value '%s' for %s (expected a number >= %g)\n", cmd, s ? s : "", opt, lo);
        return 0;
    }
    *out = v;
    return 1;
}

int cli_parse_moves(const char *cmd, const char *s, pf_moves *out)
{
    if (s && strcmp(s, "4") == 0) *out = PF_MOVES_4;
    else if (s && strcmp(s, "8") == 0) *out = PF_MOVES_8_NO_CUT;
    else if (s && strcmp(s, "8cut") == 0) *out = PF_MOVES_8_CUT;
    else if (s && strcmp(s, "hex") == 0) *out = PF_MOVES_HEX;
    else {
        fprintf(stderr, "pathfind %s: bad value '%s' for --moves (expected 4, 8, 8cut or hex)\n", cmd, s ? s : "");
        return 0;
    }
    return 1;
}

int cli_parse_algo(const char *cmd, const char *s, pf_algo *out)
{
    pf_algo a = pf_algo_parse(s);
    if (a == PF_ALGO_DEFAULT) {
        fprintf(stderr, "pathfind %s: unknown algorithm '%s' (astar, wastar, dijkstra, bfs, greedy, jps, jps+, auto)\n",
                cmd, s ? s : "");
        return 0;
    }
    *out = a;
    return 1;
}

const char *cli_status_word(pf_status s)
{
    switch (s) {
    case PF_OK: case PF_FALLBACK: return "ok";
    case PF_NO_PATH: return "no_path";
    case PF_LIMIT_REACHED: return "limit";
    case PF_INVALID_START: case PF_INVALID_GOAL: case PF_INVALID_ARGUMENT: return "invalid";
    case PF_OUT_OF_MEMORY: return "oom";
    default: return "error";
    }
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
