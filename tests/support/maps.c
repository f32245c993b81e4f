/* maps.c - grids for the tests' map makers (see maps.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "maps.h"
#include "testutil.h"

pf_map *grid_make(uint32_t w, uint32_t h, pf_moves moves, const uint8_t *cells, const float *costs)
{
    pf_map *m = NULL;
    pf_grid_desc d = {.width = w, .height = h, .moves = moves, .cells = cells, .costs = costs};
    assert_int_equal(pf_grid_create(&d, &m), PF_OK);
    return m;
}

pf_map *grid_parse(const char *text, size_t len, pf_moves moves)
{
    pf_map *m = NULL;
    pf_diag d;
    pf_status st = pf_grid_parse_movingai(text, len, "t", &(pf_grid_load_desc){.moves = moves}, &m, &d);
    if (st != PF_OK) fail_msg("%s", d.msg);
    return m;
}

pf_map *grid_load(const char *path)
{
    pf_map *m = NULL;
    pf_diag d;
    if (pf_grid_load_movingai(path, NULL, &m, &d) != PF_OK) fail_msg("%s", d.msg);
    return m;
}

pf_map *grid_walled_40(void)
{
    uint8_t cells[40 * 40];
    memset(cells, 1, sizeof cells);
    for (uint32_t x = 0; x < 40; x++)
        if (x != 35) cells[20 * 40 + x] = 0;
    return grid_make(40, 40, PF_MOVES_DEFAULT, cells, NULL);
}

pf_map *grid_rooms_64(void)
{
    uint8_t cells[64 * 64];
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) cells[y * 64 + x] = ((x % 10 == 9 || y % 10 == 9) && (x + 3 * y) % 7) ? 0 : 1;
    return grid_make(64, 64, PF_MOVES_DEFAULT, cells, NULL);
}

pf_map *grid_core_or_walls(uint32_t w, uint32_t h, int walls, uint64_t seed)
{
    uint8_t *c = malloc((size_t)w * h);
    uint64_t rs = seed;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            c[y * w + x] = walls ? !(y % 8 == 0 && (x + y * 3) % 23 > 2) : rng_below(&rs, 5) != 0;
    pf_map *m = grid_make(w, h, PF_MOVES_8_NO_CUT, c, NULL);
    free(c);
    return m;
}
