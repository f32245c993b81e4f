/* nearest_internal.h - the nearest standable cell (nearest.c; never installed). */
#ifndef PF_NEAREST_INTERNAL_H
#define PF_NEAREST_INTERNAL_H

#include "map/map_internal.h"
#include "pathfind/pf_search.h"

/* Every cell at the least distance, n of them, in `groups` groups (at most PF__NEAR_TIES): each
 * cell its own while there are at most that many, else those in one octant around the point
 * together. A group is the ranges of its cells' coordinates, lo[g][a] to hi[g][a], along the axes a
 * of pf__grid_axes (x and y; on hex grids the cube coordinates q, r and s), so the distance to
 * a group is a lower bound to each of its cells. cell keeps the first PF__NEAR_TIES (padded
 * indices). */
enum { PF__NEAR_TIES = 8 };
typedef struct pf__near_ties {
    uint32_t n, groups;
    uint32_t cell[PF__NEAR_TIES];
    int32_t  lo[PF__NEAR_TIES][3], hi[PF__NEAR_TIES][3];
} pf__near_ties;

/* The padded index of the cell nearest (x, y) (any int32 point, inside the map or not) by `metric`
 * where a unit of side `size` can stand (class `cls`, 0 = any open class; clearance >= size), in
 * component `comp` (a pf__grid_comp value; 0 = any), within `max_radius` rings (0 = the whole map):
 * least distance, then least node id. PF_NODE_NONE when there is none; *dist [opt] its distance,
 * *ties [opt] every cell at that distance. `hint`: a padded cell known to count (within
 * max_radius), which bounds the scan in one pass, or PF_NODE_NONE. */
uint32_t pf__grid_nearest(const pf_map *m, int32_t x, int32_t y, uint8_t cls, uint8_t size, uint32_t comp,
                          pf_heur metric, uint32_t max_radius, uint32_t hint, double *dist, pf__near_ties *ties);
/* The same where `stands` says which padded cells count (a unit under a movement filter, in its
 * own components: search/size_comp.c's labels). */
uint32_t pf__grid_nearest_by(const pf_map *m, int32_t x, int32_t y, int (*stands)(void *user, const pf_map *m, uint32_t p),
                             void *user, pf_heur metric, uint32_t max_radius, uint32_t hint, double *dist,
                             pf__near_ties *ties);
/* The map's own metric, by which "nearest" is measured: Manhattan (4), hex, else octile. */
pf_heur  pf__grid_near_metric(const pf_map *m);

#endif
