/*
 * pf_graph.h - explicit directed graphs with non-negative weights, stored in compressed sparse rows.
 *
 * Built from an edge list (copied), with optional 2-D node coordinates for heuristics and a reverse
 * adjacency for backward search. Parallel arcs are all kept; a search uses the cheapest.
 *
 * With coordinates, the Euclidean heuristic is scaled by the largest factor k such that every arc
 * (u,v) has w >= k * |xy(u) - xy(v)|, computed at build: the heuristic is then consistent whatever
 * the coordinate units (degrees, metres) and the weight units (distance, travel time). k is then
 * lowered by a relative 1e-12, so rounding in the square roots can never make h exceed an arc's
 * weight; a side effect is that f values which would tie exactly in exact arithmetic differ in the
 * last bits, and the tie rule no longer decides between them (pf_search.h, TIE-BREAKING). The
 * other geometric heuristics (Manhattan, octile, ...) are for grids: on a graph they return
 * PF_INVALID_ARGUMENT, coordinates or not.
 *
 *     pf_edge e[] = { {0, 1, 2.0}, {1, 2, 1.5} };
 *     pf_map *g;
 *     pf_graph_create(&(pf_graph_desc){ .node_count = 3, .edge_count = 2, .edges = e }, &g);
 *
 * THREAD SAFETY: see pf_map.h (immutable after creation).
 */
#ifndef PATHFIND_PF_GRAPH_H
#define PATHFIND_PF_GRAPH_H

#include "pf_map.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest node count of a graph (created or loaded): 2^25, above the 23.9 M nodes of the full USA
 *  road graph of the 9th DIMACS challenge. More is PF_TOO_LARGE, decided before any allocation. */
#define PF_GRAPH_MAX_NODES (UINT32_C(1) << 25)
/** Largest arc count of a graph: 2^27 (the USA graph has 58.3 M). More is PF_TOO_LARGE. */
#define PF_GRAPH_MAX_ARCS (UINT32_C(1) << 27)
/** Largest DIMACS arc weight: 2^53, the largest integer every double holds exactly, so a weight
 *  read is the weight written back (`pathfind table update --graph-out`). More is PF_TOO_LARGE. */
#define PF_DIMACS_MAX_WEIGHT (UINT64_C(1) << 53)
/** Largest .gr or .co file the loader reads: 64 bytes per arc at PF_GRAPH_MAX_ARCS (8 GiB; the
 *  USA graph's .gr is 1.3 GiB). A larger file, or a stream that runs past it, is PF_TOO_LARGE. */
#define PF_DIMACS_MAX_FILE_BYTES ((uint64_t)64 * PF_GRAPH_MAX_ARCS)

typedef struct pf_edge { uint32_t from, to; double weight; } pf_edge;

typedef struct pf_graph_desc {
    uint32_t       node_count;   /* required, 1..PF_GRAPH_MAX_NODES */
    uint32_t       edge_count;   /* 0..PF_GRAPH_MAX_ARCS */
    const pf_edge *edges;        /* [len: edge_count] weight >= 0 and finite */
    const double  *coords;       /* [opt][len: 2*node_count] x0 y0 x1 y1 ... */
    pf_allocator   allocator;
} pf_graph_desc;

/**
 * @return PF_OK, PF_INVALID_ARGUMENT (ids out of range, negative/NaN weight), PF_TOO_LARGE (more
 *         than PF_GRAPH_MAX_NODES nodes or PF_GRAPH_MAX_ARCS arcs), PF_OUT_OF_MEMORY. Weights may
 *         be any finite value >= 0; a path whose weights sum to infinity is PF_COST_OVERFLOW.
 */
PF_API pf_status pf_graph_create(const pf_graph_desc *desc, pf_map **out);

/* Options for the DIMACS loader (all zero: defaults). */
typedef struct pf_graph_load_desc {
    pf_allocator allocator;   /* all zero = malloc */
} pf_graph_load_desc;

/**
 * Loads a DIMACS shortest-path graph: `gr_path` holds "p sp N M" then M lines "a U V W" (1-based
 * ids, integer 0 <= W <= PF_DIMACS_MAX_WEIGHT); `co_path` [opt] holds "p aux sp co N" then
 * "v ID X Y". Comment lines start with 'c'. Nodes are renumbered 0-based (file id - 1). The
 * header alone is not taken as an allocation: N may pass what the arcs can name (2 per arc) by
 * at most 4,096 isolated nodes unless `co_path` lists them (a line each), else PF_PARSE_ERROR.
 * @return PF_OK, PF_IO_ERROR, PF_PARSE_ERROR (with line and reason in diag), PF_TOO_LARGE (the
 *         limits above: N, M, a weight or the file size, numbers past 64 bits included),
 *         PF_OUT_OF_MEMORY.
 */
PF_API pf_status pf_graph_load_dimacs(const char *gr_path, const char *co_path,
                                      const pf_graph_load_desc *desc, pf_map **out, pf_diag *diag);
/** The same from memory (`co` may be NULL). */
PF_API pf_status pf_graph_parse_dimacs(const char *gr, size_t gr_len, const char *co, size_t co_len,
                                       const pf_graph_load_desc *desc, pf_map **out, pf_diag *diag);

PF_API uint32_t pf_graph_edge_count(const pf_map *map);  /* 0 if not a graph */
PF_API int      pf_graph_has_coords(const pf_map *map);
/** Heuristic scale computed at build: the least weight / Euclidean distance over the arcs, so
 *  that scale x distance never overestimates (0 without coordinates, and where they are spread so
 *  far apart, past DBL_MAX, that a distance between two of them overflows: no heuristic then).
 *  One arc of weight 0 between nodes apart makes it 0: A* then does Dijkstra's work. */
PF_API double   pf_graph_heuristic_scale(const pf_map *map);
/**
 * Outgoing arcs of `node` (or incoming ones when `reverse`): sets *to and *weight to arrays of the
 * returned length. Returns 0 for an invalid node. The arrays live as long as the map.
 */
PF_API uint32_t pf_graph_arcs(const pf_map *map, uint32_t node, int reverse, const uint32_t **to,
                              const double **weight);
/** Coordinates of a node; returns 0 when the graph has none or node is out of range. */
PF_API int      pf_graph_coords(const pf_map *map, uint32_t node, double *x, double *y);

#ifdef __cplusplus
}
#endif
#endif
