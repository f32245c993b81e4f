/* components_internal.h - the layout of the two-level component labels (components.c; never
 * installed): tiles, their nodes and edges. Shared with the tests' consistency check
 * (tests/support/components_check.c), which is not part of the library. */
#ifndef PF_COMPONENTS_INTERNAL_H
#define PF_COMPONENTS_INTERNAL_H

#include "map/map_internal.h"

/* Tile side. Larger tiles mean fewer nodes for a cut to relabel and more cells to label again per
 * edited tile: on the 2000x2000 grids (bench_edit, 4x4 buildings, CPU time) 32 gave maze-2000-w4
 * 0.43 ms mean and 2.4 ms worst and random-2000-20 0.07 / 0.17 ms; 64 gives 0.21 / 0.85 and
 * 0.11 / 0.25; 128 costs twice 64's instructions on random-2000-20 and rooms-2000. */
#define TS 64u
#define FRONT_BASE UINT32_C(0x80000000) /* nmark of a node claimed by split front f: FRONT_BASE + f */
#define FREED UINT32_MAX                /* ntile of a free node */
#define FR 6u                           /* words per split front */

typedef struct tile_edges {
    uint32_t *e;     /* [2 * n] pairs (u, v): u a node of this tile, v of a neighbouring tile; sorted
                        and unique between edits, so a node's edges are one range (nadj, ndeg) */
    uint32_t  n, cap;
    uint32_t  stamp; /* scratch: in T (rebuilt) for the edit in progress */
    uint32_t  nstamp; /* scratch: a neighbour of T whose list changes in the edit in progress */
} tile_edges;

struct pf__comps {
    pf_allocator alloc;
    uint32_t     tx, ty;       /* tiles across, down */
    tile_edges  *te;           /* [tx * ty] */
    /* nodes: comp_root (in the map), ntile, nmark; ids 1..nend-1, freed ones listed */
    uint32_t    *ntile;        /* [ncap] tile of the node, FREED when free */
    uint32_t    *nmark;        /* [ncap] scratch of the split search, 0 outside it */
    uint32_t    *nadj, *ndeg;  /* [ncap] the node's edges: te[ntile].e pairs nadj .. nadj+ndeg-1 */
    uint32_t    *nbox;         /* [ncap] the rectangle around the node's cells, in its tile: bytes
                                  x0, x1, y0, y1 from the low one (PF__NBOX_*); the nearest-cell scan
                                  reads only the nodes of the start's component near the goal */
    uint32_t    *ndiag;        /* [ncap] and the node's extents along the diagonals (pf__ndiag_uv):
                                  bytes min u, max u, min v, max v from the low one */
    uint16_t    *nband;        /* [ncap * PF__NBANDS] and per band of 8 rows of its tile, the columns
                                  its cells there span: bytes x0, x1 (0x00ff: none) */
    uint32_t     ncap, nend;
    uint32_t    *nfree;
    uint32_t     nfreed, nfree_cap;
    /* components: ids 1..cend-1, nodes per component, freed ids listed */
    uint32_t    *csize;        /* [ccap] */
    uint32_t    *cmark;        /* [ccap] stamp: lost nodes in the edit in progress */
    uint32_t     ccap, cend;
    uint32_t    *cfree;
    uint32_t     cfreed, cfree_cap;
    uint32_t     count;        /* live components */
    uint32_t     stamp;
    /* scratch */
    uint32_t    *q;            /* node queue of searches */
    uint32_t     qcap;
    uint32_t    *qn;           /* [qncap] split: next position in the same front's queue */
    uint32_t     qncap;
    uint32_t    *v;            /* general list (ports, new nodes, cells of a flood) */
    uint32_t     vcap;
    uint32_t    *fr;           /* [frcap * (FR + 1)] split fronts (FR words each), then their turns */
    uint32_t     frcap;
    /* runs of one tile's labelling, [TS * TS] each, and row starts [TS + 1] */
    uint8_t     *rx0, *rx1, *rk;
    uint32_t    *rpar, *rnode, *rrow;
};

/* Bands of a node's rows (nband): rows 8b..8b+7 of its tile (the class bits' bands, class_bits.c,
 * count padded rows: theirs lie a row higher). */
#define PF__NBANDS 8u
#define PF__NBAND_SHIFT 3u

/* A node's rectangle (nbox), inclusive, in cells of its tile. */
#define PF__NBOX_X0(b) ((b) & 0xffu)
#define PF__NBOX_X1(b) ((b) >> 8 & 0xffu)
#define PF__NBOX_Y0(b) ((b) >> 16 & 0xffu)
#define PF__NBOX_Y1(b) ((b) >> 24)

/* A cell's diagonal coordinates within its tile (lx, ly): on square grids u = lx + ly and
 * v = lx - ly + 63, on hex grids the cube coordinates u = q + 32 = lx - ly / 2 + 32 and
 * v = q + r = lx + ly - ly / 2 (a tile's first row is even, so its rows' parity is the map's).
 * Each grows with lx along a row. No distance is less than the gap along a diagonal: by Manhattan
 * (and so octile) distance |du|, |dv|; by hex distance |dq|, |dq + dr|. */
static inline void pf__ndiag_uv(int hex, uint32_t lx, uint32_t ly, uint32_t *u, uint32_t *v)
{
    *u = hex ? lx - (ly >> 1) + 32u : lx + ly;
    *v = hex ? lx + ly - (ly >> 1) : lx + 63u - ly;
}

/* Tile of padded cell (px, py), which must be inside the border. */
static inline uint32_t pf__comps_tile_of(const struct pf__comps *cc, uint32_t px, uint32_t py)
{
    return ((py - 1u) / TS) * cc->tx + (px - 1u) / TS;
}

#endif
