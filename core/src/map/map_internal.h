/* map_internal.h - the layout of pf_map, shared by loaders and search (never installed). */
#ifndef PF_MAP_INTERNAL_H
#define PF_MAP_INTERNAL_H

#include <stdatomic.h>
#include "pathfind/pf_map.h"
#include "pathfind/pf_grid.h"
#include "pathfind/pf_graph.h"
#include "common/pf_internal.h"
#include "map_user_internal.h" /* pf__map_user: shared with batch */

/*
 * Something that follows a map through its edits (map.c, edit.c): a context, a batch, a JPS or
 * first-move table, or a public listener. While `busy` is set the map must not change: contexts set
 * it for the length of a search call, batches from pf_batch_prepare to pf_batch_finish. An edit
 * sets the map's `editing` flag and then reads every user's `busy`, and a search sets `busy` and
 * then reads `editing` (both sequentially consistent), so at most one of the two goes ahead.
 * `before` runs before any cell changes (a batch finishes suspended queries there when told to),
 * `after` once the cells and components are updated; `after` returns 0 when the user could not
 * follow (out of memory) and has marked itself stale.
 */

/* Log of edited rectangles (edit.c), a ring of the last PF__LOG_CAP, for pf_grid_path_changed. */
#define PF__LOG_CAP 4096u
typedef struct pf__log_entry {
    uint64_t version;
    pf_rect  r;
} pf__log_entry;

/* Fingerprint tiles: 64x64 cells (map.c). Block versions for the path check: 16x16 cells. */
#define PF__FP_TILE 64u
#define PF__BLOCK_SHIFT 4u

/*
 * Grids are stored with a one-cell blocked border: the padded cell (x+1, y+1) holds the public node
 * y * width + x. The border lets the search read all neighbours without bounds checks, and costs
 * 2*(w+h)+4 bytes per array.
 */
struct pf_map {
    uint32_t     tag;          /* PF__TAG_MAP while alive */
    _Atomic uint32_t users;    /* debug builds: live contexts made for this map */
    pf_map_kind  kind;
    pf_allocator alloc;
    uint32_t     count;        /* node records a context needs: padded cells or graph nodes */
    uint64_t     fingerprint;

    /* living maps (grids) */
    uint64_t      version;     /* +1 per edit that changed a cell */
    atomic_int    editing;     /* an edit is in progress (see pf__map_user) */
    atomic_flag   follow_lock;  /* guards the user list: contexts attach from any thread */
    int           notifying;    /* an edit is calling the users: unlistened ones wait (dead) */
    int           dead_users;   /* some listener was unlistened meanwhile */
    pf__map_user *followers;   /* contexts, batches, tables and listeners following the map */
    uint64_t     *tile_hash;   /* [tiles_x * tiles_y] XXH3 of each 64x64 tile's classes (and costs) */
    uint64_t     *row_hash;    /* [tiles_y] XXH3 of each row of tile hashes */
    uint32_t      tiles_x, tiles_y;
    uint32_t      cost_min_n;  /* passable cells whose multiplier equals min_cost */
    uint32_t      cost_not1;   /* passable cells whose multiplier is not 1 */
    struct pf__comps *cc;      /* component bookkeeping for edits (components.c) */
    pf__log_entry *log;        /* [PF__LOG_CAP] ring, allocated by the first edit */
    uint32_t      log_head, log_len;
    uint64_t      log_floor;   /* versions <= log_floor may have left the ring */
    uint64_t     *block_ver;   /* [blocks] last version that changed a cell of each 16x16 block */
    uint32_t      blocks_x, blocks_y;
    uint8_t      *scratch;     /* old classes of the rectangle being edited */
    size_t        scratch_cap;
    uint64_t     *chg;         /* [ph * chg_words] padded cells whose class the edit in progress
                                  changed, at bit x + 64 of row y's words (pf__edit_view); all 0
                                  outside an edit. Allocated by the first edit */
    uint32_t      chg_words;

    /* grid */
    uint32_t     width, height;
    uint32_t     pw, ph;       /* padded sides: width + 2, height + 2 */
    pf_moves     moves;
    uint8_t     *cls;          /* [pw*ph] terrain class, 0 = blocked (border included) */
    float       *cost;         /* [pw*ph] multiplier, NULL when uniform */
    uint8_t     *clr;          /* [pw*ph] clearance: the side of the largest square of one open class
                                  whose top-left cell this is, at most PF_UNIT_SIZE_MAX (clearance.c) */
    uint64_t    *cbits[256];   /* [cbits_pw*(ph + bands)] per class, NULL for a class not on the map:
                                  bit x of padded row y set where the cell is of that class, then
                                  per band of 8 rows the OR of its rows (class_bits.c) */
    uint32_t     cbits_pw;     /* words a row */
    int          cbits_ok;     /* the bits match the cells (0: too many classes, or out of memory) */
    uint32_t     cls_cells[256]; /* interior cells of each class, kept by every edit (class_bits.c) */
    uint8_t      cbits_none[256]; /* 1: a class on the map past the cap, without an array (class_bits.c) */
    double       min_cost;     /* smallest multiplier of a passable cell (1 when uniform) */
    uint32_t    *comp;         /* [pw*ph] node of each cell (0 = blocked): its connected piece within
                                  its 64x64 tile (components.c) */
    uint32_t    *comp_root;    /* [nodes] component of each node: unreachable goals are answered
                                  without searching the whole component (pf__grid_comp) */
    int32_t      nb_off[2][8]; /* padded index offsets of neighbours; [row parity] for hex */

    /* graph (CSR) */
    uint32_t     n, m;
    uint32_t    *off, *dst;    /* [n+1], [m] out-arcs sorted by (from, to, weight) */
    double      *w;            /* [m] */
    uint32_t    *roff, *rdst;  /* [n+1], [m] in-arcs: rdst holds the source */
    double      *rw;           /* [m] */
    double      *xy;           /* [2n] or NULL */
    double       h_scale;      /* Euclidean heuristic factor (0 without coordinates) */
};

/* The class bits' bands (class_bits.c): padded rows 8b..8b+7 ORed, line ph + b of a class's
 * array. */
#define PF__CBAND_SHIFT 3u

/* Public node <-> padded index. */
/* Cells of a grid's padded arrays (cls, cost, clr): pw * ph. */
static inline size_t pf__grid_cells(const pf_map *m) { return (size_t)m->pw * m->ph; }
static inline uint32_t pf__grid_pad(const pf_map *m, uint32_t node)
{
    return (node / m->width + 1) * m->pw + node % m->width + 1;
}
static inline uint32_t pf__grid_unpad(const pf_map *m, uint32_t idx)
{
    return (idx / m->pw - 1) * m->width + idx % m->pw - 1;
}

/* Internal node index used by search (padded for grids), or PF_NODE_NONE if out of range. */
static inline uint32_t pf__map_inner(const pf_map *m, uint32_t node)
{
    if (m->kind == PF_MAP_GRID) {
        if (node >= m->width * m->height) return PF_NODE_NONE;
        return pf__grid_pad(m, node);
    }
    return node < m->n ? node : PF_NODE_NONE;
}
static inline uint32_t pf__map_outer(const pf_map *m, uint32_t idx)
{
    return m->kind == PF_MAP_GRID ? pf__grid_unpad(m, idx) : idx;
}

/* Allocates a zeroed pf_map through `alloc`. */
pf_map *pf__map_new(const pf_allocator *alloc, pf_map_kind kind);
/* Computes and stores the fingerprint once the map is complete; 0 on allocation failure. */
int pf__map_finish(pf_map *m);
/* Sets neighbour offsets for the grid's move rule. */
void pf__grid_set_offsets(pf_map *m);
/* Component of padded cell idx (0 = blocked); equal non-zero values are connected. Needs m->comp. */
static inline uint32_t pf__grid_comp(const pf_map *m, uint32_t idx) { return m->comp_root[m->comp[idx]]; }
/* Computes every cell's clearance (clearance.c); 0 on allocation failure. */
int pf__grid_clearance_build(pf_map *m);
/* Brings the clearance up to date after the cells of `r` (padded coordinates) changed class. */
void pf__grid_clearance_update(pf_map *m, pf_rect r);
/* The per-class cell bits (class_bits.c): made (0 on allocation failure), brought up to date after
 * the cells of `r` (padded coordinates) changed class (`old`: their classes before, row-major),
 * their bytes, freed. */
int    pf__grid_class_bits_build(pf_map *m);
void   pf__grid_class_bits_update(pf_map *m, pf_rect r, const uint8_t *old);
size_t pf__grid_class_bits_mem(const pf_map *m);
void   pf__grid_class_bits_free(pf_map *m);
/* Labels the connected components (components.c); 0 on allocation failure. */
int pf__grid_label_components(pf_map *m);
/* Brings the components up to date after the cells of `r` (padded coordinates) changed class;
 * `old` holds their classes before, row-major. 0 on allocation failure (components are then
 * dropped: m->comp NULL, rebuilt by the next edit). Cells visited, nodes visited: e->stats. */
int pf__grid_components_edit(pf_map *m, pf_rect r, const uint8_t *old, uint32_t *visited);
void pf__grid_components_free(pf_map *m);
size_t pf__grid_components_mem(const pf_map *m);
/* min_cost, cost_min_n and cost_not1 from a scan of the multipliers (grid.c; m->cost set). */
void pf__grid_cost_scan(pf_map *m);
/* Fingerprint of a grid from its tile hashes; `all` rehashes every tile, else those under `r`. */
void pf__grid_fingerprint(pf_map *m, const pf_rect *r, uint32_t nr, int all);

/* A search call enters and leaves the map: 0 (and nothing held) when an edit is in progress. The
 * inline form of pf__map_enter_call, for the search loops. */
static inline int pf__map_enter(const pf_map *m, pf__map_user *u)
{
    atomic_store(&u->busy, 1);
    if (PF__UNLIKELY(atomic_load(&m->editing)) && !u->internal) {
        atomic_store(&u->busy, 0);
        return 0;
    }
    return 1;
}

/* Grid construction, shared by pf_grid_create and the Moving AI loader (grid.c): allocates a
 * blocked w x h grid (costs all 1 when `weighted`), ... */
pf_status pf__grid_alloc(const pf_allocator *alloc, uint32_t w, uint32_t h, pf_moves moves, int weighted,
                         pf_map **out);
/* ... after the costs are written: the smallest multiplier of a passable cell; drops an all-ones
 * cost array ... */
void      pf__grid_finish_costs(pf_map *m);
/* ... then the offsets and the components: *out = m, or m destroyed on failure. */
pf_status pf__grid_build(pf_map *m, pf_map **out);

#endif
