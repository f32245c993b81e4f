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
 * jump[c * 8 + slot[d]] (d = 0..7, N E S W NE SE SW NW): the legal steps from padded cell c in
 * direction d (the prep map's classes, in c's own class: a legal step never changes class) up to
 * and including the first subgoal, bit 7 set when the walk ends on one; otherwise the walk ends
 * before a wall.
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
/* The slot of direction d in a cell's eight: each pass of the build writes four side by side. */
static const uint8_t slot[8] = {4, 3, 0, 7, 5, 1, 2, 6};

void pf__accel_jumps_free(pf_accel *acc)
{
    pf__free(&acc->alloc, acc->jump, (size_t)acc->cells * JUMP_DIRS);
    acc->jump = NULL;
}

size_t pf__accel_jumps_bytes(const pf_accel *acc) { return acc->jump ? (size_t)acc->cells * JUMP_DIRS : 0; }

/* The entry of a cell whose step to neighbour n is legal (ok), from n's entry t in the same
 * direction: 1 step to a subgoal n, else one more than n's walk, 127 past that (the walk goes on
 * from there, whether or not it ends on a subgoal). Branch-free byte arithmetic, so the rows'
 * loops below vectorise (with branches the table took 800 M instructions on rooms-2000, 200 a
 * cell). */
PF__INLINE uint8_t entry(uint32_t ok, uint8_t sub_n, uint8_t t)
{
    const uint8_t k = (uint8_t)((t & JUMP_MAX) + 1u), sat = (uint8_t)(k >> 7); /* k = 128: past 127 */
    const uint8_t on = (uint8_t)((uint8_t)(k - sat) | (t & JUMP_HIT & (uint8_t)(sat - 1u)));
    const uint8_t okm = (uint8_t)(0u - ok), subm = (uint8_t)(0u - (uint32_t)(sub_n != 0));
    return (uint8_t)(okm & ((subm & (JUMP_HIT | 1u)) | (~subm & on)));
}

/* entry() for the serial loops, from a step's code (make_row) and the entry after it */
PF__INLINE uint8_t next(uint8_t code, uint8_t t)
{
    const uint8_t on = (uint8_t)((t & JUMP_MAX) == JUMP_MAX ? JUMP_MAX : t + 1u);
    return code == 2 ? on : (uint8_t)(code ? JUMP_HIT | 1u : 0u);
}

int pf__accel_jumps_index(pf_accel *acc)
{
    pf__accel_jumps_free(acc);
    return acc->core || !acc->nodes ? 1 : pf__accel_jumps_make(acc);
}

/* Row y's entries in the four directions of one pass: the two that lead to row y + dy (straight
 * and its diagonals sd0 = to x + 1, sd1 = to x - 1) from that row's entries (prev, made before), the
 * one along the row (dx: +1 E, -1 W) from the row's own, its cells taken against dx. Cells outside
 * the border are blocked (the padding): only x = 1 .. pw - 2 of rows 1 .. ph - 2 are made, and
 * every neighbour read is inside the map. */
static void make_row(const uint8_t *cls, const uint8_t *sub, uint32_t pw, uint32_t y, int dy, int dx, uint8_t *const prev[3],
                     uint8_t *const cur[4])
{
    const uint8_t *restrict cc = cls + (size_t)y * pw, *restrict cn = cls + (size_t)((int64_t)y + dy) * pw;
    const uint8_t *restrict sn = sub + (size_t)((int64_t)y + dy) * pw, *restrict sc = sub + (size_t)y * pw;
    uint8_t *restrict vs = cur[0], *restrict v0 = cur[1], *restrict v1 = cur[2], *restrict h = cur[3];
    const uint8_t *restrict ps = prev[0], *restrict p0 = prev[1], *restrict p1 = prev[2];
    /* one loop a direction: each vectorises alone */
    for (uint32_t x = 1; x + 1 < pw; x++) vs[x] = entry((cc[x] != 0) & (cn[x] == cc[x]), sn[x], ps[x]);
    for (uint32_t x = 1; x + 1 < pw; x++)
        v0[x] = entry((cc[x] != 0) & (cn[x] == cc[x]) & (cc[x + 1] == cc[x]) & (cn[x + 1] == cc[x]), sn[x + 1], p0[x + 1]);
    for (uint32_t x = 1; x + 1 < pw; x++)
        v1[x] = entry((cc[x] != 0) & (cn[x] == cc[x]) & (cc[x - 1] == cc[x]) & (cn[x - 1] == cc[x]), sn[x - 1], p1[x - 1]);
    vs[0] = v0[0] = v1[0] = h[0] = vs[pw - 1] = v0[pw - 1] = v1[pw - 1] = h[pw - 1] = 0;
    /* along the row: first what each step is (0 not legal, 1 onto a subgoal, 2 on), a loop that
     * vectorises, into h itself; then the serial part, each entry from its code and the last */
    if (dx > 0) {
        for (uint32_t x = 1; x + 1 < pw; x++)
            h[x] = (uint8_t)(((cc[x] != 0) & (cc[x + 1] == cc[x])) * (2u - (uint32_t)(sc[x + 1] != 0)));
        uint8_t run = 0;
        for (uint32_t x = pw - 2; x >= 1; x--) h[x] = run = next(h[x], run);
    } else {
        for (uint32_t x = 1; x + 1 < pw; x++)
            h[x] = (uint8_t)(((cc[x] != 0) & (cc[x - 1] == cc[x])) * (2u - (uint32_t)(sc[x - 1] != 0)));
        uint8_t run = 0;
        for (uint32_t x = 1; x + 1 < pw; x++) h[x] = run = next(h[x], run);
    }
}

/* Row y's entries of one pass (rows r[0..4), in its slots' order) into the table: each cell's
 * four of that pass side by side. */
static void put_row(uint8_t *restrict e, uint8_t *const r[4], uint32_t pw)
{
    const uint8_t *restrict r0 = r[0], *restrict r1 = r[1], *restrict r2 = r[2], *restrict r3 = r[3];
    /* a word a cell, its bytes in memory order r0..r3: byte stores did not vectorise (100 M
     * instructions on 2000x2000) */
    for (uint32_t x = 0; x < pw; x++) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        const uint32_t w = (uint32_t)r3[x] | (uint32_t)r2[x] << 8 | (uint32_t)r1[x] << 16 | (uint32_t)r0[x] << 24;
#else
        const uint32_t w = (uint32_t)r0[x] | (uint32_t)r1[x] << 8 | (uint32_t)r2[x] << 16 | (uint32_t)r3[x] << 24;
#endif
        memcpy(e + (size_t)x * JUMP_DIRS, &w, sizeof w);
    }
}

int pf__accel_jumps_make(pf_accel *acc)
{
    pf__accel_jumps_free(acc);
    const uint32_t pw = acc->map->pw, ph = acc->map->ph;
    /* rows of entries by direction, two passes over the rows, then each row's interleaved by cell:
     * 2 x 4 rows of pw, then 4 */
    const size_t row = pf__align64(pw);
    uint8_t *jump = pf__alloc(&acc->alloc, (size_t)acc->cells * JUMP_DIRS, 64);
    uint8_t *rows = pf__alloc(&acc->alloc, 8u * row, 64);
    if (!jump || !rows) {
        pf__free(&acc->alloc, jump, (size_t)acc->cells * JUMP_DIRS);
        pf__free(&acc->alloc, rows, 8u * row);
        return 0;
    }
    /* pass 1, rows from the last up: S SE SW (from the row below) and E, slots 0-3; pass 2, from
     * the first down: N NE NW (from the row above) and W, slots 4-7. The border rows' entries are 0 */
    for (int pass = 0; pass < 2; pass++) {
        uint8_t *a[4], *b[4];
        for (uint32_t i = 0; i < 4; i++) {
            a[i] = rows + i * row;
            b[i] = rows + (4u + i) * row;
        }
        memset(rows, 0, 8u * row);
        for (uint32_t i = 0; i < ph; i++) {
            const uint32_t y = pass ? i : ph - 1u - i;
            if (y >= 1 && y + 1 < ph) make_row(acc->prep, acc->sub, pw, y, pass ? -1 : 1, pass ? -1 : 1, a, b);
            else
                for (uint32_t k = 0; k < 4; k++) memset(b[k], 0, pw); /* a border row */
            put_row(jump + (size_t)y * pw * JUMP_DIRS + (pass ? 4u : 0u), b, pw);
            for (uint32_t k = 0; k < 4; k++) { /* this row is the next one's prev */
                uint8_t *t = a[k];
                a[k] = b[k];
                b[k] = t;
            }
        }
    }
    pf__free(&acc->alloc, rows, 8u * row);
    acc->jump = jump;
    return 1;
}

/* The walk from c in direction d: its steps to the first subgoal (*hit = 1) or to the last cell
 * before a wall (*hit = 0). */
PF__INLINE uint32_t walk(const uint8_t *jump, const int32_t *off, uint32_t c, uint32_t d, uint32_t *hit)
{
    uint32_t n = 0;
    for (;;) {
        const uint32_t t = jump[(size_t)c * JUMP_DIRS + slot[d]], k = t & JUMP_MAX;
        n += k;
        if (t & JUMP_HIT || k < JUMP_MAX) {
            *hit = t >> 7;
            return n;
        }
        c = (uint32_t)((int64_t)c + (int64_t)JUMP_MAX * off[d]);
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
    if (hit) emit(out, cap, n, (uint32_t)((int64_t)c + (int64_t)k * off[d]), d < 4 ? a + k : a, d < 4 ? b : b + k);
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
        uint32_t da, db;
        pf__accel_diags_holding(e, &da, &db);
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

/* Whether n steps from c in direction d are legal: the walks' entries hop from subgoal to subgoal
 * (a walk that ends on one goes on from it: its own entry) and stop at a wall. */
PF__INLINE int run_legal(const uint8_t *jump, const int32_t *off, uint32_t c, uint32_t d, uint32_t n, uint32_t *end)
{
    while (n) {
        const uint32_t t = jump[(size_t)c * JUMP_DIRS + slot[d]], k = t & JUMP_MAX;
        if (k >= n) {
            c = (uint32_t)((int64_t)c + (int64_t)n * off[d]);
            break;
        }
        if (!(t & JUMP_HIT) && k < JUMP_MAX) return 0; /* a wall before the n-th step */
        c = (uint32_t)((int64_t)c + (int64_t)k * off[d]);
        n -= k;
    }
    *end = c;
    return 1;
}

int pf__accel_jump_cp_legal(const pf_accel *acc, uint32_t from, uint32_t to, uint32_t *a, uint32_t *b)
{
    const int32_t *off = acc->map->nb_off[0];
    const pf__accel_cp p = pf__accel_cp_shape(acc->map->pw, from, to);
    uint32_t c;
    if (!run_legal(acc->jump, off, from, p.dd, p.nd, &c) || !run_legal(acc->jump, off, c, p.ds, p.ns, &c)) return 0;
    if (a) *a = p.ns;
    if (b) *b = p.nd;
    return 1;
}
