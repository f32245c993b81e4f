/*
 * pf_search.h - the search family over a pf_map: A*, weighted A*, Dijkstra, BFS, greedy best-first.
 *
 * A pf_ctx holds one thread's node records (pages of 256 cells, a structure of arrays in each,
 * sized to the map once) and its open list. Records are reset by a generation stamp, never by clearing: a 20-cell query on a 4-million-
 * cell map touches only the cells it visits. Searching never allocates, except that the open list
 * doubles when a search outgrows it (a context keeps its capacity, so steady state allocates nothing).
 * A context can also be placed in the caller's memory and never allocate (ENGINE-OWNED MEMORY).
 *
 *     pf_ctx *ctx;
 *     pf_ctx_create(map, NULL, &ctx);
 *     uint32_t cells[4096];
 *     pf_path path = { .nodes = cells, .capacity = 4096 };
 *     pf_stats st;
 *     pf_status s = pf_search(ctx, pf_grid_node(map, 1, 1), pf_grid_node(map, 40, 30), NULL, &path, &st);
 *     if (s == PF_OK) printf("cost %.3f, %u cells, %u expanded\n", st.cost, path.len, st.expanded);
 *     pf_ctx_destroy(ctx);
 *
 * TIE-BREAKING. Among open nodes of equal f, the default expands the deeper one first (smaller h,
 * hence larger g), which on grids avoids expanding whole plateaus of equal f. PF_TIE_FIFO expands
 * the earliest pushed first (the order of the textbook walks), PF_TIE_LIFO the latest, and
 * PF_TIE_RANDOM a pseudo-random one that depends only on `tie_seed` and the node: the same seed always
 * gives the same path. Nodes still tied (equal f and equal h, say) go in order of their inner index,
 * so the expansion order is a function of the query alone, never of the open list's layout.
 * BFS defaults to FIFO (the textbook queue) and honours a rule the caller sets. On a graph with
 * coordinates, the Euclidean heuristic is scaled down by a relative 1e-12 (pf_graph.h), so two
 * nodes whose f would tie exactly with the unscaled distance differ in the last bits: the one with
 * the larger h (the shallower) comes first, whatever the tie rule. To reproduce a worked example's
 * exact ties (the lecture's Romania walk), give its heuristic values through PF_HEUR_CALLBACK.
 *
 * COSTS. Dijkstra, A* (with an admissible heuristic) and their sliced forms return optimal costs.
 * Weighted A* returns a cost at most `weight` times optimal with a consistent heuristic (every
 * built-in one; a PF_HEUR_CALLBACK heuristic that is admissible but not consistent can break the
 * bound: closed nodes are not reopened). Greedy
 * returns some path. BFS minimises the number of steps and reports the real cost of that path.
 *
 * THREAD SAFETY: a pf_ctx is used by one thread at a time; create one per worker and reuse it.
 * Many contexts may search one map concurrently. A context follows its map's edits (pf_grid.h):
 * made once, it stays valid across versions.
 */
#ifndef PATHFIND_PF_SEARCH_H
#define PATHFIND_PF_SEARCH_H

#include "pf_map.h"
#include "pf_parallel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pf_ctx pf_ctx;

/* The values of the public enums are fixed: a new member takes a new number, never another's. */
typedef enum pf_algo {
    PF_ALGO_DEFAULT = 0, /* PF_ALGO_ASTAR */
    PF_ALGO_ASTAR = 1,
    PF_ALGO_WASTAR = 2,   /* needs weight >= 1 */
    PF_ALGO_DIJKSTRA = 3,
    PF_ALGO_BFS = 4,
    PF_ALGO_GREEDY = 5,
    PF_ALGO_JPS = 6,      /* jump point search, uniform-cost 8-connected grids */
    PF_ALGO_JPS_PLUS = 7, /* JPS with precomputed jump distances */
    PF_ALGO_AUTO = 8,     /* the fastest exact method available: the accelerator (pf_accel.h) for long
                             queries on a context that has one, else JPS+ (a JPS table with its
                             distances attached: never distances the context built itself, so
                             that the pick does not depend on its past), JPS or A*; short moves
                             A* first, handed to the accelerator if A* runs past a cap (pf_accel.h,
                             QUERIES) */
    PF_ALGO_THETA = 9,    /* Lazy Theta*: any-angle paths on square grids without multipliers
                             (pf_anyangle.h); the path holds the turning points, its cost is
                             Euclidean length. Its parent array (4 bytes a cell) is allocated by a
                             context's first Theta* search: a context in caller memory answers
                             PF_CAPACITY_EXCEEDED */
    PF_ALGO__COUNT,       /* one past the last: it moves when an algorithm is added */
    /* What pf_algo_parse returns for an unknown name: not an algorithm (searches refuse it with
     * PF_INVALID_ARGUMENT), so a misspelt name can never run as A*. Fixed: it does not move when an
     * algorithm is added (before 0.2 it was PF_ALGO__COUNT, which did). */
    PF_ALGO_UNKNOWN = 255
} pf_algo;

typedef enum pf_heur {
    PF_HEUR_DEFAULT = 0,   /* grids: octile (8-conn), Manhattan (4-conn), hex; graphs: Euclidean with coords, else zero */
    PF_HEUR_ZERO = 1,
    PF_HEUR_MANHATTAN = 2, /* grids only; inadmissible on 8-connected grids (overestimates diagonals) */
    PF_HEUR_OCTILE = 3,
    PF_HEUR_CHEBYSHEV = 4, /* max(dx, dy): diagonal distance with uniform step cost */
    PF_HEUR_EUCLIDEAN = 5, /* the only geometric heuristic on graphs (they need coordinates): Manhattan,
                              octile, Chebyshev and hex on a graph, even with coordinates, and
                              Euclidean on one without, return PF_INVALID_ARGUMENT */
    PF_HEUR_HEX = 6,       /* hex distance in the odd-r layout; hex grids' only admissible metric:
                              octile and Euclidean overestimate on hex grids, and hex on square
                              ones (a review, against Dijkstra: up to +37 on demo-512), so
                              searches with them answer as Manhattan does on 8-connected grids,
                              PF_OK with paths that may not be shortest */
    PF_HEUR_MAX = 7,       /* maximum of the heuristics in heuristic_set */
    PF_HEUR_CALLBACK = 8,  /* heuristic_fn */
    PF_HEUR__COUNT         /* one past the last */
} pf_heur;

typedef enum pf_tie {
    PF_TIE_DEFAULT = 0,  /* PF_TIE_DEEPER */
    PF_TIE_DEEPER = 1,
    PF_TIE_FIFO = 2,
    PF_TIE_LIFO = 3,
    PF_TIE_RANDOM = 4    /* seeded by tie_seed */
} pf_tie;

/**
 * User heuristic: estimated cost from `node` to `goal`. Must not modify the map. Any finite value
 * is ordered correctly, negative ones included; a NaN is taken as 0 (no estimate), which keeps A*
 * optimal. The goal's own estimate is taken as 0 whatever the callback returns (the callback may
 * not be called for it). A* reopens closed nodes when a callback is in use, so an admissible but inconsistent
 * heuristic still gives optimal costs.
 */
typedef double (*pf_heuristic_fn)(const pf_map *map, uint32_t node, uint32_t goal, void *user);

/** Nodes taken off the open list, in order, for visualisation and tests. The trace ends with the
 *  goal when one is found (it is taken off the open list), while pf_stats.expanded does not count
 *  the goal (it is never expanded): after a successful search total == expanded + 1. */
typedef struct pf_trace {
    uint32_t *nodes;     /* [len: capacity] */
    uint32_t  capacity;
    uint32_t  len;       /* number written (at most capacity) */
    uint32_t  total;     /* nodes taken off the open list, even past capacity */
} pf_trace;

/*
 * MOVEMENT TYPES. By default a unit steps only between cells of its start's terrain class, at the
 * map's costs. A filter names the classes its unit may enter and what a step into each costs, so
 * one shared map serves hover units (ground and water), ships (water) and tanks that avoid trees:
 *
 *     pf_move_filter hover = {0};
 *     pf_move_filter_allow(&hover, 1, 1.0f);                    // ground
 *     pf_move_filter_allow(&hover, 2, 1.5f);                    // water, half again as dear
 *     pf_search_desc d = { .filter = &hover };
 *     pf_search(ctx, a, b, &d, &path, &st);
 *
 * With a filter a step between two allowed classes is legal; a diagonal without corner cutting
 * needs both side cells allowed; a step into cell c costs its base (1, or sqrt 2 for a diagonal)
 * times class_cost[class of c] times the map's multiplier of c (where the map has them). The
 * heuristic is scaled by the smallest multiplier of an allowed class times the map's smallest,
 * so A* stays optimal. Start and goal must be on allowed classes (PF_INVALID_START /
 * PF_INVALID_GOAL; a partial query may aim at any goal).
 *
 * Supported with a filter: A*, weighted A*, Dijkstra, BFS (steps), greedy, pf_search_tree,
 * partial paths (bounded as without a filter: the context labels the start's component for the
 * unit's size and filter, kept across queries and edits, so an unreachable goal is answered by a
 * scan around it and a search to the nearest reachable cell; a static context has no labels and
 * floods the start's component instead),
 * sliced searches, edits (a sliced search restarts on the new version), batches (queries with
 * different filter pointers are never merged).
 * JPS, JPS+ and AUTO search by jump points when every class the filter allows has the same
 * multiplier M (on maps JPS supports: 8-connected, no cell multipliers): the cells of those
 * classes are one uniform grid whose steps cost M times the usual, exact. JPS jumps over bitmaps
 * of the allowed cells that a context builds on the first query of each class set and keeps for
 * up to 4 sets (rows and columns: about a quarter byte a cell each, 1.04 MiB on 2000x2000;
 * pf_ctx_jps_mem_size counts them), following the map's edits. A filter of one class uses that
 * class's own bitmaps and JPS+ distances; a JPS+ or AUTO query of several classes is answered by
 * JPS (pf_stats.algo = PF_ALGO_JPS: a jump-distance table per set would cost 16 bytes a cell and
 * a whole build). Different multipliers, partial queries, sized units under a filter and static
 * contexts with several classes are answered by A*, exact, with PF_DETAIL_FALLBACK (a partial
 * query whose goal is out of reach, in a context that labels the unit's components, says only
 * pf_stats.algo = A*: its second step, a plain A* to the cell found, is the same for every
 * algorithm asked).
 * Unit sizes: a unit of side K under a
 * filter stands where its K x K block holds only classes the filter allows, mixed ones included
 * (a hover tank half on the shore), the diagonal rule as for sizes without a filter, a step
 * priced by the class of the cell it enters (the block's top-left); a context remembers which
 * blocks are open per size and set of classes (1 byte a cell for each of the last 4 asked) and
 * labels their components as for sizes (a goal the unit cannot reach costs no flood), both
 * following edits. pf_grid_path_check and pf_path_repair (pf_repair.h) take the unit's filter and
 * size, flow fields their units' (pf_flow_desc.filter), a batch's groups squads of one filter.
 * Theta* takes a filter whose allowed classes share one multiplier (its segments are priced by
 * Euclidean length times it); a filter of several multipliers is refused with PF_UNSUPPORTED (a
 * segment across classes of different prices is not measured by its length), as are graphs.
 */
typedef struct pf_move_filter {
    uint8_t classes[32];     /* bit k of classes[k >> 3] (k & 7): the unit may enter class k; at
                                least one of 1..255, never 0 (blocked) */
    float   class_cost[256]; /* multiplier of a step into a cell of class k; 0 = 1; else > 0 and
                                finite (other values: PF_INVALID_ARGUMENT) */
} pf_move_filter;

/** Lets a filter's unit enter class `cls` (1..255) at multiplier `cost` (0 = 1). */
static inline void pf_move_filter_allow(pf_move_filter *f, uint8_t cls, float cost)
{
    f->classes[cls >> 3] = (uint8_t)(f->classes[cls >> 3] | (1u << (cls & 7u)));
    f->class_cost[cls] = cost;
}

typedef struct pf_search_desc {
    pf_algo         algo;           /* default PF_ALGO_ASTAR */
    pf_heur         heuristic;      /* default: the map's natural metric (see pf_heur) */
    uint32_t        heuristic_set;  /* PF_HEUR_MAX: bit mask of (1u << pf_heur) values (no other
                                     * bits; the callback's bit needs heuristic_fn; on graphs only
                                     * zero, Euclidean with coordinates, and the callback) */
    pf_heuristic_fn heuristic_fn;   /* PF_HEUR_CALLBACK */
    void           *heuristic_user;
    double          weight;         /* default 1; PF_ALGO_WASTAR, JPS and JPS+ multiply h by it (>= 1) */
    uint32_t        max_expansions; /* 0 = unlimited */
    double          max_cost;       /* 0 = unlimited; nodes with f beyond it are not searched (BFS: f counts steps),
                                       up to rounding: f past max_cost * (1 + 1e-9), so that the cost a
                                       search returned, asked again as max_cost, is found; not so
                                       Theta*, which prunes a cell by its own g + h while its
                                       successors may take g from its parent, and prices its path
                                       after pulling it straight: its answer at its own cost may be
                                       PF_LIMIT_REACHED (ask about 1% more) */
    pf_tie          tie;            /* default PF_TIE_DEEPER (BFS: PF_TIE_FIFO) */
    uint64_t        tie_seed;       /* PF_TIE_RANDOM */
    int             reverse;        /* graphs: search the reverse arcs (costs to the start) */
    int             waypoints;      /* grids: the path holds only the start, the cells where it turns
                                       and the goal (path_len in pf_stats counts them): each leg
                                       repeats one step (dx, dy) of the grid's x, y, and a cell is
                                       kept where that step changes. On hex grids that is the
                                       offset coordinates' step, not the hex direction: a leg of
                                       (0, -1) zigzags NE and NW by its rows' parity (walk it so,
                                       as pf_path_check does), and a straight NE line, whose
                                       (dx, dy) alternates, keeps every cell */
    uint32_t        unit_size;      /* square grids: the unit covers the unit_size x unit_size cells
                                       whose top-left cell is its node (pf_grid_clearance); 0 = 1,
                                       at most PF_UNIT_SIZE_MAX. JPS, JPS+ and AUTO run JPS on
                                       the cells open to the unit (pf_stats.algo) */
    int             partial;        /* grids: a goal that cannot be reached (blocked, walled off, or
                                       past max_expansions / max_cost) gives PF_PARTIAL and the path
                                       to the reachable cell nearest it (see pf_search) */
    const pf_move_filter *filter;   /* [opt] grids: the classes the unit may enter and their step
                                       multipliers (MOVEMENT TYPES); NULL = the start's class, the
                                       map's costs. Read while the search runs: it must stay valid
                                       and unchanged until the search (or batch) is done */
} pf_search_desc;

/** Effective values of a desc (defaults filled in) for `map`. NULL desc means all defaults. */
PF_API pf_search_desc pf_search_desc_resolve(const pf_map *map, const pf_search_desc *desc);

/**
 * How a search was answered (bits of pf_stats.detail). The status says what the answer is (PF_OK,
 * PF_PARTIAL, PF_NO_PATH...); these say how it was reached, so that no substitution is silent and
 * none turns a valid answer into a status an integrator must remember to accept.
 */
typedef enum pf_detail {
    PF_DETAIL_FALLBACK    = 1u << 0, /* the algorithm asked cannot answer this query (JPS, JPS+ or
                                        AUTO's jump points on a unit size, a partial query, costs,
                                        a movement filter whose classes differ in multiplier, hex,
                                        a static context without tables): A* answered, exact */
    PF_DETAIL_ACCEL       = 1u << 1, /* AUTO: the accelerator answered */
    PF_DETAIL_ACCEL_STALE = 1u << 2, /* AUTO: an accelerator is attached but was made for another
                                        version of the map (an edit since): it was not used */
    PF_DETAIL_SHORT       = 1u << 3, /* AUTO: a short move, answered by A* (cheaper than any setup);
                                        with PF_DETAIL_ACCEL, its A* reached its cap first and the
                                        accelerator answered (pf_accel.h, QUERIES) */
    PF_DETAIL_PARTIAL     = 1u << 4, /* the path ends at the reachable cell nearest the goal
                                        (PF_PARTIAL) */
    PF_DETAIL_ACCEL_EDITED = 1u << 5, /* AUTO: the accelerator follows the map's edits by its diff
                                        (PF_ACCEL_EDITS_CHECK) but could not prove its answer on
                                        the edited map: JPS answered (A* where JPS does not
                                        apply, and for a short move, PF_DETAIL_SHORT), exact, in
                                        the same query */
    PF_DETAIL_ACCEL_DECLINED = 1u << 6 /* AUTO: an accelerator is attached and current, but its
                                        build left over half its subgoals uncontracted (an open
                                        map whose subgoals see far: pf_accel_info.core * 2 >
                                        subgoals), where it is slower than JPS: JPS answered (JPS+
                                        with a table, A* for a short move), exact */
} pf_detail;

typedef struct pf_stats {
    uint32_t expanded;   /* nodes taken off the open list and expanded (the goal is not: see pf_trace) */
    uint32_t pushed;     /* insertions into the open list (decrease-key not counted) */
    uint32_t reopened;   /* closed nodes put back on the open list */
    uint32_t path_len;   /* nodes on the path, start and goal included; 0 when none */
    double   cost;       /* path cost; INFINITY when no path */
    pf_algo  algo;       /* the search that answered: the one asked for, PF_ALGO_ASTAR after a
                            fallback, AUTO's pick (PF_ALGO_AUTO itself: the accelerator); the one
                            asked for when no search ran (a start and goal in different terrain
                            classes or, for a sized unit, components: PF_NO_PATH at once) */
    uint32_t detail;     /* pf_detail bits */
} pf_stats;

/**
 * Output path in caller memory. Either or both of `nodes` and `points` (grids only) may be given.
 * When the path does not fit, nothing is written, `len` is set to the length needed and the call
 * returns PF_BUFFER_TOO_SMALL (the search result stays in the context: call pf_search_path again).
 */
typedef struct pf_path {
    uint32_t *nodes;     /* [opt][len: capacity] */
    pf_point *points;    /* [opt][len: capacity] */
    uint32_t  capacity;
    uint32_t  len;
} pf_path;

/**
 * What a context writes once at creation so that its pages are mapped then, not by the page faults
 * of its first searches (on a 2000x2000 map a first 50-cell query otherwise takes about 100 faults,
 * three times its search time). Only the generation stamps must start at zero; the rest is written
 * for the faults alone.
 */
typedef enum pf_prefault {
    PF_PREFAULT_DEFAULT = 0, /* contexts: PF_PREFAULT_RECORDS; batches: PF_PREFAULT_ALL */
    PF_PREFAULT_RECORDS,     /* the node records (stamps, g, open-list positions, parents) */
    PF_PREFAULT_ALL,         /* the records and the open list's initial capacity */
    PF_PREFAULT_NONE         /* nothing: the records' pages are taken as searches first write
                                them (16 zeroed pages made with the context, then pages mapped on
                                first touch with the default allocator on Linux, else the
                                allocator's memory cleared a page at a time): quick to create, a
                                first short search as fast as a warm one, and the context holds
                                what its searches touched */
} pf_prefault;

typedef struct pf_jps_table pf_jps_table; /* pf_jps.h */
typedef struct pf_accel pf_accel;         /* pf_accel.h */

typedef struct pf_ctx_desc {
    pf_allocator allocator;         /* pf_ctx_create only; all zero = malloc */
    /* Open-list entries. pf_ctx_create: the initial size, doubled on demand; 0 = from the map size.
     * pf_ctx_init_static: the fixed size; 0 = one per node, which no search can fill (the open list
     * holds a node at most once). Smaller saves 16 bytes per entry, at the price of
     * PF_CAPACITY_EXCEEDED from a search whose frontier outgrows it. More than the map's nodes is
     * taken as the node count (never used). */
    uint32_t     heap_capacity;
    /* [opt] JPS / JPS+ data for `map` (pf_jps.h), attached as pf_ctx_use_jps_table does. A static
     * context runs JPS only with it (the estimate then includes the JPS search state). */
    const pf_jps_table *jps_table;
    /* [opt] The accelerator for `map` (pf_accel.h), attached as pf_ctx_use_accel does; pf_ctx_create
     * only (its query state grows with use, so pf_ctx_init_static refuses it: PF_UNSUPPORTED). */
    const pf_accel *accel;
    /* What creation writes so first searches take no page faults; default PF_PREFAULT_RECORDS
     * (pf_ctx_init_static: the caller's memory is written as it is carved, whatever this says). */
    pf_prefault  prefault;
    /* [opt] JPS and JPS+ on a context given no table build their bitmaps and distances themselves,
     * on their first search of a terrain class (on big maps on OpenMP threads): this hook runs
     * them on the engine's threads instead (pf_parallel.h). */
    pf_parallel_for parallel;
} pf_ctx_desc;

/**
 * Creates a context for `map` (node records for every node of the map).
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_OUT_OF_MEMORY, PF_WRONG_MAP (desc->jps_table or
 *         desc->accel made for another map).
 */
PF_API pf_status pf_ctx_create(const pf_map *map, const pf_ctx_desc *desc, pf_ctx **out);

/*
 * ENGINE-OWNED MEMORY. A context can live in memory the caller owns (zstd's estimate + static
 * init): ask pf_ctx_estimate for the bytes, hand them to pf_ctx_init_static, and the context never
 * allocates, at creation or after. Its open list has a fixed size (desc->heap_capacity); a search
 * that would grow it returns PF_CAPACITY_EXCEEDED. JPS and JPS+ run only with desc->jps_table
 * holding what they need (the bitmaps; JPS+ also the distances); without it they run A* and return
 * A* (PF_OK with PF_DETAIL_FALLBACK), as on maps JPS does not support, since building the data would
 * allocate.
 * pf_ctx_use_jps_table attaches or detaches tables later only on a context created with one.
 *
 *     size_t need = pf_ctx_estimate(map, NULL);
 *     void *mem = engine_alloc(need);                       // any alignment
 *     pf_ctx *ctx;
 *     if (pf_ctx_init_static(mem, need, map, NULL, &ctx) == PF_OK) {
 *         pf_search(ctx, a, b, NULL, &path, &st);           // as with any context
 *         pf_ctx_destroy(ctx);                              // frees nothing; mem is the caller's
 *     }
 *     engine_free(mem);
 */

/**
 * Bytes a context for `map` needs in caller memory (pf_ctx_init_static with the same desc):
 * records, the fixed open list, the JPS search state when desc->jps_table is set, and 63 bytes
 * of alignment slack. 0 for a NULL or empty map.
 * @param desc [opt] NULL: every node fits in the open list, no JPS table.
 */
PF_API size_t    pf_ctx_estimate(const pf_map *map, const pf_ctx_desc *desc);
/**
 * Creates a context for `map` inside `mem` (`size` bytes, any alignment), allocating nothing then
 * or later; desc->allocator is ignored. The memory must stay valid, and not be touched by the
 * caller, until pf_ctx_destroy, which frees nothing: the memory stays the caller's. Call it anyway
 * (debug builds count a map's contexts, see pf_map.h).
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_BUFFER_TOO_SMALL (size less than the context needs past
 *         the first 64-byte boundary of `mem`: pf_ctx_estimate, whose last 63 bytes are that
 *         slack, always suffices), PF_WRONG_MAP (desc->jps_table made for another map),
 *         PF_UNSUPPORTED (desc->accel set).
 */
PF_API pf_status pf_ctx_init_static(void *mem, size_t size, const pf_map *map,
                                    const pf_ctx_desc *desc, pf_ctx **out);
/** NULL-safe. Debug builds stop with a message on a second destroy or a later use (pf_map.h). A
 *  context made by pf_ctx_init_static frees nothing: its memory is the caller's. */
PF_API void      pf_ctx_destroy(pf_ctx *ctx);
/** Map the context was made for. */
PF_API const pf_map *pf_ctx_map(const pf_ctx *ctx);
/** Bytes per node of the node records (excluding the open list). */
PF_API size_t    pf_ctx_bytes_per_node(const pf_ctx *ctx);
/** Total bytes held by the context now (records + open list). */
PF_API size_t    pf_ctx_mem_size(const pf_ctx *ctx);

/**
 * Finds a path from `start` to `goal` (no clearing, no allocation but open-list growth).
 *
 * @param desc  [opt] NULL for defaults (A*, the map's metric, no limits).
 * @param path  [opt] receives nodes start..goal; `path->len` is set even on PF_BUFFER_TOO_SMALL.
 * @param stats [opt] expansions, pushes, cost, path length (filled on every return).
 * @return PF_OK (JPS asked where it cannot run is answered by A*: PF_OK with PF_DETAIL_FALLBACK in
 *         stats->detail), PF_NO_PATH, PF_LIMIT_REACHED, PF_PARTIAL, or an error: PF_INVALID_ARGUMENT, PF_INVALID_START, PF_INVALID_GOAL,
 *         PF_OUT_OF_MEMORY, PF_BUFFER_TOO_SMALL, PF_WRONG_MAP (a JPS table that could not follow an
 *         edit), PF_COST_OVERFLOW (the path found sums to infinity: graph weights near DBL_MAX;
 *         for the exact searches every path does, for BFS and greedy the one they chose may while
 *         another is finite; no path or cost is returned), PF_MAP_BUSY (the map is being edited:
 *         pf_grid_apply_edits), PF_UNSUPPORTED (unit_size or partial on a map without them).
 *
 * Unit sizes: with unit_size K a node is open when pf_grid_clearance is at least K and its class
 * is the start's, and a diagonal step needs both side nodes open (on maps without corner
 * cutting): exactly the search on the map where a cell is open only when its KxK block is one
 * open class (under a filter: only classes the filter allows, MOVEMENT TYPES). A start or goal the
 * unit cannot stand on (its block not all open and of one class) is PF_INVALID_START /
 * PF_INVALID_GOAL; without a filter, a goal whose block is all of another class than the start's is
 * PF_NO_PATH, as for one-cell units; under a filter, one it does not allow is PF_INVALID_GOAL.
 *
 * Partial paths: with desc->partial a goal that is blocked, too narrow for the unit, of another
 * class, in another component, or not reached within max_expansions / max_cost gives PF_PARTIAL
 * (not a failure), PF_DETAIL_PARTIAL, stats->cost and the path to the reachable cell nearest the
 * goal: least map metric to the goal (octile, Manhattan or hex distance), then least metric to
 * the start, then least node id; the path to it is a least-cost one (equal costs: the tie rule;
 * left at default, A*'s, even when BFS was asked). A goal known to be unreachable (blocked, too
 * narrow, another class or component) is answered in two steps whatever algorithm was asked: that
 * cell, among those the unit can stand on in the start's component, is found by a scan around the
 * goal (pf_grid_nearest's), then A* searches to it as to a goal (Theta*: its any-angle search,
 * to the same cell), so the query costs about what a query to that cell does (a click on a wall
 * 20 cells away: 20 expansions, not the whole component). A unit larger than a cell, or under a movement filter, is read against its
 * own components, which the context labels for its size and filter (the first such query labels
 * the whole map, row by row; edits are followed), so the cells found are ones it can get to;
 * in a context in caller memory, which has no room for labels, a sized unit is read against the
 * one-cell components (cells too narrow a way leads to make its search flood the component) and
 * a filtered one floods; such a flood ends on a cell at the same least metric to the goal, but
 * among the cells tied there it takes the least cost from the start (as expanded), not the least
 * metric to the start, so a heap context and a static one may end such a query on different
 * cells equally near the goal. With
 * a limit (max_expansions / max_cost) the answer is the nearest cell expanded before it, by A*
 * where JPS or AUTO was asked: least metric to the goal, then least cost from the start (as
 * expanded), then least node id. The goal must still be on the map (PF_INVALID_GOAL).
 */
PF_API pf_status pf_search(pf_ctx *ctx, uint32_t start, uint32_t goal, const pf_search_desc *desc,
                           pf_path *path, pf_stats *stats);

/**
 * Sliced search (Detour's recipe): begin, then step with an expansion budget until the status is no
 * longer PF_IN_PROGRESS, then read the path. A step that returns PF_IN_PROGRESS did exactly its
 * budget (0 = no limit); for AUTO answered by the accelerator a unit of it is an expansion or 16
 * cells of path written (pf_accel.h, QUERIES). The context holds the search between calls; starting
 * another search on the same context abandons it. If the map was edited between two steps
 * (pf_grid_apply_edits), the next step starts the search again on the new version, from scratch:
 * a search never mixes two versions.
 * @return begin: PF_IN_PROGRESS or an error; step: PF_IN_PROGRESS, PF_OK, PF_NO_PATH, PF_LIMIT_REACHED,
 *         PF_OUT_OF_MEMORY, PF_MAP_BUSY, and after an edit the errors of begin (PF_INVALID_START
 *         when the start is now blocked, say).
 */
PF_API pf_status pf_search_begin(pf_ctx *ctx, uint32_t start, uint32_t goal, const pf_search_desc *desc);
PF_API pf_status pf_search_step(pf_ctx *ctx, uint32_t max_expansions);
/**
 * Writes the path and stats of the last finished search. After pf_search_tree or a flow field
 * (pf_flow.h), which have no goal: their status, and no path (len 0, stats cost INFINITY).
 * @return its final status, PF_INVALID_ARGUMENT (ctx NULL, or no search ran on it),
 *         PF_BUFFER_TOO_SMALL, PF_MAP_CHANGED when the map was edited since the
 *         search ran (read the path before editing), or PF_IN_PROGRESS while a sliced search has
 *         not finished (nothing written then: neither the path nor the stats; not a failure by
 *         pf_failed, so test for it).
 */
PF_API pf_status pf_search_path(pf_ctx *ctx, pf_path *path, pf_stats *stats);

/**
 * Full Dijkstra from `source` (goal-less; honours desc->reverse, max_cost, max_expansions and
 * trace). Afterwards pf_ctx_cost and pf_ctx_parent read the shortest-path tree.
 * Ties are broken deterministically: the tree depends only on the map and the source.
 * With max_cost the tree is complete within it: nodes farther read INFINITY, and that is PF_OK
 * (the usual "every node within cost C"); max_expansions running out is PF_LIMIT_REACHED.
 * @return PF_OK (tree complete, within max_cost when set), PF_LIMIT_REACHED, or an error.
 */
PF_API pf_status pf_search_tree(pf_ctx *ctx, uint32_t source, const pf_search_desc *desc);
/** Cost of `node` in the last search (INFINITY when it was not reached, or reached only by paths
 *  whose cost sums to infinity: graph weights near DBL_MAX; pf_ctx_parent then names a parent). */
PF_API double    pf_ctx_cost(const pf_ctx *ctx, uint32_t node);
/** Parent of `node` in the last search (PF_NODE_NONE for the source or an unreached node). */
PF_API uint32_t  pf_ctx_parent(const pf_ctx *ctx, uint32_t node);
/** Non-zero when `node` was expanded (settled) by the last search. */
PF_API int       pf_ctx_closed(const pf_ctx *ctx, uint32_t node);
/**
 * Records, into `trace`, the nodes each later search on `ctx` takes off the open list (render's
 * expansion order, tests). An output, so it is attached to the context rather than carried in
 * pf_search_desc: the trace is reset when each search begins and kept until the next; NULL stops
 * recording. `trace` must stay valid while attached. Batches take no trace (their workers'
 * contexts are their own).
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL ctx, or a capacity without nodes).
 */
PF_API pf_status pf_ctx_use_trace(pf_ctx *ctx, pf_trace *trace);

/** Names for the CLI: "astar", "wastar", "dijkstra", "bfs", "greedy", "jps", "jps+", "auto",
 *  "theta". */
PF_API const char *pf_algo_name(pf_algo a);
/**
 * Parses a name as above (also "ucs" for Dijkstra, "jpsplus" for JPS+); returns PF_ALGO_UNKNOWN
 * for NULL or an unknown name. (Before 0.2 it returned PF_ALGO_DEFAULT, that is A*; callers that
 * compared with PF_ALGO_DEFAULT must compare with PF_ALGO_UNKNOWN.)
 */
PF_API pf_algo     pf_algo_parse(const char *name);

#ifdef __cplusplus
}
#endif
#endif
