/* testutil.h - small helpers shared by the property and data-driven tests (header only). */
#ifndef PF_TEST_UTIL_H
#define PF_TEST_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

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

/* Costs compared to 1e-9 relative: sums of the same steps in another order may differ in the last bits. */
static inline int close_to(double a, double b) { return fabs(a - b) <= 1e-9 * (1.0 + fabs(b)); }

/* An allocator for pf_allocator hooks that counts live blocks and bytes, remembers the largest
 * request, and fails when `countdown` reaches 0 (negative: never):
 *     test_tracker t = {.countdown = -1};
 *     pf_allocator a = {test_track_alloc, test_track_free, &t}; */
typedef struct test_tracker {
    long   live;
    size_t bytes, largest;
    int    countdown;
} test_tracker;

static inline void *test_track_alloc(size_t n, size_t align, void *u)
{
    test_tracker *t = u;
    if (t->countdown == 0) return NULL;
    if (t->countdown > 0) t->countdown--;
    size_t a = align < sizeof(void *) ? sizeof(void *) : align;
    void *p = aligned_alloc(a, (n + a - 1) / a * a);
    if (p) {
        t->live++;
        t->bytes += n;
        if (n > t->largest) t->largest = n;
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

/* PF_TEST_SCALE (float, default 1) scales how much a test does: CI's sanitizer runs use 0.25. */
static inline double env_scale(void)
{
    const char *e = getenv("PF_TEST_SCALE");
    double v = e ? atof(e) : 1.0;
    return v > 0 ? v : 1.0;
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

#endif
