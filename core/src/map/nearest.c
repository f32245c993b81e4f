/* nearest.c - the cell nearest a point where a unit can stand: pf_grid_nearest, and the first
 * half of a partial query toward a goal it cannot reach (search.c), which then searches only as
 * far as that cell's distance instead of flooding the start's whole component.
 *
 * The scan visits square rings around the point, nearest first. Every cell of ring r is at least
 * r away by the square metrics (octile, Manhattan, Chebyshev, Euclidean) and by hex distance too
 * (a hex step moves a cell's offset coordinates by at most one each), so once r passes the best
 * distance found no later ring can hold a nearer cell: the scan touches about (2d + 1)^2 cells
 * for an answer d away, whatever lies behind it. */
#include <string.h>
#include "map/nearest_internal.h"
#include "search/metric_internal.h"

/* Ties: each its own group while there are at most PF__NEAR_TIES, then one group per octant
 * around the point (x, y) (`used` marks the octants that have one, by slot). The least distance
 * traces a ring around the point, and an octant of it is one stretch of one side, whose box stays
 * thin across the side (a partial search aims at the boxes, search.c). */
static void tie_put(pf__near_ties *t, uint32_t *used, const pf_map *m, pf_heur metric, int32_t x, int32_t y,
                    uint32_t p, uint32_t slot)
{
    const int32_t cy = (int32_t)(p / m->pw) - 1, cx = (int32_t)(p % m->pw) - 1;
    if (slot == PF__NEAR_TIES) {
        const int64_t dx = (int64_t)cx - x, dy = (int64_t)cy - y;
        const int64_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
        slot = (uint32_t)(dx < 0) << 2 | (uint32_t)(dy < 0) << 1 | (uint32_t)(ax < ay);
    }
    int32_t a[3];
    pf__grid_axes(metric, cx, cy, a);
    const int fresh = !(*used >> slot & 1u);
    for (int i = 0; i < 3; i++) {
        if (fresh || a[i] < t->lo[slot][i]) t->lo[slot][i] = a[i];
        if (fresh || a[i] > t->hi[slot][i]) t->hi[slot][i] = a[i];
    }
    *used |= 1u << slot;
}

static void tie_add(pf__near_ties *t, uint32_t *used, const pf_map *m, pf_heur metric, int32_t x, int32_t y, uint32_t p)
{
    if (t->n < PF__NEAR_TIES) {
        t->cell[t->n] = p;
        tie_put(t, used, m, metric, x, y, p, t->n);
        t->groups = ++t->n;
        return;
    }
    if (t->n == PF__NEAR_TIES) { /* one too many: regroup by octant */
        *used = 0;
        for (uint32_t i = 0; i < PF__NEAR_TIES; i++) tie_put(t, used, m, metric, x, y, t->cell[i], PF__NEAR_TIES);
    }
    tie_put(t, used, m, metric, x, y, p, PF__NEAR_TIES);
    t->n++;
}

/* Octant groups into the first slots. */
static void tie_pack(pf__near_ties *t, uint32_t used)
{
    if (t->n <= PF__NEAR_TIES) return;
    t->groups = 0;
    for (uint32_t o = 0; o < PF__NEAR_TIES; o++) {
        if (!(used >> o & 1u)) continue;
        memmove(t->lo[t->groups], t->lo[o], sizeof t->lo[o]);
        memmove(t->hi[t->groups], t->hi[o], sizeof t->hi[o]);
        t->groups++;
    }
}

typedef struct stand_rule { uint8_t cls, size; uint32_t comp; } stand_rule;

static int standable(void *user, const pf_map *m, uint32_t p)
{
    const stand_rule *r = user;
    if (m->cls[p] == 0 || (r->cls && m->cls[p] != r->cls) || m->clr[p] < r->size) return 0;
    return r->comp == 0 || (m->comp && pf__grid_comp(m, p) == r->comp);
}

/* What a scan has found so far: the nearest cell, its distance, tie_add's octants. */
typedef struct scan_best { uint32_t best, used; double bd; } scan_best;

/* Cell (cx, cy), padded index p, where the unit can stand: nearer than the best so far, or tied. */
PF__INLINE void scan_take(scan_best *b, const pf_map *m, pf_heur metric, int32_t x, int32_t y, int64_t cx, int64_t cy,
                          uint32_t p, pf__near_ties *ties)
{
    double d = pf__grid_dist(metric, (int32_t)cx, (int32_t)cy, x, y);
    if (d > b->bd) return;
    if (d < b->bd) {
        b->bd = d;
        b->best = p;
        if (ties) ties->n = ties->groups = b->used = 0;
    } else if (p < b->best) { /* padded order is node order */
        b->best = p;
    }
    if (ties) tie_add(ties, &b->used, m, metric, x, y, p);
}

/* The scan, inlined into each caller so that a rule known there (standable) is inlined into its
 * loop, which walks a ring's top and bottom rows straight through: 598,496 -> 322,604 instructions
 * for a unit in a pocket 60 cells from its click (den520d 223,195 -> 207,141, --partial). */
PF__INLINE uint32_t scan_rings(const pf_map *m, int32_t x, int32_t y,
                               int (*stands)(void *user, const pf_map *m, uint32_t p), void *user, pf_heur metric,
                               uint32_t max_radius, double *dist, pf__near_ties *ties)
{
    scan_best b = {PF_NODE_NONE, 0, INFINITY};
    if (ties) ties->n = ties->groups = 0;
    const int64_t w = m->width, h = m->height;
    /* rings before the map's rectangle is reached hold no cell; after `far`, none is left */
    int64_t r0 = 0, far = 0;
    const int64_t lo[4] = {-(int64_t)x, (int64_t)x - (w - 1), -(int64_t)y, (int64_t)y - (h - 1)};
    for (int k = 0; k < 4; k++) r0 = lo[k] > r0 ? lo[k] : r0;
    const int64_t ex[4] = {x, (int64_t)x - (w - 1), y, (int64_t)y - (h - 1)};
    for (int k = 0; k < 4; k++) far = (ex[k] < 0 ? -ex[k] : ex[k]) > far ? (ex[k] < 0 ? -ex[k] : ex[k]) : far;
    if (max_radius && (int64_t)max_radius < far) far = max_radius;
    for (int64_t r = r0; r <= far && (double)r <= b.bd; r++) {
        const int64_t y0 = (int64_t)y - r, y1 = (int64_t)y + r, x0 = (int64_t)x - r, x1 = (int64_t)x + r;
        const int64_t cxa = x0 < 0 ? 0 : x0, cxb = x1 >= w ? w - 1 : x1;
        for (int64_t cy = y0 < 0 ? 0 : y0; cy <= y1 && cy < h; cy++) {
            const uint32_t row = (uint32_t)((cy + 1) * (int64_t)m->pw + 1);
            if (cy == y0 || cy == y1) { /* the ring's top and bottom rows whole */
                for (int64_t cx = cxa; cx <= cxb; cx++)
                    if (stands(user, m, row + (uint32_t)cx))
                        scan_take(&b, m, metric, x, y, cx, cy, row + (uint32_t)cx, ties);
            } else { /* its other rows at their two ends */
                if (x0 >= 0 && x0 < w && stands(user, m, row + (uint32_t)x0))
                    scan_take(&b, m, metric, x, y, x0, cy, row + (uint32_t)x0, ties);
                if (x1 >= 0 && x1 < w && stands(user, m, row + (uint32_t)x1))
                    scan_take(&b, m, metric, x, y, x1, cy, row + (uint32_t)x1, ties);
            }
        }
    }
    if (ties) tie_pack(ties, b.used);
    if (dist) *dist = b.bd;
    return b.best;
}

uint32_t pf__grid_nearest(const pf_map *m, int32_t x, int32_t y, uint8_t cls, uint8_t size, uint32_t comp,
                          pf_heur metric, uint32_t max_radius, double *dist, pf__near_ties *ties)
{
    stand_rule r = {cls, size, comp};
    return scan_rings(m, x, y, standable, &r, metric, max_radius, dist, ties);
}

uint32_t pf__grid_nearest_by(const pf_map *m, int32_t x, int32_t y, int (*stands)(void *user, const pf_map *m, uint32_t p),
                             void *user, pf_heur metric, uint32_t max_radius, double *dist, pf__near_ties *ties)
{
    return scan_rings(m, x, y, stands, user, metric, max_radius, dist, ties);
}

pf_heur pf__grid_near_metric(const pf_map *m)
{
    return m->moves == PF_MOVES_4 ? PF_HEUR_MANHATTAN : m->moves == PF_MOVES_HEX ? PF_HEUR_HEX : PF_HEUR_OCTILE;
}

uint32_t pf_grid_nearest(const pf_map *map, int32_t x, int32_t y, const pf_nearest_desc *desc)
{
    if (!map || map->kind != PF_MAP_GRID) return PF_NODE_NONE;
    pf_nearest_desc d = desc ? *desc : (pf_nearest_desc){0};
    uint32_t size = d.unit_size ? d.unit_size : 1u;
    if (size > PF_UNIT_SIZE_MAX || d.cls > 255) return PF_NODE_NONE;
    if (d.component && !map->comp) return PF_NODE_NONE; /* labels lost to an allocation failure */
    uint32_t p = pf__grid_nearest(map, x, y, (uint8_t)d.cls, (uint8_t)size, d.component, pf__grid_near_metric(map),
                                  d.max_radius, NULL, NULL);
    return p == PF_NODE_NONE ? p : pf__map_outer(map, p);
}
