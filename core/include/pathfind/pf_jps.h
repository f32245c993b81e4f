/*
 * pf_jps.h - jump point search: where its data lives, and the shared precomputed tables of JPS+.
 *
 * PF_ALGO_JPS and PF_ALGO_JPS_PLUS (pf_search.h) run on uniform-cost grids with PF_MOVES_8_NO_CUT
 * or PF_MOVES_8_CUT, with the octile, Chebyshev, Euclidean, Manhattan or zero heuristic and any
 * tie rule. With the admissible ones (octile, Chebyshev, Euclidean, zero) they return the same
 * optimal costs as A* (paths may differ among equal-cost ones), as the full cell sequence; Manhattan
 * overestimates a diagonal step, so with it neither is optimal and their costs differ from A*'s. On anything else (weighted, 4-connected or hex grids, graphs, PF_HEUR_MAX
 * or callback heuristics) the search runs A* and says so (PF_OK with PF_DETAIL_FALLBACK in
 * pf_stats.detail). Expansion counts in pf_stats are jump points. A weight above 1 makes them weighted (cost within weight x optimal, no
 * reopening); the path then follows the jump points found, and may cross itself.
 *
 * DATA. Online JPS scans walls stored as bit-packed rows and their transpose (64 cells per load),
 * one pair of bitmaps per terrain class: 2 bits per cell and class. JPS+ adds a jump distance per
 * cell and direction (int16 x 8 = 16 bytes per cell). Both depend only on the map. They live in:
 *   - a pf_jps_table, built once by pf_jps_table_create (in parallel with OpenMP when the library
 *     is built with PF_WITH_OPENMP) and attached to any number of contexts with
 *     pf_ctx_use_jps_table: the usual choice when several threads search one map; or
 *   - each context, built on its first JPS query (bitmaps for the classes it meets, distances on
 *     its first JPS+ query), when no table is attached. Nothing else is needed, at the price of
 *     one copy per context and a slow first query.
 * Each context also keeps 4 bytes per cell of JPS search state (jump-point parent u32), allocated
 * on its first JPS query, and the last path found (4 bytes per cell of it, grown as needed).
 * pf_ctx_jps_mem_size reports both. A context in caller memory (pf_ctx_init_static) builds and
 * allocates nothing: its JPS state is placed with it when pf_ctx_desc.jps_table is given, and JPS
 * runs only on what that table holds (else A*, with PF_DETAIL_FALLBACK).
 *
 *     pf_jps_table *t;
 *     if (pf_jps_table_create(map, NULL, &t) == PF_OK) {       // JPS+ distances and bitmaps
 *         printf("%zu bytes\n", pf_jps_table_mem_size(t));
 *         pf_ctx_use_jps_table(ctx, t);                        // one call per context
 *         pf_search(ctx, a, b, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS}, &path, &st);
 *     }
 *     pf_ctx_destroy(ctx);                                     // contexts first,
 *     pf_jps_table_destroy(t);                                 // then the table
 *
 * EDITS. A table follows its map's edits (pf_grid_apply_edits): the bitmaps of the edited cells
 * and the JPS+ distances along the lines an edit reaches are updated in place, bit for bit what a
 * fresh build gives. The distances are updated around the cells whose class changed (not every
 * cell an edit's rectangle covers); an edit that changes so much that this would cost more than
 * a quarter of a build has them computed again in place instead, as the build does (its `threads`;
 * serially when it ran on a `parallel` hook, which is the caller's for the build only), allocating
 * nothing. If an update runs out of memory (a new class's bitmaps) the table is stale and searches
 * using it return PF_WRONG_MAP until it is built again; data a context built itself is rebuilt on
 * demand.
 *
 * THREAD SAFETY: a pf_jps_table is immutable between edits; any number of threads' contexts may
 * use it at once. It must outlive every context it is attached to, and be destroyed before its
 * map. pf_ctx_use_jps_table follows the context's rule (one thread at a time).
 */
#ifndef PATHFIND_PF_JPS_H
#define PATHFIND_PF_JPS_H

#include <stddef.h>
#include "pf_search.h"
#include "pf_parallel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pf_jps_table pf_jps_table;

typedef struct pf_jps_desc {
    pf_allocator allocator;   /* all zero = malloc */
    int          bitmaps_only; /* non-zero: skip the JPS+ distances (online JPS only, 2 bits/cell/class) */
    uint32_t     threads;     /* OpenMP threads for the build; 0 = OpenMP's default */
    pf_parallel_for parallel; /* [opt] the build's loops on the engine's threads (pf_parallel.h) */
} pf_jps_desc;

/** Non-zero when PF_ALGO_JPS / PF_ALGO_JPS_PLUS run natively on `map` (no A* fallback). */
PF_API int pf_jps_supported(const pf_map *map);

/**
 * Builds the JPS tables of `map`: bitmaps for every terrain class and, unless desc->bitmaps_only,
 * the JPS+ jump distances. The result is the same for any thread count.
 *
 * @param desc [opt] NULL for defaults.
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_UNSUPPORTED (map not supported, see pf_jps_supported),
 *         PF_OUT_OF_MEMORY, PF_MAP_BUSY (the map is being edited).
 */
PF_API pf_status pf_jps_table_create(const pf_map *map, const pf_jps_desc *desc,
                                     pf_jps_table **out);
/** NULL-safe. Destroy (or detach) the contexts that use it first. */
PF_API void      pf_jps_table_destroy(pf_jps_table *table);
/** Bytes held by the table (bitmaps + distances). */
PF_API size_t    pf_jps_table_mem_size(const pf_jps_table *table);

/**
 * Makes `ctx` read its JPS data from `table` instead of building its own (data it built before
 * is freed). NULL detaches.
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_WRONG_MAP (the table was made for another map, or is stale),
 *         PF_CAPACITY_EXCEEDED (a context in caller memory made without a table: it has no room
 *         for the JPS search state; pf_ctx_init_static with desc->jps_table makes it).
 */
PF_API pf_status pf_ctx_use_jps_table(pf_ctx *ctx, const pf_jps_table *table);
/** Bytes of JPS data owned by `ctx` (search state and tables it built; not an attached table). */
PF_API size_t    pf_ctx_jps_mem_size(const pf_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif
