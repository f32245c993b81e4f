/* accel_scan.c - subgoals and canonical paths: what the accelerator's graph is made of.
 *
 * A canonical path from c to v takes min(|dx|, |dy|) diagonal steps towards v first, then the rest
 * straight; its cost is the octile distance, so when it is legal it is a shortest path. Jump point
 * search without corner cutting proves every shortest path can be rebuilt from canonical paths
 * whose ends are subgoals (pf_accel.h): these scans find, from a cell, the subgoals such a path
 * reaches first. They walk the map cell by cell, in the cell's own terrain class.
 */
#include "accel/accel_internal.h"

typedef struct mark_job {
    const pf_map *m;
    uint8_t      *sub;
    uint64_t      total; /* added to atomically, once per range */
} mark_job;

/* rows 1 + [begin, end) */
static void mark_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    mark_job *j = ctx;
    const pf_map *m = j->m;
    const uint32_t pw = m->pw;
    uint8_t *sub = j->sub;
    uint64_t total = 0;
    (void)worker;
    /* a copy of its own: a shared one is read through a pointer, and reloaded after every store
     * to sub */
    const pf__grid_view v = pf__grid_view_of(m);
    for (uint64_t y = 1 + begin; y < 1 + end; y++) {
        for (uint32_t x = 1; x + 1 < pw; x++) {
            uint32_t c = (uint32_t)y * pw + x;
            pf__unit u = {v.cls[c], 1};
            if (!u.k) continue;
            /* a convex corner: the diagonal cell is not open, both of its sides are */
            for (uint32_t d = 4; d < 8; d++) {
                if (!pf__cell_open(&v, (uint32_t)((int32_t)c + v.off[d]), u) && pf__grid_sides_open(&v, c, d, u)) {
                    sub[c] = 1;
                    total++;
                    break;
                }
            }
        }
    }
    (void)pf__atomic_add_u64(&j->total, total);
}

uint32_t pf__accel_mark_subgoals(const pf_map *m, uint8_t *sub, const pf__par *par)
{
    const uint32_t pw = m->pw, ph = m->ph;
    memset(sub, 0, (size_t)pw * ph);
    pf__par p = par ? *par : pf__par_build(NULL, 0, (size_t)pw * ph);
    mark_job j = {m, sub, 0};
    pf__par_for(&p, ph - 2u, 0, mark_body, &j);
    return (uint32_t)j.total;
}

PF__INLINE void emit(pf__accel_seed *out, uint32_t cap, uint32_t *n, uint32_t cell, uint32_t a, uint32_t b)
{
    if (*n < cap) out[*n] = (pf__accel_seed){cell, a, b};
    (*n)++;
}

/* Whether unit u may step from c in direction d: the grid's rule, without corner cutting. */
PF__INLINE int step_ok(const pf__grid_view *v, uint32_t c, uint32_t d, pf__unit u)
{
    return pf__grid_step_ok(v, c, d, u, PF__MV_8);
}

/* Walks from c in direction d while the steps are legal; returns the steps taken to the first
 * subgoal (*hit set to it) or to the last cell before a wall (*hit = PF_NODE_NONE). */
PF__INLINE uint32_t walk(const pf__grid_view *v, pf__unit u, const uint8_t *sub, uint32_t c, uint32_t d, uint32_t *hit)
{
    uint32_t n = 0;
    *hit = PF_NODE_NONE;
    while (step_ok(v, c, d, u)) {
        c = (uint32_t)((int32_t)c + v->off[d]);
        n++;
        if (sub[c]) {
            *hit = c;
            break;
        }
    }
    return n;
}

/* Emits the subgoal that a walk from c in direction d meets, as a seed of `a` straight steps before
 * the walk and `b` diagonal ones (plus the walk's own, straight or diagonal by d). */
PF__INLINE void walk_emit(const pf__grid_view *v, pf__unit u, const uint8_t *sub, uint32_t c, uint32_t d, uint32_t a,
                          uint32_t b, pf__accel_seed *out, uint32_t cap, uint32_t *n)
{
    uint32_t hit, k = walk(v, u, sub, c, d, &hit);
    if (hit != PF_NODE_NONE) emit(out, cap, n, hit, d < 4 ? a + k : a, d < 4 ? b : b + k);
}

uint32_t pf__accel_scan_fwd(const pf__grid_view *vp, const uint8_t *sub, uint32_t c, pf__accel_seed *out, uint32_t cap)
{
    /* a copy of its own, as mark_body's: read through a pointer it would be reloaded after stores */
    const pf__grid_view v = *vp;
    const pf__unit u = pf__accel_unit(&v, c);
    uint32_t n = 0;
    for (uint32_t d = 0; d < 4; d++) walk_emit(&v, u, sub, c, d, 0, 0, out, cap, &n);
    for (uint32_t d = 4; d < 8; d++) {
        /* each cell of the diagonal, then straight along both of its parts: the path turns once */
        uint32_t y = c;
        for (uint32_t j = 1; step_ok(&v, y, d, u); j++) {
            y = (uint32_t)((int32_t)y + v.off[d]);
            if (sub[y]) { /* everything beyond passes through y */
                emit(out, cap, &n, y, 0, j);
                break;
            }
            walk_emit(&v, u, sub, y, pf__dir_h[d], 0, j, out, cap, &n);
            walk_emit(&v, u, sub, y, pf__dir_v[d], 0, j, out, cap, &n);
        }
    }
    return n;
}

uint32_t pf__accel_scan_bwd(const pf__grid_view *vp, const uint8_t *sub, uint32_t c, pf__accel_seed *out, uint32_t cap)
{
    /* a copy of its own, as mark_body's: read through a pointer it would be reloaded after stores */
    const pf__grid_view v = *vp;
    const pf__unit u = pf__accel_unit(&v, c);
    uint32_t n = 0;
    /* the paths v -> c reversed: straight from c first, then diagonal (the diagonals holding that
     * straight direction); the pure diagonals first */
    for (uint32_t d = 4; d < 8; d++) walk_emit(&v, u, sub, c, d, 0, 0, out, cap, &n);
    for (uint32_t e = 0; e < 4; e++) {
        uint32_t da, db;
        pf__accel_diags_holding(e, &da, &db);
        uint32_t z = c;
        for (uint32_t i = 1; step_ok(&v, z, e, u); i++) {
            z = (uint32_t)((int32_t)z + v.off[e]);
            if (sub[z]) {
                emit(out, cap, &n, z, i, 0);
                break;
            }
            walk_emit(&v, u, sub, z, da, i, 0, out, cap, &n);
            walk_emit(&v, u, sub, z, db, i, 0, out, cap, &n);
        }
    }
    return n;
}

int pf__accel_cp_legal(const pf__grid_view *vp, uint32_t from, uint32_t to, uint32_t *a, uint32_t *b)
{
    const pf__grid_view v = *vp;
    const pf__unit u = pf__accel_unit(&v, from);
    const pf__accel_cp p = pf__accel_cp_shape(v.pw, from, to);
    uint32_t c = from;
    for (uint32_t i = 0; i < p.nd; i++) {
        if (!step_ok(&v, c, p.dd, u)) return 0;
        c = (uint32_t)((int32_t)c + v.off[p.dd]);
    }
    for (uint32_t i = 0; i < p.ns; i++) {
        if (!step_ok(&v, c, p.ds, u)) return 0;
        c = (uint32_t)((int32_t)c + v.off[p.ds]);
    }
    if (a) *a = p.ns;
    if (b) *b = p.nd;
    return 1;
}
