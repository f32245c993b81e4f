/* map_internal.h - the layout of pf_map, shared by loaders and search (never installed). */
#ifndef PF_MAP_INTERNAL_H
#define PF_MAP_INTERNAL_H

#include <stdatomic.h>
#include "pathfind/pf_map.h"
#include "pathfind/pf_grid.h"
#include "pathfind/pf_graph.h"
#include "common/pf_internal.h"

/*
 * Grids are stored with a one-cell blocked border: the padded cell (x+1, y+1) holds the public node
 * y * width + x. The border lets the search read all neighbours without bounds checks, and costs
 * 2*(w+h)+4 bytes per array.
 */
struct pf_map {
    uint32_t     tag;          /* PF__TAG_MAP while alive */
    _Atomic uint32_t users;    /* debug builds: live contexts made for this map */
    pf_map_kind  kind;
    pf_allocator alloc;
    uint32_t     count;        /* node records a context needs: padded cells or graph nodes */
    uint64_t     fingerprint;

    /* grid */
    uint32_t     width, height;
    uint32_t     pw, ph;       /* padded sides: width + 2, height + 2 */
    pf_moves     moves;
    uint8_t     *cls;          /* [pw*ph] terrain class, 0 = blocked (border included) */
    float       *cost;         /* [pw*ph] multiplier, NULL when uniform */
    double       min_cost;     /* smallest multiplier of a passable cell (1 when uniform) */
    uint32_t    *comp;         /* [pw*ph] connected component of each cell (0 = blocked): unreachable
                                  goals are answered without searching the whole component */
    int32_t      nb_off[2][8]; /* padded index offsets of neighbours; [row parity] for hex */

    /* graph (CSR) */
    uint32_t     n, m;
    uint32_t    *off, *dst;    /* [n+1], [m] out-arcs sorted by (from, to, weight) */
    double      *w;            /* [m] */
    uint32_t    *roff, *rdst;  /* [n+1], [m] in-arcs: rdst holds the source */
    double      *rw;           /* [m] */
    double      *xy;           /* [2n] or NULL */
    double       h_scale;      /* Euclidean heuristic factor (0 without coordinates) */
};

/* Public node <-> padded index. */
static inline uint32_t pf__grid_pad(const pf_map *m, uint32_t node)
{
    return (node / m->width + 1) * m->pw + node % m->width + 1;
}
static inline uint32_t pf__grid_unpad(const pf_map *m, uint32_t idx)
{
    return (idx / m->pw - 1) * m->width + idx % m->pw - 1;
}

/* Internal node index used by search (padded for grids), or PF_NODE_NONE if out of range. */
static inline uint32_t pf__map_inner(const pf_map *m, uint32_t node)
{
    if (m->kind == PF_MAP_GRID) {
        if (node >= m->width * m->height) return PF_NODE_NONE;
        return pf__grid_pad(m, node);
    }
    return node < m->n ? node : PF_NODE_NONE;
}
static inline uint32_t pf__map_outer(const pf_map *m, uint32_t idx)
{
    return m->kind == PF_MAP_GRID ? pf__grid_unpad(m, idx) : idx;
}

/* Allocates a zeroed pf_map through `alloc`. */
pf_map *pf__map_new(const pf_allocator *alloc, pf_map_kind kind);
/* Computes and stores the fingerprint once the map is complete. */
void pf__map_finish(pf_map *m);
/* Sets neighbour offsets for the grid's move rule. */
void pf__grid_set_offsets(pf_map *m);
/* Labels the connected components into m->comp (components.c); 0 on allocation failure. */
int pf__grid_label_components(pf_map *m);

#endif
