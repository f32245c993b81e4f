/* maps.h - the steps every test's map maker ends with: a grid from arrays of classes and costs,
 * from a MovingAI text, or from a file, failing the case (not returning NULL) when the library
 * refuses it. The makers themselves stay in their tests: each draws its own layout from its own
 * stream, and a test's seeds name those layouts; the kinds several tests draw alike are in
 * random_grid.h. */
#ifndef PF_TEST_MAPS_H
#define PF_TEST_MAPS_H

#include <stdint.h>
#include "pathfind.h"

/* The w x h grid of `cells` (classes, 0 blocked) with `costs` ([opt] NULL: all 1) under `moves`. */
pf_map *grid_make(uint32_t w, uint32_t h, pf_moves moves, const uint8_t *cells, const float *costs);
/* The grid a MovingAI text in memory describes, with `moves` (PF_MOVES_DEFAULT: the loader's default). */
pf_map *grid_parse(const char *text, size_t len, pf_moves moves);
/* The grid of the MovingAI file at `path`; a refusal fails the case with the loader's message. */
pf_map *grid_load(const char *path);
/* 40x40, open, a wall across row 20 with one gap at x = 35: the accelerator tests' map, whose
 * routes from the top half to the bottom half all pass the gap (an edit there moves them all). */
pf_map *grid_walled_40(void);
/* 64x64 rooms: walls on every tenth row and column, with a door wherever (x + 3y) % 7 == 0; the
 * adoption and squad tests' map (a stale accelerator's and a group's). */
pf_map *grid_rooms_64(void);
/* w x h, 8-connected: scattered blocks (a fifth of the cells, as random-2000-20, drawn from
 * `seed`), whose contraction keeps a core; or with `walls`, long walls with gaps every 8 rows
 * (rooms), whose hierarchy has none. The sliced and squad accelerator tests' maps. */
pf_map *grid_core_or_walls(uint32_t w, uint32_t h, int walls, uint64_t seed);

#endif
