/* bench_partial.c - partial queries toward goals a unit cannot reach (issue 27: "never more than
 * about twice a plain query to the cell it returns"), one JSON object per map, move rule and
 * algorithm asked. Clicks on blocked cells, each from an open start within RADIUS cells of it,
 * are answered with pf_search_desc.partial and compared with a plain A* from the same start to
 * the cell each returned:
 *   ties_over8       clicks with more than 8 reachable cells at the least metric to the goal
 *   expanded_ratio   the partial queries' expansions summed, over the plain ones'
 *   over2_expanded   clicks whose partial query expanded more than twice the plain one (+1 each)
 *   worst_expanded   the largest of those ratios
 *   partial_us, plain_us   mean microseconds a query, the partial one's scan around the goal included
 *   us_ratio         their quotient
 *   over2_us         clicks whose partial query took more than twice the plain one's time
 * Times are wall clock of one thread, each query the best of 3 runs.
 *
 *     bench_partial [MAP [CLICKS [RADIUS]]]   default: rooms-2000 and den520d, 200 clicks within 64
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"

static uint32_t rng_below(uint64_t *s, uint32_t n)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)(*s % n);
}

/* The map's metric, which "nearest the goal" is measured by (pf_search.h). */
static double metric(pf_moves mv, pf_point a, pf_point b)
{
    double dx = fabs((double)a.x - b.x), dy = fabs((double)a.y - b.y);
    if (mv == PF_MOVES_4) return dx + dy;
    if (mv == PF_MOVES_HEX) { /* odd-r offset to cube coordinates */
        int32_t qa = a.x - (a.y - (a.y & 1)) / 2, qb = b.x - (b.y - (b.y & 1)) / 2;
        double q = fabs((double)(qa - qb)), r = fabs((double)(a.y - b.y)), t = fabs((double)(qa - qb + a.y - b.y));
        return q > r ? (q > t ? q : t) : (r > t ? r : t);
    }
    double hi = dx > dy ? dx : dy, lo = dx > dy ? dy : dx;
    return hi + (1.4142135623730951 - 1.0) * lo;
}

/* One query, best of 3 runs; its stats and path from the last. */
static double timed(pf_ctx *c, uint32_t s, uint32_t g, const pf_search_desc *d, pf_path *p, pf_stats *st,
                    pf_status *out)
{
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        p->len = 0;
        double t0 = bench_wall_s();
        *out = pf_search(c, s, g, d, p, st);
        double t = bench_wall_s() - t0;
        best = t < best ? t : best;
    }
    return best;
}

static int bench(const char *map_path, pf_moves mv, const char *mv_name, uint32_t clicks, uint32_t radius)
{
    pf_map *m;
    pf_diag dg;
    if (pf_grid_load_movingai(map_path, &(pf_grid_load_desc){.moves = mv}, &m, &dg) != PF_OK) {
        fprintf(stderr, "bench_partial: %s\n", dg.msg);
        return 1;
    }
    const uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    pf_ctx *c;
    if (pf_ctx_create(m, NULL, &c) != PF_OK) return 1;
    uint32_t *nodes = malloc((size_t)w * h * sizeof *nodes);
    static const pf_algo ALGOS[] = {PF_ALGO_ASTAR, PF_ALGO_BFS};
    for (size_t ai = 0; ai < sizeof ALGOS / sizeof ALGOS[0]; ai++) {
        uint64_t rs = 0x9E3779B97F4A7C15ull; /* the same clicks for every algorithm */
        uint32_t done = 0, over8 = 0, over2_x = 0, over2_t = 0;
        uint64_t exp_partial = 0, exp_plain = 0;
        double worst_x = 0, t_partial = 0, t_plain = 0;
        for (uint32_t tries = 0; done < clicks && tries < 1000u * clicks; tries++) {
            int32_t gx = (int32_t)rng_below(&rs, w), gy = (int32_t)rng_below(&rs, h);
            int32_t sx = gx + (int32_t)rng_below(&rs, 2 * radius + 1) - (int32_t)radius;
            int32_t sy = gy + (int32_t)rng_below(&rs, 2 * radius + 1) - (int32_t)radius;
            if (pf_grid_class(m, gx, gy) || sx < 0 || sy < 0 || sx >= (int32_t)w || sy >= (int32_t)h ||
                !pf_grid_class(m, sx, sy))
                continue;
            uint32_t s = pf_grid_node(m, sx, sy), g = pf_grid_node(m, gx, gy);
            pf_path p = {.nodes = nodes, .capacity = w * h};
            pf_stats sp, sq;
            pf_status st;
            double tp = timed(c, s, g, &(pf_search_desc){.algo = ALGOS[ai], .partial = 1}, &p, &sp, &st);
            if (st != PF_PARTIAL || !p.len) continue;
            uint32_t end = nodes[p.len - 1];
            /* the cells tied with the answer: within that distance by Chebyshev, which no metric
             * here undercuts */
            const double de = metric(mv, pf_grid_point(m, end), (pf_point){gx, gy});
            const uint32_t comp = pf_grid_component(m, sx, sy);
            uint32_t ties = 0;
            for (int32_t y = gy - (int32_t)de; y <= gy + (int32_t)de; y++)
                for (int32_t x = gx - (int32_t)de; x <= gx + (int32_t)de; x++)
                    ties += x >= 0 && y >= 0 && x < (int32_t)w && y < (int32_t)h && pf_grid_class(m, x, y) &&
                            pf_grid_component(m, x, y) == comp &&
                            fabs(metric(mv, (pf_point){x, y}, (pf_point){gx, gy}) - de) < 1e-9;
            over8 += ties > 8;
            pf_path q = {.nodes = nodes, .capacity = w * h};
            double tq = timed(c, s, end, NULL, &q, &sq, &st);
            double rx = (double)(sp.expanded + 1) / (double)(sq.expanded + 1);
            exp_partial += sp.expanded;
            exp_plain += sq.expanded;
            over2_x += rx > 2.0;
            over2_t += tp > 2.0 * tq;
            worst_x = rx > worst_x ? rx : worst_x;
            t_partial += tp;
            t_plain += tq;
            done++;
        }
        printf("{\"map\":\"%s\",\"moves\":\"%s\",\"algo\":\"%s\",\"clicks\":%u,\"ties_over8\":%u,"
               "\"expanded_ratio\":%.3f,\"over2_expanded\":%u,\"worst_expanded\":%.2f,\"partial_us\":%.1f,"
               "\"plain_us\":%.1f,\"us_ratio\":%.3f,\"over2_us\":%u}\n",
               map_path, mv_name, pf_algo_name(ALGOS[ai]), done, over8,
               exp_plain ? (double)exp_partial / (double)exp_plain : 0.0, over2_x, worst_x,
               done ? t_partial * 1e6 / done : 0.0, done ? t_plain * 1e6 / done : 0.0,
               t_plain > 0 ? t_partial / t_plain : 0.0, over2_t);
        fflush(stdout);
    }
    free(nodes);
    pf_ctx_destroy(c);
    pf_map_destroy(m);
    return 0;
}

static int bench_rules(const char *map_path, uint32_t clicks, uint32_t radius)
{
    return bench(map_path, PF_MOVES_8_NO_CUT, "8", clicks, radius) | bench(map_path, PF_MOVES_4, "4", clicks, radius) |
           bench(map_path, PF_MOVES_HEX, "hex", clicks, radius);
}

int main(int argc, char **argv)
{
    uint32_t clicks = argc > 2 ? (uint32_t)atoi(argv[2]) : 200, radius = argc > 3 ? (uint32_t)atoi(argv[3]) : 64;
    if (argc > 1) return bench_rules(argv[1], clicks, radius);
    static const char *const maps[] = {"grids/rooms-2000", "movingai/den520d"};
    int rc = 0;
    for (int i = 0; i < 2; i++) {
        char mp[512];
        snprintf(mp, sizeof mp, "%s/%s.map", PF_SHARED_DATA, maps[i]);
        rc |= bench_rules(mp, clicks, radius);
    }
    return rc;
}
