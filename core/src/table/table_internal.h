/* table_internal.h - layout of pf_table, shared by table.c and table_file.c (never installed). */
#ifndef PF_TABLE_INTERNAL_H
#define PF_TABLE_INTERNAL_H

#include <string.h>
#include "pathfind/pf_table.h"
#include "map/map_internal.h"

/*
 * Entries are stored in host byte order, row-major: entry (u, t) at data[(u * n + t) * width].
 * The two largest values of the width are reserved (pf__tab_none, pf__tab_self).
 */
struct pf_table {
    pf_allocator  alloc;
    const pf_map *map;      /* borrowed */
    uint64_t      version;  /* grids: the map version the rows describe (behind after a failed update) */
    pf__map_user  user;     /* grids: follows the map's edits (table.c) */
    pf_map       *old;      /* grids, during an edit: a copy of the cells before it */
    uint32_t      n;        /* nodes: rows and columns */
    uint32_t      width;    /* bytes per entry: 1, 2 or 4 */
    uint8_t      *data;     /* [n * n * width] */
    size_t        bytes;
};

static inline uint32_t pf__tab_none(uint32_t width)
{
    return width == 1 ? 0xFFu : width == 2 ? 0xFFFFu : 0xFFFFFFFFu;
}
static inline uint32_t pf__tab_self(uint32_t width) { return pf__tab_none(width) - 1u; }

static inline uint32_t pf__tab_load(const uint8_t *row, uint32_t width, uint32_t i)
{
    if (width == 1) return row[i];
    if (width == 2) {
        uint16_t v;
        memcpy(&v, row + (size_t)i * 2, 2);
        return v;
    }
    uint32_t v;
    memcpy(&v, row + (size_t)i * 4, 4);
    return v;
}
static inline void pf__tab_store(uint8_t *row, uint32_t width, uint32_t i, uint32_t v)
{
    if (width == 1) row[i] = (uint8_t)v;
    else if (width == 2) {
        uint16_t h = (uint16_t)v;
        memcpy(row + (size_t)i * 2, &h, 2);
    } else memcpy(row + (size_t)i * 4, &v, 4);
}
static inline const uint8_t *pf__tab_row(const pf_table *t, uint32_t u)
{
    return t->data + (size_t)u * t->n * t->width;
}

/* Entry width a table for `map` needs (1, 2 or 4): from the largest out-degree. */
uint32_t pf__table_width_for(const pf_map *map);
/* Allocates an empty table (entries uninitialised) for `map` with `width`. */
pf_status pf__table_alloc(const pf_map *map, const pf_allocator *alloc, uint32_t width, pf_table **out);
/* Grid tables follow their map's edits (pf_grid_apply_edits runs the incremental update). */
void pf__table_follow(pf_table *t);
/* The table is out of date (a grid edit it could not follow). */
static inline int pf__table_stale(const pf_table *t) { return t->map->kind == PF_MAP_GRID && t->version != t->map->version; }
/* Node reached from `u` by out-arc `k`, or PF_NODE_NONE when k is not a legal move of u. */
uint32_t pf__table_arc_target(const pf_map *map, uint32_t u, uint32_t k);

#endif
