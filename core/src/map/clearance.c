/* clearance.c - per-cell clearance for unit sizes: the side of the largest square of one open class
 * whose top-left cell a cell is.
 *
 * A block of side K at c is of c's class exactly when the blocks of side K-1 at its right, lower and
 * lower-right neighbours are of that class, so one sweep from the bottom-right corner computes every
 * cell from three already done. Values are capped at PF_UNIT_SIZE_MAX: the stored value is then
 * min(cap, true value), which the same recurrence keeps, and a cell's value depends only on the
 * cap x cap block at it. That bounds an edit's update to the cells up to cap - 1 above and left of
 * the rectangle it changed.
 */
#include "map/map_internal.h"

PF__INLINE uint8_t clr_at(const pf_map *m, size_t i)
{
    const uint8_t k = m->cls[i];
    if (!k) return 0;
    const size_t pw = m->pw;
    uint32_t r = m->cls[i + 1] == k ? m->clr[i + 1] : 0u;
    uint32_t d = m->cls[i + pw] == k ? m->clr[i + pw] : 0u;
    uint32_t x = m->cls[i + pw + 1] == k ? m->clr[i + pw + 1] : 0u;
    uint32_t lo = r < d ? r : d;
    lo = lo < x ? lo : x;
    return (uint8_t)(lo + 1u < PF_UNIT_SIZE_MAX ? lo + 1u : PF_UNIT_SIZE_MAX);
}

/* Cells [x0, x1] x [y0, y1] (padded, inside the border), bottom-right first. */
static void sweep(pf_map *m, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1)
{
    for (uint32_t y = y1 + 1u; y-- > y0;) {
        size_t row = (size_t)y * m->pw;
        for (uint32_t x = x1 + 1u; x-- > x0;) m->clr[row + x] = clr_at(m, row + x);
    }
}

int pf__grid_clearance_build(pf_map *m)
{
    size_t cells = (size_t)m->pw * m->ph;
    m->clr = pf__calloc(&m->alloc, cells, 64); /* the border stays 0: blocked */
    if (!m->clr) return 0;
    sweep(m, 1, 1, m->pw - 2u, m->ph - 2u);
    return 1;
}

void pf__grid_clearance_update(pf_map *m, pf_rect r)
{
    if (!m->clr || r.w == 0 || r.h == 0) return;
    const uint32_t reach = PF_UNIT_SIZE_MAX - 1u;
    uint32_t x1 = (uint32_t)r.x + r.w - 1u, y1 = (uint32_t)r.y + r.h - 1u;
    uint32_t x0 = (uint32_t)r.x > 1u + reach ? (uint32_t)r.x - reach : 1u;
    uint32_t y0 = (uint32_t)r.y > 1u + reach ? (uint32_t)r.y - reach : 1u;
    sweep(m, x0, y0, x1, y1);
}

uint8_t pf_grid_clearance(const pf_map *map, int32_t x, int32_t y)
{
    if (!map || map->kind != PF_MAP_GRID || !map->clr) return 0;
    uint32_t n = pf_grid_node(map, x, y);
    return n == PF_NODE_NONE ? 0 : map->clr[pf__grid_pad(map, n)];
}
