/*
 * pf_grid.h - grid maps: square 4/8-connected and hex, with terrain classes and cost multipliers.
 *
 * CELLS. Each cell has a terrain class (uint8): 0 is blocked; any other value is passable. A step is
 * allowed only between two cells of the same class (the Moving AI rule: ground, water and trees are
 * separate classes, so a walker never enters water). On user-built grids, use class 1 everywhere
 * that is open.
 *
 * MOVES. PF_MOVES_4: N E S W, cost 1. PF_MOVES_8_NO_CUT: plus diagonals of cost sqrt(2), a diagonal
 * needs both side cells passable (the Moving AI convention). PF_MOVES_8_CUT: diagonals need only
 * the target cell. PF_MOVES_HEX: six neighbours, cost 1, "odd-r" offset layout: odd rows are
 * shifted half a cell right; neighbours of (x, y) are (x-1,y) (x+1,y) and, on even rows,
 * (x-1,y-1) (x,y-1) (x-1,y+1) (x,y+1), on odd rows (x,y-1) (x+1,y-1) (x,y+1) (x+1,y+1).
 *
 * COSTS. Optional per-cell multipliers (> 0, finite): a step into cell c costs base * cost[c], where
 * base is 1 or sqrt(2). Heuristics are scaled by the smallest multiplier so they stay admissible.
 *
 * Grids are never expanded into edge lists: neighbours come from the cell array, which is stored
 * with a one-cell blocked border so the search needs no bounds checks.
 *
 *     pf_map *map;
 *     pf_diag diag;
 *     if (pf_grid_load_movingai("arena.map", NULL, &map, &diag) != PF_OK) puts(diag.msg);
 *     uint32_t a = pf_grid_node(map, 1, 11), b = pf_grid_node(map, 1, 12);
 *
 * THREAD SAFETY: see pf_map.h (immutable after creation).
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

/** Largest width or height (keeps x, y in int32 and cells within PF_MAX_NODES). */
#define PF_GRID_MAX_SIDE 32768u
/** Largest .map file pf_grid_load_movingai reads: PF_GRID_MAX_SIDE rows of PF_GRID_MAX_SIDE cells
 *  and CR LF, plus 64 KiB of header. A larger file, or a stream that runs past it, is PF_TOO_LARGE. */
#define PF_GRID_MAX_FILE_BYTES ((uint64_t)PF_GRID_MAX_SIDE * (PF_GRID_MAX_SIDE + 2u) + 65536u)

typedef struct pf_grid_desc {
    uint32_t       width, height;   /* required, 1..PF_GRID_MAX_SIDE, width*height < PF_MAX_NODES */
    pf_moves       moves;           /* default PF_MOVES_8_NO_CUT */
    const uint8_t *cells;           /* [opt][len: width*height] terrain class, 0 = blocked; NULL = all class 1 */
    const float   *costs;           /* [opt][len: width*height] multipliers > 0; NULL = uniform 1 */
    pf_allocator   allocator;       /* all zero = malloc */
} pf_grid_desc;

/**
 * Builds a grid map from arrays (copied).
 * @return PF_OK, PF_INVALID_ARGUMENT (zero or oversized sides, non-positive or non-finite cost),
 *         PF_TOO_LARGE, PF_OUT_OF_MEMORY.
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

#ifdef __cplusplus
}
#endif
#endif
