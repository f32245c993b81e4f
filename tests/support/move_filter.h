/* move_filter.h - what the movement-type property tests read from and draw for a pf_move_filter:
 * written apart from the library's own reading of it, so that the tests check that reading. */
#ifndef PF_TEST_MOVE_FILTER_H
#define PF_TEST_MOVE_FILTER_H

#include <stdint.h>
#include "pathfind.h"

/* The class multipliers filters are drawn from; 0 means the default, 1. */
extern const float FILTER_MULTS[6];
#define FILTER_NMULTS (sizeof FILTER_MULTS / sizeof FILTER_MULTS[0])

/* Whether `f` lets a unit enter class `k` (never class 0, blocked). */
int filter_allows(const pf_move_filter *f, uint8_t k);
/* Whether every class `f` allows costs the same multiplier (0 counts as 1). */
int filter_uniform(const pf_move_filter *f);
/* A cell of a class `f` allows, drawn uniformly from the grid: 200 tries, then PF_NODE_NONE. */
uint32_t filter_allowed_cell(const pf_map *m, const pf_move_filter *f, uint64_t *rs);
/* A filter of a random non-empty subset of the classes {1, 2, 3}, each with a multiplier drawn
 * from FILTER_MULTS, or (unit_costs) the default multiplier and no draw. */
void filter_random(uint64_t *rs, pf_move_filter *f, int unit_costs);

#endif
