/*
 * pf_repair.h - paths that know when they break: after map edits (pf_grid_apply_edits), whether a
 * unit can still follow the path it was given, where it first cannot, and a repair that re-plans
 * only the broken stretch.
 *
 * A path here is what a search or a smoother delivered, for one unit: node ids of a square or hex
 * grid, each consecutive pair one grid step (A*, JPS, JPS+, AUTO, flow fields), a run of one grid
 * step repeated (waypoint paths, pf_search_desc.waypoints: on hex grids a run straight up or down
 * zigzags, each step a neighbour) or a straight segment between cell centres (Theta*,
 * pf_path_smooth). The check reads
 * the map as it is now, not its edit log (pf_grid_path_changed answers "did anything under it
 * change since version V", which also counts a wall that went away):
 *
 *     pf_path_check_desc tank = { .unit_size = 2, .filter = &tracks };   // filter [opt]
 *     uint32_t at = pf_grid_path_check(map, path, len, &tank);   // PF_NODE_NONE: still good
 *     if (at != PF_NODE_NONE)
 *         pf_path_repair(ctx, path, len, unit_index, &(pf_search_desc){ .unit_size = 2 }, &out, &info);
 *
 * Thread safety: the check reads the map only (any number of threads between edits); a repair
 * uses its context as pf_search does.
 */
#ifndef PATHFIND_PF_REPAIR_H
#define PATHFIND_PF_REPAIR_H

#include "pf_export.h"
#include "pf_search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* EXPERIMENTAL tier (pf_export.h): declared only where PF_EXPERIMENTAL_API is defined. */
#ifdef PF_EXPERIMENTAL_API

/** Who follows the path; zero-initialised: a one-cell unit of the class it stands on. */
typedef struct pf_path_check_desc {
    uint32_t unit_size; /* the unit stands on the top-left cell of its unit_size x unit_size block
                           (pf_grid_clearance); 0 = 1 */
    uint32_t cls;       /* the terrain class it moves on (1..255); 0 = the class of the path's first
                           node as the map is now; ignored with a filter */
    const pf_move_filter *filter; /* [opt] its movement type (pf_search.h, MOVEMENT TYPES): it may
                           stand where its block holds only classes the filter allows. A filter
                           pf_search refuses breaks the path at its first node */
} pf_path_check_desc;

/**
 * Whether the unit can still follow nodes[0..len): the index i of the first node it can no
 * longer stand on, or whose step to nodes[i + 1] it can no longer take (a grid step by the map's
 * move rule, diagonals without corner cutting needing both side cells where the map forbids
 * it; a longer leg that repeats one step, step by step by the same rule, or else, on square
 * grids, by pf_grid_line_of_sight for the unit's size, which for a filter reads every position
 * the segment crosses as the filter's rule does); PF_NODE_NONE when the whole path holds. A
 * node off the map, or on a hex grid two nodes joined by no run of one step, break it there.
 * O(len) for grid-step paths, O(cells crossed) for segments. PF_NODE_NONE for NULL or a graph.
 */
PF_API uint32_t pf_grid_path_check(const pf_map *map, const uint32_t *nodes, uint32_t len,
                                   const pf_path_check_desc *desc);

/** What pf_path_repair did. */
typedef struct pf_repair_info {
    uint32_t broken;  /* the first broken index at or after `at` (PF_NODE_NONE: nothing to repair) */
    uint32_t rejoin;  /* index of the old path where the repair rejoined it: the node after the
                         last break (the goal itself when the break is at its end) */
    double   bound;   /* the repaired path costs at most this much more than an optimal one, when
                         the path was optimal and the edits since it was found only blocked cells
                         and changed no multiplier on it (then the old path from `rejoin` on is
                         still optimal, and the optimum is at least the old cost): the searched
                         stretch's cost less the old one's. Not a bound when a multiplier on the
                         old path changed: its legs are priced at today's multipliers (the old ones
                         are gone), so a cost raised on the kept part, or on the stretch replaced,
                         is not counted (raised on the kept tail: 39 against an optimum of 12,
                         `bound` 2) */
    pf_stats stats;   /* the search that repaired it (expansions: what the repair cost) */
} pf_repair_info;

/**
 * Repairs the path of a unit standing at nodes[at]: the stretch from there to the first node
 * after the last break from which the old path holds (the rejoin point) is searched again with
 * `desc` (unit_size and algorithm as the unit was planned with; its partial flag is ignored), and
 * the old path from the rejoin point on is kept. The old path joins the rejoin point to the goal,
 * so the one is reachable exactly when the other is: the repair never costs a whole new query's
 * search from the unit to the goal, only one to the nearer rejoin point. The repaired path, from
 * nodes[at] to the goal, is written to `out` (grid steps for the searched stretch; the old nodes
 * after it). A path with no break is copied from `at` on. desc->filter and unit_size are the
 * unit's: the path is checked, and the stretch searched, by its rule, and the kept legs priced
 * with its multipliers (a straight or diagonal segment of a waypoint path by the cells it steps
 * into; another segment by its Euclidean length, as pf_path_smooth measures it). Without a filter
 * the unit is of the class nodes[at] has now, as pf_search takes its start's: a unit whose cell an
 * edit gave another class (ground flooded to water) is repaired as a unit of that class. A game
 * with movement types passes the unit's filter (for a one-class unit, a filter of that class),
 * and the repair then answers PF_INVALID_START.
 * @param out  path->len is set even on PF_BUFFER_TOO_SMALL (call again with room). out->nodes may
 *             be `nodes` itself (the unit's path repaired in place, given the room); on a failing
 *             status the nodes are left as they were.
 * @return PF_OK, PF_NO_PATH (the goal cannot be reached any more), PF_INVALID_START (the unit
 *         cannot stand on nodes[at] now), PF_INVALID_GOAL (nor on the goal), PF_INVALID_ARGUMENT,
 *         PF_BUFFER_TOO_SMALL, and what pf_search returns (a desc it refuses is refused first,
 *         with its status: a unit_size past PF_UNIT_SIZE_MAX, a size on a hex grid).
 */
PF_API pf_status pf_path_repair(pf_ctx *ctx, const uint32_t *nodes, uint32_t len, uint32_t at,
                                const pf_search_desc *desc, pf_path *out, pf_repair_info *info);

#endif /* PF_EXPERIMENTAL_API */

#ifdef __cplusplus
}
#endif
#endif
