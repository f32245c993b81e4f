/* anyangle_internal.h - the line-of-sight test of pf_anyangle.h on padded cells (never installed),
 * shared by pf_path_smooth (anyangle.c) and Theta* (search.c). */
#ifndef PF_ANYANGLE_INTERNAL_H
#define PF_ANYANGLE_INTERNAL_H

#include <math.h>
#include "map/grid_moves_internal.h"

/*
 * Walks the cells the segment between the centres of padded cells a and b crosses, in order: the
 * next boundary the segment meets is a column's when err > 0, a row's when err < 0, and a corner
 * when err == 0 (then the two cells beside the corner are tested too, the rule's four cells).
 * err is the difference of the distances to the next column and row boundaries, scaled by
 * 2 |dx| |dy| so it stays an integer: exact, no rounding can let a corner pass for a crossing.
 * Open: the unit's class and clearance at least its size (size 1: any open cell of the class);
 * with FL = 1, the sized rule under the view's filter (pf__cell_open_f: a block of allowed
 * classes).
 */
PF__INLINE int pf__grid_los_f(const pf__grid_view *v, uint32_t a, uint32_t b, pf__unit u, const int FL)
{
    const int32_t pw = (int32_t)v->pw;
    const int32_t x0 = (int32_t)(a % v->pw), y0 = (int32_t)(a / v->pw);
    const int32_t x1 = (int32_t)(b % v->pw), y1 = (int32_t)(b / v->pw);
    const int64_t dx = x1 > x0 ? x1 - x0 : x0 - x1, dy = y1 > y0 ? y1 - y0 : y0 - y1;
    const int32_t sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? pw : -pw;
    int64_t err = dx - dy, n = dx + dy;
    uint32_t i = a;
#define PF__LOS_OPEN(c) (FL ? pf__cell_open_f(v, (c), u, 1, 1) : (v->cls[c] == u.k && v->clr[c] >= u.size))
    while (n > 0) {
        if (!PF__LOS_OPEN(i)) return 0;
        if (err > 0) {
            i = (uint32_t)((int32_t)i + sx);
            err -= 2 * dy;
            n--;
        } else if (err < 0) {
            i = (uint32_t)((int32_t)i + sy);
            err += 2 * dx;
            n--;
        } else {
            if (!PF__LOS_OPEN((uint32_t)((int32_t)i + sx)) || !PF__LOS_OPEN((uint32_t)((int32_t)i + sy))) return 0;
            i = (uint32_t)((int32_t)i + sx + sy);
            err += 2 * (dx - dy);
            n -= 2;
        }
    }
    return PF__LOS_OPEN(i);
#undef PF__LOS_OPEN
}

PF__INLINE int pf__grid_los(const pf__grid_view *v, uint32_t a, uint32_t b, pf__unit u)
{
    return pf__grid_los_f(v, a, b, u, 0);
}

/* Euclidean distance between the centres of padded cells a and b. */
PF__INLINE double pf__grid_euclid(uint32_t pw, uint32_t a, uint32_t b)
{
    double dx = (double)(a % pw) - (double)(b % pw), dy = (double)(a / pw) - (double)(b / pw);
    return sqrt(dx * dx + dy * dy);
}

#endif
