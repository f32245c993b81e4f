/* nearest_internal.h - the nearest standable cell (nearest.c; never installed). */
#ifndef PF_NEAREST_INTERNAL_H
#define PF_NEAREST_INTERNAL_H

#include "map/map_internal.h"
#include "pathfind/pf_search.h"

/* The padded index of the cell nearest (x, y) (any int32 point, inside the map or not) by `metric`
 * where a unit of side `size` can stand (class `cls`, 0 = any open class; clearance >= size), in
 * component `comp` (a pf__grid_comp value; 0 = any), within `max_radius` rings (0 = the whole map):
 * least distance, then least distance to padded cell `from` (unless PF_NODE_NONE), then least
 * node id. PF_NODE_NONE when there is none; *dist [opt] its distance. `hint`: a padded cell known
 * to count (within max_radius), which bounds the scan in one pass, or PF_NODE_NONE. */
uint32_t pf__grid_nearest(const pf_map *m, int32_t x, int32_t y, uint8_t cls, uint8_t size, uint32_t comp,
                          pf_heur metric, uint32_t max_radius, uint32_t hint, uint32_t from, double *dist);
/* The same where `stands` says which padded cells count (a unit under a movement filter, in its
 * own components: search/size_comp.c's labels). */
uint32_t pf__grid_nearest_by(const pf_map *m, int32_t x, int32_t y, int (*stands)(void *user, const pf_map *m, uint32_t p),
                             void *user, pf_heur metric, uint32_t max_radius, uint32_t hint, uint32_t from,
                             double *dist);
/* The map's own metric, by which "nearest" is measured: Manhattan (4), hex, else octile. */
pf_heur  pf__grid_near_metric(const pf_map *m);

#endif
