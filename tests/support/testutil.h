/* testutil.h - small helpers shared by the property and data-driven tests (header only). */
#ifndef PF_TEST_UTIL_H
#define PF_TEST_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h> /* access */

/* splitmix64: every seed, even 0, gives a full-period, well-mixed stream */
static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
static inline uint32_t rng_below(uint64_t *s, uint32_t n) { return (uint32_t)(rng_next(s) % n); }
static inline double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) * 0x1.0p-53; }

/* Two cheaper streams kept because existing tests' random sets were drawn from them: xorshift64
 * (the seed must not be 0) and a 64-bit LCG returning its high 31 bits. */
static inline uint64_t xorshift_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}
static inline uint32_t lcg_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

#ifdef PATHFIND_PF_GRID_H /* tests that include pathfind.h first */
/* The cells a unit of side K may stand on, by the rule of pf_search_desc.unit_size read cell by
 * cell: the K x K block whose top-left cell it is lies on the grid and is all of its class.
 * Returns a malloc'd w x h array of classes (0 where it may not stand). */
static inline uint8_t *erode_cells(const uint8_t *c, uint32_t w, uint32_t h, uint32_t K)
{
    uint8_t *e = malloc((size_t)w * h);
    for (uint32_t y = 0; y < h && e; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t k = c[(size_t)y * w + x];
            int ok = k && x + K <= w && y + K <= h;
            for (uint32_t dy = 0; dy < K && ok; dy++)
                for (uint32_t dx = 0; dx < K && ok; dx++) ok = c[(size_t)(y + dy) * w + x + dx] == k;
            e[(size_t)y * w + x] = ok ? k : 0;
        }
    return e;
}

/* A uniformly drawn open cell of a grid (LCG stream): endpoints of random queries. */
static inline uint32_t open_cell(const pf_map *m, uint64_t *s)
{
    uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    for (;;) {
        int32_t x = (int32_t)(lcg_next(s) % w), y = (int32_t)(lcg_next(s) % h);
        if (pf_grid_class(m, x, y)) return pf_grid_node(m, x, y);
    }
}
#endif

/* Costs compared to 1e-9 relative: sums of the same steps in another order may differ in the last bits. */
static inline int close_to(double a, double b) { return fabs(a - b) <= 1e-9 * (1.0 + fabs(b)); }

/* The tests' allocator for pf_allocator hooks: counts requests, live blocks and bytes, remembers
 * the largest request (refused ones too), and refuses
 *   - every request once `countdown` allocations have succeeded (negative: never), or with `once`
 *     only the one request that finds it at 0 (then none: a failure in turn, the rest succeed);
 *   - every request above `limit` bytes (0: no limit), as a loader that trusted a size it was told
 *     would make.
 *     test_tracker t = {.countdown = -1};
 *     pf_allocator a = {test_track_alloc, test_track_free, &t};
 * Single-threaded: batches with several workers count with their own. */
typedef struct test_tracker {
    long          live;
    size_t        bytes, largest;
    long          countdown;
    int           once;
    size_t        limit;
    unsigned long calls, fails;
} test_tracker;

static inline void *test_track_alloc(size_t n, size_t align, void *u)
{
    test_tracker *t = u;
    t->calls++;
    if (n > t->largest) t->largest = n;
    if (t->countdown == 0 || (t->limit && n > t->limit)) {
        if (t->countdown == 0 && t->once) t->countdown = -1;
        t->fails++;
        return NULL;
    }
    if (t->countdown > 0) t->countdown--;
    size_t a = align < sizeof(void *) ? sizeof(void *) : align;
    void *p = aligned_alloc(a, (n + a - 1) / a * a);
    if (p) {
        t->live++;
        t->bytes += n;
    }
    return p;
}
static inline void test_track_free(void *p, size_t n, void *u)
{
    test_tracker *t = u;
    t->live--;
    t->bytes -= n;
    free(p);
}

#ifdef PATHFIND_PF_ALLOC_H /* tests that include pathfind.h first */
static inline pf_allocator test_tracked(test_tracker *t) { return (pf_allocator){test_track_alloc, test_track_free, t}; }
#endif

/* PF_TEST_SCALE (float, default 1) scales how much a test does: CI's sanitizer runs use 0.25. */
static inline double env_scale(void)
{
    const char *e = getenv("PF_TEST_SCALE");
    double v = e ? atof(e) : 1.0;
    return v > 0 ? v : 1.0;
}

/* The seeds a property test draws its maps from: the one PF_TEST_SEED names (a replay), else
 * `count` seeds from `base` on, stopping early once *failures (when given) reaches 5, so that a
 * broken build reports a few seeds rather than hundreds. Returns 0 for a replay, whose totals
 * are too small for the caller's coverage checks, else 1. */
static inline int each_seed(uint64_t base, uint32_t count, void (*fn)(uint64_t seed, void *user), void *user,
                            const int *failures)
{
    const char *e = getenv("PF_TEST_SEED");
    if (e) {
        fn(strtoull(e, NULL, 10), user);
        return 0;
    }
    for (uint32_t i = 0; i < count && !(failures && *failures >= 5); i++) fn(base + i, user);
    return 1;
}

/* A property check that prints the seed to replay (PF_TEST_SEED) and where it failed; the test
 * defines `uint64_t g_seed` and `char g_where[]` (include after cmocka.h). */
#define PCHECK(c)                                                                                   \
    do {                                                                                            \
        if (!(c)) {                                                                                 \
            print_message("property failed: %s\n  seed %llu (replay: PF_TEST_SEED=%llu)\n  %s\n", #c, \
                          (unsigned long long)g_seed, (unsigned long long)g_seed, g_where);         \
            fail();                                                                                 \
        }                                                                                           \
    } while (0)

/*
 * Shared benchmark data and ctest. Cases that read PF_SHARED_DATA (../shared/data beside the
 * checkout, or cmake -DPF_SHARED_DATA=DIR) skip only when a file or directory they need does not
 * exist (SKIP_IF_ABSENT); what exists must load, or the case fails, so a loader regression cannot
 * pass as a skip. RUN_TESTS(tests) runs a cmocka group and returns what ctest reads: the number of
 * failures, else TESTUTIL_SKIPPED (the SKIP_RETURN_CODE of tests/CMakeLists.txt) when a case
 * skipped, so ctest counts it as skipped instead of passed. PF_TEST_ONLY and PF_TEST_EXCEPT in the
 * environment (cmocka name patterns) let tests/CMakeLists.txt register the data cases of a file as
 * a ctest of their own. Include after cmocka.h.
 */
#define TESTUTIL_SKIPPED 77

static inline unsigned *testutil_skips(void)
{
    static unsigned n;
    return &n;
}

static inline int path_exists(const char *path) { return access(path, F_OK) == 0; }

#define SKIP_IF_ABSENT(path)                                                                        \
    do {                                                                                            \
        const char *absent_ = (path);                                                               \
        if (!path_exists(absent_)) {                                                                \
            print_message("SKIP: %s does not exist (shared benchmark data absent)\n", absent_);     \
            ++*testutil_skips();                                                                    \
            skip();                                                                                 \
        }                                                                                           \
    } while (0)

/* A case that cannot run here for a reason other than absent data (a Release build, the system):
 * says why and counts as SKIP_IF_ABSENT does, so RUN_TESTS reports the file SKIPPED, not passed.
 * A file whose other cases run everywhere names such a case in PF_OWN_CASES of
 * tests/CMakeLists.txt: a ctest of its own, so that its skip does not hide the rest of the file. */
#define SKIP_BECAUSE(why)                                                                           \
    do {                                                                                            \
        print_message("SKIP: %s\n", (why));                                                         \
        ++*testutil_skips();                                                                        \
        skip();                                                                                     \
    } while (0)

#define RUN_TESTS(tests) RUN_TESTS_WITH(tests, NULL, NULL)
/* ... with a group setup and teardown */
#define RUN_TESTS_WITH(tests, setup, teardown)                                                      \
    (getenv("PF_TEST_ONLY") ? cmocka_set_test_filter(getenv("PF_TEST_ONLY")) : (void)0,             \
     getenv("PF_TEST_EXCEPT") ? cmocka_set_skip_filter(getenv("PF_TEST_EXCEPT")) : (void)0,         \
     testutil_exit(cmocka_run_group_tests(tests, setup, teardown)))

static inline int testutil_exit(int failed)
{
    return failed ? failed : *testutil_skips() ? TESTUTIL_SKIPPED : 0;
}

/* Calls fn(map, scen, user) for every MAP.map.scen in `dir` (readdir order) with MAP.map beside it;
 * returns how many. Include <dirent.h> and <stdio.h> first. */
#ifdef _DIRENT_H
static inline unsigned each_scen_file(const char *dir, void (*fn)(const char *map, const char *scen, void *user),
                                      void *user)
{
    DIR *dp = opendir(dir);
    if (!dp) return 0;
    struct dirent *de;
    unsigned files = 0;
    char mp[1024], sp[1024];
    while ((de = readdir(dp))) {
        size_t len = strlen(de->d_name);
        if (len < 9 || strcmp(de->d_name + len - 9, ".map.scen") != 0) continue;
        snprintf(sp, sizeof sp, "%s/%s", dir, de->d_name);
        snprintf(mp, sizeof mp, "%s/%.*s", dir, (int)(len - 5), de->d_name);
        fn(mp, sp, user);
        files++;
    }
    closedir(dp);
    return files;
}
#endif

#endif
