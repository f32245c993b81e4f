/* fsize.c - where a unit larger than a cell may stand under a movement filter, remembered per
 * context as queries ask.
 *
 * Without a filter a KxK unit may stand where the clearance byte (map/clearance.c) is at least K,
 * one read. That byte is of one class: under a filter a block of mixed allowed classes (a hover
 * tank half on ground, half on water) is open too, and nothing in the map says so. Reading the KxK
 * block on every test costs K^2 reads per neighbour; a context instead keeps, per (size, set of
 * allowed classes) it was asked about, a byte per cell: not known yet, refused, or open, filled in
 * the first time the move rule asks (grid_moves_internal.h, pf__cell_open_fsz). A query touches
 * only the cells it visits; the multipliers do not enter (they price a step, they do not open one).
 *
 * A few such memos are kept (SLOTS, least recently used replaced): a batch alternating two movement
 * types does not start afresh at every query. An edit clears, in each memo, the cells whose block
 * meets a changed rectangle; the rest stays exact. A memo that missed an edit (made for another
 * version) is cleared whole at its next use. 1 byte a cell per memo, made by the first query that
 * needs it; none in a context in caller memory (the rule then reads the block every time). */
#include <string.h>
#include "search/ctx_internal.h"
#include "search/fsize_internal.h"

enum { SLOTS = 4 };

typedef struct fslot {
    uint8_t *memo;        /* [count] 0 = not known, 1 = refused, 2 = open; NULL until used */
    uint8_t  classes[32]; /* the allowed classes it is for (pf_move_filter.classes) */
    uint8_t  size;
    uint64_t version;     /* the map version it describes */
    uint64_t used;        /* the tick of its last use, for replacement */
} fslot;

struct pf__fsize {
    fslot    slot[SLOTS];
    uint64_t tick;
};

static void *fsize_create(pf_ctx *c) { return pf__calloc(&c->alloc, sizeof(pf__fsize), 64); }

static void fsize_destroy(pf_ctx *c, void *p)
{
    pf__fsize *z = p;
    for (int i = 0; i < SLOTS; i++) pf__free(&c->alloc, z->slot[i].memo, c->count);
    pf__free(&c->alloc, z, sizeof *z);
}

/* Clears, in each memo that was exact before the edit, the cells whose size x size block meets a
 * changed rectangle (padded: top-left cells from rc.x + 2 - size to rc.x + rc.w). */
static int fsize_edit(pf_ctx *c, void *p, pf__edit_view *e)
{
    pf__fsize *z = p;
    const pf_map *m = c->map;
    for (int i = 0; i < SLOTS; i++) {
        fslot *s = &z->slot[i];
        if (!s->memo || s->version != e->version - 1u) continue;
        for (uint32_t r = 0; r < e->count; r++) {
            const pf_rect rc = e->rects[r];
            const int64_t k = s->size;
            int64_t x0 = (int64_t)rc.x + 2 - k, y0 = (int64_t)rc.y + 2 - k;
            int64_t x1 = (int64_t)rc.x + rc.w, y1 = (int64_t)rc.y + rc.h;
            x0 = x0 < 1 ? 1 : x0;
            y0 = y0 < 1 ? 1 : y0;
            x1 = x1 > (int64_t)m->pw - 2 ? (int64_t)m->pw - 2 : x1;
            y1 = y1 > (int64_t)m->ph - 2 ? (int64_t)m->ph - 2 : y1;
            for (int64_t y = y0; y <= y1 && x0 <= x1; y++)
                memset(s->memo + (size_t)y * m->pw + (size_t)x0, 0, (size_t)(x1 - x0 + 1));
        }
        s->version = e->version;
    }
    return 1;
}

const pf__ext_class pf__ext_fsize = {fsize_create, fsize_destroy, NULL, fsize_edit};

uint8_t *pf__fsize_memo(pf_ctx *c, const pf_move_filter *f, uint8_t size)
{
    pf__fsize *z = pf__ctx_ext(c, PF__EXT_FSIZE);
    if (!z) return NULL;
    const pf_map *m = c->map;
    fslot *hit = NULL, *old = &z->slot[0];
    for (int i = 0; i < SLOTS; i++) {
        fslot *s = &z->slot[i];
        if (s->memo && s->size == size && !memcmp(s->classes, f->classes, sizeof s->classes)) {
            hit = s;
            break;
        }
        if (!s->memo || (old->memo && s->used < old->used)) old = s;
    }
    if (!hit) {
        hit = old;
        if (!hit->memo && !(hit->memo = pf__alloc(&c->alloc, c->count, 64))) return NULL;
        memcpy(hit->classes, f->classes, sizeof hit->classes);
        hit->size = size;
        hit->version = ~m->version; /* cleared below */
    }
    if (hit->version != m->version) {
        memset(hit->memo, 0, c->count);
        hit->version = m->version;
    }
    hit->used = ++z->tick;
    return hit->memo;
}

size_t pf__fsize_bytes(const pf_ctx *c)
{
    const pf__fsize *z = pf__ctx_ext_get(c, PF__EXT_FSIZE);
    size_t n = z ? sizeof *z : 0;
    for (int i = 0; z && i < SLOTS; i++) n += z->slot[i].memo ? c->count : 0;
    return n;
}
