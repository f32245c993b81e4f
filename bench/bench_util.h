/* bench_util.h - the clocks, random stream and /proc reading the benchmarks share (header only:
 * each bench is one executable of one source, bench/CMakeLists.txt). Include after the bench's
 * _POSIX_C_SOURCE definition, which clock_gettime needs. */
#ifndef PF_BENCH_UTIL_H
#define PF_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Wall-clock seconds from an arbitrary origin (monotonic). */
static inline double bench_wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds of the calling thread: on a machine shared by several jobs the wall clock also
 * counts the time the scheduler gave to others; benches report both. */
static inline double bench_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* splitmix64, the benches' query stream: the same seed draws the same queries in every run. */
static inline uint64_t bench_rng(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The number after `key` (such as "VmHWM:") in /proc/self/status, in kB; -1 without /proc. */
static inline long bench_status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long v = -1;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0) v = strtol(line + kl, NULL, 10);
    fclose(f);
    return v;
}

/* qsort comparator of doubles, ascending. */
static inline int bench_cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
