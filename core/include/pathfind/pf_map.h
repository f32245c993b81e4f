/*
 * pf_map.h - the shared, immutable navigation map: a grid or a directed weighted graph.
 *
 * A pf_map is built once (pf_grid_create, pf_grid_load_movingai, pf_graph_create,
 * pf_graph_load_dimacs) and never changes afterwards. Every search reads it through a const pointer,
 * so any number of threads may search the same map at once, each with its own pf_ctx.
 *
 * Nodes are numbered 0..pf_map_node_count()-1. On a grid, node = y * width + x.
 *
 * OWNERSHIP: the caller owns the map and destroys it after every context and batch made for it.
 * THREAD SAFETY: immutable after creation; share it across any number of threads.
 */
#ifndef PATHFIND_PF_MAP_H
#define PATHFIND_PF_MAP_H

#include <stdint.h>
#include "pf_status.h"
#include "pf_alloc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque; immutable after creation; always passed as const pf_map*. */
typedef struct pf_map pf_map;

/** Node index meaning "no node" (unreachable parent, out-of-range coordinates). */
#define PF_NODE_NONE UINT32_MAX
/** Largest number of nodes a map may have (node records use 32-bit indices, some values reserved). */
#define PF_MAX_NODES (UINT32_C(1) << 30)

typedef enum pf_map_kind { PF_MAP_GRID = 1, PF_MAP_GRAPH = 2 } pf_map_kind;

/** A plain grid coordinate. */
typedef struct pf_point { int32_t x, y; } pf_point;

PF_API pf_map_kind pf_map_kind_of(const pf_map *map);
/** Number of nodes (grid cells, or graph vertices). */
PF_API uint32_t    pf_map_node_count(const pf_map *map);
/**
 * XXH3-64 fingerprint of everything a search result depends on (cells, costs, movement rule, arcs,
 * weights). Two maps with the same fingerprint give the same answers; baked files carry it.
 */
PF_API uint64_t    pf_map_fingerprint(const pf_map *map);
/** Bytes owned by the map (for memory reports). */
PF_API size_t      pf_map_mem_size(const pf_map *map);
/**
 * NULL-safe. Destroy every context, batch and table made for the map first. Debug builds (NDEBUG
 * not defined) stop with a message when contexts made for the map are still alive, and every call
 * taking a map, context or batch stops with a message naming the call when given a destroyed or
 * foreign handle; release builds leave such use undefined.
 */
PF_API void        pf_map_destroy(pf_map *map);

#ifdef __cplusplus
}
#endif
#endif
