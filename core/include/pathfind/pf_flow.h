/*
 * pf_flow.h - flow fields: one search from a goal gives every cell its next step toward that goal,
 * for the many units that share it (a rally point, a building under attack).
 *
 * A flow field is a Dijkstra tree rooted at the goal and searched backwards, so each cell's cost is
 * the cost of moving from it to the goal (on a grid with multipliers a step costs the multiplier
 * of the cell it enters, as everywhere). It lives in a search context: the direction of a cell is
 * the stamp's direction bits, so the field takes no memory beyond the context's records, and the
 * context holds one field (or one search) at a time. Reading it is O(1) per cell.
 *
 * SLICED. pf_flow_begin starts the field; pf_search_step(ctx, budget) grows it by `budget`
 * expansions a call (0 = to the end) and returns PF_IN_PROGRESS until it is complete, then PF_OK
 * (also when max_cost cut it short: the cells beyond have no direction). A goal an edit blocked
 * meanwhile gives PF_INVALID_GOAL at the next step.
 * Cells are settled in order of cost, so a field cut off by max_cost or still in progress is
 * exact for every cell it already gives a direction. A map edit between steps restarts it (as for
 * any sliced search).
 *
 * SIZES. With unit_size K the field is that of a KxK unit (pf_search.h): cells where it cannot
 * stand have no direction; a goal where it cannot stand is PF_INVALID_GOAL.
 *
 * MOVEMENT TYPES. With a filter (pf_search.h) the field is that of units of that type, of any
 * size: each cell's cost is what such a unit pays from it to the goal (a step priced by the class
 * of the cell it enters), the same cost a filtered pf_search from the cell returns.
 *
 * DIRECTIONS. Square grids: 0..7 = N E S W NE SE SW NW (dx, dy: N = (0,-1), E = (1,0), NE =
 * (1,-1)); hex grids (odd-r): 0..5 = W E NW NE SW SE. PF_FLOW_GOAL at the goal, PF_FLOW_NONE where
 * the goal is not reached (walls, other components, beyond max_cost, not yet settled), and at
 * every cell once the map is edited after the field was made: its reads (pf_flow_dir, pf_flow_next,
 * pf_flow_cost) then answer PF_FLOW_NONE, PF_NODE_NONE and INFINITY everywhere, and only
 * pf_flow_export tells the edit apart (PF_MAP_CHANGED): build the field again after an edit.
 */
#ifndef PATHFIND_PF_FLOW_H
#define PATHFIND_PF_FLOW_H

#include <stddef.h>
#include <stdint.h>
#include "pf_export.h"
#include "pf_status.h"
#include "pf_map.h"
#include "pf_search.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PF_FLOW_GOAL 0xFEu
#define PF_FLOW_NONE 0xFFu

typedef struct pf_flow_desc {
    uint32_t unit_size; /* 0 = 1 (pf_search_desc.unit_size) */
    double   max_cost;  /* 0 = no limit; cells farther from the goal get PF_FLOW_NONE */
    const pf_move_filter *filter; /* [opt] the units' movement type (pf_search.h): the field of
                           units that may enter its classes at its multipliers; NULL = the goal's
                           class, the map's costs. Read while the field is built (every step) */
} pf_flow_desc;

/**
 * Starts the field of `goal` on grid context `ctx` (abandoning its search). Continue it with
 * pf_search_step. @return PF_IN_PROGRESS, or PF_INVALID_ARGUMENT (graph map, bad desc),
 * PF_INVALID_GOAL, PF_UNSUPPORTED (unit sizes on hex grids), PF_OUT_OF_MEMORY, PF_MAP_BUSY
 * (the map is being edited). A bad filter is PF_INVALID_ARGUMENT, as in pf_search.
 */
PF_API pf_status pf_flow_begin(pf_ctx *ctx, uint32_t goal, const pf_flow_desc *desc);

/** The whole field in one call: pf_flow_begin, then pf_search_step to the end. @return PF_OK (also
 *  when max_cost cut it), or what pf_flow_begin returns. */
PF_API pf_status pf_flow_build(pf_ctx *ctx, uint32_t goal, const pf_flow_desc *desc);

/** Direction of `node` toward the goal (see DIRECTIONS), PF_FLOW_GOAL or PF_FLOW_NONE. */
PF_API uint8_t pf_flow_dir(const pf_ctx *ctx, uint32_t node);
/** The node one step toward the goal; PF_NODE_NONE at the goal and where there is no direction. */
PF_API uint32_t pf_flow_next(const pf_ctx *ctx, uint32_t node);
/** Cost from `node` to the goal; INFINITY where there is no direction. */
PF_API double pf_flow_cost(const pf_ctx *ctx, uint32_t node);

/**
 * The dense field: dirs[node] for every node of the map (width x height bytes, row-major).
 * @return PF_OK, PF_INVALID_ARGUMENT (no field on ctx, NULL dirs), PF_BUFFER_TOO_SMALL (len under
 *         the node count: nothing written), PF_MAP_CHANGED (edited since the field was built).
 */
PF_API pf_status pf_flow_export(const pf_ctx *ctx, uint8_t *dirs, size_t len);

#ifdef __cplusplus
}
#endif

#endif
