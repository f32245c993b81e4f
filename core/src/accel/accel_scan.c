/* accel_scan.c - subgoals and canonical paths: what the accelerator's graph is made of.
 *
 * A canonical path from c to v takes min(|dx|, |dy|) diagonal steps towards v first, then the rest
 * straight; its cost is the octile distance, so when it is legal it is a shortest path. Jump point
 * search without corner cutting proves every shortest path can be rebuilt from canonical paths
 * whose ends are subgoals (pf_accel.h): these scans find, from a cell, the subgoals such a path
 * reaches first. They walk the map cell by cell, in the cell's own terrain class.
 */
#include "accel/accel_internal.h"

#ifdef PF_WITH_OPENMP
#include <omp.h>
#define PF__OMP(x) _Pragma(x)
#else
#define PF__OMP(x)
#endif

uint32_t pf__accel_mark_subgoals(const pf_map *m, uint8_t *sub, int threads)
{
    const uint8_t *cls = m->cls;
    const int32_t *off = m->nb_off[0];
    const uint32_t pw = m->pw, ph = m->ph;
    int nt = pf__build_threads(threads, (size_t)pw * ph);
    (void)nt;
    uint64_t total = 0;
    memset(sub, 0, (size_t)pw * ph);
    PF__OMP("omp parallel for num_threads(nt) schedule(static) reduction(+ : total)")
    for (int64_t y = 1; y < (int64_t)ph - 1; y++) {
        for (uint32_t x = 1; x + 1 < pw; x++) {
            uint32_t c = (uint32_t)y * pw + x;
            uint8_t k = cls[c];
            if (!k) continue;
            /* a convex corner: the diagonal cell is not walkable for k, both of its sides are */
            for (uint32_t d = 4; d < 8; d++) {
                if (cls[(uint32_t)((int32_t)c + off[d])] != k &&
                    cls[(uint32_t)((int32_t)c + off[pf__dir_h[d]])] == k &&
                    cls[(uint32_t)((int32_t)c + off[pf__dir_v[d]])] == k) {
                    sub[c] = 1;
                    total++;
                    break;
                }
            }
        }
    }
    return (uint32_t)total;
}

PF__INLINE void emit(pf__accel_seed *out, uint32_t cap, uint32_t *n, uint32_t cell, uint32_t a, uint32_t b)
{
    if (*n < cap) out[*n] = (pf__accel_seed){cell, a, b};
    (*n)++;
}

/* Walks from c in direction d while the steps are legal; returns the steps taken to the first
 * subgoal (*hit set to it) or to the last cell before a wall (*hit = PF_NODE_NONE). */
PF__INLINE uint32_t walk(const uint8_t *cls, const int32_t *off, const uint8_t *sub, uint32_t c, uint32_t d,
                         uint32_t *end, uint32_t *hit)
{
    uint32_t n = 0;
    *hit = PF_NODE_NONE;
    while (pf__accel_step_ok(cls, off, c, d)) {
        c = (uint32_t)((int32_t)c + off[d]);
        n++;
        if (sub[c]) {
            *hit = c;
            break;
        }
    }
    *end = c;
    return n;
}

uint32_t pf__accel_scan_fwd(const pf_map *m, const uint8_t *sub, uint32_t c, pf__accel_seed *out, uint32_t cap)
{
    const uint8_t *cls = m->cls;
    const int32_t *off = m->nb_off[0];
    uint32_t n = 0, end, hit;
    for (uint32_t d = 0; d < 4; d++) {
        uint32_t k = walk(cls, off, sub, c, d, &end, &hit);
        if (hit != PF_NODE_NONE) emit(out, cap, &n, hit, k, 0);
    }
    for (uint32_t d = 4; d < 8; d++) {
        /* each cell of the diagonal, then straight along both of its parts: the path turns once */
        uint32_t y = c;
        for (uint32_t j = 1; pf__accel_step_ok(cls, off, y, d); j++) {
            y = (uint32_t)((int32_t)y + off[d]);
            if (sub[y]) { /* everything beyond passes through y */
                emit(out, cap, &n, y, 0, j);
                break;
            }
            for (uint32_t s = 0; s < 2; s++) {
                uint32_t k = walk(cls, off, sub, y, s ? pf__dir_v[d] : pf__dir_h[d], &end, &hit);
                if (hit != PF_NODE_NONE) emit(out, cap, &n, hit, k, j);
            }
        }
    }
    return n;
}

uint32_t pf__accel_scan_bwd(const pf_map *m, const uint8_t *sub, uint32_t c, pf__accel_seed *out, uint32_t cap)
{
    const uint8_t *cls = m->cls;
    const int32_t *off = m->nb_off[0];
    uint32_t n = 0, end, hit;
    /* the paths v -> c reversed: straight from c first, then diagonal (the diagonals holding that
     * straight direction); the pure diagonals first */
    for (uint32_t d = 4; d < 8; d++) {
        uint32_t k = walk(cls, off, sub, c, d, &end, &hit);
        if (hit != PF_NODE_NONE) emit(out, cap, &n, hit, 0, k);
    }
    for (uint32_t e = 0; e < 4; e++) {
        uint32_t z = c;
        for (uint32_t i = 1; pf__accel_step_ok(cls, off, z, e); i++) {
            z = (uint32_t)((int32_t)z + off[e]);
            if (sub[z]) {
                emit(out, cap, &n, z, i, 0);
                break;
            }
            for (uint32_t d = 4; d < 8; d++) {
                if (pf__dir_h[d] != e && pf__dir_v[d] != e) continue;
                uint32_t k = walk(cls, off, sub, z, d, &end, &hit);
                if (hit != PF_NODE_NONE) emit(out, cap, &n, hit, i, k);
            }
        }
    }
    return n;
}

/* The canonical path from -> to as a diagonal direction, its steps, a straight direction and its
 * steps. */
static void cp_shape(const pf_map *m, uint32_t from, uint32_t to, uint32_t *dd, uint32_t *nd, uint32_t *ds,
                     uint32_t *ns)
{
    const int32_t pw = (int32_t)m->pw;
    int32_t fx = (int32_t)from % pw, fy = (int32_t)from / pw, tx = (int32_t)to % pw, ty = (int32_t)to / pw;
    int32_t dx = tx - fx, dy = ty - fy;
    uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
    /* NE SE SW NW by the signs; N E S W by the longer axis */
    *dd = dx >= 0 ? (dy < 0 ? 4u : 5u) : (dy < 0 ? 7u : 6u);
    *nd = ax < ay ? ax : ay;
    *ds = ax > ay ? (dx > 0 ? 1u : 3u) : (dy > 0 ? 2u : 0u);
    *ns = ax > ay ? ax - ay : ay - ax;
}

int pf__accel_cp_legal(const pf_map *m, uint32_t from, uint32_t to, uint32_t *a, uint32_t *b)
{
    const uint8_t *cls = m->cls;
    const int32_t *off = m->nb_off[0];
    uint32_t dd, nd, ds, ns;
    cp_shape(m, from, to, &dd, &nd, &ds, &ns);
    uint32_t c = from;
    for (uint32_t i = 0; i < nd; i++) {
        if (!pf__accel_step_ok(cls, off, c, dd)) return 0;
        c = (uint32_t)((int32_t)c + off[dd]);
    }
    for (uint32_t i = 0; i < ns; i++) {
        if (!pf__accel_step_ok(cls, off, c, ds)) return 0;
        c = (uint32_t)((int32_t)c + off[ds]);
    }
    if (a) *a = ns;
    if (b) *b = nd;
    return 1;
}

uint32_t pf__accel_cp_cells(const pf_map *m, uint32_t from, uint32_t to, uint32_t *out, int rev)
{
    /* public ids step by dx + dy * width: one division for the whole path, not two per cell */
    static const int8_t DX[8] = {0, 1, 0, -1, 1, 1, -1, -1}, DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
    uint32_t dd, nd, ds, ns;
    cp_shape(m, from, to, &dd, &nd, &ds, &ns);
    const int64_t w = (int64_t)m->width;
    const int64_t sd = DX[dd] + DY[dd] * w, ss = DX[ds] + DY[ds] * w;
    const uint32_t n = nd + ns;
    if (!n) return 0;
    int64_t u = (int64_t)pf__grid_unpad(m, from);
    uint32_t *o = rev ? out + n - 1u : out;
    const ptrdiff_t step = rev ? -1 : 1;
    for (uint32_t i = 0; i < nd; i++, o += step) *o = (uint32_t)(u += sd);
    for (uint32_t i = 0; i < ns; i++, o += step) *o = (uint32_t)(u += ss);
    return n;
}
