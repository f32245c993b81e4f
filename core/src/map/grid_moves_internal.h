/* grid_moves_internal.h - the grid move rule, written once (never installed): directions, which
 * neighbours a cell may step to, and what a step costs. Used by every grid search (A*, group
 * searches: search/), the first-move tables (table/), the component labels (map/components.c),
 * JPS's direction algebra (jps/) and the accelerator's subgoals and canonical paths (accel/).
 *
 * DIRECTIONS. Square grids: 0..7 = N E S W NE SE SW NW; the reverse of d is d ^ 2, and diagonal
 * d >= 4 is made of straight pf__dir_h[d] and pf__dir_v[d]. Hex grids (odd-r offset layout):
 * 0..5 = W E NW NE SW SE, reverse pf__hex_back[d], with x offsets by row parity. The map's
 * nb_off[parity][d] (pf__grid_set_offsets) is the padded index offset of direction d.
 *
 * THE RULE. A unit may step from cell c in direction d when the cell entered is open for it, and,
 * on a diagonal without corner cutting (PF_MOVES_8_NO_CUT), both side cells are open too. Every
 * rule is symmetric (c -> n is legal iff n -> c is), which backward searches and the tables rely on.
 * "Open" is pf__cell_open: the cell has the start's terrain class. Unit sizes plug in there and
 * only there: a KxK unit standing on a cell occupies the KxK block whose top-left cell it is, and
 * the cell is open to it when that block is all of the start's class, which is the cell's class
 * plus its clearance byte (map/clearance.c) at least K. The rule above then reads "position" for
 * "cell": a diagonal needs both side footprints. Searches that take sizes are instantiated with
 * SZ = 1 (pf__grid_open_dirs_sz); SZ = 0 reads no clearance at all.
 * Movement types (pf_search_desc.filter) plug in at the same place: with FL = 1 a cell is open
 * when its class is one the unit's filter allows (the view's flt), whatever the start's class; the searches
 * that take filters are instantiated with FL = 1 (pf__grid_open_dirs_f), every other caller runs
 * the FL = 0 rule unchanged. With both (SZ = 1, FL = 1) a position is open when the unit's whole
 * KxK block is of allowed classes, mixed ones included: the clearance byte is of one class and
 * says nothing of such a block, so the block itself is read (pf__block_allowed), through the
 * context's memo of answers for that size and filter where the view has one (search/fsize.c).
 */
#ifndef PF_GRID_MOVES_INTERNAL_H
#define PF_GRID_MOVES_INTERNAL_H

#include <float.h>
#include <math.h>
#include "map/map_internal.h"
#include "pathfind/pf_search.h" /* pf_move_filter */

/* Move rules as compile-time constants: search loops are instantiated per rule. */
enum { PF__MV_4 = 0, PF__MV_8 = 1, PF__MV_8CUT = 2, PF__MV_HEX = 3 };

static const int8_t pf__dir_dx[8] = {0, 1, 0, -1, 1, 1, -1, -1};
static const int8_t pf__dir_dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
static const uint8_t pf__dir_h[8] = {0, 0, 0, 0, 1, 1, 3, 3}; /* straight parts of a diagonal */
static const uint8_t pf__dir_v[8] = {0, 0, 0, 0, 0, 2, 2, 0};
/* The diagonal between perpendicular straight directions a and b: [a][b] (0 when not perpendicular). */
static const uint8_t pf__dir_diag[4][4] = {{0, 4, 0, 7}, {4, 0, 5, 0}, {0, 5, 0, 6}, {7, 0, 6, 0}};
/* Base cost of a step by direction on a square grid. A load: `d < 4 ? 1 : PF__SQRT2` compiled to
 * a mispredicted branch in the search loop. */
static const double pf__dir_step[8] = {1.0, 1.0, 1.0, 1.0, PF__SQRT2, PF__SQRT2, PF__SQRT2, PF__SQRT2};
static const uint8_t pf__hex_back[6] = {1, 0, 5, 4, 3, 2};
static const int8_t pf__hex_dy[6] = {0, 0, -1, -1, 1, 1};
static const int8_t pf__hex_dx[2][6] = {{-1, 1, -1, 0, -1, 0}, {-1, 1, 0, 1, 0, 1}}; /* [y & 1] */

/* The compile-time rule of a map's pf_moves. */
PF__INLINE int pf__mv_of(pf_moves moves)
{
    return moves == PF_MOVES_4 ? PF__MV_4 : moves == PF_MOVES_8_CUT ? PF__MV_8CUT
                                          : moves == PF_MOVES_HEX ? PF__MV_HEX : PF__MV_8;
}

/* Directions of a rule; the reverse of direction d. */
PF__INLINE uint32_t pf__mv_dirs(const int MV) { return MV == PF__MV_4 ? 4u : MV == PF__MV_HEX ? 6u : 8u; }
PF__INLINE uint32_t pf__mv_back(const int MV, uint32_t d) { return MV == PF__MV_HEX ? pf__hex_back[d] : d ^ 2u; }

/* Column and row steps of direction d under rule MV, from padded row py: hex x steps depend on the
 * row's parity, and padded row py is row py - 1 of the odd-r layout. */
PF__INLINE int32_t pf__mv_dx(const int MV, uint32_t py, uint32_t d)
{
    return MV == PF__MV_HEX ? pf__hex_dx[(py & 1u) ^ 1u][d] : pf__dir_dx[d];
}
PF__INLINE int32_t pf__mv_dy(const int MV, uint32_t d) { return MV == PF__MV_HEX ? pf__hex_dy[d] : pf__dir_dy[d]; }

/* What the rule means for connectivity between a row and the row above it (padded row py - 1):
 * cells of one class at columns x (row py) and x' (row py - 1) are joined without passing through
 * other cells of those rows iff x - *lo <= x' <= x + *hi. A diagonal without corner cutting adds
 * nothing (it needs both side cells, which already join the two by straight steps); with corner
 * cutting it reaches one column further each way; a hex row meets the row above shifted half a
 * cell, left or right by its parity. Component labelling joins runs of cells by this. */
PF__INLINE void pf__mv_up_reach(const int MV, uint32_t py, uint32_t *lo, uint32_t *hi)
{
    *lo = *hi = 0;
    if (MV == PF__MV_8CUT) {
        *lo = *hi = 1;
    } else if (MV == PF__MV_HEX) { /* up: directions 2 (NW) and 3 (NE) */
        *lo = (uint32_t)-pf__mv_dx(MV, py, 2);
        *hi = (uint32_t)pf__mv_dx(MV, py, 3);
    }
}

/* What a grid loop reads of the map, loaded once into locals: to the compiler a store to the
 * search records may alias the map's fields, so read through the map they would be reloaded after
 * every store. */
typedef struct pf__grid_view {
    const uint8_t *cls;   /* terrain class of each padded cell, 0 = blocked */
    const uint8_t *clr;   /* clearance of each padded cell (map/clearance.c) */
    const float   *cost;  /* multiplier of each padded cell; NULL when uniform */
    const int32_t *off;   /* square grids: padded offset of direction d (the map's nb_off[0]) */
    uint32_t       pw;    /* padded width */
    /* The movement type the map is read for (pf_search_desc.filter), read only where FL = 1; NULL
     * from pf__grid_view_of. It rides with the view rather than with pf__unit so the unit stays
     * two bytes in every caller that knows nothing of filters. */
    const pf_move_filter *flt;
    /* SZ = 1 with FL = 1 only: a byte per padded cell for the unit's size under flt, 0 = not known
     * yet, 1 = the block holds a class flt refuses, 2 = open (search/fsize.c); NULL = read the
     * block every time. Filled in as the rule asks. */
    uint8_t *fmemo;
} pf__grid_view;

PF__INLINE pf__grid_view pf__grid_view_of(const pf_map *m)
{
    pf__grid_view v = {.cls = m->cls, .clr = m->clr, .cost = m->cost, .off = m->nb_off[0], .pw = m->pw};
    return v;
}

/* Who is moving: what a cell must hold to be open to it. */
typedef struct pf__unit {
    uint8_t k;          /* terrain class of the start; 0 (blocked) never moves */
    uint8_t size;       /* side of the unit's square footprint; read only where SZ = 1 */
} pf__unit;

/* Whether filter f lets its unit enter class k (never class 0: validated in search.c). */
PF__INLINE int pf__filter_allows(const pf_move_filter *f, uint8_t k) { return (int)(((unsigned)f->classes[k >> 3] >> (k & 7u)) & 1u); }

/* The multiplier filter f puts on a step into class k. */
PF__INLINE double pf__filter_mult(const pf_move_filter *f, uint8_t k)
{
    float x = f->class_cost[k];
    return x > 0.0f ? (double)x : 1.0;
}

/* The smallest multiplier f puts on a step into a class it allows: the heuristic is scaled by it
 * (times the map's smallest), so it never overestimates. */
PF__INLINE double pf__filter_min_mult(const pf_move_filter *f)
{
    double lo = INFINITY;
    for (uint32_t i = 0; i < 32; i++)
        for (uint32_t b = f->classes[i]; b; b &= b - 1u) {
            double x = pf__filter_mult(f, (uint8_t)(i * 8u + pf__ctz32(b)));
            lo = x < lo ? x : lo;
        }
    return lo;
}

/* Whether every class f allows costs one multiplier (*mul): JPS's jumps are runs of equal steps,
 * and Theta*'s segments are priced by their length times it. *one is the class when f allows a
 * single one (JPS: its bitmaps and JPS+ distances are the class's own), else 0. */
PF__INLINE int pf__filter_uniform(const pf_move_filter *f, double *mul, uint8_t *one)
{
    double m0 = 1.0;
    uint32_t n = 0;
    uint8_t k1 = 0;
    for (uint32_t i = 0; i < 32; i++)
        for (uint32_t b = f->classes[i]; b; b &= b - 1u) {
            uint8_t k = (uint8_t)(i * 8u + pf__ctz32(b));
            double v = pf__filter_mult(f, k);
            if (n++ && v != m0) return 0;
            m0 = v;
            k1 = k;
        }
    *mul = m0;
    *one = n == 1 ? k1 : 0;
    return n > 0;
}

/* Whether pf_search takes filter f (pf_search.h): some class of 1..255, never class 0, every
 * multiplier 0 or positive and finite. Written as straight loops, which the compiler vectorises (a
 * per-element early exit made this a tenth of a short filtered query). */
PF__INLINE int pf__filter_valid(const pf_move_filter *f)
{
    unsigned any = f->classes[0] & 0xFEu, bad = 0;
    for (uint32_t i = 1; i < 32; i++) any |= f->classes[i];
    for (uint32_t k = 0; k < 256; k++) bad |= !(f->class_cost[k] >= 0.0f) | (f->class_cost[k] > FLT_MAX);
    return any && !(f->classes[0] & 1u) && !bad;
}

/* Whether the size x size block whose top-left is padded cell i holds only classes f allows. Rows
 * are read top first and each row left first, stopping at the first refused cell: the blocked
 * border (class 0, never allowed) then stops it before it reads past the map's last row. */
PF__INLINE int pf__block_allowed(const uint8_t *cls, uint32_t pw, const pf_move_filter *f, uint32_t i, uint32_t size)
{
    for (uint32_t y = 0; y < size; y++)
        for (uint32_t x = 0; x < size; x++)
            if (!pf__filter_allows(f, cls[i + y * pw + x])) return 0;
    return 1;
}

/* The sized rule under a filter, through the view's memo when it has one. */
PF__INLINE int pf__cell_open_fsz(const pf__grid_view *v, uint32_t i, uint32_t size)
{
    if (!v->fmemo) return pf__block_allowed(v->cls, v->pw, v->flt, i, size);
    uint8_t k = v->fmemo[i];
    if (PF__UNLIKELY(!k)) k = v->fmemo[i] = (uint8_t)(1 + pf__block_allowed(v->cls, v->pw, v->flt, i, size));
    return k == 2;
}

PF__INLINE int pf__cell_open_f(const pf__grid_view *v, uint32_t i, pf__unit u, const int SZ, const int FL)
{
    if (FL && SZ) return pf__cell_open_fsz(v, i, u.size);
    if (FL) return pf__filter_allows(v->flt, v->cls[i]);
    return v->cls[i] == u.k && (!SZ || v->clr[i] >= u.size);
}

PF__INLINE int pf__cell_open_sz(const pf__grid_view *v, uint32_t i, pf__unit u, const int SZ)
{
    return pf__cell_open_f(v, i, u, SZ, 0);
}

PF__INLINE int pf__cell_open(const pf__grid_view *v, uint32_t i, pf__unit u) { return pf__cell_open_sz(v, i, u, 0); }

/*
 * Bit d set when the unit may step from padded cell `cur` in direction d under rule MV. Square
 * rules address neighbours by the padded width (a register, where a table of offsets would be
 * reloaded after every store to the records); hex rules by `hex_off`, the offsets of cur's row
 * parity (unused otherwise). SZ = 1: the unit is u.size cells square (not on hex grids).
 */
PF__INLINE uint32_t pf__grid_open_dirs_f(const pf__grid_view *v, const int32_t *hex_off, uint32_t cur, pf__unit u,
                                         const int MV, const int SZ, const int FL)
{
    const uint32_t pw = v->pw;
    uint32_t open = 0;
    if (MV == PF__MV_HEX) {
        for (uint32_t d = 0; d < 6; d++)
            open |= (uint32_t)pf__cell_open_f(v, (uint32_t)((int32_t)cur + hex_off[d]), u, SZ, FL) << d;
        return open;
    }
    if (pf__cell_open_f(v, cur - pw, u, SZ, FL)) open |= 1u;
    if (pf__cell_open_f(v, cur + 1, u, SZ, FL)) open |= 2u;
    if (pf__cell_open_f(v, cur + pw, u, SZ, FL)) open |= 4u;
    if (pf__cell_open_f(v, cur - 1, u, SZ, FL)) open |= 8u;
    if (MV == PF__MV_8) { /* a diagonal needs both sides: NE N+E, SE S+E, SW S+W, NW N+W */
        if ((open & 3u) == 3u && pf__cell_open_f(v, cur - pw + 1, u, SZ, FL)) open |= 16u;
        if ((open & 6u) == 6u && pf__cell_open_f(v, cur + pw + 1, u, SZ, FL)) open |= 32u;
        if ((open & 12u) == 12u && pf__cell_open_f(v, cur + pw - 1, u, SZ, FL)) open |= 64u;
        if ((open & 9u) == 9u && pf__cell_open_f(v, cur - pw - 1, u, SZ, FL)) open |= 128u;
    } else if (MV == PF__MV_8CUT) {
        if (pf__cell_open_f(v, cur - pw + 1, u, SZ, FL)) open |= 16u;
        if (pf__cell_open_f(v, cur + pw + 1, u, SZ, FL)) open |= 32u;
        if (pf__cell_open_f(v, cur + pw - 1, u, SZ, FL)) open |= 64u;
        if (pf__cell_open_f(v, cur - pw - 1, u, SZ, FL)) open |= 128u;
    }
    return open;
}

/* The rule without a filter: the start's class, and clearance where SZ = 1. */
PF__INLINE uint32_t pf__grid_open_dirs_sz(const pf__grid_view *v, const int32_t *hex_off, uint32_t cur, pf__unit u,
                                          const int MV, const int SZ)
{
    return pf__grid_open_dirs_f(v, hex_off, cur, u, MV, SZ, 0);
}

PF__INLINE uint32_t pf__grid_open_dirs(const pf__grid_view *v, const int32_t *hex_off, uint32_t cur, pf__unit u,
                                       const int MV)
{
    return pf__grid_open_dirs_sz(v, hex_off, cur, u, MV, 0);
}

/* Whether both side cells of diagonal d (4..7) of a square grid are open from cur: the cells of
 * its straight parts pf__dir_h[d] and pf__dir_v[d], which a diagonal without corner cutting needs. */
PF__INLINE int pf__grid_sides_open(const pf__grid_view *v, uint32_t cur, uint32_t d, pf__unit u)
{
    return pf__cell_open(v, (uint32_t)((int32_t)cur + v->off[pf__dir_h[d]]), u) &&
           pf__cell_open(v, (uint32_t)((int32_t)cur + v->off[pf__dir_v[d]]), u);
}

/* The same rule for one diagonal d (4..7) of a square grid, for code that asks direction by
 * direction (JPS+ distances). */
PF__INLINE int pf__grid_diag_ok(const pf__grid_view *v, uint32_t cur, uint32_t d, pf__unit u, int cut)
{
    return pf__cell_open(v, (uint32_t)((int32_t)cur + v->off[d]), u) && (cut || pf__grid_sides_open(v, cur, d, u));
}

/* The same rule for any one direction d of rule MV (a constant or not), for code that asks
 * direction by direction (the accelerator's scans, the component labels' tile borders): bit d of
 * pf__grid_open_dirs. On hex grids v->off must be the offsets of cur's row parity. */
PF__INLINE int pf__grid_step_ok(const pf__grid_view *v, uint32_t cur, uint32_t d, pf__unit u, const int MV)
{
    if (!pf__cell_open(v, (uint32_t)((int32_t)cur + v->off[d]), u)) return 0;
    if (MV == PF__MV_HEX || d < 4) return 1;
    return MV == PF__MV_8CUT || (MV == PF__MV_8 && pf__grid_sides_open(v, cur, d, u));
}

/* The rule at run time, for code off the hot paths: the moves out of padded cell c of map m for
 * unit u (its class and size) standing there. */
PF__INLINE uint32_t pf__grid_moves_of(const pf_map *m, uint32_t c, pf__unit u)
{
    const pf__grid_view v = pf__grid_view_of(m);
    switch (pf__mv_of(m->moves)) {
    case PF__MV_4: return pf__grid_open_dirs_sz(&v, NULL, c, u, PF__MV_4, 1);
    case PF__MV_8CUT: return pf__grid_open_dirs_sz(&v, NULL, c, u, PF__MV_8CUT, 1);
    case PF__MV_HEX: return pf__grid_open_dirs_sz(&v, m->nb_off[(c / m->pw) & 1u], c, u, PF__MV_HEX, 1);
    default: return pf__grid_open_dirs_sz(&v, NULL, c, u, PF__MV_8, 1);
    }
}

/* The rule at run time for a view that may carry a filter (v->flt; with it, and the view's memo
 * for u.size when it has one, the sized filtered rule): the moves out of padded cell c. */
PF__INLINE uint32_t pf__grid_moves_view(const pf_map *m, const pf__grid_view *v, uint32_t c, pf__unit u)
{
    if (!v->flt) return pf__grid_moves_of(m, c, u);
    switch (pf__mv_of(m->moves)) {
    case PF__MV_4: return pf__grid_open_dirs_f(v, NULL, c, u, PF__MV_4, 1, 1);
    case PF__MV_8CUT: return pf__grid_open_dirs_f(v, NULL, c, u, PF__MV_8CUT, 1, 1);
    case PF__MV_HEX: return pf__grid_open_dirs_f(v, m->nb_off[(c / m->pw) & 1u], c, u, PF__MV_HEX, 1, 1);
    default: return pf__grid_open_dirs_f(v, NULL, c, u, PF__MV_8, 1, 1);
    }
}

/* The same for a one-cell unit of the cell's own class (0 for a blocked cell). */
PF__INLINE uint32_t pf__grid_moves_at(const pf_map *m, uint32_t c)
{
    const pf__grid_view v = pf__grid_view_of(m);
    pf__unit u = {m->cls[c], 1};
    if (!u.k) return 0;
    switch (pf__mv_of(m->moves)) {
    case PF__MV_4: return pf__grid_open_dirs(&v, NULL, c, u, PF__MV_4);
    case PF__MV_8CUT: return pf__grid_open_dirs(&v, NULL, c, u, PF__MV_8CUT);
    case PF__MV_HEX: return pf__grid_open_dirs(&v, m->nb_off[(c / m->pw) & 1u], c, u, PF__MV_HEX);
    default: return pf__grid_open_dirs(&v, NULL, c, u, PF__MV_8);
    }
}

/*
 * Cost of a step in direction d from cell `from` to cell `to`: the base (1, or sqrt 2 for a square
 * diagonal) times the multiplier of the cell entered. A backward search (BACKWARD = 1: it expands
 * `from` = the cell a forward step would enter, and reaches `to` = where that step starts) charges
 * `from`'s multiplier, so both directions sum the same costs. WEIGHTED = 0 when the map has no
 * multipliers (cost may be NULL then); it may be a run-time value off the hot paths.
 */
PF__INLINE double pf__grid_step(const int MV, const int WEIGHTED, const int BACKWARD, uint32_t d, const float *cost,
                                uint32_t from, uint32_t to)
{
    double base = MV == PF__MV_HEX ? 1.0 : pf__dir_step[d];
    return WEIGHTED ? base * (double)cost[BACKWARD ? from : to] : base;
}

/* The same under a movement filter (FL = 1): times f's multiplier of the class of the cell the
 * forward step enters. */
PF__INLINE double pf__grid_step_f(const int MV, const int WEIGHTED, const int BACKWARD, const int FL, uint32_t d,
                                  const float *cost, const uint8_t *cls, const pf_move_filter *f, uint32_t from,
                                  uint32_t to)
{
    double st = pf__grid_step(MV, WEIGHTED, BACKWARD, d, cost, from, to);
    return FL ? st * pf__filter_mult(f, cls[BACKWARD ? from : to]) : st;
}

#endif
