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
 *   PDB         a pattern database (below): additive over disjoint patterns, maximised over the
 *               diagonal reflection.
 */
#ifndef PF_EXAMPLE_PUZZLE_H
#define PF_EXAMPLE_PUZZLE_H

#include <stdint.h>
#include "pathfind/pf_generic.h"
#include "pathfind/pf_pdb.h"

#define PUZ_MAX 16

typedef enum puz_heur {
    PUZ_MANHATTAN = 0,
    PUZ_LINEAR,
    PUZ_MISPLACED,
    PUZ_PDB         /* pf_pdb_value of `pdb` (puzzle_pdb.c builds the standard ones) */
} puz_heur;

typedef struct puz_domain {
    uint32_t      n;    /* side: 3 or 4 */
    puz_heur      heur;
    const pf_pdb *pdb;  /* PUZ_PDB */
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
/* Successors without heuristic values: the moves pf_pdb searches the abstract space with (tiles
 * outside a pattern are PUZ_PLACEHOLDER and move like any other). `user` is a puz_domain. */
void puz_moves(const void *state, pf_gen_sink *out, void *user);
/* The reflection about the main diagonal (cell (r, c) to (c, r), tile t to the tile whose goal
 * cell is t's reflected): maps the goal to itself and moves to moves. A pf_pdb symmetry. */
void puz_reflect(const void *state, void *out, void *user);

/* ---- pattern databases (puzzle_pdb.c) ----------------------------------------------------------
 *
 * A pattern is a set of k tiles; its abstract state is where those tiles and the blank are. Ranks
 * are compact: the tiles' cells as a partial permutation (N!/(N-k)! entries for N cells), then the
 * blank's cell among the N-k left, so group = N-k and an entry is the fewest moves of the
 * pattern's tiles, wherever the blank is (Korf & Felner's disjoint additive databases). The 7-8
 * partition of the 15-puzzle: 16!/9! = 57,657,600 and 16!/8! = 518,918,400 entries; 6-6-3:
 * 2 x 5,765,760 + 3,360. Entries are stored relative to the pattern tiles' Manhattan distance,
 * which pf_pdb then packs in 4 bits where it can. */
#define PUZ_PLACEHOLDER 0xFFu

typedef struct puz_pattern {
    uint32_t n, k;           /* board side, tiles in the pattern */
    uint8_t  tiles[PUZ_MAX];
    uint8_t  slot[256];      /* tile -> index in tiles; PUZ_MAX for other tiles and the placeholder */
} puz_pattern;

/* The pattern of `tiles` (k of them, none 0) on a side-n board, described for pf_pdb. */
pf_pdb_pattern puz_pattern_init(puz_pattern *pp, uint32_t n, const uint8_t *tiles, uint32_t k);
uint64_t puz_pattern_rank(const void *state, void *user);
void     puz_pattern_unrank(uint64_t rank, void *state, void *user);
uint32_t puz_pattern_manhattan(const void *state, void *user);
uint32_t puz_pattern_neighbours(uint64_t rank, uint64_t *out, void *user);

#define PUZ_MAX_PATTERNS 4

/* A partition of the tiles into disjoint patterns, ready for pf_pdb_build / pf_pdb_load. */
typedef struct puz_pdb_set {
    puz_domain     dom;
    uint8_t        goal[PUZ_MAX + 1];
    puz_pattern    pat[PUZ_MAX_PATTERNS];
    pf_pdb_pattern pattern[PUZ_MAX_PATTERNS];
    pf_pdb_map_fn  reflect[1];
    pf_pdb_desc    desc;
} puz_pdb_set;

/* Sets up a named partition: "7-8", "6-6-3", "5-5-5" (15-puzzle) or "4-4" (8-puzzle); `reflect`
 * adds the diagonal reflection (the maximum of the two sums). 0 for an unknown name. The set must
 * not move once initialised (the desc points into it). */
int puz_pdb_set_init(puz_pdb_set *s, const char *partition, int reflect, uint32_t threads);

/* Where puz_pdb_get's database came from. */
typedef enum puz_pdb_source {
    PUZ_PDB_BUILT = 0,     /* built (and saved, when a file was named) */
    PUZ_PDB_LOADED,        /* loaded from the file */
    PUZ_PDB_BUILT_UNSAVED, /* built, but the save failed: diag says why */
    PUZ_PDB_REFUSED,       /* (a failure) the file exists and did not load; it is left as it is */
} puz_pdb_source;

/* The database of `set`: loaded from `file` [opt] when it holds one, else built and saved there.
 * A missing file is built and saved. A file that exists and does not load (not a database, built
 * for another partition or options, corrupted) is NOT replaced: the load's status is returned, with
 * its message in diag [opt], and the file is left as it is, unless `rebuild`, which builds the
 * database and replaces the file (pf_pdb_save: links followed, devices written in place).
 * `*out` is NULL on failure. */
pf_status puz_pdb_get(const puz_pdb_set *set, const char *file, int rebuild, pf_pdb **out, puz_pdb_source *source,
                      pf_diag *diag);

/* IDA* over a 15-puzzle database with incremental lookups: the state is the 17 board bytes, then
 * each pattern's value on the board and on its reflection. A move changes one tile, so a successor
 * looks up two entries. `user` of the problem's callbacks is the puz_pdb_search. */
typedef struct puz_pdb_search {
    puz_domain         dom;                          /* first: the board callbacks read it */
    const puz_pdb_set *set;
    const pf_pdb      *pdb;
    uint32_t           count, reflect;
    uint8_t            pattern_of[PUZ_MAX];          /* board tile -> its pattern */
    uint8_t            rpattern_of[PUZ_MAX];         /* board tile -> pattern of its reflection */
    puz_pattern        rpat[PUZ_MAX_PATTERNS];       /* the reflections of each pattern's tiles */
    pf_pdb_info        info[PUZ_MAX_PATTERNS];
} puz_pdb_search;

/* 0 unless `set` is a 15-puzzle set and `pdb` its database. */
int            puz_pdb_search_init(puz_pdb_search *ps, const puz_pdb_set *set, const pf_pdb *pdb);
uint32_t       puz_pdb_state_size(const puz_pdb_search *ps);
/* The search state of a board (17 bytes in, puz_pdb_state_size out). */
void           puz_pdb_start(const puz_pdb_search *ps, const uint8_t *board, uint8_t *state);
pf_gen_problem puz_pdb_problem(puz_pdb_search *ps);

#endif
