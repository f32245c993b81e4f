/* metric_internal.h - grid distance heuristics on a cell offset (never installed), shared by A*
 * (search.c), JPS (jps_search.c), group searches (group_search.c) and, through pf__grid_octile, the
 * batch's job-size estimates. */
#ifndef PF_METRIC_INTERNAL_H
#define PF_METRIC_INTERNAL_H

#include <math.h>
#include "pathfind/pf_search.h"
#include "common/pf_internal.h"

/* Octile, Manhattan, Chebyshev or Euclidean distance of the offset (dx, dy); 0 for any other kind.
 * Written with selects, not branches: in a search the signs and the larger axis are coin tosses. */
PF__INLINE double pf__grid_metric(pf_heur k, int32_t dx, int32_t dy)
{
    double ax = fabs((double)dx), ay = fabs((double)dy);
    double hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;
    switch (k) {
    case PF_HEUR_OCTILE: return hi + (PF__SQRT2 - 1.0) * lo;
    case PF_HEUR_MANHATTAN: return ax + ay;
    case PF_HEUR_CHEBYSHEV: return hi;
    case PF_HEUR_EUCLIDEAN: return sqrt(ax * ax + ay * ay);
    default: return 0.0;
    }
}

/* Hex distance between cells of an odd-r offset layout (rows shifted right on odd y). */
PF__INLINE double pf__grid_hex_dist(int32_t x, int32_t y, int32_t gx, int32_t gy)
{
    /* odd-r offset -> axial: q = x - (y - (y & 1)) / 2 */
    int32_t q1 = x - (y - (y & 1)) / 2, q2 = gx - (gy - (gy & 1)) / 2;
    int32_t dq = q1 - q2, dr = y - gy, ds = -dq - dr;
    dq = dq < 0 ? -dq : dq;
    dr = dr < 0 ? -dr : dr;
    ds = ds < 0 ? -ds : ds;
    return (double)((dq > dr ? (dq > ds ? dq : ds) : (dr > ds ? dr : ds)));
}

/* The metric of kind k between cells (x, y) and (gx, gy), hex distance included. */
PF__INLINE double pf__grid_dist(pf_heur k, int32_t x, int32_t y, int32_t gx, int32_t gy)
{
    return k == PF_HEUR_HEX ? pf__grid_hex_dist(x, y, gx, gy) : pf__grid_metric(k, x - gx, y - gy);
}

#endif
