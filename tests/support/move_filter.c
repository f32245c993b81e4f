/* move_filter.c - see move_filter.h. The order of the draws is part of what a seed means: keep it. */
#include "move_filter.h"
#include <string.h>
#include "testutil.h"

const float FILTER_MULTS[6] = {0.0f, 1.0f, 0.5f, 1.5f, 2.0f, 3.25f};

int filter_allows(const pf_move_filter *f, uint8_t k) { return k && (f->classes[k / 8] >> (k % 8)) & 1; }

int filter_uniform(const pf_move_filter *f)
{
    double m0 = -1.0;
    for (int k = 1; k <= 255; k++) {
        if (!filter_allows(f, (uint8_t)k)) continue;
        double v = f->class_cost[k] > 0.0f ? f->class_cost[k] : 1.0;
        if (m0 >= 0.0 && v != m0) return 0;
        m0 = v;
    }
    return 1;
}

uint32_t filter_allowed_cell(const pf_map *m, const pf_move_filter *f, uint64_t *rs)
{
    uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    for (int t = 0; t < 200; t++) {
        int32_t x = (int32_t)rng_below(rs, w), y = (int32_t)rng_below(rs, h);
        if (filter_allows(f, pf_grid_class(m, x, y))) return pf_grid_node(m, x, y);
    }
    return PF_NODE_NONE;
}

void filter_random(uint64_t *rs, pf_move_filter *f, int unit_costs)
{
    memset(f, 0, sizeof *f);
    uint32_t set = 1 + rng_below(rs, 7); /* a non-empty subset of {1, 2, 3} */
    for (uint8_t k = 1; k <= 3; k++)
        if (set & (1u << (k - 1))) pf_move_filter_allow(f, k, unit_costs ? 0.0f : FILTER_MULTS[rng_below(rs, FILTER_NMULTS)]);
}
