/* nodes.c - node records (nodes_internal.h): layout and the generation counter. */
#include <string.h>
#include "search/nodes_internal.h"

size_t pf__nodes_bytes(uint32_t count, int with_parent)
{
    size_t u = pf__align64((size_t)count * sizeof(uint32_t));
    return pf__align64((size_t)count * sizeof(double)) + 2u * u + (with_parent ? u : 0u);
}

void pf__nodes_place_zeroed(pf__nodes *r, void *block, uint32_t count, int with_parent)
{
    char *b = block;
    size_t sz_g = pf__align64((size_t)count * sizeof(double)), u = pf__align64((size_t)count * sizeof(uint32_t));
    r->count = count;
    r->gen = 0;
    /* every array starts on a 64-byte boundary (sizes are rounded up by pf__align64) */
    r->g = (double *)(void *)b;
    r->stamp = (uint32_t *)(void *)(b + sz_g);
    r->hpos = (uint32_t *)(void *)(b + sz_g + u);
    r->parent = with_parent ? (uint32_t *)(void *)(b + sz_g + 2u * u) : NULL;
}

void pf__nodes_place(pf__nodes *r, void *block, uint32_t count, int with_parent)
{
    pf__nodes_place_zeroed(r, block, count, with_parent);
    /* Only the stamps must start at zero ("never written"); every other record is written before
     * it is read, which is what makes the generation stamp a complete reset. */
    memset(r->stamp, 0, pf__align64((size_t)count * sizeof(uint32_t)));
}

void pf__nodes_next_gen(pf__nodes *r)
{
    if (++r->gen > PF__GEN_MASK) {
        /* wrapped after 2^27 - 1 searches on these records (PF__GEN_BITS) */
        memset(r->stamp, 0, (size_t)r->count * sizeof r->stamp[0]);
        r->gen = 1; /* 0 is reserved for "never written" */
    }
}
