/* metric_internal.h - grid distance heuristics on a cell offset (never installed), shared by A*
 * (search.c), JPS (jps_search.c), group searches (group_search.c) and, through pf__grid_octile, the
 * batch's job-size estimates. */
#ifndef PF_METRIC_INTERNAL_H
#define PF_METRIC_INTERNAL_H

#include <math.h>
#include "pathfind/pf_search.h"
#include "common/pf_internal.h"

/* The length of (dx, dy) by IEEE operations alone, each correctly rounded on every host, so the
 * same bits on every machine (libm's hypot is not correctly rounded, and its builds differ: glibc's
 * x86-64 and aarch64 ones on 43% of random inputs, a cross-machine review). A power of two scales
 * the squares out of overflow and underflow (coordinates up to DBL_MAX are accepted); within a few
 * ulps of the exact length, which the graph heuristic's scale leaves room for (graph.c). */
static inline double pf__hypot(double dx, double dy)
{
    const double ax = fabs(dx), ay = fabs(dy);
    if (isinf(ax) || isinf(ay)) return INFINITY;
    if (isnan(ax) || isnan(ay)) return ax + ay;
    const double big = ax > ay ? ax : ay;
    const double s = big > 0x1p500 ? 0x1p-600 : big < 0x1p-500 ? 0x1p600 : 1.0;
    const double x = ax * s, y = ay * s;
    return sqrt(x * x + y * y) / s;
}

/* Octile, Manhattan, Chebyshev or Euclidean distance of the offset (dx, dy); 0 for any other kind.
 * Written with selects, not branches: in a search the signs and the larger axis are coin tosses. */
PF__INLINE double pf__grid_metric_d(pf_heur k, double dx, double dy)
{
    double ax = fabs(dx), ay = fabs(dy);
    double hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;
    switch (k) {
    case PF_HEUR_OCTILE: return hi + (PF__SQRT2 - 1.0) * lo;
    case PF_HEUR_MANHATTAN: return ax + ay;
    case PF_HEUR_CHEBYSHEV: return hi;
    case PF_HEUR_EUCLIDEAN: return sqrt(ax * ax + ay * ay);
    default: return 0.0;
    }
}
PF__INLINE double pf__grid_metric(pf_heur k, int32_t dx, int32_t dy) { return pf__grid_metric_d(k, (double)dx, (double)dy); }

/* Hex distance between cells of an odd-r offset layout (rows shifted right on odd y). */
PF__INLINE double pf__grid_hex_dist(int32_t x, int32_t y, int32_t gx, int32_t gy)
{
    /* odd-r offset -> axial: q = x - (y - (y & 1)) / 2; in 64 bits, for points anywhere (a point
     * pf_grid_nearest is asked about may lie 2^31 from the map) */
    int64_t q1 = (int64_t)x - ((int64_t)y - (y & 1)) / 2, q2 = (int64_t)gx - ((int64_t)gy - (gy & 1)) / 2;
    int64_t dq = q1 - q2, dr = (int64_t)y - gy, ds = -dq - dr;
    dq = dq < 0 ? -dq : dq;
    dr = dr < 0 ? -dr : dr;
    ds = ds < 0 ? -ds : ds;
    return (double)((dq > dr ? (dq > ds ? dq : ds) : (dr > ds ? dr : ds)));
}

/* The metric of kind k between cells (x, y) and (gx, gy), hex distance included. */
PF__INLINE double pf__grid_dist(pf_heur k, int32_t x, int32_t y, int32_t gx, int32_t gy)
{
    return k == PF_HEUR_HEX ? pf__grid_hex_dist(x, y, gx, gy)
                            : pf__grid_metric_d(k, (double)x - (double)gx, (double)y - (double)gy);
}

#endif
