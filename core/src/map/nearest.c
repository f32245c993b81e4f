/* nearest.c - the cell nearest a point where a unit can stand: pf_grid_nearest, and the first
 * half of a partial query toward a goal it cannot reach (search.c), which then searches only as
 * far as that cell's distance instead of flooding the start's whole component.
 *
 * The scan reads rows outward from the point's, each as far as a bound on the distance: no cell
 * is nearer than the rows between (by the square metrics, octile, Manhattan, Chebyshev, and by hex
 * distance too: a hex step moves a cell's offset coordinates by at most one each), and along a row
 * the distance grows away from the row's nearest columns. So once the rows pass the best distance
 * found no later one can hold a nearer cell, and on one side of a row nothing past the first cell
 * that counts can. The bound is a cell known to count when the caller has one (a partial query's
 * start: one pass), else it grows band by band. A row is read 64 cells a load from the cell bits
 * of the unit's class (class_bits.c), one component lookup per run of cells; a small component's
 * scan stays within its tiles (comp_box). Without a class (pf_grid_nearest's cls 0) or with a rule
 * of the caller's (a sized or filtered unit's own labels), cells are read as bytes, eight a load.
 *
 * A partial query's scan (a class, a component, the unit's own cell) reads instead the rows of
 * the component's nodes near the point, best first by a bound on their distance (nodes_nearest):
 * the rows between, where the click lies in another component or in a wall, it does not read. */
#include <string.h>
#include "map/nearest_internal.h"
#include "map/components_internal.h"
#include "bytes_internal.h"
#include "search/metric_internal.h"

typedef struct stand_rule { uint8_t cls, size; uint32_t comp; } stand_rule;

/* What a scan has found so far: the nearest cell, its distance, and for ties its distance to the
 * point (fx, fy) when has_from (the unit's own cell, for a partial query). */
typedef struct scan_best { uint32_t best; int has_from; int32_t fx, fy; double bd, bf; } scan_best;

/* Cell (cx, cy), padded index p, where the unit can stand: taken when nearer than the best so far,
 * or as near and nearer (fx, fy), or as near to both with a lesser node id (padded order is node
 * order). */
PF__INLINE void scan_take(scan_best *b, pf_heur metric, int32_t x, int32_t y, int64_t cx, int64_t cy, uint32_t p)
{
    double d = pf__grid_dist(metric, (int32_t)cx, (int32_t)cy, x, y);
    if (d > b->bd) return;
    double f = b->has_from ? pf__grid_dist(metric, (int32_t)cx, (int32_t)cy, b->fx, b->fy) : 0.0;
    if (d == b->bd && (f > b->bf || (f == b->bf && p > b->best))) return;
    b->bd = d;
    b->bf = f;
    b->best = p;
}

/* Rounding slack of the row bounds below: the cells they take in are measured exactly. */
#define NEAR_SLACK 1e-7

/* The columns lo..hi of row yy whose cells lie within `bound` of (x, y) by the metric (a little
 * more, for rounding); empty when lo > hi. Every such cell is within `bound` rows, since each
 * metric here is at least the rows between: by octile and Manhattan, whatever lies across; by hex
 * distance, a range of the cube coordinate q on each row. */
PF__INLINE void row_reach(pf_heur metric, int64_t x, int64_t y, int64_t yy, double bound, int64_t *lo, int64_t *hi)
{
    const int64_t dy = yy - y, ady = dy < 0 ? -dy : dy;
    const double b = bound + NEAR_SLACK;
    if ((double)ady > b) {
        *lo = 1;
        *hi = 0;
        return;
    }
    if (metric == PF_HEUR_HEX) { /* max(|dq|, |dy|, |dq + dy|) <= B */
        const int64_t B = (int64_t)b, qa = dy > 0 ? -B : -B - dy, qb = dy > 0 ? B - dy : B;
        const int64_t shift = (yy - (yy & 1)) / 2 - (y - (y & 1)) / 2; /* offset x = q + shift */
        *lo = x + qa + shift;
        *hi = x + qb + shift;
        return;
    }
    int64_t span;
    if (metric == PF_HEUR_MANHATTAN) {
        span = (int64_t)(b - (double)ady);
    } else { /* octile: the longer side across the row, else the rows */
        const double k = PF__SQRT2 - 1.0, across = b - k * (double)ady;
        span = across >= (double)ady ? (int64_t)across : (int64_t)((b - (double)ady) / k);
    }
    *lo = x - span;
    *hi = x + span;
}

/* Where row yy comes nearest (x, y): its distance is least on columns p0..p1 and grows away from
 * them (one column on square grids; on hex grids every column with q between the goal's and the
 * goal's less the rows between). */
static void row_near(pf_heur metric, int64_t x, int64_t y, int64_t yy, int64_t *p0, int64_t *p1)
{
    *p0 = *p1 = x;
    if (metric != PF_HEUR_HEX) return;
    const int64_t dy = yy - y, shift = (yy - (yy & 1)) / 2 - (y - (y & 1)) / 2;
    *p0 = x + shift + (dy > 0 ? -dy : 0);
    *p1 = x + shift + (dy > 0 ? 0 : -dy);
}

/* Eight cells of a row from c, cell i in byte i (bits 8i..8i+7) on every host; only `left` of
 * them (1..8) are readable. */
PF__INLINE uint64_t load8(const uint8_t *c, int64_t left)
{
    if (left < 8) {
        uint64_t v = 0;
        for (int64_t i = 0; i < left; i++) v |= (uint64_t)c[i] << (8 * i);
        return v;
    }
    if (!pf__host_is_le()) return pf__get64(c);
    uint64_t v;
    memcpy(&v, c, sizeof v);
    return v;
}

/* The first column in i..end-1 of row c (cls) whose class is `want`, or any open one when want is
 * 0; `end` when none. Eight cells a load (the scan's cells are mostly blocked ones), read past
 * `end` where the array goes on (`lim` bytes from c) and masked. */
PF__INLINE int64_t next_open(const uint8_t *c, int64_t i, int64_t end, int64_t lim, uint8_t want)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), pat = ones * want;
    for (; i < end; i += 8) {
        uint64_t v = load8(c + i, lim - i < 8 ? lim - i : 8);
        if (want) { /* zero bytes of v ^ pat: exact for the lowest (a borrow runs upwards only) */
            v ^= pat;
            v = (v - ones) & ~v & (ones << 7);
        }
        if (end - i < 8) v &= (UINT64_C(1) << (8 * (end - i))) - 1u;
        if (v) return i + (int64_t)(pf__ctz64(v) >> 3);
    }
    return end;
}

/* The first column in i..end-1 of row c whose class is not k, or `end`. */
PF__INLINE int64_t run_end(const uint8_t *c, int64_t i, int64_t end, int64_t lim, uint8_t k)
{
    const uint64_t pat = UINT64_C(0x0101010101010101) * k;
    for (; i < end; i += 8) {
        uint64_t v = load8(c + i, lim - i < 8 ? lim - i : 8) ^ pat;
        if (end - i < 8) v &= (UINT64_C(1) << (8 * (end - i))) - 1u;
        if (v) return i + (int64_t)(pf__ctz64(v) >> 3);
    }
    return end;
}

/* Columns a..b of row yy (padded index of its column 0: `row`). Under a stand_rule (`rule`), a run
 * of cells of one class along a row is one component, so it is looked up once, and of a run open
 * to a unit of one cell only the cells where the row comes nearest can be the answer. Else
 * `stands` is asked of every open cell (a blocked cell is no unit's). */
PF__INLINE void scan_seg(scan_best *bs, const pf_map *m, int32_t x, int32_t y, int64_t yy, int64_t a, int64_t b,
                         const stand_rule *rule, int (*stands)(void *user, const pf_map *m, uint32_t p), void *user,
                         pf_heur metric)
{
    const uint32_t row = (uint32_t)((yy + 1) * (int64_t)m->pw + 1);
    const uint8_t *c = m->cls + row;
    const int64_t end = b + 1, lim = (int64_t)m->pw * m->ph - row;
    for (int64_t i = next_open(c, a, end, lim, rule ? rule->cls : 0); i < end;) {
        if (!rule) {
            if (stands(user, m, row + (uint32_t)i)) scan_take(bs, metric, x, y, i, yy, row + (uint32_t)i);
            i = next_open(c, i + 1, end, lim, 0);
            continue;
        }
        const int64_t e = run_end(c, i + 1, end, lim, c[i]);
        if (!rule->comp || pf__grid_comp(m, row + (uint32_t)i) == rule->comp) {
            if (rule->size <= 1) {
                int64_t p0, p1;
                row_near(metric, x, y, yy, &p0, &p1);
                p0 = p0 < i ? i : p0;
                p1 = p1 > e - 1 ? e - 1 : p1;
                if (p0 > p1) p0 = p1 = p1 < i ? i : e - 1; /* the run lies to one side: its near end */
                for (int64_t k = p0; k <= p1; k++) scan_take(bs, metric, x, y, k, yy, row + (uint32_t)k);
            } else {
                for (int64_t k = i; k < e; k++)
                    if (m->clr[row + (uint32_t)k] >= rule->size)
                        scan_take(bs, metric, x, y, k, yy, row + (uint32_t)k);
            }
        }
        i = next_open(c, e, end, lim, rule->cls);
    }
}

/* The first column in i..end-1 whose bit in the row's line o (bit x + 1 for column x) is `set`
 * (1 or 0), or `end`: 64 cells a load. */
PF__INLINE int64_t next_bit(const uint64_t *o, int64_t i, int64_t end, int set)
{
    const uint64_t flip = set ? 0u : ~UINT64_C(0), stop = (uint64_t)(end + 1);
    uint64_t p = (uint64_t)(i + 1), w = (o[p >> 6] ^ flip) & (~UINT64_C(0) << (p & 63u));
    while (!w) {
        p = (p | 63u) + 1u;
        if (p >= stop) return end;
        w = o[p >> 6] ^ flip;
    }
    p = (p & ~(uint64_t)63u) + pf__ctz64(w);
    return p < stop ? (int64_t)p - 1 : end;
}

/* The last column in a..i whose bit is `set`, or a - 1. */
PF__INLINE int64_t prev_bit(const uint64_t *o, int64_t i, int64_t a, int set)
{
    const uint64_t flip = set ? 0u : ~UINT64_C(0), stop = (uint64_t)(a + 1);
    uint64_t p = (uint64_t)(i + 1), w = (o[p >> 6] ^ flip) & (~UINT64_C(0) >> (63u - (p & 63u)));
    while (!w) {
        if (p < 64u) return a - 1;
        p = (p & ~(uint64_t)63u) - 1u;
        if (p < stop) return a - 1;
        w = o[p >> 6] ^ flip;
    }
    p = (p & ~(uint64_t)63u) + 63u - pf__clz64(w);
    return p >= stop ? (int64_t)p - 1 : a - 1;
}

/* scan_seg for a rule of one class whose cell bits the map keeps (class_bits.c), which says more:
 * dir 0 reads every cell of a..b that counts (columns where the row is nearest the point, all at
 * one distance); dir 1 only the first from a rightwards and dir -1 the first from b leftwards: the
 * row's distance grows away from its nearest columns, so none further on is as near, and a row's
 * scan stops at the first cell that counts on each side of them. */
PF__INLINE void scan_bits(scan_best *bs, const pf_map *m, int32_t x, int32_t y, int64_t yy, uint32_t row,
                          const uint64_t *o, int64_t a, int64_t b, int dir, const stand_rule *rule, pf_heur metric)
{
    if (dir < 0) {
        for (int64_t i = prev_bit(o, b, a, 1); i >= a;) {
            const int64_t st = i > a ? prev_bit(o, i - 1, a, 0) + 1 : a; /* the run's first column */
            if (!rule->comp || pf__grid_comp(m, row + (uint32_t)i) == rule->comp)
                for (int64_t k = i; k >= st; k--)
                    if (rule->size <= 1 || m->clr[row + (uint32_t)k] >= rule->size) {
                        scan_take(bs, metric, x, y, k, yy, row + (uint32_t)k);
                        return;
                    }
            i = st > a ? prev_bit(o, st - 1, a, 1) : a - 1;
        }
        return;
    }
    const int64_t end = b + 1;
    for (int64_t i = next_bit(o, a, end, 1); i < end;) {
        const int in = !rule->comp || pf__grid_comp(m, row + (uint32_t)i) == rule->comp;
        if (in && dir && rule->size <= 1) {
            scan_take(bs, metric, x, y, i, yy, row + (uint32_t)i);
            return;
        }
        const int64_t e = next_bit(o, i + 1, end, 0);
        if (in)
            for (int64_t k = i; k < e; k++)
                if (rule->size <= 1 || m->clr[row + (uint32_t)k] >= rule->size) {
                    scan_take(bs, metric, x, y, k, yy, row + (uint32_t)k);
                    if (dir) return;
                }
        i = e < end ? next_bit(o, e, end, 1) : end;
    }
}

/* Columns lo..hi of row yy: by the class bits cb, where the rule has them (its nearest columns
 * whole, the stretches either side outward), else (cb NULL) by scan_seg. */
PF__INLINE void scan_span(scan_best *bs, const pf_map *m, int32_t x, int32_t y, int64_t yy, int64_t lo, int64_t hi,
                          const stand_rule *rule, const uint64_t *cb, int (*stands)(void *user, const pf_map *m, uint32_t p),
                          void *user, pf_heur metric)
{
    if (!cb) {
        scan_seg(bs, m, x, y, yy, lo, hi, rule, stands, user, metric);
        return;
    }
    const uint32_t row = (uint32_t)((yy + 1) * (int64_t)m->pw + 1);
    const uint64_t *o = cb + (size_t)(yy + 1) * m->cbits_pw;
    int64_t p0, p1;
    row_near(metric, x, y, yy, &p0, &p1);
    const int64_t m0 = lo > p0 ? lo : p0, m1 = hi < p1 ? hi : p1;
    if (m0 == m1) { /* one column (square grids): its bit */
        const uint64_t b = (uint64_t)m0 + 1u;
        if (o[b >> 6] >> (b & 63u) & 1u && (!rule->comp || pf__grid_comp(m, row + (uint32_t)m0) == rule->comp) &&
            (rule->size <= 1 || m->clr[row + (uint32_t)m0] >= rule->size))
            scan_take(bs, metric, x, y, m0, yy, row + (uint32_t)m0);
    } else if (m0 < m1) {
        scan_bits(bs, m, x, y, yy, row, o, m0, m1, 0, rule, metric);
    }
    if (lo < p0) scan_bits(bs, m, x, y, yy, row, o, lo, hi < p0 - 1 ? hi : p0 - 1, -1, rule, metric);
    if (hi > p1) scan_bits(bs, m, x, y, yy, row, o, lo > p1 + 1 ? lo : p1 + 1, hi, 1, rule, metric);
}

/* The scan, inlined into each caller so that a rule known there is inlined into its loop. With a
 * bound `within` (a cell known to count that far away) one pass reads the rows outward, each
 * within the best distance so far; else a bound grows band by band (doubling, then the best
 * distance found) and each band reads the cells of each row newly within it (row_reach). Either
 * way the cells read lie within the metric's own disc, not the square around it (about 0.83 of it
 * on octile grids, half on Manhattan ones). The rings of the square it replaced, read cell by cell
 * with each ring's sides a column, made a den520d wall click cost up to 12x the search to the cell
 * found (bench_partial, docs/units.md). */
PF__INLINE uint32_t scan_rows(const pf_map *m, int32_t x, int32_t y, const stand_rule *rule,
                              int (*stands)(void *user, const pf_map *m, uint32_t p), void *user, pf_heur metric,
                              uint32_t max_radius, double within, const int64_t box[4], uint32_t from, double *dist)
{
    scan_best bs = {PF_NODE_NONE, from != PF_NODE_NONE, 0, 0, INFINITY, 0.0};
    const uint64_t *cb = rule && rule->cls && m->cbits_ok ? m->cbits[rule->cls] : NULL; /* its cell bits */
    if (from != PF_NODE_NONE) {
        bs.fx = (int32_t)(from % m->pw) - 1;
        bs.fy = (int32_t)(from / m->pw) - 1;
    }
    /* the box of cells that may count: the map, within max_radius rings */
    int64_t xa = box[0], xb = box[1], ya = box[2], yb = box[3];
    if (max_radius) {
        xa = xa > (int64_t)x - max_radius ? xa : (int64_t)x - max_radius;
        xb = xb < (int64_t)x + max_radius ? xb : (int64_t)x + max_radius;
        ya = ya > (int64_t)y - max_radius ? ya : (int64_t)y - max_radius;
        yb = yb < (int64_t)y + max_radius ? yb : (int64_t)y + max_radius;
    }
    if (xa > xb || ya > yb || (rule && rule->comp && !m->comp)) {
        if (dist) *dist = INFINITY;
        return PF_NODE_NONE;
    }
    /* no cell of the box is nearer than the rows or columns between: the first band starts there */
    int64_t gap = 0;
    const int64_t gaps[4] = {xa - x, (int64_t)x - xb, ya - y, (int64_t)y - yb};
    for (int k = 0; k < 4; k++) gap = gaps[k] > gap ? gaps[k] : gap;
    if (within < INFINITY) {
        /* one pass, row by row outward from the goal's, each row as far as the best distance so
         * far (at first `within`). Where the rule's class has bits, a band of 8 rows with none of
         * the class within a row's reach has none within the reach of its rows further out
         * (narrower, by every metric here): they are passed over, up to [0] and down to [1]. */
        int64_t past[2] = {INT64_MAX, INT64_MIN};
        for (int64_t k = 0;; k++) {
            const double reach = within < bs.bd ? within : bs.bd;
            if ((double)k > reach + NEAR_SLACK) break;
            for (int side = 0; side < 2 && (side == 0 || k > 0); side++) {
                const int64_t yy = side ? (int64_t)y + k : (int64_t)y - k;
                if (yy < ya || yy > yb || (side ? yy <= past[1] : yy >= past[0])) continue;
                int64_t lo, hi;
                row_reach(metric, x, y, yy, side ? (within < bs.bd ? within : bs.bd) : reach, &lo, &hi);
                lo = lo < xa ? xa : lo;
                hi = hi > xb ? xb : hi;
                if (lo > hi) continue;
                if (cb) {
                    const uint32_t band = (uint32_t)(yy + 1) >> PF__CBAND_SHIFT;
                    if (next_bit(cb + ((size_t)m->ph + band) * m->cbits_pw, lo, hi + 1, 1) > hi) {
                        /* the band's rows in unpadded numbers: (band << 3) - 1 onwards */
                        const int64_t first = ((int64_t)band << PF__CBAND_SHIFT) - 1, last = first + 7;
                        if (!side) past[0] = first;
                        if (side || !k) past[1] = last;
                        continue;
                    }
                }
                scan_span(&bs, m, x, y, yy, lo, hi, rule, cb, stands, user, metric);
            }
        }
        if (dist) *dist = bs.bd;
        return bs.best;
    }
    double bound = (double)gap + 2.0, prev = -1.0;
    for (;;) {
        const int64_t reach = (int64_t)(bound + NEAR_SLACK);
        int full = (int64_t)y - reach <= ya && (int64_t)y + reach >= yb;
        const int64_t y0 = (int64_t)y - reach > ya ? (int64_t)y - reach : ya;
        const int64_t y1 = (int64_t)y + reach < yb ? (int64_t)y + reach : yb;
        for (int64_t yy = y0; yy <= y1; yy++) {
            int64_t lo, hi, plo = 1, phi = 0;
            row_reach(metric, x, y, yy, bound, &lo, &hi);
            full &= lo <= xa && hi >= xb;
            lo = lo < xa ? xa : lo;
            hi = hi > xb ? xb : hi;
            if (lo > hi) continue;
            if (prev >= 0.0) { /* what the bands before read of this row */
                row_reach(metric, x, y, yy, prev, &plo, &phi);
                plo = plo < xa ? xa : plo;
                phi = phi > xb ? xb : phi;
            }
            if (plo > phi) {
                scan_span(&bs, m, x, y, yy, lo, hi, rule, cb, stands, user, metric);
            } else {
                if (lo < plo) scan_span(&bs, m, x, y, yy, lo, plo - 1, rule, cb, stands, user, metric);
                if (phi < hi) scan_span(&bs, m, x, y, yy, phi + 1, hi, rule, cb, stands, user, metric);
            }
        }
        if (bs.bd <= bound || full) break;
        prev = bound;
        bound = bound * 2.0 < bs.bd ? bound * 2.0 : bs.bd;
    }
    if (dist) *dist = bs.bd;
    return bs.best;
}

/* The nodes of a component of at most COMP_FEW nodes (pieces of it within one 64x64 tile,
 * components.c), found by a walk over the nodes' edges from `node`: their number, or 0 past
 * COMP_FEW (a large component's nodes are looked up by tile instead). */
#define COMP_FEW 16u
static uint32_t comp_nodes(const pf_map *m, uint32_t node, uint32_t seen[COMP_FEW])
{
    const struct pf__comps *cc = m->cc;
    if (cc->csize[m->comp_root[node]] > COMP_FEW) return 0;
    uint32_t n = 0;
    seen[n++] = node;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t u = seen[i], *e = cc->te[cc->ntile[u]].e;
        for (uint32_t k = cc->nadj[u], ke = k + cc->ndeg[u]; k < ke; k++) {
            const uint32_t v = e[2 * k + 1];
            uint32_t j = 0;
            while (j < n && seen[j] != v) j++;
            if (j < n) continue;
            if (n == COMP_FEW) return 0; /* (csize said otherwise) */
            seen[n++] = v;
        }
    }
    return n;
}

/* A component of a few nodes lies within their tiles: box (x0, x1, y0, y1, cells) becomes the
 * rectangle around them. A unit in a pocket 60 cells from its click scanned the rings out to 60
 * cells when the pocket lies within a tile or two (den520d 223,195 -> 207,141). A larger
 * component's rectangle is most of the map: box stays. */
static void comp_box(const pf_map *m, uint32_t node, int64_t box[4])
{
    const struct pf__comps *cc = m->cc;
    uint32_t seen[COMP_FEW];
    const uint32_t n = comp_nodes(m, node, seen);
    if (!n) return;
    int64_t r[4] = {INT64_MAX, INT64_MIN, INT64_MAX, INT64_MIN};
    for (uint32_t i = 0; i < n; i++) {
        const int64_t t = cc->ntile[seen[i]], x0 = (t % cc->tx) * TS, y0 = (t / cc->tx) * TS;
        r[0] = x0 < r[0] ? x0 : r[0];
        r[1] = x0 + TS - 1 > r[1] ? x0 + TS - 1 : r[1];
        r[2] = y0 < r[2] ? y0 : r[2];
        r[3] = y0 + TS - 1 > r[3] ? y0 + TS - 1 : r[3];
    }
    box[0] = r[0] > box[0] ? r[0] : box[0];
    box[1] = r[1] < box[1] ? r[1] : box[1];
    box[2] = r[2] > box[2] ? r[2] : box[2];
    box[3] = r[3] < box[3] ? r[3] : box[3];
}

/* No cell of columns x0..x1, rows y0..y1 is nearer (x, y) than this. On square grids the distance
 * grows with the columns and with the rows between, so the box's cell nearest in both is; on hex
 * grids a row's distance is least on its nearest columns (row_near) and grows by one a column away
 * from them, and those columns widen by one a row, so the distance on a row nearer the point is
 * never more than on a row further: the box's row nearest the point, its column nearest those. */
static double box_lb(pf_heur metric, int32_t x, int32_t y, int64_t x0, int64_t x1, int64_t y0, int64_t y1)
{
    const int64_t yy = y < y0 ? y0 : y > y1 ? y1 : y;
    int64_t p0, p1;
    row_near(metric, x, y, yy, &p0, &p1);
    const int64_t xx = p1 < x0 ? x0 : p0 > x1 ? x1 : p0 > x0 ? p0 : x0;
    return pf__grid_dist(metric, (int32_t)xx, (int32_t)yy, x, y);
}

/* No cell of node `id` (of tile origin ax, ay) is nearer (x, y) than this: the most of its
 * rectangle's bound and its diagonal extents' (ndiag). By Manhattan distance no cell is nearer than
 * the gaps along either diagonal; octile distance, max + (sqrt 2 - 1) min of the sides, is
 * (2 - sqrt 2) max + (sqrt 2 - 1) (max + min), at least that sum of the Chebyshev and Manhattan
 * bounds; hex distance is the most of |dq|, |dr|, |dq + dr|. A unit in a pocket of trees whose
 * nearest cell to its den520d click is the unit's own had its pocket's rows read for want of it:
 * the rectangle reaches nearer than the pocket does. */
static double node_lb(const pf_map *m, pf_heur metric, int32_t x, int32_t y, uint32_t id, int64_t ax, int64_t ay,
                      int64_t bx[4])
{
    const struct pf__comps *cc = m->cc;
    const uint32_t b = cc->nbox[id], g = cc->ndiag[id];
    bx[0] = ax + PF__NBOX_X0(b);
    bx[1] = ax + PF__NBOX_X1(b);
    bx[2] = ay + PF__NBOX_Y0(b);
    bx[3] = ay + PF__NBOX_Y1(b);
    const double lb = box_lb(metric, x, y, bx[0], bx[1], bx[2], bx[3]);
    const int hex = metric == PF_HEUR_HEX;
    if (hex != (m->moves == PF_MOVES_HEX)) return lb; /* extents of the other kind */
    /* the point's u and v, and the tile's: a cell's are its tile's plus its own in the tile */
    int64_t pu, pv, tu, tv;
    if (hex) {
        pu = (int64_t)x - ((int64_t)y - ((int64_t)y & 1)) / 2;
        pv = pu + y;
        tu = ax - ay / 2 - 32;
        tv = ax + ay / 2;
    } else {
        pu = (int64_t)x + y;
        pv = (int64_t)x - y;
        tu = ax + ay;
        tv = ax - ay - 63;
    }
    const int64_t u0 = tu + (g & 0xffu), u1 = tu + (g >> 8 & 0xffu), v0 = tv + (g >> 16 & 0xffu), v1 = tv + (g >> 24);
    int64_t du = u0 - pu > pu - u1 ? u0 - pu : pu - u1, dv = v0 - pv > pv - v1 ? v0 - pv : pv - v1;
    du = du > 0 ? du : 0;
    dv = dv > 0 ? dv : 0;
    const double diag = (double)(du > dv ? du : dv);
    if (metric != PF_HEUR_OCTILE) return diag > lb ? diag : lb;
    /* octile: the rectangle's Chebyshev and Manhattan bounds, the latter raised by the diagonals */
    const int64_t gx = x < bx[0] ? bx[0] - x : x > bx[1] ? x - bx[1] : 0;
    const int64_t gy = y < bx[2] ? bx[2] - y : y > bx[3] ? y - bx[3] : 0;
    const double man = (double)(gx + gy) > diag ? (double)(gx + gy) : diag;
    const double oct = (2.0 - PF__SQRT2) * (double)(gx > gy ? gx : gy) + (PF__SQRT2 - 1.0) * man;
    return oct > lb ? oct : lb;
}

/* The rows y0..y1, columns x0..x1 within the best distance so far, from the row nearest the point
 * outward (both ways in turn where the point's row is among them), so that a cell found near it
 * narrows the rows after. A row further from the point reaches fewer columns, and never any
 * that a row nearer it does not: the first row whose reach misses the columns ends its way, and
 * the rest of a band of 8 rows is passed over where the band has none of the class in reach.
 * With a node's bands (nb: its nband, its tile's origin ax, ay) only the columns its cells span
 * in each are read.
 *
 * With `tie` (no cell of the rectangle is nearer the point than the best, only as near:
 * worth_part) the rows are read from the unit's (the rectangle's row nearest it) outward, each
 * only within as many columns of the unit's cell as the best is from it (every metric here is at
 * least the columns between), and none further from the unit's row than that: this reach, not
 * the point's, ends each way and bounds the bands passed over (it narrows on every row further
 * out, and more as ties nearer the unit are found), and of it the columns within the point's
 * reach are read. Read from the point's row, a wall's edge all at one distance from the click
 * had its rows read down to the tie beside the unit (Berlin_0_1024, 4-connected: 14 rows, the
 * query 4.0x a plain one to the cell; 3.1x now). A side ended where the point's reach missed the
 * unit's would be wrong: the point's reach widens on the rows toward the point's row. */
PF__INLINE void scan_box_rows(scan_best *bs, const pf_map *m, int32_t x, int32_t y, const stand_rule *rule,
                              const uint64_t *cb, pf_heur metric, int64_t x0, int64_t x1, int64_t y0, int64_t y1,
                              const uint16_t *nb, int64_t ax, int64_t ay, const int tie)
{
    const int64_t yc = tie ? bs->fy : y, yn = yc < y0 ? y0 : yc > y1 ? y1 : yc;
    int64_t next[2] = {yn, yn + 1}; /* the next row up (side 0) and down (1) */
    int open[2] = {1, 1};
    for (int side = 0; open[0] || open[1]; side ^= 1) {
        if (!open[side]) continue;
        const int64_t yy = next[side];
        next[side] += side ? 1 : -1;
        /* lo..hi: the reach that narrows on the rows further this way (for ties the unit's, else
         * the point's); a..b: the columns read (for ties the point's reach, within lo..hi) */
        int64_t lo = 1, hi = 0, a, b;
        if (tie) {
            /* the point's reach: worth_part cut the rectangle's rows to it already, but it shrinks
             * as nearer ties are found (bf) */
            const int64_t f = (int64_t)(bs->bf + NEAR_SLACK);
            if (yy >= y0 && yy <= y1 && yy >= (int64_t)bs->fy - f && yy <= (int64_t)bs->fy + f) {
                lo = (int64_t)bs->fx - f > x0 ? (int64_t)bs->fx - f : x0;
                hi = (int64_t)bs->fx + f < x1 ? (int64_t)bs->fx + f : x1;
            }
            a = 1;
            b = 0;
            if (lo <= hi) row_reach(metric, x, y, yy, bs->bd, &a, &b);
        } else {
            if (yy >= y0 && yy <= y1) row_reach(metric, x, y, yy, bs->bd, &lo, &hi);
            lo = lo < x0 ? x0 : lo;
            hi = hi > x1 ? x1 : hi;
            a = lo;
            b = hi;
        }
        if (lo > hi) {
            open[side] = 0;
            continue;
        }
        if (tie && (a > hi || b < lo)) {
            /* none within the point's reach on this row. Going away from the point's row too,
             * that reach narrows as the unit's does: none further this way either. Going toward
             * it, the next row may have some (the rectangle's rows are already cut to the point's
             * reach, worth_part, so there is no run of rows out of it to pass over). */
            if (side ? yy >= y : yy <= y) open[side] = 0;
            continue;
        }
        if (nb) {
            /* a node's own rows: of each band of 8 only the columns its cells there span, and
             * none of the band's rows further on where they lie out of this row's reach */
            const int64_t k = (yy - ay) >> PF__NBAND_SHIFT, c0 = ax + (nb[k] & 0xffu), c1 = ax + (nb[k] >> 8);
            lo = lo < c0 ? c0 : lo;
            hi = hi > c1 ? c1 : hi;
            if (lo > hi) {
                next[side] = side ? ay + ((k + 1) << PF__NBAND_SHIFT) : ay + (k << PF__NBAND_SHIFT) - 1;
                continue;
            }
        }
        if (cb) {
            /* none of the class within this row's reach in its band of 8 (class_bits.c): none within
             * the reach of the band's rows further on either (narrower), which are passed over. A
             * node's columns (nb) hold for its own band's rows only, and the class bits' bands lie a
             * row lower (padded rows): the rows passed over stop at the node's band's end. Passed
             * over to the class band's end, a row a node band's last (a wall's columns) hid the 7
             * rows after it (a cell 6 from the click passed over for one 9 away). */
            const uint32_t band = (uint32_t)(yy + 1) >> PF__CBAND_SHIFT;
            if (next_bit(cb + ((size_t)m->ph + band) * m->cbits_pw, lo, hi + 1, 1) > hi) {
                const int64_t first = ((int64_t)band << PF__CBAND_SHIFT) - 1; /* unpadded */
                int64_t to = side ? first + 8 : first - 1;
                if (nb) {
                    const int64_t nfirst = ay + (((yy - ay) >> PF__NBAND_SHIFT) << PF__NBAND_SHIFT);
                    to = side ? (to < nfirst + 8 ? to : nfirst + 8) : (to > nfirst - 1 ? to : nfirst - 1);
                }
                next[side] = to;
                continue;
            }
        }
        if (tie) { /* a..b within lo..hi, as narrowed by the bands */
            a = a < lo ? lo : a;
            b = b > hi ? hi : b;
            if (a <= b) scan_span(bs, m, x, y, yy, a, b, rule, cb, NULL, NULL, metric);
        } else {
            scan_span(bs, m, x, y, yy, lo, hi, rule, cb, NULL, NULL, metric);
        }
    }
}

/* scan_box_rows compiled apart for the usual case (as lean as before ties had a way of their own:
 * in one function, the usual case cost a few more instructions a row) and for ties. */
static void scan_box(scan_best *bs, const pf_map *m, int32_t x, int32_t y, const stand_rule *rule, const uint64_t *cb,
                     pf_heur metric, int64_t x0, int64_t x1, int64_t y0, int64_t y1, const uint16_t *nb, int64_t ax,
                     int64_t ay)
{
    scan_box_rows(bs, m, x, y, rule, cb, metric, x0, x1, y0, y1, nb, ax, ay, 0);
}

static void scan_box_ties(scan_best *bs, const pf_map *m, int32_t x, int32_t y, const stand_rule *rule,
                          const uint64_t *cb, pf_heur metric, int64_t x0, int64_t x1, int64_t y0, int64_t y1,
                          const uint16_t *nb, int64_t ax, int64_t ay)
{
    scan_box_rows(bs, m, x, y, rule, cb, metric, x0, x1, y0, y1, nb, ax, ay, 1);
}

/* A rectangle bx worth_part found worth reading (`part`: 1, or 2 for ties only). */
static void scan_part(scan_best *bs, const pf_map *m, int32_t x, int32_t y, const stand_rule *rule, const uint64_t *cb,
                      pf_heur metric, const int64_t bx[4], const uint16_t *nb, int64_t ax, int64_t ay, int part)
{
    if (part == 2) scan_box_ties(bs, m, x, y, rule, cb, metric, bx[0], bx[1], bx[2], bx[3], nb, ax, ay);
    else scan_box(bs, m, x, y, rule, cb, metric, bx[0], bx[1], bx[2], bx[3], nb, ax, ay);
}

/* Bounds on what a scan over nodes holds on the stack: tiles within reach of the point, and nodes
 * of one tile; past them the row scan answers (a tile past NODES_MAX, or whose edges are more than
 * EDGES_MAX to walk, is read whole). */
#define TILES_MAX 64
#define NODES_MAX 32
#define EDGES_MAX 64

typedef struct near_item { double lb; uint32_t id; int64_t bx[4]; } near_item;

/* Whether cells no nearer than `lb` may be the answer: as near as the best, unless the best is the
 * unit's own cell (no other is as near to it). The bounds are exact but for rounding: within
 * NEAR_SLACK of the best, the best is taken to be as near. */
static int worth(const scan_best *bs, double lb)
{
    return bs->bf == 0.0 && bs->has_from ? lb < bs->bd - NEAR_SLACK : lb <= bs->bd + NEAR_SLACK;
}

/* Of the rectangle bx (x0, x1, y0, y1) of cells no nearer than `lb`, worth reading by worth(), the
 * part that may hold the answer: where lb leaves them only a tie with the best, the cells no
 * further from the unit's than the best (the rule's next test), which lie within as many rows and
 * columns of it (every metric here is at least the rows and at least the columns between: a hex
 * step moves each offset coordinate by at most one). 0 when none. A cell of such a rectangle is
 * no nearer than the best (the bounds are exact but for rounding, and distances that differ do so
 * by far more than NEAR_SLACK), so the best's distance stays while it is read and its distance to
 * the unit only falls: the part found first is all that can count. On Berlin_0_1024, a unit on a
 * diagonal wall whose click lay across it had every cell of the wall's edge at the same distance:
 * the rows of all of them were read, for the one next to the unit (5x a plain query). */
PF__INLINE int worth_part(const scan_best *bs, int32_t x, int32_t y, double lb, int64_t bx[4])
{
    if (!worth(bs, lb)) return 0;
    if (!bs->has_from || lb < bs->bd - NEAR_SLACK) return 1;
    const int64_t f = (int64_t)(bs->bf + NEAR_SLACK), d = (int64_t)(bs->bd + NEAR_SLACK);
    const int64_t xa = (int64_t)bs->fx - f > (int64_t)x - d ? (int64_t)bs->fx - f : (int64_t)x - d;
    const int64_t xb = (int64_t)bs->fx + f < (int64_t)x + d ? (int64_t)bs->fx + f : (int64_t)x + d;
    const int64_t ya = (int64_t)bs->fy - f > (int64_t)y - d ? (int64_t)bs->fy - f : (int64_t)y - d;
    const int64_t yb = (int64_t)bs->fy + f < (int64_t)y + d ? (int64_t)bs->fy + f : (int64_t)y + d;
    bx[0] = bx[0] > xa ? bx[0] : xa;
    bx[1] = bx[1] < xb ? bx[1] : xb;
    bx[2] = bx[2] > ya ? bx[2] : ya;
    bx[3] = bx[3] < yb ? bx[3] : yb;
    return bx[0] <= bx[1] && bx[2] <= bx[3] ? 2 : 0;
}

static void items_sort(near_item *a, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        const near_item v = a[i];
        uint32_t j = i;
        for (; j > 0 && a[j - 1].lb > v.lb; j--) a[j] = a[j - 1];
        a[j] = v;
    }
}

/* The scan for a cell of the start's component (hint: the start, which counts, `within` away), by
 * the component's nodes (components.c) instead of the rows: tiles within reach of the point in
 * order of their least distance, in each the component's nodes in order of the least distance of
 * their rectangles (nbox), each rectangle read as the rows are, until the least distance passes
 * the best found. A row holding cells of the unit's class in other components cost the row scan
 * a component lookup a run (den520d's forests, a unit on trees) and one holding none of the
 * component's near the point was read all the same: the scan cost up to 7x a plain query to the
 * cell it found, where that query was a few steps (docs/units.md, "Partial paths"). A component of
 * more than one node has an edge at every node (a node is all its tile holds of the component),
 * so a tile's edge list names every node of it there. 0 when the component has more than one node
 * and more tiles than TILES_MAX lie within reach (the row scan answers instead). */
static int nodes_nearest(const pf_map *m, int32_t x, int32_t y, const stand_rule *r, uint32_t hint, uint32_t from,
                         pf_heur metric, double within, uint32_t *out, double *dist)
{
    const struct pf__comps *cc = m->cc;
    const uint64_t *cb = m->cbits_ok ? m->cbits[r->cls] : NULL;
    const int64_t reach = (int64_t)(within + NEAR_SLACK);
    const int64_t tx0 = (int64_t)x - reach < 0 ? 0 : ((int64_t)x - reach) / TS;
    const int64_t ty0 = (int64_t)y - reach < 0 ? 0 : ((int64_t)y - reach) / TS;
    const int64_t tx1 = (int64_t)x + reach >= (int64_t)m->width ? cc->tx - 1 : ((int64_t)x + reach) / TS;
    const int64_t ty1 = (int64_t)y + reach >= (int64_t)m->height ? cc->ty - 1 : ((int64_t)y + reach) / TS;
    scan_best bs = {hint, from != PF_NODE_NONE, 0, 0, within, 0.0};
    if (from != PF_NODE_NONE) {
        bs.fx = (int32_t)(from % m->pw) - 1;
        bs.fy = (int32_t)(from / m->pw) - 1;
        bs.bf = pf__grid_dist(metric, (int32_t)(hint % m->pw) - 1, (int32_t)(hint / m->pw) - 1, bs.fx, bs.fy);
    }
    /* the point's own cell and those one step from it first: most clicks on a wall lie next to
     * the unit's ground, and then no tile need be looked at (every cell within 1 is read here) */
    for (int64_t yy = (int64_t)y - 1; yy <= (int64_t)y + 1; yy++) {
        if (yy < 0 || yy >= (int64_t)m->height) continue;
        int64_t lo, hi;
        row_reach(metric, x, y, yy, 1.0, &lo, &hi);
        lo = lo < 0 ? 0 : lo;
        hi = hi > (int64_t)m->width - 1 ? (int64_t)m->width - 1 : hi;
        for (int64_t xx = lo; xx <= hi; xx++) {
            const uint32_t p = (uint32_t)((yy + 1) * (int64_t)m->pw + xx + 1);
            if (m->cls[p] == r->cls && pf__grid_comp(m, p) == r->comp && (r->size <= 1 || m->clr[p] >= r->size))
                scan_take(&bs, metric, x, y, xx, yy, p);
        }
    }
    if (bs.bd <= 1.0 + NEAR_SLACK) {
        *out = bs.best;
        if (dist) *dist = bs.bd;
        return 1;
    }
    near_item tiles[TILES_MAX], nodes[NODES_MAX];
    uint32_t few[COMP_FEW], nf = 0;
    const uint32_t csize = cc->csize[r->comp];
    const int64_t in_reach = (tx1 - tx0 + 1) * (ty1 - ty0 + 1);
    if (csize == 1 || 2 * (int64_t)csize <= in_reach) nf = comp_nodes(m, m->comp[hint], few);
    if (nf) {
        /* a component of a few nodes, against many more tiles within reach: its nodes, wherever
         * they lie (on orz700d a unit on a line of trees 80 cells from its click had 16 tiles'
         * edges walked for the two nodes of its line, 3x a plain query). A node costs more than
         * a tile (its walk, its bound), and a node whose tile lies out of reach is passed over
         * by the tile's bound. */
        for (uint32_t k = 0; k < nf; k++) {
            const uint32_t t = cc->ntile[few[k]];
            const int64_t ax = (int64_t)(t % cc->tx) * TS, ay = (int64_t)(t / cc->tx) * TS;
            nodes[k].id = few[k];
            nodes[k].lb = nf > 1 ? box_lb(metric, x, y, ax, ax + TS - 1, ay, ay + TS - 1) : 0.0;
            if (nodes[k].lb <= bs.bd + NEAR_SLACK) nodes[k].lb = node_lb(m, metric, x, y, few[k], ax, ay, nodes[k].bx);
        }
        items_sort(nodes, nf);
        for (uint32_t k = 0; k < nf && worth(&bs, nodes[k].lb); k++) {
            const uint32_t t = cc->ntile[nodes[k].id];
            const int part = worth_part(&bs, x, y, nodes[k].lb, nodes[k].bx);
            if (part)
                scan_part(&bs, m, x, y, r, cb, metric, nodes[k].bx, &cc->nband[(size_t)nodes[k].id * PF__NBANDS],
                          (int64_t)(t % cc->tx) * TS, (int64_t)(t / cc->tx) * TS, part);
        }
        *out = bs.best;
        if (dist) *dist = bs.bd;
        return 1;
    }
    if ((tx1 - tx0 + 1) * (ty1 - ty0 + 1) > TILES_MAX) return 0;
    uint32_t nt = 0;
    for (int64_t ty = ty0; ty <= ty1; ty++)
        for (int64_t tx = tx0; tx <= tx1; tx++) {
            const uint32_t t = (uint32_t)(ty * cc->tx + tx);
            const int64_t ax = tx * TS, ay = ty * TS;
            const int64_t bx = ax + TS - 1 < (int64_t)m->width - 1 ? ax + TS - 1 : (int64_t)m->width - 1;
            const int64_t by = ay + TS - 1 < (int64_t)m->height - 1 ? ay + TS - 1 : (int64_t)m->height - 1;
            const double lb = box_lb(metric, x, y, ax, bx, ay, by);
            if (lb <= bs.bd + NEAR_SLACK) tiles[nt++] = (near_item){lb, t, {0, 0, 0, 0}};
        }
    items_sort(tiles, nt);
    for (uint32_t i = 0; i < nt && worth(&bs, tiles[i].lb); i++) {
        const uint32_t t = tiles[i].id;
        const int64_t ax = (int64_t)(t % cc->tx) * TS, ay = (int64_t)(t / cc->tx) * TS;
        int64_t tb[4] = {ax, ax + TS - 1, ay, ay + TS - 1};
        const int tpart = worth_part(&bs, x, y, tiles[i].lb, tb);
        if (!tpart) continue; /* only ties, none near enough the unit */
        uint32_t nn = 0;
        int whole = 0;
        const tile_edges *te = &cc->te[t];
        for (uint32_t k = 0, prev = 0; k < te->n; k++) {
            const uint32_t u = te->e[2 * k];
            if (u == prev || m->comp_root[u] != r->comp) continue;
            prev = u;
            if (nn == NODES_MAX || te->n > EDGES_MAX) { /* a maze's tile: read whole */
                whole = 1;
                break;
            }
            nodes[nn++] = (near_item){0.0, u, {0, 0, 0, 0}};
        }
        if (whole) {
            tb[1] = tb[1] < (int64_t)m->width - 1 ? tb[1] : (int64_t)m->width - 1;
            tb[3] = tb[3] < (int64_t)m->height - 1 ? tb[3] : (int64_t)m->height - 1;
            scan_part(&bs, m, x, y, r, cb, metric, tb, NULL, 0, 0, tpart);
            continue;
        }
        for (uint32_t k = 0; k < nn; k++) nodes[k].lb = node_lb(m, metric, x, y, nodes[k].id, ax, ay, nodes[k].bx);
        items_sort(nodes, nn);
        for (uint32_t k = 0; k < nn && worth(&bs, nodes[k].lb); k++) {
            const int part = worth_part(&bs, x, y, nodes[k].lb, nodes[k].bx);
            if (part)
                scan_part(&bs, m, x, y, r, cb, metric, nodes[k].bx, &cc->nband[(size_t)nodes[k].id * PF__NBANDS], ax,
                          ay, part);
        }
    }
    *out = bs.best;
    if (dist) *dist = bs.bd;
    return 1;
}

/* The distance of padded cell `hint`, PF_NODE_NONE or one known to count, from (x, y): no
 * answer is farther. */
static double hint_dist(const pf_map *m, int32_t x, int32_t y, pf_heur metric, uint32_t hint)
{
    if (hint == PF_NODE_NONE) return INFINITY;
    return pf__grid_dist(metric, (int32_t)(hint % m->pw) - 1, (int32_t)(hint / m->pw) - 1, x, y);
}

uint32_t pf__grid_nearest(const pf_map *m, int32_t x, int32_t y, uint8_t cls, uint8_t size, uint32_t comp,
                          pf_heur metric, uint32_t max_radius, uint32_t hint, uint32_t from, double *dist)
{
    stand_rule r = {cls, size, comp};
    int64_t box[4] = {0, (int64_t)m->width - 1, 0, (int64_t)m->height - 1};
    const double within = hint_dist(m, x, y, metric, hint);
    if (comp && cls && hint != PF_NODE_NONE && m->cc && m->comp && !max_radius) {
        uint32_t cell;
        if (nodes_nearest(m, x, y, &r, hint, from, metric, within, &cell, dist)) return cell;
        comp_box(m, m->comp[hint], box); /* a unit far from its click: the rows, in its tiles */
    }
    return scan_rows(m, x, y, &r, NULL, NULL, metric, max_radius, within, box, from, dist);
}

uint32_t pf__grid_nearest_by(const pf_map *m, int32_t x, int32_t y, int (*stands)(void *user, const pf_map *m, uint32_t p),
                             void *user, pf_heur metric, uint32_t max_radius, uint32_t hint, uint32_t from,
                             double *dist)
{
    const int64_t box[4] = {0, (int64_t)m->width - 1, 0, (int64_t)m->height - 1};
    return scan_rows(m, x, y, NULL, stands, user, metric, max_radius, hint_dist(m, x, y, metric, hint), box, from,
                     dist);
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
                                  d.max_radius, PF_NODE_NONE, PF_NODE_NONE, NULL);
    return p == PF_NODE_NONE ? p : pf__map_outer(map, p);
}
