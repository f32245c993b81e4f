/*
 * pf_pdb.h - pattern databases for the generic search: the exact cost of a relaxed problem for
 * every abstract state, built once, then looked up as an admissible heuristic.
 *
 * The lecture's last heuristic: "cost of getting a subset of the tiles in place (ignoring the cost
 * of moving other tiles); save these subproblems in a database". A PATTERN keeps part of a state
 * (some tiles and the blank, say) and forgets the rest. The caller describes it by a perfect
 * ranking of the abstract states (rank / unrank, 0..size-1), and the builder runs a backward
 * breadth-first search from the goal in that abstract space, using the domain's own successor
 * callback on abstract states (unrank writes the forgotten parts as placeholders the callback
 * moves like anything else).
 *
 * GROUPS AND ADDITIVITY. Consecutive ranks may share one table entry (`group`): the entry holds the
 * cheapest of them, and a move that stays inside a group costs nothing. Ranking the pattern's tiles
 * first and the blank last (group = the blank's possible cells) gives the disjoint additive
 * databases of Korf and Felner (2002): only moves of the pattern's own tiles are counted, so the
 * values of patterns that share no tile can be ADDED and stay admissible, as long as every move
 * changes the entry of at most one pattern. Different abstractions of the same domain may instead
 * be combined by maximum (pf_gen_desc.heuristics).
 *
 * SYMMETRIES. A domain symmetry that maps the goal to itself (the 15-puzzle's reflection about the
 * main diagonal) gives a second heuristic from the same tables: pf_pdb_value returns the maximum,
 * over the identity and every symmetry, of the sum over the patterns.
 *
 * STORAGE. Entries count moves (each costs `unit_cost`). A table takes 4 bits per entry when its
 * values fit, else 1 byte; the optional `base` callback (a lower bound the entry refines, such as
 * the pattern tiles' Manhattan distance) and a common factor of the remainders often make them fit.
 * Entries never reached (no abstract path to the goal) read as INFINITY, which every generic
 * search takes as a dead end (pf_gen_heuristic_fn): the state is never expanded.
 *
 * FILES (pf_pdb_save / pf_pdb_load) bake a database: little-endian, a 64-byte header (magic
 * "PFPDB", version PF_PDB_FILE_VERSION, a fingerprint of the desc, XXH3 checksums of the header,
 * the per-pattern directory and the tables), then the directory and the tables. A loader refuses a
 * truncated, corrupted, wrong-version or mismatched file with a status and a message (also one
 * whose checksums were resealed over a directory its tables contradict: the loader recounts the
 * unreached entries and the largest stored value, and scale times that value must be max_moves
 * for a table stored without a base, at most max_moves for one with a base), and
 * allocates only what the caller's desc implies, never what the file announces. A save follows
 * the library's rule for output files (as pf_table_save and pf_accel_save do): a regular file is
 * written beside its target and renamed over it only when complete, so a failed save leaves the old
 * file whole; a symbolic link is followed (the file it names is replaced, the link stays a link); a
 * device or a pipe is written in place, never replaced; a directory is refused.
 *
 *     pf_pdb_pattern pats[3] = { {.size = S1, .group = 10, .rank = r1, .unrank = u1}, ... };
 *     pf_pdb_desc pd = {.state_size = 17, .successors = moves, .goal = goal,
 *                       .patterns = pats, .pattern_count = 3, .domain_id = 0x15663};
 *     pf_pdb *pdb;
 *     if (pf_pdb_load("663.pfp", &pd, &pdb, NULL) != PF_OK) {
 *         pf_pdb_build(&pd, &pdb);
 *         pf_pdb_save(pdb, "663.pfp", NULL);
 *     }
 *     double h = pf_pdb_value(pdb, state);   // in a pf_gen_heuristic_fn
 *     pf_pdb_destroy(pdb);
 *
 * THREAD SAFETY: a built or loaded pf_pdb is immutable; any number of threads may look it up. The
 * build runs on OpenMP threads (`threads`) and calls the callbacks, and the allocator, from them:
 * they must be safe to call concurrently (pure ranking functions are).
 */
#ifndef PATHFIND_PF_PDB_H
#define PATHFIND_PF_PDB_H

#include <stddef.h>
#include <stdint.h>
#include "pf_status.h"
#include "pf_alloc.h"
#include "pf_generic.h"
#include "pf_parallel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pf_pdb pf_pdb;

/** Version written by pf_pdb_save and the only one pf_pdb_load accepts. */
#define PF_PDB_FILE_VERSION 1u
/** Most patterns in one database. */
#define PF_PDB_MAX_PATTERNS 64u

/** Rank of the abstract state of `state` (a concrete or an unranked abstract state) in [0, size). */
typedef uint64_t (*pf_pdb_rank_fn)(const void *state, void *user);
/** Writes the abstract state of `rank` (state_size bytes). */
typedef void (*pf_pdb_unrank_fn)(uint64_t rank, void *state, void *user);
/** A lower bound, in moves, of an entry's value (called on unrank(entry * group)). */
typedef uint32_t (*pf_pdb_base_fn)(const void *state, void *user);
/** Most ranks a pf_pdb_neighbours_fn may write. */
#define PF_PDB_MAX_NEIGHBOURS 64u
/** Ranks of the abstract states one move away from `rank` (backwards: the states from which one
 *  move reaches it, for a desc with predecessors); returns how many (<= PF_PDB_MAX_NEIGHBOURS). */
typedef uint32_t (*pf_pdb_neighbours_fn)(uint64_t rank, uint64_t *out, void *user);
/** Image of `state` under a symmetry of the domain that maps the goal to itself. */
typedef void (*pf_pdb_map_fn)(const void *state, void *out, void *user);

typedef struct pf_pdb_pattern {
    uint64_t         size;   /* required: abstract states, ranks 0..size-1 (size % group == 0) */
    uint32_t         group;  /* ranks per entry (entry = rank / group); 0 = 1 */
    pf_pdb_rank_fn   rank;   /* required */
    pf_pdb_unrank_fn unrank; /* required */
    pf_pdb_base_fn   base;   /* [opt] see STORAGE */
    pf_pdb_neighbours_fn neighbours; /* [opt] the build's fast path: when given, it replaces unrank,
                                        the successor callback and rank (which must agree with it) */
    void            *user;   /* passed to rank, unrank, base and neighbours; must outlive the database */
} pf_pdb_pattern;

typedef struct pf_pdb_desc {
    uint32_t              state_size;     /* required, 1..PF_GEN_MAX_STATE_SIZE */
    pf_gen_successors_fn  successors;     /* required: moves, called on abstract states; costs ignored */
    pf_gen_successors_fn  predecessors;   /* [opt] NULL: every move can be undone, successors serve */
    const void           *goal;           /* required [len: state_size] */
    const pf_pdb_pattern *patterns;       /* required [len: pattern_count], 1..PF_PDB_MAX_PATTERNS */
    uint32_t              pattern_count;
    const pf_pdb_map_fn  *symmetries;     /* [opt][len: symmetry_count]; needs state_size <= 4096 */
    uint32_t              symmetry_count;
    double                unit_cost;      /* cost of one counted move; 0 = 1 */
    uint64_t              domain_id;      /* any number that changes whenever the domain, the ranking
                                             or the patterns change: files record and check it */
    uint32_t              threads;        /* build threads; 0 = OpenMP's default (1 without OpenMP) */
    void                 *user;           /* passed to successors, predecessors and symmetries */
    pf_allocator          allocator;
    pf_parallel_for       parallel;       /* [opt] the build's loops on the engine's threads (pf_parallel.h) */
} pf_pdb_desc;

/** What one pattern's table holds. */
typedef struct pf_pdb_info {
    uint64_t entries;    /* size / group */
    uint64_t unreached;  /* entries with no abstract path to the goal (read as INFINITY) */
    size_t   bytes;      /* table size */
    uint32_t bits;       /* per entry: 4 or 8 */
    uint32_t scale;      /* stored value = (moves - base) / scale */
    uint32_t max_moves;  /* largest finite entry, in moves */
    int      uses_base;  /* the entries are stored relative to pattern->base */
} pf_pdb_info;

/**
 * Builds every pattern's table by backward breadth-first search from the goal.
 * Memory during the build: three bits per abstract state and one byte per entry, then the table.
 * @return PF_OK, PF_INVALID_ARGUMENT (bad desc; a rank out of range; a successor callback that
 *         pushed a bad cost), PF_TOO_LARGE (an entry beyond 254 moves), PF_OUT_OF_MEMORY.
 */
PF_API pf_status pf_pdb_build(const pf_pdb_desc *desc, pf_pdb **out);
/** NULL-safe. */
PF_API void      pf_pdb_destroy(pf_pdb *pdb);

/** Admissible heuristic: the maximum, over the identity and the symmetries, of the sum of the
 *  patterns' values; INFINITY when a pattern cannot reach the goal (the generic searches then
 *  never expand the state: no plan goes through it). */
PF_API double    pf_pdb_value(const pf_pdb *pdb, const void *state);
/** One pattern's value for `state`, in cost units (unit_cost * moves); INFINITY when unreached. */
PF_API double    pf_pdb_pattern_value(const pf_pdb *pdb, uint32_t pattern, const void *state);
/** Raw stored number of an entry (fast path for domains that rank incrementally): the value in
 *  moves is base + scale * raw (see pf_pdb_info), raw = 2^bits - 1 meaning unreached. */
PF_API uint32_t  pf_pdb_entry(const pf_pdb *pdb, uint32_t pattern, uint64_t entry);
/** @return PF_OK or PF_INVALID_ARGUMENT. */
PF_API pf_status pf_pdb_get_pattern_info(const pf_pdb *pdb, uint32_t pattern, pf_pdb_info *out);
/** Bytes held (tables and copies of the desc). */
PF_API size_t    pf_pdb_mem_size(const pf_pdb *pdb);
/** Seconds the build took (0 for a loaded database). */
PF_API double    pf_pdb_build_seconds(const pf_pdb *pdb);

/** Bytes of the baked form (pf_pdb_save_mem, pf_pdb_save); 0 for NULL. */
PF_API size_t    pf_pdb_file_size(const pf_pdb *pdb);
/**
 * Bakes the database into caller memory.
 * @param size [opt] receives the bytes needed, also on PF_BUFFER_TOO_SMALL.
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_BUFFER_TOO_SMALL.
 */
PF_API pf_status pf_pdb_save_mem(const pf_pdb *pdb, void *buf, size_t capacity, size_t *size);
/**
 * Bakes the database to `path` (see FILES: links followed, devices and pipes written in place).
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_IO_ERROR (message in diag; a regular file at `path` is
 *         left as it was).
 */
PF_API pf_status pf_pdb_save(const pf_pdb *pdb, const char *path, pf_diag *diag);
/**
 * Loads a database baked for `desc` (the same domain_id, state size, goal, patterns and flags).
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_IO_ERROR, PF_PARSE_ERROR (truncated, corrupted),
 *         PF_UNSUPPORTED (another file version), PF_WRONG_MAP (baked for another desc),
 *         PF_OUT_OF_MEMORY. `*out` is NULL on failure.
 */
PF_API pf_status pf_pdb_load(const char *path, const pf_pdb_desc *desc, pf_pdb **out, pf_diag *diag);
/** The same from memory; `name` [opt] names it in messages. */
PF_API pf_status pf_pdb_load_mem(const void *data, size_t size, const char *name,
                                 const pf_pdb_desc *desc, pf_pdb **out, pf_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
