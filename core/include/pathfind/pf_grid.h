/*
 * pf_grid.h - grid maps: square 4/8-connected and hex, with terrain classes and cost multipliers.
 *
 * CELLS. Each cell has a terrain class (uint8): 0 is blocked; any other value is passable. A step is
 * allowed only between two cells of the same class (the Moving AI rule: ground, water and trees are
 * separate classes, so a walker never enters water). On user-built grids, use class 1 everywhere
 * that is open. A search may widen that rule for its unit: pf_search_desc.filter names the classes
 * it may enter and a cost multiplier for each (pf_search.h, MOVEMENT TYPES).
 *
 * MOVES. PF_MOVES_4: N E S W, cost 1. PF_MOVES_8_NO_CUT: plus diagonals of cost sqrt(2), a diagonal
 * needs both side cells passable (the Moving AI convention). PF_MOVES_8_CUT: diagonals need only
 * the target cell (with a filter, "passable" reads "of a class the filter allows"). PF_MOVES_HEX: six neighbours, cost 1, "odd-r" offset layout: odd rows are
 * shifted half a cell right; neighbours of (x, y) are (x-1,y) (x+1,y) and, on even rows,
 * (x-1,y-1) (x,y-1) (x-1,y+1) (x,y+1), on odd rows (x,y-1) (x+1,y-1) (x,y+1) (x+1,y+1).
 *
 * COSTS. Optional per-cell multipliers (> 0, finite): a step into cell c costs base * cost[c], where
 * base is 1 or sqrt(2). Heuristics are scaled by the smallest multiplier so they stay admissible.
 * A grid whose passable cells all cost 1 is unweighted and keeps no multipliers at all, a blocked
 * cell's included: a class edit that opens a blocked cell gives it the multiplier it was given
 * when the grid is weighted at that moment, and 1 when it is unweighted then (an edit that brings
 * every passable cell back to 1 drops the multipliers of blocked cells too, however long ago they
 * were set). An edit that opens a cell and means its cost sets both (what = PF_EDIT_CLASS |
 * PF_EDIT_COST).
 *
 * Grids are never expanded into edge lists: neighbours come from the cell array, which is stored
 * with a one-cell blocked border so the search needs no bounds checks.
 *
 *     pf_map *map;
 *     pf_diag diag;
 *     if (pf_grid_load_movingai("arena.map", NULL, &map, &diag) != PF_OK) puts(diag.msg);
 *     uint32_t a = pf_grid_node(map, 1, 11), b = pf_grid_node(map, 1, 12);
 *
 * EDITS. Between runs (pf_map.h, LIVING MAPS) cells can be given a new class and/or cost:
 *
 *     pf_grid_edit house = { .rect = {120, 80, 4, 4}, .cls = 0 };         // a 4x4 building
 *     pf_edit_report rep;
 *     if (pf_grid_apply_edits(map, &house, 1, &rep) == PF_OK)            // between frames
 *         printf("version %llu, %u cells changed\n", (unsigned long long)rep.version, rep.changed);
 *     if (pf_grid_path_changed(map, path_version, path, path_len) != PF_NODE_NONE) replan();
 *
 * The edited map answers every query exactly as a map freshly created from the same cells would
 * (same costs, same paths, same fingerprint); only component labels (pf_grid_component) may be
 * numbered differently. Edit cost grows with what changes: the cells themselves, their 64x64 tiles'
 * hashes, the components that were cut or joined (a search over the smaller side), and the JPS+
 * jump distances along the rows, columns and diagonals the change reaches.
 *
 * THREAD SAFETY: see pf_map.h (immutable between edits; edits at sync points).
 */
#ifndef PATHFIND_PF_GRID_H
#define PATHFIND_PF_GRID_H

#include "pf_map.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pf_moves {
    PF_MOVES_DEFAULT = 0, /* PF_MOVES_8_NO_CUT */
    PF_MOVES_4,
    PF_MOVES_8_NO_CUT,
    PF_MOVES_8_CUT,
    PF_MOVES_HEX
} pf_moves;

/** Largest width or height (keeps x, y in int32); the cells are bounded too: (width + 2) *
 *  (height + 2) < PF_MAX_NODES (a grid keeps a border of one cell round it), so a square grid is
 *  at most 32765 x 32765, and one 32768 wide at most 32764 high. */
#define PF_GRID_MAX_SIDE 32768u
/** Largest .map file pf_grid_load_movingai reads: PF_GRID_MAX_SIDE rows of PF_GRID_MAX_SIDE cells
 *  and CR LF, plus 64 KiB of header. A larger file, or a stream that runs past it, is PF_TOO_LARGE. */
#define PF_GRID_MAX_FILE_BYTES ((uint64_t)PF_GRID_MAX_SIDE * (PF_GRID_MAX_SIDE + 2u) + 65536u)

typedef struct pf_grid_desc {
    uint32_t       width, height;   /* required, 1..PF_GRID_MAX_SIDE, (width+2)*(height+2) < PF_MAX_NODES */
    pf_moves       moves;           /* default PF_MOVES_8_NO_CUT */
    const uint8_t *cells;           /* [opt][len: width*height] terrain class, 0 = blocked; NULL = all class 1 */
    const float   *costs;           /* [opt][len: width*height] multipliers > 0; NULL = uniform 1 */
    pf_allocator   allocator;       /* all zero = malloc */
} pf_grid_desc;

/**
 * Builds a grid map from arrays (copied).
 * @return PF_OK, PF_INVALID_ARGUMENT (a zero side, a non-positive or non-finite cost),
 *         PF_TOO_LARGE (a side over PF_GRID_MAX_SIDE, or more cells than PF_MAX_NODES allows),
 *         PF_OUT_OF_MEMORY.
 */
PF_API pf_status pf_grid_create(const pf_grid_desc *desc, pf_map **out);

/* Options for the Moving AI loader. */
typedef struct pf_grid_load_desc {
    pf_moves     moves;             /* default PF_MOVES_8_NO_CUT */
    /* [opt] multiplier per terrain character, indexed by the character ('S' = swamp, say); 0 entries
     * mean 1. When any entry is set the map is weighted. */
    float        char_cost[128];
    pf_allocator allocator;
} pf_grid_load_desc;

/**
 * Loads a Moving AI .map file ("type octile", "height H", "width W", "map", then H rows of W chars).
 *
 * Terrain characters (the benchmark's own rule): '.' 'G' 'S' ground (class 1), 'W' water (class 2),
 * 'T' trees (class 3), '@' 'O' out of bounds (blocked). CRLF line endings and a missing final
 * newline are accepted; anything else malformed is PF_PARSE_ERROR with the line in `diag`.
 *
 * @param desc [opt] NULL for defaults.
 * @param diag [opt] receives the reason on failure ("FILE:LINE:COL: message").
 * @return PF_OK, PF_IO_ERROR, PF_PARSE_ERROR, PF_TOO_LARGE, PF_OUT_OF_MEMORY, PF_INVALID_ARGUMENT.
 */
PF_API pf_status pf_grid_load_movingai(const char *path, const pf_grid_load_desc *desc,
                                       pf_map **out, pf_diag *diag);
/** The same from memory; `name` [opt] prefixes messages. */
PF_API pf_status pf_grid_parse_movingai(const char *text, size_t len, const char *name,
                                        const pf_grid_load_desc *desc, pf_map **out, pf_diag *diag);

PF_API uint32_t pf_grid_width(const pf_map *map);   /* 0 if not a grid */
PF_API uint32_t pf_grid_height(const pf_map *map);
PF_API pf_moves pf_grid_moves(const pf_map *map);
/** Non-zero when the grid has cost multipliers other than 1. */
PF_API int      pf_grid_weighted(const pf_map *map);
/** Node of (x, y), or PF_NODE_NONE when outside the grid (or not a grid). */
PF_API uint32_t pf_grid_node(const pf_map *map, int32_t x, int32_t y);
/** Coordinates of a node; (-1, -1) when out of range. */
PF_API pf_point pf_grid_point(const pf_map *map, uint32_t node);
/** Terrain class of (x, y); 0 when blocked or outside. */
PF_API uint8_t  pf_grid_class(const pf_map *map, int32_t x, int32_t y);
/** Cost multiplier of (x, y); 0 when outside. */
PF_API float    pf_grid_cost(const pf_map *map, int32_t x, int32_t y);
/**
 * Reads the cells of rectangle `r` back, row-major.
 * @param classes [opt][len: w*h] terrain classes.
 * @param costs   [opt][len: w*h] multipliers (1 on unweighted grids).
 * @return PF_OK, PF_INVALID_ARGUMENT (not a grid, or `r` not inside it).
 */
PF_API pf_status pf_grid_read(const pf_map *map, pf_rect r, uint8_t *classes, float *costs);
/** Terrain class of a Moving AI character ('.' 'G' 'S' 1, 'W' 2, 'T' 3, '@' 'O' 0); -1 when unknown. */
PF_API int      pf_grid_terrain_class(char ch);

/* ---- unit sizes ----------------------------------------------------------------------------- */

/** Largest unit side a search takes (pf_search_desc.unit_size) and the cap of pf_grid_clearance. */
#define PF_UNIT_SIZE_MAX 32u

/**
 * Clearance of (x, y): the side K of the largest KxK block of cells of one open class whose
 * top-left cell is (x, y), at most PF_UNIT_SIZE_MAX; 0 for blocked or outside cells. A unit of
 * size K may stand on (x, y) when this is at least K. Every grid keeps it, 1 byte per cell (the
 * annotated-A* idea of Harabor and Botea, one byte serving every class because a block is of its
 * top-left cell's class), built with the map and kept up to date by pf_grid_apply_edits. O(1).
 */
PF_API uint8_t pf_grid_clearance(const pf_map *map, int32_t x, int32_t y);

/* ---- connected components ------------------------------------------------------------------- */

/**
 * Component of (x, y): cells with the same non-zero id are connected under the move rule (and then
 * of the same class); 0 for blocked or outside cells. Ids are arbitrary: an edit may renumber
 * them, and an edited map may number them differently from a fresh one. O(1). This, same_component
 * and component_count answer 0 while an edit that ran out of memory has dropped the labels
 * (pf_grid_apply_edits: its next call with an edit labels them again).
 */
PF_API uint32_t pf_grid_component(const pf_map *map, int32_t x, int32_t y);
/** Non-zero when nodes `a` and `b` are passable and connected (a path exists). O(1). */
PF_API int      pf_grid_same_component(const pf_map *map, uint32_t a, uint32_t b);
/** Number of connected components of passable cells. */
PF_API uint32_t pf_grid_component_count(const pf_map *map);

/** What pf_grid_nearest looks for; zero-initialised: any open cell, one cell wide, anywhere. */
typedef struct pf_nearest_desc {
    uint32_t unit_size;  /* the unit stands on the top-left cell of its unit_size x unit_size block,
                            all of one class (pf_grid_clearance >= unit_size); 0 = 1; past
                            PF_UNIT_SIZE_MAX no cell is found. On hex grids the block is in offset
                            coordinates (searches take one-cell units only there) */
    uint32_t cls;        /* the class it must stand on (1..255); 0 = any open class */
    uint32_t component;  /* a pf_grid_component id the cell must be in; 0 = any */
    uint32_t max_radius; /* look no further than this many cells from the point in x and in y (a
                            square box on every grid, hex ones included); 0 = the whole map */
} pf_nearest_desc;

/**
 * The node nearest (x, y) where a unit can stand: least distance by the map's metric (octile on
 * 8-connected grids, Manhattan on 4-connected, hex distance on hex grids), then least node id.
 * (x, y) may be any point, inside the map or not (a click on a wall, in water, off the edge).
 * For engines that snap clicks themselves; partial searches (pf_search_desc.partial) use the same
 * scan: rows outward from (x, y) as far as the answer's distance d, the cells of the class asked
 * 64 a load (any class: 8 a load), nothing else.
 * Returns PF_NODE_NONE when there is no such cell (or within max_radius), for a graph, or for a
 * component asked of a map whose labels are lost (an edit ran out of memory).
 */
PF_API uint32_t pf_grid_nearest(const pf_map *map, int32_t x, int32_t y, const pf_nearest_desc *desc);

/* ---- edits ---------------------------------------------------------------------------------- */

enum {
    PF_EDIT_CLASS = 1u << 0, /* set the terrain class (`cls` or `classes`) */
    PF_EDIT_COST = 1u << 1   /* set the cost multiplier (`cost` or `costs`) */
};

/** One edit: a rectangle of cells set to a class and/or cost (one value, or one per cell). */
typedef struct pf_grid_edit {
    pf_rect        rect;     /* inside the grid; w or h 0 = nothing to do */
    uint32_t       what;     /* PF_EDIT_CLASS | PF_EDIT_COST; 0 = PF_EDIT_CLASS */
    uint8_t        cls;      /* new class, 0 = blocked (unless `classes`) */
    float          cost;     /* new multiplier, > 0 and finite (unless `costs`) */
    const uint8_t *classes;  /* [opt][len: w*h] one class per cell, row-major (a footprint) */
    const float   *costs;    /* [opt][len: w*h] one multiplier per cell, row-major */
} pf_grid_edit;

typedef struct pf_edit_report {
    uint64_t version;        /* pf_map_version after the call */
    uint32_t changed;        /* cells whose class or cost changed */
    uint32_t comp_visited;   /* cells the component update visited (cut and joined pieces) */
    uint32_t jps_updated;    /* JPS+ jump distances recomputed, over every table that follows the map
                                (all 8 x interior cells of a table that computed them again) */
} pf_edit_report;

/**
 * Applies `edits` in order, in place, as one new map version. Call it at a sync point: no search,
 * batch run (pf_batch_prepare .. pf_batch_finish) or table build may be in progress on the map.
 * Everything the library keeps for the map follows before the call returns: components, the
 * fingerprint, JPS tables (shared and per context), first-move tables, contexts (a sliced search
 * in progress restarts on the new version at its next step), batches (pf_batch.h), listeners.
 * Setting a cost other than 1 on an unweighted grid makes it weighted (one pass over the map to
 * create the cost array); setting every cost back to 1 makes it unweighted again, as a fresh map.
 * An edit that changes nothing makes no new version.
 *
 * @param report [opt] what changed and what it cost.
 * @return PF_OK; PF_INVALID_ARGUMENT (not a grid, a rectangle not inside it, an unknown `what` bit,
 *         a cost not > 0 or not finite: nothing is changed); PF_MAP_BUSY (a search, run or edit is in
 *         progress on the map: nothing is changed); PF_OUT_OF_MEMORY (before any cell changed,
 *         nothing is changed; if derived data could not follow, the cells are edited and that data is
 *         dropped: components are then rebuilt by the next call with an edit (one that changes no cell too;
 *         until then pf_grid_component and its kin answer 0, and partial queries search the start's
 *         whole component), and a JPS or first-move table
 *         reports PF_WRONG_MAP until rebuilt).
 */
PF_API pf_status pf_grid_apply_edits(pf_map *map, const pf_grid_edit *edits, uint32_t count, pf_edit_report *report);

/**
 * Which paths broke: the index of the first node of `nodes` (a path found on map version `since`)
 * whose cell changed after that version, or whose step to the next node needs a changed cell (the
 * side cells of a diagonal step under PF_MOVES_8_NO_CUT); PF_NODE_NONE when the path is untouched.
 * An edit is logged as the bounding box of the cells it changed, and a cell in such a box counts as
 * changed (a footprint that changed only a ring's outline reports the paths through its middle
 * too: a replan too many, never one too few), while the log reaches back to `since` (the last
 * 4096 edited boxes); older versions are answered by 16x16 blocks (a changed block counts as
 * changed). O(len) where the path's blocks did not change; a node in a changed block reads the
 * log's boxes newer than `since`.
 * It reads the path's own cells: for one-cell units on grid-step paths. A KxK unit's path also
 * breaks when a change falls in a footprint (check pf_grid_clearance >= K on its nodes, or the
 * rectangles of pf_grid_changes_since against the footprints), and a waypoint path (Theta*,
 * pf_path_smooth) between its waypoints (pf_grid_line_of_sight on each segment).
 */
PF_API uint32_t pf_grid_path_changed(const pf_map *map, uint64_t since, const uint32_t *nodes, uint32_t len);
/**
 * The rectangles changed after version `since`, oldest first (from the edit log).
 * @param rects [opt][len: capacity]
 * @param count receives the number of rectangles, even on PF_BUFFER_TOO_SMALL.
 * @return PF_OK, PF_BUFFER_TOO_SMALL, PF_LIMIT_REACHED (the log no longer reaches back to `since`),
 *         PF_INVALID_ARGUMENT.
 */
PF_API pf_status pf_grid_changes_since(const pf_map *map, uint64_t since, pf_rect *rects, uint32_t capacity,
                                uint32_t *count);

/**
 * Parses one line of the EDITS text format: `rect X Y W H C` sets the W x H cells from (X, Y) to
 * the class of Moving AI terrain character C ('.' 'G' 'S' 'W' 'T' '@' 'O'). Blank lines and lines
 * starting with '#' give an empty edit (rect 0x0: nothing to do). A line's end (LF or CR LF) may be
 * included. `line` numbers messages.
 *
 * @param map     [opt] when given, the rectangle must lie inside it.
 * @param terrain [opt] receives C (0 for an empty edit).
 * @param diag [opt] "NAME:LINE:COL: message", e.g. "rectangle 1990 5 20 4 is partly outside the 2000x2000 map".
 * @return PF_OK, PF_PARSE_ERROR, PF_INVALID_ARGUMENT (outside the map).
 */
PF_API pf_status pf_grid_parse_edit(const pf_map *map, const char *text, size_t len, const char *name, uint32_t line,
                             pf_grid_edit *out, char *terrain, pf_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
