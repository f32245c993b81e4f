/* size_comp.c - which cells a unit larger than one cell can reach, labelled as queries ask.
 *
 * The map's components (map/components.c) are for one-cell units: two cells in one of them may
 * still be apart for a 2x2 unit behind a one-cell gap, and a search for it then floods all it can
 * reach to say PF_NO_PATH (on random-2000-20 for size 2: 330 us a query where the map eroded for
 * size 2, whose components answer at once, takes 0.5 us). So a context labels, for the class and
 * size of its sized queries, the component of each start and goal the first time one is asked
 * about (a flood by the one move rule, with the unit's size) and answers from the labels after
 * that: each cell is flooded at most once per map version and size (a flood stays in one class, so
 * the classes share the labels). An edit, or a query of another size, starts the labels afresh. 8 bytes a cell, made by the first sized query. */
#include <string.h>
#include "search/ctx_internal.h"
#include "map/grid_moves_internal.h"
#include "search/size_comp_internal.h"

struct pf__szcomp {
    uint32_t *lab;     /* [count] component label, 0 = not labelled yet */
    uint32_t *queue;   /* [count] the flood's queue */
    uint32_t  next;    /* the next label */
    uint64_t  version; /* the map version the labels describe */
    uint8_t   size;    /* and the unit size */
};

static void sized_destroy(pf_ctx *c, void *p)
{
    pf__szcomp *z = p;
    pf__free(&c->alloc, z->lab, (size_t)c->count * sizeof(uint32_t));
    pf__free(&c->alloc, z->queue, (size_t)c->count * sizeof(uint32_t));
    pf__free(&c->alloc, z, sizeof *z);
}

static void *sized_create(pf_ctx *c)
{
    pf__szcomp *z = pf__calloc(&c->alloc, sizeof *z, 64);
    if (!z) return NULL;
    z->lab = pf__alloc(&c->alloc, (size_t)c->count * sizeof(uint32_t), 64);
    z->queue = pf__alloc(&c->alloc, (size_t)c->count * sizeof(uint32_t), 64);
    if (!z->lab || !z->queue) {
        sized_destroy(c, z);
        return NULL;
    }
    z->version = ~c->map->version; /* not labelled yet */
    return z;
}

const pf__ext_class pf__ext_sized = {sized_create, sized_destroy, NULL, NULL};

size_t pf__szcomp_bytes(const pf_ctx *c)
{
    return pf__ctx_ext_get(c, PF__EXT_SIZED) ? sizeof(pf__szcomp) + 2u * (size_t)c->count * sizeof(uint32_t) : 0;
}

/* Labels the component of padded cell `from` (open to u) with a new label. */
static void flood(const pf_map *m, pf__szcomp *z, uint32_t from, pf__unit u)
{
    const uint32_t label = ++z->next;
    uint32_t head = 0, tail = 0;
    z->lab[from] = label;
    z->queue[tail++] = from;
    while (head < tail) {
        uint32_t cur = z->queue[head++];
        const int32_t *off = m->nb_off[(cur / m->pw) & 1u];
        for (uint32_t open = pf__grid_moves_of(m, cur, u); open; open &= open - 1u) {
            uint32_t nb = (uint32_t)((int32_t)cur + off[pf__ctz32(open)]);
            if (z->lab[nb]) continue;
            z->lab[nb] = label;
            z->queue[tail++] = nb;
        }
    }
}

pf_status pf__szcomp_same(pf_ctx *c, uint32_t si, uint32_t gi, uint8_t size, int *same)
{
    const pf_map *m = c->map;
    if (c->fixed) return PF_UNSUPPORTED; /* no room for labels in caller memory: search instead */
    pf__szcomp *z = pf__ctx_ext(c, PF__EXT_SIZED);
    if (!z) return PF_OUT_OF_MEMORY;
    const uint8_t k = m->cls[si];
    /* a flood covers cells of one class only: the labels of every class live side by side */
    if (z->version != m->version || z->size != size || z->next > UINT32_MAX - 2u) {
        memset(z->lab, 0, (size_t)c->count * sizeof(uint32_t));
        z->next = 0;
        z->version = m->version;
        z->size = size;
    }
    const pf__unit u = {k, size};
    if (!z->lab[si]) flood(m, z, si, u);
    if (!z->lab[gi]) flood(m, z, gi, u);
    *same = z->lab[si] == z->lab[gi];
    return PF_OK;
}
