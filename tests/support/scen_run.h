/* scen_run.h - the driver the scenario tests share: how many lines of a file to sample, loading
 * a map with its scenarios, and running a check over every Moving AI pair or a list of the
 * 2000x2000 pairs. The check itself (what a line must answer) stays in each test. Include after
 * cmocka.h; the caller does SKIP_IF_ABSENT itself, since RUN_TESTS counts the skips of its own
 * file. */
#ifndef PF_TEST_SCEN_RUN_H
#define PF_TEST_SCEN_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "pathfind.h"
#include "testutil.h"

/* Checks one map/scenario pair, about `want` lines of it; returns the lines that failed (a file
 * that does not load counts 1) and adds the searches made to *checked. */
typedef uint32_t (*scen_check_fn)(const char *map_path, const char *scen_path, uint32_t want, uint32_t *checked);

/* The stride that samples about `want` (scaled by PF_TEST_SCALE) of `n` lines, or the one the
 * environment variable `env` names when it is set above 0. */
uint32_t scen_stride(const char *env, uint32_t n, uint32_t want);
/* Loads both files; on a refusal prints the loader's message, destroys what loaded and returns 0. */
int scen_load_pair(const char *map_path, const char *scen_path, pf_map **m, pf_scen **sc);
/* Runs `check` on every MAP.map.scen in `dir` with `want`, prints
 * "N Moving AI files, N <searches>, N <failures>", and fails the case when there is no file or
 * a line failed. */
void scen_check_dir(const char *dir, scen_check_fn check, uint32_t want, const char *searches, const char *failures);
/* Runs `check` on each {map, scen} of `pairs` under PF_SHARED_DATA/grids whose scenario file
 * exists, with `want`, or `want_short` for a *short* scenario file; fails the case when none
 * exists or a line failed. Returns how many listed scenario files do not exist. */
unsigned scen_run_grids(const char *const (*pairs)[2], size_t npairs, scen_check_fn check, uint32_t want,
                        uint32_t want_short);
/* The same, counting each absent file as a skip (RUN_TESTS then reports the file SKIPPED, not
 * passed). Here and not in scen_run.c: testutil_skips() is static inline, a counter per
 * translation unit, and RUN_TESTS reads the test file's. */
static inline void scen_check_grids(const char *const (*pairs)[2], size_t npairs, scen_check_fn check, uint32_t want,
                                    uint32_t want_short)
{
    *testutil_skips() += scen_run_grids(pairs, npairs, check, want, want_short);
}

#endif
