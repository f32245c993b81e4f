/* accel_rebuild.c - an accelerator built off the frame for a map that is edited meanwhile
 * (pf_accel.h, OFF-FRAME REBUILDS).
 *
 * The build reads every cell of its map for seconds or minutes, while the game goes on editing
 * and searching the live map between its frames: the two must not share cells. So the rebuild
 * keeps its own copy, taken in pf_accel_rebuild_begin on the thread that edits the map (between
 * runs, where the map is quiet), and builds from the copy on whatever thread runs it. The result
 * is then made an accelerator *of the live map*: its `map` is the live one (contexts and batches
 * check that pointer) and its fingerprint the copy's, that is, the live map's as it was at the
 * copy. PF_ALGO_AUTO answers by it only while the two fingerprints agree (pf__auto_pick), so edits
 * made after the copy leave it stale, never wrong, and an edit that restores the copied cells
 * makes it current again.
 *
 * The copy is a whole map (pf_grid_create from the cells), not the cells alone: the build, its
 * scans and the landmarks read a pf_map, and a map made from the same cells has the same
 * fingerprint (pf_grid.h, EDITS). Its components, clearance and tile hashes are made off the
 * frame too, on the rebuild's thread.
 */
#include "accel/accel_internal.h"
#include "pathfind/pf_grid.h"

struct pf_accel_rebuild {
    const pf_map  *live;
    pf_allocator   alloc;
    pf_accel_desc  desc;
    uint32_t       w, h;
    pf_moves       moves;
    uint8_t       *cells;       /* [w * h] the copy, freed once built */
    int            ran;
};

pf_status pf_accel_rebuild_begin(const pf_map *map, const pf_accel_desc *desc, pf_accel_rebuild **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    if (!map) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(map, PF__TAG_MAP, "pf_map");
    pf_accel_desc d = desc ? *desc : (pf_accel_desc){0};
    /* a rebuilt accelerator is adopted, never rebuilt inside an edit: that would be the in-frame
     * rebuild this exists to avoid. With PF_ACCEL_EDITS_CHECK it follows the live map by its diff
     * from its first attachment (accel_diff.c): the edits since the copy are its first D */
    if (d.edits == PF_ACCEL_EDITS_REBUILD || (unsigned)d.edits > PF_ACCEL_EDITS_CHECK) return PF_INVALID_ARGUMENT;
    if (!pf_accel_supported(map)) return PF_UNSUPPORTED;
    pf_allocator al = pf__alloc_resolve(&d.allocator);
    pf_accel_rebuild *r = pf__calloc(&al, sizeof *r, 64);
    if (!r) return PF_OUT_OF_MEMORY;
    r->live = map;
    r->alloc = al;
    r->desc = d;
    r->w = pf_grid_width(map);
    r->h = pf_grid_height(map);
    r->moves = pf_grid_moves(map);
    size_t n = (size_t)r->w * r->h;
    r->cells = pf__alloc(&al, n, 64);
    pf_status st = r->cells ? pf_grid_read(map, (pf_rect){0, 0, r->w, r->h}, r->cells, NULL) : PF_OUT_OF_MEMORY;
    if (st != PF_OK) {
        pf_accel_rebuild_destroy(r);
        return st;
    }
    *out = r;
    return PF_OK;
}

pf_status pf_accel_rebuild_run(pf_accel_rebuild *r, pf_accel **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    if (!r || r->ran) return PF_INVALID_ARGUMENT;
    r->ran = 1;
    pf_map *copy = NULL;
    pf_status st = pf_grid_create(&(pf_grid_desc){.width = r->w, .height = r->h, .moves = r->moves, .cells = r->cells,
                                                  .allocator = r->desc.allocator},
                                  &copy);
    /* the copy has what the build reads: the cells go now, before the build's peak */
    pf__free(&r->alloc, r->cells, (size_t)r->w * r->h);
    r->cells = NULL;
    if (st != PF_OK) return st == PF_OUT_OF_MEMORY ? st : PF_INVALID_ARGUMENT;
    pf_accel *acc = NULL;
    pf_accel_desc d = r->desc;
    d.edits = PF_ACCEL_EDITS_STALE; /* it follows the copy in nothing: the copy goes below */
    st = pf_accel_create(copy, &d, &acc);
    if (st == PF_OK) {
        /* the copy's cells are the live map's at begin, so is its fingerprint (and its prep cells);
         * moved to the live map, the accelerator answers there exactly while the cells are those,
         * or, following by the diff, wherever it proves its answer */
        acc->map = r->live;
        acc->desc.edits = r->desc.edits;
        *out = acc;
    }
    pf_map_destroy(copy);
    return st;
}

void pf_accel_rebuild_destroy(pf_accel_rebuild *r)
{
    if (!r) return;
    pf_allocator al = r->alloc;
    pf__free(&al, r->cells, (size_t)r->w * r->h);
    pf__free(&al, r, sizeof *r);
}

int pf_accel_current(const pf_accel *acc, const pf_map *map)
{
    return acc && map && acc->map == map && acc->fingerprint == map->fingerprint;
}
