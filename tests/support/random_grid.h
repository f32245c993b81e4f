/* random_grid.h - the random layouts and endpoints the property tests draw from their seeds.
 * Several tests draw the same kind of grid; they share its maker so that a fix or a new class
 * rule reaches all of them. Each still draws from its own stream, so a test's seeds name the
 * same layouts as before. */
#ifndef PF_TEST_RANDOM_GRID_H
#define PF_TEST_RANDOM_GRID_H

#include <stdint.h>
#include "pathfind.h"

/* Paints class `k` over the open cells of one random rectangle of up to half the grid's sides
 * (it may run off the right and bottom edges, which clip it). */
void paint_class_rect(uint64_t *rs, uint8_t *c, uint32_t w, uint32_t h, uint8_t k);
/* A malloc'd w x h array: cells blocked at `density`, then with `classes` > 1 one rectangle of
 * each class 2..classes painted over the open ones (paint_class_rect). */
uint8_t *cells_random(uint64_t *rs, uint32_t w, uint32_t h, double density, int classes);
/* Paints `rects` blobs of random class (0 blocked, 1 ground, 2 water, 3 trees), each side 1 to
 * `side`, over `c`; the caller fills the background first. */
void paint_blobs(uint64_t *rs, uint8_t *c, uint32_t w, uint32_t h, uint32_t rects, uint32_t side);
/* An open cell drawn uniformly: 400 tries, then PF_NODE_NONE (a grid may be all walls). */
uint32_t some_open(uint64_t *rs, const pf_map *m);

#endif
