/* jps_internal.h - jump point search tables and per-context state (never installed). */
#ifndef PF_JPS_INTERNAL_H
#define PF_JPS_INTERNAL_H

#include "search/ctx_internal.h"
#include "common/par_internal.h"
#include <stdatomic.h>
#include "pathfind/pf_jps.h"

/* Directions as every grid search numbers them (map/grid_moves_internal.h): 0..7 = N E S W NE SE
 * SW NW; the reverse of d is d ^ 2. */
#define PF__JPS_NONE 8u /* "no arrival direction": the start node, stored in the stamp's top bits */

/*
 * Bit-packed walls. One bitmap pair per terrain class k: bit set iff the cell has class k.
 *   rows[k] [ph * rw] u64  line py holds padded columns px at bit px + 64
 *   cols[k] [pw * cw] u64  line px holds padded rows py at bit py + 64 (the transpose)
 * The 64 spare bits before each line and a spare word after it let a scan read any 64-bit window
 * [p - 63, p] or [p, p + 63] with two loads and no bounds test; spare bits are 0 (blocked).
 * dist [count * 8] int16 JPS+ distances of cell i in direction d at dist[i * 8 + d]: n > 0 means a
 * jump point n steps away, n <= 0 means -n free steps before a wall (Rabin's encoding), measured
 * in the cell's own class. All eight of a cell share a cache line's quarter.
 */
struct pf_jps_table {
    const pf_map *map;
    uint64_t      fingerprint;
    uint64_t      version;     /* map version the data describes; behind the map when an update failed */
    int           all_classes; /* a shared table: bitmaps for every class on the map, new ones too */
    pf__map_user  user;        /* shared tables follow the map's edits */
    pf_allocator  alloc;
    uint32_t      rw, cw;      /* words per row line, per column line */
    uint32_t      threads;     /* OpenMP threads of what an edit builds (a large edit's distances
                                  again in place, a new class's bitmaps): the build's; 0 = OpenMP's
                                  default */
    pf_parallel_for hook;      /* [opt] a context's own data: its pf_ctx_desc.parallel, which an
                                  edit's work runs on as the context's builds do (a shared table's
                                  hook belongs to its create call: not kept, threads 1 instead) */
    uint64_t     *rows[256];
    uint64_t     *cols[256];
    int16_t      *dist;
    size_t        bytes;
};

/* Class sets of movement filters a context keeps bitmaps for (the least recently used one goes) */
#define PF__JPS_SETS 4u

/* The bitmaps of the cells open to a unit of side `size`, by class, on map version `version`
 * (built by the first query of a class, again after a size change or an edit they missed; edits
 * keep them). Shared by reference between the contexts of a batch: a worker that parks a sized
 * search keeps reading them in the context it takes next (pf__jps_hand_over_sized), where building
 * them again cost that frame 20-40 ms on rooms-2000. A holder changes them only alone (refs == 1)
 * or between runs (edits, which every holder sees: the first brings them to the new version, the
 * others find it done); one that needs another class, size or version while they are shared lets
 * go of them and builds its own. refs only grows by the hand-over, run by the thread that holds
 * `from`, so a holder that reads refs == 1 is alone until it hands them over itself. */
typedef struct pf__jps_sized {
    _Atomic uint32_t refs;
    uint8_t          size;
    uint64_t         version;
    size_t           bytes;
    uint64_t        *rows[256], *cols[256];
} pf__jps_sized;

/* Per-context JPS state, hung on pf_ctx.ext. */
typedef struct pf__jps_ext {
    pf_jps_table        own;     /* what this context built (lazily) */
    const pf_jps_table *shared;  /* [opt] attached table */
    uint32_t           *parent;  /* [count] jump-point parent of each live record */
    int                 parent_lazy; /* parent is lazy pages, as the context's records are (pf__alloc_lazy) */
    uint32_t           *path;    /* [path_cap] the last path found, goal first, public node ids */
    uint32_t            path_cap, path_len;
    /* the running search */
    const uint64_t     *rows, *cols;
    const int16_t      *dist;
    /* sized units: their bitmaps, NULL until a sized query or reserve (see pf__jps_sized) */
    struct pf__jps_sized *sz;
    /* movement filters of several classes with one multiplier: the bitmaps of the cells of any
     * class in `set`, built by the first query of that set, kept in step with the map's edits */
    struct {
        uint8_t   set[32];
        uint64_t *rows, *cols;   /* NULL: a free slot */
        uint64_t  version, used; /* map version described; last use (fs_tick) */
    } fs[PF__JPS_SETS];
    uint64_t            fs_tick;
    size_t              fs_bytes;
    double              mul_s, mul_d; /* a straight and a diagonal step: 1 and sqrt 2, times the
                                         filter's common multiplier */
    uint8_t             k;       /* terrain class searched */
    int                 cut;     /* PF_MOVES_8_CUT */
    int                 hkind;   /* pf_heur */
    uint32_t            gx, gy;  /* padded goal coordinates */
} pf__jps_ext;

/* Asks the kernel for huge pages behind a large array (advice only: a no-op elsewhere). */
void      pf__jps_hugepages(void *p, size_t bytes);

void      pf__jps_table_init(pf_jps_table *t, const pf_map *m, const pf_allocator *a);
/* Builds the bitmaps of class k if absent. par: the build's workers; NULL = OpenMP's default
 * (a context building its own data on a search). */
pf_status pf__jps_table_class(pf_jps_table *t, uint8_t k, const pf__par *par);
/* The bitmap pair of the cells open to a unit of side `size` (class k, clearance >= size) of m,
 * allocated with a (freed with it, *bytes in all). */
pf_status pf__jps_bitmaps(const pf_map *m, const pf_allocator *a, uint8_t k, uint8_t size, const pf__par *par,
                          uint64_t **rows, uint64_t **cols, size_t *bytes);
/* The bitmap pair of the cells of any class in `set` (a movement filter's classes: bit k of
 * set[k >> 3]), one-cell units; and bringing such a pair to the map's version after the edits in e
 * (the edited cells' bits: nothing else of a bitmap depends on them, and nothing is allocated). */
pf_status pf__jps_bitmaps_set(const pf_map *m, const pf_allocator *a, const uint8_t set[32], const pf__par *par,
                              uint64_t **rows, uint64_t **cols, size_t *bytes);
void      pf__jps_bitmaps_edit(const pf_map *m, const uint8_t set[32], uint64_t *rows, uint64_t *cols,
                               const pf__edit_view *e);
/* The same for the bitmaps of a unit of side `size` of class k (pf__jps_bitmaps): the bits of the
 * cells whose block meets an edited rectangle. */
void      pf__jps_bitmaps_edit_sized(const pf_map *m, uint8_t k, uint8_t size, uint64_t *rows, uint64_t *cols,
                                     const pf__edit_view *e);
/* Builds the JPS+ distances if absent (needs no bitmaps). */
pf_status pf__jps_table_dist(pf_jps_table *t, const pf__par *par);
void      pf__jps_table_release(pf_jps_table *t);
/* Brings the built parts of `t` to the map's new version after the edits in `e` (bitmaps of the
 * edited cells, JPS+ distances along the lines they reach); 0 on allocation failure, with `t` left
 * stale (t->version behind). Adds the distances recomputed to e->jps_updated. */
int       pf__jps_table_edit(pf_jps_table *t, pf__edit_view *e);
int       pf__jps_map_ok(const pf_map *m);

/* Static contexts (pf_ctx_init_static): bytes of the JPS state carved from the caller's memory (the
 * ext, the jump-point parents, a path of up to every cell), and its placement at `mem` (64-byte
 * aligned), reading `table`. Nothing of it is freed, and JPS never builds data on such a context. */
size_t    pf__jps_static_size(const pf_map *m);
void      pf__jps_static_init(pf_ctx *c, void *mem, const pf_jps_table *table);

pf_status pf__jps_begin(pf_ctx *c);
pf_status pf__jps_step(pf_ctx *c, uint32_t budget);
/* The last path found, goal first, as public node ids (len 0 when none). */
const uint32_t *pf__jps_path(const pf_ctx *c, uint32_t *len);
/* Whether c has a JPS table with JPS+ distances attached (pf_ctx_use_jps_table, a batch's): AUTO's
 * pick, the same for every context of a batch whatever each ran before. */
int pf__jps_has_plus(const pf_ctx *c);
/* Builds now the sized bitmaps a unit of `size` reads (pf_batch_reserve_desc.unit_size), for
 * every class the map holds: PF_OK or PF_OUT_OF_MEMORY (nothing to do off a JPS map). */
pf_status pf__jps_reserve_size(pf_ctx *c, uint8_t size);
/* Gives from's sized bitmaps to `to` (a batch's worker takes a spare when it parks a search:
 * pf__ctx_hand_over), unless `to` has its own: shared when a sized search parked in `from` may
 * read them, moved otherwise; allocates nothing. */
void pf__jps_hand_over_sized(pf_ctx *from, pf_ctx *to);

#endif
