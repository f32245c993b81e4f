/*
 * pf_map.h - the shared navigation map: a grid or a directed weighted graph.
 *
 * A pf_map is built once (pf_grid_create, pf_grid_load_movingai, pf_graph_create,
 * pf_graph_load_dimacs). Every search reads it through a const pointer, so any number of threads
 * may search the same map at once, each with its own pf_ctx.
 *
 * LIVING MAPS. A grid's cells can change between runs (pf_grid_apply_edits, pf_grid.h): a building
 * goes up, a wall comes down. Edits are applied in place, at a sync point: while no search, batch
 * run or table build is in progress on the map (the edit checks it and returns PF_MAP_BUSY
 * otherwise), so no search ever sees a half-applied edit. Each edit that changes a cell makes a
 * new map version (pf_map_version); the map and everything the library derives from it follow at
 * once and incrementally: connected components, JPS tables, first-move tables, contexts, batches.
 * Code of your own that derives data from the map can follow too: pf_map_listen.
 *
 * Nodes are numbered 0..pf_map_node_count()-1. On a grid, node = y * width + x.
 *
 * OWNERSHIP: the caller owns the map and destroys it after every context and batch made for it.
 * THREAD SAFETY: between edits, immutable; share it across any number of threads. An edit must not
 * overlap any other call on the map or on objects made for it (the edit refuses while it sees one).
 */
#ifndef PATHFIND_PF_MAP_H
#define PATHFIND_PF_MAP_H

#include <stdint.h>
#include "pf_status.h"
#include "pf_alloc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque; read-only during searches (const pf_map*), changed only by pf_grid_apply_edits
 *  between runs (see LIVING MAPS). */
typedef struct pf_map pf_map;

/** Node index meaning "no node" (unreachable parent, out-of-range coordinates). */
#define PF_NODE_NONE UINT32_MAX
/** Largest number of nodes a map may have (node records use 32-bit indices, some values reserved). */
#define PF_MAX_NODES (UINT32_C(1) << 30)

typedef enum pf_map_kind { PF_MAP_GRID = 1, PF_MAP_GRAPH = 2 } pf_map_kind;

/** A plain grid coordinate. */
typedef struct pf_point { int32_t x, y; } pf_point;

/** A rectangle of grid cells: columns x..x+w-1, rows y..y+h-1. */
typedef struct pf_rect { int32_t x, y; uint32_t w, h; } pf_rect;

PF_API pf_map_kind pf_map_kind_of(const pf_map *map);
/** Number of nodes (grid cells, or graph vertices). */
PF_API uint32_t    pf_map_node_count(const pf_map *map);
/**
 * XXH3-64 fingerprint of everything a search result depends on (cells, costs, movement rule, arcs,
 * weights). Two maps with the same fingerprint give the same answers; baked files carry it. It
 * follows edits: an edited grid has the fingerprint of a grid created from its cells. (On grids it
 * is a hash of hashes of 64x64 tiles, so an edit rehashes only the tiles it touched.) The same
 * value on every host, big- or little-endian (numbers are hashed as their little-endian bytes), so
 * a file baked on one machine loads on another.
 */
PF_API uint64_t    pf_map_fingerprint(const pf_map *map);
/** Version of the map: 0 when created, +1 for each pf_grid_apply_edits call that changed a cell. */
PF_API uint64_t    pf_map_version(const pf_map *map);

/**
 * Called after an edit, on the editing thread, once the map and the library's derived data are
 * up to date. `rects` [len: count] bound the cells that changed (class or cost), one rectangle per
 * edit that changed something; `version` is the new pf_map_version.
 */
typedef void (*pf_map_edit_fn)(const pf_map *map, const pf_rect *rects, uint32_t count, uint64_t version,
                               void *user);
/**
 * Registers `fn` to follow the map's edits (for data you derive from the map: caches, flow fields,
 * an accelerator). Listeners are called in registration order. A listener may unlisten itself or
 * another listener while it is called (a one-shot listener): one unlistened is not called again,
 * from that edit on. It must not destroy the map's contexts, batches, tables or accelerators
 * there: they follow the same edit in the same pass.
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_OUT_OF_MEMORY.
 */
PF_API pf_status   pf_map_listen(const pf_map *map, pf_map_edit_fn fn, void *user);
/** Removes a listener registered with the same `fn` and `user`. @return PF_OK, PF_INVALID_ARGUMENT (not registered). */
PF_API pf_status   pf_map_unlisten(const pf_map *map, pf_map_edit_fn fn, void *user);
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
