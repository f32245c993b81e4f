/* map.c - what every map kind shares: lifecycle, fingerprint, sizes. */
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>
#include "map/map_internal.h"
#include "core_batch_internal.h"

pf_map *pf__map_new(const pf_allocator *alloc, pf_map_kind kind)
{
    pf_allocator a = pf__alloc_resolve(alloc);
    pf_map *m = pf__calloc(&a, sizeof *m, 64);
    if (!m) return NULL;
    m->tag = PF__TAG_MAP;
    atomic_init(&m->users, 0);
    m->kind = kind;
    m->alloc = a;
    m->min_cost = 1.0;
    return m;
}

static size_t grid_cells(const pf_map *m) { return (size_t)m->pw * m->ph; }

void pf__map_finish(pf_map *m)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    uint32_t head[4] = {(uint32_t)m->kind, m->count, 0, 0};
    if (m->kind == PF_MAP_GRID) {
        head[2] = m->width;
        head[3] = (m->height & 0x00FFFFFFu) | ((uint32_t)m->moves << 24);
        XXH3_64bits_update(&st, head, sizeof head);
        XXH3_64bits_update(&st, m->cls, grid_cells(m));
        if (m->cost) XXH3_64bits_update(&st, m->cost, grid_cells(m) * sizeof(float));
    } else {
        head[2] = m->n;
        head[3] = m->m;
        XXH3_64bits_update(&st, head, sizeof head);
        XXH3_64bits_update(&st, m->off, ((size_t)m->n + 1) * sizeof(uint32_t));
        XXH3_64bits_update(&st, m->dst, (size_t)m->m * sizeof(uint32_t));
        XXH3_64bits_update(&st, m->w, (size_t)m->m * sizeof(double));
        if (m->xy) XXH3_64bits_update(&st, m->xy, (size_t)m->n * 2 * sizeof(double));
    }
    m->fingerprint = XXH3_64bits_digest(&st);
}

pf_map_kind pf_map_kind_of(const pf_map *map) { return map ? map->kind : (pf_map_kind)0; }

uint32_t pf_map_node_count(const pf_map *map)
{
    if (!map) return 0;
    return map->kind == PF_MAP_GRID ? map->width * map->height : map->n;
}

uint64_t pf_map_fingerprint(const pf_map *map) { return map ? map->fingerprint : 0; }

size_t pf_map_mem_size(const pf_map *m)
{
    if (!m) return 0;
    size_t s = sizeof *m;
    if (m->kind == PF_MAP_GRID) {
        s += grid_cells(m);
        if (m->cost) s += grid_cells(m) * sizeof(float);
        if (m->comp) s += grid_cells(m) * sizeof(uint32_t);
    } else {
        s += 2 * ((size_t)m->n + 1) * sizeof(uint32_t) + 2 * (size_t)m->m * (sizeof(uint32_t) + sizeof(double));
        if (m->xy) s += (size_t)m->n * 2 * sizeof(double);
    }
    return s;
}

#ifdef PF__DEBUG_HANDLES
void pf__map_check_handle(const pf_map *m, const char *fn)
{
    if (m && m->tag != PF__TAG_MAP)
        pf__handle_fail(fn, "pf_map",
                        m->tag == PF__TAG_DEAD ? "was used after it was destroyed"
                                               : "is not a live handle (destroyed, or not made by pathfind)");
}
#endif

void pf_map_destroy(pf_map *m)
{
    if (!m) return;
    PF__CHECK_HANDLE(m, PF__TAG_MAP, "pf_map");
#ifdef PF__DEBUG_HANDLES
    if (atomic_load(&m->users))
        pf__handle_fail(__func__, "pf_map", "still has live contexts (destroy the contexts, batches and tables made for it first)");
#endif
    m->tag = PF__TAG_DEAD;
    pf_allocator a = m->alloc;
    if (m->kind == PF_MAP_GRID) {
        size_t c = grid_cells(m);
        pf__free(&a, m->cls, c);
        pf__free(&a, m->cost, c * sizeof(float));
        pf__free(&a, m->comp, c * sizeof(uint32_t));
    } else {
        pf__free(&a, m->off, ((size_t)m->n + 1) * sizeof(uint32_t));
        pf__free(&a, m->dst, (size_t)m->m * sizeof(uint32_t));
        pf__free(&a, m->w, (size_t)m->m * sizeof(double));
        pf__free(&a, m->roff, ((size_t)m->n + 1) * sizeof(uint32_t));
        pf__free(&a, m->rdst, (size_t)m->m * sizeof(uint32_t));
        pf__free(&a, m->rw, (size_t)m->m * sizeof(double));
        pf__free(&a, m->xy, (size_t)m->n * 2 * sizeof(double));
    }
    pf__free(&a, m, sizeof *m);
}
