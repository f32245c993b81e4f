/* measure.c - what the commands measure and report: the wall clock, peak memory, each thread's
 * CPU time and wait for a core (Linux schedstat), and the seeded generator their draws use. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_args_only;

cli_rng cli_rng_seed(uint64_t seed, uint64_t salt) { return (cli_rng){seed * 0x9E3779B97F4A7C15ull + salt}; }

uint32_t cli_rng_next(cli_rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return (uint32_t)(r->s >> 16);
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

long cli_peak_rss_kb(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return -1;
    return ru.ru_maxrss; /* kilobytes on Linux */
}

/* Linux's per-thread schedstat (CONFIG_SCHED_INFO): nanoseconds the thread has run on a core,
 * then nanoseconds it has waited, runnable, for one. A frame's wall time takes in every wait of
 * its threads, one after another or at once, so no sum of them is the frame's loss; what one
 * thread ran is exact, and it is what the batch's own work is measured by: a frame over its
 * budget whose busiest thread ran no more than the budget allows lost the rest off the cores. */
int cli_waits_read(cli_waits *w)
{
    w->n = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)) && w->n < CLI_WAITS_MAX) {
        char *end = NULL;
        long long tid = strtoll(e->d_name, &end, 10);
        if (!end || *end || end == e->d_name) continue; /* "." and ".." */
        char path[64];
        snprintf(path, sizeof path, "/proc/self/task/%lld/schedstat", tid);
        FILE *f = fopen(path, "r");
        if (!f) continue; /* a thread that ended since readdir */
        unsigned long long run, wait;
        /* schedstat's run time of a thread on a core now is as of its last tick (up to 4 ms
         * behind): its CPU clock is read instead, which Linux brings up to date (the clock id
         * glibc's pthread_getcpuclockid makes of a thread id: ~tid << 3 | per-thread | sched) */
        struct timespec ts;
        const clockid_t cid = (clockid_t)((~(unsigned long long)tid << 3) | 6u);
        if (fscanf(f, "%llu %llu", &run, &wait) == 2 && wait <= (unsigned long long)LLONG_MAX &&
            clock_gettime(cid, &ts) == 0) {
            w->tid[w->n] = tid;
            w->run[w->n] = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
            w->wait[w->n++] = (long long)wait;
        }
        fclose(f);
    }
    closedir(d);
    return w->n > 0;
}

void cli_waits_frame(const cli_waits *before, const cli_waits *after, double *busiest_ms, double *wait_ms)
{
    long long run = 0, wait = 0;
    for (uint32_t i = 0; i < after->n; i++) {
        long long r0 = 0, w0 = 0; /* a thread started since: all of it is the frame's */
        for (uint32_t k = 0; k < before->n; k++)
            if (before->tid[k] == after->tid[i]) {
                r0 = before->run[k];
                w0 = before->wait[k];
                break;
            }
        if (after->run[i] - r0 > run) run = after->run[i] - r0;
        if (after->wait[i] - w0 > wait) wait = after->wait[i] - w0;
    }
    *busiest_ms = (double)run * 1e-6;
    *wait_ms = (double)wait * 1e-6;
}
