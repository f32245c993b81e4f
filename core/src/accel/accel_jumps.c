/* accel_jumps.c - the scans' walks as a table: from each cell in each direction, how far the walk
 * goes before it meets a subgoal or a wall; and the query's scans that read it.
 *
 * Why: a query scans twice (the goal's seeds, the start's), and a scan walks every cell of the
 * triangles its canonical paths sweep: on rooms-2000 (rooms of 32x32) that is a room's area and
 * more, 19% of a query's instructions and about a fifth of its time (callgrind, perf). With the
 * table a straight walk, and a diagonal one, is one read: the scans only step along their turning
 * lines (the diagonal of a forward scan, the straight line of a backward one), reading one entry a
 * cell where they read two bytes a cell of every walk from it.
 *
 * jump[c * 8 + d] (d = 0..7, N E S W NE SE SW NW): the legal steps from padded cell c in direction d
 * (the prep map's classes, in c's own class: a legal step never changes class) up to and including
 * the first subgoal, bit 7 set when the walk ends on one; otherwise the walk ends before a wall.
 * Steps are counted to 127: an entry of 127 without bit 7 means the walk goes on from the cell 127
 * steps away, whose own entry says how (a walk is the same from any cell it passes, which is also
 * what lets the table be built by one sweep a direction). The eight directions of a cell share a
 * cache line: a scan reads two of them at each cell of its turning line.
 *
 * 8 bytes a cell, so made for a hierarchy without a core only (rooms-2000 and maze-2000-w4: 7 and
 * 8.4 bytes a cell without it), where the query is a few dozen expansions and the scans weigh; on
 * a map with a core (random-2000-20: 58.9 bytes a cell, the limit 64) its A* across the core
 * costs a hundred times the scans. Not in the file: computed after a build and after a load (two
 * passes over the cells), so files made before it load and answer the same.
 */
#include "accel/accel_internal.h"

#define JUMP_HIT  0x80u
#define JUMP_MAX  127u
#define JUMP_DIRS 8u

void pf__accel_jumps_free(pf_accel *acc)
{
    pf__free(&acc->alloc, acc->jump, (size_t)acc->cells * JUMP_DIRS);
    acc->jump = NULL;
}

size_t pf__accel_jumps_bytes(const pf_accel *acc) { return acc->jump ? (size_t)acc->cells * JUMP_DIRS : 0; }

/* The entry of cell c in direction d, its neighbour n there (c + off[d]) done: open is whether the
 * step is legal. */
PF__INLINE uint8_t entry(const uint8_t *jump, const uint8_t *sub, uint32_t n, uint32_t d, int open)
{
    if (!open) return 0;
    if (sub[n]) return (uint8_t)(JUMP_HIT | 1u);
    uint32_t t = jump[(size_t)n * JUMP_DIRS + d], k = (t & JUMP_MAX) + 1u;
    /* beyond 127 steps: 127, and the walk goes on from there (whether or not it ends on a subgoal) */
    if (k > JUMP_MAX) return (uint8_t)JUMP_MAX;
    return (uint8_t)(k | (t & JUMP_HIT));
}

int pf__accel_jumps_index(pf_accel *acc)
{
    pf__accel_jumps_free(acc);
    return acc->core || !acc->nodes ? 1 : pf__accel_jumps_make(acc);
}

int pf__accel_jumps_make(pf_accel *acc)
{
    pf__accel_jumps_free(acc);
    uint8_t *jump = pf__alloc(&acc->alloc, (size_t)acc->cells * JUMP_DIRS, 64);
    if (!jump) return 0;
    const pf__grid_view v = pf__accel_prep_view(acc, acc->map);
    const uint8_t *sub = acc->sub;
    const uint32_t cells = acc->cells;
    /* the directions whose neighbour has a higher index (E S SE SW) from the last cell back, the
     * others (N W NE NW) from the first: each entry reads its neighbour's, already made. A blocked
     * cell (the padding among them) has entries 0, and no walk starts from one */
    static const uint32_t up[4] = {1, 2, 5, 6}, down[4] = {0, 3, 4, 7};
    for (uint32_t i = cells; i-- > 0;) {
        uint8_t *e = jump + (size_t)i * JUMP_DIRS;
        if (!v.cls[i]) {
            memset(e, 0, JUMP_DIRS);
            continue;
        }
        const uint32_t open = pf__grid_open_dirs(&v, NULL, i, pf__accel_unit(&v, i), PF__MV_8);
        for (uint32_t k = 0; k < 4; k++) {
            const uint32_t d = up[k];
            e[d] = entry(jump, sub, (uint32_t)((int32_t)i + v.off[d]), d, (int)((open >> d) & 1u));
        }
    }
    for (uint32_t i = 0; i < cells; i++) {
        uint8_t *e = jump + (size_t)i * JUMP_DIRS;
        if (!v.cls[i]) continue;
        const uint32_t open = pf__grid_open_dirs(&v, NULL, i, pf__accel_unit(&v, i), PF__MV_8);
        for (uint32_t k = 0; k < 4; k++) {
            const uint32_t d = down[k];
            e[d] = entry(jump, sub, (uint32_t)((int32_t)i + v.off[d]), d, (int)((open >> d) & 1u));
        }
    }
    acc->jump = jump;
    return 1;
}

/* The walk from c in direction d: its steps to the first subgoal (*hit = 1) or to the last cell
 * before a wall (*hit = 0). */
PF__INLINE uint32_t walk(const uint8_t *jump, const int32_t *off, uint32_t c, uint32_t d, uint32_t *hit)
{
    uint32_t n = 0;
    for (;;) {
        const uint32_t t = jump[(size_t)c * JUMP_DIRS + d], k = t & JUMP_MAX;
        n += k;
        if (t & JUMP_HIT || k < JUMP_MAX) {
            *hit = t >> 7;
            return n;
        }
        c = (uint32_t)((int32_t)c + (int32_t)JUMP_MAX * off[d]);
    }
}

PF__INLINE void emit(pf__accel_seed *out, uint32_t cap, uint32_t *n, uint32_t cell, uint32_t a, uint32_t b)
{
    if (*n < cap) out[*n] = (pf__accel_seed){cell, a, b};
    (*n)++;
}

/* Emits the subgoal that the walk from c in direction d meets, as accel_scan.c's walk_emit: a seed
 * of `a` straight steps before the walk and `b` diagonal ones, plus the walk's own. */
PF__INLINE void walk_emit(const uint8_t *jump, const int32_t *off, uint32_t c, uint32_t d, uint32_t a, uint32_t b,
                          pf__accel_seed *out, uint32_t cap, uint32_t *n)
{
    uint32_t hit, k = walk(jump, off, c, d, &hit);
    if (hit) emit(out, cap, n, (uint32_t)((int32_t)c + (int32_t)k * off[d]), d < 4 ? a + k : a, d < 4 ? b : b + k);
}

/* The seeds in the order pf__accel_scan_fwd and pf__accel_scan_bwd list them (the searches take
 * them in that order, so the paths found are the same): every step of a walk there is a step of
 * the walk here, and a walk there stops where the entry here says it does. */
uint32_t pf__accel_jump_fwd(const pf_accel *acc, uint32_t c, pf__accel_seed *out, uint32_t cap)
{
    const uint8_t *jump = acc->jump;
    const int32_t *off = acc->map->nb_off[0];
    uint32_t n = 0;
    for (uint32_t d = 0; d < 4; d++) walk_emit(jump, off, c, d, 0, 0, out, cap, &n);
    for (uint32_t d = 4; d < 8; d++) {
        /* each cell of the diagonal, then straight along both of its parts */
        uint32_t hit, len = walk(jump, off, c, d, &hit), y = c;
        for (uint32_t j = 1; j <= len; j++) {
            y = (uint32_t)((int32_t)y + off[d]);
            if (j == len && hit) {
                emit(out, cap, &n, y, 0, j);
                break;
            }
            walk_emit(jump, off, y, pf__dir_h[d], 0, j, out, cap, &n);
            walk_emit(jump, off, y, pf__dir_v[d], 0, j, out, cap, &n);
        }
    }
    return n;
}

uint32_t pf__accel_jump_bwd(const pf_accel *acc, uint32_t c, pf__accel_seed *out, uint32_t cap)
{
    const uint8_t *jump = acc->jump;
    const int32_t *off = acc->map->nb_off[0];
    uint32_t n = 0;
    for (uint32_t d = 4; d < 8; d++) walk_emit(jump, off, c, d, 0, 0, out, cap, &n);
    for (uint32_t e = 0; e < 4; e++) {
        /* the two diagonals holding e, in increasing order */
        uint32_t da = pf__dir_diag[e][(e + 1u) & 3u], db = pf__dir_diag[e][(e + 3u) & 3u];
        if (da > db) {
            uint32_t t = da;
            da = db;
            db = t;
        }
        uint32_t hit, len = walk(jump, off, c, e, &hit), z = c;
        for (uint32_t i = 1; i <= len; i++) {
            z = (uint32_t)((int32_t)z + off[e]);
            if (i == len && hit) {
                emit(out, cap, &n, z, i, 0);
                break;
            }
            walk_emit(jump, off, z, da, i, 0, out, cap, &n);
            walk_emit(jump, off, z, db, i, 0, out, cap, &n);
        }
    }
    return n;
}
