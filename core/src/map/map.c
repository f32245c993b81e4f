/* map.c - what every map kind shares: lifecycle, fingerprint, sizes. */
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>
#include "map/map_internal.h"
#include "core_batch_internal.h"
#include "common/hash_le_internal.h"

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
    atomic_init(&m->editing, 0);
    atomic_flag_clear(&m->follow_lock);
    return m;
}

/* Grid fingerprint: XXH3 of a header and of one hash per row of 64x64 tiles, each the XXH3 of
 * its tiles' hashes; a tile hashes its classes and, on weighted grids, its multipliers. An edit
 * rehashes its tiles, their rows and the top: a few microseconds, where one hash over the whole map
 * reads 20 MB on a weighted 2000x2000 grid. Two grids with the same cells and rule get the same
 * value however they were made. */
static uint64_t tile_hash(const pf_map *m, uint32_t tx, uint32_t ty)
{
    uint8_t cb[PF__FP_TILE * PF__FP_TILE];
    float fb[PF__FP_TILE * PF__FP_TILE];
    uint32_t x0 = tx * PF__FP_TILE, y0 = ty * PF__FP_TILE;
    uint32_t w = m->width - x0 < PF__FP_TILE ? m->width - x0 : PF__FP_TILE;
    uint32_t h = m->height - y0 < PF__FP_TILE ? m->height - y0 : PF__FP_TILE;
    for (uint32_t y = 0; y < h; y++) {
        size_t src = (size_t)(y0 + y + 1) * m->pw + x0 + 1;
        memcpy(cb + (size_t)y * w, m->cls + src, w);
        if (m->cost) memcpy(fb + (size_t)y * w, m->cost + src, (size_t)w * sizeof(float));
    }
    uint64_t hc = XXH3_64bits(cb, (size_t)w * h);
    if (!m->cost) return hc;
    XXH3_state_t st; /* the costs' little-endian bytes (hash_le_internal.h) */
    /* a state on the stack is initialised before a seeded reset: that reset skips making the
     * seed's secret when the stale state holds the same seed (identical tiles side by side) */
    XXH3_INITSTATE(&st);
    XXH3_64bits_reset_withSeed(&st, hc);
    pf__hash_le(&st, fb, (size_t)w * h, sizeof(float));
    return XXH3_64bits_digest(&st);
}

static uint64_t row_of_tiles(const pf_map *m, uint32_t ty)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    pf__hash_le(&st, m->tile_hash + (size_t)ty * m->tiles_x, m->tiles_x, sizeof(uint64_t));
    return XXH3_64bits_digest(&st);
}

void pf__grid_fingerprint(pf_map *m, const pf_rect *r, uint32_t nr, int all)
{
    if (all) {
        for (uint32_t ty = 0; ty < m->tiles_y; ty++) {
            for (uint32_t tx = 0; tx < m->tiles_x; tx++)
                m->tile_hash[(size_t)ty * m->tiles_x + tx] = tile_hash(m, tx, ty);
            m->row_hash[ty] = row_of_tiles(m, ty);
        }
    } else {
        for (uint32_t i = 0; i < nr; i++) {
            uint32_t tx0 = (uint32_t)r[i].x / PF__FP_TILE, tx1 = ((uint32_t)r[i].x + r[i].w - 1u) / PF__FP_TILE;
            uint32_t ty0 = (uint32_t)r[i].y / PF__FP_TILE, ty1 = ((uint32_t)r[i].y + r[i].h - 1u) / PF__FP_TILE;
            for (uint32_t ty = ty0; ty <= ty1; ty++) {
                for (uint32_t tx = tx0; tx <= tx1; tx++)
                    m->tile_hash[(size_t)ty * m->tiles_x + tx] = tile_hash(m, tx, ty);
                m->row_hash[ty] = row_of_tiles(m, ty);
            }
        }
    }
    uint32_t head[6] = {(uint32_t)m->kind, m->count, m->width, m->height, (uint32_t)m->moves, m->cost != NULL};
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    pf__hash_le(&st, head, sizeof head / sizeof head[0], sizeof head[0]);
    pf__hash_le(&st, m->row_hash, m->tiles_y, sizeof(uint64_t));
    m->fingerprint = XXH3_64bits_digest(&st);
}

int pf__map_finish(pf_map *m)
{
    if (m->kind == PF_MAP_GRID) {
        m->tiles_x = (m->width + PF__FP_TILE - 1u) / PF__FP_TILE;
        m->tiles_y = (m->height + PF__FP_TILE - 1u) / PF__FP_TILE;
        m->tile_hash = pf__alloc(&m->alloc, (size_t)m->tiles_x * m->tiles_y * sizeof(uint64_t), 64);
        m->row_hash = pf__alloc(&m->alloc, (size_t)m->tiles_y * sizeof(uint64_t), 64);
        if (!m->tile_hash || !m->row_hash) return 0;
        pf__grid_fingerprint(m, NULL, 0, 1);
        return 1;
    }
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    uint32_t head[4] = {(uint32_t)m->kind, m->count, m->n, m->m};
    pf__hash_le(&st, head, sizeof head / sizeof head[0], sizeof head[0]);
    pf__hash_le(&st, m->off, (size_t)m->n + 1, sizeof(uint32_t));
    pf__hash_le(&st, m->dst, m->m, sizeof(uint32_t));
    pf__hash_le(&st, m->w, m->m, sizeof(double));
    if (m->xy) pf__hash_le(&st, m->xy, (size_t)m->n * 2, sizeof(double));
    m->fingerprint = XXH3_64bits_digest(&st);
    return 1;
}

pf_map_kind pf_map_kind_of(const pf_map *map) { return map ? map->kind : (pf_map_kind)0; }

uint32_t pf_map_node_count(const pf_map *map)
{
    if (!map) return 0;
    return map->kind == PF_MAP_GRID ? map->width * map->height : map->n;
}

uint64_t pf_map_fingerprint(const pf_map *map) { return map ? map->fingerprint : 0; }
uint64_t pf_map_version(const pf_map *map) { return map ? map->version : 0; }

size_t pf_map_mem_size(const pf_map *m)
{
    if (!m) return 0;
    size_t s = sizeof *m;
    if (m->kind == PF_MAP_GRID) {
        s += pf__grid_cells(m);
        if (m->clr) s += pf__grid_cells(m); /* clearance */
        s += pf__grid_class_bits_mem(m);
        if (m->cost) s += pf__grid_cells(m) * sizeof(float);
        s += pf__grid_components_mem(m);
        s += ((size_t)m->tiles_x * m->tiles_y + m->tiles_y) * sizeof(uint64_t);
        if (m->log) s += PF__LOG_CAP * sizeof *m->log;
        if (m->block_ver) s += (size_t)m->blocks_x * m->blocks_y * sizeof(uint64_t);
        s += m->scratch_cap;
        if (m->chg) s += (size_t)m->ph * m->chg_words * sizeof(uint64_t);
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
    /* public listeners are the map's to free; every other user is gone (checked above in debug) */
    for (pf__map_user *u = m->followers, *nx; u; u = nx) {
        nx = u->next;
        if (u->fn) pf__free(&a, u, sizeof *u);
    }
    if (m->kind == PF_MAP_GRID) {
        size_t c = pf__grid_cells(m);
        pf__free(&a, m->cls, c);
        pf__free(&a, m->cost, c * sizeof(float));
        pf__free(&a, m->clr, c);
        pf__grid_class_bits_free(m);
        pf__grid_components_free(m);
        pf__free(&a, m->tile_hash, (size_t)m->tiles_x * m->tiles_y * sizeof(uint64_t));
        pf__free(&a, m->row_hash, (size_t)m->tiles_y * sizeof(uint64_t));
        pf__free(&a, m->log, PF__LOG_CAP * sizeof *m->log);
        pf__free(&a, m->block_ver, (size_t)m->blocks_x * m->blocks_y * sizeof(uint64_t));
        pf__free(&a, m->scratch, m->scratch_cap);
        pf__free(&a, m->chg, (size_t)m->ph * m->chg_words * sizeof(uint64_t));
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
