/*
 * pf_accel.h - the long-query accelerator: exact shortest paths on 8-connected grids from a
 * contraction hierarchy over the map's subgoal graph, and PF_ALGO_AUTO.
 *
 * WHAT IT IS. A subgoal is a walkable cell diagonal to the corner of an obstacle, with both cells
 * between them walkable (the convex corners paths bend around). A canonical path takes its
 * diagonal steps first, then its straight ones; when every step of it is legal it is a shortest
 * path (its cost is the octile distance). Jump point search without corner cutting proves that
 * every shortest path can be rebuilt from such canonical paths, each ending at a subgoal (its
 * straight jump points are subgoals; its other turns are the canonical path's own bend). So the
 * subgoals, joined where a canonical path links two of them without passing a third, form a graph
 * that holds every grid distance (Uras, Koenig & Hernandez's subgoal graphs, with the reachability
 * JPS gives). A contraction hierarchy (Geisberger et al.) is built on it: nodes are removed one by
 * one, least important first, adding a shortcut wherever a removal would lengthen a distance. A
 * query scans from the start to the subgoals its canonical paths reach first, likewise into the
 * goal, searches up the hierarchy from both sides (a few hundred nodes on a 2000x2000 map), and
 * unpacks shortcuts and canonical paths into grid cells. Uras & Koenig (IJCAI 2018) measured this
 * pairing to dominate both of its parts on game maps.
 *
 * WHY THIS ONE. Estimated and measured on the three 2000x2000 maps against the alternatives:
 *   - the subgoal graph is small where maps have structure: rooms-2000 has 21,410 subgoals
 *     (0.6% of its cells), maze-2000-w4 111,273 (3.5%); random-2000-20, with an obstacle corner
 *     everywhere, 1,310,703 (41%). A hierarchy on the grid itself has 3.2-3.8 million nodes, and
 *     its queries settle 5-10x more nodes (a prototype on den520d: 606 against 239).
 *   - compressed path databases answer faster but need one Dijkstra per cell: 3.2 million
 *     searches, days on two cores. Landmarks (ALT, 16 of them, 64 bytes a cell) over the whole
 *     grid cut A*'s expansions on random-2000-20 only 3.4x: the detours of a random map are too
 *     local. Over the hierarchy's core alone they are cheap (64 distances per core node, 3.2 bytes
 *     a cell on random-2000-20, computed after a build or a load on its threads, not stored in
 *     the file) and bound the A* that crosses the core.
 *   - a hierarchy builds in parallel from local searches and stores about 16 bytes per arc.
 * Its weak case is the random map, whose subgoal graph is nearly as large as the grid and has no
 * hierarchy to find: see docs/performance.md for the figures reached there.
 *
 * SUPPORTED MAPS. Grids with PF_MOVES_8_NO_CUT and no cost multipliers, any terrain classes (a
 * step stays within one class, as everywhere). Others are PF_UNSUPPORTED here, and PF_ALGO_AUTO
 * runs JPS or A* on them: corner cutting and 4-connected moves have other canonical paths, and a
 * cost multiplier breaks "canonical paths are shortest".
 *
 * QUERIES. Attach the accelerator to a context (any number of contexts, like a pf_jps_table) and
 * search with PF_ALGO_AUTO: long queries use it; a short one runs A* first, which touches fewer
 * cells than the accelerator's scans, and hands over to the accelerator, from scratch and in the
 * same call, once A* has expanded 64 nodes per octile step of the move without reaching the goal
 * (in a maze two cells a few steps apart can be thousands apart by path): the wasted A* is bounded
 * by the move's length. Short is below PF_ACCEL_SHORT_QUERY (32) octile steps by default, or the
 * desc's short_query. Where at least one cell in 10 is a subgoal (random maps) the accelerator's
 * scans reach dozens of subgoals and its short query costs several times more than A*'s: there A*
 * is tried up to 64 steps by default and hands over at 16 expansions a step (docs/performance.md).
 * Such an answer has
 * PF_DETAIL_SHORT and PF_DETAIL_ACCEL, and counts the expansions of both. A query with its own
 * max_expansions or max_cost, or a partial one, runs A* to the end instead (its limits are its
 * own). Without an accelerator AUTO runs JPS+ when a JPS+ table is attached, else JPS, else A*; so
 * too with one whose build left over half its subgoals uncontracted (pf_accel_info.core * 2 >
 * subgoals: an open map whose subgoals see far, such as Berlin_0_1024, where searching its core is
 * slower than JPS+), each answer then with PF_DETAIL_ACCEL_DECLINED (`pathfind prep` warns when it
 * builds one). The cost is the optimal one (A*'s, to the
 * rounding of a double), the path the full cell sequence, or its turning points when
 * pf_search_desc.waypoints is set; among paths of equal cost it may differ from A*'s. The query
 * is sliced like any search: pf_search_step(ctx, n) returns PF_IN_PROGRESS after exactly n units
 * of its work, where a unit is an expansion or 16 cells of the path it writes (a maze's path is
 * 100,000 cells), and the answer is the same however it was sliced. A step may do some units past
 * n where the query cannot stop (its scans, a canonical path of at most a side of the map, a
 * squad's shared goal side): the next steps are charged them before it goes on. Stats count
 * settled nodes of both sides as expansions (the path's units are not in them).
 *
 * MAP EDITS. pf_grid_apply_edits changes a map in place, between runs; the edited map has a new
 * fingerprint. An accelerator keeps a copy of the cells it was built from (its prep map, 1 byte a
 * cell) and its queries read only that copy, so what it finds is a shortest path of the prep map.
 * With PF_ACCEL_EDITS_CHECK it follows the edits by the diff: each edit updates the set D of cells
 * whose class differs from the prep map (1 bit a cell, and 4 bytes per cell of D; microseconds an
 * edit, proportional to its cells), and a query's answer is kept only where it is proven on the
 * edited map in O(path + |D|): its path enters no cell of D and cuts beside none (so every step is
 * legal now), and no cell of D that is open to the unit now but was not at prep lies close enough
 * to the way to make a shorter path (octile bound: a path through or beside such a cell f costs at
 * least octile(start, f) + octile(f, goal) - 2 sqrt(2)). Every other cell of D only lengthens
 * paths. A path that crosses D is first moved beside it at the same cost where a reordering of
 * its steps allows (a run of one diagonal and one straight direction costs the same in any order:
 * a building in an open room is passed so; or, within a run's box that keeps to one quadrant, round
 * an obstacle by its other side): tables of at most twice the map's side in cells, read one a
 * step at most under a budget, sliced like the path. A query it cannot prove (or whose start or
 * goal is in D) is answered by JPS (A* where JPS does not apply) in the same call, exact, with
 * PF_DETAIL_ACCEL_EDITED; a rebuild off the frame adopted with its own diff (below) empties D
 * again. The first attachment of a rebuilt accelerator with this mode computes its D against the
 * live map (one pass over the cells): made between runs, like the adoption.
 * Measured in docs/performance.md (scen --edits, replay). By default
 * (pf_accel_desc.edits = PF_ACCEL_EDITS_STALE) an accelerator made before the edit is not used for
 * it (AUTO says so: PF_DETAIL_ACCEL_STALE; pf_ctx_use_accel refuses it, PF_WRONG_MAP), so queries
 * run JPS or A* until an accelerator is built for the edited map, off the frame (OFF-FRAME
 * REBUILDS below). With PF_ACCEL_EDITS_REBUILD the accelerator
 * follows its map instead: each pf_grid_apply_edits rebuilds it in place, on the desc's threads,
 * before it returns, and every context it is attached to goes on answering AUTO by it, exact. The
 * rebuild is the whole build (0.55 s on maze-2000-w4, 0.95 s on rooms-2000, minutes on
 * random-2000-20, 2 threads: bench_accel_edit): a map edited every frame wants the default and a rebuild off the
 * frame. It is not repaired locally: one wall can change which nodes are subgoals and which arcs
 * exist far from it, and which witnesses of the contraction crossed it is not recorded, so no
 * exact local repair short of re-contracting is known here (docs/living-maps.md). A rebuild that
 * fails (out of memory, or an edit that made the map weighted) leaves it stale, as by default; an
 * edit that makes the map weighted leaves a PF_ACCEL_EDITS_CHECK one stale too until the map is
 * unweighted again.
 *
 * OFF-FRAME REBUILDS. The game goes on while a new accelerator is built: pf_accel_rebuild_begin,
 * between runs, copies the map's cells (1 byte per cell); pf_accel_rebuild_run builds from the copy
 * on any thread (its own OpenMP team, or desc.parallel), touching neither the live map nor any
 * context or batch, while the map is edited and searched; the result belongs to the live map and
 * answers AUTO only while its cells are the copied ones (pf_accel_current): made stale by an edit
 * after the copy, it is never wrong, and an edit that restores those cells makes it current again.
 * A batch takes it at a run the caller names (pf_batch_adopt_accel, pf_batch.h ADOPTED
 * ACCELERATORS), so lockstep peers switch in the same run; JPS answers until then, saying so.
 *
 *     // between runs, after the edits of frame f:
 *     pf_accel_rebuild *rb;
 *     pf_accel_rebuild_begin(map, NULL, &rb);                 // the copy, in the frame
 *     start_thread(build, rb);                                // pf_accel_rebuild_run(rb, &fresh)
 *     ...
 *     // before the run of frame f + N, on every peer:
 *     join_thread(build);                                     // waits if the build is late
 *     pf_batch_adopt_accel(batch, fresh, pf_batch_frame(batch));
 *     pf_batch_run(batch, &budget);                           // every context uses it from here
 *     pf_accel_destroy(old);                                  // nothing refers to it any more
 *     pf_accel_rebuild_destroy(rb);
 *
 * MEMORY. 1 byte per cell (subgoal flags), 1 (the prep copy), 4 per cell (arc offsets) and 21 per
 * arc (16 as in the file, 5 placing each shortcut's halves for unpacking paths, made after a build
 * or a load); a hierarchy without a core also 12 bytes per arc and 16 per subgoal (its arcs and
 * nodes by node index, made after a build or a load); following edits by the diff, 1 bit per cell
 * and 4 bytes per cell of D more; each context that runs accelerated queries adds 4 bytes per cell
 * (parents) and a few small buffers, or with a hierarchy without a core about 73 bytes per subgoal
 * in place of the parents (its searches' records and open lists by node index: 1.5 MB on rooms-2000).
 *
 * FILES (pf_accel_save / pf_accel_load), little-endian:
 *     offset size field
 *          0    8 magic "PFACCEL\0"
 *          8    4 version (PF_ACCEL_FILE_VERSION)
 *         12    4 header size in bytes (64)
 *         16    8 XXH3-64 fingerprint of the map (pf_map_fingerprint)
 *         24    4 padded cells (width + 2) * (height + 2)
 *         28    4 subgoals
 *         32    4 arcs
 *         36    4 core nodes
 *         40    8 payload size in bytes ((cells + 1) * 4 + arcs * 16 + core * 4)
 *         48    8 XXH3-64 of the payload
 *         56    8 XXH3-64 of bytes 0..55 (the header itself)
 *         64    - payload: arc offsets u32[cells + 1], arcs {to, mid, a, b} u32 each, then the
 *                 core's cells u32[core] ascending
 * Loading checks every header field against the map and the file's size before allocating,
 * both checksums, and then every arc (an existing subgoal of the same class, a legal canonical
 * path or two sub-arcs whose costs add up), so even a file whose checksums were recomputed by
 * hand cannot make a query read outside its arrays or step off the map.
 *
 *     pf_accel *acc;
 *     if (pf_accel_create(map, NULL, &acc) == PF_OK) {       // in parallel with OpenMP
 *         pf_ctx_use_accel(ctx, acc);                        // one call per context
 *         pf_search(ctx, a, b, &(pf_search_desc){.algo = PF_ALGO_AUTO}, &path, &st);
 *         pf_accel_save(acc, "map.pfa", NULL);
 *     }
 *     pf_ctx_destroy(ctx);                                   // contexts first,
 *     pf_accel_destroy(acc);                                 // then the accelerator
 *
 * THREAD SAFETY: a pf_accel is immutable after creation (except inside pf_grid_apply_edits, which
 * never overlaps a search on its map, with PF_ACCEL_EDITS_REBUILD); any number of threads' contexts
 * may use it at once. It borrows its map and must outlive every context it is attached to.
 * pf_ctx_use_accel follows the context's rule (one thread at a time). pf_accel_rebuild_begin reads
 * the map (call it where an edit could be made); pf_accel_rebuild_run reads only its copy (any
 * thread, one call per rebuild).
 */
#ifndef PATHFIND_PF_ACCEL_H
#define PATHFIND_PF_ACCEL_H

#include <stddef.h>
#include <stdint.h>
#include "pf_search.h"
#include "pf_parallel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pf_accel pf_accel;

/* EXPERIMENTAL tier (pf_export.h): declared only where PF_EXPERIMENTAL_API is defined. */
#ifdef PF_EXPERIMENTAL_API

/** Version of the baked file layout above. */
#define PF_ACCEL_FILE_VERSION 1u
/** By default PF_ALGO_AUTO tries A* first for queries shorter than this many octile steps, twice
 *  as many on maps where at least one cell in 10 is a subgoal (QUERIES). */
#define PF_ACCEL_SHORT_QUERY 32

/** What an accelerator does when its map is edited (see MAP EDITS). */
typedef enum pf_accel_edits {
    PF_ACCEL_EDITS_STALE = 0,   /* not used for the edited map: AUTO answers by JPS, says so */
    PF_ACCEL_EDITS_REBUILD = 1, /* rebuilt inside pf_grid_apply_edits: AUTO keeps answering by it */
    PF_ACCEL_EDITS_CHECK = 2    /* follows edits by the cells that differ from its build's (microseconds
                                   an edit): AUTO answers by it wherever it proves the answer on the
                                   edited map, by JPS elsewhere (PF_DETAIL_ACCEL_EDITED) */
} pf_accel_edits;

typedef struct pf_accel_desc {
    pf_allocator allocator;   /* all zero = malloc */
    uint32_t     threads;     /* OpenMP threads for the build; 0 = OpenMP's default */
    uint32_t     short_query; /* PF_ALGO_AUTO tries A* first below this octile distance (QUERIES);
                                 0 = PF_ACCEL_SHORT_QUERY, doubled on maps dense in subgoals,
                                 1 = the accelerator for every query (not stored in files) */
    pf_parallel_for parallel; /* [opt] the build's loops on the engine's threads (pf_parallel.h); with
                                 PF_ACCEL_EDITS_REBUILD it must stay valid for the rebuilds too */
    pf_accel_edits  edits;    /* default PF_ACCEL_EDITS_STALE (not stored in files) */
} pf_accel_desc;

/** What an accelerator holds (for reports). */
typedef struct pf_accel_info {
    uint32_t subgoals;       /* nodes of the hierarchy */
    uint32_t graph_arcs;     /* arcs stored that are subgoal-graph arcs */
    uint32_t shortcuts;      /* arcs stored that are shortcuts */
    uint32_t core;           /* subgoals left uncontracted (searched goal-directed) */
    uint32_t arcs;           /* arcs stored (each once, at its lower end) */
    size_t   bytes;          /* pf_accel_mem_size */
    double   bytes_per_cell; /* bytes / (width * height) */
    uint32_t edited_cells;   /* PF_ACCEL_EDITS_CHECK: cells whose class differs from the build's now
                                (0 for a rebuild's copy until it is first attached: its diff is
                                made against the live map then) */
} pf_accel_info;

/** Non-zero when pf_accel_create supports `map` (see SUPPORTED MAPS). */
PF_API int pf_accel_supported(const pf_map *map);

/**
 * Builds the accelerator of `map` in parallel. The result is the same for any thread count.
 * @param desc [opt] NULL for defaults.
 * @return PF_OK, PF_INVALID_ARGUMENT (also an unknown desc->edits), PF_UNSUPPORTED (see
 *         pf_accel_supported), PF_OUT_OF_MEMORY, PF_MAP_BUSY (an edit of the map in progress; one
 *         made on another thread during the build is refused with PF_MAP_BUSY until it follows).
 */
PF_API pf_status pf_accel_create(const pf_map *map, const pf_accel_desc *desc, pf_accel **out);
/** NULL-safe. Destroy (or detach) the contexts that use it first. */
PF_API void      pf_accel_destroy(pf_accel *acc);
/** Bytes held by the accelerator. */
PF_API size_t    pf_accel_mem_size(const pf_accel *acc);
/** Counts and sizes (all zero for NULL). */
PF_API pf_accel_info pf_accel_get_info(const pf_accel *acc);

/** Bytes pf_accel_save writes. */
PF_API size_t    pf_accel_file_size(const pf_accel *acc);
/**
 * Bakes the accelerator to `path` (written beside it and renamed over it once complete, so a
 * failed save leaves any old file as it was).
 * @param diag [opt] receives the reason on failure.
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_IO_ERROR.
 */
PF_API pf_status pf_accel_save(const pf_accel *acc, const char *path, pf_diag *diag);
/**
 * The same into caller memory. When `capacity` is too small nothing is written and
 * PF_BUFFER_TOO_SMALL is returned; *size [opt] always receives the bytes needed.
 */
PF_API pf_status pf_accel_save_mem(const pf_accel *acc, void *buf, size_t capacity, size_t *size);
/**
 * Loads a baked accelerator for `map`: refused with a message when the file is for another map
 * (fingerprint), of another version, truncated, corrupted or inconsistent, or is not a regular
 * file (a pipe or a device: the format is read by its size).
 * @param desc [opt] allocator, short_query and edits (how it follows the map's edits: not stored
 *             in files); threads and parallel run the subgoal scan.
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_IO_ERROR, PF_PARSE_ERROR, PF_UNSUPPORTED (version, map),
 *         PF_WRONG_MAP, PF_OUT_OF_MEMORY, PF_MAP_BUSY (as pf_accel_create).
 */
PF_API pf_status pf_accel_load(const char *path, const pf_map *map, const pf_accel_desc *desc, pf_accel **out,
                        pf_diag *diag);
/** The same from memory; `name` [opt] prefixes messages. */
PF_API pf_status pf_accel_load_mem(const void *data, size_t size, const char *name, const pf_map *map,
                            const pf_accel_desc *desc, pf_accel **out, pf_diag *diag);

/**
 * Makes PF_ALGO_AUTO searches on `ctx` use `acc` (NULL detaches).
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_WRONG_MAP (made for another map), PF_UNSUPPORTED (a
 *         context in caller memory, pf_ctx_init_static: as its desc.accel), PF_OUT_OF_MEMORY (the
 *         context's state for it, or a PF_ACCEL_EDITS_CHECK accelerator's diff, made at its first
 *         attachment).
 */
PF_API pf_status pf_ctx_use_accel(pf_ctx *ctx, const pf_accel *acc);
/** Bytes of accelerator query state owned by `ctx` (not the attached accelerator). */
PF_API size_t    pf_ctx_accel_mem_size(const pf_ctx *ctx);

/* ---- off-frame rebuilds (OFF-FRAME REBUILDS above) ------------------------------------------- */

/** An accelerator being rebuilt for a map's cells as they were at pf_accel_rebuild_begin. */
typedef struct pf_accel_rebuild pf_accel_rebuild;

/**
 * Starts a rebuild for the cells `map` has now: copies them (1 byte per cell; about 2 ms on
 * 2000x2000) and nothing else. Call it where edits may be made (between runs, on the thread that
 * edits the map).
 * @param desc [opt] as pf_accel_create's, with edits PF_ACCEL_EDITS_STALE (the default) or
 *             PF_ACCEL_EDITS_CHECK (the result then follows the live map by its diff from its first
 *             attachment: the edits made since the copy are its first D).
 * @return PF_OK, PF_INVALID_ARGUMENT (also desc->edits PF_ACCEL_EDITS_REBUILD), PF_UNSUPPORTED
 *         (see pf_accel_supported), PF_OUT_OF_MEMORY.
 */
PF_API pf_status pf_accel_rebuild_begin(const pf_map *map, const pf_accel_desc *desc, pf_accel_rebuild **out);
/**
 * Builds the accelerator of the copied cells, once, on any thread: it reads only the copy, so the
 * map may be edited and searched meanwhile. *out is made for the map given to begin (attach it with
 * pf_batch_adopt_accel, or pf_ctx_use_accel while pf_accel_current) and answers PF_ALGO_AUTO only
 * while that map's cells are the copied ones (with PF_ACCEL_EDITS_CHECK: wherever it proves its
 * answer on the cells of the moment); it is the caller's to destroy (pf_accel_destroy), before the
 * map it was made for and in any order with the rebuild handle. The same for any thread count, like
 * pf_accel_create's.
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL, or run before), PF_OUT_OF_MEMORY.
 */
PF_API pf_status pf_accel_rebuild_run(pf_accel_rebuild *r, pf_accel **out);
/** NULL-safe; the accelerator it made is not destroyed. */
PF_API void      pf_accel_rebuild_destroy(pf_accel_rebuild *r);
/** Non-zero when `acc` is current for `map`: made for it, and its cells unchanged since (the same
 *  fingerprint). A stale one gives PF_DETAIL_ACCEL_STALE, and JPS answers; one that follows edits
 *  by its diff (PF_ACCEL_EDITS_CHECK) answers what it can prove while not current. */
PF_API int       pf_accel_current(const pf_accel *acc, const pf_map *map);

#endif /* PF_EXPERIMENTAL_API */

#ifdef __cplusplus
}
#endif
#endif
