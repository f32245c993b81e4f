/* oracle.c - textbook Dijkstra with a binary heap and lazy deletion (see oracle.h). */
#include <math.h>
#include <stdlib.h>
#include "oracle.h"

typedef struct item { double d; uint32_t v; } item;
typedef struct pq { item *a; size_t n, cap; } pq;

static void pq_push(pq *q, double d, uint32_t v)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 1024;
        q->a = realloc(q->a, q->cap * sizeof *q->a);
        if (!q->a) abort();
    }
    size_t i = q->n++;
    while (i && q->a[(i - 1) / 2].d > d) {
        q->a[i] = q->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->a[i] = (item){d, v};
}

static item pq_pop(pq *q)
{
    item top = q->a[0], last = q->a[--q->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= q->n) break;
        if (c + 1 < q->n && q->a[c + 1].d < q->a[c].d) c++;
        if (!(q->a[c].d < last.d)) break;
        q->a[i] = q->a[c];
        i = c;
    }
    if (q->n) q->a[i] = last;
    return top;
}

/* Whether a unit standing on class k may enter class t: the same class, or with a movement filter
 * any class it allows (bits read here apart from the library's own helper). */
static int may_enter(const pf_move_filter *f, uint8_t k, uint8_t t)
{
    if (!t) return 0;
    if (!f) return t == k;
    return (f->classes[t / 8] & (1u << (t % 8))) != 0;
}

/* Legal grid step from (x,y) by (dx,dy) under the map's move rule (and filter f [opt]); returns
 * its cost or -1. */
static double grid_step_f(const pf_map *m, const pf_move_filter *f, int32_t x, int32_t y, int32_t dx, int32_t dy)
{
    uint8_t k = pf_grid_class(m, x, y);
    uint8_t t = pf_grid_class(m, x + dx, y + dy);
    if (!k || !may_enter(f, k, t)) return -1;
    pf_moves mv = pf_grid_moves(m);
    int diag = dx && dy;
    if (diag && mv == PF_MOVES_8_NO_CUT) {
        if (!may_enter(f, k, pf_grid_class(m, x + dx, y)) || !may_enter(f, k, pf_grid_class(m, x, y + dy))) return -1;
    }
    double base = (diag && mv != PF_MOVES_HEX) ? sqrt(2.0) : 1.0;
    double mult = f && f->class_cost[t] != 0.0f ? (double)f->class_cost[t] : 1.0;
    return base * (double)pf_grid_cost(m, x + dx, y + dy) * mult;
}


/* Neighbour deltas for the move rule; hex odd-r depends on the row. */
static int grid_deltas(const pf_map *m, int32_t y, int32_t d[8][2])
{
    static const int32_t sq[8][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}};
    static const int32_t hex_even[6][2] = {{-1, 0}, {1, 0}, {-1, -1}, {0, -1}, {-1, 1}, {0, 1}};
    static const int32_t hex_odd[6][2] = {{-1, 0}, {1, 0}, {0, -1}, {1, -1}, {0, 1}, {1, 1}};
    pf_moves mv = pf_grid_moves(m);
    const int32_t(*src)[2] = sq;
    int n = mv == PF_MOVES_4 ? 4 : 8;
    if (mv == PF_MOVES_HEX) {
        src = (y & 1) ? hex_odd : hex_even;
        n = 6;
    }
    for (int i = 0; i < n; i++) {
        d[i][0] = src[i][0];
        d[i][1] = src[i][1];
    }
    return n;
}

double *oracle_all(const pf_map *m, uint32_t start, int reverse) { return oracle_all_filter(m, start, reverse, NULL); }

double *oracle_all_filter(const pf_map *m, uint32_t start, int reverse, const pf_move_filter *f)
{
    uint32_t n = pf_map_node_count(m);
    double *dist = malloc((size_t)n * sizeof *dist);
    if (!dist) abort();
    for (uint32_t i = 0; i < n; i++) dist[i] = INFINITY;
    if (start >= n) return dist;
    if (pf_map_kind_of(m) == PF_MAP_GRID) {
        pf_point p = pf_grid_point(m, start);
        if (!pf_grid_class(m, p.x, p.y)) return dist;
    }
    pq q = {0};
    dist[start] = 0;
    pq_push(&q, 0, start);
    while (q.n) {
        item it = pq_pop(&q);
        if (it.d > dist[it.v]) continue;
        if (pf_map_kind_of(m) == PF_MAP_GRID) {
            pf_point p = pf_grid_point(m, it.v);
            int32_t d[8][2];
            int nd = grid_deltas(m, p.y, d);
            for (int i = 0; i < nd; i++) {
                double c = grid_step_f(m, f, p.x, p.y, d[i][0], d[i][1]);
                if (c < 0) continue;
                uint32_t v = pf_grid_node(m, p.x + d[i][0], p.y + d[i][1]);
                if (it.d + c < dist[v]) {
                    dist[v] = it.d + c;
                    pq_push(&q, dist[v], v);
                }
            }
        } else {
            const uint32_t *to;
            const double *w;
            uint32_t k = pf_graph_arcs(m, it.v, reverse, &to, &w);
            for (uint32_t i = 0; i < k; i++)
                if (it.d + w[i] < dist[to[i]]) {
                    dist[to[i]] = it.d + w[i];
                    pq_push(&q, dist[to[i]], to[i]);
                }
        }
    }
    free(q.a);
    return dist;
}

double oracle_cost(const pf_map *m, uint32_t start, uint32_t goal)
{
    if (goal >= pf_map_node_count(m)) return INFINITY;
    double *d = oracle_all(m, start, 0);
    double c = d[goal];
    free(d);
    return c;
}

double oracle_path_cost(const pf_map *m, const uint32_t *nodes, uint32_t len)
{
    return oracle_path_cost_filter(m, nodes, len, NULL);
}

double oracle_path_cost_filter(const pf_map *m, const uint32_t *nodes, uint32_t len, const pf_move_filter *f)
{
    double sum = 0;
    for (uint32_t i = 1; i < len; i++) {
        if (pf_map_kind_of(m) == PF_MAP_GRID) {
            pf_point a = pf_grid_point(m, nodes[i - 1]), b = pf_grid_point(m, nodes[i]);
            int32_t dx = b.x - a.x, dy = b.y - a.y;
            int32_t d[8][2];
            int nd = grid_deltas(m, a.y, d), legal = 0;
            for (int k = 0; k < nd; k++) legal |= d[k][0] == dx && d[k][1] == dy;
            double c = legal ? grid_step_f(m, f, a.x, a.y, dx, dy) : -1;
            if (c < 0) return INFINITY;
            sum += c;
        } else {
            const uint32_t *to;
            const double *w;
            uint32_t k = pf_graph_arcs(m, nodes[i - 1], 0, &to, &w);
            double best = INFINITY;
            for (uint32_t j = 0; j < k; j++)
                if (to[j] == nodes[i] && w[j] < best) best = w[j];
            if (!isfinite(best)) return INFINITY;
            sum += best;
        }
    }
    return sum;
}

double oracle_metric(pf_moves mv, pf_point a, pf_point b)
{
    int32_t dx = abs(a.x - b.x), dy = abs(a.y - b.y);
    if (mv == PF_MOVES_4) return dx + dy;
    if (mv == PF_MOVES_HEX) {
        /* odd-r to cube coordinates */
        int32_t ax = a.x - (a.y - (a.y & 1)) / 2, bx = b.x - (b.y - (b.y & 1)) / 2;
        int32_t az = a.y, bz = b.y, ay = -ax - az, by = -bx - bz;
        int32_t d1 = abs(ax - bx), d2 = abs(ay - by), d3 = abs(az - bz);
        return d1 > d2 ? (d1 > d3 ? d1 : d3) : (d2 > d3 ? d2 : d3);
    }
    int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return (hi - lo) + lo * sqrt(2.0);
}

uint32_t oracle_nearest(const pf_map *m, const double *dist, pf_moves mv, pf_point gp, pf_point sp, double *best_m,
                        double *best_c)
{
    double bm = INFINITY, bs = INFINITY;
    uint32_t best = PF_NODE_NONE;
    for (uint32_t i = 0; i < pf_map_node_count(m); i++) {
        if (!isfinite(dist[i])) continue;
        const pf_point p = pf_grid_point(m, i);
        const double mm = oracle_metric(mv, p, gp), ms = oracle_metric(mv, p, sp);
        /* node order: the first of equals stays */
        if (mm < bm - 1e-9 || (mm <= bm + 1e-9 && ms < bs - 1e-9)) {
            bm = mm;
            bs = ms;
            best = i;
        }
    }
    *best_m = bm;
    *best_c = best == PF_NODE_NONE ? INFINITY : dist[best];
    return best;
}
