/* random_grid.c - see random_grid.h. The order of the draws is part of what a seed means: keep it. */
#include "random_grid.h"
#include <stdlib.h>
#include "testutil.h"

void paint_class_rect(uint64_t *rs, uint8_t *c, uint32_t w, uint32_t h, uint8_t k)
{
    uint32_t x0 = rng_below(rs, w), y0 = rng_below(rs, h);
    uint32_t x1 = x0 + rng_below(rs, w / 2 + 1), y1 = y0 + rng_below(rs, h / 2 + 1);
    for (uint32_t y = y0; y <= y1 && y < h; y++)
        for (uint32_t x = x0; x <= x1 && x < w; x++)
            if (c[y * w + x]) c[y * w + x] = k;
}

uint8_t *cells_random(uint64_t *rs, uint32_t w, uint32_t h, double density, int classes)
{
    uint8_t *c = malloc((size_t)w * h);
    for (uint32_t i = 0; i < w * h; i++) c[i] = rng_unit(rs) < density ? 0 : 1;
    for (int r = 1; r < classes; r++) paint_class_rect(rs, c, w, h, (uint8_t)(1 + r));
    return c;
}

void paint_blobs(uint64_t *rs, uint8_t *c, uint32_t w, uint32_t h, uint32_t rects, uint32_t side)
{
    for (uint32_t r = 0; r < rects; r++) {
        uint32_t x0 = rng_below(rs, w), y0 = rng_below(rs, h);
        uint32_t rw = 1 + rng_below(rs, side), rh = 1 + rng_below(rs, side);
        uint8_t k = (uint8_t)rng_below(rs, 4);
        for (uint32_t y = y0; y < y0 + rh && y < h; y++)
            for (uint32_t x = x0; x < x0 + rw && x < w; x++) c[(size_t)y * w + x] = k;
    }
}

uint32_t some_open(uint64_t *rs, const pf_map *m)
{
    uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    for (int t = 0; t < 400; t++) {
        int32_t x = (int32_t)rng_below(rs, w), y = (int32_t)rng_below(rs, h);
        if (pf_grid_class(m, x, y)) return pf_grid_node(m, x, y);
    }
    return PF_NODE_NONE;
}
