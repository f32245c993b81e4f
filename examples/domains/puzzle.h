/* puzzle.h - the sliding-tile puzzle (8- and 15-puzzle) as a pf_gen domain, written against the
 * public API only. It is an example domain, not part of libpathfind: tests, benchmarks and examples
 * link it as the small static library `pf_domains` (examples/domains/CMakeLists.txt).
 *
 * State: n*n bytes (tile at each position, row-major, 0 = blank) then one byte with the blank's
 * position, so successors need no scan. Goal: tile i at position i (blank top left, as in Korf's
 * instances). Actions: the direction the blank moves, 0 up, 1 left, 2 right, 3 down (Korf's order).
 *
 * Heuristics (puz_heur), all admissible and consistent:
 *   MISPLACED   tiles not on their goal cell (the lecture's h1: each must move at least once).
 *   MANHATTAN   sum of the tiles' grid distances to their goal cells (the lecture's h2), pushed
 *               incrementally with pf_gen_push_h: a move changes one tile's distance by exactly 1.
 *   LINEAR      Manhattan plus linear conflicts (Hansson, Mayer & Yung 1992): in each row, tiles
 *               of that goal row in reversed order must leave the row; 2 moves for each tile
 *               outside the longest increasing run, and the same for columns.
 */
#ifndef PF_EXAMPLE_PUZZLE_H
#define PF_EXAMPLE_PUZZLE_H

#include <stdint.h>
#include "pathfind/pf_generic.h"

#define PUZ_MAX 16

typedef enum puz_heur {
    PUZ_MANHATTAN = 0,
    PUZ_LINEAR,
    PUZ_MISPLACED
} puz_heur;

typedef struct puz_domain {
    uint32_t n;    /* side: 3 or 4 */
    puz_heur heur;
} puz_domain;

typedef struct puz_instance {
    uint32_t id, optimal;
    uint8_t  s[PUZ_MAX + 1];
} puz_instance;

static inline uint32_t puz_state_size(const puz_domain *d) { return d->n * d->n + 1; }

int    puz_manhattan(const puz_domain *d, const uint8_t *s);
int    puz_misplaced(const puz_domain *d, const uint8_t *s);
int    puz_linear_conflicts(const puz_domain *d, const uint8_t *s);
/* pf_gen callbacks; `user` is a puz_domain. */
double puz_h(const void *state, void *user);
int    puz_is_goal(const void *state, void *user);
void   puz_successors(const void *state, pf_gen_sink *out, void *user);
/* The problem for `d` (which must outlive it). */
pf_gen_problem puz_problem(puz_domain *d);

/* Sets the blank byte from the tiles; 0 when the tiles are not a permutation of 0..n*n-1. */
int puz_finish(const puz_domain *d, uint8_t *s);
/* Solvable with the blank-top-left goal: for odd n, even inversions; for even n, inversions plus
 * the blank's row must be even. */
int puz_solvable(const puz_domain *d, const uint8_t *s);
/* Applies an action (blank move) in place; 0 when it leaves the board. */
int puz_apply(const puz_domain *d, uint8_t *s, uint32_t a);
/* Reads Korf's file ("id length t0..t15" per line); returns the count read (at most cap), -1 when
 * the file cannot be opened or a line is malformed. */
int puz_load_korf(const char *path, puz_instance *out, int cap);

#endif
