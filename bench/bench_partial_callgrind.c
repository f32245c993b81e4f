/* bench_partial_callgrind.c - partial queries against a plain A* to the cell each returned, by
 * instructions (issue 27: "never more than about twice a plain query to the cell it returns").
 * Times on a shared machine swing by up to 2x; instruction counts under callgrind repeat exactly,
 * so this is the measure docs/units.md gives per map and move rule. The clicks are bench_partial's
 * (blocked cells, each from an open start within RADIUS cells of it, the same seed), asked as A*.
 *
 * Each click's partial query and its plain query are counted on their own: callgrind's counters
 * are zeroed just before the query and dumped just after it (client requests), and the program
 * reads the Ir total of each dump file back, then removes it. Both queries run once beforehand, so
 * what is counted is a warm context's query, as a game would ask it. A count takes in a few
 * instructions around the call (its arguments, the client requests' own), so a click within a few
 * instructions of 2x may fall on either side of it from one compiler to another. One JSON object
 * per map and move rule:
 *   clicks         clicks counted (partial queries that returned a path)
 *   over2          clicks whose partial query took more than twice the plain one's instructions
 *   worst_ratio    the largest partial/plain ratio over the clicks
 *   sum_ratio      the partial queries' instructions summed, over the plain ones'
 *   median_ratio   the median click's partial/plain ratio, over the clicks whose plain query
 *                  counted instructions (the "never more than about twice" is per click;
 *                  a change that moves the sum may leave the usual click worse)
 *   partial_instr, plain_instr   mean instructions a query
 *   over2_clicks   each click over 2x: start, goal, the cell returned, both queries' instructions
 *                  and expansions
 *   all_clicks     with PF_CLICKS_ALL=1 in the environment, every click's [partial, plain]
 *                  instructions, in order (to compare two builds click by click)
 *
 * It must run under callgrind (tools/partial_callgrind.sh does so); built only where
 * valgrind/callgrind.h is found.
 *
 *     valgrind --tool=callgrind --callgrind-out-file=DIR/cg.out \
 *         bench_partial_callgrind --out DIR/cg.out [MAP [CLICKS [RADIUS]]]
 *                        default: den520d, 200 clicks within 64; --out default callgrind.out.PID
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <valgrind/callgrind.h>
#include "pathfind.h"

static uint32_t rng_below(uint64_t *s, uint32_t n)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)(*s % n);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A click whose partial query took over twice the plain one's instructions. */
typedef struct over_click {
    uint32_t click;
    pf_point start, goal, end;
    uint64_t partial, plain;                   /* instructions */
    uint64_t partial_expanded, plain_expanded; /* nodes */
} over_click;

/* Callgrind writes the n-th dump of a run to PREFIX.n; its "events:" line names the counters and
 * "totals:" (older versions: "summary:") holds their sums since the counters were last zeroed. */
typedef struct dumps {
    const char *prefix;
    unsigned next; /* number of the next dump file */
} dumps;

static int read_dump(dumps *d, uint64_t *ir)
{
    char path[600], line[4096];
    snprintf(path, sizeof path, "%s.%u", d->prefix, d->next++);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench_partial_callgrind: no dump file %s: run under valgrind --tool=callgrind "
                        "--callgrind-out-file=PREFIX with --out PREFIX (tools/partial_callgrind.sh)\n",
                path);
        return 1;
    }
    int col = -1, found = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "events:", 7)) {
            /* the Ir counter's column, whatever other events were asked for */
            char *save = NULL;
            int i = 0;
            for (char *t = strtok_r(line + 7, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save), i++)
                if (!strcmp(t, "Ir")) col = i;
        } else if (col >= 0 && (!strncmp(line, "totals:", 7) || !strncmp(line, "summary:", 8))) {
            char *p = strchr(line, ':') + 1;
            for (int i = 0; i <= col; i++) {
                char *end;
                unsigned long long v = strtoull(p, &end, 10);
                if (end == p) break;
                if (i == col) {
                    *ir = v;
                    found = 1;
                }
                p = end;
            }
        }
    }
    fclose(f);
    remove(path);
    if (!found) fprintf(stderr, "bench_partial_callgrind: no Ir total in %s\n", path);
    return !found;
}

static int bench(dumps *d, const char *map_path, pf_moves mv, const char *mv_name, uint32_t clicks, uint32_t radius)
{
    pf_map *m;
    pf_diag dg;
    if (pf_grid_load_movingai(map_path, &(pf_grid_load_desc){.moves = mv}, &m, &dg) != PF_OK) {
        fprintf(stderr, "bench_partial_callgrind: %s\n", dg.msg);
        return 1;
    }
    const uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    pf_ctx *c = NULL;
    uint32_t *nodes = malloc((size_t)w * h * sizeof *nodes);
    over_click *over = malloc((size_t)clicks * sizeof *over + 1);
    double *ratios = malloc((size_t)clicks * sizeof *ratios + 1);
    uint64_t *all = malloc((size_t)clicks * 2 * sizeof *all + 1);
    if (pf_ctx_create(m, NULL, &c) != PF_OK || !nodes || !over || !ratios || !all) {
        pf_ctx_destroy(c);
        free(all);
        free(ratios);
        free(over);
        free(nodes);
        pf_map_destroy(m);
        return 1;
    }
    const pf_search_desc pd = {.algo = PF_ALGO_ASTAR, .partial = 1};
    uint64_t rs = 0x9E3779B97F4A7C15ull; /* bench_partial's seed: the same clicks */
    uint32_t done = 0, over2 = 0, nratio = 0;
    uint64_t sum_partial = 0, sum_plain = 0;
    double worst = 0;
    int rc = 0;
    for (uint32_t tries = 0; done < clicks && tries < 1000u * clicks && !rc; tries++) {
        int32_t gx = (int32_t)rng_below(&rs, w), gy = (int32_t)rng_below(&rs, h);
        int32_t sx = gx + (int32_t)rng_below(&rs, 2 * radius + 1) - (int32_t)radius;
        int32_t sy = gy + (int32_t)rng_below(&rs, 2 * radius + 1) - (int32_t)radius;
        if (pf_grid_class(m, gx, gy) || sx < 0 || sy < 0 || sx >= (int32_t)w || sy >= (int32_t)h ||
            !pf_grid_class(m, sx, sy))
            continue;
        const uint32_t s = pf_grid_node(m, sx, sy), g = pf_grid_node(m, gx, gy);
        pf_path p = {.nodes = nodes, .capacity = w * h}, q = p;
        pf_stats st, sp, sq;
        if (pf_search(c, s, g, &pd, &p, &st) != PF_PARTIAL || !p.len) continue;
        const uint32_t end = nodes[p.len - 1];
        pf_search(c, s, end, NULL, &q, &st); /* warm: both queries have run once */

        uint64_t ip = 0, iq = 0;
        p.len = 0;
        CALLGRIND_ZERO_STATS;
        pf_search(c, s, g, &pd, &p, &sp);
        CALLGRIND_DUMP_STATS_AT("partial");
        if ((rc = read_dump(d, &ip)) != 0) break;
        q.len = 0;
        CALLGRIND_ZERO_STATS;
        pf_search(c, s, end, NULL, &q, &sq);
        CALLGRIND_DUMP_STATS_AT("plain");
        if ((rc = read_dump(d, &iq)) != 0) break;

        const double r = iq ? (double)ip / (double)iq : 0.0;
        if (iq) ratios[nratio++] = r; /* a plain query of no instructions has no ratio */
        all[2 * done] = ip;
        all[2 * done + 1] = iq;
        worst = r > worst ? r : worst;
        sum_partial += ip;
        sum_plain += iq;
        if (ip > 2 * iq)
            over[over2++] = (over_click){done, {sx, sy}, {gx, gy}, pf_grid_point(m, end), ip, iq, sp.expanded, sq.expanded};
        done++;
    }
    qsort(ratios, nratio, sizeof *ratios, cmp_double);
    const double median = !nratio ? 0.0
                          : nratio % 2 ? ratios[nratio / 2]
                                       : (ratios[nratio / 2 - 1] + ratios[nratio / 2]) / 2.0;
    printf("{\"map\":\"%s\",\"moves\":\"%s\",\"algo\":\"astar\",\"radius\":%u,\"clicks\":%u,\"over2\":%u,"
           "\"worst_ratio\":%.2f,\"sum_ratio\":%.3f,\"median_ratio\":%.3f,\"partial_instr\":%.0f,"
           "\"plain_instr\":%.0f,\"over2_clicks\":[",
           map_path, mv_name, radius, done, over2, worst, sum_plain ? (double)sum_partial / (double)sum_plain : 0.0,
           median, done ? (double)sum_partial / done : 0.0, done ? (double)sum_plain / done : 0.0);
    for (uint32_t i = 0; i < over2; i++)
        printf("%s{\"click\":%u,\"start\":[%d,%d],\"goal\":[%d,%d],\"end\":[%d,%d],\"partial\":%llu,\"plain\":%llu,"
               "\"partial_expanded\":%llu,\"plain_expanded\":%llu}",
               i ? "," : "", over[i].click, over[i].start.x, over[i].start.y, over[i].goal.x, over[i].goal.y,
               over[i].end.x, over[i].end.y, (unsigned long long)over[i].partial, (unsigned long long)over[i].plain,
               (unsigned long long)over[i].partial_expanded, (unsigned long long)over[i].plain_expanded);
    printf("]");
    const char *all_env = getenv("PF_CLICKS_ALL");
    if (all_env && strcmp(all_env, "1") == 0) {
        printf(",\"all_clicks\":[");
        for (uint32_t i = 0; i < done; i++)
            printf("%s[%llu,%llu]", i ? "," : "", (unsigned long long)all[2 * i], (unsigned long long)all[2 * i + 1]);
        printf("]");
    }
    printf("}\n");
    fflush(stdout);
    free(all);
    free(ratios);
    free(over);
    free(nodes);
    pf_ctx_destroy(c);
    pf_map_destroy(m);
    return rc;
}

int main(int argc, char **argv)
{
    char def_prefix[64];
    dumps d = {.prefix = NULL, .next = 1};
    int a = 1;
    if (a + 1 < argc && !strcmp(argv[a], "--out")) {
        d.prefix = argv[a + 1];
        a += 2;
    }
    if (!d.prefix) { /* callgrind's own default name */
        snprintf(def_prefix, sizeof def_prefix, "callgrind.out.%ld", (long)getpid());
        d.prefix = def_prefix;
    }
    if (!RUNNING_ON_VALGRIND) {
        fprintf(stderr, "bench_partial_callgrind: counts instructions under callgrind; run it by "
                        "tools/partial_callgrind.sh [MAP...]\n");
        return 2;
    }
    /* under another tool the requests do nothing: find out before any JSON is printed */
    uint64_t probe;
    CALLGRIND_ZERO_STATS;
    CALLGRIND_DUMP_STATS_AT("probe");
    if (read_dump(&d, &probe)) return 2;
    char def_map[512];
    const char *map = a < argc ? argv[a] : NULL;
    if (!map) {
        snprintf(def_map, sizeof def_map, "%s/movingai/den520d.map", PF_SHARED_DATA);
        map = def_map;
    }
    const uint32_t clicks = a + 1 < argc ? (uint32_t)atoi(argv[a + 1]) : 200;
    const uint32_t radius = a + 2 < argc ? (uint32_t)atoi(argv[a + 2]) : 64;
    return bench(&d, map, PF_MOVES_8_NO_CUT, "8", clicks, radius) || bench(&d, map, PF_MOVES_4, "4", clicks, radius) ||
           bench(&d, map, PF_MOVES_HEX, "hex", clicks, radius);
}
