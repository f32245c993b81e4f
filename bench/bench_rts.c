/* bench_rts.c - the RTS frame of issue 16: 300 units on a 2000x2000 map get 100-300 orders a frame
 * (70% short moves, urgent: a goal within 16 steps of walking; 30% long moves across the map,
 * normal; every 10th frame a squad of 50 units sent to one goal, normal). Every order supersedes the
 * unit's pending one. Each frame submits its orders and runs the batch once with a 4 ms time budget
 * (one deadline, from the first worker's start), on 1 and 2 workers, at 60 frames a second (the rest of each 16.7 ms
 * frame is slept, and the CPU the process burns meanwhile is measured: idle OpenMP threads).
 * Prints one JSON object: per map and worker count, frame time p50/p99/max and the first frame (wall
 * clock, and the process's CPU time: on a machine shared with other work the wall clock of a frame
 * includes time the workers waited for a core), the first frame of a batch made without
 * pf_batch_reserve, lag p50/p99/max per priority (frames from submission to result; the normal
 * orders are the long ones: how many arrived, were superseded or were still on their way at the
 * end), queries/s and expansions/s of frame time, CPU burnt between frames, RSS; and per map, when
 * both ran, 2 workers against 1: throughput (expansions and queries per second of frame time) and
 * frame p50. --budget-exp E runs every frame under an expansion budget of E instead (lockstep:
 * what completes is the same for any worker count, so what 2 workers change is the frame's time).
 *
 *     bench_rts [--frames F] [--budget-us U | --budget-exp E] [--workers 1,2] [--seed S] [--hz H]
 *               [--keep-omp-policy] [MAP...]
 *     defaults: 240 frames, 4000 us, workers 1 and 2, 60 Hz, the three 2000x2000 maps of ../shared/data
 *
 * Unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is set (or --keep-omp-policy given), the benchmark
 * restarts itself once with OMP_WAIT_POLICY=passive (pf_batch.h, OPENMP WAIT POLICY); the JSON says
 * which policy ran. The order stream is generated before the timed frames and is the same for every
 * worker count.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "pathfind.h"
#include "bench_util.h"

enum { UNITS = 300, SQUAD = 50, SQUAD_EVERY = 10, SHORT_STEPS = 16 };

static double cpu_s(void)
{
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return (double)r.ru_utime.tv_sec + (double)r.ru_utime.tv_usec * 1e-6 + (double)r.ru_stime.tv_sec +
           (double)r.ru_stime.tv_usec * 1e-6;
}

static double pct(double *v, uint32_t n, double p)
{
    if (n == 0) return 0.0;
    qsort(v, n, sizeof *v, bench_cmp_d);
    uint32_t i = (uint32_t)(p * (n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

typedef struct order {
    uint32_t frame, unit, start, goal;
    pf_priority prio;
} order;

typedef struct stream {
    order   *o;
    uint32_t n, cap;
} stream;

static void push(stream *s, order o)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2u : 4096u;
        s->o = realloc(s->o, s->cap * sizeof *s->o);
        if (!s->o) exit(1);
    }
    s->o[s->n++] = o;
}

static uint32_t open_cell(const pf_map *m, uint64_t *s)
{
    uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    for (;;) {
        int32_t x = (int32_t)(bench_rng(s) % w), y = (int32_t)(bench_rng(s) % h);
        if (pf_grid_class(m, x, y)) return pf_grid_node(m, x, y);
    }
}

/* A cell at most SHORT_STEPS 4-neighbour steps away on open ground of the start's class (a
 * short move: a unit nudged nearby), found by a bounded breadth-first walk. */
static uint32_t short_goal(const pf_map *m, uint32_t start, uint64_t *s, uint32_t *stamp, uint32_t gen, uint32_t *queue)
{
    int32_t w = (int32_t)pf_grid_width(m), h = (int32_t)pf_grid_height(m);
    pf_point p0 = pf_grid_point(m, start);
    uint8_t cls = pf_grid_class(m, p0.x, p0.y);
    uint32_t head = 0, tail = 0, level_end, depth = 0;
    queue[tail++] = start;
    stamp[start] = gen;
    level_end = tail;
    while (head < tail && depth < SHORT_STEPS) {
        uint32_t c = queue[head++];
        pf_point p = pf_grid_point(m, c);
        static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
        for (int k = 0; k < 4; k++) {
            int32_t x = p.x + dx[k], y = p.y + dy[k];
            if (x < 0 || y < 0 || x >= w || y >= h || pf_grid_class(m, x, y) != cls) continue;
            uint32_t nb = pf_grid_node(m, x, y);
            if (stamp[nb] == gen) continue;
            stamp[nb] = gen;
            queue[tail++] = nb;
        }
        if (head == level_end) {
            depth++;
            level_end = tail;
        }
    }
    return tail > 1 ? queue[1 + bench_rng(s) % (tail - 1)] : start;
}

static stream make_stream(const pf_map *m, uint32_t frames, uint64_t seed)
{
    stream st = {0};
    uint64_t s = seed;
    uint32_t cells = pf_grid_width(m) * pf_grid_height(m);
    uint32_t *stamp = calloc(cells, sizeof *stamp), *queue = malloc(cells * sizeof *queue), gen = 0;
    uint32_t pos[UNITS], used[UNITS] = {0};
    if (!stamp || !queue) exit(1);
    for (uint32_t u = 0; u < UNITS; u++) pos[u] = open_cell(m, &s);
    for (uint32_t f = 0; f < frames; f++) {
        uint32_t n = 100 + (uint32_t)(bench_rng(&s) % 201), given = 0;
        if (f % SQUAD_EVERY == 0) { /* a squad: 50 units, one goal */
            uint32_t goal = open_cell(m, &s), u0 = (uint32_t)(bench_rng(&s) % UNITS);
            for (uint32_t k = 0; k < SQUAD; k++) {
                uint32_t u = (u0 + k * 7u) % UNITS; /* 7 is prime to 300: 50 distinct units */
                used[u] = f + 1;
                push(&st, (order){f, u, pos[u], goal, PF_PRIORITY_NORMAL});
                pos[u] = goal;
                given++;
            }
        }
        for (uint32_t tries = 0; given < n && tries < 4 * n; tries++) {
            uint32_t u = (uint32_t)(bench_rng(&s) % UNITS);
            if (used[u] == f + 1) continue; /* one order per unit and frame */
            used[u] = f + 1;
            order o = {f, u, pos[u], 0, PF_PRIORITY_URGENT};
            if (bench_rng(&s) % 10 < 7) {
                o.goal = short_goal(m, pos[u], &s, stamp, ++gen, queue);
            } else {
                o.goal = open_cell(m, &s);
                o.prio = PF_PRIORITY_NORMAL;
            }
            push(&st, o);
            pos[u] = o.goal;
            given++;
        }
    }
    free(stamp);
    free(queue);
    return st;
}

typedef struct lagset {
    double  *v;
    uint32_t n, orders, superseded, pending;
} lagset;

static void print_lags(const char *name, lagset *l, int comma)
{
    double p50 = pct(l->v, l->n, 0.5), p99 = pct(l->v, l->n, 0.99), mx = l->n ? l->v[l->n - 1] : 0.0;
    printf("\"%s\":{\"orders\":%u,\"completed\":%u,\"superseded\":%u,\"pending\":%u,\"lag_p50\":%.0f,"
           "\"lag_p99\":%.0f,\"lag_max\":%.0f}%s",
           name, l->orders, l->n, l->superseded, l->pending, p50, p99, mx, comma ? "," : "");
}

/* What the 2-against-1 comparison reads from a run. */
typedef struct run_figs {
    uint32_t workers;
    double   frame_p50, qps, eps;
} run_figs;

static pf_batch_reserve_desc reserve_for(void)
{
    /* query slots for a frame's orders plus the pending ones; open lists for long crossings (a
     * 2000x2000 A* frontier stays well under 256 K entries); arenas for a frame's paths */
    return (pf_batch_reserve_desc){.queries = 4096, .open_list = 1u << 18, .arena_bytes = (size_t)8 << 20, .spares = 1};
}

static double g_hz = 60.0;

static run_figs run_config(const pf_map *m, const stream *st, uint32_t frames, uint32_t workers,
                           pf_batch_budget budget)
{
    const uint64_t budget_us = budget.max_us;
    /* the first frame without a reservation, for comparison: spares made inside it */
    double first_unreserved, first_unreserved_cpu;
    {
        pf_batch *b;
        if (pf_batch_create(m, &(pf_batch_desc){.workers = workers}, &b) != PF_OK) exit(1);
        double t0 = bench_wall_s(), c0 = cpu_s();
        for (uint32_t i = 0; i < st->n && st->o[i].frame == 0; i++) {
            const order *o = &st->o[i];
            pf_batch_submit(b, &(pf_batch_query){.start = o->start, .goal = o->goal, .tag = o->unit, .priority = o->prio,
                                                 .flags = PF_QUERY_SUPERSEDE}, NULL);
        }
        pf_batch_run(b, &budget);
        first_unreserved = bench_wall_s() - t0;
        first_unreserved_cpu = cpu_s() - c0;
        pf_batch_destroy(b);
    }
    pf_batch *b;
    if (pf_batch_create(m, &(pf_batch_desc){.workers = workers, .reserve = reserve_for()}, &b) != PF_OK) exit(1);
    pf_query_id *ids = calloc(st->n, sizeof *ids);
    uint32_t *pend = malloc(st->n * sizeof *pend), npend = 0;
    double *ft = malloc(frames * sizeof *ft), *fc = malloc(frames * sizeof *fc), *lagbuf = malloc(2 * (size_t)st->n * sizeof *lagbuf);
    lagset lag[2] = {{lagbuf, 0, 0, 0, 0}, {lagbuf + st->n, 0, 0, 0, 0}}; /* urgent, normal */
    double busy = 0.0, idle_cpu = 0.0, next = bench_wall_s();
    uint32_t completed = 0, over = 0;
    for (uint32_t f = 0, i = 0; f < frames; f++) {
        pf_batch_reset(b);
        double t0 = bench_wall_s(), c0 = cpu_s();
        for (; i < st->n && st->o[i].frame == f; i++) {
            const order *o = &st->o[i];
            pf_batch_submit(b, &(pf_batch_query){.start = o->start, .goal = o->goal, .tag = o->unit, .priority = o->prio,
                                                 .flags = PF_QUERY_SUPERSEDE}, &ids[i]);
            pend[npend++] = i;
            lag[o->prio == PF_PRIORITY_URGENT ? 0 : 1].orders++;
        }
        pf_batch_run(b, &budget);
        ft[f] = bench_wall_s() - t0;
        fc[f] = cpu_s() - c0;
        busy += ft[f];
        over += budget_us && ft[f] > 1.25e-6 * (double)budget_us;
        uint32_t keep = 0;
        for (uint32_t k = 0; k < npend; k++) {
            pf_batch_result r;
            const order *o = &st->o[pend[k]];
            lagset *l = &lag[o->prio == PF_PRIORITY_URGENT ? 0 : 1];
            if (pf_batch_get(b, ids[pend[k]], &r) != PF_OK || r.status == PF_IN_PROGRESS) {
                pend[keep++] = pend[k];
            } else if (r.status == PF_SUPERSEDED || r.status == PF_CANCELLED) {
                l->superseded++;
            } else {
                l->v[l->n++] = (double)(f - o->frame);
                completed++;
            }
        }
        npend = keep;
        /* 60 frames a second: the game's share of the frame is slept, and the CPU burnt meanwhile
         * (idle worker threads spinning) is measured */
        next += 1.0 / g_hz;
        double c1 = cpu_s(), wait = next - bench_wall_s();
        if (wait > 0) nanosleep(&(struct timespec){0, (long)(wait * 1e9)}, NULL);
        else next = bench_wall_s();
        idle_cpu += cpu_s() - c1;
    }
    for (uint32_t k = 0; k < npend; k++) lag[st->o[pend[k]].prio == PF_PRIORITY_URGENT ? 0 : 1].pending++;
    double first = ft[0], first_cpu = fc[0], fmax = 0.0;
    for (uint32_t f = 0; f < frames; f++) fmax = ft[f] > fmax ? ft[f] : fmax;
    double p50 = pct(ft, frames, 0.5), p99 = pct(ft, frames, 0.99);
    double c50 = pct(fc, frames, 0.5), c99 = pct(fc, frames, 0.99);
    pf_batch_stats bs = pf_batch_get_stats(b);
    run_figs figs = {workers, p50, busy > 0 ? completed / busy : 0.0, busy > 0 ? (double)bs.expanded / busy : 0.0};
    printf("{\"workers\":%u,\"frame_ms_p50\":%.3f,\"frame_ms_p99\":%.3f,\"frame_ms_max\":%.3f,\"first_frame_ms\":%.3f,"
           "\"first_frame_ms_unreserved\":%.3f,\"frames_over_1_25x_budget\":%u,\"frame_cpu_ms_p50\":%.3f,"
           "\"frame_cpu_ms_p99\":%.3f,\"first_frame_cpu_ms\":%.3f,\"first_frame_cpu_ms_unreserved\":%.3f,"
           "\"queries_per_s\":%.1f,\"expanded_per_s\":%.0f,",
           workers, p50 * 1e3, p99 * 1e3, fmax * 1e3, first * 1e3, first_unreserved * 1e3, over, c50 * 1e3, c99 * 1e3,
           first_cpu * 1e3, first_unreserved_cpu * 1e3,
           busy > 0 ? completed / busy : 0.0, busy > 0 ? (double)bs.expanded / busy : 0.0);
    print_lags("urgent", &lag[0], 1);
    print_lags("normal", &lag[1], 1);
    printf("\"idle_cpu_ms_per_frame\":%.3f,\"expanded\":%llu,\"restarted\":%llu,\"dropped\":%llu,\"batch_bytes\":%zu,"
           "\"rss_kb\":%ld}",
           idle_cpu * 1e3 / frames, (unsigned long long)bs.expanded, (unsigned long long)bs.restarted,
           (unsigned long long)bs.dropped,
           pf_batch_mem_size(b), bench_status_kb("VmRSS:"));
    pf_batch_destroy(b);
    free(ids);
    free(pend);
    free(ft);
    free(fc);
    free(lagbuf);
    return figs;
}

int main(int argc, char **argv)
{
    uint32_t frames = 240, nw = 0, wl[8];
    uint64_t budget_us = 4000, budget_exp = 0, seed = 16;
    int keep_policy = 0;
    const char *maps[16];
    int nmaps = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--budget-us") == 0 && i + 1 < argc) budget_us = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--budget-exp") == 0 && i + 1 < argc) budget_exp = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--hz") == 0 && i + 1 < argc) g_hz = strtod(argv[++i], NULL);
        else if (strcmp(argv[i], "--keep-omp-policy") == 0) keep_policy = 1;
        else if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc)
            /* read without writing into argv: strtok would cut "1,2" to "1" for the restart below */
            for (const char *p = argv[++i]; *p && nw < 8; p += strcspn(p, ",") + (p[strcspn(p, ",")] != '\0'))
                wl[nw++] = (uint32_t)atoi(p);
        else if (argv[i][0] == '-') { /* --help, or an option it does not know: not a map name */
            int help = strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0;
            fprintf(help ? stdout : stderr, "usage: bench_rts [--frames N] [--budget-us U] [--budget-exp E] [--seed S] [--hz H] "
                                            "[--workers L] [--keep-omp-policy] [MAP.map ...] (see bench/bench_rts.c)\n");
            return help ? 0 : 2;
        } else if (nmaps < 16) maps[nmaps++] = argv[i];
    }
    if (!keep_policy && !getenv("OMP_WAIT_POLICY") && !getenv("GOMP_SPINCOUNT") && setenv("OMP_WAIT_POLICY", "passive", 1) == 0) {
        fflush(NULL);
        execv("/proc/self/exe", argv); /* libgomp reads the policy when loaded: restart once */
        unsetenv("OMP_WAIT_POLICY");
    }
    if (frames < 1) frames = 1;
    if (nw == 0) {
        wl[nw++] = 1;
        wl[nw++] = 2;
    }
    if (nmaps == 0) {
        maps[nmaps++] = PF_SHARED_DATA "/grids/random-2000-20.map";
        maps[nmaps++] = PF_SHARED_DATA "/grids/rooms-2000.map";
        maps[nmaps++] = PF_SHARED_DATA "/grids/maze-2000-w4.map";
    }
    const char *pol = getenv("OMP_WAIT_POLICY"), *spin = getenv("GOMP_SPINCOUNT");
    if (!(g_hz > 0.0)) g_hz = 60.0;
    if (budget_exp) budget_us = 0; /* lockstep: expansions only */
    const pf_batch_budget budget = {.max_us = budget_us, .max_expansions = budget_exp};
    printf("{\"bench\":\"rts\",\"hz\":%.1f,\"units\":%d,\"frames\":%u,\"budget_us\":%llu,\"budget_exp\":%llu,"
           "\"orders_per_frame\":\"100-300\",\"normal_orders\":\"long\",\"throughput\":\"per second of frame time\","
           "\"short_share\":0.7,\"short_steps\":%d,\"squad_size\":%d,\"squad_every\":%d,\"seed\":%llu,"
           "\"omp_wait_policy\":\"%s\",\"gomp_spincount\":\"%s\",\"cpus\":%ld,"
           "\"note\":\"2-core machine shared with other jobs: timings are noisy\",\"maps\":[",
           g_hz, UNITS, frames, (unsigned long long)budget_us, (unsigned long long)budget_exp, SHORT_STEPS, SQUAD, SQUAD_EVERY, (unsigned long long)seed,
           pol ? pol : "default", spin ? spin : "default", sysconf(_SC_NPROCESSORS_ONLN));
    int first = 1;
    for (int k = 0; k < nmaps; k++) {
        pf_map *m;
        pf_diag d;
        if (pf_grid_load_movingai(maps[k], NULL, &m, &d) != PF_OK) {
            fprintf(stderr, "bench_rts: %s (skipped)\n", d.msg);
            continue;
        }
        stream st = make_stream(m, frames, seed);
        printf("%s{\"map\":\"%s\",\"orders\":%u,\"runs\":[", first ? "" : ",", maps[k], st.n);
        first = 0;
        run_figs one = {0}, two = {0};
        for (uint32_t w = 0; w < nw; w++) {
            if (w) printf(",");
            run_figs r = run_config(m, &st, frames, wl[w], budget);
            if (r.workers == 1) one = r;
            if (r.workers == 2) two = r;
            fflush(stdout);
        }
        printf("]");
        if (one.workers && two.workers && one.eps > 0.0 && one.qps > 0.0 && one.frame_p50 > 0.0)
            printf(",\"two_over_one\":{\"expanded_per_s\":%.3f,\"queries_per_s\":%.3f,\"frame_ms_p50\":%.3f}",
                   two.eps / one.eps, two.qps / one.qps, two.frame_p50 / one.frame_p50);
        printf("}");
        free(st.o);
        pf_map_destroy(m);
    }
    printf("],\"peak_rss_kb\":%ld}\n", bench_status_kb("VmHWM:"));
    return 0;
}
