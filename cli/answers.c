/* answers.c - a search as the commands run it (its path kept in a growing buffer) and its
 * answer's words in JSON: which search answered, and the counts of a run's answers. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

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
