/* grid.c - grid maps: creation from arrays, neighbour tables, accessors. */
#include <math.h>
#include <string.h>
#include "map/grid_moves_internal.h"

void pf__grid_set_offsets(pf_map *m)
{
    int32_t pw = (int32_t)m->pw;
    if (m->moves == PF_MOVES_HEX) {
        /* [padded row & 1]: padded row py = y + 1, so odd py is an even (unshifted) row y of the
         * odd-r layout */
        for (int d = 0; d < 6; d++)
            for (int par = 0; par < 2; par++)
                m->nb_off[par][d] = pf__hex_dy[d] * pw + pf__hex_dx[par ^ 1][d];
        return;
    }
    for (int d = 0; d < 8; d++) m->nb_off[0][d] = m->nb_off[1][d] = pf__dir_dy[d] * pw + pf__dir_dx[d];
}


pf_status pf__grid_build(pf_map *m, pf_map **out)
{
    pf__grid_set_offsets(m);
    if (!pf__grid_clearance_build(m) || !pf__grid_class_bits_build(m) || !pf__grid_label_components(m)) {
        pf_map_destroy(m);
        return PF_OUT_OF_MEMORY;
    }
    m->count = m->pw * m->ph;
    if (!pf__map_finish(m)) {
        pf_map_destroy(m);
        return PF_OUT_OF_MEMORY;
    }
    *out = m;
    return PF_OK;
}

static pf_status grid_check_size(uint32_t w, uint32_t h)
{
    if (w == 0 || h == 0) return PF_INVALID_ARGUMENT;
    if (w > PF_GRID_MAX_SIDE || h > PF_GRID_MAX_SIDE) return PF_TOO_LARGE;
    if ((uint64_t)(w + 2) * (h + 2) >= PF_MAX_NODES) return PF_TOO_LARGE;
    return PF_OK;
}

pf_status pf__grid_alloc(const pf_allocator *alloc, uint32_t w, uint32_t h, pf_moves moves, int weighted,
                         pf_map **out)
{
    *out = NULL;
    pf_status st = grid_check_size(w, h);
    if (st != PF_OK) return st;
    if ((unsigned)moves > PF_MOVES_HEX) return PF_INVALID_ARGUMENT;
    pf_map *m = pf__map_new(alloc, PF_MAP_GRID);
    if (!m) return PF_OUT_OF_MEMORY;
    m->width = w;
    m->height = h;
    m->pw = w + 2;
    m->ph = h + 2;
    m->moves = PF__DEF(moves, PF_MOVES_8_NO_CUT);
    size_t cells = (size_t)m->pw * m->ph;
    m->cls = pf__calloc(&m->alloc, cells, 64);
    if (weighted) {
        m->cost = pf__alloc(&m->alloc, cells * sizeof(float), 64);
        if (m->cost)
            for (size_t i = 0; i < cells; i++) m->cost[i] = 1.0f;
    }
    if (!m->cls || (weighted && !m->cost)) {
        pf_map_destroy(m);
        return PF_OUT_OF_MEMORY;
    }
    *out = m;
    return PF_OK;
}

void pf__grid_cost_scan(pf_map *m)
{
    size_t cells = (size_t)m->pw * m->ph;
    double mn = INFINITY;
    uint32_t n_min = 0, not1 = 0; /* kept so edits can follow min_cost without a rescan */
    for (size_t i = 0; i < cells; i++) {
        if (!m->cls[i]) continue;
        if (m->cost[i] < mn) {
            mn = m->cost[i];
            n_min = 0;
        }
        n_min += m->cost[i] == mn;
        not1 += m->cost[i] != 1.0f;
    }
    m->min_cost = isfinite(mn) ? mn : 1.0;
    m->cost_min_n = n_min;
    m->cost_not1 = not1;
}

void pf__grid_finish_costs(pf_map *m)
{
    m->cost_min_n = m->cost_not1 = 0;
    if (!m->cost) return;
    pf__grid_cost_scan(m);
    if (!m->cost_not1) {
        pf__free(&m->alloc, m->cost, (size_t)m->pw * m->ph * sizeof(float));
        m->cost = NULL;
        m->min_cost = 1.0;
        m->cost_min_n = 0;
    }
}

pf_status pf_grid_create(const pf_grid_desc *desc, pf_map **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    if (!desc) return PF_INVALID_ARGUMENT;
    /* size first: the caller's arrays are only as long as a map that can exist */
    pf_status st = grid_check_size(desc->width, desc->height);
    if (st != PF_OK) return st;
    if (desc->costs) {
        size_t n = (size_t)desc->width * desc->height;
        for (size_t i = 0; i < n; i++)
            if (!(desc->costs[i] > 0.0f) || !isfinite(desc->costs[i])) return PF_INVALID_ARGUMENT;
    }
    pf_map *m;
    st = pf__grid_alloc(&desc->allocator, desc->width, desc->height, desc->moves, desc->costs != NULL, &m);
    if (st != PF_OK) return st;
    for (uint32_t y = 0; y < desc->height; y++)
        for (uint32_t x = 0; x < desc->width; x++) {
            size_t src = (size_t)y * desc->width + x, dst = (size_t)(y + 1) * m->pw + x + 1;
            m->cls[dst] = desc->cells ? desc->cells[src] : 1;
            if (m->cost) m->cost[dst] = desc->costs[src];
        }
    pf__grid_finish_costs(m);
    return pf__grid_build(m, out);
}

static int is_grid(const pf_map *m) { return m && m->kind == PF_MAP_GRID; }

uint32_t pf_grid_width(const pf_map *m) { return is_grid(m) ? m->width : 0; }
uint32_t pf_grid_height(const pf_map *m) { return is_grid(m) ? m->height : 0; }
pf_moves pf_grid_moves(const pf_map *m) { return is_grid(m) ? m->moves : PF_MOVES_DEFAULT; }
int pf_grid_weighted(const pf_map *m) { return is_grid(m) && m->cost != NULL; }

uint32_t pf_grid_node(const pf_map *m, int32_t x, int32_t y)
{
    if (!is_grid(m) || x < 0 || y < 0 || (uint32_t)x >= m->width || (uint32_t)y >= m->height) return PF_NODE_NONE;
    return (uint32_t)y * m->width + (uint32_t)x;
}

pf_point pf_grid_point(const pf_map *m, uint32_t node)
{
    if (!is_grid(m) || node >= m->width * m->height) return (pf_point){-1, -1};
    return (pf_point){(int32_t)(node % m->width), (int32_t)(node / m->width)};
}

uint8_t pf_grid_class(const pf_map *m, int32_t x, int32_t y)
{
    uint32_t n = pf_grid_node(m, x, y);
    return n == PF_NODE_NONE ? 0 : m->cls[pf__grid_pad(m, n)];
}

float pf_grid_cost(const pf_map *m, int32_t x, int32_t y)
{
    uint32_t n = pf_grid_node(m, x, y);
    if (n == PF_NODE_NONE) return 0.0f;
    return m->cost ? m->cost[pf__grid_pad(m, n)] : 1.0f;
}
