/* anyangle.c - line of sight and string pulling on grids (pf_anyangle.h). */
#include "search/anyangle_internal.h"
#include "pathfind/pf_anyangle.h"

int pf_grid_line_of_sight(const pf_map *map, uint32_t a, uint32_t b, uint32_t unit_size)
{
    /* square geometry: hex grids' offset rows have no such straight lines */
    if (!map || map->kind != PF_MAP_GRID || map->moves == PF_MOVES_HEX || unit_size > PF_UNIT_SIZE_MAX) return 0;
    uint32_t ia = pf__map_inner(map, a), ib = pf__map_inner(map, b);
    if (ia == PF_NODE_NONE || ib == PF_NODE_NONE) return 0;
    const pf__grid_view v = pf__grid_view_of(map);
    pf__unit u = {map->cls[ia], (uint8_t)(unit_size ? unit_size : 1u)};
    return u.k && pf__grid_los(&v, ia, ib, u);
}

pf_status pf_path_smooth(const pf_map *map, const uint32_t *nodes, uint32_t len, const pf_smooth_desc *desc,
                         uint32_t *out, uint32_t capacity, uint32_t *out_len, double *length)
{
    if (out_len) *out_len = 0;
    if (length) *length = 0.0;
    if (!map || map->kind != PF_MAP_GRID || (len && !nodes) || !out_len || (capacity && !out))
        return PF_INVALID_ARGUMENT;
    if (map->moves == PF_MOVES_HEX) return PF_UNSUPPORTED;
    uint32_t size = desc && desc->unit_size ? desc->unit_size : 1u;
    if (size > PF_UNIT_SIZE_MAX) return PF_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < len; i++)
        if (nodes[i] >= map->width * map->height) return PF_INVALID_ARGUMENT;
    if (len == 0) return PF_OK;
    const pf__grid_view v = pf__grid_view_of(map);
    const uint32_t pw = map->pw;
    uint32_t anchor = pf__grid_pad(map, nodes[0]); /* kept in a local: `out` may be `nodes` */
    pf__unit u = {map->cls[anchor], (uint8_t)size};
    uint32_t n = 0;
    double total = 0.0;
    /* Two passes when the caller's buffer is short: count first, so nothing is written that a
     * PF_BUFFER_TOO_SMALL would leave half done in an in-place call. */
    for (int write = capacity >= len; write < 2; write++) { /* a path never gains nodes */
        anchor = pf__grid_pad(map, nodes[0]);
        uint32_t first = nodes[0];
        n = 0;
        total = 0.0;
        if (write) out[n] = first;
        n++;
        for (uint32_t k = 1; k < len; k++) {
            uint32_t ck = pf__grid_pad(map, nodes[k]);
            int last = k + 1 == len;
            if (!last && pf__grid_los(&v, anchor, pf__grid_pad(map, nodes[k + 1]), u)) continue;
            /* nodes[k] is as far as the segment from the anchor stays clear: a waypoint */
            total += pf__grid_euclid(pw, anchor, ck);
            if (write) out[n] = nodes[k];
            n++;
            anchor = ck;
        }
        if (!write && n > capacity) {
            *out_len = n;
            return PF_BUFFER_TOO_SMALL;
        }
    }
    *out_len = n;
    if (length) *length = total;
    return PF_OK;
}
