/* graph.c - directed weighted graphs in CSR form, forward and reverse. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "map/map_internal.h"
#include "search/metric_internal.h" /* pf__hypot */

typedef struct arc { uint32_t to; double w; } arc;

static int arc_cmp(const void *a, const void *b)
{
    const arc *x = a, *y = b;
    if (x->to != y->to) return x->to < y->to ? -1 : 1;
    return (x->w > y->w) - (x->w < y->w);
}

/* Builds one CSR direction; rows sorted by (to, weight) so the layout, and every search over it,
 * does not depend on the order the edges were given in. */
static int build_csr(pf_map *m, const pf_edge *e, uint32_t ne, int reverse, uint32_t **off_out,
                     uint32_t **dst_out, double **w_out)
{
    uint32_t n = m->n;
    uint32_t *off = pf__calloc(&m->alloc, ((size_t)n + 1) * sizeof(uint32_t), 64);
    uint32_t *dst = pf__alloc(&m->alloc, (size_t)ne * sizeof(uint32_t), 64);
    double *w = pf__alloc(&m->alloc, (size_t)ne * sizeof(double), 64);
    arc *tmp = pf__alloc(&m->alloc, (size_t)ne * sizeof(arc), 64);
    uint32_t *fill = pf__alloc(&m->alloc, ((size_t)n + 1) * sizeof(uint32_t), 64);
    *off_out = off;
    *dst_out = dst;
    *w_out = w;
    if (!off || !dst || !w || !tmp || !fill) {
        pf__free(&m->alloc, tmp, (size_t)ne * sizeof(arc));
        pf__free(&m->alloc, fill, ((size_t)n + 1) * sizeof(uint32_t));
        return 0;
    }
    for (uint32_t i = 0; i < ne; i++) off[(reverse ? e[i].to : e[i].from) + 1]++;
    for (uint32_t v = 0; v < n; v++) off[v + 1] += off[v];
    memcpy(fill, off, ((size_t)n + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < ne; i++) {
        uint32_t u = reverse ? e[i].to : e[i].from;
        tmp[fill[u]++] = (arc){reverse ? e[i].from : e[i].to, e[i].weight};
    }
    for (uint32_t v = 0; v < n; v++) {
        uint32_t b = off[v], k = off[v + 1] - b;
        if (k > 1) qsort(tmp + b, k, sizeof(arc), arc_cmp);
    }
    for (uint32_t i = 0; i < ne; i++) {
        dst[i] = tmp[i].to;
        w[i] = tmp[i].w;
    }
    pf__free(&m->alloc, tmp, (size_t)ne * sizeof(arc));
    pf__free(&m->alloc, fill, ((size_t)n + 1) * sizeof(uint32_t));
    return 1;
}

pf_status pf_graph_create(const pf_graph_desc *desc, pf_map **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    if (!desc || desc->node_count == 0 || (desc->edge_count && !desc->edges)) return PF_INVALID_ARGUMENT;
    if (desc->node_count > PF_GRAPH_MAX_NODES || desc->edge_count > PF_GRAPH_MAX_ARCS) return PF_TOO_LARGE;
    for (uint32_t i = 0; i < desc->edge_count; i++) {
        const pf_edge *e = &desc->edges[i];
        if (e->from >= desc->node_count || e->to >= desc->node_count) return PF_INVALID_ARGUMENT;
        if (!(e->weight >= 0.0) || !isfinite(e->weight)) return PF_INVALID_ARGUMENT;
    }
    if (desc->coords)
        for (size_t i = 0; i < 2 * (size_t)desc->node_count; i++)
            if (!isfinite(desc->coords[i])) return PF_INVALID_ARGUMENT;

    pf_map *m = pf__map_new(&desc->allocator, PF_MAP_GRAPH);
    if (!m) return PF_OUT_OF_MEMORY;
    m->n = desc->node_count;
    m->m = desc->edge_count;
    m->count = m->n;
    if (!build_csr(m, desc->edges, m->m, 0, &m->off, &m->dst, &m->w) ||
        !build_csr(m, desc->edges, m->m, 1, &m->roff, &m->rdst, &m->rw)) {
        pf_map_destroy(m);
        return PF_OUT_OF_MEMORY;
    }
    if (desc->coords) {
        m->xy = pf__alloc(&m->alloc, (size_t)m->n * 2 * sizeof(double), 64);
        if (!m->xy) {
            pf_map_destroy(m);
            return PF_OUT_OF_MEMORY;
        }
        memcpy(m->xy, desc->coords, (size_t)m->n * 2 * sizeof(double));
        /* largest k with w >= k * dist on every arc: keeps k * dist consistent */
        double k = INFINITY;
        for (uint32_t u = 0; u < m->n; u++)
            for (uint32_t e = m->off[u]; e < m->off[u + 1]; e++) {
                uint32_t v = m->dst[e];
                double dx = m->xy[2 * (size_t)u] - m->xy[2 * (size_t)v];
                double dy = m->xy[2 * (size_t)u + 1] - m->xy[2 * (size_t)v + 1];
                /* pf__hypot: dx * dx would overflow past about 1e154 (coordinates up to DBL_MAX
                 * are accepted); a distance past DBL_MAX is caught by the extent below */
                double dist = pf__hypot(dx, dy);
                if (dist > 0 && m->w[e] / dist < k) k = m->w[e] / dist;
            }
        /* where the coordinates' extent passes DBL_MAX, a distance between two nodes (an arc's,
         * or a node's to its goal, further apart than any arc) may overflow: an infinite h for a
         * node that leads to the goal, or no scale that bounds it, so there is no heuristic */
        double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
        for (uint32_t u = 0; u < m->n; u++) {
            const double x = m->xy[2 * (size_t)u], y = m->xy[2 * (size_t)u + 1];
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0;
            y1 = y > y1 ? y : y1;
        }
        if (m->n && !(pf__hypot(x1 - x0, y1 - y0) <= DBL_MAX)) k = 0.0;
        /* shave a few ulps so rounding in sqrt never makes h exceed an arc's weight */
        m->h_scale = isfinite(k) ? k * (1.0 - 1e-12) : 0.0;
    }
    pf__map_finish(m);
    *out = m;
    return PF_OK;
}

static int is_graph(const pf_map *m) { return m && m->kind == PF_MAP_GRAPH; }

uint32_t pf_graph_edge_count(const pf_map *m) { return is_graph(m) ? m->m : 0; }
int pf_graph_has_coords(const pf_map *m) { return is_graph(m) && m->xy != NULL; }
double pf_graph_heuristic_scale(const pf_map *m) { return is_graph(m) ? m->h_scale : 0.0; }

uint32_t pf_graph_arcs(const pf_map *m, uint32_t node, int reverse, const uint32_t **to, const double **weight)
{
    if (!is_graph(m) || node >= m->n) return 0;
    const uint32_t *off = reverse ? m->roff : m->off;
    if (to) *to = (reverse ? m->rdst : m->dst) + off[node];
    if (weight) *weight = (reverse ? m->rw : m->w) + off[node];
    return off[node + 1] - off[node];
}

int pf_graph_coords(const pf_map *m, uint32_t node, double *x, double *y)
{
    if (!is_graph(m) || !m->xy || node >= m->n) return 0;
    if (x) *x = m->xy[2 * (size_t)node];
    if (y) *y = m->xy[2 * (size_t)node + 1];
    return 1;
}
