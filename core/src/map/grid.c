/* grid.c - grid maps: creation from arrays, neighbour tables, components, accessors. */
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

/* Labels connected components by flood fill over the move rule (symmetric for every grid rule), so
 * a query whose goal lies in another component returns PF_NO_PATH without exhausting the start's
 * component. `stack` holds a cell index per cell. Instantiated per move rule, like the searches. */
PF__INLINE void flood(pf_map *m, uint32_t *stack, const int MV)
{
    const uint8_t *cls = m->cls;
    uint32_t *comp = m->comp;
    const uint32_t pw = m->pw;
    const size_t cells = (size_t)pw * m->ph;
    int32_t nb_off[2][8]; /* a copy: the stores to comp could alias the map's (int32_t) offsets */
    memcpy(nb_off, m->nb_off, sizeof nb_off);
    const pf__grid_view v = {cls, NULL, nb_off[0], pw};
    uint32_t label = 0;
    for (uint32_t i = 0; i < cells; i++) {
        if (!cls[i] || comp[i]) continue;
        label++;
        size_t top = 0;
        stack[top++] = i;
        comp[i] = label;
        while (top) {
            uint32_t c = stack[--top];
            const int32_t *off = nb_off[MV == PF__MV_HEX ? (c / pw) & 1u : 0u];
            for (uint32_t open = pf__grid_open_dirs(&v, off, c, (pf__unit){cls[c]}, MV); open;
                 open &= open - 1u) {
                uint32_t nb = (uint32_t)((int32_t)c + off[__builtin_ctz(open)]);
                if (comp[nb]) continue;
                comp[nb] = label;
                stack[top++] = nb;
            }
        }
    }
}

/* Uses the map's allocator; returns 0 on allocation failure. */
static int label_components(pf_map *m)
{
    size_t cells = (size_t)m->pw * m->ph;
    m->comp = pf__calloc(&m->alloc, cells * sizeof(uint32_t), 64);
    uint32_t *stack = pf__alloc(&m->alloc, cells * sizeof(uint32_t), 64);
    if (!m->comp || !stack) {
        pf__free(&m->alloc, stack, cells * sizeof(uint32_t));
        return 0;
    }
    /* Without corner cutting a diagonal step needs both side cells open, so it connects nothing
     * that two straight steps do not: the components are the 4-connected ones (half the tests). */
    switch (pf__mv_of(m->moves)) {
    case PF__MV_8CUT: flood(m, stack, PF__MV_8CUT); break;
    case PF__MV_HEX: flood(m, stack, PF__MV_HEX); break;
    default: flood(m, stack, PF__MV_4); break;
    }
    pf__free(&m->alloc, stack, cells * sizeof(uint32_t));
    return 1;
}

pf_status pf__grid_build(pf_map *m, pf_map **out)
{
    pf__grid_set_offsets(m);
    if (!label_components(m)) {
        pf_map_destroy(m);
        return PF_OUT_OF_MEMORY;
    }
    m->count = m->pw * m->ph;
    pf__map_finish(m);
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

void pf__grid_finish_costs(pf_map *m)
{
    if (!m->cost) return;
    size_t cells = (size_t)m->pw * m->ph;
    double mn = INFINITY;
    int all_one = 1;
    for (size_t i = 0; i < cells; i++) {
        if (!m->cls[i]) continue;
        if (m->cost[i] < mn) mn = m->cost[i];
        if (m->cost[i] != 1.0f) all_one = 0;
    }
    if (all_one) {
        pf__free(&m->alloc, m->cost, cells * sizeof(float));
        m->cost = NULL;
        mn = 1.0;
    }
    m->min_cost = isfinite(mn) ? mn : 1.0;
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
