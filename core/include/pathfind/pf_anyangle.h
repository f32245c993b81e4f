/*
 * pf_anyangle.h - straight lines on grids: line of sight, path smoothing (string pulling) and, in
 * pf_search.h, the any-angle search PF_ALGO_THETA.
 *
 * THE LINE-OF-SIGHT RULE. A segment joins the centres of two cells. It is clear when every cell
 * whose interior it crosses is open to the unit (the start's terrain class; for a unit of size K,
 * a cell whose pf_grid_clearance is at least K, so the rule is the same one on the footprint's
 * positions), and, where it passes exactly through a cell corner, all four cells around that
 * corner are open. A segment that only touches a cell's corner does not enter it otherwise. This
 * is the grid's no-corner-cutting rule made continuous: one diagonal step is clear exactly when
 * PF_MOVES_8_NO_CUT allows it.
 *
 * COSTS. Smoothed and any-angle paths are measured by Euclidean length: a diagonal step is sqrt 2
 * as on the grid, so the smoothed length of a path never exceeds its grid cost on a map without
 * multipliers. Terrain multipliers are not integrated along segments: pf_path_smooth keeps only
 * segments that stay in the start's class and reports their Euclidean length; PF_ALGO_THETA
 * refuses weighted maps (PF_UNSUPPORTED).
 *
 * CORNER CUTTING. On PF_MOVES_8_CUT maps the grid allows diagonal steps this rule does not: a
 * smoothed or Theta* path may then keep such a step as a segment of its own, legal by the map's
 * move rule though not clear by the rule above.
 */
#ifndef PATHFIND_PF_ANYANGLE_H
#define PATHFIND_PF_ANYANGLE_H

#include <stdint.h>
#include "pf_export.h"
#include "pf_status.h"
#include "pf_map.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Non-zero when the segment between the centres of nodes `a` and `b` is clear for a unit of
 *  `unit_size` (0 = 1) standing on a's class (the rule above); 0 on bad arguments and hex grids. */
PF_API int pf_grid_line_of_sight(const pf_map *map, uint32_t a, uint32_t b, uint32_t unit_size);

typedef struct pf_smooth_desc {
    uint32_t unit_size; /* the unit the path was found for (pf_search_desc.unit_size); 0 = 1 */
} pf_smooth_desc;

/**
 * String pulling: turns a grid path `nodes[0 .. len)` (consecutive nodes adjacent, as pf_search
 * returns them) into waypoints joined by clear segments: from each waypoint the path is followed
 * as far as the segment to the next node stays clear, and the last node it reached becomes the
 * next waypoint. The first and last nodes are always kept. On maps with corner cutting a segment
 * may be one diagonal step of the path that cuts a corner, as the map's rule allows.
 *
 * @param out      [len: capacity] receives the waypoints; may be `nodes` itself (in place).
 * @param out_len  receives the number of waypoints (also on PF_BUFFER_TOO_SMALL: what is needed).
 * @param length   [opt] receives the Euclidean length of the waypoint path.
 * @return PF_OK, PF_INVALID_ARGUMENT (not a grid, NULL arrays, unit_size over PF_UNIT_SIZE_MAX,
 *         nodes off the map), PF_UNSUPPORTED (hex grids), PF_BUFFER_TOO_SMALL (nothing written past
 *         capacity; call again).
 */
PF_API pf_status pf_path_smooth(const pf_map *map, const uint32_t *nodes, uint32_t len, const pf_smooth_desc *desc,
                                uint32_t *out, uint32_t capacity, uint32_t *out_len, double *length);

#ifdef __cplusplus
}
#endif

#endif
