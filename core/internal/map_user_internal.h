/* map_user_internal.h - what follows a map's edits (never installed): contexts, JPS and first-move
 * tables, batches and public listeners attach a pf__map_user to the map; pf_grid_apply_edits calls
 * each one's `before` and `after` (map/edit.c). Shared by core and batch: a batch follows its map
 * without seeing the map's layout. */
#ifndef PF_MAP_USER_INTERNAL_H
#define PF_MAP_USER_INTERNAL_H

#include <stdatomic.h>
#include "pathfind/pf_map.h"

typedef struct pf__map_user pf__map_user;
typedef struct pf__edit_view {
    const pf_rect *rects;      /* changed cells, unpadded coordinates, one box per edit */
    uint32_t       count;
    uint64_t       version;    /* the new version */
    uint32_t       jps_updated; /* JPS+ entries recomputed by the users so far (report) */
    /* the cells whose class changed, every one inside a box (a box also holds cells whose
     * multiplier alone changed, or none: one box spans all the changes of an edit): padded cell
     * (x, y) at bit (x + 64) & 63 of word y * cls_words + (x + 64) / 64 (the JPS bitmaps' layout:
     * 64 spare bits before a row and a spare word after it, so a window of 64 cells read around x
     * needs no bounds test). Lets a follower whose data depends on the classes alone work around
     * the changed cells of a sparse box instead of all of it. */
    const uint64_t *cls_changed;
    uint32_t       cls_words;
} pf__edit_view;
struct pf__map_user {
    pf__map_user *prev, *next;
    atomic_int    busy;
    int           internal;    /* the library's own searches inside an edit's `after` (tables) */
    /* derived data that readers read (JPS and first-move tables, accelerators): notified of an
     * edit before every reader (contexts, batches, listeners), whenever it was attached. Set
     * before pf__map_attach. A table a batch made after itself (reserve.algos) was a version behind
     * when the batch's `after` handed its contexts the table: they kept their own JPS, and AUTO
     * took JPS in them and JPS+ in the others (a review: answers differing with the worker count) */
    int           data;
    void        (*before)(pf__map_user *u, const pf_map *m);
    int         (*after)(pf__map_user *u, const pf_map *m, pf__edit_view *e);
    /* public listeners */
    pf_map_edit_fn fn;
    void         *user;
    int           dead;        /* unlistened while the edit called the listeners: freed after */
};

/* Attach and detach may be called from any thread. */
void pf__map_attach(const pf_map *m, pf__map_user *u);
void pf__map_detach(const pf_map *m, pf__map_user *u);
/* A search call or a batch run enters the map: 0 (and nothing held) when an edit is in progress. */
int  pf__map_enter_call(const pf_map *m, pf__map_user *u);
static inline void pf__map_leave(pf__map_user *u) { atomic_store_explicit(&u->busy, 0, memory_order_release); }

/* A call that reads a map outside any context (a table's or an accelerator's build, which may run
 * on an engine's job threads) holds it with `u` (the caller's, zeroed here) from before its first
 * read until what follows the map's edits is attached: an edit meanwhile is refused
 * (PF_MAP_BUSY), as during a search. 0 (nothing held) when an edit is in progress. */
static inline int pf__map_hold(const pf_map *m, pf__map_user *u)
{
    *u = (pf__map_user){0};
    pf__map_attach(m, u);
    if (pf__map_enter_call(m, u)) return 1;
    pf__map_detach(m, u);
    return 0;
}
static inline void pf__map_release(const pf_map *m, pf__map_user *u)
{
    pf__map_leave(u);
    pf__map_detach(m, u);
}

#endif
