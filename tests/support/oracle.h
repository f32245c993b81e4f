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

#endif
