/*
 * pf_table.h - precomputed first-move (next-hop) tables: build, query, update incrementally, bake.
 *
 * A table answers "I am at node u and want to reach node t: which way first?" in O(1), for every
 * pair of nodes of a map. It is the lookup table of the reference slides ("Precalculated
 * pathfinding"): one full Dijkstra per row (pf_search_tree), rows built in parallel, and when the
 * graph changes only the rows that can change are rebuilt.
 *
 * ENTRIES. Entry (u, t) is an index into u's out-arcs, not a node id: on a graph the position k in
 * the arrays of pf_graph_arcs(map, u, 0, ...) (sorted by target, then weight); on a grid the
 * direction 0..7 = N E S W NE SE SW NW (dx, dy = (0,-1) (1,0) (0,1) (-1,0) (1,-1) (1,1) (-1,1)
 * (-1,-1)), or 0..5 = W E NW NE SW SE on hex grids (pf_grid.h). Arc indices need far fewer bits than
 * node ids (a grid is one byte per entry at any size; rome99, 3353 nodes, is 11 MB, not 22 MB) and
 * they name the exact arc when a graph has parallel arcs. Width: 1 byte when every out-degree is at
 * most 254, else 2 bytes up to 65534, else 4. The two largest values of the width are reserved:
 * all ones = no route, all ones minus 1 = u == t (pf_table_entry widens them to PF_TABLE_NO_ROUTE
 * and PF_TABLE_AT_GOAL).
 *
 * WHICH FIRST MOVE (ties). The entry is the out-arc that starts a path to t that is cheapest; among
 * those, has the fewest arcs; among those, has the smallest arc index. The rule is a property of
 * the map alone, so a table is the same bit for bit whatever the thread count or run, and it is
 * local (a node's entry depends only on its own arcs and its successors' costs and hop counts),
 * which is what makes the incremental update provable. The hop count keeps next-hop walks
 * loop-free even across zero-weight arcs: every step strictly decreases (cost, hops) to t.
 * Arithmetic is the search's double precision: with integer weights (DIMACS) path sums are exact
 * while they stay below 2^53 (a sum past it is rounded: 1 + 2^53 reads 2^53, though a weight of
 * 2^53 alone is accepted); with arbitrary real weights two paths whose costs differ only by
 * rounding are not ties.
 *
 * SIZE. n nodes give n*n entries; maps are limited to PF_TABLE_MAX_NODES (65536) nodes. Grids have
 * one row and column per cell, blocked cells included (their rows hold "no route"): a 64x64 grid is
 * 4096 nodes = 16 MiB, the 49x49 Moving AI arena 5.5 MiB. On a 32-bit target (wasm32) the table must
 * also fit the address space: 65,536 nodes of 1-byte entries, 46,341 of 2 or 32,768 of 4 are PF_TOO_LARGE. Build time is n full Dijkstra searches.
 *
 * INCREMENTAL UPDATE. pf_table_update(table, new_map, ...) brings a table from the map it
 * describes to another map with the same nodes (graphs: the same node count; grids: the same size
 * and move rule): it diffs the old map against the new one, seeds the open list with every node
 * whose out-arcs differ, and then, like the slides: take a node from the open list, rebuild its row
 * on the new map (and its row of costs on the old map, to see what changed), and enqueue
 * predecessors that may change. A predecessor v of a rebuilt node x is enqueued when, for some
 * target t, the cost-and-hops of x to t improved, or got worse and v's old entry for t is an arc to
 * x (PF_TABLE_RULE_TIGHT); PF_TABLE_RULE_SLIDES also enqueues every predecessor when x's row of next
 * hops changed, which reproduces the slides' example step by step. Both are proven complete in
 * table.c; rows never examined are copied unchanged, and the result equals pf_table_create on the
 * new map bit for bit where path costs sum exactly (integer weights, as DIMACS files and the CLI
 * have; grids whose multipliers and step costs add without rounding). The proof takes a node's
 * cost to t as its best arc's cost plus its successor's; a row is summed from its own node, so
 * with real weights whose sums round (arcs of 2^-52 beside 1), two orders of addition can differ
 * in the last bit: a row whose successors' (cost, hops) did not change can still change, unseen,
 * and the updated table then keeps a first move that is shortest by one rounding but not the one
 * a new build picks (a review's constructed graph and grid; random grids with multipliers in
 * steps of 0.5 and 0.1 and random floats never showed it); in those cases the path kept was
 * longer than the new build's by 2^-52 of its cost. Memory: besides a few rows a thread, an update
 * whose new map needs wider entries (a graph node's out-degree crossing 254 or 65,534, either way)
 * holds the table twice while it is re-encoded (old and new width; 1,000 nodes, 1 -> 2 bytes: 2.1 MB
 * above the 1 MB table).
 *
 * LIVING GRIDS. A grid table follows the edits of its map (pf_grid_apply_edits): the edit copies
 * the grid before its cells change (at most 65536 cells) and runs the update above from the copy
 * to the edited grid, so the edit takes as long as the rows it rebuilds (two Dijkstra searches a
 * row). If that update fails (out of memory) the table is stale: pf_table_path and pf_table_save
 * report PF_WRONG_MAP and pf_table_entry PF_TABLE_NO_ROUTE until it is built again.
 *
 * BAKED FILES (pf_table_save / pf_table_load), little-endian:
 *     offset size field
 *          0    8 magic "PFTABLE\0"
 *          8    4 version (PF_TABLE_FILE_VERSION)
 *         12    4 header size in bytes (64)
 *         16    8 XXH3-64 fingerprint of the map (pf_map_fingerprint)
 *         24    4 node count n
 *         28    4 map kind (1 grid, 2 graph)
 *         32    4 entry width in bytes (1, 2 or 4)
 *         36    4 reserved, 0
 *         40    8 payload size in bytes (n * n * width)
 *         48    8 XXH3-64 of the payload
 *         56    8 XXH3-64 of bytes 0..55 (the header itself)
 *         64    - payload: row u = entries (u, 0..n-1), each `width` bytes little-endian
 * Loading checks every field, both checksums and every entry (each must name a legal move), so a
 * truncated, corrupted, foreign or mismatched file is a clean error with a message, never a crash.
 *
 *     pf_table *t;
 *     if (pf_table_create(map, NULL, &t) != PF_OK) return;
 *     uint32_t buf[256];
 *     pf_path path = { .nodes = buf, .capacity = 256 };
 *     double cost;
 *     if (pf_table_path(t, from, to, &path, &cost) == PF_OK) printf("%u nodes, cost %g\n", path.len, cost);
 *     pf_table_save(t, "city.pft", NULL);
 *     pf_table_destroy(t);
 *
 * OWNERSHIP: the table borrows its map (as a pf_ctx does): keep the map alive while the table uses
 * it; after pf_table_update it borrows the new map instead. Destroy grid tables before their map.
 * THREAD SAFETY: const functions (queries, save) may run concurrently; create, update and load use
 * OpenMP threads internally (one pf_ctx each) and must not race with anything on the same table.
 */
#ifndef PATHFIND_PF_TABLE_H
#define PATHFIND_PF_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "pf_map.h"
#include "pf_search.h"
#include "pf_parallel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pf_table pf_table;

/** Largest map a table accepts (n*n entries must stay addressable and sane). */
#define PF_TABLE_MAX_NODES 65536u
/** Version written by pf_table_save and the only one pf_table_load accepts. 2: a grid's fingerprint
 * is a hash of its 64x64 tiles' hashes (so an edit rehashes only its tiles); a version 1 file is
 * refused by its version, with a message, instead of as a table for another map. */
#define PF_TABLE_FILE_VERSION 2u
/** pf_table_entry: no route from u to t (unreachable, blocked cell, or out of range). */
#define PF_TABLE_NO_ROUTE UINT32_MAX
/** pf_table_entry: u == t. */
#define PF_TABLE_AT_GOAL (UINT32_MAX - 1u)

/** Called from the calling thread while rows are built (done <= total; last call has done == total). */
typedef void (*pf_table_progress_fn)(uint32_t done, uint32_t total, void *user);

typedef struct pf_table_desc {
    pf_allocator         allocator;
    uint32_t             threads;        /* 0 = OpenMP default; 1 = serial (same result either way) */
    pf_table_progress_fn progress;       /* [opt] */
    void                *progress_user;
    pf_parallel_for      parallel;       /* [opt] the rows on the engine's threads (pf_parallel.h);
                                            progress is then called from the thread of worker 0 */
} pf_table_desc;

typedef enum pf_table_rule {
    PF_TABLE_RULE_DEFAULT = 0,   /* PF_TABLE_RULE_TIGHT */
    PF_TABLE_RULE_TIGHT,         /* enqueue only predecessors whose entries can change */
    PF_TABLE_RULE_SLIDES         /* also every predecessor of a row whose next hops changed */
} pf_table_rule;

typedef struct pf_table_update_desc {
    pf_table_rule rule;
    uint32_t      threads;       /* 0 = OpenMP default; 1 = serial (same result and counts) */
    /* [opt] where to list the examined rows, in the order of the open list (wave by wave, each
     * wave in the order it was enqueued); the first `capacity` are written. */
    uint32_t     *examined;      /* [opt][len: capacity] node ids */
    uint8_t      *changed;       /* [opt][len: capacity] 1 where that row's next hops changed */
    uint32_t      capacity;
    pf_parallel_for parallel;    /* [opt] the rows on the engine's threads (pf_parallel.h) */
} pf_table_update_desc;

typedef struct pf_table_report {
    uint32_t seeds;          /* nodes whose out-arcs differ between the two maps */
    uint32_t rows_examined;  /* rows rebuilt on the new map (the slides' closed list) */
    uint32_t rows_changed;   /* of those, rows whose next hops differ (the slides' red rows) */
    uint32_t searches;       /* Dijkstra searches run (two per examined row: old and new map) */
    uint32_t waves;          /* rounds of the open list (rows within a round run in parallel) */
} pf_table_report;

/**
 * Builds the table of `map`: one Dijkstra per row, rows spread over threads.
 * @param desc [opt] NULL for defaults.
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_TOO_LARGE (more than PF_TABLE_MAX_NODES nodes, or larger
 *         than a 32-bit address space),
 *         PF_OUT_OF_MEMORY, PF_MAP_BUSY (an edit of the map in progress; one made while the rows
 *         are built, from another thread, is refused with PF_MAP_BUSY until the table follows).
 */
PF_API pf_status pf_table_create(const pf_map *map, const pf_table_desc *desc, pf_table **out);
/** NULL-safe. */
PF_API void      pf_table_destroy(pf_table *table);

/** Map the table currently belongs to. */
PF_API const pf_map *pf_table_map(const pf_table *table);
PF_API uint32_t  pf_table_node_count(const pf_table *table);
/** Bytes per entry: 1, 2 or 4. */
PF_API uint32_t  pf_table_entry_bytes(const pf_table *table);
/** Bytes held by the table. */
PF_API size_t    pf_table_mem_size(const pf_table *table);

/** Raw entry: an out-arc index of `from`, PF_TABLE_AT_GOAL or PF_TABLE_NO_ROUTE. O(1). */
PF_API uint32_t  pf_table_entry(const pf_table *table, uint32_t from, uint32_t to);
/** Next node on the way from `from` to `to`; PF_NODE_NONE when from == to or there is no route. O(1). */
PF_API uint32_t  pf_table_next(const pf_table *table, uint32_t from, uint32_t to);

/**
 * Follows next hops from `from` to `to`.
 * @param path [opt] receives nodes from..to; `len` is set even on PF_BUFFER_TOO_SMALL.
 * @param cost [opt] sum of the arc costs walked (INFINITY when there is no route).
 * @return PF_OK, PF_NO_PATH, PF_INVALID_START, PF_INVALID_GOAL, PF_BUFFER_TOO_SMALL,
 *         PF_INVALID_ARGUMENT, PF_COST_OVERFLOW (the arc costs sum to infinity), PF_WRONG_MAP (the
 *         table is stale: an edit it could not follow), PF_LIMIT_REACHED (a loaded table whose
 *         entries are legal moves that walk in a cycle: never a table this library built).
 */
PF_API pf_status pf_table_path(const pf_table *table, uint32_t from, uint32_t to, pf_path *path,
                               double *cost);

/**
 * Brings the table from its current map to `new_map` (same node count; grids: same size and move
 * rule), rebuilding only rows that can change. On failure the table is unchanged and still belongs
 * to its old map. A grid table follows its own map's edits by itself: `new_map` == its map is PF_OK.
 * @param desc   [opt] NULL for defaults.
 * @param report [opt] counts of the work done.
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL, or the maps differ in nodes, size or rule),
 *         PF_WRONG_MAP (the table is stale), PF_OUT_OF_MEMORY, PF_MAP_BUSY (either map being edited;
 *         both are held against edits until the table follows the new one).
 */
PF_API pf_status pf_table_update(pf_table *table, const pf_map *new_map,
                                 const pf_table_update_desc *desc, pf_table_report *report);

/** Size of the baked form (header + payload). */
PF_API size_t    pf_table_file_size(const pf_table *table);
/**
 * Writes the baked form to caller memory.
 * @param size [opt] receives pf_table_file_size, even on PF_BUFFER_TOO_SMALL.
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_BUFFER_TOO_SMALL.
 */
PF_API pf_status pf_table_save_mem(const pf_table *table, void *buf, size_t capacity, size_t *size);
/** @return PF_OK, PF_INVALID_ARGUMENT, PF_IO_ERROR (message in diag). */
PF_API pf_status pf_table_save(const pf_table *table, const char *path, pf_diag *diag);

/**
 * Loads a baked table for `map` from memory. `name` [opt] prefixes messages.
 * @return PF_OK; PF_PARSE_ERROR (truncated, bad magic, checksum mismatch, bad sizes or entries),
 *         PF_UNSUPPORTED (other file version), PF_WRONG_MAP (baked for a map with another
 *         fingerprint, kind or size), PF_INVALID_ARGUMENT, PF_TOO_LARGE, PF_OUT_OF_MEMORY;
 *         the reason is in `diag`.
 */
PF_API pf_status pf_table_load_mem(const void *data, size_t size, const char *name,
                                   const pf_map *map, const pf_table_desc *desc, pf_table **out,
                                   pf_diag *diag);
/** The same from a file; adds PF_IO_ERROR. */
PF_API pf_status pf_table_load(const char *path, const pf_map *map, const pf_table_desc *desc,
                               pf_table **out, pf_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
