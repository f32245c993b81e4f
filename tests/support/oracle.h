/* oracle.h - a plain Dijkstra, written apart from the library's search, for property tests.
 * It reads the map only through public accessors (pf_grid_class, pf_grid_cost, pf_graph_arcs), so a
 * bug in the engine's neighbour tables or records cannot hide in both. */
#ifndef PF_TEST_ORACLE_H
#define PF_TEST_ORACLE_H

#include <stdint.h>
#include "pathfind.h"

/* Cost of the cheapest path from start to goal (node ids), INFINITY when unreachable. */
double oracle_cost(const pf_map *map, uint32_t start, uint32_t goal);
/* Costs from start to every node (array of pf_map_node_count doubles, caller frees with free()).
 * `reverse`: graphs only, follow arcs backwards. */
double *oracle_all(const pf_map *map, uint32_t start, int reverse);
/* Cost of a given path (consecutive nodes must be legal moves); INFINITY when a step is illegal. */
double oracle_path_cost(const pf_map *map, const uint32_t *nodes, uint32_t len);

/* The same under a movement filter (pf_search_desc.filter): a step may enter any class the filter
 * allows and costs base * cell multiplier * class multiplier. NULL f: the rules above. */
double *oracle_all_filter(const pf_map *map, uint32_t start, int reverse, const pf_move_filter *f);
double oracle_path_cost_filter(const pf_map *map, const uint32_t *nodes, uint32_t len, const pf_move_filter *f);

/* The map's own metric between two cells, by which "nearest" is measured (pf_grid_nearest):
 * Manhattan on 4-connected grids, hex distance (odd-r rows) on hex grids, octile otherwise. */
double oracle_metric(pf_moves mv, pf_point a, pf_point b);
/* What a partial query from the point sp toward the point gp must answer, from costs `dist`
 * (oracle_all*, one per node of grid m): the cell with a finite cost at the least metric to gp,
 * then the least metric to sp, then the least node id (PF_NODE_NONE when no cell has a finite
 * cost); *best_m its metric to gp, *best_c its cost (both INFINITY when none). */
uint32_t oracle_nearest(const pf_map *m, const double *dist, pf_moves mv, pf_point gp, pf_point sp, double *best_m,
                        double *best_c);

#endif
